/* Lab 2's harness glue, shared by its driver and its tests: the student's co_rank on untyped arrays. */
#ifndef LAB02_HARNESS_CUH
#define LAB02_HARNESS_CUH

#include <string.h>

#include "co_rank.cuh"
#include "kit.h"

/** What one call of co_rank returned: its i and the passes it reported. */
struct lab02_result {
    int i;      /**< the co-rank */
    int passes; /**< the passes co_rank reported through its out-parameter */
};

/**
 * Runs the student's co_rank(k, A, m, B, n, &passes) as a checked host call (kit_host_call): A and B
 * must come from kit_host_array(), of type T.
 */
template <typename T>
static inline lab02_result lab02_co_rank(int k, const T *A, int m, const T *B, int n)
{
    return kit_host_call([=]() {
        lab02_result r = {0, -1};
        r.i = co_rank(k, A, m, B, n, &r.passes);
        return r;
    });
}

/* A checked array (kit_host_array) of exactly `bytes`, named `name`, kept from call to call while
   the size stays: a test that asks for thousands of co-ranks of the same inputs pays one mapping,
   not thousands. Exactly: the array ends where the input ends, so an access past it is caught. */
static inline void *lab02_scratch(void **keep, size_t *have, size_t bytes, const char *name, unsigned size)
{
    if (!*keep || *have != bytes) {
        kit_host_array_free(*keep);
        *keep = kit_host_array(NULL, bytes, name, size, "keys");
        *have = bytes;
    }
    return *keep;
}

/**
 * Runs the student's co_rank on arrays of type @p t (copied into checked arrays named A and B);
 * @return its i, or -1 for an unknown type. *passes gets the passes it reported.
 */
static inline int co_rank_any(kit_type t, int k, const void *A, int m, const void *B, int n, int *passes)
{
    static void *hA, *hB;
    static size_t a_have, b_have;
    size_t size = kit_type_size(t), a_bytes = (size_t)m * size, b_bytes = (size_t)n * size;
    memcpy(lab02_scratch(&hA, &a_have, a_bytes, "A", (unsigned)size), A, a_bytes);
    memcpy(lab02_scratch(&hB, &b_have, b_bytes, "B", (unsigned)size), B, b_bytes);
    lab02_result r = {-1, -1};
    kit_type_dispatch(t, [&](auto key) {
        using T = decltype(key);
        r = lab02_co_rank(k, (const T *)hA, m, (const T *)hB, n);
    });
    *passes = r.passes;
    return r.i;
}

#endif
