#!/usr/bin/env bash
# make check: one lab's public tests (its grading.spec: the names, inputs and thresholds make grade
# uses), run on your labs/ file by the grader itself. The CPU build always; the GPU build too where
# there is a GPU. A lab whose tests use several (type, E) pairs (labs 7 and 9) is built as one runner
# per core, each for some of the pairs, compiled at once (the grader's --build-jobs). Quiet on
# success: a line per lab and build; a line per failure, with the command that reruns it. The
# self-test runs this script too, on a broken submission.
# Usage: check.sh GRADER BUILD LAB [TEST]
#   KIT_CHECK_SUBMISSION  the folder of lab folders to check (default labs)
#   KIT_NVCC, KIT_NVCC_FLAGS  the GPU build's compiler and its flags
#   KIT_CHECK_ARGS        more grader options, space-separated (mk/bench-check.sh asks for --json)
set -u
grader=$1 build=$2 lab=$3 test=${4:-}
args=(--kit . --submission "${KIT_CHECK_SUBMISSION:-labs}" --lab "$lab" --public --brief --work "$build/grade"
      --build-jobs "$(nproc 2>/dev/null || echo 1)") # more than 8 are cut to 8
[ -n "$test" ] && args+=(--test "$test")
read -r -a more <<<"${KIT_CHECK_ARGS:-}"
args+=("${more[@]+"${more[@]}"}")

cpu=0 gpu=0
"$grader" "${args[@]}" --mode cpu --libkit-cpu "$build/libkitcpu.a" || cpu=$?
if nvidia-smi -L >/dev/null 2>&1; then
    "$grader" "${args[@]}" --mode gpu --libkit "$build/libkit.a" --nvcc "${KIT_NVCC:-nvcc}" \
        --nvcc-flags "${KIT_NVCC_FLAGS:-}" || gpu=$?
fi
exit $((cpu > gpu ? cpu : gpu)) # 1: a test failed; 2: the grader could not run
