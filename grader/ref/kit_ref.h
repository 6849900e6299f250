/** @file kit_ref.h The instructor-only library (libkitref): the reference answers. Only the grader, the
 * kit's own tests, the benchmarks and the instructor's tools link it; no lab runner does, so a
 * student's file cannot call any of it, and the student kit leaves this folder out. What the labs
 * may use to check an output lives in common/kit_check.h and checks by property instead. */
#ifndef KIT_REF_H
#define KIT_REF_H

#include <stddef.h>
#include <stdint.h>

#include "kit_check.h"
#include "06-predecessor-search/harness/pbs_host.h"
#include "08-worst-case/harness/worst_host.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- merges and co-ranks (labs 1, 2 and 9) ---------------------------------------------------- */

/**
 * The reference stable merge: on equal keys A's element comes first, and
 * each list keeps its own order.
 * @param[in]  t element type
 * @param[in]  A sorted, m elements
 * @param[in]  m size of A
 * @param[in]  B sorted, n elements
 * @param[in]  n size of B
 * @param[out] C m + n elements; must not overlap A or B
 */
void kit_merge_ref(kit_type t, const void *A, size_t m, const void *B, size_t n, void *C);

/**
 * The reference stable sort (lab 9): ascending by key, equal keys in their
 * input order. A bottom-up merge sort built on kit_merge_ref().
 * @param[in]     t    element type
 * @param[in,out] data n elements, sorted in place
 * @param[in]     n    their number
 * @return 0, or -1 if it could not allocate its scratch array (data is then unchanged)
 */
int kit_stable_sort(kit_type t, void *data, size_t n);

/**
 * Brute-force co-rank: walks the stable merge k steps and counts the
 * elements taken from A. O(k); meant for small exhaustive tests.
 * @pre 0 <= k <= m + n
 * @return i, the number of A's elements among the first k of the merge
 */
size_t kit_co_rank_brute(kit_type t, const void *A, size_t m, const void *B, size_t n, size_t k);

/**
 * Every co-rank at once: out[k] = kit_co_rank_brute(..., k) for k = 0 to m + n,
 * in one O(m + n) pass.
 * @param[in]  t    element type
 * @param[in]  A, m sorted A and its size
 * @param[in]  B, n sorted B and its size
 * @param[out] out m + n + 1 entries
 */
void kit_co_rank_all(kit_type t, const void *A, size_t m, const void *B, size_t n, int64_t *out);

/* ---- predecessor search (lab 6) ------------------------------------------------------------- */

/**
 * The reference predecessor: the index of the last key <= q, or -1.
 * @param[in] t    KIT_TYPE_I32 or KIT_TYPE_I64
 * @param[in] keys K sorted keys
 * @param[in] K    their number
 * @param[in] q    the query
 */
long long kit_pbs_ref(kit_type t, const void *keys, size_t K, int64_t q);

/**
 * The padded positions Algorithm 1 (PBS) reads for query q, one per pass, then the one it ends on.
 * @param[out] pos at most 33 positions
 * @return how many were written
 */
int kit_pbs_path(kit_type t, const void *keys, size_t K, int64_t q, int32_t *pos);

/**
 * kit_pbs_gen_queries, plus the worst queries for any K (Lemma 4.2's pigeonhole warp, which follows
 * every key's PBS path); common/'s generator makes worst queries only for K a multiple of w^2.
 * Same parameters and return as kit_pbs_gen_queries.
 */
int kit_pbs_gen_queries_any(kit_type t, const void *keys, size_t K, kit_pbs_queries kind, uint64_t seed, void *out,
                            size_t Q);

/* ---- lab 8's construction and the sort's worst case ----------------------------------------- */

/**
 * The kit's reference for the sequence T of one subproblem (see kit_worst_subproblem_fn).
 * @param[in]  w banks (2 .. 1024)
 * @param[in]  E keys per thread, 1 < E <= w
 * @param[out] a keys of A per thread, w/d entries
 * @param[out] b keys of B per thread, w/d entries
 * @return w/d, or -1 for bad w or E
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
 * The old way to count a warp: builds its keys (kit_worst_warp_keys), merges them as SerialMerge
 * does and counts the reads in the simulator. kit_worst_warp_count reads the same words from the
 * splits alone; the tests check that the two agree.
 */
int kit_worst_warp_replay(int w, int E, const kit_worst_split *T, kit_bank_count *count, char *err, size_t errlen);

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
 * @param[in]     seed   the moves' random seed (kit_rng_next's state; any value, 0 included)
 * @param[in]     iters  moves to try (>= 0)
 * @param[in,out] mask   the starting input (w*E outputs, 1 from A); on return, the best found
 * @param[out]    err    why not: bad parameters, a starting input with the wrong n_a, no memory
 * @param[in]     errlen size of @p err
 * @return the best count (at least the starting input's), or -1 with a message in @p err
 */
long kit_worst_search(int w, int E, int c, int n_a, uint64_t seed, long iters, uint8_t *mask, char *err, size_t errlen);

/**
 * The targeted mode: one warp's input built toward a bank per step. For a choice of target banks T
 * (one for each of the E + 2 steps), each group's outputs are the path through its merge that reads
 * T[o] at step o the most times (a dynamic program over the merge's lattice); the targets are
 * improved one step at a time, every bank tried, keeping a change when the warp's
 * kit_worst_groups_cost rises. Deterministic. One pass over the steps updates w (E + 2) (w/c) (cE/2)^2
 * cells: well under a second for w = 32, hours for w = 64 and E near w.
 * @param[in]  w      banks and threads
 * @param[in]  E      keys per thread
 * @param[in]  c      threads a group, dividing w
 * @param[in]  n_a    keys of A in each group
 * @param[out] mask   the best input found (w*E outputs, 1 from A; every group takes n_a keys of A)
 * @param[out] err    why not: bad parameters, no memory
 * @param[in]  errlen size of @p err
 * @return the count of @p mask, or -1 with a message in @p err
 */
long kit_worst_target(int w, int E, int c, int n_a, uint8_t *mask, char *err, size_t errlen);

/**
 * A worst-case input for the merge sort with w = @p w banks, u threads a block and E keys a thread
 * (lab 9's sort, CUB's DeviceMergeSort): a permutation of 0 .. n-1. Built backwards from the sorted
 * output: every merge round is undone, pair by pair, choosing which outputs came from A. A round in
 * which c threads merge a pair's part (c = 2s/E in the block sort, where runs have s keys, c = u in
 * the global rounds) gets the per-warp construction when c is a multiple of 2w: warps alternately
 * L and R, so each group of c threads takes cE/2 keys of each list and both lists start in bank 0.
 * Rounds whose groups lie within one warp (c < 2w; c < w when E is even) get the costlier of two
 * inputs for one warp of w/c such groups, each polished by the search mode (kit_worst_search, 40000
 * moves): one from a random split with a fixed seed, one from the targeted mode (kit_worst_target,
 * only where one of its passes stays within 10^9 cells: every round for w <= 32, the rounds of small
 * groups beyond). Every warp of the round gets the same pattern. Each thread's first E keys are left ascending
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
    int attacked;       /**< how the generator builds the round: 1 the per-warp construction, 2 the targeted and
                             search modes (kit_worst_sort_input) */
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
