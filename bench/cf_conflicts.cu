/*
 * Bank conflicts of lab 7's gather alone (reference solution), for Nsight Compute on a GPU and
 * the simulator on the CPU (--compare checks one against the other). Each launch is one block of
 * u threads that stores a tile of u*E keys permuted (rho(A u pi(B))) and gathers each thread's E
 * keys in E rounds, with the splits a_i of a real merge computed on the host: no search, so the
 * profiler's count is the stores' and the gather's only.
 */
#include <stdlib.h>
#include <string.h>

#include "kit_ncu.h"
#include "lab07.cuh"

template <int E>
__global__ void gather_only(const int *A, int n_a, const int *B, const int *a_split, int *out)
{
    kit_shared<int> S = KIT_DYNAMIC_SHARED(int);
    int u = (int)blockDim.x, tile = u * E, i = (int)threadIdx.x;
    for (int x = i; x < tile; x += u) {
        int v = x < n_a ? A[x] : B[x - n_a];
        S[cf_slot(x < n_a ? x : tile - 1 - (x - n_a), E)] = v;
    }
    __syncthreads();
    int a_i = a_split[i], my_a = a_split[i + 1] - a_i, sum = 0;
    KIT_UNROLL
    for (int j = 0; j < E; j++) {
        int origin;
        int v = S[cf_slot(cf_gather_index(j, a_i, i * E - a_i, my_a, E, tile, &origin), E)];
        sum += v * (origin + 1); /* keep every read */
    }
    out[i] = sum;
}

struct launch {
    char name[64];
    int E, u, shape;
};

template <int E>
static void run_e(int u, int shape)
{
    int tile = u * E, n_a = shape == 1 ? tile / 3 : tile / 2, n_b = tile - n_a;
    int *A = (int *)kit_xmalloc((size_t)n_a * 4), *B = (int *)kit_xmalloc((size_t)n_b * 4);
    int *split = (int *)kit_xmalloc((size_t)(u + 1) * 4);
    if (shape == 0)
        kit_gen_merge_input(KIT_TYPE_I32, A, (size_t)n_a, B, (size_t)n_b, KIT_GEN_RANDOM, (uint64_t)(E * 7 + u));
    else if (shape == 1)
        kit_gen_merge_input(KIT_TYPE_I32, A, (size_t)n_a, B, (size_t)n_b, KIT_GEN_A_BELOW_B, 3);
    else
        for (int x = 0; x < n_a; x++) { /* alternating runs of E */
            A[x] = 2 * E * (x / E) + x % E;
            B[x] = 2 * E * (x / E) + E + x % E;
        }
    int64_t *ranks = (int64_t *)kit_xmalloc((size_t)(tile + 1) * sizeof(int64_t));
    kit_co_rank_all(KIT_TYPE_I32, A, (size_t)n_a, B, (size_t)n_b, ranks);
    for (int i = 0; i <= u; i++)
        split[i] = (int)ranks[i * E];
    int *d_A = (int *)kit_device_copy(A, (size_t)n_a * 4), *d_B = (int *)kit_device_copy(B, (size_t)n_b * 4);
    int *d_split = (int *)kit_device_copy(split, (size_t)(u + 1) * 4), *d_out;
    CUDA_CHECK(cudaMalloc(&d_out, (size_t)u * 4));
    void (*kernel)(const int *, int, const int *, const int *, int *) = gather_only<E>;
    KIT_ALLOW_SHARED(kernel, (size_t)tile * 4);
    KIT_LAUNCH(kernel, 1, u, (size_t)tile * 4, d_A, n_a, d_B, d_split, d_out);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_split);
    cudaFree(d_out);
    free(A);
    free(B);
    free(split);
    free(ranks);
}

static void run(const launch *l)
{
    switch (l->E) {
    case 15: run_e<15>(l->u, l->shape); break;
    case 16: run_e<16>(l->u, l->shape); break;
    case 17: run_e<17>(l->u, l->shape); break;
    case 12: run_e<12>(l->u, l->shape); break;
    case 24: run_e<24>(l->u, l->shape); break;
    }
}

int main(int argc, char **argv)
{
    const char *csv = argc == 3 && strcmp(argv[1], "--compare") == 0 ? argv[2] : NULL;
    if (argc != 1 && !csv) {
        fprintf(stderr, "usage: %s [--compare NCU_CSV]\n", argv[0]);
        return 2;
    }
    static const char *const shapes[] = {"random", "all A then all B", "alternating"};
    const int Es[] = {15, 16, 17, 12, 24}, us[] = {256, 512};
    launch L[32];
    int n = 0;
    for (int e = 0; e < 5; e++)
        for (int k = 0; k < 2; k++)
            for (int s = 0; s < 3; s++) {
                L[n].E = Es[e];
                L[n].u = us[k];
                L[n].shape = s;
                snprintf(L[n].name, sizeof L[n].name, "gather E=%d u=%d %s", Es[e], us[k], shapes[s]);
                n++;
            }
#ifdef KIT_CPU
    const char *names[32];
    uint64_t ld[32], st[32];
    for (int i = 0; i < n; i++) {
        kit_cpu_trace_start();
        run(&L[i]);
        kit_access *acc;
        size_t na = kit_cpu_trace_stop(&acc);
        kit_bank_model model = {32, 4};
        kit_bank_report r;
        char err[160];
        if (kit_bank_simulate(&model, acc, na, &r, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        names[i] = L[i].name;
        ld[i] = r.load.conflicts;
        st[i] = r.store.conflicts;
        kit_bank_free(&r);
        free(acc);
    }
    if (csv)
        return kit_ncu_compare(csv, n, names, ld, st, stdout) < 0 ? 2 : 0;
    for (int i = 0; i < n; i++)
        printf("%d\t%s\tld %llu\tst %llu\n", i, names[i], (unsigned long long)ld[i], (unsigned long long)st[i]);
#else
    if (csv) {
        fprintf(stderr, "--compare needs the CPU build\n");
        return 2;
    }
    for (int i = 0; i < n; i++)
        run(&L[i]);
    printf("ran %d launches\n", n);
#endif
    return 0;
}
