/** @file sandbox.h Runs an untrusted program in its own process group, with a wall-clock timeout, limits on its whole process tree, and a view of the file system assembled for it. */
#ifndef SANDBOX_H
#define SANDBOX_H

#include <stddef.h>

#include "kit_types.h"

/** The exit status the kit's allocators use when memory runs out (kit_types.h). */
#define SB_EXIT_NOMEM KIT_EXIT_NOMEM

/** The first of the user ids sb_uid_acquire() hands out, one per grader running at the same time. */
#define SB_UID_BASE 2100000000u
/** How many such user ids there are: graders that may run at once. */
#define SB_UID_COUNT 4096u

/**
 * One folder or file a sandboxed child sees (sb_limits.view), at its own path or elsewhere. A bind
 * works whatever the modes of the folders above it on the host: the child reaches it through the
 * view's own folders. What the child may do inside still follows the file's owner and modes.
 */
typedef struct sb_bind {
    const char *from; /**< the host path; NULL ends a view */
    const char *to;   /**< where the child sees it, NULL for the same path as from */
    int writable;     /**< 1: the child may write there (as its modes allow); 0: read-only */
} sb_bind;

/** Where the child's standard streams go, and what it may use. */
typedef struct sb_limits {
    double timeout_s;        /**< wall-clock limit; the whole process group is killed after it */
    long cpu_s;              /**< RLIMIT_CPU in seconds, 0 to leave it */
    long long file_bytes;    /**< RLIMIT_FSIZE: the largest file the child may write, 0 to leave it */
    long nproc;              /**< processes and threads the child may add to itself, 0 for no limit. Where
                                  sb_cgroup_version() is not 0, a cgroup's pids limit holds it for the
                                  whole tree (root included). Else RLIMIT_NPROC, which counts per real
                                  user, so the limit is set to that user's current count plus nproc,
                                  and root is exempt: set uid as well when the grader runs as root */
    const char *cwd;         /**< working directory of the child, or NULL (with a view: the grader's own
                                  when the view holds it, else /) */
    const char *stdin_path;  /**< file for stdin, or NULL for /dev/null (opened before the view is made:
                                  it need not be in the view) */
    const char *stdout_path; /**< file for stdout, or NULL for /dev/null (likewise) */
    const char *stderr_path; /**< file for stderr, or NULL for /dev/null (likewise) */
    char *const *envp;       /**< the child's whole environment (NULL for an empty one) */
    unsigned uid;            /**< when not 0 and the grader runs as root, the child runs as this user (and
                                  gid), with no supplementary groups; if they cannot be set, the child
                                  does not run (SB_ERROR). Ignored when the grader is not root */
    unsigned gid;            /**< the group that goes with uid */
    int trace_fd;            /**< when > 0, a descriptor the child gets as KIT_TRACE_FD (3): a runner's trace pipe */
    int no_network;          /**< when the grader is root, the child gets a network namespace of its own
                                  (a loopback device, down: no network). Best effort: where the kernel
                                  refuses (a container without CAP_SYS_ADMIN), the child keeps the host's */
    long long mem_bytes;     /**< the memory the child may use, 0 for no limit. Where sb_cgroup_version()
                                  is not 0, a cgroup's memory limit holds it for the whole tree (no
                                  swap, no RLIMIT_AS: a program may reserve address space freely), and
                                  once the kernel kills a process of the tree for it, the whole tree is
                                  killed. Else RLIMIT_AS per process; the CUDA runtime reserves far more
                                  address space than it uses, so a GPU program then needs none */
    int isolate;             /**< run the child in namespaces of its own (mount, pid, ipc, uts, network; as
                                  root without a user namespace, else in one that maps this user to
                                  itself): it is pid 1 of its own pid namespace, so everything it starts
                                  dies with it. Its root is a view assembled for it: the system folders
                                  (see view), a fresh /proc, a private /tmp and /dev/shm, and the binds
                                  of view; nothing else of the host. Where the kernel refuses a part,
                                  the run goes on without it and sb_isolation_report() says so.
                                  As root, set uid too: a runner left root could undo the mounts.
                                  As pid 1 the program ignores the signals it sends itself without a
                                  handler: glibc's abort() then ends it with SIGSEGV, not SIGABRT */
    long long tmp_bytes;     /**< with isolate: the size of the private /tmp and of /dev/shm; 0 for 16 MiB */
    const sb_bind *view;     /**< with isolate: what the child sees besides what every view holds, ended
                                  by a bind whose from is NULL; NULL for nothing more. Every view holds,
                                  read-only: /usr, /bin, /sbin, /lib, /lib32, /lib64, /libx32 as they
                                  exist (links kept as links), from /etc only ld.so.cache, ld.so.conf,
                                  ld.so.conf.d and alternatives, and a passwd and group naming root and
                                  the child's user alone; /dev with null, zero, full, random, urandom,
                                  nvidia* where present, fd, stdin, stdout and stderr. A missing from
                                  makes the run fail (SB_ERROR) */
    int seccomp;             /**< install the outer seccomp filter right before execve: the calls a program
                                  never needs to compile or run a lab (ptrace, mount, namespaces, kernel
                                  modules, bpf, perf_event_open, keys, io_uring, sockets other than
                                  AF_UNIX and NETLINK_ROUTE, clock and swap changes, ...) kill it with
                                  SIGSYS. g++, nvcc, compute-sanitizer, ncu and CUDA programs run under it */
} sb_limits;

