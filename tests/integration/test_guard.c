/**
 * \file
 * Guard integrity: the attacks of the security review, run against the real
 * daemon with crafted zone data (tests/integration/zones/evil.zone).  Each
 * attack tries to get a rejected name past the module by one path (an
 * answer chain behind a raw label, a negative answer, the additional
 * section, a relaxed class in front, an expired entry) and each test
 * asserts three things: what the client gets, what a later query for the
 * rejected name gets from the cache (with CD=1, which lets Unbound's worker
 * answer from its message cache what the validator has not checked), and
 * what the log says.
 *
 * Three daemon set-ups: the default module chain (dynlib validator
 * iterator); dynlib iterator with serve-expired; minimal-responses: no.
 * Within a tcase the tests run in order on one daemon pair, and the later
 * checks rely on what the earlier ones left in the cache, on purpose.  The
 * log lines of these attacks and the resource faults are in
 * test_guard_logs.c.
 */
#include "common.h"
#include "harness.h"
#include "guard.h"

#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

static void setup_relaxed(void)
{
    harness_setup(&H,
                  "idnguard:\n"
                  "on-not-canonical: log\n"
                  "on-hyphen: pass\n"
                  "on-raw-8bit: log\n",
                  1);
}

static void setup_iterator_expired(void)
{
    static const struct harness_opts o = {
        .module_config = "dynlib iterator",
        .server_extra =
            "serve-expired: yes\nserve-expired-ttl: 3600\nserve-expired-reply-ttl: 30\n"};
    harness_setup_ex(&H, "idnguard:\n", 1, &o);
}

static void setup_full_responses(void)
{
    static const struct harness_opts o = {.server_extra = "minimal-responses: no\n"};
    harness_setup_ex(&H, "idnguard:\n", 1, &o);
}

/* kresd only (its server_extra is Lua for kresd.conf): policy.STUB in
 * place of forwarding, which stores each whole response as a packet. */
static void setup_kresd_stub(void)
{
    static const struct harness_opts o = {
        .server_extra = "policy.add(policy.all(policy.STUB('127.0.0.1@@NSD_PORT@')))\n"};
    harness_setup_ex(&H, "idnguard:\n", 1, &o);
}

/* deleg5.evil NS nsc.evil, nsc.evil CNAME lo.xn--ab-m1t.evil A 127.0.0.1:
 * the name server's name is clean, and its address lookup, the iterator's
 * own (no module sees it), is answered in one response through a fake
 * label.  A client asking for nsc.evil afterwards, CD=1 (a cache entry
 * would be served unvalidated), must get the refusal, not that chain.
 * (The python module without the query_response callback catches it as
 * the iterator asks for the fake label next: tested, not assumed.) */
START_TEST(test_iterator_lookup_chain_not_cached)
{
    struct dnsq_result r;

    /* Starts the lookup; the resolution itself cannot finish (nothing
     * answers on 127.0.0.1:53), so the reply is not waited for. */
    ck_assert(dnsq_query_ex(H.port, "www.deleg5.evil", DNSQ_A, 0, 400, &r) == 0);
    expect_refused("nsc.evil", HQ_CD, "contextj:xn--ab-m1t", FAKE_EDE);
    expect_refused("nsc.evil", 0, "contextj:xn--ab-m1t", FAKE_EDE);
}
END_TEST

/* ---- 1. first-label-wins, in answers and in the cache ---- */

/* rawc CNAME \195\188.xn--ab-m1t.evil.: the raw label in front used to
 * hide the fake one; the answer was given, and the target cached. */
START_TEST(test_raw_label_before_fake_in_cname)
{
    expect_refused("rawc.evil", 0, "contextj:xn--ab-m1t", FAKE_EDE);
    expect_refused("rawc.evil", 0, "contextj:xn--ab-m1t", FAKE_EDE);
    /* The chased target: not in the cache, judged when asked. */
    expect_refused("\\195\\188.xn--ab-m1t.evil", HQ_CD, "contextj:xn--ab-m1t", FAKE_EDE);
}
END_TEST

