/** @file
 * Lab 6, batched predecessor search in shared memory: the one file you edit for this lab.
 * PBS (the plain parallel binary search) is given; you write the conflict-free PBS-CF and the
 * conflict-limited PBS-CL. What they use (PBS_W, pbs_search, pbs_slot, ...) is in
 * harness/pbs_given.cuh, and the kernel that calls them in harness/pbs_kernel.cuh. The handout is handouts/06-predecessor-search.md; `make check LAB=06`
 * runs the tests.
 *
 * All three search a padded key list P in shared memory: PBS_W copies of the smallest value, the
 * K sorted keys, then PBS_W copies of the largest value, so key i is P[PBS_W + i]. Each returns
 * the predecessor of q: the largest i with key i <= q, or -1 if there is none.
 */
#ifndef LAB06_PBS_CUH
#define LAB06_PBS_CUH

#include "kit_lab.h"

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
    //@answer
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
    //@skeleton
    //@ /* Your code here: start at position lane + PBS_W * (J / 2), move by multiples of PBS_W
    //@    (read through pbs_slot), then pick the window with one more read. */
    //@ (void)P; (void)K; (void)q; (void)lane;
    //@ KIT_NOT_IMPLEMENTED("06-predecessor-search:window");
    //@ return 0;
    //@end
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
    //@answer
    int b = pbs_window(P, K, q, lane), found = b;
    for (int i = 0; i < PBS_W; i++) {
        kit_value_t<Keys> key = P[pbs_slot(b + i, K)];
        found = key <= q ? b + i : found;
    }
    /* A query equal to the largest value also passes the top pads: the answer is then K - 1. */
    return found - PBS_W > K - 1 ? K - 1 : found - PBS_W;
    //@skeleton
    //@ /* Your code here: pbs_window, then read all PBS_W keys of the window (through pbs_slot). */
    //@ (void)P; (void)K; (void)q; (void)lane;
    //@ KIT_NOT_IMPLEMENTED("06-predecessor-search:cf");
    //@ return -1;
    //@end
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
    //@answer
    int b = pbs_window(P, K, q, lane); /* P[b] <= q: the answer is b or above */
    for (int delta = PBS_W / 2; delta >= 1; delta /= 2) {
        kit_value_t<Keys> key = P[pbs_slot(b + delta, K)];
        b = key <= q ? b + delta : b;
    }
    return b - PBS_W > K - 1 ? K - 1 : b - PBS_W;
    //@skeleton
    //@ /* Your code here: pbs_window, then a binary search of the window that keeps P[b] <= q. */
    //@ (void)P; (void)K; (void)q; (void)lane;
    //@ KIT_NOT_IMPLEMENTED("06-predecessor-search:cl");
    //@ return -1;
    //@end
}

#endif
