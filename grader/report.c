/* The grader's results for one submission, the formats it writes them in (table, TSV, JSON, Gradescope, JUnit), and the one cleaner of untrusted text they all write through. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"

double report_percent(const grade_report *r)
{
    return r->max_points ? 100.0 * r->points / r->max_points : 0.0;
}

void report_total(grade_report *r)
{
    r->points = r->max_points = 0;
    for (int l = 0; l < r->nlabs; l++) {
        lab_result *lab = &r->labs[l];
        lab->points = lab->max_points = 0;
        if (!lab->spec_ok)
            continue;
        for (int t = 0; t < lab->spec.ntasks; t++) {
            lab->points += lab->tasks[t].points;
            lab->max_points += lab->spec.tasks[t].points;
        }
        r->points += lab->points;
        r->max_points += lab->max_points;
    }
}

/*
 * Length of the valid UTF-8 sequence at p (1 to 4), or 0 when the bytes there
 * are not one: stray continuation bytes, overlong forms, surrogates, code
 * points past U+10FFFF, or a sequence cut short. *cp gets the code point.
 */
static int utf8_length(const unsigned char *p, unsigned *cp)
{
    unsigned c = p[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    int len;
    unsigned lo = 0x80, hi = 0xBF; /* the allowed range of the second byte */
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0; /* overlong */
        if (c == 0xED)
            hi = 0x9F; /* surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90; /* overlong */
        if (c == 0xF4)
            hi = 0x8F; /* past U+10FFFF */
    } else
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (int i = 2; i < len; i++)
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0;
    unsigned v = c & (0x7F >> len);
    for (int i = 1; i < len; i++)
        v = (v << 6) | (p[i] & 0x3F);
    *cp = v;
    return len;
}

/* Can this code point reorder, restyle or hide what a reader sees? (The list is report_clean's.) */
static int unsafe_code_point(unsigned cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x061C || cp == 0x200E || cp == 0x200F ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029 ||
           cp == 0xFFFE || cp == 0xFFFF;
}

/* Length of the character at p (1 for a byte that starts none); *safe says whether report_clean keeps it. */
static int char_at(const unsigned char *p, int *safe)
{
    unsigned cp;
    int len = utf8_length(p, &cp);
    *safe = len > 0 && !unsafe_code_point(cp);
    return len ? len : 1;
}

size_t report_clean(char *dst, size_t len, const char *src)
{
    if (len == 0)
        return 0;
    const unsigned char *p = (const unsigned char *)(src ? src : "");
    size_t used = 0;
    while (*p) {
        int safe, n = char_at(p, &safe), out = safe ? n : 1;
        if (used + (size_t)out >= len)
            break; /* cut before the character, never inside it */
        /* memmove: cleaning in place writes at or before where it reads */
        memmove(dst + used, safe ? (const char *)p : "?", (size_t)out);
        used += (size_t)out;
        p += n;
    }
    dst[used] = '\0';
    return used;
}

/*
 * The one writer of untrusted text: writes s cleaned as report_clean() cleans
 * it. `escape` maps an ASCII character to what the format writes for it (NULL:
 * as it is); with `hex`, a character report_clean() would replace is written
 * as \xHH per byte instead of '?', so that it can be read back.
 */
static void put_text(FILE *f, const char *s, const char *(*escape)(int c), int hex)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        int safe, n = char_at(p, &safe);
        const char *e = safe && escape ? escape(*p) : NULL;
        if (e)
            fputs(e, f);
        else if (safe)
            fwrite(p, 1, (size_t)n, f);
        else if (hex)
            for (int i = 0; i < n; i++)
                fprintf(f, "\\x%02X", p[i]);
        else
            fputc('?', f);
        p += n;
    }
}

void report_put_clean(FILE *f, const char *s)
{
    put_text(f, s, NULL, 0);
}

/* Inside a JSON string: the quote and the backslash (report_clean has already taken every control character). */
static const char *json_escape(int c)
{
    return c == '"' ? "\\\"" : c == '\\' ? "\\\\" : NULL;
}

void report_json_string(FILE *f, const char *s)
{
    put_text(f, s, json_escape, 0);
}

/* Inside XML text or an attribute in either quotes: the five characters with entities. */
static const char *xml_escape(int c)
{
    switch (c) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\'': return "&apos;";
    default: return NULL;
    }
}

void report_xml_text(FILE *f, const char *s)
{
    put_text(f, s, xml_escape, 0);
}

/* Inside a CSV field: quotes doubled, and backslashes doubled because \xHH stands for a byte. */
static const char *csv_escape(int c)
{
    return c == '"' ? "\"\"" : c == '\\' ? "\\\\" : NULL;
}

void report_csv_field(FILE *f, const char *s)
{
    s = s ? s : "";
    int formula = s[0] != '\0' && strchr("=+-@", s[0]) != NULL;
    int quote = formula || strpbrk(s, ",\"") != NULL;
    if (quote)
        fputc('"', f);
    if (formula)
        fputc('\'', f);
    if (s[0] == '\'') { /* so that the only leading apostrophe the reader strips is the one just above */
        fputs("\\x27", f);
        s++;
    }
    put_text(f, s, csv_escape, 1);
    if (quote)
        fputc('"', f);
}

