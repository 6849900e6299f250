/*
 * GPU benchmark of lab 9's merge sort (reference solution), both variants, against
 * cub::DeviceMergeSort::SortKeys with a custom comparator (so that CUB runs its merge sort, not
 * its radix sort), on int32 keys from 2^20 to 2^28, random and sorted. Every time is the median
 * of 7 runs of "copy the input into the work array, then sort it" (the sorts are in place), by
 * CUDA events after a warm-up; the copy alone is timed too. Every result is checked against CUB's.
 * At 2^24, 2^26 and 2^28 a line says PASS or FAIL for issue 20's target 1 (the best CF sorter
 * at least 1.00x CUB); --kv32 prints target 2's line at 2^26. A FAIL on a target does not
 * change the exit status, which says whether every sort was right.
 *
 * A second table sets lab 8's worst-case input (kit_worst_sort_input) against random input of
 * the same size, for each (E, u): the generator needs n = u*E*2^k, so the sizes are the u*E*2^k
 * nearest to 2^20 .. 2^28. CUB gets the input made for its own (17, 256). From 2^26 up, lines
 * say PASS or FAIL for target 4: CUB at least 40% slower on the worst case, each CF sorter within
 * 2% of its random time.
 *
 * sort_bench --kv32 sets the kit's variants on key-value pairs (kit_kv32: one array of 8-byte
 * pairs, value i at index i) against cub::DeviceMergeSort::SortPairs (keys and values in two
 * arrays, the same bytes), random keys at 2^24 and 2^26. The kit's output must hold CUB's keys,
 * each with a value that came with it, in increasing order among equal keys (the stable sort).
 *
 * sort_bench --once LG INPUT SORTER runs one sort once (for ncu: mk/sort-conflicts.sh), where
 * INPUT is random, sorted, worst or permutation (for the last two n is the u*E*2^k nearest to
 * 2^LG for the sorter's E and u, (17, 256) for cub, and permutation is 0 .. n-1 shuffled, the
 * worst-case table's random input) and SORTER is cub or VARIANT-E-U (for example cf-15-512).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_merge_sort.cuh>

#include "bench_time.cuh"
#include "kit_cuda.h"
#include "kit_ref.h"
#include "lab09.cuh"

struct less_i32 {
    __device__ bool operator()(int a, int b) const { return a < b; }
};

/*
 * The sorters: CUB, then the kit's variants at Thrust's (15, 512), CUB's sm_90 (17, 256), a
 * non-coprime E, and CUB's E with twice its tile, (17, 512): 8704 keys, one global round fewer
 * than (17, 256).
 */
struct sorter {
    const char *name;
    int cub;
    lab09_cfg cfg;
};
static const sorter SORTERS[] = {
    {"cub", 1, {0, 0, 0}},
    {"baseline-15-512", 0, {MS_BASELINE, 15, 512}},
    {"cf-15-512", 0, {MS_CF, 15, 512}},
    {"baseline-17-256", 0, {MS_BASELINE, 17, 256}},
    {"cf-17-256", 0, {MS_CF, 17, 256}},
    {"baseline-16-256", 0, {MS_BASELINE, 16, 256}},
    {"cf-16-256", 0, {MS_CF, 16, 256}},
    {"baseline-17-512", 0, {MS_BASELINE, 17, 512}},
    {"cf-17-512", 0, {MS_CF, 17, 512}},
};
static const int NSORTERS = (int)(sizeof SORTERS / sizeof SORTERS[0]);
static const char *const INPUTS[] = {"random", "sorted"};
static const int NINPUTS = 2;

/*
 * The local memory a thread of the sort's two tile kernels (block sort and merge) uses for T, E and
 * the variant: 0 when every register array stays in registers. A select between two elements of
 * the register merge's array once put the array in local memory and cost the CF sort a third of
 * its speed (results/2026-11-25-h100-kv32-merge/).
 */
template <typename T, int E, int V>
static size_t local_bytes()
{
    cudaFuncAttributes sort_attr, merge_attr;
    CUDA_CHECK(cudaFuncGetAttributes(&sort_attr, ms_block_sort_kernel<T, E, V>));
    CUDA_CHECK(cudaFuncGetAttributes(&merge_attr, ms_merge_kernel<T, E, V>));
    return sort_attr.localSizeBytes + merge_attr.localSizeBytes;
}

