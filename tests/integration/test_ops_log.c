/**
 * \file
 * Operating the module, the query log itself: escaping of hostile names,
 * the JSON format, the line's fields, anonymized clients, log-rejected and
 * log-queries: no.  The log file of the module's own is in test_ops.c.
 *
 * Each tcase has its own daemon pair started in an unchecked fixture
 * (owned by the runner process; see harness.h).
 */
#define _GNU_SOURCE /* memmem */

#include "common.h"
#include "harness.h"
#include "ops.h"
#include "idnguard.h"
#include "json_flat.h"

#include <check.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void setup_defaults(void)
{
    harness_setup(&H, "idnguard:\n", 1);
}

/* ---- escaping of hostile names in the log ---- */

static const struct {
    const char *qname;  /* sent */
    const char *logged; /* the qname field */
    const char *rcode, *verdict;
} hostile[] = {
    /* RIGHT-TO-LEFT OVERRIDE: would reverse the rest of the line on display */
    {"a\\226\\128\\174b.example", "a\\226\\128\\174b.example.", "REFUSED",
     "disallowed:a\\226\\128\\174b"},
    /* LINE SEPARATOR */
    {"a\\226\\128\\168b.example", "a\\226\\128\\168b.example.", "REFUSED",
     "disallowed:a\\226\\128\\168b"},
    /* a newline: would forge a second line */
    {"a\\010b.example", "a\\010b.example.", "NXDOMAIN", "ok"},
    /* a terminal escape sequence */
    {"x\\027[31mred.example", "x\\027\\09131mred.example.", "NXDOMAIN", "ok"},
    /* a dot, blanks and brackets inside labels: would fake labels and fields */
    {"a\\046b\\032(c)\\059.example", "a\\046b\\032\\040c\\041\\059.example.", "NXDOMAIN", "ok"},
    /* NUL and DEL */
    {"a\\000b\\127.example", "a\\000b\\127.example.", "NXDOMAIN", "ok"},
};
#define NHOSTILE ((int)(sizeof hostile / sizeof hostile[0]))

/* The line for the query is printable ASCII (nothing here has a Unicode
 * form to show), every line written meanwhile is one of Unbound's, and no
 * raw control or bidi octets are anywhere in them. */
