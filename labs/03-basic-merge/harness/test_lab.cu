/* Lab 3 public tests: merge_basic_kernel against the kit's stable merge, on every launch shape the kit cares about. */
#include "merge_test.cuh"
#include "lab03.cuh"

/* The chapter's ceil((m+n)/threads) truncates: with 10 outputs and 4 threads it gives 2 each, and C[8], C[9] belong to no one. */
static void test_share_rounds_up(void)
{
    kit_merge_check(KIT_TYPE_I32, 6, 4, KIT_GEN_RANDOM, 60, kit_cfg(1, 4, 1));
    kit_merge_check(KIT_TYPE_I32, 1000, 23, KIT_GEN_RANDOM, 61, kit_cfg(3, 100, 1));
}

static void register_tests(void)
{
    kit_merge_register_tests(&LAB03, "lab03");
    CU_pSuite s = kit_test_suite("lab03 the chapter's slips");
    kit_test_add(s, "each thread's share rounds up", test_share_rounds_up);
    kit_test_device_suite_ready(s);
}

int main(void)
{
    return kit_test_main("lab03 tests", register_tests);
}
