/**
 * \file
 * The Dnstap protobuf decoder (idng_dnstap.h states the wire rules).
 *
 * One loop over Dnstap's fields; the `message` field (Message) is walked
 * by a second loop over its octets, in place, so there is no recursion
 * and each octet is read once.  Known fields are checked against a small
 * table of their wire types and then stored by a switch.
 */
#include "idng_dnstap.h"

#include <string.h>

/* Wire types (protobuf encoding guide). */
enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2, WT_SGROUP = 3, WT_EGROUP = 4, WT_I32 = 5 };

/* In the tables below a field's wire type is stored plus one, so that the
 * entries left out (0) stand for unknown fields. */
#define W(wt) ((wt) + 1)

/* Largest field number protobuf allows (2^29 - 1). */
#define FIELD_MAX 0x1FFFFFFFu

/* One field as read off the wire. */
struct pb_field {
    uint32_t num;
    unsigned wt;
    uint64_t v;       /* VARINT, I64, I32 */
    const uint8_t *p; /* LEN */
    size_t len;
};

/* Wire type of each known field, by number. */
static const uint8_t dnstap_wt[] = {
    [IDNG_DT_F_IDENTITY] = W(WT_LEN),
    [IDNG_DT_F_VERSION] = W(WT_LEN),
    [IDNG_DT_F_EXTRA] = W(WT_LEN),
    [IDNG_DT_F_MESSAGE] = W(WT_LEN),
    [IDNG_DT_F_TYPE] = W(WT_VARINT),
};

static const uint8_t message_wt[] = {
    [IDNG_DT_M_TYPE] = W(WT_VARINT),
    [IDNG_DT_M_SOCKET_FAMILY] = W(WT_VARINT),
    [IDNG_DT_M_SOCKET_PROTOCOL] = W(WT_VARINT),
    [IDNG_DT_M_QUERY_ADDRESS] = W(WT_LEN),
    [IDNG_DT_M_RESPONSE_ADDRESS] = W(WT_LEN),
    [IDNG_DT_M_QUERY_PORT] = W(WT_VARINT),
    [IDNG_DT_M_RESPONSE_PORT] = W(WT_VARINT),
    [IDNG_DT_M_QUERY_TIME_SEC] = W(WT_VARINT),
    [IDNG_DT_M_QUERY_TIME_NSEC] = W(WT_I32),
    [IDNG_DT_M_QUERY_MESSAGE] = W(WT_LEN),
    [IDNG_DT_M_QUERY_ZONE] = W(WT_LEN),
    [IDNG_DT_M_RESPONSE_TIME_SEC] = W(WT_VARINT),
    [IDNG_DT_M_RESPONSE_TIME_NSEC] = W(WT_I32),
    [IDNG_DT_M_RESPONSE_MESSAGE] = W(WT_LEN),
    [IDNG_DT_M_POLICY] = W(WT_LEN),
    [IDNG_DT_M_HTTP_PROTOCOL] = W(WT_VARINT),
};

/* A varint at b[*pos..len): at most 10 octets, bits past 64 dropped. */
static idng_tap_status varint_long(const uint8_t *b, size_t len, size_t *pos, uint64_t *v)
{
    size_t i = *pos, k;
    uint64_t r = 0;

    for (k = 0; k < 10; k++) {
        uint8_t c;
        if (i >= len)
            return IDNG_TAP_E_PB_VARINT_TRUNCATED;
        c = b[i++];
        r |= (uint64_t)(c & 0x7F) << (7 * k); /* k = 9: only bit 63 is kept */
        if (!(c & 0x80)) {
            *v = r;
            *pos = i;
            return IDNG_TAP_OK;
        }
    }
    return IDNG_TAP_E_PB_VARINT_TOO_LONG;
}

/* The same, with one-octet values (most keys, lengths and enums) read
 * without the loop. */
static inline idng_tap_status varint(const uint8_t *b, size_t len, size_t *pos, uint64_t *v)
{
    if (*pos < len && b[*pos] < 0x80) {
        *v = b[(*pos)++];
        return IDNG_TAP_OK;
    }
    return varint_long(b, len, pos, v);
}

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    while (n-- > 0)
        v = v << 8 | p[n];
    return v;
}

/* The field at b[*pos..len): its key, then its value by wire type.
 * Inline in both loops, so that the field stays in registers. */
