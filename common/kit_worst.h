/** @file
 * Worst-case inputs for the pairwise merge sort (lab 8): the per-warp construction of Berney and
 * Sitchinava (IPDPS 2020, section III; generalized in SPAA 2025, section 4), the order in which
 * each thread merges its two lists, the L/R assignment of a block's warps, and a permutation of
 * N keys that produces these patterns in the merge rounds of the kit's merge sort (lab 9, and
 * CUB's DeviceMergeSort, which reads shared memory the same way). The simulator
 * (kit_bank.h) replays the sort's reads to count what the input costs.
 *
 * The read sequence modelled is CUB's SerialMerge: a thread first reads A[a] and B[b] (ordinals
 * 0 and 1), then after each of its E outputs reads the next key of the list that output came
 * from (ordinals 2 .. E + 1). The papers' step j (their thread reads its j-th output) is
 * therefore ordinal j + 1, except that the first key of each list is read at ordinal 0 or 1.
 */
#ifndef KIT_WORST_H
#define KIT_WORST_H

#include <stddef.h>
#include <stdint.h>

#include "kit_bank.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One thread's share of a warp's merge: the papers' tuple (a_i, b_i), and which list it merges first. */
typedef struct kit_worst_split {
    int a;       /**< keys it outputs from A */
    int b;       /**< keys it outputs from B (a + b = E) */
    int a_first; /**< 1: its A keys are all smaller than its B keys; 0: its B keys come first */
} kit_worst_split;

/**
 * The papers' sequence T for one subproblem of w/d threads and wE/d keys (SPAA 2025, section 4),
 * d = gcd(w, E): the subproblem with ceil(E/2d) columns of A and floor(E/2d) of B.
 * For E dividing w (r = 0), sorted order is the worst case (IPDPS 2020, III-b): q tuples (E, 0).
 * @param[in]  w banks, and threads of a warp (2 .. 1024)
 * @param[in]  E keys per thread, 1 < E <= w
 * @param[out] a a[i] keys of A for thread i, i < w/d
 * @param[out] b b[i] keys of B, a[i] + b[i] = E
 * @return w/d, the tuples written, or -1 for bad w or E
 */
typedef int (*kit_worst_subproblem_fn)(int w, int E, int *a, int *b);

/**
 * Which list a thread merges first (the within-thread order).
 * @param[in] w      banks
 * @param[in] E      keys per thread
 * @param[in] a_word shared-memory word of the thread's first A key
 * @param[in] b_word shared-memory word of its first B key
 * @param[in] a      keys it takes from A
 * @param[in] b      keys it takes from B
 * @return 1 to merge its A keys first, 0 for its B keys first
 */
typedef int (*kit_worst_order_fn)(int w, int E, int a_word, int b_word, int a, int b);

/** What kit_worst_subproblem returns in the student kit, which leaves the reference construction out. */
#define KIT_WORST_LEFT_OUT (-2)

/**
 * The kit's reference for the sequence T of one subproblem (see kit_worst_subproblem_fn).
 * @param[in]  w banks (2 .. 1024)
 * @param[in]  E keys per thread, 1 < E <= w
 * @param[out] a keys of A per thread, w/d entries
 * @param[out] b keys of B per thread, w/d entries
 * @return w/d, or -1 for bad w or E (KIT_WORST_LEFT_OUT in the student kit)
 */
int kit_worst_subproblem(int w, int E, int *a, int *b);

/**
 * The kit's reference for the within-thread order. A key the papers align sits in bank
 * s + j, s = w - E, and is output at step j, which SerialMerge reads at ordinal j + 1. The thread
 * takes the order that puts more of its reads at ordinal o (o >= 2) in bank (s + o - 1) mod w;
 * ordinals 0 and 1 read A[a] and B[b] whatever the order. Ties go to A first.
 * @param[in] w      banks
 * @param[in] E      keys per thread
 * @param[in] a_word shared-memory word of the thread's first A key
 * @param[in] b_word shared-memory word of its first B key
 * @param[in] a      keys it takes from A
 * @param[in] b      keys it takes from B
 * @return 1 for A first, 0 for B first
 */
int kit_worst_order(int w, int E, int a_word, int b_word, int a, int b);

/**
 * The papers' lower bound on one warp's count (the sum over its steps of the largest number of
 * keys one bank serves, kit_bank_count.cost): E^2 if E <= w/2, otherwise
 * (E^2 + 2Er + Ed - r^2 - rd)/2 with w = qE + r and d = gcd(w, E) (SPAA 2025, Theorem 8 and the
 * sum over subproblems after it; IPDPS 2020, Theorems 3 and 9, for d = 1).
 * @param[in] w banks (2 .. 1024)
 * @param[in] E keys per thread, 1 < E <= w
 * @return the bound, or -1 for bad w or E
 */
