#!/usr/bin/env bash
# the GPU-mode checks after the fixes of 2026-12-06 (ncu's view, lab 1's canaries): one device run
out=$1
mkdir -p "$out"
[ -e /usr/include/CUnit/CUnit.h ] || for f in .deb/libcunit*.deb; do dpkg -x "$f" /; done
if ! [ -e /usr/lib/llvm-14/include/clang-c/Index.h ]; then
    for f in .deb/libllvm14*.deb .deb/libclang*.deb .deb/libz3*.deb; do dpkg -x "$f" /; done
    tar -C / -xzf .deb/clang-c-headers.tar.gz
fi
dpkg -x .deb/libz3-4*.deb / ; ldconfig
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"; date -u | tee -a "$out/device.txt"
make -j16 build/grader/grader build/grader/labcheck build/libkit.a build/libkitcpu.a >"$out/build.log" 2>&1 || { tail -5 "$out/build.log"; exit 1; }
g="-gencode arch=compute_90,code=sm_90"
rm -rf /tmp/ow && mkdir -p /tmp/ow && cp -r solutions/01-sequential-merge /tmp/ow/ && (cd /tmp/ow && patch -s -p1 < "$OLDPWD/grader/tests/submissions/oob-write/patch.diff")
for l in 06 03; do
  build/grader/grader --kit . --mode gpu --nvcc-flags "$g" --lab $l --expect 100 --tsv "$out/sol-$l.tsv" > "$out/sol-$l.log" 2>&1; echo "solution $l: exit $? $(tail -1 "$out/sol-$l.log")"
done
build/grader/grader --kit . --mode gpu --nvcc-flags "$g" --submission labs --lab 03 --tsv "$out/skel-03.tsv" > "$out/skel-03.log" 2>&1; echo "skeleton 03: $(cut -f1-5 "$out/skel-03.tsv" | tr '\n' ' ')"
build/grader/grader --kit . --mode gpu --nvcc-flags "$g" --submission /tmp/ow --lab 01 --tsv "$out/oob-write.tsv" > "$out/oob-write.log" 2>&1; echo "oob-write: $(cut -f1-6 "$out/oob-write.tsv" | cut -c1-200 | tr '\n' ' ')"
