/** @file
 * What lab kernels use to touch shared memory and what the harness uses to
 * launch them, written once for both execution paths: on a GPU (nvcc) these
 * are plain CUDA; in the CPU build (-DKIT_CPU) kernels run on the CPU and
 * every shared-memory access is recorded for the bank-conflict simulator.
 */
#ifndef KIT_DEVICE_H
#define KIT_DEVICE_H

#include <stddef.h>

#include <tuple>
#include <type_traits>

#ifdef KIT_CPU
#include "kit_cpu.h"
#else
#include <cuda_runtime.h>
#endif

#include "kit_stub.h"
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
 * and writes, s + k moves it, kit_shared_cast<U>(s) views it as another
 * type); on the GPU that is all it is. In the CPU build it holds a byte
 * offset into the block's shared memory, never an address: every read and
 * write goes through the emulator, which records it (thread, access ordinal,
 * byte offset, and the access's site: where in the source it is, found from
 * the address the emulator is called from) for the bank-conflict simulator. There is no way to reach
 * shared memory around it, so the trace the grader counts is complete.
 * Read into a named type (`int x = s[i];`), not into `auto`, which would keep
 * the recording proxy instead of the value.
 * @tparam T the element type
 */
template <typename T>
class kit_shared {
  public:
    typedef typename std::remove_cv<T>::type value_type; /**< the element type */

#ifdef KIT_CPU
    /**
     * A reference into shared memory that records how it is used. Its accessors are always
     * inlined, so that each load or store in the source calls the emulator from an address of
     * its own: that address is the access's site (kit_access.site).
     */
    class ref {
      public:
        /** Loads the element. */
        KIT_CPU_INLINE operator value_type() const
        {
            value_type v;
            kit_cpu_shared_load(off_, &v, sizeof v);
            return v;
        }
        /** Stores @p v into the element. By value: a copy from global memory is loaded here, where an
            instrumented CPU build (kit_cpu.cc's global-memory hooks) sees the load, not in the emulator. */
        KIT_CPU_INLINE ref &operator=(value_type v)
        {
            static_assert(!std::is_const<T>::value, "a store through a kit_shared<const T>");
            kit_cpu_shared_store(off_, &v, sizeof v);
            return *this;
        }
        KIT_CPU_INLINE ref &operator=(const ref &o) { return *this = static_cast<value_type>(o); } /**< copies an element */
        KIT_CPU_INLINE ref &operator+=(const value_type &v) { return *this = static_cast<value_type>(*this) + v; } /**< adds */
        KIT_CPU_INLINE ref &operator-=(const value_type &v) { return *this = static_cast<value_type>(*this) - v; } /**< subtracts */

      private:
        friend class kit_shared;
        explicit ref(int64_t off) : off_(off) {}
        int64_t off_;
    };

    kit_shared() : off_(INT64_MIN / 2) {} /**< a null pointer: any access through it fails */
    /** Element @p i, and the element pointed to, as recording references. @{ */
    ref operator[](ptrdiff_t i) const { return ref(at(i)); }
    ref operator*() const { return ref(off_); }
    /** @} */
    /** Pointer arithmetic, as on a plain pointer. @{ */
    kit_shared operator+(ptrdiff_t i) const { return kit_shared(at(i)); }
    kit_shared operator-(ptrdiff_t i) const { return kit_shared(at(-i)); }
    ptrdiff_t operator-(kit_shared o) const { return (ptrdiff_t)((off_ - o.off_) / (int64_t)sizeof(T)); }
    /** @} */
    /** The block's dynamic shared memory from its start (what KIT_DYNAMIC_SHARED gives). */
    static kit_shared dynamic() { return kit_shared((int64_t)0); }

