/** @file kit_cli.h Command-line parsing shared by every lab driver, so all drivers take the same options. */
#ifndef KIT_CLI_H
#define KIT_CLI_H

#include "kit_gen.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A driver's options. Fill in the defaults, then call kit_args_parse(). */
typedef struct kit_args {
    long long m;      /**< --m: size of A */
    long long n;      /**< --n: size of B */
    kit_type type;    /**< --type: i32, i64 or kv32 */
    kit_gen gen;      /**< --gen: input shape */
    uint64_t seed;    /**< --seed */
    long long k;      /**< --k: one rank to query, or -1 for none */
    int repeat;       /**< --repeat: timed repetitions, at least 1 */
    int blocks;       /**< --blocks: thread blocks of a kernel launch, 0 for the lab's choice */
    int threads;      /**< --threads: threads per block, 0 for the lab's choice */
    int tile;         /**< --tile: elements of A (and of B) per shared-memory tile, 0 for the lab's choice */
    int print;        /**< --print: print the arrays */
    int serve;        /**< --serve: answer one grader request on stdin/stdout */
    const char *trace; /**< --trace FILE: write the kernel's shared-memory trace there (CPU build), or NULL */
    const char *alg;     /**< --alg NAME: the algorithm, for labs with several, or NULL */
    const char *queries; /**< --queries NAME: the query set, for labs with queries, or NULL */
} kit_args;

/** Fills @p a with the kit's defaults: m = n = 1000, i32, random, seed 1, no k, 1 repeat. */
void kit_args_defaults(kit_args *a);

/**
 * Parses the options of a lab driver. Sizes must satisfy 0 <= m, n and
 * m + n <= INT32_MAX; --k, when given, must lie in 0 .. m + n.
 * @param[in,out] a      defaults on entry, the parsed options on return
 * @param[in]     argc   argument count, argv[0] included
 * @param[in]     argv   arguments
 * @param[out]    err    on error, a one-line message naming the bad option and, for a bad value, what
 *                       it takes ("bad value '2000' for --threads: a whole number from 1 to 1024 ...")
 * @param[in]     errlen size of @p err
 * @return 0 on success, 1 if --help was given, -1 on a bad option or value
 */
int kit_args_parse(kit_args *a, int argc, char **argv, char *err, size_t errlen);

/**
 * Prints the shared options for --help.
 * @param[in] out  where to print
 * @param[in] prog the program's name
 * @param[in] what one line on what the driver does
 */
void kit_args_usage(void *out, const char *prog, const char *what);

#ifdef __cplusplus
}
#endif

#endif
