/* Lab 4 public tests: merge_tiled_kernel against the kit's stable merge, on every launch shape the kit cares about. */
#include "../../03-basic-merge/harness/merge_test.cuh"
#include "lab04.cuh"

/* A list that runs out before the last round: the chapter's A_consumed update would read stale tile slots here. */
static void test_list_runs_out(void)
{
    kit_merge_check(KIT_TYPE_I32, 5000, 40, KIT_GEN_RANDOM, 70, kit_cfg(1, 64, 256));
    kit_merge_check(KIT_TYPE_I32, 40, 5000, KIT_GEN_RANDOM, 71, kit_cfg(1, 64, 256));
    kit_merge_check(KIT_TYPE_KV32, 3000, 100, KIT_GEN_DUPLICATES, 72, kit_cfg(2, 32, 128));
}

/* Fewer outputs than threads in the last round, and a tile smaller than the block. */
static void test_short_last_round(void)
{
    kit_merge_check(KIT_TYPE_I32, 513, 514, KIT_GEN_RANDOM, 73, kit_cfg(1, 128, 512));
    kit_merge_check(KIT_TYPE_I32, 700, 300, KIT_GEN_RANDOM, 74, kit_cfg(2, 256, 100));
}

static void register_tests(void)
{
    kit_merge_register_tests(&LAB04, "lab04");
    CU_pSuite s = kit_test_suite("lab04 the chapter's slips");
    kit_test_add(s, "one list runs out before the last round", test_list_runs_out);
    kit_test_add(s, "a short last round, a tile smaller than the block", test_short_last_round);
    kit_test_device_suite_ready(s);
}

int main(void)
{
    return kit_test_main("lab04 tests", register_tests);
}
