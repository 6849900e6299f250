/* Reads sort_bench's logs and builds handout 9's plots from them (see kit_sortlog.h). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kit_sortlog.h"

#define LINE_MAX_LEN 512 /* the longest line read, its newline included */
#define MAX_TOKENS 16

/* What each part of a log looks like, for the messages that refuse a line. */
static const char want_device[] = "the device line 'device: NAME, N SMs; ...'";
static const char time_header[] = "n input sorter ms Gkeys/s x cub";
static const char want_time_row[] =
    "a row 'n input sorter ms Gkeys/s x cub' (2^K, a word, a name, three numbers above 0; the copy alone has no x cub)";
static const char worst_title[] = "lab 8's worst case against random input";
static const char worst_header[] = "n (E, u) sorter random ms worst ms slowdown worst Gk/s";
static const char want_worst_row[] =
    "a row 'n (E, u) sorter random-ms worst-ms slowdown% worst-Gk/s' (whole numbers above 0, a name, numbers)";

/* Where the reader is in a log: which line, and which part of the log it expects next. */
typedef enum { WANT_DEVICE, WANT_TIME_HEADER, IN_TIMES, WANT_WORST_HEADER, IN_WORST } part;

typedef struct reader {
    const char *path;
    unsigned long line;
    part at;
    kit_sortlog *log;
    size_t time_cap, worst_cap;
    char *err;
    size_t errlen;
} reader;

/* Refuses the current line: "PATH:LINE: expected WHAT, got 'LINE'". Returns -1. */
static int refuse(const reader *r, const char *expected, const char *got)
{
    snprintf(r->err, r->errlen, "%s:%lu: expected %s, got '%.160s'", r->path, r->line, expected, got);
    return -1;
}

/* Copies s into out (size len) with every run of blanks one space; the blanks at either end dropped. */
static void squeeze(const char *s, char *out, size_t len)
{
    size_t k = 0;
    for (; *s && k + 1 < len; s++) {
        if (isspace((unsigned char)*s)) {
            if (k > 0 && out[k - 1] != ' ')
                out[k++] = ' ';
        } else {
            out[k++] = *s;
        }
    }
    if (k > 0 && out[k - 1] == ' ')
        k--;
    out[k] = '\0';
}

/* A whole token as a finite number; 0, or -1 if it is not one. */
static int number(const char *tok, double *v)
{
    char *end;
    *v = strtod(tok, &end);
    return end != tok && *end == '\0' && isfinite(*v) ? 0 : -1;
}

/* 1 if printed, a value rounded to +-half, can be a true value within lo .. hi. */
static int can_be(double printed, double half, double lo, double hi)
{
    return printed + half + 1e-9 >= lo && printed - half - 1e-9 <= hi;
}

/* 1 if gkeys (2 decimals) can be n / ms * 1e-6 with ms printed to 3 decimals. */
static int gkeys_fit(double n, double ms, double gkeys)
{
    double lo = n / (ms + 0.0005) * 1e-6, hi = ms > 0.0005 ? n / (ms - 0.0005) * 1e-6 : INFINITY;
    return can_be(gkeys, 0.005, lo, hi);
}

/* The device line: the name between "device: " and ", N SMs;". */
static int read_device(reader *r, const char *s)
{
    static const char prefix[] = "device: ";
    const char *name = s + sizeof prefix - 1, *sms = strstr(s, " SMs;"), *digits = sms;
    if (strncmp(s, prefix, sizeof prefix - 1) != 0 || !sms || sms < name)
        return refuse(r, want_device, s);
    while (digits > name && isdigit((unsigned char)digits[-1]))
        digits--;
    size_t len = (size_t)(digits - name);
    if (digits == sms || len < 3 || strncmp(digits - 2, ", ", 2) != 0 || len - 2 >= KIT_SORTLOG_DEVICE_LEN)
        return refuse(r, want_device, s);
    memcpy(r->log->device, name, len - 2);
    r->log->device[len - 2] = '\0';
    r->at = WANT_TIME_HEADER;
    return 0;
}

