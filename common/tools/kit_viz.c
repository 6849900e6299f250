/* Builds and draws bank grids (see kit_viz.h), and holds the handouts' figures as scenarios of accesses. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kit_types.h"
#include "kit_viz.h"

#define FILL_HIGHLIGHT "#7bc67b"
#define FILL_CONFLICT "#e06666"
#define FILL_EMPTY "#ffffff"
#define MAX_WORD_BYTES 64 /* the simulator's limit on a bank's width */

/* What each category looks like in the text map, the SVG and the legend. */
static const struct {
    const char *name;    /* in "# bankviz" lines */
    char letter;         /* in the text map; '-' for none in "# bankviz" lines */
    const char *fill;    /* SVG colour */
    const char *meaning; /* legend */
} cat_style[KIT_VIZ_CAT_COUNT] = {
    {"none", '-', FILL_EMPTY, "no category"},
    {"A", 'A', "#fbe7a1", "an element of the A list (yellow)"},
    {"B", 'B', "#a9c8ef", "an element of the B list (blue)"},
    {"aligned", '+', FILL_HIGHLIGHT, "aligned: read in the step whose number is its bank (green)"},
    {"misaligned", 'x', FILL_CONFLICT, "misaligned: in the chosen banks but read in another step (red)"},
    {"free", '.', "#d9d9d9", "outside the chosen banks: no bearing on the conflicts (gray)"},
};

void kit_viz_view_init(kit_viz_view *v)
{
    memset(v, 0, sizeof *v);
    v->model.w = 32;
    v->model.word_bytes = 4;
    v->label = KIT_VIZ_LABEL_THREAD;
    v->step = KIT_VIZ_FIRST_STEP;
}

static int check_model(const kit_bank_model *m, char *err, size_t errlen)
{
    if (m->w < 1 || m->w > KIT_VIZ_MAX_W) {
        snprintf(err, errlen, "w = %u: the number of banks must lie in 1 .. %d", m->w, KIT_VIZ_MAX_W);
        return -1;
    }
    if (m->word_bytes < 1 || m->word_bytes > MAX_WORD_BYTES) {
        snprintf(err, errlen, "word = %u bytes: a bank's width must lie in 1 .. %d bytes", m->word_bytes,
                 MAX_WORD_BYTES);
        return -1;
    }
    return 0;
}

static int in_warp(const kit_viz_view *v, const kit_access *a)
{
    return a->block == v->block && a->thread / v->model.w == v->warp;
}

