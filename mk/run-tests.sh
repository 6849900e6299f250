#!/usr/bin/env bash
# Runs the test programs given (each a path, or a quoted command), JOBS at a time (default 1),
# keeps each one's output as LOGS/NAME.log under a name of its own, and says one line per program
# as it ends: its seconds and its "NAME: P passed, F failed, S skipped" line. A program that failed
# also shows its failure lines, its log and the command that reruns it; so does one that passed
# but printed lines that look like errors (see noise below). Ends with one line that adds up the
# summary lines; exits 1 if any program failed, crashed, printed no summary line or was not run.
#
# A step that may take a while says so when it starts: each build and program that took 5 s or
# more the last time (LOGS/times.tsv), and every one of them when there is no last time. Skipped
# tests give their reasons (the logs' "SKIPPED suite (N tests): why", "SKIP ..." and "skipped: ..."
# lines) above the closing line. Two programs whose summary lines bear one name fail: the summary
# could not tell them apart.
#
# --build LABEL COMMAND starts a build: the first at once, each later one when the one before it
# has succeeded. The programs listed after a build start when it has succeeded, so tests run while
# the next build goes on beside them; a build's output goes to its log, and one line says it ended.
# LOGS/times.tsv gets "NAME<TAB>SECONDS<TAB>EXIT<TAB>CPU SECONDS" per program and build
# (bench/make-test-time.sh reads it; the CPU seconds tell a slow program from a busy machine).
# Usage: JOBS=N run-tests.sh LOGS [--build LABEL COMMAND] PROGRAM... [--build LABEL COMMAND PROGRAM...]...
set -u
logs=$1
shift
jobs=${JOBS:-1}
mkdir -p "$logs"
# The last run's seconds per step, to know which steps to announce (see above).
declare -A last_secs=()
if [ -f "$logs/times.tsv" ]; then
    while IFS=$'\t' read -r name secs _; do last_secs[$name]=${secs%.*}; done <"$logs/times.tsv"
