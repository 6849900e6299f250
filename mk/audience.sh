#!/usr/bin/env bash
# One Markdown file, two readers: prints FILE as a student or as an instructor reads it, so that a
# page shared by the two (README.md, labs/README.md, the handbook's landing page) is kept in one
# file. Its markers are HTML comments, which GitHub and Doxygen show as nothing:
#   <!--@instructor-->      a line of its own: what follows, up to <!--@end-->, is for instructors;
#   ...                     at the end of a line or of a table row's last cell, after a blank:
#                           that line is for instructors (quoted elsewhere in a line, it is text);
#   <!--@end-->
#   <!--@student            a line of its own: what follows, up to @end-->, is for students (in the
#   ...                     kit's own copy, one HTML comment, so instructors do not see it)
#   @end-->
# The student gets the file without the instructor parts and with the student parts shown; the
# instructor gets it without the student parts. Used by mk/dist-student.sh (the student's kit) and
# by docs/Doxyfile (the two handbook sites). Usage: audience.sh student|instructor FILE
set -eu
who=${1:-} file=${2:-}
case "$who" in
student | instructor) ;;
*) echo "audience.sh: the reader is 'student' or 'instructor', not '$who' (usage: audience.sh student|instructor FILE)" >&2; exit 2 ;;
esac
[ -r "$file" ] || { echo "audience.sh: cannot read '$file'" >&2; exit 2; }
awk -v who="$who" '
    /^<!--@instructor-->$/ { part = "instructor"; next }
    /^<!--@student$/ { part = "student"; next }
    /^(<!--@end-->|@end-->)$/ { part = ""; next }
    part != "" && part != who { next }
    / <!--@instructor-->( \|)?$/ { if (who == "student") next; sub(/ <!--@instructor-->/, "") }
    { print }' "$file"
