/** @file
 * The CPU emulation's checked memory, inside the emulator (kit_cpu.cc uses it; lab code never sees
 * it): the device heap, and the check of every load and store the code of a kernel or of a checked
 * host call makes.
 *
 * Why: in the CPU build a lab's code runs in the same process as the emulator that measures it. So
 * that no address it can compute leads to the emulator's state, the runner's code is compiled with
 * GCC's ThreadSanitizer instrumentation (a call before every load and store that may touch memory
 * outside the function's own registers) and its bounds sanitizer (a check of every index into an
 * array of known size), without their runtimes: the hooks are here. While a kernel's thread or a
 * checked host call runs, an access is allowed only
 * - inside a device array (cudaMalloc): each is a mapping of its own, at a random address, with an
 *   unmapped page on each side, and the access is recorded as a global access when the launch is
 *   streamed;
 * - inside the running thread's own stack (not another thread's);
 * - inside the executable's thread-local data, which holds the given kernels' __shared__ variables
 *   (reset before every block);
 * - inside what the running code was handed: a kernel's arguments (read), a host call's callable
 *   (read and written);
 * - as a read of the program's read-only data and code.
 * Anything else ends the process with one line that names the access: "out-of-bounds global load
 * A[1000] (A holds 1000 keys) by thread 37 of block 2 in merge_basic_kernel<int>", as an illegal
 * address ends a kernel on a GPU.
 */
#ifndef KIT_CPU_MEM_H
#define KIT_CPU_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "kit_types.h" /* KIT_EXIT_FAULT */

/** Prepares the checked memory: the read-only segments, the thread-local data, the fault handler. Idempotent. */
void kit_cpu_mem_init(void);

/**
 * Turns the check on for a thread about to run: its stack [stack_lo, stack_hi), and what it was
 * handed, [ctx, ctx + ctx_bytes), readable, and writable when @p ctx_writable is set.
 */
void kit_cpu_mem_enter(uintptr_t stack_lo, uintptr_t stack_hi, const void *ctx, size_t ctx_bytes, int ctx_writable);

/** Switches the checked stack to another thread's (the scheduler resumes it). */
void kit_cpu_mem_stack(uintptr_t stack_lo, uintptr_t stack_hi);

/** Turns the check off: the harness runs again. */
void kit_cpu_mem_leave(void);

/** Resets the given kernels' __shared__ variables (before each block). */
void kit_cpu_mem_block_start(void);

/**
 * A mapping of @p bytes for a thread's stack or a device array, at a random address, with an
 * unmapped page below and above. Returns its first usable byte; ends the process when out of memory.
 */
char *kit_cpu_mem_map(size_t bytes);

/** @return a device array of @p bytes (cudaMalloc), or NULL when out of memory. */
void *kit_cpu_mem_alloc(size_t bytes);

/** Frees a device array (cudaFree); @return 0, or -1 when @p p is not one. */
int kit_cpu_mem_free(void *p);

/** kit_cpu_name_array() (kit_cpu.h). */
void kit_cpu_mem_name(const void *p, const char *name, unsigned elem_bytes, const char *what);

/* ---- what the checked memory asks of the scheduler (kit_cpu.cc) ---------------------------- */

/**
 * Writes who is running, for a message: " by thread 37 of block 2 in merge_basic_kernel<T>", or
 * " in host code (a lab function the harness called)".
 */
void kit_cpu_describe_running(char *buf, size_t len);

/** @return 1 while a kernel's thread runs, 0 in a checked host call or the harness. */
int kit_cpu_running_kernel(void);

/** @return the linear index of the thread of the running block whose stack holds @p a, or -1. */
int kit_cpu_stack_owner(uintptr_t a);

/** Records an allowed access to a device array as a global access of the running thread, when streamed. */
void kit_cpu_global_access(unsigned bytes, int write, const void *site);

#endif
