/**
 * \file
 * The module's policy end to end: every error class a query can reach
 * under every action (idn, on-idn's, too), the defaults, the two profiles that differ on emoji,
 * names that must never be judged, lookalikes, and EDE only for clients
 * that sent EDNS.  The allow and deny lists are in test_policy_lists.c.
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

/*
 * One query name per error class, judged under mode idna2008, where every
 * class a query can reach has a representative (contexto, and disallowed
 * for emoji, exist only there; not-canonical then comes from a non-NFC
 * label rather than a mapped code point).
 *
 * too-long has no row: it cannot come from a query.  A wire label is at
 * most 63 octets and a wire name at most 255, and the codec's limits are
 * exactly those (RFC 1035 2.3.4), so every name Unbound accepts fits them.
 */
struct cls_case {
    const char *cls;   /* class name as logged and in the EDE text */
    const char *qname; /* presentation; \DDD is how the log writes raw octets too */
    const char *label; /* the failing label as the log and the EDE text show it */
    const char *ip;    /* the zone's A record; NULL: the upstream says NXDOMAIN */
};

static const struct cls_case classes[] = {
    {"empty-label", "xn--.example", "xn--", NULL},
    {"bad-punycode", "xn--_.example", "xn--_", NULL},
    {"bad-codepoint", "xn--0000h.example", "xn--0000h", "192.0.2.68"},
    {"ascii-only", "xn--example-.example", "xn--example-", "192.0.2.69"},
    {"not-canonical", "xn--cafe-yvc.example", "xn--cafe-yvc", "192.0.2.73"},
    {"disallowed", "xn--ls8h.example", "xn--ls8h", "192.0.2.3"},
    {"contextj", "xn--ab-m1t.example", "xn--ab-m1t", "192.0.2.67"},
    {"contexto", "xn--ab-0ea.example", "xn--ab-0ea", "192.0.2.74"},
    {"hyphen", "xn--ab--c-kra.example", "xn--ab--c-kra", "192.0.2.75"},
    {"leading-mark", "xn--ssa.example", "xn--ssa", "192.0.2.76"},
    {"bidi", "xn--1-0hc.example", "xn--1-0hc", "192.0.2.70"},
    {"raw-8bit", "b\\195\\188cher.example", "b\\195\\188cher", NULL},
    /* a valid IDN, under on-idn (pass: not looked for, the name is ok) */
    {"idn", "xn--bcher-kva.example", "xn--bcher-kva", "192.0.2.2"},
};
#define NCLASSES ((int)(sizeof classes / sizeof classes[0]))

/* The action of the running tcase: set by its fixture in the runner, so
 * every forked test inherits it. */
static const char *cur_action;

/* Lookalike judgments pass, so that each row shows its own class (some of
 * these labels are not UTS #39 identifiers either; the "lookalike" tcase
 * covers those classes); on-idn takes the tcase's action, which a label
 * failing a check does not get (it keeps its own class), nor a raw one
 * (raw-8bit, the more specific class of the same label, wins the tie). */
#define ACTION_CONF(a)                                                                             \
    "idnguard:\n    mode: idna2008\n    on-invalid: " a "\n    on-raw-8bit: " a "\n"          \
    "    on-mixed-script: pass\n    on-mixed-number: pass\n    on-whole-script: pass\n"        \
    "    on-near-miss: pass\n    on-mark-pattern: pass\n    on-cjk-pattern: pass\n"          \
    "    on-digit-lookalike: pass\n    on-punctuation-like: pass\n    on-tld-letter: pass\n"  \
    "    on-embeds-protected: pass\n    on-idn: " a "\n"

