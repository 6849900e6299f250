/* Instructor-only (grader/ref/kit_ref.h): the reference stable merge, sort and co-ranks. */
#include <stdlib.h>
#include <string.h>

#include "kit_ref.h"

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
