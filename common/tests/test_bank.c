/* Unit tests of the bank-conflict simulator and the trace format (common/kit_bank.h), against counts worked out by hand. */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit_bank.h"
#include "kit_trace.h"
#include "kit_test.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_ACC 4096

static const kit_bank_model gpu = {32, 4};

/* ---- helpers -------------------------------------------------------------------- */

/* Simulates and fails the test (returning -1) if the simulator refuses the trace. */
static int simulate(const kit_bank_model *m, const kit_access *acc, size_t n, kit_bank_report *rep, const char *what)
{
    char err[256] = "";
    int rc = kit_bank_simulate(m, acc, n, rep, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0, "%s: the simulator refused the trace: %s", what, err);
    return rc;
}

/* Checks a count against {steps, cost, conflicts}. */
static void expect_count(const kit_bank_count *got, uint64_t steps, uint64_t cost, uint64_t conflicts, const char *what)
{
    KIT_ASSERT_MSG(got->steps == steps && got->cost == cost && got->conflicts == conflicts,
                   "%s: expected steps %llu, cost %llu, conflicts %llu; got %llu, %llu, %llu", what,
                   (unsigned long long)steps, (unsigned long long)cost, (unsigned long long)conflicts,
                   (unsigned long long)got->steps, (unsigned long long)got->cost,
                   (unsigned long long)got->conflicts);
}

/* One warp of w threads loading 4-byte words, thread t at word stride * t; returns the load count. */
static kit_bank_count strided_load(const kit_bank_model *m, unsigned threads, uint32_t stride, const char *what)
{
    kit_access acc[64];
    kit_bank_count none = {0, 0, 0};
    for (unsigned t = 0; t < threads; t++)
        acc[t] = kit_access_at(0, t, 0, 4 * stride * t, 4, 0);
    kit_bank_report rep;
    if (simulate(m, acc, threads, &rep, what) != 0)
        return none;
    kit_bank_count got = rep.load;
    expect_count(&rep.store, 0, 0, 0, what);
    kit_bank_free(&rep);
    return got;
}

/* A fixed-seed Fisher-Yates shuffle (splitmix-style steps), independent of the simulator's order. */
static void shuffle(kit_access *acc, size_t n, uint64_t seed)
{
    for (size_t i = n; i > 1; i--) {
        seed += 0x9e3779b97f4a7c15ull;
        uint64_t z = seed;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        size_t j = (size_t)(z % i);
        kit_access t = acc[i - 1];
        acc[i - 1] = acc[j];
        acc[j] = t;
    }
}

static int same_count(const kit_bank_count *a, const kit_bank_count *b)
{
    return a->steps == b->steps && a->cost == b->cost && a->conflicts == b->conflicts;
}

/* A temporary file holding the text, positioned at its start. */
static FILE *file_of(const char *text)
{
    FILE *f = tmpfile();
    if (!f || fputs(text, f) == EOF) {
        perror("file_of");
        exit(2);
    }
    rewind(f);
    return f;
}

/* ---- kit_bank_simulate ------------------------------------------------------------ */

/* kit_access_at: each field where it belongs, write as 0 or 1, and the rest of the record zero. */
static void test_access_at(void)
{
    kit_access a = kit_access_at(7, 33, 5, 4096, 8, 2);
    KIT_ASSERT_MSG(a.block == 7 && a.thread == 33 && a.ordinal == 5 && a.addr == 4096 && a.size == 8 && a.write == 1,
                   "kit_access_at(7, 33, 5, 4096, 8, 2): got block %u thread %u ordinal %u addr %u size %u write %u",
                   a.block, a.thread, a.ordinal, a.addr, a.size, a.write);
    KIT_ASSERT_MSG(a.site == 0 && a.sync == 0 && a.visit == 0, "kit_access_at: site %u sync %u visit %u, expected 0 0 0",
                   a.site, a.sync, a.visit);
    a = kit_access_at(0, 1, 2, 3, 4, 0);
    KIT_ASSERT_MSG(a.write == 0, "kit_access_at(..., 0): a store (write %u), expected a load", a.write);
}

static void test_strides(void)
{
    /* Thread t reads word s*t: the 32 words fall in 32/g banks, g = gcd(s, 32) distinct words each. */
    static const struct {
        uint32_t stride;
        uint64_t cost;
    } want[] = {{1, 1}, {2, 2}, {3, 1}, {4, 4}, {8, 8}, {16, 16}, {32, 32}, {33, 1}, {0, 1}};
    for (size_t i = 0; i < ARRAY_LEN(want); i++) {
        char what[64];
        snprintf(what, sizeof what, "stride %u", want[i].stride);
        kit_bank_count c = strided_load(&gpu, 32, want[i].stride, what);
        expect_count(&c, 1, want[i].cost, want[i].cost - 1, what);
    }
}

static void test_broadcast_and_multicast(void)
{
    kit_access acc[32];
    kit_bank_report rep;
    /* Every thread reads word 7: one word, served once. */
    for (unsigned t = 0; t < 32; t++)
        acc[t] = kit_access_at(0, t, 0, 28, 4, 0);
    if (simulate(&gpu, acc, 32, &rep, "broadcast") == 0) {
        expect_count(&rep.load, 1, 1, 0, "broadcast");
        kit_bank_free(&rep);
    }
    /* Threads 0 and 1 read word 0, thread 2 word 32 (bank 0 too): two distinct words in bank 0. */
    acc[0] = kit_access_at(0, 0, 0, 0, 4, 0);
    acc[1] = kit_access_at(0, 1, 0, 0, 4, 0);
    acc[2] = kit_access_at(0, 2, 0, 128, 4, 0);
    if (simulate(&gpu, acc, 3, &rep, "multicast plus one") == 0) {
        expect_count(&rep.load, 1, 2, 1, "two threads on word 0, one on word 32");
        kit_bank_free(&rep);
    }
}

