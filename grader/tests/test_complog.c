/* Tests of complog.h: the student's own diagnostics picked out of real g++, clang++ and nvcc logs. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "complog.h"
#include "kit_test.h"

#define SHOWN "labs/01-x/stud.cuh"

/* g++ 12 on a harness (drv.cu) that includes the student's stud.cuh from the grader's scratch folder. */
static const char GCC_LOG[] =
    "In file included from /w/01-x.Ab12/scratch/drv.cu:1:\n"
    "/w/01-x.Ab12/scratch/stud.cuh: In function 'int f(int)':\n"
    "/w/01-x.Ab12/scratch/stud.cuh:4:5: error: expected ',' or ';' before 'return'\n"
    "    4 |     return x;\n"
    "      |     ^~~~~~\n"
    "/w/01-x.Ab12/scratch/stud.cuh:2:9: warning: unused variable 'unused' [-Wunused-variable]\n"
    "    2 |     int unused;\n"
    "      |         ^~~~~~\n"
    "/w/01-x.Ab12/scratch/drv.cu: In function 'int main()':\n"
    "/w/01-x.Ab12/scratch/drv.cu:2:18: warning: unused variable 'q' [-Wunused-variable]\n"
    "    2 | int main() { int q; return f(1); }\n"
    "      |                  ^\n"
    "/w/01-x.Ab12/scratch/stud.cuh:5:1: warning: no return statement in function returning non-void [-Wreturn-type]\n"
    "    5 | }\n"
    "      | ^\n";

/* clang++ 14: "./" before the file, source lines as they are (unindented ones too), a closing count. */
static const char CLANG_LOG[] = "In file included from drv.cu:1:\n"
                                "./stud.cuh:3:14: error: expected ';' at end of declaration\n"
                                "    int x = a\n"
                                "             ^\n"
                                "             ;\n"
                                "drv.cu:2:18: warning: unused variable 'q' [-Wunused-variable]\n"
                                "int main() { int q; return f(1); }\n"
                                "                 ^\n"
                                "1 warning and 1 error generated.\n";

/* nvcc 12: "FILE(LINE): ...", a blank line after each diagnostic, a remark, a closing count. */
static const char NVCC_LOG[] = "stud.cuh(2): warning #177-D: variable \"unused\" was declared but never referenced\n"
                               "      int unused;\n"
                               "          ^\n"
                               "\n"
                               "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
                               "\n"
                               "drv.cu(2): warning #177-D: variable \"q\" was declared but never referenced\n"
                               "  int main() { int q; return f(1); }\n"
                               "                   ^\n"
                               "\n"
                               "stud.cuh(3): error: identifier \"y\" is undefined\n"
                               "    return y;\n"
                               "           ^\n"
                               "\n"
                               "1 error detected in the compilation of \"drv.cu\".\n";

static void test_gcc(void)
{
    char out[4096];
    int n = complog_extract(GCC_LOG, "stud.cuh", SHOWN, out, sizeof out);
    const char *want = SHOWN ": In function 'int f(int)':\n" SHOWN ":4:5: error: expected ',' or ';' before 'return'\n"
                             "    4 |     return x;\n"
                             "      |     ^~~~~~\n" SHOWN
                             ":2:9: warning: unused variable 'unused' [-Wunused-variable]\n"
                             "    2 |     int unused;\n"
                             "      |         ^~~~~~\n" SHOWN
                             ":5:1: warning: no return statement in function returning non-void [-Wreturn-type]\n"
                             "    5 | }\n"
                             "      | ^\n";
    KIT_ASSERT_MSG(n == 3 && strcmp(out, want) == 0, "g++ log: expected 3 and\n%s\ngot %d and\n%s", want, n, out);
    n = complog_extract(GCC_LOG, "stud.cuh", NULL, out, sizeof out);
    KIT_ASSERT_MSG(n == 3 && strncmp(out, "/w/01-x.Ab12/scratch/stud.cuh: In function", 42) == 0,
                   "shown NULL keeps the compiler's path: got %d and\n%s", n, out);
}

static void test_clang(void)
{
    char out[4096];
    int n = complog_extract(CLANG_LOG, "stud.cuh", SHOWN, out, sizeof out);
    const char *want = SHOWN ":3:14: error: expected ';' at end of declaration\n"
                             "    int x = a\n"
                             "             ^\n"
                             "             ;\n";
    KIT_ASSERT_MSG(n == 1 && strcmp(out, want) == 0, "clang++ log: expected 1 and\n%s\ngot %d and\n%s", want, n, out);
}

