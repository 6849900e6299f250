/*
 * Lab 8 driver: builds one warp's worst-case input with your worst_subproblem and worst_order
 * (--threads is w, the banks and threads of a warp; --tile is E), replays the warp's merge round
 * in the bank-conflict simulator and compares the count with the papers' theorem. For w = 32 it
 * also merges the warp with the measured kernel, worst_merge_probe: on a GPU, measure it with
 * ncu; in the CPU build the driver counts its load conflicts, and --trace FILE writes its trace.
 * --print shows each thread's split. --serve answers the grader's "worst" request.
 */
#include <stdio.h>
#include <string.h>

#include "kit_driver.h"
#include "kit_request.h"
#include "lab08.cuh"

static const char *const WHAT =
    "Lab 8: build one warp's worst-case input with worst_subproblem and worst_order (--threads is w,\n"
    "2 .. 1024, default 32; --tile is E, 1 < E <= w, default 17), count its merge round in the\n"
    "simulator and compare the count with the papers' theorem.";

/*
 * Grader request "worst": the request's w, E and part (LAB08_SUBPROBLEM, LAB08_ORDER or
 * LAB08_BOTH), and measure, 1 to merge the warp with worst_merge_probe (part=both, w = 32: the
 * grader reads the CPU build's trace stream, or measures it with ncu on a GPU). For LAB08_ORDER
 * its threads hold (a_word, b_word, a, b) for each of the w threads. R is, by part: your tuple
 * count and w tuples (a, b); your order (1: A first) for each thread; or (a, b, a_first) for each
 * thread of the warp from both of your functions. The grader assembles and counts the warp.
 */
static int serve_worst(const kit_req *h, void *A, void *B, const int64_t *Q, kit_serve_out *out)
{
    (void)A;
    (void)B;
    kit_request req; /* 2 <= w <= 1024, 1 < E <= w, part 1 .. 3 */
    if (kit_request_decode(h, Q, KIT_OP_WORST, &req, out->error, sizeof out->error) != 0)
        return -1;
    int w = req.w, E = req.E, part = req.part, rc = 0;
    kit_worst_split T[1024];
    int a[1024], b[1024];
    char err[200];
    out->r = part == LAB08_BOTH ? 3 * (uint64_t)w : part == LAB08_SUBPROBLEM ? 1 + 2 * (uint64_t)w : (uint64_t)w;
    out->R = (int64_t *)kit_xmalloc(out->r * sizeof(int64_t));
    memset(out->R, 0, out->r * sizeof(int64_t));
    if (part == LAB08_SUBPROBLEM) {
        int n = lab08_subproblem(w, E, a, b);
        out->R[0] = n;
        for (int i = 0; i < n && i < w; i++) {
            out->R[1 + 2 * i] = a[i];
            out->R[2 + 2 * i] = b[i];
        }
    } else if (part == LAB08_ORDER) {
        for (int i = 0; i < w; i++) {
            const kit_worst_thread *x = &req.threads[i];
            out->R[i] = lab08_order(w, E, x->a_word, x->b_word, x->a, x->b) ? 1 : 0;
        }
    } else if (lab08_warp(w, E, T, err, sizeof err) != 0) {
        snprintf(out->error, sizeof out->error, "%.95s", err);
        rc = -2;
    } else if (req.measure && lab08_measure(w, E, T, out->error, sizeof out->error) != 0) {
        rc = -2; /* the measured merge: the grader reads it from the CPU build's trace stream or through ncu */
    } else {
        for (int i = 0; i < w; i++) {
            out->R[3 * i] = T[i].a;
            out->R[3 * i + 1] = T[i].b;
            out->R[3 * i + 2] = T[i].a_first;
        }
    }
    kit_request_free(&req);
    return rc;
}

int main(int argc, char **argv)
{
    kit_args a;
    int rc = kit_driver_begin(&a, argc, argv, WHAT, serve_worst);
    if (rc >= 0)
        return rc;
    int w = a.threads ? a.threads : 32, E = a.tile ? a.tile : 17;
    if (E < 2 || E > w || w < 2 || w > 1024) {
        fprintf(stderr, "%s: lab 8 needs --threads (w) in 2 .. 1024 and --tile (E) with 1 < E <= w (got w = %d, E = %d)\n",
                argv[0], w, E);
        return 2;
    }
    kit_worst_split T[1024];
    kit_bank_count c;
    char err[200];
    rc = lab08_warp(w, E, T, err, sizeof err);
    if (kit_not_implemented_task()) {
        printf("FAIL: not implemented: %s\n", kit_not_implemented_task());
        return 1;
    }
    if (rc != 0 || kit_worst_warp_count(w, E, T, &c, err, sizeof err) != 0) {
        printf("FAIL: %s\n", err);
        return 1;
    }
    if (a.print)
        for (int i = 0; i < w; i++)
            printf("thread %3d: %2d keys of A, %2d of B, %s first\n", i, T[i].a, T[i].b, T[i].a_first ? "A" : "B");
    long bound = kit_worst_theorem(w, E);
    int status = (long)c.cost >= bound ? 0 : 1;
    /* The same warp in the papers' model (E reads a thread), in which their theorem is stated. */
    uint8_t *mask = (uint8_t *)kit_xmalloc((size_t)w * E);
    kit_worst_warp_mask(w, E, T, mask);
    int n_a = 0;
    for (int k = 0; k < w * E; k++)
        n_a += mask[k];
    kit_bank_count papers;
    rc = kit_worst_mask_count(w, E, w, n_a, mask, KIT_READS_PAPERS, &papers, err, sizeof err);
    free(mask);
    if (rc != 0) {
        printf("FAIL: %s\n", err);
        return 1;
    }
    printf("%s: w = %d, E = %d: one warp's merge round costs %llu in SerialMerge's E + 2 reads (%llu steps; %llu in the "
           "papers' model, E reads), theorem %ld (the papers' model), E^2 = %d\n",
           status == 0 ? "PASS" : "FAIL", w, E, (unsigned long long)c.cost, (unsigned long long)c.steps,
           (unsigned long long)papers.cost, bound, E * E);
    if (status == 0)
        kit_driver_grader_only("08-worst-case:warp", "each test's own conflict threshold (conflicts>=N of grading.spec)");
    if (w != 32) {
        if (a.trace)
            fprintf(stderr, "%s: --trace: the measured merge runs only for w = 32 (the GPU's banks)\n", argv[0]);
        return a.trace ? 2 : status;
    }
#ifndef KIT_CPU
    char why[160];
    if (kit_gpu_count(why, sizeof why) == 0) {
        printf("measured kernel worst_merge_probe: not run (%s; the CPU build runs it on the emulation)\n", why);
        return status;
    }
    rc = lab08_measure(w, E, T, err, sizeof err);
    if (rc == 0)
        printf("measured kernel worst_merge_probe: merged on the GPU; ncu should count %llu load conflicts (the cost "
               "minus %d loads)\n", (unsigned long long)c.cost - (unsigned long long)(E + 2), E + 2);
#else
    long long conflicts = lab08_measure_traced(w, E, T, a.trace, err, sizeof err);
    rc = conflicts < 0 ? -1 : 0;
    if (rc == 0)
        printf("measured kernel worst_merge_probe: %lld load conflicts in the emulation (the cost %llu minus %d loads)\n",
               conflicts, (unsigned long long)c.cost, E + 2);
#endif
    if (rc != 0) {
        printf("FAIL: %s\n", err);
        return 1;
    }
    return status;
}
