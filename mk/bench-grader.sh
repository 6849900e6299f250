#!/usr/bin/env bash
# Times the grader on one whole submission (the solutions, every lab) on the
# kit's CPU emulation, best of three, against the target of under 60 s on a
# 2-core machine. A benchmark, not a test: make bench runs it.
# Usage: bench-grader.sh GRADER
set -u
grader=$1
best=
for run in 1 2 3; do
    start=$(date +%s.%N)
    if ! "$grader" --kit . --mode cpu --expect 100 >/dev/null 2>&1; then
        echo "grader bench: the solutions did not score 100% (run $grader --mode cpu to see why)" >&2
        exit 1
    fi
    end=$(date +%s.%N)
    best=$(awk -v s="$start" -v e="$end" -v b="$best" 'BEGIN { t = e - s; print (b == "" || t < b) ? t : b }')
done
met=$(awk -v b="$best" 'BEGIN { print b < 60 ? "met" : "NOT met" }')
printf 'grader: all labs of solutions/ on the CPU emulation in %.1f s (best of 3, %s cores); target under 60 s: %s\n' \
    "$best" "$(nproc)" "$met"
