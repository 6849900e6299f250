/* Batch grading split into shards that run apart, each writing one result file per student, and the gather that merges those files into one gradebook. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shard.h"

#define PATH_BUF 4400 /* a folder (PATH_MAX) and a name (NAME_MAX) */

/* Reads `len` characters that must all be digits (no sign, no spaces) as a number up to max; returns 0 or -1. */
static int read_count(const char *s, size_t len, int max, int *out)
{
    long v = 0;
    if (len == 0 || len > 9)
        return -1;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = 10 * v + (s[i] - '0');
    }
    if (v > max)
        return -1;
    *out = (int)v;
    return 0;
}

int shard_parse(const char *text, shard_spec *s, char *err, size_t errlen)
{
    const char *slash = strchr(text, '/');
    int k, n;
    if (!slash || read_count(text, (size_t)(slash - text), INT_MAX, &k) != 0 ||
        read_count(slash + 1, strlen(slash + 1), INT_MAX, &n) != 0) {
        snprintf(err, errlen, "bad shard '%s': write K/N, two whole numbers with 0 <= K < N "
                 "(shards count from 0, as Slurm's array tasks do)", text);
        return -1;
    }
    if (n < 1 || n > SHARD_MAX) {
        snprintf(err, errlen, "bad shard '%s': N, the number of shards, must be 1 to %d", text, SHARD_MAX);
        return -1;
    }
    if (k >= n) {
        snprintf(err, errlen, "bad shard '%s': K must be below N (the %d shards are 0 to %d)", text, n, n - 1);
        return -1;
    }
    s->k = k;
    s->n = n;
    return 0;
}

int shard_of(const char *student, int n)
{
    uint32_t h = 2166136261u; /* FNV-1a: a few lines, and the same answer on every machine */
    for (const unsigned char *p = (const unsigned char *)student; *p; p++) {
        h ^= *p;
        h *= 16777619u;
    }
    return (int)(h % (uint32_t)n);
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends a copy of the first len characters of name to a list; returns 0, or -1 when out of memory. */
static int add_name(char ***names, int *count, const char *name, size_t len)
{
    char **grown = realloc(*names, (size_t)(*count + 1) * sizeof *grown);
    if (!grown)
        return -1;
    *names = grown;
    if (!(grown[*count] = strndup(name, len)))
        return -1;
    (*count)++;
    return 0;
}

void shard_free_names(char **names, int count)
{
    for (int i = 0; i < count && names; i++)
        free(names[i]);
    free(names);
}

int shard_list_students(const char *dir, char ***names, int *count, char *err, size_t errlen)
{
    *names = NULL;
    *count = 0;
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "cannot read the submissions folder %s: %s", dir, strerror(errno));
        return -1;
    }
    for (struct dirent *e; (e = readdir(d));) {
        struct stat st;
        if (e->d_name[0] == '.' || fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISDIR(st.st_mode))
            continue;
        if (add_name(names, count, e->d_name, strlen(e->d_name)) != 0) {
            snprintf(err, errlen, "out of memory listing %s", dir);
            closedir(d);
            shard_free_names(*names, *count);
            return -1;
        }
    }
    closedir(d);
    if (*count == 0) {
        snprintf(err, errlen, "%s holds no submission folders (it needs one subfolder per student)", dir);
        free(*names);
        *names = NULL;
        return -1;
    }
    qsort(*names, (size_t)*count, sizeof **names, cmp_name);
    return 0;
}

/* out/STUDENT.EXT into buf; returns 0, or -1 when it does not fit. */
static int result_path(char *buf, size_t len, const char *out, const char *student, const char *ext)
{
    int n = snprintf(buf, len, "%s/%s%s", out, student, ext);
    return n >= 0 && (size_t)n < len ? 0 : -1;
}

/* Writes a name between quotes, escaped as in JSON, so that no folder name can drive the terminal. */
static void print_student(FILE *f, const char *student)
{
    fputc('"', f);
    report_json_string(f, student);
    fputc('"', f);
}

