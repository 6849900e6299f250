/*
 * The grader's self-test: grades the solutions (must score 100%), the
 * skeletons (must be "not attempted" everywhere) and every broken submission
 * under grader/tests/submissions (must get the verdicts in its expected.tsv).
 * Run from the kit's root; make test sets KIT_GRADER, KIT_NVCC, KIT_NVCC_FLAGS and KIT_BUILD.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kit_test.h"

#define MAX_ROWS 64

typedef struct row {
    char lab[64], task[48], verdict[32], detail[400];
    int points, max;
} row;

static const char *env_or(const char *name, const char *fallback)
{
    const char *v = getenv(name);
    return v && *v ? v : fallback;
}

/* The build folder: the kit's library and make check's work folder. */
#define KIT_BUILD_DIR env_or("KIT_BUILD", "build")

/* Where this run's files go: the build folder, or a folder of its own for a part run beside others (main). */
static char out_dir_buf[256];
static const char *out_dir(void)
{
    return out_dir_buf[0] ? out_dir_buf : KIT_BUILD_DIR;
}

/*
 * The self-test's course secret: fixed bytes, so that the hidden tests it grades are drawn the
 * same on every machine (a regrade of the same files draws the same tests). Returns its path.
 */
static const char *selftest_secret(void)
{
    static char path[600];
    if (!path[0]) {
        unsigned char key[32];
        for (int i = 0; i < 32; i++)
            key[i] = (unsigned char)(0x5e + 7 * i);
        snprintf(path, sizeof path, "%s/selftest.secret", out_dir());
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int ok = fd >= 0 && fchmod(fd, 0600) == 0 && write(fd, key, sizeof key) == (ssize_t)sizeof key;
        if (fd >= 0)
            close(fd);
        KIT_ASSERT_MSG(ok, "cannot write the self-test's secret %s", path);
    }
    return path;
}

/* Starts argv (argv[0] a path) in a child whose stdout and stderr go to the file log; returns its pid, or -1. */
static pid_t spawn_logged(char **argv, const char *log)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen(log, "w", stdout) || !freopen(log, "a", stderr))
            _exit(126);
        execv(argv[0], argv);
        _exit(127);
    }
    return pid;
}

/*
 * Grades a submission with a 3 s test timeout and any extra grader arguments; returns the grader's
 * exit status (or -1) and fills rows from its TSV.
 */
static int grade_with(const char *nvcc, const char *mode, const char *submission, int expect_full, char **extra,
                      int nextra, row *rows, int *nrows)
{
    char tsv[512], log[512];
    const char *build = out_dir();
    snprintf(tsv, sizeof tsv, "%s/selftest.tsv", build);
    snprintf(log, sizeof log, "%s/selftest-grader.log", build);
    char *argv[40] = {(char *)env_or("KIT_GRADER", "build/grader/grader"), "--kit", ".", "--submission",
                      (char *)submission, "--tsv", tsv, "--timeout", "3", "--nvcc", (char *)nvcc,
                      "--nvcc-flags", (char *)env_or("KIT_NVCC_FLAGS", ""), "--mode", (char *)mode,
                      "--secret", (char *)selftest_secret()};
    int argc = 17;
    for (int i = 0; i < nextra && argc < 36; i++)
        argv[argc++] = extra[i];
    if (expect_full) {
        argv[argc++] = "--expect";
        argv[argc++] = "100";
    }
    argv[argc] = NULL;
    remove(tsv);
    pid_t pid = spawn_logged(argv, log);
    int status = -1;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return -1;
    *nrows = 0;
    FILE *f = fopen(tsv, "r");
    char line[1024];
    while (f && *nrows < MAX_ROWS && fgets(line, sizeof line, f)) {
        row *r = &rows[*nrows];
        line[strcspn(line, "\n")] = '\0';
        if (sscanf(line, "%63[^\t]\t%47[^\t]\t%d\t%d\t%31[^\t]\t%399[^\n]", r->lab, r->task, &r->points, &r->max,
                   r->verdict, r->detail) == 6)
            (*nrows)++;
    }
    if (f)
        fclose(f);
    return WEXITSTATUS(status);
}

static int run_grader(char **argv);
static char *slurp(const char *path);

/* The grader's mode for the self-test's gradings: KIT_SELFTEST_MODE (cpu, gpu or auto, the default). */
#define SELFTEST_MODE env_or("KIT_SELFTEST_MODE", "auto")

static int grade(const char *submission, int expect_full, row *rows, int *nrows)
{
    return grade_with(env_or("KIT_NVCC", "nvcc"), SELFTEST_MODE, submission, expect_full, NULL, 0, rows, nrows);
}

/* grade() with extra grader arguments. */
static int grade_extra(const char *submission, char **extra, int nextra, row *rows, int *nrows)
{
    return grade_with(env_or("KIT_NVCC", "nvcc"), SELFTEST_MODE, submission, 0, extra, nextra, rows, nrows);
}

static int gpu_mode(void);

/*
 * The solutions score 100%. Without a GPU, labs 1 and 2 alone: make test's golden-count test
 * (mk/lab-counts.sh test) grades labs 3-9 in CPU mode with --expect 100, and they are not graded twice.
 */
static void test_solutions_full_marks(void)
{
    row rows[MAX_ROWS];
    char *first_labs[] = {"--lab", "01", "--lab", "02"};
    int n = 0, status = grade_with(env_or("KIT_NVCC", "nvcc"), SELFTEST_MODE, "solutions", 1, first_labs, gpu_mode() ? 0 : 4,
                                   rows, &n);
    KIT_ASSERT_MSG(status == 0, "grading solutions/ with --expect 100 exited %d (see build/selftest-grader.log)",
                   status);
    KIT_ASSERT_MSG(n >= 4, "only %d task rows for solutions/", n);
    for (int i = 0; i < n; i++)
        KIT_ASSERT_MSG(strcmp(rows[i].verdict, "pass") == 0 && rows[i].points == rows[i].max,
                       "solution %s/%s: %s (%d/%d): %s", rows[i].lab, rows[i].task, rows[i].verdict, rows[i].points,
                       rows[i].max, rows[i].detail);
}

static void test_skeletons_not_attempted(void)
{
    row rows[MAX_ROWS];
    int n = 0, status = grade("labs", 0, rows, &n);
    KIT_ASSERT_MSG(status == 0, "grading the skeletons exited %d", status);
    KIT_ASSERT_MSG(n >= 4, "only %d task rows for labs/", n);
    for (int i = 0; i < n; i++)
        KIT_ASSERT_MSG(strcmp(rows[i].verdict, "not-attempted") == 0 && rows[i].points == 0 &&
                           strstr(rows[i].detail, "not implemented: ") != NULL,
                       "skeleton %s/%s: %s (%d points): %s", rows[i].lab, rows[i].task, rows[i].verdict,
                       rows[i].points, rows[i].detail);
}

