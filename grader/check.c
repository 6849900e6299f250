/* Runs one spec test through a lab runner and judges the reply against the grader's own reference. */
#define _GNU_SOURCE /* fchown, pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "kit_bank.h"
#include "kit_mem.h"
#include "counts.h"
#include "kit_ncu.h"
#include "06-predecessor-search/harness/pbs_host.h"
#include "kit_proto.h"
#include "kit_request.h"
#include "answers.h"
#include "kit_check.h"
#include "08-worst-case/harness/worst_host.h"
#include "kit_trace.h"
#include "sandbox.h"

const char *verdict_name(verdict v)
{
    static const char *const names[] = {"pass", "wrong", "timeout", "crash", "compile", "not-attempted", "error"};
    return (unsigned)v < sizeof names / sizeof names[0] ? names[v] : "error";
}

static void set(check_result *r, verdict v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    r->v = v;
    vsnprintf(r->detail, sizeof r->detail, fmt, ap);
    va_end(ap);
}

/* One test's scratch files, inputs and reply, shared by check_test's steps; check_test frees the buffers. */
typedef struct check_job {
    char req_path[4200], res_path[4200], err_path[4200], trace[4200], csv[4200], sanitizer_log[4200];
    const struct check_op *op; /* what the test's op does differently */
    size_t size, m, n;
    int measured; /* the test has a threshold the runner's measured kernel is judged on */
    int profiled; /* ncu runs it, or the CPU runner streams its accesses */
    kit_request req; /* what the runner is asked: the op's pack fills it */
    void *A, *B, *rC, *rA, *rB;
    int64_t *R;
    sb_view view; /* what the runner sees: its folder, and the run folder (writable in GPU mode, for ncu's and compute-sanitizer's logs) */
} check_job;

/* What check_test does differently for each op: one entry of check_ops per op. */
typedef struct check_op {
    const char *name;   /* the spec's op= */
    kit_op op;          /* the request's op */
    const char *kernel; /* the measured kernel when the spec names none; "." measures every launch */
    /* Generates A and B (allocated) from the test's seed; returns 0 or -1. */
    int (*generate)(const spec_test *t, check_job *j);
    /* Fills the op's fields of j->req (the common ones are set); returns 0, or -1 when out of memory. */
    int (*pack)(const spec_test *t, check_job *j);
    /* The reply's shape: want->c, C's elements (guards included), and want->r, the int64 results. */
    void (*reply)(const spec_test *t, const check_job *j, kit_res *want);
    /* Judges the output, canaries first, once the inputs were found untouched: sets out's verdict. */
    void (*judge)(const spec_test *t, const check_job *j, check_result *out);
} check_op;

/* The entry of the test's op, or NULL for an op the grader does not know. */
static const check_op *op_of(const spec_test *t);

/* The ranks a co_rank test queries: every rank, or `ranks` of them spread evenly with 0 and m + n included. */
static int64_t *choose_ranks(const spec_test *t, uint64_t *q)
{
    uint64_t total = (uint64_t)(t->m + t->n);
    uint64_t count = t->ranks == 0 || (uint64_t)t->ranks > total + 1 ? total + 1 : (uint64_t)t->ranks;
    if (count < 2)
        count = total + 1 < 2 ? total + 1 : 2;
    int64_t *ranks = malloc(count * sizeof *ranks);
    if (!ranks)
        return NULL;
    for (uint64_t x = 0; x < count; x++)
        ranks[x] = count == 1 ? 0 : (int64_t)(x * total / (count - 1));
    *q = count;
    return ranks;
}

/* First line of a file, for messages; empty if none. */
static void first_line(const char *path, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    if (fgets(buf, (int)len, f))
        buf[strcspn(buf, "\r\n")] = '\0';
    fclose(f);
}

/*
 * The canaries around a merge's C: KIT_GUARD_ELEMS elements on each side of
 * `total`, every byte KIT_GUARD_BYTE. Returns 0 when all are intact, else
 * -1 with the changed element nearest to C named in out.
 */
/*
 * The canaries around the output, checked in the grader's own process. For a merge they surround
 * C (total elements of `size` bytes); for pbs (answers = 1) they surround the int answers and are
 * reported in bytes.
 */
static int check_guards(const unsigned char *C, size_t total, size_t size, int answers, check_result *out)
{
    size_t guard = (size_t)KIT_GUARD_ELEMS * size;
    for (size_t b = guard; b-- > 0;) /* before C, nearest first */
        if (C[b] != KIT_GUARD_BYTE) {
            if (answers)
                set(out, V_WRONG, "out-of-bounds write: %zu bytes before the answers, was changed", guard - b);
            else
                set(out, V_WRONG, "out-of-bounds write: C[-%zu], before the output, was changed", (guard - b - 1) / size + 1);
            return -1;
        }
    const unsigned char *after = C + guard + total * size;
    for (size_t b = 0; b < guard; b++)
        if (after[b] != KIT_GUARD_BYTE) {
            if (answers)
                set(out, V_WRONG, "out-of-bounds write: byte %zu past the end of the answers, was changed", b);
            else
                set(out, V_WRONG, "out-of-bounds write: C[%zu], past the end of the output (m + n = %zu), was changed",
                    total + b / size, total);
            return -1;
        }
    return 0;
}

/* The output C inside its canaries. */
static const void *output_of(const check_job *j)
{
    return (const char *)j->rC + (size_t)KIT_GUARD_ELEMS * j->size;
}

/* op=merge: C must be the stable merge of A and B, judged by property (kit_check_merge). */
static void judge_merge(const spec_test *t, const check_job *j, check_result *out)
{
    char msg[200];
    if (check_guards(j->rC, j->m + j->n, j->size, 0, out) != 0)
        return;
    if (kit_check_merge(t->type, j->A, j->m, j->B, j->n, output_of(j), msg, sizeof msg) >= 0)
        set(out, V_WRONG, "wrong output at %s", msg);
    else
        set(out, V_PASS, "%s", "pass");
}

/* op=sort: C must be A sorted stably (kv32 values tag the input positions, so stability shows). */
static void judge_sort(const spec_test *t, const check_job *j, check_result *out)
{
    char msg[200];
    if (check_guards(j->rC, j->m + j->n, j->size, 0, out) != 0)
        return;
    if (kit_check_sort(t->type, j->A, output_of(j), j->m, msg, sizeof msg) >= 0)
        set(out, V_WRONG, "wrong output at %s", msg);
    else
        set(out, V_PASS, "%s", "pass");
}

/*
 * op=co_rank: R holds (i, passes reported, comparisons counted) for each queried rank. Every test
 * checks i. A bound test (check=bound) also bounds the comparisons, which the harness counts on
 * its own keys, and the passes the function reports, which must be consistent with them (a pass
 * compares at most twice): an out-parameter cannot talk a slow search under the bound.
 */
