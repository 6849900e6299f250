#!/usr/bin/env bash
# Keeps the numbers the handouts quote true: every quoted count is marked with the command that
# produces it, and this script re-runs the commands (CPU builds, the simulator, the committed
# results) and compares, so a changed kernel, generator or tool fails make test instead of leaving
# a stale sentence. Two marks, both HTML comments, which Markdown and Doxygen do not show:
#
#   <!-- numbers: COMMAND -->             a generated block: the lines up to <!-- end numbers -->
#   ...                                   are COMMAND's output (inside a ``` fence, if the block
#   <!-- end numbers -->                  has one); `make numbers` writes them, make test compares
#
#   <!-- numbers: COMMAND => V1 V2 ... --> on the line after a paragraph (or a table row, or a
#                                         list item): COMMAND's output holds the numbers V1, V2,
#                                         ... in that order, and so does the text above the mark,
#                                         up to the blank line before it
#
# COMMAND is a shell command run from the kit's root with these names (BUILD is the build folder):
#   worst_case, bankviz            BUILD/tools/...; bankcheck: the CPU build, BUILD/cpu/tools/bankcheck
#   pbs_conflicts                  BUILD/cpu/bench/pbs_conflicts (lab 6's launches, CPU build)
#   lab NN ARGS                    lab NN's driver built against the solution, CPU build
#   stage NN ARGS -- STAGE WHAT    lab 6's --trace line for STAGE (passes, last, stage1, window,
#                                  stage2): WHAT is worst (the costliest warp-query), cost or
#                                  conflicts (per warp-query)
#   in FILE...                     not a command: the numbers V1 .. must appear in these files
#                                  (the committed results a measured number comes from)
#   nums                           a filter: the numbers of its input, one a line
#   sumcol N FROM TO               a filter: the sum of field N of lines FROM .. TO of its input
#   cells FILE COL FIRST LAST      column COL of the rows FIRST .. LAST (by their first column) of
#                                  the Markdown table in FILE, one a line
#   strides S...                   the stride table of handout 0: bankcheck's 4-byte loads at
#                                  strides S, their cost (conflicts + 1) and conflicts
#   one_step WORD SIZE EXPR        one warp step through bankviz (banks of WORD bytes): lane t
#                                  reads SIZE bytes at byte EXPR (an awk expression in t); prints
#                                  its papers' cost and profiler conflicts
#   pbs_table CSV                  lab 6's launches (pbs_conflicts --compare CSV): ncu's load
#                                  conflicts per warp-query (a launch's total over its 64)
#
# Usage: numbers.sh check BUILD [FILE...]    the make test check (default: handouts 0, 6, 8 and 9,
#                                             their model answers, docs/mainpage.md); one line per
#                                             failure; ends with "numbers: P passed, F failed, 0 skipped"
#        numbers.sh update BUILD [FILE...]   rewrite the generated blocks (make numbers)
#        numbers.sh run BUILD COMMAND...     print COMMAND's output as the check sees it
set -uo pipefail
mode=${1:-} build=${2:-}
[ -n "$mode" ] && [ -n "$build" ] || { sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
shift 2
cd "$(dirname "$0")/.."
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- the names COMMAND may use ---------------------------------------------------------------
# A tool's run is kept: the same tool with the same arguments again prints what it printed (the
# tools are deterministic), so many marks can quote one slow run.
once() {
    local key
    key=run-$(printf '%s\n' "$@" | cksum | tr ' ' _)
    if [ ! -f "$tmp/$key.rc" ]; then
        "$@" >"$tmp/$key.out" 2>"$tmp/$key.err"
        echo $? >"$tmp/$key.rc"
    fi
    cat "$tmp/$key.out"
    cat "$tmp/$key.err" >&2
    return "$(cat "$tmp/$key.rc")"
}
worst_case() { once "$root/$build/tools/worst_case" "$@"; }
bankviz() { "$root/$build/tools/bankviz" "$@"; }
bankcheck() { once "$root/$build/cpu/tools/bankcheck" "$@"; }
pbs_conflicts() { once "$root/$build/cpu/bench/pbs_conflicts" "$@"; }
lab() {
    local n=$1 dir
    shift
    dir=$(cd "$root/labs" && ls -d "$n"-*/ 2>/dev/null | head -n 1)
    [ -n "$dir" ] || { echo "numbers.sh: no lab $n" >&2; return 2; }
    once "$root/$build/labs/sol-cpu/${dir%/}/driver" "$@"
}
stage() {
    local n=$1 args=() which what line
    shift
    while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
    which=${2:-} what=${3:-}
    case "$which" in
    passes) which='passes' ;; last) which='last test' ;; stage1) which='stage 1' ;;
    window) which='window test' ;; stage2) which='stage 2 (search)' ;;
    *) echo "numbers.sh: stage: STAGE is passes, last, stage1, window or stage2, not '$which'" >&2; return 2 ;;
    esac
    line=$(lab "$n" "${args[@]}" --trace "$tmp/stage.trace" | grep -F "  $which ") || {
        echo "numbers.sh: stage: lab $n ${args[*]} printed no '$which' line" >&2; return 2; }
    # "  NAME  R reads per query: Q warp-queries, papers' cost C (C/Q per warp-query, worst W), K conflicts"
    awk -v what="$what" '{
        s = $0; sub(/.*reads per query: /, "", s); split(s, f, /[ ,()]+/)
        q = f[1]; cost = f[5]; worst = f[10]; conf = f[11]
        if (what == "worst") print worst
        else if (what == "cost") print cost / q
        else if (what == "conflicts") print conf / q
        else { print "numbers.sh: stage: WHAT is worst, cost or conflicts" > "/dev/stderr"; exit 2 }
    }' <<<"$line"
}
nums() { grep -oE -- '-?[0-9]+(\.[0-9]+)?' || true; }
cells() { awk -F'|' -v c="$2" -v a="$3" -v b="$4" '$2 + 0 >= a && $2 + 0 <= b && $2 ~ /[0-9]/ { v = $(c + 1); gsub(/ /, "", v); print v }' "$1"; }
strides() {
    bankcheck >"$tmp/bankcheck.txt" || return 2
    awk -F'\t' -v list="$*" '
        BEGIN { n = split(list, want, " ") }
        $2 ~ /^4-byte loads, stride / { s = $2; sub(/.*stride /, "", s); split($3, f, " "); c[s] = f[2] }
        END {
            printf "  %-10s", "stride s"; for (i = 1; i <= n; i++) printf "%4s", want[i]; printf "\n"
            printf "  %-10s", "cost = g"; for (i = 1; i <= n; i++) printf "%4s", c[want[i]] + 1; printf "\n"
            printf "  %-10s", "conflicts"; for (i = 1; i <= n; i++) printf "%4s", c[want[i]]; printf "\n"
        }' "$tmp/bankcheck.txt"
}
one_step() {
    { echo '# kit-trace 1'; awk -v size="$2" "BEGIN { for (t = 0; t < 32; t++) print 0, t, 0, $3, size, \"r\" }"; } >"$tmp/one.trace"
    bankviz --trace "$tmp/one.trace" --word "$1" | grep '^loads in step' | sed 's/.*papers. cost/cost/'
}
pbs_table() {
    pbs_conflicts --compare "$1" | awk -F'|' '
        function show(x) { return x == int(x) ? sprintf("%d", x) : sprintf("%.1f", x) }
        $2 ~ /[0-9]/ {
            split($3, f, " "); alg = f[1]; type = f[2]; K = substr(f[3], 3); q = f[4]
            v[type, alg, q, K] = show($5 / 64); if (!(K in seen)) { seen[K] = 1; Ks[++nk] = K }
        }
        END {
            split("pbs worst|pbs keys|cf worst|cf keys|cl worst|cl keys", rows, "|")
            name["pbs"] = "PBS"; name["cf"] = "PBS-CF"; name["cl"] = "PBS-CL"
            label["worst"] = "worst case"; label["keys"] = "random keys"
            for (t = 1; t <= 2; t++) {
                type = t == 1 ? "i32" : "i64"
                printf "  %-30s", (t == 1 ? "4-byte keys, K =" : "8-byte keys, K =")
                for (k = 1; k <= nk; k++) printf "%7s", Ks[k]
                printf "\n"
                for (r = 1; r <= 6; r++) {
                    split(rows[r], x, " ")
                    printf "  %-30s", name[x[1]] ", " label[x[2]]
                    for (k = 1; k <= nk; k++) printf "%7s", v[type, x[1], x[2], Ks[k]]
                    printf "\n"
                }
            }
        }'
}
sumcol() { awk -v n="$1" -v a="$2" -v b="$3" 'NR >= a && NR <= b { s += $n } END { print s }'; }