static inline __attribute__((always_inline)) idng_tap_status
pb_next(const uint8_t *b, size_t len, size_t *pos, struct pb_field *f)
{
    uint64_t key;
    idng_tap_status st;

    if ((st = varint(b, len, pos, &key)) != IDNG_TAP_OK)
        return st;
    if (key >> 3 == 0 || key >> 3 > FIELD_MAX)
        return IDNG_TAP_E_PB_FIELD_NUMBER;
    f->num = (uint32_t)(key >> 3);
    f->wt = (unsigned)(key & 7);
    switch (f->wt) {
    case WT_VARINT:
        return varint(b, len, pos, &f->v);
    case WT_I64:
    case WT_I32: {
        unsigned n = f->wt == WT_I64 ? 8 : 4;
        if (len - *pos < n)
            return IDNG_TAP_E_PB_FIXED_TRUNCATED;
        f->v = le(b + *pos, n);
        *pos += n;
        return IDNG_TAP_OK;
    }
    case WT_LEN: {
        uint64_t n;
        if ((st = varint(b, len, pos, &n)) != IDNG_TAP_OK)
            return st;
        if (n > len - *pos)
            return IDNG_TAP_E_PB_LENGTH;
        f->p = b + *pos;
        f->len = (size_t)n;
        *pos += (size_t)n;
        return IDNG_TAP_OK;
    }
    case WT_SGROUP:
    case WT_EGROUP:
        return IDNG_TAP_E_PB_GROUP;
    default:
        return IDNG_TAP_E_PB_WIRE_TYPE;
    }
}

/* Is field f known in the table, and with its wire type?  1 known, 0
 * unknown (to skip); a wrong wire type is an error. */
static idng_tap_status known(const uint8_t *table, size_t n, const struct pb_field *f, int *is)
{
    *is = f->num < n && table[f->num] != 0;
    if (*is && table[f->num] != W(f->wt))
        return IDNG_TAP_E_PB_FIELD_WIRE_TYPE;
    return IDNG_TAP_OK;
}

static void set_bytes(idng_dt_bytes *b, const struct pb_field *f)
{
    b->p = f->p;
    b->len = f->len;
}

/* An address field: 4 or 16 octets (dnstap.proto, query_address). */
static idng_tap_status set_address(idng_dt_bytes *b, const struct pb_field *f)
{
    if (f->len != 4 && f->len != 16)
        return IDNG_TAP_E_DT_ADDRESS_LENGTH;
    set_bytes(b, f);
    return IDNG_TAP_OK;
}

/* The fields of one Message, merged into d. */
static idng_tap_status message(const uint8_t *b, size_t len, idng_dnstap *d)
{
    size_t pos = 0;
    struct pb_field f = {0};
    idng_tap_status st;
    int is;

    while (pos < len) {
        if ((st = pb_next(b, len, &pos, &f)) != IDNG_TAP_OK
            || (st = known(message_wt, sizeof message_wt, &f, &is)) != IDNG_TAP_OK)
            return st;
        if (!is)
            continue;
        switch (f.num) {
        case IDNG_DT_M_TYPE:
            d->mtype = (uint32_t)f.v;
            d->present |= IDNG_DT_HAS_MTYPE;
            break;
        case IDNG_DT_M_SOCKET_FAMILY:
            d->family = (uint32_t)f.v;
            d->present |= IDNG_DT_HAS_FAMILY;
            break;
        case IDNG_DT_M_SOCKET_PROTOCOL:
            d->protocol = (uint32_t)f.v;
            d->present |= IDNG_DT_HAS_PROTOCOL;
            break;
        case IDNG_DT_M_QUERY_ADDRESS:
            if ((st = set_address(&d->qaddr, &f)) != IDNG_TAP_OK)
                return st;
            d->present |= IDNG_DT_HAS_QADDR;
            break;
        case IDNG_DT_M_RESPONSE_ADDRESS:
            if ((st = set_address(&d->raddr, &f)) != IDNG_TAP_OK)
                return st;
            d->present |= IDNG_DT_HAS_RADDR;
            break;
        case IDNG_DT_M_QUERY_PORT:
            d->qport = (uint32_t)f.v;
            d->present |= IDNG_DT_HAS_QPORT;
            break;
        case IDNG_DT_M_RESPONSE_PORT:
            d->rport = (uint32_t)f.v;
            d->present |= IDNG_DT_HAS_RPORT;
            break;
        case IDNG_DT_M_QUERY_TIME_SEC:
            d->qtime_sec = f.v;
            d->present |= IDNG_DT_HAS_QTIME_SEC;
            break;
        case IDNG_DT_M_QUERY_TIME_NSEC:
            d->qtime_nsec = (uint32_t)f.v;
            d->present |= IDNG_DT_HAS_QTIME_NSEC;
            break;
        case IDNG_DT_M_QUERY_MESSAGE:
            set_bytes(&d->qmsg, &f);
            d->present |= IDNG_DT_HAS_QMSG;
            break;
        case IDNG_DT_M_QUERY_ZONE:
            set_bytes(&d->qzone, &f);
            d->present |= IDNG_DT_HAS_QZONE;
            break;
        case IDNG_DT_M_RESPONSE_TIME_SEC:
            d->rtime_sec = f.v;
            d->present |= IDNG_DT_HAS_RTIME_SEC;
            break;
        case IDNG_DT_M_RESPONSE_TIME_NSEC:
            d->rtime_nsec = (uint32_t)f.v;
            d->present |= IDNG_DT_HAS_RTIME_NSEC;
            break;
        case IDNG_DT_M_RESPONSE_MESSAGE:
            set_bytes(&d->rmsg, &f);
            d->present |= IDNG_DT_HAS_RMSG;
            break;
        case IDNG_DT_M_POLICY:
            /* Kept whole: a second one would merge, but nothing here reads it. */
            set_bytes(&d->policy, &f);
            d->present |= IDNG_DT_HAS_POLICY;
            break;
        default: /* IDNG_DT_M_HTTP_PROTOCOL */
            d->http_protocol = (uint32_t)f.v;
            d->present |= IDNG_DT_HAS_HTTP;
            break;
        }
    }
    return IDNG_TAP_OK;
}

