/**
 * \file
 * Verdicts remembered for the cache-hit path.  Unbound answers a cache hit
 * without running the module; its reply callback only counts the answer
 * (and logs it when the name's action is log, or every query is logged).
 * The same few names come back all the time, and an xn-- name costs a
 * decode and the lookalike rules to judge again, so a small table, one per
 * thread, remembers what the counters need of the verdict of names that
 * are not plain ASCII: its row and action.  Plain names are judged each
 * time; that is cheaper than a lookup, and they would push the costly
 * names out.
 *
 * A slot holds the name's exact octets (case included: nothing is assumed
 * about what the policy folds) and the settings generation it was judged
 * under, so no name is ever given another name's verdict, nor one judged
 * under settings since replaced.  Uses the policy (idng_policy.h), the
 * counters' rows (idng_stats.h), the name sets' hash (idng_nameset.h) and
 * the codec; libc only besides; no locks (a table belongs to one thread).
 * The response scan (idng_scan.h) sits above it; the policy knows nothing
 * of it.
 */
#ifndef IDNG_MEMO_H
#define IDNG_MEMO_H

#include "idng_policy.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Slots of a table (a power of two), in sets of two: a name may take
 *  either slot of its set, so two names that hash alike do not push each
 *  other out at every turn. */
#define IDNG_MEMO_SLOTS 256

/** What the counters need of a verdict (idng_stats.h). */
struct idng_brief {
    unsigned row;          /**< idng_verdict_row of the verdict */
    enum idng_action action;
    int ok;                /**< idng_verdict_is_ok of the verdict: idng_verdict_ok
                                gives it back whole */
};

struct idng_memo_slot {
    uint64_t gen;  /**< settings generation; 0: empty */
    uint8_t len;   /**< the name's length (1-255) */
    uint8_t row;
    uint8_t action;
    uint8_t recent; /**< 1: the slot of its set looked up last */
    uint8_t ok;
    uint8_t name[IDNG_WIRE_MAX];
};

/** One thread's table; all zero is empty. */
struct idng_memo {
    struct idng_memo_slot slot[IDNG_MEMO_SLOTS];
};

/**
 * The brief of idng_policy_judge(p, wire, len) into *b.  gen (nonzero)
 * names p's contents: the caller gives a new one whenever it replaces the
 * settings.  Returns 1 when the brief came from the table, 0 when the name
 * was judged (and, unless plain, remembered in an empty slot of its set,
 * else in place of the name of the set looked up less recently).
 */
int idng_memo_judge(struct idng_memo *m, uint64_t gen, const struct idng_policy *p,
                    const uint8_t *wire, size_t len, struct idng_brief *b);

/**
 * idng_policy_judge(p, wire, len, v), or with data idng_policy_judge_data,
 * through the table: a name whose verdict was the bare ok verdict
 * (idng_verdict_is_ok) is not judged again but given idng_verdict_ok; any
 * other is judged once (a name the table did not hold is judged by the
 * lookup itself, and remembered).  The one way the module and the response
 * scan judge a name with the table.
 */
void idng_memo_verdict(struct idng_memo *m, uint64_t gen, const struct idng_policy *p,
                       const uint8_t *wire, size_t len, int data, struct idng_verdict *v);

#ifdef __cplusplus
}
#endif

#endif /* IDNG_MEMO_H */
