/**
 * \file
 * IDNA: validation of xn-- labels under three modes, whole-name checks for
 * text and wire names, and UTS #46 ToASCII / ToUnicode.
 *
 * Every decode works on a label already capped at 63 octets (and a name at
 * 253), so no input can make the quadratic parts of Punycode or the context
 * rules expensive.  Work buffers live on the stack with fixed bounds.
 */
#include "idnguard.h"
#include "unicode.h"

#include <string.h>

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

int idng_is_ace(const char *label, size_t len)
{
    return len >= 4 && ascii_lower((unsigned char)label[0]) == 'x'
           && ascii_lower((unsigned char)label[1]) == 'n' && label[2] == '-' && label[3] == '-';
}

static int has_8bit(const char *s, size_t len)
{
    size_t i;
    for (i = 0; i < len; i++)
        if ((unsigned char)s[i] >= 0x80)
            return 1;
    return 0;
}

static idng_status fail(idng_error *err, idng_status st, size_t off, size_t len, uint32_t cp)
{
    if (err) {
        err->status = st;
        err->label_off = off;
        err->label_len = len;
        err->codepoint = cp;
    }
    return st;
}

static idng_status ok(idng_error *err)
{
    return fail(err, IDNG_OK, 0, 0, IDNG_NO_CODEPOINT);
}

static unsigned bidi_of(uint32_t cp)
{
    return UP_BIDI(idng_uprops(cp));
}

/* An RTL label holds an R, AL or AN character (RFC 5893 section 1.4). */
static int is_rtl_label(const uint32_t *u, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        unsigned b = bidi_of(u[i]);
        if (b == BC_R || b == BC_AL || b == BC_AN)
            return 1;
    }
    return 0;
}