/* The same with a first label that is not even UTF-8: both labels are
 * refused, and the first of the equally severe ones is named. */
START_TEST(test_bad_utf8_label_before_fake_in_cname)
{
    expect_refused("badutf.evil", 0, "bad-utf8:\\200", "idnguard: bad-utf8: \\200: ");
    expect_refused("\\200.xn--ab-m1t.evil", HQ_CD, "bad-utf8:\\200", "idnguard: bad-utf8: \\200: ");
}
END_TEST

/* A DNAME into such a name. */
START_TEST(test_dname_into_raw_then_fake)
{
    expect_refused("x.rawdn.evil", 0, "contextj:xn--ab-m1t", FAKE_EDE);
    expect_refused("x.\\195\\188.xn--ab-m1t.evil", HQ_CD, "contextj:xn--ab-m1t", FAKE_EDE);
}
END_TEST

/* A CNAME to a raw name holding U+202E, which is REFUSED when asked
 * directly: "normalize" does not let it through on the answer path. */
START_TEST(test_cname_to_raw_rlo)
{
    const char *v = "disallowed:a\\226\\128\\174b";
    const char *ede = "idnguard: disallowed: a\\226\\128\\174b: ";

    expect_refused("rlo.evil", 0, v, ede);
    expect_refused("a\\226\\128\\174b.evil", HQ_CD, v, ede);
}
END_TEST

/* A raw target that normalizes to a valid name is judged as that name, and
 * answered. */
START_TEST(test_cname_to_raw_good_answered)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "rawok.evil", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "rawok.evil.",
                   "rawok.evil. CNAME \\195\\188.evil. | \\195\\188.evil. A 192.0.2.106", "ok",
                   "pass", "resolved");
}
END_TEST

/* The control that makes the CD=1 checks above mean something: a name
 * that was answered is served from the cache to a CD=1 query. */
START_TEST(test_cd_query_is_served_from_cache)
{
    expect_cached("www.evil", HQ_CD, HQ_CD, "www.evil. A 192.0.2.100");
}
END_TEST

/* mx.evil MX: NSD sends the fake name's address in the additional section
 * (an in-zone MX target).  The answer stands, but nothing of that response
 * is stored: asked again, it is resolved again, not answered from the
 * cache.  (The python module refuses such an answer whole.  pdns: its record
 * cache stores a response before any hook; dnsdist: it caches the answer
 * with that section dropped.) */
START_TEST(test_rejected_extra_keeps_response_out_of_cache)
{
    struct dnsq_result r;
    struct qline q;
    int i;

    for (i = 0; i < 2; i++) {
        hx_query(&H, "mx.evil", DNSQ_MX, 0, HARNESS_QUERY_MS, &r, &q);
        if (harness_python()) {
            py_does("an answer with a rejected name's RRset in its additional section is refused");
            hx_expect_policy(&r, &q, "mx.evil.", 5, "contextj:xn--ab-m1t", "refuse", FAKE_EDE);
            continue;
        }
        if (i == 1 && (harness_flavour() == HX_PDNS || harness_flavour() == HX_DNSDIST))
            engine_does("the answer without the fake name's address is cached");
        hx_expect_data(&r, &q, "mx.evil.", "mx.evil. MX 10 xn--ab-m1t.evil.", "ok", "pass",
                       i == 0 ? "resolved" : ENGINE("resolved", "resolved", "cache", "cache"));
    }
}
END_TEST

/* ---- 1. first-label-wins, in queries with relaxed classes ---- */

START_TEST(test_relaxed_label_before_fake)
{
    static const char *const names[] = {
        "xn--bc-kw3n.xn--ab-m1t.evil",    /* not-canonical: log */
        "xn--ab--c-kra.xn--ab-m1t.evil",  /* hyphen: pass */
        "\\195\\188.xn--ab-m1t.evil",     /* raw-8bit: log */
    };
    expect_refused(names[_i], 0, "contextj:xn--ab-m1t", FAKE_EDE);
}
END_TEST

