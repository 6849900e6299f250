#!/usr/bin/env bash
# device run 2, 2026-11-28 (stop 37): lab 5's circular kernel with the refill's whole groups untested
# and one count in the merge loop (mb_new, the working tree) against the committed one (mb_old,
# 7ecda64), both make GPU=1 on the 2-core machine, stripped, in .carry/r2. merge_bench alternating
# old and new three times; ncu's per-instruction counts of the new kernel at 2^28, shape 6; lab 5's
# GPU tests plain and under the three sanitizers; lab 5 graded in GPU mode with ncu's counts (the
# grader built here); ncu's per-instruction counts of the CF (17, 256) merge kernel, last round of
# a 2^26 random sort (sort_bench of 7ecda64). The grader builds after the benchmarks, beside the
# sanitizers and ncu.
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/r2
export LD_LIBRARY_PATH=$PWD/.carry/root/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.0f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
for round in 1 2 3; do for b in old new; do
  $B/mb_$b > $out/merge-$b-$round.txt 2>&1; echo "merge_bench $b $round rc=$? $(secs $t0) s" | tee -a $out/device.txt
  grep -E "^2\^2[2-8] +(thrust|circular)" $out/merge-$b-$round.txt | awk '{printf "%s %s %s %s | ", $1, $2, $3, $6} END {print ""}'
done; done
(make -s GPU=1 JOBS=12 build/grader/grader build/libkit.a > $out/build.log 2>&1; echo "grader build rc=$? $(secs $t0) s" >> $out/device.txt) &
bpid=$!
$B/lab05_test > $out/lab05-test.txt 2>&1; echo "lab05 test rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/lab05-test.txt
for tool in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $B/lab05_test > $out/sanitize-$tool.txt 2>&1
  echo "$tool rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/sanitize-$tool.txt
done
timeout 90 ncu --section SourceCounters --section InstructionStats --section SpeedOfLight --kernel-name regex:merge_circular \
  --launch-count 1 -o $out/circ28 $B/mb_new --profile 28 6 > $out/circ28.log 2>&1
echo "ncu circ rc=$? $(secs $t0) s" | tee -a $out/device.txt
ncu --import $out/circ28.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $out/circ28-sass.csv.gz
ncu --import $out/circ28.ncu-rep --page details > $out/circ28-details.txt 2>&1; rm -f $out/circ28.ncu-rep
grep -E "Duration|Executed Instructions  |DRAM Throughput|Issue Slots Busy" $out/circ28-details.txt
timeout 120 ncu --section SourceCounters --section InstructionStats --kernel-name regex:ms_merge_kernel --launch-skip 13 \
  --launch-count 1 -o $out/cf26 $B/sort_bench --once 26 random cf-17-256 > $out/cf26.log 2>&1
echo "ncu cf rc=$? $(secs $t0) s" | tee -a $out/device.txt
ncu --import $out/cf26.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $out/cf26-sass.csv.gz; rm -f $out/cf26.ncu-rep
wait $bpid; cat $out/device.txt | grep "grader build"
timeout 150 build/grader/grader --kit . --mode gpu --build-jobs 16 --lab 05 --counts $out/ncu5.tsv > $out/grade5.txt 2>&1
echo "grader gpu lab 05 rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/grade5.txt
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
