/*
 * Lab 9 driver: sorts --m generated keys with ms_sort (--alg baseline or cf, --tile E, --threads u)
 * on the GPU or the CPU emulation, and checks the result against the kit's stable sort (with
 * --type kv32 the values tag each key's input position, so stability shows). In the CPU build
 * --trace FILE writes the shared-memory trace of the measured kernel, every block-sort round of
 * the first tile (the CF gather, ms_gather_probe, or for --alg baseline the serial merge,
 * ms_serial_probe), and prints the simulator's count. --serve answers the grader.
 */
#include <string.h>

#include "kit_bank.h"
#include "lab09.cuh"

static const char *const WHAT =
    "Lab 9: sort --m generated keys with ms_sort (--alg baseline|cf, --tile E in {5, 12, 15, 16, 17},\n"
    "--threads u a power of two 32 .. 512) and check the result against the kit's stable sort.";

/*
 * Grader request "sort": A holds the keys to sort (B is empty); the request's alg (the variant), u
 * and E the launch, and measure 1 to run the measured gather (the CPU build streams its trace to
 * the grader; on a GPU the grader measures it with ncu). C is the
 * sorted keys between KIT_GUARD_ELEMS canaries on each side.
 */
static int serve_sort(const kit_req *h, void *A, void *B, const int64_t *Q, kit_serve_out *out)
{
    (void)B;
    kit_request req; /* alg 0 (MS_BASELINE) or 1 (MS_CF), u <= 1024, E <= 64, no B */
    if (kit_request_decode(h, Q, KIT_OP_SORT, &req, out->error, sizeof out->error) != 0)
        return -1;
    lab09_cfg c = {req.alg, req.E, req.u};
    if (lab09_check_cfg(req.type, c, out->error, sizeof out->error) != 0)
        return -1;
    size_t size = kit_type_size(req.type), n = (size_t)req.m, guard = KIT_GUARD_ELEMS * size;
    unsigned char *C = (unsigned char *)kit_xmalloc(n * size + 2 * guard);
    memcpy(C + guard, A, n * size);
    unsigned char *guards = (unsigned char *)kit_xmalloc(2 * guard);
    int rc = lab09_run_guarded(req.type, C + guard, (int)n, c, guard, guards, out->error, sizeof out->error);
    if (rc == 0) { /* the canaries as the device left them, around the sorted keys */
        memcpy(C, guards, guard);
        memcpy(C + guard + n * size, guards + guard, guard);
    }
    free(guards);
    if (rc == 0 && req.measure) /* the CPU build streams its trace to the grader (kit_trace.h) */
        rc = lab09_measure(req.type, A, (int)n, c, out->error, sizeof out->error);
    if (rc < 0) {
        free(C);
        return -2;
    }
    out->C = C;
    out->c = n + 2 * KIT_GUARD_ELEMS;
    return 0; /* a skeleton shows up through kit_not_implemented_task() */
}

/* Reads the options lab 9 adds or limits: --alg, --tile (E), --threads (u) and --gen. Returns 0, or 2 after a message. */
static int check_options(const kit_args *a, const char *prog, lab09_cfg *c)
{
    *c = lab09_default_cfg();
    if (a->alg && lab09_variant_parse(a->alg, &c->variant) != 0) {
        fprintf(stderr, "%s: --alg is baseline or cf\n", prog);
        return 2;
    }
    c->E = a->tile ? a->tile : c->E;
    c->u = a->threads ? a->threads : c->u;
    char msg[256];
    if (kit_gen_is_pair_only(a->gen) || lab09_check_cfg(a->type, *c, msg, sizeof msg) != 0) {
        fprintf(stderr, "%s: %s\n", prog, kit_gen_is_pair_only(a->gen) ? "lab 9 needs a one-array --gen" : msg);
        return 2;
    }
    return 0;
}

/*
 * Sorts a copy of the n input keys into keys --repeat times; *best gets the fastest run's seconds.
 * Returns 0, or 1 after a FAIL line.
 */
