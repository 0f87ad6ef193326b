/**
 * \file
 * ldns as an oracle for the DNS message reader (tap/dnsmsg.c): hand-made
 * messages and seeded random mutations of them go to both
 * idng_dnsmsg_parse and ldns_wire2pkt.  Whenever ldns parses a message:
 * - the reader parses it too, or refuses it with one of the statuses that
 *   are stricter than ldns by design (idng_dnsmsg.h: an OPT record not
 *   owned by the root, a second OPT, a malformed option or EDE option,
 *   which ldns keeps as opaque data), or with a record status (owner
 *   name, record header, rdata past the end): ldns reads rdata by its
 *   type's fields and, when they end before RDLENGTH, goes on from there
 *   rather than from RDLENGTH (ldns 1.8.3), so a mutated RDLENGTH can make
 *   it read later records from another offset than RFC 1035 4.1.3 does.
 *   The same goes for an OPT record that ldns finds at another offset or
 *   not at all.  These are counted and printed, so a change shows;
 * - they agree on the id, the RCODE (with its extended bits), the first
 *   question's name (when it is not compressed: the reader does not follow
 *   pointers), type and class, and the first EDE's info-code and text.
 * Each input is also parsed at a guard page: no read past the end.
 */
#include "common.h"
#include "idng_dnsmsg.h"
#include "tap_build.h"

#include <ldns/ldns.h>
#include <string.h>

#define MUTANTS 20000

static void seed_messages(struct tb *seeds, size_t *n)
{
    struct tb *t;
    struct tb o = {{0}, 0};

    *n = 0;
    t = &seeds[(*n)++];
    tb_header(t, 0x1234, IDNG_DNS_RD, 1, 0, 0, 0);
    tb_question(t, "xn--bcher-kva.example", 1, 1);

    t = &seeds[(*n)++];
    tb_header(t, 0x4321, IDNG_DNS_RD | IDNG_DNS_AD, 1, 0, 0, 1);
    tb_question(t, "WwW.Example.ORG", 28, 1);
    tb_opt(t, 1232, 0, 0, 0x8000, NULL, 0);

    t = &seeds[(*n)++];
    tb_ede(&o, 18, "blocked");
    tb_ede(&o, 6, "");
    tb_header(t, 0xBEEF, IDNG_DNS_QR | IDNG_DNS_RA | 5, 1, 1, 1, 1);
    tb_question(t, "a.b.c", 16, 1);
    tb_a_ptr(t, 0x7F000001);
    tb_name(t, "b.c");
    tb_rr_fixed(t, 2, 1, 3600, 5);
    tb_bytes(t, "\2ns\xc0\x0e", 5);
    tb_opt(t, 4096, 0x0F, 0, 0, o.b, o.n);

    t = &seeds[(*n)++];
    tb_header(t, 1, IDNG_DNS_QR | 3, 1, 0, 1, 1);
    tb_question(t, "nope.example", 6, 1);
    tb_be16(t, 0xC011); /* example. */
    tb_rr_fixed(t, 6, 1, 300, 22);
    tb_bytes(t, "\0\0\0\0\0\0\0\1\0\0\0\2\0\0\0\3\0\0\0\4\0\5", 22);
    o.n = 0;
    tb_be16(&o, 10);
    tb_be16(&o, 8);
    tb_bytes(&o, "cookie!!", 8);
    tb_ede(&o, 29, "filtered");
    tb_opt(t, 512, 1, 0, 0, o.b, o.n);

    t = &seeds[(*n)++];
    tb_header(t, 9, 0, 0, 0, 0, 0);
}

/* The first question's name according to ldns, in wire form. */
static int ldns_qname(ldns_pkt *p, const uint8_t **w, size_t *n)
{
    ldns_rr_list *q = ldns_pkt_question(p);
    ldns_rdf *owner;
    if (q == NULL || ldns_rr_list_rr_count(q) == 0)
        return 0;
    owner = ldns_rr_owner(ldns_rr_list_rr(q, 0));
    *w = ldns_rdf_data(owner);
    *n = ldns_rdf_size(owner);
    return 1;
}

