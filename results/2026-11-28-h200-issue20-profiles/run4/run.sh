#!/usr/bin/env bash
# device run 4, 2026-11-28 (stop 37): lab 9's merge kernel with the pair's start behind
# kit_base_pointer (n2), against run 3's new tree (n1: int offsets from the pair's start, no
# count tests in a full tile). Both make GPU=1 on the 2-core machine, stripped, in .carry/r4.
# ncu's per-instruction counts of n2's CF (17, 256) merge kernel, last round of a 2^26 random sort;
# sort_bench --quick n1 and n2 alternating, three times; --kv32 n1 and n2 once each.
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/r4
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.0f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
timeout 120 ncu --section SourceCounters --section InstructionStats --section SpeedOfLight --kernel-name regex:ms_merge_kernel \
  --launch-skip 13 --launch-count 1 -o $out/cf26 $B/sort_bench_n2 --once 26 random cf-17-256 > $out/cf26.log 2>&1
echo "ncu cf rc=$? $(secs $t0) s" | tee -a $out/device.txt
ncu --import $out/cf26.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $out/cf26-sass.csv.gz
ncu --import $out/cf26.ncu-rep --page details > $out/cf26-details.txt 2>&1; rm -f $out/cf26.ncu-rep
grep -E "Duration|Executed Instructions  |Issue Slots Busy" $out/cf26-details.txt
for round in 1 2 3; do for b in n1 n2; do
  $B/sort_bench_$b --quick > $out/quick-$b-$round.txt 2>&1; echo "quick $b $round rc=$? $(secs $t0) s" | tee -a $out/device.txt
  grep -E "^2\^2[468] +random +(cub|cf-17-256|baseline-17-256)" $out/quick-$b-$round.txt | awk '{printf "%s %s %s %s | ", $1, $3, $4, $6} END {print ""}'
done; done
for b in n1 n2; do
  timeout 60 $B/sort_bench_$b --kv32 > $out/kv32-$b.txt 2>&1; echo "kv32 $b rc=$? $(secs $t0) s" | tee -a $out/device.txt
  grep -E "2\^26.*(cub|17-256)" $out/kv32-$b.txt | awk '{printf "%s %s %s %s | ", $1, $2, $3, $5} END {print ""}'
done
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
