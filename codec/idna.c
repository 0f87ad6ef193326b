/**
 * \file
 * IDNA: validation of xn-- labels under three modes, whole-name checks for
 * text and wire names, and UTS #46 ToASCII / ToUnicode.
 *
 * Every decode works on a label already capped at 63 octets (and a name at
 * 253), so no input can make the quadratic parts of Punycode or the context
 * rules expensive.  Work buffers live on the stack with fixed bounds.
 */
#include "idna_internal.h"
#include "unicode.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Code points in the work buffer of to-ASCII / to-Unicode, all labels. */
#define WORK_MAX 4096
/* Code points of one label after mapping and NFC. */
#define MAPPED_LABEL_MAX 512
/* Labels in a name: 253 octets allow at most 127. */
#define LABELS_MAX 128

static unsigned char ascii_lower(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static int has_8bit(const char *s, size_t len)
{
    size_t i;
    for (i = 0; i < len; i++)
        if ((unsigned char)s[i] >= 0x80)
            return 1;
    return 0;
}

static idng_status ok(idng_error *err)
{
    return idng_fail(err, IDNG_OK, 0, 0, IDNG_NO_CODEPOINT);
}

static unsigned bidi_of(uint32_t cp)
{
    return UP_BIDI(idng_uprops(cp));
}

#define BIDI_BIT(c) (1u << (c))
/* Classes an RTL label holds (RFC 5893 section 1.4). */
#define BIDI_RTL (BIDI_BIT(BC_R) | BIDI_BIT(BC_AL) | BIDI_BIT(BC_AN))
/* Classes allowed anywhere in a label of a Bidi domain name (rules 2 and 5). */
#define BIDI_ANY                                                                   \
    (BIDI_BIT(BC_EN) | BIDI_BIT(BC_ES) | BIDI_BIT(BC_CS) | BIDI_BIT(BC_ET) | BIDI_BIT(BC_ON) \
     | BIDI_BIT(BC_BN) | BIDI_BIT(BC_NSM))

/* What the bidi rule says about one label, and whether the label is RTL. */
struct bidi {
    int valid;        /* filled in by a pass over the whole label */
    int rtl;          /* holds an R, AL or AN character */
    idng_status st;   /* the Bidi Rule, RFC 5893 section 2 */
    uint32_t bad;
};

/* The rule, one character at a time, so that it shares the pass over the
 * label's properties with the other checks. */
struct bidi_run {
    unsigned allowed, last, seen;
    int rtl;
    idng_status st;
    uint32_t bad;
};

static void bidi_start(struct bidi_run *r, unsigned first, uint32_t cp)
{
    r->st = IDNG_OK;
    r->bad = IDNG_NO_CODEPOINT;
    r->last = BC_NSM;
    r->seen = 0;
    /* Rule 1: the first character is L, R or AL. */
    if (first != BC_L && first != BC_R && first != BC_AL) {
        r->st = IDNG_E_BIDI_1;
        r->bad = cp;
    }
    r->rtl = first != BC_L;
    r->allowed = BIDI_ANY | (r->rtl ? BIDI_RTL : BIDI_BIT(BC_L));
}

static void bidi_step(struct bidi_run *r, unsigned cls, uint32_t cp)
{
    r->seen |= BIDI_BIT(cls);
    if (r->st != IDNG_OK)
        return;
    if (!(r->allowed & BIDI_BIT(cls))) {
        /* Rules 2 and 5. */
        r->st = r->rtl ? IDNG_E_BIDI_2 : IDNG_E_BIDI_5;
        r->bad = cp;
        return;
    }
    if (cls != BC_NSM)
        r->last = cls;
}

static void bidi_finish(struct bidi_run *r, uint32_t last_cp, struct bidi *out)
{
    out->valid = 1;
    out->rtl = (r->seen & BIDI_RTL) != 0;
    out->st = r->st;
    out->bad = r->bad;
    if (r->st != IDNG_OK)
        return;
    if (r->rtl) {
        /* Rules 3 and 4. */
        if (r->last != BC_R && r->last != BC_AL && r->last != BC_EN && r->last != BC_AN) {
            out->st = IDNG_E_BIDI_3;
            out->bad = last_cp;
        } else if ((r->seen & BIDI_BIT(BC_EN)) && (r->seen & BIDI_BIT(BC_AN))) {
            out->st = IDNG_E_BIDI_4;
            out->bad = IDNG_NO_CODEPOINT;
        }
    } else if (r->last != BC_L && r->last != BC_EN) {
        /* Rule 6. */
        out->st = IDNG_E_BIDI_6;
        out->bad = last_cp;
    }
}

/* Whether a label is RTL, and the bidi rule's verdict on it, in one pass. */
static void bidi_scan(const uint32_t *u, size_t n, struct bidi *out)
{
    struct bidi_run r;
    size_t i;

    if (n == 0) {
        out->valid = 1;
        out->rtl = 0;
        out->st = IDNG_OK;
        out->bad = IDNG_NO_CODEPOINT;
        return;
    }
    bidi_start(&r, bidi_of(u[0]), u[0]);
    for (i = 0; i < n; i++)
        bidi_step(&r, bidi_of(u[i]), u[i]);
    bidi_finish(&r, u[n - 1], out);
}

/* RFC 5892 appendix A.1 and A.2: ZERO WIDTH NON-JOINER and JOINER at u[i]. */
static int contextj_ok(const uint32_t *u, size_t n, size_t i)
{
    size_t j;
    unsigned jt;

    if (i > 0 && UP_CCC(idng_uprops(u[i - 1])) == 9) /* Virama */
        return 1;
    if (u[i] != 0x200C)
        return 0;
    /* (Joining_Type:{L,D})(Joining_Type:T)* ZWNJ (Joining_Type:T)*(Joining_Type:{R,D}) */
    for (j = i, jt = JT_T; j > 0 && (jt = UP_JT(idng_uprops(u[j - 1]))) == JT_T; j--)
        ;
    if (j == 0 || (jt != JT_L && jt != JT_D))
        return 0;
    for (j = i + 1, jt = JT_T; j < n && (jt = UP_JT(idng_uprops(u[j]))) == JT_T; j++)
        ;
    return j < n && (jt == JT_R || jt == JT_D);
}

static int label_has(const uint32_t *u, size_t n, uint32_t lo, uint32_t hi)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (u[i] >= lo && u[i] <= hi)
            return 1;
    return 0;
}

