/* The host side of the predecessor-search lab: reference answers, query generators, the paper's PBS count. */
#include <stdlib.h>
#include <string.h>

#include "kit_gen.h"
#include "kit_pbs.h"
#include "kit_ref.h"

#define PBS_WARP 32 /* w: threads of a warp and banks, as in the lab's PBS_W */

static const char *const QUERY_NAMES[] = {"keys", "range", "worst"};

const char *kit_pbs_queries_name(kit_pbs_queries kind)
{
    return (unsigned)kind < KIT_PBS_QUERIES_COUNT ? QUERY_NAMES[kind] : "?";
}

int kit_pbs_queries_parse(const char *name, kit_pbs_queries *out)
{
    for (int k = 0; k < KIT_PBS_QUERIES_COUNT; k++)
        if (strcmp(name, QUERY_NAMES[k]) == 0) {
            *out = (kit_pbs_queries)k;
            return 0;
        }
    return -1;
}

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

static void put(kit_type t, void *out, size_t i, int64_t v)
{
    if (t == KIT_TYPE_I32)
        ((int32_t *)out)[i] = (int32_t)v;
    else
        ((int64_t *)out)[i] = v;
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

int kit_pbs_gen_queries(kit_type t, const void *keys, size_t K, kit_pbs_queries kind, uint64_t seed, void *out,
                        size_t Q)
{
    if ((t != KIT_TYPE_I32 && t != KIT_TYPE_I64) || K == 0 || (unsigned)kind >= KIT_PBS_QUERIES_COUNT)
        return -1;
    uint64_t rng = seed * 0x9E3779B97F4A7C15ull + 0x5bd1e995u;
    if (kind == KIT_PBS_KEYS) {
        for (size_t i = 0; i < Q; i++)
            put(t, out, i, kit_key_at(t, keys, (size_t)(kit_rng_next(&rng) % K)));
        return 0;
    }
    if (kind == KIT_PBS_RANGE) {
        /* Uniform over [first key, last key] for 3 queries in 4; an eighth fall below the first key and
           an eighth above the last (by up to the keys' span), wherever the type has room for them. */
        int64_t lo = kit_key_at(t, keys, 0), hi = kit_key_at(t, keys, K - 1);
        int64_t tmin = t == KIT_TYPE_I32 ? INT32_MIN : INT64_MIN, tmax = t == KIT_TYPE_I32 ? INT32_MAX : INT64_MAX;
        uint64_t span = (uint64_t)hi - (uint64_t)lo; /* fits: hi >= lo */
        for (size_t i = 0; i < Q; i++) {
            uint64_t r = kit_rng_next(&rng), step = 1 + (span == UINT64_MAX ? r : r % (span + 1)) / 2;
            int64_t v;
            if (r % 8 == 0 && lo > tmin)
                v = (uint64_t)lo - (uint64_t)tmin >= step ? (int64_t)((uint64_t)lo - step) : tmin;
            else if (r % 8 == 1 && hi < tmax)
                v = (uint64_t)tmax - (uint64_t)hi >= step ? (int64_t)((uint64_t)hi + step) : tmax;
            else
                v = span == UINT64_MAX ? (int64_t)kit_rng_next(&rng)
                                       : (int64_t)((uint64_t)lo + kit_rng_next(&rng) % (span + 1));
            put(t, out, i, v);
        }
        return 0;
    }
    size_t lanes[PBS_WARP];
    int aligned = K % (PBS_WARP * PBS_WARP) == 0;
    if (!aligned && pigeonhole_warp(t, keys, K, lanes) != 0)
        return -1;
    for (size_t warp = 0; warp * PBS_WARP < Q; warp++) {
        size_t C = aligned ? (size_t)(kit_rng_next(&rng) % (K / PBS_WARP)) : 0;
        for (size_t l = 0; l < PBS_WARP && warp * PBS_WARP + l < Q; l++) {
            size_t x = aligned ? l * (K / PBS_WARP) + C : lanes[l];
            put(t, out, warp * PBS_WARP + l, kit_key_at(t, keys, x));
        }
    }
    return 0;
}

long long kit_pbs_worst_accesses(long long K, long long w)
{
    if (K < w || w < 1 || (K & (K - 1)) != 0 || (w & (w - 1)) != 0)
        return -1;
    long long logK = 0, logw = 0;
    while ((1LL << logK) < K)
        logK++;
    while ((1LL << logw) < w)
        logw++;
    return w * (logK - logw + 1) - 1;
}
