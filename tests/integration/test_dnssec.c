/**
 * \file
 * The module in front of a validating resolver.  Unbound runs
 * "dynlib validator iterator" with the trust anchor of sig., which
 * prepare-zones.sh signed at build time along with its child deny.sig.
 * (secure delegation) and bad.sig. (a DS that matches none of its keys).
 *
 * - "guard": with deny.sig. on the deny list and www.deny.sig. allowed, the
 *   allowed name must still validate.  That takes the validator's own DS
 *   and DNSKEY lookups for deny.sig., which the module must let through
 *   unjudged (they are not client queries); the denied sibling is refused.
 * - "validation": the same names with an empty idnguard.conf show that the
 *   set-up validates at all: AD on secure answers (asked for with DO or AD),
 *   signed NXDOMAIN, insecure answers for the unsigned zones, and the
 *   negative control, bogus bad.sig.: SERVFAIL, data only with CD.  Also
 *   NSD asked directly, for what the resolver relies on.
 * - "no-validator": a daemon variant (harness_setup_ex) without the
 *   validator and with minimal-responses: no: no AD, bogus data passes, the
 *   additional section is filled.
 *
 * One daemon pair per tcase (unchecked fixture); tests of a tcase share the
 * cache, and each expectation holds whatever an earlier test cached.
 */
#include "common.h"
#include "harness.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

static struct harness H;

static void teardown(void)
{
    harness_stop(&H);
}

/* ---- expectations ---- */

/*
 * NOERROR, no EDE, the answer exactly owner A addr plus, when rrsig, one
 * RRSIG over it; the AD bit as ad says; the line: owner, NOERROR, verdict,
 * action pass, path (any when NULL).
 */
static void expect_a(const struct dnsq_result *r, const struct qline *q, const char *owner,
                     const char *addr, int ad, int rrsig, const char *verdict, const char *path)
{
    char sum[DNSQ_ANSWER_MAX];

    dnsq_answer_summary(r, sum, sizeof sum);
    ck_assert_msg(!r->timed_out, "%s: no reply", owner);
    ck_assert_msg(r->rcode == 0, "%s: rcode %s (EDE %d \"%s\"), expected NOERROR; line: %s", owner,
                  dnsq_rcode_name(r->rcode), r->ede_code, r->ede_text, q->raw);
    ck_assert_msg(dnsq_answer_has(r, owner, "A", addr), "%s: no A %s in the answer [%s]", owner,
                  addr, sum);
    ck_assert_msg(dnsq_section_count(r->answer, "RRSIG") == (rrsig ? 1 : 0)
                      && r->ancount == (rrsig ? 2 : 1),
                  "%s: answer [%s], expected the A record%s", owner, sum,
                  rrsig ? " and its RRSIG" : " alone");
    ck_assert_msg(r->ad == ad, "%s: AD %s, expected %s (answer [%s])", owner,
                  r->ad ? "set" : "clear", ad ? "set" : "clear", sum);
    ck_assert_msg(hx_answer_ede_ok(r), "%s: EDE %d \"%s\" on an answer", owner, r->ede_code,
                  r->ede_text);
    ck_assert_msg(strcmp(q->qname, owner) == 0 && strcmp(q->rcode, "NOERROR") == 0
                      && strcmp(q->verdict, verdict) == 0 && strcmp(q->action, "pass") == 0
                      && (!path || strcmp(q->path, path) == 0),
                  "%s: line says %s %s %s %s %s; expected %s NOERROR %s pass %s: %s", owner,
                  q->qname, q->rcode, q->verdict, q->action, q->path, owner, verdict,
                  path ? path : "(any path)", q->raw);
}

/* A validation failure: SERVFAIL, no answer, no AD; the line: SERVFAIL,
 * verdict ok, action pass, path servfail (the module did not cause it). */
static void expect_bogus(const struct dnsq_result *r, const struct qline *q, const char *owner)
{
    char sum[DNSQ_ANSWER_MAX];

    dnsq_answer_summary(r, sum, sizeof sum);
    ck_assert_msg(!r->timed_out, "%s: no reply", owner);
    ck_assert_msg(r->rcode == 2, "%s: rcode %s, expected SERVFAIL (bogus); answer [%s]", owner,
                  dnsq_rcode_name(r->rcode), sum);
    ck_assert_msg(r->ancount == 0 && !r->ad, "%s: SERVFAIL with AD %d and answer [%s]", owner,
                  r->ad, sum);
    ck_assert_msg(strcmp(q->qname, owner) == 0 && strcmp(q->rcode, "SERVFAIL") == 0
                      && strcmp(q->verdict, "ok") == 0 && strcmp(q->action, "pass") == 0
                      && strcmp(q->path, "servfail") == 0,
                  "%s: line %s, expected SERVFAIL ok pass servfail", owner, q->raw);
}

