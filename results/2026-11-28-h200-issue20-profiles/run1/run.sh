#!/usr/bin/env bash
# device run 1, 2026-11-28 (stop 37): profiles of the committed tree (7ecda64; binaries built at
# 5f1a411 with make GPU=1 on the 2-core machine, same kernels), carried in .carry/r1.
# - the circular kernel at 2^28 in merge_bench's best H200 shape (shape 6: 128 threads, tile 1536):
#   ncu's per-instruction counts (SourceCounters), and cuobjdump's SASS of the kernel;
# - the last global merge round of a 2^26 random sort, CF (17, 256) and CUB: ncu's full sections.
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/r1
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; ncu --version | tail -1; which cuobjdump nvdisasm; } | tee $out/device.txt
cuobjdump -sass -fun merge_circular_kernel $B/merge_bench 2>&1 | gzip > $out/circ-sass.txt.gz
timeout 120 ncu --section SourceCounters --section InstructionStats --section SpeedOfLight --section WarpStateStats \
  --section Occupancy --kernel-name regex:merge_circular --launch-count 1 -o $out/circ28 $B/merge_bench --profile 28 6 > $out/circ28.log 2>&1
echo "ncu circ rc=$?" | tee -a $out/device.txt
ncu --import $out/circ28.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $out/circ28-sass.csv.gz
ncu --import $out/circ28.ncu-rep --page details > $out/circ28-details.txt 2>&1; rm -f $out/circ28.ncu-rep
grep -E "Duration|Executed Instructions  |DRAM Throughput|Issue Slots Busy" $out/circ28-details.txt
for s in cf-17-256:ms_merge_kernel cub:DeviceMergeSortMergeKernel; do
  sorter=${s%%:*} k=${s##*:}
  timeout 150 ncu --set full --kernel-name regex:$k --launch-skip 13 --launch-count 1 $B/sort_bench --once 26 random $sorter > $out/$sorter-merge26.txt 2>&1
  echo "ncu $sorter rc=$?" | tee -a $out/device.txt
  grep -E "^  [a-zA-Z].*\(|Duration|Executed Instructions  |DRAM Throughput|Issue Slots Busy|Achieved Occ|Registers Per" $out/$sorter-merge26.txt | cut -c1-120
done
cd $OUT && tar czf r.tgz r && rm -rf r
