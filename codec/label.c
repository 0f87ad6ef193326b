/**
 * \file
 * Label validation: the one validator of a U-label (idng_ulabel_check, with the
 * UTS #46 and IDNA2008 status of each code point), the checks only an
 * A-label can fail, and the module's classifier over the labels of a text
 * or wire name (idng_label_check; the full paths of idng_name_check,
 * idng_wire_check and idng_wire_check_each, whose fast paths are in
 * scan.c).
 *
 * Every decode works on a label already capped at 63 octets (and a name at
 * 253), so no input can make the quadratic parts of Punycode or the context
 * rules expensive.  Work buffers live on the stack with fixed bounds.
 */
#include "idna_internal.h"

/* Labels in a name: 253 octets allow at most 127. */
#define LABELS_MAX 128

/* Status of u[i], whose property word is w, under mode (not punycode)
 * and the UTS #46 flags (IDNG_F_*); CONTEXTO rules of uts46 mode are
 * applied by the caller. */
static IDNG_ALWAYS_INLINE idng_status cp_status(const uint32_t *u, size_t n, size_t i, uint32_t w,
                                                 idng_mode mode, unsigned flags)
{
    if (mode != IDNG_MODE_UTS46) {
        switch (UP_I08(w)) {
        case I08_PVALID:
            return IDNG_OK;
        case I08_CONTEXTJ:
            return idng_contextj_ok(u, n, i) ? IDNG_OK : IDNG_E_CONTEXTJ;
        case I08_CONTEXTO:
            /* RFC 5891 5.4: a lookup needs only a rule to exist. */
            if (mode == IDNG_MODE_IDNA2008_LOOKUP && !(flags & IDNG_F_CHECK_CONTEXTO))
                return IDNG_OK;
            return idng_contexto_ok(u, n, i) ? IDNG_OK : IDNG_E_CONTEXTO;
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
            return idng_contextj_ok(u, n, i) || (flags & IDNG_F_NO_JOINERS) ? IDNG_OK
                                                                          : IDNG_E_CONTEXTJ;
        return IDNG_OK;
    case U46_MAPPED:
    case U46_IGNORED:
        return IDNG_E_MAPPED;
    default:
        /* UseSTD3ASCIIRules=false: UTS #46's disallowed_STD3_valid (the
         * ASCII code points but letters, digits, '-' and '.', and those
         * such as U+2260 that decompose into one of them) are valid. */
        if ((flags & IDNG_F_NO_STD3) && UP_STD3(w))
            return IDNG_OK;
        return UP_I08(w) == I08_UNASSIGNED ? IDNG_E_UNASSIGNED : IDNG_E_DISALLOWED;
    }
}

/* IDNG_F_CHECK_CONTEXTO in uts46 mode: the first CONTEXTO code point of
 * u[0..n) whose rule fails, or n. */
static IDNG_NOINLINE size_t contexto_fails(const uint32_t *u, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (UP_I08(idng_uprops(u[i])) == I08_CONTEXTO && !idng_contexto_ok(u, n, i))
            return i;
    return n;
}

/*
 * The codec's one validation of a U-label, whatever path it came by (an
 * A-label decoded, a raw label mapped, an ASCII label judged strictly): no
 * "xn--" prefix (in every mode); then, but in punycode mode, NFC, hyphens,
 * leading mark, and each code point's status under mode (IDNA2008 or
 * UTS #46: repertoire and the context rules), checked in that order.  One
 * pass looks up each code point's property word once and gathers
 * everything: the NFC quick check (normalization of the pieces around
 * its Maybe code points only when it says Maybe), the first bad status, and into bd whether the label is RTL and
 * what the bidi rule says of it (RFC 5893 section 2), for the caller to
 * apply when the name is a Bidi domain name.  bd is filled (bd->valid)
 * whenever that pass runs, and so is ents[0..n), when not NULL: each code
 * point's trie entry (idng_ucp), for the lookalike rules.  ws (see
 * idng_ulabel_check_nfc) and ents are never given together: a pass that
 * reads the words map_label looked up has no entries to hand on.
 */
static IDNG_ALWAYS_INLINE idng_status ulabel_check(const uint32_t *u, const uint32_t *ws, size_t n,
                                                   idng_mode mode, unsigned flags, uint32_t *bad,
                                                   struct bidi *bd, int judge_nfc, uint16_t *ents)
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
        uint32_t cp = u[i], e = ws ? 0 : stage2[stage1[cp >> shift] + (cp & mask)],
                 w = ws ? ws[i] : props[e];
        unsigned cls = UP_BIDI(w);
        if (ents != NULL)
            ents[i] = (uint16_t)e;
        if (i == 0) {
            w0 = w;
            idng_bidi_start(&br, cls, cp);
        }
        idng_bidi_step(&br, cls, cp);
        if (judge_nfc) {
            switch (idng_nfc_qc_step(cp, w, &last_ccc)) {
            case QC_NO:
                nfc_no = 1;
                break;
            case QC_MAYBE:
                nfc_maybe = 1;
                break;
            }
        }
        if (first == IDNG_OK && (first = cp_status(u, n, i, w, mode, flags)) != IDNG_OK)
            first_bad = cp;
    }
    idng_bidi_finish(&br, u[n - 1], bd);
    if (nfc_no || (nfc_maybe && !idng_is_nfc_maybe(u, n)))
        return IDNG_E_NOT_NFC;
    if (!(flags & IDNG_F_NO_CHECK_HYPHENS)) {
        if (n >= 4 && u[2] == '-' && u[3] == '-')
            return IDNG_E_HYPHEN_34;
        if ((u[0] == '-' || u[n - 1] == '-') && mode != IDNG_MODE_IDNA2008_LOOKUP)
            return IDNG_E_HYPHEN_EDGE;
    }
    if (UP_MARK(w0)) {
        *bad = u[0];
        return IDNG_E_LEADING_MARK;
    }
    if (first == IDNG_OK && (flags & IDNG_F_CHECK_CONTEXTO) && mode == IDNG_MODE_UTS46) {
        size_t j = contexto_fails(u, n);
        if (j < n) {
            *bad = u[j];
            return IDNG_E_CONTEXTO;
        }
    }
    *bad = first_bad;
    return first;
}