template <typename T, int E>
static size_t local_bytes_of(int variant)
{
    return variant == MS_CF ? local_bytes<T, E, MS_CF>() : local_bytes<T, E, MS_BASELINE>();
}

/* local_bytes for a sorter's (E, variant); the sorters use E = 15, 16 and 17. */
template <typename T>
static size_t local_bytes_of(lab09_cfg c)
{
    switch (c.E) {
    case 15: return local_bytes_of<T, 15>(c.variant);
    case 16: return local_bytes_of<T, 16>(c.variant);
    case 17: return local_bytes_of<T, 17>(c.variant);
    }
    return 0;
}

/* Prints a FAIL line for each of the kit's sorters whose kernels use local memory, for int32 or kv32 keys; returns 1 if one did. */
static int check_local_memory(void)
{
    int status = 0;
    for (int s = 0; s < NSORTERS; s++) {
        const lab09_cfg c = SORTERS[s].cfg;
        if (SORTERS[s].cub)
            continue;
        for (int kv = 0; kv <= 1; kv++) {
            size_t bytes = kv ? local_bytes_of<kit_kv32>(c) : local_bytes_of<int32_t>(c);
            if (bytes > 0) {
                printf("FAIL: %s on %s keeps %zu bytes a thread in local memory (a register array spilled)\n",
                       SORTERS[s].name, kv ? "kv32" : "int32", bytes);
                status = 1;
            }
        }
    }
    if (status == 0)
        printf("PASS: no local memory in the kit's sort kernels (%d sorters, int32 and kv32)\n", NSORTERS - 1);
    return status;
}

/* The (E, u) whose worst case a sorter gets: its own, or CUB's (17, 256) on sm_90. */
static lab09_cfg target_of(const sorter &s)
{
    lab09_cfg c = s.cfg;
    if (s.cub) {
        c.E = 17;
        c.u = 256;
    }
    return c;
}

/* The u*E*2^k nearest to 2^lg (at least one tile). */
static int worst_size(int lg, lab09_cfg c)
{
    long long tile = (long long)c.u * c.E, best = tile;
    for (long long n = tile; n <= (1LL << 30); n *= 2)
        if (llabs(n - (1LL << lg)) < llabs(best - (1LL << lg)))
            best = n;
    return (int)best;
}

/* Fills h[0 .. n) with the named input: uniform random int32 (a fixed seed), 0 .. n-1 in order or shuffled, or lab 8's worst case for c. */
static int make_input(const char *input, int *h, int n, lab09_cfg c)
{
    if (strcmp(input, "random") == 0) {
        kit_gen_array(KIT_TYPE_I32, h, (size_t)n, KIT_GEN_RANDOM, 1); /* uniform over int32, a fixed seed */
    } else if (strcmp(input, "sorted") == 0) {
        for (int i = 0; i < n; i++)
            h[i] = i;
    } else if (strcmp(input, "permutation") == 0) {
        kit_gen_permutation(h, (size_t)n, (uint64_t)n); /* the worst case's random counterpart: 0 .. n-1 shuffled */
    } else if (strcmp(input, "worst") == 0) {
        char err[200];
        if (kit_worst_sort_input(h, (size_t)n, 32, c.E, c.u, err, sizeof err) != 0) {
            fprintf(stderr, "sort_bench: the worst-case generator refused n=%d, E=%d, u=%d: %s\n", n, c.E, c.u, err);
            return -1;
        }
    } else {
        return -1;
    }
    return 0;
}

/* The device buffers of one size: the input, the work array, scratch for both kinds of sorter. */
struct buffers {
    int *in, *work, *tmp, *scratch;
    void *cub_temp;
    size_t cub_bytes;
};

static void run_sort(const sorter &s, buffers &b, int n)
{
    CUDA_CHECK(cudaMemcpyAsync(b.work, b.in, (size_t)n * sizeof(int), cudaMemcpyDeviceToDevice));
    if (s.cub)
        CUDA_CHECK(cub::DeviceMergeSort::SortKeys(b.cub_temp, b.cub_bytes, b.work, n, less_i32()));
    else
        lab09_sort_device<int32_t>(b.work, b.tmp, b.scratch, n, s.cfg);
}

