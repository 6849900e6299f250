#!/usr/bin/env bash
# device run 3, 2026-11-28 (stop 38): launch shapes that fit 12 blocks of the circular kernel on an
# SM (run 1: 11 by shared memory at tile 1536, 12 by its 40 registers). mb_old is merge_bench of
# 07ba449; mb_shapes is the same with four more circular shapes (shapes.diff: 128 threads with tile
# 1408 and 22528 or 45056 outputs a block, 128 threads with tile 1280, 96 threads with tile 1152).
# Both make GPU=1 on the 2-core machine, stripped, in .carry/c3. merge_bench --shapes alternating
# three times; lab 5's GPU tests of 07ba449 (with the new public test) plain and under memcheck.
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/c3
export LD_LIBRARY_PATH=$PWD/.carry/root/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.0f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
for round in 1 2 3; do for b in old shapes; do
  $B/mb_$b --shapes > $out/merge-$b-$round.txt 2>&1; echo "merge_bench $b $round rc=$? $(secs $t0) s" >> $out/device.txt
  echo "$b $round: $(grep -E "^2\^2[68] +(thrust|circular)" $out/merge-$b-$round.txt | awk '{printf "%s %s %s %s | ", $1, $2, $3, $6}')"
done; done
grep -A16 "^2^28 .*thrust" $out/merge-shapes-3.txt | grep "shape: kernel 2"
$B/lab05_test > $out/lab05-test.txt 2>&1; echo "lab05 test rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/lab05-test.txt
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $B/lab05_test > $out/sanitize-memcheck.txt 2>&1
echo "memcheck rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -1 $out/sanitize-memcheck.txt
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
