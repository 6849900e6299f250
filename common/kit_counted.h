/** @file kit_counted.h A key type that counts every comparison made on it, so a test can bound a search's work. Host C++. */
#ifndef KIT_COUNTED_H
#define KIT_COUNTED_H

#include <stdint.h>

#include "kit_types.h"

extern "C" {
/**
 * Adds @p made comparisons to the count kept in the kit's library (out of reach of lab code) and
 * returns the count: kit_comparisons_add(0) reads it, so the comparisons of a call are the
 * difference of two reads. The harness and the operators below share this one function.
 */
long long kit_comparisons_add(int made);
}

/** Counts one comparison when running on the host; device code never counts. */
KIT_HD inline void kit_count_comparison(void)
{
#if !defined(__CUDA_ARCH__)
    kit_comparisons_add(1);
#endif
}

/**
 * A 64-bit key whose six comparison operators each call kit_count_comparison(). Its key is
 * private: code under test can compare two keys, and every comparison is counted. The operators
 * are KIT_HD only so that KIT_HD lab functions accept the type.
 */
class kit_counted {
  public:
    kit_counted() : key_(0) {}                         /**< the key 0 */
    explicit kit_counted(int64_t key) : key_(key) {}   /**< the key @p key */

  private:
    int64_t key_;
    friend KIT_HD bool operator<(kit_counted a, kit_counted b);
    friend KIT_HD bool operator<=(kit_counted a, kit_counted b);
    friend KIT_HD bool operator>(kit_counted a, kit_counted b);
    friend KIT_HD bool operator>=(kit_counted a, kit_counted b);
    friend KIT_HD bool operator==(kit_counted a, kit_counted b);
    friend KIT_HD bool operator!=(kit_counted a, kit_counted b);
};

/** Compare the keys, and count one comparison each. @{ */
KIT_HD inline bool operator<(kit_counted a, kit_counted b) { kit_count_comparison(); return a.key_ < b.key_; }
KIT_HD inline bool operator<=(kit_counted a, kit_counted b) { kit_count_comparison(); return a.key_ <= b.key_; }
KIT_HD inline bool operator>(kit_counted a, kit_counted b) { kit_count_comparison(); return a.key_ > b.key_; }
KIT_HD inline bool operator>=(kit_counted a, kit_counted b) { kit_count_comparison(); return a.key_ >= b.key_; }
KIT_HD inline bool operator==(kit_counted a, kit_counted b) { kit_count_comparison(); return a.key_ == b.key_; }
KIT_HD inline bool operator!=(kit_counted a, kit_counted b) { kit_count_comparison(); return a.key_ != b.key_; }
/** @} */

#endif
