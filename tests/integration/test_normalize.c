/**
 * \file
 * Raw UTF-8 query names under the default on-raw-8bit: normalize: the
 * client gets a CNAME from the name it sent to the A-label name, followed
 * by that name's answer, over UDP and TCP; a name that cannot be converted
 * falls back to the action of the reason it failed (refuse by default).
 *
 * One NSD + Unbound pair for the suite (unchecked fixture); the tests see
 * each other's cache, so each expectation holds whether or not an earlier
 * test asked a related name.
 */
#include "common.h"
#include "harness.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

static struct harness H;

static void setup(void)
{
    harness_setup(&H, "idnguard:\n", 1);
}

static void teardown(void)
{
    harness_stop(&H);
}

#define BUECHER_CNAME "b\\195\\188cher.example. CNAME xn--bcher-kva.example."

/* The same name over UDP, then TCP (the second may be a cache hit: the
 * client must get the same CNAME and A either way). */
START_TEST(test_normalize_udp_tcp)
{
    static const unsigned how[] = {0, HQ_TCP};
    struct dnsq_result r;
    struct qline q;
    char sum[1024];

    hx_query(&H, "b\\195\\188cher.example", DNSQ_A, how[_i], HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(r.used_tcp == (how[_i] == HQ_TCP), "transport mix-up");
    dnsq_answer_summary(&r, sum, sizeof sum);
    ck_assert_msg(r.rcode == 0 && !r.timed_out, "%s: %s (EDE %d \"%s\")", how[_i] ? "TCP" : "UDP",
                  dnsq_rcode_name(r.rcode), r.ede_code, r.ede_text);
    /* CN: the CNAME alone (hx_expect_normalized), never from the cache. */
    ck_assert_msg(strcmp(sum, CN(BUECHER_CNAME " | xn--bcher-kva.example. A 192.0.2.2",
                                 BUECHER_CNAME))
                      == 0,
                  "%s: answer [%s]", how[_i] ? "TCP" : "UDP", sum);
    ck_assert_msg(strcmp(q.qname, "b\\195\\188cher.example.") == 0
                      && strcmp(q.rcode, "NOERROR") == 0
                      && strcmp(q.verdict, "raw-8bit:b\\195\\188cher") == 0,
                  "line %s", q.raw);
    ck_assert_msg((strcmp(q.action, "normalize") == 0
                   && strcmp(q.path, CN("resolved", "policy")) == 0)
                      || (!harness_cname_alone() && strcmp(q.path, "cache") == 0),
                  "%s: line %s", how[_i] ? "TCP" : "UDP", q.raw);
}
END_TEST

/* Other types follow the CNAME the same way. */
START_TEST(test_normalize_aaaa)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "b\\195\\188cher.example", DNSQ_AAAA, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_normalized(&H, &r, &q, "b\\195\\188cher.example.", DNSQ_AAAA, BUECHER_CNAME,
                         "xn--bcher-kva.example. AAAA 2001:db8::2", "raw-8bit:b\\195\\188cher");
}
END_TEST

/* UTS #46 maps case: B\xc3\x9c CHER is the same A-label; the CNAME owner is
 * the name as sent. */
START_TEST(test_normalize_uppercase)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "B\\195\\156CHER.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_normalized(&H, &r, &q, "B\\195\\156CHER.example.", DNSQ_A,
                         "B\\195\\156CHER.example. CNAME xn--bcher-kva.example.",
                         "xn--bcher-kva.example. A 192.0.2.2", "raw-8bit:B\\195\\156CHER");
}
END_TEST

/* The A-label name does not exist: the client learns that (NXDOMAIN), not
 * a failure of the resolver. */
