/** @file
 * Lab 6's given device code that the student's searches (pbs.cuh) use: w, the powers of two,
 * PBS itself (the plain search, Algorithm 1 of Karsin et al.) and the slot map of the padded list.
 * lab06.cuh includes it before the student's file.
 */
#ifndef LAB06_PBS_GIVEN_CUH
#define LAB06_PBS_GIVEN_CUH

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

#endif
