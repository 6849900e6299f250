/* The typed request: encoded into, and decoded and checked from, the words of a request file. */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "kit_request.h"

static const char *const OP_NAMES[KIT_OP_COUNT] = {"merge", "co_rank", "pbs", "sort", "worst"};

/* The launch words, in wire order: every request carries them all, 0 where its op has none. The
   op's array follows them: co_rank's ranks, or worst's (a_word, b_word, a, b) for each thread. */
enum { F_MEASURE, F_BLOCKS, F_U, F_W, F_E, F_TILE, F_ALG, F_PART, FIELDS };
static const char *const FIELD_NAMES[FIELDS] = {"measure", "blocks", "u", "w", "E", "tile", "alg", "part"};
static const size_t FIELD_AT[FIELDS] = {
    offsetof(kit_request, measure), offsetof(kit_request, blocks), offsetof(kit_request, u),
    offsetof(kit_request, w),       offsetof(kit_request, E),      offsetof(kit_request, tile),
    offsetof(kit_request, alg),     offsetof(kit_request, part)};

/* Each op's range of each field, in wire order; 0 .. 0 for a field the op does not use. */
#define BIG INT32_MAX
static const int RANGE[KIT_OP_COUNT][FIELDS][2] = {
    /* measure  blocks     u          w          E          tile      alg     part */
    {{0, 1}, {0, BIG}, {0, 1024}, {0, 0}, {0, BIG}, {0, BIG}, {0, 0}, {0, 0}},    /* merge */
    {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}},             /* co_rank */
    {{0, 1}, {1, BIG}, {32, 1024}, {0, 0}, {0, 0}, {0, 0}, {0, 2}, {0, 0}},       /* pbs */
    {{0, 1}, {0, 0}, {1, 1024}, {0, 0}, {1, 64}, {0, 0}, {0, 1}, {0, 0}},         /* sort */
    {{0, 1}, {0, 0}, {0, 0}, {2, 1024}, {2, 1024}, {0, 0}, {0, 0}, {1, 3}}};      /* worst */

KIT_ENUM_NAMES(kit_op, OP_NAMES, KIT_OP_COUNT)

/* The words that follow the launch: co_rank's ranks, or four for each thread of a worst part=order. */
static uint64_t array_words(const kit_request *r)
{
    if (r->op == KIT_OP_CO_RANK)
        return r->nranks;
    return r->op == KIT_OP_WORST && r->part == 2 ? 4 * (uint64_t)r->w : 0;
}

int64_t *kit_request_encode(const kit_request *r, kit_req *h)
{
    memset(h, 0, sizeof *h);
    snprintf(h->op, sizeof h->op, "%s", kit_op_name(r->op));
    h->type = (uint32_t)r->type;
    h->flags = r->guard ? KIT_REQ_GUARD : 0;
    h->m = r->m;
    h->n = r->n;
    h->q = FIELDS + array_words(r);
    int64_t *Q = malloc(h->q * sizeof *Q);
    if (!Q)
        return NULL;
    for (int f = 0; f < FIELDS; f++)
        Q[f] = *(const int *)((const char *)r + FIELD_AT[f]);
    for (uint64_t x = 0; r->op == KIT_OP_CO_RANK && x < r->nranks; x++)
        Q[FIELDS + x] = r->ranks[x];
    for (uint64_t i = 0; r->op == KIT_OP_WORST && i < array_words(r) / 4; i++) {
        int64_t *x = Q + FIELDS + 4 * i;
        x[0] = r->threads[i].a_word;
        x[1] = r->threads[i].b_word;
        x[2] = r->threads[i].a;
        x[3] = r->threads[i].b;
    }
    return Q;
}

/* The launch words into r, each in its op's range; 0, or -1 with the field named in err. */
static int decode_fields(const int64_t *Q, kit_request *r, char *err, size_t errlen)
{
    const char *op = kit_op_name(r->op);
    for (int f = 0; f < FIELDS; f++) {
        const int *range = RANGE[r->op][f];
        if (Q[f] < range[0] || Q[f] > range[1]) {
            if (range[1] == 0)
                snprintf(err, errlen, "bad %s request: %s = %lld, which %s does not use", op, FIELD_NAMES[f],
                         (long long)Q[f], op);
            else
                snprintf(err, errlen, "bad %s request: %s = %lld, not in %d .. %d", op, FIELD_NAMES[f],
                         (long long)Q[f], range[0], range[1]);
            return -1;
        }
        *(int *)((char *)r + FIELD_AT[f]) = (int)Q[f];
    }
    return 0;
}

