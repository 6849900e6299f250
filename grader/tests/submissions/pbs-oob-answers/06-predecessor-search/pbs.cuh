/** @file
 * Lab 6, batched predecessor search in shared memory: the one file you edit for this lab.
 * PBS (the plain parallel binary search) is given; you write the conflict-free PBS-CF and the
 * conflict-limited PBS-CL. The handout is handouts/06-predecessor-search.md; `make check LAB=06`
 * runs the tests.
 *
 * All three search a padded key list P in shared memory: PBS_W copies of the smallest value, the
 * K sorted keys, then PBS_W copies of the largest value, so key i is P[PBS_W + i]. Each returns
 * the predecessor of q: the largest i with key i <= q, or -1 if there is none.
 */
#ifndef LAB06_PBS_CUH
#define LAB06_PBS_CUH

#include "kit_lab.h"

/** Banks of shared memory, and threads of a warp: w in the paper. */
#define PBS_W 32

/** ceil(log2(K)) for K >= 1: the number of passes of PBS (Algorithm 1). */
KIT_HD inline int pbs_ceil_log2(int K)
{
    int passes = 0;
    while ((1LL << passes) < K)
        passes++;
    return passes;
}

/** The smallest power of two that is at least x (x >= 1). */
KIT_HD inline int pbs_pow2_at_least(int x)
{
    int p = 1;
    while (p < x)
        p *= 2;
    return p;
}

/**
 * PBS, Algorithm 1 of the paper: a binary search that starts in the middle and moves by
 * delta = ceil(K/4), ceil(K/8), ... for ceil(log2 K) passes, then one last test. The padding
 * replaces the printed min/max: a pass may step up to PBS_W - 1 places past either end, where it
 * reads a pad. Every thread makes ceil(log2 K) + 1 reads, whatever its query.
 * @param[in] P padded keys (see the file comment)
 * @param[in] K number of keys, K >= 1
 * @param[in] q the query
 * @return the largest i with key i <= q, or -1
 */
template <typename Keys>
KIT_HD int pbs_search(Keys P, int K, kit_value_t<Keys> q)
{
    int index = K / 2, delta = (K + 3) / 4;
    for (int pass = pbs_ceil_log2(K); pass > 0; pass--) {
        kit_value_t<Keys> key = P[PBS_W + index];
        index = q >= key ? index + delta : index - delta;
        delta = (delta + 1) / 2;
    }
    kit_value_t<Keys> last = P[PBS_W + index];
    if (q < last)
        index--;
    /* The pads make the search land on -1 or K - 1 at the ends; these only guard the padding. */
    return index < -1 ? -1 : index > K - 1 ? K - 1 : index;
}

/**
 * Where PBS-CF and PBS-CL read padded position p: past the keys, a read goes to the top pad in
 * p's own bank (positions K + PBS_W .. K + 2 PBS_W - 1 hold one pad in every bank), so a thread
 * that searches beyond the end still reads from its own bank.
 */
KIT_HD inline int pbs_slot(int p, int K)
{
    int top = K + PBS_W;
    return p < top ? p : top + (p - top) % PBS_W;
}

/**
 * Stage 1 of PBS-CF and PBS-CL: the window of PBS_W keys that holds q's predecessor.
 * Thread `lane` searches only positions lane + j*PBS_W of the padded list, all in its own bank,
 * so no two threads of a warp ever read the same bank. It is Algorithm 2 with every delta a
 * multiple of PBS_W, over J*PBS_W positions (J a power of two, enough to cover the keys), then
 * the first test of Algorithm 3, which picks the window above or below the last position.
 * @param[in] P    padded keys
 * @param[in] K    number of keys, K >= 1
 * @param[in] q    the query
 * @param[in] lane the thread's lane, 0 .. PBS_W - 1
 * @return the padded position b of the window: the predecessor is at a padded position in
 *         b .. b + PBS_W - 1, and P[b] <= q
 */
template <typename Keys>
KIT_HD int pbs_window(Keys P, int K, kit_value_t<Keys> q, int lane)
{
    /* Lane 0 has the most positions at or below the last key: j = 0 .. (K + PBS_W - 1) / PBS_W.
       Every lane uses lane 0's J, so all threads of a warp make the same number of reads. */
    int J = pbs_pow2_at_least((K + PBS_W - 1) / PBS_W + 1);
    if (J < 2)
        J = 2;
    int index = lane + PBS_W * (J / 2);
    for (int delta = PBS_W * (J / 4); delta >= PBS_W; delta /= 2) {
        kit_value_t<Keys> key = P[pbs_slot(index, K)];
        /* Algorithm 1's test, "q >= key: go up". Algorithm 2 prints it the other way round. */
        index += q >= key ? delta : -delta;
    }
    kit_value_t<Keys> key = P[pbs_slot(index, K)];
    return q >= key ? index : index - PBS_W;
}

