/* The kit's GPU probe and CUDA-event timer. */
#include <string.h>
#include <unistd.h>

#include "kit_cuda.h"
#include "kit_device.h"
#include "kit_driver.h"

int kit_sync_launches(void)
{
    const char *v = getenv("KIT_SYNC_LAUNCHES");
    return v != NULL && strcmp(v, "0") != 0;
}

cudaError_t kit_launch_status(void)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    (void)cudaGetLastError();
    return e;
}

void kit_gpu_none_reason(const char *driver, const char *err_name, const char *err_text, char *why, size_t whylen)
{
    if (access(driver, F_OK) != 0)
        snprintf(why, whylen, "no GPU found (no NVIDIA driver is loaded)");
    else if (err_name)
        snprintf(why, whylen, "no usable GPU: %s (%s)", err_text, err_name);
    else
        snprintf(why, whylen, "no usable GPU: the CUDA runtime reports 0 devices");
}

int kit_gpu_count(char *why, size_t whylen)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        kit_gpu_none_reason(KIT_NVIDIA_DRIVER, err == cudaSuccess ? NULL : cudaGetErrorName(err),
                            cudaGetErrorString(err), why, whylen);
        (void)cudaGetLastError(); /* clear the sticky error so later calls start clean */
        return 0;
    }
    if (whylen)
        why[0] = '\0';
    return count;
}

void kit_gpu_timer_start(kit_gpu_timer *t)
{
    CUDA_CHECK(cudaEventCreate(&t->start));
    CUDA_CHECK(cudaEventCreate(&t->stop));
    CUDA_CHECK(cudaEventRecord(t->start, 0));
}

float kit_gpu_timer_stop_ms(kit_gpu_timer *t)
{
    float ms = 0.0f;
    CUDA_CHECK(cudaEventRecord(t->stop, 0));
    CUDA_CHECK(cudaEventSynchronize(t->stop));
    CUDA_CHECK(cudaEventElapsedTime(&ms, t->start, t->stop));
    CUDA_CHECK(cudaEventDestroy(t->start));
    CUDA_CHECK(cudaEventDestroy(t->stop));
    return ms;
}

void *kit_device_copy(const void *h_src, size_t bytes)
{
    void *d = NULL;
    CUDA_CHECK(cudaMalloc(&d, bytes ? bytes : 1));
    if (bytes)
        CUDA_CHECK(cudaMemcpy(d, h_src, bytes, cudaMemcpyHostToDevice));
    return d;
}

void *kit_host_array(const void *src, size_t bytes, const char *name, unsigned elem_bytes, const char *what)
{
#ifdef KIT_CPU
    void *p = NULL;
    CUDA_CHECK(cudaMalloc(&p, bytes ? bytes : 1));
    kit_cpu_name_array(p, name, elem_bytes, what);
#else
    (void)name, (void)elem_bytes, (void)what;
    void *p = kit_xmalloc(bytes ? bytes : 1);
#endif
    if (src && bytes)
        memcpy(p, src, bytes);
    return p;
}

void kit_host_array_free(void *p)
{
#ifdef KIT_CPU
    cudaFree(p);
#else
    free(p);
#endif
}