/* Is `got` one of the '|'-separated verdicts in `allowed` ("crash|timeout": a GPU may hang where the emulation fails)? */
static int verdict_allowed(const char *allowed, const char *got)
{
    size_t len = strlen(got);
    for (const char *p = allowed; p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL)
        if (strncmp(p, got, len) == 0 && (p[len] == '\0' || p[len] == '|'))
            return 1;
    return 0;
}

/* Does the self-test grade on the GPU? With KIT_SELFTEST_MODE=auto (the default), the grader picks
   the GPU when the NVIDIA driver lists one. */
static int gpu_mode(void)
{
    if (strcmp(SELFTEST_MODE, "auto") != 0)
        return strcmp(SELFTEST_MODE, "gpu") == 0;
    DIR *d = opendir("/proc/driver/nvidia/gpus");
    int found = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        found |= e->d_name[0] != '.';
    if (d)
        closedir(d);
    return found;
}

/* Does a report field hold a byte that could drive a terminal (a control byte or DEL)? Returns its offset or -1. */
static int control_byte_at(const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (*p < 0x20 || *p == 0x7F)
            return (int)(p - (const unsigned char *)text);
    return -1;
}

/*
 * Builds a fixture in build/selftest-cases/NAME: copies the solution files its patch.diff (a unified
 * diff against solutions/) touches, applies the patch exactly (no fuzz), then runs its setup.sh there
 * with KIT_ROOT the kit. A fixture has a patch, a script, or both. Returns 0 with the folder in out,
 * or -1 with why: one line that names the fixture and what to do.
 */
