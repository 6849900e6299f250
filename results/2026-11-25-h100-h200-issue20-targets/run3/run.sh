#!/usr/bin/env bash
# device run 3, 2026-11-25 (session 32), tree b6434be, build/labs/sol/09-merge-sort/driver built on
# the 2-core machine and carried: lab 9's CF and baseline sorts at every (E, u) the driver accepts,
# both types, three sizes each; compute-sanitizer memcheck where one fails (run 1's CF test with a
# block sort of more threads failed with an illegal address)
set -uo pipefail
out=$OUT/r; mkdir -p $out
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee $out/device.txt
D=build/labs/sol/09-merge-sort/driver
fails=0
for alg in cf baseline; do for t in i32 kv32; do for E in 5 12 15 16 17; do for u in 32 64 128 256 512; do
  for m in 1000 $((u * E * 3 + 7)) $((u * E * 16)); do
    r=$($D --alg $alg --type $t --tile $E --threads $u --m $m --n 0 --gen duplicates 2>&1 | tail -1)
    rc=$?
    echo "$alg $t E=$E u=$u m=$m: $r" >> $out/driver-sweep.txt
    case "$r" in *PASS*|*pass*|*sorted*|*OK*|*ok*) ;; *) fails=$((fails+1)); echo "odd: $alg $t E=$E u=$u m=$m: $r" | tee -a $out/odd.txt;; esac
  done
done; done; done; done
echo "sweep done, $fails odd lines" | tee -a $out/device.txt
head -3 $out/driver-sweep.txt
for a in "--alg cf --type i32 --tile 17 --threads 128 --m 6535 --n 0" "--alg cf --type kv32 --tile 17 --threads 128 --m 6535 --n 0" "--alg cf --type i32 --tile 15 --threads 128 --m 5767 --n 0"; do
  r=$(compute-sanitizer --tool memcheck --error-exitcode 9 $D $a 2>&1 | tail -2 | tr '\n' ' '); echo "memcheck $a: $r" | tee -a $out/sanitizers.txt | cut -c1-250
done
cd $OUT && tar czf r.tgz r && rm -rf r