/* ---- guard: the allow and deny lists over signed zones ---- */

static void setup_guard(void)
{
    static const struct harness_opts opts = {.module_config = NULL}; /* the defaults: validating */

    harness_setup_ex(&H, "idnguard:\ndeny: deny.sig.\nallow: www.deny.sig.\n", 1, &opts);
}

START_TEST(test_guard_parent_secure)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "www.sig", DNSQ_A, HQ_DO, HARNESS_QUERY_MS, &r, &q);
    expect_a(&r, &q, "www.sig.", "192.0.2.120", 1, 1, "ok", "resolved");
}
END_TEST

/* The validator's DS deny.sig. and DNSKEY deny.sig. lookups are under the
 * denied name: refusing them would make the allowed name SERVFAIL. */
START_TEST(test_guard_allowed_child_secure)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "www.deny.sig", DNSQ_A, HQ_DO, HARNESS_QUERY_MS, &r, &q);
    expect_a(&r, &q, "www.deny.sig.", "192.0.2.121", 1, 1, "allow", "resolved");
}
END_TEST

/* Those lookups must not leave deny.sig.'s keys where a client finds them:
 * after www.deny.sig., a client's DNSKEY or DS query for deny.sig. (CD=1,
 * so a cache entry would be served without validation, and CD=0) is the
 * denied name's, refused, never a NOERROR from the cache. */
START_TEST(test_guard_validator_lookups_not_served)
{
    static const struct {
        uint16_t qtype;
        unsigned flags;
    } ask[] = {{DNSQ_DNSKEY, HQ_CD | HQ_DO}, {DNSQ_DS, HQ_CD | HQ_DO}, {DNSQ_DNSKEY, HQ_DO},
               {DNSQ_DS, 0}};
    struct dnsq_result r;
    struct qline q;
    size_t i;

    /* Resolved, or from the cache when an earlier test asked it. */
    hx_query(&H, "www.deny.sig", DNSQ_A, HQ_DO, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(r.rcode == 0 && r.ad && dnsq_answer_has(&r, "www.deny.sig.", "A", "192.0.2.121"),
                  "www.deny.sig.: %s ad=%d [%s]", dnsq_rcode_name(r.rcode), r.ad, r.answer);
    for (i = 0; i < sizeof ask / sizeof ask[0]; i++) {
        hx_query(&H, "deny.sig", ask[i].qtype, ask[i].flags, HARNESS_QUERY_MS, &r, &q);
        ck_assert_msg(r.rcode == 5 && r.ancount == 0 && strcmp(q.verdict, "deny") == 0
                          && strcmp(q.path, "policy") == 0,
                      "deny.sig. type %u flags %u: %s with %d answers [%s], line %s",
                      ask[i].qtype, ask[i].flags, dnsq_rcode_name(r.rcode), r.ancount, r.answer,
                      q.raw);
    }
}
END_TEST

START_TEST(test_guard_denied_child_refused)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "other.deny.sig", DNSQ_A, HQ_DO, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "other.deny.sig.", 5, "deny", "refuse", "idnguard: deny");
    ck_assert_msg(!r.ad && r.nscount == 0,
                  "other.deny.sig.: REFUSED with AD %d, %d authority records", r.ad, r.nscount);
}
END_TEST

/* ---- validation: the set-up itself, with an empty idnguard.conf ---- */

static void setup_plain(void)
{
    static const struct harness_opts opts = {.module_config = HARNESS_MODULES_DEFAULT, .server_extra = ""};

    harness_setup_ex(&H, "idnguard:\n", 1, &opts);
}

/* Secure names with DO: AD and the RRSIGs. */
START_TEST(test_secure_with_do)
{
    static const struct {
        const char *qname, *owner, *addr;
    } rows[] = {
        {"www.sig", "www.sig.", "192.0.2.120"},
        {"www.deny.sig", "www.deny.sig.", "192.0.2.121"},
        {"other.deny.sig", "other.deny.sig.", "192.0.2.122"},
    };
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, rows[_i].qname, DNSQ_A, HQ_DO, HARNESS_QUERY_MS, &r, &q);
    expect_a(&r, &q, rows[_i].owner, rows[_i].addr, 1, 1, "ok", NULL);
    ck_assert_msg(r.has_opt && r.edns_do, "%s: reply without DO in its OPT record", rows[_i].owner);
    ck_assert_msg(dnsq_answer_has(&r, rows[_i].owner, "RRSIG", NULL), "%s: RRSIG owned by %s",
                  rows[_i].owner, r.answer);
}
END_TEST

