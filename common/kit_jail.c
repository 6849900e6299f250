/* Seccomp filters for runners: the strict jail a CPU-emulated runner enters before student code, and the builder the sandbox shares. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kit_jail.h"

#if defined(__x86_64__)
#define KIT_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define KIT_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "kit_jail.c knows the system calls of x86-64 and aarch64 only"
#endif

#define KIT_X32_BIT 0x40000000u /* on x86-64, the bit that marks an x32 system call */

/* Where the filter reads the call's number and the low half of an argument (little-endian, both architectures). */
#define NR_AT ((unsigned)offsetof(struct seccomp_data, nr))
#define ARG_AT(i) ((unsigned)offsetof(struct seccomp_data, args) + 8u * (i))

static void emit(kit_filter *f, struct sock_filter ins)
{
    if (f->len < KIT_FILTER_MAX)
        f->code[f->len++] = ins;
    else
        f->overflow = 1;
}

void kit_filter_begin(kit_filter *f)
{
    f->len = 0;
    f->overflow = 0;
    emit(f, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (unsigned)offsetof(struct seccomp_data, arch)));
    emit(f, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, KIT_AUDIT_ARCH, 1, 0));
    emit(f, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    emit(f, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR_AT));
#if defined(__x86_64__)
    emit(f, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, KIT_X32_BIT, 0, 1));
    emit(f, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
#endif
    /* From here on the accumulator holds the call's number at the start of every rule. */
}

void kit_filter_on(kit_filter *f, long nr, unsigned action)
{
    emit(f, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 1));
    emit(f, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, action));
}

void kit_filter_on_arg(kit_filter *f, long nr, unsigned arg, kit_arg_test test, unsigned value, unsigned action)
{
    /* Both ways out of the test (and the way past another call) land on the reload of the number. */
    unsigned char hit = test == KIT_ARG_NE ? 1 : 0, miss = test == KIT_ARG_NE ? 0 : 1;
    unsigned short op = test == KIT_ARG_ANY_BITS ? BPF_JSET : BPF_JEQ;
    emit(f, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 3));
    emit(f, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_AT(arg)));
    emit(f, (struct sock_filter)BPF_JUMP(BPF_JMP | op | BPF_K, value, hit, miss));
    emit(f, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, action));
    emit(f, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR_AT));
}

void kit_filter_end(kit_filter *f, unsigned otherwise)
{
    emit(f, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, otherwise));
}

int kit_filter_load(const kit_filter *f)
{
    if (f->overflow) {
        errno = E2BIG;
        return -1;
    }
    struct sock_fprog prog = {.len = f->len, .filter = (struct sock_filter *)f->code};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return -1;
    return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) == 0 ? 0 : -1;
}

int kit_jail_enter(void)
{
    /* kit_jail.h says what each of these is for. */
    static const long allowed[] = {
        SYS_read, SYS_write, SYS_readv, SYS_writev, SYS_pread64, SYS_lseek, SYS_close, /* descriptors held */
        SYS_fstat, SYS_newfstatat,                                                     /* stdio's buffers */
        SYS_mmap, SYS_munmap, SYS_mprotect, SYS_mremap, SYS_madvise, SYS_brk,          /* memory */
        SYS_rt_sigprocmask, SYS_rt_sigaction, SYS_rt_sigreturn, SYS_sigaltstack,       /* signals, swapcontext */
        SYS_exit, SYS_exit_group, SYS_restart_syscall,
        SYS_clock_gettime, SYS_clock_nanosleep, SYS_nanosleep, SYS_gettimeofday,       /* time */
        SYS_getpid, SYS_gettid, SYS_futex, SYS_getrandom, SYS_sched_yield,             /* glibc, libstdc++ */
    };
    unsigned self = (unsigned)getpid();
    kit_filter f;
    kit_filter_begin(&f);
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
        kit_filter_on(&f, allowed[i], SECCOMP_RET_ALLOW);
    kit_filter_on(&f, SYS_ioctl, SECCOMP_RET_ERRNO | ENOTTY);
    kit_filter_on_arg(&f, SYS_fcntl, 1, KIT_ARG_EQ, F_GETFD, SECCOMP_RET_ALLOW);
    kit_filter_on_arg(&f, SYS_fcntl, 1, KIT_ARG_EQ, F_GETFL, SECCOMP_RET_ALLOW);
    kit_filter_on_arg(&f, SYS_tgkill, 0, KIT_ARG_EQ, self, SECCOMP_RET_ALLOW);
    kit_filter_on_arg(&f, SYS_tkill, 0, KIT_ARG_EQ, self, SECCOMP_RET_ALLOW);
    kit_filter_on_arg(&f, SYS_prlimit64, 0, KIT_ARG_EQ, 0, SECCOMP_RET_ALLOW);
    kit_filter_end(&f, SECCOMP_RET_KILL_PROCESS);
    return kit_filter_load(&f);
}