static size_t compared, refused_stricter, ldns_rdlength;

/* The message in hex, for a failure's message. */
static const char *hex(const uint8_t *msg, size_t len)
{
    static char out[2 * 1024 + 1];
    size_t i;
    for (i = 0; i < len && i < 1024; i++)
        snprintf(out + 2 * i, 3, "%02x", msg[i]);
    out[2 * i] = '\0';
    return out;
}

static void compare(const uint8_t *msg, size_t len, const char *what)
{
    ldns_pkt *p = NULL;
    idng_dnsmsg m;
    idng_tap_status st = idng_dnsmsg_parse(msg, len, &m);
    ldns_status ls = ldns_wire2pkt(&p, msg, len);
    const uint8_t *w = NULL;
    size_t wn = 0;

    REQUIRE(m.parsed <= len, "%s: parsed %zu of %zu", what, m.parsed, len);
    if (ls != LDNS_STATUS_OK)
        return;
    if (st == IDNG_TAP_E_DNS_OPT_OWNER || st == IDNG_TAP_E_DNS_OPT_DUP
        || st == IDNG_TAP_E_DNS_OPT_OPTION || st == IDNG_TAP_E_DNS_EDE_SHORT) {
        refused_stricter++;
        ldns_pkt_free(p);
        return;
    }
    /* The same quirk when both succeed: ldns found its OPT record (or
     * none) at another offset. */
    if (st == IDNG_TAP_E_DNS_RR_NAME || st == IDNG_TAP_E_DNS_RR_SHORT
        || st == IDNG_TAP_E_DNS_RDATA_SHORT
        || (st == IDNG_TAP_OK
            && (m.has_opt != (ldns_pkt_edns(p) != 0)
                || (m.has_opt && m.udp_size != ldns_pkt_edns_udp_size(p))))) {
        ldns_rdlength++;
        ldns_pkt_free(p);
        return;
    }
    REQUIRE(st == IDNG_TAP_OK, "%s: ldns parses it, the reader says %s: %s", what,
            idng_tap_status_symbol(st), hex(msg, len));
    compared++;
    REQUIRE(m.id == ldns_pkt_id(p), "%s: id %u, ldns %u", what, m.id, ldns_pkt_id(p));
    REQUIRE(m.rcode == (ldns_pkt_get_rcode(p) | ldns_pkt_edns_extended_rcode(p) << 4),
            "%s: rcode %u, ldns %u/%u: %s", what, m.rcode, ldns_pkt_get_rcode(p),
            ldns_pkt_edns_extended_rcode(p), hex(msg, len));
    REQUIRE(m.has_question == ldns_qname(p, &w, &wn), "%s: question %d", what, m.has_question);
    if (m.has_question) {
        ldns_rr *q = ldns_rr_list_rr(ldns_pkt_question(p), 0);
        if (m.qname_fault == IDNG_WIRE_OK)
            REQUIRE(m.qname_len == wn && memcmp(m.qname, w, wn) == 0,
                    "%s: qname of %zu octets, ldns %zu", what, m.qname_len, wn);
        else
            REQUIRE(m.qname_fault == IDNG_WIRE_POINTER, "%s: qname fault %d", what,
                    m.qname_fault);
        REQUIRE(m.qtype == ldns_rr_get_type(q), "%s: qtype %u, ldns %u", what, m.qtype,
                ldns_rr_get_type(q));
        REQUIRE(m.qclass == ldns_rr_get_class(q), "%s: qclass %u, ldns %u", what, m.qclass,
                ldns_rr_get_class(q));
    }
    {
        /* The list belongs to the packet (ldns_pkt_free frees it). */
        ldns_edns_option_list *ol = m.has_opt ? ldns_pkt_edns_get_option_list(p) : NULL;
        ldns_edns_option *ede = NULL;
        size_t i;
        for (i = 0; ol != NULL && i < ldns_edns_option_list_get_count(ol); i++) {
            ldns_edns_option *o = ldns_edns_option_list_get_option(ol, i);
            if (ldns_edns_get_code(o) == LDNS_EDNS_EDE) {
                ede = o;
                break;
            }
        }
        REQUIRE(m.has_ede == (ede != NULL), "%s: EDE %d, ldns %d", what, m.has_ede,
                ede != NULL);
        if (ede != NULL) {
            const uint8_t *d = ldns_edns_get_data(ede);
            REQUIRE(ldns_edns_get_size(ede) == m.ede_text_len + 2
                        && m.ede_code == (d[0] << 8 | d[1])
                        && memcmp(d + 2, m.ede_text, m.ede_text_len) == 0,
                    "%s: EDE %u differs from ldns's", what, m.ede_code);
        }
    }
    ldns_pkt_free(p);
}