idng_tap_status idng_dnstap_decode(const uint8_t *buf, size_t len, idng_dnstap *d)
{
    size_t pos = 0;
    struct pb_field f = {0};
    idng_tap_status st;
    int is;

    memset(d, 0, sizeof *d);
    while (pos < len) {
        if ((st = pb_next(buf, len, &pos, &f)) != IDNG_TAP_OK
            || (st = known(dnstap_wt, sizeof dnstap_wt, &f, &is)) != IDNG_TAP_OK)
            return st;
        if (!is)
            continue;
        switch (f.num) {
        case IDNG_DT_F_IDENTITY:
            set_bytes(&d->identity, &f);
            d->present |= IDNG_DT_HAS_IDENTITY;
            break;
        case IDNG_DT_F_VERSION:
            set_bytes(&d->version, &f);
            d->present |= IDNG_DT_HAS_VERSION;
            break;
        case IDNG_DT_F_EXTRA:
            set_bytes(&d->extra, &f);
            d->present |= IDNG_DT_HAS_EXTRA;
            break;
        case IDNG_DT_F_MESSAGE:
            d->present |= IDNG_DT_HAS_MESSAGE;
            if ((st = message(f.p, f.len, d)) != IDNG_TAP_OK)
                return st;
            break;
        default: /* IDNG_DT_F_TYPE */
            d->type = (uint32_t)f.v;
            d->present |= IDNG_DT_HAS_TYPE;
            break;
        }
    }
    if (!(d->present & IDNG_DT_HAS_TYPE))
        return IDNG_TAP_E_DT_NO_TYPE;
    if ((d->present & IDNG_DT_HAS_MESSAGE) && !(d->present & IDNG_DT_HAS_MTYPE))
        return IDNG_TAP_E_DT_NO_MESSAGE_TYPE;
    return IDNG_TAP_OK;
}

const char *idng_dnstap_mtype_name(uint32_t mtype)
{
    static const char *const names[] = {
        NULL,           "AUTH_QUERY",      "AUTH_RESPONSE",   "RESOLVER_QUERY",
        "RESOLVER_RESPONSE", "CLIENT_QUERY", "CLIENT_RESPONSE", "FORWARDER_QUERY",
        "FORWARDER_RESPONSE", "STUB_QUERY", "STUB_RESPONSE",   "TOOL_QUERY",
        "TOOL_RESPONSE", "UPDATE_QUERY",   "UPDATE_RESPONSE"};
    return mtype < sizeof names / sizeof names[0] ? names[mtype] : NULL;
}

const char *idng_dnstap_protocol_name(uint32_t protocol)
{
    static const char *const names[] = {NULL, "UDP", "TCP", "DOT", "DOH",
                                        "DNSCryptUDP", "DNSCryptTCP", "DOQ"};
    return protocol < sizeof names / sizeof names[0] ? names[protocol] : NULL;
}
