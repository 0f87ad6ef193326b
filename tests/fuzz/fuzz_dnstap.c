/**
 * \file
 * Fuzz target: the Dnstap decoder (tap/idng_dnstap.h), and the DNS reader
 * on the messages it finds.  The input is one Dnstap message.
 *
 * Invariants: the status is a tap status; every byte field present lies
 * inside the input and no absent one is set; addresses are 4 or 16 octets;
 * on success the required types are there; decoding is deterministic
 * (twice, same struct); re-encoding the decoded fields (canonically) and
 * decoding that gives the same values.
 */
#include "fuzz_common.h"
#include "idng_dnsmsg.h"
#include "idng_dnstap.h"

static int inside(idng_dt_bytes b, const uint8_t *buf, size_t len)
{
    return b.len <= len && b.p >= buf && (size_t)(b.p - buf) <= len - b.len;
}

/* ---- a small canonical encoder, independent of the decoder ---- */
struct out {
    uint8_t *b;
    size_t n, cap;
};

static void put(struct out *o, uint8_t c)
{
    FUZZ_CHECK(o->n < o->cap, "encoder overflow");
    o->b[o->n++] = c;
}

static void put_varint(struct out *o, uint64_t v)
{
    while (v >= 0x80) {
        put(o, (uint8_t)(v | 0x80));
        v >>= 7;
    }
    put(o, (uint8_t)v);
}

static void put_bytes(struct out *o, unsigned field, idng_dt_bytes b)
{
    size_t i;
    put_varint(o, (uint64_t)field << 3 | 2);
    put_varint(o, b.len);
    for (i = 0; i < b.len; i++)
        put(o, b.p[i]);
}

static void put_uint(struct out *o, unsigned field, uint64_t v)
{
    put_varint(o, (uint64_t)field << 3);
    put_varint(o, v);
}

static void put_fixed32(struct out *o, unsigned field, uint32_t v)
{
    put_varint(o, (uint64_t)field << 3 | 5);
    put(o, (uint8_t)v);
    put(o, (uint8_t)(v >> 8));
    put(o, (uint8_t)(v >> 16));
    put(o, (uint8_t)(v >> 24));
}

static void encode_message(struct out *o, const idng_dnstap *d)
{
#define HAS(bit) (d->present & IDNG_DT_HAS_##bit)
    if (HAS(MTYPE)) put_uint(o, IDNG_DT_M_TYPE, d->mtype);
    if (HAS(FAMILY)) put_uint(o, IDNG_DT_M_SOCKET_FAMILY, d->family);
    if (HAS(PROTOCOL)) put_uint(o, IDNG_DT_M_SOCKET_PROTOCOL, d->protocol);
    if (HAS(QADDR)) put_bytes(o, IDNG_DT_M_QUERY_ADDRESS, d->qaddr);
    if (HAS(RADDR)) put_bytes(o, IDNG_DT_M_RESPONSE_ADDRESS, d->raddr);
    if (HAS(QPORT)) put_uint(o, IDNG_DT_M_QUERY_PORT, d->qport);
    if (HAS(RPORT)) put_uint(o, IDNG_DT_M_RESPONSE_PORT, d->rport);
    if (HAS(QTIME_SEC)) put_uint(o, IDNG_DT_M_QUERY_TIME_SEC, d->qtime_sec);
    if (HAS(QTIME_NSEC)) put_fixed32(o, IDNG_DT_M_QUERY_TIME_NSEC, d->qtime_nsec);
    if (HAS(QMSG)) put_bytes(o, IDNG_DT_M_QUERY_MESSAGE, d->qmsg);
    if (HAS(QZONE)) put_bytes(o, IDNG_DT_M_QUERY_ZONE, d->qzone);
    if (HAS(RTIME_SEC)) put_uint(o, IDNG_DT_M_RESPONSE_TIME_SEC, d->rtime_sec);
    if (HAS(RTIME_NSEC)) put_fixed32(o, IDNG_DT_M_RESPONSE_TIME_NSEC, d->rtime_nsec);
    if (HAS(RMSG)) put_bytes(o, IDNG_DT_M_RESPONSE_MESSAGE, d->rmsg);
    if (HAS(POLICY)) put_bytes(o, IDNG_DT_M_POLICY, d->policy);
    if (HAS(HTTP)) put_uint(o, IDNG_DT_M_HTTP_PROTOCOL, d->http_protocol);
}

