#!/usr/bin/env bash
# Draws every bank-conflict figure of the handouts with bankviz, so that no figure is drawn by hand.
# Usage: figures.sh BANKVIZ OUTDIR [GOLDENDIR]
#   OUTDIR    gets <figure>.svg for every built-in figure (and <figure>-all.svg, every round
#             side by side, for the CF gather figures, as the paper draws them), lab 6's
#             006-*.svg, drawn from traces of the reference search, and lab 7's 007-*.svg, drawn
#             from a trace of the reference gather (see below)
#   GOLDENDIR (optional) also gets the text renderings that common/tests/test_viz.c compares
#             against: <figure>.txt, and <figure>-all.txt for the CF gather figures. Pass
#             common/tests/golden after a deliberate change to the drawing, then review the diff.
#             Labs 6 and 7's figures have no golden text: test_viz checks the built-in figures only.
# Labs 6 and 7's figures need the solutions' CPU drivers: KIT_PBS_DRIVER and KIT_CF_DRIVER name
# them, by default build/labs/sol-cpu/06-predecessor-search/driver and
# build/labs/sol-cpu/07-cf-gather/driver next to BANKVIZ's build folder (make figures builds them).
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
cf_driver=${KIT_CF_DRIVER:-$(dirname "$bankviz")/../labs/sol-cpu/07-cf-gather/driver}
if [ ! -x "$pbs_driver" ]; then
    echo "figures.sh: lab 6's figures need $pbs_driver (make build/labs/sol-cpu/06-predecessor-search/driver)" >&2
    exit 1
fi
if [ ! -x "$cf_driver" ]; then
    echo "figures.sh: lab 7's figures need $cf_driver (make build/labs/sol-cpu/07-cf-gather/driver)" >&2
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

# ---- lab 7: Fig. 8 of Berney and Sitchinava (SPAA 2025), a whole thread block's gather ------
# The paper draws one block of u = 18 threads, w = 6, E = 4 (d = 2). The kit's kernel has w = 32,
# so the figure is its analogue with d = 2: one block of u = 64 threads (two warps), E = 6, one
# full tile of u*E = 384 keys (m + n), random keys. Each thread of cf_merge_kernel first stores E
# keys of the tile (its store s holds key x = thread + s*u of A then B), then makes 4 reads per
# pass of its two co-rank searches, then gathers in E reads, one per round: the figure keeps the
# gather and numbers its rounds 0 .. E-1. bankviz draws one warp at a time (only threads of one
# warp can conflict), so the block is drawn as its two warps, every round side by side.
cf_E=6 cf_u=64 cf_m=150 cf_n=234
cf_trace=$tmp/cf.trace cf_report=$tmp/cf.txt
"$cf_driver" --m $cf_m --n $cf_n --gen random --seed 1 --blocks 1 --threads $cf_u --tile $cf_E \
    --trace "$cf_trace" >"$cf_report"
