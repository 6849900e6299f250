/** @file kit_jail.h Seccomp filters for runners: the strict jail a CPU-emulated runner enters before it calls student code, and the small filter builder that the grader's sandbox also uses for its outer filter. */
#ifndef KIT_JAIL_H
#define KIT_JAIL_H

#include <linux/filter.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The most instructions one kit filter holds (the jail and the sandbox's outer filter each need under 100). */
#define KIT_FILTER_MAX 160

/**
 * A seccomp program being built: a list of "if the call is N (and its
 * argument passes a test), return this action" rules, checked in order.
 * Build it with kit_filter_begin(), any number of kit_filter_on() and
 * kit_filter_on_arg(), then kit_filter_end(); install it with kit_filter_load().
 */
typedef struct kit_filter {
    struct sock_filter code[KIT_FILTER_MAX]; /**< the BPF instructions so far */
    unsigned short len;                      /**< how many of code[] are used */
    int overflow;                            /**< set when a rule did not fit; kit_filter_load() then refuses */
} kit_filter;

/** How kit_filter_on_arg() compares an argument with its value. */
typedef enum kit_arg_test {
    KIT_ARG_EQ,      /**< the argument equals the value */
    KIT_ARG_NE,      /**< the argument differs from the value */
    KIT_ARG_ANY_BITS /**< the argument has any of the value's bits set */
} kit_arg_test;

/**
 * Starts a filter: a call made with another architecture's calling
 * convention (or, on x86-64, the x32 one) kills the process, since its
 * system call numbers would mean other calls than the rules name.
 * @param[out] f the filter, emptied first
 */
void kit_filter_begin(kit_filter *f);

/**
 * Adds a rule: system call @p nr returns @p action.
 * @param[in,out] f      a filter between kit_filter_begin() and kit_filter_end()
 * @param[in]     nr     the call's number (SYS_read, ...)
 * @param[in]     action SECCOMP_RET_ALLOW, SECCOMP_RET_KILL_PROCESS, SECCOMP_RET_ERRNO | errno, ...
 */
void kit_filter_on(kit_filter *f, long nr, unsigned action);

/**
 * Adds a rule: system call @p nr whose argument @p arg passes @p test
 * against @p value returns @p action; otherwise the next rules decide.
 * Only the low 32 bits of the argument are compared, which is exact for
 * int arguments (a socket's family, fcntl's command, a process id) and for
 * flag words whose bits all lie there (clone's CLONE_NEW* flags).
 * @param[in,out] f      a filter between kit_filter_begin() and kit_filter_end()
 * @param[in]     nr     the call's number
 * @param[in]     arg    which argument, 0 to 5
 * @param[in]     test   how it is compared
 * @param[in]     value  what it is compared with
 * @param[in]     action what the call returns when the test holds
 */
void kit_filter_on_arg(kit_filter *f, long nr, unsigned arg, kit_arg_test test, unsigned value, unsigned action);

/**
 * Ends a filter with what every call that no rule named returns.
 * @param[in,out] f         the filter
 * @param[in]     otherwise SECCOMP_RET_ALLOW for a deny list, SECCOMP_RET_KILL_PROCESS for an allow list
 */
void kit_filter_end(kit_filter *f, unsigned otherwise);

/**
 * Installs the filter on the calling thread, for good: it also holds in
 * every process the thread later starts, and across execve. Sets
 * no_new_privs first, which the kernel requires of an unprivileged caller
 * (and which stops set-user-ID programs from gaining privileges).
 * @param[in] f a finished filter
 * @return 0, or -1 with errno set (E2BIG when the filter overflowed; EINVAL
 *         or ENOSYS from a kernel without seccomp filters)
 */
int kit_filter_load(const kit_filter *f);

/**
 * Jails the calling process for good: from here on it may only compute,
 * use the file descriptors it already holds, and manage its own memory.
 * Any other system call kills the whole process with SIGSYS, so student
 * code run after it cannot open files, start processes, signal others or
 * reach the network, whatever the sandbox around it left open.
 *
 * What stays allowed, and why:
 * - read, write, readv, writev, pread64, lseek, close: the request, the reply
 *   and stderr, on descriptors opened before the jail;
 * - fstat, newfstatat (glibc's fstat is newfstatat with an empty path): stdio
 *   sizes its buffers with them. newfstatat could also stat a path, which
 *   tells whether a file exists and its size, never what it holds;
 * - ioctl, which fails with ENOTTY: stdio asks whether a stream is a terminal;
 * - fcntl with F_GETFD or F_GETFL only: stdio and the C++ runtime query flags;
 * - mmap, munmap, mprotect, mremap, madvise, brk: malloc, and the CPU
 *   emulation's per-thread stacks;
 * - rt_sigprocmask (glibc's swapcontext, the CPU emulation's thread switch
 *   off x86-64, calls it at every switch; abort() too), rt_sigaction,
 *   rt_sigreturn, sigaltstack;
 * - tgkill and tkill aimed at this process only: abort() and raise(), so a
 *   failed assert still reports SIGABRT rather than SIGSYS;
 * - exit, exit_group; restart_syscall (the kernel resumes an interrupted sleep with it);
 * - clock_gettime, clock_nanosleep, nanosleep, gettimeofday: timers (where the vDSO falls back to a call);
 * - getpid, gettid, futex, getrandom, sched_yield: what glibc and libstdc++ call on their own;
 * - prlimit64 on this process only: getrlimit (it cannot raise a hard limit).
 *
 * Not for the GPU build: the CUDA driver keeps calling ioctl and opening
 * device files after initialisation, which the jail forbids.
 * @pre called once the runner has opened every file it needs and before any
 *      untrusted (student) code runs; the process has no other threads
 * @return 0 when the jail holds, or -1 with errno set when the kernel refused it
 *         (the caller should then refuse to run student code)
 */
int kit_jail_enter(void);

#ifdef __cplusplus
}
#endif

#endif
