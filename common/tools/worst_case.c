/* worst_case: writes the merge sort's worst-case input (labs/08-worst-case/harness/worst_host.h, grader/ref/kit_ref.h), prints the per-warp tables in the kit's read models, runs the search mode, replays the sort's rounds, and draws a warp's input for bankviz. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit_gen.h"
#include "kit_ref.h"

#define EXIT_BAD_INPUT 2
/* The search mode's largest w: its scratch space is static. */
#define SEARCH_MAX_W 64
/* The most moves a kick of the search makes before it climbs again. */
#define SEARCH_KICK 12

static const char usage_text[] =
    "usage: worst_case --n N --E E --u U [--w 32] --out FILE   write the worst-case keys (raw little-endian int32)\n"
    "       worst_case --table [--w W] [--md]                   the per-warp table (every w of 4 8 12 16 32 64 by default)\n"
    "       worst_case --orders [--w 32] [--md]                 the kit's within-thread order against A first everywhere\n"
    "       worst_case --replay --n N --E E --u U [--w 32] [--md] replay every merge round of the sort, worst and random\n"
    "       worst_case --viz --E E [--w W] [--move WORD:THREAD] one warp's input as a bankviz trace, on stdout\n"
    "       worst_case --search [--w 32] [--rounds 100] [--moves 10000] [--seed 1] [--out FILE]   the search mode\n"
    "       worst_case --verify FILE [--md]                     recount the search mode's stored inputs, print its table\n"
    "       worst_case --target --E E [--w 32] [--c W]          the targeted mode on one warp of groups of c threads\n"
    "The sort's input is a permutation of 0 .. N-1 with N = U*E*2^k, U a power of two and a multiple of w,\n"
    "1 < E <= w. Every count names its read model: the papers' model (E reads a thread, output k read at\n"
    "step k: their theorems), or CUB's SerialMerge (E + 2 reads: the front keys of A and B, then the next\n"
    "key after every output; lab 8's probe), in which the tables also give the profiler's conflicts (cost\n"
    "minus one per step). Lab 9's serial merge makes E + 1 reads (none after its last output).\n"
    "The table runs one merge round of one L warp through the simulator (w banks) for every 1 < E <= w.\n"
    "The search starts from the construction's L and R warps and, in each read model, repeats: a kick of\n"
    "1 to 12 random moves, then --moves moves kept when the count does not fall (a move swaps an output of\n"
    "A with one of B, neighbours or anywhere); it keeps the best input (--rounds times, seed --seed).\n"
    "--move WORD:THREAD draws WORD as read by THREAD (a figure as a paper printed it).\n";

/* Parses a whole decimal number in [lo, hi] or exits 2 naming the option. */
static long long number(const char *opt, const char *s, long long lo, long long hi)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "worst_case: %s wants a whole number in %lld .. %lld, not '%s'\n", opt, lo, hi, s);
        exit(EXIT_BAD_INPUT);
    }
    return v;
}

/* The construction's L (left = 1) or R warp as a mask; returns its keys of A, or -1 after a message. */
static int warp_mask(int w, int E, int left, uint8_t *mask)
{
    kit_worst_split T[1024];
    char err[200];
    if (kit_worst_warp(w, E, left, T, err, sizeof err) != 0) {
        fprintf(stderr, "worst_case: w = %d, E = %d: %s\n", w, E, err);
        return -1;
    }
    kit_worst_warp_mask(w, E, T, mask);
    int n_a = 0;
    for (int k = 0; k < w * E; k++)
        n_a += mask[k];
    return n_a;
}

/* One whole warp's count (one group of w threads) in a read model, by the simulator; -1 after a message. */
static long count(int w, int E, int n_a, const uint8_t *mask, kit_worst_reads reads, kit_bank_count *c)
{
    char err[200];
    if (kit_worst_mask_count(w, E, w, n_a, mask, reads, c, err, sizeof err) != 0) {
        fprintf(stderr, "worst_case: w = %d, E = %d: %s\n", w, E, err);
        return -1;
    }
    return (long)c->cost;
}

/* ---- the tables --------------------------------------------------------------------------- */

/* One warp's line of the table; returns 1 if a count is below the theorem or could not be made. */
static int table_row(int w, int E, int md)
{
    uint8_t *mask = malloc((size_t)w * E);
    kit_bank_count papers, serial;
    int n_a = mask ? warp_mask(w, E, 1, mask) : -1;
    int failed = n_a < 0 || count(w, E, n_a, mask, KIT_READS_PAPERS, &papers) < 0 ||
                 count(w, E, n_a, mask, KIT_READS_SERIAL, &serial) < 0;
    free(mask);
    if (failed)
        return 1;
    long bound = kit_worst_theorem(w, E);
    int d = kit_gcd(w, E), ok = (long)papers.cost >= bound && (long)serial.cost >= bound;
    if (md)
        printf("| %d | %d | %d | %d | %ld | %d | %llu | %llu | %llu |\n", E, d, w / E, w % E, bound, E * E,
               (unsigned long long)papers.cost, (unsigned long long)serial.cost, (unsigned long long)serial.conflicts);
    else
        printf("%4d %4d %3d %3d %3d %8ld %6d %8llu %8llu %9llu  %s\n", w, E, d, w / E, w % E, bound, E * E,
               (unsigned long long)papers.cost, (unsigned long long)serial.cost, (unsigned long long)serial.conflicts,
               ok ? "yes" : "NO");
    return !ok;
}

