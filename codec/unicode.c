/**
 * \file
 * Lookups into the generated tables, and NFC (UAX #15) on caller buffers:
 * full canonical decomposition (tables plus algorithmic Hangul), canonical
 * ordering, and canonical composition of primary composites.
 */
#include "unicode.h"

#include "idnguard.h"

#include <string.h>

enum {
    SBASE = 0xAC00, LBASE = 0x1100, VBASE = 0x1161, TBASE = 0x11A7,
    LCOUNT = 19, VCOUNT = 21, TCOUNT = 28, NCOUNT = VCOUNT * TCOUNT, SCOUNT = LCOUNT * NCOUNT
};

/* Index of key in a sorted array, or -1; one definition per key type. */
#define DEFINE_FIND(name, type)                                                    \
    static long name(const type *keys, size_t n, type key)                         \
    {                                                                              \
        size_t lo = 0, hi = n;                                                     \
        while (lo < hi) {                                                          \
            size_t mid = lo + (hi - lo) / 2;                                       \
            if (keys[mid] < key)                                                   \
                lo = mid + 1;                                                      \
            else                                                                   \
                hi = mid;                                                          \
        }                                                                          \
        return lo < n && keys[lo] == key ? (long)lo : -1;                          \
    }
DEFINE_FIND(find_u32, uint32_t)
DEFINE_FIND(find_u64, uint64_t)

int idng_u46_mapping(uint32_t cp, const uint32_t **seq)
{
    long i = find_u32(idng_ut_map_cp, idng_ut_map_count, cp);

    if (i < 0)
        return -1;
    *seq = idng_ut_pool + (idng_ut_map_ref[i] >> IDNG_UT_REF_LEN_BITS);
    return (int)(idng_ut_map_ref[i] & IDNG_UT_REF_LEN_MASK);
}

static uint32_t simple_case(const uint32_t *from, const uint32_t *to, size_t n, uint32_t cp)
{
    long i = find_u32(from, n, cp);
    return i < 0 ? cp : to[i];
}

uint32_t idng_simple_lower(uint32_t cp)
{
    return simple_case(idng_ut_lower_cp, idng_ut_lower_to, idng_ut_lower_count, cp);
}

uint32_t idng_simple_upper(uint32_t cp)
{
    return simple_case(idng_ut_upper_cp, idng_ut_upper_to, idng_ut_upper_count, cp);
}

static unsigned ccc(uint32_t cp)
{
    return cp < IDNG_UT_NFC_TRIVIAL_BELOW ? 0 : UP_CCC(idng_uprops(cp));
}

/* Primary composite of a + b, or 0. */
static uint32_t compose_pair(uint32_t a, uint32_t b)
{
    long i;

    if (a - LBASE < LCOUNT && b - VBASE < VCOUNT)
        return SBASE + ((a - LBASE) * VCOUNT + (b - VBASE)) * TCOUNT;
    if (a - SBASE < SCOUNT && (a - SBASE) % TCOUNT == 0 && b - TBASE - 1 < TCOUNT - 1)
        return a + (b - TBASE);
    i = find_u64(idng_ut_comp_key, idng_ut_comp_count, (uint64_t)a << IDNG_UT_COMP_SHIFT | b);
    return i < 0 ? 0 : idng_ut_comp_val[i];
}

/* Decomposition table positions remembered per code point (-1: none; -2:
 * not remembered, should the table ever outgrow int16_t). */
#define DEC_MEMO 128

