/** @file
 * The binary stream in which the CPU emulation reports every kernel launch and every
 * shared-memory access of a graded runner to the grader, through file descriptor 3.
 *
 * Why a stream: the grader counts bank conflicts from what the runner did, so the record must be
 * one the student's code cannot edit afterwards. The emulator writes each launch's records into
 * a pipe that the grader opened and reads (append-only; nothing written can be taken back), and
 * no function of the kit turns the stream off. The grader then checks every record against the
 * launch it belongs to (kit_trace_stream_read()). The grader names the kernel it measures in the
 * runner's environment, KIT_TRACE_KERNEL (as ncu's --kernel-name): only its
 * launches are streamed, which keeps a test that runs a whole sort as fast as an untraced one.
 *
 * Records, in the writer's byte order (the grader reads on the same machine): a uint32 tag, then
 * - KIT_TRACE_LAUNCH: a kit_trace_launch, when a launch starts;
 * - KIT_TRACE_ACCESS: a kit_access (below), for every shared-memory load and store;
 * - KIT_TRACE_GLOBAL: a kit_access for every global-memory load and store, in runners built with
 *   the global-memory hooks (kit_cpu.cc): addr 0, ordinal counting the thread's global accesses;
 * - KIT_TRACE_END: a uint64 count of the launch's accesses (of both kinds), when it ends.
 */
#ifndef KIT_TRACE_H
#define KIT_TRACE_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One recorded shared-memory access of one thread. */
typedef struct kit_access {
    uint32_t block;   /**< linear index of the thread block */
    uint32_t thread;  /**< linear index of the thread in its block */
    uint32_t ordinal; /**< how many shared accesses this thread made before this one */
    uint32_t addr;    /**< byte offset in the block's shared memory */
    uint32_t site;    /**< which access of the source made it: 1, 2, ... in the order the launch first reached
                           each; 0 when unknown (then the access is grouped by its ordinal in either model) */
    uint32_t sync;    /**< barriers and warp operations the thread passed before this access */
    uint32_t visit;   /**< how many times the thread reached this site before, since its last barrier or warp operation */
    uint8_t size;     /**< bytes accessed: 1, 2, 4, 8 or 16 */
    uint8_t write;    /**< 0 for a load, 1 for a store */
} kit_access;

#define KIT_TRACE_FD 3 /**< the descriptor the grader hands a runner for its trace (a pipe) */
#define KIT_TRACE_NAME 52 /**< room for a kernel's name in a launch record, NUL included */

/** The tags that open each record. */
enum {
    KIT_TRACE_LAUNCH = 0x4e55414c, /**< "LAUN" */
    KIT_TRACE_ACCESS = 0x53434341, /**< "ACCS" */
    KIT_TRACE_GLOBAL = 0x424f4c47, /**< "GLOB" */
    KIT_TRACE_END = 0x20444e45     /**< "END " */
};

/** A launch as the emulator saw it. */
typedef struct kit_trace_launch {
    uint32_t grid[3];            /**< gridDim */
    uint32_t block[3];           /**< blockDim */
    uint32_t shared_bytes;       /**< dynamic shared memory per block */
    char name[KIT_TRACE_NAME];   /**< the kernel as KIT_LAUNCH named it, e.g. "pbs_kernel<T>" */
} kit_trace_launch;

/**
 * The access of @p size bytes at byte @p addr that thread @p thread of block @p block made as its
 * access number @p ordinal (a store when @p write is set), with site, sync and visit 0 (unknown):
 * how a test or a figure describes an access it did not record.
 */
kit_access kit_access_at(uint32_t block, uint32_t thread, uint32_t ordinal, uint32_t addr, uint8_t size, int write);

/** One launch of the measured kernel, with its accesses, as the grader read them. */
typedef struct kit_trace_run {
    kit_trace_launch launch; /**< the launch */
    kit_access *acc;         /**< its shared-memory accesses, malloc'ed */
    size_t n;                /**< their number */
    kit_access *global;      /**< its global-memory accesses (KIT_TRACE_GLOBAL), malloc'ed, or NULL */
    size_t nglobal;          /**< their number */
} kit_trace_run;

/**
 * Does a launch's name denote @p kernel? The name before any template arguments must equal it;
 * "." matches every kernel (as ncu's regex of one dot does).
 */
int kit_trace_name_matches(const char *name, const char *kernel);

/**
 * Reads a whole stream and keeps the launches of @p kernel. Every record is checked: an access
 * outside a launch, a block or thread index past the launch's shape, an access that ends past the
 * launch's shared memory, a size other than 1, 2, 4, 8 or 16, a site not numbered 1, 2, ... in the
 * order the launch reached them (shared and global accesses share one numbering), a visit count
 * above the thread's access ordinal (of the access's kind), an END whose
 * count differs from the accesses read, a launch left open, an unknown tag or a truncated record
 * refuses the stream.
 * @param[in]  f      the stream
 * @param[in]  kernel the measured kernel's name
 * @param[out] runs   malloc'ed launches of @p kernel (free with kit_trace_runs_free())
 * @param[out] nruns  their number
 * @param[out] launches every launch in the stream, the measured kernel's and the others'
 * @param[out] err    why the stream was refused
 * @param[in]  errlen size of @p err
 * @return 0, or -1 with a reason in @p err
 */
int kit_trace_stream_read(FILE *f, const char *kernel, kit_trace_run **runs, size_t *nruns, size_t *launches,
                          char *err, size_t errlen);

/** Frees what kit_trace_stream_read() returned. */
void kit_trace_runs_free(kit_trace_run *runs, size_t nruns);

#ifdef __cplusplus
}
#endif

#endif
