# Escaping the folder: the submitted file is a link to /etc/passwd, which the grader must not read as the student's work
mkdir 01-sequential-merge
ln -s /etc/passwd 01-sequential-merge/merge_sequential.cuh
