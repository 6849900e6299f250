/* Unit tests of the figure drawer (common/tools/kit_viz.h) and its tools: bankviz's bank grids (the papers' figures cell for cell, golden files, refusals), and benchplot's line plots of sort_bench's logs (kit_sortlog.h). */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kit_test.h"
#include "tools/kit_sortlog.h"
#include "tools/kit_viz.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define GOLDEN_DIR "common/tests/golden"
#define FIGURE_DIR "handouts/figures"
#define BANKVIZ "build/tools/bankviz"
#define BENCHPLOT "build/tools/benchplot"

/* ---- the papers' figures, copied from the seed texts --------------------------- */

/* 001 (SPAA 2025) Fig. 2: thread ids, bank b in row b, w = 12, 5 columns. */
static const int fig2_cells[12][5] = {
    {0, 5, 10, 8, 4}, {0, 5, 10, 8, 4}, {1, 5, 10, 8, 4}, {1, 6, 10, 8, 3}, {1, 6, 11, 7, 3}, {1, 6, 11, 7, 2},
    {2, 7, 11, 7, 2}, {2, 7, 11, 6, 2}, {3, 9, 11, 6, 1}, {3, 9, 10, 5, 0}, {3, 9, 9, 5, 0},  {4, 9, 8, 4, 0},
};

/* 001 Fig. 3: w = 9, 6 columns. */
static const int fig3_cells[9][6] = {
    {0, 3, 5, 8, 0, 3}, {0, 3, 6, 7, 0, 2}, {0, 3, 6, 7, 5, 2}, {0, 4, 7, 7, 4, 2}, {1, 5, 8, 7, 4, 2},
    {1, 5, 8, 7, 4, 2}, {1, 5, 8, 6, 4, 1}, {2, 6, 8, 6, 4, 1}, {3, 6, 8, 5, 3, 1},
};

/* 000 (IPDPS 2020) Fig. 1: w = 16, 12 columns (A in 0-5, B in 6-11). */
static const int sorted_cells[16][12] = {
    {0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14},  {0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14},
    {0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14},  {0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14},
    {0, 1, 3, 4, 5, 7, 8, 9, 11, 12, 13, 15},  {0, 1, 3, 4, 5, 7, 8, 9, 11, 12, 13, 15},
    {0, 1, 3, 4, 5, 7, 8, 9, 11, 12, 13, 15},  {0, 1, 3, 4, 5, 7, 8, 9, 11, 12, 13, 15},
    {0, 2, 3, 4, 6, 7, 8, 10, 11, 12, 14, 15}, {0, 2, 3, 4, 6, 7, 8, 10, 11, 12, 14, 15},
    {0, 2, 3, 4, 6, 7, 8, 10, 11, 12, 14, 15}, {0, 2, 3, 4, 6, 7, 8, 10, 11, 12, 14, 15},
    {1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15}, {1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15},
    {1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15}, {1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15},
};

/* The figures whose every round is also drawn (and kept as golden files) side by side. */
static const char *const all_rounds[] = {"001-fig2", "001-fig3"};

/* ---- helpers -------------------------------------------------------------------- */

/* Reads a stream from its start into a malloc'ed, NUL-terminated string. */
static char *slurp(FILE *f)
{
    fflush(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    char *text = malloc((size_t)(size > 0 ? size : 0) + 1);
    if (!text) {
        perror("slurp");
        exit(2);
    }
    size_t got = size > 0 ? fread(text, 1, (size_t)size, f) : 0;
    text[got] = '\0';
    return text;
}

/* A whole file, or NULL if it cannot be read. */
static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = slurp(f);
    fclose(f);
    return text;
}

static FILE *temp_file(void)
{
    FILE *f = tmpfile();
    if (!f) {
        perror("tmpfile");
        exit(2);
    }
    return f;
}

/* Compares two texts; on a difference, fails naming the first differing line of each. */
static void expect_same_text(const char *want, const char *got, const char *what)
{
    if (strcmp(want, got) == 0) {
        KIT_ASSERT_MSG(1, "%s", what);
        return;
    }
    unsigned line = 1;
    const char *a = want, *b = got;
    while (*a && *a == *b) {
        if (*a == '\n') {
            line++;
            want = a + 1;
            got = b + 1;
        }
        a++, b++;
    }
    int wl = (int)strcspn(want, "\n"), gl = (int)strcspn(got, "\n");
    kit_test_fail(__FILE__, __LINE__, "%s: line %u differs: expected \"%.*s\", got \"%.*s\"", what, line,
                  wl > 150 ? 150 : wl, want, gl > 150 ? 150 : gl, got);
}

/* Builds a figure (failing the test if it cannot). */
static int make_figure(const char *name, kit_viz_figure *fig)
{
    char err[256] = "";
    int rc = kit_viz_figure_make(name, fig, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0, "figure %s: %s", name, err);
    return rc;
}

static int build(const kit_viz_view *v, long step, const kit_access *acc, size_t n, kit_viz_grid *g, const char *what)
{
    char err[512] = "";
    int rc = kit_viz_grid_build(v, step, acc, n, g, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0, "%s: kit_viz_grid_build refused: %s", what, err);
    return rc;
}

/*
 * Renders a figure (or a view and accesses) the way bankviz does: one grid at the
 * view's step, or with all set, one per step. Returns the text (malloc'ed) or NULL.
 */
static char *render(const kit_viz_view *v, const kit_access *acc, size_t n, int all, int svg)
{
    char err[512] = "";
    uint32_t *ords = NULL;
    size_t nords = 0;
    if (kit_viz_warp_steps(v, acc, n, &ords, &nords, err, sizeof err) != 0) {
        kit_test_fail(__FILE__, __LINE__, "kit_viz_warp_steps: %s", err);
        return NULL;
    }
    size_t ng = all ? nords : 1, built = 0;
    kit_viz_grid *g = calloc(ng, sizeof *g);
    char *text = NULL;
    if (!g)
        goto done;
    for (built = 0; built < ng; built++)
        if (build(v, all ? (long)ords[built] : v->step, acc, n, &g[built], "render") != 0)
            goto done;
    FILE *f = temp_file();
    int rc = svg ? kit_viz_render_svg(f, v, g, ng) : kit_viz_render_text(f, v, g, ng);
    KIT_ASSERT_MSG(rc == 0, "rendering failed with %d", rc);
    text = slurp(f);
    fclose(f);
done:
    for (size_t i = 0; i < built; i++)
        kit_viz_grid_free(&g[i]);
    free(g);
    free(ords);
    return text;
}

static char *render_figure(const char *name, int all, int svg)
{
    kit_viz_figure fig;
    if (make_figure(name, &fig) != 0)
        return NULL;
    char *text = render(&fig.view, fig.acc, fig.n, all, svg);
    kit_viz_figure_free(&fig);
    return text;
}

/* Counts the occurrences of needle in haystack. */
static size_t count_of(const char *haystack, const char *needle)
{
    size_t count = 0, len = strlen(needle);
    for (const char *p = strstr(haystack, needle); p; p = strstr(p + len, needle))
        count++;
    return count;
}

static void small_view(kit_viz_view *v, unsigned w)
{
    kit_viz_view_init(v);
    v->model.w = w;
}

/* ---- the figures, cell for cell --------------------------------------------------- */

/* Checks every cell's thread id against a table of rows (banks) by columns. */
static void expect_threads(const kit_viz_grid *g, const int *table, unsigned w, unsigned cols, const char *what)
{
    KIT_ASSERT_MSG(g->w == w && g->cols == cols && g->first_col == 0,
                   "%s: expected %u banks by %u columns from column 0, got %u by %u from %u", what, w, cols, g->w,
                   g->cols, g->first_col);
    if (g->w != w || g->cols != cols)
        return;
    unsigned bad = 0;
    for (unsigned b = 0; b < w; b++)
        for (unsigned c = 0; c < cols; c++) {
            const kit_viz_cell *cell = kit_viz_cell_at(g, b, c);
            int want = table[b * cols + c];
            if (!cell || cell->thread != want || cell->shared || cell->word != c * w + b) {
                if (bad++ < 3)
                    kit_test_fail(__FILE__, __LINE__, "%s: bank %u column %u: expected thread %d, got %d%s", what, b,
                                  c, want, cell ? cell->thread : -2, cell && cell->shared ? " (shared)" : "");
            }
        }
    KIT_ASSERT_MSG(bad == 0, "%s: %u cells differ from the paper", what, bad);
}

static void test_fig_gather_cells(void)
{
    static const struct {
        const char *name;
        const int *table;
        unsigned w, cols;
    } figs[] = {{"001-fig2", &fig2_cells[0][0], 12, 5},
                {"001-fig3", &fig3_cells[0][0], 9, 6},
                {"000-fig1", &sorted_cells[0][0], 16, 12}};
    for (size_t i = 0; i < ARRAY_LEN(figs); i++) {
        kit_viz_figure fig;
        kit_viz_grid g;
        if (make_figure(figs[i].name, &fig) != 0)
            continue;
        if (build(&fig.view, fig.view.step, fig.acc, fig.n, &g, figs[i].name) == 0) {
            expect_threads(&g, figs[i].table, figs[i].w, figs[i].cols, figs[i].name);
            kit_viz_grid_free(&g);
        }
        kit_viz_figure_free(&fig);
    }
}

static void test_fig_stride_cells(void)
{
    static const struct {
        const char *name;
        unsigned stride, cols;
        int conflicts;
    } figs[] = {{"001-fig1-stride5", 5, 5, 0}, {"001-fig1-stride6", 6, 6, 1}};
    for (size_t i = 0; i < ARRAY_LEN(figs); i++) {
        kit_viz_figure fig;
        kit_viz_grid g;
        if (make_figure(figs[i].name, &fig) != 0)
            continue;
        KIT_ASSERT_MSG(fig.view.label == KIT_VIZ_LABEL_WORD && fig.view.model.w == 12,
                       "%s: expected word labels and w = 12", figs[i].name);
        if (build(&fig.view, fig.view.step, fig.acc, fig.n, &g, figs[i].name) == 0) {
            KIT_ASSERT_MSG(g.cols == figs[i].cols && g.w == 12, "%s: expected 12 x %u cells (0 .. %u), got %u x %u",
                           figs[i].name, figs[i].cols, 12 * figs[i].cols - 1, g.w, g.cols);
            for (uint32_t c = 0; c < g.cols && g.cols == figs[i].cols; c++)
                for (unsigned b = 0; b < 12; b++) {
                    const kit_viz_cell *cell = kit_viz_cell_at(&g, b, c);
                    unsigned word = c * 12 + b;
                    int read = word % figs[i].stride == 0 && word / figs[i].stride < 12;
                    KIT_ASSERT_MSG(cell->word == word, "%s: bank %u column %u should be word %u, is %u", figs[i].name,
                                   b, c, word, cell->word);
                    KIT_ASSERT_MSG(cell->highlight == read, "%s: word %u highlight: expected %d, got %d",
                                   figs[i].name, word, read, cell->highlight);
                    KIT_ASSERT_MSG(cell->conflict == (read && figs[i].conflicts),
                                   "%s: word %u conflict: expected %d, got %d", figs[i].name, word,
                                   read && figs[i].conflicts, cell->conflict);
                    if (read)
                        KIT_ASSERT_MSG(cell->thread == (int)(word / figs[i].stride),
                                       "%s: word %u should be read by thread %u, got %d", figs[i].name, word,
                                       word / figs[i].stride, cell->thread);
                }
            kit_viz_grid_free(&g);
        }
        kit_viz_figure_free(&fig);
    }
}

