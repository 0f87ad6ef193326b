/**
 * \file
 * The module's policy core without Unbound (module/core_policy.c): a wire
 * name and settings in, a verdict and action out; allow/deny precedence;
 * normalization of raw UTF-8 names; fallbacks; EDE texts.
 */
#include "common.h"
#include "core_policy.h"
#include "idng_conf.h"

#include <string.h>

/* Text name (with \DDD escapes) to wire format. */
static size_t wire(const char *text, uint8_t *out)
{
    size_t o = 1, lenpos = 0;
    const char *p = text;

    out[0] = 0;
    for (; *p; p++) {
        if (*p == '.') {
            out[lenpos] = (uint8_t)(o - lenpos - 1);
            lenpos = o++;
            out[lenpos] = 0;
            continue;
        }
        if (*p == '\\') {
            out[o++] = (uint8_t)((p[1] - '0') * 100 + (p[2] - '0') * 10 + (p[3] - '0'));
            p += 3;
            continue;
        }
        out[o++] = (uint8_t)*p;
    }
    if (o - lenpos - 1 > 0) { /* no trailing dot: close the last label */
        out[lenpos] = (uint8_t)(o - lenpos - 1);
        out[o++] = 0;
    }
    return o;
}

static void load(struct idng_conf *c, const char *text)
{
    char err[256];
    idng_conf_init(c);
    ck_assert_msg(idng_conf_parse(c, text, strlen(text), "t.conf", err, sizeof err) == 0, "%s",
                  err);
}

struct row {
    const char *conf;  /* settings after "idnguard:\n" */
    const char *name;
    const char *verdict;
    enum idng_action action;
};

static const struct row rows[] = {
    {"", "www.example.", "ok", IDNG_ACT_PASS},
    {"", "xn--bcher-kva.example.", "ok", IDNG_ACT_PASS},
    {"", "_dmarc.example.", "ok", IDNG_ACT_PASS},
    {"", "r3---sn-abc.example.", "ok", IDNG_ACT_PASS},
    {"", "xn--ab-m1t.example.", "contextj", IDNG_ACT_REFUSE},
    {"", "xn--0000h.example.", "bad-codepoint", IDNG_ACT_REFUSE},
    {"", "b\\195\\188cher.example.", "raw-8bit", IDNG_ACT_NORMALIZE},
    {"", "xn--ls8h.example.", "ok", IDNG_ACT_PASS},
    {"mode: idna2008\n", "xn--ls8h.example.", "disallowed", IDNG_ACT_REFUSE},
    {"on-invalid: nxdomain\n", "xn--ab-m1t.example.", "contextj", IDNG_ACT_NXDOMAIN},
    {"on-invalid: drop\non-contextj: log\n", "xn--ab-m1t.example.", "contextj", IDNG_ACT_LOG},
    {"on-contextj: log\non-invalid: drop\n", "xn--ab-m1t.example.", "contextj", IDNG_ACT_LOG},
    {"on-invalid: drop\non-contextj: log\n", "xn--0000h.example.", "bad-codepoint", IDNG_ACT_DROP},
    {"on-raw-8bit: refuse\n", "b\\195\\188cher.example.", "raw-8bit", IDNG_ACT_REFUSE},
    /* Lists decide before the labels are looked at; the longer match wins. */
    {"allow: xn--ab-m1t.example.\n", "xn--ab-m1t.example.", "allow", IDNG_ACT_PASS},
    {"allow: example.\n", "x.xn--0000h.example.", "allow", IDNG_ACT_PASS},
    {"deny: www.example.\n", "www.example.", "deny", IDNG_ACT_REFUSE},
    {"deny: www.example.\n", "sub.WWW.example.", "deny", IDNG_ACT_REFUSE},
    {"deny: www.example.\n", "www2.example.", "ok", IDNG_ACT_PASS},
    {"deny: example.\non-invalid: nxdomain\n", "www.example.", "deny", IDNG_ACT_NXDOMAIN},
    {"deny: example.\non-invalid: log\n", "www.example.", "deny", IDNG_ACT_REFUSE},
    {"allow: www.example.\ndeny: example.\n", "www.example.", "allow", IDNG_ACT_PASS},
    {"allow: www.example.\ndeny: example.\n", "mail.example.", "deny", IDNG_ACT_REFUSE},
    {"allow: example.\ndeny: bad.example.\n", "x.bad.example.", "deny", IDNG_ACT_REFUSE},
    {"allow: example.\ndeny: bad.example.\n", "good.example.", "allow", IDNG_ACT_PASS},
};

