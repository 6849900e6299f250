/*
 * Lab 2 driver: runs your co_rank on generated sorted inputs, for one rank
 * (--k) or for every rank, and checks it against the kit's reference and the
 * iteration bound. With --serve it answers one grader request instead.
 */
#include <string.h>

#include "kit_counted.h"
#include "lab02.cuh"

static const char *const WHAT = "Lab 2: compute co-ranks with co_rank on generated sorted inputs and check them.";

/* Copies the keys of an array into counting keys, in a checked array named `name` (kit_host_array). */
static kit_counted *counted_copy(kit_type t, const void *data, size_t n, const char *name)
{
    kit_counted *c = (kit_counted *)kit_host_array(NULL, n * sizeof(kit_counted), name, sizeof(kit_counted), "keys");
    for (size_t i = 0; i < n; i++)
        c[i] = kit_counted(kit_key_at(t, data, i));
    return c;
}

/*
 * Grader request "co_rank": for each of the request's ranks k, three results: the co-rank
 * i, the passes the function reported, and the key comparisons it made on
 * counting keys.
 */
static int serve_co_rank(const kit_req *h, void *A, void *B, const int64_t *Q, kit_serve_out *out)
{
    kit_request req; /* its ranks lie in 0 .. m + n */
    if (kit_request_decode(h, Q, KIT_OP_CO_RANK, &req, out->error, sizeof out->error) != 0)
        return -1;
    int m = (int)req.m, n = (int)req.n;
    kit_counted *cA = counted_copy(req.type, A, req.m, "A"), *cB = counted_copy(req.type, B, req.n, "B");
    size_t size = kit_type_size(req.type);
    void *hA = kit_host_array(A, req.m * size, "A", (unsigned)size, "keys");
    void *hB = kit_host_array(B, req.n * size, "B", (unsigned)size, "keys");
    out->r = 3 * req.nranks;
    out->R = (int64_t *)kit_xmalloc(out->r * sizeof(int64_t));
    for (uint64_t q = 0; q < req.nranks; q++) {
        int k = (int)req.ranks[q];
        lab02_result r = {-1, -1};
        kit_type_dispatch(req.type, [&](auto key) {
            using T = decltype(key);
            r = lab02_co_rank(k, (const T *)hA, m, (const T *)hB, n);
        });
        out->R[3 * q] = r.i;
        out->R[3 * q + 1] = r.passes;
        long long before = kit_comparisons_add(0);
        lab02_co_rank(k, (const kit_counted *)cA, m, (const kit_counted *)cB, n);
        out->R[3 * q + 2] = kit_comparisons_add(0) - before;
    }
    memcpy(A, hA, req.m * size); /* what the student's code left in its inputs, for the grader's check */
    memcpy(B, hB, req.n * size);
    kit_host_array_free(hA);
    kit_host_array_free(hB);
    kit_host_array_free(cA);
    kit_host_array_free(cB);
    kit_request_free(&req);
    return 0;
}

/* The command-line run: co-ranks --k, or every rank, and checks each against the definition and the bound. */
static int run_co_rank(const kit_args *a, const char *prog)
{
    (void)prog;
    size_t total = (size_t)(a->m + a->n);
    void *A, *B;
    kit_driver_merge_input(a, &A, &B);
    if (a->print) {
        kit_print_array("A", a->type, A, (size_t)a->m);
        kit_print_array("B", a->type, B, (size_t)a->n);
    }

    int bound = kit_co_rank_pass_bound(a->m, a->n), status = 0, worst = 0;
    long long first = a->k >= 0 ? a->k : 0, last = a->k >= 0 ? a->k : (long long)total;
    double t0 = kit_now_s();
    char msg[200];
    for (long long k = first; k <= last && status == 0; k++) {
        int passes = 0;
        int i = co_rank_any(a->type, (int)k, A, (int)a->m, B, (int)a->n, &passes);
        if (kit_not_implemented_task()) {
            printf("FAIL: not implemented: %s\n", kit_not_implemented_task());
            status = 1;
        } else if (!kit_check_co_rank_answer(a->type, A, (size_t)a->m, B, (size_t)a->n, k, i, msg, sizeof msg)) {
            printf("FAIL: co_rank %s m=%lld n=%lld gen=%s seed=%llu: wrong output: %s\n", kit_type_name(a->type), a->m, a->n,
                   kit_gen_name(a->gen), (unsigned long long)a->seed, msg);
            status = 1;
        } else if (passes > bound) {
            printf("FAIL: co_rank(k=%lld) made %d passes, over the bound %d\n", k, passes, bound);
            status = 1;
        }
        worst = passes > worst ? passes : worst;
        if (a->k >= 0 && status == 0)
            printf("co_rank(k=%lld): i = %d, j = %lld, %d passes (bound %d)\n", k, i, k - i, passes, bound);
    }
    double dt = kit_now_s() - t0;
    if (status == 0)
        printf("PASS: co_rank %s m=%lld n=%lld gen=%s seed=%llu: %lld ranks, at most %d passes (bound %d), %.3f ms\n",
               kit_type_name(a->type), a->m, a->n, kit_gen_name(a->gen), (unsigned long long)a->seed, last - first + 1,
               worst, bound, dt * 1e3);
    free(A);
    free(B);
    return status;
}

int main(int argc, char **argv)
{
    return kit_driver_main(argc, argv, WHAT, serve_co_rank, run_co_rank);
}