static int table(int only_w, int md)
{
    static const int ws[] = {4, 8, 12, 16, 32, 64};
    int below = 0;
    if (md) {
        if (!only_w) {
            fprintf(stderr, "worst_case: --table --md needs --w\n");
            return EXIT_BAD_INPUT;
        }
        printf("| E | d | q | r | theorem | E^2 | papers' model (E reads) | SerialMerge (E + 2 reads) | conflicts (E + 2 reads) |\n");
        printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    } else {
        printf("One merge round of one L warp of the worst-case input, w banks: its count in the papers' model (E reads\n"
               "a thread) and in SerialMerge's (E + 2 reads), with the profiler's conflicts of the latter.\n");
        printf("%4s %4s %3s %3s %3s %8s %6s %8s %8s %9s  %s\n", "w", "E", "d", "q", "r", "theorem", "E^2", "papers'", "E + 2",
               "conflicts", "both >= theorem");
    }
    for (size_t x = 0; x < sizeof ws / sizeof ws[0]; x++) {
        int w = only_w ? only_w : ws[x];
        for (int E = 2; E <= w; E++)
            below += table_row(w, E, md);
        if (only_w)
            break;
    }
    if (!md)
        printf("%s\n", below ? "FAIL: some counts are below the theorem" : "PASS: every count is at least the theorem");
    return below ? 1 : 0;
}

static int always_a_first(int w, int E, int a_word, int b_word, int a, int b)
{
    (void)w, (void)E, (void)a_word, (void)b_word, (void)a, (void)b;
    return 1;
}

/* Prints "E = lo .. hi" (or a list) of the values of E whose flag is set, or "no E". */
static void print_es(const char *what, const int *flag, int w)
{
    printf("%s:", what);
    int any = 0;
    for (int E = 2; E <= w; E++) {
        if (!flag[E] || (E > 2 && flag[E - 1]))
            continue;
        int hi = E;
        while (hi + 1 <= w && flag[hi + 1])
            hi++;
        printf(hi > E ? " %d .. %d" : " %d", E, hi);
        any = 1;
    }
    printf("%s\n", any ? "" : " no E");
}

/* The kit's within-thread order (kit_worst_order) against A first in every thread, in both read models. */
static int orders(int w, int md)
{
    int below_papers[1025] = {0}, below_serial[1025] = {0};
    if (md) {
        printf("| E | theorem | kit's order, papers' model | kit's order, E + 2 reads | A first, papers' model | A first, E + 2 reads |\n");
        printf("| --- | --- | --- | --- | --- | --- |\n");
    } else {
        printf("One L warp, w = %d: the kit's within-thread order (kit_worst_order) and A first in every thread, counted\n"
               "in the papers' model (E reads) and in SerialMerge's (E + 2 reads).\n", w);
        printf("%4s %8s %12s %12s %12s %12s\n", "E", "theorem", "kit papers'", "kit E + 2", "A1st papers'", "A1st E + 2");
    }
    uint8_t *kit = malloc((size_t)w * w), *naive = malloc((size_t)w * w);
    int rc = kit && naive ? 0 : 1;
    for (int E = 2; E <= w && rc == 0; E++) {
        kit_worst_split T[1024];
        char err[200];
        int n_a = warp_mask(w, E, 1, kit), a[1024], b[1024];
        int tuples = kit_worst_subproblem(w, E, a, b);
        if (n_a < 0 || kit_worst_warp_from(w, E, 1, a, b, tuples, always_a_first, T, err, sizeof err) != 0) {
            fprintf(stderr, "worst_case: w = %d, E = %d: %s\n", w, E, n_a < 0 ? "no construction" : err);
            rc = 1;
            break;
        }
        kit_worst_warp_mask(w, E, T, naive);
        kit_bank_count c;
        long kp = count(w, E, n_a, kit, KIT_READS_PAPERS, &c), ks = count(w, E, n_a, kit, KIT_READS_SERIAL, &c),
             np = count(w, E, n_a, naive, KIT_READS_PAPERS, &c), ns = count(w, E, n_a, naive, KIT_READS_SERIAL, &c);
        if (kp < 0 || ks < 0 || np < 0 || ns < 0) {
            rc = 1;
            break;
        }
        long bound = kit_worst_theorem(w, E);
        below_papers[E] = np < bound;
        below_serial[E] = ns < bound;
        if (md)
            printf("| %d | %ld | %ld | %ld | %ld | %ld |\n", E, bound, kp, ks, np, ns);
        else
            printf("%4d %8ld %12ld %12ld %11ld%s %11ld%s\n", E, bound, kp, ks, np, np < bound ? "<" : " ", ns,
                   ns < bound ? "<" : " ");
    }
    if (!kit || !naive)
        fprintf(stderr, "worst_case: out of memory\n");
    if (!md && rc == 0) {
        print_es("A first falls below the theorem, papers' model", below_papers, w);
        print_es("A first falls below the theorem, E + 2 reads", below_serial, w);
    }
    free(kit);
    free(naive);
    return rc;
}

