#!/usr/bin/env bash
# make test's check of the Makefile's own promises, read from `make -n` (which prints the commands
# and runs none, bar the sub-makes that print theirs): without a GPU nothing is built by nvcc and
# the C programs link no nvcc object; GPU=1 builds the GPU binaries; make test compiles with -Werror;
# LAB=1, LAB=01 and LAB=01-sequential-merge all name lab 1, and a LAB that names no lab is refused;
# make check runs the GPU build only with GPU=1, and GPU=1 without a GPU fails, saying so; make check
# asks mk/deps.sh only for its own tools (no Doxygen, no CUnit).
# Then mk/run-tests.sh's: a log per program, even for two programs of one name; a test that passes
# but prints an error-looking line fails; the programs after a --build that failed do not run.
# Usage: check-make.sh
set -u
cd "$(dirname "$0")/.."
unset MAKEFLAGS MFLAGS MAKELEVEL # a make of its own, not a sub-make of the one that runs make test
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { echo "  FAIL  check-make: $1; reproduce: $2"; failed=$((failed + 1)); }
empty=$(mktemp -d /tmp/kit-check-make-XXXXXX) # an empty build folder, so that -n lists every step
trap 'rm -rf "$empty"' EXIT
dry() { make -n --no-print-directory V=1 BUILD="$empty" "$@" 2>&1; } # V=1: the sub-makes print too

# make test's builds are the targets test-first-builds and test-lab-builds (run-tests.sh starts them).
builds="test-first-builds test-lab-builds"
out=$(dry $builds GPU=0)
repro="make -n $builds V=1 GPU=0 BUILD=\$(mktemp -d)"
# Only libkit.a's one nvcc object, which the self-test's GPU-mode case needs (see TEST_BUILDS).
nvcc_steps=$(grep -E '(^|/)nvcc .*(-c|-o) ' <<<"$out" | grep -v -- '-c common/kit_cuda.cu -o' | head -n 1)
[ -z "$nvcc_steps" ] && ok || bad "GPU=0: make test still runs nvcc: ${nvcc_steps:0:160}" "$repro"
linked=$(grep -E ' -o [^ ]*/(tests|tools|grader|labs/[a-z-]+/[^/ ]+)/[^ /]+$' <<<"$out" | grep 'libkit\.a' | head -n 1)
[ -z "$linked" ] && ok || bad "GPU=0: a program still links libkit.a (nvcc objects): ${linked:0:160}" "$repro"
grep -Eq '(^|/)gcc .*-Werror .*-c common/kit_gen\.c' <<<"$out" && ok ||
    bad "make test compiles common/kit_gen.c without -Werror" "$repro"
grep -Eq 'g\+\+ .*-DKIT_CPU .*-Werror .*-c common/kit_cpu\.cc' <<<"$out" && ok ||
    bad "make test compiles the CPU build (common/kit_cpu.cc) without -Werror" "$repro"

# make test's CPU builds leave out -g (CPU_DEBUG=): a third less compile time, and nothing runs under gdb.
out=$(dry $builds GPU=0 | grep -E 'g\+\+ .*-DKIT_CPU' | grep -E -- ' -g( |$)' | head -n 1)
[ -z "$out" ] && ok || bad "make test's CPU build compiles with -g: ${out:0:160}" "make -n $builds V=1 GPU=0 BUILD=\$(mktemp -d)"

# Both builds that run-tests.sh starts get the command line's variables (BUILD=... here).
out=$(dry test GPU=0 CXXFLAGS="-O1 -g" | grep -o "MAKEFLAGS='[^']*'" | grep -F 'CXXFLAGS=-O1\ -g' | grep -cF "BUILD=$empty")
[ "$out" = 2 ] && ok || bad "make test's build does not get the command line's CXXFLAGS and BUILD" \
    "make -n test CXXFLAGS='-O1 -g' BUILD=/tmp/x"

out=$(dry $builds GPU=1)
repro="make -n $builds V=1 GPU=1 BUILD=\$(mktemp -d)"
steps=("-c common/kit_cuda.cu" "-c common/tests/test_cuda.cu")
# The lab programs that make test builds for its skeleton and driver checks (not in the student's kit).
[ -d solutions ] && steps+=("labs/sol/01-sequential-merge/test" "labs/student/09-merge-sort/driver")
for step in "${steps[@]}"; do
    grep -E '(^|/)nvcc ' <<<"$out" | grep -qF -- "$step" && ok || bad "GPU=1: make test has no nvcc step for '$step'" "$repro"
