/**
 * \file
 * Lookalike names: the facts the policy unit decides on.  Uses the name
 * sets (idng_nameset.h), the Public Suffix List (idng_psl.h) and the codec;
 * libc only besides, no Unbound headers.  One class per rule family, each
 * with its source:
 *
 * - mixed-script: a label whose restriction level (UTS #39 5.2) is less
 *   restrictive than the configured one, with its emoji (idng_is_emoji)
 *   set aside: pictographs fake no letter (💩, i❤ are not mixed-script);
 * - confusable: the name, or a parent of it that holds a judged label, has
 *   the skeleton (UTS #39 section 4) of a protected name but is not that
 *   name; or the same once letters UTS #39 maps elsewhere than they look
 *   (tools/lookalike_extra.txt: Cyrillic palochka looks like l, not i) are
 *   taken as what they look like.  A protected name's subdomains are
 *   covered: login.xn--pypal-4ve.com is judged through xn--pypal-4ve.com.
 *   A label is keyed with its emoji set aside as mixed-script sets them
 *   aside (but a label of emoji alone): pаypal🍎 and paypal🍎 look like
 *   paypal; so are the keys of protect-suffixes and protect-embedded;
 * - mixed-number: a label whose decimal digits come from more than one set
 *   of ten (UTS #39 5.3);
 * - whole-script: a label written in one script, not one its top-level
 *   domain expects, whose every letter looks like a letter of a script the
 *   domain expects (UTS #39 section 4's whole-script confusables; the
 *   expectations are struct idng_protect's tld table);
 * - near-miss: the name looks like a protected name once marks and the
 *   strokes of letters are dropped (paypál, pаypаł);
 * - mark-pattern, cjk-pattern, digit-lookalike, punctuation-like: the
 *   patterns of idng_spoof_patterns (codec/spoof.c), which browsers refuse;
 * - tld-letter: a letter of one country's language (idng_tld_letters)
 *   under another top-level domain;
 * - with struct idng_protect's suffixes (protect-suffixes: any), a name
 *   whose registrable label (the label left of its public suffix, by the
 *   Public Suffix List, core/idng_psl.h) looks like a protected name's is
 *   confusable (or a near miss) under any suffix: pаypal.co.uk;
 * - embeds-protected, with struct idng_protect's embedded
 *   (protect-embedded: yes): a judged label one of whose parts between
 *   hyphens looks like a protected name's registrable label (pаypal-login).
 *
 * Judged labels are the xn-- labels that decode, and raw labels (octets >=
 * 0x80) as what they normalize to.  Names of plain ASCII labels are never
 * judged here, nor ASCII labels on their own: UTS #39 is about look-alike
 * scripts, and ASCII typosquatting (paypa1.com) is not IDNA's business.
 * So a parent name is compared with the protected names only when it
 * holds a judged label.
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

/** A slot of the skeleton hash table (defined in core/idng_lookalike_internal.h). */
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
    /** The scripts top-level domains expect, beyond the built-in table
     *  (idng_protect_tld): ntld entries, each a TLD's A-label (lowercase,
     *  ntld_len[k] octets) and its IDNG_SCRIPT_* bits. */
    struct idng_tld_scripts {
        uint8_t label[63];
        uint8_t len;
        unsigned scripts;
    } *tld;
    size_t ntld;
    /** protect-suffixes: any: a protected name's registrable label is
     *  protected under every public suffix. */
    int suffixes;
    /** protect-embedded: yes: look for it between hyphens too. */
    int embedded;
    /** The skeletons of labels many names share, remembered while a file
     *  of names is added (protect.c); NULL but between an
     *  idng_protect_reserve of many names and idng_protect_trim. */
    struct idng_protect_memo *memo;
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

/**
 * Makes room in s for more names at once (their tables sized once, not
 * grown a name at a time as a file of them is added).
 * @return 0; -1 out of memory (s then holds what it held).
 */
int idng_protect_reserve(struct idng_protect *s, size_t more);

/** Gives back the room s holds for keys beyond those of its names, and
 *  the memo of shared labels a reservation made, once a file of them is
 *  added (more may still be added after). */
void idng_protect_trim(struct idng_protect *s);

/**
 * Sets the scripts a top-level domain expects (IDNG_SCRIPT_* bits; 0
 * expects none, so no label under it is judged whole-script), replacing
 * the built-in entry (idng_tld_scripts).  tld is one label, its A-label
 * form, any case.
 * @return 0 set; -1 out of memory; -2 not a label (empty, longer than 63
 *   octets, a dot or an octet >= 0x80).
 */
int idng_protect_tld(struct idng_protect *s, const char *tld, size_t len, unsigned scripts);

/**
 * The scripts a top-level domain expects (the label's octets, A-label
 * form, any case): s's own entry, else the built-in table (ASCII ccTLDs of
 * countries that write another script than Latin as well as Latin; see
 * core/tld_scripts.c), else for an xn-- TLD the scripts of its letters,
 * else Latin.  own_scripts: the IDNG_SCRIPT_* bits of the TLD's own
 * letters when it is judged (idng_whole_script), else 0.
 */
unsigned idng_tld_scripts(const struct idng_protect *s, const uint8_t *tld, size_t len,
                          unsigned own_scripts);

/** Heap memory held by s, in octets (see idng_nameset_mem). */
size_t idng_protect_mem(const struct idng_protect *s);

/** What idng_lookalike_scan found: bits of found, one a class, in the
 *  order of the classes from IDNG_C_MIXED_SCRIPT to IDNG_C_EMBEDS_PROTECTED
 *  (IDNG_LK_BIT).  idn, the class after them, is no lookalike: the policy
 *  decides it (idng_policy.h). */
