/* Lab 1 public tests: your merge_sequential against the kit's stable reference merge. */
#include <string.h>

#include "kit_cuda.h"
#include "kit_test_gpu.h"
#include "lab01.cuh"

/*
 * Merges given inputs with the student's function and checks, in order: the
 * function is implemented, C equals the reference merge (keys and values),
 * and A and B are unchanged. Returns 1 when everything holds.
 */
static int check_merge_of(kit_type t, const void *A, size_t m, const void *B, size_t n, const char *what)
{
    size_t size = kit_type_size(t), total = m + n;
    char *C = (char *)kit_xmalloc(total * size);
    char *A0 = (char *)kit_xmalloc(m * size), *B0 = (char *)kit_xmalloc(n * size);
    memcpy(A0, A, m * size);
    memcpy(B0, B, n * size);
    memset(C, 0xA5, total * size);

    kit_not_implemented_reset();
    merge_any(t, const_cast<void *>(A), (int)m, const_cast<void *>(B), (int)n, C, 0);
    char msg[256];
    int ok = 0;
    if (kit_not_implemented_task())
        kit_test_fail(__FILE__, __LINE__, "not implemented: %s", kit_not_implemented_task());
    else if (kit_check_merge(t, A, m, B, n, C, msg, sizeof msg) >= 0)
        kit_test_fail(__FILE__, __LINE__, "%s: wrong output at %s", what, msg);
    else if (memcmp(A, A0, m * size) != 0 || memcmp(B, B0, n * size) != 0)
        kit_test_fail(__FILE__, __LINE__, "%s: merge_sequential modified its input", what);
    else
        ok = 1;
    if (ok)
        CU_PASS("merge matches the reference and left its inputs alone");
    free(C);
    free(A0);
    free(B0);
    return ok;
}

/* Generates a merge input of the given shape and checks the student's merge on it. */
static int check_merge(kit_type t, size_t m, size_t n, kit_gen g, uint64_t seed)
{
    size_t size = kit_type_size(t);
    void *A = kit_xmalloc(m * size), *B = kit_xmalloc(n * size);
    kit_gen_merge_input(t, A, m, B, n, g, seed);
    char what[128];
    snprintf(what, sizeof what, "merge %s m=%zu n=%zu gen=%s seed=%llu", kit_type_name(t), m, n, kit_gen_name(g),
             (unsigned long long)seed);
    int ok = check_merge_of(t, A, m, B, n, what);
    free(A);
    free(B);
    return ok;
}

static void test_empty_inputs(void)
{
    check_merge(KIT_TYPE_I32, 0, 0, KIT_GEN_RANDOM, 1);
    check_merge(KIT_TYPE_I32, 0, 7, KIT_GEN_RANDOM, 2);
    check_merge(KIT_TYPE_I32, 7, 0, KIT_GEN_RANDOM, 3);
    check_merge(KIT_TYPE_I64, 0, 1, KIT_GEN_RANDOM, 4);
    check_merge(KIT_TYPE_I64, 1, 0, KIT_GEN_RANDOM, 5);
}

/* Fig. 12.1 of the textbook chapter: A = (1,7,8,9,10), B = (7,10,10,12). */
static void test_chapter_example(void)
{
    const int32_t A[] = {1, 7, 8, 9, 10}, B[] = {7, 10, 10, 12};
    const int32_t want[] = {1, 7, 7, 8, 9, 10, 10, 10, 12};
    int32_t C[9];
    kit_not_implemented_reset();
    merge_sequential(A, 5, B, 4, C);
    KIT_ASSERT_MSG(!kit_not_implemented_task(), "not implemented: %s", kit_not_implemented_task());
    char msg[256];
    KIT_ASSERT_MSG(kit_verify(KIT_TYPE_I32, want, C, 9, msg, sizeof msg) < 0, "chapter example: %s", msg);
}

static void test_shapes(void)
{
    const kit_gen shapes[] = {KIT_GEN_RANDOM, KIT_GEN_DUPLICATES, KIT_GEN_EQUAL, KIT_GEN_FEW_UNIQUE,
                              KIT_GEN_A_BELOW_B, KIT_GEN_B_BELOW_A, KIT_GEN_INTERLEAVED};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        check_merge(KIT_TYPE_I32, 1000, 777, shapes[s], 10 + s);
        check_merge(KIT_TYPE_I64, 333, 1024, shapes[s], 20 + s);
    }
}

