/** @file kit_ncu.h Reads the CSV that Nsight Compute writes with --csv, to get per-launch metric values (bank conflicts). */
#ifndef KIT_NCU_H
#define KIT_NCU_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** ncu's exact count of a kernel's shared-memory load bank conflicts (what conflict thresholds compare). */
#define KIT_NCU_LOAD_CONFLICTS "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
/** ncu's count of a kernel's shared-memory load instructions, warp-level (the simulator's load steps). */
#define KIT_NCU_LOAD_INSTRUCTIONS "smsp__sass_inst_executed_op_shared_ld.sum"
/** ncu's count of a kernel's shared-memory store instructions, warp-level (an access bound's shared_stores). */
#define KIT_NCU_STORE_INSTRUCTIONS "smsp__sass_inst_executed_op_shared_st.sum"
/** ncu's count of a kernel's global-memory load instructions, warp-level (an access bound's global_loads). */
#define KIT_NCU_GLOBAL_LOADS "smsp__sass_inst_executed_op_global_ld.sum"
/** ncu's count of a kernel's global-memory store instructions, warp-level (an access bound's global_stores). */
#define KIT_NCU_GLOBAL_STORES "smsp__sass_inst_executed_op_global_st.sum"
/** What the grader adds to ncu's metrics for a test with access bounds. */
#define KIT_NCU_ACCESS_METRICS KIT_NCU_STORE_INSTRUCTIONS "," KIT_NCU_GLOBAL_LOADS "," KIT_NCU_GLOBAL_STORES

/**
 * What the grader's --counts measures of every launch, in this order: load and store conflicts,
 * load and store instructions that at least one thread executed (the simulator's steps), and load
 * and store wavefronts (the papers' cost).
 */
#define KIT_NCU_COUNT_METRICS                                                                                     \
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum," \
    "smsp__inst_executed_op_shared_ld_pred_on_any.sum,smsp__inst_executed_op_shared_st_pred_on_any.sum,"           \
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"

/** One metric of one profiled kernel launch. */
typedef struct kit_ncu_row {
    long id;              /**< ncu's launch ID, 0 for the first profiled launch */
    char kernel[128];     /**< the kernel's name as ncu prints it (may be cut) */
    char metric[128];     /**< for example l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum */
    double value;         /**< the value, thousands separators removed */
    char grid[32];        /**< the launch's grid as "x,y,z", or "" when the CSV has no "Grid Size" column */
    char block[32];       /**< its block as "x,y,z", or "" when the CSV has no "Block Size" column */
} kit_ncu_row;

/**
 * Parses ncu's CSV. Lines that are not CSV records (ncu's "==PROF==" notes,
 * the program's own output) are skipped; the header row names the columns
 * "ID", "Kernel Name", "Metric Name" and "Metric Value", in any order, and
 * may name "Grid Size" and "Block Size".
 * @param[in]  f    the CSV
 * @param[out] rows malloc'ed rows (free it)
 * @param[out] n    their number
 * @param[out] err  why the CSV was refused
 * @param[in]  errlen size of @p err
 * @return 0, or -1 with a reason in @p err (no header, a value that is not a number)
 */
int kit_ncu_read(FILE *f, kit_ncu_row **rows, size_t *n, char *err, size_t errlen);

/**
 * kit_ncu_read() on a file: opens it, reads it and closes it.
 * @return 0, or -1 with a reason in @p err ("ncu wrote no CSV" when the file cannot be opened)
 */
int kit_ncu_read_file(const char *path, kit_ncu_row **rows, size_t *n, char *err, size_t errlen);

/**
 * A kernel's name without its return type, template arguments and parameters: "merge_tiled_kernel"
 * for ncu's "void merge_tiled_kernel<int>(const T1 *, ...)" and for KIT_LAUNCH's
 * "merge_tiled_kernel<T>" or "(probe<T, E>)".
 * @param[in]  name the name as ncu or the CPU trace spells it
 * @param[out] base the base name, cut to fit
 * @param[in]  len  size of @p base
 */
void kit_ncu_kernel_base(const char *name, char *base, size_t len);

/**
 * Finds the value of a metric for one launch.
 * @return 0 and the value in *out, or -1 if the CSV has no such row
 */
int kit_ncu_value(const kit_ncu_row *rows, size_t n, long id, const char *metric, double *out);

/**
 * Compares simulated conflict counts with ncu's, launch by launch (launch i
 * is ncu's ID i), for the metrics ..._op_ld.sum and ..._op_st.sum, and prints
 * a Markdown table to @p out.
 * @param[in] csv    ncu's CSV file
 * @param[in] n      launches
 * @param[in] names  what each launch is
 * @param[in] sim_ld the simulator's load conflicts per launch
 * @param[in] sim_st the simulator's store conflicts per launch
 * @param[in] out    where the table goes
 * @return the number of launches that disagree or lack an ncu row, or -1 if the CSV cannot be read
 */
int kit_ncu_compare(const char *csv, int n, const char *const *names, const uint64_t *sim_ld, const uint64_t *sim_st,
                    FILE *out);

#ifdef __cplusplus
}
#endif

#endif
