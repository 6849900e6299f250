/** @file
 * Draws shared memory as the papers do (one row per bank, one column per group of w
 * consecutive words) from recorded accesses, as text or SVG, and builds the handouts'
 * figures as accesses so that they go through the same path as a recorded trace.
 * Also draws line plots (kit_viz_render_plot_svg()), with the same SVG writer, for benchplot.
 * The figure drawer behind the bankviz and benchplot tools: it lives beside them in common/tools/,
 * and only they and their test (test_viz) link it; the kit's libraries and the grader do not.
 */
#ifndef KIT_VIZ_H
#define KIT_VIZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kit_bank.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KIT_VIZ_MAX_W 1024            /**< the most banks a grid may have (the simulator's limit) */
#define KIT_VIZ_MAX_CELLS (1u << 20)  /**< the most cells one grid may hold */
#define KIT_VIZ_MAX_CAT_WORDS 4096    /**< categories can be given for words 0 to this - 1 */
#define KIT_VIZ_MAX_DIVIDERS 8        /**< the most dividing lines a view may draw */
#define KIT_VIZ_TEXT_LEN 201          /**< room for a title or note of 200 characters */
#define KIT_VIZ_NO_STEP (-1L)         /**< highlight no step (show the categories only) */
#define KIT_VIZ_FIRST_STEP (-2L)      /**< highlight the lowest ordinal the warp has */

/** What a cell shows. */
typedef enum kit_viz_label {
    KIT_VIZ_LABEL_THREAD, /**< the id (in its block) of the thread that touches the word */
    KIT_VIZ_LABEL_WORD    /**< the word's index, byte address / word size (the papers' "address") */
} kit_viz_label;

/** A colour class a cell has whatever step is shown (used when it is not highlighted). */
typedef enum kit_viz_cat {
    KIT_VIZ_CAT_NONE,       /**< white */
    KIT_VIZ_CAT_A,          /**< an element of the A list: yellow */
    KIT_VIZ_CAT_B,          /**< an element of the B list: blue */
    KIT_VIZ_CAT_ALIGNED,    /**< 000's Fig. 1: read in the step equal to its bank: green */
    KIT_VIZ_CAT_MISALIGNED, /**< 000's Fig. 1: in the chosen banks but read in another step: red */
    KIT_VIZ_CAT_FREE,       /**< 000's Fig. 1: outside the chosen banks: gray */
    KIT_VIZ_CAT_COUNT
} kit_viz_cat;

/** How to draw a trace: everything but the accesses themselves. */
typedef struct kit_viz_view {
    char title[KIT_VIZ_TEXT_LEN];      /**< first line of the text, the SVG's heading and `<title>` */
    char note[KIT_VIZ_TEXT_LEN];       /**< a sentence under the title, or empty */
    char divider_meaning[KIT_VIZ_TEXT_LEN]; /**< what the dividing lines mark, for the legend */
    kit_bank_model model;              /**< banks (and threads per warp) and the bank width */
    kit_viz_label label;               /**< what the cells show */
    uint32_t block;                    /**< the block drawn */
    uint32_t warp;                     /**< the warp drawn: threads warp*w to warp*w + w - 1 */
    long step;                         /**< the ordinal highlighted, KIT_VIZ_NO_STEP or KIT_VIZ_FIRST_STEP */
    int rounds;                        /**< 1: call steps "round" (the CF gather's word), 0: "step" */
    uint32_t ncat;                     /**< words 0 to ncat - 1 have a category in cat[] */
    uint8_t cat[KIT_VIZ_MAX_CAT_WORDS]; /**< a kit_viz_cat per word */
    unsigned ndividers;                /**< dividing lines in divider[] */
    uint32_t divider[KIT_VIZ_MAX_DIVIDERS]; /**< a dashed line runs before the column starting at each of these words */
} kit_viz_view;

/** One cell: one word of shared memory in one bank. */
typedef struct kit_viz_cell {
    uint32_t word;     /**< the word index: column * w + bank */
    int32_t thread;    /**< the lowest thread that touches the word in any step, or -1 for none */
    uint8_t shared;    /**< 1 if more than one thread touches the word */
    uint8_t highlight; /**< 1 if the highlighted step touches the word */
    uint8_t conflict;  /**< 1 if, in the highlighted step, its bank also serves another word (same kind and phase) */
    uint8_t cat;       /**< its kit_viz_cat */
} kit_viz_cell;

