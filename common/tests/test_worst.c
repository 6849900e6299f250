/* Unit tests of the worst-case generator (labs/08-worst-case/harness/worst_host.h, grader/ref/kit_ref.h): the papers' sequences and bounds, the simulator's counts, the sort's permutation. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit_gen.h"
#include "kit_test.h"
#include "kit_ref.h"

static const int WS[] = {4, 8, 12, 16, 32, 64};
#define NWS (int)(sizeof WS / sizeof WS[0])

/* SPAA 2025, Fig. 4: w = 12, E = 5 (left) and E = 9 (right, d = 3, one subproblem), read off the figure. */
static void test_subproblem_fig4(void)
{
    static const int a5[] = {2, 5, 5, 1, 0, 1, 5, 5, 2, 0, 5, 5}, b5[] = {3, 0, 0, 4, 5, 4, 0, 0, 3, 5, 0, 0};
    static const int a9[] = {3, 9, 3, 9}, b9[] = {6, 0, 6, 0};
    int a[12], b[12];
    int n = kit_worst_subproblem(12, 5, a, b);
    KIT_ASSERT_MSG(n == 12, "w = 12, E = 5: %d tuples, expected 12", n);
    for (int i = 0; i < 12 && n == 12; i++)
        KIT_ASSERT_MSG(a[i] == a5[i] && b[i] == b5[i], "E = 5, tuple %d: expected (%d, %d), got (%d, %d)", i, a5[i], b5[i], a[i], b[i]);
    n = kit_worst_subproblem(12, 9, a, b);
    KIT_ASSERT_MSG(n == 4, "w = 12, E = 9: %d tuples, expected w/d = 4", n);
    for (int i = 0; i < 4 && n == 4; i++)
        KIT_ASSERT_MSG(a[i] == a9[i] && b[i] == b9[i], "E = 9, tuple %d: expected (%d, %d), got (%d, %d)", i, a9[i], b9[i], a[i], b[i]);
    n = kit_worst_subproblem(16, 8, a, b); /* E divides w: q tuples (E, 0), sorted order */
    KIT_ASSERT_MSG(n == 2 && a[0] == 8 && b[0] == 0 && a[1] == 8 && b[1] == 0, "w = 16, E = 8: got %d tuples", n);
    KIT_ASSERT_MSG(kit_worst_subproblem(8, 9, a, b) == -1 && kit_worst_subproblem(8, 1, a, b) == -1,
                   "E > w and E = 1 must be refused");
}

/* The bounds, against the papers' own worked values. */
static void test_theorem(void)
{
    static const struct {
        int w, E;
        long want;
    } cases[] = {
        {16, 7, 49},   /* E <= w/2: E^2 */
        {32, 16, 256}, /* E = w/2 */
        {16, 9, 80},   /* IPDPS 2020: E = w/2 + 1 gives E^2 - 1 */
        {16, 15, 134}, /* IPDPS 2020: E = w - 1 gives E^2/2 + 3E/2 - 1 */
        {32, 17, 288}, /* CUB's E on sm_90 */
        {12, 9, 72},   /* SPAA 2025, d = 3: (81 + 54 + 27 - 9 - 9)/2 */
        {12, 12, 144}, /* E = w: sorted order, E^2 */
    };
    for (size_t x = 0; x < sizeof cases / sizeof cases[0]; x++) {
        long got = kit_worst_theorem(cases[x].w, cases[x].E);
        KIT_ASSERT_MSG(got == cases[x].want, "w = %d, E = %d: expected %ld, got %ld", cases[x].w, cases[x].E, cases[x].want, got);
    }
    KIT_ASSERT_MSG(kit_worst_theorem(8, 9) == -1 && kit_worst_theorem(1, 1) == -1, "bad w or E must give -1");
}

/* Every warp split takes E keys a thread and, for E odd, ceil(E/2)w keys of A in an L warp and floor in an R warp. */
static void test_warp_totals(void)
{
    kit_worst_split T[64];
    char err[200];
    for (int x = 0; x < NWS; x++)
        for (int E = 2; E <= WS[x]; E++)
            for (int left = 0; left <= 1; left++) {
                int w = WS[x];
                int rc = kit_worst_warp(w, E, left, T, err, sizeof err);
                KIT_ASSERT_MSG(rc == 0, "w = %d, E = %d: %s", w, E, err);
                long n_a = 0;
                for (int i = 0; i < w && rc == 0; i++) {
                    KIT_ASSERT_MSG(T[i].a >= 0 && T[i].b >= 0 && T[i].a + T[i].b == E, "w = %d, E = %d, thread %d: (%d, %d)", w,
                                   E, i, T[i].a, T[i].b);
                    n_a += T[i].a;
                }
                long want = E % 2 == 0 ? (long)E / 2 * w : left ? (long)(E + 1) / 2 * w : (long)(E - 1) / 2 * w;
                KIT_ASSERT_MSG(n_a == want, "w = %d, E = %d, %s warp: %ld keys of A, expected %ld", w, E, left ? "L" : "R", n_a, want);
            }
}

