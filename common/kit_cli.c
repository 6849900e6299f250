/* Command-line parsing shared by every lab driver, so all drivers take the same options. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit_cli.h"

void kit_args_defaults(kit_args *a)
{
    memset(a, 0, sizeof *a);
    a->m = 1000;
    a->n = 1000;
    a->type = KIT_TYPE_I32;
    a->gen = KIT_GEN_RANDOM;
    a->seed = 1;
    a->k = -1;
    a->repeat = 1;
}

/* Parses a whole decimal string; anything else (empty, trailing junk, overflow) fails. */
static int parse_ll(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (s[0] < '0' || s[0] > '9') /* strtoull would skip blanks and take a sign */
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0')
        return -1;
    *out = v;
    return 0;
}

int kit_args_parse(kit_args *a, int argc, char **argv, char *err, size_t errlen)
{
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0)
            return 1;
        if (strcmp(opt, "--print") == 0) { a->print = 1; continue; }
        if (strcmp(opt, "--serve") == 0) { a->serve = 1; continue; }

        static const char *const valued[] = {"--m", "--n", "--type", "--gen", "--seed", "--k", "--repeat",
                                             "--blocks", "--threads", "--tile", "--trace", "--alg", "--queries"};
        int known = 0;
        for (size_t v = 0; v < sizeof valued / sizeof valued[0]; v++)
            known |= strcmp(opt, valued[v]) == 0;
        if (!known) {
            snprintf(err, errlen, "unknown option '%s' (try --help)", opt);
            return -1;
        }
        if (i + 1 >= argc) {
            snprintf(err, errlen, "option %s needs a value", opt);
            return -1;
        }
        const char *val = argv[++i];
        long long ll = 0;
        int bad = 0;
        char allowed[160]; /* what the option takes, for the message when val is not that */
        snprintf(allowed, sizeof allowed, "a whole number from 0 to %d", INT32_MAX);
        if (strcmp(opt, "--m") == 0) {
            bad = parse_ll(val, 0, INT32_MAX, &ll);
            a->m = ll;
        } else if (strcmp(opt, "--n") == 0) {
            bad = parse_ll(val, 0, INT32_MAX, &ll);
            a->n = ll;
        } else if (strcmp(opt, "--k") == 0) {
            bad = parse_ll(val, 0, INT32_MAX, &ll);
            a->k = ll;
        } else if (strcmp(opt, "--repeat") == 0) {
            bad = parse_ll(val, 1, 1000000, &ll);
            a->repeat = (int)ll;
            snprintf(allowed, sizeof allowed, "a whole number from 1 to 1000000");
        } else if (strcmp(opt, "--trace") == 0) {
            bad = val[0] == '\0';
            a->trace = val;
            snprintf(allowed, sizeof allowed, "a file name");
        } else if (strcmp(opt, "--alg") == 0 || strcmp(opt, "--queries") == 0) {
            bad = val[0] == '\0'; /* the lab's driver checks the name */
            *(opt[2] == 'a' ? &a->alg : &a->queries) = val;
            snprintf(allowed, sizeof allowed, "a name (the lab's --help lists them)");
        } else if (strcmp(opt, "--blocks") == 0 || strcmp(opt, "--tile") == 0) {
            bad = parse_ll(val, 1, INT32_MAX, &ll);
            *(opt[2] == 'b' ? &a->blocks : &a->tile) = (int)ll;
            snprintf(allowed, sizeof allowed, "a whole number from 1 to %d", INT32_MAX);
        } else if (strcmp(opt, "--threads") == 0) {
            bad = parse_ll(val, 1, 1024, &ll);
            a->threads = (int)ll;
            snprintf(allowed, sizeof allowed, "a whole number from 1 to 1024 (threads per block)");
        } else if (strcmp(opt, "--seed") == 0) {
            bad = parse_u64(val, &a->seed);
            snprintf(allowed, sizeof allowed, "a whole number from 0 to %llu", (unsigned long long)UINT64_MAX);
        } else if (strcmp(opt, "--type") == 0) {
            bad = kit_type_parse(val, &a->type);
            snprintf(allowed, sizeof allowed, "i32, i64 or kv32");
        } else {
            bad = kit_gen_parse(val, &a->gen);
            size_t used = (size_t)snprintf(allowed, sizeof allowed, "one of");
            for (int g = 0; g < KIT_GEN_COUNT && used < sizeof allowed; g++)
                used += (size_t)snprintf(allowed + used, sizeof allowed - used, " %s", kit_gen_name((kit_gen)g));
        }
        if (bad) {
            snprintf(err, errlen, "bad value '%s' for %s: %s", val, opt, allowed);
            return -1;
        }
    }
    if (a->m + a->n > INT32_MAX) {
        snprintf(err, errlen, "m + n = %lld is larger than %d", a->m + a->n, INT32_MAX);
        return -1;
    }
    if (a->k > a->m + a->n) {
        snprintf(err, errlen, "--k %lld is outside 0 .. m + n = %lld", a->k, a->m + a->n);
        return -1;
    }
    return 0;
}

void kit_args_usage(void *out, const char *prog, const char *what)
{
    FILE *f = (FILE *)out;
    fprintf(f, "usage: %s [options]\n%s\n\n", prog, what);
    fprintf(f, "  --m N          size of A (default 1000)\n");
    fprintf(f, "  --n N          size of B (default 1000)\n");
    fprintf(f, "  --type T       i32, i64 or kv32 (default i32)\n");
    fprintf(f, "  --gen G        input shape:");
    for (int g = 0; g < KIT_GEN_COUNT; g++)
        fprintf(f, " %s", kit_gen_name((kit_gen)g));
    fprintf(f, "\n  --seed S       generator seed (default 1)\n");
    fprintf(f, "  --k K          one rank to query, where the lab has one\n");
    fprintf(f, "  --repeat R     time R repetitions (default 1)\n");
    fprintf(f, "  --blocks N     thread blocks of a kernel launch (kernel labs; default: the lab's choice)\n");
    fprintf(f, "  --threads N    threads per block, 1 .. 1024 (kernel labs)\n");
    fprintf(f, "  --tile N       elements of A and of B per shared-memory tile (tiled labs)\n");
    fprintf(f, "  --trace FILE   write the kernel's shared-memory accesses to FILE (CPU build; see bankviz)\n");
    fprintf(f, "  --alg A        which algorithm, where the lab has several (lab 6: pbs, cf or cl)\n");
    fprintf(f, "  --queries Q    which query set, where the lab has queries (lab 6: keys, range or worst)\n");
    fprintf(f, "  --print        print the inputs and the output\n");
    fprintf(f, "  --serve        answer one grader request on stdin (used by the grader)\n");
}
