/* Lab 8's harness glue, shared by its driver and its tests: one warp built from your functions, or from the kit's where a test checks only one of yours. */
#ifndef LAB08_HARNESS_CUH
#define LAB08_HARNESS_CUH

#include "kit_worst.h"
#include "worst_case.cuh"

/** Which of the student's functions a warp is built from (the grader's request says). */
enum {
    LAB08_SUBPROBLEM = 1, /* your worst_subproblem, the kit's order */
    LAB08_ORDER = 2,      /* the kit's subproblem, your worst_order */
    LAB08_BOTH = 3        /* both of yours */
};

/* Builds an L warp's splits from the functions `part` names; returns 0, or -1 with a message. */
static int lab08_warp(int w, int E, int part, kit_worst_split *T, char *err, size_t errlen)
{
    kit_worst_subproblem_fn sub = part & LAB08_SUBPROBLEM ? worst_subproblem : kit_worst_subproblem;
    kit_worst_order_fn order = part & LAB08_ORDER ? worst_order : kit_worst_order;
    return kit_worst_warp_with(w, E, 1, sub, order, T, err, errlen);
}

#endif
