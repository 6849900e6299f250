/* The course secret and the keyed hash (SHA-256, HMAC) from which the grader draws each submission's hidden tests. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "draw.h"

/* ---- SHA-256 (FIPS 180-4) ---------------------------------------------------------------------- */

/* The first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
static const uint32_t SHA_K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t rotr(uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}

/* One 64-byte block into the hash. */
static void sha256_block(uint32_t h[8], const unsigned char *p)
{
    uint32_t w[64];
    for (int t = 0; t < 16; t++)
        w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 | (uint32_t)p[4 * t + 2] << 8 | p[4 * t + 3];
    for (int t = 16; t < 64; t++) {
        uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (int t = 0; t < 64; t++) {
        uint32_t t1 = k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + SHA_K[t] + w[t];
        uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

void draw_sha256_init(draw_sha256 *s)
{
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, h0, sizeof h0);
    s->bytes = 0;
    s->used = 0;
}

void draw_sha256_update(draw_sha256 *s, const void *data, size_t len)
{
    const unsigned char *p = data;
    s->bytes += len;
    while (len > 0) {
        size_t take = 64 - s->used < len ? 64 - s->used : len;
        memcpy(s->block + s->used, p, take);
        s->used += take;
        p += take;
        len -= take;
        if (s->used == 64) {
            sha256_block(s->h, s->block);
            s->used = 0;
        }
    }
}

void draw_sha256_final(draw_sha256 *s, unsigned char out[DRAW_KEY_BYTES])
{
    uint64_t bits = s->bytes * 8;
    unsigned char pad[72] = {0x80}; /* 0x80, zeros up to 56 mod 64, then the length in bits, big-endian */
    size_t zeros = (s->used < 56 ? 56 - s->used : 120 - s->used) - 1;
    for (int i = 0; i < 8; i++)
        pad[1 + zeros + i] = (unsigned char)(bits >> (56 - 8 * i));
    draw_sha256_update(s, pad, 1 + zeros + 8);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 4; j++)
            out[4 * i + j] = (unsigned char)(s->h[i] >> (24 - 8 * j));
}

void draw_hmac(const void *key, size_t klen, const void *a, size_t alen, const void *b, size_t blen,
               unsigned char out[DRAW_KEY_BYTES])
{
    unsigned char k[64] = {0}, pad[64], inner[DRAW_KEY_BYTES];
    draw_sha256 s;
    if (klen > 64) { /* a long key is hashed first */
        draw_sha256_init(&s);
        draw_sha256_update(&s, key, klen);
        draw_sha256_final(&s, k);
    } else {
        memcpy(k, key, klen);
    }
    for (int i = 0; i < 64; i++)
        pad[i] = k[i] ^ 0x36;
    draw_sha256_init(&s);
    draw_sha256_update(&s, pad, 64);
    draw_sha256_update(&s, a, alen);
    if (blen)
        draw_sha256_update(&s, b, blen);
    draw_sha256_final(&s, inner);
    for (int i = 0; i < 64; i++)
        pad[i] = k[i] ^ 0x5c;
    draw_sha256_init(&s);
    draw_sha256_update(&s, pad, 64);
    draw_sha256_update(&s, inner, sizeof inner);
    draw_sha256_final(&s, out);
}

/* ---- the course secret ------------------------------------------------------------------------- */

/* Fills fd (a new, empty file) with a fresh secret and syncs it; returns 0, or -1 with why. */
static int write_secret(int fd, const char *path, char *why, size_t len)
{
    unsigned char key[DRAW_KEY_BYTES];
    size_t got = 0;
    while (got < sizeof key) {
        ssize_t n = getrandom(key + got, sizeof key - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            snprintf(why, len, "getrandom failed: %s", strerror(errno));
            return -1;
        }
        got += (size_t)n;
    }
    int rc = fchmod(fd, 0600) == 0 && write(fd, key, sizeof key) == (ssize_t)sizeof key && fsync(fd) == 0 ? 0 : -1;
    if (rc)
        snprintf(why, len, "cannot write %s: %s", path, strerror(errno));
    memset(key, 0, sizeof key);
    return rc;
}

int draw_secret_make(const char *path, char *why, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 && errno == EEXIST)
        snprintf(why, len, "%s exists; a secret is never overwritten (the tests it drew would change)", path);
    else if (fd < 0)
        snprintf(why, len, "cannot make %s: %s", path, strerror(errno));
    if (fd < 0)
        return -1;
    int rc = write_secret(fd, path, why, len);
    if (close(fd) != 0 && rc == 0) {
        snprintf(why, len, "cannot write %s: %s", path, strerror(errno));
        rc = -1;
    }
    if (rc)
        unlink(path);
    return rc;
}

