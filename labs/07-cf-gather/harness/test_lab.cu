/* Lab 7 public tests: cf_slot and cf_gather_index on the host, cf_merge_kernel on the device (or the CPU emulation), and the gather's conflicts in the simulator. */
#include <stdlib.h>

#include "../../03-basic-merge/harness/merge_test.cuh"
#include "lab07.cuh"

/* Reports a reached skeleton once; returns 1 if it was reached. */
static int skeleton_reached(void)
{
    if (kit_not_implemented_task()) {
        kit_test_fail(__FILE__, __LINE__, "not implemented: %s", kit_not_implemented_task());
        return 1;
    }
    return 0;
}

/* cf_slot moves positions only within their partition of CF_W*E/d, and hits every slot once. */
static void test_slot_is_a_rotation(void)
{
    for (int E = 2; E <= 32; E++) {
        int u = 128, tile = u * E, d = kit_gcd(CF_W, E), P = CF_W * E / d;
        char *seen = (char *)calloc((size_t)tile, 1);
        kit_not_implemented_reset();
        for (int x = 0; x < tile; x++) {
            int s = cf_slot(x, E);
            if (skeleton_reached()) {
                free(seen);
                return;
            }
            if (s < 0 || s >= tile || s / P != x / P || seen[s]++) {
                kit_test_fail(__FILE__, __LINE__, "E=%d: position %d goes to slot %d (partition %d of %d slots), or twice", E,
                              x, s, x / P, P);
                free(seen);
                return;
            }
            int l = x / P, want = l * P + (x - l * P + l % d) % P; /* the paper's rho */
            if (s != want) {
                kit_test_fail(__FILE__, __LINE__, "E=%d: position %d of partition %d goes to slot %d; rotating the partition by %d gives %d",
                              E, x, l, s, l % d, want);
                free(seen);
                return;
            }
        }
        free(seen);
    }
    CU_PASS("partition l rotated by l mod d, the identity for coprime E");
}

/* Every split of every thread: the E rounds read the thread's E keys once each, round j a key at a position = j mod E. */
static void test_gather_index_covers_each_key_once(void)
{
    for (int E = 2; E <= 32; E++) {
        int tile = 64 * E;
        for (int a_i = 0; a_i <= 3 * E; a_i++)
            for (int n_a = 0; n_a <= E; n_a++) {
                int i = 5, b_i = i * E - a_i; /* thread 5 of a 64-thread block */
                if (b_i < 0)
                    continue;
                unsigned long long seen_a = 0, seen_b = 0;
                for (int j = 0; j < E; j++) {
                    int origin = -1;
                    kit_not_implemented_reset();
                    int pos = cf_gather_index(j, a_i, b_i, n_a, E, tile, &origin);
                    if (skeleton_reached())
                        return;
                    int want_pos = origin < n_a ? a_i + origin : tile - 1 - (b_i + origin - n_a);
                    if (origin < 0 || origin >= E || pos != want_pos || ((pos % E) + E) % E != j) {
                        kit_test_fail(__FILE__, __LINE__,
                                      "E=%d, a_i=%d, |A_i|=%d, round %d: position %d with origin %d (expected position %d, = %d mod E)",
                                      E, a_i, n_a, j, pos, origin, want_pos, j);
                        return;
                    }
                    unsigned long long *seen = origin < n_a ? &seen_a : &seen_b;
                    int bit = origin < n_a ? origin : origin - n_a;
                    if (*seen >> bit & 1ULL) {
                        kit_test_fail(__FILE__, __LINE__, "E=%d, a_i=%d, |A_i|=%d: origin %d read twice", E, a_i, n_a, origin);
                        return;
                    }
                    *seen |= 1ULL << bit;
                }
            }
    }
    CU_PASS("every key once, in its round");
}

static void check_cfg(kit_type t, size_t m, size_t n, kit_gen g, uint64_t seed, int blocks, int threads, int E)
{
    kit_merge_check(t, m, n, g, seed, kit_cfg(blocks, threads, E));
}

