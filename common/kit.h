/** @file
 * The map of common/: include this one header to get the whole host library.
 * - kit_types.h  key types (int32, int64, kit_kv32) and KIT_HD
 * - kit_lab.h    what a student file may use: the "not implemented" marker
 * - kit_gen.h    seeded generators for arrays and merge inputs
 * - kit_check.h  checks by property: a stable merge or sort, co-rank, predecessor; array comparison
 * - kit_pbs.h    lab 6's host side: query sets, the paper's PBS count
 * - kit_timer.h  host timer
 * - kit_cli.h    the options every lab driver shares
 * - kit_proto.h  the request/reply files between the grader and a lab runner
 * - kit_driver.h what every lab driver shares: options, printing, serving the grader, kit_xmalloc
 * - kit_mem.h    kit_malloc: big buffers on transparent huge pages
 * - kit_cuda.h   CUDA_CHECK, the GPU probe and the event timer (.cu files only)
 * - kit_test.h   the CUnit layer of the kit's tests (include it yourself; it needs CUnit)
 * - kit_counted.h a key type that counts comparisons (C++ only; include it yourself)
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
#include "kit_check.h"
#include "kit_timer.h"
#include "kit_types.h"

#endif
