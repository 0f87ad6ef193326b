/**
 * \file
 * The Dnstap decoder (tap/dnstap.c): every field, protobuf's merge and
 * last-value rules, unknown fields of each wire type, every status, every
 * prefix at a guard page; and the field numbers and enum values against
 * Unbound's copy of dnstap.proto (IDNGUARD_DNSTAP_PROTO), so that a drift
 * between the schema and idng_dnstap.h is caught.
 */
#include "common.h"
#include "idng_dnstap.h"
#include "tap_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t v4[4] = {192, 0, 2, 1};
static const uint8_t v6[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x53};

/* A Message with every field the decoder knows. */
static void full_message(struct tb *m)
{
    m->n = 0;
    tb_pb_varint(m, IDNG_DT_M_TYPE, IDNG_DT_CLIENT_QUERY);
    tb_pb_varint(m, IDNG_DT_M_SOCKET_FAMILY, IDNG_DT_INET6);
    tb_pb_varint(m, IDNG_DT_M_SOCKET_PROTOCOL, IDNG_DT_DOH);
    tb_pb_bytes(m, IDNG_DT_M_QUERY_ADDRESS, v6, 16);
    tb_pb_bytes(m, IDNG_DT_M_RESPONSE_ADDRESS, v4, 4);
    tb_pb_varint(m, IDNG_DT_M_QUERY_PORT, 53000);
    tb_pb_varint(m, IDNG_DT_M_RESPONSE_PORT, 443);
    tb_pb_varint(m, IDNG_DT_M_QUERY_TIME_SEC, 1700000000);
    tb_pb_fixed32(m, IDNG_DT_M_QUERY_TIME_NSEC, 123456789);
    tb_pb_bytes(m, IDNG_DT_M_QUERY_MESSAGE, "QQ", 2);
    tb_pb_bytes(m, IDNG_DT_M_QUERY_ZONE, "\7example\0", 9);
    tb_pb_varint(m, IDNG_DT_M_RESPONSE_TIME_SEC, 1700000001);
    tb_pb_fixed32(m, IDNG_DT_M_RESPONSE_TIME_NSEC, 999999999);
    tb_pb_bytes(m, IDNG_DT_M_RESPONSE_MESSAGE, "RRR", 3);
    tb_pb_bytes(m, IDNG_DT_M_POLICY, "\x0a\x03RPZ", 5);
    tb_pb_varint(m, IDNG_DT_M_HTTP_PROTOCOL, IDNG_DT_HTTP2);
}

static void wrap(struct tb *t, const struct tb *m)
{
    t->n = 0;
    tb_pb_bytes(t, IDNG_DT_F_IDENTITY, "ns1", 3);
    tb_pb_bytes(t, IDNG_DT_F_VERSION, "unbound 1.17.1", 14);
    tb_pb_bytes(t, IDNG_DT_F_EXTRA, "", 0);
    tb_pb_bytes(t, IDNG_DT_F_MESSAGE, m->b, m->n);
    tb_pb_varint(t, IDNG_DT_F_TYPE, IDNG_DT_TYPE_MESSAGE);
}

static int bytes_eq(idng_dt_bytes b, const void *p, size_t n)
{
    return b.len == n && (n == 0 || memcmp(b.p, p, n) == 0);
}

