#!/usr/bin/env bash
# device run 4, 2026-11-25 (session 29): GPU-mode grade of labs 1-6 and 8 at the stop's final code (labs 7 and 9: run 2)
set -uo pipefail
out=$OUT/r; mkdir -p $out
[ -e /usr/include/CUnit/CUnit.h ] || for f in .deb/*.deb; do dpkg -x "$f" /; done
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
t0=$(date +%s)
make -s GPU=1 JOBS=16 build/grader/grader build/libkit.a build/libkitcpu.a > $out/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 )) s" | tee -a $out/device.txt
for l in 01 02 03 04 05 06 08; do
  build/grader/grader --kit . --submission solutions --mode gpu --lab $l --work build/grade-gpu-$l --counts $out/gpu-counts-$l.tsv > $out/grade-gpu-$l.txt 2>&1 &
done; wait
for l in 01 02 03 04 05 06 08; do echo "$l: $(grep -E 'TOTAL' $out/grade-gpu-$l.txt)"; done | tee $out/grades.txt
echo "total $(( $(date +%s)-t0 )) s" | tee -a $out/device.txt
cd $OUT && tar czf r.tgz r && rm -rf r
