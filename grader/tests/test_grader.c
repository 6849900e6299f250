/* Tests of the grader's parts: the spec parser, the sandbox, the verdict names, the report formats and the gradebook. */
#define _GNU_SOURCE
#include <glob.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "counts.h"
#include "kit_trace.h"
#include "kit_cli.h"
#include "batch.h"
#include "build.h"
#include "kit_test.h"
#include "report.h"
#include "sandbox.h"
#include "spec.h"
#include "vet.h"

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

/* Parses GOOD with the test lines `tests` added into the shared `lab`, which must take them. */
static void parse_good_with(const char *tests)
{
    char text[2048], err[256];
    snprintf(text, sizeof text, "%s%s", GOOD, tests);
    memset(&lab, 0, sizeof lab);
    int rc = parse(text, 0, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0, "spec refused: %s\n%s", err, tests);
}

static void test_spec_bad(void)
{
    expect_bad("frobnicate", "t.spec:9: unknown directive");
    expect_bad("test nosuch public t3 op=merge", "undeclared task");
    expect_bad("test merge public t1 op=merge", "duplicate test name");
    expect_bad("test merge secret t3 op=merge", "public or hidden");
    expect_bad("test merge hidden t3 op=merge", "hidden tests belong in grader/hidden/");
    expect_bad("test merge public t3", "test needs op=");
    expect_bad("test merge public t3 op=shuffle", "op must be");
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
    parse_good_with("test merge public p1 op=pbs type=i64 m=100 n=50 alg=cl queries=worst blocks=2 u=64 conflicts<=26 "
                    "tolerance=5% arch=sm_90 kernel=pbs_kernel\n"
                    "test merge public p2 op=pbs m=1 n=5 alg=cf blocks=1 u=32\n"
                    "test merge public p3 op=merge m=10 n=5 blocks=1 u=32 tile=15 conflicts==0\n"
                    "test merge public p4 op=merge m=10 n=5 blocks=1 u=32 tile=15 conflicts>=7\n");
    const spec_test *t = &lab.tests[2];
    CU_ASSERT(t->alg == 2 && t->queries == KIT_PBS_WORST && t->blocks == 2 && t->u == 64);
    CU_ASSERT(t->conflict_cmp == '<' && t->conflicts == 26 && t->tolerance_pct == 5);
    CU_ASSERT_STRING_EQUAL(t->arch, "sm_90");
    CU_ASSERT_STRING_EQUAL(t->kernel, "pbs_kernel");
    t = &lab.tests[3];
    CU_ASSERT(t->alg == 1 && t->queries == KIT_PBS_KEYS && t->conflict_cmp == 0);
    CU_ASSERT(lab.tests[4].conflict_cmp == '=' && lab.tests[4].conflicts == 0);
    CU_ASSERT(lab.tests[5].conflict_cmp == '>' && lab.tests[5].conflicts == 7);
    expect_bad("test merge public t3 op=pbs m=10 n=5 alg=cf blocks=1 u=48", "multiple of 32");
    expect_bad("test merge public t3 op=pbs m=10 n=5 alg=cf", "multiple of 32");
    expect_bad("test merge public t3 op=pbs m=0 n=5 alg=cf blocks=1 u=32", "m >= 1");
    expect_bad("test merge public t3 op=pbs m=10 n=5 alg=cf blocks=1 u=32 tile=4", "no tile or E");
    expect_bad("test merge public t3 op=pbs m=10 n=5 alg=xx blocks=1 u=32", "alg must be");
    expect_bad("test merge public t3 op=pbs m=10 n=5 queries=all blocks=1 u=32", "queries must be");
    expect_bad("test merge public t3 op=pbs m=10 n=5 conflicts<=-1 blocks=1 u=32", "threshold N");
    expect_bad("test merge public t3 op=pbs m=10 n=5 conflicts=5 blocks=1 u=32", "conflicts<=N");
    expect_bad("test merge public t3 op=merge m=10 n=5 conflicts<=5", "launch");
    expect_bad("test merge public t3 op=merge m=10 n=5 blocks=1 u=32 tile=4 tolerance=5", "go with a conflict");
    expect_bad("test merge public t3 op=merge m=10 n=5 blocks=1 u=32 tile=4 conflicts<=1 tolerance=200", "percentage");
    expect_bad("test merge public t3 op=merge m=10 n=5 blocks=1 u=32 tile=4 conflicts<=1 kernel=a/b", "plain");
}

/* Access bounds (labs 3-5): the four keys, with or without a conflict threshold, and K*share from the launch. */
static void test_spec_access_bounds(void)
{
    char err[256];
    memset(&lab, 0, sizeof lab);
    int rc = parse("lab 03-x\nfile x.cuh\ntask merge 1 m\n"
                   "test merge public a op=merge m=1000 n=777 blocks=3 u=96 tile=1 global_stores<=4*share\n"
                   "test merge public b op=merge m=0 n=0 blocks=2 u=32 tile=1 global_stores<=3*share\n"
                   "test merge public c op=merge m=9 n=9 blocks=2 u=40 tile=4 loads>=5 shared_stores>=6 "
                   "global_loads<=7 global_stores<=8 conflicts<=9 tolerance=25%\n",
                   0, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && lab.ntests == 3, "access bounds refused: %s", err);
    /* a: share = ceil(1777 / 288) = 7, warps = 3 * 3: 4 * 9 * 7 */
    KIT_ASSERT_MSG(lab.tests[0].max_global_stores == 252 && lab.tests[0].stores_per_share == 4,
                   "global_stores<=4*share of 1777 outputs on 3 x 96 threads: %lld, not 252", lab.tests[0].max_global_stores);
    KIT_ASSERT_MSG(lab.tests[1].max_global_stores == 1, "no output: the bound is 1 (still measured), not %lld",
                   lab.tests[1].max_global_stores);
    const spec_test *t = &lab.tests[2];
    CU_ASSERT(t->min_loads == 5 && t->min_shared_stores == 6 && t->max_global_loads == 7 && t->max_global_stores == 8);
    CU_ASSERT(spec_test_measured(&lab.tests[0]) && spec_test_global(&lab.tests[0]) && spec_test_global(t));
    expect_bad("test merge public t3 op=merge m=10 n=5 blocks=1 u=32 tile=4 global_loads<=0", "access bound");
    expect_bad("test merge public t3 op=merge m=10 n=5 blocks=1 u=32 tile=4 global_stores<=0*share", "F a decimal");
    expect_bad("test merge public t3 op=merge m=10 n=5 global_stores<=2*share", "K*share needs op=merge with its launch");
    expect_bad("test merge public t3 op=merge m=10 n=5 shared_stores>=3", "access bound needs the kernel's launch");
    expect_bad("test merge public t3 op=merge m=10 n=5 blocks=1 u=32 tile=4 kernel=k", "kernel goes with");
    expect_bad("test merge public t3 op=worst w=32 E=17 part=both global_loads<=9", "not access bounds");
}

/* op=sort (lab 9): its keys, and gpu_slack, which only a conflict threshold may carry. */
static void test_spec_sort(void)
{
    parse_good_with("test merge public s1 op=sort type=kv32 m=1000 alg=cf u=256 E=17 conflicts==0 gpu_slack=24\n"
                    "test merge public s2 op=sort m=7 alg=baseline u=32 E=5\n");
    const spec_test *t = &lab.tests[2];
    CU_ASSERT(t->alg == 1 && t->u == 256 && t->E == 17 && t->blocks == 0 && t->m == 1000);
    CU_ASSERT(t->conflict_cmp == '=' && t->conflicts == 0 && t->gpu_slack == 24);
    CU_ASSERT(lab.tests[3].alg == 3 && lab.tests[3].gpu_slack == 0);
    expect_bad("test merge public t3 op=sort m=10 alg=cf u=32 E=5 gpu_slack=3", "go with a conflict");
    expect_bad("test merge public t3 op=sort m=10 alg=cf u=32 E=5 conflicts>=1 gpu_slack=3", "conflicts<=N");
    expect_bad("test merge public t3 op=sort m=10 alg=cf u=32 E=5 conflicts==0 gpu_slack=-1", "gpu_slack must");
    expect_bad("test merge public t3 op=sort m=10 n=3 alg=cf u=32 E=5", "op=sort needs");
    expect_bad("test merge public t3 op=sort m=10 alg=cl u=32 E=5", "op=sort needs");
    expect_bad("test merge public t3 op=sort m=10 alg=cf blocks=2 u=32 E=5", "op=sort needs");
    expect_bad("test merge public t3 op=pbs m=10 n=5 alg=baseline blocks=1 u=32", "op=pbs needs");
}

static void test_spec_worst(void)
{
    parse_good_with("test merge public w1 op=worst w=32 E=17 part=subproblem conflicts>=269\n"
                    "test merge public w2 op=worst w=12 E=5 part=both\n");
    const spec_test *t = &lab.tests[2];
    CU_ASSERT(t->w == 32 && t->E == 17 && t->part == 1 && t->conflict_cmp == '>' && t->conflicts == 269);
    CU_ASSERT(lab.tests[3].w == 12 && lab.tests[3].part == 3 && lab.tests[3].conflict_cmp == 0);
    expect_bad("test merge public t3 op=worst w=16 E=9 part=order conflicts>=10", "only with w=32");
    expect_bad("test merge public t3 op=worst blocks=1 w=32 E=9 part=order", "op=worst needs");
    expect_bad("test merge public t3 op=worst w=8 E=9 part=order", "op=worst needs");
    expect_bad("test merge public t3 op=worst w=32 E=9", "op=worst needs");
    expect_bad("test merge public t3 op=merge m=5 n=5 part=both", "part goes with");
}

/* The launch keys mean one thing in every lab (spec.h): blocks, u, w, E, tile; the old keys name their successors. */
static void test_spec_launch_keys(void)
{
    parse_good_with("test merge public k3 op=merge m=10 n=5 blocks=2 u=96\n"
                    "test merge public k4 op=merge m=10 n=5 blocks=3 u=64 tile=128\n"
                    "test merge public k7 op=merge m=10 n=5 blocks=4 u=256 E=17\n"
                    "test merge public k8 op=worst w=12 E=5 part=order\n");
    const spec_test *k = &lab.tests[2];
    CU_ASSERT(k[0].blocks == 2 && k[0].u == 96 && k[0].tile == 0 && k[0].E == 0 && k[0].w == 0);
    CU_ASSERT(k[1].blocks == 3 && k[1].u == 64 && k[1].tile == 128 && k[1].E == 0);
    CU_ASSERT(k[2].blocks == 4 && k[2].u == 256 && k[2].E == 17 && k[2].tile == 0);
    CU_ASSERT(k[3].w == 12 && k[3].E == 5 && k[3].u == 0 && k[3].blocks == 0 && k[3].part == 2);
    /* the old keys, each refused with the key that replaced it */
    expect_bad("test merge public t3 op=merge m=10 n=5 blocks=1 threads=32", "threads= is now u= (threads per block)");
    expect_bad("test merge public t3 op=worst threads=32 E=17 part=order", "or w= for op=worst");
    expect_bad("test merge public t3 op=sort m=10 alg=cf u=32 tile=5", "tile= is now E= (keys per thread)");
    expect_bad("test merge public t3 op=worst w=32 tile=17 part=order", "tile= is now E=");
    /* each key where its op does not take it */
    expect_bad("test merge public t3 op=merge m=10 n=5 blocks=1 u=32 tile=4 E=4", "not both");
    expect_bad("test merge public t3 op=merge m=10 n=5 E=4", "blocks and u go together");
    expect_bad("test merge public t3 op=merge m=10 n=5 blocks=1", "blocks and u go together");
    expect_bad("test merge public t3 op=merge m=10 n=5 blocks=1 u=32 w=32", "w goes with op=worst");
    expect_bad("test merge public t3 op=co_rank m=10 n=5 blocks=1 u=32", "op=co_rank takes no launch");
    expect_bad("test merge public t3 op=worst w=32 E=17 u=32 part=order", "no blocks or u");
    expect_bad("test merge public t3 op=merge m=10 n=5 blocks=1 u=1025", "must lie in 1 .. 1024");
    expect_bad("test merge public t3 op=sort m=10 alg=cf u=32 E=0", "must lie in 1 .. 1024");
}

/* spec_runner_groups: the masks of the (type, E) pairs of the merge and sort tests, dealt into runners,
   or one runner for every pair when a test leaves E to the runner. */
