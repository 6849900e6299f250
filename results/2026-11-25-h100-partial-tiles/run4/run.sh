#!/usr/bin/env bash
# device run 7, 2026-11-25 (session 31): every launch of lab 9 in GPU mode twice more (after the kv32
# register merge, 7924b05), so that the golden file can hold each launch's least ncu count of three runs
set -uo pipefail
out=$OUT/r; mkdir -p $out
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
t0=$(date +%s%N)
make -s GPU=1 JOBS=16 build/grader/grader build/libkit.a build/libkitcpu.a > $out/build.log 2>&1; echo "build rc=$? $(secs $t0) s" | tee -a $out/device.txt
for k in 2 3; do
  s=$(date +%s%N); build/grader/grader --kit . --mode gpu --build-jobs 16 --lab 09 --work build/g-gpu-$k --counts $out/ncu9-run$k.tsv > $out/grade-gpu-09-run$k.txt 2>&1
  echo "grade gpu lab 9 (run $k) rc=$? $(secs $s) s: build/grader/grader --kit . --mode gpu --build-jobs 16 --lab 09 --counts ncu9-run$k.tsv" | tee -a $out/device.txt; tail -1 $out/grade-gpu-09-run$k.txt
done
s=$(date +%s%N); build/grader/grader --kit . --mode cpu --build-jobs 16 --lab 09 --work build/g-cpu --counts $out/cpu9.tsv > $out/grade-cpu-09.txt 2>&1; echo "grade cpu lab 9 rc=$? $(secs $s) s" | tee -a $out/device.txt
echo "total $(secs $t0) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
