#!/usr/bin/env bash
# device run 11, 2026-11-25 (session 31): the broken-submission corpus in GPU mode and then in CPU mode
# on the same machine, at the session's final kernels (after the kv32 register sort and merge)
set -uo pipefail
out=$OUT/r; mkdir -p $out
s=$(date +%s); SLICES=16 bash mk/gpu-selftest.sh $out corpus > $out/corpus-run.txt 2>&1; echo "corpus rc=$? $(( $(date +%s)-s )) s: SLICES=16 bash mk/gpu-selftest.sh OUT corpus" | tee -a $out/times.txt
s=$(date +%s); SLICES=16 bash mk/gpu-selftest.sh $out cpu > $out/cpu-run.txt 2>&1; echo "cpu rc=$? $(( $(date +%s)-s )) s: SLICES=16 bash mk/gpu-selftest.sh OUT cpu" | tee -a $out/times.txt
grep -h "slice" $out/corpus-run.txt $out/cpu-run.txt | grep -v "1 passed, 0 failed" ; tail -1 $out/cpu-run.txt
rm -f $out/selftest-*.log.gz; cd $OUT && tar czf r.tgz r && rm -rf r
