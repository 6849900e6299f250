#!/usr/bin/env bash
# make test's check of the Gradescope autograder's file finding (grader/gradescope/run_autograder)
# and of what students are told to upload. Each layout a student uploads is laid out in a fresh
# /autograder/submission: the whole kit, labs/ alone, flat files, a folder nested in a zip's
# folder, the untouched skeletons, two versions of one file, nothing of use, a .tar.gz. A stand-in
# grader records which file run_autograder handed it for each lab and writes a results.json of the
# real one's shape, so that the notes run_autograder adds can be checked too; one layout is then
# graded by the real grader. Also: the student README and every handout end with "What to submit",
# naming each lab's file. Usage: check-upload.sh GRADER
set -u
grader=${1:?usage: check-upload.sh GRADER}
cd "$(dirname "$0")/.."
kit=$PWD
passed=0 failed=0 skipped=0
ok() { passed=$((passed + 1)); }
bad() { echo "  FAIL  $1"; failed=$((failed + 1)); }
skip() { echo "  SKIP  $1"; skipped=$((skipped + 1)); }
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
rerun="bash mk/check-upload.sh $grader"

# ---- the files: lab 1's, lab 2's, their skeletons and two versions of each
l1=01-sequential-merge f1=merge_sequential.cuh
l2=02-co-rank f2=co_rank.cuh
skel1=labs/$l1/$f1 skel2=labs/$l2/$f2
mine() { { cat "$1"; echo "/* $2 */"; }; } # a student's edit of a skeleton: the skeleton plus a line

# The stand-in grader: copies what it was given (--submission, relative to its working folder) to
# $SEEN, and writes a results.json with one task entry per lab of the kit, as the grader does.
fake="$tmp/fake-grader"
cat >"$fake" <<'EOF'
#!/usr/bin/env bash
while [ $# -gt 0 ]; do
    case $1 in
    --submission) sub=$2; shift ;;
    --gradescope) out=$2; shift ;;
    --kit) kit=$2; shift ;;
    esac
    shift