static void check_same(const idng_dnstap *a, const idng_dnstap *b)
{
#define SAME_BYTES(f) (a->f.len == b->f.len && (a->f.len == 0 || !memcmp(a->f.p, b->f.p, a->f.len)))
    FUZZ_CHECK(a->present == b->present, "present %x, again %x", a->present, b->present);
    FUZZ_CHECK(a->type == b->type && a->mtype == b->mtype && a->family == b->family
                   && a->protocol == b->protocol && a->http_protocol == b->http_protocol
                   && a->qport == b->qport && a->rport == b->rport
                   && a->qtime_sec == b->qtime_sec && a->qtime_nsec == b->qtime_nsec
                   && a->rtime_sec == b->rtime_sec && a->rtime_nsec == b->rtime_nsec,
               "scalars differ");
    FUZZ_CHECK(SAME_BYTES(identity) && SAME_BYTES(version) && SAME_BYTES(extra)
                   && SAME_BYTES(qaddr) && SAME_BYTES(raddr) && SAME_BYTES(qmsg)
                   && SAME_BYTES(qzone) && SAME_BYTES(rmsg) && SAME_BYTES(policy),
               "bytes differ");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *buf = fuzz_dup(data, size);
    idng_dnstap d, d2;
    idng_tap_status st = idng_dnstap_decode(buf, size, &d);
    idng_dnsmsg m;

    FUZZ_CHECK(st <= 0 && st >= IDNG_TAP_E_DT_ADDRESS_LENGTH
                   && (st == IDNG_TAP_OK || st <= IDNG_TAP_E_PB_VARINT_TRUNCATED),
               "status %d", st);
    {
        const idng_dt_bytes *fields[] = {&d.identity, &d.version, &d.extra, &d.qaddr, &d.raddr,
                                         &d.qmsg,     &d.qzone,   &d.rmsg,  &d.policy};
        size_t i;
        for (i = 0; i < sizeof fields / sizeof fields[0]; i++)
            FUZZ_CHECK(fields[i]->p == NULL ? fields[i]->len == 0 : inside(*fields[i], buf, size),
                       "field %zu outside the input", i);
    }
    if (d.present & IDNG_DT_HAS_QADDR)
        FUZZ_CHECK(d.qaddr.len == 4 || d.qaddr.len == 16, "query_address of %zu", d.qaddr.len);
    FUZZ_CHECK(idng_dnstap_decode(buf, size, &d2) == st, "not deterministic");
    check_same(&d, &d2);
    if (st == IDNG_TAP_OK) {
        struct out o, msg;
        FUZZ_CHECK(d.present & IDNG_DT_HAS_TYPE, "OK without type");
        msg.cap = size + 64;
        msg.b = fuzz_alloc(msg.cap);
        msg.n = 0;
        encode_message(&msg, &d);
        o.cap = size + 128;
        o.b = fuzz_alloc(o.cap);
        o.n = 0;
        if (d.present & IDNG_DT_HAS_IDENTITY) put_bytes(&o, IDNG_DT_F_IDENTITY, d.identity);
        if (d.present & IDNG_DT_HAS_VERSION) put_bytes(&o, IDNG_DT_F_VERSION, d.version);
        if (d.present & IDNG_DT_HAS_EXTRA) put_bytes(&o, IDNG_DT_F_EXTRA, d.extra);
        if (d.present & IDNG_DT_HAS_MESSAGE) {
            idng_dt_bytes mb = {msg.b, msg.n};
            put_bytes(&o, IDNG_DT_F_MESSAGE, mb);
        }
        put_uint(&o, IDNG_DT_F_TYPE, d.type);
        FUZZ_CHECK(idng_dnstap_decode(o.b, o.n, &d2) == IDNG_TAP_OK, "re-encoded fails");
        check_same(&d, &d2);
        free(msg.b);
        free(o.b);
        if (d.present & IDNG_DT_HAS_QMSG) {
            idng_dnsmsg_parse(d.qmsg.p, d.qmsg.len, &m);
            FUZZ_CHECK(m.parsed <= d.qmsg.len, "DNS reader past its message");
        }
    }
    free(buf);
    return 0;
}
