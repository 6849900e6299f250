#!/usr/bin/env bash
# device run 4, 2026-11-25 (session 31): lab 9's CF register merge on kit_kv32 as a bitonic merger of
# (key, origin) pairs (was odd-even transposition): sort_bench --kv32 and --quick, lab 9's GPU tests,
# sanitizers on the CF kv32 sort
set -uo pipefail
out=$OUT/r; mkdir -p $out
[ -e /usr/include/CUnit/CUnit.h ] || for f in .deb/*.deb; do dpkg -x "$f" /; done
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
make -s GPU=1 JOBS=16 build/bench/sort_bench build/labs/sol/09-merge-sort/test build/labs/sol/09-merge-sort/driver > $out/build.log 2>&1; echo "build rc=$? $(secs $t0) s" | tee -a $out/device.txt
build/labs/sol/09-merge-sort/test > $out/lab09-gpu-tests.txt 2>&1; echo "lab 9 GPU tests rc=$?: $(tail -1 $out/lab09-gpu-tests.txt)" | tee -a $out/device.txt
D=build/labs/sol/09-merge-sort/driver
for a in "--type kv32 --m 20000 --alg cf --tile 17 --threads 256" "--type kv32 --m 20000 --gen few-unique --alg cf --tile 15 --threads 512" "--type kv32 --m 3001 --gen equal --alg cf --tile 16 --threads 64"; do
  for tool in memcheck racecheck synccheck; do
    r=$(compute-sanitizer --tool $tool --error-exitcode 9 $D $a 2>&1 | tail -2 | tr '\n' ' '); echo "sanitizer $tool $a: $r" | tee -a $out/sanitizers.txt | cut -c1-220
  done
done
build/bench/sort_bench --kv32 > $out/sort-bench-kv32.txt 2>&1; echo "sort_bench --kv32 rc=$?" | tee -a $out/device.txt; cat $out/sort-bench-kv32.txt
build/bench/sort_bench --quick > $out/sort-bench-quick.txt 2>&1; echo "sort_bench --quick rc=$?" | tee -a $out/device.txt; cat $out/sort-bench-quick.txt
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
