// The CPU emulation of CUDA kernels: coroutine threads, barriers, warp exchange, the runtime subset, and tracing.
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <unordered_map>
#include <vector>

#include "kit_cpu.h"
#include "kit_cpu_mem.h"
#include "kit_trace.h"
#include "kit_types.h"

namespace {
/** What threadIdx, blockIdx, blockDim and gridDim read: the emulator updates it at every switch. */
struct {
    uint3 thread_idx, block_idx;
    dim3 block_dim, grid_dim;
} kit_cpu_now;
} // namespace

uint3 kit_cpu_thread_idx(void) { return kit_cpu_now.thread_idx; }
uint3 kit_cpu_block_idx(void) { return kit_cpu_now.block_idx; }
dim3 kit_cpu_block_dim(void) { return kit_cpu_now.block_dim; }
dim3 kit_cpu_grid_dim(void) { return kit_cpu_now.grid_dim; }

int kit_cpu_lane(void)
{
    unsigned lin = kit_cpu_now.thread_idx.x +
                   kit_cpu_now.block_dim.x * (kit_cpu_now.thread_idx.y + kit_cpu_now.block_dim.y * kit_cpu_now.thread_idx.z);
    return (int)(lin % 32);
}

/*
 * Switching between the emulated threads. glibc's swapcontext saves and restores the signal mask, a
 * system call at every switch: about 1 us, which was half of lab 9's test time (a million switches
 * for its public tests). On x86-64 a switch is kit_cpu_switch below: it pushes the registers the
 * ABI says a call preserves, saves the stack pointer, loads the other thread's and pops its
 * registers. The signal mask and the floating-point control words are the same in every thread, so
 * nothing else needs saving. Elsewhere the kit falls back to ucontext.
 */
#if defined(__x86_64__) && !defined(KIT_CPU_UCONTEXT)
extern "C" void kit_cpu_switch(void **save_sp, void *load_sp);
asm(".text\n"
    ".globl kit_cpu_switch\n"
    ".hidden kit_cpu_switch\n"
    ".type kit_cpu_switch, @function\n"
    "kit_cpu_switch:\n"
    "    pushq %rbp\n"
    "    pushq %rbx\n"
    "    pushq %r12\n"
    "    pushq %r13\n"
    "    pushq %r14\n"
    "    pushq %r15\n"
    "    movq %rsp, (%rdi)\n"
    "    movq %rsi, %rsp\n"
    "    popq %r15\n"
    "    popq %r14\n"
    "    popq %r13\n"
    "    popq %r12\n"
    "    popq %rbx\n"
    "    popq %rbp\n"
    "    ret\n"
    ".size kit_cpu_switch, .-kit_cpu_switch\n");

namespace {
/** A paused thread (or the scheduler): its stack pointer, with its saved registers on top. */
struct cpu_context {
    void *sp;
};

/** Prepares c to start in entry() on the stack [stack, stack + bytes) at the next switch to it. */
void context_start(cpu_context *c, char *stack, size_t bytes, void (*entry)(void))
{
    void **sp = (void **)(((uintptr_t)(stack + bytes)) & ~(uintptr_t)15);
    *--sp = nullptr;        /* where entry's return address would be: entry starts as if called */
    *--sp = (void *)entry;  /* kit_cpu_switch's ret goes there */
    for (int r = 0; r < 6; r++)
        *--sp = nullptr;    /* rbp, rbx, r12 .. r15 */
    c->sp = sp;
}

void context_switch(cpu_context *from, cpu_context *to)
{
    kit_cpu_switch(&from->sp, to->sp);
}
} // namespace
#else
#include <ucontext.h>

namespace {
struct cpu_context {
    ucontext_t uc;
};

void context_start(cpu_context *c, char *stack, size_t bytes, void (*entry)(void))
{
    getcontext(&c->uc);
    c->uc.uc_stack.ss_sp = stack;
    c->uc.uc_stack.ss_size = bytes;
    c->uc.uc_link = nullptr; /* entry never returns */
    makecontext(&c->uc, entry, 0);
}

void context_switch(cpu_context *from, cpu_context *to)
{
    swapcontext(&from->uc, &to->uc);
}
} // namespace
#endif

