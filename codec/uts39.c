/**
 * \file
 * UTS #39 (Unicode Security Mechanisms), Unicode 15.0: restriction levels
 * (section 5.2) over augmented Script_Extensions sets (5.1), mixed numbers
 * (5.3) and the confusable skeleton (4), from the generated tables
 * (tools/gen_tables.py: Scripts.txt, ScriptExtensions.txt, confusables.txt
 * and the Identifier_Status=Allowed set ICU 72's spoof checker carries).
 * ICU's spoof checker is the oracle of the tests (tests/codec/test_uts39.c).
 */
#include "idna_internal.h"
#include "idnguard.h"
#include "unicode.h"

#include <stdio.h>
#include <string.h>

_Static_assert(IDNG_SKELETON_GROWTH == IDNG_UT_SKEL_VALID_MAX,
               "IDNG_SKELETON_GROWTH must be the tables' IDNG_UT_SKEL_VALID_MAX");

static const char *const rl_names[] = {
#define IDNG_X_RL(sym, name) name,
    IDNG_RESTRICTION_LIST(IDNG_X_RL)
#undef IDNG_X_RL
};

const char *idng_restriction_name(idng_restriction level)
{
    return (unsigned)level < IDNG_RL_COUNT ? rl_names[level] : NULL;
}

int idng_restriction_lookup(const char *name, size_t len, idng_restriction *level)
{
    unsigned i;

    for (i = 0; i < IDNG_RL_COUNT; i++) {
        if (strlen(rl_names[i]) == len && memcmp(rl_names[i], name, len) == 0) {
            *level = (idng_restriction)i;
            return 0;
        }
    }
    return -1;
}

idng_restriction idng_uts39_label(const uint32_t *s, size_t n, int *mixed_numbers)
{
    struct idng_uts39_acc a;
    size_t i;

    idng_uts39_start(&a);
    for (i = 0; i < n; i++) {
        if (s[i] > 0x10FFFF) {
            a.allowed = 0;
            continue;
        }
        idng_uts39_step(&a, s[i], idng_usec(s[i]));
        /* Not Allowed (step 1): unrestricted, whatever comes next. */
        if (!a.allowed && mixed_numbers == NULL)
            break;
    }
    if (mixed_numbers != NULL)
        *mixed_numbers = a.mixed;
    return idng_uts39_level(&a);
}

idng_restriction idng_restriction_level(const uint32_t *s, size_t n)
{
    return idng_uts39_label(s, n, NULL);
}

int idng_mixed_numbers(const uint32_t *s, size_t n)
{
    int mixed;

    idng_uts39_label(s, n, &mixed);
    return mixed;
}

/* Inputs up to this long (a label's code points, and more) take the one
 * pass of idng_skeleton; longer ones skeleton_long. */
#define SKEL_SHORT 64

/* The skeleton of a string of any length, by the book: NFD of the input at
 * the front of out, each code point replaced by its prototype back to
 * front, NFD again. */
static idng_status skeleton_long(const uint32_t *in, size_t n, uint32_t *out, size_t *outlen)
{
    size_t cap = *outlen, total = 0, nfd = 0, i, j, end;
    uint32_t d[IDNG_UT_DECOMP_MAX];
    const uint32_t *seq;

    /* Measure first: a string's skeleton is as long as the skeletons of
     * its code points together, whatever order NFD puts them in. */
    for (i = 0; i < n; i++) {
        size_t m;
        if (in[i] - 0xD800 < 0x800)
            return IDNG_E_SURROGATE;
        if (in[i] > 0x10FFFF)
            return IDNG_E_CODEPOINT_MAX;
        m = idng_decompose(in[i], d);
        for (j = 0; j < m; j++) {
            int k = idng_confusable(d[j], &seq);
            total += k < 0 ? 1 : (size_t)k;
        }
    }
    *outlen = total;
    if (total > cap)
        return IDNG_E_NOSPACE;

    /* NFD of the input at the front of out, without the Default_Ignorable
     * code points, which the skeleton drops (UTS #39 15.1: their
     * prototype is empty, and only theirs).  They are starters that no
     * decomposition yields, so NFD orders the stretches between them on
     * their own.  What is left is no longer than the skeleton, since every
     * other prototype has at least one code point... */
    for (i = 0, j = 0; i < n; i++) {
        if (idng_confusable(in[i], &seq) == 0) {
            idng_canonical_order(out + j, nfd - j);
            j = nfd;
            continue;
        }
        nfd += idng_decompose(in[i], out + nfd);
    }
    idng_canonical_order(out + j, nfd - j);
    /* ...then each code point replaced by its prototype, back to front so
     * that nothing is overwritten before it is read... */
    end = total;
    for (i = nfd; i-- > 0;) {
        int k = idng_confusable(out[i], &seq);
        if (k < 0) {
            out[--end] = out[i];
        } else {
            end -= (size_t)k;
            memmove(out + end, seq, (size_t)k * sizeof *out);
        }
    }
    /* ...and NFD again: the prototypes are stored in NFD, so only their
     * order with their neighbours can be off. */
    idng_canonical_order(out, total);
    return IDNG_OK;
}


