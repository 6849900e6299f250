#!/usr/bin/env bash
# device run 6, 2026-11-25 (session 29): sort_bench --quick after its random input moved to kit_gen_array (the kit's one RNG)
set -uo pipefail
out=$OUT/r; mkdir -p $out
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
t0=$(date +%s)
make -s GPU=1 JOBS=16 build/bench/sort_bench > $out/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 )) s" | tee -a $out/device.txt
echo "cmd: build/bench/sort_bench --quick" > $out/sort_bench_quick.txt; timeout 150 build/bench/sort_bench --quick >> $out/sort_bench_quick.txt 2>&1; echo "rc=$?" >> $out/sort_bench_quick.txt; tail -16 $out/sort_bench_quick.txt
echo "total $(( $(date +%s)-t0 )) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
