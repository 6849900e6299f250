#!/usr/bin/env bash
# device run 2, 2026-11-25 (session 30): make check's warm time on lab 9 on 16 cores (run 1 lost its
# times: no bc there), the CPU build with 16 runners and with 1, and the whole make check (CPU and GPU builds)
set -uo pipefail
out=$OUT/r; mkdir -p $out
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
make -s GPU=1 JOBS=16 all > $out/build.log 2>&1; echo "build rc=$?" | tee -a $out/device.txt
mkdir -p build/chk && rm -rf build/chk/* && cp -r solutions/* build/chk/
for j in 16 1 16 1 16 1 16 1; do touch build/chk/09-merge-sort/*.cuh; s=$(date +%s%N)
  build/grader/grader --kit . --submission build/chk --lab 09-merge-sort --public --brief --work build/grade --mode cpu --build-jobs $j > $out/check-cpu-j$j.txt 2>&1
  echo "cmd: build/grader/grader --kit . --submission build/chk --lab 09-merge-sort --public --brief --work build/grade --mode cpu --build-jobs $j: rc=$? $(secs $s) s" | tee -a $out/times.txt; done
for k in 1 2 3; do touch build/chk/09-merge-sort/*.cuh; s=$(date +%s%N)
  KIT_CHECK_SUBMISSION=build/chk bash mk/check.sh build/grader/grader build 09-merge-sort > $out/check-both-$k.txt 2>&1
  echo "cmd: KIT_CHECK_SUBMISSION=build/chk bash mk/check.sh build/grader/grader build 09-merge-sort (CPU and GPU builds): rc=$? $(secs $s) s" | tee -a $out/times.txt; cat $out/check-both-$k.txt; done
cd $OUT && tar czf r.tgz r && rm -rf r
