/* Instructor-only (grader/ref/kit_ref.h): the reference predecessor, Algorithm 1's path, and the worst queries for any K. */
#include <stdint.h>
#include <stdlib.h>

#include "kit_ref.h"

long long kit_pbs_ref(kit_type t, const void *keys, size_t K, int64_t q)
{
    size_t lo = 0, hi = K; /* the answer + 1 lies in lo .. hi */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (kit_key_at(t, keys, mid) <= q)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (long long)lo - 1;
}

/* Key i of the padded list: below the keys the smallest value, above them the largest. */
static int64_t padded_key(kit_type t, const void *keys, long long K, long long i)
{
    if (i < 0)
        return t == KIT_TYPE_I32 ? INT32_MIN : INT64_MIN;
    if (i >= K)
        return t == KIT_TYPE_I32 ? INT32_MAX : INT64_MAX;
    return kit_key_at(t, keys, (size_t)i);
}

int kit_pbs_path(kit_type t, const void *keys, size_t K, int64_t q, int32_t *pos)
{
    long long index = (long long)K / 2, delta = ((long long)K + 3) / 4;
    int n = 0;
    for (long long reach = 1; reach < (long long)K; reach *= 2) { /* ceil(log2 K) passes */
        pos[n++] = (int32_t)(PBS_WARP + index);
        index = q >= padded_key(t, keys, (long long)K, index) ? index + delta : index - delta;
        delta = (delta + 1) / 2;
    }
    pos[n++] = (int32_t)(PBS_WARP + index);
    return n;
}

/* who[s] = the first query (key index) whose path reads padded position s at pass p, or (size_t)-1. */
static void first_queries_at(const int32_t *paths, int stride, size_t K, int p, size_t *who, size_t span)
{
    for (size_t s = 0; s < span; s++)
        who[s] = (size_t)-1;
    for (size_t x = 0; x < K; x++) {
        size_t s = (size_t)paths[x * (size_t)stride + (size_t)p];
        if (who[s] == (size_t)-1)
            who[s] = x;
    }
}

/* Lemma 4.2's construction for any K: the queries of one warp, written to lanes[0 .. w-1] as key indices. */
static int pigeonhole_warp(kit_type t, const void *keys, size_t K, size_t *lanes)
{
    enum { STRIDE = 40 }; /* kit_pbs_path writes at most 33 positions */
    size_t span = K + 2 * PBS_WARP;
    int32_t *paths = malloc(K * STRIDE * sizeof *paths);
    size_t *who = malloc(span * sizeof *who);
    if (!paths || !who) {
        free(paths);
        free(who);
        return -1;
    }
    /* Every key as a query follows Algorithm 1 once; the passes below only look the paths up. */
    int passes = 0;
    for (size_t x = 0; x < K; x++)
        passes = kit_pbs_path(t, keys, K, kit_key_at(t, keys, x), paths + x * STRIDE) - 1;
    /* The earliest pass whose busiest bank holds the most distinct positions (up to w). */
    int best_pass = 0, best_bank = 0, best_count = 0;
    for (int p = 0; p < passes && best_count < PBS_WARP; p++) {
        int count[PBS_WARP] = {0};
        first_queries_at(paths, STRIDE, K, p, who, span);
        for (size_t s = 0; s < span; s++)
            count[s % PBS_WARP] += who[s] != (size_t)-1;
        for (int b = 0; b < PBS_WARP; b++)
            if (count[b] > best_count) {
                best_count = count[b];
                best_pass = p;
                best_bank = b;
            }
    }
    /* Hand the winning bank's positions at that pass to the lanes; if there are fewer than w, repeat them. */
    first_queries_at(paths, STRIDE, K, best_pass, who, span);
    int filled = 0;
    for (size_t s = (size_t)best_bank; s < span && filled < PBS_WARP; s += PBS_WARP)
        if (who[s] != (size_t)-1)
            lanes[filled++] = who[s];
    for (int l = filled; l < PBS_WARP; l++)
        lanes[l] = filled > 0 ? lanes[l % filled] : 0;
    free(paths);
    free(who);
    return 0;
}

int kit_pbs_gen_queries_any(kit_type t, const void *keys, size_t K, kit_pbs_queries kind, uint64_t seed, void *out,
                            size_t Q)
{
    if (kind != KIT_PBS_WORST || K % (PBS_WARP * PBS_WARP) == 0 || (t != KIT_TYPE_I32 && t != KIT_TYPE_I64) || K == 0)
        return kit_pbs_gen_queries(t, keys, K, kind, seed, out, Q);
    size_t lanes[PBS_WARP];
    if (pigeonhole_warp(t, keys, K, lanes) != 0)
        return -1;
    for (size_t i = 0; i < Q; i++) {
        int64_t v = kit_key_at(t, keys, lanes[i % PBS_WARP]);
        if (t == KIT_TYPE_I32)
            ((int32_t *)out)[i] = (int32_t)v;
        else
            ((int64_t *)out)[i] = v;
    }
    return 0;
}
