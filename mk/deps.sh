#!/usr/bin/env bash
# Checks what the kit needs and installs what is missing with apt-get when run as root; otherwise
# prints the exact command to run. The CPU path needs a C++ compiler (g++, or CXX=clang++), make,
# binutils and patch (the grader's object check and the self-test's fixtures), libclang (LLVM 14's:
# the lab-file checker grader/labcheck.c, which make check runs too), CUnit for the tests
# and Doxygen for the handbook. nvcc (the CUDA Toolkit) only for a GPU build: KIT_NEED_NVCC=1, which
# the Makefile sets from GPU (GPU=1, or a GPU found by nvidia-smi; make check: GPU=1 asked).
# Usage: deps.sh [check]   check: only what make check needs (not CUnit, which the tests use, nor
#                          Doxygen), so that a student's make check never waits on apt-get for them
set -u
for_check=0
[ "${1:-}" = check ] && for_check=1

if [ "${KIT_NEED_NVCC:-${GPU:-0}}" = 1 ]; then
    cuda=${CUDA_HOME:-/usr/local/cuda}
    nvcc_path=$(command -v nvcc 2>/dev/null || true)
    [ -z "$nvcc_path" ] && [ -x "$cuda/bin/nvcc" ] && nvcc_path=$cuda/bin/nvcc
    if [ -z "$nvcc_path" ]; then
        echo "deps: nvcc not found, and a GPU build is asked for (GPU=1, or a GPU is here). Install the CUDA" >&2
        echo "      Toolkit (https://developer.nvidia.com/cuda-downloads) and put its bin/ folder in PATH, or run" >&2
        echo "      make with NVCC=/path/to/nvcc; or GPU=0 for the CPU build alone, which needs no nvcc." >&2
        exit 1
    fi
fi
if ! command -v "${CXX:-g++}" >/dev/null 2>&1; then
    echo "deps: no C++ compiler '${CXX:-g++}': install g++ (sudo apt-get install -y g++) or name one with CXX=" >&2
    exit 1
fi

missing=()
required_ok=1
if [ $for_check = 0 ] && ! echo '#include <CUnit/CUnit.h>' | ${CC:-gcc} -E -x c - >/dev/null 2>&1; then
    missing+=(libcunit1-dev)
    required_ok=0
fi
[ $for_check = 1 ] || command -v doxygen >/dev/null 2>&1 || missing+=(doxygen)
for tool in nm readelf c++filt; do command -v $tool >/dev/null 2>&1 || { missing+=(binutils); required_ok=0; break; }; done
command -v patch >/dev/null 2>&1 || { missing+=(patch); required_ok=0; }
llvm=${LLVM_DIR:-/usr/lib/llvm-14}
[ -f "$llvm/include/clang-c/Index.h" ] && [ -e "$llvm/lib/libclang.so" ] || { missing+=(libclang-dev); required_ok=0; }
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "deps: installing ${missing[*]} with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    if apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 ||
        { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q "${missing[@]}" >/dev/null 2>&1; }; then
        exit 0
    fi
    echo "deps: apt-get could not install ${missing[*]}" >&2
    # Doxygen only builds the handbook, whose check in make test then says it was skipped.
    [ $required_ok = 1 ] && [ "${missing[*]}" = doxygen ] && exit 0
    exit 1
fi

echo "deps: missing ${missing[*]}; install with:" >&2
echo "      sudo apt-get install -y ${missing[*]}" >&2
# CUnit, binutils and patch are needed by the tests; Doxygen only for the documentation.
[ $required_ok = 1 ] && exit 0
exit 1
