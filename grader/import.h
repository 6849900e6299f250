/**
 * @file import.h
 * Turns an export of submissions into the class layout that `grader --batch` reads: an instructor
 * downloads Gradescope's "Export Submissions" zip or an LMS's bulk download (a folder per student,
 * a zip per student, or files named by student), and `grader --import EXPORT --class DIR` lays it
 * out as DIR/STUDENT/NN-slug/FILE, one folder per student, with names made safe.
 */
#ifndef IMPORT_H
#define IMPORT_H

#include <stddef.h>
#include <stdio.h>

#define IMPORT_NAME 64 /**< room for a student's safe name, a lab folder's name or a lab file's name */

/** A file a lab's submission provides: the lab's folder and the file's name (a spec's `file` line). */
typedef struct import_file {
    char lab[IMPORT_NAME];  /**< "01-sequential-merge" */
    char name[IMPORT_NAME]; /**< "merge_sequential.cuh" */
} import_file;

/**
 * A student's name as a folder name that is safe everywhere (a shell, a CSV gradebook, a web page):
 * ASCII letters, digits, '.', '_', '-' and '+' are kept; every run of other bytes (blanks, slashes,
 * accented letters, control bytes) becomes one '_'; leading '.', '-' and '_' and trailing '_' go,
 * so that the name is never hidden, an option or a path; it is cut to IMPORT_NAME - 1 characters.
 * @param[in]  raw the name as the export gives it (untrusted)
 * @param[out] out the safe name: never empty ("student" when nothing is left), never "." or ".."
 * @param[in]  len size of @p out, at least 8
 */
void import_safe_name(const char *raw, char *out, size_t len);

/**
 * The student an export's file or folder name stands for, with what an LMS adds to it taken off:
 * Canvas's "_LATE" and its two trailing number groups ("doejane_LATE_12345_67890" -> "doejane"),
 * Moodle's "_NNN_assignsubmission_file_" ("Jane Doe_123_assignsubmission_file_" -> "Jane Doe"),
 * Blackboard's "ASSIGNMENT_USER_attempt_DATE" (-> "USER"), and the blanks, '_' and '-' that
 * joined the name to a file name. Any other name is kept as it is.
 * @param[in]  raw the name (a folder's, a zip's without ".zip", or a file's before its lab file name)
 * @param[out] out the student's name, not yet made safe (import_safe_name())
 * @param[in]  len size of @p out
 */
void import_student_of(const char *raw, char *out, size_t len);

/**
 * Imports an export into a class folder. The export is a folder or a zip (unpacked first; a single
 * folder at its top, such as Gradescope's assignment_N_export/, is entered). Each entry of it is a
 * student's: a folder (Gradescope's submission_N/, named from submission_metadata.yml when it is
 * there), a zip, or a file whose name ends with a lab file's name (Canvas adds "-1" before the
 * extension for a second upload: taken too). Inside a student's folder or zip, every lab file is
 * looked for at any depth, zips inside included (one level); a copy under a folder named like its
 * lab wins over a loose one, under labs/ best, and copies under solutions/, grader/, build/,
 * skeletons/, __MACOSX/ or a dot-folder are never taken (the kit's own). Two different candidates
 * of the same rank: the first in path order, and a warning. Links are never followed, files over 1 MiB
 * are left, and a zip holding a link, an absolute path or ".." is not unpacked.
 * Each file goes to CLASS/STUDENT/LAB/FILE (replacing an earlier import's), and
 * CLASS/import-names.tsv gets a line per student: safe name, name in the export, where it came from.
 * @param[in]  export_path the export: a folder or a .zip
 * @param[in]  class_dir   the class folder (made if missing)
 * @param[in]  files       the lab files to look for (every lab's, from the kit's specs)
 * @param[in]  nfiles      their number
 * @param[in]  log         where to say, per student, what was found (and each warning)
 * @param[out] err         on failure, why
 * @param[in]  errlen      size of @p err
 * @return the number of students imported (a folder made for each), or -1 with @p err
 */
int import_export(const char *export_path, const char *class_dir, const import_file *files, int nfiles, FILE *log,
                  char *err, size_t errlen);

#endif
