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

/** The counts of the measured kernel a bound may name, in the order of spec_counts.v and spec_test.sides. */
typedef enum spec_count {
    SPEC_CONFLICTS,     /**< "conflicts": shared-memory load conflicts */
    SPEC_LOADS,         /**< "loads": shared-memory load requests */
    SPEC_SHARED_STORES, /**< "shared_stores": shared-memory store requests */
    SPEC_GLOBAL_LOADS,  /**< "global_loads": global-memory load requests */
    SPEC_GLOBAL_STORES, /**< "global_stores": global-memory store requests */
    SPEC_THREAD_LOADS,  /**< "thread_loads": the most global-memory loads one thread made (CPU mode) */
    SPEC_THREAD_STORES, /**< "thread_stores": the most global-memory stores one thread made (CPU mode) */
    SPEC_NCOUNTS        /**< how many there are */
} spec_count;

/** One measurement of the measured kernel: the counts of spec_count, by index. */
typedef struct spec_counts {
    long long v[SPEC_NCOUNTS]; /**< v[SPEC_CONFLICTS], v[SPEC_LOADS], ... */
} spec_counts;

#define SPEC_MAX_RELS 8 /**< formula bounds (F*BASE) a test may have */

/** What a formula bound F*BASE multiplies (spec_parse() says what each is). */
typedef enum spec_base {
    SPEC_BASE_REF,         /**< "ref": the reference's count of the same kind on the same input */
    SPEC_BASE_SHARE,       /**< "share": warps times each thread's share of the output */
    SPEC_BASE_WARPQ,       /**< "warpq": pbs_kernel's warp-queries */
    SPEC_BASE_READS,       /**< "reads": the load requests of PBS-CF's or PBS-CL's searches */
    SPEC_BASE_PROBE_LOADS, /**< "probe_loads": the load requests of lab 7's or lab 9's gather probe */
    SPEC_BASE_THEOREM,     /**< "theorem": the papers' bound for (w, E), in conflicts */
    SPEC_NBASES            /**< how many there are */
} spec_base;

/** A bound written as a formula: COUNT CMP F*BASE, F in thousandths. */
typedef struct spec_rel {
    int count;       /**< the spec_count it bounds (for ref, also the reference's count it multiplies) */
    char cmp;        /**< '<' (COUNT<=F*BASE), '>' (COUNT>=F*BASE) or '=' (COUNT==F*BASE) */
    int base;        /**< a spec_base */
    long long milli; /**< F * 1000 */
} spec_rel;

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
    long long max_loads;     /**< loads<=N: the most shared-memory load requests, 0 for none */
    long long min_shared_stores; /**< shared_stores>=N: the fewest shared-memory store requests, 0 for none */
    long long max_shared_stores; /**< shared_stores<=N: the most shared-memory store requests, 0 for none */
    long long min_global_loads;  /**< global_loads>=N: the fewest global-memory load requests, 0 for none */
    long long max_global_loads;  /**< global_loads<=N: the most global-memory load requests, 0 for none */
    long long min_global_stores; /**< global_stores>=N: the fewest global-memory store requests, 0 for none */
    long long max_global_stores; /**< global_stores<=N: the most global-memory store requests, 0 for none */
    long long max_thread_loads;  /**< thread_loads<=N: the most global-memory loads one thread may make, 0 for none */
    long long max_thread_stores; /**< thread_stores<=N: the most global-memory stores one thread may make, 0 for none */
    int stores_per_share;        /**< global_stores<=K*share: K, the bound's store instructions per output a thread owes */
    int gpu_slack_per_round;     /**< gpu_slack=K*rounds (op=sort): K, before gpu_slack is computed from u */
    unsigned char sides[SPEC_NCOUNTS]; /**< per spec_count, the sides the spec bounds: 1 at least, 2 at most */
    spec_rel rel[SPEC_MAX_RELS]; /**< formula bounds not yet computed: once read, only the F*ref ones (spec_apply_ref()) */
    int nrel;                    /**< entries used in rel */
    int part;                /**< worst: 1 (part=subproblem), 2 (part=order) or 3 (part=both), 0 for other ops */
} spec_test;

