/* A deliberately broken lab 1 submission: equal keys match neither branch, so the loop spins forever on a tie. */
#ifndef LAB01_MERGE_SEQUENTIAL_CUH
#define LAB01_MERGE_SEQUENTIAL_CUH

#include "kit_lab.h"

template <typename T>
KIT_HD void merge_sequential(const T *A, int m, const T *B, int n, T *C)
{
    int i = 0, j = 0, k = 0;
    while (k < m + n) {
        if (j >= n || (i < m && A[i] < B[j]))
            C[k++] = A[i++];
        else if (i >= m || B[j] < A[i])
            C[k++] = B[j++];
        /* the mistake: A[i] == B[j] takes no branch and makes no progress */
    }
}

#endif