int shard_prepare_out(const char *out, const grade_report *labs, char *err, size_t errlen)
{
    struct stat st;
    char path[PATH_BUF];
    if (mkdir(out, 0755) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot make the results folder %s: %s", out, strerror(errno));
        return -1;
    }
    if (stat(out, &st) != 0 || !S_ISDIR(st.st_mode) || result_path(path, sizeof path, out, SHARD_COLUMNS, "")) {
        snprintf(err, errlen, "the results folder %s is not a folder", out);
        return -1;
    }
    gradebook want, have;
    if (gradebook_init(&want, labs) != 0) {
        snprintf(err, errlen, "out of memory");
        gradebook_free(&want);
        return -1;
    }
    int rc = gradebook_load(path, &have, err, errlen);
    if (rc == 0 && have.ncols && !gradebook_same_columns(&want, &have)) {
        snprintf(err, errlen, "%s holds the results of another grading (its %s lists other labs or tasks); "
                 "give another --out folder, or empty this one", out, SHARD_COLUMNS);
        rc = -1;
    } else if (rc == 0 && !have.ncols) {
        rc = gradebook_save(path, &want, err, errlen); /* shards starting together write the same file: harmless */
    }
    gradebook_free(&want);
    gradebook_free(&have);
    return rc;
}

int shard_write_result(const char *out, const char *student, const grade_report *r)
{
    char json[PATH_BUF], tsv[PATH_BUF];
    if (result_path(json, sizeof json, out, student, ".json") || result_path(tsv, sizeof tsv, out, student, ".tsv")) {
        fprintf(stderr, "grader: the path of a result file in %s is too long\n", out);
        return -1;
    }
    if (report_write_file(json, report_json, r) != 0 || report_write_file(tsv, report_tsv, r) != 0)
        return -1;
    return 0;
}

/* Removes a student's result files, the TSV first (it says the student is done); a missing file is fine. */
static void remove_result(const char *out, const char *student)
{
    char path[PATH_BUF];
    if (result_path(path, sizeof path, out, student, ".tsv") == 0)
        unlink(path);
    if (result_path(path, sizeof path, out, student, ".json") == 0)
        unlink(path);
}

/* Finds a verdict by the name check.c's verdict_name() gives it; returns 0, or -1 for any other text. */
static int verdict_of(const char *name, verdict *v)
{
    for (int i = V_PASS; i <= V_ERROR; i++) /* V_ERROR is the last verdict */
        if (strcmp(verdict_name((verdict)i), name) == 0) {
            *v = (verdict)i;
            return 0;
        }
    return -1;
}

/*
 * Adds one line of report_tsv's output (lab, task, points, max, verdict, detail; its line end
 * removed) to r, as the next task of the last lab, or of a new lab when the lab changes.
 * Returns 0, or -1 with what is wrong in err.
 */
static int add_task_line(grade_report *r, char *line, char *err, size_t errlen)
{
    char *f[6] = {line};
    for (int i = 1; i < 6; i++) {
        char *tab = f[i - 1] ? strchr(f[i - 1], '\t') : NULL;
        f[i] = tab ? tab + 1 : NULL;
        if (tab)
            *tab = '\0';
    }
    int points, max;
    verdict v;
    if (!f[5] || !f[0][0] || strlen(f[0]) >= sizeof r->labs[0].spec.lab || !f[1][0] ||
        strlen(f[1]) >= sizeof r->labs[0].spec.tasks[0].name || read_count(f[2], strlen(f[2]), 1000000, &points) ||
        read_count(f[3], strlen(f[3]), 1000000, &max) || points > max || verdict_of(f[4], &v) != 0) {
        snprintf(err, errlen, "not a line of lab, task, points, max, verdict and detail");
        return -1;
    }
    lab_result *lab = r->nlabs ? &r->labs[r->nlabs - 1] : NULL;
    if (!lab || strcmp(lab->spec.lab, f[0]) != 0) {
        if (r->nlabs == REPORT_MAX_LABS) {
            snprintf(err, errlen, "more than %d labs", REPORT_MAX_LABS);
            return -1;
        }
        lab = &r->labs[r->nlabs++];
        snprintf(lab->spec.lab, sizeof lab->spec.lab, "%s", f[0]);
        lab->spec_ok = 1;
    }
    if (lab->spec.ntasks == SPEC_MAX_TASKS) {
        snprintf(err, errlen, "more than %d tasks in a lab", SPEC_MAX_TASKS);
        return -1;
    }
    int t = lab->spec.ntasks++;
    snprintf(lab->spec.tasks[t].name, sizeof lab->spec.tasks[t].name, "%s", f[1]);
    lab->spec.tasks[t].points = max;
    lab->tasks[t].points = points;
    lab->tasks[t].v = v;
    snprintf(lab->tasks[t].detail, sizeof lab->tasks[t].detail, "%s", f[5]);
    return 0;
}

