#!/usr/bin/env bash
# device run 6, 2026-11-25 (session 31): where the CF sort loses on kit_kv32: ncu on the block sort and
# the first merge round of the CF and baseline sorts, kv32 and int32, (17, 256), 2^22 keys
set -uo pipefail
out=$OUT/r; mkdir -p $out
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; } | tee $out/device.txt
make -s GPU=1 JOBS=16 build/labs/sol/09-merge-sort/driver > $out/build.log 2>&1; echo "build rc=$?" | tee -a $out/device.txt
M=gpu__time_duration.sum,launch__registers_per_thread,launch__occupancy_limit_registers,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__sass_inst_executed_op_local_ld.sum
for t in kv32 i32; do for alg in baseline cf; do
  ncu --csv --metrics $M --kernel-name regex:"ms_block_sort|ms_merge_kernel" --launch-count 2 build/labs/sol/09-merge-sort/driver --type $t --m 4194304 --alg $alg --tile 17 --threads 256 > $out/ncu-$t-$alg.csv 2>&1; echo "ncu $t $alg rc=$?" | tee -a $out/device.txt
done; done
cd $OUT && tar czf r.tgz r && rm -rf r
