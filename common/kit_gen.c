/* Seeded input generators: the same seed gives the same data on every machine. */
#include <stdlib.h>
#include <string.h>

#include "kit_check.h"
#include "kit_gen.h"
#include "kit_mem.h"

static const char *const gen_names[KIT_GEN_COUNT] = {
    "random", "sorted", "reverse", "duplicates", "equal", "few-unique",
    "a-below-b", "b-below-a", "interleaved",
};

KIT_ENUM_NAMES(kit_gen, gen_names, KIT_GEN_COUNT)

int kit_gen_is_pair_only(kit_gen g)
{
    return g == KIT_GEN_A_BELOW_B || g == KIT_GEN_B_BELOW_A || g == KIT_GEN_INTERLEAVED;
}

uint64_t kit_rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Stores key as element i of an array of type t (kv32 gets value i). */
static void put_key(kit_type t, void *out, size_t i, int64_t key)
{
    switch (t) {
    case KIT_TYPE_I32: ((int32_t *)out)[i] = (int32_t)key; break;
    case KIT_TYPE_I64: ((int64_t *)out)[i] = key; break;
    case KIT_TYPE_KV32: {
        kit_kv32 kv = {(int32_t)key, (int32_t)i};
        ((kit_kv32 *)out)[i] = kv;
        break;
    }
    }
}

/* One key of shape g; random bits are cut to the type's width so i32 keys cover the full int32 range. */
static int64_t draw_key(kit_type t, kit_gen g, size_t n, uint64_t *rng)
{
    static const int64_t few[4] = {-1000000, -7, 3, 1 << 20};
    uint64_t bits = kit_rng_next(rng);
    switch (g) {
    case KIT_GEN_DUPLICATES: return (int64_t)(bits % (n / 16 + 3));
    case KIT_GEN_EQUAL: return 42;
    case KIT_GEN_FEW_UNIQUE: return few[bits % 4];
    default: return t == KIT_TYPE_I64 ? (int64_t)bits : (int64_t)(int32_t)(bits >> 32);
    }
}

static void reverse(kit_type t, void *data, size_t n)
{
    size_t size = kit_type_size(t);
    char tmp[16];
    char *p = (char *)data;
    for (size_t i = 0; i < n / 2; i++) {
        memcpy(tmp, p + i * size, size);
        memcpy(p + i * size, p + (n - 1 - i) * size, size);
        memcpy(p + (n - 1 - i) * size, tmp, size);
    }
}

void kit_gen_permutation(int32_t *out, size_t n, uint64_t seed)
{
    uint64_t rng = seed;
    for (size_t i = 0; i < n; i++)
        out[i] = (int32_t)i;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(kit_rng_next(&rng) % i);
        int32_t t = out[i - 1];
        out[i - 1] = out[j];
        out[j] = t;
    }
}

int kit_gen_array(kit_type t, void *out, size_t n, kit_gen g, uint64_t seed)
{
    if (kit_type_size(t) == 0 || (unsigned)g >= KIT_GEN_COUNT || kit_gen_is_pair_only(g))
        return -1;
    uint64_t rng = seed;
    for (size_t i = 0; i < n; i++)
        put_key(t, out, i, draw_key(t, g, n, &rng));
    if (g == KIT_GEN_SORTED || g == KIT_GEN_REVERSE) {
        kit_sort(t, out, n);
        if (g == KIT_GEN_REVERSE)
            reverse(t, out, n);
        if (t == KIT_TYPE_KV32) /* re-tag, after any reversal, so value i marks position i */
            for (size_t i = 0; i < n; i++)
                ((kit_kv32 *)out)[i].value = (int32_t)i;
    }
    return 0;
}

/* Fills a sorted list whose keys are base + stride * (random offset), or base + stride * i when exact. */
static void fill_layout(kit_type t, void *out, size_t n, int64_t base, int64_t stride, int exact, uint64_t *rng)
{
    for (size_t i = 0; i < n; i++) {
        int64_t step = exact ? (int64_t)i : (int64_t)(kit_rng_next(rng) % (1u << 20));
        put_key(t, out, i, base + stride * step);
    }
}

