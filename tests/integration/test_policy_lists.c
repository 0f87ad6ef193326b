/**
 * \file
 * The module's allow and deny lists end to end: `allow:` and `deny:` lines
 * (a listed name and the names below it, CNAME targets, the more specific
 * entry winning, raw spellings), and `allow-file:` and `deny-file:` (a
 * changed file applied by the watch, a bad line changing nothing and named
 * by file and line).
 *
 * Each tcase shares one NSD + Unbound pair started in an unchecked fixture
 * (the runner process owns them; see harness.h), so tests inside a tcase
 * see each other's cache and must not depend on running alone.
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

/* ---- allow and deny ---- */

static void setup_lists(void)
{
    harness_setup(&H,
                  "idnguard:\n    allow: xn--ab-m1t.example.\n    deny: www.example.\n"
                  "    deny: d\xc3\xa9j\xc3\xa0.example\n"
                  "    allow: ok.www.example\n    deny: y.xn--ab-m1t.example\n",
                  1);
}

START_TEST(test_allow_passes_fake)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "xn--ab-m1t.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "xn--ab-m1t.example.", "xn--ab-m1t.example. A 192.0.2.67", "allow",
                   "pass", "resolved");
}
END_TEST

START_TEST(test_allow_covers_below)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "x.xn--ab-m1t.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "x.xn--ab-m1t.example.", "x.xn--ab-m1t.example. A 192.0.2.72", "allow",
                   "pass", "resolved");
}
END_TEST

/* A CNAME into the allowed name is no longer a CNAME into a rejected one. */
START_TEST(test_allow_covers_cname_target)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "alias.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "alias.example.",
                   "alias.example. CNAME xn--ab-m1t.example. | xn--ab-m1t.example. A 192.0.2.67",
                   "ok", "pass", "resolved");
}
END_TEST

/* The allow list opens that name only. */
START_TEST(test_allow_is_narrow)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "xn--ssa.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "xn--ssa.example.", 5, "leading-mark:xn--ssa", "refuse",
                     "idnguard: leading-mark: xn--ssa: ");
}
END_TEST

/* The last two: "deny: déjà.example" is kept as its A-label, which matches
 * in any case. */
static const char *const denied[] = {"www.example", "sub.www.example", "WWW.Example",
                                     "xn--dj-kia8a.example", "XN--DJ-KIA8A.example"};

START_TEST(test_deny_refuses)
{
    struct dnsq_result r;
    struct qline q;
    char qlog[300];

    snprintf(qlog, sizeof qlog, "%s.", denied[_i]);
    hx_query(&H, denied[_i], DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, qlog, 5, "deny", "refuse", "idnguard: deny");
}
END_TEST

/* The raw UTF-8 spelling of a denied name is normalized to the denied
 * A-label: refused like the A-label itself, with the same EDE, and the
 * line tells the module answered (path policy). */
START_TEST(test_deny_raw_spelling)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "d\\195\\169j\\195\\160.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(!r.timed_out && r.rcode == 5,
                  "raw d\xc3\xa9j\xc3\xa0.example: %s, expected REFUSED", dnsq_rcode_name(r.rcode));
    ck_assert_msg(r.ede_code == 15 && strncmp(r.ede_text, "idnguard: deny", 14) == 0,
                  "raw d\xc3\xa9j\xc3\xa0.example: REFUSED with EDE %d \"%s\", expected 15 "
                  "\"idnguard: deny...\" as for its A-label",
                  r.ede_code, r.ede_text);
    ck_assert_msg(strcmp(q.rcode, "REFUSED") == 0 && strcmp(q.path, "policy") == 0 && q.ede == 15,
                  "line %s; expected REFUSED ... policy ede=15", q.raw);
}
END_TEST

/* The more specific entry wins: allowed below a denied name, denied below
 * an allowed one. */
