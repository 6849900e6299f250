/* Lab 2 public tests: your co_rank against brute force, the chapter's examples, the split property and the pass bound. */
#include <string.h>

#include "kit_counted.h"
#include "kit_cuda.h"
#include "kit_test_gpu.h"
#include "lab02.cuh"

/* The chapter's running example (Figs. 12.1 to 12.8). */
static const int32_t EX_A[] = {1, 7, 8, 9, 10}, EX_B[] = {7, 10, 10, 12};

/* Runs co_rank once and fails the test, with a message, if it is a skeleton or returns the wrong i. */
/* want >= 0: co_rank must return it; want < 0: whatever it returns must satisfy co-rank's definition. */
static int expect_co_rank(kit_type t, int k, const void *A, int m, const void *B, int n, int want, const char *what)
{
    int passes = 0;
    kit_not_implemented_reset();
    int i = co_rank_any(t, k, A, m, B, n, &passes);
    if (kit_not_implemented_task()) {
        kit_test_fail(__FILE__, __LINE__, "not implemented: %s", kit_not_implemented_task());
        return 0;
    }
    if (want >= 0 && i != want) {
        kit_test_fail(__FILE__, __LINE__, "%s: co_rank(k=%d, m=%d, n=%d) returned i=%d, expected %d", what, k, m, n,
                      i, want);
        return 0;
    }
    if (want < 0 && !kit_check_co_rank(t, A, (size_t)m, B, (size_t)n, k, i)) {
        kit_test_fail(__FILE__, __LINE__, "%s: co_rank(k=%d, m=%d, n=%d) returned i=%d, which breaks A[i-1] <= B[j] or B[j-1] < A[i]",
                      what, k, m, n, i);
        return 0;
    }
    return 1;
}

static void test_chapter_all_ranks(void)
{
    /* Hand-checked: C = (1,7a,7b,8,9,10a,10b,10b,12), so i counts the A elements among C[0..k-1]. */
    const int want[10] = {0, 1, 2, 2, 3, 4, 5, 5, 5, 5};
    for (int k = 0; k <= 9; k++)
        if (!expect_co_rank(KIT_TYPE_I32, k, EX_A, 5, EX_B, 4, want[k], "chapter example"))
            return;
    CU_PASS("all ten ranks of the chapter example");
}

static void test_chapter_traces(void)
{
    /* Fig. 12.4: thread 1 starts at k = 4 with (i, j) = (3, 1) and ends at k = 9 with (5, 4). */
    expect_co_rank(KIT_TYPE_I32, 4, EX_A, 5, EX_B, 4, 3, "Fig. 12.4, k = 4");
    expect_co_rank(KIT_TYPE_I32, 9, EX_A, 5, EX_B, 4, 5, "Fig. 12.4, k = 9");
    /* Figs. 12.6 to 12.8: k = 3 gives (2, 1) in three passes of the textbook's search. */
    int passes = 0;
    kit_not_implemented_reset();
    int i = co_rank(3, EX_A, 5, EX_B, 4, &passes);
    KIT_ASSERT_MSG(!kit_not_implemented_task(), "not implemented: %s", kit_not_implemented_task());
    KIT_ASSERT_MSG(i == 2, "co_rank(3) on the chapter example returned %d, expected 2", i);
    KIT_ASSERT_MSG(passes >= 1 && passes <= kit_co_rank_pass_bound(5, 4),
                   "co_rank(3) reported %d passes; the bound for m=5, n=4 is %d", passes, kit_co_rank_pass_bound(5, 4));
}

static void test_chapter_exercises(void)
{
    /* Exercise 1: the co-ranks of C[8] are i = 5, j = 3. */
    expect_co_rank(KIT_TYPE_I32, 8, EX_A, 5, EX_B, 4, 5, "exercise 1 (k = 8)");
    /* Exercise 2: thread 2 of Fig. 12.6 makes C[6..8]: it starts at (5, 1) and ends at (5, 4). */
    expect_co_rank(KIT_TYPE_I32, 6, EX_A, 5, EX_B, 4, 5, "exercise 2 (k = 6)");
    expect_co_rank(KIT_TYPE_I32, 9, EX_A, 5, EX_B, 4, 5, "exercise 2 (k = 9)");
}

