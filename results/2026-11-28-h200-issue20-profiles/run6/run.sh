#!/usr/bin/env bash
# device run 6, 2026-11-28 (stop 37, review): lab 9's merge kernel with both tile paths loading
# through pair[] offsets (A and B pointers gone), against run 4's n2. Binaries make GPU=1
# BUILD=/tmp/gb2 on the 2-core machine, stripped, in .carry/r6. Lab 9's GPU tests plain and under
# memcheck; sort_bench --quick n2 and the review tree alternating, twice.
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/r6
export LD_LIBRARY_PATH=$PWD/.carry/root/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
$B/lab09_test > $out/lab09-test.txt 2>&1; echo "lab09 test rc=$?" | tee -a $out/device.txt; tail -1 $out/lab09-test.txt
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/lab09_test > $out/sanitize-memcheck.txt 2>&1
echo "memcheck rc=$?" | tee -a $out/device.txt; tail -1 $out/sanitize-memcheck.txt
for round in 1 2; do for b in n2 review; do
  s=$B/sort_bench; [ $b = n2 ] && s=$B/sort_bench_n2
  $s --quick > $out/quick-$b-$round.txt 2>&1; echo "quick $b $round rc=$?" | tee -a $out/device.txt
  grep -E "^2\^2[468] +random +(cub|cf-17-256)" $out/quick-$b-$round.txt | awk '{printf "%s %s %s %s | ", $1, $3, $4, $6} END {print ""}'
done; done
cd $OUT && tar czf r.tgz r && rm -rf r