/* Where 001 Fig. 3 puts the element first placed at k: partition l = k / 18 rotated right by l. */
static unsigned fig3_moved(unsigned k)
{
    unsigned l = k / 18;
    return l * 18 + (k % 18 + l) % 18;
}

static void test_fig_gather_rounds(void)
{
    static const struct {
        const char *name;
        unsigned w, E, a_total;
    } figs[] = {{"001-fig2", 12, 5, 33}, {"001-fig3", 9, 6, 27}};
    for (size_t i = 0; i < ARRAY_LEN(figs); i++) {
        kit_viz_figure fig;
        if (make_figure(figs[i].name, &fig) != 0)
            continue;
        unsigned w = figs[i].w, E = figs[i].E;
        KIT_ASSERT_MSG(fig.view.rounds && fig.view.step == 0, "%s: expected rounds, round 0 by default", figs[i].name);
        for (unsigned j = 0; j < E; j++) {
            kit_viz_grid g;
            if (build(&fig.view, j, fig.acc, fig.n, &g, figs[i].name) != 0)
                break;
            unsigned per_bank[12] = {0}, lit = 0;
            for (unsigned k = 0; k < w * E; k++) {
                unsigned at = w == 9 ? fig3_moved(k) : k; /* fig. 2 has no rotation */
                const kit_viz_cell *cell = kit_viz_cell_at(&g, at % w, at / w);
                int want = k % E == j;
                KIT_ASSERT_MSG(cell && cell->highlight == want, "%s round %u: element first at %u (cell %u): "
                               "highlight expected %d", figs[i].name, j, k, at, want);
                KIT_ASSERT_MSG(cell && !cell->conflict, "%s round %u: cell %u marked as a conflict", figs[i].name, j,
                               at);
                kit_viz_cat cat = k < figs[i].a_total ? KIT_VIZ_CAT_A : KIT_VIZ_CAT_B;
                KIT_ASSERT_MSG(cell && cell->cat == cat, "%s: element first at %u should be %s", figs[i].name, k,
                               cat == KIT_VIZ_CAT_A ? "A" : "B");
                if (cell && cell->highlight) {
                    per_bank[at % w]++;
                    lit++;
                }
            }
            KIT_ASSERT_MSG(lit == w, "%s round %u: expected %u cells read, got %u", figs[i].name, j, w, lit);
            for (unsigned b = 0; b < w; b++)
                KIT_ASSERT_MSG(per_bank[b] == 1, "%s round %u: bank %u serves %u words", figs[i].name, j, b,
                               per_bank[b]);
            KIT_ASSERT_MSG(g.load.steps == 1 && g.load.cost == 1 && g.load.conflicts == 0,
                           "%s round %u: simulator says cost %llu, %llu conflicts", figs[i].name, j,
                           (unsigned long long)g.load.cost, (unsigned long long)g.load.conflicts);
            kit_viz_grid_free(&g);
        }
        kit_viz_figure_free(&fig);
    }
}

static void test_fig_sorted_categories(void)
{
    kit_viz_figure fig;
    kit_viz_grid g;
    if (make_figure("000-fig1", &fig) != 0)
        return;
    KIT_ASSERT_MSG(fig.view.step == KIT_VIZ_NO_STEP, "000-fig1 should highlight no step by default");
    if (build(&fig.view, fig.view.step, fig.acc, fig.n, &g, "000-fig1") == 0) {
        unsigned count[KIT_VIZ_CAT_COUNT] = {0};
        for (unsigned k = 0; k < 192; k++) {
            const kit_viz_cell *cell = kit_viz_cell_at(&g, k % 16, k / 16);
            unsigned bank = k % 16, thread = k / 12;
            /* Thread t's chunk starts in bank 12t mod 16, which is 0 just for t = 0, 4, 8, 12. */
            kit_viz_cat want = bank >= 12 ? KIT_VIZ_CAT_FREE : thread % 4 == 0 ? KIT_VIZ_CAT_ALIGNED
                                                                                : KIT_VIZ_CAT_MISALIGNED;
            KIT_ASSERT_MSG(cell->cat == want, "000-fig1 word %u (bank %u, thread %u): category %d, expected %d", k,
                           bank, thread, cell->cat, want);
            KIT_ASSERT_MSG(!cell->highlight && !cell->conflict, "000-fig1 default view: word %u is highlighted", k);
            count[cell->cat]++;
        }
        KIT_ASSERT_MSG(count[KIT_VIZ_CAT_ALIGNED] == 48 && count[KIT_VIZ_CAT_MISALIGNED] == 96 &&
                           count[KIT_VIZ_CAT_FREE] == 48,
                       "000-fig1: expected 48 aligned, 96 misaligned, 48 free; got %u, %u, %u",
                       count[KIT_VIZ_CAT_ALIGNED], count[KIT_VIZ_CAT_MISALIGNED], count[KIT_VIZ_CAT_FREE]);
        kit_viz_grid_free(&g);
    }
    kit_viz_figure_free(&fig);
}

/* ---- the simulator's counts for each figure ----------------------------------------- */

static void test_fig_counts(void)
{
    /*
     * stride 5: 12 distinct banks, cost 1. stride 6: banks 0 and 6, 6 words each.
     * Gathers: one conflict-free step per round. Sorted (000-fig1): in step j thread t
     * reads 12t + j; 12t mod 16 runs 0, 12, 8, 4, so banks j, j+12, j+8, j+4 (mod 16)
     * take 4 distinct words each: cost 4 a step, 3 conflicts, 12 steps: 48 and 36.
     * The loop (handout 00): 6 steps in both models. Lock-step step 3 has words 27 and 43 in
     * bank 3 (cost 2), every other step distinct banks; by site every step costs 1.
     */
    static const struct {
        const char *name;
        uint64_t steps, cost, conflicts;
    } want[] = {{"001-fig1-stride5", 1, 1, 0},
                {"001-fig1-stride6", 1, 6, 5},
                {"001-fig2", 5, 5, 0},
                {"001-fig3", 6, 6, 0},
                {"000-fig1", 12, 48, 36},
                {"000-loop-lockstep", 6, 7, 1},
                {"000-loop-site", 6, 6, 0}};
    for (size_t i = 0; i < ARRAY_LEN(want); i++) {
        kit_viz_figure fig;
        if (make_figure(want[i].name, &fig) != 0)
            continue;
        kit_bank_report rep;
        char err[256] = "";
        if (kit_bank_simulate(&fig.view.model, fig.acc, fig.n, &rep, err, sizeof err) != 0) {
            kit_test_fail(__FILE__, __LINE__, "%s: the simulator refused the figure: %s", want[i].name, err);
        } else {
            KIT_ASSERT_MSG(rep.load.steps == want[i].steps && rep.load.cost == want[i].cost &&
                               rep.load.conflicts == want[i].conflicts && rep.store.steps == 0,
                           "%s: expected %llu steps, cost %llu, %llu conflicts; got %llu, %llu, %llu", want[i].name,
                           (unsigned long long)want[i].steps, (unsigned long long)want[i].cost,
                           (unsigned long long)want[i].conflicts, (unsigned long long)rep.load.steps,
                           (unsigned long long)rep.load.cost, (unsigned long long)rep.load.conflicts);
            kit_bank_free(&rep);
        }
        kit_viz_figure_free(&fig);
    }
    /* 000-fig1 step by step: each step costs 4, and all 16 cells read in it conflict. */
    kit_viz_figure fig;
    if (make_figure("000-fig1", &fig) != 0)
        return;
    for (long j = 0; j < 12; j++) {
        kit_viz_grid g;
        if (build(&fig.view, j, fig.acc, fig.n, &g, "000-fig1 step") != 0)
            break;
        unsigned lit = 0, conflicting = 0;
        for (size_t c = 0; c < (size_t)g.cols * g.w; c++) {
            lit += g.cell[c].highlight;
            conflicting += g.cell[c].conflict;
        }
        KIT_ASSERT_MSG(g.load.cost == 4 && g.load.conflicts == 3 && lit == 16 && conflicting == 16,
                       "000-fig1 step %ld: expected cost 4, 3 conflicts, 16 cells all conflicting; got %llu, %llu, "
                       "%u, %u",
                       j, (unsigned long long)g.load.cost, (unsigned long long)g.load.conflicts, lit, conflicting);
        kit_viz_grid_free(&g);
    }
    kit_viz_figure_free(&fig);
}

static void test_fig_names(void)
{
    static const char *const names[] = {"001-fig1-stride5", "001-fig1-stride6", "001-fig2", "001-fig3", "000-fig1",
                                        "000-loop-lockstep", "000-loop-site"};
    KIT_ASSERT_MSG(kit_viz_figure_count() == ARRAY_LEN(names), "expected %zu figures, got %zu", ARRAY_LEN(names),
                   kit_viz_figure_count());
    for (size_t i = 0; i < ARRAY_LEN(names) && i < kit_viz_figure_count(); i++) {
        KIT_ASSERT_MSG(strcmp(kit_viz_figure_name(i), names[i]) == 0, "figure %zu: expected %s, got %s", i, names[i],
                       kit_viz_figure_name(i));
        KIT_ASSERT_MSG(kit_viz_figure_summary(i) && kit_viz_figure_summary(i)[0], "figure %s has no summary",
                       names[i]);
    }
    KIT_ASSERT_MSG(kit_viz_figure_name(99) == NULL && kit_viz_figure_summary(99) == NULL,
                   "past the end: expected NULL");
    kit_viz_figure fig;
    char err[256] = "";
    int rc = kit_viz_figure_make("001-fig9", &fig, err, sizeof err);
    KIT_ASSERT_MSG(rc == -1 && strstr(err, "001-fig9"), "unknown figure: expected -1 naming it, got %d \"%s\"", rc,
                   err);
    /* The slip in 001's Fig. 3 caption is stated where readers will see it. */
    if (make_figure("001-fig3", &fig) == 0) {
        KIT_ASSERT_MSG(strstr(fig.view.note, "16") && strstr(fig.view.note, "18"),
                       "001-fig3's note should point out the caption's 16 (for 18): \"%s\"", fig.view.note);
        kit_viz_figure_free(&fig);
    }
}

/* ---- golden files ------------------------------------------------------------------- */

/* What writes the golden files of the built-in figures, for the message when one is missing. */
#define FIGURES_WRITE "bash mk/figures.sh build/tools/bankviz handouts/figures common/tests/golden"

/* Compares got with the file at path; writer says what command writes that file. */
static void expect_golden(const char *path, const char *got, const char *what, const char *writer)
{
    char *want = read_file(path);
    if (!want) {
        kit_test_fail(__FILE__, __LINE__, "%s: cannot read %s (run the tests from the repository root; %s writes it)",
                      what, path, writer);
        return;
    }
    expect_same_text(want, got, what);
    free(want);
}

static int has_all_rounds(const char *name)
{
    for (size_t i = 0; i < ARRAY_LEN(all_rounds); i++)
        if (strcmp(name, all_rounds[i]) == 0)
            return 1;
    return 0;
}

static void test_golden_text(void)
{
    for (size_t i = 0; i < kit_viz_figure_count(); i++) {
        const char *name = kit_viz_figure_name(i);
        for (int all = 0; all <= has_all_rounds(name); all++) {
            char path[256], what[128];
            snprintf(path, sizeof path, "%s/%s%s.txt", GOLDEN_DIR, name, all ? "-all" : "");
            snprintf(what, sizeof what, "text of %s%s", name, all ? " --all" : "");
            char *text = render_figure(name, all, 0);
            if (text)
                expect_golden(path, text, what, FIGURES_WRITE);
            free(text);
        }
    }
}

