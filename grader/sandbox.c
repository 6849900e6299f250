/* Runs an untrusted program in its own process group, with a wall-clock timeout and resource limits. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/seccomp.h>

#include "kit_jail.h"
#include "kit_timer.h"
#include "sandbox.h"

#ifndef MOUNT_ATTR_RDONLY /* glibc before 2.36 lacks them; these are Linux 5.12's */
#define MOUNT_ATTR_RDONLY 0x00000001
#define MOUNT_ATTR_NOSUID 0x00000002
struct mount_attr {
    uint64_t attr_set, attr_clr, propagation, userns_fd;
};
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif

static void set_limit(int resource, rlim_t value)
{
    struct rlimit r = {value, value};
    setrlimit(resource, &r);
}

/* Opens path (or /dev/null) onto fd; returns -1 on failure. */
static int redirect(int fd, const char *path, int flags)
{
    int f = open(path ? path : "/dev/null", flags | O_CLOEXEC, 0600);
    if (f < 0)
        return -1;
    if (dup2(f, fd) < 0)
        return -1;
    close(f);
    return 0;
}

/* The process group of the child now running, for the signal handler; 0 when none runs. */
static volatile sig_atomic_t running_group;

static void on_signal(int sig)
{
    if (running_group > 0)
        kill(-(pid_t)running_group, SIGKILL);
    signal(sig, SIG_DFL);
    raise(sig);
}

void sb_kill_on_signal(void)
{
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
}

/* ---- processes, as /proc lists them ------------------------------------------ */

/* What walk_proc() reads about one process from /proc/PID/status. */
typedef struct proc_entry {
    pid_t pid;
    long ppid;    /* its parent, -1 if unknown */
    long uid;     /* its real user, -1 if unknown */
    long threads; /* its threads, what RLIMIT_NPROC counts */
    int zombie;   /* it has ended and waits to be reaped: nothing left to kill */
} proc_entry;

/* Calls visit on every process in /proc; returns -1 when /proc cannot be read. */
static int walk_proc(void (*visit)(const proc_entry *p, void *ctx), void *ctx)
{
    DIR *d = opendir("/proc");
    if (!d)
        return -1;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char path[300], line[256];
        snprintf(path, sizeof path, "/proc/%s/status", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue; /* it ended meanwhile */
        proc_entry p = {(pid_t)atoi(e->d_name), -1, -1, 1, 0};
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "PPid:", 5) == 0)
                p.ppid = strtol(line + 5, NULL, 10);
            else if (strncmp(line, "Uid:", 4) == 0)
                p.uid = strtol(line + 4, NULL, 10);
            else if (strncmp(line, "Threads:", 8) == 0)
                p.threads = strtol(line + 8, NULL, 10);
            else if (strncmp(line, "State:", 6) == 0)
                p.zombie = strchr(line, 'Z') != NULL;
        }
        fclose(f);
        visit(&p, ctx);
    }
    closedir(d);
    return 0;
}

/* What the visitors below look for (uid), and what they found (count). */
typedef struct proc_query {
    long uid;
    long count;
} proc_query;

static void count_threads(const proc_entry *p, void *ctx)
{
    proc_query *q = ctx;
    if (p->uid == q->uid)
        q->count += p->threads;
}

long sb_count_tasks(unsigned uid)
{
    proc_query q = {(long)uid, 0};
    return walk_proc(count_threads, &q) == 0 ? q.count : -1;
}

static void kill_if_child(const proc_entry *p, void *ctx)
{
    if (p->ppid == *(const long *)ctx)
        kill(p->pid, SIGKILL);
}

/* Kills and reaps every child process of ours (the run's leftovers, re-parented to us as subreaper). */
static void sweep_children(void)
{
    long me = (long)getpid();
    for (int round = 0; round < 100000; round++) {
        while (waitpid(-1, NULL, WNOHANG) > 0)
            ;
        if (waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD)
            return;
        walk_proc(kill_if_child, &me);
        struct timespec nap = {0, 1000 * 1000};
        nanosleep(&nap, NULL);
    }
}

static void kill_if_user(const proc_entry *p, void *ctx)
{
    proc_query *q = ctx;
    if (p->uid == q->uid && !p->zombie) {
        kill(p->pid, SIGKILL);
        q->count++;
    }
}

