/* The grader's door to the reference answers (answers.h) in the student kit, which leaves them out. */
#include "answers.h"

int answers_available(void)
{
    return 0;
}

int answers_pbs_queries(kit_type t, const void *keys, size_t K, kit_pbs_queries kind, uint64_t seed, void *out, size_t Q)
{
    return kit_pbs_gen_queries(t, keys, K, kind, seed, out, Q);
}

int answers_worst_subproblem(int w, int E, int *a, int *b)
{
    (void)w, (void)E, (void)a, (void)b;
    return -1;
}

int answers_worst_order(int w, int E, int a_word, int b_word, int a, int b)
{
    (void)w, (void)E, (void)a_word, (void)b_word, (void)a, (void)b;
    return 1;
}
