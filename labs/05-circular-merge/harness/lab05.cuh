/* Lab 5's harness glue, shared by its driver and its tests: how to launch the student's kernel. */
#ifndef LAB05_HARNESS_CUH
#define LAB05_HARNESS_CUH

#include "../../03-basic-merge/harness/merge_run.cuh"
#include "circular_given.cuh" /* before the student's file: the layout helpers its kernel uses */
#include "merge_circular.cuh"

/* Launches merge_circular_kernel for the key type t, with the shared memory it needs. */
static void launch_circular(kit_type t, const void *A, int m, const void *B, int n, void *C, kit_merge_cfg cfg)
{
    kit_type_dispatch(t, [&](auto key) {
        using T = decltype(key);
        size_t bytes = merge_circular_shared_bytes<T>(cfg.tile, cfg.threads);
        KIT_LAUNCH_SHARED(merge_circular_kernel<T>, cfg.blocks, cfg.threads, bytes, (const T *)A, m, (const T *)B, n, (T *)C, cfg.tile);
    });
}

static const kit_merge_lab LAB05 = {"05-circular-merge:kernel",
                                    "Lab 5: merge generated sorted arrays with merge_circular_kernel and check the result.",
                                    launch_circular, NULL, NULL, 0,
                                    "the work spread over the threads, the tiles' shared-memory traffic and its bank conflicts"};

#endif