START_TEST(test_normalize_nxdomain)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "n\\195\\182pe.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(strcmp(q.verdict, "raw-8bit:n\\195\\182pe") == 0
                      && strcmp(q.action, "normalize") == 0,
                  "line %s", q.raw);
    /* PY: the CNAME first; the client that follows it gets the NXDOMAIN. */
    py_follow_normalize(&H, DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q, NULL, 0);
    ck_assert_msg(!r.timed_out && r.rcode == 3, "n\xc3\xb6pe.example: %s, expected NXDOMAIN",
                  dnsq_rcode_name(r.rcode));
    ck_assert_msg(r.ede_code == -1, "EDE %d \"%s\" on an upstream NXDOMAIN", r.ede_code,
                  r.ede_text);
    ck_assert_msg(strcmp(q.rcode, "NXDOMAIN") == 0
                      && strcmp(q.verdict, CN("raw-8bit:n\\195\\182pe", "ok")) == 0
                      && strcmp(q.action, CN("normalize", "pass")) == 0,
                  "line %s", q.raw);
}
END_TEST

/* über.example's A-label is a CNAME into the fake xn--ab-m1t.example: the
 * raw spelling must not get around the chain check.  Refused with an EDE
 * like alias.example, and the line says the module answered. */
START_TEST(test_normalize_into_fake_chain)
{
    struct dnsq_result r;
    struct qline q;
    char sum[1024];

    hx_query(&H, "\\195\\188ber.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    /* PY: the CNAME to xn--ber-goa.example; following it is refused. */
    py_follow_normalize(&H, DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q, NULL, 0);
    dnsq_answer_summary(&r, sum, sizeof sum);
    ck_assert_msg(!r.timed_out && r.rcode == 5 && r.ancount == 0,
                  "raw \xc3\xbc"
                  "ber.example: %s [%s], expected REFUSED",
                  dnsq_rcode_name(r.rcode), sum);
    ck_assert_msg(r.ede_code == 15 && strncmp(r.ede_text, "idnguard: contextj", 18) == 0,
                  "raw \xc3\xbc"
                  "ber.example: REFUSED with EDE %d \"%s\", expected 15 "
                  "\"idnguard: contextj...\" as alias.example gets",
                  r.ede_code, r.ede_text);
    ck_assert_msg(strcmp(q.rcode, "REFUSED") == 0 && strcmp(q.path, "policy") == 0 && q.ede == 15,
                  "line %s; expected REFUSED ... policy ede=15", q.raw);
}
END_TEST

/* Unconvertible raw names: the verdict is the reason the conversion
 * failed, with on-<that class>'s action (refuse). */
static const struct {
    const char *qname, *verdict, *ede;
} unconvertible[] = {
    /* not UTF-8 at all */
    {"\\255\\254.example", "bad-utf8:\\255\\254", "idnguard: bad-utf8: \\255\\254: "},
    /* a ZERO WIDTH JOINER between two letters: CONTEXTJ */
    {"a\\226\\128\\141b.example", "contextj:a\\226\\128\\141b",
     "idnguard: contextj: a\\226\\128\\141b: "},
    /* a combining mark first */
    {"\\204\\136a.example", "leading-mark:\\204\\136a", "idnguard: leading-mark: \\204\\136a: "},
};

START_TEST(test_unconvertible_refused)
{
    struct dnsq_result r;
    struct qline q;
    char qlog[300];

    snprintf(qlog, sizeof qlog, "%s.", unconvertible[_i].qname);
    hx_query(&H, unconvertible[_i].qname, DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, qlog, 5, unconvertible[_i].verdict, "refuse", unconvertible[_i].ede);
}
END_TEST

/* ---- the fallback under the other rejecting actions ---- */

static const char *cur_action; /* set by the fixture, inherited by the tests */

static void setup_nxdomain(void)
{
    cur_action = "nxdomain";
    harness_setup(&H, "idnguard:\n    on-invalid: nxdomain\n", 1);
}

static void setup_drop(void)
{
    cur_action = "drop";
    harness_setup(&H, "idnguard:\n    on-invalid: drop\n", 1);
}

/* on-raw-8bit stays normalize: convertible names are still normalized. */
START_TEST(test_fallback_still_normalizes)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "b\\195\\188cher.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_normalized(&H, &r, &q, "b\\195\\188cher.example.", DNSQ_A, BUECHER_CNAME,
                         "xn--bcher-kva.example. A 192.0.2.2", "raw-8bit:b\\195\\188cher");
}
END_TEST

/*
 * Row 0: not UTF-8, so on-bad-utf8 (= on-invalid) applies in the module's
 * first look at the name.  Row 1: converts, but the A-label's answer
 * chains into a fake label, which the normalize sub-query finds: the client
 * must get the same action all the same.
 */
