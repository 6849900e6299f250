/* The gradebook of batch mode: a CSV file with a row per student, written atomically, read back to resume. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch.h"

static const char *const FIXED[GB_FIXED] = {"student", "score", "max", "percent", "failures"};

void gradebook_free_fields(char **fields, int n)
{
    for (int i = 0; i < n && fields; i++)
        free(fields[i]);
    free(fields);
}

/* A growing string. */
typedef struct sbuf {
    char *s;
    size_t len, cap;
} sbuf;

static int sb_put(sbuf *b, char c)
{
    if (b->len + 1 >= b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 64;
        char *s = realloc(b->s, cap);
        if (!s)
            return -1;
        b->s = s;
        b->cap = cap;
    }
    b->s[b->len++] = c;
    b->s[b->len] = '\0';
    return 0;
}

/* The value of a hexadecimal digit, or -1. */
static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/*
 * Undoes report_csv_field's escapes in place: \\ is a backslash, \xHH a byte
 * (but never NUL). Any other backslash stays as it is, so a gradebook written
 * before these escapes still reads as it did.
 */
static void unescape(char *s)
{
    char *out = s;
    for (const char *p = s; *p;) {
        int hi = p[0] == '\\' && p[1] == 'x' ? hex_digit(p[2]) : -1, lo = hi >= 0 ? hex_digit(p[3]) : -1;
        if (p[0] == '\\' && p[1] == '\\') {
            *out++ = '\\';
            p += 2;
        } else if (lo >= 0 && (hi | lo) != 0) {
            *out++ = (char)(16 * hi + lo);
            p += 4;
        } else
            *out++ = *p++;
    }
    *out = '\0';
}

/* Ends the current field: appends it to the list, undoing what report_csv_field() did to it. */
static int end_field(sbuf *b, int quoted, char ***fields, int *n)
{
    if (sb_put(b, '\0') != 0)
        return -1;
    b->len--;
    char *s = b->s;
    if (quoted && s[0] == '\'' && s[1] && strchr("=+-@\t\r", s[1])) /* the apostrophe that defused a formula */
        memmove(s, s + 1, strlen(s));
    unescape(s);
    char **grown = realloc(*fields, (size_t)(*n + 1) * sizeof *grown);
    if (!grown)
        return -1;
    *fields = grown;
    (*fields)[(*n)++] = s;
    memset(b, 0, sizeof *b);
    return 0;
}

int gradebook_read_record(FILE *f, char ***fields, int *n, const char **why)
{
    *fields = NULL;
    *n = 0;
    sbuf b = {0};
    const char *reason = "out of memory";
    int c = fgetc(f), quoted = 0, in_quotes = 0;
    if (c == EOF)
        return 0;
    for (;; c = fgetc(f)) {
        if (c == '\0') {
            reason = "a NUL byte";
            goto bad;
        }
        if (in_quotes) {
            if (c == EOF) {
                reason = "a quote that is never closed";
                goto bad;
            }
            if (c == '"') {
                int next = fgetc(f);
                if (next == '"') {
                    if (sb_put(&b, '"'))
                        goto bad;
                    continue;
                }
                in_quotes = 0;
                ungetc(next, f);
                continue;
            }
            if (sb_put(&b, (char)c))
                goto bad;
            continue;
        }
        if (c == '"' && b.len == 0 && !quoted) {
            quoted = in_quotes = 1;
            continue;
        }
        if (c == ',' || c == '\n' || c == EOF) {
            if (end_field(&b, quoted, fields, n))
                goto bad;
            quoted = 0;
            if (c != ',')
                return 1;
            continue;
        }
        if (c == '\r')
            continue;
        if (quoted || c == '"') {
            reason = quoted ? "text after a closing quote" : "a quote inside a field that does not start with one";
            goto bad;
        }
        if (sb_put(&b, (char)c))
            goto bad;
    }
bad:
    free(b.s);
    gradebook_free_fields(*fields, *n);
    *fields = NULL;
    *n = 0;
    if (why)
        *why = reason;
    return -1;
}

int gradebook_init(gradebook *gb, const grade_report *r)
{
    memset(gb, 0, sizeof *gb);
    int cols = GB_FIXED;
    for (int l = 0; l < r->nlabs; l++)
        cols += r->labs[l].spec_ok ? r->labs[l].spec.ntasks : 0;
    gb->header = calloc((size_t)cols, sizeof *gb->header);
    if (!gb->header)
        return -1;
    gb->ncols = cols;
    for (int c = 0; c < GB_FIXED; c++)
        gb->header[c] = strdup(FIXED[c]);
    int c = GB_FIXED;
    for (int l = 0; l < r->nlabs; l++)
        for (int t = 0; r->labs[l].spec_ok && t < r->labs[l].spec.ntasks; t++)
            if (asprintf(&gb->header[c++], "%s/%s", r->labs[l].spec.lab, r->labs[l].spec.tasks[t].name) < 0)
                gb->header[c - 1] = NULL;
    for (c = 0; c < cols; c++)
        if (!gb->header[c])
            return -1;
    return 0;
}

