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
 * The whole main() of a conflicts benchmark: `prog [--compare NCU_CSV | --trace I FILE]`.
 * GPU build: runs the n launches in order, for ncu. CPU build: traces each, counts its load and
 * store conflicts with the simulator (w = 32, 4-byte banks), and prints them, or compares them with
 * ncu's CSV and ends with the line "agree: A of N launches (simulator against ncu)"; --trace I FILE
 * writes launch I's shared-memory trace (kit_trace.h) to FILE, to look at one launch with bankviz.
 * Returns the exit status: 0, 1 when a launch fails, 2 for bad arguments or an unreadable CSV
 * (launches that disagree with ncu are reported, not an error).
 */
static inline int bench_conflicts_main(int argc, char **argv, int n, const char *const *names, bench_launch_fn run)
{
    const char *csv = argc == 3 && strcmp(argv[1], "--compare") == 0 ? argv[2] : NULL;
    const char *trace = argc == 4 && strcmp(argv[1], "--trace") == 0 ? argv[3] : NULL;
    char *end = NULL;
    long one = trace ? strtol(argv[2], &end, 10) : -1;
    if ((argc != 1 && !csv && !trace) || (trace && (*end != '\0' || one < 0 || one >= n))) {
        fprintf(stderr, "usage: %s [--compare NCU_CSV | --trace I FILE] (launches 0 .. %d)\n", argv[0], n - 1);
        return 2;
    }
#ifdef KIT_CPU
    uint64_t *ld = (uint64_t *)kit_xmalloc((size_t)n * sizeof *ld), *st = (uint64_t *)kit_xmalloc((size_t)n * sizeof *st);
    uint64_t *cost = (uint64_t *)kit_xmalloc((size_t)n * sizeof *cost);
    if (trace) {
        kit_cpu_trace_start();
        run((int)one);
        kit_access *acc;
        size_t na = kit_cpu_trace_stop(&acc);
        int rc = kit_trace_save(trace, acc, na);
        free(acc);
        if (rc != 0)
            fprintf(stderr, "%s: cannot write %s\n", argv[0], trace);
        return rc != 0 ? 2 : 0;
    }
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
    if (csv) {
        int bad = kit_ncu_compare(csv, n, names, ld, st, stdout); /* disagreements are reported, not fatal */
        if (bad >= 0)
            printf("agree: %d of %d launches (simulator against ncu)\n", n - bad, n);
        rc = bad < 0 ? 2 : 0;
    } else
        for (int i = 0; i < n; i++)
            printf("%d\t%s\tld %llu (papers' cost %llu)\tst %llu\n", i, names[i], (unsigned long long)ld[i],
                   (unsigned long long)cost[i], (unsigned long long)st[i]);
    free(ld);
    free(st);
    free(cost);
    return rc;
#else
    (void)names; /* ncu names the launches itself */
    if (csv || trace) {
        fprintf(stderr, "--compare and --trace need the CPU build\n");
        return 2;
    }
    for (int i = 0; i < n; i++)
        run(i);
    printf("ran %d launches\n", n);
    return 0;
#endif
}

#endif
