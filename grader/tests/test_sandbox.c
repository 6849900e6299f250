/* Tests of what the sandbox contains: the memory and process limits (cgroups, or per process), a user id per grader, namespaces and the view each run sees, the outer seccomp filter and the runner's jail. */
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
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include <linux/netlink.h>

#include "kit_jail.h"
#include "kit_test.h"
#include "sandbox.h"

static char self_exe[4096]; /* this program: sb_run starts it again as a helper (see helper_main) */
static char exe_dir[4096];  /* its folder, which every isolated run here needs in its view */
static char scratch[4096];  /* a folder of this test's next to it, bound into the runs' views */
static char kit[4096];      /* the kit this program was built in ("" when not found) */
static unsigned sandbox_uid; /* as root, a user id of our own from sb_uid_acquire; else 0 */
static int have_seccomp;     /* whether the kernel takes seccomp filters (sb_isolation_report says) */

/* ---- this program, run again as `--helper NAME`, for what a shell script cannot do ---- */

static char *volatile hog_blocks[1024]; /* volatile, so the compiler keeps the hog's allocations */

/* Touches n MiB, a page at a time; returns the sum of a byte per page (volatile: the pages are really touched). */
static long touch_mib(long n)
{
    volatile char *p = malloc((size_t)n << 20);
    if (!p)
        return -1;
    long sum = 0;
    for (long i = 0; i < n << 20; i += 4096) {
        p[i] = 1;
        sum += p[i];
    }
    return sum;
}

/*
 * Four children that each touch 400 MiB and hold it until all four have (a pipe says each is done,
 * closing another lets them go); exits 0 when all four did.
 */
static int tree_of_four(void)
{
    int done[2], go[2];
    if (pipe(done) != 0 || pipe(go) != 0)
        return 2;
    pid_t kids[4];
    for (int k = 0; k < 4; k++) {
        kids[k] = fork();
        if (kids[k] == 0) {
            close(go[1]);
            long sum = touch_mib(400);
            char byte = sum == 400L * 256 ? 'y' : 'n', end;
            if (write(done[1], &byte, 1) != 1 || read(go[0], &end, 1) != 0)
                _exit(1);
            _exit(byte == 'y' ? 0 : 1);
        }
    }
    close(done[1]);
    char byte;
    int ready = 0;
    while (ready < 4 && read(done[0], &byte, 1) == 1) /* ends early when a child dies before its byte */
        ready += byte == 'y';
    close(go[1]);
    int ok = ready == 4;
    for (int k = 0; k < 4; k++) {
        int status = 0;
        ok &= kids[k] > 0 && waitpid(kids[k], &status, 0) == kids[k] && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    printf("%s\n", ok ? "all four held 400 MiB" : "a child failed");
    return ok ? 0 : 1;
}

/* Forks children that wait until one fork fails; prints how many started, exits 5 if the refusal was EAGAIN. */
static int fork_loop(void)
{
    int n = 0;
    for (; n < 10000; n++) {
        pid_t pid = fork();
        if (pid == 0) {
            pause();
            _exit(0);
        }
        if (pid < 0)
            break;
    }
    int e = errno;
    printf("started %d\n", n);
    return n < 10000 && e == EAGAIN ? 5 : 6;
}

static int helper_main(const char *name)
{
    if (strcmp(name, "hog") == 0) { /* takes memory a MiB at a time until there is none, then exits 3 quietly */
        for (int i = 0; i < 1024; i++) {
            if (!(hog_blocks[i] = malloc(1 << 20)))
                return 3;
            memset(hog_blocks[i], 1, 1 << 20);
        }
        return 0;
    }
    if (strcmp(name, "tree") == 0)
        return tree_of_four();
    if (strcmp(name, "fork-loop") == 0)
        return fork_loop();
    if (strcmp(name, "nomem-exit") == 0)
        return SB_EXIT_NOMEM;
    if (strcmp(name, "bad-alloc") == 0) {
        fputs("terminate called after throwing an instance of 'std::bad_alloc'\n", stderr);
        return 1;
    }
    if (strcmp(name, "fail") == 0) {
        fputs("wrong answer at index 3\n", stderr);
        return 1;
    }
    if (strcmp(name, "abort") == 0)
        abort();
    if (strcmp(name, "segv") == 0) { /* a real fault, which even pid 1 dies of (it ignores raise(SIGSEGV)) */
        static volatile int *volatile nowhere;
        return *nowhere;
    }
    if (strcmp(name, "ptrace") == 0)
        return ptrace(PTRACE_TRACEME, 0, NULL, NULL) == 0 ? 0 : 4;
    if (strcmp(name, "socket-inet") == 0)
        return socket(AF_INET, SOCK_STREAM, 0) >= 0 ? 0 : 4;
    if (strcmp(name, "socket-unix") == 0)
        return socket(AF_UNIX, SOCK_STREAM, 0) >= 0 ? 0 : 4;
    if (strcmp(name, "netlink-route") == 0) /* what getifaddrs uses (ncu's target does) */
        return socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE) >= 0 ? 0 : 4;
    if (strcmp(name, "netlink-generic") == 0)
        return socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC) >= 0 ? 0 : 4;
    if (strcmp(name, "unshare") == 0)
        return unshare(CLONE_NEWUSER) == 0 ? 0 : 4;
    fprintf(stderr, "no helper %s\n", name);
    return 2;
}

/* ---- running things in the sandbox ---------------------------------------------- */

/* The view of most runs here: this program's folder and the scratch folder, read-only. */
static const sb_bind *base_view(void)
{
    static sb_view v;
    sb_view_init(&v);
    sb_view_add(&v, exe_dir, NULL, 0);
    sb_view_add(&v, scratch, NULL, 0);
    return v.bind;
}

static sb_limits base_limits(void)
{
    static char *envp[] = {(char *)"PATH=/usr/local/cuda/bin:/usr/bin:/bin", (char *)"HOME=/tmp", NULL};
    sb_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.timeout_s = 20;
    lim.cpu_s = 60;
    lim.uid = sandbox_uid;
    lim.gid = sandbox_uid;
    lim.envp = envp;
    lim.view = base_view();
    return lim;
}

/* Reads a whole (small) file into a static buffer; "" when it cannot be read. */
static const char *slurp(const char *path)
{
    static char text[16384];
    FILE *f = fopen(path, "r");
    size_t got = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[got] = '\0';
    if (f)
        fclose(f);
    return text;
}

/* Runs argv under lim with stdout and stderr to one temporary file; returns what it printed (static), and *r. */
static const char *run(char *const argv[], sb_limits lim, sb_result *r, char *how, size_t how_len)
{
    char out[] = "/tmp/kit-sbt-XXXXXX";
    int fd = mkstemp(out);
    close(fd);
    lim.stdout_path = out;
    lim.stderr_path = out;
    memset(r, 0, sizeof *r);
    KIT_ASSERT_MSG(sb_run(argv, &lim, r) == 0, "sb_run could not fork");
    if (how)
        sb_describe(r, &lim, how, (unsigned)how_len);
    const char *text = slurp(out);
    remove(out);
    return text;
}

static const char *run_script(const char *script, sb_limits lim, sb_result *r)
{
    char *argv[] = {(char *)"/bin/sh", (char *)"-c", (char *)script, NULL};
    return run(argv, lim, r, NULL, 0);
}

static sb_result run_helper(const char *name, sb_limits lim, char *how, size_t how_len)
{
    char *argv[] = {self_exe, (char *)"--helper", (char *)name, NULL};
    sb_result r;
    run(argv, lim, &r, how, how_len);
    return r;
}

/* Writes text into dir/name with the given mode. */
static void write_text(const char *dir, const char *name, const char *text, mode_t mode)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    chmod(path, mode);
}

/* ---- the memory limit --------------------------------------------------------------- */

/* A hog over a 192 MiB limit is reported as such: killed by the cgroup's limit, or refused malloc by RLIMIT_AS. */
static void test_memory_hog(void)
{
    sb_limits lim = base_limits();
    lim.mem_bytes = 192LL << 20;
    char how[160];
    sb_result r = run_helper("hog", lim, how, sizeof how);
    if (sb_cgroup_version(NULL, NULL, 0)) {
        KIT_ASSERT_MSG(r.kind == SB_SIGNALED && r.code == SIGKILL && r.mem_limit_hit,
                       "under a cgroup the hog should be killed for memory; kind %d code %d, limit hit %d", r.kind,
                       r.code, r.mem_limit_hit);
        KIT_ASSERT_MSG(r.mem_peak_bytes >= (90LL * 192 << 20) / 100 && r.mem_peak_bytes <= 192LL << 20,
                       "the cgroup's peak %lld bytes, expected 90-100%% of the 192 MiB limit", r.mem_peak_bytes);
    } else {
        KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 3,
                       "the hog should run out of memory and exit 3; kind %d code %d", r.kind, r.code);
        KIT_ASSERT_MSG(r.max_rss_kb >= 90L * 192 * 1024 / 100 && r.max_rss_kb <= 192L * 1024,
                       "max_rss_kb %ld, expected 90-100%% of the 192 MiB limit (%ld KiB)", r.max_rss_kb, 192L * 1024);
    }
    KIT_ASSERT_MSG(sb_memory_exceeded(&r, &lim, NULL) == 1, "a quiet hog at %ld KiB was not seen as over the limit",
                   r.max_rss_kb);
    KIT_ASSERT_MSG(strcmp(how, "memory limit 192 MiB exceeded") == 0, "the hog was described as '%s'", how);
}

