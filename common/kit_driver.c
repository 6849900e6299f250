/* What every lab driver shares: option handling, array printing, and answering a grader request. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit_driver.h"
#include "kit_gen.h"
#include "kit_jail.h"
#include "kit_mem.h"
#include "kit_lab.h"
#include "kit_check.h"

void *kit_xmalloc(size_t bytes)
{
    void *p = kit_malloc(bytes);
    if (!p) {
        fprintf(stderr, "out of memory allocating %zu bytes\n", bytes);
        exit(KIT_EXIT_NOMEM);
    }
    return p;
}

static int reply(FILE *out, const kit_res *h, const void *C, const void *A, const void *B, const int64_t *R)
{
    if (kit_res_write(out, h, C, A, B, R) != 0) {
        fprintf(stderr, "could not write the reply\n");
        return 1;
    }
    return 0;
}

int kit_serve(FILE *in, FILE *out, kit_serve_fn fn)
{
    static int serving; /* lab code runs only inside this call: a call while it runs is lab code calling it */
    if (serving) {
        fprintf(stderr, "kit_serve: called again from inside the lab's code\n");
        _exit(1);
    }
    serving = 1;
    kit_req req;
    void *A, *B;
    int64_t *Q;
    kit_res res;
    memset(&res, 0, sizeof res);
    res.type = KIT_TYPE_I32;
    if (kit_req_read(in, &req, &A, &B, &Q, res.note, sizeof res.note) != 0) {
        res.status = KIT_RES_ERROR;
        serving = 0;
        return reply(out, &res, NULL, NULL, NULL, NULL);
    }
    kit_serve_out so;
    memset(&so, 0, sizeof so);
    kit_not_implemented_reset();
    int rc = fn(&req, A, B, Q, &so);
    res.type = req.type;
    if (kit_not_implemented_task()) {
        res.status = KIT_RES_NOT_IMPLEMENTED;
        snprintf(res.note, sizeof res.note, "%s", kit_not_implemented_task());
    } else if (rc != 0) {
        res.status = rc == -2 ? KIT_RES_FAILED : KIT_RES_ERROR;
        snprintf(res.note, sizeof res.note, "%s", so.error);
    } else {
        res.status = KIT_RES_OK;
        res.c = so.c;
        res.m = req.m;
        res.n = req.n;
        res.r = so.r;
    }
    int status = res.status == KIT_RES_OK ? reply(out, &res, so.C, A, B, so.R) : reply(out, &res, NULL, NULL, NULL, NULL);
    free(A);
    free(B);
    free(Q);
    free(so.C);
    free(so.R);
    serving = 0;
    return status;
}

int kit_driver_args(kit_args *a, int argc, char **argv, const char *what)
{
    char err[160];
    int rc = kit_args_parse(a, argc, argv, err, sizeof err);
    if (rc == 1) {
        kit_args_usage(stdout, argv[0], what);
        return 0;
    }
    if (rc < 0) {
        fprintf(stderr, "%s: %s\n", argv[0], err);
        return 2;
    }
    return -1;
}

int kit_driver_begin_build(kit_args *a, int argc, char **argv, const char *what, kit_serve_fn serve, int can_trace)
{
    kit_args_defaults(a);
    int rc = kit_driver_args(a, argc, argv, what);
    if (rc >= 0)
        return rc;
    if (a->trace && !can_trace) {
        fprintf(stderr, "%s: --trace needs the CPU build (build/labs/student-cpu/...; make run uses it without a GPU)\n",
                argv[0]);
        return 2;
    }
    if (!a->serve)
        return -1;
    /* The CPU build serves a grader under a strict seccomp jail (kit_jail.h), entered before the
       request is read and so before any of the student's code runs (the grader refuses code that
       would run at load time). A GPU runner cannot: the CUDA driver needs far more. */
    if (can_trace && kit_jail_enter() != 0)
        fprintf(stderr, "%s: the kernel refused the seccomp jail (%s); serving without it\n", argv[0], strerror(errno));
    return kit_serve(stdin, stdout, serve);
}

void kit_driver_merge_input(const kit_args *a, void **A, void **B)
{
    size_t size = kit_type_size(a->type);
    *A = kit_xmalloc((size_t)a->m * size);
    *B = kit_xmalloc((size_t)a->n * size);
    kit_gen_merge_input(a->type, *A, (size_t)a->m, *B, (size_t)a->n, a->gen, a->seed);
}

void kit_driver_grader_only(const char *task, const char *what)
{
    if (what)
        printf("  not judged here: %s; make check LAB=%.2s judges it, with the grader's tests\n", what, task);
}

void kit_print_array(const char *label, kit_type t, const void *data, size_t n)
{
    const size_t edge = 16; /* elements shown at each end of a long array */
    char buf[64];
    printf("%s (%zu):", label, n);
    for (size_t i = 0; i < n; i++) {
        if (n > 2 * edge && i == edge) {
            printf(" ...");
            i = n - edge;
        }
        kit_format_elem(t, data, i, buf, sizeof buf);
        printf(" %s", buf);
    }
    printf("\n");
}