/* The UTS #46 flags that change what ulabel_check judges.  Without any,
 * the validators below run a copy of ulabel_check with flags 0, where
 * every flag test is folded away: the module's path costs nearly what it did
 * before the flags. */
#define LABEL_FLAGS                                                                                \
    (IDNG_F_NO_CHECK_HYPHENS | IDNG_F_NO_STD3 | IDNG_F_NO_JOINERS | IDNG_F_CHECK_CONTEXTO)

idng_status idng_ulabel_check(const uint32_t *u, size_t n, idng_mode mode, unsigned flags,
                              uint32_t *bad, struct bidi *bd)
{
    if (!(flags & LABEL_FLAGS))
        return ulabel_check(u, NULL, n, mode, 0, bad, bd, 1, NULL);
    return ulabel_check(u, NULL, n, mode, flags, bad, bd, 1, NULL);
}

/*
 * The same for a label known to be in NFC: it skips the NFC judgment (the
 * quick check of every code point, and the normalization of the pieces
 * around a Maybe), which could only say "NFC" there.  Its one caller is
 * to-ASCII / to-Unicode of a label with octets >= 0x80, on the output of
 * map_label (uts46.c), which is NFC by construction: map_label returns its
 * mapped code points either when their NFC quick check says Yes, which
 * means the string is in NFC (UAX #15 section 9), or normalized: by
 * idng_nfc, or by composition alone or idng_nfc_short where those give
 * what idng_nfc gives (the arguments are in uts46.c and unicode.c, the
 * tests in test_unicode.c), a result in NFC since NFC is idempotent.
 * Nothing touches them between the two.  The other checks, and their order, are
 * those of idng_ulabel_check: NOT_NFC came first, and cannot occur.  ws,
 * when map_label's output is the label as mapped (nothing normalized),
 * holds the property word map_label looked up for each code point, so
 * that the pass does not look them up a second time.
 */
