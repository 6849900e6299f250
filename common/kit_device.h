/** @file
 * What lab kernels use to touch shared memory and what the harness uses to
 * launch them, written once for both execution paths: on a GPU (nvcc) these
 * are plain CUDA; in the CPU build (-DKIT_CPU) kernels run on the CPU and
 * every shared-memory access is recorded for the bank-conflict simulator.
 */
#ifndef KIT_DEVICE_H
#define KIT_DEVICE_H

#include <stddef.h>

#include <type_traits>

#ifdef KIT_CPU
#include "kit_cpu.h"
#else
#include <cuda_runtime.h>
#endif

#include "kit_lab.h" /* kit_not_implemented(); it includes this header back, which the guard stops */
#include "kit_types.h"

#ifndef KIT_CPU
/** Raised by KIT_NOT_IMPLEMENTED in GPU device code; one per program that includes this header. */
static __device__ int kit_device_not_implemented_flag_;
#endif

/**
 * After a launch: did the kernel reach a skeleton's KIT_NOT_IMPLEMENTED?
 * Reads and clears the device flag (GPU build) or the host record (CPU
 * build), and on a yes records @p task with kit_not_implemented().
 * @return 1 if a skeleton was reached, else 0
 */
static inline int kit_device_not_implemented(const char *task)
{
#ifdef KIT_CPU
    (void)task;
    return kit_not_implemented_task() != NULL;
#else
    int flag = 0, zero = 0;
    if (cudaMemcpyFromSymbol(&flag, kit_device_not_implemented_flag_, sizeof flag) != cudaSuccess)
        return 0;
    cudaMemcpyToSymbol(kit_device_not_implemented_flag_, &zero, sizeof zero);
    if (flag)
        kit_not_implemented(task);
    return flag != 0;
#endif
}

/**
 * A pointer into shared memory. Index it like a plain pointer (s[i] reads
 * and writes, s + k moves it); on the GPU that is all it is. In the CPU
 * build each read and write through it is recorded, with the thread, its
 * access ordinal and the byte offset, so the simulator can count conflicts.
 * Read into a named type (`int x = s[i];`), not into `auto`, which would keep
 * the recording proxy instead of the value.
 * @tparam T the element type
 */
template <typename T>
struct kit_shared {
    typedef typename std::remove_cv<T>::type value_type; /**< the element type */
    T *p;                                                 /**< the address in shared memory */

    KIT_HD kit_shared(T *q = nullptr) : p(q) {} /**< wraps the shared-memory address @p q */

#ifdef KIT_CPU
    /** A reference into shared memory that records how it is used. */
    struct ref {
        T *q;
        operator T() const
        {
            kit_cpu_record(q, sizeof(T), 0);
            return *q;
        }
        ref &operator=(const T &v)
        {
            kit_cpu_record(q, sizeof(T), 1);
            *q = v;
            return *this;
        }
        ref &operator=(const ref &o) { return *this = static_cast<T>(o); }
        ref &operator+=(const T &v) { return *this = static_cast<T>(*this) + v; }
        ref &operator-=(const T &v) { return *this = static_cast<T>(*this) - v; }
    };
    /** Element @p i, and the element pointed to, as recording references. @{ */
    ref operator[](ptrdiff_t i) const { return ref{p + i}; }
    ref operator*() const { return ref{p}; }
    /** @} */
#else
    /** Element @p i, and the element pointed to. @{ */
    KIT_HD T &operator[](ptrdiff_t i) const { return p[i]; }
    KIT_HD T &operator*() const { return *p; }
    /** @} */
#endif
    /** Pointer arithmetic, as on a plain pointer. @{ */
    KIT_HD kit_shared operator+(ptrdiff_t i) const { return kit_shared(p + i); }
    KIT_HD kit_shared operator-(ptrdiff_t i) const { return kit_shared(p - i); }
    KIT_HD ptrdiff_t operator-(kit_shared o) const { return p - o.p; }
    /** @} */
    /** The raw address; accesses through it are not recorded. */
    KIT_HD T *raw() const { return p; }
};

/**
 * The element type behind a pointer-like type: T for T * and for
 * kit_shared<T>, and P::value_type for any other view. Generic device code
 * reads an element once into it, `kit_value_t<InA> a = A[i];`, where `auto`
 * would keep kit_shared's recording proxy and read again at each use.
 */
template <typename P>
struct kit_value {
    typedef typename P::value_type type; /**< the element type */
};
/** kit_value for a plain pointer: the pointed-to type, without const. */
template <typename T>
struct kit_value<T *> {
    typedef typename std::remove_cv<T>::type type; /**< the pointed-to type, without const */
};
template <typename P>
using kit_value_t = typename kit_value<P>::type; /**< the element type behind P */

/**
 * @def KIT_DYNAMIC_SHARED(T)
 * The block's dynamic shared memory (the launch's third parameter) as a
 * kit_shared<T>. Both paths lay it out the same way, from offset 0, so the
 * simulator's banks are the hardware's.
 */
#ifdef KIT_CPU
#define KIT_DYNAMIC_SHARED(T) kit_shared<T>(reinterpret_cast<T *>(kit_cpu_dynamic_shared()))
#else
extern __shared__ __align__(16) unsigned char kit_dynamic_smem_[];
#define KIT_DYNAMIC_SHARED(T) kit_shared<T>(reinterpret_cast<T *>(kit_dynamic_smem_))
#endif

/**
 * Lets a kernel use more than the default 48 KiB of dynamic shared memory
 * (up to the GPU's limit: 227 KiB on Hopper). A no-op in the CPU build, whose
 * limit kit_cpu_launch checks itself.
 */
#ifdef KIT_CPU
#define KIT_ALLOW_SHARED(kernel, bytes) ((void)(bytes))
#else
#define KIT_ALLOW_SHARED(kernel, bytes) \
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)(bytes)))
#endif

/**
 * Launches a kernel: `KIT_LAUNCH(kernel, grid, block, shared_bytes, args...)`.
 * On the GPU it is kernel<<<grid, block, shared_bytes>>>(args...); in the CPU
 * build it runs the grid on the CPU before returning. Check it with
 * CUDA_CHECK_LAUNCH() as any launch.
 */
#ifdef KIT_CPU
#define KIT_LAUNCH(kernel, grid, block, shmem, ...) \
    kit_cpu_launch(dim3(grid), dim3(block), (size_t)(shmem), [&]() { kernel(__VA_ARGS__); })
#else
#define KIT_LAUNCH(kernel, grid, block, shmem, ...) kernel<<<(grid), (block), (shmem)>>>(__VA_ARGS__)
#endif

/** Asks nvcc to unroll the loop that follows; the CPU build ignores it (g++ does not know the pragma). */
#ifdef KIT_CPU
#define KIT_UNROLL
#else
#define KIT_UNROLL _Pragma("unroll")
#endif

#endif
