/** @file
 * Lab 4, tiled merge kernel: the one file you edit for this lab.
 * It uses your merge_sequential (lab 1) and co_rank (lab 2).
 * The handout is handouts/04-tiled-merge.md; `make check LAB=04` runs the tests.
 */
#ifndef LAB04_MERGE_TILED_CUH
#define LAB04_MERGE_TILED_CUH

#include "co_rank.cuh"
#include "kit_lab.h"
#include "merge_sequential.cuh"

/**
 * Merges sorted A and B into C, one contiguous part of C per block. The
 * block finds its parts of A and B with two co-ranks (thread 0, in global
 * memory), then works in rounds: load up to `tile` of the remaining A and B
 * keys into shared memory (coalesced), make the next min(tile, remaining)
 * outputs, each thread an equal share found by co_rank on the tiles, and
 * advance by what the round used.
 *
 * Launch: any 1-D grid of 1-D blocks, any tile >= 1; dynamic shared memory
 * merge_tiled_shared_bytes<T>(tile), laid out as A tile, B tile, 2 ints.
 * @param[in]  A    sorted, m elements (global memory)
 * @param[in]  m    size of A, 0 or more
 * @param[in]  B    sorted, n elements
 * @param[in]  n    size of B, 0 or more
 * @param[out] C    m + n elements: the stable merge
 * @param[in]  tile keys of A (and of B) held in shared memory per round
 */
template <typename T>
__global__ void merge_tiled_kernel(const T *A, int m, const T *B, int n, T *C, int tile)
{
    kit_shared<T> A_S = KIT_DYNAMIC_SHARED(T), B_S = A_S + tile;
    kit_shared<int> block_rank = kit_shared_cast<int>(B_S + tile);
    /* Your code here: the block's part (thread 0 co-ranks into block_rank[0..1]), then rounds of
       loading tiles, merging each thread's share, and advancing by what the round used. */
    (void)A; (void)m; (void)B; (void)n; (void)C; (void)A_S; (void)B_S; (void)block_rank;
    KIT_NOT_IMPLEMENTED("04-tiled-merge:kernel");
}

#endif
