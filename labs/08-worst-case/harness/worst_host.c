/* One warp's worst case for the pairwise merge sort (lab 8), the parts the lab gives: the theorem, the
   warp assembled from a subproblem and an order, its keys, and its count in the simulator. The
   construction itself, the sort's input and its replay are the instructor's (grader/ref/ref_worst.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit_types.h"
#include "worst_host.h"

#define MAX_W 1024

static int bad_warp(int w, int E)
{
    return w < 2 || w > MAX_W || E < 2 || E > w;
}

long kit_worst_theorem(int w, int E)
{
    if (bad_warp(w, E))
        return -1;
    long e = E, r = w % E, d = kit_gcd(w, E);
    if (2 * E <= w)
        return e * e;
    return (e * e + 2 * e * r + e * d - r * r - r * d) / 2;
}

int kit_worst_warp_with(int w, int E, int left, kit_worst_subproblem_fn sub, kit_worst_order_fn order,
                        kit_worst_split *T, char *err, size_t errlen)
{
    if (bad_warp(w, E)) {
        snprintf(err, errlen, "bad warp: w must lie in 2 .. %d and E in 2 .. w (got w = %d, E = %d)", MAX_W, w, E);
        return -1;
    }
    int a[MAX_W], b[MAX_W];
    int got = sub(w, E, a, b);
    return kit_worst_warp_from(w, E, left, a, b, got, order, T, err, errlen);
}

int kit_worst_warp_from(int w, int E, int left, const int *a, const int *b, int count, kit_worst_order_fn order,
                        kit_worst_split *T, char *err, size_t errlen)
{
    if (bad_warp(w, E)) {
        snprintf(err, errlen, "bad warp: w must lie in 2 .. %d and E in 2 .. w (got w = %d, E = %d)", MAX_W, w, E);
        return -1;
    }
    int d = kit_gcd(w, E), per = w / d, m = E / d;
    if (count != per) {
        snprintf(err, errlen, "the subproblem has %d tuples, expected w/d = %d (w = %d, E = %d)", count, per, w, E);
        return -1;
    }
    long sum_a = 0;
    for (int i = 0; i < per; i++) {
        if (a[i] < 0 || b[i] < 0 || a[i] + b[i] != E) {
            snprintf(err, errlen, "tuple %d of the subproblem is (%d, %d): not two counts summing to E = %d", i, a[i], b[i], E);
            return -1;
        }
        sum_a += a[i];
    }
    if (sum_a != (long)((m + 1) / 2) * w) {
        snprintf(err, errlen, "the subproblem takes %ld keys of A, expected ceil(E/2d)*w = %d", sum_a, (m + 1) / 2 * w);
        return -1;
    }
    int n_a = 0;
    for (int j = 0; j < d; j++) {
        int more_a = (j % 2 == 0) == (left != 0);
        for (int i = 0; i < per; i++) {
            T[j * per + i].a = more_a ? a[i] : b[i];
            T[j * per + i].b = more_a ? b[i] : a[i];
            n_a += T[j * per + i].a;
        }
    }
    for (int i = 0, aw = 0, bw = n_a; i < w; i++) {
        T[i].a_first = order(w, E, aw, bw, T[i].a, T[i].b) ? 1 : 0;
        aw += T[i].a;
        bw += T[i].b;
    }
    return 0;
}

/* Whether a thread's k-th output comes from A: its A keys first if a_first, else after its B keys. */
static int output_from_a(const kit_worst_split *t, int k)
{
    return t->a_first ? k < t->a : k >= t->b;
}

void kit_worst_warp_mask(int w, int E, const kit_worst_split *T, uint8_t *out)
{
    for (int i = 0; i < w; i++)
        for (int k = 0; k < E; k++)
            out[(size_t)i * E + k] = (uint8_t)output_from_a(&T[i], k);
}

int kit_worst_warp_keys(int w, int E, const kit_worst_split *T, int32_t *keys, char *err, size_t errlen)
{
    if (bad_warp(w, E)) {
        snprintf(err, errlen, "bad warp: w must lie in 2 .. %d and E in 2 .. w (got w = %d, E = %d)", MAX_W, w, E);
        return -1;
    }
    int n_a = 0;
    for (int i = 0; i < w; i++) {
        if (T[i].a < 0 || T[i].b < 0 || T[i].a + T[i].b != E) {
            snprintf(err, errlen, "thread %d's split (%d, %d) does not take E = %d keys", i, T[i].a, T[i].b, E);
            return -1;
        }
        n_a += T[i].a;
    }
    /* Output k is key k: A holds the outputs from A, B the others, both ascending. */
    for (int i = 0, x = 0, y = n_a; i < w; i++)
        for (int k = 0; k < E; k++)
            keys[output_from_a(&T[i], k) ? x++ : y++] = i * E + k;
    return n_a;
}

