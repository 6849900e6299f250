#!/usr/bin/env bash
# make screenshots: renders the student handbook in headless Chromium at 1280 px, measures every
# page's layout, and refreshes handouts/screenshots/ with a picture of each handout (the landing
# page and the lab contract too). It fails, naming the page and the figure, when a figure runs
# past the text column or a navigation title past the navigation tree. Each picture shows the
# page's widest figure where it has one (the place a figure would be cut), else its top.
# It needs Chromium (as root it installs Debian's chromium with apt-get, else it prints the
# command) and so is not part of make test; make test's mk/check-docs.sh makes the checks that
# need no browser (the figures' text inside their pictures, the stylesheet that caps their width).
# Usage: screenshots.sh BUILD OUTDIR
set -euo pipefail
build=${1:?usage: screenshots.sh BUILD OUTDIR} out=${2:?usage: screenshots.sh BUILD OUTDIR}
cd "$(dirname "$0")/.."
width=1280 height=1200

browser=
for b in chromium chromium-browser google-chrome; do
    command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
done
if [ -z "$browser" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "screenshots: installing chromium with apt-get" >&2
        export DEBIAN_FRONTEND=noninteractive
        { apt-get install -y -q chromium >/dev/null 2>&1 ||
            { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium >/dev/null 2>&1; }; } ||
            { echo "screenshots: apt-get could not install chromium" >&2; exit 1; }
        browser=chromium
    else
        echo "screenshots: no Chromium here; install it with:  sudo apt-get install -y chromium" >&2
        exit 1
    fi
fi

site="$build/screenshots-site"
bash mk/docs.sh student "$site" >/dev/null
html="$site/html"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

# A fresh profile for each run, no sandbox (root in a container), no GPU, nothing from the network.
run_browser() {
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --user-data-dir="$profile" --hide-scrollbars --window-size="$width,$height" \
        --virtual-time-budget=5000 "$@" 2>/dev/null
}

# Measures the page once it has loaded, writes what it found into <pre id="kit-layout"> (read back
# with --dump-dom), and scrolls its widest figure into view for the picture. A line per finding:
#   figure NAME WIDTH NATURAL_WIDTH RIGHT COLUMN_RIGHT   (every figure: drawn and natural width)
#   cut-figure NAME RIGHT COLUMN_RIGHT                   (a figure past the column's right edge)
#   cut-title TITLE                                      (a navigation title past the tree's edge)
#   column WIDTH                                         (the text column's width)
probe='<script>
window.addEventListener("load", function () { setTimeout(function () {
  var lines = [], col = document.querySelector("div.contents"), widest = null;
  var colRight = col ? col.getBoundingClientRect().right : 0;
  if (col) lines.push("column " + Math.round(col.getBoundingClientRect().width));
  document.querySelectorAll("div.contents object, div.contents img").forEach(function (el) {
    var r = el.getBoundingClientRect(), name = (el.getAttribute("data") || el.getAttribute("src") || "?");
    var natural = el.naturalWidth || (el.contentDocument && el.contentDocument.documentElement &&
                  el.contentDocument.documentElement.getAttribute("width")) || r.width;
    lines.push("figure " + name + " " + Math.round(r.width) + " " + Math.round(natural) + " " +
               Math.round(r.right) + " " + Math.round(colRight));
    if (r.right > colRight + 1) lines.push("cut-figure " + name + " " + Math.round(r.right) + " " + Math.round(colRight));
    if (!widest || natural > widest.natural) widest = {el: el, natural: natural};
  });
  var tree = document.getElementById("nav-tree");
  if (tree) {
    var edge = tree.getBoundingClientRect().right;
    document.querySelectorAll("#nav-tree .label a").forEach(function (a) {
      if (a.getBoundingClientRect().right > edge + 1 || a.scrollWidth > a.clientWidth + 1)
        lines.push("cut-title " + a.textContent);
    });
  }
  if (widest) widest.el.scrollIntoView({block: "center"});
  var pre = document.createElement("pre");
  pre.id = "kit-layout";
  pre.textContent = lines.join("\n");
  pre.style.display = "none";
  document.body.appendChild(pre);
}, 500); });
</script>'

# The pages: the landing page, the handouts in lab order, the other handouts, the lab contract.
page_of() { local p=${1%.md}; printf 'md_%s.html' "${p//[^A-Za-z0-9_]/_}"; }
pages=("index.html:landing-page")
for f in handouts/[0-9][0-9]-*.md; do
    n=$(basename "$f" .md)
    pages+=("$(page_of "$f"):handout-$n")
done
for f in handouts/*.md; do
    case "$f" in handouts/[0-9][0-9]-*) continue ;; esac
    pages+=("$(page_of "$f"):$(basename "$f" .md)")
done
pages+=("$(page_of labs/README.md):lab-contract")

# probe_copy PAGE [nocss]: writes the site's PAGE with the probe into kitshot_PAGE (without the
# handbook's stylesheet, docs/kit.css, when asked) and prints that copy's path.
probe_copy() {
    local copy="$html/kitshot_$1"
    PROBE=$probe NOCSS=${2:-} awk '/<\/body>/ { print ENVIRON["PROBE"] }
        ENVIRON["NOCSS"] != "" && /<link href="kit.css"/ { next }
        { print }' "$html/$1" >"$copy"
    printf '%s\n' "$copy"
}
# layout_of COPY: the probe's lines for that page.
layout_of() {
    run_browser --allow-file-access-from-files --dump-dom "file://$PWD/$1" |
        awk '/<pre id="kit-layout"/ { on = 1; sub(/.*<pre id="kit-layout"[^>]*>/, "") }
             on { end = sub(/<\/pre>.*/, ""); print; if (end) exit }'
}