START_TEST(test_full)
{
    struct tb m, t;
    idng_dnstap d;

    full_message(&m);
    wrap(&t, &m);
    ck_assert_int_eq(idng_dnstap_decode(t.b, t.n, &d), IDNG_TAP_OK);
    ck_assert_uint_eq(d.present, (1u << 21) - 1);
    ck_assert(bytes_eq(d.identity, "ns1", 3));
    ck_assert(bytes_eq(d.version, "unbound 1.17.1", 14));
    ck_assert(bytes_eq(d.extra, "", 0));
    ck_assert_uint_eq(d.type, 1);
    ck_assert_uint_eq(d.mtype, IDNG_DT_CLIENT_QUERY);
    ck_assert_uint_eq(d.family, IDNG_DT_INET6);
    ck_assert_uint_eq(d.protocol, IDNG_DT_DOH);
    ck_assert_uint_eq(d.http_protocol, IDNG_DT_HTTP2);
    ck_assert(bytes_eq(d.qaddr, v6, 16));
    ck_assert(bytes_eq(d.raddr, v4, 4));
    ck_assert_uint_eq(d.qport, 53000);
    ck_assert_uint_eq(d.rport, 443);
    ck_assert_uint_eq(d.qtime_sec, 1700000000);
    ck_assert_uint_eq(d.qtime_nsec, 123456789);
    ck_assert_uint_eq(d.rtime_sec, 1700000001);
    ck_assert_uint_eq(d.rtime_nsec, 999999999);
    ck_assert(bytes_eq(d.qmsg, "QQ", 2));
    ck_assert(bytes_eq(d.qzone, "\7example\0", 9));
    ck_assert(bytes_eq(d.rmsg, "RRR", 3));
    ck_assert(bytes_eq(d.policy, "\x0a\x03RPZ", 5));
    /* Pointers point into the buffer. */
    ck_assert(d.qmsg.p > t.b && d.qmsg.p + d.qmsg.len <= t.b + t.n);
    ck_assert_str_eq(idng_dnstap_mtype_name(d.mtype), "CLIENT_QUERY");
    ck_assert_str_eq(idng_dnstap_protocol_name(d.protocol), "DOH");
}
END_TEST

START_TEST(test_names)
{
    uint32_t i;
    for (i = 1; i <= 14; i++)
        ck_assert_ptr_nonnull(idng_dnstap_mtype_name(i));
    ck_assert_str_eq(idng_dnstap_mtype_name(IDNG_DT_UPDATE_RESPONSE), "UPDATE_RESPONSE");
    ck_assert_ptr_null(idng_dnstap_mtype_name(0));
    ck_assert_ptr_null(idng_dnstap_mtype_name(15));
    ck_assert_str_eq(idng_dnstap_protocol_name(IDNG_DT_DNSCRYPT_TCP), "DNSCryptTCP");
    ck_assert_str_eq(idng_dnstap_protocol_name(IDNG_DT_DOQ), "DOQ");
    ck_assert_ptr_null(idng_dnstap_protocol_name(0));
    ck_assert_ptr_null(idng_dnstap_protocol_name(8));
}
END_TEST