grep -q '^PASS' "$cf_report" || { cat "$cf_report" >&2; echo "figures.sh: the lab 7 run failed" >&2; exit 1; }
cf_tile=$((cf_u * cf_E))
[ $((cf_m + cf_n)) = $cf_tile ] || { echo "figures.sh: lab 7's figure wants one full tile (m + n = u*E)" >&2; exit 1; }
# The search's passes, as cf_search_passes computes them: ceil(log2(tile + 1)).
cf_passes=0
while [ $((1 << cf_passes)) -lt $((cf_tile + 1)) ]; do cf_passes=$((cf_passes + 1)); done
cf_first=$((cf_E + 4 * cf_passes)) cf_last=$((cf_E + 4 * cf_passes + cf_E - 1))
# Every thread's last access must be the last gather round, or the kernel's order has changed.
cf_top=$(awk '!/^#/ && $3 > top { top = $3 } END { print top + 0 }' "$cf_trace")
[ "$cf_top" = $cf_last ] || { echo "figures.sh: lab 7's trace ends at ordinal $cf_top, expected $cf_last" >&2; exit 1; }
# d = gcd(32, E) and the partitions of P = 32*E/d positions, rotated by l mod d (the dashed lines).
cf_d=32 cf_r=$cf_E
while [ $cf_r -ne 0 ]; do cf_t=$((cf_d % cf_r)); cf_d=$cf_r; cf_r=$cf_t; done
cf_P=$((32 * cf_E / cf_d))
{
    awk -v lo=$cf_first -v hi=$cf_last '/^#/ { print; next }
        $6 == "r" && $3 >= lo && $3 <= hi { $3 -= lo; print }' "$cf_trace"
    echo "# bankviz steps-called round"
    echo "# bankviz divider-meaning partition boundary: partitions of wE/d = $cf_P words, rotated by l mod $cf_d"
    for ((p = cf_P; p < cf_tile; p += cf_P)); do echo "# bankviz divider $p"; done
    # A word is yellow if the kernel stored a key of A there, blue for B (64 words a line).
    awk -v m=$cf_m -v u=$cf_u '!/^#/ && $6 == "w" { wd = $4 / 4; cat[wd] = $2 + $3 * u < m ? "A" : "B"; if (wd > top) top = wd }
        END { for (s = 0; s <= top; s += 64) { line = ""
                for (k = s; k < s + 64 && k <= top; k++) line = line cat[k]
                print "# bankviz categories " s " " line } }' "$cf_trace"
} >"$tmp/cf-gather.trace"
cf_kept=$(grep -vc '^#' "$tmp/cf-gather.trace" || true)
[ "$cf_kept" = $cf_tile ] || { echo "figures.sh: lab 7's gather has $cf_kept reads, expected u*E = $cf_tile" >&2; exit 1; }
for cf_warp in 0 1; do
    {
        cat "$tmp/cf-gather.trace"
        echo "# bankviz title 007-fig8, warp $cf_warp: CF-Merge gather of one block, u = $cf_u, w = 32, E = $cf_E, d = $cf_d: every round conflict free"
        echo "# bankviz note After Fig. 8 of the SPAA 2025 paper (u = 18, w = 6, E = 4 there), from a trace of the reference kernel: |A| = $cf_m, |B| = $cf_n, random keys."
        echo "# bankviz warp $cf_warp"
    } >"$tmp/cf-warp$cf_warp.trace"
    # The title says every round is conflict free: check it with bankviz's own counts first.
    cf_free=$("$bankviz" --trace "$tmp/cf-warp$cf_warp.trace" --all | grep -c '^loads in round .*profiler conflicts 0$' || true)
    [ "$cf_free" = $cf_E ] || { echo "figures.sh: warp $cf_warp of lab 7's gather has a round with conflicts" >&2; exit 1; }
    "$bankviz" --trace "$tmp/cf-warp$cf_warp.trace" --all --format svg >"$out/007-fig8-warp$cf_warp.svg"
    echo "  FIGURE   $out/007-fig8-warp$cf_warp.svg"
done
# ---- lab 8: IPDPS 2020 Fig. 3 (w = 16, E = 7 and 9) and SPAA 2025 Fig. 4 (w = 12, E = 5 and 9) --
# worst_case --viz draws one L warp of the kit's construction (SPAA 2025's, which aligns the last E
# banks) as the papers do: thread i reads its k-th output at step k; a key in bank s + k (s = w - E)
# read at step k is aligned (green), another key in the last E banks misaligned (red), the rest free.
worst_case=${KIT_WORST_CASE:-$(dirname "$bankviz")/worst_case}
if [ ! -x "$worst_case" ]; then
    echo "figures.sh: lab 8's figures need $worst_case (make build/tools/worst_case)" >&2
    exit 1
fi
worst_figure() { # NAME W E TITLE NOTE [MORE worst_case OPTIONS]
    local name=$1 w=$2 E=$3 title=$4 note=$5 more=${6:-}
    {
        "$worst_case" --viz --w "$w" --E "$E" $more
        echo "# bankviz title $title"
        echo "# bankviz note $note"
    } >"$tmp/$name.trace"
    "$bankviz" --trace "$tmp/$name.trace" --format svg >"$out/$name.svg"
    echo "  FIGURE   $out/$name.svg"
}
worst_figure 008-fig3-e7 16 7 "008-fig3 (left): worst case of one warp, w = 16, E = 7 (E <= w/2): every column ends in a full scan" \
    "After IPDPS 2020 Fig. 3 (left), with the SPAA 2025 construction: the last 7 banks aligned, E^2 = 49 keys."
worst_figure 008-fig3-e9 16 9 "008-fig3 (right): worst case of one warp, w = 16, E = 9 (E > w/2), d = 1" \
    "After IPDPS 2020 Fig. 3 (right): the last 9 banks aligned, (E^2 + E + 2Er - r^2 - r)/2 = 80 keys with r = 7."
# The right panel as the paper printed it: bank 7 of A column 2 (word 39) reads 8 where the
# construction has thread 6. worst_case counts what that input would align.
worst_figure 008-fig3-e9-printed 16 9 "008-fig3 (right) as printed in IPDPS 2020: bank 7 of A column 2 reads 8" \
    "The paper's cell (bank 7, A column 2) says thread 8: thread 6 would take 8 keys, thread 8 ten, and the warp align $("$worst_case" --viz --w 16 --E 9 --move 39:8 | sed -n 's/^# worst_case aligned \([0-9]*\).*/\1/p'), not 80. With 6 there it is the figure above." "--move 39:8"
worst_figure 008-fig4-e5 12 5 "008-fig4 (left): worst case of one warp, w = 12, E = 5 (coprime)" \
    "After SPAA 2025 Fig. 4 (left): T = (2,3) (5,0) (5,0) (1,4) (0,5) (1,4) (5,0) (5,0) (2,3) (0,5) (5,0) (5,0); E^2 = 25 aligned."
