/** @file
 * Micro-kernels with known shared-memory access patterns, written once for the
 * GPU and the CPU emulation: bankcheck runs them under Nsight Compute on a GPU
 * and through the simulator on the CPU, and the two counts are compared.
 * Launch shape of each: one block of 32 threads (one warp), dynamic shared
 * memory BANK_MICRO_SMEM bytes. Each fills shared memory with conflict-free
 * stores, waits at a barrier, then makes the one access the pattern is about.
 */
#ifndef BANK_MICRO_CUH
#define BANK_MICRO_CUH

#include "kit_lab.h"

#define BANK_MICRO_WORDS 4096 /**< 4-byte words of shared memory the kernels use */
#define BANK_MICRO_SMEM (BANK_MICRO_WORDS * 4) /**< bytes of dynamic shared memory of each micro-kernel */

/** Stores i into every word, thread t taking words t, t + 32, ...: each store step covers 32 consecutive words. */
__device__ inline void bank_micro_fill(kit_shared<int> s)
{
    for (int i = threadIdx.x; i < BANK_MICRO_WORDS; i += blockDim.x)
        s[i] = i;
    __syncthreads();
}

/** Thread t loads the 4-byte word t * stride. */
__global__ void bank_micro_load_stride(int stride, int *out)
{
    kit_shared<int> s = KIT_DYNAMIC_SHARED(int);
    bank_micro_fill(s);
    int v = s[threadIdx.x * stride];
    out[threadIdx.x] = v;
}

/** Thread t stores to the 4-byte word t * stride (after the fill, so the fill's stores come first). */
__global__ void bank_micro_store_stride(int stride, int *out)
{
    kit_shared<int> s = KIT_DYNAMIC_SHARED(int);
    bank_micro_fill(s);
    s[threadIdx.x * stride] = (int)threadIdx.x;
    __syncthreads();
    int v = s[threadIdx.x];
    out[threadIdx.x] = v;
}

/** Thread t loads word words[t]: broadcasts, permutations, any pattern the host chooses. */
__global__ void bank_micro_load_words(const int *words, int *out)
{
    kit_shared<int> s = KIT_DYNAMIC_SHARED(int);
    bank_micro_fill(s);
    int v = s[words[threadIdx.x]];
    out[threadIdx.x] = v;
}

/** Thread t loads the 8-byte element t * stride (elements are 8 bytes: two banks each). */
__global__ void bank_micro_load8_stride(int stride, long long *out)
{
    kit_shared<int> s = KIT_DYNAMIC_SHARED(int);
    bank_micro_fill(s);
    kit_shared<long long> s8 = kit_shared_cast<long long>(s);
    long long v = s8[threadIdx.x * stride];
    out[threadIdx.x] = v;
}

/** Thread t loads the 8-byte element elems[t]: the patterns of PBS on 8-byte keys, chosen by the host. */
__global__ void bank_micro_load8_elems(const int *elems, long long *out)
{
    kit_shared<int> s = KIT_DYNAMIC_SHARED(int);
    bank_micro_fill(s);
    kit_shared<long long> s8 = kit_shared_cast<long long>(s);
    long long v = s8[elems[threadIdx.x]];
    out[threadIdx.x] = v;
}

#endif
