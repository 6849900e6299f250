/*
 * GPU benchmark of labs 3 to 5 and 7 (reference solutions) against thrust::merge
 * and a device-to-device copy, in one run: int32 random sorted inputs of
 * 2^20 to 2^28 elements in all. Each kernel runs a few launch shapes and the
 * best is reported. Every output is checked against thrust's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <thrust/device_ptr.h>
#include <thrust/equal.h>
#include <thrust/merge.h>
#include <thrust/random.h>
#include <thrust/scan.h>
#include <thrust/transform.h>
#include <thrust/iterator/counting_iterator.h>

#include "bench_time.cuh"
#include "kit_cuda.h"
#include "merge_basic.cuh"
#include "merge_circular.cuh"
#include "merge_tiled.cuh"
#include "lab07.cuh" /* lab 7: cf_merge_kernel, launched by E */

/* Random gaps in [0, 8): their running sum is a sorted random list that stays below 2^31 for 2^28 keys. */
struct random_gap {
    unsigned seed;
    __host__ __device__ int operator()(unsigned i) const
    {
        thrust::default_random_engine rng(seed);
        rng.discard(i);
        return (int)(rng() % 8u);
    }
};

static void sorted_random(int *d, int count, unsigned seed)
{
    thrust::device_ptr<int> p(d);
    thrust::transform(thrust::counting_iterator<unsigned>(0), thrust::counting_iterator<unsigned>((unsigned)count), p,
                      random_gap{seed});
    thrust::inclusive_scan(p, p + count, p);
}

/* A launch shape; outputs_per_block 0 means one block per resident slot: as many blocks as the GPU runs at once. */
struct shape {
    int threads, tile, outputs_per_block;
};

template <typename K>
static int resident_blocks(K kernel, int threads, size_t shared)
{
    int per_sm = 0, device = 0, sms = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared));
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return per_sm * sms;
}

