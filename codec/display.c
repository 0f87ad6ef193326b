/**
 * \file
 * The display unit: how idnguard shows octets and code points that came
 * from the network or from a user, in every place a person reads them (the
 * query log, EDE texts, CLI error lines, messages about settings files).
 *
 * One spelling, two escapes (see idnguard.h, "Display"):
 *   \DDD       an octet by its decimal value (RFC 1035 section 5.1), for
 *              octets that are not shown as themselves;
 *   \u{XXXX}   a code point by its hexadecimal value, for valid UTF-8 whose
 *              code point could hide or reorder the text around it.
 * Everything is produced as atoms (a literal character or one escape) and
 * an atom is written whole or not at all, so truncation never leaves half
 * an escape.
 */
#include "idna_internal.h"
#include "idng_display_put.h"

#include <stdio.h>
#include <string.h>

void idng_display_buf_init(struct idng_display_buf *b, char *out, size_t cap)
{
    b->out = out;
    b->cap = cap;
    b->len = 0;
    b->full = out == NULL || cap == 0;
    if (!b->full)
        out[0] = '\0';
}

void idng_display_put(void *ctx, const char *atom, size_t n)
{
    idng_display_put_atom(ctx, atom, n);
}

/* Octets a label shows as themselves; the same set as Unbound's dname_str:
 * '*' (42), '-' (45), '0'-'9' (48-57) in the first word, 'A'-'Z' (65-90),
 * '_' (95) and 'a'-'z' (97-122) in the second. */
static const uint64_t literal_bits[2] = {
    1ULL << 42 | 1ULL << 45 | 0x3FFULL << 48,
    0x3FFFFFFULL << 1 | 1ULL << 31 | 0x3FFFFFFULL << 33,
};

static inline int label_literal(uint32_t c)
{
    return c < 128 && (literal_bits[c >> 6] >> (c & 63) & 1);
}

/* The \DDD escape of octet c at d; 4 octets, no terminator. */
static inline void octet_escape(char *d, uint8_t c)
{
    d[0] = '\\';
    d[1] = (char)('0' + c / 100);
    d[2] = (char)('0' + c / 10 % 10);
    d[3] = (char)('0' + c % 10);
}

void idng_display_octet_to(uint8_t c, idng_display_sink *sink, void *ctx)
{
    char e[4];

    octet_escape(e, c);
    sink(ctx, e, 4);
}

/* Code point cp as \u{XXXX} (at least four digits). */
static void put_u(idng_display_sink *sink, void *ctx, uint32_t cp)
{
    char e[IDNG_DISPLAY_ATOM_MAX];
    int n = snprintf(e, sizeof e, "\\u{%04lX}", (unsigned long)(cp & 0x1FFFFF));

    sink(ctx, e, (size_t)n);
}

void idng_display_put_run(struct idng_display_buf *b, const char *s, size_t n)
{
    size_t room;

    if (b->full)
        return;
    room = b->cap - 1 - b->len;
    if (n > room) {
        n = room;
        b->full = 1;
    }
    memcpy(b->out + b->len, s, n);
    b->len += n;
    b->out[b->len] = '\0';
}

void idng_display_label_to(const uint8_t *label, size_t len, idng_display_sink *sink, void *ctx)
{
    size_t i, j;

    for (i = 0; i < len; i++) {
        if (sink == idng_display_put && label_literal(label[i])) {
            for (j = i + 1; j < len && label_literal(label[j]); j++)
                ;
            idng_display_put_run(ctx, (const char *)label + i, j - i);
            i = j - 1;
        } else if (label_literal(label[i]))
            sink(ctx, (const char *)label + i, 1);
        else
            idng_display_octet_to(label[i], sink, ctx);
    }
}

/*
 * idng_display_name_to into a buffer with room for the name's longest
 * spelling (every octet it can read escaped, plus the end): the same
 * octets, written straight in, runs of literal octets copied at once and
 * no check per atom.  0 (nothing written) when the room is not there.
 */
static int name_to_roomy(struct idng_display_buf *b, const uint8_t *wire, size_t len)
{
    idng_wire_iter it;
    const uint8_t *lab;
    size_t n, i, j, most = len < IDNG_WIRE_MAX ? len : IDNG_WIRE_MAX;
    char *d;
    int st;

    if (b->full || 4 * most + sizeof IDNG_DISPLAY_MALFORMED + 1 > b->cap - 1 - b->len)
        return 0;
    d = b->out + b->len;
    idng_wire_start(&it, wire, len);
    while ((st = idng_wire_step(&it, &lab, &n)) == IDNG_WIRE_LABEL) {
        for (i = 0; i < n;) {
            for (j = i; j < n && label_literal(lab[j]); j++)
                ;
            memcpy(d, lab + i, j - i);
            d += j - i;
            for (i = j; i < n && !label_literal(lab[i]); i++, d += 4)
                octet_escape(d, lab[i]);
        }
        *d++ = '.';
    }
    if (st == IDNG_WIRE_BAD) {
        memcpy(d, IDNG_DISPLAY_MALFORMED, sizeof IDNG_DISPLAY_MALFORMED - 1);
        d += sizeof IDNG_DISPLAY_MALFORMED - 1;
    } else if (it.labels == 0) {
        *d++ = '.';
    }
    *d = '\0';
    b->len = (size_t)(d - b->out);
    return 1;
}