static void judge_co_rank(const spec_test *t, const check_job *j, check_result *out)
{
    int bound = kit_co_rank_pass_bound(t->m, t->n);
    const int64_t *R = j->R;
    set(out, V_PASS, "%s", "pass");
    for (uint64_t x = 0; x < j->req.nranks; x++) {
        int64_t k = j->req.ranks[x], i = R[3 * x], passes = R[3 * x + 1], comparisons = R[3 * x + 2];
        char msg[200];
        if (!kit_check_co_rank_answer(t->type, j->A, (size_t)t->m, j->B, (size_t)t->n, k, i, msg, sizeof msg)) {
            set(out, V_WRONG, "wrong output: %s", msg);
            break;
        }
        if (!t->bound)
            continue;
        if (comparisons > 2LL * bound || passes < 1 || passes > bound) {
            set(out, V_WRONG, "over the search bound: co_rank(k=%lld) took %lld passes and %lld comparisons; "
                "bound %d and %d", (long long)k, (long long)passes, (long long)comparisons, bound, 2 * bound);
            break;
        }
        if (comparisons > 2 * passes) {
            set(out, V_WRONG, "co_rank(k=%lld) reports %lld passes but made %lld comparisons (a pass makes at most 2)",
                (long long)k, (long long)passes, (long long)comparisons);
            break;
        }
    }
}

/* op=pbs: the canaries around the answers (ints), then each answer the last key <= its query. */
static void judge_pbs(const spec_test *t, const check_job *j, check_result *out)
{
    if (check_guards(j->rC, 0, j->size, 1, out) != 0)
        return;
    set(out, V_PASS, "%s", "pass");
    for (long long x = 0; x < t->n; x++) {
        int64_t q = kit_key_at(t->type, j->B, (size_t)x);
        char msg[200];
        if (!kit_check_answer(t->type, j->A, (size_t)t->m, x, q, j->R[x], msg, sizeof msg)) {
            set(out, V_WRONG, "wrong output at %s", msg);
            return;
        }
    }
}

/* Whether a count meets the test's threshold; gpu is 1 when ncu measured it (then gpu_slack applies above N). */
static int meets(const spec_test *t, long long value, int gpu)
{
    long long slack = t->conflicts * t->tolerance_pct / 100, above = slack + (gpu ? t->gpu_slack : 0);
    if (t->conflict_cmp == '<')
        return value <= t->conflicts + above;
    if (t->conflict_cmp == '>')
        return value >= t->conflicts - slack;
    return value >= t->conflicts - slack && value <= t->conflicts + above;
}


/** What a measurement of the measured kernel came to: conflicts, and requests (warp-level instructions). */
typedef struct measured {
    long long conflicts;     /**< shared-memory load conflicts */
    long long loads;         /**< shared-memory load requests */
    long long shared_stores; /**< shared-memory store requests */
    long long global_loads;  /**< global-memory load requests (counted only when the test bounds them) */
    long long global_stores; /**< global-memory store requests (likewise) */
    long long global_store_bytes; /**< CPU mode: the bytes the recorded global stores wrote, thread by thread */
    long long thread_loads;  /**< CPU mode: the most global-memory loads one thread made */
    long long thread_stores; /**< CPU mode: the most global-memory stores one thread made */
    char busiest[80];        /**< CPU mode: "thread 0 of block 2", the thread that made the most of either */
} measured;

/* The counts of m, by spec_count (spec.h): what a bound of the spec names. */
static void counts_of(const measured *m, spec_counts *c)
{
    c->v[SPEC_CONFLICTS] = m->conflicts;
    c->v[SPEC_LOADS] = m->loads;
    c->v[SPEC_SHARED_STORES] = m->shared_stores;
    c->v[SPEC_GLOBAL_LOADS] = m->global_loads;
    c->v[SPEC_GLOBAL_STORES] = m->global_stores;
    c->v[SPEC_THREAD_LOADS] = m->thread_loads;
    c->v[SPEC_THREAD_STORES] = m->thread_stores;
}

/*
 * The most global loads and stores one thread of the launch made, into m (kept when above m's),
 * with the thread's name. A launch of more than 2^26 threads is not counted thread by thread.
 */
static void thread_maxima(const kit_trace_run *run, measured *m)
{
    const kit_trace_launch *l = &run->launch;
    uint64_t per_block = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    uint64_t threads = per_block * l->grid[0] * l->grid[1] * l->grid[2];
    if (run->nglobal == 0 || threads == 0 || threads > (1u << 26))
        return;
    uint32_t *count = calloc(2 * threads, sizeof *count);
    if (!count)
        return;
    for (size_t x = 0; x < run->nglobal; x++) {
        const kit_access *a = &run->global[x];
        uint64_t t = (uint64_t)a->block * per_block + a->thread;
        if (t < threads)
            count[2 * t + (a->write ? 1 : 0)]++;
    }
    for (uint64_t t = 0; t < threads; t++)
        for (int w = 0; w < 2; w++) {
            long long *most = w ? &m->thread_stores : &m->thread_loads;
            if (count[2 * t + w] > (uint64_t)*most) {
                *most = count[2 * t + w];
                snprintf(m->busiest, sizeof m->busiest, "thread %llu of block %llu", (unsigned long long)(t % per_block),
                         (unsigned long long)(t / per_block));
            }
        }
    free(count);
}

/* The kernel a conflict threshold measures: the spec's kernel=, else the op's measured kernel. */
static const char *measured_kernel(const spec_test *t)
{
    if (t->kernel[0])
        return t->kernel;
    return op_of(t) ? op_of(t)->kernel : ".";
}

/* How a verdict names the measured kernel: "the kernel" when a test measures every launch (".", labs
   3-5), else "the measured kernel NAME"; in buf, which it returns. */
static const char *kernel_words(const spec_test *t, char *buf, size_t len)
{
    const char *k = measured_kernel(t);
    if (strcmp(k, ".") == 0)
        snprintf(buf, len, "the kernel");
    else
        snprintf(buf, len, "the measured kernel %s", k);
    return buf;
}

/*
 * CPU mode: the launches of the measured kernel in the runner's trace stream (kit_trace.h), each
 * counted by the simulator on its own (32 banks of 4 bytes). Returns 0, or -1 with the reason.
 */
static int count_from_stream(const spec_test *t, const char *trace, measured *m, char *why, size_t len)
{
    kit_trace_run *runs;
    size_t nruns, launches;
    char err[160] = "";
    if (counts_read_stream(trace, measured_kernel(t), &runs, &nruns, &launches, why, len) != 0)
        return -1;
    int rc = 0;
    memset(m, 0, sizeof *m);
    if (nruns == 0) {
        snprintf(why, len, "the measured kernel %s was never launched (%zu other launches)", measured_kernel(t), launches);
        rc = -1;
    }
    for (size_t r = 0; rc == 0 && r < nruns; r++) {
        kit_bank_model model = {32, 4};
        kit_bank_report rep, grep_;
        if (kit_bank_simulate(&model, runs[r].acc, runs[r].n, &rep, err, sizeof err) != 0 ||
            kit_bank_simulate(&model, runs[r].global, runs[r].nglobal, &grep_, err, sizeof err) != 0) {
            snprintf(why, len, "the simulator refused launch %zu of %.40s: %.100s", r + 1, runs[r].launch.name, err);
            rc = -1;
            break;
        }
        m->conflicts += (long long)rep.load.conflicts;
        m->loads += (long long)rep.load.steps;
        m->shared_stores += (long long)rep.store.steps;
        m->global_loads += (long long)grep_.load.steps; /* a global step: the threads of one instruction */
        m->global_stores += (long long)grep_.store.steps;
        for (size_t x = 0; x < runs[r].nglobal; x++)
            m->global_store_bytes += runs[r].global[x].write ? runs[r].global[x].size : 0;
        thread_maxima(&runs[r], m);
        kit_bank_free(&rep);
        kit_bank_free(&grep_);
    }
    kit_trace_runs_free(runs, nruns);
    return rc;
}

