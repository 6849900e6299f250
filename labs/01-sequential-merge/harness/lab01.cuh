/* Lab 1's harness glue, shared by its driver and its tests: the student's merge on untyped arrays. */
#ifndef LAB01_HARNESS_CUH
#define LAB01_HARNESS_CUH

#include "kit.h"
#include "merge_sequential.cuh"

/** Runs the student's merge_sequential on arrays of type @p t. */
static inline void merge_any(kit_type t, const void *A, int m, const void *B, int n, void *C)
{
    kit_type_dispatch(t, [&](auto key) {
        using T = decltype(key);
        merge_sequential((const T *)A, m, (const T *)B, n, (T *)C);
    });
}

#endif
