/* Grading specs: the data file in each lab folder that lists its tasks, points and tests. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"

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

/* Applies one key=value of a test line; returns NULL or what is wrong. */
static const char *test_option(spec_test *t, char *kv)
{
    char *eq = strchr(kv, '=');
    if (!eq)
        return "test options must be key=value";
    *eq = '\0';
    const char *key = kv, *val = eq + 1;
    const char *why;
    if (input_option(t, key, val, &why) || launch_option(t, key, val, &why))
        return why;
    long long v;
    if (strcmp(key, "conflicts<") == 0 || strcmp(key, "conflicts>") == 0 || strcmp(key, "conflicts") == 0) {
        /* conflicts<=N and conflicts>=N split at their '='; conflicts==N leaves "=N" as the value. */
        if (key[9] == '\0' && *val++ != '=')
            return "a conflict threshold reads conflicts<=N, conflicts==N or conflicts>=N";
        if (parse_num(val, 0, 1LL << 40, &v))
            return "a conflict threshold N must lie in 0 .. 2^40";
        t->conflict_cmp = key[9] == '\0' ? '=' : key[9];
        t->conflicts = v;
    } else if (strcmp(key, "loads>") == 0 || strcmp(key, "shared_stores>") == 0 || strcmp(key, "global_loads<") == 0 ||
               strcmp(key, "global_stores<") == 0) {
        /* access bounds on the measured kernel's requests: loads>=N, shared_stores>=N, global_loads<=N, global_stores<=N */
        size_t len = strlen(val);
        if (strcmp(key, "global_stores<") == 0 && len > 6 && strcmp(val + len - 6, "*share") == 0) {
            char k[16]; /* global_stores<=K*share: N follows from the launch (parse_test) */
            snprintf(k, sizeof k, "%.*s", (int)(len - 6), val);
            if (parse_num(k, 1, 32, &v))
                return "global_stores<=K*share needs K in 1 .. 32";
            t->stores_per_share = (int)v;
            return NULL;
        }
        if (parse_num(val, 1, 1LL << 40, &v))
            return "an access bound (loads>=N, shared_stores>=N, global_loads<=N, global_stores<=N) needs N in 1 .. 2^40";
        *(key[0] == 'l' ? &t->min_loads : key[0] == 's' ? &t->min_shared_stores
                          : key[7] == 'l' ? &t->max_global_loads : &t->max_global_stores) = v;
    } else if (strcmp(key, "gpu_slack") == 0) {
        if (parse_num(val, 0, 1 << 20, &v))
            return "gpu_slack must lie in 0 .. 2^20";
        t->gpu_slack = v;
    } else if (strcmp(key, "tolerance") == 0) {
        char num[16];
        snprintf(num, sizeof num, "%s", val);
        size_t len = strlen(num);
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
        if (t->conflict_cmp && t->w != 32)
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

static const char *parse_test(spec_lab *lab, int hidden_file, char *save)
{
    char *task = strtok_r(NULL, " \t", &save), *vis = strtok_r(NULL, " \t", &save),
         *name = strtok_r(NULL, " \t", &save);
    if (!task || !vis || !name)
        return "test needs: TASK public|hidden NAME key=value...";
    if (lab->ntests == SPEC_MAX_TESTS)
        return "too many tests";
    spec_test *t = &lab->tests[lab->ntests];
    memset(t, 0, sizeof *t);
    t->type = KIT_TYPE_I32;
    t->gen = KIT_GEN_RANDOM;
    t->seed = 1;
    if ((t->task = spec_find_task(lab, task)) < 0)
        return "test names an undeclared task";
    if (strcmp(vis, "public") != 0 && strcmp(vis, "hidden") != 0)
        return "visibility must be public or hidden";
    t->hidden = strcmp(vis, "hidden") == 0;
    if (t->hidden != hidden_file)
        return hidden_file ? "a hidden spec may only hold hidden tests" : "hidden tests belong in grader/hidden/";
    if (!plain_name(name, sizeof t->name))
        return "test name must be plain (letters, digits, - _ .)";
    for (int x = 0; x < lab->ntests; x++)
        if (strcmp(lab->tests[x].name, name) == 0)
            return "duplicate test name";
    snprintf(t->name, sizeof t->name, "%s", name);
    for (char *kv; (kv = strtok_r(NULL, " \t", &save));) {
        const char *bad = test_option(t, kv);
        if (bad)
            return bad;
    }
    if (t->op[0] == '\0')
        return "test needs op=";
    if (t->m + t->n > (1LL << 28))
        return "m + n must not exceed 2^28";
    int is_sort = strcmp(t->op, "sort") == 0, is_worst = strcmp(t->op, "worst") == 0;
    if (t->stores_per_share) {
        if (strcmp(t->op, "merge") != 0 || t->blocks == 0 || t->max_global_stores)
            return "global_stores<=K*share needs op=merge with its launch (blocks=, u=), and no other global_stores";
        long long threads = (long long)t->blocks * t->u, warps = (long long)t->blocks * ((t->u + 31) / 32);
        long long share = (t->m + t->n + threads - 1) / threads;
        t->max_global_stores = share > 0 ? t->stores_per_share * warps * share : 1;
    }
    if (spec_test_measured(t) && t->blocks == 0 && !is_sort && !is_worst)
        return "a conflict threshold or access bound needs the kernel's launch (blocks=, u=)";
    if ((t->tolerance_pct || t->gpu_slack || t->arch[0]) && !t->conflict_cmp)
        return "tolerance, gpu_slack and arch go with a conflict threshold";
    if (t->kernel[0] && !spec_test_measured(t))
        return "kernel goes with a conflict threshold or an access bound";
    if (is_worst && spec_test_measured(t) && !t->conflict_cmp)
        return "op=worst takes a conflict threshold, not access bounds";
    if (t->gpu_slack && t->conflict_cmp == '>')
        return "gpu_slack goes with conflicts<=N or conflicts==N";
    const char *bad = launch_shape(t, is_sort, is_worst);
    if (bad)
        return bad;
    lab->ntests++;
    return NULL;
}

int spec_test_global(const spec_test *t)
{
    return t->max_global_loads > 0 || t->max_global_stores > 0;
}

int spec_test_measured(const spec_test *t)
{
    return t->conflict_cmp || t->min_loads > 0 || t->min_shared_stores > 0 || spec_test_global(t);
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
        line[strcspn(line, "\r\n")] = '\0';
        char *save = NULL, *word = strtok_r(line, " \t", &save);
        const char *bad = NULL;
        if (!word || word[0] == '#')
            continue;
        if (strcmp(word, "test") == 0)
            bad = parse_test(lab, hidden, save);
        else if (strcmp(word, "lab") == 0)
            bad = parse_lab(lab, save);
        else if (hidden)
            bad = "a hidden spec may only hold lab and test lines";
        else if (strcmp(word, "title") == 0)
            rest_of_line(lab->title, sizeof lab->title, save);
        else if (strcmp(word, "file") == 0)
            bad = parse_file(lab, save);
        else if (strcmp(word, "uses") == 0)
            bad = parse_uses(lab, save);
        else if (strcmp(word, "task") == 0)
            bad = parse_task(lab, save);
        else if (strcmp(word, "visibility") != 0) /* Gradescope's, read by report_visibility_read() (report.h) */
            bad = "unknown directive";
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
