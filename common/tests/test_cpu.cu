/* Tests of the CPU emulation (kit_cpu.h): indices, barriers, warp operations, atomics, the runtime, and tracing into the simulator. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bank_micro.cuh"
#include "kit_bank.h"
#include "kit_cpu_mem.h"
#include "kit_cuda.h"
#include "03-basic-merge/harness/merge_run.cuh"
#include "kit_test.h"
#include "kit_trace.h"

/* ---- indices ---------------------------------------------------------------- */

__global__ void write_indices(unsigned *out)
{
    unsigned block = blockIdx.x + gridDim.x * blockIdx.y;
    unsigned thread = threadIdx.x + blockDim.x * threadIdx.y;
    unsigned *o = out + 6 * (block * blockDim.x * blockDim.y + thread);
    o[0] = threadIdx.x;
    o[1] = threadIdx.y;
    o[2] = blockIdx.x;
    o[3] = blockIdx.y;
    o[4] = blockDim.x * 1000 + blockDim.y;
    o[5] = gridDim.x * 1000 + gridDim.y;
}

static void test_indices(void)
{
    const unsigned gx = 3, gy = 2, bx = 8, by = 4, n = gx * gy * bx * by;
    unsigned *out = (unsigned *)calloc(6 * n, sizeof *out);
    KIT_LAUNCH(write_indices, dim3(gx, gy), dim3(bx, by), 0, out);
    CUDA_CHECK_LAUNCH();
    int bad = -1;
    for (unsigned b = 0; b < gx * gy && bad < 0; b++)
        for (unsigned t = 0; t < bx * by && bad < 0; t++) {
            const unsigned *o = out + 6 * (b * bx * by + t);
            if (o[0] != t % bx || o[1] != t / bx || o[2] != b % gx || o[3] != b / gx || o[4] != bx * 1000 + by ||
                o[5] != gx * 1000 + gy)
                bad = (int)(b * bx * by + t);
        }
    KIT_ASSERT_MSG(bad < 0, "thread %d saw wrong indices", bad);
    free(out);
}

/* ---- barriers --------------------------------------------------------------- */

