/*
 * Tests of the visualizer: the built-in figures hold the papers' cells (tables
 * copied from the papers below), their counts are the ones worked out by hand,
 * and bankviz draws exactly the committed golden text and SVG files.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kit_test.h"
#include "kit_viz.h"

#define BANKVIZ "build/tools/bankviz"

/* SPAA 2025 Fig. 2 (w = 12, E = 5): thread ids by bank (rows) and column. */
static const int FIG2[12][5] = {{0, 5, 10, 8, 4}, {0, 5, 10, 8, 4}, {1, 5, 10, 8, 4}, {1, 6, 10, 8, 3},
                                {1, 6, 11, 7, 3}, {1, 6, 11, 7, 2}, {2, 7, 11, 7, 2}, {2, 7, 11, 6, 2},
                                {3, 9, 11, 6, 1}, {3, 9, 10, 5, 0}, {3, 9, 9, 5, 0},  {4, 9, 8, 4, 0}};
/* SPAA 2025 Fig. 3 (w = 9, E = 6, d = 3). */
static const int FIG3[9][6] = {{0, 3, 5, 8, 0, 3}, {0, 3, 6, 7, 0, 2}, {0, 3, 6, 7, 5, 2},
                               {0, 4, 7, 7, 4, 2}, {1, 5, 8, 7, 4, 2}, {1, 5, 8, 7, 4, 2},
                               {1, 5, 8, 6, 4, 1}, {2, 6, 8, 6, 4, 1}, {3, 6, 8, 5, 3, 1}};

/* Builds a figure's grid at a step; returns 0 with fig and g filled. */
static int figure_grid(const char *name, long step, kit_viz_figure *fig, kit_viz_grid *g)
{
    char err[200] = "";
    if (kit_viz_figure_make(name, fig, err, sizeof err) != 0 ||
        kit_viz_grid_build(&fig->view, step, fig->acc, fig->n, g, err, sizeof err) != 0) {
        kit_test_fail(__FILE__, __LINE__, "figure %s, step %ld: %s", name, step, err);
        return -1;
    }
    return 0;
}

static void check_cells(const char *name, unsigned w, unsigned cols, const int *want)
{
    kit_viz_figure fig;
    kit_viz_grid g;
    if (figure_grid(name, 0, &fig, &g) != 0)
        return;
    KIT_ASSERT_MSG(g.w == w && g.cols == cols, "%s: %u banks x %u columns, expected %u x %u", name, g.w, g.cols, w, cols);
    int bad = 0;
    for (unsigned b = 0; b < w && !bad && g.cols == cols; b++)
        for (unsigned c = 0; c < cols && !bad; c++) {
            const kit_viz_cell *cell = kit_viz_cell_at(&g, b, c);
            if (!cell || cell->thread != want[b * cols + c]) {
                kit_test_fail(__FILE__, __LINE__, "%s: bank %u column %u shows %d, the paper %d", name, b, c,
                              cell ? cell->thread : -99, want[b * cols + c]);
                bad = 1;
            }
        }
    kit_viz_grid_free(&g);
    kit_viz_figure_free(&fig);
}

static void test_fig2_cells(void)
{
    check_cells("001-fig2", 12, 5, &FIG2[0][0]);
}

static void test_fig3_cells(void)
{
    check_cells("001-fig3", 9, 6, &FIG3[0][0]);
}

/* Every round of the CF gather is conflict free and reads one word per thread. */
static void check_rounds(const char *name, long rounds, unsigned w)
{
    for (long r = 0; r < rounds; r++) {
        kit_viz_figure fig;
        kit_viz_grid g;
        if (figure_grid(name, r, &fig, &g) != 0)
            return;
        unsigned lit = 0;
        for (size_t i = 0; i < (size_t)g.cols * g.w; i++)
            lit += g.cell[i].highlight;
        KIT_ASSERT_MSG(g.load.cost == 1 && g.load.conflicts == 0 && lit == w,
                       "%s round %ld: cost %llu, conflicts %llu, %u cells lit (expected 1, 0, %u)", name, r,
                       (unsigned long long)g.load.cost, (unsigned long long)g.load.conflicts, lit, w);
        kit_viz_grid_free(&g);
        kit_viz_figure_free(&fig);
    }
}

static void test_gather_rounds(void)
{
    check_rounds("001-fig2", 5, 12);
    check_rounds("001-fig3", 6, 9);
}