/* AD is for clients that ask for it (RFC 6840 5.7-5.8): with DO, with AD
 * in the query, not with neither; RRSIGs only with DO. */
START_TEST(test_ad_only_when_asked)
{
    static const struct {
        unsigned flags;
        int ad, rrsig;
    } rows[] = {
        {HQ_AD, 1, 0},
        {0, 0, 0},
        {HQ_DO | HQ_AD, 1, 1},
        {HQ_NOEDNS | HQ_AD, 1, 0},
        {HQ_NOEDNS, 0, 0},
    };
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "www.sig", DNSQ_A, rows[_i].flags, HARNESS_QUERY_MS, &r, &q);
    expect_a(&r, &q, "www.sig.", "192.0.2.120", rows[_i].ad, rows[_i].rrsig, "ok", NULL);
}
END_TEST

/* A validated denial of existence: NXDOMAIN with AD, the SOA and the NSEC
 * records with their signatures in the authority section. */
START_TEST(test_secure_nxdomain)
{
    struct dnsq_result r;
    struct qline q;
    char auth[DNSQ_ANSWER_MAX];

    hx_query(&H, "nothing.sig", DNSQ_A, HQ_DO, HARNESS_QUERY_MS, &r, &q);
    dnsq_section_summary(r.authority, auth, sizeof auth);
    ck_assert_msg(r.rcode == 3 && r.ancount == 0 && r.ad, "nothing.sig.: %s, AD %d, %d answers",
                  dnsq_rcode_name(r.rcode), r.ad, r.ancount);
    ck_assert_msg(dnsq_section_has(r.authority, "sig.", "SOA", NULL)
                      && dnsq_section_count(r.authority, "NSEC") >= 1
                      && dnsq_section_count(r.authority, "RRSIG")
                             == dnsq_section_count(r.authority, "NSEC") + 1,
                  "nothing.sig.: authority [%s], expected the SOA, NSEC and their RRSIGs", auth);
    ck_assert_msg(r.nscount == 2 * (1 + dnsq_section_count(r.authority, "NSEC")),
                  "nothing.sig.: nscount %d for authority [%s]", r.nscount, auth);
    ck_assert_msg(strcmp(q.rcode, "NXDOMAIN") == 0 && strcmp(q.verdict, "ok") == 0,
                  "nothing.sig.: line %s", q.raw);
}
END_TEST

/* The unsigned zones, under the unsigned root and outside the anchor, are
 * insecure: answered as before, never with AD or RRSIGs. */
START_TEST(test_insecure_answered)
{
    static const struct {
        const char *qname, *owner, *addr;
    } rows[] = {
        {"www.example", "www.example.", "192.0.2.1"},
        {"xn--bcher-kva.example", "xn--bcher-kva.example.", "192.0.2.2"},
        {"www.evil", "www.evil.", "192.0.2.100"},
    };
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, rows[_i].qname, DNSQ_A, HQ_DO, HARNESS_QUERY_MS, &r, &q);
    expect_a(&r, &q, rows[_i].owner, rows[_i].addr, 0, 0, "ok", NULL);
}
END_TEST

/* The negative control: bad.sig.'s DS in sig. matches none of its keys. */
START_TEST(test_bogus_servfail)
{
    static const unsigned how[] = {HQ_DO, 0};
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "www.bad.sig", DNSQ_A, how[_i], HARNESS_QUERY_MS, &r, &q);
    expect_bogus(&r, &q, "www.bad.sig.");
    if (how[_i] & HQ_DO)
        ck_assert_msg(r.ede_code >= 1 && r.ede_code <= 12,
                      "www.bad.sig.: EDE %d \"%s\", expected a DNSSEC one (RFC 8914 1-12)",
                      r.ede_code, r.ede_text);
}
END_TEST

/* With CD the client does its own validation: the bogus data, no AD. */
START_TEST(test_bogus_with_cd)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "www.bad.sig", DNSQ_A, HQ_CD | HQ_DO, HARNESS_QUERY_MS, &r, &q);
    expect_a(&r, &q, "www.bad.sig.", "192.0.2.123", 0, 1, "ok", NULL);
    ck_assert_msg(r.cd, "www.bad.sig.: CD not echoed in the reply");
}
END_TEST

