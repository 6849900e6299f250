/* Lab 7's harness glue, shared by its driver and its tests: launching cf_merge_kernel, whose E is a template parameter. */
#ifndef LAB07_HARNESS_CUH
#define LAB07_HARNESS_CUH

#include "cf_merge.cuh"
#include "kit_merge_run.cuh"

/* Launches cf_merge_kernel<T, E> for the E in cfg.tile, trying E = LO .. 32 in turn. */
template <typename T, int LO>
struct lab07_dispatch {
    static void launch(const void *A, int m, const void *B, int n, void *C, kit_merge_cfg cfg)
    {
        if (cfg.tile != LO) {
            lab07_dispatch<T, LO + 1>::launch(A, m, B, n, C, cfg);
            return;
        }
        size_t bytes = cf_merge_shared_bytes<T>(LO, cfg.threads);
        void (*kernel)(const T *, int, const T *, int, T *) = cf_merge_kernel<T, LO>;
        KIT_ALLOW_SHARED(kernel, bytes);
        KIT_LAUNCH(kernel, cfg.blocks, cfg.threads, bytes, (const T *)A, m, (const T *)B, n, (T *)C);
    }
};
template <typename T>
struct lab07_dispatch<T, 33> {
    static void launch(const void *, int, const void *, int, void *, kit_merge_cfg) {}
};

static void launch_cf(kit_type t, const void *A, int m, const void *B, int n, void *C, kit_merge_cfg cfg)
{
    /* E (passed as the tile) must be 2 .. 32 and the block whole warps; anything else is refused
       with a launch error, which the harness reports. */
    if (cfg.tile < 2 || cfg.tile > 32 || cfg.threads % CF_W != 0) {
        void (*kernel)(const int32_t *, int, const int32_t *, int, int32_t *) = cf_merge_kernel<int32_t, 2>;
        KIT_LAUNCH(kernel, 1, 0, 0, (const int32_t *)A, m, (const int32_t *)B, n, (int32_t *)C);
        return;
    }
    switch (t) {
    case KIT_TYPE_I32: lab07_dispatch<int32_t, 2>::launch(A, m, B, n, C, cfg); break;
    case KIT_TYPE_I64: lab07_dispatch<int64_t, 2>::launch(A, m, B, n, C, cfg); break;
    case KIT_TYPE_KV32: lab07_dispatch<kit_kv32, 2>::launch(A, m, B, n, C, cfg); break;
    }
}

static const kit_merge_lab LAB07 = {"07-cf-gather:gather",
                                    "Lab 7: merge generated sorted arrays with cf_merge_kernel (--tile is E, 2 .. 32;\n"
                                    "--threads a multiple of 32) and check the result.",
                                    launch_cf};

#endif
