/* labcheck's command line: checks a student's lab file on its syntax tree (labcheck.h says how). */
#include <stdio.h>

#include "labcheck.h"

int main(int argc, char **argv)
{
    labcheck_opts o;
    char err[512];
    if (labcheck_parse_args(argc - 1, argv + 1, &o, err, sizeof err) != 0) {
        printf("labcheck: %s\n", err);
        return 2;
    }
    return labcheck_run(&o, stdout);
}
