/* A deliberately broken lab 2 submission: a missing semicolon, so it does not compile. */
#ifndef LAB02_CO_RANK_CUH
#define LAB02_CO_RANK_CUH

#include "kit_lab.h"

template <typename T>
KIT_HD int co_rank(int k, const T *A, int m, const T *B, int n, int *iterations = nullptr)
{
    int i = k < m ? k : m /* the mistake: no semicolon */
    (void)A; (void)B; (void)n;
    if (iterations)
        *iterations = 1;
    return i;
}

#endif
