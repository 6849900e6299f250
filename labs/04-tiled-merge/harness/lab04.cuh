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

template <typename T>
static void launch_typed(const void *A, int m, const void *B, int n, void *C, kit_merge_cfg cfg)
{
    size_t bytes = merge_tiled_shared_bytes<T>(cfg.tile);
    KIT_ALLOW_SHARED(merge_tiled_kernel<T>, bytes);
    KIT_LAUNCH(merge_tiled_kernel<T>, cfg.blocks, cfg.threads, bytes, (const T *)A, m, (const T *)B, n, (T *)C, cfg.tile);
}

static void launch_tiled(kit_type t, const void *A, int m, const void *B, int n, void *C, kit_merge_cfg cfg)
{
    switch (t) {
    case KIT_TYPE_I32: launch_typed<int32_t>(A, m, B, n, C, cfg); break;
    case KIT_TYPE_I64: launch_typed<int64_t>(A, m, B, n, C, cfg); break;
    case KIT_TYPE_KV32: launch_typed<kit_kv32>(A, m, B, n, C, cfg); break;
    }
}

static const kit_merge_lab LAB04 = {"04-tiled-merge:kernel",
                                    "Lab 4: merge generated sorted arrays with merge_tiled_kernel and check the result.",
                                    launch_tiled, NULL, NULL, 0};

#endif
