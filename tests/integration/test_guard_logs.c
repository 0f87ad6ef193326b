/**
 * \file
 * Guard integrity, what the log says (the security review's sections 5
 * and 6): a cache hit's line carries the reply's rcode, the EDE logged only
 * when the client gets it, a CHAOS query named, clients joining one
 * normalize subquery each logged, a drop logged per client; and resource
 * faults (a FIFO as the log file, a deny list of 100,000 names).
 *
 * Each tcase has its own daemon pair started in an unchecked fixture
 * (owned by the runner process; see harness.h).
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
        ck_assert(
            dnsq_query_ex(H.port, "version.bind", DNSQ_TXT, DNSQ_F_CHAOS, HARNESS_QUERY_MS, &r)
            == 0);
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
    hx_expect_data(&r, &q, "www2.example.", "www2.example. A 192.0.2.11", "ok", "pass", "resolved");
    harness_stop(&H);
}
END_TEST

static Suite *guard_logs_suite(void)
{
    Suite *s = suite_create("integration-guard-logs");
    TCase *tc;

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

    tc = harness_tcase("resources", NULL, teardown);
    tcase_add_test(tc, test_log_file_fifo_refused_without_hanging);
    tcase_add_test(tc, test_deny_list_of_100000_names);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(guard_logs_suite)
