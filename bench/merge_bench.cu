/*
 * GPU benchmark of labs 3 to 5 and 7 (reference solutions) against thrust::merge
 * and a device-to-device copy, in one run: int32 random sorted inputs of
 * 2^20 to 2^28 elements in all. Each kernel runs a few launch shapes and the
 * best is reported. Every output is checked against thrust's. From 2^22 a line says PASS or FAIL
 * for issue 20's target 3 (the circular merge at least as fast as thrust); the exit status says
 * only whether every merge was right. merge_bench --profile LG SHAPE runs thrust::merge and the
 * circular kernel once each, for ncu.
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
#include "lab05.cuh" /* lab 5: the kernel and its layout helpers */
#include "lab04.cuh" /* lab 4: the kernel and its shared size */
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

static const shape BASIC_SHAPES[] = {{128, 0, 1024}, {256, 0, 2048}, {256, 0, 4096}};
static const shape TILED_SHAPES[] = {{128, 1024, 8192},  {256, 2048, 16384}, {256, 4096, 32768},
                                     {512, 4096, 65536}, {128, 2048, 32768}, {256, 2048, 65536}};
static const shape CIRCULAR_SHAPES[] = {{128, 1024, 8192},  {128, 1024, 16384}, {128, 1024, 32768}, {64, 1024, 8192},
                                        {64, 1024, 16384},  {128, 1536, 12288}, {128, 1536, 24576}, {128, 2048, 16384},
                                        {256, 2048, 16384}, {128, 1024, 0},     {512, 4096, 0}};
/* Lab 7's CF-Merge: tile is E, one tile of u*E outputs per block. */
static const shape CF_SHAPES[] = {{512, 15, 512 * 15}, {256, 17, 256 * 17}, {256, 16, 256 * 16}, {256, 12, 256 * 12},
                                  {128, 15, 128 * 15}};

/* The kernels compared, in this order: kernel k of the output is KERNELS[k]. */
enum { BASIC, TILED, CIRCULAR, CF, NKERNELS };
static const struct {
    const char *name;
    const shape *shapes;
    int nshapes;
} KERNELS[NKERNELS] = {{"basic", BASIC_SHAPES, 3}, {"tiled", TILED_SHAPES, 6}, {"circular", CIRCULAR_SHAPES, 11},
                       {"cf (lab 7)", CF_SHAPES, 5}};

