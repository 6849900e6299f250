#!/usr/bin/env bash
# device run 3, 2026-11-28 (stop 37): lab 9's merge kernel loading a full tile through int offsets
# from the pair's start (one address a load), and ms_write_tile without the count tests in a full
# tile. Binaries from the working tree, make GPU=1 BUILD=/tmp/gb on the 2-core machine, stripped, in
# .carry/r3; sort_bench_old is 7ecda64's (run 1's). Lab 9's GPU tests plain and under the three
# sanitizers, its driver under memcheck; ncu's per-instruction counts of the new CF (17, 256) merge
# kernel, last round of a 2^26 random sort; sort_bench --quick old and new alternating, four times;
# --kv32 old and new alternating, twice; lab 9 graded in GPU mode with ncu's counts (grader built here).
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/r3
export LD_LIBRARY_PATH=$PWD/.carry/root/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.0f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
$B/lab09_test > $out/lab09-test.txt 2>&1; echo "lab09 test rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/lab09-test.txt
for tool in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $B/lab09_test > $out/sanitize-$tool.txt 2>&1
  echo "$tool rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/sanitize-$tool.txt
done
for a in "--alg cf --tile 17 --threads 256 --m 1000003" "--alg baseline --tile 15 --threads 512 --m 1000003 --type kv32"; do
  timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/lab09_driver $a > $out/memcheck-driver.txt 2>&1
  echo "memcheck driver $a rc=$?" | tee -a $out/device.txt; tail -1 $out/memcheck-driver.txt
done
timeout 120 ncu --section SourceCounters --section InstructionStats --section SpeedOfLight --kernel-name regex:ms_merge_kernel \
  --launch-skip 13 --launch-count 1 -o $out/cf26 $B/sort_bench --once 26 random cf-17-256 > $out/cf26.log 2>&1
echo "ncu cf rc=$? $(secs $t0) s" | tee -a $out/device.txt
ncu --import $out/cf26.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $out/cf26-sass.csv.gz
ncu --import $out/cf26.ncu-rep --page details > $out/cf26-details.txt 2>&1; rm -f $out/cf26.ncu-rep
grep -E "Duration|Executed Instructions  |Issue Slots Busy" $out/cf26-details.txt
for round in 1 2 3 4; do for b in old new; do
  s=$B/sort_bench; [ $b = old ] && s=$B/sort_bench_old
  $s --quick > $out/quick-$b-$round.txt 2>&1; echo "quick $b $round rc=$? $(secs $t0) s" | tee -a $out/device.txt
  grep -E "^2\^2[468] +random +(cub|cf-17-256|baseline-17-256)" $out/quick-$b-$round.txt | awk '{printf "%s %s %s %s | ", $1, $3, $4, $6} END {print ""}'
done; done
for round in 1 2; do for b in old new; do
  s=$B/sort_bench; [ $b = old ] && s=$B/sort_bench_old
  timeout 60 $s --kv32 > $out/kv32-$b-$round.txt 2>&1; echo "kv32 $b $round rc=$? $(secs $t0) s" | tee -a $out/device.txt
  grep -E "2\^26.*(cub|17-256)" $out/kv32-$b-$round.txt | awk '{printf "%s %s %s %s | ", $1, $2, $3, $5} END {print ""}'
done; done
make -s GPU=1 JOBS=16 build/grader/grader build/libkit.a > $out/build.log 2>&1; echo "grader build rc=$? $(secs $t0) s" | tee -a $out/device.txt
timeout 200 build/grader/grader --kit . --mode gpu --build-jobs 16 --lab 09 --counts $out/ncu9.tsv > $out/grade9.txt 2>&1
echo "grader gpu lab 09 rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/grade9.txt
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
