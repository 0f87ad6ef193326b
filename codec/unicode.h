/**
 * \file
 * Internal: per-code-point Unicode properties and normalization, backed by
 * the generated tables in unicode_tables.c and unicode_tables.h (see
 * tools/gen_tables.py).  The simple case mappings are public (idnguard.h).
 */
#ifndef IDNG_UNICODE_H
#define IDNG_UNICODE_H

#include <stddef.h>
#include <stdint.h>

/* Generated with the tables, from the same run: the values of every
 * property, the fields of a property word, the tables' sizes and the
 * declarations of the data. */
#include "unicode_tables.h"

/** The trie entry of a code point (cp <= 0x10FFFF): the index of its
 *  property word in idng_ut_props, of its security word in
 *  idng_ut_sec_props and of its whole-script mask in idng_ut_ws_mask. */
static inline uint32_t idng_ucp(uint32_t cp)
{
    return idng_ut_stage2[idng_ut_stage1[cp >> IDNG_UT_SHIFT] + (cp & IDNG_UT_BLOCK_MASK)];
}

/** Property word of a code point (cp <= 0x10FFFF). */
static inline uint32_t idng_uprops(uint32_t cp)
{
    return idng_ut_props[idng_ucp(cp)];
}

/** UTS #39 security word of a code point (cp <= 0x10FFFF): US_* fields. */
static inline uint32_t idng_usec(uint32_t cp)
{
    if (cp < 0x80)
        return idng_ut_sec_ascii[cp];
    return idng_ut_sec_props[idng_ucp(cp)];
}

/** The index of key in the sorted keys[0..n), or -1. */
long idng_find_u32(const uint32_t *keys, size_t n, uint32_t key);

/** The idng_ut_conf_ref entry of the code point whose security word w has
 *  US_CONF (US_CONFIDX is 1 + the index). */
static inline uint32_t idng_conf_ref_w(uint32_t w)
{
    return idng_ut_conf_ref[US_CONFIDX(w) - 1];
}

/** idng_confusable of the code point whose security word is w. */
static inline int idng_confusable_w(uint32_t w, const uint32_t **seq)
{
    uint32_t ref;

    if (!US_CONF(w))
        return -1;
    ref = idng_conf_ref_w(w);
    *seq = idng_ut_pool + (ref >> IDNG_UT_REF_LEN_BITS);
    return (int)(ref & IDNG_UT_REF_LEN_MASK);
}

/**
 * The confusables.txt prototype of cp, in NFD: sets *seq and returns its
 * length (at least 1), or -1 when cp is its own prototype.  Only code points
 * that NFD leaves alone are listed (the skeleton asks after NFD).
 */
int idng_confusable(uint32_t cp, const uint32_t **seq);

/** Full canonical decomposition of cp into out (room for IDNG_UT_DECOMP_MAX):
 *  returns its length, 1 (cp itself) when it has none. */
size_t idng_decompose(uint32_t cp, uint32_t *out);

/** Canonical ordering (UAX #15): a stable sort of each run of non-starters
 *  of buf[0..n) by combining class, in place. */
void idng_canonical_order(uint32_t *buf, size_t n);

/**
 * UTS #46 mapping of cp: sets *seq to its replacement and returns its
 * length (0 for an ignored code point).  Returns -1 if cp is not mapped.
 */
int idng_u46_mapping(uint32_t cp, const uint32_t **seq);

/**
 * Normalizes buf[0..*len) to NFC in place; cap is the capacity of buf.
 * Returns 0, or -1 if the decomposed form would not fit in cap.
 */
int idng_nfc(uint32_t *buf, size_t *len, size_t cap);

/**
 * Normalizes buf[0..*len) to NFC in place as idng_nfc does, but only the
 * pieces that need it, for a short string: *len at most 512 and room in
 * buf for *len * IDNG_UT_DECOMP_MAX code points, so that it cannot fail.
 */
void idng_nfc_short(uint32_t *buf, size_t *len);

/**
 * NFC of buf[0..n) in place, for a string that is its own full canonical
 * decomposition and in canonical order: canonical composition alone, which
 * is all idng_nfc would change of it.  Returns the new length.
 */
size_t idng_nfc_compose(uint32_t *buf, size_t n);

/** Does cp, whose property word is w, have a canonical decomposition?  (A
 *  Hangul syllable, U+AC00 to U+D7A3, decomposes by algorithm.) */
static inline int idng_decomposes(uint32_t cp, uint32_t w)
{
    return UP_DECOMP(w) || cp - 0xAC00 < 19 * 21 * 28;
}

/**
 * The NFC quick check (UAX #15 section 9), one code point at a time: cp,
 * whose property word is w (not looked at below U+0300), follows a code
 * point of combining class *last_ccc, which is updated.  Returns QC_YES,
 * QC_NO (also for combining marks out of canonical order) or QC_MAYBE.
 * Every quick check of the codec is made of this step.
 */
static inline unsigned idng_nfc_qc_step(uint32_t cp, uint32_t w, unsigned *last_ccc)
{
    unsigned ccc, qc;

    if (cp < IDNG_UT_NFC_TRIVIAL_BELOW) {
        *last_ccc = 0;
        return QC_YES;
    }
    ccc = UP_CCC(w);
    qc = UP_NFCQC(w);
    if (ccc != 0 && *last_ccc > ccc)
        qc = QC_NO;
    *last_ccc = ccc;
    return qc;
}

/** The NFC quick check of s[0..len): QC_YES, QC_NO or QC_MAYBE. */
unsigned idng_nfc_quick_check(const uint32_t *s, size_t len);

/** Is s[0..len) in NFC? (quick check, then as idng_is_nfc_maybe on MAYBE) */
int idng_is_nfc(const uint32_t *s, size_t len);

/** Is s[0..len), whose quick check says MAYBE, in NFC?  Normalizes only
 *  the pieces around its MAYBE code points. */
int idng_is_nfc_maybe(const uint32_t *s, size_t len);

#endif /* IDNG_UNICODE_H */