START_TEST(test_fallback_action)
{
    static const struct {
        const char *qname, *verdict, *ede;
    } rows[] = {
        {"\\255\\254.example", "bad-utf8:\\255\\254", "idnguard: bad-utf8: \\255\\254: "},
        {"\\195\\188ber.example", "contextj", "idnguard: contextj"},
    };
    const char *a = cur_action;
    struct dnsq_result r;
    struct qline q;
    char qlog[300];

    snprintf(qlog, sizeof qlog, "%s.", rows[_i].qname);
    if (strcmp(a, "drop") == 0) {
        hx_query(&H, rows[_i].qname, DNSQ_A, 0, HARNESS_DROP_MS, &r, &q);
        /* PY: row 1's CNAME first; drop is REFUSED without EDE. */
        py_follow_normalize(&H, DNSQ_A, 0, HARNESS_DROP_MS, &r, &q, NULL, 0);
        ck_assert_msg(PY(r.timed_out, !r.timed_out && r.rcode == 5 && r.ede_code == -1),
                      "%s under on-invalid: drop: got a reply, %s (EDE %d \"%s\"); line %s",
                      rows[_i].qname, dnsq_rcode_name(r.rcode), r.ede_code, r.ede_text, q.raw);
        ck_assert_msg(strcmp(q.rcode, PY("DROPPED", "REFUSED")) == 0
                          && strncmp(q.verdict, rows[_i].verdict, strlen(rows[_i].verdict)) == 0
                          && strcmp(q.action, "drop") == 0 && strcmp(q.path, "policy") == 0,
                      "%s: line %s; expected DROPPED %s drop policy", rows[_i].qname, q.raw,
                      rows[_i].verdict);
        return;
    }
    hx_query(&H, rows[_i].qname, DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    py_follow_normalize(&H, DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q, NULL, 0);
    ck_assert_msg(!r.timed_out && r.rcode == 3 && r.ede_code == 15
                      && strncmp(r.ede_text, rows[_i].ede, strlen(rows[_i].ede)) == 0,
                  "%s under on-invalid: nxdomain: %s with EDE %d \"%s\"; expected NXDOMAIN, EDE 15 "
                  "\"%s...\"; line %s",
                  rows[_i].qname, dnsq_rcode_name(r.rcode), r.ede_code, r.ede_text, rows[_i].ede,
                  q.raw);
    ck_assert_msg(strcmp(q.rcode, "NXDOMAIN") == 0
                      && strncmp(q.verdict, rows[_i].verdict, strlen(rows[_i].verdict)) == 0
                      && strcmp(q.action, "nxdomain") == 0 && strcmp(q.path, "policy") == 0
                      && q.ede == 15,
                  "%s: line %s; expected NXDOMAIN %s nxdomain policy ede=15", rows[_i].qname, q.raw,
                  rows[_i].verdict);
}
END_TEST

static Suite *normalize_suite(void)
{
    Suite *s = suite_create("integration-normalize");
    TCase *tc = harness_tcase("normalize", setup, teardown);
    tcase_add_loop_test(tc, test_normalize_udp_tcp, 0, 2);
    tcase_add_test(tc, test_normalize_aaaa);
    tcase_add_test(tc, test_normalize_uppercase);
    tcase_add_test(tc, test_normalize_nxdomain);
    tcase_add_test(tc, test_normalize_into_fake_chain);
    tcase_add_loop_test(tc, test_unconvertible_refused, 0,
                        (int)(sizeof unconvertible / sizeof unconvertible[0]));
    suite_add_tcase(s, tc);

    tc = harness_tcase("fallback-nxdomain", setup_nxdomain, teardown);
    tcase_add_test(tc, test_fallback_still_normalizes);
    tcase_add_loop_test(tc, test_fallback_action, 0, 2);
    suite_add_tcase(s, tc);

    tc = harness_tcase("fallback-drop", setup_drop, teardown);
    tcase_add_test(tc, test_fallback_still_normalizes);
    tcase_add_loop_test(tc, test_fallback_action, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(normalize_suite)
