/*
 * GPU benchmark of lab 6 (reference solution): PBS, PBS-CF and PBS-CL on 2^28 queries, 4- and
 * 8-byte keys, K = 512 .. 8192, random keys and worst-case queries, beside a read/increment/write
 * kernel that only moves the queries (the global-memory bound, as in Table I of the paper).
 * Every answer of every run is checked on the GPU against a plain binary search. Worst-case queries
 * come from the instructor's kit_pbs_gen_queries_any (grader/ref/kit_ref.h), which takes every K.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_time.cuh"
#include "kit_ref.h"
#include "lab06.cuh"

#define QUERIES (1LL << 28)
#define PATTERN (1 << 20) /* generated queries, repeated to fill QUERIES */

/* Repeats the host-generated pattern over the whole query array. */
template <typename T>
__global__ void tile_queries(const T *pattern, T *queries, long long Q)
{
    for (long long x = (long long)blockIdx.x * blockDim.x + threadIdx.x; x < Q; x += (long long)gridDim.x * blockDim.x)
        queries[x] = pattern[x % PATTERN];
}

/* The baseline: read each query, add one, write it (as an int, the size of an answer). */
template <typename T>
__global__ void read_increment_write(const T *queries, long long Q, int *out)
{
    for (long long x = (long long)blockIdx.x * blockDim.x + threadIdx.x; x < Q; x += (long long)gridDim.x * blockDim.x)
        out[x] = (int)queries[x] + 1;
}

/* Counts wrong answers: each is compared with a binary search of the keys in global memory. */
template <typename T>
__global__ void count_wrong(const T *keys, int K, const T *queries, long long Q, const int *out, unsigned long long *wrong)
{
    for (long long x = (long long)blockIdx.x * blockDim.x + threadIdx.x; x < Q; x += (long long)gridDim.x * blockDim.x) {
        int lo = 0, hi = K;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (keys[mid] <= queries[x])
                lo = mid + 1;
            else
                hi = mid;
        }
        if (out[x] != lo - 1)
            atomicAdd(wrong, 1ULL);
    }
}

