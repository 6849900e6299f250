/** @file
 * What the merge-kernel labs (3, 4, 5 and 7) share: running a lab's kernel on host
 * arrays through device memory, its driver, and its answer to the grader. It lives in lab 3's
 * harness, the first of these labs; the others include it from there.
 * Each lab provides only a launcher for its kernel.
 */
#ifndef LAB03_MERGE_RUN_CUH
#define LAB03_MERGE_RUN_CUH

#include <string.h>

#include "kit.h"
#include "kit_bank.h"
#include "kit_cuda.h"

/** How a merge kernel is launched. */
struct kit_merge_cfg {
    int blocks;  /**< thread blocks */
    int threads; /**< threads per block */
    int tile;    /**< elements of A and of B a tiled kernel keeps in shared memory (unused by lab 3) */
};

/** A lab's launcher: KIT_LAUNCHes its kernel for element type t on device arrays. */
typedef void (*kit_merge_launch_fn)(kit_type t, const void *d_A, int m, const void *d_B, int n, void *d_C,
                                    kit_merge_cfg cfg);

/** A merge-kernel lab as the shared harness sees it. */
struct kit_merge_lab {
    const char *task;          /**< "<lab>:<task>", reported when the kernel is a skeleton */
    const char *what;          /**< one line for the driver's --help */
    kit_merge_launch_fn launch; /**< launches the lab's kernel */
    /**
     * Optional: runs the lab's measured kernel on host inputs, the one whose shared-memory
     * conflicts a grading spec's threshold is about (lab 7: its gather alone). NULL: the lab has none.
     */
    void (*measure)(kit_type t, const void *A, int m, const void *B, int n, kit_merge_cfg cfg);
    /** Optional: the launch the driver uses when none is given; NULL: kit_merge_default_cfg. */
    kit_merge_cfg (*default_cfg)(long long total);
    /**
     * 1: the kernel takes E, keys per thread (lab 7), which the launch passes as its tile, from a
     * request's E; 0: a shared-memory tile (labs 4 and 5; lab 3 has none), from a request's tile.
     */
    int takes_E;
    /**
     * What the lab's grading.spec also judges that the driver does not (work spread, shared-memory
     * traffic, bank conflicts), for the note after its PASS line; NULL: the driver judges it all.
     */
    const char *grader_only;
};

/** The launch the kit uses when none is given: 128 threads, tiles of 1024, about 4096 outputs per block. */
static inline kit_merge_cfg kit_merge_default_cfg(long long total)
{
    kit_merge_cfg c = {(int)((total + 4095) / 4096), 128, 1024};
    if (c.blocks < 1)
        c.blocks = 1;
    if (c.blocks > 65535)
        c.blocks = 65535;
    return c;
}

/**
 * Runs the lab's kernel like kit_merge_run(), with @p guard canary elements
 * (every byte KIT_GUARD_BYTE) on each side of C in device memory: C holds
 * m + n + 2 * guard elements, the kernel gets the middle, and all of it,
 * canaries included, is copied back, so a caller can tell if the kernel
 * wrote past either end of its output.
 * @return as kit_merge_run()
 */
