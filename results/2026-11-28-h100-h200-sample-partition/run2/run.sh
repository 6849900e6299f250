#!/usr/bin/env bash
# device run 2, 2026-11-28 (session 34): six sort_bench binaries built on the 2-core machine
# (make GPU=1 build/bench/sort_bench) and carried in .carry/bin; they differ only in the global
# rounds' partition:
#   p0: main at 34aacef: one thread a tile, bisection of the keys in DRAM; no samples
#   p1: samples written by both kernels; one thread a tile: bisection of the samples, then of the keys
#   p2: samples; one warp a tile: bisection of the samples to 64, then one pass of the warp over
#       those, then one over the keys between two samples
#   p4: samples written as in p1 (and not read), partition as p0: the cost of writing them
#   p5: p2 with 8 lanes a tile (MS_PARTITION_LANES 8), four tiles a warp
#   p6: p2 with 4 lanes a tile
# Then each kernel's unprofiled time (mk/sort-conflicts.sh, TIMES=1) for p0, p4 and p5 at 2^26 and
# 2^28, and lab 9's GPU tests (p5's tree) under memcheck and racecheck.
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/bin
export LD_LIBRARY_PATH=$PWD/.carry/root/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; ncu --version | tail -1; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
for round in 1 2; do for b in p0 p1 p2 p4 p5 p6; do
  $B/sort_bench_$b --quick > $out/quick-$b-$round.txt 2>&1; echo "quick $b $round rc=$? $(secs $t0) s" | tee -a $out/device.txt
  grep -E "17-256|target" $out/quick-$b-$round.txt | grep -v copy
done; done
for b in p0 p2 p5 p6; do
  $B/sort_bench_$b --kv32 > $out/kv32-$b.txt 2>&1; echo "kv32 $b rc=$? $(secs $t0) s" | tee -a $out/device.txt
  grep -E "2\^26.*(cub|17-256)|target" $out/kv32-$b.txt
done
for b in p0 p4 p5; do for lg in 26 28; do
  TIMES=1 SORTERS="baseline-17-256 cf-17-256" bash mk/sort-conflicts.sh $B/sort_bench_$b $lg permutation \
    > $out/kernel-times-$b-$lg.txt 2>&1; echo "kernel times $b $lg rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -n +2 $out/kernel-times-$b-$lg.txt
done; done
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 $B/lab09_test > $out/sanitize-$tool.txt 2>&1
  echo "$tool rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -2 $out/sanitize-$tool.txt
done
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
