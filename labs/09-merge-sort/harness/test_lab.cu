/* Lab 9 public tests: the CF layout on the host; one merge of a pair and whole sorts on the device (or the CPU emulation), both variants; the gather's conflicts in the simulator. */
#include <stdlib.h>
#include <string.h>

#include "kit_bank.h"
#include "kit_test.h"
#include "kit_test_gpu.h"
#include "lab09.cuh"

/* Reports a reached skeleton once; returns 1 if it was reached. */
static int skeleton_reached(void)
{
    if (kit_not_implemented_task()) {
        kit_test_fail(__FILE__, __LINE__, "not implemented: %s", kit_not_implemented_task());
        return 1;
    }
    return 0;
}

/* ms_cf_position: A forwards from 0, B reversed from the region's end; every slot of a full region once. */
static void test_cf_position(void)
{
    const int halves[] = {1, 5, 15, 16, 17 * 128};
    for (size_t h = 0; h < sizeof halves / sizeof halves[0]; h++) {
        int half = halves[h], region = 2 * half;
        char *seen = (char *)calloc((size_t)region, 1);
        kit_not_implemented_reset();
        for (int p = 0; p < region; p++) {
            int x = ms_cf_position(p, half, region);
            if (skeleton_reached()) {
                free(seen);
                return;
            }
            int want = p < half ? p : region - 1 - (p - half);
            if (x != want || seen[x]++) {
                kit_test_fail(__FILE__, __LINE__, "half %d: key %d of the pair goes to %d, expected %d", half, p, x, want);
                free(seen);
                return;
            }
        }
        free(seen);
    }
    /* A global round's tile: A's n_a keys forwards, B's reversed from the tile's end, whatever n_a. */
    kit_not_implemented_reset();
    CU_ASSERT_EQUAL(ms_cf_position(0, 3, 100), 0);
    CU_ASSERT_EQUAL(ms_cf_position(2, 3, 100), 2);
    CU_ASSERT_EQUAL(ms_cf_position(3, 3, 100), 99);
    CU_ASSERT_EQUAL(ms_cf_position(99, 3, 100), 3);
    CU_ASSERT_EQUAL(ms_cf_position(0, 0, 10), 9);
    skeleton_reached();
}

/* ms_slot, rho with E known at compile time, is lab 7's cf_slot for every E the kit builds. */
template <int E>
static int slot_agrees(void)
{
    for (int x = 0; x < 512 * E; x++) {
        int want = cf_slot(x, E);
        if (skeleton_reached())
            return 0;
        if (ms_slot<E>(x) != want) {
            kit_test_fail(__FILE__, __LINE__, "E=%d: ms_slot(%d) = %d, cf_slot = %d", E, x, ms_slot<E>(x), want);
            return 0;
        }
    }
    return 1;
}
static void test_slot(void)
{
    kit_not_implemented_reset();
    if (slot_agrees<5>() && slot_agrees<12>() && slot_agrees<15>() && slot_agrees<16>() && slot_agrees<17>())
        CU_PASS("ms_slot is cf_slot");
}

/* ms_sort_network<E>: comparators inside 0 .. E-1 that sort every input of 0s and 1s, which by the
   0-1 principle means every input; 1 if so. */
template <int E>
static int network_sorts(void)
{
    constexpr ms_sort_network<E> net = ms_sort_network<E>::make();
    for (int c = 0; c < net.n; c++)
        if (net.lo[c] < 0 || net.lo[c] >= net.hi[c] || net.hi[c] >= E) {
            kit_test_fail(__FILE__, __LINE__, "E=%d: comparator %d orders %d and %d", E, c, net.lo[c], net.hi[c]);
            return 0;
        }
    for (uint32_t x = 0; x < (1u << E); x++) {
        int v[E];
        for (int j = 0; j < E; j++)
            v[j] = (int)(x >> j & 1u);
        for (int c = 0; c < net.n; c++)
            if (v[net.lo[c]] > v[net.hi[c]]) {
                v[net.lo[c]] = 0;
                v[net.hi[c]] = 1;
            }
        for (int j = 0; j + 1 < E; j++)
            if (v[j] > v[j + 1]) {
                kit_test_fail(__FILE__, __LINE__, "E=%d: the 0-1 input 0x%x comes out unsorted at %d", E, (unsigned)x, j);
                return 0;
            }
    }
    return 1;
}
static void test_sort_network(void)
{
    if (network_sorts<5>() && network_sorts<12>() && network_sorts<15>() && network_sorts<16>() && network_sorts<17>()) {
        CU_ASSERT_EQUAL(ms_sort_network<16>::make().n, 63); /* Batcher's odd-even merge sort of 16 */
        CU_ASSERT_EQUAL(ms_sort_network<17>::make().n, 85);
    }
}

