/**
 * \file
 * Internal: what the lookalike files share and idng_lookalike.h does not
 * show: the skeleton keys and the slots of the protected names' table, the
 * kinds of key, and the steps one file takes of another's.  Not installed.
 *
 * The files:
 *   lookalike.c        a run over one name: each label judged on its
 *                           own (mixed-script, patterns, emoji set aside)
 *   lookalike_match.c  the name's keys looked up among the protected
 *                           names' (confusable, near-miss, protect-suffixes,
 *                           protect-embedded), and the run finished
 *   protect.c          the protected names' table, built
 *   tld_scripts.c      the scripts a top-level domain expects, and the
 *                           rules that need the TLD (whole-script,
 *                           tld-letter)
 */
#ifndef IDNG_LOOKALIKE_INTERNAL_H
#define IDNG_LOOKALIKE_INTERNAL_H

#include "idng_lookalike.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * A name's skeleton key: for each label, first to last, the length of its
 * skeleton then the skeleton's code points (a skeleton may be longer than
 * the label, and may hold '.', so the lengths keep labels apart).  A
 * label's skeleton is the skeleton of its code points: a judged label's
 * (an xn-- label decoded, a raw label as what it normalizes to), any other
 * label's octets; ASCII letters lowercased in both.
 *
 * The key of a parent name is the tail of its child's key, so one pass
 * from the last label to the first gives every parent's hash, each label
 * folded into the hash of its parent (as core/nameset.c hashes
 * names), and a lookup costs one probe per label.
 *
 * Bounds: a wire name has at most 253 label octets, hence at most 253 code
 * points, and the skeleton of one is at most IDNG_SKELETON_GROWTH code
 * points (a UTS #46 valid code point's; an ASCII one's is 3 at most), so
 * IDNG_LK_KEY_MAX holds the key of any name whose labels are valid.  A
 * name whose key does not fit is not compared (a protected name's key
 * fits, so it could not match).
 */

struct idng_skel_slot {
    uint64_t hash;  /**< hash of the key */
    uint32_t off;   /**< the key at keys[off..off + len) */
    uint32_t len;
    uint32_t index; /**< 1 + the name's index in names.names; 0: empty slot */
    uint32_t kinds; /**< bit k: the key is a name's key of kind k; bit KINDS + k:
                         a registrable label's key of kind k */
};

/*
 * Three kinds of key, each a name's skeleton key made with other
 * idng_skeleton_ex flags: UTS #39's skeleton; with the extra lookalike
 * mappings (both make a confusable name); and with marks and strokes
 * dropped too (a near miss).  A protected name is held under each of its
 * distinct keys, a query name is looked up under each kind in turn.
 */
enum { KIND_SKELETON, KIND_EXTRA, KIND_FOLD, KINDS };
static const unsigned kind_flags[KINDS] = {0, IDNG_SK_EXTRA, IDNG_SK_EXTRA | IDNG_SK_FOLD};

/* A protected name's registrable label (the label left of its public
 * suffix) is held under each kind too, as a key of its own (its skeleton,
 * no length): bit KINDS + k of a slot.  protect-suffixes and
 * protect-embedded look labels up there.
 *
 * Most names have one key for every kind: their letters have no extra
 * mapping, no mark, nothing to fold.  So a slot holds one key and the bits
 * of every kind it is the key of, and a kind is made only where it differs
 * (struct idng_spoof_facts.keys): a query name whose looser key is its
 * skeleton looks its skeleton up under those kinds' bits too. */

/* The hash of a key's code points p[0..n) folded into its parent's. */
static inline uint64_t fold(uint64_t parent, const uint32_t *p, size_t n)
{
    uint64_t h = parent;
    size_t i;

    for (i = 0; i < n; i++)
        h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return idng_hash_mix(h);
}
#define ROOT_HASH UINT64_C(0x9e3779b97f4a7c15)
#define LABEL_HASH (ROOT_HASH + UINT64_C(0xc2b2ae3d27d4eb4f))

/* Puts sk[0..n), the key of label i of r, before the key already built
 * (the labels after it), after its length, and returns the new parent's
 * hash; 0 and r->keys cleared when it does not fit. */
static inline uint64_t lk_key_put(struct idng_lookalike_run *r, uint32_t *key, size_t i,
                                  uint64_t parent, const uint32_t *sk, size_t n)
{
    size_t end = r->key_at[i + 1];

    if (n + 1 > end) {
        r->keys = 0;
        return 0;
    }
    r->key_at[i] = end - n - 1;
    key[r->key_at[i]] = (uint32_t)n;
    memcpy(key + r->key_at[i] + 1, sk, n * sizeof *sk);
    return fold(parent, key + r->key_at[i], n + 1);
}

/* Does p[0..n) hold an octet >= 0x80 (a raw label, or a name with one)? */
static inline int has_8bit(const uint8_t *p, size_t n)
{
    uint8_t high = 0;

    while (n-- > 0)
        high |= *p++;
    return (high & 0x80) != 0;
}

/* Notes class cls at the label at off, unless an earlier label has it. */
static inline void note(struct idng_lookalike *o, int cls, size_t off, size_t len)
{
    unsigned bit = IDNG_LK_BIT(cls);

    if (o->found & bit)
        return;
    o->found |= bit;
    o->at[cls - IDNG_C_MIXED_SCRIPT].off = off;
    o->at[cls - IDNG_C_MIXED_SCRIPT].len = len;
}

/* lookalike.c: every label of a well-formed wire name to
 * idng_lookalike_label; 0 when the name is malformed. */
int lk_walk(struct idng_lookalike_run *r, const uint8_t *wire, size_t len);

/* lookalike_match.c: the probes of the table and the keys of a run's
 * labels, which the table's build makes as a query name's are. */
struct idng_skel_slot *lk_find_next(const struct idng_protect *s, unsigned accept, uint64_t h,
                                    const uint32_t *key, size_t len, size_t *pos);
const uint8_t *lk_registrable_label(const uint8_t *p);
int lk_label_key(const struct idng_lookalike_run *r, unsigned kind, size_t i, uint32_t *sk,
                 size_t *n);
size_t lk_label_at(const struct idng_lookalike_run *r, size_t off);
uint64_t lk_key_label(struct idng_lookalike_run *r, unsigned kind, uint32_t *key, size_t i,
                      uint64_t parent);

/* tld_scripts.c: the rules that need the top-level domain. */
void lk_by_tld(const struct idng_lookalike_run *r, struct idng_lookalike *out);

#endif
