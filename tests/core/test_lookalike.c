/**
 * \file
 * Rule 6 (UTS #39 lookalikes) from an attacker's side: the findings of a
 * review, each a regression test (finding_*, fixed), and what was tried
 * and held (held_*).
 */
#include "common.h"
#include "idng_conf.h"
#include "idng_log.h"
#include "idng_policy.h"
#include "idng_scan.h"

#include <stdio.h>
#include <string.h>


static void load(struct idng_conf *c, const char *text)
{
    char err[512];

    idng_conf_init(c);
    ck_assert_msg(idng_conf_parse(c, text, strlen(text), "t.conf", err, sizeof err) == 0, "%s",
                  err);
}

/* U+3316 SQUARE KIROMEETORU (3 octets) maps to 6 code points under UTS #46;
 * 8 of them make a raw label of 24 octets that converts to a 48-code-point
 * A-label.  Six such labels: 150 wire octets, 288 code points. */
#define KIRO "\\227\\140\\150"
#define KIRO8 KIRO KIRO KIRO KIRO KIRO KIRO KIRO KIRO
#define SIX_RAW KIRO8 "." KIRO8 "." KIRO8 "." KIRO8 "." KIRO8 "." KIRO8 "."

/*
 * Finding 0 (the most severe; default settings): a protected name whose
 * ASCII label holds a digit or a hyphen is never matched by a lookalike of
 * that label.  idng_lookalike_label keys a label that is not judged (every
 * ASCII label, and so every ASCII label of a protected name) with
 *     own[k] = lab[k] - 'A' < 26 ? lab[k] + ('a' - 'A') : lab[k];
 * where lab[k] is a uint8_t promoted to int: for octets below 'A' the
 * difference is negative, so '-' becomes 'M' and '0'..'9' become 'P'..'Y'.
 * A judged (xn-- or raw) label is lowercased correctly (uint32_t), so its
 * key holds the real '-' and digits and cannot equal the protected one.
 */
static const struct {
    const char *protect, *name;
} digits[] = {
    {"t-mobile.example", "xn--t-mbile-cjg.example."},      /* t-m<U+043E>bile */
    {"t-mobile.example", "t-m\\208\\190bile.example."},  /* the same, raw UTF-8 */
    {"bank24.example", "xn--bnk24-4ve.example."},          /* b<U+0430>nk24 */
    {"my-bank.example", "xn--my-bnk-6nf.example."},        /* my-b<U+0430>nk */
    {"my-bank.example", "login.xn--my-bnk-6nf.example."},  /* below it */
};

START_TEST(finding_digit_or_hyphen_in_protected_label)
{
    struct idng_conf c;
    struct idng_verdict v;
    uint8_t w[300];
    size_t n = t_wire(digits[_i].name, w);
    char conf[256];

    snprintf(conf, sizeof conf, "idnguard:\nprotect: %s\n", digits[_i].protect);
    load(&c, conf);
    idng_policy_judge(&c.policy, w, n, &v);
    ck_assert_msg(strcmp(idng_verdict_name(&v), "confusable") == 0 && v.action == IDNG_ACT_REFUSE,
                  "protect %s: %s judged %s/%s lookalike=%u", digits[_i].protect, digits[_i].name,
                  idng_verdict_name(&v), idng_action_name(v.action), v.lookalike);
    idng_conf_free(&c);
}
END_TEST

/*
 * Finding 1: raw labels whose code points (after UTS #46 mapping) outnumber
 * 255 make idng_lookalike_label give up keying for the whole name
 * (r->keys = 0, "cannot be"), so the confusable check is silently skipped,
 * also for the xn-- lookalike further right.  Their A-label form is over
 * 255 octets, so rule 5 cannot judge it either.  With on-raw-8bit: log (or
 * pass) the name is answered: the resolver asks the lookalike's zone.
 */
