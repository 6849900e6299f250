/** @file
 * The CPU stand-in for CUDA: the device built-ins and the part of the runtime
 * the kit uses, so that the kit's .cu files compile with a plain C++ compiler
 * (g++ -x c++ -DKIT_CPU) and their kernels run on the CPU.
 *
 * How kernels run: blocks one after another; the threads of a block are
 * coroutines on one OS thread (kit_cpu.cc's own switch on x86-64, glibc's
 * ucontext elsewhere), switched only when a thread waits at __syncthreads, a
 * warp operation, or finishes. Barriers and warp operations therefore keep
 * their meaning. There is no other concurrency, so data races go unnoticed:
 * that is compute-sanitizer's job on a GPU.
 */
#ifndef KIT_CPU_H
#define KIT_CPU_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h> /* as cuda_runtime.h does: code written for nvcc calls malloc and free without including it */
#include <string.h>

#include <type_traits>

#include "kit_trace.h" /* kit_access */


/* ---- CUDA keywords ---------------------------------------------------------- */
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(...)
#define __align__(n) alignas(n)
/* A __shared__ variable (given kernels only: a lab file takes its shared memory from
   KIT_DYNAMIC_SHARED) is thread-local data of the executable, which the emulator resets before
   every block, so that nothing carries over from one block to the next, as on a GPU. */
#define __shared__ static thread_local
#define __constant__ static const
/** Inlined even without optimization: kit_shared's accessors, so that every access has a site of its own. */
#define KIT_CPU_INLINE __attribute__((always_inline)) inline

/**
 * Calls @p f with every function it calls inlined into it, and theirs (g++'s flatten): KIT_LAUNCH
 * runs a kernel through it, so that a device function called from two places has two copies of its
 * shared-memory accesses, two sets of sites, as nvcc's inlining gives it two copies of its
 * instructions. (Recursive calls stay calls.) The kernel so inlined is compiled without jump
 * threading: that pass copies the code after a branch into both paths, and an access there would
 * become two sites where the GPU has one instruction.
 */
template <typename F>
__attribute__((flatten, optimize("no-thread-jumps"))) void kit_cpu_flat(const F &f)
{
    f();
}

struct uint3 {
    unsigned x, y, z;
};

struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

/**
 * threadIdx, blockIdx, blockDim and gridDim of the running thread, as values: code can read them,
 * never take their address, so nothing a kernel may name leads to the emulator's state.
 * @{ */
uint3 kit_cpu_thread_idx(void);
uint3 kit_cpu_block_idx(void);
dim3 kit_cpu_block_dim(void);
dim3 kit_cpu_grid_dim(void);
/** @} */

#define threadIdx (kit_cpu_thread_idx())
#define blockIdx (kit_cpu_block_idx())
#define blockDim (kit_cpu_block_dim())
#define gridDim (kit_cpu_grid_dim())
#define warpSize 32

/* ---- synchronization and warp operations ------------------------------------ */
void __syncthreads(void);
void __syncwarp(unsigned mask = 0xffffffffu);
inline void __threadfence(void) {}
inline void __threadfence_block(void) {}

/**
 * The engine of every warp operation: the calling lane offers `value` and
 * waits until every lane of `mask` still running has offered one; it then
 * returns the value of lane `src` (its own value if src is not in the mask).
 * *ballot, if not NULL, receives the lanes whose value was non-zero.
 */
uint64_t kit_cpu_warp_exchange(unsigned mask, uint64_t value, int src, unsigned *ballot);

template <typename T>
/** A shuffle of any value of up to 8 bytes, through kit_cpu_warp_exchange(). */
T kit_cpu_shfl(unsigned mask, T var, int src)
{
    static_assert(sizeof(T) <= 8, "the CPU emulation shuffles values of up to 8 bytes");
    uint64_t bits = 0;
    memcpy(&bits, &var, sizeof var);
    bits = kit_cpu_warp_exchange(mask, bits, src, NULL);
    T out;
    memcpy(&out, &bits, sizeof out);
    return out;
}

