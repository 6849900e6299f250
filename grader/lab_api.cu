/*
 * The lab API in use: a kernel that touches everything kit_lab.h offers lab code. The grader
 * compiles it as it compiles a runner, and every symbol its object references is one a student's
 * file may reference too (besides what the lab's own harness and skeleton reference). labcheck
 * (grader/labcheck.c) reads its syntax tree the same way: every function, type, member and macro
 * it names, and every reserved name (__x) it spells, a lab file may name too, and nothing else of
 * the kit. Add here what kit_lab.h gains, so that both checks let students use it.
 */
#include "kit_lab.h"

template <typename T>
__global__ void kit_lab_api_kernel(const T *in, T *out, unsigned *flags)
{
    kit_shared<T> S = KIT_DYNAMIC_SHARED(T);
    kit_shared<int> words = kit_shared_cast<int>(S + 1);
    unsigned t = threadIdx.x + blockIdx.x * blockDim.x + threadIdx.y + threadIdx.z + blockIdx.y + blockIdx.z +
                 blockDim.y + blockDim.z + gridDim.x + gridDim.y + gridDim.z;
    S[threadIdx.x] = in[t];
    words[threadIdx.x] += 1;
    __syncthreads();
    T v = S[(threadIdx.x + 1) % blockDim.x];
    __syncwarp();
    int lane = __shfl_sync(0xffffffffu, (int)threadIdx.x, 0) + __shfl_up_sync(0xffffffffu, 1, 1) +
               __shfl_down_sync(0xffffffffu, 1, 1) + __shfl_xor_sync(0xffffffffu, 1, 1);
    unsigned ballot = __ballot_sync(0xffffffffu, lane > 0) + __any_sync(0xffffffffu, 1) + __all_sync(0xffffffffu, 1);
    atomicAdd(flags, ballot);
    atomicMax(flags + 1, (unsigned)__popc(ballot) + (unsigned)__clz((int)ballot) + (unsigned)__ffs((int)ballot));
    atomicMin(flags + 2, (unsigned)__popcll(0x3ull));
    atomicExch(flags + 3, atomicCAS(flags + 4, 0u, 1u));
    __threadfence_block();
    __threadfence();
    if (t == 0)
        KIT_NOT_IMPLEMENTED("api:probe");
    out[t] = v;
}

/* A record wider than 16 bytes, which a compiler may copy as one block. */
struct kit_lab_api_wide {
    int64_t w[5];
};

/*
 * Loads and stores of every width, and a copy of a wide record (g++ records it, and an unaligned
 * access, as a range): where the CPU build records global accesses (a lab whose tests bound them),
 * each is a call to one of the emulator's hooks (kit_cpu.cc), and a student's own code may make any.
 */
__device__ void kit_lab_api_widths(char *p, kit_lab_api_wide *w, __int128 *x)
{
    p[1] = (char)(p[0] + 1);
    *(int16_t *)(p + 2) = (int16_t)(*(const int16_t *)(p + 4) + 1);
    *(int32_t *)(p + 8) = *(const int32_t *)(p + 12) + 1;
    *(int64_t *)(p + 16) = *(const int64_t *)(p + 24) + 1;
    x[0] = x[1] + 1;
    w[0] = w[1];
}

/*
 * The rest of what a lab file may use, outside a template so that every name resolves: kit_kv32's
 * comparisons, kit_key and kit_value_t, kit_gcd, min and max, and a function in each spelling
 * (KIT_HD, __host__ __device__, __forceinline__).
 */
KIT_HD inline int kit_lab_api_keys(const kit_kv32 *p, kit_kv32 *q, const int32_t *a, const int64_t *b)
{
    kit_kv32 x = p[0], y = p[1];
    kit_value_t<const kit_kv32 *> v = p[2];
    kit_key_t<const kit_kv32 *> k = kit_key(p, 3) + kit_key(q, 0);
    kit_value_t<const int64_t *> w = kit_key(b, 0);
    q[0] = v;
    return (x < y) + (x <= y) + (x > y) + (x >= y) + k + kit_key(a, 0) + (int)w + kit_gcd(12, 18);
}

__host__ __device__ __forceinline__ int kit_lab_api_spellings(int x)
{
    return x + 1;
}

/*
 * Shared memory element by element (a kit_shared's reads, writes and arithmetic, and its null
 * default), the loop macros, and min and max of each width.
 */
__device__ long long kit_lab_api_shared(kit_shared<int> s, kit_shared<const kit_kv32> c, kit_shared<kit_kv32> m,
                                        unsigned u, long long l)
{
    int v = s[0];
    s[1] = v;
    s[2] = s[3];
    s[4] += 1;
    s[5] -= 1;
    kit_shared<int> t = s + 1, z, n = t - 1, dyn = KIT_DYNAMIC_SHARED(int);
    ptrdiff_t d = t - n;
    kit_value_t<kit_shared<int>> e = *t;
    z = dyn[0] ? t : dyn;
    int k = kit_key(c, 0) + kit_key(m, 1) + kit_lab_api_spellings(e);
    KIT_UNROLL
    for (int i = 0; i < 4; i++)
        k += z[i];
    KIT_NO_UNROLL
    for (int i = 0; i < 4; i++)
        k -= z[i];
    return min(v, k) + max(v, k) + min(u, 1u) + max(u, 1u) + min(l, 1ll) + max(l, 1ll) + (long long)d;
}

/* The kernel for every key type the labs use (a template is only compiled when instantiated).
   Explicit instantiations, not launches: launching is the harness's, and a lab file may not. */
template __global__ void kit_lab_api_kernel<int32_t>(const int32_t *, int32_t *, unsigned *);
template __global__ void kit_lab_api_kernel<int64_t>(const int64_t *, int64_t *, unsigned *);
template __global__ void kit_lab_api_kernel<kit_kv32>(const kit_kv32 *, kit_kv32 *, unsigned *);