/* RFC 5892 appendix A.3-A.9 for the CONTEXTO code point u[i]. */
static int contexto_ok(const uint32_t *u, size_t n, size_t i)
{
    uint32_t cp = u[i];
    size_t j;

    if (cp == 0x00B7) /* A.3 MIDDLE DOT: between two 'l' */
        return i > 0 && i + 1 < n && u[i - 1] == 0x6C && u[i + 1] == 0x6C;
    if (cp == 0x0375) /* A.4 KERAIA: Greek follows */
        return i + 1 < n && UP_SCRIPT(idng_uprops(u[i + 1])) == SC_GREEK;
    if (cp == 0x05F3 || cp == 0x05F4) /* A.5, A.6 GERESH, GERSHAYIM: Hebrew precedes */
        return i > 0 && UP_SCRIPT(idng_uprops(u[i - 1])) == SC_HEBREW;
    if (cp == 0x30FB) { /* A.7 KATAKANA MIDDLE DOT: some Hiragana, Katakana or Han */
        for (j = 0; j < n; j++) {
            unsigned sc = UP_SCRIPT(idng_uprops(u[j]));
            if (sc == SC_HIRAGANA || sc == SC_KATAKANA || sc == SC_HAN)
                return 1;
        }
        return 0;
    }
    if (cp >= 0x0660 && cp <= 0x0669) /* A.8: no Extended Arabic-Indic digits */
        return !label_has(u, n, 0x06F0, 0x06F9);
    if (cp >= 0x06F0 && cp <= 0x06F9) /* A.9: no Arabic-Indic digits */
        return !label_has(u, n, 0x0660, 0x0669);
    return 0;
}

/* Status of u[i], whose property word is w, under mode (not punycode). */
static idng_status cp_status(const uint32_t *u, size_t n, size_t i, uint32_t w, idng_mode mode)
{
    if (mode == IDNG_MODE_IDNA2008) {
        switch (UP_I08(w)) {
        case I08_PVALID:
            return IDNG_OK;
        case I08_CONTEXTJ:
            return contextj_ok(u, n, i) ? IDNG_OK : IDNG_E_CONTEXTJ;
        case I08_CONTEXTO:
            return contexto_ok(u, n, i) ? IDNG_OK : IDNG_E_CONTEXTO;
        case I08_UNASSIGNED:
            return IDNG_E_UNASSIGNED;
        default:
            return IDNG_E_DISALLOWED;
        }
    }
    switch (UP_U46(w)) {
    case U46_VALID:
    case U46_DEVIATION:
        if (u[i] == '.') /* UTS #46 4.1 criterion 4 */
            return IDNG_E_DISALLOWED;
        if (u[i] == 0x200C || u[i] == 0x200D) /* CheckJoiners */
            return contextj_ok(u, n, i) ? IDNG_OK : IDNG_E_CONTEXTJ;
        return IDNG_OK;
    case U46_MAPPED:
    case U46_IGNORED:
        return IDNG_E_MAPPED;
    default:
        return UP_I08(w) == I08_UNASSIGNED ? IDNG_E_UNASSIGNED : IDNG_E_DISALLOWED;
    }
}

/*
 * The codec's one validation of a U-label, whatever path it came by (an
 * A-label decoded, a raw label mapped, an ASCII label judged strictly): no
 * "xn--" prefix (in every mode); then, but in punycode mode, NFC, hyphens,
 * leading mark, and each code point's status under mode (IDNA2008 or
 * UTS #46: repertoire and the context rules), checked in that order.  One
 * pass looks up each code point's property word once and gathers
 * everything: the NFC quick check (full normalization only when it says
 * Maybe), the first bad status, and into bd whether the label is RTL and
 * what the bidi rule says of it (RFC 5893 section 2), for the caller to
 * apply when the name is a Bidi domain name.  bd is filled (bd->valid)
 * whenever that pass runs.
 */
static idng_status ulabel_check(const uint32_t *u, size_t n, idng_mode mode, uint32_t *bad,
                                struct bidi *bd)
{
    struct bidi_run br;
    idng_status first = IDNG_OK;
    uint32_t first_bad = IDNG_NO_CODEPOINT, w0 = 0;
    unsigned last_ccc = 0;
    int nfc_no = 0, nfc_maybe = 0;
    size_t i;

    /* The trie's tables and shift, read once (idng_uprops per code point
     * would reload them after every store the compiler cannot see past). */
    const uint16_t *stage1 = idng_ut_stage1, *stage2 = idng_ut_stage2;
    const uint32_t *props = idng_ut_props;
    unsigned shift = idng_ut_shift, mask = (1u << shift) - 1;

    *bad = IDNG_NO_CODEPOINT;
    bd->valid = 0;
    /* Its A-label would be "xn--xn--...", which no classifier accepts
     * (found by fuzzing, tests/fuzz regress classify F2). */
    if (idng_ace_prefix_cp(u, n))
        return IDNG_E_XN_PREFIX;
    if (mode == IDNG_MODE_PUNYCODE || n == 0)
        return IDNG_OK;
    for (i = 0; i < n; i++) {
        uint32_t cp = u[i], w = props[stage2[stage1[cp >> shift] + (cp & mask)]];
        unsigned cls = UP_BIDI(w);
        if (i == 0) {
            w0 = w;
            bidi_start(&br, cls, cp);
        }
        bidi_step(&br, cls, cp);
        switch (idng_nfc_qc_step(cp, w, &last_ccc)) {
        case QC_NO:
            nfc_no = 1;
            break;
        case QC_MAYBE:
            nfc_maybe = 1;
            break;
        }
        if (first == IDNG_OK && (first = cp_status(u, n, i, w, mode)) != IDNG_OK)
            first_bad = cp;
    }
    bidi_finish(&br, u[n - 1], bd);
    if (nfc_no || (nfc_maybe && !idng_is_nfc(u, n)))
        return IDNG_E_NOT_NFC;
    if (n >= 4 && u[2] == '-' && u[3] == '-')
        return IDNG_E_HYPHEN_34;
    if (u[0] == '-' || u[n - 1] == '-')
        return IDNG_E_HYPHEN_EDGE;
    if (UP_MARK(w0)) {
        *bad = u[0];
        return IDNG_E_LEADING_MARK;
    }
    *bad = first_bad;
    return first;
}

/*
 * Validates an xn-- label of plain ASCII (any case) under mode: what only
 * an A-label can fail (length, Punycode, decoding to nothing or to ASCII,
 * the round trip), then its U-label, which u (capacity IDNG_LABEL_MAX)
 * receives, through ulabel_check; bd as there.
 */
