/*
 * grader: builds each lab of a submission against the kit's harness in a
 * scratch folder, runs the lab's tests in a sandbox, judges every reply with
 * its own reference, and prints a score table.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "batch.h"
#include "build.h"
#include "check.h"
#include "counts.h"
#include "draw.h"
#include "import.h"
#include "kit_timer.h"
#include "report.h"
#include "sandbox.h"
#include "shard.h"
#include "spec.h"

#define MAX_LABS 32
#define MAX_FILE_BYTES (1 << 20) /* a submitted source file larger than this is refused */

typedef struct options {
    const char *kit;          /* the kit's root folder */
    const char *submission;   /* folder holding NN-slug/<file> for each lab */
    const char *labs[MAX_LABS];
    int nlabs;
    int public_only;          /* the labs' public tests only: the hidden specs are not read */
    const char *test;         /* only the public test of this name (make check's TEST=) */
    int brief;                /* make check's report (report_brief()) instead of the table; exit 1 on a failure */
    int every_test;           /* run a task's tests after its first failure too (make check's --brief does) */
    const char *tsv;          /* write results here too */
    const char *json;         /* ...and as JSON */
    const char *gradescope;   /* ...and as Gradescope's results.json */
    const char *junit;        /* ...and as JUnit XML */
    const char *calibrate;    /* ...and every conflict threshold's measured count, as a thresholds file */
    const char *counts;       /* ...and every kernel launch's shared-memory counts (grader/counts.h) */
    FILE *counts_file;        /* ...opened */
    const char *batch;        /* grade every subfolder of this folder */
    const char *gradebook;    /* batch mode's CSV gradebook */
    int force;                /* batch mode: regrade students already in the gradebook */
    const char *reports;      /* batch mode: write <student>.json and <student>.md here too */
    shard_spec shard;         /* batch mode: grade only this shard of the students... */
    const char *out;          /* ...into one result file per student here (grader/shard.h) */
    const char *gather;       /* merge the result files of this folder into the gradebook */
    const char *import_from;  /* --import: a Gradescope or LMS export to lay out as a class folder... */
    const char *class_dir;    /* ...here (--class) */
    double expect;            /* fail (exit 1) below this percentage; < 0 to never fail */
    int timeout_s;            /* default per-test limit: CPU time in CPU mode, wall clock in GPU mode (check.c) */
    int compile_timeout_s;
    int build_jobs;           /* a lab's runner built as up to this many, compiled at once (--build-jobs) */
    const char *nvcc;
    const char *nvcc_flags;   /* space-separated extra flags, e.g. the -gencode list */
    const char *libkit;       /* the kit's library for GPU builds */
    const char *libkit_cpu;   /* the kit's library for CPU builds (the emulation) */
    const char *cxx;          /* the C++ compiler of CPU builds */
    const char *cxx_path;     /* ...found: it also preprocesses every submission for the source check */
    int memory_mib;           /* a CPU-mode test's memory (address space) limit */
    sandbox_policy box;       /* how compiles and tests are contained */
    const char *mode;         /* "gpu", "cpu" or "auto" */
    const char *work;         /* where scratch folders go */
    int keep;                 /* keep scratch folders */
    int nproc;                /* processes and threads a test may add */
    const char *sandbox_user; /* who compiles and runs submissions when the grader is root */
    unsigned uid, gid;        /* ...as ids; 0 when the grader is not root (or told to stay root) */
    const char *ncu;          /* GPU mode: Nsight Compute for conflict thresholds, or NULL */
    const char *ncu_why;      /* why there is none, when NULL */
    const char *arch;         /* GPU mode: the GPU's architecture, sm_XY */
    int sanitize;             /* GPU mode: run every test under compute-sanitizer */
    const char *sanitizer;    /* ...found here */
    const char *secret;       /* the course secret the hidden tests are drawn from: --secret's, else WORK/grader.secret */
    int default_secret;       /* 1 when it is WORK/grader.secret, made on first use */
    const char *make_secret;  /* --make-secret FILE: make a course secret there, and nothing else */
    unsigned char key[DRAW_KEY_BYTES]; /* the secret, read at the start when hidden specs are read */
} options;

/*
 * snprintf through a va_list: messages and paths here are cut at their
 * buffer's size on purpose, and this keeps the compiler's truncation
 * warnings for code where cutting would be a bug.
 * @return 0, or -1 if the text did not fit
 */
static int fmt(char *buf, size_t len, const char *format, ...) __attribute__((format(printf, 3, 4)));
static int fmt(char *buf, size_t len, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(buf, len, format, ap);
    va_end(ap);
    return n >= 0 && (size_t)n < len ? 0 : -1;
}

