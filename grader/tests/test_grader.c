/* Tests of the grader's parts: the spec parser, the sandbox and the verdict names. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "kit_test.h"
#include "sandbox.h"
#include "spec.h"

static spec_lab lab;

/* Parses text as a public (hidden = 0) or hidden spec into the shared `lab`; returns spec_parse's result. */
static int parse(const char *text, int hidden, char *err, size_t len)
{
    FILE *f = tmpfile();
    fputs(text, f);
    rewind(f);
    err[0] = '\0';
    int rc = spec_parse(f, "t.spec", hidden, &lab, err, len);
    fclose(f);
    return rc;
}

static const char *GOOD =
    "# comment\n"
    "lab 01-x\n"
    "title A title\n"
    "file x.cuh\n"
    "task merge 6 the merge\n"
    "task stable 4 stability\n"
    "test merge public t1 op=merge type=i64 m=5 n=7 gen=duplicates seed=9 timeout=3\n"
    "test stable public t2 op=co_rank m=1 n=2 ranks=10 check=bound\n";

static void test_spec_good(void)
{
    char err[256];
    memset(&lab, 0, sizeof lab);
    int rc = parse(GOOD, 0, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0, "good spec refused: %s", err);
    CU_ASSERT_STRING_EQUAL(lab.lab, "01-x");
    CU_ASSERT_STRING_EQUAL(lab.title, "A title");
    CU_ASSERT_EQUAL(lab.nfiles, 1);
    CU_ASSERT_STRING_EQUAL(lab.files[0], "x.cuh");
    CU_ASSERT_EQUAL(lab.ntasks, 2);
    CU_ASSERT_EQUAL(lab.tasks[0].points, 6);
    CU_ASSERT_STRING_EQUAL(lab.tasks[1].title, "stability");
    CU_ASSERT_EQUAL(lab.ntests, 2);
    const spec_test *t = &lab.tests[0];
    CU_ASSERT(t->task == 0 && !t->hidden && t->type == KIT_TYPE_I64 && t->m == 5 && t->n == 7);
    CU_ASSERT(t->gen == KIT_GEN_DUPLICATES && t->seed == 9 && t->timeout_s == 3 && !t->bound);
    CU_ASSERT_STRING_EQUAL(t->op, "merge");
    t = &lab.tests[1];
    CU_ASSERT(t->task == 1 && t->ranks == 10 && t->bound && t->type == KIT_TYPE_I32 && t->gen == KIT_GEN_RANDOM);
    CU_ASSERT_EQUAL(spec_find_task(&lab, "stable"), 1);
    CU_ASSERT_EQUAL(spec_find_task(&lab, "nope"), -1);

    /* A hidden spec adds hidden tests to the same lab. */
    rc = parse("lab 01-x\ntest merge hidden h1 op=merge m=3 n=3\n", 1, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && lab.ntests == 3 && lab.tests[2].hidden, "hidden spec: rc %d (%s), %d tests", rc, err,
                   lab.ntests);
}

/* Parses GOOD with one line appended (public) and expects the error text. */
static void expect_bad(const char *extra, const char *want)
{
    char text[2048], err[256];
    snprintf(text, sizeof text, "%s%s\n", GOOD, extra);
    memset(&lab, 0, sizeof lab);
    int rc = parse(text, 0, err, sizeof err);
    KIT_ASSERT_MSG(rc == -1, "accepted a bad line: %s", extra);
    KIT_ASSERT_MSG(strstr(err, want) != NULL, "for '%s' the error '%s' lacks '%s'", extra, err, want);
}

static void test_spec_bad(void)
{
    expect_bad("frobnicate", "t.spec:9: unknown directive");
    expect_bad("test nosuch public t3 op=merge", "undeclared task");
    expect_bad("test merge public t1 op=merge", "duplicate test name");
    expect_bad("test merge secret t3 op=merge", "public or hidden");
    expect_bad("test merge hidden t3 op=merge", "hidden tests belong in grader/hidden/");
    expect_bad("test merge public t3", "test needs op=");
    expect_bad("test merge public t3 op=sort", "op must be");
    expect_bad("test merge public t3 op=merge type=f32", "type must be");
    expect_bad("test merge public t3 op=merge gen=nope", "unknown gen");
    expect_bad("test merge public t3 op=merge m=-1", "m and n");
    expect_bad("test merge public t3 op=merge m=268435456 n=1", "must not exceed");
    expect_bad("test merge public t3 op=merge m=12x", "m and n");
    expect_bad("test merge public t3 op=merge timeout=0", "timeout");
    expect_bad("test merge public t3 op=merge check=maybe", "check must be");
    expect_bad("test merge public t3 op=merge color=red", "unknown test option");
    expect_bad("test merge public t3 op=merge m", "key=value");
    expect_bad("test merge public ../t3 op=merge", "plain");
    expect_bad("task merge 6 again", "duplicate task");
    expect_bad("task big 0 zero points", "POINTS");
    expect_bad("file ../../etc/passwd", "plain file name");
    expect_bad("file .hidden", "plain file name");
    expect_bad("lab 02-other", "differs");
}

