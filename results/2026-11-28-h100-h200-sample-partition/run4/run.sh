#!/usr/bin/env bash
# device run 4, 2026-11-28 (session 34), asked for an H100: sort_bench built on the 2-core machine
# (make GPU=1 build/bench/sort_bench) and carried in .carry/bin:
#   p0: main at 34aacef (no samples; partition: one thread a tile, bisection of the keys)
#   q0: the sampled partition as committed (run 3's q0)
# --quick twice each, interleaved; --kv32 each; q0's whole sort_bench (both tables: the plots and
# the worst case); each kernel's unprofiled time (TIMES=1) of CUB, baseline and CF (17, 256) with q0
# at 2^26 and 2^28, shuffled, and CUB's on the worst case at 2^26.
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/bin
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; ncu --version | tail -1; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
for round in 1 2; do for b in p0 q0; do
  $B/sort_bench_$b --quick > $out/quick-$b-$round.txt 2>&1; echo "quick $b $round rc=$? $(secs $t0) s" | tee -a $out/device.txt
  grep -E "^2.*(cub|17-256|17-512)" $out/quick-$b-$round.txt | awk '{printf "%s %s %s %s | ", $1, $3, $4, $6} END {print ""}'
done; done
for b in p0 q0; do
  $B/sort_bench_$b --kv32 > $out/kv32-$b.txt 2>&1; echo "kv32 $b rc=$? $(secs $t0) s" | tee -a $out/device.txt
  grep -E "2\^26.*(cub|17-256)|target" $out/kv32-$b.txt
done
for lg in 26 28; do
  TIMES=1 SORTERS="cub baseline-17-256 cf-17-256" bash mk/sort-conflicts.sh $B/sort_bench_q0 $lg permutation \
    > $out/kernel-times-q0-$lg.txt 2>&1; echo "kernel times $lg rc=$? $(secs $t0) s" | tee -a $out/device.txt; cat $out/kernel-times-q0-$lg.txt
done
TIMES=1 SORTERS="cub" bash mk/sort-conflicts.sh $B/sort_bench_q0 26 worst > $out/kernel-times-cub-worst-26.txt 2>&1; cat $out/kernel-times-cub-worst-26.txt
$B/sort_bench_q0 > $out/sort-bench.txt 2>&1; echo "sort_bench rc=$? $(secs $t0) s" | tee -a $out/device.txt
grep -E "target|PASS|FAIL" $out/sort-bench.txt; grep -E "(cub|17-256) " $out/sort-bench.txt | tail -12
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