static inline int kit_merge_run_guarded(const kit_merge_lab *lab, kit_type t, void *A, int m, void *B, int n, void *C,
                                        size_t guard, kit_merge_cfg cfg, char *msg, size_t len)
{
    size_t size = kit_type_size(t), total = (size_t)m + (size_t)n, all = (total + 2 * guard) * size;
    void *d_A = kit_device_copy(A, (size_t)m * size), *d_B = kit_device_copy(B, (size_t)n * size), *d_C;
#ifdef KIT_CPU
    /* The CPU build's checked memory stops an access past C itself, with the thread and the index:
       C is an array of its own, and the canaries stay on the host, untouched, for the grader. */
    size_t device_guard = 0;
#else
    size_t device_guard = guard;
#endif
    size_t device_all = (total + 2 * device_guard) * size;
    CUDA_CHECK(cudaMalloc(&d_C, device_all + 1));
    CUDA_CHECK(cudaMemset(d_C, KIT_GUARD_BYTE, device_all));
    CUDA_CHECK(cudaMemset((char *)d_C + device_guard * size, KIT_UNWRITTEN_BYTE, total * size));
    kit_name_array(d_A, "A", (unsigned)size, "keys");
    kit_name_array(d_B, "B", (unsigned)size, "keys");
    kit_name_array((char *)d_C + device_guard * size, "C", (unsigned)size, "keys");
    kit_not_implemented_reset();
    (void)cudaGetLastError();
    lab->launch(t, d_A, m, d_B, n, (char *)d_C + device_guard * size, cfg);
    cudaError_t e = kit_launch_status();
    int rc = 0;
    if (e != cudaSuccess) {
        snprintf(msg, len, "the launch of %d blocks of %d threads (tile %d) failed: %s (%s)", cfg.blocks, cfg.threads,
                 cfg.tile, cudaGetErrorString(e), cudaGetErrorName(e));
        rc = -1;
    } else if (kit_device_not_implemented(lab->task)) {
        rc = 1;
    } else {
        memset(C, KIT_GUARD_BYTE, all);
        CUDA_CHECK(cudaMemcpy((char *)C + (guard - device_guard) * size, d_C, device_all, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(A, d_A, (size_t)m * size, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(B, d_B, (size_t)n * size, cudaMemcpyDeviceToHost));
    }
    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
    return rc;
}

/**
 * Runs the lab's kernel: copies A and B to the device, fills C with KIT_UNWRITTEN_BYTE
 * bytes, launches, and copies C back. A and B are overwritten with what the
 * device holds after the kernel, so a caller can tell if the kernel wrote to them.
 * @return 0 when the kernel ran, 1 when it reached a skeleton, -1 when the
 *         launch or the kernel failed (the reason is in @p msg)
 */
static inline int kit_merge_run(const kit_merge_lab *lab, kit_type t, void *A, int m, void *B, int n, void *C,
                                kit_merge_cfg cfg, char *msg, size_t len)
{
    return kit_merge_run_guarded(lab, t, A, m, B, n, C, 0, cfg, msg, len);
}

/**
 * Runs the lab's measured kernel for a grader's conflict threshold. The grader finds its launch by
 * the kernel's name: in the trace stream of the CPU build (kit_trace.h), or through ncu on a GPU.
 */
static inline void kit_merge_measure(const kit_merge_lab *lab, kit_type t, const void *A, int m, const void *B, int n,
                                     kit_merge_cfg cfg)
{
    lab->measure(t, A, m, B, n, cfg);
}

/* The lab whose requests kit_merge_serve answers (kit_serve takes a plain function). */
static const kit_merge_lab *kit_merge_serving_;

/**
 * Grader request "merge": C = merge(A, B) by the kernel, launched with the request's blocks and
 * u, and its tile or E (kit_merge_lab.takes_E), or with the lab's default launch when it has
 * none; measure 1 also runs the lab's measured kernel (kit_merge_measure). With KIT_REQ_GUARD,
 * canaries surround C on the device.
 */
static inline int kit_merge_serve_one(const kit_req *h, void *A, void *B, const int64_t *Q, kit_serve_out *out)
{
    const kit_merge_lab *lab = kit_merge_serving_;
    kit_request req;
    if (kit_request_decode(h, Q, KIT_OP_MERGE, &req, out->error, sizeof out->error) != 0)
        return -1;
    uint64_t total = req.m + req.n;
    kit_merge_cfg cfg = lab->default_cfg ? lab->default_cfg((long long)total) : kit_merge_default_cfg((long long)total);
    if (req.measure && !lab->measure) {
        snprintf(out->error, sizeof out->error, "this lab has no measured kernel for a conflict threshold");
        return -1;
    }
    if ((lab->takes_E && req.tile) || (!lab->takes_E && req.E)) {
        snprintf(out->error, sizeof out->error, "this lab's kernel takes %s, not %s", lab->takes_E ? "E" : "a tile",
                 lab->takes_E ? "a tile" : "E");
        return -1;
    }
    if (req.blocks > 0) { /* lab 3's kernel takes neither tile nor E: its launch line says tile 1, as it always has */
        int per_round = lab->takes_E ? req.E : req.tile;
        cfg.blocks = req.blocks;
        cfg.threads = req.u;
        cfg.tile = per_round > 0 ? per_round : 1;
    }
    size_t guard = req.guard ? KIT_GUARD_ELEMS : 0;
    size_t bytes = (size_t)(total + 2 * guard) * kit_type_size(req.type);
    out->c = total + 2 * guard;
    out->C = kit_xmalloc(bytes);
    memset(out->C, KIT_UNWRITTEN_BYTE, bytes);
    int rc = kit_merge_run_guarded(lab, req.type, A, (int)req.m, B, (int)req.n, out->C, guard, cfg, out->error,
                                   sizeof out->error);
    if (rc == 0 && req.measure)
        kit_merge_measure(lab, req.type, A, (int)req.m, B, (int)req.n, cfg);
    return rc < 0 ? -2 : 0; /* the kernel failed; a skeleton shows up through kit_not_implemented_task() */
}

#ifdef KIT_CPU
/* Stops the trace, writes it to `path` and prints the simulator's counts for it; returns 0 or -1. */
static inline int kit_merge_write_trace(const char *path)
{
    kit_access *acc;
    size_t n = kit_cpu_trace_stop(&acc);
    int rc = kit_trace_save(path, acc, n);
    if (rc == 0) {
        kit_bank_model model = {32, 4};
        kit_bank_report r;
        char err[160];
        if (kit_bank_simulate(&model, acc, n, &r, err, sizeof err) == 0) {
            printf("trace: %zu shared accesses in %s; loads: %llu steps, papers' cost %llu, %llu conflicts; "
                   "stores: %llu steps, %llu conflicts\n",
                   n, path, (unsigned long long)r.load.steps, (unsigned long long)r.load.cost,
                   (unsigned long long)r.load.conflicts, (unsigned long long)r.store.steps,
                   (unsigned long long)r.store.conflicts);
            kit_bank_free(&r);
        }
    }
    free(acc);
    return rc;
}
#endif

/** The whole main() of a merge-kernel lab's driver. */
static inline int kit_merge_driver_main(const kit_merge_lab *lab, int argc, char **argv)
{
    kit_args a;
    kit_merge_serving_ = lab;
    int rc = kit_driver_begin(&a, argc, argv, lab->what, kit_merge_serve_one);
    if (rc >= 0)
        return rc;
    size_t size = kit_type_size(a.type), total = (size_t)(a.m + a.n);
    kit_merge_cfg cfg = lab->default_cfg ? lab->default_cfg((long long)total) : kit_merge_default_cfg((long long)total);
    cfg.blocks = a.blocks ? a.blocks : cfg.blocks;
    cfg.threads = a.threads ? a.threads : cfg.threads;
    cfg.tile = a.tile ? a.tile : cfg.tile;
    void *A, *B, *C = kit_xmalloc(total * size);
    kit_driver_merge_input(&a, &A, &B);
    char msg[256];
    double best = 1e30;
    int status = 0;
    for (int r = 0; r < a.repeat && status == 0; r++) {
#ifdef KIT_CPU
        if (a.trace && r == 0)
            kit_cpu_trace_start();
#endif
        double t0 = kit_now_s();
        rc = kit_merge_run(lab, a.type, A, (int)a.m, B, (int)a.n, C, cfg, msg, sizeof msg);
        double dt = kit_now_s() - t0;
#ifdef KIT_CPU
        if (a.trace && r == 0 && kit_merge_write_trace(a.trace) != 0)
            status = 2;
#endif
        best = dt < best ? dt : best;
        if (rc == 1) {
            printf("FAIL: not implemented: %s\n", lab->task);
            status = 1;
        } else if (rc < 0) {
            printf("FAIL: %s\n", msg);
            status = 1;
        }
    }
    if (status == 0 && a.print) {
        kit_print_array("A", a.type, A, (size_t)a.m);
        kit_print_array("B", a.type, B, (size_t)a.n);
        kit_print_array("C", a.type, C, total);
    }
    if (status == 0 && kit_check_merge(a.type, A, (size_t)a.m, B, (size_t)a.n, C, msg, sizeof msg) >= 0) {
        printf("FAIL: merge %s m=%lld n=%lld gen=%s seed=%llu, %d blocks of %d threads, tile %d: wrong output at %s\n",
               kit_type_name(a.type), a.m, a.n, kit_gen_name(a.gen), (unsigned long long)a.seed, cfg.blocks,
               cfg.threads, cfg.tile, msg);
        status = 1;
    } else if (status == 0) {
        printf("PASS: merge %s m=%lld n=%lld gen=%s seed=%llu, %d blocks of %d threads, tile %d: %.3f ms with copies"
#ifdef KIT_CPU
               " (CPU emulation)"
#endif
               "\n",
               kit_type_name(a.type), a.m, a.n, kit_gen_name(a.gen), (unsigned long long)a.seed, cfg.blocks,
               cfg.threads, cfg.tile, best * 1e3);
        kit_driver_grader_only(lab->task, lab->grader_only);
    }
    free(A);
    free(B);
    free(C);
    return status;
}

#endif