done

for lab in 1 01 01-sequential-merge 01-seq; do
    out=$(dry run LAB=$lab GPU=0)
    grep -q 'student-cpu/01-sequential-merge/driver' <<<"$out" && ok ||
        bad "LAB=$lab does not pick lab 01-sequential-merge for make run" "make -n run LAB=$lab"
    out=$(dry check LAB=$lab GPU=0)
    grep -q 'mk/check.sh .* 01-sequential-merge' <<<"$out" && ok ||
        bad "LAB=$lab does not pick lab 01-sequential-merge for make check" "make -n check LAB=$lab"
done
for lab in 0 10 1-sequential-merge nosuch; do
    out=$(make --no-print-directory run LAB=$lab BUILD="$empty" 2>&1)
    status=$?
    [ $status = 2 ] && grep -q 'say which lab' <<<"$out" && ok ||
        bad "LAB=$lab should be refused (exit 2, 'say which lab'), got exit $status: ${out:0:120}" "make run LAB=$lab"
done

# make check's GPU build runs only when asked (GPU=1), on any machine; without a GPU, asking fails.
# The Makefile's side, from make -n: plain make check asks for none, GPU=1 asks for it.
for want in "GPU=0:0" ":0" "GPU=1:1"; do
    out=$(dry check LAB=01 ${want%%:*})
    grep -q "KIT_CHECK_GPU=${want##*:} .*mk/check.sh" <<<"$out" && ok ||
        bad "make check ${want%%:*} should run mk/check.sh with KIT_CHECK_GPU=${want##*:}" "make -n check LAB=01 ${want%%:*}"
done
# make check asks mk/deps.sh only for what it needs: with every tool but Doxygen on the PATH, that
# is quiet and installs nothing (make test needs Doxygen; make check does not).
grep -q "mk/deps.sh check" <<<"$(dry check LAB=01 GPU=0)" && ok ||
    bad "make check should run mk/deps.sh check" "make -n check LAB=01"
mkdir -p "$empty/tools"
for t in gcc g++ nm readelf c++filt patch id; do
    p=$(command -v $t)
    [ -x "$p" ] && ln -sf "$p" "$empty/tools/$t"
done
out=$(PATH="$empty/tools" CUDA_HOME=/nonexistent KIT_NEED_NVCC=0 "$BASH" mk/deps.sh check 2>&1)
[ $? = 0 ] && [ -z "$out" ] && ok || bad "mk/deps.sh check without Doxygen and nvcc should be quiet, got: ${out:0:160}" \
    "bash mk/check-make.sh"
# nvcc only for a GPU build: asked for, and missing, it is the one thing deps.sh stops on.
out=$(PATH="$empty/tools" CUDA_HOME=/nonexistent KIT_NEED_NVCC=1 "$BASH" mk/deps.sh check 2>&1)
[ $? = 1 ] && grep -q "nvcc not found, and a GPU build is asked for" <<<"$out" && ok ||
    bad "mk/deps.sh with KIT_NEED_NVCC=1 and no nvcc should fail naming nvcc, got: ${out:0:160}" "bash mk/check-make.sh"
# make check and make test ask for nvcc only with GPU=1 (a GPU here sets it too).
grep -q "KIT_NEED_NVCC=0 bash mk/deps.sh check" <<<"$(dry check LAB=01 GPU=0)" &&
    grep -q "KIT_NEED_NVCC=1 bash mk/deps.sh check" <<<"$(dry check LAB=01 GPU=1)" && ok ||
    bad "make check should ask deps.sh for nvcc with GPU=1 only" "make -n check LAB=01 GPU=1"
# mk/check.sh's side, with a made-up grader (it prints its mode) and a made-up nvidia-smi.
mkdir -p "$empty/smi-yes" "$empty/smi-no"
printf '#!/bin/sh\nfor a; do case "$a" in cpu|gpu) echo "mode $a";; esac; done\n' >"$empty/grader"
printf '#!/bin/sh\nexit 0\n' >"$empty/smi-yes/nvidia-smi"
printf '#!/bin/sh\nexit 9\n' >"$empty/smi-no/nvidia-smi"
printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = --cxx ] && echo "cxx $2"; shift; done\n' >"$empty/grader-cxx"
chmod +x "$empty/grader" "$empty/grader-cxx" "$empty/smi-yes/nvidia-smi" "$empty/smi-no/nvidia-smi"
check_sh() { PATH="$empty/$1:$PATH" KIT_CHECK_GPU=$2 bash mk/check.sh "$empty/grader" "$empty" 01-sequential-merge 2>&1; }
out=$(check_sh smi-yes 0)
[ $? = 0 ] && grep -q "mode cpu" <<<"$out" && ! grep -q "mode gpu" <<<"$out" && grep -q "make check LAB=01 GPU=1 adds" <<<"$out" &&
    ok || bad "a GPU without GPU=1: expected the CPU build and a line on GPU=1, got: ${out:0:200}" "bash mk/check-make.sh"
