#!/usr/bin/env bash
# device run 7, 2026-11-28 (session 37), asked for an H200: lab 5's circular kernel as committed (run
# 6's w1: mb_w1) against 1bcc8aa's (mb_old), merge_bench alternating, three times each; ncu's
# instructions, time and DRAM throughput of both circular kernels and of thrust's merge at 2^28,
# shape 1 (merge_bench --profile).
set -uo pipefail
out=$OUT/r; mkdir -p $out
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
for round in 1 2 3; do for b in old w1; do
  .carry/ab/mb_$b > $out/merge-$b-$round.txt 2>&1; echo "merge_bench $b $round rc=$?" | tee -a $out/device.txt
  grep -E "^2\^2[2-8] +(thrust|circular)" $out/merge-$b-$round.txt | awk '{printf "%s %s %s %s | ", $1, $2, $3, $6} END {print ""}'
done; done
for b in old w1; do
  timeout 60 ncu --section InstructionStats --section SpeedOfLight --kernel-name regex:"merge_circular_kernel|merge_kernel|partition" .carry/ab/mb_$b --profile 28 1 > $out/ncu-$b.txt 2>&1
  echo "ncu $b rc=$?"; grep -E "^  [a-zA-Z].*\(|Duration|Executed Instructions  |DRAM Throughput" $out/ncu-$b.txt | cut -c1-120
done
cd $OUT && tar czf r.tgz r && rm -rf r