static idng_status check_ace(const char *label, size_t len, idng_mode mode, uint32_t *u,
                             size_t *n, uint32_t *bad, struct bidi *bd)
{
    char low[IDNG_LABEL_MAX], re[IDNG_LABEL_MAX];
    size_t i, relen = sizeof re;
    idng_status st;
    int ascii = 1;

    *bad = IDNG_NO_CODEPOINT;
    *n = 0;
    bd->valid = 0;
    if (len > IDNG_LABEL_MAX)
        return IDNG_E_LABEL_TOO_LONG;
    /* A-labels compare case-insensitively; RFC 5891 5.3 lowercases first. */
    for (i = 0; i < len; i++)
        low[i] = (char)ascii_lower((unsigned char)label[i]);
    *n = IDNG_LABEL_MAX;
    st = idng_punycode_decode(low + 4, len - 4, u, n, NULL);
    if (st != IDNG_OK) {
        *n = 0;
        return st;
    }
    if (*n == 0)
        return IDNG_E_EMPTY_DECODE;
    for (i = 0; i < *n && ascii; i++)
        ascii = u[i] < 0x80;
    if (ascii)
        return IDNG_E_ASCII_ONLY;
    if (idng_punycode_encode(u, *n, NULL, re, &relen) != IDNG_OK || relen != len - 4
        || memcmp(re, low + 4, relen) != 0)
        return IDNG_E_ROUNDTRIP;
    return ulabel_check(u, *n, mode, bad, bd);
}

struct span {
    const char *s;
    size_t len, off;
};

/*
 * The module's classifier over a list of labels: plain ASCII labels that
 * are not xn-- labels pass unjudged, raw 8-bit labels fail, xn-- labels are
 * validated, and in a Bidi domain name each xn-- label obeys the bidi rule.
 * With each == NULL it stops at the first failing label; otherwise every
 * failing label is put in each[] (in name order, at most cap of them, one
 * error per label: its own, else the bidi rule's) and *count says how many
 * failed.  The return value is the first failure either way.
 */
static idng_status check_labels(const struct span *labs, size_t nlab, idng_mode mode,
                                idng_error *err, idng_error *each, size_t cap, size_t *count)
{
    uint32_t u[IDNG_LABEL_MAX], bad;
    struct bidi bd;
    size_t i, n, nfail = 0;
    idng_status st, first = IDNG_OK;
    int bidi_domain = 0;
    /* Per label: its own status, then (xn-- labels that passed) the bidi
     * rule's, applied once the whole name is known to be a Bidi name. */
    idng_status lst[LABELS_MAX], bst[LABELS_MAX];
    uint32_t lbad[LABELS_MAX];

    if (count)
        *count = 0;
    if ((unsigned)mode > IDNG_MODE_UTS46 || nlab > LABELS_MAX)
        return idng_fail(err, IDNG_E_INVAL, 0, 0, IDNG_NO_CODEPOINT);
    for (i = 0; i < nlab; i++) {
        const struct span *l = &labs[i];
        lst[i] = bst[i] = IDNG_OK;
        lbad[i] = IDNG_NO_CODEPOINT;
        if (l->len > IDNG_LABEL_MAX)
            lst[i] = IDNG_E_LABEL_TOO_LONG;
        else if (has_8bit(l->s, l->len))
            lst[i] = IDNG_E_RAW_8BIT;
        else if (idng_is_ace(l->s, l->len)) {
            st = check_ace(l->s, l->len, mode, u, &n, &bad, &bd);
            if (st != IDNG_OK) {
                lst[i] = st;
                lbad[i] = bad;
            } else if (mode != IDNG_MODE_PUNYCODE) {
                bidi_domain |= bd.rtl;
                bst[i] = bd.st;
                lbad[i] = bd.bad;
            }
        }
        if (lst[i] != IDNG_OK && !each)
            return idng_fail(err, lst[i], l->off, l->len, lbad[i]);
    }
    for (i = 0; i < nlab; i++) {
        if (lst[i] == IDNG_OK && bidi_domain)
            lst[i] = bst[i];
        if (lst[i] == IDNG_OK)
            continue;
        if (nfail == 0)
            first = idng_fail(err, lst[i], labs[i].off, labs[i].len, lbad[i]);
        if (each && nfail < cap)
            idng_fail(&each[nfail], lst[i], labs[i].off, labs[i].len, lbad[i]);
        nfail++;
    }
    if (count)
        *count = nfail;
    return nfail ? first : ok(err);
}

idng_status idng_label_check(const char *label, size_t len, idng_mode mode, idng_error *err)
{
    struct span l;

    l.s = label;
    l.len = len;
    l.off = 0;
    if (len == 0)
        return idng_fail(err, IDNG_E_EMPTY_LABEL, 0, 0, IDNG_NO_CODEPOINT);
    return check_labels(&l, 1, mode, err, NULL, 0, NULL);
}

/*
 * Splits a text name at '.'; a single trailing dot (the root) is allowed,
 * other empty labels are errors.  "." alone is the root name.
 */
static idng_status split_text(const char *name, size_t len, struct span *labs, size_t *nlab,
                              idng_error *err)
{
    struct idng_text_iter it;
    size_t off, l, stop, n = 0;

    if (len > IDNG_NAME_MAX + 1 || (len == IDNG_NAME_MAX + 1 && name[len - 1] != '.'))
        return idng_fail(err, IDNG_E_NAME_TOO_LONG, 0, len, IDNG_NO_CODEPOINT);
    if (len == 1 && name[0] == '.') {
        *nlab = 0;
        return IDNG_OK;
    }
    idng_text_start(&it, name, len, 1);
    while (idng_text_next(&it, &off, &l, &stop)) {
        if (l == 0 && !(stop == 0 && n > 0))
            return idng_fail(err, IDNG_E_EMPTY_LABEL, off, 0, IDNG_NO_CODEPOINT);
        if (l > 0) {
            labs[n].s = name + off;
            labs[n].len = l;
            labs[n].off = off;
            n++;
        }
    }
    *nlab = n;
    return IDNG_OK;
}

#if defined(__GNUC__) || defined(__clang__)
#define NOINLINE __attribute__((noinline))
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define NOINLINE
#define ALWAYS_INLINE inline
#endif

#if defined(__SSE2__)
/* Masks of a name's octets, bit i for octet i. */
struct name_masks {
    uint64_t dot; /* '.' */
    uint64_t x;   /* 'x' or 'X' */
    unsigned high; /* nonzero if some octet is >= 0x80 */
};

/* Adds the masks of vector v, whose octet j is octet at + j of the name,
 * keeping only the octets from `from` on (an overlapping last block). */
static ALWAYS_INLINE void vec_masks(__m128i v, size_t at, unsigned from, struct name_masks *m)
{
    unsigned keep = 0xFFFFu << from;
    unsigned dot = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('.')));
    unsigned x = (unsigned)_mm_movemask_epi8(
        _mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(0x20)), _mm_set1_epi8('x')));

    m->high |= (unsigned)_mm_movemask_epi8(v);
    m->dot |= (uint64_t)(dot & keep) << at;
    m->x |= (uint64_t)(x & keep) << at;
}

/*
 * The masks of s[0..len), 1 <= len <= 64, reading nothing outside s: a
 * short name is read as two overlapping halves (put side by side in one
 * vector), a longer one in 16-octet blocks, the last of which ends at len.
 */