/* GPU mode: ncu's CSV for the measured kernel's launches. Returns 0, or -1 with the reason. */
static int count_from_ncu(const spec_test *t, const check_env *env, const char *csv, const char *err_path, measured *m,
                          char *why, size_t len)
{
    if (!env->ncu) {
        snprintf(why, len, "not measured: %s", env->ncu_why ? env->ncu_why : "no ncu");
        return -1;
    }
    char line[400];
    FILE *e = fopen(err_path, "r");
    int no_counters = 0;
    while (e && fgets(line, sizeof line, e))
        no_counters |= strstr(line, "ERR_NVGPUCTRPERM") != NULL;
    if (e)
        fclose(e);
    if (no_counters) {
        snprintf(why, len, "not measured: ERR_NVGPUCTRPERM, the GPU's counters are not readable");
        return -1;
    }
    kit_ncu_row *rows;
    size_t n;
    if (counts_read_ncu(csv, &rows, &n, "not measured", why, len) != 0)
        return -1;
    int seen = 0;
    memset(m, 0, sizeof *m);
    for (size_t x = 0; x < n; x++) {
        char base[64];
        kit_ncu_kernel_base(rows[x].kernel, base, sizeof base);
        if (strcmp(measured_kernel(t), ".") != 0 && strcmp(base, measured_kernel(t)) != 0)
            continue; /* another kernel's launch: ncu profiled every kernel (--counts) */
        const char *metric = rows[x].metric;
        long long v = (long long)rows[x].value;
        if (strcmp(metric, KIT_NCU_LOAD_CONFLICTS) == 0) {
            m->conflicts += v;
            seen = 1;
        }
        m->loads += strcmp(metric, KIT_NCU_LOAD_INSTRUCTIONS) == 0 ? v : 0;
        m->shared_stores += strcmp(metric, KIT_NCU_STORE_INSTRUCTIONS) == 0 ? v : 0;
        m->global_loads += strcmp(metric, KIT_NCU_GLOBAL_LOADS) == 0 ? v : 0;
        m->global_stores += strcmp(metric, KIT_NCU_GLOBAL_STORES) == 0 ? v : 0;
    }
    free(rows);
    if (!seen)
        snprintf(why, len, "not measured: ncu measured no launch of the kernel %s", measured_kernel(t));
    return seen ? 0 : -1;
}

/*
 * Checks the test's access bounds (spec.h) on measurement m; returns 0 when they hold, else -1 with
 * the verdict set. In CPU mode the recorded global stores must cover the output: a kernel whose
 * stores escaped the instrumentation (a memcpy, a function built without it) is not measured.
 */
static int judge_access(const spec_test *t, const measured *m, long long out_bytes, int simulated, const char *how,
                        check_result *out)
{
    char name[96];
    const char *k = kernel_words(t, name, sizeof name);
    if (spec_test_global(t) && simulated && m->global_store_bytes < out_bytes)
        set(out, V_WRONG, "the global stores of %s were not all recorded (%lld of the output's %lld bytes): write the "
            "output with plain stores in the kernel's own code", k, m->global_store_bytes, out_bytes);
    else if (t->max_thread_loads && simulated && m->thread_loads > t->max_thread_loads)
        set(out, V_WRONG, "the work is not spread over the threads: %s made %lld global loads, more than the %lld one "
            "thread of this launch makes (%s)", m->busiest, m->thread_loads, t->max_thread_loads, how);
    else if (t->max_thread_stores && simulated && m->thread_stores > t->max_thread_stores)
        set(out, V_WRONG, "the work is not spread over the threads: %s made %lld global stores, more than the %lld one "
            "thread of this launch makes (%s)", m->busiest, m->thread_stores, t->max_thread_stores, how);
    else if (t->max_global_stores && m->global_stores > t->max_global_stores)
        set(out, V_WRONG, "the work is not spread over the threads: %s made %lld global store requests, more than the %lld "
            "of a kernel whose every thread writes its share of the output (%s)", k, m->global_stores,
            t->max_global_stores, how);
    else if (t->min_global_stores && m->global_stores < t->min_global_stores)
        set(out, V_WRONG, "%s made %lld global store requests, fewer than the %lld its algorithm makes (%s)", k,
            m->global_stores, t->min_global_stores, how);
    else if (t->min_shared_stores && m->shared_stores < t->min_shared_stores)
        set(out, V_WRONG, "the tiles do not go through shared memory: %s made %lld shared-memory store requests, fewer "
            "than the %lld that loading them makes (%s)", k, m->shared_stores, t->min_shared_stores, how);
    else if (t->max_shared_stores && m->shared_stores > t->max_shared_stores)
        set(out, V_WRONG, "the work is not spread over the threads: %s made %lld shared-memory store requests, more than "
            "the %lld its algorithm makes (%s)", k, m->shared_stores, t->max_shared_stores, how);
    else if (t->min_loads && m->loads < t->min_loads)
        set(out, V_WRONG, "%s made %lld shared-memory load requests, fewer than the %lld its algorithm makes (%s)", k,
            m->loads, t->min_loads, how);
    else if (t->max_loads && m->loads > t->max_loads)
        set(out, V_WRONG, "the work is not spread over the threads: %s made %lld shared-memory load requests, more than "
            "the %lld its algorithm makes (%s)", k, m->loads, t->max_loads, how);
    else if (t->max_global_loads && m->global_loads > t->max_global_loads)
        set(out, V_WRONG, "%s made %lld global load requests, more than the %lld of a kernel that reads its inputs from "
            "global memory once, into shared memory (%s)", k, m->global_loads, t->max_global_loads, how);
    else if (t->min_global_loads && m->global_loads < t->min_global_loads)
        set(out, V_WRONG, "%s made %lld global load requests, fewer than the %lld its algorithm makes (%s)", k,
            m->global_loads, t->min_global_loads, how);
    else
        return 0;
    return -1;
}

/* One line of what was measured against the access bounds, for a passing verdict. */
static void access_summary(const spec_test *t, const measured *m, char *buf, size_t len)
{
    const struct {
        const char *what;
        long long got, at_least, at_most;
    } rows[] = {
        {"global store requests", m->global_stores, t->min_global_stores, t->max_global_stores},
        {"global load requests", m->global_loads, t->min_global_loads, t->max_global_loads},
        {"shared store requests", m->shared_stores, t->min_shared_stores, t->max_shared_stores},
        {"load requests", m->loads, t->min_loads, t->max_loads},
        {"global loads of the busiest thread", m->thread_loads, 0, t->max_thread_loads},
        {"global stores of the busiest thread", m->thread_stores, 0, t->max_thread_stores},
    };
    buf[0] = '\0';
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        size_t l = strlen(buf);
        if (rows[r].at_least && rows[r].at_most)
            snprintf(buf + l, len - l, "%s%lld %s in %lld .. %lld", l ? ", " : "", rows[r].got, rows[r].what,
                     rows[r].at_least, rows[r].at_most);
        else if (rows[r].at_most)
            snprintf(buf + l, len - l, "%s%lld %s <= %lld", l ? ", " : "", rows[r].got, rows[r].what, rows[r].at_most);
        else if (rows[r].at_least)
            snprintf(buf + l, len - l, "%s%lld %s >= %lld", l ? ", " : "", rows[r].got, rows[r].what, rows[r].at_least);
        else if (t->conflict_cmp && rows[r].got == m->loads && strcmp(rows[r].what, "load requests") == 0)
            snprintf(buf + l, len - l, "%s%lld load requests", l ? ", " : "", m->loads); /* what the conflicts are of */
    }
}

