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
 * checks rely on what the earlier ones left in the cache, on purpose.
 */
#include "common.h"
#include "harness.h"

#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

static struct harness H;

/* The rejected name every chain aims at, as the EDE names it. */
#define FAKE_EDE "idnguard: contextj: xn--ab-m1t: "

static void setup_default(void)
{
    harness_setup(&H, "idnguard:\n", 1);
}

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

static void teardown(void)
{
    harness_stop(&H);
}

/* qname (presentation form, no final dot) is REFUSED by the module with
 * verdict and EDE; flags are HQ_* (HQ_CD for "from the cache?"). */
static void expect_refused(const char *qname, unsigned flags, const char *verdict,
                           const char *ede_prefix)
{
    struct dnsq_result r;
    struct qline q;
    char qlog[600];

    snprintf(qlog, sizeof qlog, "%s.", qname);
    hx_query(&H, qname, DNSQ_A, flags, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, qlog, 5, verdict, "refuse", ede_prefix);
}

/* qname answered first from upstream (first_flags), then from the cache
 * (flags): the controls that make the cache checks mean something. */
static void expect_cached(const char *qname, unsigned first_flags, unsigned flags,
                          const char *summary)
{
    struct dnsq_result r;
    struct qline q;
    char qlog[300];

    snprintf(qlog, sizeof qlog, "%s.", qname);
    hx_query(&H, qname, DNSQ_A, first_flags, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, qlog, summary, "ok", "pass", "resolved");
    hx_query(&H, qname, DNSQ_A, flags, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, qlog, summary, "ok", "pass", "cache");
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


/* ---- 5. logs that tell what clients got ---- */

static void setup_drop(void)
{
    harness_setup(&H, "idnguard:\non-invalid: drop\n", 1);
}

/* The line for the query sent from port (bounded wait); fails the test when
 * there is none. */
static void line_for_port(long from, unsigned port, struct qline *q)
{
    char needle[40], buf[4096];

    snprintf(needle, sizeof needle, "127.0.0.1#%u ", port);
    ck_assert_msg(harness_wait_line(H.qlog, from, needle, HARNESS_LOG_MS, buf, sizeof buf),
                  "no log line for the query from port %u", port);
    ck_assert_msg(qline_parse(buf, q) == 0, "line does not parse: %s", buf);
    snprintf(q->raw, sizeof q->raw, "%s", buf);
}

struct conc {
    const char *qname;
    unsigned flags;
    int timeout_ms;
    struct dnsq_result r;
    int rc;
};

static void *conc_run(void *arg)
{
    struct conc *c = arg;
    c->rc = dnsq_query_ex(H.port, c->qname, DNSQ_A, c->flags, c->timeout_ms, &c->r);
    return NULL;
}

/* Sends the queries at once, from threads, so that they join one mesh
 * state in the daemon (whether they do is up to timing; what each client
 * must get does not depend on it). */
static void concurrent(struct conc *c, size_t n)
{
    pthread_t t[8];
    size_t i;

    ck_assert(n <= 8);
    for (i = 0; i < n; i++)
        ck_assert(pthread_create(&t[i], NULL, conc_run, &c[i]) == 0);
    for (i = 0; i < n; i++) {
        pthread_join(t[i], NULL);
        ck_assert_msg(c[i].rc == 0, "query for %s failed locally", c[i].qname);
    }
}

/* On a cache hit Unbound hands the callback the RCODE bits of the query,
 * which the client chooses: the line must carry the reply's. */
START_TEST(test_cache_rcode_is_the_replys)
{
    /* dnsdist: the query's header, RCODE bits included, is part of the
     * packet cache's key, so the entry hit is one such a query made. */
    engine_does("a query's RCODE bits are part of dnsdist's cache key");
    expect_cached("www.evil", ENGINE(0, 0, 0, HQ_RCODE5), HQ_RCODE5, "www.evil. A 192.0.2.100");
}
END_TEST

/* ede=15 only when the client got it: not without EDNS ... */
START_TEST(test_ede_logged_only_without_edns_absent)
{
    struct dnsq_result r;
    struct qline q;

    if (!ENGINE(harness_python(), 0, 1, 0)) {
        expect_refused("xn--ab-m1t.example", HQ_NOEDNS, "contextj:xn--ab-m1t", NULL);
        return;
    }
    /* PY: the line is written when the module answers, before Unbound
     * encodes the reply, and the python API does not say whether the client
     * sent EDNS: ede=15 says the module attached it.  pdns: the same (the
     * line is written in the Lua hook, and dq does not show the OPT). */
    py_does("ede=15 in the line means attached, not received");
    engine_does("ede=15 in the line means attached, not received");
    hx_query(&H, "xn--ab-m1t.example", DNSQ_A, HQ_NOEDNS, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(r.rcode == 5 && r.ede_code == -1 && q.ede == 15, "%s, EDE %d; line %s",
                  dnsq_rcode_name(r.rcode), r.ede_code, q.raw);
}
END_TEST

/* ... and not when the OPT record had to go: a 255-octet name whose first
 * label is 63 octets of bad UTF-8 (252 characters escaped in the EDE text)
 * does not fit 512 octets with its EDE, and error_encode then leaves out
 * the whole OPT record. */
START_TEST(test_ede_logged_only_when_it_fits)
{
    char name[1024] = "", label[300] = "", a63[64];
    char qlog[1024];
    struct dnsq_result r;
    struct qline q;
    int i;

    for (i = 0; i < 63; i++)
        strcat(label, "\\200");
    memset(a63, 'a', 63);
    a63[63] = '\0';
    snprintf(name, sizeof name, "%s.%s.%s.%.61s", label, a63, a63, a63);
    snprintf(qlog, sizeof qlog, "%s.", name);
    hx_query(&H, name, DNSQ_A, HQ_SMALL, HARNESS_QUERY_MS, &r, &q);
    /* Unbound 1.17.1 drops the whole OPT record when the EDE text does
     * not fit; 1.26.2 keeps the OPT with EDE 15 and drops the text;
     * PowerDNS Recursor keeps the OPT and drops the EDE. */
    ck_assert_msg(r.rcode == 5
                      && (!r.has_opt || (r.ede_code == 15 && r.ede_text[0] == '\0')
                          || (harness_flavour() == HX_PDNS && r.ede_code == -1)),
                  "small payload: rcode %s, OPT %d, EDE %d \"%s\"", dnsq_rcode_name(r.rcode),
                  r.has_opt, r.ede_code, r.ede_text);
    py_does("ede=15 in the line means attached, not received");
    engine_does("ede=15 in the line means attached, not received");
    ck_assert_msg(q.ede == (r.ede_code == 15 ? 15 : ENGINE(PY(-1, 15), -1, 15, -1))
                      && strcmp(q.rcode, "REFUSED") == 0,
                  "the line claims an EDE the client did not get: %s", q.raw);
    /* With room for it, the same refusal carries the EDE, and says so. */
    hx_query(&H, name, DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(r.rcode == 5 && r.ede_code == 15, "rcode %s, EDE %d", dnsq_rcode_name(r.rcode),
                  r.ede_code);
    ck_assert_msg(q.ede == 15, "line without ede=15: %s", q.raw);
}
END_TEST

/* A '.' inside a label is escaped in the EDE text as in the log. */
START_TEST(test_ede_text_escapes_a_dot_in_a_label)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "a\\.b\\195\\188.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "a\\046b\\195\\188.example.", 5, "disallowed:a\\046b\\195\\188",
                     "refuse", "idnguard: disallowed: a\\046b\\195\\188: ");
}
END_TEST

/* CHAOS queries are answered by the worker without a query_info: the line
 * still names them. */
START_TEST(test_chaos_query_named)
{
    struct dnsq_result r;
    struct qline q;

    if (harness_python()) {
        /* PY: the worker calls the local-answer callback without a
         * query_info, and the python API gives no way to the packet: the
         * query is answered, and not logged. */
        py_does("CHAOS queries are not logged");
        ck_assert(dnsq_query_ex(H.port, "version.bind", DNSQ_TXT, DNSQ_F_CHAOS, HARNESS_QUERY_MS,
                                &r) == 0);
        ck_assert_msg(!r.timed_out, "version.bind CH: no reply");
        return;
    }
    /* dnsdist: the backend answers them. */
    if (harness_flavour() == HX_DNSDIST)
        engine_does("CHAOS queries are the backend's to answer");
    hx_query(&H, "version.bind", DNSQ_TXT, HQ_CHAOS, HARNESS_QUERY_MS, &r, &q);
    if (harness_flavour() == HX_KRESD)
        engine_does("kresd answers no CHAOS query (SERVFAIL): the line says servfail");
    ck_assert_msg(strcmp(q.qname, "version.bind.") == 0 && strcmp(q.qtype, "TXT") == 0
                      && strcmp(q.qclass, "CH") == 0
                      && strcmp(q.path, ENGINE("local", "servfail", "local", "resolved")) == 0,
                  "CHAOS line: %s", q.raw);
}
END_TEST

/* A client asking for the A-label name while the module's own normalize
 * sub-query for it is in flight joins that sub-query: it gets the action
 * and EDE, and a true line, like the client of the raw name. */
START_TEST(test_client_joining_normalize_subquery)
{
    struct conc c[2] = {{"\\195\\188ber.example", 0, HARNESS_QUERY_MS, {0}, 0},
                        {"xn--ber-goa.example", 0, HARNESS_QUERY_MS, {0}, 0}};
    const char *qlog[2] = {"\\195\\188ber.example.", "xn--ber-goa.example."};
    long from = harness_file_size(H.qlog);
    struct qline q;
    int i;

    concurrent(c, 2);
    for (i = 0; i < 2; i++) {
        line_for_port(from, c[i].r.local_port, &q);
        if (harness_cname_alone() && i == 0) {
            /* CN: no sub-query to join: the raw name gets normalize's
             * CNAME, and xn--ber-goa.example (below) is refused for its
             * chain when asked. */
            ck_assert_msg(c[0].r.rcode == 0 && strcmp(q.action, "normalize") == 0
                              && strcmp(q.path, "policy") == 0,
                          "raw name: %s, line %s", dnsq_rcode_name(c[0].r.rcode), q.raw);
            continue;
        }
        hx_expect_policy(&c[i].r, &q, qlog[i], 5, "contextj:xn--ab-m1t", "refuse", FAKE_EDE);
    }
}
END_TEST

/* A drop decided after resolution (the answer chains into the fake label):
 * every client that was waiting gets a line of its own, with its own
 * spelling of the name. */
START_TEST(test_drop_logged_per_client)
{
    struct conc c[3] = {{"alias.example", 0, HARNESS_DROP_MS, {0}, 0},
                        {"ALIAS.example", 0, HARNESS_DROP_MS, {0}, 0},
                        {"Alias.Example", 0, HARNESS_DROP_MS, {0}, 0}};
    long from = harness_file_size(H.qlog);
    struct qline q;
    int i;

    concurrent(c, 3);
    for (i = 0; i < 3; i++) {
        char want[64];
        /* PY: drop is REFUSED without EDE; each client's line has the
         * spelling of the query state (mesh_reply.qname is not in the
         * python API), the same name but for case. */
        ck_assert_msg(PY(c[i].r.timed_out, !c[i].r.timed_out && c[i].r.rcode == 5),
                      "%s was answered (%s)", c[i].qname, dnsq_rcode_name(c[i].r.rcode));
        line_for_port(from, c[i].r.local_port, &q);
        snprintf(want, sizeof want, "%s.", c[i].qname);
        ck_assert_msg(PY(strcmp(q.qname, want), strcasecmp(q.qname, want)) == 0
                          && strcmp(q.rcode, PY("DROPPED", "REFUSED")) == 0
                          && strcmp(q.verdict, "contextj:xn--ab-m1t") == 0
                          && strcmp(q.action, "drop") == 0 && strcmp(q.path, "policy") == 0,
                      "client %d: %s", i, q.raw);
    }
    ck_assert_int_eq(harness_count_lines(H.qlog, from, PY(" DROPPED ", " REFUSED ")), 3);
}
END_TEST


/* ---- 6. resource faults ---- */

/* A log-file that is a FIFO with no reader used to hang Unbound in open(2)
 * at start, deaf to SIGTERM: now the start fails at once, saying why. */
START_TEST(test_log_file_fifo_refused_without_hanging)
{
    char dir[512], fifo[600], conf[700], path[HARNESS_PATH_MAX], log[8192];
    int status, rc;

    t_tmpdir_make(dir, sizeof dir, "idng-fifo");
    snprintf(fifo, sizeof fifo, "%s/queries.log", dir);
    ck_assert_msg(mkfifo(fifo, 0600) == 0, "mkfifo %s", fifo);
    snprintf(conf, sizeof conf, "idnguard:\nlog-file: \"%s\"\n", fifo);
    rc = harness_run_failing(conf, path, sizeof path, &status, log, sizeof log);
    t_tmpdir_remove(dir);
    ck_assert_msg(rc >= 0, "could not run unbound: %s", log);
    ck_assert_msg(rc == 0, "unbound kept running (or hung) with a FIFO as log-file; log: %s", log);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) != 0, "exit status 0x%x", status);
    ck_assert_msg(strstr(log, "log-file: not a regular file") != NULL, "log lacks the reason: %s",
                  log);
}
END_TEST

