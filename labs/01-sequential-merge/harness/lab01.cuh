/* Lab 1's harness glue, shared by its driver and its tests: the student's merge on untyped arrays. */
#ifndef LAB01_HARNESS_CUH
#define LAB01_HARNESS_CUH

#include <string.h>

#include "kit.h"
#include "merge_sequential.cuh"

/**
 * Runs the student's merge_sequential on arrays of type @p t: C = merge(A, B). The merge runs as a
 * checked host call (kit_host_call) on copies named A, B and C, so that in the CPU build an access
 * past an end is reported with the array and the index; A, B and C then get what the copies hold,
 * so a caller can tell if the merge wrote to its inputs. The caller may hold @p guard bytes of
 * canaries on each side of C: in the GPU build (plain host memory) the copy of C takes them too,
 * so a write just past C comes back in them for the caller to see; in the CPU build the checked
 * memory stops it at C's end instead.
 */
static inline void merge_any(kit_type t, void *A, int m, void *B, int n, void *C, size_t guard)
{
    size_t size = kit_type_size(t), a_bytes = (size_t)m * size, b_bytes = (size_t)n * size, c_bytes = a_bytes + b_bytes;
#ifdef KIT_CPU
    guard = 0;
#endif
    char *whole_c = (char *)C - guard;
    void *hA = kit_host_array(A, a_bytes, "A", (unsigned)size, "keys");
    void *hB = kit_host_array(B, b_bytes, "B", (unsigned)size, "keys");
    void *hC = kit_host_array(whole_c, c_bytes + 2 * guard, "C", (unsigned)size, "keys");
    kit_type_dispatch(t, [&](auto key) {
        using T = decltype(key);
        const T *a = (const T *)hA, *b = (const T *)hB;
        T *c = (T *)((char *)hC + guard);
        kit_host_call([=]() { merge_sequential(a, m, b, n, c); });
    });
    memcpy(A, hA, a_bytes);
    memcpy(B, hB, b_bytes);
    memcpy(whole_c, hC, c_bytes + 2 * guard);
    kit_host_array_free(hA);
    kit_host_array_free(hB);
    kit_host_array_free(hC);
}

#endif
