/* Unit tests of the kit's host library (the C files in common/): every public function against hand-computed values. */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kit.h"
#include "kit_driver.h"
#include "06-predecessor-search/harness/pbs_host.h"
#include "kit_ref.h"
#include "kit_test.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Set in a re-executed copy of this program; it then registers only the kit_test fixture suites. */
#define CHILD_MODE_ENV "KIT_TEST_COMMON_CHILD"

static const kit_type all_types[] = {KIT_TYPE_I32, KIT_TYPE_I64, KIT_TYPE_KV32};

/* ---- helpers -------------------------------------------------------------------- */

/* Reads a whole stream from its start; returns a malloc'ed, NUL-terminated copy and its length. */
static char *slurp(FILE *f, size_t *len)
{
    fflush(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    char *text = (char *)kit_xmalloc((size_t)(size > 0 ? size : 0) + 1);
    size_t got = size > 0 ? fread(text, 1, (size_t)size, f) : 0;
    text[got] = '\0';
    if (len)
        *len = got;
    return text;
}

/* A temporary file holding the given bytes, positioned at its start. */
static FILE *file_of(const void *bytes, size_t len)
{
    FILE *f = tmpfile();
    if (!f || (len && fwrite(bytes, 1, len, f) != len)) {
        perror("file_of");
        exit(2);
    }
    rewind(f);
    return f;
}

/* Sends file descriptor fd (1 or 2) into a temporary file until capture_end(). */
typedef struct capture {
    int fd;     /* the descriptor redirected */
    int saved;  /* a copy of the original */
    FILE *file; /* where the output goes meanwhile */
} capture;

static void capture_begin(capture *c, int fd)
{
    fflush(NULL); /* what was printed before belongs to the real stream */
    c->fd = fd;
    c->file = tmpfile();
    c->saved = dup(fd);
    if (!c->file || c->saved < 0 || dup2(fileno(c->file), fd) < 0) {
        perror("capture_begin");
        exit(2);
    }
}

/* Restores the descriptor; returns what was written meanwhile (malloc'ed, NUL-terminated) and its length. */
static char *capture_end_len(capture *c, size_t *len)
{
    fflush(NULL);
    dup2(c->saved, c->fd);
    close(c->saved);
    char *text = slurp(c->file, len);
    fclose(c->file);
    return text;
}

static char *capture_end(capture *c)
{
    return capture_end_len(c, NULL);
}

/* Index of the first element out of ascending (dir > 0) or descending (dir < 0) key order; -1 if none. */
static long long first_out_of_order(kit_type t, const void *data, size_t n, int dir)
{
    for (size_t i = 1; i < n; i++) {
        int64_t prev = kit_key_at(t, data, i - 1), cur = kit_key_at(t, data, i);
        if (dir > 0 ? prev > cur : prev < cur)
            return (long long)i;
    }
    return -1;
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* Number of distinct keys among n elements (independent of kit_sort). */
static size_t distinct_keys(kit_type t, const void *data, size_t n)
{
    if (n == 0)
        return 0;
    long long *keys = (long long *)kit_xmalloc(n * sizeof *keys);
    for (size_t i = 0; i < n; i++)
        keys[i] = kit_key_at(t, data, i);
    qsort(keys, n, sizeof *keys, cmp_ll);
    size_t count = 1;
    for (size_t i = 1; i < n; i++)
        count += keys[i] != keys[i - 1];
    free(keys);
    return count;
}

/* ---- kit_types.h and kit_lab.h -------------------------------------------------- */

static void test_type_size_and_name(void)
{
    static const struct {
        kit_type t;
        size_t size;
        const char *name;
    } want[] = {{KIT_TYPE_I32, 4, "i32"}, {KIT_TYPE_I64, 8, "i64"}, {KIT_TYPE_KV32, 8, "kv32"},
                {(kit_type)0, 0, "?"}, {(kit_type)99, 0, "?"}};
    for (size_t i = 0; i < ARRAY_LEN(want); i++) {
        size_t size = kit_type_size(want[i].t);
        const char *name = kit_type_name(want[i].t);
        KIT_ASSERT_MSG(size == want[i].size, "kit_type_size(%d): expected %zu, got %zu", (int)want[i].t,
                       want[i].size, size);
        KIT_ASSERT_MSG(name && strcmp(name, want[i].name) == 0, "kit_type_name(%d): expected \"%s\", got \"%s\"",
                       (int)want[i].t, want[i].name, name ? name : "(null)");
    }
    KIT_ASSERT_MSG(sizeof(kit_kv32) == 8, "kit_kv32 should be two packed int32s (8 bytes), is %zu", sizeof(kit_kv32));
}

static void test_type_parse(void)
{
    for (size_t i = 0; i < ARRAY_LEN(all_types); i++) {
        kit_type out = (kit_type)0;
        int rc = kit_type_parse(kit_type_name(all_types[i]), &out);
        KIT_ASSERT_MSG(rc == 0 && out == all_types[i], "parse(\"%s\"): expected 0 and %d, got %d and %d",
                       kit_type_name(all_types[i]), (int)all_types[i], rc, (int)out);
    }
    static const char *const bad[] = {"", "I32", "i16", "kv", "kv32 ", "?"};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        kit_type out;
        int rc = kit_type_parse(bad[i], &out);
        KIT_ASSERT_MSG(rc == -1, "parse(\"%s\"): expected -1, got %d", bad[i], rc);
    }
    /* Not promised by kit_types.h, but kit_lab.c guards it: a NULL name is simply not a type name. */
    kit_type out = KIT_TYPE_I64;
    int rc = kit_type_parse(NULL, &out);
    KIT_ASSERT_MSG(rc == -1, "parse(NULL): expected -1, got %d", rc);
}

/* Every name of a table is found at its index; a near miss, an empty name and NULL are not. */
static void test_name_index(void)
{
    static const char *const names[] = {"keys", "range", "worst"};
    for (int i = 0; i < 3; i++)
        KIT_ASSERT_MSG(kit_name_index(names, 3, names[i]) == i, "kit_name_index(\"%s\"): expected %d, got %d", names[i], i,
                       kit_name_index(names, 3, names[i]));
    static const char *const bad[] = {"", "Keys", "worst ", "ran"};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++)
        KIT_ASSERT_MSG(kit_name_index(names, 3, bad[i]) == -1, "kit_name_index(\"%s\"): expected -1, got %d", bad[i],
                       kit_name_index(names, 3, bad[i]));
    KIT_ASSERT_MSG(kit_name_index(names, 3, NULL) == -1, "kit_name_index(NULL): expected -1");
    KIT_ASSERT_MSG(kit_name_index(names, 2, "worst") == -1, "kit_name_index past count: expected -1");
}

/* kit_name_at: each index gives its name; below 0 and from count on give "?". */
static void test_name_at(void)
{
    static const char *const names[] = {"keys", "range", "worst"};
    for (int i = 0; i < 3; i++)
        KIT_ASSERT_MSG(strcmp(kit_name_at(names, 3, i), names[i]) == 0, "kit_name_at(%d): expected \"%s\", got \"%s\"", i,
                       names[i], kit_name_at(names, 3, i));
    static const int out[] = {-1, 3, 2};
    static const int count[] = {3, 3, 2};
    for (int k = 0; k < 3; k++)
        KIT_ASSERT_MSG(strcmp(kit_name_at(names, count[k], out[k]), "?") == 0, "kit_name_at(%d) of %d names: expected \"?\", got \"%s\"",
                       out[k], count[k], kit_name_at(names, count[k], out[k]));
}

static void test_not_implemented(void)
{
    kit_not_implemented_reset();
    KIT_ASSERT_MSG(kit_not_implemented_task() == NULL, "after reset: expected NULL, got \"%s\"",
                   kit_not_implemented_task());

    /* What reaches stderr depends on earlier calls in this process; test_kit_test_announce checks it. */
    capture err;
    capture_begin(&err, 2);
    kit_not_implemented("01-sequential-merge:merge");
    kit_not_implemented("02-co-rank:co_rank"); /* ignored: not the first */
    char *text = capture_end(&err);
    const char *task = kit_not_implemented_task();
    KIT_ASSERT_MSG(task && strcmp(task, "01-sequential-merge:merge") == 0,
                   "expected the first task \"01-sequential-merge:merge\", got \"%s\"", task ? task : "(null)");
    KIT_ASSERT_MSG(strstr(text, "02-co-rank") == NULL, "a later call must not print, stderr was \"%s\"", text);
    free(text);

    kit_not_implemented_reset();
    KIT_ASSERT_MSG(kit_not_implemented_task() == NULL, "reset should forget the task, still \"%s\"",
                   kit_not_implemented_task());
    capture_begin(&err, 2);
    kit_not_implemented("02-co-rank:co_rank");
    free(capture_end(&err));
    task = kit_not_implemented_task();
    KIT_ASSERT_MSG(task && strcmp(task, "02-co-rank:co_rank") == 0,
                   "after reset the next call is recorded: expected \"02-co-rank:co_rank\", got \"%s\"",
                   task ? task : "(null)");
    kit_not_implemented_reset();
}

/* ---- kit_gen.h ------------------------------------------------------------------- */

static void test_gen_names(void)
{
    for (int g = 0; g < KIT_GEN_COUNT; g++) {
        const char *name = kit_gen_name((kit_gen)g);
        kit_gen out = KIT_GEN_COUNT;
        int rc = kit_gen_parse(name, &out);
        KIT_ASSERT_MSG(strcmp(name, "?") != 0, "shape %d has no name", g);
        KIT_ASSERT_MSG(rc == 0 && out == (kit_gen)g, "parse(\"%s\"): expected 0 and %d, got %d and %d", name, g, rc,
                       (int)out);
    }
    KIT_ASSERT_MSG(strcmp(kit_gen_name(KIT_GEN_FEW_UNIQUE), "few-unique") == 0,
                   "the header's example: expected \"few-unique\", got \"%s\"", kit_gen_name(KIT_GEN_FEW_UNIQUE));
    KIT_ASSERT_MSG(strcmp(kit_gen_name(KIT_GEN_COUNT), "?") == 0, "unknown shape: expected \"?\", got \"%s\"",
                   kit_gen_name(KIT_GEN_COUNT));
    KIT_ASSERT_MSG(strcmp(kit_gen_name((kit_gen)-1), "?") == 0, "shape -1: expected \"?\", got \"%s\"",
                   kit_gen_name((kit_gen)-1));
    static const char *const bad[] = {"zigzag", "Random", "", "few_unique", "?"};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        kit_gen out;
        int rc = kit_gen_parse(bad[i], &out);
        KIT_ASSERT_MSG(rc == -1, "parse(\"%s\"): expected -1, got %d", bad[i], rc);
    }
    kit_gen out = KIT_GEN_EQUAL;
    KIT_ASSERT_MSG(kit_gen_parse(NULL, &out) == -1, "parse(NULL) should be -1 (kit_gen.c guards it)");
}

static void test_gen_pair_only(void)
{
    for (int g = 0; g < KIT_GEN_COUNT; g++) {
        int want = g == KIT_GEN_A_BELOW_B || g == KIT_GEN_B_BELOW_A || g == KIT_GEN_INTERLEAVED;
        int got = kit_gen_is_pair_only((kit_gen)g) != 0;
        KIT_ASSERT_MSG(got == want, "is_pair_only(%s): expected %d, got %d", kit_gen_name((kit_gen)g), want, got);
    }
}

/* kit_gen_permutation: every value of 0 .. n-1 once, the same for a seed, another for another seed; n = 0 and 1 work. */
static void test_gen_permutation(void)
{
    enum { N = 1000 };
    static int32_t p[N], q[N], r[N];
    static unsigned char seen[N];
    kit_gen_permutation(p, N, 7);
    kit_gen_permutation(q, N, 7);
    kit_gen_permutation(r, N, 8);
    memset(seen, 0, sizeof seen);
    int bad = -1, moved = 0;
    for (int i = 0; i < N; i++) {
        if (p[i] < 0 || p[i] >= N || seen[p[i]]++)
            bad = bad < 0 ? i : bad;
        moved += p[i] != i;
    }
    KIT_ASSERT_MSG(bad < 0, "index %d: %d is out of 0 .. %d or repeated", bad, bad < 0 ? 0 : p[bad], N - 1);
    KIT_ASSERT_MSG(memcmp(p, q, sizeof p) == 0, "seed 7 gave two permutations");
    KIT_ASSERT_MSG(memcmp(p, r, sizeof p) != 0, "seeds 7 and 8 gave the same permutation");
    KIT_ASSERT_MSG(moved > N / 2, "only %d of %d keys moved", moved, N);
    int32_t one = -5;
    kit_gen_permutation(&one, 1, 3);
    kit_gen_permutation(NULL, 0, 3);
    KIT_ASSERT_MSG(one == 0, "n = 1: expected 0, got %d", one);
}

/* splitmix64 from seed 0, computed by hand from the formula (state += golden gamma, then two xor-shift-multiplies). */
static void test_rng(void)
{
    static const uint64_t want[3] = {0xe220a8397b1dcdafULL, 0x6e789e6aa1b965f4ULL, 0x06c45d188009454fULL};
    uint64_t state = 0;
    for (int i = 0; i < 3; i++) {
        uint64_t got = kit_rng_next(&state);
        KIT_ASSERT_MSG(got == want[i], "seed 0, draw %d: expected 0x%016llx, got 0x%016llx", i,
                       (unsigned long long)want[i], (unsigned long long)got);
        if (i == 0)
            KIT_ASSERT_MSG(state == 0x9e3779b97f4a7c15ULL,
                           "state after one draw: expected 0x9e3779b97f4a7c15, got 0x%016llx",
                           (unsigned long long)state);
    }
    uint64_t s1 = 12345, s2 = 12345;
    int same = 1;
    for (int i = 0; i < 100; i++)
        same &= kit_rng_next(&s1) == kit_rng_next(&s2);
    KIT_ASSERT_MSG(same, "two generators with seed 12345 drew different values");
    uint64_t a = 1, b = 2;
    uint64_t va = kit_rng_next(&a), vb = kit_rng_next(&b);
    KIT_ASSERT_MSG(va != vb, "seeds 1 and 2 gave the same first value 0x%016llx", (unsigned long long)va);
}

/* Checks one generated array against what kit_gen.h promises for its shape. */
static void check_shape(kit_type t, kit_gen g, const void *data, size_t n)
{
    const char *tn = kit_type_name(t), *gn = kit_gen_name(g);
    long long bad;
    size_t distinct = distinct_keys(t, data, n);
    switch (g) {
    case KIT_GEN_SORTED:
        bad = first_out_of_order(t, data, n, 1);
        KIT_ASSERT_MSG(bad < 0, "%s %s n=%zu: not ascending at index %lld", tn, gn, n, bad);
        break;
    case KIT_GEN_REVERSE:
        bad = first_out_of_order(t, data, n, -1);
        KIT_ASSERT_MSG(bad < 0, "%s %s n=%zu: not descending at index %lld", tn, gn, n, bad);
        break;
    case KIT_GEN_EQUAL:
        for (size_t i = 0; i < n; i++)
            if (kit_key_at(t, data, i) != 42) {
                kit_test_fail(__FILE__, __LINE__, "%s equal: index %zu: expected 42, got %lld", tn, i,
                              (long long)kit_key_at(t, data, i));
                break;
            }
        break;
    case KIT_GEN_FEW_UNIQUE:
        KIT_ASSERT_MSG(distinct <= 4, "%s few-unique n=%zu: expected at most 4 distinct keys, got %zu", tn, n,
                       distinct);
        if (n >= 1000)
            KIT_ASSERT_MSG(distinct == 4, "%s few-unique n=%zu: expected all 4 keys to appear, got %zu", tn, n,
                           distinct);
        break;
    case KIT_GEN_DUPLICATES: {
        int64_t hi = (int64_t)(n / 16 + 2);
        for (size_t i = 0; i < n; i++) {
            int64_t k = kit_key_at(t, data, i);
            if (k < 0 || k > hi) {
                kit_test_fail(__FILE__, __LINE__, "%s duplicates n=%zu: index %zu: key %lld outside 0 .. %lld", tn, n,
                              i, (long long)k, (long long)hi);
                break;
            }
        }
        if (n >= 1000)
            KIT_ASSERT_MSG(distinct > 1 && distinct <= (size_t)hi + 1,
                           "%s duplicates n=%zu: expected 2 .. %lld distinct keys, got %zu", tn, n, (long long)hi + 1,
                           distinct);
        break;
    }
    default: /* random */
        break;
    }
    if (n >= 1000 && (g == KIT_GEN_RANDOM || g == KIT_GEN_SORTED || g == KIT_GEN_REVERSE)) {
        /* Uniform over the type's range: almost no repeats, both signs, and for i64 beyond 32 bits. */
        KIT_ASSERT_MSG(distinct > n * 9 / 10, "%s %s n=%zu: only %zu distinct keys", tn, gn, n, distinct);
        int neg = 0, pos = 0, wide = 0;
        for (size_t i = 0; i < n; i++) {
            int64_t k = kit_key_at(t, data, i);
            neg |= k < -(1LL << 30);
            pos |= k > (1LL << 30);
            wide |= k > INT32_MAX || k < INT32_MIN;
        }
        KIT_ASSERT_MSG(neg && pos, "%s %s n=%zu: keys do not cover both halves of the range", tn, gn, n);
        KIT_ASSERT_MSG(wide == (t == KIT_TYPE_I64), "%s %s n=%zu: keys beyond 32 bits: expected %d, got %d", tn, gn,
                       n, t == KIT_TYPE_I64, wide);
    }
}

static void test_gen_array_shapes(void)
{
    static const size_t sizes[] = {0, 1, 1000};
    for (size_t ti = 0; ti < ARRAY_LEN(all_types); ti++) {
        kit_type t = all_types[ti];
        for (int g = 0; g < KIT_GEN_COUNT; g++) {
            if (kit_gen_is_pair_only((kit_gen)g))
                continue;
            for (size_t si = 0; si < ARRAY_LEN(sizes); si++) {
                size_t n = sizes[si];
                void *data = kit_xmalloc(n * kit_type_size(t));
                int rc = kit_gen_array(t, data, n, (kit_gen)g, 100 + (uint64_t)g);
                KIT_ASSERT_MSG(rc == 0, "gen_array(%s, n=%zu, %s): expected 0, got %d", kit_type_name(t), n,
                               kit_gen_name((kit_gen)g), rc);
                check_shape(t, (kit_gen)g, data, n);
                free(data);
            }
        }
    }
}

/* kit_gen.h: "For kit_kv32 the value of element i is i" -- for every single-array shape. */
static void test_gen_array_kv32_values(void)
{
    const size_t n = 100;
    kit_kv32 data[100];
    for (int g = 0; g < KIT_GEN_COUNT; g++) {
        if (kit_gen_is_pair_only((kit_gen)g))
            continue;
        kit_gen_array(KIT_TYPE_KV32, data, n, (kit_gen)g, 5);
        long long bad = -1;
        for (size_t i = 0; i < n && bad < 0; i++)
            if (data[i].value != (int32_t)i)
                bad = (long long)i;
        KIT_ASSERT_MSG(bad < 0, "kv32 %s: index %lld: expected value %lld, got %d", kit_gen_name((kit_gen)g), bad, bad,
                       bad < 0 ? 0 : data[bad].value);
    }
}

/* The same seed gives the same data on every machine: the first random keys of seed 0 follow from test_rng's values. */
static void test_gen_array_pinned(void)
{
    int32_t i32[2];
    int64_t i64[2];
    kit_gen_array(KIT_TYPE_I32, i32, 2, KIT_GEN_RANDOM, 0);
    kit_gen_array(KIT_TYPE_I64, i64, 2, KIT_GEN_RANDOM, 0);
    /* i32 keys are the top 32 bits of each draw; i64 keys the whole draw. */
    const int32_t want32[2] = {(int32_t)0xe220a839u, (int32_t)0x6e789e6au};
    const int64_t want64[2] = {(int64_t)0xe220a8397b1dcdafULL, (int64_t)0x6e789e6aa1b965f4ULL};
    for (int i = 0; i < 2; i++) {
        KIT_ASSERT_MSG(i32[i] == want32[i], "i32 random seed 0, index %d: expected %d, got %d", i, want32[i], i32[i]);
        KIT_ASSERT_MSG(i64[i] == want64[i], "i64 random seed 0, index %d: expected %lld, got %lld", i,
                       (long long)want64[i], (long long)i64[i]);
    }
}

