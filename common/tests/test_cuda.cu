/* Unit tests of kit_cuda.h: the GPU probe, KIT_SYNC_LAUNCHES, CUDA_CHECK's exit path, and (with a GPU) the rest;
   and of kit_type_dispatch (kit_types.h), which both compilers must build. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kit_cuda.h"
#include "kit_device.h"
#include "kit_runner_pairs.h"
#include "kit_test.h"

/* ---- GPU probe and KIT_SYNC_LAUNCHES (no GPU needed) ----------------------------- */

static void test_gpu_count(void)
{
    char why[160];
    strcpy(why, "junk");
    int count = kit_gpu_count(why, sizeof why);
    KIT_ASSERT_MSG(count >= 0, "kit_gpu_count: expected >= 0, got %d", count);
    if (count == 0 && access(KIT_NVIDIA_DRIVER, F_OK) != 0) {
        KIT_ASSERT_MSG(strncmp(why, "no GPU found", 12) == 0,
                       "no NVIDIA driver: the reason should start with \"no GPU found\", got \"%s\"", why);
    } else if (count == 0) {
        KIT_ASSERT_MSG(strncmp(why, "no usable GPU: ", 15) == 0 && strlen(why) > 15,
                       "a driver but no GPU: the reason should be \"no usable GPU: <why>\", got \"%s\"", why);
    } else {
        cudaError_t err = cudaSetDevice(count - 1);
        KIT_ASSERT_MSG(err == cudaSuccess, "%d GPUs reported, but device %d cannot be selected: %s", count, count - 1,
                       cudaGetErrorName(err));
    }
    char why2[160];
    int again = kit_gpu_count(why2, sizeof why2);
    KIT_ASSERT_MSG(again == count, "a second kit_gpu_count: expected %d, got %d", count, again);
}

/* The skip reason: "no GPU found" without a driver (not the runtime's cudaErrorInsufficientDriver). */
static void test_gpu_none_reason(void)
{
    static const struct {
        const char *driver, *err_name, *expected;
    } cases[] = {
        {"/no/such/driver", "cudaErrorInsufficientDriver", "no GPU found (no NVIDIA driver is loaded)"},
        {"/no/such/driver", NULL, "no GPU found (no NVIDIA driver is loaded)"},
        {"/", "cudaErrorInsufficientDriver", "no usable GPU: too old (cudaErrorInsufficientDriver)"},
        {"/", NULL, "no usable GPU: the CUDA runtime reports 0 devices"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char why[160];
        kit_gpu_none_reason(cases[i].driver, cases[i].err_name, "too old", why, sizeof why);
        KIT_ASSERT_MSG(strcmp(why, cases[i].expected) == 0, "kit_gpu_none_reason(%s, %s): expected \"%s\", got \"%s\"",
                       cases[i].driver, cases[i].err_name ? cases[i].err_name : "NULL", cases[i].expected, why);
    }
}

static void test_sync_launches(void)
{
    const char *old = getenv("KIT_SYNC_LAUNCHES");
    char *saved = old ? strdup(old) : NULL;
    static const struct {
        const char *value; /* NULL: unset */
        int want;
    } cases[] = {{NULL, 0}, {"0", 0}, {"1", 1}, {"yes", 1}, {"", 1}, {"00", 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].value)
            setenv("KIT_SYNC_LAUNCHES", cases[i].value, 1);
        else
            unsetenv("KIT_SYNC_LAUNCHES");
        int got = kit_sync_launches() != 0;
        KIT_ASSERT_MSG(got == cases[i].want, "KIT_SYNC_LAUNCHES %s%s%s: expected %d, got %d",
                       cases[i].value ? "=\"" : "unset", cases[i].value ? cases[i].value : "",
                       cases[i].value ? "\"" : "", cases[i].want, got);
    }
    if (saved)
        setenv("KIT_SYNC_LAUNCHES", saved, 1);
    else
        unsetenv("KIT_SYNC_LAUNCHES");
    free(saved);
}