/* The relaxed label alone is still answered, and logged as such. */
START_TEST(test_relaxed_label_alone_logged)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "xn--bc-kw3n.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "xn--bc-kw3n.example.", "xn--bc-kw3n.example. A 192.0.2.71",
                   "not-canonical:xn--bc-kw3n", "log", "resolved");
}
END_TEST

/* ---- 2. negative answers for rejected names ---- */

/* deleg.evil is delegated to ns.xn--ab-m1t.evil: the iterator looks that
 * name up itself (no client query, no module), gets NXDOMAIN, and used to
 * cache it; a CD=1 query then got "NXDOMAIN ... pass cache".  deleg2.evil
 * does the same with NODATA (nodata.xn--ab-m1t.evil has a TXT record only). */
static const struct {
    const char *query, *ns_name;
} fake_ns[] = {
    {"www.deleg.evil", "ns.xn--ab-m1t.evil"},
    {"www.deleg2.evil", "nodata.xn--ab-m1t.evil"},
};

START_TEST(test_fake_ns_name_negative_not_cached)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, fake_ns[_i].query, DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    if (harness_flavour() == HX_KRESD)
        engine_does("kresd forwards to the lab's NSD: the referral is the answer (NOERROR), and "
                    "kresd looks up no name server of its own");
    ck_assert_msg(r.rcode == ENGINE(2, 0, 2, 2), "%s: %s (expected SERVFAIL: no name server)",
                  fake_ns[_i].query, dnsq_rcode_name(r.rcode));
    expect_refused(fake_ns[_i].ns_name, HQ_CD, "contextj:xn--ab-m1t", FAKE_EDE);
}
END_TEST

/* ---- 3. additional and authority sections ---- */

/* With minimal-responses: no, NSD sends the fake name's address with the
 * MX and SRV answers.  The answer stands (the target is judged when a
 * client asks for it); the RRset owned by the rejected name is stripped. */
static void expect_stripped(const char *qname, uint16_t qtype, const char *summary)
{
    struct dnsq_result r;
    struct qline q;
    char qlog[300];

    snprintf(qlog, sizeof qlog, "%s.", qname);
    hx_query(&H, qname, qtype, 0, HARNESS_QUERY_MS, &r, &q);
    if (harness_python()) {
        /* PY: one RRset cannot be taken out of an answer from python: the
         * answer that carries the rejected name's data is refused whole. */
        py_does("an answer with a rejected name's RRset in its additional section is refused");
        hx_expect_policy(&r, &q, qlog, 5, "contextj:xn--ab-m1t", "refuse", FAKE_EDE);
        return;
    }
    hx_expect_data(&r, &q, qlog, summary, "ok", "pass", "resolved");
    ck_assert_msg(!dnsq_section_has(r.additional, "xn--ab-m1t.evil.", "A", NULL),
                  "%s: the fake name's address is in the additional section:\n%s", qname,
                  r.additional);
    ck_assert_msg(!dnsq_section_has(r.authority, "xn--ab-m1t.evil.", NULL, NULL)
                      || dnsq_section_count(r.authority, "NSEC") > 0,
                  "%s: authority section:\n%s", qname, r.authority);
}

START_TEST(test_additional_stripped_mx)
{
    expect_stripped("mx.evil", DNSQ_MX, "mx.evil. MX 10 xn--ab-m1t.evil.");
    /* Nor was it cached from there. */
    expect_refused("xn--ab-m1t.evil", HQ_CD, "contextj:xn--ab-m1t", FAKE_EDE);
}
END_TEST

START_TEST(test_additional_stripped_srv)
{
    expect_stripped("_sip._tcp.evil", 33, "_sip._tcp.evil. SRV 0 0 5060 xn--ab-m1t.evil.");
}
END_TEST