static ALWAYS_INLINE void name_masks(const unsigned char *s, size_t len, struct name_masks *m)
{
    struct name_masks h;
    size_t off;

    m->dot = m->x = 0;
    m->high = 0;
    if (len >= 16) {
        for (off = 0; off + 16 <= len; off += 16)
            vec_masks(_mm_loadu_si128((const __m128i *)(const void *)(s + off)), off, 0, m);
        if (off < len)
            vec_masks(_mm_loadu_si128((const __m128i *)(const void *)(s + len - 16)), len - 16,
                      (unsigned)(16 - (len - off)), m);
        return;
    }
    h.dot = h.x = 0;
    h.high = 0;
    if (len >= 8) {
        vec_masks(_mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)s),
                                     _mm_loadl_epi64((const __m128i *)(const void *)(s + len - 8))),
                  0, 0, &h);
        m->dot = (h.dot & 0xFF) | (h.dot >> 8) << (len - 8);
        m->x = (h.x & 0xFF) | (h.x >> 8) << (len - 8);
    } else if (len >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + len - 4, 4);
        vec_masks(_mm_unpacklo_epi32(_mm_cvtsi32_si128((int)a), _mm_cvtsi32_si128((int)b)), 0, 0,
                  &h);
        m->dot = (h.dot & 0xF) | (h.dot >> 4 & 0xF) << (len - 4);
        m->x = (h.x & 0xF) | (h.x >> 4 & 0xF) << (len - 4);
    } else {
        uint32_t v = 0;
        for (off = 0; off < len; off++)
            v |= (uint32_t)s[off] << (8 * off);
        vec_masks(_mm_cvtsi32_si128((int)v), 0, 0, &h);
        m->dot = h.dot;
        m->x = h.x;
    }
    m->high = h.high;
}
#endif

/* Does s[0..n) hold an octet >= 0x80?  Eight octets at a time, the last
 * word overlapping the one before, nothing read outside s. */
static ALWAYS_INLINE int any_high(const unsigned char *s, size_t n)
{
    const uint64_t high = 0x8080808080808080u;
    uint64_t acc = 0, v;
    size_t off;

    if (n >= 8) {
        for (off = 0; off + 8 <= n; off += 8) {
            memcpy(&v, s + off, 8);
            acc |= v;
        }
        memcpy(&v, s + n - 8, 8);
        return ((acc | v) & high) != 0;
    }
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        return ((a | b) & 0x80808080u) != 0;
    }
    for (off = 0; off < n; off++)
        acc |= s[off];
    return (acc & 0x80) != 0;
}

/*
 * Is this a text name that the classifier passes without judging anything?
 * That is: a name of at most 253 octets (254 with the root's dot), of
 * non-empty labels (but for the root) of at most 63 octets, all plain
 * ASCII, none beginning with "xn--" in any case.  Anything else, including
 * "." alone, takes the full path, which then finds the same answer or the
 * error.
 */
static ALWAYS_INLINE int plain_name(const unsigned char *s, size_t len)
{
    struct idng_text_iter it;
    size_t off, l, stop;

    if (len == 0 || len > IDNG_NAME_MAX + 1 || (len == IDNG_NAME_MAX + 1 && s[len - 1] != '.'))
        return 0;
#if defined(__SSE2__)
    if (len <= 64) {
        /* No 8-bit octet; no empty label (a dot first, or two dots in a
         * row; a last dot is the root); no label of 64 octets (only
         * possible as 64 octets without a dot); then no "xn--" at a label
         * start (0, or after a dot): only starts with an 'x' are looked at. */
        struct name_masks m;
        uint64_t cand;
        name_masks(s, len, &m);
        if (m.high || (m.dot & 1) || (m.dot & m.dot >> 1) || (len == 64 && !m.dot))
            return 0;
        for (cand = (m.dot << 1 | 1) & m.x; cand; cand &= cand - 1) {
            size_t at = (size_t)__builtin_ctzll(cand);
            if (idng_ace_prefix(s + at, len - at))
                return 0;
        }
        return 1;
    }
#endif
    idng_text_start(&it, (const char *)s, len, 1);
    while (idng_text_next(&it, &off, &l, &stop)) {
        if (l == 0 && (stop != 0 || off == 0)) /* empty, and not after the root's dot */
            return 0;
        if (l > IDNG_LABEL_MAX || idng_ace_prefix(s + off, l))
            return 0;
    }
    return !any_high(s, len);
}

/*
 * The same for an uncompressed wire-format name: every label within len and
 * at most 63 octets, the name at most 255 octets, plain ASCII, no xn--
 * label.  Length octets are below 0x40, so the 8-bit test may include them.
 */
static ALWAYS_INLINE int plain_wire(const uint8_t *w, size_t len)
{
    idng_wire_iter it;
    const uint8_t *label;
    size_t l;
    int r;

    idng_wire_start(&it, w, len);
    while ((r = idng_wire_step(&it, &label, &l)) == IDNG_WIRE_LABEL)
        if (idng_ace_prefix(label, l))
            return 0;
    return r == IDNG_WIRE_END && !any_high(w, it.pos);
}

/* The full paths live apart from the fast ones, whose callers then need no
 * large stack frame. */
static NOINLINE idng_status name_check_full(const char *name, size_t len, idng_mode mode,
                                            idng_error *err)
{
    struct span labs[LABELS_MAX];
    size_t nlab;
    idng_status st = split_text(name, len, labs, &nlab, err);

    return st != IDNG_OK ? st : check_labels(labs, nlab, mode, err, NULL, 0, NULL);
}

idng_status idng_name_check(const char *name, size_t len, idng_mode mode, idng_error *err)
{
    if ((unsigned)mode <= IDNG_MODE_UTS46 && plain_name((const unsigned char *)name, len))
        return ok(err);
    return name_check_full(name, len, mode, err);
}

/*
 * Splits an uncompressed wire name into labs (LABELS_MAX): every label
 * within len and at most 63 octets, the name at most 255 octets with its
 * root label.  Offsets are those of the label contents.
 */
static idng_status split_wire(const uint8_t *wire, size_t len, struct span *labs, size_t *nlab,
                              idng_error *err)
{
    idng_wire_iter it;
    const uint8_t *label;
    size_t l, n = 0;

    idng_wire_start(&it, wire, len);
    while (idng_wire_step(&it, &label, &l) == IDNG_WIRE_LABEL) {
        labs[n].s = (const char *)label;
        labs[n].len = l;
        labs[n].off = (size_t)(label - wire);
        n++;
    }
    *nlab = n;
    return idng_wire_status(&it, err);
}