void report_rerun(char *buf, size_t len, const char *lab, const char *test)
{
    snprintf(buf, len, "make check LAB=%.*s%s%s", (int)strcspn(lab, "-"), lab, test ? " TEST=" : "", test ? test : "");
}

/* Adds "; input: make run ..." (report_run_input()) to a rerun command in buf. */
static void append_input(char *buf, size_t len, const char *lab, const spec_test *t)
{
    char run[320];
    report_run_input(run, sizeof run, lab, t);
    size_t l = strlen(buf);
    snprintf(buf + l, len - l, "; input: %s", run);
}

void report_run_input(char *buf, size_t len, const char *lab, const spec_test *t)
{
    static const char *const algs[] = {"pbs", "cf", "cl", "baseline"};
    char args[240] = "";
    size_t l = 0;
#define ARG(...) (l += (size_t)snprintf(args + l, l < sizeof args ? sizeof args - l : 0, __VA_ARGS__))
    if (strcmp(t->op, "worst") == 0) {
        ARG("--threads %d --tile %d", t->w, t->E);
    } else {
        ARG("--type %s --m %lld", kit_type_name(t->type), t->m);
        if (strcmp(t->op, "sort") != 0)
            ARG(" --n %lld", t->n);
        ARG(" --gen %s --seed %llu", kit_gen_name(t->gen), t->seed);
        if (strcmp(t->op, "pbs") == 0)
            ARG(" --queries %s", kit_pbs_queries_name(t->queries));
        if ((strcmp(t->op, "pbs") == 0 || strcmp(t->op, "sort") == 0) && t->alg >= 0 && t->alg < 4)
            ARG(" --alg %s", algs[t->alg]);
        if (t->blocks) /* the launch the grader asks for (kit_merge_serve_one: tile, else E, else 1) */
            ARG(" --blocks %d --threads %d", t->blocks, t->u);
        if (strcmp(t->op, "merge") == 0 && t->blocks)
            ARG(" --tile %d", t->tile ? t->tile : t->E ? t->E : 1);
        if (strcmp(t->op, "sort") == 0)
            ARG(" --threads %d --tile %d", t->u, t->E);
    }
#undef ARG
    snprintf(buf, len, "make run LAB=%.*s ARGS=\"%s\"", (int)strcspn(lab, "-"), lab, args);
}

/*
 * The command that reruns a failing task: its first failing test by name, or the whole lab when no
 * test of its own failed it (the runner was not built, a skeleton's marker was reached); "" when
 * the task passed or a hidden test failed it, which make check cannot run.
 */
static void task_rerun(const lab_result *lab, int t, char *buf, size_t len)
{
    const task_result *tr = &lab->tasks[t];
    int x = tr->failed_test;
    buf[0] = '\0';
    if (tr->v == V_PASS || (x >= 0 && lab->spec.tests[x].hidden))
        return;
    report_rerun(buf, len, lab->spec.lab, x >= 0 && tr->v != V_NOT_ATTEMPTED ? lab->spec.tests[x].name : NULL);
}

/* The make run command of the test that failed task t (report_run_input()), or "" when task_rerun() names none. */
static void task_input(const lab_result *lab, int t, char *buf, size_t len)
{
    const task_result *tr = &lab->tasks[t];
    int x = tr->failed_test;
    buf[0] = '\0';
    if (tr->v != V_PASS && tr->v != V_NOT_ATTEMPTED && x >= 0 && !lab->spec.tests[x].hidden)
        report_run_input(buf, len, lab->spec.lab, &lab->spec.tests[x]);
}

/* The end of a failure line: "; input: make run ..." when there is one, then "; rerun: make check ...". */
static void put_commands(FILE *f, const char *input, const char *rerun)
{
    fprintf(f, "%s%s%s%s\n", input[0] ? "; input: " : "", input, rerun[0] ? "; rerun: " : "", rerun);
}

/* The lab's block of the student's own compiler warnings (lab_result.warnings), indented; nothing when none. */
static void put_warnings(FILE *f, const lab_result *lab)
{
    if (!lab->warnings[0])
        return;
    fputs("  the compiler's warnings in your file:\n", f);
    for (const char *s = lab->warnings; *s;) {
        size_t n = strcspn(s, "\n");
        fprintf(f, "    %.*s\n", (int)n, s);
        s += n + (s[n] == '\n');
    }
}

