#!/usr/bin/env bash
# make test's check of the handbook: both Doxygen builds succeed with zero warnings, every lab
# handout has the seven sections (the last, what to submit), every figure reaches the site, every
# lab's file is in the API reference, every question has a model answer, and neither a model answer
# nor an instructor-only part of a page reaches the student build. Skipped, with the reason, only
# when Doxygen is missing (mk/deps.sh installs it where it can). First, without Doxygen:
# common/kit.h, the map of common/, lists every header there, and every figure's text lies inside
# its picture. (make screenshots measures the rendered pages in a browser: mk/screenshots.sh.)
# Usage: check-docs.sh BUILD
set -u
build=${1:?usage: check-docs.sh BUILD}
cd "$(dirname "$0")/.."
student=$build/docs instructor=$build/docs-instructor
passed=0 failed=0 skipped=0
pass() { echo "  PASS  $1"; passed=$((passed + 1)); }
fail() { echo "  FAIL  $1"; failed=$((failed + 1)); }
skip() { echo "  SKIP  $1"; skipped=$((skipped + 1)); }
summary() { echo "check-docs: $passed passed, $failed failed, $skipped skipped"; [ "$failed" = 0 ]; exit $?; }

# 0. common/kit.h's map has a line " * - NAME  purpose" for each header of common/ (kit.h aside),
# and none for a header that is not there.
listed=$(grep -E '^ \* - [A-Za-z0-9_]+\.(h|cuh) +[^ ]' common/kit.h | awk '{print $3}' | LC_ALL=C sort)
headers=$(for h in common/*.h common/*.cuh; do [ -f "$h" ] && [ "$h" != common/kit.h ] && basename "$h"; done | LC_ALL=C sort)
unmapped=0
for h in $(LC_ALL=C comm -23 <(echo "$headers") <(echo "$listed")); do
    fail "common/$h is not in common/kit.h's map of common/: add a line ' * - $h  <its purpose>' to the group it belongs to"
    unmapped=1
done
for h in $(LC_ALL=C comm -13 <(echo "$headers") <(echo "$listed")); do
    fail "common/kit.h's map lists $h, which is not in common/: take its line out (or name where it went)"
    unmapped=1
done
[ $unmapped = 0 ] && pass "common/kit.h maps all $(echo "$headers" | grep -c .) headers of common/, each with its purpose"

# 0b. Every figure's text lies inside its picture, which cuts what runs past its edge (the browser
# draws an SVG no wider than its width). The kit's figures are set in DejaVu Sans Mono, whose
# characters are 0.602 em wide, so a line's extent follows from its x, anchor, size and length.
# A control line made to run past its picture's edge must be found.
svg_fit='FNR == 1 { width = 0; size = 12 }
/<svg / {
    if (match($0, / width="[0-9.]+"/)) width = substr($0, RSTART + 8, RLENGTH - 9) + 0
    if (match($0, / font-size="[0-9.]+"/)) size = substr($0, RSTART + 12, RLENGTH - 13) + 0
}
/<text[ >]/ {
    line = $0
    while (match(line, /<text[^>]*>.*<\/text>/)) {
        el = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
        if (el ~ /rotate\(/) continue
        x = 0; fs = size; anchor = "start"
        if (match(el, /^<text[^>]* x="[-0-9.]+"/)) { a = substr(el, 1, RLENGTH); sub(/.* x="/, "", a); x = a + 0 }
        if (match(el, /^<text[^>]* font-size="[0-9.]+"/)) { a = substr(el, 1, RLENGTH); sub(/.* font-size="/, "", a); fs = a + 0 }
        if (el ~ /^<text[^>]* text-anchor="middle"/) anchor = "middle"
        if (el ~ /^<text[^>]* text-anchor="end"/) anchor = "end"
        t = el; sub(/^<text[^>]*>/, "", t); sub(/<\/text>$/, "", t); gsub(/<[^>]*>/, "", t)
        gsub(/&[a-z]+;|&#[0-9]+;/, "e", t); gsub(/[\200-\277]/, "", t)
        w = length(t) * 0.602 * fs
        left = anchor == "start" ? x : anchor == "middle" ? x - w / 2 : x - w
        if (left < -0.5 || left + w > width + 0.5)
            printf "%s: its text \"%s\" spans %.0f to %.0f px, outside the picture (0 to %d px)\n", FILENAME, substr(t, 1, 40), left, left + w, width
    }
}'
nsvg=$(ls handouts/figures/*.svg 2>/dev/null | grep -c .)
outside=$(awk "$svg_fit" handouts/figures/*.svg 2>/dev/null)
if [ "$nsvg" -gt 0 ] && [ -z "$outside" ]; then
    pass "the text of all $nsvg figures lies inside their pictures"
else
    fail "figures whose text the picture cuts (the drawer, common/tools/kit_viz.c, must wrap or widen; then make figures): $outside"
fi
control_svg=$(mktemp)
printf '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="20" font-size="12">\n<text x="12" y="14">a line of text too long for its picture</text>\n</svg>\n' >"$control_svg"
[ -n "$(awk "$svg_fit" "$control_svg")" ] && pass "control: a line run past its picture's edge is found" ||
    fail "control: a line run past its picture's edge is not found"
rm -f "$control_svg"

if ! command -v doxygen >/dev/null 2>&1; then
    skip "the handbook: doxygen is not installed and mk/deps.sh could not install it (sudo apt-get install -y doxygen)"
    summary
fi

# The student's kit has no model answers (handouts/answers/): there, only the student site is
# built, and it stands for both below.
builds="student instructor"
[ -d handouts/answers ] || { builds=student instructor=$student; }

# 1. The builds, with zero warnings (mk/docs.sh prints the warnings and fails on any).
for b in $builds; do
    out=$student
    [ $b = instructor ] && out=$instructor
    if bash mk/docs.sh $b "$out" >"$build/docs-$b.log" 2>&1; then
        pass "the $b site builds with 0 Doxygen warnings (doxygen $(doxygen --version))"
    else
        cat "$build/docs-$b.log"
        fail "the $b site: Doxygen warnings or errors, listed above"
    fi
done
[ -f "$student/html/index.html" ] && [ -f "$instructor/html/index.html" ] || summary

# Doxygen's page file for a Markdown file: md_<path>.html, non-alphanumerics as _.
page() { local p=${1%.md}; printf '%s/html/md_%s.html' "$2" "${p//[^A-Za-z0-9_]/_}"; }

# The sites show no source code: it would publish the files as they are, and Doxygen
# never reads solutions/, whose answers the student site must not hold.
listings=$(ls "$student/html" "$instructor/html" | grep -c '_source\.html$')
if [ "$listings" = 0 ]; then
    pass "the sites hold no source listing"
else
    fail "the sites hold $listings source listings (*_source.html): keep SOURCE_BROWSER and VERBATIM_HEADERS off"
fi

# 2. Every lab handout has the seven sections, in order, and its page in the site.
sections='Goal|Background|What to implement|How to run, test and grade locally|What the profiler or simulator should show, and why|Questions to think about|What to submit'
for h in handouts/[0-9][0-9]-*.md; do
    got=$(grep -E '^## ' "$h" | sed 's/^## //' | paste -sd'|' -)
    if [ "$got" = "$sections" ]; then
        pass "$h has the seven sections in order"
    else
        fail "$h: its sections are '$got'; a lab handout has exactly '$sections', in that order"
    fi
    [ -f "$(page "$h" "$student")" ] || fail "$h has no page in the student site ($(page "$h" "$student") is missing)"
done

# Doxygen reads a code span holding an apostrophe before a space, as in `papers' cost`, as
# `quoted' text and breaks it: no page of the site may show that.
broken=$(grep -l '&lsquo;' "$student"/html/md_*.html "$instructor"/html/md_*.html 2>/dev/null | paste -sd' ' -)
if [ -z "$broken" ]; then
    pass "no code span of the handouts is broken by an apostrophe"
else
    fail "a code span with an apostrophe became quoted text in: $broken (use a code block there)"
fi
# Nor does Doxygen turn backticks into code inside "double quotes": none may reach a page's text.
broken=$(for f in "$student"/html/md_*.html "$instructor"/html/md_*.html "$student"/html/index.html; do
    grep -v '<div class="line">' "$f" | grep -q '`' && echo "$f"; done | paste -sd' ' -)
if [ -z "$broken" ]; then
    pass "no backtick shows as text in the pages"
else
    fail "a backtick shows as text (a code span inside double quotes?) in: $broken"
fi

# Nor does Doxygen make bold of "**" that opens on a code span: none may reach a page's text.
broken=$(for f in "$student"/html/md_*.html "$instructor"/html/md_*.html "$student"/html/index.html; do
    grep -v '<div class="line">' "$f" | grep -q '\*\*' && echo "$f"; done | paste -sd' ' -)
if [ -z "$broken" ]; then
    pass "no ** shows as text in the pages"
else
    fail "** shows as text (bold that opens on a code span, **\`x\`**?) in: $broken (put a word first: **At \`x\`.**)"
fi

# Figures scale down to the text column and navigation titles wrap: docs/kit.css, linked by every page.
unlinked=$(grep -L '<link href="kit.css"' "$student"/html/md_*.html "$instructor"/html/md_*.html "$student"/html/index.html | paste -sd' ' -)
if [ -z "$unlinked" ] && grep -q 'div.contents object' "$student/html/kit.css" 2>/dev/null &&
    grep -q 'max-width: 100%' "$student/html/kit.css"; then
    pass "every page uses docs/kit.css, which keeps figures inside the text column"
else
    fail "docs/kit.css (figures no wider than the column) is missing from the site or not linked by: ${unlinked:-its copy in $student/html}"
fi

# Every lab's file is in the API reference (docs.sh derives the labs from labs/*/grading.spec).
nolab=0
for spec in labs/*/grading.spec; do
    for f in $(awk '$1 == "file" {print $2}' "$spec"); do
        ref=$(printf '%s' "$f" | sed 's/_/__/g; s/\./_8/g').html
        [ -f "$student/html/$ref" ] || { fail "$(dirname "$spec")/$f has no page in the API reference ($student/html/$ref)"; nolab=1; }
    done
done
[ $nolab = 0 ] && pass "the API reference documents the file of each of the $(ls labs/*/grading.spec | grep -c .) labs"

