/**
 * \file
 * The module's policy core without Unbound (core/policy.c): a wire
 * name and settings in, a verdict and action out; allow/deny precedence;
 * normalization of raw UTF-8 names; fallbacks; EDE texts.
 */
#include "common.h"
#include "idng_policy.h"
#include "idng_scan.h"
#include "idng_conf.h"

#include <string.h>


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
    /* U+1F4A9 is UTS #46 valid, and not an identifier character of UTS #39
     * (unrestricted); but the mixed-script rule sets pictographs aside: ok,
     * but under restriction-level: ascii-only (an emoji is no ASCII).  A
     * label mixing Latin and Cyrillic is still mixed-script, which logs by
     * default. */
    {"", "xn--ls8h.example.", "ok", IDNG_ACT_PASS},
    {"on-mixed-script: refuse\n", "xn--ls8h.example.", "ok", IDNG_ACT_PASS},
    {"restriction-level: ascii-only\n", "xn--ls8h.example.", "mixed-script", IDNG_ACT_LOG},
    {"restriction-level: unrestricted\n", "xn--ls8h.example.", "ok", IDNG_ACT_PASS},
    {"mode: idna2008\n", "xn--ls8h.example.", "disallowed", IDNG_ACT_REFUSE},
    {"", "xn--pypal-4ve.example.", "mixed-script", IDNG_ACT_LOG},
    {"on-mixed-script: pass\n", "xn--pypal-4ve.example.", "mixed-script", IDNG_ACT_PASS},
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
    /* Every label is judged; the most severe action wins, and a relaxed or
     * raw label in front cannot hide a fake one behind it. */
    {"", "\\195\\188.xn--ab-m1t.evil.", "contextj", IDNG_ACT_REFUSE},
    {"", "\\200.xn--ab-m1t.evil.", "bad-utf8", IDNG_ACT_REFUSE},
    {"", "b\\195\\188cher.xn--ab-m1t.example.", "contextj", IDNG_ACT_REFUSE},
    {"on-not-canonical: log\n", "xn--bc-kw3n.xn--ab-m1t.example.", "contextj", IDNG_ACT_REFUSE},
    {"on-not-canonical: log\n", "xn--bc-kw3n.example.", "not-canonical", IDNG_ACT_LOG},
    {"on-hyphen: pass\n", "xn--ab--c-kra.xn--ab-m1t.example.", "contextj", IDNG_ACT_REFUSE},
    {"on-hyphen: pass\n", "xn--ab--c-kra.example.", "hyphen", IDNG_ACT_PASS},
    {"on-raw-8bit: log\n", "\\195\\188.xn--ab-m1t.example.", "contextj", IDNG_ACT_REFUSE},
    {"on-contextj: log\n", "xn--ab-m1t.\\195\\188.example.", "raw-8bit", IDNG_ACT_NORMALIZE},
    {"on-invalid: drop\non-contextj: nxdomain\n", "xn--ab-m1t.xn--0000h.example.", "bad-codepoint",
     IDNG_ACT_DROP},
    {"on-invalid: nxdomain\non-contextj: refuse\n", "xn--0000h.xn--ab-m1t.example.", "contextj",
     IDNG_ACT_REFUSE},
    /* A raw label is judged as what it normalizes to. */
    {"", "a\\226\\128\\174b.example.", "disallowed", IDNG_ACT_REFUSE}, /* U+202E */
    {"", "a\\226\\128\\141b.example.", "contextj", IDNG_ACT_REFUSE}, /* stray ZWJ */
    {"on-raw-8bit: pass\n", "\\255.example.", "bad-utf8", IDNG_ACT_REFUSE},
    {"on-raw-8bit: pass\n", "\\195\\188.example.", "raw-8bit", IDNG_ACT_PASS},
    {"on-raw-8bit: drop\non-bad-utf8: log\n", "\\255.example.", "bad-utf8", IDNG_ACT_LOG},
    /* A raw spelling is also judged as the name it stands for (rule 5):
     * the lists and the bidi rule across labels, whatever on-raw-8bit says. */
    {"deny: d\xc3\xa9j\xc3\xa0.evil.\n", "d\\195\\169j\\195\\160.evil.", "deny", IDNG_ACT_REFUSE},
    {"on-raw-8bit: log\ndeny: d\xc3\xa9j\xc3\xa0.evil.\n", "d\\195\\169j\\195\\160.evil.", "deny",
     IDNG_ACT_REFUSE},
    {"on-raw-8bit: pass\non-invalid: nxdomain\ndeny: d\xc3\xa9j\xc3\xa0.evil.\n",
     "www.d\\195\\169j\\195\\160.evil.", "deny", IDNG_ACT_NXDOMAIN},
    {"on-raw-8bit: pass\n", "0\\195\\160.\\215\\144.evil.", "bidi", IDNG_ACT_REFUSE},
    {"on-raw-8bit: pass\n", "0\\195\\160.evil.", "raw-8bit", IDNG_ACT_PASS},
    {"allow: b\xc3\xbc" "cher.example.\non-raw-8bit: refuse\n", "b\\195\\188cher.example.",
     "raw-8bit", IDNG_ACT_REFUSE},
    {"allow: b\xc3\xbc" "cher.example.\n", "b\\195\\188cher.example.", "raw-8bit",
     IDNG_ACT_NORMALIZE},
    {"on-invalid: drop\n", "\\255.xn--dj-kia8a.example.", "bad-utf8", IDNG_ACT_DROP},
    /* Rule 6, lookalikes.  p<Cyrillic a>ypal.com and what lies below it
     * look like a protected paypal.com; ASCII names are not judged. */
    {"protect: paypal.com\n", "xn--pypal-4ve.com.", "confusable", IDNG_ACT_REFUSE},
    {"protect: paypal.com\n", "login.xn--pypal-4ve.com.", "confusable", IDNG_ACT_REFUSE},
    {"protect: paypal.com\n", "paypal.com.", "ok", IDNG_ACT_PASS},
    {"protect: paypal.com\n", "PayPal.COM.", "ok", IDNG_ACT_PASS},
    {"protect: paypal.com\n", "paypa1.com.", "ok", IDNG_ACT_PASS},
    {"protect: paypal.com\n", "xn--caf-dma.paypal.com.", "ok", IDNG_ACT_PASS},
    {"protect: paypal.com\n", "xn--pypal-4ve.org.", "mixed-script", IDNG_ACT_LOG},
    {"protect: paypal.com\non-confusable: log\n", "xn--pypal-4ve.com.", "confusable",
     IDNG_ACT_LOG},
    {"protect: paypal.com\non-mixed-script: drop\n", "xn--pypal-4ve.com.", "mixed-script",
     IDNG_ACT_DROP},
    /* A raw spelling is judged as what it normalizes to. */
    {"protect: paypal.com\n", "p\\208\\176ypal.com.", "confusable", IDNG_ACT_REFUSE},
    {"", "p\\208\\176ypal.com.", "raw-8bit", IDNG_ACT_NORMALIZE},
    /* A protected name is not its own lookalike, even when it is one of
     * another protected name. */
    {"protect: paypal.com\nprotect: xn--pypal-4ve.com\n", "xn--pypal-4ve.com.", "mixed-script",
     IDNG_ACT_LOG},
    /* No label hides another: a relaxed failing label in front. */
    {"protect: paypal.com\non-contextj: pass\n", "xn--ab-m1t.xn--pypal-4ve.com.", "confusable",
     IDNG_ACT_REFUSE},
    {"protect: paypal.com\nallow: xn--pypal-4ve.com\n", "xn--pypal-4ve.com.", "allow",
     IDNG_ACT_PASS},
    /* Levels: Latin with Devanagari is moderately restrictive. */
    {"restriction-level: moderately-restrictive\n", "xn--aypal-i4k.example.", "ok",
     IDNG_ACT_PASS},
    {"", "xn--aypal-i4k.example.", "mixed-script", IDNG_ACT_LOG},
    /* Latin, Cyrillic and Devanagari: minimally restrictive. */
    {"restriction-level: moderately-restrictive\n", "xn--ypal-43d3g635b.example.",
     "mixed-script", IDNG_ACT_LOG},
    {"restriction-level: minimally-restrictive\n", "xn--ypal-43d3g635b.example.", "ok",
     IDNG_ACT_PASS},
    /* Digits of two systems: Devanagari 1 and ASCII 2 in one label. */
    {"", "xn--2-wtd80a.example.", "mixed-number", IDNG_ACT_LOG},
    {"on-mixed-number: refuse\n", "xn--2-wtd80a.example.", "mixed-number", IDNG_ACT_REFUSE},
    /* Whole-script: Cyrillic аррӏе (U+0430 U+0440 U+0440 U+04CF U+0435)
     * passes for Latin apple; at home under .ru, not under .com, unless
     * tld-scripts says otherwise. */
    {"", "xn--80ak6aa92e.com.", "whole-script", IDNG_ACT_REFUSE},
    {"on-whole-script: log\n", "xn--80ak6aa92e.com.", "whole-script", IDNG_ACT_LOG},
    {"", "xn--80ak6aa92e.ru.", "ok", IDNG_ACT_PASS},
    {"tld-scripts: ru latin\n", "xn--80ak6aa92e.ru.", "whole-script", IDNG_ACT_REFUSE},
    {"tld-scripts: com latin,cyrillic\n", "xn--80ak6aa92e.com.", "ok", IDNG_ACT_PASS},
    {"tld-scripts: com none\n", "xn--80ak6aa92e.com.", "ok", IDNG_ACT_PASS},
    /* Near miss: paypál is paypal once its acute is dropped. */
    {"protect: paypal.com\n", "xn--paypl-0qa.com.", "near-miss", IDNG_ACT_LOG},
    {"protect: paypal.com\non-near-miss: refuse\n", "xn--paypl-0qa.com.", "near-miss",
     IDNG_ACT_REFUSE},
    {"", "xn--paypl-0qa.com.", "ok", IDNG_ACT_PASS},
    /* The patterns browsers refuse: a dotless i under an acute (ı́x), a
     * prolonged sound mark first (ーbc), a Cyrillic ze among digits (2з4), a
     * middle dot not between two l's (a·b). */
    {"", "xn--x-eka60l.com.", "mark-pattern", IDNG_ACT_LOG},
    {"on-mark-pattern: drop\n", "xn--x-eka60l.com.", "mark-pattern", IDNG_ACT_DROP},
    {"", "xn--bc-5n4a.com.", "cjk-pattern", IDNG_ACT_LOG},
    {"on-cjk-pattern: nxdomain\n", "xn--bc-5n4a.com.", "cjk-pattern", IDNG_ACT_NXDOMAIN},
    {"", "xn--24-tlc.com.", "digit-lookalike", IDNG_ACT_LOG},
    {"on-digit-lookalike: refuse\n", "xn--24-tlc.com.", "digit-lookalike", IDNG_ACT_REFUSE},
    {"", "xn--ab-0ea.com.", "punctuation-like", IDNG_ACT_LOG},
    {"on-punctuation-like: refuse\n", "xn--ab-0ea.com.", "punctuation-like", IDNG_ACT_REFUSE},
    /* A country's letter: thorn (þorn) at home under .is, not under .com;
     * Catalan l·l at home under .cat. */
    {"", "xn--orn-ooa.com.", "tld-letter", IDNG_ACT_LOG},
    {"on-tld-letter: refuse\n", "xn--orn-ooa.com.", "tld-letter", IDNG_ACT_REFUSE},
    {"", "xn--orn-ooa.is.", "ok", IDNG_ACT_PASS},
    {"", "xn--ll-0ea.com.", "tld-letter", IDNG_ACT_LOG},
    {"", "xn--ll-0ea.cat.", "ok", IDNG_ACT_PASS},
    /* protect-embedded: yes: paypal-café holds paypal between hyphens. */
    {"protect: paypal.com\nprotect-embedded: yes\n", "xn--paypal-caf-k7a.com.", "embeds-protected",
     IDNG_ACT_LOG},
    {"protect: paypal.com\nprotect-embedded: yes\non-embeds-protected: refuse\n",
     "xn--paypal-caf-k7a.com.", "embeds-protected", IDNG_ACT_REFUSE},
    {"protect: paypal.com\n", "xn--paypal-caf-k7a.com.", "ok", IDNG_ACT_PASS},
    /* protect-suffixes: any: p<Cyrillic a>ypal under another public suffix. */
    {"protect: paypal.com\nprotect-suffixes: any\n", "xn--pypal-4ve.co.uk.", "confusable",
     IDNG_ACT_REFUSE},
    {"protect: paypal.com\n", "xn--pypal-4ve.co.uk.", "mixed-script", IDNG_ACT_LOG},
    /* on-idn: every IDN label (a valid xn-- label, a raw label that
     * normalizes to one) but those idn-scripts and idn-suffixes exempt.
     * pass, the default, changes nothing: правда (xn--80aafi6cg), bücher. */
    {"", "xn--80aafi6cg.example.", "ok", IDNG_ACT_PASS},
    {"on-idn: pass\nidn-scripts: latin\n", "xn--80aafi6cg.example.", "ok", IDNG_ACT_PASS},
    {"on-idn: refuse\n", "xn--80aafi6cg.example.", "idn", IDNG_ACT_REFUSE},
    {"on-idn: refuse\n", "xn--bcher-kva.example.", "idn", IDNG_ACT_REFUSE},
    {"on-idn: log\n", "www.xn--bcher-kva.example.", "idn", IDNG_ACT_LOG},
    {"on-idn: refuse\n", "XN--80AAFI6CG.example.", "idn", IDNG_ACT_REFUSE},
    {"on-idn: refuse\n", "www.example.", "ok", IDNG_ACT_PASS},
    {"on-idn: refuse\n", "_dmarc.r3---sn-abc.example.", "ok", IDNG_ACT_PASS},
    /* idn-scripts: every code point of a script is of one listed;
     * Common and Inherited ones (digits, '-', marks) go with the others. */
    {"on-idn: nxdomain\nidn-scripts: latin\n", "xn--bcher-kva.example.", "ok", IDNG_ACT_PASS},
    {"on-idn: nxdomain\nidn-scripts: latin\n", "xn--80aafi6cg.example.", "idn",
     IDNG_ACT_NXDOMAIN},
    {"on-idn: drop\nidn-scripts: latin,cyrillic\n", "xn--80aafi6cg.example.", "ok", IDNG_ACT_PASS},
    {"on-idn: drop\nidn-scripts: latin\nidn-scripts: cyrillic\n", "xn--80aafi6cg.example.", "ok",
     IDNG_ACT_PASS},
    {"on-idn: refuse\nidn-scripts: greek\n", "xn--hxakic4aa.example.", "ok", IDNG_ACT_PASS},
    /* cjk: Han, Hiragana, Katakana, Hangul, alone or mixed (日本語, にほん,
     * カタカナ日本, 한국); ASCII letters are Latin (abc日本). */
    {"on-idn: refuse\nidn-scripts: cjk\n", "xn--wgv71a119e.jp.", "ok", IDNG_ACT_PASS},
    {"on-idn: refuse\nidn-scripts: cjk\n", "xn--r9j6a7d.jp.", "ok", IDNG_ACT_PASS},
    {"on-idn: refuse\nidn-scripts: cjk\n", "xn--lcka3d1b7769bcvb.jp.", "ok", IDNG_ACT_PASS},
    {"on-idn: refuse\nidn-scripts: cjk\n", "xn--3e0b707e.kr.", "ok", IDNG_ACT_PASS},
    {"on-idn: refuse\nidn-scripts: cjk\n", "xn--abc-v08fl0d.jp.", "idn", IDNG_ACT_REFUSE},
    {"on-idn: refuse\nidn-scripts: cjk,latin\n", "xn--abc-v08fl0d.jp.", "ok", IDNG_ACT_PASS},
    /* A script outside the list of names (Tifinagh) is exempt by no script. */
    {"on-idn: refuse\nidn-scripts: latin,cyrillic,arabic\n", "xn--4ljwf.example.", "idn",
     IDNG_ACT_REFUSE},
    /* A label of no script (an emoji) needs common; with a letter of a
     * listed script it goes with it (u-umlaut and an emoji).  Exempt, the
     * name is ok: mixed-script sets emoji aside. */
    {"on-idn: refuse\nidn-scripts: latin\n", "xn--ls8h.example.", "idn", IDNG_ACT_REFUSE},
    {"on-idn: refuse\nidn-scripts: common\n", "xn--ls8h.example.", "ok", IDNG_ACT_PASS},
    {"on-idn: refuse\nidn-scripts: common\n", "xn--bcher-kva.example.", "idn", IDNG_ACT_REFUSE},
    {"on-idn: refuse\nidn-scripts: latin\n", "xn--tda4367w.example.", "ok", IDNG_ACT_PASS},
    /* Every label counts: a Latin label under the IDN TLD .рф. */
    {"on-idn: refuse\nidn-scripts: latin\n", "xn--bcher-kva.xn--p1ai.", "idn", IDNG_ACT_REFUSE},
    /* idn-suffixes: names at or under them, in A-labels or Unicode. */
    {"on-idn: refuse\nidn-suffixes: xn--p1ai\n", "xn--e1afmkfd.xn--p1ai.", "ok", IDNG_ACT_PASS},
    {"on-idn: refuse\nidn-suffixes: \xd1\x80\xd1\x84\n", "xn--e1afmkfd.XN--P1AI.", "ok",
     IDNG_ACT_PASS},
    {"on-idn: refuse\nidn-suffixes: \xd1\x80\xd1\x84\n", "xn--p1ai.", "ok", IDNG_ACT_PASS},
    {"on-idn: refuse\nidn-suffixes: \xd1\x80\xd1\x84\n", "xn--e1afmkfd.ru.", "idn",
     IDNG_ACT_REFUSE},
    {"on-idn: refuse\nidn-suffixes: example.ru\n", "xn--80aafi6cg.example.ru.", "ok",
     IDNG_ACT_PASS},
    {"on-idn: refuse\nidn-suffixes: example.ru\n", "xn--80aafi6cg.ru.", "idn", IDNG_ACT_REFUSE},
    {"on-idn: refuse\nidn-suffixes: example.ru\n", "xn--80aafi6cg.other.ru.", "idn",
     IDNG_ACT_REFUSE},
    /* A suffix with an IDN label (пример.рф) exempts its own labels too. */
    {"on-idn: refuse\nidn-suffixes: \xd0\xbf\xd1\x80\xd0\xb8\xd0\xbc\xd0\xb5\xd1\x80."
     "\xd1\x80\xd1\x84\n",
     "xn--80aafi6cg.xn--e1afmkfd.xn--p1ai.", "ok", IDNG_ACT_PASS},
    {"on-idn: refuse\nidn-suffixes: \xd0\xbf\xd1\x80\xd0\xb8\xd0\xbc\xd0\xb5\xd1\x80."
     "\xd1\x80\xd1\x84\n",
     "xn--80aafi6cg.xn--p1ai.", "idn", IDNG_ACT_REFUSE},
    {"on-idn: refuse\nidn-suffixes: .\n", "xn--80aafi6cg.example.", "ok", IDNG_ACT_PASS},
    /* Raw UTF-8 is judged as what it normalizes to: правда refused (its
     * raw label named), bücher and names under an exempt suffix
     * normalized; a raw label that maps to ASCII (fullwidth) is no IDN. */
    {"on-idn: refuse\n", "\\208\\191\\209\\128\\208\\176\\208\\178\\208\\180\\208\\176.example.",
     "idn", IDNG_ACT_REFUSE},
    {"on-idn: refuse\nidn-scripts: latin\n", "b\\195\\188cher.example.", "raw-8bit",
     IDNG_ACT_NORMALIZE},
    {"on-idn: refuse\nidn-suffixes: \xd1\x80\xd1\x84\n",
     "\\208\\191\\209\\128\\208\\184\\208\\188\\208\\181\\209\\128.\\209\\128\\209\\132.",
     "raw-8bit", IDNG_ACT_NORMALIZE},
    {"on-idn: refuse\n", "\\239\\189\\133\\239\\189\\152.example.", "raw-8bit",
     IDNG_ACT_NORMALIZE},
    /* Invalid labels keep their own classes; lookalike classes still
     * apply; the most severe action wins, the more specific class among
     * equals on one label. */
    {"on-idn: drop\n", "xn--ab-m1t.example.", "contextj", IDNG_ACT_REFUSE},
    {"on-idn: drop\non-contextj: log\n", "xn--ab-m1t.xn--bcher-kva.example.", "idn",
     IDNG_ACT_DROP},
    {"on-idn: log\n", "xn--80ak6aa92e.com.", "whole-script", IDNG_ACT_REFUSE},
    {"on-idn: refuse\n", "xn--80ak6aa92e.com.", "whole-script", IDNG_ACT_REFUSE},
    {"on-idn: drop\n", "xn--80ak6aa92e.com.", "idn", IDNG_ACT_DROP},
    {"on-idn: refuse\nprotect: paypal.com\n", "xn--pypal-4ve.com.", "confusable",
     IDNG_ACT_REFUSE},
    {"on-idn: log\n", "xn--ls8h.example.", "idn", IDNG_ACT_LOG},
    /* The lists still decide first. */
    {"on-idn: refuse\nallow: xn--80aafi6cg.example\n", "xn--80aafi6cg.example.", "allow",
     IDNG_ACT_PASS},
    {"on-idn: log\ndeny: example\nallow: xn--80aafi6cg.example\n", "www.example.", "deny",
     IDNG_ACT_REFUSE},
};