static void test_nvcc(void)
{
    char out[4096];
    int n = complog_extract(NVCC_LOG, "stud.cuh", SHOWN, out, sizeof out);
    const char *want = SHOWN "(2): warning #177-D: variable \"unused\" was declared but never referenced\n"
                             "      int unused;\n"
                             "          ^\n" SHOWN "(3): error: identifier \"y\" is undefined\n"
                             "    return y;\n"
                             "           ^\n";
    KIT_ASSERT_MSG(n == 2 && strcmp(out, want) == 0, "nvcc log: expected 2 and\n%s\ngot %d and\n%s", want, n, out);
}

/* Other files' lines, a file whose name only ends like the student's, and an empty log: nothing. */
static void test_none(void)
{
    char out[256] = "x";
    const char *log = "drv.cu:2:18: warning: unused variable 'q'\n    2 | int q;\n"
                      "my_stud.cuh:1:1: warning: not the student's file\n"
                      "common/kit_cpu.h(40): error: not the student's either\n";
    int n = complog_extract(log, "stud.cuh", SHOWN, out, sizeof out);
    KIT_ASSERT_MSG(n == 0 && out[0] == '\0', "other files only: expected 0 and \"\", got %d and\n%s", n, out);
    n = complog_extract(NULL, "stud.cuh", SHOWN, out, sizeof out);
    KIT_ASSERT_MSG(n == 0 && out[0] == '\0', "a NULL log: expected 0 and \"\", got %d and '%s'", n, out);
}

/* A block too long for the buffer: whole lines, then how many were left; control bytes cleaned. */
static void test_cut_and_clean(void)
{
    char out[200];
    int n = complog_extract(GCC_LOG, "stud.cuh", SHOWN, out, sizeof out);
    KIT_ASSERT_MSG(n == 3 && strstr(out, "error: expected") && strstr(out, " more lines)\n") &&
                       out[strlen(out) - 1] == '\n' && strlen(out) < sizeof out,
                   "a 200-byte block: expected whole lines and '(N more lines)', got %d and\n%s", n, out);
    const char *hostile = "stud.cuh:1:1: error: \x1b[2Jcleared\r\n    1 | \x07" "bell\n";
    n = complog_extract(hostile, "stud.cuh", NULL, out, sizeof out);
    KIT_ASSERT_MSG(n == 1 && strcmp(out, "stud.cuh:1:1: error: ?[2Jcleared\n    1 | ?bell\n") == 0,
                   "control bytes and a CR line end: got %d and\n%s", n, out);
}

static void test_from_file(void)
{
    char path[] = "/tmp/kit-complog-XXXXXX", out[4096];
    int fd = mkstemp(path);
    KIT_ASSERT_MSG(fd >= 0 && write(fd, NVCC_LOG, sizeof NVCC_LOG - 1) == (ssize_t)(sizeof NVCC_LOG - 1),
                   "cannot write %s", path);
    close(fd);
    int n = complog_extract_file(path, "stud.cuh", SHOWN, out, sizeof out);
    remove(path);
    KIT_ASSERT_MSG(n == 2 && strncmp(out, SHOWN "(2): warning #177-D", 36) == 0, "from a file: got %d and\n%s", n, out);
    n = complog_extract_file(path, "stud.cuh", SHOWN, out, sizeof out);
    KIT_ASSERT_MSG(n == -1 && out[0] == '\0', "a missing log: expected -1 and \"\", got %d and '%s'", n, out);
}

static void register_tests(void)
{
    CU_pSuite s = kit_test_suite("the student's own compiler diagnostics");
    kit_test_add(s, "a g++ log: the student's file's lines, its path as the student knows it", test_gcc);
    kit_test_add(s, "a clang++ log: unindented source lines, the closing count left out", test_clang);
    kit_test_add(s, "an nvcc log: FILE(LINE), the remark left out", test_nvcc);
    kit_test_add(s, "other files' diagnostics only: an empty block", test_none);
    kit_test_add(s, "a block cut at whole lines; control bytes cleaned", test_cut_and_clean);
    kit_test_add(s, "read from a log file", test_from_file);
}

int main(void)
{
    return kit_test_main("complog tests", register_tests);
}