void report_table(FILE *f, const grade_report *r)
{
    for (int l = 0; l < r->nlabs; l++) {
        const lab_result *lab = &r->labs[l];
        fputs("\n== ", f);
        report_put_clean(f, lab->spec.lab);
        if (!lab->spec_ok) {
            fputs(": spec error, not graded ==\n  ", f);
            report_put_clean(f, lab->spec_error);
            fputc('\n', f);
            continue;
        }
        fputs(": ", f);
        report_put_clean(f, lab->spec.title);
        fputs(" ==\n", f);
        fprintf(f, "  %-10s %7s  %s\n", "task", "points", "verdict");
        for (int t = 0; t < lab->spec.ntasks; t++) {
            char name[sizeof lab->spec.tasks[t].name];
            report_clean(name, sizeof name, lab->spec.tasks[t].name);
            fprintf(f, "  %-10s %3d/%-3d  ", name, lab->tasks[t].points, lab->spec.tasks[t].points);
            report_put_clean(f, lab->tasks[t].detail);
            char rerun[160], input[400];
            task_rerun(lab, t, rerun, sizeof rerun);
            task_input(lab, t, input, sizeof input);
            put_commands(f, input, rerun);
        }
        fprintf(f, "  %-10s %3d/%-3d\n", "lab total", lab->points, lab->max_points);
        put_warnings(f, lab);
    }
    fprintf(f, "\nTOTAL %d/%d (%.1f%%)\n", r->points, r->max_points, report_percent(r));
}

/*
 * One failure line of make check's report: what failed (and of which task, or NULL), why, the make
 * run command that rebuilds its input and the command that reruns it ("" for none).
 */
static void brief_fail(FILE *f, const char *what, const char *name, const char *task, const char *detail,
                       const char *input, const char *rerun)
{
    fprintf(f, "  FAIL %s ", what);
    report_put_clean(f, name);
    if (task) {
        fputs(" (task ", f);
        report_put_clean(f, task);
        fputc(')', f);
    }
    fputs(": ", f);
    report_put_clean(f, detail);
    put_commands(f, input, rerun);
}

/*
 * make check's lines for task t of a lab whose tests ran: one for the task when it reached a
 * skeleton's marker (its other tests that reached one add nothing), and one per other failing
 * test; a test skipped after a timeout is counted, not shown. Adds its tests to *tests and *passed.
 */
static void brief_task(FILE *f, const lab_result *lab, int t, int *tests, int *passed)
{
    const task_result *tr = &lab->tasks[t];
    char rerun[600];
    int skeleton = tr->v == V_NOT_ATTEMPTED;
    if (skeleton) {
        task_rerun(lab, t, rerun, sizeof rerun);
        brief_fail(f, "task", lab->spec.tasks[t].name, NULL, tr->detail, "", rerun);
    }
    for (int x = 0; x < lab->spec.ntests; x++) {
        const spec_test *st = &lab->spec.tests[x];
        const test_result *te = &lab->tests[x];
        if (st->task != t)
            continue;
        (*tests)++;
        *passed += te->v == V_PASS;
        if (te->v == V_PASS || te->skipped || (skeleton && te->v == V_NOT_ATTEMPTED))
            continue;
        char input[400] = "";
        if (st->hidden) {
            rerun[0] = '\0';
        } else {
            report_rerun(rerun, sizeof rerun, lab->spec.lab, st->name);
            report_run_input(input, sizeof input, lab->spec.lab, st);
        }
        brief_fail(f, st->hidden ? "hidden test" : "test", st->name, lab->spec.tasks[t].name, te->detail, input, rerun);
    }
}

int report_brief(FILE *f, const grade_report *r, const char *note)
{
    int failed = 0;
    for (int l = 0; l < r->nlabs; l++) {
        const lab_result *lab = &r->labs[l];
        if (!lab->spec_ok) {
            brief_fail(f, "lab", lab->spec.lab, NULL, lab->spec_error, "", "");
            failed = 1;
            continue;
        }
        int tests = 0, passed = 0, hidden = 0;
        for (int x = 0; x < lab->spec.ntests; x++)
            hidden += lab->spec.tests[x].hidden;
        if (lab->whole != V_PASS) { /* no test ran: one line for the lab */
            char rerun[600];
            report_rerun(rerun, sizeof rerun, lab->spec.lab, NULL);
            brief_fail(f, "lab", lab->spec.lab, NULL, lab->spec.ntasks ? lab->tasks[0].detail : "", "", rerun);
            tests = lab->spec.ntests;
        } else {
            for (int t = 0; t < lab->spec.ntasks; t++)
                brief_task(f, lab, t, &tests, &passed);
        }
        put_warnings(f, lab);
        fputs("lab ", f);
        report_put_clean(f, lab->spec.lab);
        fprintf(f, ", %s build: %d of %d %stests pass%s%s%s\n", r->mode && strcmp(r->mode, "gpu") == 0 ? "GPU" : "CPU",
                passed, tests, hidden ? "" : "public ", note ? " (" : "", note ? note : "", note ? ")" : "");
        failed |= passed < tests;
    }
    return failed;
}