#define SPEC_MAX_DRAWS 16       /**< draw lines a lab may have */
#define SPEC_MAX_DRAWN 64       /**< tests one draw line may make */
#define SPEC_DRAW_TEXT 900      /**< room for a draw line's key=value words */
#define SPEC_DRAW_TRIES 1000    /**< draws of one test before its line is judged unsatisfiable */

/** A draw line of a hidden spec: COUNT tests NAME-1 .. NAME-COUNT, drawn at grading time (spec_draw_tests()). */
typedef struct spec_draw {
    char name[SPEC_NAME - 4]; /**< the tests' name before "-i" */
    int task;                 /**< index into spec_lab.tasks */
    int count;                /**< tests it draws */
    char options[SPEC_DRAW_TEXT]; /**< its key=value words as written, choices included */
    char where[96];           /**< "file:line", for messages */
} spec_draw;

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
    spec_test tests[SPEC_MAX_TESTS]; /**< the tests, public then hidden (drawn ones last) */
    int ntests; /**< entries used in tests */
    spec_draw draws[SPEC_MAX_DRAWS]; /**< the hidden spec's draw lines */
    int ndraws; /**< entries used in draws */
    int drawn;  /**< 1 once spec_draw_tests() has added their tests */
} spec_lab;

/**
 * Reads a spec file into @p lab. Call it on a zeroed spec_lab for the public
 * spec, then again on the same lab for its hidden spec, which may only add
 * tests (marked hidden) and draw lines to tasks the public spec declared.
 *
 * Lines (blank lines and # comments are ignored):
 * - lab NN-slug
 * - title Words...
 * - file NAME                       a file the submission provides (plain name)
 * - uses NN-slug/NAME               an earlier lab's file this lab builds on
 * - task NAME POINTS Words...
 * - test TASK public|hidden NAME key=value...
 * - draw TASK NAME COUNT key=value...     (hidden specs: tests drawn at grading time, below)
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
 * without a conflict threshold: loads, shared_stores, global_loads and global_stores, each
 * bounded from below (COUNT>=N), from above (COUNT<=N) or both (COUNT==N, or one bound of each
 * side): for example loads>=N and shared_stores>=N (the data goes through shared memory),
 * global_loads<=N (each input is read from global memory about once), global_stores<=N (each
 * thread writes about its share of the output: a kernel that leaves the work to fewer threads
 * makes more store instructions, up to one per output) and loads<=N (a lane that does its
 * warp's searches alone makes many more load requests). A count takes at most one bound a side,
 * and a test one conflict threshold (conflicts==N with tolerance=P% bounds both sides).
 *
 * A bound's N may be a formula, F*BASE (or BASE alone, F = 1), F a decimal with up to 3 places;
 * N is F times BASE, rounded toward the lenient side (down for >=, up for <=, to the nearest for
 * ==); an upper bound that comes to 0 is 1 (the count is still measured). The bases where the
 * algorithm fixes the work, computed from the test's own keys (so that a drawn test has them):
 * - share (global_stores, op=merge with its launch): warps * share, where share =
 *   ceil((m + n) / (blocks * u)) is what each thread owes and warps = blocks * ceil(u / 32);
 *   global_stores<=K*share holds for a warp whose threads each write their share in at most K
 *   store instructions of the source;
 * - warpq (op=pbs): the warp-queries pbs_kernel makes: the sum over its warps (first thread g,
 *   every thread of the grid one query a round) of ceil((n - g) / (blocks * u)) where g < n;
 * - reads (op=pbs, alg cf or cl): the load requests of the searches, warpq * (log2 J + 32) for
 *   PBS-CF and warpq * (log2 J + 5) for PBS-CL: stage 1 (log2 J - 1), the window test, stage 2 (32
 *   or 5), where J is the smallest power of two of at least max(2, (K + 31) / 32 + 1), K = m
 *   (handout 6);
 * - probe_loads (op=merge with E, op=sort): the load requests of the measured gather probe,
 *   E * ceil(u / 32) for lab 7's (one tile) and that times log2(u) for lab 9's (a launch per
 *   block-sort round);
 * - theorem (conflicts, op=worst): the papers' bound for (w, E) in conflicts, the cost
 *   kit_worst_theorem() less the E + 2 loads a thread of the measured merge makes;
 * - ref: the reference solution's count of the same kind on the same input, known only when
 *   the grader has run it (spec_test_needs_ref(), spec_apply_ref()).
 * gpu_slack=K*rounds allows K conflicts a launch of lab 9's probe (log2(u) launches).
 *
 * Draw lines, in hidden specs only: DRAW TASK NAME COUNT key=value..., where DRAW is the word
 * "draw". The line describes a distribution; at grading time the grader draws COUNT tests from
 * it, NAME-1 .. NAME-COUNT, keyed on the course secret and the submitted files
 * (spec_draw_tests()). Its keys are a test line's. An input or launch key (op, type, m, n, gen,
 * seed, ranks, check, queries, blocks, u, w, E, tile, alg, part, timeout) takes a value, or a
 * choice: {V1,V2,...} draws one of its items, each as likely, where an item is a value or a range
 * [LO..HI], which draws a whole number from LO to HI, each as likely; [LO..HI] alone is a choice
 * of one range. The other keys (the bounds, kernel, arch, tolerance, gpu_slack) take one value,
 * the same for every test of the line; bounds are formulas or ref, since no number can be known
 * in advance. seed is drawn when the line does not give it. every=KEY,KEY... stratifies: the
 * first P tests, P the product of those keys' numbers of items, take each combination of their
 * items once (in a drawn order), so that every key type and variant is drawn; COUNT >= P.
 * A drawn test must keep every rule of a test line above, and the launch must fit a block's
 * shared memory (227 KiB) and, for lab 7's measured probe, a full tile (m + n >= u * E): one that
 * does not is drawn again (its free keys and ranges), up to SPEC_DRAW_TRIES times. A line is
 * tried when it is read, with a fixed key: one whose tests never keep the rules is refused there.
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

/** @return whether the test measures its kernel: a conflict threshold or an access bound, ref ones included. */
int spec_test_measured(const spec_test *t);