namespace {

enum thread_state { RUNNABLE, AT_BARRIER, AT_WARP, DONE };

// A thread's visits to one site: `count` since the sync `sync` (older counts no longer matter).
struct site_visits {
    unsigned sync, count;
};

struct cpu_thread {
    cpu_context ctx;
    uint3 idx;
    unsigned lin;       // linear index in the block
    thread_state state;
    unsigned ordinal;   // shared accesses recorded so far
    unsigned global_ordinal; // global-memory accesses recorded so far (an instrumented runner's)
    unsigned sync;      // barriers and warp operations passed so far
    unsigned warp_gen;  // generation of the warp operation it waits in
    std::vector<site_visits> visits; // by site: its visits since the thread's last barrier or warp operation
};

struct warp_state {
    unsigned gen;       // completed exchanges
    unsigned arrived;   // lanes waiting in the current exchange
    unsigned mask;      // the mask of the current exchange
    uint64_t slot[2][32]; // values offered, by generation parity
    unsigned ballot[2];
};

const size_t STACK_BYTES = 256 * 1024; // per thread; kernels keep small arrays in registers
const size_t MAX_DYNAMIC_SHARED = 227 * 1024; // Hopper's largest per-block opt-in

struct emulator {
    std::vector<cpu_thread> threads;
    std::vector<char *> stacks; // each STACK_BYTES, between two unmapped pages
    std::vector<warp_state> warps;
    cpu_context scheduler;
    const kit_cpu_body *body = nullptr; // the running launch's, else none
    cpu_thread *current = nullptr;
    unsigned live = 0, at_barrier = 0;
    unsigned block_lin = 0;
    bool failed = false;
    std::vector<unsigned char> shared;
    cudaError_t last_error = cudaSuccess;
    bool tracing = false;
    std::vector<kit_access> trace;
    const char *kernel = nullptr; // the running launch's name
    bool streamed = false;        // whether its accesses go to the grader's stream
    std::unordered_map<const void *, uint32_t> sites; // the launch's access sites: call address -> 1, 2, ...
    char *host_stack = nullptr;   // the stack of checked host calls (kit_cpu_host_call)
    bool in_host_call = false;
};

// The grader's trace stream (kit_trace.h): -1 until the first launch looks at KIT_TRACE_FD, then 1 or 0.
struct trace_stream {
    int on = -1;
    char kernel[KIT_TRACE_NAME] = ""; // the kernel the grader measures (KIT_TRACE_KERNEL): only its launches are streamed
    std::vector<unsigned char> buf;
    uint64_t count = 0; // accesses of the running launch
};

emulator EMU;
trace_stream S;

// Writes the buffered records to the grader's pipe. A failed write ends the process: the grader
// is gone or the stream is broken, and a runner must not go on with a measurement half lost.
void stream_flush()
{
    size_t done = 0;
    while (done < S.buf.size()) {
        ssize_t w = write(KIT_TRACE_FD, S.buf.data() + done, S.buf.size() - done);
        if (w <= 0) {
            fprintf(stderr, "kit CPU emulation: could not write the trace stream\n");
            _exit(1);
        }
        done += (size_t)w;
    }
    S.buf.clear();
}

void stream_put(uint32_t tag, const void *payload, size_t bytes)
{
    const unsigned char *t = (const unsigned char *)&tag, *p = (const unsigned char *)payload;
    S.buf.insert(S.buf.end(), t, t + sizeof tag);
    S.buf.insert(S.buf.end(), p, p + bytes);
    if (S.buf.size() >= (1u << 20))
        stream_flush();
}

// Is KIT_TRACE_FD a pipe? Then a grader hands it to us, and names in KIT_TRACE_KERNEL the kernel it measures.
bool stream_on()
{
    if (S.on < 0) {
        struct stat st;
        const char *kernel = getenv("KIT_TRACE_KERNEL");
        S.on = fstat(KIT_TRACE_FD, &st) == 0 && S_ISFIFO(st.st_mode);
        snprintf(S.kernel, sizeof S.kernel, "%s", kernel && *kernel ? kernel : ".");
    }
    return S.on == 1;
}

void set_error(cudaError_t e)
{
    if (EMU.last_error == cudaSuccess)
        EMU.last_error = e;
}

// Gives control back to the scheduler; the thread resumes when it is made runnable again.
void yield_to_scheduler()
{
    context_switch(&EMU.current->ctx, &EMU.scheduler);
}

// A thread's life: the kernel's body, then back to the scheduler, which never resumes it.
void thread_entry()
{
    EMU.body->fn(EMU.body->f);
    EMU.current->state = DONE;
    context_switch(&EMU.current->ctx, &EMU.scheduler);
    abort(); // unreachable: a finished thread is not switched to
}

// A thread's stack: a mapping of its own at a random address, between two unmapped pages, so an
// overflow faults instead of reaching a neighbour (kit_cpu_mem.h).
char *new_stack()
{
    return kit_cpu_mem_map(STACK_BYTES);
}

// Runs thread t until it waits or ends, with the checked memory on its stack.
void run_thread(cpu_thread &t, char *stack)
{
    EMU.current = &t;
    kit_cpu_now.thread_idx = t.idx;
    kit_cpu_mem_stack((uintptr_t)stack, (uintptr_t)stack + STACK_BYTES);
    context_switch(&EMU.scheduler, &t.ctx);
}

void release_barrier()
{
    for (cpu_thread &t : EMU.threads)
        if (t.state == AT_BARRIER)
            t.state = RUNNABLE;
    EMU.at_barrier = 0;
}

// Lanes of warp w that have not finished.
unsigned live_lanes(unsigned w)
{
    unsigned lanes = 0;
    for (unsigned l = 0; l < 32 && w * 32 + l < EMU.threads.size(); l++)
        if (EMU.threads[w * 32 + l].state != DONE)
            lanes |= 1u << l;
    return lanes;
}

// Completes the warp's exchange if every live lane of its mask has arrived.
void try_release_warp(unsigned w)
{
    warp_state &ws = EMU.warps[w];
    if (ws.arrived == 0 || (ws.arrived & ws.mask & live_lanes(w)) != (ws.mask & live_lanes(w)))
        return;
    for (unsigned l = 0; l < 32 && w * 32 + l < EMU.threads.size(); l++) {
        cpu_thread &t = EMU.threads[w * 32 + l];
        if (t.state == AT_WARP && t.warp_gen == ws.gen)
            t.state = RUNNABLE;
    }
    ws.gen++;
    ws.arrived = 0;
    ws.ballot[ws.gen & 1] = 0;
}

const char *state_name(thread_state s)
{
    switch (s) {
    case RUNNABLE: return "runnable";
    case AT_BARRIER: return "__syncthreads";
    case AT_WARP: return "a warp operation";
    case DONE: return "finished";
    }
    return "?";
}

void report_deadlock()
{
    fprintf(stderr, "kit CPU emulation: deadlock in block (%u,%u,%u): no thread can go on\n", kit_cpu_now.block_idx.x,
            kit_cpu_now.block_idx.y, kit_cpu_now.block_idx.z);
    unsigned shown = 0;
    for (cpu_thread &t : EMU.threads) {
        if (t.state == DONE)
            continue;
        if (shown++ < 8)
            fprintf(stderr, "  thread (%u,%u,%u) waits at %s\n", t.idx.x, t.idx.y, t.idx.z, state_name(t.state));
    }
    if (shown > 8)
        fprintf(stderr, "  ... and %u more\n", shown - 8);
    EMU.failed = true;
    set_error(cudaErrorLaunchFailure);
}

void run_block(const dim3 &block)
{
    unsigned n = block.x * block.y * block.z;
    EMU.live = n;
    EMU.at_barrier = 0;
    for (unsigned w = 0; w < EMU.warps.size(); w++) {
        EMU.warps[w].gen = 0;
        EMU.warps[w].arrived = 0;
        EMU.warps[w].ballot[0] = EMU.warps[w].ballot[1] = 0;
    }
    memset(EMU.shared.data(), 0xA5, EMU.shared.size());
    kit_cpu_mem_block_start();
    for (unsigned i = 0; i < n; i++) {
        cpu_thread &t = EMU.threads[i];
        t.lin = i;
        t.idx = uint3{i % block.x, (i / block.x) % block.y, i / (block.x * block.y)};
        t.state = RUNNABLE;
        t.ordinal = 0;
        t.global_ordinal = 0;
        t.sync = 0;
        t.visits.clear();
        context_start(&t.ctx, EMU.stacks[i], STACK_BYTES, thread_entry);
    }
    while (EMU.live > 0) {
        bool ran = false;
        for (unsigned i = 0; i < n; i++) {
            cpu_thread &t = EMU.threads[i];
            if (t.state != RUNNABLE)
                continue;
            ran = true;
            run_thread(t, EMU.stacks[i]);
            if (t.state == DONE) {
                EMU.live--;
                try_release_warp(i / 32); // a lane that finished no longer holds its warp back
                if (EMU.at_barrier > 0 && EMU.at_barrier == EMU.live)
                    release_barrier();
            }
        }
        if (!ran) {
            report_deadlock();
            return;
        }
    }
}

} // namespace

