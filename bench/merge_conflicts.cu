/*
 * Bank conflicts of the tiled and circular-buffer merge kernels (reference
 * solutions of labs 4 and 5), counted two ways on the same launches: built for
 * the GPU it runs them for Nsight Compute; built for the CPU it traces them
 * through the simulator and, with --compare, checks the two against each other.
 */
#include <stdlib.h>
#include <string.h>

#include "kit.h"
#include "kit_bank.h"
#include "kit_ref.h"
#include "kit_cuda.h"
#include "bench_conflicts.cuh"
#include "kit_ncu.h"
#include "lab05.cuh" /* lab 5: the kernel and its layout helpers */
#include "lab04.cuh" /* lab 4: the kernel and its shared size */

typedef struct launch {
    const char *name;
    int circular, m, n, blocks, threads, tile;
    kit_gen gen;
} launch;

static const launch LAUNCHES[] = {
    {"tiled, random keys, 16384 + 16384, 8 blocks of 128, tile 1024", 0, 16384, 16384, 8, 128, 1024, KIT_GEN_RANDOM},
    {"circular, random keys, same launch", 1, 16384, 16384, 8, 128, 1024, KIT_GEN_RANDOM},
    {"tiled, a-below-b, same launch", 0, 16384, 16384, 8, 128, 1024, KIT_GEN_A_BELOW_B},
    {"circular, a-below-b, same launch", 1, 16384, 16384, 8, 128, 1024, KIT_GEN_A_BELOW_B},
    {"tiled, interleaved, same launch", 0, 16384, 16384, 8, 128, 1024, KIT_GEN_INTERLEAVED},
    {"circular, interleaved, same launch", 1, 16384, 16384, 8, 128, 1024, KIT_GEN_INTERLEAVED},
};
#define NLAUNCHES (int)(sizeof LAUNCHES / sizeof LAUNCHES[0])

/* Runs launch i and checks its merge against the reference. */
static void run(int i)
{
    const launch *l = &LAUNCHES[i];
    int *h_A = (int *)kit_xmalloc(l->m * sizeof(int)), *h_B = (int *)kit_xmalloc(l->n * sizeof(int));
    kit_gen_merge_input(KIT_TYPE_I32, h_A, l->m, h_B, l->n, l->gen, 1);
    int *d_A = (int *)kit_device_copy(h_A, l->m * sizeof(int)), *d_B = (int *)kit_device_copy(h_B, l->n * sizeof(int));
    int *d_C;
    CUDA_CHECK(cudaMalloc(&d_C, (l->m + l->n) * sizeof(int)));
    if (l->circular)
        KIT_LAUNCH(merge_circular_kernel<int>, l->blocks, l->threads, merge_circular_shared_bytes<int>(l->tile, l->threads), d_A,
                   l->m, d_B, l->n, d_C, l->tile);
    else
        KIT_LAUNCH(merge_tiled_kernel<int>, l->blocks, l->threads, merge_tiled_shared_bytes<int>(l->tile), d_A, l->m,
                   d_B, l->n, d_C, l->tile);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    int *h_C = (int *)kit_xmalloc((l->m + l->n) * sizeof(int)), *ref = (int *)kit_xmalloc((l->m + l->n) * sizeof(int));
    CUDA_CHECK(cudaMemcpy(h_C, d_C, (l->m + l->n) * sizeof(int), cudaMemcpyDeviceToHost));
    kit_merge_ref(KIT_TYPE_I32, h_A, l->m, h_B, l->n, ref);
    char msg[200];
    if (kit_verify(KIT_TYPE_I32, ref, h_C, l->m + l->n, msg, sizeof msg) >= 0) {
        fprintf(stderr, "%s: wrong merge at %s\n", l->name, msg);
        exit(1);
    }
    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
    free(h_A);
    free(h_B);
    free(h_C);
    free(ref);
}

int main(int argc, char **argv)
{
    const char *names[NLAUNCHES];
    for (int i = 0; i < NLAUNCHES; i++)
        names[i] = LAUNCHES[i].name;
    return bench_conflicts_main(argc, argv, NLAUNCHES, names, run);
}
