/** @file kit_check.h Checks by property, with no reference answer in them: an output is judged by what
 * it must satisfy (sorted, a stable permutation of the input, co-rank's two inequalities, a
 * predecessor's bracket), never by comparing it with a merge or a search the kit runs itself. The
 * reference answers live in the grader's instructor-only library (grader/ref/). */
#ifndef KIT_CHECK_H
#define KIT_CHECK_H

#include "kit_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @return the key of element @p i of an array of type @p t, widened to 64 bits. */
int64_t kit_key_at(kit_type t, const void *data, size_t i);

/** @return non-zero if the n elements are in ascending key order. */
int kit_is_sorted(kit_type t, const void *data, size_t n);

/**
 * Whether C is the stable merge of A and B: C is sorted, and each run of equal keys in C is A's
 * run of that key (in A's order) followed by B's run of it (in B's order). Each run is found by
 * binary search in A and B, so the check costs O((m + n) log(m + n)) and merges nothing.
 * @param[in]  t      element type
 * @param[in]  A, m   sorted A and its size
 * @param[in]  B, n   sorted B and its size
 * @param[in]  C      m + n elements to judge
 * @param[out] msg    on failure, "index I: ..." naming the first wrong element; may be NULL
 * @param[in]  msglen size of @p msg
 * @return -1 if C is right, else the index of the first element found wrong
 */
long long kit_check_merge(kit_type t, const void *A, size_t m, const void *B, size_t n, const void *C, char *msg,
                          size_t msglen);

/**
 * Whether out is the stable sort of in: out is sorted, and each run of equal keys in out holds
 * exactly in's elements of that key, in their input order. Sorts nothing (a binary search per
 * element of in).
 * @param[in]  t      element type
 * @param[in]  in     the n elements as given
 * @param[in]  out    the n elements to judge
 * @param[in]  n      their number
 * @param[out] msg    on failure, what is wrong and where; may be NULL
 * @param[in]  msglen size of @p msg
 * @return -1 if out is right, else the index of out found wrong (n if out could not be checked for lack of memory)
 */
long long kit_check_sort(kit_type t, const void *in, const void *out, size_t n, char *msg, size_t msglen);

/**
 * Co-rank's definition (lab 2): i is the co-rank of k if j = k - i, 0 <= i <= m, 0 <= j <= n,
 * A[i-1] <= B[j] (A's last element taken is not after B's first left) and B[j-1] < A[i] (B's
 * last taken is strictly before A's first left: A wins ties).
 * @return non-zero if i is the co-rank of k in the stable merge of A and B
 */
int kit_check_co_rank(kit_type t, const void *A, size_t m, const void *B, size_t n, long long k, long long i);

/**
 * A predecessor's bracket (lab 6): p is the index of the last key <= q, or -1 if every key is
 * above q.
 * @return non-zero if p is q's predecessor in the K sorted keys
 */
int kit_check_predecessor(kit_type t, const void *keys, size_t K, int64_t q, long long p);

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
