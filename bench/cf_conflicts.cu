/*
 * Bank conflicts of lab 7's gather alone (reference solution), for Nsight Compute on a GPU and
 * the simulator on the CPU (--compare checks one against the other). Each launch is lab 7's
 * measured kernel, cf_gather_probe: one block of u threads stores a tile of u*E keys permuted
 * (rho(A u pi(B))) and gathers each thread's E keys in E rounds, with the splits a_i of the real
 * merge computed on the host: no search, so the profiler's count is the stores' and the gather's.
 */
#include <stdlib.h>
#include <string.h>

#include "bench_conflicts.cuh"
#include "lab07.cuh"

struct launch {
    char name[64];
    int E, u, shape;
};

static launch L[32];

/* Launch i: one tile of u*E keys, split between A and B by `shape`, through lab 7's measured kernel (cf_gather_probe). */
static void run(int i)
{
    const launch *l = &L[i];
    int E = l->E, u = l->u, tile = u * E, n_a = l->shape == 1 ? tile / 3 : tile / 2, n_b = tile - n_a;
    int *A = (int *)kit_xmalloc((size_t)n_a * 4), *B = (int *)kit_xmalloc((size_t)n_b * 4);
    if (l->shape == 0)
        kit_gen_merge_input(KIT_TYPE_I32, A, (size_t)n_a, B, (size_t)n_b, KIT_GEN_RANDOM, (uint64_t)(E * 7 + u));
    else if (l->shape == 1)
        kit_gen_merge_input(KIT_TYPE_I32, A, (size_t)n_a, B, (size_t)n_b, KIT_GEN_A_BELOW_B, 3);
    else
        for (int x = 0; x < n_a; x++) { /* alternating runs of E */
            A[x] = 2 * E * (x / E) + x % E;
            B[x] = 2 * E * (x / E) + E + x % E;
        }
    kit_merge_cfg cfg = {1, u, E};
    measure_cf(KIT_TYPE_I32, A, n_a, B, n_b, cfg);
    free(A);
    free(B);
}

int main(int argc, char **argv)
{
    static const char *const shapes[] = {"random", "all A then all B", "alternating"};
    const int Es[] = {15, 16, 17, 12, 24}, us[] = {256, 512};
    const char *names[32];
    int n = 0;
    for (int e = 0; e < 5; e++)
        for (int k = 0; k < 2; k++)
            for (int s = 0; s < 3; s++) {
                L[n].E = Es[e];
                L[n].u = us[k];
                L[n].shape = s;
                snprintf(L[n].name, sizeof L[n].name, "gather E=%d u=%d %s", Es[e], us[k], shapes[s]);
                names[n] = L[n].name;
                n++;
            }
    return bench_conflicts_main(argc, argv, n, names, run);
}
