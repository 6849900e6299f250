#!/usr/bin/env bash
# Times make check's path (mk/check.sh) on each lab given, with the solution's file as the student's:
# cold (the lab's cached objects of the object check removed) and warm (again, after touching the
# file), against the targets of 15 s and 3 s. Splits the warm run into the tests and the rest (the
# source and object checks, the compile and the link). A benchmark, not a test.
# Usage: bench-check.sh GRADER BUILD LAB...   (LAB: 01 or 01-sequential-merge)
set -u
grader=$1 build=$2
shift 2
sub="$build/bench-check/labs" json="$build/bench-check/check.json"
rm -rf "$sub" && mkdir -p "$sub" && cp -r solutions/* "$sub/"

# Seconds one run of mk/check.sh takes; its report goes to $json.
timed() {
    local start end
    start=$(date +%s.%N)
    KIT_CHECK_SUBMISSION="$sub" KIT_CHECK_ARGS="--json $json" bash mk/check.sh "$grader" "$build" "$1" >/dev/null 2>&1 ||
        echo "bench-check: make check failed on the solution of lab $1" >&2
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }'
}

printf '%-24s %8s %8s %10s %10s  %s\n' lab cold warm "warm tests" "warm rest" "targets (15 s, 3 s)"
for want in "$@"; do
    lab=$(basename "$(ls -d labs/"$want"*/ | head -n 1)")
    rm -rf "$build/grade/vet/$lab"-*
    cold=$(timed "$lab")
    touch "$sub/$lab"/*.cuh
    warm=$(timed "$lab")
    tests=$(grep -o '"seconds": [0-9.]*' "$json" | tail -n +2 | awk '{ t += $2 } END { printf "%.1f", t }')
    awk -v l="$lab" -v c="$cold" -v w="$warm" -v t="$tests" 'BEGIN {
        printf "%-24s %7.1fs %7.1fs %9.1fs %9.1fs  %s, %s\n", l, c, w, t, w - t,
            c <= 15 ? "met" : "NOT met", w <= 3 ? "met" : "NOT met" }'
done
echo "(on $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg))"