/* Fills out[] with the sorted array number `index` of length len over keys 0..2, and says whether it exists. */
static int nth_small_sorted(int index, int len, int32_t *out)
{
    /* A sorted array over {0, 1, 2} is fixed by how many 0s (a) and 1s (b) it holds. */
    for (int a = 0; a <= len; a++)
        for (int b = 0; a + b <= len; b++)
            if (index-- == 0) {
                for (int x = 0; x < len; x++)
                    out[x] = x < a ? 0 : x < a + b ? 1 : 2;
                return 1;
            }
    return 0;
}

static void test_exhaustive_small(void)
{
    int32_t A[6], B[6];
    long cases = 0;
    for (int m = 0; m <= 6; m++)
        for (int n = 0; n <= 6; n++)
            for (int ia = 0; nth_small_sorted(ia, m, A); ia++)
                for (int ib = 0; nth_small_sorted(ib, n, B); ib++)
                    for (int k = 0; k <= m + n; k++, cases++) {
                        if (!expect_co_rank(KIT_TYPE_I32, k, A, m, B, n, -1, "exhaustive keys 0..2"))
                            return;
                    }
    KIT_ASSERT_MSG(cases > 40000, "only %ld cases ran", cases);
}

/* Equal keys: A wins every tie, so the first k elements take all of A they can. */
static void test_tie_rule(void)
{
    const int32_t five[] = {5, 5, 5, 5, 5};
    for (int k = 0; k <= 7; k++)
        expect_co_rank(KIT_TYPE_I32, k, five, 2, five, 5, k < 2 ? k : 2, "A = (5,5), B = (5,5,5,5,5)");
    /* B's key equal to A's last key goes after it: A = (1, 3), B = (3, 4), k = 2 gives i = 2. */
    const int32_t A[] = {1, 3}, B[] = {3, 4};
    expect_co_rank(KIT_TYPE_I32, 2, A, 2, B, 2, 2, "tie between A[1] and B[0]");
}

static void test_types(void)
{
    const int64_t A[] = {(int64_t)1 << 40, (int64_t)3 << 40}, B[] = {(int64_t)2 << 40};
    expect_co_rank(KIT_TYPE_I64, 1, A, 2, B, 1, 1, "i64 keys above 2^32");
    expect_co_rank(KIT_TYPE_I64, 2, A, 2, B, 1, 1, "i64 keys above 2^32");
    const kit_kv32 P[] = {{4, 0}, {4, 1}}, Q[] = {{4, -1}};
    expect_co_rank(KIT_TYPE_KV32, 2, P, 2, Q, 1, 2, "kv32 ties go to A");
}

/* Cuts the merge into pieces with co_rank, merges each piece alone, and compares with the whole merge. */
static void check_split(kit_type t, size_t m, size_t n, kit_gen g, int pieces, uint64_t seed)
{
    size_t size = kit_type_size(t), total = m + n;
    char *A = (char *)kit_xmalloc(m * size), *B = (char *)kit_xmalloc(n * size);
    kit_gen_merge_input(t, A, m, B, n, g, seed);
    size_t per = (total + pieces - 1) / pieces; /* ceil: the last piece may be short or empty */
    int i_prev = 0;
    for (int p = 1; p <= pieces; p++) {
        size_t k_prev = (size_t)(p - 1) * per < total ? (size_t)(p - 1) * per : total;
        size_t k = (size_t)p * per < total ? (size_t)p * per : total;
        int passes;
        kit_not_implemented_reset();
        int i = co_rank_any(t, (int)k, A, (int)m, B, (int)n, &passes);
        if (kit_not_implemented_task()) {
            kit_test_fail(__FILE__, __LINE__, "not implemented: %s", kit_not_implemented_task());
            goto out;
        }
        /* Check the range before using i, so a wrong co_rank fails instead of crashing the harness. */
        if (i < i_prev || (size_t)i > m || (size_t)i > k || k - (size_t)i > n || i - i_prev > (long)(k - k_prev)) {
            kit_test_fail(__FILE__, __LINE__, "co_rank(k=%zu) = %d is impossible after co_rank(k=%zu) = %d (m=%zu, n=%zu)",
                          k, i, k_prev, i_prev, m, n);
            goto out;
        }
        KIT_ASSERT_MSG(kit_check_co_rank(t, A, m, B, n, (long long)k, i),
                       "piece %d of %d of a %s merge (m=%zu, n=%zu, gen=%s): co_rank(k=%zu) = %d breaks co-rank's definition",
                       p, pieces, kit_type_name(t), m, n, kit_gen_name(g), k, i);
        i_prev = i;
    }
out:
    free(A);
    free(B);
}

