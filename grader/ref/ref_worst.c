/* Instructor-only (grader/ref/kit_ref.h): lab 8's answers (the papers' per-warp construction and order),
   the merge sort's worst-case input built from them, and SerialMerge replayed on keys in the simulator. */
#include <stdlib.h>
#include <string.h>

#include "kit_gen.h"
#include "kit_ref.h"

#define MAX_W 1024
/* Moves the search mode makes for each round of the sort whose groups lie within one warp. */
#define KIT_WORST_SORT_SEARCH 40000
/* The most cells one pass of the targeted mode may update in the sort's generator (every w <= 32 fits). */
#define KIT_WORST_TARGET_PASS 1e9
static int bad_warp(int w, int E)
{
    return w < 2 || w > MAX_W || E < 2 || E > w;
}

/* Appends `count` copies of the tuple (a, b) to the sequence. */
static void put(int *a, int *b, int *n, int count, int ta, int tb)
{
    for (int k = 0; k < count; k++) {
        a[*n] = ta;
        b[*n] = tb;
        (*n)++;
    }
}

int kit_worst_subproblem(int w, int E, int *a, int *b)
{
    if (bad_warp(w, E))
        return -1;
    int d = kit_gcd(w, E), q = w / E, r = w % E, n = 0;
    if (r == 0) { /* E divides w: sorted order is the worst case */
        put(a, b, &n, q, E, 0);
        return n;
    }
    /* s_i = i(r/d) mod E/d, x_i = (E/d - s_i)d, y_i = s_i d; a_i = x_i for even i, else y_i. */
    int m = E / d, rd = r / d;
#define S_(i) ((i) * rd % m)
#define X_(i) ((m - S_(i)) * d)
#define Y_(i) (S_(i) * d)
    put(a, b, &n, 1, Y_(1), X_(1)); /* (a_1, b_1) = (r, E - r) */
    put(a, b, &n, q, E, 0);
    for (int i = 1; i <= m - 2; i++) {
        int j = i + 1;
        put(a, b, &n, 1, j % 2 == 0 ? X_(j) : Y_(j), j % 2 == 1 ? X_(j) : Y_(j));
        int count = X_(i) + Y_(j) == r ? q : q - 1;
        put(a, b, &n, count, i % 2 == 0 ? E : 0, i % 2 == 0 ? 0 : E);
    }
    put(a, b, &n, q, (m - 1) % 2 == 0 ? E : 0, (m - 1) % 2 == 0 ? 0 : E);
#undef S_
#undef X_
#undef Y_
    return n;
}

/* How many of a thread's reads at ordinals 2 .. E + 1 fall in the bank the papers align for them. */
static int hits(int w, int E, int first_word, int first_count, int second_word, int second_count)
{
    int s = w - E, h = 0;
    for (int k = 0; k < first_count; k++)
        h += (first_word + k + 1) % w == (s + 1 + k) % w; /* ordinal 2 + k, target s + (2 + k) - 1 */
    for (int k = 0; k < second_count; k++)
        h += (second_word + k + 1) % w == (s + 1 + first_count + k) % w;
    return h;
}

int kit_worst_order(int w, int E, int a_word, int b_word, int a, int b)
{
    return hits(w, E, a_word, a, b_word, b) >= hits(w, E, b_word, b, a_word, a);
}

int kit_worst_warp(int w, int E, int left, kit_worst_split *T, char *err, size_t errlen)
{
    return kit_worst_warp_with(w, E, left, kit_worst_subproblem, kit_worst_order, T, err, errlen);
}

/* ---- replaying SerialMerge ------------------------------------------------------------- */