static void test_gen_array_refuses(void)
{
    int64_t buf[8];
    for (int g = 0; g < KIT_GEN_COUNT; g++) {
        if (!kit_gen_is_pair_only((kit_gen)g))
            continue;
        for (size_t ti = 0; ti < ARRAY_LEN(all_types); ti++) {
            int rc = kit_gen_array(all_types[ti], buf, 8, (kit_gen)g, 1);
            KIT_ASSERT_MSG(rc == -1, "gen_array(%s, %s): pair-only shape should give -1, got %d",
                           kit_type_name(all_types[ti]), kit_gen_name((kit_gen)g), rc);
        }
    }
    int rc = kit_gen_array((kit_type)0, buf, 8, KIT_GEN_RANDOM, 1);
    KIT_ASSERT_MSG(rc == -1, "gen_array(unknown type 0): expected -1, got %d", rc);
    rc = kit_gen_array((kit_type)4, buf, 8, KIT_GEN_RANDOM, 1);
    KIT_ASSERT_MSG(rc == -1, "gen_array(unknown type 4): expected -1, got %d", rc);
}

static void test_gen_array_seeds(void)
{
    static const kit_gen shapes[] = {KIT_GEN_RANDOM, KIT_GEN_SORTED, KIT_GEN_REVERSE, KIT_GEN_DUPLICATES,
                                     KIT_GEN_FEW_UNIQUE};
    const size_t n = 256;
    for (size_t ti = 0; ti < ARRAY_LEN(all_types); ti++) {
        kit_type t = all_types[ti];
        size_t bytes = n * kit_type_size(t);
        char *a = (char *)kit_xmalloc(bytes), *b = (char *)kit_xmalloc(bytes), *c = (char *)kit_xmalloc(bytes);
        for (size_t s = 0; s < ARRAY_LEN(shapes); s++) {
            kit_gen_array(t, a, n, shapes[s], 77);
            kit_gen_array(t, b, n, shapes[s], 77);
            kit_gen_array(t, c, n, shapes[s], 78);
            KIT_ASSERT_MSG(memcmp(a, b, bytes) == 0, "%s %s: seed 77 twice gave different data", kit_type_name(t),
                           kit_gen_name(shapes[s]));
            KIT_ASSERT_MSG(memcmp(a, c, bytes) != 0, "%s %s: seeds 77 and 78 gave the same data", kit_type_name(t),
                           kit_gen_name(shapes[s]));
        }
        free(a);
        free(b);
        free(c);
    }
}

/* Sortedness and the kv32 origin tags of one merge input. */
static void check_merge_input(kit_type t, kit_gen g, const void *A, size_t m, const void *B, size_t n)
{
    const char *tn = kit_type_name(t), *gn = kit_gen_name(g);
    long long bad = first_out_of_order(t, A, m, 1);
    KIT_ASSERT_MSG(bad < 0, "%s %s m=%zu: A not ascending at index %lld", tn, gn, m, bad);
    bad = first_out_of_order(t, B, n, 1);
    KIT_ASSERT_MSG(bad < 0, "%s %s n=%zu: B not ascending at index %lld", tn, gn, n, bad);
    if (t != KIT_TYPE_KV32)
        return;
    const kit_kv32 *a = (const kit_kv32 *)A, *b = (const kit_kv32 *)B;
    for (size_t i = 0; i < m; i++)
        if (a[i].value != (int32_t)i) {
            kit_test_fail(__FILE__, __LINE__, "kv32 %s: A[%zu].value: expected %zu, got %d", gn, i, i, a[i].value);
            break;
        }
    for (size_t j = 0; j < n; j++)
        if (b[j].value != -1 - (int32_t)j) {
            kit_test_fail(__FILE__, __LINE__, "kv32 %s: B[%zu].value: expected %d, got %d", gn, j, -1 - (int32_t)j,
                          b[j].value);
            break;
        }
}

static void test_merge_input_sorted(void)
{
    const size_t m = 300, n = 200;
    for (size_t ti = 0; ti < ARRAY_LEN(all_types); ti++) {
        kit_type t = all_types[ti];
        void *A = kit_xmalloc(m * kit_type_size(t)), *B = kit_xmalloc(n * kit_type_size(t));
        for (int g = 0; g < KIT_GEN_COUNT; g++) {
            int rc = kit_gen_merge_input(t, A, m, B, n, (kit_gen)g, 40 + (uint64_t)g);
            KIT_ASSERT_MSG(rc == 0, "merge_input(%s, %s): expected 0, got %d", kit_type_name(t),
                           kit_gen_name((kit_gen)g), rc);
            check_merge_input(t, (kit_gen)g, A, m, B, n);
        }
        free(A);
        free(B);
    }
}

static void test_merge_input_layouts(void)
{
    const size_t m = 257, n = 130;
    for (size_t ti = 0; ti < ARRAY_LEN(all_types); ti++) {
        kit_type t = all_types[ti];
        const char *tn = kit_type_name(t);
        void *A = kit_xmalloc(m * kit_type_size(t)), *B = kit_xmalloc(n * kit_type_size(t));

        kit_gen_merge_input(t, A, m, B, n, KIT_GEN_A_BELOW_B, 3);
        int64_t maxA = kit_key_at(t, A, m - 1), minB = kit_key_at(t, B, 0);
        KIT_ASSERT_MSG(first_out_of_order(t, A, m, 1) < 0 && maxA < minB,
                       "%s a-below-b: expected max(A) < min(B), got %lld and %lld", tn, (long long)maxA,
                       (long long)minB);

        kit_gen_merge_input(t, A, m, B, n, KIT_GEN_B_BELOW_A, 3);
        int64_t maxB = kit_key_at(t, B, n - 1), minA = kit_key_at(t, A, 0);
        KIT_ASSERT_MSG(first_out_of_order(t, B, n, 1) < 0 && maxB < minA,
                       "%s b-below-a: expected max(B) < min(A), got %lld and %lld", tn, (long long)maxB,
                       (long long)minA);

        kit_gen_merge_input(t, A, m, B, n, KIT_GEN_INTERLEAVED, 3);
        for (size_t i = 0; i < m; i++)
            if (kit_key_at(t, A, i) != 2 * (int64_t)i) {
                kit_test_fail(__FILE__, __LINE__, "%s interleaved: A[%zu]: expected %lld, got %lld", tn, i,
                              2 * (long long)i, (long long)kit_key_at(t, A, i));
                break;
            }
        for (size_t j = 0; j < n; j++)
            if (kit_key_at(t, B, j) != 2 * (int64_t)j + 1) {
                kit_test_fail(__FILE__, __LINE__, "%s interleaved: B[%zu]: expected %lld, got %lld", tn, j,
                              2 * (long long)j + 1, (long long)kit_key_at(t, B, j));
                break;
            }
        check_merge_input(t, KIT_GEN_INTERLEAVED, A, m, B, n);
        free(A);
        free(B);
    }
}

static void test_merge_input_empty(void)
{
    int64_t A[8], B[8];
    static const size_t sizes[][2] = {{0, 0}, {0, 5}, {5, 0}};
    for (size_t ti = 0; ti < ARRAY_LEN(all_types); ti++) {
        for (size_t s = 0; s < ARRAY_LEN(sizes); s++) {
            size_t m = sizes[s][0], n = sizes[s][1];
            int rc = kit_gen_merge_input(all_types[ti], A, m, B, n, KIT_GEN_RANDOM, 9);
            KIT_ASSERT_MSG(rc == 0, "merge_input(%s, m=%zu, n=%zu): expected 0, got %d", kit_type_name(all_types[ti]),
                           m, n, rc);
            check_merge_input(all_types[ti], KIT_GEN_RANDOM, A, m, B, n);
        }
    }
}

/* Sizes above INT32_MAX are refused before anything is written: NULL arrays prove nothing was touched. */
static void test_merge_input_refuses(void)
{
    const size_t huge = (size_t)INT32_MAX + 1;
    int32_t small[4];
    int rc = kit_gen_merge_input(KIT_TYPE_I32, NULL, huge, small, 4, KIT_GEN_RANDOM, 1);
    KIT_ASSERT_MSG(rc == -1, "m = INT32_MAX + 1: expected -1, got %d", rc);
    rc = kit_gen_merge_input(KIT_TYPE_KV32, small, 2, NULL, huge, KIT_GEN_INTERLEAVED, 1);
    KIT_ASSERT_MSG(rc == -1, "n = INT32_MAX + 1: expected -1, got %d", rc);
    rc = kit_gen_merge_input(KIT_TYPE_I64, NULL, SIZE_MAX, NULL, SIZE_MAX, KIT_GEN_SORTED, 1);
    KIT_ASSERT_MSG(rc == -1, "m = n = SIZE_MAX: expected -1, got %d", rc);
    rc = kit_gen_merge_input((kit_type)0, NULL, 4, NULL, 4, KIT_GEN_RANDOM, 1);
    KIT_ASSERT_MSG(rc == -1, "unknown type 0: expected -1, got %d", rc);
}

static void test_merge_input_seeds(void)
{
    int32_t A1[64], B1[64], A2[64], B2[64];
    kit_gen_merge_input(KIT_TYPE_I32, A1, 64, B1, 64, KIT_GEN_RANDOM, 5);
    kit_gen_merge_input(KIT_TYPE_I32, A2, 64, B2, 64, KIT_GEN_RANDOM, 5);
    KIT_ASSERT_MSG(memcmp(A1, A2, sizeof A1) == 0 && memcmp(B1, B2, sizeof B1) == 0,
                   "seed 5 twice gave different merge inputs");
    KIT_ASSERT_MSG(memcmp(A1, B1, sizeof A1) != 0, "A and B of one input should differ");
    kit_gen_merge_input(KIT_TYPE_I32, A2, 64, B2, 64, KIT_GEN_RANDOM, 6);
    KIT_ASSERT_MSG(memcmp(A1, A2, sizeof A1) != 0, "seeds 5 and 6 gave the same A");
}

static void test_sort(void)
{
    int32_t i32[] = {5, -3, 9, 0, -3, INT32_MAX, INT32_MIN};
    const int32_t i32_want[] = {INT32_MIN, -3, -3, 0, 5, 9, INT32_MAX};
    kit_sort(KIT_TYPE_I32, i32, ARRAY_LEN(i32));
    char msg[160];
    KIT_ASSERT_MSG(kit_verify(KIT_TYPE_I32, i32_want, i32, ARRAY_LEN(i32), msg, sizeof msg) < 0, "i32 sort: %s", msg);

    /* Keys that differ only above bit 31, which a 32-bit comparison would order wrongly. */
    int64_t i64[] = {1LL << 40, -(1LL << 40), 3, INT64_MAX, -5, 1LL << 33, INT64_MIN};
    const int64_t i64_want[] = {INT64_MIN, -(1LL << 40), -5, 3, 1LL << 33, 1LL << 40, INT64_MAX};
    int64_t one = 7;
    kit_sort(KIT_TYPE_I64, &one, 1);
    KIT_ASSERT_MSG(one == 7, "sorting one element changed it to %lld", (long long)one);
    kit_sort(KIT_TYPE_I64, i64, ARRAY_LEN(i64));
    KIT_ASSERT_MSG(kit_verify(KIT_TYPE_I64, i64_want, i64, ARRAY_LEN(i64), msg, sizeof msg) < 0, "i64 sort: %s", msg);

    /* Values travel with their keys, and equal keys keep their order (the sort is stable). */
    kit_kv32 kv[] = {{3, 0}, {1, 1}, {2, 2}, {-4, 3}, {1, 4}, {INT32_MIN, 5}, {1, 6}, {INT32_MAX, 7}};
    const kit_kv32 kv_want[] = {{INT32_MIN, 5}, {-4, 3}, {1, 1}, {1, 4}, {1, 6}, {2, 2}, {3, 0}, {INT32_MAX, 7}};
    kit_sort(KIT_TYPE_KV32, kv, ARRAY_LEN(kv));
    KIT_ASSERT_MSG(kit_verify(KIT_TYPE_KV32, kv_want, kv, ARRAY_LEN(kv), msg, sizeof msg) < 0, "kv32 sort: %s", msg);

    /* A larger random array: sorted, and the same multiset as an independent sort of its keys. */
    for (size_t ti = 0; ti < ARRAY_LEN(all_types); ti++) {
        kit_type t = all_types[ti];
        const size_t n = 2000;
        void *data = kit_xmalloc(n * kit_type_size(t));
        long long *keys = (long long *)kit_xmalloc(n * sizeof *keys);
        for (int shape = 0; shape < 2; shape++) { /* duplicates; random keys over the type's whole range */
            kit_gen_array(t, data, n, shape ? KIT_GEN_RANDOM : KIT_GEN_DUPLICATES, 11);
            for (size_t i = 0; i < n; i++)
                keys[i] = kit_key_at(t, data, i);
            qsort(keys, n, sizeof *keys, cmp_ll);
            kit_sort(t, data, n);
            for (size_t i = 0; i < n; i++)
                if (kit_key_at(t, data, i) != keys[i]) {
                    kit_test_fail(__FILE__, __LINE__, "%s sort of 2000 %s keys: index %zu: expected %lld, got %lld",
                                  kit_type_name(t), shape ? "random" : "duplicate", i, keys[i],
                                  (long long)kit_key_at(t, data, i));
                    break;
                }
        }
        free(data);
        free(keys);
    }

    /* Equal keys keep their order: kv32 values tag the input positions, so they rise within a key. */
    const size_t n = 5000;
    kit_kv32 *pairs = (kit_kv32 *)kit_xmalloc(n * sizeof *pairs);
    kit_gen_array(KIT_TYPE_KV32, pairs, n, KIT_GEN_FEW_UNIQUE, 12);
    kit_sort(KIT_TYPE_KV32, pairs, n);
    for (size_t i = 1; i < n; i++)
        if (pairs[i - 1].key > pairs[i].key || (pairs[i - 1].key == pairs[i].key && pairs[i - 1].value > pairs[i].value)) {
            kit_test_fail(__FILE__, __LINE__, "kv32 sort of 5000 few-unique pairs: index %zu: (%d, %d) after (%d, %d)", i,
                          pairs[i].key, pairs[i].value, pairs[i - 1].key, pairs[i - 1].value);
            break;
        }
    free(pairs);
}


/* ---- kit_check.h: checks by property ------------------------------------------------ */
/* The chapter's merge passes; every single change to it (a swapped tie, a lost, duplicated or foreign element, disorder,
   a slot never written) fails at its first wrong index, naming the element expected there and where it comes from. */
static void test_check_merge(void)
{
    kit_kv32 A[] = {{1, 0}, {7, 1}, {8, 2}, {9, 3}, {10, 4}}, B[] = {{7, 100}, {10, 101}, {10, 102}, {12, 103}};
    kit_kv32 C[9];
    kit_merge_ref(KIT_TYPE_KV32, A, 5, B, 4, C);
    char msg[200];
    CU_ASSERT_EQUAL(kit_check_merge(KIT_TYPE_KV32, A, 5, B, 4, C, msg, sizeof msg), -1);
    CU_ASSERT_STRING_EQUAL(msg, "");
    kit_kv32 D[9];
    memcpy(D, C, sizeof C); /* B's 7 before A's 7: unstable */
    D[1] = C[2], D[2] = C[1];
    CU_ASSERT_EQUAL(kit_check_merge(KIT_TYPE_KV32, A, 5, B, 4, D, msg, sizeof msg), 1);
    CU_ASSERT_STRING_EQUAL(msg, "index 1: expected (key 7, value 1) (A[1]), got (key 7, value 100): equal keys keep A's first, each list in its order");
    memcpy(D, C, sizeof C); /* a 12 replaced by a second 10 */
    D[8] = D[7];
    CU_ASSERT_EQUAL(kit_check_merge(KIT_TYPE_KV32, A, 5, B, 4, D, msg, sizeof msg), 8);
    CU_ASSERT_STRING_EQUAL(msg, "index 8: expected (key 12, value 103) (B[3]), got (key 10, value 102)");
    memcpy(D, C, sizeof C); /* a foreign key */
    D[8].key = 13;
    CU_ASSERT_EQUAL(kit_check_merge(KIT_TYPE_KV32, A, 5, B, 4, D, msg, sizeof msg), 8);
    memcpy(D, C, sizeof C); /* out of order */
    D[0] = C[3], D[3] = C[0];
    CU_ASSERT_EQUAL(kit_check_merge(KIT_TYPE_KV32, A, 5, B, 4, D, msg, sizeof msg), 0);
    CU_ASSERT_STRING_EQUAL(msg, "index 0: expected (key 1, value 0) (A[0]), got (key 8, value 2)");
    memcpy(D, C, sizeof C); /* a forgotten tail: the harness's fill of slots never written stays */
    memset(D + 7, KIT_UNWRITTEN_BYTE, 2 * sizeof *D);
    CU_ASSERT_EQUAL(kit_check_merge(KIT_TYPE_KV32, A, 5, B, 4, D, msg, sizeof msg), 7);
    CU_ASSERT_STRING_EQUAL(msg, "index 7: expected (key 10, value 102) (B[2]), got (key -1515870811, value -1515870811): "
                                "C[7] was never written");
    int32_t a32[] = {-1515870811}, c32[1];
    memset(c32, KIT_UNWRITTEN_BYTE, sizeof c32); /* the fill's value where it is the right answer is right */
    CU_ASSERT_EQUAL(kit_check_merge(KIT_TYPE_I32, a32, 1, NULL, 0, c32, msg, sizeof msg), -1);
    CU_ASSERT_EQUAL(kit_check_merge(KIT_TYPE_I32, NULL, 0, NULL, 0, NULL, NULL, 0), -1);
}

/* kit_check_merge agrees with the reference merge on generated inputs of every kind, and rejects a one-element change. */
static void test_check_merge_against_reference(void)
{
    for (int g = 0; g < KIT_GEN_COUNT; g++) {
        size_t m = 700, n = 450;
        kit_kv32 *A = (kit_kv32 *)kit_xmalloc(m * sizeof *A), *B = (kit_kv32 *)kit_xmalloc(n * sizeof *B);
        kit_kv32 *C = (kit_kv32 *)kit_xmalloc((m + n) * sizeof *C);
        kit_gen_merge_input(KIT_TYPE_KV32, A, m, B, n, (kit_gen)g, 3);
        kit_merge_ref(KIT_TYPE_KV32, A, m, B, n, C);
        KIT_ASSERT_MSG(kit_check_merge(KIT_TYPE_KV32, A, m, B, n, C, NULL, 0) == -1, "gen %s", kit_gen_name((kit_gen)g));
        C[m / 2].value ^= 1;
        KIT_ASSERT_MSG(kit_check_merge(KIT_TYPE_KV32, A, m, B, n, C, NULL, 0) >= 0, "gen %s: a changed value passed",
                       kit_gen_name((kit_gen)g));
        free(A);
        free(B);
        free(C);
    }
}

