/** @file sandbox.h Runs an untrusted program in its own process group, with a wall-clock timeout and resource limits. */
#ifndef SANDBOX_H
#define SANDBOX_H

/** Where the child's standard streams go, and what it may use. */
typedef struct sb_limits {
    double timeout_s;        /**< wall-clock limit; the whole process group is killed after it */
    long cpu_s;              /**< RLIMIT_CPU in seconds, 0 to leave it */
    long long file_bytes;    /**< RLIMIT_FSIZE: the largest file the child may write, 0 to leave it */
    long nproc;              /**< RLIMIT_NPROC, 0 to leave it (root ignores this limit) */
    const char *cwd;         /**< working directory of the child, or NULL */
    const char *stdin_path;  /**< file for stdin, or NULL for /dev/null */
    const char *stdout_path; /**< file for stdout, or NULL for /dev/null */
    const char *stderr_path; /**< file for stderr, or NULL for /dev/null */
    char *const *envp;       /**< the child's whole environment (NULL for an empty one) */
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
 * has ended, so no stray child lives on.
 * @return 0 when @p res describes how the child ended, -1 if it could not be forked
 */
int sb_run(char *const argv[], const sb_limits *lim, sb_result *res);

/**
 * Describes a result in one line: "exit 0", "crash (signal 11, Segmentation fault)",
 * "timeout after 10 s", "CPU time limit", "output too large", "could not start: ...".
 */
void sb_describe(const sb_result *res, const sb_limits *lim, char *buf, unsigned len);

#endif
