/**
 * \file
 * The homographs of the attack review, through the daemon: names written
 * wholly in Cyrillic letters that look like Latin ones (аррӏе.com for
 * apple.com, раураӏ.com for paypal.com, with the palochka standing for l),
 * asked in A-labels and in raw UTF-8, on the query path and at the end of
 * a CNAME chain, and with an emoji beside them (раураӏ🍎.com); the
 * whole-script rule against the scripts a TLD expects (refused under .com,
 * not under .рф or .ru, and not under .com once tld-scripts says so); a
 * near miss (paypál) answered and logged; on-idn (every IDN refused but
 * Latin ones and those under example.) on every path a name takes into an
 * answer.
 *
 * Six daemon set-ups, each with the module's own log-file (the suite
 * reads the query lines there): protected names; none; tld-scripts; the
 * near miss; on-idn, and on-idn with minimal-responses: no.  The names under .com, .рф and .ru are not served (the
 * test root zone knows none of them: NXDOMAIN when resolved); the zone
 * lookalike. (tests/integration/zones/lookalike.zone) serves the protected
 * name, the homograph and a chain into it, so that what the module lets
 * through visibly gets data.
 */
#include "common.h"
#include "harness.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

static struct harness H;

/* аррӏе and раураӏ: in A-labels, and as raw UTF-8 octets. */
#define APPLE_A "xn--80ak6aa92e"
#define APPLE_RAW "\\208\\176\\209\\128\\209\\128\\211\\143\\208\\181"
#define PAYPAL_A "xn--80aa0cbo65f"
#define PAYPAL_RAW "\\209\\128\\208\\176\\209\\131\\209\\128\\208\\176\\211\\143"
/* paypál */
#define NEAR_A "xn--paypl-0qa"

#define LOG_FILE "log-file: \"@DIR@/queries.log\"\n"

/* The query lines are in the module's own file. */
static void setup_with(const char *conf)
{
    harness_setup(&H, conf, 1);
    snprintf(H.qlog, sizeof H.qlog, "%.*s/queries.log", HARNESS_PATH_MAX - 16, H.dir);
}

static void setup_protected(void)
{
    setup_with("idnguard:\n"
               "    protect: apple.com\n"
               "    protect: paypal.com\n"
               "    protect: apple.lookalike\n" LOG_FILE);
}

static void setup_unprotected(void)
{
    setup_with("idnguard:\n" LOG_FILE);
}

static void setup_tld_scripts(void)
{
    setup_with("idnguard:\n"
               "    tld-scripts: com latin,cyrillic\n"
               "    tld-scripts: lookalike latin,cyrillic\n" LOG_FILE);
}

static void setup_near_miss(void)
{
    setup_with("idnguard:\n"
               "    protect: paypal.com\n"
               "    protect: paypal.lookalike\n" LOG_FILE);
}

#define IDN_CONF                                                                                   \
    "idnguard:\n"                                                                                \
    "    on-idn: refuse\n"                                                                      \
    "    idn-scripts: latin\n"                                                                  \
    "    idn-suffixes: example\n" LOG_FILE

static void setup_idn(void)
{
    setup_with(IDN_CONF);
}

/* NSD then sends an MX target's address in the additional section. */
static void setup_idn_full(void)
{
    static const struct harness_opts o = {.server_extra = "minimal-responses: no\n"};

    harness_setup_ex(&H, IDN_CONF, 1, &o);
    snprintf(H.qlog, sizeof H.qlog, "%.*s/queries.log", HARNESS_PATH_MAX - 16, H.dir);
}

static void teardown(void)
{
    harness_stop(&H);
}

/* A name the module did not refuse: rcode (the resolver's), no EDE at
 * all (the test zones give none of their own), and the line's verdict,
 * action and lookalike classes ("" for none). */
