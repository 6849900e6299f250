/** @file
 * Lab 8, worst-case inputs for the GPU merge sort: the one file you edit for this lab. You write
 * the per-warp construction of Berney and Sitchinava (SPAA 2025, section 4, generalizing IPDPS 2020,
 * section III), worst_subproblem, and the order in which a thread merges its two lists,
 * worst_order. The kit assembles a warp from them (kit_worst_warp_with in harness/worst_host.h),
 * replays the warp's merge in the bank-conflict simulator, and compares the count with the papers'
 * theorem. The handout is handouts/08-worst-case.md; `make check LAB=08` runs the tests.
 */
#ifndef LAB08_WORST_CASE_CUH
#define LAB08_WORST_CASE_CUH

#include "kit_lab.h"

/**
 * The sequence T of one subproblem: w/d threads, wE/d keys, d = gcd(w, E), with ceil(E/2d)
 * columns of A and floor(E/2d) of B. With w = qE + r (0 <= r < E), m = E/d and, for
 * i = 1 .. m-1, s_i = i(r/d) mod m, x_i = (m - s_i)d, y_i = s_i d, the papers' S holds
 * (a_i, b_i) = (x_i, y_i) for even i and (y_i, x_i) for odd i. T is:
 *  1. (a_1, b_1), then q tuples (E, 0);
 *  2. for i = 1 .. m-2: (a_{i+1}, b_{i+1}), then q tuples if x_i + y_{i+1} = r, else q - 1,
 *     each (E, 0) for even i and (0, E) for odd i;
 *  3. q tuples, (E, 0) if m - 1 is even, else (0, E).
 * When E divides w (r = 0) sorted order is already the worst case: T is q tuples (E, 0).
 * @param[in]  w banks, and threads of a warp (2 .. 1024)
 * @param[in]  E keys per thread, 1 < E <= w
 * @param[out] a a[i]: keys thread i of the subproblem takes from A
 * @param[out] b b[i]: keys it takes from B (a[i] + b[i] = E)
 * @return the number of tuples written, w/d; -1 for bad w or E
 */
static inline int worst_subproblem(int w, int E, int *a, int *b)
{
    /* Your code here: the sequence T of the function comment. */
    (void)w; (void)E; (void)a; (void)b;
    KIT_NOT_IMPLEMENTED("08-worst-case:warp");
    return -1;
}

/**
 * Which list a thread merges first. The merge reads as CUB's SerialMerge does: A[a] at ordinal 0,
 * B[b] at ordinal 1, then after its k-th output (k = 0 .. E-1) the next key of the list that output
 * came from, at ordinal k + 2. The papers align the key a thread outputs at step k in bank s + k,
 * s = w - E, so the read at ordinal o >= 2 is aligned when it falls in bank (s + o - 1) mod w.
 * Count the aligned reads for each order and take the order with more (A first on a tie).
 * @param[in] w      banks
 * @param[in] E      keys per thread
 * @param[in] a_word shared-memory word of the thread's first A key (its bank: a_word mod w)
 * @param[in] b_word shared-memory word of its first B key
 * @param[in] a      keys it takes from A
 * @param[in] b      keys it takes from B
 * @return 1 for A first, 0 for B first
 */
static inline int worst_order(int w, int E, int a_word, int b_word, int a, int b)
{
    /* Your code here: count the aligned reads of each order, as in the function comment. */
    (void)w; (void)E; (void)a_word; (void)b_word; (void)a; (void)b;
    KIT_NOT_IMPLEMENTED("08-worst-case:order");
    return 1;
}

#endif