void __syncthreads(void)
{
    cpu_thread *me = EMU.current;
    me->sync++;
    me->state = AT_BARRIER;
    if (++EMU.at_barrier == EMU.live)
        release_barrier(); // the last one in lets everyone go, itself included
    if (me->state == AT_BARRIER)
        yield_to_scheduler();
}

uint64_t kit_cpu_warp_exchange(unsigned mask, uint64_t value, int src, unsigned *ballot)
{
    cpu_thread *me = EMU.current;
    unsigned w = me->lin / 32, lane = me->lin % 32;
    warp_state &ws = EMU.warps[w];
    if (ws.arrived == 0)
        ws.mask = mask;
    unsigned gen = ws.gen, parity = gen & 1;
    me->sync++;
    ws.slot[parity][lane] = value;
    if (value)
        ws.ballot[parity] |= 1u << lane;
    ws.arrived |= 1u << lane;
    me->state = AT_WARP;
    me->warp_gen = gen;
    try_release_warp(w);
    if (me->state == AT_WARP)
        yield_to_scheduler();
    if (ballot)
        *ballot = ws.ballot[parity] & mask;
    unsigned from = src >= 0 && src < 32 && (mask >> src & 1) ? (unsigned)src : lane;
    return ws.slot[parity][from];
}

void __syncwarp(unsigned mask)
{
    kit_cpu_warp_exchange(mask, 0, kit_cpu_lane(), NULL);
}

