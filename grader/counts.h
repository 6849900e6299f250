/** @file counts.h The grader's --counts: the shared-memory counts of every kernel launch of a test, one TSV line each, simulated or measured by ncu. */
#ifndef COUNTS_H
#define COUNTS_H

#include <stdio.h>

#include "kit_ncu.h"
#include "kit_trace.h"

/** The first line of a counts file: the columns of every line that follows. */
#define COUNTS_HEADER                                                                                               \
    "lab\ttest\tlaunch\tkernel\tgrid\tblock\tld_conflicts\tst_conflicts\tld_requests\tst_requests\tld_wavefronts\t" \
    "st_wavefronts\tld_conflicts_lockstep\tst_conflicts_lockstep\n"

/** What the grader writes in place of a trace it could not keep whole, followed by why. */
#define COUNTS_TRACE_REFUSED "#kit-trace-refused: "

/**
 * Reads the trace stream the grader kept for a test (kit_trace_stream_read()), keeping the
 * launches of @p kernel ("." for all).
 * @return 0, or -1 with why in @p why: the grader refused the stream while copying it (too large),
 *         or the stream is missing or malformed
 */
int counts_read_stream(const char *trace, const char *kernel, kit_trace_run **runs, size_t *nruns, size_t *launches,
                       char *why, size_t len);

/**
 * Reads ncu's CSV of a test (kit_ncu_read_file()).
 * @param[in]  csv  the CSV ncu wrote
 * @param[out] rows its rows, malloc'ed (free them)
 * @param[out] n    their number
 * @param[in]  what the start of the reason on failure, for example "no ncu counts"
 * @param[out] why  on failure, "WHAT: what was wrong with the file"
 * @param[in]  len  size of @p why
 * @return 0, or -1 with a reason in @p why
 */
int counts_read_ncu(const char *csv, kit_ncu_row **rows, size_t *n, const char *what, char *why, size_t len);

/**
 * CPU mode: one line per launch in the runner's trace stream (every kernel's), in launch order.
 * Each launch is counted by the simulator (32 banks of 4 bytes) with the hardware's warp model;
 * requests are its steps, wavefronts the papers' cost; the last two columns count the conflicts
 * again in the papers' lock-step.
 * @param[out] out   the counts file
 * @param[in]  lab, test the test's lab folder and name
 * @param[in]  trace the trace stream the grader kept
 * @param[out] why   why nothing was written
 * @param[in]  len   size of @p why
 * @return 0, or -1 with a reason in @p why
 */
int counts_from_stream(FILE *out, const char *lab, const char *test, const char *trace, char *why, size_t len);

/**
 * GPU mode: one line per launch that ncu profiled, in launch order, from its CSV of
 * KIT_NCU_COUNT_METRICS; the lock-step columns are "-".
 * @return 0, or -1 with a reason in @p why (no CSV, a launch without one of the metrics)
 */
int counts_from_ncu(FILE *out, const char *lab, const char *test, const char *csv, char *why, size_t len);

#endif
