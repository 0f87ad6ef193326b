/**
 * \file
 * The module's policy core without Unbound (core/policy.c): a wire
 * name and settings in, a verdict and action out; allow/deny precedence;
 * EDE texts; the response scan; the order of the actions' severity.
 * Normalization, fallbacks, the defaults and the property over random
 * mixes are test_policy_rules.c's.
 */
#include "common.h"
#include "idng_policy.h"
#include "idng_scan.h"
#include "idng_conf.h"
#include "policy_check.h"

#include <string.h>

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

static Suite *policy_suite(void)
{
    Suite *s = suite_create("policy");
    TCase *tc = tcase_create("core");

    tcase_add_loop_test(tc, test_judge, 0, (int)(sizeof rows / sizeof rows[0]));
    tcase_add_test(tc, test_every_lookalike_class_judged);
    tcase_add_test(tc, test_label_location_and_ede);
    tcase_add_test(tc, test_idn_label_and_ede);
    tcase_add_test(tc, test_idn_response_scan);
    tcase_add_test(tc, test_severity_order);
    tcase_add_test(tc, test_response_scan);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(policy_suite)
