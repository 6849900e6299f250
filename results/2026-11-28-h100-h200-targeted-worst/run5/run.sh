#!/usr/bin/env bash
# device run 5, 2026-11-28 (session 37), H100: the tree of run 4. Lab 5's grading in GPU mode with
# ncu's counts, of the new reference and of 1bcc8aa's (.carry/old5, graded with --submission against
# the new harness, whose wrap differs only in its arithmetic), to tell the kernel's change from the
# GPU's; then the whole sort_bench again (run 4's binary, with the target 4 lines), a second H100
# sample of target 4 with lab 8's targeted generator.
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/bin
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; ncu --version | tail -1; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.0f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
make -s GPU=1 JOBS=16 build/grader/grader build/libkit.a > $out/build.log 2>&1; echo "grader build rc=$? $(secs $t0) s" | tee -a $out/device.txt
timeout 100 build/grader/grader --kit . --mode gpu --build-jobs 16 --lab 05 --counts $out/ncu5-new.tsv > $out/grade5-new.txt 2>&1
echo "grader gpu lab 05 new rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/grade5-new.txt
timeout 100 build/grader/grader --kit . --mode gpu --build-jobs 16 --lab 05 --submission .carry/old5 --work build/g-old --counts $out/ncu5-old.tsv > $out/grade5-old.txt 2>&1
echo "grader gpu lab 05 old rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/grade5-old.txt
grep large $out/ncu5-new.tsv $out/ncu5-old.tsv
timeout 330 $B/sort_bench > $out/sort-bench.txt 2>&1; echo "sort_bench rc=$? $(secs $t0) s" | tee -a $out/device.txt
grep -E "target|PASS|FAIL" $out/sort-bench.txt
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