static void test_split_property(void)
{
    check_split(KIT_TYPE_I32, 1000, 1000, KIT_GEN_RANDOM, 7, 1);
    check_split(KIT_TYPE_I32, 5, 4, KIT_GEN_RANDOM, 3, 2);
    check_split(KIT_TYPE_I64, 10, 4000, KIT_GEN_DUPLICATES, 64, 3);
    check_split(KIT_TYPE_KV32, 3000, 2000, KIT_GEN_DUPLICATES, 100, 4); /* values reveal instability */
    check_split(KIT_TYPE_KV32, 2000, 2000, KIT_GEN_EQUAL, 9, 5);
    check_split(KIT_TYPE_I32, 0, 100, KIT_GEN_RANDOM, 4, 6);
    check_split(KIT_TYPE_I32, 100, 0, KIT_GEN_RANDOM, 4, 7);
    check_split(KIT_TYPE_I32, 3, 3, KIT_GEN_INTERLEAVED, 10, 8); /* more pieces than elements */
}

/* Every k of large inputs against the reference, with the pass and comparison bounds. */
static void check_bound(kit_type t, size_t m, size_t n, kit_gen g, uint64_t seed)
{
    size_t size = kit_type_size(t), total = m + n;
    char *A = (char *)kit_xmalloc(m * size), *B = (char *)kit_xmalloc(n * size);
    kit_counted *cA = (kit_counted *)kit_xmalloc(m * sizeof(kit_counted)), *cB = (kit_counted *)kit_xmalloc(n * sizeof(kit_counted));
    kit_gen_merge_input(t, A, m, B, n, g, seed);
    for (size_t x = 0; x < m; x++)
        cA[x] = kit_counted(kit_key_at(t, A, x));
    for (size_t x = 0; x < n; x++)
        cB[x] = kit_counted(kit_key_at(t, B, x));
    int bound = kit_co_rank_pass_bound((long long)m, (long long)n);
    size_t step = total / 2000 + 1; /* about 2000 ranks, always including 0 and m + n */
    for (size_t k = 0; k <= total; k = (k < total && k + step > total) ? total : k + step) {
        int passes = 0, ignored;
        if (!expect_co_rank(t, (int)k, A, (int)m, B, (int)n, -1, "bound inputs"))
            break;
        co_rank_any(t, (int)k, A, (int)m, B, (int)n, &passes);
        long long before = kit_comparisons_add(0);
        co_rank((int)k, cA, (int)m, cB, (int)n, &ignored);
        long long made = kit_comparisons_add(0) - before;
        if (passes > bound || made > 2LL * bound) {
            kit_test_fail(__FILE__, __LINE__,
                          "co_rank(k=%zu, m=%zu, n=%zu) took %d passes and %lld comparisons; allowed: %d passes, %d comparisons",
                          k, m, n, passes, made, bound, 2 * bound);
            break;
        }
        if (k == total)
            break;
    }
    CU_PASS("pass and comparison bounds checked");
    free(A);
    free(B);
    free(cA);
    free(cB);
}

