#!/usr/bin/env bash
# Runs each test program given (a path, or a quoted command), keeps its log,
# and ends with one line that adds up their "NAME: P passed, F failed, S skipped"
# lines. Exits 1 if any program failed, crashed or printed no such line.
set -u
logs=$1
shift
mkdir -p "$logs"
passed=0 failed=0 skipped=0 broken=()
for prog in "$@"; do
    name=$(basename "${prog%% *}")
    [ "$name" = bash ] && name=$(basename "$(echo "$prog" | awk '{print $2}')" .sh)
    log="$logs/$name.log"
    echo "=== $prog"
    set -o pipefail
    bash -c "$prog" 2>&1 | tee "$log"
    status=$?
    set +o pipefail
    line=$(grep -E '^[^:]+: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -n 1)
    if [ -z "$line" ]; then
        broken+=("$name (exit $status, no summary line)")
        failed=$((failed + 1))
        continue
    fi
    read -r p f s <<<"$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped/\1 \2 \3/')"
    passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
    if [ "$status" != 0 ] && [ "$f" = 0 ]; then
        broken+=("$name (exit $status)")
        failed=$((failed + 1))
    fi
done
echo
for b in "${broken[@]+"${broken[@]}"}"; do echo "FAILED: $b"; done
echo "make test: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
