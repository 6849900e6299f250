/* Benchmark of the bank-conflict simulator: 10^7 synthetic accesses (256-thread blocks, random words) on one core. */
#include <stdio.h>
#include <stdlib.h>

#include "kit_bank.h"
#include "kit_gen.h"
#include "kit_timer.h"

int main(void)
{
    const size_t n = 10000000;
    kit_access *acc = malloc(n * sizeof *acc);
    if (!acc) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    uint64_t rng = 1;
    for (size_t x = 0; x < n; x++) {
        /* 256-thread blocks, 40 accesses per thread, random 4-byte words in 48 KiB */
        acc[x].block = (uint32_t)(x / (256 * 40));
        acc[x].thread = (uint32_t)(x % 256);
        acc[x].ordinal = (uint32_t)((x / 256) % 40);
        acc[x].addr = (uint32_t)(kit_rng_next(&rng) % (48 * 1024 / 4)) * 4;
        acc[x].size = 4;
        acc[x].write = (uint8_t)(x % 7 == 0);
    }
    kit_bank_model model = {32, 4};
    kit_bank_report r;
    char err[160];
    double best = 1e30;
    for (int rep = 0; rep < 3; rep++) {
        double t0 = kit_now_s();
        if (kit_bank_simulate(&model, acc, n, &r, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        double dt = kit_now_s() - t0;
        best = dt < best ? dt : best;
        if (rep < 2)
            kit_bank_free(&r);
    }
    printf("simulator: %zu accesses in %.2f s (best of 3): %llu load steps, %llu conflicts; target under 2 s: %s\n", n,
           best, (unsigned long long)r.load.steps, (unsigned long long)r.load.conflicts, best < 2.0 ? "met" : "MISSED");
    kit_bank_free(&r);
    free(acc);
    return 0;
}