/*
 * Checks the test's access bounds and conflict threshold, after the output was found right. A count
 * that could not be had fails the test with its reason: a kernel that was not measured, or that
 * loaded nothing from shared memory, never passes a threshold. out_bytes: the output's size.
 */
static void judge_measured(const spec_test *t, const check_env *env, const char *trace, const char *csv,
                           const char *err_path, long long out_bytes, check_result *out)
{
    if (!spec_test_measured(t) || out->v != V_PASS)
        return;
    const char *op = t->conflict_cmp == '<' ? "<=" : t->conflict_cmp == '>' ? ">=" : "==";
    char tol[32] = "", how[96], why[240] = "", acc[400];
    if (t->tolerance_pct)
        snprintf(tol, sizeof tol, t->conflict_cmp == '<' ? " (+%d%%)" : " (+-%d%%)", t->tolerance_pct);
    if (t->gpu_slack && !env->simulated)
        snprintf(tol + strlen(tol), sizeof tol - strlen(tol), " (+%lld on a GPU)", t->gpu_slack);
    measured m;
    int rc = env->simulated ? count_from_stream(t, trace, &m, why, sizeof why)
                            : count_from_ncu(t, env, csv, err_path, &m, why, sizeof why);
    if (rc != 0) {
        set(out, V_WRONG, "%s not counted: %s", t->conflict_cmp ? "bank conflicts" : "accesses", why);
        return;
    }
    if (env->simulated)
        snprintf(how, sizeof how, "simulated");
    else
        snprintf(how, sizeof how, "measured by ncu%s%s", env->arch ? " on " : "", env->arch ? env->arch : "");
    if (t->conflict_cmp && m.loads == 0) {
        char name[96];
        set(out, V_WRONG, "%s made no shared-memory loads (%s): its data must go through shared memory (bank conflicts "
            "0, the bound %s %lld%s)", kernel_words(t, name, sizeof name), how, op, t->conflicts, tol);
        return;
    }
    if (judge_access(t, &m, out_bytes, env->simulated, how, out) != 0) {
        if (t->conflict_cmp) /* the conflicts too, whatever failed first */
            snprintf(out->detail + strlen(out->detail), sizeof out->detail - strlen(out->detail),
                     "; bank conflicts %lld, the bound %s %lld%s", m.conflicts, op, t->conflicts, tol);
        return;
    }
    access_summary(t, &m, acc, sizeof acc);
    if (!t->conflict_cmp) {
        set(out, V_PASS, "pass (%s, %s)", acc, how);
        return;
    }
    out->conflicts = m.conflicts;
    char note[96] = "";
    if (!env->simulated && t->arch[0] && env->arch && strcmp(t->arch, env->arch) != 0)
        snprintf(note, sizeof note, "; calibrated on %s", t->arch);
    if (meets(t, m.conflicts, !env->simulated))
        set(out, V_PASS, "pass (bank conflicts %lld %s %lld%s, %s, %s%s)", m.conflicts, op, t->conflicts, tol, acc, how,
            note);
    else
        set(out, V_WRONG, "bank conflicts %lld, not %s %lld%s (%s%s)", m.conflicts, op, t->conflicts, tol, how, note);
}

/* The part a lab 8 test asks the runner for: its own, or part=both in the student kit, which has no
   reference to pair a single function with. */
static int worst_part(const spec_test *t)
{
    return answers_available() ? t->part : 3;
}

/* The reference warp (an L warp): the reference subproblem, with the reference order. */
static int reference_warp(int w, int E, kit_worst_split *T, char *err, size_t errlen)
{
    int a[1024], b[1024];
    int count = answers_worst_subproblem(w, E, a, b);
    return kit_worst_warp_from(w, E, 1, a, b, count, answers_worst_order, T, err, errlen);
}

/*
 * Lab 8's request (w and E are set): the part, whether to run the measured merge (part=both only), and for
 * part=order the inputs of the student's worst_order for each thread (a_word, b_word, a, b), from
 * the reference subproblem. A single-part test pairs the student's function with the reference
 * here, on the trusted side: the runner holds no reference. -1 when out of memory or when the
 * reference warp cannot be built.
 */
static int pack_worst(const spec_test *t, check_job *j)
{
    kit_request *r = &j->req;
    kit_worst_split T[1024];
    char err[160];
    r->part = worst_part(t);
    r->measure = r->part == 3 && j->measured;
    if (r->part != 2)
        return 0;
    if (reference_warp(r->w, r->E, T, err, sizeof err) != 0 || !(r->threads = calloc((size_t)r->w, sizeof *r->threads)))
        return -1;
    for (int i = 0, aw = 0, bw = (r->E + 1) / 2 * r->w; i < r->w; i++) {
        kit_worst_thread x = {aw, bw, T[i].a, T[i].b};
        r->threads[i] = x;
        aw += T[i].a;
        bw += T[i].b;
    }
    return 0;
}

/* The reply to a lab 8 request: (a, b, a_first) a thread; a count and w tuples; or w orders. */
static void reply_worst(const spec_test *t, const check_job *j, kit_res *want)
{
    int part = worst_part(t);
    (void)j;
    want->c = 0;
    want->r = part == 3 ? 3 * (uint64_t)t->w : part == 1 ? 1 + 2 * (uint64_t)t->w : (uint64_t)t->w;
}

/* The warp a lab 8 reply describes, paired with the reference where the test checks one function. */
static int worst_warp_of(const spec_test *t, const int64_t *R, kit_worst_split *T, char *err, size_t errlen)
{
    int w = t->w, E = t->E, part = worst_part(t);
    if (part == 2) {
        if (reference_warp(w, E, T, err, errlen) != 0)
            return -1;
        for (int i = 0; i < w; i++)
            T[i].a_first = R[i] != 0;
        return 0;
    }
    if (part == 1) {
        int a[1024], b[1024], count = R[0] >= 0 && R[0] <= w ? (int)R[0] : -1;
        for (int i = 0; i < count; i++) {
            if (R[1 + 2 * i] < 0 || R[1 + 2 * i] > E || R[2 + 2 * i] < 0 || R[2 + 2 * i] > E)
                return kit_err(err, errlen, "tuple %d of the subproblem is (%lld, %lld): not two counts summing to E = %d",
                               i, (long long)R[1 + 2 * i], (long long)R[2 + 2 * i], E);
            a[i] = (int)R[1 + 2 * i];
            b[i] = (int)R[2 + 2 * i];
        }
        if (count < 0)
            return kit_err(err, errlen, "worst_subproblem returned %lld, not a tuple count", (long long)R[0]);
        return kit_worst_warp_from(w, E, 1, a, b, count, answers_worst_order, T, err, errlen);
    }
    for (int i = 0; i < w; i++) {
        if (R[3 * i] < 0 || R[3 * i + 1] < 0 || R[3 * i] + R[3 * i + 1] != E)
            return kit_err(err, errlen, "thread %d takes %lld keys of A and %lld of B, not E = %d in all", i,
                           (long long)R[3 * i], (long long)R[3 * i + 1], E);
        T[i].a = (int)R[3 * i];
        T[i].b = (int)R[3 * i + 1];
        T[i].a_first = R[3 * i + 2] != 0;
    }
    return 0;
}

