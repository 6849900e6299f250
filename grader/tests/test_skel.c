/* Tests of skel_strip, the answer-region stripper that makes skeletons from solutions. */
#include <stdio.h>
#include <string.h>

#include "kit_test.h"
#include "skel.h"

/* Runs skel_strip on text; returns its result and leaves the output (or the error) in out. */
static int strip(const char *text, char *out, size_t len)
{
    FILE *in = tmpfile(), *o = tmpfile();
    fputs(text, in);
    rewind(in);
    char err[256] = "";
    int rc = skel_strip(in, o, "sol.cuh", err, sizeof err);
    rewind(o);
    size_t got = fread(out, 1, len - 1, o);
    out[got] = '\0';
    if (rc < 0)
        snprintf(out, len, "%s", err);
    fclose(in);
    fclose(o);
    return rc;
}

static void test_region_replaced(void)
{
    char out[1024];
    int rc = strip("int f(void)\n{\n    //@answer\n    return 42;\n    //@skeleton\n    //@ return 0;\n    //@end\n}\n",
                   out, sizeof out);
    KIT_ASSERT_MSG(rc == 1, "expected 1 region, got %d", rc);
    KIT_ASSERT_MSG(strcmp(out, "int f(void)\n{\n    return 0;\n}\n") == 0, "got:\n%s", out);
}

static void test_untouched_outside(void)
{
    char out[1024];
    const char *text = "// a comment with //@ inside is not a marker line\nint x;\n";
    int rc = strip(text, out, sizeof out);
    KIT_ASSERT_MSG(rc == 0 && strcmp(out, text) == 0, "rc %d, got:\n%s", rc, out);
}

static void test_prefix_and_blank_lines(void)
{
    char out[1024];
    int rc = strip("//@answer\nsecret();\n//@skeleton\n//@\n//@x\n  //@   indented;\n//@end\n", out, sizeof out);
    KIT_ASSERT_MSG(rc == 1, "rc %d", rc);
    /* "//@" alone gives an empty line; "//@x" keeps x; the blank after "//@" goes, further ones stay. */
    KIT_ASSERT_MSG(strcmp(out, "\nx\n    indented;\n") == 0, "got:\n[%s]", out);
    KIT_ASSERT_MSG(strstr(out, "secret") == NULL, "the answer leaked: %s", out);
}

static void test_two_regions(void)
{
    char out[1024];
    int rc = strip("//@answer\na\n//@skeleton\n//@ b\n//@end\nmid\n//@answer\nc\n//@skeleton\n//@ d\n//@end\n", out,
                   sizeof out);
    KIT_ASSERT_MSG(rc == 2 && strcmp(out, "b\nmid\nd\n") == 0, "rc %d, got:\n%s", rc, out);
}

static void expect_error(const char *text, const char *want)
{
    char out[1024];
    int rc = strip(text, out, sizeof out);
    KIT_ASSERT_MSG(rc == -1, "malformed input accepted (rc %d): %s", rc, text);
    KIT_ASSERT_MSG(strstr(out, want) != NULL, "error '%s' does not contain '%s'", out, want);
}

static void test_malformed(void)
{
    expect_error("//@answer\nx\n", "sol.cuh:1: answer region opened here is never closed");
    expect_error("//@skeleton\n", "sol.cuh:1: marker outside an answer region");
    expect_error("x\n//@end\n", "sol.cuh:2: marker outside an answer region");
    expect_error("//@answer\n//@end\n", "sol.cuh:2: answer region needs //@skeleton");
    expect_error("//@answer\n//@answer\n", "sol.cuh:2: answer region needs //@skeleton");
    expect_error("//@answer\n//@skeleton\nplain code\n//@end\n", "sol.cuh:3: skeleton line must start with //@");
    expect_error("//@answer\n//@skeleton\n//@answer\n", "sol.cuh:3: skeleton part needs //@end");
    expect_error("//@answr\n", "sol.cuh:1: unknown //@ marker");
}

static void test_long_line(void)
{
    static char text[6000];
    memset(text, 'a', sizeof text - 2);
    text[sizeof text - 2] = '\n';
    expect_error(text, "longer than");
}

static void register_tests(void)
{
    CU_pSuite s = kit_test_suite("skel_strip");
    kit_test_add(s, "one region replaced", test_region_replaced);
    kit_test_add(s, "text outside regions untouched", test_untouched_outside);
    kit_test_add(s, "prefix, indentation and empty lines", test_prefix_and_blank_lines);
    kit_test_add(s, "two regions", test_two_regions);
    kit_test_add(s, "malformed regions refused with line numbers", test_malformed);
    kit_test_add(s, "over-long line refused", test_long_line);
}

int main(void)
{
    return kit_test_main("skel tests", register_tests);
}