  private:
    template <typename U, typename V>
    friend kit_shared<U> kit_shared_cast(kit_shared<V> s);
    explicit kit_shared(int64_t off) : off_(off) {}
    int64_t at(ptrdiff_t i) const { return off_ + (int64_t)i * (int64_t)sizeof(T); }
    int64_t off_; /* byte offset in the block's dynamic shared memory */
#else
    KIT_HD kit_shared(T *q = nullptr) : p_(q) {} /**< wraps the shared-memory address @p q (GPU build) */
    /** Element @p i, and the element pointed to. @{ */
    KIT_HD T &operator[](ptrdiff_t i) const { return p_[i]; }
    KIT_HD T &operator*() const { return *p_; }
    /** @} */
    /** Pointer arithmetic, as on a plain pointer. @{ */
    KIT_HD kit_shared operator+(ptrdiff_t i) const { return kit_shared(p_ + i); }
    KIT_HD kit_shared operator-(ptrdiff_t i) const { return kit_shared(p_ - i); }
    KIT_HD ptrdiff_t operator-(kit_shared o) const { return p_ - o.p_; }
    /** @} */

  private:
    template <typename U, typename V>
    friend KIT_HD kit_shared<U> kit_shared_cast(kit_shared<V> s);
    T *p_; /* the address in shared memory */
#endif
};

/**
 * The same place in shared memory seen as elements of type U, as a
 * reinterpret_cast of the pointer would: `kit_shared<int> ranks =
 * kit_shared_cast<int>(tile + E);`. The address must suit U's alignment.
 */
template <typename U, typename V>
KIT_HD kit_shared<U> kit_shared_cast(kit_shared<V> s)
{
#ifdef KIT_CPU
    return kit_shared<U>(s.off_);
#else
    return kit_shared<U>(reinterpret_cast<U *>(s.p_));
#endif
}

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
 * The key of element @p i of @p p (a plain pointer or a kit_shared): what the ordering compares,
 * the whole element for int32_t and int64_t, the key of a kit_kv32. Code that only compares
 * elements, as a search does, reads them with kit_key: the GPU then reads only those bytes (nvcc
 * drops the unused value of a kit_kv32, 4 of its 8 bytes), and the CPU build records that same
 * 4-byte read. Read with p[i] and compared, a kit_kv32 is still read as its key alone on the GPU,
 * but the CPU build would record all 8 bytes and the simulator count other conflicts.
 */
template <typename P>
KIT_HD kit_value_t<P> kit_key(P p, ptrdiff_t i)
{
    return p[i];
}
/** kit_key of a kit_kv32 array: its key. @{ */
KIT_HD inline int32_t kit_key(const kit_kv32 *p, ptrdiff_t i) { return p[i].key; }
KIT_HD inline int32_t kit_key(kit_kv32 *p, ptrdiff_t i) { return p[i].key; }
KIT_HD inline int32_t kit_key(kit_shared<const kit_kv32> p, ptrdiff_t i) { return kit_shared_cast<const int32_t>(p + i)[0]; }
KIT_HD inline int32_t kit_key(kit_shared<kit_kv32> p, ptrdiff_t i) { return kit_shared_cast<int32_t>(p + i)[0]; }
/** @} */
/** What kit_key returns for a P: the element type, or int32_t for kit_kv32. */
template <typename P>
using kit_key_t = decltype(kit_key(P(), 0));

/**
 * @def KIT_DYNAMIC_SHARED(T)
 * The block's dynamic shared memory (the launch's third parameter) as a
 * kit_shared<T>. Both paths lay it out the same way, from offset 0, so the
 * simulator's banks are the hardware's.
 */
#ifdef KIT_CPU
#define KIT_DYNAMIC_SHARED(T) kit_shared<T>::dynamic()
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
 * build it runs the grid on the CPU before returning, and the launch is named
 * by the kernel as written here (`pbs_kernel<T>`), as ncu names it by its
 * function: name the kernel itself, not a variable that holds it. Check it with
 * CUDA_CHECK_LAUNCH() as any launch. In the CPU build every function the kernel
 * calls is inlined into it (kit_cpu_flat), as nvcc inlines device functions: a
 * function called twice then has two copies of its accesses, two sets of sites,
 * as the GPU has two copies of its instructions.
 */