/* op=pbs (lab 6): its keys, their defaults, and the launch it needs. */
static void test_spec_pbs(void)
{
    char text[2048], err[256];
    snprintf(text, sizeof text, "%s%s", GOOD,
             "test merge public p1 op=pbs type=i64 m=100 n=50 alg=cl queries=worst blocks=2 threads=64 max_conflicts=26\n"
             "test merge public p2 op=pbs m=1 n=5 alg=cf blocks=1 threads=32\n");
    memset(&lab, 0, sizeof lab);
    int rc = parse(text, 0, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0, "pbs spec refused: %s", err);
    const spec_test *t = &lab.tests[2];
    CU_ASSERT(t->alg == 2 && t->queries == KIT_PBS_WORST && t->blocks == 2 && t->threads == 64 && t->max_conflicts == 26);
    t = &lab.tests[3];
    CU_ASSERT(t->alg == 1 && t->queries == KIT_PBS_KEYS && t->max_conflicts == -1);
    expect_bad("test merge public t3 op=pbs m=10 n=5 alg=cf blocks=1 threads=48", "multiple of 32");
    expect_bad("test merge public t3 op=pbs m=10 n=5 alg=cf", "multiple of 32");
    expect_bad("test merge public t3 op=pbs m=0 n=5 alg=cf blocks=1 threads=32", "m >= 1");
    expect_bad("test merge public t3 op=pbs m=10 n=5 alg=cf blocks=1 threads=32 tile=4", "no tile");
    expect_bad("test merge public t3 op=pbs m=10 n=5 alg=xx blocks=1 threads=32", "alg must be");
    expect_bad("test merge public t3 op=pbs m=10 n=5 queries=all blocks=1 threads=32", "queries must be");
    expect_bad("test merge public t3 op=pbs m=10 n=5 max_conflicts=-1 blocks=1 threads=32", "max_conflicts");
}

static void test_spec_incomplete(void)
{
    char err[256];
    memset(&lab, 0, sizeof lab);
    KIT_ASSERT_MSG(parse("lab 01-x\nfile a.cuh\n", 0, err, sizeof err) == -1 && strstr(err, "at least one"),
                   "spec without tasks: %s", err);
    memset(&lab, 0, sizeof lab);
    KIT_ASSERT_MSG(parse("lab 01-x\nfile a.cuh\ntask t 1 x\n", 0, err, sizeof err) == -1 && strstr(err, "no public test"),
                   "task without tests: %s", err);
    memset(&lab, 0, sizeof lab);
    parse(GOOD, 0, err, sizeof err);
    KIT_ASSERT_MSG(parse("task extra 1 x\n", 1, err, sizeof err) == -1 && strstr(err, "only hold lab and test"),
                   "hidden spec with a task: %s", err);
    KIT_ASSERT_MSG(parse("test merge public p op=merge\n", 1, err, sizeof err) == -1 && strstr(err, "only hold hidden"),
                   "hidden spec with a public test: %s", err);
}

/* Runs /bin/sh -c script in the sandbox with the given timeout; output to a temporary file. */
static sb_result run_sh(const char *script, double timeout, long long file_bytes, const char *out_path)
{
    char *argv[] = {(char *)"/bin/sh", (char *)"-c", (char *)script, NULL};
    sb_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.timeout_s = timeout;
    lim.cpu_s = 30;
    lim.file_bytes = file_bytes;
    lim.stdout_path = out_path;
    sb_result r;
    memset(&r, 0, sizeof r);
    int rc = sb_run(argv, &lim, &r);
    KIT_ASSERT_MSG(rc == 0, "sb_run could not fork");
    return r;
}

static void test_sandbox_exit_codes(void)
{
    sb_result r = run_sh("exit 0", 5, 0, NULL);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0, "exit 0 gave kind %d code %d", r.kind, r.code);
    r = run_sh("exit 7", 5, 0, NULL);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 7, "exit 7 gave kind %d code %d", r.kind, r.code);
    r = run_sh("kill -SEGV $$", 5, 0, NULL);
    KIT_ASSERT_MSG(r.kind == SB_SIGNALED && r.code == SIGSEGV, "SIGSEGV gave kind %d code %d", r.kind, r.code);
    char buf[160];
    sb_limits lim = {.timeout_s = 5};
    sb_describe(&r, &lim, buf, sizeof buf);
    KIT_ASSERT_MSG(strstr(buf, "crash (signal 11") != NULL, "described as '%s'", buf);
}