// Opens a launch in the grader's stream.
static void stream_launch(const char *name, dim3 grid, dim3 block, size_t shared_bytes)
{
    kit_trace_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = grid.x, l.grid[1] = grid.y, l.grid[2] = grid.z;
    l.block[0] = block.x, l.block[1] = block.y, l.block[2] = block.z;
    l.shared_bytes = (uint32_t)shared_bytes;
    snprintf(l.name, sizeof l.name, "%s", name ? name : "?");
    stream_put(KIT_TRACE_LAUNCH, &l, sizeof l);
    S.count = 0;
}

void kit_cpu_launch_body(const char *name, dim3 grid, dim3 block, size_t dynamic_shared_bytes, kit_cpu_body body)
{
    kit_cpu_mem_init();
    if (EMU.body || EMU.in_host_call) {
        fprintf(stderr, "kit CPU emulation: %s launched %s from inside a kernel; only the harness launches kernels\n",
                EMU.kernel ? EMU.kernel : "a kernel", name ? name : "a kernel");
        _exit(1);
    }
    unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
    if (threads == 0 || threads > 1024 || block.z > 64 || grid.x == 0 || grid.y == 0 || grid.z == 0 ||
        grid.y > 65535 || grid.z > 65535 || dynamic_shared_bytes > MAX_DYNAMIC_SHARED) {
        set_error(cudaErrorInvalidConfiguration);
        return;
    }
    while (EMU.stacks.size() < threads)
        EMU.stacks.push_back(new_stack());
    EMU.threads.resize(threads);
    EMU.warps.assign((threads + 31) / 32, warp_state());
    EMU.shared.assign(dynamic_shared_bytes, 0xA5);
    EMU.body = &body;
    EMU.kernel = name;
    EMU.failed = false;
    EMU.sites.clear();
    EMU.streamed = stream_on() && kit_trace_name_matches(name ? name : "?", S.kernel);
    if (EMU.streamed)
        stream_launch(name, grid, block, dynamic_shared_bytes);
    kit_cpu_now.block_dim = block;
    kit_cpu_now.grid_dim = grid;
    kit_cpu_mem_enter(0, 0, body.f, body.bytes, 0); /* each thread's stack is set as it runs */
    for (unsigned z = 0; z < grid.z && !EMU.failed; z++)
        for (unsigned y = 0; y < grid.y && !EMU.failed; y++)
            for (unsigned x = 0; x < grid.x && !EMU.failed; x++) {
                kit_cpu_now.block_idx = uint3{x, y, z};
                EMU.block_lin = x + grid.x * (y + grid.y * z);
                run_block(block);
            }
    kit_cpu_mem_leave();
    EMU.body = nullptr;
    EMU.kernel = nullptr;
    EMU.current = nullptr;
    if (EMU.streamed) {
        EMU.streamed = false;
        stream_put(KIT_TRACE_END, &S.count, sizeof S.count);
        stream_flush();
    }
}

