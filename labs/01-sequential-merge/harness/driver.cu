/*
 * Lab 1 driver: merges generated sorted inputs with your merge_sequential and
 * checks the result against the kit's reference. With --serve it answers one
 * grader request instead.
 */
#include <string.h>

#include "lab01.cuh"

static const char *const WHAT = "Lab 1: merge two generated sorted arrays with merge_sequential and check the result.";

/*
 * Grader request "merge": C = merge(A, B). C starts as KIT_UNWRITTEN_BYTE so
 * unwritten slots show; with KIT_REQ_GUARD, canaries surround it.
 */
static int serve_merge(const kit_req *h, void *A, void *B, const int64_t *Q, kit_serve_out *out)
{
    kit_request req; /* lab 1 has no launch: it ignores one */
    if (kit_request_decode(h, Q, KIT_OP_MERGE, &req, out->error, sizeof out->error) != 0)
        return -1;
    size_t size = kit_type_size(req.type), bytes = (size_t)(req.m + req.n) * size;
    size_t guard = req.guard ? KIT_GUARD_ELEMS * size : 0;
    out->c = req.m + req.n + (guard ? 2 * KIT_GUARD_ELEMS : 0);
    out->C = kit_xmalloc(bytes + 2 * guard);
    memset(out->C, KIT_GUARD_BYTE, bytes + 2 * guard);
    memset((char *)out->C + guard, KIT_UNWRITTEN_BYTE, bytes);
    merge_any(req.type, A, (int)req.m, B, (int)req.n, (char *)out->C + guard, guard);
    return 0;
}

/* The command-line run: merges the generated inputs --repeat times and checks the result. */
static int run_merge(const kit_args *a, const char *prog)
{
    (void)prog;
    size_t size = kit_type_size(a->type), total = (size_t)(a->m + a->n);
    void *A, *B, *C = kit_xmalloc(total * size);
    kit_driver_merge_input(a, &A, &B);

    double best = 1e30;
    for (int r = 0; r < a->repeat; r++) {
        memset(C, KIT_UNWRITTEN_BYTE, total * size);
        double t0 = kit_now_s();
        merge_any(a->type, A, (int)a->m, B, (int)a->n, C, 0);
        double dt = kit_now_s() - t0;
        best = dt < best ? dt : best;
    }
    if (a->print) {
        kit_print_array("A", a->type, A, (size_t)a->m);
        kit_print_array("B", a->type, B, (size_t)a->n);
        kit_print_array("C", a->type, C, total);
    }

    char msg[256];
    int status = 0;
    if (kit_not_implemented_task()) {
        printf("FAIL: not implemented: %s\n", kit_not_implemented_task());
        status = 1;
    } else if (kit_check_merge(a->type, A, (size_t)a->m, B, (size_t)a->n, C, msg, sizeof msg) >= 0) {
        printf("FAIL: merge %s m=%lld n=%lld gen=%s seed=%llu: wrong output at %s\n", kit_type_name(a->type), a->m, a->n,
               kit_gen_name(a->gen), (unsigned long long)a->seed, msg);
        status = 1;
    } else {
        printf("PASS: merge %s m=%lld n=%lld gen=%s seed=%llu: %.3f ms (%.1f M elements/s)\n", kit_type_name(a->type),
               a->m, a->n, kit_gen_name(a->gen), (unsigned long long)a->seed, best * 1e3,
               best > 0 ? (double)total / best * 1e-6 : 0.0);
    }
    free(A);
    free(B);
    free(C);
    return status;
}

int main(int argc, char **argv)
{
    return kit_driver_main(argc, argv, WHAT, serve_merge, run_merge);
}