static int fixture_build(const char *fixture, const char *name, char *out, size_t len, char *why, size_t why_len)
{
    char patch[700], setup[700], cmd[8192];
    snprintf(patch, sizeof patch, "%s/patch.diff", fixture);
    snprintf(setup, sizeof setup, "%s/setup.sh", fixture);
    int has_patch = access(patch, R_OK) == 0, has_setup = access(setup, R_OK) == 0;
    snprintf(out, len, "%s/selftest-cases/%s", out_dir(), name);
    if (!has_patch && !has_setup) {
        snprintf(why, why_len, "%s: the fixture has neither patch.diff nor setup.sh (%s)", name, fixture);
        return -1;
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", out, out);
    if (system(cmd) != 0) {
        snprintf(why, why_len, "%s: cannot make %s", name, out);
        return -1;
    }
    snprintf(cmd, sizeof cmd,
             "set -e; for f in $(sed -n 's|^+++ b/\\([^\t]*\\).*|\\1|p' '%s'); do "
             "  mkdir -p \"$(dirname '%s'/$f)\"; cp solutions/$f '%s'/$f; done; "
             "patch -s -p1 -F0 --no-backup-if-mismatch -d '%s' < '%s' >/dev/null 2>&1",
             patch, out, out, out, patch);
    if (has_patch && system(cmd) != 0) {
        snprintf(why, why_len, "%s: %s no longer applies to solutions/ (what it could not apply is in %s/*.rej); "
                 "regenerate it as grader/tests/submissions/README.md says", name, patch, out);
        return -1;
    }
    snprintf(cmd, sizeof cmd, "cd '%s' && KIT_ROOT=\"$OLDPWD\" sh \"$OLDPWD/%s\" >/dev/null", out, setup);
    if (has_setup && system(cmd) != 0) {
        snprintf(why, why_len, "%s: %s failed in %s", name, setup, out);
        return -1;
    }
    return 0;
}

/* fixture_build() as a test step: returns the folder to grade, or NULL with a failed assertion naming the fixture. */
static const char *materialize(const char *fixture, const char *name, char *out, size_t len)
{
    char why[2048];
    int rc = fixture_build(fixture, name, out, len, why, sizeof why);
    KIT_ASSERT_MSG(rc == 0, "%s", why);
    return rc == 0 ? out : NULL;
}

/* The extra grader arguments a fixture asks for in its `args` file (one line, space-separated), or none. */
static int fixture_args(const char *fixture, char *buf, size_t len, char **argv, int max)
{
    char path[700];
    snprintf(path, sizeof path, "%s/args", fixture);
    FILE *f = fopen(path, "r");
    int n = 0;
    buf[0] = '\0';
    if (f && fgets(buf, (int)len, f))
        for (char *save, *w = strtok_r(buf, " \t\n", &save); w && n < max; w = strtok_r(NULL, " \t\n", &save))
            argv[n++] = w;
    if (f)
        fclose(f);
    return n;
}

/*
 * KIT_SELFTEST_VERDICTS=FILE: every verdict the broken submissions got is appended to FILE, a line
 * each (fixture, lab, task, points, verdict, detail), for the two-mode table (mk/verdict-table.sh).
 */
static void record_verdicts(const char *name, const row *rows, int n)
{
    const char *path = getenv("KIT_SELFTEST_VERDICTS");
    FILE *f = path && *path ? fopen(path, "a") : NULL;
    KIT_ASSERT_MSG(!path || !*path || f != NULL, "cannot append to KIT_SELFTEST_VERDICTS=%s", path);
    for (int i = 0; f && i < n; i++)
        fprintf(f, "%s\t%s\t%s\t%d\t%s\t%s\n", name, rows[i].lab, rows[i].task, rows[i].points, rows[i].verdict,
                rows[i].detail);
    if (f)
        fclose(f);
}

/*
 * Checks one broken submission against its expected.tsv; returns the number of expectations checked.
 * A line is `lab task verdict [text]`: the task's verdict, and text its detail must contain, or
 * with a leading '!' must not contain; `cpu` or `gpu` before it keeps it to that mode; or
 * `absent PATH`: no such file may exist after grading.
 */
static int check_case(const char *fixture, const char *name)
{
    char path[600], line[1024], dir[700], extra[512], *args[8];
    snprintf(path, sizeof path, "%s/expected.tsv", fixture);
    FILE *f = fopen(path, "r");
    KIT_ASSERT_MSG(f != NULL, "%s is missing", path);
    if (!f || !materialize(fixture, name, dir, sizeof dir)) {
        if (f)
            fclose(f);
        return 0;
    }
    row rows[MAX_ROWS];
    int nargs = fixture_args(fixture, extra, sizeof extra, args, 8);
    int n = 0, status = grade_extra(dir, args, nargs, rows, &n), checked = 0;
    KIT_ASSERT_MSG(status == 0, "grading %s exited %d", dir, status);
    record_verdicts(name, rows, n);
    for (int i = 0; i < n; i++)
        KIT_ASSERT_MSG(control_byte_at(rows[i].detail) < 0, "%s: %s/%s detail has control byte 0x%02x at %d: %s", name,
                       rows[i].lab, rows[i].task, (unsigned char)rows[i].detail[control_byte_at(rows[i].detail)],
                       control_byte_at(rows[i].detail), rows[i].detail);
    while (fgets(line, sizeof line, f)) {
        char lab[64], task[48], verdict[32], text[400] = "";
        line[strcspn(line, "\n")] = '\0';
        if (sscanf(line, "absent\t%399[^\n]", text) == 1) {
            KIT_ASSERT_MSG(access(text, F_OK) != 0, "%s: %s exists after grading", name, text);
            checked++;
            continue;
        }
        const char *fields = line;
        if (strncmp(line, "cpu\t", 4) == 0 || strncmp(line, "gpu\t", 4) == 0) { /* a line for one mode only */
            if ((line[0] == 'g') != gpu_mode())
                continue;
            fields = line + 4;
        }
        if (sscanf(fields, "%63[^\t]\t%47[^\t]\t%31[^\t]\t%399[^\n]", lab, task, verdict, text) < 3)
            continue;
        const row *r = NULL;
        for (int i = 0; i < n; i++)
            if (strcmp(rows[i].lab, lab) == 0 && strcmp(rows[i].task, task) == 0)
                r = &rows[i];
        KIT_ASSERT_MSG(r != NULL, "%s: the grader gave no verdict for %s/%s", name, lab, task);
        if (!r)
            continue;
        KIT_ASSERT_MSG(verdict_allowed(verdict, r->verdict), "%s: %s/%s is '%s', expected '%s' (%s)", name, lab, task,
                       r->verdict, verdict, r->detail);
        if (text[0] == '!')
            KIT_ASSERT_MSG(strstr(r->detail, text + 1) == NULL, "%s: %s/%s detail '%s' has '%s'", name, lab, task,
                           r->detail, text + 1);
        else
            KIT_ASSERT_MSG(strstr(r->detail, text) != NULL, "%s: %s/%s detail '%s' lacks '%s'", name, lab, task,
                           r->detail, text);
        KIT_ASSERT_MSG((strcmp(r->verdict, "pass") == 0) == (r->points == r->max && r->max > 0),
                       "%s: %s/%s got %d/%d points for '%s'", name, lab, task, r->points, r->max, r->verdict);
        checked++;
    }
    fclose(f);
    return checked;
}

/*
 * KIT_SELFTEST_SHARD=K/N runs the K-th of N slices of the broken submissions (by name, sorted)
 * and none of the other tests, so that slow GPU-mode runs can go in parallel. Returns 0 when no
 * slicing was asked for; *k and *n are then 0 and 1.
 */
static const char *slice_arg; /* main's "fixtures K/N" */
static int shard(int *k, int *n)
{
    *k = 0;
    *n = 1;
    const char *s = slice_arg ? slice_arg : getenv("KIT_SELFTEST_SHARD");
    return s && sscanf(s, "%d/%d", k, n) == 2 && *n > 0 && *k >= 0 && *k < *n;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

#define CORPUS "grader/tests/submissions"
#define MAX_FIXTURES 256

/* The corpus's fixture folders, sorted by name, as malloc'ed strings (the caller frees them); their count, or -1. */
static int fixture_names(char **names)
{
    DIR *d = opendir(CORPUS);
    KIT_ASSERT_MSG(d != NULL, "cannot open %s", CORPUS);
    if (!d)
        return -1;
    int count = 0;
    for (struct dirent *e; (e = readdir(d)) && count < MAX_FIXTURES;)
        if (e->d_name[0] != '.' && e->d_type == DT_DIR)
            names[count++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)count, sizeof names[0], cmp_name);
    return count;
}

static void test_broken_submissions(void)
{
    char *names[MAX_FIXTURES];
    int count = fixture_names(names), cases = 0, checked = 0, k, n;
    int sliced = shard(&k, &n);
    for (int i = 0; i < count; i++) {
        char dir[512];
        snprintf(dir, sizeof dir, "%s/%s", CORPUS, names[i]);
        if (i % n == k) {
            checked += check_case(dir, names[i]);
            cases++;
        }
        free(names[i]);
    }
    if (!sliced)
        KIT_ASSERT_MSG(cases >= 50 && checked >= 90, "only %d broken submissions with %d expectations", cases, checked);
}

/*
 * fixture_build() on three made-up fixtures in build/selftest-fixtures: a patch that applies (the
 * control), the same patch once its context no longer matches solutions/, and a folder with neither
 * patch.diff nor setup.sh. The last two must fail with a line that names the fixture.
 */
static void test_fixture_failures(void)
{
    char root[512], cmd[4096], dir[700], why[2048], good[700], stale[700], none[700], built[800];
    const char *file = "01-sequential-merge/merge_sequential.cuh";
    snprintf(root, sizeof root, "%s/selftest-fixtures", out_dir());
    snprintf(cmd, sizeof cmd,
             "set -e; r='%s'; rm -rf \"$r\"; mkdir -p \"$r/edit/01-sequential-merge\" \"$r/good-patch\" "
             "\"$r/stale-patch\" \"$r/no-patch\"; { cat solutions/%s; echo '/* fixture check */'; } > \"$r/edit/%s\"; "
             "{ echo '# a patch that applies'; diff -u --label a/%s --label b/%s solutions/%s \"$r/edit/%s\" || true; } "
             "> \"$r/good-patch/patch.diff\"; "
             "sed 's|^ #endif$| #endif /* not in the solution */|' \"$r/good-patch/patch.diff\" > \"$r/stale-patch/patch.diff\"; "
             "! cmp -s \"$r/good-patch/patch.diff\" \"$r/stale-patch/patch.diff\"",
             root, file, file, file, file, file, file);
    KIT_ASSERT_MSG(system(cmd) == 0, "could not make the fixtures in %s (does %s still end in #endif?)", root, file);
    snprintf(good, sizeof good, "%s/good-patch", root);
    snprintf(stale, sizeof stale, "%s/stale-patch", root);
    snprintf(none, sizeof none, "%s/no-patch", root);

    int rc = fixture_build(good, "selftest-good-patch", dir, sizeof dir, why, sizeof why);
    KIT_ASSERT_MSG(rc == 0, "the control patch did not apply: %s", why);
    snprintf(built, sizeof built, "%s/%s", dir, file);
    char *text = slurp(built);
    KIT_ASSERT_MSG(text && strstr(text, "/* fixture check */"), "the control patch applied, but %s lacks its line", built);
    free(text);

    rc = fixture_build(stale, "selftest-stale-patch", dir, sizeof dir, why, sizeof why);
    KIT_ASSERT_MSG(rc == -1 && strncmp(why, "selftest-stale-patch: ", 22) == 0 && strstr(why, "no longer applies"),
                   "a patch that no longer applies gave %d: %s", rc, rc ? why : "(built)");
    rc = fixture_build(none, "selftest-no-patch", dir, sizeof dir, why, sizeof why);
    KIT_ASSERT_MSG(rc == -1 && strncmp(why, "selftest-no-patch: ", 19) == 0 &&
                       strstr(why, "neither patch.diff nor setup.sh"),
                   "a fixture with neither patch.diff nor setup.sh gave %d: %s", rc, rc ? why : "(built)");
}

/* The first line of a fixture's patch.diff (else setup.sh) without its "# ", in buf; empty if it has none. */
static void fixture_purpose(const char *name, char *buf, size_t len)
{
    char path[600], line[1024] = "";
    snprintf(path, sizeof path, "%s/%s/patch.diff", CORPUS, name);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(path, sizeof path, "%s/%s/setup.sh", CORPUS, name);
        f = fopen(path, "r");
    }
    if (!f || !fgets(line, sizeof line, f))
        line[0] = '\0';
    if (f)
        fclose(f);
    line[strcspn(line, "\n")] = '\0';
    snprintf(buf, len, "%s", strncmp(line, "# ", 2) == 0 ? line + 2 : "");
}