/**
 * PBS-CF: stage 1 (pbs_window), then stage 2, a linear scan of the window's PBS_W keys in
 * lock-step. In scan step i thread `lane` reads position b + i, whose bank is lane + i mod
 * PBS_W, so the warp never has a bank conflict.
 * @param[in] P    padded keys
 * @param[in] K    number of keys, K >= 1
 * @param[in] q    the query
 * @param[in] lane the thread's lane, 0 .. PBS_W - 1
 * @return the largest i with key i <= q, or -1
 */
template <typename Keys>
KIT_HD int pbs_cf_search(Keys P, int K, kit_value_t<Keys> q, int lane)
{
    int b = pbs_window(P, K, q, lane), found = b;
    for (int i = 0; i < PBS_W; i++) {
        kit_value_t<Keys> key = P[pbs_slot(b + i, K)];
        found = key <= q ? b + i : found;
    }
    /* A query equal to the largest value also passes the top pads: the answer is then K - 1. */
    return found - PBS_W > K - 1 ? K - 1 : found - PBS_W;
}

/**
 * PBS-CL: stage 1 (pbs_window), then stage 2, a binary search of the window with deltas
 * PBS_W/2, PBS_W/4, ..., 1 that every thread of the warp uses at the same time. Step s reads
 * one of 2^s positions per thread, lane + odd multiples of PBS_W/2^(s+1), so a warp's step costs
 * at most 2^s accesses: at most PBS_W - 1 in all (Figure 6 of the paper).
 * @param[in] P    padded keys
 * @param[in] K    number of keys, K >= 1
 * @param[in] q    the query
 * @param[in] lane the thread's lane, 0 .. PBS_W - 1
 * @return the largest i with key i <= q, or -1
 */
template <typename Keys>
KIT_HD int pbs_cl_search(Keys P, int K, kit_value_t<Keys> q, int lane)
{
    int b = pbs_window(P, K, q, lane); /* P[b] <= q: the answer is b or above */
    for (int delta = PBS_W / 2; delta >= 1; delta /= 2) {
        kit_value_t<Keys> key = P[pbs_slot(b + delta, K)];
        b = key <= q ? b + delta : b;
    }
    return b - PBS_W > K - 1 ? K - 1 : b - PBS_W;
}

/** Which search pbs_kernel runs. */
enum pbs_alg { PBS_PLAIN = 0, PBS_CF = 1, PBS_CL = 2 };

/** The padded list's length in shared memory: K + 2 PBS_W, rounded up to whole rounds of the block. */
KIT_HD inline int pbs_padded_length(int K, int threads)
{
    return (K + 2 * PBS_W + threads - 1) / threads * threads;
}

/** Bytes of dynamic shared memory pbs_kernel needs. */
template <typename T>
KIT_HD size_t pbs_shared_bytes(int K, int threads)
{
    return (size_t)pbs_padded_length(K, threads) * sizeof(T);
}

/**
 * Answers Q queries against K sorted keys: every block copies the keys into shared memory,
 * padded, then each thread answers queries x = global thread index, + all threads, ...
 * It is given: you write the searches it calls.
 *
 * Launch: any 1-D grid of 1-D blocks whose size is a multiple of PBS_W; dynamic shared memory
 * pbs_shared_bytes<T>(K, blockDim.x). The padded list is rounded up to whole rounds of the block,
 * and the extra slots hold the largest value, so every thread makes the same number of stores.
 * @param[in]  keys    K sorted keys (device)
 * @param[in]  K       number of keys, K >= 1
 * @param[in]  queries Q queries (device)
 * @param[in]  Q       number of queries
 * @param[out] out     Q answers (device): the largest i with keys[i] <= query, or -1
 * @param[in]  alg     PBS_PLAIN, PBS_CF or PBS_CL
 * @param[in]  lowest  a value no key is below (the bottom pads)
 * @param[in]  highest a value no key is above (the top pads)
 */
template <typename T>
__global__ void pbs_kernel(const T *keys, int K, const T *queries, long long Q, int *out, int alg, T lowest,
                           T highest)
{
    kit_shared<T> P = KIT_DYNAMIC_SHARED(T);
    int padded = pbs_padded_length(K, blockDim.x);
    for (int i = threadIdx.x; i < padded; i += blockDim.x) {
        T v = i < PBS_W ? lowest : i < PBS_W + K ? keys[i - PBS_W] : highest;
        P[i] = v;
    }
    __syncthreads();
    int lane = threadIdx.x % PBS_W;
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long x = (long long)blockIdx.x * blockDim.x + threadIdx.x; x < Q; x += stride) {
        T q = queries[x];
        out[x] = alg == PBS_CF ? pbs_cf_search(P, K, q, lane)
                 : alg == PBS_CL ? pbs_cl_search(P, K, q, lane)
                                 : pbs_search(P, K, q);
    }
    if (blockIdx.x == 0 && threadIdx.x == 0)
        out[Q] = -1; /* MISTAKE: one answer too many, written past the end of out */
}

#endif