int idng_nfc(uint32_t *buf, size_t *len, size_t cap)
{
    int16_t memo[DEC_MEMO];
    size_t n = *len, total = 0, i, j, out, starter;
    unsigned last;
    int have_starter;

    /* Decompose in place, back to front, after measuring the result; the
     * table positions found while measuring are kept for short strings. */
    for (i = 0; i < n; i++) {
        uint32_t cp = buf[i];
        long k = -1;
        if (cp - SBASE < SCOUNT)
            total += (cp - SBASE) % TCOUNT ? 3 : 2;
        else if (cp >= IDNG_UT_DECOMP_FROM
                 && (k = find_u32(idng_ut_dec_cp, idng_ut_dec_count, cp)) >= 0)
            total += idng_ut_dec_ref[k] & IDNG_UT_REF_LEN_MASK;
        else
            total++;
        if (i < DEC_MEMO)
            memo[i] = (int16_t)(idng_ut_dec_count <= 32767 ? k : -2);
    }
    if (total > cap)
        return -1;
    out = total;
    for (i = n; i-- > 0;) {
        uint32_t cp = buf[i];
        long k = -1;
        if (i < DEC_MEMO && cp - SBASE >= SCOUNT && memo[i] != -2) {
            if ((k = memo[i]) >= 0) {
                size_t m = idng_ut_dec_ref[k] & IDNG_UT_REF_LEN_MASK;
                out -= m;
                memcpy(buf + out, idng_ut_pool + (idng_ut_dec_ref[k] >> IDNG_UT_REF_LEN_BITS),
                       m * sizeof *buf);
            } else {
                buf[--out] = cp;
            }
            continue;
        }
        if (cp - SBASE < SCOUNT) {
            uint32_t s = cp - SBASE;
            if (s % TCOUNT)
                buf[--out] = TBASE + s % TCOUNT;
            buf[--out] = VBASE + (s % NCOUNT) / TCOUNT;
            buf[--out] = LBASE + s / NCOUNT;
        } else if (cp >= IDNG_UT_DECOMP_FROM
                   && (k = find_u32(idng_ut_dec_cp, idng_ut_dec_count, cp)) >= 0) {
            size_t m = idng_ut_dec_ref[k] & IDNG_UT_REF_LEN_MASK;
            out -= m;
            memcpy(buf + out, idng_ut_pool + (idng_ut_dec_ref[k] >> IDNG_UT_REF_LEN_BITS),
                   m * sizeof *buf);
        } else {
            buf[--out] = cp;
        }
    }
    n = total;

    /* Canonical ordering: insertion sort within runs of non-starters (stable). */
    for (i = 1; i < n; i++) {
        uint32_t cp = buf[i];
        unsigned c = ccc(cp);
        if (c == 0)
            continue;
        for (j = i; j > 0 && ccc(buf[j - 1]) > c; j--)
            buf[j] = buf[j - 1];
        buf[j] = cp;
    }

    /* Canonical composition: a character composes with the last starter
     * unless a character between them has a combining class >= its own
     * (or is itself a starter). */
    if (n == 0) {
        *len = 0;
        return 0;
    }
    have_starter = ccc(buf[0]) == 0;
    starter = 0;
    last = have_starter ? 0 : 256;
    for (i = 1, out = 1; i < n; i++) {
        uint32_t cp = buf[i], comp, w = idng_uprops(cp);
        unsigned c = cp < IDNG_UT_NFC_TRIVIAL_BELOW ? 0 : UP_CCC(w);
        /* Only a character whose NFC_Quick_Check is Maybe can be the second
         * of a primary composite (UAX #15; true of every pair in the tables
         * and of the Hangul V and T jamo), so the others skip the search. */
        if (have_starter && UP_NFCQC(w) == QC_MAYBE
            && (last == 0 ? out - 1 == starter : last < c)
            && (comp = compose_pair(buf[starter], cp)) != 0) {
            buf[starter] = comp;
            continue;
        }
        if (c == 0) {
            starter = out;
            have_starter = 1;
        }
        last = c;
        buf[out++] = cp;
    }
    *len = out;
    return 0;
}

/* Longest label idng_is_nfc can settle a MAYBE for: the codec's own labels
 * are at most 512 code points after mapping (an A-label decodes to <= 59). */
#define NFC_CHECK_MAX 512

unsigned idng_nfc_quick_check(const uint32_t *s, size_t len)
{
    unsigned last = 0, qc, result = QC_YES;
    size_t i;

    for (i = 0; i < len; i++) {
        qc = idng_nfc_qc_step(s[i], s[i] < IDNG_UT_NFC_TRIVIAL_BELOW ? 0 : idng_uprops(s[i]), &last);
        if (qc == QC_NO)
            return QC_NO;
        if (qc == QC_MAYBE)
            result = QC_MAYBE;
    }
    return result;
}

int idng_is_nfc(const uint32_t *s, size_t len)
{
    /* Full canonical decomposition grows a string at most IDNG_UT_DECOMP_MAX
     * times (fourfold in Unicode 15.0). */
    uint32_t tmp[IDNG_UT_DECOMP_MAX * NFC_CHECK_MAX + 16];
    size_t n;
    unsigned qc = idng_nfc_quick_check(s, len);

    if (qc != QC_MAYBE)
        return qc == QC_YES;
    /* Resolve MAYBE by normalizing; labels are bounded, so this is too. */
    if (len > NFC_CHECK_MAX)
        return 0;
    memcpy(tmp, s, len * sizeof *s);
    n = len;
    if (idng_nfc(tmp, &n, sizeof tmp / sizeof tmp[0]) != 0)
        return 0;
    return n == len && memcmp(tmp, s, len * sizeof *s) == 0;
}

int idng_display_safe(uint32_t cp)
{
    unsigned st;

    if (cp < 0x80)
        return cp > 0x20 && cp < 0x7F && cp != '\\';
    if (cp < 0xA0 || cp > 0x10FFFF || cp == 0x200C || cp == 0x200D)
        return 0;
    /* Bidi controls, joiners and other format characters are all disallowed
     * or ignored under UTS #46, so the status alone excludes them. */
    st = UP_U46(idng_uprops(cp));
    return st == U46_VALID || st == U46_DEVIATION;
}
