#!/usr/bin/env bash
# device run 6, 2026-11-28 (session 37), H100: where lab 5's extra load wavefront on `large` (50306
# against 50305, runs 4 and 5) comes from. w1 is the tree's reference with the staged write-out back
# to one read a pass (.carry/w1, graded with --submission; mb_w1 its merge_bench, make GPU=1 on the
# 2-core machine). Lab 5's grading in GPU mode with ncu's counts for the tree and for w1; merge_bench
# of the tree (run 3's mb_v2) and of w1, alternating, twice.
set -uo pipefail
out=$OUT/r; mkdir -p $out
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.0f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
make -s GPU=1 JOBS=16 build/grader/grader build/libkit.a > $out/build.log 2>&1; echo "grader build rc=$? $(secs $t0) s" | tee -a $out/device.txt
timeout 100 build/grader/grader --kit . --mode gpu --build-jobs 16 --lab 05 --submission .carry/w1 --work build/g-w1 --counts $out/ncu5-w1.tsv > $out/grade5-w1.txt 2>&1
echo "grader gpu lab 05 w1 rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/grade5-w1.txt
grep large $out/ncu5-w1.tsv
for round in 1 2; do for b in v2 w1; do
  .carry/ab/mb_$b > $out/merge-$b-$round.txt 2>&1; echo "merge_bench $b $round rc=$?" | tee -a $out/device.txt
  grep -E "^2\^2[2-8] +(thrust|circular)" $out/merge-$b-$round.txt | awk '{printf "%s %s %s %s | ", $1, $2, $3, $6} END {print ""}'
done; done
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