static int replay(size_t n, int w, int E, int u, int md)
{
    int32_t *keys = malloc(n * sizeof *keys + 1), *rnd = malloc(n * sizeof *rnd + 1);
    kit_worst_round worst[64], random[64];
    int nw = 0, nr = 0, rc = 1;
    char err[200];
    if (!keys || !rnd) {
        fprintf(stderr, "worst_case: out of memory\n");
        goto done;
    }
    if (kit_worst_sort_input(keys, n, w, E, u, err, sizeof err) != 0 ||
        kit_worst_sort_replay(keys, n, w, E, u, worst, 64, &nw, err, sizeof err) != 0) {
        fprintf(stderr, "worst_case: %s\n", err);
        goto done;
    }
    kit_gen_permutation(rnd, n, 1); /* a random permutation, fixed seed */
    if (kit_worst_sort_replay(rnd, n, w, E, u, random, 64, &nr, err, sizeof err) != 0) {
        fprintf(stderr, "worst_case: %s\n", err);
        goto done;
    }
    long bound = kit_worst_theorem(w, E);
    if (md) {
        printf("| round | run | threads | input | worst case, per warp | random, per warp |\n| --- | --- | --- | --- | --- | --- |\n");
        for (int x = 0; x < nw; x++)
            printf("| %s | %lld | %d | %s | %.1f | %.1f |\n", worst[x].global ? "global" : "block", worst[x].run,
                   worst[x].threads, worst[x].attacked == 1 ? "built" : "searched",
                   (double)worst[x].load.cost / (double)worst[x].warps, (double)random[x].load.cost / (double)random[x].warps);
        rc = 0;
        goto done;
    }
    printf("Replay of the merge sort, n = %zu, u = %d, E = %d, w = %d: shared-memory loads of each merge round.\n", n, u, E, w);
    printf("cost: per warp, SerialMerge's E + 2 reads a thread (the sum over its E + 2 steps of the most keys one bank\n"
           "serves); lab 9's merge makes E + 1.\n");
    printf("%-6s %9s %7s %8s %8s %12s %10s %12s %10s\n", "round", "run", "threads", "input", "warps", "worst cost",
           "per warp", "random cost", "per warp");
    for (int x = 0; x < nw; x++) {
        const kit_worst_round *R = &worst[x];
        printf("%-6s %9lld %7d %8s %8lld %12llu %10.1f %12llu %10.1f\n", R->global ? "global" : "block", R->run, R->threads,
               R->attacked == 1 ? "built" : "searched", R->warps, (unsigned long long)R->load.cost,
               (double)R->load.cost / (double)R->warps, (unsigned long long)random[x].load.cost,
               (double)random[x].load.cost / (double)random[x].warps);
    }
    printf("theorem per warp: %ld (the papers' model, E^2 = %d); every replayed sort ended sorted.\n", bound, E * E);
    rc = 0;
done:
    free(keys);
    free(rnd);
    return rc;
}

/* ---- the drawing -------------------------------------------------------------------------- */

/*
 * One L warp's input as the papers draw it: thread i reads its j-th output at step j; categories
 * aligned (+), misaligned (x) and free (.). move_word >= 0 gives that word to thread move_to (the
 * figure as a paper printed it): each thread then reads the words it holds in its own order (its
 * A words ascending, then its B words, or B first), whatever their number.
 */
