#!/usr/bin/env bash
# device run 10, 2026-11-28 (session 38), default kind: run 9's tree with test_cuda's dependent-launch
# test running its chain twice (the first launch of a kernel loads it, which held the stream back in
# run 9, so the mutant passed) and kit_launch_status accepting any launch error. test_cuda and its
# mutant (KIT_WAIT_PRIOR_GRID a no-op), three times each; then the whole sort_bench of the tree
# (targets 1 and 4 with the dependent launches). Binaries: make GPU=1 BUILD=/tmp/gb (and
# BUILD=/tmp/mutb for the mutant) on the 2-core machine, stripped, in .carry/bin.
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/bin
export LD_LIBRARY_PATH=$PWD/.carry/root/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.0f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
for k in 1 2 3; do
  $B/test_cuda > $out/test-cuda-$k.txt 2>&1; echo "test_cuda $k rc=$?" | tee -a $out/device.txt; tail -1 $out/test-cuda-$k.txt
  $B/test_cuda_nowait > $out/test-cuda-nowait-$k.txt 2>&1; echo "test_cuda_nowait $k rc=$? (1 expected)" | tee -a $out/device.txt
  grep -E "expected .*got" $out/test-cuda-nowait-$k.txt | head -2; tail -1 $out/test-cuda-nowait-$k.txt
done
timeout 330 $B/sort_bench > $out/sort-bench.txt 2>&1; echo "sort_bench rc=$? $(secs $t0) s" | tee -a $out/device.txt
grep -E "target|PASS|FAIL" $out/sort-bench.txt
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
