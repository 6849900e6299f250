/** @file kit_timer.h A host wall-clock timer; the CUDA-event timer is in kit_cuda.h. */
#ifndef KIT_TIMER_H
#define KIT_TIMER_H

#ifdef __cplusplus
extern "C" {
#endif

/** @return seconds on a monotonic clock; only differences between two calls mean anything. */
double kit_now_s(void);

#ifdef __cplusplus
}
#endif

#endif
