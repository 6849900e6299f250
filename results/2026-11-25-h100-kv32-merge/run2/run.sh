#!/usr/bin/env bash
# device run 5, 2026-11-25 (session 31): lab 9's CF register merge on kit_kv32 as a bitonic merger of
# (key, origin) pairs (was odd-even transposition), with the pad path's final select on values: sort_bench --kv32 and --quick, lab 9's GPU tests,
set -uo pipefail
out=$OUT/r; mkdir -p $out
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
make -s GPU=1 JOBS=16 build/bench/sort_bench build/labs/sol/09-merge-sort/test build/labs/sol/09-merge-sort/driver > $out/build.log 2>&1; echo "build rc=$? $(secs $t0) s" | tee -a $out/device.txt
build/labs/sol/09-merge-sort/test > $out/lab09-gpu-tests.txt 2>&1; echo "lab 9 GPU tests rc=$?: $(tail -1 $out/lab09-gpu-tests.txt)" | tee -a $out/device.txt
cuobjdump -res-usage build/bench/sort_bench > $out/res-usage.txt 2>&1; echo "kernels with a stack or local memory: $(grep -cE "STACK:[1-9]|LOCAL:[1-9]" $out/res-usage.txt)" | tee -a $out/device.txt
build/bench/sort_bench --kv32 > $out/sort-bench-kv32.txt 2>&1; echo "sort_bench --kv32 rc=$?" | tee -a $out/device.txt; cat $out/sort-bench-kv32.txt
build/bench/sort_bench --quick > $out/sort-bench-quick.txt 2>&1; echo "sort_bench --quick rc=$?" | tee -a $out/device.txt; cat $out/sort-bench-quick.txt
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