/* The exchange's padding: every tile position gets its own slot inside ms_shared_elems(). */
static void test_exchange_slot(void)
{
    const int tile = 512 * 16;
    char *seen = (char *)calloc((size_t)ms_shared_elems(tile), 1);
    for (int x = 0; x < tile; x++) {
        int s16 = ms_exchange_slot<16>(x), s15 = ms_exchange_slot<15>(x);
        CU_ASSERT_EQUAL(s15, x);
        if (s16 < 0 || s16 >= ms_shared_elems(tile) - 1 || seen[s16]++) {
            kit_test_fail(__FILE__, __LINE__, "E=16: position %d goes to slot %d, out of range or taken", x, s16);
            break;
        }
    }
    free(seen);
}

/* One merge of A (n_a keys) and B (n_b keys) by one block of u threads, the pair stored as the variant stores it: ms_merge_share. */
template <typename T, int E, int V>
__global__ void lab09_pair_kernel(const T *A, int n_a, const T *B, int n_b, int half, T *C)
{
    kit_shared<T> S = KIT_DYNAMIC_SHARED(T);
    const int u = (int)blockDim.x, region = u * E, i = (int)threadIdx.x;
    for (int x = i; x < n_a + n_b; x += u) {
        int p = x < n_a ? x : half + (x - n_a); /* key p of the pair */
        S[V == MS_BASELINE ? p : ms_slot<E>(ms_cf_position(p, half, region))] = x < n_a ? A[x] : B[x - n_a];
    }
    __syncthreads();
    T key[E] = {};
    ms_merge_share<T, E, V>(S, 0, half, region, n_a, n_b, i * E, key);
    for (int t = 0; t < E; t++)
        if (i * E + t < n_a + n_b)
            C[i * E + t] = key[t];
}

/* Runs lab09_pair_kernel on kv32 keys and compares with the reference stable merge; 0 if right. */
template <int E, int V>
static int check_pair(int u, int n_a, int n_b, kit_gen gen, uint64_t seed)
{
    int half = u * E / 2, total = n_a + n_b;
    kit_kv32 *A = (kit_kv32 *)kit_xmalloc((size_t)half * sizeof(kit_kv32) + 1),
             *B = (kit_kv32 *)kit_xmalloc((size_t)half * sizeof(kit_kv32) + 1),
             *C = (kit_kv32 *)kit_xmalloc((size_t)u * E * sizeof(kit_kv32) + 1);
    kit_gen_merge_input(KIT_TYPE_KV32, A, (size_t)n_a, B, (size_t)n_b, gen, seed);
    kit_kv32 *d_A = (kit_kv32 *)kit_device_copy(A, (size_t)n_a * sizeof(kit_kv32) + 1),
             *d_B = (kit_kv32 *)kit_device_copy(B, (size_t)n_b * sizeof(kit_kv32) + 1), *d_C;
    CUDA_CHECK(cudaMalloc(&d_C, (size_t)u * E * sizeof(kit_kv32) + 1));
    size_t bytes = (size_t)ms_shared_elems(u * E) * sizeof(kit_kv32);
    void (*kernel)(const kit_kv32 *, int, const kit_kv32 *, int, int, kit_kv32 *) = lab09_pair_kernel<kit_kv32, E, V>;
    KIT_ALLOW_SHARED(kernel, bytes);
    kit_not_implemented_reset();
    KIT_LAUNCH(kernel, 1, u, bytes, d_A, n_a, d_B, n_b, half, d_C);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(C, d_C, (size_t)total * sizeof(kit_kv32), cudaMemcpyDeviceToHost));
    int bad = 0;
    char msg[200];
    if (kit_device_not_implemented(lab09_task(V)) || kit_not_implemented_task()) {
        /* a skeleton was reached: the test fails and says which task (kit_device_not_implemented
           has recorded the variant's task if nothing more precise was) */
        kit_test_fail(__FILE__, __LINE__, "not implemented: %s", kit_not_implemented_task());
        bad = 1;
    } else if (kit_check_merge(KIT_TYPE_KV32, A, (size_t)n_a, B, (size_t)n_b, C, msg, sizeof msg) >= 0) {
        kit_test_fail(__FILE__, __LINE__, "%s, E=%d, u=%d, |A|=%d, |B|=%d, %s: %s", lab09_variant_name(V), E, u, n_a, n_b,
                      kit_gen_name(gen), msg);
        bad = 1;
    }
    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
    free(A);
    free(B);
    free(C);
    return bad;
}

