#!/usr/bin/env bash
# device run 12, 2026-11-25 (session 31): lab 5's circular merge with four more launch shapes (larger
# shares per block) in merge_bench, against thrust::merge and a device-to-device copy (issue 20, target 3)
set -uo pipefail
out=$OUT/r; mkdir -p $out
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; } | tee $out/device.txt
make -s GPU=1 JOBS=16 build/bench/merge_bench > $out/build.log 2>&1; echo "build rc=$?" | tee -a $out/device.txt
timeout 300 build/bench/merge_bench --shapes > $out/merge-bench-shapes.txt 2>&1; echo "merge_bench --shapes rc=$?" | tee -a $out/device.txt
grep -E "circular|thrust|copy" $out/merge-bench-shapes.txt | tail -60
cd $OUT && tar czf r.tgz r && rm -rf r
