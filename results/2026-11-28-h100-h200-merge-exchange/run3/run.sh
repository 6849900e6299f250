#!/bin/bash
# device run 3, 2026-11-28 (session 35), asked for an H200: run 2's sb_old and sb_N, and sb_Q: sb_N with
# MS_SAMPLE_THREADS 16 (a sample every 16 threads' outputs instead of 8).
R=$OUT/r; mkdir -p $R; D=.carry/ab
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt
for b in old N Q; do $D/sb_$b --quick > $R/quick-$b.txt 2>&1; done
for b in old N; do $D/sb_$b --kv32 > $R/kv32-$b.txt 2>&1; done
TIMES=1 SORTERS="cub cf-17-256 baseline-17-256" bash mk/sort-conflicts.sh $D/sb_old 26 permutation > $R/times-old.txt 2>&1
TIMES=1 SORTERS="cf-17-256 baseline-17-256" bash mk/sort-conflicts.sh $D/sb_N 26 permutation > $R/times-N.txt 2>&1
TIMES=1 SORTERS="cf-17-256" bash mk/sort-conflicts.sh $D/sb_Q 26 permutation > $R/times-Q.txt 2>&1
$D/sb_N --quick > $R/quick-N2.txt 2>&1
cd $OUT && tar czf r.tgz r && rm -rf r