START_TEST(test_judge)
{
    const struct row *r = &rows[_i];
    struct idng_conf c;
    struct idng_verdict v;
    char text[512] = "idnguard:\n";
    uint8_t w[256];
    size_t n;

    strcat(text, r->conf);
    load(&c, text);
    n = wire(r->name, w);
    idng_policy_judge(&c, w, n, &v);
    ck_assert_msg(strcmp(idng_verdict_name(&v), r->verdict) == 0, "%s with [%s]: verdict %s, want %s",
                  r->name, r->conf, idng_verdict_name(&v), r->verdict);
    ck_assert_msg(v.action == r->action, "%s with [%s]: action %s, want %s", r->name, r->conf,
                  idng_action_name(v.action), idng_action_name(r->action));
    idng_conf_free(&c);
}
END_TEST

/* The failing label is located in the wire name, for logs and EDE. */
START_TEST(test_label_location_and_ede)
{
    struct idng_conf c;
    struct idng_verdict v;
    uint8_t w[256];
    char ede[256];
    size_t n = wire("www.xn--ab-m1t.example.", w);

    load(&c, "idnguard:\n");
    idng_policy_judge(&c, w, n, &v);
    ck_assert_ptr_eq(v.name, w);
    ck_assert_uint_eq(v.name_len, n);
    ck_assert_uint_eq(v.label_off, 5);
    ck_assert_uint_eq(v.label_len, 10);
    ck_assert_mem_eq(w + v.label_off, "xn--ab-m1t", 10);
    idng_policy_ede_text(&v, ede, sizeof ede);
    ck_assert_str_eq(ede, "idnguard: contextj: xn--ab-m1t: joiner not allowed here (RFC 5892 A.1, A.2)");
    /* Raw octets in the label are escaped, so the EDE text is ASCII. */
    n = wire("b\\195\\188cher.example.", w);
    load(&c, "idnguard:\non-raw-8bit: refuse\n");
    idng_policy_judge(&c, w, n, &v);
    idng_policy_ede_text(&v, ede, sizeof ede);
    ck_assert_str_eq(ede, "idnguard: raw-8bit: b\\195\\188cher: label holds octets >= 0x80");
    /* A tiny buffer truncates, NUL-terminated. */
    ck_assert_uint_lt(idng_policy_ede_text(&v, ede, 8), 8);
    ck_assert_uint_eq(strlen(ede), 7);
    idng_conf_free(&c);
}
END_TEST

struct norm {
    const char *in, *out;
    idng_status st;
};

static const struct norm norms[] = {
    {"b\\195\\188cher.example.", "xn--bcher-kva.example.", IDNG_OK},
    {"B\\195\\156CHER.Example.", "xn--bcher-kva.example.", IDNG_OK},
    {"_dmarc.b\\195\\188cher.example.", "_dmarc.xn--bcher-kva.example.", IDNG_OK},
    {"\\240\\159\\152\\137.example.", "xn--n28h.example.", IDNG_OK},
    {"\\255\\254.example.", NULL, IDNG_E_BAD_UTF8},
    {"a\\226\\128\\141b.example.", NULL, IDNG_E_CONTEXTJ},       /* ZWJ without virama */
    {"a\\226\\128\\174b.example.", NULL, IDNG_E_DISALLOWED},     /* U+202E */
    {"b\\195\\188cher.xn--ab-m1t.example.", NULL, IDNG_E_CONTEXTJ}, /* a fake A-label too */
    {"a.b\\195\\188.c", NULL, IDNG_OK},
};