static NOINLINE idng_status wire_check_full(const uint8_t *wire, size_t len, idng_mode mode,
                                            idng_error *err, idng_error *each, size_t cap,
                                            size_t *count)
{
    struct span labs[LABELS_MAX];
    size_t nlab = 0;
    idng_status st = split_wire(wire, len, labs, &nlab, err);

    if (st != IDNG_OK) {
        if (count)
            *count = 1;
        if (each && cap > 0)
            idng_fail(&each[0], st, err ? err->label_off : 0, err ? err->label_len : 0,
                 IDNG_NO_CODEPOINT);
        return st;
    }
    return check_labels(labs, nlab, mode, err, each, cap, count);
}

idng_status idng_wire_check(const uint8_t *wire, size_t len, idng_mode mode, idng_error *err)
{
    if ((unsigned)mode <= IDNG_MODE_UTS46 && plain_wire(wire, len))
        return ok(err);
    return wire_check_full(wire, len, mode, err, NULL, 0, NULL);
}

idng_status idng_wire_check_each(const uint8_t *wire, size_t len, idng_mode mode,
                                 idng_error *each, size_t cap, size_t *count)
{
    idng_error first;

    *count = 0;
    if ((unsigned)mode <= IDNG_MODE_UTS46 && plain_wire(wire, len))
        return IDNG_OK;
    return wire_check_full(wire, len, mode, &first, each, cap, count);
}

/* ---- to-ASCII and to-Unicode ---- */

/* Output that counts what does not fit. */
struct sink {
    char *out;
    size_t cap, len;
};

static void emit(struct sink *k, const void *p, size_t n)
{
    if (k->len < k->cap)
        memcpy(k->out + k->len, p, k->cap - k->len < n ? k->cap - k->len : n);
    k->len += n;
}

static void emit_byte(struct sink *k, char c)
{
    if (k->len < k->cap)
        k->out[k->len] = c;
    k->len++;
}

static void emit_lower(struct sink *k, const char *s, size_t n)
{
    size_t i, room = k->len < k->cap ? k->cap - k->len : 0;
    char *o = k->out + k->len;

    if (room > n)
        room = n;
    for (i = 0; i < room; i++)
        o[i] = (char)ascii_lower((unsigned char)s[i]);
    k->len += n;
}

static void emit_utf8(struct sink *k, const uint32_t *u, size_t n)
{
    unsigned char buf[4];
    size_t i;
    for (i = 0; i < n; i++) {
        if (u[i] < 0x80)
            emit_byte(k, (char)u[i]);
        else if (k->len < k->cap && k->cap - k->len >= 4)
            k->len += idng_utf8_encode(u[i], (unsigned char *)k->out + k->len);
        else
            emit(k, buf, idng_utf8_encode(u[i], buf));
    }
}

static idng_status finish(struct sink *k, size_t *outlen)
{
    *outlen = k->len;
    if (k->len > k->cap)
        return IDNG_E_NOSPACE;
    if (k->len < k->cap)
        k->out[k->len] = '\0';
    return IDNG_OK;
}

enum kind { K_PLAIN, K_ACE, K_UNICODE };

struct label_state {
    size_t off, len;   /* input octets */
    size_t u_off, n;   /* U-label in the work buffer */
    enum kind kind;
    int judged, rtl, ascii_u;
    idng_status st, bidi;
    uint32_t bad, bidi_bad;
};

/* Offset of the first octet of s[0..n) that does not begin a valid UTF-8
 * sequence within s, or n. */
static size_t utf8_bad_at(const unsigned char *s, size_t n)
{
    size_t pos = 0, m;
    uint32_t cp;

    while (pos < n) {
        if (s[pos] < 0x80) {
            pos++;
            continue;
        }
        if ((m = idng_utf8_decode(s + pos, n - pos, &cp)) == 0)
            return pos;
        pos += m;
    }
    return n;
}

/*
 * The longest full canonical decomposition in the tables (Unicode 15.0: 4,
 * e.g. U+1F82; Hangul syllables: 3).  A label of n code points that passes
 * the NFC quick check is its own NFC, and idng_nfc would only have refused
 * it if its decomposition, at most n * NFC_DECOMP_MAX, did not fit.
 */
#define NFC_DECOMP_MAX 4

/* Maps a non-ASCII label with the UTS #46 table and normalizes it to NFC. */
static idng_status map_label(const unsigned char *s, size_t len, uint32_t *u, size_t *n,
                             size_t cap, uint32_t *bad)
{
    size_t pos = 0, count = 0, out = 0;
    idng_status st = IDNG_OK;

    if (cap > MAPPED_LABEL_MAX)
        cap = MAPPED_LABEL_MAX;
    while (pos < len) {
        uint32_t cp, w = 0;
        const uint32_t *seq;
        int m = -1;
        if (s[pos] < 0x80) {
            cp = ascii_lower(s[pos]);
            pos++;
        } else {
            pos += idng_utf8_decode(s + pos, len - pos, &cp); /* validated by the caller */
            w = idng_uprops(cp);
            /* Only mapped and ignored code points are in the mapping table. */
            if (UP_U46(w) == U46_MAPPED || UP_U46(w) == U46_IGNORED)
                m = idng_u46_mapping(cp, &seq);
        }
        if (++count > IDNG_INPUT_LABEL_MAX)
            return IDNG_E_INPUT_TOO_LONG;
        if (m < 0) {
            if (cp >= 0x80 && UP_U46(w) == U46_DISALLOWED && st == IDNG_OK) {
                st = UP_I08(w) == I08_UNASSIGNED ? IDNG_E_UNASSIGNED : IDNG_E_DISALLOWED;
                *bad = cp;
            }
            if (out + 1 > cap)
                return IDNG_E_INPUT_TOO_LONG;
            u[out++] = cp;
            continue;
        }
        if (out + (size_t)m > cap)
            return IDNG_E_INPUT_TOO_LONG;
        memcpy(u + out, seq, (size_t)m * sizeof *u);
        out += (size_t)m;
    }
    /* Normalize only when the quick check does not say yes. */
    if (idng_nfc_quick_check(u, out) != QC_YES || out > cap / NFC_DECOMP_MAX) {
        if (idng_nfc(u, &out, cap) != 0)
            return IDNG_E_INPUT_TOO_LONG;
    }
    *n = out;
    return st;
}

/*
 * One run of to-ASCII or to-Unicode over a name, in four steps:
 * split_name cuts the input into labels, analyse_label maps and judges
 * each one, apply_bidi applies the bidi rule of a Bidi domain name to
 * every label, and emit_name writes the result.  idng_label_to_ascii
 * runs the last three on its one label.
 */
struct run {
    const char *in;
    size_t inlen;
    idng_mode mode;
    unsigned flags;
    int to_unicode;
    int root;          /* the name ends with a full stop (the root label) */
    size_t nlab, used; /* labels; code points of work in use */
    struct label_state labs[LABELS_MAX * 2];
    uint32_t work[WORK_MAX];
};

