/** @file
 * Lab 9's given kernels: the block sort, the partition and the merge rounds of the pairwise merge
 * sort, and ms_sort, which launches them. They call the three functions the student writes
 * (merge_sort.cuh), so lab09.cuh includes this file after the student's; the sort is described
 * at the top of merge_sort.cuh and in handout 9.
 */
#ifndef LAB09_MS_KERNEL_CUH
#define LAB09_MS_KERNEL_CUH

#include "merge_sort.cuh"
#include "ms_given.cuh"
#include "../../07-cf-gather/harness/cf_kernel.cuh" /* lab 7: cf_co_rank, the merge-path search */

/** The two variants of every merge of the sort. */
enum ms_variant {
    MS_BASELINE = 0, /**< serial merge from shared memory, as Thrust and CUB */
    MS_CF = 1        /**< lab 7's conflict-free gather, then a merge in registers */
};


/**
 * Keys the register sort may compare by value alone: for these, equal keys are indistinguishable,
 * so the sort needs no origins to be stable, and an unowned key can become the largest value.
 */
template <typename T>
struct ms_plain_key {
    static const bool value = false;
};
template <>
struct ms_plain_key<int32_t> {
    static const bool value = true;
    static __device__ int32_t largest() { return INT32_MAX; }
};


/**
 * Where tile position x goes when a thread hands its E keys to the whole block (to store the
 * sorted tile, or to load it): x itself for odd E; for even E one slot of padding after every 32,
 * so that threads writing x = i*E + j (a stride of E) fall in different banks, as CUB's
 * BlockExchange does.
 */
template <int E>
KIT_HD inline int ms_exchange_slot(int x)
{
    return E % 2 == 0 ? x + (int)((unsigned)x / CF_W) : x; /* x >= 0; unsigned, so the division is a shift */
}

/** Elements of dynamic shared memory the sort's kernels need for tiles of `tile` keys (the padded exchange plus one slot for the look-ahead). */
KIT_HD inline int ms_shared_elems(int tile)
{
    return tile + tile / CF_W + 1;
}

/**
 * How many of the first `diag` outputs of merging A (n_a keys) with B (n_b keys) come from A: a
 * merge-path search, ties to A, in shared memory (A and B are S + offset: the baseline's merges).
 */
template <typename P>
__device__ inline int ms_co_rank(P A, int n_a, P B, int n_b, int diag)
{
    return cf_co_rank<false>(diag, n_a, n_b, [&](int mid) { return kit_key(A, mid) <= kit_key(B, diag - 1 - mid); });
}

/** The same search in the CF layout: A key x of the region at logical base + x, B key y at base + region - 1 - y, both through rho. */
template <typename T, int E>
__device__ inline int ms_co_rank_cf(kit_shared<T> S, int base, int region, int n_a, int n_b, int diag)
{
    /* B's key diag - 1 - mid is at base + region - 1 - (diag - 1 - mid) */
    return cf_co_rank<false>(diag, n_a, n_b, [&](int mid) {
        return kit_key(S, ms_slot<E>(base + mid)) <= kit_key(S, ms_slot<E>(base + region - diag + mid));
    });
}

/** Min and max of two plain keys, in place: r0 gets the smaller. */
template <typename T>
__device__ inline void ms_min_max(T &r0, T &r1)
{
    T lo = r1 < r0 ? r1 : r0;
    r1 = r1 < r0 ? r0 : r1;
    r0 = lo;
}

/**
 * What the register sort and merge compare, with a min and a max. Plain keys (int32) are compared
 * alone: equal values are indistinguishable, so any order of ties is the stable one. Key-value
 * pairs (kit_kv32) are compared by (key, origin), a strict order in which ties keep A before B and
 * each list's own order, so the sort and the merge are stable. An unowned key becomes the largest
 * item, above every owned one.
 */
template <typename T, bool PLAIN = ms_plain_key<T>::value>
struct ms_merge_item;

/**
 * A key-value pair as one 64-bit word above its value: the key (its sign bit flipped, so that the
 * word compares unsigned) in the high half and the origin in the low half. One 64-bit comparison
 * orders (key, origin), and an item is three registers, as (key, value, origin) were. An unowned
 * key becomes all ones: (INT32_MAX, origin 2^32 - 1).
 */
template <>
struct ms_merge_item<kit_kv32, false> {
    uint64_t c; /**< (key ^ 0x80000000) << 32 | origin */
    int32_t v;  /**< the value */
    static __device__ ms_merge_item make(kit_kv32 k, int o)
    {
        return {(uint64_t)((uint32_t)k.key ^ 0x80000000u) << 32 | (uint32_t)o, k.value};
    }
    static __device__ ms_merge_item largest() { return {~(uint64_t)0, 0}; }
    __device__ kit_kv32 key() const
    {
        kit_kv32 x;
        x.key = (int32_t)((uint32_t)(c >> 32) ^ 0x80000000u);
        x.value = v;
        return x;
    }
    __device__ bool operator<(const ms_merge_item &b) const { return c < b.c; }
};