out=$(check_sh smi-yes 1)
[ $? = 0 ] && grep -q "mode cpu" <<<"$out" && grep -q "mode gpu" <<<"$out" && ok ||
    bad "a GPU and GPU=1: expected the CPU and the GPU builds, got: ${out:0:200}" "bash mk/check-make.sh"
out=$(check_sh smi-no 1)
[ $? = 2 ] && grep -q "mode cpu" <<<"$out" && grep -q "no GPU was found" <<<"$out" && ok ||
    bad "GPU=1 and no GPU: expected exit 2 and 'no GPU was found', got: ${out:0:200}" "bash mk/check-make.sh"
out=$(check_sh smi-no 0)
[ $? = 0 ] && [ "$out" = "mode cpu" ] && ok ||
    bad "no GPU, not asked: expected the CPU build alone and nothing more, got: ${out:0:200}" "bash mk/check-make.sh"

# mk/run-tests.sh on made-up programs: two called "test" (as every lab's is), each with an argument
# that joins its log's name, one that passes noisily, one that passes quietly.
fake=$empty/fake
mkdir -p "$fake/a" "$fake/b"
printf '#!/bin/sh\necho "$1: 1 passed, 0 failed, 0 skipped"\n' >"$fake/a/test"
cp "$fake/a/test" "$fake/b/test"
printf '#!/bin/sh\necho "cannot write the trace to /x" >&2\necho "noisy: 1 passed, 0 failed, 0 skipped"\n' >"$fake/noisy"
chmod +x "$fake/a/test" "$fake/b/test" "$fake/noisy"
repro="bash mk/check-make.sh"
out=$(KIT_BUILD="$fake" JOBS=2 bash mk/run-tests.sh "$fake/logs" "$fake/a/test first" "$fake/b/test second" 2>&1)
[ $? = 0 ] && grep -q first "$fake/logs/a-test-first.log" && grep -q second "$fake/logs/b-test-second.log" && ok ||
    bad "run-tests.sh: two programs named test did not pass into logs of their own: $(ls "$fake/logs" | tr '\n' ' ')" "$repro"
out=$(KIT_BUILD="$fake" bash mk/run-tests.sh "$fake/logs" "$fake/noisy" 2>&1)
[ $? = 1 ] && grep -q 'FAIL.*noisy: 1 passed.*but it printed' <<<"$out" && grep -q 'cannot write the trace' <<<"$out" && ok ||
    bad "run-tests.sh: a passing program that printed 'cannot write the trace' was not failed: ${out:0:200}" "$repro"
out=$(KIT_BUILD="$fake" JOBS=2 bash mk/run-tests.sh "$fake/logs" --build "a broken one" "false" "$fake/a/test after" 2>&1)
[ $? = 1 ] && grep -q 'FAIL.*the build of a broken one' <<<"$out" && grep -q 'FAILED: a-test-after (not run)' <<<"$out" &&
    [ ! -f "$fake/logs/a-test-after.log" ] && ok ||
    bad "run-tests.sh: a program listed after a failed --build ran, or the failure went unsaid: ${out:0:200}" "$repro"

# Two programs whose summary lines bear one name fail (make test listed "cpu emulation tests" twice);
# a skipped test's reason reaches the closing lines.
printf '#!/bin/sh\necho "twin: 1 passed, 0 failed, 0 skipped"\n' >"$fake/a/twin"
cp "$fake/a/twin" "$fake/b/twin"
printf '#!/bin/sh\necho "SKIPPED gpu suite (3 tests): no GPU here"\necho "skippy: 1 passed, 0 failed, 3 skipped"\n' >"$fake/skippy"
chmod +x "$fake/a/twin" "$fake/b/twin" "$fake/skippy"
out=$(KIT_BUILD="$fake" JOBS=2 bash mk/run-tests.sh "$fake/logs" "$fake/a/twin" "$fake/b/twin" 2>&1)
[ $? = 1 ] && grep -q "FAILED: .*twin.* both report as 'twin'" <<<"$out" && ok ||
    bad "run-tests.sh: two programs that both report as 'twin' were not failed: ${out:0:300}" "$repro"
