/* Grading specs: the data file in each lab folder that lists its tasks, points and tests, and the hidden specs' draw lines. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "spec.h"
#include "08-worst-case/harness/worst_host.h"

#define SHARED_LIMIT (227 * 1024) /* a block's shared memory at most: Hopper's opt-in, kit_cpu.cc's MAX_DYNAMIC_SHARED */

static const char *const COUNT_NAMES[SPEC_NCOUNTS] = {"conflicts",     "loads",        "shared_stores", "global_loads",
                                                      "global_stores", "thread_loads", "thread_stores"};
static const char *const BASE_NAMES[SPEC_NBASES] = {"ref", "share", "warpq", "reads", "probe_loads", "theorem"};

/* A message made for one line (a spec is read by one thread): what spec_parse() reports with its place. */
static char line_why[320];

int spec_find_task(const spec_lab *lab, const char *name)
{
    for (int t = 0; t < lab->ntasks; t++)
        if (strcmp(lab->tasks[t].name, name) == 0)
            return t;
    return -1;
}

/* A name the grader may use as a file name or identifier: letters, digits, '-', '_' and '.', not starting with '.'. */
static int plain_name(const char *s, size_t max)
{
    size_t len = strlen(s);
    if (len == 0 || len >= max || s[0] == '.')
        return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
              *p == '_' || *p == '.'))
            return 0;
    return 1;
}

