/* Lab 4 driver: runs your merge_tiled_kernel on generated input (GPU, or the CPU emulation) and checks it; --serve answers the grader. */
#include "lab04.cuh"

int main(int argc, char **argv)
{
    return kit_merge_driver_main(&LAB04, argc, argv);
}