/** A plain key (int32) alone; an unowned key becomes the type's largest value. */
template <typename T>
struct ms_merge_item<T, true> {
    T k; /**< the key */
    static __device__ ms_merge_item make(T k, int) { return {k}; }
    static __device__ ms_merge_item largest() { return {ms_plain_key<T>::largest()}; }
    __device__ T key() const { return k; }
    __device__ bool operator<(const ms_merge_item &b) const { return k < b.k; }
};

/**
 * Batcher's merge exchange on E keys (Knuth, TAOCP vol. 3, algorithm 5.2.2M: odd-even merges of
 * runs of 1, 2, 4, ... keys) as a list of comparators (lo[c], hi[c]), lo[c] < hi[c], computed at
 * compile time. For E not a power of two it is the network of the next power of two without the
 * comparators that reach past E: those would compare with a largest key and never exchange. For
 * E = 17 it has 85 comparators, where E passes of odd-even transposition (CUB's
 * StableOddEvenSort) have 136.
 */
template <int E>
struct ms_sort_network {
    int lo[E * E], hi[E * E]; /**< comparator c orders keys lo[c] and hi[c] */
    int n;                     /**< the comparators, fewer than E * E */
    static constexpr KIT_HD ms_sort_network make()
    {
        ms_sort_network w{};
        for (int p = 1; p < E; p *= 2) /* merge runs of p keys into runs of 2p */
            for (int k = p; k >= 1; k /= 2)
                for (int j = k % p; j + k < E; j += 2 * k)
                    for (int i = 0; i < k && i + j + k < E; i++)
                        if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) { /* both in one merge */
                            w.lo[w.n] = i + j;
                            w.hi[w.n] = i + j + k;
                            w.n++;
                        }
        return w;
    }
};

/**
 * Sorts a thread's E keys by (key, origin) with ms_sort_network; keys with origin >= count go
 * last. Any network sorts stably here: the comparators work on ms_merge_item, plain keys alone
 * (equal values are indistinguishable) and key-value pairs as one (key, origin) word, a strict
 * order. FULL says that count is E (a full tile), so that no key needs the test.
 */
template <typename T, int E, bool FULL = false>
__device__ inline void ms_register_sort(T (&key)[E], int (&origin)[E], int count)
{
    typedef ms_merge_item<T> R;
    constexpr ms_sort_network<E> net = ms_sort_network<E>::make();
    R r[E];
    KIT_UNROLL
    for (int j = 0; j < E; j++)
        r[j] = FULL || origin[j] < count ? R::make(key[j], origin[j]) : R::largest();
    KIT_UNROLL
    for (int c = 0; c < net.n; c++)
        ms_min_max(r[net.lo[c]], r[net.hi[c]]);
    KIT_UNROLL
    for (int j = 0; j < E; j++)
        key[j] = r[j].key();
}

/** The smallest power of two >= E. */
template <int E>
struct ms_pow2 {
    static const int value = E <= 1 ? 1 : 2 * ms_pow2<(E + 1) / 2>::value;
};
template <>
struct ms_pow2<1> {
    static const int value = 1;
};

/**
 * Batcher's bitonic merger on r[0 .. P), P a power of two: log2(P) rounds of P/2 comparators. It
 * sorts any circular rotation of a bitonic sequence, so a thread's keys need not be rotated first.
 */
template <typename T, int P, int N>
__device__ inline void ms_bitonic_merge(T (&r)[N])
{
    KIT_UNROLL
    for (int h = P / 2; h >= 1; h /= 2) {
        KIT_UNROLL
        for (int j = 0; j < P; j++)
            if ((j & h) == 0)
                ms_min_max(r[j], r[j + h]);
    }
}

/**
 * Inserts r[L] into the sorted r[0 .. L), leaving r[0 .. L] sorted: two comparisons per key. Call
 * it from unrolled loops, so that every index is a constant and r stays in registers.
 */
template <typename T, int N>
__device__ inline void ms_insert(T (&r)[N], int L)
{
    T v = r[L];
    r[L] = r[L - 1] < v ? v : r[L - 1];
    KIT_UNROLL
    for (int x = L - 1; x >= 1; x--) { /* downwards, so r[x - 1] is still the old one */
        T lo = r[x] < v ? r[x] : v;
        r[x] = r[x - 1] < lo ? lo : r[x - 1];
    }
    r[0] = r[0] < v ? r[0] : v;
}

