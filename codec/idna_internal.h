/**
 * \file
 * Internal: what the codec's own files share and the public header does
 * not show: small helpers; the DNS-name unit's inline steps (the "xn--"
 * test, one step of a wire or text walk), here so that the fast paths,
 * which take them once per label, compile them into their loops; the
 * Bidi Rule's per-character steps, run inside the U-label validator's one
 * pass; and the declarations that tie bidi.c, context.c, label.c, scan.c
 * and uts46.c together.
 */
#ifndef IDNG_IDNA_INTERNAL_H
#define IDNG_IDNA_INTERNAL_H

#include "idnguard.h"
#include "unicode.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define IDNG_NOINLINE __attribute__((noinline))
#define IDNG_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define IDNG_NOINLINE
#define IDNG_ALWAYS_INLINE inline
#endif

/* The SSE2 scans of scan.c, unless IDNG_NO_SIMD asks for their portable
 * twins. */
#if defined(__SSE2__) && !defined(IDNG_NO_SIMD)
#define IDNG_SSE2 1
#endif

/* Does s[0..n) hold an octet >= 0x80?  Eight octets at a time, the last
 * word overlapping the one before, nothing read outside s. */
static IDNG_ALWAYS_INLINE int idng_has_8bit(const char *s, size_t n)
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
        acc |= (unsigned char)s[off];
    return (acc & 0x80) != 0;
}

/*
 * The length of the UTF-8 sequence that begins with the octet >= 0x80 at
 * s (len octets left), or 0 if it is not valid: inline, for the walk over
 * a text name, and without decoding.  It accepts exactly what
 * idng_utf8_decode accepts, by the table of well-formed sequences of
 * RFC 3629 section 4: a lead C2-DF, E0-EF or F0-F4 and then 1, 2 or 3
 * continuation octets, the second octet narrowed after E0 (A0-BF: no
 * overlong form below U+0800), ED (80-9F: no surrogate), F0 (90-BF: none
 * below U+10000) and F4 (80-8F: none above U+10FFFF).
 */
static inline size_t idng_utf8_valid(const unsigned char *s, size_t len)
{
    unsigned c = s[0], lo = 0x80, hi = 0xBF;
    size_t n;

    if (c < 0xC2 || c > 0xF4)
        return 0;
    n = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (len < n)
        return 0;
    if (c == 0xE0)
        lo = 0xA0;
    else if (c == 0xED)
        hi = 0x9F;
    else if (c == 0xF0)
        lo = 0x90;
    else if (c == 0xF4)
        hi = 0x8F;
    if (s[1] < lo || s[1] > hi)
        return 0;
    if (n > 2 && (s[2] & 0xC0) != 0x80)
        return 0;
    if (n > 3 && (s[3] & 0xC0) != 0x80)
        return 0;
    return n;
}

/* idng_utf8_encode, inline: writes cp (a scalar value) as UTF-8 at out
 * and returns the number of octets, 1 to 4. */
