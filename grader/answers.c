/* The grader's door to the reference answers (answers.h): the instructor's build. */
#include "answers.h"
#include "kit_ref.h"

int answers_available(void)
{
    return 1;
}

int answers_pbs_queries(kit_type t, const void *keys, size_t K, kit_pbs_queries kind, uint64_t seed, void *out, size_t Q)
{
    return kit_pbs_gen_queries_any(t, keys, K, kind, seed, out, Q);
}

int answers_worst_subproblem(int w, int E, int *a, int *b)
{
    return kit_worst_subproblem(w, E, a, b);
}

int answers_worst_order(int w, int E, int a_word, int b_word, int a, int b)
{
    return kit_worst_order(w, E, a_word, b_word, a, b);
}
