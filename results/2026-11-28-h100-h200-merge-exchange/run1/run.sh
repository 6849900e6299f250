#!/bin/bash
# device run 1, 2026-11-28 (session 35), H100: where lab 9's block sort and merge kernel spend their
# instructions, at 253de8a (the last stop's commit). sort_bench_li is make GPU=1 BUILD=/tmp/bli
# NVCCFLAGS='-O2 -g -lineinfo' /tmp/bli/bench/sort_bench on the 2-core machine, carried in .carry/prof.
# ncu's SourceCounters of the block sort (the one launch) and of the 5th merge launch, sort_bench --once
# 24 permutation (17,825,792 keys). Kept: the details pages, the two block sorts' per-instruction
# counts (sass.csv.gz; cuobjdump's listing and the .ncu-rep files are not kept), opcodes-block-sort.txt
# (warp instructions per opcode, summed from the csv).
set -x
B=.carry/prof/sort_bench_li
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
cuobjdump -sass $B | gzip > $R/sass.txt.gz
for s in cf-17-256 baseline-17-256; do
  for k in ms_block_sort_kernel ms_merge_kernel; do
    ncu --section SourceCounters --section InstructionStats --section WarpStateStats --kernel-name regex:$k --launch-skip $([ $k = ms_merge_kernel ] && echo 4 || echo 0) --launch-count 1 -o $R/$s-$k $B --once 24 permutation $s > $R/$s-$k.log 2>&1
    ncu --import $R/$s-$k.ncu-rep --page source --csv --print-source sass > $R/$s-$k-sass.csv 2>&1
    ncu --import $R/$s-$k.ncu-rep --page source --csv --print-source cuda > $R/$s-$k-cuda.csv 2>&1
    ncu --import $R/$s-$k.ncu-rep --page details > $R/$s-$k-details.txt 2>&1
  done
done
cd $OUT && tar czf r.tgz r && rm -rf r