/* A tree sum in shared memory: right only if every thread waits at each __syncthreads. */
__global__ void block_sum(const int *in, int *out, int *poison)
{
    kit_shared<int> s = KIT_DYNAMIC_SHARED(int);
    unsigned t = threadIdx.x;
    if (t == 0)
        *poison = s[blockDim.x]; /* never written: still the emulator's 0xA5 filling */
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (t < half)
            s[t] += s[t + half];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

static void test_barrier_tree_sum(void)
{
    const int blocks = 5, threads = 256;
    int *in = (int *)malloc(blocks * threads * sizeof *in), out[5], poison = 0;
    for (int i = 0; i < blocks * threads; i++)
        in[i] = i % 7 - 3;
    KIT_LAUNCH(block_sum, blocks, threads, (threads + 1) * sizeof(int), in, out, &poison);
    CUDA_CHECK_LAUNCH();
    for (int b = 0; b < blocks; b++) {
        int want = 0;
        for (int t = 0; t < threads; t++)
            want += in[b * threads + t];
        KIT_ASSERT_MSG(out[b] == want, "block %d summed to %d, expected %d", b, out[b], want);
    }
    KIT_ASSERT_MSG((unsigned)poison == 0xA5A5A5A5u, "unwritten shared memory read 0x%x, expected 0xa5a5a5a5",
                   (unsigned)poison);
    free(in);
}

/* Each thread writes its index into the far end of `words` words of shared memory and reads it back into out. */
__global__ void far_shared(int words, int *out)
{
    kit_shared<int> s = KIT_DYNAMIC_SHARED(int);
    int slot = words - 1 - (int)threadIdx.x;
    s[slot] = (int)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[slot];
}

/* KIT_LAUNCH_SHARED: a launch with 64 KiB of dynamic shared memory, over the default 48 KiB, runs. */
static void test_launch_shared(void)
{
    const int words = 64 * 1024 / 4;
    int out[32];
    memset(out, 0xFF, sizeof out);
    KIT_LAUNCH_SHARED(far_shared, 1, 32, words * sizeof(int), words, out);
    cudaError_t e = cudaGetLastError();
    KIT_ASSERT_MSG(e == cudaSuccess, "the launch failed: %s", cudaGetErrorName(e));
    for (int t = 0; t < 32; t++)
        KIT_ASSERT_MSG(out[t] == t, "thread %d read back %d from the end of shared memory", t, out[t]);
}

/* Half the threads leave early; the rest still pass their barriers. */
__global__ void early_exit(int *out)
{
    if (threadIdx.x % 2)
        return;
    __syncthreads();
    out[threadIdx.x] = 1;
    __syncthreads();
}

static void test_barrier_after_exit(void)
{
    int out[64] = {0};
    KIT_LAUNCH(early_exit, 1, 64, 0, out);
    cudaError_t e = cudaGetLastError();
    KIT_ASSERT_MSG(e == cudaSuccess, "launch failed: %s", cudaGetErrorName(e));
    for (int t = 0; t < 64; t++)
        KIT_ASSERT_MSG(out[t] == (t % 2 == 0), "thread %d wrote %d", t, out[t]);
}

/* Thread 0 waits at __syncthreads while its warp waits at __syncwarp for it: no one can go on. */
__global__ void deadlock(int *out)
{
    if (threadIdx.x == 0)
        __syncthreads();
    else
        __syncwarp();
    out[threadIdx.x] = 1;
}

static void test_deadlock_reported(void)
{
    int out[32] = {0};
    char said[2048];
    kit_test_stderr_begin();
    KIT_LAUNCH(deadlock, 2, 32, 0, out);
    kit_test_stderr_end(said, sizeof said);
    cudaError_t e = cudaGetLastError();
    KIT_ASSERT_MSG(e == cudaErrorLaunchFailure, "a deadlocked kernel gave %s, expected cudaErrorLaunchFailure",
                   cudaGetErrorName(e));
    KIT_ASSERT_MSG(strstr(said, "deadlock in block (0,0,0): no thread can go on\n  thread (0,0,0) waits at __syncthreads"),
                   "the deadlock report on stderr: expected the block and thread 0's barrier, got \"%s\"", said);
    KIT_ASSERT_MSG(cudaGetLastError() == cudaSuccess, "the error was not cleared by cudaGetLastError");
}

/* ---- warp operations -------------------------------------------------------- */

__global__ void warp_ops(int *out)
{
    int lane = threadIdx.x % 32, v = lane + 1;
    int sum = v;
    for (int d = 16; d > 0; d /= 2)
        sum += __shfl_down_sync(0xffffffffu, sum, d);
    int total = __shfl_sync(0xffffffffu, sum, 0); /* lane 0 holds the sum after the shuffle-down */
    int scan = v;
    for (int d = 1; d < 32; d *= 2) {
        int up = __shfl_up_sync(0xffffffffu, scan, d);
        if (lane >= d)
            scan += up;
    }
    int x = __shfl_xor_sync(0xffffffffu, lane, 1);
    int half = __shfl_sync(0xffffffffu, lane, 3, 16); /* lane 3 of each half-warp */
    unsigned odd = __ballot_sync(0xffffffffu, lane % 2);
    int any = __any_sync(0xffffffffu, lane == 5), all = __all_sync(0xffffffffu, lane < 40);
    int *o = out + 8 * threadIdx.x;
    o[0] = total;
    o[1] = scan;
    o[2] = x;
    o[3] = half;
    o[4] = (int)odd;
    o[5] = any;
    o[6] = all;
    o[7] = __all_sync(0xffffffffu, lane < 31);
}

static void test_warp_operations(void)
{
    int out[64 * 8];
    KIT_LAUNCH(warp_ops, 1, 64, 0, out);
    CUDA_CHECK_LAUNCH();
    for (int t = 0; t < 64; t++) {
        int lane = t % 32, *o = out + 8 * t;
        KIT_ASSERT_MSG(o[0] == 528, "lane %d: shuffle-down sum %d, expected 528", lane, o[0]);
        KIT_ASSERT_MSG(o[1] == (lane + 1) * (lane + 2) / 2, "lane %d: shuffle-up scan %d, expected %d", lane, o[1],
                       (lane + 1) * (lane + 2) / 2);
        KIT_ASSERT_MSG(o[2] == (lane ^ 1), "lane %d: xor shuffle %d", lane, o[2]);
        KIT_ASSERT_MSG(o[3] == (lane / 16) * 16 + 3, "lane %d: width-16 shuffle %d", lane, o[3]);
        KIT_ASSERT_MSG((unsigned)o[4] == 0xaaaaaaaau, "lane %d: ballot 0x%x", lane, (unsigned)o[4]);
        KIT_ASSERT_MSG(o[5] == 1 && o[6] == 1 && o[7] == 0, "lane %d: any %d, all %d, all(lane<31) %d", lane, o[5],
                       o[6], o[7]);
    }
}

__global__ void count_up(int *counter)
{
    atomicAdd(counter, 1);
}

static void test_atomics(void)
{
    int counter = 0;
    KIT_LAUNCH(count_up, 7, 96, 0, &counter);
    CUDA_CHECK_LAUNCH();
    KIT_ASSERT_MSG(counter == 7 * 96, "atomicAdd counted %d, expected %d", counter, 7 * 96);
    /* Each atomic returns the old value and stores what CUDA's would. */
    int x = 5;
    KIT_ASSERT_MSG(atomicExch(&x, 9) == 5 && x == 9, "atomicExch: x = %d", x);
    KIT_ASSERT_MSG(atomicMin(&x, 3) == 9 && x == 3, "atomicMin to 3: x = %d", x);
    KIT_ASSERT_MSG(atomicMin(&x, 4) == 3 && x == 3, "atomicMin with 4: x = %d", x);
    KIT_ASSERT_MSG(atomicMax(&x, 8) == 3 && x == 8, "atomicMax to 8: x = %d", x);
    KIT_ASSERT_MSG(atomicMax(&x, 7) == 8 && x == 8, "atomicMax with 7: x = %d", x);
    KIT_ASSERT_MSG(atomicCAS(&x, 1, 2) == 8 && x == 8, "atomicCAS with the wrong old value: x = %d", x);
    KIT_ASSERT_MSG(atomicCAS(&x, 8, 2) == 8 && x == 2, "atomicCAS with the right old value: x = %d", x);
    KIT_ASSERT_MSG(atomicAdd(&x, 5) == 2 && x == 7, "atomicAdd of 5: x = %d", x);
}

/* ---- the runtime ------------------------------------------------------------ */

/* cudaMalloc refuses what memory cannot hold with cudaErrorMemoryAllocation and says so on stderr: the
   grader's memory-limit verdict reads that line (fixture exhaust-heap). */
static void test_malloc_refused(void)
{
    char path[] = "/tmp/kit-cpu-malloc-XXXXXX", said[256] = "";
    int fd = mkstemp(path), saved = dup(2);
    KIT_ASSERT_MSG(fd >= 0 && saved >= 0 && dup2(fd, 2) == 2, "cannot send stderr to %s", path);
    void *p = &said;
    cudaError_t e = cudaMalloc(&p, (size_t)1 << 62);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ssize_t got = pread(fd, said, sizeof said - 1, 0);
    said[got > 0 ? got : 0] = '\0';
    close(fd);
    unlink(path);
    KIT_ASSERT_MSG(e == cudaErrorMemoryAllocation && p == NULL && strstr(said, "out of memory allocating"),
                   "cudaMalloc of 2^62 bytes: %s, pointer %p, stderr '%s'", cudaGetErrorName(e), p, said);
}

static void test_runtime(void)
{
    int count = 0;
    CU_ASSERT(cudaGetDeviceCount(&count) == cudaSuccess && count == 1);
    int h[4] = {1, 2, 3, 4}, back[4] = {0};
    int *d = NULL;
    CU_ASSERT(cudaMalloc(&d, sizeof h) == cudaSuccess && d != NULL);
    CU_ASSERT(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice) == cudaSuccess);
    CU_ASSERT(cudaMemset(d, 0, sizeof(int)) == cudaSuccess);
    CU_ASSERT(cudaMemcpy(back, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
    KIT_ASSERT_MSG(back[0] == 0 && back[1] == 2 && back[3] == 4, "copied back %d %d %d %d", back[0], back[1],
                   back[2], back[3]);
    CU_ASSERT(cudaMemcpy(back, d, sizeof h, (cudaMemcpyKind)9) == cudaErrorInvalidMemcpyDirection);
    CU_ASSERT(cudaFree(d) == cudaSuccess);
    cudaEvent_t a, b;
    float ms = -1;
    CU_ASSERT(cudaEventCreate(&a) == cudaSuccess && cudaEventCreate(&b) == cudaSuccess);
    cudaEventRecord(a);
    cudaEventRecord(b);
    CU_ASSERT(cudaEventElapsedTime(&ms, a, b) == cudaSuccess && ms >= 0);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    CU_ASSERT_STRING_EQUAL(cudaGetErrorName(cudaErrorInvalidConfiguration), "cudaErrorInvalidConfiguration");
}

static void test_bad_configurations(void)
{
    int out[1];
    KIT_LAUNCH(count_up, 1, 2048, 0, out);
    KIT_ASSERT_MSG(cudaGetLastError() == cudaErrorInvalidConfiguration, "a 2048-thread block was accepted");
    KIT_LAUNCH(count_up, 0, 32, 0, out);
    KIT_ASSERT_MSG(cudaGetLastError() == cudaErrorInvalidConfiguration, "an empty grid was accepted");
    KIT_LAUNCH(count_up, 1, 32, 300 * 1024, out);
    KIT_ASSERT_MSG(cudaGetLastError() == cudaErrorInvalidConfiguration, "300 KiB of shared memory was accepted");
}

/* ---- tracing ---------------------------------------------------------------- */

/* Traces one launch of a micro-kernel and returns the simulator's profiler count for its loads (or stores). */
static uint64_t traced_conflicts(int kernel, int arg, const int *words, int stores)
{
    int out_i[32];
    long long out_l[32];
    kit_cpu_trace_start();
    switch (kernel) {
    case 0: KIT_LAUNCH(bank_micro_load_stride, 1, 32, BANK_MICRO_SMEM, arg, out_i); break;
    case 1: KIT_LAUNCH(bank_micro_store_stride, 1, 32, BANK_MICRO_SMEM, arg, out_i); break;
    case 2: KIT_LAUNCH(bank_micro_load_words, 1, 32, BANK_MICRO_SMEM, words, out_i); break;
    default: KIT_LAUNCH(bank_micro_load8_stride, 1, 32, BANK_MICRO_SMEM, arg, out_l); break;
    }
    CUDA_CHECK_LAUNCH();
    kit_access *acc;
    size_t n = kit_cpu_trace_stop(&acc);
    kit_bank_model model = {32, 4};
    kit_bank_report r;
    char err[160];
    int rc = kit_bank_simulate(&model, acc, n, &r, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0, "simulation failed: %s", err);
    uint64_t c = stores ? r.store.conflicts : r.load.conflicts;
    kit_bank_free(&r);
    free(acc);
    return c;
}

/* kit_bank_count_trace: a traced launch counted on the GPU's banks, and the accesses freed (valgrind-clean). */
static void test_count_trace(void)
{
    int out[32];
    kit_cpu_trace_start();
    KIT_LAUNCH(bank_micro_load_stride, 1, 32, BANK_MICRO_SMEM, 2, out);
    CUDA_CHECK_LAUNCH();
    kit_access *acc;
    size_t n = kit_cpu_trace_stop(&acc);
    kit_bank_report r;
    char err[160] = "";
    int rc = kit_bank_count_trace(acc, n, &r, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && n > 0, "rc %d (%s), %zu accesses", rc, err, n);
    if (rc != 0)
        return;
    KIT_ASSERT_MSG(r.load.conflicts == 1, "stride 2: %llu load conflicts, expected 1", (unsigned long long)r.load.conflicts);
    kit_bank_free(&r);
    KIT_ASSERT_MSG(kit_bank_count_trace(NULL, 0, &r, err, sizeof err) == 0 && r.load.conflicts == 0,
                   "an empty trace: %s", err);
    kit_bank_free(&r);
}

static void test_trace_strided(void)
{
    for (int s = 1; s <= 64; s++) {
        uint64_t c = traced_conflicts(0, s, NULL, 0);
        KIT_ASSERT_MSG(c == (unsigned long long)kit_gcd(s, 32) - 1, "stride %d: %llu load conflicts, expected %d", s,
                       (unsigned long long)c, kit_gcd(s, 32) - 1);
    }
    /* Stores: the fill is conflict-free, the strided store adds gcd(s,32) - 1, the read-back none. */
    for (int s = 1; s <= 33; s += 8) {
        uint64_t c = traced_conflicts(1, s, NULL, 1);
        KIT_ASSERT_MSG(c == (unsigned long long)kit_gcd(s, 32) - 1, "stride %d: %llu store conflicts, expected %d", s,
                       (unsigned long long)c, kit_gcd(s, 32) - 1);
    }
}

static void test_trace_words(void)
{
    int same[32], pairs[32];
    for (int t = 0; t < 32; t++) {
        same[t] = 7;                        /* a broadcast */
        pairs[t] = (t % 2) * 32 + (t / 2); /* two words in each of 16 banks... */
    }
    KIT_ASSERT_MSG(traced_conflicts(2, 0, same, 0) == 0, "a broadcast conflicted");
    /* ...no: words t/2 and 32 + t/2 lie in bank t/2, two distinct words per bank: cost 2, one conflict. */
    uint64_t c = traced_conflicts(2, 0, pairs, 0);
    KIT_ASSERT_MSG(c == 1, "two words in each of 16 banks gave %llu conflicts, expected 1", (unsigned long long)c);
}

static void test_trace_8byte(void)
{
    /* 8-byte loads: stride 1 fills each half-warp's 32 banks once (no conflict); stride 2 puts two words in a bank. */
    uint64_t c1 = traced_conflicts(3, 1, NULL, 0), c2 = traced_conflicts(3, 2, NULL, 0);
    KIT_ASSERT_MSG(c1 == 0, "8-byte stride 1 gave %llu conflicts, expected 0", (unsigned long long)c1);
    KIT_ASSERT_MSG(c2 == 2, "8-byte stride 2 gave %llu conflicts, expected 2 (one per half-warp)", (unsigned long long)c2);
}

/* Accesses to other memory are not recorded; a cast view is; ordinals count per thread. */
__global__ void record_rules(int *global)
{
    kit_shared<int> s = KIT_DYNAMIC_SHARED(int);
    s[threadIdx.x] = 1;                 /* ordinal 0, a store */
    int a = s[threadIdx.x];             /* ordinal 1, a load */
    global[threadIdx.x] = a;            /* not shared memory */
    kit_shared<short> h = kit_shared_cast<short>(s + 4);
    h[2 * threadIdx.x] += 1;            /* ordinals 2 (load) and 3 (store), 2 bytes at word t + 4 */
}

static void test_trace_rules(void)
{
    int global[8];
    kit_cpu_trace_start();
    KIT_LAUNCH(record_rules, 2, 8, 64 * sizeof(int), global);
    CUDA_CHECK_LAUNCH();
    kit_access *acc;
    size_t n = kit_cpu_trace_stop(&acc);
    KIT_ASSERT_MSG(n == 2 * 8 * 4, "recorded %zu accesses, expected 64", n);
    int bad = -1;
    for (size_t x = 0; x < n && bad < 0; x++) {
        const kit_access *a = &acc[x];
        unsigned word = a->ordinal >= 2 ? a->thread + 4 : a->thread;
        int write = a->ordinal == 0 || a->ordinal == 3;
        unsigned size = a->ordinal >= 2 ? 2 : 4;
        if (a->block > 1 || a->thread > 7 || a->ordinal > 3 || a->addr != 4 * word || a->size != size ||
            a->write != write)
            bad = (int)x;
    }
    KIT_ASSERT_MSG(bad < 0, "access %d recorded wrongly", bad);
    free(acc);
    KIT_ASSERT_MSG(kit_cpu_trace_stop(&acc) == 0 && acc == NULL, "a stopped trace still held accesses");
}

/* A device function with one read, called from two places: two copies, two sites. */
__device__ int read_twice_helper(kit_shared<int> s, int i)
{
    return s[i];
}

/*
 * Sites, syncs and visits. Each thread reads site "loop" threadIdx.x times (a data-dependent loop),
 * then the helper twice, then, after a barrier, stores once after a branch that picks its value
 * (one site, whatever g++'s jump threading would do to the two paths), then reads one kit_kv32's key.
 */
__global__ void record_sites(int *global)
{
    kit_shared<int> s = KIT_DYNAMIC_SHARED(int);
    int sum = 0;
    for (unsigned k = 0; k < threadIdx.x; k++)
        sum += s[k];                                                          /* site 1, visits 0 .. t-1 */
    sum += read_twice_helper(s, 1) + read_twice_helper(s, 2);                 /* sites 2 and 3 */
    __syncthreads();
    bool odd = threadIdx.x % 2 != 0;
    int v = odd ? sum : -sum;
    s[8 + threadIdx.x] = v;                                                   /* one site, sync 1 */
    if (odd)
        global[threadIdx.x] = v;
    global[threadIdx.x] += kit_key(kit_shared_cast<kit_kv32>(s + 16), threadIdx.x); /* a 4-byte read */
}

static void test_trace_sites(void)
{
    int global[8] = {0};
    kit_cpu_trace_start();
    KIT_LAUNCH(record_sites, 1, 8, 64 * sizeof(int), global);
    CUDA_CHECK_LAUNCH();
    kit_access *acc;
    size_t n = kit_cpu_trace_stop(&acc);
    /* Thread t: t loop reads, 2 helper reads, 1 store, 1 key read; 28 + 8 * 4 in all. */
    KIT_ASSERT_MSG(n == 28 + 8 * 4, "recorded %zu accesses, expected 60", n);
    uint32_t loop_site = 0, store_site = 0, key_site = 0, helper[2] = {0, 0};
    int bad = -1;
    for (size_t x = 0; x < n && bad < 0; x++) {
        const kit_access *a = &acc[x];
        uint32_t t = a->thread, o = a->ordinal;
        uint32_t *want = o < t ? &loop_site : o < t + 2 ? &helper[o - t] : o == t + 2 ? &store_site : &key_site;
        if (*want == 0)
            *want = a->site; /* every thread must agree with the first one to reach the access */
        uint32_t visit = o < t ? o : 0, sync = o < t + 2 ? 0 : 1;
        if (a->site != *want || a->visit != visit || a->sync != sync || a->size != 4 || a->write != (o == t + 2))
            bad = (int)x;
    }
    KIT_ASSERT_MSG(bad < 0, "access %d: site, visit, sync or kind recorded wrongly", bad);
    KIT_ASSERT_MSG(helper[0] != helper[1] && helper[0] != loop_site && store_site != key_site && loop_site != 0,
                   "a function called twice must have two sites (got %u and %u), and other accesses others",
                   helper[0], helper[1]);
    for (size_t x = 0; x < n; x++)
        if (acc[x].site == key_site)
            KIT_ASSERT_MSG(acc[x].size == 4 && acc[x].addr == 16 * 4 + 8 * acc[x].thread,
                           "kit_key of a kit_kv32 reads its 4-byte key, got %u bytes at %u", acc[x].size, acc[x].addr);
    free(acc);
}

/* ---- the merge harness's canaries (kit_merge_run_guarded) ---------------------------- */

/* Writes C[t] = 10 * t; with mode bit 1 also C[-1], with bit 2 also C[m + n]: out-of-bounds writes. */
__global__ void scribble(int total, int *C, int mode)
{
    int t = (int)threadIdx.x;
    if (t < total)
        C[t] = 10 * t;
    if (t == 0 && (mode & 1))
        C[-1] = 7;
    if (t == 0 && (mode & 2))
        C[total] = 7;
}

/* The launcher of a pretend lab: the tile carries the mode. */
static void launch_scribble(kit_type t, const void *d_A, int m, const void *d_B, int n, void *d_C, kit_merge_cfg cfg)
{
    (void)t, (void)d_A, (void)d_B;
    KIT_LAUNCH(scribble, 1, 64, 0, m + n, (int *)d_C, cfg.tile);
}

static const kit_merge_lab SCRIBBLE = {"00-test:scribble", "writes C and, on request, past its ends", launch_scribble,
                                       NULL, NULL, 0, NULL};

/* Index of the first byte of p[0..bytes) that is not `value`, or -1. */
static long first_other(const unsigned char *p, size_t bytes, unsigned char value)
{
    for (size_t b = 0; b < bytes; b++)
        if (p[b] != value)
            return (long)b;
    return -1;
}

/*
 * The canaries come back around C. On a GPU they are device memory around C, which a write past
 * either end changes (modes 1 to 3); in the CPU build C is a device array of its own, whose checked
 * memory stops such a write with its index (test_checked_merge_output), so only mode 0 runs here,
 * and the canaries come back as they went.
 */
static void test_merge_canaries(void)
{
    enum { M = 3, N = 2, G = KIT_GUARD_ELEMS };
    int A[M] = {1, 2, 3}, B[N] = {4, 5}, C[M + N + 2 * G];
    char msg[200];
    {
        int mode = 0;
        memset(C, 0, sizeof C);
        kit_merge_cfg cfg = {1, 64, mode};
        int rc = kit_merge_run_guarded(&SCRIBBLE, KIT_TYPE_I32, A, M, B, N, C, G, cfg, msg, sizeof msg);
        KIT_ASSERT_MSG(rc == 0, "mode %d: the run failed (%d): %s", mode, rc, msg);
        const unsigned char *before = (const unsigned char *)C, *after = (const unsigned char *)(C + G + M + N);
        long b = first_other(before, G * sizeof(int), KIT_GUARD_BYTE), a = first_other(after, G * sizeof(int), KIT_GUARD_BYTE);
        /* the canary nearest to C is the one that changes: the last one before it, the first one after it */
        KIT_ASSERT_MSG((mode & 1) ? b == (long)((G - 1) * sizeof(int)) : b == -1, "mode %d: the guard before C changed at byte %ld",
                       mode, b);
        KIT_ASSERT_MSG((mode & 2) ? a == 0 : a == -1, "mode %d: the guard after C changed at byte %ld", mode, a);
        for (int x = 0; x < M + N; x++)
            KIT_ASSERT_MSG(C[G + x] == 10 * x, "mode %d: C[%d] is %d, expected %d", mode, x, C[G + x], 10 * x);
    }
    /* without canaries, the same run through kit_merge_run */
    kit_merge_cfg cfg = {1, 64, 0};
    KIT_ASSERT_MSG(kit_merge_run(&SCRIBBLE, KIT_TYPE_I32, A, M, B, N, C, cfg, msg, sizeof msg) == 0 && C[4] == 40 &&
                       A[0] == 1 && B[1] == 5,
                   "kit_merge_run: %s, C[4] = %d", msg, C[4]);
}

/* ---- global-memory hooks (kit_cpu.cc): what code built with -fsanitize=thread calls --------------- */

extern "C" void __tsan_read4(void *p);
extern "C" void __tsan_write8(void *p);

/* Calls the hooks as instrumented code would: every thread reads an int of `in` and one of its own
   stack, the first 16 store an int64 of `out`. */
__global__ void global_hooks_kernel(int *in, int64_t *out)
{
    int local = 0;
    __tsan_read4(in + threadIdx.x);
    __tsan_read4(&local);
    if (threadIdx.x < 16)
        __tsan_write8(out + threadIdx.x);
}

#define GLOBAL_HOOKS_CHILD "--global-hooks-child"

/* The child's part: one launch, whose records go to the grader's stream on KIT_TRACE_FD. */
static int global_hooks_child(void)
{
    int *in;
    int64_t *out;
    if (cudaMalloc(&in, 32 * sizeof *in) != cudaSuccess || cudaMalloc(&out, 16 * sizeof *out) != cudaSuccess)
        return 2;
    KIT_LAUNCH(global_hooks_kernel, 1, 32, 0, in, out);
    return cudaGetLastError() == cudaSuccess ? 0 : 3;
}

/*
 * The hooks record the measured kernel's loads and stores of device memory as KIT_TRACE_GLOBAL records
 * (sited by the calling instruction), and pass by the thread's own stack: this program again, as a runner whose
 * stream the test reads, since a process looks at KIT_TRACE_FD once.
 */
static void test_global_hooks(void)
{
    int fds[2];
    KIT_ASSERT_MSG(pipe(fds) == 0, "pipe failed");
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        if (dup2(fds[1], KIT_TRACE_FD) < 0 || setenv("KIT_TRACE_KERNEL", "global_hooks_kernel", 1) != 0)
            _exit(4);
        execl("/proc/self/exe", "test_cpu", GLOBAL_HOOKS_CHILD, (char *)NULL);
        _exit(5);
    }
    close(fds[1]);
    char *bytes = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&bytes, &len);
    char buf[4096];
    for (ssize_t r; mem && (r = read(fds[0], buf, sizeof buf)) > 0;)
        fwrite(buf, 1, (size_t)r, mem);
    close(fds[0]);
    int status = -1;
    waitpid(pid, &status, 0);
    KIT_ASSERT_MSG(mem && fclose(mem) == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
                   "the child launch failed: status 0x%x", status);
    FILE *f = fmemopen(bytes, len ? len : 1, "rb");
    kit_trace_run *runs = NULL;
    size_t nruns = 0, launches = 0, loads = 0, stores = 0;
    char err[160] = "";
    int rc = f ? kit_trace_stream_read(f, "global_hooks_kernel", &runs, &nruns, &launches, err, sizeof err) : -1;
    for (size_t x = 0; rc == 0 && nruns == 1 && x < runs[0].nglobal; x++) {
        const kit_access *a = &runs[0].global[x];
        loads += !a->write && a->size == 4 && a->site == 1;
        stores += a->write && a->size == 8 && a->site == 2 && a->thread < 16;
    }
    KIT_ASSERT_MSG(rc == 0 && nruns == 1 && runs[0].n == 0 && runs[0].nglobal == 48 && loads == 32 && stores == 16,
                   "expected 32 loads (site 1) and 16 stores (site 2) of device memory, none of the stack's: rc %d (%s), "
                   "%zu runs, %zu global records, %zu loads, %zu stores",
                   rc, err, nruns, rc == 0 && nruns ? runs[0].nglobal : 0, loads, stores);
    if (rc == 0)
        kit_trace_runs_free(runs, nruns);
    if (f)
        fclose(f);
    free(bytes);
}


