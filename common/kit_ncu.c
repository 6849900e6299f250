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

int kit_ncu_read(FILE *f, kit_ncu_row **rows, size_t *n, char *err, size_t errlen)
{
    char line[4096];
    int col_id = -1, col_kernel = -1, col_metric = -1, col_value = -1;
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
        if (col_id < 0) {
            for (int i = 0; i < nf; i++) {
                if (strcmp(field[i], "ID") == 0)
                    col_id = i;
                else if (strcmp(field[i], "Kernel Name") == 0)
                    col_kernel = i;
                else if (strcmp(field[i], "Metric Name") == 0)
                    col_metric = i;
                else if (strcmp(field[i], "Metric Value") == 0)
                    col_value = i;
            }
            if (col_id < 0 || col_kernel < 0 || col_metric < 0 || col_value < 0) {
                snprintf(err, errlen, "line %lu: the first CSV row lacks ID, Kernel Name, Metric Name or Metric Value",
                         lineno);
                free(r);
                return -1;
            }
            continue;
        }
        int need = col_id > col_kernel ? col_id : col_kernel;
        need = col_metric > need ? col_metric : need;
        need = col_value > need ? col_value : need;
        if (nf <= need)
            continue; /* a short record: not a metric row */
        kit_ncu_row row;
        memset(&row, 0, sizeof row);
        char *end;
        row.id = strtol(field[col_id], &end, 10);
        if (*end != '\0' || parse_value(field[col_value], &row.value) != 0) {
            snprintf(err, errlen, "line %lu: ID '%s' or value '%s' is not a number", lineno, field[col_id],
                     field[col_value]);
            free(r);
            return -1;
        }
        snprintf(row.kernel, sizeof row.kernel, "%s", field[col_kernel]);
        snprintf(row.metric, sizeof row.metric, "%s", field[col_metric]);
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
    if (col_id < 0) {
        snprintf(err, errlen, "no CSV header row (was ncu run with --csv?)");
        free(r);
        return -1;
    }
    *rows = r;
    *n = len;
    return 0;
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
