/** @file The CUnit tests every merge-kernel lab (3, 4, 5 and 7) runs: edge cases, launch shapes, stability, sizes. */
#ifndef LAB03_MERGE_TEST_CUH
#define LAB03_MERGE_TEST_CUH

#include "merge_run.cuh"
#include "kit_test_gpu.h"

/** The lab whose kernel the shared tests run (set by kit_merge_register_tests()). */
static const kit_merge_lab *kit_merge_tested_;

/**
 * Merges generated input with the lab's kernel and checks, in order: the
 * kernel is implemented, the launch worked, C equals the stable reference,
 * and A and B are unchanged. Returns 1 when all hold.
 */
static inline int kit_merge_check(kit_type t, size_t m, size_t n, kit_gen g, uint64_t seed, kit_merge_cfg cfg)
{
    size_t size = kit_type_size(t), total = m + n;
    char *A = (char *)kit_xmalloc(m * size), *B = (char *)kit_xmalloc(n * size);
    char *A0 = (char *)kit_xmalloc(m * size), *B0 = (char *)kit_xmalloc(n * size);
    char *C = (char *)kit_xmalloc(total * size);
    kit_gen_merge_input(t, A, m, B, n, g, seed);
    memcpy(A0, A, m * size);
    memcpy(B0, B, n * size);
    char msg[256], what[160];
    snprintf(what, sizeof what, "merge %s m=%zu n=%zu gen=%s, %d blocks of %d threads, tile %d", kit_type_name(t), m, n,
             kit_gen_name(g), cfg.blocks, cfg.threads, cfg.tile);
    int rc = kit_merge_run(kit_merge_tested_, t, A, (int)m, B, (int)n, C, cfg, msg, sizeof msg), ok = 0;
    if (rc == 1)
        kit_test_fail(__FILE__, __LINE__, "not implemented: %s", kit_merge_tested_->task);
    else if (rc < 0)
        kit_test_fail(__FILE__, __LINE__, "%s: %s", what, msg);
    else if (kit_check_merge(t, A, m, B, n, C, msg, sizeof msg) >= 0)
        kit_test_fail(__FILE__, __LINE__, "%s: wrong output at %s", what, msg);
    else if (memcmp(A, A0, m * size) != 0 || memcmp(B, B0, n * size) != 0)
        kit_test_fail(__FILE__, __LINE__, "%s: the kernel modified its input", what);
    else
        ok = 1;
    if (ok)
        CU_PASS("the kernel's merge matches the reference");
    free(A);
    free(B);
    free(A0);
    free(B0);
    free(C);
    return ok;
}

/** @return the launch of @p blocks blocks of @p threads threads with tiles of @p tile */
static inline kit_merge_cfg kit_cfg(int blocks, int threads, int tile)
{
    kit_merge_cfg c = {blocks, threads, tile};
    return c;
}

/** Test: m = 0, n = 0, and both zero. */
static inline void kit_merge_test_empty(void)
{
    kit_merge_check(KIT_TYPE_I32, 0, 0, KIT_GEN_RANDOM, 1, kit_cfg(2, 32, 64));
    kit_merge_check(KIT_TYPE_I32, 0, 100, KIT_GEN_RANDOM, 2, kit_cfg(2, 32, 64));
    kit_merge_check(KIT_TYPE_I64, 100, 0, KIT_GEN_RANDOM, 3, kit_cfg(3, 32, 16));
}

/** Test: fewer outputs than threads, and more blocks than there is work. */
static inline void kit_merge_test_fewer_outputs_than_threads(void)
{
    kit_merge_check(KIT_TYPE_I32, 3, 2, KIT_GEN_RANDOM, 4, kit_cfg(4, 64, 16));
    kit_merge_check(KIT_TYPE_I32, 1, 0, KIT_GEN_RANDOM, 5, kit_cfg(2, 32, 8));
    kit_merge_check(KIT_TYPE_I32, 50, 50, KIT_GEN_RANDOM, 6, kit_cfg(50, 32, 16)); /* more blocks than needed */
}

/** Test: sizes, tiles and blocks that do not divide each other, a partial warp, tiles of one. */
static inline void kit_merge_test_odd_shapes(void)
{
    kit_merge_check(KIT_TYPE_I32, 1000, 777, KIT_GEN_RANDOM, 7, kit_cfg(3, 96, 100));  /* tile not a multiple of the block */
    kit_merge_check(KIT_TYPE_I32, 4097, 4095, KIT_GEN_RANDOM, 8, kit_cfg(5, 128, 256));
    kit_merge_check(KIT_TYPE_I32, 999, 1001, KIT_GEN_RANDOM, 9, kit_cfg(7, 48, 64));   /* 48 threads: a partial warp */
    kit_merge_check(KIT_TYPE_I32, 300, 300, KIT_GEN_RANDOM, 10, kit_cfg(1, 32, 1));    /* one block, tiles of one */
    kit_merge_check(KIT_TYPE_I32, 300, 200, KIT_GEN_RANDOM, 11, kit_cfg(2, 1, 7));     /* one thread per block */
    kit_merge_check(KIT_TYPE_I32, 2000, 3000, KIT_GEN_RANDOM, 12, kit_cfg(1, 64, 5000)); /* one tile holds everything */
}