static inline size_t idng_utf8_put(uint32_t cp, unsigned char *out)
{
    if (cp < 0x80) {
        out[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (unsigned char)(0xC0 | cp >> 6);
        out[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (unsigned char)(0xE0 | cp >> 12);
        out[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
        out[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (unsigned char)(0xF0 | cp >> 18);
    out[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
    out[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
    out[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Decodes the UTF-8 sequence at s, known to be valid (idng_utf8_valid
 * accepted it before): *cp gets the code point; returns its length. */
static inline size_t idng_utf8_decode_valid(const unsigned char *s, uint32_t *cp)
{
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    if (s[0] < 0xE0) {
        *cp = (uint32_t)(s[0] & 0x1F) << 6 | (s[1] & 0x3F);
        return 2;
    }
    if (s[0] < 0xF0) {
        *cp = (uint32_t)(s[0] & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 | (s[2] & 0x3F);
        return 3;
    }
    *cp = (uint32_t)(s[0] & 0x07) << 18 | (uint32_t)(s[1] & 0x3F) << 12
          | (uint32_t)(s[2] & 0x3F) << 6 | (s[3] & 0x3F);
    return 4;
}

/* Fills err (when not NULL) with a status and where it was found; returns
 * the status. */
static inline idng_status idng_fail(idng_error *err, idng_status st, size_t off, size_t len,
                                    uint32_t cp)
{
    if (err) {
        err->status = st;
        err->label_off = off;
        err->label_len = len;
        err->codepoint = cp;
    }
    return st;
}

static inline idng_status idng_ok(idng_error *err)
{
    return idng_fail(err, IDNG_OK, 0, 0, IDNG_NO_CODEPOINT);
}

/* ---- The ACE prefix ---- */

/* Do these four characters spell "xn--" (the letters in either case)?  The
 * one spelling of the test (RFC 5890 2.3.2.1), for octets and code points. */
static inline int idng_ace4(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3)
{
    return (c0 | 0x20) == 'x' && (c1 | 0x20) == 'n' && c2 == '-' && c3 == '-';
}

/* Does the label s[0..len) begin with "xn--"? */
static inline int idng_ace_prefix(const unsigned char *s, size_t len)
{
    return len >= 4 && idng_ace4(s[0], s[1], s[2], s[3]);
}

/* Does the code point label u[0..n) begin with "xn--"? */
static inline int idng_ace_prefix_cp(const uint32_t *u, size_t n)
{
    return n >= 4 && idng_ace4(u[0], u[1], u[2], u[3]);
}

/* ---- Wire names ---- */

/* Why the label whose length octet l is at it->pos cannot be taken. */
static inline idng_wire_fault idng_wire_fault_at(const idng_wire_iter *it, size_t l)
{
    if (l > IDNG_LABEL_MAX)
        return l >= 0xC0 ? IDNG_WIRE_POINTER : IDNG_WIRE_LABEL_TYPE;
    if (it->pos + 1 + l > it->len)
        return IDNG_WIRE_TRUNCATED;
    if (it->pos + 1 + l + 1 > IDNG_WIRE_MAX)
        return IDNG_WIRE_TOO_LONG;
    return IDNG_WIRE_TOO_MANY; /* defence: 255 octets hold 127 labels */
}

/* One step of a wire walk: idng_wire_next is this, out of line.  A walk
 * that has stopped stays where it stopped, so a further step finds the
 * same end or the same fault again. */
static inline int idng_wire_step(idng_wire_iter *it, const uint8_t **label, size_t *label_len)
{
    size_t pos = it->pos, l;

    if (pos >= it->len) {
        it->fault = IDNG_WIRE_NO_ROOT;
        return IDNG_WIRE_BAD;
    }
    l = it->wire[pos];
    if (l == 0)
        return IDNG_WIRE_END;
    if (l > IDNG_LABEL_MAX || pos + 1 + l > it->len || pos + 1 + l + 1 > IDNG_WIRE_MAX
        || it->labels == IDNG_LABELS_MAX) {
        it->fault = idng_wire_fault_at(it, l);
        return IDNG_WIRE_BAD;
    }
    *label = it->wire + pos + 1;
    *label_len = l;
    it->pos = pos + 1 + l;
    it->labels++;
    return IDNG_WIRE_LABEL;
}

/* Steps to the end of the name, or to its first fault; returns what the
 * last step found (IDNG_WIRE_END or IDNG_WIRE_BAD). */
static inline int idng_wire_skip(idng_wire_iter *it)
{
    const uint8_t *label;
    size_t len;
    int r;

    while ((r = idng_wire_step(it, &label, &len)) == IDNG_WIRE_LABEL)
        ;
    return r;
}

static inline void idng_wire_start(idng_wire_iter *it, const uint8_t *wire, size_t len)
{
    it->wire = wire;
    it->len = len;
    it->pos = 0;
    it->labels = 0;
    it->fault = IDNG_WIRE_OK;
}

/* ---- Text names ---- */

/* idng_full_stop, inline for the text walk, which asks at every octet. */
static inline size_t idng_full_stop_at(const unsigned char *u, size_t len)
{
    if (len == 0)
        return 0;
    if (u[0] < 0x80)
        return u[0] == '.';
    if (len >= 3
        && ((u[0] == 0xE3 && u[1] == 0x80 && u[2] == 0x82)     /* U+3002 */
            || (u[0] == 0xEF && u[1] == 0xBC && u[2] == 0x8E)  /* U+FF0E */
            || (u[0] == 0xEF && u[1] == 0xBD && u[2] == 0xA1))) /* U+FF61 */
        return 3;
    return 0;
}

/*
 * A walk over the labels of a text name, split at every full stop
 * (idng_full_stop), or with IDNG_TEXT_DOTS at U+002E alone (the DNS text
 * form, where other octets >= 0x80 belong to the label).  Every label is
 * returned, empty ones included: a name that ends with a full stop ends
 * with an empty label, and an empty text is one empty label.  With
 * IDNG_TEXT_UTF8 the walk also validates the UTF-8 between full stops, in
 * the same pass, and bad_at is the offset of the first octet that does
 * not begin a valid sequence (len when there is none).
 */
enum { IDNG_TEXT_STOPS = 0, IDNG_TEXT_DOTS = 1, IDNG_TEXT_UTF8 = 2 };

struct idng_text_iter {
    const unsigned char *s;
    size_t len, pos, bad_at;
    unsigned mode;
    int done;
};

static inline void idng_text_start(struct idng_text_iter *it, const char *s, size_t len,
                                   unsigned mode)
{
    it->s = (const unsigned char *)s;
    it->len = len;
    it->pos = 0;
    it->bad_at = len;
    it->mode = mode;
    it->done = 0;
}

/* The end of the label that begins at i, between full stops; *sep gets
 * the length of the full stop there (0 at the end of the text). */
static inline size_t idng_text_scan(struct idng_text_iter *it, size_t i, size_t *sep)
{
    size_t m;

    /* UTF-8 up to its first fault, one sequence at a time: a full stop is
     * U+002E or a valid sequence of 3 octets, so only those are compared. */
    if ((it->mode & IDNG_TEXT_UTF8) && it->bad_at == it->len) {
        const unsigned char *s = it->s;
        size_t len = it->len;
        while (i < len) {
            if (s[i] < 0x80) {
                if (s[i] == '.') {
                    *sep = 1;
                    return i;
                }
                i++;
            } else if ((m = idng_utf8_valid(s + i, len - i)) == 0) {
                it->bad_at = i; /* the loop below steps over it */
                break;
            } else if (m == 3 && idng_full_stop_at(s + i, 3)) {
                *sep = 3;
                return i;
            } else {
                i += m;
            }
        }
    }
    /* Other walks, and the rest of the text after a fault (the octet at
     * bad_at, invalid, is no full stop). */
    while (i < it->len && idng_full_stop_at(it->s + i, it->len - i) == 0) {
        if (it->s[i] < 0x80 || !(it->mode & IDNG_TEXT_UTF8) || it->bad_at < it->len)
            i++;
        else if ((m = idng_utf8_valid(it->s + i, it->len - i)) != 0)
            i += m;
        else
            it->bad_at = i++;
    }
    *sep = idng_full_stop_at(it->s + i, it->len - i);
    return i;
}

/* The next label, s[*off, *off + *len), and the length of the full stop
 * after it in *stop (0 for the last label); returns 0 after the last. */
static inline int idng_text_next(struct idng_text_iter *it, size_t *off, size_t *len,
                                 size_t *stop)
{
    size_t i = it->pos, sep = 0;

    if (it->done)
        return 0;
    if (it->mode & IDNG_TEXT_DOTS) {
        const void *dot = i < it->len ? memchr(it->s + i, '.', it->len - i) : NULL;
        i = dot ? (size_t)((const unsigned char *)dot - it->s) : it->len;
        sep = dot != NULL;
    } else {
        i = idng_text_scan(it, i, &sep);
    }
    *off = it->pos;
    *len = i - it->pos;
    *stop = sep;
    it->pos = i + sep;
    it->done = sep == 0;
    return 1;
}

/* ---- The Bidi Rule (bidi.c) ---- */

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

static inline void idng_bidi_start(struct bidi_run *r, unsigned first, uint32_t cp)
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

static inline void idng_bidi_step(struct bidi_run *r, unsigned cls, uint32_t cp)
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

/* Ends a run: out gets whether the label is RTL and the verdict (rules 3,
 * 4 and 6 need the whole label); last_cp is the label's last code point. */
void idng_bidi_finish(struct bidi_run *r, uint32_t last_cp, struct bidi *out);
/* Whether the label u[0..n) is RTL, and the bidi rule's verdict on it, in
 * a pass of its own. */
void idng_bidi_scan(const uint32_t *u, size_t n, struct bidi *out);

/* ---- Contextual rules (context.c) ---- */

/* RFC 5892 appendix A.1 and A.2 for the joiner u[i]: 1 if it may stand. */
int idng_contextj_ok(const uint32_t *u, size_t n, size_t i);
/* RFC 5892 appendix A.3-A.9 for the CONTEXTO code point u[i]. */
int idng_contexto_ok(const uint32_t *u, size_t n, size_t i);

/* ---- Labels (label.c) ---- */

/* The one validator of a U-label u[0..n) under mode and the UTS #46 flags
 * (IDNG_F_*; 0 for the module's checks): *bad gets the code point to
 * blame, bd the label's bidi verdict (see label.c). */
idng_status idng_ulabel_check(const uint32_t *u, size_t n, idng_mode mode, unsigned flags,
                              uint32_t *bad, struct bidi *bd);
/* idng_ulabel_check of a label already in NFC, without judging NFC again;
 * ws, unless NULL, the property word of each u[i] (idng_uprops). */
idng_status idng_ulabel_check_nfc(const uint32_t *u, const uint32_t *ws, size_t n, idng_mode mode,
                                  unsigned flags, uint32_t *bad, struct bidi *bd);
/* An xn-- label of plain ASCII: u (IDNG_LABEL_MAX code points) and *n get
 * its U-label; then as idng_ulabel_check. */
idng_status idng_ace_check(const char *label, size_t len, idng_mode mode, unsigned flags,
                           uint32_t *u, size_t *n, uint32_t *bad, struct bidi *bd);
/* The full paths of idng_name_check and idng_wire_check(_each). */
idng_status idng_name_check_full(const char *name, size_t len, idng_mode mode, idng_error *err);
idng_status idng_wire_check_full(const uint8_t *wire, size_t len, idng_mode mode,
                                 idng_error *err, idng_error *each, size_t cap, size_t *count,
                                 idng_label_fn *fn, void *ctx);

/* ---- UTS #39 (uts39.c) ---- */

/* The restriction level (section 5.2) and mixed numbers (5.3) of a label,
 * a code point at a time: idng_uts39_start, idng_uts39_step for each code
 * point (at most U+10FFFF; one past it makes the label unrestricted:
 * allowed = 0), idng_uts39_level.  all is the label's resolved script set,
 * no_latn the one of its code points whose set does not hold Latin (step
 * 5), both starting from every script; zero the zero of the first decimal
 * digit; last the script set, and last_w the word, of the code point
 * before that changed something. */
struct idng_uts39_acc {
    uint64_t all[IDNG_UT_SCX_WORDS], no_latn[IDNG_UT_SCX_WORDS];
    uint32_t zero, last, last_w;
    int ascii, allowed, seen, mixed;
};

static IDNG_ALWAYS_INLINE void idng_uts39_start(struct idng_uts39_acc *a)
{
    memset(a->all, 0xFF, sizeof a->all);
    memset(a->no_latn, 0xFF, sizeof a->no_latn);
    a->zero = 0;
    a->last = US_SCX_MASK + 1;
    a->last_w = 0xFFFFFFFFu;
    a->ascii = 1;
    a->allowed = 1;
    a->seen = 0;
    a->mixed = 0;
}

/* Does script set set hold script? Is it empty? */
static inline int idng_scx_test(const uint64_t *set, unsigned script)
{
    return (int)(set[script / 64] >> (script % 64) & 1);
}

static inline int idng_scx_empty(const uint64_t *set)
{
    unsigned k;

    for (k = 0; k < IDNG_UT_SCX_WORDS; k++)
        if (set[k] != 0)
            return 0;
    return 1;
}

static IDNG_ALWAYS_INLINE idng_restriction idng_uts39_level(const struct idng_uts39_acc *a)
{
    if (!a->allowed)
        return IDNG_RL_UNRESTRICTED;
    if (a->ascii)
        return IDNG_RL_ASCII; /* step 2 */
    if (!idng_scx_empty(a->all))
        return IDNG_RL_SINGLE_SCRIPT; /* steps 3, 4 */
    if (idng_scx_test(a->no_latn, SCX_HANB) || idng_scx_test(a->no_latn, SCX_JPAN)
        || idng_scx_test(a->no_latn, SCX_KORE))
        return IDNG_RL_HIGHLY; /* step 6 */
    if (!idng_scx_empty(a->no_latn) && !idng_scx_test(a->no_latn, SCX_CYRL)
        && !idng_scx_test(a->no_latn, SCX_GREK) && !idng_scx_test(a->no_latn, SCX_CHER))
        return IDNG_RL_MODERATELY; /* step 7 */
    return IDNG_RL_MINIMALLY;
}

/* What of a security word idng_uts39_step reads; a code point whose word
 * agrees with the one before on all of it (same script set, Allowed, not a
 * digit) changes nothing, which is most of them. */
#define IDNG_UTS39_SEEN                                                                            \
    (US_SCX_MASK << US_SCX_SHIFT | US_ALLOWED_MASK << US_ALLOWED_SHIFT                             \
     | US_DIGIT_MASK << US_DIGIT_SHIFT)

/* Code point c (at most U+10FFFF), whose security word is w. */
static IDNG_ALWAYS_INLINE void idng_uts39_step(struct idng_uts39_acc *a, uint32_t c, uint32_t w)
{
    const uint64_t *set;
    unsigned k;

    if ((w & IDNG_UTS39_SEEN) == a->last_w) {
        a->ascii &= c < 0x80;
        return;
    }
    if (US_DIGIT(w) != US_DIGIT_NONE) {
        /* Unicode keeps each set of ten decimal digits contiguous and in
         * order, so the zero of a digit is the digit less its value. */
        uint32_t z = c - US_DIGIT(w);
        a->mixed |= a->seen && z != a->zero;
        a->zero = z;
        a->seen = 1;
    }
    if (!US_ALLOWED(w)) {
        a->allowed = 0; /* step 1 */
        return;
    }
    a->ascii &= c < 0x80;
    if (US_DIGIT(w) == US_DIGIT_NONE)
        a->last_w = w & IDNG_UTS39_SEEN;
    /* The same set as the code point before changes nothing (a label is
     * mostly of one script). */
    if (US_SCX(w) == a->last)
        return;
    a->last = US_SCX(w);
    set = idng_ut_scx + (size_t)US_SCX(w) * IDNG_UT_SCX_WORDS;
    for (k = 0; k < IDNG_UT_SCX_WORDS; k++)
        a->all[k] &= set[k];
    if (!idng_scx_test(set, SCX_LATN))
        for (k = 0; k < IDNG_UT_SCX_WORDS; k++)
            a->no_latn[k] &= set[k];
}

/* ---- UTS #46 processing (uts46.c) ---- */

/* The full path of idng_to_ascii (to_unicode = 0) and idng_to_unicode. */
idng_status idng_uts46_process(const char *in, size_t inlen, char *out, size_t *outlen,
                               idng_mode mode, unsigned flags, idng_error *err, int to_unicode);

#endif /* IDNG_IDNA_INTERNAL_H */
