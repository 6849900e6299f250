/* A deliberately broken lab 2 submission: the tie rule is reversed, so B wins ties and i is off by one on each. */
#ifndef LAB02_CO_RANK_CUH
#define LAB02_CO_RANK_CUH

#include "kit_lab.h"

template <typename T>
KIT_HD int co_rank(int k, const T *A, int m, const T *B, int n, int *iterations = nullptr)
{
    int i = k < m ? k : m, j = k - i;
    int i_low = k - n > 0 ? k - n : 0, j_low = k - m > 0 ? k - m : 0;
    int passes = 0;
    for (;;) {
        passes++;
        if (i > 0 && j < n && A[i - 1] >= B[j]) { /* the mistake: should be > */
            int delta = (i - i_low + 1) / 2;
            j_low = j;
            i -= delta;
            j += delta;
        } else if (j > 0 && i < m && B[j - 1] > A[i]) { /* the mistake: should be >= */
            int delta = (j - j_low + 1) / 2;
            i_low = i;
            i += delta;
            j -= delta;
        } else {
            break;
        }
    }
    if (iterations)
        *iterations = passes;
    return i;
}

#endif
