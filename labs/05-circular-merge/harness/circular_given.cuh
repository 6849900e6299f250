/** @file
 * Lab 5's given layout helpers, which the student's kernel (merge_circular.cuh) uses: the wrap of
 * a circular buffer, the padded staging slot, the loads in flight per refill, and the shared
 * memory the launch gives. lab05.cuh includes it before the student's file.
 */
#ifndef LAB05_CIRCULAR_GIVEN_CUH
#define LAB05_CIRCULAR_GIVEN_CUH

#include <stddef.h>

#include "kit_lab.h"

/**
 * x modulo tile for 0 <= x < 2 * tile, without a division: x - tile when that is not negative,
 * else x. As unsigned numbers a negative x - tile is above every int, so the smaller of the two
 * is the answer (a subtraction and an unsigned minimum on the GPU).
 */
KIT_HD inline int merge_circular_wrap(int x, int tile)
{
    unsigned over = (unsigned)x - (unsigned)tile; /* wraps around to above INT_MAX when x < tile */
    return (int)(over < (unsigned)x ? over : (unsigned)x);
}

/** Where merge_circular_kernel stages output slot x >= 0 of a round: one pad word per 32 keeps staging conflict-free. */
KIT_HD inline int merge_circular_slot(int x)
{
    return x + (x >> 5); /* x / 32 for x >= 0, without the fix-up a signed division needs */
}

/** Global loads each thread of merge_circular_kernel keeps in flight while it refills a buffer. */
#define MERGE_CIRCULAR_LOADS 4

/**
 * Bytes of dynamic shared memory merge_circular_kernel needs: an A buffer and
 * a B buffer of `tile` keys, an output tile (padded), and threads + 3 ints.
 */
template <typename T>
KIT_HD size_t merge_circular_shared_bytes(int tile, int threads)
{
    return (2 * (size_t)tile + (size_t)merge_circular_slot(tile)) * sizeof(T) + ((size_t)threads + 3) * sizeof(int);
}

#endif
