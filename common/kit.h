/** @file
 * The map of common/: every header of the kit's library, each with what it is for. Including this
 * one header gets you the first group, the host library; include any other yourself, where its
 * line says it can be used. mk/check-docs.sh (make test) fails if a header of common/ is missing
 * from this list, or if the list names one that is not there.
 *
 * The host library, included here (C, and C++ through the same headers):
 * - kit_types.h        key types (int32, int64, kit_kv32) and KIT_HD
 * - kit_lab.h          what a student file may use: KIT_HD, the key types, the "not implemented" marker
 * - kit_gen.h          seeded generators for arrays and merge inputs
 * - kit_check.h        checks by property: a stable merge or sort, co-rank, predecessor; array comparison
 * - kit_pbs.h          lab 6's host side: query sets, the paper's PBS count
 * - kit_timer.h        host wall-clock timer
 * - kit_mem.h          kit_malloc: big buffers on transparent huge pages
 * - kit_cli.h          the options every lab driver shares
 * - kit_proto.h        the request/reply files between the grader and a lab runner
 * - kit_request.h      the typed request in those files: each op's named fields (u, w, E, ...), encoded and checked
 * - kit_driver.h       what every lab driver shares: options, printing, serving the grader, kit_xmalloc
 *
 * Bank conflicts, counted (C):
 * - kit_bank.h         the bank-conflict simulator: the papers' w banks, on recorded shared-memory accesses
 * - kit_trace.h        the stream on descriptor 3 in which a graded runner reports its launches and accesses
 * - kit_ncu.h          reads Nsight Compute's CSV (--csv) for per-launch metrics such as bank conflicts
 *
 * Kernels on a GPU or on the CPU (CUDA C++):
 * - kit_cuda.h         CUDA_CHECK, the GPU probe and the event timer (.cu files only)
 * - kit_device.h       shared-memory accesses and kernel launches, written once for nvcc and the CPU build
 * - kit_cpu.h          the CPU stand-in for CUDA (g++ -DKIT_CPU): built-ins and runtime, kernels run on the CPU
 * - bank_micro.cuh     micro-kernels of known access patterns, for bankcheck (simulator against ncu)
 *
 * What lab harnesses and runners share:
 * - kit_merge_run.cuh  labs 3 to 5: a merge kernel run on host arrays, the driver, the answer to the grader
 * - kit_runner_pairs.h labs 7 and 9: the (key type, E) pairs a runner is built for (C++ only)
 * - kit_worst.h        labs 8 and 9: the merge sort's worst-case input, per warp and for N keys
 * - kit_jail.h         the seccomp jail a CPU-emulated runner enters before student code, and its filter builder
 *
 * The kit's tests (they need CUnit):
 * - kit_test.h         the CUnit layer every test program shares: one main, skips, readable failures
 * - kit_test_gpu.h     device suites: on a GPU, or on the CPU emulation in the CPU build, else skipped
 * - kit_merge_test.cuh the tests every merge-kernel lab (3 to 5) runs
 * - kit_counted.h      a key type that counts comparisons (C++ only)
 *
 * Not in common/: the programs for people are in common/tools/ (bankviz and its figure drawer
 * tools/kit_viz.h, benchplot and its reader of sort_bench's logs tools/kit_sortlog.h, bankcheck,
 * worst_case); no library of the kit links them.
 */
#ifndef KIT_H
#define KIT_H

#include "kit_cli.h"
#include "kit_driver.h"
#include "kit_gen.h"
#include "kit_lab.h"
#include "kit_mem.h"
#include "kit_pbs.h"
#include "kit_proto.h"
#include "kit_request.h"
#include "kit_check.h"
#include "kit_timer.h"
#include "kit_types.h"

#endif