START_TEST(finding_expanding_raw_labels_hide_confusable)
{
    static const char *const confs[] = {
        "idnguard:\nprotect: paypal.example\non-raw-8bit: log\n",
        "idnguard:\nprotect: paypal.example\non-raw-8bit: pass\n",
        "idnguard:\nprotect: paypal.example\non-too-long: log\n",
        "idnguard:\nprotect: paypal.example\n",
    };
    struct idng_conf c;
    struct idng_verdict v, d;
    uint8_t w[300];
    size_t n = t_wire(SIX_RAW "xn--pypal-4ve.example.", w);

    ck_assert_uint_le(n, 255);
    load(&c, confs[_i]);
    idng_policy_judge(&c.policy, w, n, &v);
    idng_policy_judge_data(&c.policy, w, n, &d);
    /* What was found is reported whatever the actions... */
    ck_assert_msg(v.lookalike & IDNG_LK_CONFUSABLE,
                  "conf %d: query verdict %s/%s misses confusable (lookalike=%u)", _i,
                  idng_verdict_name(&v), idng_action_name(v.action), v.lookalike);
    /* ...and on-confusable's refuse wins over log, pass and normalize. */
    ck_assert_msg(idng_action_rejects(v.action), "conf %d: query %s/%s is answered", _i,
                  idng_verdict_name(&v), idng_action_name(v.action));
    ck_assert_msg(idng_action_rejects(d.action) && (d.lookalike & IDNG_LK_CONFUSABLE),
                  "conf %d: answer-path %s/%s lookalike=%u", _i, idng_verdict_name(&d),
                  idng_action_name(d.action), d.lookalike);
    idng_conf_free(&c);
}
END_TEST

/* The same name with five raw labels (240 code points) is caught: the
 * threshold, not the raw labels, is what hides it. */
START_TEST(held_fewer_expanding_labels_caught)
{
    struct idng_conf c;
    struct idng_verdict v;
    uint8_t w[300];
    size_t n = t_wire(KIRO8 "." KIRO8 "." KIRO8 "." KIRO8 "." KIRO8 ".xn--pypal-4ve.example.", w);

    load(&c, "idnguard:\nprotect: paypal.example\non-raw-8bit: log\n");
    idng_policy_judge(&c.policy, w, n, &v);
    ck_assert_str_eq(idng_verdict_name(&v), "confusable");
    ck_assert_int_eq(v.action, IDNG_ACT_REFUSE);
    idng_conf_free(&c);
}
END_TEST

/*
 * Finding 3: the raw UTF-8 spelling of a protected IDN is "confusable with"
 * that very name (the "is it a protected name itself" test compares the
 * raw wire octets with the A-label names), so it is refused with "looks
 * like xn--bcher-kva.example." instead of being normalized, while the raw
 * spelling of any unprotected IDN is normalized.
 */
START_TEST(finding_raw_spelling_of_protected_idn)
{
    struct idng_conf c;
    struct idng_verdict v;
    uint8_t w[300];
    size_t n = t_wire("b\\195\\188cher.example.", w);

    load(&c, "idnguard:\nprotect: xn--bcher-kva.example\n");
    idng_policy_judge(&c.policy, w, n, &v);
    ck_assert_msg(!(v.lookalike & IDNG_LK_CONFUSABLE) && v.action == IDNG_ACT_NORMALIZE,
                  "raw bücher.example judged %s/%s lookalike=%u", idng_verdict_name(&v),
                  idng_action_name(v.action), v.lookalike);
    idng_conf_free(&c);
}
END_TEST

/*
 * Finding 2: the module's handle_moddone (and python/idnguard.py's
 * _moddone) answer a rejected response with the response scan's worst
 * verdict, and log it against the client's qname: the verdict's lookalike
 * bits are those of the rejected name (here a CNAME target), not of the
 * qname.  A qname that is a lookalike (on-confusable: log here; the same
 * with the default on-mixed-script: log) is then shown in Unicode.  This
 * is what module/unbound.c does, step by step, without Unbound.
 */
