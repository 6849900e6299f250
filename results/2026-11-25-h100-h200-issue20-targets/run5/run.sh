#!/usr/bin/env bash
# device run 5, 2026-11-25 (session 32), H100, tree b6434be, build/bench/sort_bench built on the
# 2-core machine and carried: ncu on the block sort and one merge round of CUB, the baseline and CF
# (17, 256) at 71,303,168 keys, shuffled and worst case (where each target stops); then the whole
# sort_bench (its worst-case table) on the H100
set -uo pipefail
out=$OUT/r; mkdir -p $out
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; ncu --version | tail -1; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
B=build/bench/sort_bench
for s in cub baseline-17-256 cf-17-256; do
  ncu --kernel-name regex:"BlockSort|block_sort" --section SpeedOfLight --section InstructionStats --section WarpStateStats --section Occupancy $B --once 26 permutation $s > $out/ncu-block-sort-$s.txt 2>&1; echo "ncu block sort $s rc=$? $(secs $t0) s" | tee -a $out/device.txt
  for input in permutation worst; do
    [ $s != cub ] && [ $input = worst ] && continue
    ncu --kernel-name regex:"MergeSortMergeKernel|ms_merge_kernel" --launch-skip 6 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section InstructionStats $B --once 26 $input $s > $out/ncu-merge-$s-$input.txt 2>&1; echo "ncu merge $s $input rc=$? $(secs $t0) s" | tee -a $out/device.txt
  done
done
for f in $out/ncu-*.txt; do echo "== $(basename $f)"; grep -E "Duration|DRAM Throughput|Compute \(SM\) Throughput|Issue Slots Busy|Executed Instructions  |Achieved Occupancy|Registers Per|Shared Memory|L1/TEX Cache Throughput" $f | head -12; done
timeout 330 $B > $out/sort-bench.txt 2>&1; echo "sort_bench rc=$? $(secs $t0) s" | tee -a $out/device.txt; grep -A40 "worst case against" $out/sort-bench.txt | grep -E "(17, 256)|slowdown"; grep target $out/sort-bench.txt
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