static void run_start(struct run *r, const char *in, size_t inlen, idng_mode mode,
                      unsigned flags, int to_unicode)
{
    r->in = in;
    r->inlen = inlen;
    r->mode = mode;
    r->flags = flags;
    r->to_unicode = to_unicode;
    r->root = 0;
    r->nlab = 0;
    r->used = 0;
}

static void add_label(struct run *r, size_t off, size_t len)
{
    struct label_state *l = &r->labs[r->nlab++];

    memset(l, 0, sizeof *l);
    l->off = off;
    l->len = len;
}

/* Step 1: the labels, at every full stop, each valid UTF-8.  A bad label is
 * reported up to the next U+002E after the bad octet. */
static idng_status split_name(struct run *r, idng_error *err)
{
    const unsigned char *s = (const unsigned char *)r->in;
    struct idng_text_iter it;
    size_t off, len, stop;

    idng_text_start(&it, r->in, r->inlen, 0);
    while (idng_text_next(&it, &off, &len, &stop)) {
        size_t end = off + utf8_bad_at(s + off, len);
        if (end < off + len) {
            while (end < r->inlen && s[end] != '.')
                end++;
            return idng_fail(err, IDNG_E_BAD_UTF8, off, end - off, IDNG_NO_CODEPOINT);
        }
        if (r->nlab == sizeof r->labs / sizeof r->labs[0])
            return idng_fail(err, IDNG_E_INPUT_TOO_LONG, off, r->inlen - off, IDNG_NO_CODEPOINT);
        add_label(r, off, len);
    }
    /* A trailing empty label is the root (UTS #46 VerifyDnsLength excludes
     * it too).  "." alone is the root name in DNS, but an empty label to
     * strict UTS #46 processing. */
    if (r->nlab > 1 && r->labs[r->nlab - 1].len == 0) {
        r->root = 1;
        r->nlab--;
        if (r->nlab == 1 && r->labs[0].len == 0 && r->inlen == 1 && !(r->flags & IDNG_F_STRICT))
            r->nlab = 0;
    }
    return IDNG_OK;
}

/* Step 2 for a label of plain ASCII: an xn-- label is validated, others
 * only with IDNG_F_STRICT. */
static idng_status analyse_ascii(struct run *r, struct label_state *l, const char *p,
                                 uint32_t *u, size_t cap, struct bidi *bd, idng_error *err)
{
    size_t j;

    if (idng_is_ace(p, l->len)) {
        l->kind = K_ACE;
        l->judged = 1;
        if (cap < IDNG_LABEL_MAX)
            return idng_fail(err, IDNG_E_INPUT_TOO_LONG, l->off, l->len, IDNG_NO_CODEPOINT);
        l->st = check_ace(p, l->len, r->mode, u, &l->n, &l->bad, bd);
    } else if (r->flags & IDNG_F_STRICT) {
        l->kind = K_UNICODE;
        l->judged = 1;
        l->ascii_u = 1;
        if (l->len > cap)
            return idng_fail(err, IDNG_E_INPUT_TOO_LONG, l->off, l->len, IDNG_NO_CODEPOINT);
        for (j = 0; j < l->len; j++)
            u[j] = ascii_lower((unsigned char)p[j]);
        l->n = l->len;
        l->st = ulabel_check(u, l->n, r->mode, &l->bad, bd);
    } else {
        l->kind = K_PLAIN;
    }
    return IDNG_OK;
}

/* Step 2 for a label with octets >= 0x80: mapped, normalized, judged. */
static idng_status analyse_unicode(struct run *r, struct label_state *l, const char *p,
                                   uint32_t *u, size_t cap, struct bidi *bd, idng_error *err)
{
    size_t j;
    int ascii = 1;

    l->kind = K_UNICODE;
    l->judged = 1;
    l->st = map_label((const unsigned char *)p, l->len, u, &l->n, cap, &l->bad);
    if (l->st == IDNG_E_INPUT_TOO_LONG)
        return idng_fail(err, l->st, l->off, l->len, IDNG_NO_CODEPOINT);
    for (j = 0; j < l->n && ascii; j++)
        ascii = u[j] < 0x80;
    l->ascii_u = ascii;
    if (l->n == 0 && l->st == IDNG_OK) {
        l->st = IDNG_E_EMPTY_LABEL;
    } else if (ascii && idng_ace_prefix_cp(u, l->n)) {
        /* Mapped into an A-label (fullwidth input, say): judge it as one. */
        char a[IDNG_LABEL_MAX];
        idng_status st2;
        for (j = 0; j < l->n && j < sizeof a; j++)
            a[j] = (char)u[j];
        st2 = l->n > IDNG_LABEL_MAX ? IDNG_E_LABEL_TOO_LONG
                                    : check_ace(a, l->n, r->mode, u, &l->n, &l->bad, bd);
        if (l->st == IDNG_OK)
            l->st = st2;
        l->ascii_u = 0;
    } else if (l->st == IDNG_OK) {
        l->st = ulabel_check(u, l->n, r->mode, &l->bad, bd);
    }
    return IDNG_OK;
}

/* Step 2: one label, its U-label put in the work buffer; also whether it
 * is RTL and what the bidi rule says of it.  Fails only when the work
 * buffer is full. */
static idng_status analyse_label(struct run *r, struct label_state *l, idng_error *err)
{
    const char *p = r->in + l->off;
    uint32_t *u = r->work + r->used;
    size_t cap = WORK_MAX - r->used;
    struct bidi bd;
    idng_status st = IDNG_OK;

    bd.valid = 0;
    l->st = IDNG_OK;
    l->bad = IDNG_NO_CODEPOINT;
    l->u_off = r->used;
    if (l->len == 0)
        l->st = IDNG_E_EMPTY_LABEL;
    else if (!has_8bit(p, l->len))
        st = analyse_ascii(r, l, p, u, cap, &bd, err);
    else
        st = analyse_unicode(r, l, p, u, cap, &bd, err);
    if (st != IDNG_OK)
        return st;
    r->used += l->n;
    if (l->judged && r->mode != IDNG_MODE_PUNYCODE && l->n > 0) {
        if (!bd.valid)
            bidi_scan(u, l->n, &bd);
        l->rtl = bd.rtl;
        l->bidi = bd.st;
        l->bidi_bad = bd.bad;
    }
    return IDNG_OK;
}

/* Step 3: in a Bidi domain name (some label is RTL) every label obeys the
 * bidi rule.  Returns the index of the first failing label, or nlab. */
static size_t apply_bidi(struct run *r)
{
    size_t i, first = r->nlab;
    int bidi_domain = 0;

    for (i = 0; i < r->nlab; i++)
        bidi_domain |= r->labs[i].rtl;
    for (i = 0; i < r->nlab; i++) {
        struct label_state *l = &r->labs[i];
        if (l->st == IDNG_OK && bidi_domain && l->bidi != IDNG_OK) {
            l->st = l->bidi;
            l->bad = l->bidi_bad;
        }
        if (l->st != IDNG_OK && first == r->nlab)
            first = i;
    }
    return first;
}