/* ---- the checked memory (kit_cpu_mem.h) ----------------------------------------------------------- */
/* This program is not built with the checks' instrumentation: its kernels call the hooks as
   instrumented code would, and the refusals end a child process, whose stderr the tests read. */

extern "C" void __tsan_write4(void *p);
extern "C" void __ubsan_handle_out_of_bounds(void *data, void *index);

static void test_checked_values(void)
{
    /* Values, not objects: nothing a kernel may name holds the address of the emulator's state. */
    KIT_ASSERT_MSG(!std::is_lvalue_reference<decltype((threadIdx))>::value &&
                       !std::is_lvalue_reference<decltype((blockIdx))>::value &&
                       !std::is_lvalue_reference<decltype((blockDim))>::value &&
                       !std::is_lvalue_reference<decltype((gridDim))>::value,
                   "threadIdx, blockIdx, blockDim and gridDim must be values");
}

/* Runs fn in a child and checks that it ended with KIT_EXIT_FAULT and a first stderr line holding want. */
static void expect_refusal(void (*fn)(void), const char *want, const char *what)
{
    char *out = NULL;
    int status = kit_test_run_child(fn, 0, &out);
    KIT_ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == KIT_EXIT_FAULT && out && strstr(out, want),
                   "%s: expected exit %d and \"%s\", got status 0x%x and \"%s\"", what, KIT_EXIT_FAULT, want, status,
                   out ? out : "");
    free(out);
}