/*
 * Appends row (size bytes) to rows, a table of *n rows with room for *cap, which grows when full.
 * Returns the table, moved if it grew, or NULL out of memory (rows is then as it was).
 */
static void *append(void *rows, size_t *n, size_t *cap, size_t size, const void *row, const reader *r)
{
    if (*n == *cap) {
        size_t want = *cap ? 2 * *cap : 64;
        void *more = realloc(rows, want * size);
        if (!more) {
            snprintf(r->err, r->errlen, "%s:%lu: out of memory", r->path, r->line);
            return NULL;
        }
        rows = more;
        *cap = want;
    }
    memcpy((char *)rows + *n * size, row, size);
    (*n)++;
    return rows;
}

/* Splits s (cut up in place) at its blanks into at most MAX_TOKENS tokens; returns how many, MAX_TOKENS + 1 for more. */
static size_t tokens(char *s, char **tok)
{
    size_t n = 0;
    char *save = NULL;
    for (char *t = strtok_r(s, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (n == MAX_TOKENS)
            return MAX_TOKENS + 1;
        tok[n++] = t;
    }
    return n;
}

/* Joins tok[from .. to) with single spaces into out (size len); -1 if it does not fit. */
static int join(char **tok, size_t from, size_t to, char *out, size_t len)
{
    size_t k = 0;
    out[0] = '\0';
    for (size_t i = from; i < to; i++) {
        int wrote = snprintf(out + k, len - k, "%s%s", i > from ? " " : "", tok[i]);
        if (wrote < 0 || (size_t)wrote >= len - k)
            return -1;
        k += (size_t)wrote;
    }
    return k > 0 ? 0 : -1;
}

/* Fills row's n, input and sorter from tok[0 .. names_end), and its numbers from the rest (2 or 3). */
static int time_fields(char **tok, size_t ntok, size_t names_end, kit_sortlog_time *row)
{
    unsigned lg;
    int used = 0;
    if (sscanf(tok[0], "2^%u%n", &lg, &used) != 1 || tok[0][used] != '\0' || lg < 1 || lg > 62 ||
        !isdigit((unsigned char)tok[0][2]) || strlen(tok[1]) >= sizeof row->input)
        return -1;
    for (const char *c = tok[1]; *c; c++)
        if (!islower((unsigned char)*c))
            return -1;
    row->lg = lg;
    strcpy(row->input, tok[1]);
    if (join(tok, 2, names_end, row->sorter, sizeof row->sorter) != 0)
        return -1;
    row->has_x_cub = ntok - names_end == 3;
    if (number(tok[names_end], &row->ms) || number(tok[names_end + 1], &row->gkeys) ||
        (row->has_x_cub && number(tok[names_end + 2], &row->x_cub)))
        return -1;
    if (row->ms <= 0 || row->gkeys <= 0 || (row->has_x_cub && row->x_cub <= 0))
        return -1;
    /* Only the copy has no x cub, and only it has a blank in its name. */
    return row->has_x_cub == (strcmp(row->sorter, "copy alone") != 0) ? 0 : -1;
}

/* A row of the first table, or the title that starts the worst-case table. */
static int read_time_row(reader *r, const char *s)
{
    char copy[LINE_MAX_LEN], squeezed[LINE_MAX_LEN], *tok[MAX_TOKENS];
    squeeze(s, squeezed, sizeof squeezed);
    if (strncmp(squeezed, worst_title, sizeof worst_title - 1) == 0) {
        r->at = WANT_WORST_HEADER;
        return 0;
    }
    strcpy(copy, squeezed);
    size_t ntok = tokens(copy, tok), names_end = 0;
    double v;
    if (ntok >= 6 && ntok <= MAX_TOKENS && number(tok[ntok - 3], &v) == 0)
        names_end = ntok - 3;
    else if (ntok >= 5 && ntok <= MAX_TOKENS)
        names_end = ntok - 2;
    kit_sortlog_time row = {.line = r->line};
    if (names_end < 3 || time_fields(tok, ntok, names_end, &row) != 0)
        return refuse(r, want_time_row, s);
    if (!gkeys_fit(ldexp(1, (int)row.lg), row.ms, row.gkeys))
        return refuse(r, "Gkeys/s = 2^K / ms * 1e-6 (within the printed digits)", s);
    kit_sortlog_time *rows = append(r->log->time, &r->log->ntimes, &r->time_cap, sizeof row, &row, r);
    if (rows)
        r->log->time = rows;
    return rows ? 0 : -1;
}

/* A row of the worst-case table. */
static int read_worst_row(reader *r, const char *s)
{
    kit_sortlog_worst row = {.line = r->line};
    int end = -1;
    if (!isdigit((unsigned char)s[0]) ||
        sscanf(s, "%" SCNu64 " (%u, %u) %31s %lf %lf %lf%% %lf %n", &row.n, &row.E, &row.u, row.sorter, &row.random_ms,
               &row.worst_ms, &row.slowdown, &row.worst_gkeys, &end) != 8 ||
        end < 0 || s[end] != '\0')
        return refuse(r, want_worst_row, s);
    if (row.n == 0 || row.E == 0 || row.u == 0 || !isfinite(row.random_ms) || !isfinite(row.worst_ms) ||
        !isfinite(row.slowdown) || !isfinite(row.worst_gkeys) || row.random_ms <= 0 || row.worst_ms <= 0)
        return refuse(r, want_worst_row, s);
    double lo = 100 * ((row.worst_ms - 0.0005) / (row.random_ms + 0.0005) - 1),
           hi = row.random_ms > 0.0005 ? 100 * ((row.worst_ms + 0.0005) / (row.random_ms - 0.0005) - 1) : INFINITY;
    if (!can_be(row.slowdown, 0.05, lo, hi))
        return refuse(r, "slowdown = 100 * (worst ms / random ms - 1) (within the printed digits)", s);
    if (!gkeys_fit((double)row.n, row.worst_ms, row.worst_gkeys))
        return refuse(r, "worst Gk/s = n / worst ms * 1e-6 (within the printed digits)", s);
    kit_sortlog_worst *rows = append(r->log->worst, &r->log->nworst, &r->worst_cap, sizeof row, &row, r);
    if (rows)
        r->log->worst = rows;
    return rows ? 0 : -1;
}

/* A table's header, squeezed: its words must be header's; the table's rows come next. */
static int read_header(reader *r, const char *squeezed, const char *s, const char *header, part next)
{
    char want[160];
    if (strcmp(squeezed, header) != 0) {
        snprintf(want, sizeof want, "the header '%s'", header);
        return refuse(r, want, s);
    }
    r->at = next;
    return 0;
}

/*
 * One line of the log, without its line end. Passed over wherever they are: blank lines, the
 * benchmark's checks that passed ("PASS: ...") and the lines on issue 20's speed targets ("PASS:
 * target ..." or "FAIL: target ..."), which say how fast, not whether the numbers are right. Any
 * other FAIL line refuses the log.
 */
static int read_line(reader *r, const char *s)
{
    char squeezed[LINE_MAX_LEN];
    squeeze(s, squeezed, sizeof squeezed);
    if (squeezed[0] == '\0' || strncmp(squeezed, "PASS:", 5) == 0 || strncmp(squeezed, "FAIL: target ", 13) == 0)
        return 0;
    if (strncmp(squeezed, "FAIL:", 5) == 0)
        return refuse(r, "no failure (sort_bench's numbers after a FAIL line are not to be drawn)", s);
    switch (r->at) {
    case WANT_DEVICE:
        return read_device(r, s);
    case WANT_TIME_HEADER:
        return read_header(r, squeezed, s, time_header, IN_TIMES);
    case IN_TIMES:
        return read_time_row(r, s);
    case WANT_WORST_HEADER:
        return read_header(r, squeezed, s, worst_header, IN_WORST);
    default:
        return read_worst_row(r, s);
    }
}

/* What the reader still expects at the end of the log, or NULL when the log may end here. */
static const char *missing_at_end(const reader *r)
{
    switch (r->at) {
    case WANT_DEVICE:
        return want_device;
    case WANT_TIME_HEADER:
        return "the first table's header";
    case WANT_WORST_HEADER:
        return "the worst-case table's header";
    default:
        return r->log->ntimes == 0 ? want_time_row : NULL;
    }
}

int kit_sortlog_read(FILE *f, const char *path, kit_sortlog *log, char *err, size_t errlen)
{
    reader r = {path, 0, WANT_DEVICE, log, 0, 0, err, errlen};
    char line[LINE_MAX_LEN];
    const char *missing;
    memset(log, 0, sizeof *log);
    while (fgets(line, sizeof line, f)) {
        r.line++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            snprintf(err, errlen, "%s:%lu: expected a line of at most %d characters, got a longer one", path, r.line,
                     LINE_MAX_LEN - 2);
            goto fail;
        }
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (read_line(&r, line) != 0)
            goto fail;
    }
    missing = missing_at_end(&r);
    if (ferror(f)) {
        snprintf(err, errlen, "%s: a read error after line %lu", path, r.line);
        goto fail;
    }
    if (missing) {
        snprintf(err, errlen, "%s:%lu: expected %s, got the end of the file", path, r.line + 1, missing);
        goto fail;
    }
    return 0;
fail:
    kit_sortlog_free(log);
    return -1;
}

