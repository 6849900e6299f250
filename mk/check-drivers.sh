#!/usr/bin/env bash
# Runs every lab's driver as a student would (CPU build): the solution passes,
# a bad option exits 2 with a message, the skeleton exits 1 saying "not
# implemented", and a kernel lab's --trace writes a kit trace.
# Usage: check-drivers.sh BUILD_DIR
set -u
build=$1
passed=0 failed=0
ok() { echo "  ok    $1"; passed=$((passed + 1)); }
bad() { echo "  FAIL  $1"; failed=$((failed + 1)); }
trace=$(mktemp)
for spec in labs/*/grading.spec; do
    lab=$(basename "$(dirname "$spec")")
    sol="$build/labs/sol-cpu/$lab/driver" skel="$build/labs/student-cpu/$lab/driver"
    out=$(timeout 60 "$sol" --m 300 --n 200 --gen duplicates 2>&1); st=$?
    [ $st = 0 ] && grep -q '^PASS' <<<"$out" && ok "$lab: solution driver passes" || bad "$lab: solution driver gave exit $st: $out"
    out=$(timeout 60 "$sol" --m -3 2>&1); st=$?
    [ $st = 2 ] && grep -q -- "--m" <<<"$out" && ok "$lab: a bad option exits 2 naming it" || bad "$lab: bad option gave exit $st: $out"
    out=$(timeout 60 "$skel" --m 30 --n 20 2>&1); st=$?
    [ $st = 1 ] && grep -q "not implemented: $lab:" <<<"$out" && ok "$lab: skeleton driver says not implemented" ||
        bad "$lab: skeleton driver gave exit $st: $out"
    if grep -q '^test .*blocks=' "$spec"; then
        out=$(timeout 60 "$sol" --m 64 --n 64 --blocks 2 --threads 32 --tile 16 --trace "$trace" 2>&1); st=$?
        [ $st = 0 ] && head -n 1 "$trace" | grep -q '^# kit-trace 2' && grep -q '^trace: ' <<<"$out" &&
            ok "$lab: --trace writes a kit trace and its counts" || bad "$lab: --trace gave exit $st: $out"
    fi
done
rm -f "$trace"
echo "drivers: $passed passed, $failed failed, 0 skipped"
[ $failed = 0 ]