/** @return whether the test has bounds F*ref, which need the reference's counts on its input (spec_apply_ref()). */
int spec_test_needs_ref(const spec_test *t);

/**
 * Makes the test's F*ref bounds concrete from the reference solution's counts of its measured
 * kernel on the same input (the same request: type, sizes, generator, seed, launch), as
 * spec_parse() makes formula bounds: F times the reference's count of the bound's kind, rounded
 * toward the lenient side. Afterwards spec_test_needs_ref() is 0 and the test reads like one
 * written with numbers.
 * @param[in,out] t   the test
 * @param[in]     ref the reference's counts
 */
void spec_apply_ref(spec_test *t, const spec_counts *ref);

/**
 * Draws the tests of the lab's draw lines (spec.h) and adds them, hidden, after its other tests,
 * named NAME-1 .. NAME-COUNT. Each line draws from a stream keyed on @p key and its name
 * (draw_stream_init()), so the same key gives the same tests.
 * @param[in,out] lab    the spec, read with its hidden spec; drawn at most once
 * @param[in]     key    the lab's key, draw_lab_key() of the course secret and the submitted files
 * @param[out]    err    on error, "<file>:<line>: draw NAME: <what>"
 * @param[in]     errlen size of @p err
 * @return 0, or -1 with err (a test that keeps no rule in SPEC_DRAW_TRIES draws, too many tests)
 */
int spec_draw_tests(spec_lab *lab, const unsigned char key[32], char *err, size_t errlen);

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
