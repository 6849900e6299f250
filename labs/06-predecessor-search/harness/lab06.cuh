/* Lab 6's harness glue, shared by its driver and its tests: running pbs_kernel on host arrays, and counting its conflicts. */
#ifndef LAB06_HARNESS_CUH
#define LAB06_HARNESS_CUH

#include <stdint.h>
#include <string.h>

#include "kit.h"
#include "kit_bank.h"
#include "kit_cuda.h"
#include "pbs_host.h"
#include "pbs_given.cuh" /* before the student's file: w, PBS and the slot map its searches use */
#include "pbs.cuh"
#include "pbs_kernel.cuh" /* after it: the given kernel that calls its searches */

/** How pbs_kernel is launched. */
struct lab06_cfg {
    int alg;     /**< PBS_PLAIN, PBS_CF or PBS_CL */
    int blocks;  /**< thread blocks */
    int threads; /**< threads per block, a multiple of PBS_W */
};

/** @return "pbs", "cf" or "cl" */
static inline const char *lab06_alg_name(int alg)
{
    return alg == PBS_CF ? "cf" : alg == PBS_CL ? "cl" : "pbs";
}

/** Parses "pbs", "cf" or "cl"; @return 0, or -1 if unknown. */
static inline int lab06_alg_parse(const char *name, int *alg)
{
    for (int a = PBS_PLAIN; a <= PBS_CL; a++)
        if (strcmp(name, lab06_alg_name(a)) == 0) {
            *alg = a;
            return 0;
        }
    return -1;
}

template <typename T>
static void lab06_launch_typed(const void *d_keys, int K, const void *d_queries, long long Q, int *d_out, lab06_cfg cfg,
                               T lowest, T highest)
{
    size_t bytes = pbs_shared_bytes<T>(K, cfg.threads);
    KIT_ALLOW_SHARED(pbs_kernel<T>, bytes);
    KIT_LAUNCH(pbs_kernel<T>, cfg.blocks, cfg.threads, bytes, (const T *)d_keys, K, (const T *)d_queries, Q, d_out,
               cfg.alg, lowest, highest);
}

/**
 * Runs pbs_kernel on host arrays: copies the keys and queries to the device, launches, copies
 * the answers back. The keys and queries are overwritten with what the device holds afterwards,
 * so a caller can tell if the kernel wrote to them. With guard > 0, the answers sit between two
 * canaries of `guard` bytes each, every byte KIT_GUARD_BYTE, and what the device holds there
 * afterwards is copied to guards_out (2 * guard bytes: before, then after).
 * @return 0 when it ran, 1 when it reached a skeleton, -1 when the launch failed (reason in @p msg)
 */
