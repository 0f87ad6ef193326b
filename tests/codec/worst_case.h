/**
 * \file
 * Worst-case inputs for the codec: what makes RFC 3492 decoding, the
 * round-trip re-encoding, NFC and the context rules do the most work
 * within DNS limits.  Shared by tests/codec/test_hostile.c (which asserts
 * each one's status in every mode) and the benchmarks (which time them):
 * include it and use the tables; it needs only idnguard.h.
 *
 * Labels are exactly 63 octets (tails 61), so that three labels and a tail
 * make a name of exactly 255 wire octets (idng_worst_wire) or 253 text
 * octets (idng_worst_text): the most xn-- work one query name can carry.
 * Their statuses were cross-checked with ICU 72 (UTS #46: nontransitional,
 * CheckHyphens, CheckBidi, CheckJoiners, STD3 rules) and libidn2 2.3.3
 * (IDNA2008 registration); the decoded code points with Python's RFC 3492
 * codec.
 *
 * Measured with the -O2 build on the 2-core development machine
 * (idng_label_check, best of many runs; a plain A-label such as
 * xn--bcher-kva takes about 0.2 us, a plain ASCII label a few ns):
 *   nfc_maybe_marks     ~6 us    slowest valid label (uts46, idna2008)
 *   distinct_not_nfc    ~5-7 us  slowest rejected label
 *   hangul_jamo         ~5 us    rejected (not NFC)
 *   distinct_nfc_maybe  ~4.6 us  valid
 *   max_distinct        ~3.2 us  valid; slowest in punycode mode (~3 us)
 *   max_insertions      ~1.3 us, astral_deltas ~1 us, arabic_contextj ~1.2 us
 *   all_digit_overflow  ~0.1 us  (rejected early, as it should be)
 * For to-ASCII of text input (up to IDNG_INPUT_MAX octets, not reachable
 * from the module, which converts at most 253 octets) the worst case is
 * idng_worst_texts[0], combining marks in descending canonical class:
 * NFC's canonical reordering is an insertion sort, about 80 us for 975
 * octets, against about 0.1 us for an ordinary name.
 */
#ifndef IDNG_TESTS_WORST_CASE_H
#define IDNG_TESTS_WORST_CASE_H

#include "idnguard.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct idng_worst_label {
    const char *name;    /**< short identifier */
    const char *label;   /**< exactly 63 octets */
    const char *tail;    /**< the same construction in 61 octets */
    idng_status status[3]; /**< under punycode, idna2008, uts46 (label and tail alike) */
    int ncp;             /**< code points the label decodes to; -1 if it does not decode */
    uint32_t first_cp, last_cp; /**< first and last of them */
    const char *why;     /**< what it makes the codec do */
};

/** one code point (U+0430) inserted 57 times, every delta a single digit: the most insertions a 63-octet label allows */
#define IDNG_WORST_LABEL_MAX_INSERTIONS "xn--80aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
/** 41 distinct consecutive code points: the encoder of the round-trip check scans the label once per distinct code point (quadratic) */
#define IDNG_WORST_LABEL_MAX_DISTINCT "xn--80acdefghijklmnopqrstuvwxyz0a1a2a3a4a5a6a7a8a9azb0b1b1b2b3b"
/** distinct code points plus one NFC_Quick_Check=Maybe mark: the round-trip encoder and a full NFC pass over the label */
#define IDNG_WORST_LABEL_DISTINCT_NFC_MAYBE "xn--a-xbb22gfafghijklmnopqrstuvwxyz0a1a2a3a4a5a6a7a8a9azb0b1b1b"
/** distinct code points ending in a pair that composes (U+0438 U+0306): rejected only after decoding, re-encoding and a full NFC pass */
#define IDNG_WORST_LABEL_DISTINCT_NOT_NFC "xn--qsa90daefghijklamopqrstuvwxyz0a1a2a3a4a5a6a7a8a9azb0b1b1b2b"
/** a base letter and 48 combining marks that are NFC_Quick_Check=Maybe: full NFC, decomposition lookups for every mark */
#define IDNG_WORST_LABEL_NFC_MAYBE_MARKS "xn--x-vbbaadbbeccfddgeeyffiggjhh0biiljjmkk7fll6cmm0dnnqoo64spap"
/** conjoining Hangul jamo L V L V ...: algorithmic composition makes the label not NFC */
#define IDNG_WORST_LABEL_HANGUL_JAMO "xn--ypdaaaaaaaaaaaaaaaaaaaaaaaaaa40ybabbbbbbbbbbbbbbbbbbbbbbbbb"
/** CJK Extension B code points far apart: multi-digit deltas, bias adaptation on every code point */
#define IDNG_WORST_LABEL_ASTRAL_DELTAS "xn--4gq2496h2fek4neyoxmj0mvugwsvnhu2ab61anxqx89ars9ai3uen8b7e5b"
/** Arabic letters, ZWNJ and runs of transparent marks: CONTEXTJ scans over the marks, RTL bidi rule; the last ZWNJ lacks its right context */
#define IDNG_WORST_LABEL_ARABIC_CONTEXTJ "xn--ngbaa2laaaaaaaaaaaaaaaaaaaaaaacaaaaaaaaaaaaaaaaaaaa63143a0a"
/** 59 digits 9 (value 35): one integer whose weight grows until the 32-bit overflow check of RFC 3492 6.4 stops it */
#define IDNG_WORST_LABEL_ALL_DIGIT_OVERFLOW "xn--99999999999999999999999999999999999999999999999999999999999"

