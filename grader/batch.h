/* The gradebook of batch mode: a CSV file with a row per student, written atomically, read back to resume. */
#ifndef BATCH_H
#define BATCH_H

#include <stddef.h>
#include <stdio.h>

#include "report.h"

/**
 * The gradebook's fixed first columns; one column per task ("NN-slug/task",
 * holding its points) follows them.
 */
enum {
    GB_STUDENT,  /**< the submission folder's name */
    GB_SCORE,    /**< points */
    GB_MAX,      /**< points possible */
    GB_PERCENT,  /**< score in percent, one decimal */
    GB_FAILURES, /**< "lab/task:verdict" for each task not passed, space-separated */
    GB_FIXED     /**< how many fixed columns there are */
};

/** A gradebook in memory: a header and rows of as many fields, all malloc'ed strings. */
typedef struct gradebook {
    char **header; /**< the column names */
    int ncols;     /**< how many columns */
    char ***rows;  /**< the rows, each ncols fields */
    int nrows;     /**< rows in use */
    int cap;       /**< rows allocated */
} gradebook;

/**
 * Reads one CSV record (RFC 4180: quoted fields may hold commas, doubled
 * quotes and line breaks) and undoes what report_csv_field() did to each
 * field: the apostrophe that defused a formula goes, \\xHH becomes its byte
 * and \\\\ a backslash, so every field comes back exactly as it was written.
 * @param[out] fields malloc'ed array of malloc'ed strings (free with gradebook_free_fields)
 * @param[out] n      how many
 * @param[out] why    on a malformed record, what is wrong with it (a static string); may be NULL
 * @return 1 when a record was read, 0 at the end of the file, -1 on a malformed record
 *         (a quote never closed, text after a closing quote, a quote inside an unquoted field, a NUL byte)
 */
int gradebook_read_record(FILE *f, char ***fields, int *n, const char **why);

/** Frees what gradebook_read_record() returned. */
void gradebook_free_fields(char **fields, int n);

/**
 * Starts an empty gradebook whose columns are the fixed ones and one per task of @p r's labs.
 * @return 0, or -1 when out of memory
 */
int gradebook_init(gradebook *gb, const grade_report *r);

/**
 * Reads a gradebook written by gradebook_save(). A missing file is an empty
 * gradebook with no header (ncols 0). It reads all or nothing: a record that
 * is malformed CSV, a row with more or fewer fields than the header, or a
 * student with two rows fails the whole load, so no row is dropped unseen.
 * @param[out] err on failure, what is wrong, with the record (the header is record 1)
 * @return 0, or -1 on a malformed file
 */
int gradebook_load(const char *path, gradebook *gb, char *err, size_t errlen);

/** @return the row index of @p student, or -1. */
int gradebook_find(const gradebook *gb, const char *student);

/**
 * Sets the row of r's student from a report (replacing an earlier row of the
 * same student): its points per task column and the fixed columns.
 * @param[in] student the student's name (the submission folder's name)
 * @return 0, or -1 when out of memory or @p gb has no header (not started by gradebook_init() or loaded from a file)
 */
int gradebook_put(gradebook *gb, const char *student, const grade_report *r);

/**
 * Writes the gradebook to @p path atomically: a temporary file in the same
 * folder, flushed to disk, then renamed over @p path. An interruption leaves
 * either the old or the new file, never half of one.
 * @return 0, or -1 with a reason in @p err
 */
int gradebook_save(const char *path, const gradebook *gb, char *err, size_t errlen);

/** @return 1 when both have the same columns in the same order. */
int gradebook_same_columns(const gradebook *a, const gradebook *b);

/**
 * Prints the summary of batch mode: how many students, the mean, the score
 * distribution in tenths (90-100% together with 100%), and the most common
 * failures ("lab/task:verdict", with how many students had each, cleaned as
 * report_clean() cleans: they are read from the file).
 * @param[in] top how many failures to list
 */
void gradebook_summary(FILE *f, const gradebook *gb, int top);

/**
 * Prints batch mode's line for a student just graded, "  NAME: P/M (X%) in S s",
 * with the name cleaned (report_clean()) so that a folder name cannot drive the terminal.
 * @param[in] student the submission folder's name, untrusted
 * @param[in] r       the student's report
 */
void gradebook_progress(FILE *f, const char *student, const grade_report *r);

/** Frees everything the gradebook holds and zeroes it. */
void gradebook_free(gradebook *gb);

#endif