/* Unbalanced and odd sizes, including a single element against many. */
static void test_sizes(void)
{
    const size_t sizes[][2] = {{1, 1}, {1, 1000}, {1000, 1}, {2, 3}, {127, 129}, {4096, 4095}, {65537, 3}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        check_merge(KIT_TYPE_I32, sizes[s][0], sizes[s][1], KIT_GEN_RANDOM, 100 + s);
}

/* 64-bit keys that differ only above bit 31, which a 32-bit comparison would get wrong. */
static void test_i64_high_bits(void)
{
    const int64_t A[] = {(int64_t)1 << 40, (int64_t)3 << 40}, B[] = {(int64_t)2 << 40, (int64_t)4 << 40};
    check_merge_of(KIT_TYPE_I64, A, 2, B, 2, "merge i64 keys above 2^32");
}

static void test_large(void)
{
    check_merge(KIT_TYPE_I32, 5000000, 5000000, KIT_GEN_RANDOM, 7); /* 10^7 output elements */
}

/* Equal keys across A and B: A's elements come first, each list in its order. */
static void test_stable_chapter_pairs(void)
{
    /* The chapter's example, each value tagged with its origin (A: i, B: -1 - j). */
    const kit_kv32 A[] = {{1, 0}, {7, 1}, {8, 2}, {9, 3}, {10, 4}};
    const kit_kv32 B[] = {{7, -1}, {10, -2}, {10, -3}, {12, -4}};
    check_merge_of(KIT_TYPE_KV32, A, 5, B, 4, "stability on the chapter example");
}

static void test_stable_all_equal(void)
{
    check_merge(KIT_TYPE_KV32, 100, 100, KIT_GEN_EQUAL, 1);
    check_merge(KIT_TYPE_KV32, 1, 50, KIT_GEN_EQUAL, 2);
}

static void test_stable_duplicates(void)
{
    check_merge(KIT_TYPE_KV32, 10000, 9000, KIT_GEN_DUPLICATES, 3);
    check_merge(KIT_TYPE_KV32, 5000, 5000, KIT_GEN_FEW_UNIQUE, 4);
    check_merge(KIT_TYPE_KV32, 1000000, 1000000, KIT_GEN_DUPLICATES, 5);
}

/*
 * What a store past the end of C looks like (CPU build): C is given one key fewer than m + n, so a
 * right merge stores its last key outside C, and the run stops there, with the array and the index.
 */
static void short_output_child(void)
{
    int32_t A[] = {1, 3, 5}, B[] = {2, 4}, C[5];
    void *hA = kit_host_array(A, sizeof A, "A", sizeof(int32_t), "keys");
    void *hB = kit_host_array(B, sizeof B, "B", sizeof(int32_t), "keys");
    void *hC = kit_host_array(C, 4 * sizeof(int32_t), "C", sizeof(int32_t), "keys");
    const int32_t *a = (const int32_t *)hA, *b = (const int32_t *)hB;
    int32_t *c = (int32_t *)hC;
    kit_not_implemented_reset();
    kit_host_call([=]() { merge_sequential(a, 3, b, 2, c); });
    if (kit_not_implemented_task())
        fprintf(stderr, "not implemented: %s\n", kit_not_implemented_task());
    exit(0);
}

static void test_store_past_c(void)
{
    KIT_ASSERT_FAULT(short_output_child, "out-of-bounds store C[4] (C holds 4 keys) on the host");
}

/* One thread per merge on the GPU: the same function, compiled for the device. */
__global__ void merge_kernel(const int32_t *A, int m, const int32_t *B, int n, int32_t *C)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        merge_sequential(A, m, B, n, C);
}

static void test_gpu_merge(void)
{
    const size_t m = 3000, n = 2000;
    int32_t *h_A = (int32_t *)kit_xmalloc(m * 4), *h_B = (int32_t *)kit_xmalloc(n * 4);
    int32_t *h_C = (int32_t *)kit_xmalloc((m + n) * 4);
    kit_gen_merge_input(KIT_TYPE_I32, h_A, m, h_B, n, KIT_GEN_DUPLICATES, 9);
    int32_t *d_A = (int32_t *)kit_device_copy(h_A, m * 4), *d_B = (int32_t *)kit_device_copy(h_B, n * 4), *d_C;
    CUDA_CHECK(cudaMalloc(&d_C, (m + n) * 4));
    CUDA_CHECK(cudaMemset(d_C, 0xA5, (m + n) * 4));
    KIT_LAUNCH(merge_kernel, 1, 32, 0, d_A, (int)m, d_B, (int)n, d_C);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(h_C, d_C, (m + n) * 4, cudaMemcpyDeviceToHost));
    char msg[256];
    KIT_ASSERT_MSG(kit_check_merge(KIT_TYPE_I32, h_A, m, h_B, n, h_C, msg, sizeof msg) < 0, "GPU merge: %s", msg);
    CUDA_CHECK(cudaFree(d_A));
    CUDA_CHECK(cudaFree(d_B));
    CUDA_CHECK(cudaFree(d_C));
    free(h_A);
    free(h_B);
    free(h_C);
}

static void register_tests(void)
{
    CU_pSuite keys = kit_test_suite("lab01 merge (keys)");
    kit_test_add(keys, "empty inputs", test_empty_inputs);
    kit_test_add(keys, "chapter example (Fig. 12.1)", test_chapter_example);
    kit_test_add(keys, "input shapes", test_shapes);
    kit_test_add(keys, "odd and unbalanced sizes", test_sizes);
    kit_test_add(keys, "64-bit keys above 2^32", test_i64_high_bits);
    kit_test_add(keys, "10^7 elements", test_large);

    CU_pSuite stable = kit_test_suite("lab01 stability (key-value pairs)");
    kit_test_add(stable, "chapter example with tags", test_stable_chapter_pairs);
    kit_test_add(stable, "all keys equal", test_stable_all_equal);
    kit_test_add(stable, "heavy duplicates", test_stable_duplicates);

    CU_pSuite gpu = kit_test_suite("lab01 kernels");
    kit_test_add(gpu, "merge_sequential in a kernel", test_gpu_merge);
    kit_test_device_suite_ready(gpu);

    CU_pSuite checked = kit_test_suite("lab01 checked memory");
    kit_test_add(checked, "a store past the end of C names the array and the index", test_store_past_c);
    kit_test_checked_suite_ready(checked);
}

int main(void)
{
    return kit_test_main("lab01 tests", register_tests);
}
