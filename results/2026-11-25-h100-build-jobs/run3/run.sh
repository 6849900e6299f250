#!/usr/bin/env bash
# device run 3, 2026-11-25 (session 30): make check's warm time on every lab on a GPU machine: the
# CPU build alone (the grader in CPU mode, one runner per core) and mk/check.sh (CPU and GPU builds)
set -uo pipefail
out=$OUT/r; mkdir -p $out
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; } | tee $out/device.txt
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
make -s GPU=1 JOBS=16 all > $out/build.log 2>&1; echo "build rc=$?" | tee -a $out/device.txt
mkdir -p build/chk && rm -rf build/chk/* && cp -r solutions/* build/chk/
for lab in 01-sequential-merge 02-co-rank 03-basic-merge 04-tiled-merge 05-circular-merge 06-predecessor-search 07-cf-gather 08-worst-case 09-merge-sort; do
  for k in cold warm; do touch build/chk/$lab/*.cuh; s=$(date +%s%N)
    KIT_CHECK_SUBMISSION=build/chk bash mk/check.sh build/grader/grader build $lab > $out/check-$lab-$k.txt 2>&1
    echo "$lab $k: KIT_CHECK_SUBMISSION=build/chk bash mk/check.sh build/grader/grader build $lab: rc=$? $(secs $s) s" | tee -a $out/times.txt; done
  touch build/chk/$lab/*.cuh; s=$(date +%s%N)
  build/grader/grader --kit . --submission build/chk --lab $lab --public --brief --work build/grade --mode gpu --build-jobs 16 --json $out/gpu-$lab.json > /dev/null 2>&1
  echo "$lab gpu only: build/grader/grader --kit . --submission build/chk --lab $lab --public --brief --work build/grade --mode gpu --build-jobs 16: rc=$? $(secs $s) s" | tee -a $out/times.txt
done
cd $OUT && tar czf r.tgz r && rm -rf r
