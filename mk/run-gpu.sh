#!/usr/bin/env bash
# make run on a GPU: runs the lab's GPU driver. When it fails (a kernel's illegal address, say) and
# compute-sanitizer is here, it runs the driver once more under memcheck, which names the kernel,
# the thread, the block and the address: the GPU's counterpart of the CPU build's checked memory.
# The exit status is the first run's.
# Usage: run-gpu.sh DRIVER [ARGS...]
driver=${1:?usage: run-gpu.sh DRIVER [ARGS...]}
shift
"$driver" "$@"
status=$?
if [ $status -ne 0 ] && command -v compute-sanitizer >/dev/null 2>&1; then
    echo "(the run failed, exit $status: once more under compute-sanitizer's memcheck, which names the kernel, the thread and the address)"
    compute-sanitizer --tool memcheck --print-limit 1 "$driver" "$@"
fi
exit $status