/* The scratch ints of lab09_sort_device that serve every sorter of the table at n keys: u = 32 and
   E = 5 give more tiles and samples than any of them. */
static size_t scratch_ints_any_sorter(int n)
{
    return ms_scratch_ints(n, 32, 5);
}

static buffers alloc_buffers(int n)
{
    buffers b;
    CUDA_CHECK(cudaMalloc(&b.in, (size_t)n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&b.work, (size_t)n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&b.tmp, (size_t)n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&b.scratch, scratch_ints_any_sorter(n) * sizeof(int)));
    b.cub_bytes = 0;
    CUDA_CHECK(cub::DeviceMergeSort::SortKeys(NULL, b.cub_bytes, b.work, n, less_i32()));
    CUDA_CHECK(cudaMalloc(&b.cub_temp, b.cub_bytes + 1));
    return b;
}

static void free_buffers(buffers &b)
{
    cudaFree(b.in);
    cudaFree(b.work);
    cudaFree(b.tmp);
    cudaFree(b.scratch);
    cudaFree(b.cub_temp);
}

/* --once LG INPUT SORTER */
static int run_once(int lg, const char *input, const char *name)
{
    int which = -1;
    for (int s = 0; s < NSORTERS; s++)
        if (strcmp(SORTERS[s].name, name) == 0)
            which = s;
    if (which < 0 || lg < 13 || lg > 28) {
        fprintf(stderr, "sort_bench --once: LG is 13 .. 28, INPUT random, sorted, worst or permutation, SORTER cub or one of the "
                        "kit's (baseline-15-512, cf-15-512, baseline-17-256, cf-17-256, baseline-16-256, cf-16-256, "
                        "baseline-17-512, cf-17-512)\n");
        return 2;
    }
    lab09_cfg c = target_of(SORTERS[which]);
    int n = strcmp(input, "worst") == 0 || strcmp(input, "permutation") == 0 ? worst_size(lg, c) : 1 << lg;
    int *h = (int *)malloc((size_t)n * sizeof(int));
    if (!h || make_input(input, h, n, c) != 0) {
        fprintf(stderr, "sort_bench --once: bad INPUT '%s' (random, sorted, worst or permutation) or out of memory\n", input);
        free(h);
        return 2;
    }
    buffers b = alloc_buffers(n);
    CUDA_CHECK(cudaMemcpy(b.in, h, (size_t)n * sizeof(int), cudaMemcpyHostToDevice));
    run_sort(SORTERS[which], b, n);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    free_buffers(b);
    free(h);
    printf("sorted %d %s keys with %s\n", n, input, name);
    return 0;
}

