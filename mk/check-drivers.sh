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
    # One truth: a spec that also judges counts (conflicts, loads, stores) makes make run's PASS say so.
    if grep -Eq '^test .*(conflicts|loads|stores)[<>=]' "$spec"; then
        grep -q "^  not judged here: .*; make check LAB=${lab%%-*} judges it" <<<"$out" &&
            ok "$lab: make run's PASS names the checks only make check makes" ||
            bad "$lab: the spec judges counts, and make run's PASS does not say that make check LAB=${lab%%-*} does: $out"
    else
        ! grep -q "not judged here" <<<"$out" && ok "$lab: make run judges all its spec does" ||
            bad "$lab: make run names checks its spec does not make: $out"
    fi
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

# Lab 6's trace summary comes from the trace: the solution's reads per query are the search's, split
# into stages; lab 1's unwritten slots are named as such.
d6=$build/labs/sol-cpu/06-predecessor-search/driver
out=$(timeout 60 "$d6" --m 4096 --n 2048 --alg cf --blocks 1 --threads 256 --trace "$trace" 2>&1)
grep -q "reads 40.00 times per query (81920 reads, 2048 queries; cf reads 40)" <<<"$out" && grep -q "stage 2 (scan)" <<<"$out" &&
    ok "06-predecessor-search: --trace counts the reads per query in the trace" || bad "06-predecessor-search: --trace: $out"
rm -f "$trace"

# Handout 01's stability example quotes the tags the kit gives kv32 values (A: 0, 1, ...; B: -1, -2, ...):
# read in order, its values from A are the driver's A values, and those from B the driver's B values.
values() { sed -n "s/^$1 ([0-9]*): //p" <<<"$2" | grep -o 'value -\?[0-9]*' | awk '{print $2}' | paste -sd' ' -; }
only() { tr ' ' '\n' <<<"$2" | grep -Fxf <(tr ' ' '\n' <<<"$1") | paste -sd' ' -; }
out=$(timeout 60 "$build/labs/sol-cpu/01-sequential-merge/driver" --m 5 --n 4 --type kv32 --print 2>&1)
a=$(values A "$out") b=$(values B "$out")
example=$(tr '\n' ' ' <handouts/01-sequential-merge.md | grep -o 'values must read *`[^`]*`' | grep -o '`.*`' | tr -d '`')
if [ -n "$a" ] && [ -n "$b" ] && [ "$(only "$a" "$example")" = "$a" ] && [ "$(only "$b" "$example")" = "$b" ] &&
    [ "$(wc -w <<<"$example")" = 9 ]; then
    ok "handouts/01-sequential-merge.md's stable example ($example) uses the driver's tags (A: $a; B: $b)"
else
    bad "handouts/01-sequential-merge.md's stable example reads '$example'; the driver tags A with '$a' and B with '$b'"
fi
# make check shows the compiler's warnings in the student's file, and only there: lab 1's solution
# with an unused variable gets one block naming its line.
sub=$(mktemp -d)
mkdir -p "$sub/01-sequential-merge"
sed 's|^\( *\)while (j < n)$|\1int unused_here = 0;\n&|' solutions/01-sequential-merge/merge_sequential.cuh \
    >"$sub/01-sequential-merge/merge_sequential.cuh"
out=$(KIT_CHECK_SUBMISSION="$sub" bash mk/check.sh "$build/grader/grader" "$build" 01-sequential-merge 2>&1)
if grep -q "^  the compiler's warnings in your file:" <<<"$out" &&
    grep -q "^    $sub/01-sequential-merge/merge_sequential.cuh:[0-9]*:[0-9]*: warning: unused variable 'unused_here'" <<<"$out" &&
    ! grep -q "warning: .*harness" <<<"$out" && grep -q "12 of 12 public tests pass" <<<"$out"; then
    ok "make check shows the student's own compiler warnings, their file's lines only"
else
    bad "make check did not show the unused variable of the student's file: $out"
fi
rm -rf "$sub"
# make run on a GPU (mk/run-gpu.sh): a driver that fails runs once more under compute-sanitizer's
# memcheck, and the exit status stays the first run's; a driver that passes runs once. Tried with a
# stand-in driver and a stand-in compute-sanitizer that says how it was called.
fake=$(mktemp -d)
printf '#!/bin/sh\necho "SANITIZER $*"\n' >"$fake/compute-sanitizer"
printf '#!/bin/sh\necho "DRIVER $*"\nexit 3\n' >"$fake/failing"
printf '#!/bin/sh\necho "DRIVER $*"\n' >"$fake/passing"
chmod +x "$fake"/*
out=$(PATH="$fake:$PATH" bash mk/run-gpu.sh "$fake/failing" --m 5 2>&1)
status=$?
again=$(PATH="$fake:$PATH" bash mk/run-gpu.sh "$fake/passing" --m 5 2>&1)
if [ $status = 3 ] && grep -q "^SANITIZER --tool memcheck --print-limit 1 $fake/failing --m 5$" <<<"$out" &&
    [ "$again" = "DRIVER --m 5" ]; then
    ok "make run on a GPU reruns a failing driver under compute-sanitizer's memcheck, and only a failing one"
else
    bad "mk/run-gpu.sh: a failing driver gave exit $status and '$out'; a passing one '$again'"
fi
rm -rf "$fake"
echo "drivers: $passed passed, $failed failed, 0 skipped"
[ $failed = 0 ]
