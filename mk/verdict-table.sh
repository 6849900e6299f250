#!/usr/bin/env bash
# The broken-submission corpus graded in both modes, side by side (issue 17): the self-test's
# KIT_SELFTEST_VERDICTS files of a CPU-mode run and a GPU-mode run on the same machine.
#   mk/verdict-table.sh CPU.tsv GPU.tsv   a Markdown table, one row per fixture and task, then a
#                                         summary line; exit 1 when a task's points differ between
#                                         the modes, or a task was graded in one mode only
# Lines of either file: fixture, lab, task, points, verdict, detail (tab-separated).
set -uo pipefail
cpu=${1:?usage: mk/verdict-table.sh CPU.tsv GPU.tsv} gpu=${2:?usage: mk/verdict-table.sh CPU.tsv GPU.tsv}
awk -F'\t' '
    FILENAME == ARGV[1] { key = $1 "\t" $2 "\t" $3; c[key] = $4 "\t" $5; order[++n] = key; next }
    { key = $1 "\t" $2 "\t" $3; g[key] = $4 "\t" $5; if (!(key in c)) order[++n] = key }
    END {
        print "| fixture | lab | task | CPU (simulator) | GPU (ncu) | same points |"
        print "| --- | --- | --- | --- | --- | --- |"
        same = 0
        for (i = 1; i <= n; i++) {
            k = order[i]
            split(k, f, "\t")
            cp = (k in c) ? c[k] : "-\tnot graded"; gp = (k in g) ? g[k] : "-\tnot graded"
            split(cp, x, "\t"); split(gp, y, "\t")
            ok = (k in c) && (k in g) && x[1] == y[1]
            same += ok
            printf "| %s | %s | %s | %s (%s) | %s (%s) | %s |\n", f[1], f[2], f[3], x[2], x[1], y[2], y[1], ok ? "yes" : "**no**"
        }
        printf "\n%d of %d tasks get the same points in both modes\n", same, n
        exit same == n ? 0 : 1
    }' "$cpu" "$gpu"
