/* Lab 7 driver: runs cf_merge_kernel (your gather) on generated input, GPU or CPU emulation, and checks it; --tile is E; --serve answers the grader. */
#include "lab07.cuh"

int main(int argc, char **argv)
{
    return kit_merge_driver_main(&LAB07, argc, argv);
}