out=$(KIT_BUILD="$fake" bash mk/run-tests.sh "$fake/logs" "$fake/skippy" 2>&1)
[ $? = 0 ] && grep -q '^SKIPPED: skippy: gpu suite (3 tests): no GPU here$' <<<"$out" && ok ||
    bad "run-tests.sh: a skipped suite's reason is not in the summary: ${out:0:300}" "$repro"
# A step says when it starts: each build and program that took 5 s or more last time (all of them
# on a first run); one that took less is not announced.
rm -rf "$fake/logs"
out=$(KIT_BUILD="$fake" bash mk/run-tests.sh "$fake/logs" --build "the fakes" true "$fake/skippy" 2>&1)
grep -q '^  \.\. .*building the fakes$' <<<"$out" && grep -q '^  \.\. .*running skippy$' <<<"$out" && ok ||
    bad "run-tests.sh: a first run does not announce its build and programs: ${out:0:300}" "$repro"
printf 'skippy\t7.5\t0\t7.0\nbuild-1\t0.2\t0\t0.1\n' >"$fake/logs/times.tsv"
out=$(KIT_BUILD="$fake" bash mk/run-tests.sh "$fake/logs" --build "the fakes" true "$fake/skippy" 2>&1)
grep -q '^  \.\. .*running skippy (7 s last time)$' <<<"$out" && ! grep -q 'building the fakes' <<<"$out" && ok ||
    bad "run-tests.sh: a 7 s program should be announced and a 0.2 s build not: ${out:0:300}" "$repro"

# CXX=clang++ reaches the grader's CPU builds: make check (mk/check.sh's KIT_CXX) and make grade (--cxx).
grep -q 'KIT_CXX="clang++" .*mk/check.sh' <<<"$(dry check LAB=01 GPU=0 CXX=clang++)" &&
    grep -q -- '--cxx "clang++"' <<<"$(dry grade LAB=01 GPU=0 CXX=clang++)" && ok ||
    bad "CXX=clang++ does not reach the grader of make check and make grade" "make -n check LAB=01 CXX=clang++"
out=$(PATH="$empty/smi-no:$PATH" KIT_CXX=clang++ bash mk/check.sh "$empty/grader-cxx" "$empty" 01-sequential-merge 2>&1)
[ "$out" = "cxx clang++" ] && ok || bad "mk/check.sh does not pass KIT_CXX to the grader as --cxx, got: ${out:0:160}" \
    "bash mk/check-make.sh"

# mk/grade-course.sh runs one shard per core by default, and shows each student as it is graded,
# here with a made-up grader that grades the students of its shard (K of N: every N-th, sorted).
course=$empty/course
mkdir -p "$course/subs/ann" "$course/subs/bob" "$course/subs/cy"
cat >"$course/grader" <<'FAKE'
#!/bin/bash
shard= gather=
while [ $# -gt 0 ]; do
    case $1 in --shard) shard=$2; shift ;; --gather) gather=1 ;; --help) exit 0 ;; esac
    shift
done
[ -n "$gather" ] && { echo "gathered"; exit 0; }
k=${shard%/*} n=${shard#*/} i=0
echo "Shard $k/$n: the students"
for s in ann bob cy; do [ $((i++ % n)) = "$k" ] && echo "  $s: 10/10 (100.0%) in 0.1 s"; done
exit 0
FAKE
chmod +x "$course/grader"
cores=$(nproc 2>/dev/null || echo 2)
out=$(bash mk/grade-course.sh --grader "$course/grader" --out "$course/out" "$course/subs" 2>&1)
[ $? = 0 ] && grep -q "in $cores shards here, $cores at a time" <<<"$out" && grep -q '^  ann: 10/10' <<<"$out" &&
    grep -q '^  bob: 10/10' <<<"$out" && grep -q '^  cy: 10/10' <<<"$out" && grep -q '^  ann: 10/10' "$course/out/logs/shard-0.log" && ok ||
    bad "grade-course: expected $cores shards (one per core) and a line per student on the terminal, got: ${out:0:300}" \
        "bash mk/check-make.sh"

echo "check-make: $passed passed, $failed failed, 0 skipped"
[ $failed = 0 ]
