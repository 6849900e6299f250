#!/usr/bin/env bash
# Builds the handbook (an HTML site) with Doxygen and fails on any Doxygen warning.
# Usage: docs.sh student|instructor OUTDIR
#   student     the handouts, the landing page and the API reference
#   instructor  the same, plus the model answers (handouts/answers/) and the
#               instructor-only parts of the pages (ENABLED_SECTIONS = instructor)
# The site is OUTDIR/html/index.html; Doxygen's warnings are kept in OUTDIR/warnings.log.
# The handouts are found by glob: handouts/NN-*.md in lab order, then any other
# handouts/*.md (the instructor guide) by name, so a new handout joins by itself.
set -euo pipefail
build=${1:?usage: docs.sh student|instructor OUTDIR}
out=${2:?usage: docs.sh student|instructor OUTDIR}
case "$out" in
"" | . | .. | / | ./ | ../) echo "docs.sh: OUTDIR '$out' would be emptied; give a folder of its own, such as build/docs" >&2; exit 2 ;;
esac
case "$build" in
student | instructor) ;;
*) echo "docs.sh: the build is 'student' or 'instructor', not '$build'" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."

if ! command -v doxygen >/dev/null 2>&1; then
    echo "docs.sh: doxygen is not installed; run 'make deps' as root, or: sudo apt-get install -y doxygen" >&2
    exit 1
fi

shopt -s nullglob
labs=(handouts/[0-9][0-9]-*.md)
others=()
for f in handouts/*.md; do
    case "$f" in handouts/[0-9][0-9]-*) ;; *) others+=("$f") ;; esac
done
answers=()
[ "$build" = instructor ] && answers=(handouts/answers/[0-9][0-9]-*.md)
[ ${#labs[@]} -gt 0 ] || { echo "docs.sh: no handout matches handouts/NN-*.md" >&2; exit 1; }

# The handouts' index page lists each handout as a subpage, in the order above, which
# is the order of the site's navigation. Doxygen names a Markdown page md_<path>, with
# every character other than a letter, a digit or _ written as _.
rm -rf "$out"
mkdir -p "$out/pages"
label() { local p=${1%.md}; printf 'md_%s' "${p//[^A-Za-z0-9_]/_}"; }
{
    echo '/**'
    echo '@page handouts The handouts, in lab order'
    echo
    echo 'Handout 0 teaches the bank-conflict model; the labs build a GPU merge step by step.'
    echo 'Each lab handout has the same sections: goal, background, what to implement, how to'
    echo 'run, test and grade locally, what the profiler or simulator should show, questions, and'
    echo 'what to submit.'
    echo
    for f in "${labs[@]}" "${others[@]}"; do echo "- @subpage $(label "$f")"; done
    if [ ${#answers[@]} -gt 0 ]; then
        echo
        echo '@section handouts_answers Model answers (instructor build only)'
        echo
        for f in "${answers[@]}"; do echo "- @subpage $(label "$f")"; done
    fi
    echo '*/'
} >"$out/pages/handouts.dox"

pages="docs/mainpage.md $out/pages/handouts.dox ${labs[*]} ${others[*]} ${answers[*]} labs/README.md"
sections=
[ "$build" = instructor ] && sections=instructor
# Every lab folder, found by its grading.spec: the API reference documents each file a student edits.
lab_dirs=()
for spec in labs/*/grading.spec; do lab_dirs+=("$(dirname "$spec")"); done
[ ${#lab_dirs[@]} -gt 0 ] || { echo "docs.sh: no lab folder (labs/*/grading.spec)" >&2; exit 1; }

log="$out/warnings.log"
status=0
KIT_DOCS_OUT="$out" KIT_DOCS_PAGES="$pages" KIT_DOCS_SECTIONS="$sections" KIT_DOCS_LABS="${lab_dirs[*]}" \
    KIT_DOCS_AUDIENCE="$build" doxygen docs/Doxyfile 2>"$log" || status=$?
warnings=$(grep -c -E '(warning|error):' "$log" || true)
if [ "$status" != 0 ] || [ "$warnings" != 0 ]; then
    cat "$log" >&2
    echo "docs.sh: doxygen $(doxygen --version) gave $warnings warning(s) and exit status $status" \
        "building the $build site; the site must build with none (log: $log)" >&2
    exit 1
fi
echo "  DOCS     $out/html/index.html ($build build, doxygen $(doxygen --version), 0 warnings)"