static void test_spec_runner_groups(void)
{
    char flags[SPEC_MAX_GROUPS][SPEC_PAIR_FLAGS];
    int group_of[SPEC_MAX_TESTS];
    parse_good_with("test merge public s1 op=sort type=kv32 m=1000 alg=cf u=256 E=17\n"
                    "test merge public s2 op=sort m=7 alg=baseline u=32 E=5\n"
                    "test merge public s3 op=sort m=9 alg=cf u=32 E=5\n");
    /* GOOD's merge test t1 gives no E: the runner's default, so one runner builds every pair */
    int n = spec_runner_groups(&lab, 4, flags, group_of);
    KIT_ASSERT_MSG(n == 1 && flags[0][0] == '\0' && group_of[0] == 0 && group_of[3] == 0,
                   "a merge test with the default E still gave %d runners, '%s'", n, flags[0]);
    /* the sort tests alone: kv32 E=17, and i32 E=5 twice */
    memmove(&lab.tests[0], &lab.tests[2], 3 * sizeof lab.tests[0]);
    lab.ntests = 3;
    n = spec_runner_groups(&lab, 1, flags, group_of);
    KIT_ASSERT_MSG(n == 1 && strcmp(flags[0], "-DKIT_RUNNER_E_I32=0x20ULL -DKIT_RUNNER_E_I64=0x0ULL "
                                              "-DKIT_RUNNER_E_KV32=0x20000ULL") == 0,
                   "one runner for the sort tests gave %d: '%s'", n, flags[0]);
    /* two runners, a pair each; asking for more than there are pairs gives as many as pairs */
    for (int want = 2; want <= 3; want++) {
        n = spec_runner_groups(&lab, want, flags, group_of);
        KIT_ASSERT_MSG(n == 2 && strstr(flags[0], "I32=0x0ULL") && strstr(flags[0], "KV32=0x20000ULL") &&
                           strstr(flags[1], "I32=0x20ULL") && strstr(flags[1], "KV32=0x0ULL"),
                       "%d runners wanted: %d, '%s' and '%s'", want, n, flags[0], flags[1]);
        KIT_ASSERT_MSG(group_of[0] == 0 && group_of[1] == 1 && group_of[2] == 1, "tests' runners %d %d %d",
                       group_of[0], group_of[1], group_of[2]);
    }
    lab.tests[1].E = 0; /* one test with the runner's default E: no restriction */
    n = spec_runner_groups(&lab, 2, flags, group_of);
    KIT_ASSERT_MSG(n == 1 && flags[0][0] == '\0', "default E gave %d runners, '%s'", n, flags[0]);
    lab.ntests = 0; /* no merge or sort test */
    n = spec_runner_groups(&lab, 2, flags, group_of);
    KIT_ASSERT_MSG(n == 1 && flags[0][0] == '\0', "no test gave %d runners, '%s'", n, flags[0]);
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
    KIT_ASSERT_MSG(parse("task extra 1 x\n", 1, err, sizeof err) == -1 && strstr(err, "only hold lab, test and draw"),
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

/* CPU mode: the CPU time decides (a spinner stops at it, with the CPU-time reason); a sleeper gets the wall-clock backstop. */
static void test_time_limits(void)
{
    sb_limits lim;
    memset(&lim, 0, sizeof lim);
    check_time_limits(1, 3, &lim);
    KIT_ASSERT_MSG(lim.cpu_s == 3 && lim.timeout_s == 11, "CPU mode: cpu %ld s, wall %g s", lim.cpu_s, lim.timeout_s);
    check_time_limits(0, 3, &lim);
    KIT_ASSERT_MSG(lim.cpu_s == 4 && lim.timeout_s == 3, "GPU mode: cpu %ld s, wall %g s", lim.cpu_s, lim.timeout_s);

    char *spin[] = {(char *)"/bin/sh", (char *)"-c", (char *)"while :; do :; done", NULL};
    char *nap[] = {(char *)"/bin/sh", (char *)"-c", (char *)"sleep 2", NULL};
    sb_result r;
    memset(&lim, 0, sizeof lim);
    check_time_limits(1, 1, &lim); /* 1 s of CPU, 5 s of wall clock */
    double backstop = lim.timeout_s;
    lim.timeout_s = 60; /* the spinners below must meet the CPU limit, not the backstop, on a busy machine too */
    KIT_ASSERT_MSG(sb_run(spin, &lim, &r) == 0, "sb_run could not fork");
    KIT_ASSERT_MSG(r.kind == SB_SIGNALED && r.code == SIGXCPU, "a spinner gave kind %d code %d after %.1f s", r.kind,
                   r.code, r.seconds);
    char buf[160];
    sb_describe(&r, &lim, buf, sizeof buf);
    KIT_ASSERT_MSG(strcmp(buf, "timeout after 1 s of CPU time") == 0, "described as '%s'", buf);
    char *stubborn[] = {(char *)"/bin/sh", (char *)"-c", (char *)"trap '' XCPU; while :; do :; done", NULL};
    KIT_ASSERT_MSG(sb_run(stubborn, &lim, &r) == 0, "sb_run could not fork");
    KIT_ASSERT_MSG(r.kind == SB_SIGNALED && r.code == SIGXCPU, "a spinner that ignores SIGXCPU gave kind %d code %d",
                   r.kind, r.code);
    lim.timeout_s = backstop;
    KIT_ASSERT_MSG(sb_run(nap, &lim, &r) == 0, "sb_run could not fork");
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0, "a 2 s sleep under 1 s of CPU time gave kind %d code %d", r.kind,
                   r.code);
}

/*
 * A GPU-mode test (no ncu, no compute-sanitizer) runs its runner isolated, with the scratch folder
 * writable for the tools' logs: a runner that leaves a file there and no reply gets "malformed
 * output", never "could not start". The writable list once lived on the stack of a function that
 * had returned before the run: every GPU test said "could not start: Bad address".
 */
static void test_gpu_runner_sandbox(void)
{
    char dir[] = "/tmp/kit-gpu-XXXXXX", runner[64], mark[64];
    KIT_ASSERT_MSG(mkdtemp(dir) != NULL, "mkdtemp failed");
    snprintf(runner, sizeof runner, "%s/runner", dir);
    snprintf(mark, sizeof mark, "%s/ran", dir);
    FILE *f = fopen(runner, "w");
    KIT_ASSERT_MSG(f != NULL, "cannot write %s", runner);
    fprintf(f, "#!/bin/sh\necho ran > ran\n");
    fclose(f);
    chmod(runner, 0755);
    spec_test t;
    memset(&t, 0, sizeof t);
    snprintf(t.name, sizeof t.name, "%s", "tiny");
    snprintf(t.op, sizeof t.op, "%s", "merge");
    t.type = KIT_TYPE_I32;
    t.m = t.n = 4;
    check_env env = {.runner = runner, .workdir = dir, .timeout_s = 10, .simulated = 0};
    env.box.isolate = 1;
    check_result out;
    check_test(&t, &env, &out);
    KIT_ASSERT_MSG(out.v == V_WRONG && strstr(out.detail, "malformed output"), "verdict %s: %s", verdict_name(out.v),
                   out.detail);
    KIT_ASSERT_MSG(access(mark, F_OK) == 0, "the runner could not write %s", mark);
    build_remove_tree(dir);
}

/* build_remove_tree: a folder with files and a subfolder is gone afterwards. */
static void test_remove_tree(void)
{
    char dir[] = "/tmp/kit-rt-XXXXXX", cmd[256];
    KIT_ASSERT_MSG(mkdtemp(dir) != NULL, "mkdtemp failed");
    snprintf(cmd, sizeof cmd, "mkdir -p %s/a/b && touch %s/x %s/a/y %s/a/b/z", dir, dir, dir, dir);
    KIT_ASSERT_MSG(system(cmd) == 0, "could not fill %s", dir);
    build_remove_tree(dir);
    KIT_ASSERT_MSG(access(dir, F_OK) != 0, "%s is still there", dir);
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

static int no_network; /* run_limited's sb_limits.no_network */

/* Runs a shell script in the sandbox as `uid` (0: as we are) with an nproc limit; returns stdout's text (static). */
static const char *run_limited(const char *script, unsigned uid, long nproc, double timeout, sb_result *r)
{
    static char text[8192];
    char out[] = "/tmp/kit-sb-np-XXXXXX";
    int fd = mkstemp(out);
    close(fd);
    char *argv[] = {(char *)"/bin/sh", (char *)"-c", (char *)script, NULL};
    char *envp[] = {(char *)"PATH=/usr/bin:/bin", NULL};
    sb_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.timeout_s = timeout;
    lim.cpu_s = 30;
    lim.nproc = nproc;
    lim.no_network = no_network;
    lim.uid = uid;
    lim.gid = uid;
    lim.stdout_path = out;
    lim.envp = envp;
    memset(r, 0, sizeof *r);
    KIT_ASSERT_MSG(sb_run(argv, &lim, r) == 0, "sb_run could not fork");
    FILE *f = fopen(out, "r");
    size_t got = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[got] = '\0';
    if (f)
        fclose(f);
    remove(out);
    return text;
}

static int count_lines(const char *text, const char *line)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, line)); p += strlen(line))
        n++;
    return n;
}

/* The sandbox user when we are root (nobody), else 0: the limits must hold either way. */
static unsigned sandbox_uid(void)
{
    return geteuid() == 0 ? 65534 : 0;
}

static void test_sandbox_nproc(void)
{
    KIT_ASSERT_MSG(sb_count_tasks((unsigned)getuid()) >= 1, "sb_count_tasks finds not even this process");
    sb_result r;
    /* 40 children that each print a line and wait: with room for 8 more processes, most cannot start */
    const char *text = run_limited("for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 "
                                   "27 28 29 30 31 32 33 34 35 36 37 38 39 40; do (echo started; sleep 2) & done; "
                                   "wait",
                                   sandbox_uid(), 8, 10, &r);
    int started = count_lines(text, "started");
    KIT_ASSERT_MSG(started >= 1 && started <= 8, "%d of 40 children started under a limit of 8", started);
    /* without the limit all of them start (so the limit, not something else, stopped them) */
    text = run_limited("for i in 1 2 3 4 5 6 7 8 9 10 11 12; do (echo started; sleep 1) & done; wait", sandbox_uid(),
                       0, 10, &r);
    KIT_ASSERT_MSG(count_lines(text, "started") == 12, "without a limit %d of 12 children started",
                   count_lines(text, "started"));
}

static void test_sandbox_escaped_children_killed(void)
{
    char marker[] = "/tmp/kit-sb-esc-XXXXXX";
    int fd = mkstemp(marker);
    close(fd);
    chmod(marker, 0666); /* so the sandbox user could write it, were it still alive */
    char script[512];
    /* a grandchild leaves the process group (setsid) and would write the marker after the run */
    snprintf(script, sizeof script, "setsid sh -c 'sleep 2; echo escaped > %s' & exit 0", marker);
    sb_result r;
    run_limited(script, sandbox_uid(), 16, 5, &r);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0, "the script ended with kind %d code %d", r.kind, r.code);
    sleep(3);
    FILE *f = fopen(marker, "r");
    char text[32] = "";
    if (f && !fgets(text, sizeof text, f))
        text[0] = '\0';
    if (f)
        fclose(f);
    remove(marker);
    KIT_ASSERT_MSG(text[0] == '\0', "a process that left the group outlived the run and wrote '%s'", text);
}

/* Root only: the child runs as nobody, cannot read root's files nor write into root's folders. */
static void test_sandbox_drops_root(void)
{
    sb_result r;
    const char *text = run_limited("id -u; id -G; cat /etc/shadow >/dev/null 2>&1 && echo read-shadow; "
                                   "touch /root/kit-sandbox-probe 2>/dev/null && echo wrote-root; exit 0",
                                   65534, 16, 5, &r);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && strncmp(text, "65534\n", 6) == 0, "the child ran as [%s]", text);
    KIT_ASSERT_MSG(strstr(text, "\n0") == NULL && strstr(text, " 0\n") == NULL, "the child kept group 0: [%s]", text);
    KIT_ASSERT_MSG(strstr(text, "read-shadow") == NULL, "the child read /etc/shadow");
    KIT_ASSERT_MSG(strstr(text, "wrote-root") == NULL, "the child wrote into /root");
    remove("/root/kit-sandbox-probe");
}

/* Root only: with no_network the child sees a loopback device at most; without it, the host's devices. */
static void test_sandbox_no_network(void)
{
    sb_result r;
    const char *script = "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | grep -vx lo | wc -l";
    no_network = 0;
    int host = atoi(run_limited(script, 65534, 16, 5, &r));
    no_network = 1;
    int inside = atoi(run_limited(script, 65534, 16, 5, &r));
    no_network = 0;
    pid_t probe = fork(); /* can this kernel give us a network namespace at all? */
    if (probe == 0)
        _exit(unshare(CLONE_NEWNET) == 0 ? 0 : 1);
    int status = 1;
    waitpid(probe, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0) { /* best effort: the child runs, with the host's devices */
        fprintf(stderr, "(no network namespaces here: the sandbox keeps the host's network)\n");
        KIT_ASSERT_MSG(inside == host, "without namespaces the child saw %d devices, the host %d", inside, host);
        return;
    }
    KIT_ASSERT_MSG(inside == 0, "with no_network the child sees %d network devices besides lo", inside);
    if (host == 0)
        fprintf(stderr, "(this machine has no network device besides lo, so the contrast proves little)\n");
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0, "the probe ended with kind %d code %d", r.kind, r.code);
}

static void test_verdict_names(void)
{
    const char *want[] = {"pass", "wrong", "timeout", "crash", "compile", "not-attempted", "error"};
    for (int v = V_PASS; v <= V_ERROR; v++)
        KIT_ASSERT_MSG(strcmp(verdict_name((verdict)v), want[v]) == 0, "verdict %d is named %s", v,
                       verdict_name((verdict)v));
    CU_ASSERT_STRING_EQUAL(verdict_name((verdict)99), "error");
}

/* ---- report formats ---------------------------------------------------------- */

/* Runs a writer into a memory buffer; the caller frees the result. */
static char *capture(void (*writer)(FILE *, const char *), const char *arg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    writer(f, arg);
    fclose(f);
    return buf;
}

static void expect_escape(void (*writer)(FILE *, const char *), const char *in, const char *want, const char *what)
{
    char *got = capture(writer, in);
    KIT_ASSERT_MSG(strcmp(got, want) == 0, "%s of [%s] gave [%s], expected [%s]", what, in, got, want);
    free(got);
}

/*
 * Where a reader could be fooled: the offset of the first byte of s that is a
 * control byte not in `allowed` (the format's own separators), DEL, a byte
 * outside valid UTF-8, or the start of a C1 control, a bidi control, U+2028,
 * U+2029, U+FFFE or U+FFFF; -1 when there is none. It decodes on its own,
 * apart from report.c, so that it checks report_clean rather than repeats it.
 */
static long first_unsafe_byte(const char *s, const char *allowed)
{
    static const unsigned smallest[5] = {0, 0, 0x80, 0x800, 0x10000}; /* below: an overlong form */
    const unsigned char *p = (const unsigned char *)s;
    for (long i = 0; p[i];) {
        unsigned c = p[i];
        if (c < 0x80) {
            if ((c < 0x20 && !strchr(allowed, (int)c)) || c == 0x7F)
                return i;
            i++;
            continue;
        }
        int len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        unsigned cp = len ? c & (0x7Fu >> len) : 0;
        for (int k = 1; k < len; k++) {
            if ((p[i + k] & 0xC0) != 0x80)
                return i;
            cp = cp << 6 | (p[i + k] & 0x3F);
        }
        if (len == 0 || cp < smallest[len] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF || cp <= 0x9F ||
            cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
            (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029 || cp == 0xFFFE || cp == 0xFFFF)
            return i;
        i += len;
    }
    return -1;
}

/* Every class of character report_clean replaces, what it keeps, cutting, idempotence, and cleaning in place. */
static void test_clean(void)
{
    static const struct {
        const char *in, *want;
    } cases[] = {
        {"plain text", "plain text"},
        {"\x1b[2J\x1b]0;title\x07", "?[2J?]0;title?"},
        {"a\rb\bc\td\ne\x7f" "f", "a?b?c?d?e?f"},
        {"\xe2\x80\xae" "exe.txt", "?exe.txt"},                                /* U+202E */
        {"\xe2\x80\x8e\xe2\x80\x8f\xe2\x81\xa6\xe2\x81\xa9\xd8\x9c|", "?????|"}, /* U+200E U+200F U+2066 U+2069 U+061C */
        {"\xe2\x80\xaa\xe2\x80\xa8\xe2\x80\xa9\xef\xbf\xbe\xef\xbf\xbf", "?????"}, /* U+202A U+2028 U+2029 U+FFFE U+FFFF */
        {"\xc2\x80\xc2\x9b\xc2\x9f\xc2\xa0", "???\xc2\xa0"},                   /* C1 controls go, no-break space stays */
        {"\xff|\xc0\xaf|\xed\xa0\x80|\xf4\x90\x80\x80|\xe2\x82", "?|??|???|????|??"},
        {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xe2\x80\x94", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xe2\x80\x94"},
        {"", ""},
    };
    char out[128], twice[128], in_place[128];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = report_clean(out, sizeof out, cases[i].in);
        KIT_ASSERT_MSG(strcmp(out, cases[i].want) == 0 && n == strlen(out), "case %zu: cleaned to [%s], expected [%s]",
                       i, out, cases[i].want);
        report_clean(twice, sizeof twice, out);
        KIT_ASSERT_MSG(strcmp(twice, out) == 0, "case %zu: cleaning twice gave [%s], once [%s]", i, twice, out);
        snprintf(in_place, sizeof in_place, "%s", cases[i].in);
        report_clean(in_place, sizeof in_place, in_place);
        KIT_ASSERT_MSG(strcmp(in_place, out) == 0, "case %zu: cleaning in place gave [%s]", i, in_place);
        char *put = capture(report_put_clean, cases[i].in);
        KIT_ASSERT_MSG(strcmp(put, out) == 0, "case %zu: report_put_clean wrote [%s]", i, put);
        free(put);
    }
    report_clean(out, sizeof out, NULL);
    CU_ASSERT_STRING_EQUAL(out, "");
    out[0] = 'x';
    KIT_ASSERT_MSG(report_clean(out, 0, "abc") == 0 && out[0] == 'x', "a zero-sized buffer was written");

    /* cut at every size: a prefix of the whole, never half a character, and as stable as the whole */
    const char *wide = "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\x1b" "a\xe2\x80\xae";
    char whole[64];
    report_clean(whole, sizeof whole, wide);
    for (size_t len = 1; len <= strlen(wide) + 1; len++) {
        size_t n = report_clean(out, len, wide);
        long bad = first_unsafe_byte(out, "");
        KIT_ASSERT_MSG(n < len && n == strlen(out) && strncmp(out, whole, n) == 0 && bad < 0,
                       "cut to %zu bytes: %zu written, byte %ld is 0x%02x", len, n, bad,
                       bad >= 0 ? (unsigned char)out[bad] : 0);
        report_clean(twice, len, out);
        KIT_ASSERT_MSG(strcmp(twice, out) == 0, "cut to %zu bytes, cleaning twice differs", len);
    }
}

