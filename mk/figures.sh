#!/usr/bin/env bash
# Draws every bank-conflict figure of the handouts with bankviz, so that no figure is drawn by hand.
# Usage: figures.sh BANKVIZ OUTDIR [GOLDENDIR]
#   OUTDIR    gets <figure>.svg for every built-in figure (and <figure>-all.svg, every round
#             side by side, for the CF gather figures, as the paper draws them)
#   GOLDENDIR (optional) also gets the text renderings that common/tests/test_viz.c compares
#             against: <figure>.txt, and <figure>-all.txt for the CF gather figures. Pass
#             common/tests/golden after a deliberate change to the drawing, then review the diff.
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
exit 0