/* ---- CUDA_CHECK ----------------------------------------------------------------- */

/*
 * The check under test. The call is a plain variable, so its text ("injected")
 * does not contain the error's name: that can only come from cudaGetErrorName.
 * *line gets the line CUDA_CHECK reports.
 */
static void check_injected(cudaError_t injected, int *line)
{
    *line = __LINE__; CUDA_CHECK(injected);
}

static void child_fails_check(void)
{
    int line;
    check_injected(cudaErrorInvalidValue, &line);
    _exit(0); /* reached only if CUDA_CHECK let the error through */
}

static void child_passes_check(void)
{
    int line;
    check_injected(cudaSuccess, &line);
    _exit(0); /* CUDA_CHECK returned, as it should */
}

static void test_check_success(void)
{
    char *err = NULL;
    int status = kit_test_run_child(child_passes_check, 0, &err);
    KIT_ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0 && err[0] == '\0',
                   "CUDA_CHECK(cudaSuccess): expected to return quietly, got wait status 0x%x; stderr:\n%s", status,
                   err);
    free(err);
}

static void test_check_failure(void)
{
    int line = 0;
    check_injected(cudaSuccess, &line);
    char *err = NULL;
    int status = kit_test_run_child(child_fails_check, 0, &err);
    KIT_ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 1,
                   "CUDA_CHECK on cudaErrorInvalidValue: expected exit status 1, got wait status 0x%x; stderr:\n%s",
                   status, err);
    KIT_ASSERT_MSG(strstr(err, "(cudaErrorInvalidValue)") != NULL,
                   "stderr should name the error \"(cudaErrorInvalidValue)\", got:\n%s", err);
    KIT_ASSERT_MSG(strstr(err, cudaGetErrorString(cudaErrorInvalidValue)) != NULL,
                   "stderr should describe the error (\"%s\"), got:\n%s", cudaGetErrorString(cudaErrorInvalidValue),
                   err);
    KIT_ASSERT_MSG(strstr(err, "injected") != NULL, "stderr should show the failing call \"injected\", got:\n%s", err);
    char where[64];
    snprintf(where, sizeof where, "test_cuda.cu:%d", line);
    KIT_ASSERT_MSG(strstr(err, where) != NULL, "stderr should give the file and line \"%s\", got:\n%s", where, err);
    free(err);
}

/* ---- on the GPU ------------------------------------------------------------------ */

/* out[i] = 3 * i + 1 for i < n. Launch shape: any 1-D grid covering n threads; no shared memory. */
__global__ void fill_kernel(int32_t *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 3 * i + 1;
}

/* Launches fill_kernel on n elements and checks the copy back; returns the first wrong index, or -1. */
static long long fill_and_check(int n, float *ms)
{
    int32_t *d_out, *h_out = (int32_t *)malloc((size_t)n * sizeof *h_out);
    CUDA_CHECK(cudaMalloc(&d_out, (size_t)n * sizeof *d_out));
    CUDA_CHECK(cudaMemset(d_out, 0xA5, (size_t)n * sizeof *d_out));
    kit_gpu_timer timer;
    kit_gpu_timer_start(&timer);
    KIT_LAUNCH(fill_kernel, (n + 255) / 256, 256, 0, d_out, n);
    CUDA_CHECK_LAUNCH();
    *ms = kit_gpu_timer_stop_ms(&timer);
    CUDA_CHECK(cudaMemcpy(h_out, d_out, (size_t)n * sizeof *h_out, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_out));
    long long bad = -1;
    for (int i = 0; i < n && bad < 0; i++)
        if (h_out[i] != 3 * i + 1)
            bad = i;
    free(h_out);
    return bad;
}