START_TEST(test_seeds)
{
    static struct tb seeds[8];
    size_t n, i;
    char what[32];

    memset(seeds, 0, sizeof seeds);
    seed_messages(seeds, &n);
    for (i = 0; i < n; i++) {
        snprintf(what, sizeof what, "seed %zu", i);
        compared = 0;
        compare(seeds[i].b, seeds[i].n, what);
        ck_assert_msg(compared == 1, "%s: ldns refuses it", what);
    }
}
END_TEST

START_TEST(test_mutants)
{
    static struct tb seeds[8];
    struct t_guard g;
    uint32_t rnd = 0x7a9dec5u;
    size_t n, i, k;
    char what[64];
    uint8_t buf[1024];

    memset(seeds, 0, sizeof seeds);
    seed_messages(seeds, &n);
    t_guard_open(&g);
    compared = refused_stricter = ldns_rdlength = 0;
    for (i = 0; i < MUTANTS; i++) {
        const struct tb *s = &seeds[i % n];
        size_t len = s->n, edits = 1 + t_xorshift32(&rnd) % 4;
        idng_dnsmsg m;
        memcpy(buf, s->b, len);
        for (k = 0; k < edits; k++) {
            uint32_t r = t_xorshift32(&rnd);
            switch (r % 6) {
            case 0: /* a random octet */
                buf[(r >> 8) % len] = (uint8_t)(r >> 16);
                break;
            case 1: /* a small change to a count or length */
                buf[(r >> 8) % len] += (uint8_t)((r >> 16) % 3) - 1;
                break;
            case 2: /* cut the end */
                len = len > 1 ? len - 1 - (r >> 8) % (len / 4 + 1) : len;
                break;
            case 3: /* a count */
                buf[5 + 2 * ((r >> 8) % 4)] = (uint8_t)((r >> 16) % 4);
                break;
            case 4: /* insert an octet */
                if (len < sizeof buf) {
                    size_t at = (r >> 8) % len;
                    memmove(buf + at + 1, buf + at, len - at);
                    buf[at] = (uint8_t)(r >> 16);
                    len++;
                }
                break;
            default: /* a compression pointer */
                if (len >= 14) {
                    size_t at = 12 + (r >> 8) % (len - 13);
                    buf[at] = 0xC0;
                    buf[at + 1] = (uint8_t)(r >> 16) % 40;
                }
                break;
            }
        }
        snprintf(what, sizeof what, "mutant %zu of seed %zu", i, i % n);
        compare(buf, len, what);
        idng_dnsmsg_parse(t_guard_put(&g, buf, len), len, &m);
    }
    t_guard_close(&g);
    printf("test_mutants: %d mutants, %zu parsed by ldns and compared, %zu refused as "
           "stricter than ldns, %zu where ldns does not skip by RDLENGTH\n",
           MUTANTS, compared, refused_stricter, ldns_rdlength);
    ck_assert_uint_gt(compared, MUTANTS / 10);
}
END_TEST

static Suite *ldns_suite(void)
{
    Suite *s = suite_create("tap/dnsmsg-ldns");
    TCase *tc = tcase_create("oracle");

    tcase_add_test(tc, test_seeds);
    tcase_add_test(tc, test_mutants);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(ldns_suite)