START_TEST(finding_log_unicode_after_response_reject)
{
    static const char *const confs[] = {
        "idnguard:\nprotect: paypal.example\non-confusable: log\ndeny: evil.test\n",
        "idnguard:\ndeny: evil.test\n", /* xn--pypal-4ve is mixed-script: log by default */
        "idnguard:\n", /* all defaults; the target below is the attacker's own */
    };
    static const char *const targets[] = {"www.evil.test.", "www.evil.test.", "xn--a-.evil.test."};
    struct idng_conf c;
    struct idng_verdict qv, v;
    struct idng_scan s;
    struct idng_logrec r;
    uint8_t q[300], t[300];
    size_t qn = t_wire("xn--pypal-4ve.example.", q);
    size_t tn = t_wire(targets[_i], t); /* any rejected target that is no lookalike */
    char line[IDNG_LOG_LINE_MAX];
    size_t len;

    load(&c, confs[_i]);
    /* handle_new: the query passes (log). */
    idng_policy_judge(&c.policy, q, qn, &qv);
    ck_assert(!idng_action_rejects(qv.action));
    ck_assert_uint_ne(qv.lookalike, 0);
    /* handle_moddone: scan_response(..., IDNG_STRIP_EXTRA) over
     * "xn--pypal-4ve.example. CNAME www.evil.test." */
    idng_scan_init(&s);
    idng_scan_owner(&c.policy, &s, IDNG_SEC_ANSWER, 5, q, qn, IDNG_STRIP_EXTRA);
    idng_scan_target(&c.policy, &s, t, tn, IDNG_STRIP_EXTRA);
    ck_assert_int_eq(idng_scan_result(&s, &v), IDNG_SCAN_REJECT);
    /* idng_verdict_for_client(&v, &q->v); q->v = v; reject(); the log line:
     * idng_log_query(qinfo = the qname, v). */
    idng_verdict_for_client(&v, &qv);
    memset(&r, 0, sizeof r);
    r.qname = q;
    r.qname_len = qn;
    r.qtype = 1;
    r.qclass = 1;
    r.rcode = 5;
    r.ede = -1;
    idng_logrec_verdict(&r, &v, c.policy.mode);
    len = idng_log_format(&r, IDNG_LOGFMT_TEXT, 0, line, sizeof line);
    line[len < sizeof line ? len : sizeof line - 1] = '\0';
    /* U+0430 CYRILLIC SMALL LETTER A is D0 B0 in UTF-8. */
    ck_assert_msg(strstr(line, "p\xd0\xb0ypal") == NULL,
                  "the lookalike qname is shown in Unicode: %s", line);
    idng_conf_free(&c);
}
END_TEST

/*
 * Finding 4: once the mixed-script rule set emoji aside, an emoji added
 * to a lookalike made it pass silently: the keys matched with the
 * protected names were made with the emoji in, so раураӏ🍎 keyed as
 * paypal🍎, no protected name's key, and nothing else flagged it.  Each
 * row must be refused, and the EDE text name the protected name; the raw
 * UTF-8 spelling, an emoji sequence (a skin tone, a flag's regional
 * indicators) and the emoji anywhere in the label change nothing.
 */
static const struct {
    const char *conf, *name, *like;
} emoji_hides[] = {
    {"protect: paypal.ru\nprotect-suffixes: any\n", "xn--80aa0cbo65fh234w.ru.", "paypal.ru."},
    {"protect: paypal.com\nprotect-suffixes: any\n", "xn--80aa0cbo65fh234w.co.uk.", "paypal.com."},
    {"protect: paypal.com\n", "login.xn--80aa0cbo65fh234w.com.", "paypal.com."},
    {"protect: paypal.com\n",
     "\\209\\128\\208\\176\\209\\131\\209\\128\\208\\176\\211\\143\\240\\159\\141\\142.com.",
     "paypal.com."},
    {"protect: paypal.com\n", "xn--80aa0cbo65fh764wjsa.com.", "paypal.com."},
    {"protect: paypal.com\n", "xn--80aa0cbo65f2063wia.com.", "paypal.com."},
    {"protect: google.com\n", "xn--google-hj64e.com.", "google.com."},
    {"protect: paypal.com\nprotect-embedded: yes\non-embeds-protected: refuse\n",
     "xn---login-2nfa6lb6a64mm9074a.com.", "paypal.com."},
};

START_TEST(finding_emoji_hides_lookalike)
{
    struct idng_conf c;
    struct idng_verdict v;
    uint8_t w[300];
    size_t n = t_wire(emoji_hides[_i].name, w);
    char conf[256], ede[512], want[128];

    snprintf(conf, sizeof conf, "idnguard:\n%s", emoji_hides[_i].conf);
    load(&c, conf);
    idng_policy_judge(&c.policy, w, n, &v);
    idng_policy_ede_text(&v, ede, sizeof ede);
    snprintf(want, sizeof want, ": looks like %s", emoji_hides[_i].like);
    ck_assert_msg(idng_action_rejects(v.action) && strstr(ede, want) != NULL,
                  "%s with %s: %s/%s lookalike=%u, EDE '%s'", emoji_hides[_i].name,
                  emoji_hides[_i].conf, idng_verdict_name(&v), idng_action_name(v.action),
                  v.lookalike, ede);
    idng_conf_free(&c);
}
END_TEST