static void test_bytes_in_one_word(void)
{
    kit_access acc[32];
    kit_bank_report rep;
    /* Byte t % 4 of word 0 for every thread: all within one word. */
    for (unsigned t = 0; t < 32; t++)
        acc[t] = kit_access_at(0, t, 0, t % 4, 1, 0);
    if (simulate(&gpu, acc, 32, &rep, "bytes of word 0") == 0) {
        expect_count(&rep.load, 1, 1, 0, "1-byte loads within word 0");
        kit_bank_free(&rep);
    }
    /* Byte t: words 0 .. 7, one per bank. */
    for (unsigned t = 0; t < 32; t++)
        acc[t] = kit_access_at(0, t, 0, t, 1, 0);
    if (simulate(&gpu, acc, 32, &rep, "bytes 0 .. 31") == 0) {
        expect_count(&rep.load, 1, 1, 0, "1-byte loads of bytes 0 .. 31");
        kit_bank_free(&rep);
    }
    /* 2-byte halves of word 32t (byte 128t, or 128t + 2 for odd t): 32 distinct words, all in bank 0. */
    for (unsigned t = 0; t < 32; t++)
        acc[t] = kit_access_at(0, t, 0, 128 * t + 2 * (t % 2), 2, 0);
    if (simulate(&gpu, acc, 32, &rep, "2-byte") == 0) {
        expect_count(&rep.load, 1, 32, 31, "2-byte loads, one per word 32t");
        kit_bank_free(&rep);
    }
    /* Halves of word 16t: banks 0 and 16 take 16 words each. */
    for (unsigned t = 0; t < 32; t++)
        acc[t] = kit_access_at(0, t, 0, 64 * t + 2 * (t % 2), 2, 0);
    if (simulate(&gpu, acc, 32, &rep, "2-byte, banks 0 and 16") == 0) {
        expect_count(&rep.load, 1, 16, 15, "2-byte loads, one per word 16t");
        kit_bank_free(&rep);
    }
}

static void test_loads_and_stores_apart(void)
{
    /* Ordinal 0: threads 0..15 load word 32t (bank 0, 16 words), threads 16..31 store word t (distinct banks). */
    kit_access acc[32];
    kit_bank_report rep;
    for (unsigned t = 0; t < 16; t++)
        acc[t] = kit_access_at(0, t, 0, 4 * 32 * t, 4, 0);
    for (unsigned t = 16; t < 32; t++)
        acc[t] = kit_access_at(0, t, 0, 4 * t, 4, 1);
    if (simulate(&gpu, acc, 32, &rep, "mixed") == 0) {
        expect_count(&rep.load, 1, 16, 15, "loads of the mixed step");
        expect_count(&rep.store, 1, 1, 0, "stores of the mixed step");
        kit_bank_free(&rep);
    }
}

static void test_warps_and_blocks(void)
{
    /*
     * Block 0, warp 0: stride 2 (cost 2) at ordinal 0 and stride 1 (cost 1) at ordinal 1.
     * Block 0, warp 1 (threads 32..63): word 4t, banks 0, 4, .., 28 with 4 words each (cost 4).
     * Block 1, warp 0: broadcast (cost 1). Block 1 has no warp 1 accesses.
     */
    kit_access acc[160];
    size_t n = 0;
    for (unsigned t = 0; t < 32; t++) {
        acc[n++] = kit_access_at(0, t, 0, 8 * t, 4, 0);
        acc[n++] = kit_access_at(0, t, 1, 4 * t, 4, 0);
        acc[n++] = kit_access_at(0, 32 + t, 0, 16 * (32 + t), 4, 0);
        acc[n++] = kit_access_at(1, t, 0, 0, 4, 0);
    }
    kit_bank_report rep;
    if (simulate(&gpu, acc, n, &rep, "warps and blocks") != 0)
        return;
    KIT_ASSERT_MSG(rep.blocks == 2 && rep.warps == 2, "expected 2 blocks of 2 warps, got %u blocks of %u warps",
                   rep.blocks, rep.warps);
    if (rep.blocks == 2 && rep.warps == 2) {
        expect_count(&rep.warp_load[0], 2, 3, 1, "block 0 warp 0");
        expect_count(&rep.warp_load[1], 1, 4, 3, "block 0 warp 1");
        expect_count(&rep.warp_load[2], 1, 1, 0, "block 1 warp 0");
        expect_count(&rep.warp_load[3], 0, 0, 0, "block 1 warp 1");
        expect_count(&rep.block_load[0], 3, 7, 4, "block 0");
        expect_count(&rep.block_load[1], 1, 1, 0, "block 1");
        for (size_t i = 0; i < 4; i++)
            expect_count(&rep.warp_store[i], 0, 0, 0, "stores of a warp");
    }
    expect_count(&rep.load, 4, 8, 4, "the kernel's loads");
    expect_count(&rep.store, 0, 0, 0, "the kernel's stores");
    kit_bank_free(&rep);
}

/* An access of a site: acc_at with the site, sync and visit the emulator records. */
static kit_access site_at(uint32_t thread, uint32_t ordinal, uint32_t site, uint32_t sync, uint32_t visit, uint32_t word)
{
    kit_access a = kit_access_at(0, thread, ordinal, word * 4, 4, 0);
    a.site = site, a.sync = sync, a.visit = visit;
    return a;
}

/* Load conflicts of a trace under a warp model, or -1 with an assertion when the simulator refuses it. */
static long long conflicts_as(kit_bank_group group, const kit_access *acc, size_t n, const char *what)
{
    kit_bank_report rep;
    char err[160] = "";
    int rc = kit_bank_simulate_grouped(&gpu, group, acc, n, &rep, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0, "%s: the simulator refused the trace: %s", what, err);
    long long c = rc == 0 ? (long long)rep.load.conflicts : -1;
    kit_bank_free(&rep);
    return c;
}