#ifdef KIT_CPU
/* As on a GPU, the arguments are evaluated once, at the launch, and passed by value (an array as a
   pointer to its start): the kernel's threads read them from the launch's own copy, which the
   checked memory lets a kernel read, never from the stack of the code that launched it. */
#define KIT_LAUNCH(kernel, grid, block, shmem, ...)                                                             \
    kit_cpu_launch(#kernel, dim3(grid), dim3(block), (size_t)(shmem),                                           \
                   [=, kit_launch_args_ = std::make_tuple(__VA_ARGS__)]() {                                     \
                       kit_cpu_flat([&]() { std::apply([&](auto... a) { kernel(a...); }, kit_launch_args_); }); \
                   })
#else
#define KIT_LAUNCH(kernel, grid, block, shmem, ...) kernel<<<(grid), (block), (shmem)>>>(__VA_ARGS__)
#endif

/**
 * KIT_ALLOW_SHARED(kernel, shmem), then KIT_LAUNCH(kernel, grid, block, shmem, args...): a launch
 * with any amount of dynamic shared memory the GPU has. @p shmem is evaluated twice.
 */
#define KIT_LAUNCH_SHARED(kernel, grid, block, shmem, ...)              \
    do {                                                               \
        KIT_ALLOW_SHARED(kernel, shmem);                               \
        KIT_LAUNCH(kernel, grid, block, shmem, __VA_ARGS__);           \
    } while (0)

/**
 * KIT_LAUNCH_DEPENDENT(kernel, grid, block, shmem, args...): KIT_LAUNCH for a kernel that follows
 * another kernel on the default stream, with Hopper's programmatic dependent launch (sm_90 and
 * later; CUB's merge sort launches its kernels so). The GPU may then start the kernel's blocks
 * while the kernel before it is finishing, instead of after it has ended and been retired, which
 * saves the gap between two launches. The kernel must begin with KIT_WAIT_PRIOR_GRID() in every
 * thread, before it touches global memory: that wait lasts until the kernel before has completed
 * and its writes are visible, so the order of reads and writes is the plain launch's. On an older
 * GPU it is a plain launch, and in the CPU build KIT_LAUNCH. Check it with CUDA_CHECK_LAUNCH().
 */
#ifdef KIT_CPU
#define KIT_LAUNCH_DEPENDENT(kernel, grid, block, shmem, ...) KIT_LAUNCH(kernel, grid, block, shmem, __VA_ARGS__)
#else
#define KIT_LAUNCH_DEPENDENT(kernel, grid, block, shmem, ...) \
    kit_launch_dependent(kernel, dim3(grid), dim3(block), (size_t)(shmem), __VA_ARGS__)

