/**
 * \file
 * The DNS message reader (tap/dnsmsg.c): a full response with OPT and EDE,
 * compressed and malformed question names, every status, every prefix at
 * a guard page.  tests/tap/test_dnsmsg_ldns.c compares it with ldns.
 */
#include "common.h"
#include "idng_dnsmsg.h"
#include "tap_build.h"

#include <string.h>

/* A response: www.example. A, one answer, one NS, OPT with two EDEs. */
static void response(struct tb *t)
{
    struct tb o = {{0}, 0};

    tb_be16(&o, 10); /* a cookie first */
    tb_be16(&o, 8);
    tb_bytes(&o, "12345678", 8);
    tb_ede(&o, 18, "blocked by idnguard");
    tb_ede(&o, 3, "second");
    t->n = 0;
    tb_header(t, 0xBEEF, IDNG_DNS_QR | IDNG_DNS_RD | IDNG_DNS_RA | IDNG_DNS_AD | 3, 1, 1, 1, 1);
    tb_question(t, "www.example", 1, 1);
    tb_a_ptr(t, 0xC0000201);
    tb_name(t, "example");
    tb_rr_fixed(t, 2, 1, 3600, 6);
    tb_bytes(t, "\3ns1\xc0\x10", 6);
    tb_opt(t, 1232, 0x01, 0, 0x8000, o.b, o.n);
}

START_TEST(test_response)
{
    struct tb t;
    idng_dnsmsg m;

    response(&t);
    ck_assert_int_eq(idng_dnsmsg_parse(t.b, t.n, &m), IDNG_TAP_OK);
    ck_assert_uint_eq(m.id, 0xBEEF);
    ck_assert(m.flags & IDNG_DNS_QR);
    ck_assert(m.flags & IDNG_DNS_AD);
    ck_assert(!(m.flags & IDNG_DNS_AA));
    ck_assert_uint_eq(IDNG_DNS_OPCODE(m.flags), 0);
    ck_assert_uint_eq(m.rcode, 0x13); /* 3 | 1 << 4: BADVERS-range */
    ck_assert_uint_eq(m.qdcount, 1);
    ck_assert_uint_eq(m.arcount, 1);
    ck_assert(m.has_question);
    ck_assert_uint_eq(m.qname_len, 13);
    ck_assert(memcmp(m.qname, "\3www\7example\0", 13) == 0);
    ck_assert_int_eq(m.qname_fault, IDNG_WIRE_OK);
    ck_assert_int_eq(m.qname_status, IDNG_OK);
    ck_assert_uint_eq(m.qtype, 1);
    ck_assert_uint_eq(m.qclass, 1);
    ck_assert(m.has_opt);
    ck_assert_uint_eq(m.udp_size, 1232);
    ck_assert_uint_eq(m.edns_version, 0);
    ck_assert(m.dnssec_ok);
    ck_assert(m.has_ede);
    ck_assert_uint_eq(m.ede_code, 18);
    ck_assert_uint_eq(m.ede_text_len, 19);
    ck_assert(memcmp(m.ede_text, "blocked by idnguard", 19) == 0);
    ck_assert_uint_eq(m.parsed, t.n);
    /* Trailing octets: tolerated, and parsed says where the message ended. */
    tb_bytes(&t, "\0\0", 2);
    ck_assert_int_eq(idng_dnsmsg_parse(t.b, t.n, &m), IDNG_TAP_OK);
    ck_assert_uint_eq(m.parsed, t.n - 2);
}
END_TEST

START_TEST(test_query_forms)
{
    struct tb t = {{0}, 0};
    idng_dnsmsg m;

    /* No question, no OPT: only the header. */
    tb_header(&t, 7, 0x2800 | 5, 0, 0, 0, 0); /* opcode 5 (UPDATE), rcode 5 */
    ck_assert_int_eq(idng_dnsmsg_parse(t.b, t.n, &m), IDNG_TAP_OK);
    ck_assert(!m.has_question);
    ck_assert_ptr_null(m.qname);
    ck_assert_uint_eq(IDNG_DNS_OPCODE(m.flags), 5);
    ck_assert_uint_eq(m.rcode, 5);
    ck_assert(!m.has_opt);
    /* A root question, an EDNS version 1 OPT without options. */
    t.n = 0;
    tb_header(&t, 1, IDNG_DNS_CD, 1, 0, 0, 1);
    tb_question(&t, ".", 2, 3);
    tb_opt(&t, 4096, 0, 1, 0, NULL, 0);
    ck_assert_int_eq(idng_dnsmsg_parse(t.b, t.n, &m), IDNG_TAP_OK);
    ck_assert_uint_eq(m.qname_len, 1);
    ck_assert_uint_eq(m.qclass, 3);
    ck_assert_uint_eq(m.edns_version, 1);
    ck_assert(!m.dnssec_ok);
    ck_assert(!m.has_ede);
    /* A compressed question name: reported, and the parse goes on. */
    t.n = 0;
    tb_header(&t, 2, 0, 2, 0, 0, 0);
    tb_question(&t, "example", 1, 1);
    tb_u8(&t, 3);
    tb_bytes(&t, "www", 3);
    tb_be16(&t, 0xC00C);
    tb_be16(&t, 28);
    tb_be16(&t, 1);
    ck_assert_int_eq(idng_dnsmsg_parse(t.b + 0, t.n, &m), IDNG_TAP_OK);
    /* The second question is compressed; now make it the first one (its
     * pointer points at itself: not followed, so harmless). */
    memmove(t.b + 12, t.b + 25, t.n - 25);
    t.n -= 13;
    t.b[5] = 1;
    ck_assert_int_eq(idng_dnsmsg_parse(t.b, t.n, &m), IDNG_TAP_OK);
    ck_assert_int_eq(m.qname_fault, IDNG_WIRE_POINTER);
    ck_assert_int_eq(m.qname_status, IDNG_E_INVAL);
    ck_assert_uint_eq(m.qname_len, 6);
    ck_assert_uint_eq(m.qtype, 28);
    /* An OPT record outside the additional section is an ordinary record. */
    t.n = 0;
    tb_header(&t, 3, 0, 0, 1, 0, 0);
    tb_name(&t, "x");
    tb_rr_fixed(&t, 41, 512, 0xFF000000u, 0);
    ck_assert_int_eq(idng_dnsmsg_parse(t.b, t.n, &m), IDNG_TAP_OK);
    ck_assert(!m.has_opt);
}
END_TEST