static int viz(int w, int E, int move_word, int move_to)
{
    kit_worst_split T[1024];
    char err[200];
    if (kit_worst_warp(w, E, 1, T, err, sizeof err) != 0) {
        fprintf(stderr, "worst_case: %s\n", err);
        return 1;
    }
    int n_a = 0, s = w - E, total = w * E;
    for (int i = 0; i < w; i++)
        n_a += T[i].a;
    if (move_word >= total || move_to >= w) {
        fprintf(stderr, "worst_case: --move %d:%d: the warp has words 0 .. %d and threads 0 .. %d\n", move_word, move_to,
                total - 1, w - 1);
        return EXIT_BAD_INPUT;
    }
    int *owner = malloc((size_t)total * sizeof *owner);
    char *cat = calloc((size_t)total + 1, 1);
    if (!owner || !cat) {
        fprintf(stderr, "worst_case: out of memory\n");
        free(owner);
        free(cat);
        return 1;
    }
    for (int i = 0, aw = 0, bw = n_a; i < w; i++) { /* thread i holds A words aw .. and B words bw .. */
        for (int k = 0; k < T[i].a; k++)
            owner[aw + k] = i;
        for (int k = 0; k < T[i].b; k++)
            owner[bw + k] = i;
        aw += T[i].a;
        bw += T[i].b;
    }
    if (move_word >= 0)
        owner[move_word] = move_to;
    printf("# kit-trace 1\n");
    int aligned = 0;
    for (int i = 0; i < w; i++) {
        int j = 0;
        for (int half = 0; half < 2; half++) { /* its first list, then its second */
            int from_a = (half == 0) == (T[i].a_first != 0);
            for (int word = from_a ? 0 : n_a; word < (from_a ? n_a : total); word++) {
                if (owner[word] != i)
                    continue;
                printf("0 %d %d %d 4 r\n", i, j, word * 4);
                cat[word] = word % w < s ? '.' : word % w == s + j ? '+' : 'x';
                aligned += cat[word] == '+';
                j++;
            }
        }
        if (j != E)
            printf("# worst_case thread %d reads %d keys, not E = %d\n", i, j, E);
    }
    printf("# worst_case aligned %d (the theorem: %ld)\n", aligned, kit_worst_theorem(w, E));
    printf("# bankviz model %d 4\n# bankviz step none\n# bankviz divider %d\n", w, n_a);
    printf("# bankviz divider-meaning the end of the warp's A keys (left) and the start of its B keys (right)\n");
    for (int k = 0; k < total; k += 64)
        printf("# bankviz categories %d %.*s\n", k, total - k < 64 ? total - k : 64, cat + k);
    free(owner);
    free(cat);
    return 0;
}

/* ---- the search mode ---------------------------------------------------------------------- */

/* Scratch space of warp_cost: the words each step reads, and stamps that mark what a step has seen. */
typedef struct cost_space {
    uint32_t word[(SEARCH_MAX_W + 2) * SEARCH_MAX_W]; /* step o, thread i at [o * w + i] */
    uint32_t seen[SEARCH_MAX_W * SEARCH_MAX_W + 1];   /* per word: the stamp of the step that last read it */
    uint32_t bank_seen[SEARCH_MAX_W];                 /* per bank: the stamp of the step that last counted there */
    int load[SEARCH_MAX_W];                           /* per bank: distinct words the step reads there */
    uint32_t stamp;
} cost_space;

/*
 * One whole warp's count in a read model, what kit_worst_mask_count counts with the simulator
 * (verify() checks that they agree), without building a trace: the search's inner loop.
 */
static long warp_cost(int w, int E, int n_a, const uint8_t *mask, kit_worst_reads reads, cost_space *sp)
{
    int steps = kit_worst_reads_steps(reads, E);
    for (int i = 0, a = 0, b = 0; i < w; i++) {
        int o = 0;
        if (reads != KIT_READS_PAPERS) { /* the front keys A[a] and B[b] */
            sp->word[i] = (uint32_t)a;
            sp->word[w + i] = (uint32_t)(n_a + b);
            o = 2;
        }
        for (int k = 0; k < E; k++) {
            int from_a = mask[i * E + k] != 0;
            if (reads == KIT_READS_PAPERS) /* the output itself */
                sp->word[o++ * w + i] = (uint32_t)(from_a ? a : n_a + b);
            if (from_a)
                a++;
            else
                b++;
            if (reads != KIT_READS_PAPERS && o < steps) /* the next key of that list */
                sp->word[o++ * w + i] = (uint32_t)(from_a ? a : n_a + b);
        }
    }
    long cost = 0;
    for (int o = 0; o < steps; o++) {
        uint32_t st = ++sp->stamp;
        int most = 0;
        for (int i = 0; i < w; i++) {
            uint32_t x = sp->word[o * w + i], bank = x % (uint32_t)w;
            if (sp->seen[x] == st)
                continue; /* a word read twice in one step is served once */
            sp->seen[x] = st;
            if (sp->bank_seen[bank] != st) {
                sp->bank_seen[bank] = st;
                sp->load[bank] = 0;
            }
            most = ++sp->load[bank] > most ? sp->load[bank] : most;
        }
        cost += most;
    }
    return cost;
}

