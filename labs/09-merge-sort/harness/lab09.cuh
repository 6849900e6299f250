/* Lab 9's harness glue, shared by its driver, its tests and its benchmark: running ms_sort for a run-time E, variant and type, with canaries, and the measured gather. */
#ifndef LAB09_HARNESS_CUH
#define LAB09_HARNESS_CUH

#include <string.h>

#include "kit.h"
#include "kit_cuda.h"
#include "kit_runner_pairs.h"
#include "ms_given.cuh" /* before the student's file: the slot map its gather uses */
#include "merge_sort.cuh"
#include "ms_kernel.cuh" /* after it: the given kernels that call its functions */

/** A sort's launch: the variant, keys per thread and threads per block. */
struct lab09_cfg {
    int variant; /* MS_BASELINE or MS_CF */
    int E;       /* keys per thread: one of LAB09_ES */
    int u;       /* threads per block: a power of two, 32 .. 512 */
};

/* The E the kit builds: coprime with 32 (5, 15 as Thrust, 17 as CUB on sm_90) and not (12, 16). */
static const int LAB09_ES[] = {5, 12, 15, 16, 17};

/** The default launch: the CF variant with E = 15 and u = 512, as Thrust's fastest setting. */
static inline lab09_cfg lab09_default_cfg(void)
{
    lab09_cfg c = {MS_CF, 15, 512};
    return c;
}

/** "baseline" or "cf". */
static inline const char *lab09_variant_name(int v)
{
    return v == MS_CF ? "cf" : "baseline";
}

/** Parses "baseline" or "cf"; 0 on success, -1 otherwise. */
static inline int lab09_variant_parse(const char *s, int *v)
{
    if (strcmp(s, "baseline") == 0)
        *v = MS_BASELINE;
    else if (strcmp(s, "cf") == 0)
        *v = MS_CF;
    else
        return -1;
    return 0;
}

/** The task a skeleton reports for a variant. */
static inline const char *lab09_task(int v)
{
    return v == MS_CF ? "09-merge-sort:cf" : "09-merge-sort:baseline";
}

/** Checks a launch and a type; 0 if the kit can run it, else -1 with the reason in msg. */
static inline int lab09_check_cfg(kit_type t, lab09_cfg c, char *msg, size_t len)
{
    int e_ok = 0;
    for (size_t x = 0; x < sizeof LAB09_ES / sizeof LAB09_ES[0]; x++)
        e_ok |= c.E == LAB09_ES[x];
    if (!e_ok || c.u < 32 || c.u > 512 || (c.u & (c.u - 1)) != 0 || (c.variant != MS_BASELINE && c.variant != MS_CF) ||
        (t != KIT_TYPE_I32 && t != KIT_TYPE_KV32)) {
        snprintf(msg, len,
                 "lab 9: i32 or kv32, E in {5,12,15,16,17}, u a power of 2 in 32..512 "
                 "(got %s, E=%d, u=%d)",
                 kit_type_name(t), c.E, c.u);
        return -1;
    }
    if (!kit_runner_has_pair(t, c.E)) {
        snprintf(msg, len, "this runner is built without E=%d for %s keys (the grader builds the pairs its tests use)", c.E,
                 kit_type_name(t));
        return -1;
    }
    return 0;
}

template <typename T, int E>
static void lab09_sort_e(T *d_keys, T *d_tmp, int *d_scratch, int n, lab09_cfg c)
{
    if constexpr (kit_runner_has<T>(E)) { /* lab09_check_cfg refused the pairs the runner is built without */
        if (c.variant == MS_CF)
            ms_sort<T, E, MS_CF>(d_keys, d_tmp, d_scratch, n, c.u);
        else
            ms_sort<T, E, MS_BASELINE>(d_keys, d_tmp, d_scratch, n, c.u);
    }
}

/** Sorts d_keys[0 .. n) with the launch c (already checked); scratch d_tmp (n keys) and d_scratch (ms_scratch_ints). */
template <typename T>
static void lab09_sort_device(T *d_keys, T *d_tmp, int *d_scratch, int n, lab09_cfg c)
{
    switch (c.E) {
    case 5: lab09_sort_e<T, 5>(d_keys, d_tmp, d_scratch, n, c); break;
    case 12: lab09_sort_e<T, 12>(d_keys, d_tmp, d_scratch, n, c); break;
    case 15: lab09_sort_e<T, 15>(d_keys, d_tmp, d_scratch, n, c); break;
    case 16: lab09_sort_e<T, 16>(d_keys, d_tmp, d_scratch, n, c); break;
    case 17: lab09_sort_e<T, 17>(d_keys, d_tmp, d_scratch, n, c); break;
    }
}