# Runs a command once per check run (the same command again reads its first output).
run_cached() {
    local key
    key=$(printf '%s' "$1" | cksum | tr ' ' _)
    last_err=$tmp/$key.err
    if [ ! -f "$tmp/$key.out" ]; then
        (eval "$1") >"$tmp/$key.out" 2>"$tmp/$key.err" </dev/null
        echo $? >"$tmp/$key.rc"
    fi
    cat "$tmp/$key.out"
    return "$(cat "$tmp/$key.rc")"
}

# The numbers of a text, one a line, in order.
numbers_of() { grep -oE '(^|[^0-9.])-?[0-9]+(\.[0-9]+)?' <<<"$1" | sed -E 's/^[^0-9-]//'; }

# Whether the numbers "$2" (one a line) appear in the numbers "$1" (one a line) in that order.
in_order() { awk 'NR == FNR { want[++n] = $0; next } k < n && $0 == want[k + 1] { k++ } END { exit k < n }' <(echo "$2") <(echo "$1"); }

passed=0 failed=0 numbers=0 last_err=/dev/null
fail() { echo "  FAIL  $1"; failed=$((failed + 1)); }

# check_file FILE: every mark of one file; update_file FILE: its blocks rewritten.
check_file() {
    local f=$1 n=0 marks=0 lineno text cmd want got para before=$failed
    local -a lines
    mapfile -t lines <"$f"
    for ((i = 0; i < ${#lines[@]}; i++)); do
        text=${lines[$i]}
        [[ $text == *'<!-- numbers:'* ]] || continue
        lineno=$((i + 1))
        cmd=${text#*<!-- numbers: }
        cmd=${cmd% -->*}
        marks=$((marks + 1))
        if [[ $cmd == *' => '* ]]; then
            want=$(tr ' ' '\n' <<<"${cmd#* => }" | grep .)
            cmd=${cmd%% => *}
            # The paragraph above the mark: back to the blank line, marks left out.
            para=
            for ((j = i - 1; j >= 0; j--)); do
                [[ -z ${lines[$j]// /} ]] && break
                [[ ${lines[$j]} == *'<!-- numbers:'* ]] && continue
                para="${lines[$j]}"$'\n'"$para"
            done
            if ! in_order "$(numbers_of "$para")" "$want"; then
                fail "$f:$lineno: the text above the mark does not say $(echo $want) in that order (the mark: $cmd)"
                continue
            fi
            if [[ $cmd == 'in '* ]]; then
                local file missing=
                for file in ${cmd#in }; do
                    [ -f "$file" ] || { missing="$file is missing"; break; }
                done
                if [ -z "$missing" ]; then
                    for v in $want; do
                        grep -qE "(^|[^0-9.])${v//./\\.}([^0-9]|\.[^0-9]|\.?\$)" ${cmd#in } || { missing="$v is not in ${cmd#in }"; break; }
                    done
                fi
                [ -z "$missing" ] || { fail "$f:$lineno: $missing"; continue; }
            else
                run_cached "$cmd" >"$tmp/got" || { fail "$f:$lineno: '$cmd' failed: $(tail -n 3 "$last_err")"; continue; }
                got=$(cat "$tmp/got")
                if ! in_order "$(numbers_of "$got")" "$want"; then
                    fail "$f:$lineno: '$cmd' does not give $(echo $want) in that order; it gives: $(numbers_of "$got" | head -n 40 | paste -sd' ' -) (rerun: bash mk/numbers.sh run $build '$cmd')"
                    continue
                fi
            fi
            n=$((n + $(grep -c . <<<"$want")))
        else
            local end=-1 first last block
            for ((j = i + 1; j < ${#lines[@]}; j++)); do
                [[ ${lines[$j]} == '<!-- end numbers -->' ]] && { end=$j; break; }
            done
            [ $end -ge 0 ] || { fail "$f:$lineno: a block with no '<!-- end numbers -->'"; continue; }
            first=$((i + 1)) last=$((end - 1))
            [[ ${lines[$first]:-} == '```'* ]] && [[ ${lines[$last]:-} == '```' ]] && { first=$((first + 1)); last=$((last - 1)); }
            block=$(for ((j = first; j <= last; j++)); do printf '%s\n' "${lines[$j]}"; done)
            run_cached "$cmd" >"$tmp/got" || { fail "$f:$lineno: '$cmd' failed: $(tail -n 3 "$last_err")"; continue; }
            got=$(cat "$tmp/got")
            if [ "$mode" = update ]; then
                { for ((j = 0; j < first; j++)); do printf '%s\n' "${lines[$j]}"; done
                  printf '%s\n' "$got"
                  for ((j = last + 1; j < ${#lines[@]}; j++)); do printf '%s\n' "${lines[$j]}"; done; } >"$tmp/new"
                if ! cmp -s "$tmp/new" "$f"; then
                    cat "$tmp/new" >"$f"
                    echo "  NUMBERS  $f:$lineno: $cmd"
                    check_file "$f" # the lines moved: start again on the new file
                    return
                fi
            elif [ "$block" != "$got" ]; then
                fail "$f:$lineno: the block is not what '$cmd' prints now; the first difference:"
                diff <(echo "$block") <(echo "$got") | head -n 6 | sed 's/^/         /'
                echo "         (make numbers rewrites it; rerun: bash mk/numbers.sh run $build '$cmd')"
                continue
            fi
            n=$((n + $(numbers_of "$block" | grep -c .)))
        fi
    done
    [ $marks -gt 0 ] || return 0
    numbers=$((numbers + n))
    [ $failed = $before ] || return 0
    passed=$((passed + 1))
    [ "$mode" = check ] && echo "  PASS  $f: $marks marks, $n numbers"
    return 0
}

case "$mode" in
run)
    run_cached "$*"
    exit $?
    ;;
check | update) ;;
*) echo "numbers.sh: the mode is check, update or run, not '$mode'" >&2; exit 2 ;;
esac
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(handouts/0[0689]-*.md handouts/answers/0[0689]-*.md docs/mainpage.md)
for f in "${files[@]}"; do
    [ -f "$f" ] || continue # the student kit has no model answers
    check_file "$f"
done
echo "numbers: $numbers numbers checked in ${#files[@]} files"
echo "numbers: $passed passed, $failed failed, 0 skipped"
[ $failed = 0 ]
