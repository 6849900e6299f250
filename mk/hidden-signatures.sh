#!/usr/bin/env bash
# What names a hidden test, one string a line, for the student distribution to leave out and its
# check to look for (mk/dist-student.sh, mk/check-dist.sh):
#   names  the name of every hidden test and draw line of grader/hidden/*.spec, and of those the
#          kit's history ever had there (git log), less the names a public test or a generator
#          also has (those name nothing hidden);
#   all    the names, and of each line of today's hidden specs its words after the name (the
#          distribution as written) and each choice with a range of at least 14 characters
#          (m=[1026..9000] is a signature; u=[1..64] could be anyone's).
# Run it in the kit's git checkout. Usage: hidden-signatures.sh names|all
set -u
what=${1:-}
case "$what" in names | all) ;; *) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;; esac
# Names a hidden test cannot own: every public test's, and the generators' (kit_gen.c).
public=$(awk '$1 == "test" { print $4 }' labs/*/grading.spec; printf '%s\n' random sorted reverse duplicates equal \
    few-unique a-below-b b-below-a interleaved)
{
    cat grader/hidden/*.spec 2>/dev/null
    git log -p --format= -- grader/hidden 2>/dev/null | sed -n 's/^[-+ ]//p'
} | awk '$1 == "test" && $3 == "hidden" { print $4 } $1 == "draw" { print $3 }' | sort -u |
    grep -vxF -f <(printf '%s\n' "$public") | awk 'length($0) >= 5'
[ "$what" = all ] || exit 0
awk '$1 == "test" && $3 == "hidden" { w = 5 } $1 == "draw" { w = 5 }
     ($1 == "test" && $3 == "hidden") || $1 == "draw" {
         rest = ""; for (i = w; i <= NF; i++) rest = rest (i > w ? " " : "") $i
         if (rest != "") print rest
         for (i = w; i <= NF; i++) if ($i ~ /\[[0-9]+\.\.[0-9]+\]/ && length($i) >= 14) print $i
     }' grader/hidden/*.spec | sort -u
