// Runs lab 9's measured gather (ms_gather_probe, one launch per block-sort round) on the inputs of the
// specs' cf-gather-e15 and cf-gather-e17 shapes, for ncu's per-instruction counts (session 31, run 2).
#include "lab09.cuh"
int main()
{
    const struct { int E, u, n; } cases[] = {{15, 512, 7680}, {17, 256, 5000}};
    char msg[200];
    for (const auto &k : cases) {
        lab09_cfg c = {MS_CF, k.E, k.u};
        int32_t *keys = (int32_t *)malloc((size_t)k.n * 4);
        kit_gen_array(KIT_TYPE_I32, keys, (size_t)k.n, KIT_GEN_RANDOM, 1);
        if (lab09_measure(KIT_TYPE_I32, keys, k.n, c, msg, sizeof msg))
            printf("fail %s\n", msg);
        printf("E=%d u=%d n=%d: one launch per block-sort round\n", k.E, k.u, k.n);
        free(keys);
    }
    return 0;
}