/* kit_check_sort: the stable sort passes; an unstable swap, a lost element or disorder fails. */
static void test_check_sort(void)
{
    kit_kv32 in[] = {{3, 0}, {1, 1}, {3, 2}, {2, 3}, {1, 4}}, out[5];
    memcpy(out, in, sizeof in);
    CU_ASSERT_EQUAL_FATAL(kit_stable_sort(KIT_TYPE_KV32, out, 5), 0);
    char msg[200];
    CU_ASSERT_EQUAL(kit_check_sort(KIT_TYPE_KV32, in, out, 5, msg, sizeof msg), -1);
    kit_kv32 bad[5];
    memcpy(bad, out, sizeof out); /* (1, 4) before (1, 1) */
    bad[0] = out[1], bad[1] = out[0];
    CU_ASSERT_EQUAL(kit_check_sort(KIT_TYPE_KV32, in, bad, 5, msg, sizeof msg), 0);
    CU_ASSERT_STRING_EQUAL(msg, "index 0: expected (key 1, value 1) (input[1]), got (key 1, value 4): equal keys keep their input order");
    memcpy(bad, out, sizeof out); /* a 3 lost, a 2 twice */
    bad[3] = bad[2];
    CU_ASSERT_EQUAL(kit_check_sort(KIT_TYPE_KV32, in, bad, 5, msg, sizeof msg), 3);
    CU_ASSERT_STRING_EQUAL(msg, "index 3: expected (key 3, value 0) (input[0]), got (key 2, value 3)");
    memcpy(bad, out, sizeof out);
    bad[0] = out[4], bad[4] = out[0];
    CU_ASSERT_EQUAL(kit_check_sort(KIT_TYPE_KV32, in, bad, 5, msg, sizeof msg), 0);
    int32_t keys[] = {5, 5, 4}, sorted[] = {4, 5, 5};
    CU_ASSERT_EQUAL(kit_check_sort(KIT_TYPE_I32, keys, sorted, 3, NULL, 0), -1);
}

/* kit_check_co_rank accepts exactly the brute-force co-rank, for every k of small inputs with ties. */
static void test_check_co_rank(void)
{
    const int32_t A[] = {1, 3, 3, 5}, B[] = {0, 3, 3, 6, 7};
    for (long long k = 0; k <= 9; k++) {
        long long want = (long long)kit_co_rank_brute(KIT_TYPE_I32, A, 4, B, 5, (size_t)k);
        for (long long i = -1; i <= 5; i++)
            KIT_ASSERT_MSG(kit_check_co_rank(KIT_TYPE_I32, A, 4, B, 5, k, i) == (i == want), "k=%lld i=%lld (co-rank %lld)",
                           k, i, want);
    }
}

/* kit_check_co_rank_answer: right co-ranks say nothing; a wrong one names the expected, the brute force's. */
static void test_check_co_rank_answer(void)
{
    const int32_t A[] = {1, 3, 3, 5}, B[] = {0, 3, 3, 6, 7};
    char msg[200], want[200];
    for (long long k = 0; k <= 9; k++) {
        long long co = (long long)kit_co_rank_brute(KIT_TYPE_I32, A, 4, B, 5, (size_t)k);
        CU_ASSERT(kit_check_co_rank_answer(KIT_TYPE_I32, A, 4, B, 5, k, co, msg, sizeof msg) && msg[0] == '\0');
        CU_ASSERT(!kit_check_co_rank_answer(KIT_TYPE_I32, A, 4, B, 5, k, co + 1, msg, sizeof msg));
        snprintf(want, sizeof want, "co_rank(k=%lld) returned i=%lld, expected %lld (m=4, n=5)", k, co + 1, co);
        CU_ASSERT_STRING_EQUAL(msg, want);
    }
}

/* kit_check_predecessor accepts exactly the reference predecessor, below, between, on and above the keys. */
static void test_check_predecessor(void)
{
    const int64_t keys[] = {2, 4, 4, 9};
    for (int64_t q = 0; q <= 11; q++) {
        long long want = kit_pbs_ref(KIT_TYPE_I64, keys, 4, q);
        for (long long p = -2; p <= 4; p++)
            KIT_ASSERT_MSG(kit_check_predecessor(KIT_TYPE_I64, keys, 4, q, p) == (p == want), "q=%lld p=%lld (want %lld)",
                           (long long)q, p, want);
    }
    CU_ASSERT(kit_check_predecessor(KIT_TYPE_I32, NULL, 0, 5, -1));
}

/* kit_check_answer: a right answer says nothing; a wrong one names the query, its key, the answer and the expected one. */
static void test_check_answer(void)
{
    const int64_t keys[] = {2, 4, 4, 9};
    char msg[200];
    CU_ASSERT(kit_check_answer(KIT_TYPE_I64, keys, 4, 0, 5, 2, msg, sizeof msg));
    CU_ASSERT_STRING_EQUAL(msg, "");
    CU_ASSERT(!kit_check_answer(KIT_TYPE_I64, keys, 4, 7, 5, 0, msg, sizeof msg));
    CU_ASSERT_STRING_EQUAL(msg, "query 7 (key 5): answered 0, expected 2 (the last key <= 5, keys[2] = 4)");
    CU_ASSERT(!kit_check_answer(KIT_TYPE_I64, keys, 4, 3, 1, 0, msg, sizeof msg));
    CU_ASSERT_STRING_EQUAL(msg, "query 3 (key 1): answered 0, expected -1 (no key is <= 1)");
    CU_ASSERT(!kit_check_answer(KIT_TYPE_I64, keys, 4, 1, 11, 750, msg, sizeof msg));
    CU_ASSERT_STRING_EQUAL(msg, "query 1 (key 11): answered 750, expected 3 (the last key <= 11, keys[3] = 9)");
}

/* kit_wrong_output: the one wording of a wrong element; "never written" only for a filled output's fill; the tie rule on a tie. */
static void test_wrong_output(void)
{
    int32_t from[] = {4, 6}, got[2] = {5, 0};
    char msg[200];
    kit_wrong_output(KIT_TYPE_I32, got, "C", 0, from, "B", 1, "ties", msg, sizeof msg);
    CU_ASSERT_STRING_EQUAL(msg, "index 0: expected 6 (B[1]), got 5");
    memset(got, KIT_UNWRITTEN_BYTE, sizeof got);
    kit_wrong_output(KIT_TYPE_I32, got, "C", 1, from, "A", 0, "ties", msg, sizeof msg);
    CU_ASSERT_STRING_EQUAL(msg, "index 1: expected 4 (A[0]), got -1515870811: C[1] was never written");
    kit_wrong_output(KIT_TYPE_I32, got, NULL, 1, from, "input", 0, "ties", msg, sizeof msg);
    CU_ASSERT_STRING_EQUAL(msg, "index 1: expected 4 (input[0]), got -1515870811");
    got[1] = 4, from[0] = 4; /* the expected key, another element: the rule for ties is said */
    kit_wrong_output(KIT_TYPE_I32, got, "C", 1, from, "A", 0, "equal keys keep A's first", msg, sizeof msg);
    CU_ASSERT_STRING_EQUAL(msg, "index 1: expected 4 (A[0]), got 4: equal keys keep A's first");
}

/* kit_pbs_gen_input, make run's lab 6 input, is the grader's (check.c's generate_pbs: the keys of
   kit_gen_merge_input with no B, then the queries of the same seed): a test's make run command
   rebuilds its queries. */
