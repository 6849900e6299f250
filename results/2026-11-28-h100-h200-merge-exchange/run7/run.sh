#!/usr/bin/env bash
# device run 7, 2026-11-28 (session 35), asked for an H200: main at c65d554 (sort_bench carried in
# .carry/bin; its int32 kernels are byte for byte run 6's, only the CF merge kernel of kv32 changed):
# sort_bench --kv32 twice.
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/bin
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
for k in 1 2; do
  $B/sort_bench --kv32 > $out/kv32-$k.txt 2>&1; echo "kv32 $k rc=$?" | tee -a $out/device.txt; grep -E "2\^26.*(cub|17-256)|target" $out/kv32-$k.txt
done
cd $OUT && tar czf r.tgz r && rm -rf r
