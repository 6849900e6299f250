/* benchplot: draws a plot of a sort_bench log of results/ as SVG, for handout 9 (make bench-plots draws them all). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kit_sortlog.h"

#define EXIT_BAD_INPUT 2

static const char usage_text[] =
    "usage: benchplot --log FILE --plot throughput|slowdown\n"
    "Draws one plot of a log of build/bench/sort_bench (lab 9's sorts against CUB, as kept in\n"
    "results/) as SVG on standard output; make bench-plots draws handout 9's plots this way.\n"
    "  --log FILE    the log, as sort_bench printed it\n"
    "  --plot KIND   throughput: Gkeys/s against n (log2 scale) of each sorter on random input;\n"
    "                slowdown: worst-case time / random time - 1 (%) against n of each sorter,\n"
    "                from the log's table of lab 8's worst case\n"
    "Exit status: 0, 1 if the output could not be written, 2 for bad input.\n";

/* Prints "benchplot: <what>" and a pointer to --help on stderr; returns the bad-input status. */
static int refuse(const char *what, const char *arg)
{
    fprintf(stderr, "benchplot: %s%s\n(benchplot --help shows the options)\n", what, arg);
    return EXIT_BAD_INPUT;
}

/* Reads --log and --plot; returns 0, -1 for --help, or the exit status after saying what is wrong. */
static int parse(int argc, char **argv, const char **log, const char **plot)
{
    *log = *plot = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return -1;
        const char **to = strcmp(argv[i], "--log") == 0 ? log : strcmp(argv[i], "--plot") == 0 ? plot : NULL;
        if (!to)
            return refuse("unknown option ", argv[i]);
        if (i + 1 == argc)
            return refuse(argv[i], " needs a value");
        *to = argv[++i];
    }
    if (!*log || !*plot)
        return refuse("give both --log FILE and --plot throughput|slowdown", "");
    if (strcmp(*plot, "throughput") != 0 && strcmp(*plot, "slowdown") != 0)
        return refuse("--plot: expected throughput or slowdown, got ", *plot);
    return 0;
}

int main(int argc, char **argv)
{
    const char *path, *kind;
    int status = parse(argc, argv, &path, &kind);
    if (status < 0) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (status != 0)
        return status;
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "benchplot: cannot open %s: %s\n", path, strerror(errno));
        return EXIT_BAD_INPUT;
    }
    char err[512];
    kit_sortlog log;
    kit_viz_plot plot;
    int rc = kit_sortlog_read(f, path, &log, err, sizeof err);
    fclose(f);
    if (rc == 0) {
        rc = strcmp(kind, "throughput") == 0 ? kit_sortlog_throughput_plot(&log, path, &plot, err, sizeof err)
                                             : kit_sortlog_slowdown_plot(&log, path, &plot, err, sizeof err);
        kit_sortlog_free(&log);
    }
    kit_viz_axis x, y;
    if (rc == 0)
        rc = kit_viz_plot_axes(&plot, &x, &y, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "benchplot: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    if (kit_viz_render_plot_svg(stdout, &plot, err, sizeof err) != 0) {
        fprintf(stderr, "benchplot: %s: %s\n", err, strerror(errno));
        return 1;
    }
    return 0;
}