/*
 * The two warp models. A data-dependent loop: thread 0 reads site 1 twice, then site 2 at word 32;
 * thread 1 skips the loop and reads site 2 at word 0, its first access. The hardware issues site
 * 2 once for both (bank 0 twice: 1 conflict); lock-step pairs thread 1's site-2 read with thread
 * 0's first site-1 read (banks 0 and 5: none).
 */
static void test_warp_models(void)
{
    kit_access loop[] = {site_at(0, 0, 1, 0, 0, 5), site_at(0, 1, 1, 0, 1, 6), site_at(0, 2, 2, 0, 0, 32),
                         site_at(1, 0, 2, 0, 0, 0)};
    long long by_site = conflicts_as(KIT_GROUP_SITE, loop, ARRAY_LEN(loop), "loop, by site");
    long long lockstep = conflicts_as(KIT_GROUP_LOCKSTEP, loop, ARRAY_LEN(loop), "loop, lock-step");
    KIT_ASSERT_MSG(by_site == 1 && lockstep == 0, "loop: expected 1 conflict by site and 0 in lock-step, got %lld and %lld",
                   by_site, lockstep);
    kit_bank_report rep;
    char err[160] = "";
    KIT_ASSERT_MSG(kit_bank_simulate(&gpu, loop, ARRAY_LEN(loop), &rep, err, sizeof err) == 0 && rep.load.conflicts == 1,
                   "kit_bank_simulate must count by site, as the hardware issues");
    kit_bank_free(&rep);
    /* The same site and visit after another barrier is another step: no conflict then. */
    kit_access apart[] = {site_at(0, 0, 1, 0, 0, 0), site_at(1, 0, 1, 1, 0, 32)};
    long long c = conflicts_as(KIT_GROUP_SITE, apart, ARRAY_LEN(apart), "two syncs");
    KIT_ASSERT_MSG(c == 0, "a site visited after different barriers: expected 0 conflicts, got %lld", c);
    apart[1].sync = 0;
    c = conflicts_as(KIT_GROUP_SITE, apart, ARRAY_LEN(apart), "one sync");
    KIT_ASSERT_MSG(c == 1, "a site visited after the same barrier: expected 1 conflict, got %lld", c);
    /* Site 0 (unknown, a version-1 trace) is grouped by ordinal in both models. */
    kit_access old[] = {kit_access_at(0, 0, 0, 0, 4, 0), kit_access_at(0, 1, 0, 128, 4, 0)};
    c = conflicts_as(KIT_GROUP_SITE, old, ARRAY_LEN(old), "site 0");
    KIT_ASSERT_MSG(c == 1, "accesses of site 0 at one ordinal: expected 1 conflict, got %lld", c);
    /* A warp model that is neither is refused. */
    int rc = kit_bank_simulate_grouped(&gpu, (kit_bank_group)7, old, ARRAY_LEN(old), &rep, err, sizeof err);
    KIT_ASSERT_MSG(rc == -1 && strstr(err, "bad warp model 7"), "warp model 7: expected a refusal, got %d \"%s\"", rc, err);
}

static void test_order_does_not_matter(void)
{
    /* Two warps, three ordinals, loads and stores; the same numbers in any order. */
    kit_access acc[64 * 3];
    size_t n = 0;
    for (unsigned t = 0; t < 64; t++) {
        acc[n++] = kit_access_at(0, t, 0, 4 * 2 * t, 4, 0);
        acc[n++] = kit_access_at(0, t, 1, 4 * 32 * (t % 4), 4, 1);
        acc[n++] = kit_access_at(0, t, 2, 4 * (t / 2), 4, 0);
    }
    kit_bank_report in_order, shuffled;
    if (simulate(&gpu, acc, n, &in_order, "in order") != 0)
        return;
    /* Per warp: ordinal 0 cost 2, ordinal 2 cost 1 (pairs share words); stores: 4 words in bank 0, cost 4. */
    expect_count(&in_order.load, 4, 6, 2, "loads in order");
    expect_count(&in_order.store, 2, 8, 6, "stores in order");
    for (uint64_t seed = 1; seed <= 5; seed++) {
        shuffle(acc, n, seed);
        if (simulate(&gpu, acc, n, &shuffled, "shuffled") != 0)
            break;
        int same = same_count(&in_order.load, &shuffled.load) && same_count(&in_order.store, &shuffled.store);
        for (size_t w = 0; w < 2 && same; w++)
            same = same_count(&in_order.warp_load[w], &shuffled.warp_load[w]) &&
                   same_count(&in_order.warp_store[w], &shuffled.warp_store[w]);
        KIT_ASSERT_MSG(same, "shuffle seed %llu changed the counts: loads cost %llu, stores cost %llu",
                       (unsigned long long)seed, (unsigned long long)shuffled.load.cost,
                       (unsigned long long)shuffled.store.cost);
        kit_bank_free(&shuffled);
    }
    kit_bank_free(&in_order);
}