/* Every split of a pair: empty, one-sided, partial (fewer outputs than threads), full; stable on ties. */
template <int V>
static void pair_cases(void)
{
    const int u = 64;
    const struct {
        int n_a, n_b;
        kit_gen gen;
    } cases[] = {
        {0, 0, KIT_GEN_RANDOM},        {1, 0, KIT_GEN_RANDOM},        {0, 1, KIT_GEN_RANDOM},
        {7, 3, KIT_GEN_DUPLICATES},    {160, 160, KIT_GEN_RANDOM},    {160, 160, KIT_GEN_A_BELOW_B},
        {160, 160, KIT_GEN_B_BELOW_A}, {160, 160, KIT_GEN_EQUAL},     {160, 160, KIT_GEN_INTERLEAVED},
        {160, 33, KIT_GEN_DUPLICATES}, {17, 160, KIT_GEN_INTERLEAVED}, {100, 101, KIT_GEN_EQUAL},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        if (check_pair<5, V>(u, cases[c].n_a, cases[c].n_b, cases[c].gen, c + 1))
            return;
    /* the larger E, a full pair: 544 and 512 keys a side */
    if (check_pair<17, V>(u, 544, 544, KIT_GEN_DUPLICATES, 3) || check_pair<16, V>(u, 512, 400, KIT_GEN_INTERLEAVED, 4) ||
        check_pair<12, V>(u, 384, 384, KIT_GEN_A_BELOW_B, 5) || check_pair<15, V>(u, 480, 1, KIT_GEN_RANDOM, 6))
        return;
}
static void test_pair_baseline(void) { pair_cases<MS_BASELINE>(); }
static void test_pair_cf(void) { pair_cases<MS_CF>(); }

/* Thread g of the grid holds keys g*E ... of `keys`, as a kernel's output, and writes their samples: ms_write_samples. */
template <typename T, int E>
__global__ void lab09_samples_kernel(const T *keys, int n, ms_sample_t<T> *head, ms_sample_t<T> *tail)
{
    long long pos = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * E;
    int count = n - pos < 0 ? 0 : n - pos < E ? (int)(n - pos) : E;
    T key[E] = {};
    for (int t = 0; t < count; t++)
        key[t] = keys[pos + t];
    ms_write_samples<T, E>(key, count, head, tail);
}

/*
 * n keys in sorted runs of s (s a multiple of u*E): the samples that ms_write_samples leaves, then
 * every tile's split from ms_partition_kernel, against a host merge of each pair (ties to A).
 * 0 if right.
 */
template <typename T, int E>
static int check_partition(int u, int n, int s, kit_gen gen, uint64_t seed)
{
    kit_type t = sizeof(T) == 4 ? KIT_TYPE_I32 : KIT_TYPE_KV32;
    int tile = u * E, tiles = ms_tiles(n, u, E), q = MS_SAMPLE_THREADS * E, ns = ms_samples(n, E);
    T *keys = (T *)kit_xmalloc((size_t)n * sizeof(T) + 1);
    kit_gen_array(t, keys, (size_t)n, gen, seed);
    for (int f = 0; f < n; f += s)
        kit_sort(t, keys + f, (size_t)(n - f < s ? n - f : s));
    T *d_keys = (T *)kit_device_copy(keys, (size_t)n * sizeof(T) + 1);
    size_t bytes = ms_scratch_ints(n, u, E) * sizeof(int);
    int *d_scratch, *part = (int *)kit_xmalloc(bytes);
    CUDA_CHECK(cudaMalloc(&d_scratch, bytes));
    CUDA_CHECK(cudaMemset(d_scratch, 0x5a, bytes)); /* a tail cut short keeps this */
    ms_sample_t<T> *d_head = (ms_sample_t<T> *)(d_scratch + ms_heads_at(n, u, E)), *d_tail = d_head + ns;
    KIT_LAUNCH((lab09_samples_kernel<T, E>), tiles, u, 0, d_keys, n, d_head, d_tail);
    ms_partition<T, E>(d_keys, n, s, tile, tiles, d_head, d_tail, d_scratch);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(part, d_scratch, bytes, cudaMemcpyDeviceToHost));
    const int *head = part + ms_heads_at(n, u, E), *tail = head + ns;
    int bad = 0;
    for (int j = 0; j * q < n && !bad; j++) {
        int want_tail = (j + 1) * q <= n ? (int)kit_key_at(t, keys, (size_t)j * q + q - 1) : 0x5a5a5a5a;
        if (head[j] != kit_key_at(t, keys, (size_t)j * q) || tail[j] != want_tail) {
            kit_test_fail(__FILE__, __LINE__, "ms_write_samples E=%d u=%d n=%d: segment %d has head %d and tail %d, expected %d and %d",
                          E, u, n, j, head[j], tail[j], (int)kit_key_at(t, keys, (size_t)j * q), want_tail);
            bad = 1;
        }
    }
    for (int x = 0; x < tiles && !bad; x++) {
        long long first;
        int n_a, n_b, a = 0, b = 0;
        ms_pair_of((long long)x * tile, n, s, &first, &n_a, &n_b);
        for (long long o = first; o < (long long)x * tile; o++) /* the stable merge's first outputs, ties to A */
            if (b >= n_b || (a < n_a && kit_key_at(t, keys, first + a) <= kit_key_at(t, keys, first + n_a + b)))
                a++;
            else
                b++;
        if (part[x] != a) {
            kit_test_fail(__FILE__, __LINE__, "ms_partition_kernel E=%d u=%d n=%d s=%d %s %s: tile %d's split is %d, expected %d", E, u,
                          n, s, kit_type_name(t), kit_gen_name(gen), x, part[x], a);
            bad = 1;
        }
    }
    cudaFree(d_keys);
    cudaFree(d_scratch);
    free(keys);
    free(part);
    return bad;
}

