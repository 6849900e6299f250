/** @file kit_test.h A small layer over CUnit that every kit test program shares: one main, skips, and readable failures. */
#ifndef KIT_TEST_H
#define KIT_TEST_H

#include <CUnit/CUnit.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Registers a program's suites; called by kit_test_main() after the registry exists. */
typedef void (*kit_test_register_fn)(void);

/**
 * Runs every registered suite with CUnit's basic interface, then prints the
 * closing line "<name>: P passed, F failed, S skipped".
 * @param[in] name what the program tests, for the closing line
 * @param[in] reg  registers the suites
 * @return the process exit status: 0 if nothing failed, 1 otherwise
 */
int kit_test_main(const char *name, kit_test_register_fn reg);

/**
 * Adds a suite, or aborts the program with a message if CUnit cannot.
 * @return the new suite
 */
CU_pSuite kit_test_suite(const char *name);

/**
 * Adds a test to a suite, or aborts the program with a message if CUnit cannot.
 */
void kit_test_add(CU_pSuite suite, const char *name, CU_TestFunc fn);

/**
 * Turns a suite off and says why; its tests count as skipped, never as passed.
 * @param[in] suite the suite, already holding its tests
 * @param[in] why   shown as "SKIPPED <suite> (<count> tests): <why>"
 */
void kit_test_skip_suite(CU_pSuite suite, const char *why);

/**
 * Starts catching what this process writes to stderr, so that a test of a failure path checks the
 * message it expects instead of printing it among passing tests. Ends with kit_test_stderr_end().
 * @return 0, or -1 when stderr could not be redirected (it then stays where it was)
 */
int kit_test_stderr_begin(void);

/**
 * Ends the catch of kit_test_stderr_begin() and puts stderr back.
 * @param[out] buf what was written meanwhile, cut to len - 1 bytes; "" when nothing was caught
 * @param[in]  len size of @p buf
 */
void kit_test_stderr_end(char *buf, size_t len);

/**
 * Runs a function in a child process with the child's output on a pipe: for a test of a path that
 * exits or prints.
 * @param[in]  fn          what the child runs; it is expected to exit (or exec), and if it returns
 *                         the child exits with status 99
 * @param[in]  with_stdout 0: the pipe takes the child's stderr; else its stdout too
 * @param[out] output      everything the child wrote to the pipe, NUL-terminated (malloc'ed; free it)
 * @return the child's wait status (see WIFEXITED, WEXITSTATUS)
 */
int kit_test_run_child(void (*fn)(void), int with_stdout, char **output);

/** Records a failure with a message built at run time (CUnit's own macros only take literals). */
void kit_test_fail(const char *file, unsigned line, const char *fmt, ...);

#ifdef __cplusplus
}
#endif

/** Asserts @p cond; on failure the printf-style message is what the report shows. */
#define KIT_ASSERT_MSG(cond, ...)                                  \
    do {                                                           \
        if (cond)                                                  \
            CU_assertImplementation(CU_TRUE, __LINE__, #cond, __FILE__, "", CU_FALSE); \
        else                                                       \
            kit_test_fail(__FILE__, __LINE__, __VA_ARGS__);        \
    } while (0)

#endif
