/** @file spec.h Grading specs: the data file in each lab folder that lists its tasks, points and tests. */
#ifndef SPEC_H
#define SPEC_H

#include <stdio.h>

#include "kit_gen.h"
#include "06-predecessor-search/harness/pbs_host.h"

#define SPEC_MAX_FILES 4 /**< files a lab may list */
#define SPEC_MAX_TASKS 16 /**< tasks a lab may have */
#define SPEC_MAX_TESTS 96 /**< tests a lab may have, public and hidden */
#define SPEC_NAME 48 /**< room for a task or test name */

/** A task: one thing the student implements, graded all or nothing. */
typedef struct spec_task {
    char name[SPEC_NAME];   /**< identifier used by tests, for example "merge" */
    int points;             /**< points for passing every test of the task */
    char title[128];        /**< one line for the score table */
} spec_task;

/** A test: one run of the lab's runner on generated input, checked by the grader. */
typedef struct spec_test {
    char name[SPEC_NAME];   /**< unique within the lab */
    int task;               /**< index into spec_lab.tasks */
    int hidden;             /**< 1 if students do not see it */
    char op[16];            /**< runner operation: "merge", "co_rank", "pbs", "sort" or "worst" */
    kit_type type;          /**< element type */
    /** @{ */
    long long m, n;         /**< input sizes */
    /** @} */
    kit_gen gen;            /**< input shape */
    unsigned long long seed;/**< generator seed */
    long long ranks;        /**< co_rank: ranks to query, 0 for every rank */
    int bound;              /**< co_rank: check the pass and comparison bounds instead of the values */
    int blocks;             /**< blocks=: thread blocks of the launch (0 when the lab has no kernel, and for sort and worst) */
    int u;                  /**< u=: threads per block (merge kernels, pbs, sort) */
    int w;                  /**< w=: threads per warp, and banks (worst) */
    int E;                  /**< E=: keys per thread (lab 7's merge, sort, worst) */
    int tile;               /**< tile=: keys of A and of B a block stages in shared memory per round (labs 4, 5) */
    int timeout_s;          /**< time limit (check_time_limits()), 0 for the grader's default */
    int alg;                /**< pbs: the search, 0 (PBS), 1 (PBS-CF) or 2 (PBS-CL); sort: 1 (CF) or 3 (baseline) */
    kit_pbs_queries queries; /**< pbs: the query set */
    char conflict_cmp;       /**< a conflict threshold: '<' (conflicts<=N), '=' (conflicts==N), '>' (conflicts>=N), or 0 for none */
    long long conflicts;     /**< N: shared-memory load conflicts of the measured kernel */
    int tolerance_pct;       /**< slack around N, in percent of N (tolerance=P%) */
    long long gpu_slack;     /**< extra conflicts allowed above N when ncu measures (gpu_slack=S), 0 in CPU mode */
    char arch[16];           /**< the architecture N was calibrated on, for example sm_90 (arch=), or "" */
    char kernel[48];         /**< the measured kernel (kernel=NAME): its launches in the CPU trace, ncu's filter on a GPU */
    long long min_loads;     /**< loads>=N: the fewest shared-memory load requests the measured kernel may make, 0 for none */
    long long min_shared_stores; /**< shared_stores>=N: the fewest shared-memory store requests, 0 for none */
    long long max_global_loads;  /**< global_loads<=N: the most global-memory load requests, 0 for none */
    long long max_global_stores; /**< global_stores<=N: the most global-memory store requests, 0 for none */
    int stores_per_share;        /**< global_stores<=K*share: K, the bound's store instructions per output a thread owes */
    int part;                /**< worst: 1 (part=subproblem), 2 (part=order) or 3 (part=both), 0 for other ops */
} spec_test;

/** A lab's whole spec: the public file plus, when present, its hidden tests. */
typedef struct spec_lab {
    char lab[64];                           /**< folder name, "NN-slug" */
    char title[128];                        /**< human title */
    char files[SPEC_MAX_FILES][64];         /**< the files a submission provides */
    int nfiles; /**< entries used in files */
    char uses[SPEC_MAX_FILES][128];         /**< earlier labs' files it builds on, as "NN-slug/file" */
    int nuses; /**< entries used in uses */
    spec_task tasks[SPEC_MAX_TASKS]; /**< the tasks, in spec order */
    int ntasks; /**< entries used in tasks */
    spec_test tests[SPEC_MAX_TESTS]; /**< the tests, public then hidden */
    int ntests; /**< entries used in tests */
} spec_lab;