static void test_memory_other_signs(void)
{
    sb_limits lim = base_limits();
    lim.mem_bytes = 1024LL << 20;
    char how[160];
    sb_result r = run_helper("nomem-exit", lim, how, sizeof how);
    KIT_ASSERT_MSG(strcmp(how, "memory limit 1024 MiB exceeded") == 0, "exit %d was described as '%s'", SB_EXIT_NOMEM,
                   how);
    r = run_helper("bad-alloc", lim, how, sizeof how);
    KIT_ASSERT_MSG(strcmp(how, "memory limit 1024 MiB exceeded") == 0, "std::bad_alloc on stderr was described as '%s'",
                   how);
    r = run_helper("fail", lim, how, sizeof how);
    KIT_ASSERT_MSG(strcmp(how, "exit 1") == 0 && !sb_memory_exceeded(&r, &lim, NULL) && !r.mem_limit_hit,
                   "a plain failure (exit 1, %ld KiB) was described as '%s'", r.max_rss_kb, how);
    lim.mem_bytes = 0; /* without a limit nothing is blamed on it: the old descriptions stay */
    r = run_helper("nomem-exit", lim, how, sizeof how);
    KIT_ASSERT_MSG(strcmp(how, "exit 87") == 0, "exit 87 with no memory limit was described as '%s'", how);
}

/* ---- a user id per grader ------------------------------------------------------------ */

/* In a forked child: writes to fd why the second holder's view is wrong ("" when it is right). */
static void second_holder(unsigned a, unsigned b, int fd)
{
    char why[256] = "", msg[400] = "";
    unsigned c = 0;
    int lock = sb_uid_lock(a - SB_UID_BASE, why, sizeof why);
    if (lock >= 0)
        snprintf(msg, sizeof msg, "a second holder got lock %u while the first held it", a - SB_UID_BASE);
    else if (!strstr(why, "held by another grader"))
        snprintf(msg, sizeof msg, "lock %u refused for the wrong reason: %s", a - SB_UID_BASE, why);
    else if (sb_uid_acquire(&c, why, sizeof why) != 0)
        snprintf(msg, sizeof msg, "a second grader could not acquire a uid: %s", why);
    else if (c == a || c == b)
        snprintf(msg, sizeof msg, "a second grader acquired %u, which the first holds", c);
    ssize_t ignored = write(fd, msg, strlen(msg));
    (void)ignored;
}

static void test_uid_distinct(void)
{
    unsigned a = 0, b = 0;
    char why[256] = "", msg[400] = "";
    KIT_ASSERT_MSG(sb_uid_acquire(&a, why, sizeof why) == 0, "first acquisition failed: %s", why);
    KIT_ASSERT_MSG(sb_uid_acquire(&b, why, sizeof why) == 0, "second acquisition failed: %s", why);
    KIT_ASSERT_MSG(a != b, "two acquisitions gave the same uid %u", a);
    KIT_ASSERT_MSG(a >= SB_UID_BASE && a < SB_UID_BASE + SB_UID_COUNT && b >= SB_UID_BASE &&
                       b < SB_UID_BASE + SB_UID_COUNT,
                   "uids %u and %u lie outside [%u, %u)", a, b, SB_UID_BASE, SB_UID_BASE + SB_UID_COUNT);
    int fds[2];
    KIT_ASSERT_MSG(pipe(fds) == 0, "pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        second_holder(a, b, fds[1]);
        _exit(0);
    }
    close(fds[1]);
    ssize_t got = read(fds[0], msg, sizeof msg - 1);
    msg[got > 0 ? got : 0] = '\0';
    close(fds[0]);
    waitpid(pid, NULL, 0);
    KIT_ASSERT_MSG(msg[0] == '\0', "%s", msg);
}

/* Forks a child that takes the GPU lock (a profiler's when profiler is 1) and exits 0; returns 1 when
   it got the lock within a second, 0 when it was still waiting (it is then killed). */
static int gpu_lock_within_a_second(int profiler)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(1);
        _exit(sb_gpu_lock(profiler) >= 0 ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* The GPU lock: plain runs share it, a profiler has it alone and waits for the runs in progress. */
static void test_gpu_lock(void)
{
    int plain = sb_gpu_lock(0);
    KIT_ASSERT_MSG(plain >= 0, "no GPU lock for a plain run");
    KIT_ASSERT_MSG(gpu_lock_within_a_second(0), "a second plain run waited for the first");
    KIT_ASSERT_MSG(!gpu_lock_within_a_second(1), "a profiler got the lock while a plain run held it");
    fflush(NULL);
    pid_t waiting = fork(); /* a profiler that waits for the plain run keeps new plain runs out */
    if (waiting == 0)
        _exit(sb_gpu_lock(1) >= 0 ? 0 : 1);
    usleep(200 * 1000);
    KIT_ASSERT_MSG(!gpu_lock_within_a_second(0), "a plain run started while a profiler waited for the lock");
    kill(waiting, SIGKILL);
    waitpid(waiting, NULL, 0);
    close(plain);
    int prof = sb_gpu_lock(1);
    KIT_ASSERT_MSG(prof >= 0, "no GPU lock for a profiler once the plain run ended");
    KIT_ASSERT_MSG(!gpu_lock_within_a_second(0), "a plain run got the lock while a profiler held it");
    KIT_ASSERT_MSG(!gpu_lock_within_a_second(1), "two profilers held the lock at once");
    close(prof);
    KIT_ASSERT_MSG(gpu_lock_within_a_second(1), "a profiler waited for a lock no one holds");
}

/* In a forked child: takes a uid, starts a sleeper under it that leaves our group, reports both, and dies. */
static void dying_grader(int fd)
{
    unsigned u = 0;
    char why[256];
    int exec_seen[2]; /* closed by the sleeper's exec, which also closes its copy of our lock */
    if (sb_uid_acquire(&u, why, sizeof why) != 0 || pipe2(exec_seen, O_CLOEXEC) != 0)
        _exit(1);
    pid_t sleeper = fork();
    if (sleeper == 0) {
        setsid();
        if (setgid(u) != 0 || setuid(u) != 0)
            _exit(1);
        execl("/bin/sleep", "sleep", "30", (char *)NULL);
        _exit(1);
    }
    close(exec_seen[1]);
    char byte;
    while (read(exec_seen[0], &byte, 1) > 0)
        ;
    int pair[2] = {(int)u, (int)sleeper};
    ssize_t ignored = write(fd, pair, sizeof pair);
    (void)ignored;
    _exit(0); /* its lock goes with it; the sleeper stays, re-parented to us (we are a subreaper) */
}

static void test_uid_leftovers_killed(void)
{
    int fds[2], pair[2] = {0, 0};
    KIT_ASSERT_MSG(pipe(fds) == 0, "pipe: %s", strerror(errno));
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); /* so the sleeper comes to us when its grader dies */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        dying_grader(fds[1]);
    close(fds[1]);
    ssize_t got = read(fds[0], pair, sizeof pair);
    close(fds[0]);
    waitpid(pid, NULL, 0);
    KIT_ASSERT_MSG(got == (ssize_t)sizeof pair && kill(pair[1], 0) == 0, "the dying grader did not leave a sleeper");
    unsigned u = (unsigned)pair[0], next = 0;
    char why[256];
    KIT_ASSERT_MSG(sb_uid_acquire(&next, why, sizeof why) == 0, "acquisition failed: %s", why);
    if (next != u) { /* another grader took the freed id first: the sleeper is then not ours to judge */
        printf("\n  (another grader took uid %u first; leftovers not checked)\n", u);
        kill(pair[1], SIGKILL);
        waitpid(pair[1], NULL, 0);
        return;
    }
    int status = 0;
    KIT_ASSERT_MSG(waitpid(pair[1], &status, WNOHANG) == pair[1] && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
                   "the sleeper (pid %d) left under uid %u outlived sb_uid_acquire", pair[1], u);
}


/* ---- namespaces ------------------------------------------------------------------------- */

static void test_iso_pid1(void)
{
    sb_limits lim = base_limits();
    lim.isolate = 1;
    sb_result r;
    const char *text = run_script("echo $$", lim, &r);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0 && strcmp(text, "1\n") == 0,
                   "an isolated shell says its pid is '%s' (kind %d code %d), not 1", text, r.kind, r.code);
}