static int sort_keys(const kit_args *a, const void *input, void *keys, int n, lab09_cfg c, double *best)
{
    size_t size = kit_type_size(a->type);
    char msg[256];
    int status = 0;
    *best = 1e30;
    for (int r = 0; r < a->repeat && status == 0; r++) {
        memcpy(keys, input, (size_t)n * size);
        double t0 = kit_now_s();
        int rc = lab09_run(a->type, keys, n, c, msg, sizeof msg);
        double dt = kit_now_s() - t0;
        *best = dt < *best ? dt : *best;
        if (rc == 1) {
            printf("FAIL: not implemented: %s\n",
                   kit_not_implemented_task() ? kit_not_implemented_task() : lab09_task(c.variant));
            status = 1;
        } else if (rc < 0) {
            printf("FAIL: %s\n", msg);
            status = 1;
        }
    }
    return status;
}

#ifdef KIT_CPU
/*
 * --trace: runs the measured kernel on the input under a trace, prints the simulator's count and
 * writes the trace to a->trace. Returns 0, or 2 after a message.
 */
static int write_trace(const kit_args *a, const char *prog, const void *input, int n, lab09_cfg c)
{
    char msg[256];
    kit_cpu_trace_start();
    int rc = lab09_measure(a->type, input, n, c, msg, sizeof msg);
    kit_access *acc;
    size_t na = kit_cpu_trace_stop(&acc);
    kit_bank_model model = {CF_W, 4};
    kit_bank_report rep;
    if (rc == 0 && kit_bank_simulate(&model, acc, na, &rep, msg, sizeof msg) == 0) {
        printf("trace: the %s of every block-sort round of the first tile: %zu shared accesses, "
               "%llu load conflicts\n", c.variant == MS_BASELINE ? "serial merge" : "gather", na,
               (unsigned long long)rep.load.conflicts);
        kit_bank_free(&rep);
    } else {
        rc = -1;
    }
    int status = 0;
    if (rc != 0 || kit_trace_save(a->trace, acc, na) != 0) {
        fprintf(stderr, "%s: %s\n", prog, rc != 0 ? msg : "could not write the trace");
        status = 2;
    }
    free(acc);
    return status;
}
#endif

/* The command-line run: sorts --m generated keys with the chosen variant and checks the result. */
static int run_sort(const kit_args *a, const char *prog)
{
    lab09_cfg c;
    int status = check_options(a, prog, &c);
    if (status != 0)
        return status;
    int n = (int)a->m;
    size_t size = kit_type_size(a->type);
    void *input = kit_xmalloc((size_t)n * size + 1), *keys = kit_xmalloc((size_t)n * size + 1);
    kit_gen_array(a->type, input, (size_t)n, a->gen, a->seed);
    double best;
    status = sort_keys(a, input, keys, n, c, &best);
#ifdef KIT_CPU
    if (status == 0 && a->trace)
        status = write_trace(a, prog, input, n, c);
#endif
    if (status == 0 && a->print) {
        kit_print_array("input", a->type, input, (size_t)n);
        kit_print_array("sorted", a->type, keys, (size_t)n);
    }
    char msg[256];
    long long bad = status == 0 ? kit_check_sort(a->type, input, keys, (size_t)n, msg, sizeof msg) : -1;
    if (bad >= 0) {
        printf("FAIL: %s E=%d u=%d %s n=%d gen=%s seed=%llu: wrong output at %s\n", lab09_variant_name(c.variant), c.E,
               c.u, kit_type_name(a->type), n, kit_gen_name(a->gen), (unsigned long long)a->seed, msg);
        status = 1;
    }
    if (status == 0)
        printf("PASS: %s E=%d u=%d %s n=%d gen=%s seed=%llu: %.3f ms with copies"
#ifdef KIT_CPU
               " (CPU emulation)"
#endif
               "\n",
               lab09_variant_name(c.variant), c.E, c.u, kit_type_name(a->type), n, kit_gen_name(a->gen),
               (unsigned long long)a->seed, best * 1e3);
    if (status == 0)
        kit_driver_grader_only(lab09_task(c.variant), "the bank conflicts of the measured gather (ms_gather_probe)");
    free(input);
    free(keys);
    return status;
}

int main(int argc, char **argv)
{
    return kit_driver_main(argc, argv, WHAT, serve_sort, run_sort);
}
