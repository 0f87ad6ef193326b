/**
 * \file
 * The module's policy core without Unbound (core/policy.c), its rules
 * (test_policy.c has the judging of names): normalization of raw UTF-8
 * names, full stops inside labels, fallbacks, data answers judged, the
 * documented defaults and per-class rules, and a property over random
 * mixes of good, fake, raw and relaxed labels under random settings (the
 * name's action is the most severe of its labels').
 */
#include "common.h"
#include "idng_policy.h"
#include "idng_scan.h"
#include "idng_conf.h"
#include "policy_check.h"

#include <string.h>

struct norm {
    const char *in, *out;
    idng_status st;
};

static const struct norm norms[] = {
    {"b\\195\\188cher.example.", "xn--bcher-kva.example.", IDNG_OK},
    {"B\\195\\156CHER.Example.", "xn--bcher-kva.example.", IDNG_OK},
    {"_dmarc.b\\195\\188cher.example.", "_dmarc.xn--bcher-kva.example.", IDNG_OK},
    {"\\240\\159\\152\\137.example.", "xn--n28h.example.", IDNG_OK},
    /* Raw labels that cannot be converted are kept as they are: the judge
     * gave each an action of its own (test_judge), and the result is
     * judged again. */
    {"\\255\\254.example.", "\\255\\254.example.", IDNG_OK},
    {"a\\226\\128\\141b.b\\195\\188.example.", "a\\226\\128\\141b.xn--b-eha.example.", IDNG_OK},
    {"a\\226\\128\\174b.example.", "a\\226\\128\\174b.example.", IDNG_OK},
    /* Only raw labels are converted; the fake label is the judge's business
     * (see the rows of test_judge), and the A-label name is judged again. */
    {"b\\195\\188cher.xn--ab-m1t.example.", "xn--bcher-kva.xn--ab-m1t.example.", IDNG_OK},
    {"\\200.xn--ab-m1t.example.", "\\200.xn--ab-m1t.example.", IDNG_OK},
    {"a.b\\195\\188.c", NULL, IDNG_OK},
};

