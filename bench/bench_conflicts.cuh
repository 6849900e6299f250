/*
 * What the *_conflicts benchmarks share: the same launches run for Nsight Compute on a GPU, or,
 * in the CPU build, traced one by one and counted by the simulator, then (with --compare) set
 * against ncu's CSV launch by launch.
 */
#ifndef BENCH_CONFLICTS_CUH
#define BENCH_CONFLICTS_CUH

#include <stdlib.h>
#include <string.h>

#include "kit.h"
#include "kit_bank.h"
#include "kit_cuda.h"
#include "kit_ncu.h"
#include "kit_ref.h"

/** Runs launch i of a benchmark's list (on the GPU, or on the CPU emulation). */
typedef void (*bench_launch_fn)(int i);

/**
 * The whole main() of a conflicts benchmark: `prog [--compare NCU_CSV]`.
 * GPU build: runs the n launches in order, for ncu. CPU build: traces each, counts its load and
 * store conflicts with the simulator (w = 32, 4-byte banks), and prints them, or compares them with
 * ncu's CSV. Returns the exit status.
 */
static inline int bench_conflicts_main(int argc, char **argv, int n, const char *const *names, bench_launch_fn run)
{
    const char *csv = argc == 3 && strcmp(argv[1], "--compare") == 0 ? argv[2] : NULL;
    if (argc != 1 && !csv) {
        fprintf(stderr, "usage: %s [--compare NCU_CSV]\n", argv[0]);
        return 2;
    }
#ifdef KIT_CPU
    uint64_t *ld = (uint64_t *)kit_xmalloc((size_t)n * sizeof *ld), *st = (uint64_t *)kit_xmalloc((size_t)n * sizeof *st);
    uint64_t *cost = (uint64_t *)kit_xmalloc((size_t)n * sizeof *cost);
    for (int i = 0; i < n; i++) {
        kit_cpu_trace_start();
        run(i);
        kit_bank_report r;
        char err[160];
        kit_access *acc;
        size_t na = kit_cpu_trace_stop(&acc);
        if (kit_bank_count_trace(acc, na, &r, err, sizeof err) != 0) {
            fprintf(stderr, "%s: %s\n", names[i], err);
            return 1;
        }
        ld[i] = r.load.conflicts;
        st[i] = r.store.conflicts;
        cost[i] = r.load.cost;
        kit_bank_free(&r);
    }
    int rc = 0;
    if (csv)
        rc = kit_ncu_compare(csv, n, names, ld, st, stdout) < 0 ? 2 : 0; /* disagreements are reported, not fatal */
    else
        for (int i = 0; i < n; i++)
            printf("%d\t%s\tld %llu (papers' cost %llu)\tst %llu\n", i, names[i], (unsigned long long)ld[i],
                   (unsigned long long)cost[i], (unsigned long long)st[i]);
    free(ld);
    free(st);
    free(cost);
    return rc;
#else
    (void)names; /* ncu names the launches itself */
    if (csv) {
        fprintf(stderr, "--compare needs the CPU build\n");
        return 2;
    }
    for (int i = 0; i < n; i++)
        run(i);
    printf("ran %d launches\n", n);
    return 0;
#endif
}

#endif