__global__ void touch_kernel(int *p, int thread, int block, int write)
{
    if ((int)threadIdx.x == thread && (int)blockIdx.x == block) {
        if (write)
            __tsan_write4(p);
        else
            __tsan_read4(p);
    }
}

static int *named_array(int n)
{
    int *A;
    CUDA_CHECK(cudaMalloc(&A, (size_t)n * sizeof(int)));
    kit_cpu_name_array(A, "A", sizeof(int), "keys");
    return A;
}

static void past_end_child(void)
{
    int *A = named_array(1000);
    KIT_LAUNCH(touch_kernel, 3, 64, 0, A + 999, 37, 2, 0); /* the last key: allowed */
    KIT_LAUNCH(touch_kernel, 3, 64, 0, A + 1000, 37, 2, 0);
}

static void before_start_child(void)
{
    int *A = named_array(10);
    KIT_LAUNCH(touch_kernel, 1, 32, 0, A - 1, 3, 0, 1);
}

static void test_checked_array(void)
{
    expect_refusal(past_end_child, "out-of-bounds global load A[1000] (A holds 1000 keys) by thread 37 of block 2 in touch_kernel",
                   "one past the end");
    expect_refusal(before_start_child, "out-of-bounds global store A[-1] (A holds 10 keys) by thread 3 of block 0",
                   "one before the start");
}