static void test_sandbox_timeout_kills_group(void)
{
    char marker[] = "/tmp/kit-sb-XXXXXX";
    int fd = mkstemp(marker);
    close(fd);
    char script[256];
    /* A background child that would write the marker after the deadline, and a parent that spins. */
    snprintf(script, sizeof script, "(sleep 2; echo alive > %s) & while :; do :; done", marker);
    sb_result r = run_sh(script, 0.5, 0, NULL);
    KIT_ASSERT_MSG(r.kind == SB_TIMEOUT, "a spinning program gave kind %d", r.kind);
    KIT_ASSERT_MSG(r.seconds >= 0.5 && r.seconds < 3.0, "timeout took %.2f s", r.seconds);
    sleep(3);
    FILE *f = fopen(marker, "r");
    char text[16] = "";
    if (f) {
        if (!fgets(text, sizeof text, f))
            text[0] = '\0';
        fclose(f);
    }
    KIT_ASSERT_MSG(text[0] == '\0', "the background child survived the timeout and wrote '%s'", text);
    remove(marker);
    char buf[160];
    sb_limits lim = {.timeout_s = 0.5};
    sb_describe(&r, &lim, buf, sizeof buf);
    KIT_ASSERT_MSG(strcmp(buf, "timeout after 0.5 s") == 0, "described as '%s'", buf);
}

static void test_sandbox_file_limit(void)
{
    char out[] = "/tmp/kit-sb-out-XXXXXX";
    int fd = mkstemp(out);
    close(fd);
    sb_result r = run_sh("exec head -c 200000 /dev/zero", 5, 4096, out);
    KIT_ASSERT_MSG(r.kind == SB_SIGNALED && r.code == SIGXFSZ, "writing past the file limit gave kind %d code %d",
                   r.kind, r.code);
    FILE *f = fopen(out, "r");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    remove(out);
    KIT_ASSERT_MSG(size <= 4096, "the child wrote %ld bytes past a 4096-byte limit", size);
}

static void test_sandbox_empty_env_and_bad_path(void)
{
    char out[] = "/tmp/kit-sb-env-XXXXXX";
    int fd = mkstemp(out);
    close(fd);
    setenv("KIT_SECRET", "leak", 1);
    sb_result r = run_sh("env | grep -c KIT_SECRET; exit 0", 5, 0, out);
    unsetenv("KIT_SECRET");
    FILE *f = fopen(out, "r");
    char text[32] = "";
    if (!fgets(text, sizeof text, f))
        text[0] = '\0';
    fclose(f);
    remove(out);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && atoi(text) == 0, "the child saw the grader's environment (%s)", text);

    char *argv[] = {(char *)"/no/such/program", NULL};
    sb_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.timeout_s = 5;
    sb_run(argv, &lim, &r);
    KIT_ASSERT_MSG(r.kind == SB_ERROR, "a missing program gave kind %d", r.kind);
}

static void test_verdict_names(void)
{
    const char *want[] = {"pass", "wrong", "timeout", "crash", "compile", "not-attempted", "error"};
    for (int v = V_PASS; v <= V_ERROR; v++)
        KIT_ASSERT_MSG(strcmp(verdict_name((verdict)v), want[v]) == 0, "verdict %d is named %s", v,
                       verdict_name((verdict)v));
    CU_ASSERT_STRING_EQUAL(verdict_name((verdict)99), "error");
}

static void register_tests(void)
{
    CU_pSuite spec = kit_test_suite("grading specs");
    kit_test_add(spec, "a good spec and its hidden part", test_spec_good);
    kit_test_add(spec, "bad lines refused with their line", test_spec_bad);
    kit_test_add(spec, "incomplete specs refused", test_spec_incomplete);
    kit_test_add(spec, "op=pbs: keys, defaults and launch", test_spec_pbs);
    CU_pSuite sb = kit_test_suite("sandbox");
    kit_test_add(sb, "exit codes and signals", test_sandbox_exit_codes);
    kit_test_add(sb, "timeout kills the whole process group", test_sandbox_timeout_kills_group);
    kit_test_add(sb, "file size limit", test_sandbox_file_limit);
    kit_test_add(sb, "empty environment, missing program", test_sandbox_empty_env_and_bad_path);
    CU_pSuite v = kit_test_suite("verdicts");
    kit_test_add(v, "verdict names", test_verdict_names);
}

int main(void)
{
    return kit_test_main("grader tests", register_tests);
}
