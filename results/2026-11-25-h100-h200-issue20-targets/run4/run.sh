#!/usr/bin/env bash
# device run 4, 2026-11-25 (session 32), H200, tree b6434be, build/bench/{sort,merge}_bench built on
# the 2-core machine (make GPU=1 build/bench/sort_bench build/bench/merge_bench) and carried: issue
# 20's targets on the H200: sort_bench --quick and --kv32, merge_bench, the per-kernel times of CUB
# and (17, 256) on the worst case and the same n shuffled, then the whole sort_bench (worst table)
set -uo pipefail
out=$OUT/r; mkdir -p $out
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; ncu --version | tail -1; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
build/bench/sort_bench --quick > $out/sort-bench-quick.txt 2>&1; echo "sort_bench --quick rc=$? $(secs $t0) s" | tee -a $out/device.txt; grep -E "cub|17-256|15-512|target" $out/sort-bench-quick.txt
build/bench/sort_bench --kv32 > $out/sort-bench-kv32.txt 2>&1; echo "sort_bench --kv32 rc=$? $(secs $t0) s" | tee -a $out/device.txt; grep -E "cub|17-256|15-512|target" $out/sort-bench-kv32.txt
build/bench/merge_bench > $out/merge-bench.txt 2>&1; echo "merge_bench rc=$? $(secs $t0) s" | tee -a $out/device.txt; grep -E "thrust|circular|copy|target" $out/merge-bench.txt | grep -v "^2^20"
TIMES=1 SORTERS="cub baseline-17-256 cf-17-256" bash mk/sort-conflicts.sh build/bench/sort_bench 26 permutation worst > $out/sort-kernel-times-26.txt 2>&1; echo "kernel times rc=$? $(secs $t0) s" | tee -a $out/device.txt; cat $out/sort-kernel-times-26.txt
timeout 330 build/bench/sort_bench > $out/sort-bench.txt 2>&1; echo "sort_bench rc=$? $(secs $t0) s" | tee -a $out/device.txt; grep -A40 "worst case against" $out/sort-bench.txt | grep -E "17, 256|slowdown"
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