/*
 * op=worst (lab 8): the warp must take E keys a thread and ceil(E/2)w keys of A in all (an L
 * warp); the simulator then replays its merge round, and the test passes when the count is at
 * least the papers' theorem. A single-part test's conflict threshold is judged here too, on the
 * simulator's count (the cost less the warp's E + 2 loads, what ncu counts on the measured merge);
 * part=both runs the measured merge and judge_measured reads it.
 */
static void judge_worst(const spec_test *t, const check_job *j, check_result *out)
{
    int w = t->w, E = t->E;
    kit_worst_split T[1024];
    char err[160];
    if (worst_warp_of(t, j->R, T, err, sizeof err) != 0) {
        set(out, V_WRONG, "%s", err);
        return;
    }
    long long n_a = 0, want_a = (long long)(E + 1) / 2 * w;
    for (int i = 0; i < w; i++)
        n_a += T[i].a;
    if (n_a != want_a) {
        set(out, V_WRONG, "the warp takes %lld keys of A, expected ceil(E/2)*w = %lld", n_a, want_a);
        return;
    }
    kit_bank_count c;
    if (kit_worst_warp_count(w, E, T, &c, err, sizeof err) != 0) {
        set(out, V_WRONG, "the simulator refused the warp: %s", err);
        return;
    }
    long bound = kit_worst_theorem(w, E);
    long long conflicts = (long long)c.cost - (long long)c.steps;
    const char *kit = worst_part(t) != t->part ? "; the student kit pairs it with your own other function" : "";
    if ((long)c.cost < bound)
        set(out, V_WRONG, "simulated cost %llu, below the theorem's %ld (w = %d, E = %d%s)", (unsigned long long)c.cost, bound,
            w, E, kit);
    else if (t->part != 3 && t->conflict_cmp && !meets(t, conflicts, 0))
        set(out, V_WRONG, "simulated bank conflicts %lld, not %s %lld (w = %d, E = %d%s)", conflicts,
            t->conflict_cmp == '<' ? "<=" : t->conflict_cmp == '>' ? ">=" : "==", t->conflicts, w, E, kit);
    else
        set(out, V_PASS, "pass (simulated cost %llu >= theorem %ld%s)", (unsigned long long)c.cost, bound, kit);
}

void sandbox_apply(const sandbox_policy *box, sb_limits *lim, int compiling, int cpu, const sb_bind *view)
{
    /* nvcc keeps its intermediate files in /tmp, and ncu its lock and its exchange with the target: they
       get room; a CPU runner writes nothing there */
    lim->tmp_bytes = compiling ? 2LL << 30 : cpu ? 16LL << 20 : 1LL << 30;
    lim->isolate = box->isolate;
    lim->seccomp = box->seccomp;
    lim->view = view;
    lim->mem_bytes = compiling ? box->compile_mem_bytes : cpu ? box->run_mem_bytes : 0;
}

/*
 * The runner's command line: the runner itself, under ncu when a GPU test measures a kernel (every
 * kernel, with every count, for --counts), or under compute-sanitizer.
 */
static void runner_argv(const spec_test *t, const check_env *env, int measured, char *csv, char *sanitizer_log,
                        char *kernel_filter, size_t filter_len, char *metrics, size_t metrics_len, char **argv)
{
    int argc = 0;
    if (measured && !env->simulated && env->ncu) {
        /* ncu measures the lab's kernel. With --log-file its own notes go to the log, not to stdout,
           where the reply goes. (--quiet makes ncu 2025.3 exit 1 here, so it is not used.) */
        snprintf(kernel_filter, filter_len, "regex:%s", env->counts ? "." : measured_kernel(t));
        argv[argc++] = (char *)env->ncu;
        argv[argc++] = (char *)"--csv";
        argv[argc++] = (char *)"--log-file";
        argv[argc++] = csv;
        snprintf(metrics, metrics_len, "%s,%s", env->counts ? KIT_NCU_COUNT_METRICS /* conflicts among them */
                                                            : KIT_NCU_LOAD_CONFLICTS, KIT_NCU_LOAD_INSTRUCTIONS);
        if (t->min_shared_stores || spec_test_global(t))
            snprintf(metrics + strlen(metrics), metrics_len - strlen(metrics), ",%s", KIT_NCU_ACCESS_METRICS);
        argv[argc++] = (char *)"--metrics";
        argv[argc++] = metrics;
        argv[argc++] = (char *)"--kernel-name";
        argv[argc++] = kernel_filter;
    } else if (env->sanitizer) {
        /* compute-sanitizer's report goes to a log, not to stdout, where the reply goes. */
        argv[argc++] = (char *)env->sanitizer;
        argv[argc++] = (char *)"--log-file";
        argv[argc++] = sanitizer_log;
        argv[argc++] = (char *)"--error-exitcode";
        argv[argc++] = (char *)"86";
    }
    argv[argc++] = (char *)env->runner;
    argv[argc++] = (char *)"--serve";
    argv[argc] = NULL;
}

/* The most trace bytes a test may stream: 64 records per key or query, plus 64 MiB. */
static long long trace_cap(const spec_test *t, size_t m, size_t n)
{
    long long record = 4 + (long long)sizeof(kit_access); /* its tag, then the access */
    return (long long)(m + n + (size_t)(t->u + t->w) * (size_t)(t->E + t->tile + 2)) * 64 * record + (64LL << 20);
}

/* What the drain thread needs: the pipe's read end, the file it fills, and the cap. */
typedef struct drain {
    int from;
    FILE *to;
    long long cap, got;
    int failed;
} drain;

/* Copies the runner's trace stream into the grader's file until the pipe closes, past the cap only counting. */
static void *drain_main(void *arg)
{
    drain *d = arg;
    char buf[1 << 16];
    for (ssize_t r; (r = read(d->from, buf, sizeof buf)) != 0;) {
        if (r < 0) {
            if (errno == EINTR)
                continue;
            d->failed = 1;
            break;
        }
        if (d->got + r <= d->cap && fwrite(buf, 1, (size_t)r, d->to) != (size_t)r)
            d->failed = 1;
        d->got += r;
    }
    return NULL;
}

/*
 * Runs argv in the sandbox. With a trace path (CPU mode), the runner gets the write end of a pipe
 * as KIT_TRACE_FD and a thread of ours copies what comes through into that file, which only the
 * grader can open: the runner can add to the stream, never take anything back.
 * Returns 0 when res describes the run, -1 when it could not be started.
 */
static int drained_run(char *const argv[], sb_limits *lim, const char *trace, long long cap, sb_result *res)
{
    if (!trace)
        return sb_run(argv, lim, res);
    int fds[2];
    FILE *to = fopen(trace, "wb");
    if (!to || pipe2(fds, O_CLOEXEC) != 0) {
        if (to)
            fclose(to);
        return -1;
    }
    drain d = {fds[0], to, cap, 0, 0};
    pthread_t thread;
    int rc = -1;
    /* sb_run forks while this thread lives: safe, since it holds no lock then (it waits in read()
       on an empty pipe, which only the forked runner can fill) */
    if (pthread_create(&thread, NULL, drain_main, &d) == 0) {
        lim->trace_fd = fds[1];
        rc = sb_run(argv, lim, res);
        close(fds[1]); /* the runner and all it started are gone: the thread now reads to the end */
        pthread_join(thread, NULL);
    } else {
        close(fds[1]);
    }
    close(fds[0]);
    if (fclose(to) != 0 || d.failed || d.got > d.cap) { /* the file says why, for count_from_stream */
        FILE *f = fopen(trace, "wb");
        if (f) {
            if (d.got > d.cap)
                fprintf(f, "%s%lld bytes, over the limit of %lld", COUNTS_TRACE_REFUSED, d.got, d.cap);
            else
                fprintf(f, "%sthe grader could not copy it", COUNTS_TRACE_REFUSED);
            fclose(f);
        }
    }
    return rc;
}

