// The CPU emulation's checked memory: the device heap and the hooks that check every load and store (kit_cpu_mem.h).
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

#include "kit_cpu_mem.h"
#include "kit_types.h"

namespace {

const uintptr_t PAGE = 4096;

/** A span of addresses, [lo, hi). */
struct span {
    uintptr_t lo, hi;
    bool holds(uintptr_t a, size_t n) const { return a >= lo && a + n <= hi && a + n >= a; }
};

/** A device array: its bytes, and the mapping around them. */
struct device_array {
    span bytes;
    uintptr_t map;     // the mapping, guard pages included
    size_t map_bytes;
    unsigned elem;     // bytes of an element, 0 when not named
    char name[24];     // "A", or "" when not named
    char what[16];     // "keys", "elements"
};

struct checked_memory {
    bool ready = false;
    bool on = false;          // a kernel's thread or a checked host call is running
    span stack = {0, 0};      // the running thread's stack
    span ctx = {0, 0};        // what it was handed
    bool ctx_writable = false;
    span tls = {0, 0};        // the executable's thread-local data: the __shared__ variables
    std::vector<span> read_only;
    std::vector<device_array> arrays; // sorted by address
    uint64_t rng = 0;
};

checked_memory M;

// A 64-bit generator (splitmix64) seeded from getrandom: where mappings go changes with every run.
uint64_t next_random()
{
    uint64_t z = (M.rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int read_segments(struct dl_phdr_info *info, size_t, void *first)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) &ph = info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
        if ((ph.p_type == PT_LOAD && !(ph.p_flags & PF_W)) || ph.p_type == PT_GNU_RELRO)
            M.read_only.push_back(span{lo, lo + ph.p_memsz});
        /* The executable's own thread-local block (the first object listed) holds the __shared__
           variables of the given kernels, and nothing else of the kit's: it has no thread_local of its own. */
        if (ph.p_type == PT_TLS && *static_cast<int *>(first) && info->dlpi_tls_data) {
            uintptr_t t = (uintptr_t)info->dlpi_tls_data;
            M.tls = span{t, t + ph.p_memsz};
        }
    }
    *static_cast<int *>(first) = 0;
    return 0;
}

// The array that holds a, or NULL.
const device_array *array_at(uintptr_t a)
{
    auto it = std::upper_bound(M.arrays.begin(), M.arrays.end(), a,
                               [](uintptr_t x, const device_array &d) { return x < d.bytes.lo; });
    if (it == M.arrays.begin())
        return nullptr;
    --it;
    return a < it->bytes.hi ? &*it : nullptr;
}

// The array whose mapping (its guard pages included) holds a, or NULL: the array an access past an end was meant for.
const device_array *array_near(uintptr_t a)
{
    for (const device_array &d : M.arrays)
        if (a >= d.map && a < d.map + d.map_bytes)
            return &d;
    return nullptr;
}

bool read_only(uintptr_t a, size_t n)
{
    for (const span &s : M.read_only)
        if (s.holds(a, n))
            return true;
    return false;
}

[[noreturn]] void fault_exit(const char *line)
{
    /* One write: the grader quotes the first line of stderr. */
    char buf[400];
    int k = snprintf(buf, sizeof buf, "kit CPU emulation: %s\n", line);
    if (write(2, buf, (size_t)(k < (int)sizeof buf ? k : (int)sizeof buf - 1)) < 0) {
    }
    _exit(KIT_EXIT_FAULT);
}

// Ends the process with the line that names a refused access.
[[noreturn]] void refuse(uintptr_t a, size_t n, int write, const device_array *near)
{
    char who[160], line[400];
    kit_cpu_describe_running(who, sizeof who);
    const char *kind = kit_cpu_running_kernel() ? (write ? "global store" : "global load") : (write ? "store" : "load");
    int owner = kit_cpu_stack_owner(a);
    if (near && near->name[0]) {
        long long i = (long long)(a >= near->bytes.lo ? (a - near->bytes.lo) / near->elem
                                                      : -(long long)((near->bytes.lo - a + near->elem - 1) / near->elem));
        snprintf(line, sizeof line, "out-of-bounds %s %s[%lld] (%s holds %llu %s)%s", kind, near->name, i,
                 near->name, (unsigned long long)((near->bytes.hi - near->bytes.lo) / near->elem), near->what, who);
    } else if (near) {
        long long off = a >= near->bytes.lo ? (long long)(a - near->bytes.lo) : -(long long)(near->bytes.lo - a);
        snprintf(line, sizeof line, "out-of-bounds %s at byte %lld of a device array of %llu bytes%s", kind, off,
                 (unsigned long long)(near->bytes.hi - near->bytes.lo), who);
    } else if (owner >= 0) {
        snprintf(line, sizeof line, "illegal %s of %zu bytes in the local variables of thread %d%s: a thread's locals "
                 "are its own", kind, n, owner, who);
    } else if (a < 65536) {
        snprintf(line, sizeof line, "illegal %s of %zu bytes at address %#llx (a null pointer)%s", kind, n,
                 (unsigned long long)a, who);
    } else {
        snprintf(line, sizeof line, "illegal %s of %zu bytes at address %#llx, in no device array%s", kind, n,
                 (unsigned long long)a, who);
    }
    fault_exit(line);
}