namespace {

// The site of an access: the call's return address (kit_shared's accessors are inlined where the
// kernel reads or writes, so each access in the source calls from an address of its own), numbered
// 1, 2, ... in the order the launch first reaches them.
uint32_t site_of(const void *call)
{
    auto it = EMU.sites.find(call);
    if (it != EMU.sites.end())
        return it->second;
    uint32_t id = (uint32_t)EMU.sites.size() + 1;
    EMU.sites.emplace(call, id);
    return id;
}

// How many times the running thread reached `site` before, since its last barrier or warp operation.
uint32_t next_visit(uint32_t site)
{
    cpu_thread *t = EMU.current;
    if (t->visits.size() <= site)
        t->visits.resize(site + 1, site_visits{0, 0});
    site_visits &v = t->visits[site];
    if (v.sync != t->sync)
        v = site_visits{t->sync, 0};
    return v.count++;
}

// Records one access of the running thread: into the grader's stream, and the in-memory trace when on.
// A global-memory access (global != 0) goes to the stream alone, numbered apart from the shared ones.
void record(uint32_t offset, unsigned size, int write, const void *call, int global = 0)
{
    kit_access x;
    memset(&x, 0, sizeof x);
    x.block = EMU.block_lin;
    x.thread = EMU.current->lin;
    x.ordinal = global ? EMU.current->global_ordinal++ : EMU.current->ordinal++;
    x.addr = offset;
    x.site = site_of(call);
    x.sync = EMU.current->sync;
    x.visit = next_visit(x.site);
    x.size = (uint8_t)size;
    x.write = (uint8_t)(write != 0);
    if (EMU.streamed) {
        stream_put(global ? KIT_TRACE_GLOBAL : KIT_TRACE_ACCESS, &x, sizeof x);
        S.count++;
    }
    if (EMU.tracing && !global)
        EMU.trace.push_back(x);
}

// The address of [offset, offset + size) in the block's shared memory; ends the process when it is not there.
unsigned char *shared_at(int64_t offset, unsigned size, const char *what)
{
    if (!EMU.current || !EMU.body) {
        fprintf(stderr, "kit CPU emulation: a shared-memory %s outside a kernel\n", what);
        _exit(1);
    }
    if (offset < 0 || (uint64_t)offset + size > EMU.shared.size()) {
        fprintf(stderr,
                "kit CPU emulation: illegal shared-memory %s of %u bytes at offset %lld in %s, thread %u of block %u "
                "(the block has %zu bytes)\n",
                what, size, (long long)offset, EMU.kernel ? EMU.kernel : "a kernel", EMU.current->lin, EMU.block_lin,
                EMU.shared.size());
        _exit(1);
    }
    return EMU.shared.data() + offset;
}

} // namespace

void kit_cpu_shared_load(int64_t offset, void *out, unsigned size)
{
    const unsigned char *p = shared_at(offset, size, "load");
    record((uint32_t)offset, size, 0, __builtin_return_address(0));
    memcpy(out, p, size);
}

void kit_cpu_shared_store(int64_t offset, const void *in, unsigned size)
{
    unsigned char *p = shared_at(offset, size, "store");
    record((uint32_t)offset, size, 1, __builtin_return_address(0));
    memcpy(p, in, size);
}

void kit_cpu_trace_start(void)
{
    EMU.trace.clear();
    EMU.tracing = true;
}

size_t kit_cpu_trace_stop(kit_access **out)
{
    EMU.tracing = false;
    size_t n = EMU.trace.size();
    *out = NULL;
    if (n) {
        *out = (kit_access *)malloc(n * sizeof(kit_access));
        if (!*out) {
            fprintf(stderr, "kit CPU emulation: out of memory copying a trace of %zu accesses\n", n);
            exit(KIT_EXIT_NOMEM);
        }
        memcpy(*out, EMU.trace.data(), n * sizeof(kit_access));
    }
    EMU.trace.clear();
    EMU.trace.shrink_to_fit();
    return n;
}

// ---- the runtime: "device" memory is the checked heap (kit_cpu_mem.h) ----------------------

