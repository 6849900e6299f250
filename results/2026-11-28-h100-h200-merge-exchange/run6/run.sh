#!/usr/bin/env bash
# device run 6, 2026-11-28 (session 35), asked for an H200: main at 3c63554 (sort_bench built on the
# 2-core machine, carried in .carry/bin; sb_old is 253de8a's): the whole sort_bench (the plots' table
# and the worst case), --kv32, --quick of both trees, and each kernel's unprofiled time at 2^26
# (TIMES=1), shuffled.
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/bin
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; ncu --version | tail -1; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
for b in old new; do
  bin=$B/sort_bench; [ $b = old ] && bin=.carry/ab/sb_old
  $bin --quick > $out/quick-$b.txt 2>&1; echo "quick $b rc=$? $(secs $t0) s" | tee -a $out/device.txt
  grep -E "^2.*(cub|17-256)" $out/quick-$b.txt | awk '{printf "%s %s %s %s | ", $1, $3, $4, $6} END {print ""}'
done
$B/sort_bench --kv32 > $out/kv32-new.txt 2>&1; echo "kv32 rc=$? $(secs $t0) s" | tee -a $out/device.txt; grep -E "2\^26.*(cub|17-256)|target" $out/kv32-new.txt
TIMES=1 SORTERS="cub baseline-17-256 cf-17-256" bash mk/sort-conflicts.sh $B/sort_bench 26 permutation > $out/kernel-times-26.txt 2>&1
echo "kernel times rc=$? $(secs $t0) s" | tee -a $out/device.txt; cat $out/kernel-times-26.txt
$B/sort_bench > $out/sort-bench.txt 2>&1; echo "sort_bench rc=$? $(secs $t0) s" | tee -a $out/device.txt
grep -E "target|PASS|FAIL" $out/sort-bench.txt
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