// Every checked access comes here.
inline void check(const void *p, size_t n, int write, const void *site)
{
    if (!M.on)
        return;
    uintptr_t a = (uintptr_t)p;
    if (M.stack.holds(a, n))
        return;
    const device_array *d = array_at(a);
    if (d && a + n <= d->bytes.hi) {
        kit_cpu_global_access((unsigned)n, write, site);
        return;
    }
    if (M.tls.holds(a, n) || (M.ctx.holds(a, n) && (!write || M.ctx_writable)) || (!write && read_only(a, n)))
        return;
    refuse(a, n, write, d ? d : array_near(a));
}

// A fault the checks did not see coming (a stack overflow, a guard page): one line, as for a refused access.
void on_fault(int sig, siginfo_t *info, void *)
{
    char who[160], line[400];
    kit_cpu_describe_running(who, sizeof who);
    uintptr_t a = (uintptr_t)info->si_addr;
    if (sig == SIGSEGV && kit_cpu_stack_owner(a) < 0 && M.stack.lo && a < M.stack.lo && a + PAGE >= M.stack.lo)
        snprintf(line, sizeof line, "stack overflow%s: a thread has %llu KiB of stack", who,
                 (unsigned long long)((M.stack.hi - M.stack.lo) >> 10));
    else
        snprintf(line, sizeof line, "%s at address %#llx%s", sig == SIGSEGV ? "segmentation fault" : strsignal(sig),
                 (unsigned long long)a, M.on ? who : " in the harness");
    fault_exit(line);
}

} // namespace

void kit_cpu_mem_init(void)
{
    if (M.ready)
        return;
    M.ready = true;
    if (getrandom(&M.rng, sizeof M.rng, 0) != (ssize_t)sizeof M.rng)
        M.rng = (uint64_t)getpid() * 0x9e3779b97f4a7c15ull;
    int first = 1;
    dl_iterate_phdr(read_segments, &first);
    static char alt[64 * 1024];
    stack_t ss = {};
    ss.ss_sp = alt;
    ss.ss_size = sizeof alt;
    sigaltstack(&ss, nullptr);
    struct sigaction sa = {};
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigaction(SIGSEGV, &sa, nullptr);
    sigaction(SIGBUS, &sa, nullptr);
}

void kit_cpu_mem_enter(uintptr_t stack_lo, uintptr_t stack_hi, const void *ctx, size_t ctx_bytes, int ctx_writable)
{
    M.stack = span{stack_lo, stack_hi};
    M.ctx = span{(uintptr_t)ctx, (uintptr_t)ctx + ctx_bytes};
    M.ctx_writable = ctx_writable != 0;
    M.on = true;
}

void kit_cpu_mem_stack(uintptr_t stack_lo, uintptr_t stack_hi)
{
    M.stack = span{stack_lo, stack_hi};
}

void kit_cpu_mem_leave(void)
{
    M.on = false;
    M.stack = M.ctx = span{0, 0};
}

void kit_cpu_mem_block_start(void)
{
    if (M.tls.hi > M.tls.lo)
        memset((void *)M.tls.lo, 0xA5, M.tls.hi - M.tls.lo);
}

