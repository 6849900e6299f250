#!/usr/bin/env bash
# device run 10, 2026-11-25 (session 31): lab 9's public test cf-gather-e15 in GPU mode six more times,
# the two launches whose ncu load conflicts read 1 in all three full runs (issue 17)
set -uo pipefail
out=$OUT/r; mkdir -p $out
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; } | tee $out/device.txt
make -s GPU=1 JOBS=16 build/grader/grader build/libkit.a > $out/build.log 2>&1; echo "build rc=$?" | tee -a $out/device.txt
for k in 1 2 3 4 5 6; do
  build/grader/grader --kit . --mode gpu --lab 09 --test cf-gather-e15 --work build/g-$k --counts $out/ncu-cf-gather-e15-$k.tsv > $out/grade-$k.txt 2>&1
  echo "run $k rc=$?: build/grader/grader --kit . --mode gpu --lab 09 --test cf-gather-e15 --counts ncu-cf-gather-e15-$k.tsv: $(awk -F'\t' '$4 == "ms_gather_probe" { printf "%s:%s ", $3, $7 }' $out/ncu-cf-gather-e15-$k.tsv)" | tee -a $out/device.txt
done
cd $OUT && tar czf r.tgz r && rm -rf r
