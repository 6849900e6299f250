#!/usr/bin/env bash
# Runs the test programs given (each a path, or a quoted command), JOBS at a time (default 1),
# keeps each one's output as LOGS/NAME.log under a name of its own, and says one line per program
# as it ends: its seconds and its "NAME: P passed, F failed, S skipped" line. A program that failed
# also shows its failure lines, its log and the command that reruns it; so does one that passed
# but printed lines that look like errors (see noise below). Ends with one line that
# adds up the summary lines; exits 1 if any program failed, crashed or printed no summary line.
# LOGS/times.tsv gets "NAME<TAB>SECONDS<TAB>EXIT<TAB>CPU SECONDS" per program (bench/make-test-time.sh
# reads it; the CPU seconds tell a slow program from a busy machine).
# Usage: JOBS=N run-tests.sh LOGS PROGRAM...
set -u
logs=$1
shift
jobs=${JOBS:-1}
mkdir -p "$logs"
rm -f "$logs"/*.log "$logs"/*.done "$logs"/*.cpu "$logs/times.tsv"
summary_re='^[^:]+: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$'

# A log's name: a script's name (bash mk/check-dist.sh ... -> check-dist), or the program's path
# below the build folder with / as - (build/labs/sol-cpu/01-x/test -> labs-sol-cpu-01-x-test).
name_of() {
    local first=${1%% *} rest
    if [ "$first" = bash ]; then
        rest=${1#bash }
        basename "${rest%% *}" .sh
    else
        first=${first#"${KIT_BUILD:-build}"/}
        echo "${first//\//-}"
    fi
}

# A passing program's lines that look like errors: a test that provokes a failure on purpose
# checks the message instead of printing it. CUnit's "  Test: NAME ..." and the scripts' "ok"
# and "PASS" lines name what was tested, so only what follows a test's name counts.
noise() {
    sed -E -e 's/^  Test: .* \.\.\.//' -e '/^ *(ok|PASS) /d' "$1" |
        grep -i -E "(^|[^[:alnum:]_])(error|cannot|can't|deadlock|fatal|warning|aborted|segmentation)([^[:alnum:]_]|$)" |
        head -n 3
}

# The CPU seconds (user + system) of this shell's finished children, from bash's `times` (which
# must run in this shell, not in a pipe's subshell: hence the file).
cpu_seconds() {
    times >"$1"
    awk 'END { split($1 " " $2, t, /[ms ]+/); printf "%.1f", t[1] * 60 + t[2] + t[3] * 60 + t[4] }' "$1"
    rm -f "$1"
}

# Runs one program into its log, then leaves NAME.done with "TENTHS_OF_SECONDS EXIT CPU_SECONDS".
run_one() {
    local start status
    start=$(date +%s%N)
    bash -c "$2" >"$logs/$1.log" 2>&1 </dev/null
    status=$?
    cpu_seconds "$logs/$1.times" >"$logs/$1.cpu"
    echo "$((($(date +%s%N) - start) / 100000000)) $status $(cat "$logs/$1.cpu")" >"$logs/$1.done"
}

passed=0 failed=0 skipped=0 broken=()
# Says how a finished program did and adds its counts in.
report() {
    local name=$1 prog=$2 tenths status cpu line p f=0 s secs noisy
    read -r tenths status cpu <"$logs/$name.done"
    secs="$((tenths / 10)).$((tenths % 10))"
    printf '%s\t%s\t%s\t%s\n' "$name" "$secs" "$status" "$cpu" >>"$logs/times.tsv"
    line=$(grep -E "$summary_re" "$logs/$name.log" | tail -n 1)
    if [ -z "$line" ]; then
        broken+=("$name (exit $status, no summary line)")
        failed=$((failed + 1))
    else
        read -r p f s <<<"$(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped/\1 \2 \3/' <<<"$line")"
        passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
        [ "$status" != 0 ] && [ "$f" = 0 ] && { broken+=("$name (exit $status)"); failed=$((failed + 1)); }
    fi
    if [ "$status" = 0 ] && [ -n "$line" ] && [ "$f" = 0 ] && noisy=$(noise "$logs/$name.log") && [ -n "$noisy" ]; then
        broken+=("$name (passed, but printed lines that look like errors)")
        failed=$((failed + 1))
        printf '  FAIL %6s s  %s, but it printed:\n' "$secs" "$line"
        sed 's/^/         /' <<<"$noisy"
        echo "         log: $logs/$name.log; rerun: $prog"
        return
    fi
    if [ "$status" = 0 ] && [ -n "$line" ]; then
        printf '  ok   %6s s  %s\n' "$secs" "$line"
        return
    fi
    printf '  FAIL %6s s  %s\n' "$secs" "${line:-$name: exit $status, no summary line}"
    # CUnit's numbered failures, the scripts' FAIL lines, or else the log's end.
    { grep -E '^ +[0-9]+\. |FAIL|[Ee]rror' "$logs/$name.log" || tail -n 15 "$logs/$name.log"; } | head -n 20 | sed 's/^/         /'
    echo "         log: $logs/$name.log; rerun: $prog"
}

names=() progs=() reported=()
for prog in "$@"; do
    name=$(name_of "$prog")
    case " ${names[*]+${names[*]}} " in *" $name "*) name=$name-$((${#names[@]} + 1)) ;; esac
    names+=("$name")
    progs+=("$prog")
done
# Start each program when a slot is free; report the finished ones in the meantime.
report_finished() {
    local i
    for i in "${!names[@]}"; do
        if [ -z "${reported[$i]:-}" ] && [ -f "$logs/${names[$i]}.done" ]; then
            report "${names[$i]}" "${progs[$i]}"
            reported[$i]=1
        fi
    done
}
for i in "${!names[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
        wait -n
        report_finished
    done
    run_one "${names[$i]}" "${progs[$i]}" &
done
while [ -n "$(jobs -rp)" ]; do
    wait -n
    report_finished
done
wait
report_finished
rm -f "$logs"/*.done "$logs"/*.cpu

for b in "${broken[@]+"${broken[@]}"}"; do echo "FAILED: $b"; done
echo "make test: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