/* Kills every process of user uid; returns 0 once none is left, -1 if some outlived a second of tries. */
static int kill_user(unsigned uid)
{
    for (int round = 0; round < 1000; round++) {
        proc_query q = {(long)uid, 0};
        if (walk_proc(kill_if_user, &q) != 0)
            return -1;
        if (q.count == 0)
            return 0;
        struct timespec nap = {0, 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    return -1;
}

/* ---- the memory limit ------------------------------------------------------- */

/* Does the last 64 KiB of the file at path hold any of the NULL-terminated words? */
static int file_mentions(const char *path, const char *const *words)
{
    char text[1 << 16];
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : 0;
    fseek(f, size > (long)sizeof text - 1 ? size - (long)sizeof text + 1 : 0, SEEK_SET);
    size_t got = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    for (size_t i = 0; i < got; i++)
        if (text[i] == '\0')
            text[i] = ' '; /* so that strstr reads past binary output */
    text[got] = '\0';
    for (; *words; words++)
        if (strstr(text, *words))
            return 1;
    return 0;
}

int sb_memory_exceeded(const sb_result *res, const sb_limits *lim, const char *stderr_path)
{
    /* What programs print when an allocation fails: C++, strerror(ENOMEM), kit_xmalloc, LLVM (nvcc's cicc). */
    static const char *const words[] = {"std::bad_alloc", "Cannot allocate memory", "out of memory allocating",
                                        "LLVM ERROR: out of memory", NULL};
    if (lim->mem_bytes <= 0 || res->kind == SB_TIMEOUT || res->kind == SB_ERROR)
        return 0;
    if (res->kind == SB_EXITED && res->code == 0)
        return 0;
    if (res->kind == SB_EXITED && res->code == SB_EXIT_NOMEM)
        return 1;
    if ((double)res->max_rss_kb * 1024.0 >= 0.9 * (double)lim->mem_bytes)
        return 1;
    return stderr_path && file_mentions(stderr_path, words);
}

/* ---- a user id for each grader ---------------------------------------------- */

/* The folder of the uid locks, made if missing: it must be root's alone, or a user could hold or fake a lock. */
static const char *lock_folder(char *why, size_t len)
{
    struct stat st;
    if (geteuid() != 0) {
        snprintf(why, len, "only root can run submissions under a user id of their own");
        return NULL;
    }
    const char *dir = "/tmp/kit-grader-locks"; /* only where there is no /run/lock, so that all graders agree */
    if (stat("/run/lock", &st) == 0 && S_ISDIR(st.st_mode))
        dir = "/run/lock/kit-grader";
    if (mkdir(dir, 0700) == 0)
        chmod(dir, 0700); /* whatever the umask took away */
    else if (errno != EEXIST) {
        snprintf(why, len, "cannot make %s: %s", dir, strerror(errno));
        return NULL;
    }
    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != 0 || (st.st_mode & 07777) != 0700) {
        snprintf(why, len, "%s must be a folder of root's with mode 0700 (not a link); remove it to have it remade",
                 dir);
        return NULL;
    }
    return dir;
}

/* Locks dir/k; returns its descriptor, or -1 with errno (EWOULDBLOCK: another grader holds it). */
static int lock_one(const char *dir, unsigned k)
{
    char path[64];
    snprintf(path, sizeof path, "%s/%u", dir, k);
    int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

int sb_uid_lock(unsigned k, char *why, size_t len)
{
    const char *dir = lock_folder(why, len);
    if (!dir)
        return -1;
    int fd = -1;
    errno = EINVAL; /* no such lock */
    if (k < SB_UID_COUNT)
        fd = lock_one(dir, k);
    if (fd < 0 && errno == EWOULDBLOCK)
        snprintf(why, len, "uid %u is held by another grader", SB_UID_BASE + k);
    else if (fd < 0)
        snprintf(why, len, "cannot lock %s/%u: %s", dir, k, strerror(errno));
    return fd;
}

/* Opens dir/name and waits for a flock of `how` on it; returns the descriptor, or -1. */
static int flock_wait(const char *dir, const char *name, int how)
{
    char path[80];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    while (fd >= 0 && flock(fd, how) != 0) {
        if (errno != EINTR) {
            close(fd);
            return -1;
        }
    }
    return fd;
}

int sb_gpu_lock(int profiler)
{
    char why[200];
    const char *dir = lock_folder(why, sizeof why);
    if (!dir)
        return -1;
    /* The turnstile: a profiler holds it while it waits for the runs in progress to end, so that no
       new run starts meanwhile; a plain run passes through it (takes and drops it) before it joins. */
    int turn = flock_wait(dir, "gpu-turnstile", LOCK_EX);
    if (turn < 0)
        return -1;
    if (!profiler)
        close(turn);
    int fd = flock_wait(dir, "gpu", profiler ? LOCK_EX : LOCK_SH);
    if (profiler)
        close(turn);
    return fd;
}

int sb_uid_acquire(unsigned *uid, char *why, size_t len)
{
    const char *dir = lock_folder(why, len);
    if (!dir)
        return -1;
    for (unsigned k = 0; k < SB_UID_COUNT; k++) {
        int fd = lock_one(dir, k); /* kept open, unused, until this process ends: that is the lock */
        if (fd < 0 && errno == EWOULDBLOCK)
            continue;
        if (fd < 0) {
            snprintf(why, len, "cannot lock %s/%u: %s", dir, k, strerror(errno));
            return -1;
        }
        if (kill_user(SB_UID_BASE + k) != 0) { /* what a grader that died left running */
            snprintf(why, len, "processes of uid %u would not die", SB_UID_BASE + k);
            close(fd);
            return -1;
        }
        *uid = SB_UID_BASE + k;
        return 0;
    }
    snprintf(why, len, "all %u grader user ids are taken", SB_UID_COUNT);
    return -1;
}

/* ---- the outer seccomp filter ----------------------------------------------- */

/* Kills the process on calls that compiling or running a lab never needs and that reach past the sandbox. */
static int load_outer_filter(void)
{
    static const long killed[] = {
        SYS_ptrace, SYS_process_vm_readv, SYS_process_vm_writev,                   /* other processes' memory */
        SYS_mount, SYS_umount2, SYS_pivot_root, SYS_chroot, SYS_unshare, SYS_setns, /* the sandbox's walls */
        SYS_kexec_load, SYS_init_module, SYS_finit_module, SYS_delete_module,       /* the kernel itself */
        SYS_bpf, SYS_perf_event_open, SYS_userfaultfd,                             /* its usual attack paths */
        SYS_keyctl, SYS_add_key, SYS_request_key,                                  /* its key rings */
        SYS_io_uring_setup, SYS_io_uring_enter, SYS_io_uring_register,             /* calls a filter never sees */
        SYS_reboot, SYS_swapon, SYS_swapoff, SYS_acct, SYS_settimeofday, SYS_clock_settime, /* the machine */
    };
    /* clone(2) with one of these would make namespaces, as unshare does (CLONE_NEWTIME only works with clone3). */
    const unsigned new_namespace = CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER |
                                   CLONE_NEWPID | CLONE_NEWNET;
    kit_filter f;
    kit_filter_begin(&f);
    for (size_t i = 0; i < sizeof killed / sizeof killed[0]; i++)
        kit_filter_on(&f, killed[i], SECCOMP_RET_KILL_PROCESS);
    /* Sockets: AF_UNIX (nvcc, ncu) and NETLINK_ROUTE (ncu's target lists the interfaces); nothing else. */
    kit_filter_on_arg(&f, SYS_socket, 0, KIT_ARG_EQ, AF_UNIX, SECCOMP_RET_ALLOW);
    kit_filter_on_arg(&f, SYS_socket, 2, KIT_ARG_NE, NETLINK_ROUTE, SECCOMP_RET_KILL_PROCESS);
    kit_filter_on_arg(&f, SYS_socket, 0, KIT_ARG_NE, AF_NETLINK, SECCOMP_RET_KILL_PROCESS);
    kit_filter_on_arg(&f, SYS_clone, 0, KIT_ARG_ANY_BITS, new_namespace, SECCOMP_RET_KILL_PROCESS);
    /* clone3's flags lie in memory a filter cannot read; glibc falls back to clone when it is missing. */
    kit_filter_on(&f, SYS_clone3, SECCOMP_RET_ERRNO | ENOSYS);
    kit_filter_end(&f, SECCOMP_RET_ALLOW);
    return kit_filter_load(&f);
}

/* ---- namespaces --------------------------------------------------------------- */

/* The parts of isolation this kernel allows, found once by probe_kernel(). */
enum {
    CAN_NS = 1,      /* mount, pid, ipc, uts and network namespaces */
    CAN_PROC = 2,    /* a fresh /proc */
    CAN_RDONLY = 4,  /* the file system read-only but for the writable paths */
    CAN_TMPFS = 8,   /* private /tmp and /dev/shm, and the hidden paths covered */
    CAN_SECCOMP = 16 /* the outer seccomp filter */
};

static int write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* In a new user namespace: maps this user and group to themselves, so files keep their owners. */
static int map_self(unsigned uid, unsigned gid)
{
    char map[64];
    if (write_file("/proc/self/setgroups", "deny") != 0)
        return -1;
    snprintf(map, sizeof map, "%u %u 1", uid, uid);
    if (write_file("/proc/self/uid_map", map) != 0)
        return -1;
    snprintf(map, sizeof map, "%u %u 1", gid, gid);
    return write_file("/proc/self/gid_map", map);
}

/* Between the sandbox and pid 1: waits for pid 1, then ends as it did, so that sb_run sees how the program ended. */
static void end_as(pid_t pid1)
{
    int status;
    while (waitpid(pid1, &status, 0) < 0)
        if (errno != EINTR)
            _exit(127);
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, sig);
        signal(sig, SIG_DFL);
        sigprocmask(SIG_UNBLOCK, &set, NULL);
        raise(sig);
    }
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 127);
}

