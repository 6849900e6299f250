#!/usr/bin/env bash
# device run 13, 2026-11-25 (session 31): sort_bench's new check that the sort kernels use no local
# memory: on the tree as it is (PASS expected), then with run 1's slip put back (the padded merge's
# select of two items; FAIL expected for the E = 15 sorters)
set -uo pipefail
out=$OUT/r; mkdir -p $out
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; } | tee $out/device.txt
make -s GPU=1 JOBS=16 build/bench/sort_bench > $out/build.log 2>&1; echo "build rc=$?" | tee -a $out/device.txt
timeout 25 build/bench/sort_bench --kv32 > $out/as-is.txt 2>&1; echo "as is: rc=$? $(grep -E 'PASS|FAIL' $out/as-is.txt | tr '\n' ' ')" | tee -a $out/device.txt
cp labs/09-merge-sort/harness/ms_kernel.cuh $out/ms_kernel.cuh.orig
sed -i 's/key\[x\] = r\[x\] < last ? r\[x\].key() : r\[x + plan::up - E\].key();/key[x] = (r[x] < last ? r[x] : r[x + plan::up - E]).key();/' labs/09-merge-sort/harness/ms_kernel.cuh
diff $out/ms_kernel.cuh.orig labs/09-merge-sort/harness/ms_kernel.cuh | tee -a $out/device.txt
make -s GPU=1 JOBS=16 build/bench/sort_bench >> $out/build.log 2>&1; echo "build with the slip rc=$?" | tee -a $out/device.txt
timeout 25 build/bench/sort_bench --kv32 > $out/with-slip.txt 2>&1; echo "with the slip: rc=$? $(grep -E 'PASS|FAIL' $out/with-slip.txt | tr '\n' ' ')" | tee -a $out/device.txt
cp $out/ms_kernel.cuh.orig labs/09-merge-sort/harness/ms_kernel.cuh; rm $out/ms_kernel.cuh.orig
cd $OUT && tar czf r.tgz r && rm -rf r