/* Every class the policy gives rather than the validation (mixed-script
 * and every class after it: the lookalike classes and idn), which no
 * validation returns (tests/codec/test_idna.c leaves them to this file),
 * is the verdict of a row above. */
START_TEST(test_every_lookalike_class_judged)
{
    int cls;
    size_t i;

    for (cls = IDNG_C_MIXED_SCRIPT; cls < IDNG_CLASS_COUNT; cls++) {
        const char *name = idng_class_name((idng_class)cls);
        for (i = 0; i < sizeof rows / sizeof rows[0]; i++)
            if (strcmp(rows[i].verdict, name) == 0)
                break;
        ck_assert_msg(i < sizeof rows / sizeof rows[0], "no row judged %s", name);
    }
}
END_TEST

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
    n = t_wire(r->name, w);
    idng_policy_judge(&c.policy, w, n, &v);
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
    size_t n = t_wire("www.xn--ab-m1t.example.", w);

    load(&c, "idnguard:\n");
    idng_policy_judge(&c.policy, w, n, &v);
    ck_assert_uint_eq(v.err.label_off, 5);
    ck_assert_uint_eq(v.err.label_len, 10);
    ck_assert_mem_eq(v.label, "xn--ab-m1t", 10);
    idng_policy_ede_text(&v, ede, sizeof ede);
    ck_assert_str_eq(ede, "idnguard: contextj: xn--ab-m1t: joiner not allowed here (RFC 5892 A.1, A.2)");
    /* Raw octets in the label are escaped, so the EDE text is ASCII. */
    n = t_wire("b\\195\\188cher.example.", w);
    idng_conf_free(&c);
    load(&c, "idnguard:\non-raw-8bit: refuse\n");
    idng_policy_judge(&c.policy, w, n, &v);
    idng_policy_ede_text(&v, ede, sizeof ede);
    ck_assert_str_eq(ede, "idnguard: raw-8bit: b\\195\\188cher: label holds octets >= 0x80");
    /* A '.' inside a label is escaped as the log escapes it, so one label
     * never reads as two. */
    {
        static const uint8_t dotted[] = "\005a.b\xc3\xbc\007example";
        idng_policy_judge(&c.policy, dotted, sizeof dotted, &v);
        idng_policy_ede_text(&v, ede, sizeof ede);
        ck_assert_str_eq(ede, "idnguard: disallowed: a\\046b\\195\\188: code point is disallowed");
    }
    /* A tiny buffer truncates, NUL-terminated. */
    ck_assert_uint_lt(idng_policy_ede_text(&v, ede, 8), 8);
    ck_assert_uint_eq(strlen(ede), 7);
    idng_conf_free(&c);
}
END_TEST