static void test_wide_accesses(void)
{
    kit_access acc[32];
    kit_bank_report rep;
    /* 8 bytes, stride 1: two phases of 16 lanes, each 32 words in 32 banks. */
    for (unsigned t = 0; t < 32; t++)
        acc[t] = kit_access_at(0, t, 0, 8 * t, 8, 0);
    if (simulate(&gpu, acc, 32, &rep, "8-byte stride 1") == 0) {
        expect_count(&rep.load, 1, 2, 0, "8-byte stride 1");
        kit_bank_free(&rep);
    }
    /*
     * 8 bytes, 16 bytes apart: lane t reads words 4t and 4t+1. Lanes 0..15 (one phase)
     * put words 4t and 4(t+8) in bank 4t mod 32, and 4t+1, 4(t+8)+1 in the next bank:
     * 2 words a bank, cost 2; lanes 16..31 likewise. Cost 4, minus 2 phases: 2 conflicts.
     */
    for (unsigned t = 0; t < 32; t++)
        acc[t] = kit_access_at(0, t, 0, 16 * t, 8, 0);
    if (simulate(&gpu, acc, 32, &rep, "8-byte stride 2") == 0) {
        expect_count(&rep.load, 1, 4, 2, "8-byte accesses 16 bytes apart");
        kit_bank_free(&rep);
    }
    /* 16 bytes, stride 1: four phases of 8 lanes, each 32 consecutive words. */
    for (unsigned t = 0; t < 32; t++)
        acc[t] = kit_access_at(0, t, 0, 16 * t, 16, 0);
    if (simulate(&gpu, acc, 32, &rep, "16-byte stride 1") == 0) {
        expect_count(&rep.load, 1, 4, 0, "16-byte stride 1");
        kit_bank_free(&rep);
    }
    /*
     * 8-byte banks (Kepler's 8-byte mode). 8-byte loads, stride 1: word t, one per bank, one phase.
     * 4-byte loads at byte 4t: threads 2k and 2k+1 share word k, 16 words in 16 banks: cost 1.
     * 4-byte loads at byte 64t: word 8t, banks 0, 8, 16, 24 with 8 words each: cost 8.
     */
    const kit_bank_model kepler = {32, 8};
    for (unsigned t = 0; t < 32; t++)
        acc[t] = kit_access_at(0, t, 0, 8 * t, 8, 0);
    if (simulate(&kepler, acc, 32, &rep, "8-byte banks, 8-byte loads") == 0) {
        expect_count(&rep.load, 1, 1, 0, "8-byte banks, 8-byte loads, stride 1");
        kit_bank_free(&rep);
    }
    for (unsigned t = 0; t < 32; t++)
        acc[t] = kit_access_at(0, t, 0, 4 * t, 4, 0);
    if (simulate(&kepler, acc, 32, &rep, "8-byte banks, 4-byte neighbours") == 0) {
        expect_count(&rep.load, 1, 1, 0, "8-byte banks, 4-byte loads sharing words");
        kit_bank_free(&rep);
    }
    for (unsigned t = 0; t < 32; t++)
        acc[t] = kit_access_at(0, t, 0, 64 * t, 4, 0);
    if (simulate(&kepler, acc, 32, &rep, "8-byte banks, stride 64 bytes") == 0) {
        expect_count(&rep.load, 1, 8, 7, "8-byte banks, 4-byte loads 64 bytes apart");
        kit_bank_free(&rep);
    }
    /* 8 bytes, only lanes 0..15 (phase 1 empty): one phase, cost 1, no conflict. */
    for (unsigned t = 0; t < 16; t++)
        acc[t] = kit_access_at(0, t, 0, 8 * t, 8, 0);
    if (simulate(&gpu, acc, 16, &rep, "8-byte half warp") == 0) {
        expect_count(&rep.load, 1, 1, 0, "8-byte loads of lanes 0..15");
        kit_bank_free(&rep);
    }
    /*
     * Measured on Hopper (bankcheck case 87): lanes 0..15 read 8-byte element 0, lanes 16..31
     * element 16, the same bank pair. Each phase costs 1 (cost 2), but the profiler charges 1
     * conflict: the busiest bank holds 2 distinct words, and 4 distinct words need 1 wavefront.
     */
    for (unsigned t = 0; t < 32; t++)
        acc[t] = kit_access_at(0, t, 0, t < 16 ? 0 : 128, 8, 0);
    if (simulate(&gpu, acc, 32, &rep, "two 8-byte words, one bank pair") == 0) {
        expect_count(&rep.load, 1, 2, 1, "8-byte loads of two words in one bank pair, half a warp each");
        kit_bank_free(&rep);
    }
    /* Case 86: every lane reads one 8-byte word: no conflict either way. */
    for (unsigned t = 0; t < 32; t++)
        acc[t] = kit_access_at(0, t, 0, 64, 8, 0);
    if (simulate(&gpu, acc, 32, &rep, "one 8-byte word") == 0) {
        expect_count(&rep.load, 1, 2, 0, "8-byte loads of one word by every lane");
        kit_bank_free(&rep);
    }
}

static void test_partial_warp(void)
{
    /* Lanes 0..4 only, all in bank 0 at words 32t: 5 distinct words. */
    kit_bank_count c = strided_load(&gpu, 5, 32, "lanes 0..4, stride 32");
    expect_count(&c, 1, 5, 4, "lanes 0..4, stride 32");
    c = strided_load(&gpu, 5, 1, "lanes 0..4, stride 1");
    expect_count(&c, 1, 1, 0, "lanes 0..4, stride 1");
}

static void test_small_models(void)
{
    /* The papers' small machines. w = 12: stride 5 is coprime, stride 6 uses banks 0 and 6 only (6 words each). */
    const kit_bank_model w12 = {12, 4}, w9 = {9, 4};
    kit_bank_count c = strided_load(&w12, 12, 5, "w = 12 stride 5");
    expect_count(&c, 1, 1, 0, "w = 12 stride 5");
    c = strided_load(&w12, 12, 6, "w = 12 stride 6");
    expect_count(&c, 1, 6, 5, "w = 12 stride 6");
    c = strided_load(&w12, 12, 4, "w = 12 stride 4");
    expect_count(&c, 1, 4, 3, "w = 12 stride 4 (banks 0, 4, 8)");
    /* w = 9: stride 3 gives banks 0, 3, 6 with 3 words each; stride 2 is coprime. */
    c = strided_load(&w9, 9, 3, "w = 9 stride 3");
    expect_count(&c, 1, 3, 2, "w = 9 stride 3");
    c = strided_load(&w9, 9, 2, "w = 9 stride 2");
    expect_count(&c, 1, 1, 0, "w = 9 stride 2");
    /* With w = 12, threads 12..23 are warp 1. */
    kit_access acc[24];
    for (unsigned t = 0; t < 24; t++)
        acc[t] = kit_access_at(0, t, 0, 4 * 6 * t, 4, 0);
    kit_bank_report rep;
    if (simulate(&w12, acc, 24, &rep, "w = 12, two warps") == 0) {
        KIT_ASSERT_MSG(rep.warps == 2, "w = 12, threads 0..23: expected 2 warps, got %u", rep.warps);
        if (rep.warps == 2)
            expect_count(&rep.warp_load[1], 1, 6, 5, "w = 12 warp 1, stride 6");
        kit_bank_free(&rep);
    }
}

