/* Reads and checks the trace stream that the CPU emulation writes for the grader (kit_trace.h). */
#include <stdlib.h>
#include <string.h>

#include "kit_trace.h"
#include "kit_types.h"

kit_access kit_access_at(uint32_t block, uint32_t thread, uint32_t ordinal, uint32_t addr, uint8_t size, int write)
{
    kit_access a;
    memset(&a, 0, sizeof a);
    a.block = block;
    a.thread = thread;
    a.ordinal = ordinal;
    a.addr = addr;
    a.size = size;
    a.write = (uint8_t)(write != 0);
    return a;
}

int kit_trace_name_matches(const char *name, const char *kernel)
{
    if (strcmp(kernel, ".") == 0)
        return 1;
    name += strspn(name, "( "); /* KIT_LAUNCH((probe<T, E>), ...) spells a templated kernel in parentheses */
    size_t len = strlen(kernel);
    return strncmp(name, kernel, len) == 0 && (name[len] == '\0' || name[len] == '<');
}

void kit_trace_runs_free(kit_trace_run *runs, size_t nruns)
{
    for (size_t r = 0; runs && r < nruns; r++) {
        free(runs[r].acc);
        free(runs[r].global);
    }
    free(runs);
}

/* Why an access does not fit its launch, or NULL when it does. *sites is the highest site the launch
   numbered so far: the emulator numbers sites 1, 2, ... as the launch first reaches them. A global
   access (global != 0) has no address in the record. */
static const char *misfit(const kit_trace_launch *l, const kit_access *a, int global, uint32_t *sites)
{
    uint64_t blocks = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    if (a->block >= blocks)
        return "a block index past the grid";
    if (a->thread >= threads)
        return "a thread index past the block";
    if (a->size != 1 && a->size != 2 && a->size != 4 && a->size != 8 && a->size != 16)
        return "an access size other than 1, 2, 4, 8 or 16 bytes";
    if (global ? a->addr != 0 : (uint64_t)a->addr + a->size > l->shared_bytes)
        return global ? "a global access with an address" : "an access past the launch's shared memory";
    if (a->write > 1)
        return "an access that is neither a load nor a store";
    if (a->site == 0 || a->site > *sites + 1)
        return "an access whose site is not numbered in the order the launch reached it";
    if (a->visit > a->ordinal)
        return "an access that visits its site more often than the thread accessed that memory";
    *sites = a->site > *sites ? a->site : *sites;
    return NULL;
}

/* Appends an access to an array of the run being read (*acc, *n, room for *cap); returns 0 or -1 when out of memory. */
static int keep(kit_access **acc, size_t *n, size_t *cap, const kit_access *a)
{
    if (*n == *cap) {
        size_t grown = *cap ? 2 * *cap : 4096;
        kit_access *p = realloc(*acc, grown * sizeof *p);
        if (!p)
            return -1;
        *acc = p;
        *cap = grown;
    }
    (*acc)[(*n)++] = *a;
    return 0;
}

/* Adds an empty run for launch l; returns it, or NULL when out of memory. */
static kit_trace_run *new_run(kit_trace_run **runs, size_t *nruns, const kit_trace_launch *l)
{
    kit_trace_run *p = realloc(*runs, (*nruns + 1) * sizeof *p);
    if (!p)
        return NULL;
    *runs = p;
    kit_trace_run *run = &p[(*nruns)++];
    memset(run, 0, sizeof *run);
    run->launch = *l;
    run->launch.name[KIT_TRACE_NAME - 1] = '\0';
    return run;
}

int kit_trace_stream_read(FILE *f, const char *kernel, kit_trace_run **runs, size_t *nruns, size_t *launches,
                          char *err, size_t errlen)
{
    *runs = NULL;
    *nruns = 0;
    *launches = 0;
    kit_trace_launch open;
    int in_launch = 0, measured = 0, rc = 0;
    uint64_t seen = 0; /* accesses of the open launch */
    uint32_t sites = 0; /* sites it numbered */
    size_t cap = 0, gcap = 0;
    kit_trace_run *run = NULL;
    uint32_t tag;
    size_t got;
    while (rc == 0 && (got = fread(&tag, 1, sizeof tag, f)) > 0) {
        if (got < sizeof tag) {
            rc = kit_err(err, errlen, "the stream ends inside a record's tag");
            break;
        }
        if (tag == KIT_TRACE_LAUNCH) {
            if (in_launch)
                rc = kit_err(err, errlen, "a launch began before the previous one ended");
            else if (fread(&open, sizeof open, 1, f) != 1)
                rc = kit_err(err, errlen, "the stream ends inside a launch record");
            else {
                open.name[KIT_TRACE_NAME - 1] = '\0';
                in_launch = 1;
                seen = 0;
                sites = 0;
                (*launches)++;
                measured = kit_trace_name_matches(open.name, kernel);
                cap = gcap = 0;
                if (measured && !(run = new_run(runs, nruns, &open)))
                    rc = kit_err(err, errlen, "out of memory");
            }
        } else if (tag == KIT_TRACE_ACCESS || tag == KIT_TRACE_GLOBAL) {
            kit_access a;
            const char *why = NULL;
            int global = tag == KIT_TRACE_GLOBAL;
            if (fread(&a, sizeof a, 1, f) != 1)
                rc = kit_err(err, errlen, "the stream ends inside an access record");
            else if (!in_launch)
                rc = kit_err(err, errlen, "a %s-memory access outside any kernel launch", global ? "global" : "shared");
            else if ((why = misfit(&open, &a, global, &sites)))
                rc = kit_err(err, errlen, "launch %zu (%s) has %s", *launches, open.name, why);
            else if (measured && (global ? keep(&run->global, &run->nglobal, &gcap, &a)
                                         : keep(&run->acc, &run->n, &cap, &a)) != 0)
                rc = kit_err(err, errlen, "out of memory");
            seen++;
        } else if (tag == KIT_TRACE_END) {
            uint64_t count;
            if (fread(&count, sizeof count, 1, f) != 1)
                rc = kit_err(err, errlen, "the stream ends inside an end record");
            else if (!in_launch)
                rc = kit_err(err, errlen, "a launch ended that never began");
            else if (count != seen)
                rc = kit_err(err, errlen, "launch %zu (%s) reports %llu accesses, the stream holds %llu", *launches,
                            open.name, (unsigned long long)count, (unsigned long long)seen);
            in_launch = 0;
        } else {
            rc = kit_err(err, errlen, "an unknown record (tag 0x%08x)", tag);
        }
    }
    if (rc == 0 && in_launch)
        rc = kit_err(err, errlen, "launch %zu (%s) never ended (the runner stopped inside it)", *launches, open.name);
    if (rc != 0) {
        kit_trace_runs_free(*runs, *nruns);
        *runs = NULL;
        *nruns = 0;
    }
    return rc;
}