/* How many processes run `sleep 4242` now (what test_iso_no_leftovers starts). */
static int count_sleepers(void)
{
    int n = 0;
    DIR *d = opendir("/proc");
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[300], cmd[64] = "";
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        FILE *f = fopen(path, "r");
        size_t got = f ? fread(cmd, 1, sizeof cmd - 1, f) : 0;
        if (f)
            fclose(f);
        n += got == 11 && memcmp(cmd, "sleep\0004242", 11) == 0;
    }
    if (d)
        closedir(d);
    return n;
}

static void test_iso_no_leftovers(void)
{
    sb_limits lim = base_limits();
    lim.isolate = 1;
    sb_result r;
    const char *text = run_script("setsid sleep 4242 & sleep 0.3; kill -0 $! && echo spawned", lim, &r);
    KIT_ASSERT_MSG(strstr(text, "spawned") != NULL, "the script could not start its sleeper: '%s'", text);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0, "the script ended with kind %d code %d", r.kind, r.code);
    KIT_ASSERT_MSG(count_sleepers() == 0, "%d sleeper(s) outlived the run", count_sleepers());
}

static void test_iso_how_it_ended(void)
{
    sb_limits lim = base_limits();
    lim.isolate = 1;
    sb_result r;
    run_script("exit 7", lim, &r);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 7, "exit 7 came back as kind %d code %d", r.kind, r.code);
    r = run_helper("segv", lim, NULL, 0);
    KIT_ASSERT_MSG(r.kind == SB_SIGNALED && r.code == SIGSEGV, "a segfault came back as kind %d code %d", r.kind,
                   r.code);
    char *missing[] = {(char *)"/no/such/program", NULL};
    run(missing, lim, &r, NULL, 0);
    KIT_ASSERT_MSG(r.kind == SB_ERROR && r.code == ENOENT, "a missing program came back as kind %d code %d", r.kind,
                   r.code);
    char how[400];
    sb_describe(&r, &lim, how, sizeof how);
    KIT_ASSERT_MSG(strstr(how, "while starting /no/such/program") != NULL,
                   "a missing program is described as '%s', not naming the step (starting /no/such/program)", how);
    lim.cwd = "/no/such/folder";
    run_script("exit 0", lim, &r);
    sb_describe(&r, &lim, how, sizeof how);
    KIT_ASSERT_MSG(r.kind == SB_ERROR && strstr(how, "while entering its folder /no/such/folder") != NULL,
                   "a missing working folder is described as '%s' (kind %d)", how, r.kind);
    lim.cwd = NULL;
    lim.timeout_s = 0.5;
    run_script("sleep 4242", lim, &r);
    KIT_ASSERT_MSG(r.kind == SB_TIMEOUT && r.seconds < 3, "a sleeper came back as kind %d after %.1f s", r.kind,
                   r.seconds);
    KIT_ASSERT_MSG(count_sleepers() == 0, "the timed-out sleeper outlived the run");
}

/* ---- the view each run sees --------------------------------------------------------------- */

/* The entries of a host folder, sorted, space-separated, as `ls -A` in the view prints them joined. */
static void expect_entries(const char *text, const char *label, const char *want)
{
    char line[600];
    snprintf(line, sizeof line, "%s:%s%s\n", label, want[0] ? " " : "", want);
    KIT_ASSERT_MSG(strstr(text, line) != NULL, "expected the line '%s: %s' in the view's listing:\n%s", label, want,
                   text);
}

/* Joins the names of `path` that exist on the host, among the candidates, in `ls` order (sorted), into buf. */
static void existing(const char *const *names, char *buf, size_t len)
{
    buf[0] = '\0';
    for (; *names; names++) {
        char path[300];
        snprintf(path, sizeof path, "/%s", *names);
        if (access(path, F_OK) == 0 || (*names)[0] == '+')
            snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? " " : "", *names + ((*names)[0] == '+'));
    }
}

/* An empty view holds the system folders, a few files of /etc, a minimal /dev, /proc and an empty /tmp; nothing else. */
static void test_view_holds_only_the_system(void)
{
    sb_limits lim = base_limits();
    lim.isolate = 1;
    lim.view = NULL;
    sb_result r;
    const char *text = run_script("echo /: $(ls -A /); echo /etc: $(ls -A /etc); echo /dev: $(ls -A /dev); "
                                  "echo /tmp: $(ls -A /tmp); echo user: $(id -un); "
                                  "touch /probe 2>/dev/null && echo wrote-root; touch /usr/probe 2>/dev/null && "
                                  "echo wrote-usr; echo x > /tmp/probe && echo wrote-tmp; echo probe > /proc/self/comm && "
                                  "echo proc-writable; echo > /dev/null && echo null-writable",
                                  lim, &r);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0, "the listing ended with kind %d code %d:\n%s", r.kind, r.code, text);
    /* ls sorts by the locale; with none, by bytes: names the view holds, in that order ('+': made by the view) */
    const char *const root[] = {"bin", "+dev", "+etc", "lib", "lib32", "lib64", "libx32", "+proc", "sbin", "+tmp", "usr",
                                NULL};
    char want[400];
    existing(root, want, sizeof want);
    expect_entries(text, "/", want);
    const char *const etc[] = {"etc/alternatives", "+group", "etc/ld.so.cache", "etc/ld.so.conf", "etc/ld.so.conf.d",
                               "+passwd", NULL};
    existing(etc, want, sizeof want);
    for (char *p; (p = strstr(want, "etc/"));) /* the names without their folder */
        memmove(p, p + 4, strlen(p + 4) + 1);
    expect_entries(text, "/etc", want);
    KIT_ASSERT_MSG(strstr(text, "/dev: fd full null random shm stderr stdin stdout urandom zero") ||
                       strstr(text, "nvidia"),
                   "the view's /dev holds other devices:\n%s", text);
    expect_entries(text, "/tmp", "");
    KIT_ASSERT_MSG(strstr(text, sandbox_uid || geteuid() != 0 ? "user: sandbox\n" : "user: root\n") != NULL,
                   "the child's user has no name in the view's passwd:\n%s", text);
    KIT_ASSERT_MSG(!strstr(text, "wrote-root") && !strstr(text, "wrote-usr"), "the child wrote into / or /usr:\n%s",
                   text);
    /* /tmp is the run's own; /proc stays writable (the CUDA driver writes there: read-only, cudaMalloc fails) */
    KIT_ASSERT_MSG(strstr(text, "wrote-tmp") && strstr(text, "proc-writable") && strstr(text, "null-writable"),
                   "/tmp, /proc/self or /dev/null refused a write:\n%s", text);
    KIT_ASSERT_MSG(access("/probe", F_OK) != 0 && access("/usr/probe", F_OK) != 0, "a probe reached the host");
}

/* Each run's /tmp and /dev/shm are its own, and empty. */
static void test_view_private_tmp(void)
{
    sb_limits lim = base_limits();
    lim.isolate = 1;
    lim.view = NULL;
    sb_result r;
    const char *text = run_script("echo left > /tmp/kit-sbt-probe && echo > /dev/shm/kit-sbt-probe && "
                                  "echo entries $(ls -A /tmp | wc -l) $(ls -A /dev/shm | wc -l)",
                                  lim, &r);
    KIT_ASSERT_MSG(strstr(text, "entries 1 1") != NULL, "the first run's /tmp and /dev/shm were not empty: '%s'", text);
    KIT_ASSERT_MSG(access("/tmp/kit-sbt-probe", F_OK) != 0, "the run wrote into the grader's /tmp");
    text = run_script("echo entries $(ls -A /tmp | wc -l) $(ls -A /dev/shm | wc -l)", lim, &r);
    KIT_ASSERT_MSG(strstr(text, "entries 0 0") != NULL, "the next run found files in /tmp or /dev/shm: '%s'", text);
}

/* A probe script: for each path, "seen PATH" when it can list or read it, then "wrote PATH" for each it can write. */
static void probe_script(const char *const *look, const char *const *write, char *script, size_t len)
{
    script[0] = '\0';
    for (; *look; look++)
        snprintf(script + strlen(script), len - strlen(script),
                 "(ls -A '%s' || cat '%s') >/dev/null 2>&1 && echo 'seen %s'; ", *look, *look, *look);
    for (; write && *write; write++)
        snprintf(script + strlen(script), len - strlen(script), "touch '%s/kit-sbt-w' 2>/dev/null && echo 'wrote %s'; ",
                 *write, *write);
    snprintf(script + strlen(script), len - strlen(script), "exit 0");
}

static int said(const char *text, const char *verb, const char *path)
{
    char line[4700];
    snprintf(line, sizeof line, "%s %s\n", verb, path);
    return strstr(text, line) != NULL;
}

/* Makes a 0700 folder of root's, as the grader's scratch folders are; returns 0 or -1. */
static int private_folder(const char *path)
{
    return mkdir(path, 0700) == 0 && chmod(path, 0700) == 0 ? 0 : -1;
}

/*
 * A compile's view of this kit (sb_view_compile): the child reads common/, the harnesses, its
 * sources; writes only its output folder and /tmp; and sees none of /work, /root, /home, the kit's
 * .git, results/, handouts/answers/, solutions/, grader/ or build/, nor the scratch folder beside it
 * (another grader's). Without the view, as root, the same probe sees them all: the probe works.
 */