/* Check's fixtures take no argument: one small function per action. */
#define ACTION_SETUP(a)                                                                            \
    static void setup_##a(void)                                                                    \
    {                                                                                              \
        cur_action = #a;                                                                           \
        harness_setup(&H, ACTION_CONF(#a), 1);                                                     \
    }
ACTION_SETUP(pass)
ACTION_SETUP(log)
ACTION_SETUP(refuse)
ACTION_SETUP(nxdomain)
ACTION_SETUP(drop)
static void teardown(void)
{
    harness_stop(&H);
}

/* One class under the tcase's action: the reply and the line. */
START_TEST(test_class_under_action)
{
    const struct cls_case *c = &classes[_i];
    const char *a = cur_action;
    int drop = strcmp(a, "drop") == 0;
    struct dnsq_result r;
    struct qline q;
    char qlog[300], verdict[200], ede[200], sum[1024];

    snprintf(qlog, sizeof qlog, "%s.", c->qname);
    snprintf(verdict, sizeof verdict, "%s:%s", c->cls, c->label);
    if (strcmp(c->cls, "idn") == 0 && strcmp(a, "pass") == 0)
        snprintf(verdict, sizeof verdict, "ok"); /* on-idn: pass looks for nothing */
    snprintf(ede, sizeof ede, "idnguard: %s: %s", c->cls, c->label);
    hx_query(&H, c->qname, DNSQ_A, 0, drop ? HARNESS_DROP_MS : HARNESS_QUERY_MS, &r, &q);

    if (strcmp(a, "pass") == 0 || strcmp(a, "log") == 0) {
        /* The upstream's answer, as if the module were not there. */
        dnsq_answer_summary(&r, sum, sizeof sum);
        ck_assert_msg(!r.timed_out, "%s under %s: no reply", c->qname, a);
        if (c->ip) {
            char want[400];
            snprintf(want, sizeof want, "%s. A %s", c->qname, c->ip);
            hx_expect_data(&r, &q, qlog, want, verdict, a, "resolved");
        } else {
            ck_assert_msg(r.rcode == 3 && r.ancount == 0,
                          "%s under %s: %s with answer \"%s\", expected the upstream's NXDOMAIN",
                          c->qname, a, dnsq_rcode_name(r.rcode), sum);
            ck_assert_msg(r.ede_code == -1, "%s under %s: EDE %d \"%s\" on a passed query",
                          c->qname, a, r.ede_code, r.ede_text);
            ck_assert_msg(strcmp(q.rcode, "NXDOMAIN") == 0 && strcmp(q.verdict, verdict) == 0
                              && strcmp(q.action, a) == 0 && strcmp(q.path, "resolved") == 0
                              && q.ede == -1,
                          "%s under %s: line %s", c->qname, a, q.raw);
        }
    } else if (drop) {
        hx_expect_dropped(&r, &q, qlog, verdict);
    } else {
        int rcode = strcmp(a, "refuse") == 0 ? 5 : 3;
        hx_expect_policy(&r, &q, qlog, rcode, verdict, a, ede);
    }
}
END_TEST

/* An answer whose CNAME leads into the fake label gets the label's action
 * (here contextj's, which is the tcase's).  pass and log answer as usual. */
START_TEST(test_chain_under_action)
{
    const char *a = cur_action;
    struct dnsq_result r;
    struct qline q;

    if (strcmp(a, "pass") == 0 || strcmp(a, "log") == 0) {
        char sum[1024];
        hx_query(&H, "alias.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
        dnsq_answer_summary(&r, sum, sizeof sum);
        ck_assert_msg(r.rcode == 0 && r.ede_code == -1
                          && strcmp(sum, "alias.example. CNAME xn--ab-m1t.example. | "
                                         "xn--ab-m1t.example. A 192.0.2.67")
                                 == 0,
                      "alias.example under %s: %s [%s] EDE %d", a, dnsq_rcode_name(r.rcode), sum,
                      r.ede_code);
    } else if (strcmp(a, "drop") == 0) {
        hx_query(&H, "alias.example", DNSQ_A, 0, HARNESS_DROP_MS, &r, &q);
        hx_expect_dropped(&r, &q, "alias.example.", "contextj:xn--ab-m1t");
    } else {
        hx_query(&H, "alias.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
        hx_expect_policy(&r, &q, "alias.example.", strcmp(a, "refuse") == 0 ? 5 : 3,
                         "contextj:xn--ab-m1t", a, "idnguard: contextj: xn--ab-m1t: ");
    }
}
END_TEST

/* on-invalid: log means "answer as usual, and log the name": also when the
 * answer comes from the cache the second time. */
START_TEST(test_log_action_on_cache_hit)
{
    struct dnsq_result r;
    struct qline q;
    int i;

    for (i = 0; i < 2; i++) {
        hx_query(&H, "xn--ab-m1t.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
        ck_assert_msg(r.rcode == 0 && dnsq_answer_has(&r, "xn--ab-m1t.example", "A", "192.0.2.67"),
                      "query %d under log: %s", i + 1, dnsq_rcode_name(r.rcode));
    }
    ck_assert_msg(strcmp(q.verdict, "contextj:xn--ab-m1t") == 0 && strcmp(q.action, "log") == 0
                      && strcmp(q.path, "cache") == 0,
                  "repeat query under on-invalid: log: line %s; expected contextj:xn--ab-m1t log "
                  "cache",
                  q.raw);
}
END_TEST

/* ---- defaults: a clause header and nothing else ---- */

static void setup_defaults(void)
{
    harness_setup(&H, "idnguard:\n", 1);
}

START_TEST(test_default_good_idn)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "xn--bcher-kva.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "xn--bcher-kva.example.", "xn--bcher-kva.example. A 192.0.2.2", "ok",
                   "pass", "resolved");
    ck_assert_msg(strcmp(q.unicode, "b\xc3\xbc"
                                    "cher.example.")
                      == 0,
                  "line's Unicode form \"%s\": %s", q.unicode, q.raw);
}
END_TEST

/* A-labels compare case-insensitively: upper case is no way around the
 * check; the log and the EDE show the label as sent. */
START_TEST(test_default_fake_refused)
{
    static const char *const label[] = {"xn--ab-m1t", "XN--AB-M1T", "Xn--Ab-M1t"};
    struct dnsq_result r;
    struct qline q;
    char qname[100], qlog[100], verdict[100], ede[100];

    snprintf(qname, sizeof qname, "%s.example", label[_i]);
    snprintf(qlog, sizeof qlog, "%s.example.", label[_i]);
    snprintf(verdict, sizeof verdict, "contextj:%s", label[_i]);
    snprintf(ede, sizeof ede, "idnguard: contextj: %s: ", label[_i]);
    hx_query(&H, qname, DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, qlog, 5, verdict, "refuse", ede);
    ck_assert_msg(r.has_opt, "REFUSED to an EDNS query without an OPT record");
}
END_TEST

START_TEST(test_default_raw_normalized)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "b\\195\\188cher.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_normalized(&H, &r, &q, "b\\195\\188cher.example.", DNSQ_A,
                         "b\\195\\188cher.example. CNAME xn--bcher-kva.example.",
                         "xn--bcher-kva.example. A 192.0.2.2", "raw-8bit:b\\195\\188cher");
}
END_TEST

/* Emoji are valid under UTS #46 (the default) and DISALLOWED under IDNA2008. */
START_TEST(test_emoji_uts46)
{
    struct dnsq_result r;
    struct qline q;

    /* UTS #46 keeps U+1F4A9.  It is no identifier character of UTS #39,
     * but a pictograph, which the mixed-script rule sets aside: the name is
     * answered as a good IDN, and its line shows its Unicode form. */
    hx_query(&H, "xn--ls8h.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "xn--ls8h.example.", "xn--ls8h.example. A 192.0.2.3", "ok", "pass",
                   "resolved");
    ck_assert_msg(strcmp(q.unicode, "\xf0\x9f\x92\xa9.example.") == 0 && q.lookalike[0] == '\0',
                  "line's Unicode form \"%s\", lookalike \"%s\": %s", q.unicode, q.lookalike,
                  q.raw);
}
END_TEST

/* Classes that only UTS #46 gives these labels: private use and a mapped
 * code point (the soft hyphen of CVE-2019-12290). */
START_TEST(test_uts46_only_classes)
{
    static const struct cls_case rows[] = {
        {"disallowed", "xn--0y0c.example", "xn--0y0c", NULL},
        {"not-canonical", "xn--example-nka.example", "xn--example-nka", NULL},
        {"not-canonical", "xn--bc-kw3n.example", "xn--bc-kw3n", NULL},
    };
    const struct cls_case *c = &rows[_i];
    struct dnsq_result r;
    struct qline q;
    char qlog[300], verdict[200], ede[200];

    snprintf(qlog, sizeof qlog, "%s.", c->qname);
    snprintf(verdict, sizeof verdict, "%s:%s", c->cls, c->label);
    snprintf(ede, sizeof ede, "idnguard: %s: %s: ", c->cls, c->label);
    hx_query(&H, c->qname, DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, qlog, 5, verdict, "refuse", ede);
}
END_TEST

/* Ordinary DNS names that break IDNA rules, and an A-label in upper case
 * (A-labels compare case-insensitively): never refused. */
static const struct {
    const char *qname;
    uint16_t qtype;
    const char *type, *rdata;
} ordinary[] = {
    {"_dmarc.example", DNSQ_TXT, "TXT", "\"v=DMARC1; p=none\""},
    {"r3---sn-abc.example", DNSQ_A, "A", "192.0.2.7"},
    {"a--b.example", DNSQ_A, "A", "192.0.2.8"},
    {"-x.example", DNSQ_A, "A", "192.0.2.9"},
    {"XN--BCHER-KVA.example", DNSQ_A, "A", "192.0.2.2"},
};

START_TEST(test_ordinary_names_pass)
{
    struct dnsq_result r;
    struct qline q;
    char qlog[300], sum[1024];

    snprintf(qlog, sizeof qlog, "%s.", ordinary[_i].qname);
    hx_query(&H, ordinary[_i].qname, ordinary[_i].qtype, 0, HARNESS_QUERY_MS, &r, &q);
    dnsq_answer_summary(&r, sum, sizeof sum);
    ck_assert_msg(
        r.rcode == 0
            && dnsq_answer_has(&r, ordinary[_i].qname, ordinary[_i].type, ordinary[_i].rdata),
        "%s: %s, answer \"%s\" (EDE %d \"%s\"); expected %s %s", ordinary[_i].qname,
        dnsq_rcode_name(r.rcode), sum, r.ede_code, r.ede_text, ordinary[_i].type,
        ordinary[_i].rdata);
    ck_assert_msg(strcmp(q.qname, qlog) == 0 && strcmp(q.rcode, "NOERROR") == 0
                      && strcmp(q.verdict, "ok") == 0 && strcmp(q.action, "pass") == 0,
                  "%s: line %s", ordinary[_i].qname, q.raw);
}
END_TEST

/* RFC 8914 options travel in OPT: a client without EDNS gets the rcode
 * and no OPT record at all. */
START_TEST(test_no_edns_no_ede)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "xn--ab-m1t.example", DNSQ_A, HQ_NOEDNS, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(!r.timed_out && r.rcode == 5, "no-EDNS refusal: %s", dnsq_rcode_name(r.rcode));
    ck_assert_msg(!r.has_opt, "reply to a query without EDNS holds an OPT record (EDE %d \"%s\")",
                  r.ede_code, r.ede_text);
    ck_assert_msg(strcmp(q.verdict, "contextj:xn--ab-m1t") == 0 && strcmp(q.action, "refuse") == 0,
                  "line %s", q.raw);
}
END_TEST

