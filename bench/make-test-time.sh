#!/usr/bin/env bash
# How long `make test` takes from a fresh clone, and where the time goes. A benchmark, not a
# test: it clones this checkout's commit REV (default HEAD) into a temporary folder, runs
# `make test` there with make's SHELL wrapped so that every recipe line is timed, and prints
# the total, the build's seconds by kind of step (nvcc, the CPU build through g++, gcc, links),
# and each test program's seconds (from mk/run-tests.sh's times.tsv).
# Usage: bench/make-test-time.sh [REV|--copy] [MAKE ARGS...]   e.g. bench/make-test-time.sh HEAD GPU=1
# --copy times a copy of this tree as it is, build/ left out (for a machine with no git history).
# KEEP=1 keeps the clone (its path is printed).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
what=${1:-HEAD}
shift $(($# > 0 ? 1 : 0))
tmp=$(mktemp -d /tmp/kit-make-test-XXXXXX)
chmod 755 "$tmp" # as root, the grader runs the runners as nobody, who must reach the kit
[ "${KEEP:-0}" = 1 ] && echo "clone kept in $tmp/kit" || trap 'rm -rf "$tmp"' EXIT
if [ "$what" = --copy ]; then
    mkdir "$tmp/kit" && tar -C "$src" --exclude=./build -cf - . | tar -C "$tmp/kit" -xf -
else
    git clone -q --no-checkout "$src" "$tmp/kit"
    git -C "$tmp/kit" checkout -q "$(git -C "$src" rev-parse "$what")"
fi

# make runs every recipe line as `SHELL -c LINE`: this one runs it with bash and logs its seconds.
cat >"$tmp/timed-shell" <<'EOF'
#!/bin/bash
start=$(date +%s%N)
/bin/bash "$@"
rc=$?
line=${*: -1}
case $line in
*run-tests.sh*) kind="run the tests (wall)" ;;
*mk/deps.sh*) kind="dependency check" ;;
*make*--no-print-directory*) kind="build (wall)" ;;
*nvcc*" -c "*) kind="nvcc compile" ;;
*nvcc*) kind="nvcc link" ;;
*-DKIT_CPU*" -c "*) kind="g++ compile (CPU build)" ;;
*" -c "*) kind="gcc compile" ;;
*"ar rcs"*) kind="ar" ;;
*" -o "*) kind="gcc/g++ link" ;;
*) kind="other" ;;
esac
times >"$KIT_BENCH_TIMES.$$"
cpu=$(awk 'END { split($1 " " $2, t, /[ms ]+/); printf "%d", (t[1] * 60 + t[2] + t[3] * 60 + t[4]) * 1000 }' "$KIT_BENCH_TIMES.$$")
rm -f "$KIT_BENCH_TIMES.$$"
printf '%s\t%s\t%s\n' "$kind" "$((($(date +%s%N) - start) / 1000000))" "$cpu" >>"$KIT_BENCH_TIMES"
exit $rc
EOF
chmod +x "$tmp/timed-shell"

export KIT_BENCH_TIMES="$tmp/recipes.tsv"
cd "$tmp/kit"
echo "make test in a fresh copy of $( (git log -1 --format='%h %s' 2>/dev/null || echo "$src") | cut -c1-70), on $(nproc) cores"
start=$(date +%s)
status=0
make test SHELL="$tmp/timed-shell" "$@" >"$tmp/make-test.log" 2>&1 || status=$?
total=$(($(date +%s) - start))

echo "build steps by kind: seconds summed over the parallel jobs, and their CPU seconds:"
awk -F'\t' '{ s[$1] += $2; c[$1] += $3; n[$1]++ }
    END { for (k in s) printf "  %8.1f s  %8.1f cpu s  %4d x  %s\n", s[k] / 1000, c[k] / 1000, n[k], k }' \
    "$tmp/recipes.tsv" | sort -rn
echo "test programs: seconds each, and their CPU seconds:"
sort -t$'\t' -k2 -rn "$tmp/kit/build/test-logs/times.tsv" 2>/dev/null |
    awk -F'\t' '{ printf "  %8.1f s  %8.1f cpu s  %s\n", $2, $4, $1 }'
grep -E '^make test: [0-9]+ passed' "$tmp/make-test.log" | tail -n 1 | sed 's/^/summary: /'
echo "make test: $total s in all (exit $status); load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
[ $status = 0 ] || { echo "its output ends:"; tail -n 20 "$tmp/make-test.log"; }
exit $status
