/** @file kit_types.h The key types every lab is tested on, shared by C host code and CUDA C++. */
#ifndef KIT_TYPES_H
#define KIT_TYPES_H

#include <stddef.h>
#include <stdint.h>

/**
 * The exit status of a program whose memory ran out in one of the kit's allocators (kit_xmalloc,
 * the CPU emulation's stacks and traces), so that the grader can say "memory limit exceeded".
 */
#define KIT_EXIT_NOMEM 87

/**
 * The exit status of a CPU-build program that the checked memory stopped (common/kit_cpu_mem.h):
 * an access past a device array, into another thread's locals, through a wild pointer, or a fault.
 * Its stderr's first line, after "kit CPU emulation: ", says which access, by which thread.
 */
#define KIT_EXIT_FAULT 85

/**
 * Every byte of an output slot before the student's code runs: the harnesses fill C with it, so
 * that a slot the code never wrote shows as such (kit_check_merge() says "C[i] was never written").
 */
#define KIT_UNWRITTEN_BYTE 0xA5

/** The kit's spelling of `__host__ __device__`; empty for plain C and C++ compilers. */
#if defined(__CUDACC__)
#define KIT_HD __host__ __device__
#else
#define KIT_HD
#endif

/**
 * A 32-bit key with a 32-bit value. The ordering operators compare the key
 * only, so the value can tag where an element came from and reveal whether
 * a merge is stable. There is deliberately no `==`: lab code compares keys
 * with `<`, `<=`, `>` and `>=` alone.
 *
 * Aligned to its 8 bytes, so that a GPU loads and stores a pair in one 64-bit instruction (with
 * 4-byte alignment nvcc splits every global access to a pair in two), as the CPU build does.
 */
typedef struct __attribute__((aligned(8))) kit_kv32 {
    int32_t key;   /**< the sort key */
    int32_t value; /**< payload; the tests store the element's origin here */
} kit_kv32;

/** The element types a driver or the grader can ask a lab function to run on. */
typedef enum kit_type {
    KIT_TYPE_I32 = 1, /**< int32_t keys */
    KIT_TYPE_I64 = 2, /**< int64_t keys */
    KIT_TYPE_KV32 = 3 /**< kit_kv32 pairs, compared by key */
} kit_type;

#ifdef __cplusplus
extern "C" {
#endif

/** @return the size in bytes of one element of @p t, or 0 for an unknown type. */
size_t kit_type_size(kit_type t);

/** @return the type's name ("i32", "i64", "kv32"), or "?" for an unknown type. */
const char *kit_type_name(kit_type t);

/**
 * Parses a type name.
 * @param[in]  name "i32", "i64" or "kv32"
 * @param[out] out  the parsed type
 * @return 0 on success, -1 if @p name is not a type name
 */
int kit_type_parse(const char *name, kit_type *out);

/**
 * Writes a formatted reason into @p err (cut at @p len) and returns -1: the kit's one way for a
 * function to fail with a reason, `return kit_err(err, len, "bad %s", what);`.
 */
int kit_err(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/**
 * Looks a name up in a table of names, for the command-line and spec names of enums.
 * @return the index i with names[i] equal to name, or -1 (also for a NULL name)
 */
int kit_name_index(const char *const *names, int count, const char *name);

/**
 * The other way: the name of enum value @p i in a table of @p count names.
 * @return names[i], or "?" for a value out of range
 */
const char *kit_name_at(const char *const *names, int count, int i);

/**
 * Defines the two functions of an enum with a table of names, T_name() and T_parse(), as the
 * kit's enums with command-line or spec names have them (kit_gen, kit_op, ...). The header
 * declares and documents them; the .c file that holds the table says
 * `KIT_ENUM_NAMES(kit_gen, gen_names, KIT_GEN_COUNT)`.
 * @param T     the enum type, which is also the functions' prefix
 * @param names its table of names, in value order
 * @param count the number of values
 */
#define KIT_ENUM_NAMES(T, names, count)                                                                                \
    const char *T##_name(T v) { return kit_name_at(names, count, (int)v); }                                            \
    int T##_parse(const char *name, T *out)                                                                            \
    {                                                                                                                  \
        int i = kit_name_index(names, count, name);                                                                    \
        if (i >= 0)                                                                                                    \
            *out = (T)i;                                                                                               \
        return i >= 0 ? 0 : -1;                                                                                        \
    }

/** constexpr in C++ (a function the compiler may evaluate at compile time), nothing in C. */
#ifdef __cplusplus
#define KIT_CONSTEXPR constexpr
#else
#define KIT_CONSTEXPR
#endif

/**
 * The greatest common divisor of a and b (d = gcd(w, E) in the papers); gcd(a, 0) = a. In C++ it
 * is constexpr, so lab 9's slot map computes d at compile time with it.
 */
KIT_HD static inline KIT_CONSTEXPR int kit_gcd(int a, int b)
{
    while (b != 0) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

#ifdef __cplusplus
}

/** Compare the keys only, never the values; there is deliberately no `==`. @{ */
KIT_HD inline bool operator<(kit_kv32 a, kit_kv32 b) { return a.key < b.key; }
KIT_HD inline bool operator<=(kit_kv32 a, kit_kv32 b) { return a.key <= b.key; }
KIT_HD inline bool operator>(kit_kv32 a, kit_kv32 b) { return a.key > b.key; }
KIT_HD inline bool operator>=(kit_kv32 a, kit_kv32 b) { return a.key >= b.key; }
/** @} */

/**
 * The kit's one switch from a run-time kit_type to a compile-time key type: calls f(T()) with T
 * the type that @p t names (int32_t, int64_t or kit_kv32), so that f can instantiate a template
 * for it; an unknown @p t calls nothing. For example
 * `kit_type_dispatch(t, [&](auto key) { using T = decltype(key); my_kernel_launch<T>(...); });`.
 */
template <typename F>
inline void kit_type_dispatch(kit_type t, F f)
{
    switch (t) {
    case KIT_TYPE_I32: f(int32_t()); break;
    case KIT_TYPE_I64: f(int64_t()); break;
    case KIT_TYPE_KV32: f(kit_kv32()); break;
    }
}
#endif

#endif
