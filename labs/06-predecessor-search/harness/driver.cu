/*
 * Lab 6 driver: answers generated queries with pbs_kernel (--alg pbs, cf or cl) against generated
 * sorted keys and checks every answer against the kit's reference. --m is the number of keys K,
 * --n the number of queries. In the CPU build --trace FILE also writes the kernel's shared-memory
 * trace and prints the simulator's count for each stage of the search. --serve answers the grader.
 */
#include <string.h>

#include "lab06.cuh"

static const char *const WHAT =
    "Lab 6: answer predecessor queries with pbs_kernel (--m keys, --n queries, --alg pbs|cf|cl,\n"
    "--queries keys|range|worst) and check them against the kit's reference.";

/* The task a skeleton reports for an algorithm. */
static const char *task_of(int alg)
{
    return alg == PBS_CF ? "06-predecessor-search:cf" : alg == PBS_CL ? "06-predecessor-search:cl" : "06-predecessor-search:pbs";
}

#ifdef KIT_CPU
/*
 * Stops the trace, writes it to `path` (when given) and prints what the kernel read per query, from
 * the trace itself, then the simulator's count for each stage of the search when the kernel read as
 * many times per query as the search does (else the stages cannot be told apart).
 */
static int report_trace(const char *path, int alg, int K, int threads, long long Q)
{
    kit_access *acc;
    size_t n = kit_cpu_trace_stop(&acc);
    int rc = path ? kit_trace_save(path, acc, n) : 0;
    lab06_stage st[3];
    int stages = lab06_stages(alg, K, st), per_query = st[stages - 1].last;
    uint32_t stores = (uint32_t)(pbs_padded_length(K, threads) / threads);
    unsigned long long reads = 0; /* the loads after each thread's stores: the searches' */
    for (size_t i = 0; i < n; i++)
        reads += !acc[i].write && acc[i].ordinal >= stores;
    printf("trace: %zu shared accesses; each thread stores %u keys, then the kernel reads %.2f times per query "
           "(%llu reads, %lld queries; %s reads %d)\n",
           n, stores, Q ? (double)reads / (double)Q : 0.0, reads, Q, lab06_alg_name(alg), per_query);
    if (reads != (unsigned long long)per_query * (unsigned long long)Q) {
        printf("  not split into stages: the kernel does not read %d times per query, as %s does\n", per_query,
               lab06_alg_name(alg));
        stages = 0;
    }
    for (int s = 0; s < stages && rc == 0; s++) {
        lab06_stage_count c;
        char err[160];
        if (lab06_count_stage(acc, n, stores, per_query, st[s], &c, err, sizeof err) != 0) {
            fprintf(stderr, "simulator: %s\n", err);
            rc = -1;
            break;
        }
        printf("  %-18s %d reads per query: %llu warp-queries, papers' cost %llu (%.2f per warp-query, worst %llu), "
               "%llu conflicts\n",
               st[s].name, st[s].last - st[s].first, (unsigned long long)c.warp_queries,
               (unsigned long long)c.load.cost, c.warp_queries ? (double)c.load.cost / (double)c.warp_queries : 0.0,
               (unsigned long long)c.worst_warp, (unsigned long long)c.load.conflicts);
    }
    if (alg == PBS_PLAIN && kit_pbs_worst_accesses(K, PBS_W) > 0)
        printf("  the most PBS's passes can cost: %lld accesses per warp-query (sum of min(2^i, w, K/w), K = %d, w = %d)\n",
               kit_pbs_worst_accesses(K, PBS_W), K, PBS_W);
    free(acc);
    return rc;
}
#endif

/*
 * Grader request "pbs": A holds the K sorted keys, B the queries; the request's alg, blocks and u
 * the launch, and measure is 1 when a conflict threshold measures it (the grader reads it from
 * the CPU build's trace stream, kit_trace.h, or through ncu on a GPU). R is one answer per query.
 */
static int serve_pbs(const kit_req *h, void *A, void *B, const int64_t *Q, kit_serve_out *out)
{
    kit_request req; /* alg 0 .. 2 (PBS_PLAIN .. PBS_CL), u a multiple of 32, K = m >= 1 */
    if (kit_request_decode(h, Q, KIT_OP_PBS, &req, out->error, sizeof out->error) != 0)
        return -1;
    lab06_cfg cfg = {req.alg, req.blocks, req.u};
    int *answers = (int *)kit_xmalloc((size_t)req.n * sizeof(int) + 1);
    /* With KIT_REQ_GUARD the reply's C holds the canaries around the answers, for the grader to check. */
    size_t guard = req.guard ? (size_t)KIT_GUARD_ELEMS * kit_type_size(req.type) : 0;
    unsigned char *guards = guard ? (unsigned char *)kit_xmalloc(2 * guard) : NULL;
    int rc = lab06_run_guarded(req.type, A, (int)req.m, B, (long long)req.n, answers, cfg, guard, guards,
                               out->error, sizeof out->error);
    if (rc < 0) {
        free(answers);
        free(guards);
        return -2; /* the kernel failed */
    }
    if (guard) {
        out->C = guards;
        out->c = 2 * KIT_GUARD_ELEMS;
    }
    out->r = req.n;
    out->R = (int64_t *)kit_xmalloc((size_t)req.n * sizeof(int64_t) + 1);
    for (uint64_t x = 0; x < req.n; x++)
        out->R[x] = rc == 0 ? answers[x] : -2;
    free(answers);
    return 0; /* a skeleton shows up through kit_not_implemented_task() */
}

