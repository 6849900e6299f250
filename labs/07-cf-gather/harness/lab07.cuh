/* Lab 7's harness glue, shared by its driver and its tests: launching cf_merge_kernel, whose E is a template parameter. */
#ifndef LAB07_HARNESS_CUH
#define LAB07_HARNESS_CUH

#include "cf_given.cuh" /* before the student's file: w */
#include "cf_merge.cuh"
#include "cf_kernel.cuh" /* after it: the given block merge kernel that calls its functions */
#include "co_rank.cuh" /* lab 2: the measured tile's co-ranks */
#include "../../03-basic-merge/harness/merge_run.cuh"
#include "kit_runner_pairs.h"

/* Launches cf_merge_kernel<T, E> for the E in cfg.tile, trying E = LO .. 32 in turn (only the
   pairs the runner is built for: kit_runner_pairs.h). */
template <typename T, int LO>
struct lab07_dispatch {
    static void launch(const void *A, int m, const void *B, int n, void *C, kit_merge_cfg cfg)
    {
        if (cfg.tile != LO) {
            lab07_dispatch<T, LO + 1>::launch(A, m, B, n, C, cfg);
            return;
        }
        if constexpr (kit_runner_has<T>(LO)) { /* launch_cf refused the pairs the runner is built without */
            size_t bytes = cf_merge_shared_bytes<T>(LO, cfg.threads);
            KIT_LAUNCH_SHARED((cf_merge_kernel<T, LO>), cfg.blocks, cfg.threads, bytes, (const T *)A, m, (const T *)B, n, (T *)C);
        }
    }
};
template <typename T>
struct lab07_dispatch<T, 33> {
    static void launch(const void *, int, const void *, int, void *, kit_merge_cfg) {}
};

static void launch_cf(kit_type t, const void *A, int m, const void *B, int n, void *C, kit_merge_cfg cfg)
{
    /* E (passed as the tile) must be 2 .. 32, one the runner is built for, and the block whole
       warps; anything else is refused with a launch error, which the harness reports. */
    if (cfg.tile < 2 || cfg.tile > 32 || cfg.threads % CF_W != 0 || !kit_runner_has_pair(t, cfg.tile)) {
        KIT_LAUNCH((cf_merge_kernel<int32_t, 2>), 1, 0, 0, (const int32_t *)A, m, (const int32_t *)B, n, (int32_t *)C);
        return;
    }
    kit_type_dispatch(t, [&](auto key) { lab07_dispatch<decltype(key), 2>::launch(A, m, B, n, C, cfg); });
}

/**
 * The gather alone, the kernel whose conflicts lab 7 is graded on: one block stores the first
 * tile permuted, then each thread reads its E keys in E rounds, with splits computed on the host.
 * It writes every key it reads, so that no read is optimized away.
 */
template <typename T, int E>
__global__ void cf_gather_probe(const T *A, int n_a, const T *B, const int *a_split, T *out)
{
    kit_shared<T> S = KIT_DYNAMIC_SHARED(T);
    int u = (int)blockDim.x, tile = u * E, i = (int)threadIdx.x;
    for (int x = i; x < tile; x += u) {
        T v = x < n_a ? A[x] : B[x - n_a];
        S[cf_slot(x < n_a ? x : tile - 1 - (x - n_a), E)] = v;
    }
    __syncthreads();
    int a_i = a_split[i], my_a = a_split[i + 1] - a_i;
    KIT_UNROLL
    for (int j = 0; j < E; j++) {
        int origin;
        T v = S[cf_slot(cf_gather_index(j, a_i, i * E - a_i, my_a, E, tile, &origin), E)];
        out[(size_t)i * E + origin] = v;
    }
}

template <typename T, int LO>
struct lab07_probe_dispatch {
    static void launch(const T *A, int n_a, const T *B, const int *a_split, T *out, int E, int u)
    {
        if (E != LO) {
            lab07_probe_dispatch<T, LO + 1>::launch(A, n_a, B, a_split, out, E, u);
            return;
        }
        if constexpr (kit_runner_has<T>(LO)) { /* lab07_measure_typed skips the pairs the runner is built without */
            size_t bytes = cf_merge_shared_bytes<T>(LO, u);
            KIT_LAUNCH_SHARED((cf_gather_probe<T, LO>), 1, u, bytes, A, n_a, B, a_split, out);
        }
    }
};
template <typename T>
struct lab07_probe_dispatch<T, 33> {
    static void launch(const T *, int, const T *, const int *, T *, int, int) {}
};

/* x clamped into [lo, hi] (lo below 0 counts as 0). */
static int lab07_clamp(int x, int lo, int hi)
{
    lo = lo < 0 ? 0 : lo;
    return x < lo ? lo : x > hi ? hi : x;
}

/* Lab 7's measured kernel: the gather of the first full tile of the merge of A and B (none if the inputs are shorter). */
template <typename T>
static void lab07_measure_typed(const T *A, int m, const T *B, int n, kit_merge_cfg cfg)
{
    int E = cfg.tile, u = cfg.threads, tile = u * E;
    if (E < 2 || E > 32 || !kit_runner_has<T>(E) || u % CF_W != 0 || m + n < tile)
        return;
    /* lab 2's co_rank, on the host; clamped into range, so that a skeleton's or a wrong co_rank
       cannot make the harness read past A or B (the gather's check then fails instead) */
    int ta = lab07_clamp(co_rank(tile, A, m, B, n), tile - n, m), tb = tile - ta;
    int *split = (int *)kit_xmalloc(((size_t)u + 1) * sizeof(int));
    for (int i = 0; i <= u; i++)
        split[i] = lab07_clamp(co_rank(i * E, A, ta, B, tb), i * E - tb, ta < i * E ? ta : i * E);
    T *d_A = (T *)kit_device_copy(A, (size_t)ta * sizeof(T) + 1), *d_B = (T *)kit_device_copy(B, (size_t)tb * sizeof(T) + 1);
    int *d_split = (int *)kit_device_copy(split, ((size_t)u + 1) * sizeof(int));
    T *d_out;
    CUDA_CHECK(cudaMalloc(&d_out, (size_t)tile * sizeof(T)));
    lab07_probe_dispatch<T, 2>::launch(d_A, ta, d_B, d_split, d_out, E, u);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_split);
    cudaFree(d_out);
    free(split);
}

static void measure_cf(kit_type t, const void *A, int m, const void *B, int n, kit_merge_cfg cfg)
{
    kit_type_dispatch(t, [&](auto key) {
        using T = decltype(key);
        lab07_measure_typed<T>((const T *)A, m, (const T *)B, n, cfg);
    });
}

/* Lab 7's launch when none is given: E = 15 keys per thread, 256 threads, a block per tile (at most 4096). */
static kit_merge_cfg lab07_default_cfg(long long total)
{
    long long blocks = (total + 256 * 15 - 1) / (256 * 15);
    kit_merge_cfg c = {(int)(blocks < 1 ? 1 : blocks > 4096 ? 4096 : blocks), 256, 15};
    return c;
}

static const kit_merge_lab LAB07 = {"07-cf-gather:gather",
                                    "Lab 7: merge generated sorted arrays with cf_merge_kernel (--tile is E, 2 .. 32;\n"
                                    "--threads a multiple of 32) and check the result.",
                                    launch_cf, measure_cf, lab07_default_cfg, 1,
                                    "the bank conflicts of the gather (cf_gather_probe)"};

#endif
