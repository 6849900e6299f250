#!/usr/bin/env bash
# Draws every bank-conflict figure of the handouts with bankviz, so that no figure is drawn by hand.
# Usage: figures.sh BANKVIZ OUTDIR [GOLDENDIR]
#   OUTDIR    gets <figure>.svg for every built-in figure (and <figure>-all.svg, every round
#             side by side, for the CF gather figures, as the paper draws them), and lab 6's
#             006-*.svg, drawn from traces of the reference search (see below)
#   GOLDENDIR (optional) also gets the text renderings that common/tests/test_viz.c compares
#             against: <figure>.txt, and <figure>-all.txt for the CF gather figures. Pass
#             common/tests/golden after a deliberate change to the drawing, then review the diff.
#             Lab 6's figures have no golden text: test_viz checks the built-in figures only.
# Lab 6's figures need the solution's CPU driver: KIT_PBS_DRIVER names it, by default
# build/labs/sol-cpu/06-predecessor-search/driver next to BANKVIZ's build folder
# (make figures builds it).
set -euo pipefail
bankviz=$1 out=$2 golden=${3:-}
# The figures whose rounds are also drawn all together.
all_rounds="001-fig2 001-fig3"

mkdir -p "$out"
[ -n "$golden" ] && mkdir -p "$golden"
figures=$("$bankviz" --list | awk '{print $1}')
[ -n "$figures" ] || { echo "figures.sh: $bankviz --list named no figure" >&2; exit 1; }
for fig in $figures; do
    "$bankviz" --figure "$fig" --format svg >"$out/$fig.svg"
    echo "  FIGURE   $out/$fig.svg"
    [ -n "$golden" ] && "$bankviz" --figure "$fig" >"$golden/$fig.txt"
    case " $all_rounds " in
    *" $fig "*)
        "$bankviz" --figure "$fig" --all --format svg >"$out/$fig-all.svg"
        echo "  FIGURE   $out/$fig-all.svg"
        [ -n "$golden" ] && "$bankviz" --figure "$fig" --all >"$golden/$fig-all.txt"
        ;;
    esac
done

# ---- lab 6: Figs. 4-6 of Karsin et al. (HiPC 2015), from traces of one warp -----------------
# The driver answers 32 worst-case queries (one warp: one block of 32 threads) against K = 1024
# keys and writes the kernel's shared-memory trace. Each thread first stores its share of the
# padded list, then reads a fixed number of times per query, in stages (the driver prints both).
# A figure keeps the reads of one stage (or its first passes), so the grid shows every word the
# stage reads, and highlights the stage's last step.
pbs_driver=${KIT_PBS_DRIVER:-$(dirname "$bankviz")/../labs/sol-cpu/06-predecessor-search/driver}
if [ ! -x "$pbs_driver" ]; then
    echo "figures.sh: lab 6's figures need $pbs_driver (make build/labs/sol-cpu/06-predecessor-search/driver)" >&2
    exit 1
fi
pbs_K=1024 pbs_w=32
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# pbs_figure NAME ALG STAGE FIRST COUNT TITLE NOTE: draws reads FIRST .. FIRST + COUNT - 1 of the
# stage the driver calls STAGE (COUNT 0: the whole stage) of the run of ALG to OUTDIR/NAME.svg.
pbs_figure() {
    local name=$1 alg=$2 stage=$3 first=$4 count=$5 title=$6 note=$7
    local trace=$tmp/$alg.trace report=$tmp/$alg.txt
    "$pbs_driver" --m $pbs_K --n $pbs_w --alg "$alg" --queries worst --gen random --seed 1 \
        --threads $pbs_w --blocks 1 --trace "$trace" >"$report"
    grep -q '^PASS' "$report" || { cat "$report" >&2; echo "figures.sh: the $alg run failed" >&2; exit 1; }
    # "each thread stores S keys", then one line per stage: "  NAME  R reads per query: ..."
    local stores start reads
    stores=$(sed -n 's/.*each thread stores \([0-9]*\) keys.*/\1/p' "$report")
    read -r start reads < <(awk -v want="$stage" '
        /^  .* reads per query:/ {
            line = $0; sub(/^  /, "", line); sub(/ +[0-9]+ reads per query:.*/, "", line)
            r = $0; sub(/ reads per query:.*/, "", r); sub(/.* /, "", r)
            if (line == want) { print at + 0, r; found = 1; exit }
            at += r
        }
        END { if (!found) exit 1 }' "$report") || { echo "figures.sh: no stage '$stage' in the $alg run" >&2; exit 1; }
    [ "$count" -gt 0 ] && reads=$count
    local lo=$((stores + start + first)) hi=$((stores + start + first + reads - 1))
    {
        awk -v lo=$lo -v hi=$hi '/^#/ || ($6 == "r" && $3 >= lo && $3 <= hi)' "$trace"
        echo "# bankviz title $title"
        echo "# bankviz note $note"
        echo "# bankviz step $hi"
    } >"$tmp/$name.trace"
    "$bankviz" --trace "$tmp/$name.trace" --format svg >"$out/$name.svg"
    echo "  FIGURE   $out/$name.svg"
}

# log2(K / w) passes of PBS stay in bank 0 on these queries (Fig. 4 of the paper).
bank0=0
while [ $((pbs_w << bank0)) -lt $pbs_K ]; do bank0=$((bank0 + 1)); done
pbs_figure 006-fig4-pbs-worst pbs passes 0 $bank0 \
    "006-fig4: PBS, K = $pbs_K, worst-case queries: passes 1 to $bank0, all in bank 0" \
    "After Karsin et al., Fig. 4: pass k reads 2^(k-1) words of bank 0. Steps count each thread's stores first; highlighted, pass $bank0."
pbs_figure 006-fig5-cf-stage1 cf "stage 1" 0 0 \
    "006-fig5: PBS-CF stage 1, K = $pbs_K, the same queries: each thread stays in its own bank" \
    "After Karsin et al., Fig. 5: thread t reads only positions t + 32j of the padded list; highlighted, the last step of stage 1."
pbs_figure 006-fig6-cl-stage2 cl "stage 2 (search)" 0 0 \
    "006-fig6: PBS-CL stage 2, K = $pbs_K, worst-case queries: 1 + 2 + 4 + 8 + 16 = 31 accesses" \
    "After Karsin et al., Fig. 6: the s-th step of stage 2 (s = 0 .. 4) reads up to 2^s words of one bank; highlighted, the last (s = 4)."
exit 0