static const struct idng_worst_label idng_worst_labels[] = {
    {"max_insertions", IDNG_WORST_LABEL_MAX_INSERTIONS,
     "xn--80aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
     {IDNG_OK, IDNG_OK, IDNG_OK}, 57, 0x430, 0x430,
     "one code point (U+0430) inserted 57 times, every delta a single digit: the most insertions a 63-octet label allows"},
    {"max_distinct", IDNG_WORST_LABEL_MAX_DISTINCT,
     "xn--80acdefghijklmnopqrstuvwxyz0a1a2a3a4a5a6a7a8a9azb0b1b1b2b",
     {IDNG_OK, IDNG_OK, IDNG_OK}, 41, 0x430, 0x458,
     "41 distinct consecutive code points: the encoder of the round-trip check scans the label once per distinct code point (quadratic)"},
    {"distinct_nfc_maybe", IDNG_WORST_LABEL_DISTINCT_NFC_MAYBE,
     "xn--a-xbb22gfafghijklmnopqrstuvwxyz0a1a2a3a4a5a6a7a8a9azb0b1b",
     {IDNG_OK, IDNG_OK, IDNG_OK}, 39, 0x61, 0x454,
     "distinct code points plus one NFC_Quick_Check=Maybe mark: the round-trip encoder and a full NFC pass over the label"},
    {"distinct_not_nfc", IDNG_WORST_LABEL_DISTINCT_NOT_NFC,
     "xn--qsa90daefghijklamopqrstuvwxyz0a1a2a3a4a5a6a7a8a9azb0b1b1b",
     {IDNG_OK, IDNG_E_NOT_NFC, IDNG_E_NOT_NFC}, 40, 0x430, 0x306,
     "distinct code points ending in a pair that composes (U+0438 U+0306): rejected only after decoding, re-encoding and a full NFC pass"},
    {"nfc_maybe_marks", IDNG_WORST_LABEL_NFC_MAYBE_MARKS,
     "xn--x-vbbaadbbeccfddgeeyffiggjhh0biiljjmkk7fll6cmm0dnnqo51spa",
     {IDNG_OK, IDNG_OK, IDNG_OK}, 49, 0x78, 0x342,
     "a base letter and 48 combining marks that are NFC_Quick_Check=Maybe: full NFC, decomposition lookups for every mark"},
    {"hangul_jamo", IDNG_WORST_LABEL_HANGUL_JAMO,
     "xn--ypdaaaaaaaaaaaaaaaaaaaaaaaaa80xbabbbbbbbbbbbbbbbbbbbbbbbb",
     {IDNG_OK, IDNG_E_NOT_NFC, IDNG_E_NOT_NFC}, 54, 0x1100, 0x1161,
     "conjoining Hangul jamo L V L V ...: algorithmic composition makes the label not NFC"},
    {"astral_deltas", IDNG_WORST_LABEL_ASTRAL_DELTAS,
     "xn--4gqaaa43666cvlia1mvvgwqvniu2ac61ahe1cy86ad86clcxb820d7e1b",
     {IDNG_OK, IDNG_OK, IDNG_OK}, 17, 0x4E00, 0x28261,
     "CJK Extension B code points far apart: multi-digit deltas, bias adaptation on every code point"},
    {"arabic_contextj", IDNG_WORST_LABEL_ARABIC_CONTEXTJ,
     "xn--ngbaa2laaaaaaaaaaaaaaaaaaaaaaacaaaaaaaaaaaaaaaaaa25902a0a",
     {IDNG_OK, IDNG_E_CONTEXTJ, IDNG_E_CONTEXTJ}, 50, 0x628, 0x64B,
     "Arabic letters, ZWNJ and runs of transparent marks: CONTEXTJ scans over the marks, RTL bidi rule; the last ZWNJ lacks its right context"},
    {"all_digit_overflow", IDNG_WORST_LABEL_ALL_DIGIT_OVERFLOW,
     "xn--999999999999999999999999999999999999999999999999999999999",
     {IDNG_E_PUNY_OVERFLOW, IDNG_E_PUNY_OVERFLOW, IDNG_E_PUNY_OVERFLOW}, -1, 0x0, 0x0,
     "59 digits 9 (value 35): one integer whose weight grows until the 32-bit overflow check of RFC 3492 6.4 stops it"},
};
#define IDNG_WORST_LABEL_COUNT (sizeof idng_worst_labels / sizeof idng_worst_labels[0])