/* 001's Fig. 1: cells labelled by word; stride 5 is free, stride 6 costs 6 (5 conflicts). */
static void test_fig1_strides(void)
{
    kit_viz_figure fig;
    kit_viz_grid g;
    if (figure_grid("001-fig1-stride5", 0, &fig, &g) == 0) {
        KIT_ASSERT_MSG(g.cols == 5 && g.load.cost == 1 && g.load.conflicts == 0, "stride 5: %u columns, cost %llu",
                       g.cols, (unsigned long long)g.load.cost);
        const kit_viz_cell *c = kit_viz_cell_at(&g, 1, 2); /* bank 1, column 2: word 25 = 5 * 5, lit */
        KIT_ASSERT_MSG(c && c->word == 25 && c->highlight, "stride 5: bank 1 column 2 is word %u, lit %d",
                       c ? c->word : 0, c ? c->highlight : -1);
        kit_viz_grid_free(&g);
        kit_viz_figure_free(&fig);
    }
    if (figure_grid("001-fig1-stride6", 0, &fig, &g) == 0) {
        KIT_ASSERT_MSG(g.cols == 6 && g.load.cost == 6 && g.load.conflicts == 5, "stride 6: %u columns, cost %llu",
                       g.cols, (unsigned long long)g.load.cost);
        kit_viz_grid_free(&g);
        kit_viz_figure_free(&fig);
    }
}

/* 000's Fig. 1: thread t reads word 12t + j in step j; banks (12t + j) mod 16 repeat every 4 threads, so 4 banks
   get 4 distinct words each: cost 4 per step, 12 steps, 48 in the papers' count and 36 in the profiler's. */
static void test_sorted_fig1(void)
{
    kit_bank_count total = {0, 0, 0};
    for (long step = 0; step < 12; step++) {
        kit_viz_figure fig;
        kit_viz_grid g;
        if (figure_grid("000-fig1", step, &fig, &g) != 0)
            return;
        KIT_ASSERT_MSG(g.load.cost == 4, "step %ld costs %llu, expected 4", step, (unsigned long long)g.load.cost);
        total.cost += g.load.cost;
        total.conflicts += g.load.conflicts;
        const kit_viz_cell *c = kit_viz_cell_at(&g, 5, 7); /* word 7*16 + 5 = 117 = 12*9 + 9: thread 9 */
        KIT_ASSERT_MSG(c && c->thread == 9, "000-fig1: bank 5 column 7 shows %d, expected thread 9", c ? c->thread : -1);
        kit_viz_grid_free(&g);
        kit_viz_figure_free(&fig);
    }
    KIT_ASSERT_MSG(total.cost == 48 && total.conflicts == 36, "000-fig1: %llu and %llu over 12 steps, expected 48 and 36",
                   (unsigned long long)total.cost, (unsigned long long)total.conflicts);
}

/* Runs bankviz with the arguments; returns its exit status, with stdout and stderr in the buffers. */
static int bankviz(char *const argv[], char **out, char **err)
{
    FILE *o = tmpfile(), *e = tmpfile();
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fileno(o), 1);
        dup2(fileno(e), 2);
        execv(BANKVIZ, argv);
        _exit(127);
    }
    int status = -1;
    waitpid(pid, &status, 0);
    FILE *files[2] = {o, e};
    char **bufs[2] = {out, err};
    for (int i = 0; i < 2; i++) {
        long len = ftell(files[i]);
        rewind(files[i]);
        *bufs[i] = calloc((size_t)len + 1, 1);
        if (len > 0 && fread(*bufs[i], 1, (size_t)len, files[i]) != (size_t)len)
            (*bufs[i])[0] = '\0';
        fclose(files[i]);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *buf = calloc((size_t)len + 1, 1);
    if (fread(buf, 1, (size_t)len, f) != (size_t)len)
        buf[0] = '\0';
    fclose(f);
    return buf;
}

/* bankviz's drawing must equal the committed file, byte for byte. */
static void check_golden(const char *figure, int all, int svg, const char *path)
{
    char *argv[8];
    int argc = 0;
    argv[argc++] = (char *)BANKVIZ;
    argv[argc++] = (char *)"--figure";
    argv[argc++] = (char *)figure;
    if (all)
        argv[argc++] = (char *)"--all";
    if (svg) {
        argv[argc++] = (char *)"--format";
        argv[argc++] = (char *)"svg";
    }
    argv[argc] = NULL;
    char *out, *err, *want = read_file(path);
    int status = bankviz(argv, &out, &err);
    KIT_ASSERT_MSG(status == 0, "bankviz --figure %s exited %d: %s", figure, status, err);
    KIT_ASSERT_MSG(want != NULL, "%s is missing (make figures writes it)", path);
    if (want)
        KIT_ASSERT_MSG(strcmp(out, want) == 0, "bankviz's %s%s%s differs from %s (run make figures and review the diff)",
                       figure, all ? " --all" : "", svg ? " --format svg" : "", path);
    free(out);
    free(err);
    free(want);
}

static void test_goldens(void)
{
    const char *figs[] = {"001-fig1-stride5", "001-fig1-stride6", "001-fig2", "001-fig3", "000-fig1"};
    char path[256];
    for (size_t i = 0; i < sizeof figs / sizeof figs[0]; i++) {
        snprintf(path, sizeof path, "common/tests/golden/%s.txt", figs[i]);
        check_golden(figs[i], 0, 0, path);
        snprintf(path, sizeof path, "handouts/figures/%s.svg", figs[i]);
        check_golden(figs[i], 0, 1, path);
    }
    const char *gathers[] = {"001-fig2", "001-fig3"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "common/tests/golden/%s-all.txt", gathers[i]);
        check_golden(gathers[i], 1, 0, path);
        snprintf(path, sizeof path, "handouts/figures/%s-all.svg", gathers[i]);
        check_golden(gathers[i], 1, 1, path);
    }
}