done
cp -r "$sub" "$SEEN"
{
    printf '{\n  "execution_time": 1,\n  "output": "Runners built for the kit'"'"'s CPU emulation.",\n  "tests": ['
    sep=
    for spec in "$kit"/labs/*/grading.spec; do
        lab=$(basename "$(dirname "$spec")")
        printf '%s\n    {"name": "%s task t: T", "score": 0, "max_score": 1, "status": "failed", "output": "graded", "visibility": "visible"}' "$sep" "$lab"
        sep=,
    done
    printf '\n  ]\n}\n'
} >"$out"
EOF
chmod +x "$fake"

# run_upload NAME: runs run_autograder on $tmp/NAME/submission with the stand-in grader; the files it
# handed over land in $tmp/NAME/seen, results.json in $tmp/NAME/results.
run_upload() {
    local d="$tmp/$1"
    mkdir -p "$d/results" "$d/submission"
    AUTOGRADER_ROOT="$d" KIT_SOURCE="$kit" KIT_GRADER="$fake" SEEN="$d/seen" \
        bash grader/gradescope/run_autograder >"$d/log" 2>&1
}
# graded NAME LAB FILE WANT: the file run_autograder handed over for LAB equals WANT ("none": no file).
graded() {
    local got="$tmp/$1/seen/$2/$3"
    if [ "$4" = none ]; then
        [ ! -e "$got" ] && ok || bad "$1: $2/$3 was handed to the grader, though the upload has no such file; rerun: $rerun"
    elif [ ! -f "$got" ]; then
        bad "$1: no $2/$3 was handed to the grader (expected $4); log: $(tr '\n' ' ' <"$tmp/$1/log"); rerun: $rerun"
    elif ! cmp -s "$got" "$4"; then
        bad "$1: the grader was handed the wrong $2/$3: expected $4, got a file whose last line is '$(tail -n 1 "$got")'; rerun: $rerun"
    else
        ok
    fi
}
# says NAME WHERE TEXT: results.json of NAME is valid JSON and WHERE holds TEXT: "output", or every
# entry whose name starts with WHERE ("01-sequential-merge task": that lab's task entries). The
# expectations are checked all at once at the end (check_says), by one python3.
says() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$tmp/expect.tsv"; }
check_says() {
    local n out line
    n=$(grep -c . "$tmp/expect.tsv")
    if ! command -v python3 >/dev/null 2>&1; then
        skip "python3 is missing, so the $n notes expected in results.json were not checked"
        return
    fi
    out=$(python3 - "$tmp" "$rerun" <<'EOF'
import json, sys
tmp, rerun = sys.argv[1], sys.argv[2]
good = 0
for line in open(tmp + "/expect.tsv"):
    name, where, text = line.rstrip("\n").split("\t", 2)
    path = "%s/%s/results/results.json" % (tmp, name)
    try:
        d = json.load(open(path))
    except Exception as e:
        print("FAIL %s: results.json is not valid JSON (%s); rerun: %s" % (name, e, rerun))
        continue
    if where == "output":
        found, seen = text in d.get("output", ""), d.get("output", "")
    else:
        tests = [t for t in d["tests"] if t["name"].startswith(where + " ")]
        found = bool(tests) and all(text in t.get("output", "") for t in tests)
        seen = " | ".join(t.get("output", "") for t in tests) or "no entry named so"
    if found:
        good += 1
    else:
        print("FAIL %s: results.json's %s does not say '%s'; it says: %s; rerun: %s"
              % (name, where, text, seen[:500].replace("\n", " / "), rerun))
print("GOOD %d" % good)
EOF
)
    while IFS= read -r line; do
        case $line in
        "GOOD "*) passed=$((passed + ${line#GOOD })) ;;
        "FAIL "*) bad "${line#FAIL }" ;;
        esac
    done <<<"$out"
}

# 1. The whole kit, as the student's tarball unpacks (gpu-merge-kit-student/...), lab 1 edited: the
# copies in grader/skeletons/, a stale scratch copy under build/ and a solutions/ folder are never taken.
u=whole-kit k="$tmp/$u/submission/gpu-merge-kit-student"
mkdir -p "$k/labs/$l1" "$k/labs/$l2" "$k/grader/skeletons/$l1" "$k/build/grade/$l1.x/scratch" "$k/solutions/$l1"
mine "$skel1" "edited" >"$k/labs/$l1/$f1"
cp "$skel2" "$k/labs/$l2/$f2"
cp "$skel1" "$k/grader/skeletons/$l1/$f1"
mine "$skel1" "stale scratch copy" >"$k/build/grade/$l1.x/scratch/$f1"
mine "$skel1" "a solutions folder" >"$k/solutions/$l1/$f1"
run_upload $u
graded $u $l1 $f1 "$k/labs/$l1/$f1"
graded $u $l2 $f2 "$skel2"
says $u output "$l1: graded gpu-merge-kit-student/labs/$l1/$f1"
says $u output "$l2: your gpu-merge-kit-student/labs/$l2/$f2 is the unchanged skeleton"
says $u "$l2 task" "Edit labs/$l2/$f2 in your kit, then upload it"
says $u "$l1 task" "graded"

# 2. labs/ alone.
u=labs-alone
mkdir -p "$tmp/$u/submission/labs/$l1"
mine "$skel1" "labs alone" >"$tmp/$u/submission/labs/$l1/$f1"
run_upload $u
graded $u $l1 $f1 "$tmp/$u/submission/labs/$l1/$f1"
graded $u $l2 $f2 none
says $u output "$l1: graded labs/$l1/$f1"
says $u "$l2 task" "no $f2 in your upload. Upload labs/$l2/$f2"

# 3. Flat files, two labs' at once.
u=flat
mkdir -p "$tmp/$u/submission"
mine "$skel1" "flat 1" >"$tmp/$u/submission/$f1"
mine "$skel2" "flat 2" >"$tmp/$u/submission/$f2"
run_upload $u
graded $u $l1 $f1 "$tmp/$u/submission/$f1"
graded $u $l2 $f2 "$tmp/$u/submission/$f2"
says $u output "$l2: graded $f2"

# 4. Nested in a zip's folder (Gradescope unpacks a .zip into submission/), with a Mac's __MACOSX
# copy and a .git folder beside it.
u=nested-zip n="$tmp/$u/submission/my work/kit"
mkdir -p "$n/labs/$l1" "$tmp/$u/submission/__MACOSX/my work/kit/labs/$l1" "$n/.git/old/$l1"
mine "$skel1" "nested" >"$n/labs/$l1/$f1"
mine "$skel1" "macosx copy" >"$tmp/$u/submission/__MACOSX/my work/kit/labs/$l1/$f1"
mine "$skel1" "git copy" >"$n/.git/old/$l1/$f1"
run_upload $u
graded $u $l1 $f1 "$n/labs/$l1/$f1"
says $u output "$l1: graded my work/kit/labs/$l1/$f1"

# 5. The untouched skeletons of every lab: each lab says so, with the path to upload.
u=skeletons
mkdir -p "$tmp/$u/submission/labs"
for f in labs/[0-9]*/*.cuh; do
    mkdir -p "$tmp/$u/submission/$(dirname "$f")" && cp "$f" "$tmp/$u/submission/$f"
done
run_upload $u
graded $u $l1 $f1 "$skel1"

for spec in labs/*/grading.spec; do
    lab=$(basename "$(dirname "$spec")")
    f=$(awk '$1 == "file" {print $2; exit}' "$spec")
    says $u "$lab task" "your labs/$lab/$f is the unchanged skeleton. Edit labs/$lab/$f in your kit"
done

# 6. Two versions of one file: the one in labs/ is graded, and the other is named as not graded.
# A skeleton copy under labs/ loses to an edited file elsewhere.
u=two-versions
mkdir -p "$tmp/$u/submission/labs/$l1" "$tmp/$u/submission/labs/$l2"
mine "$skel1" "version 2, in labs" >"$tmp/$u/submission/labs/$l1/$f1"
mine "$skel1" "version 1, flat" >"$tmp/$u/submission/$f1"
cp "$skel2" "$tmp/$u/submission/labs/$l2/$f2"
mine "$skel2" "edited, flat" >"$tmp/$u/submission/$f2"
run_upload $u
graded $u $l1 $f1 "$tmp/$u/submission/labs/$l1/$f1"
graded $u $l2 $f2 "$tmp/$u/submission/$f2"
says $u output "$l1: also found a different $f1, not graded: $f1"
says $u output "$l2: not graded, the unchanged skeleton: labs/$l2/$f2"

# 7. Nothing of use, and a .tar.gz, which Gradescope does not unpack.
u=nothing
mkdir -p "$tmp/$u/submission"
echo "my answers" >"$tmp/$u/submission/notes.txt"
tar -czf "$tmp/$u/submission/kit.tar.gz" -C "$kit" "$skel1"
run_upload $u
graded $u $l1 $f1 none
says $u "$l1 task" "no $f1 in your upload. Upload labs/$l1/$f1"
says $u output "Your upload holds an archive (kit.tar.gz)"

# 8. The real grader on the whole kit of 1 (lab 1 the solution when there is one): valid results.json,
# lab 1 full marks, the notes in it, and lab 2's skeleton reported at the path to upload.
u=real
if [ ! -x "$grader" ]; then
    skip "the real grader ($grader) is not built: make $grader"
elif [ ! -f "solutions/$l1/$f1" ]; then
    skip "the real grader's run needs solutions/ (the student's kit has none)"
else
    k="$tmp/$u/submission/gpu-merge-kit-student"
    mkdir -p "$k/labs/$l1" "$k/labs/$l2" "$k/grader/skeletons/$l1" "$tmp/$u/results"
    cp "solutions/$l1/$f1" "$k/labs/$l1/$f1"
    cp "$skel1" "$k/grader/skeletons/$l1/$f1"
    cp "$skel2" "$k/labs/$l2/$f2"
    # The grader as make test names it, relative to the kit: run_autograder must not lose it.
    AUTOGRADER_ROOT="$tmp/$u" KIT_SOURCE="$kit" KIT_GRADER="$grader" \
        bash grader/gradescope/run_autograder >"$tmp/$u/log" 2>&1
    if command -v python3 >/dev/null 2>&1 && python3 - "$tmp/$u/results/results.json" "$l1" <<'EOF'; then ok; else bad "$u: the real grader's results.json is not valid, or lab 1 is short of full marks: $(head -c 400 "$tmp/$u/results/results.json" | tr '\n' ' '); log: $(tail -n 3 "$tmp/$u/log" | tr '\n' ' '); rerun: $rerun"; fi
import json, sys
d = json.load(open(sys.argv[1]))
mine = [t for t in d["tests"] if t["name"].startswith(sys.argv[2] + " task ")]
sys.exit(0 if mine and all(t["score"] == t["max_score"] for t in mine) and sum(t["max_score"] for t in mine) > 0 else 1)
EOF
    says $u output "$l1: graded gpu-merge-kit-student/labs/$l1/$f1"
    says $u output "runners built for"
    says $u "$l2 task" "not implemented: lab 02:co_rank in labs/$l2/$f2"
fi

# ---- What to submit: the student README and every lab handout end with it, naming the lab's file.
readme=$(bash mk/audience.sh student README.md)
last=$(grep '^## ' <<<"$readme" | tail -n 1)
[ "$last" = "## What to submit" ] && ok || bad "the student README's last section is '$last', not '## What to submit' (README.md's <!--@student part); rerun: $rerun"
for spec in labs/*/grading.spec; do
    lab=$(basename "$(dirname "$spec")")
    for f in $(awk '$1 == "file" {print $2}' "$spec"); do
        sed -n '/^## What to submit$/,$p' <<<"$readme" | grep -qF "labs/$lab/$f" && ok ||
            bad "the student README's What to submit does not name labs/$lab/$f; rerun: $rerun"
        h=handouts/$lab.md
        [ -f "$h" ] || continue
        last=$(grep '^## ' "$h" | tail -n 1)
        if [ "$last" != "## What to submit" ]; then
            bad "$h ends with '$last', not '## What to submit'; rerun: $rerun"
        elif ! sed -n '/^## What to submit$/,$p' "$h" | grep -qF "labs/$lab/$f"; then
            bad "$h's What to submit does not name labs/$lab/$f; rerun: $rerun"
        else
            ok
        fi
    done
done

check_says
echo "check-upload: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