/* Says why the view's warp has no accesses: no such block, or no such warp in it. */
static void no_warp_message(const kit_viz_view *v, const kit_access *acc, size_t n, char *err, size_t errlen)
{
    uint32_t max_block = 0, max_thread = 0;
    int block_seen = 0;
    for (size_t x = 0; x < n; x++) {
        max_block = acc[x].block > max_block ? acc[x].block : max_block;
        if (acc[x].block == v->block) {
            block_seen = 1;
            max_thread = acc[x].thread > max_thread ? acc[x].thread : max_thread;
        }
    }
    if (n == 0)
        snprintf(err, errlen, "the trace has no accesses");
    else if (!block_seen)
        snprintf(err, errlen, "block %" PRIu32 " has no accesses (the trace's blocks run from 0 to %" PRIu32 ")",
                 v->block, max_block);
    else
        snprintf(err, errlen,
                 "warp %" PRIu32 " of block %" PRIu32 " has no accesses (with w = %u the block's warps run from 0 to %" PRIu32 ")",
                 v->warp, v->block, v->model.w, max_thread / v->model.w);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The distinct ordinals of the view's warp, ascending; *ords is NULL when there are none. Returns -1 out of memory. */
static int warp_ordinals(const kit_viz_view *v, const kit_access *acc, size_t n, uint32_t **ords, size_t *count)
{
    size_t m = 0;
    *ords = NULL;
    *count = 0;
    for (size_t x = 0; x < n; x++)
        m += in_warp(v, &acc[x]);
    if (m == 0)
        return 0;
    uint32_t *ord = malloc(m * sizeof *ord);
    if (!ord)
        return -1;
    size_t k = 0;
    for (size_t x = 0; x < n; x++)
        if (in_warp(v, &acc[x]))
            ord[k++] = acc[x].ordinal;
    qsort(ord, m, sizeof *ord, cmp_u32);
    size_t distinct = 0;
    for (size_t x = 0; x < m; x++)
        if (distinct == 0 || ord[x] != ord[distinct - 1])
            ord[distinct++] = ord[x];
    *ords = ord;
    *count = distinct;
    return 0;
}

int kit_viz_warp_steps(const kit_viz_view *v, const kit_access *acc, size_t n, uint32_t **ordinals, size_t *count,
                       char *err, size_t errlen)
{
    *ordinals = NULL;
    *count = 0;
    if (check_model(&v->model, err, errlen) != 0)
        return -1;
    kit_bank_report rep;
    if (kit_bank_simulate(&v->model, acc, n, &rep, err, errlen) != 0)
        return -1; /* the simulator's own checks: sizes, thread and block limits */
    kit_bank_free(&rep);
    if (warp_ordinals(v, acc, n, ordinals, count) != 0) {
        snprintf(err, errlen, "out of memory listing the steps of %zu accesses", n);
        return -1;
    }
    if (*count == 0) {
        no_warp_message(v, acc, n, err, errlen);
        return -1;
    }
    return 0;
}

void kit_viz_grid_free(kit_viz_grid *g)
{
    free(g->cell);
    memset(g, 0, sizeof *g);
}

const kit_viz_cell *kit_viz_cell_at(const kit_viz_grid *g, unsigned bank, uint32_t col)
{
    if (!g->cell || bank >= g->w || col >= g->cols)
        return NULL;
    return &g->cell[(size_t)col * g->w + bank];
}

/* The words an access touches: first .. last, word indices in the model's banks. */
static void word_span(const kit_bank_model *m, const kit_access *a, uint64_t *first, uint64_t *last)
{
    *first = a->addr / m->word_bytes;
    *last = ((uint64_t)a->addr + a->size - 1) / m->word_bytes;
}

/*
 * Marks the cells of one kind (loads or stores) of the highlighted step, and the
 * conflicts among them. Phases are cut as kit_bank_simulate() cuts them: the
 * widest access sets p = size / word_bytes groups of w/p consecutive lanes (the
 * last group takes any lanes left over), and only words of the same group compete.
 */
static void mark_step(kit_viz_grid *g, const kit_bank_model *m, const kit_access *mine, size_t nmine, long step,
                      int write, uint32_t *stamp, uint32_t *pass, unsigned *bank_words, size_t *touched)
{
    unsigned widest = 0;
    for (size_t x = 0; x < nmine; x++)
        if (mine[x].ordinal == (uint32_t)step && mine[x].write == write && mine[x].size > widest)
            widest = mine[x].size;
    if (widest == 0)
        return; /* no access of this kind */
    unsigned parts = widest > m->word_bytes ? widest / m->word_bytes : 1;
    if (parts > m->w)
        parts = m->w;
    unsigned lanes_per_part = m->w / parts;
    uint64_t base = (uint64_t)g->first_col * g->w;
    for (unsigned p = 0; p < parts; p++) {
        size_t nt = 0;
        (*pass)++;
        for (size_t x = 0; x < nmine; x++) {
            const kit_access *a = &mine[x];
            if (a->ordinal != (uint32_t)step || a->write != write)
                continue;
            unsigned part = (a->thread % m->w) / lanes_per_part;
            if ((part < parts ? part : parts - 1) != p)
                continue;
            uint64_t first, last;
            word_span(m, a, &first, &last);
            for (uint64_t wd = first; wd <= last; wd++) {
                size_t at = (size_t)(wd - base);
                g->cell[at].highlight = 1;
                if (stamp[at] != *pass) {
                    stamp[at] = *pass; /* a word counts once however many threads read it: multicast */
                    bank_words[wd % g->w]++;
                    touched[nt++] = at;
                }
            }
        }
        for (size_t x = 0; x < nt; x++)
            if (bank_words[touched[x] % g->w] > 1)
                g->cell[touched[x]].conflict = 1;
        for (size_t x = 0; x < nt; x++)
            bank_words[touched[x] % g->w] = 0;
    }
}

/* What kit_viz_grid_build() draws from: the view's warp's accesses, and those of the step it highlights. */
typedef struct warp_trace {
    kit_access *mine;   /* the warp's accesses, each moved to block 0 */
    size_t nmine;
    uint32_t low_ord;   /* the lowest ordinal among them */
    kit_access *chosen; /* room for nmine; the accesses of the highlighted step */
    size_t nchosen;
} warp_trace;

static int out_of_memory(const warp_trace *wt, char *err, size_t errlen)
{
    snprintf(err, errlen, "out of memory drawing %zu accesses", wt->nmine);
    return -1;
}

/* Copies the view's warp's accesses out of the trace. Returns -1 with a message if it has none. */
static int warp_take(const kit_viz_view *v, const kit_access *acc, size_t n, warp_trace *wt, char *err, size_t errlen)
{
    for (size_t x = 0; x < n; x++)
        wt->nmine += in_warp(v, &acc[x]);
    if (wt->nmine == 0) {
        no_warp_message(v, acc, n, err, errlen);
        return -1;
    }
    wt->mine = malloc(wt->nmine * sizeof *wt->mine);
    wt->chosen = malloc(wt->nmine * sizeof *wt->chosen);
    if (!wt->mine || !wt->chosen)
        return out_of_memory(wt, err, errlen);
    /* Block 0 for all: the simulator then sizes its per-block arrays for one block, whatever the index. */
    wt->low_ord = UINT32_MAX;
    size_t k = 0;
    for (size_t x = 0; x < n; x++)
        if (in_warp(v, &acc[x])) {
            wt->mine[k] = acc[x];
            wt->mine[k].block = 0;
            wt->low_ord = wt->mine[k].ordinal < wt->low_ord ? wt->mine[k].ordinal : wt->low_ord;
            k++;
        }
    return 0;
}

/*
 * Checks the warp's accesses with the simulator, settles the step to highlight
 * (the lowest ordinal for KIT_VIZ_FIRST_STEP) and keeps its accesses in chosen,
 * and gives the grid its step count and the simulator's counts: of that step, or
 * of all the warp's accesses when no step is highlighted.
 */
static int grid_counts(const kit_viz_view *v, long *step, const kit_access *acc, size_t n, warp_trace *wt,
                       kit_viz_grid *g, char *err, size_t errlen)
{
    kit_bank_report rep;
    uint32_t *ords = NULL;
    size_t nords;
    int rc = -1;
    memset(&rep, 0, sizeof rep);
    if (kit_bank_simulate(&v->model, wt->mine, wt->nmine, &rep, err, errlen) != 0)
        goto done; /* bad sizes or thread ids, in the simulator's words */
    if (warp_ordinals(v, acc, n, &ords, &nords) != 0) {
        out_of_memory(wt, err, errlen);
        goto done;
    }
    g->warp_steps = (uint32_t)nords;
    if (*step == KIT_VIZ_FIRST_STEP)
        *step = wt->low_ord;
    if (*step >= 0) {
        for (size_t x = 0; x < wt->nmine; x++)
            if (wt->mine[x].ordinal == (uint32_t)*step)
                wt->chosen[wt->nchosen++] = wt->mine[x];
        if (wt->nchosen == 0) {
            snprintf(err, errlen,
                     "step %ld does not exist: warp %" PRIu32 " of block %" PRIu32 " has %zu step%s, ordinals %" PRIu32 " .. %" PRIu32,
                     *step, v->warp, v->block, nords, nords == 1 ? "" : "s", ords[0], ords[nords - 1]);
            goto done;
        }
        kit_bank_free(&rep);
        if (kit_bank_simulate(&v->model, wt->chosen, wt->nchosen, &rep, err, errlen) != 0)
            goto done;
    }
    g->load = rep.load;
    g->store = rep.store;
    rc = 0;
done:
    free(ords);
    kit_bank_free(&rep);
    return rc;
}

/* Gives the grid its columns, from the one holding the warp's lowest word to the one holding its highest, and its cells. */
static int grid_shape(const kit_bank_model *m, const warp_trace *wt, long step, kit_viz_grid *g, char *err,
                      size_t errlen)
{
    uint64_t low = UINT64_MAX, high = 0;
    for (size_t x = 0; x < wt->nmine; x++) {
        uint64_t first, last;
        word_span(m, &wt->mine[x], &first, &last);
        low = first < low ? first : low;
        high = last > high ? last : high;
    }
    uint64_t first_col = low / m->w, cols = high / m->w - first_col + 1;
    if (cols * m->w > KIT_VIZ_MAX_CELLS) {
        snprintf(err, errlen,
                 "the warp's accesses span words %" PRIu64 " .. %" PRIu64 ", %" PRIu64 " cells with w = %u; at most %u can be drawn",
                 low, high, cols * m->w, m->w, KIT_VIZ_MAX_CELLS);
        return -1;
    }
    g->w = m->w;
    g->first_col = (uint32_t)first_col;
    g->cols = (uint32_t)cols;
    g->step = step;
    g->cell = calloc((size_t)cols * m->w, sizeof *g->cell);
    return g->cell ? 0 : out_of_memory(wt, err, errlen);
}

/* Fills every cell's word and category, and the lowest thread of the warp that touches it in any step. */
static void grid_label(const kit_viz_view *v, const warp_trace *wt, kit_viz_grid *g)
{
    size_t ncells = (size_t)g->cols * g->w;
    uint64_t base = (uint64_t)g->first_col * g->w;
    for (size_t c = 0; c < ncells; c++) {
        uint64_t word = base + c;
        g->cell[c].word = (uint32_t)word;
        g->cell[c].thread = -1;
        g->cell[c].cat = word < v->ncat && v->cat[word] < KIT_VIZ_CAT_COUNT ? v->cat[word] : KIT_VIZ_CAT_NONE;
    }
    for (size_t x = 0; x < wt->nmine; x++) {
        uint64_t first, last;
        word_span(&v->model, &wt->mine[x], &first, &last);
        for (uint64_t wd = first; wd <= last; wd++) {
            kit_viz_cell *c = &g->cell[wd - base];
            int32_t t = (int32_t)wt->mine[x].thread;
            if (c->thread < 0)
                c->thread = t;
            else if (c->thread != t) {
                c->shared = 1;
                c->thread = t < c->thread ? t : c->thread;
            }
        }
    }
}

/* Marks the highlighted step's cells and conflicts, loads then stores. */
static int grid_mark(const kit_bank_model *m, const warp_trace *wt, kit_viz_grid *g, char *err, size_t errlen)
{
    size_t ncells = (size_t)g->cols * g->w;
    uint32_t *stamp = calloc(ncells, sizeof *stamp);
    uint32_t pass = 0;
    size_t *touched = malloc(ncells * sizeof *touched);
    unsigned *bank_words = calloc(m->w, sizeof *bank_words);
    int rc = stamp && touched && bank_words ? 0 : out_of_memory(wt, err, errlen);
    if (rc == 0) {
        mark_step(g, m, wt->chosen, wt->nchosen, g->step, 0, stamp, &pass, bank_words, touched);
        mark_step(g, m, wt->chosen, wt->nchosen, g->step, 1, stamp, &pass, bank_words, touched);
    }
    free(stamp);
    free(touched);
    free(bank_words);
    return rc;
}

int kit_viz_grid_build(const kit_viz_view *v, long step, const kit_access *acc, size_t n, kit_viz_grid *g, char *err,
                       size_t errlen)
{
    warp_trace wt;
    memset(&wt, 0, sizeof wt);
    memset(g, 0, sizeof *g);
    if (check_model(&v->model, err, errlen) != 0)
        return -1;
    if (step < KIT_VIZ_FIRST_STEP || step > (long)UINT32_MAX) {
        snprintf(err, errlen, "step %ld is not an ordinal", step);
        return -1;
    }
    int rc = warp_take(v, acc, n, &wt, err, errlen);
    if (rc == 0)
        rc = grid_counts(v, &step, acc, n, &wt, g, err, errlen);
    if (rc == 0)
        rc = grid_shape(&v->model, &wt, step, g, err, errlen);
    if (rc == 0) {
        grid_label(v, &wt, g);
        if (step >= 0)
            rc = grid_mark(&v->model, &wt, g, err, errlen);
    }
    free(wt.mine);
    free(wt.chosen);
    if (rc != 0)
        kit_viz_grid_free(g);
    return rc;
}

/* ---- rendering ------------------------------------------------------------------ */

static int same_shape(const kit_viz_grid *g, size_t ng)
{
    if (ng == 0 || !g[0].cell)
        return 0;
    for (size_t i = 1; i < ng; i++)
        if (g[i].w != g[0].w || g[i].first_col != g[0].first_col || g[i].cols != g[0].cols || !g[i].cell)
            return 0;
    return 1;
}

/* A cell's label: its word index, or its thread id ("7+" when higher threads share the word), or "". */
static void cell_label(const kit_viz_view *v, const kit_viz_cell *c, char *buf, size_t len)
{
    if (v->label == KIT_VIZ_LABEL_WORD)
        snprintf(buf, len, "%" PRIu32, c->word);
    else if (c->thread < 0)
        buf[0] = '\0';
    else
        snprintf(buf, len, "%" PRId32 "%s", c->thread, c->shared ? "+" : "");
}

static size_t label_width(const kit_viz_view *v, const kit_viz_grid *g)
{
    size_t widest = 1;
    char buf[24];
    for (size_t c = 0; c < (size_t)g->cols * g->w; c++) {
        cell_label(v, &g->cell[c], buf, sizeof buf);
        widest = strlen(buf) > widest ? strlen(buf) : widest;
    }
    return widest;
}

/* 1 if a dividing line runs just before grid column col (never before the first). */
static int divider_before(const kit_viz_view *v, const kit_viz_grid *g, uint32_t col)
{
    if (col == 0)
        return 0;
    uint64_t word = ((uint64_t)g->first_col + col) * g->w;
    for (unsigned i = 0; i < v->ndividers && i < KIT_VIZ_MAX_DIVIDERS; i++)
        if (v->divider[i] == word)
            return 1;
    return 0;
}

static const char *step_word(const kit_viz_view *v)
{
    return v->rounds ? "round" : "step";
}

static int any_category(const kit_viz_grid *g, int *present)
{
    int any = 0;
    for (int c = 0; c < KIT_VIZ_CAT_COUNT; c++)
        present[c] = 0;
    for (size_t x = 0; x < (size_t)g->cols * g->w; x++)
        present[g->cell[x].cat] = 1;
    for (int c = 1; c < KIT_VIZ_CAT_COUNT; c++)
        any |= present[c];
    return any;
}

static int any_shared(const kit_viz_view *v, const kit_viz_grid *g)
{
    if (v->label != KIT_VIZ_LABEL_THREAD)
        return 0;
    for (size_t x = 0; x < (size_t)g->cols * g->w; x++)
        if (g->cell[x].shared)
            return 1;
    return 0;
}

static int any_divider(const kit_viz_view *v, const kit_viz_grid *g)
{
    for (uint32_t c = 1; c < g->cols; c++)
        if (divider_before(v, g, c))
            return 1;
    return 0;
}

/* The text view fits a terminal of this many columns: prose is wrapped, a wide grid drawn in bands of columns. */
#define TEXT_WIDTH 80

/*
 * Writes prefix then s, wrapped at TEXT_WIDTH columns at blanks, each later line starting with
 * `indent` blanks; a word longer than a line (a long path) gets a line of its own.
 */
static void text_wrapped(FILE *f, const char *prefix, int indent, const char *s)
{
    int col = fprintf(f, "%s", prefix), fresh = 1;
    while (*s) {
        while (*s == ' ')
            s++;
        int n = (int)strcspn(s, " ");
        if (n == 0)
            break;
        if (!fresh && col + 1 + n > TEXT_WIDTH) {
            col = fprintf(f, "\n%*s", indent, "") - 1;
            fresh = 1;
        }
        col += fprintf(f, "%s%.*s", fresh ? "" : " ", n, s);
        fresh = 0;
        s += n;
    }
    fputc('\n', f);
}

/* The counts line(s) of one grid: "loads in round 0: papers' cost 1, profiler conflicts 0". */
static void text_counts(FILE *f, const kit_viz_view *v, const kit_viz_grid *g)
{
    const kit_bank_count *cnt[2] = {&g->load, &g->store};
    static const char *const kind[2] = {"loads", "stores"};
    for (int k = 0; k < 2; k++) {
        if (cnt[k]->steps == 0)
            continue;
        if (g->step >= 0)
            fprintf(f, "%s in %s %ld: ", kind[k], step_word(v), g->step);
        else
            fprintf(f, "%s in all %" PRIu64 " %s%s: ", kind[k], cnt[k]->steps, step_word(v), cnt[k]->steps == 1 ? "" : "s");
        fprintf(f, "papers' cost %" PRIu64 ", profiler conflicts %" PRIu64 "\n", cnt[k]->cost, cnt[k]->conflicts);
    }
}

/* Prints a line without its trailing blanks. */
static void put_trimmed(FILE *f, char *line, size_t len)
{
    while (len > 0 && line[len - 1] == ' ')
        len--;
    line[len] = '\0';
    fprintf(f, "%s\n", line);
}

/* The line that says what is drawn: the model, the warp, the words and what the cells show. */
static void describe(const kit_viz_view *v, const kit_viz_grid *g, char *buf, size_t len)
{
    uint64_t first = (uint64_t)g->first_col * g->w, last = first + (uint64_t)g->cols * g->w - 1;
    uint64_t t0 = (uint64_t)v->warp * g->w;
    snprintf(buf, len,
             "w = %u banks of %u bytes; block %" PRIu32 ", warp %" PRIu32 " (threads %" PRIu64 " .. %" PRIu64 "); words %" PRIu64 " .. %" PRIu64 " in %" PRIu32 " column%s; cells show %s",
             g->w, v->model.word_bytes, v->block, v->warp, t0, t0 + g->w - 1, first, last, g->cols,
             g->cols == 1 ? "" : "s",
             v->label == KIT_VIZ_LABEL_WORD ? "word indices (byte address / word size)" : "thread ids");
}

static int any_highlighted(const kit_viz_grid *g, size_t ng)
{
    int highlighted = 0;
    for (size_t i = 0; i < ng; i++)
        highlighted |= g[i].step >= 0;
    return highlighted;
}

/* The rows of the text rendering: one line per bank, built in a buffer before it is printed. */
typedef struct text_rows {
    char *line; /* the row being built */
    size_t cap; /* room in line */
    size_t len; /* characters in it so far */
    int rw;     /* the width of a row label such as "31:" */
    int lw;     /* the width of a cell's label */
} text_rows;

/* Starts bank b's row with its label. */
static void row_start(text_rows *r, unsigned b)
{
    r->len = (size_t)snprintf(r->line, r->cap, "%*u:", r->rw - 1, b);
}

/* Appends what grid column c shows to the row, after " |" where a dividing line runs before it (not at a band's first column c0). */
static void row_add(text_rows *r, const kit_viz_view *v, const kit_viz_grid *g, uint32_t c0, uint32_t c, const char *text)
{
    if (c > c0 && divider_before(v, g, c))
        r->len += (size_t)snprintf(r->line + r->len, r->cap - r->len, " |");
    r->len += (size_t)snprintf(r->line + r->len, r->cap - r->len, "%s", text);
}

/*
 * The end of the band of grid columns that starts at c0: as many columns of cell_w characters (and
 * their dividers) as fit TEXT_WIDTH after the row label, at least one.
 */
static uint32_t band_end(const kit_viz_view *v, const kit_viz_grid *g, const text_rows *r, int cell_w, uint32_t c0)
{
    size_t width = (size_t)r->rw + (size_t)cell_w;
    uint32_t c = c0 + 1;
    for (; c < g->cols; c++) {
        size_t more = (size_t)cell_w + (divider_before(v, g, c) ? 2 : 0);
        if (width + more > TEXT_WIDTH)
            break;
        width += more;
    }
    return c;
}

/* Names the words of columns [c0, c1) above their band, when the grid is drawn in several. */
static void band_heading(FILE *f, const kit_viz_grid *g, uint32_t c0, uint32_t c1)
{
    if (c0 == 0 && c1 == g->cols)
        return;
    uint64_t first = ((uint64_t)g->first_col + c0) * g->w, last = ((uint64_t)g->first_col + c1) * g->w - 1;
    fprintf(f, "words %" PRIu64 " .. %" PRIu64 " (columns %" PRIu32 " .. %" PRIu32 " of %" PRIu32 "):\n", first, last,
            c0, c1 - 1, g->cols);
}

/* One grid as text: its heading, a row per bank (highlighted cells in [ ], conflicts in < >) in bands that fit, its counts. */
static void text_grid(FILE *f, const kit_viz_view *v, const kit_viz_grid *g, text_rows *r)
{
    char label[24], text[32];
    if (g->step >= 0)
        fprintf(f, "\n%s %ld:\n", step_word(v), g->step);
    else
        fprintf(f, "\nno %s highlighted:\n", step_word(v));
    for (uint32_t c0 = 0, c1; c0 < g->cols; c0 = c1) {
        c1 = band_end(v, g, r, r->lw + 3, c0);
        band_heading(f, g, c0, c1);
        for (unsigned b = 0; b < g->w; b++) {
            row_start(r, b);
            for (uint32_t c = c0; c < c1; c++) {
                const kit_viz_cell *cell = &g->cell[(size_t)c * g->w + b];
                char open = ' ', close = ' ';
                if (cell->conflict)
                    open = '<', close = '>';
                else if (cell->highlight)
                    open = '[', close = ']';
                cell_label(v, cell, label, sizeof label);
                snprintf(text, sizeof text, " %c%*s%c", open, r->lw, label, close);
                row_add(r, v, g, c0, c, text);
            }
            put_trimmed(f, r->line, r->len);
        }
    }
    text_counts(f, v, g);
}

/* The legend under the grids (g[0] stands for their shape): only what they show, then what the two counts mean. */
static void text_legend(FILE *f, const kit_viz_view *v, const kit_viz_grid *g, size_t ng)
{
    char line[KIT_VIZ_TEXT_LEN + 64];
    fprintf(f, "\nlegend:\n");
    if (any_highlighted(g, ng)) {
        fprintf(f, "  [n] accessed in the %s shown\n", step_word(v));
        snprintf(line, sizeof line, "a conflict: its bank serves another word in the same %s (and phase)", step_word(v));
        text_wrapped(f, "  <n> ", 6, line);
    }
    if (any_shared(v, g))
        text_wrapped(f, "  n+  ", 6, "thread n and higher threads of the warp touch this word");
    if (any_divider(v, g))
        text_wrapped(f, "  |   ", 6, v->divider_meaning[0] ? v->divider_meaning : "a dividing line");
    text_wrapped(f, "  papers' cost: ", 4,
                 "per step, the most distinct words one bank serves (a word read by several threads counts once)");
    text_wrapped(f, "  profiler conflicts: ", 4, "the cost minus 1 per step (per phase, for accesses wider than a bank)");
}

/* The map of the categories, a letter per cell, and what each letter present means; nothing if no cell has one. */
static void text_categories(FILE *f, const kit_viz_view *v, const kit_viz_grid *g, text_rows *r)
{
    int present[KIT_VIZ_CAT_COUNT];
    if (!any_category(g, present))
        return;
    fprintf(f, "\ncategories:\n");
    for (uint32_t c0 = 0, c1; c0 < g->cols; c0 = c1) {
        c1 = band_end(v, g, r, 2, c0);
        band_heading(f, g, c0, c1);
        for (unsigned b = 0; b < g->w; b++) {
            row_start(r, b);
            for (uint32_t c = c0; c < c1; c++) {
                const kit_viz_cell *cell = &g->cell[(size_t)c * g->w + b];
                char text[3] = {' ', cell->cat == KIT_VIZ_CAT_NONE ? ' ' : cat_style[cell->cat].letter, '\0'};
                row_add(r, v, g, c0, c, text);
            }
            put_trimmed(f, r->line, r->len);
        }
    }
    for (int c = 1; c < KIT_VIZ_CAT_COUNT; c++)
        if (present[c]) {
            char prefix[8];
            snprintf(prefix, sizeof prefix, "  %c ", cat_style[c].letter);
            text_wrapped(f, prefix, 4, cat_style[c].meaning);
        }
}

int kit_viz_render_text(FILE *f, const kit_viz_view *v, const kit_viz_grid *g, size_t ng)
{
    if (!same_shape(g, ng))
        return -1;
    const kit_viz_grid *g0 = &g[0];
    char rowlab[16], desc[400];
    snprintf(rowlab, sizeof rowlab, "%u:", g0->w - 1);
    text_rows r = {NULL, 0, 0, (int)strlen(rowlab), (int)label_width(v, g0)};
    r.cap = (size_t)r.rw + (size_t)g0->cols * ((size_t)r.lw + 5) + 2;
    r.line = malloc(r.cap);
    if (!r.line)
        return -1;
    if (v->title[0])
        text_wrapped(f, "", 2, v->title);
    if (v->note[0])
        text_wrapped(f, "note: ", 6, v->note);
    describe(v, g0, desc, sizeof desc);
    text_wrapped(f, "", 2, desc);
    for (size_t i = 0; i < ng; i++)
        text_grid(f, v, &g[i], &r);
    text_legend(f, v, g, ng);
    text_categories(f, v, g0, &r);
    free(r.line);
    return ferror(f) ? -1 : 0;
}

/* Writes text with &, <, > and " escaped for XML. */
static void xml_put(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/*
 * Splits text into lines of at most width characters, breaking at blanks (a
 * longer word gets a line of its own). Returns the number of lines; with f
 * non-NULL, also writes each line as a <text> element, line_h apart from y.
 */
static int svg_wrapped(FILE *f, const char *s, size_t width, int x, int y, int line_h, const char *attrs)
{
    int lines = 0;
    while (*s) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        size_t len = strlen(s), take = len;
        if (len > width) {
            take = width;
            while (take > 0 && s[take] != ' ')
                take--;
            if (take == 0) { /* no blank to break at: run to the next one */
                take = width;
                while (take < len && s[take] != ' ')
                    take++;
            }
        }
        if (f) {
            char *part = malloc(take + 1);
            if (part) {
                memcpy(part, s, take);
                part[take] = '\0';
                fprintf(f, "<text x=\"%d\" y=\"%d\"%s>", x, y + lines * line_h, attrs);
                xml_put(f, part);
                fputs("</text>\n", f);
                free(part);
            }
        }
        lines++;
        s += take;
    }
    return lines;
}

/*
 * Layout of the SVG, in pixels; a 12 px monospace character is about 7.2 px wide. PLOT_: a line
 * plot's area, the room left of it for the y axis' labels and below it for the x axis', and its
 * legend's line samples and entries.
 */
enum {
    SVG_MARGIN = 12,
    SVG_CHAR = 8,
    SVG_CHAR_CENTI = 723, /* a 12 px character of DejaVu Sans Mono, in hundredths of a pixel */
    SVG_CELL_H = 20,
    SVG_GAP = 28,
    SVG_MIN_WIDTH = 460,
    SVG_LINE = 16,
    SVG_SWATCH = 14,
    PLOT_AREA_W = 460,
    PLOT_AREA_H = 300,
    PLOT_LEFT = 84,
    PLOT_BELOW = 48,
    PLOT_LEGEND_GAP = 28,
    PLOT_SAMPLE_W = 28,
    PLOT_ENTRY_H = 20,
};

/* The counts under one grid, short enough to fit under it: "ld: cost 1, conflicts 0". */
static int svg_counts(char lines[2][64], const kit_viz_grid *g)
{
    int k = 0;
    int both = g->load.steps && g->store.steps;
    if (g->load.steps)
        snprintf(lines[k++], 64, "%scost %" PRIu64 ", conflicts %" PRIu64, both ? "ld: " : "", g->load.cost,
                 g->load.conflicts);
    if (g->store.steps)
        snprintf(lines[k++], 64, "%scost %" PRIu64 ", conflicts %" PRIu64, both ? "st: " : "stores: ", g->store.cost,
                 g->store.conflicts);
    return k;
}

static void svg_swatch(FILE *f, int x, int y, const char *fill, const char *text)
{
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#9a9a9a\"/>\n", x, y,
            SVG_SWATCH, SVG_SWATCH, fill);
    fprintf(f, "<text x=\"%d\" y=\"%d\">", x + SVG_SWATCH + 8, y + 11);
    xml_put(f, text);
    fputs("</text>\n", f);
}