/**
 * How the register merge of E plain keys handles E that is not a power of two, by the count of
 * comparisons (a comparator is two): merge the first P keys, P the largest power of two <= E, and
 * insert the other E - P one at a time; or pad to the next power of two with copies of the last
 * key and drop them afterwards. For E = 17 the first costs 96 and the second 194; for E = 15, 178
 * and 94.
 */
template <int E>
struct ms_merge_plan {
    static constexpr int log2(int p) { return p <= 1 ? 0 : 1 + log2(p / 2); }
    static constexpr int insert_cost(int from, int to) { return from >= to ? 0 : 2 * from + insert_cost(from + 1, to); }
    static const int up = ms_pow2<E>::value, down = up == E ? E : up / 2;
    static const bool pad = up * log2(up) + 2 * E < down * log2(down) + insert_cost(down, E);
};

/**
 * The CF variant's merge in registers, after ms_cf_gather. Read circularly from register
 * k = a_i mod E, the registers hold A's keys ascending, then B's descending (Algorithm 1 puts A
 * key t in register (k + t) mod E and B key m in (k - 1 - m) mod E): a rotated bitonic sequence,
 * by key and by (key, origin) alike. The thread makes an unowned key the largest item (they sit
 * together between A and B, so the sequence stays bitonic) and merges with Batcher's bitonic
 * merger, which sorts any rotation of a bitonic sequence of a power-of-two length, so the
 * registers are never rotated back. Plain keys are merged alone, other keys with their origins
 * (ms_merge_item). When E is not a power of two, ms_merge_plan picks one of two ways, both with
 * static indices only:
 * - merge the first P registers (they are a rotated bitonic sequence too: dropping keys from one
 *   keeps it bitonic), then insert each of the other E - P keys into the sorted P, P + 1, ...;
 * - or copy the last item u into registers E .. P-1 (next to u in the circular order, so the
 *   sequence stays bitonic), merge all P, and drop the copies: output x is the merged item x when
 *   it is below u, else the merged item x + P - E.
 * FULL says that count is E: then every key is owned, and for plain keys the origins are not
 * needed (the compiler drops their computation in the gather).
 */
template <typename T, int E, bool FULL = false>
__device__ inline void ms_register_merge(T (&key)[E], int (&origin)[E], int count)
{
    typedef ms_merge_plan<E> plan;
    typedef ms_merge_item<T> R;
    R r[plan::up];
    KIT_UNROLL
    for (int j = 0; j < E; j++)
        r[j] = FULL || origin[j] < count ? R::make(key[j], origin[j]) : R::largest();
    if constexpr (plan::pad) {
        R last = r[E - 1];
        KIT_UNROLL
        for (int j = E; j < plan::up; j++)
            r[j] = last;
        ms_bitonic_merge<R, plan::up>(r);
        KIT_UNROLL
        for (int x = 0; x < E; x++)
            key[x] = r[x] < last ? r[x].key() : r[x + plan::up - E].key(); /* selects values: a select of
                two items would take their addresses and put r[] in local memory */
    } else {
        ms_bitonic_merge<R, plan::down>(r);
        KIT_UNROLL
        for (int j = plan::down; j < E; j++)
            ms_insert(r, j);
        KIT_UNROLL
        for (int x = 0; x < E; x++)
            key[x] = r[x].key();
    }
}

/** A barrier between the steps of a merge round: the block's, or only the warp's when every group of threads that merges one pair lies within one warp. */
__device__ inline void ms_sync(bool in_warp)
{
    if (in_warp)
        __syncwarp();
    else
        __syncthreads();
}

/**
 * One thread's part of one merge of the tile in shared memory, either variant: the region
 * [base, base + region) holds a pair, A's n_a keys and B's n_b keys (A at base, B at base + half
 * for the baseline; the CF layout for MS_CF); the thread owns outputs diag .. diag + count - 1 of
 * the pair (diag a multiple of E, possibly past the pair's end at the end of the input, when it
 * owns none) and leaves them in key[0 .. count). A baseline thread that owns none returns at
 * once: no search and no reads (the CF variant's takes its part in the warp's searches, barriers
 * and shuffles). FULL says that every thread of the block owns E outputs (a full tile). in_warp
 * says that the threads merging this pair lie within one warp (block-sort rounds of groups of up
 * to 32 threads); every thread of the block must call this with the same in_warp.
 */