/* Appends a row (taking ownership of its fields). */
static int add_row(gradebook *gb, char **fields)
{
    if (gb->nrows == gb->cap) {
        int cap = gb->cap ? 2 * gb->cap : 64;
        char ***rows = realloc(gb->rows, (size_t)cap * sizeof *rows);
        if (!rows)
            return -1;
        gb->rows = rows;
        gb->cap = cap;
    }
    gb->rows[gb->nrows++] = fields;
    return 0;
}

/* May this row join the gradebook: as many fields as the header, a student not seen before? 0, or -1 with why not in err. */
static int check_row(const gradebook *gb, char **fields, int n, const char *path, int record, char *err, size_t errlen)
{
    if (n != gb->ncols) {
        snprintf(err, errlen, "%s: record %d has %d fields, the header %d", path, record, n, gb->ncols);
        return -1;
    }
    int twin = gradebook_find(gb, fields[GB_STUDENT]);
    if (twin >= 0) { /* resuming would skip one of the two, and gradebook_put would replace only one */
        char name[128];
        report_clean(name, sizeof name, fields[GB_STUDENT]);
        snprintf(err, errlen, "%s: record %d repeats the student %s of record %d", path, record, name, twin + 2);
        return -1;
    }
    return 0;
}

int gradebook_load(const char *path, gradebook *gb, char *err, size_t errlen)
{
    memset(gb, 0, sizeof *gb);
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return 0;
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    char **fields;
    const char *why = "";
    int n, record = 0, rc;
    while ((rc = gradebook_read_record(f, &fields, &n, &why)) == 1) {
        if (n == 1 && fields[0][0] == '\0') { /* a blank line */
            gradebook_free_fields(fields, n);
            continue;
        }
        record++;
        if (record == 1) {
            int fixed_ok = n >= GB_FIXED;
            for (int c = 0; fixed_ok && c < GB_FIXED; c++)
                fixed_ok = strcmp(fields[c], FIXED[c]) == 0;
            if (!fixed_ok) {
                snprintf(err, errlen, "%s: not a gradebook (its header does not start with student,score,...)", path);
                gradebook_free_fields(fields, n);
                goto fail;
            }
            gb->header = fields;
            gb->ncols = n;
            continue;
        }
        if (check_row(gb, fields, n, path, record, err, errlen) != 0) {
            gradebook_free_fields(fields, n);
            goto fail;
        }
        if (add_row(gb, fields) != 0) {
            gradebook_free_fields(fields, n);
            snprintf(err, errlen, "out of memory reading %s", path);
            goto fail;
        }
    }
    if (rc < 0) {
        snprintf(err, errlen, "%s: record %d is malformed CSV: %s", path, record + 1, why);
        goto fail;
    }
    fclose(f);
    return 0;
fail:
    fclose(f);
    gradebook_free(gb);
    return -1;
}

int gradebook_find(const gradebook *gb, const char *student)
{
    for (int r = 0; r < gb->nrows; r++)
        if (strcmp(gb->rows[r][GB_STUDENT], student) == 0)
            return r;
    return -1;
}

int gradebook_put(gradebook *gb, const char *student, const grade_report *r)
{
    if (gb->ncols < GB_FIXED) /* no header yet (a missing file loads as none): nowhere to put the fixed columns */
        return -1;
    char **fields = calloc((size_t)gb->ncols, sizeof *fields);
    if (!fields)
        return -1;
    char failures[8192] = "";
    size_t used = 0;
    for (int c = GB_FIXED; c < gb->ncols; c++)
        fields[c] = strdup(""); /* a task of the header that the report lacks stays empty */
    for (int l = 0; l < r->nlabs; l++) {
        const lab_result *lab = &r->labs[l];
        for (int t = 0; lab->spec_ok && t < lab->spec.ntasks; t++) {
            char col[200];
            snprintf(col, sizeof col, "%s/%s", lab->spec.lab, lab->spec.tasks[t].name);
            for (int c = GB_FIXED; c < gb->ncols; c++)
                if (strcmp(gb->header[c], col) == 0) {
                    free(fields[c]);
                    if (asprintf(&fields[c], "%d", lab->tasks[t].points) < 0)
                        fields[c] = NULL;
                }
            if (lab->tasks[t].v != V_PASS && used < sizeof failures)
                used += (size_t)snprintf(failures + used, sizeof failures - used, "%s%s:%s", used ? " " : "", col,
                                         verdict_name(lab->tasks[t].v));
        }
    }
    fields[GB_STUDENT] = strdup(student);
    fields[GB_FAILURES] = strdup(failures);
    if (asprintf(&fields[GB_SCORE], "%d", r->points) < 0)
        fields[GB_SCORE] = NULL;
    if (asprintf(&fields[GB_MAX], "%d", r->max_points) < 0)
        fields[GB_MAX] = NULL;
    if (asprintf(&fields[GB_PERCENT], "%.1f", report_percent(r)) < 0)
        fields[GB_PERCENT] = NULL;
    for (int c = 0; c < gb->ncols; c++)
        if (!fields[c]) {
            gradebook_free_fields(fields, gb->ncols);
            return -1;
        }
    int at = gradebook_find(gb, student);
    if (at >= 0) {
        gradebook_free_fields(gb->rows[at], gb->ncols);
        gb->rows[at] = fields;
        return 0;
    }
    if (add_row(gb, fields) != 0) {
        gradebook_free_fields(fields, gb->ncols);
        return -1;
    }
    return 0;
}