worst_figure 008-fig4-e9 12 9 "008-fig4 (right): worst case of one warp, w = 12, E = 9, d = 3: three subproblems of 4 threads" \
    "After SPAA 2025 Fig. 4 (right): (E^2 + 2Er + Ed - r^2 - rd)/2 = 72 keys aligned, r = 3."
# ---- lab 9: the CF gather in the merge sort's block-sort rounds, and the serial merge for contrast --
# The lab 9 driver's --trace writes ms_gather_probe: block r plays block-sort round r (groups of
# g = 2^(r+1) threads); each thread stores E keys (ordinals 0 .. E-1), then gathers (E .. 2E-1).
# A figure keeps one block's gather, numbers its rounds 0 .. E-1, colours each word by the list
# stored there, checks that no round of the drawn warp conflicts, and highlights one round.
sort_driver=${KIT_SORT_DRIVER:-$(dirname "$bankviz")/../labs/sol-cpu/09-merge-sort/driver}
[ -x "$sort_driver" ] || { echo "figures.sh: lab 9's figures need $sort_driver (make build/labs/sol-cpu/09-merge-sort/driver)" >&2; exit 1; }
sort_figure() { # NAME E U BLOCK-SORT-ROUND WARP GATHER-ROUND TITLE NOTE
    local name=$1 E=$2 u=$3 blk=$4 warp=$5 round=$6 title=$7 note=$8 n
    "$sort_driver" --alg cf --tile "$E" --threads "$u" --m $((u * E)) --gen random --seed 1 --trace "$tmp/$name.raw" >"$tmp/$name.txt"
    grep -q ', 0 load conflicts$' "$tmp/$name.txt" && grep -q '^PASS' "$tmp/$name.txt" || { cat "$tmp/$name.txt" >&2; echo "figures.sh: the lab 9 run for $name failed" >&2; exit 1; }
    {
        # ms_gather_probe plays round b in block b: E stores, then E reads by each thread
        awk -v b="$blk" -v E="$E" '/^#/ { print; next } $1 == b && $6 == "r" { $1 = 0; $3 -= E; print }' "$tmp/$name.raw"
        awk -v b="$blk" -v E="$E" -v u="$u" '!/^#/ && $1 == b && $6 == "w" { x = $2 + $3 * u; r = (2 * 2 ^ b) * E
                wd = $4 / 4; cat[wd] = x % r < r / 2 ? "A" : "B"; if (wd > top) top = wd }
            END { if (top > 4095) top = 4095
                for (s = 0; s <= top; s += 64) { line = ""; for (k = s; k < s + 64 && k <= top; k++) line = line cat[k]
                    print "# bankviz categories " s " " line } }' "$tmp/$name.raw"
        printf '# bankviz steps-called round\n# bankviz title %s\n# bankviz note %s\n# bankviz warp %s\n' "$title" "$note" "$warp"
    } >"$tmp/$name.trace"
    n=$("$bankviz" --trace "$tmp/$name.trace" --all | grep -c '^loads in round .*profiler conflicts 0$' || true)
    [ "$n" = "$E" ] || { echo "figures.sh: $name: a round of the drawn warp has conflicts" >&2; exit 1; }
    "$bankviz" --trace "$tmp/$name.trace" --step "$round" --format svg >"$out/$name.svg"
    echo "  FIGURE   $out/$name.svg"
}
sort_figure 009-cf-e15-g4 15 512 1 0 7 "009: CF gather, E = 15, u = 512, block-sort round of groups of g = 4 threads: warp 0, round 7 hits 32 banks" \
    "From a trace of ms_gather_probe (random keys): each group of 4 threads merges a pair of 30-key runs in a region of 60 words, A forwards, B reversed."
sort_figure 009-cf-e16-g64 16 256 5 1 5 "009: CF gather, E = 16 (d = 16), u = 256, round of groups of g = 64 threads: warp 1, round 5 hits 32 banks" \
    "From a trace of ms_gather_probe (random keys): partitions of 32 words, partition l rotated by l mod 16; warp 1 holds outputs 512 .. 1023 of its pair."
{
    "$worst_case" --viz --E 16
    printf '# bankviz title %s\n# bankviz note %s\n# bankviz step 5\n' \
        "009: the serial merge, E = 16, w = 32, sorted order (lab 8's worst case for E | w): step 5 reads 2 banks, 16 words each" \
        "Drawn by worst_case --viz (the papers' model: thread i reads its output k at step k); every step costs 16, 15 conflicts."
} >"$tmp/009-serial-e16.trace"
"$bankviz" --trace "$tmp/009-serial-e16.trace" --format svg >"$out/009-serial-e16.svg"
echo "  FIGURE   $out/009-serial-e16.svg"
exit 0
