/* Lab 8 public tests: worst_subproblem and worst_order against the kit's references, one warp's count in the simulator against the theorem, and the measured kernel that merges the warp on the device. */
#include "kit_test.h"
#include "kit_test_gpu.h"
#include "lab08.cuh"

static const int WS[] = {4, 8, 12, 16, 32, 64};
#define NWS (int)(sizeof WS / sizeof WS[0])

/* Reports a reached skeleton once; returns 1 if it was reached. */
static int skeleton_reached(void)
{
    if (kit_not_implemented_task()) {
        kit_test_fail(__FILE__, __LINE__, "not implemented: %s", kit_not_implemented_task());
        return 1;
    }
    return 0;
}

/* SPAA 2025, Fig. 4 (left): w = 12, E = 5, read off the figure. */
static void test_subproblem_fig4(void)
{
    static const int want_a[] = {2, 5, 5, 1, 0, 1, 5, 5, 2, 0, 5, 5};
    int a[12], b[12];
    kit_not_implemented_reset();
    int n = worst_subproblem(12, 5, a, b);
    if (skeleton_reached())
        return;
    KIT_ASSERT_MSG(n == 12, "w = 12, E = 5: %d tuples, expected w/d = 12", n);
    for (int i = 0; i < 12 && n == 12; i++)
        if (a[i] != want_a[i] || b[i] != 5 - want_a[i]) {
            kit_test_fail(__FILE__, __LINE__, "w = 12, E = 5, tuple %d: expected (%d, %d), got (%d, %d)", i, want_a[i],
                          5 - want_a[i], a[i], b[i]);
            return;
        }
}

/* Every subproblem is a valid split: w/d tuples of E keys, ceil(E/2d)*w of them from A (the kit's
   assembly checks that). Whether it is the worst is the theorem test's business, and the grader's,
   which pairs it with the reference order. */
static void test_subproblem_is_a_split(void)
{
    kit_not_implemented_reset();
    for (int x = 0; x < NWS; x++)
        for (int E = 2; E <= WS[x]; E++) {
            int w = WS[x], a[64], b[64];
            kit_worst_split T[64];
            char err[200];
            int n = worst_subproblem(w, E, a, b);
            if (skeleton_reached())
                return;
            if (kit_worst_warp_from(w, E, 1, a, b, n, worst_order, T, err, sizeof err) != 0) {
                kit_test_fail(__FILE__, __LINE__, "w = %d, E = %d: %s", w, E, err);
                return;
            }
        }
    int a[8], b[8];
    KIT_ASSERT_MSG(worst_subproblem(8, 9, a, b) == -1 && worst_subproblem(8, 1, a, b) == -1, "E > w and E = 1 must give -1");
}

/* The lab's goal: with both of your functions, one warp's merge round costs at least the theorem. */
static void test_warp_meets_theorem(void)
{
    kit_not_implemented_reset();
    for (int x = 0; x < NWS; x++)
        for (int E = 2; E <= WS[x]; E++) {
            int w = WS[x];
            kit_worst_split T[64];
            kit_bank_count c;
            char err[200];
            int rc = lab08_warp(w, E, T, err, sizeof err);
            if (skeleton_reached())
                return;
            rc = rc ? rc : kit_worst_warp_count(w, E, T, &c, err, sizeof err);
            if (rc != 0) {
                kit_test_fail(__FILE__, __LINE__, "w = %d, E = %d: %s", w, E, err);
                return;
            }
            if ((long)c.cost < kit_worst_theorem(w, E)) {
                kit_test_fail(__FILE__, __LINE__, "w = %d, E = %d: the simulator counts %llu, below the theorem's %ld", w, E,
                              (unsigned long long)c.cost, kit_worst_theorem(w, E));
                return;
            }
        }
}

/*
 * The measured kernel merges your warp (w = 32, every E) back into order. In the CPU build its
 * traced loads must cost what the simulator's replay counts: conflicts = cost - (E + 2), one
 * warp-wide load per SerialMerge read. On a GPU, ncu measures the same kernel (the grader's
 * conflicts>= thresholds).
 */
static void test_measured_merge(void)
{
    kit_not_implemented_reset();
    for (int E = 2; E <= 32; E++) {
        kit_worst_split T[32];
        kit_bank_count c;
        char err[200];
        int rc = lab08_warp(32, E, T, err, sizeof err);
        if (skeleton_reached())
            return;
        rc = rc ? rc : kit_worst_warp_count(32, E, T, &c, err, sizeof err);
#ifdef KIT_CPU
        long long got = rc ? -1 : lab08_measure_traced(32, E, T, NULL, err, sizeof err);
        long long want = rc ? 0 : (long long)c.cost - (E + 2);
        rc = got < 0 ? -1 : got != want;
        if (rc > 0)
            kit_test_fail(__FILE__, __LINE__, "E = %d: the measured merge's loads have %lld conflicts, expected cost %llu - %d = %lld",
                          E, got, (unsigned long long)c.cost, E + 2, want);
#else
        rc = rc ? rc : lab08_measure(32, E, T, err, sizeof err);
#endif
        if (rc != 0) {
            if (rc < 0)
                kit_test_fail(__FILE__, __LINE__, "w = 32, E = %d: %s", E, err);
            return;
        }
    }
    char err[200];
    kit_worst_split T[16];
    for (int i = 0; i < 16; i++)
        T[i] = kit_worst_split{4, 0, 1};
    KIT_ASSERT_MSG(lab08_measure(16, 4, T, err, sizeof err) == -1, "w = 16 must be refused: the measured merge runs 32 threads");
    kit_worst_split U[32];
    for (int i = 0; i < 32; i++)
        U[i] = i == 3 ? kit_worst_split{4, 1, 1} : kit_worst_split{4, 0, 1};
    KIT_ASSERT_MSG(lab08_measure(32, 4, U, err, sizeof err) == -1, "a split of 5 keys with E = 4 must be refused");
}

static void register_tests(void)
{
    CU_pSuite s = kit_test_suite("lab08 worst_subproblem");
    kit_test_add(s, "SPAA 2025 Fig. 4: w = 12, E = 5", test_subproblem_fig4);
    kit_test_add(s, "a valid split for w in 4 8 12 16 32 64, 1 < E <= w", test_subproblem_is_a_split);
    CU_pSuite warp = kit_test_suite("lab08 one warp in the simulator");
    kit_test_add(warp, "cost >= the theorem for w in 4 8 12 16 32 64, 1 < E <= w", test_warp_meets_theorem);
    CU_pSuite d = kit_test_suite("lab08 the measured merge");
    kit_test_add(d, "worst_merge_probe merges w = 32, every E; emulated conflicts = cost - (E + 2)", test_measured_merge);
    kit_test_device_suite_ready(d);
}

int main(void)
{
    return kit_test_main("lab08 tests", register_tests);
}
