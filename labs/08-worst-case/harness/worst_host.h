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
#ifndef LAB08_WORST_HOST_H
#define LAB08_WORST_HOST_H

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
 * kit_worst_warp_with, from a subproblem already computed: @p count tuples (a[i], b[i]).
 * @param[in]  w      banks and threads (2 .. 1024)
 * @param[in]  E      keys per thread, 1 < E <= w
 * @param[in]  left   1 for an L warp, 0 for an R warp
 * @param[in]  a      keys of A of each tuple
 * @param[in]  b      keys of B of each tuple
 * @param[in]  count  how many tuples there are (must be w/d)
 * @param[in]  order  the within-thread order
 * @param[out] T      w splits, thread 0 first
 * @param[out] err    why not: bad w or E, a wrong count, or a tuple that is not a valid split
 * @param[in]  errlen size of @p err
 * @return 0, or -1 with a message in @p err
 */
int kit_worst_warp_from(int w, int E, int left, const int *a, const int *b, int count, kit_worst_order_fn order,
                        kit_worst_split *T, char *err, size_t errlen);

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
 * The three read models the kit counts a merge in: how many shared-memory reads a thread makes to
 * output its E keys, and which words. Every count of a warp's merge names its model.
 */
typedef enum kit_worst_reads {
    KIT_READS_PAPERS, /**< E reads, output k read at step k: the papers' DMM model, in which their theorems hold */
    KIT_READS_LAB9,   /**< E + 1 reads: A[a] and B[b], then the next key of each output's list but the last (lab 9) */
    KIT_READS_SERIAL  /**< E + 2 reads: CUB's SerialMerge, a look-ahead after every output (lab 8's probe) */
} kit_worst_reads;

/** @return the steps of one merge in a read model: E, E + 1 or E + 2 (E for an unknown model). */
int kit_worst_reads_steps(kit_worst_reads reads, int E);

/** @return a model's name for tables and messages: "papers' model (E reads)", ..., or "?". */
const char *kit_worst_reads_name(kit_worst_reads reads);

/**
 * Counts one warp's merge round in the simulator (w banks of 4 bytes, lock-step) in a read model.
 * The warp's w threads merge in groups of c (c divides w): group g's keys sit at words
 * [g*c*E, (g+1)*c*E), its n_a keys of A first, then its B keys; thread l of a group outputs the
 * group's outputs l*E .. l*E + E - 1. With c = w and the mask of kit_worst_warp_mask, the
 * KIT_READS_SERIAL count is kit_worst_warp_count's.
 * @param[in]  w      banks and threads (2 .. 1024)
 * @param[in]  E      keys per thread, 1 < E <= w
 * @param[in]  c      threads a group, dividing w
 * @param[in]  n_a    keys of A in each group (0 .. c*E)
 * @param[in]  mask   the warp's w*E outputs, 1 where an output comes from A
 * @param[in]  reads  the read model
 * @param[out] count  the simulator's totals (cost: the papers' count, the sum over the model's steps
 *                    of the most distinct words one bank serves)
 * @param[out] err    why not: bad parameters, a group without n_a keys of A, the simulator's refusal
 * @param[in]  errlen size of @p err
 * @return 0, or -1 with a message in @p err
 */
int kit_worst_mask_count(int w, int E, int c, int n_a, const uint8_t *mask, kit_worst_reads reads,
                         kit_bank_count *count, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