/* A deny list of 100,000 names used to take seconds to load (and to scan on
 * every query): the daemon must come up within the harness's start bound
 * and judge from it. */
START_TEST(test_deny_list_of_100000_names)
{
    size_t cap = 100000 * 32 + 256, n = 0;
    char *conf = malloc(cap);
    struct dnsq_result r;
    struct qline q;
    int i;

    ck_assert(conf != NULL);
    n += (size_t)snprintf(conf + n, cap - n, "idnguard:\n");
    for (i = 0; i < 100000; i++)
        n += (size_t)snprintf(conf + n, cap - n, "deny: n%d.deny.test.\n", i);
    n += (size_t)snprintf(conf + n, cap - n, "deny: www.example.\n");
    harness_setup(&H, conf, 1);
    free(conf);
    hx_query(&H, "sub.www.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "sub.www.example.", 5, "deny", "refuse", "idnguard: deny");
    hx_query(&H, "www2.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "www2.example.", "www2.example. A 192.0.2.11", "ok", "pass",
                   "resolved");
    harness_stop(&H);
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

    tc = harness_tcase("logs", setup_default, teardown);
    tcase_add_test(tc, test_cache_rcode_is_the_replys);
    tcase_add_test(tc, test_ede_logged_only_without_edns_absent);
    tcase_add_test(tc, test_ede_logged_only_when_it_fits);
    tcase_add_test(tc, test_ede_text_escapes_a_dot_in_a_label);
    tcase_add_test(tc, test_chaos_query_named);
    tcase_add_test(tc, test_client_joining_normalize_subquery);
    suite_add_tcase(s, tc);

    tc = harness_tcase("drop", setup_drop, teardown);
    tcase_add_test(tc, test_drop_logged_per_client);
    suite_add_tcase(s, tc);

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

    tc = harness_tcase("resources", NULL, teardown);
    tcase_add_test(tc, test_log_file_fifo_refused_without_hanging);
    tcase_add_test(tc, test_deny_list_of_100000_names);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(guard_suite)