static void test_json_escaping(void)
{
    expect_escape(report_json_string, "plain text", "plain text", "JSON");
    expect_escape(report_json_string, "say \"PASS\" \\o/", "say \\\"PASS\\\" \\\\o/", "JSON");
    expect_escape(report_json_string, "a\nb\tc\rd\x01" "e\x1f\x7f", "a?b?c?d?e??", "JSON (control characters become '?')");
    expect_escape(report_json_string, "\xe2\x80\xae" "exe.txt", "?exe.txt", "JSON (a bidi override becomes '?')");
    expect_escape(report_json_string, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
                  "JSON (valid UTF-8 is kept)");
    /* a stray byte, an overlong '/', a surrogate, a code point past U+10FFFF, a sequence cut short */
    expect_escape(report_json_string, "\xff|\xc0\xaf|\xed\xa0\x80|\xf4\x90\x80\x80|\xe2\x82", "?|??|???|????|??",
                  "JSON (each byte of invalid UTF-8 becomes '?')");
    expect_escape(report_json_string, "", "", "JSON");
}

static void test_xml_escaping(void)
{
    expect_escape(report_xml_text, "plain", "plain", "XML");
    expect_escape(report_xml_text, "</failure><x a='1' b=\"2\">&amp;]]>",
                  "&lt;/failure&gt;&lt;x a=&apos;1&apos; b=&quot;2&quot;&gt;&amp;amp;]]&gt;", "XML");
    expect_escape(report_xml_text, "a\tb\nc\rd\x01\x1b[31m", "a?b?c?d??[31m", "XML (control characters become '?')");
    expect_escape(report_xml_text, "\xef\xbf\xbf \xc3\xa9 \xfe", "? \xc3\xa9 ?", "XML (U+FFFF and invalid UTF-8 become '?')");
}

static void test_csv_fields(void)
{
    expect_escape(report_csv_field, "alice", "alice", "CSV");
    expect_escape(report_csv_field, "smith, john", "\"smith, john\"", "CSV");
    expect_escape(report_csv_field, "say \"hi\"", "\"say \"\"hi\"\"\"", "CSV");
    expect_escape(report_csv_field, "two\nlines", "two\\x0Alines", "CSV (a line break is escaped, not written)");
    expect_escape(report_csv_field, "esc\x1b[2J \xe2\x80\xae\xff", "esc\\x1B[2J \\xE2\\x80\\xAE\\xFF", "CSV (escaped bytes)");
    expect_escape(report_csv_field, "back\\slash", "back\\\\slash", "CSV (a backslash is doubled)");
    expect_escape(report_csv_field, "'=x,y", "\"\\x27=x,y\"", "CSV (a leading apostrophe is escaped)");
    expect_escape(report_csv_field, "caf\xc3\xa9", "caf\xc3\xa9", "CSV (valid UTF-8 is kept)");
    expect_escape(report_csv_field, "=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\"", "CSV (formula defused)");
    expect_escape(report_csv_field, "-1+2", "\"'-1+2\"", "CSV (formula defused)");
    expect_escape(report_csv_field, "@sum", "\"'@sum\"", "CSV (formula defused)");
    expect_escape(report_csv_field, "", "", "CSV");
}

/*
 * A small JSON checker for the tests: accepts exactly one JSON value (RFC 8259)
 * with nothing after it. Returns NULL when valid, else where it stopped.
 */
static const char *json_value(const char *p);
static const char *json_reached; /* how far the checker read: where invalid JSON stopped it */
static const char *json_ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
        p++;
    return json_reached = p;
}
static const char *json_str(const char *p)
{
    if (*p++ != '"')
        return NULL;
    for (; *p != '"'; p++) {
        json_reached = p;
        if ((unsigned char)*p < 0x20)
            return NULL;
        if (*p == '\\') {
            p++;
            if (*p == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
                        return NULL;
                p += 4;
            } else if (!*p || !strchr("\"\\/bfnrt", *p))
                return NULL;
        }
    }
    return p + 1;
}
static const char *json_value(const char *p)
{
    p = json_ws(p);
    if (*p == '"')
        return json_str(p);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p = json_ws(p + 1);
        if (*p == close)
            return p + 1;
        for (;;) {
            if (close == '}') {
                if (!(p = json_str(json_ws(p))))
                    return NULL;
                p = json_ws(p);
                if (*p++ != ':')
                    return NULL;
            }
            if (!(p = json_value(p)))
                return NULL;
            p = json_ws(p);
            if (*p == close)
                return p + 1;
            if (*p++ != ',')
                return NULL;
        }
    }
    if (strncmp(p, "true", 4) == 0 || strncmp(p, "null", 4) == 0)
        return p + 4;
    if (strncmp(p, "false", 5) == 0)
        return p + 5;
    char *end;
    strtod(p, &end);
    return end == p ? NULL : end;
}
static int json_valid(const char *text)
{
    json_reached = text;
    const char *end = json_value(text);
    return end && *json_ws(end) == '\0';
}

static const char *NASTY = "\"PASS\"\n</failure><x>]]>&\\ \x01\x1b[2J \xff\xfe caf\xc3\xa9";

/* A report with one lab: task merge (2 public tests and a hidden one), task stable (1 public test). */
static grade_report rep;
static void fill_report(void)
{
    char err[256];
    memset(&rep, 0, sizeof rep);
    snprintf(rep.submission, sizeof rep.submission, "students/%s", NASTY);
    rep.mode = "cpu";
    rep.nlabs = 2;
    lab_result *lab = &rep.labs[0];
    FILE *f = tmpfile();
    fputs("lab 01-x\ntitle T\nfile x.cuh\ntask merge 6 the merge\ntask stable 4 stability\n"
          "test merge public p1 op=merge\ntest merge public p2 op=merge\ntest stable public s1 op=merge\n",
          f);
    rewind(f);
    KIT_ASSERT_MSG(spec_parse(f, "t.spec", 0, &lab->spec, err, sizeof err) == 0, "spec: %s", err);
    fclose(f);
    f = tmpfile();
    fputs("lab 01-x\ntest merge hidden h1 op=merge\n", f);
    rewind(f);
    KIT_ASSERT_MSG(spec_parse(f, "h.spec", 1, &lab->spec, err, sizeof err) == 0, "hidden spec: %s", err);
    fclose(f);
    lab->spec_ok = 1;
    lab->tasks[0].v = V_PASS;
    lab->tasks[0].points = 6;
    snprintf(lab->tasks[0].detail, sizeof lab->tasks[0].detail, "pass (3 tests)");
    lab->tasks[0].failed_test = -1;
    lab->tasks[1].v = V_WRONG;
    lab->tasks[1].failed_test = 2;
    snprintf(lab->tasks[1].detail, sizeof lab->tasks[1].detail, "public test s1: %s", NASTY);
    for (int x = 0; x < 4; x++) { /* spec order: p1, p2, s1, then the hidden h1 */
        lab->tests[x].v = V_PASS;
        lab->tests[x].seconds = 0.25;
        snprintf(lab->tests[x].detail, sizeof lab->tests[x].detail, "pass");
    }
    lab->tests[2].v = V_WRONG;
    snprintf(lab->tests[2].detail, sizeof lab->tests[2].detail, "%s", NASTY);
    lab_result *bad = &rep.labs[1];
    snprintf(bad->spec.lab, sizeof bad->spec.lab, "02-y");
    snprintf(bad->spec_error, sizeof bad->spec_error, "labs/02-y/grading.spec:3: unknown directive <%s>", NASTY);
    report_total(&rep);
}

static char *write_report(void (*writer)(FILE *, const grade_report *))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    writer(f, &rep);
    fclose(f);
    return buf;
}

static void test_report_totals(void)
{
    fill_report();
    KIT_ASSERT_MSG(rep.points == 6 && rep.max_points == 10, "total %d/%d, expected 6/10", rep.points, rep.max_points);
    KIT_ASSERT_MSG(rep.labs[0].points == 6 && rep.labs[1].max_points == 0, "lab totals %d and %d",
                   rep.labs[0].points, rep.labs[1].max_points);
    KIT_ASSERT_MSG(report_percent(&rep) == 60.0, "percent %.2f", report_percent(&rep));
    grade_report empty;
    memset(&empty, 0, sizeof empty);
    KIT_ASSERT_MSG(report_percent(&empty) == 0.0, "an empty report scores %.2f", report_percent(&empty));
}

static void test_report_json(void)
{
    fill_report();
    char *json = write_report(report_json);
    KIT_ASSERT_MSG(json_valid(json), "report_json wrote invalid JSON:\n%s", json);
    KIT_ASSERT_MSG(first_unsafe_byte(json, "\n") < 0, "report_json wrote invalid UTF-8 or control bytes");
    KIT_ASSERT_MSG(strstr(json, "\"score\": 6,\n  \"max_score\": 10") != NULL, "no total in:\n%s", json);
    KIT_ASSERT_MSG(strstr(json, "\"test\": \"h1\", \"visibility\": \"hidden\"") != NULL, "h1 not hidden:\n%s", json);
    KIT_ASSERT_MSG(strstr(json, "\"test\": \"p1\", \"visibility\": \"public\"") != NULL, "p1 not public:\n%s", json);
    KIT_ASSERT_MSG(strstr(json, "\\\"PASS\\\"?</failure>") != NULL, "the nasty detail is not escaped:\n%s", json);
    KIT_ASSERT_MSG(strstr(json, "\"spec_error\"") != NULL, "the broken lab is missing:\n%s", json);
    free(json);
}

/* The Gradescope entry of rep named NAME ("01-x test merge/p1"), up to its closing brace, or "" when there is none. */
static char *gs_entry(const char *gs, const char *name, char *buf, size_t len)
{
    char key[128];
    snprintf(key, sizeof key, "{\"name\": \"%s", name);
    const char *at = strstr(gs, key), *end = at ? strstr(at, "\"}") : NULL;
    snprintf(buf, len, "%.*s", at && end ? (int)(end + 2 - at) : 0, at ? at : "");
    return buf;
}

static void test_report_gradescope(void)
{
    fill_report();
    char *gs = write_report(report_gradescope), e[1024];
    KIT_ASSERT_MSG(json_valid(gs), "report_gradescope wrote invalid JSON:\n%s", gs);
    KIT_ASSERT_MSG(first_unsafe_byte(gs, "\n") < 0, "report_gradescope wrote invalid UTF-8 or control bytes");
    /* the top-level output sums up the submission, as plain text */
    KIT_ASSERT_MSG(strncmp(gs, "{\n  \"score\": 6,\n", 15) == 0, "no total score at the top:\n%s", gs);
    KIT_ASSERT_MSG(strstr(gs, "\"output\": \"Total: 6/10 (60.0%), runners built for the kit's CPU emulation.\\n01-x: "
                              "6/10; not passed: stable\\n02-y: not graded") &&
                       strstr(gs, "\"output_format\": \"text\""),
                   "no plain-text summary at the top:\n%s", gs);
    /* by default a task's points are visible, with its public tests; hidden tests after the due date */
    KIT_ASSERT_MSG(strstr(gs_entry(gs, "01-x test merge/h1 (hidden)", e, sizeof e),
                          "\"score\": 0, \"max_score\": 0, \"status\": \"passed\", \"output\": \"pass\", "
                          "\"visibility\": \"after_due_date\"}"),
                   "hidden test h1 not after_due_date: '%s'", e);
    KIT_ASSERT_MSG(strstr(gs_entry(gs, "01-x task merge: the merge", e, sizeof e),
                          "\"score\": 6, \"max_score\": 6, \"status\": \"passed\", \"output\": \"pass (3 tests)\", "
                          "\"visibility\": \"visible\"}"),
                   "task merge (with a hidden test) not visible: '%s'", e);
    KIT_ASSERT_MSG(strstr(gs, "task stable: stability\", \"score\": 0, \"max_score\": 4, \"status\": \"failed\"") &&
                       strstr(gs, "?</failure><x>]]>&\\\\ ??[2J ?? caf\xc3\xa9\\nRerun it on your own file: make check "
                                  "LAB=01 TEST=s1; input: make run LAB=01 ARGS=\\\"--type i32 --m 0 --n 0 --gen random "
                                  "--seed 1\\\"\", \"visibility\": \"visible\"}"),
                   "task stable (public only) wrong or not visible:\n%s", gs);
    KIT_ASSERT_MSG(strstr(gs_entry(gs, "01-x test merge/p1\"", e, sizeof e),
                          "\"score\": 0, \"max_score\": 0, \"status\": \"passed\", \"output\": \"pass\", "
                          "\"visibility\": \"visible\"}"),
                   "public test p1 not visible: '%s'", e);
    KIT_ASSERT_MSG(strstr(gs, "02-y: not graded") != NULL, "the broken lab is missing:\n%s", gs);
    free(gs);

    /* p1 fails task merge: p2 and h1 did not run, and say so, with neither a score nor a status */
    lab_result *lab = &rep.labs[0];
    lab->tasks[0].v = lab->tests[0].v = V_WRONG;
    lab->tasks[0].points = 0;
    lab->tasks[0].failed_test = 0;
    report_total(&rep);
    for (int x = 1; x <= 3; x += 2) {
        lab->tests[x].v = V_WRONG;
        lab->tests[x].skipped = 1;
        snprintf(lab->tests[x].detail, sizeof lab->tests[x].detail, "not run: an earlier test of this task failed");
    }
    gs = write_report(report_gradescope);
    KIT_ASSERT_MSG(json_valid(gs), "invalid JSON:\n%s", gs);
    KIT_ASSERT_MSG(strcmp(gs_entry(gs, "01-x test merge/p2", e, sizeof e),
                          "{\"name\": \"01-x test merge/p2 (not run)\", \"output\": \"not run: an earlier test of this "
                          "task failed\", \"visibility\": \"visible\"}") == 0,
                   "p2, not run, is not an entry without score and status: '%s'", e);
    KIT_ASSERT_MSG(strstr(gs_entry(gs, "01-x test merge/h1 (hidden) (not run)", e, sizeof e), "after_due_date"),
                   "h1, not run, lost its name or visibility: '%s'", e);
    KIT_ASSERT_MSG(strstr(gs, "Total: 0/10") && strstr(gs, "not passed: merge, stable"), "summary:\n%s", gs);
    free(gs);

    /* a hidden test fails task merge: the visible task entry says so without its name or values */
    lab->tests[0].v = V_PASS;
    lab->tests[1].v = V_PASS, lab->tests[1].skipped = 0;
    lab->tests[3].v = V_WRONG, lab->tests[3].skipped = 0;
    snprintf(lab->tests[3].detail, sizeof lab->tests[3].detail, "wrong output (a hidden test: its values are not shown)");
    lab->tasks[0].failed_test = 3;
    snprintf(lab->tasks[0].detail, sizeof lab->tasks[0].detail, "hidden test h1: wrong output (values not shown)");
    gs = write_report(report_gradescope);
    KIT_ASSERT_MSG(strstr(gs_entry(gs, "01-x task merge", e, sizeof e),
                          "\"output\": \"failed a hidden test; its name and details show after the due date\", "
                          "\"visibility\": \"visible\"}") &&
                       !strstr(e, "h1"),
                   "a task failed by a hidden test shows it before the due date: '%s'", e);
    free(gs);

    /* the spec's visibility line: tasks after the due date, hidden tests never */
    snprintf(lab->visibility.tasks, sizeof lab->visibility.tasks, "after_due_date");
    snprintf(lab->visibility.hidden_tests, sizeof lab->visibility.hidden_tests, "hidden");
    gs = write_report(report_gradescope);
    KIT_ASSERT_MSG(strstr(gs_entry(gs, "01-x task merge", e, sizeof e),
                          "its name and details show never\", \"visibility\": \"after_due_date\"}"),
                   "task merge with tasks=after_due_date hidden=hidden: '%s'", e);
    KIT_ASSERT_MSG(strstr(gs_entry(gs, "01-x test merge/h1 (hidden)", e, sizeof e), "\"visibility\": \"hidden\"}"),
                   "hidden test with hidden=hidden: '%s'", e);
    KIT_ASSERT_MSG(strstr(gs_entry(gs, "01-x test merge/p1\"", e, sizeof e), "\"visibility\": \"visible\"}"),
                   "public test p1 moved with the other keys: '%s'", e);
    KIT_ASSERT_MSG(strstr(gs, "Hidden tests show their names and details never."), "summary:\n%s", gs);
    free(gs);
}

