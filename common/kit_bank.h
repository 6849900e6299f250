/** @file
 * The bank-conflict simulator: the Distributed Memory Machine of the papers
 * (w banks, bank = word index mod w, the same word multicast for free),
 * applied to recorded shared-memory accesses. Which accesses of a warp are
 * served together is the warp model (kit_bank_group): as the hardware issues
 * them, or in the papers' lock-step.
 */
#ifndef KIT_BANK_H
#define KIT_BANK_H

#include <stdint.h>
#include <stdio.h>

#include "kit_trace.h" /* kit_access, the record the simulator counts */

#ifdef __cplusplus
extern "C" {
#endif

/** The warp model: which accesses of a warp's threads are served together, as one step. */
typedef enum kit_bank_group {
    /**
     * As Volta and later GPUs issue them: one step per instruction that the warp executes. The
     * threads that reach the same site (source-level access) for the same time since their last
     * barrier or warp operation execute it together: a step is (sync, site, visit). Threads of a
     * data-dependent loop meet at each site once per pass, whatever their other accesses.
     */
    KIT_GROUP_SITE = 0,
    /** The papers' lock-step: the k-th access of every thread of the warp is one step (by ordinal). */
    KIT_GROUP_LOCKSTEP = 1
} kit_bank_group;

/** The machine: w banks of word_bytes each; a warp is w threads. */
typedef struct kit_bank_model {
    unsigned w;          /**< banks, and threads per warp (1 to 1024; 32 on NVIDIA GPUs) */
    unsigned word_bytes; /**< width of a bank (4 on current GPUs, 8 on Kepler in 8-byte mode) */
} kit_bank_model;

/** Totals over a set of steps. A step is what one warp serves at once (see kit_bank_group), loads and stores apart. */
typedef struct kit_bank_count {
    uint64_t steps;     /**< steps with at least one access */
    uint64_t cost;      /**< the papers' count: the sum over steps of the step's cost */
    uint64_t conflicts; /**< the profiler's count: the sum over steps of (cost - phases) */
} kit_bank_count;

/**
 * The simulator's result: totals for the kernel, per block and per warp,
 * each for loads and stores apart (as Nsight Compute's ..._op_ld and ..._op_st).
 */
typedef struct kit_bank_report {
    /** @{ */
    kit_bank_count load, store; /**< the whole kernel */
    /** @} */
    uint32_t blocks;            /**< 1 + the largest block index seen */
    uint32_t warps;             /**< warps per block: 1 + the largest thread index seen, divided by w */
    /** @{ */
    kit_bank_count *block_load, *block_store; /**< [blocks] */
    kit_bank_count *warp_load, *warp_store;   /**< [blocks * warps], block-major */
    /** @} */
} kit_bank_report;

/**
 * Counts the conflicts of a trace, with the hardware's warp model (KIT_GROUP_SITE):
 * kit_bank_simulate_grouped() with that model.
 */
int kit_bank_simulate(const kit_bank_model *model, const kit_access *acc, size_t n, kit_bank_report *out,
                      char *err, size_t errlen);

/**
 * Counts the conflicts of a trace on the GPU's banks (32 banks of 4 bytes, the hardware's warp
 * model) and frees the accesses: what a tool does with kit_cpu_trace_stop()'s copy.
 * @param[in]  acc    the accesses, malloc'ed (or NULL when @p n is 0); freed on every return
 * @param[in]  n      their number
 * @param[out] r      the report, after a 0 return (free it with kit_bank_free())
 * @param[out] err    why the simulator refused the trace
 * @param[in]  errlen size of @p err
 * @return 0, or -1 with a reason in @p err
 */
int kit_bank_count_trace(kit_access *acc, size_t n, kit_bank_report *r, char *err, size_t errlen);

/**
 * Counts the conflicts of a trace.
 *
 * The threads of a warp are grouped into steps by the warp model @p group
 * (kit_bank_group): by site and visit as the hardware does, or by ordinal as
 * the papers do (the k-th access of every thread of a warp forms one step;
 * loads and stores of the same ordinal form two). An access whose site is 0
 * (unknown) is grouped by its ordinal in both. A step's cost is the largest number of DISTINCT
 * words any one bank must serve; threads reading the same word share it.
 * An access wider than a bank (8 or 16 bytes on 4-byte banks) is served in
 * phases, as the hardware does: with size = p * word_bytes the warp's lanes
 * split into p groups of w/p consecutive lanes, and the step's cost is the
 * sum of the groups' costs. The profiler's count charges each step its cost
 * minus its non-empty phases, which is 0 for a conflict-free step; for a wide
 * step it is at least the busiest bank's distinct words (over the whole warp)
 * minus the fewest wavefronts the distinct words need, ceil(distinct / w), as
 * measured on Hopper (results/README.md: bankcheck 98 of 98).
 *
 * @param[in]  model the machine
 * @param[in]  group the warp model
 * @param[in]  acc   the trace, in any order
 * @param[in]  n     its length
 * @param[out] out   the report; release it with kit_bank_free()
 * @param[out] err   why the trace was refused (bad model or warp model, size, or a thread or
 *                   block index past the limits)
 * @param[in]  errlen size of @p err
 * @return 0, or -1 with a message in @p err
 */
int kit_bank_simulate_grouped(const kit_bank_model *model, kit_bank_group group, const kit_access *acc, size_t n,
                              kit_bank_report *out, char *err, size_t errlen);

/** Releases the arrays of a report. */
void kit_bank_free(kit_bank_report *r);

/**
 * Writes a trace as text: a header line "# kit-trace 2", then one line per access:
 * "block thread ordinal addr size r|w site sync visit".
 * @return 0, or -1 on a write error
 */
int kit_trace_write(FILE *f, const kit_access *acc, size_t n);

/**
 * Writes a trace to a file with kit_trace_write(); on failure says so on stderr, naming the file.
 * @return 0, or -1 if the file could not be opened, written or closed
 */
int kit_trace_save(const char *path, const kit_access *acc, size_t n);

/**
 * Reads a text trace written by kit_trace_write() (blank lines and other
 * # lines are skipped). A trace of version 1 ("# kit-trace 1", lines without
 * site, sync and visit) reads with site, sync and visit 0. Refuses, with the line number, any malformed line,
 * a size other than 1, 2, 4, 8 or 16, and an access that ends past 2^32 bytes.
 * @param[in]  f   the trace file
 * @param[out] acc malloc'ed accesses (free it)
 * @param[out] n   their number
 * @param[out] err the first malformed line and what is wrong with it
 * @param[in]  errlen size of @p err
 * @return 0, or -1 with a message in @p err
 */
int kit_trace_read(FILE *f, kit_access **acc, size_t *n, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