/* on-idn's verdict names the first IDN label not exempt, as the query log
 * and the EDE text show it; it is no lookalike (the log may show the name
 * in Unicode). */
START_TEST(test_idn_label_and_ede)
{
    struct idng_conf c;
    struct idng_verdict v;
    uint8_t w[256];
    char ede[256];
    size_t n = t_wire("www.xn--bcher-kva.xn--80aafi6cg.example.", w);

    load(&c, "idnguard:\non-idn: refuse\nidn-scripts: latin\n");
    idng_policy_judge(&c.policy, w, n, &v);
    ck_assert_str_eq(idng_verdict_name(&v), "idn");
    ck_assert_str_eq(idng_status_symbol(v.err.status), "IDNG_E_IDN");
    ck_assert_uint_eq(v.err.label_off, 19);
    ck_assert_uint_eq(v.err.label_len, 13);
    ck_assert_mem_eq(v.label, "xn--80aafi6cg", 13);
    ck_assert_uint_eq(v.lookalike, 0);
    ck_assert(idng_verdict_interesting(&v));
    idng_policy_ede_text(&v, ede, sizeof ede);
    ck_assert_str_eq(ede, "idnguard: idn: xn--80aafi6cg: IDN label that idn-scripts and "
                          "idn-suffixes do not exempt");
    /* A raw label is named as sent, escaped. */
    n = t_wire("\\208\\191\\209\\128\\208\\176\\208\\178\\208\\180\\208\\176.example.", w);
    idng_policy_judge(&c.policy, w, n, &v);
    idng_policy_ede_text(&v, ede, sizeof ede);
    ck_assert_str_eq(ede, "idnguard: idn: \\208\\191\\209\\128\\208\\176\\208\\178\\208\\180\\208\\176: IDN label that "
                          "idn-scripts and idn-suffixes do not exempt");
    idng_conf_free(&c);
}
END_TEST

