#!/usr/bin/env bash
# device run 5, 2026-11-28 (stop 37): the tree as committed (lab 9's merge kernel with int offsets
# from kit_base_pointer(in + first), ms_write_tile without count tests in a full tile; test_cuda's
# kit_base_pointer test). Binaries make GPU=1 BUILD=/tmp/gb2 on the 2-core machine, stripped, in
# .carry/r5. test_cuda on the GPU; lab 9's GPU tests plain and under the three sanitizers, its driver
# under memcheck; the whole sort_bench (targets 1 and 4, and handout 9's H200 plots); lab 9 graded
# in GPU mode with ncu's counts (the grader built here).
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/r5
export LD_LIBRARY_PATH=$PWD/.carry/root/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; ncu --version | tail -1; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.0f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
$B/test_cuda > $out/test-cuda.txt 2>&1; echo "test_cuda rc=$?" | tee -a $out/device.txt; tail -1 $out/test-cuda.txt
$B/lab09_test > $out/lab09-test.txt 2>&1; echo "lab09 test rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/lab09-test.txt
for tool in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $B/lab09_test > $out/sanitize-$tool.txt 2>&1
  echo "$tool rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/sanitize-$tool.txt
done
for a in "--alg cf --tile 17 --threads 256 --m 1000003" "--alg baseline --tile 15 --threads 512 --m 1000003 --type kv32"; do
  timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/lab09_driver $a > $out/memcheck-driver.txt 2>&1
  echo "memcheck driver $a rc=$?" | tee -a $out/device.txt; tail -1 $out/memcheck-driver.txt
done
timeout 330 $B/sort_bench > $out/sort-bench.txt 2>&1; echo "sort_bench rc=$? $(secs $t0) s" | tee -a $out/device.txt
grep -E "target|PASS|FAIL" $out/sort-bench.txt
make -s GPU=1 JOBS=16 build/grader/grader build/libkit.a > $out/build.log 2>&1; echo "grader build rc=$? $(secs $t0) s" | tee -a $out/device.txt
[ "$(secs $t0)" -lt 420 ] && { timeout 170 build/grader/grader --kit . --mode gpu --build-jobs 16 --lab 09 --counts $out/ncu9.tsv > $out/grade9.txt 2>&1
  echo "grader gpu lab 09 rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/grade9.txt; }
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
