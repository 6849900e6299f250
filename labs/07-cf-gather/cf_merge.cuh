/** @file
 * Lab 7, the load-balanced dual subsequence gather (CF-Merge, Berney and Sitchinava, SPAA 2025):
 * the one file you edit for this lab. You write the index computation, cf_slot and
 * cf_gather_index; the block merge kernel around them is given (harness/cf_kernel.cuh), and CF_W,
 * w, is in harness/cf_given.cuh, which the harness includes before this file.
 * The handout is handouts/07-cf-gather.md; `make check LAB=07` runs the tests.
 *
 * A block of u threads merges a tile of u*E outputs, E per thread. The tile's part of A and of B
 * sit in shared memory in the order the paper calls rho(A u pi(B)): A forwards from logical
 * position 0, B reversed from logical position u*E - 1 down (pi), and every partition of
 * w*E/d logical positions rotated by its index mod d (rho), where d = gcd(w, E). Thread i's
 * outputs take |A_i| keys of A from offset a_i and E - |A_i| keys of B from offset b_i, with
 * a_i + b_i = i*E. In round j = 0 .. E-1 the thread reads the one key of its share whose logical
 * position is j mod E, and then no two threads of a warp read the same bank.
 */
#ifndef LAB07_CF_MERGE_CUH
#define LAB07_CF_MERGE_CUH

#include "kit_lab.h"

/**
 * rho: the shared-memory slot of logical position x of a tile (the paper's section 3.2).
 * Logical positions come in partitions of P = CF_W*E/d, d = gcd(CF_W, E); partition l is
 * rotated by l mod d places, so position x of partition l goes to slot
 * l*P + ((x - l*P + l mod d) mod P). When E is coprime with CF_W, d = 1 and nothing moves.
 * @param[in] x logical position, 0 <= x < u*E
 * @param[in] E keys per thread
 * @return the slot, in the same partition
 */
KIT_HD inline int cf_slot(int x, int E)
{
    /* Your code here: the rotation of x's partition, as in the function comment. */
    (void)x; (void)E;
    KIT_NOT_IMPLEMENTED("07-cf-gather:gather");
    return 0;
}

/**
 * Algorithm 1, lines 3-8: which key thread i reads in round j, as a logical position of the tile.
 * A key t of the thread's A part is at a_i + t; B key m of its B part is B's key b_i + m, at
 * logical position tile - 1 - (b_i + m) (pi). With k = a_i mod E, round j reads A key
 * (j - k) mod E if that is below |A_i|, and otherwise B key (k - j - 1) mod E.
 * @param[in]  j      the round, 0 .. E-1
 * @param[in]  a_i    the thread's offset in the tile's part of A
 * @param[in]  b_i    its offset in the tile's part of B (a_i + b_i = i*E)
 * @param[in]  n_a    |A_i|, keys it takes from A, 0 .. E
 * @param[in]  E      keys per thread
 * @param[in]  tile   u*E, the tile's length
 * @param[out] origin where the key comes in the thread's merge: t for A key t, n_a + m for B key m
 * @return the logical position read (pass it through cf_slot for the slot)
 */
KIT_HD inline int cf_gather_index(int j, int a_i, int b_i, int n_a, int E, int tile, int *origin)
{
    /* Your code here: Algorithm 1's choice between A key (j - k) mod E and B key (k - j - 1) mod E. */
    (void)j; (void)a_i; (void)b_i; (void)n_a; (void)E; (void)tile;
    *origin = 0;
    KIT_NOT_IMPLEMENTED("07-cf-gather:gather");
    return 0;
}

#endif