cudaError_t cudaMalloc(void **p, size_t bytes)
{
    *p = kit_cpu_mem_alloc(bytes ? bytes : 1);
    if (!*p) { /* as kit_xmalloc says it: a grader's memory-limit verdict looks for these words */
        fprintf(stderr, "kit CPU emulation: cudaMalloc: out of memory allocating %zu bytes\n", bytes);
        return cudaErrorMemoryAllocation;
    }
    return cudaSuccess;
}

cudaError_t cudaFree(void *p)
{
    if (p && kit_cpu_mem_free(p) != 0)
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

void kit_cpu_name_array(const void *p, const char *name, unsigned elem_bytes, const char *what)
{
    kit_cpu_mem_name(p, name, elem_bytes, what);
}

// ---- what the checked memory asks of the scheduler (kit_cpu_mem.h) ------------------------------

void kit_cpu_global_access(unsigned bytes, int write, const void *site)
{
    if (!EMU.streamed || !EMU.current || !EMU.body)
        return;
    unsigned b = bytes >= 16 ? 16 : bytes >= 8 ? 8 : bytes >= 4 ? 4 : bytes >= 2 ? 2 : 1;
    record(0, b, write, site, 1);
}

void kit_cpu_describe_running(char *buf, size_t len)
{
    if (EMU.body && EMU.current)
        snprintf(buf, len, " by thread %u of block %u in %s", EMU.current->lin, EMU.block_lin,
                 EMU.kernel ? EMU.kernel : "a kernel");
    else if (EMU.in_host_call)
        snprintf(buf, len, " on the host, in the lab file's function the harness called");
    else
        snprintf(buf, len, "%s", "");
}

int kit_cpu_running_kernel(void)
{
    return EMU.body && EMU.current;
}

int kit_cpu_stack_owner(uintptr_t a)
{
    if (!EMU.body)
        return -1;
    for (size_t i = 0; i < EMU.threads.size() && i < EMU.stacks.size(); i++)
        if (a >= (uintptr_t)EMU.stacks[i] && a < (uintptr_t)EMU.stacks[i] + STACK_BYTES)
            return (int)i;
    return -1;
}

void kit_cpu_host_call_body(kit_cpu_body body)
{
    if (EMU.body || EMU.in_host_call) {
        fprintf(stderr, "kit CPU emulation: a checked host call from inside a kernel or another host call\n");
        _exit(1);
    }
    if (!EMU.host_stack)
        EMU.host_stack = new_stack();
    static kit_cpu_body running;
    static cpu_context caller, callee;
    running = body;
    context_start(&callee, EMU.host_stack, STACK_BYTES, [] {
        running.fn(running.f);
        context_switch(&callee, &caller);
        abort(); // unreachable: a finished host call is not switched to
    });
    EMU.in_host_call = true;
    kit_cpu_mem_enter((uintptr_t)EMU.host_stack, (uintptr_t)EMU.host_stack + STACK_BYTES, body.f, body.bytes, 1);
    context_switch(&caller, &callee);
    kit_cpu_mem_leave();
    EMU.in_host_call = false;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    if ((unsigned)kind > cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    if (bytes && (!dst || !src))
        return cudaErrorInvalidValue;
    memmove(dst, src, bytes);
    return cudaSuccess;
}

cudaError_t cudaMemset(void *p, int value, size_t bytes)
{
    if (bytes && !p)
        return cudaErrorInvalidValue;
    memset(p, value, bytes);
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
    return EMU.last_error;
}

cudaError_t cudaGetLastError(void)
{
    cudaError_t e = EMU.last_error;
    EMU.last_error = cudaSuccess;
    return e;
}

cudaError_t cudaPeekAtLastError(void)
{
    return EMU.last_error;
}

const char *cudaGetErrorName(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    }
    return "cudaErrorUnknown";
}

const char *cudaGetErrorString(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorLaunchFailure: return "unspecified launch failure (in the kit's CPU emulation: see the message above)";
    }
    return "unknown error";
}

cudaError_t cudaGetDeviceCount(int *count)
{
    *count = 1; // the emulated device
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
    return device == 0 ? cudaSuccess : cudaErrorInvalidDevice;
}

struct kit_cpu_event {
    double seconds;
};

cudaError_t cudaEventCreate(cudaEvent_t *e)
{
    *e = new kit_cpu_event{0.0};
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t stream)
{
    (void)stream;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    e->seconds = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
    (void)e;
    return cudaSuccess;
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop)
{
    *ms = (float)((stop->seconds - start->seconds) * 1e3);
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    delete e;
    return cudaSuccess;
}
