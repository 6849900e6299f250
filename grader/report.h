/* The grader's results for one submission, the formats it writes them in (table, TSV, JSON, Gradescope, JUnit, Markdown), and the one cleaner of untrusted text they all write through. */
#ifndef REPORT_H
#define REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "check.h"
#include "spec.h"

#define REPORT_MAX_LABS 32
#define REPORT_DETAIL 256

/** What one spec test came to. */
typedef struct test_result {
    verdict v;                  /**< the verdict */
    int skipped;                /**< 1 when not run because an earlier test of its task timed out */
    double seconds;             /**< wall-clock time of the run, 0 when not run */
    long long conflicts;        /**< shared-memory load conflicts counted for a threshold, or -1 */
    char detail[REPORT_DETAIL]; /**< one line; may hold untrusted text (compiler or runner output) */
} test_result;

/** What one task came to: all or nothing over its tests. */
typedef struct task_result {
    verdict v;                  /**< the task's verdict: its first failing test's, or pass */
    int points;                 /**< points earned: all of the task's, or 0 */
    char detail[REPORT_DETAIL]; /**< "pass (N tests)" or the first failing test's line */
    int failed_test;            /**< index into spec.tests of the test the detail names, or -1 (passed, or none ran) */
} task_result;

/**
 * When Gradescope shows a lab's entries to students: one of Gradescope's visibilities, "visible",
 * "after_due_date", "after_published" or "hidden", per kind of entry; "" stands for the default.
 * A lab's grading.spec sets it with a `visibility` line (report_visibility_read()).
 */
typedef struct report_visibility {
    char tasks[16];        /**< each task's entry, its points and verdict (default "visible") */
    char public_tests[16]; /**< each public test's entry (default "visible") */
    char hidden_tests[16]; /**< each hidden test's entry, the only place its name and details appear (default "after_due_date") */
} report_visibility;

/** One graded lab: its spec (public and hidden tests) and the results. */
typedef struct lab_result {
    spec_lab spec;                         /**< the lab's spec, public and hidden tests */
    int spec_ok;                           /**< 0 when the spec could not be read: nothing below is valid */
    char spec_error[REPORT_DETAIL];        /**< why the spec could not be read */
    task_result tasks[SPEC_MAX_TASKS];     /**< parallel to spec.tasks */
    test_result tests[SPEC_MAX_TESTS];     /**< parallel to spec.tests */
    verdict whole;                         /**< pass when the runner was built and the tests ran; else every task's verdict */
    int points;                            /**< points earned in the lab */
    int max_points;                        /**< points possible in the lab */
    report_visibility visibility;          /**< Gradescope's visibility of its entries (zeroed: the defaults) */
    char warnings[2048];                   /**< the compiler's warnings in the student's files, one block of their lines; "" for none */
} lab_result;

/** A whole submission's results. */
typedef struct grade_report {
    char submission[4096]; /**< as the user named it; untrusted text */
    const char *mode;      /**< "cpu" or "gpu": how the runners were built */
    int nlabs;             /**< labs graded */
    lab_result labs[REPORT_MAX_LABS]; /**< their results, in lab order */
    int points;            /**< points earned in all */
    int max_points;        /**< points possible in all */
    double seconds;        /**< wall-clock time of the whole grading */
} grade_report;

/**
 * Writes a thresholds file: one line per test with a conflict threshold, tab-separated: lab, test,
 * kernel, the spec's comparison and N, the count this run measured (or "not-measured"), how it was
 * counted ("simulated" or "ncu"), and the mode's architecture. Grading the solutions on a new GPU
 * with it shows which thresholds to recalibrate.
 */
void report_calibration(FILE *f, const grade_report *r);

/** @return the score in percent (0 when nothing could be scored). */
double report_percent(const grade_report *r);

/** Adds up each lab's points and the report's total from the task results. */
void report_total(grade_report *r);

/**
 * Copies @p src into @p dst as text that is safe to show anywhere: a terminal,
 * a spreadsheet, a web page. Each of these becomes one '?': a byte below 0x20
 * or 0x7F (ESC, CR, BS, tab, line feed...), a byte that is not part of valid
 * UTF-8, a C1 control (U+0080..U+009F), a bidi control (U+061C, U+200E,
 * U+200F, U+202A..U+202E, U+2066..U+2069), U+2028, U+2029, U+FFFE and
 * U+FFFF. Every other character is kept as it is. Untrusted text (compiler
 * lines, runner notes, folder names) goes through this before any output.
 * Cleaning twice gives what cleaning once gave.
 * @param[out] dst where the clean text goes, always NUL-terminated; it may be @p src itself
 * @param[in]  len size of @p dst; a longer text is cut at a character boundary, never inside one
 * @param[in]  src the text; NULL reads as ""
 * @return the length written
 */
size_t report_clean(char *dst, size_t len, const char *src);

/**
 * Writes @p s cleaned as report_clean() cleans it, without a length limit.
 * @param[in] f where to
 * @param[in] s the text; NULL reads as ""
 */
void report_put_clean(FILE *f, const char *s);

/**
 * Writes @p s, cleaned as report_clean() cleans it, as the inside of a JSON
 * string (no quotes around it): '"' and '\\' are escaped, so the output is
 * always valid JSON and holds no control character.
 * @param[in] f where to
 * @param[in] s the text; NULL reads as ""
 */
void report_json_string(FILE *f, const char *s);

/**
 * Writes @p s, cleaned as report_clean() cleans it, as XML character data or
 * an attribute value: & < > " ' become entities.
 * @param[in] f where to
 * @param[in] s the text; NULL reads as ""
 */