static void expect_not_refused(const struct dnsq_result *r, const struct qline *q,
                               const char *qname_log, int rcode, const char *verdict,
                               const char *action, const char *lookalike)
{
    ck_assert_msg(!r->timed_out, "%s: no reply", qname_log);
    ck_assert_msg(r->rcode != 5 && r->rcode == rcode,
                  "%s: rcode %s (EDE %d \"%s\"), expected %s from the resolver; line: %s",
                  qname_log, dnsq_rcode_name(r->rcode), r->ede_code, r->ede_text,
                  dnsq_rcode_name(rcode), q->raw);
    ck_assert_msg(r->ede_code == -1 && strstr(r->ede_text, "idnguard") == NULL,
                  "%s: EDE %d \"%s\" on a name the module let through", qname_log, r->ede_code,
                  r->ede_text);
    ck_assert_msg(strcmp(q->qname, qname_log) == 0, "line's qname %s, expected %s: %s", q->qname,
                  qname_log, q->raw);
    ck_assert_msg(strcmp(q->rcode, dnsq_rcode_name(rcode)) == 0
                      && strcmp(q->verdict, verdict) == 0 && strcmp(q->action, action) == 0
                      && strcmp(q->path, "resolved") == 0 && q->ede == -1
                      && strcmp(q->lookalike, lookalike) == 0,
                  "%s: line says %s %s %s %s ede=%d lookalike=%s; expected %s %s %s resolved, no "
                  "ede, lookalike=%s: %s",
                  qname_log, q->rcode, q->verdict, q->action, q->path, q->ede, q->lookalike,
                  dnsq_rcode_name(rcode), verdict, action, lookalike, q->raw);
}

/* Asks for qname (presentation form, no final dot), which the module must
 * refuse as cls at label, with an EDE text that begins "idnguard: CLS:
 * LABEL" and goes on with ede_rest; qlog gets the name as the line has it
 * (cap octets). */
static void expect_refused(const char *qname, const char *cls, const char *label,
                           const char *ede_rest, struct dnsq_result *r, struct qline *q,
                           char *qlog, size_t cap)
{
    char verdict[200], ede[300];

    snprintf(qlog, cap, "%s.", qname);
    snprintf(verdict, sizeof verdict, "%s:%s", cls, label);
    snprintf(ede, sizeof ede, "idnguard: %s: %s%s", cls, label, ede_rest);
    hx_query(&H, qname, DNSQ_A, 0, HARNESS_QUERY_MS, r, q);
    hx_expect_policy(r, q, qlog, 5, verdict, "refuse", ede);
}

/* ---- protected names: apple.com, paypal.com (and apple.lookalike) ---- */

static const struct {
    const char *qname, *label, *like;
} homographs[] = {
    {APPLE_A ".com", APPLE_A, "apple.com."},
    {PAYPAL_A ".com", PAYPAL_A, "paypal.com."},
    {APPLE_RAW ".com", APPLE_RAW, "apple.com."},
    {PAYPAL_RAW ".com", PAYPAL_RAW, "paypal.com."},
};

/* Refused as confusable, with an EDE that names the protected name it
 * looks like; the line shows the name as sent (A-labels, or escapes for
 * the raw octets), never in Unicode, and what was found. */
START_TEST(test_homograph_of_protected_refused)
{
    struct dnsq_result r;
    struct qline q;
    char qlog[300], like[100];

    expect_refused(homographs[_i].qname, "confusable", homographs[_i].label, ": ", &r, &q, qlog,
                   sizeof qlog);
    snprintf(like, sizeof like, ": looks like %s", homographs[_i].like);
    ck_assert_msg(strstr(r.ede_text, like) != NULL,
                  "%s: EDE text \"%s\" does not say \"%s\"", qlog, r.ede_text, like);
    ck_assert_msg(q.unicode[0] == '\0' && strcmp(q.lookalike, "confusable,whole-script") == 0,
                  "%s: line shows \"%s\", lookalike \"%s\": %s", qlog, q.unicode, q.lookalike,
                  q.raw);
}
END_TEST

/* An emoji beside a homograph hides nothing: раураӏ🍎 and аррӏе🍎 (in
 * A-labels and raw UTF-8), and a protected label with an emoji (paypal🍎),
 * are refused as confusable, the EDE naming the protected name; the
 * line never shows them in Unicode. */
static const struct {
    const char *qname, *label, *like, *lookalike;
} emoji_homographs[] = {
    {"xn--80aa0cbo65fh234w.com", "xn--80aa0cbo65fh234w", "paypal.com.", "confusable,whole-script"},
    {PAYPAL_RAW "\\240\\159\\141\\142.com", PAYPAL_RAW "\\240\\159\\141\\142", "paypal.com.",
     "confusable,whole-script"},
    {"xn--80ak6aa92et031u.lookalike", "xn--80ak6aa92et031u", "apple.lookalike.",
     "confusable,whole-script"},
    {"xn--paypal-8x34e.com", "xn--paypal-8x34e", "paypal.com.", "confusable"},
};

