/* skelgen: writes a lab skeleton from its reference solution (see skel.h for the markers). */
#include <stdio.h>

#include "skel.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s SOLUTION_FILE SKELETON_FILE\n", argv[0]);
        return 2;
    }
    FILE *in = fopen(argv[1], "r");
    if (!in) {
        perror(argv[1]);
        return 1;
    }
    FILE *out = fopen(argv[2], "w");
    if (!out) {
        perror(argv[2]);
        fclose(in);
        return 1;
    }
    char err[256];
    int regions = skel_strip(in, out, argv[1], err, sizeof err);
    fclose(in);
    if (fclose(out) != 0 || regions < 0) {
        fprintf(stderr, "skelgen: %s\n", regions < 0 ? err : "could not write the skeleton");
        remove(argv[2]);
        return 1;
    }
    if (regions == 0) {
        fprintf(stderr, "skelgen: %s has no //@answer region, so the skeleton would give the answer away\n", argv[1]);
        remove(argv[2]);
        return 1;
    }
    return 0;
}
