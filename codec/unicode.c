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

/* Index of key in a sorted array of distinct keys, or -1; one definition
 * per key type.  The search narrows [base, base + n) to the last key <= key
 * with no branch on the comparison (a conditional move), which costs
 * fewer instructions than the usual three-way loop and no mispredictions. */
#define DEFINE_FIND(name, type)                                                    \
    static long name(const type *keys, size_t n, type key)                         \
    {                                                                              \
        const type *base = keys;                                                   \
        if (n == 0)                                                                \
            return -1;                                                             \
        while (n > 1) {                                                            \
            size_t half = n / 2;                                                   \
            base = base[half] <= key ? base + half : base;                         \
            n -= half;                                                             \
        }                                                                          \
        return *base == key ? (long)(base - keys) : -1;                            \
    }
DEFINE_FIND(find_u32, uint32_t)
DEFINE_FIND(find_u64, uint64_t)

long idng_find_u32(const uint32_t *keys, size_t n, uint32_t key)
{
    return find_u32(keys, n, key);
}

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

/* Index of cp's full canonical decomposition in the table, or -1; the
 * property word says whether there is one, so most code points skip the
 * search. */
static long dec_index(uint32_t cp)
{
    if (cp < IDNG_UT_DECOMP_FROM || !UP_DECOMP(idng_uprops(cp)))
        return -1;
    return find_u32(idng_ut_dec_cp, idng_ut_dec_count, cp);
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

/*
 * Canonical composition of buf[0..n), in canonical order and fully
 * decomposed, in place; returns the new length (n less the number of
 * pairs that composed).  A character composes with the last starter
 * unless a character between them has a combining class >= its own (or
 * is itself a starter).
 */
static size_t compose(uint32_t *buf, size_t n)
{
    size_t i, out, starter = 0;
    unsigned last;
    int have_starter;

    if (n == 0)
        return 0;
    have_starter = ccc(buf[0]) == 0;
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
    return out;
}

size_t idng_nfc_compose(uint32_t *buf, size_t n)
{
    return compose(buf, n);
}

/* Decomposition table positions remembered per code point (-1: none; -2:
 * not remembered, should the table ever outgrow int16_t). */
#define DEC_MEMO 128

int idng_nfc(uint32_t *buf, size_t *len, size_t cap)
{
    int16_t memo[DEC_MEMO];
    size_t n = *len, total = 0, i, out;

    /* Decompose in place, back to front, after measuring the result; the
     * table positions found while measuring are kept for short strings. */
    for (i = 0; i < n; i++) {
        uint32_t cp = buf[i];
        long k = -1;
        if (cp - SBASE < SCOUNT)
            total += (cp - SBASE) % TCOUNT ? 3 : 2;
        else if ((k = dec_index(cp)) >= 0)
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
        {
            uint32_t d[IDNG_UT_DECOMP_MAX];
            size_t m = idng_decompose(cp, d);
            out -= m;
            memcpy(buf + out, d, m * sizeof *buf);
        }
    }
    n = total;
    idng_canonical_order(buf, n);
    *len = compose(buf, n);
    return 0;
}

size_t idng_decompose(uint32_t cp, uint32_t *out)
{
    long k;

    if (cp - SBASE < SCOUNT) {
        uint32_t s = cp - SBASE;
        out[0] = LBASE + s / NCOUNT;
        out[1] = VBASE + (s % NCOUNT) / TCOUNT;
        if (s % TCOUNT == 0)
            return 2;
        out[2] = TBASE + s % TCOUNT;
        return 3;
    }
    if ((k = dec_index(cp)) >= 0) {
        size_t m = idng_ut_dec_ref[k] & IDNG_UT_REF_LEN_MASK;
        memcpy(out, idng_ut_pool + (idng_ut_dec_ref[k] >> IDNG_UT_REF_LEN_BITS), m * sizeof *out);
        return m;
    }
    out[0] = cp;
    return 1;
}

void idng_canonical_order(uint32_t *buf, size_t n)
{
    size_t i, j;

    /* Insertion sort within runs of non-starters (stable). */
    for (i = 1; i < n; i++) {
        uint32_t cp = buf[i];
        unsigned c = ccc(cp);
        if (c == 0)
            continue;
        for (j = i; j > 0 && ccc(buf[j - 1]) > c; j--)
            buf[j] = buf[j - 1];
        buf[j] = cp;
    }
}

int idng_confusable(uint32_t cp, const uint32_t **seq)
{
    return idng_confusable_w(idng_usec(cp), seq);
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

/*
 * Is there a composition boundary before cp, whose property word is w?  A
 * starter that is NFC_Quick_Check Yes never composes with what precedes
 * it, and nothing reorders across it, so the NFC of a string is the NFC of
 * its pieces between such boundaries, put together (UAX #15 section 9;
 * ICU's isNormalized works piece by piece on the same boundaries).
 */
static int comp_boundary_before(uint32_t cp, uint32_t w)
{
    return cp < IDNG_UT_NFC_TRIVIAL_BELOW || (UP_CCC(w) == 0 && UP_NFCQC(w) == QC_YES);
}

/* The property word of cp as the NFC pieces read it: 0 (Yes, class 0,
 * nothing to decompose) below IDNG_UT_DECOMP_FROM.  Not below
 * IDNG_UT_NFC_TRIVIAL_BELOW: U+00C0 to U+02FF are quick-check Yes and
 * class 0, but many decompose (U+00E9 + U+0323 is not NFC: its NFC is
 * U+1EB9 U+0301), which is what idng_decomposes reads in the word. */
static uint32_t nfc_word(uint32_t cp)
{
    return cp < IDNG_UT_DECOMP_FROM ? 0 : idng_uprops(cp);
}

void idng_nfc_short(uint32_t *buf, size_t *len)
{
    uint32_t s[NFC_CHECK_MAX];
    size_t i = 0, o = 0, n = *len, cap = n * IDNG_UT_DECOMP_MAX;
    unsigned last = 0;

    /* NFC(s) is the NFC of its pieces between composition boundaries, put
     * together.  A piece whose quick check steps all say Yes is NFC, and
     * stays; one with nothing to decompose (plain) and no step that says
     * No (its marks in canonical order) is its own canonical decomposition,
     * so composition alone normalizes it; the others go through idng_nfc.
     * None can fail: a piece's NFC is no longer than its decomposition, at
     * most IDNG_UT_DECOMP_MAX times the piece, so the output so far and the
     * piece's decomposition fit in cap. */
    memcpy(s, buf, n * sizeof *buf);
    while (i < n) {
        size_t start = o, m;
        unsigned qc = QC_YES; /* 0: the OR of the steps is Yes only if all are */
        int plain = 1;
        uint32_t w = nfc_word(s[i]);
        do {
            qc |= idng_nfc_qc_step(s[i], w, &last);
            plain &= !idng_decomposes(s[i], w);
            buf[o++] = s[i++];
        } while (i < n && !comp_boundary_before(s[i], w = nfc_word(s[i])));
        if (qc == QC_YES)
            continue;
        m = o - start;
        if (plain && !(qc & QC_NO))
            m = compose(buf + start, m);
        else
            idng_nfc(buf + start, &m, cap - start);
        o = start + m;
    }
    *len = o;
}

int idng_is_nfc_maybe(const uint32_t *s, size_t len)
{
    /* Full canonical decomposition grows a string at most IDNG_UT_DECOMP_MAX
     * times (fourfold in Unicode 15.0). */
    uint32_t tmp[IDNG_UT_DECOMP_MAX * NFC_CHECK_MAX + 16];
    size_t i = 0, start = 0, n;
    int plain = 1;

    if (len > NFC_CHECK_MAX)
        return 0;
    /* Only the pieces that hold a Maybe are normalized; the others are all
     * Yes, hence NFC.  The string is NFC exactly when every piece is: NFC
     * keeps the canonical decomposition, whose length is the sum of the
     * pieces', so a piece that changed cannot be made up for by another.
     * A piece with nothing to decompose (plain) is its own canonical
     * decomposition (the quick check saw its marks in order), so only
     * composition could change it, and would shorten it. */
    while (i < len) {
        uint32_t w = nfc_word(s[i]);
        if (comp_boundary_before(s[i], w)) {
            start = i;
            plain = 1;
        }
        plain &= !idng_decomposes(s[i], w);
        if (UP_NFCQC(w) != QC_MAYBE) {
            i++;
            continue;
        }
        for (i++; i < len && !comp_boundary_before(s[i], w = nfc_word(s[i])); i++)
            plain &= !idng_decomposes(s[i], w);
        n = i - start;
        memcpy(tmp, s + start, n * sizeof *s);
        if (plain) {
            if (compose(tmp, n) != n)
                return 0;
        } else if (idng_nfc(tmp, &n, sizeof tmp / sizeof tmp[0]) != 0 || n != i - start
                   || memcmp(tmp, s + start, n * sizeof *s) != 0) {
            return 0;
        }
    }
    return 1;
}

int idng_is_nfc(const uint32_t *s, size_t len)
{
    unsigned qc = idng_nfc_quick_check(s, len);

    if (qc != QC_MAYBE)
        return qc == QC_YES;
    return idng_is_nfc_maybe(s, len);
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