/* With minimal-responses (Unbound's default) the address of an MX target
 * stays out of the additional section; the variant below turns that off. */
START_TEST(test_minimal_additional)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "mx.sig", DNSQ_MX, HQ_DO, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(r.rcode == 0 && r.ad && dnsq_answer_has(&r, "mx.sig.", "MX", "10 www.sig."),
                  "mx.sig. MX: %s, AD %d, answer [%s]", dnsq_rcode_name(r.rcode), r.ad, r.answer);
    ck_assert_msg(r.arcount == 0 && r.additional[0] == '\0' && r.has_opt,
                  "mx.sig. MX: %d additional records [%s], OPT %d", r.arcount, r.additional,
                  r.has_opt);
}
END_TEST

/* NSD itself, as the resolver sees it: it answers the DS of deny.sig. from
 * sig. (the parent side, signed by sig.), signs with DO only, and puts the
 * address of an MX target in the additional section (counted without the
 * OPT record). */
START_TEST(test_nsd_direct)
{
    struct dnsq_result r;
    char add[DNSQ_ANSWER_MAX];

    ck_assert(dnsq_query_ex(H.nsd_port, "deny.sig", DNSQ_DS, DNSQ_F_DO, HARNESS_QUERY_MS, &r)
              == 0);
    ck_assert_msg(r.rcode == 0 && r.aa && dnsq_answer_has(&r, "deny.sig.", "DS", NULL)
                      && dnsq_section_count(r.answer, "RRSIG") == 1
                      && strstr(r.answer, " sig. ") != NULL,
                  "DS deny.sig. from NSD: %s aa=%d [%s]", dnsq_rcode_name(r.rcode), r.aa, r.answer);

    ck_assert(dnsq_query_ex(H.nsd_port, "www.sig", DNSQ_A, 0, HARNESS_QUERY_MS, &r) == 0);
    ck_assert_msg(r.ancount == 1 && dnsq_section_count(r.answer, "RRSIG") == 0,
                  "www.sig. without DO: [%s]", r.answer);

    ck_assert(dnsq_query_ex(H.nsd_port, "mx.evil", DNSQ_MX, 0, HARNESS_QUERY_MS, &r) == 0);
    dnsq_section_summary(r.additional, add, sizeof add);
    ck_assert_msg(r.rcode == 0 && r.has_opt && r.arcount == 1
                      && strcmp(add, "xn--ab-m1t.evil. A 192.0.2.101") == 0,
                  "mx.evil MX from NSD: %s, OPT %d, %d additional [%s]", dnsq_rcode_name(r.rcode),
                  r.has_opt, r.arcount, add);
    ck_assert(dnsq_query_ex(H.nsd_port, "mx.evil", DNSQ_MX, DNSQ_F_NOEDNS, HARNESS_QUERY_MS, &r)
              == 0);
    ck_assert_msg(!r.has_opt && r.arcount == 1, "mx.evil MX without EDNS: OPT %d, %d additional",
                  r.has_opt, r.arcount);
    /* DO belongs in the OPT record: asking for it without one is refused. */
    ck_assert(dnsq_query_ex(H.nsd_port, "www.sig", DNSQ_A, DNSQ_F_DO | DNSQ_F_NOEDNS,
                            HARNESS_QUERY_MS, &r)
              == -1);
}
END_TEST

/* ---- a variant: no validator, minimal-responses off ---- */

static void setup_no_validator(void)
{
    static const struct harness_opts opts = {.module_config = "dynlib iterator",
                                             .server_extra = "minimal-responses: no\n"};

    harness_setup_ex(&H, "idnguard:\n", 1, &opts);
}

/* Nothing validates: no AD, the RRSIGs passed on as data, and bogus
 * bad.sig. answered, so the SERVFAIL above is the validator's. */
START_TEST(test_unvalidated)
{
    static const struct {
        const char *qname, *owner, *addr;
    } rows[] = {
        {"www.sig", "www.sig.", "192.0.2.120"},
        {"www.bad.sig", "www.bad.sig.", "192.0.2.123"},
    };
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, rows[_i].qname, DNSQ_A, HQ_DO | HQ_AD, HARNESS_QUERY_MS, &r, &q);
    expect_a(&r, &q, rows[_i].owner, rows[_i].addr, 0, 1, "ok", NULL);
}
END_TEST

/* server_extra reached the daemon (minimal-responses: no): the MX target's
 * address and its RRSIG in the additional section, the OPT record not
 * counted. */
