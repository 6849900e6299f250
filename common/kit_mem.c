/* Memory for the kit's big arrays (kit_mem.h). */
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "kit_mem.h"

void *kit_malloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (p && bytes >= KIT_MEM_HUGE_BYTES) {
        const uintptr_t page = 4096;
        uintptr_t start = ((uintptr_t)p + page - 1) & ~(page - 1), end = ((uintptr_t)p + bytes) & ~(page - 1);
        (void)madvise((void *)start, end - start, MADV_HUGEPAGE); /* a hint: where THP is off it fails, and nothing changes */
    }
    return p;
}