/* Thread 0 hands its local's address to thread 1 through device memory; thread 1 reads it. */
__global__ void lend_locals_kernel(int **slot)
{
    int mine = 7;
    if (threadIdx.x == 0)
        slot[0] = &mine;
    __syncthreads();
    if (threadIdx.x == 1)
        __tsan_read4(slot[0]);
    __syncthreads();
}

static void lend_locals_child(void)
{
    int **slot;
    CUDA_CHECK(cudaMalloc(&slot, sizeof *slot));
    KIT_LAUNCH(lend_locals_kernel, 1, 32, 0, slot);
}

static int host_int;

static void host_memory_child(void)
{
    KIT_LAUNCH(touch_kernel, 1, 32, 0, &host_int, 0, 0, 0);
}

static void null_child(void)
{
    KIT_LAUNCH(touch_kernel, 1, 32, 0, (int *)NULL, 5, 0, 1);
}

static void test_checked_refused(void)
{
    expect_refusal(lend_locals_child, "illegal global load of 4 bytes in the local variables of thread 0 by thread 1 of block 0",
                   "another thread's locals");
    expect_refusal(host_memory_child, "illegal global load of 4 bytes at address", "the harness's memory");
    expect_refusal(null_child, "(a null pointer) by thread 5 of block 0", "a null pointer");
}