void report_tsv(FILE *f, const grade_report *r)
{
    for (int l = 0; l < r->nlabs; l++) {
        const lab_result *lab = &r->labs[l];
        for (int t = 0; lab->spec_ok && t < lab->spec.ntasks; t++) {
            report_put_clean(f, lab->spec.lab);
            fputc('\t', f);
            report_put_clean(f, lab->spec.tasks[t].name);
            fprintf(f, "\t%d\t%d\t%s\t", lab->tasks[t].points, lab->spec.tasks[t].points,
                    verdict_name(lab->tasks[t].v));
            report_put_clean(f, lab->tasks[t].detail);
            fputc('\n', f);
        }
    }
}

/* Writes "key": "value" with the value escaped. */
static void json_pair(FILE *f, const char *key, const char *value)
{
    fprintf(f, "\"%s\": \"", key);
    report_json_string(f, value);
    fputc('"', f);
}

void report_json(FILE *f, const grade_report *r)
{
    fputs("{\n  ", f);
    json_pair(f, "submission", r->submission);
    fputs(",\n  ", f);
    json_pair(f, "mode", r->mode ? r->mode : "");
    fprintf(f, ",\n  \"score\": %d,\n  \"max_score\": %d,\n  \"percent\": %.1f,\n  \"seconds\": %.3f,\n  \"labs\": [",
            r->points, r->max_points, report_percent(r), r->seconds);
    for (int l = 0; l < r->nlabs; l++) {
        const lab_result *lab = &r->labs[l];
        fprintf(f, "%s\n    {", l ? "," : "");
        json_pair(f, "lab", lab->spec.lab);
        if (!lab->spec_ok) {
            fputs(", ", f);
            json_pair(f, "spec_error", lab->spec_error);
            fputs(", \"score\": 0, \"max_score\": 0, \"tasks\": []}", f);
            continue;
        }
        fputs(", ", f);
        json_pair(f, "title", lab->spec.title);
        fprintf(f, ", \"score\": %d, \"max_score\": %d, \"tasks\": [", lab->points, lab->max_points);
        for (int t = 0; t < lab->spec.ntasks; t++) {
            const task_result *tr = &lab->tasks[t];
            fprintf(f, "%s\n      {", t ? "," : "");
            json_pair(f, "task", lab->spec.tasks[t].name);
            fputs(", ", f);
            json_pair(f, "title", lab->spec.tasks[t].title);
            fprintf(f, ", \"points\": %d, \"max_points\": %d, ", tr->points, lab->spec.tasks[t].points);
            json_pair(f, "verdict", verdict_name(tr->v));
            fputs(", ", f);
            json_pair(f, "detail", tr->detail);
            fputs(", \"tests\": [", f);
            int first = 1;
            for (int x = 0; x < lab->spec.ntests; x++) {
                const spec_test *st = &lab->spec.tests[x];
                const test_result *te = &lab->tests[x];
                if (st->task != t)
                    continue;
                fprintf(f, "%s\n        {", first ? "" : ",");
                first = 0;
                json_pair(f, "test", st->name);
                fputs(", ", f);
                json_pair(f, "visibility", st->hidden ? "hidden" : "public");
                fputs(", ", f);
                json_pair(f, "verdict", verdict_name(te->v));
                fprintf(f, ", \"skipped\": %s, \"seconds\": %.3f, ", te->skipped ? "true" : "false", te->seconds);
                json_pair(f, "detail", te->detail);
                fputc('}', f);
            }
            fputs(first ? "]}" : "\n      ]}", f);
        }
        fputs(lab->spec.ntasks ? "\n    ]}" : "]}", f);
    }
    fputs(r->nlabs ? "\n  ]\n}\n" : "]\n}\n", f);
}

/* Gradescope's visibilities, from the soonest shown to the never shown. */
static const char *const VISIBILITIES[] = {"visible", "after_due_date", "after_published", "hidden"};

/* A visibility's place in VISIBILITIES: 0 (shown at once) to 3 (never shown); -1 for none of them. */
static int visibility_rank(const char *v)
{
    for (int i = 0; i < (int)(sizeof VISIBILITIES / sizeof VISIBILITIES[0]); i++)
        if (strcmp(v, VISIBILITIES[i]) == 0)
            return i;
    return -1;
}

/* The lab's visibility of its task entries, public tests and hidden tests: as its spec set them, else the defaults. */
static const char *vis_tasks(const lab_result *lab)
{
    return lab->visibility.tasks[0] ? lab->visibility.tasks : "visible";
}
static const char *vis_public(const lab_result *lab)
{
    return lab->visibility.public_tests[0] ? lab->visibility.public_tests : "visible";
}
static const char *vis_hidden(const lab_result *lab)
{
    return lab->visibility.hidden_tests[0] ? lab->visibility.hidden_tests : "after_due_date";
}

/* When a student sees an entry of visibility v, in words. */
static const char *when_shown(const char *v)
{
    static const char *const words[] = {"at once", "after the due date", "once the grades are published", "never"};
    int rank = visibility_rank(v);
    return rank >= 0 ? words[rank] : "never";
}

