#!/usr/bin/env bash
# device run 4, 2026-11-28 (stop 38): test_cuda of 3a07661 on the GPU (its CUDA_CHECK tests now
# run their children through kit_test_run_child), plain and under memcheck. Built make GPU=1 on the
# 2-core machine, stripped, in .carry/c4.
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/c4
export LD_LIBRARY_PATH=$PWD/.carry/root/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
$B/test_cuda > $out/test-cuda.txt 2>&1; echo "test_cuda rc=$?" | tee -a $out/device.txt; tail -1 $out/test-cuda.txt
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_cuda > $out/sanitize-memcheck.txt 2>&1
echo "memcheck rc=$?" | tee -a $out/device.txt; tail -1 $out/sanitize-memcheck.txt
cd $OUT && tar czf r.tgz r && rm -rf r