START_TEST(test_emoji_homograph_refused)
{
    struct dnsq_result r;
    struct qline q;
    char qlog[300], like[100];

    expect_refused(emoji_homographs[_i].qname, "confusable", emoji_homographs[_i].label, ": ", &r,
                   &q, qlog, sizeof qlog);
    snprintf(like, sizeof like, ": looks like %s", emoji_homographs[_i].like);
    ck_assert_msg(strstr(r.ede_text, like) != NULL,
                  "%s: EDE text \"%s\" does not say \"%s\"", qlog, r.ede_text, like);
    ck_assert_msg(q.unicode[0] == '\0'
                      && strcmp(q.lookalike, emoji_homographs[_i].lookalike) == 0,
                  "%s: line shows \"%s\", lookalike \"%s\": %s", qlog, q.unicode, q.lookalike,
                  q.raw);
}
END_TEST

/* The answer path: alias.lookalike CNAME xn--80ak6aa92e.lookalike (which
 * has an A record): the client gets the module's refusal for the
 * target, not the chain. */
START_TEST(test_chain_into_homograph_refused)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "alias.lookalike", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "alias.lookalike.", 5, "confusable:" APPLE_A, "refuse",
                     "idnguard: confusable: " APPLE_A ": ");
    ck_assert_msg(strstr(r.ede_text, ": looks like apple.lookalike.") != NULL,
                  "EDE text \"%s\" does not name apple.lookalike.", r.ede_text);
    ck_assert_msg(strstr(r.authority, APPLE_A ".lookalike.") == NULL
                      && strstr(r.additional, APPLE_A ".lookalike.") == NULL,
                  "the homograph's records ride along: authority [%s], additional [%s]",
                  r.authority, r.additional);
    /* Asked directly (CD=1: a cache entry would be handed out unvalidated),
     * the target is refused too. */
    hx_query(&H, APPLE_A ".lookalike", DNSQ_A, HQ_CD, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, APPLE_A ".lookalike.", 5, "confusable:" APPLE_A, "refuse",
                     "idnguard: confusable: " APPLE_A ": ");
}
END_TEST

/* The control: the protected name itself is answered from the zone. */
START_TEST(test_protected_name_answered)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "apple.lookalike", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "apple.lookalike.", "apple.lookalike. A 192.0.2.150", "ok", "pass",
                   "resolved");
}
END_TEST

/* ---- no protected name: whole-script against the TLD's scripts ---- */

static const struct {
    const char *qname, *label;
} whole_script[] = {
    {APPLE_A ".com", APPLE_A},
    {APPLE_RAW ".com", APPLE_RAW},
    {PAYPAL_A ".com", PAYPAL_A},
};

/* Under .com (Latin expected) an all-Cyrillic label whose every letter
 * looks Latin is refused as whole-script. */
START_TEST(test_whole_script_under_com_refused)
{
    struct dnsq_result r;
    struct qline q;
    char qlog[300];

    expect_refused(whole_script[_i].qname, "whole-script", whole_script[_i].label, ": ", &r, &q,
                   qlog, sizeof qlog);
    ck_assert_msg(strstr(r.ede_text, ": looks like ") == NULL,
                  "%s: EDE text \"%s\" names a protected name, but there is none", qlog,
                  r.ede_text);
    ck_assert_msg(q.unicode[0] == '\0' && strcmp(q.lookalike, "whole-script") == 0,
                  "%s: line shows \"%s\", lookalike \"%s\": %s", qlog, q.unicode, q.lookalike,
                  q.raw);
}
END_TEST

/* The same label under .рф (xn--p1ai, a Cyrillic TLD) and under .ru
 * (Cyrillic expected beside Latin) is Cyrillic where Cyrillic belongs:
 * not refused by the module; the test root knows neither TLD, so the
 * resolver's answer is NXDOMAIN. */
