#!/usr/bin/env bash
# make test's check of the handbook: both Doxygen builds succeed with zero warnings, every lab
# handout has the six sections, every figure reaches the site, every question has a model answer,
# and no model answer reaches the student build. Skipped, with the reason, only when Doxygen is
# missing (mk/deps.sh installs it where it can). First, without Doxygen: common/kit.h, the map of
# common/, lists every header there.
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

# 2. Every lab handout has the six sections, in order, and its page in the site.
sections='Goal|Background|What to implement|How to run, test and grade locally|What the profiler or simulator should show, and why|Questions to think about'
for h in handouts/[0-9][0-9]-*.md; do
    got=$(grep -E '^## ' "$h" | sed 's/^## //' | paste -sd'|' -)
    if [ "$got" = "$sections" ]; then
        pass "$h has the six sections in order"
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