/* The spec's `visibility` line: each key set, later lines override, bad keys and values refused with their line. */
static void test_report_visibility_read(void)
{
    static const struct {
        const char *spec, *tasks, *pub, *hidden, *error;
    } cases[] = {
        {"lab 01-x\ntask merge 6 m\n", "", "", "", NULL},
        {"visibility hidden=after_published\n", "", "", "after_published", NULL},
        {"visibility tasks=after_due_date public=hidden\n# a comment\nvisibility tasks=visible\n", "visible", "hidden",
         "", NULL},
        {"lab 01-x\n\nvisibility hidden=soon\n", "", "", "", "s.spec:3: 'hidden=soon': a visibility is visible"},
        {"visibility all=visible\n", "", "", "", "s.spec:1: visibility takes tasks=V, public=V and hidden=V, not 'all=visible'"},
        {"visibility tasks\n", "", "", "", "not 'tasks'"},
        {"visibility\n", "", "", "", "s.spec:1: visibility needs tasks=V, public=V or hidden=V"},
        {"visibility publicity=visible\n", "", "", "", "not 'publicity=visible'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        report_visibility v;
        char err[256] = "";
        memset(&v, 0, sizeof v);
        FILE *f = tmpfile();
        fputs(cases[i].spec, f);
        rewind(f);
        int rc = report_visibility_read(f, "s.spec", &v, err, sizeof err);
        fclose(f);
        if (cases[i].error)
            KIT_ASSERT_MSG(rc == -1 && strstr(err, cases[i].error), "spec '%s': expected -1 and '%s', got %d '%s'",
                           cases[i].spec, cases[i].error, rc, err);
        else
            KIT_ASSERT_MSG(rc == 0 && strcmp(v.tasks, cases[i].tasks) == 0 && strcmp(v.public_tests, cases[i].pub) == 0 &&
                               strcmp(v.hidden_tests, cases[i].hidden) == 0,
                           "spec '%s': expected 0 and '%s' '%s' '%s', got %d '%s' '%s' '%s' (%s)", cases[i].spec,
                           cases[i].tasks, cases[i].pub, cases[i].hidden, rc, v.tasks, v.public_tests, v.hidden_tests,
                           err);
    }
    /* spec_parse() reads past the line, so one spec file serves both */
    char err[256];
    spec_lab lab;
    memset(&lab, 0, sizeof lab);
    FILE *f = tmpfile();
    fputs("lab 01-x\ntitle T\nfile x.cuh\nvisibility hidden=hidden\ntask merge 6 m\ntest merge public p1 op=merge\n", f);
    rewind(f);
    int rc = spec_parse(f, "t.spec", 0, &lab, err, sizeof err);
    fclose(f);
    KIT_ASSERT_MSG(rc == 0, "spec_parse refused a spec with a visibility line: %s", err);
}

/* The Markdown feedback page: the score table, each failing test's line in a code block with its rerun command. */
static void test_report_markdown(void)
{
    fill_report();
    char *md = write_report(report_markdown);
    KIT_ASSERT_MSG(first_unsafe_byte(md, "\n") < 0, "report_markdown wrote invalid UTF-8 or control bytes");
    KIT_ASSERT_MSG(strncmp(md, "# Grading report: students/\"PASS\"?&lt;/failure&gt;&lt;x&gt;\\]\\]&gt;&amp;\\\\ ", 70) == 0,
                   "the title does not escape the submission's name:\n%s", md);
    KIT_ASSERT_MSG(strstr(md, "**Total: 6/10 (60.0%)**") && strstr(md, "| 01-x | merge | 6/6 | pass |\n") &&
                       strstr(md, "| 01-x | stable | 0/4 | wrong |\n") && strstr(md, "| **total** | | **6/10** | |\n"),
                   "no score table:\n%s", md);
    KIT_ASSERT_MSG(strstr(md, "### 01-x, task stable: 0/4\n\nPublic test s1 failed:\n\n    \"PASS\"?</failure><x>]]>&\\ "
                              "??[2J ?? caf\xc3\xa9\n\nRerun it on your own file:\n\n    make check LAB=01 TEST=s1\n"),
                   "the failing test, its line and its command:\n%s", md);
    KIT_ASSERT_MSG(!strstr(md, "task merge:"), "a passing task has a section:\n%s", md);
    free(md);

    lab_result *lab = &rep.labs[0]; /* a hidden test fails merge after p1 passed; p2 did not run */
    lab->tasks[0].v = lab->tests[3].v = V_WRONG;
    lab->tests[1].skipped = 1, lab->tests[1].v = V_WRONG;
    snprintf(lab->tests[3].detail, sizeof lab->tests[3].detail, "wrong output (a hidden test: its values are not shown)");
    md = write_report(report_markdown);
    KIT_ASSERT_MSG(strstr(md, "Hidden test h1 failed:\n\n    wrong output (a hidden test: its values are not shown)\n\n"
                              "A hidden test cannot be run on your side; this runs the public ones:\n\n    make check LAB=01\n") &&
                       strstr(md, "1 more test of this task did not run"),
                   "the hidden test and the one not run:\n%s", md);
    free(md);

    lab->whole = V_COMPILE; /* no runner: one section for the lab */
    for (int t = 0; t < 2; t++) {
        lab->tasks[t].v = V_COMPILE;
        snprintf(lab->tasks[t].detail, sizeof lab->tasks[t].detail, "compile error (exit 1): x.cuh:3: error: oops");
    }
    md = write_report(report_markdown);
    KIT_ASSERT_MSG(strstr(md, "### 01-x: 0/10\n\nNo test of this lab ran:\n\n    compile error (exit 1): x.cuh:3: error: oops\n") &&
                       !strstr(md, "task merge"),
                   "a lab that did not build:\n%s", md);
    free(md);

    rep.nlabs = 1; /* all passing */
    for (int t = 0; t < 2; t++)
        lab->tasks[t].v = V_PASS;
    md = write_report(report_markdown);
    KIT_ASSERT_MSG(strstr(md, "Every task passed.\n") && !strstr(md, "##"), "all passing:\n%s", md);
    free(md);
}

static void test_report_junit(void)
{
    fill_report();
    char *xml = write_report(report_junit);
    KIT_ASSERT_MSG(first_unsafe_byte(xml, "\n") < 0, "report_junit wrote invalid UTF-8 or control bytes");
    KIT_ASSERT_MSG(strncmp(xml, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites ", 50) == 0, "header:\n%s",
                   xml);
    KIT_ASSERT_MSG(strstr(xml, "tests=\"5\" failures=\"1\" errors=\"1\" skipped=\"0\"") != NULL,
                   "wrong totals:\n%s", xml);
    KIT_ASSERT_MSG(strstr(xml, "<testcase classname=\"01-x.merge\" name=\"h1\" time=\"0.250\"/>") != NULL,
                   "no passing h1:\n%s", xml);
    KIT_ASSERT_MSG(strstr(xml, "<failure type=\"wrong\" message=\"&quot;PASS&quot;?&lt;/failure&gt;&lt;x&gt;]]&gt;"
                               "&amp;\\ ??[2J") != NULL,
                   "the nasty failure is not escaped:\n%s", xml);
    /* nothing of the nasty text may appear raw */
    KIT_ASSERT_MSG(strstr(xml, "</failure><x>") == NULL && strstr(xml, "]]>") == NULL, "raw markup leaked:\n%s", xml);
    KIT_ASSERT_MSG(strstr(xml, "<error type=\"spec\"") != NULL, "the broken lab is no error:\n%s", xml);
    /* 5 testcases: 3 passing ones close themselves, the failing one and the spec error have end tags */
    int open = 0, closed = 0;
    for (const char *p = xml; (p = strstr(p, "<testcase")); p++)
        open++;
    for (const char *p = xml; (p = strstr(p, "</testcase>")); p++)
        closed++;
    KIT_ASSERT_MSG(open == 5 && closed == 2, "%d testcases opened, %d closed with an end tag", open, closed);
    KIT_ASSERT_MSG(strstr(xml, "</testsuite>\n</testsuites>\n") != NULL, "the document is not closed:\n%s", xml);
    free(xml);
}

static void test_report_table_and_tsv(void)
{
    fill_report();
    char *table = write_report(report_table);
    KIT_ASSERT_MSG(strstr(table, "  merge        6/6    pass (3 tests)\n") && strstr(table, "TOTAL 6/10 (60.0%)\n") &&
                       strstr(table, "== 02-y: spec error, not graded =="),
                   "table:\n%s", table);
    KIT_ASSERT_MSG(strstr(table, " caf\xc3\xa9; input: make run LAB=01 ARGS=\"--type i32 --m 0 --n 0 --gen random --seed 1\"; "
                                 "rerun: make check LAB=01 TEST=s1\n"),
                   "the failing task's line lacks the command that reruns s1:\n%s", table);
    free(table);
    rep.labs[0].tasks[1].failed_test = 3; /* had the hidden h1 failed the task, no command could rerun it */
    table = write_report(report_table);
    KIT_ASSERT_MSG(!strstr(table, "rerun"), "a hidden test's failure names a command:\n%s", table);
    free(table);
    char *tsv = write_report(report_tsv);
    KIT_ASSERT_MSG(strncmp(tsv, "01-x\tmerge\t6\t6\tpass\tpass (3 tests)\n01-x\tstable\t0\t4\twrong\tpublic test s1: "
                                "\"PASS\"?</failure>", 70) == 0,
                   "tsv:\n%s", tsv);
    int lines = 0;
    for (const char *p = tsv; *p; p++)
        lines += *p == '\n';
    KIT_ASSERT_MSG(lines == 2, "the TSV has %d lines, expected 2 (line breaks in a detail must not split it)", lines);
    free(tsv);
}

static void test_report_rerun(void)
{
    char buf[160];
    report_rerun(buf, sizeof buf, "02-co-rank", "b-below-a");
    KIT_ASSERT_MSG(strcmp(buf, "make check LAB=02 TEST=b-below-a") == 0, "report_rerun with a test: '%s'", buf);
    report_rerun(buf, sizeof buf, "07-cf-gather", NULL);
    KIT_ASSERT_MSG(strcmp(buf, "make check LAB=07") == 0, "report_rerun for the lab: '%s'", buf);
}

/*
 * report_run_input on every public test of every lab: the driver's own option parser (kit_args_parse)
 * reads back from its ARGS the test's type, sizes, generator, seed, query set, search and launch.
 */
static void test_report_run_input(void)
{
    glob_t g;
    CU_ASSERT_EQUAL_FATAL(glob("labs/*/grading.spec", 0, NULL, &g), 0);
    int checked = 0;
    for (size_t s = 0; s < g.gl_pathc; s++) {
        static spec_lab one;
        char err[256], cmd[600], lab_name[64];
        memset(&one, 0, sizeof one);
        FILE *f = fopen(g.gl_pathv[s], "r");
        int rc = f ? spec_parse(f, g.gl_pathv[s], 0, &one, err, sizeof err) : -1;
        if (f)
            fclose(f);
        KIT_ASSERT_MSG(rc == 0, "%s: %s", g.gl_pathv[s], err);
        snprintf(lab_name, sizeof lab_name, "%s", one.lab);
        for (int x = 0; rc == 0 && x < one.ntests; x++) {
            const spec_test *t = &one.tests[x];
            report_run_input(cmd, sizeof cmd, lab_name, t);
            char prefix[32], args[600], *argv[40] = {(char *)"driver"};
            snprintf(prefix, sizeof prefix, "make run LAB=%.2s ARGS=\"", lab_name);
            KIT_ASSERT_MSG(strncmp(cmd, prefix, strlen(prefix)) == 0 && cmd[strlen(cmd) - 1] == '"', "%s", cmd);
            snprintf(args, sizeof args, "%.*s", (int)(strlen(cmd) - strlen(prefix) - 1), cmd + strlen(prefix));
            int argc = 1;
            for (char *save, *w = strtok_r(args, " ", &save); w && argc < 39; w = strtok_r(NULL, " ", &save))
                argv[argc++] = w;
            kit_args a;
            kit_args_defaults(&a);
            rc = kit_args_parse(&a, argc, argv, err, sizeof err);
            KIT_ASSERT_MSG(rc == 0, "%s test %s: %s: %s", lab_name, t->name, cmd, err);
            int worst = strcmp(t->op, "worst") == 0, sort = strcmp(t->op, "sort") == 0, pbs = strcmp(t->op, "pbs") == 0;
            if (worst) {
                KIT_ASSERT_MSG(a.threads == t->w && a.tile == t->E, "%s test %s: %s", lab_name, t->name, cmd);
                continue;
            }
            int launch = sort ? a.threads == t->u && a.tile == t->E
                              : a.blocks == t->blocks && (!t->blocks || a.threads == t->u);
            KIT_ASSERT_MSG(a.type == t->type && a.m == t->m && (sort || a.n == t->n) && a.gen == t->gen &&
                               a.seed == t->seed && launch && (!pbs || strcmp(a.queries, kit_pbs_queries_name(t->queries)) == 0) &&
                               ((!pbs && !sort) || a.alg),
                           "%s test %s: %s does not carry its input", lab_name, t->name, cmd);
            checked++;
        }
    }
    globfree(&g);
    KIT_ASSERT_MSG(checked > 50, "only %d tests checked", checked);
}

static void brief_of_report(FILE *f, const grade_report *r)
{
    report_brief(f, r, NULL);
}

/* Writes make check's report of rep, with its exit status in *status. */
static char *write_brief(const char *note, int *status)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    *status = report_brief(f, &rep, note);
    fclose(f);
    return buf;
}

/* make check's report: a line per failure with its rerun command, one per skeleton task, one per unbuilt lab. */
static void test_report_brief(void)
{
    int status;
    fill_report();
    char *out = write_brief(NULL, &status);
    KIT_ASSERT_MSG(status == 1 && strstr(out, "  FAIL test s1 (task stable): \"PASS\"?</failure>") &&
                       strstr(out, " caf\xc3\xa9; input: make run LAB=01 ARGS=\"--type i32 --m 0 --n 0 --gen random "
                                   "--seed 1\"; rerun: make check LAB=01 TEST=s1\n") &&
                       strstr(out, "lab 01-x, CPU build: 3 of 4 tests pass\n") &&
                       strstr(out, "  FAIL lab 02-y: labs/02-y/grading.spec:3: unknown directive <"),
                   "a wrong public test and a broken spec (exit %d):\n%s", status, out);
    free(out);

    rep.nlabs = 1; /* every test passes: one quiet line */
    rep.labs[0].tasks[1].v = rep.labs[0].tests[2].v = V_PASS;
    rep.labs[0].spec.tests[3].hidden = 0;
    out = write_brief("no GPU here", &status);
    KIT_ASSERT_MSG(status == 0 && strcmp(out, "lab 01-x, CPU build: 4 of 4 public tests pass (no GPU here)\n") == 0,
                   "all passing (exit %d):\n%s", status, out);
    free(out);

    lab_result *lab = &rep.labs[0]; /* a skeleton: task merge reached its marker in all three tests */
    lab->tasks[0].v = lab->tests[0].v = lab->tests[1].v = lab->tests[3].v = V_NOT_ATTEMPTED;
    lab->tasks[0].failed_test = 0;
    snprintf(lab->tasks[0].detail, sizeof lab->tasks[0].detail, "not implemented: lab 01:merge in labs/01-x/x.cuh");
    out = write_brief(NULL, &status);
    KIT_ASSERT_MSG(status == 1 && strcmp(out, "  FAIL task merge: not implemented: lab 01:merge in labs/01-x/x.cuh; "
                                              "rerun: make check LAB=01\nlab 01-x, CPU build: 1 of 4 public tests "
                                              "pass\n") == 0,
                   "a skeleton's task (exit %d):\n%s", status, out);
    free(out);

    lab->whole = V_COMPILE; /* no runner: one line for the lab */
    snprintf(lab->tasks[0].detail, sizeof lab->tasks[0].detail, "compile error (exit 1): x.cuh:3: error: oops");
    out = write_brief(NULL, &status);
    KIT_ASSERT_MSG(status == 1 && strcmp(out, "  FAIL lab 01-x: compile error (exit 1): x.cuh:3: error: oops; rerun: "
                                              "make check LAB=01\nlab 01-x, CPU build: 0 of 4 public tests pass\n") == 0,
                   "a lab that did not build (exit %d):\n%s", status, out);
    free(out);
}

/* --calibrate's thresholds file: one line per test with a threshold, the count or "not-measured". */
static void test_report_calibration(void)
{
    char err[256];
    memset(&rep, 0, sizeof rep);
    rep.mode = "cpu";
    rep.nlabs = 1;
    lab_result *lab = &rep.labs[0];
    FILE *f = tmpfile();
    fputs("lab 06-x\ntitle T\nfile x.cuh\ntask cf 5 cf\n"
          "test cf public a op=pbs m=10 n=5 blocks=1 u=32 conflicts<=0 kernel=pbs_kernel\n"
          "test cf public b op=pbs m=10 n=5 blocks=1 u=32\n"
          "test cf public c op=pbs m=10 n=5 blocks=1 u=32 conflicts>=7\n",
          f);
    rewind(f);
    KIT_ASSERT_MSG(spec_parse(f, "t.spec", 0, &lab->spec, err, sizeof err) == 0, "spec: %s", err);
    fclose(f);
    lab->spec_ok = 1;
    lab->tests[0].conflicts = 3;
    lab->tests[1].conflicts = -1;
    lab->tests[2].conflicts = -1;
    char *out = write_report(report_calibration);
    KIT_ASSERT_MSG(out && strstr(out, "06-x\ta\tpbs_kernel\tconflicts<=0\t3\tsimulated\tcpu\n") &&
                       strstr(out, "06-x\tc\t-\tconflicts>=7\tnot-measured\t-\tcpu\n") && !strstr(out, "\tb\t"),
                   "thresholds file:\n%s", out ? out : "(none)");
    free(out);
}

static void test_report_write_file(void)
{
    fill_report();
    char dir[] = "/tmp/kit-report-XXXXXX", path[256];
    KIT_ASSERT_MSG(mkdtemp(dir) != NULL, "mkdtemp failed");
    snprintf(path, sizeof path, "%s/out.json", dir);
    KIT_ASSERT_MSG(report_write_file(path, report_json, &rep) == 0, "report_write_file failed");
    FILE *f = fopen(path, "r");
    char text[65536];
    size_t got = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[got] = '\0';
    if (f)
        fclose(f);
    KIT_ASSERT_MSG(got > 0 && json_valid(text), "the file holds no valid JSON (%zu bytes)", got);
    remove(path);
    KIT_ASSERT_MSG(rmdir(dir) == 0, "a temporary file was left in %s", dir);
    char said[256];
    kit_test_stderr_begin();
    int rc = report_write_file("/no/such/dir/out.json", report_json, &rep);
    kit_test_stderr_end(said, sizeof said);
    KIT_ASSERT_MSG(rc == -1, "writing into a missing folder did not fail");
    KIT_ASSERT_MSG(strstr(said, "grader: cannot write /no/such/dir/out.json: No such file or directory"),
                   "writing into a missing folder: expected \"grader: cannot write ...\" on stderr, got \"%s\"", said);
}

/* The kit's own specs: every test of grader/hidden/NN.spec is hidden (its draws too), every test of the lab's spec public. */
static void test_hidden_specs_marked(void)
{
    const char *labs[] = {"01-sequential-merge", "02-co-rank"};
    const unsigned char key[32] = {1};
    for (int l = 0; l < 2; l++) {
        char path[256], err[256];
        memset(&lab, 0, sizeof lab);
        snprintf(path, sizeof path, "labs/%s/grading.spec", labs[l]);
        FILE *f = fopen(path, "r");
        KIT_ASSERT_MSG(f && spec_parse(f, path, 0, &lab, err, sizeof err) == 0, "%s: %s", path, f ? err : "missing");
        if (f)
            fclose(f);
        int public_tests = lab.ntests;
        snprintf(path, sizeof path, "grader/hidden/%s.spec", labs[l]);
        f = fopen(path, "r");
        KIT_ASSERT_MSG(f && spec_parse(f, path, 1, &lab, err, sizeof err) == 0, "%s: %s", path, f ? err : "missing");
        if (f)
            fclose(f);
        KIT_ASSERT_MSG(spec_draw_tests(&lab, key, err, sizeof err) == 0 && lab.ntests > public_tests,
                       "%s adds no hidden tests (%s)", path, err);
        for (int x = 0; x < lab.ntests; x++)
            KIT_ASSERT_MSG(lab.tests[x].hidden == (x >= public_tests), "%s test %s: hidden is %d", labs[l],
                           lab.tests[x].name, lab.tests[x].hidden);
    }
}

/* ---- every output, fed what a hostile submission can print ------------------ */

/*
 * What a submission might print to fool whoever reads the results: clear the
 * screen, retitle the terminal, CR and BS to overwrite, a C1 CSI, a bidi
 * override, a stray byte; then the characters each format must escape. The
 * "é" is real text that must survive. Short enough for a kernel name (48).
 */
static const char HOSTILE[] = "\x1b[2J\x1b]0;title\x07\r\b\xe2\x80\xae\xff caf\xc3\xa9 \xc2\x9b<&\"',\t\\";
/* The same shape with nothing hostile: as many spaces, so the summary splits both into as many words. */
static const char PLAIN[] = "plain caf\xc3\xa9 text";

/* fill_report(), then `text` in every string a submission reaches, and a kernel name for --calibrate. */
static void fill_with(const char *text)
{
    fill_report();
    snprintf(rep.submission, sizeof rep.submission, "%s", text);
    lab_result *lab = &rep.labs[0];
    for (int t = 0; t < 2; t++)
        snprintf(lab->tasks[t].detail, sizeof lab->tasks[t].detail, "public test s1: %s", text);
    for (int x = 0; x < 4; x++)
        snprintf(lab->tests[x].detail, sizeof lab->tests[x].detail, "%s", text);
    snprintf(rep.labs[1].spec_error, sizeof rep.labs[1].spec_error, "unknown directive <%s>", text);
    spec_test *s1 = &lab->spec.tests[2];
    s1->conflict_cmp = '<';
    snprintf(s1->kernel, sizeof s1->kernel, "%s", text); /* a spec is trusted, but --calibrate cleans it too */
    lab->tests[2].conflicts = 5;
}

/* A file's whole text (the caller frees it), or NULL. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    for (int c; f && (c = fgetc(f)) != EOF;)
        fputc(c, out);
    fclose(out);
    if (f)
        fclose(f);
    return f ? buf : (free(buf), NULL);
}

/* Batch mode's gradebook with the report's submission as the one student, as gradebook_save() writes it. */
static void write_gradebook(FILE *f, const grade_report *r)
{
    char dir[] = "/tmp/kit-gbw-XXXXXX", path[64], err[256];
    gradebook gb;
    if (!mkdtemp(dir))
        return;
    snprintf(path, sizeof path, "%s/gb.csv", dir);
    if (gradebook_init(&gb, r) == 0 && gradebook_put(&gb, r->submission, r) == 0 &&
        gradebook_save(path, &gb, err, sizeof err) == 0) {
        char *text = read_text(path);
        fputs(text ? text : "", f);
        free(text);
    }
    gradebook_free(&gb);
    remove(path);
    rmdir(dir);
}

/* Batch mode's summary of that gradebook, its failures column holding the submission's name (as a forged file could). */
static void write_summary(FILE *f, const grade_report *r)
{
    gradebook gb;
    if (gradebook_init(&gb, r) == 0 && gradebook_put(&gb, r->submission, r) == 0) {
        free(gb.rows[0][GB_FAILURES]);
        gb.rows[0][GB_FAILURES] = strdup(r->submission);
        gradebook_summary(f, &gb, 5);
    }
    gradebook_free(&gb);
}

/* Batch mode's progress line for the report's submission. */
static void write_progress(FILE *f, const grade_report *r)
{
    gradebook_progress(f, r->submission, r);
}

static const char *json_problem(const char *text, long *at)
{
    *at = json_valid(text) ? -1 : json_reached - text;
    return *at < 0 ? NULL : "not valid JSON";
}

/* Length of the XML entity at p (&amp; &lt; &gt; &quot; &apos; &#N;), or 0 when p starts none. */
static size_t xml_entity(const char *p)
{
    static const char *const names[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
    for (int i = 0; i < 5; i++)
        if (strncmp(p, names[i], strlen(names[i])) == 0)
            return strlen(names[i]);
    size_t digits = p[1] == '#' ? strspn(p + 2, "0123456789") : 0;
    return digits && p[2 + digits] == ';' ? digits + 3 : 0;
}

/* Reads the tag at p (a '<'), pushing or popping `open`; returns where it ends, or where *why went wrong. */
static const char *xml_tag(const char *p, char open[][32], int *depth, const char **why)
{
    int closing = p[1] == '/';
    const char *q = p + 1 + closing;
    size_t n = strspn(q, "abcdefghijklmnopqrstuvwxyz");
    char name[32];
    if (n == 0 || n >= sizeof name)
        return *why = "a '<' that starts no tag", p;
    memcpy(name, q, n);
    name[n] = '\0';
    q += n;
    if (closing) {
        if (*q != '>' || *depth == 0 || strcmp(open[*depth - 1], name) != 0)
            return *why = "an end tag that closes no open tag", p;
        (*depth)--;
        return q + 1;
    }
    for (q += strspn(q, " "); *q != '>' && strncmp(q, "/>", 2) != 0; q += strspn(q, " ")) {
        size_t a = strspn(q, "abcdefghijklmnopqrstuvwxyz");
        if (a == 0 || q[a] != '=' || q[a + 1] != '"')
            return *why = "an attribute that is not name=\"value\"", q;
        for (q += a + 2; *q != '"'; q++)
            if (*q == '<' || *q == '\0' || (*q == '&' && !xml_entity(q)))
                return *why = "a '<', a bare '&' or the end inside an attribute value", q;
        q++;
    }
    if (*q == '/')
        return q + 2;
    if (*depth == 8)
        return *why = "tags nested too deep", p;
    strcpy(open[(*depth)++], name);
    return q + 1;
}

/*
 * A small XML checker for the tests: after the declaration, tags nest and
 * close by name, attributes are name="value" with no '<' in the value, every
 * '&' starts an entity, and no '>' stands in text (the writer escapes it).
 */
static const char *xml_problem(const char *text, long *at)
{
    char open[8][32];
    int depth = 0;
    const char *p = text, *why = NULL, *decl = strstr(text, "?>");
    if (strncmp(p, "<?xml ", 6) == 0 && decl)
        p = decl + 2;
    while (*p && !why) {
        size_t entity = *p == '&' ? xml_entity(p) : 1;
        if (*p == '<')
            p = xml_tag(p, open, &depth, &why);
        else if (entity == 0 || *p == '>')
            why = entity ? "a '>' in text" : "an '&' that starts no entity";
        else
            p += entity;
    }
    if (!why && depth)
        why = "a tag left open";
    *at = why ? p - text : -1;
    return why;
}

/* The gradebook's CSV: every record reads back, each with as many fields as the header. */
static const char *csv_problem(const char *text, long *at)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    char **fields;
    const char *why = NULL;
    int n, header = -1, rc;
    long start = 0;
    while ((rc = gradebook_read_record(f, &fields, &n, &why)) == 1) {
        gradebook_free_fields(fields, n);
        if (header < 0)
            header = n;
        if (n != header) {
            why = "a record with another number of fields than the header";
            break;
        }
        start = ftell(f);
    }
    fclose(f);
    *at = why ? start : -1;
    return why;
}

/* One output format and what makes its text well-formed. */
typedef struct out_format {
    const char *name;
    void (*write)(FILE *, const grade_report *);
    const char *separators; /* the control bytes the format writes itself */
    int fields;             /* tab-separated fields on every line, or 0 */
    const char *(*problem)(const char *text, long *at); /* NULL when well-formed; at: where not; NULL: no check */
} out_format;

/* Lines of text and, when fields > 0, the first line with another number of tab-separated fields (or -1). */
static int count_lines_fields(const char *text, int fields, long *bad_line_at)
{
    int lines = 0, tabs = 0;
    *bad_line_at = -1;
    for (const char *p = text, *line = text; *p; p++) {
        tabs += *p == '\t';
        if (*p != '\n')
            continue;
        if (fields && tabs + 1 != fields && *bad_line_at < 0)
            *bad_line_at = line - text;
        lines++;
        tabs = 0;
        line = p + 1;
    }
    return lines;
}

/* Checks one format's output of the hostile report against its output of the plain one. */
static void check_format(const out_format *fm)
{
    fill_with(PLAIN);
    char *plain = write_report(fm->write);
    fill_with(HOSTILE);
    char *out = write_report(fm->write);
    long bad = first_unsafe_byte(out, fm->separators), at;
    KIT_ASSERT_MSG(bad < 0, "%s: byte %ld is 0x%02x, which could fool a reader", fm->name, bad,
                   bad >= 0 ? (unsigned char)out[bad] : 0);
    KIT_ASSERT_MSG(strstr(out, "caf\xc3\xa9") != NULL, "%s: the valid UTF-8 \"caf\\xc3\\xa9\" did not survive (%zu bytes)",
                   fm->name, strlen(out));
    int want = count_lines_fields(plain, fm->fields, &at), got = count_lines_fields(out, fm->fields, &at);
    KIT_ASSERT_MSG(got == want, "%s: %d lines, %d with plain text: a line break got through", fm->name, got, want);
    KIT_ASSERT_MSG(at < 0, "%s: the line at byte %ld (0x%02x) has not %d tab-separated fields", fm->name, at,
                   at >= 0 ? (unsigned char)out[at] : 0, fm->fields);
    const char *why = fm->problem ? fm->problem(out, &at) : NULL;
    KIT_ASSERT_MSG(why == NULL, "%s: not well-formed at byte %ld (0x%02x): %s", fm->name, at,
                   why ? (unsigned char)out[at] : 0, why ? why : "");
    free(plain);
    free(out);
}

/* Every output the grader writes, fed a report full of HOSTILE: no byte of it may fool a reader. */
static void test_hostile_text_everywhere(void)
{
    static const out_format formats[] = {
        {"text table", report_table, "\n", 0, NULL},
        {"make check's report", brief_of_report, "\n", 0, NULL},
        {"TSV", report_tsv, "\n\t", 6, NULL},
        {"JSON", report_json, "\n", 0, json_problem},
        {"Gradescope results.json", report_gradescope, "\n", 0, json_problem},
        {"JUnit XML", report_junit, "\n", 0, xml_problem},
        {"calibration file", report_calibration, "\n\t", 7, NULL},
        {"gradebook CSV", write_gradebook, "\n", 0, csv_problem},
        {"batch progress line", write_progress, "\n", 0, NULL},
        {"batch summary", write_summary, "\n", 0, NULL},
    };
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        check_format(&formats[i]);
    /* the checkers themselves catch what they are there for */
    long at;
    KIT_ASSERT_MSG(first_unsafe_byte(HOSTILE, "") == 0, "the scanner missed ESC");
    KIT_ASSERT_MSG(xml_problem("<a b=\"<\"/>", &at) && xml_problem("<a>x & y</a>", &at) &&
                       xml_problem("<a><b></a>", &at) && !xml_problem("<a b=\"&lt;\">&amp;</a>", &at),
                   "the XML checker is wrong");
    KIT_ASSERT_MSG(csv_problem("a,b\nc\n", &at) && at == 4 && !csv_problem("a,b\n\"c,d\",e\n", &at),
                   "the CSV checker is wrong");
}

/* ---- the gradebook ------------------------------------------------------------ */

/* Reads every record of text; returns how many, fields of record `want` in out (caller frees). */
static int read_records(const char *text, int want, char ***out, int *nout)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    char **fields;
    int n, count = 0, rc;
    *out = NULL;
    *nout = 0;
    while ((rc = gradebook_read_record(f, &fields, &n, NULL)) == 1) {
        if (count++ == want) {
            *out = fields;
            *nout = n;
        } else
            gradebook_free_fields(fields, n);
    }
    fclose(f);
    return rc < 0 ? -1 : count;
}