/* How many of the first k outputs of merging A and B come from A (merge path, ties to A). */
static int co_rank(const int32_t *A, int n_a, const int32_t *B, int n_b, int k)
{
    int lo = k > n_b ? k - n_b : 0, hi = k < n_a ? k : n_a;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (A[mid] <= B[k - 1 - mid])
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A growing trace. */
typedef struct trace {
    kit_access *acc;
    size_t n, cap;
} trace;

static int trace_push(trace *t, uint32_t block, uint32_t thread, uint32_t ordinal, uint32_t word)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 4096;
        kit_access *bigger = realloc(t->acc, cap * sizeof *bigger);
        if (!bigger)
            return -1;
        t->acc = bigger;
        t->cap = cap;
    }
    kit_access *a = &t->acc[t->n++];
    memset(a, 0, sizeof *a);
    a->block = block;
    a->thread = thread;
    a->ordinal = ordinal;
    a->addr = word * 4u;
    a->size = 4;
    return 0;
}

/*
 * c threads merge A (n_a keys at shared word a_word on) and B (n_b keys at b_word on), E outputs
 * each, thread l from diagonal l*E, with SerialMerge's reads; the outputs go to out[0 .. c*E).
 * Its threads are thread0 .. thread0 + c - 1 of `block`.
 */
static int serial_merge(const int32_t *A, int n_a, const int32_t *B, int n_b, int E, int c, uint32_t block,
                        uint32_t thread0, uint32_t a_word, uint32_t b_word, trace *t, int32_t *out)
{
    for (int l = 0; l < c; l++) {
        int diag = l * E, a = co_rank(A, n_a, B, n_b, diag), b = diag - a;
        uint32_t ord = 0, th = thread0 + (uint32_t)l;
        if (trace_push(t, block, th, ord++, a_word + (uint32_t)a) || trace_push(t, block, th, ord++, b_word + (uint32_t)b))
            return -1;
        int32_t key1 = a < n_a ? A[a] : 0, key2 = b < n_b ? B[b] : 0;
        for (int item = 0; item < E; item++) {
            int p = b < n_b && (a >= n_a || key2 < key1);
            out[diag + item] = p ? key2 : key1;
            if (p) {
                b++;
                key2 = b < n_b ? B[b] : 0;
            } else {
                a++;
                key1 = a < n_a ? A[a] : 0;
            }
            if (trace_push(t, block, th, ord++, p ? b_word + (uint32_t)b : a_word + (uint32_t)a))
                return -1;
        }
    }
    return 0;
}

/* Simulates a trace's loads on w banks of 4 bytes into *load; frees the trace. */
static int simulate(int w, trace *t, kit_bank_count *load, char *err, size_t errlen)
{
    kit_bank_model model = {(unsigned)w, 4};
    kit_bank_report rep;
    int rc = kit_bank_simulate(&model, t->acc, t->n, &rep, err, errlen);
    if (rc == 0) {
        *load = rep.load;
        kit_bank_free(&rep);
    }
    free(t->acc);
    memset(t, 0, sizeof *t);
    return rc;
}

int kit_worst_warp_replay(int w, int E, const kit_worst_split *T, kit_bank_count *count, char *err, size_t errlen)
{
    size_t total = bad_warp(w, E) ? 0 : (size_t)w * E; /* a bad warp: kit_worst_warp_keys says why */
    int32_t *keys = malloc(2 * total * sizeof *keys + 1);
    if (!keys) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int n_a = kit_worst_warp_keys(w, E, T, keys, err, errlen), rc = -1;
    trace t = {NULL, 0, 0};
    if (n_a >= 0) {
        int32_t *out = keys + total;
        if (serial_merge(keys, n_a, keys + n_a, (int)total - n_a, E, w, 0, 0, 0, (uint32_t)n_a, &t, out) != 0) {
            snprintf(err, errlen, "out of memory for the trace");
            free(t.acc);
        } else {
            rc = simulate(w, &t, count, err, errlen);
        }
    }
    free(keys);
    return rc;
}

/* ---- the search mode ------------------------------------------------------------------------ */