static void test_golden_svg(void)
{
    for (size_t i = 0; i < kit_viz_figure_count(); i++) {
        const char *name = kit_viz_figure_name(i);
        for (int all = 0; all <= has_all_rounds(name); all++) {
            char path[256], what[128];
            snprintf(path, sizeof path, "%s/%s%s.svg", FIGURE_DIR, name, all ? "-all" : "");
            snprintf(what, sizeof what, "SVG of %s%s", name, all ? " --all" : "");
            char *svg = render_figure(name, all, 1);
            if (svg)
                expect_golden(path, svg, what, FIGURES_WRITE);
            free(svg);
        }
    }
}

/* ---- traces with a view ---------------------------------------------------------------- */

static void test_view_round_trip(void)
{
    for (size_t i = 0; i < kit_viz_figure_count(); i++) {
        const char *name = kit_viz_figure_name(i);
        kit_viz_figure fig;
        if (make_figure(name, &fig) != 0)
            continue;
        FILE *f = temp_file();
        int rc = kit_viz_trace_write(f, &fig.view, fig.acc, fig.n);
        KIT_ASSERT_MSG(rc == 0, "%s: kit_viz_trace_write failed", name);
        rewind(f);
        /* Every line must stay within what kit_trace_read accepts. */
        char *dump = slurp(f);
        size_t longest = 0;
        for (const char *p = dump; *p;) {
            size_t len = strcspn(p, "\n");
            longest = len > longest ? len : longest;
            p += len + (p[len] == '\n');
        }
        KIT_ASSERT_MSG(longest <= 254, "%s: the dump has a line of %zu characters", name, longest);
        free(dump);
        rewind(f);
        kit_viz_view back;
        kit_access *acc = NULL;
        size_t n = 0;
        char err[256] = "";
        kit_viz_view_init(&back);
        rc = kit_viz_trace_read(f, &back, &acc, &n, err, sizeof err);
        fclose(f);
        KIT_ASSERT_MSG(rc == 0, "%s: reading the dump back: %s", name, err);
        if (rc == 0) {
            KIT_ASSERT_MSG(n == fig.n && memcmp(acc, fig.acc, n * sizeof *acc) == 0, "%s: the accesses changed", name);
            KIT_ASSERT_MSG(strcmp(back.title, fig.view.title) == 0 && strcmp(back.note, fig.view.note) == 0 &&
                               back.model.w == fig.view.model.w && back.label == fig.view.label &&
                               back.step == fig.view.step && back.rounds == fig.view.rounds &&
                               back.ncat == fig.view.ncat && back.ndividers == fig.view.ndividers &&
                               memcmp(back.cat, fig.view.cat, fig.view.ncat) == 0,
                           "%s: the view changed in the round trip", name);
            for (int svg = 0; svg <= 1; svg++) {
                char *want = render(&fig.view, fig.acc, fig.n, 0, svg), *got = render(&back, acc, n, 0, svg);
                if (want && got)
                    expect_same_text(want, got, svg ? "SVG after a dump and read" : "text after a dump and read");
                free(want);
                free(got);
            }
        }
        free(acc);
        kit_viz_figure_free(&fig);
    }
}

static void test_view_lines_refused(void)
{
    static const struct {
        const char *line;
        const char *want;
    } bad[] = {
        {"# bankviz colour red\n", "line 3: unknown bankviz setting 'colour'"},
        {"# bankviz model 0 4\n", "line 3: bad model"},
        {"# bankviz model 2000 4\n", "line 3: bad model"},
        {"# bankviz model 32\n", "line 3: bad value"},
        {"# bankviz label bank\n", "line 3: bad value"},
        {"# bankviz step -1\n", "line 3: bad value"},
        {"# bankviz categories 0 AB?\n", "line 3: '?' is not a category"},
        {"# bankviz categories 4095 AB\n", "line 3: categories are kept"},
        {"# bankviz steps-called phase\n", "line 3: bad value"},
    };
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        char text[256], err[256] = "";
        snprintf(text, sizeof text, "# kit-trace 1\n0 0 0 0 4 r\n%s", bad[i].line);
        FILE *f = temp_file();
        fputs(text, f);
        rewind(f);
        kit_viz_view v;
        kit_access *acc = NULL;
        size_t n = 0;
        kit_viz_view_init(&v);
        int rc = kit_viz_trace_read(f, &v, &acc, &n, err, sizeof err);
        fclose(f);
        KIT_ASSERT_MSG(rc == -1 && strstr(err, bad[i].want), "\"%.*s\": expected a refusal with \"%s\", got %d \"%s\"",
                       (int)strlen(bad[i].line) - 1, bad[i].line, bad[i].want, rc, err);
        KIT_ASSERT_MSG(acc == NULL && n == 0, "a refused trace should give no accesses");
        free(acc);
    }
    /* kit_trace_read's own message comes through unchanged. */
    FILE *f = temp_file();
    fputs("# kit-trace 1\n0 0 0 0 3 r\n", f);
    rewind(f);
    kit_viz_view v;
    kit_access *acc = NULL;
    size_t n = 0;
    char err[256] = "";
    kit_viz_view_init(&v);
    int rc = kit_viz_trace_read(f, &v, &acc, &n, err, sizeof err);
    fclose(f);
    KIT_ASSERT_MSG(rc == -1 && strcmp(err, "line 2: size 3 is not 1, 2, 4, 8 or 16") == 0,
                   "expected kit_trace_read's message, got \"%s\"", err);
    free(acc);
}

/* ---- grids of hand-made traces --------------------------------------------------------- */

/* The widest line of a text, in characters (bytes: the text view writes ASCII). */
static size_t widest_line(const char *text)
{
    size_t widest = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        widest = n > widest ? n : widest;
        p += n + (p[n] == '\n');
    }
    return widest;
}

/*
 * The text view fits 80 columns: one warp of w = 32 reading a stride of 40 words draws 40 columns of
 * 4-digit word indices (over 260 characters in one band), so it comes in bands headed by their words,
 * every cell still there; and every built-in figure, in all its views, fits too.
 */
static void test_text_fits_80_columns(void)
{
    kit_access acc[32];
    for (int t = 0; t < 32; t++)
        acc[t] = kit_access_at(0, t, 0, (uint64_t)t * 40 * 4, 4, 0);
    kit_viz_view v;
    small_view(&v, 32);
    v.label = KIT_VIZ_LABEL_WORD;
    kit_viz_grid g;
    if (build(&v, 0, acc, ARRAY_LEN(acc), &g, "w = 32, stride 40") != 0)
        return;
    FILE *f = temp_file();
    kit_viz_render_text(f, &v, &g, 1);
    char *text = slurp(f);
    fclose(f);
    KIT_ASSERT_MSG(g.cols == 39 && widest_line(text) <= 80, "w = 32, stride 40: %u columns drawn %zu characters wide:\n%s",
                   g.cols, widest_line(text), text);
    KIT_ASSERT_MSG(strstr(text, "words 0 .. ") && strstr(text, " .. 1247 (columns ") && strstr(text, " of 39):\n"),
                   "the bands are not headed by their words:\n%s", text);
    for (int t = 0; t < 32; t++) { /* each thread's word, marked (stride 40 on 32 banks: a conflict) in some band */
        char cell[16];
        snprintf(cell, sizeof cell, "<%4d>", t * 40);
        KIT_ASSERT_MSG(strstr(text, cell), "thread %d's word %d is missing from the bands:\n%s", t, t * 40, text);
    }
    free(text);
    kit_viz_grid_free(&g);
    for (size_t i = 0; i < kit_viz_figure_count(); i++)
        for (int all = 0; all <= 1; all++) {
            char *fig = render_figure(kit_viz_figure_name(i), all, 0);
            KIT_ASSERT_MSG(fig && widest_line(fig) <= 80, "figure %s%s: %zu characters wide", kit_viz_figure_name(i),
                           all ? " --all" : "", fig ? widest_line(fig) : 0);
            free(fig);
        }
}

static void test_grid_multicast_and_conflict(void)
{
    /*
     * w = 4. Ordinal 0: threads 0 and 1 read word 0, thread 2 word 4 (bank 0 again),
     * thread 3 word 3. Ordinal 1: thread 0 writes word 7. Words 1, 2, 5, 6 stay blank.
     */
    kit_access acc[] = {kit_access_at(0, 0, 0, 0, 4, 0), kit_access_at(0, 1, 0, 0, 4, 0), kit_access_at(0, 2, 0, 16, 4, 0),
                        kit_access_at(0, 3, 0, 12, 4, 0), kit_access_at(0, 0, 1, 28, 4, 1)};
    kit_viz_view v;
    small_view(&v, 4);
    kit_viz_grid g;
    if (build(&v, 0, acc, ARRAY_LEN(acc), &g, "w = 4 trace") != 0)
        return;
    KIT_ASSERT_MSG(g.cols == 2 && g.first_col == 0, "expected 2 columns from 0, got %u from %u", g.cols, g.first_col);
    const kit_viz_cell *w0 = kit_viz_cell_at(&g, 0, 0), *w4 = kit_viz_cell_at(&g, 0, 1), *w3 = kit_viz_cell_at(&g, 3, 0);
    const kit_viz_cell *w7 = kit_viz_cell_at(&g, 3, 1), *w1 = kit_viz_cell_at(&g, 1, 0);
    KIT_ASSERT_MSG(w0->thread == 0 && w0->shared && w0->highlight && w0->conflict,
                   "word 0: expected thread 0, shared, highlighted, conflicting");
    KIT_ASSERT_MSG(w4->thread == 2 && !w4->shared && w4->conflict, "word 4: expected thread 2, conflicting");
    KIT_ASSERT_MSG(w3->thread == 3 && w3->highlight && !w3->conflict, "word 3: expected thread 3, no conflict");
    KIT_ASSERT_MSG(w7->thread == 0 && !w7->highlight, "word 7: written at ordinal 1, not highlighted in step 0");
    KIT_ASSERT_MSG(w1->thread == -1 && !w1->highlight, "word 1: nobody touches it");
    KIT_ASSERT_MSG(g.load.cost == 2 && g.load.conflicts == 1 && g.store.steps == 0,
                   "step 0: expected load cost 2, 1 conflict, no stores; got %llu, %llu, %llu",
                   (unsigned long long)g.load.cost, (unsigned long long)g.load.conflicts,
                   (unsigned long long)g.store.steps);
    FILE *f = temp_file();
    kit_viz_render_text(f, &v, &g, 1);
    char *text = slurp(f);
    fclose(f);
    static const char want[] =
        "w = 4 banks of 4 bytes; block 0, warp 0 (threads 0 .. 3); words 0 .. 7 in 2\n"
        "  columns; cells show thread ids\n"
        "\n"
        "step 0:\n"
        "0: <0+> < 2>\n"
        "1:\n"
        "2:\n"
        "3: [ 3]   0\n"
        "loads in step 0: papers' cost 2, profiler conflicts 1\n"
        "\n"
        "legend:\n"
        "  [n] accessed in the step shown\n"
        "  <n> a conflict: its bank serves another word in the same step (and phase)\n"
        "  n+  thread n and higher threads of the warp touch this word\n"
        "  papers' cost: per step, the most distinct words one bank serves (a word read\n"
        "    by several threads counts once)\n"
        "  profiler conflicts: the cost minus 1 per step (per phase, for accesses wider\n"
        "    than a bank)\n";
    expect_same_text(want, text, "text of the w = 4 trace");
    free(text);
    kit_viz_grid_free(&g);

    /* Step 1 is a store step; the default step is the first ordinal, 0. */
    if (build(&v, 1, acc, ARRAY_LEN(acc), &g, "w = 4 step 1") == 0) {
        KIT_ASSERT_MSG(g.store.steps == 1 && g.store.cost == 1 && g.load.steps == 0 &&
                           kit_viz_cell_at(&g, 3, 1)->highlight && !kit_viz_cell_at(&g, 0, 0)->highlight,
                       "step 1: expected one store of word 7 highlighted");
        kit_viz_grid_free(&g);
    }
    if (build(&v, KIT_VIZ_FIRST_STEP, acc, ARRAY_LEN(acc), &g, "w = 4 first step") == 0) {
        KIT_ASSERT_MSG(g.step == 0, "the first step should be ordinal 0, got %ld", g.step);
        kit_viz_grid_free(&g);
    }
    if (build(&v, KIT_VIZ_NO_STEP, acc, ARRAY_LEN(acc), &g, "w = 4 no step") == 0) {
        KIT_ASSERT_MSG(g.load.steps == 1 && g.store.steps == 1 && g.warp_steps == 2 &&
                           !kit_viz_cell_at(&g, 0, 0)->highlight,
                       "no step: expected the warp's totals and nothing highlighted");
        kit_viz_grid_free(&g);
    }
}