static void test_view_secrets(void)
{
    char work[4200], mine[4300], other[4300], sources[4400], out[4400], secret[4500], top[4500], lib[4400];
    snprintf(work, sizeof work, "%s/work", scratch);
    snprintf(mine, sizeof mine, "%s/01-x.mine", work);
    snprintf(other, sizeof other, "%s/01-x.other", work);
    snprintf(sources, sizeof sources, "%s/scratch", mine);
    snprintf(out, sizeof out, "%s/bin", mine);
    snprintf(secret, sizeof secret, "%s/scratch/answer.cuh", other);
    snprintf(top, sizeof top, "%s/request.bin", mine);
    snprintf(lib, sizeof lib, "%s/build/libkitcpu.a", kit);
    char sub[4500];
    snprintf(sub, sizeof sub, "%s/scratch", other);
    KIT_ASSERT_MSG(mkdir(work, 0755) == 0 && private_folder(mine) == 0 && private_folder(other) == 0 &&
                       mkdir(sources, 0755) == 0 && mkdir(out, 0755) == 0 && chown(out, sandbox_uid, sandbox_uid) == 0 &&
                       mkdir(sub, 0755) == 0,
                   "could not make the scratch folders in %s: %s", work, strerror(errno));
    FILE *f = fopen(secret, "w");
    if (f)
        fclose(f), chmod(secret, 0644);
    f = fopen(top, "w");
    if (f)
        fclose(f), chmod(top, 0644);
    char student[4500];
    snprintf(student, sizeof student, "%s/student.cuh", sources);
    f = fopen(student, "w");
    if (f)
        fclose(f), chmod(student, 0644);
    sb_view v;
    KIT_ASSERT_MSG(sb_view_compile(&v, kit, sources, out, "/usr/bin/g++", access(lib, R_OK) == 0 ? lib : NULL) == 0,
                   "sb_view_compile failed");
    char common[4300], harness[4300], git[4300], results[4300], answers[4300], solutions[4300], grader[4300],
        build[4300];
    snprintf(common, sizeof common, "%s/common/kit.h", kit);
    snprintf(harness, sizeof harness, "%s/labs/03-basic-merge/harness/merge_run.cuh", kit);
    snprintf(git, sizeof git, "%s/.git", kit);
    snprintf(results, sizeof results, "%s/results", kit);
    snprintf(answers, sizeof answers, "%s/handouts/answers", kit);
    snprintf(solutions, sizeof solutions, "%s/solutions", kit);
    snprintf(grader, sizeof grader, "%s/grader/hidden", kit);
    snprintf(build, sizeof build, "%s/build/grade", kit);
    const char *readable[] = {common, harness, student, NULL};
    const char *hidden[] = {"/work", "/root", "/home", git, results, answers, solutions, grader, build, other, secret,
                            top, NULL};
    const char *look[24], *write[] = {out, sources, mine, "/tmp", "/", NULL};
    int n = 0;
    for (const char **p = readable; *p; p++)
        look[n++] = *p;
    for (const char **p = hidden; *p; p++)
        look[n++] = *p;
    look[n] = NULL;
    char script[16384];
    probe_script(look, write, script, sizeof script);
    sb_limits lim = base_limits();
    lim.isolate = 1;
    lim.seccomp = have_seccomp;
    lim.view = v.bind;
    sb_result r;
    char text[16384];
    snprintf(text, sizeof text, "%s", run_script(script, lim, &r));
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0, "the probe ended with kind %d code %d:\n%s", r.kind, r.code, text);
    for (const char **p = readable; *p; p++)
        KIT_ASSERT_MSG(said(text, "seen", *p), "the compile's view lacks %s:\n%s", *p, text);
    for (const char **p = hidden; *p; p++)
        KIT_ASSERT_MSG(!said(text, "seen", *p), "the compile's view shows %s:\n%s", *p, text);
    KIT_ASSERT_MSG(said(text, "wrote", out) && said(text, "wrote", "/tmp"),
                   "the output folder or /tmp could not be written:\n%s", text);
    KIT_ASSERT_MSG(!said(text, "wrote", sources) && !said(text, "wrote", mine) && !said(text, "wrote", "/"),
                   "the child wrote outside its output folder and /tmp:\n%s", text);
    /* the contrast: as root without a view, the probe sees what exists (and the sandbox user alone, nothing of other) */
    probe_script(look, NULL, script, sizeof script);
    lim.isolate = 0;
    lim.uid = 0;
    snprintf(text, sizeof text, "%s", run_script(script, lim, &r));
    for (const char **p = hidden; *p; p++)
        KIT_ASSERT_MSG(access(*p, F_OK) != 0 || said(text, "seen", *p), "without a view, root could not see %s:\n%s",
                       *p, text);
    lim.uid = sandbox_uid; /* no view, a user of its own: the 0700 folders keep another grader's runner out */
    if (sandbox_uid) {
        snprintf(text, sizeof text, "%s", run_script(script, lim, &r));
        KIT_ASSERT_MSG(!said(text, "seen", other) && !said(text, "seen", secret) && !said(text, "seen", top),
                       "without a view, the sandbox user reached a 0700 scratch folder:\n%s", text);
    }
}

/* A run's view (sb_view_run): its runner's folder read-only, its run folder read-only in CPU mode, writable in GPU mode. */
static void test_view_run(void)
{
    char dir[4200], bin[4300], rundir[4300], runner[4400], sources[4300];
    snprintf(dir, sizeof dir, "%s/runview", scratch);
    snprintf(bin, sizeof bin, "%s/bin", dir);
    snprintf(rundir, sizeof rundir, "%s/run", dir);
    snprintf(sources, sizeof sources, "%s/scratch", dir);
    snprintf(runner, sizeof runner, "%s/runner", bin);
    KIT_ASSERT_MSG(private_folder(dir) == 0 && mkdir(bin, 0755) == 0 && mkdir(rundir, 0777) == 0 &&
                       chmod(rundir, 0777) == 0 && mkdir(sources, 0755) == 0,
                   "could not make %s: %s", dir, strerror(errno));
    FILE *f = fopen(runner, "w");
    if (f)
        fprintf(f, "#!/bin/sh\ntest -e %s/bin/runner && echo sees-bin; test -e %s && echo sees-scratch; "
                   "touch %s/log 2>/dev/null && echo wrote-run; exit 0\n", dir, sources, rundir), fclose(f);
    chmod(runner, 0755);
    for (int gpu = 0; gpu < 2; gpu++) {
        sb_view v;
        const char *tools[] = {NULL, "/usr/bin/env"};
        KIT_ASSERT_MSG(sb_view_run(&v, runner, rundir, gpu, tools, 2) == 0, "sb_view_run failed");
        sb_limits lim = base_limits();
        lim.isolate = 1;
        lim.view = v.bind;
        lim.cwd = rundir;
        char *argv[] = {runner, NULL};
        sb_result r;
        const char *text = run(argv, lim, &r, NULL, 0);
        KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0, "the runner ended with kind %d code %d: %s", r.kind, r.code,
                       text);
        KIT_ASSERT_MSG(strstr(text, "sees-bin") && !strstr(text, "sees-scratch"),
                       "the runner should see its folder, not the sources beside it: '%s'", text);
        KIT_ASSERT_MSG(!strstr(text, "wrote-run") == !gpu, "%s mode: the run folder was %s", gpu ? "GPU" : "CPU",
                       gpu ? "read-only" : "written");
    }
}

/* sb_view_add merges a second bind of a place, a full view fails its runs, and a tool outside /usr brings its folder. */
static void test_view_assembly(void)
{
    static sb_view v;
    sb_view_init(&v);
    KIT_ASSERT_MSG(sb_view_add(&v, scratch, NULL, 0) == 0 && sb_view_add(&v, scratch, NULL, 1) == 0 && v.n == 1 &&
                       v.bind[0].writable == 1 && v.bind[1].from == NULL,
                   "a second bind of one folder was not merged into the first (%d binds)", v.n);
    KIT_ASSERT_MSG(sb_view_add_tool(&v, "/usr/bin/env") == 0 && v.n == 1, "a tool under /usr added a bind");
    char opt[4300], tool[4400];
    snprintf(opt, sizeof opt, "%s/opt-tool", scratch);
    snprintf(tool, sizeof tool, "%s/bin", opt);
    mkdir(opt, 0755);
    mkdir(tool, 0755);
    strncat(tool, "/tool", sizeof tool - strlen(tool) - 1);
    FILE *f = fopen(tool, "w");
    if (f)
        fclose(f);
    KIT_ASSERT_MSG(sb_view_add_tool(&v, tool) == 0 && v.n == 2 && strcmp(v.bind[1].from, opt) == 0,
                   "the tool %s brought %s, not %s", tool, v.n == 2 ? v.bind[1].from : "nothing", opt);
    char name[64];
    int rc = 0;
    for (int i = 0; i < SB_VIEW_MAX + 1 && rc == 0; i++) { /* binds that would work, but one too many */
        snprintf(name, sizeof name, "/kit-sbt/%d", i);
        rc = sb_view_add(&v, scratch, name, 0);
    }
    KIT_ASSERT_MSG(rc == -1 && v.failed, "a view took %d binds", SB_VIEW_MAX + 1);
    sb_limits lim = base_limits();
    lim.isolate = 1;
    lim.view = v.bind;
    sb_result r;
    run_script("echo ran", lim, &r);
    KIT_ASSERT_MSG(r.kind == SB_ERROR, "a run with a poisoned view ended with kind %d code %d, not SB_ERROR", r.kind,
                   r.code);
}

