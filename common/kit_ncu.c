/* Reads the CSV that Nsight Compute writes with --csv, to get per-launch metric values (bank conflicts). */
#include <stdlib.h>
#include <string.h>

#include "kit_ncu.h"

#define MAX_FIELDS 64

/* Splits one CSV line in place: quoted fields may hold commas; doubled quotes stand for one. Returns the count. */
static int split_csv(char *line, char **field, int max)
{
    int count = 0;
    char *p = line;
    while (*p && *p != '\n' && *p != '\r' && count < max) {
        char *out = p, *start = p;
        if (*p == '"') {
            p++;
            for (;;) {
                if (*p == '\0')
                    break;
                if (*p == '"' && p[1] == '"') {
                    *out++ = '"';
                    p += 2;
                } else if (*p == '"') {
                    p++;
                    break;
                } else {
                    *out++ = *p++;
                }
            }
            while (*p && *p != ',' && *p != '\n' && *p != '\r')
                p++;
        } else {
            while (*p && *p != ',' && *p != '\n' && *p != '\r')
                *out++ = *p++;
        }
        char end = *p;
        *out = '\0';
        field[count++] = start;
        if (end == ',')
            p++;
        else
            break;
    }
    return count;
}

/* Parses a number that may carry thousands separators ("1,024"). */
static int parse_value(const char *s, double *out)
{
    char clean[64];
    size_t n = 0;
    for (; *s && n + 1 < sizeof clean; s++)
        if (*s != ',' && *s != ' ')
            clean[n++] = *s;
    clean[n] = '\0';
    char *end;
    *out = strtod(clean, &end);
    return n > 0 && *end == '\0' ? 0 : -1;
}

/* The columns of ncu's CSV that the kit reads; -1 for one the header lacks. */
typedef struct columns {
    int id, kernel, metric, value, grid, block;
} columns;

/* Finds the columns in the header row; returns 0, or -1 when a required one is missing. */
static int find_columns(char **field, int nf, columns *c)
{
    const char *names[] = {"ID", "Kernel Name", "Metric Name", "Metric Value", "Grid Size", "Block Size"};
    int *cols[] = {&c->id, &c->kernel, &c->metric, &c->value, &c->grid, &c->block};
    for (int k = 0; k < 6; k++) {
        *cols[k] = -1;
        for (int i = 0; i < nf; i++)
            if (strcmp(field[i], names[k]) == 0)
                *cols[k] = i;
    }
    return c->id >= 0 && c->kernel >= 0 && c->metric >= 0 && c->value >= 0 ? 0 : -1;
}

/* Copies ncu's "(128, 1, 1)" as "128,1,1". */
static void copy_shape(char *to, size_t len, const char *from)
{
    size_t n = 0;
    for (; *from && n + 1 < len; from++)
        if (*from != '(' && *from != ')' && *from != ' ')
            to[n++] = *from;
    to[n] = '\0';
}

/* Fills one row from a record; returns 0, -1 when a number does not parse, 1 for a short record. */
static int parse_row(char **field, int nf, const columns *c, kit_ncu_row *row)
{
    int need = c->id;
    const int more[] = {c->kernel, c->metric, c->value, c->grid, c->block};
    for (int k = 0; k < 5; k++)
        need = more[k] > need ? more[k] : need;
    if (nf <= need)
        return 1; /* not a metric row */
    memset(row, 0, sizeof *row);
    char *end;
    row->id = strtol(field[c->id], &end, 10);
    if (*end != '\0' || parse_value(field[c->value], &row->value) != 0)
        return -1;
    snprintf(row->kernel, sizeof row->kernel, "%s", field[c->kernel]);
    snprintf(row->metric, sizeof row->metric, "%s", field[c->metric]);
    if (c->grid >= 0)
        copy_shape(row->grid, sizeof row->grid, field[c->grid]);
    if (c->block >= 0)
        copy_shape(row->block, sizeof row->block, field[c->block]);
    return 0;
}