void report_xml_text(FILE *f, const char *s);

/**
 * Writes @p s as one CSV field (RFC 4180) that gradebook_read_record() reads
 * back exactly. Where report_clean() would write '?', each byte is written as
 * \\xHH instead, a backslash as \\\\, and a leading apostrophe as \\x27,
 * so the field holds no control character yet loses nothing (the gradebook
 * finds students by name). The field is quoted when it holds a comma or a
 * quote, with quotes doubled. A field that a spreadsheet would read as a
 * formula (starting with = + - @) gets a leading apostrophe.
 * @param[in] f where to
 * @param[in] s the text; NULL reads as ""
 */
void report_csv_field(FILE *f, const char *s);

/**
 * The command that reruns a lab's public test on the student's own file, as the student types it.
 * @param[out] buf  "make check LAB=02 TEST=b-below-a", or "make check LAB=02" when @p test is NULL
 * @param[in]  len  size of @p buf
 * @param[in]  lab  the lab's folder, "NN-slug" (LAB= gets its number)
 * @param[in]  test a public test's name, or NULL for the whole lab
 */
void report_rerun(char *buf, size_t len, const char *lab, const char *test);

/**
 * The command that runs the lab's driver (make run) on a test's exact input: its generator, seed,
 * sizes and type, and the launch the grader asks for, as the driver's options. The drivers make
 * their input with the grader's own generators, so that the student sees the failing input.
 * @param[out] buf "make run LAB=06 ARGS=\"--type i32 --m 33 --n 500 --gen random --seed 1 ...\""
 * @param[in]  len size of @p buf
 * @param[in]  lab the lab's folder, "NN-slug"
 * @param[in]  t   a public test (a hidden one's seed is not for the student)
 */
void report_run_input(char *buf, size_t len, const char *lab, const spec_test *t);

/**
 * The score table: one block per lab, a line per task, and the total; every text is cleaned
 * (report_clean()). A failing task's line ends with the command that reruns it (report_rerun()),
 * unless a hidden test failed it.
 */
void report_table(FILE *f, const grade_report *r);

/**
 * make check's report: quiet on success, one line per failure. Per lab, a line for each failing
 * test (its name, its detail with what was expected and what came, the command that reruns it),
 * one line per task instead when the task reached a skeleton's "not implemented", or one line for
 * the lab when its runner was not built; then one summary line: "lab NN-slug, CPU build: P of T
 * public tests pass", followed by @p note in parentheses when there is one.
 * @param[in] f    where to
 * @param[in] r    the graded report
 * @param[in] note a remark for each summary line, such as "no GPU here: CPU build only", or NULL
 * @return 0 when every test passed, 1 otherwise
 */
int report_brief(FILE *f, const grade_report *r, const char *note);

/**
 * One line per task: lab, task, points, max, verdict, detail, tab-separated.
 * Every text is cleaned (report_clean()), so no tab or line break of a detail survives.
 */
void report_tsv(FILE *f, const grade_report *r);

/** Everything: labs, tasks with points, and each test with its visibility, verdict, detail and time. */
void report_json(FILE *f, const grade_report *r);

/**
 * Reads the `visibility` lines of a grading spec into @p v; spec_parse() reads the rest and skips them:
 *
 *     visibility [tasks=V] [public=V] [hidden=V]
 *
 * V is one of Gradescope's visibilities: visible, after_due_date, after_published or hidden. The
 * defaults (a lab without the line): tasks=visible public=visible hidden=after_due_date, so that each
 * task's points and its public tests show at once and a hidden test's name and details after the due
 * date. A later line overrides the keys it names.
 * @param[in]  f      the spec, read from where it stands to its end
 * @param[in]  name   its name, for messages
 * @param[out] v      the lab's visibility (keys not named keep what they held)
 * @param[out] err    on error, "NAME:LINE: what is wrong"
 * @param[in]  errlen size of @p err
 * @return 0, or -1 on the first bad line
 */
int report_visibility_read(FILE *f, const char *name, report_visibility *v, char *err, size_t errlen);

/**
 * Gradescope's results.json. The top level has the total "score", and an "output" that sums up the submission: the total, each lab's
 * points and the tasks that failed. One entry per task carries the points; one entry per test
 * (0 points) says whether it passed, and a test that did not run (after an earlier test of its task
 * failed) is an entry without a score or a status, named "(not run)". Each entry's visibility is
 * its lab's (report_visibility): by default, task entries and public tests are visible and hidden
 * tests after the due date; a task that a hidden test failed then says so without naming it.
 * Every text is plain text (output_format "text"), cleaned (report_clean()).
 */
void report_gradescope(FILE *f, const grade_report *r);

/**
 * The feedback page an instructor can send a student, in Markdown: the score, a table of every
 * task's points and verdict, then each failing test with its line (as a code block) and the
 * command that reruns it on the student's own file (make check), a hidden test's line without a
 * command, and a count of the tests that did not run. Untrusted text (the submission's name, details)
 * is cleaned, and escaped where Markdown would read it as markup.
 */
void report_markdown(FILE *f, const grade_report *r);

/**
 * JUnit XML for CI systems: a testsuite per lab, a testcase per test
 * (classname "lab.task"); a failing test gets a <failure> (an <error> when the
 * grader itself failed), a test not run gets <skipped>.
 */
void report_junit(FILE *f, const grade_report *r);

/**
 * Writes a report to @p path with @p writer, through a temporary file in the
 * same folder that is renamed over @p path only once it is complete.
 * @return 0 on success, -1 with a message on stderr
 */
int report_write_file(const char *path, void (*writer)(FILE *, const grade_report *), const grade_report *r);

#endif