long kit_worst_theorem(int w, int E);

/**
 * One warp's splits: its d subproblems, alternately with more A and more B (the first with more A
 * when @p left is 1, an L warp, else more B, an R warp), each from @p sub, and each thread's order
 * from @p order. The warp's A keys sit at shared words [0, |A|) and its B keys right after, so both
 * start in bank 0 (|A| is a multiple of w).
 * @param[in]  w      banks and threads (2 .. 1024)
 * @param[in]  E      keys per thread, 1 < E <= w
 * @param[in]  left   1 for an L warp, 0 for an R warp
 * @param[in]  sub    the subproblem's sequence T (kit_worst_subproblem, or a student's)
 * @param[in]  order  the within-thread order (kit_worst_order, or a student's)
 * @param[out] T      w splits, thread 0 first
 * @param[out] err    why not: bad w or E, or a subproblem that is not a valid split
 * @param[in]  errlen size of @p err
 * @return 0, or -1 with a message in @p err
 */
int kit_worst_warp_with(int w, int E, int left, kit_worst_subproblem_fn sub, kit_worst_order_fn order,
                        kit_worst_split *T, char *err, size_t errlen);

/**
 * kit_worst_warp_with() with the kit's references.
 * @param[in]  w      banks and threads
 * @param[in]  E      keys per thread
 * @param[in]  left   1 for an L warp, 0 for an R warp
 * @param[out] T      w splits
 * @param[out] err    why not
 * @param[in]  errlen size of @p err
 * @return 0, or -1 with a message in @p err
 */
int kit_worst_warp(int w, int E, int left, kit_worst_split *T, char *err, size_t errlen);

/**
 * One warp's merge input: output k of the warp's merge is key k, A holds the outputs that the
 * splits take from A (kit_worst_warp_mask) and B the others, both ascending. keys[0 .. n_a) is A
 * and keys[n_a .. wE) is B, as the warp's shared memory holds them.
 * @param[in]  w      banks and threads (2 .. 1024)
 * @param[in]  E      keys per thread, 1 < E <= w
 * @param[in]  T      w splits
 * @param[out] keys   w*E keys
 * @param[out] err    why not: bad w or E, or a split that does not take E keys
 * @param[in]  errlen size of @p err
 * @return n_a, the keys of A, or -1 with a message in @p err
 */
int kit_worst_warp_keys(int w, int E, const kit_worst_split *T, int32_t *keys, char *err, size_t errlen);

/**
 * Counts one warp's merge round in the simulator: the warp's A keys at words [0, |A|), its B keys
 * after them, each thread merging its split with SerialMerge's reads (E + 2 loads, ordinals
 * 0 .. E + 1) on w banks of 4 bytes.
 * @param[in]  w      banks and threads
 * @param[in]  E      keys per thread
 * @param[in]  T      w splits, as kit_worst_warp() makes them
 * @param[out] count  the simulator's totals for the warp's loads (cost: the papers' count)
 * @param[out] err    why not: a split that is not valid, or the simulator's refusal
 * @param[in]  errlen size of @p err
 * @return 0, or -1 with a message in @p err
 */
int kit_worst_warp_count(int w, int E, const kit_worst_split *T, kit_bank_count *count, char *err, size_t errlen);

/**
 * The mask of one warp's wE outputs: out[k] = 1 if output k comes from A. Thread i's outputs are
 * k = iE .. iE + E - 1: T[i].a ones and T[i].b zeros, ones first if T[i].a_first.
 * @param[in]  w   threads
 * @param[in]  E   keys per thread
 * @param[in]  T   w splits
 * @param[out] out w*E flags
 */
void kit_worst_warp_mask(int w, int E, const kit_worst_split *T, uint8_t *out);

/**
 * The papers' count of one warp whose threads merge in groups, as in the sort's rounds: w threads
 * in groups of c (c divides w); group g's keys sit at shared words [g*c*E, (g+1)*c*E), its n_a
 * keys of A first, then its B keys; each thread reads as SerialMerge does (E + 2 loads). With
 * c = w this is one warp of kit_worst_warp_count (n_a its keys of A).
 * @param[in] w    banks and threads (2 .. 1024)
 * @param[in] E    keys per thread, 1 < E <= w
 * @param[in] c    threads a group, dividing w
 * @param[in] n_a  keys of A in each group (0 .. c*E)
 * @param[in] mask the warp's w*E outputs, 1 where an output comes from A (kit_worst_warp_mask)
 * @return the count (the sum over the E + 2 steps of the most distinct words one bank serves), or
 *         -1 for bad parameters or a group that does not take n_a keys of A
 */