template <typename T, int E, int V, bool FULL = false>
__device__ inline void ms_merge_share(kit_shared<T> S, int base, int half, int region, int n_a, int n_b, int diag,
                                      T (&key)[E], bool in_warp = false)
{
    int total = n_a + n_b, d = diag < total ? diag : total;
    int count = FULL ? E : total - d < E ? total - d : E;
    if (V == MS_BASELINE) {
        if (!FULL && count == 0)
            return; /* past the input's end: no outputs, so no search and no reads */
        int a = ms_co_rank(S + base, n_a, S + base + half, n_b, d);
        ms_serial_merge<T, E>(S, base + a, base + n_a, base + half + d - a, base + half + n_b, count, key);
    } else {
        /* The thread's share ends where the next thread's begins: one search each, shared
           through split[] (the last thread of a group ends at A's end). A thread past the end
           keeps its diagonal, a multiple of E, so that its reads fall in the gap between A and
           B in the same residue class as the warp's others. */
        __shared__ int split[1024];
        int a = ms_co_rank_cf<T, E>(S, base, region, n_a, n_b, d);
        int i = (int)threadIdx.x, a_end;
        bool last = (i + 1) * E >= base + region;
        if (in_warp) { /* the next thread is the next lane: a shuffle, no barrier */
            int next = __shfl_down_sync(0xffffffffu, a, 1);
            a_end = last ? n_a : next;
        } else {
            split[i] = a;
            __syncthreads();
            a_end = last ? n_a : split[i + 1];
        }
        int origin[E];
        ms_cf_gather<T, E>(S, base, region, a, diag - a, a_end - a, count, key, origin);
        ms_register_merge<T, E, FULL>(key, origin, count);
    }
}

/** 16 bytes of keys, the widest store to shared memory (STS.128). */
template <typename T>
struct alignas(16) ms_chunk {
    T k[16 / sizeof(T)]; /**< the keys, in order */
};

/**
 * Stores a thread's E keys, all of them, at S[first ..] 16 bytes at a time. nvcc writes the
 * baseline's contiguous stores of a full share this way by itself (STS.128, results/); written out,
 * the simulator sees the same stores the GPU makes. Needs E * sizeof(T) and the byte offset of
 * S + first to be multiples of 16.
 */
template <typename T, int E>
__device__ inline void ms_store_wide(kit_shared<T> S, int first, const T (&key)[E])
{
    constexpr int per = 16 / sizeof(T);
    kit_shared<ms_chunk<T>> W = kit_shared_cast<ms_chunk<T>>(S + first);
    KIT_UNROLL
    for (int c = 0; c < E / per; c++) {
        ms_chunk<T> x;
        KIT_UNROLL
        for (int t = 0; t < per; t++)
            x.k[t] = key[c * per + t];
        W[c] = x;
    }
}

/**
 * Stores thread i's count keys (tile positions i*E ...) for the block-sort round of groups of g
 * threads: blocked for the baseline, in that round's CF layout for MS_CF. The baseline's full tile
 * (FULL) stores 16 bytes at a time, as nvcc does. In the last, partial tile nvcc stores every
 * thread's keys one at a time, those of the threads that own E keys too (results/, ncu per
 * instruction: 16 STS.64 for kv32 E = 16), so the source does the same there.
 */
template <typename T, int E, int V, bool FULL>
__device__ inline void ms_store_for_round(kit_shared<T> S, int i, int count, int g, const T (&key)[E])
{
    if constexpr (V == MS_BASELINE && FULL && E * sizeof(T) % 16 == 0) {
        ms_store_wide<T, E>(S, i * E, key);
        return;
    }
    int region = g * E, half = region / 2, base = (i & ~(g - 1)) * E, p0 = i * E - base; /* g is a power of two */
    /* The thread's keys are all in A or all in B (half is a multiple of E): in the CF layout they
       go forwards from key p0's position, or backwards. The direction comes from the positions of
       the first and the last key, so that a skeleton's constant position stays inside the tile. */
    int first = V == MS_BASELINE ? p0 : ms_cf_position(p0, half, region);
    int step = V == MS_BASELINE || ms_cf_position(p0 + E - 1, half, region) >= first ? 1 : -1;
    KIT_UNROLL
    for (int t = 0; t < E; t++)
        if (t < count)
            S[V == MS_BASELINE ? base + first + t : ms_slot<E>(base + first + step * t)] = key[t];
}

/**
 * How a kernel ends: each thread's `count` keys go into the padded exchange (thread i's at i*E,
 * ...), then the block writes its tile of len keys back, coalesced: E reads of shared memory
 * each, then E stores. FULL: the tile is full (len == u*E), so every thread stores its E keys with
 * no test on count; the tests cost the CF merge kernel 17 compares a thread.
 */
template <typename T, int E, bool FULL>
__device__ inline void ms_write_tile(kit_shared<T> S, const T (&key)[E], int count, T *out, int len)
{
    const int u = (int)blockDim.x, i = (int)threadIdx.x;
    __syncthreads();
    KIT_UNROLL
    for (int t = 0; t < E; t++)
        if (FULL || t < count)
            S[ms_exchange_slot<E>(i * E + t)] = key[t];
    __syncthreads();
    if constexpr (FULL) { /* E copies a thread, unrolled */
        KIT_UNROLL
        for (int r = 0; r < E; r++)
            out[i + r * u] = S[ms_exchange_slot<E>(i + r * u)];
    } else {
        KIT_NO_UNROLL /* the last tile: a thread's trip count may be one more than its warp's others' */
        for (int x = i; x < len; x += u)
            out[x] = S[ms_exchange_slot<E>(x)];
    }
}

