/* The host side of the predecessor-search lab: the query sets and the most PBS's passes can cost. */
#include <stdlib.h>
#include <string.h>

#include "kit_gen.h"
#include "pbs_host.h"
#include "kit_check.h"

static const char *const QUERY_NAMES[] = {"keys", "range", "worst"};

KIT_ENUM_NAMES(kit_pbs_queries, QUERY_NAMES, KIT_PBS_QUERIES_COUNT)

static void put(kit_type t, void *out, size_t i, int64_t v)
{
    if (t == KIT_TYPE_I32)
        ((int32_t *)out)[i] = (int32_t)v;
    else
        ((int64_t *)out)[i] = v;
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
    /* Worst queries for K a multiple of w^2: lane l of each warp asks key l*K/w + C, one random C a warp
       (Lemma 4.2's aligned case); other K need the instructor's generator (kit_pbs_gen_queries_any). */
    if (K % (PBS_WARP * PBS_WARP) != 0)
        return -1;
    for (size_t warp = 0; warp * PBS_WARP < Q; warp++) {
        size_t C = (size_t)(kit_rng_next(&rng) % (K / PBS_WARP));
        for (size_t l = 0; l < PBS_WARP && warp * PBS_WARP + l < Q; l++)
            put(t, out, warp * PBS_WARP + l, kit_key_at(t, keys, l * (K / PBS_WARP) + C));
    }
    return 0;
}

int kit_pbs_gen_input(kit_type t, void *keys, size_t K, kit_gen g, kit_pbs_queries kind, uint64_t seed, void *queries,
                      size_t Q)
{
    if (kit_gen_merge_input(t, keys, K, queries, 0, g, seed) != 0)
        return -1;
    return kit_pbs_gen_queries(t, keys, K, kind, seed, queries, Q);
}

long long kit_pbs_worst_accesses(long long K, long long w)
{
    if (K < w || w < 1 || (K & (K - 1)) != 0 || (w & (w - 1)) != 0)
        return -1;
    long long sum = 0, per_bank = K / w;
    for (long long reach = 1; reach < K; reach *= 2) /* pass i reads at most 2^i = reach distinct keys */
        sum += reach < w && reach < per_bank ? reach : w < per_bank ? w : per_bank;
    return sum;
}
