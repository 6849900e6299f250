/* Lab 3 driver: runs your merge_basic_kernel on generated input (GPU, or the CPU emulation) and checks it; --serve answers the grader. */
#include "lab03.cuh"

int main(int argc, char **argv)
{
    return kit_merge_driver_main(&LAB03, argc, argv);
}