/* A figure dumped as a trace and read back draws the same picture. */
static void test_dump_round_trip(void)
{
    char *out, *err;
    char *dump_argv[] = {(char *)BANKVIZ, (char *)"--figure", (char *)"001-fig2", (char *)"--dump-trace", NULL};
    int status = bankviz(dump_argv, &out, &err);
    KIT_ASSERT_MSG(status == 0 && strncmp(out, "# kit-trace 1", 13) == 0, "--dump-trace exited %d: %s", status, err);
    char path[] = "/tmp/kit-viz-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs(out, f);
    fclose(f);
    free(out);
    free(err);
    char *trace_argv[] = {(char *)BANKVIZ, (char *)"--trace", path, NULL};
    char *fig_argv[] = {(char *)BANKVIZ, (char *)"--figure", (char *)"001-fig2", NULL};
    char *a, *b, *e1, *e2;
    int s1 = bankviz(trace_argv, &a, &e1), s2 = bankviz(fig_argv, &b, &e2);
    KIT_ASSERT_MSG(s1 == 0 && s2 == 0 && strcmp(a, b) == 0, "the dumped trace draws differently (exit %d %d): %s", s1,
                   s2, e1);
    free(a);
    free(b);
    free(e1);
    free(e2);
    remove(path);
}

static void test_bad_input(void)
{
    char bad_trace[] = "/tmp/kit-viz-bad-XXXXXX";
    int fd = mkstemp(bad_trace);
    if (write(fd, "# kit-trace 1\n0 0 0 0 3 r\n", 26) != 26)
        CU_FAIL("could not write the bad trace");
    close(fd);
    char good_trace[] = "/tmp/kit-viz-good-XXXXXX";
    fd = mkstemp(good_trace);
    if (write(fd, "# kit-trace 1\n0 0 0 0 4 r\n", 26) != 26)
        CU_FAIL("could not write the good trace");
    close(fd);
    struct {
        const char *args[6];
        const char *want;
    } cases[] = {
        {{"--frobnicate", NULL}, "bankviz"},
        {{"--trace", NULL}, "--trace"},
        {{"--figure", "no-such-figure", NULL}, "no-such-figure"},
        {{"--trace", bad_trace, NULL}, "size 3"},
        {{"--trace", "/no/such/file", NULL}, "/no/such/file"},
        {{"--trace", good_trace, "--w", "0", NULL}, "1 .. 1024"},
        {{"--trace", good_trace, "--w", "2000", NULL}, "1 .. 1024"},
        {{"--figure", "001-fig2", "--step", "99", NULL}, "99"},
        {{"--trace", good_trace, "--block", "3", NULL}, "3"},
        {{"--figure", "001-fig2", "--w", "16", NULL}, "go with --trace"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *argv[8] = {(char *)BANKVIZ};
        int argc = 1;
        for (int a = 0; cases[i].args[a]; a++)
            argv[argc++] = (char *)cases[i].args[a];
        argv[argc] = NULL;
        char *out, *err;
        int status = bankviz(argv, &out, &err);
        KIT_ASSERT_MSG(status == 2 && strstr(err, cases[i].want) != NULL,
                       "bankviz %s %s: expected exit 2 and a message with '%s', got %d: %s", cases[i].args[0],
                       cases[i].args[1] ? cases[i].args[1] : "", cases[i].want, status, err);
        free(out);
        free(err);
    }
    remove(bad_trace);
    remove(good_trace);
    char *out, *err;
    char *list_argv[] = {(char *)BANKVIZ, (char *)"--list", NULL};
    int status = bankviz(list_argv, &out, &err);
    KIT_ASSERT_MSG(status == 0 && strstr(out, "001-fig2") && strstr(out, "000-fig1"), "--list exited %d: %s", status, out);
    free(out);
    free(err);
}

static void register_tests(void)
{
    CU_pSuite f = kit_test_suite("figures of the papers");
    kit_test_add(f, "SPAA 2025 Fig. 2 cells", test_fig2_cells);
    kit_test_add(f, "SPAA 2025 Fig. 3 cells", test_fig3_cells);
    kit_test_add(f, "every gather round is conflict free", test_gather_rounds);
    kit_test_add(f, "SPAA 2025 Fig. 1: strides 5 and 6", test_fig1_strides);
    kit_test_add(f, "IPDPS 2020 Fig. 1: 48 and 36", test_sorted_fig1);
    CU_pSuite t = kit_test_suite("bankviz");
    kit_test_add(t, "golden text and SVG files", test_goldens);
    kit_test_add(t, "a dumped trace draws the same", test_dump_round_trip);
    kit_test_add(t, "bad input: exit 2 with a message; --list", test_bad_input);
}

int main(void)
{
    return kit_test_main("viz tests", register_tests);
}
