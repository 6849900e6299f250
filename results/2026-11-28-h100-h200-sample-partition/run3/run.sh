#!/usr/bin/env bash
# device run 3, 2026-11-28 (session 34): sort_bench binaries built on the 2-core machine
# (make GPU=1 build/bench/sort_bench) and carried in .carry/bin:
#   p0: main at 34aacef (no samples; partition: one thread a tile, bisection of the keys)
#   p1: run 2's p1 (samples, their segment found by a 64-bit division; one thread a tile, bisection
#       of the samples, then of the keys)
#   p4: run 2's p4 (samples written as in p1, not read; partition as p0)
#   q0: p1 with the samples' segment as a shift of the thread's number (the tree to commit)
#   q1: q0 with __launch_bounds__(512, 4) on ms_merge_kernel for int32 (32 registers, 8 blocks of 256)
#   q2: q1 and __launch_bounds__(512, 3) for kv32
# Then each kernel's unprofiled time (TIMES=1) for p0, q0 and q1, and q0's lab 9 GPU tests under
# memcheck, racecheck and synccheck, and its driver under memcheck at a million keys.
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/bin
export LD_LIBRARY_PATH=$PWD/.carry/root/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; ncu --version | tail -1; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
for round in 1 2; do for b in p0 p1 p4 q0 q1 q2; do
  $B/sort_bench_$b --quick > $out/quick-$b-$round.txt 2>&1; echo "quick $b $round rc=$? $(secs $t0) s" | tee -a $out/device.txt
  grep -E "^2.*(cub|17-256)" $out/quick-$b-$round.txt | awk '{printf "%s %s %s %s | ", $1, $3, $4, $6} END {print ""}'
done; done
for b in p0 q0 q2; do
  $B/sort_bench_$b --kv32 > $out/kv32-$b.txt 2>&1; echo "kv32 $b rc=$? $(secs $t0) s" | tee -a $out/device.txt
  grep -E "2\^26.*(cub|17-256)|target" $out/kv32-$b.txt
done
for b in p0 q0 q1; do for lg in 26 28; do
  TIMES=1 SORTERS="baseline-17-256 cf-17-256" bash mk/sort-conflicts.sh $B/sort_bench_$b $lg permutation \
    > $out/kernel-times-$b-$lg.txt 2>&1; echo "kernel times $b $lg rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -n +2 $out/kernel-times-$b-$lg.txt | awk '{print $2, $4, $6}' | tr '\n' ';'; echo
done; done
for tool in memcheck racecheck synccheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 $B/lab09_test > $out/sanitize-$tool.txt 2>&1
  echo "$tool rc=$? $(secs $t0) s" | tee -a $out/device.txt; tail -2 $out/sanitize-$tool.txt
done
for a in "--alg cf --tile 17 --threads 256 --m 1000003" "--alg baseline --tile 15 --threads 512 --m 1000003 --type kv32"; do
  timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $B/lab09_driver $a > $out/tmp.txt 2>&1
  echo "memcheck driver $a rc=$?" | tee -a $out/device.txt; tail -2 $out/tmp.txt; cat $out/tmp.txt >> $out/memcheck-driver.txt; rm $out/tmp.txt
done
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
