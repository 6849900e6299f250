#!/usr/bin/env bash
# device run 6, 2026-11-28 (session 34): the committed tree at 258897b (the window's arithmetic moved
# into ms_sample_window, otherwise run 4's q0), make GPU=1 build/bench/sort_bench
# build/labs/sol/09-merge-sort/test on the 2-core machine, carried in .carry/bin: lab 9's GPU tests
# plain and under memcheck, then sort_bench --quick once.
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/bin
export LD_LIBRARY_PATH=$PWD/.carry/root/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
$B/lab09_test > $out/lab09-test.txt 2>&1; echo "lab09 test rc=$?" | tee -a $out/device.txt; tail -1 $out/lab09-test.txt
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/lab09_test > $out/sanitize-memcheck.txt 2>&1
echo "memcheck rc=$?" | tee -a $out/device.txt; tail -2 $out/sanitize-memcheck.txt
$B/sort_bench --quick > $out/quick.txt 2>&1; echo "quick rc=$?" | tee -a $out/device.txt; grep -E "PASS|target|(cub|17-256) " $out/quick.txt
cd $OUT && tar czf r.tgz r && rm -rf r
