#!/usr/bin/env bash
# device run 8, 2026-11-28 (session 35), asked for an H200: an experiment, not committed. sb_P is
# c65d554 (765aa3d's kernels) with run8/tree.diff: each segment's head and tail written as one 8-byte
# store by the segment's first thread (the tail by a shuffle), heads and tails interleaved. Against
# .carry/bin/sort_bench (765aa3d's code), sort_bench --quick alternating, twice; every result is
# checked against CUB's by the benchmark.
set -uo pipefail
out=$OUT/r; mkdir -p $out
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
for round in 1 2; do for b in final paired; do
  bin=.carry/bin/sort_bench; [ $b = paired ] && bin=.carry/ab/sb_P
  $bin --quick > $out/quick-$b-$round.txt 2>&1; echo "quick $b $round rc=$?" | tee -a $out/device.txt
  grep -E "^2.*(cub|17-256)" $out/quick-$b-$round.txt | awk '{printf "%s %s %s %s | ", $1, $3, $4, $6} END {print ""}'
done; done
cd $OUT && tar czf r.tgz r && rm -rf r