static void test_pbs_gen_input(void)
{
    const struct {
        kit_type t;
        size_t K, Q;
        kit_gen g;
        kit_pbs_queries kind;
        uint64_t seed;
    } cases[] = {{KIT_TYPE_I32, 33, 500, KIT_GEN_RANDOM, KIT_PBS_RANGE, 1},
                 {KIT_TYPE_I64, 1000, 2000, KIT_GEN_DUPLICATES, KIT_PBS_KEYS, 7},
                 {KIT_TYPE_I32, 4096, 4096, KIT_GEN_RANDOM, KIT_PBS_WORST, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t bytes = kit_type_size(cases[c].t);
        char *k1 = kit_xmalloc(cases[c].K * bytes), *k2 = kit_xmalloc(cases[c].K * bytes);
        char *q1 = kit_xmalloc(cases[c].Q * bytes), *q2 = kit_xmalloc(cases[c].Q * bytes);
        CU_ASSERT_EQUAL(kit_pbs_gen_input(cases[c].t, k1, cases[c].K, cases[c].g, cases[c].kind, cases[c].seed, q1,
                                          cases[c].Q), 0);
        CU_ASSERT_EQUAL(kit_gen_merge_input(cases[c].t, k2, cases[c].K, q2, 0, cases[c].g, cases[c].seed), 0);
        CU_ASSERT_EQUAL(kit_pbs_gen_queries_any(cases[c].t, k2, cases[c].K, cases[c].kind, cases[c].seed, q2, cases[c].Q), 0);
        KIT_ASSERT_MSG(memcmp(k1, k2, cases[c].K * bytes) == 0 && memcmp(q1, q2, cases[c].Q * bytes) == 0,
                       "case %zu: make run's lab 6 input differs from the grader's", c);
        free(k1);
        free(k2);
        free(q1);
        free(q2);
    }
}

/* kit_gcd: the papers' d = gcd(w, E). */
static void test_gcd(void)
{
    CU_ASSERT_EQUAL(kit_gcd(32, 12), 4);
    CU_ASSERT_EQUAL(kit_gcd(32, 17), 1);
    CU_ASSERT_EQUAL(kit_gcd(12, 0), 12);
    CU_ASSERT_EQUAL(kit_gcd(16, 16), 16);
}

/* kit_pbs_gen_queries makes worst queries only for K a multiple of w^2; the instructor's kit_pbs_gen_queries_any makes them for any K, and the same ones where both can. */
static void test_pbs_worst_queries_any(void)
{
    int32_t keys[2048], q1[64], q2[64];
    for (int i = 0; i < 2048; i++)
        keys[i] = 3 * i;
    CU_ASSERT_EQUAL(kit_pbs_gen_queries(KIT_TYPE_I32, keys, 1000, KIT_PBS_WORST, 1, q1, 64), -1);
    CU_ASSERT_EQUAL(kit_pbs_gen_queries_any(KIT_TYPE_I32, keys, 1000, KIT_PBS_WORST, 1, q1, 64), 0);
    for (int i = 0; i < 64; i++)
        KIT_ASSERT_MSG(q1[i] % 3 == 0 && q1[i] < 3000 && q1[i] == q1[i % 32], "query %d = %d", i, q1[i]);
    CU_ASSERT_EQUAL(kit_pbs_gen_queries(KIT_TYPE_I32, keys, 2048, KIT_PBS_WORST, 4, q1, 64), 0);
    CU_ASSERT_EQUAL(kit_pbs_gen_queries_any(KIT_TYPE_I32, keys, 2048, KIT_PBS_WORST, 4, q2, 64), 0);
    CU_ASSERT_EQUAL(memcmp(q1, q2, sizeof q1), 0);
}

/* ---- kit_ref.h ------------------------------------------------------------------- */
/* kit_stable_sort: ascending keys, equal keys in input order (kv32 values tag the input position), for every length up to 70 and a long array. */
static void test_stable_sort(void)
{
    static const size_t lens[] = {0, 1, 2, 3, 7, 8, 9, 31, 64, 70, 5000};
    for (size_t li = 0; li < ARRAY_LEN(lens); li++) {
        size_t n = lens[li];
        kit_kv32 *kv = (kit_kv32 *)kit_xmalloc(n * sizeof *kv + 1);
        for (size_t i = 0; i < n; i++) {
            kv[i].key = (int32_t)((i * 7919) % 5); /* five keys, many ties */
            kv[i].value = (int32_t)i;
        }
        CU_ASSERT_EQUAL_FATAL(kit_stable_sort(KIT_TYPE_KV32, kv, n), 0);
        for (size_t i = 1; i < n; i++)
            if (kv[i - 1].key > kv[i].key || (kv[i - 1].key == kv[i].key && kv[i - 1].value > kv[i].value)) {
                kit_test_fail(__FILE__, __LINE__, "n=%zu: positions %zu and %zu hold (%d, %d) then (%d, %d)", n, i - 1, i,
                              kv[i - 1].key, kv[i - 1].value, kv[i].key, kv[i].value);
                break;
            }
        size_t counts[5] = {0}, want_counts[5] = {0};
        for (size_t i = 0; i < n; i++) {
            counts[kv[i].key]++;
            want_counts[(i * 7919) % 5]++;
        }
        for (int k = 0; k < 5; k++) /* nothing lost or duplicated */
            CU_ASSERT_EQUAL(counts[k], want_counts[k]);
        free(kv);
    }
    int32_t i32[] = {4, -1, 4, INT32_MIN, 0};
    const int32_t want[] = {INT32_MIN, -1, 0, 4, 4};
    CU_ASSERT_EQUAL_FATAL(kit_stable_sort(KIT_TYPE_I32, i32, ARRAY_LEN(i32)), 0);
    char msg[160];
    KIT_ASSERT_MSG(kit_verify(KIT_TYPE_I32, want, i32, ARRAY_LEN(i32), msg, sizeof msg) < 0, "i32: %s", msg);
}


static void test_key_at(void)
{
    const int32_t i32[] = {-7, INT32_MAX, INT32_MIN};
    const int64_t i64[] = {-(1LL << 40), INT64_MAX};
    const kit_kv32 kv[] = {{-5, 99}, {8, -1}};
    KIT_ASSERT_MSG(kit_key_at(KIT_TYPE_I32, i32, 0) == -7, "i32[0]: expected -7, got %lld",
                   (long long)kit_key_at(KIT_TYPE_I32, i32, 0));
    KIT_ASSERT_MSG(kit_key_at(KIT_TYPE_I32, i32, 1) == INT32_MAX, "i32[1]: expected %d, got %lld", INT32_MAX,
                   (long long)kit_key_at(KIT_TYPE_I32, i32, 1));
    KIT_ASSERT_MSG(kit_key_at(KIT_TYPE_I32, i32, 2) == INT32_MIN, "i32[2]: expected %d, got %lld", INT32_MIN,
                   (long long)kit_key_at(KIT_TYPE_I32, i32, 2));
    KIT_ASSERT_MSG(kit_key_at(KIT_TYPE_I64, i64, 0) == -(1LL << 40), "i64[0]: expected %lld, got %lld", -(1LL << 40),
                   (long long)kit_key_at(KIT_TYPE_I64, i64, 0));
    KIT_ASSERT_MSG(kit_key_at(KIT_TYPE_I64, i64, 1) == INT64_MAX, "i64[1]: expected %lld, got %lld",
                   (long long)INT64_MAX, (long long)kit_key_at(KIT_TYPE_I64, i64, 1));
    KIT_ASSERT_MSG(kit_key_at(KIT_TYPE_KV32, kv, 0) == -5, "kv32[0]: expected key -5, got %lld",
                   (long long)kit_key_at(KIT_TYPE_KV32, kv, 0));
    KIT_ASSERT_MSG(kit_key_at(KIT_TYPE_KV32, kv, 1) == 8, "kv32[1]: expected key 8, got %lld",
                   (long long)kit_key_at(KIT_TYPE_KV32, kv, 1));
}

static void test_is_sorted(void)
{
    const int32_t up[] = {-3, 0, 0, 7}, down[] = {1, 2, 4, 3};
    const int64_t wide[] = {1LL << 33, 1}; /* ascending if compared on the low 32 bits only */
    const kit_kv32 kv_up[] = {{1, 9}, {1, 3}, {2, 0}}, kv_down[] = {{2, 0}, {1, 1}};
    const struct {
        kit_type t;
        const void *data;
        size_t n;
        int want;
        const char *what;
    } cases[] = {
        {KIT_TYPE_I32, up, 4, 1, "ascending with a tie"},   {KIT_TYPE_I32, down, 4, 0, "last pair descends"},
        {KIT_TYPE_I32, down, 3, 1, "its first three"},      {KIT_TYPE_I32, down, 0, 1, "empty"},
        {KIT_TYPE_I32, down + 3, 1, 1, "one element"},      {KIT_TYPE_I64, wide, 2, 0, "i64 beyond 32 bits"},
        {KIT_TYPE_KV32, kv_up, 3, 1, "kv32 by key only"},   {KIT_TYPE_KV32, kv_down, 2, 0, "kv32 descending"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        int got = kit_is_sorted(cases[i].t, cases[i].data, cases[i].n) != 0;
        KIT_ASSERT_MSG(got == cases[i].want, "is_sorted(%s): expected %d, got %d", cases[i].what, cases[i].want, got);
    }
}

/* Fig. 12.1 of the textbook chapter. */
static const int32_t chapter_A[] = {1, 7, 8, 9, 10}, chapter_B[] = {7, 10, 10, 12};

static void test_merge_ref(void)
{
    const int32_t want[] = {1, 7, 7, 8, 9, 10, 10, 10, 12};
    int32_t C[9];
    char msg[160];
    memset(C, 0xA5, sizeof C);
    kit_merge_ref(KIT_TYPE_I32, chapter_A, 5, chapter_B, 4, C);
    KIT_ASSERT_MSG(kit_verify(KIT_TYPE_I32, want, C, 9, msg, sizeof msg) < 0, "chapter example: %s", msg);

    const int64_t A64[] = {1LL << 40, 3LL << 40}, B64[] = {2LL << 40, 4LL << 40};
    const int64_t want64[] = {1LL << 40, 2LL << 40, 3LL << 40, 4LL << 40};
    int64_t C64[4];
    kit_merge_ref(KIT_TYPE_I64, A64, 2, B64, 2, C64);
    KIT_ASSERT_MSG(kit_verify(KIT_TYPE_I64, want64, C64, 4, msg, sizeof msg) < 0, "i64 beyond 32 bits: %s", msg);
}

static void test_merge_ref_stable(void)
{
    /* The chapter example tagged with origin (A: i, B: -1 - j): A's 7 before B's 7, A's 10 before B's two 10s. */
    const kit_kv32 A[] = {{1, 0}, {7, 1}, {8, 2}, {9, 3}, {10, 4}};
    const kit_kv32 B[] = {{7, -1}, {10, -2}, {10, -3}, {12, -4}};
    const kit_kv32 want[] = {{1, 0}, {7, 1}, {7, -1}, {8, 2}, {9, 3}, {10, 4}, {10, -2}, {10, -3}, {12, -4}};
    kit_kv32 C[9];
    char msg[160];
    kit_merge_ref(KIT_TYPE_KV32, A, 5, B, 4, C);
    KIT_ASSERT_MSG(kit_verify(KIT_TYPE_KV32, want, C, 9, msg, sizeof msg) < 0, "tagged chapter example: %s", msg);

    /* All keys equal: all of A in order, then all of B in order. */
    const kit_kv32 E1[] = {{5, 0}, {5, 1}, {5, 2}}, E2[] = {{5, -1}, {5, -2}};
    const kit_kv32 ewant[] = {{5, 0}, {5, 1}, {5, 2}, {5, -1}, {5, -2}};
    kit_kv32 EC[5];
    kit_merge_ref(KIT_TYPE_KV32, E1, 3, E2, 2, EC);
    KIT_ASSERT_MSG(kit_verify(KIT_TYPE_KV32, ewant, EC, 5, msg, sizeof msg) < 0, "all keys equal: %s", msg);
}

static void test_merge_ref_empty(void)
{
    int32_t C[5], untouched = 0x5A5A5A5A;
    char msg[160];
    C[0] = untouched;
    kit_merge_ref(KIT_TYPE_I32, chapter_A, 0, chapter_B, 0, C);
    KIT_ASSERT_MSG(C[0] == untouched, "m = n = 0 wrote C[0] = %d", C[0]);
    kit_merge_ref(KIT_TYPE_I32, chapter_A, 0, chapter_B, 4, C);
    KIT_ASSERT_MSG(kit_verify(KIT_TYPE_I32, chapter_B, C, 4, msg, sizeof msg) < 0, "m = 0 should copy B: %s", msg);
    kit_merge_ref(KIT_TYPE_I32, chapter_A, 5, chapter_B, 0, C);
    KIT_ASSERT_MSG(kit_verify(KIT_TYPE_I32, chapter_A, C, 5, msg, sizeof msg) < 0, "n = 0 should copy A: %s", msg);
}

static void test_co_rank_example(void)
{
    /* Walking the merge 1(A) 7(A) 7(B) 8(A) 9(A) 10(A) 10(B) 10(B) 12(B) and counting A's elements. */
    const int64_t want[10] = {0, 1, 2, 2, 3, 4, 5, 5, 5, 5};
    int64_t all[10];
    kit_co_rank_all(KIT_TYPE_I32, chapter_A, 5, chapter_B, 4, all);
    for (size_t k = 0; k <= 9; k++) {
        size_t brute = kit_co_rank_brute(KIT_TYPE_I32, chapter_A, 5, chapter_B, 4, k);
        KIT_ASSERT_MSG((int64_t)brute == want[k], "co_rank_brute(k=%zu): expected %lld, got %zu", k,
                       (long long)want[k], brute);
        KIT_ASSERT_MSG(all[k] == want[k], "co_rank_all[%zu]: expected %lld, got %lld", k, (long long)want[k],
                       (long long)all[k]);
    }
}

static void test_co_rank_agree(void)
{
    static const kit_gen shapes[] = {KIT_GEN_RANDOM, KIT_GEN_DUPLICATES, KIT_GEN_EQUAL, KIT_GEN_FEW_UNIQUE,
                                     KIT_GEN_A_BELOW_B, KIT_GEN_B_BELOW_A, KIT_GEN_INTERLEAVED};
    static const size_t sizes[][2] = {{60, 45}, {0, 7}, {7, 0}, {1, 30}};
    int64_t all[106];
    int64_t A[60], B[45]; /* big enough for any type at these sizes */
    for (size_t ti = 0; ti < ARRAY_LEN(all_types); ti++) {
        kit_type t = all_types[ti];
        for (size_t s = 0; s < ARRAY_LEN(shapes); s++) {
            for (size_t z = 0; z < ARRAY_LEN(sizes); z++) {
                size_t m = sizes[z][0], n = sizes[z][1];
                kit_gen_merge_input(t, A, m, B, n, shapes[s], 1000 + s);
                kit_co_rank_all(t, A, m, B, n, all);
                for (size_t k = 0; k <= m + n; k++) {
                    size_t brute = kit_co_rank_brute(t, A, m, B, n, k);
                    if ((int64_t)brute != all[k]) {
                        kit_test_fail(__FILE__, __LINE__, "%s %s m=%zu n=%zu k=%zu: brute %zu, all %lld",
                                      kit_type_name(t), kit_gen_name(shapes[s]), m, n, k, brute, (long long)all[k]);
                        break;
                    }
                }
                KIT_ASSERT_MSG(all[0] == 0 && all[m + n] == (int64_t)m,
                               "%s %s m=%zu n=%zu: ends %lld and %lld, expected 0 and %zu", kit_type_name(t),
                               kit_gen_name(shapes[s]), m, n, (long long)all[0], (long long)all[m + n], m);
                if (shapes[s] == KIT_GEN_EQUAL) /* ties go to A first: co-rank is min(k, m) */
                    for (size_t k = 0; k <= m + n; k++)
                        if (all[k] != (int64_t)(k < m ? k : m)) {
                            kit_test_fail(__FILE__, __LINE__, "%s equal m=%zu n=%zu k=%zu: expected %zu, got %lld",
                                          kit_type_name(t), m, n, k, k < m ? k : m, (long long)all[k]);
                            break;
                        }
            }
        }
    }
}

static void test_co_rank_pass_bound(void)
{
    /* ceil(log2(min + 1)) + 1 by hand. */
    static const long long mins[][2] = {{0, 1},       {1, 2},       {2, 3},       {3, 3},        {4, 4},
                                        {7, 4},       {8, 5},       {15, 5},      {16, 6},       {1023, 11},
                                        {1024, 12},   {1 << 20, 22}, {(1 << 20) - 1, 21}, {INT32_MAX, 32}};
    for (size_t i = 0; i < ARRAY_LEN(mins); i++) {
        long long small = mins[i][0], big = small + 1000;
        int want = (int)mins[i][1];
        int a = kit_co_rank_pass_bound(small, big), b = kit_co_rank_pass_bound(big, small);
        int c = kit_co_rank_pass_bound(small, small);
        KIT_ASSERT_MSG(a == want && b == want && c == want,
                       "pass_bound with min %lld: expected %d, got %d (m small), %d (n small), %d (equal)", small, want,
                       a, b, c);
    }
}

static void test_format_elem(void)
{
    const int32_t i32[] = {-5};
    const int64_t i64[] = {-9000000000LL};
    const kit_kv32 kv[] = {{0, 0}, {1, 2}, {17, -3}};
    char buf[64];
    kit_format_elem(KIT_TYPE_I32, i32, 0, buf, sizeof buf);
    KIT_ASSERT_MSG(strcmp(buf, "-5") == 0, "i32: expected \"-5\", got \"%s\"", buf);
    kit_format_elem(KIT_TYPE_I64, i64, 0, buf, sizeof buf);
    KIT_ASSERT_MSG(strcmp(buf, "-9000000000") == 0, "i64: expected \"-9000000000\", got \"%s\"", buf);
    kit_format_elem(KIT_TYPE_KV32, kv, 1, buf, sizeof buf);
    KIT_ASSERT_MSG(strcmp(buf, "(key 1, value 2)") == 0, "kv32: expected \"(key 1, value 2)\", got \"%s\"", buf);
    kit_format_elem(KIT_TYPE_KV32, kv, 2, buf, sizeof buf);
    KIT_ASSERT_MSG(strcmp(buf, "(key 17, value -3)") == 0, "kv32: expected \"(key 17, value -3)\", got \"%s\"", buf);
    memset(buf, 'x', sizeof buf);
    kit_format_elem(KIT_TYPE_KV32, kv, 2, buf, 6); /* always NUL-terminated */
    KIT_ASSERT_MSG(strcmp(buf, "(key ") == 0, "truncated to 6 bytes: expected \"(key \", got \"%.10s\"", buf);
}

static void test_verify(void)
{
    const int32_t want[] = {1, 3, 5, 7}, same[] = {1, 3, 5, 7}, off[] = {1, 3, 6, 8};
    char msg[128];
    strcpy(msg, "junk");
    long long r = kit_verify(KIT_TYPE_I32, want, same, 4, msg, sizeof msg);
    KIT_ASSERT_MSG(r == -1 && msg[0] == '\0', "equal arrays: expected -1 and \"\", got %lld and \"%s\"", r, msg);
    r = kit_verify(KIT_TYPE_I32, want, off, 4, msg, sizeof msg);
    KIT_ASSERT_MSG(r == 2, "first mismatch: expected 2, got %lld", r);
    KIT_ASSERT_MSG(strcmp(msg, "index 2: expected 5, got 6") == 0,
                   "message: expected \"index 2: expected 5, got 6\", got \"%s\"", msg);
    r = kit_verify(KIT_TYPE_I32, want, off, 2, msg, sizeof msg);
    KIT_ASSERT_MSG(r == -1, "the first two agree: expected -1, got %lld", r);
    r = kit_verify(KIT_TYPE_I32, want, off, 4, NULL, 0);
    KIT_ASSERT_MSG(r == 2, "msg NULL: expected 2, got %lld", r);
    r = kit_verify(KIT_TYPE_I32, want, off, 0, msg, sizeof msg);
    KIT_ASSERT_MSG(r == -1, "n = 0: expected -1, got %lld", r);

    /* Pairs differ in the value only: still a mismatch, shown as pairs. */
    const kit_kv32 kw[] = {{4, 0}, {1, 2}}, kg[] = {{4, 0}, {1, 3}};
    r = kit_verify(KIT_TYPE_KV32, kw, kg, 2, msg, sizeof msg);
    KIT_ASSERT_MSG(
        r == 1 && strcmp(msg, "index 1: expected (key 1, value 2), got (key 1, value 3)") == 0,
        "kv32: expected 1 and \"index 1: expected (key 1, value 2), got (key 1, value 3)\", got %lld and \"%s\"", r,
        msg);

    const int64_t w64[] = {1LL << 40}, g64[] = {(1LL << 40) + (1LL << 32)};
    r = kit_verify(KIT_TYPE_I64, w64, g64, 1, msg, sizeof msg);
    KIT_ASSERT_MSG(r == 0 && strcmp(msg, "index 0: expected 1099511627776, got 1103806595072") == 0,
                   "i64: expected 0 and \"index 0: expected 1099511627776, got 1103806595072\", got %lld and \"%s\"", r,
                   msg);
}

/* ---- kit_timer.h ----------------------------------------------------------------- */

static void test_now_s(void)
{
    double prev = kit_now_s();
    int backwards = 0;
    for (int i = 0; i < 10000; i++) {
        double now = kit_now_s();
        backwards |= now < prev;
        prev = now;
    }
    KIT_ASSERT_MSG(!backwards, "kit_now_s went backwards");
    struct timespec nap = {0, 20 * 1000 * 1000};
    double t0 = kit_now_s();
    nanosleep(&nap, NULL);
    double dt = kit_now_s() - t0;
    KIT_ASSERT_MSG(dt >= 0.015 && dt <= 1.0, "a 20 ms sleep: expected 0.015 .. 1.0 s, got %.6f s", dt);
}

/* ---- kit_cli.h ------------------------------------------------------------------- */

/* Runs kit_args_parse on "prog" plus the NULL-terminated options, starting from the defaults. */
static int parse_opts(kit_args *a, char *err, size_t errlen, const char *const *opts)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = (char *)"prog";
    while (*opts && argc < 31)
        argv[argc++] = (char *)*opts++;
    argv[argc] = NULL;
    kit_args_defaults(a);
    err[0] = '\0';
    return kit_args_parse(a, argc, argv, err, errlen);
}

static void test_args_defaults(void)
{
    kit_args a;
    memset(&a, 0x7F, sizeof a);
    kit_args_defaults(&a);
    KIT_ASSERT_MSG(a.m == 1000 && a.n == 1000, "m, n: expected 1000 1000, got %lld %lld", a.m, a.n);
    KIT_ASSERT_MSG(a.type == KIT_TYPE_I32 && a.gen == KIT_GEN_RANDOM, "type, gen: expected i32 random, got %s %s",
                   kit_type_name(a.type), kit_gen_name(a.gen));
    KIT_ASSERT_MSG(a.seed == 1 && a.k == -1 && a.repeat == 1, "seed, k, repeat: expected 1 -1 1, got %llu %lld %d",
                   (unsigned long long)a.seed, a.k, a.repeat);
    KIT_ASSERT_MSG(a.print == 0 && a.serve == 0, "print, serve: expected 0 0, got %d %d", a.print, a.serve);

    const char *none[] = {NULL};
    char err[160];
    int rc = parse_opts(&a, err, sizeof err, none);
    KIT_ASSERT_MSG(rc == 0 && a.m == 1000 && a.k == -1,
                   "no options: expected 0 and the defaults, got %d (m=%lld k=%lld)", rc, a.m, a.k);
}

static void test_args_every_option(void)
{
    const char *opts[] = {"--m", "5", "--n", "4", "--type", "kv32", "--gen", "few-unique",
                          "--seed", "18446744073709551615", "--k", "9", "--repeat", "3", "--print", "--serve", NULL};
    kit_args a;
    char err[160];
    int rc = parse_opts(&a, err, sizeof err, opts);
    KIT_ASSERT_MSG(rc == 0, "expected 0, got %d (%s)", rc, err);
    KIT_ASSERT_MSG(a.m == 5 && a.n == 4 && a.k == 9 && a.repeat == 3,
                   "m n k repeat: expected 5 4 9 3, got %lld %lld %lld %d", a.m, a.n, a.k, a.repeat);
    KIT_ASSERT_MSG(a.type == KIT_TYPE_KV32 && a.gen == KIT_GEN_FEW_UNIQUE,
                   "type gen: expected kv32 few-unique, got %s %s", kit_type_name(a.type), kit_gen_name(a.gen));
    KIT_ASSERT_MSG(a.seed == UINT64_MAX, "seed: expected %llu, got %llu", (unsigned long long)UINT64_MAX,
                   (unsigned long long)a.seed);
    KIT_ASSERT_MSG(a.print == 1 && a.serve == 1, "print serve: expected 1 1, got %d %d", a.print, a.serve);

    /* --k is checked against m + n after every option is read, whatever the order. */
    const char *k_first[] = {"--k", "9", "--m", "5", "--n", "4", NULL};
    rc = parse_opts(&a, err, sizeof err, k_first);
    KIT_ASSERT_MSG(rc == 0 && a.k == 9, "--k before --m/--n: expected 0 and k 9, got %d and %lld (%s)", rc, a.k, err);
    const char *biggest[] = {"--m", "2147483647", "--n", "0", NULL};
    rc = parse_opts(&a, err, sizeof err, biggest);
    KIT_ASSERT_MSG(rc == 0 && a.m == INT32_MAX, "m + n = INT32_MAX: expected 0, got %d (%s)", rc, err);
}

/* The kernel labs' options: launch shape, tile, and a trace file. */
static void test_args_launch_options(void)
{
    const char *opts[] = {"--blocks", "7", "--threads", "96", "--tile", "100", "--trace", "out.trace", NULL};
    kit_args a;
    char err[160];
    int rc = parse_opts(&a, err, sizeof err, opts);
    KIT_ASSERT_MSG(rc == 0 && a.blocks == 7 && a.threads == 96 && a.tile == 100 && a.trace &&
                       strcmp(a.trace, "out.trace") == 0,
                   "expected 0, 7 96 100 out.trace; got %d, %d %d %d %s (%s)", rc, a.blocks, a.threads, a.tile,
                   a.trace ? a.trace : "(null)", err);
    kit_args_defaults(&a);
    KIT_ASSERT_MSG(a.blocks == 0 && a.threads == 0 && a.tile == 0 && a.trace == NULL,
                   "defaults: expected 0 0 0 NULL, got %d %d %d %p", a.blocks, a.threads, a.tile, (const void *)a.trace);
    const char *bad[][3] = {{"--threads", "1025", NULL}, {"--threads", "0", NULL}, {"--blocks", "0", NULL},
                            {"--tile", "-4", NULL},      {"--trace", "", NULL},     {"--blocks", "2147483648", NULL}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rc = parse_opts(&a, err, sizeof err, bad[i]);
        KIT_ASSERT_MSG(rc == -1 && strstr(err, bad[i][0]) != NULL, "%s '%s': expected -1 naming the option, got %d (%s)",
                       bad[i][0], bad[i][1], rc, err);
    }
    /* a bad value's message says what the option takes */
    const char *ranged[][3] = {{"--threads", "2000", "bad value '2000' for --threads: a whole number from 1 to 1024"},
                               {"--blocks", "0", "--blocks: a whole number from 1 to 2147483647"},
                               {"--type", "u8", "--type: i32, i64 or kv32"},
                               {"--gen", "wavy", "--gen: one of random sorted"},
                               {"--repeat", "0", "--repeat: a whole number from 1 to 1000000"},
                               {"--seed", "-1", "--seed: a whole number from 0 to 18446744073709551615"}};
    for (size_t i = 0; i < sizeof ranged / sizeof ranged[0]; i++) {
        const char *opts2[] = {ranged[i][0], ranged[i][1], NULL};
        rc = parse_opts(&a, err, sizeof err, opts2);
        KIT_ASSERT_MSG(rc == -1 && strstr(err, ranged[i][2]) != NULL, "%s '%s': expected -1 and '%s', got %d (%s)",
                       ranged[i][0], ranged[i][1], ranged[i][2], rc, err);
    }
}

/* Lab 6's options: the algorithm and the query set, kept as given for the driver to check. */
static void test_args_alg_queries(void)
{
    const char *opts[] = {"--alg", "cl", "--queries", "worst", NULL};
    kit_args a;
    char err[160];
    int rc = parse_opts(&a, err, sizeof err, opts);
    KIT_ASSERT_MSG(rc == 0 && a.alg && strcmp(a.alg, "cl") == 0 && a.queries && strcmp(a.queries, "worst") == 0,
                   "expected cl and worst, got %d (%s)", rc, err);
    kit_args_defaults(&a);
    KIT_ASSERT_MSG(a.alg == NULL && a.queries == NULL, "defaults: expected NULL, NULL");
    const char *bad[][3] = {{"--alg", "", NULL}, {"--queries", "", NULL}, {"--alg", NULL, NULL}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rc = parse_opts(&a, err, sizeof err, bad[i]);
        KIT_ASSERT_MSG(rc == -1 && strstr(err, bad[i][0]) != NULL, "%s: expected -1 naming the option, got %d (%s)",
                       bad[i][0], rc, err);
    }
}

/* kit_pbs: names, the reference, Algorithm 1's path, and the paper's count. */
static void test_pbs_reference(void)
{
    const int32_t keys[] = {-5, 0, 0, 0, 7, 9, 9, 100};
    const int64_t q[] = {INT32_MIN, -6, -5, -1, 0, 1, 7, 8, 9, 99, 100, INT32_MAX};
    const long long want[] = {-1, -1, 0, 0, 3, 3, 4, 4, 6, 6, 7, 7};
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        long long got = kit_pbs_ref(KIT_TYPE_I32, keys, 8, q[i]);
        KIT_ASSERT_MSG(got == want[i], "kit_pbs_ref(%lld) = %lld, expected %lld", (long long)q[i], got, want[i]);
    }
    kit_pbs_queries k;
    for (int i = 0; i < KIT_PBS_QUERIES_COUNT; i++)
        KIT_ASSERT_MSG(kit_pbs_queries_parse(kit_pbs_queries_name((kit_pbs_queries)i), &k) == 0 && (int)k == i,
                       "query set %d does not round-trip its name", i);
    CU_ASSERT_EQUAL(kit_pbs_queries_parse("all", &k), -1);
    CU_ASSERT_STRING_EQUAL(kit_pbs_queries_name(KIT_PBS_QUERIES_COUNT), "?");
    CU_ASSERT_EQUAL(kit_pbs_worst_accesses(1024, 32), 191); /* 32 * (10 - 5 + 1) - 1 */
    CU_ASSERT_EQUAL(kit_pbs_worst_accesses(8192, 32), 287);
    /* K < w^2: a bank holds K/w keys, so a pass costs at most K/w (the driver once printed 159 for K = 512) */
    CU_ASSERT_EQUAL(kit_pbs_worst_accesses(512, 32), 95); /* 1 + 2 + 4 + 8 + 16 * 5 */
    CU_ASSERT_EQUAL(kit_pbs_worst_accesses(32, 32), 5);   /* one key a bank: 1 per pass */
    CU_ASSERT_EQUAL(kit_pbs_worst_accesses(64, 32), 11);  /* 1 + 2 * 5 */
    for (long long K = 1024, log_k = 10; K <= (1LL << 20); K *= 2, log_k++) /* the paper's closed form for K >= w^2 */
        KIT_ASSERT_MSG(kit_pbs_worst_accesses(K, 32) == 32 * (log_k - 5 + 1) - 1, "kit_pbs_worst_accesses(%lld, 32) = %lld, "
                       "the paper's w(log K - log w + 1) - 1 is %lld", K, kit_pbs_worst_accesses(K, 32), 32 * (log_k - 5 + 1) - 1);
    CU_ASSERT_EQUAL(kit_pbs_worst_accesses(1000, 32), -1);
    CU_ASSERT_EQUAL(kit_pbs_worst_accesses(16, 32), -1);
    /* Algorithm 1 on 8 keys: start at 4, deltas 2, 1, 1; three passes and the last test, padded by 32. */
    int32_t pos[40];
    int n = kit_pbs_path(KIT_TYPE_I32, keys, 8, 100, pos);
    KIT_ASSERT_MSG(n == 4 && pos[0] == 36 && pos[1] == 38 && pos[2] == 39 && pos[3] == 40,
                   "path of 100: %d positions %d %d %d %d, expected 36 38 39 40", n, pos[0], pos[1], pos[2], pos[3]);
    n = kit_pbs_path(KIT_TYPE_I32, keys, 1, 3, pos);
    KIT_ASSERT_MSG(n == 1 && pos[0] == 32, "one key: %d positions, first %d; expected 1 at 32", n, pos[0]);
}

