#!/usr/bin/env bash
# device run 1, 2026-11-28 (session 34): three sort_bench binaries built on the 2-core machine
# (make GPU=1 build/bench/sort_bench) and carried in .carry/bin:
#   base:   main at 34aacef (partition: one thread a tile, bisection of the keys in DRAM)
#   new:    34aacef plus the sampled partition (one warp a tile: samples, then the keys)
#   bounds: new plus __launch_bounds__(512, 3) on ms_block_sort_kernel (40 registers)
# then lab 9's GPU tests (new) under compute-sanitizer's memcheck, racecheck and synccheck, the lab 9
# driver under memcheck at larger sizes, and each kernel's unprofiled time at 2^26 (new; TIMES=1).
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/bin
export LD_LIBRARY_PATH=$PWD/.carry/root/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; ncu --version | tail -1; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
for round in 1 2; do for b in base new bounds; do
  $B/sort_bench_$b --quick > $out/quick-$b-$round.txt 2>&1; echo "quick $b $round rc=$? $(secs $t0) s" | tee -a $out/device.txt
  grep -E "cub|17-|target" $out/quick-$b-$round.txt | grep -v copy
done; done
for b in base new bounds; do
  $B/sort_bench_$b --kv32 > $out/kv32-$b.txt 2>&1; echo "kv32 $b rc=$? $(secs $t0) s" | tee -a $out/device.txt
  grep -E "2\^26|target|FAIL" $out/kv32-$b.txt
done
$B/lab09_test > $out/lab09-test.txt 2>&1; echo "lab09 test rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -2 $out/lab09-test.txt
for tool in memcheck racecheck synccheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 $B/lab09_test > $out/sanitize-$tool.txt 2>&1
  echo "$tool rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -2 $out/sanitize-$tool.txt
done
for a in "--alg cf --tile 17 --threads 256 --m 1000003" "--alg baseline --tile 17 --threads 512 --m 1000003" \
         "--alg cf --tile 15 --threads 512 --m 300001 --type kv32" "--alg baseline --tile 5 --threads 32 --m 300001 --type kv32"; do
  timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $B/lab09_driver $a > $out/tmp.txt 2>&1
  echo "memcheck driver $a rc=$?" | tee -a $out/device.txt; tail -2 $out/tmp.txt; cat $out/tmp.txt >> $out/memcheck-driver.txt; rm $out/tmp.txt
done
TIMES=1 SORTERS="cub baseline-17-256 cf-17-256 cf-17-512" bash mk/sort-conflicts.sh $B/sort_bench_new 26 permutation \
  > $out/kernel-times-new-26.txt 2>&1; echo "kernel times rc=$? $(secs $t0) s" | tee -a $out/device.txt; cat $out/kernel-times-new-26.txt
echo "total $(secs $t0) s" | tee -a $out/device.txt
