#!/usr/bin/env bash
# Packs the Gradescope autograder: a zip with setup.sh and run_autograder at its
# root and the kit's tracked sources beside them (solutions and hidden tests
# included, and with SECRET=FILE the course secret; the broken-submission corpus
# and build/ left out). Installs zip with apt-get when run as root and it is
# missing; otherwise prints the command.
# Usage: dist-gradescope.sh OUT_DIR; prints the zip's path.
set -eu
out=${1:-build/dist}
name=gpu-merge-kit-gradescope
if ! command -v zip >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "dist-gradescope: installing zip with apt-get" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get install -y -q zip >/dev/null 2>&1 ||
            { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q zip >/dev/null; } ||
            { echo "dist-gradescope: apt-get could not install zip" >&2; exit 1; }
    else
        echo "dist-gradescope: zip is missing; install it with:" >&2
        echo "      sudo apt-get install -y zip" >&2
        exit 1
    fi
fi
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "dist-gradescope: run it in the kit's git checkout (it packs the tracked files)" >&2
    exit 1
fi
mkdir -p "$out"
out_abs=$(cd "$out" && pwd)
stage=$(mktemp -d)
list=$(mktemp)
trap 'rm -rf "$stage" "$list"' EXIT
git ls-files -z | tr '\0' '\n' | grep -v -E '^grader/tests/submissions/' |
    while IFS= read -r f; do [ -e "$f" ] && printf '%s\n' "$f"; done >"$list"
tar -cf - -T "$list" | tar -xf - -C "$stage"
cp grader/gradescope/setup.sh grader/gradescope/run_autograder "$stage/"
# SECRET=FILE: the course's secret (grader --make-secret FILE), so that the autograder draws the
# hidden tests the course's other grading draws; without it setup.sh makes one for the image.
if [ -n "${SECRET:-}" ]; then
    cp "$SECRET" "$stage/grader/course.secret" && chmod 600 "$stage/grader/course.secret"
fi
chmod 755 "$stage/setup.sh" "$stage/run_autograder"
rm -f "$out_abs/$name.zip"
(cd "$stage" && zip -q -r -X "$out_abs/$name.zip" .)
echo "$out/$name.zip"