/*
 * Finding 5: the emoji of the Enclosed Alphanumeric Supplement are
 * letters in a box (U+1F170 🅰, U+1F17F 🅿, a regional indicator on its
 * own), yet they were set aside as pictographs: p🅰ypal was judged as
 * pypal, one script, so a letter swapped for its boxed form passed even
 * with on-mixed-script: refuse.  Each row is mixed-script (UTS #39 calls
 * the label unrestricted); two regional indicators in a row are a flag,
 * still set aside (the last row: ok).
 */
static const struct {
    const char *name, *verdict;
} boxed[] = {
    {"xn--pypal-rd73d.com.", "mixed-script"},     /* p🅰ypal */
    {"xn--aypal-bg73d.com.", "mixed-script"},     /* 🅿aypal */
    {"xn--pypal-zx73d.com.", "mixed-script"},     /* p, regional indicator A, ypal */
    {"xn--pypal-zx73daa.com.", "mixed-script"}, /* p, RI A, RI A, RI A, ypal: one left over */
    {"xn--de-x352aea.la.", "ok"},                 /* de🇩🇪 */
};

START_TEST(finding_boxed_letter_set_aside)
{
    struct idng_conf c;
    struct idng_verdict v;
    uint8_t w[300];
    size_t n = t_wire(boxed[_i].name, w);

    load(&c, "idnguard:\n    protect: paypal.com\n    on-mixed-script: refuse\n");
    idng_policy_judge(&c.policy, w, n, &v);
    ck_assert_msg(strcmp(idng_verdict_name(&v), boxed[_i].verdict) == 0, "%s: %s/%s (want %s)",
                  boxed[_i].name, idng_verdict_name(&v), idng_action_name(v.action),
                  boxed[_i].verdict);
    idng_conf_free(&c);
}
END_TEST

/*
 * Emoji are set aside by the mixed-script rule (core/lookalike.c), so
 * with the default settings an emoji name holds no lookalike class, and
 * its log line shows its Unicode form (a lookalike's never does).  The
 * pieces of emoji sequences that could hide text are no valid label's:
 * U+200D (ZWJ sequences: CONTEXTJ), U+FE0F (ignored: an A-label holding
 * it is not what its Unicode form converts to) and the tags (disallowed); such a name gets no Unicode form, and its
 * line holds none of their octets.  The UTS #39 level the scan reports
 * stays the label's own: unrestricted.
 */
static const struct {
    const char *name, *verdict;
    const char *unicode; /* the line's Unicode form, or NULL for none */
    const char *never;   /* octets the line must not hold, or NULL */
} emoji_lines[] = {
    {"xn--ls8h.la.", "ok", "(\xf0\x9f\x92\xa9.la.)", NULL},              /* 💩 */
    {"xn--i-7iq.ws.", "ok", "(i\xe2\x9d\xa4.ws.)", NULL},                 /* i❤ */
    {"xn--de-x352aea.la.", "ok", "(de\xf0\x9f\x87\xa9\xf0\x9f\x87\xaa.la.)", NULL},
    {"xn--i-302s3g.la.", "ok", "(i\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd.la.)", NULL},
    {"xn--1-2sn.la.", "ok", "(1\xe2\x83\xa3.la.)", NULL},                 /* 1 keycap */
    {"xn--1uga80807abag.la.", "contextj", NULL, "\xe2\x80\x8d"},          /* 👨 ZWJ 👩 ZWJ 👧 */
    {"xn--fn8h24640cjagc5b3h.la.", "disallowed", NULL, "\xf3\xa0"},        /* 🏴 + tags */
    {"xn--i-7iqv272g.la.", "not-canonical", NULL, "\xef\xb8\x8f"},        /* i❤ VS16 */
    {"xn--pypal-4ve79700g.com.", "mixed-script", NULL, "p\xd0\xb0ypal"},   /* pаypal💩 */
};

