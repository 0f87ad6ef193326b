/**
 * \file
 * Internal: what the codec's own files share and the public header does
 * not show.  The DNS-name unit's inline steps live here so that the fast
 * paths, which call them once per label, compile them into their loops.
 */
#ifndef IDNG_IDNA_INTERNAL_H
#define IDNG_IDNA_INTERNAL_H

#include "idnguard.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* One step of a wire walk: idng_wire_next is this, out of line. */
static inline int idng_wire_step(idng_wire_iter *it, const uint8_t **label, size_t *label_len)
{
    size_t pos = it->pos, l;

    if (it->fault != IDNG_WIRE_OK)
        return IDNG_WIRE_BAD;
    if (pos >= it->len) {
        it->fault = IDNG_WIRE_NO_ROOT;
        return IDNG_WIRE_BAD;
    }
    l = it->wire[pos];
    if (l == 0)
        return IDNG_WIRE_END;
    if (l > IDNG_LABEL_MAX)
        it->fault = l >= 0xC0 ? IDNG_WIRE_POINTER : IDNG_WIRE_LABEL_TYPE;
    else if (pos + 1 + l > it->len)
        it->fault = IDNG_WIRE_TRUNCATED;
    else if (pos + 1 + l + 1 > IDNG_WIRE_MAX)
        it->fault = IDNG_WIRE_TOO_LONG;
    else if (it->labels == IDNG_LABELS_MAX) /* defence: 255 octets hold 127 labels */
        it->fault = IDNG_WIRE_TOO_MANY;
    if (it->fault != IDNG_WIRE_OK)
        return IDNG_WIRE_BAD;
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

/*
 * A walk over the labels of a text name, split at every full stop
 * (idng_full_stop), or with dots_only at U+002E alone (the DNS text form,
 * where other octets >= 0x80 belong to the label).  Every label is
 * returned, empty ones included: a name that ends with a full stop ends
 * with an empty label, and an empty text is one empty label.
 */
struct idng_text_iter {
    const unsigned char *s;
    size_t len, pos;
    int dots_only, done;
};

static inline void idng_text_start(struct idng_text_iter *it, const char *s, size_t len,
                                   int dots_only)
{
    it->s = (const unsigned char *)s;
    it->len = len;
    it->pos = 0;
    it->dots_only = dots_only;
    it->done = 0;
}

/* The next label, s[*off, *off + *len), and the length of the full stop
 * after it in *stop (0 for the last label); returns 0 after the last. */
static inline int idng_text_next(struct idng_text_iter *it, size_t *off, size_t *len,
                                 size_t *stop)
{
    size_t i = it->pos, sep = 0;

    if (it->done)
        return 0;
    if (it->dots_only) {
        const void *dot = i < it->len ? memchr(it->s + i, '.', it->len - i) : NULL;
        i = dot ? (size_t)((const unsigned char *)dot - it->s) : it->len;
        sep = dot != NULL;
    } else {
        for (; i < it->len; i++)
            if ((it->s[i] == '.' || it->s[i] >= 0x80)
                && (sep = idng_full_stop((const char *)it->s + i, it->len - i)) != 0)
                break;
    }
    *off = it->pos;
    *len = i - it->pos;
    *stop = sep;
    it->pos = i + sep;
    it->done = sep == 0;
    return 1;
}

#endif /* IDNG_IDNA_INTERNAL_H */
