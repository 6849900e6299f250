/** @file kit_cuda.h The kit's one CUDA error check, its GPU probe and its CUDA-event timer. Include only from .cu files. */
#ifndef KIT_CUDA_H
#define KIT_CUDA_H

#include <stdio.h>
#include <stdlib.h>

#ifdef KIT_CPU
#include "kit_cpu.h" /* the CPU build: kernels run in the kit's emulation */
#else
#include <cuda_runtime.h>
#endif

/**
 * Checks a CUDA runtime call. On failure it prints the error, the call, the
 * file and the line, then exits with status 1: a lab program cannot carry on
 * sensibly after a failed allocation, copy or launch.
 */
#define CUDA_CHECK(call)                                                          \
    do {                                                                          \
        cudaError_t kit_err_ = (call);                                            \
        if (kit_err_ != cudaSuccess) {                                            \
            fprintf(stderr, "CUDA error: %s (%s)\n  in %s\n  at %s:%d\n",         \
                    cudaGetErrorString(kit_err_), cudaGetErrorName(kit_err_),     \
                    #call, __FILE__, __LINE__);                                   \
            exit(1);                                                              \
        }                                                                         \
    } while (0)

/**
 * Checks the launch just made. Launch errors (a bad configuration, too much
 * shared memory) show up at once; errors inside the kernel show up at the
 * next synchronizing call, or right here when the environment variable
 * KIT_SYNC_LAUNCHES is set, which names the guilty kernel at the cost of speed.
 */
#define CUDA_CHECK_LAUNCH()                                 \
    do {                                                    \
        CUDA_CHECK(cudaGetLastError());                     \
        if (kit_sync_launches())                            \
            CUDA_CHECK(cudaDeviceSynchronize());            \
    } while (0)

#ifdef __cplusplus
extern "C" {
#endif

/** @return non-zero if KIT_SYNC_LAUNCHES is set to something other than "0". */
int kit_sync_launches(void);

/**
 * After a launch, for code that reports a failure instead of exiting: the launch's own error (a
 * bad configuration), or else the kernel's, after waiting for it. Either way the error is taken,
 * so the next launch starts clean.
 * @return cudaSuccess, or the error
 */
cudaError_t kit_launch_status(void);

/**
 * Asks the CUDA runtime how many GPUs this process can use.
 * @param[out] why    when none, the reason (no driver, no device, ...)
 * @param[in]  whylen size of @p why
 * @return the number of usable devices; 0 when there is none
 */
int kit_gpu_count(char *why, size_t whylen);

/** A file that exists while the NVIDIA kernel driver is loaded, that is, where a GPU is. */
#define KIT_NVIDIA_DRIVER "/proc/driver/nvidia/version"

/**
 * Why no GPU can be used, in words for a skip line. Without the NVIDIA driver it is "no GPU found"
 * (the CUDA runtime then reports cudaErrorInsufficientDriver, which would mislead); with it, the
 * runtime's own error.
 * @param[in]  driver   the file that tells whether the driver is loaded (KIT_NVIDIA_DRIVER)
 * @param[in]  err_name the runtime's error name, or NULL when it counted 0 devices
 * @param[in]  err_text the runtime's description of that error (unused when err_name is NULL)
 * @param[out] why      the reason, starting "no GPU found" or "no usable GPU"
 * @param[in]  whylen   size of @p why
 */
void kit_gpu_none_reason(const char *driver, const char *err_name, const char *err_text, char *why, size_t whylen);

/**
 * Allocates device memory and copies a host array into it.
 * @param[in] h_src the host data (may be NULL when bytes is 0)
 * @param[in] bytes its size
 * @return the device copy; free it with cudaFree
 */
void *kit_device_copy(const void *h_src, size_t bytes);

/** A timer made of two CUDA events recorded on the default stream. */
typedef struct kit_gpu_timer {
    cudaEvent_t start; /**< recorded by kit_gpu_timer_start() */
    cudaEvent_t stop;  /**< recorded by kit_gpu_timer_stop_ms() */
} kit_gpu_timer;

/** Creates the events and records the start. @pre a GPU is present */
void kit_gpu_timer_start(kit_gpu_timer *t);

/** Records the stop, waits for it, destroys the events. @return milliseconds between start and stop */
float kit_gpu_timer_stop_ms(kit_gpu_timer *t);

#ifdef __cplusplus
}
#endif

#endif
