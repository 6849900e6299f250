/** @file
 * Lab 1, sequential merge: the one file you edit for this lab.
 * The handout is handouts/01-sequential-merge.md; `make check LAB=01` runs the tests.
 */
#ifndef LAB01_MERGE_SEQUENTIAL_CUH
#define LAB01_MERGE_SEQUENTIAL_CUH

#include "kit_lab.h"

/**
 * Merges two sorted arrays into one, stably. Runs on the host and, unchanged,
 * inside GPU kernels (labs 3 to 5 call it from every thread).
 *
 * A, B and C are pointers to the elements: plain `const T *` and `T *`, or
 * kit_shared<T> when a kernel merges tiles in shared memory (labs 3 to 5);
 * index them as arrays and the same code serves both. The elements are
 * int32_t, int64_t or kit_kv32; compare keys with <, <=, > and >= only.
 *
 * @param[in]  A sorted by key, m elements
 * @param[in]  m size of A, 0 or more
 * @param[in]  B sorted by key, n elements
 * @param[in]  n size of B, 0 or more
 * @param[out] C m + n elements: all of A and B in key order. On equal keys
 *               A's element comes first, and each list keeps its own order.
 * @pre C does not overlap A or B; A and B are not modified
 */
template <typename InA, typename InB, typename Out>
KIT_HD void merge_sequential(InA A, int m, InB B, int n, Out C)
{
    //@answer
    int i = 0; /* next element of A */
    int j = 0; /* next element of B */
    int k = 0; /* next slot of C */
    while (i < m && j < n) {
        /* Read each front element once: a second read of A[i] to copy it would be another
           shared-memory access in the kernels of labs 3 to 5. */
        kit_value_t<InA> a = A[i];
        kit_value_t<InB> b = B[j];
        /* "<=" hands ties to A; with "<" the merge would still sort but lose stability. One store
           of the key taken, not a store on each side of an if/else: on a GPU, the threads of a
           warp that take different sides would make two store instructions of one step. */
        bool take_a = a <= b;
        C[k++] = take_a ? a : b;
        i += take_a;
        j += !take_a;
    }
    /* At most one of these loops runs: it copies what is left of the longer list. Not unrolled, so
       that on a GPU each pass is one read for the whole warp, as the simulator counts it. */
    KIT_NO_UNROLL
    while (i < m)
        C[k++] = A[i++];
    KIT_NO_UNROLL
    while (j < n)
        C[k++] = B[j++];
    //@skeleton
    //@ /* Your code here: fill C[0 .. m+n-1] from A and B; on equal keys take A's element first. */
    //@ (void)A; (void)m; (void)B; (void)n; (void)C;
    //@ KIT_NOT_IMPLEMENTED("01-sequential-merge:merge");
    //@end
}

#endif
