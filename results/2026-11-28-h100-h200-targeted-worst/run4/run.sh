#!/usr/bin/env bash
# device run 4, 2026-11-28 (session 37), asked for an H200: the working tree of run 3's mb_v2 (lab 5's
# circular kernel, second pass) with sort_bench's target 4 lines, built with make GPU=1 BUILD=/tmp/gb
# on the 2-core machine and carried in .carry/bin (sort_bench, lab05_test), stripped. Lab 5's GPU
# tests plain and under the three sanitizers; lab 5's grading in GPU mode with ncu's counts (the golden
# file's ncu side; the grader built here from the tree); merge_bench old (1bcc8aa) and new alternating,
# three times each; the whole sort_bench (target 1, and target 4 with lab 8's targeted generator);
# sort_bench --kv32 (target 2).
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/bin
export LD_LIBRARY_PATH=$PWD/.carry/root/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; ncu --version | tail -1; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.0f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
$B/lab05_test > $out/lab05-test.txt 2>&1; echo "lab05 test rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/lab05-test.txt
for tool in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $B/lab05_test > $out/sanitize-$tool.txt 2>&1
  echo "$tool rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/sanitize-$tool.txt
done
make -s GPU=1 JOBS=16 build/grader/grader build/libkit.a > $out/build.log 2>&1; echo "grader build rc=$? $(secs $t0) s" | tee -a $out/device.txt
timeout 120 build/grader/grader --kit . --mode gpu --build-jobs 16 --lab 05 --counts $out/ncu5.tsv > $out/grade5.txt 2>&1
echo "grader gpu lab 05 rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/grade5.txt
for round in 1 2 3; do for b in old v2; do
  .carry/ab/mb_$b > $out/merge-$b-$round.txt 2>&1; echo "merge_bench $b $round rc=$?" | tee -a $out/device.txt
  grep -E "^2\^2[2-8] +(thrust|circular)" $out/merge-$b-$round.txt | awk '{printf "%s %s %s %s | ", $1, $2, $3, $6} END {print ""}'
done; done
timeout 330 $B/sort_bench > $out/sort-bench.txt 2>&1; echo "sort_bench rc=$? $(secs $t0) s" | tee -a $out/device.txt
grep -E "target|PASS|FAIL" $out/sort-bench.txt
[ "$(secs $t0)" -lt 520 ] && { timeout 60 $B/sort_bench --kv32 > $out/kv32.txt 2>&1; echo "kv32 rc=$? $(secs $t0) s" | tee -a $out/device.txt; grep -E "2\^26.*(cub|17-256)|target" $out/kv32.txt; }
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