/* Protobuf semantics: the last value wins; a second message merges. */
START_TEST(test_merge)
{
    struct tb m1 = {{0}, 0}, m2 = {{0}, 0}, t = {{0}, 0};
    idng_dnstap d;

    tb_pb_varint(&m1, IDNG_DT_M_TYPE, IDNG_DT_CLIENT_QUERY);
    tb_pb_varint(&m1, IDNG_DT_M_QUERY_PORT, 1);
    tb_pb_varint(&m1, IDNG_DT_M_QUERY_PORT, 2);
    tb_pb_bytes(&m1, IDNG_DT_M_QUERY_MESSAGE, "a", 1);
    tb_pb_varint(&m2, IDNG_DT_M_RESPONSE_PORT, 53);
    tb_pb_bytes(&m2, IDNG_DT_M_QUERY_MESSAGE, "bb", 2);
    tb_pb_varint(&t, IDNG_DT_F_TYPE, 7);
    tb_pb_bytes(&t, IDNG_DT_F_MESSAGE, m1.b, m1.n);
    tb_pb_bytes(&t, IDNG_DT_F_IDENTITY, "x", 1);
    tb_pb_bytes(&t, IDNG_DT_F_MESSAGE, m2.b, m2.n);
    tb_pb_bytes(&t, IDNG_DT_F_IDENTITY, "yz", 2);
    tb_pb_varint(&t, IDNG_DT_F_TYPE, IDNG_DT_TYPE_MESSAGE);
    ck_assert_int_eq(idng_dnstap_decode(t.b, t.n, &d), IDNG_TAP_OK);
    ck_assert_uint_eq(d.type, 1);
    ck_assert_uint_eq(d.mtype, IDNG_DT_CLIENT_QUERY); /* from the first, kept */
    ck_assert_uint_eq(d.qport, 2);
    ck_assert_uint_eq(d.rport, 53);
    ck_assert(bytes_eq(d.qmsg, "bb", 2));
    ck_assert(bytes_eq(d.identity, "yz", 2));
    /* Message.type may come in the second part only: merged, it is there. */
    t.n = 0;
    tb_pb_varint(&t, IDNG_DT_F_TYPE, 1);
    tb_pb_bytes(&t, IDNG_DT_F_MESSAGE, m2.b, m2.n);
    tb_pb_bytes(&t, IDNG_DT_F_MESSAGE, m1.b, m1.n);
    ck_assert_int_eq(idng_dnstap_decode(t.b, t.n, &d), IDNG_TAP_OK);
    /* No message at all is fine; an empty one lacks its type. */
    t.n = 0;
    tb_pb_varint(&t, IDNG_DT_F_TYPE, 1);
    ck_assert_int_eq(idng_dnstap_decode(t.b, t.n, &d), IDNG_TAP_OK);
    ck_assert_uint_eq(d.present, IDNG_DT_HAS_TYPE);
    tb_pb_bytes(&t, IDNG_DT_F_MESSAGE, "", 0);
    ck_assert_int_eq(idng_dnstap_decode(t.b, t.n, &d), IDNG_TAP_E_DT_NO_MESSAGE_TYPE);
}
END_TEST

/* Unknown fields of every valid wire type are skipped, in both messages;
 * varints take their low 32 bits where the field is 32-bit. */
START_TEST(test_unknown_and_varints)
{
    struct tb m = {{0}, 0}, t = {{0}, 0};
    idng_dnstap d;
    int k;

    tb_pb_varint(&m, 99, 5);
    tb_key(&m, 100, 1);
    for (k = 0; k < 8; k++)
        tb_u8(&m, 0xFF);
    tb_pb_bytes(&m, 0x1FFFFFFF, "zz", 2);
    tb_pb_fixed32(&m, 17, 1);
    tb_pb_varint(&m, IDNG_DT_M_TYPE, UINT64_MAX); /* a negative enum: 10 octets */
    tb_pb_varint(&m, IDNG_DT_M_QUERY_PORT, 0x100000035ull);
    tb_pb_varint(&m, IDNG_DT_M_QUERY_TIME_SEC, UINT64_MAX);
    tb_pb_varint(&t, IDNG_DT_F_TYPE, 1);
    tb_pb_varint(&t, 4, 1);
    tb_pb_bytes(&t, 13, "x", 1);
    tb_pb_bytes(&t, IDNG_DT_F_MESSAGE, m.b, m.n);
    tb_pb_fixed32(&t, 16, 1);
    ck_assert_int_eq(idng_dnstap_decode(t.b, t.n, &d), IDNG_TAP_OK);
    ck_assert_uint_eq(d.mtype, 0xFFFFFFFFu);
    ck_assert_uint_eq(d.qport, 0x35);
    ck_assert_uint_eq(d.qtime_sec, UINT64_MAX);
    ck_assert_uint_eq(d.present, IDNG_DT_HAS_TYPE | IDNG_DT_HAS_MESSAGE | IDNG_DT_HAS_MTYPE
                                     | IDNG_DT_HAS_QPORT | IDNG_DT_HAS_QTIME_SEC);
    /* A padded (non-minimal) varint of 10 octets is still one varint. */
    t.n = 0;
    tb_key(&t, IDNG_DT_F_TYPE, 0);
    for (k = 0; k < 9; k++)
        tb_u8(&t, k == 0 ? 0x81 : 0x80);
    tb_u8(&t, 0x7F); /* bits past 64: dropped */
    ck_assert_int_eq(idng_dnstap_decode(t.b, t.n, &d), IDNG_TAP_OK);
    ck_assert_uint_eq(d.type, 1);
}
END_TEST

