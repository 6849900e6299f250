#!/usr/bin/env bash
# Checks the two distributions. The student tarball must hold the labs, the
# handouts and the grader, and no solution code: no solutions/, no hidden
# tests, no corpus, and not one line of at least 30 characters from an
# //@answer region of solutions/ (a control run shows the check finds a
# planted one); nor, anywhere in it, a hidden test's name or distribution, or
# a course secret (a control run shows that check finds a planted leak too). Unpacked in a folder of its own, it must work alone: the
# commands its README gives (make check, run, grade, test, docs) do what it
# says, on the untouched skeletons. The Gradescope zip must have setup.sh and
# run_autograder at its root, and its run_autograder must grade an upload of
# two labs' solutions to full marks (the other labs "not attempted") into a
# valid results.json. Usage: check-dist.sh BUILD_DIR GRADER
set -u
build=$1 grader=$2
passed=0 failed=0
ok() { echo "  ok    $1"; passed=$((passed + 1)); }
bad() { echo "  FAIL  $1"; failed=$((failed + 1)); }
work="$build/dist-check"
rm -rf "$work" && mkdir -p "$work"

# ---- student tarball
if tarball=$(bash mk/dist-student.sh "$work" 2>"$work/student.err"); then
    ok "make dist-student builds $tarball"
else
    bad "dist-student failed: $(head -n 3 "$work/student.err")"
fi
mkdir -p "$work/student"
tar -xzf "$tarball" -C "$work/student" 2>/dev/null
root="$work/student/gpu-merge-kit-student"
for must in README.md Makefile labs/01-sequential-merge/merge_sequential.cuh labs/01-sequential-merge/grading.spec \
    grader/grader.c common/kit.h handouts/01-sequential-merge.md; do
    [ -f "$root/$must" ] && ok "the tarball has $must" || bad "the tarball lacks $must"
done
# What dist-student.sh leaves out (its LEAVE_OUT list, the one home of it).
leave_out=$(sed -n 's/^LEAVE_OUT=(\(.*\))$/\1/p' mk/dist-student.sh)
[ -n "$leave_out" ] && grep -qw solutions/ <<<"$leave_out" && ok "dist-student leaves out: $leave_out" ||
    bad "no LEAVE_OUT=(... solutions/ ...) line found in mk/dist-student.sh"
for mustnot in $leave_out; do
    [ ! -e "$root/$mustnot" ] && ok "the tarball has no $mustnot" || bad "the tarball ships $mustnot"
done

# Every answer line of 30 characters or more, trimmed (shorter ones, like "C[k++] = A[i++];", are too common to mean a leak).
awk '/^[ \t]*\/\/@answer[ \t]*$/ {on = 1; next}
     /^[ \t]*\/\/@(skeleton|end)[ \t]*$/ {on = 0; next}
     on { sub(/^[ \t]+/, ""); sub(/[ \t]+$/, ""); if (length($0) >= 30) print }' solutions/*/*.cuh | sort -u >"$work/answers.txt"
count=$(wc -l <"$work/answers.txt")
if [ "$count" -ge 20 ]; then ok "$count answer lines to look for"; else bad "only $count answer lines found in solutions/"; fi
leaks=$(grep -rlF -f "$work/answers.txt" "$root" 2>/dev/null)
if [ -z "$leaks" ]; then
    ok "no answer line appears in the student tarball"
else
    bad "answer lines leak into: $(echo $leaks | sed "s,$root/,,g")"
