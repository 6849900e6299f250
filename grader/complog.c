/* The student's own compiler diagnostics, picked out of a compiler's log (complog.h). */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "complog.h"
#include "report.h"

#define MAX_LOG (1 << 20) /* the part of a log file that is read */

/* What a line of a compiler's log is. */
typedef enum line_kind {
    LINE_MORE,      /* a line under a diagnostic: the source line, the caret, a fix-it */
    LINE_LOCATED,   /* a diagnostic or context line that names a file and a place in it */
    LINE_OTHER,     /* an include chain, a closing count, a remark, a blank line: ends a diagnostic */
} line_kind;

/*
 * Classifies line [s, s + n) and, for a located line, gives the length of its path in *path.
 * Located: "PATH:DIGITS", "PATH: In ...", "PATH: At ..." (GCC, Clang) or "PATH(DIGITS):" (nvcc), where
 * PATH has a dot or a slash (so that a source line such as "f(1):" or "std::x" is none).
 */
static line_kind classify(const char *s, size_t n, size_t *path)
{
    size_t lead = 0;
    while (lead < n && s[lead] == ' ')
        lead++;
    if (lead == n || (n - lead >= 5 && strncmp(s + lead, "from ", 5) == 0) ||
        (n >= 22 && strncmp(s, "In file included from ", 22) == 0) || (n >= 7 && strncmp(s, "Remark:", 7) == 0))
        return LINE_OTHER;
    if (isdigit((unsigned char)s[0]) && (memmem(s, n, " generated.", 11) || memmem(s, n, " detected in the compil", 23)))
        return LINE_OTHER;
    if (lead > 0)
        return LINE_MORE;
    size_t p = 0;
    while (p < n && s[p] != ':' && s[p] != '(' && s[p] != ' ')
        p++;
    *path = p;
    if (p == 0 || p >= n - 1 || (!memchr(s, '.', p) && !memchr(s, '/', p))) /* a file's path has a dot or a slash */
        return LINE_MORE;
    if (s[p] == ':' && (isdigit((unsigned char)s[p + 1]) || (n - p > 4 && (strncmp(s + p, ": In ", 5) == 0 ||
                                                                           strncmp(s + p, ": At ", 5) == 0))))
        return LINE_LOCATED;
    if (s[p] == '(' && isdigit((unsigned char)s[p + 1])) {
        size_t q = p + 1;
        while (q < n && isdigit((unsigned char)s[q]))
            q++;
        if (q + 1 < n && s[q] == ')' && s[q + 1] == ':')
            return LINE_LOCATED;
    }
    return LINE_MORE;
}

/* Is the path [s, s + n) the file `file`, in any folder? */
static int names_file(const char *s, size_t n, const char *file)
{
    size_t f = strlen(file);
    return n >= f && strncmp(s + n - f, file, f) == 0 && (n == f || s[n - f - 1] == '/');
}

/* The output block, filled line by line. */
typedef struct block {
    char *out;
    size_t len, used;
    int left; /* lines that did not fit */
} block;

/* Appends prefix (may be NULL) and the line [s, s + n), cleaned, and '\n', or counts it as left when it does not fit. */
static void keep(block *b, const char *prefix, const char *s, size_t n)
{
    char raw[1024], clean[1024];
    snprintf(raw, sizeof raw, "%s%.*s", prefix ? prefix : "", (int)n, s);
    size_t c = report_clean(clean, sizeof clean, raw);
    const size_t reserve = 32; /* room for the "(N more lines)" line */
    if (b->left || b->used + c + 1 + reserve >= b->len) {
        b->left++;
        return;
    }
    memcpy(b->out + b->used, clean, c);
    b->used += c;
    b->out[b->used++] = '\n';
    b->out[b->used] = '\0';
}

int complog_extract(const char *log, const char *file, const char *shown, char *out, size_t len)
{
    block b = {out, len, 0, 0};
    int counted = 0, keeping = 0;
    if (len == 0)
        return 0;
    out[0] = '\0';
    for (const char *s = log ? log : ""; *s;) {
        size_t n = strcspn(s, "\n"), path = 0;
        size_t shown_n = n > 0 && s[n - 1] == '\r' ? n - 1 : n; /* a CR of a Windows line end goes */
        line_kind kind = classify(s, shown_n, &path);
        if (kind == LINE_OTHER)
            keeping = 0;
        else if (kind == LINE_LOCATED)
            keeping = names_file(s, path, file);
        if (keeping && kind == LINE_LOCATED) {
            const char *rest = s + path;
            size_t rn = shown_n - path;
            counted += memmem(rest, rn, "warning", 7) || memmem(rest, rn, "error", 5);
            if (shown)
                keep(&b, shown, rest, rn);
            else
                keep(&b, NULL, s, shown_n);
        } else if (keeping) {
            keep(&b, NULL, s, shown_n);
        }
        s += n + (s[n] == '\n');
    }
    if (b.left)
        snprintf(out + b.used, len - b.used, "(%d more line%s)\n", b.left, b.left == 1 ? "" : "s");
    return counted;
}

int complog_extract_file(const char *path, const char *file, const char *shown, char *out, size_t len)
{
    if (len)
        out[0] = '\0';
    FILE *f = fopen(path, "rb");
    char *log = malloc(MAX_LOG + 1);
    size_t got = f && log ? fread(log, 1, MAX_LOG, f) : 0;
    int rc = -1;
    if (f && log && !ferror(f)) {
        log[got] = '\0';
        rc = complog_extract(log, file, shown, out, len);
    }
    free(log);
    if (f)
        fclose(f);
    return rc;
}