/* Step 4, one label: as it was (a failed label kept by IDNG_F_KEEP_GOING,
 * or one not judged), its A-label, or its U-label. */
static idng_status emit_label(struct run *r, const struct label_state *l, struct sink *k)
{
    const char *p = r->in + l->off;

    if (l->st != IDNG_OK) {
        emit(k, p, l->len);
    } else if (l->kind == K_PLAIN || (l->kind == K_ACE && !r->to_unicode)) {
        emit_lower(k, p, l->len);
    } else if (r->to_unicode || l->ascii_u) {
        emit_utf8(k, r->work + l->u_off, l->n);
    } else {
        char a[IDNG_LABEL_MAX];
        size_t alen = sizeof a - 4;
        if (idng_punycode_encode(r->work + l->u_off, l->n, NULL, a + 4, &alen) != IDNG_OK)
            return IDNG_E_LABEL_TOO_LONG;
        memcpy(a, "xn--", 4);
        emit(k, a, alen + 4);
    }
    return IDNG_OK;
}

/* Step 4: the name, checked against the DNS lengths when it is ASCII;
 * first is the first failing label (nlab if none), whose error is
 * returned after a complete output. */
static idng_status emit_name(struct run *r, size_t first, char *out, size_t *outlen,
                             idng_error *err)
{
    struct sink k;
    size_t i, dns_len;

    k.out = out;
    k.cap = *outlen;
    k.len = 0;
    for (i = 0; i < r->nlab; i++) {
        const struct label_state *l = &r->labs[i];
        size_t before = k.len;
        if (i > 0)
            emit_byte(&k, '.');
        if (emit_label(r, l, &k) != IDNG_OK
            || (!r->to_unicode && k.len - before - (i > 0) > IDNG_LABEL_MAX)) {
            *outlen = 0;
            return idng_fail(err, IDNG_E_LABEL_TOO_LONG, l->off, l->len, IDNG_NO_CODEPOINT);
        }
    }
    dns_len = k.len;
    if (r->root)
        emit_byte(&k, '.');
    if (!r->to_unicode && (dns_len > IDNG_NAME_MAX || (r->nlab == 0 && !r->root))) {
        *outlen = 0;
        return idng_fail(err, r->nlab == 0 ? IDNG_E_EMPTY_LABEL : IDNG_E_NAME_TOO_LONG, 0,
                         r->inlen, IDNG_NO_CODEPOINT);
    }
    if (finish(&k, outlen) != IDNG_OK)
        return idng_fail(err, IDNG_E_NOSPACE, 0, r->inlen, IDNG_NO_CODEPOINT);
    if (first < r->nlab)
        return idng_fail(err, r->labs[first].st, r->labs[first].off, r->labs[first].len,
                         r->labs[first].bad);
    return ok(err);
}

/* Steps 2-4 on the labels of r. */
static idng_status convert(struct run *r, char *out, size_t *outlen, idng_error *err)
{
    size_t i, first;
    idng_status st;

    for (i = 0; i < r->nlab; i++)
        if ((st = analyse_label(r, &r->labs[i], err)) != IDNG_OK)
            return st;
    first = apply_bidi(r);
    if (first < r->nlab && !(r->to_unicode && (r->flags & IDNG_F_KEEP_GOING))) {
        const struct label_state *l = &r->labs[first];
        *outlen = 0;
        return idng_fail(err, l->st, l->off, l->len, l->bad);
    }
    return emit_name(r, first, out, outlen, err);
}

/* Shared driver of to-ASCII (to_unicode = 0) and to-Unicode. */
static NOINLINE idng_status process(const char *in, size_t inlen, char *out, size_t *outlen,
                                    idng_mode mode, unsigned flags, idng_error *err,
                                    int to_unicode)
{
    struct run r;
    idng_status st;

    if ((unsigned)mode > IDNG_MODE_UTS46)
        return idng_fail(err, IDNG_E_INVAL, 0, 0, IDNG_NO_CODEPOINT);
    if (inlen > IDNG_INPUT_MAX)
        return idng_fail(err, IDNG_E_INPUT_TOO_LONG, 0, inlen, IDNG_NO_CODEPOINT);
    run_start(&r, in, inlen, mode, flags, to_unicode);
    if ((st = split_name(&r, err)) != IDNG_OK)
        return st;
    return convert(&r, out, outlen, err);
}

#if defined(__SSE2__)
/* ASCII letters in v lowercased; v holds no octet >= 0x80. */
static __m128i vec_lower(__m128i v)
{
    __m128i upper = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('A' - 1)),
                                  _mm_cmpgt_epi8(_mm_set1_epi8('Z' + 1), v));
    return _mm_add_epi8(v, _mm_and_si128(upper, _mm_set1_epi8(0x20)));
}

/* out[0..n) = in[0..n) lowercased, n >= 4, plain ASCII; like the reads,
 * the writes stay inside [0, n) (overlapping stores of the same octets). */
static void lower_copy(const unsigned char *in, unsigned char *out, size_t n)
{
    size_t off;

    if (n >= 16) {
        for (off = 0; off + 16 <= n; off += 16)
            _mm_storeu_si128((__m128i *)(void *)(out + off),
                             vec_lower(_mm_loadu_si128((const __m128i *)(const void *)(in + off))));
        if (off < n)
            _mm_storeu_si128(
                (__m128i *)(void *)(out + n - 16),
                vec_lower(_mm_loadu_si128((const __m128i *)(const void *)(in + n - 16))));
    } else if (n >= 8) {
        __m128i v = vec_lower(_mm_unpacklo_epi64(
            _mm_loadl_epi64((const __m128i *)(const void *)in),
            _mm_loadl_epi64((const __m128i *)(const void *)(in + n - 8))));
        _mm_storel_epi64((__m128i *)(void *)out, v);
        _mm_storel_epi64((__m128i *)(void *)(out + n - 8), _mm_unpackhi_epi64(v, v));
    } else {
        uint32_t a, b;
        __m128i v;
        memcpy(&a, in, 4);
        memcpy(&b, in + n - 4, 4);
        v = vec_lower(_mm_unpacklo_epi32(_mm_cvtsi32_si128((int)a), _mm_cvtsi32_si128((int)b)));
        a = (uint32_t)_mm_cvtsi128_si32(v);
        b = (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(v, 4));
        memcpy(out, &a, 4);
        memcpy(out + n - 4, &b, 4);
    }
}
#endif

/*
 * A name of plain ASCII labels, none of them judged: both conversions give
 * the name lowercased, which fits DNS lengths (what process() would find).
 * Returns 0 when the name is not such a name.
 */