/* The response scan applies on-idn as every class: a CNAME target in the
 * answer section rejects the answer; an additional-section owner is
 * stripped. */
START_TEST(test_idn_response_scan)
{
    struct idng_conf c;
    struct idng_scan s;
    struct idng_verdict v;
    uint8_t alias[64], cyr[64], latin[64];
    size_t na = t_wire("alias.example.", alias), nc = t_wire("xn--80aafi6cg.example.", cyr);
    size_t nl = t_wire("xn--bcher-kva.example.", latin);

    load(&c, "idnguard:\non-idn: nxdomain\nidn-scripts: latin\n");
    idng_scan_init(&s);
    idng_scan_name(&c.policy, &s, alias, na);
    ck_assert_int_eq(idng_scan_owner(&c.policy, &s, IDNG_SEC_ANSWER, 5, alias, na, IDNG_STRIP_EXTRA), 0);
    ck_assert_int_eq(idng_scan_target(&c.policy, &s, cyr, nc, IDNG_STRIP_EXTRA), 0);
    ck_assert_int_eq(idng_scan_result(&s, &v), IDNG_SCAN_REJECT);
    ck_assert_str_eq(idng_verdict_name(&v), "idn");
    ck_assert_int_eq(v.action, IDNG_ACT_NXDOMAIN);
    /* The exempt name passes; the foreign one in the additional section
     * is stripped and does not count. */
    idng_scan_init(&s);
    ck_assert_int_eq(idng_scan_target(&c.policy, &s, latin, nl, IDNG_STRIP_EXTRA), 0);
    ck_assert_int_eq(idng_scan_owner(&c.policy, &s, IDNG_SEC_ADDITIONAL, 1, cyr, nc, IDNG_STRIP_EXTRA), 1);
    ck_assert_int_eq(idng_scan_result(&s, NULL), IDNG_SCAN_PASS);
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
    {"\x05" "a.b\xc3\xbc" "\x07" "example", 14, '.'},
    {"\x0a" "b\xc3\xbc" "\xe3\x80\x82" "cher" "\x07" "example", 19, 0x3002},
    {"\x07" "a\xef\xbc\x8e" "b\xc3\xbc", 8, 0xFF0E},
    {"\x07" "a\xef\xbd\xa1" "b\xc3\xbc", 8, 0xFF61},
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
    "www", "_dmarc", "r3---sn-abc", "xn--bcher-kva", "xn--ls8h", /* emoji: mode-dependent */
    "xn--ab-m1t",                                           /* contextj */
    "xn--0000h",                                            /* bad-codepoint */
    "xn--bc-kw3n",                                          /* not-canonical (fullwidth) */
    "xn--ab--c-kra",                                        /* hyphen */
    "xn--ssa",                                              /* leading-mark */
    "xn--example-",                                         /* ascii-only */
    "xn--ab-0ea",                                           /* contexto */
    "\xc3\xbc",                                             /* raw, converts */
    "\x80",                                                 /* raw, bad UTF-8 */
    "a\xe2\x80\xae" "b",                                    /* raw U+202E: disallowed */
    "a\xe2\x80\x8d" "b",                                    /* raw stray ZWJ: contextj */
    "a.b\xc3\xbc",                                          /* raw full stop: disallowed */
    "xn--pypal-4ve",                                        /* mixed-script (Cyrillic a) */
    "p\xd0\xb0ypal",                                        /* raw, mixed-script */
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
    static const char *const classes[] = {"bad-punycode", "bad-codepoint", "ascii-only",
                                          "not-canonical", "disallowed", "contextj",
                                          "contexto", "hyphen", "leading-mark", "bad-utf8",
                                          "empty-label", "too-long", "bidi", "mixed-script",
                                          "mixed-number", "confusable", "idn"};
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
            sev = idng_status_class(one.err.status) == IDNG_C_OK ? -1 : idng_action_severity(one.action);
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
            ck_assert_msg(v.err.label_len == strlen(want) && memcmp(v.label, want, v.err.label_len) == 0,
                          "round %d: verdict names label %.*s, want %s (the first most severe) %s %s",
                          round, (int)v.err.label_len, (const char *)v.label, want, idng_verdict_name(&v), text);
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
            ck_assert_msg(av.action == one.action && idng_status_class(av.err.status) == idng_status_class(one.err.status),
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
    {"on-idn: refuse\n", "\\208\\191\\209\\128\\208\\176\\208\\178\\208\\180\\208\\176.evil.", "idn", IDNG_ACT_REFUSE},
    {"on-idn: refuse\nidn-scripts: latin\n", "\\195\\188.evil.", "ok", IDNG_ACT_PASS},
    {"on-idn: refuse\nidn-suffixes: evil\n", "\\208\\191\\209\\128\\208\\176\\208\\178\\208\\180\\208\\176.evil.", "ok",
     IDNG_ACT_PASS},
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

START_TEST(test_severity_order)
{
    static const enum idng_action order[] = {IDNG_ACT_PASS,     IDNG_ACT_LOG,    IDNG_ACT_NORMALIZE,
                                             IDNG_ACT_NXDOMAIN, IDNG_ACT_REFUSE, IDNG_ACT_DROP};
    size_t i;
    for (i = 1; i < sizeof order / sizeof order[0]; i++)
        ck_assert_int_lt(idng_action_severity(order[i - 1]), idng_action_severity(order[i]));
}
END_TEST


/* The response scan: what is judged in each section, and what is stripped. */
START_TEST(test_response_scan)
{
    struct idng_conf c;
    struct idng_scan s;
    struct idng_verdict v;
    uint8_t alias[64], fake[64], good[64], raw[64], fullw[64];
    size_t na = t_wire("alias.example.", alias), nf = t_wire("xn--ab-m1t.example.", fake);
    size_t ng = t_wire("www.example.", good), nr = t_wire("\\195\\188.xn--ab-m1t.example.", raw);
    size_t nw = t_wire("xn--bc-kw3n.example.", fullw);

    load(&c, "idnguard:\non-not-canonical: log\n");
    /* A CNAME in the answer section into the fake label: rejected, and named. */
    idng_scan_init(&s);
    idng_scan_name(&c.policy, &s, alias, na);
    ck_assert_int_eq(idng_scan_owner(&c.policy, &s, IDNG_SEC_ANSWER, 5, alias, na, IDNG_STRIP_EXTRA), 0);
    ck_assert(idng_scan_has_targets(IDNG_SEC_ANSWER, 5));
    ck_assert_int_eq(idng_scan_target(&c.policy, &s, fake, nf, IDNG_STRIP_EXTRA), 0);
    ck_assert_int_eq(idng_scan_result(&s, &v), IDNG_SCAN_REJECT);
    ck_assert_str_eq(idng_verdict_name(&v), "contextj");
    /* With IDNG_STRIP_ALL (an RD=0 answer, stored whatever no_cache_store
     * says) the CNAME goes, and still counts. */
    idng_scan_init(&s);
    ck_assert_int_eq(idng_scan_owner(&c.policy, &s, IDNG_SEC_ANSWER, 5, alias, na, IDNG_STRIP_ALL), 0);
    ck_assert_int_eq(idng_scan_target(&c.policy, &s, fake, nf, IDNG_STRIP_ALL), 1);
    ck_assert_int_eq(idng_scan_owner(&c.policy, &s, IDNG_SEC_ANSWER, 1, raw, nr, IDNG_STRIP_ALL), 1);
    ck_assert_int_eq(idng_scan_owner(&c.policy, &s, IDNG_SEC_ADDITIONAL, 1, good, ng, IDNG_STRIP_ALL), 0);
    ck_assert_int_eq(idng_scan_result(&s, NULL), IDNG_SCAN_REJECT);
    /* Targets are judged for CNAME and DNAME in the answer section only. */
    ck_assert(idng_scan_has_targets(IDNG_SEC_ANSWER, 39));
    ck_assert(!idng_scan_has_targets(IDNG_SEC_ANSWER, 15));
    ck_assert(!idng_scan_has_targets(IDNG_SEC_AUTHORITY, 5));
    /* A rejected owner in the answer section is never stripped: it rejects. */
    idng_scan_init(&s);
    ck_assert_int_eq(idng_scan_owner(&c.policy, &s, IDNG_SEC_ANSWER, 1, raw, nr, IDNG_STRIP_EXTRA), 0);
    ck_assert_int_eq(idng_scan_result(&s, NULL), IDNG_SCAN_REJECT);
    /* In the additional section: stripped when the caller strips, and then
     * it does not count; counted when it does not (the pre-cache scan). */
    idng_scan_init(&s);
    ck_assert_int_eq(idng_scan_owner(&c.policy, &s, IDNG_SEC_ADDITIONAL, 1, fake, nf, IDNG_STRIP_EXTRA), 1);
    ck_assert_int_eq(idng_scan_owner(&c.policy, &s, IDNG_SEC_ADDITIONAL, 1, good, ng, IDNG_STRIP_EXTRA), 0);
    ck_assert_int_eq(idng_scan_result(&s, NULL), IDNG_SCAN_PASS);
    idng_scan_init(&s);
    ck_assert_int_eq(idng_scan_owner(&c.policy, &s, IDNG_SEC_AUTHORITY, 2, fake, nf, IDNG_STRIP_NONE), 0);
    ck_assert_int_eq(idng_scan_result(&s, NULL), IDNG_SCAN_REJECT);
    /* NSEC and NSEC3 outside the answer section are proofs: not judged. */
    idng_scan_init(&s);
    ck_assert_int_eq(idng_scan_owner(&c.policy, &s, IDNG_SEC_AUTHORITY, 47, fake, nf, IDNG_STRIP_EXTRA), 0);
    ck_assert_int_eq(idng_scan_owner(&c.policy, &s, IDNG_SEC_AUTHORITY, 50, fake, nf, IDNG_STRIP_NONE), 0);
    ck_assert_int_eq(idng_scan_result(&s, NULL), IDNG_SCAN_PASS);
    /* The most severe wins whatever the order: log, then reject, then log. */
    idng_scan_init(&s);
    idng_scan_name(&c.policy, &s, fullw, nw);
    ck_assert_int_eq(idng_scan_result(&s, &v), IDNG_SCAN_LOG);
    idng_scan_name(&c.policy, &s, fake, nf);
    idng_scan_name(&c.policy, &s, fullw, nw);
    ck_assert_int_eq(idng_scan_result(&s, &v), IDNG_SCAN_REJECT);
    ck_assert_str_eq(idng_verdict_name(&v), "contextj");
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
    {"raw-8bit", IDNG_ACT_NORMALIZE},  {"mixed-script", IDNG_ACT_LOG},
    {"confusable", IDNG_ACT_REFUSE},   {"mixed-number", IDNG_ACT_LOG},
    {"whole-script", IDNG_ACT_REFUSE}, {"near-miss", IDNG_ACT_LOG},
    {"mark-pattern", IDNG_ACT_LOG},    {"cjk-pattern", IDNG_ACT_LOG},
    {"digit-lookalike", IDNG_ACT_LOG}, {"punctuation-like", IDNG_ACT_LOG},
    {"tld-letter", IDNG_ACT_LOG},      {"embeds-protected", IDNG_ACT_LOG},
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

static Suite *policy_suite(void)
{
    Suite *s = suite_create("policy");
    TCase *tc = tcase_create("core");

    tcase_add_loop_test(tc, test_judge, 0, (int)(sizeof rows / sizeof rows[0]));
    tcase_add_test(tc, test_every_lookalike_class_judged);
    tcase_add_test(tc, test_label_location_and_ede);
    tcase_add_test(tc, test_idn_label_and_ede);
    tcase_add_test(tc, test_idn_response_scan);
    tcase_add_loop_test(tc, test_normalize, 0, (int)(sizeof norms / sizeof norms[0]));
    tcase_add_loop_test(tc, test_normalize_full_stop_in_label, 0,
                        (int)(sizeof stops / sizeof stops[0]));
    tcase_add_test(tc, test_fallback);
    tcase_add_test(tc, test_severity_order);
    tcase_add_test(tc, test_response_scan);
    tcase_add_test(tc, test_policy_defaults_and_rules);
    tcase_add_loop_test(tc, test_judge_data, 0, JUDGE_DATA_ROWS);
    tcase_add_loop_test(tc, test_most_severe_property, 0, 10);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(policy_suite)
