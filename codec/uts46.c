/**
 * \file
 * UTS #46 processing: ToASCII and ToUnicode of text names (the full path
 * of idng_to_ascii and idng_to_unicode, whose fast path is in scan.c), of
 * one label, and of wire names label by label.  Each label is mapped with
 * the UTS #46 table, normalized to NFC and judged by the one U-label
 * validator (label.c).
 *
 * Every label is capped (63 octets of A-label, 252 code points before
 * mapping, 512 after) and the input at 1024 octets before anything
 * quadratic runs.  Work buffers live on the stack with fixed bounds.
 */
#include "idna_internal.h"

/* Code points in the work buffer of to-ASCII / to-Unicode, all labels. */
#define WORK_MAX 4096
/* Code points of one label after mapping and NFC. */
#define MAPPED_LABEL_MAX 512
/* Labels of a text input of up to IDNG_INPUT_MAX octets, before the DNS
 * lengths are applied. */
#define TEXT_LABELS_MAX 256

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
        o[i] = (char)idng_ascii_lower((unsigned char)s[i]);
    k->len += n;
}

static void emit_utf8(struct sink *k, const uint32_t *u, size_t n)
{
    unsigned char buf[4];
    size_t i;

    /* Room for 4 octets a code point: no check per code point. */
    if (k->len <= k->cap && (k->cap - k->len) / 4 >= n) {
        unsigned char *o = (unsigned char *)k->out + k->len, *start = o;
        for (i = 0; i < n; i++)
            o += idng_utf8_put(u[i], o);
        k->len += (size_t)(o - start);
        return;
    }
    for (i = 0; i < n; i++)
        emit(k, buf, idng_utf8_put(u[i], buf));
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

/*
 * The longest full canonical decomposition in the tables (generated; Unicode
 * 15.0: 4, e.g. U+1F82; Hangul syllables: 3).  A label of n code points that
 * passes the NFC quick check is its own NFC, and idng_nfc would only have
 * refused it if its decomposition, at most n * NFC_DECOMP_MAX, did not fit.
 */
#define NFC_DECOMP_MAX IDNG_UT_DECOMP_MAX

/* Does any of u[0..n), whose property words are ws[0..n), have a
 * canonical decomposition? */
static int any_decomposes(const uint32_t *u, const uint32_t *ws, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (u[i] >= IDNG_UT_DECOMP_FROM && idng_decomposes(u[i], ws[i]))
            return 1;
    return 0;
}

/* The transitional mapping of the four deviation code points of UTS #46
 * (section 4, step 1 with Transitional_Processing): U+00DF "ss", U+03C2
 * U+03C3, U+200C and U+200D nothing.  The tables hold only their status. */
static int transitional_mapping(uint32_t cp, const uint32_t **seq)
{
    static const uint32_t ss[2] = {'s', 's'}, sigma[1] = {0x3C3};

    *seq = cp == 0xDF ? ss : sigma;
    return cp == 0xDF ? 2 : cp == 0x3C2 ? 1 : 0;
}

/* Maps a non-ASCII label with the UTS #46 table (transitionally when
 * asked; with no_std3, UseSTD3ASCIIRules=false lets disallowed_STD3_valid
 * through) and normalizes it to NFC.  ws[k] gets the property word of
 * u[k] as it is written (ws has room for MAPPED_LABEL_MAX + 1); *words says
 * whether they still hold for the result, which they do when nothing was
 * normalized. */
static IDNG_ALWAYS_INLINE idng_status map_label(const unsigned char *s, size_t len, uint32_t *u,
                                                uint32_t *ws, int *words, size_t *n, size_t cap,
                                                uint32_t *bad, int transitional, int no_std3)
{
    size_t pos = 0, count = 0, out = 0;
    idng_status st = IDNG_OK;
    unsigned last_ccc = 0, qc = QC_YES; /* the NFC quick check, step by step */

    *words = 0;
    if (cap > MAPPED_LABEL_MAX)
        cap = MAPPED_LABEL_MAX;
    while (pos < len) {
        uint32_t cp, w = 0;
        const uint32_t *seq;
        size_t j;
        int m = -1;
        if (s[pos] < 0x80) {
            cp = idng_ascii_lower(s[pos]);
            pos++;
            /* Its word, for ws only: the steps below read none below
             * U+0300, nor a status for ASCII (w = 0).  out <= cap here. */
            ws[out] = idng_uprops(cp);
        } else {
            pos += idng_utf8_decode_valid(s + pos, &cp); /* split_name validated it */
            w = idng_uprops(cp);
            ws[out] = w; /* rewritten below if it is mapped */
            /* Only mapped and ignored code points are in the mapping table.
             * Transitional processing maps U+1E9E (which the table maps to
             * U+00DF since UTS #46 15.1) to "ss", as it does U+00DF.  A
             * valid code point, the usual case, has none of this to do. */
            if (UP_U46(w) == U46_VALID && !transitional) {
                /* kept as it is */
            } else if (transitional && cp == 0x1E9E) {
                m = transitional_mapping(0xDF, &seq);
            } else if (UP_U46(w) == U46_MAPPED || UP_U46(w) == U46_IGNORED) {
                m = idng_u46_mapping(cp, &seq);
            } else if (transitional && UP_U46(w) == U46_DEVIATION) {
                m = transitional_mapping(cp, &seq);
            } else if (UP_U46(w) == U46_DISALLOWED && st == IDNG_OK && !(no_std3 && UP_STD3(w))) {
                /* The first disallowed code point, noted after the test
                 * of the label's length below, as it comes first. */
                if (count + 1 > IDNG_INPUT_LABEL_MAX)
                    return IDNG_E_INPUT_TOO_LONG;
                st = UP_I08(w) == I08_UNASSIGNED ? IDNG_E_UNASSIGNED : IDNG_E_DISALLOWED;
                *bad = cp;
            }
        }
        if (++count > IDNG_INPUT_LABEL_MAX)
            return IDNG_E_INPUT_TOO_LONG;
        if (m < 0) {
            if (out + 1 > cap)
                return IDNG_E_INPUT_TOO_LONG;
            qc |= idng_nfc_qc_step(cp, w, &last_ccc);
            u[out++] = cp;
            continue;
        }
        if (out + (size_t)m > cap)
            return IDNG_E_INPUT_TOO_LONG;
        for (j = 0; j < (size_t)m; j++) {
            uint32_t sw = idng_uprops(seq[j]);
            qc |= idng_nfc_qc_step(seq[j], sw, &last_ccc);
            ws[out + j] = sw;
        }
        memcpy(u + out, seq, (size_t)m * sizeof *u);
        out += (size_t)m;
    }
    /* Normalize only when the quick check does not say yes.  It ran as the
     * code points were written, on each with its own property word (none
     * is looked at below U+0300, where w = 0 for ASCII): the steps of
     * idng_nfc_quick_check over u[0..out), whose answer is Yes exactly when
     * every step said Yes, that is when the OR of the steps is QC_YES (0).
     *
     * A label whose decomposition could outgrow cap goes through idng_nfc,
     * Yes or not, which refuses it when the decomposition does not fit;
     * shorter ones cannot fail.  Composition alone normalizes when no step
     * said No (no combining mark follows one of a higher class) and no code
     * point decomposes: idng_nfc would find nothing to decompose and
     * nothing to reorder (its insertion sort moves a mark only past a
     * predecessor of a higher class), and return what compose() makes of
     * u.  Otherwise idng_nfc_short normalizes the pieces that need it. */
    _Static_assert(QC_YES == 0, "the steps' OR is QC_YES only if all are");
    if (out > cap / NFC_DECOMP_MAX) {
        if (idng_nfc(u, &out, cap) != 0)
            return IDNG_E_INPUT_TOO_LONG;
    } else if (qc != QC_YES) {
        if (!(qc & QC_NO) && !any_decomposes(u, ws, out))
            out = idng_nfc_compose(u, out);
        else
            idng_nfc_short(u, &out);
    } else {
        *words = 1; /* u as written */
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
    size_t vanished;   /* 1 + the last label that is not empty but mapped to
                          nothing, or 0 */
    size_t nlab, used; /* labels; code points of work in use */
    struct label_state labs[TEXT_LABELS_MAX];
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
    r->vanished = 0;
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
 * reported up to the next U+002E after the bad octet.  A text of ASCII
 * alone (every A-label name to-Unicode sees) is cut at U+002E by memchr
 * (IDNG_TEXT_DOTS): its octets are all valid UTF-8, so the UTF-8 walk would
 * find nothing bad, and U+002E is its only full stop (U+3002, U+FF0E and
 * U+FF61 are spelt with octets >= 0x80), so both walks give the same
 * labels. */
static idng_status split_name(struct run *r, idng_error *err)
{
    const unsigned char *s = (const unsigned char *)r->in;
    struct idng_text_iter it;
    size_t off, len, stop;

    idng_text_start(&it, r->in, r->inlen,
                    idng_has_8bit(r->in, r->inlen) ? IDNG_TEXT_UTF8 : IDNG_TEXT_DOTS);
    while (idng_text_next(&it, &off, &len, &stop)) {
        size_t end = it.bad_at;
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
        l->st = idng_ace_check(p, l->len, r->mode, r->flags, u, &l->n, &l->bad, bd);
    } else if (r->flags & IDNG_F_STRICT) {
        l->kind = K_UNICODE;
        l->judged = 1;
        l->ascii_u = 1;
        if (l->len > cap)
            return idng_fail(err, IDNG_E_INPUT_TOO_LONG, l->off, l->len, IDNG_NO_CODEPOINT);
        for (j = 0; j < l->len; j++)
            u[j] = idng_ascii_lower((unsigned char)p[j]);
        l->n = l->len;
        l->st = idng_ulabel_check(u, l->n, r->mode, r->flags, &l->bad, bd);
    } else {
        l->kind = K_PLAIN;
    }
    return IDNG_OK;
}

/* Step 2 for a label with octets >= 0x80: mapped, normalized, judged. */
static idng_status analyse_unicode(struct run *r, struct label_state *l, const char *p,
                                   uint32_t *u, size_t cap, struct bidi *bd, idng_error *err)
{
    uint32_t ws[MAPPED_LABEL_MAX + 1];
    size_t j;
    int ascii = 1, words;

    l->kind = K_UNICODE;
    l->judged = 1;
    /* Two copies of the mapping: the nontransitional one without a test
     * for the deviation code points. */
    if (((r->flags & IDNG_F_TRANSITIONAL) && !r->to_unicode) || (r->flags & IDNG_F_NO_STD3))
        l->st = map_label((const unsigned char *)p, l->len, u, ws, &words, &l->n, cap, &l->bad,
                          (r->flags & IDNG_F_TRANSITIONAL) && !r->to_unicode,
                          (r->flags & IDNG_F_NO_STD3) != 0);
    else
        l->st =
            map_label((const unsigned char *)p, l->len, u, ws, &words, &l->n, cap, &l->bad, 0, 0);
    if (l->st == IDNG_E_INPUT_TOO_LONG)
        return idng_fail(err, l->st, l->off, l->len, IDNG_NO_CODEPOINT);
    for (j = 0; j < l->n && ascii; j++)
        ascii = u[j] < 0x80;
    l->ascii_u = ascii;
    if (l->n == 0 && l->st == IDNG_OK) {
        r->vanished = (size_t)(l - r->labs) + 1;
        if (!(r->flags & IDNG_F_NO_DNS_LENGTH))
            l->st = IDNG_E_EMPTY_LABEL;
    } else if (ascii && idng_ace_prefix_cp(u, l->n)) {
        /* Mapped into an A-label (fullwidth input, say): judge it as one. */
        char a[IDNG_LABEL_MAX];
        idng_status st2;
        for (j = 0; j < l->n && j < sizeof a; j++)
            a[j] = (char)u[j];
        st2 = l->n > IDNG_LABEL_MAX
                  ? IDNG_E_LABEL_TOO_LONG
                  : idng_ace_check(a, l->n, r->mode, r->flags, u, &l->n, &l->bad, bd);
        if (l->st == IDNG_OK)
            l->st = st2;
        l->ascii_u = 0;
    } else if (l->st == IDNG_OK) {
        l->st = idng_ulabel_check_nfc(u, words ? ws : NULL, l->n, r->mode, r->flags, &l->bad, bd);
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
        l->st = r->flags & IDNG_F_NO_DNS_LENGTH ? IDNG_OK : IDNG_E_EMPTY_LABEL;
    else if (!idng_has_8bit(p, l->len))
        st = analyse_ascii(r, l, p, u, cap, &bd, err);
    else
        st = analyse_unicode(r, l, p, u, cap, &bd, err);
    if (st != IDNG_OK)
        return st;
    r->used += l->n;
    if (l->judged && r->mode != IDNG_MODE_PUNYCODE && l->n > 0) {
        if (!bd.valid)
            idng_bidi_scan(u, l->n, &bd);
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
    if (r->flags & IDNG_F_NO_BIDI)
        bidi_domain = 0;
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

/* The A-label of the U-label u[0..n), if it fits a[0..cap). */
static idng_status put_alabel(const uint32_t *u, size_t n, char *a, size_t cap, struct sink *k)
{
    size_t alen = cap - 4;

    if (idng_punycode_encode(u, n, NULL, a + 4, &alen) != IDNG_OK)
        return IDNG_E_LABEL_TOO_LONG;
    memcpy(a, "xn--", 4);
    emit(k, a, alen + 4);
    return IDNG_OK;
}

/* With IDNG_F_NO_DNS_LENGTH, an A-label of any length a mapped label can
 * give: its buffer out of the default path's stack frame. */
static IDNG_NOINLINE idng_status put_long_alabel(const uint32_t *u, size_t n, struct sink *k)
{
    char a[4 + 8 * MAPPED_LABEL_MAX];

    return put_alabel(u, n, a, sizeof a, k);
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
    } else if (r->flags & IDNG_F_NO_DNS_LENGTH) {
        return put_long_alabel(r->work + l->u_off, l->n, k);
    } else {
        char a[IDNG_LABEL_MAX];
        return put_alabel(r->work + l->u_off, l->n, a, sizeof a, k);
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
            || (!r->to_unicode && k.len - before - (i > 0) > IDNG_LABEL_MAX
                && !(r->flags & IDNG_F_NO_DNS_LENGTH))) {
            *outlen = 0;
            return idng_fail(err, IDNG_E_LABEL_TOO_LONG, l->off, l->len, IDNG_NO_CODEPOINT);
        }
    }
    dns_len = k.len;
    if (r->root)
        emit_byte(&k, '.');
    if (!r->to_unicode && !(r->flags & IDNG_F_NO_DNS_LENGTH)
        && (dns_len > IDNG_NAME_MAX || (r->nlab == 0 && !r->root))) {
        *outlen = 0;
        return idng_fail(err, r->nlab == 0 ? IDNG_E_EMPTY_LABEL : IDNG_E_NAME_TOO_LONG, 0,
                         r->inlen, IDNG_NO_CODEPOINT);
    }
    if (finish(&k, outlen) != IDNG_OK)
        return idng_fail(err, IDNG_E_NOSPACE, 0, r->inlen, IDNG_NO_CODEPOINT);
    if (first < r->nlab)
        return idng_fail(err, r->labs[first].st, r->labs[first].off, r->labs[first].len,
                         r->labs[first].bad);
    return idng_ok(err);
}

/* Steps 2-4 on the labels of r. */
static idng_status convert(struct run *r, char *out, size_t *outlen, idng_error *err)
{
    size_t i, first;
    idng_status st;

    for (i = 0; i < r->nlab; i++)
        if ((st = analyse_label(r, &r->labs[i], err)) != IDNG_OK)
            return st;
    /* UTS #46 maps the whole name before it splits it into labels: a last
     * label that maps to nothing (example.com. and U+00AD) leaves the
     * name ending with a full stop, the root. */
    if (r->vanished == r->nlab && r->nlab > 1 && !r->root && r->labs[r->nlab - 2].len > 0) {
        r->root = 1;
        r->nlab--;
    }
    first = apply_bidi(r);
    if (first < r->nlab && !(r->to_unicode && (r->flags & IDNG_F_KEEP_GOING))) {
        const struct label_state *l = &r->labs[first];
        *outlen = 0;
        return idng_fail(err, l->st, l->off, l->len, l->bad);
    }
    return emit_name(r, first, out, outlen, err);
}

/* What a conversion refuses before it looks at the text. */
static idng_status check_input(idng_mode mode, size_t inlen, idng_error *err)
{
    if ((unsigned)mode > IDNG_MODE_MAX)
        return idng_fail(err, IDNG_E_INVAL, 0, 0, IDNG_NO_CODEPOINT);
    if (inlen > IDNG_INPUT_MAX)
        return idng_fail(err, IDNG_E_INPUT_TOO_LONG, 0, inlen, IDNG_NO_CODEPOINT);
    return IDNG_OK;
}

IDNG_NOINLINE idng_status idng_uts46_process(const char *in, size_t inlen, char *out,
                                             size_t *outlen, idng_mode mode, unsigned flags,
                                             idng_error *err, int to_unicode)
{
    struct run r;
    idng_status st;

    if ((st = check_input(mode, inlen, err)) != IDNG_OK)
        return st;
    run_start(&r, in, inlen, mode, flags, to_unicode);
    if ((st = split_name(&r, err)) != IDNG_OK)
        return st;
    return convert(&r, out, outlen, err);
}

idng_status idng_label_to_ascii(const char *label, size_t len, char *out, size_t *outlen,
                                idng_mode mode, idng_error *err)
{
    const unsigned char *s = (const unsigned char *)label;
    char buf[IDNG_LABEL_MAX + 1];
    size_t i, n = sizeof buf, off, l, stop;
    struct idng_text_iter it;
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
    /* The label is converted as idng_uts46_process converts each label of
     * a name, with no name around it to split. */
    if ((st = check_input(mode, len, err)) != IDNG_OK)
        return st;
    idng_text_start(&it, label, len, IDNG_TEXT_UTF8);
    idng_text_next(&it, &off, &l, &stop); /* the whole label: it holds no full stop */
    if (it.bad_at < len)
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
    return idng_ok(err);
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
    if ((unsigned)mode > IDNG_MODE_MAX)
        return idng_fail(err, IDNG_E_INVAL, 0, 0, IDNG_NO_CODEPOINT);
    idng_wire_start(&it, wire, len);
    while (idng_wire_step(&it, &label, &llen) == IDNG_WIRE_LABEL) {
        const char *l = (const char *)label, *a = l;
        size_t off = (size_t)(label - wire), n = llen, j;
        char buf[IDNG_LABEL_MAX];
        int raw = idng_has_8bit(l, llen);

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
                name[o + j] = idng_ascii_lower((unsigned char)a[j]);
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
    return idng_ok(err);
}
