#!/usr/bin/env bash
# device run 5, 2026-11-25 (session 29): lab 9's public tests graded in GPU mode three times with --counts,
# to see which ncu counts move between runs of the same binary and input (issue 17)
set -uo pipefail
out=$OUT/r; mkdir -p $out
[ -e /usr/include/CUnit/CUnit.h ] || for f in .deb/*.deb; do dpkg -x "$f" /; done
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
t0=$(date +%s)
make -s GPU=1 JOBS=16 build/grader/grader build/libkit.a build/libkitcpu.a > $out/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 )) s" | tee -a $out/device.txt
for k in 1 2 3; do
  s=$(date +%s); timeout 150 build/grader/grader --kit . --submission solutions --mode gpu --lab 09 --public --work build/grade-gpu-rep --counts $out/counts-$k.tsv > $out/grade-$k.txt 2>&1
  echo "run $k rc=$? $(( $(date +%s)-s )) s: $(grep TOTAL $out/grade-$k.txt)"
done | tee -a $out/device.txt
echo "total $(( $(date +%s)-t0 )) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
