/* Tests of the hidden tests drawn at grading time: SHA-256 and HMAC against their standard vectors, the course secret, the draw lines, formula and ref bounds, and the kit's hidden specs. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "draw.h"
#include "kit_test.h"
#include "spec.h"

static spec_lab lab;

/* The digest as 64 lowercase hex digits. */
static void hex(const unsigned char d[DRAW_KEY_BYTES], char out[2 * DRAW_KEY_BYTES + 1])
{
    for (int i = 0; i < DRAW_KEY_BYTES; i++)
        sprintf(out + 2 * i, "%02x", d[i]);
}

/* ---- SHA-256 and HMAC-SHA-256 ------------------------------------------------------------------ */

/* FIPS 180-4's examples (and NIST's million a's), whole and fed in uneven pieces. */
static void test_sha256_vectors(void)
{
    static const struct {
        const char *msg;
        const char *digest;
    } v[] = {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    unsigned char d[DRAW_KEY_BYTES];
    char got[2 * DRAW_KEY_BYTES + 1];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        draw_sha256 s;
        draw_sha256_init(&s);
        draw_sha256_update(&s, v[i].msg, strlen(v[i].msg));
        draw_sha256_final(&s, d);
        hex(d, got);
        KIT_ASSERT_MSG(strcmp(got, v[i].digest) == 0, "SHA-256(\"%s\"): expected %s, got %s", v[i].msg, v[i].digest, got);
        draw_sha256_init(&s); /* the same bytes a few at a time */
        for (size_t at = 0, step = 1; at < strlen(v[i].msg); at += step, step = step % 7 + 1)
            draw_sha256_update(&s, v[i].msg + at, at + step > strlen(v[i].msg) ? strlen(v[i].msg) - at : step);
        draw_sha256_final(&s, d);
        hex(d, got);
        KIT_ASSERT_MSG(strcmp(got, v[i].digest) == 0, "SHA-256(\"%s\") fed in pieces: expected %s, got %s", v[i].msg,
                       v[i].digest, got);
    }
    static char million[1000000];
    memset(million, 'a', sizeof million);
    draw_sha256 s;
    draw_sha256_init(&s);
    draw_sha256_update(&s, million, sizeof million);
    draw_sha256_final(&s, d);
    hex(d, got);
    KIT_ASSERT_MSG(strcmp(got, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0") == 0,
                   "SHA-256 of a million 'a': got %s", got);
}

/* RFC 4231's test cases 1, 2, 3, 4, 6 and 7 (5 truncates its tag); and a message in two parts is one message. */
static void test_hmac_vectors(void)
{
    unsigned char k1[20], k3[20], k4[25], k6[131], d3[50], d4[50], tag[DRAW_KEY_BYTES], tag2[DRAW_KEY_BYTES];
    memset(k1, 0x0b, sizeof k1);
    memset(k3, 0xaa, sizeof k3);
    for (int i = 0; i < 25; i++)
        k4[i] = (unsigned char)(i + 1);
    memset(k6, 0xaa, sizeof k6);
    memset(d3, 0xdd, sizeof d3);
    memset(d4, 0xcd, sizeof d4);
    const char *t6 = "Test Using Larger Than Block-Size Key - Hash Key First",
               *t7 = "This is a test using a larger than block-size key and a larger than block-size data. The key needs "
                     "to be hashed before being used by the HMAC algorithm.";
    const struct {
        int id;
        const void *key;
        size_t klen;
        const void *msg;
        size_t mlen;
        const char *tag;
    } v[] = {
        {1, k1, 20, "Hi There", 8, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
        {2, "Jefe", 4, "what do ya want for nothing?", 28,
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
        {3, k3, 20, d3, 50, "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"},
        {4, k4, 25, d4, 50, "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"},
        {6, k6, 131, t6, strlen(t6), "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
        {7, k6, 131, t7, strlen(t7), "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"},
    };
    char got[2 * DRAW_KEY_BYTES + 1];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        draw_hmac(v[i].key, v[i].klen, v[i].msg, v[i].mlen, NULL, 0, tag);
        hex(tag, got);
        KIT_ASSERT_MSG(strcmp(got, v[i].tag) == 0, "HMAC-SHA-256, RFC 4231 test case %d: expected %s, got %s", v[i].id,
                       v[i].tag, got);
        draw_hmac(v[i].key, v[i].klen, v[i].msg, 3, (const char *)v[i].msg + 3, v[i].mlen - 3, tag2);
        KIT_ASSERT_MSG(memcmp(tag, tag2, sizeof tag) == 0, "test case %d: the message in two parts gives another tag",
                       v[i].id);
    }
}

/* ---- the course secret -------------------------------------------------------------------------- */

/* A fresh temporary folder in dir (room for 64). */
static void temp_dir(char *dir)
{
    strcpy(dir, "/tmp/kit-draw-XXXXXX");
    KIT_ASSERT_MSG(mkdtemp(dir) != NULL, "mkdtemp failed");
}

/* draw_secret_make: 32 bytes, mode 0600, never over an existing file; draw_secret_load refuses what is no secret. */
static void test_secret_files(void)
{
    char dir[64], path[128], other[128], link[128], why[400];
    unsigned char a[DRAW_KEY_BYTES], b[DRAW_KEY_BYTES];
    temp_dir(dir);
    snprintf(path, sizeof path, "%s/course.secret", dir);
    snprintf(other, sizeof other, "%s/other.secret", dir);
    snprintf(link, sizeof link, "%s/link.secret", dir);
    KIT_ASSERT_MSG(draw_secret_make(path, why, sizeof why) == 0, "draw_secret_make(%s): %s", path, why);
    struct stat st;
    KIT_ASSERT_MSG(stat(path, &st) == 0 && st.st_size == DRAW_KEY_BYTES && (st.st_mode & 0777) == 0600,
                   "%s: expected 32 bytes of mode 0600, got %lld bytes of mode %o", path, (long long)st.st_size,
                   (unsigned)(st.st_mode & 0777));
    KIT_ASSERT_MSG(draw_secret_load(path, a, why, sizeof why) == 0, "draw_secret_load(%s): %s", path, why);
    KIT_ASSERT_MSG(draw_secret_make(path, why, sizeof why) == -1 && strstr(why, "never overwritten"),
                   "a second draw_secret_make over %s: expected a refusal, got \"%s\"", path, why);
    KIT_ASSERT_MSG(draw_secret_load(path, b, why, sizeof why) == 0 && memcmp(a, b, sizeof a) == 0,
                   "the refused second make changed %s", path);
    KIT_ASSERT_MSG(draw_secret_make(other, why, sizeof why) == 0 && draw_secret_load(other, b, why, sizeof why) == 0 &&
                       memcmp(a, b, sizeof a) != 0,
                   "two secrets made one after the other are equal");
    chmod(other, 0640);
    KIT_ASSERT_MSG(draw_secret_load(other, b, why, sizeof why) == -1 && strstr(why, "chmod 600"),
                   "a secret of mode 0640: expected a refusal naming chmod 600, got \"%s\"", why);
    KIT_ASSERT_MSG(symlink(path, link) == 0 && draw_secret_load(link, b, why, sizeof why) == -1 &&
                       strstr(why, "symbolic link"),
                   "a link to a secret: expected a refusal, got \"%s\"", why);
    FILE *f = fopen(other, "w");
    fputs("short", f);
    fclose(f);
    chmod(other, 0600);
    KIT_ASSERT_MSG(draw_secret_load(other, b, why, sizeof why) == -1 && strstr(why, "is not a secret"),
                   "a file of 5 bytes: expected a refusal, got \"%s\"", why);
    unlink(path), unlink(other), unlink(link), rmdir(dir);
}

/* draw_secret_open: makes the secret once, then reads the same one; leaves no temporary file beside it. */
static void test_secret_open(void)
{
    char dir[64], path[128], why[400];
    unsigned char a[DRAW_KEY_BYTES], b[DRAW_KEY_BYTES];
    int made = -1;
    temp_dir(dir);
    snprintf(path, sizeof path, "%s/grader.secret", dir);
    KIT_ASSERT_MSG(draw_secret_open(path, a, &made, why, sizeof why) == 0 && made == 1,
                   "draw_secret_open of a missing %s: rc or made (%d) wrong: %s", path, made, why);
    KIT_ASSERT_MSG(draw_secret_open(path, b, &made, why, sizeof why) == 0 && made == 0 && memcmp(a, b, sizeof a) == 0,
                   "draw_secret_open a second time did not read the first secret (made %d): %s", made, why);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | wc -l) = 1", dir);
    KIT_ASSERT_MSG(system(cmd) == 0, "draw_secret_open left more than the secret in %s", dir);
    unlink(path), rmdir(dir);
}

/* What a draw depends on: each of the secret, the lab and one byte of the files changes the lab's key. */
static void test_lab_key_inputs(void)
{
    char dir[64], path[128];
    const char files[2][64] = {"a.cuh", "b.cuh"};
    unsigned char secret[DRAW_KEY_BYTES] = {1}, other[DRAW_KEY_BYTES] = {2}, f1[DRAW_KEY_BYTES], f2[DRAW_KEY_BYTES],
                  f3[DRAW_KEY_BYTES], f4[DRAW_KEY_BYTES], k[6][DRAW_KEY_BYTES];
    temp_dir(dir);
    snprintf(path, sizeof path, "%s/a.cuh", dir);
    FILE *f = fopen(path, "w");
    fputs("int x = 1;\n", f);
    fclose(f);
    draw_files_digest(dir, files, 2, f1); /* b.cuh missing */
    draw_files_digest(dir, files, 2, f2);
    f = fopen(path, "w");
    fputs("int x = 2;\n", f);
    fclose(f);
    draw_files_digest(dir, files, 2, f3);
    snprintf(path, sizeof path, "%s/b.cuh", dir);
    fclose(fopen(path, "w")); /* b.cuh empty, not missing */
    draw_files_digest(dir, files, 2, f4);
    KIT_ASSERT_MSG(memcmp(f1, f2, sizeof f1) == 0, "the same files gave two digests");
    KIT_ASSERT_MSG(memcmp(f1, f3, sizeof f1) != 0, "one byte changed, the digest did not");
    KIT_ASSERT_MSG(memcmp(f3, f4, sizeof f3) != 0, "a missing file and an empty one gave one digest");
    draw_lab_key(secret, "01-x", f1, k[0]);
    draw_lab_key(secret, "01-x", f2, k[1]);
    draw_lab_key(other, "01-x", f1, k[2]);
    draw_lab_key(secret, "02-x", f1, k[3]);
    draw_lab_key(secret, "01-x", f3, k[4]);
    KIT_ASSERT_MSG(memcmp(k[0], k[1], DRAW_KEY_BYTES) == 0, "the same secret, lab and files gave two keys");
    for (int i = 2; i < 5; i++)
        KIT_ASSERT_MSG(memcmp(k[0], k[i], DRAW_KEY_BYTES) != 0, "key %d (another secret, lab or files) is the same", i);
    unlink(path);
    snprintf(path, sizeof path, "%s/a.cuh", dir);
    unlink(path), rmdir(dir);
}

/* draw_below: within [0, n), every value of a small n met, the same stream for the same key and name. */
static void test_stream(void)
{
    unsigned char key[DRAW_KEY_BYTES] = {7};
    draw_stream s, t;
    draw_stream_init(&s, key, "line");
    draw_stream_init(&t, key, "line");
    int seen[5] = {0};
    for (int i = 0; i < 500; i++) {
        uint64_t v = draw_below(&s, 5);
        KIT_ASSERT_MSG(v < 5 && v == draw_below(&t, 5), "draw %d: %llu, out of [0, 5) or not the same again", i,
                       (unsigned long long)v);
        seen[v < 5 ? v : 0]++;
    }
    for (int v = 0; v < 5; v++)
        KIT_ASSERT_MSG(seen[v] > 50, "value %d drawn %d times in 500 (expected about 100)", v, seen[v]);
    draw_stream_init(&t, key, "other line");
    draw_stream_init(&s, key, "line");
    KIT_ASSERT_MSG(draw_u64(&s) != draw_u64(&t), "two lines' streams begin alike");
    KIT_ASSERT_MSG(draw_below(&s, 1) == 0, "draw_below(1) is not 0");
}

/* ---- draw lines ---------------------------------------------------------------------------------- */

static const char *PUBLIC =
    "lab 01-x\nfile x.cuh\ntask merge 6 the merge\ntask stable 4 stability\n"
    "test merge public t1 op=merge m=5 n=7\ntest stable public t2 op=merge type=kv32 m=1 n=2\n";

/* Parses PUBLIC, then `hidden` as the hidden spec, into `lab`; returns spec_parse's result with err. */
static int parse_pair(const char *hidden, char *err, size_t len)
{
    memset(&lab, 0, sizeof lab);
    err[0] = '\0';
    FILE *f = tmpfile();
    fputs(PUBLIC, f);
    rewind(f);
    int rc = spec_parse(f, "p.spec", 0, &lab, err, len);
    fclose(f);
    if (rc != 0)
        return rc;
    f = tmpfile();
    fputs(hidden, f);
    rewind(f);
    rc = spec_parse(f, "t.spec", 1, &lab, err, len);
    fclose(f);
    return rc;
}

/* A hidden spec of "lab 01-x" and the one line `line` (line 2) must be refused with `want` at t.spec:2. */
static void expect_bad_draw(const char *line, const char *want)
{
    char text[1400], err[400];
    snprintf(text, sizeof text, "lab 01-x\n%s\n", line);
    int rc = parse_pair(text, err, sizeof err);
    KIT_ASSERT_MSG(rc == -1, "accepted a bad line: %s", line);
    KIT_ASSERT_MSG(strncmp(err, "t.spec:2: ", 10) == 0 && strstr(err, want) != NULL,
                   "for '%s' expected \"t.spec:2: ...%s...\", got \"%s\"", line, want, err);
}

static void test_draw_bad_lines(void)
{
    expect_bad_draw("draw merge", "draw needs: TASK NAME COUNT");
    expect_bad_draw("draw nosuch d 3 op=merge", "undeclared task");
    expect_bad_draw("draw merge ../d 3 op=merge", "must be plain");
    expect_bad_draw("draw merge d 0 op=merge", "COUNT must lie in 1 .. 64");
    expect_bad_draw("draw merge d 65 op=merge", "COUNT must lie in 1 .. 64");
    expect_bad_draw("draw merge d 2 op=merge type={i32,f32}", "type must be");
    expect_bad_draw("draw merge d 2 op=merge m=[5..3]", "LO <= HI");
    expect_bad_draw("draw merge d 2 op=merge m=[5..x]", "whole numbers");
    expect_bad_draw("draw merge d 2 op=merge m=[5..7", "a range reads [LO..HI]");
    expect_bad_draw("draw merge d 2 op=merge m={1,2", "a choice reads {V1,V2,...}");
    expect_bad_draw("draw merge d 2 op=merge m={1,{2}}", "each a value or a range");
    expect_bad_draw("draw merge d 2 op=merge m=1 m=2", "a key given twice");
    expect_bad_draw("draw merge d 2 op=merge u=[1..2000] blocks=1", "must lie in 1 .. 1024");
    expect_bad_draw("draw merge d 2 op=merge blocks=1 u=32 conflicts<={1,2}", "take one value on a draw line");
    expect_bad_draw("draw merge d 2 op=merge color=red", "unknown test option");
    expect_bad_draw("draw merge d 2 op=merge every=type type={i32,i64,kv32}",
                    "every= asks for 3 combinations, more than the line's 2 tests");
    expect_bad_draw("draw merge d 5 op=merge every=gen type={i32,i64}", "every= names gen, which the line does not draw");
    expect_bad_draw("draw merge d 2 op=pbs m=5 n=5 blocks=1 u=[1..31] alg=cf",
                    "no test d-1 drawn in 1000 tries keeps the rules (the last: op=pbs needs");
    expect_bad_draw("draw merge d 2 op=pbs m=5 n=5 blocks=1 u=32 alg=pbs loads>=reads",
                    "reads goes with op=pbs and alg cf or cl");
    expect_bad_draw("draw merge d 2 op=merge blocks=1 u=32 loads>=2*nosuch", "a formula bound reads F*BASE");
    expect_bad_draw("draw merge d 2 op=merge blocks=1 u=32 loads>=0*ref", "F a decimal from 0.001 to 1000");
    expect_bad_draw("draw merge d 2 op=merge blocks=1 u=32 global_loads<=2*share", "share bounds global stores");
    expect_bad_draw("draw merge d 2 op=merge blocks=1 u=32 loads>=ref loads>=2", "one bound a side");
    char longline[1200];
    snprintf(longline, sizeof longline, "draw merge d 2 op=merge m={%0*d}", 1100, 0);
    expect_bad_draw(longline, "line too long");
    /* a draw's names and a test's cannot meet, in either order; and draw lines are for hidden specs */
    char err[400];
    KIT_ASSERT_MSG(parse_pair("lab 01-x\ntest merge hidden d-2 op=merge\ndraw merge d 3 op=merge\n", err, sizeof err) == -1 &&
                       strstr(err, "t.spec:3: duplicate test name"),
                   "a draw over a test's name: got \"%s\"", err);
    KIT_ASSERT_MSG(parse_pair("lab 01-x\ndraw merge d 3 op=merge\ntest merge hidden d-3 op=merge\n", err, sizeof err) == -1 &&
                       strstr(err, "t.spec:3: duplicate test name"),
                   "a test over a draw's name: got \"%s\"", err);
    memset(&lab, 0, sizeof lab);
    FILE *f = tmpfile();
    fprintf(f, "%sdraw merge d 3 op=merge\n", PUBLIC);
    rewind(f);
    int rc = spec_parse(f, "p.spec", 0, &lab, err, sizeof err);
    fclose(f);
    KIT_ASSERT_MSG(rc == -1 && strstr(err, "p.spec:7: draw lines belong in grader/hidden/"),
                   "a draw line in a public spec: got \"%s\"", err);
}

static const char *DRAWS =
    "lab 01-x\n"
    "draw merge d 8 every=type,gen op=merge type={i32,i64} gen={equal,duplicates} m={0,[10..20],[1000..2000]} "
    "n=[5..6] blocks={1,[2..3]} u=[1..64] tile={16,32}\n"
    "draw stable s 3 op=merge type=kv32 m=7 n={1,2} seed=5\n"
    "draw stable p 20 op=pbs m=[1..10] n=5 blocks=1 u=[1..64] alg=cf conflicts==0 loads==reads kernel=pbs_kernel\n";

/* A draw line's tests: named NAME-1 .. NAME-COUNT, hidden, their keys within the line's choices. */
static void test_draw_good_lines(void)
{
    char err[400];
    unsigned char key[DRAW_KEY_BYTES] = {3};
    int rc = parse_pair(DRAWS, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && lab.ndraws == 3 && lab.ntests == 2, "good draw lines refused: %s (%d draws)", err,
                   lab.ndraws);
    KIT_ASSERT_MSG(spec_draw_tests(&lab, key, err, sizeof err) == 0 && lab.ntests == 2 + 8 + 3 + 20,
                   "drawing: %s, %d tests", err, lab.ntests);
    KIT_ASSERT_MSG(spec_draw_tests(&lab, key, err, sizeof err) == -1, "a spec was drawn twice");
    int combos[2][2] = {{0}};
    for (int x = 2; x < lab.ntests; x++) {
        const spec_test *t = &lab.tests[x];
        char want[32];
        int i = x < 10 ? x - 1 : x < 13 ? x - 9 : x - 12;
        snprintf(want, sizeof want, "%s-%d", x < 10 ? "d" : x < 13 ? "s" : "p", i);
        KIT_ASSERT_MSG(strcmp(t->name, want) == 0 && t->hidden, "test %d: expected hidden %s, got %s (hidden %d)", x,
                       want, t->name, t->hidden);
        if (x < 10) {
            KIT_ASSERT_MSG(t->task == 0 && (t->m == 0 || (t->m >= 10 && t->m <= 20) || (t->m >= 1000 && t->m <= 2000)) &&
                               (t->n == 5 || t->n == 6) && t->blocks >= 1 && t->blocks <= 3 && t->u >= 1 && t->u <= 64 &&
                               (t->tile == 16 || t->tile == 32),
                           "%s: a key outside its choice (m %lld, n %lld, blocks %d, u %d, tile %d)", t->name, t->m, t->n,
                           t->blocks, t->u, t->tile);
            if (x < 6) /* every=type,gen: the first 4 tests, each combination once */
                combos[t->type == KIT_TYPE_I64][t->gen == KIT_GEN_DUPLICATES]++;
        } else if (x < 13) {
            KIT_ASSERT_MSG(t->task == 1 && t->type == KIT_TYPE_KV32 && t->m == 7 && t->seed == 5,
                           "%s: the fixed keys not as written", t->name);
        } else {
            /* every drawn u is a multiple of 32 (op=pbs's rule): the others were drawn again */
            KIT_ASSERT_MSG((t->u == 32 || t->u == 64) && t->conflict_cmp == '=' && t->min_loads > 0 &&
                               t->min_loads == t->max_loads && strcmp(t->kernel, "pbs_kernel") == 0,
                           "%s: u %d (expected 32 or 64), or its bounds not computed (loads %lld..%lld)", t->name, t->u,
                           t->min_loads, t->max_loads);
        }
    }
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            KIT_ASSERT_MSG(combos[a][b] == 1, "every=type,gen: combination (%s, %s) drawn %d times in tests d-1..d-4",
                           a ? "i64" : "i32", b ? "duplicates" : "equal", combos[a][b]);
}

/* The same key draws the same tests; another key, other ones (the seeds at least). */
static void test_draw_deterministic(void)
{
    static spec_lab first;
    char err[400];
    unsigned char key[DRAW_KEY_BYTES] = {9}, other[DRAW_KEY_BYTES] = {10};
    parse_pair(DRAWS, err, sizeof err);
    spec_draw_tests(&lab, key, err, sizeof err);
    first = lab;
    parse_pair(DRAWS, err, sizeof err);
    spec_draw_tests(&lab, key, err, sizeof err);
    KIT_ASSERT_MSG(lab.ntests == first.ntests &&
                       memcmp(lab.tests, first.tests, sizeof lab.tests[0] * (size_t)lab.ntests) == 0,
                   "one key drew two sets of tests");
    parse_pair(DRAWS, err, sizeof err);
    spec_draw_tests(&lab, other, err, sizeof err);
    int same = 0;
    for (int x = 2; x < lab.ntests; x++)
        same += lab.tests[x].seed == first.tests[x].seed;
    KIT_ASSERT_MSG(same == 3, "another key drew %d tests with the same seed (expected only the 3 of seed=5)", same);
}

/* ---- formula and ref bounds ---------------------------------------------------------------------- */

/* Parses PUBLIC plus `line` as a public spec into `lab`: spec_parse's result, with err. */
static int parse_public_with(const char *line, char *err, size_t len)
{
    char text[1400];
    snprintf(text, sizeof text, "%s%s\n", PUBLIC, line);
    memset(&lab, 0, sizeof lab);
    FILE *f = tmpfile();
    fputs(text, f);
    rewind(f);
    int rc = spec_parse(f, "p.spec", 0, &lab, err, len);
    fclose(f);
    return rc;
}

/* The test of a public line that must be taken (lab.tests[2]). */
static const spec_test *one_test(const char *line)
{
    char err[400] = "";
    int rc = parse_public_with(line, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && lab.ntests == 3, "refused: %s\n  %s", err, line);
    return &lab.tests[2];
}

/* A public test line that must be refused with `want`. */
static void expect_bad_test(const char *line, const char *want)
{
    char err[400] = "";
    int rc = parse_public_with(line, err, sizeof err);
    KIT_ASSERT_MSG(rc == -1 && strstr(err, want), "for '%s' expected an error with '%s', got \"%s\"", line, want, err);
}

/* The bases computed from a test's keys, against the counts the kit's specs give in numbers. */
static void test_formula_bounds(void)
{
    /* lab 6's cl-bounded: 64 warp-queries, 13 reads each (log2 J = 8, window, 5): 26 * 64 and 0.75 * 832 */
    const spec_test *t = one_test("test merge public a op=pbs m=4096 n=2048 queries=range alg=cl blocks=1 u=256 "
                                  "conflicts<=26*warpq loads>=0.75*reads loads<=1.25*reads kernel=pbs_kernel");
    KIT_ASSERT_MSG(t->conflict_cmp == '<' && t->conflicts == 1664 && t->min_loads == 624 && t->max_loads == 1040,
                   "cl-bounded: conflicts %lld (1664), loads %lld..%lld (624..1040)", t->conflicts, t->min_loads,
                   t->max_loads);
    /* cf-conflict-free-i64: K = 1000, J = 64, 38 reads a warp-query; the simulator counted exactly reads */
    t = one_test("test merge public a op=pbs type=i64 m=1000 n=2048 alg=cf blocks=1 u=256 conflicts<=0 loads==reads");
    KIT_ASSERT_MSG(t->min_loads == 2432 && t->max_loads == 2432, "cf, K = 1000: loads %lld..%lld, expected 2432",
                   t->min_loads, t->max_loads);
    /* partial rounds: 3001 queries on 2 x 160 threads are 94 warp-queries; 99 reads for K = 1 (J = 2) */
    t = one_test("test merge public a op=pbs m=5000 n=3001 alg=cl blocks=2 u=160 conflicts<=warpq");
    KIT_ASSERT_MSG(t->conflicts == 94, "warpq of 3001 queries on 2 x 160: %lld, expected 94", t->conflicts);
    t = one_test("test merge public a op=pbs m=1 n=77 alg=cf blocks=3 u=64 loads>=reads");
    KIT_ASSERT_MSG(t->min_loads == 99, "reads, K = 1, 77 queries on 3 x 64: %lld, expected 99", t->min_loads);
    /* lab 8: the theorem in conflicts, as the public and the old hidden tests had them */
    const int E[] = {17, 7, 16, 30, 29}, want[] = {269, 40, 238, 504, 485};
    for (int i = 0; i < 5; i++) {
        char line[200];
        snprintf(line, sizeof line, "test merge public a op=worst w=32 E=%d part=both conflicts>=theorem", E[i]);
        t = one_test(line);
        KIT_ASSERT_MSG(t->conflict_cmp == '>' && t->conflicts == want[i], "w = 32, E = %d: theorem %lld, expected %d",
                       E[i], t->conflicts, want[i]);
    }
    /* the gather probes: lab 7's E * warps, lab 9's times log2(u) rounds; gpu_slack 3 a round */
    t = one_test("test merge public a op=merge m=3000 n=3001 blocks=4 u=128 E=16 conflicts<=2*probe_loads");
    KIT_ASSERT_MSG(t->conflicts == 128, "lab 7's probe, E = 16, u = 128: %lld, expected 2 * 64", t->conflicts);
    t = one_test("test merge public a op=sort type=kv32 m=1000 alg=cf u=128 E=12 conflicts<=2*probe_loads "
                 "gpu_slack=3*rounds");
    KIT_ASSERT_MSG(t->conflicts == 672 && t->gpu_slack == 21, "lab 9's probe, E = 12, u = 128: %lld (672), slack %lld (21)",
                   t->conflicts, t->gpu_slack);
    /* share, and fractional factors rounded toward the lenient side */
    t = one_test("test merge public a op=merge m=1000 n=777 blocks=3 u=96 tile=1 global_stores<=1.5*share");
    KIT_ASSERT_MSG(t->max_global_stores == 95, "1.5 * 63, rounded up: %lld, expected 95", t->max_global_stores);
    t = one_test("test merge public a op=pbs m=4096 n=2048 alg=cl blocks=1 u=256 loads>=0.333*reads");
    KIT_ASSERT_MSG(t->min_loads == 277, "0.333 * 832, rounded down: %lld, expected 277", t->min_loads);
    expect_bad_test("test merge public a op=merge m=5 n=5 blocks=1 u=32 loads>=warpq", "warpq goes with op=pbs");
    expect_bad_test("test merge public a op=merge m=5 n=5 blocks=1 u=32 tile=4 conflicts<=probe_loads",
                    "probe_loads goes with");
    expect_bad_test("test merge public a op=worst w=32 E=17 part=both conflicts<=theorem", "conflicts>=theorem");
    expect_bad_test("test merge public a op=merge m=5 n=5 blocks=1 u=32 gpu_slack=3*rounds conflicts<=1",
                    "gpu_slack=K*rounds goes with op=sort");
    expect_bad_test("test merge public a op=merge m=5 n=5 blocks=1 u=32 conflicts<=5 conflicts>=1", "one conflict threshold");
    expect_bad_test("test merge public a op=merge m=5 n=5 blocks=1 u=32 loads==7 loads<=9", "one bound a side");
    expect_bad_test("test merge public a op=merge m=5 n=5 blocks=1 u=32 loads=7", "COUNT<=N, COUNT==N or COUNT>=N");
    /* the rules of a launch beyond its keys */
    expect_bad_test("test merge public a op=merge type=kv32 m=5 n=5 blocks=1 u=32 tile=10000", "bytes of shared memory");
    expect_bad_test("test merge public a op=merge m=10 n=10 blocks=1 u=32 E=4 conflicts==0", "m + n >= u * E");
}

/* F*ref: left for the reference's counts, which spec_apply_ref() turns into numbers. */
static void test_ref_bounds(void)
{
    spec_test t = *one_test("test merge public a op=merge m=9 n=9 blocks=2 u=40 tile=4 conflicts<=1.25*ref "
                            "tolerance=10% loads>=0.25*ref loads<=4*ref shared_stores>=0.25*ref global_loads<=2*ref "
                            "global_stores<=2*ref");
    KIT_ASSERT_MSG(spec_test_needs_ref(&t) && spec_test_measured(&t) && spec_test_global(&t) && t.conflict_cmp == 0 &&
                       t.min_loads == 0 && t.max_global_stores == 0,
                   "before the reference ran: needs_ref %d, measured %d, global %d, or a bound already set",
                   spec_test_needs_ref(&t), spec_test_measured(&t), spec_test_global(&t));
    spec_counts ref = {{101, 1001, 40, 0, 7}};
    spec_apply_ref(&t, &ref);
    KIT_ASSERT_MSG(!spec_test_needs_ref(&t) && t.conflict_cmp == '<' && t.conflicts == 127 && t.tolerance_pct == 10,
                   "conflicts<=1.25*101: %c %lld, expected < 127 (rounded up), needs_ref %d", t.conflict_cmp, t.conflicts,
                   spec_test_needs_ref(&t));
    KIT_ASSERT_MSG(t.min_loads == 250 && t.max_loads == 4004 && t.min_shared_stores == 10,
                   "loads %lld..%lld (250..4004), shared stores >= %lld (10)", t.min_loads, t.max_loads,
                   t.min_shared_stores);
    KIT_ASSERT_MSG(t.max_global_loads == 1 && t.max_global_stores == 14,
                   "global loads <= 2 * 0: %lld (1: 0 means none), global stores <= %lld (14)", t.max_global_loads,
                   t.max_global_stores);
    expect_bad_test("test merge public a op=worst w=32 E=17 part=both conflicts>=ref", "not access bounds or ref");
}

/* ---- the kit's hidden specs ---------------------------------------------------------------------- */

/* What each task's draws must cover: its key types, its variants (pbs and sort alg, worst part), measured or not. */
static const struct coverage {
    const char *lab, *task;
    int types;    /* bit per kit_type: 1 << KIT_TYPE_I32 ... (0 for op=worst, which has no keys) */
    int variants; /* bit per alg (op=pbs: 1 cf, 2 cl; op=sort: 1 cf, 3 baseline) or part (op=worst), 0 for none */
    int measured; /* each (type, variant) must be measured at least once */
} COVER[] = {
    {"01-sequential-merge", "merge", 1 << KIT_TYPE_I32 | 1 << KIT_TYPE_I64, 0, 0},
    {"01-sequential-merge", "stable", 1 << KIT_TYPE_KV32, 0, 0},
    {"02-co-rank", "co_rank", 1 << KIT_TYPE_I32 | 1 << KIT_TYPE_I64 | 1 << KIT_TYPE_KV32, 0, 0},
    {"02-co-rank", "bound", 1 << KIT_TYPE_I32 | 1 << KIT_TYPE_I64 | 1 << KIT_TYPE_KV32, 0, 0},
    {"03-basic-merge", "kernel", 1 << KIT_TYPE_I32 | 1 << KIT_TYPE_I64 | 1 << KIT_TYPE_KV32, 0, 1},
    {"04-tiled-merge", "kernel", 1 << KIT_TYPE_I32 | 1 << KIT_TYPE_I64 | 1 << KIT_TYPE_KV32, 0, 1},
    {"05-circular-merge", "kernel", 1 << KIT_TYPE_I32 | 1 << KIT_TYPE_I64 | 1 << KIT_TYPE_KV32, 0, 1},
    {"06-predecessor-search", "cf", 1 << KIT_TYPE_I32 | 1 << KIT_TYPE_I64, 1 << 1, 1},
    {"06-predecessor-search", "cl", 1 << KIT_TYPE_I32 | 1 << KIT_TYPE_I64, 1 << 2, 1},
    {"07-cf-gather", "gather", 1 << KIT_TYPE_I32 | 1 << KIT_TYPE_I64 | 1 << KIT_TYPE_KV32, 0, 1},
    {"08-worst-case", "warp", 0, 1 << 1, 1},
    {"08-worst-case", "order", 0, 1 << 2 | 1 << 3, 1},
    {"09-merge-sort", "baseline", 1 << KIT_TYPE_I32 | 1 << KIT_TYPE_KV32, 1 << 3, 0},
    {"09-merge-sort", "cf", 1 << KIT_TYPE_I32 | 1 << KIT_TYPE_KV32, 1 << 1, 1},
};

/* Reads the kit's public and hidden spec of the lab into `lab`; returns 0, or -1 after a failed assertion. */
static int read_kit_lab(const char *name)
{
    char path[256], err[400] = "";
    memset(&lab, 0, sizeof lab);
    for (int hidden = 0; hidden < 2; hidden++) {
        snprintf(path, sizeof path, hidden ? "grader/hidden/%s.spec" : "labs/%s/grading.spec", name);
        FILE *f = fopen(path, "r");
        int rc = f ? spec_parse(f, path, hidden, &lab, err, sizeof err) : -1;
        if (f)
            fclose(f);
        KIT_ASSERT_MSG(rc == 0, "%s: %s", path, f ? err : "missing");
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* The (type, variant) cell of a drawn test in a coverage row's table: type 0 where the row has none. */
static void cell_of(const struct coverage *want, const spec_test *t, int *type, int *variant)
{
    *type = want->types ? (int)t->type : 0;
    *variant = strcmp(t->op, "worst") == 0 ? t->part : want->variants ? t->alg : 0;
}

/*
 * Every lab's hidden tests are drawn (no fixed ones), and with any key every (task, key type,
 * variant) is drawn, and measured where the task is: four keys, each drawn afresh.
 */
static void test_kit_coverage(void)
{
    for (size_t c = 0; c < sizeof COVER / sizeof COVER[0]; c++) {
        const struct coverage *want = &COVER[c];
        for (int k = 0; k < 4; k++) {
            unsigned char key[DRAW_KEY_BYTES] = {(unsigned char)(k * 37 + 1), (unsigned char)c};
            char err[400] = "";
            if (read_kit_lab(want->lab) != 0)
                return;
            int fixed = lab.ntests, task = spec_find_task(&lab, want->task);
            for (int x = 0; x < fixed; x++)
                KIT_ASSERT_MSG(!lab.tests[x].hidden, "%s: hidden test %s is fixed, not drawn", want->lab,
                               lab.tests[x].name);
            KIT_ASSERT_MSG(task >= 0 && lab.ndraws > 0 && spec_draw_tests(&lab, key, err, sizeof err) == 0,
                           "%s: no task %s, no draw lines, or drawing failed: %s", want->lab, want->task, err);
            int seen[4][8] = {{0}}; /* [type][variant]: 1 drawn, 2 drawn and measured */
            for (int x = fixed; x < lab.ntests; x++) {
                const spec_test *t = &lab.tests[x];
                int type, variant;
                cell_of(want, t, &type, &variant);
                if (t->task != task)
                    continue;
                KIT_ASSERT_MSG(type >= 0 && type < 4 && variant >= 0 && variant < 8 &&
                                   (want->types ? want->types >> type & 1 : 1) &&
                                   (want->variants ? want->variants >> variant & 1 : variant == 0),
                               "%s task %s: %s has a key type or variant the task does not name (%d, %d)", want->lab,
                               want->task, t->name, type, variant);
                if (type >= 0 && type < 4 && variant >= 0 && variant < 8 && seen[type][variant] < 2)
                    seen[type][variant] = spec_test_measured(t) ? 2 : 1;
            }
            for (int type = 0; type < 4; type++)
                for (int variant = 0; variant < 8; variant++) {
                    int named = (want->types ? want->types >> type & 1 : type == 0) &&
                                (want->variants ? want->variants >> variant & 1 : variant == 0);
                    KIT_ASSERT_MSG(!named || seen[type][variant] >= (want->measured ? 2 : 1),
                                   "%s task %s, key %d: type %s, variant %d %s", want->lab, want->task, k,
                                   want->types ? kit_type_name((kit_type)type) : "-", variant,
                                   seen[type][variant] ? "drawn but never measured" : "never drawn");
                }
        }
    }
}

static void register_tests(void)
{
    CU_pSuite hash = kit_test_suite("the keyed hash");
    kit_test_add(hash, "SHA-256: FIPS 180-4's vectors, whole and in pieces", test_sha256_vectors);
    kit_test_add(hash, "HMAC-SHA-256: RFC 4231's vectors, one part or two", test_hmac_vectors);
    kit_test_add(hash, "draw_below: in range, every value, the same again", test_stream);
    CU_pSuite secret = kit_test_suite("the course secret");
    kit_test_add(secret, "made 0600, never overwritten, refused when it is no secret", test_secret_files);
    kit_test_add(secret, "draw_secret_open: made once, then read", test_secret_open);
    kit_test_add(secret, "the lab's key: the secret, the lab and every byte of the files", test_lab_key_inputs);
    CU_pSuite lines = kit_test_suite("draw lines");
    kit_test_add(lines, "bad lines refused, one message each with file:line", test_draw_bad_lines);
    kit_test_add(lines, "good lines: names, choices, every=, rules kept by drawing again", test_draw_good_lines);
    kit_test_add(lines, "the same key draws the same tests, another key others", test_draw_deterministic);
    CU_pSuite bounds = kit_test_suite("formula and ref bounds");
    kit_test_add(bounds, "share, warpq, reads, probe_loads, theorem, rounds against known counts", test_formula_bounds);
    kit_test_add(bounds, "F*ref: measured, then made numbers by spec_apply_ref", test_ref_bounds);
    CU_pSuite kit = kit_test_suite("the kit's hidden specs");
    kit_test_add(kit, "every (task, key type, variant) drawn, and measured where the task is", test_kit_coverage);
    if (access("grader/hidden", F_OK) != 0)
        kit_test_skip_suite(kit, "no grader/hidden/ here (the student's kit has no hidden tests)");
}

int main(void)
{
    return kit_test_main("draw tests", register_tests);
}
