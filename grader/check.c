/* Runs one spec test through a lab runner and judges the reply against the grader's own reference. */
#define _GNU_SOURCE /* fchown */
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "kit_bank.h"
#include "kit_pbs.h"
#include "kit_proto.h"
#include "kit_ref.h"
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

/* The ranks a co_rank test queries: every rank, or `ranks` of them spread evenly with 0 and m + n included. */
static int64_t *choose_ranks(const spec_test *t, uint64_t *q)
{
    uint64_t total = (uint64_t)(t->m + t->n);
    uint64_t count = t->ranks == 0 || (uint64_t)t->ranks > total + 1 ? total + 1 : (uint64_t)t->ranks;
    if (count < 2)
        count = total + 1 < 2 ? total + 1 : 2;
    int64_t *Q = malloc(count * sizeof *Q);
    if (!Q)
        return NULL;
    for (uint64_t x = 0; x < count; x++)
        Q[x] = count == 1 ? 0 : (int64_t)(x * total / (count - 1));
    *q = count;
    return Q;
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
static int check_guards(const unsigned char *C, size_t total, size_t size, check_result *out)
{
    size_t guard = (size_t)KIT_GUARD_ELEMS * size;
    for (size_t b = guard; b-- > 0;) /* before C, nearest first */
        if (C[b] != KIT_GUARD_BYTE) {
            set(out, V_WRONG, "out-of-bounds write: C[-%zu], before the output, was changed", (guard - b - 1) / size + 1);
            return -1;
        }
    const unsigned char *after = C + guard + total * size;
    for (size_t b = 0; b < guard; b++)
        if (after[b] != KIT_GUARD_BYTE) {
            set(out, V_WRONG, "out-of-bounds write: C[%zu], past the end of the output (m + n = %zu), was changed",
                total + b / size, total);
            return -1;
        }
    return 0;
}

static void judge_merge(const spec_test *t, const void *A, const void *B, const void *C, check_result *out)
{
    size_t total = (size_t)(t->m + t->n);
    void *ref = malloc(total * kit_type_size(t->type) + 1);
    if (!ref) {
        set(out, V_ERROR, "%s", "grader out of memory");
        return;
    }
    kit_merge_ref(t->type, A, (size_t)t->m, B, (size_t)t->n, ref);
    char msg[200];
    if (kit_verify(t->type, ref, C, total, msg, sizeof msg) >= 0)
        set(out, V_WRONG, "wrong output at %s", msg);
    else
        set(out, V_PASS, "%s", "pass");
    free(ref);
}

static void judge_co_rank(const spec_test *t, const void *A, const void *B, const int64_t *Q, uint64_t q,
                          const int64_t *R, check_result *out)
{
    size_t total = (size_t)(t->m + t->n);
    int64_t *ref = malloc((total + 1) * sizeof *ref);
    if (!ref) {
        set(out, V_ERROR, "%s", "grader out of memory");
        return;
    }
    kit_co_rank_all(t->type, A, (size_t)t->m, B, (size_t)t->n, ref);
    int bound = kit_co_rank_pass_bound(t->m, t->n);
    char msg[200];
    set(out, V_PASS, "%s", "pass");
    for (uint64_t x = 0; x < q; x++) {
        int64_t k = Q[x], i = R[3 * x], passes = R[3 * x + 1], comparisons = R[3 * x + 2];
        if (!t->bound && i != ref[k]) {
            snprintf(msg, sizeof msg, "co_rank(k=%lld) returned i=%lld, expected %lld (m=%lld, n=%lld)", (long long)k,
                     (long long)i, (long long)ref[k], t->m, t->n);
            set(out, V_WRONG, "wrong output: %s", msg);
            break;
        }
        if (t->bound && (passes < 0 || passes > bound || comparisons > 2LL * bound)) {
            snprintf(msg, sizeof msg, "co_rank(k=%lld) took %lld passes and %lld comparisons; bound %d and %d",
                     (long long)k, (long long)passes, (long long)comparisons, bound, 2 * bound);
            set(out, V_WRONG, "over the search bound: %s", msg);
            break;
        }
    }
    free(ref);
}

static void judge_pbs(const spec_test *t, const void *keys, const void *queries, const int64_t *R, check_result *out)
{
    set(out, V_PASS, "%s", "pass");
    for (long long x = 0; x < t->n; x++) {
        int64_t q = kit_key_at(t->type, queries, (size_t)x);
        long long want = kit_pbs_ref(t->type, keys, (size_t)t->m, q);
        if (R[x] != want) {
            set(out, V_WRONG, "wrong output at query %lld (%lld): expected %lld, got %lld", x, (long long)q, want,
                (long long)R[x]);
            return;
        }
    }
}

/*
 * Counts the load conflicts of the trace the runner wrote (CPU mode), with the simulator, in the
 * grader's own process, and fails the test above t->max_conflicts. In GPU mode there is no trace:
 * the check is reported as not measured, never as zero.
 */
static void judge_conflicts(const spec_test *t, const check_env *env, check_result *out)
{
    if (t->max_conflicts < 0 || out->v != V_PASS)
        return;
    if (!env->simulated) {
        set(out, V_PASS, "pass (bank conflicts not measured: GPU runners record no trace)");
        return;
    }
    char path[4200], err[160];
    snprintf(path, sizeof path, "%s/pbs.trace", env->workdir);
    FILE *f = fopen(path, "r");
    kit_access *acc = NULL;
    size_t n = 0;
    if (!f || kit_trace_read(f, &acc, &n, err, sizeof err) != 0) {
        set(out, V_WRONG, "no readable shared-memory trace (%s)", f ? err : "the runner wrote none");
        if (f)
            fclose(f);
        return;
    }
    fclose(f);
    kit_bank_model model = {32, 4};
    kit_bank_report r;
    if (kit_bank_simulate(&model, acc, n, &r, err, sizeof err) != 0) {
        set(out, V_WRONG, "the shared-memory trace is invalid: %s", err);
    } else {
        if ((long long)r.load.conflicts > t->max_conflicts)
            set(out, V_WRONG, "bank conflicts %llu > %lld (simulated, shared loads)",
                (unsigned long long)r.load.conflicts, t->max_conflicts);
        else
            set(out, V_PASS, "pass (bank conflicts %llu <= %lld, simulated)", (unsigned long long)r.load.conflicts,
                t->max_conflicts);
        kit_bank_free(&r);
    }
    free(acc);
}

void check_test(const spec_test *t, const check_env *env, check_result *out)
{
    size_t size = kit_type_size(t->type);
    size_t m = (size_t)t->m, n = (size_t)t->n;
    int is_merge = strcmp(t->op, "merge") == 0, is_pbs = strcmp(t->op, "pbs") == 0;
    char req_path[4200], res_path[4200], err_path[4200];
    snprintf(req_path, sizeof req_path, "%s/request.bin", env->workdir);
    snprintf(res_path, sizeof res_path, "%s/reply.bin", env->workdir);
    snprintf(err_path, sizeof err_path, "%s/stderr.txt", env->workdir);

    void *A = malloc(m * size + 1), *B = malloc(n * size + 1);
    void *rC = NULL, *rA = NULL, *rB = NULL;
    int64_t *Q = NULL, *R = NULL;
    uint64_t q = 0;
    /* pbs: A holds the sorted keys, B the queries */
    int generated = is_pbs ? kit_gen_merge_input(t->type, A, m, B, 0, t->gen, t->seed) == 0 &&
                                 kit_pbs_gen_queries(t->type, A, m, t->queries, t->seed, B, n) == 0
                           : kit_gen_merge_input(t->type, A, m, B, n, t->gen, t->seed) == 0;
    if (!A || !B || !generated) {
        set(out, V_ERROR, "%s", "grader could not generate the input");
        goto done;
    }
    if (is_pbs) { /* the launch, and a request for the trace when conflicts are checked */
        Q = malloc(4 * sizeof *Q);
        if (!Q) {
            set(out, V_ERROR, "%s", "grader out of memory");
            goto done;
        }
        Q[0] = t->alg;
        Q[1] = t->blocks;
        Q[2] = t->threads;
        Q[3] = t->max_conflicts >= 0;
        q = 4;
        char trace[4200];
        snprintf(trace, sizeof trace, "%s/pbs.trace", env->workdir);
        remove(trace); /* never judge an earlier test's trace */
        if (t->max_conflicts >= 0) {
            /* The runner may run as another user (the grader as root runs tests as nobody): give it
               an empty trace file of its own to write, in the scratch folder it cannot create in. */
            int fd = open(trace, O_WRONLY | O_CREAT | O_TRUNC, 0600);
            if (fd < 0 || (env->uid != 0 && fchown(fd, env->uid, env->gid) != 0)) {
                set(out, V_ERROR, "could not prepare %s for the runner", trace);
                if (fd >= 0)
                    close(fd);
                goto done;
            }
            close(fd);
        }
    }
    if (is_merge && t->blocks > 0) { /* a kernel lab: the launch travels as three queries */
        Q = malloc(3 * sizeof *Q);
        if (!Q) {
            set(out, V_ERROR, "%s", "grader out of memory");
            goto done;
        }
        Q[0] = t->blocks;
        Q[1] = t->threads;
        Q[2] = t->tile;
        q = 3;
    }
    if (!is_merge && !is_pbs && !(Q = choose_ranks(t, &q))) {
        set(out, V_ERROR, "%s", "grader out of memory");
        goto done;
    }

    kit_req req;
    memset(&req, 0, sizeof req);
    snprintf(req.op, sizeof req.op, "%s", t->op);
    req.type = t->type;
    req.m = m;
    req.n = n;
    req.q = q;
    req.flags = is_merge ? KIT_REQ_GUARD : 0;
    FILE *f = fopen(req_path, "wb");
    int wrote = f && kit_req_write(f, &req, A, B, Q) == 0;
    if (f)
        wrote &= fclose(f) == 0;
    if (!wrote) {
        set(out, V_ERROR, "could not write %s", req_path);
        goto done;
    }

    kit_res want;
    memset(&want, 0, sizeof want);
    want.type = t->type;
    want.c = is_merge ? m + n + 2 * KIT_GUARD_ELEMS : 0;
    want.m = m;
    want.n = n;
    want.r = is_merge ? 0 : is_pbs ? n : 3 * q;
    long long reply_bytes = (long long)(sizeof(kit_res) + 8 + (want.c + m + n) * size + want.r * 8);

    sb_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.timeout_s = t->timeout_s > 0 ? t->timeout_s : env->timeout_s;
    lim.cpu_s = (long)lim.timeout_s + 1;
    lim.file_bytes = reply_bytes + (1 << 20); /* the reply, plus 1 MiB of slack for stderr */
    if (is_pbs && t->max_conflicts >= 0) /* the trace: at most 48 reads per query and a padded key list per block, 32 bytes a line */
        lim.file_bytes += (long long)(n * 48 + (uint64_t)t->blocks * (m + 64 + (uint64_t)t->threads)) * 32;
    lim.cwd = env->workdir;
    lim.nproc = env->nproc;
    lim.uid = env->uid;
    lim.gid = env->gid;
    lim.no_network = 1;
    lim.stdin_path = req_path;
    lim.stdout_path = res_path;
    lim.stderr_path = err_path;
    char *argv[] = {(char *)env->runner, (char *)"--serve", NULL};
    sb_result run;
    if (sb_run(argv, &lim, &run) != 0) {
        set(out, V_ERROR, "%s", "grader could not fork");
        goto done;
    }
    char how[160], line[160];
    sb_describe(&run, &lim, how, sizeof how);
    if (run.kind == SB_TIMEOUT || (run.kind == SB_SIGNALED && run.code == SIGXCPU)) {
        set(out, V_TIMEOUT, "%s", how);
        goto done;
    }
    if (run.kind != SB_EXITED || run.code != 0) {
        first_line(err_path, line, sizeof line);
        char msg[256];
        snprintf(msg, sizeof msg, "%s%s%s", how, line[0] ? ": " : "", line);
        set(out, run.kind == SB_ERROR ? V_ERROR : V_CRASH, "%s", msg);
        goto done;
    }

    kit_res got;
    char err[160];
    f = fopen(res_path, "rb");
    int ok = f && kit_res_read(f, &want, &got, &rC, &rA, &rB, &R, err, sizeof err) == 0;
    if (f)
        fclose(f);
    if (!ok) {
        set(out, V_WRONG, "malformed output: %s%s", f ? err : "no reply file",
            f ? " (does the code print to stdout? the reply goes there)" : "");
        goto done;
    }
    if (got.status == KIT_RES_NOT_IMPLEMENTED) {
        set(out, V_NOT_ATTEMPTED, "not attempted (not implemented: %s)", got.note);
        goto done;
    }
    if (got.status == KIT_RES_FAILED) {
        set(out, V_CRASH, "failed at run time: %s", got.note);
        goto done;
    }
    if (got.status == KIT_RES_ERROR) {
        set(out, V_ERROR, "runner refused the request: %s", got.note);
        goto done;
    }
    char msg[200];
    if (kit_verify(t->type, A, rA, m, msg, sizeof msg) >= 0) {
        set(out, V_WRONG, "modified its input A at %s", msg);
        goto done;
    }
    if (kit_verify(t->type, B, rB, n, msg, sizeof msg) >= 0) {
        set(out, V_WRONG, "modified its input B at %s", msg);
        goto done;
    }
    if (is_merge && check_guards(rC, m + n, size, out) != 0)
        goto done;
    if (is_merge) {
        judge_merge(t, A, B, (char *)rC + (size_t)KIT_GUARD_ELEMS * size, out);
    } else if (is_pbs) {
        judge_pbs(t, A, B, R, out);
        judge_conflicts(t, env, out);
    } else {
        judge_co_rank(t, A, B, Q, q, R, out);
    }
done:
    free(A);
    free(B);
    free(Q);
    free(rC);
    free(rA);
    free(rB);
    free(R);
}
