/**
 * \file
 * Builders of test inputs for the tap suites: big-endian integers, wire
 * names, DNS messages with OPT records, protobuf fields.  Header-only
 * (static inline), independent of the decoders under test.
 */
#ifndef IDNG_TESTS_TAP_BUILD_H
#define IDNG_TESTS_TAP_BUILD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/** A message under construction. */
struct tb {
    uint8_t b[8192];
    size_t n;
};

static inline void tb_u8(struct tb *t, unsigned v)
{
    if (t->n < sizeof t->b)
        t->b[t->n++] = (uint8_t)v;
}

static inline void tb_be16(struct tb *t, unsigned v)
{
    tb_u8(t, v >> 8 & 0xFF);
    tb_u8(t, v & 0xFF);
}

static inline void tb_be32(struct tb *t, uint32_t v)
{
    tb_be16(t, v >> 16);
    tb_be16(t, v & 0xFFFF);
}

static inline void tb_bytes(struct tb *t, const void *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        tb_u8(t, ((const uint8_t *)p)[i]);
}

/** A text name ("www.example", "" or "." for the root) as wire labels
 *  and the root label; no escapes. */
static inline void tb_name(struct tb *t, const char *text)
{
    while (*text && strcmp(text, ".") != 0) {
        const char *dot = strchr(text, '.');
        size_t l = dot ? (size_t)(dot - text) : strlen(text);
        tb_u8(t, (unsigned)l);
        tb_bytes(t, text, l);
        text += l + (dot != NULL);
    }
    tb_u8(t, 0);
}

static inline void tb_header(struct tb *t, unsigned id, unsigned flags, unsigned qd, unsigned an,
                             unsigned ns, unsigned ar)
{
    tb_be16(t, id);
    tb_be16(t, flags);
    tb_be16(t, qd);
    tb_be16(t, an);
    tb_be16(t, ns);
    tb_be16(t, ar);
}

static inline void tb_question(struct tb *t, const char *name, unsigned type, unsigned cls)
{
    tb_name(t, name);
    tb_be16(t, type);
    tb_be16(t, cls);
}

/** A record's fixed part after its owner name. */
static inline void tb_rr_fixed(struct tb *t, unsigned type, unsigned cls, uint32_t ttl,
                               unsigned rdlen)
{
    tb_be16(t, type);
    tb_be16(t, cls);
    tb_be32(t, ttl);
    tb_be16(t, rdlen);
}

/** An A record owned by a compression pointer to offset 12. */
static inline void tb_a_ptr(struct tb *t, uint32_t addr)
{
    tb_be16(t, 0xC00C);
    tb_rr_fixed(t, 1, 1, 300, 4);
    tb_be32(t, addr);
}

/** An OPT record at the root; opts (optlen octets) is its rdata. */
static inline void tb_opt(struct tb *t, unsigned udp, unsigned ext_rcode, unsigned version,
                          unsigned flags, const void *opts, size_t optlen)
{
    tb_u8(t, 0);
    tb_rr_fixed(t, 41, udp, (uint32_t)ext_rcode << 24 | (uint32_t)version << 16 | flags,
                (unsigned)optlen);
    tb_bytes(t, opts, optlen);
}

/** An EDE option (RFC 8914): code 15, info-code, text. */
static inline void tb_ede(struct tb *t, unsigned info, const char *text)
{
    tb_be16(t, 15);
    tb_be16(t, 2 + (unsigned)strlen(text));
    tb_be16(t, info);
    tb_bytes(t, text, strlen(text));
}

/* ---- protobuf ---- */

static inline void tb_varint(struct tb *t, uint64_t v)
{
    while (v >= 0x80) {
        tb_u8(t, (unsigned)(v & 0x7F) | 0x80);
        v >>= 7;
    }
    tb_u8(t, (unsigned)v);
}

static inline void tb_key(struct tb *t, uint32_t field, unsigned wt)
{
    tb_varint(t, (uint64_t)field << 3 | wt);
}

static inline void tb_pb_varint(struct tb *t, uint32_t field, uint64_t v)
{
    tb_key(t, field, 0);
    tb_varint(t, v);
}

static inline void tb_pb_bytes(struct tb *t, uint32_t field, const void *p, size_t n)
{
    tb_key(t, field, 2);
    tb_varint(t, n);
    tb_bytes(t, p, n);
}

static inline void tb_pb_fixed32(struct tb *t, uint32_t field, uint32_t v)
{
    tb_key(t, field, 5);
    tb_u8(t, v & 0xFF);
    tb_u8(t, v >> 8 & 0xFF);
    tb_u8(t, v >> 16 & 0xFF);
    tb_u8(t, v >> 24);
}

#endif
