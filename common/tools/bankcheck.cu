/*
 * bankcheck: runs the micro-kernels of bank_micro.cuh in a fixed order. Built
 * for the GPU, it is what Nsight Compute measures; built for the CPU, it traces
 * the same kernels through the simulator, and with --compare reads ncu's CSV
 * and checks, case by case, that the simulator's counts equal the hardware's.
 */
#include <stdlib.h>
#include <string.h>

#include "bank_micro.cuh"
#include "kit_bank.h"
#include "kit_cuda.h"
#include "kit_gen.h"
#include "kit_ncu.h"

enum { LOAD_STRIDE, STORE_STRIDE, LOAD_WORDS, LOAD8_STRIDE, LOAD8_ELEMS };

typedef struct bank_case {
    int kernel;
    int arg;        /* the stride, for the strided kernels */
    int words[32];  /* the words read, for LOAD_WORDS, or the 8-byte elements, for LOAD8_ELEMS */
    char name[48];
    uint64_t sim_ld, sim_st; /* the simulator's profiler counts (CPU build) */
} bank_case;

static int build_cases(bank_case *c, int max)
{
    int n = 0;
    for (int s = 1; s <= 64 && n < max; s++, n++) {
        c[n].kernel = LOAD_STRIDE;
        c[n].arg = s;
        snprintf(c[n].name, sizeof c[n].name, "4-byte loads, stride %d", s);
    }
    const int store_strides[] = {1, 2, 3, 4, 8, 16, 32, 33};
    for (int i = 0; i < 8 && n < max; i++, n++) {
        c[n].kernel = STORE_STRIDE;
        c[n].arg = store_strides[i];
        snprintf(c[n].name, sizeof c[n].name, "4-byte stores, stride %d", store_strides[i]);
    }
    for (int s = 1; s <= 8 && n < max; s++, n++) {
        c[n].kernel = LOAD8_STRIDE;
        c[n].arg = s;
        snprintf(c[n].name, sizeof c[n].name, "8-byte loads, stride %d", s);
    }
    /* Word patterns: a broadcast, two words for each half-warp in one bank, and random permutations. */
    const char *names[] = {"broadcast (one word)", "two words in bank 0", "random words, seed 1", "random words, seed 2",
                           "random words, seed 3", "random words in 2 columns"};
    for (int p = 0; p < 6 && n < max; p++, n++) {
        c[n].kernel = LOAD_WORDS;
        snprintf(c[n].name, sizeof c[n].name, "%s", names[p]);
        uint64_t rng = (uint64_t)p;
        for (int t = 0; t < 32; t++) {
            if (p == 0)
                c[n].words[t] = 7;
            else if (p == 1)
                c[n].words[t] = t < 16 ? 0 : 32;
            else if (p < 5)
                c[n].words[t] = (int)(kit_rng_next(&rng) % BANK_MICRO_WORDS); /* repeats allowed: multicast */
            else
                c[n].words[t] = (int)(kit_rng_next(&rng) % 64);
        }
    }
    /* 8-byte loads in groups of consecutive lanes, each group one element, every element in one
       bank pair (16 elements apart): the passes of PBS on 8-byte keys with worst-case queries. */
    for (int groups = 1; groups <= 32 && n < max; groups *= 2, n++) {
        c[n].kernel = LOAD8_ELEMS;
        snprintf(c[n].name, sizeof c[n].name, "8-byte loads, %d elements 16 apart", groups);
        for (int t = 0; t < 32; t++)
            c[n].words[t] = 16 * (t / (32 / groups));
    }
    /* More 8-byte patterns, added to test the model of those loads on cases it was not fitted to. */
    const char *probes[] = {"8-byte, 3 words round-robin", "8-byte, 3 uneven lane groups", "8-byte, halves mirror 16 words",
                            "8-byte, random among 4 words", "8-byte, 2 bank pairs", "8-byte, random among 64"};
    for (int p = 0; p < 6 && n < max; p++, n++) {
        c[n].kernel = LOAD8_ELEMS;
        snprintf(c[n].name, sizeof c[n].name, "%s", probes[p]);
        uint64_t rng = 100 + (uint64_t)p;
        for (int t = 0; t < 32; t++) {
            int e = p == 0 ? 16 * (t % 3)
                  : p == 1 ? 16 * (t / 11)
                  : p == 2 ? 16 * (t % 16)
                  : p == 3 ? 16 * (int)(kit_rng_next(&rng) % 4)
                  : p == 4 ? 16 * (t / 8) + t % 2
                           : (int)(kit_rng_next(&rng) % 64);
            c[n].words[t] = e;
        }
    }
    return n;
}