/* ---- limits on the whole tree (cgroups) ---------------------------------------------------- */

/* Four children of 400 MiB each: under a 1 GiB limit the run is stopped for memory; under 2 GiB it ends well. */
static void test_tree_memory(void)
{
    sb_limits lim = base_limits();
    lim.isolate = 1;
    lim.mem_bytes = 1LL << 30;
    lim.nproc = 16;
    lim.timeout_s = 180; /* 1.6 GiB of fresh pages take seconds of system time, more on a busy machine or in a VM */
    char how[160];
    sb_result r = run_helper("tree", lim, how, sizeof how);
    KIT_ASSERT_MSG(r.mem_limit_hit && r.kind != SB_TIMEOUT && !(r.kind == SB_EXITED && r.code == 0),
                   "4 x 400 MiB under 1 GiB: kind %d code %d, limit hit %d, peak %lld MiB", r.kind, r.code,
                   r.mem_limit_hit, r.mem_peak_bytes >> 20);
    KIT_ASSERT_MSG(strcmp(how, "memory limit 1024 MiB exceeded") == 0, "4 x 400 MiB under 1 GiB was described as '%s'",
                   how);
    KIT_ASSERT_MSG(r.mem_peak_bytes <= 1LL << 30, "the tree's peak %lld MiB passed the 1024 MiB limit",
                   r.mem_peak_bytes >> 20);
    lim.mem_bytes = 2LL << 30;
    char out[] = "/tmp/kit-sbt-XXXXXX";
    close(mkstemp(out));
    lim.stdout_path = out;
    char *argv[] = {self_exe, (char *)"--helper", (char *)"tree", NULL};
    KIT_ASSERT_MSG(sb_run(argv, &lim, &r) == 0, "sb_run could not fork");
    sb_describe(&r, &lim, how, sizeof how);
    const char *text = slurp(out);
    remove(out);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0 && !r.mem_limit_hit && strstr(text, "all four held 400 MiB"),
                   "4 x 400 MiB under 2 GiB: %s, limit hit %d, output '%s'", how, r.mem_limit_hit, text);
    /* the cgroup counted the whole tree: more than any one child, or RLIMIT_AS, would */
    KIT_ASSERT_MSG(r.mem_peak_bytes >= 4 * 380LL << 20, "the tree's peak was %lld MiB, below 4 x 380 MiB",
                   r.mem_peak_bytes >> 20);
}

/* Runs the fork loop as `uid` under a pids limit of n; returns how many children it started (-1: no count). */
static int forks_under(unsigned uid, long n, int isolate, sb_result *r, char *how, size_t len)
{
    sb_limits lim = base_limits();
    lim.uid = lim.gid = uid;
    lim.isolate = isolate;
    lim.nproc = n;
    char *argv[] = {self_exe, (char *)"--helper", (char *)"fork-loop", NULL};
    const char *text = run(argv, lim, r, how, len);
    const char *at = strstr(text, "started ");
    return at ? atoi(at + 8) : -1;
}

/* A fork loop stops at the pids limit, as root too (whom RLIMIT_NPROC does not hold), isolated or not. */
static void test_tree_pids(void)
{
    for (int isolate = 0; isolate < 2; isolate++) {
        sb_result r;
        char how[160];
        int started = forks_under(0, 20, isolate, &r, how, sizeof how);
        KIT_ASSERT_MSG(started >= 15 && started <= 20 && r.kind == SB_EXITED && r.code == 5,
                       "root%s under a limit of 20: %d children, then %s", isolate ? ", isolated," : "", started, how);
        KIT_ASSERT_MSG(r.pids_limit_hit && strcmp(how, "process limit exceeded (20 processes and threads)") == 0,
                       "the fork loop stopped at the limit was described as '%s' (limit hit %d)", how,
                       r.pids_limit_hit);
        started = forks_under(0, 40, isolate, &r, how, sizeof how); /* the contrast: the limit, not the machine */
        KIT_ASSERT_MSG(started >= 35 && started <= 40, "root under a limit of 40 started %d children", started);
    }
}

/* The names in folder dir that belong to this process's runs (<uid>-<pid>-<seq>), as one string. */
static void runs_of_mine(const char *dir, char *buf, size_t len)
{
    char mark[32];
    snprintf(mark, sizeof mark, "-%ld-", (long)getpid());
    buf[0] = '\0';
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        if (strstr(e->d_name, mark))
            snprintf(buf + strlen(buf), len - strlen(buf), " %s", e->d_name);
    if (d)
        closedir(d);
}

/* This program again, with --cgroups: a fresh process, which finds the cgroups (and sweeps the dead's) once. */
static void cgroups_child(void)
{
    execl(self_exe, self_exe, "--cgroups", (char *)NULL);
    _exit(91);
}

/* A pid that ran and is gone: a child that exited and was reaped. */
static long dead_pid(void)
{
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    waitpid(pid, NULL, 0);
    return (long)pid;
}

/* A grader that dies mid-run leaves its run's cgroup; the next grader to start removes it, not a living one's. */
static void test_tree_dead_swept(void)
{
    char mem[1200], dead[1300], alive[1300];
    sb_cgroup_version(mem, NULL, sizeof mem);
    KIT_ASSERT_MSG(mkdir(mem, 0755) == 0 || errno == EEXIST, "cannot make %s: %s", mem, strerror(errno));
    snprintf(dead, sizeof dead, "%s/0-%ld-7", mem, dead_pid());
    snprintf(alive, sizeof alive, "%s/0-%ld-7", mem, (long)getppid()); /* a process that lives on: not ours to sweep */
    KIT_ASSERT_MSG(mkdir(dead, 0755) == 0 && mkdir(alive, 0755) == 0, "cannot make cgroups in %s: %s", mem,
                   strerror(errno));
    char *output = NULL;
    int status = kit_test_run_child(cgroups_child, 1, &output);
    KIT_ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s --cgroups ended with status %d: %s", self_exe,
                   status, output ? output : "");
    free(output);
    KIT_ASSERT_MSG(access(dead, F_OK) != 0, "a dead grader's cgroup %s was not removed", dead);
    KIT_ASSERT_MSG(access(alive, F_OK) == 0, "a living process's cgroup %s was removed", alive);
    rmdir(alive);
    rmdir(mem); /* as cg_remove leaves it: gone when no grader uses it */
}

/* The child runs in a cgroup of its own under kit-grader/, which is gone after the run (none of ours is left). */
static void test_tree_cgroup_removed(void)
{
    char mem[1200], pids[1200], left[2048];
    int version = sb_cgroup_version(mem, pids, sizeof mem);
    sb_limits lim = base_limits();
    lim.isolate = 1;
    lim.mem_bytes = 256LL << 20;
    lim.nproc = 8;
    sb_result r;
    const char *text = run_script("cat /proc/self/cgroup", lim, &r);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0 && strstr(text, "/kit-grader/"),
                   "the child is not in a cgroup of kit-grader (v%d, %s):\n%s", version, mem, text);
    runs_of_mine(mem, left, sizeof left);
    KIT_ASSERT_MSG(left[0] == '\0', "cgroups left in %s:%s", mem, left);
    runs_of_mine(pids, left, sizeof left);
    KIT_ASSERT_MSG(left[0] == '\0', "cgroups left in %s:%s", pids, left);
}

/* ---- where no cgroup can be written: per-process limits, one line that says so ------------------ */

static char fallback_out[4200]; /* where the child of test_fallback writes what it found */

/* As nobody, this program again with --fallback (a fresh process: nothing of ours probed). */
static void fallback_child(void)
{
    if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0))
        _exit(90);
    execl(self_exe, self_exe, "--fallback", fallback_out, (char *)NULL);
    _exit(91);
}