static void test_refusals(void)
{
    kit_access good = kit_access_at(0, 0, 0, 0, 4, 0);
    kit_access bad_size = kit_access_at(0, 0, 0, 0, 3, 0);
    kit_access bad_thread = kit_access_at(0, 5000, 0, 0, 4, 0);
    static const kit_bank_model w0 = {0, 4}, w2000 = {2000, 4}, word0 = {32, 0};
    const struct {
        const kit_bank_model *m;
        const kit_access *a;
        const char *what;
    } cases[] = {{&w0, &good, "w = 0"},         {&w2000, &good, "w = 2000"},          {&word0, &good, "word 0"},
                 {&gpu, &bad_size, "size 3"}, {&gpu, &bad_thread, "thread 5000"}};
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        char err[256] = "";
        kit_bank_report rep;
        int rc = kit_bank_simulate(cases[i].m, cases[i].a, 1, &rep, err, sizeof err);
        KIT_ASSERT_MSG(rc == -1, "%s: expected -1, got %d", cases[i].what, rc);
        KIT_ASSERT_MSG(err[0] != '\0', "%s: refused without a message", cases[i].what);
        KIT_ASSERT_MSG(rep.block_load == NULL && rep.warp_load == NULL, "%s: a refused report should hold no arrays",
                       cases[i].what);
        if (rc == 0)
            kit_bank_free(&rep);
    }
}

static void test_free(void)
{
    kit_access acc[2] = {kit_access_at(0, 0, 0, 0, 4, 0), kit_access_at(1, 40, 0, 4, 4, 1)};
    kit_bank_report rep;
    if (simulate(&gpu, acc, 2, &rep, "free") != 0)
        return;
    kit_bank_free(&rep);
    KIT_ASSERT_MSG(rep.block_load == NULL && rep.block_store == NULL && rep.warp_load == NULL &&
                       rep.warp_store == NULL && rep.blocks == 0 && rep.warps == 0 && rep.load.steps == 0,
                   "kit_bank_free should leave an empty report");
    kit_bank_free(&rep); /* twice is harmless */
    /* An empty trace gives an empty report. */
    if (simulate(&gpu, acc, 0, &rep, "empty") == 0) {
        KIT_ASSERT_MSG(rep.blocks == 0 && rep.warps == 0 && rep.load.steps == 0 && rep.store.steps == 0,
                       "empty trace: expected an empty report, got %u blocks, %u warps", rep.blocks, rep.warps);
        kit_bank_free(&rep);
    }
}

/* ---- kit_trace_write and kit_trace_read -------------------------------------------- */

static void test_trace_round_trip(void)
{
    kit_access acc[] = {kit_access_at(0, 0, 0, 0, 4, 0),           kit_access_at(3, 1023, 7, 4294967280u, 16, 1),
                        kit_access_at(16777215, 5, 4294967295u, 1, 1, 0), kit_access_at(2, 31, 1, 6, 2, 1),
                        kit_access_at(0, 1, 0, 8, 8, 0)};
    acc[1].site = 4294967295u, acc[1].sync = 12, acc[1].visit = 3; /* version 2's fields, at their extremes */
    acc[3].site = 2, acc[3].sync = 4294967295u, acc[3].visit = 4294967295u;
    FILE *f = tmpfile();
    if (!f) {
        kit_test_fail(__FILE__, __LINE__, "tmpfile failed");
        return;
    }
    int rc = kit_trace_write(f, acc, ARRAY_LEN(acc));
    KIT_ASSERT_MSG(rc == 0, "kit_trace_write: expected 0, got %d", rc);
    rewind(f);
    char first[64] = "";
    KIT_ASSERT_MSG(fgets(first, sizeof first, f) && strcmp(first, "# kit-trace 2\n") == 0,
                   "the first line should be the header, got \"%s\"", first);
    rewind(f);
    kit_access *back = NULL;
    size_t n = 0;
    char err[256] = "";
    rc = kit_trace_read(f, &back, &n, err, sizeof err);
    fclose(f);
    KIT_ASSERT_MSG(rc == 0, "kit_trace_read of a written trace: %s", err);
    KIT_ASSERT_MSG(n == ARRAY_LEN(acc), "expected %zu accesses back, got %zu", ARRAY_LEN(acc), n);
    for (size_t i = 0; rc == 0 && i < n && i < ARRAY_LEN(acc); i++)
        KIT_ASSERT_MSG(back[i].block == acc[i].block && back[i].thread == acc[i].thread &&
                           back[i].ordinal == acc[i].ordinal && back[i].addr == acc[i].addr &&
                           back[i].size == acc[i].size && back[i].write == acc[i].write && back[i].site == acc[i].site &&
                           back[i].sync == acc[i].sync && back[i].visit == acc[i].visit,
                       "access %zu differs after the round trip", i);
    free(back);

    /* Hand-written: blank lines, other comments, tabs and CRLF are accepted. */
    FILE *g = file_of("# kit-trace 1\n\n# a comment\n0 1 2 12 4 r\r\n1\t2\t3\t16\t8\tw\n   \n");
    rc = kit_trace_read(g, &back, &n, err, sizeof err);
    fclose(g);
    KIT_ASSERT_MSG(rc == 0 && n == 2, "hand-written trace: expected 2 accesses, got rc %d, n %zu (%s)", rc, n, err);
    if (rc == 0 && n == 2)
        KIT_ASSERT_MSG(back[0].thread == 1 && back[0].addr == 12 && !back[0].write && back[1].block == 1 &&
                           back[1].size == 8 && back[1].write && back[0].site == 0 && back[1].visit == 0,
                       "hand-written trace of version 1 read wrongly (sites must read as 0)");
    free(back);
}

