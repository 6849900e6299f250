/** @file draw.h The course secret and the keyed hash from which the grader draws each submission's hidden tests. */
#ifndef DRAW_H
#define DRAW_H

#include <stddef.h>
#include <stdint.h>

#define DRAW_KEY_BYTES 32 /**< a secret, a lab's key and a SHA-256 digest are this long */

/** A SHA-256 computation in progress (FIPS 180-4). */
typedef struct draw_sha256 {
    uint32_t h[8];            /**< the hash so far */
    uint64_t bytes;           /**< message bytes taken in */
    unsigned char block[64];  /**< the block being filled */
    size_t used;              /**< bytes of block filled */
} draw_sha256;

/** Starts a SHA-256 computation. @param[out] s the state */
void draw_sha256_init(draw_sha256 *s);

/**
 * Takes in more of the message.
 * @param[in,out] s    the state
 * @param[in]     data the bytes
 * @param[in]     len  how many
 */
void draw_sha256_update(draw_sha256 *s, const void *data, size_t len);

/**
 * Ends the computation.
 * @param[in,out] s   the state (spent)
 * @param[out]    out the digest
 */
void draw_sha256_final(draw_sha256 *s, unsigned char out[DRAW_KEY_BYTES]);

/**
 * HMAC-SHA-256 (RFC 2104) of a message given in two parts, which are hashed as one.
 * @param[in]  key   the key (any length)
 * @param[in]  klen  its length
 * @param[in]  a     the message's first part
 * @param[in]  alen  its length
 * @param[in]  b     its second part (NULL when blen is 0)
 * @param[in]  blen  its length
 * @param[out] out   the tag
 */
void draw_hmac(const void *key, size_t klen, const void *a, size_t alen, const void *b, size_t blen,
               unsigned char out[DRAW_KEY_BYTES]);

/**
 * Makes a course secret: DRAW_KEY_BYTES random bytes from getrandom() in a new file of mode 0600.
 * @param[in]  path where; an existing file is never overwritten
 * @param[out] why  on failure, what went wrong
 * @param[in]  len  size of @p why
 * @return 0, or -1 with why
 */
int draw_secret_make(const char *path, char *why, size_t len);

/**
 * Reads a course secret: a regular file (not a link) of exactly DRAW_KEY_BYTES bytes that neither
 * its group nor others may read or write.
 * @param[in]  path the file
 * @param[out] key  the secret
 * @param[out] why  on failure, what went wrong
 * @param[in]  len  size of @p why
 * @return 0, or -1 with why
 */
int draw_secret_load(const char *path, unsigned char key[DRAW_KEY_BYTES], char *why, size_t len);

/**
 * Reads the secret at @p path, first making it (as draw_secret_make()) when there is none; a
 * grader beside this one that makes it at the same time makes the same file, never two.
 * @param[in]  path the file
 * @param[out] key  the secret
 * @param[out] made 1 when this call made it, else 0
 * @param[out] why  on failure, what went wrong
 * @param[in]  len  size of @p why
 * @return 0, or -1 with why
 */
int draw_secret_open(const char *path, unsigned char key[DRAW_KEY_BYTES], int *made, char *why, size_t len);

/**
 * The digest of a submission's files for one lab: SHA-256 over each file in turn, its name, a
 * zero byte, its length as 8 bytes (little-endian) and its bytes; a file that cannot be read (a
 * link, missing) counts as its name, a zero byte and 8 bytes of 0xff.
 * @param[in]  dir    the folder that holds them (the grader's scratch copy)
 * @param[in]  files  their names
 * @param[in]  nfiles how many
 * @param[out] out    the digest
 */
void draw_files_digest(const char *dir, const char (*files)[64], int nfiles, unsigned char out[DRAW_KEY_BYTES]);

/**
 * A lab's drawing key: HMAC-SHA-256 under the course secret of the lab's folder name and the
 * digest of the submitted files. The same secret and files give the same key, so a regrade draws
 * the same tests; another secret or one changed byte gives unrelated ones.
 * @param[in]  secret the course secret
 * @param[in]  lab    the lab's folder, "NN-slug"
 * @param[in]  files  draw_files_digest() of the submission's files for the lab
 * @param[out] out    the key
 */
void draw_lab_key(const unsigned char secret[DRAW_KEY_BYTES], const char *lab,
                  const unsigned char files[DRAW_KEY_BYTES], unsigned char out[DRAW_KEY_BYTES]);

/** A stream of random numbers: HMAC-SHA-256 in counter mode under a key. */
typedef struct draw_stream {
    unsigned char key[DRAW_KEY_BYTES];   /**< the stream's own key */
    uint64_t counter;                    /**< blocks made */
    unsigned char block[DRAW_KEY_BYTES]; /**< the current block */
    size_t used;                         /**< its bytes handed out */
} draw_stream;

/**
 * Starts the stream of one draw line: its key is HMAC(lab key, label), so each line's tests depend
 * on the lab key and its own name, not on the lines before it.
 * @param[out] s       the stream
 * @param[in]  lab_key draw_lab_key()'s key
 * @param[in]  label   the line's name
 */
void draw_stream_init(draw_stream *s, const unsigned char lab_key[DRAW_KEY_BYTES], const char *label);

/** @param[in,out] s the stream @return its next 64 bits */
uint64_t draw_u64(draw_stream *s);

/**
 * A number uniform in [0, n), without the bias of a plain remainder.
 * @param[in,out] s the stream
 * @param[in]     n how many values (n >= 1)
 * @return the number
 */
uint64_t draw_below(draw_stream *s, uint64_t n);

#endif
