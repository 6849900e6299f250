#!/usr/bin/env bash
# device run 9, 2026-11-25 (session 31): the block sort's register sort on ms_merge_item too (kv32: one 64-bit (key, origin)
# word and the value): sort_bench --kv32 and --quick, lab 9's GPU tests, local memory
set -uo pipefail
out=$OUT/r; mkdir -p $out
[ -e /usr/include/CUnit/CUnit.h ] || for f in .deb/*.deb; do dpkg -x "$f" /; done
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; } | tee $out/device.txt
make -s GPU=1 JOBS=16 build/bench/sort_bench build/labs/sol/09-merge-sort/test build/labs/sol/09-merge-sort/driver > $out/build.log 2>&1; echo "build rc=$?" | tee -a $out/device.txt
build/labs/sol/09-merge-sort/test > $out/lab09-gpu-tests.txt 2>&1; echo "lab 9 GPU tests rc=$?: $(tail -1 $out/lab09-gpu-tests.txt)" | tee -a $out/device.txt
cuobjdump -res-usage build/bench/sort_bench > $out/res-usage.txt 2>&1; echo "kernels with a stack or local memory: $(grep -cE "STACK:[1-9]|LOCAL:[1-9]" $out/res-usage.txt)" | tee -a $out/device.txt
D=build/labs/sol/09-merge-sort/driver
for tool in memcheck racecheck; do r=$(compute-sanitizer --tool $tool --error-exitcode 9 $D --type kv32 --m 20000 --alg cf --tile 17 --threads 256 2>&1 | tail -2 | tr '\n' ' '); echo "sanitizer $tool: $r" | tee -a $out/sanitizers.txt | cut -c1-200; done
build/bench/sort_bench --kv32 > $out/sort-bench-kv32.txt 2>&1; echo "sort_bench --kv32 rc=$?" | tee -a $out/device.txt; cat $out/sort-bench-kv32.txt

build/bench/sort_bench --quick > $out/sort-bench-quick.txt 2>&1; echo "sort_bench --quick rc=$?" | tee -a $out/device.txt; cat $out/sort-bench-quick.txt
cd $OUT && tar czf r.tgz r && rm -rf r