/*
 * ms_sample_window against every answer of every range [lo, hi) of 0 .. 50 for a few q: the search's
 * answer is the first x with x >= ans, so sample i says no when i*q >= ans. The window must lie in
 * [lo, hi], hold the answer and fewer than q positions.
 */
static void test_sample_window(void)
{
    const int qs[] = {1, 2, 3, 5, 8, 40};
    for (size_t k = 0; k < sizeof qs / sizeof qs[0]; k++)
        for (int lo = 0, q = qs[k]; lo <= 50; lo++)
            for (int hi = lo; hi <= 50; hi++)
                for (int ans = lo; ans <= hi; ans++) {
                    int i0 = (lo + q - 1) / q, i1 = (hi + q - 1) / q, c = i0, w_lo, w_hi;
                    while (c < i1 && c * q < ans)
                        c++;
                    ms_sample_window(lo, hi, q, c, &w_lo, &w_hi);
                    if (w_lo < lo || w_hi > hi || ans < w_lo || ans > w_hi || w_hi - w_lo >= q) {
                        kit_test_fail(__FILE__, __LINE__, "ms_sample_window(lo %d, hi %d, q %d, c %d) gave [%d, %d], expected "
                                      "within [%d, %d], fewer than q positions, holding the answer %d", lo, hi, q, c,
                                      w_lo, w_hi, lo, hi, ans);
                        return;
                    }
                }
}

/*
 * Runs of every length a sort of 8 tiles has, with a short last pair, ties across the samples (four
 * keys) and kv32; a last segment whose tail thread holds a few keys (8 tiles less 2: no tail);
 * 126 tiles, whose longest runs hold 256 samples; and (17, 256).
 */
static void test_partition(void)
{
    const int u = 32, tile = 32 * 5;
    const int ns[] = {8 * tile, 8 * tile - 7, 8 * tile - 2, 5 * tile + 3, 3 * tile, tile + 1, 125 * tile + 13};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
        for (int s = tile; s < ns[k]; s *= 2)
            if (check_partition<int32_t, 5>(u, ns[k], s, KIT_GEN_FEW_UNIQUE, k) ||
                check_partition<int32_t, 5>(u, ns[k], s, KIT_GEN_DUPLICATES, k) ||
                check_partition<kit_kv32, 5>(u, ns[k], s, KIT_GEN_RANDOM, k))
                return;
    for (int s = 256 * 17; s < 4 * 256 * 17 + 100; s *= 2)
        if (check_partition<int32_t, 17>(256, 4 * 256 * 17 + 100, s, KIT_GEN_DUPLICATES, 7))
            return;
}

/* ms_register_merge on int32, one case per thread: the registers and origins as ms_cf_gather leaves them, and the count. */
template <int E, bool FULL>
__global__ void lab09_register_merge_kernel(const int32_t *keys, const int *origins, const int *counts, int cases, int32_t *out)
{
    int c = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (c >= cases)
        return;
    int32_t key[E];
    int origin[E];
    for (int j = 0; j < E; j++) {
        key[j] = keys[c * E + j];
        origin[j] = origins[c * E + j];
    }
    ms_register_merge<int32_t, E, FULL>(key, origin, counts[c]);
    for (int j = 0; j < E; j++)
        out[c * E + j] = key[j];
}