/** How the child ended. */
typedef enum sb_kind {
    SB_EXITED,   /**< exited; code is the exit status */
    SB_SIGNALED, /**< killed by a signal; code is the signal */
    SB_TIMEOUT,  /**< still running at the deadline, killed */
    SB_ERROR     /**< could not be started; code is errno */
} sb_kind;

/** The longest sb_result.step, with its terminating NUL. */
#define SB_STEP_LEN 240

/** How a sandboxed run ended. */
typedef struct sb_result {
    sb_kind kind; /**< how it ended */
    int code; /**< the exit status, signal or errno, as kind says */
    double seconds; /**< wall-clock time until it ended or was killed */
    long max_rss_kb; /**< the largest resident set of the child or of any process it waited for, in KiB.
                          Before execve the child is a copy of the grader, so this is never below the
                          grader's own resident set at the fork */
    int mem_limit_hit;  /**< 1 when the cgroup's memory limit made the kernel kill a process of the tree */
    int pids_limit_hit; /**< 1 when the cgroup's pids limit refused the tree a new process or thread */
    long long mem_peak_bytes; /**< the whole tree's largest memory use (the cgroup's), 0 where unknown */
    char step[SB_STEP_LEN];   /**< for SB_ERROR: what the child was doing when it failed ("placing the view's /x"), or "" */
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


/**
 * Describes a result in one line: "exit 0", "crash (signal 11, Segmentation fault)",
 * "timeout after 10 s", "CPU time limit", "output too large", "could not start: ...";
 * when lim->mem_bytes is set and sb_memory_exceeded() says so for
 * lim->stderr_path, "memory limit 1024 MiB exceeded" (MiB rounded down); when the
 * cgroup's pids limit refused a process to a run that failed, "process limit
 * exceeded (N processes and threads)"; and with lim->seccomp, "forbidden system
 * call (...)" for a death by SIGSYS.
 * @param[in]  res how the run ended
 * @param[in]  lim the limits it ran under
 * @param[out] buf the line, cut to fit
 * @param[in]  len the size of buf
 */
void sb_describe(const sb_result *res, const sb_limits *lim, char *buf, unsigned len);

/**
 * Says whether a run that failed most likely failed for the memory limit:
 * the cgroup's limit made the kernel kill a process of it (res->mem_limit_hit),
 * or it exited with SB_EXIT_NOMEM, or its largest resident set reached 90% of
 * the limit, or its stderr says so ("std::bad_alloc", "Cannot allocate
 * memory", the kit's "out of memory allocating", LLVM's "out of memory").
 * @param[in] res         how the run ended
 * @param[in] lim         the limits it ran under
 * @param[in] stderr_path the file its stderr went to, or NULL not to read one
 * @return 1 if so, 0 if not, or if it succeeded, timed out, never started or had no memory limit
 */
int sb_memory_exceeded(const sb_result *res, const sb_limits *lim, const char *stderr_path);

/**
 * Takes a user id of its own for this grader, SB_UID_BASE + k with the
 * smallest k (below SB_UID_COUNT) no other grader holds, so that runners
 * of graders running side by side cannot touch each other's files or
 * processes. A grader holds k by an exclusive flock on a lock file in a
 * folder only root may use (/run/lock/kit-grader, or /tmp/kit-grader-locks
 * where there is no /run/lock), which lasts until this process ends. Any
 * process still running under the id (left by a grader that died) is
 * killed before it returns.
 * @pre the caller runs as root
 * @param[out] uid the id (use it as the group id too); unchanged on failure
 * @param[out] why on failure, the reason
 * @param[in]  len the size of why
 * @return 0, or -1 when not root, when the lock folder is not root's alone, or when every id is taken
 */
int sb_uid_acquire(unsigned *uid, char *why, size_t len);

/**
 * Tries to take lock k alone (sb_uid_acquire() tries k = 0, 1, ... with it).
 * The lock holds as long as the returned descriptor stays open, in this
 * process and in those that inherit it by fork.
 * @pre the caller runs as root; k < SB_UID_COUNT
 * @param[in]  k   which id, SB_UID_BASE + k
 * @param[out] why on failure, the reason ("held by another grader" when it is taken)
 * @param[in]  len the size of why
 * @return the lock file's descriptor (close-on-exec), or -1
 */
int sb_uid_lock(unsigned k, char *why, size_t len);

/**
 * Says in one line what an isolated run (sb_limits.isolate, .seccomp)
 * contains here and what it cannot, e.g. "sandbox: not root and no user
 * namespaces: runners share this user's files, /tmp and processes". The
 * kernel is asked once, by a throwaway child, and the answer kept: sb_run()
 * uses the parts that worked and leaves out the others, so the grader
 * should print this line once.
 * @return a static string
 */
const char *sb_isolation_report(void);

/**
 * Waits for, and takes, the machine's GPU lock (in the uid locks' folder), a readers-writer lock:
 * ncu cannot profile a program while another uses the GPU (each sandboxed ncu has a private /tmp,
 * where ncu's own lock lives; beside another program's kernels it fails with "An error was
 * reported by the driver"), so graders running side by side take it around every GPU run: alone
 * for an ncu run (@p profiler 1), shared with other plain runs otherwise. A profiler that waits
 * keeps new runs from starting, so it is not starved. Close the descriptor to release it.
 * @return the lock's descriptor, or -1 when there is no lock folder (not root): then runs are not serialized
 */
int sb_gpu_lock(int profiler);

/**
 * Which cgroups hold sb_limits.mem_bytes and .nproc for a run's whole tree here: each
 * sb_run() with either limit makes a cgroup of its own, named `UID-PID-SEQ`, in a folder
 * kit-grader beside the grader's own cgroup (cgroup v2 where /sys/fs/cgroup is the unified
 * hierarchy with the memory and pids controllers, else v1's memory and pids hierarchies),
 * and removes it after the run, with anything left in it. Asked once, by making and
 * removing one such cgroup; needs root and a writable cgroupfs.
 * @param[out] mem_dir  the folder the runs' memory cgroups go in ("" when none), or NULL
 * @param[out] pids_dir the folder the runs' pids cgroups go in (v2: the same), or NULL
 * @param[in]  len      the size of each folder buffer
 * @return 2 or 1, the cgroup version in use; 0 when limits are per process (RLIMIT_AS, RLIMIT_NPROC)
 */
int sb_cgroup_version(char *mem_dir, char *pids_dir, size_t len);

/**
 * Says whether sb_run() gives an isolated child the view it asks for here (root, or a
 * user namespace, and the kernel lets it mount). Where it does not, an isolated child
 * sees the host's files as its user may, so folders a runner must not read need modes
 * that keep it out.
 * @return 1 if so, 0 if not
 */
int sb_views_work(void);

/** The most binds an sb_view holds. */
#define SB_VIEW_MAX 40

/**
 * A view being assembled by sb_view_add() and the helpers below: pass `bind` as
 * sb_limits.view. The binds point into the struct itself, so it must outlive the run
 * and must not be copied. If an addition fails, the view is poisoned: its last bind
 * names the empty path, and a run given it fails to start (SB_ERROR).
 */
typedef struct sb_view {
    sb_bind bind[SB_VIEW_MAX + 2]; /**< the binds, ended by a NULL from */
    int n;                         /**< how many */
    int failed;                    /**< an addition failed (too many binds or too long paths) */
    size_t used;                   /**< bytes of text in use */
    char text[SB_VIEW_MAX * 600];  /**< the paths' copies */
} sb_view;

/**
 * Empties a view.
 * @param[out] v the view
 */
void sb_view_init(sb_view *v);

/**
 * Adds one bind to a view, copying the paths. A second bind to the same place is merged
 * into the first (writable if either is).
 * @param[in,out] v        the view
 * @param[in]     from     the host path
 * @param[in]     to       where the child sees it, or NULL for the same path
 * @param[in]     writable 1 to let the child write there
 * @return 0, or -1 when it does not fit (the view is then poisoned)
 */
int sb_view_add(sb_view *v, const char *from, const char *to, int writable);

/**
 * Adds what a program outside the system folders needs: the folder two levels above
 * its real path (its installation, /opt/cuda for /opt/cuda/bin/nvcc), read-only.
 * Nothing for a program under /usr, /bin, /sbin or /lib*, which every view holds.
 * @param[in,out] v    the view
 * @param[in]     tool the program's path, or NULL for none
 * @return 0, or -1 when its path cannot be resolved or does not fit
 */
int sb_view_add_tool(sb_view *v, const char *tool);

/**
 * The view of one compiler command of the grader: the kit's common/ and every lab's
 * harness/ (harness files include each other's by relative path), read-only; the
 * folder of the submitted and `uses` files, read-only; the compiler's output folder,
 * writable; the compiler's installation (sb_view_add_tool()) and the kit's library.
 * @param[out] v        the view
 * @param[in]  kit      the kit's folder (absolute)
 * @param[in]  sources  the folder of the student's file and the uses files
 * @param[in]  out_dir  the compiler's output folder
 * @param[in]  compiler the compiler's path
 * @param[in]  library  the kit's built library, or NULL
 * @return 0, or -1 when a path does not fit (the view is then poisoned)
 */
int sb_view_compile(sb_view *v, const char *kit, const char *sources, const char *out_dir, const char *compiler,
                    const char *library);

/**
 * The view of one run of a runner: the runner's folder, read-only, and the run folder
 * (request, reply, logs), writable in GPU mode (ncu's and compute-sanitizer's logs),
 * read-only otherwise. In GPU mode also /sys, read-only (the CUDA driver reads the
 * PCI topology there), and the installations of the tools (ncu, compute-sanitizer).
 * @param[out] v       the view
 * @param[in]  runner  the runner's path
 * @param[in]  run_dir the run folder, the child's working directory
 * @param[in]  gpu     1 for a GPU run
 * @param[in]  tools   the programs the run uses besides the runner (NULL entries are skipped)
 * @param[in]  ntools  how many entries tools has
 * @return 0, or -1 when a path does not fit (the view is then poisoned)
 */
int sb_view_run(sb_view *v, const char *runner, const char *run_dir, int gpu, const char *const *tools, int ntools);

#endif