/* In the fallback process: the report, and a hog under 192 MiB, into the file at `to`. */
static int fallback_main(const char *to)
{
    FILE *f = fopen(to, "w");
    if (!f)
        return 2;
    fprintf(f, "report: %s\ncgroup v%d\n", sb_isolation_report(), sb_cgroup_version(NULL, NULL, 0));
    sb_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.timeout_s = 20;
    lim.mem_bytes = 192LL << 20;
    char *argv[] = {self_exe, (char *)"--helper", (char *)"hog", NULL};
    sb_result r;
    char how[160] = "";
    if (sb_run(argv, &lim, &r) == 0)
        sb_describe(&r, &lim, how, sizeof how);
    fprintf(f, "hog: kind %d code %d, %s\n", r.kind, r.code, how);
    /* where the report says so, an isolated run sees its view (in a user namespace): no /root, no kit */
    char out[] = "/tmp/kit-sbt-XXXXXX", script[4400];
    close(mkstemp(out));
    snprintf(script, sizeof script, "test -e /root && echo sees-root; test -e '%s' && echo sees-kit; echo ran", kit);
    char *sh[] = {(char *)"/bin/sh", (char *)"-c", script, NULL};
    lim.isolate = 1;
    lim.stdout_path = out;
    if (sb_run(sh, &lim, &r) == 0)
        fprintf(f, "view: %s", slurp(out));
    remove(out);
    return fclose(f) == 0 ? 0 : 2;
}

/* Not root (as nobody, when we are root): no cgroup, RLIMIT_AS stops the hog, and the report says so in its line. */
static void test_fallback(void)
{
    snprintf(fallback_out, sizeof fallback_out, "%s/fallback.txt", scratch);
    FILE *f = fopen(fallback_out, "w"); /* nobody's to write */
    if (f)
        fclose(f);
    chmod(fallback_out, 0666);
    char *output = NULL;
    int status = geteuid() == 0 ? kit_test_run_child(fallback_child, 1, &output) : (fallback_main(fallback_out) << 8);
    free(output);
    const char *text = slurp(fallback_out);
    if (WIFEXITED(status) && (WEXITSTATUS(status) == 90 || WEXITSTATUS(status) == 91)) {
        printf("\n  (nobody may not run %s here: the fallback is not checked)\n", self_exe);
        return;
    }
    KIT_ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the fallback process ended with status %d: '%s'",
                   status, text);
    KIT_ASSERT_MSG(strstr(text, "cgroup v0\n") && strstr(text, "; memory and process limits per process only"),
                   "not root, the report does not say that limits are per process:\n%s", text);
    KIT_ASSERT_MSG(strstr(text, "hog: kind 0 code 3, memory limit 192 MiB exceeded"),
                   "not root, the hog under RLIMIT_AS:\n%s", text);
    if (strstr(text, "each seeing only the files assembled for it"))
        KIT_ASSERT_MSG(strstr(text, "view: ran\n"), "not root, an isolated run saw /root or the kit:\n%s", text);
    else
        printf("\n  (no user namespaces for nobody here: the view without root is not checked)\n");
}

/* ---- compilers in a compile's view, and a CUDA program under isolation ----------------------- */

/*
 * A kit of three files in scratch/minikit (common/, two labs' harnesses, one including the other's
 * by relative path) and a work folder beside it, as the grader lays them out: the student's file
 * in mine/scratch, the output in mine/bin, and a model answer in minikit/solutions.
 */
static void make_minikit(char *kitdir, size_t klen, char *sources, char *out, char *runs, size_t len)
{
    snprintf(kitdir, klen, "%s/minikit", scratch);
    const char *const dirs[] = {"", "/common", "/labs", "/labs/01-x", "/labs/01-x/harness", "/labs/02-y",
                                "/labs/02-y/harness", "/solutions", "/work", "/work/mine"};
    char path[4400];
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(path, sizeof path, "%s%s", kitdir, dirs[i]);
        mkdir(path, 0755);
    }
    snprintf(path, sizeof path, "%s/work/mine", kitdir);
    chmod(path, 0700);
    snprintf(sources, len, "%s/work/mine/scratch", kitdir);
    snprintf(out, len, "%s/work/mine/bin", kitdir);
    snprintf(runs, len, "%s/work/mine/run", kitdir);
    mkdir(sources, 0755);
    mkdir(out, 0755);
    if (chown(out, sandbox_uid, sandbox_uid) != 0)
        fprintf(stderr, "chown %s: %s\n", out, strerror(errno));
    mkdir(runs, 0711);
    snprintf(path, sizeof path, "%s/common", kitdir);
    write_text(path, "mini.h", "#define MINI_BASE 40\n", 0644);
    snprintf(path, sizeof path, "%s/labs/02-y/harness", kitdir);
    write_text(path, "given.cuh", "static int given(int x) { return x + 1; }\n", 0644);
    snprintf(path, sizeof path, "%s/labs/01-x/harness", kitdir);
    write_text(path, "driver.cu",
               "#include <cstdio>\n#include \"mini.h\"\n#include \"../../02-y/harness/given.cuh\"\n"
               "#include \"student.cuh\"\nint main() { std::printf(\"sum %d\\n\", given(student(MINI_BASE))); }\n",
               0644);
    write_text(path, "kernel.cu",
               "#include \"mini.h\"\n#include \"student.cuh\"\n__global__ void add(int *x) { x[threadIdx.x] += "
               "student(MINI_BASE); }\n",
               0644);
    snprintf(path, sizeof path, "%s/solutions", kitdir);
    write_text(path, "answer.cuh", "the model answer\n", 0644);
    write_text(sources, "student.cuh", "__host__ __device__ static int student(int x) { return x + 1; }\n", 0644);
}

/* Runs one compiler command as the sandbox user in the compile's view; returns its output (static). */
static const char *compile_in_view(const char *const *cmd, const char *kitdir, const char *sources, const char *out,
                                   int isolate, sb_result *r)
{
    static char *envp[] = {(char *)"PATH=/usr/local/cuda/bin:/usr/bin:/bin", (char *)"TMPDIR=/tmp", NULL};
    static sb_view v;
    KIT_ASSERT_MSG(sb_view_compile(&v, kitdir, sources, out, cmd[0], NULL) == 0, "sb_view_compile failed");
    sb_limits lim = base_limits();
    lim.view = v.bind;
    lim.envp = envp;
    lim.timeout_s = 300;
    lim.nproc = 256;
    lim.mem_bytes = 4LL << 30;
    lim.tmp_bytes = 2LL << 30;
    lim.isolate = isolate;
    if (!isolate) /* the contrast: root, who may read the 0700 scratch folder */
        lim.uid = lim.gid = 0;
    lim.seccomp = have_seccomp;
    lim.cwd = out;
    return run((char *const *)cmd, lim, r, NULL, 0);
}

/* g++ builds the mini kit's runner in a compile's view, the runner runs in a run's view; .incbin of an answer fails. */
static void test_gxx_view(void)
{
    char kitdir[4200], sources[4300], out[4300], runs[4300], src[4400], obj[4400], exe[4400], inc[3][4400];
    make_minikit(kitdir, sizeof kitdir, sources, out, runs, sizeof sources);
    snprintf(src, sizeof src, "%s/labs/01-x/harness/driver.cu", kitdir);
    snprintf(obj, sizeof obj, "%s/runner.o", out);
    snprintf(exe, sizeof exe, "%s/runner", out);
    snprintf(inc[0], sizeof inc[0], "-I%s", sources);
    snprintf(inc[1], sizeof inc[1], "-I%s/common", kitdir);
    const char *compile[] = {"/usr/bin/g++", "-x", "c++", "-D__host__=", "-D__device__=", "-std=c++17", inc[0], inc[1],
                             "-c", src, "-o", obj, NULL};
    sb_result r;
    const char *text = compile_in_view(compile, kitdir, sources, out, 1, &r);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0 && access(obj, F_OK) == 0,
                   "g++ -c in a compile's view: kind %d code %d:\n%s", r.kind, r.code, text);
    const char *link[] = {"/usr/bin/g++", obj, "-o", exe, NULL};
    text = compile_in_view(link, kitdir, sources, out, 1, &r);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0, "g++ link in a compile's view: kind %d code %d:\n%s", r.kind,
                   r.code, text);
    sb_view v;
    KIT_ASSERT_MSG(sb_view_run(&v, exe, runs, 0, NULL, 0) == 0, "sb_view_run failed");
    sb_limits lim = base_limits();
    lim.isolate = 1;
    lim.view = v.bind;
    lim.cwd = runs;
    lim.mem_bytes = 256LL << 20;
    char *argv[] = {exe, NULL};
    text = run(argv, lim, &r, NULL, 0);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0 && strcmp(text, "sum 42\n") == 0,
                   "the runner in a run's view: kind %d code %d, output '%s'", r.kind, r.code, text);
    /* an assembler directive that reads a file (the build-time leak) finds nothing outside the view */
    char answer[4400], thief[4600];
    snprintf(answer, sizeof answer, "%s/solutions/answer.cuh", kitdir);
    snprintf(thief, sizeof thief, "asm(\".incbin \\\"%s\\\"\");\nint main() { return 0; }\n", answer);
    write_text(sources, "thief.cc", thief, 0644);
    snprintf(src, sizeof src, "%s/thief.cc", sources);
    snprintf(obj, sizeof obj, "%s/thief.o", out);
    const char *steal[] = {"/usr/bin/g++", "-c", src, "-o", obj, NULL};
    text = compile_in_view(steal, kitdir, sources, out, 1, &r);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code != 0 && strstr(text, "answer.cuh"),
                   ".incbin of the model answer in a compile's view: kind %d code %d:\n%s", r.kind, r.code, text);
    text = compile_in_view(steal, kitdir, sources, out, 0, &r); /* the contrast: without the view it works */
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0, ".incbin of the model answer without a view failed:\n%s", text);
}

