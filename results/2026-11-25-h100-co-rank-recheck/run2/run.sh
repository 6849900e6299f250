#!/usr/bin/env bash
# device run 2, 2026-11-25 (session 29): cf_co_rank without clamps in the plain search; ratios and ncu counts of labs 7 and 9
set -uo pipefail
out=$OUT/r; mkdir -p $out
[ -e /usr/include/CUnit/CUnit.h ] || for f in .deb/*.deb; do dpkg -x "$f" /; done
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
t0=$(date +%s)
make -s GPU=1 JOBS=16 all build/labs/sol/07-cf-gather/test build/labs/sol/09-merge-sort/test build/bench/sort_bench > $out/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 )) s" | tee -a $out/device.txt
for l in 07-cf-gather 09-merge-sort; do build/labs/sol/$l/test > $out/test-$l.txt 2>&1; echo "$l: rc=$? $(tail -1 $out/test-$l.txt)"; done | tee $out/tests.txt
for l in 07-cf-gather 09-merge-sort; do for tool in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 build/labs/sol/$l/test > $out/san-$tool-$l.txt 2>&1; echo "$l $tool rc=$?"; done; done | tee $out/sanitizers.txt
for k in 1 2; do echo "cmd: build/bench/sort_bench --quick" > $out/sort_bench_quick_$k.txt; timeout 120 build/bench/sort_bench --quick >> $out/sort_bench_quick_$k.txt 2>&1; grep '2^26' $out/sort_bench_quick_$k.txt; done
s=$(date +%s); (time build/grader/grader --kit . --submission solutions --mode gpu --lab 07 --lab 09 --work build/grade-gpu --counts $out/gpu-counts.tsv) > $out/grade-gpu.txt 2>&1; echo "grade rc=$? $(( $(date +%s)-s )) s"; tail -4 $out/grade-gpu.txt
echo "total $(( $(date +%s)-t0 )) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
