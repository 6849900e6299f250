/*
 * The lab API in use: a kernel that touches everything kit_lab.h offers lab code. The grader
 * compiles it as it compiles a runner, and every symbol its object references is one a student's
 * file may reference too (besides what the lab's own harness and skeleton reference). Add here
 * what kit_lab.h gains, so that the object check lets students use it.
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
    __threadfence_block();
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

/** Instantiates the kernel for every key type the labs use (a template is only compiled when used). */
void kit_lab_api_instantiate(void)
{
    KIT_LAUNCH(kit_lab_api_kernel<int32_t>, 1, 32, 64 * sizeof(int32_t), nullptr, nullptr, nullptr);
    KIT_LAUNCH(kit_lab_api_kernel<int64_t>, 1, 32, 64 * sizeof(int64_t), nullptr, nullptr, nullptr);
    KIT_LAUNCH(kit_lab_api_kernel<kit_kv32>, 1, 32, 64 * sizeof(kit_kv32), nullptr, nullptr, nullptr);
}
