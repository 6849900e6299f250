/* CPU references the tests and the grader trust: a stable merge, co-ranks, and array comparison. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit_ref.h"

int64_t kit_key_at(kit_type t, const void *data, size_t i)
{
    switch (t) {
    case KIT_TYPE_I32: return ((const int32_t *)data)[i];
    case KIT_TYPE_I64: return ((const int64_t *)data)[i];
    case KIT_TYPE_KV32: return ((const kit_kv32 *)data)[i].key;
    }
    return 0;
}

int kit_is_sorted(kit_type t, const void *data, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (kit_key_at(t, data, i - 1) > kit_key_at(t, data, i))
            return 0;
    return 1;
}

/*
 * The one merge walk behind every reference here. It takes A's element on a
 * tie (A[i] <= B[j]), which is what makes the merge stable. When C is NULL
 * it only counts: corank (if not NULL) gets the number of A elements taken
 * after each step.
 */
static void merge_walk(kit_type t, const void *A, size_t m, const void *B, size_t n,
                       void *C, size_t steps, int64_t *corank)
{
    size_t size = kit_type_size(t), i = 0, j = 0;
    if (corank)
        corank[0] = 0;
    for (size_t k = 0; k < steps; k++) {
        int take_a = j >= n || (i < m && kit_key_at(t, A, i) <= kit_key_at(t, B, j));
        if (C)
            memcpy((char *)C + k * size, take_a ? (const char *)A + i * size : (const char *)B + j * size, size);
        if (take_a)
            i++;
        else
            j++;
        if (corank)
            corank[k + 1] = (int64_t)i;
    }
}

void kit_merge_ref(kit_type t, const void *A, size_t m, const void *B, size_t n, void *C)
{
    merge_walk(t, A, m, B, n, C, m + n, NULL);
}

size_t kit_co_rank_brute(kit_type t, const void *A, size_t m, const void *B, size_t n, size_t k)
{
    size_t i = 0, j = 0;
    for (size_t step = 0; step < k; step++) {
        if (j >= n || (i < m && kit_key_at(t, A, i) <= kit_key_at(t, B, j)))
            i++;
        else
            j++;
    }
    return i;
}

void kit_co_rank_all(kit_type t, const void *A, size_t m, const void *B, size_t n, int64_t *out)
{
    merge_walk(t, A, m, B, n, NULL, m + n, out);
}

int kit_co_rank_pass_bound(long long m, long long n)
{
    long long small = m < n ? m : n;
    int bits = 0; /* smallest bits with 2^bits >= small + 1, i.e. ceil(log2(small + 1)) */
    while ((1LL << bits) < small + 1)
        bits++;
    return bits + 1;
}

void kit_format_elem(kit_type t, const void *data, size_t i, char *buf, size_t len)
{
    if (t == KIT_TYPE_KV32) {
        const kit_kv32 *kv = (const kit_kv32 *)data + i;
        snprintf(buf, len, "(key %" PRId32 ", value %" PRId32 ")", kv->key, kv->value);
    } else {
        snprintf(buf, len, "%" PRId64, kit_key_at(t, data, i));
    }
}

long long kit_verify(kit_type t, const void *expected, const void *got, size_t n, char *msg, size_t msglen)
{
    size_t size = kit_type_size(t);
    for (size_t i = 0; i < n; i++) {
        if (memcmp((const char *)expected + i * size, (const char *)got + i * size, size) != 0) {
            if (msg) {
                char e[64], g[64];
                kit_format_elem(t, expected, i, e, sizeof e);
                kit_format_elem(t, got, i, g, sizeof g);
                snprintf(msg, msglen, "index %zu: expected %s, got %s", i, e, g);
            }
            return (long long)i;
        }
    }
    if (msg && msglen)
        msg[0] = '\0';
    return -1;
}

int kit_stable_sort(kit_type t, void *data, size_t n)
{
    size_t size = kit_type_size(t);
    char *src = (char *)data, *tmp = (char *)malloc(n * size + 1), *dst = tmp;
    if (!tmp)
        return -1;
    /* Runs of 1, 2, 4, ... merged in pairs, back and forth between data and tmp. */
    for (size_t run = 1; run < n; run *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * run) {
            size_t mid = lo + run < n ? lo + run : n, hi = lo + 2 * run < n ? lo + 2 * run : n;
            kit_merge_ref(t, src + lo * size, mid - lo, src + mid * size, hi - mid, dst + lo * size);
        }
        char *swap = src;
        src = dst;
        dst = swap;
    }
    if (src != (char *)data)
        memcpy(data, src, n * size);
    free(tmp);
    return 0;
}