/* The control: in this set-up additional data does reach the client. */
START_TEST(test_additional_kept_for_good_names)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "example", DNSQ_NS, 0, HARNESS_QUERY_MS, &r, &q);
    ck_assert_int_eq(r.rcode, 0);
    ck_assert_msg(dnsq_section_has(r.additional, "ns.example.", "A", "127.0.0.1"),
                  "no glue for ns.example. in:\n%s", r.additional);
}
END_TEST

/* ---- iterator only, serve-expired ---- */

/* Without the validator every cache hit is served, CD or not; with
 * serve-expired an entry outlives its TTL.  The two-second chain is
 * refused, and after its TTL has run out the target is still not served. */
START_TEST(test_serve_expired_never_serves_rejected)
{
    struct timespec ts = {3, 0};

    expect_refused("short.evil", 0, "contextj:xn--ab-m1t", FAKE_EDE);
    expect_refused("rawc.evil", 0, "contextj:xn--ab-m1t", FAKE_EDE);
    nanosleep(&ts, NULL);
    expect_refused("\\195\\188.s.xn--ab-m1t.evil", 0, "contextj:xn--ab-m1t", FAKE_EDE);
    expect_refused("\\195\\188.xn--ab-m1t.evil", 0, "contextj:xn--ab-m1t", FAKE_EDE);
    expect_refused("short.evil", 0, "contextj:xn--ab-m1t", FAKE_EDE);
}
END_TEST

START_TEST(test_iterator_negative_not_cached)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "www.deleg.evil", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    expect_refused("ns.xn--ab-m1t.evil", 0, "contextj:xn--ab-m1t", FAKE_EDE);
}
END_TEST

/* The control: this daemon does cache and serve. */
START_TEST(test_iterator_caches_good_names)
{
    expect_cached("www.evil", 0, 0, "www.evil. A 192.0.2.100");
}
END_TEST

/* ---- found by the review of the fix: RD=0 queries, raw spellings ---- */

/*
 * RD=0 queries reach the resolver only with access-control allow_snoop.
 * For them Unbound's validator stores every RRset of the answer in the
 * RRset cache whatever no_cache_store says (validator.c processFinished,
 * "for a referral, store the verified RRsets"), and later answers are built
 * from that cache without any upstream response.  So the module strips the
 * rejected RRsets from such a response before the cache and holds the
 * verdict for the client.  Each of these tcases has a daemon of its own: an
 * RD=0 query is resolved only while no delegation for it is cached.
 */
static void setup_snoop(void)
{
    static const struct harness_opts o = {.server_extra = "access-control: 127.0.0.0/8 allow_snoop\n"};
    harness_setup_ex(&H, "idnguard:\n", 1, &o);
}

/* deny: déjà.evil is stored as xn--dj-kia8a.evil; a raw spelling of it is
 * judged as the name it stands for whatever on-raw-8bit says. */
static void setup_raw_log(void)
{
    harness_setup(&H, "idnguard:\non-raw-8bit: log\ndeny: d\xc3\xa9j\xc3\xa0.evil\n", 1);
}

static void setup_raw_pass(void)
{
    harness_setup(&H, "idnguard:\non-raw-8bit: pass\ndeny: d\xc3\xa9j\xc3\xa0.evil\n", 1);
}

/* snoop.example CNAME c.xn--ab-m1t.example CNAME www.example A.  One RD=0
 * query (refused) used to put both CNAMEs in the RRset cache; the next RD=1
 * query was assembled from the cache (refused, but stored in the message
 * cache), and every later client got the chain from the message cache. */
START_TEST(test_rd0_poisons_message_cache)
{
    int i;

    expect_refused("snoop.example", HQ_NORD, "contextj:xn--ab-m1t", FAKE_EDE);
    for (i = 0; i < 3; i++)
        expect_refused("snoop.example", 0, "contextj:xn--ab-m1t", FAKE_EDE);
    expect_refused("snoop.example", HQ_CD, "contextj:xn--ab-m1t", FAKE_EDE);
    expect_refused("snoop.example", HQ_TCP, "contextj:xn--ab-m1t", FAKE_EDE);
}
END_TEST

