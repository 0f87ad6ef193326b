/**
 * \file
 * Internal: per-code-point Unicode properties and normalization, backed by
 * the generated tables in unicode_tables.c (see tools/gen_tables.py).
 */
#ifndef IDNG_UNICODE_H
#define IDNG_UNICODE_H

#include <stddef.h>
#include <stdint.h>

/* UTS #46 status, with UseSTD3ASCIIRules folded in: disallowed_STD3_valid
 * and disallowed_STD3_mapped are U46_DISALLOWED. */
enum { U46_VALID, U46_MAPPED, U46_IGNORED, U46_DISALLOWED, U46_DEVIATION };
/* RFC 5892 derived property. */
enum { I08_PVALID, I08_CONTEXTJ, I08_CONTEXTO, I08_DISALLOWED, I08_UNASSIGNED };
/* Bidi_Class (UAX #9). */
enum {
    BC_L, BC_R, BC_AL, BC_EN, BC_ES, BC_ET, BC_AN, BC_CS, BC_NSM, BC_BN, BC_B, BC_S,
    BC_WS, BC_ON, BC_LRE, BC_LRO, BC_RLE, BC_RLO, BC_PDF, BC_LRI, BC_RLI, BC_FSI, BC_PDI
};
/* Joining_Type. */
enum { JT_U, JT_C, JT_D, JT_L, JT_R, JT_T };
/* The scripts RFC 5892's CONTEXTO rules ask about. */
enum { SC_OTHER, SC_GREEK, SC_HEBREW, SC_HIRAGANA, SC_KATAKANA, SC_HAN };
/* NFC_Quick_Check. */
enum { QC_YES, QC_NO, QC_MAYBE };

/* Layout of a property word; the generator packs with the same shifts. */
#define UP_U46(w) ((w) & 7u)
#define UP_I08(w) (((w) >> 3) & 7u)
#define UP_BIDI(w) (((w) >> 6) & 31u)
#define UP_JT(w) (((w) >> 11) & 7u)
#define UP_SCRIPT(w) (((w) >> 14) & 7u)
#define UP_MARK(w) (((w) >> 17) & 1u)
#define UP_NFCQC(w) (((w) >> 18) & 3u)
#define UP_CCC(w) (((w) >> 20) & 255u)

/* Generated data (unicode_tables.c). */
extern const uint16_t idng_ut_stage1[];
extern const uint16_t idng_ut_stage2[];
extern const uint32_t idng_ut_props[];
extern const unsigned idng_ut_shift;
extern const uint32_t idng_ut_map_cp[];   /* sorted code points with a UTS #46 mapping */
extern const uint32_t idng_ut_map_ref[];  /* offset << 5 | length into idng_ut_pool */
extern const size_t idng_ut_map_count;
extern const uint32_t idng_ut_dec_cp[];   /* sorted: full canonical decompositions */
extern const uint32_t idng_ut_dec_ref[];
extern const size_t idng_ut_dec_count;
extern const uint64_t idng_ut_comp_key[]; /* sorted: first << 21 | second */
extern const uint32_t idng_ut_comp_val[];
extern const size_t idng_ut_comp_count;
extern const uint32_t idng_ut_pool[];
extern const uint32_t idng_ut_lower_cp[]; /* sorted: simple lowercase mappings */
extern const uint32_t idng_ut_lower_to[];
extern const size_t idng_ut_lower_count;
extern const uint32_t idng_ut_upper_cp[]; /* sorted: simple uppercase mappings */
extern const uint32_t idng_ut_upper_to[];
extern const size_t idng_ut_upper_count;

/** Property word of a code point (cp <= 0x10FFFF). */
static inline uint32_t idng_uprops(uint32_t cp)
{
    unsigned mask = (1u << idng_ut_shift) - 1;
    return idng_ut_props[idng_ut_stage2[idng_ut_stage1[cp >> idng_ut_shift] + (cp & mask)]];
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

    if (cp < 0x300) {
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

/** Is s[0..len) in NFC? (quick check, full normalization on MAYBE) */
int idng_is_nfc(const uint32_t *s, size_t len);

/** Simple lowercase / uppercase mapping; returns cp itself if none. */
uint32_t idng_simple_lower(uint32_t cp);
uint32_t idng_simple_upper(uint32_t cp);

#endif /* IDNG_UNICODE_H */
