/* Runs an untrusted program in its own process group, with a wall-clock timeout, limits on its whole process tree, and a view of the file system assembled for it. */
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
    if (res->mem_limit_hit)
        return 1;
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

/* ---- what a child was doing when it could not start ---------------------------- */

/* In the child, before exec: the step under way, sent to the grader with errno if it fails (sb_result.step). */
static char child_step[SB_STEP_LEN];

static void step(const char *what, const char *path)
{
    snprintf(child_step, sizeof child_step, "%s%s%s", what, path ? " " : "", path ? path : "");
}

/* ---- namespaces --------------------------------------------------------------- */

/* The parts of isolation this kernel allows, found once by probe_kernel(). */
enum {
    CAN_NS = 1,      /* mount, pid, ipc, uts and network namespaces */
    CAN_VIEW = 2,    /* a view of the file system as the child's root (build_view) */
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

/* ---- the view: all an isolated child sees of the file system ------------------ */

/*
 * Where the view is assembled, in the child's own mount namespace, before it becomes the child's
 * root: a fresh tmpfs mounted over /tmp (every host has one), after every host path the view takes
 * has been opened, so that a path inside /tmp is not lost under it.
 */
#define NEW_ROOT "/tmp"

/* The system folders of every view, read-only; a symbolic link among them (merged /usr) stays a link. */
/* Where NVIDIA installs its tools outside the CUDA Toolkit (Nsight Compute); bound for GPU runs that use a tool. */
#define NVIDIA_TOOLS_DIR "/opt/nvidia"
static const char *const SYSTEM_DIRS[] = {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};
/* From /etc, what the dynamic loader and the compilers read (strace of g++ and nvcc); no passwd, shadow or hosts. */
static const char *const ETC_FILES[] = {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives"};
/* The devices of every view; /dev/nvidia* join them where they exist. */
static const char *const DEVICES[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"};

/* One mount of a view: a host file or folder (opened before anything is covered), or a fresh tmpfs. */
typedef struct view_item {
    const char *to; /* where the child sees it */
    int fd;         /* the host path, opened O_PATH; -1 for a fresh tmpfs */
    int writable;   /* left writable (else read-only) */
} view_item;

/* Every mount of one view, in the order they are made. */
typedef struct view_plan {
    view_item item[SB_VIEW_MAX + 64];
    int n;
    char devices[32][272]; /* the names of the /dev/nvidia* found */
    int ndevices;
} view_plan;

/* Adds a host path to the plan; a missing one is an error when required, else left out. */
static int plan_bind(view_plan *p, const char *from, const char *to, int writable, int required)
{
    if (p->n == (int)(sizeof p->item / sizeof p->item[0])) {
        errno = E2BIG;
        return -1;
    }
    int fd = open(from, O_PATH | O_CLOEXEC);
    if (fd < 0 && required)
        step("opening the view's", from);
    if (fd < 0)
        return required ? -1 : 0;
    p->item[p->n++] = (view_item){to ? to : from, fd, writable};
    return 0;
}

static int plan_tmpfs(view_plan *p, const char *to)
{
    p->item[p->n++] = (view_item){to, -1, 1};
    return 0;
}

/* The GPU's devices, /dev/nvidia0, /dev/nvidiactl, /dev/nvidia-uvm, /dev/nvidia-caps/, ..., where they exist. */
static int plan_gpu_devices(view_plan *p)
{
    DIR *d = opendir("/dev");
    int rc = 0;
    for (struct dirent *e; d && rc == 0 && (e = readdir(d));) {
        if (strncmp(e->d_name, "nvidia", 6) != 0 || p->ndevices == (int)(sizeof p->devices / sizeof p->devices[0]))
            continue;
        char *name = p->devices[p->ndevices++];
        snprintf(name, sizeof p->devices[0], "/dev/%s", e->d_name);
        rc = plan_bind(p, name, NULL, 1, 0);
    }
    if (d)
        closedir(d);
    return rc;
}

/* How deep a path lies (its slashes): a bind inside another is made after it. */
static int depth(const char *path)
{
    int n = 0;
    for (; *path; path++)
        n += *path == '/';
    return n;
}

/* Everything the view holds but the system folders' links, /proc and /etc's made files; outer mounts first. */
static int plan_view(const sb_limits *lim, view_plan *p)
{
    memset(p, 0, sizeof *p);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < sizeof SYSTEM_DIRS / sizeof SYSTEM_DIRS[0]; i++) {
        struct stat st;
        if (lstat(SYSTEM_DIRS[i], &st) == 0 && S_ISDIR(st.st_mode))
            rc = plan_bind(p, SYSTEM_DIRS[i], NULL, 0, 0);
    }
    for (size_t i = 0; rc == 0 && i < sizeof ETC_FILES / sizeof ETC_FILES[0]; i++)
        rc = plan_bind(p, ETC_FILES[i], NULL, 0, 0);
    for (size_t i = 0; rc == 0 && i < sizeof DEVICES / sizeof DEVICES[0]; i++)
        rc = plan_bind(p, DEVICES[i], NULL, 1, 0); /* a device is written through, not changed */
    if (rc == 0)
        rc = plan_gpu_devices(p);
    if (rc == 0)
        rc = plan_tmpfs(p, "/tmp") | plan_tmpfs(p, "/dev/shm");
    for (const sb_bind *b = lim->view; rc == 0 && b && b->from; b++)
        rc = plan_bind(p, b->from, b->to, b->writable, 1);
    for (int i = 1; i < p->n; i++) /* insertion sort by depth, stable: a folder before what lies in it */
        for (int j = i; j > 0 && depth(p->item[j - 1].to) > depth(p->item[j].to); j--) {
            view_item t = p->item[j];
            p->item[j] = p->item[j - 1];
            p->item[j - 1] = t;
        }
    return rc;
}

/*
 * mkdir -p of the folders above path (as root, in the view's tmpfs or inside a bind that has them).
 * The view's own folders on the way to a bind (/work, the kit's folder, ...) can be passed but not
 * listed (0711): they show no names, even the one the bind has.
 */
static int make_parents(const char *path)
{
    char p[4200];
    snprintf(p, sizeof p, "%s", path);
    for (char *slash = strchr(p + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        if (mkdir(p, 0711) != 0 && errno != EEXIST)
            return -1;
        *slash = '/';
    }
    return 0;
}

static int set_mount_attr(const char *path, uint64_t set, uint64_t clear)
{
    struct mount_attr attr = {.attr_set = set, .attr_clr = clear};
    return (int)syscall(SYS_mount_setattr, AT_FDCWD, path, AT_RECURSIVE, &attr, sizeof attr);
}

/* Makes one mount of the plan at its place under NEW_ROOT. */
static int place(const view_item *it, const sb_limits *lim)
{
    char at[4200], from[64], opts[64];
    struct stat st;
    snprintf(at, sizeof at, NEW_ROOT "%s", it->to);
    step("placing the view's", it->to);
    if (make_parents(at) != 0)
        return -1;
    if (it->fd < 0) {
        snprintf(opts, sizeof opts, "size=%lld,mode=1777", lim->tmp_bytes > 0 ? lim->tmp_bytes : 16LL << 20);
        if (mkdir(at, 0755) != 0 && errno != EEXIST)
            return -1;
        return mount("tmpfs", at, "tmpfs", MS_NOSUID | MS_NODEV, opts);
    }
    if (fstat(it->fd, &st) != 0)
        return -1;
    if (S_ISDIR(st.st_mode)) {
        if (mkdir(at, 0755) != 0 && errno != EEXIST)
            return -1;
    } else { /* a file's mount point is a file; O_RDONLY, since one inside a read-only bind already exists */
        int f = open(at, O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
        if (f < 0)
            return -1;
        close(f);
    }
    snprintf(from, sizeof from, "/proc/self/fd/%d", it->fd);
    if (mount(from, at, NULL, MS_BIND | MS_REC, NULL) != 0)
        return -1;
    return set_mount_attr(at, MOUNT_ATTR_NOSUID | (it->writable ? 0 : MOUNT_ATTR_RDONLY), 0);
}

/* Writes a small file of the view (its tmpfs is still writable). */
static int make_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    return close(fd) == 0 && n == (ssize_t)strlen(text) ? 0 : -1;
}

/* The view's own files: the system folders' links, /dev's links, a passwd and group of two users, /proc's mount point. */
static int make_files(const sb_limits *lim)
{
    char path[300], target[300], text[400];
    for (size_t i = 0; i < sizeof SYSTEM_DIRS / sizeof SYSTEM_DIRS[0]; i++) {
        ssize_t n = readlink(SYSTEM_DIRS[i], target, sizeof target - 1);
        if (n <= 0)
            continue; /* not a link (bound as a folder), or missing */
        target[n] = '\0';
        snprintf(path, sizeof path, NEW_ROOT "%s", SYSTEM_DIRS[i]);
        if (symlink(target, path) != 0)
            return -1;
    }
    static const char *const dev_links[][2] = {
        {"/proc/self/fd", "fd"}, {"/proc/self/fd/0", "stdin"}, {"/proc/self/fd/1", "stdout"}, {"/proc/self/fd/2", "stderr"}};
    for (size_t i = 0; i < sizeof dev_links / sizeof dev_links[0]; i++) {
        snprintf(path, sizeof path, NEW_ROOT "/dev/%s", dev_links[i][1]);
        if (symlink(dev_links[i][0], path) != 0)
            return -1;
    }
    unsigned uid = lim->uid && geteuid() == 0 ? lim->uid : (unsigned)getuid();
    unsigned gid = lim->uid && geteuid() == 0 ? lim->gid : (unsigned)getgid();
    /* getpwuid() of the child's user answers (some tools ask for a home folder), and no other user is named */
    snprintf(text, sizeof text, "root:x:0:0:root:/:/bin/sh\nsandbox:x:%u:%u:sandbox:/tmp:/bin/sh\n", uid, gid);
    if (make_file(NEW_ROOT "/etc/passwd", text) != 0)
        return -1;
    snprintf(text, sizeof text, "root:x:0:\nsandbox:x:%u:\n", gid);
    if (make_file(NEW_ROOT "/etc/group", text) != 0)
        return -1;
    return mkdir(NEW_ROOT "/proc", 0555);
}

/*
 * In pid 1: makes the view (plan_view) in a fresh tmpfs, with a fresh /proc, and makes it the root;
 * the old root is unmounted, so nothing else of the host can be reached. The tmpfs itself ends
 * read-only. Returns 0, or -1 with errno.
 */
static int build_view(const sb_limits *lim)
{
    view_plan plan;
    step("making its mounts private", NULL);
    int rc = mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
    if (rc == 0)
        rc = plan_view(lim, &plan);
    if (rc == 0)
        rc = mount("tmpfs", NEW_ROOT, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755");
    if (rc == 0) /* folders the child may list (the others on the way to a bind are 0711) */
        rc = mkdir(NEW_ROOT "/etc", 0755) | mkdir(NEW_ROOT "/dev", 0755);
    for (int i = 0; rc == 0 && i < plan.n; i++)
        rc = place(&plan.item[i], lim);
    int e = errno;
    for (int i = 0; i < plan.n; i++)
        if (plan.item[i].fd >= 0)
            close(plan.item[i].fd);
    errno = e;
    if (rc == 0)
        step("making its view's own files and /proc", NULL);
    /* the fresh /proc before the old root goes: in a user namespace the kernel lets us mount a proc
       only where one is already visible */
    if (rc != 0 || make_files(lim) != 0 ||
        mount("proc", NEW_ROOT "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0 || chdir(NEW_ROOT) != 0)
        return -1;
    step("making its view the root", NULL);
    /* pivot_root(".", "."): the old root ends up on top of the new one, and is then unmounted */
    if (syscall(SYS_pivot_root, ".", ".") == 0) {
        if (umount2(".", MNT_DETACH) != 0)
            return -1;
    } else if (mount(".", "/", NULL, MS_MOVE, NULL) != 0 || chroot(".") != 0) { /* where the root cannot pivot */
        return -1;
    }
    if (chdir("/") != 0)
        return -1;
    return mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL);
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
        static const sb_limits nothing; /* no binds */
        if (enter_namespaces() == 0) {
            done |= CAN_NS;
            if (build_view(&nothing) == 0)
                done |= CAN_VIEW;
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

int sb_views_work(void)
{
    return (kernel_can() & (CAN_NS | CAN_VIEW)) == (CAN_NS | CAN_VIEW);
}

/* ---- assembling views ------------------------------------------------------------ */

/* Copies s into the view's text; NULL when it does not fit. */
static const char *view_copy(sb_view *v, const char *s)
{
    size_t n = strlen(s) + 1;
    if (v->used + n > sizeof v->text)
        return NULL;
    char *at = v->text + v->used;
    memcpy(at, s, n);
    v->used += n;
    return at;
}

void sb_view_init(sb_view *v)
{
    v->n = 0;
    v->failed = 0;
    v->used = 0;
    v->bind[0] = (sb_bind){NULL, NULL, 0};
}

int sb_view_add(sb_view *v, const char *from, const char *to, int writable)
{
    if (v->failed)
        return -1;
    const char *place = to ? to : from;
    for (int i = 0; i < v->n; i++) {
        const char *other = v->bind[i].to ? v->bind[i].to : v->bind[i].from;
        if (strcmp(other, place) == 0 && strcmp(v->bind[i].from, from) == 0) {
            v->bind[i].writable |= writable;
            return 0;
        }
    }
    const char *f = v->n < SB_VIEW_MAX ? view_copy(v, from) : NULL, *t = f && to ? view_copy(v, to) : NULL;
    if (!f || (to && !t)) { /* poisoned: a run given this view fails to start rather than run without a bind */
        v->failed = 1;
        v->bind[v->n] = (sb_bind){"", NULL, 0};
        v->bind[v->n + 1] = (sb_bind){NULL, NULL, 0};
        return -1;
    }
    v->bind[v->n++] = (sb_bind){f, t, writable};
    v->bind[v->n] = (sb_bind){NULL, NULL, 0};
    return 0;
}

/* Is path inside the folder dir (or dir itself)? */
static int inside(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

int sb_view_add_tool(sb_view *v, const char *tool)
{
    char real[4096];
    if (!tool)
        return 0;
    if (!realpath(tool, real))
        return -1;
    for (size_t i = 0; i < sizeof SYSTEM_DIRS / sizeof SYSTEM_DIRS[0]; i++)
        if (inside(real, SYSTEM_DIRS[i]))
            return 0;
    for (int up = 0; up < 2; up++) { /* /opt/cuda/bin/nvcc: /opt/cuda */
        char *slash = strrchr(real, '/');
        if (slash && slash != real)
            *slash = '\0';
    }
    return sb_view_add(v, real, NULL, 0);
}

int sb_view_compile(sb_view *v, const char *kit, const char *sources, const char *out_dir, const char *compiler,
                    const char *library)
{
    char path[4400];
    sb_view_init(v);
    snprintf(path, sizeof path, "%s/common", kit);
    int rc = sb_view_add(v, path, NULL, 0);
    snprintf(path, sizeof path, "%s/labs", kit);
    DIR *d = opendir(path);
    for (struct dirent *e; d && (e = readdir(d));) {
        snprintf(path, sizeof path, "%s/labs/%s/harness", kit, e->d_name);
        struct stat st;
        if (e->d_name[0] != '.' && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            rc |= sb_view_add(v, path, NULL, 0);
    }
    if (d)
        closedir(d);
    rc |= sb_view_add(v, sources, NULL, 0);
    rc |= sb_view_add(v, out_dir, NULL, 1);
    if (sb_view_add_tool(v, compiler) != 0)
        rc = -1;
    if (library)
        rc |= sb_view_add(v, library, NULL, 0);
    return rc ? -1 : 0;
}

int sb_view_run(sb_view *v, const char *runner, const char *run_dir, int gpu, const char *const *tools, int ntools)
{
    char dir[4096];
    sb_view_init(v);
    snprintf(dir, sizeof dir, "%s", runner);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir)
        *slash = '\0';
    int rc = sb_view_add(v, dir, NULL, 0);
    rc |= sb_view_add(v, run_dir, NULL, gpu);
    if (gpu)
        rc |= sb_view_add(v, "/sys", NULL, 0);
    for (int i = 0; gpu && i < ntools; i++)
        if (sb_view_add_tool(v, tools[i]) != 0)
            rc = -1;
    /* NVIDIA's own tools' home: the CUDA Toolkit's ncu is a script that finds Nsight Compute in
       its toolkit's folder or here (seen 2026-12-06: "nsight-compute directory is not found under
       /usr/local/cuda-13.0/bin/../ or /opt/nvidia"). It holds NVIDIA's programs alone. */
    struct stat st;
    if (gpu && ntools > 0 && stat(NVIDIA_TOOLS_DIR, &st) == 0 && S_ISDIR(st.st_mode))
        rc |= sb_view_add(v, NVIDIA_TOOLS_DIR, NULL, 0);
    return rc ? -1 : 0;
}

/* ---- cgroups: limits for the whole tree ------------------------------------------ */

/* Where the runs' cgroups go, found once by cg_find(). */
static struct {
    int found;          /* cg_find() ran */
    int version;        /* 2, 1, or 0: none (limits per process) */
    char mem[1000];     /* the folder kit-grader of the memory hierarchy (v2: the only one) */
    char pids[1000];    /* the folder kit-grader of the pids hierarchy (v2: the same) */
} cg;

/* One run's cgroup. */
typedef struct cg_run {
    char mem[1100];  /* its folder in the memory hierarchy (v2: its only folder) */
    char pids[1100]; /* its folder in the pids hierarchy (v2: the same) */
} cg_run;

/* Reads a small file into buf; returns its length, or -1. */
static ssize_t read_small(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, len - 1);
    close(fd);
    buf[n > 0 ? n : 0] = '\0';
    return n;
}

/* The value after "key " on a line of the file at path ("oom_kill 3"); 0 when absent. */
static long long read_key(const char *path, const char *key)
{
    char text[2048];
    if (read_small(path, text, sizeof text) < 0)
        return 0;
    size_t n = strlen(key);
    for (char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (strncmp(line, key, n) == 0 && line[n] == ' ')
            return atoll(line + n + 1);
    return 0;
}

/* Writes text into dir/name; returns 0 or -1. */
static int cg_write(const char *dir, const char *name, const char *text)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return write_file(path, text);
}

/* This process's cgroup in the hierarchy that has `controller` ("" for v2's), from /proc/self/cgroup. */
static int own_cgroup(const char *controller, char *path, size_t len)
{
    char text[4096];
    if (read_small("/proc/self/cgroup", text, sizeof text) < 0)
        return -1;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *names = strchr(line, ':'), *where = names ? strchr(names + 1, ':') : NULL;
        if (!where)
            continue;
        *where = '\0';
        int match = !controller[0] ? names[1] == '\0' : 0; /* v2: "0::/path" */
        for (char *save, *c = strtok_r(names + 1, ",", &save); controller[0] && c; c = strtok_r(NULL, ",", &save))
            match |= strcmp(c, controller) == 0;
        if (match) {
            snprintf(path, len, "%s", strcmp(where + 1, "/") == 0 ? "" : where + 1);
            return 0;
        }
    }
    return -1;
}

/* Where v1's hierarchy of `controller` is mounted, from /proc/self/mounts. */
static int v1_mount(const char *controller, char *path, size_t len)
{
    FILE *f = fopen("/proc/self/mounts", "r");
    char dev[256], dir[512], type[64], opts[512];
    int rc = -1;
    while (f && rc != 0 && fscanf(f, "%255s %511s %63s %511s %*d %*d", dev, dir, type, opts) == 4) {
        if (strcmp(type, "cgroup") != 0)
            continue;
        for (char *save, *o = strtok_r(opts, ",", &save); o; o = strtok_r(NULL, ",", &save))
            if (strcmp(o, controller) == 0) {
                snprintf(path, len, "%s", dir);
                rc = 0;
            }
    }
    if (f)
        fclose(f);
    return rc;
}

/* Makes dir (kit-grader) if missing; in v2 lets its children have the memory and pids controllers. */
static int cg_base(const char *dir, int version)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return -1;
    return version == 2 ? cg_write(dir, "cgroup.subtree_control", "+memory +pids") : 0;
}

/* v2: kit-grader in the grader's own cgroup, or at the top where that one holds processes (no inner processes in v2). */
static int find_v2(void)
{
    char text[512], own[400];
    if (read_small("/sys/fs/cgroup/cgroup.controllers", text, sizeof text) < 0 || !strstr(text, "memory") ||
        !strstr(text, "pids"))
        return -1;
    const char *parents[2] = {own, ""};
    if (own_cgroup("", own, sizeof own) != 0)
        own[0] = '\0';
    for (int i = 0; i < 2; i++) {
        char parent[500];
        snprintf(parent, sizeof parent, "/sys/fs/cgroup%s", parents[i]);
        snprintf(cg.mem, sizeof cg.mem, "%s/kit-grader", parent);
        if (cg_write(parent, "cgroup.subtree_control", "+memory +pids") == 0 && cg_base(cg.mem, 2) == 0) {
            snprintf(cg.pids, sizeof cg.pids, "%s", cg.mem);
            return 0;
        }
        if (!own[0])
            break;
    }
    return -1;
}

/* v1: kit-grader in the grader's own cgroup of the memory hierarchy and of the pids one. */
static int find_v1(void)
{
    char mnt[512], own[400];
    if (v1_mount("memory", mnt, sizeof mnt) != 0 || own_cgroup("memory", own, sizeof own) != 0)
        return -1;
    snprintf(cg.mem, sizeof cg.mem, "%s%s/kit-grader", mnt, own);
    if (v1_mount("pids", mnt, sizeof mnt) != 0 || own_cgroup("pids", own, sizeof own) != 0)
        return -1;
    snprintf(cg.pids, sizeof cg.pids, "%s%s/kit-grader", mnt, own);
    return cg_base(cg.mem, 1) == 0 && cg_base(cg.pids, 1) == 0 ? 0 : -1;
}

static int cg_create(cg_run *run, unsigned uid, long long mem_bytes, long pids_max);
static void cg_remove(cg_run *run);

/*
 * Removes the empty cgroups that graders which died (killed mid-run) left in dir: named
 * <uid>-<pid>-<seq> for a pid that no longer runs. One with processes in it is left alone (its
 * grader may live in another pid namespace); sb_uid_acquire() kills what a dead grader left running.
 */
static void cg_sweep_dead(const char *dir)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        unsigned uid, seq;
        long pid;
        char path[1200];
        if (sscanf(e->d_name, "%u-%ld-%u", &uid, &pid, &seq) != 3 || pid <= 0 || kill((pid_t)pid, 0) == 0 ||
            errno != ESRCH)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        rmdir(path); /* fails (EBUSY) while a process is in it */
    }
    if (d)
        closedir(d);
}

/* Finds where the runs' cgroups go, and proves it by making and removing one; asked once. */
static void cg_find(void)
{
    if (cg.found)
        return;
    cg.found = 1;
    if (geteuid() != 0)
        return;
    cg.version = find_v2() == 0 ? 2 : find_v1() == 0 ? 1 : 0;
    cg_run trial;
    if (cg.version && cg_create(&trial, 0, 64LL << 20, 16) != 0)
        cg.version = 0;
    else if (cg.version)
        cg_remove(&trial);
    if (cg.version) {
        cg_sweep_dead(cg.mem);
        if (strcmp(cg.pids, cg.mem) != 0)
            cg_sweep_dead(cg.pids);
    }
}

int sb_cgroup_version(char *mem_dir, char *pids_dir, size_t len)
{
    cg_find();
    if (mem_dir)
        snprintf(mem_dir, len, "%s", cg.version ? cg.mem : "");
    if (pids_dir)
        snprintf(pids_dir, len, "%s", cg.version ? cg.pids : "");
    return cg.version;
}

/*
 * Makes one run's cgroup, <uid>-<pid>-<seq> (the child's user, the grader's process), with its
 * limits (0: none); returns 0, or -1 with nothing left behind.
 */
static int cg_create(cg_run *run, unsigned uid, long long mem_bytes, long pids_max)
{
    static unsigned seq;
    char name[64], num[32];
    snprintf(name, sizeof name, "%u-%ld-%u", uid, (long)getpid(), seq++);
    snprintf(run->mem, sizeof run->mem, "%s/%s", cg.mem, name);
    snprintf(run->pids, sizeof run->pids, "%s/%s", cg.pids, name);
    /* another grader may have just removed an empty kit-grader (cg_remove): make it again */
    for (int attempt = 0; mkdir(run->mem, 0755) != 0; attempt++)
        if (errno != ENOENT || attempt == 2 || cg_base(cg.mem, cg.version) != 0)
            return -1;
    int rc = 0;
    if (cg.version == 1 && strcmp(run->pids, run->mem) != 0)
        for (int attempt = 0; rc == 0 && mkdir(run->pids, 0755) != 0; attempt++)
            if (errno != ENOENT || attempt == 2 || cg_base(cg.pids, 1) != 0)
                rc = -1;
    if (rc != 0) {
        rmdir(run->mem);
        return -1;
    }
    snprintf(num, sizeof num, "%lld", mem_bytes);
    if (mem_bytes > 0 && cg.version == 1) {
        rc |= cg_write(run->mem, "memory.limit_in_bytes", num);
        cg_write(run->mem, "memory.memsw.limit_in_bytes", num); /* only where swap is accounted */
    } else if (mem_bytes > 0) {
        rc |= cg_write(run->mem, "memory.max", num);
        cg_write(run->mem, "memory.swap.max", "0"); /* only where there is swap */
        cg_write(run->mem, "memory.oom.group", "1"); /* one process killed for memory: all of them */
    }
    snprintf(num, sizeof num, "%ld", pids_max);
    if (pids_max > 0)
        rc |= cg_write(run->pids, "pids.max", num);
    if (rc != 0)
        cg_remove(run);
    return rc;
}

/* In the child, before anything else runs: moves this process into the run's cgroup(s). */
static int cg_join(const cg_run *run)
{
    char pid[32];
    snprintf(pid, sizeof pid, "%ld", (long)getpid());
    if (cg_write(run->mem, "cgroup.procs", pid) != 0)
        return -1;
    return strcmp(run->pids, run->mem) == 0 ? 0 : cg_write(run->pids, "cgroup.procs", pid);
}

/* Kills every process in the run's cgroup; returns how many it found. */
static int cg_kill_all(const cg_run *run)
{
    char path[1200], text[8192];
    int n = 0;
    for (int h = 0; h < 2; h++) {
        snprintf(path, sizeof path, "%s/cgroup.procs", h ? run->pids : run->mem);
        if (read_small(path, text, sizeof text) <= 0)
            continue;
        for (char *save, *pid = strtok_r(text, "\n", &save); pid; pid = strtok_r(NULL, "\n", &save), n++)
            kill((pid_t)atol(pid), SIGKILL);
    }
    return n;
}

/* Has the kernel killed a process of the run for its memory limit? */
static int cg_oom_killed(const cg_run *run)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", run->mem, cg.version == 1 ? "memory.oom_control" : "memory.events");
    return read_key(path, "oom_kill") > 0;
}

/* Kills what is left in the run's cgroup and removes it (a cgroup goes once its last process is reaped). */
static void cg_remove(cg_run *run)
{
    for (int round = 0; round < 2000; round++) {
        int left = cg_kill_all(run);
        if ((rmdir(run->mem) == 0 || errno == ENOENT) &&
            (strcmp(run->pids, run->mem) == 0 || rmdir(run->pids) == 0 || errno == ENOENT))
            break;
        struct timespec nap = {0, left ? 1000 * 1000 : 500 * 1000};
        nanosleep(&nap, NULL);
    }
    rmdir(cg.mem); /* kit-grader too, once no grader uses it; another may still: then it stays */
    if (strcmp(cg.pids, cg.mem) != 0)
        rmdir(cg.pids);
}

/* After a run: what its cgroup saw (limits hit, peak memory) into res; then the cgroup is removed. */
static void cg_finish(cg_run *run, sb_result *res)
{
    char path[1200];
    res->mem_limit_hit = cg_oom_killed(run);
    snprintf(path, sizeof path, "%s/pids.events", run->pids);
    res->pids_limit_hit = read_key(path, "max") > 0;
    char text[64];
    snprintf(path, sizeof path, "%s/%s", run->mem, cg.version == 1 ? "memory.max_usage_in_bytes" : "memory.peak");
    res->mem_peak_bytes = read_small(path, text, sizeof text) > 0 ? atoll(text) : 0;
    cg_remove(run);
}

const char *sb_isolation_report(void)
{
    static char line[768];
    unsigned can = kernel_can();
    int root = geteuid() == 0;
    if (!(can & CAN_NS))
        snprintf(line, sizeof line, "%s",
                 root ? "sandbox: the kernel refuses namespaces (a container without CAP_SYS_ADMIN?): runners share "
                        "the host's /tmp, /dev/shm, processes and files"
                      : "sandbox: not root and no user namespaces: runners share this user's files, /tmp and "
                        "processes");
    else
        snprintf(line, sizeof line, "sandbox: runners isolated in namespaces of their own%s%s",
                 root ? "" : " (not root: in a user namespace, as this user)",
                 can & CAN_VIEW ? ", each seeing only the files assembled for it"
                                : "; no view (the kernel refuses the mounts): they see the host's files as their user may");
    if (!(can & CAN_SECCOMP))
        strncat(line, "; no seccomp filter: every system call is open to them", sizeof line - strlen(line) - 1);
    int version = sb_cgroup_version(NULL, NULL, 0);
    char limits[200];
    if (version)
        snprintf(limits, sizeof limits, "; memory and process limits on each run's whole tree (cgroup v%d)", version);
    else
        snprintf(limits, sizeof limits, "; memory and process limits per process only (%s): a runner's children "
                                        "together may hold more than the memory limit",
                 root ? "no writable cgroup v1 or v2 here" : "not root: no cgroup of its own");
    strncat(line, limits, sizeof line - strlen(line) - 1);
    return line;
}

/* ---- one run ---------------------------------------------------------------- */

/* The per-process limits; memory and processes only where no cgroup holds them for the whole tree. */
static void apply_limits(const sb_limits *lim, long nproc_limit, int tree_limits)
{
    if (lim->cpu_s > 0) { /* SIGXCPU at the limit; the kernel's SIGKILL a second later, for a runner that ignores it */
        struct rlimit r = {(rlim_t)lim->cpu_s, (rlim_t)lim->cpu_s + 1};
        setrlimit(RLIMIT_CPU, &r);
    }
    if (lim->file_bytes > 0)
        set_limit(RLIMIT_FSIZE, (rlim_t)lim->file_bytes);
    if (tree_limits)
        return;
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

/*
 * In the child: set everything up, then exec. The grader is single-threaded, so library calls are
 * safe after fork. With a cgroup (tree), the child joins it first, so that all it starts is held.
 */
static void child(char *const argv[], const sb_limits *lim, long nproc_limit, unsigned can, const cg_run *tree,
                  int errpipe)
{
    static char *const empty_env[] = {NULL};
    char here[4096];
    setpgid(0, 0);
    set_limit(RLIMIT_CORE, 0);
    step("joining its cgroup", tree ? tree->mem : NULL);
    if (tree && cg_join(tree) != 0)
        goto fail;
    step("opening its input and output files", NULL);
    if (redirect(0, lim->stdin_path, O_RDONLY) || redirect(1, lim->stdout_path, O_WRONLY | O_CREAT | O_TRUNC) ||
        redirect(2, lim->stderr_path, O_WRONLY | O_CREAT | O_TRUNC))
        goto fail;
    if (lim->trace_fd > 0 && dup2(lim->trace_fd, 3) < 0) /* KIT_TRACE_FD; dup2 clears close-on-exec */
        goto fail;
    int isolated = lim->isolate && (can & CAN_NS);
    const char *dir = lim->cwd;
    if (!dir && isolated) /* looked up again inside: the inherited one points at the mounts as they were */
        dir = getcwd(here, sizeof here) ? here : "/";
    step("making its namespaces", NULL);
    if (isolated && (enter_namespaces() != 0 || ((can & CAN_VIEW) && build_view(lim) != 0)))
        goto fail;
    step("entering its folder", dir);
    if (dir && chdir(dir) != 0 && (lim->cwd || chdir("/") != 0)) /* the grader's folder may not be in the view */
        goto fail;
    apply_limits(lim, nproc_limit, tree != NULL);
    if (lim->no_network && !isolated && geteuid() == 0)
        (void)unshare(CLONE_NEWNET); /* best effort, see sb_limits */
    step("taking the sandbox user", NULL);
    if (drop_root(lim) != 0)
        goto fail;
    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    step("loading the seccomp filter", NULL);
    if (lim->seccomp && (can & CAN_SECCOMP) && load_outer_filter() != 0)
        goto fail;
    step("starting", argv[0]);
    execve(argv[0], argv, lim->envp ? lim->envp : empty_env);
fail:;
    struct {
        int e;
        char step[SB_STEP_LEN];
    } report;
    report.e = errno;
    snprintf(report.step, sizeof report.step, "%s", child_step);
    ssize_t ignored = write(errpipe, &report, sizeof report);
    (void)ignored;
    _exit(127);
}

/*
 * Waits for the child until the deadline, when it kills the child's group; returns 1 if it did.
 * With a v1 cgroup, a process of the tree killed for memory gets the whole tree killed, as v2's
 * memory.oom.group does by itself: a run stops at its memory limit, not one child of it.
 */
static int wait_child(pid_t pid, double start, double timeout_s, const cg_run *tree, int *status, struct rusage *ru)
{
    for (int round = 1;; round++) {
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
        if (tree && cg.version == 1 && round % 5 == 0 && cg_oom_killed(tree))
            cg_kill_all(tree);
        struct timespec nap = {0, 2 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
}

int sb_run(char *const argv[], const sb_limits *lim, sb_result *res)
{
    int pipefd[2];
    long nproc_limit = 0;
    unsigned can = lim->isolate || lim->seccomp ? kernel_can() : 0;
    unsigned user = lim->uid != 0 && geteuid() == 0 ? lim->uid : (unsigned)getuid();
    res->mem_limit_hit = res->pids_limit_hit = 0;
    res->mem_peak_bytes = 0;
    /* the whole tree's limits in a cgroup of its own; the pids limit counts the process in between (isolated) too */
    cg_run tree;
    int in_tree = (lim->mem_bytes > 0 || lim->nproc > 0) && sb_cgroup_version(NULL, NULL, 0) &&
                  cg_create(&tree, user, lim->mem_bytes, lim->nproc > 0 ? lim->nproc + 1 + !!(can & CAN_NS && lim->isolate) : 0) == 0;
    if (lim->nproc > 0 && !in_tree) { /* RLIMIT_NPROC counts every process of the child's real user */
        long now = sb_count_tasks(user);
        nproc_limit = (now > 0 ? now : 0) + lim->nproc;
    }
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    if (pipe2(pipefd, O_CLOEXEC) != 0) {
        if (in_tree)
            cg_remove(&tree);
        return -1;
    }
    double start = kit_now_s();
    pid_t pid = fork();
    if (pid < 0) {
        close(pipefd[0]);
        close(pipefd[1]);
        if (in_tree)
            cg_remove(&tree);
        return -1;
    }
    if (pid == 0)
        child(argv, lim, nproc_limit, can, in_tree ? &tree : NULL, pipefd[1]);
    setpgid(pid, pid); /* also here, so the group exists before we might kill it */
    running_group = pid;
    close(pipefd[1]);

    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    int timed_out = wait_child(pid, start, lim->timeout_s, in_tree ? &tree : NULL, &status, &ru);
    kill(-pid, SIGKILL); /* whatever the child left behind in its group */
    sweep_children();    /* and whatever left the group */
    running_group = 0;
    if (in_tree)
        cg_finish(&tree, res);
    res->seconds = kit_now_s() - start;
    res->max_rss_kb = ru.ru_maxrss;

    struct {
        int e;
        char step[SB_STEP_LEN];
    } report;
    ssize_t got = read(pipefd[0], &report, sizeof report);
    close(pipefd[0]);
    res->step[0] = '\0';
    if (got == (ssize_t)sizeof report) {
        res->kind = SB_ERROR;
        res->code = report.e;
        report.step[SB_STEP_LEN - 1] = '\0';
        snprintf(res->step, sizeof res->step, "%s", report.step);
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
    if (res->pids_limit_hit && lim->nproc > 0 && res->kind != SB_TIMEOUT && !(res->kind == SB_EXITED && res->code == 0)) {
        snprintf(buf, len, "process limit exceeded (%ld processes and threads)", lim->nproc);
        return;
    }
    switch (res->kind) {
    case SB_EXITED: snprintf(buf, len, "exit %d", res->code); break;
    case SB_TIMEOUT: snprintf(buf, len, "timeout after %g s", lim->timeout_s); break;
    case SB_ERROR:
        snprintf(buf, len, "could not start: %s%s%s", strerror(res->code), res->step[0] ? ", while " : "", res->step);
        break;
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