/* deleg4.evil NS lo.xn--ab-m1t.example.  The fake name's address used to
 * get into the RRset cache through the RD=0 store (lochain.example CNAME
 * lo.xn--ab-m1t.example), the delegation through an ordinary RD=1 query,
 * and the worker then handed both out to RD=0 queries.  (The referral
 * itself, NS records naming the fake name, still goes out: the worker
 * answers RD=0 queries from the cache before any module; see docs/limits.md.) */
START_TEST(test_rd0_referral_carries_fake_glue)
{
    struct dnsq_result r;
    struct qline q;
    int i;

    expect_refused("lochain.example", HQ_NORD, "contextj:xn--ab-m1t", FAKE_EDE);
    /* The fake name's own RRset is not in the RRset cache either, where
     * the worker would build an RD=0 answer from it. */
    hx_query(&H, "lo.xn--ab-m1t.example", DNSQ_A, HQ_NORD, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(!dnsq_answer_has(&r, "lo.xn--ab-m1t.example.", "A", NULL),
                  "RD=0 lo.xn--ab-m1t.example: %s from %s, [%s]", dnsq_rcode_name(r.rcode), q.path,
                  r.answer);
    /* Caches the referral; the resolution itself cannot finish (nothing
     * answers on 127.0.0.1:53), so the reply is not waited for. */
    ck_assert(dnsq_query_ex(H.port, "www.deleg4.evil", DNSQ_A, 0, 400, &r) == 0);
    for (i = 0; i < 3; i++) {
        hx_query(&H, "www.deleg4.evil", DNSQ_A, HQ_NORD, HARNESS_QUERY_MS, &r, &q);
        ck_assert_msg(!dnsq_section_has(r.additional, "lo.xn--ab-m1t.example.", "A", NULL),
                      "RD=0 query %d (%s, path %s): the fake name's address is in the "
                      "additional section:\n%s",
                      i, dnsq_rcode_name(r.rcode), q.path, r.additional);
    }
}
END_TEST

/* The control: RD=0 queries are answered at all in this set-up. */
START_TEST(test_rd0_allowed)
{
    /* dnsdist: RD is part of its packet cache's key, as all the header:
     * the first RD=0 query is the backend's, answered from its cache. */
    engine_does("RD is part of dnsdist's cache key");
    if (harness_flavour() == HX_DNSDIST)
        expect_cached("www.example", 0, 0, "www.example. A 192.0.2.1");
    expect_cached("www.example", ENGINE(0, 0, 0, HQ_NORD), HQ_NORD, "www.example. A 192.0.2.1");
}
END_TEST

/* deny: déjà.evil (stored as xn--dj-kia8a.evil).  The raw UTF-8 spelling
 * of that name, asked directly and reached through a CNAME. */
START_TEST(test_raw_spelling_of_denied_name)
{
    expect_refused("d\\195\\169j\\195\\160.evil", 0, "deny", "idnguard: deny");
}
END_TEST

START_TEST(test_cname_to_raw_spelling_of_denied_name)
{
    expect_refused("rawdeny.evil", 0, "deny", "idnguard: deny");
}
END_TEST

/* 0à.א.evil: its A-label form xn--0-sfa.xn--4db.evil breaks the bidi rule
 * across labels; the raw spelling of the same name is refused too. */
START_TEST(test_raw_spelling_breaking_bidi_rule)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "0\\195\\160.\\215\\144.evil", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(r.rcode == 5,
                  "0\\195\\160.\\215\\144.evil: %s, line: %s (its A-label form is REFUSED)",
                  dnsq_rcode_name(r.rcode), q.raw);
}
END_TEST

