#!/usr/bin/env bash
# device run 1, 2026-11-28 (stop 38): lab 5's circular kernel, where its warps wait. Five merge_bench
# binaries, all make GPU=1 on the 2-core machine, stripped, in .carry/c1:
#   mb_old     the committed tree (797258f);
#   mb_search  797258f with the block's two co-ranks searched by its first warp (ballots);
#   mb_new     that, and a refill that issues both buffers' loads before it stores any, with the
#              write-out of the last round done while the first pass's loads are in flight
#              (MERGE_CIRCULAR_LOADS 4 a buffer);
#   mb_new8    mb_new with MERGE_CIRCULAR_LOADS 8;
#   mb_loop    mb_new with merge_sequential_circular counting to end indices (one wrap a step).
# merge_bench alternating the five three times; lab 5's GPU tests of mb_new's tree plain and under
# the three sanitizers; ncu's per-instruction counts and stall samples of mb_new at 2^28, shape 6.
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/c1
export LD_LIBRARY_PATH=$PWD/.carry/root/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; ncu --version | tail -1; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.0f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
for round in 1 2 3; do for b in old search new new8 loop; do
  $B/mb_$b > $out/merge-$b-$round.txt 2>&1; echo "merge_bench $b $round rc=$? $(secs $t0) s" >> $out/device.txt
  echo "$b $round: $(grep -E "^2\^2[2-8] +(thrust|circular)" $out/merge-$b-$round.txt | awk '{printf "%s %s %s %s | ", $1, $2, $3, $6}')"
done; done
$B/lab05_test > $out/lab05-test.txt 2>&1; echo "lab05 test rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/lab05-test.txt
for tool in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $B/lab05_test > $out/sanitize-$tool.txt 2>&1
  echo "$tool rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/sanitize-$tool.txt
done
for b in old new; do
  timeout 90 ncu --section SourceCounters --section InstructionStats --section SpeedOfLight --section WarpStateStats \
    --section Occupancy --kernel-name regex:merge_circular --launch-count 1 -o $out/circ28-$b $B/mb_$b --profile 28 6 > $out/circ28-$b.log 2>&1
  echo "ncu circ $b rc=$? $(secs $t0) s" | tee -a $out/device.txt
  ncu --import $out/circ28-$b.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $out/circ28-$b-sass.csv.gz
  ncu --import $out/circ28-$b.ncu-rep --page details > $out/circ28-$b-details.txt 2>&1; rm -f $out/circ28-$b.ncu-rep
  grep -E "Duration|Executed Instructions  |DRAM Throughput|Warp Cycles Per Issued|Registers Per|Achieved Occ" $out/circ28-$b-details.txt
done
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