/* The device arrays of one size: sorted A and B, C for the kernels, ref for thrust's merge. */
struct buffers {
    int m, n, total;
    int *d_A, *d_B, *d_C, *d_ref;
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

/* The blocks of shape sh for `total` outputs. */
static int blocks_of(shape sh, int total)
{
    return sh.outputs_per_block > 0 ? (total + sh.outputs_per_block - 1) / sh.outputs_per_block
                                    : resident_blocks(merge_circular_kernel<int>, sh.threads,
                                                      merge_circular_shared_bytes<int>(sh.tile, sh.threads));
}

/* Launches kernel k on b, `blocks` blocks of shape sh; checks the launch. */
static void launch_kernel(int k, const buffers &b, int blocks, shape sh)
{
    if (k == BASIC)
        KIT_LAUNCH(merge_basic_kernel<int>, blocks, sh.threads, 0, b.d_A, b.m, b.d_B, b.n, b.d_C);
    else if (k == TILED)
        KIT_LAUNCH(merge_tiled_kernel<int>, blocks, sh.threads, merge_tiled_shared_bytes<int>(sh.tile), b.d_A, b.m,
                   b.d_B, b.n, b.d_C, sh.tile);
    else if (k == CIRCULAR)
        KIT_LAUNCH(merge_circular_kernel<int>, blocks, sh.threads, merge_circular_shared_bytes<int>(sh.tile, sh.threads),
                   b.d_A, b.m, b.d_B, b.n, b.d_C, sh.tile);
    else
        launch_cf(KIT_TYPE_I32, b.d_A, b.m, b.d_B, b.n, b.d_C, kit_merge_cfg{blocks, sh.threads, sh.tile});
    CUDA_CHECK_LAUNCH();
}

/* What the best shape of kernel k was, for the last column. */
static void describe_shape(int k, shape sh, char *desc, size_t len)
{
    if (k == CF)
        snprintf(desc, len, "%d threads, E = %d, a tile of %d outputs per block", sh.threads, sh.tile,
                 sh.outputs_per_block);
    else if (sh.outputs_per_block > 0)
        snprintf(desc, len, "%d threads, tile %d, %d outputs per block", sh.threads, sh.tile, sh.outputs_per_block);
    else
        snprintf(desc, len, "%d threads, tile %d, one block per resident slot", sh.threads, sh.tile);
}

/* One row of the table: n, what ran, its time, its throughput, and its time against the copy's and thrust's. */
static void print_row(int lg, const char *name, float ms, float copy, float thr, const char *desc)
{
    printf("2^%-8d %-9s %12.3f %10.2f %8.0f%% %9.2f  %s\n", lg, name, ms, (double)(1 << lg) / ms * 1e-6,
           100.0 * copy / ms, thr / ms, desc);
}

/*
 * Times kernel k in each of its shapes on b (medians of reps runs) and prints the best shape's row,
 * and with all_shapes every shape's time. Returns 0, or 1 after a FAIL line when a shape's merge
 * differs from thrust's.
 */
static int bench_kernel(int k, const buffers &b, int lg, int reps, int all_shapes, float copy, float thr)
{
    thrust::device_ptr<int> C(b.d_C), R(b.d_ref);
    float best = 1e30f;
    shape best_shape = KERNELS[k].shapes[0];
    for (int s = 0; s < KERNELS[k].nshapes; s++) {
        shape sh = KERNELS[k].shapes[s];
        int blocks = blocks_of(sh, b.total);
        CUDA_CHECK(cudaMemset(b.d_C, 0, (size_t)b.total * 4));
        float ms = bench_median_ms([&] { launch_kernel(k, b, blocks, sh); }, reps);
        if (!thrust::equal(C, C + b.total, R)) {
            printf("FAIL: kernel %d with %d threads, tile %d gives a wrong merge at 2^%d\n", k, sh.threads, sh.tile, lg);
            return 1;
        }
        if (all_shapes)
            printf("    shape: kernel %d, %d threads, tile %d, %d outputs per block (0: one block per resident slot): %.3f ms\n",
                   k, sh.threads, sh.tile, sh.outputs_per_block, ms);
        if (ms < best) {
            best = ms;
            best_shape = sh;
        }
    }
    char desc[96];
    describe_shape(k, best_shape, desc, sizeof desc);
    print_row(lg, KERNELS[k].name, best, copy, thr, desc);
    if (k == CIRCULAR && lg >= 22) /* issue 20's target 3; a FAIL here does not change the exit status */
        printf("%s: target 3 (the circular merge >= 1.00x thrust at 2^%d): %.2fx, at %.0f%% of the copy's bandwidth "
               "(thrust: %.0f%%)\n",
               thr / best >= 1.0f ? "PASS" : "FAIL", lg, thr / best, 100.0 * copy / best, 100.0 * copy / thr);
    return 0;
}

/* The buffers of size 2^lg: A and B sorted random halves, thrust's merge not yet in ref. */
static buffers make_buffers(int lg)
{
    buffers b;
    b.total = 1 << lg, b.m = b.total / 2, b.n = b.total - b.m;
    CUDA_CHECK(cudaMalloc(&b.d_A, (size_t)b.m * 4));
    CUDA_CHECK(cudaMalloc(&b.d_B, (size_t)b.n * 4));
    CUDA_CHECK(cudaMalloc(&b.d_C, (size_t)b.total * 4));
    CUDA_CHECK(cudaMalloc(&b.d_ref, (size_t)b.total * 4));
    sorted_random(b.d_A, b.m, 1);
    sorted_random(b.d_B, b.n, 2);
    return b;
}

static void free_buffers(buffers &b)
{
    CUDA_CHECK(cudaFree(b.d_A));
    CUDA_CHECK(cudaFree(b.d_B));
    CUDA_CHECK(cudaFree(b.d_C));
    CUDA_CHECK(cudaFree(b.d_ref));
}

/* Every row of size 2^lg: the copy, thrust, then each kernel. Returns 0, or 1 when a kernel's merge is wrong. */
static int bench_size(int lg, int reps, int all_shapes)
{
    buffers b = make_buffers(lg);
    thrust::device_ptr<int> A(b.d_A), B(b.d_B), R(b.d_ref);
    float copy = bench_median_ms(
        [&] { CUDA_CHECK(cudaMemcpy(b.d_C, b.d_ref, (size_t)b.total * 4, cudaMemcpyDeviceToDevice)); }, reps);
    float thr = bench_median_ms([&] { thrust::merge(A, A + b.m, B, B + b.n, R); }, reps);
    print_row(lg, "d2d copy", copy, copy, thr, "cudaMemcpy of C's size");
    print_row(lg, "thrust", thr, copy, thr, "thrust::merge");
    for (int k = 0; k < NKERNELS; k++)
        if (bench_kernel(k, b, lg, reps, all_shapes, copy, thr) != 0)
            return 1;
    free_buffers(b);
    return 0;
}

/*
 * --profile LG SHAPE: thrust::merge once, then the circular kernel once in its shape s, for ncu
 * to set the two side by side (as in results/2026-11-25-h100-h200-issue20-targets/, runs 1 and
 * 2). Returns 1 after a FAIL line if their outputs differ.
 */
static int profile_once(int lg, int s)
{
    buffers b = make_buffers(lg);
    thrust::device_ptr<int> A(b.d_A), B(b.d_B), C(b.d_C), R(b.d_ref);
    thrust::merge(A, A + b.m, B, B + b.n, R);
    shape sh = CIRCULAR_SHAPES[s];
    launch_kernel(CIRCULAR, b, blocks_of(sh, b.total), sh);
    int same = thrust::equal(C, C + b.total, R);
    if (!same)
        printf("FAIL: the circular kernel (%d threads, tile %d) gives a wrong merge at 2^%d\n", sh.threads, sh.tile, lg);
    free_buffers(b);
    return same ? 0 : 1;
}

int main(int argc, char **argv)
{
    /* --shapes: also print every launch shape's time, not only the best one's. */
    int all_shapes = argc == 2 && strcmp(argv[1], "--shapes") == 0;
    int profile = argc == 4 && strcmp(argv[1], "--profile") == 0;
    int lg = profile ? atoi(argv[2]) : 0, s = profile ? atoi(argv[3]) : 0;
    if ((argc > 1 && !all_shapes && !profile) || (profile && (lg < 10 || lg > 28 || s < 0 || s >= KERNELS[CIRCULAR].nshapes))) {
        fprintf(stderr, "usage: %s [--shapes | --profile LG SHAPE] (LG 10 .. 28; SHAPE a circular shape, 0 .. %d)\n", argv[0],
                KERNELS[CIRCULAR].nshapes - 1);
        return 2;
    }
    cudaDeviceProp prop;
    if (!bench_gpu("merge_bench", &prop))
        return 0;
    KIT_ALLOW_SHARED(merge_circular_kernel<int>, merge_circular_shared_bytes<int>(8192, 1024));
    if (profile)
        return profile_once(lg, s);
    printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
    const int reps = 7;
    KIT_ALLOW_SHARED(merge_tiled_kernel<int>, merge_tiled_shared_bytes<int>(4096));
    printf("%-10s %-9s %12s %10s %9s %9s  %s\n", "n", "kernel", "ms", "Gkeys/s", "of copy", "x thrust", "best shape");
    for (lg = 20; lg <= 28; lg += 2)
        if (bench_size(lg, reps, all_shapes) != 0)
            return 1;
    printf("(\"of copy\": the copy's time over the kernel's; \"x thrust\": thrust's time over the kernel's; times are medians of %d)\n",
           reps);
    return 0;
}
