/* Lab 3's harness glue, shared by its driver and its tests: how to launch the student's kernel. */
#ifndef LAB03_HARNESS_CUH
#define LAB03_HARNESS_CUH

#include "merge_run.cuh"
#include "merge_basic.cuh"

template <typename T>
static void launch_typed(const void *A, int m, const void *B, int n, void *C, kit_merge_cfg cfg)
{
    KIT_LAUNCH(merge_basic_kernel<T>, cfg.blocks, cfg.threads, 0, (const T *)A, m, (const T *)B, n, (T *)C);
}

static void launch_basic(kit_type t, const void *A, int m, const void *B, int n, void *C, kit_merge_cfg cfg)
{
    switch (t) {
    case KIT_TYPE_I32: launch_typed<int32_t>(A, m, B, n, C, cfg); break;
    case KIT_TYPE_I64: launch_typed<int64_t>(A, m, B, n, C, cfg); break;
    case KIT_TYPE_KV32: launch_typed<kit_kv32>(A, m, B, n, C, cfg); break;
    }
}

static const kit_merge_lab LAB03 = {"03-basic-merge:kernel",
                                    "Lab 3: merge generated sorted arrays with merge_basic_kernel and check the result.",
                                    launch_basic, NULL, NULL, 0};

#endif
