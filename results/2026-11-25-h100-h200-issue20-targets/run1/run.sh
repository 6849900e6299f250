#!/usr/bin/env bash
# device run 1, 2026-11-25 (session 32): lab 9's partition by one warp a tile (32-ary search) and a
# block sort of 512 or 1024 threads; sort_bench --quick and --kv32; lab 9's GPU tests; ncu on lab 5's
# circular merge beside thrust::merge at 2^28
set -uo pipefail
out=$OUT/r; mkdir -p $out
[ -e /usr/include/CUnit/CUnit.h ] || for f in .deb/*.deb; do dpkg -x "$f" /; done
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; ncu --version | tail -1; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
make -s GPU=1 JOBS=16 build/bench/sort_bench build/bench/merge_bench build/labs/sol/09-merge-sort/test build/labs/sol/09-merge-sort/driver > $out/build.log 2>&1; echo "build rc=$? $(secs $t0) s" | tee -a $out/device.txt
build/labs/sol/09-merge-sort/test > $out/lab09-gpu-tests.txt 2>&1; echo "lab 9 GPU tests rc=$?: $(tail -1 $out/lab09-gpu-tests.txt) $(secs $t0) s" | tee -a $out/device.txt
build/bench/sort_bench --quick > $out/sort-bench-quick.txt 2>&1; echo "sort_bench --quick rc=$? $(secs $t0) s" | tee -a $out/device.txt; cat $out/sort-bench-quick.txt
build/bench/sort_bench --kv32 > $out/sort-bench-kv32.txt 2>&1; echo "sort_bench --kv32 rc=$? $(secs $t0) s" | tee -a $out/device.txt; cat $out/sort-bench-kv32.txt
ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section LaunchStats --section SchedulerStats build/bench/merge_bench --profile 28 1 > $out/ncu-merge-28.txt 2>&1; echo "ncu merge rc=$? $(secs $t0) s" | tee -a $out/device.txt
grep -E "^  [a-zA-Z_].*\(|Memory Throughput|DRAM Throughput|Duration|Achieved Occupancy|Theoretical Occupancy|Registers Per|Stall|Warp Cycles Per Issued|Issue Slots Busy|No Eligible" $out/ncu-merge-28.txt | head -150
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
