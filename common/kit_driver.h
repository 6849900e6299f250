/** @file kit_driver.h What every lab driver shares: option handling, array printing, and answering a grader request. */
#ifndef KIT_DRIVER_H
#define KIT_DRIVER_H

#include <stdio.h>

#include "kit_cli.h"
#include "kit_proto.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a lab's request handler hands back; kit_serve() frees C and R. */
typedef struct kit_serve_out {
    void *C;         /**< malloc'ed output array, or NULL */
    uint64_t c;      /**< its element count */
    int64_t *R;      /**< malloc'ed int64 results, or NULL */
    uint64_t r;      /**< their count */
    char error[96];  /**< why the request was refused (handler returns -1) or the code failed (-2) */
} kit_serve_out;

/**
 * A lab's request handler: runs the student's code on the request's inputs. It reads the
 * request's fields (the launch, the ranks, ...) through kit_request_decode() (kit_request.h),
 * which refuses a malformed one with its reason. A and B may be modified by buggy student code; kit_serve() echoes them back
 * so the grader can tell.
 * @return 0 when it ran, -1 when the request makes no sense for this lab,
 *         -2 when the student's code failed at run time (for example a kernel launch)
 */
typedef int (*kit_serve_fn)(const kit_req *req, void *A, void *B, const int64_t *Q, kit_serve_out *out);

/**
 * Answers one request: reads it from @p in, runs @p fn, writes the reply to @p out.
 * A reached skeleton becomes a "not implemented" reply; a handler's -1 an
 * "error" reply and its -2 a "failed" one, each with the handler's reason.
 * @return the process exit status: 0 when a reply was written, 1 otherwise
 */
int kit_serve(FILE *in, FILE *out, kit_serve_fn fn);

/**
 * Parses a driver's options; prints usage for --help and a message for bad
 * options. @p a must hold the defaults on entry.
 * @return -1 to go on, or the exit status to leave with (0 after --help, 2 after a bad option)
 */
int kit_driver_args(kit_args *a, int argc, char **argv, const char *what);

/**
 * kit_driver_begin() for a build that says whether it can record shared-memory traces: with
 * @p can_trace 0 (the GPU build) a --trace option is refused with a message that names the
 * CPU build, and exit status 2.
 */
int kit_driver_begin_build(kit_args *a, int argc, char **argv, const char *what, kit_serve_fn serve, int can_trace);

/**
 * The start of every driver's main: fills the defaults, parses the options,
 * and answers a grader request when --serve is given. In the GPU build it
 * refuses --trace: only the CPU build's emulation records traces.
 * @param[out] a     the options
 * @param[in]  argc, argv the command line
 * @param[in]  what  one line on what the driver does, for --help
 * @param[in]  serve the lab's request handler
 * @return -1 to go on with the command-line run, or the exit status to return
 */
static inline int kit_driver_begin(kit_args *a, int argc, char **argv, const char *what, kit_serve_fn serve)
{
#ifdef KIT_CPU
    return kit_driver_begin_build(a, argc, argv, what, serve, 1);
#else
    return kit_driver_begin_build(a, argc, argv, what, serve, 0);
#endif
}

/**
 * A driver's command-line run, once the options are parsed.
 * @param[in] a    the options
 * @param[in] prog the program's name (argv[0]), for its messages
 * @return the exit status
 */
typedef int (*kit_driver_run_fn)(const kit_args *a, const char *prog);

/**
 * The whole main() of a lab driver: kit_driver_begin(), then @p run for a command-line run.
 * @return kit_driver_begin()'s exit status (after --help, a bad option or --serve), or run's
 */
static inline int kit_driver_main(int argc, char **argv, const char *what, kit_serve_fn serve, kit_driver_run_fn run)
{
    kit_args a;
    int rc = kit_driver_begin(&a, argc, argv, what, serve);
    return rc >= 0 ? rc : run(&a, argv[0]);
}

/**
 * Allocates and generates the sorted merge inputs the options describe.
 * @param[in]  a the options
 * @param[out] A a->m elements (free it)
 * @param[out] B a->n elements (free it)
 */
void kit_driver_merge_input(const kit_args *a, void **A, void **B);

/**
 * After a driver's PASS line: says which of the grader's checks for the lab the driver did not make,
 * and the command that makes them, "  not judged here: WHAT; make check LAB=NN judges it (the grader's
 * tests)". make run checks the output as the grader does; the counts need the grader's spec.
 * @param[in] task "NN-slug:task", whose NN names the lab
 * @param[in] what the checks; NULL prints nothing
 */
void kit_driver_grader_only(const char *task, const char *what);

/** Prints "label (n): e0 e1 ..." on stdout, eliding the middle of long arrays. */
void kit_print_array(const char *label, kit_type t, const void *data, size_t n);

/** malloc that never returns NULL: it exits with a message instead. Zero bytes gives a valid pointer. */
void *kit_xmalloc(size_t bytes);

#ifdef __cplusplus
}
#endif

#endif