/* ---- mode idna2008 and ede: no, otherwise defaults ---- */

static void setup_idna2008(void)
{
    harness_setup(&H, "idnguard:\n    mode: idna2008\n    ede: no\n", 1);
}

/* Refused, and without an EDE although the client sent EDNS (ede: no). */
START_TEST(test_emoji_idna2008)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "xn--ls8h.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "xn--ls8h.example.", 5, "disallowed:xn--ls8h", "refuse", NULL);
    ck_assert_msg(r.ede_code == -1, "ede: no, yet EDE %d \"%s\"", r.ede_code, r.ede_text);
}
END_TEST

START_TEST(test_good_idn_idna2008)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "xn--80aafi6cg.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "xn--80aafi6cg.example.", "xn--80aafi6cg.example. A 192.0.2.5", "ok",
                   "pass", "resolved");
}
END_TEST

/* ---- lookalikes (UTS #39): paypal.example protected ---- */

static void setup_lookalike(void)
{
    harness_setup(&H,
                  "idnguard:\n    protect: paypal.example\n    on-mixed-number: refuse\n"
                  "    watch-settings: no\n", 1);
}

/* p<Cyrillic a>ypal.example, and a name below it, are refused with an EDE
 * that names the protected name; the line shows them in A-labels only. */
START_TEST(test_confusable_refused)
{
    static const char *const names[] = {"xn--pypal-4ve.example", "login.xn--pypal-4ve.example"};
    struct dnsq_result r;
    struct qline q;
    char qlog[300];

    snprintf(qlog, sizeof qlog, "%s.", names[_i]);
    hx_query(&H, names[_i], DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, qlog, 5, "confusable:xn--pypal-4ve", "refuse",
                     "idnguard: confusable: xn--pypal-4ve: ");
    ck_assert_msg(strstr(r.ede_text, ": looks like paypal.example.") != NULL,
                  "EDE text \"%s\" does not name the protected name", r.ede_text);
    ck_assert_msg(q.unicode[0] == '\0' && strcmp(q.lookalike, "mixed-script,confusable") == 0,
                  "line shows \"%s\", lookalike \"%s\": %s", q.unicode, q.lookalike, q.raw);
}
END_TEST

