/** @file
 * The file format in which the grader hands a lab runner its inputs and reads
 * back the results. The grader computes the expected answer itself, so nothing
 * the runner prints can make a test pass.
 */
#ifndef KIT_PROTO_H
#define KIT_PROTO_H

#include <stdio.h>

#include "kit_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KIT_PROTO_MAX_ELEMS (1ULL << 29) /**< no array in a request or reply may be longer */

/**
 * Request flag of op "merge": the runner surrounds the output C with
 * KIT_GUARD_ELEMS canary elements on each side, every byte KIT_GUARD_BYTE,
 * hands the student's code the middle, and returns all of it (c = m + n +
 * 2 * KIT_GUARD_ELEMS). The grader checks the canaries itself, so a write
 * past either end of C shows even when it did not crash. Every driver that
 * serves op "merge" must honour it.
 */
#define KIT_REQ_GUARD 1u
#define KIT_GUARD_ELEMS 256   /**< canary elements on each side of C */
#define KIT_GUARD_BYTE 0xCB   /**< canary byte (C's own unwritten slots are 0xA5) */

/** A request: which lab operation to run, on which inputs. A, B and the queries follow it. */
typedef struct kit_req {
    char op[16];     /**< operation, for example "merge" or "co_rank" */
    uint32_t type;   /**< kit_type of A and B */
    uint32_t flags;  /**< operation-specific options */
    uint64_t m;      /**< elements of A */
    uint64_t n;      /**< elements of B */
    uint64_t q;      /**< int64 queries (ranks k for co_rank) */
} kit_req;

/** Status of a reply. */
enum {
    KIT_RES_OK = 0,              /**< the operation ran */
    KIT_RES_NOT_IMPLEMENTED = 1, /**< a skeleton function was reached; note holds the task */
    KIT_RES_ERROR = 2,           /**< the runner refused the request; note says why */
    KIT_RES_FAILED = 3           /**< the submission's code failed at run time (a kernel launch failed); note says how */
};

/** A reply: C, then A and B as they were after the call, then the results. */
typedef struct kit_res {
    uint32_t status;  /**< KIT_RES_* */
    uint32_t type;    /**< kit_type of C, A and B */
    uint64_t c;       /**< elements of C */
    uint64_t m;       /**< elements of A echoed back */
    uint64_t n;       /**< elements of B echoed back */
    uint64_t r;       /**< int64 results */
    char note[96];    /**< NUL-terminated task or error text */
} kit_res;

/**
 * Writes a request.
 * @return 0 on success, -1 on a write error or an unknown type
 */
int kit_req_write(FILE *f, const kit_req *h, const void *A, const void *B, const int64_t *Q);

/**
 * Reads a request; the arrays are malloc'ed (NULL when empty) and belong to the caller.
 * @param[in]  f   the request file
 * @param[out] h   the header read
 * @param[out] A,B,Q the arrays
 * @param[out] err on failure, what was wrong with the input
 * @param[in]  errlen size of @p err
 * @return 0 on success, -1 on a malformed or truncated request
 */
int kit_req_read(FILE *f, kit_req *h, void **A, void **B, int64_t **Q, char *err, size_t errlen);

/**
 * Writes a reply. A, B and R may be NULL only when their counts are 0.
 * @return 0 on success, -1 on a write error
 */
int kit_res_write(FILE *f, const kit_res *h, const void *C, const void *A, const void *B, const int64_t *R);

/**
 * Reads a reply from an untrusted runner. The header must announce exactly
 * the counts in @p want (status OK) or no arrays at all (other statuses);
 * anything else is refused before any array is read.
 * @param[in]  f    the reply file
 * @param[in]  want expected type and counts; its status and note are ignored
 * @param[out] h    the header read
 * @param[out] C,A,B,R malloc'ed arrays owned by the caller (NULL when empty)
 * @param[out] err  why the reply was refused
 * @param[in]  errlen size of @p err
 * @return 0 on success, -1 on a malformed reply, with a reason in @p err
 */
int kit_res_read(FILE *f, const kit_res *want, kit_res *h, void **C, void **A, void **B, int64_t **R,
                 char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