static void test_gpu_kernel_and_timer(void)
{
    float ms = -1.0f;
    long long bad = fill_and_check(100000, &ms);
    KIT_ASSERT_MSG(bad < 0, "fill_kernel: index %lld: expected %lld", bad, 3 * bad + 1);
    KIT_ASSERT_MSG(ms >= 0.0f && ms < 10000.0f, "kit_gpu_timer: expected 0 .. 10000 ms, got %f", ms);
}

/* With KIT_SYNC_LAUNCHES set, CUDA_CHECK_LAUNCH also synchronizes; the result must be the same. */
static void test_gpu_sync_launches(void)
{
    const char *old = getenv("KIT_SYNC_LAUNCHES");
    char *saved = old ? strdup(old) : NULL;
    setenv("KIT_SYNC_LAUNCHES", "1", 1);
    float ms = -1.0f;
    long long bad = fill_and_check(1000, &ms);
    if (saved)
        setenv("KIT_SYNC_LAUNCHES", saved, 1);
    else
        unsetenv("KIT_SYNC_LAUNCHES");
    free(saved);
    KIT_ASSERT_MSG(bad < 0, "fill_kernel with KIT_SYNC_LAUNCHES=1: index %lld: expected %lld", bad, 3 * bad + 1);
    KIT_ASSERT_MSG(ms >= 0.0f, "kit_gpu_timer with KIT_SYNC_LAUNCHES=1: expected >= 0 ms, got %f", ms);
}

static void test_gpu_device_copy(void)
{
    int64_t h_src[257], h_back[257];
    for (int i = 0; i < 257; i++)
        h_src[i] = ((int64_t)i << 33) - 5 * i;
    memset(h_back, 0, sizeof h_back);
    int64_t *d_copy = (int64_t *)kit_device_copy(h_src, sizeof h_src);
    KIT_ASSERT_MSG(d_copy != NULL, "kit_device_copy returned NULL");
    CUDA_CHECK(cudaMemcpy(h_back, d_copy, sizeof h_back, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_copy));
    int bad = -1;
    for (int i = 0; i < 257 && bad < 0; i++)
        if (h_back[i] != h_src[i])
            bad = i;
    KIT_ASSERT_MSG(bad < 0, "kit_device_copy: index %d: expected %lld, got %lld", bad,
                   bad < 0 ? 0LL : (long long)h_src[bad], bad < 0 ? 0LL : (long long)h_back[bad]);

    /* Zero bytes from NULL: still a pointer cudaFree accepts. */
    void *d_empty = kit_device_copy(NULL, 0);
    KIT_ASSERT_MSG(d_empty != NULL, "kit_device_copy(NULL, 0) returned NULL");
    cudaError_t err = cudaFree(d_empty);
    KIT_ASSERT_MSG(err == cudaSuccess, "cudaFree of kit_device_copy(NULL, 0): expected cudaSuccess, got %s",
                   cudaGetErrorName(err));
}

/* kit_launch_status: success after a good launch; a refused launch's error, once, and then a clean slate. */
static void test_gpu_launch_status(void)
{
    int32_t *d_out;
    CUDA_CHECK(cudaMalloc(&d_out, 256 * sizeof *d_out));
    KIT_LAUNCH(fill_kernel, 1, 256, 0, d_out, 256);
    cudaError_t good = kit_launch_status();
    KIT_LAUNCH(fill_kernel, 1, 4096, 0, d_out, 256); /* more threads than a block may have */
    cudaError_t bad = kit_launch_status(), after = cudaGetLastError();
    CUDA_CHECK(cudaFree(d_out));
    KIT_ASSERT_MSG(good == cudaSuccess, "a good launch: %s, expected cudaSuccess", cudaGetErrorName(good));
    KIT_ASSERT_MSG(bad != cudaSuccess, "4096 threads a block: cudaSuccess, expected the launch's error (CUDA 13 on an H200 "
                   "says cudaErrorInvalidValue)");
    KIT_ASSERT_MSG(after == cudaSuccess, "the error stayed after kit_launch_status: %s", cudaGetErrorName(after));
}

