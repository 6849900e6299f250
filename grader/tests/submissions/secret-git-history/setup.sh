# Points the include at the kit's repository metadata: .git/HEAD in a clone, the .git file in a worktree
if [ -f "$KIT_ROOT/.git" ]; then
    sed -i 's|\.\./\.\./\.\./\.\./\.git/HEAD|../../../../.git|' 02-co-rank/co_rank.cuh
fi