/** One warp's picture: w rows (banks) by cols columns, and the simulator's counts for what is highlighted. */
typedef struct kit_viz_grid {
    unsigned w;              /**< rows: banks, bank 0 on top */
    uint32_t first_col;      /**< column 0 of the grid holds words first_col*w to first_col*w + w - 1 */
    uint32_t cols;           /**< columns drawn */
    kit_viz_cell *cell;      /**< [cols * w]; bank b of grid column c is cell[c * w + b] */
    long step;               /**< the ordinal highlighted, or KIT_VIZ_NO_STEP */
    uint32_t warp_steps;     /**< how many distinct ordinals the warp has */
    kit_bank_count load;     /**< the simulator on the highlighted step's loads (on all the warp's loads with no step) */
    kit_bank_count store;    /**< the same for stores */
} kit_viz_grid;

/**
 * Fills a view with the defaults for a recorded trace: w = 32 banks of 4 bytes,
 * thread labels, block 0, warp 0, the warp's first step, no title, no categories.
 * @param[out] v the view
 */
void kit_viz_view_init(kit_viz_view *v);

/**
 * Lists the steps (distinct ordinals) of the view's warp, after checking the
 * model and the whole trace with the simulator (sizes, thread and block limits).
 * @param[in]  v        the view: model, block and warp
 * @param[in]  acc      the trace
 * @param[in]  n        its length
 * @param[out] ordinals malloc'ed, ascending (free it); NULL on error
 * @param[out] count    their number (at least 1 on success)
 * @param[out] err      why not: a bad model or trace, or a block or warp with no accesses
 * @param[in]  errlen   size of @p err
 * @return 0, or -1 with a message in @p err
 */
int kit_viz_warp_steps(const kit_viz_view *v, const kit_access *acc, size_t n, uint32_t **ordinals, size_t *count,
                       char *err, size_t errlen);

/**
 * Builds the grid of the view's warp. The columns run from the one holding the
 * lowest word the warp touches (in any step) to the one holding the highest.
 * Cells of the given step are highlighted; those whose bank serves more than one
 * distinct word of that step (loads and stores apart, and within one phase of a
 * wide access, as kit_bank_simulate() counts) are marked as conflicts.
 * @param[in]  v      the view (step is ignored: @p step says what to highlight)
 * @param[in]  step   an ordinal of the warp, KIT_VIZ_NO_STEP or KIT_VIZ_FIRST_STEP
 * @param[in]  acc    the trace, in any order
 * @param[in]  n      its length
 * @param[out] g      the grid; release it with kit_viz_grid_free()
 * @param[out] err    why not: a bad model, no such block, warp or step, bad accesses, too many cells
 * @param[in]  errlen size of @p err
 * @return 0, or -1 with a message in @p err (and @p g empty)
 */
int kit_viz_grid_build(const kit_viz_view *v, long step, const kit_access *acc, size_t n, kit_viz_grid *g, char *err,
                       size_t errlen);

/**
 * Points the view at the worst step of the trace: the warp (block and warp) with the most bank
 * conflicts, loads and stores together, as kit_bank_simulate() counts them, and that warp's step
 * with the most conflicts (the first on a tie).
 * @param[in,out] v         the view: its model is read; block, warp and step are set
 * @param[in]     acc       the trace
 * @param[in]     n         its length
 * @param[out]    conflicts the conflicts of that step
 * @param[out]    err       why not: a bad model or trace, an empty trace
 * @param[in]     errlen    size of @p err
 * @return 0, or -1 with a message in @p err
 */
int kit_viz_worst(kit_viz_view *v, const kit_access *acc, size_t n, uint64_t *conflicts, char *err, size_t errlen);

/**
 * Releases a grid's cells and empties it; safe on an empty grid.
 * @param[in,out] g the grid
 */
void kit_viz_grid_free(kit_viz_grid *g);

/**
 * The cell of a bank and a grid column.
 * @param[in] g    the grid
 * @param[in] bank 0 .. w - 1
 * @param[in] col  0 .. cols - 1 (counted from the grid's first column)
 * @return the cell, or NULL outside the grid
 */
const kit_viz_cell *kit_viz_cell_at(const kit_viz_grid *g, unsigned bank, uint32_t col);

/**
 * Writes grids as plain text: the title, then each grid (highlighted cells in
 * [ ], conflicting ones in < >) with the simulator's counts under it, then a
 * legend and, if any cell has one, a map of the categories. It fits a terminal
 * of 80 columns: prose is wrapped at blanks (only a single word longer than a
 * line, such as a long file name, can pass 80), and a grid wider than that is
 * drawn in bands of columns, each headed by the words it shows.
 * @param[in] f  where to write
 * @param[in] v  the view the grids were built with
 * @param[in] g  the grids, one per step shown, all of the same shape
 * @param[in] ng their number, at least 1
 * @return 0, or -1 on a write error or grids of different shapes
 */