/*
 * In the child: makes the namespaces and forks the process that is pid 1 of
 * the new pid namespace, in which it returns 0. When pid 1 ends, the kernel
 * kills everything else in its namespace. Not root: the namespaces are made
 * inside a user namespace of our own, where this user is itself.
 */
static int enter_namespaces(void)
{
    int flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET;
    unsigned uid = (unsigned)getuid(), gid = (unsigned)getgid();
    if (geteuid() != 0)
        flags |= CLONE_NEWUSER;
    if (unshare(flags) != 0)
        return -1;
    if ((flags & CLONE_NEWUSER) && map_self(uid, gid) != 0)
        return -1;
    pid_t pid1 = fork();
    if (pid1 < 0)
        return -1;
    if (pid1 == 0) /* should the process in between die, so does pid 1 */
        return prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    end_as(pid1);
    return -1; /* not reached */
}

static int fresh_proc(const sb_limits *lim)
{
    (void)lim;
    return mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
}

static int set_mount_attr(const char *path, uint64_t set, uint64_t clear)
{
    struct mount_attr attr = {.attr_set = set, .attr_clr = clear};
    return (int)syscall(SYS_mount_setattr, AT_FDCWD, path, AT_RECURSIVE, &attr, sizeof attr);
}

/* Makes every mount read-only (and set-user-ID bits inert), then each writable path writable again. */
static int read_only_except(const sb_limits *lim)
{
    if (set_mount_attr("/", MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID, 0) != 0)
        return -1;
    for (const char *const *w = lim->writable; w && *w; w++)
        if (mount(*w, *w, NULL, MS_BIND | MS_REC, NULL) != 0 || set_mount_attr(*w, 0, MOUNT_ATTR_RDONLY) != 0)
            return -1;
    return 0;
}