/*
 * Every rotation k, every n_a and every count from n_a to E (only E when FULL): a thread's A (n_a
 * keys) and B (E - n_a), stored as Algorithm 1 leaves them (A key t in register (k + t) mod E, B
 * key m in (k - 1 - m) mod E), B's keys m >= count - n_a unowned. The first count outputs must be
 * the owned keys, sorted. Keys come from a small range (ties) that includes INT32_MIN and INT32_MAX.
 */
template <int E, bool FULL>
static int check_register_merge(void)
{
    int cases = 0;
    for (int n_a = 0; n_a <= E; n_a++)
        cases += E * (FULL ? 1 : E - n_a + 1);
    int32_t *keys = (int32_t *)kit_xmalloc((size_t)cases * E * sizeof(int32_t)),
            *want = (int32_t *)kit_xmalloc((size_t)cases * E * sizeof(int32_t)),
            *got = (int32_t *)kit_xmalloc((size_t)cases * E * sizeof(int32_t));
    int *origins = (int *)kit_xmalloc((size_t)cases * E * sizeof(int)), *counts = (int *)kit_xmalloc((size_t)cases * sizeof(int));
    const int32_t pool[] = {INT32_MIN, -7, -7, 0, 3, 3, 3, 9, 12, INT32_MAX};
    uint64_t rng = 0x2545F4914F6CDD1DULL;
    int c = 0;
    for (int n_a = 0; n_a <= E; n_a++)
        for (int count = FULL ? E : n_a; count <= E; count++)
            for (int k = 0; k < E; k++, c++) {
                int32_t seq[E]; /* A ascending, then B ascending */
                for (int j = 0; j < E; j++)
                    seq[j] = pool[kit_rng_next(&rng) % (sizeof pool / sizeof pool[0])];
                kit_sort(KIT_TYPE_I32, seq, (size_t)n_a);
                kit_sort(KIT_TYPE_I32, seq + n_a, (size_t)(E - n_a));
                for (int t = 0; t < n_a; t++) {
                    keys[c * E + (k + t) % E] = seq[t];
                    origins[c * E + (k + t) % E] = t;
                }
                for (int m = 0; m < E - n_a; m++) {
                    int j = ((k - 1 - m) % E + E) % E;
                    keys[c * E + j] = seq[n_a + m];
                    origins[c * E + j] = n_a + m < count ? n_a + m : E + j; /* as ms_cf_gather marks an unowned key */
                }
                counts[c] = count;
                memcpy(want + c * E, seq, (size_t)count * sizeof seq[0]); /* the owned keys: A, and B's first count - n_a */
                kit_sort(KIT_TYPE_I32, want + c * E, (size_t)count);
            }
    int32_t *d_keys = (int32_t *)kit_device_copy(keys, (size_t)cases * E * sizeof(int32_t)), *d_out;
    int *d_origins = (int *)kit_device_copy(origins, (size_t)cases * E * sizeof(int)),
        *d_counts = (int *)kit_device_copy(counts, (size_t)cases * sizeof(int));
    CUDA_CHECK(cudaMalloc(&d_out, (size_t)cases * E * sizeof(int32_t)));
    void (*kernel)(const int32_t *, const int *, const int *, int, int32_t *) = lab09_register_merge_kernel<E, FULL>;
    KIT_LAUNCH(kernel, (cases + 63) / 64, 64, 0, d_keys, d_origins, d_counts, cases, d_out);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(got, d_out, (size_t)cases * E * sizeof(int32_t), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (c = 0; c < cases && !bad; c++)
        for (int t = 0; t < counts[c]; t++)
            if (got[c * E + t] != want[c * E + t]) {
                kit_test_fail(__FILE__, __LINE__, "E=%d%s, case %d (count %d): output %d is %d, want %d", E, FULL ? " (full)" : "", c,
                              counts[c], t, (int)got[c * E + t], (int)want[c * E + t]);
                bad = 1;
                break;
            }
    cudaFree(d_keys);
    cudaFree(d_origins);
    cudaFree(d_counts);
    cudaFree(d_out);
    free(keys);
    free(want);
    free(got);
    free(origins);
    free(counts);
    return bad;
}
static void test_register_merge(void)
{
    /* both ways of ms_merge_plan: E = 5 and 17 insert after merging 4 and 16, E = 12 and 15 pad to 16 */
    CU_ASSERT(!ms_merge_plan<5>::pad && !ms_merge_plan<17>::pad && !ms_merge_plan<16>::pad);
    CU_ASSERT(ms_merge_plan<12>::pad && ms_merge_plan<15>::pad);
    if (check_register_merge<5, false>() || check_register_merge<12, false>() || check_register_merge<15, false>() ||
        check_register_merge<16, false>() || check_register_merge<17, false>() || check_register_merge<17, true>() ||
        check_register_merge<15, true>() || check_register_merge<16, true>())
        return;
}

/* Sorts n keys with cfg and checks the output is their stable sort (kv32 values tag the input position); 0 if right. */
static int check_sort(kit_type t, int n, lab09_cfg c, kit_gen gen, uint64_t seed)
{
    size_t size = kit_type_size(t), guard = KIT_GUARD_ELEMS * size;
    void *keys = kit_xmalloc((size_t)n * size + 1), *input = kit_xmalloc((size_t)n * size + 1);
    unsigned char *guards = (unsigned char *)kit_xmalloc(2 * guard);
    kit_gen_array(t, keys, (size_t)n, gen, seed);
    memcpy(input, keys, (size_t)n * size);
    char msg[200];
    int rc = lab09_run_guarded(t, keys, n, c, guard, guards, msg, sizeof msg), bad = 1;
    if (rc == 1) {
        kit_test_fail(__FILE__, __LINE__, "not implemented: %s",
                      kit_not_implemented_task() ? kit_not_implemented_task() : lab09_task(c.variant));
    } else if (rc != 0) {
        kit_test_fail(__FILE__, __LINE__, "%s", msg);
    } else if (kit_check_sort(t, input, keys, (size_t)n, msg, sizeof msg) >= 0) {
        kit_test_fail(__FILE__, __LINE__, "%s E=%d u=%d %s n=%d %s: %s", lab09_variant_name(c.variant), c.E, c.u,
                      kit_type_name(t), n, kit_gen_name(gen), msg);
    } else {
        bad = 0;
        for (size_t x = 0; x < 2 * guard && !bad; x++)
            if (guards[x] != KIT_GUARD_BYTE) {
                kit_test_fail(__FILE__, __LINE__, "%s E=%d u=%d n=%d: a write past the %s of the keys", lab09_variant_name(c.variant),
                              c.E, c.u, n, x < guard ? "start" : "end");
                bad = 1;
            }
    }
    free(keys);
    free(input);
    free(guards);
    return bad;
}

/* Any n: empty, one key, partial threads, tiles and rounds, for every E, both variants; kv32 shows stability. */
template <int V>
static void sizes_cases(void)
{
    for (size_t e = 0; e < sizeof LAB09_ES / sizeof LAB09_ES[0]; e++) {
        lab09_cfg c = {V, LAB09_ES[e], 32};
        int tile = 32 * c.E;
        const int ns[] = {0, 1, 2, c.E - 1, c.E + 1, tile - 1, tile, tile + 1, 2 * tile + 7, 5 * tile - 3, 8 * tile};
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
            if (check_sort(k % 2 ? KIT_TYPE_KV32 : KIT_TYPE_I32, ns[k], c, k % 3 ? KIT_GEN_DUPLICATES : KIT_GEN_RANDOM, k))
                return;
    }
}
static void test_sizes_baseline(void) { sizes_cases<MS_BASELINE>(); }
static void test_sizes_cf(void) { sizes_cases<MS_CF>(); }

/* Input shapes at u = 64: sorted, reversed, all equal (stability), few unique; and the papers' launches, (15, 512) and (17, 256), and (16, 256). */
template <int V>
static void shapes_cases(void)
{
    const kit_gen gens[] = {KIT_GEN_SORTED, KIT_GEN_REVERSE, KIT_GEN_EQUAL, KIT_GEN_FEW_UNIQUE};
    for (size_t g = 0; g < sizeof gens / sizeof gens[0]; g++) {
        lab09_cfg c = {V, g % 2 ? 16 : 15, 64};
        if (check_sort(KIT_TYPE_KV32, 3 * 64 * c.E + 11, c, gens[g], g))
            return;
    }
    lab09_cfg big[] = {{V, 15, 512}, {V, 17, 256}, {V, 16, 256}};
    for (int b = 0; b < 3; b++) {
        int tile = big[b].u * big[b].E;
        /* kv32 with a partial last tile; int32 in full tiles only (every block on its full-tile
           path: all loads in flight, no origins), then with a partial one */
        if (check_sort(KIT_TYPE_KV32, 2 * tile + 1000, big[b], KIT_GEN_DUPLICATES, 9) ||
            check_sort(KIT_TYPE_I32, 4 * tile, big[b], KIT_GEN_RANDOM, 10) ||
            check_sort(KIT_TYPE_I32, 3 * tile + 5, big[b], KIT_GEN_FEW_UNIQUE, 11))
            return;
    }
}
static void test_shapes_baseline(void) { shapes_cases<MS_BASELINE>(); }
static void test_shapes_cf(void) { shapes_cases<MS_CF>(); }

/* Launches the kit cannot run are refused with a reason, before any kernel runs. */
static void test_refused(void)
{
    const lab09_cfg bad[] = {{MS_CF, 7, 64}, {MS_CF, 15, 48}, {MS_CF, 15, 1024}, {MS_CF, 15, 16}, {2, 15, 64}};
    char msg[200];
    int key = 1;
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        msg[0] = '\0';
        CU_ASSERT_EQUAL(lab09_run(KIT_TYPE_I32, &key, 1, bad[b], msg, sizeof msg), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(msg, "lab 9"));
    }
    lab09_cfg good = {MS_CF, 15, 64};
    CU_ASSERT_EQUAL(lab09_run(KIT_TYPE_I64, &key, 0, good, msg, sizeof msg), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "i64"));
}