/*
 * A short string in one pass over its security words: the full canonical
 * decomposition of each code point (nothing to do for most), canonical
 * order only when a non-starter is there, each piece replaced by its
 * prototype (stored in NFD), and canonical order again only when the result
 * holds a non-starter.  The same result as skeleton_long, which the tests
 * hold against ICU.
 */
idng_status idng_skeleton(const uint32_t *in, size_t n, uint32_t *out, size_t *outlen)
{
    uint32_t d[SKEL_SHORT * IDNG_UT_DECOMP_MAX], dw[SKEL_SHORT * IDNG_UT_DECOMP_MAX];
    size_t nd = 0, total = 0, i, j, m;
    uint32_t any = 0, again = 0;
    const uint32_t *seq;

    if (n > SKEL_SHORT)
        return skeleton_long(in, n, out, outlen);
    for (i = 0; i < n; i++) {
        uint32_t w;
        if (in[i] - 0xD800 < 0x800)
            return IDNG_E_SURROGATE;
        if (in[i] > 0x10FFFF)
            return IDNG_E_CODEPOINT_MAX;
        w = idng_usec(in[i]);
        if (!US_DEC(w)) {
            d[nd] = in[i];
            dw[nd++] = w;
            any |= w;
            continue;
        }
        m = idng_decompose(in[i], d + nd);
        for (j = 0; j < m; j++, nd++) {
            dw[nd] = idng_usec(d[nd]);
            any |= dw[nd];
        }
    }
    if (US_NZCCC(any)) {
        idng_canonical_order(d, nd);
        for (i = 0; i < nd; i++)
            dw[i] = idng_usec(d[i]);
    }
    for (i = 0; i < nd; i++)
        total += US_CONF(dw[i]) ? idng_conf_ref_w(dw[i]) & IDNG_UT_REF_LEN_MASK : 1;
    if (total > *outlen) {
        *outlen = total;
        return IDNG_E_NOSPACE;
    }
    *outlen = total;
    for (i = 0, m = 0; i < nd; i++) {
        int k = idng_confusable_w(dw[i], &seq);
        if (k < 0) {
            out[m++] = d[i];
            again |= US_NZCCC(dw[i]);
        } else {
            memcpy(out + m, seq, (size_t)k * sizeof *out);
            m += (size_t)k;
            again |= !US_PSTART(dw[i]);
        }
    }
    /* NFD again: the prototypes are in NFD, so only their order with their
     * neighbours can be off, and only when a non-starter is there. */
    if (again)
        idng_canonical_order(out, total);
    return IDNG_OK;
}

/* ---- names in text ---- */

/* The Unicode form of a text name, as idng_to_unicode gives it. */
#define UNAME_MAX (4 * IDNG_INPUT_MAX + 16)

/* Calls fn for each label of the Unicode form of in, as code points; stops
 * at the first nonzero return.  A label of more code points than an A-label
 * can hold cannot come from a valid name and is IDNG_E_LABEL_TOO_LONG. */
typedef idng_status label_fn(void *ctx, const uint32_t *cps, size_t n, int ascii,
                             const char *sep, size_t seplen);