/**
 * The sorted runs' samples, which make a global round's partition short (ms_partition_kernel):
 * every q = MS_SAMPLE_THREADS * E output positions of a kernel (q divides the tile, as u is a
 * multiple of 32), the key at the first position of the segment goes to head[] and the key at its
 * last to tail[]. A segment that the input's end cuts short has no tail.
 */
#define MS_SAMPLE_THREADS 8

/** The key type of the samples: the key alone (int32 for both of the kit's types). */
template <typename T>
using ms_sample_t = kit_key_t<const T *>;

/**
 * Writes a thread's samples, for a kernel whose thread number g (over the grid) holds its outputs
 * g*E .. g*E + count - 1: segment g / MS_SAMPLE_THREADS, whose head is in the first thread of every
 * MS_SAMPLE_THREADS and its tail in the last. Both kernels call it after their tile is written, so
 * that every round leaves the samples of what the next round reads. The segment's number is a
 * shift of g: a 64-bit division of the position by q cost the CF merge kernel about 4% of its time
 * (results/2026-11-28-h100-h200-sample-partition/).
 */
template <typename T, int E>
__device__ inline void ms_write_samples(const T (&key)[E], int count, ms_sample_t<T> *head, ms_sample_t<T> *tail)
{
    const unsigned g = blockIdx.x * blockDim.x + threadIdx.x, segment = g / MS_SAMPLE_THREADS;
    if (g % MS_SAMPLE_THREADS == 0 && count > 0)
        head[segment] = kit_key(key, 0);
    if (g % MS_SAMPLE_THREADS == MS_SAMPLE_THREADS - 1 && count == E)
        tail[segment] = kit_key(key, E - 1);
}

/**
 * The pair that thread i merges in the block-sort round of groups of g threads, in a tile of len
 * keys: the first position of its region of g*E slots, and the lengths of its two runs (g*E/2
 * each in a full tile, fewer or none at the end of the input).
 */
template <int E>
KIT_HD inline void ms_round_pair(int i, int g, int len, int *base, int *n_a, int *n_b)
{
    int half = g * E / 2, b = i / g * 2 * half;
    *base = b;
    *n_a = len - b < 0 ? 0 : len - b < half ? len - b : half;
    *n_b = len - b - half < 0 ? 0 : len - b - half < half ? len - b - half : half;
}

/**
 * The block sort's work on thread i's keys, after the tile is in shared memory (padded exchange):
 * its count keys (tile positions i*E ...) sorted in registers, then the merge rounds, groups of
 * g = 2, 4, ..., u threads. In the CF variant, while the groups lie within one warp (g <= 32),
 * each warp reads and writes only its own part of the tile, so the rounds need only the warp's
 * barriers; the first store needs the block's, as it overwrites the padded exchange. The
 * baseline keeps the block's barriers: its look-ahead reads one key past its pair, which for a
 * warp's last group is the next warp's (CUB's block sort also synchronizes the block in every
 * round). FULL: the tile is full, so every thread owns E keys in every round.
 */
template <typename T, int E, int V, bool FULL>
__device__ inline void ms_block_rounds(kit_shared<T> S, int len, int count, T (&key)[E])
{
    const int u = (int)blockDim.x, i = (int)threadIdx.x;
    int origin[E];
    KIT_UNROLL
    for (int t = 0; t < E; t++) {
        key[t] = S[ms_exchange_slot<E>(FULL || t < count ? i * E + t : 0)];
        origin[t] = t;
    }
    ms_register_sort<T, E, FULL>(key, origin, count);
    for (int g = 2; g <= u; g *= 2) { /* groups of g threads merge runs of g*E/2 keys */
        bool in_warp = V == MS_CF && g <= CF_W;
        ms_sync(in_warp && g > 2);
        ms_store_for_round<T, E, V, FULL>(S, i, FULL ? E : count, g, key);
        ms_sync(in_warp);
        int base, n_a, n_b;
        ms_round_pair<E>(i, g, len, &base, &n_a, &n_b);
        ms_merge_share<T, E, V, FULL>(S, base, g * E / 2, g * E, n_a, n_b, (i % g) * E, key, in_warp);
    }
}

/**
 * The block sort: block b sorts keys [b*u*E, (b+1)*u*E) of `in` (fewer for the last block) into
 * the same place of `out`, and writes their samples (ms_write_samples). Launch: grid
 * ceil(n / (u*E)) blocks of u threads, u a power of two and a multiple of 32; dynamic shared
 * memory ms_shared_elems(u*E) elements of T.
 */