/* The protected name itself, and an ASCII name that merely looks like it
 * (not IDNA's business), are answered. */
START_TEST(test_protected_and_ascii_pass)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "paypal.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "paypal.example.", "paypal.example. A 192.0.2.80", "ok", "pass",
                   "resolved");
    hx_query(&H, "paypa1.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(r.rcode == 3 && strcmp(q.verdict, "ok") == 0 && q.lookalike[0] == '\0',
                  "paypa1.example: %s, line %s", dnsq_rcode_name(r.rcode), q.raw);
}
END_TEST

/* A CNAME into the lookalike gets the lookalike's action: the answer path
 * judges targets as the query path judges names. */
START_TEST(test_chain_into_confusable)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "payalias.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "payalias.example.", 5, "confusable:xn--pypal-4ve", "refuse",
                     "idnguard: confusable: xn--pypal-4ve: ");
}
END_TEST

/* Latin with Devanagari is moderately restrictive: below the default
 * highly-restrictive, so logged (and answered), in A-labels; digits of two
 * systems refused, as this tcase says. */
START_TEST(test_mixed_script_logged)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "xn--aypal-i4k.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "xn--aypal-i4k.example.", "xn--aypal-i4k.example. A 192.0.2.83",
                   "mixed-script:xn--aypal-i4k", "log", "resolved");
    ck_assert_msg(q.unicode[0] == '\0' && strcmp(q.lookalike, "mixed-script") == 0,
                  "line shows \"%s\", lookalike \"%s\": %s", q.unicode, q.lookalike, q.raw);
    hx_query(&H, "xn--2-wtd80a.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "xn--2-wtd80a.example.", 5, "mixed-number:xn--2-wtd80a", "refuse",
                     "idnguard: mixed-number: xn--2-wtd80a: ");
}
END_TEST