START_TEST(test_lists_more_specific_wins)
{
    struct dnsq_result r;
    struct qline q;

    if (_i == 0) {
        hx_query(&H, "ok.www.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
        hx_expect_data(&r, &q, "ok.www.example.", "ok.www.example. A 192.0.2.14", "allow", "pass",
                       "resolved");
    } else {
        hx_query(&H, "y.xn--ab-m1t.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
        hx_expect_policy(&r, &q, "y.xn--ab-m1t.example.", 5, "deny", "refuse", "idnguard: deny");
    }
}
END_TEST

/* Whole labels: www2.example is not below www.example. */
START_TEST(test_deny_is_by_label)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "www2.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "www2.example.", "www2.example. A 192.0.2.11", "ok", "pass", "resolved");
}
END_TEST

/* ---- allow-file and deny-file ---- */

/* Bound of the wait for a changed file to be applied: one look a second. */
#define LISTS_WATCH_MS 5000

static void setup_list_files(void)
{
    harness_setup(&H, "idnguard:\n", 1);
}

/* Writes text to the file name in the test's directory: a new file renamed
 * over the old, as an operator's list update does, so that the watch never
 * reads half of it. */
static void write_names(const char *name, const char *text)
{
    char path[HARNESS_PATH_MAX + 64], tmp[HARNESS_PATH_MAX + 80];
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", H.dir, name);
    snprintf(tmp, sizeof tmp, "%s.new", path);
    f = fopen(tmp, "w");
    ck_assert_msg(f != NULL, "cannot write %s", tmp);
    ck_assert(fputs(text, f) >= 0 && fclose(f) == 0);
    ck_assert(rename(tmp, path) == 0);
}

/* Waits for one more "applied ... without a reload" line than before. */
static void wait_applied(int before)
{
    ck_assert_msg(harness_wait_count(H.ub_log, 0, "without a reload", before + 1, LISTS_WATCH_MS)
                      > before,
                  "the changed settings were not applied within %d ms", LISTS_WATCH_MS);
}

/* A name from a deny-file is refused (and the names below it), one from an
 * allow-file passes though its label is invalid; a changed deny-file is
 * applied (the old name answered again, the new one refused); a deny-file
 * with a bad line changes nothing, and says which line of which file. */
START_TEST(test_list_files)
{
    struct dnsq_result r;
    struct qline q;
    char text[3 * HARNESS_PATH_MAX], line[2048];
    int before = harness_count_lines(H.ub_log, 0, "without a reload");
    long from;

    write_names("deny.txt", "# blocklist\nwww.example\n");
    write_names("allow.txt", "xn--ab-m1t.example\n");
    snprintf(text, sizeof text,
             "idnguard:\n    deny-file: %s/deny.txt\n"
             "    allow-file: %s/allow.txt\n",
             H.dir, H.dir);
    ck_assert_int_eq(harness_write_conf(&H, text), 0);
    wait_applied(before);
    hx_query(&H, "www.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "www.example.", 5, "deny", "refuse", "idnguard: deny");
    hx_query(&H, "sub.www.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "sub.www.example.", 5, "deny", "refuse", "idnguard: deny");
    hx_query(&H, "xn--ab-m1t.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "xn--ab-m1t.example.", "xn--ab-m1t.example. A 192.0.2.67", "allow",
                   "pass", "resolved");
    /* (www2.example is not asked before it is denied: an answer in
     * Unbound's cache is expired only once a query next passes the module,
     * and this one would be served from the cache once more.) */

    /* The deny-file changes: www2 is denied now, www no longer. */
    before = harness_count_lines(H.ub_log, 0, "without a reload");
    write_names("deny.txt", "www2.example\n");
    wait_applied(before);
    hx_query(&H, "www2.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "www2.example.", 5, "deny", "refuse", "idnguard: deny");
    hx_query(&H, "www.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(r.rcode == 0 && strcmp(q.verdict, "ok") == 0,
                  "www.example after it left the deny-file: %s, line %s", dnsq_rcode_name(r.rcode),
                  q.raw);

    /* A bad line: not applied, reported with the file's line; the settings
     * in force still deny www2. */
    from = harness_file_size(H.ub_log);
    write_names("deny.txt", "www2.example\nbad name.example\n");
    ck_assert_msg(harness_wait_line(H.ub_log, from, "keeping the settings in force", LISTS_WATCH_MS,
                                    line, sizeof line),
                  "no \"keeping the settings in force\" line for a bad deny-file");
    ck_assert_msg(harness_wait_line(H.ub_log, from,
                                    "/deny.txt:2: bad name 'bad name.example' for 'deny-file'", 0,
                                    line, sizeof line),
                  "the error does not name the deny-file's line");
    hx_query(&H, "www2.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "www2.example.", 5, "deny", "refuse", "idnguard: deny");
    ck_assert_msg(harness_alive(H.ub_pid, H.owner), "the resolver died");
}
END_TEST

static Suite *policy_lists_suite(void)
{
    Suite *s = suite_create("integration-policy-lists");
    TCase *tc;

    tc = harness_tcase("allow-deny", setup_lists, teardown);
    tcase_add_test(tc, test_allow_passes_fake);
    tcase_add_test(tc, test_allow_covers_below);
    tcase_add_test(tc, test_allow_covers_cname_target);
    tcase_add_test(tc, test_allow_is_narrow);
    tcase_add_loop_test(tc, test_deny_refuses, 0, (int)(sizeof denied / sizeof denied[0]));
    tcase_add_test(tc, test_deny_raw_spelling);
    tcase_add_loop_test(tc, test_lists_more_specific_wins, 0, 2);
    tcase_add_test(tc, test_deny_is_by_label);
    suite_add_tcase(s, tc);

    tc = harness_tcase("list-files", setup_list_files, teardown);
    tcase_add_test(tc, test_list_files);
    suite_add_tcase(s, tc);

    return s;
}

IDNG_TEST_MAIN(policy_lists_suite)
