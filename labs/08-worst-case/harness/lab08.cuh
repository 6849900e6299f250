/* Lab 8's harness glue, shared by its driver and its tests: one warp built from your functions, and the measured kernel that merges it on the device. */
#ifndef LAB08_HARNESS_CUH
#define LAB08_HARNESS_CUH

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kit_cuda.h"
#include "worst_host.h"
#include "worst_case.cuh"

/** What the grader's "worst" request asks for (the runner holds no reference: the grader pairs a single function with its own). */
enum {
    LAB08_SUBPROBLEM = 1, /* your worst_subproblem's tuples */
    LAB08_ORDER = 2,      /* your worst_order, on the threads the request lists */
    LAB08_BOTH = 3        /* the warp from both of yours */
};

/*
 * Your worst_subproblem, as a checked host call (kit_host_call): in the CPU build it writes into
 * arrays of w entries named a and b, so a write past them is reported with the array and the index.
 */
static int lab08_subproblem(int w, int E, int *a, int *b)
{
    size_t bytes = (size_t)w * sizeof(int);
    int *ha = (int *)kit_host_array(NULL, bytes, "a", sizeof(int), "entries");
    int *hb = (int *)kit_host_array(NULL, bytes, "b", sizeof(int), "entries");
    int n = kit_host_call([=]() { return worst_subproblem(w, E, ha, hb); });
    memcpy(a, ha, bytes);
    memcpy(b, hb, bytes);
    kit_host_array_free(ha);
    kit_host_array_free(hb);
    return n;
}

/* Your worst_order, as a checked host call. */
static int lab08_order(int w, int E, int a_word, int b_word, int a, int b)
{
    return kit_host_call([=]() { return worst_order(w, E, a_word, b_word, a, b); });
}

/* Builds an L warp's splits from your worst_subproblem and worst_order; returns 0, or -1 with a message. */
static int lab08_warp(int w, int E, kit_worst_split *T, char *err, size_t errlen)
{
    return kit_worst_warp_with(w, E, 1, lab08_subproblem, lab08_order, T, err, errlen);
}

/**
 * Lab 8's measured kernel: one warp's merge round, read as CUB's SerialMerge reads it. One block
 * of w threads; keys[0 .. total) holds A (n_a keys) then B, and the kernel stores them to shared
 * words [0, total) unchanged, so A starts at word 0 and B at word n_a, as the simulator's replay
 * (kit_worst_warp_count) places them. Thread i starts at A[a_start[i]] and B[iE - a_start[i]] and
 * loads E + 2 keys: A's and B's first, then after each output the next key of the list it came
 * from, one load a step at a selected address (so a step is one warp-wide load, as in CUB).
 * Its load conflicts are the simulator's cost minus the warp's E + 2 loads.
 */
__global__ void worst_merge_probe(const int32_t *keys, int n_a, int total, const int *a_start, int32_t *out)
{
    kit_shared<int32_t> S = KIT_DYNAMIC_SHARED(int32_t);
    const int w = (int)blockDim.x, i = (int)threadIdx.x, E = total / w, n_b = total - n_a;
    for (int x = i; x < total; x += w)
        S[x] = keys[x];
    S[total] = 0; /* the word past B, which the last thread's final load reads: every thread stores it, so all store E + 1 times */
    __syncthreads();
    int a = a_start[i], b = i * E - a;
    int32_t key1 = S[a], key2 = S[n_a + b];
    for (int item = 0; item < E; item++) {
        int take_b = b < n_b && (a >= n_a || key2 < key1);
        out[i * E + item] = take_b ? key2 : key1;
        if (take_b)
            b++;
        else
            a++;
        int32_t next = S[take_b ? n_a + b : a];
        if (take_b)
            key2 = next;
        else
            key1 = next;
    }
}

/**
 * Runs worst_merge_probe on one warp's splits (w = 32 threads, the GPU's banks), with the keys of
 * kit_worst_warp_keys. Checks that the probe merged them back to 0 .. wE-1.
 * @return 0, or -1 with a message in msg (w is not 32, a split is invalid, or the merge is wrong)
 */
static int lab08_measure(int w, int E, const kit_worst_split *T, char *msg, size_t len)
{
    if (w != 32 || E < 2 || E > w) {
        snprintf(msg, len, "the measured merge runs one warp of 32 threads (the GPU's banks) with 1 < E <= 32, not w = %d, E = %d",
                 w, E);
        return -1;
    }
    int32_t keys[32 * 32], out[32 * 32];
    int total = w * E, n_a = kit_worst_warp_keys(w, E, T, keys, msg, len), a_start[32];
    if (n_a < 0)
        return -1;
    for (int i = 0, a = 0; i < w; i++) {
        a_start[i] = a;
        a += T[i].a;
    }
    int32_t *d_keys = (int32_t *)kit_device_copy(keys, (size_t)total * sizeof(int32_t)), *d_out;
    int *d_start = (int *)kit_device_copy(a_start, sizeof a_start);
    CUDA_CHECK(cudaMalloc(&d_out, sizeof out));
    KIT_LAUNCH(worst_merge_probe, 1, w, (size_t)(total + 1) * sizeof(int32_t), d_keys, n_a, total, d_start, d_out);
    cudaError_t e = kit_launch_status();
    if (e == cudaSuccess)
        CUDA_CHECK(cudaMemcpy(out, d_out, (size_t)total * sizeof(int32_t), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_keys));
    CUDA_CHECK(cudaFree(d_start));
    CUDA_CHECK(cudaFree(d_out));
    if (e != cudaSuccess) {
        snprintf(msg, len, "the measured merge failed: %s", cudaGetErrorString(e));
        return -1;
    }
    for (int k = 0; k < total; k++)
        if (out[k] != k) {
            snprintf(msg, len, "the measured merge wrote %d at output %d, expected %d", out[k], k, k);
            return -1;
        }
    return 0;
}

#ifdef KIT_CPU
/**
 * The CPU build's measurement: runs lab08_measure with the emulation's trace on, counts the
 * trace's load conflicts in the simulator (32 banks of 4 bytes) and, if trace_path is given,
 * writes the trace there.
 * @return the load conflicts, or -1 with a message in msg
 */
static long long lab08_measure_traced(int w, int E, const kit_worst_split *T, const char *trace_path, char *msg, size_t len)
{
    kit_cpu_trace_start();
    int rc = lab08_measure(w, E, T, msg, len);
    kit_access *acc;
    size_t na = kit_cpu_trace_stop(&acc);
    kit_bank_model model = {32, 4};
    kit_bank_report rep;
    long long conflicts = -1;
    if (rc == 0 && kit_bank_simulate(&model, acc, na, &rep, msg, len) == 0) {
        conflicts = (long long)rep.load.conflicts;
        kit_bank_free(&rep);
    }
    if (conflicts >= 0 && trace_path && kit_trace_save(trace_path, acc, na) != 0) {
        snprintf(msg, len, "could not write the trace to %s", trace_path);
        conflicts = -1;
    }
    free(acc);
    return conflicts;
}
#endif

#endif
