#!/usr/bin/env bash
# device run 5, 2026-11-28 (session 34), asked for an H200: run 4's q0 (the sampled partition as
# committed, sort_bench built on the 2-core machine and carried): the whole sort_bench (both tables:
# the plots and the worst case), --kv32, and each kernel's unprofiled time (TIMES=1) of CUB at 2^26,
# shuffled and worst case.
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/bin
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; ncu --version | tail -1; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
$B/sort_bench_q0 > $out/sort-bench.txt 2>&1; echo "sort_bench rc=$? $(secs $t0) s" | tee -a $out/device.txt
grep -E "target|PASS|FAIL" $out/sort-bench.txt; grep -E "(cub|17-256) " $out/sort-bench.txt | tail -12
$B/sort_bench_q0 --kv32 > $out/kv32-q0.txt 2>&1; echo "kv32 rc=$? $(secs $t0) s" | tee -a $out/device.txt
grep -E "2\^26.*(cub|17-256)|target" $out/kv32-q0.txt
TIMES=1 SORTERS="cub" bash mk/sort-conflicts.sh $B/sort_bench_q0 26 permutation worst > $out/kernel-times-cub-26.txt 2>&1; cat $out/kernel-times-cub-26.txt
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
