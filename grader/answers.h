/** @file answers.h What the grader takes from the instructor-only library (grader/ref/), in one place.
 * The instructor's grader links answers.c, which forwards to the reference answers; the student kit,
 * which has no grader/ref/, links answers_absent.c, where each function says the reference is left
 * out, so its grader builds and names the tests it cannot run as the course's grader would. */
#ifndef GRADER_ANSWERS_H
#define GRADER_ANSWERS_H

#include <stddef.h>
#include <stdint.h>

#include "06-predecessor-search/harness/pbs_host.h"

/** @return 1 where the reference answers are linked (the instructor's grader), 0 in the student kit. */
int answers_available(void);

/** kit_pbs_gen_queries, plus worst queries for any K (the reference follows Algorithm 1); -1 where that is left out. */
int answers_pbs_queries(kit_type t, const void *keys, size_t K, kit_pbs_queries kind, uint64_t seed, void *out, size_t Q);

/** Lab 8's reference subproblem (kit_worst_subproblem); -1 where it is left out. */
int answers_worst_subproblem(int w, int E, int *a, int *b);

/** Lab 8's reference within-thread order (kit_worst_order); 1 (A first) where it is left out. */
int answers_worst_order(int w, int E, int a_word, int b_word, int a, int b);

#endif
