#!/usr/bin/env bash
# Packs the student version of the kit: every tracked file except the reference
# solutions, the hidden tests, the model answers to the handouts' questions
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
    grep -v -E '^(solutions/|grader/hidden/|grader/tests/submissions/|handouts/answers/)' |
    while IFS= read -r f; do [ -e "$f" ] && printf '%s\n' "$f"; done >"$list"
# A common/ file with //@answer regions (lab 8's reference construction in kit_worst.c) ships
# with the regions stripped, as a skeleton would: its //@ lines uncommented, its answers left out.
stage=$(mktemp -d)
trap 'rm -f "$list"; rm -rf "$stage"' EXIT
while IFS= read -r f; do
    mkdir -p "$stage/$(dirname "$f")"
    case $f in
    common/*) awk '/^[ \t]*\/\/@answer[ \t]*$/ { mode = 1; next }
                   /^[ \t]*\/\/@skeleton[ \t]*$/ { mode = 2; next }
                   /^[ \t]*\/\/@end[ \t]*$/ { mode = 0; next }
                   mode == 1 { next }
                   mode == 2 { sub(/\/\/@ ?/, ""); print; next }
                   { print }' "$f" >"$stage/$f" && chmod --reference="$f" "$stage/$f" ;;
    *) cp -p "$f" "$stage/$f" ;;
    esac
done <"$list"
tar -czf "$out/$name.tar.gz" --sort=name --owner=0 --group=0 --numeric-owner \
    --transform "s,^,$name/," -C "$stage" -T "$list"
echo "$out/$name.tar.gz"