static void host_call_child(void)
{
    int *C = (int *)kit_host_array(NULL, 9 * sizeof(int), "C", sizeof(int), "keys");
    kit_host_call([=]() { __tsan_write4(C + 9); });
}

static void test_checked_host_call(void)
{
    int *C = (int *)kit_host_array(NULL, 9 * sizeof(int), "C", sizeof(int), "keys");
    int got = kit_host_call([=]() {
        int local[3] = {1, 2, 3};
        __tsan_write4(local + 1); /* its own stack */
        __tsan_write4(C + 8);     /* its array */
        C[8] = local[1] + 40;
        return C[8];
    });
    KIT_ASSERT_MSG(got == 42 && C[8] == 42, "the host call returned %d and left C[8] = %d, expected 42 and 42", got, C[8]);
    kit_host_array_free(C);
    expect_refusal(host_call_child, "out-of-bounds store C[9] (C holds 9 keys) on the host", "past C on the host");
}

/* What GCC's bounds sanitizer hands its handler for `int a[4]; a[7]` at example.cuh:12. */
struct bounds_type {
    uint16_t kind, info;
    char name[16];
};
static const bounds_type ARRAY_TYPE = {0xffff, 0, "int [4]"}, INDEX_TYPE = {0, (5 << 1) | 1, "int"};
static const struct {
    const char *file;
    uint32_t line, column;
    const bounds_type *array_type, *index_type;
} BOUNDS_DATA = {"/scratch/example.cuh", 12, 5, &ARRAY_TYPE, &INDEX_TYPE};

