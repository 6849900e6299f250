/** @file
 * The typed request: what the grader asks a lab runner to do, with every number named (the
 * launch's u, w, E, ...), shared by the grader (which encodes it) and the lab drivers (which decode
 * it). The words of the request file (kit_proto.h) are read and written only by the encode/decode
 * pair here, and decoding checks every field, so a driver sees named values that make sense for
 * its op. The letters mean what they mean everywhere in the kit, and what the spec keys of the
 * same names mean (grader/spec.h): u threads per block, w threads per warp, E keys per thread.
 */
#ifndef KIT_REQUEST_H
#define KIT_REQUEST_H

#include <stdio.h>

#include "kit_proto.h"
#include "kit_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The operations a lab runner serves, one per kind of lab. */
typedef enum kit_op {
    KIT_OP_MERGE,   /**< "merge": C = merge(A, B) (labs 1, 3, 4, 5, 7) */
    KIT_OP_CO_RANK, /**< "co_rank": the co-rank of each queried rank (lab 2) */
    KIT_OP_PBS,     /**< "pbs": the predecessor of each query B[x] among the sorted keys A (lab 6) */
    KIT_OP_SORT,    /**< "sort": C = A sorted (lab 9) */
    KIT_OP_WORST,   /**< "worst": one warp's worst-case splits (lab 8) */
    KIT_OP_COUNT    /**< the number of ops */
} kit_op;

/** Lab 8's part=order: the inputs of the student's worst_order for one thread of the reference warp. */
typedef struct kit_worst_thread {
    int a_word; /**< the thread's first word of A in the shared tile */
    int b_word; /**< its first word of B */
    int a;      /**< its keys of A */
    int b;      /**< its keys of B */
} kit_worst_thread;

/**
 * One request. Each op uses the fields its line names and leaves the others 0; decoding refuses
 * a request that sets a field its op does not use.
 * - merge: blocks and u (0 for the runner's default launch, lab 1 has none), and with them tile
 *   (labs 4 and 5) or E (lab 7); measure.
 * - co_rank: ranks.
 * - pbs: alg, blocks, u (a multiple of 32), measure; m >= 1 keys, n queries.
 * - sort: alg, u, E, measure; m keys, no n.
 * - worst: w, E (1 < E <= w), part, measure (part=both); for part=order, threads. No A or B.
 */
typedef struct kit_request {
    kit_op op;        /**< the operation */
    kit_type type;    /**< the element type of A and B */
    uint64_t m;       /**< elements of A */
    uint64_t n;       /**< elements of B */
    int guard;        /**< 1: canaries surround the output (KIT_REQ_GUARD) */
    int measure;      /**< 1: also run the lab's measured kernel, which the grader counts */
    int blocks;       /**< thread blocks of the launch */
    int u;            /**< threads per block */
    int w;            /**< threads per warp, and banks (lab 8) */
    int E;            /**< keys per thread (labs 7, 8, 9) */
    int tile;         /**< keys of A and of B a block stages in shared memory per round (labs 4, 5) */
    int alg;          /**< pbs: 0 PBS, 1 PBS-CF, 2 PBS-CL; sort: 0 baseline, 1 CF */
    int part;         /**< worst: 1 worst_subproblem, 2 worst_order, 3 both */
    uint64_t nranks;  /**< co_rank: entries of ranks */
    int64_t *ranks;   /**< co_rank: the ranks k to query, each in 0 .. m + n (malloc'ed) */
    kit_worst_thread *threads; /**< worst, part=order: w entries (malloc'ed), else NULL */
} kit_request;

/** @return the op's name on the wire and in specs ("merge", ...), or "?" for a value out of range. */
const char *kit_op_name(kit_op op);

/**
 * Finds an op by name.
 * @param[in]  name for example "sort"
 * @param[out] op   the op
 * @return 0, or -1 for an unknown name
 */
int kit_op_parse(const char *name, kit_op *op);

/**
 * Encodes a request into the header and words of the request file.
 * @param[in]  r the request; its fields must satisfy kit_request_decode()
 * @param[out] h the header: op, type, flags, m, n and the word count q
 * @return the h->q words (malloc'ed, the caller frees them), or NULL when out of memory
 */
int64_t *kit_request_encode(const kit_request *r, kit_req *h);

/**
 * Decodes and checks a request read from the wire: every field in its op's range, and the
 * fields the op does not use 0.
 * @param[in]  h      the header read (kit_req_read())
 * @param[in]  Q      its h->q words
 * @param[in]  want   the op this runner serves
 * @param[out] r      the request; on success its arrays are the caller's (kit_request_free())
 * @param[out] err    on failure, one line that names the bad field and its value
 * @param[in]  errlen size of @p err
 * @return 0, or -1 for a malformed request or one of another op
 */
int kit_request_decode(const kit_req *h, const int64_t *Q, kit_op want, kit_request *r, char *err, size_t errlen);

/**
 * Writes a request file: kit_request_encode() then kit_req_write().
 * @param[in] f    the file
 * @param[in] r    the request
 * @param[in] A, B its inputs, r->m and r->n elements of r->type
 * @return 0, or -1 when out of memory or on a write error
 */
int kit_request_write(FILE *f, const kit_request *r, const void *A, const void *B);

/** Frees the request's arrays (ranks, threads) and sets them to NULL; the struct itself is the caller's. */
void kit_request_free(kit_request *r);

#ifdef __cplusplus
}
#endif

#endif
