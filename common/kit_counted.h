/** @file kit_counted.h A key type that counts every comparison made on it, so a test can bound a search's work. Host C++. */
#ifndef KIT_COUNTED_H
#define KIT_COUNTED_H

#include <stdint.h>

#include "kit_types.h"

/** Comparisons made on kit_counted keys since the last reset. */
inline long long kit_comparisons = 0;

/** Adds one to kit_comparisons when running on the host; device code never counts. */
KIT_HD inline void kit_count_comparison(void)
{
#if !defined(__CUDA_ARCH__)
    kit_comparisons++;
#endif
}

/**
 * A 64-bit key whose six comparison operators each call kit_count_comparison().
 * They are KIT_HD only so that KIT_HD lab functions accept the type.
 */
struct kit_counted {
    int64_t key; /**< the key compared */
};

/** Compare the keys, and count one comparison each. @{ */
KIT_HD inline bool operator<(kit_counted a, kit_counted b) { kit_count_comparison(); return a.key < b.key; }
KIT_HD inline bool operator<=(kit_counted a, kit_counted b) { kit_count_comparison(); return a.key <= b.key; }
KIT_HD inline bool operator>(kit_counted a, kit_counted b) { kit_count_comparison(); return a.key > b.key; }
KIT_HD inline bool operator>=(kit_counted a, kit_counted b) { kit_count_comparison(); return a.key >= b.key; }
KIT_HD inline bool operator==(kit_counted a, kit_counted b) { kit_count_comparison(); return a.key == b.key; }
KIT_HD inline bool operator!=(kit_counted a, kit_counted b) { kit_count_comparison(); return a.key != b.key; }
/** @} */

#endif
