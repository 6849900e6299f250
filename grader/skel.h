/** @file skel.h Turns a reference solution into the student's skeleton by stripping its marked answer regions. */
#ifndef SKEL_H
#define SKEL_H

#include <stddef.h>
#include <stdio.h>

/**
 * Copies @p in to @p out, replacing each answer region by its skeleton text.
 * A region is written in the solution as
 *
 *     //@answer
 *     ...the answer, dropped...
 *     //@skeleton
 *     //@ ...skeleton lines, kept without their "//@ " prefix...
 *     //@end
 *
 * Marker lines may be indented; a skeleton line keeps the indentation that
 * stands before its "//@". Every other line is copied unchanged.
 *
 * @param[in]  in     the solution
 * @param[out] out    the skeleton
 * @param[in]  name   the solution's name, for messages
 * @param[out] err    on error, "<name>:<line>: <what is wrong>"
 * @param[in]  errlen size of @p err
 * @return the number of regions replaced, or -1 on a malformed region (then @p out is incomplete)
 */
int skel_strip(FILE *in, FILE *out, const char *name, char *err, size_t errlen);

#endif