fi
# Control: a solution planted in a copy must be found, or the check above proves nothing.
mkdir -p "$work/control" && cp solutions/05-circular-merge/*.cuh "$work/control/"
if grep -rqlF -f "$work/answers.txt" "$work/control"; then
    ok "control: a planted solution file is found"
else
    bad "control: the leak check misses a planted solution file"
fi

# No hidden test in the tarball, by content: every name a hidden test has or once had, each hidden
# spec line's distribution as written, and its distinctive choices (mk/hidden-signatures.sh); and no
# course secret. A leak names its file and what leaked.
bash mk/hidden-signatures.sh all >"$work/hidden.txt"
count=$(wc -l <"$work/hidden.txt")
if [ "$count" -ge 30 ]; then ok "$count hidden names and signatures to look for"; else bad "only $count hidden names and signatures found (mk/hidden-signatures.sh all)"; fi
hidden_leaks() { grep -rowF -f "$work/hidden.txt" "$1" 2>/dev/null | sed "s,^$1/,," | sort -u | head -n 5 | tr '\n' ';'; }
leaks=$(hidden_leaks "$root")
if [ -z "$leaks" ]; then
    ok "no hidden test's name or distribution appears in the student tarball"
else
    bad "hidden tests leak into the student tarball (file:what): $leaks"
fi
secrets=$(find "$root" -name '*.secret' | sed "s,^$root/,,")
[ -z "$secrets" ] && ok "the tarball ships no course secret" || bad "the tarball ships a course secret: $secrets"
# Control: a hidden spec's line, and a drawn test's name in a row of counts, planted in a copy, are found.
mkdir -p "$work/control-hidden"
grep -m1 '^draw' grader/hidden/06-predecessor-search.spec | sed 's/^draw [^ ]* [^ ]* [^ ]* //' >"$work/control-hidden/notes.md"
printf '07-cf-gather\t%s-2\t1\tcf_gather_probe\t9,1,1\t512,1,1\n' "$(awk '$1 == "draw" { print $3; exit }' grader/hidden/07-cf-gather.spec)" \
    >"$work/control-hidden/counts.tsv"
found=$(hidden_leaks "$work/control-hidden")
if grep -q 'notes.md:' <<<"$found" && grep -q 'counts.tsv:' <<<"$found"; then
    ok "control: a planted hidden line and a drawn test's name are found ($found)"
else
    bad "control: the hidden-test check misses a planted leak (found: '$found')"
fi

# ---- the student's kit, alone: each command its README gives, run in the unpacked tarball
# (a make of its own: not a sub-make of the make test that runs this).
student_make() {
    (unset MAKEFLAGS MFLAGS MAKELEVEL && cd "$root" && timeout 900 make --no-print-directory "$@" 2>&1)
}
# What a README command must do on the untouched skeletons: exit 0 (or make's 2 where the skeleton's
# tests fail), and print this.
expect_of() {
    case $1 in
    "make check "*) echo "2 not implemented: lab 01:merge in labs/01-sequential-merge/" ;;
    "make run "*) echo "2 not implemented: 01-sequential-merge:" ;;
    "make grade"*) echo "0 TOTAL 0/" ;;
    "make test") echo "0 make test: [0-9]+ passed, 0 failed" ;;
    "make docs" | "make handbook") echo "0 build/docs/html/index.html" ;;
    *) echo "unknown" ;;
    esac
}
commands=$(awk '/^    make / { sub(/^    /, ""); sub(/ +#.*$/, ""); print }' "$root/README.md" 2>/dev/null)
for must in "make test" "make grade" "make check LAB=01"; do
    grep -q "^$must" <<<"$commands" && ok "the student README gives $must" || bad "the student README lacks '$must'"
done
while IFS= read -r cmd; do
    [ -n "$cmd" ] || continue
    read -r want pattern <<<"$(expect_of "$cmd")"
    if [ "$want" = unknown ]; then
        bad "the student README gives '$cmd', which this check does not know: add it to expect_of in $0"
        continue
    fi
    [ "$cmd" = "make docs" ] && ! command -v doxygen >/dev/null && continue # check-docs says why
    log="$work/student-$(tr -c 'a-zA-Z0-9\n' - <<<"$cmd").log"
    eval "student_make ${cmd#make }" >"$log"
    status=$?
    if [ $status = "$want" ] && grep -Eq -- "$pattern" "$log"; then
        ok "student kit: '$cmd' exits $want and says '$pattern'"
    else
        bad "student kit: '$cmd' exited $status (expected $want) or did not say '$pattern'; its log: $log; reproduce: tar -xzf $tarball && cd $(basename "$root") && $cmd"
    fi
done <<<"$commands"
# A lab that builds on an earlier one grades too: the grader takes lab 2's file from the student's labs/.
log="$work/student-grade-03.log"
student_make grade LAB=03 >"$log"
if [ $? = 0 ] && grep -q "not implemented: lab 03:kernel" "$log" && ! grep -q "could not build" "$log"; then
    ok "student kit: make grade LAB=03 (which uses lab 2's file) grades the skeleton: not implemented"
else
    bad "student kit: make grade LAB=03 failed; its log: $log"
fi

# The CPU path needs no CUDA Toolkit: make check on a PATH without nvcc (and no CUDA_HOME to find one
# in) still builds and runs the public tests, CPU build. A folder of links to every program of the
# PATH's folders that hold nvcc, less nvcc, stands in for those folders.
nonvcc="$work/path-without-nvcc" path=
mkdir -p "$nonvcc"
IFS=: read -r -a dirs <<<"$PATH"
for d in "${dirs[@]}"; do
    if [ -x "$d/nvcc" ]; then
        for f in "$d"/*; do [ "${f##*/}" = nvcc ] || ln -sf "$f" "$nonvcc/" 2>/dev/null; done
        d=$nonvcc
    fi
    case ":$path:" in *":$d:"*) ;; *) path=${path:+$path:}$d ;; esac