void kit_sortlog_free(kit_sortlog *log)
{
    free(log->time);
    free(log->worst);
    memset(log, 0, sizeof *log);
}

/* ---- the plots --------------------------------------------------------------------- */

/* The part of a sorter's name that names its (E, u), "17-256" of "cf-17-256"; the whole name if it has none. */
static const char *sorter_config(const char *sorter)
{
    const char *dash = strchr(sorter, '-');
    return dash ? dash + 1 : sorter;
}

/* A sorter's style: the place of its (E, u) among the distinct ones the log names, first table first. */
static unsigned sorter_style(const kit_sortlog *log, const char *sorter)
{
    const char *seen[KIT_VIZ_MAX_SERIES];
    size_t nseen = 0, rows = log->ntimes + log->nworst;
    for (size_t i = 0; i < rows; i++) {
        const char *name = i < log->ntimes ? log->time[i].sorter : log->worst[i - log->ntimes].sorter;
        if (i < log->ntimes && !log->time[i].has_x_cub)
            continue; /* the copy alone */
        size_t k = 0;
        while (k < nseen && strcmp(seen[k], sorter_config(name)) != 0)
            k++;
        if (k == nseen && nseen < KIT_VIZ_MAX_SERIES)
            seen[nseen++] = sorter_config(name);
        if (strcmp(sorter_config(name), sorter_config(sorter)) == 0)
            return (unsigned)(k % KIT_VIZ_STYLES);
    }
    return 0;
}

