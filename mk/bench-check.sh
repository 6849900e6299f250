#!/usr/bin/env bash
# Times make check's path (mk/check.sh) on each lab given, with the solution's file as the student's:
# cold (the lab's cached objects of the object check removed) and warm (again, after touching the
# file), against the targets of 15 s and 3 s, and how much of the warm run the tests took (the rest:
# the source and object checks, the compile and the link). A benchmark, not a test.
# Usage: bench-check.sh GRADER BUILD LAB...   (LAB: 01 or 01-sequential-merge)
set -u
grader=$1 build=$2
shift 2
sub="$build/bench-check/labs" json="$build/bench-check/check.json"
rm -rf "$sub" && mkdir -p "$sub" && cp -r solutions/* "$sub/"

# "WALL CPU": the seconds one run of mk/check.sh takes, and the processor time it and its children use
# (on a busy machine the wall time grows; the processor time is about what an idle one would take).
# Its report goes to $json.
timed() {
    local TIMEFORMAT='%R %U %S' t
    t=$({ time KIT_CHECK_SUBMISSION="$sub" KIT_CHECK_ARGS="--json $json" bash mk/check.sh "$grader" "$build" "$1" \
        >/dev/null 2>&1; } 2>&1) || echo "bench-check: make check failed on the solution of lab $1" >&2
    awk '{ printf "%.1f %.1f", $1, $2 + $3 }' <<<"$t"
}

printf '%-22s %14s %14s %10s  %s\n' lab "cold wall/cpu" "warm wall/cpu" "warm tests" "targets (15 s, 3 s)"
for want in "$@"; do
    lab=$(basename "$(ls -d labs/"$want"*/ | head -n 1)")
    rm -rf "$build/grade/vet/$lab"-*
    read -r cold cold_cpu <<<"$(timed "$lab")"
    touch "$sub/$lab"/*.cuh
    read -r warm warm_cpu <<<"$(timed "$lab")"
    tests=$(grep -o '"seconds": [0-9.]*' "$json" | tail -n +2 | awk '{ t += $2 } END { printf "%.1f", t }')
    awk -v l="$lab" -v c="$cold" -v cc="$cold_cpu" -v w="$warm" -v wc="$warm_cpu" -v t="$tests" 'BEGIN {
        printf "%-22s %6.1fs/%5.1fs %6.1fs/%5.1fs %9.1fs  %s, %s\n", l, c, cc, w, wc, t,
            c <= 15 ? "met" : "NOT met", w <= 3 ? "met" : "NOT met" }'
done
echo "(on $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg))"