/* Covers path with an empty read-only folder (or a folder's worth of nothing: /dev/null over a file). */
static int hide_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return errno == ENOENT ? 0 : -1; /* nothing there to see */
    if (S_ISDIR(st.st_mode))
        return mount("tmpfs", path, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0555");
    return mount("/dev/null", path, NULL, MS_BIND, NULL);
}

/* Is path inside the folder dir (or dir itself)? */
static int inside(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

/* mkdir -p for a path inside the fresh tmpfs (as root, before the user changes). */
static int make_path(const char *path)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", path);
    for (char *slash = strchr(p + 1, '/');; slash = strchr(slash + 1, '/')) {
        if (slash)
            *slash = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST)
            return -1;
        if (!slash)
            return 0;
        *slash = '/';
    }
}

/*
 * Empty, private /tmp and /dev/shm; the kept paths that lie inside them (a kit checked out under
 * /tmp) bound back at their own paths, with what was mounted inside them; then the hidden paths,
 * last, so that they win over any other mount.
 */
static int private_tmp_and_hide(const sb_limits *lim)
{
    enum { MAX_KEEP = 8 };
    int fd[MAX_KEEP], n = 0, rc = 0;
    const char *path[MAX_KEEP];
    for (const char *const *k = lim->keep; k && *k && n < MAX_KEEP; k++)
        if (inside(*k, "/tmp") || inside(*k, "/dev/shm")) {
            path[n] = *k;
            if ((fd[n] = open(*k, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
                return -1;
            n++;
        }
    char opts[64];
    snprintf(opts, sizeof opts, "size=%lld,mode=1777", lim->tmp_bytes > 0 ? lim->tmp_bytes : 16LL << 20);
    if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0)
        rc = -1;
    if (rc == 0 && access("/dev/shm", F_OK) == 0 && mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0)
        rc = -1;
    for (int i = 0; i < n; i++) {
        char from[64];
        snprintf(from, sizeof from, "/proc/self/fd/%d", fd[i]);
        if (rc == 0 && (make_path(path[i]) != 0 || mount(from, path[i], NULL, MS_BIND | MS_REC, NULL) != 0))
            rc = -1;
        close(fd[i]);
    }
    for (const char *const *h = lim->hide; rc == 0 && h && *h; h++)
        if (hide_path(*h) != 0)
            rc = -1;
    return rc;
}

/*
 * In pid 1: makes the mount tree private, then sets up each part in can.
 * In a run, a part that fails fails the run (the probe said it works); in
 * the probe (done not NULL), it only leaves that part's bit out of *done.
 * The fresh /proc comes after the read-only step, so that it stays
 * writable: the CUDA driver writes there, and with /proc read-only
 * cudaMalloc fails ("OS call failed or operation not supported on this OS").
 */
static int setup_mounts(const sb_limits *lim, unsigned can, unsigned *done)
{
    static const struct {
        unsigned part;
        int (*set_up)(const sb_limits *lim);
    } parts[] = {{CAN_RDONLY, read_only_except}, {CAN_PROC, fresh_proc}, {CAN_TMPFS, private_tmp_and_hide}};
    if (!(can & (CAN_PROC | CAN_RDONLY | CAN_TMPFS)))
        return 0; /* the kernel lets us make namespaces but not mount in them */
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        return done ? 0 : -1;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (!(can & parts[i].part))
            continue;
        if (parts[i].set_up(lim) == 0) {
            if (done)
                *done |= parts[i].part;
        } else if (!done) {
            return -1;
        }
    }
    return 0;
}

/* Tries every part of isolation in a throwaway child (and, past fork, its pid 1); returns the CAN_ bits that worked. */
static unsigned probe_kernel(void)
{
    int fds[2];
    unsigned done = 0;
    if (pipe2(fds, O_CLOEXEC) != 0)
        return 0;
    pid_t pid = fork();
    if (pid == 0) {
        static const sb_limits nothing; /* no hidden or writable paths */
        if (enter_namespaces() == 0) {
            done |= CAN_NS;
            setup_mounts(&nothing, CAN_PROC | CAN_RDONLY | CAN_TMPFS, &done);
        }
        if (load_outer_filter() == 0)
            done |= CAN_SECCOMP;
        ssize_t ignored = write(fds[1], &done, sizeof done);
        (void)ignored;
        _exit(0);
    }
    close(fds[1]);
    if (pid < 0 || read(fds[0], &done, sizeof done) != (ssize_t)sizeof done)
        done = 0;
    close(fds[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    return done;
}

/* What probe_kernel() found, asked once. */
static unsigned kernel_can(void)
{
    static int probed;
    static unsigned can;
    if (!probed) {
        can = probe_kernel();
        probed = 1;
    }
    return can;
}

const char *sb_isolation_report(void)
{
    static char line[512];
    unsigned can = kernel_can();
    int root = geteuid() == 0;
    if (!(can & CAN_NS))
        snprintf(line, sizeof line, "%s",
                 root ? "sandbox: the kernel refuses namespaces (a container without CAP_SYS_ADMIN?): runners share "
                        "the host's /tmp, /dev/shm, processes and files"
                      : "sandbox: not root and no user namespaces: runners share this user's files, /tmp and "
                        "processes");
    else
        snprintf(line, sizeof line, "sandbox: runners isolated in namespaces of their own%s%s%s%s",
                 root ? "" : " (not root: in a user namespace, as this user)",
                 can & CAN_PROC ? "" : "; no fresh /proc: they see the host's processes",
                 can & CAN_RDONLY ? "" : "; no read-only file system: they write wherever their user may",
                 can & CAN_TMPFS ? "" : "; no private /tmp: they share /tmp and /dev/shm and see hidden folders");
    if (!(can & CAN_SECCOMP))
        strncat(line, "; no seccomp filter: every system call is open to them", sizeof line - strlen(line) - 1);
    return line;
}

/* ---- one run ---------------------------------------------------------------- */

static void apply_limits(const sb_limits *lim, long nproc_limit)
{
    if (lim->cpu_s > 0) { /* SIGXCPU at the limit; the kernel's SIGKILL a second later, for a runner that ignores it */
        struct rlimit r = {(rlim_t)lim->cpu_s, (rlim_t)lim->cpu_s + 1};
        setrlimit(RLIMIT_CPU, &r);
    }
    if (lim->file_bytes > 0)
        set_limit(RLIMIT_FSIZE, (rlim_t)lim->file_bytes);
    if (nproc_limit > 0)
        set_limit(RLIMIT_NPROC, (rlim_t)nproc_limit);
    if (lim->mem_bytes > 0)
        set_limit(RLIMIT_AS, (rlim_t)lim->mem_bytes);
}

/* Root: becomes the sandbox user (and group, with no others) for good; returns -1 if that cannot be done. */
static int drop_root(const sb_limits *lim)
{
    if (lim->uid == 0 || geteuid() != 0)
        return 0;
    if (setgroups(0, NULL) != 0 || setgid(lim->gid) != 0 || setuid(lim->uid) != 0)
        return -1;
    if (setuid(0) == 0) { /* root must be gone for good */
        errno = EPERM;
        return -1;
    }
    return 0;
}

/* In the child: set everything up, then exec. The grader is single-threaded, so library calls are safe after fork. */
static void child(char *const argv[], const sb_limits *lim, long nproc_limit, unsigned can, int errpipe)
{
    static char *const empty_env[] = {NULL};
    char here[4096];
    setpgid(0, 0);
    set_limit(RLIMIT_CORE, 0);
    if (redirect(0, lim->stdin_path, O_RDONLY) || redirect(1, lim->stdout_path, O_WRONLY | O_CREAT | O_TRUNC) ||
        redirect(2, lim->stderr_path, O_WRONLY | O_CREAT | O_TRUNC))
        goto fail;
    if (lim->trace_fd > 0 && dup2(lim->trace_fd, 3) < 0) /* KIT_TRACE_FD; dup2 clears close-on-exec */
        goto fail;
    int isolated = lim->isolate && (can & CAN_NS);
    if (isolated && (enter_namespaces() != 0 || setup_mounts(lim, can, NULL) != 0))
        goto fail;
    /* Isolated, the working directory is looked up again: the inherited one still points at the mounts as they were. */
    const char *dir = lim->cwd;
    if (!dir && isolated)
        dir = getcwd(here, sizeof here) ? here : "/";
    if (dir && chdir(dir) != 0)
        goto fail;
    apply_limits(lim, nproc_limit);
    if (lim->no_network && !isolated && geteuid() == 0)
        (void)unshare(CLONE_NEWNET); /* best effort, see sb_limits */
    if (drop_root(lim) != 0)
        goto fail;
    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    if (lim->seccomp && (can & CAN_SECCOMP) && load_outer_filter() != 0)
        goto fail;
    execve(argv[0], argv, lim->envp ? lim->envp : empty_env);
fail:;
    int e = errno;
    ssize_t ignored = write(errpipe, &e, sizeof e);
    (void)ignored;
    _exit(127);
}

/* Waits for the child until the deadline, when it kills the child's group; returns 1 if it did. */
static int wait_child(pid_t pid, double start, double timeout_s, int *status, struct rusage *ru)
{
    for (;;) {
        pid_t w = wait4(pid, status, WNOHANG, ru);
        if (w == pid)
            return 0;
        if (w < 0 && errno != EINTR) {
            *status = 0;
            return 0;
        }
        if (kit_now_s() - start >= timeout_s) {
            kill(-pid, SIGKILL);
            wait4(pid, status, 0, ru);
            return 1;
        }
        struct timespec nap = {0, 2 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
}

int sb_run(char *const argv[], const sb_limits *lim, sb_result *res)
{
    int pipefd[2];
    long nproc_limit = 0;
    unsigned can = lim->isolate || lim->seccomp ? kernel_can() : 0;
    if (lim->nproc > 0) { /* RLIMIT_NPROC counts every process of the child's real user */
        unsigned user = lim->uid != 0 && geteuid() == 0 ? lim->uid : (unsigned)getuid();
        long now = sb_count_tasks(user);
        nproc_limit = (now > 0 ? now : 0) + lim->nproc;
    }
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    if (pipe2(pipefd, O_CLOEXEC) != 0)
        return -1;
    double start = kit_now_s();
    pid_t pid = fork();
    if (pid < 0) {
        close(pipefd[0]);
        close(pipefd[1]);
        return -1;
    }
    if (pid == 0)
        child(argv, lim, nproc_limit, can, pipefd[1]);
    setpgid(pid, pid); /* also here, so the group exists before we might kill it */
    running_group = pid;
    close(pipefd[1]);

    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    int timed_out = wait_child(pid, start, lim->timeout_s, &status, &ru);
    kill(-pid, SIGKILL); /* whatever the child left behind in its group */
    sweep_children();    /* and whatever left the group */
    running_group = 0;
    res->seconds = kit_now_s() - start;
    res->max_rss_kb = ru.ru_maxrss;

    int exec_errno = 0;
    ssize_t got = read(pipefd[0], &exec_errno, sizeof exec_errno);
    close(pipefd[0]);
    if (got == (ssize_t)sizeof exec_errno) {
        res->kind = SB_ERROR;
        res->code = exec_errno;
    } else if (timed_out) {
        res->kind = SB_TIMEOUT;
        res->code = 0;
    } else if (WIFSIGNALED(status)) {
        res->kind = SB_SIGNALED;
        res->code = WTERMSIG(status);
        /* killed at the hard CPU limit (SIGXCPU ignored): the CPU time limit all the same */
        double cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
        if (res->code == SIGKILL && lim->cpu_s > 0 && cpu >= (double)lim->cpu_s)
            res->code = SIGXCPU;
    } else {
        res->kind = SB_EXITED;
        res->code = WEXITSTATUS(status);
    }
    return 0;
}

void sb_describe(const sb_result *res, const sb_limits *lim, char *buf, unsigned len)
{
    if (lim->mem_bytes > 0 && sb_memory_exceeded(res, lim, lim->stderr_path)) {
        snprintf(buf, len, "memory limit %lld MiB exceeded", lim->mem_bytes >> 20);
        return;
    }
    switch (res->kind) {
    case SB_EXITED: snprintf(buf, len, "exit %d", res->code); break;
    case SB_TIMEOUT: snprintf(buf, len, "timeout after %g s", lim->timeout_s); break;
    case SB_ERROR: snprintf(buf, len, "could not start: %s", strerror(res->code)); break;
    case SB_SIGNALED:
        if (res->code == SIGXCPU)
            snprintf(buf, len, "timeout after %ld s of CPU time", lim->cpu_s);
        else if (res->code == SIGXFSZ)
            snprintf(buf, len, "output too large (over %lld bytes)", lim->file_bytes);
        else if (res->code == SIGSYS && lim->seccomp)
            snprintf(buf, len, "forbidden system call (signal %d: a seccomp filter killed it)", SIGSYS);
        else
            snprintf(buf, len, "crash (signal %d, %s)", res->code, strsignal(res->code));
        break;
    }
}
