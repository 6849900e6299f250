#!/usr/bin/env bash
# device run 2, 2026-11-28 (stop 38): lab 5's circular kernel, variants that keep ptxas at 40
# registers a thread (run 1's all took 48, and 10 blocks an SM instead of 12 by registers). Four
# merge_bench binaries, make GPU=1 on the 2-core machine, stripped, in .carry/c2:
#   mb_old  the committed tree (797258f);
#   mb_r2   the refill issues both buffers' loads (4 a buffer) before it stores any; the write-out
#           stays before the refill; the block's search as committed (two threads);
#   mb_l2   merge_sequential_circular counting to end indices, one wrap a step; the rest as committed;
#   mb_r2l  both.
# merge_bench alternating the four four times; lab 5's GPU tests of r2l plain and under the three
# sanitizers; ncu (instructions, stall samples) of r2l at 2^28, shape 6.
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/c2
export LD_LIBRARY_PATH=$PWD/.carry/root/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; ncu --version | tail -1; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.0f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
for round in 1 2 3 4; do for b in old r2 l2 r2l; do
  $B/mb_$b > $out/merge-$b-$round.txt 2>&1; echo "merge_bench $b $round rc=$? $(secs $t0) s" >> $out/device.txt
  echo "$b $round: $(grep -E "^2\^2[2-8] +(thrust|circular)" $out/merge-$b-$round.txt | awk '{printf "%s %s %s %s | ", $1, $2, $3, $6}')"
done; done
$B/lab05_test > $out/lab05-test.txt 2>&1; echo "lab05 test rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/lab05-test.txt
for tool in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $B/lab05_test > $out/sanitize-$tool.txt 2>&1
  echo "$tool rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/sanitize-$tool.txt
done
for b in r2l; do
  timeout 90 ncu --section SourceCounters --section InstructionStats --section SpeedOfLight --section WarpStateStats \
    --section Occupancy --kernel-name regex:merge_circular --launch-count 1 -o $out/circ28-$b $B/mb_$b --profile 28 6 > $out/circ28-$b.log 2>&1
  echo "ncu circ $b rc=$? $(secs $t0) s" | tee -a $out/device.txt
  ncu --import $out/circ28-$b.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $out/circ28-$b-sass.csv.gz
  ncu --import $out/circ28-$b.ncu-rep --page details > $out/circ28-$b-details.txt 2>&1; rm -f $out/circ28-$b.ncu-rep
  grep -E "Duration|Executed Instructions  |DRAM Throughput|Warp Cycles Per Issued|Block Limit Reg|Achieved Occ" $out/circ28-$b-details.txt
done
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
