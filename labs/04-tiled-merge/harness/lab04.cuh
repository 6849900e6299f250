/* Lab 4's harness glue, shared by its driver and its tests: how to launch the student's kernel. */
#ifndef LAB04_HARNESS_CUH
#define LAB04_HARNESS_CUH

#include "../../03-basic-merge/harness/merge_run.cuh"
#include "merge_tiled.cuh"

/** Bytes of dynamic shared memory merge_tiled_kernel needs: an A tile, a B tile, and two ints. */
template <typename T>
KIT_HD size_t merge_tiled_shared_bytes(int tile)
{
    return 2 * (size_t)tile * sizeof(T) + 2 * sizeof(int);
}

/* Launches merge_tiled_kernel for the key type t, with the shared memory it needs. */
static void launch_tiled(kit_type t, const void *A, int m, const void *B, int n, void *C, kit_merge_cfg cfg)
{
    kit_type_dispatch(t, [&](auto key) {
        using T = decltype(key);
        size_t bytes = merge_tiled_shared_bytes<T>(cfg.tile);
        KIT_LAUNCH_SHARED(merge_tiled_kernel<T>, cfg.blocks, cfg.threads, bytes, (const T *)A, m, (const T *)B, n, (T *)C, cfg.tile);
    });
}

static const kit_merge_lab LAB04 = {"04-tiled-merge:kernel",
                                    "Lab 4: merge generated sorted arrays with merge_tiled_kernel and check the result.",
                                    launch_tiled, NULL, NULL, 0,
                                    "the work spread over the threads, the tiles' shared-memory traffic and its bank conflicts"};

#endif
