/** @file
 * Reads the logs of lab 9's benchmark (build/bench/sort_bench, kept in results/) and turns them into
 * the plots of handout 9: throughput against n for each sorter, and the slowdown of each sorter on
 * lab 8's worst case. The log reader behind the benchplot tool: it lives beside it in common/tools/,
 * and only benchplot and its test (test_viz) link it.
 *
 * A log, as sort_bench prints it:
 *
 *     device: NVIDIA H100 80GB HBM3, 132 SMs; times are medians of 7, copy included
 *     n      input   sorter                   ms   Gkeys/s    x cub
 *     2^20   random  copy alone            0.007    143.72
 *     2^20   random  cub                   0.097     10.77     1.00
 *     ...
 *
 *     lab 8's worst case against random input of the same size (n = u*E*2^k nearest to 2^lg)
 *     n          (E, u)    sorter            random ms   worst ms  slowdown   worst Gk/s
 *     983040     (15, 512) baseline-15-512       0.110      0.125     13.2%         7.87
 *
 * The worst-case table is missing from a `--quick` run. Blank lines may stand anywhere; any other
 * line that is not of this form is refused, with its file and line.
 */
#ifndef KIT_SORTLOG_H
#define KIT_SORTLOG_H

#include <stdint.h>
#include <stdio.h>

#include "kit_viz.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KIT_SORTLOG_NAME_LEN 32    /**< room for a sorter's or an input's name of 31 characters */
#define KIT_SORTLOG_DEVICE_LEN 128 /**< room for the device's name of 127 characters */

/** A row of the first table: one sorter (or the copy alone) on one input of 2^lg keys. */
typedef struct kit_sortlog_time {
    unsigned long line;                /**< its line in the log, from 1 */
    unsigned lg;                       /**< n = 2^lg keys */
    char input[KIT_SORTLOG_NAME_LEN];  /**< the input's name: random or sorted */
    char sorter[KIT_SORTLOG_NAME_LEN]; /**< cub, baseline-E-u, cf-E-u, or "copy alone" (the input copied, no sort) */
    double ms;                         /**< the median time in milliseconds, the copy of the input included */
    double gkeys;                      /**< keys per second, in billions */
    int has_x_cub;                     /**< 1 for a sorter: x_cub holds a value; 0 for the copy alone */
    double x_cub;                      /**< CUB's time over this row's, measured in the same run */
} kit_sortlog_time;

/** A row of the worst-case table: one sorter on lab 8's worst case and on random input of the same n. */
typedef struct kit_sortlog_worst {
    unsigned long line;                /**< its line in the log, from 1 */
    uint64_t n;                        /**< keys: u*E*2^k, near a power of two */
    unsigned E;                        /**< the keys per thread the worst case was built for */
    unsigned u;                        /**< the threads per block it was built for */
    char sorter[KIT_SORTLOG_NAME_LEN]; /**< cub, baseline-E-u or cf-E-u */
    double random_ms;                  /**< the median time on a random permutation of 0 .. n-1 */
    double worst_ms;                   /**< the median time on the worst case */
    double slowdown;                   /**< 100 * (worst_ms / random_ms - 1), from the unrounded times */
    double worst_gkeys;                /**< keys per second on the worst case, in billions */
} kit_sortlog_worst;

/** A whole log. */
typedef struct kit_sortlog {
    char device[KIT_SORTLOG_DEVICE_LEN]; /**< the GPU's name, as its first line gives it */
    size_t ntimes;                       /**< rows in time[] */
    kit_sortlog_time *time;              /**< the first table's rows, in the log's order (malloc'ed) */
    size_t nworst;                       /**< rows in worst[] */
    kit_sortlog_worst *worst;            /**< the worst-case table's rows, in the log's order (malloc'ed) */
} kit_sortlog;

/**
 * Reads a log. Every row is checked: its fields (n a power of two 2^lg, a known column count,
 * numbers where numbers belong, times above 0), and its derived columns against its times, within
 * what the printed digits allow (Gkeys/s = n / ms, the slowdown = worst / random - 1). A line that
 * sort_bench writes on a failure (`FAIL: ...`) is refused too: its numbers are not to be drawn.
 * @param[in]  f      the log, read to its end
 * @param[in]  path   its name, for messages
 * @param[out] log    the rows; release it with kit_sortlog_free() (empty on error)
 * @param[out] err    why not: "PATH:LINE: expected WHAT, got 'THE LINE'", or "PATH: ..." for the
 *                    whole file (no device line, no rows, out of memory)
 * @param[in]  errlen size of @p err
 * @return 0, or -1 with a message in @p err
 */
int kit_sortlog_read(FILE *f, const char *path, kit_sortlog *log, char *err, size_t errlen);

/**
 * Releases a log's rows and empties it; safe on an empty log.
 * @param[in,out] log the log
 */
void kit_sortlog_free(kit_sortlog *log);

/**
 * The plot of throughput (Gkeys/s) against n, on a log2 axis, of every sorter on random input: a
 * line per sorter, in the order the log first names them; the copy alone is left out. A sorter's
 * colour and marker follow its (E, u) (CUB has its own), so that both plots of one log draw a sorter
 * alike; the baseline is dashed with hollow markers, CF and CUB solid.
 * @param[in]  log    the log
 * @param[in]  path   its name, for the title
 * @param[out] p      the plot
 * @param[out] err    why not: no random row, more sorters or sizes than a plot holds, a sorter
 *                    whose n does not grow from row to row ("PATH:LINE: ...")
 * @param[in]  errlen size of @p err
 * @return 0, or -1 with a message in @p err
 */
int kit_sortlog_throughput_plot(const kit_sortlog *log, const char *path, kit_viz_plot *p, char *err,
                                size_t errlen);

/**
 * The plot of the slowdown on lab 8's worst case (worst-case time / random time - 1, in %) against
 * n, on a log2 axis, of every sorter of the worst-case table, styled as in
 * kit_sortlog_throughput_plot().
 * @param[in]  log    the log
 * @param[in]  path   its name, for the title
 * @param[out] p      the plot
 * @param[out] err    why not: no worst-case table (a `--quick` log), or as for
 *                    kit_sortlog_throughput_plot()
 * @param[in]  errlen size of @p err
 * @return 0, or -1 with a message in @p err
 */
int kit_sortlog_slowdown_plot(const kit_sortlog *log, const char *path, kit_viz_plot *p, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
