#!/usr/bin/env bash
# device run 1, 2026-11-28 (session 37), H100: main at 1bcc8aa (lab 8's generator with the targeted
# mode for the block sort's small rounds), built on the 2-core machine with make GPU=1 and carried in
# .carry/bin. The whole sort_bench (random table and the worst-case table of target 4), each kernel's
# unprofiled time at 2^26 on the worst case and the permutation, sort_bench --kv32 (target 2), and
# ncu's SourceCounters of lab 5's circular kernel at 2^28 in merge_bench's shape 1 (merge_bench_li:
# make GPU=1 BUILD=/tmp/bli NVCCFLAGS='-O2 -g -lineinfo', carried in .carry/prof).
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/bin
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; ncu --version | tail -1; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.0f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
timeout 330 $B/sort_bench > $out/sort-bench.txt 2>&1; echo "sort_bench rc=$? $(secs $t0) s" | tee -a $out/device.txt
grep -E "target|PASS|FAIL" $out/sort-bench.txt
TIMES=1 SORTERS="cub baseline-17-256 cf-17-256" timeout 150 bash mk/sort-conflicts.sh $B/sort_bench 26 worst permutation > $out/kernel-times-26.txt 2>&1
echo "kernel times rc=$? $(secs $t0) s" | tee -a $out/device.txt; cat $out/kernel-times-26.txt
timeout 60 $B/sort_bench --kv32 > $out/kv32.txt 2>&1; echo "kv32 rc=$? $(secs $t0) s" | tee -a $out/device.txt; grep -E "2\^26.*(cub|17-256)|target" $out/kv32.txt
P=.carry/prof/merge_bench_li
timeout 60 ncu --section SourceCounters --section InstructionStats --section WarpStateStats --section SpeedOfLight --kernel-name regex:merge_circular --launch-count 1 -o $out/circ28 $P --profile 28 1 > $out/circ28.log 2>&1
echo "ncu circular rc=$? $(secs $t0) s" | tee -a $out/device.txt
ncu --import $out/circ28.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $out/circ28-sass.csv.gz
ncu --import $out/circ28.ncu-rep --page source --csv --print-source cuda 2>&1 | gzip > $out/circ28-cuda.csv.gz
ncu --import $out/circ28.ncu-rep --page details > $out/circ28-details.txt 2>&1; rm -f $out/circ28.ncu-rep
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
