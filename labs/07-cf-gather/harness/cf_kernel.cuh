/** @file
 * Lab 7's given block merge kernel (CF-Merge): the tile's co-ranks by a fixed-length search, the
 * tile stored as rho(A u pi(B)), and each thread's E keys gathered through the student's
 * cf_gather_index and cf_slot (cf_merge.cuh), then merged in registers. lab07.cuh includes it
 * after the student's file; lab 9's kernels use its merge-path search (cf_co_rank).
 */
#ifndef LAB07_CF_KERNEL_CUH
#define LAB07_CF_KERNEL_CUH

#include "kit_lab.h"
#include "cf_given.cuh"
#include "cf_merge.cuh"

/** Bytes of dynamic shared memory cf_merge_kernel<T, E> needs with u threads: the tile. */
template <typename T>
KIT_HD size_t cf_merge_shared_bytes(int E, int threads)
{
    return (size_t)E * (size_t)threads * sizeof(T);
}

/** Passes of the fixed-length co-rank search over a tile of `tile` keys: ceil(log2(tile + 1)). */
KIT_HD inline int cf_search_passes(int tile)
{
    int passes = 0;
    while ((1 << passes) < tile + 1)
        passes++;
    return passes;
}

/**
 * The merge-path search of labs 7 and 9: how many of the first `diag` outputs of merging A (n_a
 * keys) with B (n_b keys) come from A, ties to A. a_first(mid) says whether A's key mid comes
 * before B's key diag - 1 - mid (A's <= B's), reading them wherever and however the caller keeps
 * them. Without FIXED the bisection stops when it has found the answer. With FIXED it makes
 * exactly `passes` passes and asks a_first in each, so that every thread of a block reads the same
 * number of times; a pass after the answer is found asks about the middle of an empty range, and
 * its answer is ignored. (A template parameter, so that the plain search has no pass counter.)
 */
template <bool FIXED, typename AFirst>
__device__ inline int cf_co_rank(int diag, int n_a, int n_b, AFirst a_first, int passes = 0)
{
    int lo = diag > n_b ? diag - n_b : 0, hi = diag < n_a ? diag : n_a;
    for (int p = 0; FIXED ? p < passes : lo < hi; p++) {
        int mid = lo + ((hi - lo) >> 1);
        bool a = a_first(mid);
        if (!FIXED || lo < hi) {
            if (a)
                lo = mid + 1;
            else
                hi = mid;
        }
    }
    return lo;
}

/**
 * The co-rank of diagonal `diag` in the tile stored as rho(A u pi(B)): A's key x at logical
 * position x, B's key y at tile - 1 - y, both through cf_slot. A fixed number of passes; a pass
 * after the answer is found reads keys clamped into range (its answer is not used).
 */
template <typename T>
__device__ int cf_tile_co_rank(kit_shared<T> S, int diag, int n_a, int n_b, int E, int tile, int passes)
{
    auto a_first = [&](int mid) {
        int x = mid < n_a ? mid : (n_a > 0 ? n_a - 1 : 0), y = diag - 1 - mid;
        y = y < 0 ? 0 : y >= n_b ? (n_b > 0 ? n_b - 1 : 0) : y;
        kit_key_t<kit_shared<T>> a = kit_key(S, cf_slot(x, E)); /* the keys alone: see kit_key */
        kit_key_t<kit_shared<T>> b = kit_key(S, cf_slot(tile - 1 - y, E));
        return a <= b;
    };
    return cf_co_rank<true>(diag, n_a, n_b, a_first, passes);
}

/**
 * Odd-even transposition: E passes of compare-exchange on neighbours, static indices only, which
 * sort E keys. The passes go in pairs (even, odd) in a loop that is not unrolled, so the code
 * holds one pair of passes, not E; each pass is unrolled, so every index is a constant. (Lab 9's
 * register sort has the same passes on its own items, ms_register_sort.)
 * @param exchange the comparator, called as exchange(k0, o0, k1, o1, count)
 */
template <typename T, int E, typename Exchange>
__device__ inline void cf_odd_even_sort(T (&key)[E], int (&origin)[E], int count, Exchange exchange)
{
    for (int pair = 0; pair < (E + 1) / 2; pair++) {
        KIT_UNROLL
        for (int p = 0; p + 1 < E; p += 2)
            exchange(key[p], origin[p], key[p + 1], origin[p + 1], count);
        KIT_UNROLL
        for (int p = 1; p + 1 < E; p += 2)
            exchange(key[p], origin[p], key[p + 1], origin[p + 1], count);
    }
}

