#!/usr/bin/env bash
# device run, 2026-11-25 (session 28): after the layout change of issue 19
set -uo pipefail
out=$OUT; mkdir -p $out/r
[ -e /usr/include/CUnit/CUnit.h ] || for f in .deb/*.deb; do dpkg -x "$f" /; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $out/r/device.txt
date -u | tee -a $out/r/device.txt
t0=$(date +%s)
make -s GPU=1 JOBS=16 all build/labs/sol/05-circular-merge/test build/labs/sol/09-merge-sort/test build/labs/sol/07-cf-gather/test \
  build/labs/sol/06-predecessor-search/test build/labs/sol/04-tiled-merge/test build/labs/sol/03-basic-merge/test \
  build/bench/merge_bench build/bench/sort_bench > $out/r/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 )) s" | tee -a $out/r/device.txt
for l in 03-basic-merge 04-tiled-merge 05-circular-merge 06-predecessor-search 07-cf-gather 09-merge-sort; do
  build/labs/sol/$l/test > $out/r/test-$l.txt 2>&1; echo "$l: $(tail -1 $out/r/test-$l.txt)"; done | tee $out/r/tests.txt
(time build/grader/grader --kit . --submission solutions --mode gpu --work build/grade-gpu) > $out/r/grade-gpu.txt 2>&1; tail -3 $out/r/grade-gpu.txt
compute-sanitizer --tool memcheck build/labs/sol/09-merge-sort/driver --m 100000 > $out/r/san-memcheck-09.txt 2>&1; tail -2 $out/r/san-memcheck-09.txt
compute-sanitizer --tool racecheck build/labs/sol/05-circular-merge/driver --m 20000 --n 15000 > $out/r/san-racecheck-05.txt 2>&1; tail -2 $out/r/san-racecheck-05.txt
(cd $out/r && echo "cmd: build/bench/merge_bench" > merge_bench.txt) ; build/bench/merge_bench >> $out/r/merge_bench.txt 2>&1; tail -12 $out/r/merge_bench.txt
echo "cmd: build/bench/sort_bench --quick" > $out/r/sort_bench_quick.txt; timeout 200 build/bench/sort_bench --quick >> $out/r/sort_bench_quick.txt 2>&1; tail -12 $out/r/sort_bench_quick.txt
cd $out && tar czf r.tgz r && rm -rf r