template <typename T, int E, int V>
__global__ void ms_block_sort_kernel(const T *in, T *out, int n, ms_sample_t<T> *head, ms_sample_t<T> *tail)
{
    KIT_WAIT_PRIOR_GRID(); /* ms_sort launches every kernel dependent on the one before */
    kit_shared<T> S = KIT_DYNAMIC_SHARED(T);
    const int u = (int)blockDim.x, tile = u * E, i = (int)threadIdx.x;
    const long long start = (long long)blockIdx.x * tile;
    const int len = (int)(n - start < tile ? n - start : tile);
    T key[E] = {}; /* every output is written before it is used; the braces keep a skeleton warning-free */
    if (len == tile) { /* a full tile: the E loads of a thread all in flight before its stores */
        KIT_UNROLL
        for (int r = 0; r < E; r++)
            key[r] = in[start + i + r * u];
        KIT_UNROLL
        for (int r = 0; r < E; r++)
            S[ms_exchange_slot<E>(i + r * u)] = key[r];
    } else { /* the last tile: a thread's trip count may be one more than its warp's others' */
        KIT_NO_UNROLL
        for (int x = i; x < len; x += u)
            S[ms_exchange_slot<E>(x)] = in[start + x];
    }
    __syncthreads();
    KIT_START_NEXT_GRID(); /* the tile is loaded: the next kernel's blocks may start and wait for this one's end */
    int count = len - i * E < 0 ? 0 : len - i * E < E ? len - i * E : E;
    if (len == tile) {
        ms_block_rounds<T, E, V, true>(S, len, count, key);
        ms_write_tile<T, E, true>(S, key, count, out + start, len);
    } else {
        ms_block_rounds<T, E, V, false>(S, len, count, key);
        ms_write_tile<T, E, false>(S, key, count, out + start, len);
    }
    ms_write_samples<T, E>(key, count, head, tail);
}

/** The pair of runs of length s that output position o (of n) belongs to: its first key, and the lengths of its A and B. */
KIT_HD inline void ms_pair_of(long long o, int n, long long s, long long *first, int *n_a, int *n_b)
{
    long long f = o / (2 * s) * (2 * s), rest = n - f;
    *first = f;
    *n_a = (int)(rest < s ? rest : s);
    *n_b = (int)(rest - *n_a < s ? rest - *n_a : s);
}