START_TEST(test_normalize)
{
    const struct norm *t = &norms[_i];
    struct idng_conf c;
    uint8_t w[256], out[256], want[256];
    size_t n = wire(t->in, w), outlen = sizeof out;
    idng_error e;
    idng_status st;

    load(&c, "idnguard:\n");
    st = idng_policy_normalize(&c, w, n, out, &outlen, &e);
    ck_assert_msg(st == t->st, "%s: %s, want %s", t->in, idng_status_symbol(st),
                  idng_status_symbol(t->st));
    if (st == IDNG_OK && t->out) {
        size_t wn = wire(t->out, want);
        ck_assert_msg(outlen == wn && memcmp(out, want, wn) == 0, "%s: wrong wire output", t->in);
    }
    if (st != IDNG_OK)
        ck_assert_msg(e.label_off + e.label_len <= n, "%s: error outside the name", t->in);
    idng_conf_free(&c);
}
END_TEST

/*
 * A wire label holding a full stop cannot be written as text without
 * becoming two labels: refused, not split.  '.' itself, and the three that
 * ToASCII also takes as separators (found by fuzzing: tests/fuzz, classify F1).
 */
static const struct {
    const char *wire;
    size_t len;
    uint32_t cp;
} stops[] = {
    {"\x05" "a.b\xc3\xbc" "\x07" "example", 14, '.'},
    {"\x0a" "b\xc3\xbc" "\xe3\x80\x82" "cher" "\x07" "example", 19, 0x3002},
    {"\x07" "a\xef\xbc\x8e" "b\xc3\xbc", 8, 0xFF0E},
    {"\x07" "a\xef\xbd\xa1" "b\xc3\xbc", 8, 0xFF61},
};

START_TEST(test_normalize_full_stop_in_label)
{
    struct idng_conf c;
    uint8_t w[64], out[256];
    size_t outlen = sizeof out;
    idng_error e;

    memcpy(w, stops[_i].wire, stops[_i].len);
    w[stops[_i].len] = 0; /* root */
    ck_assert_msg(idng_wire_check(w, stops[_i].len + 1, IDNG_MODE_UTS46, NULL) == IDNG_E_RAW_8BIT,
                  "case %d is not a well-formed raw name", _i);
    load(&c, "idnguard:\n");
    ck_assert_int_eq(idng_policy_normalize(&c, w, stops[_i].len + 1, out, &outlen, &e),
                     IDNG_E_DISALLOWED);
    ck_assert_uint_eq(e.codepoint, stops[_i].cp);
    idng_conf_free(&c);
}
END_TEST

START_TEST(test_fallback)
{
    struct idng_conf c;

    load(&c, "idnguard:\n");
    ck_assert_int_eq(idng_policy_fallback(&c, IDNG_E_BAD_UTF8), IDNG_ACT_REFUSE);
    ck_assert_int_eq(idng_policy_fallback(&c, IDNG_E_RAW_8BIT), IDNG_ACT_REFUSE);
    idng_conf_free(&c);
    load(&c, "idnguard:\non-invalid: nxdomain\non-bad-utf8: drop\n");
    ck_assert_int_eq(idng_policy_fallback(&c, IDNG_E_BAD_UTF8), IDNG_ACT_DROP);
    ck_assert_int_eq(idng_policy_fallback(&c, IDNG_E_CONTEXTJ), IDNG_ACT_NXDOMAIN);
    ck_assert_int_eq(idng_policy_fallback(&c, IDNG_E_RAW_8BIT), IDNG_ACT_NXDOMAIN);
    ck_assert(idng_action_rejects(IDNG_ACT_DROP));
    ck_assert(!idng_action_rejects(IDNG_ACT_LOG));
    ck_assert(!idng_action_rejects(IDNG_ACT_NORMALIZE));
    idng_conf_free(&c);
}
END_TEST

static Suite *policy_suite(void)
{
    Suite *s = suite_create("policy");
    TCase *tc = tcase_create("core");

    tcase_add_loop_test(tc, test_judge, 0, (int)(sizeof rows / sizeof rows[0]));
    tcase_add_test(tc, test_label_location_and_ede);
    tcase_add_loop_test(tc, test_normalize, 0, (int)(sizeof norms / sizeof norms[0]));
    tcase_add_loop_test(tc, test_normalize_full_stop_in_label, 0,
                        (int)(sizeof stops / sizeof stops[0]));
    tcase_add_test(tc, test_fallback);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(policy_suite)