int report_visibility_read(FILE *f, const char *name, report_visibility *v, char *err, size_t errlen)
{
    char line[1024];
    unsigned lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        char *save = NULL, *word = strtok_r(line, " \t", &save);
        if (!word || strcmp(word, "visibility") != 0)
            continue;
        int keys = 0;
        for (char *kv; (kv = strtok_r(NULL, " \t", &save)); keys++) {
            size_t key = strcspn(kv, "=");
            char *to = NULL;
            if (kv[key] == '=')
                to = strncmp(kv, "tasks", key) == 0 && key == 5    ? v->tasks
                     : strncmp(kv, "public", key) == 0 && key == 6 ? v->public_tests
                     : strncmp(kv, "hidden", key) == 0 && key == 6 ? v->hidden_tests
                                                                    : NULL;
            if (!to) {
                snprintf(err, errlen, "%s:%u: visibility takes tasks=V, public=V and hidden=V, not '%s'", name, lineno,
                         kv);
                return -1;
            }
            if (visibility_rank(kv + key + 1) < 0) {
                snprintf(err, errlen, "%s:%u: '%s': a visibility is visible, after_due_date, after_published or hidden",
                         name, lineno, kv);
                return -1;
            }
            snprintf(to, sizeof v->tasks, "%s", kv + key + 1);
        }
        if (keys == 0) {
            snprintf(err, errlen, "%s:%u: visibility needs tasks=V, public=V or hidden=V", name, lineno);
            return -1;
        }
    }
    return 0;
}

/* Writes text as the inside of a JSON string: each line cleaned and escaped, the line breaks as \n. */
static void json_lines(FILE *f, const char *text)
{
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        char *line = strndup(p, n);
        report_json_string(f, line ? line : "?");
        free(line);
        p += n;
        if (*p == '\n') {
            fputs("\\n", f);
            p++;
        }
    }
}

/* Gradescope's "output" of a test or task: its detail, and on a line of its own the command that reruns it, if any. */
static void json_output(FILE *f, const char *detail, const char *rerun)
{
    fputs("\"output\": \"", f);
    report_json_string(f, detail);
    if (rerun[0]) {
        fputs("\\nRerun it on your own file: ", f);
        report_json_string(f, rerun);
    }
    fputc('"', f);
}

/* How the runners were built, as the summaries say it. */
static const char *built_for(const grade_report *r)
{
    return r->mode && strcmp(r->mode, "gpu") == 0 ? "the GPU" : "the kit's CPU emulation";
}

/*
 * The top-level summary of results.json: the total, a line per lab with its points and the tasks
 * that did not pass, and how to read the entries below (not run, and when hidden tests show).
 */
static void gradescope_summary(FILE *f, const grade_report *r)
{
    fprintf(f, "Total: %d/%d (%.1f%%), runners built for %s.\n", r->points, r->max_points, report_percent(r),
            built_for(r));
    const char *hidden_when = NULL;
    int hidden_differ = 0;
    for (int l = 0; l < r->nlabs; l++) {
        const lab_result *lab = &r->labs[l];
        report_put_clean(f, lab->spec.lab);
        if (!lab->spec_ok) {
            fputs(": not graded (its spec could not be read)\n", f);
            continue;
        }
        fprintf(f, ": %d/%d", lab->points, lab->max_points);
        int shown = 0;
        for (int t = 0; t < lab->spec.ntasks; t++) {
            if (lab->tasks[t].v == V_PASS)
                continue;
            fputs(shown++ ? ", " : "; not passed: ", f);
            report_put_clean(f, lab->spec.tasks[t].name);
            if (lab->tasks[t].v == V_NOT_ATTEMPTED)
                fputs(" (not attempted)", f);
        }
        fputc('\n', f);
        for (int x = 0; x < lab->spec.ntests; x++)
            if (lab->spec.tests[x].hidden) {
                const char *when = when_shown(vis_hidden(lab));
                hidden_differ |= hidden_when && strcmp(hidden_when, when) != 0;
                hidden_when = when;
                break;
            }
    }
    fputs("Each task is all or nothing: its tests stop at the first that fails, and the rest show as not run.", f);
    if (hidden_when)
        fprintf(f, " Hidden tests show their names and details %s.", hidden_differ ? "when each lab's spec says" : hidden_when);
    fputc('\n', f);
}

/*
 * A task's entry. A task that a hidden test failed says only that while its entry shows before the
 * hidden tests' entries (their names and details are theirs to show).
 */
