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

/* The first index of the n sorted elements whose key is >= x, or > x when upper. */
static size_t key_bound(kit_type t, const void *data, size_t n, int64_t x, int upper)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int64_t k = kit_key_at(t, data, mid);
        if (k < x || (upper && k == x))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/*
 * key_bound() for data[from..n), where every element before `from` is known to be below x: a
 * galloping search from `from` (steps 1, 2, 4, ... then a bisection), so that bounds asked for in
 * increasing order of x cost about the log of the distance moved, not of n.
 */
static size_t key_bound_from(kit_type t, const void *data, size_t n, int64_t x, int upper, size_t from)
{
    size_t lo = from, step = 1;
    while (lo < n) {
        size_t probe = n - lo > step ? lo + step - 1 : n - 1;
        int64_t k = kit_key_at(t, data, probe);
        if (!(k < x || (upper && k == x)))
            break;
        lo = probe + 1;
        step *= 2;
    }
    size_t hi = n - lo > step ? lo + step : n;
    return lo + key_bound(t, (const char *)data + lo * kit_type_size(t), hi - lo, x, upper);
}

static const char *elem(const void *data, size_t i, size_t size)
{
    return (const char *)data + i * size;
}

long long kit_check_merge(kit_type t, const void *A, size_t m, const void *B, size_t n, const void *C, char *msg,
                          size_t msglen)
{
    size_t size = kit_type_size(t), total = m + n;
    char g[64], e[64];
    say(msg, msglen, "%s", "");
    size_t a_done = 0, b_done = 0; /* A's and B's elements of the keys below this run's */
    for (size_t s = 0, end; s < total; s = end) {
        int64_t x = kit_key_at(t, C, s);
        if (s > 0 && kit_key_at(t, C, s - 1) > x) {
            say(msg, msglen, "index %zu: key %" PRId64 " after key %" PRId64 ": the output is not sorted", s, x,
                kit_key_at(t, C, s - 1));
            return (long long)s;
        }
        for (end = s + 1; end < total && kit_key_at(t, C, end) == x;)
            end++;
        /* the run of x must be A's run of x, then B's */
        size_t la = key_bound_from(t, A, m, x, 0, a_done), na = key_bound_from(t, A, m, x, 1, la) - la;
        size_t lb = key_bound_from(t, B, n, x, 0, b_done), nb = key_bound_from(t, B, n, x, 1, lb) - lb;
        a_done = la + na;
        b_done = lb + nb;
        if (end - s != na + nb) {
            say(msg, msglen, "index %zu: key %" PRId64 " appears %zu times from here, but A and B hold it %zu + %zu times", s,
                x, end - s, na, nb);
            return (long long)s;
        }
        for (size_t k = 0; k < na + nb; k++) {
            const char *want = k < na ? elem(A, la + k, size) : elem(B, lb + k - na, size);
            if (memcmp(elem(C, s + k, size), want, size) != 0) {
                kit_format_elem(t, C, s + k, g, sizeof g);
                kit_format_elem(t, k < na ? A : B, k < na ? la + k : lb + k - na, e, sizeof e);
                say(msg, msglen, "index %zu: expected %s (%s[%zu]: equal keys keep A first, each list in order), got %s",
                    s + k, e, k < na ? "A" : "B", k < na ? la + k : lb + k - na, g);
                return (long long)(s + k);
            }
        }
    }
    return -1;
}

long long kit_check_sort(kit_type t, const void *in, const void *out, size_t n, char *msg, size_t msglen)
{
    size_t size = kit_type_size(t);
    char g[64], e[64];
    say(msg, msglen, "%s", "");
    for (size_t k = 1; k < n; k++)
        if (kit_key_at(t, out, k - 1) > kit_key_at(t, out, k)) {
            say(msg, msglen, "index %zu: key %" PRId64 " after key %" PRId64 ": the output is not sorted", k,
                kit_key_at(t, out, k), kit_key_at(t, out, k - 1));
            return (long long)k;
        }
    size_t *taken = calloc(n + 1, sizeof *taken); /* taken[s]: elements matched so far in the run starting at s */
    if (!taken) {
        say(msg, msglen, "%s", "out of memory for the check");
        return (long long)n;
    }
    long long bad = -1;
    /* Input element i must be the next unmatched element of its key's run in out. */
    for (size_t i = 0; i < n && bad < 0; i++) {
        int64_t x = kit_key_at(t, in, i);
        size_t s = key_bound(t, out, n, x, 0), at = s + taken[s];
        if (at >= n || kit_key_at(t, out, at) != x) {
            kit_format_elem(t, in, i, e, sizeof e);
            bad = (long long)(at < n ? at : s);
            say(msg, msglen, "index %lld: input element %zu (%s) has no place: key %" PRId64 " appears fewer times in the output",
                bad, i, e, x);
        } else if (memcmp(elem(out, at, size), elem(in, i, size), size) != 0) {
            kit_format_elem(t, in, i, e, sizeof e);
            kit_format_elem(t, out, at, g, sizeof g);
            say(msg, msglen, "index %zu: expected %s (input element %zu: equal keys keep their input order), got %s", at, e,
                i, g);
            bad = (long long)at;
        }
        taken[s]++;
    }
    free(taken);
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

int kit_check_predecessor(kit_type t, const void *keys, size_t K, int64_t q, long long p)
{
    if (p < -1 || p >= (long long)K)
        return 0;
    if (p >= 0 && kit_key_at(t, keys, (size_t)p) > q)
        return 0;
    return p + 1 == (long long)K || kit_key_at(t, keys, (size_t)p + 1) > q;
}
