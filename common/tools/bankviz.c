/* bankviz: draws one warp's shared-memory accesses as the papers' bank grid (text or SVG), from a trace or a built-in figure. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit_viz.h"

#define EXIT_BAD_INPUT 2

static const char usage_text[] =
    "usage: bankviz --trace FILE [--block B] [--warp W] [--step S | --all | --worst] [--w 32] [--word 4]\n"
    "               [--label thread|word] [--format text|svg] [--dump-trace]\n"
    "       bankviz --figure NAME [--step S | --all] [--label thread|word] [--format text|svg] [--dump-trace]\n"
    "       bankviz --list\n"
    "Draws one warp's shared-memory accesses as a grid: a row per bank (bank 0 on top), a column\n"
    "per w consecutive words. Cells show the thread (its id in the block) that touches the word;\n"
    "the accesses of one step (ordinal) are highlighted, [n] in text, green in SVG, and those\n"
    "that share a bank with another word of the step are marked as conflicts, <n> or red.\n"
    "  --trace FILE   a kit trace ('# kit-trace 2' or 1; bankviz reads its '# bankviz' lines too)\n"
    "  --figure NAME  a built-in figure of the papers (--list names them)\n"
    "  --block B      the block to draw (default 0)\n"
    "  --warp W       the warp to draw: threads W*w .. W*w + w - 1 (default 0)\n"
    "  --step S       highlight ordinal S (default: the trace's or figure's choice, else the first)\n"
    "  --worst        draw the trace's worst step: the warp with most conflicts, and its step with most\n"
    "  --all          one grid per step: one after another (text) or side by side (SVG)\n"
    "  --w N          banks, also threads per warp, 1 .. 1024 (default 32)\n"
    "  --word N       bytes per bank word (default 4)\n"
    "  --label L      what cells show: thread ids, or word indices (address / word size)\n"
    "  --format F     text (default) or svg, on standard output\n"
    "  --dump-trace   print the accesses and the view as a trace instead of drawing them\n"
    "Exit status: 0, 1 if the output could not be written, 2 for bad input.\n";

typedef struct options {
    const char *trace;
    const char *figure;
    int list, all, svg, dump, help, worst;
    int have_block, have_warp, have_step, have_w, have_word, have_label;
    uint32_t block, warp, step;
    unsigned w, word;
    kit_viz_label label;
} options;

/* Prints "bankviz: <message>" and a pointer to --help on stderr; returns the bad-input status. */
static int refuse(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "bankviz: ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, "\n(bankviz --help shows the options)\n");
    return EXIT_BAD_INPUT;
}

/* Parses a whole decimal number in lo .. hi. */
static int number(const char *s, unsigned long lo, unsigned long hi, unsigned long *out)
{
    char *end;
    if (!s || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* Sets parse's option with_value[which], named opt, to val; returns 0, or the exit status after saying what
   is wrong. */
static int set_value(options *o, size_t which, const char *opt, const char *val)
{
    unsigned long v;
    switch (which) {
    case 0:
        o->trace = val;
        break;
    case 1:
        o->figure = val;
        break;
    case 2:
    case 3:
    case 4:
        if (number(val, 0, UINT32_MAX, &v) != 0)
            return refuse("%s '%s': expected a whole number from 0 to 4294967295", opt, val);
        if (which == 2)
            o->block = (uint32_t)v, o->have_block = 1;
        else if (which == 3)
            o->warp = (uint32_t)v, o->have_warp = 1;
        else
            o->step = (uint32_t)v, o->have_step = 1;
        break;
    case 5:
        if (number(val, 1, KIT_VIZ_MAX_W, &v) != 0)
            return refuse("--w '%s': the number of banks must lie in 1 .. 1024%s", val, "");
        o->w = (unsigned)v, o->have_w = 1;
        break;
    case 6:
        if (number(val, 1, 64, &v) != 0)
            return refuse("--word '%s': a bank's width must lie in 1 .. 64 bytes%s", val, "");
        o->word = (unsigned)v, o->have_word = 1;
        break;
    case 7:
        if (strcmp(val, "thread") == 0)
            o->label = KIT_VIZ_LABEL_THREAD;
        else if (strcmp(val, "word") == 0)
            o->label = KIT_VIZ_LABEL_WORD;
        else
            return refuse("--label '%s': expected thread or word%s", val, "");
        o->have_label = 1;
        break;
    default:
        if (strcmp(val, "svg") == 0)
            o->svg = 1;
        else if (strcmp(val, "text") != 0)
            return refuse("--format '%s': expected text or svg%s", val, "");
        break;
    }
    return 0;
}

/* Sets o's flag named by opt (--help, -h, --list, --all, --dump-trace); returns 1, or 0 if opt is no flag. */
static int set_flag(options *o, const char *opt)
{
    if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0)
        o->help = 1;
    else if (strcmp(opt, "--list") == 0)
        o->list = 1;
    else if (strcmp(opt, "--all") == 0)
        o->all = 1;
    else if (strcmp(opt, "--dump-trace") == 0)
        o->dump = 1;
    else if (strcmp(opt, "--worst") == 0)
        o->worst = 1;
    else
        return 0;
    return 1;
}

/* Fills o from argv; returns 0, or the exit status after saying what is wrong. */
static int parse(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (set_flag(o, opt))
            continue;
        /* set_value's cases follow this order */
        static const char *const with_value[] = {"--trace", "--figure", "--block", "--warp",   "--step",
                                                 "--w",     "--word",   "--label", "--format"};
        size_t which = 0, nopts = sizeof with_value / sizeof with_value[0];
        while (which < nopts && strcmp(opt, with_value[which]) != 0)
            which++;
        if (which == nopts)
            return refuse("unknown option '%s'%s", opt, "");
        if (!val)
            return refuse("%s needs a value%s", opt, "");
        i++;
        int status = set_value(o, which, opt, val);
        if (status != 0)
            return status;
    }
    if (o->help || o->list)
        return 0;
    if (!o->trace == !o->figure)
        return refuse("give one of --trace FILE and --figure NAME (or --list)%s%s", "", "");
    if (o->all && o->have_step)
        return refuse("--step and --all do not go together%s%s", "", "");
    if (o->worst && (o->figure || o->all || o->have_step || o->have_block || o->have_warp))
        return refuse("--worst picks the block, the warp and the step of a --trace itself%s%s", "", "");
    if (o->figure && (o->have_block || o->have_warp || o->have_w || o->have_word))
        return refuse("--block, --warp, --w and --word go with --trace; a figure fixes them "
                      "(--dump-trace it and edit the trace instead)%s%s",
                      "", "");
    return 0;
}