template <typename T>
static int bench_type(kit_type type, T lo, T hi, int sms)
{
    const int reps = 5, threads = 1024;
    T *d_keys, *d_pattern, *d_q;
    int *d_out;
    unsigned long long *d_wrong;
    CUDA_CHECK(cudaMalloc(&d_keys, 8192 * sizeof(T)));
    CUDA_CHECK(cudaMalloc(&d_pattern, PATTERN * sizeof(T)));
    CUDA_CHECK(cudaMalloc(&d_q, QUERIES * sizeof(T)));
    CUDA_CHECK(cudaMalloc(&d_out, QUERIES * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_wrong, sizeof *d_wrong));
    T *keys = (T *)kit_xmalloc(8192 * sizeof(T)), *pattern = (T *)kit_xmalloc(PATTERN * sizeof(T));
    int status = 0;
    {
        KIT_LAUNCH(tile_queries<T>, 4 * sms, 1024, 0, d_pattern, d_q, QUERIES); /* any queries will do for the baseline */
        CUDA_CHECK_LAUNCH();
        kit_gpu_timer timer;
        float best = 1e30f;
        for (int r = 0; r < reps; r++) {
            kit_gpu_timer_start(&timer);
            KIT_LAUNCH(read_increment_write<T>, 4 * sms, 1024, 0, d_q, QUERIES, d_out);
            CUDA_CHECK_LAUNCH();
            float ms = kit_gpu_timer_stop_ms(&timer);
            best = ms < best ? ms : best;
        }
        double gb = (double)QUERIES * (sizeof(T) + sizeof(int)) * 1e-9;
        printf("%-4s %-5s %-6s %-9s %10.3f ms %8.2f Gq/s %8.1f GB/s   (read/increment/write baseline, best of %d)\n",
               kit_type_name(type), "-", "-", "baseline", best, QUERIES / best * 1e-6, gb / best * 1e3, reps);
    }
    for (int K = 512; K <= 8192 && status == 0; K *= 2) {
        for (int i = 0; i < K; i++)
            keys[i] = (T)(3 * (long long)i);
        CUDA_CHECK(cudaMemcpy(d_keys, keys, K * sizeof(T), cudaMemcpyHostToDevice));
        for (int kind = KIT_PBS_KEYS; kind <= KIT_PBS_WORST && status == 0; kind += KIT_PBS_WORST - KIT_PBS_KEYS) {
            if (kit_pbs_gen_queries_any(type, keys, (size_t)K, (kit_pbs_queries)kind, 1, pattern, PATTERN) != 0) {
                printf("FAIL: the query generator refused K = %d, %s queries\n", K, kit_pbs_queries_name((kit_pbs_queries)kind));
                status = 1;
                break;
            }
            CUDA_CHECK(cudaMemcpy(d_pattern, pattern, PATTERN * sizeof(T), cudaMemcpyHostToDevice));
            KIT_LAUNCH(tile_queries<T>, 4 * sms, 1024, 0, d_pattern, d_q, QUERIES);
            CUDA_CHECK_LAUNCH();
            float plain = 0;
            for (int alg = PBS_PLAIN; alg <= PBS_CL && status == 0; alg++) {
                size_t bytes = pbs_shared_bytes<T>(K, threads);
                KIT_ALLOW_SHARED(pbs_kernel<T>, bytes);
                int per_sm = 0;
                CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, pbs_kernel<T>, threads, bytes));
                lab06_cfg cfg = {alg, per_sm * sms, threads};
                float ms = bench_median_ms([&] {
                    KIT_LAUNCH(pbs_kernel<T>, cfg.blocks, cfg.threads, bytes, d_keys, K, d_q, QUERIES, d_out, cfg.alg,
                               lo, hi);
                    CUDA_CHECK_LAUNCH();
                }, reps);
                CUDA_CHECK(cudaMemset(d_wrong, 0, sizeof *d_wrong));
                KIT_LAUNCH(count_wrong<T>, 4 * sms, 256, 0, d_keys, K, d_q, QUERIES, d_out, d_wrong);
                CUDA_CHECK_LAUNCH();
                unsigned long long wrong = 0;
                CUDA_CHECK(cudaMemcpy(&wrong, d_wrong, sizeof wrong, cudaMemcpyDeviceToHost));
                if (wrong) {
                    printf("FAIL: %s K=%d %s queries: %llu wrong answers\n", lab06_alg_name(alg), K,
                           kit_pbs_queries_name((kit_pbs_queries)kind), wrong);
                    status = 1;
                }
                if (alg == PBS_PLAIN)
                    plain = ms;
                printf("%-4s %-5d %-6s %-9s %10.3f ms %8.2f Gq/s   %5.2fx PBS   (%d blocks of %d)\n", kit_type_name(type),
                       K, kit_pbs_queries_name((kit_pbs_queries)kind), lab06_alg_name(alg), ms, QUERIES / ms * 1e-6,
                       plain / ms, cfg.blocks, threads);
            }
        }
    }
    cudaFree(d_keys);
    cudaFree(d_pattern);
    cudaFree(d_q);
    cudaFree(d_out);
    cudaFree(d_wrong);
    free(keys);
    free(pattern);
    return status;
}

int main(void)
{
    cudaDeviceProp prop;
    if (!bench_gpu("pbs_bench", &prop))
        return 0;
    printf("device: %s, %d SMs; %lld queries per run, median of 5 after a warm-up\n", prop.name,
           prop.multiProcessorCount, QUERIES);
    printf("%-4s %-5s %-6s %-9s %13s %13s\n", "type", "K", "query", "search", "time", "throughput");
    int status = bench_type<int32_t>(KIT_TYPE_I32, INT32_MIN, INT32_MAX, prop.multiProcessorCount);
    if (status == 0)
        status = bench_type<int64_t>(KIT_TYPE_I64, INT64_MIN, INT64_MAX, prop.multiProcessorCount);
    printf("(\"x PBS\": PBS's time over this search's, same keys and queries)\n");
    return status;
}