/* The control: the A-label forms are refused in this set-up. */
START_TEST(test_alabel_forms_refused)
{
    struct dnsq_result r;
    struct qline q;

    expect_refused("xn--dj-kia8a.evil", 0, "deny", "idnguard: deny");
    hx_query(&H, "xn--0-sfa.xn--4db.evil", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(r.rcode == 5, "xn--0-sfa.xn--4db.evil: %s", dnsq_rcode_name(r.rcode));
}
END_TEST

/* ---- dnsdist: the edge's own promises ---- */

/* The backend (the Unbound built here, without the module) logs the
 * queries it gets, so that a test can tell what dnsdist's packet cache
 * answered and what went upstream. */
static const struct harness_opts edge_opts = {.server_extra = "log-queries: yes\n"};

static void setup_edge(void)
{
    harness_setup_ex(&H, "idnguard:\n", 1, &edge_opts);
}

/* BIND 9.20 (named, from the engines root) beside it: dnsdist sends
 * queries to the two in turn (tests/integration/engines/dnsdist.sh). */
static void setup_two_backends(void)
{
    setenv("LAB_DNSDIST_BIND", "yes", 1);
    harness_setup_ex(&H, "idnguard:\n", 1, &edge_opts);
    unsetenv("LAB_DNSDIST_BIND");
}

/* Lines of the backend's log (file, in the test's directory) that hold
 * needle, once there are at least n (bounded wait). */
static int backend_lines(const char *file, const char *needle, int n)
{
    char path[HARNESS_PATH_MAX + 16];

    snprintf(path, sizeof path, "%s/%s", H.dir, file);
    return harness_wait_count(path, 0, needle, n, HARNESS_LOG_MS);
}

/* The CD bit is part of dnsdist's cache key: a CD=1 query does not get the
 * entry a CD=0 query left (it is asked upstream, where the backend
 * answers it unvalidated), and is then cached on its own. */
START_TEST(test_edge_cd_bit_keys_the_cache)
{
    expect_cached("www.example", 0, 0, "www.example. A 192.0.2.1");
    expect_cached("www.example", HQ_CD, HQ_CD, "www.example. A 192.0.2.1");
}
END_TEST

/* A rejected response never enters the packet cache: each repeat, CD=1
 * too, goes to the backend (which has the chain in its own cache) and is
 * judged again.  The control: a clean answer is asked upstream once. */
START_TEST(test_edge_rejected_not_in_packet_cache)
{
    int i;

    for (i = 0; i < 3; i++)
        expect_refused("alias.example", i == 2 ? HQ_CD : 0, "contextj:xn--ab-m1t", FAKE_EDE);
    ck_assert_int_eq(backend_lines("backend.log", " alias.example. A IN", 3), 3);
    expect_cached("www2.example", 0, 0, "www2.example. A 192.0.2.11");
    ck_assert_int_eq(backend_lines("backend.log", " www2.example. A IN", 1), 1);
}
END_TEST

/* An answer cached before a settings change is judged by the new settings
 * when it is served: good-alias.example's chain is in the packet cache
 * when xn--bcher-kva.example becomes denied, and the next client gets the
 * refusal, not the cached chain. */
START_TEST(test_edge_cached_answer_judged_again)
{
    int before = harness_count_lines(H.ub_log, 0, "without a reload");

    expect_cached("good-alias.example", 0, 0,
                  "good-alias.example. CNAME xn--bcher-kva.example. | "
                  "xn--bcher-kva.example. A 192.0.2.2");
    ck_assert_int_eq(harness_write_conf(&H, "idnguard:\ndeny: xn--bcher-kva.example.\n"), 0);
    ck_assert_msg(harness_wait_count(H.ub_log, 0, "without a reload", before + 1, 5000) > before,
                  "the changed settings were not applied");
    expect_refused("good-alias.example", 0, "deny", "idnguard: deny");
}
END_TEST

/* Answers dnsdist makes itself (an operator's rule after idnguard's, in
 * the lab's dnsdist.conf: spoof.local.test. A 192.0.2.53) are logged as
 * local; the guard's own answers, which dnsdist's self-answered rules see
 * too, get one line each: the query rule's. */
START_TEST(test_edge_own_answers_logged)
{
    static const char *const guarded[] = {"xn--ab-m1t.example", "b\\195\\188cher.example"};
    struct dnsq_result r;
    struct qline q;
    char needle[40];
    long from;
    size_t i;

    hx_query(&H, "spoof.local.test", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "spoof.local.test.", "spoof.local.test. A 192.0.2.53", "ok", "pass",
                   "local");
    for (i = 0; i < sizeof guarded / sizeof guarded[0]; i++) {
        from = harness_file_size(H.qlog);
        hx_query(&H, guarded[i], DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
        ck_assert_msg(strcmp(q.path, "policy") == 0, "%s: %s", guarded[i], q.raw);
        snprintf(needle, sizeof needle, "127.0.0.1#%u ", r.local_port);
        ck_assert_int_eq(harness_count_lines(H.qlog, from, needle), 1);
    }
}
END_TEST

/* The counters' summary line every stats-interval seconds, from dnsdist's
 * maintenance hook, with what was counted. */
static void setup_edge_stats(void)
{
    harness_setup(&H, "idnguard:\nstats-interval: 1\n", 1);
}

START_TEST(test_edge_stats_line)
{
    char line[2048];
    long from;

    expect_refused("alias.example", 0, "contextj:xn--ab-m1t", FAKE_EDE);
    from = harness_file_size(H.ub_log);
    ck_assert_msg(harness_wait_line(H.ub_log, from, "idnguard stats (interval): ", 5000, line,
                                    sizeof line),
                  "no stats line");
    ck_assert_msg(strstr(line, " answers-rejected=1 ") && strstr(line, " uncached=1 "),
                  "stats line: %s", line);
}
END_TEST

/* Two backends, Unbound and BIND: each attack is asked twice, so that each
 * backend answers it once, and every answer is refused at the edge. */
START_TEST(test_edge_protects_both_backends)
{
    static const char *const attacks[] = {"alias.example", "chain.example", "rawc.evil",
                                          "nsc.evil"};
    char needle[128];
    size_t i;
    int k;

    for (i = 0; i < sizeof attacks / sizeof attacks[0]; i++)
        for (k = 0; k < 2; k++)
            expect_refused(attacks[i], 0, "contextj:xn--ab-m1t", FAKE_EDE);
    for (i = 0; i < sizeof attacks / sizeof attacks[0]; i++) {
        snprintf(needle, sizeof needle, " %s. A IN", attacks[i]);
        ck_assert_msg(backend_lines("backend.log", needle, 1) >= 1, "Unbound never got %s",
                      attacks[i]);
        snprintf(needle, sizeof needle, "query: %s IN A ", attacks[i]);
        ck_assert_msg(backend_lines("named.out", needle, 1) >= 1, "BIND never got %s",
                      attacks[i]);
    }
}
END_TEST

static Suite *guard_suite(void)
{
    Suite *s = suite_create("integration-guard");
    TCase *tc = harness_tcase("answers", setup_default, teardown);
    tcase_add_test(tc, test_cd_query_is_served_from_cache);
    tcase_add_test(tc, test_rejected_extra_keeps_response_out_of_cache);
    tcase_add_test(tc, test_raw_label_before_fake_in_cname);
    tcase_add_test(tc, test_bad_utf8_label_before_fake_in_cname);
    tcase_add_test(tc, test_dname_into_raw_then_fake);
    tcase_add_test(tc, test_cname_to_raw_rlo);
    tcase_add_test(tc, test_cname_to_raw_good_answered);
    tcase_add_loop_test(tc, test_fake_ns_name_negative_not_cached, 0, 2);
    tcase_add_test(tc, test_iterator_lookup_chain_not_cached);
    suite_add_tcase(s, tc);

    /* The same checks of what is stored, in kresd's stub mode. */
    if (harness_flavour() == HX_KRESD) {
        tc = harness_tcase("kresd-stub", setup_kresd_stub, teardown);
        tcase_add_test(tc, test_cd_query_is_served_from_cache);
        tcase_add_test(tc, test_rejected_extra_keeps_response_out_of_cache);
        tcase_add_test(tc, test_raw_label_before_fake_in_cname);
        suite_add_tcase(s, tc);
    }

    tc = harness_tcase("relaxed", setup_relaxed, teardown);
    tcase_add_loop_test(tc, test_relaxed_label_before_fake, 0, 3);
    tcase_add_test(tc, test_relaxed_label_alone_logged);
    suite_add_tcase(s, tc);

    /* pdns: tests/integration/engines/pdns.sh gives the Recursor these
     * two set-ups' counterparts (additional records for NS, MX and SRV;
     * no validation, serve-stale); dnsdist: its backend Unbound takes the
     * server: lines as they are. */
    if (harness_flavour() != HX_KRESD) {
        tc = harness_tcase("full-responses", setup_full_responses, teardown);
        tcase_add_test(tc, test_additional_kept_for_good_names);
        tcase_add_test(tc, test_additional_stripped_mx);
        tcase_add_test(tc, test_additional_stripped_srv);
        suite_add_tcase(s, tc);

        tc = harness_tcase("iterator-serve-expired", setup_iterator_expired, teardown);
        tcase_add_test(tc, test_iterator_caches_good_names);
        tcase_add_test(tc, test_serve_expired_never_serves_rejected);
        tcase_add_test(tc, test_iterator_negative_not_cached);
        suite_add_tcase(s, tc);
    }

    /* Unbound's allow_snoop and its RD=0 resolution (dnsdist: its backend's). */
    if (!harness_engine() || harness_flavour() == HX_DNSDIST) {
        tc = harness_tcase("rd0-message-cache", setup_snoop, teardown);
        tcase_add_test(tc, test_rd0_poisons_message_cache);
        suite_add_tcase(s, tc);

        tc = harness_tcase("rd0-referral", setup_snoop, teardown);
        tcase_add_test(tc, test_rd0_referral_carries_fake_glue);
        tcase_add_test(tc, test_rd0_allowed);
        suite_add_tcase(s, tc);
    }

    tc = harness_tcase("raw-log", setup_raw_log, teardown);
    tcase_add_test(tc, test_alabel_forms_refused);
    tcase_add_test(tc, test_raw_spelling_of_denied_name);
    tcase_add_test(tc, test_cname_to_raw_spelling_of_denied_name);
    tcase_add_test(tc, test_raw_spelling_breaking_bidi_rule);
    suite_add_tcase(s, tc);

    tc = harness_tcase("raw-pass", setup_raw_pass, teardown);
    tcase_add_test(tc, test_alabel_forms_refused);
    tcase_add_test(tc, test_raw_spelling_of_denied_name);
    tcase_add_test(tc, test_cname_to_raw_spelling_of_denied_name);
    tcase_add_test(tc, test_raw_spelling_breaking_bidi_rule);
    suite_add_tcase(s, tc);

    if (harness_flavour() == HX_DNSDIST) {
        tc = harness_tcase("edge", setup_edge, teardown);
        tcase_add_test(tc, test_edge_cd_bit_keys_the_cache);
        tcase_add_test(tc, test_edge_own_answers_logged);
        tcase_add_test(tc, test_edge_rejected_not_in_packet_cache);
        tcase_add_test(tc, test_edge_cached_answer_judged_again);
        suite_add_tcase(s, tc);

        tc = harness_tcase("edge-stats", setup_edge_stats, teardown);
        tcase_add_test(tc, test_edge_stats_line);
        suite_add_tcase(s, tc);

        tc = harness_tcase("two-backends", setup_two_backends, teardown);
        tcase_add_test(tc, test_edge_protects_both_backends);
        suite_add_tcase(s, tc);
    }
    return s;
}

IDNG_TEST_MAIN(guard_suite)
