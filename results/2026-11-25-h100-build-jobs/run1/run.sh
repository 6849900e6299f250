#!/usr/bin/env bash
# device run 1, 2026-11-25 (session 30): the new grader paths on a GPU machine (--build-jobs in GPU mode,
# make check's runners at once), make check's warm time on 16 cores, and ncu's per-instruction shared
# counts of lab 9's two off block-sort launches (issue 17)
set -uo pipefail
out=$OUT/r; mkdir -p $out
[ -e /usr/include/CUnit/CUnit.h ] || for f in .deb/*.deb; do dpkg -x "$f" /; done
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; } | tee $out/device.txt
t0=$(date +%s)
make -s GPU=1 JOBS=16 all build/labs/sol/09-merge-sort/driver > $out/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 )) s" | tee -a $out/device.txt
# 1. GPU-mode grade of labs 7 and 9 with their runners built at once (16 jobs)
s=$(date +%s); (time build/grader/grader --kit . --submission solutions --mode gpu --build-jobs 16 --lab 07 --lab 09 --work build/grade-gpu) > $out/grade-gpu-jobs16.txt 2>&1; echo "grade gpu jobs16 rc=$? $(( $(date +%s)-s )) s" | tee -a $out/device.txt; tail -3 $out/grade-gpu-jobs16.txt
# 2. make check's script on the solution of lab 9 (CPU then GPU build), cold then warm; and the CPU build alone, warm, 3 times, with 16 and 1 runners
mkdir -p build/chk && rm -rf build/chk/* && cp -r solutions/* build/chk/
for k in cold warm; do touch build/chk/09-merge-sort/*.cuh; s=$(date +%s.%N); KIT_CHECK_SUBMISSION=build/chk bash mk/check.sh build/grader/grader build 09-merge-sort > $out/check-$k.txt 2>&1; echo "make check lab 9 (cpu+gpu) $k rc=$? $(echo "$(date +%s.%N) - $s" | bc) s" | tee -a $out/device.txt; cat $out/check-$k.txt; done
for j in 16 1 16 1 16 1; do touch build/chk/09-merge-sort/*.cuh; s=$(date +%s.%N); build/grader/grader --kit . --submission build/chk --lab 09-merge-sort --public --brief --work build/grade --mode cpu --build-jobs $j > $out/check-cpu-j$j.txt 2>&1; echo "cpu check lab 9 warm --build-jobs $j rc=$? $(echo "$(date +%s.%N) - $s" | bc) s" | tee -a $out/device.txt; done
# 3. ncu per instruction on the two off block-sort launches
D=build/labs/sol/09-merge-sort/driver
for c in "b-one:--type kv32 --m 1 --alg baseline --tile 17 --threads 64" "b-e16-equal:--type kv32 --m 9000 --gen equal --alg baseline --tile 16 --threads 128"; do
  n=${c%%:*}; a=${c#*:}
  echo "cmd: ncu --section SourceCounters --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum --kernel-name regex:ms_block_sort -o $out/$n $D $a" > $out/ncu-$n.txt
  timeout 120 ncu --section SourceCounters --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum --kernel-name regex:ms_block_sort -o $out/$n $D $a >> $out/ncu-$n.txt 2>&1; echo "ncu $n rc=$?" | tee -a $out/device.txt
  ncu -i $out/$n.ncu-rep --page raw --csv --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum > $out/$n-raw.csv 2>&1
  ncu -i $out/$n.ncu-rep --page source --csv --print-source sass > $out/$n-sass.csv 2>&1 || ncu -i $out/$n.ncu-rep --page source --csv > $out/$n-sass.csv 2>&1
  echo "$n: $(wc -l < $out/$n-sass.csv) lines"; head -3 $out/$n-sass.csv | cut -c1-600
done
echo "total $(( $(date +%s)-t0 )) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