START_TEST(emoji_log_line)
{
    struct idng_conf c;
    struct idng_verdict v;
    struct idng_lookalike f;
    struct idng_logrec r;
    uint8_t w[300];
    size_t n = t_wire(emoji_lines[_i].name, w), len;
    char line[IDNG_LOG_LINE_MAX];
    int fmt;

    load(&c, "idnguard:\n");
    idng_policy_judge(&c.policy, w, n, &v);
    ck_assert_msg(strcmp(idng_verdict_name(&v), emoji_lines[_i].verdict) == 0, "%s: %s (want %s)",
                  emoji_lines[_i].name, idng_verdict_name(&v), emoji_lines[_i].verdict);
    if (emoji_lines[_i].unicode != NULL) {
        ck_assert_uint_eq(v.lookalike, 0);
        ck_assert(idng_lookalike_scan(&c.policy.protect, c.policy.restriction_level,
                                      c.policy.mode, w, n, &f));
        ck_assert_uint_eq(f.found, 0);
        ck_assert_int_eq(f.level, IDNG_RL_UNRESTRICTED);
    }
    for (fmt = 0; fmt < 2; fmt++) {
        memset(&r, 0, sizeof r);
        r.qname = w;
        r.qname_len = n;
        r.qtype = 1;
        r.qclass = 1;
        r.ede = -1;
        idng_logrec_verdict(&r, &v, c.policy.mode);
        len = idng_log_format(&r, fmt ? IDNG_LOGFMT_JSON : IDNG_LOGFMT_TEXT, 0, line,
                              sizeof line);
        line[len < sizeof line ? len : sizeof line - 1] = '\0';
        if (emoji_lines[_i].unicode != NULL && !fmt)
            ck_assert_msg(strstr(line, emoji_lines[_i].unicode) != NULL, "%s: no Unicode form: %s",
                          emoji_lines[_i].name, line);
        if (emoji_lines[_i].unicode == NULL)
            ck_assert_msg(fmt ? strstr(line, "\"qname_unicode\":null") != NULL
                              : strstr(line, " (") == NULL,
                          "%s: a Unicode form: %s", emoji_lines[_i].name, line);
        if (emoji_lines[_i].unicode != NULL && fmt)
            ck_assert_msg(strstr(line, "\"qname_unicode\":null") == NULL,
                          "%s: no Unicode form: %s", emoji_lines[_i].name, line);
        if (emoji_lines[_i].never != NULL)
            ck_assert_msg(strstr(line, emoji_lines[_i].never) == NULL, "%s: hostile octets: %s",
                          emoji_lines[_i].name, line);
    }
    idng_conf_free(&c);
}
END_TEST

/* What was tried and held. */
struct held {
    const char *conf;
    const char *name;
    const char *verdict;
};

static const struct held helds[] = {
    /* case tricks, trailing dot, the protected name's own spelling */
    {"protect: paypal.example\n", "XN--PYPAL-4VE.EXAMPLE.", "confusable"},
    {"protect: paypal.example\n", "Xn--pYpAl-4Ve.eXaMpLe.", "confusable"},
    {"protect: PAYPAL.Example.\n", "xn--pypal-4ve.example.", "confusable"},
    {"protect: xn--bcher-kva.example\n", "XN--BCHER-KVA.EXAMPLE.", "ok"},
    /* raw UTF-8 spellings, and raw + xn-- mixed */
    {"protect: paypal.example\n", "p\\208\\176ypal.example.", "confusable"},
    {"protect: paypal.example\n", "p\\208\\176ypal.ex\\208\\176mple.", "confusable"},
    {"protect: paypal.example\n", "xn--pypal-4ve.ex\\208\\176mple.", "confusable"},
    /* U+217C maps to 'l': the raw name is paypal.example itself */
    {"protect: paypal.example\n", "paypa\\226\\133\\188.example.", "raw-8bit"},
    /* lookalike TLD, lookalike in the parent, extra labels below */
    {"protect: paypal.com\n", "paypal.xn--cm-fmc.", "confusable"},
    {"protect: paypal.com\n", "a.b.c.login.xn--pypal-4ve.com.", "confusable"},
    {"protect: paypal.com\n", "xn--pypal-4ve.xn--cm-fmc.", "confusable"},
    /* labels inserted in the middle are another name: not its lookalike */
    {"protect: paypal.com\n", "xn--pypal-4ve.evil.com.", "mixed-script"},
    /* two protected names with one skeleton: each is itself */
    {"protect: paypal.example\nprotect: xn--pypal-4ve.example\n", "xn--pypal-4ve.example.",
     "mixed-script"},
    /* a relaxed class in front hides nothing */
    {"protect: paypal.example\non-hyphen: pass\n", "xn--a--bja.xn--pypal-4ve.example.",
     "confusable"},
    {"protect: paypal.example\non-invalid: pass\n", "xn--a.xn--pypal-4ve.example.",
     "confusable"},
    /* the allow list decides first (by design): an allowed parent passes its lookalikes */
    {"protect: paypal.example\nallow: example\n", "xn--pypal-4ve.example.", "allow"},
    {"protect: paypal.example\nallow: paypal.example\n", "xn--pypal-4ve.example.", "confusable"},
    /* an ASCII name is never judged, even one that looks like a protected IDN */
    {"protect: xn--pple-43d.com\n", "apple.com.", "ok"},
    /* ASCII-only decode (an error of its own) still looks like it */
    {"protect: paypal.example\non-ascii-only: pass\n", "xn--paypal-.example.", "confusable"},
};