int kit_viz_render_text(FILE *f, const kit_viz_view *v, const kit_viz_grid *g, size_t ng);

/**
 * Writes grids as one SVG picture, side by side: a rect and a text per cell,
 * rows labelled "0:", "1:", ..., colours green (\#7bc67b) for highlighted cells,
 * red (\#e06666) for conflicts, else the category's (A \#fbe7a1, B \#a9c8ef,
 * aligned green, misaligned red, free \#d9d9d9). The output depends on nothing
 * but the arguments (no dates), so it can be compared byte for byte.
 * @param[in] f  where to write
 * @param[in] v  the view the grids were built with
 * @param[in] g  the grids, all of the same shape
 * @param[in] ng their number, at least 1
 * @return 0, or -1 on a write error or grids of different shapes
 */
int kit_viz_render_svg(FILE *f, const kit_viz_view *v, const kit_viz_grid *g, size_t ng);

/**
 * Writes a trace with kit_trace_write(), then the view as "# bankviz ..." comment
 * lines, which kit_trace_read() skips and kit_viz_trace_read() reads back.
 * @param[in] f   where to write
 * @param[in] v   the view
 * @param[in] acc the accesses
 * @param[in] n   their number
 * @return 0, or -1 on a write error
 */
int kit_viz_trace_write(FILE *f, const kit_viz_view *v, const kit_access *acc, size_t n);

/**
 * Reads a trace with kit_trace_read() (its messages pass through unchanged),
 * then reads any "# bankviz ..." lines into the view. Fields no such line names
 * keep what the caller put there (kit_viz_view_init() for a plain trace).
 * @pre @p f is a regular file: it is read twice
 * @param[in]     f      the trace
 * @param[in,out] v      defaults on entry; with the file's bankviz lines applied on return
 * @param[out]    acc    malloc'ed accesses (free it); NULL on error
 * @param[out]    n      their number
 * @param[out]    err    why not, with the line number for a malformed line
 * @param[in]     errlen size of @p err
 * @return 0, or -1 with a message in @p err
 */
int kit_viz_trace_read(FILE *f, kit_viz_view *v, kit_access **acc, size_t *n, char *err, size_t errlen);

/* ---- line plots --------------------------------------------------------------------- */

#define KIT_VIZ_MAX_SERIES 12      /**< the most lines one plot may hold */
#define KIT_VIZ_STYLES 8           /**< the styles there are (a colour and a marker each) */
#define KIT_VIZ_MAX_POINTS 32      /**< the most points one line may join */
#define KIT_VIZ_NAME_LEN 48        /**< room for a line's name (in the legend) of 47 characters */

/** One line of a plot: its name in the legend, how it is drawn, and its points. */
typedef struct kit_viz_series {
    char name[KIT_VIZ_NAME_LEN]; /**< the legend's text for it */
    unsigned style;              /**< 0 .. KIT_VIZ_STYLES - 1: its colour and marker shape (0 is black) */
    int dashed;                  /**< 1: a dashed line and hollow markers; 0: a solid line and filled markers */
    size_t n;                    /**< points in x[] and y[] */
    double x[KIT_VIZ_MAX_POINTS]; /**< the points' x, joined in this order (not sorted by the drawer) */
    double y[KIT_VIZ_MAX_POINTS]; /**< their y */
} kit_viz_series;

/** A line plot: a title, two labelled axes, and the lines, each with a legend entry. */
typedef struct kit_viz_plot {
    char title[KIT_VIZ_TEXT_LEN];   /**< the heading and the SVG's `<title>` */
    char note[KIT_VIZ_TEXT_LEN];    /**< a sentence under the title, or empty */
    char x_label[KIT_VIZ_TEXT_LEN]; /**< under the x axis */
    char y_label[KIT_VIZ_TEXT_LEN]; /**< beside the y axis, turned upright */
    int x_log2;                     /**< 1: the x axis has a log2 scale, ticks at powers of two written 2^k */
    size_t nseries;                 /**< lines in series[] */
    kit_viz_series series[KIT_VIZ_MAX_SERIES]; /**< the lines, drawn and listed in the legend in this order */
} kit_viz_plot;