START_TEST(test_normalize)
{
    const struct norm *t = &norms[_i];
    struct idng_conf c;
    uint8_t w[256], out[256], want[256];
    size_t n = t_wire(t->in, w), outlen = sizeof out;
    idng_error e;
    idng_status st;

    load(&c, "idnguard:\n");
    st = idng_policy_normalize(&c.policy, w, n, out, &outlen, &e);
    ck_assert_msg(st == t->st, "%s: %s, want %s", t->in, idng_status_symbol(st),
                  idng_status_symbol(t->st));
    if (st == IDNG_OK && t->out) {
        size_t wn = t_wire(t->out, want);
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
    {"\x05"
     "a.b\xc3\xbc"
     "\x07"
     "example",
     14, '.'},
    {"\x0a"
     "b\xc3\xbc"
     "\xe3\x80\x82"
     "cher"
     "\x07"
     "example",
     19, 0x3002},
    {"\x07"
     "a\xef\xbc\x8e"
     "b\xc3\xbc",
     8, 0xFF0E},
    {"\x07"
     "a\xef\xbd\xa1"
     "b\xc3\xbc",
     8, 0xFF61},
};

START_TEST(test_normalize_full_stop_in_label)
{
    struct idng_conf c;
    struct idng_verdict v;
    uint8_t w[64], out[256];
    size_t outlen = sizeof out, n = stops[_i].len + 1;

    memcpy(w, stops[_i].wire, stops[_i].len);
    w[stops[_i].len] = 0; /* root */
    ck_assert_msg(idng_wire_check(w, n, IDNG_MODE_UTS46, NULL) == IDNG_E_RAW_8BIT,
                  "case %d is not a well-formed raw name", _i);
    load(&c, "idnguard:\n");
    idng_policy_judge(&c.policy, w, n, &v);
    ck_assert_int_eq(v.err.status, IDNG_E_DISALLOWED);
    ck_assert_uint_eq(v.err.codepoint, stops[_i].cp);
    ck_assert_int_eq(v.action, IDNG_ACT_REFUSE);
    /* Normalizing keeps the label whole: never two labels of one. */
    ck_assert_int_eq(idng_policy_normalize(&c.policy, w, n, out, &outlen, NULL), IDNG_OK);
    ck_assert_uint_eq(outlen, n);
    ck_assert_mem_eq(out, w, n);
    idng_conf_free(&c);
}
END_TEST

START_TEST(test_fallback)
{
    struct idng_conf c;

    load(&c, "idnguard:\n");
    ck_assert_int_eq(idng_policy_fallback(&c.policy, IDNG_E_BAD_UTF8), IDNG_ACT_REFUSE);
    ck_assert_int_eq(idng_policy_fallback(&c.policy, IDNG_E_RAW_8BIT), IDNG_ACT_REFUSE);
    idng_conf_free(&c);
    load(&c, "idnguard:\non-invalid: nxdomain\non-bad-utf8: drop\n");
    ck_assert_int_eq(idng_policy_fallback(&c.policy, IDNG_E_BAD_UTF8), IDNG_ACT_DROP);
    ck_assert_int_eq(idng_policy_fallback(&c.policy, IDNG_E_CONTEXTJ), IDNG_ACT_NXDOMAIN);
    ck_assert_int_eq(idng_policy_fallback(&c.policy, IDNG_E_RAW_8BIT), IDNG_ACT_NXDOMAIN);
    ck_assert(idng_action_rejects(IDNG_ACT_DROP));
    ck_assert(!idng_action_rejects(IDNG_ACT_LOG));
    ck_assert(!idng_action_rejects(IDNG_ACT_NORMALIZE));
    idng_conf_free(&c);
}
END_TEST

/*
 * The most-severe-action rule as a property.  Names are built from labels
 * of every kind (plain, valid and fake A-labels of several classes, raw
 * UTF-8 good and bad, relaxed classes) in random orders, under random
 * settings: the name's action must be the most severe of the actions its
 * labels get on their own, and the verdict must name the first label with
 * that action.  No label here is right-to-left, so the bidi rule (the one
 * rule that looks across labels) cannot change a label's own verdict.
 */
static const char *const pool[] = {
    "www",
    "_dmarc",
    "r3---sn-abc",
    "xn--bcher-kva",
    "xn--ls8h",      /* emoji: mode-dependent */
    "xn--ab-m1t",    /* contextj */
    "xn--0000h",     /* bad-codepoint */
    "xn--bc-kw3n",   /* not-canonical (fullwidth) */
    "xn--ab--c-kra", /* hyphen */
    "xn--ssa",       /* leading-mark */
    "xn--example-",  /* ascii-only */
    "xn--ab-0ea",    /* contexto */
    "\xc3\xbc",      /* raw, converts */
    "\x80",          /* raw, bad UTF-8 */
    "a\xe2\x80\xae"
    "b", /* raw U+202E: disallowed */
    "a\xe2\x80\x8d"
    "b",             /* raw stray ZWJ: contextj */
    "a.b\xc3\xbc",   /* raw full stop: disallowed */
    "xn--pypal-4ve", /* mixed-script (Cyrillic a) */
    "p\xd0\xb0ypal", /* raw, mixed-script */
};
#define POOL_N (sizeof pool / sizeof pool[0])
static const char *const acts[] = {"pass", "log", "refuse", "nxdomain", "drop"};

static unsigned prop_rand(unsigned *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

/* name = labels idx[0..n) then "example." */
static size_t prop_name(const size_t *idx, size_t n, uint8_t *w)
{
    size_t o = 0, i;
    for (i = 0; i < n; i++) {
        size_t l = strlen(pool[idx[i]]);
        w[o++] = (uint8_t)l;
        memcpy(w + o, pool[idx[i]], l);
        o += l;
    }
    memcpy(w + o, "\007example\000", 9);
    return o + 9;
}

START_TEST(test_most_severe_property)
{
    static const char *const classes[] = {
        "bad-punycode", "bad-codepoint", "ascii-only",   "not-canonical", "disallowed",  "contextj",
        "contexto",     "hyphen",        "leading-mark", "bad-utf8",      "empty-label", "too-long",
        "bidi",         "mixed-script",  "mixed-number", "confusable",    "idn"};
    static const char *const modes[] = {"punycode", "idna2008", "uts46"};
    unsigned x = 0x9e3779b9u ^ (unsigned)_i;
    int round;

    for (round = 0; round < 400; round++) {
        struct idng_conf c;
        struct idng_verdict v, one;
        char text[2048];
        size_t idx[6], n = 1 + prop_rand(&x) % 5, i, len, k;
        uint8_t w[256], lw[80];
        int worst = -1, first = -1;

        k = (size_t)snprintf(text, sizeof text, "idnguard:\nmode: %s\non-invalid: %s\n",
                             modes[prop_rand(&x) % 3], acts[2 + prop_rand(&x) % 3]);
        for (i = 0; i < sizeof classes / sizeof classes[0]; i++)
            if (prop_rand(&x) % 3 == 0)
                k += (size_t)snprintf(text + k, sizeof text - k, "on-%s: %s\n", classes[i],
                                      acts[prop_rand(&x) % 5]);
        k += (size_t)snprintf(text + k, sizeof text - k, "on-raw-8bit: %s\n",
                              prop_rand(&x) % 2 ? "normalize" : acts[prop_rand(&x) % 5]);
        if (prop_rand(&x) % 2)
            k += (size_t)snprintf(text + k, sizeof text - k, "idn-scripts: latin\n");
        load(&c, text);
        for (i = 0; i < n; i++)
            idx[i] = prop_rand(&x) % POOL_N;
        len = prop_name(idx, n, w);
        idng_policy_judge(&c.policy, w, len, &v);
        for (i = 0; i < n; i++) {
            int sev;
            prop_name(&idx[i], 1, lw);
            idng_policy_judge(&c.policy, lw, 1 + strlen(pool[idx[i]]) + 9, &one);
            sev = idng_status_class(one.err.status) == IDNG_C_OK ? -1
                                                                 : idng_action_severity(one.action);
            if (sev > worst) {
                worst = sev;
                first = (int)i;
            }
        }
        if (worst < 0) {
            ck_assert_msg(idng_status_class(v.err.status) == IDNG_C_OK && v.action == IDNG_ACT_PASS,
                          "round %d: all labels ok, name %s/%s\n%s", round, idng_verdict_name(&v),
                          idng_action_name(v.action), text);
        } else {
            const char *want = pool[idx[first]];
            ck_assert_msg(idng_action_severity(v.action) == worst,
                          "round %d: name action %s, most severe label action has severity %d\n%s",
                          round, idng_action_name(v.action), worst, text);
            ck_assert_msg(
                v.err.label_len == strlen(want) && memcmp(v.label, want, v.err.label_len) == 0,
                "round %d: verdict names label %.*s, want %s (the first most severe) %s %s", round,
                (int)v.err.label_len, (const char *)v.label, want, idng_verdict_name(&v), text);
        }
        /* The answer path never normalizes, and rejects whatever the query
         * path rejects. */
        idng_policy_judge_data(&c.policy, w, len, &one);
        ck_assert_msg(one.action != IDNG_ACT_NORMALIZE, "round %d: judge_data normalizes", round);
        if (idng_action_rejects(v.action))
            ck_assert_msg(one.action == v.action, "round %d: judge_data %s, judge %s", round,
                          idng_action_name(one.action), idng_action_name(v.action));
        if (v.action == IDNG_ACT_NORMALIZE) {
            uint8_t a[256];
            size_t alen = sizeof a;
            struct idng_verdict av;
            ck_assert_int_eq(idng_policy_normalize(&c.policy, w, len, a, &alen, NULL), IDNG_OK);
            idng_policy_judge(&c.policy, a, alen, &av);
            ck_assert_msg(av.action == one.action
                              && idng_status_class(av.err.status)
                                     == idng_status_class(one.err.status),
                          "round %d: judge_data is not the A-label form's verdict", round);
        }
        idng_conf_free(&c);
    }
}
END_TEST

/* A raw name on the answer path is judged as what it normalizes to. */
static const struct judge_data_row {
    const char *conf, *name, *verdict;
    enum idng_action action;
} judge_data_rows[] = {
    {"", "\\195\\188.evil.", "ok", IDNG_ACT_PASS},
    {"", "\\195\\188.xn--ab-m1t.evil.", "contextj", IDNG_ACT_REFUSE},
    {"", "a\\226\\128\\174b.evil.", "disallowed", IDNG_ACT_REFUSE},
    {"deny: d\xc3\xa9j\xc3\xa0.evil.\n", "d\\195\\169j\\195\\160.evil.", "deny", IDNG_ACT_REFUSE},
    {"on-not-canonical: log\n", "\\195\\188.xn--bc-kw3n.evil.", "not-canonical", IDNG_ACT_LOG},
    {"on-raw-8bit: refuse\n", "\\195\\188.evil.", "raw-8bit", IDNG_ACT_REFUSE},
    {"", "xn--ab-m1t.evil.", "contextj", IDNG_ACT_REFUSE},
    {"", "www.evil.", "ok", IDNG_ACT_PASS},
    /* on-idn: the A-label form is judged, its suffix included. */
    {"on-idn: refuse\n", "\\208\\191\\209\\128\\208\\176\\208\\178\\208\\180\\208\\176.evil.",
     "idn", IDNG_ACT_REFUSE},
    {"on-idn: refuse\nidn-scripts: latin\n", "\\195\\188.evil.", "ok", IDNG_ACT_PASS},
    {"on-idn: refuse\nidn-suffixes: evil\n",
     "\\208\\191\\209\\128\\208\\176\\208\\178\\208\\180\\208\\176.evil.", "ok", IDNG_ACT_PASS},
    {"on-idn: refuse\nidn-scripts: latin\n", "\\195\\188.xn--p1ai.", "idn", IDNG_ACT_REFUSE},
};
#define JUDGE_DATA_ROWS ((int)(sizeof judge_data_rows / sizeof judge_data_rows[0]))

START_TEST(test_judge_data)
{
    const struct judge_data_row *t = &judge_data_rows[_i];
    struct idng_conf c;
    struct idng_verdict v;
    char text[512];
    uint8_t w[256];
    size_t n;

    snprintf(text, sizeof text, "idnguard:\n%s", t->conf);
    load(&c, text);
    n = t_wire(t->name, w);
    idng_policy_judge_data(&c.policy, w, n, &v);
    ck_assert_msg(strcmp(idng_verdict_name(&v), t->verdict) == 0 && v.action == t->action,
                  "%s with [%s]: %s/%s, want %s/%s", t->name, t->conf, idng_verdict_name(&v),
                  idng_action_name(v.action), t->verdict, idng_action_name(t->action));
    idng_conf_free(&c);
}
END_TEST

/* The documented defaults (docs, conf/idnguard.conf.example), written out
 * here rather than read from the code under test: the classes that keep a
 * default of their own whatever on-invalid says, raw-8bit and every
 * lookalike class (mixed-script and every class after it): refuse for the
 * names that pass for another, log for the other lookalikes; pass for idn,
 * the switch that is off until an operator turns it on. */
static const struct {
    const char *cls;
    enum idng_action action;
} documented[] = {
    {"raw-8bit", IDNG_ACT_NORMALIZE},
    {"mixed-script", IDNG_ACT_LOG},
    {"confusable", IDNG_ACT_REFUSE},
    {"mixed-number", IDNG_ACT_LOG},
    {"whole-script", IDNG_ACT_REFUSE},
    {"near-miss", IDNG_ACT_LOG},
    {"mark-pattern", IDNG_ACT_LOG},
    {"cjk-pattern", IDNG_ACT_LOG},
    {"digit-lookalike", IDNG_ACT_LOG},
    {"punctuation-like", IDNG_ACT_LOG},
    {"tld-letter", IDNG_ACT_LOG},
    {"embeds-protected", IDNG_ACT_LOG},
    {"idn", IDNG_ACT_PASS},
};

/* The documented default of class cls, or -1 when it follows on-invalid. */
static int documented_default(int cls)
{
    size_t i;

    for (i = 0; i < sizeof documented / sizeof documented[0]; i++)
        if (strcmp(documented[i].cls, idng_class_name((idng_class)cls)) == 0)
            return (int)documented[i].action;
    return -1;
}

/* The policy unit owns the defaults and the per-class rules: a policy
 * made without any settings file says what the documented defaults say. */
START_TEST(test_policy_defaults_and_rules)
{
    struct idng_policy pol;
    unsigned char explicit_action[IDNG_CLASS_COUNT] = {0};
    enum idng_action a;
    int cls;

    idng_policy_init(&pol);
    ck_assert_int_eq(pol.mode, IDNG_MODE_UTS46);
    ck_assert_int_eq(pol.on_invalid, IDNG_ACT_REFUSE);
    for (cls = 0; cls < IDNG_CLASS_COUNT; cls++) {
        int configurable = idng_policy_class_configurable(cls), own = documented_default(cls);
        ck_assert_int_eq(configurable,
                         cls != IDNG_C_OK && cls != IDNG_C_NOSPACE && cls != IDNG_C_INVAL);
        /* a new lookalike class needs its documented default above */
        ck_assert_msg(cls < IDNG_C_MIXED_SCRIPT || own >= 0, "no documented default for %s",
                      idng_class_name((idng_class)cls));
        ck_assert_msg((int)pol.action[cls]
                          == (!configurable ? IDNG_ACT_PASS
                              : own >= 0    ? own
                                            : IDNG_ACT_REFUSE),
                      "default action of %s", idng_class_name((idng_class)cls));
        ck_assert_int_eq(idng_policy_default_action(cls), configurable ? own : -1);
        /* normalize only for raw-8bit; every other action anywhere */
        ck_assert_int_eq(idng_policy_action_allowed(cls, IDNG_ACT_NORMALIZE),
                         cls == IDNG_C_RAW_8BIT);
        ck_assert(idng_policy_action_allowed(cls, IDNG_ACT_DROP));
    }
    ck_assert(!idng_policy_action_allowed(-1, IDNG_ACT_NORMALIZE));
    ck_assert(!idng_policy_action_allowed(IDNG_C_RAW_8BIT, IDNG_ACTION_COUNT));
    ck_assert(!idng_policy_class_configurable(-1));
    ck_assert(!idng_policy_class_configurable(IDNG_CLASS_COUNT));
    for (cls = 0; cls < (int)(sizeof documented / sizeof documented[0]); cls++) {
        idng_class c;
        ck_assert_msg(idng_class_lookup(documented[cls].cls, strlen(documented[cls].cls), &c) == 0,
                      "documented default for unknown class %s", documented[cls].cls);
    }

    /* on-invalid changes every class not set explicitly, but raw-8bit and
     * the lookalike classes, which keep their own defaults */
    pol.on_invalid = IDNG_ACT_NXDOMAIN;
    pol.action[IDNG_C_BIDI] = IDNG_ACT_LOG;
    explicit_action[IDNG_C_BIDI] = 1;
    pol.action[IDNG_C_NEAR_MISS] = IDNG_ACT_DROP;
    explicit_action[IDNG_C_NEAR_MISS] = 1;
    idng_policy_resolve(&pol, explicit_action);
    ck_assert_int_eq(pol.action[IDNG_C_BIDI], IDNG_ACT_LOG);
    ck_assert_int_eq(pol.action[IDNG_C_CONTEXTJ], IDNG_ACT_NXDOMAIN);
    ck_assert_int_eq(pol.action[IDNG_C_RAW_8BIT], IDNG_ACT_NORMALIZE);
    ck_assert_int_eq(pol.action[IDNG_C_OK], IDNG_ACT_PASS);
    ck_assert_int_eq(pol.action[IDNG_C_NEAR_MISS], IDNG_ACT_DROP);
    for (cls = 0; cls < IDNG_CLASS_COUNT; cls++) {
        int own = documented_default(cls);
        if (cls == IDNG_C_BIDI || cls == IDNG_C_NEAR_MISS)
            continue;
        ck_assert_msg((int)pol.action[cls]
                          == (!idng_policy_class_configurable(cls) ? IDNG_ACT_PASS
                              : own >= 0                           ? own
                                                                   : IDNG_ACT_NXDOMAIN),
                      "on-invalid: nxdomain gave %s %s", idng_class_name((idng_class)cls),
                      idng_action_name(pol.action[cls]));
    }

    /* action names are the settings values, both ways */
    for (a = IDNG_ACT_PASS; a < IDNG_ACTION_COUNT; a++) {
        enum idng_action back;
        const char *name = idng_action_name(a);
        ck_assert_ptr_nonnull(name);
        ck_assert_int_eq(idng_action_lookup(name, strlen(name), &back), 0);
        ck_assert_int_eq(back, a);
    }
    ck_assert_ptr_null(idng_action_name(IDNG_ACTION_COUNT));
    ck_assert_int_eq(idng_action_lookup("Refuse", 6, &a), -1);
    ck_assert_int_eq(idng_action_lookup("refusex", 7, &a), -1);

    /* the lists are the policy's: a denied name is rejected with on-invalid */
    {
        static const uint8_t bad[] = "\003bad\007example\000";
        static const uint8_t below[] = "\001x\003BAD\007example\000";
        struct idng_verdict v;
        ck_assert_int_eq(idng_nameset_add(&pol.deny, bad, sizeof bad - 1, NULL), 0);
        idng_policy_judge(&pol, below, sizeof below - 1, &v);
        ck_assert_int_eq(v.listed, IDNG_LISTED_DENY);
        ck_assert_int_eq(v.action, IDNG_ACT_NXDOMAIN);
    }
    idng_policy_free(&pol);
    ck_assert_int_eq(pol.deny.count, 0);
    ck_assert_int_eq(pol.on_invalid, IDNG_ACT_REFUSE);
    idng_policy_free(&pol); /* twice is fine */
}
END_TEST

static Suite *policy_rules_suite(void)
{
    Suite *s = suite_create("policy rules");
    TCase *tc = tcase_create("rules");

    tcase_add_loop_test(tc, test_normalize, 0, (int)(sizeof norms / sizeof norms[0]));
    tcase_add_loop_test(tc, test_normalize_full_stop_in_label, 0,
                        (int)(sizeof stops / sizeof stops[0]));
    tcase_add_test(tc, test_fallback);
    tcase_add_test(tc, test_policy_defaults_and_rules);
    tcase_add_loop_test(tc, test_judge_data, 0, JUDGE_DATA_ROWS);
    tcase_add_loop_test(tc, test_most_severe_property, 0, 10);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(policy_rules_suite)