static void test_csv_records(void)
{
    char **fields;
    int n;
    int count = read_records("a,b,c\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\r\nlast,,\n", 1, &fields, &n);
    KIT_ASSERT_MSG(count == 3 && n == 3, "read %d records, the second with %d fields", count, n);
    if (n == 3) {
        CU_ASSERT_STRING_EQUAL(fields[0], "x, y");
        CU_ASSERT_STRING_EQUAL(fields[1], "say \"hi\"");
        CU_ASSERT_STRING_EQUAL(fields[2], "two\nlines");
    }
    gradebook_free_fields(fields, n);
    count = read_records("a,b,c\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\r\nlast,,\n", 2, &fields, &n);
    KIT_ASSERT_MSG(n == 3 && strcmp(fields[0], "last") == 0 && fields[1][0] == '\0' && fields[2][0] == '\0',
                   "the record with empty fields came back with %d fields", n);
    gradebook_free_fields(fields, n);
    /* a field written by report_csv_field comes back as it was, formulas included */
    const char *names[] = {"=HYPERLINK(\"x\")", "-1", "a,b", "'=kept", "plain"};
    for (int i = 0; i < 5; i++) {
        char *text = capture(report_csv_field, names[i]);
        char line[256];
        snprintf(line, sizeof line, "%s\n", text);
        free(text);
        count = read_records(line, 0, &fields, &n);
        KIT_ASSERT_MSG(count == 1 && n == 1 && strcmp(fields[0], names[i]) == 0, "[%s] came back as [%s]", names[i],
                       n ? fields[0] : "(nothing)");
        gradebook_free_fields(fields, n);
    }
    KIT_ASSERT_MSG(read_records("\"never closed\n", 0, &fields, &n) == -1, "an unclosed quote was accepted");
    KIT_ASSERT_MSG(read_records("\"a\"b\n", 0, &fields, &n) == -1, "text after a closing quote was accepted");
    KIT_ASSERT_MSG(read_records("a\"b\n", 0, &fields, &n) == -1, "a quote inside a field was accepted");
    KIT_ASSERT_MSG(read_records("", 0, &fields, &n) == 0, "an empty file has records");
}