/* Issue 7's proof: one warp's merge round in the simulator costs at least the theorem, for every w and 1 < E <= w. */
static void test_warp_counts_meet_theorem(void)
{
    kit_worst_split T[64];
    char err[200];
    for (int x = 0; x < NWS; x++)
        for (int E = 2; E <= WS[x]; E++) {
            int w = WS[x];
            kit_bank_count c;
            int rc = kit_worst_warp(w, E, 1, T, err, sizeof err);
            rc = rc ? rc : kit_worst_warp_count(w, E, T, &c, err, sizeof err);
            KIT_ASSERT_MSG(rc == 0, "w = %d, E = %d: %s", w, E, err);
            if (rc == 0) {
                KIT_ASSERT_MSG(c.steps == (uint64_t)E + 2, "w = %d, E = %d: %llu steps, expected E + 2", w, E, (unsigned long long)c.steps);
                KIT_ASSERT_MSG((long)c.cost >= kit_worst_theorem(w, E), "w = %d, E = %d: cost %llu < theorem %ld", w, E,
                               (unsigned long long)c.cost, kit_worst_theorem(w, E));
            }
        }
}

static int always_a_first(int w, int E, int a_word, int b_word, int a, int b)
{
    (void)w, (void)E, (void)a_word, (void)b_word, (void)a, (void)b;
    return 1;
}

/* The within-thread order matters: merging A first in every thread falls below the theorem at w = 32
   for E = 19 .. 31 in SerialMerge's E + 2 reads, and for E = 17 .. 31 in the papers' model (handout 8
   states both); the kit's order never does. */
static void test_naive_order_falls_short(void)
{
    kit_worst_split T[32];
    uint8_t mask[32 * 32];
    char err[200];
    for (int E = 2; E <= 32; E++)
        for (int naive = 0; naive <= 1; naive++) {
            int rc = kit_worst_warp_with(32, E, 1, kit_worst_subproblem, naive ? always_a_first : kit_worst_order, T, err,
                                         sizeof err);
            KIT_ASSERT_MSG(rc == 0, "E = %d: %s", E, err);
            if (rc != 0)
                return;
            kit_worst_warp_mask(32, E, T, mask);
            int n_a = 0;
            for (int k = 0; k < 32 * E; k++)
                n_a += mask[k];
            for (int papers = 0; papers <= 1; papers++) {
                kit_bank_count c;
                rc = kit_worst_mask_count(32, E, 32, n_a, mask, papers ? KIT_READS_PAPERS : KIT_READS_SERIAL, &c, err, sizeof err);
                KIT_ASSERT_MSG(rc == 0, "E = %d: %s", E, err);
                int below = rc == 0 && (long)c.cost < kit_worst_theorem(32, E);
                int want = naive && E >= (papers ? 17 : 19) && E <= 31;
                KIT_ASSERT_MSG(below == want, "E = %d, %s order, %s: cost %llu, theorem %ld: expected %s the theorem", E,
                               naive ? "A-first" : "the kit's", papers ? "papers' model" : "E + 2 reads",
                               (unsigned long long)c.cost, kit_worst_theorem(32, E), want ? "below" : "at or above");
            }
        }
}

/* The most distinct words of one bank among n words, w banks (the cost of one step). */
static long step_cost(const int *word, int n, int w)
{
    long most = 0;
    for (int b = 0; b < w; b++) {
        long count = 0;
        for (int x = 0; x < n; x++) {
            int seen = 0;
            for (int y = 0; y < x && !seen; y++)
                seen = word[y] == word[x];
            count += !seen && word[x] % w == b;
        }
        most = count > most ? count : most;
    }
    return most;
}

/* SerialMerge's read after output k is output k's word plus one, in every thread, so its steps 2 ..
   E + 1 cost what the papers' steps 0 .. E - 1 cost: its count is the papers' plus its two front
   steps (A[a] and B[b] of every thread). Handout 8 rests the search mode's goal at E = 31 on this. */
static void test_serial_is_papers_plus_front(void)
{
    uint8_t mask[32 * 31];
    uint64_t rng = 11;
    char err[200];
    for (int trial = 0; trial < 40; trial++) {
        int E = 2 + trial % 30, w = 32, n_a = 0;
        for (int k = 0; k < w * E; k++)
            n_a += mask[k] = (uint8_t)(kit_rng_next(&rng) % 2);
        int front_a[32], front_b[32];
        for (int i = 0, a = 0; i < w; i++) {
            front_a[i] = a;
            front_b[i] = n_a + i * E - a;
            for (int k = 0; k < E; k++)
                a += mask[i * E + k];
        }
        kit_bank_count papers, serial;
        int rc = kit_worst_mask_count(w, E, w, n_a, mask, KIT_READS_PAPERS, &papers, err, sizeof err) ||
                 kit_worst_mask_count(w, E, w, n_a, mask, KIT_READS_SERIAL, &serial, err, sizeof err);
        long front = step_cost(front_a, w, w) + step_cost(front_b, w, w);
        KIT_ASSERT_MSG(rc == 0 && serial.cost == papers.cost + (uint64_t)front,
                       "E = %d, random mask %d: E + 2 reads %llu, papers' %llu + front steps %ld (%s)", E, trial,
                       (unsigned long long)serial.cost, (unsigned long long)papers.cost, front, rc ? err : "ok");
    }
}

