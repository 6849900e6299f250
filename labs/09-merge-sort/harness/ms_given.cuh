/** @file
 * Lab 9's given slot map, which the student's gather (ms_cf_gather in merge_sort.cuh) uses: lab 7's
 * rho with E known at compile time. lab09.cuh includes it before the student's file.
 */
#ifndef LAB09_MS_GIVEN_CUH
#define LAB09_MS_GIVEN_CUH

#include "../../07-cf-gather/harness/cf_given.cuh" /* lab 7: CF_W, before its file */
#include "cf_merge.cuh"                              /* lab 7: cf_slot */
#include "kit_lab.h"

/**
 * rho with E known at compile time: the slot of logical position x of a tile. It is lab 7's
 * cf_slot (the tests check that the two agree for every E the kit builds), written out with d
 * and the partition length P as constants, so that the compiler turns the divisions into shifts
 * and drops the map altogether for odd E, where d = 1 and rho is the identity.
 */
template <int E>
KIT_HD inline int ms_slot(int x)
{
    constexpr unsigned d = kit_gcd(CF_W, E), P = CF_W * E / d;
    if constexpr (d == 1) {
        return x;
    } else {
        /* x >= 0: in unsigned arithmetic the divisions by the constants P and d are shifts or a
           multiply (signed ones need extra instructions to round negative values). */
        unsigned l = (unsigned)x / P; /* the partition, rotated by l mod d */
        return (int)(l * P + ((unsigned)x % P + l % d) % P);
    }
}

#endif