/* kit_trace_save: a file that reads back the same, and -1 (with a message) where it cannot write. */
static void test_trace_save(void)
{
    kit_access acc[] = {kit_access_at(0, 3, 0, 12, 4, 0), kit_access_at(1, 0, 2, 64, 8, 1)};
    char path[] = "/tmp/kit-trace-save-XXXXXX";
    int fd = mkstemp(path);
    KIT_ASSERT_MSG(fd >= 0, "mkstemp failed");
    if (fd < 0)
        return;
    close(fd);
    int rc = kit_trace_save(path, acc, ARRAY_LEN(acc));
    KIT_ASSERT_MSG(rc == 0, "kit_trace_save to %s: expected 0, got %d", path, rc);
    FILE *f = fopen(path, "r");
    kit_access *back = NULL;
    size_t n = 0;
    char err[256] = "";
    rc = f ? kit_trace_read(f, &back, &n, err, sizeof err) : -1;
    if (f)
        fclose(f);
    remove(path);
    KIT_ASSERT_MSG(rc == 0 && n == 2 && back[1].addr == 64 && back[1].write && back[0].thread == 3,
                   "the saved trace does not read back: rc %d, %zu accesses (%s)", rc, n, err);
    free(back);
    char said[256];
    kit_test_stderr_begin();
    rc = kit_trace_save("/nonexistent-folder/x.trace", acc, ARRAY_LEN(acc));
    kit_test_stderr_end(said, sizeof said);
    KIT_ASSERT_MSG(rc == -1, "saving into a missing folder: expected -1, got %d", rc);
    KIT_ASSERT_MSG(strstr(said, "cannot write the trace to /nonexistent-folder/x.trace") != NULL,
                   "saving into a missing folder: expected \"cannot write the trace to ...\" on stderr, got \"%s\"", said);
}

static void test_trace_malformed(void)
{
    /* Each bad line is line 3, after the header and one good line. */
    static const struct {
        const char *line;
        const char *want; /* a piece of the message */
    } bad[] = {
        {"0 1 2 3 4\n", "line 3: expected"},                 /* missing field */
        {"0 1 x 3 4 r\n", "line 3: expected"},               /* a letter in a number */
        {"0 1 2 3 3 r\n", "line 3: size 3"},                 /* size 3 */
        {"0 1 2 3 4 x\n", "line 3: expected"},               /* x instead of r or w */
        {"0 1 2 4294967295 4 r\n", "line 3: address"},       /* past 2^32 */
        {"0 1 2 4294967296 4 r\n", "line 3: expected"},      /* the number itself too big */
        {"0 1 2 3 4 r junk\n", "line 3: unexpected text"},   /* trailing junk */
        {"-1 1 2 3 4 r\n", "line 3: expected"},              /* a sign */
    };
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        char text[256], err[256] = "";
        snprintf(text, sizeof text, "# kit-trace 1\n0 0 0 0 4 r\n%s0 0 1 0 4 r\n", bad[i].line);
        FILE *f = file_of(text);
        kit_access *acc = (kit_access *)1;
        size_t n = 99;
        int rc = kit_trace_read(f, &acc, &n, err, sizeof err);
        fclose(f);
        KIT_ASSERT_MSG(rc == -1, "line \"%.*s\": expected -1, got %d", (int)strlen(bad[i].line) - 1, bad[i].line, rc);
        KIT_ASSERT_MSG(strstr(err, bad[i].want) != NULL, "line \"%.*s\": expected a message with \"%s\", got \"%s\"",
                       (int)strlen(bad[i].line) - 1, bad[i].line, bad[i].want, err);
        KIT_ASSERT_MSG(acc == NULL && n == 0, "a refused trace should give no accesses");
        if (rc == 0)
            free(acc);
    }
    /* No header: the first access line is refused. */
    char err[256] = "";
    kit_access *acc = NULL;
    size_t n = 0;
    FILE *f = file_of("0 0 0 0 4 r\n");
    int rc = kit_trace_read(f, &acc, &n, err, sizeof err);
    fclose(f);
    KIT_ASSERT_MSG(rc == -1 && strstr(err, "line 1: not a kit trace"), "no header: expected line 1 refused, got %d \"%s\"",
                   rc, err);
    /* An empty file has no header either. */
    f = file_of("");
    rc = kit_trace_read(f, &acc, &n, err, sizeof err);
    fclose(f);
    KIT_ASSERT_MSG(rc == -1 && strstr(err, "no '# kit-trace 2'"), "empty file: expected refusal, got %d \"%s\"", rc, err);
    /* Version 2 needs site, sync and visit after r|w. */
    f = file_of("# kit-trace 2\n0 0 0 0 4 r 1 0\n");
    rc = kit_trace_read(f, &acc, &n, err, sizeof err);
    fclose(f);
    KIT_ASSERT_MSG(rc == -1 && strstr(err, "line 2: expected 'site sync visit'"),
                   "version 2 line without its visit: expected line 2 refused, got %d \"%s\"", rc, err);
    /* A line longer than the reader's buffer. */
    char long_text[600];
    snprintf(long_text, sizeof long_text, "# kit-trace 1\n# %0400d\n", 0);
    f = file_of(long_text);
    rc = kit_trace_read(f, &acc, &n, err, sizeof err);
    fclose(f);
    KIT_ASSERT_MSG(rc == -1 && strstr(err, "line 2: longer than"), "long line: expected refusal, got %d \"%s\"", rc, err);
}