START_TEST(test_log_escapes_hostile_names)
{
    struct dnsq_result r;
    struct qline q;
    long from = harness_file_size(H.qlog);
    size_t n, i;
    char *text, *p, *end;
    int own = 0;

    hx_query(&H, hostile[_i].qname, DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(strcmp(q.qname, hostile[_i].logged) == 0
                      && strcmp(q.rcode, hostile[_i].rcode) == 0
                      && strcmp(q.verdict, hostile[_i].verdict) == 0 && q.unicode[0] == '\0',
                  "line %s; expected qname %s, %s, %s", q.raw, hostile[_i].logged,
                  hostile[_i].rcode, hostile[_i].verdict);
    for (i = 0; r.ede_text[i]; i++)
        ck_assert_msg((unsigned char)r.ede_text[i] >= 0x20 && (unsigned char)r.ede_text[i] < 0x7F,
                      "EDE text holds octet 0x%02x: %s", (unsigned char)r.ede_text[i], r.ede_text);

    text = harness_read_file(H.qlog, from, &n);
    ck_assert(text != NULL);
    ck_assert_msg(!memmem(text, n, "\xe2\x80\xae", 3) && !memmem(text, n, "\xe2\x80\xa8", 3)
                      && !memchr(text, 0x1b, n) && !memchr(text, 0, n) && !memchr(text, 0x7f, n),
                  "raw control or bidi octets in the log: %s", text);
    for (p = text, end = text + n; p < end;) {
        char *nl = memchr(p, '\n', (size_t)(end - p)), *c;
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char port[32];

        /* kresd: idnguard's own lines, or kresd's ("[group] ..."). */
        ck_assert_msg(harness_flavour() == HX_KRESD
                          ? (len >= 10 && memcmp(p, "idnguard: ", 10) == 0) || (len && *p == '[')
                          : memmem(p, len, " unbound[", 9) != NULL,
                      "a log line that is not Unbound's (a forged or split line?): %.*s", (int)len,
                      p);
        snprintf(port, sizeof port, "127.0.0.1#%u ", r.local_port);
        if (memmem(p, len, port, strlen(port))) {
            own++;
            for (c = p; c < p + len; c++)
                ck_assert_msg(*c >= 0x20 && *c < 0x7F, "octet 0x%02x in the line: %.*s",
                              (unsigned char)*c, (int)len, p);
        }
        p += len + 1;
    }
    ck_assert_msg(own == 1, "%d lines for one query: %s", own, text);
    free(text);
}
END_TEST

/* ---- log-format: json ---- */

static void setup_json(void)
{
    harness_setup(&H, "idnguard:\n    log-format: json\n", 1);
}

/* Values that differ run to run: checked for their type only. */
#define ANY_NUM "(number)"

/* Expected values: NULL for null; numbers as text. */
static const struct {
    const char *qname;
    const char *v[TJ_LOG_NKEYS]; /* "port" is filled in from the query */
} jrows[] = {
    {"xn--bcher-kva.example",
     {NULL, "127.0.0.1", "", "xn--bcher-kva.example.",
      "b\xc3\xbc"
      "cher.example.",
      NULL, "A", "IN", "NOERROR", "ok", NULL, "pass", "resolved", NULL, NULL, "udp", ANY_NUM}},
    {"xn--ab-m1t.example",
     {NULL, "127.0.0.1", "", "xn--ab-m1t.example.", NULL, "mixed-script", "A", "IN", "REFUSED",
      "contextj", "xn--ab-m1t", "refuse", "policy", "15", NULL, "udp", ANY_NUM}},
    {"b\\195\\188cher.example",
     {NULL, "127.0.0.1", "", "b\\195\\188cher.example.", NULL, NULL, "A", "IN", "NOERROR",
      "raw-8bit", "b\\195\\188cher", "normalize", "resolved", NULL, "xn--bcher-kva.example.", "udp",
      ANY_NUM}},
    {"a\\226\\128\\174b.example",
     {NULL, "127.0.0.1", "", "a\\226\\128\\174b.example.", NULL, NULL, "A", "IN", "REFUSED",
      "disallowed", "a\\226\\128\\174b", "refuse", "policy", "15", NULL, "udp", ANY_NUM}},
    {"x\\027[\"\\092.example",
     {NULL, "127.0.0.1", "", "x\\027\\091\\034\\092.example.", NULL, NULL, "A", "IN", "NXDOMAIN",
      "ok", NULL, "pass", "resolved", NULL, NULL, "udp", ANY_NUM}},
    /* A lookalike (p<Cyrillic a>ypal) is shown in A-labels only, with
     * what was found. */
    {"xn--pypal-4ve.example",
     {NULL, "127.0.0.1", "", "xn--pypal-4ve.example.", NULL, "mixed-script", "A", "IN", "NOERROR",
      "mixed-script", "xn--pypal-4ve", "log", "resolved", NULL, NULL, "udp", ANY_NUM}},
};

START_TEST(test_json_lines)
{
    struct dnsq_result r;
    struct tj_field f[20];
    char line[16384], port[16], needle[40], dec[16384], err[128];
    const char *obj;
    long from = harness_file_size(H.qlog);
    int n, k;

    ck_assert(dnsq_query(H.port, jrows[_i].qname, DNSQ_A, 0, 1, HARNESS_QUERY_MS, &r) == 0);
    snprintf(needle, sizeof needle, "\"port\":%u,", r.local_port);
    ck_assert_msg(harness_wait_line(H.qlog, from, needle, HARNESS_LOG_MS, line, sizeof line),
                  "no JSON line with %s", needle);
    /* After Unbound's "info: ", the message is the object alone (kresd:
     * the line is the object). */
    obj = harness_flavour() == HX_KRESD ? line : strstr(line, " info: ");
    ck_assert_msg(obj != NULL, "no Unbound prefix: %s", line);
    if (obj != line)
        obj += strlen(" info: ");
    n = tj_flat(obj, strlen(obj), 0, f, 20, dec, sizeof dec, err, sizeof err);
    ck_assert_msg(n == TJ_LOG_NKEYS, "not one flat JSON object with %d keys (%d: %s): %s",
                  TJ_LOG_NKEYS, n, n < 0 ? err : "", obj);
    snprintf(port, sizeof port, "%u", r.local_port);
    for (k = 0; k < TJ_LOG_NKEYS; k++) {
        const char *want = k == 2 ? port : jrows[_i].v[k];
        /* PY: the transport is unknown (Unbound's python API does not give
         * the comm point); normalize's answer is the module's own. */
        if (harness_python() && strcmp(tj_log_keys[k], "transport") == 0)
            want = NULL;
        if (harness_python() && strcmp(tj_log_keys[k], "path") == 0 && jrows[_i].v[11]
            && strcmp(jrows[_i].v[11], "normalize") == 0)
            want = "policy";
        /* kresd: no sub-query; the A-label name's answer is its cache's
         * (asked in row 0). */
        if (harness_flavour() == HX_KRESD && strcmp(tj_log_keys[k], "path") == 0 && jrows[_i].v[11]
            && strcmp(jrows[_i].v[11], "normalize") == 0)
            want = "cache";
        ck_assert_msg(strcmp(f[k].key, tj_log_keys[k]) == 0,
                      "key %d is \"%s\", expected \"%s\": %s", k, f[k].key, tj_log_keys[k], obj);
        if (!want) {
            ck_assert_msg(f[k].type == TJ_NULL, "\"%s\" is \"%s\", expected null: %s",
                          tj_log_keys[k], f[k].val, obj);
            continue;
        }
        ck_assert_msg(f[k].type == ((k == 2 || k == 13 || k == 16) ? TJ_NUMBER : TJ_STRING),
                      "\"%s\" has the wrong JSON type: %s", tj_log_keys[k], obj);
        if (strcmp(want, ANY_NUM) == 0)
            continue;
        ck_assert_msg(strcmp(f[k].val, want) == 0, "\"%s\" is \"%s\", expected \"%s\": %s",
                      tj_log_keys[k], f[k].val, want, obj);
    }
}
END_TEST

/* ---- what a line carries besides the verdict ---- */

/* The normalize target, the transport (UDP, TCP) and the elapsed time. */
START_TEST(test_line_fields)
{
    static const unsigned flags[] = {0, HQ_TCP};
    static const char *const proto[] = {"udp", "tcp"};
    struct dnsq_result r;
    struct qline q;
    int i;

    for (i = 0; i < 2; i++) {
        hx_query(&H, "b\\195\\188cher.example", DNSQ_A, flags[i], HARNESS_QUERY_MS, &r, &q);
        /* PY: no proto= (the transport is not in Unbound's python API). */
        ck_assert_msg(strcmp(q.target, "xn--bcher-kva.example.") == 0
                          && strcmp(q.proto, PY(proto[i], "")) == 0 && q.ms[0] >= '0'
                          && q.ms[0] <= '9' && strchr(q.ms, '.') != NULL,
                      "line: %s", q.raw);
    }
    hx_query(&H, "www.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(q.target[0] == '\0' && strcmp(q.proto, PY("udp", "")) == 0, "line: %s", q.raw);
}
END_TEST

static void setup_anonymize(void)
{
    harness_setup(&H, "idnguard:\n    anonymize-clients: yes\n", 1);
}

/* anonymize-clients: yes logs 127.0.0.1 as its /24, 127.0.0.0. */
START_TEST(test_anonymize_clients)
{
    struct dnsq_result r;
    char needle[48], line[2048];
    long from = harness_file_size(H.qlog);

    ck_assert(dnsq_query(H.port, "www.example", DNSQ_A, 0, 1, HARNESS_QUERY_MS, &r) == 0);
    ck_assert_int_eq(r.rcode, 0);
    snprintf(needle, sizeof needle, "127.0.0.0#%u www.example.", r.local_port);
    ck_assert_msg(harness_wait_line(H.qlog, from, needle, HARNESS_LOG_MS, line, sizeof line),
                  "no line with %s", needle);
    ck_assert_int_eq(harness_count_lines(H.qlog, from, "127.0.0.1#"), 0);
}
END_TEST

/* ---- log-rejected ---- */

static void setup_rejected_only(void)
{
    harness_setup(&H, "idnguard:\n    log-queries: no\n", 1);
}

static void setup_silent(void)
{
    harness_setup(&H, "idnguard:\n    log-queries: no\n    log-rejected: no\n", 1);
}

/* With log-queries: no a refusal is still logged (log-rejected: yes, the
 * default), and an answered name is not; with log-rejected: no neither is.
 * The refused query goes second: one worker handles them in order, so once
 * its line is there (or, silent, once its reply is), the first had its. */
START_TEST(test_log_rejected)
{
    int silent = _i;
    struct dnsq_result r1, r2;
    char needle[40], line[2048];

    ck_assert(dnsq_query(H.port, "xn--bcher-kva.example", DNSQ_A, 0, 1, HARNESS_QUERY_MS, &r1)
              == 0);
    ck_assert_msg(r1.rcode == 0, "good name: %s", dnsq_rcode_name(r1.rcode));
    ck_assert(dnsq_query(H.port, "xn--ab-m1t.example", DNSQ_A, 0, 1, HARNESS_QUERY_MS, &r2) == 0);
    ck_assert_msg(r2.rcode == 5, "fake name: %s", dnsq_rcode_name(r2.rcode));
    snprintf(needle, sizeof needle, "127.0.0.1#%u ", r2.local_port);
    if (!silent) {
        ck_assert_msg(harness_wait_line(H.qlog, 0, needle, HARNESS_LOG_MS, line, sizeof line),
                      "no line for a refusal with log-queries: no");
        ck_assert_msg(strstr(line, " REFUSED contextj:xn--ab-m1t refuse policy") != NULL,
                      "line: %s", line);
    } else {
        ck_assert_msg(harness_count_lines(H.qlog, 0, needle) == 0,
                      "a line for a refusal with log-rejected: no");
    }
    snprintf(needle, sizeof needle, "127.0.0.1#%u ", r1.local_port);
    ck_assert_msg(harness_count_lines(H.qlog, 0, needle) == 0,
                  "a line for a valid name with log-queries: no");
}
END_TEST

/* ---- log-queries: no ---- */

static void setup_quiet(void)
{
    harness_setup(&H, "idnguard:\n    log-queries: no\n    on-invalid: log\n" NO_WATCH, 1);
}

/* Only names whose action is "log" are logged.  The good query goes first:
 * one worker thread handles them in order, so once the second query's line
 * is there, a line for the first would be too. */
START_TEST(test_log_queries_no)
{
    struct dnsq_result r1, r2;
    struct qline q;
    char needle[40];

    ck_assert(dnsq_query(H.port, "xn--bcher-kva.example", DNSQ_A, 0, 1, HARNESS_QUERY_MS, &r1)
              == 0);
    ck_assert_msg(r1.rcode == 0, "good name: %s", dnsq_rcode_name(r1.rcode));
    hx_query(&H, "xn--ab-m1t.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r2, &q);
    hx_expect_data(&r2, &q, "xn--ab-m1t.example.", "xn--ab-m1t.example. A 192.0.2.67",
                   "contextj:xn--ab-m1t", "log", "resolved");
    snprintf(needle, sizeof needle, "127.0.0.1#%u ", r1.local_port);
    ck_assert_msg(harness_count_lines(H.qlog, 0, needle) == 0,
                  "a line for a valid name with log-queries: no");
}
END_TEST

/* Emoji are pictographs, which the mixed-script rule sets aside: with
 * log-queries: no, emoji names (💩, 😉) are answered without a line, as
 * good IDNs are; a name mixing Latin and Cyrillic still makes one (the
 * default on-mixed-script: log; login.pаypal, as pаypal itself is
 * test_log_queries_no_cache_hit_reload's).  The emoji go first: one worker handles
 * the queries in order, so once the mixed name's line is there, theirs
 * would be too. */
START_TEST(test_log_queries_no_emoji)
{
    static const char *const emoji[] = {"xn--ls8h.example", "xn--n28h.example"};
    struct dnsq_result r, er[2];
    struct qline q;
    char needle[40];
    int i;

    for (i = 0; i < 2; i++) {
        ck_assert(dnsq_query(H.port, emoji[i], DNSQ_A, 0, 1, HARNESS_QUERY_MS, &er[i]) == 0);
        ck_assert_msg(er[i].rcode == 0, "%s: %s", emoji[i], dnsq_rcode_name(er[i].rcode));
    }
    hx_query(&H, "login.xn--pypal-4ve.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "login.xn--pypal-4ve.example.",
                   "login.xn--pypal-4ve.example. A 192.0.2.82", "mixed-script:xn--pypal-4ve", "log",
                   "resolved");
    for (i = 0; i < 2; i++) {
        snprintf(needle, sizeof needle, "127.0.0.1#%u ", er[i].local_port);
        ck_assert_msg(harness_count_lines(H.qlog, 0, needle) == 0,
                      "a line for the emoji name %s with log-queries: no", emoji[i]);
    }
    ck_assert_msg(harness_count_lines(H.qlog, 0, "xn--ls8h") == 0
                      && harness_count_lines(H.qlog, 0, "xn--n28h") == 0,
                  "a line for an emoji name with log-queries: no");
}
END_TEST

/* The name's action is "log" also when its answer comes from the cache:
 * every query for it is logged, not only the first one. */
START_TEST(test_log_queries_no_cache_hit)
{
    struct dnsq_result r;
    struct qline q;
    int i;

    for (i = 0; i < 2; i++) {
        hx_query(&H, "xn--ab-m1t.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
        ck_assert_msg(strcmp(q.verdict, "contextj:xn--ab-m1t") == 0 && strcmp(q.action, "log") == 0,
                      "query %d: line %s", i + 1, q.raw);
    }
    ck_assert_msg(strcmp(q.path, "cache") == 0, "second query not from the cache: %s", q.raw);
}
END_TEST

/* The cache-hit path remembers verdicts per thread (core/idng_memo.h);
 * settings loaded on SIGHUP must not meet a verdict of the old ones.
 * pаypal (Latin and Cyrillic) is mixed-script: first passed, so that its
 * cache hit is remembered as pass (one worker, which is Unbound's main
 * thread and survives the reload), then logged, so that the cache hit
 * after the reload must make a line. */
START_TEST(test_log_queries_no_cache_hit_reload)
{
    struct dnsq_result r;
    struct qline q;
    int i;

    char line[2048];

    reload_with(
        "idnguard:\n    log-queries: no\n    on-invalid: log\n    on-mixed-script: pass\n" NO_WATCH,
        line, sizeof line);
    for (i = 0; i < 2; i++) {
        ck_assert(dnsq_query(H.port, "xn--pypal-4ve.example", DNSQ_A, 0, 1, HARNESS_QUERY_MS, &r)
                  == 0);
        ck_assert_msg(r.rcode == 0, "mixed-script name: %s", dnsq_rcode_name(r.rcode));
    }
    /* A line that does come (contextj is logged) shows that none was
     * written for the mixed-script name before it. */
    hx_query(&H, "xn--ab-m1t.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(strcmp(q.action, "log") == 0, "line %s", q.raw);
    ck_assert_msg(harness_count_lines(H.qlog, 0, " xn--pypal-4ve.example. ") == 0,
                  "a line for a passed mixed-script name with log-queries: no");

    reload_with("idnguard:\n    log-queries: no\n    on-invalid: log\n" NO_WATCH, line,
                sizeof line);
    for (i = 0; i < 2; i++) {
        hx_query(&H, "xn--pypal-4ve.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
        ck_assert_msg(strcmp(q.verdict, "mixed-script:xn--pypal-4ve") == 0
                          && strcmp(q.action, "log") == 0,
                      "query %d after the reload: line %s", i + 1, q.raw);
    }
    ck_assert_msg(strcmp(q.path, "cache") == 0, "second query not from the cache: %s", q.raw);
}
END_TEST

static Suite *ops_log_suite(void)
{
    Suite *s = suite_create("integration-ops-log");
    TCase *tc;

    tc = harness_tcase("escaping", setup_defaults, teardown);
    tcase_add_loop_test(tc, test_log_escapes_hostile_names, 0, NHOSTILE);
    suite_add_tcase(s, tc);

    tc = harness_tcase("json", setup_json, teardown);
    tcase_add_loop_test(tc, test_json_lines, 0, (int)(sizeof jrows / sizeof jrows[0]));
    suite_add_tcase(s, tc);

    tc = harness_tcase("line-fields", setup_defaults, teardown);
    tcase_add_test(tc, test_line_fields);
    suite_add_tcase(s, tc);
    tc = harness_tcase("anonymize", setup_anonymize, teardown);
    tcase_add_test(tc, test_anonymize_clients);
    suite_add_tcase(s, tc);

    tc = harness_tcase("log-rejected", setup_rejected_only, teardown);
    tcase_add_loop_test(tc, test_log_rejected, 0, 1);
    suite_add_tcase(s, tc);
    tc = harness_tcase("log-rejected-no", setup_silent, teardown);
    tcase_add_loop_test(tc, test_log_rejected, 1, 2);
    suite_add_tcase(s, tc);

    tc = harness_tcase("log-queries-no", setup_quiet, teardown);
    tcase_add_test(tc, test_log_queries_no);
    tcase_add_test(tc, test_log_queries_no_emoji);
    tcase_add_test(tc, test_log_queries_no_cache_hit);
    if (!harness_engine()) /* Unbound's reload (SIGHUP) */
        tcase_add_test(tc, test_log_queries_no_cache_hit_reload);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(ops_log_suite)