fi
rm -f "$logs"/*.log "$logs"/*.done "$logs"/*.cpu "$logs/times.tsv"
summary_re='^[^:]+: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$'

# A log's name: a script's name (bash mk/check-dist.sh ... -> check-dist), or the program's path
# below the build folder with / as - (build/labs/sol-cpu/01-x/test -> labs-sol-cpu-01-x-test),
# and its arguments, if any (build/tests/test_selftest fixtures 0/2 -> tests-test_selftest-fixtures-0-2).
name_of() {
    local first=${1%% *} rest args=
    if [ "$first" = bash ]; then
        rest=${1#bash }
        basename "${rest%% *}" .sh
    else
        [ "$first" != "$1" ] && args=-$(tr -c 'a-zA-Z0-9_.\n' - <<<"${1#* }")
        first=${first#"${KIT_BUILD:-build}"/}
        echo "${first//\//-}$args"
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

# Runs one command into LOGS/NAME.log, then leaves NAME.done with "TENTHS_OF_SECONDS EXIT CPU_SECONDS".
run_one() {
    local start status
    start=$(date +%s%N)
    bash -c "$2" >"$logs/$1.log" 2>&1 </dev/null
    status=$?
    cpu_seconds "$logs/$1.times" >"$logs/$1.cpu"
    echo "$((($(date +%s%N) - start) / 100000000)) $status $(cat "$logs/$1.cpu")" >"$logs/$1.done"
}

# Reads NAME.done into secs, status and cpu, and adds the times.tsv line.
finished() {
    local tenths
    read -r tenths status cpu <"$logs/$1.done"
    secs="$((tenths / 10)).$((tenths % 10))"
    printf '%s\t%s\t%s\t%s\n' "$1" "$secs" "$status" "$cpu" >>"$logs/times.tsv"
}

# Says that a step starts, unless it took less than 5 s the last time.
announce() {
    local name=$1 what=$2 last=${last_secs[$1]:-}
    [ -n "$last" ] && [ "$last" -lt 5 ] && return
    printf '  ..            %s%s\n' "$what" "${last:+ (${last} s last time)}"
}

passed=0 failed=0 skipped=0 broken=() skips=()
declare -A summary_of=() # a summary line's name -> the program that printed it
# Says how a finished program did and adds its counts in.
report() {
    local name=$1 prog=$2 secs status cpu line p f=0 s noisy
    finished "$name"
    line=$(grep -E "$summary_re" "$logs/$name.log" | tail -n 1)
    if [ -z "$line" ]; then
        broken+=("$name (exit $status, no summary line)")
        failed=$((failed + 1))
    else
        read -r p f s <<<"$(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped/\1 \2 \3/' <<<"$line")"
        passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
        [ "$status" != 0 ] && [ "$f" = 0 ] && { broken+=("$name (exit $status)"); failed=$((failed + 1)); }
        local said=${line%%:*}
        if [ -n "${summary_of[$said]:-}" ]; then
            broken+=("$name and ${summary_of[$said]} both report as '$said': give one a name of its own")
            failed=$((failed + 1))
        fi
        summary_of[$said]=$name
        if [ "$s" != 0 ]; then
            local why
            while IFS= read -r why; do skips+=("$name: $why"); done < <(
                sed -n -E -e 's/^SKIPPED (.*)$/\1/p' -e 's/^ *SKIP +(.*)$/\1/p' -e 's/^.*skipped: (.*)$/\1/p' "$logs/$name.log" |
                    head -n 5)
            [ ${#skips[@]} -gt 0 ] && [[ ${skips[-1]} == "$name: "* ]] || skips+=("$name: $s skipped (its log gives no reason)")
        fi
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

# Says how a finished build did; returns its exit status.
report_build() {
    local name=$1 label=$2 secs status cpu
    finished "$name"
    if [ "$status" = 0 ]; then
        printf '  ok   %6s s  built %s\n' "$secs" "$label"
        return 0
    fi
    printf '  FAIL %6s s  the build of %s, so its tests did not run:\n' "$secs" "$label"
    { grep -E 'error|Error|\*\*\*' "$logs/$name.log" || tail -n 15 "$logs/$name.log"; } | head -n 20 | sed 's/^/         /'
    echo "         log: $logs/$name.log"
    broken+=("the build of $label")
    failed=$((failed + 1))
    return 1
}

# The programs, each with the number of the build it waits for (0: none), and the builds.
names=() progs=() stage=() build_labels=("") build_cmds=("")
while [ $# -gt 0 ]; do
    if [ "$1" = --build ]; then
        build_labels+=("$2") build_cmds+=("$3")
        shift 3
        continue
    fi
    name=$(name_of "$1")
    case " ${names[*]+${names[*]}} " in *" $name "*) name=$name-$((${#names[@]} + 1)) ;; esac
    names+=("$name") progs+=("$1") stage+=($((${#build_cmds[@]} - 1)))
    shift
done

# ready: the builds done so far (their programs may start); started/reported: per program.
ready=0 building= started=() reported=() running=0
start_build() {
    if [ $((ready + 1)) -lt ${#build_cmds[@]} ]; then
        building=$((ready + 1))
        announce "build-$building" "building ${build_labels[$building]}"
        run_one "build-$building" "${build_cmds[$building]}" &
    else
        building=
    fi
}
# Reports what has finished, starts the next build after one that succeeded, and fills free slots.
step() {
    local i
    if [ -n "$building" ] && [ -f "$logs/build-$building.done" ]; then
        if report_build "build-$building" "${build_labels[$building]}"; then
            ready=$building
            start_build
        else
            building= ready=-1
        fi
    fi
    for i in "${!names[@]}"; do
        if [ -n "${started[$i]:-}" ] && [ -z "${reported[$i]:-}" ] && [ -f "$logs/${names[$i]}.done" ]; then
            report "${names[$i]}" "${progs[$i]}"
            reported[$i]=1 running=$((running - 1))
        fi
    done
    for i in "${!names[@]}"; do
        if [ -z "${started[$i]:-}" ] && [ "$ready" -ge "${stage[$i]}" ] && [ $running -lt "$jobs" ]; then
            announce "${names[$i]}" "running ${names[$i]}"
            run_one "${names[$i]}" "${progs[$i]}" &
            started[$i]=1 running=$((running + 1))
        fi
    done
}
start_build
step
while [ -n "$(jobs -rp)" ]; do
    wait -n
    step
done
step
rm -f "$logs"/*.done "$logs"/*.cpu

for i in "${!names[@]}"; do
    [ -n "${started[$i]:-}" ] || { broken+=("${names[$i]} (not run)"); failed=$((failed + 1)); }
done
for b in "${skips[@]+"${skips[@]}"}"; do echo "SKIPPED: $b"; done
for b in "${broken[@]+"${broken[@]}"}"; do echo "FAILED: $b"; done
echo "make test: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