int kit_gen_merge_input(kit_type t, void *A, size_t m, void *B, size_t n, kit_gen g, uint64_t seed)
{
    if (kit_type_size(t) == 0 || (unsigned)g >= KIT_GEN_COUNT || m > INT32_MAX || n > INT32_MAX || m + n > INT32_MAX)
        return -1;
    uint64_t rng = seed;
    switch (g) {
    case KIT_GEN_A_BELOW_B:
        fill_layout(t, A, m, 0, 1, 0, &rng);
        fill_layout(t, B, n, 1 << 20, 1, 0, &rng);
        break;
    case KIT_GEN_B_BELOW_A:
        fill_layout(t, A, m, 1 << 20, 1, 0, &rng);
        fill_layout(t, B, n, 0, 1, 0, &rng);
        break;
    case KIT_GEN_INTERLEAVED:
        fill_layout(t, A, m, 0, 2, 1, &rng);
        fill_layout(t, B, n, 1, 2, 1, &rng);
        break;
    default:
        kit_gen_array(t, A, m, g, seed);
        kit_gen_array(t, B, n, g, seed ^ 0x5bd1e9955bd1e995ULL);
        break;
    }
    kit_sort(t, A, m);
    kit_sort(t, B, n);
    if (t == KIT_TYPE_KV32) {
        for (size_t i = 0; i < m; i++)
            ((kit_kv32 *)A)[i].value = (int32_t)i;
        for (size_t j = 0; j < n; j++)
            ((kit_kv32 *)B)[j].value = (int32_t)(-1 - (int64_t)j);
    }
    return 0;
}

static void swap_elems(char *data, size_t size, size_t i, size_t j)
{
    char tmp[sizeof(int64_t)];
    memcpy(tmp, data + i * size, size);
    memcpy(data + i * size, data + j * size, size);
    memcpy(data + j * size, tmp, size);
}

/* Moves element i down the max-heap data[0 .. n). */
static void sift_down(kit_type t, char *data, size_t size, size_t i, size_t n)
{
    for (size_t child; (child = 2 * i + 1) < n; i = child) {
        if (child + 1 < n && kit_key_at(t, data, child + 1) > kit_key_at(t, data, child))
            child++;
        if (kit_key_at(t, data, i) >= kit_key_at(t, data, child))
            return;
        swap_elems(data, size, i, child);
    }
}

/* A heap sort, in place, for when the radix sort gets no scratch space. Neither makes a system call
   of its own, so a runner may sort inside its jail (glibc's qsort asks the kernel for the machine's
   memory size). */
static void heap_sort(kit_type t, char *data, size_t n)
{
    size_t size = kit_type_size(t);
    for (size_t i = n / 2; i-- > 0;)
        sift_down(t, data, size, i, n);
    for (size_t end = n; end > 1; end--) {
        swap_elems(data, size, 0, end - 1);
        sift_down(t, data, size, 0, end - 1);
    }
}

/* Byte `pass` (0: the lowest) of an element's key, the key read with its sign bit flipped so that
   the unsigned order of the bytes is the signed order of the keys. */
static unsigned key_byte(kit_type t, const unsigned char *e, int pass)
{
    uint64_t key;
    if (t == KIT_TYPE_I64) {
        int64_t k;
        memcpy(&k, e, sizeof k);
        key = (uint64_t)k ^ (1ULL << 63);
    } else { /* an int32_t, or the key that starts a kit_kv32 */
        int32_t k;
        memcpy(&k, e, sizeof k);
        key = (uint32_t)k ^ 0x80000000u;
    }
    return (unsigned)(key >> (8 * pass)) & 0xFF;
}

/*
 * A radix sort by key, a byte a pass from the lowest, each pass stable: linear in n, where qsort
 * took most of the time the grader spends making a large test's input. A pass in which every key
 * has the same byte moves nothing and is skipped. Returns -1 when it cannot get n elements of
 * scratch space.
 */
static int radix_sort(kit_type t, void *data, size_t n)
{
    size_t size = kit_type_size(t);
    unsigned char *from = data, *to = kit_malloc(n * size + 1), *scratch = to;
    if (!to)
        return -1;
    for (int pass = 0; pass < (t == KIT_TYPE_I64 ? 8 : 4); pass++) {
        size_t start[257] = {0};
        for (size_t i = 0; i < n; i++)
            start[key_byte(t, from + i * size, pass) + 1]++;
        if (start[key_byte(t, from, pass) + 1] == n)
            continue;
        for (int b = 0; b < 256; b++)
            start[b + 1] += start[b];
        for (size_t i = 0; i < n; i++) {
            unsigned char *dst = to + start[key_byte(t, from + i * size, pass)]++ * size;
            if (size == 4)
                memcpy(dst, from + i * size, 4);
            else
                memcpy(dst, from + i * size, 8);
        }
        unsigned char *was = from;
        from = to;
        to = was;
    }
    if (from != data)
        memcpy(data, from, n * size);
    free(scratch);
    return 0;
}

void kit_sort(kit_type t, void *data, size_t n)
{
    if (n < 2 || kit_type_size(t) == 0 || radix_sort(t, data, n) == 0)
        return;
    heap_sort(t, (char *)data, n); /* no memory for the radix sort's scratch: sort in place */
}