static void gradescope_task(FILE *f, const lab_result *lab, int t)
{
    const task_result *tr = &lab->tasks[t];
    fputs("    {\"name\": \"", f);
    report_json_string(f, lab->spec.lab);
    fputs(" task ", f);
    report_json_string(f, lab->spec.tasks[t].name);
    fputs(": ", f);
    report_json_string(f, lab->spec.tasks[t].title);
    fprintf(f, "\", \"score\": %d, \"max_score\": %d, \"status\": \"%s\", ", tr->points, lab->spec.tasks[t].points,
            tr->v == V_PASS ? "passed" : "failed");
    int x = tr->failed_test;
    if (x >= 0 && lab->spec.tests[x].hidden && visibility_rank(vis_tasks(lab)) < visibility_rank(vis_hidden(lab))) {
        char said[160];
        snprintf(said, sizeof said, "failed a hidden test; its name and details show %s", when_shown(vis_hidden(lab)));
        json_output(f, said, "");
    } else {
        char rerun[600];
        task_rerun(lab, t, rerun, sizeof rerun);
        if (x >= 0 && tr->v != V_NOT_ATTEMPTED && rerun[0])
            append_input(rerun, sizeof rerun, lab->spec.lab, &lab->spec.tests[x]);
        json_output(f, tr->detail, rerun);
    }
    fprintf(f, ", \"visibility\": \"%s\"}", vis_tasks(lab));
}

/* A test's entry: passed or failed with 0 points, or, when it did not run, no score and no status. */
static void gradescope_test(FILE *f, const lab_result *lab, int x)
{
    const spec_test *st = &lab->spec.tests[x];
    const test_result *te = &lab->tests[x];
    fputs("    {\"name\": \"", f);
    report_json_string(f, lab->spec.lab);
    fputs(" test ", f);
    report_json_string(f, lab->spec.tasks[st->task].name);
    fputc('/', f);
    report_json_string(f, st->name);
    fprintf(f, "%s%s\", ", st->hidden ? " (hidden)" : "", te->skipped ? " (not run)" : "");
    if (!te->skipped)
        fprintf(f, "\"score\": 0, \"max_score\": 0, \"status\": \"%s\", ", te->v == V_PASS ? "passed" : "failed");
    char rerun[600] = "";
    if (te->v != V_PASS && !te->skipped && !st->hidden) {
        report_rerun(rerun, sizeof rerun, lab->spec.lab, st->name);
        append_input(rerun, sizeof rerun, lab->spec.lab, st);
    }
    json_output(f, te->detail, rerun);
    fprintf(f, ", \"visibility\": \"%s\"}", st->hidden ? vis_hidden(lab) : vis_public(lab));
}

void report_gradescope(FILE *f, const grade_report *r)
{
    char *summary = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&summary, &len);
    if (m) {
        gradescope_summary(m, r);
        fclose(m);
    }
    /* the score at the top too: Gradescope wants one there when some entries (tests not run) carry none */
    fprintf(f, "{\n  \"score\": %d,\n  \"execution_time\": %d,\n  \"output\": \"", r->points, (int)(r->seconds + 0.5));
    json_lines(f, summary ? summary : "");
    free(summary);
    fputs("\",\n  \"output_format\": \"text\",\n  \"test_output_format\": \"text\",\n  \"test_name_format\": \"text\",\n"
          "  \"tests\": [",
          f);
    int first = 1;
    for (int l = 0; l < r->nlabs; l++) {
        const lab_result *lab = &r->labs[l];
        if (!lab->spec_ok) {
            fprintf(f, "%s\n    {\"name\": \"", first ? "" : ",");
            report_json_string(f, lab->spec.lab);
            fputs(": not graded\", \"score\": 0, \"max_score\": 0, \"status\": \"failed\", ", f);
            json_pair(f, "output", lab->spec_error);
            fputs(", \"visibility\": \"visible\"}", f);
            first = 0;
            continue;
        }
        for (int t = 0; t < lab->spec.ntasks; t++) {
            fputs(first ? "\n" : ",\n", f);
            first = 0;
            gradescope_task(f, lab, t);
            for (int x = 0; x < lab->spec.ntests; x++)
                if (lab->spec.tests[x].task == t) {
                    fputs(",\n", f);
                    gradescope_test(f, lab, x);
                }
        }
    }
    fputs(first ? "]\n}\n" : "\n  ]\n}\n", f);
}

/* Inside Markdown text: what Markdown could read as markup, escaped (the rest as it is). */
static const char *md_escape(int c)
{
    static const char *const escaped[128] = {
        ['\\'] = "\\\\", ['`'] = "\\`", ['*'] = "\\*", ['_'] = "\\_", ['['] = "\\[", [']'] = "\\]",
        ['#'] = "\\#",   ['|'] = "\\|", ['!'] = "\\!", ['~'] = "\\~", ['<'] = "&lt;", ['>'] = "&gt;",
        ['&'] = "&amp;",
    };
    return c >= 0 && c < 128 ? escaped[c] : NULL;
}

/* Writes untrusted text into Markdown prose: cleaned, and escaped where Markdown would read markup. */
static void md_text(FILE *f, const char *s)
{
    put_text(f, s, md_escape, 0);
}

/* Writes a line as an indented code block, which Markdown shows as it is (cleaned: one line). */
static void md_code(FILE *f, const char *line)
{
    fputs("\n    ", f);
    report_put_clean(f, line);
    fputs("\n\n", f);
}

