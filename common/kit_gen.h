/** @file kit_gen.h Seeded input generators: the same seed gives the same data on every machine. */
#ifndef KIT_GEN_H
#define KIT_GEN_H

#include "kit_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The input shapes the kit generates. The last three only make sense for a pair of merge inputs. */
typedef enum kit_gen {
    KIT_GEN_RANDOM,      /**< uniform over the whole key range */
    KIT_GEN_SORTED,      /**< uniform keys in ascending order */
    KIT_GEN_REVERSE,     /**< uniform keys in descending order */
    KIT_GEN_DUPLICATES,  /**< heavy duplicates: keys in 0 .. n/16 + 2, about 16 copies of each */
    KIT_GEN_EQUAL,       /**< every key the same */
    KIT_GEN_FEW_UNIQUE,  /**< four distinct keys spread over the range */
    KIT_GEN_A_BELOW_B,   /**< merge pair: every key of A is below every key of B */
    KIT_GEN_B_BELOW_A,   /**< merge pair: every key of B is below every key of A */
    KIT_GEN_INTERLEAVED, /**< merge pair: A holds even keys, B odd ones, so they alternate */
    KIT_GEN_COUNT
} kit_gen;

/** @return the generator's command-line name, for example "few-unique", or "?". */
const char *kit_gen_name(kit_gen g);

/**
 * Parses a generator name as printed by kit_gen_name().
 * @param[in]  name the name
 * @param[out] out  the generator
 * @return 0 on success, -1 if @p name is unknown
 */
int kit_gen_parse(const char *name, kit_gen *out);

/** @return non-zero if @p g describes a pair of merge inputs rather than one array. */
int kit_gen_is_pair_only(kit_gen g);

/**
 * Advances a splitmix64 generator.
 * @param[in,out] state the generator's state
 * @return the next 64 pseudo-random bits
 */
uint64_t kit_rng_next(uint64_t *state);

/**
 * Fills one array with keys of the given shape. For kit_kv32 the value of
 * element i is i, so a sort's stability can be checked afterwards.
 * @param[in]  t    element type
 * @param[out] out  n elements of type @p t
 * @param[in]  n    element count
 * @param[in]  g    shape; the pair-only shapes are refused
 * @param[in]  seed seed of the generator
 * @return 0 on success, -1 for a pair-only shape or an unknown type
 */
int kit_gen_array(kit_type t, void *out, size_t n, kit_gen g, uint64_t seed);

/**
 * A random permutation of 0 .. n-1 (Fisher-Yates on kit_rng_next()): the same seed gives the same
 * permutation on every machine.
 * @param[out] out  n keys
 * @param[in]  n    element count
 * @param[in]  seed seed of the generator
 */
void kit_gen_permutation(int32_t *out, size_t n, uint64_t seed);

/**
 * Builds the two sorted inputs of a merge. Both come out in ascending key
 * order whatever @p g is (sorted and reverse therefore act like random).
 * For kit_kv32 the values tag origin: A[i].value = i and B[j].value = -1 - j,
 * so a merged output shows which list, and which position, each element came from.
 * @param[in]  t    element type
 * @param[out] A    m elements
 * @param[in]  m    size of A
 * @param[out] B    n elements
 * @param[in]  n    size of B
 * @param[in]  g    shape
 * @param[in]  seed seed of the generator
 * @return 0 on success, -1 for an unknown type or m, n or m + n above INT32_MAX
 */
int kit_gen_merge_input(kit_type t, void *A, size_t m, void *B, size_t n, kit_gen g, uint64_t seed);

/**
 * Sorts an array by key, ascending, in time linear in @p n (a radix sort). Equal keys keep their
 * order, except where memory for n more elements cannot be had: then a heap sort sorts in place,
 * and the order of equal keys is unspecified (the kit sorts only fresh inputs, where it does not
 * matter). Neither makes a system call of its own, so a runner may sort inside its jail.
 * @param[in]     t    element type
 * @param[in,out] data n elements
 * @param[in]     n    element count
 */
void kit_sort(kit_type t, void *data, size_t n);

#ifdef __cplusplus
}
#endif

#endif
