/**
 * \file
 * Every way Unbound can answer is logged (resolved, cache, local data,
 * policy), and answers whose CNAME/DNAME chain leads into a rejected label
 * are refused, now and later: they are not cached, so neither the target
 * nor the alias can be served from the cache behind the module's back
 * (a cache hit never reaches the module's operate()).
 *
 * Each tcase has its own daemon pair (unchecked fixture); the tests of a
 * tcase run in order and the chain tests rely on that order on purpose:
 * the later ones check what the earlier ones left in the cache.
 */
#include "common.h"
#include "harness.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
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

/* ---- paths ---- */

/* First from NSD ("resolved"), then from Unbound's cache ("cache"). */
START_TEST(test_cache_hit_logged)
{
    static const char *const path[] = {"resolved", "cache"};
    struct dnsq_result r;
    struct qline q;
    int i;

    for (i = 0; i < 2; i++) {
        hx_query(&H, "xn--bcher-kva.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
        hx_expect_data(&r, &q, "xn--bcher-kva.example.", "xn--bcher-kva.example. A 192.0.2.2", "ok",
                       "pass", path[i]);
        ck_assert_msg(strcmp(q.unicode, "b\xc3\xbc"
                                        "cher.example.")
                          == 0,
                      "Unicode form \"%s\" on the %s line", q.unicode, path[i]);
    }
}
END_TEST

/* Cache-hit lines cost the python module a python callback on every
 * hit, so they are opt-in there (IDNGUARD_LOG_CACHE_HITS=yes, which
 * check-python sets for the other suites): without it, PY: a cache hit is
 * answered and not logged; the dynlib module always logs it. */
static char saved_cache_env[16];
static void setup_cache_log_default(void)
{
    const char *v = getenv("IDNGUARD_LOG_CACHE_HITS");
    snprintf(saved_cache_env, sizeof saved_cache_env, "%s", v ? v : "");
    unsetenv("IDNGUARD_LOG_CACHE_HITS");
    harness_setup(&H, "idnguard:\n", 1);
}
static void teardown_cache_log_default(void)
{
    harness_stop(&H);
    if (saved_cache_env[0])
        setenv("IDNGUARD_LOG_CACHE_HITS", saved_cache_env, 1);
}

START_TEST(test_cache_hit_log_default)
{
    struct dnsq_result r;
    struct qline q;
    char line[4096];
    int got;

    hx_query(&H, "www.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "www.example.", "www.example. A 192.0.2.1", "ok", "pass", "resolved");
    got = harness_query(&H, "www.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, line, sizeof line);
    ck_assert_msg(got >= 0 && !r.timed_out && r.rcode == 0, "second query: %s", line);
    py_does("cache hits are not logged without IDNGUARD_LOG_CACHE_HITS=yes");
    engine_does("packet-cache hits are not logged without IDNGUARD_LOG_CACHE_HITS=yes");
    ck_assert_msg(got == ENGINE(PY(1, 0), 1, 0, 1), "cache hit %s: %s",
                  got ? "logged" : "not logged", line);
}
END_TEST

/* pdns: the Recursor serves its packet cache before any hook, so the
 * cache's tag is the time the settings in force were loaded: after the
 * watch applies a file that denies www.example, the answer cached above
 * is not served, and the name is refused. */
START_TEST(test_settings_change_misses_packet_cache)
{
    struct dnsq_result r;
    struct qline q;
    char line[4096];
    long from = harness_file_size(H.qlog);

    ck_assert(harness_write_conf(&H, "idnguard:\ndeny: www.example.\n") == 0);
    ck_assert_msg(
        harness_wait_line(H.qlog, from, "idnguard: applied ", HARNESS_START_MS, line, sizeof line),
        "the watch did not apply the changed settings");
    hx_query(&H, "www.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "www.example.", 5, "deny", "refuse", "idnguard: deny");
}
END_TEST

/* local-data of unbound.conf.in: answered before any module runs. */
START_TEST(test_local_data_logged)
{
    static const struct {
        const char *qname, *ans, *unicode;
    } rows[] = {
        {"ready.local.test", "ready.local.test. A 127.0.0.1", ""},
        {"xn--bcher-kva.local.test", "xn--bcher-kva.local.test. A 127.0.0.2",
         "b\xc3\xbc"
         "cher.local.test."},
    };
    struct dnsq_result r;
    struct qline q;
    char qlog[300];

    snprintf(qlog, sizeof qlog, "%s.", rows[_i].qname);
    hx_query(&H, rows[_i].qname, DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    /* pdns: an answer from an auth zone looks like one from the record
     * cache to the Lua hooks; dnsdist: the local data is its backend's, an
     * answer from upstream. */
    engine_does("local data is logged as cache (pdns) or resolved (dnsdist)");
    hx_expect_data(&r, &q, qlog, rows[_i].ans, "ok", "pass",
                   ENGINE("local", "local", "cache", "resolved"));
    ck_assert_msg(strcmp(q.unicode, rows[_i].unicode) == 0, "Unicode form \"%s\": %s", q.unicode,
                  q.raw);
}
END_TEST

/* The fake A-label asked for directly: refused by the module (path policy). */
static void expect_fake_refused(void)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "xn--ab-m1t.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "xn--ab-m1t.example.", 5, "contextj:xn--ab-m1t", "refuse",
                     "idnguard: contextj: xn--ab-m1t: ");
}

START_TEST(test_policy_path_logged)
{
    expect_fake_refused();
}
END_TEST

/* ---- chains into a fake A-label ---- */

/* A refusal for an answer that names xn--ab-m1t.example.  The verdict names
 * the class and the rejected label, though the label is in the answer (the
 * CNAME/DNAME target), not in the query name. */
static void expect_chain_refused(const char *qname)
{
    struct dnsq_result r;
    struct qline q;
    char qlog[300];

    snprintf(qlog, sizeof qlog, "%s.", qname);
    hx_query(&H, qname, DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, qlog, 5, "contextj:xn--ab-m1t", "refuse",
                     "idnguard: contextj: xn--ab-m1t: ");
}

/* kresd: the module judges the query name before kresd's policy rules run,
 * so a rejected name is refused even where the operator's own rule would
 * answer it (policy.ANSWER for xn--ab-m1t.local.test., engines/kresd.conf.in). */
START_TEST(test_kresd_guard_before_policy_rules)
{
    expect_chain_refused("xn--ab-m1t.local.test");
}
END_TEST

START_TEST(test_chain_alias_refused)
{
    expect_chain_refused("alias.example");
}
END_TEST

START_TEST(test_chain_two_steps_refused)
{
    expect_chain_refused("chain.example");
}
END_TEST

/* After the two chains above were resolved, the target's A record must
 * not be in the cache: asked directly it is refused by the module, not
 * answered from the cache (path "policy", not "cache"). */
START_TEST(test_chain_target_not_cached)
{
    expect_fake_refused();
}
END_TEST

/* Nor the alias's answer. */
START_TEST(test_chain_alias_still_refused)
{
    expect_chain_refused("alias.example");
    expect_chain_refused("chain.example");
}
END_TEST

/* DNAME dn.example -> xn--ab-m1t.example: x.dn.example synthesizes a CNAME
 * to x.xn--ab-m1t.example. */
START_TEST(test_dname_refused)
{
    expect_chain_refused("x.dn.example");
    expect_chain_refused("x.dn.example");
}
END_TEST

/* A refused answer is refused, and logged, every time: it is never kept
 * where a later client would get it past the guard (pdns: the packet
 * cache, which cache hits are not logged from in this set-up). */
START_TEST(test_rejected_answer_logged_again)
{
    int i;

    for (i = 0; i < 2; i++)
        expect_chain_refused("alias.example");
}
END_TEST

START_TEST(test_good_alias_answered)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "good-alias.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "good-alias.example.",
                   "good-alias.example. CNAME xn--bcher-kva.example. | "
                   "xn--bcher-kva.example. A 192.0.2.2",
                   "ok", "pass", "resolved");
}
END_TEST

static Suite *paths_suite(void)
{
    Suite *s = suite_create("integration-paths");
    TCase *tc = harness_tcase("paths", setup, teardown);
    tcase_add_test(tc, test_cache_hit_logged);
    tcase_add_loop_test(tc, test_local_data_logged, 0, 2);
    tcase_add_test(tc, test_policy_path_logged);
    if (harness_flavour() == HX_KRESD)
        tcase_add_test(tc, test_kresd_guard_before_policy_rules);
    suite_add_tcase(s, tc);

    /* A fresh daemon: what is cached must come from these tests only. */
    tc = harness_tcase("cache-log-default", setup_cache_log_default, teardown_cache_log_default);
    tcase_add_test(tc, test_cache_hit_log_default);
    tcase_add_test(tc, test_rejected_answer_logged_again);
    if (harness_flavour() == HX_PDNS)
        tcase_add_test(tc, test_settings_change_misses_packet_cache);
    suite_add_tcase(s, tc);

    tc = harness_tcase("chains", setup, teardown);
    tcase_add_test(tc, test_chain_alias_refused);
    tcase_add_test(tc, test_chain_two_steps_refused);
    tcase_add_test(tc, test_chain_target_not_cached);
    tcase_add_test(tc, test_chain_alias_still_refused);
    tcase_add_test(tc, test_dname_refused);
    tcase_add_test(tc, test_good_alias_answered);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(paths_suite)