/* Malformed messages: built by a function, then the status expected. */
struct bad {
    const char *what;
    void (*build)(struct tb *t);
    idng_tap_status st;
};

static void b_header(struct tb *t)
{
    tb_bytes(t, "\0\1\0\0\0\1\0\0\0\0\0", 11);
}

static void b_qname_label_type(struct tb *t)
{
    tb_header(t, 1, 0, 1, 0, 0, 0);
    tb_bytes(t, "\x40xxxx\0\0\1\0\1", 10);
}

static void b_qname_truncated(struct tb *t)
{
    tb_header(t, 1, 0, 1, 0, 0, 0);
    tb_bytes(t, "\7exa", 4);
}

static void b_qname_no_root(struct tb *t)
{
    tb_header(t, 1, 0, 1, 0, 0, 0);
    tb_bytes(t, "\3www", 4);
}

static void b_qname_half_pointer(struct tb *t)
{
    tb_header(t, 1, 0, 1, 0, 0, 0);
    tb_u8(t, 0xC0);
}

static void b_qname_too_long(struct tb *t)
{
    int i;
    tb_header(t, 1, 0, 1, 0, 0, 0);
    for (i = 0; i < 5; i++) {
        tb_u8(t, 63);
        while (t->n % 64 != 13 % 64 && t->n < sizeof t->b)
            tb_u8(t, 'a');
    }
    tb_u8(t, 0);
    tb_be32(t, 0x00010001);
}

static void b_question_short(struct tb *t)
{
    tb_header(t, 1, 0, 1, 0, 0, 0);
    tb_name(t, "a");
    tb_be16(t, 1);
    tb_u8(t, 0);
}

static void b_second_question_short(struct tb *t)
{
    tb_header(t, 1, 0, 2, 0, 0, 0);
    tb_question(t, "a", 1, 1);
    tb_name(t, "b");
}

static void b_second_question_name(struct tb *t)
{
    tb_header(t, 1, 0, 2, 0, 0, 0);
    tb_question(t, "a", 1, 1);
    tb_u8(t, 0x80);
}

static void b_rr_name(struct tb *t)
{
    tb_header(t, 1, 0x8000, 1, 1, 0, 0);
    tb_question(t, "a", 1, 1);
    tb_bytes(t, "\5ab", 3);
}

static void b_rr_short(struct tb *t)
{
    tb_header(t, 1, 0x8000, 1, 1, 0, 0);
    tb_question(t, "a", 1, 1);
    tb_be16(t, 0xC00C);
    tb_be32(t, 0x00010001);
}

static void b_rr_missing(struct tb *t)
{
    tb_header(t, 1, 0x8000, 1, 2, 0, 0);
    tb_question(t, "a", 1, 1);
    tb_a_ptr(t, 1);
}

static void b_rdata_short(struct tb *t)
{
    tb_header(t, 1, 0x8000, 1, 1, 0, 0);
    tb_question(t, "a", 1, 1);
    tb_be16(t, 0xC00C);
    tb_rr_fixed(t, 1, 1, 0, 4);
    tb_bytes(t, "\1\2\3", 3);
}

static void b_opt_owner(struct tb *t)
{
    tb_header(t, 1, 0, 1, 0, 0, 1);
    tb_question(t, "a", 1, 1);
    tb_name(t, "a");
    tb_rr_fixed(t, 41, 1232, 0, 0);
}

static void b_opt_owner_pointer(struct tb *t)
{
    tb_header(t, 1, 0, 1, 0, 0, 1);
    tb_question(t, "a", 1, 1);
    tb_be16(t, 0xC00C);
    tb_rr_fixed(t, 41, 1232, 0, 0);
}

