#!/usr/bin/env bash
# device run 2, 2026-11-28 (session 37): lab 5's circular kernel with fewer instructions (issue 20,
# target 3). mb_old is 1bcc8aa's merge_bench, mb_v1 the working tree's (the refill's addresses once a
# pass, the staged write-out with four reads in flight, the wrap as an unsigned minimum, a full round's
# share divided once, the merge's indices advanced without a branch), both make GPU=1 on the 2-core
# machine, in .carry/ab; merge_bench_li is mb_v1 built with -lineinfo (.carry/prof). merge_bench
# alternating old and new, twice; ncu's SourceCounters of the new circular kernel at 2^28, shape 1.
set -uo pipefail
out=$OUT/r; mkdir -p $out
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
for round in 1 2; do for b in old v1; do
  .carry/ab/mb_$b > $out/merge-$b-$round.txt 2>&1; echo "merge_bench $b $round rc=$?" | tee -a $out/device.txt
  grep -E "^2\^2[2-8] +(d2d|thrust|circular)|target" $out/merge-$b-$round.txt
done; done
P=.carry/prof/merge_bench_li
timeout 60 ncu --section SourceCounters --section InstructionStats --section SpeedOfLight --kernel-name regex:merge_circular --launch-count 1 -o $out/circ28 $P --profile 28 1 > $out/circ28.log 2>&1
echo "ncu rc=$?" | tee -a $out/device.txt
ncu --import $out/circ28.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $out/circ28-sass.csv.gz
ncu --import $out/circ28.ncu-rep --page details > $out/circ28-details.txt 2>&1; rm -f $out/circ28.ncu-rep
grep -E "Duration|Executed Instructions  |DRAM Throughput|Issue Slots Busy" $out/circ28-details.txt
cd $OUT && tar czf r.tgz r && rm -rf r