/** The first x in [lo, hi) at which pred(x) is false, or hi, for a pred that is true and then false: a bisection. */
template <typename Pred>
__device__ inline int ms_first_false(int lo, int hi, Pred pred)
{
    while (lo < hi) {
        int mid = lo + ((hi - lo) >> 1);
        if (pred(mid))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/**
 * The keys' window that the samples leave to a merge-path search over [lo, hi): c is the first of
 * the sample positions i*q in [lo, hi) (i from ceil(lo/q)) whose question is answered no, or the
 * first past them. The answer lies in [*w_lo, *w_hi], fewer than q positions, within [lo, hi].
 */
KIT_HD inline void ms_sample_window(int lo, int hi, int q, int c, int *w_lo, int *w_hi)
{
    *w_lo = c > (lo + q - 1) / q ? (c - 1) * q + 1 : lo; /* A's key (c-1)*q comes before: so does every one up to it */
    *w_hi = c < (hi + q - 1) / q ? c * q : hi;           /* A's key c*q does not */
}

/**
 * A global round's partition: for tile t (outputs t*tile ...), how many of its pair's outputs
 * before the tile come from A (a merge-path search, ties to A), in part[t]; one thread a tile.
 * The question at A's position mid is whether A's key mid comes before B's key diag - 1 - mid
 * (true, then false). A bisection of the keys waits on log2(s) dependent reads of DRAM, so the
 * search asks in two steps:
 * - by bisection at the samples' positions mid = i*q, over head[] and tail[] (ms_write_samples),
 *   which are q times smaller, eight to a 32-byte sector: A's key i*q is the head of a segment
 *   and, as diag and both runs start at multiples of q, B's key diag - 1 - i*q is the tail of one;
 * - then by bisection of the keys in the window of fewer than q positions that step leaves.
 * At 71,303,168 keys on an H100 the 14 partitions take 182 us this way, 363 us by bisection of the
 * keys alone. One thread a tile also beat 4, 8 or 32 lanes a tile that ask at the last samples and
 * at the window's keys at once: with them the sort was 0.5 to 3% slower at 2^28
 * (results/2026-11-28-h100-h200-sample-partition/). Launch (ms_partition): one thread per tile.
 */
template <typename T, int E>
__global__ void ms_partition_kernel(const T *keys, int n, int s, int tile, int tiles, const ms_sample_t<T> *head,
                                    const ms_sample_t<T> *tail, int *part)
{
    KIT_WAIT_PRIOR_GRID();
    KIT_START_NEXT_GRID(); /* a short kernel: the merge kernel's blocks may start at once and wait for it */
    const int q = MS_SAMPLE_THREADS * E;
    int t = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (t >= tiles)
        return;
    long long first;
    int n_a, n_b;
    ms_pair_of((long long)t * tile, n, s, &first, &n_a, &n_b);
    int diag = (int)((long long)t * tile - first);
    const T *A = keys + first, *B = keys + first + n_a;
    int lo = diag > n_b ? diag - n_b : 0, hi = diag < n_a ? diag : n_a;
    /* samples i0 .. i1-1 lie in [lo, hi); B's key diag - 1 - i*q is the tail of segment tb - i
       (when n_b is 0 the range is empty and tb is not used) */
    long long ha = first / q, tb = (first + n_a + diag) / q - 1;
    int i0 = (lo + q - 1) / q, i1 = (hi + q - 1) / q;
    int c = ms_first_false(i0, i1, [&](int i) { return head[ha + i] <= tail[tb - i]; });
    ms_sample_window(lo, hi, q, c, &lo, &hi);
    part[t] = ms_first_false(lo, hi, [&](int mid) { return kit_key(A, mid) <= kit_key(B, diag - 1 - mid); });
}

/** Launches the partition of the round of runs of s keys (ms_partition_kernel): part[t] for each of the tiles of `tile` keys. */
template <typename T, int E>
void ms_partition(const T *keys, int n, int s, int tile, int tiles, const ms_sample_t<T> *head,
                  const ms_sample_t<T> *tail, int *part)
{
    KIT_LAUNCH_DEPENDENT((ms_partition_kernel<T, E>), (tiles + 255) / 256, 256, 0, keys, n, s, tile, tiles, head, tail,
                         part);
}

/**
 * A global round's merge: block t merges tile t of the round's output (runs of s keys of `in`,
 * merged in pairs into `out`), with the split part[] from ms_partition_kernel. The tile's part of
 * A and of B go to shared memory (A then B for the baseline, the CF layout for MS_CF), each
 * thread merges E outputs, and the block writes the tile back coalesced, then its samples (for the
 * next round's partition). Launch: one block of u threads per tile (u a multiple of 32); dynamic
 * shared memory ms_shared_elems(u*E) elements of T.
 */
template <typename T, int E, int V>
__global__ void ms_merge_kernel(const T *in, T *out, int n, int s, const int *part, ms_sample_t<T> *head,
                                ms_sample_t<T> *tail)
{
    KIT_WAIT_PRIOR_GRID();
    kit_shared<T> S = KIT_DYNAMIC_SHARED(T);
    const int u = (int)blockDim.x, tile = u * E, i = (int)threadIdx.x, t = (int)blockIdx.x;
    const long long o0 = (long long)t * tile;
    long long first;
    int pair_a, pair_b;
    ms_pair_of(o0, n, s, &first, &pair_a, &pair_b);
    int d0 = (int)(o0 - first), len = (int)(n - o0 < tile ? n - o0 : tile), d1 = d0 + len;
    int a0 = part[t], a1 = d1 == pair_a + pair_b ? pair_a : part[t + 1];
    int n_a = a1 - a0, n_b = len - n_a;
    const T *pair = kit_base_pointer(in + first), *A = pair + a0, *B = pair + pair_a + (d0 - a0);
    T key[E] = {}; /* every output is written before it is used; the braces keep a skeleton warning-free */
    if (len == tile) {
        /* A full tile: the E loads of a thread all in flight before its stores, thread i's keys
           x = i, i + u, ... of the tile (A's, then B's). BY_POSITION: CF on 4-byte keys takes the
           key at position x of the CF layout instead, where B's key y sits at tile - 1 - y, so that
           position x >= n_a holds B's key tile - 1 - x: a load at a reversed address, and a store
           at x, known at compile time but for i (88 instructions fewer in the int32 kernel's code
           for E = 17). For 8-byte keys the reversed address costs registers, 72 against 64, a
           block fewer on each SM: the sort of pairs was 4.8% slower on the H200. They keep the
           keys' order (results/2026-11-28-h100-h200-merge-exchange/). Each load picks an int
           offset from the pair's start, then makes one address of it (kit_base_pointer): choosing
           between two addresses, A + x or B + ..., cost 64-bit arithmetic on both. */
        constexpr bool by_position = V == MS_CF && sizeof(T) == 4;
        const int b0 = pair_a + d0 - a0; /* B's first key of the tile, from the pair's start */
        T v[E];
        KIT_UNROLL
        for (int r = 0; r < E; r++) {
            int x = i + r * u;
            v[r] = pair[x < n_a ? a0 + x : b0 + (by_position ? tile - 1 - x : x - n_a)];
        }
        KIT_UNROLL
        for (int r = 0; r < E; r++) {
            int x = i + r * u;
            S[V == MS_BASELINE ? x : ms_slot<E>(by_position ? x : ms_cf_position(x, n_a, tile))] = v[r];
        }
    } else { /* the last tile: a thread's trip count may be one more than its warp's others' */
        KIT_NO_UNROLL
        for (int x = i; x < len; x += u)
            S[V == MS_BASELINE ? x : ms_slot<E>(ms_cf_position(x, n_a, tile))] = x < n_a ? A[x] : B[x - n_a];
    }
    __syncthreads();
    KIT_START_NEXT_GRID();
    int count = len - i * E < 0 ? 0 : len - i * E < E ? len - i * E : E;
    if (len == tile) {
        ms_merge_share<T, E, V, true>(S, 0, n_a, tile, n_a, n_b, i * E, key);
        ms_write_tile<T, E, true>(S, key, count, out + o0, len);
    } else {
        ms_merge_share<T, E, V, false>(S, 0, n_a, tile, n_a, n_b, i * E, key);
        ms_write_tile<T, E, false>(S, key, count, out + o0, len);
    }
    ms_write_samples<T, E>(key, count, head, tail);
}

/** Tiles of a sort of n keys with u threads and E keys per thread. */
KIT_HD inline int ms_tiles(int n, int u, int E)
{
    return (int)(((long long)n + (long long)u * E - 1) / ((long long)u * E));
}

/** Samples of each kind (head, tail) for n keys with E keys per thread: one a segment of MS_SAMPLE_THREADS * E positions. */
KIT_HD inline int ms_samples(int n, int E)
{
    return n / (MS_SAMPLE_THREADS * E) + 1;
}

/** The ints of scratch ms_sort needs besides d_tmp: the partition (a tile's split each), then both kinds of samples. */
KIT_HD inline size_t ms_scratch_ints(int n, int u, int E)
{
    return (size_t)ms_tiles(n, u, E) + 2 * (size_t)ms_samples(n, E);
}

/** Where in that scratch the samples' heads start (after the partition); their tails follow ms_samples(n, E) later. */
KIT_HD inline size_t ms_heads_at(int n, int u, int E)
{
    return (size_t)ms_tiles(n, u, E);
}

/**
 * Sorts d_keys[0 .. n) on the device, stably, with variant V, E keys per thread and u threads
 * per block (a power of two, 32 .. 512, as lab09_check_cfg allows). d_tmp holds n keys, and
 * d_scratch ms_scratch_ints(n, u, E) ints: the partition, then the samples' heads and tails. The
 * result is in d_keys. Launch errors are left for cudaGetLastError(). Every kernel is launched
 * dependent on the one before (KIT_LAUNCH_DEPENDENT, as CUB launches its merge sort's): its
 * blocks may start while that one is finishing, and wait for its end before they touch memory.
 * On an H200 that made the CF sort of 2^24 keys 4% faster (results/2026-11-28-h100-h200-targeted-worst/).
 */
template <typename T, int E, int V>
void ms_sort(T *d_keys, T *d_tmp, int *d_scratch, int n, int u)
{
    static_assert(sizeof(ms_sample_t<T>) == sizeof(int), "a sample is one int of scratch");
    if (n <= 0)
        return;
    int tile = u * E, tiles = ms_tiles(n, u, E);
    int *d_part = d_scratch;
    ms_sample_t<T> *head = (ms_sample_t<T> *)(d_scratch + ms_heads_at(n, u, E)), *tail = head + ms_samples(n, E);
    size_t bytes = (size_t)ms_shared_elems(tile) * sizeof(T);
    KIT_ALLOW_SHARED((ms_block_sort_kernel<T, E, V>), bytes);
    KIT_ALLOW_SHARED((ms_merge_kernel<T, E, V>), bytes);
    /* Each global round swaps the buffers: the block sort writes where the last round must read. */
    int rounds = 0;
    for (long long s = tile; s < n; s *= 2)
        rounds++;
    T *src = rounds % 2 == 0 ? d_keys : d_tmp, *dst = rounds % 2 == 0 ? d_tmp : d_keys;
    /* in place when src is d_keys: a block reads its tile before it writes */
    KIT_LAUNCH_DEPENDENT((ms_block_sort_kernel<T, E, V>), tiles, u, bytes, d_keys, src, n, head, tail);
    for (long long s = tile; s < n; s *= 2) {
        ms_partition<T, E>(src, n, (int)s, tile, tiles, head, tail, d_part);
        KIT_LAUNCH_DEPENDENT((ms_merge_kernel<T, E, V>), tiles, u, bytes, src, dst, n, (int)s, d_part, head, tail);
        T *swap = src;
        src = dst;
        dst = swap;
    }
}

#endif
