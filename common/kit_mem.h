/**
 * @file kit_mem.h
 * Memory for the kit's big arrays: a test's inputs and outputs run to tens of megabytes, and a
 * buffer that size faults in page by page unless the kernel is asked for huge pages.
 */
#ifndef KIT_MEM_H
#define KIT_MEM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Buffers of at least this many bytes ask for transparent huge pages. */
#define KIT_MEM_HUGE_BYTES ((size_t)2 << 20)

/**
 * malloc(), and for a buffer of KIT_MEM_HUGE_BYTES or more, madvise(MADV_HUGEPAGE) on its whole
 * pages, so that it faults in 2 MiB at a time where the kernel's transparent huge pages allow it
 * (the "madvise" setting). The hint changes no contents; release with free().
 * @param[in] bytes the size; 0 gives a buffer of 1 byte
 * @return the buffer, or NULL when memory ran out
 */
void *kit_malloc(size_t bytes);

#ifdef __cplusplus
}
#endif

#endif