/* The query sets: drawn from the keys, around the keys' range, and the worst case for PBS. */
static void test_pbs_queries(void)
{
    enum { K = 2048, Q = 4096 };
    static int32_t keys[K], out[Q], again[Q];
    for (int i = 0; i < K; i++)
        keys[i] = 3 * i;
    CU_ASSERT_EQUAL(kit_pbs_gen_queries(KIT_TYPE_I32, keys, K, KIT_PBS_KEYS, 1, out, Q), 0);
    int bad = 0;
    for (int i = 0; i < Q; i++)
        bad += out[i] % 3 != 0 || out[i] < 0 || out[i] > 3 * (K - 1);
    KIT_ASSERT_MSG(bad == 0, "%d 'keys' queries are not keys", bad);
    kit_pbs_gen_queries(KIT_TYPE_I32, keys, K, KIT_PBS_KEYS, 1, again, Q);
    CU_ASSERT(memcmp(out, again, sizeof out) == 0);
    CU_ASSERT_EQUAL(kit_pbs_gen_queries(KIT_TYPE_I32, keys, K, KIT_PBS_RANGE, 2, out, Q), 0);
    int below = 0, above = 0;
    for (int i = 0; i < Q; i++) {
        below += out[i] < 0;
        above += out[i] > 3 * (K - 1);
    }
    KIT_ASSERT_MSG(below > Q / 16 && above > Q / 16, "'range' queries: %d below and %d above the keys, expected about %d each",
                   below, above, Q / 8);
    /* K = 2 w^2: thread i of a warp queries key i*K/w + C, C the same in the warp. */
    CU_ASSERT_EQUAL(kit_pbs_gen_queries(KIT_TYPE_I32, keys, K, KIT_PBS_WORST, 3, out, Q), 0);
    for (int w = 0; w < Q / 32 && !bad; w++) {
        int C = out[32 * w] / 3;
        for (int i = 0; i < 32; i++)
            bad += out[32 * w + i] != 3 * (i * (K / 32) + C);
        KIT_ASSERT_MSG(!bad && C < K / 32, "warp %d of the worst case does not follow K[i*K/w + C] (C = %d)", w, C);
    }
    /* K = 1000: the pigeonhole construction puts 32 distinct positions of one bank in one pass. */
    CU_ASSERT_EQUAL(kit_pbs_gen_queries_any(KIT_TYPE_I32, keys, 1000, KIT_PBS_WORST, 3, out, 32), 0);
    int32_t path[32][40];
    int len = 0;
    for (int i = 0; i < 32; i++)
        len = kit_pbs_path(KIT_TYPE_I32, keys, 1000, out[i], path[i]);
    int best = 0;
    for (int p = 0; p < len; p++) {
        int distinct = 0;
        for (int i = 0; i < 32; i++) {
            int seen = 0;
            for (int j = 0; j < i; j++)
                seen |= path[j][p] == path[i][p];
            distinct += !seen && path[i][p] % 32 == path[0][p] % 32;
        }
        best = distinct > best ? distinct : best;
    }
    KIT_ASSERT_MSG(best == 32, "K = 1000: the most distinct same-bank positions in one pass is %d, expected 32", best);
    CU_ASSERT_EQUAL(kit_pbs_gen_queries(KIT_TYPE_KV32, keys, K, KIT_PBS_KEYS, 1, out, 4), -1);
    CU_ASSERT_EQUAL(kit_pbs_gen_queries(KIT_TYPE_I32, keys, 0, KIT_PBS_KEYS, 1, out, 4), -1);
    CU_ASSERT_EQUAL(kit_pbs_gen_queries(KIT_TYPE_I32, keys, K, KIT_PBS_QUERIES_COUNT, 1, out, 4), -1);
}

static void test_args_help(void)
{
    kit_args a;
    char err[160];
    const char *help[] = {"--m", "5", "--help", NULL}, *h[] = {"-h", NULL};
    int rc = parse_opts(&a, err, sizeof err, help);
    KIT_ASSERT_MSG(rc == 1, "--help: expected 1, got %d", rc);
    rc = parse_opts(&a, err, sizeof err, h);
    KIT_ASSERT_MSG(rc == 1, "-h: expected 1, got %d", rc);
}

static void test_args_errors(void)
{
    static const struct {
        const char *opts[8];
        const char *named; /* what the message must mention */
    } bad[] = {
        {{"--bogus", NULL}, "--bogus"},
        {{"--m", NULL}, "--m"},                                   /* missing value */
        {{"--m", "5", "--n", NULL}, "--n"},                       /* missing value after a good option */
        {{"--n", "abc", NULL}, "--n"},                            /* not a number */
        {{"--m", "", NULL}, "--m"},                               /* empty */
        {{"--m", "-1", NULL}, "--m"},                             /* negative */
        {{"--m", "12x", NULL}, "--m"},                            /* trailing junk */
        {{"--m", "99999999999999999999", NULL}, "--m"},           /* overflows long long */
        {{"--n", "2147483648", NULL}, "--n"},                     /* above INT32_MAX */
        {{"--seed", "-1", NULL}, "--seed"},                       /* negative */
        {{"--seed", "18446744073709551616", NULL}, "--seed"},     /* overflows uint64 */
        {{"--seed", "7x", NULL}, "--seed"},                       /* trailing junk */
        {{"--type", "f32", NULL}, "--type"},
        {{"--gen", "zigzag", NULL}, "--gen"},
        {{"--k", "-1", NULL}, "--k"},
        {{"--m", "3", "--n", "1", "--k", "5", NULL}, "--k"},      /* k beyond m + n */
        {{"--m", "2147483647", "--n", "1", NULL}, "m + n"},       /* m + n > INT32_MAX */
        {{"--repeat", "0", NULL}, "--repeat"},
        {{"--repeat", "-2", NULL}, "--repeat"},
    };
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        kit_args a;
        char err[160];
        int rc = parse_opts(&a, err, sizeof err, bad[i].opts);
        char line[128] = "";
        for (const char *const *o = bad[i].opts; *o; o++)
            snprintf(line + strlen(line), sizeof line - strlen(line), " '%s'", *o);
        KIT_ASSERT_MSG(rc == -1, "options%s: expected -1, got %d", line, rc);
        KIT_ASSERT_MSG(strstr(err, bad[i].named) != NULL, "options%s: message should name %s, got \"%s\"", line,
                       bad[i].named, err);
    }
}

/*
 * parse_u64 in kit_cli.c refuses a leading '-' but strtoull skips leading
 * white space first and then accepts a sign, so " -1" wraps to 2^64 - 1.
 */
static void test_args_seed_sign_behind_space(void)
{
    const char *opts[] = {"--seed", " -1", NULL};
    kit_args a;
    char err[160];
    int rc = parse_opts(&a, err, sizeof err, opts);
    KIT_ASSERT_MSG(rc == -1, "--seed ' -1': expected -1 (a negative seed), got %d with seed %llu", rc,
                   (unsigned long long)a.seed);
}

static void test_args_usage(void)
{
    FILE *f = tmpfile();
    kit_args_usage(f, "mydriver", "merges two sorted arrays");
    char *text = slurp(f, NULL);
    fclose(f);
    static const char *const want[] = {"mydriver", "merges two sorted arrays", "--m", "--n", "--type", "--gen",
                                       "--seed", "--k", "--repeat", "--print", "--serve"};
    for (size_t i = 0; i < ARRAY_LEN(want); i++)
        KIT_ASSERT_MSG(strstr(text, want[i]) != NULL, "usage should mention \"%s\", got:\n%s", want[i], text);
    for (int g = 0; g < KIT_GEN_COUNT; g++)
        KIT_ASSERT_MSG(strstr(text, kit_gen_name((kit_gen)g)) != NULL, "usage should list shape %s",
                       kit_gen_name((kit_gen)g));
    free(text);
}

static void test_driver_args(void)
{
    kit_args a;
    char *argv_ok[] = {(char *)"prog", (char *)"--m", (char *)"7", NULL};
    char *argv_help[] = {(char *)"prog", (char *)"--help", NULL};
    char *argv_bad[] = {(char *)"prog", (char *)"--m", (char *)"x", NULL};

    kit_args_defaults(&a);
    int rc = kit_driver_args(&a, 3, argv_ok, "does things");
    KIT_ASSERT_MSG(rc == -1 && a.m == 7, "good options: expected -1 and m 7, got %d and %lld", rc, a.m);

    capture out;
    capture_begin(&out, 1);
    kit_args_defaults(&a);
    rc = kit_driver_args(&a, 2, argv_help, "does things");
    char *text = capture_end(&out);
    KIT_ASSERT_MSG(rc == 0, "--help: expected 0, got %d", rc);
    KIT_ASSERT_MSG(strstr(text, "--gen") && strstr(text, "does things"),
                   "--help should print usage on stdout, got \"%s\"", text);
    free(text);

    capture err;
    capture_begin(&err, 2);
    kit_args_defaults(&a);
    rc = kit_driver_args(&a, 3, argv_bad, "does things");
    text = capture_end(&err);
    KIT_ASSERT_MSG(rc == 2, "bad option: expected 2, got %d", rc);
    KIT_ASSERT_MSG(strstr(text, "--m") != NULL, "bad option: stderr should name --m, got \"%s\"", text);
    free(text);
}

/* ---- kit_proto.h ----------------------------------------------------------------- */

static kit_req make_req(const char *op, kit_type t, uint64_t m, uint64_t n, uint64_t q)
{
    kit_req h;
    memset(&h, 0, sizeof h);
    snprintf(h.op, sizeof h.op, "%s", op);
    h.type = (uint32_t)t;
    h.flags = 0xA5A5u;
    h.m = m;
    h.n = n;
    h.q = q;
    return h;
}

static kit_res make_res(uint32_t status, kit_type t, uint64_t c, uint64_t m, uint64_t n, uint64_t r, const char *note)
{
    kit_res h;
    memset(&h, 0, sizeof h);
    h.status = status;
    h.type = (uint32_t)t;
    h.c = c;
    h.m = m;
    h.n = n;
    h.r = r;
    snprintf(h.note, sizeof h.note, "%s", note);
    return h;
}

/* The bytes kit_req_write produces (malloc'ed). */
static unsigned char *req_bytes(const kit_req *h, const void *A, const void *B, const int64_t *Q, size_t *len)
{
    FILE *f = tmpfile();
    int rc = kit_req_write(f, h, A, B, Q);
    KIT_ASSERT_MSG(rc == 0, "kit_req_write: expected 0, got %d", rc);
    unsigned char *bytes = (unsigned char *)slurp(f, len);
    fclose(f);
    return bytes;
}

static unsigned char *res_bytes(const kit_res *h, const void *C, const void *A, const void *B, const int64_t *R,
                                size_t *len)
{
    FILE *f = tmpfile();
    int rc = kit_res_write(f, h, C, A, B, R);
    KIT_ASSERT_MSG(rc == 0, "kit_res_write: expected 0, got %d", rc);
    unsigned char *bytes = (unsigned char *)slurp(f, len);
    fclose(f);
    return bytes;
}

static void test_req_round_trip(void)
{
    for (size_t ti = 0; ti < ARRAY_LEN(all_types); ti++) {
        kit_type t = all_types[ti];
        size_t size = kit_type_size(t);
        static const uint64_t counts[][3] = {{5, 3, 4}, {0, 0, 0}, {0, 2, 0}};
        for (size_t c = 0; c < ARRAY_LEN(counts); c++) {
            uint64_t m = counts[c][0], n = counts[c][1], q = counts[c][2];
            int64_t A0[5], B0[3], Q0[4] = {0, -1, 7, 1LL << 40};
            kit_gen_array(t, A0, m, KIT_GEN_RANDOM, 1);
            kit_gen_array(t, B0, n, KIT_GEN_RANDOM, 2);
            kit_req h = make_req("co_rank", t, m, n, q), got;
            FILE *f = tmpfile();
            for (int copy = 0; copy < 2; copy++) {
                int wrc = kit_req_write(f, &h, m ? A0 : NULL, n ? B0 : NULL, q ? Q0 : NULL);
                KIT_ASSERT_MSG(wrc == 0, "kit_req_write, copy %d: expected 0, got %d", copy, wrc);
            }
            rewind(f);
            for (int round = 0; round < 2; round++) { /* two requests back to back: each read takes exactly one */
                void *A, *B;
                int64_t *Q;
                char err[128] = "";
                int rc = kit_req_read(f, &got, &A, &B, &Q, err, sizeof err);
                KIT_ASSERT_MSG(rc == 0, "%s m=%llu n=%llu q=%llu round %d: expected 0, got %d (%s)", kit_type_name(t),
                               (unsigned long long)m, (unsigned long long)n, (unsigned long long)q, round, rc, err);
                if (rc != 0)
                    break;
                KIT_ASSERT_MSG(strcmp(got.op, "co_rank") == 0 && got.type == (uint32_t)t && got.flags == 0xA5A5u &&
                                   got.m == m && got.n == n && got.q == q,
                               "%s header: expected co_rank %d 0xa5a5 %llu %llu %llu, got %s %u 0x%x %llu %llu %llu",
                               kit_type_name(t), (int)t, (unsigned long long)m, (unsigned long long)n,
                               (unsigned long long)q, got.op, got.type, got.flags, (unsigned long long)got.m,
                               (unsigned long long)got.n, (unsigned long long)got.q);
                KIT_ASSERT_MSG((m == 0) == (A == NULL) && (n == 0) == (B == NULL) && (q == 0) == (Q == NULL),
                               "%s: empty arrays should come back NULL and others not", kit_type_name(t));
                KIT_ASSERT_MSG((!A || memcmp(A, A0, m * size) == 0) && (!B || memcmp(B, B0, n * size) == 0) &&
                                   (!Q || memcmp(Q, Q0, q * 8) == 0),
                               "%s m=%llu n=%llu q=%llu: arrays changed on the way", kit_type_name(t),
                               (unsigned long long)m, (unsigned long long)n, (unsigned long long)q);
                free(A);
                free(B);
                free(Q);
            }
            KIT_ASSERT_MSG(fgetc(f) == EOF, "%s: bytes left over after reading both requests", kit_type_name(t));
            fclose(f);
        }
    }
}

static void test_req_write_refuses(void)
{
    kit_req h = make_req("merge", (kit_type)7, 0, 0, 0);
    FILE *f = tmpfile();
    int rc = kit_req_write(f, &h, NULL, NULL, NULL);
    KIT_ASSERT_MSG(rc == -1, "unknown type 7: expected -1, got %d", rc);
    fclose(f);
    FILE *ro = fopen("/dev/null", "r"); /* a stream that cannot be written */
    h = make_req("merge", KIT_TYPE_I32, 0, 0, 0);
    rc = kit_req_write(ro, &h, NULL, NULL, NULL);
    KIT_ASSERT_MSG(rc == -1, "read-only stream: expected -1, got %d", rc);
    fclose(ro);
}

/* Feeds n bytes to kit_req_read and expects a refusal whose message contains `reason`. */
static void expect_req_refused(const unsigned char *bytes, size_t n, const char *what, const char *reason)
{
    FILE *f = file_of(bytes, n);
    kit_req got;
    void *A = (void *)&got, *B = (void *)&got; /* not NULL, so the test sees that a refusal clears them */
    int64_t *Q = (int64_t *)&got.m;
    char err[128] = "";
    int rc = kit_req_read(f, &got, &A, &B, &Q, err, sizeof err);
    KIT_ASSERT_MSG(rc == -1, "%s: expected -1, got %d", what, rc);
    KIT_ASSERT_MSG(strstr(err, reason) != NULL, "%s: message should mention \"%s\", got \"%s\"", what, reason, err);
    KIT_ASSERT_MSG(A == NULL && B == NULL && Q == NULL, "%s: arrays should be NULL after a refusal", what);
    if (rc == 0) {
        free(A);
        free(B);
        free(Q);
    }
    fclose(f);
}

static void test_req_read_refuses(void)
{
    const int32_t A[4] = {1, 2, 3, 4}, B[2] = {5, 6};
    const int64_t Q[1] = {3};
    kit_req h = make_req("merge", KIT_TYPE_I32, 4, 2, 1);
    size_t len;
    unsigned char *good = req_bytes(&h, A, B, Q, &len);
    /* What precedes the header (the magic): the file minus the header and the arrays. */
    const size_t hdr = len - sizeof A - sizeof B - sizeof Q - sizeof h;
    unsigned char *bytes = (unsigned char *)kit_xmalloc(len);

    expect_req_refused(good, 0, "empty input", "header");
    expect_req_refused(good, hdr - 1, "truncated magic", "header");
    expect_req_refused(good, hdr + sizeof h - 1, "truncated header", "header");
    expect_req_refused(good, hdr + sizeof h + 6, "A cut in its second element", "truncated");
    expect_req_refused(good, len - 1, "the query cut short", "truncated");

    memcpy(bytes, good, len);
    bytes[0] ^= 0xFF;
    expect_req_refused(bytes, len, "bad magic", "header");

    /* Counts over KIT_PROTO_MAX_ELEMS: refused for their size, not found truncated after an attempt to read them. */
    static const struct {
        size_t offset;
        uint64_t value;
        const char *what;
    } big[] = {{offsetof(kit_req, m), KIT_PROTO_MAX_ELEMS + 1, "m over the limit"},
               {offsetof(kit_req, n), KIT_PROTO_MAX_ELEMS + 1, "n over the limit"},
               {offsetof(kit_req, q), UINT64_MAX, "q = 2^64 - 1"}};
    for (size_t i = 0; i < ARRAY_LEN(big); i++) {
        memcpy(bytes, good, len);
        memcpy(bytes + hdr + big[i].offset, &big[i].value, sizeof big[i].value);
        expect_req_refused(bytes, len, big[i].what, "over");
    }
    uint32_t type = 9;
    memcpy(bytes, good, len);
    memcpy(bytes + hdr + offsetof(kit_req, type), &type, sizeof type);
    expect_req_refused(bytes, len, "unknown type 9", "type");

    /* An op that fills its field without a NUL comes back terminated. */
    memcpy(bytes, good, len);
    memset(bytes + hdr + offsetof(kit_req, op), 'x', sizeof h.op);
    FILE *f = file_of(bytes, len);
    kit_req got;
    void *ga, *gb;
    int64_t *gq;
    char err[128] = "";
    int rc = kit_req_read(f, &got, &ga, &gb, &gq, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && strlen(got.op) == sizeof got.op - 1,
                   "unterminated op: expected 0 and %zu characters, got %d and %zu (%s)", sizeof got.op - 1, rc,
                   rc == 0 ? strlen(got.op) : (size_t)0, err);
    if (rc == 0) {
        free(ga);
        free(gb);
        free(gq);
    }
    fclose(f);
    free(bytes);
    free(good);
}

static void test_res_round_trip(void)
{
    for (size_t ti = 0; ti < ARRAY_LEN(all_types); ti++) {
        kit_type t = all_types[ti];
        size_t size = kit_type_size(t);
        int64_t C0[4], A0[3], B0[2], R0[3] = {5, -6, 1LL << 50};
        kit_gen_array(t, C0, 4, KIT_GEN_RANDOM, 3);
        kit_gen_array(t, A0, 3, KIT_GEN_RANDOM, 4);
        kit_gen_array(t, B0, 2, KIT_GEN_RANDOM, 5);
        kit_res h = make_res(KIT_RES_OK, t, 4, 3, 2, 3, ""), got;
        size_t len;
        unsigned char *bytes = res_bytes(&h, C0, A0, B0, R0, &len);
        FILE *f = file_of(bytes, len);
        void *C, *A, *B;
        int64_t *R;
        char err[128] = "";
        int rc = kit_res_read(f, &h, &got, &C, &A, &B, &R, err, sizeof err);
        KIT_ASSERT_MSG(rc == 0, "%s reply: expected 0, got %d (%s)", kit_type_name(t), rc, err);
        if (rc == 0) {
            KIT_ASSERT_MSG(got.status == KIT_RES_OK && got.type == (uint32_t)t && got.c == 4 && got.m == 3 &&
                               got.n == 2 && got.r == 3,
                           "%s reply header: expected OK %d 4 3 2 3, got %u %u %llu %llu %llu %llu", kit_type_name(t),
                           (int)t, got.status, got.type, (unsigned long long)got.c, (unsigned long long)got.m,
                           (unsigned long long)got.n, (unsigned long long)got.r);
            KIT_ASSERT_MSG(memcmp(C, C0, 4 * size) == 0 && memcmp(A, A0, 3 * size) == 0 &&
                               memcmp(B, B0, 2 * size) == 0 && memcmp(R, R0, sizeof R0) == 0,
                           "%s reply: arrays changed on the way", kit_type_name(t));
        }
        free(C);
        free(A);
        free(B);
        free(R);
        fclose(f);
        free(bytes);
    }
    /* No arrays at all. */
    kit_res h = make_res(KIT_RES_OK, KIT_TYPE_I64, 0, 0, 0, 0, ""), got;
    size_t len;
    unsigned char *bytes = res_bytes(&h, NULL, NULL, NULL, NULL, &len);
    FILE *f = file_of(bytes, len);
    void *C, *A, *B;
    int64_t *R;
    char err[128] = "";
    int rc = kit_res_read(f, &h, &got, &C, &A, &B, &R, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && !C && !A && !B && !R, "empty reply: expected 0 and NULL arrays, got %d (%s)", rc, err);
    fclose(f);
    free(bytes);
}