/* Spins about `cycles` clock cycles, then writes out[i] = 7 * i + 2 for i < n. It lets the next
   kernel start its blocks at once, so only that kernel's KIT_WAIT_PRIOR_GRID can hold it back. */
__global__ void slow_fill_kernel(int32_t *out, int n, long long cycles)
{
    KIT_WAIT_PRIOR_GRID();
    KIT_START_NEXT_GRID();
#ifdef __CUDA_ARCH__ /* the CPU build compiles this file too, and skips the GPU's tests */
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
#else
    (void)cycles;
#endif
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 7 * i + 2;
}

/* out[i] = in[i] + 1 for i < n, once the kernel before it has ended. */
__global__ void add_one_kernel(const int32_t *in, int32_t *out, int n)
{
    KIT_WAIT_PRIOR_GRID();
    KIT_START_NEXT_GRID();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] + 1;
}

/* Runs the chain of test_gpu_launch_dependent once: c = (a filled slowly) + 2. Returns the first
   wrong index of c, or -1, and its value in *got. */
static int dependent_chain(int32_t *d_a, int32_t *d_b, int32_t *d_c, int32_t *h_c, int n, int32_t *got)
{
    CUDA_CHECK(cudaMemset(d_a, 0, (size_t)n * sizeof *d_a));
    CUDA_CHECK(cudaMemset(d_b, 0, (size_t)n * sizeof *d_b));
    CUDA_CHECK(cudaDeviceSynchronize());
    KIT_LAUNCH_DEPENDENT(slow_fill_kernel, n / 256, 256, 0, d_a, n, 2000000LL); /* about a millisecond */
    KIT_LAUNCH_DEPENDENT(add_one_kernel, n / 256, 256, 0, d_a, d_b, n);
    KIT_LAUNCH_DEPENDENT(add_one_kernel, n / 256, 256, 0, d_b, d_c, n);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(h_c, d_c, (size_t)n * sizeof *h_c, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (h_c[i] != 7 * i + 4) {
            *got = h_c[i];
            return i;
        }
    return -1;
}

/* KIT_LAUNCH_DEPENDENT: a slow kernel, then two dependent ones, each reading what the one before
   wrote (the third needs the first's writes through the second's wait). Without the waits the
   dependent kernels read the buffers before the slow kernel has filled them. The chain runs twice:
   the first loads the kernels (loading a kernel at its first launch holds the stream back). */
static void test_gpu_launch_dependent(void)
{
    const int n = 1 << 16;
    int32_t *d_a, *d_b, *d_c, *h_c = (int32_t *)malloc((size_t)n * sizeof *h_c), got = 0;
    CUDA_CHECK(cudaMalloc(&d_a, (size_t)n * sizeof *d_a));
    CUDA_CHECK(cudaMalloc(&d_b, (size_t)n * sizeof *d_b));
    CUDA_CHECK(cudaMalloc(&d_c, (size_t)n * sizeof *d_c));
    int bad = -1;
    for (int run = 0; run < 2 && bad < 0; run++)
        bad = dependent_chain(d_a, d_b, d_c, h_c, n, &got);
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_c));
    free(h_c);
    KIT_ASSERT_MSG(bad < 0, "the third kernel's output at %d: expected %d, got %d (a dependent kernel read too early)",
                   bad, 7 * bad + 4, got);
}

/* out[i] = in[first + n - 1 - i] for i < n, read through kit_base_pointer(in + first). */
__global__ void base_pointer_kernel(const int32_t *in, long long first, int32_t *out, int n)
{
    const int32_t *p = kit_base_pointer(in + first);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = p[n - 1 - i];
}

/* kit_base_pointer: the same pointer on the host, and on the device the same keys when indexed
   with an int past a 64-bit start (what lab 9's merge kernel does with it). */