/** Test: every input shape of the generators, on 32- and 64-bit keys. */
static inline void kit_merge_test_shapes(void)
{
    const kit_gen shapes[] = {KIT_GEN_EQUAL, KIT_GEN_A_BELOW_B, KIT_GEN_B_BELOW_A, KIT_GEN_INTERLEAVED,
                              KIT_GEN_DUPLICATES, KIT_GEN_FEW_UNIQUE};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        kit_merge_check(KIT_TYPE_I32, 3000, 2500, shapes[s], 20 + s, kit_cfg(4, 128, 256));
        kit_merge_check(KIT_TYPE_I64, 1234, 4321, shapes[s], 30 + s, kit_cfg(3, 64, 500));
    }
}

/** Test: stability, with key-value pairs whose values record where each came from. */
static inline void kit_merge_test_stability(void)
{
    kit_merge_check(KIT_TYPE_KV32, 2000, 2000, KIT_GEN_EQUAL, 40, kit_cfg(3, 64, 128));
    kit_merge_check(KIT_TYPE_KV32, 5000, 4000, KIT_GEN_DUPLICATES, 41, kit_cfg(5, 128, 256));
    kit_merge_check(KIT_TYPE_KV32, 3000, 3001, KIT_GEN_FEW_UNIQUE, 42, kit_cfg(2, 96, 100));
}

/** Test: 2^18 + 3 elements with the default launch. */
static inline void kit_merge_test_large(void)
{
    kit_merge_check(KIT_TYPE_I32, 1 << 17, (1 << 17) + 3, KIT_GEN_RANDOM, 50, kit_merge_default_cfg((1 << 18) + 3));
}

/*
 * What a store past the end of C looks like (CPU build): C is given 1024 keys for an m + n = 1025
 * merge, so a right kernel stores its last key outside C, and the run stops there, with the array,
 * the index, the thread and the block.
 */
static inline void kit_merge_short_output_child(void)
{
    const int m = 600, n = 425;
    int32_t A[m], B[n];
    kit_gen_merge_input(KIT_TYPE_I32, A, m, B, n, KIT_GEN_RANDOM, 90);
    void *d_A = kit_device_copy(A, sizeof A), *d_B = kit_device_copy(B, sizeof B), *d_C;
    CUDA_CHECK(cudaMalloc(&d_C, (m + n - 1) * sizeof(int32_t)));
    kit_name_array(d_A, "A", sizeof(int32_t), "keys");
    kit_name_array(d_B, "B", sizeof(int32_t), "keys");
    kit_name_array(d_C, "C", sizeof(int32_t), "keys");
    kit_not_implemented_reset();
    kit_merge_tested_->launch(KIT_TYPE_I32, d_A, m, d_B, n, d_C, kit_merge_default_cfg(m + n));
    (void)kit_launch_status();
    if (kit_device_not_implemented(kit_merge_tested_->task))
        fprintf(stderr, "not implemented: %s\n", kit_merge_tested_->task);
    exit(0);
}

static inline void kit_merge_test_store_past_c(void)
{
    KIT_ASSERT_FAULT(kit_merge_short_output_child, "out-of-bounds global store C[1024] (C holds 1024 keys) by thread ");
}

/**
 * Registers the shared tests for a lab's kernel, as the suites "<prefix> kernel" and "<prefix>
 * checked memory".
 * They run on a GPU, or in the CPU build on the emulation.
 */
static inline void kit_merge_register_tests(const kit_merge_lab *lab, const char *prefix)
{
    static char name[64];
    kit_merge_tested_ = lab;
    snprintf(name, sizeof name, "%s kernel", prefix);
    CU_pSuite s = kit_test_suite(name);
    kit_test_add(s, "empty inputs", kit_merge_test_empty);
    kit_test_add(s, "fewer outputs than threads, more blocks than work", kit_merge_test_fewer_outputs_than_threads);
    kit_test_add(s, "sizes and launch shapes that do not divide evenly", kit_merge_test_odd_shapes);
    kit_test_add(s, "equal keys, one list below the other, interleaved, duplicates", kit_merge_test_shapes);
    kit_test_add(s, "stability with key-value pairs", kit_merge_test_stability);
    kit_test_add(s, "2^18 elements", kit_merge_test_large);
    kit_test_device_suite_ready(s);
    static char checked_name[64];
    snprintf(checked_name, sizeof checked_name, "%s checked memory", prefix);
    CU_pSuite checked = kit_test_suite(checked_name);
    kit_test_add(checked, "a store past the end of C names the array, the index, the thread and the block",
                 kit_merge_test_store_past_c);
    kit_test_checked_suite_ready(checked);
}

#endif
