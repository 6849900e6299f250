/** @file
 * Lab 9 (capstone), a GPU pairwise merge sort built from the kit's pieces: the one file you edit
 * for this lab. It follows section II-A of Berney and Sitchinava (IPDPS 2020): a block sort, then
 * global merge rounds. You write the baseline's serial merge (ms_serial_merge) and the CF
 * variant's layout and gather (ms_cf_position, ms_cf_gather); the kernels around them are given,
 * in harness/ms_kernel.cuh, and the slot map ms_slot your gather uses is in harness/ms_given.cuh
 * (the harness includes that one before this file).
 * The handout is handouts/09-merge-sort.md; `make check LAB=09` runs the tests.
 *
 * The sort, with u threads per block and E keys per thread (a tile is u*E keys):
 * - block sort (ms_block_sort_kernel): each block takes one tile; thread i sorts tile keys
 *   i*E .. i*E+E-1 in registers, then log2(u) rounds merge runs of E, 2E, 4E, ... keys in shared
 *   memory, groups of 2, 4, ..., u threads merging one pair of runs;
 * - global rounds: runs of s = u*E, 2s, 4s, ... keys are merged in pairs. Each round first cuts
 *   every pair's output into tiles of u*E with a merge-path search in global memory
 *   (ms_partition_kernel), then one block merges each tile in shared memory (ms_merge_kernel).
 *
 * Every merge, in the block sort and in the global rounds, is one of two variants:
 * - MS_BASELINE, as Thrust and CUB do it: a pair's A then B stored contiguously, each thread
 *   merging its E outputs serially from shared memory (ms_serial_merge);
 * - MS_CF, with lab 7's gather: A forwards and B reversed in the pair's region, rotated by rho;
 *   each thread reads its E keys in E conflict-free rounds (ms_cf_gather) and merges them in
 *   registers (ms_register_merge: Batcher's bitonic merger, on keys for int32 and on (key, origin)
 *   pairs for key-value pairs, so that ties keep their order).
 *
 * Both variants are stable: equal keys keep their input order (ties go to A everywhere, and the
 * register sorts break ties by origin; int32 keys that compare equal are indistinguishable).
 *
 * What makes it fast (each measured, results/README.md): a full tile's loads all in flight
 * before the stores to shared memory; the CF variant's block-sort rounds of groups within one
 * warp synchronized by the warp alone; no origins and no masks when a tile is full; a register
 * merge that never rotates the registers back; a register sort by Batcher's merge exchange; a
 * gather that works out once a thread what does not change from key to key.
 */
#ifndef LAB09_MERGE_SORT_CUH
#define LAB09_MERGE_SORT_CUH

#include "cf_merge.cuh" /* lab 7: CF_W, cf_gather_index */
#include "kit_lab.h"

/**
 * The baseline's merge of one thread, as CUB's SerialMerge does it: the thread's part of A is
 * S[a .. a_end) and its part of B is S[b .. b_end) (shared-memory indices); it reads the first key
 * of each, then at every one of its E steps outputs the smaller (A on ties) and, but after the
 * last output, reads the next key of the list it took from. That is E + 1 reads whatever count
 * is; a read past a list's end lands inside the tile or its padding (ms_shared_elems), and its
 * key is never output. (CUB's source reads after the last output too, E + 2 reads; with E known
 * at compile time nvcc drops that read, whose key nothing uses, so the GPU makes E + 1.)
 * @param[in]  S      shared memory holding the merge's keys
 * @param[in]  a,a_end the thread's part of A
 * @param[in]  b,b_end the thread's part of B; (a_end - a) + (b_end - b) >= count
 * @param[in]  count  outputs the thread owns, 0 .. E (less than E at the end of the input)
 * @param[out] key    key[t] is output t, for t < count
 */
template <typename T, int E>
__device__ inline void ms_serial_merge(kit_shared<T> S, int a, int a_end, int b, int b_end, int count, T (&key)[E])
{
    //@answer
    (void)count; /* every thread reads E + 1 times, as CUB's threads do on a GPU; count only says which outputs matter */
    T ka = S[a], kb = S[b];
    KIT_UNROLL
    for (int t = 0; t < E; t++) {
        bool take_b = b < b_end && (a >= a_end || kb < ka);
        key[t] = take_b ? kb : ka;
        b += take_b;
        a += !take_b;
        if (t + 1 < E) { /* the look-ahead, after every output but the last (t is a constant once unrolled) */
            /* one read at a selected address: one instruction for the whole warp on a GPU, where an
               if/else would be two, each for the threads that took its side (handout 00) */
            T next = S[take_b ? b : a];
            kb = take_b ? next : kb;
            ka = take_b ? ka : next;
        }
    }
    //@skeleton
    //@ /* Your code here: CUB's serial merge, one look-ahead key per list. */
    //@ (void)S; (void)a; (void)a_end; (void)b; (void)b_end; (void)count; (void)key;
    //@ KIT_NOT_IMPLEMENTED("09-merge-sort:baseline");
    //@end
}