/* A lookalike whose answer is refused (a CNAME into a fake label): the
 * client gets the target's verdict (no lookalike: it does not even decode),
 * but the line shows the client's name,
 * and so in A-labels only. */
START_TEST(test_lookalike_answer_refused_logged_in_alabels)
{
    struct dnsq_result r;
    struct qline q;

    hx_query(&H, "xn--aypal-i4k.chain.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "xn--aypal-i4k.chain.example.", 5, "bad-punycode:xn--zz", "refuse",
                     "idnguard: bad-punycode: xn--zz: ");
    ck_assert_msg(q.unicode[0] == '\0' && strcmp(q.lookalike, "mixed-script") == 0,
                  "line shows \"%s\", lookalike \"%s\": %s", q.unicode, q.lookalike, q.raw);
}
END_TEST

/* A reload with a bad protected name keeps the running settings (and
 * says which line of which file); the next good file is taken. */
START_TEST(test_lookalike_reload)
{
    struct dnsq_result r;
    struct qline q;
    char line[2048];
    long from;

    ck_assert(harness_write_conf(&H, "idnguard:\n    protect: paypal.example\n"
                                     "    protect: xn--zz.example\n") == 0);
    ck_assert(harness_sighup(&H) == 0);
    ck_assert_msg(harness_wait_line(H.ub_log, 0, HARNESS_RELOAD_FAILED "1); ", HARNESS_START_MS,
                                    line, sizeof line),
                  "no \"reload failed\" line after a bad reload");
    ck_assert_msg(harness_wait_line(H.ub_log, 0, "idnguard.conf:3: bad name 'xn--zz.example'", 0,
                                    line, sizeof line),
                  "the reload error does not name file:line and the name");
    hx_query(&H, "xn--pypal-4ve.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(r.rcode == 5 && strcmp(q.verdict, "confusable:xn--pypal-4ve") == 0,
                  "after a bad reload: %s, line %s", dnsq_rcode_name(r.rcode), q.raw);
    from = harness_file_size(H.ub_log);
    ck_assert(harness_write_conf(&H, "idnguard:\n    restriction-level: minimally-restrictive\n"
                                     "    watch-settings: no\n")
              == 0);
    ck_assert(harness_sighup(&H) == 0);
    ck_assert_msg(harness_wait_line(H.ub_log, from, HARNESS_RELOADED, HARNESS_START_MS, line,
                                    sizeof line),
                  "no \"%s\" line after SIGHUP", HARNESS_RELOADED);
    ck_assert_msg(strstr(line, ": on-mixed-number refuse -> log; restriction-level "
                               "highly-restrictive -> minimally-restrictive; protect -1 (now 0)"),
                  "reload line: %s", line);
    hx_query(&H, "xn--pypal-4ve.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "xn--pypal-4ve.example.", "xn--pypal-4ve.example. A 192.0.2.81", "ok",
                   "pass", "resolved");
}
END_TEST

