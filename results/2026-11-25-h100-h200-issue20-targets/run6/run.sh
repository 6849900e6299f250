#!/usr/bin/env bash
# device run 6, 2026-11-25 (session 32), H100, tree b6434be plus two sorters in bench/sort_bench.cu
# (baseline-17-512, cf-17-512: a tile of 8704 keys, one global round fewer than (17, 256) at 2^26),
# build/bench/sort_bench built on the 2-core machine and carried: sort_bench --quick and --kv32
set -uo pipefail
out=$OUT/r; mkdir -p $out
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
build/bench/sort_bench --quick > $out/sort-bench-quick.txt 2>&1; echo "sort_bench --quick rc=$?" | tee -a $out/device.txt; grep -E "cub|17-|target" $out/sort-bench-quick.txt
build/bench/sort_bench --kv32 > $out/sort-bench-kv32.txt 2>&1; echo "sort_bench --kv32 rc=$?" | tee -a $out/device.txt; grep -E "cub|17-|target|PASS|FAIL" $out/sort-bench-kv32.txt
cd $OUT && tar czf r.tgz r && rm -rf r