/** The calling thread's lane. */
int kit_cpu_lane(void);

template <typename T>
T __shfl_sync(unsigned mask, T var, int src, int width = 32)
{
    int lane = kit_cpu_lane();
    return kit_cpu_shfl(mask, var, (lane / width) * width + src % width);
}
template <typename T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32)
{
    int lane = kit_cpu_lane(), base = (lane / width) * width;
    return kit_cpu_shfl(mask, var, lane - (int)delta >= base ? lane - (int)delta : lane);
}
template <typename T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32)
{
    int lane = kit_cpu_lane(), base = (lane / width) * width;
    return kit_cpu_shfl(mask, var, lane + (int)delta < base + width ? lane + (int)delta : lane);
}
template <typename T>
T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32)
{
    int lane = kit_cpu_lane(), base = (lane / width) * width, src = lane ^ lane_mask;
    return kit_cpu_shfl(mask, var, src >= base && src < base + width ? src : lane);
}
inline unsigned __ballot_sync(unsigned mask, int pred)
{
    unsigned ballot = 0;
    kit_cpu_warp_exchange(mask, pred != 0, kit_cpu_lane(), &ballot);
    return ballot;
}
inline int __any_sync(unsigned mask, int pred) { return __ballot_sync(mask, pred) != 0; }
inline int __all_sync(unsigned mask, int pred) { return (__ballot_sync(mask, pred) & mask) == (__ballot_sync(mask, 1) & mask); }

/* ---- device arithmetic helpers ---------------------------------------------- */
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }

/* Atomics are trivially atomic here: threads only switch at synchronization points.
   Each stores its new value with atomicExch, which returns the old one. */
template <typename T>
T atomicExch(T *p, T v)
{
    T old = *p;
    *p = v;
    return old;
}
template <typename T>
T atomicAdd(T *p, T v) { return atomicExch(p, *p + v); }
template <typename T>
T atomicMin(T *p, T v) { return atomicExch(p, v < *p ? v : *p); }
template <typename T>
T atomicMax(T *p, T v) { return atomicExch(p, v > *p ? v : *p); }
template <typename T>
T atomicCAS(T *p, T compare, T v) { return atomicExch(p, *p == compare ? v : *p); }

/* ---- the runtime ------------------------------------------------------------ */
enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorLaunchFailure = 719,
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};

typedef struct kit_cpu_event *cudaEvent_t;
typedef void *cudaStream_t;

cudaError_t cudaMalloc(void **p, size_t bytes);
template <typename T>
cudaError_t cudaMalloc(T **p, size_t bytes)
{
    return cudaMalloc(reinterpret_cast<void **>(p), bytes);
}
cudaError_t cudaFree(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemset(void *p, int value, size_t bytes);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t e);
const char *cudaGetErrorName(cudaError_t e);
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop);
cudaError_t cudaEventDestroy(cudaEvent_t e);

/* ---- the emulator's own interface ------------------------------------------- */

/**
 * What each thread of a launch runs: fn(f). kit_cpu_launch() makes one from a callable, so that a
 * kernel's call costs the compiler a function pointer, not a std::function.
 */
struct kit_cpu_body {
    void (*fn)(const void *f); /**< calls the callable */
    const void *f;             /**< the callable */
    size_t bytes;              /**< its size: the code it runs may read it (a kernel's arguments) */
};

/** kit_cpu_launch() with its body as a function pointer and its argument. */
void kit_cpu_launch_body(const char *name, dim3 grid, dim3 block, size_t dynamic_shared_bytes, kit_cpu_body body);