/* The fields taken together: 0, or -1 with what is wrong in err. */
static int decode_rules(const kit_request *r, char *err, size_t errlen)
{
    unsigned long long m = r->m, n = r->n;
    if (m + n > INT32_MAX)
        return kit_err(err, errlen, "bad %s request: m + n = %llu is over 2^31 - 1", kit_op_name(r->op), m + n);
    if (r->op == KIT_OP_MERGE && (r->blocks > 0) != (r->u > 0))
        return kit_err(err, errlen, "bad merge request: blocks = %d and u = %d go together", r->blocks, r->u);
    if (r->op == KIT_OP_MERGE && r->blocks == 0 && (r->tile || r->E || r->measure))
        return kit_err(err, errlen, "bad merge request: tile, E and measure need the launch (blocks and u)");
    if (r->op == KIT_OP_MERGE && r->tile && r->E)
        return kit_err(err, errlen, "bad merge request: tile = %d (labs 4, 5) or E = %d (lab 7), not both", r->tile, r->E);
    if (r->op == KIT_OP_PBS && r->u % 32 != 0)
        return kit_err(err, errlen, "bad pbs request: u = %d, not a multiple of 32", r->u);
    if (r->op == KIT_OP_PBS && m < 1)
        return kit_err(err, errlen, "bad pbs request: m = 0 keys, it needs at least one");
    if (r->op == KIT_OP_SORT && n != 0)
        return kit_err(err, errlen, "bad sort request: n = %llu, it sorts A alone", n);
    if (r->op == KIT_OP_WORST && r->E > r->w)
        return kit_err(err, errlen, "bad worst request: E = %d is over w = %d", r->E, r->w);
    if (r->op == KIT_OP_WORST && m + n > 0)
        return kit_err(err, errlen, "bad worst request: m = %llu and n = %llu, it takes no A or B", m, n);
    return 0;
}

/* The op's array (ranks, or worst's threads) from the words after the launch; 0, or -1 with err. */
static int decode_array(const int64_t *words, kit_request *r, char *err, size_t errlen)
{
    uint64_t total = r->m + r->n;
    if (r->op == KIT_OP_CO_RANK && !(r->ranks = malloc(r->nranks * sizeof *r->ranks + 1)))
        return kit_err(err, errlen, "out of memory decoding the request");
    for (uint64_t x = 0; r->op == KIT_OP_CO_RANK && x < r->nranks; x++) {
        if (words[x] < 0 || (uint64_t)words[x] > total)
            return kit_err(err, errlen, "rank %lld is outside 0 .. %llu", (long long)words[x], (unsigned long long)total);
        r->ranks[x] = words[x];
    }
    if (r->op != KIT_OP_WORST || array_words(r) == 0)
        return 0;
    if (!(r->threads = malloc((size_t)r->w * sizeof *r->threads)))
        return kit_err(err, errlen, "out of memory decoding the request");
    for (int i = 0; i < r->w; i++) {
        const int64_t *x = words + 4 * i;
        for (int k = 0; k < 4; k++)
            if (x[k] < 0 || x[k] > INT32_MAX)
                return kit_err(err, errlen, "bad worst request: thread %d's inputs hold %lld", i, (long long)x[k]);
        kit_worst_thread t = {(int)x[0], (int)x[1], (int)x[2], (int)x[3]};
        r->threads[i] = t;
    }
    return 0;
}

int kit_request_decode(const kit_req *h, const int64_t *Q, kit_op want, kit_request *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    if (kit_op_parse(h->op, &r->op) != 0 || r->op != want) {
        snprintf(err, errlen, "this runner serves '%s', not '%.15s'", kit_op_name(want), h->op);
        return -1;
    }
    r->type = (kit_type)h->type;
    r->m = h->m;
    r->n = h->n;
    r->guard = (h->flags & KIT_REQ_GUARD) != 0;
    if (h->q < FIELDS) {
        snprintf(err, errlen, "bad %s request: %llu words, fewer than the launch's %d", h->op,
                 (unsigned long long)h->q, FIELDS);
        return -1;
    }
    if (decode_fields(Q, r, err, errlen) != 0 || decode_rules(r, err, errlen) != 0)
        return -1;
    if (r->op == KIT_OP_CO_RANK)
        r->nranks = h->q - FIELDS;
    if (h->q != FIELDS + array_words(r)) {
        snprintf(err, errlen, "bad %s request: %llu words, not %llu", h->op, (unsigned long long)h->q,
                 (unsigned long long)(FIELDS + array_words(r)));
        return -1;
    }
    if (decode_array(Q + FIELDS, r, err, errlen) != 0) {
        kit_request_free(r);
        return -1;
    }
    return 0;
}

int kit_request_write(FILE *f, const kit_request *r, const void *A, const void *B)
{
    kit_req h;
    int64_t *Q = kit_request_encode(r, &h);
    int rc = Q ? kit_req_write(f, &h, A, B, Q) : -1;
    free(Q);
    return rc;
}

void kit_request_free(kit_request *r)
{
    free(r->ranks);
    free(r->threads);
    r->ranks = NULL;
    r->threads = NULL;
}