/* kit_worst_mask_count in each read model: by hand, against kit_worst_warp_count and kit_worst_groups_cost, and its refusals. */
static void test_mask_count(void)
{
    /* w = 4, E = 2, groups of 2: thread 0 outputs A A, thread 1 B B, in both groups (test_groups_cost's example).
       E + 2 reads: words (0 2 4 6), (2 2 6 6), (1 3 5 7), (2 4 6 8), 2 each: 8. Lab 9's E + 1: the first three, 6.
       The papers' model reads the outputs: (0 2 4 6), (1 3 5 7): 4. */
    static const uint8_t hand[8] = {1, 1, 0, 0, 1, 1, 0, 0};
    static const kit_worst_reads models[] = {KIT_READS_PAPERS, KIT_READS_LAB9, KIT_READS_SERIAL};
    static const long want_hand[] = {4, 6, 8};
    char err[200];
    kit_bank_count c;
    for (int x = 0; x < 3; x++) {
        int rc = kit_worst_mask_count(4, 2, 2, 2, hand, models[x], &c, err, sizeof err);
        KIT_ASSERT_MSG(rc == 0 && (long)c.cost == want_hand[x] && (int)c.steps == kit_worst_reads_steps(models[x], 2),
                       "w = 4, E = 2, %s: cost %llu in %llu steps, expected %ld in %d (%s)", kit_worst_reads_name(models[x]),
                       (unsigned long long)c.cost, (unsigned long long)c.steps, want_hand[x],
                       kit_worst_reads_steps(models[x], 2), rc ? err : "ok");
    }
    /* The papers' model on sorted order: IPDPS 2020 Fig. 1 (w = 16, E = 12, 4 per step, 48) and E = 16 at w = 32 (256). */
    static uint8_t sorted[32 * 16];
    for (int k = 0; k < 32 * 16; k++)
        sorted[k] = k < 96; /* w = 16, E = 12: A fills the first 6 columns of 16 words, output k is word k */
    int rc = kit_worst_mask_count(16, 12, 16, 96, sorted, KIT_READS_PAPERS, &c, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && c.cost == 48, "IPDPS Fig. 1 (w = 16, E = 12, sorted): %llu, expected 48 (%s)",
                   (unsigned long long)c.cost, rc ? err : "ok");
    for (int k = 0; k < 32 * 16; k++)
        sorted[k] = k < 256;
    rc = kit_worst_mask_count(32, 16, 32, 256, sorted, KIT_READS_PAPERS, &c, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && c.cost == 256, "w = 32, E = 16, sorted: %llu, expected E^2 = 256 (%s)", (unsigned long long)c.cost,
                   rc ? err : "ok");
    /* E + 2 reads: the same as kit_worst_warp_count (one group) and kit_worst_groups_cost (groups), on random masks too. */
    uint8_t mask[32 * 32];
    uint64_t rng = 7;
    for (int x = 0; x < NWS; x++)
        for (int E = 2; E <= WS[x] && WS[x] <= 32; E++) {
            int w = WS[x], n_a = 0;
            kit_worst_split T[32];
            kit_bank_count a;
            rc = kit_worst_warp(w, E, E % 2, T, err, sizeof err) || kit_worst_warp_count(w, E, T, &a, err, sizeof err);
            kit_worst_warp_mask(w, E, T, mask);
            for (int k = 0; k < w * E; k++)
                n_a += mask[k];
            rc = rc ? rc : kit_worst_mask_count(w, E, w, n_a, mask, KIT_READS_SERIAL, &c, err, sizeof err);
            KIT_ASSERT_MSG(rc == 0 && c.cost == a.cost && c.conflicts == a.conflicts,
                           "w = %d, E = %d: %llu, kit_worst_warp_count %llu (%s)", w, E, (unsigned long long)c.cost,
                           (unsigned long long)a.cost, rc ? err : "ok");
            for (int g = 1; g <= w; g *= 2) { /* groups of g threads, each half A, shuffled */
                if (w % g != 0 || (g * E) % 2 != 0)
                    continue;
                int unit = g * E;
                for (int k = 0; k < w * E; k++)
                    mask[k] = k % unit < unit / 2;
                for (int k = 0; k < w * E; k += unit)
                    for (int j = unit - 1; j > 0; j--) {
                        int y = (int)(kit_rng_next(&rng) % (uint64_t)(j + 1));
                        uint8_t t = mask[k + j];
                        mask[k + j] = mask[k + y];
                        mask[k + y] = t;
                    }
                rc = kit_worst_mask_count(w, E, g, unit / 2, mask, KIT_READS_SERIAL, &c, err, sizeof err);
                long want = kit_worst_groups_cost(w, E, g, unit / 2, mask);
                KIT_ASSERT_MSG(rc == 0 && (long)c.cost == want, "w = %d, E = %d, groups of %d: %llu, kit_worst_groups_cost %ld (%s)",
                               w, E, g, (unsigned long long)c.cost, want, rc ? err : "ok");
            }
        }
    KIT_ASSERT_MSG(kit_worst_mask_count(4, 2, 3, 2, hand, KIT_READS_SERIAL, &c, err, sizeof err) == -1, "c = 3 does not divide w = 4");
    KIT_ASSERT_MSG(kit_worst_mask_count(4, 2, 2, 3, hand, KIT_READS_SERIAL, &c, err, sizeof err) == -1,
                   "a group with 2 keys of A, not n_a = 3, must be refused");
    KIT_ASSERT_MSG(kit_worst_mask_count(4, 2, 2, 2, hand, (kit_worst_reads)7, &c, err, sizeof err) == -1,
                   "an unknown read model must be refused");
    KIT_ASSERT_MSG(strcmp(kit_worst_reads_name(KIT_READS_PAPERS), "papers' model (E reads)") == 0 &&
                       strcmp(kit_worst_reads_name((kit_worst_reads)7), "?") == 0 && kit_worst_reads_steps(KIT_READS_LAB9, 5) == 6,
                   "the read models' names and steps");
}