/* The sort key once overflowed 64 bits silently at the limits: 2^24 blocks x 1024 warps of one thread, ordinals to 2^32 - 1. */
static void test_key_overflow_refused(void)
{
    kit_access a[2];
    memset(a, 0, sizeof a);
    a[0].block = (1u << 24) - 1;
    a[0].thread = 1023;
    a[0].size = 4;
    a[1].ordinal = UINT32_MAX;
    a[1].size = 4;
    kit_bank_model w1 = {1, 4};
    kit_bank_report r;
    char err[200] = "";
    int rc = kit_bank_simulate(&w1, a, 2, &r, err, sizeof err);
    KIT_ASSERT_MSG(rc == -1 && strstr(err, "key bits") != NULL, "expected a refusal naming the key bits, got %d: %s", rc,
                   err);
    if (rc == 0)
        kit_bank_free(&r);
}


/* ---- kit_trace_stream_read: the grader's view of a runner's trace stream ----------------------- */

/* A stream in memory: records appended with put_*, read back through fmemopen. */
typedef struct stream_buf {
    unsigned char bytes[4096];
    size_t n;
} stream_buf;

static void put(stream_buf *b, uint32_t tag, const void *payload, size_t len)
{
    memcpy(b->bytes + b->n, &tag, sizeof tag);
    memcpy(b->bytes + b->n + sizeof tag, payload, len);
    b->n += sizeof tag + len;
}

static void put_launch(stream_buf *b, const char *name, unsigned threads, unsigned shared)
{
    kit_trace_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = 2, l.grid[1] = l.grid[2] = 1;
    l.block[0] = threads, l.block[1] = l.block[2] = 1;
    l.shared_bytes = shared;
    snprintf(l.name, sizeof l.name, "%s", name);
    put(b, KIT_TRACE_LAUNCH, &l, sizeof l);
}

static void put_access(stream_buf *b, uint32_t block, uint32_t thread, uint32_t ordinal, uint32_t addr, uint8_t size)
{
    kit_access a;
    memset(&a, 0, sizeof a);
    a.block = block, a.thread = thread, a.ordinal = ordinal, a.addr = addr, a.size = size;
    a.site = 1; /* the launch's first site, as the emulator numbers them */
    put(b, KIT_TRACE_ACCESS, &a, sizeof a);
}

static void put_end(stream_buf *b, uint64_t count)
{
    put(b, KIT_TRACE_END, &count, sizeof count);
}

/* Reads the stream for `kernel`; returns what kit_trace_stream_read returned, with the runs' counts. */
static int read_stream(stream_buf *b, const char *kernel, size_t *nruns, size_t *launches, size_t *accesses, char *err,
                       size_t len)
{
    FILE *f = fmemopen(b->bytes, b->n ? b->n : 1, "rb");
    if (b->n == 0)
        fgetc(f); /* an empty stream: fmemopen needs a size of at least one */
    kit_trace_run *runs;
    int rc = kit_trace_stream_read(f, kernel, &runs, nruns, launches, err, len);
    *accesses = 0;
    for (size_t r = 0; rc == 0 && r < *nruns; r++)
        *accesses += runs[r].n;
    kit_trace_runs_free(runs, *nruns);
    fclose(f);
    return rc;
}

static void test_stream_selects_kernel(void)
{
    stream_buf b = {{0}, 0};
    put_launch(&b, "merge_kernel<T>", 32, 256);
    put_access(&b, 0, 1, 0, 4, 4);
    put_end(&b, 1);
    put_launch(&b, "(cf_gather_probe<T, LO>)", 32, 256); /* a templated kernel, spelled in parentheses */
    put_access(&b, 1, 31, 0, 252, 4);
    put_access(&b, 0, 0, 1, 0, 8);
    put_end(&b, 2);
    size_t nruns, launches, accesses;
    char err[160] = "";
    int rc = read_stream(&b, "cf_gather_probe", &nruns, &launches, &accesses, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && nruns == 1 && launches == 2 && accesses == 2,
                   "stream of 2 launches, 1 measured: rc %d (%s), %zu runs, %zu launches, %zu accesses", rc, err, nruns,
                   launches, accesses);
    rc = read_stream(&b, ".", &nruns, &launches, &accesses, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && nruns == 2 && accesses == 3, "kernel '.': rc %d, %zu runs, %zu accesses", rc, nruns, accesses);
    rc = read_stream(&b, "merge", &nruns, &launches, &accesses, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && nruns == 0, "'merge' matched %zu runs of merge_kernel: a prefix is not a name", nruns);
    KIT_ASSERT_MSG(kit_trace_name_matches("pbs_kernel<T>", "pbs_kernel") && !kit_trace_name_matches("pbs_kernel2", "pbs_kernel"),
                   "kit_trace_name_matches: the name before its template arguments must equal the kernel");
}

/*
 * Global-memory records (KIT_TRACE_GLOBAL) go to a run's own array, share the launch's site numbering
 * with the shared accesses, and count towards its END; one with an address, or one outside a launch,
 * refuses the stream.
 */
