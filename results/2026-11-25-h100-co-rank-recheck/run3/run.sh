#!/usr/bin/env bash
# device run 3, 2026-11-25 (session 29): cf_co_rank as a bisection over a predicate (lab 9's PTX as at b566737);
# lab 7 and 9 tests, sort_bench --quick and the full sort_bench (lab 8's worst case, now searched with kit_rng_next), merge_bench
set -uo pipefail
out=$OUT/r; mkdir -p $out
[ -e /usr/include/CUnit/CUnit.h ] || for f in .deb/*.deb; do dpkg -x "$f" /; done
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
t0=$(date +%s)
make -s GPU=1 JOBS=16 build/labs/sol/07-cf-gather/test build/labs/sol/09-merge-sort/test build/bench/sort_bench build/bench/merge_bench > $out/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 )) s" | tee -a $out/device.txt
for l in 07-cf-gather 09-merge-sort; do build/labs/sol/$l/test > $out/test-$l.txt 2>&1; echo "$l: rc=$? $(tail -1 $out/test-$l.txt)"; done | tee $out/tests.txt
for l in 07-cf-gather 09-merge-sort; do for tool in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 build/labs/sol/$l/test > $out/san-$tool-$l.txt 2>&1; echo "$l $tool rc=$?"; done; done | tee $out/sanitizers.txt
echo "cmd: build/bench/sort_bench --quick" > $out/sort_bench_quick.txt; timeout 120 build/bench/sort_bench --quick >> $out/sort_bench_quick.txt 2>&1; grep '2^26' $out/sort_bench_quick.txt
s=$(date +%s); echo "cmd: build/bench/merge_bench" > $out/merge_bench.txt; timeout 150 build/bench/merge_bench >> $out/merge_bench.txt 2>&1; echo "merge_bench rc=$? $(( $(date +%s)-s )) s"; tail -8 $out/merge_bench.txt
s=$(date +%s); echo "cmd: build/bench/sort_bench" > $out/sort_bench.txt; timeout 280 build/bench/sort_bench >> $out/sort_bench.txt 2>&1; echo "sort_bench rc=$? $(( $(date +%s)-s )) s"; tail -28 $out/sort_bench.txt
echo "total $(( $(date +%s)-t0 )) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
