/* Lab 5's harness glue, shared by its driver and its tests: how to launch the student's kernel. */
#ifndef LAB05_HARNESS_CUH
#define LAB05_HARNESS_CUH

#include "../../03-basic-merge/harness/merge_run.cuh"
#include "circular_given.cuh" /* before the student's file: the layout helpers its kernel uses */
#include "merge_circular.cuh"

template <typename T>
static void launch_typed(const void *A, int m, const void *B, int n, void *C, kit_merge_cfg cfg)
{
    size_t bytes = merge_circular_shared_bytes<T>(cfg.tile, cfg.threads);
    KIT_ALLOW_SHARED(merge_circular_kernel<T>, bytes);
    KIT_LAUNCH(merge_circular_kernel<T>, cfg.blocks, cfg.threads, bytes, (const T *)A, m, (const T *)B, n, (T *)C, cfg.tile);
}

static void launch_circular(kit_type t, const void *A, int m, const void *B, int n, void *C, kit_merge_cfg cfg)
{
    switch (t) {
    case KIT_TYPE_I32: launch_typed<int32_t>(A, m, B, n, C, cfg); break;
    case KIT_TYPE_I64: launch_typed<int64_t>(A, m, B, n, C, cfg); break;
    case KIT_TYPE_KV32: launch_typed<kit_kv32>(A, m, B, n, C, cfg); break;
    }
}

static const kit_merge_lab LAB05 = {"05-circular-merge:kernel",
                                    "Lab 5: merge generated sorted arrays with merge_circular_kernel and check the result.",
                                    launch_circular, NULL, NULL, 0};

#endif
