#!/usr/bin/env bash
# device run 9, 2026-11-28 (session 38), default kind: lab 9's sort with programmatic dependent
# launch (KIT_LAUNCH_DEPENDENT; every kernel waits in KIT_WAIT_PRIOR_GRID, as CUB's merge sort
# does). Binaries from the working tree, make GPU=1 BUILD=/tmp/gb on the 2-core machine, stripped,
# in .carry/bin; sort_bench_old is run 8's sort_bench (the tree before the change), test_cuda_nowait
# is test_cuda built with KIT_WAIT_PRIOR_GRID a no-op (the mutation its new test must catch).
# test_cuda and the mutant; lab 9's GPU tests plain and under the three sanitizers, and its driver
# under memcheck; sort_bench --quick old and new alternating, three times; --kv32 old and new
# alternating, twice; lab 9 graded in GPU mode with ncu's counts (the grader built here).
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/bin
export LD_LIBRARY_PATH=$PWD/.carry/root/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; ncu --version | tail -1; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.0f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
$B/test_cuda > $out/test-cuda.txt 2>&1; echo "test_cuda rc=$?" | tee -a $out/device.txt; tail -1 $out/test-cuda.txt
$B/test_cuda_nowait > $out/test-cuda-nowait.txt 2>&1; echo "test_cuda_nowait rc=$? (1 expected)" | tee -a $out/device.txt
grep -E "FAIL|expected" $out/test-cuda-nowait.txt | head -3; tail -1 $out/test-cuda-nowait.txt
$B/lab09_test > $out/lab09-test.txt 2>&1; echo "lab09 test rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/lab09-test.txt
for tool in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $B/lab09_test > $out/sanitize-$tool.txt 2>&1
  echo "$tool rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/sanitize-$tool.txt
done
for a in "--alg cf --tile 17 --threads 256 --m 1000003" "--alg baseline --tile 15 --threads 512 --m 1000003 --type kv32"; do
  timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/lab09_driver $a > $out/memcheck-driver.txt 2>&1
  echo "memcheck driver $a rc=$?" | tee -a $out/device.txt; tail -1 $out/memcheck-driver.txt
done
for round in 1 2 3; do for b in old new; do
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
[ "$(secs $t0)" -lt 420 ] && { timeout 170 build/grader/grader --kit . --mode gpu --build-jobs 16 --lab 09 --counts $out/ncu9.tsv > $out/grade9.txt 2>&1
  echo "grader gpu lab 09 rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/grade9.txt; }
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