static void test_gradebook_round_trip(void)
{
    char dir[] = "/tmp/kit-gb-XXXXXX", path[256], err[256];
    KIT_ASSERT_MSG(mkdtemp(dir) != NULL, "mkdtemp failed");
    snprintf(path, sizeof path, "%s/gradebook.csv", dir);
    fill_report();
    gradebook gb, back;
    KIT_ASSERT_MSG(gradebook_load(path, &back, err, sizeof err) == 0 && back.ncols == 0 && back.nrows == 0,
                   "a missing gradebook is not an empty one: %s", err);
    KIT_ASSERT_MSG(gradebook_init(&gb, &rep) == 0 && gb.ncols == GB_FIXED + 2, "init gave %d columns", gb.ncols);
    CU_ASSERT_STRING_EQUAL(gb.header[GB_FIXED], "01-x/merge");
    CU_ASSERT_STRING_EQUAL(gb.header[GB_FIXED + 1], "01-x/stable");
    KIT_ASSERT_MSG(gradebook_put(&gb, "alice", &rep) == 0 && gradebook_put(&gb, NASTY, &rep) == 0, "put failed");
    rep.labs[0].tasks[1].v = V_PASS; /* alice again, now with full marks: her row is replaced */
    rep.labs[0].tasks[1].points = 4;
    report_total(&rep);
    KIT_ASSERT_MSG(gradebook_put(&gb, "alice", &rep) == 0 && gb.nrows == 2, "%d rows after regrading alice", gb.nrows);
    KIT_ASSERT_MSG(gradebook_save(path, &gb, err, sizeof err) == 0, "save: %s", err);
    KIT_ASSERT_MSG(gradebook_load(path, &back, err, sizeof err) == 0, "load: %s", err);
    KIT_ASSERT_MSG(back.nrows == 2 && gradebook_same_columns(&gb, &back), "read back %d rows", back.nrows);
    int a = gradebook_find(&back, "alice"), nasty = gradebook_find(&back, NASTY);
    KIT_ASSERT_MSG(a == 0 && nasty == 1, "alice at %d, the nasty name at %d", a, nasty);
    if (a == 0 && nasty == 1) {
        char **r = back.rows[a];
        KIT_ASSERT_MSG(strcmp(r[GB_SCORE], "10") == 0 && strcmp(r[GB_MAX], "10") == 0 &&
                           strcmp(r[GB_PERCENT], "100.0") == 0 && r[GB_FAILURES][0] == '\0' &&
                           strcmp(r[GB_FIXED], "6") == 0 && strcmp(r[GB_FIXED + 1], "4") == 0,
                       "alice's row: %s %s %s [%s] %s %s", r[GB_SCORE], r[GB_MAX], r[GB_PERCENT], r[GB_FAILURES],
                       r[GB_FIXED], r[GB_FIXED + 1]);
        r = back.rows[nasty];
        KIT_ASSERT_MSG(strcmp(r[GB_SCORE], "6") == 0 && strcmp(r[GB_FAILURES], "01-x/stable:wrong") == 0,
                       "the second row: %s [%s]", r[GB_SCORE], r[GB_FAILURES]);
    }
    KIT_ASSERT_MSG(gradebook_find(&back, "bob") == -1, "bob was found");

    /* the summary counts the distribution and the failures */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    gradebook_summary(f, &back, 5);
    fclose(f);
    KIT_ASSERT_MSG(strstr(text, "Summary: 2 students, mean 80.0%") && strstr(text, "90-100%    1  #\n") &&
                       strstr(text, "60-69%    1  #\n") && strstr(text, "     1  01-x/stable:wrong\n"),
                   "summary:\n%s", text);
    free(text);

    /* a gradebook of other columns is told apart; a file that is not a gradebook is refused */
    gradebook other;
    rep.nlabs = 1;
    rep.labs[0].spec.ntasks = 1;
    gradebook_init(&other, &rep);
    KIT_ASSERT_MSG(!gradebook_same_columns(&gb, &other), "a gradebook with fewer columns looks the same");
    gradebook_free(&other);
    f = fopen(path, "w");
    fputs("name,points\nalice,3\n", f);
    fclose(f);
    KIT_ASSERT_MSG(gradebook_load(path, &other, err, sizeof err) == -1 && strstr(err, "not a gradebook"),
                   "a foreign CSV was loaded: %s", err);
    f = fopen(path, "w");
    fputs("student,score,max,percent,failures\nalice,3\n", f);
    fclose(f);
    KIT_ASSERT_MSG(gradebook_load(path, &other, err, sizeof err) == -1 && strstr(err, "record 2 has 2 fields"),
                   "a short row was loaded: %s", err);
    KIT_ASSERT_MSG(gradebook_save("/no/such/dir/gb.csv", &gb, err, sizeof err) == -1, "saving into a missing folder");
    gradebook_free(&gb);
    gradebook_free(&back);
    remove(path);
    KIT_ASSERT_MSG(rmdir(dir) == 0, "a temporary file was left in %s", dir);
}

/* Folder names a student could choose; each must make exactly one gradebook row and come back byte for byte. */
static const char *const ODD_NAMES[] = {
    "smith, john", "say \"hi\"", "two\nlines", "cr\rlf\r\n", "tab\there", " spaced out ", "$(rm -rf ~);`id`|&<>*?!#",
    "=HYPERLINK(\"http://x\")", "-2+3", "@sum", "'=quoted,formula", "'", "back\\slash", "\\x41 is not A",
    "trailing\\", "\\\\", "esc\x1b[2J\x1b]0;t\x07", "bidi\xe2\x80\xae" "cod.exe", "bad\xff\xfe", "caf\xc3\xa9",
    "\xc2\x9b" "31m", "\"", ",", "\\x00",
};
#define ODD_COUNT ((int)(sizeof ODD_NAMES / sizeof ODD_NAMES[0]))

/* Saves a gradebook of the ODD_NAMES (from fill_report's report) to path. */
static void save_odd_gradebook(const char *path)
{
    char err[256];
    gradebook gb;
    fill_report();
    KIT_ASSERT_MSG(gradebook_init(&gb, &rep) == 0, "init failed");
    for (int i = 0; i < ODD_COUNT; i++)
        KIT_ASSERT_MSG(gradebook_put(&gb, ODD_NAMES[i], &rep) == 0, "put of name %d failed", i);
    KIT_ASSERT_MSG(gradebook_save(path, &gb, err, sizeof err) == 0, "save: %s", err);
    gradebook_free(&gb);
}

/* Batch mode with odd folder names: one clean line per student, quoted where CSV needs it, read back exactly. */
static void test_gradebook_odd_names(void)
{
    char dir[] = "/tmp/kit-gbn-XXXXXX", path[256], err[256];
    KIT_ASSERT_MSG(mkdtemp(dir) != NULL, "mkdtemp failed");
    snprintf(path, sizeof path, "%s/gradebook.csv", dir);
    save_odd_gradebook(path);
    char *text = read_text(path);
    int lines = 0;
    for (const char *p = text; p && *p; p++)
        lines += *p == '\n';
    long bad = text ? first_unsafe_byte(text, "\n") : 0;
    KIT_ASSERT_MSG(lines == ODD_COUNT + 1, "gradebook CSV: %d lines for %d students and the header", lines, ODD_COUNT);
    KIT_ASSERT_MSG(bad < 0, "gradebook CSV: byte %ld is 0x%02x", bad, bad >= 0 && text ? (unsigned char)text[bad] : 0);
    KIT_ASSERT_MSG(text && strstr(text, "\n\"smith, john\",6,") && strstr(text, "\n\"say \"\"hi\"\"\",6,") &&
                       strstr(text, "\ntwo\\x0Alines,6,") && strstr(text, "\n\"'=HYPERLINK(\"\"http://x\"\")\",6,") &&
                       strstr(text, "\n\"\\x27=quoted,formula\",6,") && strstr(text, "\nback\\\\slash,6,"),
                   "gradebook CSV: a name is not quoted or escaped as expected:\n%s", text ? text : "(missing)");
    free(text);

    gradebook back;
    KIT_ASSERT_MSG(gradebook_load(path, &back, err, sizeof err) == 0 && back.nrows == ODD_COUNT,
                   "load: %s (%d rows, expected %d)", err, back.nrows, ODD_COUNT);
    for (int i = 0; i < back.nrows && i < ODD_COUNT; i++)
        KIT_ASSERT_MSG(strcmp(back.rows[i][GB_STUDENT], ODD_NAMES[i]) == 0 && gradebook_find(&back, ODD_NAMES[i]) == i,
                       "name %d came back different, or is not found where it is", i);
    for (int i = 0; i < ODD_COUNT && back.ncols; i++) /* resuming with --force: each row is replaced, none added */
        KIT_ASSERT_MSG(gradebook_put(&back, ODD_NAMES[i], &rep) == 0, "put of name %d failed", i);
    KIT_ASSERT_MSG(back.nrows == ODD_COUNT, "%d rows after grading everyone again, expected %d", back.nrows, ODD_COUNT);
    KIT_ASSERT_MSG(gradebook_put(&back, "late", &rep) == 0 && back.nrows == ODD_COUNT + 1, "a new student made no row");
    gradebook_free(&back);
    KIT_ASSERT_MSG(gradebook_put(&back, "x", &rep) == -1, "a gradebook with no header took a row");
    remove(path);
    KIT_ASSERT_MSG(rmdir(dir) == 0, "a temporary file was left in %s", dir);
}