static void test_res_write_refuses(void)
{
    kit_res h = make_res(KIT_RES_OK, KIT_TYPE_I32, 0, 0, 0, 0, "");
    FILE *ro = fopen("/dev/null", "r");
    int rc = kit_res_write(ro, &h, NULL, NULL, NULL, NULL);
    KIT_ASSERT_MSG(rc == -1, "read-only stream: expected -1, got %d", rc);
    fclose(ro);
}

/* Reads `bytes` as a reply expecting `want`; returns kit_res_read's result, *got and the message. */
static int read_reply(const unsigned char *bytes, size_t len, const kit_res *want, kit_res *got, char *err,
                      size_t errlen, int *arrays_null)
{
    FILE *f = file_of(bytes, len);
    void *C, *A, *B;
    int64_t *R;
    err[0] = '\0';
    memset(got, 0, sizeof *got);
    int rc = kit_res_read(f, want, got, &C, &A, &B, &R, err, errlen);
    *arrays_null = !C && !A && !B && !R;
    free(C);
    free(A);
    free(B);
    free(R);
    fclose(f);
    return rc;
}

static void test_res_read_shape(void)
{
    const int32_t C0[4] = {1, 2, 3, 4}, A0[3] = {1, 3, 4}, B0[1] = {2};
    const int64_t R0[2] = {0, 1};
    kit_res h = make_res(KIT_RES_OK, KIT_TYPE_I32, 4, 3, 1, 2, ""), got;
    size_t len;
    unsigned char *bytes = res_bytes(&h, C0, A0, B0, R0, &len);
    char err[128];
    int null;
    static const struct {
        const char *what;
        int field; /* 0 type, 1 c, 2 m, 3 n, 4 r */
    } off[] = {{"type", 0}, {"c", 1}, {"m", 2}, {"n", 3}, {"r", 4}};
    for (size_t i = 0; i < ARRAY_LEN(off); i++) {
        kit_res want = h;
        switch (off[i].field) {
        case 0: want.type = KIT_TYPE_I64; break;
        case 1: want.c = 5; break;
        case 2: want.m = 2; break;
        case 3: want.n = 0; break;
        default: want.r = 3; break;
        }
        int rc = read_reply(bytes, len, &want, &got, err, sizeof err, &null);
        KIT_ASSERT_MSG(rc == -1 && null, "want differs in %s: expected -1 and no arrays, got %d", off[i].what, rc);
        KIT_ASSERT_MSG(strstr(err, "shape") != NULL, "want differs in %s: message should say wrong shape, got \"%s\"",
                       off[i].what, err);
    }
    /* Truncated arrays and a damaged magic. */
    int rc = read_reply(bytes, len - 1, &h, &got, err, sizeof err, &null);
    KIT_ASSERT_MSG(rc == -1 && null && strstr(err, "truncated"),
                   "truncated reply: expected -1 and \"truncated\", got %d \"%s\"", rc, err);
    bytes[0] ^= 0xFF;
    rc = read_reply(bytes, len, &h, &got, err, sizeof err, &null);
    KIT_ASSERT_MSG(rc == -1 && null && err[0], "bad magic: expected -1 and a message, got %d \"%s\"", rc, err);
    rc = read_reply(bytes, 0, &h, &got, err, sizeof err, &null);
    KIT_ASSERT_MSG(rc == -1 && null && err[0], "empty reply file: expected -1 and a message, got %d \"%s\"", rc, err);
    free(bytes);
}

static void test_res_read_status(void)
{
    kit_res want = make_res(KIT_RES_OK, KIT_TYPE_I32, 9, 5, 4, 0, ""), got;
    char err[128];
    int null;
    size_t len;
    static const struct {
        uint32_t status;
        const char *note;
    } ok[] = {{KIT_RES_NOT_IMPLEMENTED, "01-sequential-merge:merge"}, {KIT_RES_ERROR, "op 'sort' is not supported"},
              {KIT_RES_FAILED, "the launch of 1 blocks of 32 threads (tile 4) failed"}};
    for (size_t i = 0; i < ARRAY_LEN(ok); i++) {
        kit_res h = make_res(ok[i].status, KIT_TYPE_I32, 0, 0, 0, 0, ok[i].note);
        unsigned char *bytes = res_bytes(&h, NULL, NULL, NULL, NULL, &len);
        int rc = read_reply(bytes, len, &want, &got, err, sizeof err, &null);
        KIT_ASSERT_MSG(rc == 0 && null, "status %u without arrays: expected 0 and no arrays, got %d (%s)", ok[i].status,
                       rc, err);
        KIT_ASSERT_MSG(got.status == ok[i].status && strcmp(got.note, ok[i].note) == 0,
                       "status %u: expected note \"%s\", got status %u note \"%s\"", ok[i].status, ok[i].note,
                       got.status, got.note);
        free(bytes);
    }
    kit_res h = make_res(4, KIT_TYPE_I32, 0, 0, 0, 0, "");
    unsigned char *bytes = res_bytes(&h, NULL, NULL, NULL, NULL, &len);
    int rc = read_reply(bytes, len, &want, &got, err, sizeof err, &null);
    KIT_ASSERT_MSG(rc == -1 && strstr(err, "status"),
                   "unknown status 4: expected -1 and a message on the status, got %d \"%s\"", rc, err);
    free(bytes);

    /* A note that fills its field without a NUL comes back terminated. */
    h = make_res(KIT_RES_ERROR, KIT_TYPE_I32, 0, 0, 0, 0, "");
    memset(h.note, 'x', sizeof h.note);
    bytes = res_bytes(&h, NULL, NULL, NULL, NULL, &len);
    rc = read_reply(bytes, len, &want, &got, err, sizeof err, &null);
    KIT_ASSERT_MSG(rc == 0 && strlen(got.note) == sizeof got.note - 1,
                   "unterminated note: expected 0 and %zu characters, got %d and %zu", sizeof got.note - 1, rc,
                   rc == 0 ? strlen(got.note) : (size_t)0);
    free(bytes);
}

/*
 * kit_proto.h: a reply must announce "no arrays at all (other statuses);
 * anything else is refused before any array is read". An ERROR or
 * NOT_IMPLEMENTED reply that announces arrays must therefore be refused.
 */
static void test_res_read_status_with_arrays(void)
{
    const int32_t C0[2] = {1, 2};
    kit_res want = make_res(KIT_RES_OK, KIT_TYPE_I32, 2, 0, 0, 0, ""), got;
    char err[128];
    int null;
    size_t len;
    static const uint32_t statuses[] = {KIT_RES_NOT_IMPLEMENTED, KIT_RES_ERROR, KIT_RES_FAILED};
    for (size_t i = 0; i < ARRAY_LEN(statuses); i++) {
        kit_res h = make_res(statuses[i], KIT_TYPE_I32, 2, 0, 0, 0, "with arrays");
        unsigned char *bytes = res_bytes(&h, C0, NULL, NULL, NULL, &len);
        int rc = read_reply(bytes, len, &want, &got, err, sizeof err, &null);
        KIT_ASSERT_MSG(rc == -1, "status %u announcing c=2: expected -1 (refused), got %d", statuses[i], rc);
        free(bytes);
    }
}

/* ---- kit_request.h --------------------------------------------------------------- */

/* One request of each op, and of each shape an op has, with every field it uses set. */
static int64_t sample_ranks[4] = {0, 3, 9, 17};
static kit_worst_thread sample_threads[3] = {{0, 6, 2, 1}, {2, 7, 1, 2}, {3, 9, 3, 0}};

static kit_request sample_request(int which)
{
    kit_request r;
    memset(&r, 0, sizeof r);
    r.type = KIT_TYPE_I32;
    switch (which) {
    case 0: r.op = KIT_OP_MERGE, r.m = 5, r.n = 4; break;                                     /* lab 1: no launch */
    case 1: r.op = KIT_OP_MERGE, r.m = 9, r.n = 9, r.guard = 1, r.blocks = 3, r.u = 96; break; /* lab 3 */
    case 2: r.op = KIT_OP_MERGE, r.m = 9, r.guard = 1, r.blocks = 2, r.u = 64, r.tile = 100, r.measure = 1; break;
    case 3: r.op = KIT_OP_MERGE, r.type = KIT_TYPE_KV32, r.blocks = 5, r.u = 64, r.E = 24; break; /* lab 7 */
    case 4: r.op = KIT_OP_CO_RANK, r.m = 10, r.n = 7, r.nranks = 4, r.ranks = sample_ranks; break;
    case 5: r.op = KIT_OP_PBS, r.type = KIT_TYPE_I64, r.m = 1, r.n = 50, r.guard = 1, r.alg = 2, r.blocks = 2, r.u = 64,
            r.measure = 1; break;
    case 6: r.op = KIT_OP_SORT, r.m = 1001, r.guard = 1, r.alg = 1, r.u = 512, r.E = 15, r.measure = 1; break;
    case 7: r.op = KIT_OP_WORST, r.w = 32, r.E = 17, r.part = 1; break;
    case 8: r.op = KIT_OP_WORST, r.w = 3, r.E = 3, r.part = 2, r.threads = sample_threads; break;
    default: r.op = KIT_OP_WORST, r.w = 32, r.E = 17, r.part = 3, r.measure = 1; break;
    }
    return r;
}
#define SAMPLE_REQUESTS 10

/* Encodes r and decodes it as op want; returns the decoder's result, its message in err. */
static int request_trip(const kit_request *r, kit_op want, kit_request *out, char *err, size_t len)
{
    kit_req h;
    int64_t *Q = kit_request_encode(r, &h);
    KIT_ASSERT_MSG(Q != NULL, "kit_request_encode ran out of memory");
    err[0] = '\0';
    int rc = Q ? kit_request_decode(&h, Q, want, out, err, len) : -1;
    free(Q);
    return rc;
}

/* Whether two requests hold the same fields and arrays. */
static int same_request(const kit_request *a, const kit_request *b)
{
    int same = a->op == b->op && a->type == b->type && a->m == b->m && a->n == b->n && a->guard == b->guard &&
               a->measure == b->measure && a->blocks == b->blocks && a->u == b->u && a->w == b->w && a->E == b->E &&
               a->tile == b->tile && a->alg == b->alg && a->part == b->part && a->nranks == b->nranks &&
               (a->threads == NULL) == (b->threads == NULL);
    for (uint64_t x = 0; same && x < a->nranks; x++)
        same = a->ranks[x] == b->ranks[x];
    for (int i = 0; same && a->threads && i < a->w; i++)
        same = memcmp(&a->threads[i], &b->threads[i], sizeof a->threads[i]) == 0;
    return same;
}

static void test_op_names(void)
{
    static const char *const names[] = {"merge", "co_rank", "pbs", "sort", "worst"};
    for (int o = 0; o < KIT_OP_COUNT; o++) {
        kit_op op = KIT_OP_COUNT;
        KIT_ASSERT_MSG(strcmp(kit_op_name((kit_op)o), names[o]) == 0 && kit_op_parse(names[o], &op) == 0 && (int)op == o,
                       "op %d: name '%s', parsed back as %d", o, kit_op_name((kit_op)o), (int)op);
    }
    kit_op op = KIT_OP_SORT;
    KIT_ASSERT_MSG(kit_op_parse("shuffle", &op) == -1 && op == KIT_OP_SORT, "an unknown op name was accepted");
    KIT_ASSERT_MSG(strcmp(kit_op_name(KIT_OP_COUNT), "?") == 0, "an op out of range is named '%s'",
                   kit_op_name(KIT_OP_COUNT));
}

/* Every op's request comes back field for field, through the words and through a request file. */
static void test_request_round_trip(void)
{
    for (int s = 0; s < SAMPLE_REQUESTS; s++) {
        kit_request r = sample_request(s), back;
        char err[160];
        int rc = request_trip(&r, r.op, &back, err, sizeof err);
        KIT_ASSERT_MSG(rc == 0 && same_request(&r, &back), "sample %d (%s): decoded %d (%s), or not the same fields", s,
                       kit_op_name(r.op), rc, err);
        if (rc == 0)
            kit_request_free(&back);
        KIT_ASSERT_MSG(back.ranks == NULL && back.threads == NULL, "kit_request_free left its arrays set");
        static const int64_t A[1001], B[50]; /* room for every sample's inputs */
        FILE *f = tmpfile();
        kit_req h;
        void *rA, *rB;
        int64_t *Q;
        rc = kit_request_write(f, &r, A, B);
        rewind(f);
        rc |= kit_req_read(f, &h, &rA, &rB, &Q, err, sizeof err);
        rc |= rc == 0 ? kit_request_decode(&h, Q, r.op, &back, err, sizeof err) : 0;
        KIT_ASSERT_MSG(rc == 0 && same_request(&r, &back), "sample %d through a file: %s", s, err);
        if (rc == 0) {
            kit_request_free(&back);
            free(rA), free(rB), free(Q);
        }
        fclose(f);
    }
}

/* Decodes r (made bad by the caller) and checks the one-line refusal names what is wrong. */
static void expect_refused(const kit_request *r, kit_op want, const char *words)
{
    kit_request back;
    char err[160];
    int rc = request_trip(r, want, &back, err, sizeof err);
    if (rc == 0)
        kit_request_free(&back);
    KIT_ASSERT_MSG(rc == -1 && strstr(err, words) && !strchr(err, '\n'),
                   "a bad %s request: expected a refusal with \"%s\", got %d \"%s\"", kit_op_name(r->op), words, rc, err);
}

/* Each launch field, set just outside its op's range (or set where the op does not use it), is refused by name. */
static void test_request_bad_fields(void)
{
    static const char *const names[] = {"measure", "blocks", "u", "w", "E", "tile", "alg", "part"};
    for (int s = 0; s < SAMPLE_REQUESTS; s++) {
        kit_request r = sample_request(s);
        for (int f = 0; f < 8; f++) {
            if (s == 8 && f == 3)
                continue; /* w sizes part=order's threads: the encoder trusts it */
            kit_request bad = r;
            int *field[] = {&bad.measure, &bad.blocks, &bad.u, &bad.w, &bad.E, &bad.tile, &bad.alg, &bad.part};
            char words[64];
            *field[f] = -1; /* below every range */
            snprintf(words, sizeof words, "bad %s request: %s = -1", kit_op_name(r.op), names[f]);
            expect_refused(&bad, r.op, words);
            *field[f] = f == 1 || f >= 4 ? 2000000000 : 1025; /* above every range but blocks', E's and tile's */
            snprintf(words, sizeof words, "bad %s request: %s = %d", kit_op_name(r.op), names[f], *field[f]);
            if (!(r.op == KIT_OP_MERGE && (f == 1 || f == 4 || f == 5)) && !(r.op == KIT_OP_PBS && f == 1))
                expect_refused(&bad, r.op, words);
        }
    }
}

/* The rules between fields, the op, the word count and the op's array, each refused with its line. */
static void test_request_bad_rules(void)
{
    kit_request r = sample_request(1);
    r.u = 0;
    expect_refused(&r, KIT_OP_MERGE, "blocks = 3 and u = 0 go together");
    r = sample_request(0), r.E = 15;
    expect_refused(&r, KIT_OP_MERGE, "need the launch");
    r = sample_request(2), r.E = 15;
    expect_refused(&r, KIT_OP_MERGE, "tile = 100 (labs 4, 5) or E = 15 (lab 7), not both");
    r = sample_request(5), r.u = 48;
    expect_refused(&r, KIT_OP_PBS, "u = 48, not a multiple of 32");
    r = sample_request(5), r.m = 0;
    expect_refused(&r, KIT_OP_PBS, "m = 0 keys");
    r = sample_request(6), r.n = 3;
    expect_refused(&r, KIT_OP_SORT, "n = 3, it sorts A alone");
    r = sample_request(7), r.E = 33;
    expect_refused(&r, KIT_OP_WORST, "E = 33 is over w = 32");
    r = sample_request(7), r.m = 1;
    expect_refused(&r, KIT_OP_WORST, "it takes no A or B");
    r = sample_request(0), r.m = 1u << 30, r.n = 1u << 30;
    expect_refused(&r, KIT_OP_MERGE, "m + n = 2147483648 is over 2^31 - 1");
    r = sample_request(1);
    expect_refused(&r, KIT_OP_SORT, "this runner serves 'sort', not 'merge'");
    int64_t ranks[2] = {3, 18};
    r = sample_request(4), r.ranks = ranks, r.nranks = 2;
    expect_refused(&r, KIT_OP_CO_RANK, "rank 18 is outside 0 .. 17");
    kit_worst_thread threads[3] = {{0, 6, 2, 1}, {2, -7, 1, 2}, {3, 9, 3, 0}};
    r = sample_request(8), r.threads = threads;
    expect_refused(&r, KIT_OP_WORST, "thread 1's inputs hold -7");
    /* the header's op and word count, which no request struct can get wrong */
    kit_req h;
    kit_request back;
    char err[160];
    r = sample_request(8);
    int64_t *Q = kit_request_encode(&r, &h);
    h.q -= 4;
    KIT_ASSERT_MSG(kit_request_decode(&h, Q, KIT_OP_WORST, &back, err, sizeof err) == -1 && strstr(err, "words, not 20"),
                   "worst part=order one thread short: %s", err);
    h.q = 7;
    KIT_ASSERT_MSG(kit_request_decode(&h, Q, KIT_OP_WORST, &back, err, sizeof err) == -1 &&
                       strstr(err, "7 words, fewer than the launch's 8"), "a short launch: %s", err);
    snprintf(h.op, sizeof h.op, "shuffle");
    KIT_ASSERT_MSG(kit_request_decode(&h, Q, KIT_OP_WORST, &back, err, sizeof err) == -1 &&
                       strstr(err, "serves 'worst', not 'shuffle'"), "an unknown op: %s", err);
    free(Q);
}

/* ---- kit_driver.h ---------------------------------------------------------------- */

static int handler_calls;

/* Merges A and B with the reference; returns C, plus R[i] = 2 * Q[i] + flags. */
static int serve_merge(const kit_req *req, void *A, void *B, const int64_t *Q, kit_serve_out *out)
{
    handler_calls++;
    kit_type t = (kit_type)req->type;
    out->c = req->m + req->n;
    out->C = kit_xmalloc((size_t)out->c * kit_type_size(t));
    kit_merge_ref(t, A, (size_t)req->m, B, (size_t)req->n, out->C);
    out->r = req->q;
    out->R = (int64_t *)kit_xmalloc((size_t)req->q * sizeof(int64_t));
    for (uint64_t i = 0; i < req->q; i++)
        out->R[i] = 2 * Q[i] + req->flags;
    return 0;
}

/* Buggy student code: overwrites A[0] and returns nothing else. */
static int serve_scribble(const kit_req *req, void *A, void *B, const int64_t *Q, kit_serve_out *out)
{
    (void)B, (void)Q, (void)out;
    handler_calls++;
    if (req->m > 0)
        ((int32_t *)A)[0] = 99;
    return 0;
}