static inline int lab06_run_guarded(kit_type t, void *keys, int K, void *queries, long long Q, int *out,
                                    lab06_cfg cfg, size_t guard, unsigned char *guards_out, char *msg, size_t len)
{
    size_t size = kit_type_size(t);
    if ((t != KIT_TYPE_I32 && t != KIT_TYPE_I64) || K < 1 || cfg.threads % PBS_W != 0 || cfg.blocks < 1) {
        snprintf(msg, len, "lab 6 needs i32 or i64 keys, K >= 1 and whole warps (got %s, K=%d, %d threads)",
                 kit_type_name(t), K, cfg.threads);
        return -1;
    }
    void *d_keys = kit_device_copy(keys, (size_t)K * size), *d_queries = kit_device_copy(queries, (size_t)Q * size);
    unsigned char *d_raw;
    size_t answers = (size_t)Q * sizeof(int);
    CUDA_CHECK(cudaMalloc(&d_raw, answers + 2 * guard + 1));
    CUDA_CHECK(cudaMemset(d_raw, KIT_GUARD_BYTE, answers + 2 * guard));
    CUDA_CHECK(cudaMemset(d_raw + guard, KIT_UNWRITTEN_BYTE, answers));
    int *d_out = (int *)(d_raw + guard);
    kit_not_implemented_reset();
    (void)cudaGetLastError();
    if (t == KIT_TYPE_I32)
        lab06_launch_typed<int32_t>(d_keys, K, d_queries, Q, d_out, cfg, INT32_MIN, INT32_MAX);
    else
        lab06_launch_typed<int64_t>(d_keys, K, d_queries, Q, d_out, cfg, INT64_MIN, INT64_MAX);
    cudaError_t e = kit_launch_status();
    int rc = 0;
    if (e != cudaSuccess) {
        snprintf(msg, len, "the launch of %d blocks of %d threads failed: %s (%s)", cfg.blocks, cfg.threads,
                 cudaGetErrorString(e), cudaGetErrorName(e));
        rc = -1;
    } else if (kit_device_not_implemented(cfg.alg == PBS_CF ? "06-predecessor-search:cf" : "06-predecessor-search:cl")) {
        rc = 1;
    } else {
        CUDA_CHECK(cudaMemcpy(out, d_out, answers, cudaMemcpyDeviceToHost));
        if (guard > 0) {
            CUDA_CHECK(cudaMemcpy(guards_out, d_raw, guard, cudaMemcpyDeviceToHost));
            CUDA_CHECK(cudaMemcpy(guards_out + guard, d_raw + guard + answers, guard, cudaMemcpyDeviceToHost));
        }
        CUDA_CHECK(cudaMemcpy(keys, d_keys, (size_t)K * size, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(queries, d_queries, (size_t)Q * size, cudaMemcpyDeviceToHost));
    }
    CUDA_CHECK(cudaFree(d_keys));
    CUDA_CHECK(cudaFree(d_queries));
    CUDA_CHECK(cudaFree(d_raw));
    return rc;
}

/** lab06_run_guarded without canaries. */
static inline int lab06_run(kit_type t, void *keys, int K, void *queries, long long Q, int *out, lab06_cfg cfg,
                            char *msg, size_t len)
{
    return lab06_run_guarded(t, keys, K, queries, Q, out, cfg, 0, NULL, msg, len);
}

/** The launch the kit uses when none is given: 256 threads, and enough blocks for the queries (at most 1024). */
static inline lab06_cfg lab06_default_cfg(long long Q)
{
    long long blocks = (Q + 255) / 256;
    lab06_cfg c = {PBS_CL, (int)(blocks < 1 ? 1 : blocks > 1024 ? 1024 : blocks), 256};
    return c;
}

/** One stage of one search: the reads at offsets first .. last - 1 of each query's reads. */
struct lab06_stage {
    const char *name;
    int first, last;
};

/**
 * The stages of an algorithm's search over K keys, in the order it reads.
 * @param[out] st room for 3 stages
 * @return the number of stages; st[last].last is the reads per query
 */
static inline int lab06_stages(int alg, int K, lab06_stage *st)
{
    if (alg == PBS_PLAIN) {
        int passes = pbs_ceil_log2(K);
        st[0] = {"passes", 0, passes};
        st[1] = {"last test", passes, passes + 1};
        return 2;
    }
    int J = pbs_pow2_at_least((K + PBS_W - 1) / PBS_W + 1), s1 = 0;
    for (int j = J < 2 ? 2 : J; j > 2; j /= 2)
        s1++; /* probes with delta = PBS_W * J/4 .. PBS_W */
    int log_w = 0;
    while ((1 << log_w) < PBS_W)
        log_w++;
    st[0] = {"stage 1", 0, s1};
    st[1] = {"window test", s1, s1 + 1};
    st[2] = {alg == PBS_CF ? "stage 2 (scan)" : "stage 2 (search)", s1 + 1, s1 + 1 + (alg == PBS_CF ? PBS_W : log_w)};
    return 3;
}

/** The simulator's counts for one stage of a pbs_kernel trace, and how many warp-queries it covers. */
struct lab06_stage_count {
    kit_bank_count load;   /**< the stage's loads over the whole trace */
    uint64_t warp_queries; /**< warp-query instances: steps / reads in the stage */
    uint64_t worst_warp;   /**< the largest cost of one warp-query's stage */
};

/**
 * Counts one stage of a trace of pbs_kernel (w = PBS_W, 4-byte banks). Each thread's reads
 * start after `stores` stores and come in groups of `per_query`.
 * @return 0, or -1 with the simulator's message in @p err
 */
static inline int lab06_count_stage(const kit_access *acc, size_t n, uint32_t stores, int per_query, lab06_stage st,
                                    lab06_stage_count *out, char *err, size_t len)
{
    kit_access *sel = (kit_access *)kit_xmalloc((n ? n : 1) * sizeof *sel);
    size_t kept = 0;
    uint32_t blocks = 0;
    for (size_t i = 0; i < n; i++)
        blocks = acc[i].block + 1 > blocks ? acc[i].block + 1 : blocks;
    for (size_t i = 0; i < n; i++) {
        if (acc[i].write || acc[i].ordinal < stores)
            continue;
        int at = (int)((acc[i].ordinal - stores) % (uint32_t)per_query);
        if (at >= st.first && at < st.last) {
            sel[kept] = acc[i];
            /* Each round of queries becomes a block of its own, so that every warp-query is one warp. */
            uint32_t round = (acc[i].ordinal - stores) / (uint32_t)per_query;
            sel[kept].block = acc[i].block + round * blocks;
            sel[kept].ordinal = (uint32_t)at;
            kept++;
        }
    }
    kit_bank_model model = {PBS_W, 4};
    kit_bank_report r;
    int rc = kit_bank_simulate(&model, sel, kept, &r, err, len);
    if (rc == 0) {
        out->load = r.load;
        out->warp_queries = st.last > st.first ? r.load.steps / (uint64_t)(st.last - st.first) : 0;
        out->worst_warp = 0;
        for (uint64_t w = 0; w < (uint64_t)r.blocks * r.warps; w++)
            out->worst_warp = r.warp_load[w].cost > out->worst_warp ? r.warp_load[w].cost : out->worst_warp;
        kit_bank_free(&r);
    }
    free(sel);
    return rc;
}

#endif