/* A vertical dashed line: a dividing line in a grid, or its sample in the legend. */
static void svg_dashed(FILE *f, int x, int y1, int y2)
{
    fprintf(f,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#555555\" stroke-width=\"2\" "
            "stroke-dasharray=\"5 3\"/>\n",
            x, y1, x, y2);
}

/*
 * The characters a line of small text (12 px) holds in a picture this wide, between its margins:
 * DejaVu Sans Mono draws a 12 px character 7.23 px wide (0.602 em), so 7 would let a full line
 * run past the right edge, where the picture cuts it.
 */
static size_t svg_chars(int width)
{
    return (size_t)((width - 2 * SVG_MARGIN) * 100 / SVG_CHAR_CENTI);
}

/* The width in pixels of chars characters of small text, rounded up. */
static int svg_text_width(size_t chars)
{
    return (int)((chars * SVG_CHAR_CENTI + 99) / 100);
}

/* The same for the title (14 px, bold). */
static size_t svg_title_chars(int width)
{
    return (size_t)(width - 2 * SVG_MARGIN) / 9;
}

/* The height that svg_begin()'s title and note take when they wrap to this width. */
static int svg_heading_height(int width, const char *title, const char *note)
{
    int title_lines = title[0] ? svg_wrapped(NULL, title, svg_title_chars(width), 0, 0, 0, "") : 0;
    int note_lines = note[0] ? svg_wrapped(NULL, note, svg_chars(width), 0, 0, 0, "") : 0;
    return title_lines * 18 + note_lines * SVG_LINE;
}