/**
 * One comparator of the register merge: puts the smaller of two keys first, ordered by key, then
 * by origin (A before B, and in list order, so the merge is stable). A key whose origin is
 * count or more belongs to no output and goes last.
 */
template <typename T>
__device__ inline void cf_compare_exchange(T &k0, int &o0, T &k1, int &o1, int count)
{
    bool swap = o1 < count && (o0 >= count || k1 < k0 || (!(k0 < k1) && o1 < o0));
    T k = swap ? k1 : k0;
    k1 = swap ? k0 : k1;
    k0 = k;
    int o = swap ? o1 : o0;
    o1 = swap ? o0 : o1;
    o0 = o;
}

/**
 * CF-Merge of A (m keys) and B (n keys) into C, stable (ties keep A first). Each block merges
 * tiles of u*E outputs (tile t, t + gridDim.x, ...): one co-rank in global memory finds the
 * tile's parts of A and B; the block stores them permuted (rho(A u pi(B))); each thread finds its
 * a_i with a fixed-length search; it gathers its E keys in E conflict-free rounds
 * (cf_gather_index, cf_slot); it sorts them in registers with an odd-even transposition network
 * (static indexing only), ordered by key, then by origin; it writes its E outputs.
 *
 * Launch: any 1-D grid; u = blockDim.x a multiple of CF_W; dynamic shared memory
 * cf_merge_shared_bytes<T>(E, u) plus nothing else; E from 2 to 32.
 */
template <typename T, int E>
__global__ void cf_merge_kernel(const T *A, int m, const T *B, int n, T *C)
{
    kit_shared<T> S = KIT_DYNAMIC_SHARED(T);
    __shared__ int part[2];
    const int u = (int)blockDim.x, tile = u * E, total = m + n, i = (int)threadIdx.x;
    const int passes = cf_search_passes(tile);
    for (long long c0 = (long long)blockIdx.x * tile; c0 < total; c0 += (long long)gridDim.x * tile) {
        int len = (int)(total - c0 < tile ? total - c0 : tile);
        /* The tile's parts of A and B: two co-ranks in global memory, by threads 0 and 1. */
        for (int r = i; r < 2; r += u) {
            int diag = (int)c0 + (r == 0 ? 0 : len);
            part[r] = cf_co_rank<false>(diag, m, n, [&](int mid) { return kit_key(A, mid) <= kit_key(B, diag - 1 - mid); });
        }
        __syncthreads();
        int a0 = part[0], n_a = part[1] - part[0], n_b = len - n_a, b0 = (int)c0 - a0;
        /* rho(A u pi(B)): A key x at logical position x, B key b at tile - 1 - b. */
        for (int x = i; x < len; x += u) {
            T v = x < n_a ? A[a0 + x] : B[b0 + (x - n_a)];
            int pos = x < n_a ? x : tile - 1 - (x - n_a);
            S[cf_slot(pos, E)] = v;
        }
        __syncthreads();

        /* Thread i's share: diagonals i*E and (i+1)*E of the tile, clamped to its length. */
        int d0 = i * E < len ? i * E : len, d1 = (i + 1) * E < len ? (i + 1) * E : len;
        int a_i = cf_tile_co_rank(S, d0, n_a, n_b, E, tile, passes);
        int a_next = cf_tile_co_rank(S, d1, n_a, n_b, E, tile, passes);
        int count = d1 - d0, my_a = a_next - a_i, b_i = d0 - a_i;
        /* The gather: E rounds, one key each. A thread with fewer than E outputs (the tile's
           tail) still reads in every round, so the warp stays in step; what it does not own
           is read from slot 0 instead and sorts last. */
        T key[E];
        int origin[E];
        KIT_UNROLL
        for (int j = 0; j < E; j++) {
            int o;
            int pos = cf_gather_index(j, a_i, b_i, my_a, E, tile, &o);
            key[j] = S[o < count ? cf_slot(pos, E) : 0];
            origin[j] = o < count ? o : E + j; /* unowned keys sort after every owned one */
        }
        cf_odd_even_sort(key, origin, count, [](T &k0, int &o0, T &k1, int &o1, int c) { cf_compare_exchange(k0, o0, k1, o1, c); });
        KIT_UNROLL
        for (int j = 0; j < E; j++)
            if (j < count)
                C[c0 + d0 + j] = key[j];
        __syncthreads(); /* the tile and part[] are reused by the next tile */
    }
}

#endif
