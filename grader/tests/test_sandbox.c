/* Tests of what the sandbox contains: the memory limit, a user id per grader, namespaces, the outer seccomp filter and the runner's jail. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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
static char scratch[4096];  /* a folder of this test's next to it, outside /tmp (which isolation replaces) */
static unsigned sandbox_uid; /* as root, a user id of our own from sb_uid_acquire; else 0 */
static int have_seccomp;     /* whether the kernel takes seccomp filters (sb_isolation_report says) */

/* ---- this program, run again as `--helper NAME`, for what a shell script cannot do ---- */

static char *volatile hog_blocks[1024]; /* volatile, so the compiler keeps the hog's allocations */

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
    static char exe_dir[4096];
    static const char *keep[3];
    snprintf(exe_dir, sizeof exe_dir, "%s", self_exe);
    *strrchr(exe_dir, '/') = '\0';
    keep[0] = exe_dir; /* this program and its scratch folder beside it, inside /tmp where the kit is */
    keep[1] = scratch; /* checked out there (a CI clone): bound back in */
    lim.keep = keep;
    return lim;
}

/* Entries of the private /tmp that are not the kept scratch folder's way in (when the kit lies in /tmp). */
static int kept_in_tmp(void)
{
    return strncmp(scratch, "/tmp/", 5) == 0;
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

/* ---- the memory limit --------------------------------------------------------------- */

static void test_memory_hog(void)
{
    sb_limits lim = base_limits();
    lim.mem_bytes = 192LL << 20;
    char how[160];
    sb_result r = run_helper("hog", lim, how, sizeof how);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 3, "the hog should run out of memory and exit 3; kind %d code %d",
                   r.kind, r.code);
    KIT_ASSERT_MSG(r.max_rss_kb >= 90L * 192 * 1024 / 100 && r.max_rss_kb <= 192L * 1024,
                   "max_rss_kb %ld, expected 90-100%% of the 192 MiB limit (%ld KiB)", r.max_rss_kb, 192L * 1024);
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
    KIT_ASSERT_MSG(strcmp(how, "exit 1") == 0 && !sb_memory_exceeded(&r, &lim, NULL),
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

static void test_iso_hidden(void)
{
    char hidden[4200], script[8600];
    snprintf(hidden, sizeof hidden, "%s/hidden", scratch);
    snprintf(script, sizeof script, "cat %s/secret.txt; echo entries $(ls -A %s | wc -l)", hidden, hidden);
    sb_limits lim = base_limits();
    lim.isolate = 1;
    sb_result r;
    const char *text = run_script(script, lim, &r);
    KIT_ASSERT_MSG(strstr(text, "solution-42") != NULL, "without hide the probe could not read the secret: '%s'", text);
    const char *const hide[] = {hidden, NULL};
    lim.hide = hide;
    text = run_script(script, lim, &r);
    KIT_ASSERT_MSG(strstr(text, "solution-42") == NULL, "a hidden file was read: '%s'", text);
    KIT_ASSERT_MSG(strstr(text, "entries 0") != NULL, "a hidden folder is not empty: '%s'", text);
}

static void test_iso_read_only(void)
{
    char script[8600];
    snprintf(script, sizeof script,
             "touch %s/open/f 2>&1 || echo refused; touch %s/out/g && echo wrote-out; "
             "touch /probe-root 2>/dev/null && echo wrote-root; echo probe > /proc/self/comm && echo proc-writable; "
             "exit 0",
             scratch, scratch);
    char out[4200], open_file[4200], out_file[4200];
    snprintf(out, sizeof out, "%s/out", scratch);
    snprintf(open_file, sizeof open_file, "%s/open/f", scratch);
    snprintf(out_file, sizeof out_file, "%s/out/g", scratch);
    sb_limits lim = base_limits();
    lim.isolate = 1;
    const char *const writable[] = {out, NULL};
    lim.writable = writable;
    sb_result r;
    const char *text = run_script(script, lim, &r);
    KIT_ASSERT_MSG(access(open_file, F_OK) != 0 && strstr(text, "refused"),
                   "wrote into a folder not listed writable: '%s'", text);
    KIT_ASSERT_MSG(strstr(text, "Read-only file system") != NULL, "the refusal was not the read-only mount: '%s'",
                   text);
    KIT_ASSERT_MSG(access(out_file, F_OK) == 0 && strstr(text, "wrote-out"),
                   "could not write the writable folder: '%s'", text);
    KIT_ASSERT_MSG(strstr(text, "wrote-root") == NULL && access("/probe-root", F_OK) != 0, "wrote into /");
    /* the CUDA driver writes into /proc: read-only, cudaMalloc fails with "OS call failed" */
    KIT_ASSERT_MSG(strstr(text, "proc-writable") != NULL, "/proc/self is read-only in the sandbox: '%s'", text);
    remove("/probe-root");
    /* the contrast: without isolation the same user may write there, so the mount, not permissions, refused it */
    lim.isolate = 0;
    run_script(script, lim, &r);
    KIT_ASSERT_MSG(access(open_file, F_OK) == 0, "even without isolation %s could not be written", open_file);
    remove(open_file);
    remove(out_file);
}

static void test_iso_private_tmp(void)
{
    sb_limits lim = base_limits();
    lim.isolate = 1;
    sb_result r;
    const char *text = run_script("echo left > /tmp/kit-sbt-probe && echo > /dev/shm/kit-sbt-probe && "
                                  "echo entries $(ls -A /tmp | wc -l) $(ls -A /dev/shm | wc -l)",
                                  lim, &r);
    char want[32];
    snprintf(want, sizeof want, "entries %d 1", 1 + kept_in_tmp());
    KIT_ASSERT_MSG(strstr(text, want) != NULL, "the first run's /tmp and /dev/shm were not empty: '%s', expected '%s'",
                   text, want);
    KIT_ASSERT_MSG(access("/tmp/kit-sbt-probe", F_OK) != 0, "the run wrote into the grader's /tmp");
    text = run_script("echo entries $(ls -A /tmp | wc -l) $(ls -A /dev/shm | wc -l)", lim, &r);
    snprintf(want, sizeof want, "entries %d 0", kept_in_tmp());
    KIT_ASSERT_MSG(strstr(text, want) != NULL, "the next run found files in /tmp or /dev/shm: '%s', expected '%s'",
                   text, want);
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
    lim.timeout_s = 0.5;
    run_script("sleep 4242", lim, &r);
    KIT_ASSERT_MSG(r.kind == SB_TIMEOUT && r.seconds < 3, "a sleeper came back as kind %d after %.1f s", r.kind,
                   r.seconds);
    KIT_ASSERT_MSG(count_sleepers() == 0, "the timed-out sleeper outlived the run");
}

/* ---- compilers and a CUDA program under isolation and the outer filter ----------------------- */

/* Compiles scratch/NAME with compiler into the writable scratch/out, and runs it if run_it; returns the output. */
static const char *compile_and_run(const char *compiler, const char *name, int run_it, sb_result *r)
{
    char out[4200], script[12800];
    snprintf(out, sizeof out, "%s/out", scratch);
    snprintf(script, sizeof script, "cd %s && %s -o %s.bin %s/%s 2>&1 && echo compiled%s%s.bin", out, compiler, name,
             scratch, name, run_it ? " && ./" : "", run_it ? name : "");
    sb_limits lim = base_limits();
    lim.timeout_s = 300;
    lim.nproc = 256;
    lim.isolate = 1;
    lim.seccomp = have_seccomp;
    const char *const writable[] = {out, NULL};
    const char *const hide[] = {"/root", NULL};
    lim.writable = writable;
    lim.hide = hide;
    return run_script(script, lim, r);
}

static void test_gxx(void)
{
    sb_result r;
    const char *text = compile_and_run("g++ -O1", "hello.cc", 1, &r);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0 && strstr(text, "compiled") && strstr(text, "sum 40"),
                   "g++ under isolation and the filter: kind %d code %d, output '%s'", r.kind, r.code, text);
}

static void test_nvcc(void)
{
    sb_result r;
    const char *text = compile_and_run("nvcc", "hello.cu", 0, &r);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0 && strstr(text, "compiled"),
                   "nvcc under isolation and the filter: kind %d code %d, output '%s'", r.kind, r.code, text);
}