/** One axis of a plot as drawn: its ends and its ticks, in axis units (exponents of 2 on a log2 axis). */
typedef struct kit_viz_axis {
    int log2;          /**< 1: a value v sits at log2(v); the ticks are powers of two */
    double lo;         /**< the low end of the axis, where the first tick stands */
    double hi;         /**< the high end, where the last tick stands */
    double step;       /**< between two ticks */
    unsigned ticks;    /**< how many: lo + k * step for k = 0 .. ticks - 1, the last at hi */
    int decimals;      /**< digits after the point in a linear axis' tick labels */
} kit_viz_axis;

/**
 * Adds a point to the plot's line of the given name, creating the line (solid, style = its index
 * modulo KIT_VIZ_STYLES) when the plot has none of that name yet.
 * @param[in,out] p      the plot (zeroed by the caller before the first point)
 * @param[in]     series the line's name
 * @param[in]     x      the point's x
 * @param[in]     y      the point's y
 * @return the line's index in p->series, or -1 when the name is empty or longer than
 *         KIT_VIZ_NAME_LEN - 1, or the plot would hold more than KIT_VIZ_MAX_SERIES lines or the line
 *         more than KIT_VIZ_MAX_POINTS points (the plot is then unchanged)
 */
int kit_viz_plot_point(kit_viz_plot *p, const char *series, double x, double y);

/**
 * Works out the axes a plot is drawn with. Each axis covers every point. The y axis is linear and
 * also covers 0; its ticks are 1, 2 or 5 times a power of ten apart, at most 8 intervals, and its
 * ends are ticks. A log2 x axis runs from the power of two at or below the smallest x to the one at
 * or above the largest, with a tick at every power (every 2nd, 4th, .. when that makes more than 12
 * intervals); a linear x axis is laid out as the y axis, without 0 added.
 * @param[in]  p      the plot
 * @param[out] x      its x axis
 * @param[out] y      its y axis
 * @param[out] err    why not: no line, a line without points, too many lines or points, a style out
 *                    of range, a value that is not finite, an x at or below 0 on a log2 axis
 * @param[in]  errlen size of @p err
 * @return 0, or -1 with a message in @p err
 */
int kit_viz_plot_axes(const kit_viz_plot *p, kit_viz_axis *x, kit_viz_axis *y, char *err, size_t errlen);

/**
 * Writes a plot as one SVG picture: the title and note on top; the plotting area with a light grid
 * at the ticks, tick labels and the axis labels, and a grey line at y = 0 when the y axis spans 0;
 * each line as one `<polyline>` with a marker at each point (`<circle>`, `<rect>` or `<polygon>`);
 * and a legend to the right, an entry per line in order, sampled with `<line>` elements. The axes
 * are those of kit_viz_plot_axes(). The output depends on nothing but the plot, so it can be
 * compared byte for byte.
 * @param[in]  f      where to write
 * @param[in]  p      the plot
 * @param[out] err    why not: what kit_viz_plot_axes() refuses, or a write error
 * @param[in]  errlen size of @p err
 * @return 0, or -1 with a message in @p err (nothing is written for a plot it refuses)
 */
int kit_viz_render_plot_svg(FILE *f, const kit_viz_plot *p, char *err, size_t errlen);

/* ---- the handouts' figures ---------------------------------------------------------- */

/** A built-in figure: its view and the accesses that draw it. */
typedef struct kit_viz_figure {
    kit_viz_view view; /**< how the figure is drawn by default */
    kit_access *acc;   /**< malloc'ed accesses */
    size_t n;          /**< their number */
} kit_viz_figure;

/**
 * How many built-in figures there are.
 * @return their number
 */
size_t kit_viz_figure_count(void);

/**
 * The name of a built-in figure, as --figure takes it.
 * @param[in] i 0 .. kit_viz_figure_count() - 1
 * @return the name, or NULL past the end
 */
const char *kit_viz_figure_name(size_t i);

/**
 * A one-line description of a built-in figure, for --list.
 * @param[in] i 0 .. kit_viz_figure_count() - 1
 * @return the line, or NULL past the end
 */
const char *kit_viz_figure_summary(size_t i);

/**
 * Builds a built-in figure's accesses and view.
 * @param[in]  name   one of kit_viz_figure_name()
 * @param[out] fig    the figure; release it with kit_viz_figure_free()
 * @param[out] err    why not (an unknown name, out of memory)
 * @param[in]  errlen size of @p err
 * @return 0, or -1 with a message in @p err
 */
int kit_viz_figure_make(const char *name, kit_viz_figure *fig, char *err, size_t errlen);

/**
 * Releases a figure's accesses; safe on an empty figure.
 * @param[in,out] fig the figure
 */
void kit_viz_figure_free(kit_viz_figure *fig);

#ifdef __cplusplus
}
#endif

#endif
