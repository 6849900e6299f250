/** @file shard.h Splits batch grading into shards that run apart (Slurm array tasks or local workers) and gathers their results into one gradebook. */
#ifndef SHARD_H
#define SHARD_H

#include <stddef.h>

#include "batch.h"
#include "report.h"

/** The most shards a grading may be split into. */
#define SHARD_MAX 10000

/** The name of the file, in a results folder, that holds the gradebook's columns (a gradebook with no rows). */
#define SHARD_COLUMNS "columns.csv"

/** One shard of a grading: the k-th of n, counted from 0 as Slurm counts array tasks. */
typedef struct shard_spec {
    int k; /**< this shard, 0 to n - 1 */
    int n; /**< how many shards; 0 when none was asked for */
} shard_spec;

/**
 * Reads a shard given as "K/N": two whole numbers, 0 <= K < N <= SHARD_MAX, nothing else.
 * @param[in]  text   what the user wrote
 * @param[out] s      the shard
 * @param[out] err    on failure, one line that says what is wrong and what would be right
 * @param[in]  errlen size of err
 * @return 0, or -1 when text is not such a shard
 */
int shard_parse(const char *text, shard_spec *s, char *err, size_t errlen);

/**
 * The shard a student belongs to: a hash (FNV-1a) of the folder's name, modulo n. It depends on
 * nothing else, so a shard run again, even after students were added to the folder, grades the
 * same students as before.
 * @param[in] student the submission folder's name
 * @param[in] n       how many shards, at least 1
 * @return 0 to n - 1
 */
int shard_of(const char *student, int n);

/**
 * Lists the student folders of a batch folder: its subfolders, sorted, without dot-folders and
 * links (the same ones grader --batch grades).
 * @param[in]  dir    the batch folder
 * @param[out] names  malloc'ed array of malloc'ed names (free with shard_free_names)
 * @param[out] count  how many
 * @param[out] err    on failure, why: the folder cannot be read, or holds no student folder
 * @param[in]  errlen size of err
 * @return 0, or -1 (nothing to free)
 */
int shard_list_students(const char *dir, char ***names, int *count, char *err, size_t errlen);

/** Frees what shard_list_students() returned. */
void shard_free_names(char **names, int count);

/**
 * Readies a results folder for a grading whose labs @p labs holds (specs loaded): creates the
 * folder if need be and writes SHARD_COLUMNS there, or checks that the one there has the same
 * columns, so results of two different gradings never mix in one folder.
 * @param[in]  out    the results folder
 * @param[in]  labs   a report with the grading's labs
 * @param[out] err    on failure, why
 * @param[in]  errlen size of err
 * @return 0, or -1
 */
int shard_prepare_out(const char *out, const grade_report *labs, char *err, size_t errlen);

/**
 * Writes a student's result files, out/STUDENT.json (report_json) and then out/STUDENT.tsv
 * (report_tsv), each to a temporary name renamed into place. The TSV comes last, so a student
 * with a TSV has both files, complete.
 * @param[in] out     the results folder
 * @param[in] student the student
 * @param[in] r       the student's report
 * @return 0, or -1 with a message on stderr
 */
int shard_write_result(const char *out, const char *student, const grade_report *r);

/**
 * Reads a student's out/STUDENT.tsv back into a report, enough for gradebook_put(): labs, tasks,
 * points and verdicts (the tests' details are in the JSON file only). The file must hold one
 * well-formed line per column of @p columns' tasks, in the same order.
 * @param[in]  out     the results folder
 * @param[in]  student the student
 * @param[in]  columns the grading's gradebook columns (SHARD_COLUMNS)
 * @param[out] r       the report
 * @param[out] err     when the file is corrupt, what is wrong with it
 * @param[in]  errlen  size of err
 * @return 0, 1 when there is no result file, -1 when it is corrupt
 */
int shard_read_result(const char *out, const char *student, const gradebook *columns, grade_report *r, char *err,
                      size_t errlen);

/**
 * Grades one student for shard_run(): grader.c's grading of one submission folder.
 * @param[in]  ctx     what the caller passed to shard_run()
 * @param[in]  folder  the student's folder, an absolute path
 * @param[in]  student the folder's name, as the gradebook shows it
 * @param[out] r       the report
 */
typedef void (*shard_grade_fn)(void *ctx, const char *folder, const char *student, grade_report *r);

/**
 * Grades the students of @p dir that fall in shard @p s into result files in @p out. First it
 * removes those students' old result files, so the folder holds, for each of them, the result of
 * this run or none (a run killed half-way leaves missing results, which the gather reports).
 * Other shards' files are not touched. Names are used as file names only, never by a shell.
 * @param[in] dir   the batch folder, one subfolder per student
 * @param[in] s     the shard
 * @param[in] out   the results folder
 * @param[in] labs  a report with the grading's labs (specs loaded), for the columns
 * @param[in] grade grades one student
 * @param[in] ctx   passed to grade
 * @return the exit status: 0, or 2 when nothing could be graded (a bad folder) or a result not written
 */
int shard_run(const char *dir, shard_spec s, const char *out, const grade_report *labs, shard_grade_fn grade,
              void *ctx);

/**
 * Merges the result files of @p out into a gradebook, one row per student, sorted by name. The
 * students are those of @p dir when given, else those with a result file. A student whose result
 * is missing or corrupt gets a row with empty points and "result:missing" or "result:corrupt" as
 * its failures, and a line on stderr that says what to rerun.
 * @param[in] out       the results folder
 * @param[in] dir       the batch folder, or NULL
 * @param[in] gradebook the gradebook to write (atomically, gradebook_save)
 * @return the exit status: 0, 1 when some result was missing or corrupt (the gradebook is written
 *         all the same), 2 when no gradebook could be written
 */
int shard_gather(const char *out, const char *dir, const char *gradebook);

#endif
