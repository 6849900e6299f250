#!/usr/bin/env bash
# make check: one lab's public tests (its grading.spec: the names, inputs and thresholds make grade
# uses), run on your labs/ file by the grader itself. The CPU build always; the GPU build too when
# asked (KIT_CHECK_GPU=1, which make check's GPU=1 sets) on a machine with a GPU. The GPU build's
# nvcc compile and ncu runs take 5 s to a minute a lab, so without GPU=1 make check stays a loop of a
# few seconds, and on a GPU machine it says, in one line, how to add the GPU build. A lab whose
# tests use several (type, E) pairs (labs 7 and 9) is built as one runner per core, each for some
# of the pairs, compiled at once (the grader's --build-jobs). Quiet on success: a line per lab and
# build; a line per failure, with the command that reruns it. The self-test runs this script too,
# on a broken submission.
# Usage: check.sh GRADER BUILD LAB [TEST]
#   KIT_CHECK_GPU         1: the GPU build too (it fails, saying so, where no GPU is found)
#   KIT_CHECK_SUBMISSION  the folder of lab folders to check (default labs)
#   KIT_NVCC, KIT_NVCC_FLAGS  the GPU build's compiler and its flags
#   KIT_CXX               the CPU build's C++ compiler (make's CXX: g++, or clang++)
#   KIT_CHECK_ARGS        more grader options, space-separated (mk/bench-check.sh asks for --json)
set -u
grader=$1 build=$2 lab=$3 test=${4:-}
args=(--kit . --submission "${KIT_CHECK_SUBMISSION:-labs}" --lab "$lab" --public --brief --work "$build/grade"
      --build-jobs "$(nproc 2>/dev/null || echo 1)") # more than 8 are cut to 8
[ -n "$test" ] && args+=(--test "$test")
read -r -a more <<<"${KIT_CHECK_ARGS:-}"
args+=("${more[@]+"${more[@]}"}")

cpu=0 gpu=0
mkdir -p "$build/check"
log=$(mktemp "$build/check/$lab.XXXXXX.log") # the CPU build's lines, for the figures below
trap 'rm -f "$log"' EXIT
"$grader" "${args[@]}" --mode cpu --libkit-cpu "$build/libkitcpu.a" --cxx "${KIT_CXX:-g++}" | tee "$log"
cpu=${PIPESTATUS[0]}

# A test failed on its bank conflicts: draw the kernel's worst warp step in it (bankviz --worst), from
# the trace of the CPU build's driver on the test's own input (the line's "input: make run" command).
# Only for labs/, whose driver make builds; two tests at most, and never a change to the verdict.
if [ "${KIT_CHECK_SUBMISSION:-labs}" = labs ] && grep -q "bank conflicts [0-9]*.*input: make run" "$log"; then
    driver="$build/labs/student-cpu/$lab/driver" bankviz="$build/tools/bankviz"
    if make -s --no-print-directory BUILD="$build" "$driver" "$bankviz" >"$build/check/figures-build.log" 2>&1; then
        grep "bank conflicts [0-9]*.*input: make run" "$log" | head -n 2 | while IFS= read -r line; do
            name=$(sed -n 's/^ *FAIL test \([^ ]*\) .*/\1/p' <<<"$line")
            run_args=$(sed -n 's/.*input: make run LAB=[0-9]* ARGS="\([^"]*\)".*/\1/p' <<<"$line")
            [ -n "$name" ] && [ -n "$run_args" ] || continue
            trace="$build/check/$lab-$name.trace" svg="$build/check/$lab-$name.svg"
            read -r -a run <<<"$run_args"
            if "$driver" "${run[@]}" --trace "$trace" >/dev/null 2>&1 &&
                "$bankviz" --trace "$trace" --worst --format svg >"$svg" 2>/dev/null; then
                echo "  the worst warp step of your kernel in test $name: $svg (bankviz --worst; open it in a browser)"
            fi
        done
    fi
fi
has_gpu() { nvidia-smi -L >/dev/null 2>&1; }
if [ "${KIT_CHECK_GPU:-0}" = 1 ] && has_gpu; then
    "$grader" "${args[@]}" --mode gpu --libkit "$build/libkit.a" --nvcc "${KIT_NVCC:-nvcc}" \
        --nvcc-flags "${KIT_NVCC_FLAGS:-}" || gpu=$?
elif [ "${KIT_CHECK_GPU:-0}" = 1 ]; then
    echo "make check: GPU=1 asks for the GPU build, and no GPU was found (nvidia-smi -L fails)" >&2
    gpu=2
elif has_gpu; then
    echo "(a GPU is here: make check LAB=${lab%%-*} GPU=1 adds the GPU build, nvcc and ncu)"
fi
exit $((cpu > gpu ? cpu : gpu)) # 1: a test failed; 2: the grader could not run
