/* Lab 2's harness glue, shared by its driver and its tests: the student's co_rank on untyped arrays. */
#ifndef LAB02_HARNESS_CUH
#define LAB02_HARNESS_CUH

#include "co_rank.cuh"
#include "kit.h"

template <typename T>
static int co_rank_typed(int k, const void *A, int m, const void *B, int n, int *passes)
{
    return co_rank(k, (const T *)A, m, (const T *)B, n, passes);
}

/** Runs the student's co_rank on arrays of type @p t; @return its i, or -1 for an unknown type. */
static inline int co_rank_any(kit_type t, int k, const void *A, int m, const void *B, int n, int *passes)
{
    switch (t) {
    case KIT_TYPE_I32: return co_rank_typed<int32_t>(k, A, m, B, n, passes);
    case KIT_TYPE_I64: return co_rank_typed<int64_t>(k, A, m, B, n, passes);
    case KIT_TYPE_KV32: return co_rank_typed<kit_kv32>(k, A, m, B, n, passes);
    }
    return -1;
}

#endif
