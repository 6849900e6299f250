/**
 * @file build.h
 * Builds a lab's runner from a submission, checking it mechanically on the way: its source before
 * it is compiled (what it includes and writes), its object before it is linked (what it calls and
 * defines, against the same object built from the lab's skeleton). Nothing of the submission runs
 * before both checks pass.
 */
#ifndef BUILD_H
#define BUILD_H

#include <stddef.h>

#include "check.h"
#include "spec.h"

/**
 * The CPU build's flags for every runner (and for the kit's own CPU lab programs: the Makefile reads
 * them here): the checked memory (common/kit_cpu_mem.h). GCC's ThreadSanitizer instrumentation calls
 * the emulator's hooks before every load and store that may leave the function's own registers, its
 * bounds sanitizer checks every index into an array of known size, and stack clash protection makes a
 * large frame touch its pages in order, so that it meets the guard page below the stack instead of
 * skipping it. Without the function entry and exit calls, and without the macro that would tell the
 * code it is instrumented.
 */
#define KIT_CPU_CHECKED_FLAGS "-fsanitize=thread,bounds --param=tsan-instrument-func-entry-exit=0 -U__SANITIZE_THREAD__ -fstack-clash-protection"

/** What stays the same for every build of a grading run. */
typedef struct build_env {
    const char *kit;            /**< the kit's root, absolute */
    const char *work;           /**< the grader's work folder, absolute: baselines are cached in work/vet */
    const char *compiler;       /**< g++ (CPU mode) or nvcc (GPU mode) */
    const char *cxx;            /**< g++ (the source check always preprocesses as the CPU build) */
    int cpu;                    /**< 1: the CPU build, kernels on the kit's emulation */
    const char *nvcc_flags;     /**< extra flags of GPU builds, space-separated (the -gencode list) */
    const char *defines;        /**< extra flags of every compile in both modes, space-separated (spec_runner_pairs()), or "" */
    const char *libkit;         /**< the kit's library for this mode, absolute */
    int timeout_s;              /**< the limit of one compiler run */
    unsigned uid;               /**< the sandbox user, 0 to stay who we are */
    unsigned gid;               /**< its group */
    const sandbox_policy *box;  /**< how compiler runs are contained */
    int part;                   /**< which of the lab's runners this build is (0 for the only one) */
    const char *warnings;       /**< runner 0 writes here the compiler's warnings in the student's files (complog.h); NULL: not asked */
    const char *shown;          /**< the submission as the user named it, for those warnings' paths ("labs") */
} build_env;

/**
 * Builds runner b->part of the lab (build_runner_path()) from the files in scratch/scratch (the
 * submission's and the earlier labs' it uses): the source preprocessed and vetted (vet_source()),
 * compiled to an object with b->defines (that runner's (type, E) pairs, spec_runner_groups()), the
 * object vetted against the skeleton's built with the same flags (vet_compare()), and linked with
 * the kit's library. The grader builds several runners in child processes at once (grader.c). Runner
 * 0 writes the compiler's diagnostics located in the student's files to b->warnings, when asked:
 * one block of their lines (complog_extract()), an empty file when there are none.
 * @param[in]  b       the runner's settings
 * @param[in]  spec    the lab
 * @param[in]  scratch the lab's scratch folder
 * @param[out] why     on failure, one line: "compile error (...): ..." or "not accepted: ..."
 * @param[in]  len     size of @p why
 * @return 0 when the runner is built, else -1
 */
int build_runner(const build_env *b, const spec_lab *spec, const char *scratch, char *why, size_t len);

/**
 * Checks the submission's files on their syntax tree, before any of them is compiled: the lab-file
 * checker (build/grader/labcheck, grader/labcheck.c, beside the grader) parses each as the CPU build
 * compiles it, in the sandbox, and refuses what lies outside the dialect a lab file is written in
 * (labs/README.md). The lab's skeleton is checked first, outside the sandbox: it must pass.
 * @param[in]  b       the build's settings (any runner's: the check is the same for all)
 * @param[in]  spec    the lab
 * @param[in]  scratch the lab's scratch folder (the files in scratch/scratch)
 * @param[out] why     on a refusal, "not accepted: FILE:LINE: RULE: what" (the checker's first line)
 * @param[in]  len     size of @p why
 * @return 0 when every file is accepted, else -1
 */
int build_check_source(const build_env *b, const spec_lab *spec, const char *scratch, char *why, size_t len);

/**
 * The runner of the lab's reference solution (solutions/), built trusted and kept in work/vet until
 * the kit, the lab or the compiler changes: what the grader measures a test's bounds F*ref against
 * (check.h, check_env.reference). Build it with a CPU build's settings.
 * @param[in]  b    the build's settings
 * @param[in]  spec the lab
 * @param[out] path the runner's path
 * @param[in]  plen size of @p path
 * @param[out] why  on failure, why (no solutions/ in the student kit, a build that failed)
 * @param[in]  len  size of @p why
 * @return 0, or -1
 */
int build_reference(const build_env *b, const spec_lab *spec, char *path, size_t plen, char *why, size_t len);

/** Where runner b->part of the lab in scratch is: scratch/bin/runner for runner 0, scratch/bin-k/runner for k. */
void build_runner_path(const build_env *b, const char *scratch, char *path, size_t len);

/** Removes a folder the grader made (a scratch or build folder), with what it holds; best effort. */
void build_remove_tree(const char *dir);

#endif
