/**
 * \file
 * The fast paths: names that need no judging and no conversion (plain
 * ASCII, no "xn--" label, within the DNS lengths) are found by a scan of
 * their octets, 16 at a time with SSE2, and answered at once; every other
 * name goes to the full path (label.c, uts46.c), which finds the same
 * answer or the error.  The public entry points that try a fast path
 * first live here, so that the scans are compiled into them.
 *
 * Every SSE2 scan has a portable twin, used where SSE2 is missing and
 * when IDNG_NO_SIMD is defined (`make check-nosimd` runs the codec's tests
 * so).  No scan reads outside the input.
 */
#include "idna_internal.h"

#ifdef IDNG_SSE2
#include <emmintrin.h>

/* Masks of a name's octets, bit i for octet i. */
struct name_masks {
    uint64_t dot; /* '.' */
    uint64_t x;   /* 'x' or 'X' */
    unsigned high; /* nonzero if some octet is >= 0x80 */
};

/* Adds the masks of vector v, whose octet j is octet at + j of the name,
 * keeping only the octets from `from` on (an overlapping last block). */
static IDNG_ALWAYS_INLINE void vec_masks(__m128i v, size_t at, unsigned from, struct name_masks *m)
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
static IDNG_ALWAYS_INLINE void name_masks(const unsigned char *s, size_t len, struct name_masks *m)
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

/*
 * Is this a text name that the classifier passes without judging anything?
 * That is: a name of at most 253 octets (254 with the root's dot), of
 * non-empty labels (but for the root) of at most 63 octets, all plain
 * ASCII, none beginning with "xn--" in any case.  Anything else, including
 * "." alone, takes the full path, which then finds the same answer or the
 * error.
 */
static IDNG_ALWAYS_INLINE int plain_name(const unsigned char *s, size_t len)
{
    struct idng_text_iter it;
    size_t off, l, stop;

    if (len == 0 || len > IDNG_NAME_MAX + 1 || (len == IDNG_NAME_MAX + 1 && s[len - 1] != '.'))
        return 0;
#ifdef IDNG_SSE2
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
    idng_text_start(&it, (const char *)s, len, IDNG_TEXT_DOTS);
    while (idng_text_next(&it, &off, &l, &stop)) {
        if (l == 0 && (stop != 0 || off == 0)) /* empty, and not after the root's dot */
            return 0;
        if (l > IDNG_LABEL_MAX || idng_ace_prefix(s + off, l))
            return 0;
    }
    return !idng_has_8bit((const char *)s, len);
}

/*
 * The same for an uncompressed wire-format name: every label within len and
 * at most 63 octets, the name at most 255 octets, plain ASCII, no xn--
 * label.  Length octets are below 0x40, so the 8-bit test may include them.
 */
static IDNG_ALWAYS_INLINE int plain_wire(const uint8_t *w, size_t len)
{
    idng_wire_iter it;
    const uint8_t *label;
    size_t l;
    int r;

    idng_wire_start(&it, w, len);
    while ((r = idng_wire_step(&it, &label, &l)) == IDNG_WIRE_LABEL)
        if (idng_ace_prefix(label, l))
            return 0;
    return r == IDNG_WIRE_END && !idng_has_8bit((const char *)w, it.pos);
}

idng_status idng_name_check(const char *name, size_t len, idng_mode mode, idng_error *err)
{
    if ((unsigned)mode <= IDNG_MODE_MAX && plain_name((const unsigned char *)name, len))
        return idng_ok(err);
    return idng_name_check_full(name, len, mode, err);
}

idng_status idng_wire_check(const uint8_t *wire, size_t len, idng_mode mode, idng_error *err)
{
    if ((unsigned)mode <= IDNG_MODE_MAX && plain_wire(wire, len))
        return idng_ok(err);
    return idng_wire_check_full(wire, len, mode, err, NULL, 0, NULL, NULL, NULL);
}

idng_status idng_wire_check_each(const uint8_t *wire, size_t len, idng_mode mode,
                                 idng_error *each, size_t cap, size_t *count)
{
    idng_error first;

    *count = 0;
    if ((unsigned)mode <= IDNG_MODE_MAX && plain_wire(wire, len))
        return IDNG_OK;
    return idng_wire_check_full(wire, len, mode, &first, each, cap, count, NULL, NULL);
}

int idng_wire_is_plain(const uint8_t *wire, size_t len)
{
    return plain_wire(wire, len);
}

idng_status idng_wire_check_labels(const uint8_t *wire, size_t len, idng_mode mode,
                                   idng_error *each, size_t cap, size_t *count, idng_label_fn *fn,
                                   void *ctx)
{
    idng_error first;

    /* No plain-name test: the caller has made it (idng_wire_is_plain). */
    *count = 0;
    return idng_wire_check_full(wire, len, mode, &first, each, cap, count, fn, ctx);
}

#ifdef IDNG_SSE2
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
 * the name lowercased, which fits DNS lengths (what idng_uts46_process would find).
 * Returns 0 when the name is not such a name.
 */
static int plain_convert(const char *in, size_t inlen, char *out, size_t *outlen,
                         idng_mode mode, unsigned flags, idng_error *err, idng_status *st)
{
    size_t i, n;

    if ((unsigned)mode > IDNG_MODE_MAX || (flags & IDNG_F_STRICT)
        || !plain_name((const unsigned char *)in, inlen))
        return 0;
    n = inlen < *outlen ? inlen : *outlen;
#ifdef IDNG_SSE2
    if (n == inlen && n >= 4) {
        lower_copy((const unsigned char *)in, (unsigned char *)out, n);
        n = 0;
    }
#endif
    for (i = 0; i < n; i++)
        out[i] = (char)idng_ascii_lower((unsigned char)in[i]);
    if (inlen < *outlen)
        out[inlen] = '\0';
    if (inlen > *outlen) {
        *outlen = inlen;
        *st = idng_fail(err, IDNG_E_NOSPACE, 0, inlen, IDNG_NO_CODEPOINT);
        return 1;
    }
    *outlen = inlen;
    *st = idng_ok(err);
    return 1;
}

/* Both conversions: the fast path, else the full one. */
static IDNG_ALWAYS_INLINE idng_status convert(const char *in, size_t inlen, char *out,
                                              size_t *outlen, idng_mode mode, unsigned flags,
                                              idng_error *err, int to_unicode)
{
    idng_status st;
    if (plain_convert(in, inlen, out, outlen, mode, flags, err, &st))
        return st;
    return idng_uts46_process(in, inlen, out, outlen, mode, flags, err, to_unicode);
}

idng_status idng_to_ascii(const char *in, size_t inlen, char *out, size_t *outlen,
                          idng_mode mode, unsigned flags, idng_error *err)
{
    return convert(in, inlen, out, outlen, mode, flags, err, 0);
}

idng_status idng_to_unicode(const char *in, size_t inlen, char *out, size_t *outlen,
                            idng_mode mode, unsigned flags, idng_error *err)
{
    return convert(in, inlen, out, outlen, mode, flags, err, 1);
}
