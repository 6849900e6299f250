/*
 * Benchmark of the CPU execution path: a tiled merge of 2^20 int32 keys with
 * 256-thread blocks, run on the kit's CPU emulation with and without tracing,
 * then the trace through the simulator. The kernel is lab 4's reference
 * solution, so the benchmark lives outside common/ and is not shipped to students.
 */
#include <stdlib.h>
#include <string.h>

#include "kit.h"
#include "kit_bank.h"
#include "kit_ref.h"
#include "kit_cuda.h"
#include "lab04.cuh" /* lab 4: the kernel and its shared size */

static double run(const int *A, int m, const int *B, int n, int *C, int blocks, int threads, int tile)
{
    double t0 = kit_now_s();
    KIT_LAUNCH(merge_tiled_kernel<int>, blocks, threads, merge_tiled_shared_bytes<int>(tile), A, m, B, n, C, tile);
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