/*
 * Starts a picture width by height: the prologue, the <svg> element, its <title> (name, then " - "
 * and the note if there is one) and a white background, then the heading (bold) and the note
 * (italic), each wrapped as in a picture wrap wide and left out when empty. Returns the baseline of
 * the line after them.
 */
static int svg_begin(FILE *f, int width, int height, int wrap, const char *name, const char *heading, const char *note)
{
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" font-size=\"12\">\n",
            width, height, width, height);
    fputs("<title>", f);
    xml_put(f, name);
    if (note[0]) {
        fputs(" - ", f);
        xml_put(f, note);
    }
    fputs("</title>\n", f);
    fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width, height);
    int y = SVG_MARGIN + 14;
    if (heading[0])
        y += 18 * svg_wrapped(f, heading, svg_title_chars(wrap), SVG_MARGIN, y, 18,
                              " font-size=\"14\" font-weight=\"bold\"");
    if (note[0])
        y += SVG_LINE * svg_wrapped(f, note, svg_chars(wrap), SVG_MARGIN, y, SVG_LINE, " font-style=\"italic\"");
    return y;
}

static const char svg_cost_text[] =
    "cost: the papers' count, per step the most distinct words one bank serves; conflicts: the profiler's count, "
    "the cost minus 1 per step (per phase for accesses wider than a bank)";

/* Where everything of an SVG picture goes, in pixels, worked out before anything is written. */
typedef struct svg_layout {
    int cell_w, row_w, panel_w;        /* a cell; the row labels; one grid with its row labels */
    int width, height;                 /* the whole picture */
    size_t chars;                      /* the characters a line of small text holds */
    int top, grid_top, grid_h;         /* the grids' headings, their first row, their height */
    int legend_top;                    /* the legend's first item */
    int highlighted, shared, dividers; /* what the legend explains, besides the categories */
    int present[KIT_VIZ_CAT_COUNT];    /* the categories the grids show */
    char desc[400];                    /* the line that says what is drawn */
} svg_layout;

/* The heights, once the widths and the legend's items are known, so that the <svg> element can state its size. */
static void svg_plan_heights(const kit_viz_view *v, const kit_viz_grid *g0, int count_lines, svg_layout *L)
{
    int desc_lines = svg_wrapped(NULL, L->desc, L->chars, 0, 0, 0, "");
    L->top = SVG_MARGIN + svg_heading_height(L->width, v->title, v->note) + desc_lines * SVG_LINE + 8;
    L->grid_top = L->top + 22;
    L->grid_h = (int)g0->w * SVG_CELL_H;
    L->legend_top = L->grid_top + L->grid_h + 8 + count_lines * SVG_LINE + 12;
    int legend_items = 2 * L->highlighted + L->shared + L->dividers;
    for (int c = 1; c < KIT_VIZ_CAT_COUNT; c++)
        legend_items += L->present[c];
    int cost_lines = svg_wrapped(NULL, svg_cost_text, L->chars, 0, 0, 0, "");
    L->height = L->legend_top + legend_items * 20 + cost_lines * SVG_LINE + SVG_MARGIN;
}

/* The legend's item texts besides the categories' meanings (svg_legend() draws them). */
static const char svg_shared_text[] = "thread n and higher threads touch this word";

/* The two items of a highlighted step: what was accessed, and what conflicts; text holds len bytes. */
static void svg_highlight_texts(const kit_viz_view *v, int which, char *text, size_t len)
{
    if (which == 0)
        snprintf(text, len, "accessed in the %s shown", step_word(v));
    else
        snprintf(text, len, "a conflict: its bank serves another word in the same %s", step_word(v));
}

/* The characters of the longest legend item the picture shows (the items are not wrapped). */
static size_t legend_longest(const kit_viz_view *v, const svg_layout *L)
{
    char text[KIT_VIZ_TEXT_LEN + 80];
    size_t longest = 0;
    for (int which = 0; L->highlighted && which < 2; which++) {
        svg_highlight_texts(v, which, text, sizeof text);
        longest = strlen(text) > longest ? strlen(text) : longest;
    }
    for (int c = 1; c < KIT_VIZ_CAT_COUNT; c++)
        if (L->present[c] && strlen(cat_style[c].meaning) > longest)
            longest = strlen(cat_style[c].meaning);
    if (L->shared && strlen(svg_shared_text) > longest)
        longest = strlen(svg_shared_text);
    const char *divider = v->divider_meaning[0] ? v->divider_meaning : "a dividing line";
    if (L->dividers && strlen(divider) > longest)
        longest = strlen(divider);
    return longest;
}

/* Lays out ng grids side by side: their cells as wide as the widest label, the picture at least SVG_MIN_WIDTH. */
static void svg_plan(const kit_viz_view *v, const kit_viz_grid *g, size_t ng, svg_layout *L)
{
    const kit_viz_grid *g0 = &g[0];
    char rowlab[16], counts[2][64];
    int lw = (int)label_width(v, g0), count_lines = 0;
    snprintf(rowlab, sizeof rowlab, "%u:", g0->w - 1);
    L->cell_w = SVG_CHAR * (lw + 1) + 4 > 24 ? SVG_CHAR * (lw + 1) + 4 : 24;
    L->row_w = SVG_CHAR * (int)strlen(rowlab) + 6;
    L->panel_w = L->row_w + (int)g0->cols * L->cell_w;
    int content_w = (int)ng * L->panel_w + ((int)ng - 1) * SVG_GAP;
    for (size_t i = 0; i < ng; i++) {
        int k = svg_counts(counts, &g[i]);
        count_lines = k > count_lines ? k : count_lines;
    }
    L->highlighted = any_highlighted(g, ng);
    any_category(g0, L->present);
    L->shared = any_shared(v, g0);
    L->dividers = any_divider(v, g0);
    /* A legend item is one line beside its swatch: the picture is at least as wide as the longest. */
    int legend_w = SVG_SWATCH + 8 + svg_text_width(legend_longest(v, L));
    content_w = content_w > legend_w ? content_w : legend_w;
    L->width = (content_w > SVG_MIN_WIDTH ? content_w : SVG_MIN_WIDTH) + 2 * SVG_MARGIN;
    L->chars = svg_chars(L->width);
    describe(v, g0, L->desc, sizeof L->desc);
    svg_plan_heights(v, g0, count_lines, L);
}

/* The prologue, the heading and the description of the grids. */
static void svg_head(FILE *f, const kit_viz_view *v, const svg_layout *L)
{
    int y = svg_begin(f, L->width, L->height, L->width, v->title[0] ? v->title : "bank grid", v->title, v->note);
    svg_wrapped(f, L->desc, L->chars, SVG_MARGIN, y, SVG_LINE, " fill=\"#444444\"");
}

/* Bank b's row of a grid whose left edge is at x0: the bank's label, then a rect and a label per cell. */
static void svg_row(FILE *f, const kit_viz_view *v, const kit_viz_grid *g, unsigned b, int x0, const svg_layout *L)
{
    char label[24];
    int cy = L->grid_top + (int)b * SVG_CELL_H;
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%u:</text>\n", x0 + L->row_w - 6, cy + 14, b);
    for (uint32_t c = 0; c < g->cols; c++) {
        const kit_viz_cell *cell = &g->cell[(size_t)c * g->w + b];
        const char *fill = cell->conflict    ? FILL_CONFLICT
                           : cell->highlight ? FILL_HIGHLIGHT
                                             : cat_style[cell->cat].fill;
        int cx = x0 + L->row_w + (int)c * L->cell_w;
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#9a9a9a\"/>\n", cx, cy,
                L->cell_w, SVG_CELL_H, fill);
        cell_label(v, cell, label, sizeof label);
        if (label[0])
            fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", cx + L->cell_w / 2, cy + 14, label);
    }
}

/* One grid, its left edge at x0, as a <g>: its heading, its rows, its dividing lines, the counts under it. */
static void svg_panel(FILE *f, const kit_viz_view *v, const kit_viz_grid *g, int x0, const svg_layout *L)
{
    char text[KIT_VIZ_TEXT_LEN + 80], counts[2][64];
    int mid = x0 + L->row_w + (int)g->cols * L->cell_w / 2;
    fprintf(f, "<g>\n");
    if (g->step >= 0)
        snprintf(text, sizeof text, "%s %ld", step_word(v), g->step);
    else
        snprintf(text, sizeof text, "no %s highlighted", step_word(v));
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-weight=\"bold\">%s</text>\n", mid, L->top + 14,
            text);
    for (unsigned b = 0; b < g->w; b++)
        svg_row(f, v, g, b, x0, L);
    for (uint32_t c = 1; c < g->cols; c++)
        if (divider_before(v, g, c))
            svg_dashed(f, x0 + L->row_w + (int)c * L->cell_w, L->grid_top - 4, L->grid_top + L->grid_h + 4);
    int k = svg_counts(counts, g);
    for (int l = 0; l < k; l++)
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", mid,
                L->grid_top + L->grid_h + 8 + 12 + l * SVG_LINE, counts[l]);
    fprintf(f, "</g>\n");
}