/* Runs one case on the device (GPU or emulation). */
static void run_case(const bank_case *c, int *d_words, int *d_out, long long *d_out8)
{
    switch (c->kernel) {
    case LOAD_STRIDE: KIT_LAUNCH(bank_micro_load_stride, 1, 32, BANK_MICRO_SMEM, c->arg, d_out); break;
    case STORE_STRIDE: KIT_LAUNCH(bank_micro_store_stride, 1, 32, BANK_MICRO_SMEM, c->arg, d_out); break;
    case LOAD8_STRIDE: KIT_LAUNCH(bank_micro_load8_stride, 1, 32, BANK_MICRO_SMEM, c->arg, d_out8); break;
    case LOAD8_ELEMS:
        CUDA_CHECK(cudaMemcpy(d_words, c->words, sizeof c->words, cudaMemcpyHostToDevice));
        KIT_LAUNCH(bank_micro_load8_elems, 1, 32, BANK_MICRO_SMEM, d_words, d_out8);
        break;
    default:
        CUDA_CHECK(cudaMemcpy(d_words, c->words, sizeof c->words, cudaMemcpyHostToDevice));
        KIT_LAUNCH(bank_micro_load_words, 1, 32, BANK_MICRO_SMEM, d_words, d_out);
        break;
    }
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
}

#ifdef KIT_CPU
/* Traces one case and stores the simulator's load and store conflict counts in it. */
static void simulate_case(bank_case *c, int *d_words, int *d_out, long long *d_out8)
{
    kit_cpu_trace_start();
    run_case(c, d_words, d_out, d_out8);
    kit_bank_report r;
    char err[160];
    kit_access *acc;
    size_t na = kit_cpu_trace_stop(&acc);
    if (kit_bank_count_trace(acc, na, &r, err, sizeof err) != 0) {
        fprintf(stderr, "bankcheck: %s\n", err);
        exit(1);
    }
    c->sim_ld = r.load.conflicts;
    c->sim_st = r.store.conflicts;
    kit_bank_free(&r);
}

#endif

int main(int argc, char **argv)
{
    static bank_case cases[128];
    int n = build_cases(cases, 128);
    const char *csv = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--list") == 0) {
            for (int c = 0; c < n; c++)
                printf("%d\t%s\n", c, cases[c].name);
            return 0;
        } else if (strcmp(argv[i], "--compare") == 0 && i + 1 < argc) {
            csv = argv[++i];
        } else {
            fprintf(stderr, "usage: %s [--list | --compare NCU_CSV]\n"
                            "Runs the bank-conflict micro-kernels in order (for ncu on a GPU); the CPU build\n"
                            "simulates them and, with --compare, checks the simulator against ncu's CSV.\n",
                    argv[0]);
            return 2;
        }
    }
    int *d_words, *d_out;
    long long *d_out8;
    CUDA_CHECK(cudaMalloc(&d_words, 32 * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_out, 32 * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_out8, 32 * sizeof(long long)));
#ifdef KIT_CPU
    for (int c = 0; c < n; c++)
        simulate_case(&cases[c], d_words, d_out, d_out8);
    if (csv) {
        const char *names[128];
        uint64_t ld[128], st[128];
        for (int c = 0; c < n; c++) {
            names[c] = cases[c].name;
            ld[c] = cases[c].sim_ld;
            st[c] = cases[c].sim_st;
        }
        int bad = kit_ncu_compare(csv, n, names, ld, st, stdout);
        if (bad < 0)
            return 2;
        printf("\n%d of %d cases agree\n", n - bad, n);
        return bad ? 1 : 0;
    }
    for (int c = 0; c < n; c++)
        printf("%d\t%s\tld %llu\tst %llu\n", c, cases[c].name, (unsigned long long)cases[c].sim_ld,
               (unsigned long long)cases[c].sim_st);
#else
    if (csv) {
        fprintf(stderr, "bankcheck: --compare needs the CPU build (build/cpu/tools/bankcheck)\n");
        return 2;
    }
    for (int c = 0; c < n; c++)
        run_case(&cases[c], d_words, d_out, d_out8);
    printf("ran %d cases\n", n);
#endif
    CUDA_CHECK(cudaFree(d_words));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_out8));
    return 0;
}