/* Are r's tasks the columns' tasks, in the same order? Returns 0, or -1 with the first difference in err. */
static int check_columns(const grade_report *r, const gradebook *columns, char *err, size_t errlen)
{
    int c = GB_FIXED;
    for (int l = 0; l < r->nlabs; l++)
        for (int t = 0; t < r->labs[l].spec.ntasks; t++, c++) {
            char col[200];
            snprintf(col, sizeof col, "%s/%s", r->labs[l].spec.lab, r->labs[l].spec.tasks[t].name);
            if (c >= columns->ncols || strcmp(columns->header[c], col) != 0) {
                snprintf(err, errlen, "its task %d is not the gradebook's (a result of another grading?)",
                         c - GB_FIXED + 1);
                return -1;
            }
        }
    if (c != columns->ncols) {
        snprintf(err, errlen, "it has %d tasks, the gradebook %d (cut short?)", c - GB_FIXED, columns->ncols - GB_FIXED);
        return -1;
    }
    return 0;
}

int shard_read_result(const char *out, const char *student, const gradebook *columns, grade_report *r, char *err,
                      size_t errlen)
{
    char path[PATH_BUF];
    memset(r, 0, sizeof *r);
    if (result_path(path, sizeof path, out, student, ".tsv") != 0) {
        snprintf(err, errlen, "its path is too long");
        return -1;
    }
    FILE *f = fopen(path, "r");
    if (!f && errno == ENOENT)
        return 1;
    if (!f) {
        snprintf(err, errlen, "cannot read it: %s", strerror(errno));
        return -1;
    }
    snprintf(r->submission, sizeof r->submission, "%s", student);
    char *line = NULL, why[128];
    size_t cap = 0;
    ssize_t len;
    int lines = 0, rc = 0;
    while (rc == 0 && (len = getline(&line, &cap, f)) > 0) {
        lines++;
        if (line[len - 1] != '\n' || strlen(line) != (size_t)len) { /* cut short, or a NUL byte inside */
            snprintf(err, errlen, "line %d is damaged", lines);
            rc = -1;
        } else {
            line[len - 1] = '\0';
            if (add_task_line(r, line, why, sizeof why) != 0) {
                snprintf(err, errlen, "line %d: %s", lines, why);
                rc = -1;
            }
        }
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, errlen, "cannot read it: %s", strerror(errno));
        rc = -1;
    }
    free(line);
    fclose(f);
    if (rc == 0)
        rc = check_columns(r, columns, err, errlen);
    if (rc == 0)
        report_total(r);
    return rc;
}

int shard_run(const char *dir, shard_spec s, const char *out, const grade_report *labs, shard_grade_fn grade,
              void *ctx)
{
    char err[PATH_BUF] = "out of memory", **names = NULL;
    int count = 0, mine = 0, status = 2;
    grade_report *r = malloc(sizeof *r);
    if (!r || shard_list_students(dir, &names, &count, err, sizeof err) != 0 ||
        shard_prepare_out(out, labs, err, sizeof err) != 0)
        goto done;
    for (int i = 0; i < count; i++)
        mine += shard_of(names[i], s.n) == s.k;
    /* Forget this shard's old results first: a run killed half-way then leaves missing results, never stale ones.
     * Only then the first line, flushed, so that a log showing it means the old results are gone. */
    for (int i = 0; i < count; i++)
        if (shard_of(names[i], s.n) == s.k)
            remove_result(out, names[i]);
    printf("Shard %d/%d: %d of the %d students of %s, results into %s\n", s.k, s.n, mine, count, dir, out);
    fflush(stdout);
    status = 0;
    for (int i = 0; i < count && status != 2; i++) {
        char path[PATH_BUF], abs[PATH_MAX];
        if (shard_of(names[i], s.n) != s.k)
            continue;
        if (result_path(path, sizeof path, dir, names[i], "") != 0 || !realpath(path, abs)) {
            fprintf(stderr, "grader: cannot grade ");
            print_student(stderr, names[i]);
            fprintf(stderr, " of %s: %s\n", dir, strerror(errno));
            status = 1; /* that student's result is missing, and the gather will say so */
            continue;
        }
        grade(ctx, abs, names[i], r);
        if (shard_write_result(out, names[i], r) != 0) {
            snprintf(err, sizeof err, "shard %d/%d stopped: a result could not be written", s.k, s.n);
            status = 2;
            break;
        }
        printf("  ");
        print_student(stdout, names[i]);
        printf(": %d/%d (%.1f%%) in %.1f s\n", r->points, r->max_points, report_percent(r), r->seconds);
        fflush(stdout); /* the log follows the grading live, as an instructor watching a cluster job expects */
    }
    if (status == 0)
        printf("Shard %d/%d: done, %d graded.\n", s.k, s.n, mine);
done:
    if (status == 2)
        fprintf(stderr, "grader: %s\n", err);
    shard_free_names(names, count);
    free(r);
    return status ? 2 : 0;
}