/* The order by hand: w = 8, E = 5, s = 3. */
static void test_order_by_hand(void)
{
    /* 2 keys of A from word 0, 3 of B from word 8. A first: ordinals 2, 3 read words 1, 2 (targets 4, 5: no);
       ordinals 4, 5, 6 read words 9, 10, 11 = banks 1, 2, 3 (targets 6, 7, 0: no): 0 hits. B first: ordinals
       2, 3, 4 read banks 1, 2, 3 (targets 4, 5, 6: no); ordinals 5, 6 read banks 1, 2 (targets 7, 0: no). A tie: A first. */
    KIT_ASSERT_MSG(kit_worst_order(8, 5, 0, 8, 2, 3) == 1, "a tie goes to A first");
    /* 1 key of A from word 0, 4 of B from word 11 (banks 3 ..). B first: ordinals 2 .. 5 read banks 4 .. 7 = targets 4 .. 7. */
    KIT_ASSERT_MSG(kit_worst_order(8, 5, 0, 11, 1, 4) == 0, "B first aligns the B keys");
    /* 5 keys of A from word 3: A first reads banks 4 .. 0 at ordinals 2 .. 6, all targets. */
    KIT_ASSERT_MSG(kit_worst_order(8, 5, 3, 8, 5, 0) == 1, "a full scan of A reads A first");
}