done
log="$work/student-check-no-nvcc.log"
(PATH=$path CUDA_HOME=/nonexistent && export PATH CUDA_HOME && ! command -v nvcc >/dev/null &&
    student_make check LAB=01) >"$log" 2>&1
status=$?
if [ $status = 2 ] && grep -q "not implemented: lab 01:merge" "$log" && ! grep -q "nvcc not found" "$log"; then
    ok "student kit: make check LAB=01 on a PATH without nvcc runs the CPU build (no CUDA Toolkit needed)"
else
    bad "student kit: make check LAB=01 without nvcc exited $status, or asked for nvcc; its log: $log"
fi
# Lab 8's order task, whose tests in the student kit run the student's worst_subproblem too, says
# so, not only "not implemented: lab 08:warp" as if order were warp.
log="$work/student-check-08.log"
student_make check LAB=08 >"$log"
if grep -q "FAIL task order: its tests also run task warp's code: not implemented: lab 08:warp" "$log" &&
    grep -q "FAIL task warp: not implemented: lab 08:warp" "$log"; then
    ok "student kit: make check LAB=08 says task order's tests also run task warp's code"
else
    bad "student kit: make check LAB=08 does not say that task order's tests run task warp's code; its log: $log"
fi

# The object check's baseline is the kit's untouched skeleton (grader/skeletons/), not the student's
# file: editing labs/ must not rebuild it (each make check would compile twice).
cmp -s "$root/grader/skeletons/01-sequential-merge/merge_sequential.cuh" "$root/labs/01-sequential-merge/merge_sequential.cuh" &&
    ok "the tarball keeps the untouched skeletons in grader/skeletons/" || bad "grader/skeletons/01-sequential-merge/merge_sequential.cuh is missing or differs from labs/"
# (the runner make check builds is for the public tests' pairs alone: its folder is 01-sequential-merge-pairs-<hash>-cpu)
base=$(ls -d "$root"/build/grade/vet/01-sequential-merge*-cpu/bin/runner.o 2>/dev/null | head -n 1)
before=$(stat -c %Y.%s "$base" 2>/dev/null)
sleep 1
echo "/* an edit */" >>"$root/labs/01-sequential-merge/merge_sequential.cuh"
student_make check LAB=01 >"$work/student-check-edited.log"
after=$(stat -c %Y.%s "$base" 2>/dev/null)
[ -n "$before" ] && [ "$before" = "$after" ] && ok "student kit: after an edit, make check LAB=01 keeps the baseline object" ||
    bad "student kit: the baseline $base was rebuilt after an edit of labs/ (before '$before', after '$after'); log: $work/student-check-edited.log"