static void test_grid_kinds_and_phases(void)
{
    kit_viz_view v;
    kit_viz_grid g;
    small_view(&v, 32);
    /* A load of word 0 and a store of word 32 in one ordinal: same bank, but two steps, so no conflict. */
    kit_access mixed[] = {kit_access_at(0, 0, 0, 0, 4, 0), kit_access_at(0, 1, 0, 128, 4, 1)};
    if (build(&v, 0, mixed, 2, &g, "load and store") == 0) {
        KIT_ASSERT_MSG(!kit_viz_cell_at(&g, 0, 0)->conflict && !kit_viz_cell_at(&g, 0, 1)->conflict &&
                           kit_viz_cell_at(&g, 0, 1)->highlight,
                       "a load and a store of one bank are not a conflict");
        KIT_ASSERT_MSG(g.load.steps == 1 && g.store.steps == 1, "expected a load step and a store step");
        kit_viz_grid_free(&g);
    }
    /* 8-byte loads, stride 1: bank b holds words b and b + 32, but they fall in different phases. */
    kit_access wide[32];
    for (unsigned t = 0; t < 32; t++)
        wide[t] = kit_access_at(0, t, 0, 8 * t, 8, 0);
    if (build(&v, 0, wide, 32, &g, "8-byte stride 1") == 0) {
        unsigned conflicting = 0, lit = 0;
        for (size_t c = 0; c < (size_t)g.cols * g.w; c++) {
            conflicting += g.cell[c].conflict;
            lit += g.cell[c].highlight;
        }
        KIT_ASSERT_MSG(lit == 64 && conflicting == 0, "8-byte stride 1: expected 64 cells, none in conflict; got %u, %u",
                       lit, conflicting);
        KIT_ASSERT_MSG(kit_viz_cell_at(&g, 1, 0)->thread == 0 && kit_viz_cell_at(&g, 2, 1)->thread == 17,
                       "an 8-byte access covers two cells of its thread");
        KIT_ASSERT_MSG(g.load.cost == 2 && g.load.conflicts == 0, "8-byte stride 1: expected cost 2, no conflict");
        kit_viz_grid_free(&g);
    }
    /* 8-byte, 16 bytes apart: in each phase, banks hold 2 words: every cell conflicts. */
    for (unsigned t = 0; t < 32; t++)
        wide[t] = kit_access_at(0, t, 0, 16 * t, 8, 0);
    if (build(&v, 0, wide, 32, &g, "8-byte stride 2") == 0) {
        unsigned conflicting = 0;
        for (size_t c = 0; c < (size_t)g.cols * g.w; c++)
            conflicting += g.cell[c].conflict;
        KIT_ASSERT_MSG(conflicting == 64 && g.load.cost == 4 && g.load.conflicts == 2,
                       "8-byte, 16 bytes apart: expected 64 conflicting cells, cost 4, 2 conflicts; got %u, %llu, %llu",
                       conflicting, (unsigned long long)g.load.cost, (unsigned long long)g.load.conflicts);
        kit_viz_grid_free(&g);
    }
}

static void test_grid_warps_blocks_columns(void)
{
    /* Block 1, warp 1 (threads 32..63) at words 1000 + t: drawn with absolute thread ids from column 31. */
    kit_access acc[64];
    size_t n = 0;
    for (unsigned t = 32; t < 64; t++)
        acc[n++] = kit_access_at(1, t, 5, 4 * (1000 + t), 4, 0);
    for (unsigned t = 0; t < 32; t++)
        acc[n++] = kit_access_at(0, t, 0, 4 * t, 4, 0);
    kit_viz_view v;
    kit_viz_grid g;
    small_view(&v, 32);
    v.block = 1;
    v.warp = 1;
    if (build(&v, KIT_VIZ_FIRST_STEP, acc, n, &g, "block 1 warp 1") == 0) {
        /* Words 1032 .. 1063: columns 32 and 33 (1024 .. 1087). */
        KIT_ASSERT_MSG(g.first_col == 32 && g.cols == 2 && g.step == 5,
                       "expected columns 32..33 and step 5, got %u columns from %u, step %ld", g.cols, g.first_col,
                       g.step);
        const kit_viz_cell *c = kit_viz_cell_at(&g, 1032 % 32, 0);
        KIT_ASSERT_MSG(c && c->word == 1032 && c->thread == 32 && c->highlight,
                       "word 1032 should show thread 32, highlighted");
        kit_viz_grid_free(&g);
    }
}

/*
 * The worst step: block 0's warp has one step with 1 conflict (two words in bank 0); block 1's warp
 * has a quiet step 0 and a step 3 with 3 conflicts (four words in bank 0), so --worst draws block 1,
 * warp 0, step 3.
 */
static void test_worst_step(void)
{
    kit_access acc[16];
    size_t n = 0;
    acc[n++] = kit_access_at(0, 0, 0, 0, 4, 0);
    acc[n++] = kit_access_at(0, 1, 0, 4 * 8, 4, 0);
    for (unsigned t = 0; t < 4; t++) {
        acc[n++] = kit_access_at(1, t, 0, 4 * t, 4, 0);
        acc[n++] = kit_access_at(1, t, 3, 4 * 8 * t, 4, 0);
    }
    kit_viz_view v;
    small_view(&v, 8);
    uint64_t c = 0;
    char err[200] = "";
    int rc = kit_viz_worst(&v, acc, n, &c, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && v.block == 1 && v.warp == 0 && v.step == 3 && c == 3,
                   "expected block 1, warp 0, step 3 with 3 conflicts, got rc %d (%s), block %u, warp %u, step %ld, %llu",
                   rc, err, v.block, v.warp, v.step, (unsigned long long)c);
    KIT_ASSERT_MSG(kit_viz_worst(&v, acc, 0, &c, err, sizeof err) == -1 && strstr(err, "no accesses"),
                   "an empty trace: expected -1 and \"no accesses\", got \"%s\"", err);
}

static void test_grid_refusals(void)
{
    kit_access acc[] = {kit_access_at(0, 0, 0, 0, 4, 0), kit_access_at(0, 1, 2, 4, 4, 0), kit_access_at(1, 0, 0, 0, 4, 0)};
    static const struct {
        unsigned w, word;
        uint32_t block, warp;
        long step;
        const char *want;
    } bad[] = {
        {0, 4, 0, 0, 0, "w = 0"},
        {2000, 4, 0, 0, 0, "w = 2000"},
        {32, 0, 0, 0, 0, "word = 0"},
        {32, 4, 0, 0, 1, "step 1 does not exist: warp 0 of block 0 has 2 steps, ordinals 0 .. 2"},
        {32, 4, 7, 0, 0, "block 7 has no accesses"},
        {32, 4, 0, 3, 0, "warp 3 of block 0 has no accesses"},
        {32, 4, 0, 0, -5, "step -5"},
    };
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        kit_viz_view v;
        kit_viz_grid g;
        char err[512] = "";
        small_view(&v, bad[i].w);
        v.model.word_bytes = bad[i].word;
        v.block = bad[i].block;
        v.warp = bad[i].warp;
        int rc = kit_viz_grid_build(&v, bad[i].step, acc, ARRAY_LEN(acc), &g, err, sizeof err);
        KIT_ASSERT_MSG(rc == -1 && strstr(err, bad[i].want) && g.cell == NULL,
                       "case %zu: expected a refusal with \"%s\", got %d \"%s\"", i, bad[i].want, rc, err);
        if (rc == 0)
            kit_viz_grid_free(&g);
    }
    /* Too many cells: words 0 and 32 * 40000 make 40001 columns of 32. */
    kit_access far[] = {kit_access_at(0, 0, 0, 0, 4, 0), kit_access_at(0, 1, 0, 4 * 32 * 40000, 4, 0)};
    kit_viz_view v;
    kit_viz_grid g;
    char err[512] = "";
    small_view(&v, 32);
    int rc = kit_viz_grid_build(&v, 0, far, 2, &g, err, sizeof err);
    KIT_ASSERT_MSG(rc == -1 && strstr(err, "can be drawn"), "a huge span: expected a refusal, got %d \"%s\"", rc, err);
    /* Bad accesses are the simulator's to refuse, in its words. */
    kit_access size3[] = {kit_access_at(0, 0, 0, 0, 3, 0)}, t5000[] = {kit_access_at(0, 5000, 0, 0, 4, 0)};
    rc = kit_viz_grid_build(&v, 0, size3, 1, &g, err, sizeof err);
    KIT_ASSERT_MSG(rc == -1 && strstr(err, "size 3"), "size 3: expected a refusal, got %d \"%s\"", rc, err);
    uint32_t *ords = NULL;
    size_t nords = 0;
    rc = kit_viz_warp_steps(&v, t5000, 1, &ords, &nords, err, sizeof err);
    KIT_ASSERT_MSG(rc == -1 && strstr(err, "thread 5000") && ords == NULL, "thread 5000: expected a refusal, got %d \"%s\"",
                   rc, err);
    rc = kit_viz_warp_steps(&v, acc, 0, &ords, &nords, err, sizeof err);
    KIT_ASSERT_MSG(rc == -1 && strstr(err, "no accesses"), "empty trace: expected a refusal, got %d \"%s\"", rc, err);
    rc = kit_viz_warp_steps(&v, acc, ARRAY_LEN(acc), &ords, &nords, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && nords == 2 && ords[0] == 0 && ords[1] == 2, "steps of warp 0: expected 0 and 2");
    free(ords);
}

