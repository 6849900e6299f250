#!/usr/bin/env bash
# Packs the student version of the kit: every tracked file except the reference
# solutions, the instructor-only library of reference answers (grader/ref/), the hidden tests, the model answers to the handouts' questions
# (handouts/answers/, for the instructor build of the handbook only) and the
# broken-submission corpus (which is built from the solutions). Usage: dist-student.sh OUT_DIR; prints the tarball's path.
set -eu
out=${1:-build/dist}
name=gpu-merge-kit-student
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "dist-student: run it in the kit's git checkout (it packs the tracked files)" >&2
    exit 1
fi
mkdir -p "$out"
list=$(mktemp)
trap 'rm -f "$list"' EXIT
# Tracked files as they are in the working tree; what is left out never ships.
git ls-files -z | tr '\0' '\n' |
    grep -v -E '^(solutions/|grader/ref/|grader/hidden/|grader/tests/submissions/|handouts/answers/)' |
    while IFS= read -r f; do [ -e "$f" ] && printf '%s\n' "$f"; done >"$list"
tar -czf "$out/$name.tar.gz" --sort=name --owner=0 --group=0 --numeric-owner \
    --transform "s,^,$name/," -T "$list"
echo "$out/$name.tar.gz"