static void b_opt_dup(struct tb *t)
{
    tb_header(t, 1, 0, 1, 0, 0, 2);
    tb_question(t, "a", 1, 1);
    tb_opt(t, 1232, 0, 0, 0, NULL, 0);
    tb_opt(t, 1232, 0, 0, 0, NULL, 0);
}

static void b_opt_option_header(struct tb *t)
{
    tb_header(t, 1, 0, 1, 0, 0, 1);
    tb_question(t, "a", 1, 1);
    tb_opt(t, 1232, 0, 0, 0, "\0\x0f\0", 3);
}

static void b_opt_option_length(struct tb *t)
{
    tb_header(t, 1, 0, 1, 0, 0, 1);
    tb_question(t, "a", 1, 1);
    tb_opt(t, 1232, 0, 0, 0, "\0\x0f\0\3\0\1", 6);
}

static void b_ede_short(struct tb *t)
{
    tb_header(t, 1, 0, 1, 0, 0, 1);
    tb_question(t, "a", 1, 1);
    tb_opt(t, 1232, 0, 0, 0, "\0\x0f\0\1\7", 5);
}

static const struct bad bads[] = {
    {"11-octet header", b_header, IDNG_TAP_E_DNS_HEADER_SHORT},
    {"qname label type 0x40", b_qname_label_type, IDNG_TAP_E_DNS_QNAME},
    {"qname label past the end", b_qname_truncated, IDNG_TAP_E_DNS_QNAME},
    {"qname without root", b_qname_no_root, IDNG_TAP_E_DNS_QNAME},
    {"qname: half a pointer", b_qname_half_pointer, IDNG_TAP_E_DNS_QNAME},
    {"qname over 255 octets", b_qname_too_long, IDNG_TAP_E_DNS_QNAME},
    {"qclass cut", b_question_short, IDNG_TAP_E_DNS_QUESTION_SHORT},
    {"second question cut", b_second_question_short, IDNG_TAP_E_DNS_QUESTION_SHORT},
    {"second question's name", b_second_question_name, IDNG_TAP_E_DNS_RR_NAME},
    {"answer owner cut", b_rr_name, IDNG_TAP_E_DNS_RR_NAME},
    {"answer header cut", b_rr_short, IDNG_TAP_E_DNS_RR_SHORT},
    {"second answer missing", b_rr_missing, IDNG_TAP_E_DNS_RR_NAME},
    {"rdata cut", b_rdata_short, IDNG_TAP_E_DNS_RDATA_SHORT},
    {"OPT owned by a.", b_opt_owner, IDNG_TAP_E_DNS_OPT_OWNER},
    {"OPT owned by a pointer", b_opt_owner_pointer, IDNG_TAP_E_DNS_OPT_OWNER},
    {"two OPTs", b_opt_dup, IDNG_TAP_E_DNS_OPT_DUP},
    {"option header cut", b_opt_option_header, IDNG_TAP_E_DNS_OPT_OPTION},
    {"option past the OPT", b_opt_option_length, IDNG_TAP_E_DNS_OPT_OPTION},
    {"EDE of 1 octet", b_ede_short, IDNG_TAP_E_DNS_EDE_SHORT},
};

START_TEST(test_bad)
{
    const struct bad *b = &bads[_i];
    struct tb t = {{0}, 0};
    idng_dnsmsg m;
    idng_tap_status st;

    b->build(&t);
    st = idng_dnsmsg_parse(t.b, t.n, &m);
    ck_assert_msg(st == b->st, "%s: %s, expected %s", b->what, idng_tap_status_symbol(st),
                  idng_tap_status_symbol(b->st));
    ck_assert_uint_le(m.parsed, t.n);
    if (st == IDNG_TAP_E_DNS_QNAME) {
        ck_assert_int_ne(m.qname_fault, IDNG_WIRE_OK);
        ck_assert_int_ne(m.qname_status, IDNG_OK);
        ck_assert_ptr_eq(m.qname, t.b + 12);
        ck_assert_uint_le(12 + m.qname_len, t.n);
        ck_assert(!m.has_question);
    }
}
END_TEST

/* Every prefix of the response at a guard page. */
START_TEST(test_prefixes)
{
    struct tb t;
    struct t_guard g;
    idng_dnsmsg m;
    size_t k;

    response(&t);
    t_guard_open(&g);
    for (k = 0; k <= t.n; k++) {
        const unsigned char *p = t_guard_put(&g, t.b, k);
        idng_tap_status st = idng_dnsmsg_parse(p, k, &m);
        ck_assert_int_eq(st == IDNG_TAP_OK, k == t.n);
        ck_assert_uint_le(m.parsed, k);
        ck_assert_int_eq(m.has_question, k >= 29);
    }
    t_guard_close(&g);
}
END_TEST

static Suite *dnsmsg_suite(void)
{
    Suite *s = suite_create("tap/dnsmsg");
    TCase *tc = tcase_create("parse");

    tcase_add_test(tc, test_response);
    tcase_add_test(tc, test_query_forms);
    tcase_add_loop_test(tc, test_bad, 0, (int)(sizeof bads / sizeof bads[0]));
    tcase_add_test(tc, test_prefixes);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(dnsmsg_suite)