/* One move: swaps an output of A with one of B, neighbours or anywhere in the warp; *p and *q say which. */
static void random_move(int len, uint8_t *mask, uint64_t *rng, int *p, int *q)
{
    if (kit_rng_next(rng) % 2) { /* neighbours: one output moves a place in its thread's order, or to the next thread */
        do
            *p = (int)(kit_rng_next(rng) % (uint64_t)(len - 1));
        while (mask[*p] == mask[*p + 1]);
        *q = *p + 1;
    } else {
        do
            *p = (int)(kit_rng_next(rng) % (uint64_t)len);
        while (!mask[*p]);
        do
            *q = (int)(kit_rng_next(rng) % (uint64_t)len);
        while (mask[*q]);
    }
    uint8_t t = mask[*p];
    mask[*p] = mask[*q];
    mask[*q] = t;
}

/*
 * Iterated local search from best (w*E outputs, n_a from A): each round copies the best input,
 * kicks it with 1 to SEARCH_KICK random moves (none in the first round), then climbs: `moves`
 * random moves, each kept when the count does not fall. A round that ends at or above the best
 * becomes the best. Returns the best count; best holds its input.
 */
static long search(int w, int E, int n_a, kit_worst_reads reads, uint64_t seed, long rounds, long moves, uint8_t *best,
                   cost_space *sp)
{
    int len = w * E;
    uint8_t m[SEARCH_MAX_W * SEARCH_MAX_W];
    long top = warp_cost(w, E, n_a, best, reads, sp);
    uint64_t rng = seed;
    if (n_a == 0 || n_a == len)
        return top; /* one list only: nothing to move */
    for (long r = 0; r < rounds; r++) {
        memcpy(m, best, (size_t)len);
        int p, q, kicks = r == 0 ? 0 : 1 + (int)(kit_rng_next(&rng) % SEARCH_KICK);
        for (int k = 0; k < kicks; k++)
            random_move(len, m, &rng, &p, &q);
        long cur = warp_cost(w, E, n_a, m, reads, sp);
        for (long it = 0; it < moves; it++) {
            random_move(len, m, &rng, &p, &q);
            long next = warp_cost(w, E, n_a, m, reads, sp);
            if (next >= cur) {
                cur = next;
            } else { /* undo */
                uint8_t t = m[p];
                m[p] = m[q];
                m[q] = t;
            }
        }
        if (cur >= top) {
            top = cur;
            memcpy(best, m, (size_t)len);
        }
    }
    return top;
}

/* The mask as hex digits, 4 outputs a digit, the first output in the high bit. */
static void put_hex(FILE *f, const uint8_t *mask, int len)
{
    for (int k = 0; k < len; k += 4) {
        int v = 0;
        for (int b = 0; b < 4; b++)
            v = 2 * v + (k + b < len && mask[k + b]);
        fputc("0123456789abcdef"[v], f);
    }
}

/* Reads put_hex's digits into len outputs; returns 0, or -1 if the digits do not fit. */
static int get_hex(const char *s, uint8_t *mask, int len)
{
    if ((int)strlen(s) != (len + 3) / 4)
        return -1;
    for (int k = 0; k < len; k += 4) {
        const char *at = strchr("0123456789abcdef", s[k / 4]);
        if (!at || s[k / 4] == '\0')
            return -1;
        int v = (int)(at - "0123456789abcdef");
        for (int b = 0; b < 4; b++)
            if (k + b < len)
                mask[k + b] = (uint8_t)((v >> (3 - b)) & 1);
    }
    return 0;
}

static const char *const MODEL_WORD[] = {"papers", "lab9", "serial"};

/*
 * The search mode: for each 1 < E <= w and each of the two read models, the search from the L and
 * from the R warp of the construction; prints each E's line and, with out, writes each best input.
 */