/* Did the run's stdout or stderr reach the file-size limit (RLIMIT_FSIZE)? */
static int hit_file_limit(const sb_limits *lim)
{
    const char *files[] = {lim->stdout_path, lim->stderr_path};
    struct stat st;
    for (int i = 0; i < 2; i++)
        if (lim->file_bytes > 0 && files[i] && stat(files[i], &st) == 0 && st.st_size >= lim->file_bytes)
            return 1;
    return 0;
}

/* The first "==ERROR==" line of ncu's log, without its prefix, or "" when ncu reported none. */
static void ncu_error(const char *log, char *buf, size_t len)
{
    char text[400];
    FILE *f = fopen(log, "r");
    buf[0] = '\0';
    while (f && !buf[0] && fgets(text, sizeof text, f))
        if (strncmp(text, "==ERROR==", 9) == 0) {
            text[strcspn(text, "\r\n")] = '\0';
            snprintf(buf, len, "ncu: %s", text + 9 + strspn(text + 9, " "));
        }
    if (f)
        fclose(f);
}

/*
 * How the run ended, when that decides the test: a timeout, the memory limit, a crash, a sanitizer
 * finding. Sets out and returns -1 then; returns 0 when the reply is there to judge. For hidden
 * tests no text of the runner's (its stderr) is quoted: it has seen the hidden input.
 */
static int judge_run(const spec_test *t, const check_env *env, const sb_result *run, const sb_limits *lim, int measured,
                     const char *err_path, const char *csv, const char *sanitizer_log, check_result *out)
{
    char how[160], line[160] = "";
    sb_describe(run, lim, how, sizeof how);
    if (run->kind == SB_TIMEOUT || (run->kind == SB_SIGNALED && run->code == SIGXCPU)) {
        set(out, V_TIMEOUT, "%s", how);
        return -1;
    }
    if (sb_memory_exceeded(run, lim, err_path)) { /* the program's own complaint would only repeat it */
        set(out, V_CRASH, "%s", how);
        return -1;
    }
    if (env->sanitizer && !(measured && !env->simulated && env->ncu) && run->kind == SB_EXITED && run->code == 86) {
        /* The report's first finding, such as "Invalid __global__ write of size 4 bytes", not its banner. */
        FILE *log = fopen(sanitizer_log, "r");
        char text[160];
        while (log && fgets(text, sizeof text, log))
            if (!line[0] && (strstr(text, "Invalid") || strstr(text, "rror") || strstr(text, "Hazard"))) {
                text[strcspn(text, "\r\n")] = '\0';
                snprintf(line, sizeof line, "%s", text + strspn(text, "= "));
            }
        if (log)
            fclose(log);
        set(out, V_CRASH, "compute-sanitizer found errors%s%s", line[0] && !t->hidden ? ": " : "", t->hidden ? "" : line);
        return -1;
    }
    if (run->kind != SB_EXITED || run->code != 0) {
        if (hit_file_limit(lim)) { /* as pid 1 of its namespace the runner ignores SIGXFSZ: its write fails instead */
            set(out, V_CRASH, "output too large (over %lld bytes)", lim->file_bytes);
            return -1;
        }
        if (measured && !env->simulated && env->ncu)
            ncu_error(csv, line, sizeof line); /* ncu's own complaint, if it failed: the kit's, not the runner's */
        if (!line[0] && !t->hidden)
            first_line(err_path, line, sizeof line);
        static const char emulator[] = "kit CPU emulation: ";
        if (env->simulated && run->kind == SB_EXITED && run->code == KIT_EXIT_FAULT) {
            /* the checked memory's one line: which access, by which thread (a hidden test: what kind alone) */
            const char *what = strncmp(line, emulator, sizeof emulator - 1) == 0 ? line + sizeof emulator - 1 : line;
            set(out, V_CRASH, "%s", t->hidden ? "a memory access the checked memory refused" : what);
            return -1;
        }
        set(out, run->kind == SB_ERROR ? V_ERROR : V_CRASH, "%s%s%s", how, line[0] ? ": " : "", line);
        return -1;
    }
    return 0;
}


void check_time_limits(int cpu, int timeout_s, sb_limits *lim)
{
    if (cpu) {
        /* The CPU build's runner is one thread on the CPU: the limit that decides is its CPU time,
           which a busy machine (make test's parallel programs, a course graded in shards) does
           not eat into. The wall clock stays a backstop, for a runner that sleeps or blocks. */
        lim->cpu_s = timeout_s;
        lim->timeout_s = 3.0 * timeout_s + 2;
    } else {
        lim->timeout_s = timeout_s;
        lim->cpu_s = (long)timeout_s + 1;
    }
}

/* --counts: the test's launches, one line each, or a comment line that says why there are none. */
static void write_counts(const spec_test *t, const check_env *env, int ran, const char *trace, const char *csv,
                         const check_result *out)
{
    if (!env->counts)
        return;
    char why[240] = "";
    if (!ran)
        snprintf(why, sizeof why, "%s: %.200s", verdict_name(out->v), out->detail);
    else if (env->simulated)
        counts_from_stream(env->counts, env->lab, t->name, trace, why, sizeof why);
    else if (env->ncu)
        counts_from_ncu(env->counts, env->lab, t->name, csv, why, sizeof why);
    else
        snprintf(why, sizeof why, "not measured: %s", env->ncu_why ? env->ncu_why : "no ncu");
    if (why[0])
        fprintf(env->counts, "# %s\t%s\tnot counted: %s\n", env->lab, t->name, why);
    fflush(env->counts);
}

/* Names the scratch files in env->workdir and finds the test's op. */
static void job_init(const spec_test *t, const check_env *env, check_job *j)
{
    memset(j, 0, sizeof *j);
    j->size = kit_type_size(t->type);
    j->m = (size_t)t->m;
    j->n = (size_t)t->n;
    j->op = op_of(t);
    snprintf(j->req_path, sizeof j->req_path, "%s/request.bin", env->workdir);
    snprintf(j->res_path, sizeof j->res_path, "%s/reply.bin", env->workdir);
    snprintf(j->err_path, sizeof j->err_path, "%s/stderr.txt", env->workdir);
    snprintf(j->trace, sizeof j->trace, "%s/conflicts.trace", env->workdir);
    snprintf(j->csv, sizeof j->csv, "%s/conflicts.csv", env->workdir);
    snprintf(j->sanitizer_log, sizeof j->sanitizer_log, "%s/sanitizer.log", env->workdir);
    const char *tools[] = {env->ncu, env->sanitizer}; /* the view outlives the run: sb_limits keeps the pointer */
    sb_view_run(&j->view, env->runner, env->workdir, !env->simulated, tools, 2); /* a failure poisons it: no run */
}

/* merge, co_rank and worst (which has none): A and B sorted, m and n of them. */
static int generate_pair(const spec_test *t, check_job *j)
{
    return kit_gen_merge_input(t->type, j->A, j->m, j->B, j->n, t->gen, t->seed);
}

