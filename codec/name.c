/**
 * \file
 * DNS names: the codec's one walk over wire-format labels, with every
 * malformation told apart from the end of the name; wire name lengths,
 * label comparison and the below-or-equal test; the full-stop rule and the
 * text-to-wire conversion; the "xn--" prefix test.
 *
 * Every other file of the codec that walks a wire or text name does it
 * through this unit (or its inline steps in idna_internal.h), so that a
 * name is split in one way only.
 */
#include "idna_internal.h"

int idng_is_ace(const char *label, size_t len)
{
    return idng_ace_prefix((const unsigned char *)label, len);
}

size_t idng_full_stop(const char *s, size_t len)
{
    return idng_full_stop_at((const unsigned char *)s, len);
}

/* ---- Wire names ---- */

void idng_wire_iter_init(idng_wire_iter *it, const uint8_t *wire, size_t len)
{
    idng_wire_start(it, wire, len);
}

int idng_wire_next(idng_wire_iter *it, const uint8_t **label, size_t *label_len)
{
    return idng_wire_step(it, label, label_len);
}

idng_status idng_wire_status(const idng_wire_iter *it, idng_error *err)
{
    idng_status st = IDNG_E_INVAL;
    size_t off = it->pos, len = 0;

    if (it->fault == IDNG_WIRE_OK) {
        off = 0;
        st = IDNG_OK;
    } else if (it->fault == IDNG_WIRE_TOO_LONG || it->fault == IDNG_WIRE_TOO_MANY) {
        /* The name up to the end of the label that did not fit. */
        off = 0;
        len = it->pos + 1 + it->wire[it->pos];
        st = IDNG_E_NAME_TOO_LONG;
    }
    return idng_fail(err, st, off, len, IDNG_NO_CODEPOINT);
}

size_t idng_wire_len(const uint8_t *wire, size_t len)
{
    idng_wire_iter it;

    idng_wire_start(&it, wire, len);
    return idng_wire_skip(&it) == IDNG_WIRE_END ? it.pos + 1 : 0;
}

idng_wire_fault idng_wire_decompress(const uint8_t *msg, size_t len, size_t off, uint8_t *out,
                                     size_t *outlen, size_t *next)
{
    size_t start = off, n = 0, after = 0;

    if (off >= len)
        return IDNG_WIRE_NO_ROOT;
    /* One run of labels at a time, from start to its root label or its
     * pointer; the runs' labels are copied one after the other. */
    for (;;) {
        idng_wire_iter it;
        const uint8_t *label;
        size_t l, to;

        idng_wire_start(&it, msg + start, len - start);
        while (idng_wire_step(&it, &label, &l) == IDNG_WIRE_LABEL)
            if (n + it.pos + 1 > IDNG_WIRE_MAX)
                return IDNG_WIRE_TOO_LONG;
        if (it.fault == IDNG_WIRE_OK) { /* the root label */
            memcpy(out + n, msg + start, it.pos + 1);
            *outlen = n + it.pos + 1;
            if (next)
                *next = start == off ? start + it.pos + 1 : after;
            return IDNG_WIRE_OK;
        }
        if (it.fault != IDNG_WIRE_POINTER)
            return it.fault;
        if (it.len - it.pos < 2)
            return IDNG_WIRE_TRUNCATED;
        to = (size_t)(msg[start + it.pos] & 0x3F) << 8 | msg[start + it.pos + 1];
        if (to >= start)
            return IDNG_WIRE_POINTER;
        memcpy(out + n, msg + start, it.pos);
        n += it.pos;
        if (start == off)
            after = start + it.pos + 2;
        start = to;
    }
}

static uint16_t be16(const uint8_t *b)
{
    return (uint16_t)(b[0] << 8 | b[1]);
}

/* The owner walked in place: a pointer ends it and is not followed.
 * Returns 1 when it is usable; rr->fault says IDNG_WIRE_OK, or
 * IDNG_WIRE_POINTER for one ended by a pointer, or why it is not usable. */
static int owner_in_place(const uint8_t *msg, size_t len, idng_wire_rr *rr)
{
    idng_wire_iter it;
    const uint8_t *label;
    size_t n;

    idng_wire_start(&it, msg + rr->owner, len - rr->owner);
    while (idng_wire_step(&it, &label, &n) == IDNG_WIRE_LABEL)
        ;
    rr->fault = it.fault;
    if (it.fault == IDNG_WIRE_OK)
        rr->owner_end = rr->owner + it.pos + 1;
    else if (it.fault == IDNG_WIRE_POINTER && it.len - it.pos >= 2)
        rr->owner_end = rr->owner + it.pos + 2;
    else
        return 0;
    return 1;
}