#define IDNG_LK_BIT(cls) (1u << ((cls) - IDNG_C_MIXED_SCRIPT))
/** The number of lookalike classes (and of bits). */
#define IDNG_LK_COUNT (IDNG_C_EMBEDS_PROTECTED + 1 - IDNG_C_MIXED_SCRIPT)

/** Beside the IDNG_SCRIPT_* bits of a set of scripts (idn-scripts): the
 *  labels of no script, Common and Inherited code points only ("common"). */
#define IDNG_SCRIPT_COMMON (1u << IDNG_SCRIPT_COUNT)
enum {
    IDNG_LK_MIXED_SCRIPT = IDNG_LK_BIT(IDNG_C_MIXED_SCRIPT),
    IDNG_LK_CONFUSABLE = IDNG_LK_BIT(IDNG_C_CONFUSABLE),
    IDNG_LK_MIXED_NUMBER = IDNG_LK_BIT(IDNG_C_MIXED_NUMBER),
    IDNG_LK_WHOLE_SCRIPT = IDNG_LK_BIT(IDNG_C_WHOLE_SCRIPT),
    IDNG_LK_NEAR_MISS = IDNG_LK_BIT(IDNG_C_NEAR_MISS),
    IDNG_LK_MARK_PATTERN = IDNG_LK_BIT(IDNG_C_MARK_PATTERN),
    IDNG_LK_CJK_PATTERN = IDNG_LK_BIT(IDNG_C_CJK_PATTERN),
    IDNG_LK_DIGIT_LOOKALIKE = IDNG_LK_BIT(IDNG_C_DIGIT_LOOKALIKE),
    IDNG_LK_PUNCTUATION = IDNG_LK_BIT(IDNG_C_PUNCTUATION),
    IDNG_LK_TLD_LETTER = IDNG_LK_BIT(IDNG_C_TLD_LETTER),
    IDNG_LK_EMBEDS_PROTECTED = IDNG_LK_BIT(IDNG_C_EMBEDS_PROTECTED)
};

/** The facts about one name. */
struct idng_lookalike {
    unsigned found;            /**< IDNG_LK_* bits */
    idng_restriction level;    /**< the least restrictive xn-- label's level */
    /** Per class, at the index of its bit: the label found, as in
     *  idng_error: the first label of the class (for confusable and
     *  near-miss, the first judged label of the part that looks like a
     *  protected name). */
    struct {
        size_t off, len;
    } at[IDNG_LK_COUNT];
    size_t like;               /**< index in protect->names of the name it looks like
                                    (confusable, else near-miss, else
                                    embeds-protected) */
};

/** Code points a name's skeleton key may take (see core/idng_lookalike_internal.h). */
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
    /* Each judged label's idng_whole_script facts, for the TLD known last. */
    uint32_t ws_own[IDNG_LABELS_MAX], ws_pass[IDNG_LABELS_MAX];
    uint8_t tld_letters[IDNG_LABELS_MAX]; /* idng_tld_letters of each */
    unsigned key_flags; /* IDNG_SK_* under which a judged label's key is not its skeleton */
    /* With keys: each label's code points, kept for idng_lookalike_finish,
     * which makes the skeletons from the last label on. */
    size_t cp_at[IDNG_LABELS_MAX + 1];
    uint32_t cps[IDNG_LK_KEY_MAX];
    /* The key (on idng_lookalike_finish's frame), built from its end: the
     * parent from label i on is key[key_at[i] .. IDNG_LK_KEY_MAX). */
    size_t key_at[IDNG_LABELS_MAX + 1];
    struct idng_lookalike out;
    /* idng_lookalike_idn: the scripts a judged label may be written in,
     * and a bit per label, set when it is judged and written otherwise. */
    int idn;
    unsigned idn_scripts;
    uint64_t foreign[(IDNG_LABELS_MAX + 63) / 64];
};

/** Starts judging wire[0..len) (see idng_lookalike_scan for the arguments). */
void idng_lookalike_start(struct idng_lookalike_run *r, const struct idng_protect *protect,
                          idng_restriction limit, idng_mode mode, const uint8_t *wire, size_t len);
/**
 * Also notes, for on-idn (core/idng_policy.h), the judged labels (xn--
 * labels that decode, raw labels that normalize to one) that are not
 * written in scripts (IDNG_SCRIPT_* bits and IDNG_SCRIPT_COMMON; see
 * idng_in_scripts): idng_lookalike_foreign tells them.  Called after
 * idng_lookalike_start, before the first label.
 */
void idng_lookalike_idn(struct idng_lookalike_run *r, unsigned scripts);

/**
 * The first label from index *i on that idng_lookalike_idn noted (its
 * index into *i, its content's offset and length into *off and *len);
 * 0 when there is none.  Labels are counted as idng_lookalike_label saw
 * them, in name order.
 */
int idng_lookalike_foreign(const struct idng_lookalike_run *r, size_t *i, size_t *off,
                           size_t *len);

/** One label (an idng_label_fn; ctx is the run). */
void idng_lookalike_label(void *ctx, size_t off, size_t len, const uint32_t *cps,
                          const uint16_t *ents, size_t n);
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
 * log shows of a name it does not show in Unicode.  The text is the
 * calling thread's, valid until its next call.
 */
const char *idng_lookalike_name(unsigned found);

#ifdef __cplusplus
}
#endif
#endif /* IDNG_LOOKALIKE_H */