static void test_kernel_sizes(void)
{
    check_cfg(KIT_TYPE_I32, 0, 0, KIT_GEN_RANDOM, 1, 2, 32, 15);
    check_cfg(KIT_TYPE_I32, 0, 100, KIT_GEN_RANDOM, 2, 2, 32, 17);
    check_cfg(KIT_TYPE_I64, 100, 0, KIT_GEN_RANDOM, 3, 1, 64, 16);
    check_cfg(KIT_TYPE_I32, 3, 2, KIT_GEN_RANDOM, 4, 4, 64, 15);            /* fewer outputs than threads */
    check_cfg(KIT_TYPE_I32, 1000, 777, KIT_GEN_RANDOM, 5, 3, 96, 12);       /* tiles not full, many tiles per block */
    check_cfg(KIT_TYPE_I32, 20000, 15000, KIT_GEN_RANDOM, 6, 7, 256, 17);
    check_cfg(KIT_TYPE_I32, 4096 * 15, 4096 * 15, KIT_GEN_RANDOM, 7, 16, 512, 15);
}

static void test_kernel_shapes(void)
{
    check_cfg(KIT_TYPE_KV32, 3000, 3000, KIT_GEN_EQUAL, 8, 4, 64, 16);      /* stability: all keys equal */
    check_cfg(KIT_TYPE_KV32, 5000, 4000, KIT_GEN_DUPLICATES, 9, 5, 128, 24);
    check_cfg(KIT_TYPE_I64, 1234, 4321, KIT_GEN_A_BELOW_B, 10, 3, 64, 2);
    check_cfg(KIT_TYPE_I32, 4321, 1234, KIT_GEN_B_BELOW_A, 11, 3, 64, 32);
    check_cfg(KIT_TYPE_I32, 3000, 2999, KIT_GEN_INTERLEAVED, 12, 4, 128, 8);
    for (int E = 2; E <= 32; E++)
        check_cfg(KIT_TYPE_I32, 700 + 31 * E, 900, KIT_GEN_RANDOM, 100 + (uint64_t)E, 2, 64, E);
}

#ifdef KIT_CPU
/* Input where the threads alternate: E keys from A, then E from B, and so on (distinct keys). */
static void alternating(int32_t *A, int32_t *B, int half, int E)
{
    for (int x = 0; x < half; x++) {
        A[x] = 2 * E * (x / E) + x % E;
        B[x] = 2 * E * (x / E) + E + x % E;
    }
}