/* Reads the options lab 6 adds or limits: --alg, --queries, --m keys, --type, --gen and --threads. Returns 0, or 2 after a message. */
static int check_options(const kit_args *a, const char *prog, int *alg, kit_pbs_queries *kind)
{
    *alg = PBS_CL;
    *kind = KIT_PBS_KEYS;
    if ((a->alg && lab06_alg_parse(a->alg, alg) != 0) || (a->queries && kit_pbs_queries_parse(a->queries, kind) != 0)) {
        fprintf(stderr, "%s: --alg is pbs, cf or cl and --queries is keys, range or worst\n", prog);
        return 2;
    }
    if (a->m < 1 || (a->type != KIT_TYPE_I32 && a->type != KIT_TYPE_I64) || kit_gen_is_pair_only(a->gen) ||
        (a->threads && a->threads % PBS_W != 0)) {
        fprintf(stderr, "%s: lab 6 needs --m >= 1 keys, --type i32 or i64, a one-array --gen, and --threads a multiple of %d\n",
                prog, PBS_W);
        return 2;
    }
    return 0;
}

/*
 * Answers the Q queries against the K keys --repeat times, the first run traced with --trace in the
 * CPU build; *best gets the fastest run's seconds. Returns 0, 1 after a FAIL line, or 2 when the
 * trace could not be written.
 */
static int answer_queries(const kit_args *a, void *keys, int K, void *queries, long long Q, int *answers,
                          lab06_cfg cfg, double *best)
{
    char msg[256];
    int status = 0;
    *best = 1e30;
    for (int r = 0; r < a->repeat && status == 0; r++) {
#ifdef KIT_CPU
        if (a->trace && r == 0)
            kit_cpu_trace_start();
#endif
        double t0 = kit_now_s();
        int rc = lab06_run(a->type, keys, K, queries, Q, answers, cfg, msg, sizeof msg);
        double dt = kit_now_s() - t0;
        *best = dt < *best ? dt : *best;
#ifdef KIT_CPU
        if (a->trace && r == 0 && report_trace(a->trace, cfg.alg, K, cfg.threads, Q) != 0)
            status = 2;
#endif
        if (rc == 1) {
            printf("FAIL: not implemented: %s\n", kit_not_implemented_task() ? kit_not_implemented_task() : task_of(cfg.alg));
            status = 1;
        } else if (rc < 0) {
            printf("FAIL: %s\n", msg);
            status = 1;
        }
    }
    return status;
}

/* Checks every answer as the grader does (kit_check_answer). Returns 0, or 1 after a FAIL line that names the first wrong answer. */
static int check_answers(const kit_args *a, const void *keys, int K, const void *queries, long long Q, const int *answers,
                         int alg, kit_pbs_queries kind)
{
    char msg[200];
    for (long long x = 0; x < Q; x++) {
        int64_t q = kit_key_at(a->type, queries, (size_t)x);
        if (!kit_check_answer(a->type, keys, (size_t)K, x, q, answers[x], msg, sizeof msg)) {
            printf("FAIL: %s %s K=%d Q=%lld gen=%s queries=%s seed=%llu: wrong output at %s\n", lab06_alg_name(alg),
                   kit_type_name(a->type), K, Q, kit_gen_name(a->gen), kit_pbs_queries_name(kind),
                   (unsigned long long)a->seed, msg);
            return 1;
        }
    }
    return 0;
}

/* The command-line run: generates K keys and Q queries, answers them with the chosen search, and checks the answers. */
static int run_pbs(const kit_args *a, const char *prog)
{
    int alg;
    kit_pbs_queries kind;
    int rc = check_options(a, prog, &alg, &kind);
    if (rc != 0)
        return rc;
    int K = (int)a->m;
    long long Q = a->n;
    lab06_cfg cfg = lab06_default_cfg(Q);
    cfg.alg = alg;
    cfg.blocks = a->blocks ? a->blocks : cfg.blocks;
    cfg.threads = a->threads ? a->threads : cfg.threads;
    size_t size = kit_type_size(a->type);
    void *keys = kit_xmalloc((size_t)K * size), *queries = kit_xmalloc((size_t)Q * size + 1);
    if (kit_pbs_gen_input(a->type, keys, (size_t)K, a->gen, kind, a->seed, queries, (size_t)Q) != 0) {
        fprintf(stderr, "%s: --queries worst needs K a multiple of 1024 here (the grader's generator takes any K)\n", prog);
        return 2;
    }
    int *answers = (int *)kit_xmalloc((size_t)Q * sizeof(int) + 1);
    double best;
    int status = answer_queries(a, keys, K, queries, Q, answers, cfg, &best);
    if (status == 0 && a->print) {
        kit_print_array("keys", a->type, keys, (size_t)K);
        kit_print_array("queries", a->type, queries, (size_t)Q);
    }
    if (status == 0)
        status = check_answers(a, keys, K, queries, Q, answers, alg, kind);
    free(answers);
    if (status == 0)
        printf("PASS: %s %s K=%d Q=%lld gen=%s queries=%s seed=%llu, %d blocks of %d threads: %.3f ms with copies"
#ifdef KIT_CPU
               " (CPU emulation)"
#endif
               "\n",
               lab06_alg_name(alg), kit_type_name(a->type), K, Q, kit_gen_name(a->gen), kit_pbs_queries_name(kind),
               (unsigned long long)a->seed, cfg.blocks, cfg.threads, best * 1e3);
    if (status == 0)
        kit_driver_grader_only(task_of(alg), "the search's shared-memory loads and their bank conflicts "
                                             "(plain PBS passes here, and fails there as PBS-CF)");
    free(keys);
    free(queries);
    return status;
}

int main(int argc, char **argv)
{
    return kit_driver_main(argc, argv, WHAT, serve_pbs, run_pbs);
}