/* The legend under the grids, an item per thing they show, then what the two counts mean. */
static void svg_legend(FILE *f, const kit_viz_view *v, const svg_layout *L)
{
    char text[KIT_VIZ_TEXT_LEN + 80];
    int y = L->legend_top;
    if (L->highlighted) {
        svg_highlight_texts(v, 0, text, sizeof text);
        svg_swatch(f, SVG_MARGIN, y, FILL_HIGHLIGHT, text);
        y += 20;
        svg_highlight_texts(v, 1, text, sizeof text);
        svg_swatch(f, SVG_MARGIN, y, FILL_CONFLICT, text);
        y += 20;
    }
    for (int c = 1; c < KIT_VIZ_CAT_COUNT; c++)
        if (L->present[c]) {
            svg_swatch(f, SVG_MARGIN, y, cat_style[c].fill, cat_style[c].meaning);
            y += 20;
        }
    if (L->shared) {
        fprintf(f, "<text x=\"%d\" y=\"%d\">n+</text>\n", SVG_MARGIN, y + 11);
        fprintf(f, "<text x=\"%d\" y=\"%d\">%s</text>\n", SVG_MARGIN + SVG_SWATCH + 8, y + 11, svg_shared_text);
        y += 20;
    }
    if (L->dividers) {
        svg_dashed(f, SVG_MARGIN + SVG_SWATCH / 2, y, y + SVG_SWATCH);
        fprintf(f, "<text x=\"%d\" y=\"%d\">", SVG_MARGIN + SVG_SWATCH + 8, y + 11);
        xml_put(f, v->divider_meaning[0] ? v->divider_meaning : "a dividing line");
        fputs("</text>\n", f);
        y += 20;
    }
    svg_wrapped(f, svg_cost_text, L->chars, SVG_MARGIN, y + 12, SVG_LINE, " fill=\"#444444\"");
}

int kit_viz_render_svg(FILE *f, const kit_viz_view *v, const kit_viz_grid *g, size_t ng)
{
    if (!same_shape(g, ng))
        return -1;
    svg_layout L;
    svg_plan(v, g, ng, &L);
    svg_head(f, v, &L);
    for (size_t i = 0; i < ng; i++)
        svg_panel(f, v, &g[i], SVG_MARGIN + (int)i * (L.panel_w + SVG_GAP), &L);
    svg_legend(f, v, &L);
    fputs("</svg>\n", f);
    return ferror(f) ? -1 : 0;
}

/* ---- line plots ----------------------------------------------------------------- */

/* A marker's shape. */
enum { MARK_CIRCLE, MARK_SQUARE, MARK_TRIANGLE, MARK_DIAMOND, MARK_DOWN };

/* A line's style: a colour (Okabe and Ito's palette, which colour-blind readers tell apart, black first) and a marker. */
static const struct {
    const char *colour;
    int marker;
} plot_style[KIT_VIZ_STYLES] = {
    {"#000000", MARK_CIRCLE},  {"#0072b2", MARK_SQUARE}, {"#d55e00", MARK_TRIANGLE}, {"#009e73", MARK_DIAMOND},
    {"#cc79a7", MARK_DOWN},    {"#e69f00", MARK_CIRCLE}, {"#56b4e9", MARK_SQUARE},   {"#8c564b", MARK_TRIANGLE},
};

int kit_viz_plot_point(kit_viz_plot *p, const char *series, double x, double y)
{
    size_t len = strlen(series), i = 0;
    if (len == 0 || len >= KIT_VIZ_NAME_LEN || p->nseries > KIT_VIZ_MAX_SERIES)
        return -1;
    while (i < p->nseries && strcmp(p->series[i].name, series) != 0)
        i++;
    if (i == KIT_VIZ_MAX_SERIES || (i < p->nseries && p->series[i].n >= KIT_VIZ_MAX_POINTS))
        return -1;
    kit_viz_series *s = &p->series[i];
    if (i == p->nseries) {
        memset(s, 0, sizeof *s);
        memcpy(s->name, series, len + 1);
        s->style = (unsigned)i % KIT_VIZ_STYLES;
        p->nseries++;
    }
    s->x[s->n] = x;
    s->y[s->n] = y;
    s->n++;
    return (int)i;
}

/* Says what is wrong with one line, or returns 0. */
static int plot_check_series(const kit_viz_plot *p, const kit_viz_series *s, char *err, size_t errlen)
{
    if (s->n == 0 || s->n > KIT_VIZ_MAX_POINTS) {
        snprintf(err, errlen, "line '%s' has %zu points, expected 1 .. %d", s->name, s->n, KIT_VIZ_MAX_POINTS);
        return -1;
    }
    if (s->style >= KIT_VIZ_STYLES) {
        snprintf(err, errlen, "line '%s' has style %u, expected 0 .. %d", s->name, s->style, KIT_VIZ_STYLES - 1);
        return -1;
    }
    for (size_t k = 0; k < s->n; k++) {
        if (!isfinite(s->x[k]) || !isfinite(s->y[k])) {
            snprintf(err, errlen, "line '%s', point %zu: (%g, %g) is not a pair of finite numbers", s->name, k,
                     s->x[k], s->y[k]);
            return -1;
        }
        if (p->x_log2 && s->x[k] <= 0) {
            snprintf(err, errlen, "line '%s', point %zu: x = %g, but a log2 axis takes only x > 0", s->name, k,
                     s->x[k]);
            return -1;
        }
    }
    return 0;
}

/* The smallest of 1, 2 and 5 times a power of ten that cuts span (> 0) into at most max_steps intervals. */
static double nice_step(double span, unsigned max_steps)
{
    static const double mult[] = {1, 2, 5, 10};
    double raw = span / max_steps, mag = 1;
    while (mag > raw)
        mag /= 10;
    while (mag * 10 <= raw)
        mag *= 10;
    size_t m = 0;
    while (mult[m] * mag < raw)
        m++;
    return mult[m] * mag;
}

/* A linear axis from lo to hi (values), its ends on ticks of a nice step. */
static void linear_axis(double lo, double hi, kit_viz_axis *a)
{
    if (hi <= lo)
        hi = lo + 1;
    memset(a, 0, sizeof *a);
    a->step = nice_step(hi - lo, 8);
    a->lo = floor(lo / a->step + 1e-9) * a->step;
    a->hi = ceil(hi / a->step - 1e-9) * a->step;
    a->ticks = (unsigned)lround((a->hi - a->lo) / a->step) + 1;
    for (double t = a->step; t < 0.999999 && a->decimals < 9; t *= 10)
        a->decimals++;
}

/* A log2 axis covering lo .. hi (values > 0): from the power of two at or below lo to the one at or above hi. */
static void log2_axis(double lo, double hi, kit_viz_axis *a)
{
    double e_lo = floor(log2(lo) + 1e-9), e_hi = ceil(log2(hi) - 1e-9);
    if (e_hi <= e_lo)
        e_hi = e_lo + 1;
    memset(a, 0, sizeof *a);
    a->log2 = 1;
    a->step = 1;
    while ((e_hi - e_lo) / a->step > 12)
        a->step *= 2;
    a->lo = floor(e_lo / a->step) * a->step;
    a->hi = ceil(e_hi / a->step) * a->step;
    a->ticks = (unsigned)lround((a->hi - a->lo) / a->step) + 1;
}

int kit_viz_plot_axes(const kit_viz_plot *p, kit_viz_axis *x, kit_viz_axis *y, char *err, size_t errlen)
{
    if (p->nseries == 0 || p->nseries > KIT_VIZ_MAX_SERIES) {
        snprintf(err, errlen, "the plot has %zu lines, expected 1 .. %d", p->nseries, KIT_VIZ_MAX_SERIES);
        return -1;
    }
    double x_lo = INFINITY, x_hi = -INFINITY, y_lo = 0, y_hi = 0; /* y covers 0 */
    for (size_t i = 0; i < p->nseries; i++) {
        const kit_viz_series *s = &p->series[i];
        if (plot_check_series(p, s, err, errlen) != 0)
            return -1;
        for (size_t k = 0; k < s->n; k++) {
            x_lo = fmin(x_lo, s->x[k]), x_hi = fmax(x_hi, s->x[k]);
            y_lo = fmin(y_lo, s->y[k]), y_hi = fmax(y_hi, s->y[k]);
        }
    }
    if (p->x_log2)
        log2_axis(x_lo, x_hi, x);
    else
        linear_axis(x_lo, x_hi, x);
    linear_axis(y_lo, y_hi, y);
    return 0;
}

/* Where a plot's pieces go: its axes and its plotting area. */
typedef struct plot_frame {
    kit_viz_axis x, y;
    int left, top;       /* the plotting area's top left corner */
    int legend_x;        /* the legend's left edge */
    int width, height;   /* the whole picture */
    int wrap;            /* the width the heading wraps to */
} plot_frame;

/* A place along an axis in its units (an exponent on a log2 axis), from 0 (lo) to 1 (hi). */
static double axis_frac(const kit_viz_axis *a, double units)
{
    return (units - a->lo) / (a->hi - a->lo);
}

/* A value's place along an axis, from 0 (lo) to 1 (hi). */
static double axis_at(const kit_viz_axis *a, double v)
{
    return axis_frac(a, a->log2 ? log2(v) : v);
}

static double plot_px(const plot_frame *F, double x)
{
    return F->left + axis_at(&F->x, x) * PLOT_AREA_W;
}

static double plot_py(const plot_frame *F, double y)
{
    return F->top + (1 - axis_at(&F->y, y)) * PLOT_AREA_H;
}

/* Tick k's value in axis units, 0 written as 0 (not -0.0) where rounding leaves a trace. */
static double tick_value(const kit_viz_axis *a, unsigned k)
{
    double v = a->lo + k * a->step;
    return fabs(v) < a->step * 1e-6 ? 0 : v;
}

/* The x axis: a grid line, a tick and a label at each tick (2^k on a log2 axis), then the axis' label. */
static void plot_x_axis(FILE *f, const kit_viz_plot *p, const plot_frame *F)
{
    int bottom = F->top + PLOT_AREA_H;
    for (unsigned k = 0; k < F->x.ticks; k++) {
        double v = tick_value(&F->x, k), px = F->left + axis_frac(&F->x, v) * PLOT_AREA_W;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e5e5e5\"/>\n", px, F->top, px, bottom);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333333\"/>\n", px, bottom, px, bottom + 5);
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", px, bottom + 20);
        if (F->x.log2)
            fprintf(f, "2<tspan dy=\"-6\" font-size=\"9\">%.0f</tspan>", v);
        else
            fprintf(f, "%.*f", F->x.decimals, v);
        fputs("</text>\n", f);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", F->left + PLOT_AREA_W / 2, bottom + 40);
    xml_put(f, p->x_label);
    fputs("</text>\n", f);
}