static idng_status each_unicode_label(const char *in, size_t inlen, idng_mode mode,
                                      idng_error *err, label_fn *fn, void *ctx)
{
    char u[UNAME_MAX];
    size_t ulen = sizeof u, pos = 0;
    idng_status st = idng_to_unicode(in, inlen, u, &ulen, mode, 0, err);

    if (st != IDNG_OK)
        return st;
    while (pos < ulen) {
        uint32_t cps[IDNG_LABEL_MAX + 1];
        size_t n = 0, stop, start = pos;
        int ascii = 1;
        while (pos < ulen && (stop = idng_full_stop(u + pos, ulen - pos)) == 0) {
            uint32_t cp;
            size_t k = idng_utf8_decode((const unsigned char *)u + pos, ulen - pos, &cp);
            if (k == 0 || n == IDNG_LABEL_MAX + 1)
                goto bad;
            cps[n++] = cp;
            ascii &= cp < 0x80;
            pos += k;
        }
        if (n > IDNG_LABEL_MAX)
            goto bad;
        stop = pos < ulen ? idng_full_stop(u + pos, ulen - pos) : 0;
        st = fn(ctx, cps, n, ascii, u + pos, stop);
        if (st != IDNG_OK)
            return st;
        pos += stop;
        continue;
    bad:
        if (err != NULL) {
            err->status = IDNG_E_LABEL_TOO_LONG;
            err->label_off = start;
            err->label_len = 0;
            err->codepoint = IDNG_NO_CODEPOINT;
        }
        return IDNG_E_LABEL_TOO_LONG;
    }
    return IDNG_OK;
}

struct skel_out {
    char *out;
    size_t cap, len;
};

static void skel_put(struct skel_out *o, const char *s, size_t n)
{
    if (o->len < o->cap)
        memcpy(o->out + o->len, s, n <= o->cap - o->len ? n : o->cap - o->len);
    o->len += n;
}

static idng_status skel_label(void *ctx, const uint32_t *cps, size_t n, int ascii,
                              const char *sep, size_t seplen)
{
    struct skel_out *o = ctx;
    uint32_t sk[(IDNG_LABEL_MAX + 1) * IDNG_UT_SKEL_MAX];
    size_t sklen = sizeof sk / sizeof sk[0], i;
    idng_status st = idng_skeleton(cps, n, sk, &sklen);

    (void)ascii;
    if (st != IDNG_OK)
        return st;
    for (i = 0; i < sklen; i++) {
        unsigned char b[4];
        char esc[16];
        int k;
        if (sk[i] == '.' || sk[i] == '\\') {
            skel_put(o, sk[i] == '.' ? "\\046" : "\\092", 4);
        } else if (idng_display_safe(sk[i])) {
            skel_put(o, (const char *)b, idng_utf8_encode(sk[i], b));
        } else {
            /* As the display unit shows a code point it does not trust. */
            k = snprintf(esc, sizeof esc, "\\u{%04lX}", (unsigned long)sk[i]);
            skel_put(o, esc, (size_t)k);
        }
    }
    skel_put(o, sep, seplen);
    return IDNG_OK;
}

idng_status idng_name_skeleton(const char *in, size_t inlen, char *out, size_t *outlen,
                               idng_mode mode, idng_error *err)
{
    struct skel_out o = {out, *outlen, 0};
    idng_status st = each_unicode_label(in, inlen, mode, err, skel_label, &o);

    if (st != IDNG_OK)
        return st;
    *outlen = o.len;
    if (o.len > o.cap)
        return IDNG_E_NOSPACE;
    if (o.len < o.cap)
        out[o.len] = '\0';
    return IDNG_OK;
}

struct level_acc {
    idng_restriction level;
    int mixed;
};

static idng_status level_label(void *ctx, const uint32_t *cps, size_t n, int ascii,
                               const char *sep, size_t seplen)
{
    struct level_acc *a = ctx;
    int mixed;
    idng_restriction l = idng_uts39_label(cps, n, &mixed);

    (void)sep;
    (void)seplen;
    if (ascii)
        l = IDNG_RL_ASCII;
    if (l > a->level)
        a->level = l;
    a->mixed |= mixed;
    return IDNG_OK;
}

idng_status idng_name_restriction(const char *in, size_t inlen, idng_mode mode,
                                  idng_restriction *level, int *mixed_numbers, idng_error *err)
{
    struct level_acc a = {IDNG_RL_ASCII, 0};
    idng_status st = each_unicode_label(in, inlen, mode, err, level_label, &a);

    if (st != IDNG_OK)
        return st;
    *level = a.level;
    if (mixed_numbers != NULL)
        *mixed_numbers = a.mixed;
    return IDNG_OK;
}