static void usage(FILE *f, const char *prog)
{
    fprintf(f,
            "usage: %s [options]\n"
            "Grades a submission's labs: builds each against the kit's harness, runs the tests, prints a table.\n\n"
            "  --kit DIR             the kit's root (default .)\n"
            "  --submission DIR      folder with NN-slug/<file> per lab (default KIT/solutions)\n"
            "  --lab NN              grade only this lab (number or folder name); repeatable\n"
            "  --public              run only the public tests (grading.spec); hidden tests are not read\n"
            "  --test NAME           run only the public test NAME (implies --public)\n"
            "  --brief               make check's report: one summary line per lab, one line per failure with\n"
            "                        the command that reruns it; exit 1 when a test fails\n"
            "  --every-test          run a task's tests after its first failure too (a task is all or nothing,\n"
            "                        so they are skipped otherwise, \"not run\"; --brief runs them all)\n"
            "  --tsv FILE            also write one line per task: lab, task, points, max, verdict, detail\n"
            "  --json FILE           also write every lab, task and test as JSON\n"
            "  --gradescope FILE     also write Gradescope's results.json (hidden tests shown after the due date)\n"
            "  --junit FILE          also write JUnit XML, a testcase per test, for CI systems\n"
            "  --calibrate FILE      also write, for every conflict threshold, what was counted on this machine\n"
            "                        (a thresholds file: grade the solutions on a new GPU and compare with the specs)\n"
            "  --counts FILE         also count every kernel launch of every test (simulated in CPU mode, by ncu in\n"
            "                        GPU mode): one line of shared-memory conflicts, requests and wavefronts each\n"
            "  --batch DIR           grade every subfolder of DIR (one per student) into a CSV gradebook;\n"
            "                        students already in it are skipped, so an interrupted run resumes\n"
            "  --gradebook FILE      batch mode's gradebook (default gradebook.csv)\n"
            "  --force               batch mode: regrade the students already in the gradebook\n"
            "  --reports DIR         batch mode: also write each student's full results to DIR/<student>.json,\n"
            "                        and a feedback page to send them, DIR/<student>.md (Markdown)\n"
            "  --shard K/N           batch mode: grade only the K-th of N shards of the students (K from 0; a\n"
            "                        student's shard is a hash of its folder's name), with --out\n"
            "  --out DIR             batch mode: write each student's results to DIR/<student>.tsv and .json\n"
            "                        instead of a gradebook (all students when no --shard)\n"
            "  --gather DIR          merge the results in DIR into --gradebook; with --batch, every student there\n"
            "                        gets a row, and one without a result a row that says result:missing\n"
            "  --import EXPORT       with --class DIR: lay out a Gradescope or LMS export (a folder or a zip: a\n"
            "                        folder, a zip or files named by student) as DIR/<student>/<NN-slug>/<file>,\n"
            "                        the folder --batch grades; names made safe, DIR/import-names.tsv maps them\n"
            "  --expect PERCENT      exit 1 if the score is below PERCENT (self-checks)\n"
            "  --secret FILE         the course secret the hidden tests are drawn from, with each submission's\n"
            "                        files (default: WORK/grader.secret, made on first use); a regrade with the\n"
            "                        same secret and files draws the same tests\n"
            "  --make-secret FILE    make a course secret (32 random bytes, mode 0600; never overwrites) and exit\n"
            "  --timeout S           default limit per test in seconds (default 10): CPU time in CPU mode\n"
            "  --compile-timeout S   limit for building a lab (default 300)\n"
            "  --build-jobs N        build a lab whose tests use several (type, E) pairs as up to N runners,\n"
            "                        compiled at once, each for some of the pairs (default 1; make check: cores)\n"
            "  --nvcc PATH           the CUDA compiler (default nvcc found in PATH)\n"
            "  --nvcc-flags FLAGS    extra flags for it, such as -gencode lists\n"
            "  --libkit FILE         the kit's library (default KIT/build/libkit.a)\n"
            "  --libkit-cpu FILE     the kit's library with the CPU emulation (default KIT/build/libkitcpu.a)\n"
            "  --mode gpu|cpu|auto   build runners for the GPU or for the kit's CPU emulation; auto picks\n"
            "                        the GPU when one is present (default auto)\n"
            "  --cxx PATH            the C++ compiler of CPU builds (default g++)\n"
            "  --work DIR            where scratch folders go (default KIT/build/grade)\n"
            "  --keep                keep the scratch folders\n"
            "  --nproc N             processes and threads a test may start (default 64)\n"
            "  --memory MIB          memory limit of a test in CPU mode, in MiB (default 1024); compiles get 4x\n"
            "  --sandbox-user NAME   when run as root, compile and run submissions as this user; by default each\n"
            "                        grader takes a user id of its own (2100000000 up), so that graders running\n"
            "                        at once cannot touch each other; 'root' keeps root (no process limit holds)\n"
            "  --ncu PATH            Nsight Compute, which measures conflicts in GPU mode (default ncu found in PATH)\n"
            "  --sanitize            GPU mode: run every test under compute-sanitizer (memcheck); errors are a crash\n",
            prog);
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

/* A flag without a value: sets it and returns 1; 0 when `a` is no such flag. */
static int parse_flag(options *o, const char *a)
{
    int *flag = strcmp(a, "--keep") == 0       ? &o->keep
                : strcmp(a, "--force") == 0    ? &o->force
                : strcmp(a, "--sanitize") == 0 ? &o->sanitize
                : strcmp(a, "--public") == 0   ? &o->public_only
                : strcmp(a, "--brief") == 0    ? &o->brief
                : strcmp(a, "--every-test") == 0 ? &o->every_test
                                               : NULL;
    if (flag)
        *flag = 1;
    return flag != NULL;
}

/* An option with a value v: sets it and returns 0, or -1 after saying what is wrong. */
static int parse_value(options *o, const char *a, const char *v)
{
    const struct {
        const char *name;
        const char **to;
    } texts[] = {{"--kit", &o->kit}, {"--submission", &o->submission}, {"--test", &o->test}, {"--tsv", &o->tsv},
                 {"--json", &o->json}, {"--gradescope", &o->gradescope}, {"--junit", &o->junit},
                 {"--batch", &o->batch}, {"--gradebook", &o->gradebook}, {"--reports", &o->reports},
                 {"--out", &o->out}, {"--gather", &o->gather}, {"--nvcc", &o->nvcc}, {"--nvcc-flags", &o->nvcc_flags},
                 {"--libkit", &o->libkit}, {"--libkit-cpu", &o->libkit_cpu}, {"--cxx", &o->cxx},
                 {"--mode", &o->mode}, {"--work", &o->work}, {"--sandbox-user", &o->sandbox_user},
                 {"--calibrate", &o->calibrate}, {"--counts", &o->counts}, {"--ncu", &o->ncu},
                 {"--secret", &o->secret}, {"--make-secret", &o->make_secret},
                 {"--import", &o->import_from}, {"--class", &o->class_dir}};
    const struct {
        const char *name;
        int *to, lo, hi;
    } ints[] = {{"--timeout", &o->timeout_s, 1, 3600}, {"--compile-timeout", &o->compile_timeout_s, 1, 7200},
                {"--build-jobs", &o->build_jobs, 1, 1024},
                {"--nproc", &o->nproc, 1, 100000}, {"--memory", &o->memory_mib, 64, 1 << 20}};
    int bad = -1, percent = -1; /* bad -1: no such option */
    for (size_t i = 0; bad < 0 && i < sizeof texts / sizeof texts[0]; i++)
        if (strcmp(a, texts[i].name) == 0) {
            *texts[i].to = v;
            bad = 0;
        }
    for (size_t i = 0; bad < 0 && i < sizeof ints / sizeof ints[0]; i++)
        if (strcmp(a, ints[i].name) == 0)
            bad = parse_int(v, ints[i].lo, ints[i].hi, ints[i].to) != 0;
    char why[200];
    if (strcmp(a, "--lab") == 0) {
        bad = o->nlabs == MAX_LABS;
        if (!bad)
            o->labs[o->nlabs++] = v;
    } else if (strcmp(a, "--expect") == 0) {
        bad = parse_int(v, 0, 100, &percent) != 0;
        o->expect = percent;
    } else if (strcmp(a, "--shard") == 0) {
        if (shard_parse(v, &o->shard, why, sizeof why) != 0) {
            fprintf(stderr, "grader: %s\n", why);
            return -1;
        }
        bad = 0;
    } else if (strcmp(a, "--mode") == 0) { /* kept as a text above */
        bad = strcmp(v, "gpu") != 0 && strcmp(v, "cpu") != 0 && strcmp(v, "auto") != 0;
    } else if (strcmp(a, "--test") == 0) {
        o->public_only = 1; /* a hidden test can be neither run nor named */
    }
    if (bad < 0)
        fprintf(stderr, "grader: unknown option %s (try --help)\n", a);
    else if (bad)
        fprintf(stderr, "grader: bad value '%s' for %s\n", v, a);
    return bad ? -1 : 0;
}

/* Refuses options that do not go together; returns 0 or -1 after saying why. */
static int check_combinations(const options *o)
{
    const char *why = NULL;
    if ((o->import_from || o->class_dir) &&
        (!o->import_from || !o->class_dir || o->batch || o->submission || o->gather || o->nlabs || o->test))
        why = "--import EXPORT goes with --class DIR (and --kit) only: it lays out the export as a class folder, which "
              "--batch then grades";
    else if (o->batch && (o->submission || o->tsv || o->json || o->gradescope || o->junit || o->calibrate || o->counts ||
                     o->expect >= 0))
        why = "--batch grades many submissions into a gradebook; it does not go with --submission, --tsv, --json, "
              "--gradescope, --junit, --calibrate, --counts or --expect";
    else if ((o->batch || o->gather) && (o->public_only || o->brief))
        why = "--public, --test and --brief grade one submission; they do not go with --batch or --gather";
    else if (!o->batch && !o->gather && (o->gradebook || o->force || o->reports))
        why = "--gradebook, --force and --reports go with --batch";
    else if ((o->shard.n || o->out) && (!o->batch || !o->out || o->gather || o->gradebook || o->force || o->reports))
        why = "--shard K/N goes with --batch DIR and --out DIR (not --gradebook, --force, --reports or --gather): "
              "each student's results go to files, and --gather makes the gradebook";
    else if (o->gather && (o->force || o->reports))
        why = "--gather goes with --gradebook and --batch only";
    if (why)
        fprintf(stderr, "grader: %s\n", why);
    return why ? -1 : 0;
}

/*
 * As root: who compiles and runs submissions. By default a user id of this grader's own; else
 * --sandbox-user's name or number; "root" stays root. Returns 0, or -1 after saying why.
 */
static int pick_sandbox_user(options *o)
{
    if (geteuid() != 0 || (o->sandbox_user && strcmp(o->sandbox_user, "root") == 0))
        return 0;
    if (!o->sandbox_user) {
        static char name[32];
        char why[200];
        if (sb_uid_acquire(&o->uid, why, sizeof why) != 0) {
            fprintf(stderr, "grader: no user id of its own for this grader: %s; name a user with --sandbox-user\n", why);
            return -1;
        }
        o->gid = o->uid;
        snprintf(name, sizeof name, "uid %u", o->uid);
        o->sandbox_user = name;
        return 0;
    }
    struct passwd *pw = getpwnam(o->sandbox_user);
    int uid;
    if (pw) {
        o->uid = pw->pw_uid;
        o->gid = pw->pw_gid;
    } else if (parse_int(o->sandbox_user, 1, 1 << 30, &uid) == 0) {
        o->uid = o->gid = (unsigned)uid;
    } else {
        fprintf(stderr, "grader: no user '%s' to run submissions as; name one with --sandbox-user "
                        "(a user name or number)\n", o->sandbox_user);
        return -1;
    }
    return 0;
}

static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->kit = ".";
    o->expect = -1;
    o->timeout_s = 10;
    o->compile_timeout_s = 300;
    o->build_jobs = 1;
    o->nvcc_flags = "";
    o->mode = "auto";
    o->cxx = "g++";
    o->nproc = 64;
    o->memory_mib = 1024;
    o->sandbox_user = NULL; /* a user id of this grader's own */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0) {
            usage(stdout, argv[0]);
            exit(0);
        }
        if (parse_flag(o, a))
            continue;
        if (!v) {
            fprintf(stderr, "grader: %s needs a value (try --help)\n", a);
            return -1;
        }
        if (parse_value(o, a, v) != 0)
            return -1;
        i++;
    }
    if (check_combinations(o) != 0)
        return -1;
    if (o->out && !o->shard.n)
        o->shard = (shard_spec){0, 1}; /* --out alone: every student */
    if (!o->gradebook)
        o->gradebook = "gradebook.csv";
    return pick_sandbox_user(o);
}

