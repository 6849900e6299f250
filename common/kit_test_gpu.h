/** @file kit_test_gpu.h Device suites of the kit's tests: they run on a GPU, or on the CPU emulation in the CPU build, and are skipped otherwise. */
#ifndef KIT_TEST_GPU_H
#define KIT_TEST_GPU_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "kit_cuda.h"
#include "kit_test.h"
#include "kit_types.h" /* KIT_EXIT_FAULT */

/**
 * Call once a device suite holds its tests. In the CPU build it says that the
 * kernels run on the emulation; in the GPU build it skips the suite, with the
 * reason, when no GPU can be used.
 */
static inline void kit_test_device_suite_ready(CU_pSuite suite)
{
#ifdef KIT_CPU
    printf("NOTE %s: the kernels run on the kit's CPU emulation\n", suite->pName);
#else
    char why[160];
    if (kit_gpu_count(why, sizeof why) == 0)
        kit_test_skip_suite(suite, why);
#endif
}

/**
 * Call once a suite of checked-memory tests holds its tests: they show what the CPU build's
 * checked memory (kit_cpu_mem.h) reports. In the GPU build the suite is skipped, saying where a
 * GPU's equivalent is.
 */
static inline void kit_test_checked_suite_ready(CU_pSuite suite)
{
#ifndef KIT_CPU
    kit_test_skip_suite(suite, "the checked memory is the CPU build's (on a GPU: compute-sanitizer ./driver ...)");
#else
    (void)suite;
#endif
}

/**
 * Runs fn in a child, which must end as the checked memory ends a run that leaves its arrays
 * (exit KIT_EXIT_FAULT), and checks that its message holds `want`. A child that reaches a
 * skeleton fails the test as "not implemented".
 */
#define KIT_ASSERT_FAULT(fn, want) kit_test_assert_fault((fn), (want), __FILE__, __LINE__)

/** KIT_ASSERT_FAULT's work, with the test's file and line for the failure record. */
static inline void kit_test_assert_fault(void (*fn)(void), const char *want, const char *file, unsigned line)
{
    char *out = NULL;
    int status = kit_test_run_child(fn, 0, &out);
    const char *text = out ? out : "";
    if (strstr(text, "not implemented: "))
        kit_test_fail(file, line, "%.*s", (int)strcspn(strstr(text, "not implemented: "), "\n"),
                      strstr(text, "not implemented: "));
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != KIT_EXIT_FAULT || !strstr(text, want))
        kit_test_fail(file, line, "expected the run to stop (exit %d) with \"%s\"; it ended with status 0x%x and said: %.300s",
                      KIT_EXIT_FAULT, want, status, text);
    free(out);
}

#endif