void idng_display_name_to(const uint8_t *wire, size_t len, idng_display_sink *sink, void *ctx)
{
    idng_wire_iter it;
    const uint8_t *lab;
    size_t n;
    int st;

    if (wire != NULL && sink == idng_display_put && name_to_roomy(ctx, wire, len))
        return;
    idng_wire_iter_init(&it, wire, wire == NULL ? 0 : len);
    while ((st = idng_wire_next(&it, &lab, &n)) == IDNG_WIRE_LABEL) {
        idng_display_label_to(lab, n, sink, ctx);
        sink(ctx, ".", 1);
    }
    if (st == IDNG_WIRE_BAD)
        sink(ctx, IDNG_DISPLAY_MALFORMED, sizeof IDNG_DISPLAY_MALFORMED - 1);
    else if (it.labels == 0)
        sink(ctx, ".", 1);
}

int idng_display_has_unicode(const uint8_t *wire, size_t len, idng_mode mode)
{
    idng_wire_iter it;
    const uint8_t *lab;
    size_t n;
    int ace = 0;

    /* The labels first: most names have no xn-- label to check. */
    if (wire == NULL)
        return 0;
    idng_wire_iter_init(&it, wire, len);
    while (idng_wire_next(&it, &lab, &n) == IDNG_WIRE_LABEL)
        ace |= idng_is_ace((const char *)lab, n);
    return ace && idng_wire_check(wire, len, mode, NULL) == IDNG_OK;
}

/* One decoded code point of a Unicode form. */
static void put_codepoint(idng_display_sink *sink, void *ctx, uint32_t cp)
{
    unsigned char u8[4];

    if (cp < 0x80 && label_literal(cp)) {
        char c = (char)cp;
        sink(ctx, &c, 1);
    } else if (cp >= 0x80 && idng_display_safe(cp)) {
        sink(ctx, (const char *)u8, idng_utf8_encode(cp, u8));
    } else {
        put_u(sink, ctx, cp);
    }
}

/* An xn-- label that idng_wire_check accepted, decoded. */
static void put_ace(idng_display_sink *sink, void *ctx, const uint8_t *lab, size_t n)
{
    char low[IDNG_LABEL_MAX];
    uint32_t u[IDNG_LABEL_MAX];
    size_t i, un = IDNG_LABEL_MAX;

    /* RFC 5891 5.3: A-labels compare case-insensitively; decode lowercased,
     * as the codec's validation did. */
    for (i = 0; i < n; i++)
        low[i] = (char)(lab[i] >= 'A' && lab[i] <= 'Z' ? lab[i] + 32 : lab[i]);
    if (idng_punycode_decode(low + 4, n - 4, u, &un, NULL) != IDNG_OK) {
        idng_display_label_to(lab, n, sink, ctx); /* cannot happen after idng_wire_check */
        return;
    }
    for (i = 0; i < un; i++)
        put_codepoint(sink, ctx, u[i]);
}

void idng_display_unicode_known_to(const uint8_t *wire, size_t len, idng_display_sink *sink,
                                   void *ctx)
{
    idng_wire_iter it;
    const uint8_t *lab;
    size_t n;

    idng_wire_iter_init(&it, wire, len);
    while (idng_wire_next(&it, &lab, &n) == IDNG_WIRE_LABEL) {
        if (idng_is_ace((const char *)lab, n))
            put_ace(sink, ctx, lab, n);
        else
            idng_display_label_to(lab, n, sink, ctx);
        sink(ctx, ".", 1);
    }
}

void idng_decoded_init(struct idng_decoded *d)
{
    d->complete = 0;
    d->ace = 0;
    d->nlab = 0;
    d->used = 0;
    d->status = IDNG_E_INVAL;
    d->mode = IDNG_MODE_IDNA2008;
}

void idng_decoded_add(struct idng_decoded *d, const uint32_t *cps, size_t n)
{
    if (cps == NULL)
        n = 0;
    if (d->nlab >= IDNG_LABELS_MAX || n > sizeof d->cp / sizeof d->cp[0] - d->used
        || n > UINT8_MAX) {
        d->nlab = IDNG_LABELS_MAX + 1; /* never complete */
        return;
    }
    d->start[d->nlab] = (uint16_t)d->used;
    d->n[d->nlab] = (uint8_t)n;
    if (n > 0) /* cps may be NULL then, which memcpy may not be given */
        memcpy(d->cp + d->used, cps, n * sizeof *cps);
    d->used += n;
    d->nlab++;
    d->ace |= n > 0;
}