idng_status idng_ulabel_check_nfc(const uint32_t *u, const uint32_t *ws, size_t n, idng_mode mode,
                                  unsigned flags, uint32_t *bad, struct bidi *bd)
{
    /* A copy for each case, so that the loop tests neither. */
    if (ws && !(flags & LABEL_FLAGS))
        return ulabel_check(u, ws, n, mode, 0, bad, bd, 0, NULL);
    if (ws)
        return ulabel_check(u, ws, n, mode, flags, bad, bd, 0, NULL);
    if (!(flags & LABEL_FLAGS))
        return ulabel_check(u, NULL, n, mode, 0, bad, bd, 0, NULL);
    return ulabel_check(u, NULL, n, mode, flags, bad, bd, 0, NULL);
}

/*
 * Validates an xn-- label of plain ASCII (any case) under mode: what only
 * an A-label can fail (length, Punycode, decoding to nothing or to ASCII),
 * then its U-label, which u (capacity IDNG_LABEL_MAX) receives, through
 * idng_ulabel_check; bd as there.
 *
 * A-labels compare case-insensitively (RFC 5891 5.3), and Punycode digits
 * have no case, so decoding the label as it is and lowercasing the basic
 * code points afterwards gives what decoding it lowercased would give,
 * with the same errors.
 *
 * There is no re-encoding to compare with the label (IDNG_E_ROUNDTRIP,
 * "the A-label is the canonical spelling of its U-label"), because for a
 * label that decodes it cannot fail; the argument, with RFC 3492 section
 * numbers:
 *  - the basic code points are the octets before the last delimiter, in
 *    order (6.2), and the encoder writes them in the same order followed by
 *    the delimiter when there is one (6.3); a delimiter first is refused as
 *    a digit by the decoder, a delimiter last leaves an all-ASCII result;
 *  - every code point the decoder inserts is at least n = 0x80 and n never
 *    decreases, and an insertion with the same n lands after the one
 *    before it (i only grows): the decoder inserts in the encoder's order,
 *    by code point and then by position, so the encoder computes from the
 *    result exactly the deltas the decoder read;
 *  - the threshold of each digit depends only on the bias and the digit's
 *    place, and bias adaptation on the deltas before it (6.1), the same on
 *    both sides; for a given bias, the k-digit integers (3.3) cover the
 *    range [S(k-1), S(k)) with S(k) the sum of t(j) * w(j) for j < k, each
 *    value once, so every delta has exactly one spelling;
 *  - the label was lowercased, and the encoder writes lowercase digits.
 * tests/codec/test_punycode.c checks it exhaustively on short inputs, and
 * the fuzz harness of the label check re-encodes every label it accepts.
 */
static IDNG_ALWAYS_INLINE idng_status ace_check(const char *label, size_t len, idng_mode mode,
                                                unsigned flags, uint32_t *u, size_t *n,
                                                uint32_t *bad, struct bidi *bd, uint16_t *ents)
{
    size_t i;
    idng_status st;
    uint32_t high = 0;

    *bad = IDNG_NO_CODEPOINT;
    *n = 0;
    bd->valid = 0;
    if (len > IDNG_LABEL_MAX)
        return IDNG_E_LABEL_TOO_LONG;
    *n = IDNG_LABEL_MAX;
    st = idng_punycode_decode(label + 4, len - 4, u, n, NULL);
    if (st != IDNG_OK) {
        *n = 0;
        return st;
    }
    if (*n == 0)
        return IDNG_E_EMPTY_DECODE;
    for (i = 0; i < *n; i++) {
        u[i] = u[i] < 0x80 ? idng_ascii_lower((unsigned char)u[i]) : u[i];
        high |= u[i];
    }
    if (high < 0x80)
        return IDNG_E_ASCII_ONLY;
    if (ents != NULL) /* flags 0: check_labels */
        return ulabel_check(u, NULL, *n, mode, 0, bad, bd, 1, ents);
    return idng_ulabel_check(u, *n, mode, flags, bad, bd);
}

idng_status idng_ace_check(const char *label, size_t len, idng_mode mode, unsigned flags,
                           uint32_t *u, size_t *n, uint32_t *bad, struct bidi *bd)
{
    return ace_check(label, len, mode, flags, u, n, bad, bd, NULL);
}

