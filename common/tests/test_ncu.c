/* Tests of kit_ncu: reading Nsight Compute's CSV into per-launch metric values. */
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
    KIT_ASSERT_MSG(rc == 0 && n == 1 && rows[0].id == 3 && rows[0].value == 5.0 && strcmp(rows[0].metric, "m") == 0,
                   "rc %d, %zu rows: %s", rc, n, err);
    free(rows);
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
    kit_test_add(s, "malformed CSV refused", test_refusals);
}

int main(void)
{
    return kit_test_main("ncu tests", register_tests);
}
