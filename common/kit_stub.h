/** @file kit_stub.h The "not implemented" marker that a skeleton's unwritten bodies call, and what the harness reads back. */
#ifndef KIT_STUB_H
#define KIT_STUB_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Records that a skeleton function was called before the student wrote it.
 * The process's first call prints `not implemented: <task>` on stderr; the
 * harness then fails the test with the same message instead of comparing
 * garbage. Host only; see KIT_NOT_IMPLEMENTED for code that also runs on a GPU.
 * @param[in] task "<lab>:<task>", for example "01-sequential-merge:merge"
 */
void kit_not_implemented(const char *task);

/** @return the task of the first kit_not_implemented() call since the last reset, or NULL. */
const char *kit_not_implemented_task(void);

/** Forgets earlier kit_not_implemented() calls (the harness calls it before each test). */
void kit_not_implemented_reset(void);

#ifdef __cplusplus
}
#endif

/**
 * Marks a skeleton's unwritten body. On the host (and in the CPU build, where
 * kernels run on the host) it calls kit_not_implemented(); in GPU device code
 * it raises a device flag that the harness reads after the launch with
 * kit_device_not_implemented() (kit_device.h).
 */
#if defined(__CUDA_ARCH__)
#define KIT_NOT_IMPLEMENTED(task) (kit_device_not_implemented_flag_ = 1)
#else
#define KIT_NOT_IMPLEMENTED(task) kit_not_implemented(task)
#endif

#endif
