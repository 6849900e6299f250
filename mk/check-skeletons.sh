#!/usr/bin/env bash
# Checks every lab skeleton two ways: it is exactly what skelgen makes from the
# solution (so the two never drift), and its tests fail cleanly with
# "not implemented: <lab>:<task>" (no crash, no hang, no pass).
# Usage: check-skeletons.sh SKELGEN BUILD_DIR
set -u
skelgen=$1 build=$2
passed=0 failed=0
ok() { echo "  ok    $1"; passed=$((passed + 1)); }
bad() { echo "  FAIL  $1"; failed=$((failed + 1)); }

mkdir -p "$build/skel-check"
for sol in solutions/*/*.cuh; do
    rel=${sol#solutions/}
    fresh="$build/skel-check/${rel//\//_}"
    if ! "$skelgen" "$sol" "$fresh"; then
        bad "$rel: skelgen failed"
    elif cmp -s "$fresh" "labs/$rel"; then
        ok "labs/$rel is generated from $sol"
    else
        bad "labs/$rel differs from what skelgen makes of $sol (run: make skeletons)"
    fi
done

# The tests that passed on a skeleton although their names mention a function the student writes
# (the identifiers with an underscore in the spec's task lines): such a test cannot fail.
skeleton_passes() {
    local fn line
    for fn in $(grep '^task' "$1" | grep -o '\b[a-z0-9]*_[a-z0-9_]*\b' | sort -u); do
        while IFS= read -r line; do
            line=${line#*Test: }
            [ -n "$line" ] && printf '"%s" ' "${line% ...passed}"
        done < <(grep "Test: .*\b$fn\b.*\.\.\.passed" <<<"$2")
    done
}

for spec in labs/*/grading.spec; do
    lab=$(basename "$(dirname "$spec")")
    test="$build/labs/student-cpu/$lab/test" # the CPU build runs every suite, kernels included
    out=$(timeout 120 "$test" 2>&1)
    status=$?
    if [ $status -ge 124 ]; then
        bad "$lab skeleton tests crashed or hung (exit $status)"
    elif [ $status = 0 ]; then
        bad "$lab skeleton tests pass, so they cannot tell a skeleton from an answer"
    elif ! grep -q "not implemented: $lab:" <<<"$out"; then
        bad "$lab skeleton tests fail without saying 'not implemented: $lab:<task>'"
    elif vacuous=$(skeleton_passes "$spec" "$out") && [ -n "$vacuous" ]; then
        bad "$lab skeleton passes a test of a function the student writes: $vacuous"
    else
        ok "$lab skeleton compiles, runs and reports: $(grep -o "not implemented: $lab:[a-z_]*" <<<"$out" | head -n 1)"
    fi
done
echo "skeletons: $passed passed, $failed failed, 0 skipped"
[ $failed = 0 ]
