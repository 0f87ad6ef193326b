/**
 * \file
 * Lookalike names (UTS #39): the facts the policy unit decides on.  Libc and the codec only; no Unbound
 * headers.
 *
 * - mixed-script: an xn-- label whose restriction level (UTS #39 5.2) is
 *   less restrictive than the configured one;
 * - mixed-number: an xn-- label whose decimal digits come from more than one
 *   set of ten (5.3);
 * - confusable: the name, or a parent of it that holds an xn-- label, has
 *   the skeleton (section 4) of a protected name but is not that name.
 *   A protected name's subdomains are covered: login.xn--pypal-4ve.com is
 *   judged through xn--pypal-4ve.com, which looks like paypal.com.
 *
 * Names of plain ASCII labels are never judged here, nor ASCII labels on
 * their own: UTS #39 is about look-alike scripts, and ASCII typosquatting
 * (paypa1.com) is not IDNA's business.  So a parent name is compared with
 * the protected names only when it holds an xn-- label.
 */
#ifndef IDNG_LOOKALIKE_H
#define IDNG_LOOKALIKE_H

#include "idng_nameset.h"
#include "idnguard.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A slot of the skeleton hash table (defined in core/idng_lookalike.c). */
struct idng_skel_slot;

/**
 * Protected names: the names themselves (A-label wire form, lowercase) and
 * a hash table of their skeletons.  Built once, read-only afterwards: any
 * number of threads may look up at once while nobody adds.  All zeros is
 * an empty, valid set.
 */
struct idng_protect {
    struct idng_nameset names;    /**< the protected names, in the order added */
    struct idng_skel_slot *slots; /**< nslots (a power of two), or NULL */
    size_t nslots, used;
    uint32_t *keys;               /**< every name's skeleton key, one after another */
    size_t keys_len, keys_cap;
    /** The hashes of the keys of every parent of every protected name (com.
     *  and paypal.com. for paypal.com.): a query name whose parent's key is
     *  not among them can have no longer parent that matches, so its labels
     *  are keyed from the last one and only as far as this allows. */
    uint64_t *parents;            /**< nparents slots (a power of two), 0 = empty */
    size_t nparents, parents_used;
};

/** Makes s an empty set. */
void idng_protect_init(struct idng_protect *s);
/** Releases everything s holds and makes it empty; NULL is fine. */
void idng_protect_free(struct idng_protect *s);

/**
 * Adds a name, in A-label wire form (any case).  Its labels must be valid
 * (the settings parser checks them with idng_wire_check first): an xn--
 * label that does not decode, or a label with an octet >= 0x80, is -2.
 * @return 0 added; 1 already there; -1 out of memory (the set is
 *   unchanged); -2 malformed or not an A-label name.
 */
int idng_protect_add(struct idng_protect *s, const uint8_t *wire, size_t len);

/** Heap memory held by s, in octets (see idng_nameset_mem). */
size_t idng_protect_mem(const struct idng_protect *s);

/** What idng_lookalike_scan found: bits of found. */
enum {
    IDNG_LK_MIXED_SCRIPT = 1u << 0,
    IDNG_LK_CONFUSABLE = 1u << 1,
    IDNG_LK_MIXED_NUMBER = 1u << 2
};

/** The facts about one name. */
struct idng_lookalike {
    unsigned found;            /**< IDNG_LK_* bits */
    idng_restriction level;    /**< the least restrictive xn-- label's level */
    /** Per class, at the index of its bit (IDNG_LK_MIXED_SCRIPT = 1 << 0, ...):
     *  the label found, as in idng_error: the first label below the limit,
     *  the first xn-- label of the confusable part, the first label with
     *  mixed numbers. */
    struct {
        size_t off, len;
    } at[3];
    size_t like;               /**< index in protect->names of the name it looks like */
};

/** Code points a name's skeleton key may take (see core/idng_lookalike.c). */
#define IDNG_LK_KEY_MAX (IDNG_WIRE_MAX * IDNG_SKELETON_GROWTH + IDNG_LABELS_MAX + 1)

/**
 * The judgment of one name in progress, for a caller that walks the labels
 * itself: idng_lookalike_start, then idng_lookalike_label for every label
 * in name order (it is an idng_label_fn: the policy hands it to
 * idng_wire_check_labels, so that each xn-- label is decoded once), then
 * idng_lookalike_finish.  About 10 KiB; the fields are internals.
 */
struct idng_lookalike_run {
    const struct idng_protect *protect;
    idng_restriction limit;
    idng_mode mode;
    const uint8_t *wire;
    size_t wire_len;
    int keys, any;
    size_t nlab, first; /* labels, and the first whose code points are kept */
    size_t off[IDNG_LABELS_MAX];
    uint8_t len[IDNG_LABELS_MAX];
    unsigned char judged[IDNG_LABELS_MAX];
    /* With keys: each label's code points, kept for idng_lookalike_finish,
     * which makes the skeletons from the last label on. */
    size_t cp_at[IDNG_LABELS_MAX + 1];
    uint32_t cps[IDNG_LK_KEY_MAX];
    /* The key (on idng_lookalike_finish's frame), built from its end: the
     * parent from label i on is key[key_at[i] .. IDNG_LK_KEY_MAX). */
    size_t key_at[IDNG_LABELS_MAX + 1];
    struct idng_lookalike out;
};

/** Starts judging wire[0..len) (see idng_lookalike_scan for the arguments). */
void idng_lookalike_start(struct idng_lookalike_run *r, const struct idng_protect *protect,
                          idng_restriction limit, idng_mode mode, const uint8_t *wire, size_t len);
/** One label (an idng_label_fn; ctx is the run). */
void idng_lookalike_label(void *ctx, size_t off, size_t len, const uint32_t *cps, size_t n);
/** The facts, as idng_lookalike_scan returns them (r->any is 0, and so
 *  is the result, when no label was judged: a caller may skip the call). */
int idng_lookalike_finish(struct idng_lookalike_run *r, struct idng_lookalike *out);

/**
 * Judges a wire name: every xn-- label that decodes, and every raw label
 * (octets >= 0x80) as what it normalizes to under mode (UTS #46 ToASCII),
 * whatever else is wrong with it or with other labels (their own checks
 * judge that; no label can hide another).  A label that is not judged (an
 * xn-- label that does not decode, a raw label that does not convert)
 * still takes part, as its octets, in the skeletons of the name and its
 * parents.  Offsets are of label contents in wire, as in idng_error.
 *
 * @param protect: the protected names (may be empty).
 * @param limit: the restriction level a label may have at most.
 * @param mode: the mode raw labels are converted under.
 * @return 0 when the name holds no label judged, or is malformed
 *   (nothing judged: *out is all clear); else 1, with *out filled.
 */
int idng_lookalike_scan(const struct idng_protect *protect, idng_restriction limit,
                        idng_mode mode, const uint8_t *wire, size_t len,
                        struct idng_lookalike *out);

/**
 * The class names of found (IDNG_LK_* bits), comma-separated in the order
 * of the bits ("mixed-script,confusable"); NULL for none.  What the query
 * log shows of a name it does not show in Unicode.
 */
const char *idng_lookalike_name(unsigned found);

#ifdef __cplusplus
}
#endif
#endif /* IDNG_LOOKALIKE_H */