static int search_mode(int w, long rounds, long moves, uint64_t seed, const char *out)
{
    static cost_space sp;
    static const kit_worst_reads models[] = {KIT_READS_PAPERS, KIT_READS_SERIAL};
    FILE *f = out ? fopen(out, "w") : NULL;
    if (out && !f) {
        fprintf(stderr, "worst_case: cannot write %s\n", out);
        return 1;
    }
    if (f) {
        fprintf(f, "# worst_case --search --w %d --rounds %ld --moves %ld --seed %llu: the best input found for each E and read\n"
                   "# model, from the construction's L or R warp. worst_case --verify FILE recounts them with the simulator.\n"
                   "# E model start count mask (hex, 4 outputs a digit, output 0 in the high bit; 1 = from A)\n",
                w, rounds, moves, (unsigned long long)seed);
    }
    printf("The search mode, w = %d: %ld rounds of a kick and %ld moves, from the L and R warps, in each read model.\n", w,
           rounds, moves);
    printf("%4s %8s %6s %14s %14s %8s %6s %8s %6s\n", "E", "theorem", "E^2", "built papers'", "built E + 2", "papers'",
           "/E^2", "E + 2", "/E^2");
    for (int E = 2; E <= w; E++) {
        long built[2], found[2];
        for (int x = 0; x < 2; x++) {
            uint8_t start[SEARCH_MAX_W * SEARCH_MAX_W], best[SEARCH_MAX_W * SEARCH_MAX_W];
            found[x] = -1;
            for (int left = 1; left >= 0; left--) {
                int n_a = warp_mask(w, E, left, start);
                if (n_a < 0)
                    return 1;
                long c = warp_cost(w, E, n_a, start, models[x], &sp);
                if (left)
                    built[x] = c;
                c = search(w, E, n_a, models[x], seed + (uint64_t)E, rounds, moves, start, &sp);
                if (c > found[x]) {
                    found[x] = c;
                    memcpy(best, start, (size_t)(w * E));
                }
            }
            if (f) {
                int n_a = 0;
                for (int k = 0; k < w * E; k++)
                    n_a += best[k];
                fprintf(f, "%d %s %s %ld ", E, MODEL_WORD[models[x]], n_a == (E + 1) / 2 * w ? "L" : "R", found[x]);
                put_hex(f, best, w * E);
                fputc('\n', f);
            }
        }
        printf("%4d %8ld %6d %14ld %14ld %8ld %6.4f %8ld %6.4f\n", E, kit_worst_theorem(w, E), E * E, built[0], built[1],
               found[0], (double)found[0] / (E * E), found[1], (double)found[1] / (E * E));
        fflush(stdout);
    }
    if (f && fclose(f) != 0) {
        fprintf(stderr, "worst_case: cannot write %s\n", out);
        return 1;
    }
    return 0;
}

/*
 * Recounts the inputs of a search file with the simulator (kit_worst_mask_count) in their read
 * model, checks each is a warp of the construction's L or R kind (its keys of A), that its count is
 * the one stored, and that the fast count of the search agrees; then prints the search mode's table,
 * with the construction beside it, and the least ratio to E^2 in each model.
 */
static int verify(const char *path, int md)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "worst_case: cannot read %s\n", path);
        return 1;
    }
    static cost_space sp;
    long best[2][SEARCH_MAX_W + 1];
    int w = 0, bad = 0, lines = 0;
    memset(best, -1, sizeof best);
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') {
            const char *at = strstr(line, "--w ");
            if (at && !w)
                w = atoi(at + 4);
            continue;
        }
        int E;
        long stored;
        char model[16], start[4], hex[1100];
        uint8_t mask[SEARCH_MAX_W * SEARCH_MAX_W];
        if (sscanf(line, "%d %15s %3s %ld %1099s", &E, model, start, &stored, hex) != 5 || w < 2 || w > SEARCH_MAX_W ||
            E < 2 || E > w || get_hex(hex, mask, w * E) != 0) {
            fprintf(stderr, "worst_case: %s: a bad line (w = %d from the header): %s", path, w, line);
            fclose(f);
            return 1;
        }
        int x = strcmp(model, "papers") == 0 ? 0 : strcmp(model, "serial") == 0 ? 1 : -1, n_a = 0;
        for (int k = 0; k < w * E; k++)
            n_a += mask[k];
        kit_bank_count c;
        long sim = x < 0 ? -1 : count(w, E, n_a, mask, x == 0 ? KIT_READS_PAPERS : KIT_READS_SERIAL, &c);
        long fast = x < 0 ? -1 : warp_cost(w, E, n_a, mask, x == 0 ? KIT_READS_PAPERS : KIT_READS_SERIAL, &sp);
        int kind_ok = n_a == (strcmp(start, "L") == 0 ? (E + 1) / 2 * w : E / 2 * w);
        if (x < 0 || sim != stored || fast != sim || !kind_ok) {
            fprintf(stderr, "worst_case: %s: E = %d, %s model: stored %ld, the simulator counts %ld, the search's count %ld, "
                    "%d keys of A for an %s warp\n", path, E, model, stored, sim, fast, n_a, start);
            bad++;
            continue;
        }
        best[x][E] = sim;
        lines++;
    }
    fclose(f);
    if (bad || w < 2) {
        if (w < 2)
            fprintf(stderr, "worst_case: %s names no --w in its header\n", path);
        return 1;
    }
    if (md) {
        printf("| E | theorem | E^2 | construction, papers' model | construction, E + 2 reads | search, papers' model | / E^2 "
               "| search, E + 2 reads | / E^2 |\n");
        printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    } else {
        printf("%s: %d inputs recounted by the simulator, every count as stored; w = %d.\n", path, lines, w);
        printf("%4s %8s %6s %14s %14s %8s %6s %8s %6s\n", "E", "theorem", "E^2", "built papers'", "built E + 2", "papers'",
               "/E^2", "E + 2", "/E^2");
    }
    double least[2] = {1e9, 1e9};
    int least_e[2] = {0, 0};
    for (int E = 2; E <= w; E++) {
        uint8_t mask[SEARCH_MAX_W * SEARCH_MAX_W];
        int n_a = warp_mask(w, E, 1, mask);
        if (n_a < 0 || best[0][E] < 0 || best[1][E] < 0) {
            fprintf(stderr, "worst_case: %s lacks E = %d in %s model\n", path, E, best[0][E] < 0 ? "the papers'" : "the E + 2");
            return 1;
        }
        long bp = warp_cost(w, E, n_a, mask, KIT_READS_PAPERS, &sp), bs = warp_cost(w, E, n_a, mask, KIT_READS_SERIAL, &sp);
        double rp = (double)best[0][E] / (E * E), rs = (double)best[1][E] / (E * E);
        for (int x = 0; x < 2; x++)
            if ((x ? rs : rp) < least[x]) {
                least[x] = x ? rs : rp;
                least_e[x] = E;
            }
        if (md)
            printf("| %d | %ld | %d | %ld | %ld | %ld | %.3f | %ld | %.3f |\n", E, kit_worst_theorem(w, E), E * E, bp, bs,
                   best[0][E], rp, best[1][E], rs);
        else
            printf("%4d %8ld %6d %14ld %14ld %8ld %6.4f %8ld %6.4f\n", E, kit_worst_theorem(w, E), E * E, bp, bs, best[0][E],
                   rp, best[1][E], rs);
    }
    if (!md)
        printf("least ratio to E^2: papers' model %.4f at E = %d; E + 2 reads %.4f at E = %d\n", least[0], least_e[0],
               least[1], least_e[1]);
    return 0;
}