/*
 * The corpus README's tables (rows "| folder | purpose | verdicts |") list each fixture folder
 * exactly once, with the purpose on the first line of its patch.diff or setup.sh, and no other.
 */
static void test_readme_lists_fixtures(void)
{
    char *names[MAX_FIXTURES];
    int listed[MAX_FIXTURES] = {0}, count = fixture_names(names);
    char *readme = slurp(CORPUS "/README.md");
    KIT_ASSERT_MSG(readme != NULL, "cannot read %s/README.md", CORPUS);
    for (char *line = readme, *next; readme && *line; line = next) {
        next = line + strcspn(line, "\n");
        if (*next)
            *next++ = '\0';
        char *folder = line + 2, *purpose = strstr(folder, " | "), *rest = purpose ? strstr(purpose + 3, " | ") : NULL;
        if (strncmp(line, "| ", 2) != 0 || !rest || strncmp(folder, "folder | ", 9) == 0 || folder[0] == '-')
            continue; /* not a table row, or a header or its rule */
        *purpose = *rest = '\0';
        purpose += 3;
        int i = 0;
        while (i < count && strcmp(names[i], folder) != 0)
            i++;
        KIT_ASSERT_MSG(i < count, "%s/README.md: a row names %s, which is no folder of the corpus", CORPUS, folder);
        if (i == count)
            continue;
        char want[1024];
        fixture_purpose(folder, want, sizeof want);
        KIT_ASSERT_MSG(want[0] != '\0', "%s: its patch.diff (or setup.sh) has no first line \"# purpose\"", folder);
        KIT_ASSERT_MSG(strcmp(purpose, want) == 0, "%s/README.md: %s's purpose is '%s', its first line says '%s'",
                       CORPUS, folder, purpose, want);
        listed[i]++;
    }
    for (int i = 0; i < count; i++) {
        KIT_ASSERT_MSG(listed[i] == 1, "%s/README.md has %d rows for %s, expected one", CORPUS, listed[i], names[i]);
        free(names[i]);
    }
    free(readme);
}

static void test_bad_invocations(void)
{
    row rows[MAX_ROWS];
    int n;
    int status = grade("/no/such/folder", 0, rows, &n);
    KIT_ASSERT_MSG(status == 2, "a missing submission folder exited %d, expected 2", status);
    /* As root the runners run as nobody. Where each run sees a view, its folders are bound into it whatever
       the folders above them; elsewhere nobody must pass through them, and a closed one is refused up front. */
    char closed[512], work[600];
    snprintf(closed, sizeof closed, "%s/selftest-closed", out_dir());
    snprintf(work, sizeof work, "%s/work", closed);
    mkdir(closed, 0700);
    chmod(closed, 0700);
    char *argv[] = {(char *)env_or("KIT_GRADER", "build/grader/grader"), "--kit", ".", "--lab", "01", "--mode", "cpu",
                    "--work", work, NULL};
    status = run_grader(argv);
    char logpath[512];
    snprintf(logpath, sizeof logpath, "%s/selftest-grader.log", out_dir());
    char *log = slurp(logpath);
    int views = log && strstr(log, "each seeing only the files assembled for it"); /* the sandbox's first line */
    if (geteuid() == 0 && views)
        KIT_ASSERT_MSG(status == 0, "as root with views, a work folder under a closed one exited %d and said:\n%s",
                       status, log ? log : "");
    else if (geteuid() == 0)
        KIT_ASSERT_MSG(status == 2 && log && strstr(log, "cannot use") && strstr(log, closed),
                       "as root, a work folder nobody cannot reach exited %d and said:\n%s", status, log ? log : "");
    else
        KIT_ASSERT_MSG(status == 0, "as a user, a work folder of one's own exited %d, expected 0", status);
    free(log);
}

/* --nvcc given as a bare name is looked up in PATH (it once was exec'ed as a path and failed as a "compile error"). */
static void test_nvcc_by_name(void)
{
    row rows[MAX_ROWS];
    char dir[700];
    if (!materialize(CORPUS "/compile-error", "compile-error", dir, sizeof dir))
        return;
    int n = 0, status = grade_with("nvcc", "gpu", dir, 0, NULL, 0, rows, &n);
    KIT_ASSERT_MSG(status == 0 && n >= 2, "grading with --nvcc nvcc exited %d with %d rows", status, n);
    for (int i = 0; i < n; i++)
        if (strcmp(rows[i].lab, "02-co-rank") == 0)
            KIT_ASSERT_MSG(strstr(rows[i].detail, "could not start") == NULL && strstr(rows[i].detail, "error:"),
                           "with --nvcc nvcc the compiler did not run: %s", rows[i].detail);
    row unused[MAX_ROWS];
    status = grade_with("no-such-compiler", "gpu", "solutions", 0, NULL, 0, unused, &n);
    KIT_ASSERT_MSG(status == 2, "an unknown --nvcc exited %d, expected 2", status);
}