mkdir -p "$out"
failed=0 shots=() control=
for entry in "${pages[@]}"; do
    page=${entry%%:*} name=${entry#*:}
    [ -f "$html/$page" ] || { echo "screenshots: $html/$page is missing from the site" >&2; failed=1; continue; }
    probe_page=$(probe_copy "$page")
    layout=$(layout_of "$probe_page")
    if ! grep -q '^column ' <<<"$layout"; then
        echo "screenshots: $page: the page did not report its layout (did the browser load it?)" >&2
        failed=1
        continue
    fi
    while read -r kind rest; do
        case $kind in
        cut-figure) echo "FAIL $page: the figure ${rest%% *} runs past the text column (right edge, column's edge in px: ${rest#* })"; failed=1 ;;
        cut-title) echo "FAIL $page: the navigation title '$rest' is cut at the tree's edge"; failed=1 ;;
        esac
    done <<<"$layout"
    run_browser --allow-file-access-from-files --screenshot="$out/$name.png" "file://$PWD/$probe_page" >/dev/null
    rm -f "$probe_page"
    if [ -s "$out/$name.png" ]; then
        shots+=("$name.png")
        nfig=$(grep -c '^figure ' <<<"$layout" || true)
        scaled=$(awk '$1 == "figure" && $3 < $4 - 1 {n++} END {print n + 0}' <<<"$layout")
        [ -z "$control" ] && [ "$scaled" -gt 0 ] && control=$page
        echo "  SHOT     $out/$name.png ($nfig figures, $scaled scaled to the column of $(awk '$1 == "column" {print $2}' <<<"$layout") px)"
    else
        echo "FAIL $page: no screenshot written to $out/$name.png"
        failed=1
    fi
done
# Control: without docs/kit.css, a page with a figure wider than the column must report it cut (and
# the navigation's long titles too), or the checks above prove nothing.
if [ -n "$control" ]; then
    probe_page=$(probe_copy "$control" nocss)
    layout=$(layout_of "$probe_page")
    rm -f "$probe_page"
    cut=$(grep -c '^cut-figure ' <<<"$layout" || true)
    titles=$(grep -c '^cut-title ' <<<"$layout" || true)
    if [ "$cut" -gt 0 ] && [ "$titles" -gt 0 ]; then
        echo "  control: without docs/kit.css, $control reports $cut figure(s) and $titles navigation title(s) cut"
    else
        echo "FAIL control: without docs/kit.css, $control reports $cut cut figures and $titles cut titles; the probe misses them"
        failed=1
    fi
else
    echo "FAIL control: no page has a figure wider than its column, so the probe's check of one was not tried"
    failed=1
fi
# Pictures of pages that are gone would mislead: only this run's stay.
for f in "$out"/*.png; do
    [ -e "$f" ] || continue
    case " ${shots[*]} " in *" $(basename "$f") "*) ;; *) rm -f "$f" && echo "  REMOVED  $f (no such page now)" ;; esac
done
[ "$failed" = 0 ] || { echo "screenshots: some pages are cut (above); the pictures are in $out" >&2; exit 1; }
echo "screenshots: ${#shots[@]} pages at ${width} px, no figure past its column, no navigation title cut"