static void test_svg_basics(void)
{
    char *svg = render_figure("001-fig1-stride6", 0, 1);
    if (!svg)
        return;
    KIT_ASSERT_MSG(strncmp(svg, "<?xml", 5) == 0, "an SVG starts with the XML declaration");
    size_t len = strlen(svg);
    KIT_ASSERT_MSG(len > 7 && strcmp(svg + len - 7, "</svg>\n") == 0, "an SVG ends with </svg>");
    KIT_ASSERT_MSG(count_of(svg, "<title>001-fig1-stride6") == 1, "the title element names the figure");
    /* 72 cells, each a 20-pixel rect; 12 red (conflicts), no green cell; labels 0 .. 71. */
    KIT_ASSERT_MSG(count_of(svg, "height=\"20\" fill=") == 72, "expected 72 cell rects, got %zu",
                   count_of(svg, "height=\"20\" fill="));
    KIT_ASSERT_MSG(count_of(svg, "height=\"20\" fill=\"#e06666\"") == 12, "expected 12 red cells, got %zu",
                   count_of(svg, "height=\"20\" fill=\"#e06666\""));
    KIT_ASSERT_MSG(count_of(svg, "height=\"20\" fill=\"#7bc67b\"") == 0, "expected no green cell");
    KIT_ASSERT_MSG(strstr(svg, "text-anchor=\"middle\">71</text>") && strstr(svg, "text-anchor=\"end\">11:</text>"),
                   "expected the label 71 and the row label 11:");
    char *again = render_figure("001-fig1-stride6", 0, 1);
    if (again)
        KIT_ASSERT_MSG(strcmp(svg, again) == 0, "two renderings of one figure differ");
    free(again);
    free(svg);
    /* Fig. 2: 12 green cells in round 0; the other 48 yellow or blue (33 A, 27 B less those read). */
    svg = render_figure("001-fig2", 0, 1);
    if (svg) {
        size_t green = count_of(svg, "height=\"20\" fill=\"#7bc67b\""), yellow = count_of(svg, "height=\"20\" fill=\"#fbe7a1\""),
               blue = count_of(svg, "height=\"20\" fill=\"#a9c8ef\"");
        /* Round 0 reads k = 0, 5, .., 55: 7 of them (0 .. 30) are in A. */
        KIT_ASSERT_MSG(green == 12 && yellow == 33 - 7 && blue == 27 - 5,
                       "001-fig2 round 0: expected 12 green, 26 yellow, 22 blue; got %zu, %zu, %zu", green, yellow,
                       blue);
        free(svg);
    }
    /* XML specials in a title are escaped. */
    kit_access acc[] = {kit_access_at(0, 0, 0, 0, 4, 0)};
    kit_viz_view v;
    small_view(&v, 32);
    snprintf(v.title, sizeof v.title, "a <b> & \"c\"");
    svg = render(&v, acc, 1, 0, 1);
    if (svg) {
        KIT_ASSERT_MSG(strstr(svg, "<title>a &lt;b&gt; &amp; &quot;c&quot;</title>") != NULL,
                       "the title should be escaped");
        free(svg);
    }
}

/* ---- the bankviz tool ------------------------------------------------------------------ */

/* Runs a program with the arguments; returns its exit status (-1 if it did not exit), with its output. */
static int run_program(const char *program, const char *const *args, char **out, char **err)
{
    const char *argv[32];
    size_t n = 0;
    argv[n++] = program;
    for (; *args && n < ARRAY_LEN(argv) - 1; args++)
        argv[n++] = *args;
    argv[n] = NULL;
    FILE *fo = temp_file(), *fe = temp_file();
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(2);
    }
    if (pid == 0) {
        dup2(fileno(fo), 1);
        dup2(fileno(fe), 2);
        execv(program, (char *const *)argv);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    *out = slurp(fo);
    *err = slurp(fe);
    fclose(fo);
    fclose(fe);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Runs bankviz with the arguments, as run_program() does. */
static int run_tool(const char *const *args, char **out, char **err)
{
    return run_program(BANKVIZ, args, out, err);
}

/* Writes text to a new temporary file named in path (at least 32 bytes). */
static void temp_named(char *path, const char *text)
{
    strcpy(path, "/tmp/test_viz_XXXXXX");
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f || fputs(text, f) == EOF || fclose(f) != 0) {
        perror("temp_named");
        exit(2);
    }
}

static void test_tool_list_and_trace(void)
{
    char *out, *err;
    const char *list[] = {"--list", NULL};
    int rc = run_tool(list, &out, &err);
    KIT_ASSERT_MSG(rc == 0 && err[0] == '\0', "--list: expected exit 0 and nothing on stderr, got %d \"%s\"", rc, err);
    for (size_t i = 0; i < kit_viz_figure_count(); i++)
        KIT_ASSERT_MSG(strstr(out, kit_viz_figure_name(i)) != NULL, "--list does not name %s", kit_viz_figure_name(i));
    free(out);
    free(err);

    /* Warp 0 of a w = 8 trace: thread t at word 2t in step 0 (banks 0, 2, 4, 6 twice: cost 2). */
    char path[64];
    temp_named(path, "# kit-trace 1\n0 0 0 0 4 r\n0 1 0 8 4 r\n0 2 0 16 4 r\n0 3 0 24 4 r\n0 4 0 32 4 r\n"
                     "0 5 0 40 4 r\n0 6 0 48 4 r\n0 7 0 56 4 r\n0 9 0 4 4 w\n");
    const char *good[] = {"--trace", path, "--w", "8", NULL};
    rc = run_tool(good, &out, &err);
    KIT_ASSERT_MSG(rc == 0 && err[0] == '\0', "a good trace: expected exit 0, got %d \"%s\"", rc, err);
    KIT_ASSERT_MSG(strstr(out, "\n0: <0> <4>\n") && strstr(out, "loads in step 0: papers' cost 2, profiler conflicts 1"),
                   "a good trace: unexpected picture:\n%s", out);
    free(out);
    free(err);
    const char *svg[] = {"--trace", path, "--w", "8", "--format", "svg", "--label", "word", NULL};
    rc = run_tool(svg, &out, &err);
    KIT_ASSERT_MSG(rc == 0 && strncmp(out, "<?xml", 5) == 0, "--format svg: expected an SVG, got %d \"%s\"", rc, err);
    free(out);
    free(err);
    const char *worst[] = {"--trace", path, "--w", "8", "--worst", NULL};
    rc = run_tool(worst, &out, &err);
    KIT_ASSERT_MSG(rc == 0 && strstr(out, "The trace's worst step: block 0, warp 0, step 0, 1 bank conflicts."),
                   "--worst: expected block 0, warp 0, step 0 with 1 conflict, got %d \"%s\"\n%s", rc, err, out);
    free(out);
    free(err);
    const char *warp1[] = {"--trace", path, "--w", "8", "--warp", "1", NULL};
    rc = run_tool(warp1, &out, &err);
    KIT_ASSERT_MSG(rc == 0 && strstr(out, "\n1: [9]\n"), "warp 1: expected thread 9 at bank 1, got %d \"%s\"\n%s", rc,
                   err, out);
    free(out);
    free(err);
    remove(path);
}