/* Builds one grid per step shown and renders them; returns the exit status. */
static int draw(const options *o, const kit_viz_view *v, const kit_access *acc, size_t n)
{
    char err[512];
    uint32_t *ords = NULL;
    size_t nords = 0, ng = 0;
    kit_viz_grid *grids = NULL;
    int status = EXIT_BAD_INPUT;
    if (kit_viz_warp_steps(v, acc, n, &ords, &nords, err, sizeof err) != 0) {
        fprintf(stderr, "bankviz: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    size_t want = o->all ? nords : 1;
    grids = calloc(want, sizeof *grids);
    if (!grids) {
        fprintf(stderr, "bankviz: out of memory\n");
        goto done;
    }
    for (ng = 0; ng < want; ng++)
        if (kit_viz_grid_build(v, o->all ? (long)ords[ng] : v->step, acc, n, &grids[ng], err, sizeof err) != 0) {
            fprintf(stderr, "bankviz: %s\n", err);
            goto done;
        }
    int rc = o->svg ? kit_viz_render_svg(stdout, v, grids, ng) : kit_viz_render_text(stdout, v, grids, ng);
    if (rc != 0 || fflush(stdout) != 0) {
        fprintf(stderr, "bankviz: could not write the picture: %s\n", strerror(errno));
        status = 1;
    } else {
        status = 0;
    }
done:
    for (size_t i = 0; i < ng && grids; i++)
        kit_viz_grid_free(&grids[i]);
    free(grids);
    free(ords);
    return status;
}

int main(int argc, char **argv)
{
    options o;
    int status = parse(argc, argv, &o);
    if (status != 0)
        return status;
    if (o.help) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (o.list) {
        for (size_t i = 0; i < kit_viz_figure_count(); i++)
            printf("%-18s %s\n", kit_viz_figure_name(i), kit_viz_figure_summary(i));
        return fflush(stdout) == 0 ? 0 : 1;
    }

    char err[512];
    kit_viz_figure fig;
    kit_viz_view *v = &fig.view;
    memset(&fig, 0, sizeof fig);
    if (o.figure) {
        if (kit_viz_figure_make(o.figure, &fig, err, sizeof err) != 0) {
            fprintf(stderr, "bankviz: %s\n", err);
            return EXIT_BAD_INPUT;
        }
    } else {
        FILE *f = fopen(o.trace, "r");
        if (!f) {
            fprintf(stderr, "bankviz: cannot open %s: %s\n", o.trace, strerror(errno));
            return EXIT_BAD_INPUT;
        }
        kit_viz_view_init(v);
        int rc = kit_viz_trace_read(f, v, &fig.acc, &fig.n, err, sizeof err);
        fclose(f);
        if (rc != 0) {
            fprintf(stderr, "bankviz: %s: %s\n", o.trace, err);
            return EXIT_BAD_INPUT;
        }
    }
    /* The command line wins over the trace's own "# bankviz" lines. */
    if (o.have_w)
        v->model.w = o.w;
    if (o.have_word)
        v->model.word_bytes = o.word;
    if (o.have_block)
        v->block = o.block;
    if (o.have_warp)
        v->warp = o.warp;
    if (o.have_step)
        v->step = (long)o.step;
    if (o.have_label)
        v->label = o.label;

    if (o.worst) {
        uint64_t c = 0;
        if (kit_viz_worst(v, fig.acc, fig.n, &c, err, sizeof err) != 0) {
            fprintf(stderr, "bankviz: %s: %s\n", o.trace, err);
            kit_viz_figure_free(&fig);
            return EXIT_BAD_INPUT;
        }
        snprintf(v->note, sizeof v->note, "The trace's worst step: block %u, warp %u, step %ld, %" PRIu64 " bank conflicts.",
                 v->block, v->warp, v->step, c);
    }
    if (o.dump) {
        status = kit_viz_trace_write(stdout, v, fig.acc, fig.n) == 0 ? 0 : 1;
        if (status)
            fprintf(stderr, "bankviz: could not write the trace: %s\n", strerror(errno));
    } else {
        status = draw(&o, v, fig.acc, fig.n);
    }
    kit_viz_figure_free(&fig);
    return status;
}
