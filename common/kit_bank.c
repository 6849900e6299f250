/* The bank-conflict simulator and the text trace format (see kit_bank.h for the model). */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kit_bank.h"

#define MAX_W 1024
#define MAX_THREADS 1024 /* threads per block, as on NVIDIA GPUs */

/* Sorts the 64-bit keys, carrying a 32-bit index, with an LSD radix sort (16 bits a pass). */
static int radix_sort(uint64_t *key, uint32_t *idx, size_t n, int bits)
{
    uint64_t *k2 = malloc(n * sizeof *k2 + 1);
    uint32_t *i2 = malloc(n * sizeof *i2 + 1);
    size_t *count = malloc((1u << 16) * sizeof *count);
    if (!k2 || !i2 || !count) {
        free(k2);
        free(i2);
        free(count);
        return -1;
    }
    for (int shift = 0; shift < bits; shift += 16) {
        memset(count, 0, (1u << 16) * sizeof *count);
        for (size_t x = 0; x < n; x++)
            count[(key[x] >> shift) & 0xffff]++;
        size_t sum = 0;
        for (size_t d = 0; d < (1u << 16); d++) {
            size_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (size_t x = 0; x < n; x++) {
            size_t to = count[(key[x] >> shift) & 0xffff]++;
            k2[to] = key[x];
            i2[to] = idx[x];
        }
        memcpy(key, k2, n * sizeof *key);
        memcpy(idx, i2, n * sizeof *idx);
    }
    free(k2);
    free(i2);
    free(count);
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The largest number of distinct words one bank holds among words[0 .. nw-1] (sorted in place). */
static unsigned busiest_bank(const kit_bank_model *m, uint32_t *words, size_t nw, unsigned *distinct)
{
    unsigned count[MAX_W];
    qsort(words, nw, sizeof words[0], cmp_u32);
    memset(count, 0, m->w * sizeof count[0]);
    unsigned worst = 0;
    *distinct = 0;
    for (size_t x = 0; x < nw; x++) {
        if (x > 0 && words[x] == words[x - 1])
            continue; /* the same word again: multicast, free */
        (*distinct)++;
        unsigned c = ++count[words[x] % m->w];
        worst = c > worst ? c : worst;
    }
    return worst;
}

/*
 * The cost of one step: the accesses acc[idx[0..len-1]], all by one warp at one ordinal and of one
 * kind. Returns the papers' cost and stores the profiler's count of conflicts in *conflicts.
 * An access wider than a bank is served in phases of w/p consecutive lanes (p = size/word_bytes),
 * each charged its cost minus one. Hopper charges some wide steps more than that (results/README.md,
 * bankcheck cases 86-97): when the whole warp's distinct words crowd one bank more than the phases
 * show, it charges the busiest bank's words minus the fewest wavefronts the distinct words need.
 * The profiler's count is the larger of the two.
 */
static uint64_t step_cost(const kit_bank_model *m, const kit_access *acc, const uint32_t *idx, size_t len,
                          uint64_t *conflicts)
{
    unsigned widest = 1;
    for (size_t x = 0; x < len; x++)
        if (acc[idx[x]].size > widest)
            widest = acc[idx[x]].size;
    unsigned parts = widest > m->word_bytes ? widest / m->word_bytes : 1;
    if (parts > m->w)
        parts = m->w;
    unsigned lanes_per_part = m->w / parts;
    static uint32_t words[MAX_W * 16], all[MAX_W * 16]; /* at most w accesses of 16 bytes, 1-byte banks */
    size_t nall = 0;
    uint64_t cost = 0, phase_conflicts = 0;
    for (unsigned p = 0; p < parts; p++) {
        size_t nw = 0;
        for (size_t x = 0; x < len; x++) {
            const kit_access *a = &acc[idx[x]];
            unsigned lane = a->thread % m->w;
            if (lane / lanes_per_part != p && !(p == parts - 1 && lane / lanes_per_part >= parts))
                continue;
            uint32_t first = a->addr / m->word_bytes, last = (uint32_t)(((uint64_t)a->addr + a->size - 1) / m->word_bytes);
            for (uint32_t wd = first; wd <= last && nw < sizeof words / sizeof words[0]; wd++) {
                words[nw++] = wd;
                if (parts > 1) /* the whole warp's words matter only for wide steps */
                    all[nall++] = wd;
            }
        }
        if (nw == 0)
            continue;
        unsigned distinct, worst = busiest_bank(m, words, nw, &distinct);
        cost += worst;
        phase_conflicts += worst - 1;
    }
    *conflicts = phase_conflicts;
    if (nall > 0) {
        unsigned distinct, worst = busiest_bank(m, all, nall, &distinct);
        uint64_t fewest = (distinct + m->w - 1) / m->w, whole = worst > fewest ? worst - fewest : 0;
        *conflicts = whole > phase_conflicts ? whole : phase_conflicts;
    }
    return cost;
}

static void add(kit_bank_count *c, uint64_t cost, uint64_t conflicts)
{
    c->steps++;
    c->cost += cost;
    c->conflicts += conflicts;
}

void kit_bank_free(kit_bank_report *r)
{
    free(r->block_load);
    free(r->block_store);
    free(r->warp_load);
    free(r->warp_store);
    memset(r, 0, sizeof *r);
}

/* The fields that name an access's step besides its warp and kind: (sync, site, visit) as the hardware
   groups, or (0, 0, ordinal) in lock-step and for an access of unknown site. */
static void step_of(kit_bank_group group, const kit_access *a, uint32_t f[3])
{
    int by_site = group == KIT_GROUP_SITE && a->site != 0;
    f[0] = by_site ? a->sync : 0;
    f[1] = by_site ? a->site : 0;
    f[2] = by_site ? a->visit : a->ordinal;
}

/* Bits needed for values up to v, at least 1. */
static int bits_for(uint64_t v)
{
    int b = 1;
    while (b < 64 && (v >> b) != 0)
        b++;
    return b;
}

/* Checks every access's size and indices and finds the largest block, thread and step fields. */
static int check_trace(kit_bank_group group, const kit_access *acc, size_t n, uint32_t *max_block,
                       uint32_t *max_thread, uint32_t max_f[3], char *err, size_t errlen)
{
    *max_block = *max_thread = max_f[0] = max_f[1] = max_f[2] = 0;
    for (size_t x = 0; x < n; x++) {
        const kit_access *a = &acc[x];
        if (a->size != 1 && a->size != 2 && a->size != 4 && a->size != 8 && a->size != 16) {
            snprintf(err, errlen, "access %zu has size %u; sizes are 1, 2, 4, 8 or 16 bytes", x, a->size);
            return -1;
        }
        if (a->thread >= MAX_THREADS || a->block >= (1u << 24)) {
            snprintf(err, errlen, "access %zu has thread %u of block %u; at most %d threads and 2^24 blocks", x,
                     a->thread, a->block, MAX_THREADS);
            return -1;
        }
        uint32_t f[3];
        step_of(group, a, f);
        *max_block = a->block > *max_block ? a->block : *max_block;
        *max_thread = a->thread > *max_thread ? a->thread : *max_thread;
        for (int k = 0; k < 3; k++)
            max_f[k] = f[k] > max_f[k] ? f[k] : max_f[k];
    }
    return 0;
}

/* Adds the step acc[idx[0 .. len-1]] (one warp, one step, one kind) to the report's totals. */
static void count_step(const kit_bank_model *model, const kit_access *acc, const uint32_t *idx, size_t len,
                       kit_bank_report *out)
{
    const kit_access *a = &acc[idx[0]];
    uint64_t conflicts, cost = step_cost(model, acc, idx, len, &conflicts);
    size_t warp = (size_t)a->block * out->warps + a->thread / model->w;
    if (a->write) {
        add(&out->store, cost, conflicts);
        add(&out->block_store[a->block], cost, conflicts);
        add(&out->warp_store[warp], cost, conflicts);
    } else {
        add(&out->load, cost, conflicts);
        add(&out->block_load[a->block], cost, conflicts);
        add(&out->warp_load[warp], cost, conflicts);
    }
}

int kit_bank_simulate(const kit_bank_model *model, const kit_access *acc, size_t n, kit_bank_report *out,
                      char *err, size_t errlen)
{
    return kit_bank_simulate_grouped(model, KIT_GROUP_SITE, acc, n, out, err, errlen);
}

int kit_bank_count_trace(kit_access *acc, size_t n, kit_bank_report *r, char *err, size_t errlen)
{
    const kit_bank_model gpu = {32, 4};
    int rc = kit_bank_simulate(&gpu, acc, n, r, err, errlen);
    free(acc);
    return rc;
}

int kit_bank_simulate_grouped(const kit_bank_model *model, kit_bank_group group, const kit_access *acc, size_t n,
                              kit_bank_report *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (model->w < 1 || model->w > MAX_W || model->word_bytes < 1 || model->word_bytes > 64) {
        snprintf(err, errlen, "bad model: w must lie in 1 .. %d and the word size in 1 .. 64 bytes (got w=%u, word=%u)",
                 MAX_W, model->w, model->word_bytes);
        return -1;
    }
    if (group != KIT_GROUP_SITE && group != KIT_GROUP_LOCKSTEP) {
        snprintf(err, errlen, "bad warp model %d: it is site (%d) or lock-step (%d)", (int)group, KIT_GROUP_SITE,
                 KIT_GROUP_LOCKSTEP);
        return -1;
    }
    if (n > UINT32_MAX) {
        snprintf(err, errlen, "trace of %zu accesses is too long (at most %u)", n, UINT32_MAX);
        return -1;
    }
    uint32_t max_block, max_thread, max_f[3];
    if (check_trace(group, acc, n, &max_block, &max_thread, max_f, err, errlen) != 0)
        return -1;
    out->blocks = n ? max_block + 1 : 0;
    out->warps = n ? max_thread / model->w + 1 : 0;
    size_t nwarps = (size_t)out->blocks * out->warps;
    /* Group key: global warp, then the step's three fields, then load/store. */
    int fb[3] = {bits_for(max_f[0]), bits_for(max_f[1]), bits_for(max_f[2])};
    int warp_bits = bits_for(nwarps ? nwarps - 1 : 0), key_bits = warp_bits + fb[0] + fb[1] + fb[2] + 1;
    if (key_bits > 64) {
        snprintf(err, errlen, "trace too large to sort: %zu warps and steps up to (%u, %u, %u) need %d key bits (at most 64)",
                 nwarps, max_f[0], max_f[1], max_f[2], key_bits);
        memset(out, 0, sizeof *out);
        return -1;
    }
    out->block_load = calloc(out->blocks + 1, sizeof(kit_bank_count));
    out->block_store = calloc(out->blocks + 1, sizeof(kit_bank_count));
    out->warp_load = calloc(nwarps + 1, sizeof(kit_bank_count));
    out->warp_store = calloc(nwarps + 1, sizeof(kit_bank_count));
    uint64_t *key = malloc(n * sizeof *key + 1);
    uint32_t *idx = malloc(n * sizeof *idx + 1);
    if (!out->block_load || !out->block_store || !out->warp_load || !out->warp_store || !key || !idx) {
        free(key);
        free(idx);
        kit_bank_free(out);
        snprintf(err, errlen, "out of memory for a trace of %zu accesses", n);
        return -1;
    }
    for (size_t x = 0; x < n; x++) {
        uint32_t f[3];
        step_of(group, &acc[x], f);
        uint64_t k = (uint64_t)acc[x].block * out->warps + acc[x].thread / model->w;
        for (int j = 0; j < 3; j++)
            k = (k << fb[j]) | f[j];
        key[x] = (k << 1) | acc[x].write;
        idx[x] = (uint32_t)x;
    }
    if (radix_sort(key, idx, n, key_bits) != 0) {
        free(key);
        free(idx);
        kit_bank_free(out);
        snprintf(err, errlen, "out of memory sorting a trace of %zu accesses", n);
        return -1;
    }
    for (size_t start = 0, end; start < n; start = end) {
        for (end = start + 1; end < n && key[end] == key[start];)
            end++;
        count_step(model, acc, idx + start, end - start, out);
    }
    free(key);
    free(idx);
    return 0;
}

int kit_trace_write(FILE *f, const kit_access *acc, size_t n)
{
    if (fprintf(f, "# kit-trace 2\n# block thread ordinal addr size r|w site sync visit\n") < 0)
        return -1;
    for (size_t x = 0; x < n; x++)
        if (fprintf(f, "%" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu32 " %u %c %" PRIu32 " %" PRIu32 " %" PRIu32 "\n",
                    acc[x].block, acc[x].thread, acc[x].ordinal, acc[x].addr, acc[x].size, acc[x].write ? 'w' : 'r',
                    acc[x].site, acc[x].sync, acc[x].visit) < 0)
            return -1;
    return fflush(f) == 0 ? 0 : -1;
}

int kit_trace_save(const char *path, const kit_access *acc, size_t n)
{
    FILE *f = fopen(path, "w");
    int rc = f && kit_trace_write(f, acc, n) == 0 ? 0 : -1;
    if (f && fclose(f) != 0)
        rc = -1;
    if (rc != 0)
        fprintf(stderr, "cannot write the trace to %s\n", path);
    return rc;
}

/* Parses one unsigned decimal field of at most 32 bits; advances *p past it and the blanks after it. */
static int field(const char **p, uint32_t *out)
{
    const char *s = *p;
    if (*s < '0' || *s > '9')
        return -1;
    uint64_t v = 0;
    while (*s >= '0' && *s <= '9') {
        v = v * 10 + (uint64_t)(*s++ - '0');
        if (v > UINT32_MAX)
            return -1;
    }
    while (*s == ' ' || *s == '\t')
        s++;
    *out = (uint32_t)v;
    *p = s;
    return 0;
}

/* Blanks, then the end of the line? */
static int at_end(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        p++;
    return *p == '\0';
}

/* Parses one access line of a trace of the given version into x; returns 0, or -1 with why in err. */
static int parse_access(const char *p, int version, unsigned long lineno, kit_access *x, char *err, size_t errlen)
{
    uint32_t size;
    memset(x, 0, sizeof *x);
    if (field(&p, &x->block) || field(&p, &x->thread) || field(&p, &x->ordinal) || field(&p, &x->addr) ||
        field(&p, &size) || (*p != 'r' && *p != 'w')) {
        snprintf(err, errlen, "line %lu: expected 'block thread ordinal addr size r|w%s'", lineno,
                 version == 2 ? " site sync visit" : "");
        return -1;
    }
    x->write = *p++ == 'w';
    while (*p == ' ' || *p == '\t')
        p++;
    if (version == 2 && (field(&p, &x->site) || field(&p, &x->sync) || field(&p, &x->visit))) {
        snprintf(err, errlen, "line %lu: expected 'site sync visit' after r|w", lineno);
        return -1;
    }
    if (!at_end(p)) {
        snprintf(err, errlen, "line %lu: unexpected text after the access", lineno);
        return -1;
    }
    if (size != 1 && size != 2 && size != 4 && size != 8 && size != 16) {
        snprintf(err, errlen, "line %lu: size %" PRIu32 " is not 1, 2, 4, 8 or 16", lineno, size);
        return -1;
    }
    if ((uint64_t)x->addr + size > ((uint64_t)1 << 32)) {
        snprintf(err, errlen, "line %lu: address %" PRIu32 " + %" PRIu32 " is out of range", lineno, x->addr, size);
        return -1;
    }
    x->size = (uint8_t)size;
    return 0;
}

int kit_trace_read(FILE *f, kit_access **acc, size_t *n, char *err, size_t errlen)
{
    size_t cap = 1024, len = 0;
    kit_access *a = malloc(cap * sizeof *a);
    char line[256];
    unsigned long lineno = 0;
    int version = 0;
    *acc = NULL;
    *n = 0;
    if (!a) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {
            snprintf(err, errlen, "line %lu: longer than %zu characters", lineno, sizeof line - 2);
            goto fail;
        }
        if (strncmp(line, "# kit-trace 1", 13) == 0 || strncmp(line, "# kit-trace 2", 13) == 0)
            version = line[12] - '0';
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#' || *p == '\n' || *p == '\r' || *p == '\0')
            continue;
        if (!version) {
            snprintf(err, errlen, "line %lu: not a kit trace (the first line must be '# kit-trace 2' or 1)", lineno);
            goto fail;
        }
        kit_access x;
        if (parse_access(p, version, lineno, &x, err, errlen) != 0)
            goto fail;
        if (len == cap) {
            kit_access *bigger = realloc(a, 2 * cap * sizeof *a);
            if (!bigger) {
                snprintf(err, errlen, "out of memory at line %lu", lineno);
                goto fail;
            }
            a = bigger;
            cap *= 2;
        }
        a[len++] = x;
    }
    if (!version) {
        snprintf(err, errlen, "not a kit trace (no '# kit-trace 2' or '# kit-trace 1' line)");
        goto fail;
    }
    *acc = a;
    *n = len;
    return 0;
fail:
    free(a);
    return -1;
}