/* pbs: A holds the sorted keys, B the queries. */
static int generate_pbs(const spec_test *t, check_job *j)
{
    if (kit_gen_merge_input(t->type, j->A, j->m, j->B, 0, t->gen, t->seed) != 0)
        return -1;
    return answers_pbs_queries(t->type, j->A, j->m, t->queries, t->seed, j->B, j->n);
}

/* sort: A holds the keys to sort, unsorted. */
static int generate_sort(const spec_test *t, check_job *j)
{
    return kit_gen_array(t->type, j->A, j->m, t->gen, t->seed);
}

/* Generates the inputs A and B from the test's seed; returns 0, or -1 after setting out. */
static int generate_inputs(const spec_test *t, check_job *j, check_result *out)
{
    j->A = kit_malloc(j->m * j->size + 1);
    j->B = kit_malloc(j->n * j->size + 1);
    if (!j->A || !j->B || j->op->generate(t, j) != 0) {
        set(out, V_ERROR, "%s", "grader could not generate the input");
        return -1;
    }
    return 0;
}

/* merge: canaries, and whether to run the lab's own measured kernel (lab 7's, named by kernel=). */
static int pack_merge(const spec_test *t, check_job *j)
{
    j->req.guard = 1;
    j->req.measure = j->measured && t->kernel[0];
    return 0;
}

/* co_rank: the ranks to query. */
static int pack_co_rank(const spec_test *t, check_job *j)
{
    j->req.ranks = choose_ranks(t, &j->req.nranks);
    return j->req.ranks ? 0 : -1;
}

/* pbs and sort: canaries, the search or the variant (sort: 0 baseline, 1 CF), and whether the launch is measured. */
static int pack_measured(const spec_test *t, check_job *j)
{
    j->req.guard = 1;
    j->req.alg = j->op->op == KIT_OP_SORT ? t->alg == 1 : t->alg;
    j->req.measure = j->measured;
    return 0;
}

/* merge and sort: C, the m + n outputs between their canaries; no results. */
static void reply_output(const spec_test *t, const check_job *j, kit_res *want)
{
    (void)t;
    want->c = j->m + j->n + 2 * KIT_GUARD_ELEMS;
    want->r = 0;
}

/* co_rank: (i, passes, comparisons) for each rank. */
static void reply_co_rank(const spec_test *t, const check_job *j, kit_res *want)
{
    (void)t;
    want->c = 0;
    want->r = 3 * j->req.nranks;
}

/* pbs: the canaries around the answers in C, and an answer per query. */
static void reply_pbs(const spec_test *t, const check_job *j, kit_res *want)
{
    (void)t;
    want->c = 2 * KIT_GUARD_ELEMS;
    want->r = j->n;
}

static const check_op check_ops[] = {
    {"merge", KIT_OP_MERGE, ".", generate_pair, pack_merge, reply_output, judge_merge},
    {"co_rank", KIT_OP_CO_RANK, ".", generate_pair, pack_co_rank, reply_co_rank, judge_co_rank},
    {"pbs", KIT_OP_PBS, "pbs_kernel", generate_pbs, pack_measured, reply_pbs, judge_pbs},
    {"sort", KIT_OP_SORT, "ms_gather_probe", generate_sort, pack_measured, reply_output, judge_sort},
    {"worst", KIT_OP_WORST, "worst_merge_probe", generate_pair, pack_worst, reply_worst, judge_worst},
};

static const check_op *op_of(const spec_test *t)
{
    for (size_t o = 0; o < sizeof check_ops / sizeof check_ops[0]; o++)
        if (strcmp(t->op, check_ops[o].name) == 0)
            return &check_ops[o];
    return NULL;
}

/* The request: the input and the launch, each spec key in the field of its name (the parser let
   through only the keys the op takes), then the op's own fields (its pack); returns 0, or -1 after
   setting out. */
static int pack_request(const spec_test *t, check_job *j, check_result *out)
{
    j->req.op = j->op->op;
    j->req.type = t->type;
    j->req.m = j->m;
    j->req.n = j->n;
    j->req.blocks = t->blocks;
    j->req.u = t->u;
    j->req.w = t->w;
    j->req.E = t->E;
    j->req.tile = t->tile;
    if (j->op->pack(t, j) != 0) {
        set(out, V_ERROR, "%s", "grader out of memory");
        return -1;
    }
    return 0;
}

/* Clears an earlier test's logs and gives the runner empty ones of its own; returns 0, or -1 after setting out. */
static int prepare_logs(const check_env *env, check_job *j, check_result *out)
{
    remove(j->trace); /* never judge an earlier test's measurement */
    remove(j->csv);
    remove(j->sanitizer_log);
    /* The runner, ncu or compute-sanitizer may run as another user (the grader as root runs tests as
       nobody): give each file they write an empty one of their own, in a folder they cannot create in. */
    const char *prepared[2] = {j->profiled && !env->simulated ? j->csv : NULL,
                               env->sanitizer ? j->sanitizer_log : NULL};
    for (int x = 0; x < 2; x++) {
        if (!prepared[x])
            continue;
        int fd = open(prepared[x], O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || (env->uid != 0 && fchown(fd, env->uid, env->gid) != 0)) {
            set(out, V_ERROR, "could not prepare %s for the runner", prepared[x]);
            if (fd >= 0)
                close(fd);
            return -1;
        }
        close(fd);
    }
    return 0;
}

/* Writes the request to j->req_path; returns 0, or -1 after setting out. */
static int write_request(check_job *j, check_result *out)
{
    FILE *f = fopen(j->req_path, "wb");
    int wrote = f && kit_request_write(f, &j->req, j->A, j->B) == 0;
    if (f)
        wrote &= fclose(f) == 0;
    if (!wrote) {
        set(out, V_ERROR, "could not write %s", j->req_path);
        return -1;
    }
    return 0;
}

/* The reply's expected shape; returns its size in bytes. */
static long long expected_reply(const spec_test *t, const check_job *j, kit_res *want)
{
    memset(want, 0, sizeof *want);
    want->type = t->type;
    want->m = j->m;
    want->n = j->n;
    j->op->reply(t, j, want);
    return (long long)(sizeof(kit_res) + 8 + (want->c + j->m + j->n) * j->size + want->r * 8);
}

/* The sandbox limits for the runner: time, reply size, user, and the files it reads and writes. */
static void runner_limits(const spec_test *t, const check_env *env, const check_job *j, long long reply_bytes,
                          sb_limits *lim)
{
    memset(lim, 0, sizeof *lim);
    check_time_limits(env->simulated, t->timeout_s > 0 ? t->timeout_s : env->timeout_s, lim);
    lim->file_bytes = reply_bytes + (1 << 20); /* the reply, plus 1 MiB of slack for stderr */
    if (j->profiled && !env->simulated) {
        lim->timeout_s *= 4;            /* ncu replays the kernel */
        lim->file_bytes += 256LL << 20; /* and writes its report to /tmp */
    }
    lim->cwd = env->workdir;
    lim->nproc = env->nproc;
    lim->uid = env->uid;
    lim->gid = env->gid;
    lim->no_network = 1;
    lim->stdin_path = j->req_path;
    lim->stdout_path = j->res_path;
    lim->stderr_path = j->err_path;
    /* ncu and compute-sanitizer write their logs (prepared above, the sandbox user's own) in the run
       folder, whose permissions keep everything else there out of the runner's reach */
    sandbox_apply(&env->box, lim, 0, env->simulated, j->view.bind);
}