static Suite *policy_suite(void)
{
    Suite *s = suite_create("integration-policy");
    static const struct {
        const char *name;
        void (*setup)(void);
    } actions[] = {
        {"action-pass", setup_pass},     {"action-log", setup_log},
        {"action-refuse", setup_refuse}, {"action-nxdomain", setup_nxdomain},
        {"action-drop", setup_drop},
    };
    size_t i;
    TCase *tc;

    for (i = 0; i < sizeof actions / sizeof actions[0]; i++) {
        tc = harness_tcase(actions[i].name, actions[i].setup, teardown);
        tcase_add_loop_test(tc, test_class_under_action, 0, NCLASSES);
        tcase_add_test(tc, test_chain_under_action);
        if (actions[i].setup == setup_log)
            tcase_add_test(tc, test_log_action_on_cache_hit);
        suite_add_tcase(s, tc);
    }

    tc = harness_tcase("defaults", setup_defaults, teardown);
    tcase_add_test(tc, test_default_good_idn);
    tcase_add_loop_test(tc, test_default_fake_refused, 0, 3);
    tcase_add_test(tc, test_default_raw_normalized);
    tcase_add_test(tc, test_emoji_uts46);
    tcase_add_loop_test(tc, test_uts46_only_classes, 0, 3);
    tcase_add_loop_test(tc, test_ordinary_names_pass, 0,
                        (int)(sizeof ordinary / sizeof ordinary[0]));
    tcase_add_test(tc, test_no_edns_no_ede);
    suite_add_tcase(s, tc);

    tc = harness_tcase("idna2008", setup_idna2008, teardown);
    tcase_add_test(tc, test_emoji_idna2008);
    tcase_add_test(tc, test_good_idn_idna2008);
    suite_add_tcase(s, tc);

    tc = harness_tcase("lookalike", setup_lookalike, teardown);
    tcase_add_loop_test(tc, test_confusable_refused, 0, 2);
    tcase_add_test(tc, test_protected_and_ascii_pass);
    tcase_add_test(tc, test_chain_into_confusable);
    tcase_add_test(tc, test_mixed_script_logged);
    tcase_add_test(tc, test_lookalike_answer_refused_logged_in_alabels);
    /* Unbound's reload (SIGHUP) with watch-settings: no. */
    if (!harness_engine())
        tcase_add_test(tc, test_lookalike_reload);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(policy_suite)