void idng_decoded_done(struct idng_decoded *d, idng_mode mode, idng_status status)
{
    d->complete = d->nlab <= IDNG_LABELS_MAX;
    d->mode = mode;
    d->status = status;
}

int idng_display_has_unicode_decoded(const uint8_t *wire, size_t len, idng_mode mode,
                                     const struct idng_decoded *d)
{
    /* A check that passed decoded every xn-- label; one that failed means
     * no Unicode form, as idng_display_has_unicode's own check would. */
    if (d != NULL && d->complete && d->mode == mode)
        return wire != NULL && d->status == IDNG_OK && d->ace;
    return idng_display_has_unicode(wire, len, mode);
}

void idng_display_unicode_decoded_to(const uint8_t *wire, size_t len, const struct idng_decoded *d,
                                     idng_display_sink *sink, void *ctx)
{
    idng_wire_iter it;
    const uint8_t *lab;
    size_t n, i, k;

    if (d == NULL || !d->complete || d->status != IDNG_OK) {
        idng_display_unicode_known_to(wire, len, sink, ctx);
        return;
    }
    idng_wire_start(&it, wire, len);
    for (i = 0; idng_wire_step(&it, &lab, &n) == IDNG_WIRE_LABEL; i++) {
        if (i < d->nlab && d->n[i] > 0 && idng_is_ace((const char *)lab, n)) {
            for (k = 0; k < d->n[i]; k++)
                put_codepoint(sink, ctx, d->cp[d->start[i] + k]);
        } else if (idng_is_ace((const char *)lab, n)) {
            put_ace(sink, ctx, lab, n); /* not handed over: decoded here */
        } else {
            idng_display_label_to(lab, n, sink, ctx);
        }
        sink(ctx, ".", 1);
    }
}

int idng_display_unicode_to(const uint8_t *wire, size_t len, idng_mode mode,
                            idng_display_sink *sink, void *ctx)
{
    if (!idng_display_has_unicode(wire, len, mode))
        return 0;
    idng_display_unicode_known_to(wire, len, sink, ctx);
    return 1;
}

/* How many octets at p[0..len) (len >= 1) idng_display_text_to shows as
 * themselves: 1 for printable ASCII but '\\', the length of a UTF-8
 * sequence of a code point idng_display_safe() accepts, else 0 (the octet,
 * or the code point *cp of the *seq octets, is escaped). */
static inline size_t text_self(const unsigned char *p, size_t len, uint32_t *cp, size_t *seq)
{
    size_t m;

    if (p[0] >= 0x20 && p[0] < 0x7F && p[0] != '\\')
        return 1;
    m = p[0] < 0x80 ? 0 : idng_utf8_valid(p, len);
    *seq = m;
    if (m == 0)
        return 0;
    idng_utf8_decode_valid(p, cp);
    return idng_display_safe(*cp) ? m : 0;
}

void idng_display_text_to(const char *s, size_t len, idng_display_sink *sink, void *ctx)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;

    while (i < len) {
        uint32_t cp = 0;
        size_t seq = 0, m = text_self(p + i, len - i, &cp, &seq);

        if (m > 0) {
            sink(ctx, s + i, m);
            i += m;
        } else if (seq == 0) {
            idng_display_octet_to(p[i], sink, ctx);
            i++;
        } else {
            put_u(sink, ctx, cp);
            i += seq;
        }
    }
}

size_t idng_display_text_plain(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0, m, seq;
    uint32_t cp;

    while (i < len && (m = text_self(p + i, len - i, &cp, &seq)) > 0)
        i += m;
    return i;
}

size_t idng_display_label(const uint8_t *label, size_t len, char *out, size_t cap)
{
    struct idng_display_buf b;

    idng_display_buf_init(&b, out, cap);
    idng_display_label_to(label, len, idng_display_put, &b);
    return b.len;
}

size_t idng_display_name(const uint8_t *wire, size_t len, char *out, size_t cap)
{
    struct idng_display_buf b;

    idng_display_buf_init(&b, out, cap);
    idng_display_name_to(wire, len, idng_display_put, &b);
    return b.len;
}

size_t idng_display_unicode(const uint8_t *wire, size_t len, idng_mode mode, char *out, size_t cap)
{
    struct idng_display_buf b;

    idng_display_buf_init(&b, out, cap);
    idng_display_unicode_to(wire, len, mode, idng_display_put, &b);
    return b.len;
}

size_t idng_display_text(const char *s, size_t len, char *out, size_t cap)
{
    struct idng_display_buf b;

    idng_display_buf_init(&b, out, cap);
    idng_display_text_to(s, len, idng_display_put, &b);
    return b.len;
}
