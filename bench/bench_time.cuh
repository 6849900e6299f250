/* How the GPU benchmarks find their GPU and time a launch: a warm-up run, then the median of several, by CUDA events. */
#ifndef BENCH_TIME_CUH
#define BENCH_TIME_CUH

#include "kit_cuda.h"

/**
 * Finds the GPU a benchmark runs on. Where none can be used it prints "NAME skipped: why" and
 * returns 0 (the benchmark then exits with 0); otherwise it fills *prop with device 0's
 * properties and returns 1.
 */
static int bench_gpu(const char *name, cudaDeviceProp *prop)
{
    char why[160];
    if (kit_gpu_count(why, sizeof why) == 0) {
        printf("%s skipped: %s\n", name, why);
        return 0;
    }
    CUDA_CHECK(cudaGetDeviceProperties(prop, 0));
    return 1;
}

/** Median of `reps` (1 .. 16) timed runs of launch(), after one untimed warm-up run, in milliseconds. */
template <typename F>
static float bench_median_ms(F launch, int reps)
{
    float t[16];
    launch(); /* warm-up */
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < reps; r++) {
        kit_gpu_timer timer;
        kit_gpu_timer_start(&timer);
        launch();
        t[r] = kit_gpu_timer_stop_ms(&timer);
    }
    for (int a = 0; a < reps; a++)
        for (int b = a + 1; b < reps; b++)
            if (t[b] < t[a]) {
                float x = t[a];
                t[a] = t[b];
                t[b] = x;
            }
    return t[reps / 2];
}

#endif
