#!/bin/bash
# device run 2, 2026-11-28 (session 35), H100: sort_bench built on the 2-core machine (make GPU=1) from
# three trees, carried in .carry/ab: sb_old 253de8a; sb_S 253de8a with the register sort of Batcher's
# merge exchange (ms_sort_network); sb_N sb_S plus the gather's hoisted choices (ms_cf_gather).
R=$OUT/r; mkdir -p $R; D=.carry/ab
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt
for b in old S N; do $D/sb_$b --quick > $R/quick-$b.txt 2>&1; done
for b in old N; do $D/sb_$b --kv32 > $R/kv32-$b.txt 2>&1; done
TIMES=1 SORTERS="cub cf-17-256 baseline-17-256" bash mk/sort-conflicts.sh $D/sb_old 26 permutation > $R/times-old.txt 2>&1
for b in S N; do TIMES=1 SORTERS="cf-17-256 baseline-17-256" bash mk/sort-conflicts.sh $D/sb_$b 26 permutation > $R/times-$b.txt 2>&1; done
$D/sb_old --quick > $R/quick-old2.txt 2>&1
cd $OUT && tar czf r.tgz r && rm -rf r
