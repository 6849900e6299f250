/* Checks by property (kit_check.h): nothing here merges, sorts or searches for an answer. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit_check.h"

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

/* Writes a failure message, if the caller asked for one. */
static void say(char *msg, size_t len, const char *fmt, ...)
{
    if (!msg || !len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, len, fmt, ap);
    va_end(ap);
}

/* The first index of the n sorted elements whose key is > x. */
static size_t key_upper_bound(kit_type t, const void *data, size_t n, int64_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (kit_key_at(t, data, mid) <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static const char *elem(const void *data, size_t i, size_t size)
{
    return (const char *)data + i * size;
}

/* Whether every byte of element i is the harness's fill of output slots never written. */
static int never_written(const void *data, size_t i, size_t size)
{
    for (size_t b = 0; b < size; b++)
        if ((unsigned char)elem(data, i, size)[b] != KIT_UNWRITTEN_BYTE)
            return 0;
    return 1;
}

void kit_wrong_output(kit_type t, const void *got, const char *filled, size_t i, const void *from, const char *from_name,
                      size_t j, const char *ties, char *msg, size_t msglen)
{
    char e[64], g[64], why[120] = "";
    kit_format_elem(t, from, j, e, sizeof e);
    kit_format_elem(t, got, i, g, sizeof g);
    if (filled && never_written(got, i, kit_type_size(t)))
        snprintf(why, sizeof why, ": %.40s[%zu] was never written", filled, i);
    else if (ties && kit_key_at(t, got, i) == kit_key_at(t, from, j))
        snprintf(why, sizeof why, ": %.100s", ties);
    say(msg, msglen, "index %zu: expected %s (%s[%zu]), got %s%s", i, e, from_name, j, g, why);
}

long long kit_check_merge(kit_type t, const void *A, size_t m, const void *B, size_t n, const void *C, char *msg,
                          size_t msglen)
{
    size_t size = kit_type_size(t), i = 0, j = 0;
    say(msg, msglen, "%s", "");
    /* Walk the stable merge in step with C: A's element goes first unless B's key is smaller. */
    for (size_t k = 0; k < m + n; k++) {
        int from_a = j >= n || (i < m && kit_key_at(t, A, i) <= kit_key_at(t, B, j));
        if (memcmp(elem(C, k, size), from_a ? elem(A, i, size) : elem(B, j, size), size) != 0) {
            kit_wrong_output(t, C, "C", k, from_a ? A : B, from_a ? "A" : "B", from_a ? i : j,
                             "equal keys keep A's first, each list in its order", msg, msglen);
            return (long long)k;
        }
        if (from_a)
            i++;
        else
            j++;
    }
    return -1;
}

/* An input element's key and position: kit_check_sort orders them by key, then by position (a stable sort). */
typedef struct keyed {
    int64_t key;
    size_t at;
} keyed;

static int by_key_then_position(const void *x, const void *y)
{
    const keyed *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->at > b->at) - (a->at < b->at);
}

long long kit_check_sort(kit_type t, const void *in, const void *out, size_t n, char *msg, size_t msglen)
{
    size_t size = kit_type_size(t);
    say(msg, msglen, "%s", "");
    keyed *order = malloc((n + 1) * sizeof *order); /* order[k].at: the input position out[k] must hold */
    if (!order) {
        say(msg, msglen, "%s", "out of memory for the check");
        return (long long)n;
    }
    for (size_t k = 0; k < n; k++)
        order[k] = (keyed){kit_key_at(t, in, k), k};
    qsort(order, n, sizeof *order, by_key_then_position);
    long long bad = -1;
    for (size_t k = 0; k < n && bad < 0; k++)
        if (memcmp(elem(out, k, size), elem(in, order[k].at, size), size) != 0) {
            kit_wrong_output(t, out, NULL, k, in, "input", order[k].at, "equal keys keep their input order", msg,
                             msglen);
            bad = (long long)k;
        }
    free(order);
    return bad;
}

int kit_check_co_rank(kit_type t, const void *A, size_t m, const void *B, size_t n, long long k, long long i)
{
    long long j = k - i;
    if (i < 0 || j < 0 || i > (long long)m || j > (long long)n)
        return 0;
    if (i > 0 && j < (long long)n && kit_key_at(t, A, (size_t)i - 1) > kit_key_at(t, B, (size_t)j))
        return 0;
    if (j > 0 && i < (long long)m && kit_key_at(t, B, (size_t)j - 1) >= kit_key_at(t, A, (size_t)i))
        return 0;
    return 1;
}

int kit_check_co_rank_answer(kit_type t, const void *A, size_t m, const void *B, size_t n, long long k, long long i,
                             char *msg, size_t msglen)
{
    say(msg, msglen, "%s", "");
    if (kit_check_co_rank(t, A, m, B, n, k, i))
        return 1;
    size_t a = 0, b = 0; /* the stable merge's first k elements: a from A, b from B */
    while ((long long)(a + b) < k && a + b < m + n)
        if (b >= n || (a < m && kit_key_at(t, A, a) <= kit_key_at(t, B, b)))
            a++;
        else
            b++;
    say(msg, msglen, "co_rank(k=%lld) returned i=%lld, expected %zu (m=%zu, n=%zu)", k, i, a, m, n);
    return 0;
}

int kit_check_predecessor(kit_type t, const void *keys, size_t K, int64_t q, long long p)
{
    if (p < -1 || p >= (long long)K)
        return 0;
    if (p >= 0 && kit_key_at(t, keys, (size_t)p) > q)
        return 0;
    return p + 1 == (long long)K || kit_key_at(t, keys, (size_t)p + 1) > q;
}

int kit_check_answer(kit_type t, const void *keys, size_t K, long long x, int64_t q, long long p, char *msg,
                     size_t msglen)
{
    say(msg, msglen, "%s", "");
    if (kit_check_predecessor(t, keys, K, q, p))
        return 1;
    long long want = (long long)key_upper_bound(t, keys, K, q) - 1;
    if (want < 0)
        say(msg, msglen, "query %lld (key %" PRId64 "): answered %lld, expected -1 (no key is <= %" PRId64
            ")", x, q, p, q);
    else
        say(msg, msglen, "query %lld (key %" PRId64 "): answered %lld, expected %lld (the last key <= %"
            PRId64 ", keys[%lld] = %" PRId64 ")", x, q, p, want, q, want, kit_key_at(t, keys, (size_t)want));
    return 0;
}