static void test_tool_refusals(void)
{
    char bad_trace[64], good_trace[64];
    temp_named(bad_trace, "# kit-trace 1\n0 0 0 0 4 r\n0 1 0 4 3 r\n");
    temp_named(good_trace, "# kit-trace 1\n0 0 0 0 4 r\n0 1 2 4 4 r\n");
    const struct {
        const char *args[8];
        const char *want;
    } cases[] = {
        {{"--bogus", NULL}, "unknown option '--bogus'"},
        {{"--trace", NULL}, "--trace needs a value"},
        {{"--trace", bad_trace, NULL}, "line 3: size 3 is not 1, 2, 4, 8 or 16"},
        {{"--trace", good_trace, "--w", "0", NULL}, "--w '0'"},
        {{"--trace", good_trace, "--w", "2000", NULL}, "--w '2000'"},
        {{"--trace", good_trace, "--step", "1", NULL}, "step 1 does not exist"},
        {{"--trace", good_trace, "--step", "x", NULL}, "--step 'x'"},
        {{"--trace", good_trace, "--block", "4", NULL}, "block 4 has no accesses"},
        {{"--trace", good_trace, "--warp", "2", NULL}, "warp 2 of block 0 has no accesses"},
        {{"--trace", good_trace, "--step", "0", "--all", NULL}, "do not go together"},
        {{"--trace", good_trace, "--worst", "--warp", "0", NULL}, "--worst picks the block, the warp and the step"},
        {{"--figure", "001-fig2", "--worst", NULL}, "--worst picks"},
        {{"--trace", good_trace, "--format", "pdf", NULL}, "--format 'pdf'"},
        {{"--trace", "/nonexistent/trace", NULL}, "cannot open /nonexistent/trace"},
        {{"--figure", "001-fig9", NULL}, "no figure named '001-fig9'"},
        {{"--figure", "001-fig2", "--step", "5", NULL}, "step 5 does not exist"},
        {{"--figure", "001-fig2", "--w", "32", NULL}, "go with --trace"},
        {{"--figure", "001-fig2", "--trace", good_trace, NULL}, "give one of"},
        {{NULL}, "give one of"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        char *out, *err;
        int rc = run_tool(cases[i].args, &out, &err);
        KIT_ASSERT_MSG(rc == 2, "case %zu (%s ...): expected exit 2, got %d", i,
                       cases[i].args[0] ? cases[i].args[0] : "no arguments", rc);
        KIT_ASSERT_MSG(strstr(err, cases[i].want) != NULL, "case %zu: expected \"%s\" on stderr, got \"%s\"", i,
                       cases[i].want, err);
        KIT_ASSERT_MSG(out[0] == '\0', "case %zu: expected nothing on stdout, got \"%.80s\"", i, out);
        free(out);
        free(err);
    }
    remove(bad_trace);
    remove(good_trace);
}

static void test_tool_dump_round_trip(void)
{
    for (size_t i = 0; i < kit_viz_figure_count(); i++) {
        const char *name = kit_viz_figure_name(i);
        char *dump, *err;
        const char *dump_args[] = {"--figure", name, "--dump-trace", NULL};
        int rc = run_tool(dump_args, &dump, &err);
        KIT_ASSERT_MSG(rc == 0 && strncmp(dump, "# kit-trace 2\n", 14) == 0, "%s --dump-trace: got %d \"%s\"", name,
                       rc, err);
        free(err);
        char path[64];
        temp_named(path, dump);
        free(dump);
        for (int variant = 0; variant < 3; variant++) {
            const char *extra = variant == 0 ? NULL : variant == 1 ? "--all" : "--format";
            const char *fig_args[] = {"--figure", name, extra, extra && variant == 2 ? "svg" : NULL, NULL};
            const char *trace_args[] = {"--trace", path, extra, extra && variant == 2 ? "svg" : NULL, NULL};
            char *want, *got, *e1, *e2;
            int r1 = run_tool(fig_args, &want, &e1), r2 = run_tool(trace_args, &got, &e2);
            char what[96];
            snprintf(what, sizeof what, "%s %s: the figure and its dumped trace", name, extra ? extra : "");
            KIT_ASSERT_MSG(r1 == 0 && r2 == 0, "%s: exit %d and %d (%s%s)", what, r1, r2, e1, e2);
            expect_same_text(want, got, what);
            free(want);
            free(got);
            free(e1);
            free(e2);
        }
        remove(path);
    }
}

/* ---- line plots ------------------------------------------------------------------------ */

/* A plot of two lines: "a" (2 points) and "b <&>" (3 points, dashed), x on a log2 axis. */
static void two_lines(kit_viz_plot *p)
{
    memset(p, 0, sizeof *p);
    p->x_log2 = 1;
    snprintf(p->title, sizeof p->title, "two lines");
    snprintf(p->x_label, sizeof p->x_label, "n");
    snprintf(p->y_label, sizeof p->y_label, "y");
    kit_viz_plot_point(p, "a", 1024, 3);
    kit_viz_plot_point(p, "a", 4096, 7.5);
    kit_viz_plot_point(p, "b <&>", 1024, -2);
    kit_viz_plot_point(p, "b <&>", 2048, 1);
    kit_viz_plot_point(p, "b <&>", 4096, 12);
    p->series[1].dashed = 1;
}

static void test_plot_point(void)
{
    kit_viz_plot p;
    two_lines(&p);
    KIT_ASSERT_MSG(p.nseries == 2 && p.series[0].n == 2 && p.series[1].n == 3, "expected lines of 2 and 3 points");
    KIT_ASSERT_MSG(strcmp(p.series[1].name, "b <&>") == 0 && p.series[0].style == 0 && p.series[1].style == 1 &&
                       !p.series[0].dashed,
                   "a new line takes its name, style = its index, solid");
    KIT_ASSERT_MSG(p.series[1].x[2] == 4096 && p.series[1].y[2] == 12, "points keep their order");
    KIT_ASSERT_MSG(kit_viz_plot_point(&p, "a", 8192, 1) == 0 && p.series[0].n == 3, "a known name adds to its line");
    char long_name[KIT_VIZ_NAME_LEN + 1];
    memset(long_name, 'x', KIT_VIZ_NAME_LEN);
    long_name[KIT_VIZ_NAME_LEN] = '\0';
    KIT_ASSERT_MSG(kit_viz_plot_point(&p, "", 1, 1) == -1 && kit_viz_plot_point(&p, long_name, 1, 1) == -1 &&
                       p.nseries == 2,
                   "an empty or too long name is refused, the plot unchanged");
    for (unsigned i = 2; i < KIT_VIZ_MAX_SERIES; i++) {
        char name[8];
        snprintf(name, sizeof name, "s%u", i);
        KIT_ASSERT_MSG(kit_viz_plot_point(&p, name, 1, 1) == (int)i && p.series[i].style == i % KIT_VIZ_STYLES,
                       "line %u: expected index %u and style %u", i, i, i % KIT_VIZ_STYLES);
    }
    KIT_ASSERT_MSG(kit_viz_plot_point(&p, "one too many", 1, 1) == -1 && p.nseries == KIT_VIZ_MAX_SERIES,
                   "line %d is refused", KIT_VIZ_MAX_SERIES + 1);
    while (p.series[2].n < KIT_VIZ_MAX_POINTS)
        kit_viz_plot_point(&p, "s2", 1, 1);
    KIT_ASSERT_MSG(kit_viz_plot_point(&p, "s2", 1, 1) == -1 && p.series[2].n == KIT_VIZ_MAX_POINTS,
                   "point %d of a line is refused", KIT_VIZ_MAX_POINTS + 1);
}

/* Checks every point of the plot lies within the axes. */
static void expect_axes_cover(const kit_viz_plot *p, const kit_viz_axis *x, const kit_viz_axis *y, const char *what)
{
    for (size_t i = 0; i < p->nseries; i++)
        for (size_t k = 0; k < p->series[i].n; k++) {
            double px = x->log2 ? log2(p->series[i].x[k]) : p->series[i].x[k], py = p->series[i].y[k];
            KIT_ASSERT_MSG(px >= x->lo && px <= x->hi && py >= y->lo && py <= y->hi,
                           "%s: point (%g, %g) of '%s' lies outside x %g .. %g, y %g .. %g", what, p->series[i].x[k],
                           py, p->series[i].name, x->lo, x->hi, y->lo, y->hi);
        }
    KIT_ASSERT_MSG(y->lo <= 0 && y->hi >= 0, "%s: the y axis (%g .. %g) covers 0", what, y->lo, y->hi);
    KIT_ASSERT_MSG(fabs(x->lo + (x->ticks - 1) * x->step - x->hi) < 1e-9 &&
                       fabs(y->lo + (y->ticks - 1) * y->step - y->hi) < 1e-9,
                   "%s: the last tick stands at the end of each axis", what);
}

static void test_plot_axes(void)
{
    kit_viz_plot p;
    kit_viz_axis x, y;
    char err[256] = "";
    two_lines(&p);
    int rc = kit_viz_plot_axes(&p, &x, &y, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0, "two lines: refused: %s", err);
    KIT_ASSERT_MSG(x.log2 && x.lo == 10 && x.hi == 12 && x.step == 1 && x.ticks == 3, "x: 2^10 .. 2^12, got %g .. %g",
                   x.lo, x.hi);
    KIT_ASSERT_MSG(!y.log2 && y.lo == -2 && y.hi == 12 && y.step == 2 && y.ticks == 8 && y.decimals == 0,
                   "y: -2 .. 12 by 2, got %g .. %g by %g", y.lo, y.hi, y.step);
    expect_axes_cover(&p, &x, &y, "two lines");
    /* A log2 axis over 2^19.9 .. 2^28.1 rounds out to powers; 40 powers get a tick every 4th. */
    memset(&p, 0, sizeof p);
    p.x_log2 = 1;
    kit_viz_plot_point(&p, "w", 983040, 0.35);
    kit_viz_plot_point(&p, "w", 285212672, 0.05);
    rc = kit_viz_plot_axes(&p, &x, &y, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && x.lo == 19 && x.hi == 29 && x.ticks == 11, "x: 2^19 .. 2^29, got %g .. %g", x.lo, x.hi);
    KIT_ASSERT_MSG(y.lo == 0 && fabs(y.hi - 0.35) < 1e-12 && fabs(y.step - 0.05) < 1e-12 && y.decimals == 2,
                   "y: 0 .. 0.35 by 0.05 with 2 decimals, got %g .. %g by %g, %d", y.lo, y.hi, y.step, y.decimals);
    expect_axes_cover(&p, &x, &y, "one line");
    kit_viz_plot_point(&p, "w", 2, 1);
    kit_viz_plot_point(&p, "w", ldexp(1, 41), 1);
    rc = kit_viz_plot_axes(&p, &x, &y, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && x.step == 4 && x.lo == 0 && x.hi == 44, "2^1 .. 2^41: ticks every 4, got %g .. %g by %g",
                   x.lo, x.hi, x.step);
    /* A linear x axis is laid out as y, without 0. */
    p.x_log2 = 0;
    memset(&p.series[0], 0, sizeof p.series[0]);
    snprintf(p.series[0].name, sizeof p.series[0].name, "lin");
    kit_viz_plot_point(&p, "lin", 3, 1);
    kit_viz_plot_point(&p, "lin", 17, 2);
    rc = kit_viz_plot_axes(&p, &x, &y, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && !x.log2 && x.lo == 2 && x.hi == 18 && x.step == 2, "linear x: 2 .. 18 by 2, got %g .. %g",
                   x.lo, x.hi);
    expect_axes_cover(&p, &x, &y, "a linear x");
}

static void test_plot_axes_refused(void)
{
    static const struct {
        int what; /* 0 no line, 1 a line without points, 2 NaN, 3 x = 0 on a log2 axis, 4 style 8 */
        const char *want;
    } cases[] = {{0, "has 0 lines"}, {1, "has 0 points"}, {2, "finite"}, {3, "x > 0"}, {4, "style 8"}};
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        kit_viz_plot p;
        kit_viz_axis x, y;
        char err[256] = "";
        two_lines(&p);
        if (cases[i].what == 0)
            p.nseries = 0;
        else if (cases[i].what == 1)
            p.series[1].n = 0;
        else if (cases[i].what == 2)
            p.series[1].y[1] = NAN;
        else if (cases[i].what == 3)
            p.series[0].x[0] = 0;
        else
            p.series[0].style = KIT_VIZ_STYLES;
        int rc = kit_viz_plot_axes(&p, &x, &y, err, sizeof err);
        KIT_ASSERT_MSG(rc == -1 && strstr(err, cases[i].want), "case %zu: expected a refusal with \"%s\", got %d \"%s\"",
                       i, cases[i].want, rc, err);
        FILE *f = temp_file();
        rc = kit_viz_render_plot_svg(f, &p, err, sizeof err);
        char *svg = slurp(f);
        fclose(f);
        KIT_ASSERT_MSG(rc == -1 && svg[0] == '\0', "case %zu: the SVG is refused and nothing is written", i);
        free(svg);
    }
}

/* Renders a plot to a malloc'ed string, or NULL after failing the test. */
static char *render_plot(const kit_viz_plot *p)
{
    char err[256] = "";
    FILE *f = temp_file();
    int rc = kit_viz_render_plot_svg(f, p, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0, "kit_viz_render_plot_svg refused: %s", err);
    char *svg = rc == 0 ? slurp(f) : NULL;
    fclose(f);
    return svg;
}

static void test_plot_svg(void)
{
    kit_viz_plot p;
    two_lines(&p);
    char *svg = render_plot(&p), *again = render_plot(&p);
    if (!svg || !again)
        goto done;
    size_t len = strlen(svg);
    KIT_ASSERT_MSG(strncmp(svg, "<?xml", 5) == 0 && len > 7 && strcmp(svg + len - 7, "</svg>\n") == 0,
                   "an SVG from <?xml to </svg>");
    KIT_ASSERT_MSG(strcmp(svg, again) == 0, "two renderings of one plot differ");
    KIT_ASSERT_MSG(count_of(svg, "<polyline") == 2, "one polyline per line: expected 2, got %zu",
                   count_of(svg, "<polyline"));
    /* Style 0 draws circles, style 1 squares: a marker per point and one per legend entry. */
    KIT_ASSERT_MSG(count_of(svg, "<circle") == 3 && count_of(svg, "width=\"7\" height=\"7\"") == 4,
                   "markers: expected 3 circles and 4 squares, got %zu and %zu", count_of(svg, "<circle"),
                   count_of(svg, "width=\"7\" height=\"7\""));
    KIT_ASSERT_MSG(count_of(svg, "stroke-dasharray=\"6 4\"") == 2, "the dashed line and its legend sample are dashed");
    KIT_ASSERT_MSG(strstr(svg, ">b &lt;&amp;&gt;</text>") != NULL && strstr(svg, "<title>two lines</title>"),
                   "the legend's names are escaped, the title is the <title>");
    KIT_ASSERT_MSG(strstr(svg, "2<tspan dy=\"-6\" font-size=\"9\">11</tspan>") != NULL, "log2 ticks read 2^k");
    KIT_ASSERT_MSG(strstr(svg, "stroke=\"#888888\"") != NULL, "y spans 0 (-2 .. 12): a line at 0");
    p.series[1].y[0] = 2;
    free(svg);
    svg = render_plot(&p);
    if (svg)
        KIT_ASSERT_MSG(strstr(svg, "stroke=\"#888888\"") == NULL, "y from 0 up: no line at 0");
done:
    free(svg);
    free(again);
}

/* ---- sort_bench's logs -------------------------------------------------------------------- */

#define SMALL_LOG_HEAD                                                                   \
    "device: NVIDIA Test GPU, 4 SMs; times are medians of 7, copy included\n"            \
    "n      input   sorter                   ms   Gkeys/s    x cub\n"
#define SMALL_LOG_ROW "2^20   random  cub                   0.100     10.49     1.00\n"
#define SMALL_LOG_WORST                                                                  \
    "\n"                                                                                 \
    "lab 8's worst case against random input of the same size (n = u*E*2^k nearest to 2^lg)\n" \
    "n          (E, u)    sorter            random ms   worst ms  slowdown   worst Gk/s\n"

/* A log with both tables: CUB, a baseline and a CF sort; a copy, a sorted input; three worst-case rows. */
static const char small_log[] =
    SMALL_LOG_HEAD
    "2^20   random  copy alone            0.010    104.86         \n"
    SMALL_LOG_ROW
    "2^20   random  baseline-17-256       0.125      8.39     0.80\n"
    "2^20   random  cf-17-256             0.200      5.24     0.50\n"
    "2^20   sorted  cub                   0.050     20.97     1.00\n"
    "2^22   random  cub                   0.400     10.49     1.00\n"
    "2^22   random  baseline-17-256       0.250     16.78     1.60\n"
    "2^22   random  cf-17-256             0.500      8.39     0.80\n"
    SMALL_LOG_WORST
    "1114112    (17, 256) cub                   0.100      0.150     50.0%         7.43\n"
    "1114112    (17, 256) cf-17-256             0.200      0.190     -5.0%         5.86\n"
    "4456448    (17, 256) cub                   0.400      0.500     25.0%         8.91\n";

