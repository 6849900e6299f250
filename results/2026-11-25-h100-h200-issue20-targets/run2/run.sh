#!/usr/bin/env bash
# device run 2, 2026-11-25 (session 32), tree b6434be, build/bench/{sort,merge}_bench built on the
# 2-core machine (make GPU=1 build/bench/sort_bench build/bench/merge_bench) and carried: issue 20's
# target lines; CUB's per-kernel times on the worst case against the same n shuffled; ncu on the
# circular merge's instructions beside thrust's merge
set -uo pipefail
out=$OUT/r; mkdir -p $out
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; ncu --version | tail -1; git log --oneline -1; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
build/bench/sort_bench --quick > $out/sort-bench-quick.txt 2>&1; echo "sort_bench --quick rc=$? $(secs $t0) s" | tee -a $out/device.txt; grep -E "cub|cf-17-256|baseline-17-256|target" $out/sort-bench-quick.txt
build/bench/sort_bench --kv32 > $out/sort-bench-kv32.txt 2>&1; echo "sort_bench --kv32 rc=$? $(secs $t0) s" | tee -a $out/device.txt; grep -E "cub|17-256|15-512|target" $out/sort-bench-kv32.txt
TIMES=1 SORTERS="cub baseline-17-256 cf-17-256" bash mk/sort-conflicts.sh build/bench/sort_bench 26 permutation worst > $out/sort-kernel-times-26.txt 2>&1; echo "kernel times rc=$? $(secs $t0) s" | tee -a $out/device.txt; cat $out/sort-kernel-times-26.txt
build/bench/merge_bench > $out/merge-bench.txt 2>&1; echo "merge_bench rc=$? $(secs $t0) s" | tee -a $out/device.txt; grep -E "thrust|circular|copy|target" $out/merge-bench.txt
ncu --kernel-name regex:"merge_circular_kernel|device_merge_kernel|partition_merge_path" --section InstructionStats --section ComputeWorkloadAnalysis --section SpeedOfLight build/bench/merge_bench --profile 28 1 > $out/ncu-merge-instructions-28.txt 2>&1; echo "ncu instructions rc=$? $(secs $t0) s" | tee -a $out/device.txt
grep -E "^  [a-z].*\(|Executed Instructions  |Issued Instructions  |Duration|DRAM Throughput|Compute \(SM\) Throughput|Executed Ipc Active|Issue Slots Busy" $out/ncu-merge-instructions-28.txt | cut -c1-150
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