/* idng_ace_check with flags 0 that also gives each code point's trie
 * entry (ents, room for IDNG_LABEL_MAX) when the U-label's validation looks
 * them up; ents[0] is left UINT16_MAX when it does not. */
static idng_status ace_check_ents(const char *label, size_t len, idng_mode mode, uint32_t *u,
                                  size_t *n, uint32_t *bad, struct bidi *bd, uint16_t *ents)
{
    ents[0] = UINT16_MAX;
    return ace_check(label, len, mode, 0, u, n, bad, bd, ents);
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
static IDNG_ALWAYS_INLINE idng_status check_labels(const struct span *labs, size_t nlab,
                                                   idng_mode mode, idng_error *err,
                                                   idng_error *each, size_t cap, size_t *count,
                                                   idng_label_fn *fn, void *ctx)
{
    uint32_t u[IDNG_LABEL_MAX], bad;
    uint16_t ents[IDNG_LABEL_MAX];
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
    if ((unsigned)mode > IDNG_MODE_MAX || nlab > LABELS_MAX)
        return idng_fail(err, IDNG_E_INVAL, 0, 0, IDNG_NO_CODEPOINT);
    for (i = 0; i < nlab; i++) {
        const struct span *l = &labs[i];
        lst[i] = bst[i] = IDNG_OK;
        lbad[i] = IDNG_NO_CODEPOINT;
        if (l->len > IDNG_LABEL_MAX)
            lst[i] = IDNG_E_LABEL_TOO_LONG;
        else if (idng_has_8bit(l->s, l->len))
            lst[i] = IDNG_E_RAW_8BIT;
        else if (idng_is_ace(l->s, l->len)) {
            st = fn ? ace_check_ents(l->s, l->len, mode, u, &n, &bad, &bd, ents)
                    : idng_ace_check(l->s, l->len, mode, 0, u, &n, &bad, &bd);
            if (st != IDNG_OK) {
                lst[i] = st;
                lbad[i] = bad;
            } else if (mode != IDNG_MODE_PUNYCODE) {
                bidi_domain |= bd.rtl;
                bst[i] = bd.st;
                lbad[i] = bd.bad;
            }
            if (fn) {
                fn(ctx, l->off, l->len, n > 0 ? u : NULL,
                   n > 0 && ents[0] != UINT16_MAX ? ents : NULL, n);
                continue; /* fn and each go together */
            }
        }
        if (fn)
            fn(ctx, l->off, l->len, NULL, NULL, 0);
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
    return nfail ? first : idng_ok(err);
}

idng_status idng_label_check(const char *label, size_t len, idng_mode mode, idng_error *err)
{
    struct span l;

    l.s = label;
    l.len = len;
    l.off = 0;
    if (len == 0)
        return idng_fail(err, IDNG_E_EMPTY_LABEL, 0, 0, IDNG_NO_CODEPOINT);
    return check_labels(&l, 1, mode, err, NULL, 0, NULL, NULL, NULL);
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
    idng_text_start(&it, name, len, IDNG_TEXT_DOTS);
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

IDNG_NOINLINE idng_status idng_name_check_full(const char *name, size_t len, idng_mode mode,
                                               idng_error *err)
{
    struct span labs[LABELS_MAX];
    size_t nlab;
    idng_status st = split_text(name, len, labs, &nlab, err);

    return st != IDNG_OK ? st : check_labels(labs, nlab, mode, err, NULL, 0, NULL, NULL, NULL);
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

IDNG_NOINLINE idng_status idng_wire_check_full(const uint8_t *wire, size_t len, idng_mode mode,
                                               idng_error *err, idng_error *each, size_t cap,
                                               size_t *count, idng_label_fn *fn, void *ctx)
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
    /* Two copies: the validation alone keeps the path it had before
     * labels were handed on. */
    if (fn != NULL)
        return check_labels(labs, nlab, mode, err, each, cap, count, fn, ctx);
    return check_labels(labs, nlab, mode, err, each, cap, count, NULL, NULL);
}
