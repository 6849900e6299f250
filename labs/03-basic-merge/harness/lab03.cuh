/* Lab 3's harness glue, shared by its driver and its tests: how to launch the student's kernel. */
#ifndef LAB03_HARNESS_CUH
#define LAB03_HARNESS_CUH

#include "merge_run.cuh"
#include "merge_basic.cuh"

/* Launches merge_basic_kernel for the key type t. */
static void launch_basic(kit_type t, const void *A, int m, const void *B, int n, void *C, kit_merge_cfg cfg)
{
    kit_type_dispatch(t, [&](auto key) {
        using T = decltype(key);
        KIT_LAUNCH(merge_basic_kernel<T>, cfg.blocks, cfg.threads, 0, (const T *)A, m, (const T *)B, n, (T *)C);
    });
}

static const kit_merge_lab LAB03 = {"03-basic-merge:kernel",
                                    "Lab 3: merge generated sorted arrays with merge_basic_kernel and check the result.",
                                    launch_basic, NULL, NULL, 0,
                                    "how the work is spread over the threads (each thread's global loads and stores)"};

#endif