static void test_mask(void)
{
    kit_worst_split T[4] = {{2, 1, 1}, {0, 3, 0}, {1, 2, 0}, {3, 0, 1}};
    static const uint8_t want[12] = {1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
    uint8_t got[12];
    kit_worst_warp_mask(4, 3, T, got);
    for (int k = 0; k < 12; k++)
        KIT_ASSERT_MSG(got[k] == want[k], "output %d: expected %d, got %d", k, want[k], got[k]);
}

static int wrong_length(int w, int E, int *a, int *b)
{
    (void)w;
    a[0] = E;
    b[0] = 0;
    return 1;
}

static void test_refusals(void)
{
    kit_worst_split T[32];
    kit_bank_count c;
    char err[200] = "";
    KIT_ASSERT_MSG(kit_worst_warp(32, 33, 1, T, err, sizeof err) == -1 && strstr(err, "E") != NULL, "E > w: %s", err);
    KIT_ASSERT_MSG(kit_worst_warp_with(32, 17, 1, wrong_length, kit_worst_order, T, err, sizeof err) == -1 &&
                       strstr(err, "tuples") != NULL,
                   "a subproblem of the wrong length: %s", err);
    for (int i = 0; i < 32; i++)
        T[i] = (kit_worst_split){17, 1, 1};
    KIT_ASSERT_MSG(kit_worst_warp_count(32, 17, T, &c, err, sizeof err) == -1 && strstr(err, "split") != NULL,
                   "splits of 18 keys: %s", err);
    int32_t keys[4352];
    static const struct {
        size_t n;
        int w, E, u;
        const char *says;
    } bad[] = {
        {4352, 32, 33, 256, "E = 33"},
        {4352, 32, 17, 100, "u = 100"},
        {4352, 32, 17, 16, "u = 16"},
        {4000, 32, 17, 256, "u*E*2^k"},
        {3 * 4352, 32, 17, 256, "u*E*2^k"},
        {(size_t)1 << 32, 32, 16, 256, "too large"},
        {4352, 12, 17, 256, "power of two"},
    };
    for (size_t x = 0; x < sizeof bad / sizeof bad[0]; x++) {
        err[0] = '\0';
        int rc = kit_worst_sort_input(keys, bad[x].n, bad[x].w, bad[x].E, bad[x].u, err, sizeof err);
        KIT_ASSERT_MSG(rc == -1 && strstr(err, bad[x].says) != NULL, "case %zu: expected a refusal naming '%s', got %d: %s", x,
                       bad[x].says, rc, err);
    }
}

/* The sort's input is a permutation; the replay finds every round built by the construction at the theorem or above, and every searched round at 1.5x a random input's count or above. */
static void test_sort_input_and_replay(void)
{
    static const struct {
        int w, E, u, k;
    } cases[] = {{32, 17, 256, 2}, {32, 15, 512, 1}, {32, 16, 128, 2}, {8, 5, 32, 2}};
    for (size_t x = 0; x < sizeof cases / sizeof cases[0]; x++) {
        int w = cases[x].w, E = cases[x].E, u = cases[x].u;
        size_t n = ((size_t)u * E) << cases[x].k;
        int32_t *keys = malloc(n * sizeof *keys);
        uint8_t *seen = calloc(n, 1);
        kit_worst_round R[64];
        int nr = 0;
        char err[200];
        int rc = kit_worst_sort_input(keys, n, w, E, u, err, sizeof err);
        KIT_ASSERT_MSG(rc == 0, "w = %d, E = %d, u = %d: %s", w, E, u, err);
        for (size_t k = 0; k < n && rc == 0; k++) {
            if (keys[k] < 0 || (size_t)keys[k] >= n || seen[keys[k]]) {
                KIT_ASSERT_MSG(0, "w = %d, E = %d: key %zu (%d) repeats or is out of range", w, E, k, keys[k]);
                break;
            }
            seen[keys[k]] = 1;
        }
        rc = rc ? rc : kit_worst_sort_replay(keys, n, w, E, u, R, 64, &nr, err, sizeof err);
        KIT_ASSERT_MSG(rc == 0, "replay, w = %d, E = %d: %s", w, E, err);
        int expect_rounds = 0;
        for (size_t s = (size_t)E; s < n; s *= 2)
            expect_rounds++;
        KIT_ASSERT_MSG(rc != 0 || nr == expect_rounds, "w = %d, E = %d: %d rounds, expected %d", w, E, nr, expect_rounds);
        /* A random permutation of the same n, replayed, for the rounds the search mode builds. */
        int32_t *rnd = malloc(n * sizeof *rnd);
        kit_worst_round Q[64];
        int nq = 0;
        uint64_t st = 12345;
        for (size_t k = 0; k < n; k++)
            rnd[k] = (int32_t)k;
        for (size_t k = n - 1; k > 0; k--) {
            st = st * 6364136223846793005ull + 1442695040888963407ull;
            size_t j = (size_t)((st >> 33) % (k + 1));
            int32_t t = rnd[k];
            rnd[k] = rnd[j];
            rnd[j] = t;
        }
        rc = rc ? rc : kit_worst_sort_replay(rnd, n, w, E, u, Q, 64, &nq, err, sizeof err);
        KIT_ASSERT_MSG(rc == 0 && nq == nr, "replay of a random input, w = %d, E = %d: %s", w, E, err);
        int attacked = 0;
        for (int r = 0; r < nr && rc == 0; r++) {
            if (R[r].attacked == 2) { /* searched: well above what a random input costs */
                KIT_ASSERT_MSG(2 * R[r].load.cost >= 3 * Q[r].load.cost, "w = %d, E = %d, round of runs of %lld: searched "
                               "cost %llu, random %llu", w, E, R[r].run, (unsigned long long)R[r].load.cost,
                               (unsigned long long)Q[r].load.cost);
                continue;
            }
            KIT_ASSERT_MSG(R[r].attacked == 1, "round of runs of %lld: attacked = %d", R[r].run, R[r].attacked);
            attacked++;
            long long bound = R[r].warps * kit_worst_theorem(w, E);
            KIT_ASSERT_MSG((long long)R[r].load.cost >= bound, "w = %d, E = %d, round of runs of %lld: cost %llu < %lld", w, E,
                           R[r].run, (unsigned long long)R[r].load.cost, bound);
        }
        /* The global rounds, and the block-sort rounds of 2w or more threads (w or more for E even). */
        int want_attacked = cases[x].k;
        for (int c = E % 2 ? 2 * w : w; c <= u; c *= 2)
            want_attacked++;
        KIT_ASSERT_MSG(rc != 0 || attacked == want_attacked, "w = %d, E = %d: %d rounds attacked, expected %d", w, E, attacked,
                       want_attacked);
        free(keys);
        free(seen);
        free(rnd);
    }
}

static void test_replay_refuses_non_permutation(void)
{
    size_t n = 256 * 17;
    int32_t *keys = malloc(n * sizeof *keys);
    for (size_t k = 0; k < n; k++)
        keys[k] = (int32_t)k;
    keys[5] = 7; /* 7 twice */
    kit_worst_round R[64];
    int nr;
    char err[200] = "";
    int rc = kit_worst_sort_replay(keys, n, 32, 17, 256, R, 64, &nr, err, sizeof err);
    KIT_ASSERT_MSG(rc == -1 && strstr(err, "permutation") != NULL, "expected a refusal, got %d: %s", rc, err);
    free(keys);
}

/* kit_worst_groups_cost: one group of w threads is kit_worst_warp_count; a small case by hand. */
static void test_groups_cost(void)
{
    static const int ws[] = {4, 8, 12, 16, 32, 64};
    uint8_t mask[64 * 64];
    for (size_t x = 0; x < sizeof ws / sizeof ws[0]; x++)
        for (int E = 2; E <= ws[x]; E++)
            for (int left = 0; left < 2; left++) {
                int w = ws[x], n_a = 0;
                kit_worst_split T[64];
                kit_bank_count c;
                char err[200];
                int rc = kit_worst_warp(w, E, left, T, err, sizeof err);
                rc = rc ? rc : kit_worst_warp_count(w, E, T, &c, err, sizeof err);
                KIT_ASSERT_MSG(rc == 0, "w = %d, E = %d: %s", w, E, err);
                if (rc != 0)
                    return;
                kit_worst_warp_mask(w, E, T, mask);
                for (int k = 0; k < w * E; k++)
                    n_a += mask[k];
                long got = kit_worst_groups_cost(w, E, w, n_a, mask);
                if (got != (long)c.cost) {
                    KIT_ASSERT_MSG(0, "w = %d, E = %d, %s warp: groups cost %ld, the simulator %llu", w, E, left ? "L" : "R", got,
                                   (unsigned long long)c.cost);
                    return;
                }
            }
    /* w = 4, E = 2, groups of 2: thread 0 outputs A A, thread 1 B B, in both groups. Words per step:
       (0 2 4 6), (2 2 6 6), (1 3 5 7), (2 4 6 8): two distinct words in one bank each step, 8 in all. */
    static const uint8_t hand[8] = {1, 1, 0, 0, 1, 1, 0, 0};
    KIT_ASSERT_MSG(kit_worst_groups_cost(4, 2, 2, 2, hand) == 8, "w = 4, E = 2, c = 2: %ld, expected 8",
                   kit_worst_groups_cost(4, 2, 2, 2, hand));
    KIT_ASSERT_MSG(kit_worst_groups_cost(4, 2, 2, 3, hand) == -1, "a group with 2 keys of A, not n_a = 3, must be refused");
    KIT_ASSERT_MSG(kit_worst_groups_cost(4, 2, 3, 3, hand) == -1, "c = 3 does not divide w = 4");
}

/* kit_worst_search: it keeps every group's n_a, never falls, is deterministic, and improves the construction at w = 32, E = 19. */
static void test_search(void)
{
    uint8_t a[32 * 32], b[32 * 32];
    kit_worst_split T[32];
    char err[200];
    KIT_ASSERT_MSG(kit_worst_warp(32, 19, 1, T, err, sizeof err) == 0, "%s", err);
    kit_worst_warp_mask(32, 19, T, a);
    int n_a = 0;
    for (int k = 0; k < 32 * 19; k++)
        n_a += a[k];
    long start = kit_worst_groups_cost(32, 19, 32, n_a, a);
    memcpy(b, a, sizeof a);
    long best = kit_worst_search(32, 19, 32, n_a, 3, 20000, a, err, sizeof err);
    long again = kit_worst_search(32, 19, 32, n_a, 3, 20000, b, err, sizeof err);
    KIT_ASSERT_MSG(best > start, "w = 32, E = 19: the search found %ld, the construction costs %ld", best, start);
    KIT_ASSERT_MSG(best == kit_worst_groups_cost(32, 19, 32, n_a, a), "the returned count is not the input's");
    KIT_ASSERT_MSG(again == best && memcmp(a, b, sizeof a) == 0, "the same seed gave another input");
    /* Groups of 4 threads from a split that takes A first everywhere. */
    uint8_t m[32 * 5];
    for (int k = 0; k < 32 * 5; k++)
        m[k] = k % 20 < 10;
    long from = kit_worst_groups_cost(32, 5, 4, 10, m), to = kit_worst_search(32, 5, 4, 10, 9, 5000, m, err, sizeof err);
    KIT_ASSERT_MSG(to >= from && to == kit_worst_groups_cost(32, 5, 4, 10, m), "groups of 4: %ld from %ld", to, from);
    for (int g = 0; g < 8; g++) {
        int ones = 0;
        for (int k = 0; k < 20; k++)
            ones += m[g * 20 + k];
        KIT_ASSERT_MSG(ones == 10, "group %d holds %d keys of A after the search, not 10", g, ones);
    }
    KIT_ASSERT_MSG(kit_worst_search(32, 5, 4, 11, 9, 10, m, err, sizeof err) == -1 && strstr(err, "n_a") != NULL,
                   "a start with the wrong n_a: %s", err);
    KIT_ASSERT_MSG(kit_worst_search(32, 5, 6, 15, 9, 10, m, err, sizeof err) == -1, "c = 6 does not divide 32");
    KIT_ASSERT_MSG(kit_worst_search(32, 5, 4, 10, 9, -1, m, err, sizeof err) == -1, "negative iterations");
}

/* The most any input of one warp costs: every mask with n_a keys of A in each group of c, tried (tiny warps only). */
static long exhaustive_best(int w, int E, int c, int n_a, uint8_t *m, int pos, int ones)
{
    int unit = c * E, k = pos % unit;
    if (pos == w * E)
        return kit_worst_groups_cost(w, E, c, n_a, m);
    long best = -1, v;
    if (ones < n_a) {
        m[pos] = 1;
        v = exhaustive_best(w, E, c, n_a, m, pos + 1, k + 1 == unit ? 0 : ones + 1);
        best = v > best ? v : best;
    }
    if (unit - k - 1 >= n_a - ones) {
        m[pos] = 0;
        v = exhaustive_best(w, E, c, n_a, m, pos + 1, k + 1 == unit ? 0 : ones);
        best = v > best ? v : best;
    }
    return best;
}

/* kit_worst_target: the most an input can cost on tiny warps; every group keeps n_a; the count returned is the
 * input's; deterministic; from 8 threads a group on it reaches the papers' count at w = 32, E = 17, also for 32
 * threads whose B starts in bank 16, where the construction does not apply; bad parameters refused. */
static void test_target(void)
{
    static const int tiny[][3] = {{4, 2, 2}, {4, 3, 2}, {4, 3, 4}, {8, 3, 2}, {8, 3, 4}, {8, 2, 8}, {4, 4, 2}};
    uint8_t m[32 * 17], again[32 * 17], all[64];
    char err[200];
    for (size_t x = 0; x < sizeof tiny / sizeof tiny[0]; x++) {
        int w = tiny[x][0], E = tiny[x][1], c = tiny[x][2], n_a = c * E / 2;
        long most = exhaustive_best(w, E, c, n_a, all, 0, 0), got = kit_worst_target(w, E, c, n_a, m, err, sizeof err);
        KIT_ASSERT_MSG(got == most, "w = %d, E = %d, c = %d: the targeted mode found %ld, the most any input costs is %ld", w,
                       E, c, got, most);
    }
    for (int c = 8; c <= 32; c *= 2) {
        int n_a = c * 17 / 2;
        long got = kit_worst_target(32, 17, c, n_a, m, err, sizeof err);
        KIT_ASSERT_MSG(got >= kit_worst_theorem(32, 17), "w = 32, E = 17, c = %d: %ld, below the papers' %d per warp (%s)", c,
                       got, kit_worst_theorem(32, 17), got < 0 ? err : "");
        KIT_ASSERT_MSG(got == kit_worst_groups_cost(32, 17, c, n_a, m), "c = %d: the returned count is not the input's "
                       "(groups_cost %ld: -1 means a group lost its n_a)", c, kit_worst_groups_cost(32, 17, c, n_a, m));
        KIT_ASSERT_MSG(c != 8 || (kit_worst_target(32, 17, c, n_a, again, err, sizeof err) == got &&
                                  memcmp(m, again, sizeof m) == 0),
                       "c = %d: a second run gave another input", c);
    }
    KIT_ASSERT_MSG(kit_worst_target(32, 5, 6, 15, m, err, sizeof err) == -1 && strstr(err, "c = 6") != NULL,
                   "c = 6 does not divide 32: %s", err);
    KIT_ASSERT_MSG(kit_worst_target(32, 5, 4, 21, m, err, sizeof err) == -1, "n_a = 21 > cE = 20 was accepted");
    KIT_ASSERT_MSG(kit_worst_target(32, 33, 4, 10, m, err, sizeof err) == -1, "E = 33 > w was accepted");
}

/* kit_worst_warp_keys: A then B, in the mask's order, by hand and for every E of w = 32; refusals. */
static void test_warp_keys(void)
{
    /* w = 2, E = 2: thread 0 outputs 0 from A and 1 from B; thread 1 outputs 2 and 3 from A. */
    const kit_worst_split hand[2] = {{1, 1, 1}, {2, 0, 0}};
    int32_t keys[32 * 32];
    char err[200];
    int n_a = kit_worst_warp_keys(2, 2, hand, keys, err, sizeof err);
    KIT_ASSERT_MSG(n_a == 3 && keys[0] == 0 && keys[1] == 2 && keys[2] == 3 && keys[3] == 1,
                   "w = 2, E = 2: n_a %d, keys %d %d %d %d, expected 3, 0 2 3 1", n_a, keys[0], keys[1], keys[2], keys[3]);
    for (int E = 2; E <= 32; E++) {
        kit_worst_split T[32];
        uint8_t mask[32 * 32];
        KIT_ASSERT_MSG(kit_worst_warp(32, E, 1, T, err, sizeof err) == 0, "%s", err);
        kit_worst_warp_mask(32, E, T, mask);
        n_a = kit_worst_warp_keys(32, E, T, keys, err, sizeof err);
        for (int k = 0, x = 0, y = n_a; k < 32 * E; k++)
            if (keys[mask[k] ? x++ : y++] != k) {
                KIT_ASSERT_MSG(0, "E = %d: output %d is not where the mask puts it", E, k);
                return;
            }
    }
    const kit_worst_split bad[2] = {{1, 1, 1}, {2, 1, 0}};
    KIT_ASSERT_MSG(kit_worst_warp_keys(2, 2, bad, keys, err, sizeof err) == -1 && strstr(err, "thread 1") != NULL,
                   "a split of 3 keys with E = 2: %s", err);
    KIT_ASSERT_MSG(kit_worst_warp_keys(2, 3, hand, keys, err, sizeof err) == -1 && strstr(err, "bad warp") != NULL,
                   "E = 3 > w = 2: %s", err);
}


/* kit_worst_warp_count reads the words from the splits alone; the old replay merges the warp's keys.
   They must agree on every warp of the reference, L and R, for w in 4 .. 64, and on the naive order. */
static void test_count_matches_replay(void)
{
    static const int ws[] = {4, 8, 12, 16, 32, 64};
    for (size_t x = 0; x < sizeof ws / sizeof ws[0]; x++)
        for (int E = 2; E <= ws[x]; E++)
            for (int left = 0; left < 2; left++) {
                int w = ws[x];
                kit_worst_split T[64];
                kit_bank_count c, r;
                char err[200];
                CU_ASSERT_EQUAL_FATAL(kit_worst_warp(w, E, left, T, err, sizeof err), 0);
                if (E % 3 == 0)
                    for (int i = 0; i < w; i++)
                        T[i].a_first = 1;
                CU_ASSERT_EQUAL_FATAL(kit_worst_warp_count(w, E, T, &c, err, sizeof err), 0);
                CU_ASSERT_EQUAL_FATAL(kit_worst_warp_replay(w, E, T, &r, err, sizeof err), 0);
                if (c.cost != r.cost || c.steps != r.steps || c.conflicts != r.conflicts) {
                    kit_test_fail(__FILE__, __LINE__, "w = %d, E = %d, %s warp: count %llu/%llu, replay %llu/%llu", w, E,
                                  left ? "L" : "R", (unsigned long long)c.cost, (unsigned long long)c.steps,
                                  (unsigned long long)r.cost, (unsigned long long)r.steps);
                    return;
                }
            }
}

/* kit_worst_warp_from assembles the same warp as kit_worst_warp_with from the same subproblem, and refuses a wrong count or split. */
static void test_warp_from(void)
{
    int a[64], b[64];
    kit_worst_split T[64], U[64];
    char err[200];
    int n = kit_worst_subproblem(32, 12, a, b);
    CU_ASSERT_EQUAL_FATAL(n, 8);
    CU_ASSERT_EQUAL(kit_worst_warp_from(32, 12, 1, a, b, n, kit_worst_order, T, err, sizeof err), 0);
    CU_ASSERT_EQUAL(kit_worst_warp_with(32, 12, 1, kit_worst_subproblem, kit_worst_order, U, err, sizeof err), 0);
    CU_ASSERT_EQUAL(memcmp(T, U, 32 * sizeof T[0]), 0);
    CU_ASSERT_EQUAL(kit_worst_warp_from(32, 12, 1, a, b, n - 1, kit_worst_order, T, err, sizeof err), -1);
    KIT_ASSERT_MSG(strstr(err, "expected w/d = 8") != NULL, "message: %s", err);
    a[0]++;
    CU_ASSERT_EQUAL(kit_worst_warp_from(32, 12, 1, a, b, n, kit_worst_order, T, err, sizeof err), -1);
    KIT_ASSERT_MSG(strstr(err, "tuple 0") != NULL, "message: %s", err);
}

static void register_tests(void)
{
    CU_pSuite warp = kit_test_suite("per-warp construction");
    kit_test_add(warp, "kit_worst_subproblem reproduces SPAA 2025 Fig. 4", test_subproblem_fig4);
    kit_test_add(warp, "kit_worst_theorem against the papers' values", test_theorem);
    kit_test_add(warp, "kit_worst_warp: E keys a thread, L and R totals", test_warp_totals);
    kit_test_add(warp, "kit_worst_warp_count >= theorem, w in 4 8 12 16 32 64", test_warp_counts_meet_theorem);
    kit_test_add(warp, "A first everywhere falls below the theorem: E 19-31 (E + 2 reads), 17-31 (papers')",
                 test_naive_order_falls_short);
    kit_test_add(warp, "kit_worst_mask_count: three read models, by hand and against the other counts", test_mask_count);
    kit_test_add(warp, "E + 2 reads = the papers' count + the two front steps", test_serial_is_papers_plus_front);
    kit_test_add(warp, "kit_worst_order by hand", test_order_by_hand);
    kit_test_add(warp, "kit_worst_warp_mask by hand", test_mask);
    kit_test_add(warp, "refusals", test_refusals);
    kit_test_add(warp, "kit_worst_warp_keys: A then B, by hand and against the mask", test_warp_keys);
    kit_test_add(warp, "kit_worst_warp_count from the splits = the replay of the keys", test_count_matches_replay);
    kit_test_add(warp, "kit_worst_warp_from: the same warp as kit_worst_warp_with; refusals", test_warp_from);
    CU_pSuite search = kit_test_suite("search mode");
    kit_test_add(search, "kit_worst_groups_cost: the simulator's count, and by hand", test_groups_cost);
    kit_test_add(search, "kit_worst_search: groups kept, never lower, deterministic, improves E = 19", test_search);
    kit_test_add(search, "kit_worst_target: the most on tiny warps, the papers' count at E = 17, deterministic", test_target);
    CU_pSuite sort = kit_test_suite("merge sort input");
    kit_test_add(sort, "kit_worst_sort_input and kit_worst_sort_replay", test_sort_input_and_replay);
    kit_test_add(sort, "kit_worst_sort_replay refuses a non-permutation", test_replay_refuses_non_permutation);
}

int main(void)
{
    return kit_test_main("worst-case tests", register_tests);
}
