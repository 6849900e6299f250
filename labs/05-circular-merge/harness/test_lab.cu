/* Lab 5 public tests: co_rank_circular and merge_sequential_circular on the host, then merge_circular_kernel. */
#include "../../03-basic-merge/harness/merge_test.cuh"
#include "lab05.cuh"

/* Lays `keys` into a circular buffer of `tile` slots starting at `start` (other slots hold -999). */
static void fill_circular(int32_t *buf, int tile, int start, const int32_t *keys, int count)
{
    for (int s = 0; s < tile; s++)
        buf[s] = -999;
    for (int x = 0; x < count; x++)
        buf[(start + x) % tile] = keys[x];
}

/* Every k on buffers that wrap, with different starts for A and B, against the brute force on the unwrapped lists. */
static void test_co_rank_circular(void)
{
    const int32_t A[] = {1, 7, 8, 9, 10}, B[] = {7, 10, 10, 12};
    const int tile = 6;
    int32_t a_buf[6], b_buf[6];
    for (int a_start = 0; a_start < tile; a_start++)
        for (int b_start = 0; b_start < tile; b_start++) {
            fill_circular(a_buf, tile, a_start, A, 5);
            fill_circular(b_buf, tile, b_start, B, 4);
            for (int k = 0; k <= 9; k++) {
                kit_not_implemented_reset();
                int i = co_rank_circular(k, a_buf, 5, b_buf, 4, a_start, b_start, tile);
                if (kit_not_implemented_task()) {
                    kit_test_fail(__FILE__, __LINE__, "not implemented: %s", kit_not_implemented_task());
                    return;
                }
                if (!kit_check_co_rank(KIT_TYPE_I32, A, 5, B, 4, k, i)) {
                    kit_test_fail(__FILE__, __LINE__, "co_rank_circular(k=%d) with A_start=%d, B_start=%d, tile=%d: got %d, "
                                  "which breaks co-rank's definition", k, a_start, b_start, tile, i);
                    return;
                }
            }
        }
    CU_PASS("every k, every start");
}

static void test_merge_sequential_circular(void)
{
    const int32_t A[] = {1, 7, 8, 9, 10}, B[] = {7, 10, 10, 12}, want[] = {1, 7, 7, 8, 9, 10, 10, 10, 12};
    const int tile = 5;
    int32_t a_buf[5], b_buf[5], C[9];
    for (int a_start = 0; a_start < tile; a_start++)
        for (int b_start = 0; b_start < tile; b_start++) {
            fill_circular(a_buf, tile, a_start, A, 5);
            fill_circular(b_buf, tile, b_start, B, 4);
            kit_not_implemented_reset();
            merge_sequential_circular(a_buf, 5, b_buf, 4, C, a_start, b_start, tile);
            char msg[200];
            if (kit_not_implemented_task()) {
                kit_test_fail(__FILE__, __LINE__, "not implemented: %s", kit_not_implemented_task());
                return;
            }
            if (kit_verify(KIT_TYPE_I32, want, C, 9, msg, sizeof msg) >= 0) {
                kit_test_fail(__FILE__, __LINE__, "A_start=%d, B_start=%d, tile=%d: %s", a_start, b_start, tile, msg);
                return;
            }
        }
    CU_PASS("every start");
}

/* Rounds that leave keys behind in the buffers, which wrap several times. */
static void test_buffers_wrap(void)
{
    kit_merge_check(KIT_TYPE_I32, 5000, 40, KIT_GEN_RANDOM, 80, kit_cfg(1, 64, 256));
    kit_merge_check(KIT_TYPE_I32, 3000, 3000, KIT_GEN_INTERLEAVED, 81, kit_cfg(1, 32, 100));
    kit_merge_check(KIT_TYPE_KV32, 4000, 3500, KIT_GEN_DUPLICATES, 82, kit_cfg(2, 64, 77));
    kit_merge_check(KIT_TYPE_I32, 700, 300, KIT_GEN_RANDOM, 83, kit_cfg(2, 256, 100));
}

/* Where each block starts and ends: blocks of 1, 5, 33 and 64 threads on lists of very different
   lengths, so that the co-ranks a block searches in global memory lie deep in one list. */
static void test_block_starts(void)
{
    kit_merge_check(KIT_TYPE_I32, 100000, 3, KIT_GEN_RANDOM, 84, kit_cfg(7, 1, 16));
    kit_merge_check(KIT_TYPE_I32, 3, 100000, KIT_GEN_RANDOM, 85, kit_cfg(9, 5, 64));
    kit_merge_check(KIT_TYPE_KV32, 65536, 65537, KIT_GEN_DUPLICATES, 86, kit_cfg(11, 33, 200));
    kit_merge_check(KIT_TYPE_I64, 40000, 70000, KIT_GEN_A_BELOW_B, 87, kit_cfg(13, 64, 128));
}

static void register_tests(void)
{
    CU_pSuite h = kit_test_suite("lab05 circular helpers (host)");
    kit_test_add(h, "co_rank_circular: every k, every start", test_co_rank_circular);
    kit_test_add(h, "merge_sequential_circular: every start", test_merge_sequential_circular);
    kit_merge_register_tests(&LAB05, "lab05");
    CU_pSuite s = kit_test_suite("lab05 buffers that wrap");
    kit_test_add(s, "rounds leave keys behind; buffers wrap", test_buffers_wrap);
    kit_test_add(s, "blocks of 1, 5, 33 and 64 threads start deep in one list", test_block_starts);
    kit_test_device_suite_ready(s);
}

int main(void)
{
    return kit_test_main("lab05 tests", register_tests);
}
