/* The request and reply files exchanged by the grader and a lab runner. */
#include <stdlib.h>
#include <string.h>

#include "kit_mem.h"
#include "kit_proto.h"

static const char REQ_MAGIC[8] = {'K', 'I', 'T', 'R', 'E', 'Q', '0', '2'};
static const char RES_MAGIC[8] = {'K', 'I', 'T', 'R', 'E', 'S', '0', '1'};

static int write_all(FILE *f, const void *p, size_t bytes)
{
    return bytes == 0 || fwrite(p, 1, bytes, f) == bytes ? 0 : -1;
}

/* Reads count elements of size bytes into a fresh buffer; *out is NULL for an empty array. */
static int read_array(FILE *f, uint64_t count, size_t size, void **out)
{
    *out = NULL;
    if (count == 0)
        return 0;
    void *p = kit_malloc((size_t)count * size);
    if (!p)
        return -1;
    if (fread(p, size, (size_t)count, f) != (size_t)count) {
        free(p);
        return -1;
    }
    *out = p;
    return 0;
}

/* Reads the 8-byte magic and a header of `size` bytes; 0 when the magic is `want` and both were read. */
static int read_header(FILE *f, const char want[8], void *h, size_t size)
{
    char magic[8];
    if (fread(magic, 1, sizeof magic, f) != sizeof magic || memcmp(magic, want, sizeof magic) != 0)
        return -1;
    return fread(h, size, 1, f) == 1 ? 0 : -1;
}

/*
 * Reads `count` arrays in turn, array i of counts[i] elements of sizes[i] bytes into *out[i]
 * (read_array()). On failure it frees them all, leaves each *out[i] NULL and returns -1.
 */
static int read_arrays(FILE *f, int count, const uint64_t *counts, const size_t *sizes, void **const *out)
{
    for (int i = 0; i < count; i++)
        *out[i] = NULL;
    for (int i = 0; i < count; i++)
        if (read_array(f, counts[i], sizes[i], out[i]) != 0) {
            for (int j = 0; j < count; j++) {
                free(*out[j]);
                *out[j] = NULL;
            }
            return -1;
        }
    return 0;
}

int kit_req_write(FILE *f, const kit_req *h, const void *A, const void *B, const int64_t *Q)
{
    size_t size = kit_type_size((kit_type)h->type);
    if (size == 0)
        return -1;
    if (write_all(f, REQ_MAGIC, sizeof REQ_MAGIC) || write_all(f, h, sizeof *h) ||
        write_all(f, A, (size_t)h->m * size) || write_all(f, B, (size_t)h->n * size) ||
        write_all(f, Q, (size_t)h->q * sizeof(int64_t)))
        return -1;
    return fflush(f) == 0 ? 0 : -1;
}

int kit_req_read(FILE *f, kit_req *h, void **A, void **B, int64_t **Q, char *err, size_t errlen)
{
    *A = *B = NULL;
    *Q = NULL;
    if (read_header(f, REQ_MAGIC, h, sizeof *h) != 0) {
        snprintf(err, errlen, "not a kit request (bad or missing header)");
        return -1;
    }
    h->op[sizeof h->op - 1] = '\0';
    size_t size = kit_type_size((kit_type)h->type);
    if (size == 0 || h->m > KIT_PROTO_MAX_ELEMS || h->n > KIT_PROTO_MAX_ELEMS || h->q > KIT_PROTO_MAX_ELEMS) {
        snprintf(err, errlen, "request has an unknown type or an array over %llu elements",
                 (unsigned long long)KIT_PROTO_MAX_ELEMS);
        return -1;
    }
    const uint64_t counts[3] = {h->m, h->n, h->q};
    const size_t sizes[3] = {size, size, sizeof(int64_t)};
    void **const out[3] = {A, B, (void **)Q};
    if (read_arrays(f, 3, counts, sizes, out) != 0) {
        snprintf(err, errlen, "request is truncated");
        return -1;
    }
    return 0;
}

int kit_res_write(FILE *f, const kit_res *h, const void *C, const void *A, const void *B, const int64_t *R)
{
    size_t size = kit_type_size((kit_type)h->type);
    if (size == 0)
        return -1;
    if (write_all(f, RES_MAGIC, sizeof RES_MAGIC) || write_all(f, h, sizeof *h) ||
        write_all(f, C, (size_t)h->c * size) || write_all(f, A, (size_t)h->m * size) ||
        write_all(f, B, (size_t)h->n * size) || write_all(f, R, (size_t)h->r * sizeof(int64_t)))
        return -1;
    return fflush(f) == 0 ? 0 : -1;
}

int kit_res_read(FILE *f, const kit_res *want, kit_res *h, void **C, void **A, void **B, int64_t **R,
                 char *err, size_t errlen)
{
    *C = *A = *B = NULL;
    *R = NULL;
    if (read_header(f, RES_MAGIC, h, sizeof *h) != 0) {
        snprintf(err, errlen, "runner wrote no valid reply");
        return -1;
    }
    h->note[sizeof h->note - 1] = '\0';
    if (h->status != KIT_RES_OK) {
        if (h->status != KIT_RES_NOT_IMPLEMENTED && h->status != KIT_RES_ERROR && h->status != KIT_RES_FAILED) {
            snprintf(err, errlen, "runner reply has unknown status %u", (unsigned)h->status);
            return -1;
        }
        if (h->c || h->m || h->n || h->r) {
            snprintf(err, errlen, "runner reply of status %u announces arrays", (unsigned)h->status);
            return -1;
        }
        return 0;
    }
    if (h->type != want->type || h->c != want->c || h->m != want->m || h->n != want->n || h->r != want->r) {
        snprintf(err, errlen, "runner reply has the wrong shape (c=%llu m=%llu n=%llu r=%llu)",
                 (unsigned long long)h->c, (unsigned long long)h->m, (unsigned long long)h->n,
                 (unsigned long long)h->r);
        return -1;
    }
    size_t size = kit_type_size((kit_type)h->type);
    const uint64_t counts[4] = {h->c, h->m, h->n, h->r};
    const size_t sizes[4] = {size, size, size, sizeof(int64_t)};
    void **const out[4] = {C, A, B, (void **)R};
    if (read_arrays(f, 4, counts, sizes, out) != 0) {
        snprintf(err, errlen, "runner reply is truncated");
        return -1;
    }
    return 0;
}
