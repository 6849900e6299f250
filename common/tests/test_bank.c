/* Tests of the bank-conflict simulator (kit_bank.h) on hand-computed cases, and of the text trace format. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit_bank.h"
#include "kit_test.h"

static const kit_bank_model W32 = {32, 4};

static kit_access acc_at(uint32_t block, uint32_t thread, uint32_t ordinal, uint32_t addr, uint8_t size, uint8_t write)
{
    kit_access a = {block, thread, ordinal, addr, size, write};
    return a;
}

/* Simulates and returns the report; fails the test if the simulator refuses. */
static kit_bank_report sim(const kit_bank_model *m, const kit_access *a, size_t n)
{
    kit_bank_report r;
    char err[200] = "";
    int rc = kit_bank_simulate(m, a, n, &r, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0, "the simulator refused a good trace: %s", err);
    return r;
}

static unsigned gcd(unsigned a, unsigned b)
{
    while (b) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Thread t reads word t * s: banks repeat every 32 / gcd(s, 32) threads, so each bank holds gcd(s, 32) words. */
static void test_strides(void)
{
    kit_access a[32];
    for (unsigned s = 1; s <= 64; s++) {
        for (unsigned t = 0; t < 32; t++)
            a[t] = acc_at(0, t, 0, 4 * s * t, 4, 0);
        kit_bank_report r = sim(&W32, a, 32);
        KIT_ASSERT_MSG(r.load.steps == 1 && r.load.cost == gcd(s, 32) && r.load.conflicts == gcd(s, 32) - 1,
                       "stride %u: steps %llu cost %llu conflicts %llu, expected 1 %u %u", s,
                       (unsigned long long)r.load.steps, (unsigned long long)r.load.cost,
                       (unsigned long long)r.load.conflicts, gcd(s, 32), gcd(s, 32) - 1);
        kit_bank_free(&r);
    }
}

static void test_multicast(void)
{
    kit_access a[32];
    for (unsigned t = 0; t < 32; t++)
        a[t] = acc_at(0, t, 0, 40, 4, 0); /* every thread, one word */
    kit_bank_report r = sim(&W32, a, 32);
    KIT_ASSERT_MSG(r.load.cost == 1 && r.load.conflicts == 0, "broadcast: cost %llu conflicts %llu",
                   (unsigned long long)r.load.cost, (unsigned long long)r.load.conflicts);
    kit_bank_free(&r);
    /* Threads 0 and 1 read word 0, thread 2 reads word 32: bank 0 serves two distinct words. */
    kit_access b[3] = {acc_at(0, 0, 0, 0, 4, 0), acc_at(0, 1, 0, 0, 4, 0), acc_at(0, 2, 0, 128, 4, 0)};
    r = sim(&W32, b, 3);
    KIT_ASSERT_MSG(r.load.cost == 2 && r.load.conflicts == 1, "two readers of word 0 plus word 32: cost %llu",
                   (unsigned long long)r.load.cost);
    kit_bank_free(&r);
    /* Bytes of one word, read by all threads: one word, free. */
    for (unsigned t = 0; t < 32; t++)
        a[t] = acc_at(0, t, 0, 8 + t % 4, 1, 0);
    r = sim(&W32, a, 32);
    KIT_ASSERT_MSG(r.load.cost == 1 && r.load.conflicts == 0, "bytes of one word: cost %llu",
                   (unsigned long long)r.load.cost);
    kit_bank_free(&r);
}

/* At one ordinal, lanes 0-15 store and lanes 16-31 load, all in bank 0: two steps of 16 words each. */
static void test_mixed_read_write(void)
{
    kit_access a[32];
    for (unsigned t = 0; t < 32; t++)
        a[t] = acc_at(0, t, 0, 128 * t, 4, t < 16);
    kit_bank_report r = sim(&W32, a, 32);
    KIT_ASSERT_MSG(r.load.steps == 1 && r.store.steps == 1 && r.load.cost == 16 && r.store.cost == 16 &&
                       r.load.conflicts == 15 && r.store.conflicts == 15,
                   "mixed: load %llu/%llu, store %llu/%llu", (unsigned long long)r.load.cost,
                   (unsigned long long)r.load.conflicts, (unsigned long long)r.store.cost,
                   (unsigned long long)r.store.conflicts);
    kit_bank_free(&r);
}

/* Block 0 warp 0 conflict-free, block 0 warp 1 stride 2, block 1 warp 0 stride 32; the trace is shuffled. */
static void test_warps_blocks_and_order(void)
{
    kit_access a[96];
    for (unsigned t = 0; t < 32; t++) {
        a[t] = acc_at(0, t, 0, 4 * t, 4, 0);
        a[32 + t] = acc_at(0, 32 + t, 0, 8 * t, 4, 0);
        a[64 + t] = acc_at(1, t, 0, 128 * t, 4, 0);
    }
    for (unsigned i = 0; i < 96; i++) { /* a fixed shuffle */
        unsigned j = (i * 37 + 11) % 96;
        kit_access x = a[i];
        a[i] = a[j];
        a[j] = x;
    }
    kit_bank_report r = sim(&W32, a, 96);
    KIT_ASSERT_MSG(r.blocks == 2 && r.warps == 2, "blocks %u warps %u, expected 2 2", r.blocks, r.warps);
    KIT_ASSERT_MSG(r.warp_load[0].conflicts == 0 && r.warp_load[1].conflicts == 1 && r.warp_load[2].conflicts == 31 &&
                       r.warp_load[3].steps == 0,
                   "per warp: %llu %llu %llu (steps of the empty warp %llu)", (unsigned long long)r.warp_load[0].conflicts,
                   (unsigned long long)r.warp_load[1].conflicts, (unsigned long long)r.warp_load[2].conflicts,
                   (unsigned long long)r.warp_load[3].steps);
    KIT_ASSERT_MSG(r.block_load[0].conflicts == 1 && r.block_load[1].conflicts == 31 && r.load.conflicts == 32 &&
                       r.load.cost == 1 + 2 + 32 && r.load.steps == 3,
                   "per block %llu %llu, kernel %llu (cost %llu)", (unsigned long long)r.block_load[0].conflicts,
                   (unsigned long long)r.block_load[1].conflicts, (unsigned long long)r.load.conflicts,
                   (unsigned long long)r.load.cost);
    kit_bank_free(&r);
}

/* Ordinals, not trace order, make steps: two accesses per thread, the second strided. */
static void test_ordinals_align(void)
{
    kit_access a[64];
    for (unsigned t = 0; t < 32; t++) {
        a[2 * t] = acc_at(0, t, 1, 16 * t, 4, 0); /* ordinal 1 first in the trace */
        a[2 * t + 1] = acc_at(0, t, 0, 4 * t, 4, 0);
    }
    kit_bank_report r = sim(&W32, a, 64);
    KIT_ASSERT_MSG(r.load.steps == 2 && r.load.conflicts == 3 && r.load.cost == 1 + 4, "steps %llu conflicts %llu",
                   (unsigned long long)r.load.steps, (unsigned long long)r.load.conflicts);
    kit_bank_free(&r);
}

/* 8-byte accesses on 4-byte banks: two half-warp phases, each charged as a warp access. */
static void test_wide_accesses(void)
{
    kit_access a[32];
    for (unsigned t = 0; t < 32; t++)
        a[t] = acc_at(0, t, 0, 8 * t, 8, 0);
    kit_bank_report r = sim(&W32, a, 32);
    KIT_ASSERT_MSG(r.load.cost == 2 && r.load.conflicts == 0, "8-byte stride 1: cost %llu conflicts %llu",
                   (unsigned long long)r.load.cost, (unsigned long long)r.load.conflicts);
    kit_bank_free(&r);
    /* stride 2 (16 bytes apart): each half-warp's 16 threads cover words 4t, 4t+1: banks hold 2 words -> cost 2 per phase. */
    for (unsigned t = 0; t < 32; t++)
        a[t] = acc_at(0, t, 0, 16 * t, 8, 0);
    r = sim(&W32, a, 32);
    KIT_ASSERT_MSG(r.load.cost == 4 && r.load.conflicts == 2, "8-byte stride 2: cost %llu conflicts %llu",
                   (unsigned long long)r.load.cost, (unsigned long long)r.load.conflicts);
    kit_bank_free(&r);
    /* Kepler's 8-byte banks: the same stride-1 access is one word per bank. */
    kit_bank_model kepler = {32, 8};
    for (unsigned t = 0; t < 32; t++)
        a[t] = acc_at(0, t, 0, 8 * t, 8, 0);
    r = sim(&kepler, a, 32);
    KIT_ASSERT_MSG(r.load.cost == 1 && r.load.conflicts == 0, "8-byte banks: cost %llu", (unsigned long long)r.load.cost);
    kit_bank_free(&r);
}

static void test_partial_warp_and_small_w(void)
{
    kit_access a[12];
    for (unsigned t = 0; t < 5; t++)
        a[t] = acc_at(0, t, 0, 4 * 32 * t, 4, 0); /* five lanes, one bank */
    kit_bank_report r = sim(&W32, a, 5);
    KIT_ASSERT_MSG(r.load.cost == 5 && r.load.conflicts == 4, "five lanes in bank 0: cost %llu",
                   (unsigned long long)r.load.cost);
    kit_bank_free(&r);
    /* w = 12: stride 5 is conflict free, stride 6 puts 6 words in banks 0 and 6 (001's Fig. 1). */
    kit_bank_model w12 = {12, 4};
    for (unsigned t = 0; t < 12; t++)
        a[t] = acc_at(0, t, 0, 4 * 5 * t, 4, 0);
    r = sim(&w12, a, 12);
    KIT_ASSERT_MSG(r.load.cost == 1, "w=12 stride 5: cost %llu", (unsigned long long)r.load.cost);
    kit_bank_free(&r);
    for (unsigned t = 0; t < 12; t++)
        a[t] = acc_at(0, t, 0, 4 * 6 * t, 4, 0);
    r = sim(&w12, a, 12);
    KIT_ASSERT_MSG(r.load.cost == 6 && r.load.conflicts == 5, "w=12 stride 6: cost %llu", (unsigned long long)r.load.cost);
    kit_bank_free(&r);
}

static void expect_refused(const kit_bank_model *m, kit_access a, const char *want)
{
    kit_bank_report r;
    char err[200] = "";
    int rc = kit_bank_simulate(m, &a, 1, &r, err, sizeof err);
    KIT_ASSERT_MSG(rc == -1 && strstr(err, want) != NULL, "expected a refusal mentioning '%s', got %d: %s", want, rc, err);
}

static void test_refusals(void)
{
    kit_access ok = acc_at(0, 0, 0, 0, 4, 0);
    kit_bank_model w0 = {0, 4}, big = {2000, 4}, word0 = {32, 0};
    expect_refused(&w0, ok, "bad model");
    expect_refused(&big, ok, "bad model");
    expect_refused(&word0, ok, "bad model");
    expect_refused(&W32, acc_at(0, 0, 0, 0, 3, 0), "size 3");
    expect_refused(&W32, acc_at(0, 5000, 0, 0, 4, 0), "thread 5000");
}

static void test_trace_round_trip(void)
{
    kit_access a[3] = {acc_at(0, 1, 2, 12, 4, 0), acc_at(7, 31, 0, 4092, 8, 1), acc_at(1, 0, 9, 0, 1, 0)};
    FILE *f = tmpfile();
    CU_ASSERT(kit_trace_write(f, a, 3) == 0);
    rewind(f);
    kit_access *back = NULL;
    size_t n = 0;
    char err[200] = "";
    int rc = kit_trace_read(f, &back, &n, err, sizeof err);
    fclose(f);
    int same = rc == 0 && n == 3;
    for (size_t i = 0; same && i < 3; i++) /* field by field: the struct has padding */
        same = back[i].block == a[i].block && back[i].thread == a[i].thread && back[i].ordinal == a[i].ordinal &&
               back[i].addr == a[i].addr && back[i].size == a[i].size && back[i].write == a[i].write;
    KIT_ASSERT_MSG(same, "round trip: rc %d, %zu accesses: %s", rc, n, err);
    free(back);
}

static void expect_bad_trace(const char *text, const char *want)
{
    FILE *f = tmpfile();
    fputs(text, f);
    rewind(f);
    kit_access *acc = NULL;
    size_t n = 0;
    char err[200] = "";
    int rc = kit_trace_read(f, &acc, &n, err, sizeof err);
    fclose(f);
    KIT_ASSERT_MSG(rc == -1 && strstr(err, want) != NULL, "trace %s: expected an error with '%s', got %d: %s", text,
                   want, rc, err);
    free(acc);
}

static void test_malformed_traces(void)
{
    expect_bad_trace("0 0 0 0 4 r\n", "not a kit trace");
    expect_bad_trace("# kit-trace 1\n0 0 0 4 r\n", "line 2");
    expect_bad_trace("# kit-trace 1\n0 x 0 0 4 r\n", "line 2");
    expect_bad_trace("# kit-trace 1\n0 0 0 0 3 r\n", "size 3");
    expect_bad_trace("# kit-trace 1\n0 0 0 0 4 x\n", "line 2");
    expect_bad_trace("# kit-trace 1\n0 0 0 4294967295 4 r\n", "out of range");
    expect_bad_trace("# kit-trace 1\n0 0 0 0 4 r junk\n", "unexpected text");
    expect_bad_trace("# kit-trace 1\n99999999999 0 0 0 4 r\n", "line 2");
}

static void register_tests(void)
{
    CU_pSuite s = kit_test_suite("bank-conflict simulator");
    kit_test_add(s, "strided loads: gcd(s, 32) - 1 conflicts", test_strides);
    kit_test_add(s, "multicast: a word read by many counts once", test_multicast);
    kit_test_add(s, "loads and stores at one ordinal are two steps", test_mixed_read_write);
    kit_test_add(s, "per warp, per block, per kernel; any trace order", test_warps_blocks_and_order);
    kit_test_add(s, "ordinals align the steps", test_ordinals_align);
    kit_test_add(s, "8-byte accesses in phases; 8-byte banks", test_wide_accesses);
    kit_test_add(s, "partial warps and w = 12", test_partial_warp_and_small_w);
    kit_test_add(s, "bad models and accesses refused", test_refusals);
    CU_pSuite t = kit_test_suite("trace files");
    kit_test_add(t, "write then read", test_trace_round_trip);
    kit_test_add(t, "malformed lines refused with their line", test_malformed_traces);
}

int main(void)
{
    return kit_test_main("bank tests", register_tests);
}