# The instructor-only parts of the pages written for both readers (mk/audience.sh's markers) are in the
# instructor site only: a phrase of each such line (the longest run of plain words, 25 characters or
# more) must be missing from the student site's page and present in the instructor site's.
for src in docs/mainpage.md labs/README.md; do
    [ "$src" = docs/mainpage.md ] && spage=index.html || spage=$(basename "$(page "$src" "$student")")
    phrases=$(diff <(bash mk/audience.sh student "$src") <(bash mk/audience.sh instructor "$src") | sed -n 's/^> //p' |
        grep -v '^ *$' | grep -v '^```' | awk '{ best = ""; s = $0
            while (match(s, /[A-Za-z][A-Za-z0-9 ,.]+/)) { r = substr(s, RSTART, RLENGTH); if (length(r) > length(best)) best = r
                s = substr(s, RSTART + RLENGTH) }
            sub(/ +$/, "", best); if (length(best) >= 25) print best }')
    np=$(grep -c . <<<"$phrases")
    leaks=0
    while IFS= read -r p; do
        [ -n "$p" ] || continue
        grep -qsF -- "$p" "$student/html/$spage" && { fail "the student site's $spage holds the instructor-only '$p' ($src)"; leaks=1; }
    done <<<"$phrases"
    if [ -d handouts/answers ]; then
        [ "$np" -gt 0 ] || { fail "$src: no instructor-only phrase found to look for (its markers, mk/audience.sh?)"; leaks=1; }
        while IFS= read -r p; do
            [ -n "$p" ] || continue
            grep -qsF -- "$p" "$instructor/html/$spage" || { fail "control: the instructor site's $spage lacks '$p' ($src)"; leaks=1; }
        done <<<"$phrases"
    fi
    [ $leaks = 0 ] && pass "the student site's $spage has none of the $np instructor-only phrases of $src"