int kit_ncu_read(FILE *f, kit_ncu_row **rows, size_t *n, char *err, size_t errlen)
{
    char line[4096];
    columns col;
    int have_header = 0;
    size_t cap = 64, len = 0;
    unsigned long lineno = 0;
    kit_ncu_row *r = malloc(cap * sizeof *r);
    *rows = NULL;
    *n = 0;
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] != '"')
            continue; /* ==PROF== notes and the program's own output */
        char *field[MAX_FIELDS];
        int nf = split_csv(line, field, MAX_FIELDS);
        if (!have_header) {
            if (find_columns(field, nf, &col) != 0) {
                snprintf(err, errlen, "line %lu: the first CSV row lacks ID, Kernel Name, Metric Name or Metric Value",
                         lineno);
                free(r);
                return -1;
            }
            have_header = 1;
            continue;
        }
        kit_ncu_row row;
        int rc = parse_row(field, nf, &col, &row);
        if (rc < 0) {
            snprintf(err, errlen, "line %lu: ID '%s' or value '%s' is not a number", lineno, field[col.id],
                     field[col.value]);
            free(r);
            return -1;
        }
        if (rc > 0)
            continue;
        if (len == cap) {
            kit_ncu_row *bigger = realloc(r, 2 * cap * sizeof *r);
            if (!bigger) {
                snprintf(err, errlen, "out of memory at line %lu", lineno);
                free(r);
                return -1;
            }
            r = bigger;
            cap *= 2;
        }
        r[len++] = row;
    }
    if (!have_header) {
        snprintf(err, errlen, "no CSV header row (was ncu run with --csv?)");
        free(r);
        return -1;
    }
    *rows = r;
    *n = len;
    return 0;
}

int kit_ncu_read_file(const char *path, kit_ncu_row **rows, size_t *n, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    *rows = NULL;
    *n = 0;
    if (!f) {
        snprintf(err, errlen, "ncu wrote no CSV");
        return -1;
    }
    int rc = kit_ncu_read(f, rows, n, err, errlen);
    fclose(f);
    return rc;
}

void kit_ncu_kernel_base(const char *name, char *base, size_t len)
{
    name += strspn(name, "( ");
    if (strncmp(name, "void ", 5) == 0)
        name += 5;
    size_t n = strcspn(name, "<( )");
    snprintf(base, len, "%.*s", (int)n, name);
}

int kit_ncu_value(const kit_ncu_row *rows, size_t n, long id, const char *metric, double *out)
{
    for (size_t i = 0; i < n; i++)
        if (rows[i].id == id && strcmp(rows[i].metric, metric) == 0) {
            *out = rows[i].value;
            return 0;
        }
    return -1;
}

int kit_ncu_compare(const char *csv, int n, const char *const *names, const uint64_t *sim_ld, const uint64_t *sim_st,
                    FILE *out)
{
    static const char *const LD = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
    static const char *const ST = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
    FILE *f = fopen(csv, "r");
    kit_ncu_row *rows;
    size_t nrows;
    char err[200];
    if (!f) {
        fprintf(stderr, "cannot open %s\n", csv);
        return -1;
    }
    int rc = kit_ncu_read(f, &rows, &nrows, err, sizeof err);
    fclose(f);
    if (rc != 0) {
        fprintf(stderr, "%s: %s\n", csv, err);
        return -1;
    }
    int bad = 0;
    fprintf(out, "| # | launch | simulator ld | ncu ld | simulator st | ncu st | agree |\n");
    fprintf(out, "| --- | --- | ---: | ---: | ---: | ---: | --- |\n");
    for (int i = 0; i < n; i++) {
        double ld = -1, st = -1;
        int found = kit_ncu_value(rows, nrows, i, LD, &ld) == 0 && kit_ncu_value(rows, nrows, i, ST, &st) == 0;
        int agree = found && ld == (double)sim_ld[i] && st == (double)sim_st[i];
        bad += !agree;
        fprintf(out, "| %d | %s | %llu | %.0f | %llu | %.0f | %s |\n", i, names[i], (unsigned long long)sim_ld[i], ld,
                (unsigned long long)sim_st[i], st, !found ? "no ncu row" : agree ? "yes" : "NO");
    }
    free(rows);
    return bad;
}