/* The failing task t of a lab whose tests ran: its skeleton's marker, or each failing test with its rerun command. */
static void markdown_task(FILE *f, const lab_result *lab, int t)
{
    const task_result *tr = &lab->tasks[t];
    char rerun[600];
    fputs("### ", f);
    md_text(f, lab->spec.lab);
    fputs(", task ", f);
    md_text(f, lab->spec.tasks[t].name);
    fprintf(f, ": %d/%d\n\n", tr->points, lab->spec.tasks[t].points);
    int skeleton = tr->v == V_NOT_ATTEMPTED, not_run = 0;
    if (skeleton) {
        fputs("Not written yet:\n", f);
        md_code(f, tr->detail);
    }
    for (int x = 0; x < lab->spec.ntests; x++) {
        const spec_test *st = &lab->spec.tests[x];
        const test_result *te = &lab->tests[x];
        if (st->task != t || te->v == V_PASS || (skeleton && te->v == V_NOT_ATTEMPTED))
            continue;
        if (te->skipped) {
            not_run++;
            continue;
        }
        fprintf(f, "%s test ", st->hidden ? "Hidden" : "Public");
        md_text(f, st->name);
        fputs(" failed:\n", f);
        md_code(f, te->detail);
        if (st->hidden) {
            report_rerun(rerun, sizeof rerun, lab->spec.lab, NULL);
            fputs("A hidden test cannot be run on your side; this runs the public ones:\n", f);
        } else {
            report_rerun(rerun, sizeof rerun, lab->spec.lab, st->name);
            fputs("Rerun it on your own file:\n", f);
        }
        md_code(f, rerun);
        if (!st->hidden) {
            report_run_input(rerun, sizeof rerun, lab->spec.lab, st);
            fputs("Run the lab's driver on its input (add --print to see it):\n", f);
            md_code(f, rerun);
        }
    }
    if (skeleton) {
        report_rerun(rerun, sizeof rerun, lab->spec.lab, NULL);
        fputs("Check it on your own file:\n", f);
        md_code(f, rerun);
    }
    if (not_run)
        fprintf(f, "%d more test%s of this task did not run: a task is all or nothing, so its tests stop at the "
                   "first that fails.\n\n",
                not_run, not_run == 1 ? "" : "s");
}

void report_markdown(FILE *f, const grade_report *r)
{
    fputs("# Grading report: ", f);
    md_text(f, r->submission);
    fprintf(f, "\n\n**Total: %d/%d (%.1f%%)**, runners built for %s.\n\n", r->points, r->max_points,
            report_percent(r), built_for(r));
    fputs("| lab | task | points | verdict |\n| --- | --- | ---: | --- |\n", f);
    int failing = 0;
    for (int l = 0; l < r->nlabs; l++) {
        const lab_result *lab = &r->labs[l];
        if (!lab->spec_ok) {
            fputs("| ", f);
            md_text(f, lab->spec.lab);
            fputs(" | (not graded: its spec could not be read) | 0/0 | error |\n", f);
            continue;
        }
        for (int t = 0; t < lab->spec.ntasks; t++) {
            fputs("| ", f);
            md_text(f, lab->spec.lab);
            fputs(" | ", f);
            md_text(f, lab->spec.tasks[t].name);
            fprintf(f, " | %d/%d | %s |\n", lab->tasks[t].points, lab->spec.tasks[t].points,
                    verdict_name(lab->tasks[t].v));
            failing += lab->tasks[t].v != V_PASS;
        }
    }
    fprintf(f, "| **total** | | **%d/%d** | |\n\n", r->points, r->max_points);
    if (!failing) {
        fputs("Every task passed.\n", f);
        return;
    }
    fputs("## What did not pass\n\n", f);
    for (int l = 0; l < r->nlabs; l++) {
        const lab_result *lab = &r->labs[l];
        if (!lab->spec_ok)
            continue;
        if (lab->whole != V_PASS) { /* no runner: one section for the lab */
            char rerun[600];
            int any = 0;
            for (int t = 0; t < lab->spec.ntasks; t++)
                any |= lab->tasks[t].v != V_PASS;
            if (!any)
                continue;
            fputs("### ", f);
            md_text(f, lab->spec.lab);
            fprintf(f, ": 0/%d\n\nNo test of this lab ran:\n", lab->max_points);
            md_code(f, lab->spec.ntasks ? lab->tasks[0].detail : "");
            report_rerun(rerun, sizeof rerun, lab->spec.lab, NULL);
            fputs("Check it on your own file:\n", f);
            md_code(f, rerun);
            continue;
        }
        for (int t = 0; t < lab->spec.ntasks; t++)
            if (lab->tasks[t].v != V_PASS)
                markdown_task(f, lab, t);
    }
}

