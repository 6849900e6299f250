/** @file check.h Runs one spec test through a lab runner and judges the reply against the grader's own reference. */
#ifndef CHECK_H
#define CHECK_H

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
    char detail[256]; /**< one line, for example "wrong output at index 3: expected 7, got 8" */
    long long conflicts; /**< the measured kernel's shared-memory load conflicts, or -1 if none were counted */
} check_result;

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
} check_env;

/**
 * Generates the test's input, runs the runner on it in the sandbox, and
 * compares its reply with the grader's reference. The runner's output text
 * plays no part in the verdict.
 */
void check_test(const spec_test *t, const check_env *env, check_result *out);

#endif