/**
 * Reads a spec file into @p lab. Call it on a zeroed spec_lab for the public
 * spec, then again on the same lab for its hidden spec, which may only add
 * tests (marked hidden) to tasks the public spec declared.
 *
 * Lines (blank lines and # comments are ignored):
 * - lab NN-slug
 * - title Words...
 * - file NAME                       a file the submission provides (plain name)
 * - uses NN-slug/NAME               an earlier lab's file this lab builds on
 * - task NAME POINTS Words...
 * - test TASK public|hidden NAME key=value...
 *
 * Test keys: op, type, m, n, gen, seed, ranks, check (values|bound), timeout, and the launch.
 * A launch key means the same in every lab, and what the request's field of the same name means
 * (common/kit_request.h):
 * - blocks: thread blocks (1 .. 2^30);
 * - u: threads per block (1 .. 1024);
 * - w: threads per warp, which is also the number of banks (lab 8);
 * - E: keys per thread (labs 7, 8, 9);
 * - tile: keys of A and of B a block stages in shared memory per round (labs 4 and 5).
 * The old keys are refused with a message that names the new one: threads= (now u=, or w= for
 * op=worst), and tile= where it meant E (op=sort and op=worst).
 * op=merge (labs 1, 3-5, 7) takes no launch (the runner's default) or blocks and u, with tile
 * (labs 4 and 5) or E (lab 7), not both.
 * op=pbs (lab 6) takes blocks and u (a multiple of 32), m >= 1 keys,
 * n queries, alg (pbs|cf|cl) and queries (keys|range|worst).
 * op=sort (lab 9) sorts m generated keys (no n) with alg (baseline|cf), u and E,
 * without blocks; its measured kernel is the CF gather (ms_gather_probe).
 * op=worst (lab 8) takes w, E (1 < E <= w) and part (subproblem|order|both):
 * the grader counts the returned warp in the simulator and passes it at the theorem or above.
 * A conflict threshold on the lab's measured kernel (the shared-memory load conflicts that the
 * simulator counts in CPU mode and ncu measures in GPU mode): conflicts<=N, conflicts==N or
 * conflicts>=N, with optional tolerance=P% (of N), gpu_slack=S (S more conflicts allowed when ncu
 * measures, for counts the profiler adds to a kernel the simulator proves free of them), arch=sm_XX (where N was calibrated) and
 * kernel=NAME (the measured kernel, found by name in the CPU build's trace stream and by ncu on a
 * GPU) and loads>=N (the kernel must make at least N shared-memory load requests, warp-level
 * load instructions, so that a kernel that keeps its data out of shared memory cannot pass a
 * threshold on conflicts it never had the chance to make). A kernel test needs its launch (blocks=, u=).
 * Access bounds on the measured kernel's requests (warp-level instructions that at least one
 * thread executed; simulated from the CPU build's trace, measured by ncu on a GPU), with or
 * without a conflict threshold: loads>=N and shared_stores>=N (the data goes through shared
 * memory), global_loads<=N (each input is read from global memory about once) and
 * global_stores<=N (each thread writes about its share of the output: a kernel that leaves the
 * work to fewer threads makes more store instructions, up to one per output). global_stores<=K*share
 * computes N from the launch: K * warps * share, where share = ceil((m + n) / (blocks * u)) is
 * what each thread owes and warps = blocks * ceil(u / 32); a warp whose threads each write
 * their share in at most K store instructions of the source stays within it.
 *
 * @param[in]     f      the spec
 * @param[in]     name   the file's name, for messages
 * @param[in]     hidden 1 when reading a hidden spec
 * @param[in,out] lab    the spec so far
 * @param[out]    err    on error, "<name>:<line>: <what>"
 * @param[in]     errlen size of @p err
 * @return 0 on success, -1 on the first error
 */
int spec_parse(FILE *f, const char *name, int hidden, spec_lab *lab, char *err, size_t errlen);

/** @return whether the test measures its kernel: a conflict threshold or an access bound. */
int spec_test_measured(const spec_test *t);

/** @return whether the test bounds global-memory requests (the CPU build must then record them). */
int spec_test_global(const spec_test *t);

/** @return the index of the task called @p name, or -1. */
int spec_find_task(const spec_lab *lab, const char *name);

#define SPEC_MAX_GROUPS 8 /**< runners a lab's pairs may be split into */
#define SPEC_PAIR_FLAGS 160 /**< room for the flags of one runner's pairs */

/**
 * The (key type, E) pairs that the lab's merge and sort tests launch (op=merge or op=sort), dealt
 * in turn into at most @p groups runners, which the grader can compile at once: each runner's
 * compiler flags, which build it for its pairs alone (common/kit_runner_pairs.h), as
 * "-DKIT_RUNNER_E_I32=0x... -DKIT_RUNNER_E_I64=0x... -DKIT_RUNNER_E_KV32=0x...", and each test's
 * runner. A lab without such tests, or with one that leaves its E to the runner's default, gets
 * one runner with empty flags: built for every pair. A test of another op goes to runner 0.
 * @param[in]  lab      the spec, with the tests that will run
 * @param[in]  groups   the most runners wanted (1 .. SPEC_MAX_GROUPS; more are cut to that)
 * @param[out] flags    each runner's flags (room for SPEC_MAX_GROUPS)
 * @param[out] group_of each test's runner, by its index in lab->tests
 * @return the number of runners: at least 1, at most @p groups and the number of pairs
 */
int spec_runner_groups(const spec_lab *lab, int groups, char (*flags)[SPEC_PAIR_FLAGS], int *group_of);

#endif