/* nvcc compiles a kernel to an object in a compile's view (its temporaries in the private /tmp). */
static void test_nvcc_view(void)
{
    char kitdir[4200], sources[4300], out[4300], runs[4300], src[4400], obj[4400], inc[2][4400];
    make_minikit(kitdir, sizeof kitdir, sources, out, runs, sizeof sources);
    snprintf(src, sizeof src, "%s/labs/01-x/harness/kernel.cu", kitdir);
    snprintf(obj, sizeof obj, "%s/kernel.o", out);
    snprintf(inc[0], sizeof inc[0], "-I%s", sources);
    snprintf(inc[1], sizeof inc[1], "-I%s/common", kitdir);
    const char *compile[] = {"/usr/local/cuda/bin/nvcc", inc[0], inc[1], "-c", src, "-o", obj, NULL};
    sb_result r;
    const char *text = compile_in_view(compile, kitdir, sources, out, 1, &r);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0 && access(obj, F_OK) == 0,
                   "nvcc -c in a compile's view: kind %d code %d:\n%s", r.kind, r.code, text);
}

/* On a GPU: a CUDA program, compiled in a compile's view, runs its kernel in a GPU run's view. */
static void test_cuda_run(void)
{
    char kitdir[4200], sources[4300], out[4300], runs[4300], src[4400], exe[4400];
    make_minikit(kitdir, sizeof kitdir, sources, out, runs, sizeof sources);
    write_text(sources, "hello.cu",
               "#include <cstdio>\n__global__ void add(int *x) { x[threadIdx.x] += threadIdx.x; }\n"
               "int main() { int h[32] = {0}, *d, s = 0;\n"
               "  if (cudaMalloc(&d, sizeof h) != cudaSuccess) { std::printf(\"no device\\n\"); return 3; }\n"
               "  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);\n  add<<<1, 32>>>(d);\n"
               "  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);\n  for (int i = 0; i < 32; i++) s += h[i];\n"
               "  std::printf(\"sum %d\\n\", s);\n  return s == 496 ? 0 : 1; }\n",
               0644);
    snprintf(src, sizeof src, "%s/hello.cu", sources);
    snprintf(exe, sizeof exe, "%s/hello", out);
    const char *compile[] = {"/usr/local/cuda/bin/nvcc", "-arch=native", src, "-o", exe, NULL};
    sb_result r;
    const char *text = compile_in_view(compile, kitdir, sources, out, 1, &r);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0, "nvcc in a compile's view: kind %d code %d:\n%s", r.kind, r.code,
                   text);
    sb_view v;
    KIT_ASSERT_MSG(sb_view_run(&v, exe, runs, 1, NULL, 0) == 0, "sb_view_run failed");
    sb_limits lim = base_limits();
    lim.isolate = 1;
    lim.seccomp = have_seccomp;
    lim.view = v.bind;
    lim.cwd = runs;
    char *argv[] = {exe, NULL};
    text = run(argv, lim, &r, NULL, 0);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0 && strstr(text, "sum 496"),
                   "a CUDA program in a GPU run's view: kind %d code %d, output '%s'", r.kind, r.code, text);
}

/* ---- the outer seccomp filter ------------------------------------------------------------ */

/* Runs a helper without the filter, where it must exit 0, and under it, where it must be killed (or not). */
static void expect_filter(const char *helper, int killed)
{
    sb_limits lim = base_limits();
    char how[160];
    sb_result r = run_helper(helper, lim, how, sizeof how);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0, "without the filter, helper %s: %s", helper, how);
    lim.seccomp = 1;
    r = run_helper(helper, lim, how, sizeof how);
    if (killed)
        KIT_ASSERT_MSG(r.kind == SB_SIGNALED && r.code == SIGSYS && strstr(how, "forbidden system call"),
                       "under the filter, helper %s was not killed by it: %s", helper, how);
    else
        KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0, "under the filter, helper %s failed: %s", helper, how);
}

static void test_filter(void)
{
    expect_filter("ptrace", 1);
    expect_filter("socket-inet", 1);
    expect_filter("socket-unix", 0);
    expect_filter("netlink-route", 0);
    expect_filter("netlink-generic", 1);
    /* unshare(CLONE_NEWUSER) works without the filter only where the kernel gives users namespaces */
    char how[160];
    sb_result r = run_helper("unshare", base_limits(), how, sizeof how);
    if (r.kind == SB_EXITED && r.code == 0)
        expect_filter("unshare", 1);
    else
        printf("\n  (the sandbox user may not make a user namespace here, filter or not: unshare left out)\n");
}

/* ---- the runner's jail -------------------------------------------------------------------- */

static int jail_in = -1, jail_out = -1; /* pipes the jailed workers inherit, made before the jail */

/* Runs body in a forked child (its return value is the exit status); returns the child's wait status. */
static int in_child(int (*body)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit no_core = {0, 0}; /* SIGSYS and SIGABRT would dump core here */
        setrlimit(RLIMIT_CORE, &no_core);
        _exit(body());
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

/* "exit 3" or "signal 31 (Bad system call)", for messages. */
static const char *status_text(int status)
{
    static char text[80];
    if (WIFSIGNALED(status))
        snprintf(text, sizeof text, "signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(text, sizeof text, "exit %d", WEXITSTATUS(status));
    return text;
}

static int jail_then_open(void)
{
    if (kit_jail_enter() != 0)
        return 2;
    return open("/etc/hostname", O_RDONLY) >= 0 ? 0 : 3;
}

static void test_jail_open(void)
{
    int status = in_child(jail_then_open);
    KIT_ASSERT_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS, "open after the jail ended with %s, not SIGSYS",
                   status_text(status));
}

/* After the jail: reads "ping" from jail_in, fills 100 MB, answers through stdio on jail_out. */
static int jail_then_work(void)
{
    FILE *reply = fdopen(jail_out, "w");
    if (!reply || kit_jail_enter() != 0)
        return 2;
    char ping[5] = "";
    if (read(jail_in, ping, 4) != 4 || strcmp(ping, "ping") != 0)
        return 3;
    size_t n = 100u << 20;
    unsigned char *big = malloc(n);
    if (!big)
        return 4;
    memset(big, 7, n);
    unsigned long sum = 0;
    for (size_t i = 0; i < n; i += 4096)
        sum += big[i];
    free(big);
    fprintf(reply, "pong %lu tty %d\n", sum, isatty(jail_out)); /* isatty: the ioctl fails with ENOTTY */
    return fflush(reply) == 0 ? 0 : 5;
}

static void test_jail_work(void)
{
    int in[2], out[2];
    KIT_ASSERT_MSG(pipe(in) == 0 && pipe(out) == 0, "pipe: %s", strerror(errno));
    jail_in = in[0];
    jail_out = out[1];
    KIT_ASSERT_MSG(write(in[1], "ping", 4) == 4, "write: %s", strerror(errno));
    int status = in_child(jail_then_work);
    close(out[1]);
    char text[64] = "";
    ssize_t got = read(out[0], text, sizeof text - 1);
    text[got > 0 ? got : 0] = '\0';
    close(in[0]);
    close(in[1]);
    close(out[0]);
    KIT_ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the jailed worker ended with %s",
                   status_text(status));
    char want[64];
    snprintf(want, sizeof want, "pong %lu tty 0\n", 7ul * ((100ul << 20) / 4096));
    KIT_ASSERT_MSG(strcmp(text, want) == 0, "the jailed worker answered '%s', not '%s'", text, want);
}

/* Two contexts that hand control back and forth, as the CPU emulation's GPU threads do. */
static ucontext_t main_ctx, coroutine_ctx;
static volatile int switches;

static void coroutine(void)
{
    for (;;) {
        switches++;
        swapcontext(&coroutine_ctx, &main_ctx);
    }
}

static int jail_then_switch(void)
{
    static char stack[64 * 1024];
    if (kit_jail_enter() != 0)
        return 2;
    if (getcontext(&coroutine_ctx) != 0)
        return 3;
    coroutine_ctx.uc_stack.ss_sp = stack;
    coroutine_ctx.uc_stack.ss_size = sizeof stack;
    coroutine_ctx.uc_link = &main_ctx;
    makecontext(&coroutine_ctx, coroutine, 0);
    for (int i = 0; i < 10000; i++)
        if (swapcontext(&main_ctx, &coroutine_ctx) != 0)
            return 4;
    return switches == 10000 ? 0 : 5;
}

static void test_jail_swapcontext(void)
{
    int status = in_child(jail_then_switch);
    KIT_ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "10000 swapcontext round trips after the jail: %s",
                   status_text(status));
}

static int jail_then_fork(void)
{
    if (kit_jail_enter() != 0)
        return 2;
    return fork() >= 0 ? 0 : 3;
}

