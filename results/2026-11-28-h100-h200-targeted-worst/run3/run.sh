#!/usr/bin/env bash
# device run 3, 2026-11-28 (session 37): lab 5's circular kernel, second pass (issue 20, target 3).
# mb_old is 1bcc8aa's merge_bench; mb_v2 run 2's v1 plus: the refill and the write-out index global
# memory with one int (first + x) from the kernel's pointer, and the shares of a full and of the last
# round divided once before the rounds (40 registers a thread, ptxas); mb_v2lb is mb_v2 with
# __launch_bounds__(1024, 2) on the kernel (32 registers, so 16 blocks of 128 threads fit an SM, as
# with 1bcc8aa). All make GPU=1 on the 2-core machine, stripped, in .carry/ab. merge_bench three
# times each, alternating; each kernel's registers; ncu's instructions and time at 2^28, shape 1.
set -uo pipefail
out=$OUT/r; mkdir -p $out
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
for round in 1 2 3; do for b in old v2 v2lb; do
  .carry/ab/mb_$b > $out/merge-$b-$round.txt 2>&1; echo "merge_bench $b $round rc=$?" | tee -a $out/device.txt
  grep -E "^2\^2[2-8] +(thrust|circular)" $out/merge-$b-$round.txt | awk '{printf "%s %s %s %s | ", $1, $2, $3, $6} END {print ""}'
done; done
for b in old v2 v2lb; do
  cuobjdump -res-usage .carry/ab/mb_$b 2>&1 | grep -A1 merge_circular_kernelIi | tail -1 | sed "s/^/$b: /" | tee -a $out/device.txt
  timeout 60 ncu --section InstructionStats --section SpeedOfLight --section Occupancy --kernel-name regex:merge_circular --launch-count 1 .carry/ab/mb_$b --profile 28 1 > $out/ncu-$b.txt 2>&1
  echo "ncu $b rc=$?"; grep -E "Duration|Executed Instructions  |DRAM Throughput|Achieved Occupancy|Registers Per" $out/ncu-$b.txt
done
cd $OUT && tar czf r.tgz r && rm -rf r
