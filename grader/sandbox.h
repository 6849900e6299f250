/** @file sandbox.h Runs an untrusted program in its own process group, with a wall-clock timeout and resource limits. */
#ifndef SANDBOX_H
#define SANDBOX_H

#include "kit_types.h"

/** Where the child's standard streams go, and what it may use. */
typedef struct sb_limits {
    double timeout_s;        /**< wall-clock limit; the whole process group is killed after it */
    long cpu_s;              /**< RLIMIT_CPU in seconds, 0 to leave it */
    long long file_bytes;    /**< RLIMIT_FSIZE: the largest file the child may write, 0 to leave it */
    long nproc;              /**< processes and threads the child may add to those its user already runs, 0 for
                                  no limit; enforced by RLIMIT_NPROC, which counts per real user, so the
                                  limit is set to that user's current count plus nproc. Root is exempt:
                                  set uid as well when the grader runs as root */
    const char *cwd;         /**< working directory of the child, or NULL */
    const char *stdin_path;  /**< file for stdin, or NULL for /dev/null */
    const char *stdout_path; /**< file for stdout, or NULL for /dev/null */
    const char *stderr_path; /**< file for stderr, or NULL for /dev/null */
    char *const *envp;       /**< the child's whole environment (NULL for an empty one) */
    unsigned uid;            /**< when not 0 and the grader runs as root, the child runs as this user (and
                                  gid), with no supplementary groups; if they cannot be set, the child
                                  does not run (SB_ERROR). Ignored when the grader is not root */
    unsigned gid;            /**< the group that goes with uid */
    long long mem_bytes;     /**< RLIMIT_AS: the address space the child may use, 0 for no limit */
    int trace_fd;            /**< when > 0, a descriptor the child gets as KIT_TRACE_FD (3): a runner's trace pipe */
    int isolate;             /**< namespaces: own mounts, pids, IPC, network; private /tmp and /dev/shm */
    int seccomp;             /**< the outer seccomp filter, installed just before exec */
    const char *const *hide; /**< with isolate: NULL-terminated paths the child must not see, or NULL */
    const char *const *writable; /**< with isolate: NULL-terminated paths the child may write, or NULL */
    int no_network;          /**< when the grader is root, the child gets a network namespace of its own
                                  (a loopback device, down: no network). Best effort: where the kernel
                                  refuses (a container without CAP_SYS_ADMIN), the child keeps the host's */
} sb_limits;

/** How the child ended. */
typedef enum sb_kind {
    SB_EXITED,   /**< exited; code is the exit status */
    SB_SIGNALED, /**< killed by a signal; code is the signal */
    SB_TIMEOUT,  /**< still running at the deadline, killed */
    SB_ERROR     /**< could not be started; code is errno */
} sb_kind;

/** How a sandboxed run ended. */
typedef struct sb_result {
    sb_kind kind; /**< how it ended */
    int code; /**< the exit status, signal or errno, as kind says */
    double seconds; /**< wall-clock time until it ended or was killed */
} sb_result;

/**
 * Runs argv[0] (a path, not searched in PATH) with the given limits and waits
 * for it, killing its whole process group at the deadline and again once it
 * has ended. The caller becomes a "child subreaper", so descendants that left
 * the group (setsid) are re-parented to it; after the run every child process
 * of the caller is killed and reaped, so no stray process lives on.
 * @pre the caller has no other child processes (the grader runs one at a time)
 * @return 0 when @p res describes how the child ended, -1 if it could not be forked
 */
int sb_run(char *const argv[], const sb_limits *lim, sb_result *res);

/**
 * Makes SIGINT, SIGTERM and SIGHUP kill the running child's process group
 * before the caller dies of them, so interrupting the grader leaves no runner behind.
 */
void sb_kill_on_signal(void);

/**
 * Counts the processes and threads whose real user is @p uid (what
 * RLIMIT_NPROC counts), by reading /proc.
 * @return the count, or -1 when /proc cannot be read
 */
long sb_count_tasks(unsigned uid);

/** The exit status by which the kit's allocators say that memory ran out (kit_types.h). */
#define SB_EXIT_NOMEM KIT_EXIT_NOMEM

/**
 * Was a failed run most likely stopped by the memory limit (lim->mem_bytes)? Yes when it exited
 * with SB_EXIT_NOMEM, or its stderr (at @p stderr_path) says an allocation failed.
 */
int sb_hit_memory_limit(const sb_result *res, const sb_limits *lim, const char *stderr_path);

/**
 * Describes a result in one line: "exit 0", "crash (signal 11, Segmentation fault)",
 * "timeout after 10 s", "CPU time limit", "output too large", "could not start: ...".
 */
void sb_describe(const sb_result *res, const sb_limits *lim, char *buf, unsigned len);

#endif