START_TEST(test_whole_script_under_cyrillic_tld_passes)
{
    static const char *const names[] = {APPLE_A ".xn--p1ai", APPLE_A ".ru", PAYPAL_A ".ru"};
    struct dnsq_result r;
    struct qline q;
    char qlog[300];

    snprintf(qlog, sizeof qlog, "%s.", names[_i]);
    hx_query(&H, names[_i], DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    expect_not_refused(&r, &q, qlog, 3, "ok", "pass", "");
}
END_TEST

/* The answer path without protected names: the chain's target is refused
 * as whole-script (lookalike. expects Latin, as .com does). */
START_TEST(test_chain_into_whole_script_refused)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "alias.lookalike", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "alias.lookalike.", 5, "whole-script:" APPLE_A, "refuse",
                     "idnguard: whole-script: " APPLE_A ": ");
}
END_TEST

/* ---- tld-scripts: com latin,cyrillic (and lookalike likewise) ---- */

/* The setting reaches the daemon: the homograph is judged as Cyrillic
 * under a TLD that expects it, and resolved (NXDOMAIN: .com is not
 * served). */
START_TEST(test_tld_scripts_lets_cyrillic_through)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, APPLE_A ".com", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    expect_not_refused(&r, &q, APPLE_A ".com.", 3, "ok", "pass", "");
}
END_TEST

/* The control of the answer-path tests: when the module lets the target
 * be, the client gets the whole chain from the zone. */
START_TEST(test_tld_scripts_chain_answered)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "alias.lookalike", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "alias.lookalike.",
                   "alias.lookalike. CNAME " APPLE_A ".lookalike. | " APPLE_A
                   ".lookalike. A 192.0.2.151",
                   "ok", "pass", "resolved");
}
END_TEST

/* ---- a near miss: paypál, with paypal protected ---- */

/* Logged (near-miss's default action), not refused: the resolver's
 * answer (NXDOMAIN under .com, the zone's data under lookalike.), and the
 * line, in A-labels, names the class. */