/* The Bidi Rule, RFC 5893 section 2, for one label of a Bidi domain name. */
static idng_status bidi_rule(const uint32_t *u, size_t n, uint32_t *bad)
{
    unsigned first, b, last = BC_NSM;
    int rtl, en = 0, an = 0;
    size_t i;

    if (n == 0)
        return IDNG_OK;
    first = bidi_of(u[0]);
    if (first != BC_L && first != BC_R && first != BC_AL) {
        *bad = u[0];
        return IDNG_E_BIDI_1;
    }
    rtl = first != BC_L;
    for (i = 0; i < n; i++) {
        b = bidi_of(u[i]);
        switch (b) {
        case BC_EN: case BC_ES: case BC_CS: case BC_ET: case BC_ON: case BC_BN: case BC_NSM:
            break;
        case BC_R: case BC_AL: case BC_AN:
            if (rtl)
                break;
            *bad = u[i];
            return IDNG_E_BIDI_5;
        case BC_L:
            if (!rtl)
                break;
            /* fall through */
        default:
            *bad = u[i];
            return rtl ? IDNG_E_BIDI_2 : IDNG_E_BIDI_5;
        }
        en |= b == BC_EN;
        an |= b == BC_AN;
        if (b != BC_NSM)
            last = b;
    }
    if (rtl) {
        if (last != BC_R && last != BC_AL && last != BC_EN && last != BC_AN) {
            *bad = u[n - 1];
            return IDNG_E_BIDI_3;
        }
        if (en && an) {
            *bad = IDNG_NO_CODEPOINT;
            return IDNG_E_BIDI_4;
        }
    } else if (last != BC_L && last != BC_EN) {
        *bad = u[n - 1];
        return IDNG_E_BIDI_6;
    }
    return IDNG_OK;
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

/*
 * Everything but the bidi rule for a U-label: NFC, hyphens, leading mark,
 * and each code point's status under mode (IDNA2008 or UTS #46).
 */
static idng_status check_ulabel(const uint32_t *u, size_t n, idng_mode mode, uint32_t *bad)
{
    size_t i;

    *bad = IDNG_NO_CODEPOINT;
    if (mode == IDNG_MODE_PUNYCODE || n == 0)
        return IDNG_OK;
    if (!idng_is_nfc(u, n))
        return IDNG_E_NOT_NFC;
    if (n >= 4 && u[2] == '-' && u[3] == '-')
        return IDNG_E_HYPHEN_34;
    if (u[0] == '-' || u[n - 1] == '-')
        return IDNG_E_HYPHEN_EDGE;
    if (UP_MARK(idng_uprops(u[0]))) {
        *bad = u[0];
        return IDNG_E_LEADING_MARK;
    }
    for (i = 0; i < n; i++) {
        uint32_t w = idng_uprops(u[i]);
        idng_status st = IDNG_OK;
        if (mode == IDNG_MODE_IDNA2008) {
            switch (UP_I08(w)) {
            case I08_PVALID:
                break;
            case I08_CONTEXTJ:
                st = contextj_ok(u, n, i) ? IDNG_OK : IDNG_E_CONTEXTJ;
                break;
            case I08_CONTEXTO:
                st = contexto_ok(u, n, i) ? IDNG_OK : IDNG_E_CONTEXTO;
                break;
            case I08_UNASSIGNED:
                st = IDNG_E_UNASSIGNED;
                break;
            default:
                st = IDNG_E_DISALLOWED;
            }
        } else {
            switch (UP_U46(w)) {
            case U46_VALID:
            case U46_DEVIATION:
                if (u[i] == '.') /* UTS #46 4.1 criterion 4 */
                    st = IDNG_E_DISALLOWED;
                else if (u[i] == 0x200C || u[i] == 0x200D) /* CheckJoiners */
                    st = contextj_ok(u, n, i) ? IDNG_OK : IDNG_E_CONTEXTJ;
                break;
            case U46_MAPPED:
            case U46_IGNORED:
                st = IDNG_E_MAPPED;
                break;
            default:
                st = UP_I08(w) == I08_UNASSIGNED ? IDNG_E_UNASSIGNED : IDNG_E_DISALLOWED;
            }
        }
        if (st != IDNG_OK) {
            *bad = u[i];
            return st;
        }
    }
    return IDNG_OK;
}

/*
 * Validates an xn-- label of plain ASCII (any case) under mode, all but the
 * bidi rule; u (capacity IDNG_LABEL_MAX) receives the U-label.
 */
static idng_status check_ace(const char *label, size_t len, idng_mode mode, uint32_t *u,
                             size_t *n, uint32_t *bad)
{
    char low[IDNG_LABEL_MAX], re[IDNG_LABEL_MAX];
    size_t i, relen = sizeof re;
    idng_status st;
    int ascii = 1;

    *bad = IDNG_NO_CODEPOINT;
    *n = 0;
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
    if (*n >= 4 && u[0] == 'x' && u[1] == 'n' && u[2] == '-' && u[3] == '-')
        return IDNG_E_XN_PREFIX;
    if (idng_punycode_encode(u, *n, NULL, re, &relen) != IDNG_OK || relen != len - 4
        || memcmp(re, low + 4, relen) != 0)
        return IDNG_E_ROUNDTRIP;
    return check_ulabel(u, *n, mode, bad);
}

struct span {
    const char *s;
    size_t len, off;
};

/*
 * The module's classifier over a list of labels: plain ASCII labels that
 * are not xn-- labels pass unjudged, raw 8-bit labels fail, xn-- labels are
 * validated, and in a Bidi domain name each xn-- label obeys the bidi rule.
 */
static idng_status check_labels(const struct span *labs, size_t nlab, idng_mode mode,
                                idng_error *err)
{
    uint32_t u[IDNG_LABEL_MAX], bad, bidi_bad = IDNG_NO_CODEPOINT;
    size_t i, n, bidi_at = 0;
    idng_status st, bidi_st = IDNG_OK;
    int bidi_domain = 0;

    if ((unsigned)mode > IDNG_MODE_UTS46)
        return fail(err, IDNG_E_INVAL, 0, 0, IDNG_NO_CODEPOINT);
    for (i = 0; i < nlab; i++) {
        const struct span *l = &labs[i];
        if (l->len > IDNG_LABEL_MAX)
            return fail(err, IDNG_E_LABEL_TOO_LONG, l->off, l->len, IDNG_NO_CODEPOINT);
        if (has_8bit(l->s, l->len))
            return fail(err, IDNG_E_RAW_8BIT, l->off, l->len, IDNG_NO_CODEPOINT);
        if (!idng_is_ace(l->s, l->len))
            continue;
        st = check_ace(l->s, l->len, mode, u, &n, &bad);
        if (st != IDNG_OK)
            return fail(err, st, l->off, l->len, bad);
        if (mode == IDNG_MODE_PUNYCODE)
            continue;
        bidi_domain |= is_rtl_label(u, n);
        if (bidi_st == IDNG_OK && (bidi_st = bidi_rule(u, n, &bidi_bad)) != IDNG_OK)
            bidi_at = i;
    }
    if (bidi_domain && bidi_st != IDNG_OK)
        return fail(err, bidi_st, labs[bidi_at].off, labs[bidi_at].len, bidi_bad);
    return ok(err);
}

idng_status idng_label_check(const char *label, size_t len, idng_mode mode, idng_error *err)
{
    struct span l;

    l.s = label;
    l.len = len;
    l.off = 0;
    if (len == 0)
        return fail(err, IDNG_E_EMPTY_LABEL, 0, 0, IDNG_NO_CODEPOINT);
    return check_labels(&l, 1, mode, err);
}

/*
 * Splits a text name at '.'; a single trailing dot (the root) is allowed,
 * other empty labels are errors.  "." alone is the root name.
 */
static idng_status split_text(const char *name, size_t len, struct span *labs, size_t *nlab,
                              idng_error *err)
{
    size_t start = 0, i, n = 0;

    if (len > IDNG_NAME_MAX + 1 || (len == IDNG_NAME_MAX + 1 && name[len - 1] != '.'))
        return fail(err, IDNG_E_NAME_TOO_LONG, 0, len, IDNG_NO_CODEPOINT);
    if (len == 1 && name[0] == '.') {
        *nlab = 0;
        return IDNG_OK;
    }
    for (i = 0; i <= len; i++) {
        if (i < len && name[i] != '.')
            continue;
        if (i == start && !(i == len && n > 0))
            return fail(err, IDNG_E_EMPTY_LABEL, start, 0, IDNG_NO_CODEPOINT);
        if (i > start) {
            labs[n].s = name + start;
            labs[n].len = i - start;
            labs[n].off = start;
            n++;
        }
        start = i + 1;
    }
    *nlab = n;
    return IDNG_OK;
}

idng_status idng_name_check(const char *name, size_t len, idng_mode mode, idng_error *err)
{
    struct span labs[LABELS_MAX];
    size_t nlab;
    idng_status st = split_text(name, len, labs, &nlab, err);

    return st != IDNG_OK ? st : check_labels(labs, nlab, mode, err);
}

idng_status idng_wire_check(const uint8_t *wire, size_t len, idng_mode mode, idng_error *err)
{
    struct span labs[LABELS_MAX];
    size_t pos = 0, nlab = 0;

    for (;;) {
        size_t l;
        if (pos >= len)
            return fail(err, IDNG_E_INVAL, pos, 0, IDNG_NO_CODEPOINT);
        l = wire[pos];
        if (l == 0)
            break;
        if (l > IDNG_LABEL_MAX) /* compression pointer or extended label type */
            return fail(err, IDNG_E_INVAL, pos, 0, IDNG_NO_CODEPOINT);
        if (pos + 1 + l > len)
            return fail(err, IDNG_E_INVAL, pos, 0, IDNG_NO_CODEPOINT);
        if (pos + 1 + l + 1 > 255)
            return fail(err, IDNG_E_NAME_TOO_LONG, 0, pos + 1 + l, IDNG_NO_CODEPOINT);
        labs[nlab].s = (const char *)wire + pos + 1;
        labs[nlab].len = l;
        labs[nlab].off = pos + 1;
        nlab++;
        pos += 1 + l;
    }
    return check_labels(labs, nlab, mode, err);
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

static void emit_lower(struct sink *k, const char *s, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        char c = (char)ascii_lower((unsigned char)s[i]);
        emit(k, &c, 1);
    }
}

static void emit_utf8(struct sink *k, const uint32_t *u, size_t n)
{
    unsigned char buf[4];
    size_t i;
    for (i = 0; i < n; i++)
        emit(k, buf, idng_utf8_encode(u[i], buf));
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

/* Length of a label separator at s (0 if none): '.', U+3002, U+FF0E, U+FF61. */
static size_t separator(const unsigned char *s, size_t len)
{
    if (s[0] == '.')
        return 1;
    if (len >= 3 && ((s[0] == 0xE3 && s[1] == 0x80 && s[2] == 0x82)
                     || (s[0] == 0xEF && s[1] == 0xBC && s[2] == 0x8E)
                     || (s[0] == 0xEF && s[1] == 0xBD && s[2] == 0xA1)))
        return 3;
    return 0;
}

/* Maps a non-ASCII label with the UTS #46 table and normalizes it to NFC. */
static idng_status map_label(const unsigned char *s, size_t len, uint32_t *u, size_t *n,
                             size_t cap, uint32_t *bad)
{
    size_t pos = 0, count = 0, out = 0;
    idng_status st = IDNG_OK;

    if (cap > MAPPED_LABEL_MAX)
        cap = MAPPED_LABEL_MAX;
    while (pos < len) {
        uint32_t cp;
        const uint32_t *seq;
        int m;
        pos += idng_utf8_decode(s + pos, len - pos, &cp); /* validated by the caller */
        if (++count > IDNG_INPUT_LABEL_MAX)
            return IDNG_E_INPUT_TOO_LONG;
        if (cp < 0x80) {
            m = -1;
            cp = ascii_lower((unsigned char)cp);
        } else {
            m = idng_u46_mapping(cp, &seq);
        }
        if (m < 0) {
            uint32_t w = cp < 0x80 ? 0 : idng_uprops(cp);
            if (cp >= 0x80 && UP_U46(w) == U46_DISALLOWED && st == IDNG_OK) {
                st = UP_I08(w) == I08_UNASSIGNED ? IDNG_E_UNASSIGNED : IDNG_E_DISALLOWED;
                *bad = cp;
            }
            seq = &cp;
            m = 1;
        }
        if (out + (size_t)m > cap)
            return IDNG_E_INPUT_TOO_LONG;
        memcpy(u + out, seq, (size_t)m * sizeof *u);
        out += (size_t)m;
    }
    if (idng_nfc(u, &out, cap) != 0)
        return IDNG_E_INPUT_TOO_LONG;
    *n = out;
    return st;
}

/* Shared driver of to-ASCII (to_unicode = 0) and to-Unicode. */
static idng_status process(const char *in, size_t inlen, char *out, size_t *outlen,
                           idng_mode mode, unsigned flags, idng_error *err, int to_unicode)
{
    const unsigned char *s = (const unsigned char *)in;
    uint32_t work[WORK_MAX];
    struct label_state labs[LABELS_MAX * 2];
    struct sink k;
    size_t nlab = 0, used = 0, pos = 0, start = 0, i, dns_len = 0;
    int strict = (flags & IDNG_F_STRICT) != 0, bidi_domain = 0, root = 0;
    size_t first_err = (size_t)-1;

    k.out = out;
    k.cap = *outlen;
    k.len = 0;
    if ((unsigned)mode > IDNG_MODE_UTS46)
        return fail(err, IDNG_E_INVAL, 0, 0, IDNG_NO_CODEPOINT);
    if (inlen > IDNG_INPUT_MAX)
        return fail(err, IDNG_E_INPUT_TOO_LONG, 0, inlen, IDNG_NO_CODEPOINT);

    /* Split into labels, validating UTF-8 on the way. */
    for (;;) {
        size_t sep = pos < inlen ? separator(s + pos, inlen - pos) : 0;
        if (pos == inlen || sep) {
            if (nlab == sizeof labs / sizeof labs[0])
                return fail(err, IDNG_E_INPUT_TOO_LONG, start, inlen - start, IDNG_NO_CODEPOINT);
            memset(&labs[nlab], 0, sizeof labs[nlab]);
            labs[nlab].off = start;
            labs[nlab].len = pos - start;
            nlab++;
            if (pos == inlen)
                break;
            pos += sep;
            start = pos;
        } else {
            uint32_t cp;
            size_t m = idng_utf8_decode(s + pos, inlen - pos, &cp);
            if (m == 0) {
                size_t end = pos;
                while (end < inlen && s[end] != '.')
                    end++;
                return fail(err, IDNG_E_BAD_UTF8, start, end - start, IDNG_NO_CODEPOINT);
            }
            pos += m;
        }
    }
    /* A trailing empty label is the root (UTS #46 VerifyDnsLength excludes
     * it too).  "." alone is the root name in DNS, but an empty label to
     * strict UTS #46 processing. */
    if (nlab > 1 && labs[nlab - 1].len == 0) {
        root = 1;
        nlab--;
        if (nlab == 1 && labs[0].len == 0 && inlen == 1 && !strict)
            nlab = 0;
    }

    for (i = 0; i < nlab; i++) {
        struct label_state *l = &labs[i];
        const char *p = in + l->off;
        uint32_t *u = work + used;
        size_t cap = WORK_MAX - used;

        l->st = IDNG_OK;
        l->bad = IDNG_NO_CODEPOINT;
        l->u_off = used;
        if (l->len == 0) {
            l->st = IDNG_E_EMPTY_LABEL;
        } else if (!has_8bit(p, l->len)) {
            if (idng_is_ace(p, l->len)) {
                l->kind = K_ACE;
                l->judged = 1;
                if (cap < IDNG_LABEL_MAX)
                    return fail(err, IDNG_E_INPUT_TOO_LONG, l->off, l->len, IDNG_NO_CODEPOINT);
                l->st = check_ace(p, l->len, mode, u, &l->n, &l->bad);
            } else if (strict) {
                size_t j;
                l->kind = K_UNICODE;
                l->judged = 1;
                l->ascii_u = 1;
                if (l->len > cap)
                    return fail(err, IDNG_E_INPUT_TOO_LONG, l->off, l->len, IDNG_NO_CODEPOINT);
                for (j = 0; j < l->len; j++)
                    u[j] = ascii_lower((unsigned char)p[j]);
                l->n = l->len;
                l->st = check_ulabel(u, l->n, mode, &l->bad);
            } else {
                l->kind = K_PLAIN;
            }
        } else {
            size_t j;
            int ascii = 1;
            l->kind = K_UNICODE;
            l->judged = 1;
            l->st = map_label((const unsigned char *)p, l->len, u, &l->n, cap, &l->bad);
            if (l->st == IDNG_E_INPUT_TOO_LONG)
                return fail(err, l->st, l->off, l->len, IDNG_NO_CODEPOINT);
            for (j = 0; j < l->n && ascii; j++)
                ascii = u[j] < 0x80;
            l->ascii_u = ascii;
            if (l->n == 0 && l->st == IDNG_OK) {
                l->st = IDNG_E_EMPTY_LABEL;
            } else if (ascii && l->n >= 4 && u[0] == 'x' && u[1] == 'n' && u[2] == '-'
                       && u[3] == '-') {
                /* Mapped into an A-label (fullwidth input, say): judge it as one. */
                char a[IDNG_LABEL_MAX];
                idng_status st2;
                for (j = 0; j < l->n && j < sizeof a; j++)
                    a[j] = (char)u[j];
                st2 = l->n > IDNG_LABEL_MAX
                          ? IDNG_E_LABEL_TOO_LONG
                          : check_ace(a, l->n, mode, u, &l->n, &l->bad);
                if (l->st == IDNG_OK)
                    l->st = st2;
                l->ascii_u = 0;
            } else if (l->st == IDNG_OK) {
                l->st = check_ulabel(u, l->n, mode, &l->bad);
            }
        }
        used += l->n;
        if (l->judged && mode != IDNG_MODE_PUNYCODE && l->n > 0) {
            l->rtl = is_rtl_label(u, l->n);
            bidi_domain |= l->rtl;
            l->bidi = bidi_rule(u, l->n, &l->bidi_bad);
        }
    }
    for (i = 0; i < nlab; i++) {
        struct label_state *l = &labs[i];
        if (l->st == IDNG_OK && bidi_domain && l->bidi != IDNG_OK) {
            l->st = l->bidi;
            l->bad = l->bidi_bad;
        }
        if (l->st != IDNG_OK && first_err == (size_t)-1)
            first_err = i;
    }
    if (first_err != (size_t)-1 && !(to_unicode && (flags & IDNG_F_KEEP_GOING))) {
        struct label_state *l = &labs[first_err];
        *outlen = 0;
        return fail(err, l->st, l->off, l->len, l->bad);
    }

    for (i = 0; i < nlab; i++) {
        struct label_state *l = &labs[i];
        const char *p = in + l->off;
        size_t before = k.len;
        if (i > 0)
            emit(&k, ".", 1);
        if (l->st != IDNG_OK) {
            emit(&k, p, l->len); /* to-Unicode with IDNG_F_KEEP_GOING */
        } else if (l->kind == K_PLAIN) {
            emit_lower(&k, p, l->len);
        } else if (l->kind == K_ACE && !to_unicode) {
            emit_lower(&k, p, l->len);
        } else if (to_unicode || l->ascii_u) {
            emit_utf8(&k, work + l->u_off, l->n);
        } else {
            char a[IDNG_LABEL_MAX];
            size_t alen = sizeof a - 4;
            if (idng_punycode_encode(work + l->u_off, l->n, NULL, a + 4, &alen) != IDNG_OK) {
                *outlen = 0;
                return fail(err, IDNG_E_LABEL_TOO_LONG, l->off, l->len, IDNG_NO_CODEPOINT);
            }
            memcpy(a, "xn--", 4);
            emit(&k, a, alen + 4);
        }
        if (!to_unicode) {
            size_t llen = k.len - before - (i > 0);
            if (llen > IDNG_LABEL_MAX) {
                *outlen = 0;
                return fail(err, IDNG_E_LABEL_TOO_LONG, l->off, l->len, IDNG_NO_CODEPOINT);
            }
        }
    }
    dns_len = k.len;
    if (root)
        emit(&k, ".", 1);
    if (!to_unicode && (dns_len > IDNG_NAME_MAX || (nlab == 0 && !root))) {
        *outlen = 0;
        return fail(err, nlab == 0 ? IDNG_E_EMPTY_LABEL : IDNG_E_NAME_TOO_LONG, 0, inlen,
                    IDNG_NO_CODEPOINT);
    }
    if (finish(&k, outlen) != IDNG_OK)
        return fail(err, IDNG_E_NOSPACE, 0, inlen, IDNG_NO_CODEPOINT);
    if (first_err != (size_t)-1) {
        struct label_state *l = &labs[first_err];
        return fail(err, l->st, l->off, l->len, l->bad);
    }
    return ok(err);
}

idng_status idng_to_ascii(const char *in, size_t inlen, char *out, size_t *outlen,
                          idng_mode mode, unsigned flags, idng_error *err)
{
    return process(in, inlen, out, outlen, mode, flags, err, 0);
}

idng_status idng_to_unicode(const char *in, size_t inlen, char *out, size_t *outlen,
                            idng_mode mode, unsigned flags, idng_error *err)
{
    return process(in, inlen, out, outlen, mode, flags, err, 1);
}
