/** @file
 * The map of common/: every header of the kit's library, each with what it is for. Including this
 * one header gets you the first group, the host library; include any other yourself, where its
 * line says it can be used. mk/check-docs.sh (make test) fails if a header of common/ is missing
 * from this list, or if the list names one that is not there.
 *
 * The host library, included here (C, and C++ through the same headers):
 * - kit_types.h        key types (int32, int64, kit_kv32) and KIT_HD
 * - kit_lab.h          what a student file may use: KIT_HD, the key types, kit_gcd, the "not implemented" marker
 * - kit_stub.h         the "not implemented" marker of a skeleton's bodies, and what the harness reads back
 * - kit_gen.h          seeded generators for arrays and merge inputs
 * - kit_check.h        checks by property: a stable merge or sort, co-rank, predecessor; array comparison
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
 * - kit_cpu_mem.h      the CPU emulation's checked memory: the device heap, and the check of every load and store
 * - bank_micro.cuh     micro-kernels of known access patterns, for bankcheck (simulator against ncu)
 *
 * What lab harnesses and runners share:
 * - kit_runner_pairs.h labs 7 and 9: the (key type, E) pairs a runner is built for (C++ only)
 * - kit_jail.h         the seccomp jail a CPU-emulated runner enters before student code, and its filter builder
 *
 * The kit's tests (they need CUnit):
 * - kit_test.h         the CUnit layer every test program shares: one main, skips, readable failures
 * - kit_test_gpu.h     device suites: on a GPU, or on the CPU emulation in the CPU build, else skipped
 * - kit_counted.h      a key type that counts comparisons (C++ only)
 *
 * Not in common/, because each belongs to one lab: a lab's given host code lives in its harness/
 * (labs/NN-slug/harness/), and later labs include it from there:
 * - 03-basic-merge/harness/merge_run.cuh   a merge kernel run on host arrays, the driver and the
 *   answer to the grader, for labs 3, 4, 5 and 7; merge_test.cuh beside it, the tests they share
 * - 06-predecessor-search/harness/pbs_host.h lab 6's query sets and the paper's PBS count
 * - 08-worst-case/harness/worst_host.h     lab 8's warp, assembled from the student's subproblem and order
 * The Makefile compiles every .c file of a harness into the host library, so runners, grader and tools link it.
 *
 * Also not in common/: the programs for people are in common/tools/ (bankviz and its figure drawer
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
#include "kit_proto.h"
#include "kit_request.h"
#include "kit_check.h"
#include "kit_timer.h"
#include "kit_types.h"

#endif