static void test_cuda_run(void)
{
    sb_result r;
    const char *text = compile_and_run("nvcc -arch=native", "hello.cu", 1, &r);
    KIT_ASSERT_MSG(r.kind == SB_EXITED && r.code == 0 && strstr(text, "sum 496"),
                   "a CUDA program under isolation and the filter: kind %d code %d, output '%s'", r.kind, r.code, text);
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

/* Makes scratch/: hidden/secret.txt that anyone may read, open/ and out/ that anyone may write, two programs. */
static int make_scratch(void)
{
    char dir[4200];
    snprintf(scratch, sizeof scratch, "%s", self_exe);
    *strrchr(scratch, '/') = '\0';
    strncat(scratch, "/sandbox-scratch-XXXXXX", sizeof scratch - strlen(scratch) - 1);
    if (!mkdtemp(scratch))
        return -1;
    chmod(scratch, 0755);
    const char *subs[] = {"hidden", "open", "out"};
    const mode_t modes[] = {0755, 0777, 0777};
    for (int i = 0; i < 3; i++) {
        snprintf(dir, sizeof dir, "%s/%s", scratch, subs[i]);
        if (mkdir(dir, modes[i]) != 0 || chmod(dir, modes[i]) != 0)
            return -1;
    }
    snprintf(dir, sizeof dir, "%s/hidden", scratch);
    write_text(dir, "secret.txt", "solution-42\n", 0644);
    write_text(scratch, "hello.cc",
               "#include <cstdio>\n#include <vector>\nint main() { std::vector<int> v(10, 4); int s = 0;\n"
               "  for (int x : v) s += x;\n  std::printf(\"sum %d\\n\", s);\n  return 0; }\n",
               0644);
    write_text(scratch, "hello.cu",
               "#include <cstdio>\n__global__ void add(int *x) { x[threadIdx.x] += threadIdx.x; }\n"
               "int main() { int h[32] = {0}, *d, s = 0;\n"
               "  if (cudaMalloc(&d, sizeof h) != cudaSuccess) { std::printf(\"no device\\n\"); return 3; }\n"
               "  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);\n  add<<<1, 32>>>(d);\n"
               "  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);\n  for (int i = 0; i < 32; i++) s += h[i];\n"
               "  std::printf(\"sum %d\\n\", s);\n  return s == 496 ? 0 : 1; }\n",
               0644);
    return 0;
}

static void remove_scratch(void)
{
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    if (scratch[0] && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", scratch);
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
    const char *no_ns = NULL, *no_mounts = NULL, *no_nvcc, *no_gpu;
    if (!strstr(sb_isolation_report(), "runners isolated"))
        no_ns = no_mounts = "no namespaces here (see the line above)";
    else if (report_lacks("; no fresh /proc") || report_lacks("; no read-only") || report_lacks("; no private /tmp"))
        no_mounts = "the kernel refuses some of the mounts (see the line above)";
    no_nvcc = no_mounts;
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
    CU_pSuite mounts = kit_test_suite("mounts of their own");
    kit_test_add(mounts, "a hidden folder is empty", test_iso_hidden);
    kit_test_add(mounts, "only the writable paths can be written; /proc stays writable", test_iso_read_only);
    kit_test_add(mounts, "/tmp and /dev/shm are private and empty", test_iso_private_tmp);
    kit_test_add(mounts, "g++ compiles and its program runs (with the filter where there is one)", test_gxx);
    if (no_mounts)
        kit_test_skip_suite(mounts, no_mounts);
    one_test_suite("nvcc under isolation", "nvcc compiles a kernel (with the filter where there is one)", test_nvcc,
                   no_nvcc);
    one_test_suite("a CUDA program under isolation", "it runs its kernel (with the filter where there is one)",
                   test_cuda_run, no_gpu);
}

static void register_tests(void)
{
    char why[256];
    printf("%s\n", sb_isolation_report());
    have_seccomp = !report_lacks("no seccomp");
    CU_pSuite mem = kit_test_suite("memory limit");
    kit_test_add(mem, "a program over the limit is reported as such", test_memory_hog);
    kit_test_add(mem, "exit 87 and std::bad_alloc count, a plain failure does not", test_memory_other_signs);
    CU_pSuite uid = kit_test_suite("a user id per grader");
    kit_test_add(uid, "two ids differ; a held one is refused to another process", test_uid_distinct);
    kit_test_add(uid, "processes left under an id are killed when it is acquired", test_uid_leftovers_killed);
    kit_test_add(uid, "the GPU lock: plain runs share it, a profiler holds it alone", test_gpu_lock);
    if (geteuid() != 0)
        kit_test_skip_suite(uid, "user ids of their own are for a grader that runs as root");
    else if (sb_uid_acquire(&sandbox_uid, why, sizeof why) != 0)
        kit_test_skip_suite(uid, why);
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
    if (make_scratch() != 0) {
        fprintf(stderr, "test_sandbox: cannot make a scratch folder next to %s: %s\n", self_exe, strerror(errno));
        return 2;
    }
    int rc = kit_test_main("sandbox tests", register_tests);
    remove_scratch();
    return rc;
}
