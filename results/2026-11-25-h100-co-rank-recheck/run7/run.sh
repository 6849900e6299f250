#!/usr/bin/env bash
# device run 7, 2026-11-25 (session 29): sort_bench --kv32, the kit's sorts on kit_kv32 against cub::DeviceMergeSort::SortPairs (issue 20, target 2)
set -uo pipefail
out=$OUT/r; mkdir -p $out
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
t0=$(date +%s)
make -s GPU=1 JOBS=16 build/bench/sort_bench > $out/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 )) s" | tee -a $out/device.txt
echo "cmd: build/bench/sort_bench --kv32" > $out/sort_bench_kv32.txt; timeout 150 build/bench/sort_bench --kv32 >> $out/sort_bench_kv32.txt 2>&1; echo "rc=$?" >> $out/sort_bench_kv32.txt; cat $out/sort_bench_kv32.txt
echo "total $(( $(date +%s)-t0 )) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