/**
 * Sorts keys[0 .. n) (host) on the device with the launch c. With guard > 0 the device array
 * has guard bytes of canaries (KIT_GUARD_BYTE) on each side and guards_out receives them after
 * the sort (2 * guard bytes), so that a caller sees a write past either end.
 * @return 0 when sorted, 1 when a skeleton was reached, -1 when the launch failed or was refused (msg says why)
 */
static inline int lab09_run_guarded(kit_type t, void *keys, int n, lab09_cfg c, size_t guard,
                                    unsigned char *guards_out, char *msg, size_t len)
{
    if (lab09_check_cfg(t, c, msg, len) != 0)
        return -1;
    size_t size = kit_type_size(t), bytes = (size_t)n * size;
    unsigned char *d_raw, *d_tmp;
    int *d_scratch;
    CUDA_CHECK(cudaMalloc(&d_raw, bytes + 2 * guard + 1));
    CUDA_CHECK(cudaMemset(d_raw, KIT_GUARD_BYTE, bytes + 2 * guard));
    CUDA_CHECK(cudaMemcpy(d_raw + guard, keys, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMalloc(&d_tmp, bytes + 1));
    CUDA_CHECK(cudaMalloc(&d_scratch, ms_scratch_ints(n, c.u, c.E) * sizeof(int)));
    kit_not_implemented_reset();
    (void)cudaGetLastError();
    if (t == KIT_TYPE_I32)
        lab09_sort_device<int32_t>((int32_t *)(d_raw + guard), (int32_t *)d_tmp, d_scratch, n, c);
    else
        lab09_sort_device<kit_kv32>((kit_kv32 *)(d_raw + guard), (kit_kv32 *)d_tmp, d_scratch, n, c);
    cudaError_t e = kit_launch_status();
    int rc = 0;
    if (e != cudaSuccess) {
        snprintf(msg, len, "the sort (%s, E=%d, u=%d) failed: %s (%s)", lab09_variant_name(c.variant), c.E, c.u,
                 cudaGetErrorString(e), cudaGetErrorName(e));
        rc = -1;
    } else if (kit_device_not_implemented(lab09_task(c.variant))) {
        rc = 1;
    } else {
        CUDA_CHECK(cudaMemcpy(keys, d_raw + guard, bytes, cudaMemcpyDeviceToHost));
        if (guard > 0) {
            CUDA_CHECK(cudaMemcpy(guards_out, d_raw, guard, cudaMemcpyDeviceToHost));
            CUDA_CHECK(cudaMemcpy(guards_out + guard, d_raw + guard + bytes, guard, cudaMemcpyDeviceToHost));
        }
    }
    CUDA_CHECK(cudaFree(d_raw));
    CUDA_CHECK(cudaFree(d_tmp));
    CUDA_CHECK(cudaFree(d_scratch));
    return rc;
}

/** lab09_run_guarded without canaries. */
static inline int lab09_run(kit_type t, void *keys, int n, lab09_cfg c, char *msg, size_t len)
{
    return lab09_run_guarded(t, keys, n, c, 0, NULL, msg, len);
}

/* ---- the measured kernels: the CF gather, or the baseline's serial merge, of the block sort's rounds */

/**
 * Thread i's share in block-sort round r (groups of g = 2^(r+1) threads) of a tile of len keys,
 * as ms_block_rounds (through ms_round_pair) and ms_merge_share compute it: its pair's region
 * [base, base + region), the lengths n_a and n_b of the pair's runs, its diagonal diag
 * (unclamped, as ms_merge_share keeps it) and d (clamped), and the count of outputs it owns.
 */
struct lab09_share {
    int base, half, region, n_a, n_b, diag, d, count;
};
template <int E>
__device__ inline lab09_share lab09_share_of(int i, int r, int len)
{
    lab09_share s;
    int g = 2 << r;
    s.region = g * E;
    s.half = s.region / 2;
    ms_round_pair<E>(i, g, len, &s.base, &s.n_a, &s.n_b);
    s.diag = (i % g) * E;
    s.d = s.diag < s.n_a + s.n_b ? s.diag : s.n_a + s.n_b;
    s.count = s.n_a + s.n_b - s.d < E ? s.n_a + s.n_b - s.d : E;
    return s;
}

/**
 * The gather alone, the kernel whose conflicts lab 9 is graded on, for block-sort round r (groups
 * of g = 2^(r+1) threads): it stores runs[r*u*E ...], a tile whose runs of g*E/2 keys are
 * sorted, in that round's CF layout, and each thread gathers its E keys (ms_cf_gather). The
 * splits come from searches in global memory, so the gather's are the only shared-memory loads.
 * Thread i writes the keys of its share to out[r*u*E + i*E ...] in merge-origin order (A's keys,
 * then B's), so no read is optimized away.
 * It is launched once per round with r + 1 blocks of which only block r works: in a CPU trace the
 * rounds then differ by block, and on a GPU one working block runs alone. (When the rounds ran as
 * blocks of one launch, or one after another in one block, ncu on an H100 counted a few extra
 * wavefronts that a round launched alone does not show; see results/README.md.)
 */
template <typename T, int E>
__global__ void ms_gather_probe(const T *runs, int len, T *out, int r)
{
    if ((int)blockIdx.x != r)
        return;
    kit_shared<T> S = KIT_DYNAMIC_SHARED(T);
    const int u = (int)blockDim.x, i = (int)threadIdx.x, tile = u * E, g = 2 << r, region = g * E, half = region / 2;
    runs += (size_t)r * tile;
    out += (size_t)r * tile;
    for (int x = i; x < tile; x += u) { /* the whole tile, so every thread stores E times: past len, a copy of the last key fills the gap */
        int base = x / region * region;
        S[ms_slot<E>(base + ms_cf_position(x - base, half, region))] = runs[x < len ? x : len - 1];
    }
    __syncthreads();
    lab09_share h = lab09_share_of<E>(i, r, len);
    const T *A = runs + h.base, *B = A + h.half;
    int a = ms_co_rank(A, h.n_a, B, h.n_b, h.d), a_end = ms_co_rank(A, h.n_a, B, h.n_b, h.d + h.count);
    T key[E];
    int origin[E];
    ms_cf_gather<T, E>(S, h.base, h.region, a, h.diag - a, a_end - a, h.count, key, origin);
    KIT_UNROLL
    for (int j = 0; j < E; j++)
        if (origin[j] < h.count)
            out[(size_t)i * E + origin[j]] = key[j];
}

/**
 * The baseline's counterpart of ms_gather_probe, for the driver's --trace: block r plays
 * block-sort round r as ms_merge_share does for MS_BASELINE, the tile stored blocked (A then B in
 * each region) and each thread's serial merge (ms_serial_merge, the student's) reading shared
 * memory; the splits come from searches in global memory, so the serial merges' E + 1 reads per
 * thread are the only shared-memory loads. Thread i writes its count outputs to
 * out[r*u*E + i*E ...]. Launch as ms_gather_probe.
 */
template <typename T, int E>
__global__ void ms_serial_probe(const T *runs, int len, T *out, int r)
{
    if ((int)blockIdx.x != r)
        return;
    kit_shared<T> S = KIT_DYNAMIC_SHARED(T);
    const int u = (int)blockDim.x, i = (int)threadIdx.x, tile = u * E;
    runs += (size_t)r * tile;
    out += (size_t)r * tile;
    for (int x = i; x <= tile; x += u) /* the tile and the look-ahead's slot after it; past len, copies of the last key */
        S[x] = runs[x < len ? x : len - 1];
    __syncthreads();
    lab09_share h = lab09_share_of<E>(i, r, len);
    const T *A = runs + h.base, *B = A + h.half;
    int a = ms_co_rank(A, h.n_a, B, h.n_b, h.d);
    T key[E] = {}; /* every output is written before it is used; the braces keep a skeleton warning-free */
    ms_serial_merge<T, E>(S, h.base + a, h.base + h.n_a, h.base + h.half + h.d - a, h.base + h.half + h.n_b, h.count, key);
    KIT_UNROLL
    for (int j = 0; j < E; j++)
        if (j < h.count)
            out[(size_t)i * E + j] = key[j];
}

template <typename T, int E>
static void lab09_probe_e(const T *d_runs, int len, T *d_out, int u, int rounds, int variant)
{
    if constexpr (!kit_runner_has<T>(E)) /* lab09_check_cfg refused the pairs the runner is built without */
        return;
    size_t bytes = (size_t)ms_shared_elems(u * E) * sizeof(T);
    /* each launch names its kernel itself: traces and ncu tell the two apart by name */
    if (variant == MS_BASELINE) {
        KIT_ALLOW_SHARED((ms_serial_probe<T, E>), bytes);
        for (int r = 0; r < rounds; r++)
            KIT_LAUNCH((ms_serial_probe<T, E>), r + 1, u, bytes, d_runs, len, d_out, r);
    } else {
        KIT_ALLOW_SHARED((ms_gather_probe<T, E>), bytes);
        for (int r = 0; r < rounds; r++)
            KIT_LAUNCH((ms_gather_probe<T, E>), r + 1, u, bytes, d_runs, len, d_out, r);
    }
}

/**
 * Lab 9's measured kernel: a launch of ms_gather_probe (MS_CF; ms_serial_probe for MS_BASELINE)
 * for every block-sort round (groups of g = 2, 4, ..., u threads), each reading the first tile
 * of keys[0 .. n) with its runs of g*E/2 keys sorted. out (log2(u) tiles of u*E keys, may be
 * NULL) receives what each round's threads read: in merge-origin order for the gather, merged
 * for the serial merge.
 * @return 0, or -1 when the launch is refused or failed (msg says why)
 */
template <typename T>
static int lab09_measure_typed(kit_type t, const T *keys, int n, lab09_cfg c, T *out, char *msg, size_t len)
{
    if (lab09_check_cfg(t, c, msg, len) != 0)
        return -1;
    if (n < 1) {
        snprintf(msg, len, "the measured gather needs at least one key");
        return -1;
    }
    int tile = c.u * c.E, m = n < tile ? n : tile, rounds = 0;
    while ((2 << rounds) <= c.u)
        rounds++;
    size_t bytes = (size_t)rounds * tile * sizeof(T);
    T *runs = (T *)kit_xmalloc(bytes + 1), *d_runs, *d_out;
    for (int r = 0; r < rounds; r++) {
        int half = (2 << r) * c.E / 2;
        memcpy(runs + (size_t)r * tile, keys, (size_t)m * sizeof(T));
        for (int x = 0; x < m; x += half)
            kit_sort(t, runs + (size_t)r * tile + x, (size_t)(m - x < half ? m - x : half));
    }
    d_runs = (T *)kit_device_copy(runs, bytes + 1);
    CUDA_CHECK(cudaMalloc(&d_out, bytes + 1));
    CUDA_CHECK(cudaMemset(d_out, 0, bytes + 1));
    switch (c.E) {
    case 5: lab09_probe_e<T, 5>(d_runs, m, d_out, c.u, rounds, c.variant); break;
    case 12: lab09_probe_e<T, 12>(d_runs, m, d_out, c.u, rounds, c.variant); break;
    case 15: lab09_probe_e<T, 15>(d_runs, m, d_out, c.u, rounds, c.variant); break;
    case 16: lab09_probe_e<T, 16>(d_runs, m, d_out, c.u, rounds, c.variant); break;
    case 17: lab09_probe_e<T, 17>(d_runs, m, d_out, c.u, rounds, c.variant); break;
    }
    int rc = 0;
    cudaError_t e = kit_launch_status();
    if (e != cudaSuccess) {
        snprintf(msg, len, "the %s probe (E=%d, u=%d) failed: %s", c.variant == MS_BASELINE ? "serial-merge" : "gather", c.E, c.u,
                 cudaGetErrorString(e));
        rc = -1;
    } else if (out) {
        CUDA_CHECK(cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost));
    }
    CUDA_CHECK(cudaFree(d_runs));
    CUDA_CHECK(cudaFree(d_out));
    free(runs);
    return rc;
}

/** lab09_measure_typed for a run-time type (i32 or kv32). */
static inline int lab09_measure(kit_type t, const void *keys, int n, lab09_cfg c, char *msg, size_t len)
{
    if (t == KIT_TYPE_KV32)
        return lab09_measure_typed<kit_kv32>(t, (const kit_kv32 *)keys, n, c, NULL, msg, len);
    return lab09_measure_typed<int32_t>(t, (const int32_t *)keys, n, c, NULL, msg, len);
}

#endif
