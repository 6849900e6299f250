/** @file kit_test_gpu.h Device suites of the kit's tests: they run on a GPU, or on the CPU emulation in the CPU build, and are skipped otherwise. */
#ifndef KIT_TEST_GPU_H
#define KIT_TEST_GPU_H

#include <stdio.h>

#include "kit_cuda.h"
#include "kit_test.h"

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

#endif