/*
 * How submissions are contained: memory limits always (on the whole process tree where cgroups
 * can be written); namespaces and the outer seccomp filter where the sandbox can set them up (it
 * says once what it could not). Each compile and each test sees only the view made for it
 * (sb_view_compile(), sb_view_run()): no solutions/, grader/, batch folder or other scratch.
 */
static void set_policy(options *o)
{
    o->box.run_mem_bytes = (long long)o->memory_mib << 20;
    o->box.compile_mem_bytes = (long long)o->memory_mib << 22;
    o->box.isolate = 1;
    o->box.seccomp = 1;
}

/* printf, except in --brief mode, whose report is make check's few lines. */
static void say(const options *o, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void say(const options *o, const char *format, ...)
{
    if (o->brief)
        return;
    va_list ap;
    va_start(ap, format);
    vprintf(format, ap);
    va_end(ap);
}

/* Finds a program: a path as given, or a name looked up in PATH, else in `fallback` (may be NULL). */
static const char *find_tool(const char *name, const char *fallback, char *buf, size_t len)
{
    if (strchr(name, '/'))
        return access(name, X_OK) == 0 ? name : NULL;
    const char *path = getenv("PATH");
    char copy[4096];
    fmt(copy, sizeof copy, "%s", path ? path : "");
    for (char *save, *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
        if (fmt(buf, len, "%s/%s", dir, name) == 0 && access(buf, X_OK) == 0)
            return buf;
    }
    if (!fallback)
        return NULL;
    fmt(buf, len, "%s", fallback);
    return access(buf, X_OK) == 0 ? buf : NULL;
}

/* The first line of a trusted command's output (stdout and stderr), or "" if it printed none. */
static void command_line(const char *cmd, const char *want, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *p = popen(cmd, "r");
    if (!p)
        return;
    char line[512];
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!buf[0] || (want && strstr(line, want)))
            fmt(buf, len, "%s", line);
    }
    pclose(p);
}

/*
 * GPU mode's preflight: the nvcc and ncu versions, the GPU and its architecture, and whether
 * ncu can read the performance counters (it runs the kit's bankcheck once). Without ncu or
 * readable counters, conflict thresholds are reported as not measured.
 */
static void preflight(options *o, const char *nvcc)
{
    static char ncu_buf[4096], arch[16], why[160], san_buf[4096];
    char line[512], cmd[8400], gpu[256];
    fmt(cmd, sizeof cmd, "'%s' --version 2>&1", nvcc);
    command_line(cmd, "release", line, sizeof line);
    say(o, "preflight: nvcc: %s\n", line[0] ? line : "(no version)");
    command_line("nvidia-smi --query-gpu=name,compute_cap --format=csv,noheader 2>&1", NULL, gpu, sizeof gpu);
    char *comma = strrchr(gpu, ',');
    int major = 0, minor = 0;
    if (comma && sscanf(comma + 1, " %d.%d", &major, &minor) == 2) {
        fmt(arch, sizeof arch, "sm_%d%d", major, minor);
        o->arch = arch;
    }
    say(o, "preflight: GPU: %s%s%s\n", gpu[0] ? gpu : "(nvidia-smi printed nothing)", o->arch ? " -> " : "",
           o->arch ? o->arch : "");
    const char *ncu = find_tool(o->ncu ? o->ncu : "ncu", o->ncu ? NULL : "/usr/local/cuda/bin/ncu", ncu_buf, sizeof ncu_buf);
    o->ncu = NULL;
    if (!ncu) {
        o->ncu_why = "no ncu (install Nsight Compute or pass --ncu PATH)";
    } else {
        fmt(cmd, sizeof cmd, "'%s' --version 2>&1", ncu);
        command_line(cmd, "Version", line, sizeof line);
        say(o, "preflight: ncu: %s\n", line[0] ? line : "(no version)");
        char probe[4200];
        fmt(probe, sizeof probe, "%s/build/tools/bankcheck", o->kit);
        if (access(probe, X_OK) != 0) {
            o->ncu = ncu; /* nothing to probe with: try, and report what each test gets */
            say(o, "preflight: performance counters: not checked (%s missing; run make)\n", probe);
        } else {
            fmt(cmd, sizeof cmd, "'%s' --launch-count 1 --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum '%s' 2>&1",
                ncu, probe);
            int lock = sb_gpu_lock(1); /* an ncu run like the tests': other graders' GPU runs wait (sandbox.h) */
            command_line(cmd, "ERR_NVGPUCTRPERM", line, sizeof line);
            if (lock >= 0)
                close(lock);
            if (strstr(line, "ERR_NVGPUCTRPERM")) {
                fmt(why, sizeof why, "ERR_NVGPUCTRPERM: this user may not read the GPU's performance counters");
                o->ncu_why = why;
            } else {
                o->ncu = ncu;
            }
            say(o, "preflight: performance counters: %s\n", o->ncu ? "readable" : why);
        }
    }
    if (o->sanitize) {
        o->sanitizer = find_tool("compute-sanitizer", "/usr/local/cuda/bin/compute-sanitizer", san_buf, sizeof san_buf);
        say(o, "preflight: compute-sanitizer: %s\n", o->sanitizer ? o->sanitizer : "not found; --sanitize ignored");
    }
}

/* Is an NVIDIA GPU there? The driver lists each GPU under /proc/driver/nvidia/gpus. */
static int gpu_present(void)
{
    DIR *d = opendir("/proc/driver/nvidia/gpus");
    int found = 0;
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d));)
        found |= e->d_name[0] != '.';
    closedir(d);
    return found;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lists the lab folders that hold a grading.spec, sorted; returns how many. */
static int discover_labs(const char *kit, char names[][64], int max)
{
    char dir[4096];
    fmt(dir, sizeof dir, "%s/labs", kit);
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int count = 0;
    for (struct dirent *e; (e = readdir(d)) && count < max;) {
        char spec[4400];
        struct stat st;
        fmt(spec, sizeof spec, "%s/%s/grading.spec", dir, e->d_name);
        if (e->d_name[0] != '.' && strlen(e->d_name) < 64 && stat(spec, &st) == 0 && S_ISREG(st.st_mode))
            fmt(names[count++], 64, "%s", e->d_name);
    }
    closedir(d);
    char *ptrs[MAX_LABS];
    for (int i = 0; i < count; i++)
        ptrs[i] = names[i];
    qsort(ptrs, (size_t)count, sizeof ptrs[0], cmp_str);
    char sorted[MAX_LABS][64];
    for (int i = 0; i < count; i++)
        fmt(sorted[i], 64, "%s", ptrs[i]);
    memcpy(names, sorted, (size_t)count * 64);
    return count;
}

/* Does the lab folder name match a --lab selector ("01" or "01-sequential-merge")? */
static int lab_selected(const options *o, const char *lab)
{
    if (o->nlabs == 0)
        return 1;
    for (int i = 0; i < o->nlabs; i++) {
        size_t len = strlen(o->labs[i]);
        if (strncmp(lab, o->labs[i], len) == 0 && (lab[len] == '\0' || lab[len] == '-'))
            return 1;
    }
    return 0;
}