/* Reads a log from a string, named mem.log; returns kit_sortlog_read()'s result. */
static int read_log(const char *text, kit_sortlog *log, char *err, size_t errlen)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    if (!f)
        f = temp_file(); /* fmemopen of an empty buffer fails on some libcs: an empty file instead */
    int rc = kit_sortlog_read(f, "mem.log", log, err, errlen);
    fclose(f);
    return rc;
}

static void test_sortlog_read(void)
{
    kit_sortlog log;
    char err[512] = "";
    int rc = read_log(small_log, &log, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0, "the small log: refused: %s", err);
    if (rc != 0)
        return;
    KIT_ASSERT_MSG(strcmp(log.device, "NVIDIA Test GPU") == 0, "device: got '%s'", log.device);
    KIT_ASSERT_MSG(log.ntimes == 8 && log.nworst == 3, "expected 8 and 3 rows, got %zu and %zu", log.ntimes,
                   log.nworst);
    const kit_sortlog_time *copy = &log.time[0], *base = &log.time[2];
    KIT_ASSERT_MSG(copy->line == 3 && copy->lg == 20 && strcmp(copy->sorter, "copy alone") == 0 && !copy->has_x_cub &&
                       copy->ms == 0.010 && copy->gkeys == 104.86,
                   "row 1: the copy alone at 2^20, line 3");
    KIT_ASSERT_MSG(base->line == 5 && strcmp(base->input, "random") == 0 && strcmp(base->sorter, "baseline-17-256") == 0 &&
                       base->has_x_cub && base->ms == 0.125 && base->gkeys == 8.39 && base->x_cub == 0.80,
                   "row 3: baseline-17-256 at 2^20, line 5");
    KIT_ASSERT_MSG(strcmp(log.time[4].input, "sorted") == 0 && log.time[7].lg == 22, "rows 5 and 8: sorted, 2^22");
    const kit_sortlog_worst *w = &log.worst[1];
    KIT_ASSERT_MSG(w->line == 15 && w->n == 1114112 && w->E == 17 && w->u == 256 && strcmp(w->sorter, "cf-17-256") == 0 &&
                       w->random_ms == 0.200 && w->worst_ms == 0.190 && w->slowdown == -5.0 && w->worst_gkeys == 5.86,
                   "worst row 2: cf-17-256 at 1114112, line 15");
    kit_sortlog_free(&log);
    KIT_ASSERT_MSG(log.ntimes == 0 && log.time == NULL && log.nworst == 0 && log.worst == NULL, "freed: empty");
    kit_sortlog_free(&log);
    /* A --quick log has no worst-case table. */
    rc = read_log(SMALL_LOG_HEAD SMALL_LOG_ROW, &log, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && log.ntimes == 1 && log.nworst == 0, "a quick log: got %d \"%s\"", rc, err);
    kit_sortlog_free(&log);
    /* The benchmark's PASS lines and its lines on the speed targets, met or not, are passed over. */
    rc = read_log("device: NVIDIA Test GPU, 4 SMs; times are medians of 7, copy included\n"
                  "PASS: no local memory in the kit's sort kernels (6 sorters, int32 and kv32)\n"
                  "n      input   sorter                   ms   Gkeys/s    x cub\n" SMALL_LOG_ROW
                  "FAIL: target 1 (a CF sort >= 1.00x cub at 2^20, random int32): cf-17-256 at 0.80x\n"
                  "PASS: target 1 (a CF sort >= 1.00x cub at 2^22, random int32): cf-17-256 at 1.01x\n",
                  &log, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && log.ntimes == 1 && log.time[0].line == 4, "a log with target lines: got %d \"%s\"", rc, err);
    kit_sortlog_free(&log);
}

