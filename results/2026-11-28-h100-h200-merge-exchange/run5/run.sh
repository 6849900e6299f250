#!/usr/bin/env bash
# device run 5, 2026-11-28 (session 35), H100: main at c65d554 (run 4's tree, but the CF merge kernel of
# 8-byte keys loads in the keys' order again), built on the 2-core machine with make GPU=1 and carried
# in .carry/bin: lab 9's GPU tests plain and under the three sanitizers, sort_bench --kv32, the whole
# sort_bench (the plots' table and the worst case), then lab 9's grading in GPU mode with ncu's counts,
# twice (the golden file takes each launch's least, as results/2026-11-25-h100-partial-tiles/ did).
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/bin
export LD_LIBRARY_PATH=$PWD/.carry/root/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; ncu --version | tail -1; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.0f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
$B/lab09_test > $out/lab09-test.txt 2>&1; echo "lab09 test rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/lab09-test.txt
for tool in memcheck racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $B/lab09_test > $out/sanitize-$tool.txt 2>&1
  echo "$tool rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/sanitize-$tool.txt
done
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/lab09_driver --alg cf --tile 17 --threads 256 --m 1000003 --type kv32 > $out/memcheck-driver.txt 2>&1
echo "memcheck driver cf 17 256 kv32 rc=$?" | tee -a $out/device.txt; tail -2 $out/memcheck-driver.txt
$B/sort_bench --kv32 > $out/kv32.txt 2>&1; echo "kv32 rc=$? $(secs $t0) s" | tee -a $out/device.txt; grep -E "2\^26.*(cub|17-256)|target" $out/kv32.txt
timeout 290 $B/sort_bench > $out/sort-bench.txt 2>&1; echo "sort_bench rc=$? $(secs $t0) s" | tee -a $out/device.txt
grep -E "target|PASS|FAIL" $out/sort-bench.txt
make -s GPU=1 JOBS=16 build/grader/grader build/libkit.a > $out/build.log 2>&1; echo "grader build rc=$? $(secs $t0) s" | tee -a $out/device.txt
for k in 1 2; do
  [ "$(secs $t0)" -gt 400 ] && { echo "ncu run $k skipped: $(secs $t0) s gone" | tee -a $out/device.txt; break; }
  timeout 135 build/grader/grader --kit . --mode gpu --build-jobs 16 --lab 09 --work build/g-$k --counts $out/ncu9-$k.tsv > $out/grade9-$k.txt 2>&1
  echo "grader gpu lab 09 ($k) rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/grade9-$k.txt
done
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