int kit_worst_warp_count(int w, int E, const kit_worst_split *T, kit_bank_count *count, char *err, size_t errlen)
{
    size_t total = bad_warp(w, E) ? 0 : (size_t)w * E; /* a bad warp: kit_worst_warp_keys says why */
    int32_t *keys = malloc(total * sizeof *keys + 1);
    kit_access *acc = calloc(total + 2 * (size_t)w + 1, sizeof *acc);
    int n_a = keys && acc ? kit_worst_warp_keys(w, E, T, keys, err, errlen) : -1, rc = -1;
    if (!keys || !acc)
        snprintf(err, errlen, "out of memory");
    /* SerialMerge's reads, from the splits alone: A at words [0, n_a), B after it. Thread i starts at
       A[a] and B[b], a and b the keys the threads before it take; after each output it reads the
       next key of the list that output came from. */
    size_t n = 0;
    for (int i = 0, a = 0, b = 0; n_a >= 0 && i < w; i++) {
        uint32_t words[2] = {(uint32_t)a, (uint32_t)(n_a + b)};
        for (int o = 0; o < E + 2; o++, n++) {
            int from_a = o >= 2 && output_from_a(&T[i], o - 2);
            if (o >= 2)
                words[from_a ? 0 : 1]++;
            acc[n].thread = (uint32_t)i;
            acc[n].ordinal = (uint32_t)o;
            acc[n].addr = 4u * words[o == 1 || (o >= 2 && !from_a)];
            acc[n].size = 4;
        }
        a += T[i].a;
        b += T[i].b;
    }
    if (n_a >= 0) {
        kit_bank_model model = {(unsigned)w, 4};
        kit_bank_report rep;
        rc = kit_bank_simulate(&model, acc, n, &rep, err, errlen);
        if (rc == 0) {
            *count = rep.load;
            kit_bank_free(&rep);
        }
    }
    free(keys);
    free(acc);
    return rc;
}

int kit_worst_reads_steps(kit_worst_reads reads, int E)
{
    return reads == KIT_READS_SERIAL ? E + 2 : reads == KIT_READS_LAB9 ? E + 1 : E;
}

const char *kit_worst_reads_name(kit_worst_reads reads)
{
    return reads == KIT_READS_PAPERS ? "papers' model (E reads)"
           : reads == KIT_READS_LAB9 ? "lab 9's merge (E + 1 reads)"
           : reads == KIT_READS_SERIAL ? "SerialMerge (E + 2 reads)"
                                       : "?";
}

int kit_worst_mask_count(int w, int E, int c, int n_a, const uint8_t *mask, kit_worst_reads reads,
                         kit_bank_count *count, char *err, size_t errlen)
{
    if (bad_warp(w, E) || c < 1 || c > w || w % c != 0 || n_a < 0 || n_a > c * E ||
        (reads != KIT_READS_PAPERS && reads != KIT_READS_LAB9 && reads != KIT_READS_SERIAL)) {
        snprintf(err, errlen, "bad count: w in 2 .. %d, 1 < E <= w, c dividing w, 0 <= n_a <= cE, a known read model "
                 "(got w = %d, E = %d, c = %d, n_a = %d)", MAX_W, w, E, c, n_a);
        return -1;
    }
    int steps = kit_worst_reads_steps(reads, E);
    kit_access *acc = calloc((size_t)w * steps, sizeof *acc);
    if (!acc) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    size_t n = 0;
    for (int g = 0; g < w / c; g++) {
        int base = g * c * E, ones = 0;
        for (int k = 0; k < c * E; k++)
            ones += mask[(size_t)base + k] != 0;
        if (ones != n_a) {
            snprintf(err, errlen, "group %d takes %d keys of A, not n_a = %d", g, ones, n_a);
            free(acc);
            return -1;
        }
        for (int l = 0, a = 0, b = 0; l < c; l++) {
            int i = g * c + l, o = 0;
            uint32_t words[MAX_W + 2];
            if (reads != KIT_READS_PAPERS) { /* SerialMerge's first two reads: the front keys A[a] and B[b] */
                words[o++] = (uint32_t)(base + a);
                words[o++] = (uint32_t)(base + n_a + b);
            }
            for (int k = 0; k < E; k++) {
                int from_a = mask[(size_t)i * E + k] != 0;
                if (reads == KIT_READS_PAPERS) /* the output itself */
                    words[o++] = (uint32_t)(from_a ? base + a : base + n_a + b);
                if (from_a)
                    a++;
                else
                    b++;
                if (reads != KIT_READS_PAPERS && o < steps) /* the next key of that list */
                    words[o++] = (uint32_t)(from_a ? base + a : base + n_a + b);
            }
            for (int s = 0; s < steps; s++, n++) {
                acc[n].thread = (uint32_t)i;
                acc[n].ordinal = (uint32_t)s;
                acc[n].addr = 4u * words[s];
                acc[n].size = 4;
            }
        }
    }
    kit_bank_model model = {(unsigned)w, 4};
    kit_bank_report rep;
    int rc = kit_bank_simulate(&model, acc, n, &rep, err, errlen);
    if (rc == 0) {
        *count = rep.load;
        kit_bank_free(&rep);
    }
    free(acc);
    return rc;
}
