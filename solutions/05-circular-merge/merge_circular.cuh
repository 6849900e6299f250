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

//@answer
/* Output slot k of a thread whose share starts at `first`, in the padded output tile (see merge_circular_slot). */
template <typename P>
struct staged_view {
    typedef kit_value_t<P> value_type;
    P buf;
    int first;
    KIT_HD auto operator[](int k) const -> decltype(buf[0]) { return buf[merge_circular_slot(first + k)]; }
};

template <typename P>
KIT_HD staged_view<P> staged_at(P buf, int first)
{
    staged_view<P> v = {buf, first};
    return v;
}

//@skeleton
//@end

/**
 * co_rank on circular buffers: A's m valid keys start at A[A_start] and wrap
 * at `tile`, and the same for B. Returns the co-rank as an offset from
 * A_start (the simplified model), so 0 <= i <= m whatever the wrap.
 * @pre 0 <= A_start, B_start < tile; m, n <= tile; 0 <= k <= m + n
 */
template <typename InA, typename InB>
KIT_HD int co_rank_circular(int k, InA A, int m, InB B, int n, int A_start, int B_start, int tile)
{
    //@answer
    /* Lab 2's search in its one-comparison form: if A's key at offset mid is not greater than
       B's key at offset k-1-mid, it is among the first k outputs (ties go to A), so the co-rank
       is above mid; otherwise it is at most mid. Each pass reads one key of each list. */
    int lo = k > n ? k - n : 0, hi = k < m ? k : m;
    while (lo < hi) {
        int mid = lo + ((hi - lo) >> 1); /* (hi - lo) / 2, as a shift: hi - lo > 0 */
        kit_key_t<InA> a = kit_key(A, merge_circular_wrap(A_start + mid, tile)); /* the keys alone: see kit_key */
        kit_key_t<InB> b = kit_key(B, merge_circular_wrap(B_start + k - 1 - mid, tile));
        if (a <= b)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
    //@skeleton
    //@ /* Your code here: the co-rank search with every index i, i-1, j, j-1 taken modulo tile from its start. */
    //@ (void)k; (void)A; (void)m; (void)B; (void)n; (void)A_start; (void)B_start; (void)tile;
    //@ KIT_NOT_IMPLEMENTED("05-circular-merge:co_rank_circular");
    //@ return 0;
    //@end
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
    //@answer
    /* Lab 1's merge with the front key of each list kept in a local: each key is read once, and
       after an output only the list it came from is read again. */
    if (m + n == 0)
        return; /* nothing to merge, and nothing to read: the GPU would skip the reads below too */
    int i = A_start, j = B_start; /* buffer slots of the two front keys */
    kit_value_t<InA> a = A[i];    /* read even when m or n is 0: the slot exists, and the key is never used */
    kit_value_t<InB> b = B[j];
    /* The steps are written as selects, not an if/else around the store, so that a warp's threads
       need not take different branches. The one load a step reads A or B at a selected address: one
       instruction for the whole warp on a GPU, where an if/else would be two, each for the threads
       that took its side (handout 00). The loop is not unrolled: the last threads of a round may
       merge fewer keys than the others (see KIT_NO_UNROLL). */
    KIT_NO_UNROLL
    for (int k = 0, total = m + n; k < total; k++) {
        bool take_a = n == 0 || (m > 0 && a <= b); /* "<=": ties go to A, so the merge is stable */
        C[k] = take_a ? a : b;
        m -= take_a;
        n -= !take_a;
        i = merge_circular_wrap(i + take_a, tile); /* the list taken moves on one slot; the other stays */
        j = merge_circular_wrap(j + !take_a, tile);
        kit_value_t<InA> next = take_a ? A[i] : B[j];
        a = take_a ? next : a;
        b = take_a ? b : next;
    }
    //@skeleton
    //@ /* Your code here: the sequential merge, reading A and B through indices taken modulo tile. */
    //@ (void)A; (void)m; (void)B; (void)n; (void)C; (void)A_start; (void)B_start; (void)tile;
    //@ KIT_NOT_IMPLEMENTED("05-circular-merge:merge_sequential_circular");
    //@end
}

//@answer
/**
 * The block copies from[first .. first+count-1] into buffer slots to, to+1, ... (wrapping at
 * tile). Each thread issues MERGE_CIRCULAR_LOADS global loads before it stores any: one load at a
 * time would leave it waiting on memory latency. The index into `from` is one int (first + x),
 * so each load's address is one multiply-add from the pointer, not a sum of 64-bit offsets.
 * @pre 0 <= to < tile; count <= tile (so to + x < 2 * tile for every x < count)
 */
template <typename T>
__device__ void merge_circular_refill(kit_shared<T> buf, int to, const T *from, int first, int count, int tile)
{
    int step = blockDim.x;
    for (int x = threadIdx.x; x < count; x += MERGE_CIRCULAR_LOADS * step) {
        T key[MERGE_CIRCULAR_LOADS];
        KIT_UNROLL
        for (int u = 0; u < MERGE_CIRCULAR_LOADS; u++)
            if (x + u * step < count)
                key[u] = from[first + x + u * step];
        KIT_UNROLL
        for (int u = 0; u < MERGE_CIRCULAR_LOADS; u++)
            if (x + u * step < count)
                buf[merge_circular_wrap(to + x + u * step, tile)] = key[u];
    }
}

/**
 * The block writes a round's `count` staged outputs (output tile slots 0 .. count-1, see
 * merge_circular_slot) to to[first .. first+count-1], consecutive threads on consecutive outputs.
 * One read a pass: four in flight before the stores, as in the refill, was no faster here, and it
 * made ncu count a load wavefront more than the simulator (results/2026-11-28-h100-h200-targeted-worst/).
 */
template <typename T>
__device__ void merge_circular_write(T *to, int first, kit_shared<T> staged, int count)
{
    for (int x = threadIdx.x; x < count; x += blockDim.x) {
        kit_value_t<kit_shared<T>> v = staged[merge_circular_slot(x)];
        to[first + x] = v;
    }
}

//@skeleton
//@end

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
    //@answer
    int total = m + n, per_block = (int)(((long long)total + gridDim.x - 1) / gridDim.x);
    int C_curr = (int)min((long long)blockIdx.x * per_block, (long long)total);
    int C_next = min(C_curr + per_block, total);
    /* Two threads search at once, each a chain of dependent global loads. A "buffer" of
       max(m, n) + 1 slots never wraps, so co_rank_circular is a plain co-rank here; it reads one
       key of each list per pass where lab 2's form reads up to four. */
    for (int r = threadIdx.x; r < 2; r += blockDim.x)
        ranks[r] = co_rank_circular(r == 0 ? C_curr : C_next, A, m, B, n, 0, 0, max(m, n) + 1);
    __syncthreads();
    int A_curr = ranks[0], A_next = ranks[1];
    int B_curr = C_curr - A_curr, B_next = C_next - A_next;
    int C_length = C_next - C_curr, A_length = A_next - A_curr, B_length = B_next - B_curr;
    __syncthreads(); /* ranks[] is reused below */

    int C_completed = 0, A_consumed = 0, B_consumed = 0;
    int A_S_start = 0, B_S_start = 0; /* where the unused keys begin in each buffer */
    int A_held = 0, B_held = 0;       /* how many unused keys each buffer holds */
    int staged = 0;                   /* outputs of the last round waiting in C_S; they end at C_completed */
    /* Each thread's share of a round's outputs: a full round's, and the share of the block's last
       round if that one is shorter (what is left after the full rounds), both divided once here
       rather than in every round. */
    int share = (tile + (int)blockDim.x - 1) / (int)blockDim.x;
    int last_share = (C_length % tile + (int)blockDim.x - 1) / (int)blockDim.x;
    for (;;) {
        /* Write the last round's outputs to C with consecutive threads. Then refill each buffer up
           to min(tile, what is left), loading only the keys it does not hold yet: they come after
           the held ones, in global memory and in the buffer. The chapter's refill restarts at
           A_consumed (reloading held keys) and fills B with A's counter. Both steps touch only
           what the last round no longer reads, so they share one barrier. */
        merge_circular_write(C, C_curr + C_completed - staged, C_S, staged);
        int A_miss = min(tile, A_length - A_consumed) - A_held, B_miss = min(tile, B_length - B_consumed) - B_held;
        merge_circular_refill(A_S, merge_circular_wrap(A_S_start + A_held, tile), A, A_curr + A_consumed + A_held,
                              A_miss, tile);
        merge_circular_refill(B_S, merge_circular_wrap(B_S_start + B_held, tile), B, B_curr + B_consumed + B_held,
                              B_miss, tile);
        A_held += A_miss;
        B_held += B_miss;
        __syncthreads();
        if (C_completed == C_length)
            break;

        /* Each thread searches where its share ends; the previous thread's end is where it starts.
           (Searching for the ends, not the starts, means the last thread's end, which is what the
           round uses, needs no extra search that the whole block would wait for.) */
        int C_round = min(tile, C_length - C_completed);
        if (C_round < tile)
            share = last_share;
        int c_curr = min((int)threadIdx.x * share, C_round), c_next = min(c_curr + share, C_round);
        ranks[threadIdx.x] = co_rank_circular(c_next, A_S, A_held, B_S, B_held, A_S_start, B_S_start, tile);
        __syncthreads();
        int a_curr = threadIdx.x == 0 ? 0 : (int)ranks[threadIdx.x - 1], a_next = ranks[threadIdx.x];
        int b_curr = c_curr - a_curr, b_next = c_next - a_next;

        /* Merge into the padded output tile; the next pass writes it to C. */
        merge_sequential_circular(A_S, a_next - a_curr, B_S, b_next - b_curr, staged_at(C_S, c_curr),
                                  merge_circular_wrap(A_S_start + a_curr, tile),
                                  merge_circular_wrap(B_S_start + b_curr, tile), tile);
        int A_used = ranks[blockDim.x - 1], B_used = C_round - A_used;
        __syncthreads(); /* the merge's reads of the buffers and writes to C_S are done */

        A_consumed += A_used;
        B_consumed += B_used;
        C_completed += C_round;
        staged = C_round;
        A_held -= A_used;
        B_held -= B_used;
        A_S_start = merge_circular_wrap(A_S_start + A_used, tile);
        B_S_start = merge_circular_wrap(B_S_start + B_used, tile);
    }
    //@skeleton
    //@ /* Your code here: lab 4's structure with circular buffers: refill only what is missing, find each
    //@    thread's share with co_rank_circular, merge it with merge_sequential_circular (into C, or
    //@    staged in C_S), advance the starts. ranks[] holds blockDim.x + 3 ints for whatever you share. */
    //@ (void)A; (void)m; (void)B; (void)n; (void)C; (void)A_S; (void)B_S; (void)C_S; (void)ranks;
    //@ KIT_NOT_IMPLEMENTED("05-circular-merge:kernel");
    //@end
}

#endif
