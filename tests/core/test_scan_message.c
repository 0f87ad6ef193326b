/**
 * \file
 * The scan of a whole response in wire format (idng_scan_message,
 * core/policy.c), over crafted messages: a clean answer and CNAME
 * chain, a CNAME or DNAME target with a fake xn-- label, a fake name in
 * the question, the authority section (NSEC aside) and the additional one,
 * OPT skipped; and messages that cannot be read, each rejected as
 * malformed: a compression pointer forwards, a loop, a pointer past the
 * end, a cut header, record and rdata, a CNAME's rdata that is not one
 * name, a name of 256 octets once its pointer is followed; every prefix
 * of a good message at a guard page.
 */
#include "common.h"
#include "idng_scan.h"
#include "tap/tap_build.h"

#include <string.h>

#define T_A 1
#define T_NS 2
#define T_CNAME 5
#define T_DNAME 39
#define T_NSEC 47

/* A fake A-label: a ZERO WIDTH NON-JOINER between two Latin letters
 * (contextj), refused by default. */
#define FAKE "xn--ab-m1t"

static struct idng_policy pol;

static void setup(void)
{
    idng_policy_init(&pol);
    idng_policy_resolve(&pol, NULL);
}

static void teardown(void)
{
    idng_policy_free(&pol);
}

/* The scan of m[0..len) at a guard page; its return into *ret. */
static enum idng_scan_result scan(const uint8_t *m, size_t len, struct idng_verdict *v, int *ret)
{
    struct t_guard g;
    struct idng_scan s;
    enum idng_scan_result r;

    t_guard_open(&g);
    idng_scan_init(&s);
    *ret = idng_scan_message(&pol, &s, t_guard_put(&g, m, len), len);
    r = idng_scan_result(&s, v);
    t_guard_close(&g);
    return r;
}

/* A response header: QR RD RA, rcode 0. */
static void header(struct tb *t, unsigned an, unsigned ns, unsigned ar)
{
    t->n = 0;
    tb_header(t, 0x1234, 0x8180, 1, an, ns, ar);
}

/* www.example. A: a CNAME owned by a pointer to the question name, its
 * target written as `target` + "example" compressed against the question,
 * then the target's A record, owned by a pointer to the CNAME's rdata. */
static void chain(struct tb *t, const char *target_label)
{
    size_t l = strlen(target_label), rdata;

    header(t, 2, 0, 0);
    tb_question(t, "www.example", T_A, 1);
    tb_be16(t, 0xC00C);
    tb_rr_fixed(t, T_CNAME, 1, 300, (unsigned)(1 + 2 + 1 + l + 2));
    rdata = t->n;
    tb_u8(t, 2);
    tb_bytes(t, "lo", 2);
    tb_u8(t, (unsigned)l);
    tb_bytes(t, target_label, l);
    tb_be16(t, 0xC010); /* "example" of the question name */
    tb_be16(t, 0xC000 | (unsigned)rdata);
    tb_rr_fixed(t, T_A, 1, 300, 4);
    tb_be32(t, 0x7F000001);
}

/* One answer: www.example. CNAME with rdata of rdlen octets, of which
 * rdata[0..n) follow. */
static void cname(struct tb *t, unsigned rdlen, const void *rdata, size_t n)
{
    header(t, 1, 0, 0);
    tb_question(t, "www.example", T_A, 1);
    tb_be16(t, 0xC00C);
    tb_rr_fixed(t, T_CNAME, 1, 300, rdlen);
    tb_bytes(t, rdata, n);
}

/* The scan of a message that can be read: its result must be want. */
static void assert_read(const struct tb *t, enum idng_scan_result want, struct idng_verdict *v,
                        const char *what)
{
    int ret;
    enum idng_scan_result r = scan(t->b, t->n, v, &ret);

    ck_assert_msg(r == want, "%s: scanned as %d, not %d", what, (int)r, (int)want);
    ck_assert_msg(ret == 0, "%s: not read", what);
}

static void assert_malformed(const struct tb *t, const char *what)
{
    struct idng_verdict v;
    int ret;

    ck_assert_msg(scan(t->b, t->n, &v, &ret) == IDNG_SCAN_REJECT, "%s: not rejected", what);
    ck_assert_msg(ret == -1, "%s: read", what);
    ck_assert_msg(v.err.status == IDNG_E_INVAL, "%s: %s", what, idng_verdict_name(&v));
    ck_assert_int_eq(v.action, IDNG_ACT_REFUSE);
    ck_assert_int_eq(v.listed, IDNG_LISTED_NONE);
}

START_TEST(test_clean_answer_passes)
{
    struct tb t;
    struct idng_verdict v;

    chain(&t, "xn--bcher-kva");
    assert_read(&t, IDNG_SCAN_PASS, &v, "a clean chain");
    ck_assert_int_eq(v.action, IDNG_ACT_PASS);
    /* Octets after the last record are ignored. */
    tb_bytes(&t, "\0\0\0", 3);
    assert_read(&t, IDNG_SCAN_PASS, &v, "trailing octets");
}
END_TEST