/* A skeleton: reaches kit_not_implemented and returns garbage that must be ignored. */
static int serve_skeleton(const kit_req *req, void *A, void *B, const int64_t *Q, kit_serve_out *out)
{
    (void)req, (void)A, (void)B, (void)Q;
    handler_calls++;
    kit_not_implemented("01-test:merge");
    out->C = kit_xmalloc(4);
    out->c = 1;
    return 0;
}

static int serve_refuse(const kit_req *req, void *A, void *B, const int64_t *Q, kit_serve_out *out)
{
    (void)A, (void)B, (void)Q;
    handler_calls++;
    snprintf(out->error, sizeof out->error, "op '%s' is not supported", req->op);
    return -1;
}

/* A handler whose (pretend) kernel failed at run time. */
static int serve_fail(const kit_req *req, void *A, void *B, const int64_t *Q, kit_serve_out *out)
{
    (void)req, (void)A, (void)B, (void)Q;
    handler_calls++;
    snprintf(out->error, sizeof out->error, "the launch failed: deadlock");
    return -2;
}

/* A handler that calls kit_serve itself, as lab code borrowing the reply writer would. */
static int serve_nested(const kit_req *req, void *A, void *B, const int64_t *Q, kit_serve_out *out)
{
    (void)req, (void)A, (void)B, (void)Q, (void)out;
    return kit_serve(stdin, stdout, serve_merge);
}

/* kit_serve refuses a call made while it runs: the process ends with status 1 and a message. */
static void test_serve_nested(void)
{
    const int32_t A0[1] = {1}, B0[1] = {2};
    kit_req req = make_req("merge", KIT_TYPE_I32, 1, 1, 0);
    size_t len;
    unsigned char *bytes = req_bytes(&req, A0, B0, NULL, &len);
    pid_t pid = fork();
    if (pid == 0) {
        FILE *in = file_of(bytes, len), *out = tmpfile();
        if (!freopen("/dev/null", "w", stderr))
            _exit(3);
        kit_serve(in, out, serve_nested);
        _exit(0); /* not reached when the nested call is refused */
    }
    int status = 0;
    KIT_ASSERT_MSG(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 1,
                   "a kit_serve inside kit_serve: expected exit 1, got status %#x", status);
    free(bytes);
}

/*
 * Sends one request through kit_serve and reads the reply back.
 * Returns kit_serve's status; the reply's arrays go to *C, *A, *B, *R (caller frees).
 */
static int serve_once(const unsigned char *in_bytes, size_t in_len, kit_serve_fn fn, const kit_res *want, kit_res *got,
                      void **C, void **A, void **B, int64_t **R, int *read_rc)
{
    FILE *in = file_of(in_bytes, in_len), *out = tmpfile();
    memset(got, 0, sizeof *got);
    *C = *A = *B = NULL;
    *R = NULL;
    capture err;
    capture_begin(&err, 2); /* skeletons print "not implemented" */
    int rc = kit_serve(in, out, fn);
    free(capture_end(&err));
    rewind(out);
    char msg[128] = "";
    *read_rc = kit_res_read(out, want, got, C, A, B, R, msg, sizeof msg);
    KIT_ASSERT_MSG(*read_rc == 0, "the reply could not be read: %s", msg);
    fclose(in);
    fclose(out);
    return rc;
}

static void test_serve_ok(void)
{
    const int32_t A0[5] = {1, 7, 8, 9, 10}, B0[4] = {7, 10, 10, 12}, want_C[9] = {1, 7, 7, 8, 9, 10, 10, 10, 12};
    const int64_t Q0[2] = {3, -4};
    kit_req req = make_req("merge", KIT_TYPE_I32, 5, 4, 2);
    req.flags = 1;
    size_t len;
    unsigned char *bytes = req_bytes(&req, A0, B0, Q0, &len);
    kit_res want = make_res(KIT_RES_OK, KIT_TYPE_I32, 9, 5, 4, 2, ""), got;
    void *C = NULL, *A = NULL, *B = NULL;
    int64_t *R = NULL;
    int read_rc;
    handler_calls = 0;
    capture err;
    capture_begin(&err, 2);
    kit_not_implemented("stale:task"); /* left over from earlier work: kit_serve must reset it */
    free(capture_end(&err));
    int rc = serve_once(bytes, len, serve_merge, &want, &got, &C, &A, &B, &R, &read_rc);
    KIT_ASSERT_MSG(rc == 0 && handler_calls == 1, "expected status 0 and one handler call, got %d and %d", rc,
                   handler_calls);
    if (read_rc == 0) {
        char msg[128];
        KIT_ASSERT_MSG(got.status == KIT_RES_OK, "expected status OK, got %u (note \"%s\")", got.status, got.note);
        KIT_ASSERT_MSG(C && kit_verify(KIT_TYPE_I32, want_C, C, 9, msg, sizeof msg) < 0, "C: %s", C ? msg : "missing");
        KIT_ASSERT_MSG(A && B && memcmp(A, A0, sizeof A0) == 0 && memcmp(B, B0, sizeof B0) == 0,
                       "A and B should be echoed unchanged");
        KIT_ASSERT_MSG(R && R[0] == 7 && R[1] == -7, "R: expected 7 -7, got %lld %lld", R ? (long long)R[0] : 0LL,
                       R ? (long long)R[1] : 0LL);
    }
    free(C);
    free(A);
    free(B);
    free(R);

    /* A handler that changes A: the reply shows A as the handler left it. */
    C = A = B = NULL;
    R = NULL;
    want = make_res(KIT_RES_OK, KIT_TYPE_I32, 0, 5, 4, 0, "");
    rc = serve_once(bytes, len, serve_scribble, &want, &got, &C, &A, &B, &R, &read_rc);
    if (read_rc == 0)
        KIT_ASSERT_MSG(rc == 0 && A && ((int32_t *)A)[0] == 99 && ((int32_t *)A)[1] == 7,
                       "scribbled A: expected A echoed as 99 7 ..., got %d", A ? ((int32_t *)A)[0] : -1);
    free(C);
    free(A);
    free(B);
    free(R);
    free(bytes);
    kit_not_implemented_reset();
}

static void test_serve_not_implemented_and_error(void)
{
    const int32_t A0[2] = {1, 2}, B0[1] = {3};
    kit_req req = make_req("merge", KIT_TYPE_I32, 2, 1, 0);
    size_t len;
    unsigned char *bytes = req_bytes(&req, A0, B0, NULL, &len);
    kit_res want = make_res(KIT_RES_OK, KIT_TYPE_I32, 3, 2, 1, 0, ""), got;
    void *C, *A, *B;
    int64_t *R;
    int read_rc;

    int rc = serve_once(bytes, len, serve_skeleton, &want, &got, &C, &A, &B, &R, &read_rc);
    KIT_ASSERT_MSG(rc == 0 && read_rc == 0 && got.status == KIT_RES_NOT_IMPLEMENTED &&
                       strcmp(got.note, "01-test:merge") == 0,
                   "skeleton: expected NOT_IMPLEMENTED with note \"01-test:merge\", got status %u note \"%s\"",
                   got.status, got.note);
    KIT_ASSERT_MSG(got.c == 0 && got.m == 0 && got.n == 0 && got.r == 0 && !C && !A && !B && !R,
                   "skeleton: the reply should carry no arrays, got c=%llu m=%llu", (unsigned long long)got.c,
                   (unsigned long long)got.m);

    free(C);
    free(A);
    free(B);
    free(R);
    rc = serve_once(bytes, len, serve_refuse, &want, &got, &C, &A, &B, &R, &read_rc);
    KIT_ASSERT_MSG(
        rc == 0 && read_rc == 0 && got.status == KIT_RES_ERROR && strcmp(got.note, "op 'merge' is not supported") == 0,
        "refusing handler: expected ERROR with note \"op 'merge' is not supported\", got status %u note \"%s\"",
        got.status, got.note);
    free(C);
    free(A);
    free(B);
    free(R);
    rc = serve_once(bytes, len, serve_fail, &want, &got, &C, &A, &B, &R, &read_rc);
    KIT_ASSERT_MSG(rc == 0 && read_rc == 0 && got.status == KIT_RES_FAILED &&
                       strcmp(got.note, "the launch failed: deadlock") == 0 && !C && !A && !B && !R,
                   "failing handler: expected FAILED with its note and no arrays, got status %u note \"%s\"",
                   got.status, got.note);
    free(C);
    free(A);
    free(B);
    free(R);
    free(bytes);
    kit_not_implemented_reset();
}

static void test_serve_garbage(void)
{
    static const char garbage[] = "hello, grader";
    kit_res want = make_res(KIT_RES_OK, KIT_TYPE_I32, 0, 0, 0, 0, ""), got;
    void *C, *A, *B;
    int64_t *R;
    int read_rc;
    handler_calls = 0;
    int rc = serve_once((const unsigned char *)garbage, sizeof garbage - 1, serve_merge, &want, &got, &C, &A, &B, &R,
                        &read_rc);
    KIT_ASSERT_MSG(rc == 0 && read_rc == 0 && got.status == KIT_RES_ERROR && got.note[0] != '\0',
                   "garbage: expected status 0 and an ERROR reply with a note, got %d, status %u, note \"%s\"", rc,
                   got.status, got.note);
    KIT_ASSERT_MSG(handler_calls == 0, "garbage: the handler should not run, ran %d times", handler_calls);
    free(C);
    free(A);
    free(B);
    free(R);

    /* No way to write the reply: exit status 1. */
    const int32_t A0[1] = {1};
    kit_req req = make_req("merge", KIT_TYPE_I32, 1, 0, 0);
    size_t len;
    unsigned char *bytes = req_bytes(&req, A0, NULL, NULL, &len);
    FILE *in = file_of(bytes, len), *ro = fopen("/dev/null", "r");
    capture err;
    capture_begin(&err, 2);
    rc = kit_serve(in, ro, serve_merge);
    free(capture_end(&err));
    KIT_ASSERT_MSG(rc == 1, "unwritable reply: expected 1, got %d", rc);
    fclose(in);
    fclose(ro);
    free(bytes);
}

/* A command-line run for test_driver_main: records what it was given. */
static long long driver_main_m = -1;
static const char *driver_main_prog;
static int driver_main_run(const kit_args *a, const char *prog)
{
    driver_main_m = a->m;
    driver_main_prog = prog;
    return 7;
}

/* kit_driver_main: the command-line run gets the parsed options and gives the exit status; --help and bad options never reach it. */
static void test_driver_main(void)
{
    char *argv_ok[] = {(char *)"prog", (char *)"--m", (char *)"3", NULL};
    char *argv_help[] = {(char *)"prog", (char *)"--help", NULL};
    char *argv_bad[] = {(char *)"prog", (char *)"--gen", (char *)"zigzag", NULL};
    int rc = kit_driver_main(3, argv_ok, "does things", serve_merge, driver_main_run);
    KIT_ASSERT_MSG(rc == 7 && driver_main_m == 3 && driver_main_prog && strcmp(driver_main_prog, "prog") == 0,
                   "--m 3: expected the run's 7 with m 3 and prog, got %d (m=%lld)", rc, driver_main_m);
    driver_main_m = -1;
    capture out;
    capture_begin(&out, 1);
    rc = kit_driver_main(2, argv_help, "does things", serve_merge, driver_main_run);
    free(capture_end(&out));
    KIT_ASSERT_MSG(rc == 0 && driver_main_m == -1, "--help: expected 0 without a run, got %d (m=%lld)", rc, driver_main_m);
    capture err;
    capture_begin(&err, 2);
    rc = kit_driver_main(3, argv_bad, "does things", serve_merge, driver_main_run);
    free(capture_end(&err));
    KIT_ASSERT_MSG(rc == 2 && driver_main_m == -1, "bad --gen: expected 2 without a run, got %d (m=%lld)", rc,
                   driver_main_m);
}

static void test_driver_begin(void)
{
    kit_args a;
    char *argv_ok[] = {(char *)"prog", (char *)"--m", (char *)"3", NULL};
    char *argv_help[] = {(char *)"prog", (char *)"--help", NULL};
    char *argv_bad[] = {(char *)"prog", (char *)"--gen", (char *)"zigzag", NULL};

    memset(&a, 0x7F, sizeof a); /* kit_driver_begin fills the defaults itself */
    int rc = kit_driver_begin(&a, 3, argv_ok, "does things", serve_merge);
    KIT_ASSERT_MSG(rc == -1 && a.m == 3 && a.n == 1000 && a.k == -1 && a.serve == 0,
                   "--m 3: expected -1 with m 3 and the other defaults, got %d (m=%lld n=%lld k=%lld serve=%d)", rc,
                   a.m, a.n, a.k, a.serve);

    capture out;
    capture_begin(&out, 1);
    rc = kit_driver_begin(&a, 2, argv_help, "does things", serve_merge);
    char *text = capture_end(&out);
    KIT_ASSERT_MSG(rc == 0 && strstr(text, "--gen"), "--help: expected 0 and usage on stdout, got %d and \"%s\"", rc,
                   text);
    free(text);

    capture err;
    capture_begin(&err, 2);
    rc = kit_driver_begin(&a, 3, argv_bad, "does things", serve_merge);
    text = capture_end(&err);
    KIT_ASSERT_MSG(rc == 2 && strstr(text, "--gen"),
                   "bad --gen: expected 2 and a message naming --gen, got %d and \"%s\"", rc, text);
    free(text);
}

/* kit_driver_begin's --trace: only a build that records traces (the CPU build) takes it. */
static void test_driver_begin_trace(void)
{
    kit_args a;
    capture err;
    char *text;
    int rc;
    char *argv_trace[] = {(char *)"prog", (char *)"--trace", (char *)"out.trace", NULL};
    capture_begin(&err, 2);
    rc = kit_driver_begin_build(&a, 3, argv_trace, "does things", serve_merge, 0);
    text = capture_end(&err);
    KIT_ASSERT_MSG(rc == 2 && strstr(text, "--trace needs the CPU build"),
                   "--trace in the GPU build: expected 2 and a message naming the CPU build, got %d and \"%s\"", rc, text);
    free(text);
    capture_begin(&err, 2);
    rc = kit_driver_begin(&a, 3, argv_trace, "does things", serve_merge); /* this test is not a CPU build */
    free(capture_end(&err));
    KIT_ASSERT_MSG(rc == 2, "kit_driver_begin in a GPU build: --trace gave %d, expected 2", rc);
    rc = kit_driver_begin_build(&a, 3, argv_trace, "does things", serve_merge, 1);
    KIT_ASSERT_MSG(rc == -1 && a.trace && strcmp(a.trace, "out.trace") == 0, "--trace in the CPU build: got %d", rc);
}

/* kit_driver_begin's --serve: one request on stdin, its reply on stdout. */
static void test_driver_begin_serve(void)
{
    kit_args a;
    capture out;
    int rc;
    char *argv_serve[] = {(char *)"prog", (char *)"--serve", NULL};
    const int32_t A0[2] = {2, 4}, B0[3] = {1, 3, 5}, want_C[5] = {1, 2, 3, 4, 5};
    kit_req req = make_req("merge", KIT_TYPE_I32, 2, 3, 0);
    size_t len;
    unsigned char *bytes = req_bytes(&req, A0, B0, NULL, &len);
    FILE *in = file_of(bytes, len);
    int saved_in = dup(0);
    dup2(fileno(in), 0);
    clearerr(stdin);
    handler_calls = 0;
    capture_begin(&out, 1);
    rc = kit_driver_begin(&a, 2, argv_serve, "does things", serve_merge);
    size_t reply_len;
    char *reply = capture_end_len(&out, &reply_len);
    dup2(saved_in, 0);
    close(saved_in);
    clearerr(stdin);
    fclose(in);
    KIT_ASSERT_MSG(rc == 0 && handler_calls == 1, "--serve: expected 0 and one handler call, got %d and %d", rc,
                   handler_calls);
    kit_res want = make_res(KIT_RES_OK, KIT_TYPE_I32, 5, 2, 3, 0, ""), got;
    char msg[128] = "";
    void *C, *RA, *RB;
    int64_t *R;
    FILE *rf = file_of(reply, reply_len);
    int read_rc = kit_res_read(rf, &want, &got, &C, &RA, &RB, &R, msg, sizeof msg);
    fclose(rf);
    KIT_ASSERT_MSG(read_rc == 0 && got.status == KIT_RES_OK, "--serve: expected an OK reply on stdout, got %d (%s)",
                   read_rc, msg);
    if (read_rc == 0)
        KIT_ASSERT_MSG(kit_verify(KIT_TYPE_I32, want_C, C, 5, msg, sizeof msg) < 0, "--serve: the reply's C: %s", msg);
    free(C);
    free(RA);
    free(RB);
    free(R);
    free(reply);
    free(bytes);
}

static void test_driver_merge_input(void)
{
    kit_args a;
    kit_args_defaults(&a);
    a.m = 70;
    a.n = 33;
    a.type = KIT_TYPE_KV32;
    a.gen = KIT_GEN_DUPLICATES;
    a.seed = 1234;
    void *A = NULL, *B = NULL;
    kit_driver_merge_input(&a, &A, &B);
    kit_kv32 wantA[70], wantB[33];
    kit_gen_merge_input(KIT_TYPE_KV32, wantA, 70, wantB, 33, KIT_GEN_DUPLICATES, 1234);
    char msg[160];
    KIT_ASSERT_MSG(A && kit_verify(KIT_TYPE_KV32, wantA, A, 70, msg, sizeof msg) < 0,
                   "A should be kit_gen_merge_input's A for the options: %s", A ? msg : "NULL");
    KIT_ASSERT_MSG(B && kit_verify(KIT_TYPE_KV32, wantB, B, 33, msg, sizeof msg) < 0,
                   "B should be kit_gen_merge_input's B for the options: %s", B ? msg : "NULL");
    free(A);
    free(B);

    a.m = 0;
    a.n = 0;
    A = B = NULL;
    kit_driver_merge_input(&a, &A, &B);
    KIT_ASSERT_MSG(A != NULL && B != NULL, "m = n = 0: expected two valid (freeable) pointers, got %p and %p", A, B);
    free(A);
    free(B);
}

/* kit_print_array's output for one array. */
static char *printed(const char *label, kit_type t, const void *data, size_t n)
{
    capture out;
    capture_begin(&out, 1);
    kit_print_array(label, t, data, n);
    return capture_end(&out);
}

static void test_print_array(void)
{
    const int32_t shortv[5] = {3, 1, 4, 1, 5};
    char *text = printed("b", KIT_TYPE_I32, shortv, 5);
    KIT_ASSERT_MSG(strcmp(text, "b (5): 3 1 4 1 5\n") == 0, "short: expected \"b (5): 3 1 4 1 5\\n\", got \"%s\"",
                   text);
    free(text);

    const kit_kv32 kv[2] = {{1, 2}, {3, -4}};
    text = printed("p", KIT_TYPE_KV32, kv, 2);
    KIT_ASSERT_MSG(strcmp(text, "p (2): (key 1, value 2) (key 3, value -4)\n") == 0,
                   "pairs: expected \"p (2): (key 1, value 2) (key 3, value -4)\\n\", got \"%s\"", text);
    free(text);

    text = printed("e", KIT_TYPE_I64, NULL, 0);
    KIT_ASSERT_MSG(strcmp(text, "e (0):\n") == 0, "empty: expected \"e (0):\\n\", got \"%s\"", text);
    free(text);

    int64_t longv[1000];
    for (int i = 0; i < 1000; i++)
        longv[i] = 10000 + i;
    text = printed("long", KIT_TYPE_I64, longv, 1000);
    size_t words = 0;
    for (const char *p = text; *p; p++)
        words += *p == ' ';
    KIT_ASSERT_MSG(strncmp(text, "long (1000): 10000 10001 ", 25) == 0,
                   "long: should start with the first elements, got \"%.60s\"", text);
    KIT_ASSERT_MSG(strstr(text, " ...") != NULL, "long: the middle should be elided with \"...\", got \"%.80s\"", text);
    KIT_ASSERT_MSG(strstr(text, " 10500 ") == NULL && words < 100, "long: %zu items printed, the middle is not elided",
                   words);
    size_t tl = strlen(text);
    KIT_ASSERT_MSG(tl > 7 && strcmp(text + tl - 7, " 10999\n") == 0,
                   "long: should end with the last element, got \"%s\"", tl > 20 ? text + tl - 20 : text);
    free(text);
}

