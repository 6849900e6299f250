/* Lab 1's harness glue, shared by its driver and its tests: the student's merge on untyped arrays. */
#ifndef LAB01_HARNESS_CUH
#define LAB01_HARNESS_CUH

#include "kit.h"
#include "merge_sequential.cuh"

template <typename T>
static void merge_typed(const void *A, int m, const void *B, int n, void *C)
{
    merge_sequential((const T *)A, m, (const T *)B, n, (T *)C);
}

/** Runs the student's merge_sequential on arrays of type @p t. */
static inline void merge_any(kit_type t, const void *A, int m, const void *B, int n, void *C)
{
    switch (t) {
    case KIT_TYPE_I32: merge_typed<int32_t>(A, m, B, n, C); break;
    case KIT_TYPE_I64: merge_typed<int64_t>(A, m, B, n, C); break;
    case KIT_TYPE_KV32: merge_typed<kit_kv32>(A, m, B, n, C); break;
    }
}

#endif