__global__ void bounds_kernel(void)
{
    if (threadIdx.x == 4)
        __ubsan_handle_out_of_bounds((void *)&BOUNDS_DATA, (void *)(uintptr_t)7);
}

static void bounds_child(void)
{
    KIT_LAUNCH(bounds_kernel, 1, 32, 0);
}

static void test_checked_bounds(void)
{
    expect_refusal(bounds_child, "out-of-bounds index 7 into an array 'int [4]' at example.cuh:12 by thread 4 of block 0",
                   "a local array's index");
}

/* Block 0 leaves 42 in a __shared__ variable; every later block must find the emulator's fresh pattern. */
__global__ void carry_kernel(int *seen)
{
    __shared__ int carry;
    if (threadIdx.x == 0) {
        seen[blockIdx.x] = carry;
        carry = 42;
    }
}

static void test_checked_shared_per_block(void)
{
    int *seen;
    CUDA_CHECK(cudaMalloc(&seen, 3 * sizeof(int)));
    KIT_LAUNCH(carry_kernel, 3, 32, 0, seen);
    CUDA_CHECK_LAUNCH();
    for (int b = 0; b < 3; b++)
        KIT_ASSERT_MSG(seen[b] == (int)0xA5A5A5A5, "block %d found %#x in the __shared__ variable, expected 0xa5a5a5a5",
                       b, (unsigned)seen[b]);
    cudaFree(seen);
}

#define PRINT_PLACE_CHILD "--print-place-child"

