/* Tests of grader/shard.c: shard specs, the split of students into shards, result files and the gather. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "batch.h"
#include "kit_test.h"
#include "report.h"
#include "shard.h"

/* A name with everything a shell or a CSV reader could trip on. */
static const char *const NASTY = "two words $(touch x); `touch y`, \"quoted\"\tand 'more'";

static grade_report rep, back;

/* A report of two graded labs (merge 6 + stable 4, co_rank 5) and a lab whose spec failed; `points` picks the score. */
static void fill_report(grade_report *r, const char *student, int points)
{
    memset(r, 0, sizeof *r);
    snprintf(r->submission, sizeof r->submission, "%s", student);
    r->mode = "cpu";
    r->nlabs = 3;
    const char *labs[] = {"01-x", "02-y"}, *tasks[] = {"merge", "stable", "co_rank"};
    const int max[] = {6, 4, 5};
    for (int t = 0; t < 3; t++) {
        lab_result *lab = &r->labs[t / 2];
        int i = lab->spec.ntasks++;
        snprintf(lab->spec.lab, sizeof lab->spec.lab, "%s", labs[t / 2]);
        lab->spec_ok = 1;
        snprintf(lab->spec.tasks[i].name, sizeof lab->spec.tasks[i].name, "%s", tasks[t]);
        lab->spec.tasks[i].points = max[t];
        int pass = points > t; /* the first `points` tasks pass */
        lab->tasks[i].v = pass ? V_PASS : t == 2 ? V_TIMEOUT : V_WRONG;
        lab->tasks[i].points = pass ? max[t] : 0;
        snprintf(lab->tasks[i].detail, sizeof lab->tasks[i].detail, "%s\tdetail\nwith breaks", NASTY);
    }
    snprintf(r->labs[2].spec.lab, sizeof r->labs[2].spec.lab, "03-z");
    snprintf(r->labs[2].spec_error, sizeof r->labs[2].spec_error, "unknown directive");
    report_total(r);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

/* Makes a fresh folder /tmp/kit-shard-WHAT-XXXXXX into buf and returns buf. */
static char *temp_dir(char *buf, size_t len, const char *what)
{
    snprintf(buf, len, "/tmp/kit-shard-%s-XXXXXX", what);
    KIT_ASSERT_MSG(mkdtemp(buf) != NULL, "mkdtemp for %s failed", what);
    return buf;
}

static void remove_tree(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Makes the folder dir/name (a student) or, with file = 1, an empty file. */
static void make(const char *dir, const char *name, int file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int ok = file ? fclose(fopen(path, "w")) == 0 : mkdir(path, 0755) == 0;
    KIT_ASSERT_MSG(ok, "could not make %s", path);
}

/* The functions under test report on stdout and stderr; the tests that call them hush both meanwhile. */
static int saved_out = -1, saved_err = -1;

static void hush(void)
{
    fflush(stdout);
    fflush(stderr);
    saved_out = dup(1);
    saved_err = dup(2);
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    close(null);
}

static void unhush(void)
{
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, 1);
    dup2(saved_err, 2);
    close(saved_out);
    close(saved_err);
}

/* How many entries a folder has, besides . and .. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

/* The whole of a file, malloc'ed, or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *text = calloc(1, 1 << 16);
    fread(text, 1, (1 << 16) - 1, f);
    fclose(f);
    return text;
}

/* ---- shard specs ---------------------------------------------------------------- */

static void test_parse_good(void)
{
    const char *good[] = {"0/1", "2/3", "0/10000", "9999/10000", "007/8"};
    const int k[] = {0, 2, 0, 9999, 7}, n[] = {1, 3, 10000, 10000, 8};
    for (int i = 0; i < 5; i++) {
        shard_spec s = {-1, -1};
        char err[256] = "";
        int rc = shard_parse(good[i], &s, err, sizeof err);
        KIT_ASSERT_MSG(rc == 0 && s.k == k[i] && s.n == n[i], "'%s' read as %d/%d (rc %d, %s)", good[i], s.k, s.n, rc,
                       err);
    }
}

static void test_parse_bad(void)
{
    /* each bad spec, and a word its one-line message must hold */
    const char *bad[][2] = {{"3/2", "below N"},     {"2/2", "below N"},    {"0/0", "must be 1 to"},
                            {"-1/2", "write K/N"},  {"x/y", "write K/N"},  {"1/", "write K/N"},
                            {"/2", "write K/N"},    {"", "write K/N"},     {"1/2/3", "write K/N"},
                            {" 1/2", "write K/N"},  {"1/2 ", "write K/N"}, {"+1/2", "write K/N"},
                            {"0/10001", "1 to 10000"}, {"12", "write K/N"}, {"99999999999/2", "write K/N"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        shard_spec s = {-7, -7};
        char err[256] = "";
        int rc = shard_parse(bad[i][0], &s, err, sizeof err);
        KIT_ASSERT_MSG(rc == -1 && strstr(err, bad[i][1]) && strstr(err, bad[i][0]) && !strchr(err, '\n'),
                       "'%s': rc %d, message [%s], expected one line with '%s'", bad[i][0], rc, err, bad[i][1]);
        KIT_ASSERT_MSG(s.k == -7 && s.n == -7, "'%s' changed the shard to %d/%d", bad[i][0], s.k, s.n);
    }
}

/* ---- the split ---------------------------------------------------------------------- */

/* Every student falls in exactly one shard, the same one every time, and large splits are not lopsided. */
static void test_slices_disjoint_and_covering(void)
{
    enum { STUDENTS = 3000 };
    static char names[STUDENTS][32];
    for (int i = 0; i < STUDENTS; i++)
        snprintf(names[i], sizeof names[i], i % 3 ? "student%04d" : "s %d $(x)", i);
    for (int n = 1; n <= 16; n++) {
        int seen[16] = {0};
        for (int i = 0; i < STUDENTS; i++) {
            int k = shard_of(names[i], n), in = 0;
            for (int j = 0; j < n; j++) /* disjoint: exactly one shard claims the student */
                in += shard_of(names[i], n) == j;
            KIT_ASSERT_MSG(k >= 0 && k < n && in == 1, "%s: shard %d of %d, claimed by %d shards", names[i], k, n, in);
            if (k >= 0 && k < n)
                seen[k]++;
        }
        int total = 0;
        for (int k = 0; k < n; k++) {
            total += seen[k];
            KIT_ASSERT_MSG(seen[k] > STUDENTS / n / 2, "shard %d/%d holds %d of %d students", k, n, seen[k], STUDENTS);
        }
        KIT_ASSERT_MSG(total == STUDENTS, "the %d shards hold %d students, not %d", n, total, STUDENTS);
    }
    /* The hash is part of the results folder's meaning: changing it would move students between shards. */
    KIT_ASSERT_MSG(shard_of("hanging", 3) == 0 && shard_of("empty", 3) == 1 && shard_of("good", 3) == 2,
                   "FNV-1a changed: hanging %d, empty %d, good %d (expected 0, 1, 2)", shard_of("hanging", 3),
                   shard_of("empty", 3), shard_of("good", 3));
}

static void test_list_students(void)
{
    char dir[64], err[512];
    char **names;
    int count;
    temp_dir(dir, sizeof dir, "list");
    KIT_ASSERT_MSG(shard_list_students(dir, &names, &count, err, sizeof err) == -1 && strstr(err, "no submission"),
                   "an empty folder: %s", err);
    make(dir, ".hidden", 0);
    make(dir, "a file", 1);
    KIT_ASSERT_MSG(shard_list_students(dir, &names, &count, err, sizeof err) == -1 && strstr(err, "no submission"),
                   "a folder with only a dot-folder and a file: %s", err);
    make(dir, "b", 0);
    make(dir, NASTY, 0);
    char link[128];
    snprintf(link, sizeof link, "%s/link", dir);
    KIT_ASSERT_MSG(symlink("b", link) == 0, "symlink failed");
    int rc = shard_list_students(dir, &names, &count, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && count == 2 && strcmp(names[0], "b") == 0 && strcmp(names[1], NASTY) == 0,
                   "listed %d students (rc %d, %s): [%s] ...", count, rc, err, count ? names[0] : "");
    if (rc == 0)
        shard_free_names(names, count);
    KIT_ASSERT_MSG(shard_list_students("/no/such/folder", &names, &count, err, sizeof err) == -1 &&
                       strstr(err, "cannot read the submissions folder /no/such/folder"),
                   "a missing folder: %s", err);
    remove_tree(dir);
}

/* ---- result files ------------------------------------------------------------------ */

/* A result is written whole under its final name (the old file stays intact for whoever reads it), and comes back. */
static void test_atomic_write_and_read_back(void)
{
    hush();
    char dir[64], path[256], err[256];
    temp_dir(dir, sizeof dir, "write");
    fill_report(&rep, NASTY, 1);
    gradebook cols, a, b;
    KIT_ASSERT_MSG(shard_prepare_out(dir, &rep, err, sizeof err) == 0, "prepare: %s", err);
    KIT_ASSERT_MSG(gradebook_init(&cols, &rep) == 0, "gradebook_init failed");
    KIT_ASSERT_MSG(shard_write_result(dir, NASTY, &rep) == 0, "first write failed");
    snprintf(path, sizeof path, "%s/%s.tsv", dir, NASTY);
    FILE *old = fopen(path, "r");
    fill_report(&rep, NASTY, 2);
    KIT_ASSERT_MSG(shard_write_result(dir, NASTY, &rep) == 0, "second write failed");
    char was[4096] = "";
    size_t got = old ? fread(was, 1, sizeof was - 1, old) : 0;
    was[got] = '\0';
    KIT_ASSERT_MSG(strstr(was, "01-x\tstable\t0\t4\twrong\t"), "the file open before the rewrite changed:\n%s", was);
    if (old)
        fclose(old);
    char *now = slurp(path);
    KIT_ASSERT_MSG(now && strstr(now, "01-x\tstable\t4\t4\tpass\t"), "the rewrite is not in place:\n%s", now);
    free(now);
    KIT_ASSERT_MSG(entries(dir) == 3, "the folder holds %d files, not 3 (columns, TSV, JSON): a temporary one left?",
                   entries(dir));
    int rc = shard_read_result(dir, NASTY, &cols, &back, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && back.points == rep.points && back.max_points == rep.max_points,
                   "read back rc %d (%s): %d/%d, wrote %d/%d", rc, err, back.points, back.max_points, rep.points,
                   rep.max_points);
    /* the gradebook row from the file is the row from the report itself */
    gradebook_init(&a, &rep);
    gradebook_init(&b, &rep);
    gradebook_put(&a, NASTY, &rep);
    gradebook_put(&b, NASTY, &back);
    for (int c = 0; c < a.ncols; c++)
        KIT_ASSERT_MSG(strcmp(a.rows[0][c], b.rows[0][c]) == 0, "column %s: [%s] from the report, [%s] read back",
                       a.header[c], a.rows[0][c], b.rows[0][c]);
    KIT_ASSERT_MSG(shard_read_result(dir, "nobody", &cols, &back, err, sizeof err) == 1, "a missing result is not 1");
    KIT_ASSERT_MSG(shard_write_result("/no/such/dir", "x", &rep) == -1, "writing into a missing folder worked");
    gradebook_free(&a);
    gradebook_free(&b);
    gradebook_free(&cols);
    remove_tree(dir);
    unhush();
}

/* Results of two gradings with different labs never share a folder. */
static void test_prepare_out_refuses_other_columns(void)
{
    hush();
    char dir[64], err[512];
    temp_dir(dir, sizeof dir, "cols");
    fill_report(&rep, "a", 3);
    KIT_ASSERT_MSG(shard_prepare_out(dir, &rep, err, sizeof err) == 0, "first: %s", err);
    KIT_ASSERT_MSG(shard_prepare_out(dir, &rep, err, sizeof err) == 0, "the same grading again: %s", err);
    rep.nlabs = 1;
    KIT_ASSERT_MSG(shard_prepare_out(dir, &rep, err, sizeof err) == -1 && strstr(err, "another grading"),
                   "a grading of other labs was let in: %s", err);
    remove_tree(dir);
    unhush();
}

/* Writes text as dir/student.tsv. */
static void write_tsv(const char *dir, const char *student, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s.tsv", dir, student);
    FILE *f = fopen(path, "w");
    KIT_ASSERT_MSG(f != NULL, "cannot write %s", path);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* Missing and corrupt results each get a row that says so; the gather's status says something is wrong. */
static void test_gather_missing_and_corrupt(void)
{
    hush();
    char subs[64], out[64], book[128], err[512];
    temp_dir(subs, sizeof subs, "subs");
    temp_dir(out, sizeof out, "out");
    snprintf(book, sizeof book, "%s/gradebook.csv", out);
    KIT_ASSERT_MSG(shard_gather(out, NULL, book) == 2, "a gather before any shard did not fail");
    fill_report(&rep, "x", 3);
    KIT_ASSERT_MSG(shard_prepare_out(out, &rep, err, sizeof err) == 0, "prepare: %s", err);
    const char *students[] = {"cut", "garbage", "good", "missing", "other", NASTY};
    for (int i = 0; i < 6; i++)
        make(subs, students[i], 0);
    fill_report(&rep, "good", 2);
    shard_write_result(out, "good", &rep);
    shard_write_result(out, NASTY, &rep);
    write_tsv(out, "cut", "01-x\tmerge\t6\t6\tpass\tok\n01-x\tstable\t4\t4\tpa");
    write_tsv(out, "garbage", "01-x\tmerge\tsix\t6\tpass\tok\n01-x\tstable\t4\t4\tpass\tok\n02-y\tco_rank\t5\t5\tpass\t\n");
    write_tsv(out, "other", "01-x\tmerge\t6\t6\tpass\tok\n01-x\tstable\t4\t4\tpass\tok\n");
    KIT_ASSERT_MSG(shard_gather(out, subs, book) == 1, "a gather with bad results did not exit 1");
    gradebook gb;
    KIT_ASSERT_MSG(gradebook_load(book, &gb, err, sizeof err) == 0 && gb.nrows == 6, "%d rows (%s)", gb.nrows, err);
    const char *want[][2] = {{"cut", "result:corrupt"},   {"garbage", "result:corrupt"},
                             {"missing", "result:missing"}, {"other", "result:corrupt"}};
    for (int i = 0; i < 4; i++) {
        int r = gradebook_find(&gb, want[i][0]);
        KIT_ASSERT_MSG(r >= 0 && strcmp(gb.rows[r][GB_FAILURES], want[i][1]) == 0 && gb.rows[r][GB_SCORE][0] == '\0',
                       "%s: failures [%s], score [%s]; expected %s and no score", want[i][0],
                       r >= 0 ? gb.rows[r][GB_FAILURES] : "(no row)", r >= 0 ? gb.rows[r][GB_SCORE] : "", want[i][1]);
    }
    int good = gradebook_find(&gb, "good"), nasty = gradebook_find(&gb, NASTY);
    KIT_ASSERT_MSG(good >= 0 && nasty >= 0 && strcmp(gb.rows[good][GB_SCORE], "10") == 0 &&
                       strcmp(gb.rows[nasty][GB_FAILURES], "02-y/co_rank:timeout") == 0,
                   "the good rows: score [%s], failures [%s]", good >= 0 ? gb.rows[good][GB_SCORE] : "-",
                   nasty >= 0 ? gb.rows[nasty][GB_FAILURES] : "-");
    gradebook_free(&gb);
    /* without the submissions folder, the students are those with a result file: "missing" has none */
    KIT_ASSERT_MSG(shard_gather(out, NULL, book) == 1 && gradebook_load(book, &gb, err, sizeof err) == 0 &&
                       gb.nrows == 5 && gradebook_find(&gb, "missing") == -1,
                   "a gather of the folder alone has %d rows", gb.nrows);
    gradebook_free(&gb);
    remove_tree(subs);
    remove_tree(out);
    unhush();
}

/* shard_run's stand-in for the grader: `ctx` points at the points to give (see fill_report). */
static void fake_grade(void *ctx, const char *folder, const char *student, grade_report *r)
{
    KIT_ASSERT_MSG(folder[0] == '/' && strstr(folder, student), "grade() got folder %s for %s", folder, student);
    fill_report(r, student, *(int *)ctx);
}

/* Rerunning a shard replaces its own students' results and leaves the others' alone. */
static void test_run_and_rerun(void)
{
    hush();
    char subs[64], out[128], book[160], path[256];
    temp_dir(subs, sizeof subs, "run");
    snprintf(out, sizeof out, "/tmp/kit-shard-run-out-%d", (int)getpid());
    snprintf(book, sizeof book, "%s.csv", out);
    const char *students[] = {"ann", "bob", "cy", "dee", "eve", NASTY};
    for (int i = 0; i < 6; i++)
        make(subs, students[i], 0);
    int points = 3;
    fill_report(&rep, "labs", 0);
    for (int k = 0; k < 2; k++)
        KIT_ASSERT_MSG(shard_run(subs, (shard_spec){k, 2}, out, &rep, fake_grade, &points) == 0, "shard %d/2", k);
    KIT_ASSERT_MSG(shard_gather(out, subs, book) == 0, "the gather of both shards is not clean");
    points = 1;
    KIT_ASSERT_MSG(shard_run(subs, (shard_spec){1, 2}, out, &rep, fake_grade, &points) == 0, "rerun of shard 1/2");
    gradebook gb;
    char err[256];
    KIT_ASSERT_MSG(shard_gather(out, subs, book) == 0 && gradebook_load(book, &gb, err, sizeof err) == 0 &&
                       gb.nrows == 6, "the gather after the rerun: %s", err);
    for (int i = 0; i < 6 && gb.nrows == 6; i++) {
        int r = gradebook_find(&gb, students[i]);
        const char *want = shard_of(students[i], 2) == 1 ? "6" : "15";
        KIT_ASSERT_MSG(r >= 0 && strcmp(gb.rows[r][GB_SCORE], want) == 0, "%s (shard %d): score %s, expected %s",
                       students[i], shard_of(students[i], 2), r >= 0 ? gb.rows[r][GB_SCORE] : "(no row)", want);
    }
    gradebook_free(&gb);
    /* an empty or missing submissions folder stops a shard before it writes anything */
    KIT_ASSERT_MSG(shard_run("/no/such/folder", (shard_spec){0, 1}, "/tmp/kit-shard-never", &rep, fake_grade,
                             &points) == 2,
                   "a missing folder did not stop the shard");
    snprintf(path, sizeof path, "/tmp/kit-shard-never");
    struct stat st;
    KIT_ASSERT_MSG(stat(path, &st) != 0, "a shard of a missing folder made its results folder");
    remove_tree(subs);
    remove_tree(out);
    remove(book);
    unhush();
}

/* What log_grade checks (the shard's log file, the results folder, the first line the log must show), and what it saw. */
typedef struct {
    const char *log, *out, *header;
    int calls;
    char why[1024]; /* the first thing that was wrong, or "" */
} log_check;

/* shard_run's stand-in for the grader that looks at the log and the results folder while the shard runs. */
static void log_grade(void *ctx, const char *folder, const char *student, grade_report *r)
{
    log_check *c = ctx;
    char text[512] = "", path[512];
    FILE *f = fopen(c->log, "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[n] = '\0';
    if (f)
        fclose(f);
    snprintf(path, sizeof path, "%s/%s.tsv", c->out, student);
    struct stat st;
    if (!c->why[0] && strstr(text, c->header) != text)
        snprintf(c->why, sizeof c->why, "while grading %s the log held [%.200s], expected it to start with [%s]",
                 student, text, c->header);
    if (!c->why[0] && stat(path, &st) == 0)
        snprintf(c->why, sizeof c->why, "while grading %s its old result %s was still there", student, path);
    c->calls++;
    (void)folder;
    fill_report(r, student, 2);
}

/* A shard's first line reaches its log before any student is graded, and by then the shard's old results are gone:
 * a log that shows it (what mk/test-slurm.sh waits for before cancelling a rerun) means no stale result is left.
 * The rerun runs in a child whose stdout is a file from the start, so fully buffered, as in a Slurm task. */
static void test_run_log_is_live(void)
{
    char subs[64], out[128], log[160], header[160];
    temp_dir(subs, sizeof subs, "live");
    snprintf(out, sizeof out, "/tmp/kit-shard-live-out-%d", (int)getpid());
    snprintf(log, sizeof log, "%s.log", out);
    const char *students[] = {"ann", "bob", "cy", "dee"};
    for (int i = 0; i < 4; i++)
        make(subs, students[i], 0);
    int points = 3;
    fill_report(&rep, "labs", 0);
    hush();
    KIT_ASSERT_MSG(shard_run(subs, (shard_spec){0, 1}, out, &rep, fake_grade, &points) == 0, "the first run");
    snprintf(header, sizeof header, "Shard 0/1: 4 of the 4 students of %s", subs);
    log_check c = {.log = log, .out = out, .header = header}; /* the child's copy finds its verdict, sent back through a pipe */
    int fds[2], status = -1;
    KIT_ASSERT_MSG(pipe(fds) == 0, "pipe failed");
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        int rc = freopen(log, "w", stdout) ? shard_run(subs, (shard_spec){0, 1}, out, &rep, log_grade, &c) : -1;
        if (!c.why[0] && (rc != 0 || c.calls != 4))
            snprintf(c.why, sizeof c.why, "the rerun returned %d after %d gradings, expected 0 after 4", rc, c.calls);
        ssize_t w = write(fds[1], c.why, strlen(c.why));
        _exit(w < 0 ? 2 : 0);
    }
    close(fds[1]);
    char why[1024] = "";
    ssize_t n = pid > 0 ? read(fds[0], why, sizeof why - 1) : -1;
    why[n > 0 ? n : 0] = '\0';
    close(fds[0]);
    if (pid > 0)
        waitpid(pid, &status, 0);
    unhush();
    KIT_ASSERT_MSG(pid > 0 && status == 0 && !why[0], "%s", why[0] ? why : "the child shard did not finish");
    remove_tree(subs);
    remove_tree(out);
    remove(log);
}

static void register_tests(void)
{
    CU_pSuite s = kit_test_suite("shard specs");
    kit_test_add(s, "good K/N", test_parse_good);
    kit_test_add(s, "bad K/N, one line each", test_parse_bad);
    s = kit_test_suite("split");
    kit_test_add(s, "disjoint, covering, stable", test_slices_disjoint_and_covering);
    kit_test_add(s, "student folders listed", test_list_students);
    s = kit_test_suite("result files");
    kit_test_add(s, "atomic write, read back", test_atomic_write_and_read_back);
    kit_test_add(s, "one grading per folder", test_prepare_out_refuses_other_columns);
    kit_test_add(s, "gather: missing and corrupt rows", test_gather_missing_and_corrupt);
    kit_test_add(s, "run, rerun one shard", test_run_and_rerun);
    kit_test_add(s, "run: the log is live, old results gone first", test_run_log_is_live);
}

int main(void)
{
    return kit_test_main("shard tests", register_tests);
}
