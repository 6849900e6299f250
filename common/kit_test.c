/* A small layer over CUnit that every kit test program shares: one main, skips, and readable failures. */
#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include "kit_test.h"

static unsigned skipped_tests;

CU_pSuite kit_test_suite(const char *name)
{
    CU_pSuite s = CU_add_suite(name, NULL, NULL);
    if (!s) {
        fprintf(stderr, "CUnit could not add suite %s: %s\n", name, CU_get_error_msg());
        exit(2);
    }
    return s;
}

void kit_test_add(CU_pSuite suite, const char *name, CU_TestFunc fn)
{
    if (!CU_add_test(suite, name, fn)) {
        fprintf(stderr, "CUnit could not add test %s: %s\n", name, CU_get_error_msg());
        exit(2);
    }
}

void kit_test_skip_suite(CU_pSuite suite, const char *why)
{
    printf("SKIPPED %s (%u tests): %s\n", suite->pName, suite->uiNumberOfTests, why);
    skipped_tests += suite->uiNumberOfTests;
    CU_set_suite_active(suite, CU_FALSE);
}

/* The caught stderr: a temporary file, and the descriptor that stderr was before. */
static FILE *caught;
static int saved_stderr = -1;

int kit_test_stderr_begin(void)
{
    fflush(stderr);
    caught = tmpfile();
    saved_stderr = caught ? dup(STDERR_FILENO) : -1;
    if (saved_stderr < 0 || dup2(fileno(caught), STDERR_FILENO) < 0) {
        if (saved_stderr >= 0)
            close(saved_stderr);
        if (caught)
            fclose(caught);
        caught = NULL, saved_stderr = -1;
        return -1;
    }
    return 0;
}

void kit_test_stderr_end(char *buf, size_t len)
{
    size_t got = 0;
    fflush(stderr);
    if (caught) {
        dup2(saved_stderr, STDERR_FILENO);
        close(saved_stderr);
        rewind(caught);
        got = len ? fread(buf, 1, len - 1, caught) : 0;
        fclose(caught);
        caught = NULL, saved_stderr = -1;
    }
    if (len)
        buf[got] = '\0';
}

/* Stops the test program: a test helper that cannot work makes every result after it meaningless. */
static void give_up(const char *what)
{
    perror(what);
    exit(2);
}

int kit_test_run_child(void (*fn)(void), int with_stdout, char **output)
{
    int fds[2];
    fflush(NULL); /* the child must not print the parent's buffered output again */
    if (pipe(fds) != 0)
        give_up("kit_test_run_child: pipe");
    pid_t pid = fork();
    if (pid < 0)
        give_up("kit_test_run_child: fork");
    if (pid == 0) {
        if (with_stdout)
            dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        fn();
        _exit(99); /* fn is expected to exit */
    }
    close(fds[1]);
    size_t cap = 4096, len = 0;
    char *text = (char *)malloc(cap);
    if (!text)
        give_up("kit_test_run_child: malloc");
    for (;;) {
        ssize_t got = read(fds[0], text + len, cap - len - 1);
        if (got <= 0)
            break;
        len += (size_t)got;
        if (cap - len < 1024 && !(text = (char *)realloc(text, cap *= 2)))
            give_up("kit_test_run_child: realloc"); /* the old block is not freed: the program ends here */
    }
    text[len] = '\0';
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    *output = text;
    return status;
}

void kit_test_fail(const char *file, unsigned line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* CUnit copies the message into its failure record. */
    CU_assertImplementation(CU_FALSE, line, msg, file, "", CU_FALSE);
}

int kit_test_main(const char *name, kit_test_register_fn reg)
{
    if (CU_initialize_registry() != CUE_SUCCESS) {
        fprintf(stderr, "CUnit could not start: %s\n", CU_get_error_msg());
        return 2;
    }
    reg();
    CU_set_fail_on_inactive(CU_FALSE); /* a skipped suite is reported as skipped, not as an error */
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    CU_pRunSummary s = CU_get_run_summary();
    unsigned failed = s->nTestsFailed, passed = s->nTestsRun - s->nTestsFailed;
    int bad = failed > 0 || s->nSuitesFailed > 0 || CU_get_error() != CUE_SUCCESS;
    printf("\n%s: %u passed, %u failed, %u skipped\n", name, passed, failed, skipped_tests);
    CU_cleanup_registry();
    return bad ? 1 : 0;
}
