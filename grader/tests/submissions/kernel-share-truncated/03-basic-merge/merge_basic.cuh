/*
 * Lab 3, basic merge kernel: the one file you edit for this lab.
 * It uses your merge_sequential (lab 1) and co_rank (lab 2).
 * The handout is handouts/03-basic-merge.md; `make check LAB=03` runs the tests.
 */
#ifndef LAB03_MERGE_BASIC_CUH
#define LAB03_MERGE_BASIC_CUH

#include "co_rank.cuh"
#include "kit_lab.h"
#include "merge_sequential.cuh"

/**
 * Merges sorted A and B into C with every thread of the grid: the output is
 * cut into one contiguous share per thread, ceil((m + n) / threads) elements
 * each (the last shares may be shorter or empty); each thread finds where its
 * share starts and ends in A and B with co_rank and merges it from global
 * memory with merge_sequential.
 *
 * Launch: any 1-D grid of 1-D blocks; no shared memory.
 * @param[in]  A sorted, m elements (global memory)
 * @param[in]  B sorted, n elements
 * @param[out] C m + n elements: the stable merge
 */
template <typename T>
__global__ void merge_basic_kernel(const T *A, int m, const T *B, int n, T *C)
{
    long long threads = (long long)blockDim.x * gridDim.x;
    long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)m + n;
    /* A ceiling on integers. The chapter's ceil((m+n)/(blockDim.x*gridDim.x)) divides first and
       truncates, so its last outputs would belong to no thread. */
    long long share = total / threads; /* the chapter's truncating division */
    int k_curr = (int)(tid * share < total ? tid * share : total);
    int k_next = (int)(k_curr + share < total ? k_curr + share : total);
    int i_curr = co_rank(k_curr, A, m, B, n);
    int i_next = co_rank(k_next, A, m, B, n);
    int j_curr = k_curr - i_curr, j_next = k_next - i_next;
    merge_sequential(A + i_curr, i_next - i_curr, B + j_curr, j_next - j_curr, C + k_curr);
}

#endif