/* Runs one tile through the emulation, traced, and returns the gather rounds' load conflicts (or -1). */
static long long gather_conflicts(int E, int u, int shape)
{
    int total = u * E, m, n;
    int32_t *A = (int32_t *)malloc((size_t)total * 4), *B = (int32_t *)malloc((size_t)total * 4);
    int32_t *C = (int32_t *)malloc((size_t)total * 4);
    if (shape == 0) { /* random */
        m = total / 2 + E / 2;
        n = total - m;
        kit_gen_merge_input(KIT_TYPE_I32, A, (size_t)m, B, (size_t)n, KIT_GEN_RANDOM, (uint64_t)(E * 1000 + u));
    } else if (shape == 1) { /* all A first: the first threads take only A, the rest only B */
        m = total / 3;
        n = total - m;
        kit_gen_merge_input(KIT_TYPE_I32, A, (size_t)m, B, (size_t)n, KIT_GEN_A_BELOW_B, 5);
    } else if (shape == 2) {
        m = total / 3;
        n = total - m;
        kit_gen_merge_input(KIT_TYPE_I32, A, (size_t)m, B, (size_t)n, KIT_GEN_B_BELOW_A, 6);
    } else { /* alternating: all-A and all-B threads in turn */
        m = n = total / 2;
        alternating(A, B, m, E);
    }
    char msg[200];
    kit_cpu_trace_start();
    int rc = kit_merge_run(&LAB07, KIT_TYPE_I32, A, m, B, n, C, kit_cfg(1, u, E), msg, sizeof msg);
    kit_access *acc;
    size_t na = kit_cpu_trace_stop(&acc);
    long long result = -1;
    if (rc != 0) {
        kit_test_fail(__FILE__, __LINE__, "E=%d, u=%d: %s", E, u, rc == 1 ? "not implemented" : msg);
    } else {
        /* Every thread stores E keys, searches twice (2 reads a pass), then gathers in E rounds. */
        uint32_t first = (uint32_t)(E + 4 * cf_search_passes(total)), kept = 0;
        for (size_t x = 0; x < na; x++)
            if (!acc[x].write && acc[x].ordinal >= first && acc[x].ordinal < first + (uint32_t)E)
                acc[kept++] = acc[x];
        kit_bank_model model = {CF_W, 4};
        kit_bank_report r;
        if (kept != (uint32_t)(u * E)) {
            kit_test_fail(__FILE__, __LINE__, "E=%d, u=%d: %u gather reads recorded, expected %d", E, u, kept, u * E);
        } else if (kit_bank_simulate(&model, acc, kept, &r, msg, sizeof msg) != 0) {
            kit_test_fail(__FILE__, __LINE__, "simulator: %s", msg);
        } else {
            result = (long long)r.load.conflicts;
            kit_bank_free(&r);
        }
    }
    free(acc);
    free(A);
    free(B);
    free(C);
    return result;
}

/* Section 3: zero conflicts in every gather round, E = 2 .. 32, u = 64, 256, 512, four kinds of split. */
static void test_gather_conflict_free(void)
{
    static const char *const shapes[] = {"random", "all A then all B", "all B then all A", "alternating"};
    const int us[] = {64, 256, 512};
    for (int E = 2; E <= 32; E++)
        for (int k = 0; k < 3; k++)
            for (int shape = 0; shape < 4; shape++) {
                if (us[k] == 512 && shape != 0 && shape != 3)
                    continue; /* the one-sided splits are covered at u = 64 and 256 */
                long long c = gather_conflicts(E, us[k], shape);
                if (c != 0) {
                    if (c > 0)
                        kit_test_fail(__FILE__, __LINE__, "E=%d, u=%d, %s split: %lld conflicts in the gather", E, us[k],
                                      shapes[shape], c);
                    return;
                }
            }
    CU_PASS("no conflicts");
}
#else
static void test_gather_conflict_free(void)
{
    kit_test_fail(__FILE__, __LINE__, "this test needs the CPU build's trace");
}
#endif

static void register_tests(void)
{
    kit_merge_tested_ = &LAB07;
    CU_pSuite h = kit_test_suite("lab07 gather indices (host)");
    kit_test_add(h, "cf_slot: a rotation within each partition", test_slot_is_a_rotation);
    kit_test_add(h, "cf_gather_index: each key once, in its round", test_gather_index_covers_each_key_once);
    CU_pSuite d = kit_test_suite("lab07 cf_merge_kernel");
    kit_test_add(d, "sizes: empty, fewer outputs than threads, partial tiles, many tiles", test_kernel_sizes);
    kit_test_add(d, "shapes: stability, duplicates, one list below the other, interleaved, every E", test_kernel_shapes);
    kit_test_device_suite_ready(d);
    CU_pSuite s = kit_test_suite("lab07 conflicts (simulator)");
    kit_test_add(s, "the gather: 0 conflicts for E = 2 .. 32, u = 64, 256, 512", test_gather_conflict_free);
#ifndef KIT_CPU
    kit_test_skip_suite(s, "the simulator reads traces that only the CPU build records; run build/labs/sol-cpu/07-cf-gather/test");
#endif
}

int main(void)
{
    return kit_test_main("lab07 tests", register_tests);
}
