# Escaping the folder: the lab folder itself is a link to the kit's solution (KIT_ROOT is the kit).
ln -s "$KIT_ROOT/solutions/01-sequential-merge" 01-sequential-merge
