/* Lab 5 driver: runs your merge_circular_kernel on generated input (GPU, or the CPU emulation) and checks it; --serve answers the grader. */
#include "lab05.cuh"

int main(int argc, char **argv)
{
    return kit_merge_driver_main(&LAB05, argc, argv);
}
