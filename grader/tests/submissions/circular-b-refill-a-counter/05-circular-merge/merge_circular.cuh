/*
 * Lab 5, circular-buffer merge kernel: the one file you edit for this lab.
 * It uses your merge_sequential (lab 1) and co_rank (lab 2).
 * The handout is handouts/05-circular-merge.md; `make check LAB=05` runs the tests.
 */
#ifndef LAB05_MERGE_CIRCULAR_CUH
#define LAB05_MERGE_CIRCULAR_CUH

#include "co_rank.cuh"
#include "kit_lab.h"
#include "merge_sequential.cuh"

/*
 * The chapter's "simplified model" as a type: element i of the view is element
 * (start + i) mod size of the buffer. co_rank and merge_sequential index it as
 * an array, so their logic stays exactly as in labs 1 and 2.
 * Requires 0 <= start < size and 0 <= i < size, so one subtraction wraps.
 */
template <typename P>
struct circular_view {
    typedef kit_value_t<P> value_type;
    P buf;
    int start, size;
    KIT_HD auto operator[](int i) const -> decltype(buf[0])
    {
        int x = start + i;
        return buf[x >= size ? x - size : x];
    }
};

template <typename P>
KIT_HD circular_view<P> circular(P buf, int start, int size)
{
    circular_view<P> v = {buf, start, size};
    return v;
}

/* Output slot k of a thread whose share starts at `first`, in the padded output tile (see merge_circular_slot). */
template <typename P>
struct staged_view {
    typedef kit_value_t<P> value_type;
    P buf;
    int first;
    KIT_HD auto operator[](int k) const -> decltype(buf[0]) { return buf[(first + k) + (first + k) / 32]; }
};

template <typename P>
KIT_HD staged_view<P> staged(P buf, int first)
{
    staged_view<P> v = {buf, first};
    return v;
}

/**
 * co_rank on circular buffers: A's m valid keys start at A[A_start] and wrap
 * at `tile`, and the same for B. Returns the co-rank as an offset from
 * A_start (the simplified model), so 0 <= i <= m whatever the wrap.
 * @pre 0 <= A_start, B_start < tile; m, n <= tile; 0 <= k <= m + n
 */
template <typename InA, typename InB>
KIT_HD int co_rank_circular(int k, InA A, int m, InB B, int n, int A_start, int B_start, int tile)
{
    return co_rank(k, circular(A, A_start, tile), m, circular(B, B_start, tile), n);
}

/**
 * merge_sequential on circular buffers: merges m keys of A from A_start and n
 * keys of B from B_start (both wrapping at `tile`) into C[0 .. m+n-1].
 * @pre 0 <= A_start, B_start < tile; m, n <= tile
 */
template <typename InA, typename InB, typename Out>
KIT_HD void merge_sequential_circular(InA A, int m, InB B, int n, Out C, int A_start, int B_start, int tile)
{
    merge_sequential(circular(A, A_start, tile), m, circular(B, B_start, tile), n, C);
}

/** Where merge_circular_kernel stages output slot x of a round: one pad word per 32 keeps staging conflict-free. */
KIT_HD inline int merge_circular_slot(int x)
{
    return x + x / 32;
}

/**
 * Bytes of dynamic shared memory merge_circular_kernel needs: an A buffer and
 * a B buffer of `tile` keys, an output tile (padded), and threads + 3 ints.
 */
template <typename T>
KIT_HD size_t merge_circular_shared_bytes(int tile, int threads)
{
    return (2 * (size_t)tile + (size_t)merge_circular_slot(tile)) * sizeof(T) + ((size_t)threads + 3) * sizeof(int);
}

