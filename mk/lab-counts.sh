#!/usr/bin/env bash
# The simulator against ncu on every kernel launch of the grader's specs (issue 17). The counts come
# from `grader --counts FILE`: in CPU mode the simulator's, in GPU mode ncu's (grader/counts.h).
#   mk/lab-counts.sh golden CPU.tsv GPU.tsv   one line per launch: its key, ncu's and the simulator's
#                                             load and store conflicts and requests (the golden file)
#   mk/lab-counts.sh table GOLDEN.tsv         the golden file as a Markdown table, with a summary per lab
#   mk/lab-counts.sh check GOLDEN.tsv CPU.tsv the simulator's counts now against the golden file: quiet
#                                             when every launch counts what it did, else one line per
#                                             launch that moved; ends with "lab-counts: P passed, F failed, 0 skipped".
#                                             Tests it does not name (the hidden ones, drawn anew for
#                                             every secret) are not compared
#   mk/lab-counts.sh test GRADER GOLDEN.tsv   make test's golden-count test: grades the solutions of labs
#                                             3-9 in CPU mode with --counts and --expect 100 (two graders
#                                             at once), then check
set -uo pipefail
cmd=${1:-}
case "$cmd" in
golden)
    # Launches are matched by lab, test and number; a different kernel, grid or block is an error.
    awk -F'\t' -v OFS='\t' '
        FNR == 1 || /^#/ { next }
        FILENAME == ARGV[1] { key = $1 OFS $2 OFS $3; cpu[key] = $0; order[++n] = key; next }
        { key = $1 OFS $2 OFS $3; gpu[key] = $0; if (!(key in cpu)) order[++n] = key }
        END {
            print "lab", "test", "launch", "kernel", "grid", "block", "ncu_ld", "ncu_st", "sim_ld", "sim_st",
                  "ncu_ld_requests", "ncu_st_requests", "sim_ld_requests", "sim_st_requests", "sim_ld_lockstep"
            bad = 0
            for (i = 1; i <= n; i++) {
                k = order[i]
                if (!(k in cpu) || !(k in gpu)) {
                    printf "lab-counts: %s: launch counted by %s only\n", k, (k in cpu) ? "the simulator" : "ncu" > "/dev/stderr"
                    bad = 1; continue
                }
                split(cpu[k], c, "\t"); split(gpu[k], g, "\t")
                if (c[4] != g[4] || c[5] != g[5] || c[6] != g[6]) {
                    printf "lab-counts: %s: the simulator ran %s %s x %s, ncu %s %s x %s\n", k, c[4], c[5], c[6], g[4], g[5], g[6] > "/dev/stderr"
                    bad = 1; continue
                }
                print c[1], c[2], c[3], c[4], c[5], c[6], g[7], g[8], c[7], c[8], g[9], g[10], c[9], c[10], c[13]
            }
            exit bad
        }' "$2" "$3"
    ;;
table)
    awk -F'\t' '
        function verdict(sim, ncu) {
            if (sim == ncu) return "equal"
            d = sim - ncu; if (d < 0) d = -d
            return d <= 0.02 * ncu ? "within 2%" : "off"
        }
        FNR == 1 { next }
        {
            ld = verdict($9, $7); st = verdict($10, $8)
            v = ld == "off" || st == "off" ? "off" : ld == "equal" && st == "equal" ? "equal" : "within 2%"
            count[$1 SUBSEP v]++; if (!($1 in seen)) { seen[$1] = 1; labs[++nl] = $1 }
            rows[++n] = sprintf("| %s | %s | %s | %s | %s x %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |", $1, $2, $3, $4, $5, $6,
                                $9, $7, $10, $8, $13, $11, $14, $12, v)
        }
        END {
            print "| lab | launches | equal | within 2% | off |"
            print "| --- | ---: | ---: | ---: | ---: |"
            for (i = 1; i <= nl; i++) {
                l = labs[i]; e = count[l SUBSEP "equal"] + 0; w = count[l SUBSEP "within 2%"] + 0; o = count[l SUBSEP "off"] + 0
                printf "| %s | %d | %d | %d | %d |\n", l, e + w + o, e, w, o
            }
            print ""
            print "| lab | test | # | kernel | grid x block | ld sim | ld ncu | st sim | st ncu | ld req sim | ld req ncu | st req sim | st req ncu | conflicts |"
            print "| --- | --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
            for (i = 1; i <= n; i++) print rows[i]
        }' "$2"
    ;;