START_TEST(test_full_additional)
{
    struct dnsq_result r;
    struct qline q;
    char add[DNSQ_ANSWER_MAX];

    hx_query(&H, "mx.sig", DNSQ_MX, HQ_DO, HARNESS_QUERY_MS, &r, &q);
    dnsq_section_summary(r.additional, add, sizeof add);
    ck_assert_msg(r.rcode == 0 && !r.ad && dnsq_answer_has(&r, "mx.sig.", "MX", "10 www.sig."),
                  "mx.sig. MX: %s, AD %d, answer [%s]", dnsq_rcode_name(r.rcode), r.ad, r.answer);
    ck_assert_msg(r.has_opt && r.arcount == 2
                      && dnsq_section_has(r.additional, "www.sig.", "A", "192.0.2.120")
                      && dnsq_section_has(r.additional, "www.sig.", "RRSIG", NULL),
                  "mx.sig. MX: %d additional records [%s], OPT %d; expected www.sig. A and RRSIG",
                  r.arcount, add, r.has_opt);
    ck_assert_msg(strcmp(q.qname, "mx.sig.") == 0 && strcmp(q.qtype, "MX") == 0
                      && strcmp(q.verdict, "ok") == 0 && strcmp(q.path, "resolved") == 0,
                  "mx.sig. MX: line %s", q.raw);
}
END_TEST

/* A negative answer for an allowed name below the denied zone: the SOA in
 * its authority section is owned by the denied deny.sig. and is left out,
 * the NSEC records that prove the answer stay, and the answer stands.
 * (The python module refuses such an answer whole; dnsdist drops the
 * authority section whole.) */
START_TEST(test_guard_denied_soa_stripped)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "nx.www.deny.sig", DNSQ_A, HQ_DO, HARNESS_QUERY_MS, &r, &q);
    if (harness_python()) {
        py_does("an answer with a rejected name's RRset in its authority section is refused");
        hx_expect_policy(&r, &q, "nx.www.deny.sig.", 5, "deny", "refuse", "idnguard: deny");
        return;
    }
    if (harness_flavour() == HX_DNSDIST)
        engine_does("the authority section is dropped whole, its NSEC records too");
    ck_assert_msg(r.rcode == 3 && !dnsq_section_has(r.authority, "deny.sig.", "SOA", NULL)
                      && (dnsq_section_count(r.authority, "NSEC") > 0
                          || harness_flavour() == HX_DNSDIST),
                  "nx.www.deny.sig.: %s, authority:\n%s", dnsq_rcode_name(r.rcode), r.authority);
    ck_assert_msg(strcmp(q.rcode, "NXDOMAIN") == 0 && strcmp(q.action, "pass") == 0
                      && strcmp(q.path, "resolved") == 0,
                  "nx.www.deny.sig.: line %s", q.raw);
}
END_TEST

static Suite *dnssec_suite(void)
{
    Suite *s = suite_create("integration-dnssec");
    TCase *tc;

    tc = harness_tcase("guard", setup_guard, teardown);
    tcase_add_test(tc, test_guard_parent_secure);
    tcase_add_test(tc, test_guard_allowed_child_secure);
    tcase_add_test(tc, test_guard_denied_child_refused);
    tcase_add_test(tc, test_guard_validator_lookups_not_served);
    tcase_add_test(tc, test_guard_denied_soa_stripped);
    suite_add_tcase(s, tc);

    tc = harness_tcase("validation", setup_plain, teardown);
    tcase_add_loop_test(tc, test_secure_with_do, 0, 3);
    tcase_add_loop_test(tc, test_ad_only_when_asked, 0, 5);
    tcase_add_test(tc, test_secure_nxdomain);
    tcase_add_loop_test(tc, test_insecure_answered, 0, 3);
    tcase_add_loop_test(tc, test_bogus_servfail, 0, 2);
    tcase_add_test(tc, test_bogus_with_cd);
    tcase_add_test(tc, test_minimal_additional);
    tcase_add_test(tc, test_nsd_direct);
    suite_add_tcase(s, tc);

    /* Unbound's own set-up */
    if (!harness_engine()) {
        tc = harness_tcase("no-validator", setup_no_validator, teardown);
        tcase_add_loop_test(tc, test_unvalidated, 0, 2);
        tcase_add_test(tc, test_full_additional);
        suite_add_tcase(s, tc);
    }
    return s;
}

IDNG_TEST_MAIN(dnssec_suite)
