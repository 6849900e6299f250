#!/usr/bin/env bash
# Packs the student version of the kit: every tracked file except those of LEAVE_OUT below (the
# reference solutions, the instructor-only library of reference answers grader/ref/, the hidden
# tests, the model answers, the corpus) and the measurements of results/ that name a hidden test,
# with the instructor-only parts taken out of the files of FOR_STUDENTS below by mk/audience.sh:
# <!--@instructor--> ... <!--@end--> parts, and lines that hold <!--@instructor--> (a table's row),
# left out; the <!--@student ... @end--> parts (an HTML comment in the kit's copy) shown. So the
# student's kit has a README and a lab contract of its own, each kept in one file with the kit's.
# The Makefile is the same: it sees that there is no solutions/ and builds, tests and grades the
# student's labs/. Usage: dist-student.sh OUT_DIR; prints the tarball's path.
set -eu
out=${1:-build/dist}
name=gpu-merge-kit-student

# What never ships: the reference solutions, the instructor-only library of reference answers,
# the hidden tests, the broken-submission corpus (built from the solutions), the model answers to
# the handouts' questions (the instructor build of the handbook only) and the kit's own CI.
# Add a folder here, ending with /, or a file.
# The search mode's stored warps (results/...-worst-search-w32) hold lab 8's construction for small E.
LEAVE_OUT=(solutions/ grader/ref/ grader/hidden/ grader/tests/submissions/ handouts/answers/ .ci/ results/2026-12-06-cpu-worst-search-w32/)
# The pages written for both readers, as the student gets them (mk/audience.sh).
FOR_STUDENTS=(README.md labs/README.md docs/mainpage.md)

if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "dist-student: run it in the kit's git checkout (it packs the tracked files)" >&2
    exit 1
fi
mkdir -p "$out"
list=$(mktemp)
stage=$(mktemp -d)
names=$(mktemp)
hidden_results=$(mktemp)
trap 'rm -f "$list" "$names" "$hidden_results"; rm -rf "$stage"' EXIT
left_out() {
    local p
    for p in "${LEAVE_OUT[@]}"; do
        case $1 in "$p"*) return 0 ;; esac
    done
    return 1
}
# The measurements of results/ that name a hidden test, today's or one the kit once had (its
# per-launch shapes, its verdicts), never ship either: the student's kit learns no hidden test's
# name or shape (mk/hidden-signatures.sh; mk/check-dist.sh looks for them in the whole tarball).
# And no course secret (grader --make-secret FILE), wherever one was left.
bash mk/hidden-signatures.sh names >"$names"
{ [ -s "$names" ] && git ls-files -z results | xargs -0 -r grep -lwF -f "$names" --; } >"$hidden_results" 2>/dev/null || true
# Tracked files as they are in the working tree; what is left out never ships.
git ls-files -z | tr '\0' '\n' | while IFS= read -r f; do
    case $f in *.secret) continue ;; esac
    if [ -e "$f" ] && ! left_out "$f" && ! grep -qxF -- "$f" "$hidden_results"; then printf '%s\n' "$f"; fi
done >"$list"

# Copied with one tar (modes and times kept), then the shared pages rewritten in place.
tar -cf - -T "$list" | tar -xf - -C "$stage"
for f in "${FOR_STUDENTS[@]}"; do
    if grep -qxF "$f" "$list"; then
        bash mk/audience.sh student "$f" >"$stage/$f"
    fi
done
# The skeletons once more, in grader/skeletons/: the grader's object check builds its baseline from
# them, so a student's edits in labs/ neither move the baseline nor make it rebuild (grader/build.c).
for f in labs/[0-9]*/*.cuh; do
    mkdir -p "$stage/grader/skeletons/$(basename "$(dirname "$f")")"
    cp -p "$f" "$stage/grader/skeletons/${f#labs/}"
    printf 'grader/skeletons/%s\n' "${f#labs/}" >>"$list"
done
tar -czf "$out/$name.tar.gz" --sort=name --owner=0 --group=0 --numeric-owner \
    --transform "s,^,$name/," -C "$stage" -T "$list"
echo "$out/$name.tar.gz"