long kit_worst_groups_cost(int w, int E, int c, int n_a, const uint8_t *mask);

/**
 * The search mode: improves one warp's input by local search. From @p mask, it makes @p iters
 * random moves, each swapping an output from A with one from B in the same group (so every group
 * keeps n_a keys of A); it keeps a move when kit_worst_groups_cost does not fall, and returns the
 * best input seen. Deterministic for a given seed.
 * @param[in]     w      banks and threads
 * @param[in]     E      keys per thread
 * @param[in]     c      threads a group, dividing w
 * @param[in]     n_a    keys of A in each group
 * @param[in]     seed   the moves' random seed (0 picks a fixed one)
 * @param[in]     iters  moves to try (>= 0)
 * @param[in,out] mask   the starting input (w*E outputs, 1 from A); on return, the best found
 * @param[out]    err    why not: bad parameters, a starting input with the wrong n_a, no memory
 * @param[in]     errlen size of @p err
 * @return the best count (at least the starting input's), or -1 with a message in @p err
 */
long kit_worst_search(int w, int E, int c, int n_a, uint64_t seed, long iters, uint8_t *mask, char *err, size_t errlen);

/**
 * A worst-case input for the merge sort with w = @p w banks, u threads a block and E keys a thread
 * (lab 9's sort, CUB's DeviceMergeSort): a permutation of 0 .. n-1. Built backwards from the sorted
 * output: every merge round is undone, pair by pair, choosing which outputs came from A. A round in
 * which c threads merge a pair's part (c = 2s/E in the block sort, where runs have s keys, c = u in
 * the global rounds) gets the per-warp construction when c is a multiple of 2w: warps alternately
 * L and R, so each group of c threads takes cE/2 keys of each list and both lists start in bank 0.
 * Rounds whose groups lie within one warp (c < 2w; c < w when E is even) get what the search mode
 * finds for one warp of w/c such groups (kit_worst_search from a random split with a fixed seed,
 * 40000 moves), the same pattern in every warp. Each thread's first E keys are left ascending
 * (the register sort reads no shared memory). Deterministic.
 * @param[out] keys   n keys
 * @param[in]  n      u*E*2^k for some k >= 0, at most 2^31
 * @param[in]  w      banks (a power of two, 2 .. 1024; 32 on NVIDIA GPUs)
 * @param[in]  E      keys per thread, 1 < E <= w
 * @param[in]  u      threads per block, a power of two and a multiple of w (at most 1024)
 * @param[out] err    why not: a bad parameter or size, named
 * @param[in]  errlen size of @p err
 * @return 0, or -1 with a message in @p err (and @p keys untouched)
 */
int kit_worst_sort_input(int32_t *keys, size_t n, int w, int E, int u, char *err, size_t errlen);

/** One merge round of the sort, replayed in the simulator. */
typedef struct kit_worst_round {
    long long run;      /**< keys in each run merged (the round's s) */
    int threads;        /**< threads cooperating on one pair (c) */
    int global;         /**< 1 for a global round (one block per tile), 0 for a block-sort round */
    int attacked;       /**< how the generator builds the round: 1 the per-warp construction, 2 the search mode */
    long long warps;    /**< warps that merge in the round */
    kit_bank_count load; /**< the simulator's totals for the round's shared-memory loads */
} kit_worst_round;

/**
 * Replays every merge round of the sort on @p keys (block-sort rounds, then global rounds), counts
 * each round's SerialMerge loads in the simulator (w banks of 4 bytes), and checks that the sort's
 * output is 0 .. n-1.
 * @param[in]  keys    n keys, a permutation of 0 .. n-1
 * @param[in]  n       u*E*2^k
 * @param[in]  w       banks
 * @param[in]  E       keys per thread
 * @param[in]  u       threads per block
 * @param[out] rounds  one entry per round, at most 64
 * @param[in]  max     room in @p rounds
 * @param[out] nrounds rounds written
 * @param[out] err     why not: bad parameters, keys that are not a permutation, no memory
 * @param[in]  errlen  size of @p err
 * @return 0, or -1 with a message in @p err
 */
int kit_worst_sort_replay(const int32_t *keys, size_t n, int w, int E, int u, kit_worst_round *rounds, int max,
                          int *nrounds, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
