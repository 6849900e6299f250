/** @file
 * Lab 7's given constant that the student's index computation (cf_merge.cuh) uses: w. Every
 * harness that includes the student's cf_merge.cuh (labs 7 and 9) includes this file first.
 */
#ifndef LAB07_CF_GIVEN_CUH
#define LAB07_CF_GIVEN_CUH

#include "kit_lab.h"

/** Banks of shared memory, and threads of a warp: w in the paper. */
#define CF_W 32

#endif