idng_wire_rr_status idng_wire_rr_read(const uint8_t *msg, size_t len, size_t off,
                                      uint8_t *owner_out, idng_wire_rr *rr)
{
    const uint8_t *h;

    memset(rr, 0, sizeof *rr);
    rr->owner = off;
    if (off >= len) {
        rr->fault = IDNG_WIRE_NO_ROOT;
        return IDNG_WIRE_RR_NAME;
    }
    if (owner_out) {
        rr->fault = idng_wire_decompress(msg, len, off, owner_out, &rr->owner_len, &rr->owner_end);
        if (rr->fault != IDNG_WIRE_OK)
            return IDNG_WIRE_RR_NAME;
    } else if (!owner_in_place(msg, len, rr))
        return IDNG_WIRE_RR_NAME;
    if (len - rr->owner_end < 10)
        return IDNG_WIRE_RR_SHORT;
    h = msg + rr->owner_end;
    rr->type = be16(h);
    rr->rclass = be16(h + 2);
    rr->ttl = (uint32_t)be16(h + 4) << 16 | be16(h + 6);
    rr->rdlength = be16(h + 8);
    rr->rdata = rr->owner_end + 10;
    rr->end = rr->rdata + rr->rdlength;
    if (rr->rdlength > len - rr->rdata)
        return IDNG_WIRE_RR_RDATA;
    return IDNG_WIRE_RR_OK;
}

static unsigned char fold(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

int idng_label_casecmp(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    size_t i, n = alen < blen ? alen : blen;

    for (i = 0; i < n; i++) {
        unsigned char x = fold(a[i]), y = fold(b[i]);
        if (x != y)
            return x < y ? -1 : 1;
    }
    return (alen > blen) - (alen < blen);
}

int idng_wire_is_below(const uint8_t *name, size_t name_len, const uint8_t *apex,
                       size_t apex_len)
{
    size_t nlen = idng_wire_len(name, name_len), alen = idng_wire_len(apex, apex_len), n;
    idng_wire_iter it;
    const uint8_t *label;

    if (nlen == 0 || alen == 0 || alen > nlen)
        return 0;
    /* The apex must begin where a label of the name begins; from there on
     * the octets, length octets included, must match.  Length octets are
     * below 64, so folding letters leaves them alone. */
    idng_wire_start(&it, name, nlen);
    while (nlen - it.pos > alen && idng_wire_step(&it, &label, &n) == IDNG_WIRE_LABEL)
        ;
    return nlen - it.pos == alen && idng_label_casecmp(name + it.pos, alen, apex, alen) == 0;
}

/* ---- Text names ---- */

idng_status idng_text_to_wire(const char *text, size_t len, uint8_t *out, size_t *outlen,
                              idng_error *err)
{
    struct idng_text_iter it;
    size_t off, n, stop, o = 0, labels = 0, cap = *outlen;

    idng_text_start(&it, text, len, IDNG_TEXT_STOPS);
    while (idng_text_next(&it, &off, &n, &stop)) {
        if (n == 0) {
            /* A full stop at the end is the root; alone, it is the root name. */
            if ((stop == 0 && labels > 0) || (labels == 0 && stop > 0 && stop == len))
                break;
            return idng_fail(err, IDNG_E_EMPTY_LABEL, off, 0, IDNG_NO_CODEPOINT);
        }
        if (n > IDNG_LABEL_MAX)
            return idng_fail(err, IDNG_E_LABEL_TOO_LONG, off, n, IDNG_NO_CODEPOINT);
        if (o + 1 + n + 1 > IDNG_WIRE_MAX)
            return idng_fail(err, IDNG_E_NAME_TOO_LONG, 0, len, IDNG_NO_CODEPOINT);
        if (o + 1 + n <= cap) {
            out[o] = (uint8_t)n;
            memcpy(out + o + 1, text + off, n);
        }
        o += 1 + n;
        labels++;
    }
    if (o < cap)
        out[o] = 0;
    *outlen = ++o;
    if (o > cap)
        return idng_fail(err, IDNG_E_NOSPACE, 0, len, IDNG_NO_CODEPOINT);
    return idng_fail(err, IDNG_OK, 0, 0, IDNG_NO_CODEPOINT);
}
