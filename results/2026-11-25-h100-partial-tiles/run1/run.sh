#!/usr/bin/env bash
# device run 1, 2026-11-25 (session 31): lab 9's kernels after three source changes (partial tiles:
# loops not unrolled, no wide stores, no reads by threads past the end); every launch of lab 9 in both
# modes with --counts; sanitizers; sort_bench --quick; make check's time on every lab (CPU build, the
# default now) and with GPU=1 (issue 18)
set -uo pipefail
out=$OUT/r; mkdir -p $out
[ -e /usr/include/CUnit/CUnit.h ] || for f in .deb/*.deb; do dpkg -x "$f" /; done
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
make -s GPU=1 JOBS=16 all build/bench/sort_bench > $out/build.log 2>&1; echo "build rc=$? $(secs $t0) s" | tee -a $out/device.txt
# 1. lab 9, every test (public and hidden), counts in both modes
s=$(date +%s%N); build/grader/grader --kit . --mode gpu --build-jobs 16 --lab 09 --work build/g-gpu --counts $out/ncu9.tsv > $out/grade-gpu-09.txt 2>&1
echo "grade gpu lab 9 rc=$? $(secs $s) s: build/grader/grader --kit . --mode gpu --build-jobs 16 --lab 09 --counts ncu9.tsv" | tee -a $out/device.txt; tail -2 $out/grade-gpu-09.txt
s=$(date +%s%N); build/grader/grader --kit . --mode cpu --build-jobs 16 --lab 09 --work build/g-cpu --counts $out/cpu9.tsv > $out/grade-cpu-09.txt 2>&1
echo "grade cpu lab 9 rc=$? $(secs $s) s" | tee -a $out/device.txt; tail -1 $out/grade-cpu-09.txt
# 2. sanitizers on partial tiles of both variants
D=build/labs/sol/09-merge-sort/driver
for a in "--type kv32 --m 9000 --gen equal --alg baseline --tile 16 --threads 128" "--type i32 --m 7777 --gen reverse --alg baseline --tile 12 --threads 64" "--type i32 --m 9001 --alg cf --tile 17 --threads 256" "--type kv32 --m 1 --alg baseline --tile 17 --threads 64"; do
  for tool in memcheck racecheck synccheck; do
    r=$(compute-sanitizer --tool $tool --error-exitcode 9 $D $a 2>&1 | tail -2 | tr '\n' ' '); echo "sanitizer $tool $a: $r" | tee -a $out/sanitizers.txt | cut -c1-200
  done
done
# 3. speed: the CF and baseline sorts against CUB
build/bench/sort_bench --quick > $out/sort-bench-quick.txt 2>&1; echo "sort_bench --quick rc=$?" | tee -a $out/device.txt; cat $out/sort-bench-quick.txt
# 4. issue 18: make check on every lab (the CPU build, make check's default), then GPU=1 on two labs
bash mk/bench-check.sh build/grader/grader build 01 02 03 04 05 06 07 08 09 > $out/bench-check.txt 2>&1; cat $out/bench-check.txt
for l in 01 09; do make -s check LAB=$l > $out/make-check-$l.txt 2>&1; echo "make check LAB=$l rc=$?: $(tr '\n' '|' < $out/make-check-$l.txt)" | tee -a $out/device.txt
  s=$(date +%s%N); make -s check LAB=$l GPU=1 > $out/make-check-$l-gpu.txt 2>&1; echo "make check LAB=$l GPU=1 rc=$? $(secs $s) s: $(tr '\n' '|' < $out/make-check-$l-gpu.txt)" | tee -a $out/device.txt; done
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
