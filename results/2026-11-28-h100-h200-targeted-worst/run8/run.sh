#!/usr/bin/env bash
# device run 8, 2026-11-28 (session 38), asked for the default kind and got an H200: the tree as
# committed (lab 5's w1, sort_bench with the target 4 lines), built with make GPU=1 BUILD=/tmp/gb on
# the 2-core machine, carried in .carry/bin, stripped. Lab 5's GPU tests plain and under the three
# sanitizers; merge_bench twice; ncu's speed of light, instruction, issue and occupancy sections of
# the circular kernel and thrust's merge at 2^28 (shape 1); the whole sort_bench (a second H200
# sample of target 4); sort_bench --kv32 (target 2).
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/bin
export LD_LIBRARY_PATH=$PWD/.carry/root/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; ncu --version | tail -1; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.0f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
$B/lab05_test > $out/lab05-test.txt 2>&1; echo "lab05 test rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/lab05-test.txt
for tool in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $B/lab05_test > $out/sanitize-$tool.txt 2>&1
  echo "$tool rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/sanitize-$tool.txt
done
for round in 1 2; do
  $B/merge_bench > $out/merge-$round.txt 2>&1; echo "merge_bench $round rc=$? $(secs $t0) s" | tee -a $out/device.txt
  grep -E "target 3" $out/merge-$round.txt
done
timeout 90 ncu --section SpeedOfLight --section InstructionStats --section ComputeWorkloadAnalysis --section Occupancy \
  --kernel-name regex:"merge_circular_kernel|device_merge_kernel" $B/merge_bench --profile 28 1 > $out/ncu-circ28.txt 2>&1
echo "ncu rc=$? $(secs $t0) s" | tee -a $out/device.txt
grep -E "^  [a-zA-Z].*\(|Duration|Executed Instructions  |DRAM Throughput|Issue Slots Busy|Compute \(SM\)|Achieved Occ" $out/ncu-circ28.txt | cut -c1-110
timeout 330 $B/sort_bench > $out/sort-bench.txt 2>&1; echo "sort_bench rc=$? $(secs $t0) s" | tee -a $out/device.txt
grep -E "target|PASS|FAIL" $out/sort-bench.txt
[ "$(secs $t0)" -lt 520 ] && { timeout 60 $B/sort_bench --kv32 > $out/kv32.txt 2>&1; echo "kv32 rc=$? $(secs $t0) s" | tee -a $out/device.txt; grep -E "2\^26.*(cub|17-256)|target" $out/kv32.txt; }
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