/* A sorter's legend text: "baseline (17, 256)", "CF (17, 256)", "CUB"; other names as they are. */
static void sorter_label(const char *sorter, char *out, size_t len)
{
    char variant[KIT_SORTLOG_NAME_LEN];
    unsigned E, u;
    int end = -1;
    if (sscanf(sorter, "%31[a-z]-%u-%u%n", variant, &E, &u, &end) == 3 && end >= 0 && sorter[end] == '\0')
        snprintf(out, len, "%s (%u, %u)", strcmp(variant, "cf") == 0 ? "CF" : variant, E, u);
    else
        snprintf(out, len, "%s", strcmp(sorter, "cub") == 0 ? "CUB" : sorter);
}

/* Adds a sorter's point (n, y) from the log's line to the plot: its line styled at its first point; n must grow. */
static int plot_add(kit_viz_plot *p, const kit_sortlog *log, const char *path, unsigned long line, const char *sorter,
                    double n, double y, char *err, size_t errlen)
{
    char label[KIT_VIZ_NAME_LEN];
    sorter_label(sorter, label, sizeof label);
    int i = kit_viz_plot_point(p, label, n, y);
    if (i < 0) {
        snprintf(err, errlen, "%s:%lu: expected at most %d sorters of at most %d sizes in a plot, got more (%s)", path,
                 line, KIT_VIZ_MAX_SERIES, KIT_VIZ_MAX_POINTS, sorter);
        return -1;
    }
    kit_viz_series *s = &p->series[i];
    if (s->n == 1) {
        s->style = sorter_style(log, sorter);
        s->dashed = strncmp(sorter, "baseline-", 9) == 0;
    } else if (s->x[s->n - 1] <= s->x[s->n - 2]) {
        snprintf(err, errlen, "%s:%lu: expected %s's n to grow from row to row, got %.0f after %.0f", path, line,
                 sorter, s->x[s->n - 1], s->x[s->n - 2]);
        return -1;
    }
    return 0;
}