/* The y axis: a grid line, a tick and a label at each tick, the line at 0 if it runs inside, the label upright. */
static void plot_y_axis(FILE *f, const kit_viz_plot *p, const plot_frame *F)
{
    int right = F->left + PLOT_AREA_W;
    for (unsigned k = 0; k < F->y.ticks; k++) {
        double v = tick_value(&F->y, k), py = F->top + (1 - axis_frac(&F->y, v)) * PLOT_AREA_H;
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e5e5e5\"/>\n", F->left, py, right, py);
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#333333\"/>\n", F->left - 5, py, F->left,
                py);
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.*f</text>\n", F->left - 8, py + 4, F->y.decimals, v);
    }
    if (F->y.lo < 0 && F->y.hi > 0)
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#888888\" stroke-width=\"1.5\"/>\n",
                F->left, plot_py(F, 0), right, plot_py(F, 0));
    int cx = SVG_MARGIN + 10, cy = F->top + PLOT_AREA_H / 2;
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 %d %d)\">", cx, cy, cx, cy);
    xml_put(f, p->y_label);
    fputs("</text>\n", f);
}

/* A marker of the style at (x, y): filled with the style's colour, or white when hollow. */
static void plot_marker(FILE *f, unsigned style, int hollow, double x, double y)
{
    static const double shape[][4][2] = {
        [MARK_TRIANGLE] = {{0, -4.5}, {4, 3}, {-4, 3}, {0, 0}},
        [MARK_DIAMOND] = {{0, -4.5}, {4.5, 0}, {0, 4.5}, {-4.5, 0}},
        [MARK_DOWN] = {{0, 4.5}, {4, -3}, {-4, -3}, {0, 0}},
    };
    const char *colour = plot_style[style].colour, *fill = hollow ? "#ffffff" : colour;
    int mark = plot_style[style].marker;
    if (mark == MARK_CIRCLE)
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\"", x, y);
    else if (mark == MARK_SQUARE)
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"7\" height=\"7\"", x - 3.5, y - 3.5);
    else {
        fputs("<polygon points=\"", f);
        for (int c = 0; c < (mark == MARK_DIAMOND ? 4 : 3); c++)
            fprintf(f, "%s%.1f,%.1f", c ? " " : "", x + shape[mark][c][0], y + shape[mark][c][1]);
        fputc('"', f);
    }
    fprintf(f, " fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\"/>\n", fill, colour);
}

/* The attributes that draw a line of the series: its colour, width and dashes. */
static void plot_stroke(FILE *f, const kit_viz_series *s)
{
    fprintf(f, " fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s", plot_style[s->style].colour,
            s->dashed ? " stroke-dasharray=\"6 4\"" : "");
}

/* One line: a <polyline> through its points, then a marker on each. */
static void plot_series(FILE *f, const kit_viz_series *s, const plot_frame *F)
{
    fputs("<polyline", f);
    plot_stroke(f, s);
    fputs(" points=\"", f);
    for (size_t k = 0; k < s->n; k++)
        fprintf(f, "%s%.1f,%.1f", k ? " " : "", plot_px(F, s->x[k]), plot_py(F, s->y[k]));
    fputs("\"/>\n", f);
    for (size_t k = 0; k < s->n; k++)
        plot_marker(f, s->style, s->dashed, plot_px(F, s->x[k]), plot_py(F, s->y[k]));
}

/* The legend, right of the plotting area: per line, a sample of it (a <line> and a marker) and its name. */
static void plot_legend(FILE *f, const kit_viz_plot *p, const plot_frame *F)
{
    for (size_t i = 0; i < p->nseries; i++) {
        const kit_viz_series *s = &p->series[i];
        int y = F->top + 10 + (int)i * PLOT_ENTRY_H;
        fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"", F->legend_x, y, F->legend_x + PLOT_SAMPLE_W, y);
        plot_stroke(f, s);
        fputs("/>\n", f);
        plot_marker(f, s->style, s->dashed, F->legend_x + PLOT_SAMPLE_W / 2, y);
        fprintf(f, "<text x=\"%d\" y=\"%d\">", F->legend_x + PLOT_SAMPLE_W + 8, y + 4);
        xml_put(f, s->name);
        fputs("</text>\n", f);
    }
}

/* Lays the plot out: the legend as wide as its longest name, the heading wrapped above the plotting area. */
static void plot_plan(const kit_viz_plot *p, plot_frame *F)
{
    size_t longest = 0;
    for (size_t i = 0; i < p->nseries; i++)
        longest = strlen(p->series[i].name) > longest ? strlen(p->series[i].name) : longest;
    F->left = SVG_MARGIN + PLOT_LEFT;
    F->legend_x = F->left + PLOT_AREA_W + PLOT_LEGEND_GAP;
    F->width = F->legend_x + PLOT_SAMPLE_W + 8 + SVG_CHAR * (int)longest + SVG_MARGIN;
    F->wrap = F->width;
    F->top = SVG_MARGIN + svg_heading_height(F->wrap, p->title, p->note) + 16;
    int legend_h = (int)p->nseries * PLOT_ENTRY_H;
    F->height = F->top + (legend_h > PLOT_AREA_H ? legend_h : PLOT_AREA_H) + PLOT_BELOW + SVG_MARGIN;
}

int kit_viz_render_plot_svg(FILE *f, const kit_viz_plot *p, char *err, size_t errlen)
{
    plot_frame F;
    if (kit_viz_plot_axes(p, &F.x, &F.y, err, errlen) != 0)
        return -1;
    plot_plan(p, &F);
    svg_begin(f, F.width, F.height, F.wrap, p->title[0] ? p->title : "plot", p->title, p->note);
    plot_x_axis(f, p, &F);
    plot_y_axis(f, p, &F);
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333333\"/>\n", F.left, F.top,
            PLOT_AREA_W, PLOT_AREA_H);
    for (size_t i = 0; i < p->nseries; i++)
        plot_series(f, &p->series[i], &F);
    plot_legend(f, p, &F);
    fputs("</svg>\n", f);
    if (fflush(f) != 0 || ferror(f)) {
        snprintf(err, errlen, "could not write the plot");
        return -1;
    }
    return 0;
}

/* ---- traces with a view --------------------------------------------------------- */