static void test_sortlog_refusals(void)
{
    static const char too_long[] = SMALL_LOG_HEAD "2^20 random cub 0.100 10.49 1.00"
        "                                                                                                    "
        "                                                                                                    "
        "                                                                                                    "
        "                                                                                                    "
        "                                                                                                    x\n";
    static const struct {
        const char *text;
        const char *want; /* in the message, after "mem.log:" */
    } cases[] = {
        {SMALL_LOG_HEAD "2^20   random  cub  0.100  abc  1.00\n", "3: expected a row 'n input sorter"},
        {SMALL_LOG_HEAD "2^20   random  cub  0.100  10.49\n", "3: expected a row 'n input sorter"},
        {SMALL_LOG_HEAD "2^x    random  cub  0.100  10.49  1.00\n", "3: expected a row"},
        {SMALL_LOG_HEAD "2^20   random  cub  -0.100  10.49  1.00\n", "3: expected a row"},
        {SMALL_LOG_HEAD "2^20   random  cub  0.100  99.00  1.00\n", "3: expected Gkeys/s = 2^K / ms"},
        {SMALL_LOG_HEAD "FAIL: cf-17-256 gives a different result from cub at 2^20 (random)\n", "3: expected no failure"},
        {SMALL_LOG_HEAD "FAIL: cf-15-512 on int32 keeps 64 bytes a thread in local memory\n", "3: expected no failure"},
        {SMALL_LOG_HEAD "FAIL: targets\n", "3: expected no failure"},
        {"device: G, 4 SMs; times\nn input sorter ms\n", "2: expected the header 'n input sorter"},
        {"hello\n", "1: expected the device line"},
        {"device: NVIDIA H100; times\n", "1: expected the device line"},
        {"", "1: expected the device line 'device: NAME, N SMs; ...', got the end of the file"},
        {"device: G, 4 SMs; times\n", "2: expected the first table's header"},
        {SMALL_LOG_HEAD, "3: expected a row"},
        {SMALL_LOG_HEAD SMALL_LOG_ROW "\nlab 8's worst case against random input\n", "6: expected the worst-case table's header"},
        {SMALL_LOG_HEAD SMALL_LOG_ROW SMALL_LOG_WORST "1114112 (17, 256) cub 0.100 0.150 50.0 7.43\n", "7: expected a row 'n (E, u)"},
        {SMALL_LOG_HEAD SMALL_LOG_ROW SMALL_LOG_WORST "1114112 (17, 256) cub 0.100 0.150 50.0% 7.43 x\n", "7: expected a row 'n (E, u)"},
        {SMALL_LOG_HEAD SMALL_LOG_ROW SMALL_LOG_WORST "1114112 (17, 256) cub 0.100 0.150 40.0% 7.43\n", "7: expected slowdown"},
        {SMALL_LOG_HEAD SMALL_LOG_ROW SMALL_LOG_WORST "1114112 (17, 256) cub 0.100 0.150 50.0% 9.99\n", "7: expected worst Gk/s"},
        {too_long, "3: expected a line of at most"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        kit_sortlog log;
        char err[512] = "", want[160];
        snprintf(want, sizeof want, "mem.log:%s", cases[i].want);
        int rc = read_log(cases[i].text, &log, err, sizeof err);
        KIT_ASSERT_MSG(rc == -1 && strncmp(err, want, strlen(want)) == 0 && strstr(err, ", got "),
                       "case %zu: expected a refusal starting \"%s\" and saying what it got, got %d \"%s\"", i, want,
                       rc, err);
        KIT_ASSERT_MSG(log.ntimes == 0 && log.time == NULL && log.worst == NULL, "case %zu: the log is left empty", i);
    }
}

/* Checks a plot's line: its name, style, dashes and points. */
static void expect_series(const kit_viz_plot *p, size_t i, const char *name, unsigned style, int dashed, size_t n,
                          const double *x, const double *y)
{
    if (i >= p->nseries) {
        kit_test_fail(__FILE__, __LINE__, "line %zu (%s): the plot has only %zu lines", i, name, p->nseries);
        return;
    }
    const kit_viz_series *s = &p->series[i];
    KIT_ASSERT_MSG(strcmp(s->name, name) == 0 && s->style == style && s->dashed == dashed && s->n == n,
                   "line %zu: expected %s, style %u, %s, %zu points; got %s, %u, %d, %zu", i, name, style,
                   dashed ? "dashed" : "solid", n, s->name, s->style, s->dashed, s->n);
    for (size_t k = 0; k < n && k < s->n; k++)
        KIT_ASSERT_MSG(s->x[k] == x[k] && s->y[k] == y[k], "%s, point %zu: expected (%g, %g), got (%g, %g)", name, k,
                       x[k], y[k], s->x[k], s->y[k]);
}

static void test_sortlog_plots(void)
{
    kit_sortlog log;
    kit_viz_plot p;
    char err[512] = "";
    if (read_log(small_log, &log, err, sizeof err) != 0) {
        kit_test_fail(__FILE__, __LINE__, "the small log: %s", err);
        return;
    }
    int rc = kit_sortlog_throughput_plot(&log, "mem.log", &p, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && p.nseries == 3 && p.x_log2, "throughput: 3 lines (no copy, no sorted input), got %d \"%s\"",
                   rc, err);
    const double n2[] = {1048576, 4194304}, cub[] = {10.49, 10.49}, base[] = {8.39, 16.78}, cf[] = {5.24, 8.39};
    expect_series(&p, 0, "CUB", 0, 0, 2, n2, cub);
    expect_series(&p, 1, "baseline (17, 256)", 1, 1, 2, n2, base);
    expect_series(&p, 2, "CF (17, 256)", 1, 0, 2, n2, cf);
    KIT_ASSERT_MSG(strstr(p.title, "NVIDIA Test GPU") && strstr(p.title, "mem.log") && strstr(p.y_label, "Gkeys/s"),
                   "the title names the device and the file: '%s'", p.title);
    rc = kit_sortlog_slowdown_plot(&log, "mem.log", &p, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && p.nseries == 2, "slowdown: 2 lines, got %d \"%s\"", rc, err);
    const double nw[] = {1114112, 4456448}, cub_w[] = {50.0, 25.0}, cf_w[] = {-5.0};
    expect_series(&p, 0, "CUB", 0, 0, 2, nw, cub_w);
    expect_series(&p, 1, "CF (17, 256)", 1, 0, 1, nw, cf_w);
    KIT_ASSERT_MSG(strstr(p.title, "worst case") && strstr(p.title, "NVIDIA Test GPU") && strstr(p.title, "mem.log"),
                   "the title names the worst case, the device and the file: '%s'", p.title);
    kit_sortlog_free(&log);
}

static void test_sortlog_plots_refused(void)
{
    static const struct {
        const char *text;
        int slowdown;
        const char *want;
    } cases[] = {
        {SMALL_LOG_HEAD "2^22   random  cub  0.400  10.49  1.00\n" SMALL_LOG_ROW, 0,
         "mem.log:4: expected cub's n to grow from row to row, got 1048576 after 4194304"},
        {SMALL_LOG_HEAD "2^20   sorted  cub  0.050  20.97  1.00\n", 0, "mem.log: expected rows of sorters on random input"},
        {SMALL_LOG_HEAD SMALL_LOG_ROW, 1, "mem.log: expected the worst-case table"},
        {SMALL_LOG_HEAD "2^20 random s1 0.1 10.49 1\n2^20 random s2 0.1 10.49 1\n2^20 random s3 0.1 10.49 1\n"
                        "2^20 random s4 0.1 10.49 1\n2^20 random s5 0.1 10.49 1\n2^20 random s6 0.1 10.49 1\n"
                        "2^20 random s7 0.1 10.49 1\n2^20 random s8 0.1 10.49 1\n2^20 random s9 0.1 10.49 1\n"
                        "2^20 random s10 0.1 10.49 1\n2^20 random s11 0.1 10.49 1\n2^20 random s12 0.1 10.49 1\n"
                        "2^20 random s13 0.1 10.49 1\n",
         0, "mem.log:15: expected at most 12 sorters"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        kit_sortlog log;
        kit_viz_plot p;
        char err[512] = "";
        if (read_log(cases[i].text, &log, err, sizeof err) != 0) {
            kit_test_fail(__FILE__, __LINE__, "case %zu: the log itself was refused: %s", i, err);
            continue;
        }
        int rc = cases[i].slowdown ? kit_sortlog_slowdown_plot(&log, "mem.log", &p, err, sizeof err)
                                   : kit_sortlog_throughput_plot(&log, "mem.log", &p, err, sizeof err);
        KIT_ASSERT_MSG(rc == -1 && strncmp(err, cases[i].want, strlen(cases[i].want)) == 0,
                       "case %zu: expected \"%s\", got %d \"%s\"", i, cases[i].want, rc, err);
        kit_sortlog_free(&log);
    }
}

/* Both plots of a committed log: a line per sorter, axes that cover every point, a polyline per line. */
static void test_sortlog_committed(void)
{
    static const char *const logs[][2] = {{"results/2026-11-23-h100-sort-bench-tuned.log", "NVIDIA H100 80GB HBM3"},
                                          {"results/2026-11-23-h200-sort-bench-tuned.log", "NVIDIA H200"}};
    for (size_t i = 0; i < ARRAY_LEN(logs); i++) {
        FILE *f = fopen(logs[i][0], "r");
        kit_sortlog log;
        char err[512] = "";
        if (!f || kit_sortlog_read(f, logs[i][0], &log, err, sizeof err) != 0) {
            kit_test_fail(__FILE__, __LINE__, "%s: %s", logs[i][0], f ? err : "cannot open it (run from the kit's root)");
            if (f)
                fclose(f);
            continue;
        }
        fclose(f);
        KIT_ASSERT_MSG(strcmp(log.device, logs[i][1]) == 0 && log.ntimes == 80 && log.nworst == 35,
                       "%s: expected %s, 80 and 35 rows; got %s, %zu, %zu", logs[i][0], logs[i][1], log.device,
                       log.ntimes, log.nworst);
        for (int kind = 0; kind < 2; kind++) {
            kit_viz_plot p;
            kit_viz_axis x, y;
            int rc = kind ? kit_sortlog_slowdown_plot(&log, logs[i][0], &p, err, sizeof err)
                          : kit_sortlog_throughput_plot(&log, logs[i][0], &p, err, sizeof err);
            if (rc == 0)
                rc = kit_viz_plot_axes(&p, &x, &y, err, sizeof err);
            KIT_ASSERT_MSG(rc == 0 && p.nseries == 7, "%s, plot %d: expected 7 sorters, got %d \"%s\"", logs[i][0],
                           kind, rc, err);
            if (rc != 0)
                continue;
            expect_axes_cover(&p, &x, &y, logs[i][0]);
            char *svg = render_plot(&p);
            if (svg)
                KIT_ASSERT_MSG(count_of(svg, "<polyline") == 7, "%s: expected 7 polylines, got %zu", logs[i][0],
                               count_of(svg, "<polyline"));
            free(svg);
        }
        kit_sortlog_free(&log);
    }
}

/* ---- the benchplot tool, and the plots of handouts/figures ------------------------------------- */

static void test_benchplot_tool(void)
{
    char good[64], bad[64], *out, *err;
    temp_named(good, small_log);
    temp_named(bad, SMALL_LOG_HEAD "2^20   random  cub  0.100  abc  1.00\n");
    const struct {
        const char *args[5];
        int status;
        const char *want_err; /* NULL: a plot on stdout and nothing on stderr */
    } cases[] = {
        {{"--log", good, "--plot", "throughput"}, 0, NULL},
        {{"--log", good, "--plot", "slowdown"}, 0, NULL},
        {{"--help"}, 0, ""},
        {{"--log", bad, "--plot", "throughput"}, 2, ":3: expected a row 'n input sorter"},
        {{"--log", good, "--plot", "pie"}, 2, "--plot: expected throughput or slowdown, got pie"},
        {{"--log", good}, 2, "give both --log FILE and --plot"},
        {{"--log", "/nonexistent/x.log", "--plot", "slowdown"}, 2, "cannot open /nonexistent/x.log"},
        {{"--color"}, 2, "unknown option --color"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        int rc = run_program(BENCHPLOT, cases[i].args, &out, &err);
        KIT_ASSERT_MSG(rc == cases[i].status, "case %zu (%s): expected exit %d, got %d (%s)", i, cases[i].args[0],
                       cases[i].status, rc, err);
        if (!cases[i].want_err)
            KIT_ASSERT_MSG(strncmp(out, "<?xml", 5) == 0 && count_of(out, "<polyline") >= 2 && err[0] == '\0',
                           "case %zu: expected an SVG and a quiet stderr, got \"%.60s\" \"%s\"", i, out, err);
        else if (cases[i].status != 0)
            KIT_ASSERT_MSG(strstr(err, cases[i].want_err) && out[0] == '\0',
                           "case %zu: expected \"%s\" on stderr and nothing on stdout, got \"%s\"", i,
                           cases[i].want_err, err);
        else
            KIT_ASSERT_MSG(strstr(out, "usage: benchplot") != NULL, "--help prints the usage");
        free(out);
        free(err);
    }
    remove(good);
    remove(bad);
}

/* Compares the plots mk/bench-plots.sh wrote into dir with handouts/figures/; returns how many it wrote. */
static size_t compare_plots(const char *dir)
{
    size_t written = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e = d ? readdir(d) : NULL; e; e = readdir(d)) {
        if (e->d_name[0] == '.')
            continue;
        char path[512], committed[512], what[600];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        snprintf(committed, sizeof committed, "%s/%s", FIGURE_DIR, e->d_name);
        snprintf(what, sizeof what, "%s, drawn again by mk/bench-plots.sh", committed);
        char *got = read_file(path);
        if (got)
            expect_golden(committed, got, what, "make bench-plots");
        free(got);
        remove(path);
        written++;
    }
    if (d)
        closedir(d);
    rmdir(dir);
    return written;
}

static void test_bench_plots_committed(void)
{
    char dir[] = "/tmp/test_viz_plots_XXXXXX", *out, *err;
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(2);
    }
    const char *args[] = {"mk/bench-plots.sh", BENCHPLOT, dir, NULL};
    int rc = run_program("/bin/bash", args, &out, &err);
    KIT_ASSERT_MSG(rc == 0 && out[0] == '\0' && err[0] == '\0',
                   "bash mk/bench-plots.sh: expected exit 0 and no output, got %d \"%s\" \"%s\"", rc, out, err);
    free(out);
    free(err);
    size_t written = compare_plots(dir);
    KIT_ASSERT_MSG(written == 4, "mk/bench-plots.sh: expected 4 plots, got %zu", written);
    /* No plot in handouts/figures/ that the script no longer draws. */
    size_t committed = 0;
    DIR *d = opendir(FIGURE_DIR);
    for (struct dirent *e = d ? readdir(d) : NULL; e; e = readdir(d))
        committed += strncmp(e->d_name, "009-bench-", 10) == 0;
    if (d)
        closedir(d);
    KIT_ASSERT_MSG(committed == written, "%s holds %zu plots 009-bench-*, mk/bench-plots.sh draws %zu", FIGURE_DIR,
                   committed, written);
}

static void register_tests(void)
{
    CU_pSuite figs = kit_test_suite("the papers' figures");
    kit_test_add(figs, "names, summaries, unknown names", test_fig_names);
    kit_test_add(figs, "001 Fig. 2, 001 Fig. 3, 000 Fig. 1: thread ids cell for cell", test_fig_gather_cells);
    kit_test_add(figs, "001 Fig. 1: addresses, highlights, conflicts", test_fig_stride_cells);
    kit_test_add(figs, "001 Fig. 2 and 3: every round, A and B", test_fig_gather_rounds);
    kit_test_add(figs, "000 Fig. 1: aligned, misaligned, free", test_fig_sorted_categories);
    kit_test_add(figs, "the simulator's counts for each figure", test_fig_counts);

    CU_pSuite golden = kit_test_suite("golden files");
    kit_test_add(golden, "text renderings (common/tests/golden)", test_golden_text);
    kit_test_add(golden, "SVG renderings (handouts/figures)", test_golden_svg);

    CU_pSuite grid = kit_test_suite("grids and rendering");
    kit_test_add(grid, "multicast, conflicts, blanks, text layout", test_grid_multicast_and_conflict);
    kit_test_add(grid, "the text view fits 80 columns: wide grids in bands", test_text_fits_80_columns);
    kit_test_add(grid, "loads and stores apart, phases of wide accesses", test_grid_kinds_and_phases);
    kit_test_add(grid, "other warps and blocks, absolute thread ids, columns", test_grid_warps_blocks_columns);
    kit_test_add(grid, "refusals", test_grid_refusals);
    kit_test_add(grid, "the worst step: the warp with the most conflicts, its step with the most", test_worst_step);
    kit_test_add(grid, "SVG structure, colours, determinism, escaping", test_svg_basics);

    CU_pSuite trace = kit_test_suite("traces with a view");
    kit_test_add(trace, "dump and read back every figure", test_view_round_trip);
    kit_test_add(trace, "bad bankviz lines name the line", test_view_lines_refused);

    CU_pSuite tool = kit_test_suite("the bankviz tool");
    kit_test_add(tool, "--list and a good trace", test_tool_list_and_trace);
    kit_test_add(tool, "bad input: exit 2 and a message", test_tool_refusals);
    kit_test_add(tool, "--dump-trace then --trace draws the same picture", test_tool_dump_round_trip);
    if (access(BANKVIZ, X_OK) != 0)
        kit_test_skip_suite(tool, BANKVIZ " is not built (make " BANKVIZ ")");

    CU_pSuite plot = kit_test_suite("line plots");
    kit_test_add(plot, "kit_viz_plot_point: lines by name, limits", test_plot_point);
    kit_test_add(plot, "kit_viz_plot_axes: ranges that cover the points, ticks", test_plot_axes);
    kit_test_add(plot, "kit_viz_plot_axes: refusals, and nothing drawn for them", test_plot_axes_refused);
    kit_test_add(plot, "kit_viz_render_plot_svg: a polyline per line, markers, legend, determinism", test_plot_svg);

    CU_pSuite log = kit_test_suite("sort_bench logs");
    kit_test_add(log, "kit_sortlog_read: both tables, row for row", test_sortlog_read);
    kit_test_add(log, "kit_sortlog_read: a malformed line is refused with its file and line", test_sortlog_refusals);
    kit_test_add(log, "kit_sortlog_throughput_plot and kit_sortlog_slowdown_plot", test_sortlog_plots);
    kit_test_add(log, "the plots refuse what they cannot draw", test_sortlog_plots_refused);
    kit_test_add(log, "the committed logs of results/: 7 sorters, axes that cover them", test_sortlog_committed);

    CU_pSuite bench = kit_test_suite("the benchplot tool");
    kit_test_add(bench, "good and bad logs and options: exit status and messages", test_benchplot_tool);
    kit_test_add(bench, "handouts/figures/009-bench-*.svg are what make bench-plots draws", test_bench_plots_committed);
    if (access(BENCHPLOT, X_OK) != 0)
        kit_test_skip_suite(bench, BENCHPLOT " is not built (make " BENCHPLOT ")");
}

int main(void)
{
    return kit_test_main("viz tests", register_tests);
}