int draw_secret_load(const char *path, unsigned char key[DRAW_KEY_BYTES], char *why, size_t len)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0) {
        snprintf(why, len, "cannot read the secret %s: %s", path, errno == ELOOP ? "a symbolic link" : strerror(errno));
        return -1;
    }
    int rc = -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size != DRAW_KEY_BYTES)
        snprintf(why, len, "%s is not a secret: a regular file of %d bytes (grader --make-secret FILE makes one)", path,
                 DRAW_KEY_BYTES);
    else if (st.st_mode & 077)
        snprintf(why, len, "the secret %s may be read or written by others than its owner: chmod 600 it", path);
    else if (read(fd, key, DRAW_KEY_BYTES) != DRAW_KEY_BYTES)
        snprintf(why, len, "cannot read the secret %s: %s", path, strerror(errno));
    else
        rc = 0;
    close(fd);
    return rc;
}

int draw_secret_open(const char *path, unsigned char key[DRAW_KEY_BYTES], int *made, char *why, size_t len)
{
    *made = 0;
    if (access(path, F_OK) == 0 || errno != ENOENT)
        return draw_secret_load(path, key, why, len);
    /* Made beside it, then linked into place: a grader that reads it never sees half a secret, and
       of two that make it at once, the second's link fails and it reads the first's. */
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(why, len, "cannot make a secret beside %s: %s", path, strerror(errno));
        return -1;
    }
    int rc = write_secret(fd, tmp, why, len);
    close(fd);
    if (rc == 0 && link(tmp, path) == 0)
        *made = 1;
    else if (rc == 0 && errno != EEXIST) {
        snprintf(why, len, "cannot make %s: %s", path, strerror(errno));
        rc = -1;
    }
    unlink(tmp);
    return rc ? rc : draw_secret_load(path, key, why, len);
}

/* ---- what a draw depends on -------------------------------------------------------------------- */

void draw_files_digest(const char *dir, const char (*files)[64], int nfiles, unsigned char out[DRAW_KEY_BYTES])
{
    draw_sha256 s;
    draw_sha256_init(&s);
    for (int f = 0; f < nfiles; f++) {
        char path[4200], buf[65536];
        unsigned char size[8];
        snprintf(path, sizeof path, "%s/%s", dir, files[f]);
        draw_sha256_update(&s, files[f], strlen(files[f]) + 1);
        int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            memset(size, 0xff, sizeof size);
            draw_sha256_update(&s, size, sizeof size);
            if (fd >= 0)
                close(fd);
            continue;
        }
        for (int i = 0; i < 8; i++)
            size[i] = (unsigned char)((uint64_t)st.st_size >> (8 * i));
        draw_sha256_update(&s, size, sizeof size);
        for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;)
            draw_sha256_update(&s, buf, (size_t)n);
        close(fd);
    }
    draw_sha256_final(&s, out);
}

void draw_lab_key(const unsigned char secret[DRAW_KEY_BYTES], const char *lab,
                  const unsigned char files[DRAW_KEY_BYTES], unsigned char out[DRAW_KEY_BYTES])
{
    char label[128];
    int n = snprintf(label, sizeof label, "kit hidden draw v1%c%s%c", '\0', lab, '\0');
    draw_hmac(secret, DRAW_KEY_BYTES, label, n > 0 && (size_t)n < sizeof label ? (size_t)n : sizeof label, files,
              DRAW_KEY_BYTES, out);
}

void draw_stream_init(draw_stream *s, const unsigned char lab_key[DRAW_KEY_BYTES], const char *label)
{
    draw_hmac(lab_key, DRAW_KEY_BYTES, "line", 5, label, strlen(label), s->key);
    s->counter = 0;
    s->used = DRAW_KEY_BYTES; /* no block yet */
}

uint64_t draw_u64(draw_stream *s)
{
    if (s->used + 8 > DRAW_KEY_BYTES) {
        unsigned char count[8];
        for (int i = 0; i < 8; i++)
            count[i] = (unsigned char)(s->counter >> (56 - 8 * i));
        s->counter++;
        draw_hmac(s->key, DRAW_KEY_BYTES, count, sizeof count, NULL, 0, s->block);
        s->used = 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | s->block[s->used + (size_t)i];
    s->used += 8;
    return v;
}

uint64_t draw_below(draw_stream *s, uint64_t n)
{
    if (n <= 1)
        return 0;
    uint64_t limit = UINT64_MAX - UINT64_MAX % n; /* values at or above it would favour the low results */
    for (;;) {
        uint64_t v = draw_u64(s);
        if (v < limit)
            return v % n;
    }
}