/* Runs the grader with argv (NULL-terminated after argv[0]), output to the self-test log; returns its exit status or -1. */
static int run_grader(char **argv)
{
    char log[512];
    snprintf(log, sizeof log, "%s/selftest-grader.log", out_dir());
    pid_t pid = spawn_logged(argv, log);
    int status = -1;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

/* Reads a whole (small) file into a malloc'ed string, or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 20);
    size_t got = fread(buf, 1, (1 << 20) - 1, f);
    buf[got] = '\0';
    fclose(f);
    return buf;
}

/* The grader's --json, --gradescope and --junit files, on a real submission with a hidden-test failure. */
static void test_report_files(void)
{
    char json[512], gs[512], junit[512], dir[700];
    const char *build = out_dir();
    if (!materialize(CORPUS "/unstable-merge", "unstable-merge", dir, sizeof dir))
        return;
    snprintf(json, sizeof json, "%s/selftest.json", build);
    snprintf(gs, sizeof gs, "%s/selftest-results.json", build);
    snprintf(junit, sizeof junit, "%s/selftest-junit.xml", build);
    remove(json), remove(gs), remove(junit);
    char *argv[] = {(char *)env_or("KIT_GRADER", "build/grader/grader"), "--kit", ".", "--submission", dir, "--lab",
                    "01", "--timeout", "3", "--mode", "cpu", "--json", json, "--gradescope", gs, "--junit", junit,
                    "--secret", (char *)selftest_secret(), "--every-test", NULL};
    int status = run_grader(argv);
    KIT_ASSERT_MSG(status == 0, "the grader exited %d", status);
    /* lab 1's tests: its public ones, and those its hidden spec's draw lines draw */
    char want[64];
    int tests = 0, count = 0, failures = -1, fewer = -1;
    FILE *f = fopen("labs/01-sequential-merge/grading.spec", "r");
    for (char line[1024]; f && fgets(line, sizeof line, f);)
        tests += strncmp(line, "test ", 5) == 0;
    if (f)
        fclose(f);
    f = fopen("grader/hidden/01-sequential-merge.spec", "r");
    for (char line[1024]; f && fgets(line, sizeof line, f);)
        tests += sscanf(line, "draw %*s %*s %d", &count) == 1 ? count : 0;
    if (f)
        fclose(f);
    snprintf(want, sizeof want, "tests=\"%d\" failures=\"", tests);
    char *j = slurp(json), *g = slurp(gs), *x = slurp(junit);
    KIT_ASSERT_MSG(j && strstr(j, "\"score\": 6,") && strstr(j, "\"visibility\": \"hidden\", \"verdict\": \"wrong\""),
                   "%s lacks the score or a hidden test's wrong verdict", json);
    KIT_ASSERT_MSG(g && strstr(g, "01-sequential-merge test stable/") &&
                       strstr(g, " (hidden)\", \"score\": 0, \"max_score\": 0, \"status\": \"failed\"") &&
                       strstr(g, "\"visibility\": \"after_due_date\"") && strstr(g, "\"score\": 6, \"max_score\": 6"),
                   "%s lacks a failed hidden test of task stable, after_due_date or the task's points", gs);
    if (x && strstr(x, want))
        failures = atoi(strstr(x, want) + strlen(want));
    /* the 3 public tests of task stable fail, and at least one drawn hidden test (each draws ties) */
    KIT_ASSERT_MSG(failures >= 4 && strstr(x, "<testcase classname=\"01-sequential-merge.stable\" name=\"dup-pairs\""),
                   "%s lacks the lab's %d tests with 4 or more failures (%d)", junit, tests, failures);
    free(j), free(g), free(x);
    /* Without --every-test a task stops at its first failure: the later tests are skipped, the points the same. */
    argv[19] = NULL;
    status = run_grader(argv);
    j = slurp(json), x = slurp(junit);
    if (x && strstr(x, want))
        fewer = atoi(strstr(x, want) + strlen(want));
    KIT_ASSERT_MSG(status == 0 && j && strstr(j, "\"score\": 6,") &&
                       strstr(j, "\"skipped\": true") && strstr(j, "not run: an earlier test of this task failed") &&
                       fewer >= 1 && fewer < failures,
                   "without --every-test: exit %d; %s lacks the score 6 or a skipped test, or %s has %d failures "
                   "(not fewer than %d)", status, json, junit, fewer, failures);
    free(j), free(x);
}

/* How many lines a file has (0 when missing). */
static int file_lines(const char *path)
{
    char *text = slurp(path);
    int n = 0;
    for (const char *p = text; p && *p; p++)
        n += *p == '\n';
    free(text);
    return n;
}

/* Is a process running whose command line contains `needle`? */
static int process_running(const char *needle)
{
    DIR *d = opendir("/proc");
    int found = 0;
    for (struct dirent *e; d && !found && (e = readdir(d));) {
        char path[300], cmd[4096];
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        FILE *f = fopen(path, "r");
        size_t got = f ? fread(cmd, 1, sizeof cmd - 1, f) : 0;
        if (f)
            fclose(f);
        for (size_t i = 0; i < got; i++)
            cmd[i] = cmd[i] ? cmd[i] : ' ';
        cmd[got] = '\0';
        found = strstr(cmd, needle) != NULL;
    }
    if (d)
        closedir(d);
    return found;
}

/*
 * The first run of test_batch_resume: starts the batch grader (argv, output in log), interrupts it
 * (SIGINT) once two students are in the gradebook gb and the third has run a moment, and checks that
 * it died of the signal, left a whole gradebook of two, and no runner under `runners`.
 */
static void batch_interrupt(char **argv, const char *gb, const char *runners, const char *log)
{
    pid_t pid = spawn_logged(argv, log);
    if (pid < 0) { /* kill(-1, ...) below would signal every process of this user */
        kit_test_fail(__FILE__, __LINE__, "could not start the batch grader: fork failed");
        return;
    }
    /* wait until two students are in (header + 2 lines), then let the third run a moment and interrupt;
       up to 5 minutes, for a loaded machine */
    for (int i = 0; i < 3000 && file_lines(gb) < 3; i++) {
        struct timespec nap = {0, 100 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    sleep(1);
    kill(pid, SIGINT);
    int status = 0;
    waitpid(pid, &status, 0);
    KIT_ASSERT_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT, "the interrupted grader ended with status %#x",
                   status);
    KIT_ASSERT_MSG(file_lines(gb) == 3, "after the interrupt the gradebook has %d lines, expected 3", file_lines(gb));
    /* the grader killed its runners before it died; on a loaded machine their exit may take a moment */
    for (int i = 0; i < 50 && process_running(runners); i++) {
        struct timespec nap = {0, 100 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    KIT_ASSERT_MSG(!process_running(runners), "a runner under %s outlived the interrupted grader by 5 s", runners);
    char *text = slurp(gb);
    KIT_ASSERT_MSG(text && strstr(text, "\"'=c\",10,10,100.0,,6,4\n") &&
                       strstr(text, "a-unstable,6,10,60.0,01-sequential-merge/stable:wrong,6,0\n"),
                   "gradebook after the interrupt:\n%s", text ? text : "(missing)");
    free(text);
}

/*
 * Batch mode: three students graded into a gradebook; an interrupt (SIGINT)
 * while the third runs leaves a whole gradebook of two and no runner behind;
 * the next run grades only the third; --force regrades all three.
 */
static void test_batch_resume(void)
{
    const char *build = out_dir();
    char dir[512], gb[512], work[512], reports[512], cmd[8192], log[512], unstable[700], loop[700];
    if (!materialize(CORPUS "/unstable-merge", "unstable-merge", unstable, sizeof unstable) ||
        !materialize(CORPUS "/infinite-loop", "infinite-loop", loop, sizeof loop))
        return;
    snprintf(dir, sizeof dir, "%s/selftest-batch", build);
    snprintf(gb, sizeof gb, "%s/selftest-gradebook.csv", build);
    snprintf(work, sizeof work, "%s/selftest-batch-work", build);
    snprintf(reports, sizeof reports, "%s/selftest-batch-reports", build);
    snprintf(log, sizeof log, "%s/selftest-grader.log", build);
    snprintf(cmd, sizeof cmd,
             "rm -rf '%s' '%s' '%s' && mkdir -p '%s/=c' '%s' '%s' && cp -r '%s' '%s/a-unstable' "
             "&& cp -r '%s' '%s/b-loop' && cp -r solutions/01-sequential-merge '%s/=c/'",
             dir, gb, reports, dir, work, reports, unstable, dir, loop, dir, dir);
    KIT_ASSERT_MSG(system(cmd) == 0, "could not set up %s", dir);
    /* runners are looked for by this folder's absolute path: another checkout's self-test may run at once */
    char runners[4096];
    if (!realpath(work, runners))
        snprintf(runners, sizeof runners, "%s", work);
    char *argv[] = {(char *)env_or("KIT_GRADER", "build/grader/grader"), "--kit", ".", "--batch", dir, "--gradebook",
                    gb, "--lab", "01", "--timeout", "2", "--mode", "cpu", "--work", work, "--reports", reports,
                    NULL, NULL};

    batch_interrupt(argv, gb, runners, log);

    int status = run_grader(argv);
    KIT_ASSERT_MSG(status == 0, "the resumed batch exited %d", status);
    char *out = slurp(log);
    KIT_ASSERT_MSG(out && strstr(out, "Graded 1 submissions, skipped 2 already in") &&
                       strstr(out, "Summary: 3 students, mean 53.3%") &&
                       strstr(out, "     1  01-sequential-merge/merge:timeout\n"),
                   "the resumed run printed:\n%s", out ? out : "(nothing)");
    free(out);
    char *text = slurp(gb);
    KIT_ASSERT_MSG(file_lines(gb) == 4 && strstr(text, "\nb-loop,0,10,0.0,01-sequential-merge/merge:timeout "
                                                       "01-sequential-merge/stable:timeout,0,0\n"),
                   "gradebook after resuming:\n%s", text);
    free(text);

    char report[600];
    snprintf(report, sizeof report, "%s/b-loop.json", reports);
    text = slurp(report);
    KIT_ASSERT_MSG(text && strstr(text, "\"submission\": \"b-loop\"") && strstr(text, "\"verdict\": \"timeout\""),
                   "%s lacks b-loop's timeout", report);
    free(text);

    argv[17] = "--force";
    status = run_grader(argv);
    out = slurp(log);
    KIT_ASSERT_MSG(status == 0 && out && strstr(out, "Graded 3 submissions, skipped 0"), "--force printed:\n%s",
                   out ? out : "(nothing)");
    free(out);
    KIT_ASSERT_MSG(file_lines(gb) == 4, "after --force the gradebook has %d lines", file_lines(gb));
    snprintf(cmd, sizeof cmd, "ls %s.tmp.* >/dev/null 2>&1", gb);
    KIT_ASSERT_MSG(system(cmd) != 0, "a temporary gradebook was left behind");

    /* bad use: --batch with --submission, or a folder that is not there */
    char *bad[] = {argv[0], "--batch", dir, "--submission", dir, NULL};
    KIT_ASSERT_MSG(run_grader(bad) == 2, "--batch with --submission did not exit 2");
    char *missing[] = {argv[0], "--kit", ".", "--batch", "/no/such/folder", "--mode", "cpu", NULL};
    KIT_ASSERT_MSG(run_grader(missing) == 2, "--batch on a missing folder did not exit 2");
}

/*
 * A submission that writes its input into the not-implemented note on long inputs: the public
 * tests' details quote the note, the hidden tests' never do (the runner saw the hidden input).
 */
static void test_hidden_not_quoted(void)
{
    char dir[700], json[512];
    const char *build = out_dir();
    if (!materialize("grader/tests/submissions/hidden-note-leak", "hidden-note-leak", dir, sizeof dir))
        return;
    snprintf(json, sizeof json, "%s/selftest-hidden.json", build);
    remove(json);
    char *argv[] = {(char *)env_or("KIT_GRADER", "build/grader/grader"), "--kit", ".", "--submission", dir, "--lab",
                    "01", "--timeout", "3", "--json", json, "--every-test", NULL};
    KIT_ASSERT_MSG(run_grader(argv) == 0, "grading %s exited non-zero", dir);
    char *text = slurp(json);
    KIT_ASSERT_MSG(text != NULL, "no %s", json);
    int hidden = 0, public_leaks = 0;
    for (char *p = text; p && (p = strstr(p, "{\"test\": ")); p++) {
        char *end = strchr(p, '}');
        if (!end)
            break;
        *end = '\0';
        int is_hidden = strstr(p, "\"visibility\": \"hidden\"") != NULL, leak = strstr(p, "LEAK") != NULL;
        KIT_ASSERT_MSG(!(is_hidden && leak), "a hidden test's detail quotes the runner: %s", p);
        hidden += is_hidden && strstr(p, "not attempted") != NULL;
        public_leaks += !is_hidden && leak;
        *end = '}';
    }
    KIT_ASSERT_MSG(hidden > 0 && public_leaks > 0, "expected failing hidden tests (%d) and public tests that quote "
                   "the note (%d)", hidden, public_leaks);
    free(text);
}

/*
 * Runs make check's script (mk/check.sh) on one lab of a submission folder, as make check runs it on
 * labs/, with more grader options `args` (KIT_CHECK_ARGS, "" for none); its output goes to `log` and
 * the command to `cmd`. Returns its exit status, or -1.
 */
static int run_check(const char *submission, const char *lab, const char *test, const char *args, const char *log,
                     char *cmd, size_t len)
{
    snprintf(cmd, len, "KIT_CHECK_SUBMISSION='%s' KIT_CHECK_ARGS='%s' bash mk/check.sh '%s' '%s' %s %s", submission,
             args, env_or("KIT_GRADER", "build/grader/grader"), KIT_BUILD_DIR, lab, test);
    char full[4800];
    snprintf(full, sizeof full, "%s >'%s' 2>&1", cmd, log);
    int status = system(full);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* How many times `needle` occurs in `text`. */
static int occurrences(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; p && (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/*
 * make check runs the public tests through the grader, so lab 2's bound is judged the same way in
 * both places: a co_rank that does not search (fixture corank-no-search) fails bound there too, by
 * the test's name, with the command that reruns it.
 */
static void test_check_fails_search_free_co_rank(void)
{
    char dir[700], log[512], cmd[2048];
    snprintf(log, sizeof log, "%s/selftest-check.log", out_dir());
    if (!materialize("grader/tests/submissions/corank-no-search", "corank-no-search", dir, sizeof dir))
        return;
    const char *tests[] = {"", "balanced"}; /* the whole lab, then the one test */
    for (int i = 0; i < 2; i++) {
        int status = run_check(dir, "02-co-rank", tests[i], "", log, cmd, sizeof cmd);
        char *out = slurp(log);
        KIT_ASSERT_MSG(status == 1 && out && strstr(out, "FAIL test balanced (task bound): wrong output") &&
                           strstr(out, "; rerun: make check LAB=02 TEST=balanced\n"),
                       "%s: expected exit 1 and bound's test balanced failing with its rerun command; got exit %d "
                       "and:\n%s", cmd, status, out ? out : "(no output)");
        free(out);
    }
}

/*
 * make check on a skeleton (labs/ holds them): one "not implemented" line per task, naming the
 * student's file, not one per test; and a hidden test can be neither run nor named.
 */
static void test_check_skeleton_and_hidden(void)
{
    char log[512], cmd[2048];
    snprintf(log, sizeof log, "%s/selftest-check.log", out_dir());
    int status = run_check("labs", "02-co-rank", "", "", log, cmd, sizeof cmd);
    char *out = slurp(log);
    int lines = occurrences(out, "\n"), builds = occurrences(out, "lab 02-co-rank, "),
        marked = occurrences(out, ": not implemented: lab 02:co_rank in labs/02-co-rank/co_rank.cuh; rerun: make "
                                  "check LAB=02\n");
    KIT_ASSERT_MSG(status == 1 && builds >= 1 && marked == 2 * builds && lines == 3 * builds,
                   "%s: expected exit 1 and, per build, 2 lines (tasks co_rank and bound) saying not implemented "
                   "in labs/02-co-rank/co_rank.cuh and a summary; got exit %d and:\n%s", cmd, status,
                   out ? out : "(no output)");
    free(out);

    /* a hidden test can be neither run nor named: the first drawn test of the hidden spec's first draw line */
    FILE *spec = fopen("grader/hidden/02-co-rank.spec", "r");
    char line[512], name[64], first[80] = "";
    int hidden = 0;
    while (spec && !first[0] && fgets(line, sizeof line, spec))
        if (sscanf(line, "draw %*s %63s", name) == 1)
            snprintf(first, sizeof first, "%s-1", name);
    KIT_ASSERT_MSG(first[0], "grader/hidden/02-co-rank.spec has no draw line");
    status = run_check("labs", "02-co-rank", first, "", log, cmd, sizeof cmd);
    out = slurp(log);
    char refused[160];
    snprintf(refused, sizeof refused, "no public test '%s'", first);
    KIT_ASSERT_MSG(status == 1 && out && strstr(out, refused),
                   "%s: expected exit 1 and \"%s\", got exit %d and:\n%s", cmd, refused, status, out ? out : "");
    if (spec)
        rewind(spec);
    while (spec && fgets(line, sizeof line, spec))
        if (sscanf(line, "draw %*s %63s", name) == 1 && strncmp(first, name, strlen(name)) != 0) {
            hidden++; /* another draw line's name: the output never has it */
            KIT_ASSERT_MSG(out && !strstr(out, name), "%s names the hidden draw %s:\n%s", cmd, name, out);
        }
    KIT_ASSERT_MSG(hidden > 0, "grader/hidden/02-co-rank.spec has no other draw line to look for");
    if (spec)
        fclose(spec);
    free(out);
}

/*
 * The student kit has no solutions/: there make check and make grade build a lab that uses earlier
 * labs with the student's own copies, the object check's baseline too (it once looked for the
 * solutions' copies and refused every such lab). A kit of copies of this one's common/, labs/,
 * grader/ and mk/ (copies, not links: a kit under /tmp is seen from inside the sandbox's own /tmp
 * only where it lies), without solutions/, checks lab 3 on the solutions' files of labs 1 to 3.
 */
static void test_student_kit_uses(void)
{
    const char *build = out_dir();
    char kit[512], sub[512], work[512], lib[600], log[512], cmd[8192];
    snprintf(kit, sizeof kit, "%s/selftest-student-kit", build);
    snprintf(sub, sizeof sub, "%s/selftest-student-labs", build);
    snprintf(work, sizeof work, "%s/selftest-student-work", build);
    snprintf(lib, sizeof lib, "%s/libkitcpu.a", kit); /* a copy inside the kit: the sandbox sees a kit under /tmp, not all of /tmp */
    snprintf(log, sizeof log, "%s/selftest-grader.log", build);
    snprintf(cmd, sizeof cmd,
             "set -e; rm -rf '%s' '%s' '%s'; mkdir -p '%s' '%s'; for d in common labs grader mk; do "
             "cp -r \"$PWD/$d\" '%s/'; done; cp -r solutions/01-sequential-merge solutions/02-co-rank "
             "solutions/03-basic-merge '%s/'; cp '%s/libkitcpu.a' '%s/'",
             kit, sub, work, kit, sub, kit, sub, KIT_BUILD_DIR, kit);
    KIT_ASSERT_MSG(system(cmd) == 0, "could not set up %s", kit);
    char *argv[] = {(char *)env_or("KIT_GRADER", "build/grader/grader"), "--kit", kit, "--submission", sub, "--lab",
                    "03", "--mode", "cpu", "--public", "--brief", "--libkit-cpu", lib, "--work", work, NULL};
    int status = run_grader(argv);
    char *out = slurp(log);
    KIT_ASSERT_MSG(status == 0 && out && strstr(out, "lab 03-basic-merge, CPU build: ") && !strstr(out, "FAIL"),
                   "%s --kit %s --submission %s --lab 03 --mode cpu --public --brief --libkit-cpu %s --work %s: "
                   "expected exit 0 and every public test passing, got exit %d and:\n%s", argv[0], kit, sub, lib,
                   work, status, out ? out : "(no output)");
    free(out);
}

/*
 * make check builds lab 9, whose public tests use 8 (type, E) pairs, as two runners compiled at once
 * (--build-jobs 2): runner 0 in bin/, runner 1 in bin-1/. The solution passes every test (a sandboxed
 * run once killed the other runner's build: sb_run() ends by killing every child of its grader). A
 * file that does not compile for E=16 alone, whose pairs runner 1 builds, fails the whole lab with
 * that error.
 */
static void test_check_two_runners(void)
{
    char dir[400], work[600], log[600], cmd[4096];
    snprintf(dir, sizeof dir, "%s/selftest-two-runners", out_dir());
    snprintf(work, sizeof work, "%s/work", dir);
    snprintf(log, sizeof log, "%s/check.log", dir);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s' && cp -r solutions/09-merge-sort '%s/'", dir, work, dir);
    KIT_ASSERT_MSG(system(cmd) == 0, "could not set up %s", dir);
    for (int broken = 0; broken < 2; broken++) {
        if (broken) { /* the first line of ms_serial_merge's body refuses E=16 */
            snprintf(cmd, sizeof cmd,
                     "sed -i '/^__device__ inline void ms_serial_merge/{n;s/^{$/{ static_assert(E != 16, "
                     "\"this test refuses E=16\");/}' '%s/09-merge-sort/merge_sort.cuh' && grep -q 'refuses E=16' "
                     "'%s/09-merge-sort/merge_sort.cuh'",
                     dir, dir);
            KIT_ASSERT_MSG(system(cmd) == 0, "could not edit the copy of lab 9's solution in %s", dir);
        }
        char args[700];
        snprintf(args, sizeof args, "--build-jobs 2 --keep --work %s", work);
        int status = run_check(dir, "09-merge-sort", "", args, log, cmd, sizeof cmd);
        char *out = slurp(log);
        if (!broken)
            KIT_ASSERT_MSG(status == 0 && out && strstr(out, "20 of 20 public tests pass"),
                           "%s: expected exit 0 and 20 of 20 public tests passing; got exit %d and:\n%s", cmd, status,
                           out ? out : "(no output)");
        else
            KIT_ASSERT_MSG(status == 1 && out && strstr(out, "compile error") && strstr(out, "this test refuses E=16") &&
                               strstr(out, "0 of 20 public tests pass"),
                           "%s: expected exit 1 and the lab failing with the E=16 compile error; got exit %d and:\n%s",
                           cmd, status, out ? out : "(no output)");
        free(out);
        if (!broken) { /* two runners were built and kept */
            snprintf(cmd, sizeof cmd, "test -x \"$(ls -d '%s'/09-merge-sort.*/bin-1)/runner\"", work);
            KIT_ASSERT_MSG(system(cmd) == 0, "%s: no runner in %s/09-merge-sort.*/bin-1", cmd, work);
        }
    }
}

/* Writes text to OUT_DIR/name, and its path into path. */
static void write_file(const char *name, const char *text, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", out_dir(), name);
    FILE *f = fopen(path, "w");
    KIT_ASSERT_MSG(f != NULL && fputs(text, f) >= 0 && fclose(f) == 0, "cannot write %s", path);
}

/* mk/verdict-table.sh (the two-mode table of the corpus): tasks with the same points agree, whatever
   their verdicts' words; a task whose points differ, or that one mode did not grade, fails it. */
static void test_verdict_table(void)
{
    char cpu[512], gpu[512], gpu2[512], log[512];
    write_file("vt-cpu.tsv", "f\t01\tmerge\t0\twrong\tw\nf\t01\tstable\t4\tpass\tp\n", cpu, sizeof cpu);
    write_file("vt-gpu.tsv", "f\t01\tmerge\t0\tcrash\tc\nf\t01\tstable\t4\tpass\tp\n", gpu, sizeof gpu);
    write_file("vt-gpu2.tsv", "f\t01\tmerge\t0\tcrash\tc\nf\t01\tstable\t0\twrong\tw\ng\t02\tbound\t4\tpass\tp\n", gpu2,
               sizeof gpu2);
    snprintf(log, sizeof log, "%s/selftest-grader.log", out_dir());
    char *agree[] = {"/bin/bash", "mk/verdict-table.sh", cpu, gpu, NULL}, *differ[] = {"/bin/bash", "mk/verdict-table.sh", cpu, gpu2, NULL};
    int rc = run_grader(agree);
    char *out = slurp(log);
    KIT_ASSERT_MSG(rc == 0 && out && strstr(out, "| f | 01 | merge | wrong (0) | crash (0) | yes |") &&
                       strstr(out, "2 of 2 tasks get the same points"),
                   "two modes that agree: exit %d, table:\n%s", rc, out ? out : "(none)");
    free(out);
    rc = run_grader(differ);
    out = slurp(log);
    KIT_ASSERT_MSG(rc == 1 && out && strstr(out, "| f | 01 | stable | pass (4) | wrong (0) | **no** |") &&
                       strstr(out, "| g | 02 | bound | not graded (-) | pass (4) | **no** |") &&
                       strstr(out, "1 of 3 tasks get the same points"),
                   "two modes that differ: exit %d, table:\n%s", rc, out ? out : "(none)");
    free(out);
}

static int rest_only; /* main's "rest": every test but the broken submissions */

static void register_tests(void)
{
    CU_pSuite s = kit_test_suite("grader self-test");
    int k, n;
    if (shard(&k, &n)) { /* a slice of the broken submissions, and nothing else */
        kit_test_add(s, "broken submissions get their verdicts (a slice)", test_broken_submissions);
        return;
    }
    kit_test_add(s, "solutions score 100%", test_solutions_full_marks);
    kit_test_add(s, "skeletons are not attempted", test_skeletons_not_attempted);
    if (!rest_only)
        kit_test_add(s, "broken submissions get their verdicts", test_broken_submissions);
    kit_test_add(s, "a fixture that cannot be built fails with its name", test_fixture_failures);
    kit_test_add(s, "the corpus README lists every fixture", test_readme_lists_fixtures);
    kit_test_add(s, "the two-mode verdict table", test_verdict_table);
    kit_test_add(s, "bad invocations exit 2", test_bad_invocations);
    CU_pSuite gpu = kit_test_suite("grader self-test: GPU mode's compiler");
    kit_test_add(gpu, "--nvcc as a bare name", test_nvcc_by_name);
    if (system("command -v nvcc >/dev/null 2>&1") != 0) /* the CPU path needs no CUDA Toolkit */
        kit_test_skip_suite(gpu, "no nvcc in PATH: the GPU build's compile error cannot be checked here");
    kit_test_add(s, "JSON, Gradescope and JUnit files", test_report_files);
    kit_test_add(s, "hidden tests never quote the runner", test_hidden_not_quoted);
    kit_test_add(s, "make check fails a search-free co_rank on bound", test_check_fails_search_free_co_rank);
    kit_test_add(s, "make check: one line per skeleton task, no hidden test", test_check_skeleton_and_hidden);
    kit_test_add(s, "the student kit checks a lab that uses earlier labs", test_student_kit_uses);
    kit_test_add(s, "make check builds lab 9 as two runners at once", test_check_two_runners);
    kit_test_add(s, "batch mode: interrupted, resumed, forced", test_batch_resume);
}

/*
 * With no argument, every test. So that make test can run it in parts beside each other, each
 * with a folder of its own for its files (KIT_BUILD/selftest-part-...):
 *   test_selftest fixtures K/N   the K-th of N slices of the broken submissions, and nothing else
 *   test_selftest rest           every test but the broken submissions
 */
int main(int argc, char **argv)
{
    const char *part = NULL;
    if (argc == 3 && strcmp(argv[1], "fixtures") == 0) {
        slice_arg = argv[2];
        int k, n;
        if (!shard(&k, &n)) {
            fprintf(stderr, "test_selftest: 'fixtures K/N' needs 0 <= K < N, got '%s'\n", argv[2]);
            return 2;
        }
        part = argv[2];
    } else if (argc == 2 && strcmp(argv[1], "rest") == 0) {
        rest_only = 1;
        part = "rest";
    } else if (argc != 1) {
        fprintf(stderr, "usage: %s [fixtures K/N | rest]\n", argv[0]);
        return 2;
    }
    if (part) {
        snprintf(out_dir_buf, sizeof out_dir_buf, "%s/selftest-part-%s", KIT_BUILD_DIR, part);
        for (char *c = out_dir_buf + strlen(KIT_BUILD_DIR) + 1; *c; c++)
            *c = *c == '/' ? '-' : *c;
        char cmd[700];
        snprintf(cmd, sizeof cmd, "mkdir -p '%s'", out_dir_buf);
        if (system(cmd) != 0) {
            fprintf(stderr, "test_selftest: cannot make %s\n", out_dir_buf);
            return 2;
        }
    }
    /* each part's summary line names it: make test's summary tells the parts apart */
    char name[96];
    snprintf(name, sizeof name, "grader self-test%s%s%s%s", part ? " (" : "", part && !rest_only ? "fixtures " : "",
             part ? part : "", part ? ")" : "");
    return kit_test_main(name, register_tests);
}
