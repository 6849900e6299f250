/** @file
 * The host side of the predecessor-search lab (lab 6): the query generators (random, and the
 * worst case of section IV-A of Karsin et al.) and the paper's access count for PBS. The lab's
 * harness, the grader and the kit's tests share them; the reference answer is the instructor's
 * (grader/ref/kit_ref.h). It lives in the lab's harness/ because no other lab needs it.
 */
#ifndef LAB06_PBS_HOST_H
#define LAB06_PBS_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "kit_gen.h"
#include "kit_types.h"

/** w in the query generators: threads of a warp and banks, as in the lab's PBS_W. */
#define PBS_WARP 32

#ifdef __cplusplus
extern "C" {
#endif

/** The query sets the kit generates. */
typedef enum kit_pbs_queries {
    KIT_PBS_KEYS,  /**< each query a key of K, drawn at random (the paper's experiments) */
    KIT_PBS_RANGE, /**< uniform over the keys' range widened by a quarter on each side: queries below the first key and above the last */
    KIT_PBS_WORST, /**< the worst case for PBS (see kit_pbs_gen_queries) */
    KIT_PBS_QUERIES_COUNT
} kit_pbs_queries;

/** @return the command-line name of a query set ("keys", "range", "worst"), or "?". */
const char *kit_pbs_queries_name(kit_pbs_queries kind);

/**
 * Parses a query-set name.
 * @param[in]  name the name
 * @param[out] out  the query set
 * @return 0, or -1 if the name is unknown
 */
int kit_pbs_queries_parse(const char *name, kit_pbs_queries *out);

/**
 * Fills Q queries of the given kind, the same for the same seed on every machine.
 * Worst case (w = 32 threads per warp, element-sized banks as in the paper): when K is a
 * multiple of w*w, thread i of each warp queries keys[i*K/w + C], with C drawn once per warp in
 * 0 .. K/w - 1 (section IV-A). Other K need the pigeonhole construction of Lemma 4.2, which
 * follows Algorithm 1 for every key: that is the instructor's kit_pbs_gen_queries_any
 * (grader/ref/kit_ref.h), and here it is an error.
 * @param[in]  t    key type: KIT_TYPE_I32 or KIT_TYPE_I64
 * @param[in]  keys K keys, sorted ascending, K >= 1
 * @param[in]  K    number of keys
 * @param[in]  kind the query set
 * @param[in]  seed the generator's seed
 * @param[out] out  Q queries of type @p t
 * @param[in]  Q    number of queries
 * @return 0, or -1 for a bad type, K = 0, an unknown kind, or worst queries for K not a multiple of w*w
 */
int kit_pbs_gen_queries(kit_type t, const void *keys, size_t K, kit_pbs_queries kind, uint64_t seed, void *out,
                        size_t Q);

/**
 * The input of a lab 6 test, made as the grader makes it (its op=pbs generator): the K sorted keys
 * from the generator @p g and @p seed (kit_gen_merge_input() with no B), then Q queries of the kind
 * from the same seed (kit_pbs_gen_queries()). So make run with a test's --gen, --seed, --m, --n and
 * --queries answers that test's very queries.
 * @param[in]  t       key type: KIT_TYPE_I32 or KIT_TYPE_I64
 * @param[out] keys    K keys
 * @param[in]  K       number of keys, >= 1
 * @param[in]  g       the keys' generator (a one-array one)
 * @param[in]  kind    the query set
 * @param[in]  seed    the seed of both
 * @param[out] queries Q queries
 * @param[in]  Q       number of queries
 * @return 0, or -1 as kit_pbs_gen_queries() (worst queries need K a multiple of w*w here)
 */
int kit_pbs_gen_input(kit_type t, void *keys, size_t K, kit_gen g, kit_pbs_queries kind, uint64_t seed, void *queries,
                      size_t Q);

/**
 * The most PBS's log K passes can cost one warp (the papers' count: the sum over the passes of the
 * most distinct words one bank serves), for K a power of two with K >= w: pass i (i = 0 ..
 * log K - 1) reads at most 2^i distinct keys, at most w threads meet in a bank, and a bank holds
 * only K/w keys, so the sum is of min(2^i, w, K/w). For K >= w^2 that is the paper's
 * w(log K - log w + 1) - 1 (section V-B), which its worst-case queries reach; for K < w^2 it is
 * smaller (95 for K = 512, w = 32), as the paper notes: "the maximum number of bank conflicts per
 * iteration is limited to K/w". Nsight Compute reports the extra accesses only, log K fewer.
 * @param[in] K number of keys, a power of two, K >= w
 * @param[in] w banks, a power of two
 * @return the count, or -1 if K or w is not a power of two or K < w
 */
long long kit_pbs_worst_accesses(long long K, long long w);

#ifdef __cplusplus
}
#endif

#endif