namespace {
// A mapping of `inner` bytes (a multiple of PAGE), readable and writable, between two unmapped pages,
// at a random address: a hint anywhere in 16 TiB .. 96 TiB, which the kernel takes where it is free.
// Returns the mapping's first (unmapped) page, or NULL.
char *map_guarded(size_t inner)
{
    kit_cpu_mem_init();
    uintptr_t hint = (0x100000000000ull + next_random() % 0x500000000000ull) & ~(PAGE - 1);
    void *p = mmap((void *)hint, inner + 2 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return nullptr;
    if (mprotect((char *)p + PAGE, inner, PROT_READ | PROT_WRITE) != 0) {
        munmap(p, inner + 2 * PAGE);
        return nullptr;
    }
    return (char *)p;
}
} // namespace

char *kit_cpu_mem_map(size_t bytes)
{
    char *p = map_guarded((bytes + PAGE - 1) / PAGE * PAGE);
    if (!p) {
        fprintf(stderr, "kit CPU emulation: out of memory allocating %zu bytes\n", bytes);
        _exit(KIT_EXIT_NOMEM);
    }
    return p + PAGE;
}

void *kit_cpu_mem_alloc(size_t bytes)
{
    size_t inner = (bytes + PAGE - 1) / PAGE * PAGE, total = inner + 2 * PAGE;
    char *p = map_guarded(inner);
    if (!p)
        return nullptr;
    /* The array ends as near the page after it as a 256-byte alignment (cudaMalloc's) allows, so
       that even code the checks do not see faults soon past its end. */
    uintptr_t end = (uintptr_t)p + PAGE + inner, lo = (end - bytes) & ~(uintptr_t)255;
    device_array d = {};
    d.bytes = span{lo, lo + bytes};
    d.map = (uintptr_t)p;
    d.map_bytes = total;
    d.elem = 1;
    snprintf(d.what, sizeof d.what, "bytes");
    M.arrays.insert(std::upper_bound(M.arrays.begin(), M.arrays.end(), d,
                                     [](const device_array &x, const device_array &y) { return x.bytes.lo < y.bytes.lo; }),
                    d);
    return (void *)lo;
}

int kit_cpu_mem_free(void *p)
{
    for (size_t i = 0; i < M.arrays.size(); i++)
        if (M.arrays[i].bytes.lo == (uintptr_t)p) {
            munmap((void *)M.arrays[i].map, M.arrays[i].map_bytes);
            M.arrays.erase(M.arrays.begin() + (long)i);
            return 0;
        }
    return -1;
}

void kit_cpu_mem_name(const void *p, const char *name, unsigned elem_bytes, const char *what)
{
    for (device_array &d : M.arrays)
        if (d.bytes.lo == (uintptr_t)p) {
            snprintf(d.name, sizeof d.name, "%s", name ? name : "");
            d.elem = elem_bytes ? elem_bytes : 1;
            snprintf(d.what, sizeof d.what, "%s", what ? what : elem_bytes > 1 ? "elements" : "bytes");
        }
}

/* ---- the hooks the instrumented code calls ------------------------------------------------- */
// GCC's ThreadSanitizer instrumentation (-fsanitize=thread --param=tsan-instrument-func-entry-exit=0)
// calls __tsan_readN / __tsan_writeN before every load and store that may touch memory other than
// the function's own unaliased locals, and the range forms for wide copies. The kit has no
// ThreadSanitizer runtime: these hooks are the whole of it.
#define KIT_TSAN_HOOKS(n)                                                                                   \
    extern "C" void __tsan_read##n(void *p) { check(p, n, 0, __builtin_return_address(0)); }               \
    extern "C" void __tsan_write##n(void *p) { check(p, n, 1, __builtin_return_address(0)); }              \
    extern "C" void __tsan_unaligned_read##n(void *p) { check(p, n, 0, __builtin_return_address(0)); }     \
    extern "C" void __tsan_unaligned_write##n(void *p) { check(p, n, 1, __builtin_return_address(0)); }
KIT_TSAN_HOOKS(1)
KIT_TSAN_HOOKS(2)
KIT_TSAN_HOOKS(4)
KIT_TSAN_HOOKS(8)
KIT_TSAN_HOOKS(16)
#undef KIT_TSAN_HOOKS
extern "C" void __tsan_read_range(void *p, unsigned long size) { check(p, size, 0, __builtin_return_address(0)); }
extern "C" void __tsan_write_range(void *p, unsigned long size) { check(p, size, 1, __builtin_return_address(0)); }
extern "C" void __tsan_init(void) {}
extern "C" void __tsan_func_entry(void *) {}
extern "C" void __tsan_func_exit(void) {}

/* GCC's bounds sanitizer (-fsanitize=bounds) checks every index into an array whose size the
   compiler knows (a local array the ThreadSanitizer hooks do not see), and calls this when one is out. */
namespace {
struct ubsan_location {
    const char *file;
    uint32_t line, column;
};
struct ubsan_type {
    uint16_t kind, info;
    char name[1];
};
struct ubsan_bounds {
    ubsan_location loc;
    const ubsan_type *array_type, *index_type;
};

[[noreturn]] void bounds_fault(const ubsan_bounds *d, void *index)
{
    char who[160], line[400];
    kit_cpu_describe_running(who, sizeof who);
    /* An integer index of at most 64 bits comes as its value; info says its width and sign. */
    unsigned bits = 1u << (d->index_type->info >> 1);
    long long i = (long long)(uintptr_t)index;
    if ((d->index_type->info & 1) && bits < 64)
        i = (long long)((uint64_t)i << (64 - bits)) >> (64 - bits);
    const char *file = strrchr(d->loc.file, '/');
    snprintf(line, sizeof line, "out-of-bounds index %lld into an array '%s' at %s:%u%s", i, d->array_type->name,
             file ? file + 1 : d->loc.file, d->loc.line, who);
    fault_exit(line);
}
} // namespace

extern "C" void __ubsan_handle_out_of_bounds(void *data, void *index)
{
    bounds_fault(static_cast<const ubsan_bounds *>(data), index);
}
extern "C" void __ubsan_handle_out_of_bounds_abort(void *data, void *index)
{
    bounds_fault(static_cast<const ubsan_bounds *>(data), index);
}
