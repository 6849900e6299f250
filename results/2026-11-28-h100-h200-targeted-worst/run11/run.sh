#!/usr/bin/env bash
# device run 11, 2026-11-28 (session 38), default kind: lab 9's CF kernels on int32 with fewer
# registers, for more blocks an SM (issue 20, target 1 at 2^28). cur is the committed tree's
# sort_bench (5f1a411: CF (17, 256) block sort 48 registers, 5 blocks of 256 an SM; merge kernel 40,
# 6 blocks); e1 caps the CF int32 block sort with __launch_bounds__(512, 3) (40 registers, no
# spill: 6 blocks); e3 is e1 plus __maxnreg__(32) on the CF int32 merge kernel (8 blocks, but 20
# bytes of spills). make GPU=1 NVCCFLAGS="-O2 -g -DMS_EXP_SORT=3 [-DMS_EXP_MAXNREG=32]" on the
# 2-core machine, stripped, in .carry/bin. sort_bench --quick, the three alternating, three times.
set -uo pipefail
out=$OUT/r; mkdir -p $out
B=.carry/bin
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
for round in 1 2 3; do for b in cur e1 e3; do
  $B/sb_$b --quick > $out/quick-$b-$round.txt 2>&1; echo "quick $b $round rc=$?" | tee -a $out/device.txt
  grep -E "local memory|^2\^2[468] +random +(cub|cf-17-256)" $out/quick-$b-$round.txt | awk '/local/ {print; next} {printf "%s %s %s %s | ", $1, $3, $4, $6} END {print ""}'
done; done
cd $OUT && tar czf r.tgz r && rm -rf r
