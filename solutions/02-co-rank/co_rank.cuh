/** @file
 * Lab 2, co-rank: the one file you edit for this lab.
 * The handout is handouts/02-co-rank.md; `make check LAB=02` runs the tests.
 */
#ifndef LAB02_CO_RANK_CUH
#define LAB02_CO_RANK_CUH

#include "kit_lab.h"

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
    //@answer
    /* i lies in [i_low, i] and j in [j_low, j]; i + j == k throughout. */
    int i = k < m ? k : m;
    int j = k - i;
    int i_low = k - n > 0 ? k - n : 0; /* B can supply at most n of the k */
    int j_low = k - m > 0 ? k - m : 0; /* A can supply at most m of the k */
    int passes = 1; /* the last pass, the one that finds both conditions true, counts too */
    /* With an empty list both conditions hold at once: the start is the co-rank, and no key is read. */
    while (m > 0 && n > 0) {
        /* Both tests, on the four keys read at the top of every pass at indices clamped into the
           lists; a test whose index is out of range does not hold, whatever its clamped keys say.
           The pass is written without branches, both tests feeding the moves, so that every
           thread of a warp reads the same four places at every pass: on a GPU each read is then
           one instruction a pass for the whole warp, as the simulator counts it (handout 00).
           With an if/else, nvcc moves the reads of test (2) into its branch and the warp splits.
           Still at most two key comparisons a pass; kit_key reads only what is compared. */
        kit_key_t<InA> a_prev = kit_key(A, i > 0 ? i - 1 : 0), a_here = kit_key(A, i < m ? i : m - 1);
        kit_key_t<InB> b_prev = kit_key(B, j > 0 ? j - 1 : 0), b_here = kit_key(B, j < n ? j : n - 1);
        int i_high = (a_prev > b_here) & (i > 0) & (j < n);  /* (1) fails: A[i-1] belongs after B[j] */
        int j_high = (b_prev >= a_here) & (j > 0) & (i < m); /* (2) fails: B[j-1] belongs after A[i] (A wins ties) */
        if (!i_high && !j_high)
            break; /* both conditions hold: (i, j) is the co-rank (at most one can fail) */
        /* i too high: move i down by half of [i_low, i]; j too high: move it up by half of [j_low, j]. */
        int down = i_high * ((i - i_low + 1) / 2), up = j_high * ((j - j_low + 1) / 2);
        j_low = i_high ? j : j_low;
        i_low = j_high ? i : i_low;
        i += up - down;
        j += down - up;
        passes++;
    }
    if (iterations)
        *iterations = passes;
    return i;
    //@skeleton
    //@ /* Your code here: a binary search for i; count its passes into *iterations. */
    //@ (void)k; (void)A; (void)m; (void)B; (void)n;
    //@ KIT_NOT_IMPLEMENTED("02-co-rank:co_rank");
    //@ if (iterations)
    //@     *iterations = 0;
    //@ return 0;
    //@end
}

#endif
