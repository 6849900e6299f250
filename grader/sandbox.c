/* Runs an untrusted program in its own process group, with a wall-clock timeout and resource limits. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kit_timer.h"
#include "sandbox.h"

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

long sb_count_tasks(unsigned uid)
{
    DIR *d = opendir("/proc");
    if (!d)
        return -1;
    long count = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char path[300], line[256];
        snprintf(path, sizeof path, "/proc/%s/status", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue; /* it ended meanwhile */
        long real = -1, threads = 1;
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "Uid:", 4) == 0)
                real = strtol(line + 4, NULL, 10);
            else if (strncmp(line, "Threads:", 8) == 0)
                threads = strtol(line + 8, NULL, 10);
        }
        fclose(f);
        if (real == (long)uid)
            count += threads;
    }
    closedir(d);
    return count;
}

/* Kills and reaps every child process of ours (the run's leftovers, re-parented to us as subreaper). */
static void sweep_children(void)
{
    char mine[32];
    snprintf(mine, sizeof mine, "%d", (int)getpid());
    for (int round = 0; round < 100000; round++) {
        while (waitpid(-1, NULL, WNOHANG) > 0)
            ;
        if (waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD)
            return;
        DIR *d = opendir("/proc");
        for (struct dirent *e; d && (e = readdir(d));) {
            if (e->d_name[0] < '0' || e->d_name[0] > '9')
                continue;
            char path[300], line[256];
            snprintf(path, sizeof path, "/proc/%s/status", e->d_name);
            FILE *f = fopen(path, "r");
            while (f && fgets(line, sizeof line, f))
                if (strncmp(line, "PPid:", 5) == 0) {
                    if (strtol(line + 5, NULL, 10) == (long)getpid())
                        kill((pid_t)atoi(e->d_name), SIGKILL);
                    break;
                }
            if (f)
                fclose(f);
        }
        if (d)
            closedir(d);
        struct timespec nap = {0, 1000 * 1000};
        nanosleep(&nap, NULL);
    }
}

/* In the child: set everything up, then exec. Only async-signal-safe work here, but for the id changes. */
static void child(char *const argv[], const sb_limits *lim, long nproc_limit, int errpipe)
{
    static char *const empty_env[] = {NULL};
    setpgid(0, 0);
    if (redirect(0, lim->stdin_path, O_RDONLY) || redirect(1, lim->stdout_path, O_WRONLY | O_CREAT | O_TRUNC) ||
        redirect(2, lim->stderr_path, O_WRONLY | O_CREAT | O_TRUNC) || (lim->cwd && chdir(lim->cwd) != 0))
        goto fail;
    set_limit(RLIMIT_CORE, 0);
    if (lim->cpu_s > 0)
        set_limit(RLIMIT_CPU, (rlim_t)lim->cpu_s);
    if (lim->file_bytes > 0)
        set_limit(RLIMIT_FSIZE, (rlim_t)lim->file_bytes);
    if (nproc_limit > 0)
        set_limit(RLIMIT_NPROC, (rlim_t)nproc_limit);
    if (lim->mem_bytes > 0)
        set_limit(RLIMIT_AS, (rlim_t)lim->mem_bytes);
    if (lim->trace_fd > 0 && dup2(lim->trace_fd, 3) < 0) /* KIT_TRACE_FD; dup2 clears close-on-exec */
        goto fail;
    if (lim->no_network && geteuid() == 0)
        (void)unshare(CLONE_NEWNET); /* best effort, see sb_limits */
    if (lim->uid != 0 && geteuid() == 0) { /* root: become the sandbox user, or do not run at all */
        if (setgroups(0, NULL) != 0 || setgid(lim->gid) != 0 || setuid(lim->uid) != 0)
            goto fail;
        if (setuid(0) == 0) { /* root must be gone for good */
            errno = EPERM;
            goto fail;
        }
    }
    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    execve(argv[0], argv, lim->envp ? lim->envp : empty_env);
fail:;
    int e = errno;
    ssize_t ignored = write(errpipe, &e, sizeof e);
    (void)ignored;
    _exit(127);
}

int sb_run(char *const argv[], const sb_limits *lim, sb_result *res)
{
    int pipefd[2];
    long nproc_limit = 0;
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
        child(argv, lim, nproc_limit, pipefd[1]);
    setpgid(pid, pid); /* also here, so the group exists before we might kill it */
    running_group = pid;
    close(pipefd[1]);

    int status = 0, timed_out = 0;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            status = 0;
            break;
        }
        if (kit_now_s() - start >= lim->timeout_s) {
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            timed_out = 1;
            break;
        }
        struct timespec nap = {0, 2 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    kill(-pid, SIGKILL); /* whatever the child left behind in its group */
    sweep_children();    /* and whatever left the group */
    running_group = 0;
    res->seconds = kit_now_s() - start;

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
    } else {
        res->kind = SB_EXITED;
        res->code = WEXITSTATUS(status);
    }
    return 0;
}

int sb_hit_memory_limit(const sb_result *res, const sb_limits *lim, const char *stderr_path)
{
    if (lim->mem_bytes <= 0 || res->kind == SB_TIMEOUT || (res->kind == SB_EXITED && res->code == 0))
        return 0;
    if ((res->kind == SB_EXITED && res->code == SB_EXIT_NOMEM) || (res->kind == SB_ERROR && res->code == ENOMEM))
        return 1; /* the kit's allocators said so, or the program did not even fit to start */
    FILE *f = stderr_path ? fopen(stderr_path, "r") : NULL;
    char line[256];
    int hit = 0;
    while (f && !hit && fgets(line, sizeof line, f))
        hit = strstr(line, "bad_alloc") || strstr(line, "Cannot allocate memory") || strstr(line, "out of memory");
    if (f)
        fclose(f);
    return hit;
}

void sb_describe(const sb_result *res, const sb_limits *lim, char *buf, unsigned len)
{
    switch (res->kind) {
    case SB_EXITED: snprintf(buf, len, "exit %d", res->code); break;
    case SB_TIMEOUT: snprintf(buf, len, "timeout after %g s", lim->timeout_s); break;
    case SB_ERROR: snprintf(buf, len, "could not start: %s", strerror(res->code)); break;
    case SB_SIGNALED:
        if (res->code == SIGXCPU)
            snprintf(buf, len, "timeout: CPU time limit of %ld s", lim->cpu_s);
        else if (res->code == SIGXFSZ)
            snprintf(buf, len, "output too large (over %lld bytes)", lim->file_bytes);
        else
            snprintf(buf, len, "crash (signal %d, %s)", res->code, strsignal(res->code));
        break;
    }
}