#ifdef KIT_CPU
/* The simulator's load conflicts of the measured gather (every block-sort round of the first tile). */
static long long gather_conflicts(kit_type t, lab09_cfg c, int n, kit_gen gen)
{
    size_t size = kit_type_size(t);
    void *keys = kit_xmalloc((size_t)n * size + 1);
    kit_gen_array(t, keys, (size_t)n, gen, (uint64_t)n);
    char msg[200];
    kit_not_implemented_reset();
    kit_cpu_trace_start();
    int rc = lab09_measure(t, keys, n, c, msg, sizeof msg);
    kit_access *acc;
    size_t na = kit_cpu_trace_stop(&acc);
    long long result = -1;
    kit_bank_model model = {CF_W, 4};
    kit_bank_report r;
    if (skeleton_reached()) {
    } else if (rc != 0) {
        kit_test_fail(__FILE__, __LINE__, "%s", msg);
    } else if (kit_bank_simulate(&model, acc, na, &r, msg, sizeof msg) != 0) {
        kit_test_fail(__FILE__, __LINE__, "simulator: %s", msg);
    } else {
        result = (long long)r.load.conflicts;
        kit_bank_free(&r);
    }
    free(acc);
    free(keys);
    return result;
}

/* Section 3.3 in every block-sort round: 0 gather conflicts for every E, u = 64, 256, 512, full and partial tiles. */
static void test_gather_conflict_free(void)
{
    const int us[] = {64, 256, 512};
    const kit_gen gens[] = {KIT_GEN_RANDOM, KIT_GEN_SORTED, KIT_GEN_REVERSE, KIT_GEN_EQUAL};
    for (size_t e = 0; e < sizeof LAB09_ES / sizeof LAB09_ES[0]; e++)
        for (int k = 0; k < 3; k++)
            for (int g = 0; g < 4; g++) {
                lab09_cfg c = {MS_CF, LAB09_ES[e], us[k]};
                int n = g == 3 ? c.u * c.E / 3 + 1 : c.u * c.E; /* the last: a partial tile */
                long long got = gather_conflicts(KIT_TYPE_I32, c, n, gens[g]);
                if (got != 0) {
                    if (got > 0)
                        kit_test_fail(__FILE__, __LINE__, "E=%d, u=%d, n=%d, %s: %lld conflicts in the gather", c.E, c.u, n,
                                      kit_gen_name(gens[g]), got);
                    return;
                }
            }
    CU_PASS("no conflicts");
}