/**
 * The tiled merge of lab 4, but the tiles are circular buffers: what a round
 * did not use stays in shared memory, and the next round loads only what is
 * missing, so every key is read from global memory once. The reference also
 * avoids work the chapter repeats: each thread searches only where its share
 * starts (its neighbour's start is where it ends), and the round's outputs
 * are staged in shared memory, then written to C by consecutive threads.
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
    int total = m + n, per_block = (int)(((long long)total + gridDim.x - 1) / gridDim.x);
    int C_curr = (int)min((long long)blockIdx.x * per_block, (long long)total);
    int C_next = min(C_curr + per_block, total);
    if (threadIdx.x == 0) {
        ranks[0] = co_rank(C_curr, A, m, B, n);
        ranks[1] = co_rank(C_next, A, m, B, n);
    }
    __syncthreads();
    int A_curr = ranks[0], A_next = ranks[1];
    int B_curr = C_curr - A_curr, B_next = C_next - A_next;
    int C_length = C_next - C_curr, A_length = A_next - A_curr, B_length = B_next - B_curr;
    __syncthreads(); /* ranks[] is reused below */

    int C_completed = 0, A_consumed = 0, B_consumed = 0;
    int A_S_start = 0, B_S_start = 0; /* where the unused keys begin in each buffer */
    int A_held = 0, B_held = 0;       /* how many unused keys each buffer holds */
    int last = (int)blockDim.x;       /* ranks[t] is thread t's start; ranks[last] is what the round used */
    while (C_completed < C_length) {
        /* Refill each buffer up to min(tile, what is left), loading only the keys it does not hold yet:
           they come after the held ones, in global memory and in the buffer. The chapter's refill
           restarts at A_consumed (reloading held keys) and fills B with A's counter. */
        int A_want = min(tile, A_length - A_consumed), B_want = min(tile, B_length - B_consumed);
        for (int i = threadIdx.x; i < A_want - A_held; i += blockDim.x) {
            int slot = A_S_start + A_held + i;
            A_S[slot >= tile ? slot - tile : slot] = A[A_curr + A_consumed + A_held + i];
        }
        for (int i = threadIdx.x; i < B_want - B_held; i += blockDim.x) {
            int slot = B_S_start + B_held + i;
            B_S[slot >= tile ? slot - tile : slot] = B[B_curr + A_consumed + B_held + i]; /* A's counter */
        }
        A_held = A_want;
        B_held = B_want;
        __syncthreads();

        /* Each thread searches where its share starts; the next thread's start is where it ends. */
        int C_round = min(tile, C_length - C_completed);
        int share = (C_round + (int)blockDim.x - 1) / (int)blockDim.x;
        int c_curr = min((int)threadIdx.x * share, C_round), c_next = min(c_curr + share, C_round);
        ranks[threadIdx.x] = co_rank_circular(c_curr, A_S, A_held, B_S, B_held, A_S_start, B_S_start, tile);
        if (threadIdx.x == blockDim.x - 1)
            ranks[last] = co_rank_circular(C_round, A_S, A_held, B_S, B_held, A_S_start, B_S_start, tile);
        __syncthreads();
        int a_curr = ranks[threadIdx.x];
        int a_next = threadIdx.x + 1 < blockDim.x && c_next < C_round ? (int)ranks[threadIdx.x + 1] : (int)ranks[last];
        int b_curr = c_curr - a_curr, b_next = c_next - a_next;

        /* Merge into the padded output tile, then write it to C with consecutive threads. */
        merge_sequential_circular(A_S, a_next - a_curr, B_S, b_next - b_curr, staged(C_S, c_curr),
                                  (A_S_start + a_curr) % tile, (B_S_start + b_curr) % tile, tile);
        int A_used = ranks[last];
        __syncthreads();
        for (int x = threadIdx.x; x < C_round; x += blockDim.x) {
            kit_value_t<kit_shared<T>> v = C_S[merge_circular_slot(x)];
            C[C_curr + C_completed + x] = v;
        }

        int B_used = C_round - A_used;
        A_consumed += A_used;
        B_consumed += B_used;
        C_completed += C_round;
        A_held -= A_used;
        B_held -= B_used;
        A_S_start = (A_S_start + A_used) % tile;
        B_S_start = (B_S_start + B_used) % tile;
        __syncthreads(); /* the buffers, ranks and output tile are reused next round */
    }
}

#endif