START_TEST(held_rows)
{
    const struct held *h = &helds[_i];
    char conf[512];
    struct idng_conf c;
    struct idng_verdict v;
    uint8_t w[300];
    size_t n = t_wire(h->name, w);

    snprintf(conf, sizeof conf, "idnguard:\n%s", h->conf);
    load(&c, conf);
    idng_policy_judge(&c.policy, w, n, &v);
    ck_assert_msg(strcmp(idng_verdict_name(&v), h->verdict) == 0, "%s with %s: %s (want %s)",
                  h->name, h->conf, idng_verdict_name(&v), h->verdict);
    idng_conf_free(&c);
}
END_TEST

/* 127 labels / 255 octets with the lookalike last: no overflow, caught. */
START_TEST(held_longest_names)
{
    struct idng_conf c;
    struct idng_verdict v;
    char text[600];
    uint8_t w[300];
    size_t n, o = 0;
    int i;

    /* 1 + 2*k + 14 + 8 + 1 octets: k = 115 fills 255 */
    for (i = 0; i < 115; i++)
        o += (size_t)snprintf(text + o, sizeof text - o, "a.");
    snprintf(text + o, sizeof text - o, "xn--pypal-4ve.example.");
    n = t_wire(text, w);
    ck_assert_uint_le(n, 255);
    load(&c, "idnguard:\nprotect: paypal.example\n");
    idng_policy_judge(&c.policy, w, n, &v);
    ck_assert_str_eq(idng_verdict_name(&v), "confusable");
    idng_conf_free(&c);
}
END_TEST


/* A CNAME or DNAME target that looks like a protected name rejects the
 * response, on the way to the cache and to the client; the EDE text names
 * the protected name in A-labels only. */
START_TEST(held_answer_targets)
{
    static const uint16_t types[] = {5, 39};
    struct idng_conf c;
    struct idng_verdict v;
    struct idng_scan s;
    uint8_t o[300], t[300];
    size_t on = t_wire("www.example.org.", o), tn = t_wire("login.xn--pypal-4ve.example.", t);
    char ede[512];

    load(&c, "idnguard:\nprotect: paypal.example\n");
    idng_scan_init(&s);
    idng_scan_owner(&c.policy, &s, IDNG_SEC_ANSWER, types[_i], o, on, IDNG_STRIP_NONE);
    idng_scan_target(&c.policy, &s, t, tn, IDNG_STRIP_NONE);
    ck_assert_int_eq(idng_scan_result(&s, &v), IDNG_SCAN_REJECT);
    ck_assert_str_eq(idng_verdict_name(&v), "confusable");
    idng_policy_ede_text(&v, ede, sizeof ede);
    ck_assert_msg(strstr(ede, "looks like paypal.example.") != NULL, "%s", ede);
    ck_assert_msg(strstr(ede, "\xd0") == NULL, "%s", ede);
    idng_conf_free(&c);
}
END_TEST

static Suite *lookalike_suite(void)
{
    Suite *s = suite_create("lookalike");
    TCase *tc = tcase_create("core");

    tcase_add_loop_test(tc, finding_digit_or_hyphen_in_protected_label, 0,
                        (int)(sizeof digits / sizeof digits[0]));
    tcase_add_loop_test(tc, finding_expanding_raw_labels_hide_confusable, 0, 4);
    tcase_add_test(tc, held_fewer_expanding_labels_caught);
    tcase_add_test(tc, finding_raw_spelling_of_protected_idn);
    tcase_add_loop_test(tc, finding_log_unicode_after_response_reject, 0, 3);
    tcase_add_loop_test(tc, finding_emoji_hides_lookalike, 0,
                        (int)(sizeof emoji_hides / sizeof emoji_hides[0]));
    tcase_add_loop_test(tc, finding_boxed_letter_set_aside, 0,
                        (int)(sizeof boxed / sizeof boxed[0]));
    tcase_add_loop_test(tc, emoji_log_line, 0, (int)(sizeof emoji_lines / sizeof emoji_lines[0]));
    tcase_add_loop_test(tc, held_rows, 0, (int)(sizeof helds / sizeof helds[0]));
    tcase_add_test(tc, held_longest_names);
    tcase_add_loop_test(tc, held_answer_targets, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(lookalike_suite)