/* Reads the lab's grading.spec and, unless public_only, its hidden spec; returns 0, or -1 with why. */
static int load_spec(const char *kit, const char *lab, int public_only, spec_lab *spec, char *err, size_t errlen)
{
    char path[4200];
    memset(spec, 0, sizeof *spec);
    fmt(path, sizeof path, "%s/labs/%s/grading.spec", kit, lab);
    FILE *f = fopen(path, "r");
    if (!f) {
        fmt(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    int rc = spec_parse(f, path, 0, spec, err, errlen);
    fclose(f);
    if (rc == 0 && strcmp(spec->lab, lab) != 0) {
        fmt(err, errlen, "%s says lab %s, but lives in folder %s", path, spec->lab, lab);
        rc = -1;
    }
    fmt(path, sizeof path, "%s/grader/hidden/%s.spec", kit, lab);
    if (rc == 0 && !public_only && (f = fopen(path, "r"))) {
        rc = spec_parse(f, path, 1, spec, err, errlen);
        fclose(f);
    }
    return rc;
}

/*
 * Opens a submitted file, refusing a link at any component below the submission folder: the lab
 * folder and the file are each opened with O_NOFOLLOW, relative to the folder above them, so no
 * component can lead outside the submission. Returns the descriptor, or -1 with a reason.
 */
static int open_submitted(const char *submission, const char *lab, const char *file, char *why, size_t len)
{
    int root = open(submission, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int dir = root < 0 ? -1 : openat(root, lab, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int in = dir < 0 ? -1 : openat(dir, file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (root >= 0 && dir < 0)
        fmt(why, len, "%s", errno == ELOOP || errno == ENOTDIR ? "the lab folder is a link or not a folder" : "missing");
    else if (dir >= 0 && in < 0)
        fmt(why, len, "%s", errno == ELOOP ? "a symbolic link, not a regular file" : "missing or not a regular file");
    else if (in >= 0 && (fstat(in, &st) != 0 || !S_ISREG(st.st_mode))) {
        fmt(why, len, "missing or not a regular file");
        close(in);
        in = -1;
    } else if (in >= 0 && st.st_size > MAX_FILE_BYTES) {
        fmt(why, len, "larger than %d bytes", MAX_FILE_BYTES);
        close(in);
        in = -1;
    }
    if (root < 0)
        fmt(why, len, "the submission folder cannot be opened");
    if (dir >= 0)
        close(dir);
    if (root >= 0)
        close(root);
    return in;
}

/* Copies an opened file into the scratch folder; returns 0, or -1 with a reason. */
static int copy_to(int in, const char *to, char *why, size_t len)
{
    int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    char buf[65536];
    ssize_t got;
    int rc = out < 0 ? -1 : 0;
    while (rc == 0 && (got = read(in, buf, sizeof buf)) > 0)
        rc = write(out, buf, (size_t)got) == got ? 0 : -1;
    close(in);
    if (out >= 0 && close(out) != 0)
        rc = -1;
    if (rc)
        fmt(why, len, "could not copy it");
    return rc;
}

/* Copies submission/lab/file into the scratch folder: a regular file of at most MAX_FILE_BYTES, reached without links. */
static int copy_submitted(const char *submission, const char *lab, const char *file, const char *to, char *why,
                          size_t len)
{
    int in = open_submitted(submission, lab, file, why, len);
    return in < 0 ? -1 : copy_to(in, to, why, len);
}

/*
 * Can the sandbox user use `path`? A folder must let others pass (o+x), a file
 * let others read (o+r), and every folder above it let others pass.
 * Returns 0, or -1 with the first thing that stops it in `blocker`.
 */
static int sandbox_can_reach(const char *path, char *blocker, size_t len)
{
    char p[4096];
    struct stat st;
    fmt(p, sizeof p, "%s", path);
    if (stat(p, &st) != 0 || (S_ISDIR(st.st_mode) ? !(st.st_mode & S_IXOTH) : !(st.st_mode & S_IROTH))) {
        fmt(blocker, len, "%s", p);
        return -1;
    }
    for (char *slash; (slash = strrchr(p, '/')) && slash != p;) {
        *slash = '\0';
        if (stat(p, &st) != 0 || !(st.st_mode & S_IXOTH)) {
            fmt(blocker, len, "%s", p);
            return -1;
        }
    }
    return 0;
}

/*
 * Makes the lab's scratch folder in `scratch` ("" when none could be made) and copies into it the
 * submitted files and the earlier labs' files the lab uses. Returns V_PASS, or the verdict that
 * applies to every task (not attempted, error) with why.
 */
static verdict prepare_scratch(const options *o, const char *submission, const spec_lab *spec, char *scratch,
                               size_t slen, char *why, size_t wlen)
{
    fmt(scratch, slen, "%s/%s.XXXXXX", o->work, spec->lab);
    if (!mkdtemp(scratch)) {
        fmt(why, wlen, "grader could not make a scratch folder under %s: %s", o->work, strerror(errno));
        scratch[0] = '\0';
        return V_ERROR;
    }
    /*
     * The scratch folder: the submitted files in scratch/ (read-only to the
     * sandbox user), the compiler's output in bin/ (and bin-1/, ... for more
     * runners: the sandbox user's own, made by build_runner()), the tests'
     * request, reply and logs in run/ (run-1/, ... beside the other runners),
     * and the compiler's logs at the top. The sandbox user reaches only the
     * folders bound into its view, so the top is the grader's alone (0700);
     * where there are no views, it may pass through it (0711) but not list it.
     */
    char subdir[4400], rundir[4400];
    fmt(subdir, sizeof subdir, "%s/scratch", scratch);
    fmt(rundir, sizeof rundir, "%s/run", scratch);
    if (chmod(scratch, sb_views_work() ? 0700 : 0711) != 0 || mkdir(subdir, 0755) != 0 || mkdir(rundir, 0711) != 0) {
        fmt(why, wlen, "grader could not set up %s: %s", scratch, strerror(errno));
        return V_ERROR;
    }
    for (int f = 0; f < spec->nfiles; f++) {
        char to[4600], reason[128];
        fmt(to, sizeof to, "%s/%s", subdir, spec->files[f]);
        if (copy_submitted(submission, spec->lab, spec->files[f], to, reason, sizeof reason) != 0) {
            fmt(why, wlen, "not attempted (%s/%s: %s)", spec->lab, spec->files[f], reason);
            return V_NOT_ATTEMPTED;
        }
    }
    /* Earlier labs' files: the kit's reference when it has one, so each lab is graded on its own; else the submission's. */
    for (int u = 0; u < spec->nuses; u++) {
        char from[4400], to[4600], reason[128], lab[128];
        const char *base = strchr(spec->uses[u], '/') + 1;
        fmt(lab, sizeof lab, "%.*s", (int)(base - 1 - spec->uses[u]), spec->uses[u]);
        fmt(from, sizeof from, "%s/solutions", o->kit);
        if (access(from, R_OK) != 0) /* the student kit has no solutions: the student's own earlier labs */
            fmt(from, sizeof from, "%s", submission);
        fmt(to, sizeof to, "%s/%s", subdir, base);
        if (copy_submitted(from, lab, base, to, reason, sizeof reason) != 0) {
            fmt(why, wlen, "not attempted (this lab needs %s: %s)", spec->uses[u], reason);
            return V_NOT_ATTEMPTED;
        }
    }
    return V_PASS;
}

/* name_skeleton()'s line for the marker alone: "not implemented: lab 02:co_rank in labs/02-co-rank/co_rank.cuh". */
static void name_marker(const spec_lab *spec, const char *shown, const char *reached, char *buf, size_t len)
{
    const char *colon = strchr(reached, ':');
    int lab = colon ? (int)(colon - reached) : 0;
    const char *file = NULL;
    if (colon && (size_t)lab == strlen(spec->lab) && strncmp(reached, spec->lab, (size_t)lab) == 0)
        file = spec->nfiles == 1 ? spec->files[0] : ""; /* several files: name the lab's folder */
    for (int u = 0; colon && !file && u < spec->nuses; u++)
        if (strncmp(spec->uses[u], reached, (size_t)lab) == 0 && spec->uses[u][lab] == '/')
            file = spec->uses[u] + lab + 1;
    if (!file) {
        fmt(buf, len, "not implemented: %s", reached);
        return;
    }
    int number = (int)strcspn(reached, "-:"), folder = (int)strlen(shown);
    while (folder > 1 && shown[folder - 1] == '/')
        folder--;
    fmt(buf, len, "not implemented: lab %.*s:%s in %.*s/%.*s/%s", number, reached, colon + 1, folder, shown, lab,
        reached, file);
}

/*
 * A skeleton's marker ("02-co-rank:co_rank", from a public test's runner) as the student reads it:
 * "not implemented: lab 02:co_rank in labs/02-co-rank/co_rank.cuh", naming the file of the lab or
 * of the earlier lab it uses, in the submission as the user named it (`shown`). A marker of
 * neither is quoted as it came. When a test of task `task` reached the marker of another task of
 * the lab (lab 8's order tests run the student's worst_subproblem where the kit has no reference
 * subproblem; lab 1's stable tests run merge_sequential), the line says that its tests run that
 * task's code too: "its tests also run task warp's code: not implemented: lab 08:warp in ...".
 */
static void name_skeleton(const spec_lab *spec, const char *task, const char *shown, const char *reached, char *buf,
                          size_t len)
{
    const char *colon = strchr(reached, ':');
    char marker[REPORT_DETAIL];
    name_marker(spec, shown, reached, marker, sizeof marker);
    if (colon && strcmp(colon + 1, task) != 0 && spec_find_task(spec, colon + 1) >= 0 &&
        strncmp(reached, spec->lab, (size_t)(colon - reached)) == 0 && spec->lab[colon - reached] == '\0')
        fmt(buf, len, "its tests also run task %s's code: %s", colon + 1, marker);
    else
        fmt(buf, len, "%s", marker);
}

/*
 * A hidden test's "wrong" detail without the values that tell its input (indices, sizes, keys,
 * counts): its words up to the first digit, '(', '[', ':' or '=', less a trailing " at" or " of".
 * The student learns what kind of failure it is, not the hidden input.
 */
static void hide_values(char *detail, size_t len)
{
    size_t cut = strcspn(detail, "0123456789([:=");
    while (cut > 0 && detail[cut - 1] == ' ')
        cut--;
    for (int again = 1; again;) { /* "wrong output at", "modified its input A at" */
        again = 0;
        for (const char *const *w = (const char *const[]){" at", " of", NULL}; *w; w++)
            if (cut > strlen(*w) && strncmp(detail + cut - strlen(*w), *w, strlen(*w)) == 0)
                cut -= strlen(*w), again = 1;
    }
    char kind[200];
    fmt(kind, sizeof kind, "%.*s", (int)cut, detail);
    fmt(detail, len, "%s (a hidden test: its values are not shown)", kind[0] ? kind : "wrong");
}

/*
 * Draws the lab's hidden tests (spec.h's draw lines) from the course secret and the submitted
 * files as copied into the scratch folder, the bytes that are graded. Returns 0, or -1 with why.
 */
static int draw_hidden(const options *o, const char *scratch, spec_lab *spec, char *why, size_t len)
{
    unsigned char files[DRAW_KEY_BYTES], key[DRAW_KEY_BYTES];
    char dir[4400];
    fmt(dir, sizeof dir, "%s/scratch", scratch);
    draw_files_digest(dir, (const char (*)[64])spec->files, spec->nfiles, files);
    draw_lab_key(o->key, spec->lab, files, key);
    char err[400];
    if (spec_draw_tests(spec, key, err, sizeof err) == 0)
        return 0;
    fmt(why, len, "grader could not draw the hidden tests: %s", err);
    return -1;
}

/*
 * The course secret for the hidden tests: --secret's, or WORK/grader.secret (made on first use),
 * read once at the start, and said on stderr when it is not one the user named. Only where hidden
 * specs are read (not with --public, nor in the student's kit, which has none). Returns 0, or -1
 * after saying why.
 */
static int read_secret(options *o)
{
    char hidden[4200], why[400];
    fmt(hidden, sizeof hidden, "%s/grader/hidden", o->kit);
    if (o->public_only || access(hidden, F_OK) != 0)
        return 0;
    int made = 0, rc = o->default_secret ? draw_secret_open(o->secret, o->key, &made, why, sizeof why)
                                         : draw_secret_load(o->secret, o->key, why, sizeof why);
    if (rc != 0)
        fprintf(stderr, "grader: %s\n", why);
    else if (o->default_secret)
        fprintf(stderr, "grader: hidden tests drawn with the secret %s (%s); to grade a course, make one with "
                        "--make-secret FILE and give it with --secret FILE\n", o->secret, made ? "made now" : "no --secret");
    return rc;
}

/* A test's result from a runner's own process (build_and_run()); ran 0: grade_task() runs it itself. */
typedef struct ahead {
    int ran;
    check_result c;
    double seconds;
} ahead;

/* One message of a runner's process: its build's result (test -1), then one per test it ran. */
typedef struct ahead_msg {
    int test; /* the test's index in the spec, or -1 for the build */
    int build_rc;
    char why[512];
    ahead a;
} ahead_msg;

/*
 * In runner k's process: builds it, and with `tests` runs its tests (those with runner_of[x] == k)
 * in a folder of its own, scratch/run-k; writes the build's result and each test's to fd. After a
 * test times out, that task's later tests are left to grade_task(), which skips them.
 */
static void build_and_run_one(const spec_lab *spec, const build_env *b, check_env env, const int *runner_of,
                              const char *scratch, int tests, int fd)
{
    ahead_msg m;
    memset(&m, 0, sizeof m);
    char dir[4400];
    fmt(dir, sizeof dir, "%s/run-%d", scratch, b->part);
    m.test = -1;
    m.build_rc = !tests || mkdir(dir, 0711) == 0 ? build_runner(b, spec, scratch, m.why, sizeof m.why) : -1;
    if (m.build_rc != 0 && !m.why[0])
        fmt(m.why, sizeof m.why, "grader could not make %s: %s", dir, strerror(errno));
    int ok = write(fd, &m, sizeof m) == (ssize_t)sizeof m;
    env.workdir = dir;
    int timed_out[SPEC_MAX_TASKS] = {0};
    for (int x = 0; tests && ok && m.build_rc == 0 && x < spec->ntests; x++) {
        const spec_test *test = &spec->tests[x];
        if (runner_of[x] != b->part || timed_out[test->task])
            continue;
        double start = kit_now_s();
        m.test = x;
        check_test(test, &env, &m.a.c);
        m.a.seconds = kit_now_s() - start;
        m.a.ran = 1;
        timed_out[test->task] = m.a.c.v == V_TIMEOUT;
        ok = write(fd, &m, sizeof m) == (ssize_t)sizeof m;
    }
}

/*
 * A lab of several runners (--build-jobs): each runner's process builds it, beside the others. With
 * `tests` (make check in CPU mode) it also runs that runner's tests and sends back the results
 * (pre[]), which grade_task() then reports as if it had run them; without, grade_task() runs them
 * all. The grader meanwhile only waits: a sandboxed run ends by killing every child of its grader
 * (sb_run()). Returns 0 when every runner was built, else -1 with the first failing one's reason
 * in why.
 */
static int build_and_run(const spec_lab *spec, const build_env *b, const check_env *env, int n, const int *runner_of,
                         const char *scratch, int tests, ahead *pre, char *why, size_t len)
{
    pid_t pid[SPEC_MAX_GROUPS];
    int fd[SPEC_MAX_GROUPS], rc = 0;
    fflush(NULL); /* a child must not write the grader's buffered output a second time */
    for (int k = 0; k < n; k++) {
        int pfd[2] = {-1, -1};
        pid[k] = pipe2(pfd, O_CLOEXEC) == 0 ? fork() : -1;
        if (pid[k] == 0) {
            close(pfd[0]);
            prctl(PR_SET_PDEATHSIG, SIGTERM); /* a grader that is killed takes its runners along */
            build_and_run_one(spec, &b[k], env[k], runner_of, scratch, tests, pfd[1]);
            _exit(0);
        }
        if (pfd[1] >= 0)
            close(pfd[1]);
        fd[k] = pfd[0];
    }
    for (int k = 0; k < n; k++) {
        ahead_msg m;
        int built = 0;
        while (pid[k] > 0 && read(fd[k], &m, sizeof m) == (ssize_t)sizeof m) {
            if (m.test < 0 && m.build_rc == 0)
                built = 1;
            else if (m.test < 0 && rc == 0)
                rc = -1, fmt(why, len, "%s", m.why);
            else if (m.test >= 0 && m.test < spec->ntests)
                pre[m.test] = m.a;
        }
        if (fd[k] >= 0)
            close(fd[k]);
        if (pid[k] > 0)
            waitpid(pid[k], NULL, 0);
        if (!built && rc == 0)
            rc = -1, fmt(why, len, "grader could not build runner %d (its process failed)", k);
    }
    return rc;
}

/*
 * Runs task t's tests into res, or gives each the lab-wide verdict `whole` (and why) when that is
 * not V_PASS. A task is all or nothing, so its tests stop at the first that fails: the later ones
 * are skipped ("not run"). With every_test (make check's --brief, where each failing public test
 * gets its line), they all run, except after a timeout (each would wait out its own limit). The
 * task's detail names its first failing test.
 */
static void grade_task(const spec_lab *spec, int t, const check_env *envs, const int *runner_of, const ahead *pre,
                       verdict whole, const char *why, const char *shown, int every_test, lab_result *res)
{
    task_result *r = &res->tasks[t];
    r->points = 0;
    r->v = whole;
    r->failed_test = -1;
    fmt(r->detail, sizeof r->detail, "%s", why);
    int tests = 0, timed_out = 0;
    for (int x = 0; x < spec->ntests; x++) {
        const spec_test *test = &spec->tests[x];
        test_result *tr = &res->tests[x];
        if (test->task != t)
            continue;
        memset(tr, 0, sizeof *tr);
        tr->conflicts = -1;
        if (whole != V_PASS) {
            tr->v = whole;
            fmt(tr->detail, sizeof tr->detail, "%s", why);
            continue;
        }
        if (timed_out || (!every_test && r->v != V_PASS)) { /* the task's points are decided */
            tr->v = timed_out ? V_TIMEOUT : r->v;
            tr->skipped = 1;
            fmt(tr->detail, sizeof tr->detail, "not run: an earlier test of this task %s",
                timed_out ? "timed out" : "failed");
            continue;
        }
        check_result c;
        double start = kit_now_s();
        if (pre && pre[x].ran) /* run already, beside the other runners' tests (build_and_run()) */
            c = pre[x].c, start -= pre[x].seconds;
        else
            check_test(test, &envs[runner_of[x]], &c);
        if (test->hidden && c.v != V_PASS && c.v != V_NOT_ATTEMPTED) /* a crash or timeout may quote its launch too */
            hide_values(c.detail, sizeof c.detail);
        tr->seconds = kit_now_s() - start;
        tr->v = c.v;
        tr->conflicts = c.conflicts;
        fmt(tr->detail, sizeof tr->detail, "%s", c.detail);
        tests++;
        timed_out = c.v == V_TIMEOUT;
        if (c.v != V_PASS && r->v == V_PASS) {
            r->v = c.v;
            r->failed_test = x;
            if (c.reached[0]) /* a skeleton: what is not implemented, and in which of the student's files */
                name_skeleton(spec, spec->tasks[t].name, shown, c.reached, r->detail, sizeof r->detail);
            else
                fmt(r->detail, sizeof r->detail, "%s test %s: %s", test->hidden ? "hidden" : "public", test->name,
                    c.detail);
        }
    }
    if (r->v == V_PASS) {
        r->points = spec->tasks[t].points;
        fmt(r->detail, sizeof r->detail, "pass (%d tests)", tests);
    }
}

/* The block of the student's own compiler warnings that runner 0's build wrote (build_env.warnings); "" when none. */
static void read_warnings(const char *path, char *out, size_t len)
{
    FILE *f = fopen(path, "r");
    size_t got = f ? fread(out, 1, len - 1, f) : 0;
    out[got] = '\0';
    if (f)
        fclose(f);
}

/*
 * Grades one lab of the submission in folder `submission` (shown to the user as `shown`) into res,
 * whose spec is loaded. Never aborts: every failure becomes a verdict.
 */
static void grade_lab(const options *o, const char *submission, const char *shown, const char *compiler, int cpu,
                      const char *libkit, lab_result *res)
{
    const spec_lab *spec = &res->spec;
    char why[512] = "", scratch[4200], rundir[4300];
    verdict whole = prepare_scratch(o, submission, spec, scratch, sizeof scratch, why, sizeof why);
    fmt(rundir, sizeof rundir, "%s/run", scratch); /* the tests' folder: the runner sees it, not scratch/ */
    if (res->spec.ndraws && draw_hidden(o, scratch, &res->spec, why, sizeof why) != 0)
        whole = V_ERROR;
    /* a runner for the (type, E) pairs its tests launch, or several, each for some of them, compiled at once */
    char flags[SPEC_MAX_GROUPS][SPEC_PAIR_FLAGS + sizeof KIT_CPU_CHECKED_FLAGS + 1], runner[SPEC_MAX_GROUPS][4400];
    char pairs[SPEC_MAX_GROUPS][SPEC_PAIR_FLAGS], warnings[4300];
    int runner_of[SPEC_MAX_TESTS];
    fmt(warnings, sizeof warnings, "%s/warnings.txt", scratch);
    int n = spec_runner_groups(spec, o->build_jobs, pairs, runner_of);
    build_env b[SPEC_MAX_GROUPS];
    check_env env[SPEC_MAX_GROUPS];
    for (int k = 0; k < n; k++) {
        /* the CPU build checks every load and store of the lab's code (common/kit_cpu_mem.h) */
        fmt(flags[k], sizeof flags[k], "%s%s%s", pairs[k], pairs[k][0] && cpu ? " " : "", cpu ? KIT_CPU_CHECKED_FLAGS : "");
        b[k] = (build_env){o->kit, o->work, compiler, o->cxx_path, cpu, o->nvcc_flags, flags[k], libkit,
                           o->compile_timeout_s, o->uid, o->gid, &o->box, k, k == 0 ? warnings : NULL, shown};
        build_runner_path(&b[k], scratch, runner[k], sizeof runner[k]);
        env[k] = (check_env){runner[k], rundir, o->timeout_s, o->nproc, o->uid, o->gid, cpu,
                             cpu ? NULL : o->ncu, o->ncu_why, o->arch, cpu ? NULL : o->sanitizer, o->box,
                             o->counts_file, spec->lab, NULL};
    }
    /* Tests whose bounds are relative to the reference solution (hidden draws of labs 4 and 5) measure
       its runner, the CPU build, on their input: built once, trusted, and kept in the work folder. */
    static char reference[4400];
    int needs_ref = 0;
    for (int x = 0; x < spec->ntests; x++)
        needs_ref |= spec_test_needs_ref(&spec->tests[x]);
    if (whole == V_PASS && needs_ref) {
        build_env rb = b[0];
        rb.compiler = o->cxx_path, rb.cpu = 1, rb.defines = KIT_CPU_CHECKED_FLAGS, rb.libkit = o->libkit_cpu;
        if (build_reference(&rb, spec, reference, sizeof reference, why, sizeof why) != 0)
            whole = V_ERROR;
        for (int k = 0; k < n; k++)
            env[k].reference = reference;
    }
    /* several runners build at once; in make check's CPU build (every test runs) each also runs its tests */
    int every = o->brief || o->every_test, tests = cpu && every && !o->counts_file;
    ahead *pre = n > 1 ? calloc((size_t)spec->ntests, sizeof *pre) : NULL;
    if (whole == V_PASS && n > 1 && !pre)
        whole = V_ERROR, fmt(why, sizeof why, "grader out of memory");
    if (whole == V_PASS && (build_check_source(&b[0], spec, scratch, why, sizeof why) != 0 ||
                            (n > 1 ? build_and_run(spec, b, env, n, runner_of, scratch, tests, pre, why, sizeof why)
                                   : build_runner(&b[0], spec, scratch, why, sizeof why)) != 0))
        whole = V_COMPILE;
    res->whole = whole;
    if (scratch[0])
        read_warnings(warnings, res->warnings, sizeof res->warnings);
    for (int t = 0; t < spec->ntasks; t++)
        grade_task(spec, t, env, runner_of, pre, whole, why, shown, every, res);
    free(pre);
    if (!o->keep && scratch[0])
        build_remove_tree(scratch);
}

/* What stays the same for every submission of a run. */
typedef struct grading {
    const options *o;
    const char *compiler;
    int cpu;
    const char *libkit;
    char (*labs)[64]; /* the kit's lab folders */
    int nlabs;
} grading;

/*
 * --test NAME: keeps only the lab's test of that name. Returns 0, or -1 with the lab's public tests
 * listed in err when it has none of that name (a hidden test is not read, so never found).
 */
static int keep_test(spec_lab *spec, const char *name, char *err, size_t len)
{
    int kept = 0;
    for (int x = 0; x < spec->ntests; x++)
        if (strcmp(spec->tests[x].name, name) == 0)
            spec->tests[kept++] = spec->tests[x];
    if (kept) {
        spec->ntests = kept;
        return 0;
    }
    size_t used = (size_t)snprintf(err, len, "no public test '%s'; its public tests:", name);
    for (int x = 0; x < spec->ntests && used < len; x++)
        used += (size_t)snprintf(err + used, len - used, " %s", spec->tests[x].name);
    return -1;
}

/* Reads the `visibility` lines of the lab's grading.spec into its results; returns 0, or -1 with why in spec_error. */
static int load_visibility(const char *kit, lab_result *lab)
{
    char path[4200];
    fmt(path, sizeof path, "%s/labs/%s/grading.spec", kit, lab->spec.lab);
    FILE *f = fopen(path, "r");
    int rc = f ? report_visibility_read(f, path, &lab->visibility, lab->spec_error, sizeof lab->spec_error) : 0;
    if (f)
        fclose(f);
    return rc;
}

/* Starts a report: the selected labs with their specs loaded, nothing graded yet. */
static void load_labs(const grading *g, grade_report *rep)
{
    memset(rep, 0, sizeof *rep);
    rep->mode = g->cpu ? "cpu" : "gpu";
    for (int l = 0; l < g->nlabs && rep->nlabs < REPORT_MAX_LABS; l++) {
        if (!lab_selected(g->o, g->labs[l]))
            continue;
        lab_result *lab = &rep->labs[rep->nlabs++];
        if (load_spec(g->o->kit, g->labs[l], g->o->public_only, &lab->spec, lab->spec_error,
                      sizeof lab->spec_error) != 0 ||
            load_visibility(g->o->kit, lab) != 0) {
            fprintf(stderr, "grader: %s\n", lab->spec_error);
            fmt(lab->spec.lab, sizeof lab->spec.lab, "%s", g->labs[l]);
            continue;
        }
        if (g->o->test && keep_test(&lab->spec, g->o->test, lab->spec_error, sizeof lab->spec_error) != 0)
            continue; /* the report says so; spec_ok stays 0 */
        lab->spec_ok = 1;
    }
}

/* Grades every selected lab of the submission in folder `submission` (absolute) into rep. */
static void grade_submission(const grading *g, const char *submission, const char *shown, grade_report *rep)
{
    double start = kit_now_s();
    load_labs(g, rep);
    fmt(rep->submission, sizeof rep->submission, "%s", shown);
    for (int l = 0; l < rep->nlabs; l++)
        if (rep->labs[l].spec_ok)
            grade_lab(g->o, submission, shown, g->compiler, g->cpu, g->libkit, &rep->labs[l]);
    report_total(rep);
    rep->seconds = kit_now_s() - start;
}

/* The submission folders under batch (dot-folders and links skipped), unsorted, in *names, which the
   caller frees with each name; returns 0, or 2 after saying why on stderr. */
static int list_submissions(const char *batch, char ***names, int *count)
{
    DIR *d = opendir(batch);
    if (!d) {
        fprintf(stderr, "grader: cannot read the batch folder %s: %s\n", batch, strerror(errno));
        return 2;
    }
    for (struct dirent *e; (e = readdir(d));) {
        char path[4400];
        struct stat st;
        fmt(path, sizeof path, "%s/%s", batch, e->d_name);
        if (e->d_name[0] == '.' || lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        char **grown = realloc(*names, (size_t)(*count + 1) * sizeof **names);
        if (!grown || !(grown[*count] = strdup(e->d_name))) {
            fprintf(stderr, "grader: out of memory listing %s\n", batch);
            closedir(d);
            return 2;
        }
        *names = grown;
        (*count)++;
    }
    closedir(d);
    return 0;
}

/* Opens the gradebook in *gb: the saved one, to resume, when its columns are this grading's; else a fresh
   one (with --force). Fills rep's labs. Returns 0, or 2 after saying why on stderr. */
static int open_gradebook(const grading *g, grade_report *rep, gradebook *gb)
{
    const options *o = g->o;
    char err[4400] = "out of memory";
    gradebook old;
    load_labs(g, rep);
    if (gradebook_init(gb, rep) != 0 || gradebook_load(o->gradebook, &old, err, sizeof err) != 0) {
        fprintf(stderr, "grader: %s\n", err);
        return 2;
    }
    if (old.ncols && !gradebook_same_columns(&old, gb)) {
        if (!o->force) {
            fprintf(stderr, "grader: %s has other columns than this grading (other labs or tasks?); "
                            "pass --force to start it afresh, or name another --gradebook\n", o->gradebook);
            return 2;
        }
        fprintf(stderr, "grader: %s has other columns; --force starts it afresh\n", o->gradebook);
    } else if (old.ncols) {
        gradebook_free(gb);
        *gb = old; /* resume: keep every row already there */
        memset(&old, 0, sizeof old);
    }
    gradebook_free(&old);
    return 0;
}

/* Grades each student of names not yet in gb (all with --force), saving gb and the report after each;
   counts them in *graded and *skipped. Returns 0, or 2 after saying why on stderr. */
static int grade_students(const grading *g, char **names, int count, gradebook *gb, grade_report *rep, int *graded,
                          int *skipped)
{
    const options *o = g->o;
    char err[4400] = "out of memory";
    for (int i = 0; i < count; i++) {
        char path[4400], abs[4096];
        if (!o->force && gradebook_find(gb, names[i]) >= 0) {
            (*skipped)++;
            continue;
        }
        fmt(path, sizeof path, "%s/%s", o->batch, names[i]);
        if (!realpath(path, abs)) {
            fputs("grader: ", stderr);
            report_put_clean(stderr, path);
            fprintf(stderr, ": %s\n", strerror(errno));
            continue;
        }
        grade_submission(g, abs, names[i], rep);
        char report[4400], page[4400];
        fmt(report, sizeof report, "%s/%s.json", o->reports ? o->reports : "", names[i]);
        fmt(page, sizeof page, "%s/%s.md", o->reports ? o->reports : "", names[i]);
        if (o->reports && (report_write_file(report, report_json, rep) != 0 ||
                           report_write_file(page, report_markdown, rep) != 0))
            return 2;
        if (gradebook_put(gb, names[i], rep) != 0 || gradebook_save(o->gradebook, gb, err, sizeof err) != 0) {
            fprintf(stderr, "grader: %s\n", err);
            return 2;
        }
        (*graded)++;
        gradebook_progress(stdout, names[i], rep);
    }
    return 0;
}

/*
 * Batch mode: grades each subfolder of o->batch (sorted; dot-folders and
 * links skipped) and saves the gradebook after every student, so an
 * interruption loses at most the student being graded. Students already in
 * the gradebook are skipped unless --force. Returns the exit status.
 */
static int run_batch(const grading *g)
{
    const options *o = g->o;
    char **names = NULL;
    int count = 0;
    if (list_submissions(o->batch, &names, &count) != 0)
        return 2;
    struct stat st;
    if (o->reports && (stat(o->reports, &st) != 0 || !S_ISDIR(st.st_mode))) {
        fprintf(stderr, "grader: the --reports folder %s does not exist\n", o->reports);
        return 2;
    }
    if (count == 0) {
        fprintf(stderr, "grader: %s holds no submission folders\n", o->batch);
        free(names);
        return 2;
    }
    qsort(names, (size_t)count, sizeof *names, cmp_str);

    static grade_report rep;
    gradebook gb;
    if (open_gradebook(g, &rep, &gb) != 0)
        return 2;
    int graded = 0, skipped = 0;
    int status = grade_students(g, names, count, &gb, &rep, &graded, &skipped);
    if (status == 0) {
        printf("\nGraded %d submissions, skipped %d already in %s (--force regrades them).\n", graded, skipped,
               o->gradebook);
        gradebook_summary(stdout, &gb, 5);
    }
    for (int i = 0; i < count; i++)
        free(names[i]);
    free(names);
    gradebook_free(&gb);
    return status;
}

/* Shard mode's grading of one student (shard_run calls it): grade_submission with the run's settings. */
static void grade_for_shard(void *g, const char *folder, const char *student, grade_report *rep)
{
    grade_submission(g, folder, student, rep);
}

/* Writes the per-submission files the options ask for; returns 0 or -1. */
static int write_reports(const options *o, const grade_report *rep)
{
    int rc = 0;
    if (o->tsv)
        rc |= report_write_file(o->tsv, report_tsv, rep);
    if (o->json)
        rc |= report_write_file(o->json, report_json, rep);
    if (o->gradescope)
        rc |= report_write_file(o->gradescope, report_gradescope, rep);
    if (o->junit)
        rc |= report_write_file(o->junit, report_junit, rep);
    if (o->calibrate)
        rc |= report_write_file(o->calibrate, report_calibration, rep);
    return rc;
}

/*
 * Makes the options' paths absolute (the compiler runs inside the scratch folder) and fills in the
 * defaults under the kit; `shown` gets the submission as the user named it. Returns 0, or -1 after
 * saying what is missing.
 */
static int resolve_paths(options *o, const char **shown)
{
    static char kit[4096], sub[4096], defaults[4][4096];
    if (!realpath(o->kit, kit)) {
        fprintf(stderr, "grader: kit folder %s: %s\n", o->kit, strerror(errno));
        return -1;
    }
    o->kit = kit;
    const struct {
        const char **to, *under; /* an option, and its default's path under the kit */
    } paths[] = {{&o->submission, "solutions"}, {&o->libkit, "build/libkit.a"},
                 {&o->libkit_cpu, "build/libkitcpu.a"}, {&o->work, "build/grade"}};
    for (int i = 0; i < 4; i++)
        if (!*paths[i].to) {
            fmt(defaults[i], sizeof defaults[i], "%s/%s", o->kit, paths[i].under);
            *paths[i].to = defaults[i];
        }
    struct stat st;
    if (!o->batch && (stat(o->submission, &st) != 0 || !S_ISDIR(st.st_mode) || !realpath(o->submission, sub))) {
        fprintf(stderr, "grader: submission folder %s does not exist\n", o->submission);
        return -1;
    }
    *shown = o->submission;
    o->submission = sub;
    return 0;
}

/* The mode's compiler (g++ or nvcc), and g++ for the source check in o->cxx_path; NULL after saying which is missing. */
static const char *find_compilers(options *o, int cpu)
{
    static char compiler_buf[4096], cxx_buf[4096];
    const char *compiler = cpu ? find_tool(o->cxx, NULL, compiler_buf, sizeof compiler_buf)
                               : find_tool(o->nvcc ? o->nvcc : "nvcc", o->nvcc ? NULL : "/usr/local/cuda/bin/nvcc",
                                           compiler_buf, sizeof compiler_buf);
    if (!compiler) {
        fprintf(stderr, "grader: %s not found; %s\n", cpu ? o->cxx : o->nvcc ? o->nvcc : "nvcc",
                cpu ? "install g++ or pass --cxx PATH" : "install the CUDA Toolkit or pass --nvcc PATH");
        return NULL;
    }
    if (!(o->cxx_path = find_tool(o->cxx, NULL, cxx_buf, sizeof cxx_buf))) { /* the source check preprocesses with it */
        fprintf(stderr, "grader: %s not found; install g++ or pass --cxx PATH\n", o->cxx);
        return NULL;
    }
    return compiler;
}

/*
 * Finds the mode's kit library (into libkit_abs), makes the work folder, sets the sandbox policy and,
 * as root, checks that the sandbox user can reach what it needs. Returns 0, or -1 after saying why.
 */
static int prepare_work(options *o, int cpu, char *libkit_abs)
{
    static char work_abs[4096];
    if (!realpath(cpu ? o->libkit_cpu : o->libkit, libkit_abs)) {
        fprintf(stderr, "grader: kit library %s not found; run make first\n", cpu ? o->libkit_cpu : o->libkit);
        return -1;
    }
    mkdir(o->work, 0755);
    if (!realpath(o->work, work_abs)) {
        fprintf(stderr, "grader: cannot use work folder %s: %s\n", o->work, strerror(errno));
        return -1;
    }
    o->work = work_abs;
    static char secret[4200];
    if (!o->secret || !realpath(o->secret, secret)) /* a missing --secret is reported by read_secret() */
        fmt(secret, sizeof secret, "%s", o->secret ? o->secret : "");
    if (!o->secret)
        fmt(secret, sizeof secret, "%s/grader.secret", o->work);
    o->default_secret = !o->secret;
    o->secret = secret;
    set_policy(o);
    if (o->counts && (!(o->counts_file = fopen(o->counts, "w")) || fputs(COUNTS_HEADER, o->counts_file) == EOF)) {
        fprintf(stderr, "grader: cannot write the counts file %s: %s\n", o->counts, strerror(errno));
        return -1;
    }
    say(o, "%s\n", sb_isolation_report());
    /* As root, the compiler and the runners run as the sandbox user: without views, it must reach the kit and
       the work folder through every folder above them */
    const char *reach[] = {o->work, o->kit, libkit_abs};
    for (int r = 0; o->uid && !sb_views_work() && r < 3; r++) {
        char blocker[4096];
        if (sandbox_can_reach(reach[r], blocker, sizeof blocker) != 0) {
            fprintf(stderr, "grader: the sandbox user (%s) cannot use %s: others may not pass or read %s; chmod "
                            "o+x (a folder) or o+r (a file), or move the kit (or --work) somewhere it can\n",
                    o->sandbox_user, reach[r], blocker);
            return -1;
        }
    }
    return 0;
}

/* The kit's lab folders into names; returns how many, or -1 after saying that none is there or selected. */
static int find_labs(const options *o, char names[][64])
{
    int nlabs = discover_labs(o->kit, names, MAX_LABS), selected = 0;
    if (nlabs <= 0) {
        fprintf(stderr, "grader: no labs with a grading.spec under %s/labs\n", o->kit);
        return -1;
    }
    for (int l = 0; l < nlabs; l++)
        selected += lab_selected(o, names[l]);
    if (selected == 0) {
        fprintf(stderr, "grader: no lab matches the --lab selection\n");
        return -1;
    }
    return nlabs;
}

/*
 * Grades the one submission and reports it: the table (or make check's lines with --brief) and the
 * files asked for. Returns the exit status: 2 when a file could not be written, 1 below --expect
 * (with --brief: when a test failed), else 0.
 */
static int grade_one(const grading *g, const char *shown)
{
    const options *o = g->o;
    if (!o->brief) {
        fputs("Grading ", stdout);
        report_put_clean(stdout, shown);
        printf(" (runners built %s)\n",
               g->cpu ? "for the kit's CPU emulation: no GPU here, or --mode cpu" : "for the GPU");
    }
    static grade_report rep;
    grade_submission(g, o->submission, shown, &rep);
    if (o->brief) {
        int failed = report_brief(stdout, &rep, g->cpu && !gpu_present() ? "no GPU here: CPU build only" : NULL);
        return write_reports(o, &rep) != 0 || (o->counts_file && fclose(o->counts_file) != 0) ? 2 : failed;
    }
    report_table(stdout, &rep);
    if (write_reports(o, &rep) != 0 || (o->counts_file && fclose(o->counts_file) != 0))
        return 2;
    double percent = report_percent(&rep);
    if (o->expect >= 0 && percent + 1e-9 < o->expect) {
        fprintf(stderr, "grader: score %.1f%% is below the expected %.0f%%\n", percent, o->expect);
        return 1;
    }
    return 0;
}

/* --import: the kit's lab files (every spec's `file` lines), then import_export() into --class. Returns the exit status. */
static int run_import(const options *o)
{
    static char names[MAX_LABS][64];
    static import_file files[MAX_LABS * SPEC_MAX_FILES];
    static spec_lab spec;
    char err[4400], kit[4096];
    int nfiles = 0;
    int nlabs = realpath(o->kit, kit) ? discover_labs(kit, names, MAX_LABS) : -1;
    if (nlabs <= 0) {
        fprintf(stderr, "grader: no labs with a grading.spec under %s/labs\n", o->kit);
        return 2;
    }
    for (int l = 0; l < nlabs; l++) {
        if (load_spec(kit, names[l], 1, &spec, err, sizeof err) != 0) {
            fprintf(stderr, "grader: %s\n", err);
            return 2;
        }
        for (int f = 0; f < spec.nfiles; f++, nfiles++) {
            fmt(files[nfiles].lab, sizeof files[nfiles].lab, "%s", spec.lab);
            fmt(files[nfiles].name, sizeof files[nfiles].name, "%s", spec.files[f]);
        }
    }
    printf("Importing %s into %s, a folder per student:\n", o->import_from, o->class_dir);
    int students = import_export(o->import_from, o->class_dir, files, nfiles, stdout, err, sizeof err);
    if (students < 0) {
        fputs("grader: ", stderr);
        report_put_clean(stderr, err);
        fputc('\n', stderr);
        return 2;
    }
    printf("Imported %d student%s into %s (their names in the export: %s/import-names.tsv).\n"
           "Grade them: make grade-course SUBMISSIONS=%s, or grader --batch %s --gradebook grades.csv\n",
           students, students == 1 ? "" : "s", o->class_dir, o->class_dir, o->class_dir, o->class_dir);
    return students > 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    options o;
    setvbuf(stdout, NULL, _IOLBF, 0); /* keep the table and stderr messages in order */
    if (parse_options(argc, argv, &o) != 0)
        return 2;
    if (o.make_secret) {
        char why[400];
        if (draw_secret_make(o.make_secret, why, sizeof why) != 0) {
            fprintf(stderr, "grader: %s\n", why);
            return 2;
        }
        printf("grader: made the course secret %s (keep it, private: every regrade draws its hidden tests from it)\n",
               o.make_secret);
        return 0;
    }
    if (o.import_from) /* laying out an export needs no compiler either */
        return run_import(&o);
    if (o.gather) /* merging result files needs no compiler, library or GPU */
        return shard_gather(o.gather, o.batch, o.gradebook);
    sb_kill_on_signal();
    const char *shown, *compiler;
    int cpu = strcmp(o.mode, "cpu") == 0 || (strcmp(o.mode, "auto") == 0 && !gpu_present());
    static char names[MAX_LABS][64], libkit_abs[4096];
    int nlabs;
    if (resolve_paths(&o, &shown) != 0 || !(compiler = find_compilers(&o, cpu)) ||
        prepare_work(&o, cpu, libkit_abs) != 0 || (nlabs = find_labs(&o, names)) < 0 || read_secret(&o) != 0)
        return 2;
    if (!cpu)
        preflight(&o, compiler);
    else
        say(&o, "preflight: CPU mode: conflict thresholds are counted by the kit's simulator (\"simulated\")\n");
    grading g = {&o, compiler, cpu, libkit_abs, names, nlabs};
    if (o.out) {
        static grade_report labs;
        load_labs(&g, &labs);
        return shard_run(o.batch, o.shard, o.out, &labs, grade_for_shard, &g);
    }
    if (o.batch) {
        printf("Grading every submission in %s into %s (runners built %s)\n", o.batch, o.gradebook,
               cpu ? "for the kit's CPU emulation" : "for the GPU");
        return run_batch(&g);
    }
    return grade_one(&g, shown);
}
