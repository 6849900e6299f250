/*
 * Benchmark of the CPU execution path: a tiled merge of 2^20 int32 keys with
 * 256-thread blocks, run on the kit's CPU emulation with and without tracing,
 * then the trace through the simulator. Built from the lab 1 and 2 reference
 * solutions, so it lives outside common/ and is not shipped to students.
 */
#include <stdlib.h>
#include <string.h>

#include "co_rank.cuh"
#include "kit.h"
#include "kit_bank.h"
#include "kit_ref.h"
#include "kit_cuda.h"
#include "merge_sequential.cuh"

/*
 * Each block makes one contiguous part of C. Per round it loads up to `tile`
 * keys of what remains of its A and B parts into shared memory, merges the
 * next min(tile, remaining) outputs (each thread an equal share, found with
 * co_rank on the tiles), and advances by what the round consumed.
 * Launch: any grid, blockDim.x threads, 2 * tile * sizeof(int) bytes of shared memory.
 */
__global__ void tiled_merge(const int *A, int m, const int *B, int n, int *C, int tile)
{
    kit_shared<int> A_S = KIT_DYNAMIC_SHARED(int), B_S = A_S + tile;
    int total = m + n, per_block = (total + (int)gridDim.x - 1) / (int)gridDim.x;
    int c_begin = min((int)blockIdx.x * per_block, total), c_end = min(c_begin + per_block, total);
    int a_begin = co_rank(c_begin, A, m, B, n), a_end = co_rank(c_end, A, m, B, n);
    int b_begin = c_begin - a_begin, a_len = a_end - a_begin, b_len = (c_end - a_end) - b_begin;
    int a_done = 0, b_done = 0, c_done = 0, c_len = c_end - c_begin;
    while (c_done < c_len) {
        int a_take = min(tile, a_len - a_done), b_take = min(tile, b_len - b_done);
        for (int i = threadIdx.x; i < a_take; i += blockDim.x)
            A_S[i] = A[a_begin + a_done + i];
        for (int i = threadIdx.x; i < b_take; i += blockDim.x)
            B_S[i] = B[b_begin + b_done + i];
        __syncthreads();
        int c_take = min(tile, c_len - c_done), share = (c_take + (int)blockDim.x - 1) / (int)blockDim.x;
        int k0 = min((int)threadIdx.x * share, c_take), k1 = min(k0 + share, c_take);
        int i0 = co_rank(k0, A_S, a_take, B_S, b_take), i1 = co_rank(k1, A_S, a_take, B_S, b_take);
        merge_sequential(A_S + i0, i1 - i0, B_S + (k0 - i0), (k1 - i1) - (k0 - i0), C + c_begin + c_done + k0);
        int a_used = co_rank(c_take, A_S, a_take, B_S, b_take);
        __syncthreads();
        a_done += a_used;
        b_done += c_take - a_used;
        c_done += c_take;
    }
}

static double run(const int *A, int m, const int *B, int n, int *C, int blocks, int threads, int tile)
{
    double t0 = kit_now_s();
    KIT_LAUNCH(tiled_merge, blocks, threads, 2 * tile * sizeof(int), A, m, B, n, C, tile);
    CUDA_CHECK_LAUNCH();
    return kit_now_s() - t0;
}

int main(void)
{
    const int m = 1 << 19, n = 1 << 19, threads = 256, tile = 1024, blocks = 128;
    int *A = (int *)kit_xmalloc(m * sizeof(int)), *B = (int *)kit_xmalloc(n * sizeof(int));
    int *C = (int *)kit_xmalloc((m + n) * sizeof(int)), *ref = (int *)kit_xmalloc((m + n) * sizeof(int));
    kit_gen_merge_input(KIT_TYPE_I32, A, m, B, n, KIT_GEN_RANDOM, 1);
    kit_merge_ref(KIT_TYPE_I32, A, m, B, n, ref);

    double plain = run(A, m, B, n, C, blocks, threads, tile);
    char msg[200];
    int ok = kit_verify(KIT_TYPE_I32, ref, C, m + n, msg, sizeof msg) < 0;
    memset(C, 0, (m + n) * sizeof(int));
    kit_cpu_trace_start();
    double traced = run(A, m, B, n, C, blocks, threads, tile);
    kit_access *acc;
    size_t accesses = kit_cpu_trace_stop(&acc);
    ok = ok && kit_verify(KIT_TYPE_I32, ref, C, m + n, msg, sizeof msg) < 0;
    kit_bank_model model = {32, 4};
    kit_bank_report r;
    double t0 = kit_now_s();
    if (kit_bank_simulate(&model, acc, accesses, &r, msg, sizeof msg) != 0) {
        fprintf(stderr, "simulation failed: %s\n", msg);
        return 1;
    }
    double sim = kit_now_s() - t0;
    printf("tiled merge of %d keys, %d blocks of %d threads, tile %d, on the CPU emulation: %s\n", m + n, blocks,
           threads, tile, ok ? "PASS" : msg);
    printf("  untraced run      %.2f s\n", plain);
    printf("  traced run        %.2f s (%zu shared accesses recorded)\n", traced, accesses);
    printf("  simulation        %.2f s: loads %llu steps, cost %llu, %llu conflicts; stores %llu steps, %llu conflicts\n",
           sim, (unsigned long long)r.load.steps, (unsigned long long)r.load.cost, (unsigned long long)r.load.conflicts,
           (unsigned long long)r.store.steps, (unsigned long long)r.store.conflicts);
    printf("  target: the merge through the CPU path under 10 s: %s\n", plain < 10.0 ? "met" : "MISSED");
    kit_bank_free(&r);
    free(acc);
    free(A);
    free(B);
    free(C);
    free(ref);
    return ok ? 0 : 1;
}
