#!/usr/bin/env bash
# Draws handout 9's plots of the sort benchmark with benchplot, from the raw logs of results/, so
# that no plot is drawn by hand. Run it from the kit's root (make bench-plots does); it says
# nothing unless something fails. common/tests/test_viz.c runs it into a folder of its own and
# checks that handouts/figures/ holds exactly what it writes.
# Usage: bench-plots.sh BENCHPLOT OUTDIR
#   OUTDIR gets, for each log below, 009-bench-throughput-DEV.svg (Gkeys/s against n of each
#   sorter on random input) and 009-bench-worst-DEV.svg (the slowdown on lab 8's worst case).
set -euo pipefail
benchplot=${1:?usage: bench-plots.sh BENCHPLOT OUTDIR} out=${2:?usage: bench-plots.sh BENCHPLOT OUTDIR}

# Each log and the name of its device in the plots' file names: the latest whole run of sort_bench
# on each GPU, which handout 9 quotes: on the H100 run 5 of results/2026-11-28-h100-h200-targeted-worst/
# (before the dependent launches), on the H200 run 5 of results/2026-11-28-h200-issue20-profiles/
# (with them, and the merge kernel's loads through int offsets). Each holds both tables, random
# input and lab 8's targeted worst case.
logs="results/2026-11-28-h100-h200-targeted-worst/run5/sort-bench.txt h100
results/2026-11-28-h200-issue20-profiles/run5/sort-bench.txt h200"

mkdir -p "$out"
tmp=$out/.bench-plot.$$
trap 'rm -f "$tmp"' EXIT
# plot LOG KIND FILE: draws the plot into a temporary file first, so that a failure leaves FILE as it was.
plot() {
    "$benchplot" --log "$1" --plot "$2" >"$tmp"
    mv "$tmp" "$out/$3"
}
while read -r log dev; do
    plot "$log" throughput "009-bench-throughput-$dev.svg"
    plot "$log" slowdown "009-bench-worst-$dev.svg"
done <<<"$logs"