START_TEST(test_cname_target_fake_label_rejects)
{
    struct tb t;
    struct idng_verdict v;

    chain(&t, FAKE);
    assert_read(&t, IDNG_SCAN_REJECT, &v, "a CNAME to a fake label");
    ck_assert_int_eq(v.action, IDNG_ACT_REFUSE);
    ck_assert_str_eq(idng_verdict_name(&v), "contextj");
    ck_assert_uint_eq(v.err.label_len, strlen(FAKE));
    ck_assert(memcmp(v.label, FAKE, strlen(FAKE)) == 0);
}
END_TEST

START_TEST(test_question_fake_label_rejects)
{
    struct tb t;
    struct idng_verdict v;
    int ret;

    header(&t, 0, 0, 0);
    tb_question(&t, FAKE ".example", T_A, 1);
    ck_assert_int_eq(scan(t.b, t.n, &v, &ret), IDNG_SCAN_REJECT);
    ck_assert_str_eq(idng_verdict_name(&v), "contextj");
}
END_TEST

/* example. DNAME to a fake name, the synthesized CNAME beside it. */
START_TEST(test_dname_target)
{
    struct tb t;
    struct idng_verdict v;
    static const char *targets[] = {"xn--bcher-kva", FAKE};
    static const enum idng_scan_result want[] = {IDNG_SCAN_PASS, IDNG_SCAN_REJECT};

    for (int i = 0; i < 2; i++) {
        size_t l = strlen(targets[i]);
        header(&t, 1, 0, 0);
        tb_question(&t, "www.example", T_A, 1);
        tb_be16(&t, 0xC010); /* example. */
        tb_rr_fixed(&t, T_DNAME, 1, 300, (unsigned)(1 + l + 5));
        tb_u8(&t, (unsigned)l);
        tb_bytes(&t, targets[i], l);
        tb_bytes(&t, "\003net\000", 5);
        assert_read(&t, want[i], &v, targets[i]);
    }
}
END_TEST

/* Owners in the authority and additional sections; NSEC in authority
 * proves what does not exist and is not judged (idng_policy.h). */
START_TEST(test_owners_outside_the_answer)
{
    struct tb t;
    struct idng_verdict v;

    /* example. NS ns.example., with the server's address in additional,
     * owned by a fake name. */
    header(&t, 0, 1, 1);
    tb_question(&t, "www.example", T_A, 1);
    tb_be16(&t, 0xC010);
    tb_rr_fixed(&t, T_NS, 1, 300, 5);
    tb_bytes(&t, "\002ns\300\020", 5);
    tb_name(&t, FAKE ".example");
    tb_rr_fixed(&t, T_A, 1, 300, 4);
    tb_be32(&t, 0x7F000001);
    assert_read(&t, IDNG_SCAN_REJECT, &v, "a fake owner in additional");
    ck_assert_str_eq(idng_verdict_name(&v), "contextj");

    /* An NSEC record owned by the fake name in authority: not judged. */
    header(&t, 0, 1, 0);
    tb_question(&t, "www.example", T_A, 1);
    tb_name(&t, FAKE ".example");
    tb_rr_fixed(&t, T_NSEC, 1, 300, 3);
    tb_bytes(&t, "\000\000\000", 3);
    assert_read(&t, IDNG_SCAN_PASS, &v, "a fake NSEC owner in authority");
}
END_TEST

START_TEST(test_opt_is_skipped)
{
    struct tb t;
    struct idng_verdict v;

    chain(&t, "xn--bcher-kva");
    t.b[11] = 1; /* arcount */
    tb_opt(&t, 1232, 0, 0, 0x8000, "\0\012\0\0", 4);
    assert_read(&t, IDNG_SCAN_PASS, &v, "OPT");
}
END_TEST

START_TEST(test_forward_pointer)
{
    struct tb t;

    /* The CNAME's owner points at the A record's owner, after it. */
    chain(&t, "xn--bcher-kva");
    t.b[12 + 17] = (uint8_t)(0xC0 | (t.n - 16) >> 8);
    t.b[12 + 17 + 1] = (uint8_t)(t.n - 16);
    assert_malformed(&t, "a pointer forwards");
}
END_TEST

START_TEST(test_pointer_loop)
{
    struct tb t;
    size_t at;

    /* A CNAME whose target is "a" then a pointer to its own first octet
     * (the rdata is at 12 + 17 + 12 = 41). */
    cname(&t, 4, "\001a\300\051", 4);
    assert_malformed(&t, "a pointer to its own name");

    /* Two owners pointing at each other. */
    header(&t, 2, 0, 0);
    tb_question(&t, "www.example", T_A, 1);
    at = t.n;
    tb_bytes(&t, "\001b", 2);
    tb_be16(&t, 0xC000 | (unsigned)(at + 14));
    tb_rr_fixed(&t, T_A, 1, 300, 4);
    tb_be32(&t, 1);
    tb_bytes(&t, "\001c", 2);
    tb_be16(&t, 0xC000 | (unsigned)at);
    tb_rr_fixed(&t, T_A, 1, 300, 4);
    tb_be32(&t, 1);
    assert_malformed(&t, "a loop of two names");
}
END_TEST