static void write_record(FILE *f, char **fields, int n)
{
    for (int c = 0; c < n; c++) {
        if (c)
            fputc(',', f);
        report_csv_field(f, fields[c]);
    }
    fputc('\n', f);
}

int gradebook_save(const char *path, const gradebook *gb, char *err, size_t errlen)
{
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path) >= (int)sizeof tmp) {
        snprintf(err, errlen, "gradebook path too long");
        return -1;
    }
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        snprintf(err, errlen, "cannot write next to %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    fchmod(fd, 0644);
    write_record(f, gb->header, gb->ncols);
    for (int r = 0; r < gb->nrows; r++)
        write_record(f, gb->rows[r], gb->ncols);
    int ok = fflush(f) == 0 && !ferror(f) && fsync(fd) == 0;
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) {
        snprintf(err, errlen, "could not finish writing %s: %s", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

int gradebook_same_columns(const gradebook *a, const gradebook *b)
{
    if (a->ncols != b->ncols)
        return 0;
    for (int c = 0; c < a->ncols; c++)
        if (strcmp(a->header[c], b->header[c]) != 0)
            return 0;
    return 1;
}

typedef struct failure_count {
    char what[200];
    int students;
} failure_count;

static int by_count(const void *a, const void *b)
{
    const failure_count *x = a, *y = b;
    if (x->students != y->students)
        return y->students - x->students;
    return strcmp(x->what, y->what);
}

void gradebook_summary(FILE *f, const gradebook *gb, int top)
{
    int buckets[10] = {0}; /* 0-9%, 10-19%, ..., 90-100% */
    double sum = 0;
    int counted = 0;
    failure_count *fails = NULL;
    int nfails = 0;
    for (int r = 0; r < gb->nrows; r++) {
        char **row = gb->rows[r];
        double score = atof(row[GB_SCORE]), max = atof(row[GB_MAX]);
        double percent = max > 0 ? 100.0 * score / max : 0.0;
        int b = (int)(percent / 10.0);
        buckets[b < 0 ? 0 : b > 9 ? 9 : b]++;
        sum += percent;
        counted++;
        char copy[8192];
        snprintf(copy, sizeof copy, "%s", row[GB_FAILURES]);
        for (char *save, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
            int i = 0;
            while (i < nfails && strcmp(fails[i].what, w) != 0)
                i++;
            if (i == nfails) {
                failure_count *grown = realloc(fails, (size_t)(nfails + 1) * sizeof *fails);
                if (!grown)
                    break;
                fails = grown;
                snprintf(fails[nfails].what, sizeof fails[nfails].what, "%s", w);
                fails[nfails++].students = 0;
            }
            fails[i].students++;
        }
    }
    fprintf(f, "Summary: %d students", counted);
    if (counted)
        fprintf(f, ", mean %.1f%%", sum / counted);
    fprintf(f, "\nScore distribution:\n");
    for (int b = 9; b >= 0; b--) {
        char label[16];
        snprintf(label, sizeof label, "%d-%d%%", 10 * b, b == 9 ? 100 : 10 * b + 9);
        fprintf(f, "  %8s %4d  ", label, buckets[b]);
        for (int i = 0; i < buckets[b] && i < 60; i++)
            fputc('#', f);
        fputc('\n', f);
    }
    if (nfails) {
        qsort(fails, (size_t)nfails, sizeof *fails, by_count);
        fprintf(f, "Most common failures (students):\n");
        for (int i = 0; i < nfails && i < top; i++) {
            fprintf(f, "  %4d  ", fails[i].students);
            report_put_clean(f, fails[i].what); /* read from the gradebook file: cleaned like any text from outside */
            fputc('\n', f);
        }
    } else {
        fprintf(f, "No failures.\n");
    }
    free(fails);
}

void gradebook_progress(FILE *f, const char *student, const grade_report *r)
{
    fputs("  ", f);
    report_put_clean(f, student);
    fprintf(f, ": %d/%d (%.1f%%) in %.1f s\n", r->points, r->max_points, report_percent(r), r->seconds);
}

void gradebook_free(gradebook *gb)
{
    gradebook_free_fields(gb->header, gb->ncols);
    for (int r = 0; r < gb->nrows; r++)
        gradebook_free_fields(gb->rows[r], gb->ncols);
    free(gb->rows);
    memset(gb, 0, sizeof *gb);
}
