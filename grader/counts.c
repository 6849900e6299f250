/* The grader's --counts (counts.h): every launch of a test counted, from the CPU trace stream or from ncu's CSV. */
#include <stdlib.h>
#include <string.h>

#include "counts.h"
#include "kit_bank.h"
#include "kit_ncu.h"
#include "kit_trace.h"

/* One line: the launch, then its eight numbers (negative ones written as "-"). */
static void put_line(FILE *out, const char *lab, const char *test, size_t launch, const char *kernel, const char *grid,
                     const char *block, const long long v[8])
{
    char base[64];
    kit_ncu_kernel_base(kernel, base, sizeof base);
    fprintf(out, "%s\t%s\t%zu\t%s\t%s\t%s", lab, test, launch, base, grid, block);
    for (int k = 0; k < 8; k++)
        if (v[k] < 0)
            fprintf(out, "\t-");
        else
            fprintf(out, "\t%lld", v[k]);
    fprintf(out, "\n");
}

/* Counts one launch's accesses into v[8] (see COUNTS_HEADER); returns 0, or -1 with the simulator's reason. */
static int count_run(const kit_trace_run *run, long long v[8], char *err, size_t len)
{
    kit_bank_model model = {32, 4};
    kit_bank_report hw, lock;
    if (kit_bank_simulate_grouped(&model, KIT_GROUP_SITE, run->acc, run->n, &hw, err, len) != 0)
        return -1;
    if (kit_bank_simulate_grouped(&model, KIT_GROUP_LOCKSTEP, run->acc, run->n, &lock, err, len) != 0) {
        kit_bank_free(&hw);
        return -1;
    }
    long long got[8] = {(long long)hw.load.conflicts, (long long)hw.store.conflicts, (long long)hw.load.steps,
                        (long long)hw.store.steps, (long long)hw.load.cost, (long long)hw.store.cost,
                        (long long)lock.load.conflicts, (long long)lock.store.conflicts};
    memcpy(v, got, sizeof got);
    kit_bank_free(&hw);
    kit_bank_free(&lock);
    return 0;
}

int counts_read_stream(const char *trace, const char *kernel, kit_trace_run **runs, size_t *nruns, size_t *launches,
                       char *why, size_t len)
{
    FILE *f = fopen(trace, "rb");
    char err[160] = "";
    *runs = NULL;
    *nruns = *launches = 0;
    if (f && fgets(err, sizeof err, f) && strncmp(err, COUNTS_TRACE_REFUSED, strlen(COUNTS_TRACE_REFUSED)) == 0) {
        snprintf(why, len, "the trace stream was refused: %s", err + strlen(COUNTS_TRACE_REFUSED));
        fclose(f);
        return -1;
    }
    if (f)
        rewind(f);
    int rc = f ? kit_trace_stream_read(f, kernel, runs, nruns, launches, err, sizeof err) : -1;
    if (rc != 0)
        snprintf(why, len, "the trace stream is invalid: %s", f ? err : "the grader could not read it");
    if (f)
        fclose(f);
    return rc;
}

int counts_from_stream(FILE *out, const char *lab, const char *test, const char *trace, char *why, size_t len)
{
    kit_trace_run *runs;
    size_t nruns, launches;
    char err[160];
    if (counts_read_stream(trace, ".", &runs, &nruns, &launches, why, len) != 0)
        return -1;
    int rc = 0;
    for (size_t r = 0; rc == 0 && r < nruns; r++) {
        const kit_trace_launch *l = &runs[r].launch;
        long long v[8];
        char grid[40], block[40];
        snprintf(grid, sizeof grid, "%u,%u,%u", l->grid[0], l->grid[1], l->grid[2]);
        snprintf(block, sizeof block, "%u,%u,%u", l->block[0], l->block[1], l->block[2]);
        if (count_run(&runs[r], v, err, sizeof err) != 0) {
            snprintf(why, len, "the simulator refused launch %zu: %s", r + 1, err);
            rc = -1;
        } else {
            put_line(out, lab, test, r + 1, l->name, grid, block, v);
        }
    }
    kit_trace_runs_free(runs, nruns);
    return rc;
}

/* Writes the launch whose rows are rows[0 .. n-1] (one ID); returns 0, or -1 with the missing metric in why. */
static int put_ncu_launch(FILE *out, const char *lab, const char *test, size_t launch, const kit_ncu_row *rows,
                          size_t n, char *why, size_t len)
{
    static const char *const metrics[6] = {
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "smsp__inst_executed_op_shared_ld_pred_on_any.sum", "smsp__inst_executed_op_shared_st_pred_on_any.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"};
    long long v[8] = {0, 0, 0, 0, 0, 0, -1, -1};
    for (int k = 0; k < 6; k++) {
        double value;
        if (kit_ncu_value(rows, n, rows[0].id, metrics[k], &value) != 0) {
            snprintf(why, len, "ncu's launch %ld (%.60s) has no %s", rows[0].id, rows[0].kernel, metrics[k]);
            return -1;
        }
        v[k] = (long long)value;
    }
    put_line(out, lab, test, launch, rows[0].kernel, rows[0].grid, rows[0].block, v);
    return 0;
}

int counts_read_ncu(const char *csv, kit_ncu_row **rows, size_t *n, const char *what, char *why, size_t len)
{
    char err[160];
    if (kit_ncu_read_file(csv, rows, n, err, sizeof err) != 0) {
        snprintf(why, len, "%s: %s", what, err);
        return -1;
    }
    return 0;
}

int counts_from_ncu(FILE *out, const char *lab, const char *test, const char *csv, char *why, size_t len)
{
    kit_ncu_row *rows;
    size_t n;
    if (counts_read_ncu(csv, &rows, &n, "no ncu counts", why, len) != 0)
        return -1;
    int rc = 0;
    size_t launch = 0;
    for (size_t start = 0, end; rc == 0 && start < n; start = end) { /* ncu lists a launch's metrics together */
        for (end = start + 1; end < n && rows[end].id == rows[start].id;)
            end++;
        rc = put_ncu_launch(out, lab, test, ++launch, rows + start, end - start, why, len);
    }
    free(rows);
    return rc;
}
