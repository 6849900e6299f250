#!/usr/bin/env bash
# make check's second step, once a lab's public tests pass: the lab's CUnit program (its harness's
# test_lab.cu, built by make from your file just before, so it always runs the code you edited),
# whose suites try more cases than the public tests. Quiet on success: its summary line. On a
# failure: its failure lines, its log and the command that reruns it.
# Usage: check-suites.sh PROGRAM LAB
set -u
prog=$1 lab=$2
log=${prog%/*}/check-suites.log
"$prog" >"$log" 2>&1
status=$?
line=$(grep -E '^[^:]+: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -n 1)
if [ $status = 0 ] && [ -n "$line" ]; then
    echo "lab $lab, CPU build: the lab's own suites (${prog}): ${line#*: }"
    exit 0
fi
echo "lab $lab, CPU build: the lab's own suites (${prog}) failed: ${line#*: }"
{ grep -E '^ +[0-9]+\. ' "$log" || tail -n 10 "$log"; } | head -n 10 | sed 's/^ */  FAIL /'
echo "  log: $log; rerun: make check LAB=${lab%%-*}, or $prog"
exit 1