/* The students with a result file (STUDENT.tsv or STUDENT.json) in out, sorted, each once; returns 0 or -1. */
static int list_results(const char *out, char ***names, int *count, char *err, size_t errlen)
{
    *names = NULL;
    *count = 0;
    DIR *d = opendir(out);
    if (!d) {
        snprintf(err, errlen, "cannot read the results folder %s: %s", out, strerror(errno));
        return -1;
    }
    for (struct dirent *e; (e = readdir(d));) {
        const char *dot = strrchr(e->d_name, '.');
        if (e->d_name[0] == '.' || !dot || (strcmp(dot, ".tsv") != 0 && strcmp(dot, ".json") != 0))
            continue;
        if (add_name(names, count, e->d_name, (size_t)(dot - e->d_name)) != 0) {
            snprintf(err, errlen, "out of memory listing %s", out);
            closedir(d);
            return -1;
        }
    }
    closedir(d);
    qsort(*names, (size_t)*count, sizeof **names, cmp_name);
    int kept = 0;
    for (int i = 0; i < *count; i++) {
        if (kept && strcmp((*names)[kept - 1], (*names)[i]) == 0)
            free((*names)[i]);
        else
            (*names)[kept++] = (*names)[i];
    }
    *count = kept;
    return 0;
}

/* Gives a student without a usable result a row that says so: no points, and `what` as its failures. */
static int put_problem(gradebook *gb, const char *student, const char *what, grade_report *blank)
{
    memset(blank, 0, sizeof *blank);
    if (gradebook_put(gb, student, blank) != 0)
        return -1;
    char **row = gb->rows[gradebook_find(gb, student)];
    const int cols[] = {GB_SCORE, GB_MAX, GB_PERCENT, GB_FAILURES};
    for (int i = 0; i < 4; i++) {
        free(row[cols[i]]);
        row[cols[i]] = strdup(cols[i] == GB_FAILURES ? what : "");
        if (!row[cols[i]])
            return -1;
    }
    return 0;
}

int shard_gather(const char *out, const char *dir, const char *gradebook_path)
{
    char err[PATH_BUF] = "out of memory", path[PATH_BUF], **names = NULL;
    int count = 0, missing = 0, corrupt = 0, status = 2;
    gradebook gb;
    memset(&gb, 0, sizeof gb);
    grade_report *r = malloc(sizeof *r);
    if (!r || result_path(path, sizeof path, out, SHARD_COLUMNS, "") != 0 ||
        gradebook_load(path, &gb, err, sizeof err) != 0)
        goto done;
    if (gb.ncols == 0) {
        snprintf(err, sizeof err, "no shard has written to %s yet (it has no %s): run the shards first", out,
                 SHARD_COLUMNS);
        goto done;
    }
    if ((dir ? shard_list_students(dir, &names, &count, err, sizeof err)
             : list_results(out, &names, &count, err, sizeof err)) != 0)
        goto done;
    for (int i = 0; i < count; i++) {
        char why[300];
        int rc = shard_read_result(out, names[i], &gb, r, why, sizeof why);
        if ((rc == 0 ? gradebook_put(&gb, names[i], r)
                     : put_problem(&gb, names[i], rc > 0 ? "result:missing" : "result:corrupt", r)) != 0) {
            snprintf(err, sizeof err, "out of memory");
            goto done;
        }
        if (rc == 0)
            continue;
        missing += rc > 0;
        corrupt += rc < 0;
        fprintf(stderr, "grader: ");
        print_student(stderr, names[i]);
        if (rc > 0)
            fprintf(stderr, " has no result in %s: its shard did not finish; rerun that shard\n", out);
        else
            fprintf(stderr, " has a corrupt result in %s (%s); rerun its shard\n", out, why);
    }
    if (gradebook_save(gradebook_path, &gb, err, sizeof err) != 0)
        goto done;
    printf("Gathered %d students from %s into %s: %d missing, %d corrupt.\n", count, out, gradebook_path, missing,
           corrupt);
    gradebook_summary(stdout, &gb, 5);
    status = missing || corrupt ? 1 : 0;
done:
    if (status == 2)
        fprintf(stderr, "grader: %s\n", err);
    shard_free_names(names, count);
    gradebook_free(&gb);
    free(r);
    return status;
}