int main(int argc, char **argv)
{
    /* --shapes: also print every launch shape's time, not only the best one's. */
    int all_shapes = argc > 1 && strcmp(argv[1], "--shapes") == 0;
    if (argc > 1 && !all_shapes) {
        fprintf(stderr, "usage: %s [--shapes]\n", argv[0]);
        return 2;
    }
    char why[160];
    if (kit_gpu_count(why, sizeof why) == 0) {
        printf("merge_bench skipped: %s\n", why);
        return 0;
    }
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
    const int reps = 7;
    const shape basic_shapes[] = {{128, 0, 1024}, {256, 0, 2048}, {256, 0, 4096}};
    const shape tiled_shapes[] = {{128, 1024, 8192},   {256, 2048, 16384}, {256, 4096, 32768},
                                  {512, 4096, 65536},  {128, 2048, 32768}, {256, 2048, 65536}};
    KIT_ALLOW_SHARED(merge_tiled_kernel<int>, merge_tiled_shared_bytes<int>(4096));
    const shape circular_shapes[] = {{128, 1024, 8192},  {128, 1024, 16384}, {128, 1024, 32768}, {64, 1024, 8192},
                                     {64, 1024, 16384},  {128, 1536, 12288}, {128, 1536, 24576}, {128, 2048, 16384},
                                     {256, 2048, 16384}, {128, 1024, 0},     {512, 4096, 0}};
    KIT_ALLOW_SHARED(merge_circular_kernel<int>, merge_circular_shared_bytes<int>(8192, 1024));
    /* Lab 7's CF-Merge: tile is E, one tile of u*E outputs per block. */
    const shape cf_shapes[] = {{512, 15, 512 * 15}, {256, 17, 256 * 17}, {256, 16, 256 * 16}, {256, 12, 256 * 12},
                               {128, 15, 128 * 15}};
    printf("%-10s %-9s %12s %10s %9s %9s  %s\n", "n", "kernel", "ms", "Gkeys/s", "of copy", "x thrust", "best shape");
    for (int lg = 20; lg <= 28; lg += 2) {
        int total = 1 << lg, m = total / 2, n = total - m;
        int *d_A, *d_B, *d_C, *d_ref;
        CUDA_CHECK(cudaMalloc(&d_A, (size_t)m * 4));
        CUDA_CHECK(cudaMalloc(&d_B, (size_t)n * 4));
        CUDA_CHECK(cudaMalloc(&d_C, (size_t)total * 4));
        CUDA_CHECK(cudaMalloc(&d_ref, (size_t)total * 4));
        sorted_random(d_A, m, 1);
        sorted_random(d_B, n, 2);
        thrust::device_ptr<int> A(d_A), B(d_B), C(d_C), R(d_ref);
        float copy = bench_median_ms([&] { CUDA_CHECK(cudaMemcpy(d_C, d_ref, (size_t)total * 4, cudaMemcpyDeviceToDevice)); }, reps);
        float thr = bench_median_ms([&] { thrust::merge(A, A + m, B, B + n, R); }, reps);
        double keys = (double)total;
        printf("2^%-8d %-9s %12.3f %10.2f %8.0f%% %9.2f  %s\n", lg, "d2d copy", copy, keys / copy * 1e-6, 100.0, thr / copy,
               "cudaMemcpy of C's size");
        printf("2^%-8d %-9s %12.3f %10.2f %8.0f%% %9.2f  %s\n", lg, "thrust", thr, keys / thr * 1e-6, 100.0 * copy / thr,
               1.0, "thrust::merge");
        for (int kernel = 0; kernel < 4; kernel++) {
            const shape *shapes = kernel == 0 ? basic_shapes : kernel == 1 ? tiled_shapes : kernel == 2 ? circular_shapes : cf_shapes;
            int nshapes = kernel == 0 ? 3 : kernel == 1 ? 6 : kernel == 2 ? 11 : 5;
            float best = 1e30f;
            shape best_shape = shapes[0];
            for (int s = 0; s < nshapes; s++) {
                shape sh = shapes[s];
                int blocks = sh.outputs_per_block > 0
                                 ? (total + sh.outputs_per_block - 1) / sh.outputs_per_block
                                 : resident_blocks(merge_circular_kernel<int>, sh.threads,
                                                   merge_circular_shared_bytes<int>(sh.tile, sh.threads));
                auto launch = [&] {
                    if (kernel == 0)
                        KIT_LAUNCH(merge_basic_kernel<int>, blocks, sh.threads, 0, d_A, m, d_B, n, d_C);
                    else if (kernel == 1)
                        KIT_LAUNCH(merge_tiled_kernel<int>, blocks, sh.threads, merge_tiled_shared_bytes<int>(sh.tile),
                                   d_A, m, d_B, n, d_C, sh.tile);
                    else if (kernel == 2)
                        KIT_LAUNCH(merge_circular_kernel<int>, blocks, sh.threads,
                                   merge_circular_shared_bytes<int>(sh.tile, sh.threads), d_A, m, d_B, n, d_C, sh.tile);
                    else
                        launch_cf(KIT_TYPE_I32, d_A, m, d_B, n, d_C, kit_merge_cfg{blocks, sh.threads, sh.tile});
                    CUDA_CHECK_LAUNCH();
                };
                CUDA_CHECK(cudaMemset(d_C, 0, (size_t)total * 4));
                float ms = bench_median_ms(launch, reps);
                if (!thrust::equal(C, C + total, R)) {
                    printf("FAIL: kernel %d with %d threads, tile %d gives a wrong merge at 2^%d\n", kernel, sh.threads,
                           sh.tile, lg);
                    return 1;
                }
                if (all_shapes)
                    printf("    shape: kernel %d, %d threads, tile %d, %d outputs per block (0: one block per resident slot): %.3f ms\n",
                           kernel, sh.threads, sh.tile, sh.outputs_per_block, ms);
                if (ms < best) {
                    best = ms;
                    best_shape = sh;
                }
            }
            const char *name = kernel == 0 ? "basic" : kernel == 1 ? "tiled" : kernel == 2 ? "circular" : "cf (lab 7)";
            char desc[96];
            if (kernel == 3)
                snprintf(desc, sizeof desc, "%d threads, E = %d, a tile of %d outputs per block", best_shape.threads,
                         best_shape.tile, best_shape.outputs_per_block);
            else if (best_shape.outputs_per_block > 0)
                snprintf(desc, sizeof desc, "%d threads, tile %d, %d outputs per block", best_shape.threads,
                         best_shape.tile, best_shape.outputs_per_block);
            else
                snprintf(desc, sizeof desc, "%d threads, tile %d, one block per resident slot", best_shape.threads,
                         best_shape.tile);
            printf("2^%-8d %-9s %12.3f %10.2f %8.0f%% %9.2f  %s\n", lg, name, best, keys / best * 1e-6,
                   100.0 * copy / best, thr / best, desc);
        }
        CUDA_CHECK(cudaFree(d_A));
        CUDA_CHECK(cudaFree(d_B));
        CUDA_CHECK(cudaFree(d_C));
        CUDA_CHECK(cudaFree(d_ref));
    }
    printf("(\"of copy\": the copy's time over the kernel's; \"x thrust\": thrust's time over the kernel's; times are medians of %d)\n",
           reps);
    return 0;
}