/* The words of a plot: its title's start, its y axis, its note, and what a log without a point for it lacks. */
typedef struct plot_words {
    const char *what, *y_label, *note, *missing;
} plot_words;

static const plot_words throughput_words = {
    "Sort throughput on random int32 keys", "throughput (Gkeys/s)",
    "Medians of 7 runs of build/bench/sort_bench, the copy of the input included. (E, u): keys per thread, threads "
    "per block. Dashed: the baseline; solid: the CF variant and CUB.",
    "rows of sorters on random input",
};

static const plot_words slowdown_words = {
    "Slowdown on lab 8's worst case", "slowdown on the worst case (%)",
    "Worst-case time / random time - 1 at the same n = u*E*2^k, medians of 7 runs of build/bench/sort_bench; CUB "
    "sorts (17, 256)'s worst case. Dashed: the baseline; solid: CF, CUB.",
    "the worst-case table (sort_bench without --quick)",
};

/* Gives a plot with its points its axes' labels, its title (naming the device and the log) and its note. */
static int plot_finish(kit_viz_plot *p, const kit_sortlog *log, const char *path, const plot_words *w, char *err,
                       size_t errlen)
{
    if (p->nseries == 0) {
        snprintf(err, errlen, "%s: expected %s, got none", path, w->missing);
        return -1;
    }
    int t = snprintf(p->title, sizeof p->title, "%s, %s (%s)", w->what, log->device, path);
    if (t < 0 || (size_t)t >= sizeof p->title) {
        snprintf(err, errlen, "%s: the plot's title would be longer than %d characters", path, KIT_VIZ_TEXT_LEN - 1);
        return -1;
    }
    snprintf(p->note, sizeof p->note, "%s", w->note);
    snprintf(p->x_label, sizeof p->x_label, "n (keys)");
    snprintf(p->y_label, sizeof p->y_label, "%s", w->y_label);
    p->x_log2 = 1;
    return 0;
}

int kit_sortlog_throughput_plot(const kit_sortlog *log, const char *path, kit_viz_plot *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    for (size_t i = 0; i < log->ntimes; i++) {
        const kit_sortlog_time *row = &log->time[i];
        if (strcmp(row->input, "random") != 0 || !row->has_x_cub)
            continue;
        if (plot_add(p, log, path, row->line, row->sorter, ldexp(1, (int)row->lg), row->gkeys, err, errlen) != 0)
            return -1;
    }
    return plot_finish(p, log, path, &throughput_words, err, errlen);
}

int kit_sortlog_slowdown_plot(const kit_sortlog *log, const char *path, kit_viz_plot *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    for (size_t i = 0; i < log->nworst; i++) {
        const kit_sortlog_worst *row = &log->worst[i];
        if (plot_add(p, log, path, row->line, row->sorter, (double)row->n, row->slowdown, err, errlen) != 0)
            return -1;
    }
    return plot_finish(p, log, path, &slowdown_words, err, errlen);
}