static void test_pass_bound(void)
{
    check_bound(KIT_TYPE_I32, 1000000, 1000000, KIT_GEN_RANDOM, 11);
    check_bound(KIT_TYPE_I32, 1, 1000000, KIT_GEN_RANDOM, 12);
    check_bound(KIT_TYPE_I32, 777777, 3, KIT_GEN_DUPLICATES, 13);
    check_bound(KIT_TYPE_I64, 65535, 65536, KIT_GEN_FEW_UNIQUE, 14);
    check_bound(KIT_TYPE_KV32, 100000, 100000, KIT_GEN_EQUAL, 15);
    check_bound(KIT_TYPE_I32, 50000, 50000, KIT_GEN_INTERLEAVED, 16);
}

/* Every rank at once on the GPU, one thread per rank: co_rank must also compile and run as device code. */
__global__ void co_rank_kernel(const int32_t *A, int m, const int32_t *B, int n, int *out)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k <= m + n)
        out[k] = co_rank(k, A, m, B, n);
}

static void test_gpu_co_rank(void)
{
    const size_t m = 5000, n = 3000, total = m + n;
    int32_t *h_A = (int32_t *)kit_xmalloc(m * 4), *h_B = (int32_t *)kit_xmalloc(n * 4);
    int *h_out = (int *)kit_xmalloc((total + 1) * sizeof(int));
    kit_gen_merge_input(KIT_TYPE_I32, h_A, m, h_B, n, KIT_GEN_DUPLICATES, 21);
    int32_t *d_A = (int32_t *)kit_device_copy(h_A, m * 4), *d_B = (int32_t *)kit_device_copy(h_B, n * 4);
    int *d_out;
    CUDA_CHECK(cudaMalloc(&d_out, (total + 1) * sizeof(int)));
    KIT_LAUNCH(co_rank_kernel, (unsigned)(total + 256) / 256, 256, 0, d_A, (int)m, d_B, (int)n, d_out);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(h_out, d_out, (total + 1) * sizeof(int), cudaMemcpyDeviceToHost));
    size_t bad = total + 1;
    for (size_t k = 0; k <= total && bad > total; k++)
        if (!kit_check_co_rank(KIT_TYPE_I32, h_A, m, h_B, n, (long long)k, h_out[k]))
            bad = k;
    KIT_ASSERT_MSG(bad > total, "GPU co_rank(k=%zu) = %d breaks co-rank's definition", bad, bad <= total ? h_out[bad] : 0);
    CUDA_CHECK(cudaFree(d_A));
    CUDA_CHECK(cudaFree(d_B));
    CUDA_CHECK(cudaFree(d_out));
    free(h_A);
    free(h_B);
    free(h_out);
}

static void register_tests(void)
{
    CU_pSuite value = kit_test_suite("lab02 co_rank values");
    kit_test_add(value, "chapter example, every rank", test_chapter_all_ranks);
    kit_test_add(value, "chapter traces (Figs. 12.4-12.8)", test_chapter_traces);
    kit_test_add(value, "chapter exercises 1 and 2", test_chapter_exercises);
    kit_test_add(value, "exhaustive small cases vs brute force", test_exhaustive_small);
    kit_test_add(value, "tie rule (A before B)", test_tie_rule);
    kit_test_add(value, "64-bit keys and pairs", test_types);
    kit_test_add(value, "pieces concatenate to the merge", test_split_property);

    CU_pSuite bound = kit_test_suite("lab02 search bound");
    kit_test_add(bound, "passes and comparisons on large inputs", test_pass_bound);

    CU_pSuite gpu = kit_test_suite("lab02 kernels");
    kit_test_add(gpu, "co_rank in a kernel, every rank", test_gpu_co_rank);
    kit_test_device_suite_ready(gpu);
}

int main(void)
{
    return kit_test_main("lab02 tests", register_tests);
}