/** KIT_LAUNCH_DEPENDENT's launch; a failed launch is left for cudaGetLastError(), as with <<<>>>. */
template <typename... Params, typename... Args>
inline void kit_launch_dependent(void (*kernel)(Params...), dim3 grid, dim3 block, size_t shmem, Args... args)
{
    int device = 0, major = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    cudaLaunchAttribute early[1];
    early[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    early[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = shmem;
    config.stream = 0;
    config.attrs = early;
    config.numAttrs = major >= 9 ? 1 : 0;
    cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...);
}
#endif

/**
 * @def KIT_WAIT_PRIOR_GRID()
 * The first statement of a kernel launched with KIT_LAUNCH_DEPENDENT, run by every thread (a
 * block that left without it could let a later kernel pass this one's predecessor). It waits
 * until the kernel before this one on the stream has completed and its writes to memory are
 * visible. A no-op before sm_90, in a kernel launched without the attribute (there is nothing to
 * wait for), and in the CPU build.
 */
/**
 * @def KIT_START_NEXT_GRID()
 * From here on, as far as this block is concerned, the next kernel launched with
 * KIT_LAUNCH_DEPENDENT may start its blocks; they wait in their own KIT_WAIT_PRIOR_GRID until
 * this kernel has ended. Put it after the block's loads from global memory, as CUB does. A no-op
 * where KIT_WAIT_PRIOR_GRID is one.
 */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define KIT_WAIT_PRIOR_GRID() asm volatile("griddepcontrol.wait;" ::: "memory")
#define KIT_START_NEXT_GRID() asm volatile("griddepcontrol.launch_dependents;" ::: "memory")
#else
#define KIT_WAIT_PRIOR_GRID() ((void)0)
#define KIT_START_NEXT_GRID() ((void)0)
#endif

/**
 * p itself, as a value nvcc cannot see through. Indexing the result with an int is then one wide
 * multiply-add from a register (IMAD.WIDE) a load. Given p = in + first, nvcc otherwise folds
 * first into each load's own address, 64-bit additions and a shift a load: in lab 9's merge
 * kernel, about 4 instructions more for each of a thread's 17 loads (its code up to the first
 * barrier ran 298 instructions a warp, 230 with it: results/2026-11-28-h200-issue20-profiles/).
 * The identity on the host and in the CPU build.
 */
template <typename T>
KIT_HD inline T *kit_base_pointer(T *p)
{
#if defined(__CUDA_ARCH__)
    asm("mov.b64 %0, %0;" : "+l"(p));
#endif
    return p;
}

/**
 * Runs @p f, host code of the harness that calls a lab file's function (lab 1's merge on the host,
 * lab 2's co_rank), and returns what it returns. In the CPU build the call runs as a kernel's thread
 * does, on a stack of its own, with every load and store of the lab file's code checked
 * (common/kit_cpu_mem.h): the arrays it is handed must come from kit_host_array(). On a GPU build
 * it is the plain call.
 * @param[in] f a callable without arguments that captures by value
 */
template <typename F>
inline auto kit_host_call(const F &f) -> decltype(f())
{
#ifdef KIT_CPU
    return kit_cpu_host_call(f);
#else
    return f();
#endif
}

/**
 * An array of @p bytes that a lab file's host code may use (through kit_host_call), holding a copy of
 * @p src when it is not NULL: in the CPU build a device array of the checked heap, named @p name for
 * messages ("out-of-bounds global load A[7] (A holds 7 keys)"), with elements of @p elem_bytes called
 * @p what; on a GPU build host memory. Ends the process when out of memory. Free it with
 * kit_host_array_free().
 */
void *kit_host_array(const void *src, size_t bytes, const char *name, unsigned elem_bytes, const char *what);

/** Frees what kit_host_array() returned (NULL is fine). */
void kit_host_array_free(void *p);

/**
 * Names the device array @p p for the CPU build's messages (kit_cpu_name_array()); nothing on a GPU build.
 * @param[in] p          the array, as cudaMalloc returned it
 * @param[in] name       its name, "A"
 * @param[in] elem_bytes the size of an element
 * @param[in] what       what an element is called, "keys"
 */
inline void kit_name_array(const void *p, const char *name, unsigned elem_bytes, const char *what)
{
#ifdef KIT_CPU
    kit_cpu_name_array(p, name, elem_bytes, what);
#else
    (void)p, (void)name, (void)elem_bytes, (void)what;
#endif
}

/** Asks nvcc to unroll the loop that follows; the CPU build ignores it (g++ does not know the pragma). */
#ifdef KIT_CPU
#define KIT_UNROLL
#else
#define KIT_UNROLL _Pragma("unroll")
#endif

/**
 * Asks nvcc not to unroll the loop that follows (in device code; host code and the CPU build
 * ignore it). For a loop whose trip count differs between the threads of a warp and that reads
 * shared memory: unrolled, its reads are issued by the copies of the body and a remainder loop, so
 * the same pass of two threads can be two instructions; not unrolled, pass k of every thread is
 * one instruction, as the simulator's warp model (kit_bank_group) assumes.
 */
#if defined(__CUDA_ARCH__)
#define KIT_NO_UNROLL _Pragma("unroll 1")
#else
#define KIT_NO_UNROLL
#endif

#endif
