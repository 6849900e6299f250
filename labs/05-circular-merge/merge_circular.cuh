/** @file
 * Lab 5, circular-buffer merge kernel: the one file you edit for this lab.
 * It uses your merge_sequential (lab 1) and co_rank (lab 2), and the given layout helpers
 * (merge_circular_wrap, merge_circular_slot, MERGE_CIRCULAR_LOADS, merge_circular_shared_bytes) of
 * harness/circular_given.cuh, which the harness includes before this file.
 * The handout is handouts/05-circular-merge.md; `make check LAB=05` runs the tests.
 */
#ifndef LAB05_MERGE_CIRCULAR_CUH
#define LAB05_MERGE_CIRCULAR_CUH

#include "co_rank.cuh"
#include "kit_lab.h"
#include "merge_sequential.cuh"


/**
 * co_rank on circular buffers: A's m valid keys start at A[A_start] and wrap
 * at `tile`, and the same for B. Returns the co-rank as an offset from
 * A_start (the simplified model), so 0 <= i <= m whatever the wrap.
 * @pre 0 <= A_start, B_start < tile; m, n <= tile; 0 <= k <= m + n
 */
template <typename InA, typename InB>
KIT_HD int co_rank_circular(int k, InA A, int m, InB B, int n, int A_start, int B_start, int tile)
{
    /* Your code here: the co-rank search with every index i, i-1, j, j-1 taken modulo tile from its start. */
    (void)k; (void)A; (void)m; (void)B; (void)n; (void)A_start; (void)B_start; (void)tile;
    KIT_NOT_IMPLEMENTED("05-circular-merge:co_rank_circular");
    return 0;
}

/**
 * merge_sequential on circular buffers: merges m keys of A from A_start and n
 * keys of B from B_start (both wrapping at `tile`) into C[0] to C[m+n-1].
 * @pre 0 <= A_start, B_start < tile; m, n <= tile; both buffers have `tile`
 *      slots (when m + n > 0 the reference reads A[A_start] and B[B_start], even when m or n is 0)
 */
template <typename InA, typename InB, typename Out>
KIT_HD void merge_sequential_circular(InA A, int m, InB B, int n, Out C, int A_start, int B_start, int tile)
{
    /* Your code here: the sequential merge, reading A and B through indices taken modulo tile. */
    (void)A; (void)m; (void)B; (void)n; (void)C; (void)A_start; (void)B_start; (void)tile;
    KIT_NOT_IMPLEMENTED("05-circular-merge:merge_sequential_circular");
}


/**
 * The tiled merge of lab 4, but the tiles are circular buffers: what a round
 * did not use stays in shared memory, and the next round loads only what is
 * missing, so every key is read from global memory once. The reference also
 * avoids work the chapter repeats: each thread searches only where its share
 * ends (its neighbour's end is where it starts), and the round's outputs are
 * staged in shared memory, then written to C by consecutive threads while
 * the buffers are refilled for the next round (three barriers per round).
 *
 * Launch: any 1-D grid of 1-D blocks, any tile >= 1; dynamic shared memory
 * merge_circular_shared_bytes<T>(tile, blockDim.x), laid out as A buffer,
 * B buffer, output tile, then ints.
 */
template <typename T>
__global__ void merge_circular_kernel(const T *A, int m, const T *B, int n, T *C, int tile)
{
    kit_shared<T> A_S = KIT_DYNAMIC_SHARED(T), B_S = A_S + tile, C_S = B_S + tile;
    kit_shared<int> ranks = kit_shared_cast<int>(C_S + merge_circular_slot(tile)); /* blockDim.x + 3 ints */
    /* Your code here: lab 4's structure with circular buffers: refill only what is missing, find each
       thread's share with co_rank_circular, merge it with merge_sequential_circular (into C, or
       staged in C_S), advance the starts. ranks[] holds blockDim.x + 3 ints for whatever you share. */
    (void)A; (void)m; (void)B; (void)n; (void)C; (void)A_S; (void)B_S; (void)C_S; (void)ranks;
    KIT_NOT_IMPLEMENTED("05-circular-merge:kernel");
}

#endif