int kit_viz_trace_write(FILE *f, const kit_viz_view *v, const kit_access *acc, size_t n)
{
    if (kit_trace_write(f, acc, n) != 0)
        return -1;
    fprintf(f, "# bankviz: how to draw this trace (bankviz reads these lines; other readers skip them)\n");
    if (v->title[0])
        fprintf(f, "# bankviz title %s\n", v->title);
    if (v->note[0])
        fprintf(f, "# bankviz note %s\n", v->note);
    if (v->divider_meaning[0])
        fprintf(f, "# bankviz divider-meaning %s\n", v->divider_meaning);
    fprintf(f, "# bankviz model %u %u\n", v->model.w, v->model.word_bytes);
    fprintf(f, "# bankviz label %s\n", v->label == KIT_VIZ_LABEL_WORD ? "word" : "thread");
    fprintf(f, "# bankviz block %" PRIu32 "\n# bankviz warp %" PRIu32 "\n", v->block, v->warp);
    if (v->step >= 0)
        fprintf(f, "# bankviz step %ld\n", v->step);
    else
        fprintf(f, "# bankviz step %s\n", v->step == KIT_VIZ_NO_STEP ? "none" : "first");
    fprintf(f, "# bankviz steps-called %s\n", step_word(v));
    for (unsigned i = 0; i < v->ndividers && i < KIT_VIZ_MAX_DIVIDERS; i++)
        fprintf(f, "# bankviz divider %" PRIu32 "\n", v->divider[i]);
    /* Categories as letters, 64 words a line (the trace reader takes lines of up to 254 characters). */
    uint32_t ncat = v->ncat < KIT_VIZ_MAX_CAT_WORDS ? v->ncat : KIT_VIZ_MAX_CAT_WORDS;
    for (uint32_t start = 0; start < ncat; start += 64) {
        fprintf(f, "# bankviz categories %" PRIu32 " ", start);
        for (uint32_t wd = start; wd < ncat && wd < start + 64; wd++)
            fputc(cat_style[v->cat[wd] < KIT_VIZ_CAT_COUNT ? v->cat[wd] : 0].letter, f);
        fputc('\n', f);
    }
    return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

/* Parses a whole unsigned decimal number within 0 .. max. */
static int parse_uint(const char *s, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    if (*s < '0' || *s > '9')
        return -1;
    for (; *s >= '0' && *s <= '9'; s++) {
        v = v * 10 + (uint64_t)(*s - '0');
        if (v > max)
            return -1;
    }
    if (*s != '\0')
        return -1;
    *out = v;
    return 0;
}

/*
 * A setting of a "# bankviz" line: it applies the line's value, arg (which it may
 * cut up), to the view. It returns 0, SETTING_BAD for a value it cannot read (the
 * caller says so, naming the line), or -1 with its own message in err.
 */
#define SETTING_BAD 1
typedef int setting_fn(kit_viz_view *v, const char *name, char *arg, unsigned long lineno, char *err, size_t errlen);

/* title, note, divider-meaning: the text as it is. */
static int set_text(kit_viz_view *v, const char *name, char *arg, unsigned long lineno, char *err, size_t errlen)
{
    char *to = name[0] == 't' ? v->title : name[0] == 'n' ? v->note : v->divider_meaning;
    if (strlen(arg) >= KIT_VIZ_TEXT_LEN) {
        snprintf(err, errlen, "line %lu: the %s is longer than %d characters", lineno, name, KIT_VIZ_TEXT_LEN - 1);
        return -1;
    }
    strcpy(to, arg);
    return 0;
}

/* model W BYTES: the banks and their width. */
static int set_model(kit_viz_view *v, const char *name, char *arg, unsigned long lineno, char *err, size_t errlen)
{
    (void)name;
    uint64_t a, b;
    char *second = strchr(arg, ' ');
    if (second)
        *second++ = '\0';
    if (!second || parse_uint(arg, UINT32_MAX, &a) || parse_uint(second, UINT32_MAX, &b))
        return SETTING_BAD;
    v->model.w = (unsigned)a;
    v->model.word_bytes = (unsigned)b;
    if (check_model(&v->model, err, errlen) != 0) {
        snprintf(err, errlen, "line %lu: bad model '%" PRIu64 " %" PRIu64 "' (w lies in 1 .. %d, the word in 1 .. %d bytes)",
                 lineno, a, b, KIT_VIZ_MAX_W, MAX_WORD_BYTES);
        return -1;
    }
    return 0;
}

/* label thread|word: what the cells show. */
static int set_label(kit_viz_view *v, const char *name, char *arg, unsigned long lineno, char *err, size_t errlen)
{
    (void)name, (void)lineno, (void)err, (void)errlen;
    if (strcmp(arg, "thread") == 0)
        v->label = KIT_VIZ_LABEL_THREAD;
    else if (strcmp(arg, "word") == 0)
        v->label = KIT_VIZ_LABEL_WORD;
    else
        return SETTING_BAD;
    return 0;
}

/* block N, warp N, divider WORD (one more dividing line each time). */
static int set_number(kit_viz_view *v, const char *name, char *arg, unsigned long lineno, char *err, size_t errlen)
{
    uint64_t a;
    if (parse_uint(arg, UINT32_MAX, &a))
        return SETTING_BAD;
    if (name[0] == 'b')
        v->block = (uint32_t)a;
    else if (name[0] == 'w')
        v->warp = (uint32_t)a;
    else if (v->ndividers < KIT_VIZ_MAX_DIVIDERS)
        v->divider[v->ndividers++] = (uint32_t)a;
    else {
        snprintf(err, errlen, "line %lu: more than %d dividers", lineno, KIT_VIZ_MAX_DIVIDERS);
        return -1;
    }
    return 0;
}

/* step N|none|first: the step highlighted. */
static int set_step(kit_viz_view *v, const char *name, char *arg, unsigned long lineno, char *err, size_t errlen)
{
    (void)name, (void)lineno, (void)err, (void)errlen;
    uint64_t a;
    if (strcmp(arg, "none") == 0)
        v->step = KIT_VIZ_NO_STEP;
    else if (strcmp(arg, "first") == 0)
        v->step = KIT_VIZ_FIRST_STEP;
    else if (parse_uint(arg, UINT32_MAX, &a) == 0)
        v->step = (long)a;
    else
        return SETTING_BAD;
    return 0;
}

/* steps-called round|step: the word for a step. */
static int set_steps_called(kit_viz_view *v, const char *name, char *arg, unsigned long lineno, char *err,
                            size_t errlen)
{
    (void)name, (void)lineno, (void)err, (void)errlen;
    if (strcmp(arg, "round") == 0)
        v->rounds = 1;
    else if (strcmp(arg, "step") == 0)
        v->rounds = 0;
    else
        return SETTING_BAD;
    return 0;
}

/* categories FIRST LETTERS: a category letter for each word from FIRST on; words skipped before FIRST get none. */
static int set_categories(kit_viz_view *v, const char *name, char *arg, unsigned long lineno, char *err, size_t errlen)
{
    (void)name;
    uint64_t a;
    char *letters = strchr(arg, ' ');
    if (letters)
        *letters++ = '\0';
    if (!letters || parse_uint(arg, KIT_VIZ_MAX_CAT_WORDS - 1, &a))
        return SETTING_BAD;
    size_t len = strlen(letters);
    if (a + len > KIT_VIZ_MAX_CAT_WORDS) {
        snprintf(err, errlen, "line %lu: categories are kept for words 0 .. %d only", lineno, KIT_VIZ_MAX_CAT_WORDS - 1);
        return -1;
    }
    for (size_t i = 0; i < len; i++) {
        int c = 0;
        while (c < KIT_VIZ_CAT_COUNT && cat_style[c].letter != letters[i])
            c++;
        if (c == KIT_VIZ_CAT_COUNT) {
            snprintf(err, errlen, "line %lu: '%c' is not a category letter (- A B + x .)", lineno, letters[i]);
            return -1;
        }
        v->cat[a + i] = (uint8_t)c;
    }
    if (a + len > v->ncat) {
        for (uint64_t wd = v->ncat; wd < a; wd++)
            v->cat[wd] = KIT_VIZ_CAT_NONE;
        v->ncat = (uint32_t)(a + len);
    }
    return 0;
}

/* The settings a "# bankviz" line may name, as kit_viz_trace_write() writes them. */
static const struct {
    const char *name;
    setting_fn *apply;
} settings[] = {
    {"title", set_text},
    {"note", set_text},
    {"divider-meaning", set_text},
    {"model", set_model},
    {"label", set_label},
    {"block", set_number},
    {"warp", set_number},
    {"divider", set_number},
    {"step", set_step},
    {"steps-called", set_steps_called},
    {"categories", set_categories},
};

/* Applies one "# bankviz" line (the text after "# bankviz "), blanks at its end removed. */
static int apply_line(kit_viz_view *v, char *s, unsigned long lineno, char *err, size_t errlen)
{
    char *arg = strchr(s, ' ');
    if (arg)
        *arg++ = '\0';
    else
        arg = s + strlen(s);
    for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++) {
        if (strcmp(s, settings[i].name) != 0)
            continue;
        int rc = settings[i].apply(v, s, arg, lineno, err, errlen);
        if (rc == SETTING_BAD)
            snprintf(err, errlen, "line %lu: bad value '%s' for bankviz setting '%s'", lineno, arg, s);
        return rc == 0 ? 0 : -1;
    }
    snprintf(err, errlen, "line %lu: unknown bankviz setting '%s'", lineno, s);
    return -1;
}

int kit_viz_trace_read(FILE *f, kit_viz_view *v, kit_access **acc, size_t *n, char *err, size_t errlen)
{
    if (kit_trace_read(f, acc, n, err, errlen) != 0)
        return -1;
    if (fseek(f, 0, SEEK_SET) != 0) {
        snprintf(err, errlen, "cannot read the trace a second time (is it a pipe?)");
        goto fail;
    }
    char line[256];
    unsigned long lineno = 0;
    static const char prefix[] = "# bankviz ";
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (strncmp(line, prefix, sizeof prefix - 1) != 0)
            continue;
        size_t len = strlen(line);
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' '))
            line[--len] = '\0';
        if (apply_line(v, line + sizeof prefix - 1, lineno, err, errlen) != 0)
            goto fail;
    }
    return 0;
fail:
    free(*acc);
    *acc = NULL;
    *n = 0;
    return -1;
}

/* ---- the handouts' figures ------------------------------------------------------- */
/*
 * Every figure is a list of accesses plus a view, drawn like any trace. Figures of
 * the papers that still need the worst-case input generator, which the kit does not
 * have yet, are left for later: 000's Fig. 3 (the worst-case input for w/2 < E < w)
 * and 001's Fig. 4 (the generalized worst case for any gcd(w, E)).
 */

#define FIG_WORD 4 /* the papers count in 4-byte elements, one per word */

static kit_access read_at(uint32_t thread, uint32_t ordinal, uint32_t word)
{
    return kit_access_at(0, thread, ordinal, word * FIG_WORD, FIG_WORD, 0);
}

