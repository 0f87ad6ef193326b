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

/** Property word of a code point (cp <= 0x10FFFF). */
static inline uint32_t idng_uprops(uint32_t cp)
{
    return idng_ut_props[idng_ut_stage2[idng_ut_stage1[cp >> IDNG_UT_SHIFT]
                                        + (cp & IDNG_UT_BLOCK_MASK)]];
}

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

/** Is s[0..len) in NFC? (quick check, full normalization on MAYBE) */
int idng_is_nfc(const uint32_t *s, size_t len);

#endif /* IDNG_UNICODE_H */