/* Checks that the work array holds 0 .. n-1 in order (every input of the worst-case table is a permutation of them). */
static int is_identity(const int *d_work, int *h, int n)
{
    CUDA_CHECK(cudaMemcpy(h, d_work, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (h[i] != i)
            return 0;
    return 1;
}

/* The fastest CF sorter of a table, against CUB, for the table's line on issue 20's target. */
struct best_cf {
    float ratio = 0;
    const char *name = "none";
    void consider(const sorter &s, float x_cub)
    {
        if (s.cfg.variant == MS_CF && x_cub > ratio) {
            ratio = x_cub;
            name = s.name;
        }
    }
    /* The target's line: PASS when that sorter is at least 1.00x CUB. */
    void print(const char *target, const char *what) const
    {
        printf("%s: target %s (%s): %s at %.2fx\n", ratio >= 1.0f ? "PASS" : "FAIL", target, what, name, ratio);
    }
};

/* The kv32 table (--kv32): CUB's SortPairs on two arrays against the kit's sorts on one array of pairs. */
static int kv32_table(int reps)
{
    int status = 0;
    printf("%-6s %-16s %10s %9s %8s\n", "n", "sorter (kv32)", "ms", "Gpairs/s", "x cub");
    for (int lg = 24; lg <= 26; lg += 2) {
        int n = 1 << lg;
        kit_kv32 *h = (kit_kv32 *)malloc((size_t)n * sizeof *h), *got = (kit_kv32 *)malloc((size_t)n * sizeof *got);
        int *keys = (int *)malloc((size_t)n * sizeof(int)), *vals = (int *)malloc((size_t)n * sizeof(int));
        if (!h || !got || !keys || !vals) {
            fprintf(stderr, "sort_bench: out of host memory at 2^%d\n", lg);
            return 1;
        }
        kit_gen_array(KIT_TYPE_KV32, h, (size_t)n, KIT_GEN_RANDOM, 1);
        for (int i = 0; i < n; i++)
            keys[i] = h[i].key, vals[i] = h[i].value;
        kit_kv32 *d_in, *d_work, *d_tmp;
        int *d_keys_in, *d_vals_in, *d_keys, *d_vals, *d_scratch;
        void *d_cub = NULL;
        size_t cub_bytes = 0;
        CUDA_CHECK(cudaMalloc(&d_in, (size_t)n * sizeof *d_in));
        CUDA_CHECK(cudaMalloc(&d_work, (size_t)n * sizeof *d_work));
        CUDA_CHECK(cudaMalloc(&d_tmp, (size_t)n * sizeof *d_tmp));
        CUDA_CHECK(cudaMalloc(&d_scratch, scratch_ints_any_sorter(n) * sizeof(int)));
        CUDA_CHECK(cudaMalloc(&d_keys_in, (size_t)n * sizeof(int)));
        CUDA_CHECK(cudaMalloc(&d_vals_in, (size_t)n * sizeof(int)));
        CUDA_CHECK(cudaMalloc(&d_keys, (size_t)n * sizeof(int)));
        CUDA_CHECK(cudaMalloc(&d_vals, (size_t)n * sizeof(int)));
        CUDA_CHECK(cudaMemcpy(d_in, h, (size_t)n * sizeof *h, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(d_keys_in, keys, (size_t)n * sizeof(int), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(d_vals_in, vals, (size_t)n * sizeof(int), cudaMemcpyHostToDevice));
        CUDA_CHECK(cub::DeviceMergeSort::SortPairs(NULL, cub_bytes, d_keys, d_vals, n, less_i32()));
        CUDA_CHECK(cudaMalloc(&d_cub, cub_bytes + 1));
        float cub_ms = bench_median_ms(
            [&] {
                CUDA_CHECK(cudaMemcpyAsync(d_keys, d_keys_in, (size_t)n * sizeof(int), cudaMemcpyDeviceToDevice));
                CUDA_CHECK(cudaMemcpyAsync(d_vals, d_vals_in, (size_t)n * sizeof(int), cudaMemcpyDeviceToDevice));
                CUDA_CHECK(cub::DeviceMergeSort::SortPairs(d_cub, cub_bytes, d_keys, d_vals, n, less_i32()));
            },
            reps);
        CUDA_CHECK(cudaMemcpy(keys, d_keys, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost));
        printf("2^%-4d %-16s %10.3f %9.2f %8.2f\n", lg, "cub SortPairs", cub_ms, n / cub_ms * 1e-6, 1.0);
        best_cf best;
        for (int s = 0; s < NSORTERS; s++) {
            if (SORTERS[s].cub)
                continue;
            float ms = bench_median_ms(
                [&] {
                    CUDA_CHECK(cudaMemcpyAsync(d_work, d_in, (size_t)n * sizeof *d_in, cudaMemcpyDeviceToDevice));
                    lab09_sort_device<kit_kv32>(d_work, d_tmp, d_scratch, n, SORTERS[s].cfg);
                },
                reps);
            CUDA_CHECK_LAUNCH();
            CUDA_CHECK(cudaMemcpy(got, d_work, (size_t)n * sizeof *got, cudaMemcpyDeviceToHost));
            /* CUB's keys, each with a value that came with it, in increasing order among equal keys: the stable sort. */
            int bad = -1;
            for (int i = 0; i < n && bad < 0; i++)
                if (got[i].key != keys[i] || got[i].value < 0 || got[i].value >= n || h[got[i].value].key != got[i].key ||
                    (i > 0 && got[i - 1].key == got[i].key && got[i - 1].value >= got[i].value))
                    bad = i;
            if (bad >= 0) {
                printf("FAIL: %s on kv32 is not the stable sort (CUB's keys) at index %d of 2^%d\n", SORTERS[s].name, bad, lg);
                status = 1;
            }
            printf("2^%-4d %-16s %10.3f %9.2f %8.2f\n", lg, SORTERS[s].name, ms, n / ms * 1e-6, cub_ms / ms);
            best.consider(SORTERS[s], cub_ms / ms);
        }
        if (lg == 26)
            best.print("2", "a CF sort of kv32 pairs >= 1.00x cub SortPairs at 2^26, random");
        cudaFree(d_in), cudaFree(d_work), cudaFree(d_tmp), cudaFree(d_scratch), cudaFree(d_cub);
        cudaFree(d_keys_in), cudaFree(d_vals_in), cudaFree(d_keys), cudaFree(d_vals);
        free(h), free(got), free(keys), free(vals);
    }
    return status;
}

/* Issue 20's target 4, from 2^26 up (71.3M keys for CUB's (17, 256)): the worst case costs CUB at
   least 40% (the target is set for the H100), and a CF sorter stays within 2% of random. */
static void worst_target_line(const sorter &so, int lg, int n, double slowdown)
{
    if (lg < 26)
        return;
    if (so.cub)
        printf("%s: target 4 (the worst case costs cub >= 40%%): %+.1f%% at %d keys\n", slowdown >= 40.0 ? "PASS" : "FAIL",
               slowdown, n);
    else if (so.cfg.variant == MS_CF)
        printf("%s: target 4 (%s within 2%% of random on the worst case): %+.1f%% at %d keys\n",
               fabs(slowdown) <= 2.0 ? "PASS" : "FAIL", so.name, slowdown, n);
}

/* Worst case against random, at the same n, for each (E, u) the generator targets. */
static int worst_table(int reps)
{
    static const lab09_cfg targets[] = {{0, 15, 512}, {0, 17, 256}, {0, 16, 256}};
    int status = 0;
    printf("\nlab 8's worst case against random input of the same size (n = u*E*2^k nearest to 2^lg)\n");
    printf("%-10s %-9s %-16s %10s %10s %9s %12s\n", "n", "(E, u)", "sorter", "random ms", "worst ms", "slowdown",
           "worst Gk/s");
    for (int lg = 20; lg <= 28; lg += 2)
        for (int t = 0; t < 3; t++) {
            lab09_cfg c = targets[t];
            int n = worst_size(lg, c);
            buffers b = alloc_buffers(n);
            int *h = (int *)malloc((size_t)n * sizeof(int)), *worst = (int *)malloc((size_t)n * sizeof(int));
            if (!h || !worst || make_input("worst", worst, n, c) != 0) {
                free(h);
                free(worst);
                free_buffers(b);
                return 1;
            }
            for (int s = 0; s < NSORTERS; s++) {
                const sorter &so = SORTERS[s];
                if (so.cub ? !(c.E == 17 && c.u == 256) : (so.cfg.E != c.E || so.cfg.u != c.u))
                    continue;
                float ms[2];
                for (int in = 0; in < 2; in++) { /* 0: random of the same n (a permutation of 0 .. n-1), 1: worst */
                    if (in == 0)
                        make_input("permutation", h, n, c);
                    CUDA_CHECK(cudaMemcpy(b.in, in == 0 ? h : worst, (size_t)n * sizeof(int), cudaMemcpyHostToDevice));
                    ms[in] = bench_median_ms([&] { run_sort(so, b, n); }, reps);
                    CUDA_CHECK_LAUNCH();
                    if (!is_identity(b.work, h, n)) {
                        printf("FAIL: %s does not sort the %s permutation of %d keys\n", so.name, in ? "worst-case" : "random", n);
                        status = 1;
                    }
                }
                char ecu[16];
                snprintf(ecu, sizeof ecu, "(%d, %d)", c.E, c.u);
                double slowdown = 100.0 * (ms[1] / ms[0] - 1.0);
                printf("%-10d %-9s %-16s %10.3f %10.3f %8.1f%% %12.2f\n", n, ecu, so.name, ms[0], ms[1], slowdown,
                       n / ms[1] * 1e-6);
                worst_target_line(so, lg, n, slowdown);
            }
            free(h);
            free(worst);
            free_buffers(b);
        }
    return status;
}

int main(int argc, char **argv)
{
    cudaDeviceProp prop;
    if (argc == 5 && strcmp(argv[1], "--once") == 0)
        return bench_gpu("sort_bench", &prop) ? run_once(atoi(argv[2]), argv[3], argv[4]) : 0;
    /* --quick: random input at 2^24, 2^26 and 2^28 only (target 1's sizes), for tuning. */
    int quick = argc == 2 && strcmp(argv[1], "--quick") == 0, kv32 = argc == 2 && strcmp(argv[1], "--kv32") == 0;
    if (argc != 1 && !quick && !kv32) {
        fprintf(stderr, "usage: %s [--quick | --kv32 | --once LG INPUT SORTER]\n", argv[0]);
        return 2;
    }
    if (!bench_gpu("sort_bench", &prop))
        return 0;
    printf("device: %s, %d SMs; times are medians of 7, copy included\n", prop.name, prop.multiProcessorCount);
    const int reps = 7;
    int local = check_local_memory();
    if (kv32)
        return kv32_table(reps) | local;
    printf("%-6s %-7s %-16s %10s %9s %8s\n", "n", "input", "sorter", "ms", "Gkeys/s", "x cub");
    int status = 0;
    for (int lg = quick ? 24 : 20; lg <= 28; lg += 2) {
        int n = 1 << lg;
        buffers b = alloc_buffers(n);
        int *h = (int *)malloc((size_t)n * sizeof(int)), *ref = (int *)malloc((size_t)n * sizeof(int)),
            *got = (int *)malloc((size_t)n * sizeof(int));
        if (!h || !ref || !got) {
            fprintf(stderr, "sort_bench: out of host memory at 2^%d\n", lg);
            return 1;
        }
        for (int in = 0; in < (quick ? 1 : NINPUTS); in++) {
            make_input(INPUTS[in], h, n, SORTERS[0].cfg);
            CUDA_CHECK(cudaMemcpy(b.in, h, (size_t)n * sizeof(int), cudaMemcpyHostToDevice));
            float copy = bench_median_ms(
                [&] { CUDA_CHECK(cudaMemcpyAsync(b.work, b.in, (size_t)n * sizeof(int), cudaMemcpyDeviceToDevice)); }, reps);
            printf("2^%-4d %-7s %-16s %10.3f %9.2f %8s\n", lg, INPUTS[in], "copy alone", copy, n / copy * 1e-6, "");
            float cub_ms = 0;
            best_cf best;
            for (int s = 0; s < NSORTERS; s++) {
                float ms = bench_median_ms([&] { run_sort(SORTERS[s], b, n); }, reps);
                CUDA_CHECK_LAUNCH();
                CUDA_CHECK(cudaMemcpy(got, b.work, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost));
                if (s == 0) {
                    cub_ms = ms;
                    memcpy(ref, got, (size_t)n * sizeof(int));
                    for (int i = 1; i < n; i++)
                        if (ref[i - 1] > ref[i]) {
                            printf("FAIL: cub's output is not sorted at %d\n", i);
                            status = 1;
                            break;
                        }
                } else if (memcmp(ref, got, (size_t)n * sizeof(int)) != 0) {
                    printf("FAIL: %s gives a different result from cub at 2^%d (%s)\n", SORTERS[s].name, lg, INPUTS[in]);
                    status = 1;
                }
                printf("2^%-4d %-7s %-16s %10.3f %9.2f %8.2f\n", lg, INPUTS[in], SORTERS[s].name, ms, n / ms * 1e-6,
                       cub_ms / ms);
                best.consider(SORTERS[s], cub_ms / ms);
            }
            if (in == 0 && lg >= 24) {
                char what[80];
                snprintf(what, sizeof what, "a CF sort >= 1.00x cub at 2^%d, random int32", lg);
                best.print("1", what);
            }
        }
        free(h);
        free(ref);
        free(got);
        free_buffers(b);
    }
    if (!quick && worst_table(reps) != 0)
        status = 1;
    return status | local;
}