# Once the public tests pass, make check runs the lab's CUnit program, rebuilt from the student's
# file: after an edit it runs the edited code, never the program built before it.
lab1="$root/labs/01-sequential-merge/merge_sequential.cuh"
prog="$root/build/labs/student-cpu/01-sequential-merge/test"
cp solutions/01-sequential-merge/merge_sequential.cuh "$lab1"
student_make check LAB=01 >"$work/student-check-suites.log"
first=$?
sleep 1
echo "/* an edit after the first make check */" >>"$lab1"
student_make check LAB=01 >>"$work/student-check-suites.log"
second=$?
if [ $first = 0 ] && [ $second = 0 ] && [ "$prog" -nt "$lab1" ] &&
    [ "$(grep -c "the lab's own suites (build/labs/student-cpu/01-sequential-merge/test): [0-9]* passed, 0 failed" \
        "$work/student-check-suites.log")" = 2 ]; then
    ok "student kit: make check LAB=01 runs the lab's suites once its tests pass, rebuilt after an edit"
else
    bad "student kit: make check LAB=01 on the solution exited $first then $second, or its suites' program was not rebuilt after an edit; log: $work/student-check-suites.log"
fi

# A test that fails on its bank conflicts gets a picture: make check draws the kernel's worst warp
# step in it with bankviz --worst, from the student's own driver on the test's input.
lab6="$root/labs/06-predecessor-search/pbs.cuh"
cp solutions/06-predecessor-search/pbs.cuh "$lab6"
patch -s -p2 -F0 "$lab6" <grader/tests/submissions/pbs-no-lane-offset/patch.diff
student_make check LAB=06 TEST=cf-conflict-free >"$work/student-check-figure.log" 2>&1
svg="$root/build/check/06-predecessor-search-cf-conflict-free.svg"
if grep -q "the worst warp step of your kernel in test cf-conflict-free: build/check/06-predecessor-search-cf-conflict-free.svg" \
    "$work/student-check-figure.log" && grep -Eq "step [0-9]+, [1-9][0-9]* bank conflicts" "$svg"; then
    ok "student kit: make check LAB=06 draws the worst warp step of a test that fails on its conflicts"
else
    bad "student kit: make check LAB=06 on a conflicting PBS-CF drew no worst warp step (log: $work/student-check-figure.log, figure: $svg)"
fi
cp "$root/grader/skeletons/06-predecessor-search/pbs.cuh" "$lab6" 2>/dev/null

# Behaviour as well as text: a lab file that calls anything of the instructor-only library
# (libkitref, the reference answers) does not link in the student kit. Lab 1's skeleton, plus a
# table of every function libkitref defines, is built there; the link must fail on each of them.
# Control: the same object links once libkitref is added, so the failure is about those symbols.
syms=$(nm --defined-only -g "$build/libkitref.a" 2>/dev/null | awk '$2 == "T" {print $3}' | sort -u)
if [ "$(echo "$syms" | grep -c .)" -ge 10 ]; then ok "$(echo "$syms" | grep -c .) functions in libkitref to borrow"; else bad "libkitref defines too few functions: $syms"; fi
lab1="$root/labs/01-sequential-merge/merge_sequential.cuh"
{
    cat "$lab1"
    for f in $syms; do echo "extern \"C\" void $f(void);"; done
    echo "void (*kit_borrowed[])(void) = {" # not const: a const global has internal linkage and would be dropped
    for f in $syms; do echo "    $f,"; done
    echo "};"
} >"$work/borrow.cuh" && mv "$work/borrow.cuh" "$lab1"
obj=build/labs/student-cpu/01-sequential-merge/driver.o
if student_make "$obj" build/libkitcpu.a >"$work/borrow-build.log"; then
    if g++ "$root/$obj" "$root/build/libkitcpu.a" -o "$work/borrow" >"$work/borrow-link.log" 2>&1; then
        bad "a lab file calling libkitref links in the student kit"
    else
        missing=0
        for f in $syms; do grep -q "undefined reference to \`$f'" "$work/borrow-link.log" || missing=$((missing + 1)); done
        [ "$missing" = 0 ] && ok "a lab file calling any of libkitref's functions does not link in the student kit" ||
            bad "$missing libkitref functions were not reported undefined (see $work/borrow-link.log)"
    fi
    g++ "$root/$obj" "$build/libkitref.a" "$root/build/libkitcpu.a" -o "$work/borrow" >/dev/null 2>&1 &&
        ok "control: the same object links with libkitref" || bad "control: the borrowing object does not link even with libkitref"
else
    bad "could not build lab 1's runner in the student kit (see $work/borrow-build.log)"
fi

# ---- Gradescope zip
if zipfile=$(bash mk/dist-gradescope.sh "$work" 2>"$work/gs.err"); then
    ok "make dist-gradescope builds $zipfile"
else
    bad "dist-gradescope failed: $(head -n 3 "$work/gs.err")"
fi
mkdir -p "$work/gs" && (cd "$work/gs" && unzip -q "$OLDPWD/$zipfile" 2>/dev/null)
for f in setup.sh run_autograder; do
    [ -x "$work/gs/$f" ] && ok "the zip has an executable $f at its root" || bad "the zip lacks an executable $f at its root"
done
for must in solutions/01-sequential-merge/merge_sequential.cuh grader/hidden/01-sequential-merge.spec grader/grader.c; do
    [ -f "$work/gs/$must" ] && ok "the zip has $must" || bad "the zip lacks $must"
done
[ ! -e "$work/gs/grader/tests/submissions" ] && [ ! -e "$work/gs/build" ] && ok "the zip has no corpus and no build/" ||
    bad "the zip ships the corpus or build/"

# Run its run_autograder on an upload of two labs' solution files, flat, with this build's grader:
# lab 1, and lab 3, which builds on lab 2's file (the kit's copy, as the upload lacks it).
ag="$work/autograder"
mkdir -p "$ag/submission" "$ag/results"
cp solutions/01-*/*.cuh solutions/03-*/*.cuh "$ag/submission/"
if AUTOGRADER_ROOT="$ag" KIT_SOURCE="$PWD" KIT_GRADER="$grader" bash "$work/gs/run_autograder" >"$work/run.log" 2>&1; then
    ok "run_autograder exits 0"
else
    bad "run_autograder failed (see $work/run.log)"
fi
res="$ag/results/results.json"
# Full marks on labs 1 and 3; every other lab's tasks "not attempted", with 0 points.
judge='import json, sys
d = json.load(open(sys.argv[1]))
mine = [t for t in d["tests"] if t["name"][:3] in ("01-", "03-")]
rest = [t for t in d["tests"] if t["name"][:3] not in ("01-", "03-") and " task " in t["name"]]
full = mine and all(t["score"] == t["max_score"] for t in mine) and sum(t["max_score"] for t in mine) > 0
absent = rest and all(t["score"] == 0 and "not attempted" in t["output"] for t in rest)
sys.exit(0 if full and absent else 1)'
if [ -f "$res" ] && python3 -c "$judge" "$res" 2>/dev/null; then
    ok "results.json is valid: labs 1 and 3 full marks, the other labs not attempted"
elif [ -f "$res" ] && ! command -v python3 >/dev/null; then
    grep -q '"max_score": 6' "$res" && ok "results.json written (python3 missing: not parsed)" || bad "results.json incomplete"
else
    bad "results.json missing, invalid, short of full marks on labs 1 and 3, or grading labs not uploaded ($res)"
fi
grep -q '"visibility": "after_due_date"' "$res" 2>/dev/null && ok "hidden tests are after_due_date" ||
    bad "results.json has no after_due_date entries"

# An upload with a link anywhere (here a lab folder linked to the kit's solution) scores 0 and says why.
mkdir -p "$ag/linked/submission" "$ag/linked/results"
ln -s "$PWD/solutions/01-sequential-merge" "$ag/linked/submission/01-sequential-merge"
AUTOGRADER_ROOT="$ag/linked" KIT_SOURCE="$PWD" KIT_GRADER="$grader" bash "$work/gs/run_autograder" >"$work/run3.log" 2>&1
grep -q '"score": 0, "output": "The upload holds a symbolic link (01-sequential-merge)' "$ag/linked/results/results.json" 2>/dev/null &&
    ok "an upload with a linked lab folder scores 0, naming the link" || bad "an upload with a link was not refused"

# A broken grader still leaves a results.json that says so.
mkdir -p "$ag/results2"
AUTOGRADER_ROOT="$ag" KIT_SOURCE="$PWD" KIT_GRADER=/bin/false RESULTS_DIR="$ag/results2" \
    bash "$work/gs/run_autograder" >"$work/run2.log" 2>&1
grep -q '"score": 0' "$ag/results2/results.json" 2>/dev/null && ok "a failing grader still writes results.json (score 0)" ||
    bad "a failing grader leaves no results.json"

echo "dist: $passed passed, $failed failed, 0 skipped"
[ "$failed" = 0 ]