/* A fresh process (a fork would inherit the parent's placement) prints where its first array lies. */
static void print_place_child(void)
{
    execl("/proc/self/exe", "test_cpu", PRINT_PLACE_CHILD, (char *)NULL);
    _exit(5);
}

static int print_place(void)
{
    int *A;
    CUDA_CHECK(cudaMalloc(&A, 64));
    fprintf(stderr, "%p\n", (void *)A);
    return 0;
}

static void test_checked_random_place(void)
{
    char *first = NULL, *second = NULL;
    kit_test_run_child(print_place_child, 0, &first);
    kit_test_run_child(print_place_child, 0, &second);
    KIT_ASSERT_MSG(first && second && strcmp(first, second) != 0, "two runs put their first array at %s and %s",
                   first ? first : "?", second ? second : "?");
    free(first);
    free(second);
}

/* Stores C[m + n], one past the end, in thread 1 of block 0. */
__global__ void one_past_kernel(int total, int *C)
{
    if (threadIdx.x == 1)
        __tsan_write4(C + total);
}

static void launch_one_past(kit_type t, const void *d_A, int m, const void *d_B, int n, void *d_C, kit_merge_cfg cfg)
{
    (void)t, (void)d_A, (void)d_B, (void)cfg;
    KIT_LAUNCH(one_past_kernel, 1, 64, 0, m + n, (int *)d_C);
}

static const kit_merge_lab ONE_PAST = {"00-test:one-past", "stores one past C", launch_one_past, NULL, NULL, 0, NULL};

static void merge_output_child(void)
{
    int A[3] = {1, 2, 3}, B[2] = {4, 5}, C[5 + 2 * KIT_GUARD_ELEMS];
    char msg[200];
    kit_merge_cfg cfg = {1, 64, 0};
    kit_merge_run_guarded(&ONE_PAST, KIT_TYPE_I32, A, 3, B, 2, C, KIT_GUARD_ELEMS, cfg, msg, sizeof msg);
}

static void test_checked_merge_output(void)
{
    expect_refusal(merge_output_child, "out-of-bounds global store C[5] (C holds 5 keys) by thread 1 of block 0",
                   "the merge harness's C");
}

static void register_tests(void)
{
    CU_pSuite run = kit_test_suite("CPU emulation: running kernels");
    kit_test_add(run, "thread and block indices", test_indices);
    kit_test_add(run, "cudaMalloc refuses 2^62 bytes and says so", test_malloc_refused);
    kit_test_add(run, "__syncthreads in a tree sum; shared memory starts as 0xA5", test_barrier_tree_sum);
    kit_test_add(run, "barriers after some threads exit", test_barrier_after_exit);
    kit_test_add(run, "a deadlock is reported, not hung", test_deadlock_reported);
    kit_test_add(run, "shuffles, ballots, any, all", test_warp_operations);
    kit_test_add(run, "KIT_LAUNCH_SHARED: 64 KiB of dynamic shared memory", test_launch_shared);
    kit_test_add(run, "atomics", test_atomics);
    kit_test_add(run, "runtime calls", test_runtime);
    kit_test_add(run, "invalid configurations", test_bad_configurations);
    CU_pSuite trace = kit_test_suite("CPU emulation: tracing into the simulator");
    kit_test_add(trace, "kit_bank_count_trace: a traced launch counted on the GPU's banks", test_count_trace);
    kit_test_add(trace, "strided loads and stores: gcd(s, 32) - 1 conflicts", test_trace_strided);
    kit_test_add(trace, "broadcast and two words per bank", test_trace_words);
    kit_test_add(trace, "8-byte loads in half-warp phases", test_trace_8byte);
    kit_test_add(trace, "what is recorded, with which ordinal", test_trace_rules);
    kit_test_add(trace, "sites, syncs and visits", test_trace_sites);
    kit_test_add(trace, "global-memory hooks: device loads and stores into the stream", test_global_hooks);
    CU_pSuite harness = kit_test_suite("merge harness");
    kit_test_add(harness, "the canaries around C come back untouched", test_merge_canaries);
    CU_pSuite checked = kit_test_suite("checked memory");
    kit_test_add(checked, "threadIdx and its siblings are values", test_checked_values);
    kit_test_add(checked, "a load or store past a device array names the array, the index, the thread and the block",
                 test_checked_array);
    kit_test_add(checked, "another thread's locals, host memory and a null pointer are refused", test_checked_refused);
    kit_test_add(checked, "a checked host call: its arrays, its own stack, its result", test_checked_host_call);
    kit_test_add(checked, "an index out of a local array's bounds (the bounds sanitizer)", test_checked_bounds);
    kit_test_add(checked, "a __shared__ variable starts afresh in every block", test_checked_shared_per_block);
    kit_test_add(checked, "device arrays lie at another address in every run", test_checked_random_place);
    kit_test_add(checked, "a write past C through the merge harness names C and the index", test_checked_merge_output);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], GLOBAL_HOOKS_CHILD) == 0)
        return global_hooks_child();
    if (argc == 2 && strcmp(argv[1], PRINT_PLACE_CHILD) == 0)
        return print_place();
    /* test_cpu_ucontext links this same object with the emulator's ucontext thread switch: its
       summary line says so, so that make test's summary names the two runs apart */
    int ucontext = strstr(argv[0], "ucontext") != NULL;
    return kit_test_main(ucontext ? "cpu emulation tests (ucontext switch)" : "cpu emulation tests", register_tests);
}