/* The targeted mode (kit_worst_target) on one warp of groups of c threads, beside the construction's L warp. */
static int target_mode(int w, int E, int c)
{
    uint8_t *mask = malloc((size_t)w * E);
    if (!mask) {
        fprintf(stderr, "worst_case: out of memory\n");
        return 1;
    }
    int n_a = warp_mask(w, E, 1, mask); /* whole warps: the L warp's keys of A; groups: half of theirs */
    if (c != w)
        n_a = c * E % 2 == 0 ? c * E / 2 : -1;
    kit_bank_count built;
    char err[200];
    long got = -1, l_warp = n_a < 0 ? -1 : count(w, E, warp_mask(w, E, 1, mask), mask, KIT_READS_SERIAL, &built);
    if (n_a < 0 || l_warp < 0 || (got = kit_worst_target(w, E, c, n_a, mask, err, sizeof err)) < 0)
        fprintf(stderr, "worst_case: the targeted mode, w = %d, E = %d, c = %d: %s\n", w, E, c,
                n_a < 0 ? "groups of c threads need cE even" : got < 0 && l_warp >= 0 ? err : "no construction");
    else
        printf("the targeted mode, w = %d, E = %d, groups of %d threads with %d keys of A each: %ld (SerialMerge, E + 2 reads); "
               "the construction's L warp: %ld\n", w, E, c, n_a, got, l_warp);
    free(mask);
    return got < 0 ? 1 : 0;
}

/* ---- the sort's input --------------------------------------------------------------------- */

/* Writes the n keys to the file out, 4 bytes each, little-endian; returns 1, or 0 if it could not. */
static int write_keys(const char *out, const int32_t *keys, long long n)
{
    FILE *f = fopen(out, "wb");
    int ok = f != NULL;
    for (long long k = 0; ok && k < n; k++) { /* little-endian whatever the host */
        uint32_t v = (uint32_t)keys[k];
        unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
        ok = fwrite(b, 1, 4, f) == 4;
    }
    if (f && fclose(f) != 0)
        ok = 0;
    return ok;
}

/* The sort input of n keys for w, E, u: replayed (mode_replay) or written to out; returns the exit status. */
static int sort_input(long long n, int w, int E, int u, int mode_replay, int md, const char *out)
{
    char err[200];
    int32_t *keys = malloc((size_t)n * sizeof *keys);
    if (!keys) {
        fprintf(stderr, "worst_case: out of memory for %lld keys\n", n);
        return 1;
    }
    if (kit_worst_sort_input(keys, (size_t)n, w, E, u, err, sizeof err) != 0) {
        fprintf(stderr, "worst_case: %s\n", err);
        free(keys);
        return EXIT_BAD_INPUT;
    }
    if (mode_replay) {
        free(keys);
        return replay((size_t)n, w, E, u, md);
    }
    int ok = write_keys(out, keys, n);
    free(keys);
    if (!ok) {
        fprintf(stderr, "worst_case: cannot write %s\n", out);
        return 1;
    }
    printf("wrote %lld keys (n = %lld, u = %d, E = %d, w = %d) to %s\n", n, n, u, E, w, out);
    return 0;
}