/* Runs the runner in the sandbox and judges how it ended; returns 0, or -1 after setting out. */
static int run_runner(const spec_test *t, const check_env *env, check_job *j, long long reply_bytes, check_result *out)
{
    sb_limits lim;
    runner_limits(t, env, j, reply_bytes, &lim);
    char *argv[16], kernel_filter[80], metrics[1024];
    runner_argv(t, env, j->profiled, j->csv, j->sanitizer_log, kernel_filter, sizeof kernel_filter, metrics,
                sizeof metrics, argv);
    sb_result run;
    /* CPU mode, a conflict threshold: the runner streams the measured kernel's launches and shared
       accesses to us on fd 3 (kit_trace.h); the environment names the kernel */
    char kernel_env[96];
    snprintf(kernel_env, sizeof kernel_env, "KIT_TRACE_KERNEL=%s", env->counts ? "." : measured_kernel(t));
    char *runner_env[] = {kernel_env, NULL};
    int streamed = j->profiled && env->simulated;
    if (streamed)
        lim.envp = runner_env;
    int profiler = env->simulated ? -1 : sb_gpu_lock(j->profiled && env->ncu != NULL);
    int started = drained_run(argv, &lim, streamed ? j->trace : NULL, trace_cap(t, j->m, j->n), &run);
    if (profiler >= 0)
        close(profiler);
    if (started != 0) {
        set(out, V_ERROR, "%s", "grader could not start the runner");
        return -1;
    }
    return judge_run(t, env, &run, &lim, j->profiled, j->err_path, j->csv, j->sanitizer_log, out);
}

/* Reads the reply into j's r* buffers and judges its status; returns 0, or -1 after setting out. */
static int read_reply(const spec_test *t, check_job *j, const kit_res *want, int *ran, check_result *out)
{
    kit_res got;
    char err[160];
    FILE *f = fopen(j->res_path, "rb");
    int ok = f && kit_res_read(f, want, &got, &j->rC, &j->rA, &j->rB, &j->R, err, sizeof err) == 0;
    if (f)
        fclose(f);
    if (!ok) {
        set(out, V_WRONG, "malformed output: %s%s", f ? err : "no reply file",
            f ? " (does the code print to stdout? the reply goes there)" : "");
        return -1;
    }
    *ran = 1;
    if (t->hidden) /* the runner saw the hidden input: none of its words reach a report */
        snprintf(got.note, sizeof got.note, "%s", "(the runner's note is not shown for hidden tests)");
    if (got.status == KIT_RES_NOT_IMPLEMENTED) {
        set(out, V_NOT_ATTEMPTED, "not attempted (not implemented: %s)", got.note);
        snprintf(out->reached, sizeof out->reached, "%s", t->hidden ? "" : got.note);
        return -1;
    }
    if (got.status == KIT_RES_FAILED) {
        set(out, V_CRASH, "failed at run time: %s", got.note);
        return -1;
    }
    if (got.status == KIT_RES_ERROR) {
        set(out, V_ERROR, "runner refused the request: %s", got.note);
        return -1;
    }
    return 0;
}

/* Judges the reply's values: inputs untouched, then the op's own judge (its canaries, then its
   output), which sets out's verdict; returns -1 if the inputs were damaged (out set), else 0. */
static int judge_reply(const spec_test *t, const check_job *j, check_result *out)
{
    char msg[200];
    if (kit_verify(t->type, j->A, j->rA, j->m, msg, sizeof msg) >= 0) {
        set(out, V_WRONG, "modified its input A at %s", msg);
        return -1;
    }
    if (kit_verify(t->type, j->B, j->rB, j->n, msg, sizeof msg) >= 0) {
        set(out, V_WRONG, "modified its input B at %s", msg);
        return -1;
    }
    j->op->judge(t, j, out);
    return 0;
}

/*
 * A test whose bounds are F*ref: runs the reference solution's runner (env->reference, the CPU
 * build) on the same request, counts its measured kernel from its stream, and makes the bounds of
 * the copy c concrete (spec_apply_ref()). Returns 0, or -1 after setting out.
 */
static int reference_bounds(const spec_test *t, const check_env *env, const check_job *j, spec_test *c,
                            check_result *out)
{
    if (!env->reference) {
        set(out, V_ERROR, "grader: this test's bounds are relative to the reference solution, and there is none here");
        return -1;
    }
    check_env renv = *env;
    renv.runner = env->reference;
    renv.simulated = 1;
    renv.ncu = renv.sanitizer = NULL;
    renv.counts = NULL;
    check_job r = *j;
    snprintf(r.res_path, sizeof r.res_path, "%s/reference-reply.bin", env->workdir);
    snprintf(r.err_path, sizeof r.err_path, "%s/reference-stderr.txt", env->workdir);
    snprintf(r.trace, sizeof r.trace, "%s/reference.trace", env->workdir);
    r.profiled = 1;
    sb_view_run(&r.view, renv.runner, env->workdir, 0, NULL, 0);
    kit_res want;
    long long reply_bytes = expected_reply(t, &r, &want);
    check_result rout;
    memset(&rout, 0, sizeof rout);
    measured m;
    char why[240] = "";
    if (run_runner(t, &renv, &r, reply_bytes, &rout) != 0)
        snprintf(why, sizeof why, "%.200s", rout.detail);
    else if (count_from_stream(t, r.trace, &m, why, sizeof why) == 0) {
        spec_counts counts;
        counts_of(&m, &counts);
        spec_apply_ref(c, &counts);
        return 0;
    }
    set(out, V_ERROR, "grader: the reference solution could not be measured on this test: %s", why);
    return -1;
}

void check_test(const spec_test *t, const check_env *env, check_result *out)
{
    out->conflicts = -1;
    out->reached[0] = '\0';
    check_job job, *j = &job;
    job_init(t, env, j);
    int ran = 0; /* the runner ran and its reply was read: --counts has something to count */
    if (!j->op) {
        set(out, V_ERROR, "the grader has no op '%s'", t->op);
        return;
    }
    if (generate_inputs(t, j, out) != 0)
        goto done;
    /* a lab 8 test of one function is counted by the simulator here, not measured in the runner */
    j->measured = spec_test_measured(t) && !(j->op->op == KIT_OP_WORST && worst_part(t) != 3);
    j->profiled = j->measured || env->counts != NULL;
    if (pack_request(t, j, out) != 0 || prepare_logs(env, j, out) != 0 || write_request(j, out) != 0)
        goto done;
    kit_res want;
    long long reply_bytes = expected_reply(t, j, &want);
    if (run_runner(t, env, j, reply_bytes, out) != 0 || read_reply(t, j, &want, &ran, out) != 0)
        goto done;
    if (judge_reply(t, j, out) != 0)
        goto done;
    if (j->measured) {
        spec_test bounds = *t; /* with F*ref made concrete, when the test has such bounds */
        if (out->v == V_PASS && spec_test_needs_ref(t) && reference_bounds(t, env, j, &bounds, out) != 0)
            goto done;
        judge_measured(&bounds, env, j->trace, j->csv, j->err_path, (long long)(j->m + j->n) * (long long)j->size, out);
    }
done:
    write_counts(t, env, ran, j->trace, j->csv, out);
    free(j->A);
    free(j->B);
    kit_request_free(&j->req);
    free(j->rC);
    free(j->rA);
    free(j->rB);
    free(j->R);
}