done

# 3. The handouts page lists every handout in lab order (the glob's order).
want=$(for h in handouts/[0-9][0-9]-*.md; do basename "$(page "$h" "$student")"; done | paste -sd' ' -)
got=$(grep -o 'href="md_handouts_[0-9][0-9]_[^"#]*\.html"' "$student/html/handouts.html" |
    sed 's/href="//; s/"$//' | awk '!seen[$0]++' | paste -sd' ' -)
if [ "$got" = "$want" ]; then
    pass "the handouts page lists the handouts in lab order"
else
    fail "the handouts page lists '$got', expected '$want'"
fi

# 4. Every figure a handout shows exists in handouts/figures/ and is in the site, where its page points.
nfig=0 figbad=0
for h in handouts/*.md; do
    for f in $(grep -o '!\[[^]]*\]([^)]*)' "$h" | sed 's/.*(\(.*\))/\1/'); do
        nfig=$((nfig + 1))
        name=$(basename "$f")
        if [ ! -f "handouts/$f" ]; then
            fail "$h shows $f, which is not in handouts/ (make figures draws them)"
            figbad=$((figbad + 1))
        elif [ ! -f "$student/html/$name" ] || ! grep -q "data=\"$name\"\|src=\"$name\"" "$(page "$h" "$student")"; then
            fail "$h shows $f, but the site lacks $name or its page does not point to it (IMAGE_PATH?)"
            figbad=$((figbad + 1))
        fi
    done
done
[ "$nfig" -gt 0 ] && [ "$figbad" = 0 ] && pass "all $nfig figures of the handouts are in the site, where their pages point"

# 5. Model answers: one per question, all in the instructor site, none in the student site.
[ -d handouts/answers ] || { pass "the student's kit holds no model answers (handouts/answers/)"; summary; }
for h in handouts/[0-9][0-9]-*.md; do
    a=handouts/answers/$(basename "$h")
    if [ ! -f "$a" ]; then
        skip "$h has no model answers yet ($a)"
        continue
    fi
    nq=$(awk '/^## Questions/ {q = 1; next} /^## / {q = 0} q && /^[0-9]+\. / {n++} END {print n + 0}' "$h")
    ids=$(grep -oE '\{#answer_[0-9]+_[0-9]+\}' "$a" | tr -d '{}#')
    na=$(echo "$ids" | grep -c .)
    if [ "$nq" -gt 0 ] && [ "$na" = "$nq" ]; then
        pass "$a answers all $nq questions of $h"
    else
        fail "$a has $na answers (## Question N {#answer_NN_N}) for the $nq questions of $h"
    fi
    # A phrase of each answer: the longest run of plain words (letters, digits, spaces, commas,
    # full stops) on one line of its text, outside code blocks, which Doxygen copies into the
    # HTML as it is.
    phrases=$(awk 'function flush() { if (inq) { sub(/ +$/, "", best); print best }; best = "" }
        /^```/ { code = !code; next }
        /^## Question/ { flush(); inq = 1; next }
        /^## / { flush(); inq = 0; next }
        inq && !code {
            s = $0
            while (match(s, /[A-Za-z][A-Za-z0-9 ,.]+/)) {
                r = substr(s, RSTART, RLENGTH); if (length(r) > length(best)) best = r
                s = substr(s, RSTART + RLENGTH)
            }
        }
        END { flush() }' "$a")
    np=$(echo "$phrases" | grep -c .)
    leaks=0 missing=0
    for id in $ids; do
        grep -rqs "id=\"$id\"" "$student/html" && { fail "the student site holds the answer anchor $id"; leaks=1; }
        grep -rqs "id=\"$id\"" "$instructor/html" || { fail "the instructor site lacks the answer anchor $id"; missing=1; }
    done
    while IFS= read -r p; do
        [ ${#p} -ge 25 ] || { fail "$a: no phrase of 25 characters to look for under one of its headings"; missing=1; continue; }
        grep -rqsF -- "$p" "$student/html" && { fail "the student site holds the model answer phrase '$p' of $a"; leaks=1; }
        grep -rqsF -- "$p" "$instructor/html" || { fail "the instructor site lacks the phrase '$p' of $a"; missing=1; }
    done <<<"$phrases"
    [ -f "$(page "$a" "$student")" ] && { fail "the student site has the answers page of $a"; leaks=1; }
    [ -f "$(page "$a" "$instructor")" ] || { fail "the instructor site has no answers page for $a"; missing=1; }
    [ $leaks = 0 ] && pass "no model answer of $a is in the student site ($na anchors, $np phrases looked for)"
    [ $missing = 0 ] && pass "every model answer of $a is in the instructor site"
done
summary
