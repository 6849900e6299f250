/**
 * @file complog.h
 * The student's own compiler diagnostics: from a compiler's log (g++, clang++ or nvcc), the
 * warnings and errors located in the student's file, as one block of their lines, so that a
 * student sees what the compiler said about their code and nothing of what it said about the kit's.
 */
#ifndef COMPLOG_H
#define COMPLOG_H

#include <stddef.h>

/**
 * Extracts from a compiler's log the diagnostics located in the student's file: each line that
 * names that file and a place in it, as GCC and Clang write them ("PATH:LINE:COL: warning: ...",
 * "PATH: In function ...") and nvcc does ("PATH(LINE): error: ..."), with the lines under it up to
 * the next diagnostic (the source line and its caret). A diagnostic of another file is left out
 * with its lines, and so are the include chains ("In file included from"), the closing counts
 * ("1 warning generated.") and nvcc's remarks. The file is known by its name: any folder before it
 * ("./", the grader's scratch folder) matches.
 * @param[in]  log   the compiler's output (stdout and stderr); NULL reads as ""
 * @param[in]  file  the student's file's name, such as "merge_sequential.cuh"
 * @param[in]  shown the path to write in place of the file's own in each diagnostic (the one the
 *                   student knows, "labs/01-sequential-merge/merge_sequential.cuh"), or NULL to keep it
 * @param[out] out   the block: the lines kept, each ending with '\n', each cleaned as report_clean()
 *                   cleans it; "" when there are none. When they do not fit, as many whole lines as
 *                   fit, then "(N more lines)"
 * @param[in]  len   size of @p out
 * @return the number of warnings and errors located in the file (notes and context lines not counted)
 */
int complog_extract(const char *log, const char *file, const char *shown, char *out, size_t len);

/**
 * complog_extract() on a log file (its first MiB).
 * @param[in]  path  the compiler's log
 * @param[in]  file  the student's file's name
 * @param[in]  shown its path as the student knows it, or NULL
 * @param[out] out   the block ("" when the log cannot be read)
 * @param[in]  len   size of @p out
 * @return the number of warnings and errors located in the file, or -1 when the log cannot be read
 */
int complog_extract_file(const char *path, const char *file, const char *shown, char *out, size_t len);

#endif
