/** @file kit_check.h Checks by property, with no reference answer in them: an output is judged by what
 * it must satisfy (sorted, a stable permutation of the input, co-rank's two inequalities, a
 * predecessor's bracket), never by comparing it with a merge or a search the kit runs itself. The
 * reference answers live in the grader's instructor-only library (grader/ref/). A failure message still
 * names the element or answer that was expected: the stable merge's next element, found by walking A
 * and B in step with C, the sort's by ordering the input, and the predecessor by a binary search. */
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
 * Whether C is the stable merge of A and B: walks the merge in step with C (two indices, A's element
 * first unless B's key is smaller), so it allocates nothing and stops at the first difference.
 * @param[in]  t      element type
 * @param[in]  A, m   sorted A and its size
 * @param[in]  B, n   sorted B and its size
 * @param[in]  C      m + n elements to judge
 * @param[out] msg    on failure, kit_wrong_output()'s line for the first wrong element; may be NULL
 * @param[in]  msglen size of @p msg
 * @return -1 if C is right, else the index of the first element found wrong
 */
long long kit_check_merge(kit_type t, const void *A, size_t m, const void *B, size_t n, const void *C, char *msg,
                          size_t msglen);

/**
 * Whether out is the stable sort of in: compares out with in's elements ordered by key, then by
 * input position, and names the first difference.
 * @param[in]  t      element type
 * @param[in]  in     the n elements as given
 * @param[in]  out    the n elements to judge
 * @param[in]  n      their number
 * @param[out] msg    on failure, kit_wrong_output()'s line ("... expected X (input[p]), got Y"); may be NULL
 * @param[in]  msglen size of @p msg
 * @return -1 if out is right, else the index of out found wrong (n if out could not be checked for lack of memory)
 */
long long kit_check_sort(kit_type t, const void *in, const void *out, size_t n, char *msg, size_t msglen);

/**
 * The kit's one wording of a wrong output element, shared by the grader, make check and make run
 * (which put "wrong output at " before it): "index I: expected X (A[J]), got Y", with ": C[I] was
 * never written" added when every byte of Y is KIT_UNWRITTEN_BYTE, the harnesses' fill of output slots,
 * or ": TIES" when Y has X's key (another element of that key: a stability slip).
 * @param[in]  t         element type
 * @param[in]  got       the output array; element @p i is the wrong one
 * @param[in]  filled    the output's name when the harness filled it with KIT_UNWRITTEN_BYTE ("C"), else NULL
 * @param[in]  i         the wrong element's index
 * @param[in]  from      the array the expected element comes from, and @p from_name its name ("A")
 * @param[in]  from_name see @p from
 * @param[in]  j         the expected element's index in @p from
 * @param[in]  ties      the rule for equal keys, said when Y has X's key; may be NULL
 * @param[out] msg       the line, always NUL-terminated; may be NULL
 * @param[in]  msglen    size of @p msg
 */
void kit_wrong_output(kit_type t, const void *got, const char *filled, size_t i, const void *from, const char *from_name,
                      size_t j, const char *ties, char *msg, size_t msglen);

/**
 * Co-rank's definition (lab 2): i is the co-rank of k if j = k - i, 0 <= i <= m, 0 <= j <= n,
 * A[i-1] <= B[j] (A's last element taken is not after B's first left) and B[j-1] < A[i] (B's
 * last taken is strictly before A's first left: A wins ties).
 * @return non-zero if i is the co-rank of k in the stable merge of A and B
 */
int kit_check_co_rank(kit_type t, const void *A, size_t m, const void *B, size_t n, long long k, long long i);

/**
 * Checks one co-rank (lab 2), for the grader and the driver alike. On a wrong one, the kit's one
 * wording of it (callers put "wrong output: " before it): "co_rank(k=K) returned i=X, expected Y
 * (m=M, n=N)", Y found by walking the stable merge's first k elements.
 * @return non-zero if i is the co-rank of k (kit_check_co_rank()); @p msg is "" then
 */
int kit_check_co_rank_answer(kit_type t, const void *A, size_t m, const void *B, size_t n, long long k, long long i,
                             char *msg, size_t msglen);

/**
 * A predecessor's bracket (lab 6): p is the index of the last key <= q, or -1 if every key is
 * above q.
 * @return non-zero if p is q's predecessor in the K sorted keys
 */
int kit_check_predecessor(kit_type t, const void *keys, size_t K, int64_t q, long long p);

/**
 * Checks one answer of a predecessor search (lab 6), for the grader and the driver alike. On a wrong
 * one, the kit's one wording of it (callers put "wrong output at " before it): "query X (key Q):
 * answered P, expected E (the last key <= Q, keys[E] = V)", or "expected -1 (no key is <= Q)".
 * @param[in]  t      element type (i32 or i64)
 * @param[in]  keys   the K sorted keys
 * @param[in]  K      their number
 * @param[in]  x      the query's index, for the message
 * @param[in]  q      the query's key
 * @param[in]  p      the answer to judge
 * @param[out] msg    the message, "" when the answer is right; may be NULL
 * @param[in]  msglen size of @p msg
 * @return non-zero if p is q's predecessor (kit_check_predecessor())
 */
int kit_check_answer(kit_type t, const void *keys, size_t K, long long x, int64_t q, long long p, char *msg,
                     size_t msglen);

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
