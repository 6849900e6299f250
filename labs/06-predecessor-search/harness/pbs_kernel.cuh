/** @file
 * Lab 6's given kernel: a warp's queries against the key list in shared memory, through the search
 * the launch names (PBS, or the student's PBS-CF and PBS-CL in pbs.cuh). lab06.cuh includes it
 * after the student's file.
 */
#ifndef LAB06_PBS_KERNEL_CUH
#define LAB06_PBS_KERNEL_CUH

#include "kit_lab.h"
#include "pbs.cuh"
#include "pbs_given.cuh"

/** Which search pbs_kernel runs. */
enum pbs_alg { PBS_PLAIN = 0, PBS_CF = 1, PBS_CL = 2 };

/** The padded list's length in shared memory: K + 2 PBS_W, rounded up to whole rounds of the block. */
KIT_HD inline int pbs_padded_length(int K, int threads)
{
    return (K + 2 * PBS_W + threads - 1) / threads * threads;
}

/** Bytes of dynamic shared memory pbs_kernel needs. */
template <typename T>
KIT_HD size_t pbs_shared_bytes(int K, int threads)
{
    return (size_t)pbs_padded_length(K, threads) * sizeof(T);
}

/**
 * Answers Q queries against K sorted keys: every block copies the keys into shared memory,
 * padded, then each thread answers queries x = global thread index, + all threads, ...
 * It is given: you write the searches it calls.
 *
 * Launch: any 1-D grid of 1-D blocks whose size is a multiple of PBS_W; dynamic shared memory
 * pbs_shared_bytes<T>(K, blockDim.x). The padded list is rounded up to whole rounds of the block,
 * and the extra slots hold the largest value, so every thread makes the same number of stores.
 * @param[in]  keys    K sorted keys (device)
 * @param[in]  K       number of keys, K >= 1
 * @param[in]  queries Q queries (device)
 * @param[in]  Q       number of queries
 * @param[out] out     Q answers (device): the largest i with keys[i] <= query, or -1
 * @param[in]  alg     PBS_PLAIN, PBS_CF or PBS_CL
 * @param[in]  lowest  a value no key is below (the bottom pads)
 * @param[in]  highest a value no key is above (the top pads)
 */
template <typename T>
__global__ void pbs_kernel(const T *keys, int K, const T *queries, long long Q, int *out, int alg, T lowest,
                           T highest)
{
    kit_shared<T> P = KIT_DYNAMIC_SHARED(T);
    int padded = pbs_padded_length(K, blockDim.x);
    for (int i = threadIdx.x; i < padded; i += blockDim.x) {
        T v = i < PBS_W ? lowest : i < PBS_W + K ? keys[i - PBS_W] : highest;
        P[i] = v;
    }
    __syncthreads();
    int lane = threadIdx.x % PBS_W;
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long x = (long long)blockIdx.x * blockDim.x + threadIdx.x; x < Q; x += stride) {
        T q = queries[x];
        out[x] = alg == PBS_CF ? pbs_cf_search(P, K, q, lane)
                 : alg == PBS_CL ? pbs_cl_search(P, K, q, lane)
                                 : pbs_search(P, K, q);
    }
}

#endif