/* Malformed inputs: raw octets (after a valid Dnstap.type) and status. */
struct bad {
    const char *what;
    const char *octets;
    size_t len;
    int in_message; /* wrapped as the Message's contents (after its type) */
    idng_tap_status st;
};

#define BAD(what, s, inmsg, st) {what, s, sizeof(s) - 1, inmsg, st}

static const struct bad bads[] = {
    BAD("key ends inside its varint", "\x80", 0, IDNG_TAP_E_PB_VARINT_TRUNCATED),
    BAD("value ends inside its varint", "\x20\xff", 0, IDNG_TAP_E_PB_VARINT_TRUNCATED),
    BAD("length ends inside its varint", "\x0a\x80", 0, IDNG_TAP_E_PB_VARINT_TRUNCATED),
    BAD("varint of 11 octets", "\x20\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 0,
        IDNG_TAP_E_PB_VARINT_TOO_LONG),
    BAD("key of 11 octets", "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 0,
        IDNG_TAP_E_PB_VARINT_TOO_LONG),
    BAD("field number 0", "\x00\x01", 0, IDNG_TAP_E_PB_FIELD_NUMBER),
    BAD("field number 0, length", "\x02\x00", 0, IDNG_TAP_E_PB_FIELD_NUMBER),
    BAD("field number 2^29", "\x80\x80\x80\x80\x10\x00", 0, IDNG_TAP_E_PB_FIELD_NUMBER),
    BAD("wire type 6", "\x26", 0, IDNG_TAP_E_PB_WIRE_TYPE),
    BAD("wire type 7", "\x0f", 0, IDNG_TAP_E_PB_WIRE_TYPE),
    BAD("start group", "\x23\x24", 0, IDNG_TAP_E_PB_GROUP),
    BAD("end group", "\x24", 0, IDNG_TAP_E_PB_GROUP),
    BAD("group in Message", "\x2b", 1, IDNG_TAP_E_PB_GROUP),
    BAD("type as bytes", "\x7a\x01\x01", 0, IDNG_TAP_E_PB_FIELD_WIRE_TYPE),
    BAD("identity as varint", "\x08\x01", 0, IDNG_TAP_E_PB_FIELD_WIRE_TYPE),
    BAD("message as fixed32", "\x75\x01\x02\x03\x04", 0, IDNG_TAP_E_PB_FIELD_WIRE_TYPE),
    BAD("query_time_nsec as varint", "\x48\x01", 1, IDNG_TAP_E_PB_FIELD_WIRE_TYPE),
    BAD("query_time_sec as fixed64", "\x41\1\2\3\4\5\6\7\x08", 1, IDNG_TAP_E_PB_FIELD_WIRE_TYPE),
    BAD("query_message as varint", "\x50\x01", 1, IDNG_TAP_E_PB_FIELD_WIRE_TYPE),
    BAD("bytes past the end", "\x0a\x05" "abcd", 0, IDNG_TAP_E_PB_LENGTH),
    BAD("huge length", "\x0a\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 0, IDNG_TAP_E_PB_LENGTH),
    BAD("bytes past the Message", "\x52\x02" "a", 1, IDNG_TAP_E_PB_LENGTH),
    BAD("fixed32 short", "\x1d\x01\x02\x03", 0, IDNG_TAP_E_PB_FIXED_TRUNCATED),
    BAD("fixed64 short", "\x19\1\2\3\4\5\6\7", 0, IDNG_TAP_E_PB_FIXED_TRUNCATED),
    BAD("query_time_nsec short", "\x4d\x01\x02", 1, IDNG_TAP_E_PB_FIXED_TRUNCATED),
    BAD("empty query_address", "\x22\x00", 1, IDNG_TAP_E_DT_ADDRESS_LENGTH),
    BAD("5-octet query_address", "\x22\x05" "abcde", 1, IDNG_TAP_E_DT_ADDRESS_LENGTH),
    BAD("15-octet response_address", "\x2a\x0f" "abcdefghijklmno", 1,
        IDNG_TAP_E_DT_ADDRESS_LENGTH),
    BAD("17-octet query_address", "\x22\x11" "abcdefghijklmnopq", 1,
        IDNG_TAP_E_DT_ADDRESS_LENGTH),
};

START_TEST(test_bad)
{
    const struct bad *b = &bads[_i];
    struct tb m = {{0}, 0}, t = {{0}, 0};
    idng_dnstap d;
    idng_tap_status st;

    tb_pb_varint(&t, IDNG_DT_F_TYPE, 1);
    if (b->in_message) {
        tb_pb_varint(&m, IDNG_DT_M_TYPE, 5);
        tb_bytes(&m, b->octets, b->len);
        tb_pb_bytes(&t, IDNG_DT_F_MESSAGE, m.b, m.n);
    } else {
        tb_bytes(&t, b->octets, b->len);
    }
    st = idng_dnstap_decode(t.b, t.n, &d);
    ck_assert_msg(st == b->st, "%s: %s, expected %s", b->what, idng_tap_status_symbol(st),
                  idng_tap_status_symbol(b->st));
}
END_TEST

START_TEST(test_required)
{
    struct tb t = {{0}, 0};
    idng_dnstap d;

    ck_assert_int_eq(idng_dnstap_decode(t.b, 0, &d), IDNG_TAP_E_DT_NO_TYPE);
    tb_pb_bytes(&t, IDNG_DT_F_IDENTITY, "ns1", 3);
    ck_assert_int_eq(idng_dnstap_decode(t.b, t.n, &d), IDNG_TAP_E_DT_NO_TYPE);
    ck_assert(bytes_eq(d.identity, "ns1", 3)); /* what came before stays */
    tb_pb_bytes(&t, IDNG_DT_F_MESSAGE, "\x30\x05", 2); /* query_port only */
    tb_pb_varint(&t, IDNG_DT_F_TYPE, 1);
    ck_assert_int_eq(idng_dnstap_decode(t.b, t.n, &d), IDNG_TAP_E_DT_NO_MESSAGE_TYPE);
}
END_TEST

/* Every prefix of a full message at a guard page: a status, no stray read. */
START_TEST(test_prefixes)
{
    struct tb m, t;
    struct t_guard g;
    idng_dnstap d;
    size_t k, ok = 0;

    full_message(&m);
    wrap(&t, &m);
    t_guard_open(&g);
    for (k = 0; k <= t.n; k++) {
        const unsigned char *p = t_guard_put(&g, t.b, k);
        idng_tap_status st = idng_dnstap_decode(p, k, &d);
        ck_assert_int_le(st, 0);
        ck_assert_int_ge(st, IDNG_TAP_E_DT_ADDRESS_LENGTH);
        ok += st == IDNG_TAP_OK;
    }
    ck_assert_uint_eq(ok, 1); /* Dnstap.type is last */
    t_guard_close(&g);
}
END_TEST

/* ---- the schema ---- */

struct schema_entry {
    const char *path; /* scope.name, as dnstap.proto nests it */
    unsigned value;
    int since_117;    /* in Unbound 1.17's copy (older copies lack the rest) */
};

static const struct schema_entry schema[] = {
    {"Dnstap.identity", IDNG_DT_F_IDENTITY, 1},
    {"Dnstap.version", IDNG_DT_F_VERSION, 1},
    {"Dnstap.extra", IDNG_DT_F_EXTRA, 1},
    {"Dnstap.type", IDNG_DT_F_TYPE, 1},
    {"Dnstap.message", IDNG_DT_F_MESSAGE, 1},
    {"Dnstap.Type.MESSAGE", IDNG_DT_TYPE_MESSAGE, 1},
    {"SocketFamily.INET", IDNG_DT_INET, 1},
    {"SocketFamily.INET6", IDNG_DT_INET6, 1},
    {"SocketProtocol.UDP", IDNG_DT_UDP, 1},
    {"SocketProtocol.TCP", IDNG_DT_TCP, 1},
    {"SocketProtocol.DOT", IDNG_DT_DOT, 0},
    {"SocketProtocol.DOH", IDNG_DT_DOH, 0},
    {"SocketProtocol.DNSCryptUDP", IDNG_DT_DNSCRYPT_UDP, 0},
    {"SocketProtocol.DNSCryptTCP", IDNG_DT_DNSCRYPT_TCP, 0},
    {"SocketProtocol.DOQ", IDNG_DT_DOQ, 0},
    {"HttpProtocol.HTTP1", IDNG_DT_HTTP1, 0},
    {"HttpProtocol.HTTP2", IDNG_DT_HTTP2, 0},
    {"HttpProtocol.HTTP3", IDNG_DT_HTTP3, 0},
    {"Message.Type.AUTH_QUERY", IDNG_DT_AUTH_QUERY, 1},
    {"Message.Type.AUTH_RESPONSE", IDNG_DT_AUTH_RESPONSE, 1},
    {"Message.Type.RESOLVER_QUERY", IDNG_DT_RESOLVER_QUERY, 1},
    {"Message.Type.RESOLVER_RESPONSE", IDNG_DT_RESOLVER_RESPONSE, 1},
    {"Message.Type.CLIENT_QUERY", IDNG_DT_CLIENT_QUERY, 1},
    {"Message.Type.CLIENT_RESPONSE", IDNG_DT_CLIENT_RESPONSE, 1},
    {"Message.Type.FORWARDER_QUERY", IDNG_DT_FORWARDER_QUERY, 1},
    {"Message.Type.FORWARDER_RESPONSE", IDNG_DT_FORWARDER_RESPONSE, 1},
    {"Message.Type.STUB_QUERY", IDNG_DT_STUB_QUERY, 1},
    {"Message.Type.STUB_RESPONSE", IDNG_DT_STUB_RESPONSE, 1},
    {"Message.Type.TOOL_QUERY", IDNG_DT_TOOL_QUERY, 0},
    {"Message.Type.TOOL_RESPONSE", IDNG_DT_TOOL_RESPONSE, 0},
    {"Message.Type.UPDATE_QUERY", IDNG_DT_UPDATE_QUERY, 0},
    {"Message.Type.UPDATE_RESPONSE", IDNG_DT_UPDATE_RESPONSE, 0},
    {"Message.type", IDNG_DT_M_TYPE, 1},
    {"Message.socket_family", IDNG_DT_M_SOCKET_FAMILY, 1},
    {"Message.socket_protocol", IDNG_DT_M_SOCKET_PROTOCOL, 1},
    {"Message.query_address", IDNG_DT_M_QUERY_ADDRESS, 1},
    {"Message.response_address", IDNG_DT_M_RESPONSE_ADDRESS, 1},
    {"Message.query_port", IDNG_DT_M_QUERY_PORT, 1},
    {"Message.response_port", IDNG_DT_M_RESPONSE_PORT, 1},
    {"Message.query_time_sec", IDNG_DT_M_QUERY_TIME_SEC, 1},
    {"Message.query_time_nsec", IDNG_DT_M_QUERY_TIME_NSEC, 1},
    {"Message.query_message", IDNG_DT_M_QUERY_MESSAGE, 1},
    {"Message.query_zone", IDNG_DT_M_QUERY_ZONE, 1},
    {"Message.response_time_sec", IDNG_DT_M_RESPONSE_TIME_SEC, 1},
    {"Message.response_time_nsec", IDNG_DT_M_RESPONSE_TIME_NSEC, 1},
    {"Message.response_message", IDNG_DT_M_RESPONSE_MESSAGE, 1},
    {"Message.policy", IDNG_DT_M_POLICY, 0},
    {"Message.http_protocol", IDNG_DT_M_HTTP_PROTOCOL, 0},
};
#define NSCHEMA (sizeof schema / sizeof schema[0])

/* Scopes the decoder reads: everything the file defines in them must be
 * in the table above (a new field is noticed).  Policy is skipped whole. */
static int decoded_scope(const char *path)
{
    static const char *const scopes[] = {"Dnstap.", "SocketFamily.", "SocketProtocol.",
                                         "HttpProtocol.", "Message."};
    size_t i;
    for (i = 0; i < sizeof scopes / sizeof scopes[0]; i++)
        if (strncmp(path, scopes[i], strlen(scopes[i])) == 0)
            return 1;
    return 0;
}

START_TEST(test_schema)
{
    const char *file = getenv("IDNGUARD_DNSTAP_PROTO");
    char line[512], scope[8][64], path[256];
    int depth = 0, seen[NSCHEMA] = {0};
    size_t i, found = 0;
    FILE *fp;

    if (file == NULL || *file == '\0') {
        printf("test_schema: IDNGUARD_DNSTAP_PROTO unset (no Unbound source tree): skipped\n");
        return;
    }
    fp = fopen(file, "r");
    ck_assert_msg(fp != NULL, "cannot open %s", file);
    while (fgets(line, sizeof line, fp)) {
        char *c = strstr(line, "//"), name[64], kind[16];
        unsigned value;
        if (c)
            *c = '\0';
        if (sscanf(line, " %15s %63s {", kind, name) == 2
            && (!strcmp(kind, "message") || !strcmp(kind, "enum"))) {
            ck_assert_int_lt(depth, 8);
            snprintf(scope[depth++], sizeof scope[0], "%s", name);
            continue;
        }
        if (strchr(line, '}')) {
            ck_assert_int_gt(depth, 0);
            depth--;
            continue;
        }
        c = strchr(line, '=');
        if (c == NULL || sscanf(c, "= %u ;", &value) != 1)
            continue;
        /* The name is the word before '='. */
        while (c > line && c[-1] == ' ')
            c--;
        *c = '\0';
        while (c > line && c[-1] != ' ' && c[-1] != '\t')
            c--;
        path[0] = '\0';
        for (i = 0; i < (size_t)depth; i++) {
            strcat(path, scope[i]);
            strcat(path, ".");
        }
        strcat(path, c);
        for (i = 0; i < NSCHEMA; i++)
            if (!strcmp(schema[i].path, path))
                break;
        if (i == NSCHEMA) {
            ck_assert_msg(!decoded_scope(path), "%s = %u in %s: unknown to idng_dnstap.h",
                          path, value, file);
            continue;
        }
        ck_assert_msg(schema[i].value == value, "%s = %u in %s, %u in idng_dnstap.h", path,
                      value, file, schema[i].value);
        seen[i] = 1;
        found++;
    }
    fclose(fp);
    for (i = 0; i < NSCHEMA; i++)
        ck_assert_msg(seen[i] || !schema[i].since_117, "%s missing from %s", schema[i].path,
                      file);
    printf("test_schema: %zu of %zu numbers checked against %s\n", found, NSCHEMA, file);
}
END_TEST

static Suite *dnstap_suite(void)
{
    Suite *s = suite_create("tap/dnstap");
    TCase *tc = tcase_create("decode");

    tcase_add_test(tc, test_full);
    tcase_add_test(tc, test_names);
    tcase_add_test(tc, test_merge);
    tcase_add_test(tc, test_unknown_and_varints);
    tcase_add_loop_test(tc, test_bad, 0, (int)(sizeof bads / sizeof bads[0]));
    tcase_add_test(tc, test_required);
    tcase_add_test(tc, test_prefixes);
    tcase_add_test(tc, test_schema);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(dnstap_suite)
