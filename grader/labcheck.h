/**
 * @file labcheck.h The lab-file checker: parses a student's lab file as the CPU build compiles it
 * (libclang) and refuses, with the line and the rule, everything outside the dialect a lab file is
 * written in (labs/README.md, "The dialect of a lab file").
 *
 * The command line (labcheck_main.c):
 *
 *     labcheck --student PATH [--guard NAME] [--uses PATH]... [--given PATH]... --api API.cu
 *              [--api-cache FILE] -- <compiler args...> SOURCE
 *
 * prints nothing and exits 0 when the file is acceptable; otherwise it prints one line per refusal,
 * `FILE:LINE: RULE: what was refused` (FILE the student file's base name), and exits 1. Bad usage,
 * or a translation unit libclang cannot parse at all, is one line `labcheck: why` and exit 2.
 */
#ifndef LABCHECK_H
#define LABCHECK_H

#include <stdio.h>

/** The most --uses files, and the most --given files, one check takes. */
#define LABCHECK_MAX_FILES 16

/** What one check reads: the student's file, the files around it, and how to compile them. */
typedef struct labcheck_opts {
    const char *student;                      /**< the student's file, the only one judged */
    const char *guard;                        /**< its include guard's name, or NULL (then it must be unique) */
    const char *api;                          /**< grader/lab_api.cu: what it references is the lab API */
    const char *api_cache;                    /**< a file to keep the API's allowlist in, or NULL */
    const char *uses[LABCHECK_MAX_FILES];     /**< earlier labs' files the spec's `uses` lines name */
    int n_uses;                               /**< how many of uses[] there are */
    const char *given[LABCHECK_MAX_FILES];    /**< the lab's given code (harness/ *_given.cuh): callable */
    int n_given;                              /**< how many of given[] there are */
    const char *const *args;                  /**< the compiler's arguments, the translation unit last */
    int n_args;                               /**< how many of args[] there are (at least 1) */
    int max_refusals;                         /**< lines printed at most (0: 20) */
    int memory_mb;                            /**< the check's memory limit in MiB (0: 2048) */
    int cpu_seconds;                          /**< the check's CPU-time limit in seconds (0: 60) */
} labcheck_opts;

/**
 * Reads labcheck's command line (without the program name) into @p o; the strings stay argv's.
 * @param[in]  argc, argv the arguments after the program's name
 * @param[out] o          the options
 * @param[out] err        why the command line is wrong, on failure
 * @param[in]  len        size of @p err
 * @return 0, or -1 with the reason in @p err
 */
int labcheck_parse_args(int argc, char **argv, labcheck_opts *o, char *err, size_t len);

/**
 * Checks the student's file of @p o: parses the translation unit (its last argument) and the API
 * file, and writes one line per refusal to @p report, at most o->max_refusals, in line order.
 * @param[in] o      the options (labcheck_parse_args)
 * @param[in] report where the refusals go, or the one line `labcheck: why` of a failure
 * @return 0 when the file is acceptable, 1 when something was refused (or did not compile),
 *         2 when the check could not be made (a missing file, a translation unit libclang could not parse)
 */
int labcheck_run(const labcheck_opts *o, FILE *report);

#endif