check)
    awk -F'\t' -v OFS='\t' '
        FNR == 1 || /^#/ { next }
        FILENAME == ARGV[1] { key = $1 OFS $2 OFS $3; want[key] = $0; order[++n] = key; named[$1 OFS $2] = 1; next }
        { key = $1 OFS $2 OFS $3; got[key] = $0 }
        END {
            pass = fail = 0
            for (i = 1; i <= n; i++) {
                k = order[i]; split(want[k], w, "\t")
                if (!(k in got)) {
                    printf "lab-counts: %s %s launch %s (%s): not counted now\n", w[1], w[2], w[3], w[4]; fail++; continue
                }
                split(got[k], c, "\t")
                if (c[4] != w[4] || c[5] != w[5] || c[6] != w[6])
                    printf "lab-counts: %s %s launch %s: now %s %s x %s, golden %s %s x %s\n", w[1], w[2], w[3], c[4], c[5], c[6], w[4], w[5], w[6]
                else if (c[7] != w[9] || c[8] != w[10])
                    printf "lab-counts: %s %s launch %s (%s): conflicts ld %s st %s, golden ld %s st %s (ncu ld %s st %s)\n",
                           w[1], w[2], w[3], w[4], c[7], c[8], w[9], w[10], w[7], w[8]
                else { pass++; continue }
                fail++
            }
            # a test the golden file does not name is a hidden one, drawn anew for every secret: not compared
            for (k in got) if (!(k in want)) { split(got[k], c, "\t"); if (!((c[1] OFS c[2]) in named)) continue
                printf "lab-counts: %s %s launch %s (%s): not in the golden file\n", c[1], c[2], c[3], c[4]; fail++ }
            printf "lab-counts: %d passed, %d failed, 0 skipped\n", pass, fail
            exit fail > 0
        }' "$2" "$3"
    ;;
test)
    grader=$2 golden=$3 dir=${KIT_BUILD:-build}/lab-counts
    mkdir -p "$dir"
    # --expect 100: this is also where make test checks that the solutions of labs 3-9 score 100% in
    # CPU mode (the self-test grades labs 1 and 2). Two graders at once, each on a part of the labs.
    declare -A labs=([a]="--lab 03 --lab 04 --lab 05 --lab 06" [b]="--lab 07 --lab 08 --lab 09") pid
    for part in a b; do
        # shellcheck disable=SC2086 # the --lab options split on purpose
        "$grader" --kit . --mode cpu --expect 100 ${labs[$part]} --counts "$dir/$part.tsv" >"$dir/$part.log" 2>&1 &
        pid[$part]=$!
    done
    for part in a b; do
        wait "${pid[$part]}"
        code=$?
        if [ $code != 0 ] || ! grep -q 'TOTAL' "$dir/$part.log"; then
            echo "lab-counts: the grader exited $code (the solutions scored under 100%, or it failed); see $dir/$part.log;" \
                "rerun: $grader --kit . --mode cpu --expect 100 ${labs[$part]}"
            echo "lab-counts: 0 passed, 1 failed, 0 skipped"
            exit 1
        fi
    done
    (head -1 "$dir/a.tsv"; tail -q -n +2 "$dir/a.tsv" "$dir/b.tsv") >"$dir/cpu.tsv"
    exec bash "$0" check "$golden" "$dir/cpu.tsv"
    ;;
*)
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