static void test_stream_global_records(void)
{
    stream_buf b = {{0}, 0};
    kit_access g;
    memset(&g, 0, sizeof g);
    g.size = 8, g.write = 1, g.site = 2;
    put_launch(&b, "k", 32, 64);
    put_access(&b, 0, 0, 0, 0, 4); /* site 1 */
    put(&b, KIT_TRACE_GLOBAL, &g, sizeof g);
    g.thread = 1, g.site = 1;
    put(&b, KIT_TRACE_GLOBAL, &g, sizeof g);
    put_end(&b, 3);
    FILE *f = fmemopen(b.bytes, b.n, "rb");
    kit_trace_run *runs;
    size_t nruns, launches;
    char err[160] = "";
    int rc = kit_trace_stream_read(f, "k", &runs, &nruns, &launches, err, sizeof err);
    fclose(f);
    KIT_ASSERT_MSG(rc == 0 && nruns == 1 && runs[0].n == 1 && runs[0].nglobal == 2 && runs[0].global[1].thread == 1,
                   "one shared and two global records: rc %d (%s), %zu runs, %zu shared, %zu global", rc, err, nruns,
                   rc == 0 && nruns ? runs[0].n : 0, rc == 0 && nruns ? runs[0].nglobal : 0);
    if (rc == 0)
        kit_trace_runs_free(runs, nruns);
    for (int c = 0; c < 2; c++) {
        stream_buf bad = {{0}, 0};
        memset(&g, 0, sizeof g);
        g.size = 4, g.site = 1, g.addr = (uint32_t)(c == 0);
        if (c == 0)
            put_launch(&bad, "k", 32, 64);
        put(&bad, KIT_TRACE_GLOBAL, &g, sizeof g);
        put_end(&bad, 1);
        size_t accesses;
        rc = read_stream(&bad, "k", &nruns, &launches, &accesses, err, sizeof err);
        const char *want = c == 0 ? "a global access with an address" : "global-memory access outside any kernel launch";
        KIT_ASSERT_MSG(rc == -1 && strstr(err, want), "case %d: expected a refusal with '%s', got rc %d: '%s'", c, want, rc,
                       err);
    }
}

/* Every way a stream can be malformed is refused, with its reason. */
static void test_stream_refused(void)
{
    static const struct {
        const char *why; /* a word the error must hold */
        int shape;       /* which stream */
    } cases[] = {{"outside any kernel launch", 0}, {"thread index past", 1}, {"block index past", 2},
                 {"past the launch's shared memory", 3}, {"access size", 4}, {"reports 3 accesses", 5},
                 {"never ended", 6}, {"unknown record", 7}, {"inside an access record", 8},
                 {"before the previous one ended", 9}, {"inside a record's tag", 10},
                 {"site is not numbered in the order", 11}, {"site is not numbered in the order", 12},
                 {"visits its site more often", 13}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        stream_buf b = {{0}, 0};
        int s = cases[c].shape;
        if (s != 0)
            put_launch(&b, "k", 32, 64);
        if (s == 0 || s == 9)
            put_access(&b, 0, 0, 0, 0, 4);
        if (s == 9)
            put_launch(&b, "k", 32, 64);
        if (s == 1)
            put_access(&b, 0, 32, 0, 0, 4);
        if (s == 2)
            put_access(&b, 2, 0, 0, 0, 4);
        if (s == 3)
            put_access(&b, 0, 0, 0, 62, 4);
        if (s == 4)
            put_access(&b, 0, 0, 0, 0, 3);
        if (s == 5) {
            put_access(&b, 0, 0, 0, 0, 4);
            put_end(&b, 3);
        }
        if (s == 7) {
            uint32_t junk = 0x12345678;
            memcpy(b.bytes + b.n, &junk, sizeof junk);
            b.n += sizeof junk;
        }
        if (s == 8) {
            put_access(&b, 0, 0, 0, 0, 4);
            b.n -= 3;
        }
        if (s == 10) {
            put_end(&b, 0);
            b.n += 2; /* two stray bytes after the last record */
        }
        if (s >= 11) { /* a site of 0, a site that skips a number, a visit above the thread's ordinal */
            kit_access a;
            memset(&a, 0, sizeof a);
            a.size = 4;
            a.site = s == 11 ? 0 : s == 12 ? 2 : 1;
            a.visit = s == 13 ? 1 : 0;
            put(&b, KIT_TRACE_ACCESS, &a, sizeof a);
            put_end(&b, 1);
        }
        size_t nruns, launches, accesses;
        char err[160] = "";
        int rc = read_stream(&b, "k", &nruns, &launches, &accesses, err, sizeof err);
        KIT_ASSERT_MSG(rc == -1 && strstr(err, cases[c].why), "case %zu: expected a refusal with '%s', got rc %d: '%s'", c,
                       cases[c].why, rc, err);
    }
}

static void register_tests(void)
{
    CU_pSuite sim = kit_test_suite("kit_bank_simulate");
    kit_test_add(sim, "a trace whose sort key would pass 64 bits is refused", test_key_overflow_refused);
    kit_test_add(sim, "kit_access_at: the record of one access", test_access_at);
    kit_test_add(sim, "strided loads: gcd(s, 32) - 1 conflicts", test_strides);
    kit_test_add(sim, "broadcast and multicast", test_broadcast_and_multicast);
    kit_test_add(sim, "accesses narrower than a bank", test_bytes_in_one_word);
    kit_test_add(sim, "loads and stores of one ordinal are two steps", test_loads_and_stores_apart);
    kit_test_add(sim, "per-warp and per-block counts", test_warps_and_blocks);
    kit_test_add(sim, "ordinals align steps in any trace order", test_order_does_not_matter);
    kit_test_add(sim, "warp models: by site and visit, or in lock-step", test_warp_models);
    kit_test_add(sim, "8- and 16-byte accesses in phases", test_wide_accesses);
    kit_test_add(sim, "a partial warp", test_partial_warp);
    kit_test_add(sim, "the papers' small models, w = 12 and w = 9", test_small_models);
    kit_test_add(sim, "refusals", test_refusals);
    kit_test_add(sim, "kit_bank_free", test_free);

    CU_pSuite trace = kit_test_suite("trace format");
    kit_test_add(trace, "kit_trace_write then kit_trace_read", test_trace_round_trip);
    kit_test_add(trace, "malformed traces name the line", test_trace_malformed);
    kit_test_add(trace, "kit_trace_save writes a file that reads back", test_trace_save);
    kit_test_add(trace, "the trace stream: launches of the measured kernel", test_stream_selects_kernel);
    kit_test_add(trace, "the trace stream: malformed streams refused with their reason", test_stream_refused);
    kit_test_add(trace, "the trace stream: global-memory records", test_stream_global_records);
}

int main(void)
{
    return kit_test_main("bank tests", register_tests);
}