/**
 * The CF layout of one merge: where key p of a pair sits, as a logical position in the pair's
 * region of `region` slots (lab 7's layout, before rho). Keys 0 .. half-1 of the pair are A and
 * go forwards from the region's start; key half + b is B's key b and goes to region - 1 - b.
 * @param[in] p      the key's index in the pair, 0 <= p < 2 * half (A's keys, then B's)
 * @param[in] half   the length of a full run, A's place in the pair
 * @param[in] region the region's length, 2 * half in the block sort, the tile in global rounds
 * @return the logical position in the region, 0 .. region-1
 */
KIT_HD inline int ms_cf_position(int p, int half, int region)
{
    //@answer
    return p < half ? p : region - 1 - (p - half);
    //@skeleton
    //@ /* Your code here: A forwards, B reversed from the region's end. */
    //@ (void)p; (void)half; (void)region;
    //@ KIT_NOT_IMPLEMENTED("09-merge-sort:cf");
    //@ return 0;
    //@end
}

/**
 * The CF variant's gather of one thread (lab 7's Algorithm 1 on a region of the tile): in round
 * j = 0 .. E-1 it reads the one key of its share whose logical position is j mod E, through
 * cf_gather_index and ms_slot (lab 7's cf_slot, with E known at compile time). A thread that owns fewer than E outputs (at the end of the input)
 * still reads in every round, at the position Algorithm 1 gives, so that the warp's reads stay
 * one per residue class and conflict-free; such a position lies in the region's unfilled gap, and
 * the key read there is marked unowned, origin E + j, so that it sorts after every owned key.
 * @param[in]  S      shared memory, the tile stored as rho(A u pi(B)) region by region
 * @param[in]  base   the region's first logical position in the tile (a multiple of E)
 * @param[in]  region the region's length (a multiple of E)
 * @param[in]  a_i    the thread's offset in the region's A
 * @param[in]  b_i    its offset in the region's B
 * @param[in]  n_a    keys it takes from A
 * @param[in]  count  outputs it owns, 0 .. E
 * @param[out] key    the keys read, key[j] in round j
 * @param[out] origin where each key comes in the thread's merge (A key t: t; B key m: n_a + m)
 */
template <typename T, int E>
__device__ inline void ms_cf_gather(kit_shared<T> S, int base, int region, int a_i, int b_i, int n_a, int count,
                                    T (&key)[E], int (&origin)[E])
{
    //@answer
    /* Algorithm 1 as lab 7's cf_gather_index has it, with what depends only on the thread worked
       out once: register j holds A's key t = (j - k) mod E, at logical position base + a_i + t =
       at + off (off = k + t, that is j or j + E), unless t >= n_a, that is off >= k + n_a; then it
       holds B's key m = E - 1 - t, which lies to_b positions further on. Calling cf_gather_index
       for each key left more arithmetic a key: the CF block sort took 712 us instead of 680 at
       71,303,168 keys on the H100 (results/2026-11-28-h100-h200-merge-exchange/). */
    const int k = a_i % E, at = base + a_i - k, to_b = region - E - a_i - b_i, k_b = k + n_a;
    KIT_UNROLL
    for (int j = 0; j < E; j++) {
        int off = j < k ? j + E : j;
        bool from_b = off >= k_b;
        key[j] = S[ms_slot<E>(at + off + (from_b ? to_b : 0))];
        int o = from_b ? k_b + E - 1 - off : off - k;
        origin[j] = (o < count) ? o : E + j;
    }
    //@skeleton
    //@ /* Your code here: E rounds of lab 7's gather, offset by the region's base. */
    //@ (void)S; (void)base; (void)region; (void)a_i; (void)b_i; (void)n_a; (void)count;
    //@ for (int j = 0; j < E; j++) {
    //@     key[j] = T();
    //@     origin[j] = E + j;
    //@ }
    //@ KIT_NOT_IMPLEMENTED("09-merge-sort:cf");
    //@end
}

#endif