/* Loads text as a gradebook; returns gradebook_load's result, its message in err. */
static int load_text(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    fwrite(text, 1, len, f);
    fclose(f);
    gradebook gb;
    err[0] = '\0';
    int rc = gradebook_load(path, &gb, err, errlen);
    KIT_ASSERT_MSG(rc == 0 || (gb.nrows == 0 && gb.ncols == 0 && gb.header == NULL), "a failed load kept rows");
    gradebook_free(&gb);
    return rc;
}

/* Malformed gradebooks: each refused with what and where, never a crash, never a row dropped unseen. */
static void test_gradebook_malformed(void)
{
    char dir[] = "/tmp/kit-gbm-XXXXXX", path[256], err[512];
    KIT_ASSERT_MSG(mkdtemp(dir) != NULL, "mkdtemp failed");
    snprintf(path, sizeof path, "%s/gradebook.csv", dir);
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"student,score,max,percent,failures\nalice,3\n", "record 2 has 2 fields, the header 5"},
        {"student,score,max,percent,failures\nalice,1,2,50.0,,extra\n", "record 2 has 6 fields, the header 5"},
        {"student,score,max,percent,failures\nalice,1,2,50.0,\"x\nbob,1,2,50.0,\n", "record 2 is malformed CSV: a quote that is never closed"},
        {"student,score,max,percent,failures\n\"alice\"x,1,2,50.0,\n", "record 2 is malformed CSV: text after a closing quote"},
        {"student,score,max,percent,failures\nal\"ice,1,2,50.0,\n", "record 2 is malformed CSV: a quote inside a field"},
        {"student,score,max,percent,failures\nalice,1,2,50.0,\nbob,1,2,50.0,\nalice,2,2,100.0,\n",
         "record 4 repeats the student alice of record 2"},
        {"student,score,max,percent,failures\nesc\\x1B[2J,1,2,50.0,\nesc\\x1B[2J,1,2,50.0,\n",
         "record 3 repeats the student esc?[2J of record 2"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = load_text(path, bad[i].text, strlen(bad[i].text), err, sizeof err);
        long unsafe = first_unsafe_byte(err, "");
        KIT_ASSERT_MSG(unsafe < 0, "case %zu: the message's byte %ld is 0x%02x", i, unsafe,
                       unsafe >= 0 ? (unsigned char)err[unsafe] : 0);
        KIT_ASSERT_MSG(rc == -1 && strstr(err, bad[i].want), "case %zu: load gave %d [%s], expected an error with [%s]",
                       i, rc, unsafe < 0 ? err : "(not shown: unsafe)", bad[i].want);
    }
    const char nul[] = "student,score,max,percent,failures\nal\0ice,1,2,50.0,\n";
    KIT_ASSERT_MSG(load_text(path, nul, sizeof nul - 1, err, sizeof err) == -1 && strstr(err, "record 2 is malformed CSV: a NUL byte"),
                   "a NUL byte: [%s]", err);

    /* a gradebook cut anywhere: loads (fewer whole rows) or is refused with a message; rows that load are intact */
    save_odd_gradebook(path);
    char *text = read_text(path);
    size_t len = text ? strlen(text) : 0;
    for (size_t cut = 0; cut < len; cut++) {
        gradebook gb;
        FILE *f = fopen(path, "w");
        fwrite(text, 1, cut, f);
        fclose(f);
        err[0] = '\0';
        if (gradebook_load(path, &gb, err, sizeof err) != 0) {
            KIT_ASSERT_MSG(err[0] != '\0', "cut at byte %zu (0x%02x): refused without a message", cut,
                           (unsigned char)text[cut]);
            continue;
        }
        for (int r = 0; r < gb.nrows; r++)
            KIT_ASSERT_MSG(r < ODD_COUNT && strcmp(gb.rows[r][GB_STUDENT], ODD_NAMES[r]) == 0,
                           "cut at byte %zu (0x%02x): row %d holds another name", cut, (unsigned char)text[cut], r);
        gradebook_free(&gb);
    }
    free(text);
    remove(path);
    KIT_ASSERT_MSG(rmdir(dir) == 0, "a temporary file was left in %s", dir);
}


/* ---- vet: the source and object checks ---------------------------------------------------- */

/* Writes text to a temporary file named path; returns 0 or -1. */
static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    int rc = f && fputs(text, f) >= 0 ? 0 : -1;
    if (f && fclose(f) != 0)
        rc = -1;
    return rc;
}

/* vet_source on a preprocessed text whose student file is /s/lab.cuh; returns its result, reason in why. */
static int vet_text(const char *body, char *why, size_t len)
{
    char path[] = "/tmp/kit-vet-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return -2;
    close(fd);
    char text[4096];
    snprintf(text, sizeof text, "# 1 \"/k/labs/x/harness/driver.cu\"\n# 1 \"/s/lab.cuh\" 1\n%s", body);
    write_text(path, text);
    static const char *const allowed[] = {"kit_lab.h", "stdint.h", "co_rank.cuh", NULL};
    static const char *const dirs[] = {"/k/common", "/s", "/usr", NULL};
    int rc = vet_source(path, "/s/lab.cuh", allowed, dirs, why, len);
    remove(path);
    return rc;
}

