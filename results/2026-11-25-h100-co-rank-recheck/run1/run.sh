#!/usr/bin/env bash
# device run 1, 2026-11-25 (session 29): issue 19's re-check after one merge-path search (cf_co_rank) and ms_write_tile
set -uo pipefail
out=$OUT/r; mkdir -p $out
[ -e /usr/include/CUnit/CUnit.h ] || for f in .deb/*.deb; do dpkg -x "$f" /; done
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; git log -1 --format=%H 2>/dev/null; } | tee $out/device.txt
t0=$(date +%s)
make -s GPU=1 JOBS=16 all build/labs/sol/05-circular-merge/test build/labs/sol/09-merge-sort/test build/labs/sol/07-cf-gather/test \
  build/labs/sol/08-worst-case/test build/bench/sort_bench > $out/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 )) s" | tee -a $out/device.txt
for l in 05-circular-merge 07-cf-gather 08-worst-case 09-merge-sort; do
  build/labs/sol/$l/test > $out/test-$l.txt 2>&1; echo "$l: rc=$? $(tail -1 $out/test-$l.txt)"; done | tee $out/tests.txt
for l in 07-cf-gather 09-merge-sort; do for tool in memcheck racecheck synccheck; do
  s=$(date +%s); timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 build/labs/sol/$l/test > $out/san-$tool-$l.txt 2>&1
  echo "$l $tool rc=$? $(( $(date +%s)-s )) s: $(grep -E 'ERROR SUMMARY|passed' $out/san-$tool-$l.txt | tr '\n' ' ')"; done; done | tee $out/sanitizers.txt
echo "cmd: build/bench/sort_bench --quick" > $out/sort_bench_quick.txt; timeout 120 build/bench/sort_bench --quick >> $out/sort_bench_quick.txt 2>&1; tail -12 $out/sort_bench_quick.txt
echo "total $(( $(date +%s)-t0 )) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