static int plain_convert(const char *in, size_t inlen, char *out, size_t *outlen,
                         idng_mode mode, unsigned flags, idng_error *err, idng_status *st)
{
    size_t i, n;

    if ((unsigned)mode > IDNG_MODE_UTS46 || (flags & IDNG_F_STRICT)
        || !plain_name((const unsigned char *)in, inlen))
        return 0;
    n = inlen < *outlen ? inlen : *outlen;
#if defined(__SSE2__)
    if (n == inlen && n >= 4) {
        lower_copy((const unsigned char *)in, (unsigned char *)out, n);
        n = 0;
    }
#endif
    for (i = 0; i < n; i++)
        out[i] = (char)ascii_lower((unsigned char)in[i]);
    if (inlen < *outlen)
        out[inlen] = '\0';
    if (inlen > *outlen) {
        *outlen = inlen;
        *st = idng_fail(err, IDNG_E_NOSPACE, 0, inlen, IDNG_NO_CODEPOINT);
        return 1;
    }
    *outlen = inlen;
    *st = ok(err);
    return 1;
}

idng_status idng_to_ascii(const char *in, size_t inlen, char *out, size_t *outlen,
                          idng_mode mode, unsigned flags, idng_error *err)
{
    idng_status st;
    if (plain_convert(in, inlen, out, outlen, mode, flags, err, &st))
        return st;
    return process(in, inlen, out, outlen, mode, flags, err, 0);
}

idng_status idng_to_unicode(const char *in, size_t inlen, char *out, size_t *outlen,
                            idng_mode mode, unsigned flags, idng_error *err)
{
    idng_status st;
    if (plain_convert(in, inlen, out, outlen, mode, flags, err, &st))
        return st;
    return process(in, inlen, out, outlen, mode, flags, err, 1);
}

idng_status idng_label_to_ascii(const char *label, size_t len, char *out, size_t *outlen,
                                idng_mode mode, idng_error *err)
{
    const unsigned char *s = (const unsigned char *)label;
    char buf[IDNG_LABEL_MAX + 1];
    size_t i, n = sizeof buf;
    struct run r;
    idng_status st;

    if (len == 0)
        return idng_fail(err, IDNG_E_EMPTY_LABEL, 0, 0, IDNG_NO_CODEPOINT);
    /* A full stop would make two labels of one: refuse it, whatever it is. */
    for (i = 0; i < len; i++) {
        size_t sep = idng_full_stop(label + i, len - i);
        if (sep) {
            uint32_t cp = '.';
            if (sep > 1)
                idng_utf8_decode(s + i, len - i, &cp);
            return idng_fail(err, IDNG_E_DISALLOWED, 0, len, cp);
        }
    }
    /* The label is converted as process() converts each label of a name,
     * with no name around it to split. */
    if ((unsigned)mode > IDNG_MODE_UTS46)
        return idng_fail(err, IDNG_E_INVAL, 0, 0, IDNG_NO_CODEPOINT);
    if (len > IDNG_INPUT_MAX)
        return idng_fail(err, IDNG_E_INPUT_TOO_LONG, 0, len, IDNG_NO_CODEPOINT);
    if (utf8_bad_at(s, len) < len)
        return idng_fail(err, IDNG_E_BAD_UTF8, 0, len, IDNG_NO_CODEPOINT);
    run_start(&r, label, len, mode, 0, 0);
    add_label(&r, 0, len);
    st = convert(&r, buf, &n, err);
    if (st == IDNG_E_NOSPACE || (st == IDNG_OK && n > IDNG_LABEL_MAX))
        return idng_fail(err, IDNG_E_LABEL_TOO_LONG, 0, len, IDNG_NO_CODEPOINT);
    if (st != IDNG_OK)
        return st;
    if (memchr(buf, '.', n)) /* no mapping gives one under STD3; never trust it */
        return idng_fail(err, IDNG_E_DISALLOWED, 0, len, '.');
    if (n > *outlen) {
        *outlen = n;
        return idng_fail(err, IDNG_E_NOSPACE, 0, len, IDNG_NO_CODEPOINT);
    }
    memcpy(out, buf, n);
    *outlen = n;
    return ok(err);
}

idng_status idng_wire_to_ascii(const uint8_t *wire, size_t len, uint8_t *out, size_t *outlen,
                               idng_mode mode, unsigned flags, idng_error *err)
{
    idng_wire_iter it;
    const uint8_t *label;
    size_t o = 0, cap = *outlen, llen;
    uint8_t name[IDNG_WIRE_MAX];
    idng_error first;
    idng_status st;

    *outlen = 0;
    idng_fail(&first, IDNG_OK, 0, 0, IDNG_NO_CODEPOINT);
    /* The whole name is well formed before any label is converted. */
    idng_wire_start(&it, wire, len);
    idng_wire_skip(&it);
    if ((st = idng_wire_status(&it, err)) != IDNG_OK)
        return st;
    if ((unsigned)mode > IDNG_MODE_UTS46)
        return idng_fail(err, IDNG_E_INVAL, 0, 0, IDNG_NO_CODEPOINT);
    idng_wire_start(&it, wire, len);
    while (idng_wire_step(&it, &label, &llen) == IDNG_WIRE_LABEL) {
        const char *l = (const char *)label, *a = l;
        size_t off = (size_t)(label - wire), n = llen, j;
        char buf[IDNG_LABEL_MAX];
        int raw = has_8bit(l, llen);

        if (raw) {
            idng_error le;
            n = sizeof buf;
            st = idng_label_to_ascii(l, llen, buf, &n, mode, &le);
            if (st == IDNG_OK) {
                a = buf;
            } else {
                if (!(flags & IDNG_F_KEEP_GOING))
                    return idng_fail(err, st, off, llen, le.codepoint);
                if (first.status == IDNG_OK)
                    idng_fail(&first, st, off, llen, le.codepoint);
                n = llen; /* kept as it is */
            }
        }
        if (o + 1 + n + 1 > sizeof name)
            return idng_fail(err, IDNG_E_NAME_TOO_LONG, off, llen, IDNG_NO_CODEPOINT);
        name[o++] = (uint8_t)n;
        if (a == l && raw) {
            memcpy(name + o, a, n);
        } else {
            for (j = 0; j < n; j++)
                name[o + j] = ascii_lower((unsigned char)a[j]);
        }
        o += n;
    }
    name[o++] = 0;
    if (o > cap) {
        *outlen = o;
        return idng_fail(err, IDNG_E_NOSPACE, 0, len, IDNG_NO_CODEPOINT);
    }
    memcpy(out, name, o);
    *outlen = o;
    if (first.status != IDNG_OK)
        return idng_fail(err, first.status, first.label_off, first.label_len, first.codepoint);
    return ok(err);
}
