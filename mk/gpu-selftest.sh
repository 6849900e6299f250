#!/usr/bin/env bash
# The grader's GPU-mode checks, for a machine with a GPU, nvcc and ncu (the device runs of results/):
#   bash mk/gpu-selftest.sh OUT start   builds, runs the sandbox tests, grades the skeletons and the
#                                        solutions in GPU mode (ncu measures the conflicts), then the
#                                        self-test's broken submissions in GPU mode, in SLICES parallel slices
#   bash mk/gpu-selftest.sh OUT corpus  builds, then the broken submissions in GPU mode alone (as start does)
#   bash mk/gpu-selftest.sh OUT cpu     the broken submissions again in CPU mode on the same machine, then
#                                        the two verdict tables side by side (mk/verdict-table.sh) in
#                                        OUT/verdict-table.md (after start, whose GPU verdicts it reads)
# CUnit comes from .deb/*.deb when the machine lacks it (apt-get download libcunit1 libcunit1-dev), and so does
# libclang 14 (libllvm14 libclang1-14 libclang-common-14-dev libz3-4, and clang-c's headers from libclang-14-dev in
# .deb/clang-c-headers.tar.gz).
set -uo pipefail
out=${1:?usage: mk/gpu-selftest.sh OUT start}
step=${2:?usage: mk/gpu-selftest.sh OUT start}
slices=${SLICES:-10}
gencode="-gencode arch=compute_90,code=sm_90"
sum() { awk -F'\t' -v c="$1" '{ s += $c } END { print s + 0 }' "$2"; }
mkdir -p "$out" build/gpu-selftest

# slices_of MODE FLAGS: the self-test's broken submissions in MODE (gpu or cpu), SLICES at once, each
# slice's verdicts in build/gpu-selftest/verdicts-MODE-K.tsv; prints each slice's last line and failures
slices_of() {
    for k in $(seq 0 $((slices - 1))); do
        mkdir -p "build/gpu-selftest/$1$k"
        rm -f "build/gpu-selftest/verdicts-$1-$k.tsv"
        KIT_SELFTEST_SHARD=$k/$slices KIT_BUILD="build/gpu-selftest/$1$k" KIT_GRADER=build/grader/grader \
            KIT_SELFTEST_MODE=$1 KIT_SELFTEST_VERDICTS="build/gpu-selftest/verdicts-$1-$k.tsv" \
            KIT_NVCC=nvcc KIT_NVCC_FLAGS="$2" build/tests/test_selftest >"$out/selftest-$1-$k.log" 2>&1 &
    done
    wait
    for k in $(seq 0 $((slices - 1))); do
        echo "$1 slice $k: $(tail -1 "$out/selftest-$1-$k.log")"
        grep -E '^ +[0-9]+\. ' "$out/selftest-$1-$k.log" | cut -c1-400
    done
}

if [ "$step" = start ] || [ "$step" = corpus ]; then
    if ! [ -e /usr/include/CUnit/CUnit.h ]; then
        for f in .deb/libcunit*.deb; do dpkg -x "$f" /; done
    fi
    # the lab-file checker's libclang (LLVM 14): its .debs, and clang-c's headers as a tarball
    if ! [ -e /usr/lib/llvm-14/include/clang-c/Index.h ]; then
        for f in .deb/libllvm14*.deb .deb/libclang*.deb .deb/libz3*.deb; do dpkg -x "$f" /; done
        tar -C / -xzf .deb/clang-c-headers.tar.gz
        ldconfig
    fi
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
    date -u | tee -a "$out/device.txt"
    make -j"$(nproc)" build/grader/grader build/grader/labcheck build/libkit.a build/libkitcpu.a build/tools/bankcheck \
        build/tests/test_selftest build/tests/test_sandbox >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
fi
if [ "$step" = corpus ]; then
    slices_of gpu "$gencode"
fi
if [ "$step" = start ]; then
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
    # the broken submissions, in slices at once (their labs' skeleton objects are built above); a
    # device machine goes back 30 s after a call, so the slices run inside this command
    slices_of gpu "$gencode"
fi
if [ "$step" = cpu ]; then
    slices_of cpu ""
    cat build/gpu-selftest/verdicts-gpu-*.tsv >"$out/verdicts-gpu.tsv"
    cat build/gpu-selftest/verdicts-cpu-*.tsv >"$out/verdicts-cpu.tsv"
    bash mk/verdict-table.sh "$out/verdicts-cpu.tsv" "$out/verdicts-gpu.tsv" >"$out/verdict-table.md"
    tail -1 "$out/verdict-table.md"
fi
