/* worst_case: writes the merge sort's worst-case input (labs/08-worst-case/harness/worst_host.h, grader/ref/kit_ref.h), prints the per-warp table, replays the sort's rounds, and draws a warp's input for bankviz. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit_gen.h"
#include "kit_ref.h"

#define EXIT_BAD_INPUT 2

static const char usage_text[] =
    "usage: worst_case --n N --E E --u U [--w 32] --out FILE   write the worst-case keys (raw little-endian int32)\n"
    "       worst_case --table [--w W]                          the per-warp table (every w of 4 8 12 16 32 64 by default)\n"
    "       worst_case --replay --n N --E E --u U [--w 32]      replay every merge round of the sort, worst case and random\n"
    "       worst_case --viz --E E [--w W]                      one warp's input as a bankviz trace, on stdout\n"
    "       worst_case --search [--w 32] [--iters 20000]        the search mode: improve each E's L warp by local search\n"
    "The sort's input is a permutation of 0 .. N-1 with N = U*E*2^k, U a power of two and a multiple of w,\n"
    "1 < E <= w. The table runs one merge round of one warp through the simulator (w banks) for every\n"
    "1 < E <= w: cost is the papers' count (the sum over steps of the most keys one bank serves), to\n"
    "compare with the theorem's bound; conflicts is the profiler's count (cost minus one per step).\n"
    "The search starts from the construction and swaps outputs between A and B, keeping a swap when\n"
    "the simulator's count does not fall (kit_worst_search, seed 1).\n";

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

/* One warp's line of the table; returns 1 if the count is below the theorem. */
static int table_row(int w, int E)
{
    kit_worst_split T[1024];
    kit_bank_count c;
    char err[200];
    if (kit_worst_warp(w, E, 1, T, err, sizeof err) != 0 || kit_worst_warp_count(w, E, T, &c, err, sizeof err) != 0) {
        fprintf(stderr, "worst_case: w = %d, E = %d: %s\n", w, E, err);
        return 1;
    }
    long bound = kit_worst_theorem(w, E);
    int d = w, r = E;
    while (r != 0) {
        int t = d % r;
        d = r;
        r = t;
    }
    printf("%4d %4d %3d %3d %3d %8ld %6d %8llu %9llu  %s\n", w, E, d, w / E, w % E, bound, E * E,
           (unsigned long long)c.cost, (unsigned long long)c.conflicts, (long)c.cost >= bound ? "yes" : "NO");
    return (long)c.cost < bound;
}

static int table(int only_w)
{
    static const int ws[] = {4, 8, 12, 16, 32, 64};
    int below = 0;
    printf("One merge round of one warp of the worst-case input, SerialMerge's reads, w banks.\n");
    printf("%4s %4s %3s %3s %3s %8s %6s %8s %9s  %s\n", "w", "E", "d", "q", "r", "theorem", "E^2", "cost", "conflicts",
           "cost >= theorem");
    for (size_t x = 0; x < sizeof ws / sizeof ws[0]; x++) {
        int w = only_w ? only_w : ws[x];
        for (int E = 2; E <= w; E++)
            below += table_row(w, E);
        if (only_w)
            break;
    }
    printf("%s\n", below ? "FAIL: some counts are below the theorem" : "PASS: every count is at least the theorem");
    return below ? 1 : 0;
}

static int replay(size_t n, int w, int E, int u)
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
    printf("Replay of the merge sort, n = %zu, u = %d, E = %d, w = %d: shared-memory loads of each merge round.\n", n, u, E, w);
    printf("cost: the papers' count (per warp: the sum over its E + 2 steps of the most keys one bank serves).\n");
    printf("%-6s %9s %7s %8s %8s %12s %10s %12s %10s\n", "round", "run", "threads", "input", "warps", "worst cost",
           "per warp", "random cost", "per warp");
    for (int x = 0; x < nw; x++) {
        const kit_worst_round *R = &worst[x];
        printf("%-6s %9lld %7d %8s %8lld %12llu %10.1f %12llu %10.1f\n", R->global ? "global" : "block", R->run, R->threads,
               R->attacked == 1 ? "built" : "searched", R->warps, (unsigned long long)R->load.cost,
               (double)R->load.cost / (double)R->warps, (unsigned long long)random[x].load.cost,
               (double)random[x].load.cost / (double)random[x].warps);
    }
    printf("theorem per warp: %ld (E^2 = %d); every replayed sort ended sorted.\n", bound, E * E);
    rc = 0;
done:
    free(keys);
    free(rnd);
    return rc;
}