static void test_gpu_base_pointer(void)
{
    const int n = 1000, first = 300;
    int32_t h_in[1300], h_out[1000], *d_in, *d_out;
    for (int i = 0; i < n + first; i++)
        h_in[i] = 5 * i - 17;
    KIT_ASSERT_MSG(kit_base_pointer(h_in + first) == h_in + first, "on the host kit_base_pointer(p) is not p");
    CUDA_CHECK(cudaMalloc(&d_in, sizeof h_in));
    CUDA_CHECK(cudaMalloc(&d_out, sizeof h_out));
    CUDA_CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    KIT_LAUNCH(base_pointer_kernel, (n + 255) / 256, 256, 0, d_in, (long long)first, d_out, n);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    int bad = -1;
    for (int i = 0; i < n && bad < 0; i++)
        if (h_out[i] != h_in[first + n - 1 - i])
            bad = i;
    KIT_ASSERT_MSG(bad < 0, "out[%d]: expected %d, got %d", bad, bad < 0 ? 0 : h_in[first + n - 1 - bad],
                   bad < 0 ? 0 : h_out[bad]);
}

/* ---- kit_types.h ------------------------------------------------------------------ */

/* kit_type_dispatch calls its function once, with a value of the key type that t names; an unknown t calls nothing. */
static void test_type_dispatch(void)
{
    const kit_type types[3] = {KIT_TYPE_I32, KIT_TYPE_I64, KIT_TYPE_KV32};
    for (int i = 0; i < 3; i++) {
        int calls = 0;
        size_t size = 0;
        kit_type seen = (kit_type)0;
        kit_type_dispatch(types[i], [&](auto key) {
            calls++;
            size = sizeof key;
            seen = kit_type_of<decltype(key)>();
        });
        KIT_ASSERT_MSG(calls == 1 && seen == types[i] && size == kit_type_size(types[i]),
                       "%s: %d calls, with a key type of %zu bytes that is %s", kit_type_name(types[i]), calls, size,
                       kit_type_name(seen));
    }
    int calls = 0;
    kit_type_dispatch((kit_type)9, [&](auto) { calls++; });
    KIT_ASSERT_MSG(calls == 0, "an unknown type made %d calls", calls);
}

/* ---- registration ---------------------------------------------------------------- */

static void register_tests(void)
{
    CU_pSuite probe = kit_test_suite("GPU probe and settings");
    kit_test_add(probe, "kit_gpu_count", test_gpu_count);
    kit_test_add(probe, "kit_gpu_none_reason", test_gpu_none_reason);
    kit_test_add(probe, "kit_sync_launches", test_sync_launches);

    CU_pSuite check = kit_test_suite("CUDA_CHECK");
    kit_test_add(check, "success returns", test_check_success);
    kit_test_add(check, "failure prints the error and the place, exits 1", test_check_failure);

    CU_pSuite types = kit_test_suite("kit_types.h");
    kit_test_add(types, "kit_type_dispatch: one call with the key type t names", test_type_dispatch);

    CU_pSuite gpu = kit_test_suite("on the GPU");
    kit_test_add(gpu, "a kernel, CUDA_CHECK_LAUNCH and kit_gpu_timer", test_gpu_kernel_and_timer);
    kit_test_add(gpu, "the same with KIT_SYNC_LAUNCHES=1", test_gpu_sync_launches);
    kit_test_add(gpu, "kit_device_copy", test_gpu_device_copy);
    kit_test_add(gpu, "kit_launch_status", test_gpu_launch_status);
    kit_test_add(gpu, "KIT_LAUNCH_DEPENDENT: each kernel waits for the one before", test_gpu_launch_dependent);
    kit_test_add(gpu, "kit_base_pointer: the same keys through an int index", test_gpu_base_pointer);
    char why[160];
    if (kit_gpu_count(why, sizeof why) == 0)
        kit_test_skip_suite(gpu, why);
}

int main(void)
{
    return kit_test_main("cuda tests", register_tests);
}