static int fig_alloc(kit_viz_figure *fig, size_t n, unsigned w, char *err, size_t errlen)
{
    kit_viz_view_init(&fig->view);
    fig->view.model.w = w;
    fig->view.model.word_bytes = FIG_WORD;
    fig->acc = calloc(n, sizeof *fig->acc);
    fig->n = n;
    if (!fig->acc) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

/* 001's Fig. 1: thread t of a w = 12 warp reads word stride * t; cells are labelled with their word index. */
static int fig_stride(kit_viz_figure *fig, unsigned stride, char *err, size_t errlen)
{
    const unsigned w = 12;
    if (fig_alloc(fig, w, w, err, errlen) != 0)
        return -1;
    for (unsigned t = 0; t < w; t++)
        fig->acc[t] = read_at(t, 0, stride * t);
    kit_viz_view *v = &fig->view;
    v->label = KIT_VIZ_LABEL_WORD;
    v->step = 0;
    if (stride == 5) {
        snprintf(v->title, sizeof v->title, "001-fig1-stride5: stride 5 with w = 12 (coprime): no bank conflict");
        snprintf(v->note, sizeof v->note,
                 "After Berney and Sitchinava (SPAA 2025), Fig. 1, left: thread t reads word 5t, 12 distinct banks.");
    } else {
        snprintf(v->title, sizeof v->title, "001-fig1-stride6: stride 6 with w = 12 (not coprime): 6-way conflicts");
        snprintf(v->note, sizeof v->note,
                 "After Berney and Sitchinava (SPAA 2025), Fig. 1, right: thread t reads word 6t, banks 0 and 6 only, "
                 "6 words each.");
    }
    return 0;
}

/*
 * The CF-Merge gather of one warp (001, Sec. 3.1 and 3.2). Thread i merges
 * asz[i] elements of A and E - asz[i] of B; A is stored forwards from word 0 and
 * B reversed after it, so with a_i the prefix sum of asz and b_i = iE - a_i, A
 * element x of thread i is at a_i + x and B element y at wE - 1 - (b_i + y). With
 * d = gcd(w, E) > 1 each partition l of wE/d consecutive words is then rotated
 * right by l (offset p moves to (p + l) mod wE/d). An element first placed at k
 * is read in round k mod E; the paper proves each thread then reads one element
 * per round and each round touches w distinct banks, and this builder checks the
 * first (the tests check the second with the simulator).
 */
static int fig_gather(kit_viz_figure *fig, unsigned w, unsigned E, const unsigned *asz, char *err, size_t errlen)
{
    unsigned d = (unsigned)kit_gcd((int)w, (int)E), total = w * E, part = total / d, a_total = 0;
    for (unsigned i = 0; i < w; i++)
        a_total += asz[i];
    if (fig_alloc(fig, total, w, err, errlen) != 0)
        return -1;
    unsigned char *seen = calloc(total, 1);
    if (!seen) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    size_t n = 0;
    unsigned a_i = 0;
    for (unsigned i = 0; i < w; i++) {
        unsigned b_i = i * E - a_i;
        for (unsigned e = 0; e < E; e++) {
            unsigned k = e < asz[i] ? a_i + e : total - 1 - (b_i + (e - asz[i]));
            unsigned l = k / part, moved = l * part + (k % part + l) % part;
            unsigned round = k % E;
            if (seen[i * E + round]) {
                snprintf(err, errlen, "thread %u would read two elements in round %u", i, round);
                free(seen);
                return -1;
            }
            seen[i * E + round] = 1;
            fig->acc[n++] = read_at(i, round, moved);
            fig->view.cat[moved] = k < a_total ? KIT_VIZ_CAT_A : KIT_VIZ_CAT_B;
        }
        a_i += asz[i];
    }
    free(seen);
    fig->view.ncat = total;
    fig->view.rounds = 1;
    fig->view.step = 0;
    return 0;
}

/* 001's Fig. 2: w = 12, E = 5, coprime. The split is read off the paper's figure. */
static int fig_gather_coprime(kit_viz_figure *fig, char *err, size_t errlen)
{
    static const unsigned asz[12] = {2, 4, 2, 3, 1, 3, 3, 2, 0, 4, 4, 5}; /* |A| = 33, |B| = 27 */
    if (fig_gather(fig, 12, 5, asz, err, errlen) != 0)
        return -1;
    kit_viz_view *v = &fig->view;
    snprintf(v->title, sizeof v->title, "001-fig2: CF-Merge gather, w = 12, E = 5 (coprime): every round conflict free");
    snprintf(v->note, sizeof v->note,
             "After Berney and Sitchinava (SPAA 2025), Fig. 2: A (yellow) stored forwards, B (blue) reversed after it; "
             "thread i reads the element at k = j (mod 5) in round j.");
    return 0;
}

/*
 * 001's Fig. 3: w = 9, E = 6, d = 3. Its caption says the partitions hold
 * "wE/d = 16 elements", a slip: wE/d = 9 * 6 / 3 = 18, and the figure's cells
 * agree with 18 (two columns of 9 per partition).
 */
static int fig_gather_shifted(kit_viz_figure *fig, char *err, size_t errlen)
{
    static const unsigned asz[9] = {4, 3, 1, 4, 1, 3, 4, 1, 6}; /* |A| = |B| = 27 */
    if (fig_gather(fig, 9, 6, asz, err, errlen) != 0)
        return -1;
    kit_viz_view *v = &fig->view;
    snprintf(v->title, sizeof v->title,
             "001-fig3: CF-Merge gather, w = 9, E = 6, d = 3 (not coprime): every round conflict free");
    snprintf(v->note, sizeof v->note,
             "After Fig. 3 of the SPAA 2025 paper. Partition l of wE/d = 18 words is rotated right by l; the caption's "
             "\"wE/d = 16 elements\" is a slip for 18 (9 * 6 / 3).");
    snprintf(v->divider_meaning, sizeof v->divider_meaning,
             "partition boundary: partitions of wE/d = 18 words, rotated by 0, 1 and 2");
    v->divider[v->ndividers++] = 18;
    v->divider[v->ndividers++] = 36;
    return 0;
}

/*
 * 000's Fig. 1: sorted input, w = 16, E = 12 (gcd 4). A and B are contiguous, A
 * first; with every A element below every B element, thread t merges ranks tE ..
 * tE + E - 1, which sit at words tE .. tE + 11, and reads word tE + j in step j.
 * The chosen E banks are 0 .. 11 (s = 0): a word there is aligned when it is read
 * in the step whose number is its bank, i.e. k mod 12 == k mod 16.
 */
static int fig_sorted(kit_viz_figure *fig, char *err, size_t errlen)
{
    const unsigned w = 16, E = 12;
    if (fig_alloc(fig, (size_t)w * E, w, err, errlen) != 0)
        return -1;
    kit_viz_view *v = &fig->view;
    size_t n = 0;
    for (unsigned t = 0; t < w; t++)
        for (unsigned j = 0; j < E; j++)
            fig->acc[n++] = read_at(t, j, t * E + j);
    for (unsigned k = 0; k < w * E; k++) {
        unsigned bank = k % w;
        v->cat[k] = bank >= E ? KIT_VIZ_CAT_FREE : k % E == bank ? KIT_VIZ_CAT_ALIGNED : KIT_VIZ_CAT_MISALIGNED;
    }
    v->ncat = w * E;
    v->step = KIT_VIZ_NO_STEP;
    v->divider[v->ndividers++] = w * E / 2;
    snprintf(v->title, sizeof v->title, "000-fig1: sorted input, w = 16, E = 12, gcd 4: every 4th thread aligned");
    snprintf(v->note, sizeof v->note,
             "After Berney and Sitchinava (IPDPS 2020), Fig. 1: thread t reads word 12t + j in step j; the chosen E "
             "banks are 0 .. 11.");
    snprintf(v->divider_meaning, sizeof v->divider_meaning, "A (columns 0-5) | B (columns 6-11)");
    return 0;
}

/*
 * Handout 00's two warp models on one data-dependent loop, w = 8: thread t makes PASSES[t] search
 * reads (pass k reads word 8k + (t + k) mod 8, so each pass of the warp is conflict-free), then
 * reads its list's next key, word 40 + t (bank t). Lock-step (by_site 0): step k is every
 * thread's k-th access, so step 3 holds the list reads of threads 1, 3 and 6 beside the fourth
 * search reads of the others, and bank 3 serves words 27 and 43. By site (by_site 1), as a GPU
 * issues them: step k is the k-th search pass of the threads still searching, and the list reads
 * of all eight threads are one step, step 5; the steps are numbered into the ordinals, so that the
 * drawer (which draws ordinals) shows them.
 */
static int fig_loop(kit_viz_figure *fig, int by_site, char *err, size_t errlen)
{
    enum { W = 8, MAX_PASSES = 5 };
    static const unsigned passes[W] = {5, 3, 4, 3, 5, 4, 3, 5};
    if (fig_alloc(fig, W * (MAX_PASSES + 1), W, err, errlen) != 0)
        return -1;
    kit_viz_view *v = &fig->view;
    size_t n = 0;
    for (unsigned t = 0; t < W; t++) {
        for (unsigned k = 0; k < passes[t]; k++)
            fig->acc[n++] = read_at(t, k, 8 * k + (t + k) % W);
        fig->acc[n++] = read_at(t, by_site ? MAX_PASSES : passes[t], 40 + t);
    }
    fig->n = n;
    v->label = KIT_VIZ_LABEL_WORD;
    v->step = by_site ? MAX_PASSES : 3;
    if (by_site) {
        snprintf(v->title, sizeof v->title, "000-loop-site: the same loop by site: the 8 list reads are one step, no conflict");
        snprintf(v->note, sizeof v->note,
                 "As a GPU issues them: step k is search pass k of the threads still searching, step 5 the list read "
                 "(words 40-47) of every thread. The steps are drawn as ordinals.");
    } else {
        snprintf(v->title, sizeof v->title, "000-loop-lockstep: a data-dependent loop, lock-step: step 3 costs 2 in bank 3");
        snprintf(v->note, sizeof v->note,
                 "Thread t searches 5, 3, 4, 3, 5, 4, 3, 5 passes (words 8k + (t + k) mod 8), then reads word 40 + t. "
                 "Lock-step step 3 pairs the list reads of threads 1, 3, 6 with the others' 4th search reads.");
    }
    return 0;
}

static int fig_loop_lockstep(kit_viz_figure *fig, char *err, size_t errlen)
{
    return fig_loop(fig, 0, err, errlen);
}

static int fig_loop_site(kit_viz_figure *fig, char *err, size_t errlen)
{
    return fig_loop(fig, 1, err, errlen);
}

static int fig_stride5(kit_viz_figure *fig, char *err, size_t errlen)
{
    return fig_stride(fig, 5, err, errlen);
}

static int fig_stride6(kit_viz_figure *fig, char *err, size_t errlen)
{
    return fig_stride(fig, 6, err, errlen);
}

static const struct {
    const char *name;
    const char *summary;
    int (*make)(kit_viz_figure *fig, char *err, size_t errlen);
} figures[] = {
    {"001-fig1-stride5", "SPAA 2025 Fig. 1 left: stride 5, w = 12, cells labelled by word; no conflict", fig_stride5},
    {"001-fig1-stride6", "SPAA 2025 Fig. 1 right: stride 6, w = 12; cost 6, 5 conflicts", fig_stride6},
    {"001-fig2", "SPAA 2025 Fig. 2: CF-Merge gather, w = 12, E = 5; 5 conflict-free rounds", fig_gather_coprime},
    {"001-fig3", "SPAA 2025 Fig. 3: CF-Merge gather, w = 9, E = 6, shifted partitions; 6 rounds", fig_gather_shifted},
    {"000-fig1", "IPDPS 2020 Fig. 1: sorted input, w = 16, E = 12; aligned, misaligned, free", fig_sorted},
    {"000-loop-lockstep", "handout 00: a data-dependent loop, w = 8, lock-step; step 3 has a conflict", fig_loop_lockstep},
    {"000-loop-site", "handout 00: the same loop by site, as a GPU issues it; no conflict", fig_loop_site},
};

size_t kit_viz_figure_count(void)
{
    return sizeof figures / sizeof figures[0];
}

const char *kit_viz_figure_name(size_t i)
{
    return i < kit_viz_figure_count() ? figures[i].name : NULL;
}

const char *kit_viz_figure_summary(size_t i)
{
    return i < kit_viz_figure_count() ? figures[i].summary : NULL;
}

int kit_viz_figure_make(const char *name, kit_viz_figure *fig, char *err, size_t errlen)
{
    memset(fig, 0, sizeof *fig);
    for (size_t i = 0; i < kit_viz_figure_count(); i++)
        if (name && strcmp(name, figures[i].name) == 0) {
            if (figures[i].make(fig, err, errlen) != 0) {
                kit_viz_figure_free(fig);
                return -1;
            }
            return 0;
        }
    snprintf(err, errlen, "no figure named '%s' (bankviz --list lists them)", name ? name : "(null)");
    return -1;
}

void kit_viz_figure_free(kit_viz_figure *fig)
{
    free(fig->acc);
    fig->acc = NULL;
    fig->n = 0;
}

int kit_viz_worst(kit_viz_view *v, const kit_access *acc, size_t n, uint64_t *conflicts, char *err, size_t errlen)
{
    kit_bank_report r;
    if (kit_bank_simulate(&v->model, acc, n, &r, err, errlen) != 0)
        return -1;
    int found = 0;
    uint64_t most = 0;
    for (uint32_t i = 0; i < r.blocks * r.warps; i++) {
        uint64_t c = r.warp_load[i].conflicts + r.warp_store[i].conflicts;
        if (r.warp_load[i].steps + r.warp_store[i].steps > 0 && (!found || c > most)) {
            found = 1, most = c;
            v->block = i / r.warps;
            v->warp = i % r.warps;
        }
    }
    kit_bank_free(&r);
    if (!found) {
        snprintf(err, errlen, "the trace has no accesses");
        return -1;
    }
    /* that warp's accesses alone, so that each step's grid reads only them */
    kit_access *mine = malloc((n ? n : 1) * sizeof *mine);
    size_t m = 0;
    if (!mine) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (acc[i].block == v->block && acc[i].thread / v->model.w == v->warp)
            mine[m++] = acc[i];
    uint32_t *steps = NULL;
    size_t nsteps = 0;
    int rc = kit_viz_warp_steps(v, mine, m, &steps, &nsteps, err, errlen);
    *conflicts = 0;
    v->step = rc == 0 ? (long)steps[0] : v->step;
    for (size_t k = 0; rc == 0 && k < nsteps; k++) {
        kit_viz_grid g;
        rc = kit_viz_grid_build(v, (long)steps[k], mine, m, &g, err, errlen);
        uint64_t c = rc == 0 ? g.load.conflicts + g.store.conflicts : 0;
        if (c > *conflicts) {
            *conflicts = c;
            v->step = (long)steps[k];
        }
        kit_viz_grid_free(&g);
    }
    free(steps);
    free(mine);
    return rc;
}