/*
 * The baseline's measured kernel (ms_serial_probe), for the driver's --trace: every round's outputs
 * are that round's merges (runs of g*E keys sorted), and on sorted keys with E = 16 and u = 32 the
 * simulator counts what handout 9 derives: each of the 16 look-ahead reads of a round touches two
 * banks with 16 words each (15 conflicts), so 5 rounds give 1200, plus at most 15 for each of the
 * two first reads of a round (1350 in all). With E = 17 on random keys it conflicts too, where the
 * CF gather of the same keys has none.
 */
static void test_serial_probe(void)
{
    lab09_cfg c = {MS_BASELINE, 16, 32};
    const int tile = 32 * 16, rounds = 5;
    int32_t *keys = (int32_t *)kit_xmalloc(tile * sizeof(int32_t)), *out = (int32_t *)kit_xmalloc(rounds * tile * sizeof(int32_t));
    kit_gen_array(KIT_TYPE_I32, keys, tile, KIT_GEN_RANDOM, 5);
    char msg[200];
    kit_not_implemented_reset();
    int rc = lab09_measure_typed<int32_t>(KIT_TYPE_I32, keys, tile, c, out, msg, sizeof msg);
    if (skeleton_reached() || rc != 0) {
        if (rc != 0 && !kit_not_implemented_task())
            kit_test_fail(__FILE__, __LINE__, "%s", msg);
    } else {
        for (int r = 0; r < rounds; r++) {
            int run = (2 << r) * c.E;
            for (int x = 0; x < tile; x += run) {
                if (kit_check_sort(KIT_TYPE_I32, keys + x, out + (size_t)r * tile + x, (size_t)run, msg, sizeof msg) >= 0) {
                    kit_test_fail(__FILE__, __LINE__, "round %d, run at %d: %s", r, x, msg);
                    r = rounds;
                    x = tile;
                }
            }
        }
        long long sorted = gather_conflicts(KIT_TYPE_I32, c, tile, KIT_GEN_SORTED);
        CU_ASSERT(sorted >= 1200 && sorted <= 1350);
        lab09_cfg b17 = {MS_BASELINE, 17, 64}, cf17 = {MS_CF, 17, 64};
        CU_ASSERT(gather_conflicts(KIT_TYPE_I32, b17, 64 * 17, KIT_GEN_RANDOM) > 0);
        CU_ASSERT_EQUAL(gather_conflicts(KIT_TYPE_I32, cf17, 64 * 17, KIT_GEN_RANDOM), 0);
    }
    free(keys);
    free(out);
}
#else
static void test_serial_probe(void)
{
    kit_test_fail(__FILE__, __LINE__, "this test needs the CPU build's trace");
}
static void test_gather_conflict_free(void)
{
    kit_test_fail(__FILE__, __LINE__, "this test needs the CPU build's trace");
}
#endif

