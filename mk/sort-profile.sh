#!/bin/bash
# Per-kernel time, instructions executed and achieved occupancy of one sort under ncu, summed over
# each kernel's launches: a tool for tuning lab 9's sort, not a test. The GPU's clocks and caches
# are left as they are (--clock-control none --cache-control none), so the times are close to
# the benchmark's. Usage: mk/sort-profile.sh BENCH LG INPUT SORTER... (for example
# build/bench/sort_bench 24 random cub cf-17-256). Needs a GPU and ncu.
set -u
if [ $# -lt 4 ]; then
    echo "usage: $0 BENCH LG INPUT SORTER..." >&2
    exit 2
fi
bench=$1 lg=$2 input=$3
shift 3
ncu=${NCU:-ncu}
if ! command -v "$ncu" >/dev/null 2>&1; then
    echo "sort-profile skipped: ncu not found (set NCU=/path/to/ncu)"
    exit 0
fi
status=0
for s in "$@"; do
    echo "== $s, 2^$lg $input keys"
    csv=$(mktemp)
    if ! "$ncu" --csv --clock-control none --cache-control none \
        --metrics gpu__time_duration.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active \
        "$bench" --once "$lg" "$input" "$s" >"$csv" 2>&1; then
        echo "sort-profile: ncu failed on $s:" >&2
        tail -5 "$csv" >&2
        status=1
    else
        python3 -c '
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 5]
h = rows[0]
k, m, v = h.index("Kernel Name"), h.index("Metric Name"), h.index("Metric Value")
short = {"gpu__time_duration.sum": "time_ns", "smsp__inst_executed.sum": "inst",
         "sm__warps_active.avg.pct_of_peak_sustained_active": "occ%"}
agg = {}
for r in rows[1:]:
    a = agg.setdefault((r[k].split("(")[0].replace("void ", "")[:34], r[m]), [0.0, 0])
    a[0] += float(r[v].replace(",", ""))
    a[1] += 1
for (name, metric), (total, count) in sorted(agg.items()):
    print("%-34s %-8s %3d launches  sum %14.1f  mean %12.1f" % (name, short.get(metric, metric), count, total, total / count))
' "$csv"
    fi
    rm -f "$csv"
done
exit $status
