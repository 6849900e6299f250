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
    //@answer
    /* Part 1: this block's part of C, and of A and B. Integer ceilings throughout. */
    int total = m + n, per_block = (int)(((long long)total + gridDim.x - 1) / gridDim.x);
    int C_curr = (int)min((long long)blockIdx.x * per_block, (long long)total);
    int C_next = min(C_curr + per_block, total);
    if (threadIdx.x == 0) {
        block_rank[0] = co_rank(C_curr, A, m, B, n);
        block_rank[1] = co_rank(C_next, A, m, B, n);
    }
    __syncthreads();
    int A_curr = block_rank[0], A_next = block_rank[1];
    int B_curr = C_curr - A_curr, B_next = C_next - A_next;
    int C_length = C_next - C_curr, A_length = A_next - A_curr, B_length = B_next - B_curr;

    int C_completed = 0, A_consumed = 0, B_consumed = 0;
    while (C_completed < C_length) {
        /* Part 2: load what the tiles can hold of the rest of A and B. */
        int A_tile = min(tile, A_length - A_consumed), B_tile = min(tile, B_length - B_consumed);
        for (int i = threadIdx.x; i < A_tile; i += blockDim.x)
            A_S[i] = A[A_curr + A_consumed + i];
        for (int i = threadIdx.x; i < B_tile; i += blockDim.x)
            B_S[i] = B[B_curr + B_consumed + i];
        __syncthreads();

        /* Part 3: this round's outputs; the last round may be short, and tile need not divide by blockDim. */
        int C_round = min(tile, C_length - C_completed);
        int share = (C_round + (int)blockDim.x - 1) / (int)blockDim.x;
        int c_curr = min((int)threadIdx.x * share, C_round), c_next = min(c_curr + share, C_round);
        int a_curr = co_rank(c_curr, A_S, A_tile, B_S, B_tile), a_next = co_rank(c_next, A_S, A_tile, B_S, B_tile);
        int b_curr = c_curr - a_curr, b_next = c_next - a_next;
        merge_sequential(A_S + a_curr, a_next - a_curr, B_S + b_curr, b_next - b_curr, C + C_curr + C_completed + c_curr);

        /* What the round used, on the tiles' real lengths: the chapter's co_rank(tile, A_S, tile, B_S, tile)
           reads stale tile slots once a list runs short. */
        int A_used = co_rank(C_round, A_S, A_tile, B_S, B_tile);
        __syncthreads(); /* everyone is done with the tiles before they are refilled */
        A_consumed += A_used;
        B_consumed += C_round - A_used;
        C_completed += C_round;
    }
    //@skeleton
    //@ /* Your code here: the block's part (thread 0 co-ranks into block_rank[0..1]), then rounds of
    //@    loading tiles, merging each thread's share, and advancing by what the round used. */
    //@ (void)A; (void)m; (void)B; (void)n; (void)C; (void)A_S; (void)B_S; (void)block_rank;
    //@ KIT_NOT_IMPLEMENTED("04-tiled-merge:kernel");
    //@end
}

#endif