static int parse_num(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* Applies key=val if the key describes the test's input (op, type, gen, m, n, seed, ranks, check, queries):
   returns 1 with *why NULL or what is wrong, or 0 if the key is none of those. */
static int input_option(spec_test *t, const char *key, const char *val, const char **why)
{
    long long v;
    *why = NULL;
    if (strcmp(key, "op") == 0) {
        if (strcmp(val, "merge") != 0 && strcmp(val, "co_rank") != 0 && strcmp(val, "pbs") != 0 &&
            strcmp(val, "sort") != 0 && strcmp(val, "worst") != 0)
            *why = "op must be merge, co_rank, pbs, sort or worst";
        else
            snprintf(t->op, sizeof t->op, "%s", val);
    } else if (strcmp(key, "type") == 0) {
        if (kit_type_parse(val, &t->type))
            *why = "type must be i32, i64 or kv32";
    } else if (strcmp(key, "gen") == 0) {
        if (kit_gen_parse(val, &t->gen))
            *why = "unknown gen";
    } else if (strcmp(key, "m") == 0 || strcmp(key, "n") == 0) {
        if (parse_num(val, 0, 1LL << 28, &v))
            *why = "m and n must lie in 0 .. 2^28";
        else
            *(key[0] == 'm' ? &t->m : &t->n) = v;
    } else if (strcmp(key, "seed") == 0) {
        if (parse_num(val, 0, (1LL << 62), &v))
            *why = "seed must be a non-negative integer";
        else
            t->seed = (unsigned long long)v;
    } else if (strcmp(key, "ranks") == 0) {
        if (parse_num(val, 0, 1 << 24, &v))
            *why = "ranks must lie in 0 .. 2^24 (0 means every rank)";
        else
            t->ranks = v;
    } else if (strcmp(key, "check") == 0) {
        if (strcmp(val, "values") != 0 && strcmp(val, "bound") != 0)
            *why = "check must be values or bound";
        else
            t->bound = strcmp(val, "bound") == 0;
    } else if (strcmp(key, "queries") == 0) {
        if (kit_pbs_queries_parse(val, &t->queries))
            *why = "queries must be keys, range or worst";
    } else {
        return 0;
    }
    return 1;
}

/* Applies key=val if the key describes how the runner runs (blocks, u, w, E, tile, alg, arch, kernel, part,
   timeout): returns 1 with *why NULL or what is wrong, or 0 if the key is none of those. */
static int launch_option(spec_test *t, const char *key, const char *val, const char **why)
{
    long long v;
    *why = NULL;
    if (strcmp(key, "blocks") == 0 || strcmp(key, "tile") == 0) {
        if (parse_num(val, 1, 1 << 30, &v))
            *why = "blocks and tile must lie in 1 .. 2^30";
        else
            *(key[0] == 'b' ? &t->blocks : &t->tile) = (int)v;
    } else if (strcmp(key, "u") == 0 || strcmp(key, "w") == 0 || strcmp(key, "E") == 0) {
        if (parse_num(val, 1, 1024, &v))
            *why = "u (threads per block), w (threads per warp) and E (keys per thread) must lie in 1 .. 1024";
        else
            *(key[0] == 'u' ? &t->u : key[0] == 'w' ? &t->w : &t->E) = (int)v;
    } else if (strcmp(key, "threads") == 0) {
        *why = "threads= is now u= (threads per block), or w= for op=worst (threads per warp)";
    } else if (strcmp(key, "alg") == 0) {
        static const char *const algs[] = {"pbs", "cf", "cl", "baseline"};
        t->alg = -1;
        for (int a = 0; a < 4; a++)
            if (strcmp(val, algs[a]) == 0)
                t->alg = a;
        if (t->alg < 0)
            *why = "alg must be pbs, cf or cl (op=pbs) or baseline or cf (op=sort)";
    } else if (strcmp(key, "arch") == 0 || strcmp(key, "kernel") == 0) {
        char *dst = key[0] == 'a' ? t->arch : t->kernel;
        size_t room = key[0] == 'a' ? sizeof t->arch : sizeof t->kernel;
        if (!plain_name(val, room))
            *why = "arch and kernel must be plain names";
        else
            snprintf(dst, room, "%s", val);
    } else if (strcmp(key, "part") == 0) {
        static const char *const parts[] = {"subproblem", "order", "both"};
        t->part = 0;
        for (int p = 0; p < 3; p++)
            if (strcmp(val, parts[p]) == 0)
                t->part = p + 1;
        if (t->part == 0)
            *why = "part must be subproblem, order or both";
    } else if (strcmp(key, "timeout") == 0) {
        if (parse_num(val, 1, 3600, &v))
            *why = "timeout must lie in 1 .. 3600 seconds";
        else
            t->timeout_s = (int)v;
    } else {
        return 0;
    }
    return 1;
}

/* ---- bounds: COUNT CMP N, or COUNT CMP F*BASE (spec.h) ----------------------------------------- */

/*
 * A bound's key and value, split at the first '=' as every option is: COUNT< or COUNT> with V, or
 * COUNT with =V (COUNT==V). Sets the count and the comparison and moves *val past the second '=';
 * returns 1, 0 when the key is no bound, or -1 when it names a count without <=, >= or ==.
 */
static int bound_key(const char *key, const char **val, int *count, char *cmp)
{
    for (int c = 0; c < SPEC_NCOUNTS; c++) {
        size_t len = strlen(COUNT_NAMES[c]);
        if (strncmp(key, COUNT_NAMES[c], len) != 0)
            continue;
        const char *rest = key + len;
        *count = c;
        if ((rest[0] == '<' || rest[0] == '>') && rest[1] == '\0') {
            *cmp = rest[0];
            return 1;
        }
        if (rest[0] == '\0') {
            if (**val != '=')
                return -1;
            ++*val;
            *cmp = '=';
            return 1;
        }
    }
    return 0;
}

/* F of F*BASE: a decimal with up to 3 places, 0.001 .. 1000, in thousandths; returns 0, or -1. */
static int parse_factor(const char *s, size_t len, long long *milli)
{
    long long whole = 0, frac = 0;
    int places = 0;
    size_t i = 0;
    if (len == 0 || len > 12)
        return -1;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
        whole = whole * 10 + (s[i] - '0');
    if (i == 0)
        return -1;
    if (i < len && s[i] == '.') {
        for (i++; i < len && s[i] >= '0' && s[i] <= '9' && places < 3; i++, places++)
            frac = frac * 10 + (s[i] - '0');
        if (places == 0)
            return -1;
    }
    if (i != len)
        return -1;
    for (; places < 3; places++)
        frac *= 10;
    *milli = whole * 1000 + frac;
    return *milli >= 1 && *milli <= 1000000 ? 0 : -1;
}

/* Marks the sides a bound takes (spec_test.sides); NULL, or what is wrong when one is taken already. */
static const char *take_sides(spec_test *t, int count, char cmp)
{
    unsigned char sides = cmp == '>' ? 1 : cmp == '<' ? 2 : 3;
    if (count == SPEC_CONFLICTS && t->sides[count])
        return "a test takes one conflict threshold (conflicts==N with tolerance=P% bounds both sides)";
    if (t->sides[count] & sides)
        return "a count takes one bound a side (COUNT>=N and COUNT<=N, or COUNT==N for both)";
    t->sides[count] |= sides;
    return NULL;
}

/* Sets the concrete bound COUNT CMP n (an upper bound of 0 becomes 1: 0 means none, and the count is still measured). */
static void set_bound(spec_test *t, int count, char cmp, long long n)
{
    if (count == SPEC_CONFLICTS) {
        t->conflict_cmp = cmp;
        t->conflicts = n;
        return;
    }
    long long *at_least[SPEC_NCOUNTS] = {NULL, &t->min_loads, &t->min_shared_stores, &t->min_global_loads,
                                         &t->min_global_stores, NULL, NULL};
    long long *at_most[SPEC_NCOUNTS] = {NULL, &t->max_loads, &t->max_shared_stores, &t->max_global_loads,
                                        &t->max_global_stores, &t->max_thread_loads, &t->max_thread_stores};
    if (cmp != '<' && at_least[count])
        *at_least[count] = n;
    if (cmp != '>')
        *at_most[count] = n > 0 ? n : 1;
}

/* F (in thousandths) times base, rounded toward the lenient side of cmp: down for >=, up for <=, to the nearest for ==. */
static long long scaled(long long milli, long long base, char cmp)
{
    long long p = milli * (base > 0 ? base : 0);
    return cmp == '<' ? (p + 999) / 1000 : cmp == '>' ? p / 1000 : (p + 500) / 1000;
}

/* Applies key=val if the key is a bound (spec.h): returns 1 with *why NULL or what is wrong, or 0 if it is none. */
static int bound_option(spec_test *t, const char *key, const char *val, const char **why)
{
    int count = 0;
    char cmp = 0;
    int k = bound_key(key, &val, &count, &cmp);
    *why = NULL;
    if (k == 0)
        return 0;
    if (k < 0) {
        *why = count == SPEC_CONFLICTS ? "a conflict threshold reads conflicts<=N, conflicts==N or conflicts>=N"
                                       : "a bound reads COUNT<=N, COUNT==N or COUNT>=N";
        return 1;
    }
    if ((count == SPEC_THREAD_LOADS || count == SPEC_THREAD_STORES) && cmp != '<') {
        *why = "thread_loads and thread_stores bound one thread's global accesses from above: thread_loads<=N";
        return 1;
    }
    const char *star = strchr(val, '*'), *name = star ? star + 1 : val;
    int base = -1;
    for (int b = 0; b < SPEC_NBASES; b++)
        if (strcmp(name, BASE_NAMES[b]) == 0)
            base = b;
    long long v, milli = 1000;
    if (base < 0 && star) {
        *why = "a formula bound reads F*BASE, BASE one of ref, share, warpq, reads, probe_loads and theorem";
    } else if (base < 0) {
        if (count == SPEC_CONFLICTS && parse_num(val, 0, 1LL << 40, &v))
            *why = "a conflict threshold N must lie in 0 .. 2^40";
        else if (count != SPEC_CONFLICTS && parse_num(val, 1, 1LL << 40, &v))
            *why = "an access bound (loads>=N, shared_stores>=N, global_loads<=N, global_stores<=N) needs N in 1 .. 2^40";
        else if (!(*why = take_sides(t, count, cmp)))
            set_bound(t, count, cmp, v);
    } else if (star && parse_factor(val, (size_t)(star - val), &milli) != 0) {
        *why = "F*BASE needs F a decimal from 0.001 to 1000, with up to 3 places";
    } else if (base == SPEC_BASE_SHARE && (count != SPEC_GLOBAL_STORES || cmp != '<')) {
        *why = "share bounds global stores from above: global_stores<=K*share";
    } else if (base == SPEC_BASE_THEOREM && (count != SPEC_CONFLICTS || cmp != '>')) {
        *why = "theorem bounds conflicts from below: conflicts>=theorem";
    } else if (t->nrel == SPEC_MAX_RELS) {
        *why = "too many formula bounds";
    } else if (!(*why = take_sides(t, count, cmp))) {
        t->rel[t->nrel++] = (spec_rel){count, cmp, base, milli};
        if (base == SPEC_BASE_SHARE)
            t->stores_per_share = (int)((milli + 999) / 1000);
    }
    return 1;
}

/* Applies one key=value of a test line; returns NULL or what is wrong. */
static const char *test_option(spec_test *t, char *kv)
{
    char *eq = strchr(kv, '=');
    if (!eq)
        return "test options must be key=value";
    *eq = '\0';
    const char *key = kv, *val = eq + 1;
    const char *why;
    if (input_option(t, key, val, &why) || launch_option(t, key, val, &why) || bound_option(t, key, val, &why))
        return why;
    long long v;
    size_t len = strlen(val);
    if (strcmp(key, "gpu_slack") == 0) {
        if (len > 7 && strcmp(val + len - 7, "*rounds") == 0) {
            char k[16]; /* gpu_slack=K*rounds: computed from u (finish_test) */
            snprintf(k, sizeof k, "%.*s", (int)(len - 7), val);
            if (parse_num(k, 1, 1024, &v))
                return "gpu_slack=K*rounds needs K in 1 .. 1024";
            t->gpu_slack_per_round = (int)v;
        } else if (parse_num(val, 0, 1 << 20, &v)) {
            return "gpu_slack must lie in 0 .. 2^20";
        } else {
            t->gpu_slack = v;
        }
    } else if (strcmp(key, "tolerance") == 0) {
        char num[16];
        snprintf(num, sizeof num, "%s", val);
        len = strlen(num);
        if (len > 0 && num[len - 1] == '%')
            num[len - 1] = '\0';
        if (parse_num(num, 0, 100, &v))
            return "tolerance must be a percentage, 0 .. 100";
        t->tolerance_pct = (int)v;
    } else {
        return "unknown test option";
    }
    return NULL;
}

/* The launch keys the test's op takes (spec.h): NULL, or what is wrong. */
static const char *launch_shape(const spec_test *t, int is_sort, int is_worst)
{
    if (t->tile && (is_sort || is_worst))
        return "tile= is now E= (keys per thread) for op=sort and op=worst";
    if (is_worst) {
        if (t->blocks != 0 || t->u != 0 || t->w < 2 || t->E < 2 || t->E > t->w || t->part == 0)
            return "op=worst needs w, E (1 < E <= w) and part, and no blocks or u";
        if (t->sides[SPEC_CONFLICTS] && t->w != 32)
            return "op=worst measures its merge (a conflict threshold) only with w=32, the GPU's banks";
        return NULL;
    }
    if (t->part)
        return "part goes with op=worst";
    if (t->w)
        return "w goes with op=worst; threads per block are u";
    if (strcmp(t->op, "pbs") == 0) {
        if (t->blocks == 0 || t->u == 0 || t->u % 32 != 0 || t->tile || t->E || t->m < 1 || t->alg > 2)
            return "op=pbs needs m >= 1 keys, blocks, and u a multiple of 32 (no tile or E), and alg pbs, cf or cl";
    } else if (is_sort) {
        if (t->blocks != 0 || t->u == 0 || t->E == 0 || t->n != 0 || (t->alg != 1 && t->alg != 3))
            return "op=sort needs m keys (no n), u and E without blocks, and alg baseline or cf";
    } else if (strcmp(t->op, "co_rank") == 0) {
        if (t->blocks || t->u || t->E || t->tile)
            return "op=co_rank takes no launch";
    } else if ((t->blocks > 0) != (t->u > 0) || ((t->tile || t->E) && t->blocks == 0)) {
        return "blocks and u go together, and tile or E with them";
    } else if (t->tile && t->E) {
        return "tile= (labs 4, 5: keys staged in shared memory) or E= (lab 7: keys per thread), not both";
    }
    return NULL;
}

/* pbs_kernel's warp-queries (spec.h, warpq): each warp answers a query a round while its first thread has one. */
static long long pbs_warp_queries(const spec_test *t)
{
    long long stride = (long long)t->blocks * t->u, queries = 0;
    for (long long g = 0; g < stride && g < t->n; g += 32)
        queries += (t->n - g + stride - 1) / stride;
    return queries;
}

/* log2 of J, PBS-CF's stage-1 positions per lane: the smallest power of two >= max(2, (K + 31) / 32 + 1). */
static int pbs_log2_positions(long long K)
{
    long long need = (K + 31) / 32 + 1;
    int lg = 1;
    while ((1LL << lg) < need)
        lg++;
    return lg;
}

/* The value of a formula base for the test (spec.h); NULL, or what is wrong: the base does not go with its op. */
static const char *base_value(const spec_test *t, int base, long long *v)
{
    int merge = strcmp(t->op, "merge") == 0, pbs = strcmp(t->op, "pbs") == 0, sort = strcmp(t->op, "sort") == 0;
    long long warps = (t->u + 31) / 32, rounds = 0;
    while ((2LL << rounds) <= t->u)
        rounds++;
    if (base == SPEC_BASE_SHARE) {
        if (!merge || t->blocks == 0)
            return "global_stores<=K*share needs op=merge with its launch (blocks=, u=)";
        long long threads = (long long)t->blocks * t->u, share = (t->m + t->n + threads - 1) / threads;
        *v = t->blocks * warps * share;
    } else if (base == SPEC_BASE_WARPQ || base == SPEC_BASE_READS) {
        if (!pbs || (base == SPEC_BASE_READS && t->alg != 1 && t->alg != 2))
            return base == SPEC_BASE_WARPQ ? "warpq goes with op=pbs" : "reads goes with op=pbs and alg cf or cl";
        *v = pbs_warp_queries(t);
        if (base == SPEC_BASE_READS)
            *v *= pbs_log2_positions(t->m) + (t->alg == 1 ? 32 : 5);
    } else if (base == SPEC_BASE_PROBE_LOADS) {
        if (!(merge && t->E) && !sort)
            return "probe_loads goes with op=merge with E (lab 7's probe) and op=sort (lab 9's)";
        *v = t->E * warps * (sort ? rounds : 1);
    } else if (base == SPEC_BASE_THEOREM) {
        if (strcmp(t->op, "worst") != 0)
            return "theorem goes with op=worst";
        *v = kit_worst_theorem(t->w, t->E) - (t->E + 2);
    } else {
        return "ref is known only once the reference has run (spec_apply_ref)";
    }
    return NULL;
}

/* Computes the test's formula bounds from its keys, leaving the ref ones in rel[]; NULL, or what is wrong. */
static const char *resolve_formulas(spec_test *t)
{
    int kept = 0;
    for (int r = 0; r < t->nrel; r++) {
        const spec_rel *b = &t->rel[r];
        long long v;
        if (b->base == SPEC_BASE_REF) {
            t->rel[kept++] = *b;
            continue;
        }
        const char *why = base_value(t, b->base, &v);
        if (why)
            return why;
        set_bound(t, b->count, b->cmp, scaled(b->milli, v, b->cmp));
    }
    t->nrel = kept;
    return NULL;
}

/*
 * The rules of a launch beyond its keys: it must fit a block's shared memory (an estimate above
 * what every lab's kernel asks for), and lab 7's measured probe gathers the first full tile.
 * NULL, or what is wrong.
 */
static const char *launch_rules(const spec_test *t, int is_sort)
{
    long long size = (long long)kit_type_size(t->type), u = t->u, E = t->E, bytes = 0;
    int merge = strcmp(t->op, "merge") == 0;
    if (strcmp(t->op, "pbs") == 0)
        bytes = (t->m + 64 + u) * size;
    else if (is_sort)
        bytes = (u * E + u * E / 32 + 1) * size;
    else if (merge && t->tile)
        bytes = (3LL * t->tile + t->tile / 32 + 64) * size + (u + 3) * 4;
    else if (merge && E)
        bytes = (u * E + u * E / 32 + 64) * size;
    if (bytes > SHARED_LIMIT) {
        snprintf(line_why, sizeof line_why, "the launch needs about %lld bytes of shared memory, more than the %d a "
                 "block may have", bytes, SHARED_LIMIT);
        return line_why;
    }
    if (merge && E && spec_test_measured(t) && t->m + t->n < u * E)
        return "lab 7's measured probe gathers the first full tile: a measured op=merge with E needs m + n >= u * E";
    return NULL;
}

/* The rules every test keeps once its keys are read (spec.h); computes its formula bounds. NULL, or what is wrong. */
static const char *finish_test(spec_test *t)
{
    if (t->op[0] == '\0')
        return "test needs op=";
    if (t->m + t->n > (1LL << 28))
        return "m + n must not exceed 2^28";
    int is_sort = strcmp(t->op, "sort") == 0, is_worst = strcmp(t->op, "worst") == 0;
    int conflicts = t->sides[SPEC_CONFLICTS] != 0;
    const char *bad = launch_shape(t, is_sort, is_worst);
    if (bad || (bad = resolve_formulas(t)))
        return bad;
    if (spec_test_measured(t) && t->blocks == 0 && !is_sort && !is_worst)
        return "a conflict threshold or access bound needs the kernel's launch (blocks=, u=)";
    if ((t->tolerance_pct || t->gpu_slack || t->gpu_slack_per_round || t->arch[0]) && !conflicts)
        return "tolerance, gpu_slack and arch go with a conflict threshold";
    if (t->kernel[0] && !spec_test_measured(t))
        return "kernel goes with a conflict threshold or an access bound";
    if (is_worst && spec_test_measured(t) && (!t->conflict_cmp || t->nrel))
        return "op=worst takes a conflict threshold (a number or theorem), not access bounds or ref";
    if ((t->gpu_slack || t->gpu_slack_per_round) && t->sides[SPEC_CONFLICTS] == 1)
        return "gpu_slack goes with conflicts<=N or conflicts==N";
    if (t->gpu_slack_per_round) {
        if (!is_sort)
            return "gpu_slack=K*rounds goes with op=sort (a launch of its probe a round)";
        for (int u = t->u; u > 1; u /= 2)
            t->gpu_slack += t->gpu_slack_per_round;
    }
    return launch_rules(t, is_sort);
}

/* A fresh test: a test line's defaults. */
static void test_init(spec_test *t, int task, int hidden, const char *name)
{
    memset(t, 0, sizeof *t);
    t->type = KIT_TYPE_I32;
    t->gen = KIT_GEN_RANDOM;
    t->seed = 1;
    t->task = task;
    t->hidden = hidden;
    snprintf(t->name, sizeof t->name, "%.*s", (int)sizeof t->name - 1, name); /* callers keep names short */
}

/* Is name a test's, or one a draw line will give (NAME-1 .. NAME-COUNT)? */
static int name_taken(const spec_lab *lab, const char *name)
{
    for (int x = 0; x < lab->ntests; x++)
        if (strcmp(lab->tests[x].name, name) == 0)
            return 1;
    for (int d = 0; d < lab->ndraws; d++) {
        size_t len = strlen(lab->draws[d].name);
        long long i;
        if (strncmp(name, lab->draws[d].name, len) == 0 && name[len] == '-' &&
            parse_num(name + len + 1, 1, lab->draws[d].count, &i) == 0)
            return 1;
    }
    return 0;
}

/* The tests the lab will hold: its tests, and those its draw lines will add. */
static int tests_planned(const spec_lab *lab)
{
    int n = lab->ntests;
    for (int d = 0; d < lab->ndraws; d++)
        n += lab->drawn ? 0 : lab->draws[d].count;
    return n;
}

static const char *parse_test(spec_lab *lab, int hidden_file, char *save)
{
    char *task = strtok_r(NULL, " \t", &save), *vis = strtok_r(NULL, " \t", &save),
         *name = strtok_r(NULL, " \t", &save);
    if (!task || !vis || !name)
        return "test needs: TASK public|hidden NAME key=value...";
    if (tests_planned(lab) >= SPEC_MAX_TESTS)
        return "too many tests";
    spec_test *t = &lab->tests[lab->ntests];
    int tk = spec_find_task(lab, task);
    if (tk < 0)
        return "test names an undeclared task";
    if (strcmp(vis, "public") != 0 && strcmp(vis, "hidden") != 0)
        return "visibility must be public or hidden";
    int hidden = strcmp(vis, "hidden") == 0;
    if (hidden != hidden_file)
        return hidden_file ? "a hidden spec may only hold hidden tests" : "hidden tests belong in grader/hidden/";
    if (!plain_name(name, sizeof t->name))
        return "test name must be plain (letters, digits, - _ .)";
    if (name_taken(lab, name))
        return "duplicate test name";
    test_init(t, tk, hidden, name);
    for (char *kv; (kv = strtok_r(NULL, " \t", &save));) {
        const char *bad = test_option(t, kv);
        if (bad)
            return bad;
    }
    const char *bad = finish_test(t);
    if (bad)
        return bad;
    lab->ntests++;
    return NULL;
}

int spec_test_global(const spec_test *t)
{
    int ref = 0;
    for (int r = 0; r < t->nrel; r++)
        ref |= t->rel[r].count == SPEC_GLOBAL_LOADS || t->rel[r].count == SPEC_GLOBAL_STORES ||
               t->rel[r].count == SPEC_THREAD_LOADS || t->rel[r].count == SPEC_THREAD_STORES;
    return ref || t->max_global_loads > 0 || t->max_global_stores > 0 || t->min_global_loads > 0 ||
           t->min_global_stores > 0 || t->max_thread_loads > 0 || t->max_thread_stores > 0;
}

int spec_test_measured(const spec_test *t)
{
    return t->conflict_cmp || t->nrel > 0 || t->min_loads > 0 || t->max_loads > 0 || t->min_shared_stores > 0 ||
           t->max_shared_stores > 0 || spec_test_global(t);
}

int spec_test_needs_ref(const spec_test *t)
{
    for (int r = 0; r < t->nrel; r++)
        if (t->rel[r].base == SPEC_BASE_REF)
            return 1;
    return 0;
}

void spec_apply_ref(spec_test *t, const spec_counts *ref)
{
    int kept = 0;
    for (int r = 0; r < t->nrel; r++) {
        const spec_rel *b = &t->rel[r];
        if (b->base == SPEC_BASE_REF && b->count >= 0 && b->count < SPEC_NCOUNTS)
            set_bound(t, b->count, b->cmp, scaled(b->milli, ref->v[b->count], b->cmp));
        else
            t->rel[kept++] = *b;
    }
    t->nrel = kept;
}

/* ---- draw lines (spec.h) ------------------------------------------------------------------------ */

#define DRAW_ITEMS 32 /* items a choice may have */
#define DRAW_KEYS 32  /* keys a draw line may give */

/* The keys a draw line may draw: a test line's input and launch keys. */
static const char *const DRAWN_KEYS[] = {"op",    "type", "m", "n", "gen", "seed", "ranks", "check", "queries",
                                         "blocks", "u",   "w", "E", "tile", "alg", "part", "timeout"};

/* An item of a choice: a value as written, or a range [lo..hi]. */
typedef struct draw_item {
    int range;
    long long lo, hi;
    char text[40];
} draw_item;

/* One key of a draw line: a word applied as written (nitems 0), or a choice of items. */
typedef struct draw_key {
    char word[160];       /* the key=value word, for a key that is not drawn */
    char key[24];         /* the key, for a drawn one */
    int nitems;
    draw_item items[DRAW_ITEMS];
    long long every_div;  /* every=: the key's place in the combination number (0: not stratified) */
} draw_key;

/* A draw line's words, read. */
typedef struct draw_plan {
    draw_key keys[DRAW_KEYS];
    int nkeys;
    long long combos; /* P: the combinations every= asks for (1 without it) */
    int has_seed;     /* the line gives seed */
} draw_plan;

/* Does key=value hold for a test line (a fresh one)? NULL, or what is wrong. */
static const char *try_option(const char *key, const char *value)
{
    spec_test t;
    char kv[200];
    test_init(&t, 0, 1, "x");
    snprintf(kv, sizeof kv, "%s=%s", key, value);
    return test_option(&t, kv);
}

/* Reads an item of KEY's choice: a value, or [LO..HI]; NULL, or what is wrong. */
static const char *parse_item(const char *key, const char *text, size_t len, draw_item *it)
{
    memset(it, 0, sizeof *it);
    if (len == 0 || len >= sizeof it->text)
        return "an item of a choice is a value or a range [LO..HI]";
    memcpy(it->text, text, len);
    it->text[len] = '\0';
    if (it->text[0] != '[')
        return strpbrk(it->text, "{}[],") ? "a choice reads {V1,V2,...}, each a value or a range [LO..HI]"
                                           : try_option(key, it->text);
    char *dots = strstr(it->text, ".."), lo[24], hi[24];
    if (!dots || it->text[len - 1] != ']' || dots - it->text - 1 >= (long)sizeof lo ||
        it->text + len - 1 - (dots + 2) >= (long)sizeof hi)
        return "a range reads [LO..HI]";
    snprintf(lo, sizeof lo, "%.*s", (int)(dots - it->text - 1), it->text + 1);
    snprintf(hi, sizeof hi, "%.*s", (int)(it->text + len - 1 - (dots + 2)), dots + 2);
    if (parse_num(lo, 0, 1LL << 62, &it->lo) || parse_num(hi, 0, 1LL << 62, &it->hi) || it->lo > it->hi)
        return "a range [LO..HI] needs whole numbers LO <= HI";
    it->range = 1;
    const char *why = try_option(key, lo);
    return why ? why : try_option(key, hi);
}

/* Reads a drawn key's value: a value, {items}, or [LO..HI]; NULL, or what is wrong. */
static const char *parse_choice(draw_key *k, const char *val)
{
    size_t len = strlen(val);
    if (val[0] != '{')
        return (k->nitems = 1, parse_item(k->key, val, len, &k->items[0]));
    if (len < 3 || val[len - 1] != '}')
        return "a choice reads {V1,V2,...}";
    for (const char *p = val + 1; p < val + len - 1;) {
        const char *end = p;
        while (end < val + len - 1 && *end != ',')
            end++;
        if (k->nitems == DRAW_ITEMS)
            return "a choice has at most 32 items";
        const char *why = parse_item(k->key, p, (size_t)(end - p), &k->items[k->nitems++]);
        if (why)
            return why;
        p = end + 1;
    }
    return NULL;
}

/* Sets every=KEY,...: each key's place in the combination number, and P. NULL, or what is wrong. */
static const char *parse_every(draw_plan *p, const char *list)
{
    char names[160];
    snprintf(names, sizeof names, "%s", list);
    char *save = NULL;
    for (char *name = strtok_r(names, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        int k = 0;
        while (k < p->nkeys && !(p->keys[k].nitems && strcmp(p->keys[k].key, name) == 0))
            k++;
        if (k == p->nkeys || p->keys[k].every_div) {
            snprintf(line_why, sizeof line_why, "every= names %.40s, which the line does not draw (or names twice)", name);
            return line_why;
        }
        p->keys[k].every_div = p->combos;
        p->combos *= p->keys[k].nitems;
        if (p->combos > SPEC_MAX_DRAWN)
            return "every= asks for more combinations than a line may draw tests";
    }
    return NULL;
}

/* Reads a draw line's key=value words into p; NULL, or what is wrong. */
static const char *parse_plan(const char *options, draw_plan *p)
{
    char text[SPEC_DRAW_TEXT], every[160] = "";
    snprintf(text, sizeof text, "%s", options);
    memset(p, 0, sizeof *p);
    p->combos = 1;
    char *save = NULL;
    for (char *word = strtok_r(text, " \t", &save); word; word = strtok_r(NULL, " \t", &save)) {
        char *eq = strchr(word, '=');
        if (!eq)
            return "test options must be key=value";
        *eq = '\0';
        const char *key = word, *val = eq + 1, *why;
        if (strcmp(key, "every") == 0) {
            snprintf(every, sizeof every, "%s", val);
            continue;
        }
        if (p->nkeys == DRAW_KEYS)
            return "too many keys on one draw line";
        draw_key *k = &p->keys[p->nkeys];
        memset(k, 0, sizeof *k);
        int drawn = 0;
        for (size_t d = 0; d < sizeof DRAWN_KEYS / sizeof DRAWN_KEYS[0]; d++)
            drawn |= strcmp(key, DRAWN_KEYS[d]) == 0;
        for (int o = 0; drawn && o < p->nkeys; o++)
            if (p->keys[o].nitems && strcmp(p->keys[o].key, key) == 0)
                return "a key given twice";
        if (drawn) {
            snprintf(k->key, sizeof k->key, "%s", key);
            if ((why = parse_choice(k, val)))
                return why;
            p->has_seed |= strcmp(key, "seed") == 0;
        } else if (val[0] == '{' || val[0] == '[') {
            return "bounds, kernel, arch, tolerance and gpu_slack take one value on a draw line, the same for all its tests";
        } else {
            *eq = '=';
            if (strlen(word) >= sizeof k->word)
                return "a key=value word too long";
            snprintf(k->word, sizeof k->word, "%s", word);
            spec_test t;
            char kv[sizeof k->word];
            test_init(&t, 0, 1, "x");
            snprintf(kv, sizeof kv, "%s", word);
            if ((why = test_option(&t, kv)))
                return why;
        }
        p->nkeys++;
    }
    return every[0] ? parse_every(p, every) : NULL;
}

/*
 * Draws test i (1-based) of the line into t: for i <= P the combination `combo` of its every= keys,
 * free draws of the rest; a test that breaks a rule is drawn again. NULL, or the last draw's
 * reason after SPEC_DRAW_TRIES.
 */
static const char *draw_one(const spec_draw *d, const draw_plan *p, long long combo, int i, draw_stream *s, spec_test *t)
{
    const char *why = NULL;
    char name[SPEC_NAME + 16], kv[200]; /* NAME (at most 43) and "-64" fit in SPEC_NAME */
    snprintf(name, sizeof name, "%s-%d", d->name, i);
    for (int attempt = 0; attempt < SPEC_DRAW_TRIES; attempt++) {
        test_init(t, d->task, 1, name);
        why = NULL;
        for (int k = 0; k < p->nkeys && !why; k++) {
            const draw_key *key = &p->keys[k];
            if (key->nitems == 0) {
                snprintf(kv, sizeof kv, "%s", key->word);
            } else {
                long long item = combo >= 0 && key->every_div ? combo / key->every_div % key->nitems
                                                              : (long long)draw_below(s, (uint64_t)key->nitems);
                const draw_item *it = &key->items[item];
                if (it->range)
                    snprintf(kv, sizeof kv, "%s=%lld", key->key,
                             it->lo + (long long)draw_below(s, (uint64_t)(it->hi - it->lo) + 1));
                else
                    snprintf(kv, sizeof kv, "%s=%s", key->key, it->text);
            }
            why = test_option(t, kv);
        }
        if (!why && !p->has_seed) {
            snprintf(kv, sizeof kv, "seed=%llu", (unsigned long long)draw_below(s, 1ULL << 62));
            why = test_option(t, kv);
        }
        if (!why && !(why = finish_test(t)))
            return NULL;
    }
    return why;
}

/* Draws the line's tests into out (d->count of them) from the key; NULL, or what is wrong. */
static const char *draw_line(const spec_draw *d, const unsigned char key[DRAW_KEY_BYTES], spec_test *out)
{
    static draw_plan p; /* large; a spec is read and drawn by one thread */
    const char *why = parse_plan(d->options, &p);
    if (why)
        return why;
    draw_stream s;
    draw_stream_init(&s, key, d->name);
    long long order[SPEC_MAX_DRAWN];
    for (long long c = 0; c < p.combos; c++)
        order[c] = c;
    for (long long c = p.combos - 1; c > 0; c--) { /* the combinations in a drawn order */
        long long j = (long long)draw_below(&s, (uint64_t)c + 1), tmp = order[c];
        order[c] = order[j];
        order[j] = tmp;
    }
    for (int i = 1; i <= d->count; i++)
        if ((why = draw_one(d, &p, i <= p.combos ? order[i - 1] : -1, i, &s, &out[i - 1]))) {
            snprintf(line_why, sizeof line_why, "no test %s-%d drawn in %d tries keeps the rules (the last: %s)", d->name,
                     i, SPEC_DRAW_TRIES, why);
            return line_why;
        }
    return NULL;
}

/* A draw line: TASK NAME COUNT key=value..., tried once with a fixed key. Returns NULL or what is wrong. */
static const char *parse_draw(spec_lab *lab, const char *where, char *save)
{
    char *task = strtok_r(NULL, " \t", &save), *name = strtok_r(NULL, " \t", &save),
         *count = strtok_r(NULL, " \t", &save);
    long long c;
    if (!task || !name || !count)
        return "draw needs: TASK NAME COUNT key=value...";
    if (lab->ndraws == SPEC_MAX_DRAWS)
        return "too many draw lines";
    spec_draw *d = &lab->draws[lab->ndraws];
    memset(d, 0, sizeof *d);
    if ((d->task = spec_find_task(lab, task)) < 0)
        return "draw names an undeclared task";
    if (!plain_name(name, sizeof d->name))
        return "a draw's name must be plain (letters, digits, - _ .) and at most 43 characters";
    if (parse_num(count, 1, SPEC_MAX_DRAWN, &c))
        return "a draw's COUNT must lie in 1 .. 64";
    if (tests_planned(lab) + c > SPEC_MAX_TESTS)
        return "too many tests";
    snprintf(d->name, sizeof d->name, "%s", name);
    d->count = (int)c;
    for (int i = 1; i <= d->count; i++) {
        char drawn[SPEC_NAME + 16];
        snprintf(drawn, sizeof drawn, "%s-%d", name, i);
        if (name_taken(lab, drawn))
            return "duplicate test name (a draw's tests are NAME-1 .. NAME-COUNT)";
    }
    const char *rest = save ? save : "";
    while (*rest == ' ' || *rest == '\t')
        rest++;
    if (strlen(rest) >= sizeof d->options)
        return "draw line too long";
    snprintf(d->options, sizeof d->options, "%s", rest);
    snprintf(d->where, sizeof d->where, "%s", where);
    static draw_plan p;
    const char *why = parse_plan(d->options, &p);
    if (why)
        return why;
    if (p.combos > d->count) {
        snprintf(line_why, sizeof line_why, "every= asks for %lld combinations, more than the line's %d tests",
                 p.combos, d->count);
        return line_why;
    }
    static spec_test trial[SPEC_MAX_DRAWN];
    static const unsigned char fixed[DRAW_KEY_BYTES];
    if ((why = draw_line(d, fixed, trial)))
        return why;
    lab->ndraws++;
    return NULL;
}

int spec_draw_tests(spec_lab *lab, const unsigned char key[DRAW_KEY_BYTES], char *err, size_t errlen)
{
    if (lab->drawn) {
        snprintf(err, errlen, "%s: drawn already", lab->lab);
        return -1;
    }
    for (int d = 0; d < lab->ndraws; d++) {
        const spec_draw *dr = &lab->draws[d];
        const char *why = lab->ntests + dr->count > SPEC_MAX_TESTS ? "too many tests"
                                                                    : draw_line(dr, key, &lab->tests[lab->ntests]);
        if (why) {
            snprintf(err, errlen, "%s: draw %s: %s", dr->where, dr->name, why);
            return -1;
        }
        lab->ntests += dr->count;
    }
    lab->drawn = 1;
    return 0;
}

/* Copies the rest of a line (after the directive's fixed words) without its leading blanks. */
static void rest_of_line(char *dst, size_t len, char *save)
{
    while (save && (*save == ' ' || *save == '\t'))
        save++;
    snprintf(dst, len, "%s", save ? save : "");
}

/* A lab line: the lab's folder name, equal to the public spec's in a hidden one. Returns NULL or what is wrong. */
static const char *parse_lab(spec_lab *lab, char *save)
{
    char *id = strtok_r(NULL, " \t", &save);
    if (!id || !plain_name(id, sizeof lab->lab))
        return "lab needs a plain folder name";
    if (lab->lab[0] && strcmp(lab->lab, id) != 0)
        return "lab name differs from the public spec's";
    snprintf(lab->lab, sizeof lab->lab, "%s", id);
    return NULL;
}

/* A file line: one file the student edits. Returns NULL or what is wrong. */
static const char *parse_file(spec_lab *lab, char *save)
{
    char *file = strtok_r(NULL, " \t", &save);
    if (!file || !plain_name(file, sizeof lab->files[0]))
        return "file needs a plain file name";
    if (lab->nfiles == SPEC_MAX_FILES)
        return "too many files";
    snprintf(lab->files[lab->nfiles++], sizeof lab->files[0], "%s", file);
    return NULL;
}

/* A uses line: NN-slug/FILE, another lab's file this lab builds on. Returns NULL or what is wrong. */
static const char *parse_uses(spec_lab *lab, char *save)
{
    char *path = strtok_r(NULL, " \t", &save), *slash = path ? strchr(path, '/') : NULL;
    if (!slash || strchr(slash + 1, '/'))
        return "uses needs NN-slug/FILE";
    if (lab->nuses == SPEC_MAX_FILES)
        return "too many uses";
    *slash = '\0';
    if (!plain_name(path, 64) || !plain_name(slash + 1, 64))
        return "uses needs plain names: NN-slug/FILE";
    snprintf(lab->uses[lab->nuses++], sizeof lab->uses[0], "%s/%s", path, slash + 1);
    return NULL;
}

/* A task line: NAME POINTS title. Returns NULL or what is wrong. */
static const char *parse_task(spec_lab *lab, char *save)
{
    char *tname = strtok_r(NULL, " \t", &save), *pts = strtok_r(NULL, " \t", &save);
    long long p;
    if (!tname || !pts || !plain_name(tname, SPEC_NAME) || parse_num(pts, 1, 1000, &p))
        return "task needs: NAME POINTS(1..1000) title";
    if (spec_find_task(lab, tname) >= 0)
        return "duplicate task";
    if (lab->ntasks == SPEC_MAX_TASKS)
        return "too many tasks";
    spec_task *t = &lab->tasks[lab->ntasks++];
    snprintf(t->name, sizeof t->name, "%s", tname);
    t->points = (int)p;
    rest_of_line(t->title, sizeof t->title, save);
    return NULL;
}

/* A public spec is complete: a lab line, a file, a task, and a public test for every task. 0, or -1 with err. */
static int spec_complete(const char *name, const spec_lab *lab, char *err, size_t errlen)
{
    if (lab->lab[0] == '\0' || lab->nfiles == 0 || lab->ntasks == 0) {
        snprintf(err, errlen, "%s: a spec needs a lab line, at least one file and one task", name);
        return -1;
    }
    for (int t = 0; t < lab->ntasks; t++) {
        int tests = 0;
        for (int x = 0; x < lab->ntests; x++)
            tests += lab->tests[x].task == t;
        if (tests == 0) {
            snprintf(err, errlen, "%s: task %s has no public test", name, lab->tasks[t].name);
            return -1;
        }
    }
    return 0;
}

int spec_parse(FILE *f, const char *name, int hidden, spec_lab *lab, char *err, size_t errlen)
{
    char line[1024];
    unsigned lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) { /* cut in two by fgets: its rest would read as another line */
            snprintf(err, errlen, "%s:%u: line too long (at most %zu characters)", name, lineno, sizeof line - 2);
            return -1;
        }
        line[strcspn(line, "\r\n")] = '\0';
        char *save = NULL, *word = strtok_r(line, " \t", &save);
        const char *bad = NULL;
        if (!word || word[0] == '#')
            continue;
        if (strcmp(word, "test") == 0) {
            bad = parse_test(lab, hidden, save);
        } else if (strcmp(word, "draw") == 0 && hidden) {
            char where[sizeof lab->draws[0].where];
            size_t len = strlen(name), keep = sizeof where - 12; /* a long path keeps its end */
            snprintf(where, sizeof where, "%s:%u", len > keep ? name + len - keep : name, lineno);
            bad = parse_draw(lab, where, save);
        } else if (strcmp(word, "draw") == 0) {
            bad = "draw lines belong in grader/hidden/ (their tests are hidden)";
        } else if (strcmp(word, "lab") == 0) {
            bad = parse_lab(lab, save);
        } else if (hidden) {
            bad = "a hidden spec may only hold lab, test and draw lines";
        } else if (strcmp(word, "title") == 0) {
            rest_of_line(lab->title, sizeof lab->title, save);
        } else if (strcmp(word, "file") == 0) {
            bad = parse_file(lab, save);
        } else if (strcmp(word, "uses") == 0) {
            bad = parse_uses(lab, save);
        } else if (strcmp(word, "task") == 0) {
            bad = parse_task(lab, save);
        } else if (strcmp(word, "visibility") != 0) { /* Gradescope's, read by report_visibility_read() (report.h) */
            bad = "unknown directive";
        }
        if (bad) {
            snprintf(err, errlen, "%s:%u: %s", name, lineno, bad);
            return -1;
        }
    }
    return hidden ? 0 : spec_complete(name, lab, err, errlen);
}