static void register_tests(void)
{
    CU_pSuite h = kit_test_suite("lab09 layout (host)");
    kit_test_add(h, "ms_cf_position: A forwards, B reversed", test_cf_position);
    kit_test_add(h, "ms_exchange_slot: padded for even E, one slot each", test_exchange_slot);
    kit_test_add(h, "ms_slot: lab 7's cf_slot with E at compile time", test_slot);
    kit_test_add(h, "ms_sort_network: sorts every 0-1 input for every E", test_sort_network);
    CU_pSuite p = kit_test_suite("lab09 one merge of a pair");
    kit_test_add(p, "baseline (ms_serial_merge): every split, stable", test_pair_baseline);
    kit_test_add(p, "CF (ms_cf_gather and the register sort): every split, stable", test_pair_cf);
    kit_test_add(p, "ms_register_merge on int32: every rotation, split and count", test_register_merge);
    kit_test_device_suite_ready(p);
    CU_pSuite d = kit_test_suite("lab09 ms_sort");
    kit_test_add(d, "baseline: any n, every E", test_sizes_baseline);
    kit_test_add(d, "CF: any n, every E", test_sizes_cf);
    kit_test_add(d, "baseline: input shapes, (15, 512), (17, 256) and (16, 256)", test_shapes_baseline);
    kit_test_add(d, "CF: input shapes, (15, 512), (17, 256) and (16, 256)", test_shapes_cf);
    kit_test_add(d, "bad launches and types are refused", test_refused);
    kit_test_add(d, "ms_partition_kernel over ms_write_samples: every tile's split, ties across samples", test_partition);
    kit_test_add(d, "ms_sample_window: the keys' window holds the answer, within the range", test_sample_window);
    kit_test_device_suite_ready(d);
    CU_pSuite s = kit_test_suite("lab09 conflicts (simulator)");
    kit_test_add(s, "the CF gather: 0 conflicts in every block-sort round", test_gather_conflict_free);
    kit_test_add(s, "the baseline's serial merge (the driver's --trace): its merges and its conflicts", test_serial_probe);
#ifndef KIT_CPU
    kit_test_skip_suite(s, "the simulator reads traces that only the CPU build records; run build/labs/sol-cpu/09-merge-sort/test");
#endif
}

int main(void)
{
    return kit_test_main("lab09 tests", register_tests);
}
