#!/usr/bin/env bash
# The grader's GPU-mode checks, for a machine with a GPU, nvcc and ncu (the device runs of results/):
#   bash mk/gpu-selftest.sh OUT start   builds, grades the skeletons and the solutions in GPU mode (ncu
#                                        measures the conflicts), then starts the self-test's broken
#                                        submissions in GPU mode, in SLICES parallel slices, in the background
#   bash mk/gpu-selftest.sh OUT collect  waits for the slices (at most WAIT seconds) and prints their summaries
# CUnit comes from .deb/*.deb when the machine lacks it (apt-get download libcunit1 libcunit1-dev).
set -uo pipefail
out=${1:?usage: mk/gpu-selftest.sh OUT start|collect}
step=${2:?usage: mk/gpu-selftest.sh OUT start|collect}
slices=${SLICES:-8}
gencode="-gencode arch=compute_90,code=sm_90"
sum() { awk -F'\t' -v c="$1" '{ s += $c } END { print s + 0 }' "$2"; }
mkdir -p "$out" build/gpu-selftest

if [ "$step" = start ]; then
    if ! [ -e /usr/include/CUnit/CUnit.h ]; then
        for f in .deb/*.deb; do dpkg -x "$f" /; done
    fi
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
    date -u | tee -a "$out/device.txt"
    make -j"$(nproc)" build/grader/grader build/libkit.a build/libkitcpu.a build/tools/bankcheck \
        build/tests/test_selftest build/tests/test_sandbox >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
    build/tests/test_sandbox >"$out/test_sandbox.log" 2>&1
    tail -1 "$out/test_sandbox.log"
    # the skeletons, every lab at once: this also builds each lab's skeleton object for the object check
    for l in 01 02 03 04 05 06 07 08 09; do
        build/grader/grader --kit . --mode gpu --nvcc-flags "$gencode" --submission labs --lab $l --tsv "build/gpu-selftest/skel-$l.tsv" \
            >"build/gpu-selftest/skel-$l.log" 2>&1 &
    done
    wait
    cat build/gpu-selftest/skel-*.tsv >"$out/skeletons.tsv"
    echo "skeletons: $(sum 3 "$out/skeletons.tsv") points (expected 0), $(grep -c not-attempted "$out/skeletons.tsv") of $(wc -l <"$out/skeletons.tsv") tasks not attempted"
    # the solutions: labs without a conflict threshold at once, then those that ncu measures, one at a time
    for l in 01 02 03 04 05; do
        build/grader/grader --kit . --mode gpu --nvcc-flags "$gencode" --lab $l --expect 100 --tsv "build/gpu-selftest/sol-$l.tsv" \
            >"build/gpu-selftest/sol-$l.log" 2>&1 &
    done
    wait
    for l in 06 07 08 09; do
        build/grader/grader --kit . --mode gpu --nvcc-flags "$gencode" --lab $l --expect 100 --tsv "build/gpu-selftest/sol-$l.tsv" \
            >"build/gpu-selftest/sol-$l.log" 2>&1
    done
    cat build/gpu-selftest/sol-*.tsv >"$out/solutions.tsv"
    cat build/gpu-selftest/sol-*.log >"$out/solutions.log"
    echo "solutions: $(sum 3 "$out/solutions.tsv") of $(sum 4 "$out/solutions.tsv") points"
    # the broken submissions, in slices, outliving this command (setsid)
    for k in $(seq 0 $((slices - 1))); do
        mkdir -p "build/gpu-selftest/st$k"
        setsid env KIT_SELFTEST_SHARD=$k/$slices KIT_BUILD="build/gpu-selftest/st$k" KIT_GRADER=build/grader/grader \
            KIT_NVCC=nvcc KIT_NVCC_FLAGS="$gencode" \
            bash -c "build/tests/test_selftest >build/gpu-selftest/selftest-$k.log 2>&1; echo \$? >build/gpu-selftest/selftest-$k.rc" \
            </dev/null >/dev/null 2>&1 &
    done
    echo "started $slices slices of the GPU-mode self-test"
elif [ "$step" = collect ]; then
    for s in $(seq 1 "${WAIT:-540}"); do
        [ "$(ls build/gpu-selftest/selftest-*.rc 2>/dev/null | wc -l)" -ge "$slices" ] && break
        sleep 1
    done
    for k in $(seq 0 $((slices - 1))); do
        cp "build/gpu-selftest/selftest-$k.log" "$out/" 2>/dev/null
        echo "slice $k: exit $(cat build/gpu-selftest/selftest-$k.rc 2>/dev/null || echo 'still running'); $(tail -1 build/gpu-selftest/selftest-$k.log 2>/dev/null)"
        grep -E '^ +[0-9]+\. ' "build/gpu-selftest/selftest-$k.log" 2>/dev/null | cut -c1-400
    done
fi
