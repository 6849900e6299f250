/** @file kit_ref.h CPU references the tests and the grader trust: a stable merge, co-ranks, and array comparison. */
#ifndef KIT_REF_H
#define KIT_REF_H

#include "kit_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @return the key of element @p i of an array of type @p t, widened to 64 bits. */
int64_t kit_key_at(kit_type t, const void *data, size_t i);

/** @return non-zero if the n elements are in ascending key order. */
int kit_is_sorted(kit_type t, const void *data, size_t n);

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

/**
 * The co-rank search's pass bound of lab 2: ceil(log2(min(m, n) + 1)) + 1,
 * computed exactly on integers.
 * @pre m >= 0 and n >= 0
 */
int kit_co_rank_pass_bound(long long m, long long n);

/**
 * Writes one element as text: "17" for keys, "(key 17, value -3)" for pairs.
 * @param[in]  t    element type
 * @param[in]  data the array
 * @param[in]  i    which element
 * @param[out] buf  destination, always NUL-terminated
 * @param[in]  len  size of @p buf
 */
void kit_format_elem(kit_type t, const void *data, size_t i, char *buf, size_t len);

/**
 * Compares two arrays element by element (key and value for pairs).
 * @param[in]  t   element type
 * @param[in]  expected, got the two arrays
 * @param[in]  n   their length
 * @param[out] msg on a mismatch, "index I: expected X, got Y"; may be NULL
 * @param[in]  msglen size of @p msg
 * @return the index of the first mismatch, or -1 if the arrays are equal
 */
long long kit_verify(kit_type t, const void *expected, const void *got, size_t n, char *msg, size_t msglen);

#ifdef __cplusplus
}
#endif

#endif
