/* Tests of kit_ncu: reading Nsight Compute's CSV into per-launch metric values. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit_ncu.h"
#include "kit_test.h"

static const char *HEADER =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
    "\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";

/* Parses text; returns kit_ncu_read's result with the rows and the error. */
static int parse(const char *text, kit_ncu_row **rows, size_t *n, char *err, size_t len)
{
    FILE *f = tmpfile();
    fputs(text, f);
    rewind(f);
    int rc = kit_ncu_read(f, rows, n, err, len);
    fclose(f);
    return rc;
}

static void test_reads_rows(void)
{
    char text[2048], err[200] = "";
    snprintf(text, sizeof text,
             "==PROF== Connected to process 457\n"
             "ran 2 cases\n"
             "%s"
             "\"0\",\"457\",\"bankcheck\",\"127.0.0.1\",\"bank_micro_load_stride(int, int *)\",\"1\",\"7\",\"(32, 1, 1)\","
             "\"(1, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\","
             "\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\",\"\",\"31\"\n"
             "\"0\",\"457\",\"bankcheck\",\"127.0.0.1\",\"bank_micro_load_stride(int, int *)\",\"1\",\"7\",\"(32, 1, 1)\","
             "\"(1, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\","
             "\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum\",\"\",\"0\"\n"
             "\"1\",\"457\",\"bankcheck\",\"127.0.0.1\",\"k(\"\"quoted\"\", int)\",\"1\",\"7\",\"(32, 1, 1)\","
             "\"(1, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\","
             "\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\",\"\",\"1,234,567\"\n",
             HEADER);
    kit_ncu_row *rows = NULL;
    size_t n = 0;
    int rc = parse(text, &rows, &n, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && n == 3, "rc %d, %zu rows: %s", rc, n, err);
    if (rc != 0 || n != 3)
        return;
    CU_ASSERT_EQUAL(rows[0].id, 0);
    CU_ASSERT_STRING_EQUAL(rows[0].kernel, "bank_micro_load_stride(int, int *)");
    CU_ASSERT_EQUAL(rows[0].value, 31.0);
    CU_ASSERT_STRING_EQUAL(rows[2].kernel, "k(\"quoted\", int)");
    KIT_ASSERT_MSG(strcmp(rows[0].grid, "1,1,1") == 0 && strcmp(rows[0].block, "32,1,1") == 0,
                   "grid and block: got \"%s\" and \"%s\", expected \"1,1,1\" and \"32,1,1\"", rows[0].grid, rows[0].block);
    KIT_ASSERT_MSG(rows[2].value == 1234567.0, "thousands separators: got %.0f", rows[2].value);
    double v = -1;
    CU_ASSERT(kit_ncu_value(rows, n, 0, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", &v) == 0 && v == 0.0);
    CU_ASSERT(kit_ncu_value(rows, n, 1, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", &v) == 0 &&
              v == 1234567.0);
    CU_ASSERT(kit_ncu_value(rows, n, 2, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", &v) == -1);
    CU_ASSERT(kit_ncu_value(rows, n, 1, "no.such.metric", &v) == -1);
    free(rows);
}

static void test_columns_in_another_order(void)
{
    const char *text = "\"Metric Value\",\"Metric Name\",\"Kernel Name\",\"ID\"\n\"5\",\"m\",\"kern\",\"3\"\n";
    kit_ncu_row *rows = NULL;
    size_t n = 0;
    char err[200] = "";
    int rc = parse(text, &rows, &n, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && n == 1 && rows[0].id == 3 && rows[0].value == 5.0 && strcmp(rows[0].metric, "m") == 0 &&
                       rows[0].grid[0] == '\0' && rows[0].block[0] == '\0',
                   "rc %d, %zu rows (no Grid Size or Block Size columns: empty shapes): %s", rc, n, err);
    free(rows);
}

/* kit_ncu_read_file: a missing file says so; a file reads as kit_ncu_read reads it. */
static void test_read_file(void)
{
    kit_ncu_row *rows = NULL;
    size_t n = 7;
    char err[200] = "", path[] = "/tmp/kit-ncu-XXXXXX";
    int rc = kit_ncu_read_file("/no/such/ncu.csv", &rows, &n, err, sizeof err);
    KIT_ASSERT_MSG(rc == -1 && rows == NULL && n == 0 && strstr(err, "ncu wrote no CSV"), "a missing file: rc %d, %s", rc, err);
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        kit_test_fail(__FILE__, __LINE__, "no temporary file");
        return;
    }
    fputs("\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Value\"\n\"2\",\"k\",\"m\",\"9\"\n", f);
    fclose(f);
    rc = kit_ncu_read_file(path, &rows, &n, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && n == 1 && rows[0].id == 2 && rows[0].value == 9.0, "a file: rc %d, %zu rows (%s)", rc, n, err);
    free(rows);
    remove(path);
}

/* Kernel names as ncu prints them and as KIT_LAUNCH spells them come down to the same base name. */
static void test_kernel_base(void)
{
    static const char *const cases[][2] = {
        {"void merge_tiled_kernel<int>(const T1 *, int, const T1 *, int, T1 *, int)", "merge_tiled_kernel"},
        {"merge_tiled_kernel<T>", "merge_tiled_kernel"},
        {"(cf_gather_probe<T, LO>)", "cf_gather_probe"},
        {"worst_merge_probe(const int *, int, int, const int *, int *)", "worst_merge_probe"},
        {"pbs_kernel", "pbs_kernel"},
        {"", ""}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char base[64];
        kit_ncu_kernel_base(cases[c][0], base, sizeof base);
        KIT_ASSERT_MSG(strcmp(base, cases[c][1]) == 0, "kit_ncu_kernel_base(\"%s\"): got \"%s\", expected \"%s\"",
                       cases[c][0], base, cases[c][1]);
    }
    char small[5];
    kit_ncu_kernel_base("void merge_tiled_kernel<int>(int)", small, sizeof small);
    KIT_ASSERT_MSG(strcmp(small, "merg") == 0, "a short buffer gets the cut name, got \"%s\"", small);
}

static void test_refusals(void)
{
    kit_ncu_row *rows = NULL;
    size_t n = 0;
    char err[200] = "";
    KIT_ASSERT_MSG(parse("==PROF== nothing profiled\n", &rows, &n, err, sizeof err) == -1 && strstr(err, "--csv"),
                   "output without CSV: %s", err);
    KIT_ASSERT_MSG(parse("\"A\",\"B\"\n", &rows, &n, err, sizeof err) == -1 && strstr(err, "lacks"),
                   "a header without the needed columns: %s", err);
    char text[1024];
    snprintf(text, sizeof text, "%s\"x\",\"1\",\"p\",\"h\",\"k\",\"1\",\"7\",\"b\",\"g\",\"0\",\"9.0\",\"s\",\"m\",\"\",\"3\"\n",
             HEADER);
    KIT_ASSERT_MSG(parse(text, &rows, &n, err, sizeof err) == -1 && strstr(err, "line 2"), "a non-numeric ID: %s", err);
    snprintf(text, sizeof text, "%s\"0\",\"1\",\"p\",\"h\",\"k\",\"1\",\"7\",\"b\",\"g\",\"0\",\"9.0\",\"s\",\"m\",\"\",\"n/a\"\n",
             HEADER);
    KIT_ASSERT_MSG(parse(text, &rows, &n, err, sizeof err) == -1 && strstr(err, "n/a"), "a non-numeric value: %s", err);
}

static void register_tests(void)
{
    CU_pSuite s = kit_test_suite("ncu CSV");
    kit_test_add(s, "rows, quotes, separators, lookups", test_reads_rows);
    kit_test_add(s, "columns in another order", test_columns_in_another_order);
    kit_test_add(s, "kernel names: ncu's and KIT_LAUNCH's come to one base name", test_kernel_base);
    kit_test_add(s, "malformed CSV refused", test_refusals);
    kit_test_add(s, "kit_ncu_read_file: a missing file, a file", test_read_file);
}

int main(void)
{
    return kit_test_main("ncu tests", register_tests);
}