static int jail_then_kill_parent(void)
{
    if (kit_jail_enter() != 0)
        return 2;
    return kill(getppid(), 0) == 0 ? 0 : 3;
}

static int jail_then_abort(void)
{
    if (kit_jail_enter() != 0)
        return 2;
    abort();
}

static void test_jail_processes(void)
{
    int status = in_child(jail_then_fork);
    KIT_ASSERT_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS, "fork after the jail ended with %s, not SIGSYS",
                   status_text(status));
    status = in_child(jail_then_kill_parent);
    KIT_ASSERT_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS,
                   "a signal to another process after the jail ended with %s, not SIGSYS", status_text(status));
    status = in_child(jail_then_abort);
    KIT_ASSERT_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
                   "abort() after the jail ended with %s, not SIGABRT (a signal to itself is allowed)",
                   status_text(status));
}


/* ---- the scratch folder, and which suites can run here -------------------------------------------- */

/* Makes scratch/ next to this program: hello.cc, and room for each test's folders. */
static int make_scratch(void)
{
    snprintf(scratch, sizeof scratch, "%s", exe_dir);
    strncat(scratch, "/sandbox-scratch-XXXXXX", sizeof scratch - strlen(scratch) - 1);
    if (!mkdtemp(scratch))
        return -1;
    return chmod(scratch, 0755);
}

static void remove_scratch(void)
{
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    if (scratch[0] && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", scratch);
}

/* The kit this program was built in: the first folder above it that holds grader/sandbox.h; "" when none. */
static void find_kit(void)
{
    char dir[4096], probe[4200];
    snprintf(dir, sizeof dir, "%s", exe_dir);
    for (char *slash; (slash = strrchr(dir, '/')) && slash != dir;) {
        *slash = '\0';
        snprintf(probe, sizeof probe, "%s/grader/sandbox.h", dir);
        if (access(probe, F_OK) == 0) {
            snprintf(kit, sizeof kit, "%s", dir);
            return;
        }
    }
}

/* Does the sandbox's one-line report say this part of isolation is missing here? */
static int report_lacks(const char *part)
{
    return strstr(sb_isolation_report(), part) != NULL;
}

/* Adds a suite of one test, skipped with why_not unless that is NULL. */
static void one_test_suite(const char *suite, const char *test, CU_TestFunc fn, const char *why_not)
{
    CU_pSuite s = kit_test_suite(suite);
    kit_test_add(s, test, fn);
    if (why_not)
        kit_test_skip_suite(s, why_not);
}

static void register_isolation(void)
{
    const char *no_ns = NULL, *no_view = NULL, *no_nvcc, *no_gpu, *no_kit = NULL;
    if (!strstr(sb_isolation_report(), "runners isolated"))
        no_ns = no_view = "no namespaces here (see the line above)";
    else if (!sb_views_work())
        no_view = "the kernel refuses the view's mounts (see the line above)";
    if (!no_view && !kit[0])
        no_kit = "the kit this program was built in was not found above it";
    no_nvcc = no_view;
    if (!no_nvcc && access("/usr/local/cuda/bin/nvcc", X_OK) != 0)
        no_nvcc = "no /usr/local/cuda/bin/nvcc here";
    no_gpu = no_nvcc;
    if (!no_gpu && access("/dev/nvidia0", F_OK) != 0)
        no_gpu = "no GPU (/dev/nvidia0) here";
    CU_pSuite ns = kit_test_suite("namespaces");
    kit_test_add(ns, "the program is pid 1 of its own pid namespace", test_iso_pid1);
    kit_test_add(ns, "a setsid'd grandchild does not outlive the run", test_iso_no_leftovers);
    kit_test_add(ns, "exit codes, signals, exec errors and timeouts come through", test_iso_how_it_ended);
    if (no_ns)
        kit_test_skip_suite(ns, no_ns);
    CU_pSuite view = kit_test_suite("the view each run sees");
    kit_test_add(view, "an empty view: system folders, a few /etc files, a minimal /dev; / read-only",
                 test_view_holds_only_the_system);
    kit_test_add(view, "/tmp and /dev/shm are private and empty", test_view_private_tmp);
    kit_test_add(view, "a run's view: its runner's folder, its run folder (writable in GPU mode only)", test_view_run);
    kit_test_add(view, "binds merge, a full view fails its runs, a tool brings its folder", test_view_assembly);
    kit_test_add(view, "g++ builds a runner in a compile's view, it runs in a run's view; .incbin finds nothing",
                 test_gxx_view);
    if (no_view)
        kit_test_skip_suite(view, no_view);
    one_test_suite("the view of a compile of this kit",
                   "common/ and harnesses seen; no /work, /root, .git, results/, answers, solutions/, other scratch",
                   test_view_secrets, no_view ? no_view : no_kit);
    one_test_suite("nvcc in a compile's view", "nvcc compiles a kernel to an object (with the filter where there is one)",
                   test_nvcc_view, no_nvcc);
    one_test_suite("a CUDA program in a GPU run's view", "it runs its kernel (with the filter where there is one)",
                   test_cuda_run, no_gpu);
}

static void register_limits(void)
{
    CU_pSuite mem = kit_test_suite("memory limit");
    kit_test_add(mem, "a program over the limit is reported as such", test_memory_hog);
    kit_test_add(mem, "exit 87 and std::bad_alloc count, a plain failure does not", test_memory_other_signs);
    CU_pSuite tree = kit_test_suite("limits on the whole tree (cgroups)");
    kit_test_add(tree, "4 children x 400 MiB: stopped under 1 GiB, all done under 2 GiB", test_tree_memory);
    kit_test_add(tree, "a fork loop stops at the pids limit, as root too", test_tree_pids);
    kit_test_add(tree, "a dead grader's empty cgroups are removed by the next one, a living one's are not",
                 test_tree_dead_swept);
    kit_test_add(tree, "each run has a cgroup of its own under kit-grader/, removed after it", test_tree_cgroup_removed);
    char mem_dir[1200];
    if (geteuid() != 0)
        kit_test_skip_suite(tree, "cgroups are for a grader that runs as root (the fallback suite covers this user)");
    else if (!sb_cgroup_version(mem_dir, NULL, sizeof mem_dir))
        kit_test_skip_suite(tree, "no cgroup v1 or v2 that root may write here (see the line above)");
    one_test_suite("limits per process where no cgroup can be written",
                   "not root: the report says so, RLIMIT_AS stops a hog", test_fallback, NULL);
}

static void register_tests(void)
{
    char why[256];
    printf("%s\n", sb_isolation_report());
    have_seccomp = !report_lacks("no seccomp");
    CU_pSuite uid = kit_test_suite("a user id per grader");
    kit_test_add(uid, "two ids differ; a held one is refused to another process", test_uid_distinct);
    kit_test_add(uid, "processes left under an id are killed when it is acquired", test_uid_leftovers_killed);
    kit_test_add(uid, "the GPU lock: plain runs share it, a profiler holds it alone", test_gpu_lock);
    if (geteuid() != 0)
        kit_test_skip_suite(uid, "user ids of their own are for a grader that runs as root");
    else if (sb_uid_acquire(&sandbox_uid, why, sizeof why) != 0)
        kit_test_skip_suite(uid, why);
    register_limits();
    register_isolation();
    one_test_suite("outer seccomp filter", "ptrace, unshare, socket(AF_INET), other netlink kill; AF_UNIX works",
                   test_filter, have_seccomp ? NULL : "no seccomp filters here");
    CU_pSuite jail = kit_test_suite("runner jail");
    kit_test_add(jail, "open kills with SIGSYS", test_jail_open);
    kit_test_add(jail, "read, write, stdio and 100 MB of malloc work", test_jail_work);
    kit_test_add(jail, "swapcontext works", test_jail_swapcontext);
    kit_test_add(jail, "fork and signals to others kill; abort() still aborts", test_jail_processes);
    if (!have_seccomp)
        kit_test_skip_suite(jail, "no seccomp filters here");
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--helper") == 0)
        return helper_main(argv[2]);
    ssize_t n = readlink("/proc/self/exe", self_exe, sizeof self_exe - 1);
    if (n <= 0) {
        perror("test_sandbox: /proc/self/exe");
        return 2;
    }
    self_exe[n] = '\0';
    snprintf(exe_dir, sizeof exe_dir, "%s", self_exe);
    *strrchr(exe_dir, '/') = '\0';
    find_kit();
    if (argc == 3 && strcmp(argv[1], "--fallback") == 0) /* test_fallback's process, as nobody */
        return fallback_main(argv[2]);
    if (argc == 2 && strcmp(argv[1], "--cgroups") == 0) /* test_tree_dead_swept's process */
        return sb_cgroup_version(NULL, NULL, 0) ? 0 : 1;
    if (make_scratch() != 0) {
        fprintf(stderr, "test_sandbox: cannot make a scratch folder next to %s: %s\n", self_exe, strerror(errno));
        return 2;
    }
    int rc = kit_test_main("sandbox tests", register_tests);
    remove_scratch();
    return rc;
}