/* Whether a warp in groups is well formed: c threads a group dividing w, 0 <= n_a <= cE. */
static int bad_groups(int w, int E, int c, int n_a)
{
    return bad_warp(w, E) || c < 1 || c > w || w % c != 0 || n_a < 0 || n_a > c * E;
}

/* Scratch space of groups_cost: the words each step reads, and stamps that mark what a step has seen. */
typedef struct search_space {
    uint32_t *word;      /* (E + 2) * w words: step o, thread i at [o * w + i] */
    uint32_t *word_seen; /* per shared word (w * E + 1 of them): the step that last read it */
    uint32_t *bank_seen; /* per bank: the step that last counted in it */
    int *load;           /* per bank: distinct words the current step reads there */
    uint32_t step;
} search_space;

static int space_alloc(search_space *sp, int w, int E)
{
    sp->word = malloc((size_t)(E + 2) * w * sizeof *sp->word);
    sp->word_seen = calloc((size_t)w * E + 1, sizeof *sp->word_seen);
    sp->bank_seen = calloc((size_t)w, sizeof *sp->bank_seen);
    sp->load = calloc((size_t)w, sizeof *sp->load);
    sp->step = 0;
    return sp->word && sp->word_seen && sp->bank_seen && sp->load ? 0 : -1;
}

static void space_free(search_space *sp)
{
    free(sp->word);
    free(sp->word_seen);
    free(sp->bank_seen);
    free(sp->load);
}

