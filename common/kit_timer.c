/* A host wall-clock timer on CLOCK_MONOTONIC, which never jumps with the time of day. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "kit_timer.h"

double kit_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
