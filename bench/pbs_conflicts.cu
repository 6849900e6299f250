/*
 * Bank conflicts of lab 6's three searches (reference solution), counted two ways on the same
 * launches: built for the GPU it runs them for Nsight Compute; built for the CPU it traces them
 * through the simulator and, with --compare, checks the two against each other. Each launch is
 * one block of 256 threads answering 2048 queries (64 warp-queries) against K keys. Worst-case
 * queries come from the instructor's kit_pbs_gen_queries_any (grader/ref/kit_ref.h), the one that
 * takes every K: K = 512 gets Lemma 4.2's pigeonhole warp, the other K the aligned queries of
 * kit_pbs_gen_queries; results/2026-11-22-h100-ncu-pbs.csv was measured on these queries.
 */
#include <stdlib.h>
#include <string.h>

#include "bench_conflicts.cuh"
#include "lab06.cuh"

#define NQ 2048

struct launch {
    char name[96];
    kit_type type;
    int K, alg;
    kit_pbs_queries queries;
};

/* Every K of 512 .. 8192, 4- and 8-byte keys, random keys and worst-case queries, the three searches. */
static int make_launches(launch *l)
{
    int n = 0;
    for (int wide = 0; wide < 2; wide++)
        for (int K = 512; K <= 8192; K *= 2)
            for (int q = 0; q < 2; q++)
                for (int alg = PBS_PLAIN; alg <= PBS_CL; alg++) {
                    launch *x = &l[n++];
                    x->type = wide ? KIT_TYPE_I64 : KIT_TYPE_I32;
                    x->K = K;
                    x->alg = alg;
                    x->queries = q ? KIT_PBS_WORST : KIT_PBS_KEYS;
                    snprintf(x->name, sizeof x->name, "%s %s K=%d %s queries", lab06_alg_name(alg),
                             kit_type_name(x->type), K, kit_pbs_queries_name(x->queries));
                }
    return n;
}

static launch L[64];

/* Runs launch i and checks every answer against the reference. */
static void run(int i)
{
    const launch *l = &L[i];
    size_t size = kit_type_size(l->type);
    void *keys = kit_xmalloc((size_t)l->K * size), *queries = kit_xmalloc(NQ * size);
    int *answers = (int *)kit_xmalloc(NQ * sizeof(int));
    for (int i = 0; i < l->K; i++) { /* distinct keys, 3 apart */
        if (l->type == KIT_TYPE_I32)
            ((int32_t *)keys)[i] = 3 * i;
        else
            ((int64_t *)keys)[i] = 3 * (int64_t)i;
    }
    if (kit_pbs_gen_queries_any(l->type, keys, (size_t)l->K, l->queries, 1, queries, NQ) != 0) {
        fprintf(stderr, "%s: the query generator refused K = %d\n", l->name, l->K);
        exit(1);
    }
    lab06_cfg cfg = {l->alg, 1, 256};
    char msg[200];
    if (lab06_run(l->type, keys, l->K, queries, NQ, answers, cfg, msg, sizeof msg) != 0) {
        fprintf(stderr, "%s: %s\n", l->name, msg);
        exit(1);
    }
    for (int x = 0; x < NQ; x++)
        if (answers[x] != kit_pbs_ref(l->type, keys, (size_t)l->K, kit_key_at(l->type, queries, (size_t)x))) {
            fprintf(stderr, "%s: wrong answer to query %d\n", l->name, x);
            exit(1);
        }
    free(keys);
    free(queries);
    free(answers);
}

int main(int argc, char **argv)
{
    int n = make_launches(L);
    const char *names[64];
    for (int i = 0; i < n; i++)
        names[i] = L[i].name;
    return bench_conflicts_main(argc, argv, n, names, run);
}
