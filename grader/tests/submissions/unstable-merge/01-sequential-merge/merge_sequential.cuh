/* A deliberately broken lab 1 submission: B wins ties, so the merge sorts but is not stable. */
#ifndef LAB01_MERGE_SEQUENTIAL_CUH
#define LAB01_MERGE_SEQUENTIAL_CUH

#include "kit_lab.h"

template <typename T>
KIT_HD void merge_sequential(const T *A, int m, const T *B, int n, T *C)
{
    int i = 0, j = 0, k = 0;
    while (i < m && j < n) {
        if (A[i] < B[j]) /* the mistake: should be <= */
            C[k++] = A[i++];
        else
            C[k++] = B[j++];
    }
    while (i < m)
        C[k++] = A[i++];
    while (j < n)
        C[k++] = B[j++];
}

#endif