/**
 * Runs a grid on the CPU: every block in turn (x fastest, then y, then z),
 * each thread of a block running body() as a coroutine. Sets the error that
 * cudaGetLastError() returns when the configuration is invalid (a zero or
 * over-1024-thread block, over 227 KiB of dynamic shared memory... see
 * kit_cpu.cc) or the block deadlocks (threads waiting at different barriers);
 * a deadlock also prints what each thread was waiting for. A launch from
 * inside a running kernel ends the process: kernels do not launch kernels.
 * When file descriptor KIT_TRACE_FD is a pipe (a grader's runner), the launch
 * and every shared-memory access are written to it (kit_trace.h).
 * @param[in] name the kernel, as KIT_LAUNCH spells it; it names the launch in traces
 * @param[in] grid, block the launch's shape
 * @param[in] dynamic_shared_bytes the block's dynamic shared memory
 * @param[in] body what each thread runs (the kernel's call): a callable without arguments, which
 *            outlives the call (the launch is over when it returns)
 */
template <typename F>
inline void kit_cpu_launch(const char *name, dim3 grid, dim3 block, size_t dynamic_shared_bytes, const F &body)
{
    kit_cpu_body b = {[](const void *f) { (*static_cast<const F *>(f))(); }, &body, sizeof body};
    kit_cpu_launch_body(name, grid, block, dynamic_shared_bytes, b);
}

/** kit_cpu_host_call() with its body as a function pointer; the callable is read and written there. */
void kit_cpu_host_call_body(kit_cpu_body body);

/**
 * Runs @p f, host code that calls a lab file's function (lab 1's merge, lab 2's co-rank), as the
 * emulator runs a kernel's thread: on a stack of its own, with every load and store of the lab
 * file's code checked (kit_cpu_checked, below). Returns what f returns.
 * @param[in] f a callable without arguments; what it captures, it captures by value
 */
template <typename F>
inline auto kit_cpu_host_call(const F &f) -> decltype(f())
{
    typedef decltype(f()) R;
    if constexpr (std::is_void<R>::value) {
        F copy = f;
        kit_cpu_body b = {[](const void *p) { (*static_cast<const F *>(p))(); }, &copy, sizeof copy};
        kit_cpu_host_call_body(b);
    } else {
        struct call {
            F f;
            R r;
        } c = {f, R()};
        kit_cpu_body b = {[](const void *p) { call *q = static_cast<call *>(const_cast<void *>(p)); q->r = q->f(); },
                          &c, sizeof c};
        kit_cpu_host_call_body(b);
        return c.r;
    }
}

/**
 * Names the device array at @p p (as cudaMalloc returned it) for the emulator's messages: an access
 * past its end then reads "out-of-bounds global load A[1000] (A holds 1000 keys)".
 * @param[in] p          the array
 * @param[in] name       its name, "A" (copied)
 * @param[in] elem_bytes the size of one element, for the index and the count (0: count bytes)
 * @param[in] what       what an element is called, "keys" (copied; NULL: "elements")
 */
void kit_cpu_name_array(const void *p, const char *name, unsigned elem_bytes, const char *what);

/**
 * Loads @p size bytes at byte offset @p offset of the running block's dynamic
 * shared memory into @p out, and records the access. Shared memory is reached
 * only through this call and kit_cpu_shared_store(): kit_shared holds an offset,
 * never an address, so no access can escape the trace. An offset outside the
 * launch's shared memory, or a call outside a kernel, ends the process with a
 * message, as an illegal address ends a GPU kernel.
 */
void kit_cpu_shared_load(int64_t offset, void *out, unsigned size);

/** Stores @p size bytes from @p in at byte offset @p offset of the block's dynamic shared memory, and records it. */
void kit_cpu_shared_store(int64_t offset, const void *in, unsigned size);

/** Starts an in-memory trace (for the kit's own tools and tests): clears it and records every later shared access. */
void kit_cpu_trace_start(void);

/**
 * Stops the in-memory trace. It is a copy for local tools: the grader's
 * stream (kit_trace.h) is written whatever this trace does.
 * @param[out] out the accesses recorded since kit_cpu_trace_start(), malloc'ed (free it); NULL if none
 * @return their number
 */
size_t kit_cpu_trace_stop(kit_access **out);

#endif