/** Wire and text lengths of the names built below. */
#define IDNG_WORST_WIRE_LEN 255
#define IDNG_WORST_TEXT_LEN 253

/** The 255-octet wire name: label, label, label, tail, root. */
static inline void idng_worst_wire(const struct idng_worst_label *w, uint8_t out[IDNG_WORST_WIRE_LEN])
{
    size_t i, o = 0;
    for (i = 0; i < 4; i++) {
        const char *l = i < 3 ? w->label : w->tail;
        size_t n = strlen(l);
        out[o++] = (uint8_t)n;
        memcpy(out + o, l, n);
        o += n;
    }
    out[o] = 0;
}

/** The 253-octet text name (no trailing dot), NUL-terminated: out holds 254. */
static inline void idng_worst_text(const struct idng_worst_label *w, char out[IDNG_WORST_TEXT_LEN + 1])
{
    size_t i, o = 0;
    for (i = 0; i < 4; i++) {
        const char *l = i < 3 ? w->label : w->tail;
        size_t n = strlen(l);
        if (i)
            out[o++] = '.';
        memcpy(out + o, l, n);
        o += n;
    }
    out[o] = '\0';
}

/**
 * Text inputs for idng_to_ascii / idng_to_unicode (UTF-8, at most
 * IDNG_INPUT_MAX octets): `labels` labels joined by '.', each `head`
 * followed by every group's unit repeated `reps` times.
 */
struct idng_worst_text {
    const char *name;
    const char *head;
    struct {
        const char *unit;
        unsigned reps;
    } group[9];
    unsigned labels;
    size_t len;          /**< octets built */
    idng_status to_ascii;   /**< status of to-ASCII in every mode (ICU agrees) */
    idng_status to_unicode; /**< of to-Unicode, which checks no DNS length */
    const char *why;
};

static const struct idng_worst_text idng_worst_texts[] = {
    {"reverse_ccc_marks", "a", {{"\315\205", 27}, {"\315\235", 27}, {"\315\234", 27}, {"\314\225", 27}, {"\314\201", 27}, {"\314\226", 27}, {"\314\233", 27}, {"\314\241", 27}, {"\314\264", 27}}, 2, 975, IDNG_E_LABEL_TOO_LONG, IDNG_OK,
     "two labels of a letter and 243 combining marks sorted by descending canonical class (240, 234, 233, 232, 230, 220, 216, 202, 1): NFC reorders them all, a quadratic insertion sort"},
    {"same_ccc_marks", "a", {{"\314\201", 251}}, 2, 1007, IDNG_E_LABEL_TOO_LONG, IDNG_OK,
     "two labels of a letter and 251 acute accents: decomposition, composition of the first, 250 blocked"},
    {"ffi_ligatures", "", {{"\357\254\203", 84}}, 4, 1011, IDNG_E_LABEL_TOO_LONG, IDNG_OK,
     "four labels of 84 U+FB03 (ffi ligature), each mapped to three letters"},
    {"hangul_syllables", "", {{"\352\260\200", 84}}, 4, 1011, IDNG_E_LABEL_TOO_LONG, IDNG_OK,
     "four labels of 84 Hangul syllables: algorithmic decomposition and recomposition"},
    {"fdfa_expansion", "", {{"\357\267\272", 28}}, 12, 1019, IDNG_E_INPUT_TOO_LONG,
     IDNG_E_INPUT_TOO_LONG,
     "twelve labels of 28 U+FDFA, the longest UTS #46 mapping (18 code points; mapped since UTS #46 16.0, whose STD3 rules refuse its spaces only in the mapped label): 504 code points a label, so the mapping fills the 4,096 of the work buffer before it gives up (too long; ICU refuses the name too)"},
};
#define IDNG_WORST_TEXT_COUNT (sizeof idng_worst_texts / sizeof idng_worst_texts[0])

/** Builds a text case into out (cap octets); returns its length, or 0 if
 *  it does not fit. */
static inline size_t idng_worst_text_build(const struct idng_worst_text *w, char *out, size_t cap)
{
    size_t o = 0, l, g, r;
    for (l = 0; l < w->labels; l++) {
        size_t hn = strlen(w->head);
        if (l) {
            if (o + 1 > cap)
                return 0;
            out[o++] = '.';
        }
        if (o + hn > cap)
            return 0;
        memcpy(out + o, w->head, hn);
        o += hn;
        for (g = 0; g < 9 && w->group[g].unit; g++)
            for (r = 0; r < w->group[g].reps; r++) {
                size_t un = strlen(w->group[g].unit);
                if (o + un > cap)
                    return 0;
                memcpy(out + o, w->group[g].unit, un);
                o += un;
            }
    }
    return o;
}

#endif