/* The count of one warp in groups (kit_worst_groups_cost), its input already checked. */
static long groups_cost(int w, int E, int c, int n_a, const uint8_t *mask, search_space *sp)
{
    for (int g = 0; g < w / c; g++) {
        int base = g * c * E, a = 0, b = 0;
        for (int i = g * c; i < (g + 1) * c; i++) { /* SerialMerge: A[a], B[b], then the next key of each output's list */
            sp->word[i] = (uint32_t)(base + a);
            sp->word[w + i] = (uint32_t)(base + n_a + b);
            for (int k = 0; k < E; k++)
                sp->word[(size_t)(k + 2) * w + i] = mask[(size_t)i * E + k] ? (uint32_t)(base + ++a) : (uint32_t)(base + n_a + ++b);
        }
    }
    long cost = 0;
    for (int o = 0; o < E + 2; o++) {
        uint32_t st = ++sp->step;
        int most = 0;
        for (int i = 0; i < w; i++) {
            uint32_t x = sp->word[(size_t)o * w + i], bank = x % (uint32_t)w;
            if (sp->word_seen[x] == st)
                continue; /* a word read twice in one step is served once */
            sp->word_seen[x] = st;
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

long kit_worst_groups_cost(int w, int E, int c, int n_a, const uint8_t *mask)
{
    if (bad_groups(w, E, c, n_a))
        return -1;
    for (int g = 0; g < w / c; g++) {
        int ones = 0;
        for (int k = 0; k < c * E; k++)
            ones += mask[(size_t)g * c * E + k] != 0;
        if (ones != n_a)
            return -1;
    }
    search_space sp;
    long cost = -1;
    if (space_alloc(&sp, w, E) == 0)
        cost = groups_cost(w, E, c, n_a, mask, &sp);
    space_free(&sp);
    return cost;
}

long kit_worst_search(int w, int E, int c, int n_a, uint64_t seed, long iters, uint8_t *mask, char *err, size_t errlen)
{
    if (bad_groups(w, E, c, n_a) || iters < 0) {
        snprintf(err, errlen, "bad search: w in 2 .. %d, 1 < E <= w, c threads a group dividing w, 0 <= n_a <= cE, "
                 "iters >= 0 (got w = %d, E = %d, c = %d, n_a = %d)", MAX_W, w, E, c, n_a);
        return -1;
    }
    long cur = kit_worst_groups_cost(w, E, c, n_a, mask);
    if (cur < 0) {
        snprintf(err, errlen, "the starting input does not take n_a = %d keys of A in every group of %d threads", n_a, c);
        return -1;
    }
    size_t len = (size_t)w * E, unit = (size_t)c * E;
    search_space sp;
    uint8_t *best = malloc(len);
    if (space_alloc(&sp, w, E) != 0 || !best) {
        space_free(&sp);
        free(best);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memcpy(best, mask, len);
    long top = cur;
    uint64_t rng = seed;
    for (long it = 0; it < iters && n_a > 0 && (size_t)n_a < unit; it++) {
        /* Move one key of a group between A and B: swap an output from A with one from B. */
        size_t g = (size_t)(kit_rng_next(&rng) % (uint64_t)(w / c)) * unit, p, q;
        do
            p = g + (size_t)(kit_rng_next(&rng) % unit);
        while (!mask[p]);
        do
            q = g + (size_t)(kit_rng_next(&rng) % unit);
        while (mask[q]);
        mask[p] = 0;
        mask[q] = 1;
        long next = groups_cost(w, E, c, n_a, mask, &sp);
        if (next >= cur) { /* keep it; equal counts too, to walk across plateaus */
            cur = next;
            if (next > top) {
                top = next;
                memcpy(best, mask, len);
            }
        } else {
            mask[p] = 1;
            mask[q] = 0;
        }
    }
    memcpy(mask, best, len);
    space_free(&sp);
    free(best);
    return top;
}

/* ---- the targeted mode: a bank for every step, each group's best path to it ------------------- */

/*
 * One group's outputs (unit of them, n_a from A, starting at shared word base) that read bank T[o] at
 * step o as often as possible: a dynamic program over the merge's lattice, state (a, b) the keys of A
 * and B output so far. step[k] is the target of the read after output k (T[k % E + 2]), and start[k]
 * says whether a state of k outputs starts a thread, which reads A[a] and B[b] there at steps 0 and 1,
 * as groups_cost has it. hits and from hold (n_a + 1) * (n_b + 1) entries, bank unit + 2. Writes the
 * group's mask; returns its hits.
 */
static int group_path(int w, int unit, int n_a, int base, const int *T, const int *step, const uint8_t *start,
                      int *hits, uint8_t *from, int *bank, uint8_t *mask)
{
    int n_b = unit - n_a, cols = n_b + 1;
    for (int x = 0; x <= unit + 1; x++) /* A[a] is word base + a, B[b] is word base + n_a + b */
        bank[x] = (base + x) % w;
    for (int a = 0; a <= n_a; a++)
        for (int b = 0; b <= n_b; b++) {
            int best = a + b == 0 ? 0 : -1, pick = 0;
            for (int side = 1; side >= 0; side--) { /* 1: the last output came from A, 0: from B */
                int pa = a - side, pb = b - !side;
                if (pa < 0 || pb < 0)
                    continue;
                int k = pa + pb, v = hits[pa * cols + pb] + (bank[side ? a : n_a + b] == step[k]);
                if (start[k])
                    v += (bank[pa] == T[0]) + (bank[n_a + pb] == T[1]);
                if (v > best) {
                    best = v;
                    pick = side;
                }
            }
            hits[a * cols + b] = best;
            from[a * cols + b] = (uint8_t)pick;
        }
    for (int a = n_a, b = n_b; a + b > 0;) {
        uint8_t side = from[a * cols + b];
        mask[a + b - 1] = side;
        a -= side;
        b -= !side;
    }
    return hits[n_a * cols + n_b];
}

long kit_worst_target(int w, int E, int c, int n_a, uint8_t *mask, char *err, size_t errlen)
{
    if (bad_groups(w, E, c, n_a)) {
        snprintf(err, errlen, "bad targeted search: w in 2 .. %d, 1 < E <= w, c threads a group dividing w, "
                 "0 <= n_a <= cE (got w = %d, E = %d, c = %d, n_a = %d)", MAX_W, w, E, c, n_a);
        return -1;
    }
    size_t len = (size_t)w * E, unit = (size_t)c * E, cells = (size_t)(n_a + 1) * (unit - (size_t)n_a + 1);
    search_space sp;
    int *T = calloc((size_t)E + 2, sizeof *T), *hits = malloc(cells * sizeof *hits), *step = malloc(unit * sizeof *step),
        *banks = malloc((unit + 2) * sizeof *banks);
    uint8_t *start = malloc(unit), *from = malloc(cells), *trial = malloc(len);
    long top = -1;
    if (space_alloc(&sp, w, E) != 0 || !T || !hits || !step || !banks || !start || !from || !trial) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    for (size_t k = 0; k < unit; k++)
        start[k] = k % (size_t)E == 0;
    /* Coordinate ascent on the targets, each candidate judged by the warp's real count. */
    for (int pass = 0, better = 1; better && pass < 8; pass++) {
        better = 0;
        for (int o = 0; o < E + 2; o++)
            for (int bank = 0; bank < w; bank++) {
                int keep = T[o];
                T[o] = bank;
                for (size_t k = 0; k < unit; k++)
                    step[k] = T[k % (size_t)E + 2];
                for (size_t g = 0; g < len; g += unit)
                    group_path(w, (int)unit, n_a, (int)g, T, step, start, hits, from, banks, trial + g);
                long cost = groups_cost(w, E, c, n_a, trial, &sp);
                if (cost > top) {
                    top = cost;
                    memcpy(mask, trial, len);
                    better = 1;
                } else {
                    T[o] = keep;
                }
            }
    }
done:
    space_free(&sp);
    free(T);
    free(hits);
    free(step);
    free(banks);
    free(start);
    free(from);
    free(trial);
    return top;
}

/* ---- the sort ---------------------------------------------------------------------------- */

static int is_pow2(long long x)
{
    return x > 0 && (x & (x - 1)) == 0;
}

/* Checks the sort's parameters; says what is wrong. */
static int check_sort(size_t n, int w, int E, int u, char *err, size_t errlen)
{
    if (w < 2 || w > MAX_W || !is_pow2(w)) {
        snprintf(err, errlen, "w = %d: the sort needs w a power of two in 2 .. %d", w, MAX_W);
        return -1;
    }
    if (E < 2 || E > w) {
        snprintf(err, errlen, "E = %d: the construction needs 1 < E <= w = %d", E, w);
        return -1;
    }
    if (u < w || u > 1024 || u % w != 0 || !is_pow2(u)) {
        snprintf(err, errlen, "u = %d: threads per block must be a power of two, a multiple of w = %d, at most 1024", u, w);
        return -1;
    }
    size_t tile = (size_t)u * E;
    if (n > ((size_t)1 << 31)) {
        snprintf(err, errlen, "n = %zu is too large: keys are int32 values 0 .. n-1, so n <= 2^31", n);
        return -1;
    }
    if (n < tile || n % tile != 0 || !is_pow2((long long)(n / tile))) {
        snprintf(err, errlen, "n = %zu is not u*E*2^k = %zu*2^k (k >= 0): the sort's rounds need whole pairs of runs", n, tile);
        return -1;
    }
    return 0;
}

/* Whether c cooperating threads get the per-warp construction: whole warps, and lists starting in bank 0. */
static int attacked(int w, int E, int c)
{
    return c % w == 0 && ((c / w) % 2 == 0 || E % 2 == 0);
}


/*
 * The input of a round whose groups of c threads lie within one warp (not attacked()): the warp's
 * w/c groups, each taking cE/2 keys of each list. Two starts, each improved by the search mode: a
 * random split (fixed seed) and the targeted mode's input; the one that costs more is kept (the
 * random start on a tie). Returns 0, or -1 with a message.
 */
static int searched_warp(int w, int E, int c, uint8_t *mask, char *err, size_t errlen)
{
    size_t unit = (size_t)c * E, len = (size_t)w * E;
    int n_a = (int)(unit / 2);
    uint64_t rng = 0x2545f4914f6cdd1dull ^ (uint64_t)c;
    for (size_t g = 0; g < len; g += unit) {
        for (size_t k = 0; k < unit; k++)
            mask[g + k] = k < unit / 2;
        for (size_t k = unit - 1; k > 0; k--) { /* Fisher-Yates */
            size_t x = (size_t)(kit_rng_next(&rng) % (k + 1));
            uint8_t t = mask[g + k];
            mask[g + k] = mask[g + x];
            mask[g + x] = t;
        }
    }
    uint8_t *targeted = malloc(len);
    if (!targeted) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    /* The targeted mode's pass tries w banks at each of E + 2 steps, each a program of (w/c)(cE/2)^2 cells:
     * at most about 2^28 for w = 32, seconds; at w = 64 the rounds of large groups would take hours, so such a
     * round gets the random start alone. */
    double pass = (double)w * (E + 2) * ((double)w / c) * ((double)unit / 2) * ((double)unit / 2);
    long from_random = kit_worst_search(w, E, c, n_a, (uint64_t)c, KIT_WORST_SORT_SEARCH, mask, err, errlen),
         from_target = 0;
    if (from_random >= 0 && pass <= KIT_WORST_TARGET_PASS)
        from_target = kit_worst_target(w, E, c, n_a, targeted, err, errlen) < 0
                          ? -1
                          : kit_worst_search(w, E, c, n_a, (uint64_t)c, KIT_WORST_SORT_SEARCH, targeted, err, errlen);
    if (from_target > from_random)
        memcpy(mask, targeted, len);
    free(targeted);
    return from_random < 0 || from_target < 0 ? -1 : 0;
}

int kit_worst_sort_input(int32_t *keys, size_t n, int w, int E, int u, char *err, size_t errlen)
{
    if (check_sort(n, w, E, u, err, errlen) != 0)
        return -1;
    size_t tile = (size_t)u * E, wE = (size_t)w * E;
    kit_worst_split T[MAX_W];
    uint8_t *mask_l = malloc(wE), *mask_r = malloc(wE), *small = malloc(wE);
    int32_t *tmp = malloc(n * sizeof *tmp);
    int rc = -1;
    if (!mask_l || !mask_r || !small || !tmp) {
        snprintf(err, errlen, "out of memory for n = %zu keys", n);
        goto done;
    }
    if (kit_worst_warp(w, E, 1, T, err, errlen) != 0)
        goto done;
    kit_worst_warp_mask(w, E, T, mask_l);
    if (kit_worst_warp(w, E, 0, T, err, errlen) != 0)
        goto done;
    kit_worst_warp_mask(w, E, T, mask_r);
    for (size_t k = 0; k < n; k++)
        keys[k] = (int32_t)k;
    /* Undo the rounds from the last (runs of n/2) down to the first (runs of E). */
    for (size_t s = n / 2; s >= (size_t)E; s /= 2) {
        int c = 2 * s >= tile ? u : (int)(2 * s / E), whole = attacked(w, E, c);
        size_t unit = (size_t)c * E;
        if (!whole && searched_warp(w, E, c, small, err, errlen) != 0)
            goto done;
        for (size_t p = 0; p < n; p += 2 * s) {
            size_t x = p, y = p + s;
            for (size_t k0 = 0; k0 < 2 * s; k0 += unit)
                for (size_t k = 0; k < unit; k++) {
                    /* whole warps alternate L and R; smaller groups take their slot of the searched warp */
                    const uint8_t *m = whole ? (k / wE % 2 == 0 ? mask_l : mask_r) + k % wE : small + (p + k0) % wE + k;
                    tmp[*m ? x++ : y++] = keys[p + k0 + k];
                }
        }
        memcpy(keys, tmp, n * sizeof *keys);
        if (s == (size_t)E)
            break;
    }
    rc = 0;
done:
    free(mask_l);
    free(mask_r);
    free(small);
    free(tmp);
    return rc;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

int kit_worst_sort_replay(const int32_t *keys, size_t n, int w, int E, int u, kit_worst_round *rounds, int max,
                          int *nrounds, char *err, size_t errlen)
{
    *nrounds = 0;
    if (check_sort(n, w, E, u, err, errlen) != 0)
        return -1;
    size_t tile = (size_t)u * E;
    int32_t *cur = malloc(n * sizeof *cur), *next = malloc(n * sizeof *next);
    uint8_t *seen = calloc(n, 1);
    trace t = {NULL, 0, 0};
    int rc = -1;
    if (!cur || !next || !seen) {
        snprintf(err, errlen, "out of memory for n = %zu keys", n);
        goto done;
    }
    for (size_t k = 0; k < n; k++) {
        if (keys[k] < 0 || (size_t)keys[k] >= n || seen[keys[k]]) {
            snprintf(err, errlen, "the keys are not a permutation of 0 .. n-1: key %zu is %d", k, (int)keys[k]);
            goto done;
        }
        seen[keys[k]] = 1;
        cur[k] = keys[k];
    }
    for (size_t k = 0; k < n; k += (size_t)E) /* each thread's register sort */
        qsort(cur + k, (size_t)E, sizeof *cur, cmp_i32);
    for (size_t s = (size_t)E; s < n; s *= 2) {
        if (*nrounds == max) {
            snprintf(err, errlen, "more than %d rounds", max);
            goto done;
        }
        kit_worst_round *R = &rounds[(*nrounds)++];
        int global = s >= tile, c = global ? u : (int)(2 * s / E);
        R->run = (long long)s;
        R->threads = c;
        R->global = global;
        R->attacked = attacked(w, E, c) ? 1 : 2;
        R->warps = (long long)(n / E / (size_t)w);
        int fail = 0;
        for (size_t p = 0; p < n && !fail; p += 2 * s) {
            const int32_t *A = cur + p, *B = cur + p + s;
            for (size_t k0 = 0; k0 < 2 * s && !fail; k0 += (size_t)c * E) {
                uint32_t block = (uint32_t)((p + k0) / tile);
                if (!global) { /* group G of its block: A then B at the group's tile positions */
                    uint32_t word = (uint32_t)((p + k0) % tile);
                    fail = serial_merge(A, (int)s, B, (int)s, E, c, block, word / (uint32_t)E, word, word + (uint32_t)s, &t,
                                        next + p + k0);
                } else { /* one tile of the pair's output: its parts of A and B, A at word 0, B after */
                    int a0 = co_rank(A, (int)s, B, (int)s, (int)k0), a1 = co_rank(A, (int)s, B, (int)s, (int)(k0 + tile));
                    int b0 = (int)k0 - a0, b1 = (int)(k0 + tile) - a1;
                    fail = serial_merge(A + a0, a1 - a0, B + b0, b1 - b0, E, u, block, 0, 0, (uint32_t)(a1 - a0), &t,
                                        next + p + k0);
                }
            }
        }
        if (fail) {
            snprintf(err, errlen, "out of memory for the trace of the round of runs of %zu", s);
            goto done;
        }
        if (simulate(w, &t, &R->load, err, errlen) != 0)
            goto done;
        int32_t *swap = cur;
        cur = next;
        next = swap;
    }
    for (size_t k = 0; k < n; k++)
        if (cur[k] != (int32_t)k) {
            snprintf(err, errlen, "the replayed sort is wrong at %zu: %d", k, (int)cur[k]);
            goto done;
        }
    rc = 0;
done:
    free(t.acc);
    free(cur);
    free(next);
    free(seen);
    return rc;
}