/*
 * The distinct (type, E) pairs of the lab's merge and sort tests, in the order they first appear,
 * into type[] and E[] (room for SPEC_MAX_TESTS), and each test's pair in pair_of[] (-1: a test of
 * another op). Returns their number, 0 when there is none or a test leaves E to the runner's default
 * (or asks for one no mask holds): then the runner is built for every pair.
 */
static int distinct_pairs(const spec_lab *lab, int *type, int *E, int *pair_of)
{
    int n = 0;
    for (int x = 0; x < lab->ntests; x++) {
        const spec_test *t = &lab->tests[x];
        pair_of[x] = -1;
        if (strcmp(t->op, "merge") != 0 && strcmp(t->op, "sort") != 0)
            continue;
        if (t->E <= 0 || t->E >= 64 || t->type < KIT_TYPE_I32 || t->type > KIT_TYPE_KV32)
            return 0;
        int p = 0;
        while (p < n && !(type[p] == (int)t->type && E[p] == t->E))
            p++;
        if (p == n)
            type[n] = (int)t->type, E[n++] = t->E;
        pair_of[x] = p;
    }
    return n;
}

/* The flags that build a runner for the pairs p of type[] and E[] with p % groups == g. */
static void pair_flags(const int *type, const int *E, int n, int g, int groups, char *buf, size_t len)
{
    unsigned long long mask[4] = {0, 0, 0, 0}; /* by kit_type: I32 1, I64 2, KV32 3 */
    for (int p = g; p < n; p += groups)
        mask[type[p]] |= 1ULL << E[p];
    snprintf(buf, len, "-DKIT_RUNNER_E_I32=0x%llxULL -DKIT_RUNNER_E_I64=0x%llxULL -DKIT_RUNNER_E_KV32=0x%llxULL",
             mask[KIT_TYPE_I32], mask[KIT_TYPE_I64], mask[KIT_TYPE_KV32]);
}

int spec_runner_groups(const spec_lab *lab, int groups, char (*flags)[SPEC_PAIR_FLAGS], int *group_of)
{
    int type[SPEC_MAX_TESTS], E[SPEC_MAX_TESTS], pair_of[SPEC_MAX_TESTS];
    int n = distinct_pairs(lab, type, E, pair_of);
    if (groups > n)
        groups = n > 0 ? n : 1;
    if (groups < 1)
        groups = 1;
    if (groups > SPEC_MAX_GROUPS)
        groups = SPEC_MAX_GROUPS;
    for (int g = 0; g < groups; g++) {
        flags[g][0] = '\0';
        if (n > 0)
            pair_flags(type, E, n, g, groups, flags[g], SPEC_PAIR_FLAGS);
    }
    for (int x = 0; x < lab->ntests; x++)
        group_of[x] = n > 0 && pair_of[x] >= 0 ? pair_of[x] % groups : 0;
    return groups;
}
