#!/usr/bin/env bash
# device run 4, 2026-11-28 (session 35), H100: main at 3c63554 (Batcher's register sort, the hoisted
# gather, the CF merge kernel's full tile filled position by position), built on the 2-core machine
# with make GPU=1 and carried in .carry/bin (sort_bench, lab 9's test and driver); sb_old is 253de8a's
# sort_bench (.carry/ab). Lab 9's GPU tests plain and under the three sanitizers, the driver under
# memcheck, sort_bench --quick (old and new, twice), --kv32, each kernel's unprofiled time at 2^26,
# and every launch of lab 9's grading in GPU mode with ncu's counts (the golden file's ncu side).
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/bin
export LD_LIBRARY_PATH=$PWD/.carry/root/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; ncu --version | tail -1; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
$B/lab09_test > $out/lab09-test.txt 2>&1; echo "lab09 test rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/lab09-test.txt
for tool in memcheck racecheck synccheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 $B/lab09_test > $out/sanitize-$tool.txt 2>&1
  echo "$tool rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -2 $out/sanitize-$tool.txt
done
for a in "--alg cf --tile 17 --threads 256 --m 1000003" "--alg cf --tile 16 --threads 256 --m 1000003 --type kv32" "--alg baseline --tile 15 --threads 512 --m 1000003 --type kv32"; do
  timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $B/lab09_driver $a > $out/tmp.txt 2>&1
  echo "memcheck driver $a rc=$?" | tee -a $out/device.txt; tail -2 $out/tmp.txt; cat $out/tmp.txt >> $out/memcheck-driver.txt; rm $out/tmp.txt
done
for round in 1 2; do for b in old new; do
  bin=$B/sort_bench; [ $b = old ] && bin=.carry/ab/sb_old
  $bin --quick > $out/quick-$b-$round.txt 2>&1; echo "quick $b $round rc=$? $(secs $t0) s" | tee -a $out/device.txt
  grep -E "^2.*(cub|17-256)" $out/quick-$b-$round.txt | awk '{printf "%s %s %s %s | ", $1, $3, $4, $6} END {print ""}'
done; done
$B/sort_bench --kv32 > $out/kv32-new.txt 2>&1; echo "kv32 rc=$? $(secs $t0) s" | tee -a $out/device.txt; grep -E "2\^26.*(cub|17-256)|target" $out/kv32-new.txt
TIMES=1 SORTERS="cub baseline-17-256 cf-17-256" bash mk/sort-conflicts.sh $B/sort_bench 26 permutation > $out/kernel-times-26.txt 2>&1
echo "kernel times rc=$? $(secs $t0) s" | tee -a $out/device.txt; cat $out/kernel-times-26.txt
make -s GPU=1 JOBS=16 build/grader/grader build/libkit.a > $out/build.log 2>&1; echo "grader build rc=$? $(secs $t0) s" | tee -a $out/device.txt
build/grader/grader --kit . --mode gpu --build-jobs 16 --lab 09 --counts $out/ncu9.tsv > $out/grade9.txt 2>&1
echo "grader gpu lab 09 rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -2 $out/grade9.txt
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