/* Counts a lab's tests by how JUnit sees them. */
static void junit_counts(const lab_result *lab, int *tests, int *failures, int *errors, int *skipped, double *secs)
{
    *tests = *failures = *errors = *skipped = 0;
    *secs = 0;
    if (!lab->spec_ok) {
        *tests = *errors = 1;
        return;
    }
    for (int x = 0; x < lab->spec.ntests; x++) {
        const test_result *te = &lab->tests[x];
        (*tests)++;
        *secs += te->seconds;
        if (te->skipped)
            (*skipped)++;
        else if (te->v == V_ERROR)
            (*errors)++;
        else if (te->v != V_PASS)
            (*failures)++;
    }
}

void report_junit(FILE *f, const grade_report *r)
{
    int tests = 0, failures = 0, errors = 0, skipped = 0;
    double secs = 0;
    for (int l = 0; l < r->nlabs; l++) {
        int t, fl, e, s;
        double d;
        junit_counts(&r->labs[l], &t, &fl, &e, &s, &d);
        tests += t, failures += fl, errors += e, skipped += s, secs += d;
    }
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"grader: ", f);
    report_xml_text(f, r->submission);
    fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\">\n", tests, failures,
            errors, skipped, secs);
    for (int l = 0; l < r->nlabs; l++) {
        const lab_result *lab = &r->labs[l];
        int t, fl, e, s;
        double d;
        junit_counts(lab, &t, &fl, &e, &s, &d);
        fputs("  <testsuite name=\"", f);
        report_xml_text(f, lab->spec.lab);
        fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\">\n", t, fl, e, s, d);
        if (!lab->spec_ok) {
            fputs("    <testcase classname=\"", f);
            report_xml_text(f, lab->spec.lab);
            fputs("\" name=\"spec\"><error type=\"spec\" message=\"", f);
            report_xml_text(f, lab->spec_error);
            fputs("\"/></testcase>\n  </testsuite>\n", f);
            continue;
        }
        fprintf(f, "    <properties><property name=\"points\" value=\"%d/%d\"/></properties>\n", lab->points,
                lab->max_points);
        for (int x = 0; x < lab->spec.ntests; x++) {
            const spec_test *st = &lab->spec.tests[x];
            const test_result *te = &lab->tests[x];
            fputs("    <testcase classname=\"", f);
            report_xml_text(f, lab->spec.lab);
            fputc('.', f);
            report_xml_text(f, lab->spec.tasks[st->task].name);
            fputs("\" name=\"", f);
            report_xml_text(f, st->name);
            fprintf(f, "\" time=\"%.3f\"", te->seconds);
            if (te->v == V_PASS && !te->skipped) {
                fputs("/>\n", f);
                continue;
            }
            const char *tag = te->skipped ? "skipped" : te->v == V_ERROR ? "error" : "failure";
            fprintf(f, ">\n      <%s type=\"%s\" message=\"", tag, verdict_name(te->v));
            report_xml_text(f, te->detail);
            fputs("\">", f);
            report_xml_text(f, te->detail);
            fprintf(f, "</%s>\n    </testcase>\n", tag);
        }
        fputs("  </testsuite>\n", f);
    }
    fputs("</testsuites>\n", f);
}

/* Says on stderr what went wrong with an output file; the path may hold a student's folder name, so it is cleaned. */
static void file_error(const char *what, const char *path, const char *why)
{
    fprintf(stderr, "grader: %s ", what);
    report_put_clean(stderr, path);
    if (why)
        fprintf(stderr, ": %s", why);
    fputc('\n', stderr);
}

int report_write_file(const char *path, void (*writer)(FILE *, const grade_report *), const grade_report *r)
{
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path) >= (int)sizeof tmp) {
        file_error("output path too long:", path, NULL);
        return -1;
    }
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        file_error("cannot write", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    fchmod(fd, 0644);
    writer(f, r);
    int ok = fflush(f) == 0 && !ferror(f) && fsync(fd) == 0;
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) {
        file_error("could not finish writing", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

void report_calibration(FILE *f, const grade_report *r)
{
    fprintf(f, "# lab\ttest\tkernel\tthreshold\tmeasured\thow\tmode\n");
    for (int l = 0; l < r->nlabs; l++) {
        const lab_result *lab = &r->labs[l];
        if (!lab->spec_ok)
            continue;
        for (int x = 0; x < lab->spec.ntests; x++) {
            const spec_test *t = &lab->spec.tests[x];
            if (!t->conflict_cmp)
                continue;
            const test_result *tr = &lab->tests[x];
            report_put_clean(f, lab->spec.lab);
            fputc('\t', f);
            report_put_clean(f, t->name);
            fputc('\t', f);
            report_put_clean(f, t->kernel[0] ? t->kernel : "-");
            fprintf(f, "\tconflicts%s%lld\t",
                    t->conflict_cmp == '<' ? "<=" : t->conflict_cmp == '>' ? ">=" : "==", t->conflicts);
            if (tr->conflicts >= 0)
                fprintf(f, "%lld\t%s\t%s\n", tr->conflicts, strcmp(r->mode, "cpu") == 0 ? "simulated" : "ncu", r->mode);
            else
                fprintf(f, "not-measured\t-\t%s\n", r->mode);
        }
    }
}