START_TEST(test_pointer_past_end)
{
    struct tb t;

    chain(&t, "xn--bcher-kva");
    t.b[t.n - 16] = 0xFF; /* the A record's owner: a pointer to 0x3Fxx */
    assert_malformed(&t, "a pointer past the end");
}
END_TEST

START_TEST(test_truncated)
{
    struct tb t;
    struct idng_verdict v;

    cname(&t, 3, "\300\014", 2);
    assert_malformed(&t, "rdata past the end");
    cname(&t, 3, "\002lo\300\014", 5);
    assert_malformed(&t, "a CNAME's name cut by its rdata");
    cname(&t, 3, "\300\014\000", 3);
    assert_malformed(&t, "a CNAME's rdata after its name");
    cname(&t, 2, "\300\014", 2);
    assert_read(&t, IDNG_SCAN_PASS, &v, "a CNAME whose rdata is one name");

    /* A header cut, the counts saying more than there is. */
    header(&t, 0, 0, 0);
    t.n = 11;
    assert_malformed(&t, "11 octets");
    chain(&t, "xn--bcher-kva");
    t.b[7] = 3;
    assert_malformed(&t, "ancount one more");
}
END_TEST

/* A CNAME target of 256 octets once its pointer is followed, in the
 * additional section's owner and in rdata. */
START_TEST(test_name_over_255_once_followed)
{
    struct tb t;
    struct idng_verdict v;
    char label[64];
    size_t base;
    int ret;

    memset(label, 'a', 63);
    label[63] = '\0';
    for (int extra = 61; extra <= 62; extra++) {
        header(&t, 0, 0, 1);
        /* The question: 3 labels of 63, then the root (193 octets). */
        base = t.n;
        for (int i = 0; i < 3; i++) {
            tb_u8(&t, 63);
            tb_bytes(&t, label, 63);
        }
        tb_u8(&t, 0);
        tb_be16(&t, T_A);
        tb_be16(&t, 1);
        /* An additional record: `extra` octets, then the question's name. */
        tb_u8(&t, (unsigned)extra);
        tb_bytes(&t, label, (size_t)extra);
        tb_be16(&t, 0xC000 | (unsigned)base);
        tb_rr_fixed(&t, T_A, 1, 300, 4);
        tb_be32(&t, 1);
        if (extra == 61) {
            ck_assert_int_eq(scan(t.b, t.n, &v, &ret), IDNG_SCAN_PASS);
            ck_assert_int_eq(ret, 0);
        } else {
            assert_malformed(&t, "256 octets once followed");
        }
    }
}
END_TEST

/* A message that cannot be read is rejected whatever came before it, with
 * on-invalid's action when that rejects, else refuse. */
START_TEST(test_malformed_action)
{
    struct tb t;
    struct idng_verdict v;
    int ret;

    chain(&t, FAKE);
    t.b[7] = 3;
    pol.on_invalid = IDNG_ACT_NXDOMAIN;
    ck_assert_int_eq(scan(t.b, t.n, &v, &ret), IDNG_SCAN_REJECT);
    ck_assert_int_eq(ret, -1);
    ck_assert_int_eq(v.err.status, IDNG_E_INVAL);
    ck_assert_uint_eq(v.err.label_len, 0);
    ck_assert_int_eq(v.action, IDNG_ACT_NXDOMAIN);
    pol.on_invalid = IDNG_ACT_LOG;
    ck_assert_int_eq(scan(t.b, t.n, &v, &ret), IDNG_SCAN_REJECT);
    ck_assert_int_eq(v.action, IDNG_ACT_REFUSE);
}
END_TEST

/* Every proper prefix of a good message at the guard page: never read
 * past, and never taken for a whole message. */
START_TEST(test_every_prefix)
{
    struct tb t;
    struct idng_verdict v;
    size_t n, full;
    int ret;

    chain(&t, "xn--bcher-kva");
    full = t.n;
    for (n = 0; n < full; n++) {
        REQUIRE(scan(t.b, n, &v, &ret) == IDNG_SCAN_REJECT && ret == -1
                    && v.err.status == IDNG_E_INVAL,
                "a prefix of %zu octets of %zu: not rejected as malformed", n, full);
    }
}
END_TEST

static Suite *scan_message_suite(void)
{
    Suite *s = suite_create("response scan of a wire message");
    TCase *tc = tcase_create("judged");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_clean_answer_passes);
    tcase_add_test(tc, test_cname_target_fake_label_rejects);
    tcase_add_test(tc, test_question_fake_label_rejects);
    tcase_add_test(tc, test_dname_target);
    tcase_add_test(tc, test_owners_outside_the_answer);
    tcase_add_test(tc, test_opt_is_skipped);
    suite_add_tcase(s, tc);

    tc = tcase_create("malformed");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_forward_pointer);
    tcase_add_test(tc, test_pointer_loop);
    tcase_add_test(tc, test_pointer_past_end);
    tcase_add_test(tc, test_truncated);
    tcase_add_test(tc, test_name_over_255_once_followed);
    tcase_add_test(tc, test_malformed_action);
    tcase_add_test(tc, test_every_prefix);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(scan_message_suite)
