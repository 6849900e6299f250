/** @file check.h Runs one spec test through a lab runner and judges the reply against the grader's own reference. */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>

#include "sandbox.h"
#include "spec.h"

/** The outcome class of a test or task; the gradebook and the self-tests read these names. */
typedef enum verdict {
    V_PASS,          /**< "pass" */
    V_WRONG,         /**< "wrong": ran, but the output is wrong */
    V_TIMEOUT,       /**< "timeout" */
    V_CRASH,         /**< "crash": killed by a signal or failed at run time */
    V_COMPILE,       /**< "compile": the submission did not build */
    V_NOT_ATTEMPTED, /**< "not-attempted": skeleton reached or file missing */
    V_ERROR          /**< "error": the grader itself could not run the test */
} verdict;

/** @return the verdict's short name, as listed above. */
const char *verdict_name(verdict v);

/** The judgement of one test. */
typedef struct check_result {
    verdict v; /**< the verdict */
    char detail[400]; /**< one line, for example "wrong output at index 3: expected 7, got 8" */
    long long conflicts; /**< the measured kernel's shared-memory load conflicts, or -1 if none were counted */
    char reached[128]; /**< not-attempted public test: the skeleton marker the runner reached ("NN-slug:task"); else "" */
} check_result;

/**
 * How the grader contains every compile and every test: chosen once from the options and the
 * machine (root or not, namespaces or not), applied to each sandboxed run by sandbox_apply().
 */
typedef struct sandbox_policy {
    long long run_mem_bytes;     /**< a CPU-mode runner's memory (sb_limits.mem_bytes), 0 for none */
    long long compile_mem_bytes; /**< the compiler's memory, 0 for none */
    int isolate;                 /**< run in namespaces of its own, each in the view made for it (sb_limits.isolate) */
    int seccomp;                 /**< install the outer seccomp filter (sb_limits.seccomp) */
} sandbox_policy;

/** Where and how tests run. */
typedef struct check_env {
    const char *runner;   /**< the compiled runner */
    const char *workdir;  /**< scratch folder for request, reply and logs */
    int timeout_s;        /**< default wall-clock limit per test */
    long nproc;           /**< processes and threads a test may add (sb_limits.nproc), 0 for no limit */
    unsigned uid;         /**< the user a test runs as when the grader is root (sb_limits.uid), 0 to stay root */
    unsigned gid;         /**< that user's group */
    int simulated;        /**< 1 when the runner is a CPU build: conflicts are counted from its trace */
    const char *ncu;      /**< Nsight Compute, for conflict thresholds in GPU mode; NULL: "not measured" */
    const char *ncu_why;  /**< why there is no ncu, for the "not measured" note */
    const char *arch;     /**< the GPU's architecture, for example sm_90, or NULL */
    const char *sanitizer; /**< compute-sanitizer, to run every GPU test under it (--sanitize), or NULL */
    sandbox_policy box;   /**< how every run is contained */
    FILE *counts;         /**< --counts: every launch's shared-memory counts go here (counts.h), or NULL */
    const char *lab;      /**< the lab's folder, for the counts' lines */
    const char *reference; /**< the reference solution's runner (CPU build), for bounds F*ref; NULL where there is none */
} check_env;

/**
 * A test's time limits: in CPU mode (@p cpu) its CPU time is the limit, @p timeout_s seconds, and
 * the wall clock a backstop at three times that plus 2 s (a busy machine does not time a runner
 * out); in GPU mode the wall clock, with the CPU limit a second above it.
 */
void check_time_limits(int cpu, int timeout_s, sb_limits *lim);

/**
 * Puts the policy into one run's limits. @p compiling picks the compiler's memory limit; the run
 * sees @p view (sb_view_compile(), sb_view_run()) and nothing else of the files; the limits keep
 * the pointer, so the view must outlive the run. A runner
 * gets the memory limit only in CPU mode (@p cpu), since the CUDA runtime reserves far more
 * address space than it uses. The private /tmp holds 2 GiB for a compiler (nvcc's intermediate
 * files), 1 GiB for a GPU runner (ncu's files) and 16 MiB for a CPU runner.
 */
void sandbox_apply(const sandbox_policy *box, sb_limits *lim, int compiling, int cpu, const sb_bind *view);

/**
 * Generates the test's input, runs the runner on it in the sandbox, and
 * compares its reply with the grader's reference. The runner's output text
 * plays no part in the verdict.
 */
void check_test(const spec_test *t, const check_env *env, check_result *out);

#endif
