#!/bin/bash
# Shared-memory bank conflicts per element for every kernel of every sorter in bench/sort_bench.cu,
# as Nsight Compute measures them: one sort of about 2^LG keys of each INPUT under ncu (worst and
# permutation: the u*E*2^k nearest, as sort_bench --once says), the conflicts of all launches of a
# kernel summed, divided by the number of keys sorted. Needs a GPU and ncu.
# With TIMES=1 it gives each kernel's time instead, summed over its launches in microseconds
# (gpu__time_duration, with ncu's clock and cache control off, so that the GPU runs as it does
# unprofiled). SORTERS="cub cf-17-256" measures only those sorters.
# Usage: [TIMES=1] [SORTERS=...] mk/sort-conflicts.sh BENCH LG INPUT... (for example
#        build/bench/sort_bench 24 random sorted)
set -u
bench=$1 lg=$2
shift 2
ncu=${NCU:-ncu}
if [ "${TIMES:-0}" = 1 ]; then
    metrics=gpu__time_duration.sum
    control="--clock-control none --cache-control none"
else
    metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
    control=
fi
if ! command -v "$ncu" >/dev/null 2>&1; then
    echo "sort-conflicts skipped: ncu not found (set NCU=/path/to/ncu)"
    exit 0
fi
if [ ! -x "$bench" ]; then
    echo "sort-conflicts: no benchmark at $bench (make $bench)" >&2
    exit 2
fi
sorters=${SORTERS:-cub baseline-15-512 cf-15-512 baseline-17-256 cf-17-256 baseline-16-256 cf-16-256 baseline-17-512 cf-17-512}
if [ "${TIMES:-0}" = 1 ]; then
    printf '%-11s %-16s %-10s %-40s %8s %12s\n' input sorter keys kernel launches "us"
else
    printf '%-11s %-16s %-10s %-40s %8s %12s %12s\n' input sorter keys kernel launches "ld/key" "st/key"
fi
status=0
for input in "$@"; do
    for s in $sorters; do
        csv=$(mktemp)
        # shellcheck disable=SC2086 # $control is two options or none
        if ! "$ncu" --csv $control --metrics "$metrics" "$bench" --once "$lg" "$input" "$s" >"$csv" 2>&1; then
            echo "sort-conflicts: ncu failed on $s $input:" >&2
            tail -5 "$csv" >&2
            status=1
            rm -f "$csv"
            continue
        fi
        # CSV rows: "ID","Process ID","Process Name","Host Name","Kernel Name",...,"Metric Name","Metric Unit","Metric Value"
        python3 - "$csv" "$input" "$s" "${TIMES:-0}" <<'PY'
import csv, re, sys
path, inp, sorter, times = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
text = open(path).read()
n = int(re.search(r"^sorted (\d+) ", text, re.M).group(1))  # the bench says how many keys it sorted
rows = [r for r in csv.reader(text.splitlines()) if len(r) > 5]
head = rows[0]
k, m, v, i = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value"), head.index("ID")
unit_at = head.index("Metric Unit")
tot = {}
for r in rows[1:]:
    name = r[k].split("(")[0].split("<")[0].replace("void ", "").strip()
    name = name.split("::")[-1]
    t = tot.setdefault(name, {"ids": set(), "ld": 0, "st": 0, "ns": 0})
    t["ids"].add(r[i])
    val = float(r[v].replace(",", ""))
    unit = r[unit_at]
    if times:  # gpu__time_duration in ns, us or ms, as ncu chose
        t["ns"] += val * {"ns": 1, "nsecond": 1, "us": 1e3, "usecond": 1e3, "ms": 1e6, "msecond": 1e6}[unit]
    else:
        t["ld" if r[m].endswith("op_ld.sum") else "st"] += val
for name, t in sorted(tot.items()):
    if times:
        print("%-11s %-16s %-10d %-40s %8d %12.1f" % (inp, sorter, n, name[:40], len(t["ids"]), t["ns"] / 1e3))
    else:
        print("%-11s %-16s %-10d %-40s %8d %12.4f %12.4f" % (inp, sorter, n, name[:40], len(t["ids"]), t["ld"] / n, t["st"] / n))
PY
        rm -f "$csv"
    done
done
exit $status