START_TEST(test_near_miss_answered_and_logged)
{
    static const struct {
        const char *qname;
        int rcode;
        const char *summary;
    } rows[] = {
        {NEAR_A ".com", 3, ""},
        {NEAR_A ".lookalike", 0, NEAR_A ".lookalike. A 192.0.2.152"},
    };
    struct dnsq_result r;
    struct qline q;
    char qlog[300], sum[1024];

    snprintf(qlog, sizeof qlog, "%s.", rows[_i].qname);
    hx_query(&H, rows[_i].qname, DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    expect_not_refused(&r, &q, qlog, rows[_i].rcode, "near-miss:" NEAR_A, "log", "near-miss");
    dnsq_answer_summary(&r, sum, sizeof sum);
    ck_assert_msg(strcmp(sum, rows[_i].summary) == 0, "%s: answer [%s], expected [%s]", qlog, sum,
                  rows[_i].summary);
    ck_assert_msg(q.unicode[0] == '\0', "%s: line shows the lookalike in Unicode: %s", qlog,
                  q.raw);
    ck_assert_msg(strstr(q.raw, " lookalike=near-miss") != NULL, "%s: line %s", qlog, q.raw);
}
END_TEST

/* ---- on-idn: refuse, idn-scripts: latin, idn-suffixes: example ---- */

/* правда (Cyrillic) and an emoji (no script), in A-labels and as raw
 * UTF-8: refused on the query, the EDE naming the class and the label. */
#define PRAVDA_A "xn--80aafi6cg"
#define PRAVDA_RAW "\\208\\191\\209\\128\\208\\176\\208\\178\\208\\180\\208\\176"
#define IDN_MESSAGE ": IDN label that idn-scripts and idn-suffixes do not exempt"

static const struct {
    const char *qname, *label, *lookalike;
} idn_refused[] = {
    {PRAVDA_A ".lookalike", PRAVDA_A, ""},
    {"xn--ls8h.lookalike", "xn--ls8h", ""},
    {PRAVDA_RAW ".lookalike", PRAVDA_RAW, ""},
    /* not served: refused before anything is asked */
    {"www." PRAVDA_A ".nx.lookalike", PRAVDA_A, ""},
};

START_TEST(test_idn_query_refused)
{
    struct dnsq_result r;
    struct qline q;
    char qlog[300];

    expect_refused(idn_refused[_i].qname, "idn", idn_refused[_i].label, IDN_MESSAGE, &r, &q, qlog,
                   sizeof qlog);
    ck_assert_msg(strcmp(q.lookalike, idn_refused[_i].lookalike) == 0,
                  "%s: lookalike \"%s\", expected \"%s\": %s", qlog, q.lookalike,
                  idn_refused[_i].lookalike, q.raw);
}
END_TEST

/* Exempt: a Latin IDN, and any IDN under example.  The emoji there is
 * what it is without on-idn: ok (mixed-script sets emoji aside). */
START_TEST(test_idn_exempt_answered)
{
    static const struct {
        const char *qname, *summary, *verdict, *action;
    } rows[] = {
        {"xn--bcher-kva.lookalike", "xn--bcher-kva.lookalike. A 192.0.2.153", "ok", "pass"},
        {PRAVDA_A ".example", PRAVDA_A ".example. A 192.0.2.5", "ok", "pass"},
        {"xn--ls8h.example", "xn--ls8h.example. A 192.0.2.3", "ok", "pass"},
        {"www.lookalike", "", "ok", "pass"},
    };
    struct dnsq_result r;
    struct qline q;
    char qlog[300];

    snprintf(qlog, sizeof qlog, "%s.", rows[_i].qname);
    hx_query(&H, rows[_i].qname, DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    if (rows[_i].summary[0] == '\0') { /* no such name: the zone's NXDOMAIN */
        expect_not_refused(&r, &q, qlog, 3, rows[_i].verdict, rows[_i].action, "");
        return;
    }
    hx_expect_data(&r, &q, qlog, rows[_i].summary, rows[_i].verdict, rows[_i].action, "resolved");
}
END_TEST

/* Raw UTF-8 for an exempt name is normalized as ever: bücher (Latin), and
 * правда under example. (the suffix is matched in A-labels). */
START_TEST(test_idn_raw_exempt_normalized)
{
    static const struct {
        const char *qname, *cname, *rest, *verdict;
    } rows[] = {
        {"b\\195\\188cher.lookalike", "b\\195\\188cher.lookalike. CNAME xn--bcher-kva.lookalike.",
         "xn--bcher-kva.lookalike. A 192.0.2.153", "raw-8bit:b\\195\\188cher"},
        {PRAVDA_RAW ".example", PRAVDA_RAW ".example. CNAME " PRAVDA_A ".example.",
         PRAVDA_A ".example. A 192.0.2.5", "raw-8bit:" PRAVDA_RAW},
    };
    struct dnsq_result r;
    struct qline q;
    char qlog[300];

    snprintf(qlog, sizeof qlog, "%s.", rows[_i].qname);
    hx_query(&H, rows[_i].qname, DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_normalized(&H, &r, &q, qlog, DNSQ_A, rows[_i].cname, rows[_i].rest,
                         rows[_i].verdict);
}
END_TEST

/* The answer path: a plain name whose answer ends in правда, as a chain
 * to data and as a chain to a name that does not exist (a negative
 * answer): refused as the target would be; asked again with CD=1 (a cache
 * entry would be handed out unvalidated), still refused, and so is the
 * target itself. */
START_TEST(test_idn_chain_refused)
{
    static const char *const names[] = {"idnalias.lookalike", "idnnx.lookalike"};
    struct dnsq_result r;
    struct qline q;
    char qlog[300];
    unsigned flags;

    snprintf(qlog, sizeof qlog, "%s.", names[_i]);
    for (flags = 0; flags <= HQ_CD; flags += HQ_CD) {
        hx_query(&H, names[_i], DNSQ_A, flags, HARNESS_QUERY_MS, &r, &q);
        hx_expect_policy(&r, &q, qlog, 5, "idn:" PRAVDA_A, "refuse",
                         "idnguard: idn: " PRAVDA_A IDN_MESSAGE);
        ck_assert_msg(!dnsq_section_has(r.authority, PRAVDA_A ".lookalike.", NULL, NULL)
                          && !dnsq_section_has(r.additional, PRAVDA_A ".lookalike.", NULL, NULL),
                      "%s: the refused name's records ride along: authority [%s], additional "
                      "[%s]",
                      qlog, r.authority, r.additional);
    }
    hx_query(&H, PRAVDA_A ".lookalike", DNSQ_A, HQ_CD, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, PRAVDA_A ".lookalike.", 5, "idn:" PRAVDA_A, "refuse",
                     "idnguard: idn: " PRAVDA_A IDN_MESSAGE);
}
END_TEST

/* With minimal-responses: no, NSD sends the MX target's address in the
 * additional section: a foreign IDN's is stripped (the answer stands; the
 * target is judged when a client asks for it), an exempt one's kept. */
START_TEST(test_idn_additional_stripped)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "latinmx.lookalike", DNSQ_MX, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "latinmx.lookalike.", "latinmx.lookalike. MX 10 xn--bcher-kva.lookalike.",
                   "ok", "pass", "resolved");
    ck_assert_msg(dnsq_section_has(r.additional, "xn--bcher-kva.lookalike.", "A", "192.0.2.153"),
                  "the control: no address for the exempt target in:\n%s", r.additional);

    hx_query(&H, "idnmx.lookalike", DNSQ_MX, 0, HARNESS_QUERY_MS, &r, &q);
    if (harness_python()) {
        /* PY: one RRset cannot be taken out of an answer from python: the
         * answer that carries the refused name's data is refused whole. */
        py_does("an answer with a refused name's RRset in its additional section is refused");
        hx_expect_policy(&r, &q, "idnmx.lookalike.", 5, "idn:" PRAVDA_A, "refuse",
                         "idnguard: idn: " PRAVDA_A IDN_MESSAGE);
    } else {
        hx_expect_data(&r, &q, "idnmx.lookalike.", "idnmx.lookalike. MX 10 " PRAVDA_A ".lookalike.",
                       "ok", "pass", "resolved");
        ck_assert_msg(!dnsq_section_has(r.additional, PRAVDA_A ".lookalike.", "A", NULL),
                      "the refused name's address is in the additional section:\n%s",
                      r.additional);
    }
    /* Nor was it cached from there. */
    hx_query(&H, PRAVDA_A ".lookalike", DNSQ_A, HQ_CD, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, PRAVDA_A ".lookalike.", 5, "idn:" PRAVDA_A, "refuse",
                     "idnguard: idn: " PRAVDA_A IDN_MESSAGE);
}
END_TEST

static Suite *lookalike_suite(void)
{
    Suite *s = suite_create("integration-lookalike");
    TCase *tc = harness_tcase("protected", setup_protected, teardown);
    tcase_add_test(tc, test_protected_name_answered);
    tcase_add_loop_test(tc, test_homograph_of_protected_refused, 0,
                        (int)(sizeof homographs / sizeof homographs[0]));
    tcase_add_test(tc, test_chain_into_homograph_refused);
    tcase_add_loop_test(tc, test_emoji_homograph_refused, 0,
                        (int)(sizeof emoji_homographs / sizeof emoji_homographs[0]));
    suite_add_tcase(s, tc);

    tc = harness_tcase("whole-script", setup_unprotected, teardown);
    tcase_add_loop_test(tc, test_whole_script_under_com_refused, 0,
                        (int)(sizeof whole_script / sizeof whole_script[0]));
    tcase_add_loop_test(tc, test_whole_script_under_cyrillic_tld_passes, 0, 3);
    tcase_add_test(tc, test_chain_into_whole_script_refused);
    suite_add_tcase(s, tc);

    tc = harness_tcase("tld-scripts", setup_tld_scripts, teardown);
    tcase_add_test(tc, test_tld_scripts_lets_cyrillic_through);
    tcase_add_test(tc, test_tld_scripts_chain_answered);
    suite_add_tcase(s, tc);

    tc = harness_tcase("near-miss", setup_near_miss, teardown);
    tcase_add_loop_test(tc, test_near_miss_answered_and_logged, 0, 2);
    suite_add_tcase(s, tc);

    tc = harness_tcase("idn", setup_idn, teardown);
    tcase_add_loop_test(tc, test_idn_query_refused, 0,
                        (int)(sizeof idn_refused / sizeof idn_refused[0]));
    tcase_add_loop_test(tc, test_idn_exempt_answered, 0, 4);
    tcase_add_loop_test(tc, test_idn_raw_exempt_normalized, 0, 2);
    tcase_add_loop_test(tc, test_idn_chain_refused, 0, 2);
    suite_add_tcase(s, tc);

    /* Unbound's own set-up */
    if (!harness_engine()) {
        tc = harness_tcase("idn-full", setup_idn_full, teardown);
        tcase_add_test(tc, test_idn_additional_stripped);
        suite_add_tcase(s, tc);
    }
    return s;
}

IDNG_TEST_MAIN(lookalike_suite)