int main(int argc, char **argv)
{
    long long n = 0;
    int w = 0, E = 0, u = 0, md = 0, move_word = -1, move_to = -1, modes = 0;
    int mode_table = 0, mode_orders = 0, mode_replay = 0, mode_viz = 0, mode_search = 0, mode_target = 0, c = 0;
    long rounds = 100, moves = 10000;
    uint64_t seed = 1;
    const char *out = NULL, *verify_file = NULL;
    for (int x = 1; x < argc; x++) {
        const char *o = argv[x];
        int has = x + 1 < argc;
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            fputs(usage_text, stdout);
            return 0;
        } else if (strcmp(o, "--table") == 0) {
            mode_table = 1;
        } else if (strcmp(o, "--orders") == 0) {
            mode_orders = 1;
        } else if (strcmp(o, "--replay") == 0) {
            mode_replay = 1;
        } else if (strcmp(o, "--viz") == 0) {
            mode_viz = 1;
        } else if (strcmp(o, "--search") == 0) {
            mode_search = 1;
        } else if (strcmp(o, "--target") == 0) {
            mode_target = 1;
        } else if (strcmp(o, "--c") == 0 && has) {
            c = (int)number(o, argv[++x], 1, 1024);
        } else if (strcmp(o, "--md") == 0) {
            md = 1;
        } else if (strcmp(o, "--verify") == 0 && has) {
            verify_file = argv[++x];
        } else if (strcmp(o, "--rounds") == 0 && has) {
            rounds = (long)number(o, argv[++x], 1, 100000000);
        } else if (strcmp(o, "--moves") == 0 && has) {
            moves = (long)number(o, argv[++x], 0, 100000000);
        } else if (strcmp(o, "--seed") == 0 && has) {
            seed = (uint64_t)number(o, argv[++x], 0, 1LL << 62);
        } else if (strcmp(o, "--move") == 0 && has) {
            const char *v = argv[++x], *colon = strchr(v, ':');
            char word[32];
            if (!colon || colon - v >= (long)sizeof word) {
                fprintf(stderr, "worst_case: --move wants WORD:THREAD, not '%s'\n", v);
                return EXIT_BAD_INPUT;
            }
            memcpy(word, v, (size_t)(colon - v));
            word[colon - v] = '\0';
            move_word = (int)number(o, word, 0, 1 << 20);
            move_to = (int)number(o, colon + 1, 0, 1023);
        } else if (strcmp(o, "--n") == 0 && has) {
            n = number(o, argv[++x], 1, (1LL << 31));
        } else if (strcmp(o, "--E") == 0 && has) {
            E = (int)number(o, argv[++x], 2, 1024);
        } else if (strcmp(o, "--u") == 0 && has) {
            u = (int)number(o, argv[++x], 1, 1024);
        } else if (strcmp(o, "--w") == 0 && has) {
            w = (int)number(o, argv[++x], 2, 1024);
        } else if (strcmp(o, "--out") == 0 && has) {
            out = argv[++x];
        } else {
            fprintf(stderr, "worst_case: unknown option or missing value: %s\n%s", o, usage_text);
            return EXIT_BAD_INPUT;
        }
    }
    if (w && E > w) {
        fprintf(stderr, "worst_case: E = %d > w = %d: the construction needs 1 < E <= w\n", E, w);
        return EXIT_BAD_INPUT;
    }
    modes = mode_table + mode_orders + mode_replay + mode_viz + mode_search + mode_target + (verify_file != NULL);
    if (modes > 1) {
        fprintf(stderr, "worst_case: give one of --table, --orders, --replay, --viz, --search, --target and --verify\n");
        return EXIT_BAD_INPUT;
    }
    if (mode_table)
        return table(w, md);
    if (mode_orders)
        return orders(w ? w : 32, md);
    if (verify_file)
        return verify(verify_file, md);
    if (mode_target) {
        int ww = w ? w : 32, cc = c ? c : ww;
        if (!E || ww % cc != 0) {
            fprintf(stderr, "worst_case: --target needs --E, and --c dividing w\n");
            return EXIT_BAD_INPUT;
        }
        return target_mode(ww, E, cc);
    }
    if (mode_search) {
        if ((w ? w : 32) > SEARCH_MAX_W) {
            fprintf(stderr, "worst_case: the search mode takes w up to %d\n", SEARCH_MAX_W);
            return EXIT_BAD_INPUT;
        }
        return search_mode(w ? w : 32, rounds, moves, seed, out);
    }
    if (mode_viz) {
        if (!E) {
            fprintf(stderr, "worst_case: --viz needs --E\n");
            return EXIT_BAD_INPUT;
        }
        return viz(w ? w : 32, E, move_word, move_to);
    }
    if (!n || !E || !u || (!mode_replay && !out)) {
        fprintf(stderr, "worst_case: give --n, --E and --u%s\n%s", mode_replay ? "" : ", and --out FILE", usage_text);
        return EXIT_BAD_INPUT;
    }
    return sort_input(n, w ? w : 32, E, u, mode_replay, md, out);
}
