#!/bin/bash
# Per-kernel time and instruction counts of one sort under ncu, summed over the kernel's launches:
# a tool for tuning lab 9's sort, not a test. Usage: mk/sort-profile.sh BENCH LG INPUT SORTER...
set -u
bench=$1 lg=$2 input=$3
shift 3
for s in "$@"; do
    echo "== $s, 2^$lg $input keys"
    ncu --csv --metrics gpu__time_duration.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum \
        "$bench" --once "$lg" "$input" "$s" 2>/dev/null | python3 -c '
import csv, sys
rows = [r for r in csv.reader(sys.stdin) if len(r) > 5]
h = rows[0]
k, m, v = h.index("Kernel Name"), h.index("Metric Name"), h.index("Metric Value")
agg = {}
for r in rows[1:]:
    a = agg.setdefault((r[k].split("(")[0].replace("void ", "")[:34], r[m]), [0.0, 0])
    a[0] += float(r[v].replace(",", ""))
    a[1] += 1
for (name, metric), (total, count) in sorted(agg.items()):
    print("%-34s %-52s %5d launches  sum %14.1f  mean %12.1f" % (name, metric, count, total, total / count))
'
done