/* One L warp's input as the papers draw it: thread i reads its j-th output at step j; categories aligned, misaligned, free. */
static int viz(int w, int E)
{
    kit_worst_split T[1024];
    char err[200];
    if (kit_worst_warp(w, E, 1, T, err, sizeof err) != 0) {
        fprintf(stderr, "worst_case: %s\n", err);
        return 1;
    }
    int n_a = 0, s = w - E;
    for (int i = 0; i < w; i++)
        n_a += T[i].a;
    char *cat = calloc((size_t)w * E + 1, 1);
    if (!cat) {
        fprintf(stderr, "worst_case: out of memory\n");
        return 1;
    }
    printf("# kit-trace 1\n");
    for (int i = 0, aw = 0, bw = n_a; i < w; i++) {
        for (int j = 0; j < E; j++) {
            int from_a = T[i].a_first ? j < T[i].a : j >= T[i].b;
            int k = from_a ? (T[i].a_first ? j : j - T[i].b) : (T[i].a_first ? j - T[i].a : j);
            int word = from_a ? aw + k : bw + k;
            printf("0 %d %d %d 4 r\n", i, j, word * 4);
            cat[word] = word % w < s ? '.' : word % w == s + j ? '+' : 'x';
        }
        aw += T[i].a;
        bw += T[i].b;
    }
    printf("# bankviz model %d 4\n# bankviz step none\n# bankviz divider %d\n", w, n_a);
    printf("# bankviz divider-meaning the end of the warp's A keys (left) and the start of its B keys (right)\n");
    for (int k = 0; k < w * E; k += 64)
        printf("# bankviz categories %d %.*s\n", k, w * E - k < 64 ? w * E - k : 64, cat + k);
    free(cat);
    return 0;
}

/* The search mode's table: for each 1 < E <= w, the L warp's construction, then the search from it. */
static int search_table(int w, long iters)
{
    printf("The search mode: one L warp, w = %d, %ld moves from the construction (SerialMerge's reads, w banks).\n", w, iters);
    printf("%4s %8s %6s %12s %8s %6s\n", "E", "theorem", "E^2", "construction", "search", "gain");
    uint8_t *mask = malloc((size_t)w * w);
    kit_worst_split *T = malloc((size_t)w * sizeof *T);
    int rc = mask && T ? 0 : 1;
    for (int E = 2; E <= w && rc == 0; E++) {
        char err[200];
        if (kit_worst_warp(w, E, 1, T, err, sizeof err) != 0) {
            fprintf(stderr, "worst_case: w = %d, E = %d: %s\n", w, E, err);
            rc = 1;
            break;
        }
        kit_worst_warp_mask(w, E, T, mask);
        int n_a = 0;
        for (int k = 0; k < w * E; k++)
            n_a += mask[k];
        long built = kit_worst_groups_cost(w, E, w, n_a, mask), found = kit_worst_search(w, E, w, n_a, 1, iters, mask, err, sizeof err);
        if (found < 0) {
            fprintf(stderr, "worst_case: w = %d, E = %d: %s\n", w, E, err);
            rc = 1;
            break;
        }
        printf("%4d %8ld %6d %12ld %8ld %+6ld\n", E, kit_worst_theorem(w, E), E * E, built, found, found - built);
    }
    if (!mask || !T)
        fprintf(stderr, "worst_case: out of memory\n");
    free(mask);
    free(T);
    return rc;
}

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
static int sort_input(long long n, int w, int E, int u, int mode_replay, const char *out)
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
        return replay((size_t)n, w, E, u);
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
    int w = 0, E = 0, u = 0, mode_table = 0, mode_replay = 0, mode_viz = 0, mode_search = 0;
    long iters = 20000;
    const char *out = NULL;
    for (int x = 1; x < argc; x++) {
        const char *o = argv[x];
        int has = x + 1 < argc;
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            fputs(usage_text, stdout);
            return 0;
        } else if (strcmp(o, "--table") == 0) {
            mode_table = 1;
        } else if (strcmp(o, "--replay") == 0) {
            mode_replay = 1;
        } else if (strcmp(o, "--viz") == 0) {
            mode_viz = 1;
        } else if (strcmp(o, "--search") == 0) {
            mode_search = 1;
        } else if (strcmp(o, "--iters") == 0 && has) {
            iters = (long)number(o, argv[++x], 0, 100000000);
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
    if (mode_table + mode_replay + mode_viz + mode_search > 1) {
        fprintf(stderr, "worst_case: give one of --table, --replay, --viz and --search\n");
        return EXIT_BAD_INPUT;
    }
    if (mode_table)
        return table(w);
    if (mode_search)
        return search_table(w ? w : 32, iters);
    if (mode_viz) {
        if (!E) {
            fprintf(stderr, "worst_case: --viz needs --E\n");
            return EXIT_BAD_INPUT;
        }
        return viz(w ? w : 32, E);
    }
    if (!n || !E || !u || (!mode_replay && !out)) {
        fprintf(stderr, "worst_case: give --n, --E and --u%s\n%s", mode_replay ? "" : ", and --out FILE", usage_text);
        return EXIT_BAD_INPUT;
    }
    return sort_input(n, w ? w : 32, E, u, mode_replay, out);
}