static void xmalloc_too_much(void)
{
    kit_xmalloc(SIZE_MAX);
    _exit(0); /* not reached if kit_xmalloc keeps its promise */
}

static void test_xmalloc(void)
{
    void *p = kit_xmalloc(0);
    KIT_ASSERT_MSG(p != NULL, "kit_xmalloc(0) returned NULL");
    free(p);
    unsigned char *q = (unsigned char *)kit_xmalloc(4096);
    memset(q, 0xAB, 4096);
    KIT_ASSERT_MSG(q[0] == 0xAB && q[4095] == 0xAB, "kit_xmalloc(4096) is not writable end to end");
    free(q);

    char *output = NULL;
    int status = kit_test_run_child(xmalloc_too_much, 1, &output);
    KIT_ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 99,
                   "kit_xmalloc(SIZE_MAX) should exit with a failure status, wait status 0x%x", status);
    KIT_ASSERT_MSG(output[0] != '\0', "kit_xmalloc(SIZE_MAX) should say why it exits, said nothing");
    free(output);
}

/* ---- kit_test.h ------------------------------------------------------------------ */
/*
 * A failing assertion cannot be observed from inside the run that records it,
 * so these tests re-execute this program with CHILD_MODE_ENV set: register_tests
 * then adds only small fixture suites, and the parent reads the child's output
 * and exit status, which come from kit_test_main, kit_test_skip_suite,
 * kit_test_fail and KIT_ASSERT_MSG. The same fresh process shows that
 * kit_not_implemented speaks on stderr once per process.
 */

static void child_passes(void)
{
    KIT_ASSERT_MSG(kit_type_size(KIT_TYPE_I32) == 4, "fixture: i32 should be 4 bytes");
}

static void child_fails_assert(void)
{
    int got = 2 + 2;
    KIT_ASSERT_MSG(got == 5, "fixture: expected %d, got %d", 5, got);
}

static void child_fails_direct(void)
{
    kit_test_fail(__FILE__, __LINE__, "fixture: formatted %s #%d", "message", 7);
}

/* In a fresh process: the first task is announced on stderr, a task after a reset is recorded but not announced. */
static void child_not_implemented_twice(void)
{
    kit_not_implemented("first:task");
    kit_not_implemented_reset();
    kit_not_implemented("second:task");
    const char *task = kit_not_implemented_task();
    KIT_ASSERT_MSG(task && strcmp(task, "second:task") == 0, "fixture: expected \"second:task\", got \"%s\"",
                   task ? task : "(null)");
    kit_not_implemented_reset();
}

static void register_child_suites(const char *mode)
{
    CU_pSuite runs = kit_test_suite("child runs");
    kit_test_add(runs, "passes", child_passes);
    if (strcmp(mode, "announce") == 0) {
        kit_test_add(runs, "not implemented twice", child_not_implemented_twice);
    } else if (strcmp(mode, "fail") == 0) {
        kit_test_add(runs, "fails through KIT_ASSERT_MSG", child_fails_assert);
        kit_test_add(runs, "fails through kit_test_fail", child_fails_direct);
    } else {
        CU_pSuite off = kit_test_suite("child skipped");
        kit_test_add(off, "would fail", child_fails_assert);
        kit_test_add(off, "would fail too", child_fails_direct);
        kit_test_skip_suite(off, "fixture reason: no widget attached");
    }
}

static const char *child_mode;

static void exec_self(void)
{
    setenv(CHILD_MODE_ENV, child_mode, 1);
    execl("/proc/self/exe", "test_common", (char *)NULL);
    perror("execl /proc/self/exe");
    _exit(98);
}

static void test_kit_test_failures(void)
{
    char *output = NULL;
    child_mode = "fail";
    int status = kit_test_run_child(exec_self, 1, &output);
    KIT_ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 1,
                   "a run with failures should exit 1, wait status 0x%x; output:\n%s", status, output);
    KIT_ASSERT_MSG(strstr(output, "fixture: expected 5, got 4") != NULL,
                   "KIT_ASSERT_MSG's formatted message should be in the report; output:\n%s", output);
    KIT_ASSERT_MSG(strstr(output, "fixture: formatted message #7") != NULL,
                   "kit_test_fail's formatted message should be in the report; output:\n%s", output);
    KIT_ASSERT_MSG(strstr(output, "common tests: 1 passed, 2 failed, 0 skipped") != NULL,
                   "closing line: expected \"common tests: 1 passed, 2 failed, 0 skipped\"; output:\n%s", output);
    free(output);
}

static void test_kit_test_skip(void)
{
    char *output = NULL;
    child_mode = "skip";
    int status = kit_test_run_child(exec_self, 1, &output);
    KIT_ASSERT_MSG(strstr(output, "SKIPPED child skipped") != NULL &&
                       strstr(output, "fixture reason: no widget attached"),
                   "the skip and its reason should be printed; output:\n%s", output);
    KIT_ASSERT_MSG(strstr(output, "fixture: expected") == NULL, "a skipped suite's tests must not run; output:\n%s",
                   output);
    KIT_ASSERT_MSG(strstr(output, "common tests: 1 passed, 0 failed, 2 skipped") != NULL,
                   "closing line: expected \"common tests: 1 passed, 0 failed, 2 skipped\"; output:\n%s", output);
    /* kit_test.h: skipped tests count "as skipped, never as passed" -- and nothing failed, so the run passes. */
    KIT_ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                   "nothing failed, only a suite was skipped: expected exit status 0, got wait status 0x%x "
                   "(exit %d)", status, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    free(output);
}

/* kit_lab.h: "The process's first call prints `not implemented: <task>` on stderr" -- and only that one. */
static void test_kit_test_announce(void)
{
    char *output = NULL;
    child_mode = "announce";
    int status = kit_test_run_child(exec_self, 1, &output);
    KIT_ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                   "the child run should pass, wait status 0x%x; output:\n%s", status, output);
    const char *first = strstr(output, "not implemented: first:task");
    KIT_ASSERT_MSG(first != NULL, "the process's first task should be announced on stderr; output:\n%s", output);
    KIT_ASSERT_MSG(first == NULL || strstr(first + 1, "not implemented: first:task") == NULL,
                   "the first task was announced twice; output:\n%s", output);
    KIT_ASSERT_MSG(strstr(output, "not implemented: second:task") == NULL,
                   "a task after a reset should not be announced again; output:\n%s", output);
    free(output);
}

/* kit_test_stderr_begin/end: stderr is caught whole, then goes back to where it was. */
static void test_kit_test_stderr(void)
{
    char buf[64], small[8];
    KIT_ASSERT_MSG(kit_test_stderr_begin() == 0, "kit_test_stderr_begin: expected 0, got -1");
    fprintf(stderr, "cannot write %s\n", "x.trace");
    ssize_t wrote = write(STDERR_FILENO, "raw\n", 4); /* below stdio too */
    kit_test_stderr_end(buf, sizeof buf);
    KIT_ASSERT_MSG(wrote == 4, "write to the caught stderr: expected 4, got %zd", wrote);
    KIT_ASSERT_MSG(strcmp(buf, "cannot write x.trace\nraw\n") == 0,
                   "caught stderr: expected \"cannot write x.trace\\nraw\\n\", got \"%s\"", buf);
    KIT_ASSERT_MSG(kit_test_stderr_begin() == 0, "a second kit_test_stderr_begin: expected 0, got -1");
    fputs("0123456789", stderr);
    kit_test_stderr_end(small, sizeof small);
    KIT_ASSERT_MSG(strcmp(small, "0123456") == 0, "a catch cut to 8 bytes: expected \"0123456\", got \"%s\"", small);
    kit_test_stderr_end(buf, sizeof buf); /* no catch under way: nothing, and stderr stays */
    KIT_ASSERT_MSG(buf[0] == '\0', "an end without a begin: expected \"\", got \"%s\"", buf);
    KIT_ASSERT_MSG(fcntl(STDERR_FILENO, F_GETFD) != -1, "stderr is closed after the catches");
}

/* Children for kit_test_run_child: one that writes to both streams and exits 3, one that
   writes more than the pipe's first buffer, one that returns. */
static void child_writes_and_exits(void)
{
    printf("to stdout\n");
    fprintf(stderr, "to stderr\n");
    exit(3);
}

static void child_writes_much(void)
{
    for (int i = 0; i < 3000; i++)
        fprintf(stderr, "line %04d\n", i);
    exit(0);
}

static void child_returns(void) {}

/* kit_test_run_child: the wait status, what each stream brought, long output whole, and 99 for a child that returned. */
static void test_kit_test_run_child(void)
{
    char *out = NULL;
    int status = kit_test_run_child(child_writes_and_exits, 1, &out);
    KIT_ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 3, "exit(3) in the child: got wait status 0x%x", status);
    KIT_ASSERT_MSG(strcmp(out, "to stdout\nto stderr\n") == 0,
                   "both streams: expected \"to stdout\\nto stderr\\n\", got \"%s\"", out);
    free(out);
    status = kit_test_run_child(child_writes_and_exits, 0, &out);
    KIT_ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 3, "exit(3), stderr only: got wait status 0x%x", status);
    KIT_ASSERT_MSG(strcmp(out, "to stderr\n") == 0, "stderr only: expected \"to stderr\\n\", got \"%s\"", out);
    free(out);
    status = kit_test_run_child(child_writes_much, 0, &out);
    KIT_ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0 && strlen(out) == 3000 * 10 &&
                       strncmp(out + 2999 * 10, "line 2999\n", 10) == 0,
                   "3000 lines of 10 bytes: expected 30000 bytes ending \"line 2999\", got %zu bytes", strlen(out));
    free(out);
    status = kit_test_run_child(child_returns, 1, &out);
    KIT_ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 99 && out[0] == '\0',
                   "a child that returns: expected exit 99 and no output, got wait status 0x%x and \"%s\"", status, out);
    free(out);
}

/* ---- registration ---------------------------------------------------------------- */

/* Does /proc/self/smaps give the mapping that holds p the VmFlags flag `hg` (MADV_HUGEPAGE)? -1: unreadable */
static int huge_hinted(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f)
        return -1;
    char line[512];
    int inside = 0, hinted = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx", &lo, &hi) == 2) /* a mapping's first line; its fields follow */
            inside = (uintptr_t)p >= lo && (uintptr_t)p < hi;
        else if (inside && strncmp(line, "VmFlags:", 8) == 0)
            hinted = strstr(line, " hg") != NULL;
    }
    fclose(f);
    return hinted;
}

/* kit_malloc: usable memory of any size; a big buffer is hinted for huge pages where the kernel has them. */
static void test_kit_malloc(void)
{
    size_t big = 8 * KIT_MEM_HUGE_BYTES;
    unsigned char *tiny = kit_malloc(0), *p = kit_malloc(big);
    KIT_ASSERT_MSG(tiny && p, "kit_malloc returned NULL (0 bytes: %p, %zu bytes: %p)", (void *)tiny, big, (void *)p);
    if (!tiny || !p) {
        free(tiny);
        free(p);
        return;
    }
    memset(p, 0xab, big);
    KIT_ASSERT_MSG(p[0] == 0xab && p[big - 1] == 0xab, "the buffer did not keep what was written");
    FILE *thp = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    char mode[128] = "";
    if (thp && !fgets(mode, sizeof mode, thp))
        mode[0] = '\0';
    if (thp)
        fclose(thp);
    mode[strcspn(mode, "\n")] = '\0';
    if (strstr(mode, "[never]") == NULL && mode[0]) /* the kernel has THP: the hint must be set */
        KIT_ASSERT_MSG(huge_hinted(p + big / 2) == 1, "a %zu-byte buffer has no MADV_HUGEPAGE flag (hg) in /proc/self/smaps "
                       "(THP: %s)", big, mode);
    free(tiny);
    free(p);
}

static void register_tests(void)
{
    const char *mode = getenv(CHILD_MODE_ENV);
    if (mode) {
        register_child_suites(mode);
        return;
    }

    CU_pSuite types = kit_test_suite("types and the not-implemented marker");
    kit_test_add(types, "kit_type_size and kit_type_name", test_type_size_and_name);
    kit_test_add(types, "kit_type_parse", test_type_parse);
    kit_test_add(types, "kit_name_index", test_name_index);
    kit_test_add(types, "kit_name_at", test_name_at);
    kit_test_add(types, "kit_not_implemented: first call wins until reset", test_not_implemented);
    kit_test_add(types, "kit_malloc: any size, big buffers on huge pages", test_kit_malloc);

    CU_pSuite gen = kit_test_suite("generators");
    kit_test_add(gen, "shape names round trip", test_gen_names);
    kit_test_add(gen, "pair-only shapes", test_gen_pair_only);
    kit_test_add(gen, "splitmix64 values for seed 0", test_rng);
    kit_test_add(gen, "kit_gen_permutation", test_gen_permutation);
    kit_test_add(gen, "kit_gen_array: every shape and type", test_gen_array_shapes);
    kit_test_add(gen, "kit_gen_array: kv32 value i at index i, every shape", test_gen_array_kv32_values);
    kit_test_add(gen, "kit_gen_array: seed 0 pinned", test_gen_array_pinned);
    kit_test_add(gen, "kit_gen_array: refusals", test_gen_array_refuses);
    kit_test_add(gen, "kit_gen_array: seeds", test_gen_array_seeds);
    kit_test_add(gen, "kit_gen_merge_input: sorted and tagged", test_merge_input_sorted);
    kit_test_add(gen, "kit_gen_merge_input: pair layouts", test_merge_input_layouts);
    kit_test_add(gen, "kit_gen_merge_input: empty sides", test_merge_input_empty);
    kit_test_add(gen, "kit_gen_merge_input: refusals", test_merge_input_refuses);
    kit_test_add(gen, "kit_gen_merge_input: seeds", test_merge_input_seeds);
    kit_test_add(gen, "kit_sort", test_sort);

    CU_pSuite check = kit_test_suite("checks by property");
    kit_test_add(check, "kit_check_merge: the chapter example and single changes", test_check_merge);
    kit_test_add(check, "kit_check_merge: agrees with the reference on every generator", test_check_merge_against_reference);
    kit_test_add(check, "kit_check_sort: stable, unstable, lost, unsorted", test_check_sort);
    kit_test_add(check, "kit_check_co_rank: exactly the brute-force co-rank", test_check_co_rank);
    kit_test_add(check, "kit_check_predecessor: exactly the reference", test_check_predecessor);
    kit_test_add(check, "kit_check_co_rank_answer: the expected co-rank", test_check_co_rank_answer);
    kit_test_add(check, "kit_check_answer: the query, its key, the answer and the expected one", test_check_answer);
    kit_test_add(check, "kit_wrong_output: expected, got, and slots never written", test_wrong_output);
    kit_test_add(check, "kit_pbs_gen_input: make run's lab 6 input is the grader's", test_pbs_gen_input);
    kit_test_add(check, "kit_gcd", test_gcd);
    kit_test_add(check, "kit_pbs_gen_queries_any: worst queries for any K", test_pbs_worst_queries_any);
    CU_pSuite ref = kit_test_suite("references");
    kit_test_add(ref, "kit_key_at", test_key_at);
    kit_test_add(ref, "kit_is_sorted", test_is_sorted);
    kit_test_add(ref, "kit_merge_ref: chapter example", test_merge_ref);
    kit_test_add(ref, "kit_stable_sort: sorted, ties in input order", test_stable_sort);
    kit_test_add(ref, "kit_merge_ref: stability", test_merge_ref_stable);
    kit_test_add(ref, "kit_merge_ref: empty inputs", test_merge_ref_empty);
    kit_test_add(ref, "co-ranks of the chapter example", test_co_rank_example);
    kit_test_add(ref, "kit_co_rank_all agrees with kit_co_rank_brute", test_co_rank_agree);
    kit_test_add(ref, "kit_co_rank_pass_bound", test_co_rank_pass_bound);
    kit_test_add(ref, "kit_format_elem", test_format_elem);
    kit_test_add(ref, "kit_verify", test_verify);

    CU_pSuite pbs = kit_test_suite("predecessor search (lab 6's host side)");
    kit_test_add(pbs, "reference, names, Algorithm 1's path, the paper's count", test_pbs_reference);
    kit_test_add(pbs, "query sets: keys, range, worst case", test_pbs_queries);

    CU_pSuite timer = kit_test_suite("timer");
    kit_test_add(timer, "kit_now_s", test_now_s);

    CU_pSuite cli = kit_test_suite("command line");
    kit_test_add(cli, "defaults", test_args_defaults);
    kit_test_add(cli, "every option", test_args_every_option);
    kit_test_add(cli, "launch shape, tile and trace options", test_args_launch_options);
    kit_test_add(cli, "--help", test_args_help);
    kit_test_add(cli, "bad options name themselves", test_args_errors);
    kit_test_add(cli, "negative seed behind a space", test_args_seed_sign_behind_space);
    kit_test_add(cli, "kit_args_usage", test_args_usage);
    kit_test_add(cli, "--alg and --queries", test_args_alg_queries);
    kit_test_add(cli, "kit_driver_args", test_driver_args);

    CU_pSuite proto = kit_test_suite("grader protocol");
    kit_test_add(proto, "request round trip", test_req_round_trip);
    kit_test_add(proto, "kit_req_write refusals", test_req_write_refuses);
    kit_test_add(proto, "kit_req_read refusals", test_req_read_refuses);
    kit_test_add(proto, "reply round trip", test_res_round_trip);
    kit_test_add(proto, "kit_res_write refusals", test_res_write_refuses);
    kit_test_add(proto, "kit_res_read: shape must match want", test_res_read_shape);
    kit_test_add(proto, "kit_res_read: statuses", test_res_read_status);
    kit_test_add(proto, "kit_res_read: non-OK reply announcing arrays", test_res_read_status_with_arrays);

    CU_pSuite request = kit_test_suite("typed requests");
    kit_test_add(request, "kit_op_name and kit_op_parse", test_op_names);
    kit_test_add(request, "every op's request round trip: encode, decode, write", test_request_round_trip);
    kit_test_add(request, "each field outside its op's range refused by name", test_request_bad_fields);
    kit_test_add(request, "rules between fields, op, word count, arrays", test_request_bad_rules);

    CU_pSuite driver = kit_test_suite("driver");
    kit_test_add(driver, "kit_serve: OK replies", test_serve_ok);
    kit_test_add(driver, "kit_serve: not implemented and refused", test_serve_not_implemented_and_error);
    kit_test_add(driver, "kit_serve: garbage in, unwritable out", test_serve_garbage);
    kit_test_add(driver, "kit_serve: a call while it runs ends the process", test_serve_nested);
    kit_test_add(driver, "kit_driver_begin", test_driver_begin);
    kit_test_add(driver, "kit_driver_begin: --trace", test_driver_begin_trace);
    kit_test_add(driver, "kit_driver_begin: --serve", test_driver_begin_serve);
    kit_test_add(driver, "kit_driver_main", test_driver_main);
    kit_test_add(driver, "kit_driver_merge_input", test_driver_merge_input);
    kit_test_add(driver, "kit_print_array", test_print_array);
    kit_test_add(driver, "kit_xmalloc", test_xmalloc);

    CU_pSuite test = kit_test_suite("test layer (re-executed child)");
    kit_test_add(test, "failures are reported with their messages", test_kit_test_failures);
    kit_test_add(test, "a skipped suite counts as skipped and passes", test_kit_test_skip);
    kit_test_add(test, "kit_not_implemented announces once per process", test_kit_test_announce);
    kit_test_add(test, "kit_test_stderr_begin/end catch stderr", test_kit_test_stderr);
    kit_test_add(test, "kit_test_run_child: status and output of a child", test_kit_test_run_child);
}

int main(void)
{
    return kit_test_main("common tests", register_tests);
}
