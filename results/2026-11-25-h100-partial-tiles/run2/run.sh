#!/usr/bin/env bash
# device run 2, 2026-11-25 (session 31): ncu per instruction on lab 9's gather probe (the launches whose
# kernel-level counter reads 1 where the simulator counts 0), and the broken-submission corpus in GPU
# mode after lab 9's partial-tile changes
set -uo pipefail
out=$OUT/r; mkdir -p $out
[ -e /usr/include/CUnit/CUnit.h ] || for f in .deb/*.deb; do dpkg -x "$f" /; done
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
make -s GPU=1 JOBS=16 all build/libkit.a > $out/build.log 2>&1; echo "build rc=$? $(secs $t0) s" | tee -a $out/device.txt
R=results/2026-11-25-h100-partial-tiles/run2
nvcc -std=c++17 -gencode arch=compute_90,code=sm_90 -O2 -g -Icommon -Isolutions/09-merge-sort -Isolutions/02-co-rank -Isolutions/07-cf-gather -Ilabs/09-merge-sort/harness -Ilabs $R/probe_tests.cu build/libkit.a -o build/probe_tests > $out/probe-build.log 2>&1; echo "probe build rc=$?" | tee -a $out/device.txt
M=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
for rep in 1 2 3; do
  ncu --section SourceCounters --metrics $M --kernel-name regex:ms_gather_probe -o $out/probe-$rep build/probe_tests > $out/ncu-probe-$rep.txt 2>&1; echo "ncu probe rep $rep rc=$?" | tee -a $out/device.txt
  ncu -i $out/probe-$rep.ncu-rep --page raw --csv --metrics $M > $out/probe-$rep-raw.csv 2>&1
  ncu -i $out/probe-$rep.ncu-rep --page source --csv --print-source sass > $out/probe-$rep-sass.csv 2>&1
  rm -f $out/probe-$rep.ncu-rep
done
s=$(date +%s%N); SLICES=16 bash mk/gpu-selftest.sh $out/corpus corpus > $out/corpus-run.txt 2>&1; echo "corpus rc=$? $(secs $s) s: SLICES=16 bash mk/gpu-selftest.sh OUT corpus" | tee -a $out/device.txt; tail -5 $out/corpus-run.txt
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