static void test_vet_source(void)
{
    static const struct {
        const char *body, *why; /* why: NULL when the source is acceptable, else a word of the refusal */
    } cases[] = {
        {"int f(int x) { return x + 1; }\n# 3 \"/k/common/kit_lab.h\" 1\nint kit_private;\n# 4 \"/s/lab.cuh\" 2\n", NULL},
        {"# 1 \"/usr/include/stdint.h\" 1\n# 2 \"/s/lab.cuh\" 2\n", NULL},
        {"const char *s = \"asm std kit_merge_ref\"; char c = 'a';\n", NULL}, /* words inside literals */
        {"#pragma once\n#pragma unroll\n", NULL},
        {"# 1 \"/usr/include/stdlib.h\" 1\n", "includes /usr/include/stdlib.h"},
        {"# 1 \"/k/solutions/02-co-rank/co_rank.cuh\" 1\n", "includes /k/solutions"},
        {"# 1 \"/etc/shadow\" 1\n", "includes /etc/shadow"},
        {"void f() { asm(\"nop\"); }\n", "'asm'"},
        {"void f() { __asm__ volatile(\"\"); }\n", "'__asm__'"},
        {"long f() { return syscall(1); }\n", "'syscall'"},
        {"void f(int *a) { std::sort(a, a + 2); }\n", "'std'"},
        {"__attribute__((constructor)) void f() {}\n", "'__attribute__'"},
        {"void f() { kit_merge_ref(0, 0, 0, 0, 0, 0); }\n", "'kit_merge_ref'"},
        {"void f() { KIT_TRACE_FD; }\n", "'KIT_TRACE_FD'"},
        {"void f() { lab08_warp(); }\n", "'lab08_warp'"},
        /* definitions of reserved names, and uses of them that must stay allowed */
        {"void __syncthreads(void) {}\n", "defines __syncthreads, and C++ reserves"},
        {"void\n__syncthreads(void)\nconst noexcept\n{\n}\n", "lab.cuh:4: not accepted: the file defines __syncthreads"},
        {"auto _Step(int (*g)(int)) -> int { return 0; }\n", "defines _Step"},
        {"void f(int *a) { if (__popc(a[0])) { __syncthreads(); } while (__any_sync(1u, a[1] > 0)) {} }\n", NULL},
        {"void f(__half *h, int *__restrict__ a) { a[0] = __builtin_expect(a[1], 0) ? 1 : 2; { } }\n", NULL},
        {"int g(int x) { return x; } void f() { int y = g(__popc(3)) + 1; { } }\n", NULL},
        {"#pragma GCC optimize(\"O0\")\n", "#pragma GCC optimize"},
        {"#pragma redefine_extname f kit_merge_ref\n", "#pragma redefine_extname"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char why[400] = "";
        int rc = vet_text(cases[c].body, why, sizeof why);
        if (!cases[c].why)
            KIT_ASSERT_MSG(rc == 0, "vet_source case %zu refused acceptable code: %s", c, why);
        else
            KIT_ASSERT_MSG(rc == -1 && strstr(why, cases[c].why), "vet_source case %zu: expected a refusal with '%s', "
                           "got %d: '%s'", c, cases[c].why, rc, why);
    }
    char why[200];
    KIT_ASSERT_MSG(vet_source("/no/such.ii", "/s/lab.cuh", NULL, NULL, why, sizeof why) == -1,
                   "vet_source accepted a preprocessed file that does not exist");
}

/* Builds a vet_object from literal lists (sorted by the caller). */
static vet_object synthetic(char **undefined, size_t nu, char **defined, size_t nd, long long load_time)
{
    vet_object o;
    memset(&o, 0, sizeof o);
    o.undefined = undefined, o.nundefined = nu, o.defined = defined, o.ndefined = nd;
    o.load_time_bytes = load_time;
    return o;
}

static void test_vet_compare(void)
{
    char *base_u[] = {"kit_serve", "memset", "printf"}, *base_d[] = {"_Z8mergeAnyv", "main"};
    char *api_u[] = {"_Z13__syncthreadsv", "_Z18kit_cpu_thread_idxv"};
    char *lib_d[] = {"_Z13__syncthreadsv", "_Znwm", "kit_serve"};
    vet_object allowed[2] = {synthetic(base_u, 3, base_d, 2, 16), synthetic(api_u, 2, NULL, 0, 0)};
    vet_object libs = synthetic(NULL, 0, lib_d, 3, 0);
    static const struct {
        const char *u, *d; /* one extra reference and one extra definition, or NULL */
        long long load_time;
        const char *why;   /* NULL: acceptable */
    } cases[] = {
        {"printf", "_Z6helperv", 16, NULL},      /* the harness calls printf; a function of one's own */
        {"_Z18kit_cpu_thread_idxv", NULL, 16, NULL}, /* the lab API */
        {"memcpy", NULL, 16, NULL},              /* what the compiler emits by itself */
        {"atexit", NULL, 16, "uses atexit"},
        {"qsort", NULL, 16, "uses qsort"},
        {NULL, "kit_trace_fd", 16, "defines kit_trace_fd, a name outside C++'s"},
        {NULL, "_Z13__syncthreadsv", 16, "defines __syncthreads(), and C++ reserves names"},
        {NULL, "_Z3__fi", 16, "reserves names that begin with __ or with _ and a capital letter for the compiler and CUDA (here: __f)"},
        {NULL, "_ZN6_Inner4stepEv", 16, "(here: _Inner)"},           /* a reserved class name */
        {NULL, "_Z4stepIiEvP6__halfPT_", 16, NULL},              /* a reserved type it only uses */
        {NULL, "_Z27__device_stub__Z6helperPiPi", 16, NULL},    /* nvcc's host stub for a kernel */
        {NULL, "_Z6helperPi", 16, NULL},
        {NULL, "_Znwm", 16, "defines operator new(unsigned long)"},
        {NULL, NULL, 24, "load or exit time"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char *u[] = {(char *)cases[c].u}, *d[] = {(char *)cases[c].d};
        vet_object mine = synthetic(u, cases[c].u ? 1 : 0, d, cases[c].d ? 1 : 0, cases[c].load_time);
        char why[300] = "";
        int rc = vet_compare(&mine, allowed, 2, &libs, 1, why, sizeof why);
        if (!cases[c].why)
            KIT_ASSERT_MSG(rc == 0, "vet_compare case %zu refused: %s", c, why);
        else
            KIT_ASSERT_MSG(rc == -1 && strstr(why, cases[c].why), "vet_compare case %zu: expected '%s', got %d: '%s'", c,
                           cases[c].why, rc, why);
    }
}

/* vet_object_read and vet_loaded_bytes on objects the compiler makes here. */
static void test_vet_objects(void)
{
    const char *src = "/tmp/kit-vet-obj.c", *obj = "/tmp/kit-vet-obj.o", *exe = "/tmp/kit-vet-exe";
    write_text(src, "#include <stdlib.h>\nstatic char big[64 << 20];\nint helper(int x) { return (getenv(\"KIT_X\") != 0) + big[x]; }\n"
                    "__attribute__((constructor)) static void early(void) { big[1] = 1; }\n"
                    "int main(int c, char **v) { (void)v; return helper(c); }\n");
    KIT_ASSERT_MSG(system("cc -O1 -c /tmp/kit-vet-obj.c -o /tmp/kit-vet-obj.o && cc /tmp/kit-vet-obj.o -o /tmp/kit-vet-exe") == 0,
                   "cc could not build the test object");
    vet_object o;
    char why[200] = "";
    KIT_ASSERT_MSG(vet_object_read(obj, 0, &o, why, sizeof why) == 0, "vet_object_read: %s", why);
    int has_abs = 0, has_helper = 0;
    for (size_t i = 0; i < o.nundefined; i++)
        has_abs |= strcmp(o.undefined[i], "getenv") == 0;
    for (size_t i = 0; i < o.ndefined; i++)
        has_helper |= strcmp(o.defined[i], "helper") == 0;
    KIT_ASSERT_MSG(has_abs && has_helper && o.load_time_bytes >= 8,
                   "the object references getenv (%d), defines helper (%d), and has a constructor (%lld load-time bytes)",
                   has_abs, has_helper, o.load_time_bytes);
    vet_object_free(&o);
    /* code placed in .init itself (no constructor attribute) also runs before main */
    write_text(src, "__attribute__((section(\".init\"))) void in_init(void) {}\n");
    KIT_ASSERT_MSG(system("cc -O1 -c /tmp/kit-vet-obj.c -o /tmp/kit-vet-init.o") == 0, "cc could not build the .init object");
    KIT_ASSERT_MSG(vet_object_read("/tmp/kit-vet-init.o", 0, &o, why, sizeof why) == 0 && o.load_time_bytes > 0,
                   "an object with code in .init has %lld load-time bytes (%s), expected some", o.load_time_bytes, why);
    vet_object_free(&o);
    remove("/tmp/kit-vet-init.o");
    long long loaded = vet_loaded_bytes(exe);
    KIT_ASSERT_MSG(loaded >= (64LL << 20) && loaded < (80LL << 20), "vet_loaded_bytes: %lld, expected the 64 MiB table "
                   "and a little code", loaded);
    KIT_ASSERT_MSG(vet_object_read("/no/such.o", 0, &o, why, sizeof why) == -1 && vet_loaded_bytes("/no/such") == -1,
                   "missing files were read");
    remove(src), remove(obj), remove(exe);
}

/* Does the object read list `name` among its defined symbols? */
static int defines(const vet_object *o, const char *name)
{
    for (size_t i = 0; i < o->ndefined; i++)
        if (strcmp(o->defined[i], name) == 0)
            return 1;
    return 0;
}

/* vet_object_read_kept: the same reading as nm's, kept in the folder, used again, and never when the file moved. */
static void test_vet_kept(void)
{
    char dir[] = "/tmp/kit-vet-kept.XXXXXX", obj[64], cmd[400], why[200] = "";
    int ok = mkdtemp(dir) != NULL;
    snprintf(obj, sizeof obj, "%s/one.o", dir);
    snprintf(cmd, sizeof cmd, "cc -c /tmp/kit-vet-kept.c -o %s", obj);
    vet_object fresh, kept;
    ok = ok && write_text("/tmp/kit-vet-kept.c", "int kept_fn(int x) { return x + 1; }\n") == 0 && system(cmd) == 0 &&
         vet_object_read(obj, 0, &fresh, why, sizeof why) == 0;
    KIT_ASSERT_MSG(ok, "could not build and read a test object in %s: %s", dir, why);
    if (!ok)
        return;
    KIT_ASSERT_MSG(vet_object_read_kept(obj, 0, dir, &kept, why, sizeof why) == 0 && kept.ndefined == fresh.ndefined &&
                       kept.nundefined == fresh.nundefined && kept.load_time_bytes == fresh.load_time_bytes &&
                       defines(&kept, "kept_fn"),
                   "the first kept reading differs from nm's (%s)", why);
    vet_object_free(&kept);
    /* a line planted in the kept file shows that the second reading comes from it */
    snprintf(cmd, sizeof cmd, "f=$(ls %s/syms-* | head -n 1) && [ -n \"$f\" ] && echo 'D planted_fn' >>\"$f\"", dir);
    KIT_ASSERT_MSG(system(cmd) == 0, "no syms-* file was kept in %s", dir);
    KIT_ASSERT_MSG(vet_object_read_kept(obj, 0, dir, &kept, why, sizeof why) == 0 && defines(&kept, "planted_fn"),
                   "the second reading did not come from the kept file");
    vet_object_free(&kept);
    /* the object rebuilt (a new inode and time): the kept reading is not used */
    snprintf(cmd, sizeof cmd, "sleep 0.01 && cc -c /tmp/kit-vet-kept.c -o %s.new && mv %s.new %s", obj, obj, obj);
    KIT_ASSERT_MSG(system(cmd) == 0, "could not rebuild %s", obj);
    KIT_ASSERT_MSG(vet_object_read_kept(obj, 0, dir, &kept, why, sizeof why) == 0 && !defines(&kept, "planted_fn") &&
                       defines(&kept, "kept_fn"),
                   "a reading kept for the old object was used for the new one");
    vet_object_free(&kept);
    /* a damaged file is read again with nm */
    snprintf(cmd, sizeof cmd, "for f in %s/syms-*; do echo garbage >\"$f\"; done", dir);
    KIT_ASSERT_MSG(system(cmd) == 0, "could not damage the kept files in %s", dir);
    KIT_ASSERT_MSG(vet_object_read_kept(obj, 0, dir, &kept, why, sizeof why) == 0 && defines(&kept, "kept_fn"),
                   "a damaged kept file was trusted: %s", why);
    vet_object_free(&kept);
    vet_object_free(&fresh);
    build_remove_tree(dir);
    remove("/tmp/kit-vet-kept.c");
}

/* Writes one stream record: its tag, then its payload. */
static void put_record(FILE *f, uint32_t tag, const void *payload, size_t bytes)
{
    fwrite(&tag, sizeof tag, 1, f);
    fwrite(payload, bytes, 1, f);
}

/* The text of a file, read into buf (cut to fit). */
static void file_text(FILE *f, char *buf, size_t len)
{
    rewind(f);
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
}

/*
 * --counts: a stream of two launches becomes two lines, the simulator's counts by site and in
 * lock-step; ncu's CSV becomes one line per launch; a stream the grader refused, a CSV without a
 * metric and a missing file are reasons, not lines.
 */
static void test_counts(void)
{
    char path[] = "/tmp/kit-counts-XXXXXX", why[240] = "", out_text[2048];
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w+b") : NULL, *out = tmpfile();
    if (!f || !out) {
        kit_test_fail(__FILE__, __LINE__, "no temporary files");
        return;
    }
    kit_trace_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = 1, l.grid[1] = l.grid[2] = l.block[1] = l.block[2] = 1, l.block[0] = 32, l.shared_bytes = 256;
    snprintf(l.name, sizeof l.name, "%s", "(probe<T, E>)");
    for (int launch = 0; launch < 2; launch++) {
        put_record(f, KIT_TRACE_LAUNCH, &l, sizeof l);
        for (uint32_t t = 0; t < 2; t++) { /* two threads read words 0 and 32: one bank, one conflict */
            kit_access a;
            memset(&a, 0, sizeof a);
            a.thread = t, a.addr = 128 * t, a.size = 4, a.site = 1;
            put_record(f, KIT_TRACE_ACCESS, &a, sizeof a);
        }
        uint64_t count = 2;
        put_record(f, KIT_TRACE_END, &count, sizeof count);
    }
    fflush(f);
    int rc = counts_from_stream(out, "lab", "t", path, why, sizeof why);
    file_text(out, out_text, sizeof out_text);
    KIT_ASSERT_MSG(rc == 0 && strcmp(out_text, "lab\tt\t1\tprobe\t1,1,1\t32,1,1\t1\t0\t1\t0\t2\t0\t1\t0\n"
                                               "lab\tt\t2\tprobe\t1,1,1\t32,1,1\t1\t0\t1\t0\t2\t0\t1\t0\n") == 0,
                   "counts of a stream: rc %d (%s), got:\n%s", rc, why, out_text);
    rewind(f);
    fprintf(f, "%sover the limit", COUNTS_TRACE_REFUSED);
    fflush(f);
    rc = counts_from_stream(out, "lab", "t", path, why, sizeof why);
    KIT_ASSERT_MSG(rc == -1 && strstr(why, "refused: over the limit"), "a refused stream: rc %d (%s)", rc, why);
    fclose(f);
    write_text(path, "\"ID\",\"Kernel Name\",\"Grid Size\",\"Block Size\",\"Metric Name\",\"Metric Value\"\n"
                     "\"0\",\"void probe<int, 5>(int *)\",\"(2, 1, 1)\",\"(64, 1, 1)\",\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\",\"1,024\"\n"
                     "\"0\",\"void probe<int, 5>(int *)\",\"(2, 1, 1)\",\"(64, 1, 1)\",\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum\",\"3\"\n");
    rewind(out);
    rc = counts_from_ncu(out, "lab", "t", path, why, sizeof why);
    KIT_ASSERT_MSG(rc == -1 && strstr(why, "has no smsp__inst_executed_op_shared_ld_pred_on_any.sum"),
                   "a CSV without the request counts: rc %d (%s)", rc, why);
    const char *names[6] = {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
                            "smsp__inst_executed_op_shared_ld_pred_on_any.sum", "smsp__inst_executed_op_shared_st_pred_on_any.sum",
                            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"};
    FILE *csv = fopen(path, "w");
    fputs("\"ID\",\"Kernel Name\",\"Grid Size\",\"Block Size\",\"Metric Name\",\"Metric Value\"\n", csv);
    for (int m = 0; m < 6; m++)
        fprintf(csv, "\"0\",\"void probe<int, 5>(int *)\",\"(2, 1, 1)\",\"(64, 1, 1)\",\"%s\",\"%d\"\n", names[m], m + 1);
    fclose(csv);
    FILE *out2 = tmpfile();
    rc = counts_from_ncu(out2, "lab", "t", path, why, sizeof why);
    file_text(out2, out_text, sizeof out_text);
    KIT_ASSERT_MSG(rc == 0 && strcmp(out_text, "lab\tt\t1\tprobe\t2,1,1\t64,1,1\t1\t2\t3\t4\t5\t6\t-\t-\n") == 0,
                   "counts of a CSV: rc %d (%s), got:\n%s", rc, why, out_text);
    remove(path);
    rc = counts_from_ncu(out2, "lab", "t", path, why, sizeof why) + counts_from_stream(out2, "lab", "t", path, why, sizeof why);
    KIT_ASSERT_MSG(rc == -2, "missing files must be reasons, got rc %d", rc);
    fclose(out);
    fclose(out2);
}

/* counts_read_ncu: a missing CSV is a reason that starts with the caller's words; a CSV reads as rows. */
static void test_counts_read_ncu(void)
{
    char path[] = "/tmp/kit_ncu_csv_XXXXXX", why[300];
    int fd = mkstemp(path);
    KIT_ASSERT_MSG(fd >= 0, "mkstemp failed");
    close(fd);
    write_text(path, "\"ID\",\"Kernel Name\",\"Grid Size\",\"Block Size\",\"Metric Name\",\"Metric Value\"\n"
                     "\"0\",\"void probe<int, 5>(int *)\",\"(2, 1, 1)\",\"(64, 1, 1)\",\"some.metric\",\"7\"\n");
    kit_ncu_row *rows = NULL;
    size_t n = 0;
    int rc = counts_read_ncu(path, &rows, &n, "not measured", why, sizeof why);
    KIT_ASSERT_MSG(rc == 0 && n == 1 && rows[0].value == 7.0 && strcmp(rows[0].metric, "some.metric") == 0,
                   "a CSV of one row: rc %d, %zu rows (%s)", rc, n, rc == 0 ? "" : why);
    free(rows);
    remove(path);
    rc = counts_read_ncu(path, &rows, &n, "not measured", why, sizeof why);
    KIT_ASSERT_MSG(rc == -1 && strncmp(why, "not measured: ", 14) == 0 && strlen(why) > 14,
                   "a missing CSV: rc %d, reason \"%s\"", rc, why);
}

static void register_tests(void)
{
    CU_pSuite spec = kit_test_suite("grading specs");
    kit_test_add(spec, "a good spec and its hidden part", test_spec_good);
    kit_test_add(spec, "bad lines refused with their line", test_spec_bad);
    kit_test_add(spec, "incomplete specs refused", test_spec_incomplete);
    kit_test_add(spec, "op=pbs: keys, defaults and launch", test_spec_pbs);
    kit_test_add(spec, "access bounds: loads, shared and global stores, global loads, K*share", test_spec_access_bounds);
    kit_test_add(spec, "op=sort: keys, alg and gpu_slack", test_spec_sort);
    kit_test_add(spec, "op=worst: part, and a measured merge only with w = 32", test_spec_worst);
    kit_test_add(spec, "launch keys blocks, u, w, E, tile; the old keys name the new", test_spec_launch_keys);
    kit_test_add(spec, "the (type, E) pairs a runner is built for, dealt into runners", test_spec_runner_groups);
    CU_pSuite sb = kit_test_suite("sandbox");
    kit_test_add(sb, "exit codes and signals", test_sandbox_exit_codes);
    kit_test_add(sb, "a scratch folder is removed with what it holds", test_remove_tree);
    kit_test_add(sb, "CPU mode's limit is CPU time, the wall clock a backstop", test_time_limits);
    kit_test_add(sb, "a GPU-mode runner starts isolated, its scratch folder writable", test_gpu_runner_sandbox);
    kit_test_add(sb, "timeout kills the whole process group", test_sandbox_timeout_kills_group);
    kit_test_add(sb, "file size limit", test_sandbox_file_limit);
    kit_test_add(sb, "empty environment, missing program", test_sandbox_empty_env_and_bad_path);
    kit_test_add(sb, "process limit", test_sandbox_nproc);
    kit_test_add(sb, "children that left the group are killed", test_sandbox_escaped_children_killed);
    CU_pSuite root = kit_test_suite("sandbox as root");
    kit_test_add(root, "runs as nobody: no root files, no root folders", test_sandbox_drops_root);
    kit_test_add(root, "no network devices with no_network", test_sandbox_no_network);
    if (geteuid() != 0)
        kit_test_skip_suite(root, "the grader drops to the sandbox user only when it runs as root");
    CU_pSuite vet = kit_test_suite("source and object checks");
    kit_test_add(vet, "vet_source: includes, words, names, pragmas", test_vet_source);
    kit_test_add(vet, "vet_compare: references, definitions, load-time code", test_vet_compare);
    kit_test_add(vet, "vet_object_read and vet_loaded_bytes on a real object", test_vet_objects);
    kit_test_add(vet, "vet_object_read_kept: kept, used again, not when the file changed", test_vet_kept);
    CU_pSuite v = kit_test_suite("verdicts");
    kit_test_add(v, "verdict names", test_verdict_names);
    CU_pSuite r = kit_test_suite("reports");
    kit_test_add(r, "report_clean: what goes, what stays, cutting, twice, in place", test_clean);
    kit_test_add(r, "JSON escaping", test_json_escaping);
    kit_test_add(r, "XML escaping", test_xml_escaping);
    kit_test_add(r, "CSV fields", test_csv_fields);
    kit_test_add(r, "totals and percent", test_report_totals);
    kit_test_add(r, "JSON report", test_report_json);
    kit_test_add(r, "Gradescope results.json", test_report_gradescope);
    kit_test_add(r, "a spec's Gradescope visibility", test_report_visibility_read);
    kit_test_add(r, "the Markdown feedback page", test_report_markdown);
    kit_test_add(r, "JUnit XML", test_report_junit);
    kit_test_add(r, "table and TSV", test_report_table_and_tsv);
    kit_test_add(r, "the command that reruns a test", test_report_rerun);
    kit_test_add(r, "the make run command of every public test carries its input", test_report_run_input);
    kit_test_add(r, "make check's report", test_report_brief);
    kit_test_add(r, "files written through a temporary", test_report_write_file);
    kit_test_add(r, "--calibrate: the thresholds file", test_report_calibration);
    kit_test_add(r, "--counts: every launch's counts, from the stream and from ncu", test_counts);
    kit_test_add(r, "counts_read_ncu: rows, or a reason that starts with the caller's words", test_counts_read_ncu);
    kit_test_add(r, "hostile text in every output format", test_hostile_text_everywhere);
    CU_pSuite hidden = kit_test_suite("the kit's hidden tests");
    kit_test_add(hidden, "the kit's hidden specs are marked hidden", test_hidden_specs_marked);
    if (access("grader/hidden", F_OK) != 0)
        kit_test_skip_suite(hidden, "no grader/hidden/ here (the student's kit has no hidden tests)");
    CU_pSuite g = kit_test_suite("gradebook");
    kit_test_add(g, "CSV records", test_csv_records);
    kit_test_add(g, "put, save, load, find, summary", test_gradebook_round_trip);
    kit_test_add(g, "odd folder names: one clean row each, read back exactly", test_gradebook_odd_names);
    kit_test_add(g, "malformed gradebooks refused with a message", test_gradebook_malformed);
}

int main(void)
{
    return kit_test_main("grader tests", register_tests);
}
