/**
 * \file
 * The lookalike rules beyond UTS #39's skeleton (core/idng_lookalike.h,
 * codec/spoof.c), one row a case, through the settings parser and
 * idng_policy_judge as the module judges a client's query: each rule
 * catching what it is for, in A-labels and in raw UTF-8, under .com, an
 * IDN ccTLD and the script's own ccTLD; and the names it must leave alone.
 */
#include "common.h"
#include "idng_conf.h"
#include "idng_lookalike.h"
#include "idng_policy.h"

#include <stdio.h>
#include <string.h>

#define PROTECT "idnguard:\nprotect: apple.com\nprotect: paypal.com\n"
#define NONE "idnguard:\n"

static const struct row {
    const char *conf, *name;
    const char *verdict; /* idng_verdict_name of the verdict */
    const char *action;  /* idng_action_name */
    unsigned has;        /* IDNG_LK_* bits the verdict must hold */
    unsigned hasnt;      /* and must not */
    const char *like;    /* the protected name of the EDE text, or NULL */
} rows[] = {
    /* The attack review's homographs: every letter Cyrillic. */
    {PROTECT, "xn--80ak6aa92e.com.", "confusable", "refuse",
     IDNG_LK_CONFUSABLE | IDNG_LK_WHOLE_SCRIPT, 0, "apple.com."},
    {PROTECT, "\320\260\321\200\321\200\323\217\320\265.com.", "confusable", "refuse",
     IDNG_LK_CONFUSABLE, 0, "apple.com."},
    {PROTECT, "xn--80aa0cbo65f.com.", "confusable", "refuse", IDNG_LK_CONFUSABLE, 0,
     "paypal.com."},
    {PROTECT, "login.xn--80ak6aa92e.com.", "confusable", "refuse", IDNG_LK_CONFUSABLE, 0,
     "apple.com."},
    /* Whole-script, no protected name: under .com, not under .рф nor .ru. */
    {NONE, "xn--80ak6aa92e.com.", "whole-script", "refuse", IDNG_LK_WHOLE_SCRIPT, 0, NULL},
    {NONE, "xn--80ak6aa92e.COM.", "whole-script", "refuse", IDNG_LK_WHOLE_SCRIPT, 0, NULL},
    {NONE, "\320\260\321\200\321\200\323\217\320\265.com.", "whole-script", "refuse",
     IDNG_LK_WHOLE_SCRIPT, 0, NULL},
    {NONE, "xn--80ak6aa92e.xn--p1ai.", "ok", "pass", 0, IDNG_LK_WHOLE_SCRIPT, NULL},
    {NONE, "xn--80ak6aa92e.ru.", "ok", "pass", 0, IDNG_LK_WHOLE_SCRIPT, NULL},
    {NONE, "xn--80ak6aa92e.RU.", "ok", "pass", 0, IDNG_LK_WHOLE_SCRIPT, NULL},
    /* рус, a word made of Latin-looking letters, is at home under .рф. */
    {NONE, "xn--p1acf.xn--p1ai.", "ok", "pass", 0, 0, NULL},
    {NONE, "xn--p1acf.com.", "whole-script", "refuse", IDNG_LK_WHOLE_SCRIPT, 0, NULL},
    /* A Cyrillic word with letters that look like no Latin one: ok. */
    {NONE, "xn--80adxhks.com.", "ok", "pass", 0, 0, NULL}, /* москва: м, в, к */
    /* Greek under .com, and at home under .gr. */
    {NONE, "xn--mxa.com.", "whole-script", "refuse", IDNG_LK_WHOLE_SCRIPT, 0, NULL}, /* ο */
    {NONE, "xn--mxa.gr.", "ok", "pass", 0, 0, NULL},
    /* Chromium's whole-script letters (tools/lookalike_browser_ws.txt),
     * which neither confusables.txt nor the rendered glyphs give: Tamil
     * TTA, PA (LuLu) under .com; at home under .in, .lk and India's Tamil
     * IDN ccTLD .இந்தியா; a Tamil word with other letters (தமிழ்) is not one. */
    {NONE, "xn--mlca6ab.com.", "whole-script", "refuse", IDNG_LK_WHOLE_SCRIPT, 0, NULL},
    {NONE, "\340\256\237\340\256\252\340\256\237\340\256\252.com.", "whole-script",
     "refuse", IDNG_LK_WHOLE_SCRIPT, 0, NULL},
    {NONE, "xn--mlca6ab.in.", "ok", "pass", 0, IDNG_LK_WHOLE_SCRIPT, NULL},
    {NONE, "xn--mlca6ab.lk.", "ok", "pass", 0, IDNG_LK_WHOLE_SCRIPT, NULL},
    {NONE, "xn--mlca6ab.xn--xkc2dl3a5ee0h.", "ok", "pass", 0, IDNG_LK_WHOLE_SCRIPT, NULL},
    {NONE, "xn--rlcus7b3d.com.", "ok", "pass", 0, 0, NULL},
    {NONE "tld-scripts: com latin,tamil\n", "xn--mlca6ab.com.", "ok", "pass", 0, 0, NULL},
    /* Ethiopic (SZA, PHARYNGEAL A, PA: "wOOT"): .com, not .et; the word
     * Ethiopia in Ethiopic is not one. */
    {NONE, "xn--6xd66aa62c.com.", "whole-script", "refuse", IDNG_LK_WHOLE_SCRIPT, 0, NULL},
    {NONE, "\341\210\240\341\213\220\341\213\220\341\215\220.com.", "whole-script",
     "refuse", IDNG_LK_WHOLE_SCRIPT, 0, NULL},
    {NONE, "xn--6xd66aa62c.et.", "ok", "pass", 0, IDNG_LK_WHOLE_SCRIPT, NULL},
    {NONE, "xn--m0d3gwjla96a.com.", "ok", "pass", 0, 0, NULL},
    /* Thai: .com, not .th nor .ไทย; ไทย itself is not one. */
    {NONE, "xn--o3cedqz2c.com.", "whole-script", "refuse", IDNG_LK_WHOLE_SCRIPT, 0, NULL},
    {NONE, "xn--o3cedqz2c.th.", "ok", "pass", 0, IDNG_LK_WHOLE_SCRIPT, NULL},
    {NONE, "xn--o3cedqz2c.xn--o3cw4h.", "ok", "pass", 0, IDNG_LK_WHOLE_SCRIPT, NULL},
    {NONE, "xn--o3cw4h.com.", "ok", "pass", 0, 0, NULL},
    /* Chromium's sets are one source, judged as Chromium judges them: a
     * label passes for Latin by them only when every letter of its script
     * is in the set.  A Thai mark outside it (ดูดู๋: sara uu) keeps the label
     * out; so does a Greek letter with tonos (άρταινε: ά), though ρ τ α ι ν
     * ε each pass by one source or the other. */
    {NONE, "xn--l3ca4ib4g.com.", "ok", "pass", 0, 0, NULL},
    {NONE, "xn--hxakmpuvv.com.", "ok", "pass", 0, 0, NULL},
    /* Cyrillic yu (сю: "cio"): .com, not .ru. */
    {NONE, "xn--q1a0a.com.", "whole-script", "refuse", IDNG_LK_WHOLE_SCRIPT, 0, NULL},
    {NONE, "\321\201\321\216.com.", "whole-script", "refuse", IDNG_LK_WHOLE_SCRIPT, 0, NULL},
    {NONE, "xn--q1a0a.ru.", "ok", "pass", 0, IDNG_LK_WHOLE_SCRIPT, NULL},
    /* Latin that looks Cyrillic under the Cyrillic IDN ccTLD: ехро.рф in
     * Latin letters (x, o, p, e all have Cyrillic lookalikes). */
    {NONE, "expo.xn--p1ai.", "ok", "pass", 0, 0, NULL},
    /* Japanese under .jp is at home; Katakana no alone is no spoof there. */
    {NONE, "xn--ldk.jp.", "ok", "pass", 0, 0, NULL},
    /* tld-scripts overrides the table. */
    {NONE "tld-scripts: com latin,cyrillic\n", "xn--80ak6aa92e.com.", "ok", "pass", 0, 0, NULL},
    {NONE "tld-scripts: ru latin\n", "xn--80ak6aa92e.ru.", "whole-script", "refuse",
     IDNG_LK_WHOLE_SCRIPT, 0, NULL},
    {NONE "tld-scripts: org none\n", "xn--80ak6aa92e.org.", "ok", "pass", 0, 0, NULL},
    {NONE "tld-scripts: \321\200\321\204 latin\n", "expo.xn--p1ai.", "ok", "pass", 0, 0, NULL},
    {NONE "on-whole-script: log\n", "xn--80ak6aa92e.com.", "whole-script", "log",
     IDNG_LK_WHOLE_SCRIPT, 0, NULL},
    /* Near misses of a protected name: marks dropped (paypál), a letter
     * with a stroke (ł), logged by default; not without the protected name. */
    {PROTECT, "xn--paypl-0qa.com.", "near-miss", "log", IDNG_LK_NEAR_MISS, IDNG_LK_CONFUSABLE,
     "paypal.com."},
    {PROTECT, "xn--paypa-o7a.com.", "near-miss", "log", IDNG_LK_NEAR_MISS, 0, "paypal.com."},
    {NONE, "xn--paypl-0qa.com.", "ok", "pass", 0, 0, NULL},
    {PROTECT "on-near-miss: refuse\n", "xn--paypl-0qa.com.", "near-miss", "refuse",
     IDNG_LK_NEAR_MISS, 0, "paypal.com."},
    /* mark-pattern: i with a dot above, a mark repeated, a solidus overlay. */
    {NONE, "xn--github-qyd.com.", "mark-pattern", "log", IDNG_LK_MARK_PATTERN, 0, NULL},
    {NONE, "xn--x-9fa22n.com.", "mark-pattern", "log", IDNG_LK_MARK_PATTERN, 0, NULL},
    {NONE, "google.xn--comabc-k8d.", "mark-pattern", "log", IDNG_LK_MARK_PATTERN, 0, NULL},
    {NONE, "xn--bcher-kva.com.", "ok", "pass", 0, 0, NULL}, /* bücher */
    /* cjk-pattern: 一 beside a digit in a mixed label; in Han with digits
     * alone it is text as written; Katakana n beside a Latin letter. */
    {NONE, "xn--d12-s18d.cn.", "cjk-pattern", "log", IDNG_LK_CJK_PATTERN, 0, NULL},
    {NONE, "xn--123-p18d.com.", "ok", "pass", 0, 0, NULL},
    {NONE, "xn--b1-xi4a7cvc9f.com.", "ok", "pass", 0, 0, NULL},
    {NONE, "xn--hllo-bpa7979ih5m.cn.", "cjk-pattern", "log", IDNG_LK_CJK_PATTERN, 0, NULL},
    /* digit-lookalike: Gurmukhi 2 3 (23), digits and Georgian k (16კ). */
    {NONE, "xn--qccc.com.", "digit-lookalike", "log", IDNG_LK_DIGIT_LOOKALIKE, 0, NULL},
    {NONE, "xn--16-1ik.com.", "digit-lookalike", "log", IDNG_LK_DIGIT_LOOKALIKE, 0, NULL},
    /* punctuation-like: U+2010 HYPHEN; the middle dot outside l·l. */
    {NONE, "xn--ab-u3t.com.", "punctuation-like", "log", IDNG_LK_PUNCTUATION, 0, NULL},
    {NONE, "xn--l-fda.com.", "punctuation-like", "log", IDNG_LK_PUNCTUATION, 0, NULL},
    {NONE, "xn--coll-7ha.cat.", "ok", "pass", 0, 0, NULL},        /* col·l */
    {NONE, "xn--coll-7ha.com.", "tld-letter", "log", IDNG_LK_TLD_LETTER, 0, NULL},
    /* tld-letter: thorn at home under .is only. */
    {NONE, "xn--acdef-wva.com.", "tld-letter", "log", IDNG_LK_TLD_LETTER, 0, NULL},
    {NONE, "xn--acdef-wva.is.", "ok", "pass", 0, 0, NULL},
    /* Emoji are pictographs, no letters: mixed-script judges a label with
     * its emoji code points (idng_is_emoji) set aside, though UTS #39
     * counts each unrestricted.  Emoji alone, or with letters of one
     * script, or of scripts the level lets mix, are not mixed-script: 💩,
     * 💩💩, i❤ (.ws), 寿司🍣 under .jp and .com, москва💩, ру💩.рф, abc日本💩
     * (Latin and Han: highly restrictive).  Nor are the pieces of emoji
     * sequences: a flag's regional indicators (🇩🇪, de🇩🇪), a skin tone (👍🏽,
     * i👍🏽), the keycap (1⃣, a1⃣); nor © (Extended_Pictographic). */
    {NONE, "xn--ls8h.la.", "ok", "pass", 0, IDNG_LK_MIXED_SCRIPT, NULL},
    {NONE, "xn--ls8ha.la.", "ok", "pass", 0, IDNG_LK_MIXED_SCRIPT, NULL},
    {NONE, "xn--i-7iq.ws.", "ok", "pass", 0, IDNG_LK_MIXED_SCRIPT, NULL},
    {NONE, "xn--sprr0qmo17a.jp.", "ok", "pass", 0, IDNG_LK_MIXED_SCRIPT, NULL},
    {NONE, "xn--sprr0qmo17a.com.", "ok", "pass", 0, IDNG_LK_MIXED_SCRIPT, NULL},
    {NONE, "xn--80adxhks77600g.com.", "ok", "pass", 0, IDNG_LK_MIXED_SCRIPT, NULL},
    {NONE, "xn--p1ag84329a.xn--p1ai.", "ok", "pass", 0, IDNG_LK_MIXED_SCRIPT, NULL},
    {NONE, "xn--abc-v08fl0dc357i.com.", "ok", "pass", 0, IDNG_LK_MIXED_SCRIPT, NULL},
    {NONE, "xn--h77hc.la.", "ok", "pass", 0, IDNG_LK_MIXED_SCRIPT, NULL},
    {NONE, "xn--de-x352aea.la.", "ok", "pass", 0, IDNG_LK_MIXED_SCRIPT, NULL},
    {NONE, "xn--on8h5e.la.", "ok", "pass", 0, IDNG_LK_MIXED_SCRIPT, NULL},
    {NONE, "xn--i-302s3g.la.", "ok", "pass", 0, IDNG_LK_MIXED_SCRIPT, NULL},
    {NONE, "xn--1-2sn.la.", "ok", "pass", 0, IDNG_LK_MIXED_SCRIPT, NULL},
    {NONE, "xn--a1-zku.la.", "ok", "pass", 0, IDNG_LK_MIXED_SCRIPT, NULL},
    {NONE, "xn--ab-tda.la.", "ok", "pass", 0, IDNG_LK_MIXED_SCRIPT, NULL},
    /* ...in raw UTF-8 too (judged as what it normalizes to: 💩, i❤️ whose
     * VS16 UTS #46 ignores). */
    {NONE, "\360\237\222\251.la.", "raw-8bit", "normalize", 0, IDNG_LK_MIXED_SCRIPT, NULL},
    {NONE, "i\342\235\244\357\270\217.ws.", "raw-8bit", "normalize", 0, IDNG_LK_MIXED_SCRIPT,
     NULL},
    /* ...but letters that mix still do, an emoji beside them or not:
     * pаypal💩 and 💩pаypal (Cyrillic а), pαypal💩 (Greek α). */
    {NONE, "xn--pypal-4ve79700g.com.", "mixed-script", "log", IDNG_LK_MIXED_SCRIPT, 0, NULL},
    {NONE, "xn--pypal-4ve19700g.com.", "mixed-script", "log", IDNG_LK_MIXED_SCRIPT, 0, NULL},
    {NONE, "xn--pypal-d9d68610g.com.", "mixed-script", "log", IDNG_LK_MIXED_SCRIPT, 0, NULL},
    /* ...and the invisible pieces (ZWJ, VS16, tags) are set aside inside an
     * emoji sequence only: 👨‍👩‍👧, the flag of England (🏴 and tags), ❤️
     * and i❤️ pass punycode mode (which checks no CONTEXTJ nor mapping),
     * and the family fails CONTEXTJ alone under uts46; a ZWJ, a VS16 or a
     * tag between Latin letters hides itself (ab), and stays mixed-script. */
    {NONE "mode: punycode\n", "xn--1uga80807abag.la.", "ok", "pass", 0, IDNG_LK_MIXED_SCRIPT,
     NULL},
    {NONE "mode: punycode\n", "xn--fn8h24640cjagc5b3h.la.", "ok", "pass", 0,
     IDNG_LK_MIXED_SCRIPT, NULL},
    {NONE "mode: punycode\n", "xn--qei9934e.la.", "ok", "pass", 0, IDNG_LK_MIXED_SCRIPT, NULL},
    {NONE "mode: punycode\n", "xn--i-7iqv272g.la.", "ok", "pass", 0, IDNG_LK_MIXED_SCRIPT,
     NULL},
    {NONE, "xn--1uga80807abag.la.", "contextj", "refuse", 0, IDNG_LK_MIXED_SCRIPT, NULL},
    {NONE "mode: punycode\n", "xn--ab-m1t.la.", "mixed-script", "log", IDNG_LK_MIXED_SCRIPT, 0,
     NULL},
    {NONE "mode: punycode\n", "xn--ab-372n.la.", "mixed-script", "log", IDNG_LK_MIXED_SCRIPT, 0,
     NULL},
    {NONE "mode: punycode\n", "xn--ab-d506t.la.", "mixed-script", "log", IDNG_LK_MIXED_SCRIPT, 0,
     NULL},
    /* ...and an emoji that confusables.txt maps to another character
     * looks like it: abc➖def (HEAVY MINUS SIGN, '-') stays mixed-script;
     * so does one UTS #46 maps (a™, TRADE MARK SIGN, in punycode mode). */
    {NONE, "xn--abcdef-kg1d.com.", "mixed-script", "log", IDNG_LK_MIXED_SCRIPT, 0, NULL},
    {NONE "mode: punycode\n", "xn--a-own.la.", "mixed-script", "log", IDNG_LK_MIXED_SCRIPT, 0,
     NULL},
    /* ...and a label with an emoji is no ASCII label: ascii-only still
     * flags it; single-script lets i❤ through, not Latin with Han. */
    {NONE "restriction-level: ascii-only\n", "xn--ls8h.la.", "mixed-script", "log",
     IDNG_LK_MIXED_SCRIPT, 0, NULL},
    {NONE "restriction-level: ascii-only\n", "xn--i-7iq.ws.", "mixed-script", "log",
     IDNG_LK_MIXED_SCRIPT, 0, NULL},
    {NONE "restriction-level: single-script\n", "xn--i-7iq.ws.", "ok", "pass", 0,
     IDNG_LK_MIXED_SCRIPT, NULL},
    {NONE "restriction-level: single-script\n", "xn--abc-v08fl0dc357i.com.", "mixed-script",
     "log", IDNG_LK_MIXED_SCRIPT, 0, NULL},
    /* protect-suffixes: any: the registrable label under another suffix. */
    {PROTECT "protect-suffixes: any\n", "xn--pypal-4ve.co.uk.", "confusable", "refuse",
     IDNG_LK_CONFUSABLE, 0, "paypal.com."},
    {PROTECT "protect-suffixes: any\n", "p\320\260ypal.co.uk.", "confusable", "refuse",
     IDNG_LK_CONFUSABLE, 0, "paypal.com."},
    {PROTECT "protect-suffixes: any\n", "www.xn--pypal-4ve.github.io.", "confusable", "refuse",
     IDNG_LK_CONFUSABLE, 0, "paypal.com."},
    {PROTECT, "xn--pypal-4ve.co.uk.", "mixed-script", "log", 0, IDNG_LK_CONFUSABLE, NULL},
    {PROTECT "protect-suffixes: any\n", "paypal.co.uk.", "ok", "pass", 0, 0, NULL},
    {"idnguard:\nprotect: xn--bcher-kva.de\nprotect-suffixes: any\n", "xn--bcher-kva.com.", "ok",
     "pass", 0, 0, NULL},
    {"idnguard:\nprotect: xn--bcher-kva.de\nprotect-suffixes: any\n", "xn--bcher-kva.de.", "ok",
     "pass", 0, 0, NULL},
    /* protect-embedded: yes: pаypal-login, logged; not a whole label. */
    {PROTECT "protect-embedded: yes\n", "xn--pypal-login-yij.com.", "mixed-script", "log",
     IDNG_LK_EMBEDS_PROTECTED, 0, NULL},
    {PROTECT "protect-embedded: yes\non-mixed-script: pass\n", "xn--pypal-login-yij.com.",
     "embeds-protected", "log", IDNG_LK_EMBEDS_PROTECTED, 0, "paypal.com."},
    {PROTECT, "xn--pypal-login-yij.com.", "mixed-script", "log", 0, IDNG_LK_EMBEDS_PROTECTED,
     NULL},
    {PROTECT "protect-embedded: yes\n", "xn--80ak6aa92e.com.", "confusable", "refuse",
     IDNG_LK_CONFUSABLE, IDNG_LK_EMBEDS_PROTECTED, "apple.com."},
    /* The keys a label is matched with protected names by set its emoji
     * aside as mixed-script does: an emoji hides no lookalike.  раураӏ🍎
     * (Cyrillic) under .ru, with paypal.ru protected, and with paypal.com
     * and protect-suffixes: any; раураӏ💩.com; 🍎раураӏ-login embeds paypal;
     * 🔒google.com (Chromium's padlock spoof); pay🍎pal.  A protected label
     * with an emoji is another name that looks like it: paypal🍎.com. */
    {"idnguard:\nprotect: paypal.ru\nprotect-suffixes: any\n", "xn--80aa0cbo65fh234w.ru.",
     "confusable", "refuse", IDNG_LK_CONFUSABLE, 0, "paypal.ru."},
    {"idnguard:\nprotect: paypal.ru\n", "xn--80aa0cbo65fh234w.ru.", "confusable", "refuse",
     IDNG_LK_CONFUSABLE, 0, "paypal.ru."},
    {PROTECT "protect-suffixes: any\n", "xn--80aa0cbo65fh234w.ru.", "confusable", "refuse",
     IDNG_LK_CONFUSABLE, 0, "paypal.com."},
    {PROTECT, "xn--80aa0cbo65fv105w.com.", "confusable", "refuse", IDNG_LK_CONFUSABLE, 0,
     "paypal.com."},
    {PROTECT, "\321\200\320\260\321\203\321\200\320\260\323\217\360\237\215\216.com.",
     "confusable", "refuse", IDNG_LK_CONFUSABLE, 0, "paypal.com."},
    {PROTECT "protect-embedded: yes\non-mixed-script: pass\n",
     "xn---login-2nfa6lb6a64mm9074a.com.", "embeds-protected", "log", IDNG_LK_EMBEDS_PROTECTED,
     0, "paypal.com."},
    {"idnguard:\nprotect: google.com\n", "xn--google-hj64e.com.", "confusable", "refuse",
     IDNG_LK_CONFUSABLE, 0, "google.com."},
    {PROTECT, "xn--paypal-5x34e.com.", "confusable", "refuse", IDNG_LK_CONFUSABLE, 0,
     "paypal.com."},
    {PROTECT, "xn--paypal-8x34e.com.", "confusable", "refuse", IDNG_LK_CONFUSABLE, 0,
     "paypal.com."},
    /* ...what stays: the protected name itself; names of emoji alone, and
     * emoji names near no protected name (🍎, 🍎🍎, i❤.ws, 💩.la); a
     * protected name of emoji alone keys as its emoji (🍔.ws is no 🍕.ws); a
     * protected name with an emoji keys without it, as any name does, so
     * і❤.ws (Cyrillic і) still looks like i❤.ws, which is itself. */
    {PROTECT, "paypal.com.", "ok", "pass", 0, 0, NULL},
    {PROTECT "protect-suffixes: any\nprotect-embedded: yes\n", "xn--oi8h.com.", "ok", "pass", 0,
     0, NULL},
    {PROTECT "protect-suffixes: any\nprotect-embedded: yes\n", "xn--oi8ha.com.", "ok", "pass", 0,
     0, NULL},
    {PROTECT "protect-suffixes: any\nprotect-embedded: yes\n", "xn--i-7iq.ws.", "ok", "pass", 0,
     0, NULL},
    {PROTECT "protect-suffixes: any\nprotect-embedded: yes\n", "xn--ls8h.la.", "ok", "pass", 0, 0,
     NULL},
    {"idnguard:\nprotect: xn--vi8h.ws\nprotect-suffixes: any\n", "xn--ui8h.ws.", "ok", "pass", 0,
     0, NULL},
    {"idnguard:\nprotect: xn--vi8h.ws\nprotect-suffixes: any\n", "xn--vi8h.com.", "ok", "pass",
     0, 0, NULL},
    {"idnguard:\nprotect: xn--i-7iq.ws\n", "xn--i-7iq.ws.", "ok", "pass", 0, 0, NULL},
    {"idnguard:\nprotect: xn--i-7iq.ws\n", "xn--c2a260p.ws.", "confusable", "refuse",
     IDNG_LK_CONFUSABLE, 0, "xn--i-7iq.ws."},
    /* ...and so another emoji for its own is a lookalike of it: i💙.ws. */
    {"idnguard:\nprotect: xn--i-7iq.ws\n", "xn--i-092s.ws.", "confusable", "refuse",
     IDNG_LK_CONFUSABLE, 0, "xn--i-7iq.ws."},
    /* An attacker's review: a mark that lists some scripts only (U+1DF8,
     * U+0483) does not narrow what a label can pass for. */
    {NONE, "xn--80ak6aa92ee58i.com.", "whole-script", "refuse", IDNG_LK_WHOLE_SCRIPT, 0, NULL},
    {NONE, "xn--80ak6aa05a8o.com.", "whole-script", "refuse", IDNG_LK_WHOLE_SCRIPT, 0, NULL},
    /* ...the order of protect lines does not decide: a protected name is
     * never its own lookalike, and аррӏе.kz looks like apple.com. */
    {"idnguard:\nprotect: apple.com\nprotect: xn--80ak6aa92e.ru\nprotect-suffixes: any\n",
     "xn--80ak6aa92e.ru.", "ok", "pass", 0, IDNG_LK_CONFUSABLE, NULL},
    {"idnguard:\nprotect: apple.com\nprotect: xn--80ak6aa92e.ru\nprotect-suffixes: any\n",
     "www.xn--80ak6aa92e.ru.", "ok", "pass", 0, IDNG_LK_CONFUSABLE, NULL},
    {"idnguard:\nprotect: xn--80ak6aa92e.ru\nprotect: apple.com\nprotect-suffixes: any\n",
     "xn--80ak6aa92e.kz.", "confusable", "refuse", IDNG_LK_CONFUSABLE, 0, "apple.com."},
    {"idnguard:\nprotect: apple.com\nprotect: xn--80ak6aa92e.ru\nprotect-suffixes: any\n",
     "xn--80ak6aa92e.kz.", "confusable", "refuse", IDNG_LK_CONFUSABLE, 0, "apple.com."},
    /* ...letters outside the Allowed set still key (wynn as p); a dotless i
     * with a dot above is i; capitals (Cherokee, Lisu APPLE) read as small. */
    {PROTECT, "xn--aypal-ytb.com.", "confusable", "refuse", IDNG_LK_CONFUSABLE, 0, "paypal.com."},
    {"idnguard:\nprotect: microsoft.com\n", "xn--mcrosoft-tkb418b.com.", "confusable", "refuse",
     IDNG_LK_CONFUSABLE, 0, "microsoft.com."},
    {PROTECT, "xn--g9de3mpaa.com.", "confusable", "refuse", IDNG_LK_CONFUSABLE, 0, "apple.com."},
    {PROTECT, "xn--4l8aa2c7bn.com.", "confusable", "refuse", IDNG_LK_CONFUSABLE, 0, "apple.com."},
};

START_TEST(test_rule_row)
{
    const struct row *r = &rows[_i];
    struct idng_conf c;
    struct idng_verdict v;
    char err[512], ede[512];
    uint8_t w[300];
    size_t n = t_wire(r->name, w);

    idng_conf_init(&c);
    ck_assert_msg(idng_conf_parse(&c, r->conf, strlen(r->conf), "t.conf", err, sizeof err) == 0,
                  "%s", err);
    idng_policy_judge(&c.policy, w, n, &v);
    idng_policy_ede_text(&v, ede, sizeof ede);
    ck_assert_msg(strcmp(idng_verdict_name(&v), r->verdict) == 0
                      && strcmp(idng_action_name(v.action), r->action) == 0
                      && (v.lookalike & r->has) == r->has && (v.lookalike & r->hasnt) == 0,
                  "row %d: %s judged %s/%s lookalike=%s (want %s/%s)", _i, r->name,
                  idng_verdict_name(&v), idng_action_name(v.action),
                  v.lookalike ? idng_lookalike_name(v.lookalike) : "-", r->verdict, r->action);
    if (r->like != NULL) {
        char want[128];
        snprintf(want, sizeof want, ": looks like %s", r->like);
        ck_assert_msg(strstr(ede, want) != NULL, "row %d: %s: EDE text '%s' lacks '%s'", _i,
                      r->name, ede, want);
    }
    idng_conf_free(&c);
}
END_TEST

/* The codec's own answers, which the rows rest on. */
START_TEST(test_codec_whole_script)
{
    uint32_t apple[] = {0x430, 0x440, 0x440, 0x4CF, 0x435}, moskva[] = {0x43C, 0x43E, 0x441,
                                                                        0x43A, 0x432, 0x430};
    uint32_t latin[] = {'e', 'x', 'p', 'o'}, digits[] = {'1', '2'}, mixed[] = {'a', 0x430};
    unsigned own;

    ck_assert_uint_ne(idng_whole_script(apple, 5, &own) & IDNG_SCRIPT_LATIN, 0);
    ck_assert_uint_eq(own, IDNG_SCRIPT_CYRILLIC);
    ck_assert_uint_eq(idng_whole_script(moskva, 6, &own) & IDNG_SCRIPT_LATIN, 0);
    ck_assert_uint_ne(idng_whole_script(latin, 4, &own) & IDNG_SCRIPT_CYRILLIC, 0);
    ck_assert_uint_eq(own, IDNG_SCRIPT_LATIN);
    ck_assert_uint_eq(idng_whole_script(digits, 2, &own), 0);
    ck_assert_uint_eq(own, IDNG_SCRIPTS_ALL);
    ck_assert_uint_eq(idng_whole_script(mixed, 2, &own), 0);
    ck_assert_uint_eq(own, IDNG_SCRIPTS_ALL);
}
END_TEST

/* Every emoji code point makes its label unrestricted (none is in UTS
 * #39's Allowed set): core/lookalike.c sets emoji aside only in labels
 * of that level, so that the common label pays nothing. */
START_TEST(test_codec_emoji_unrestricted)
{
    uint32_t cp, label[2] = {'a', 0};
    size_t count = 0;

    for (cp = 0; cp <= 0x10FFFF; cp++) {
        if (!idng_is_emoji(cp))
            continue;
        label[1] = cp;
        count++;
        ck_assert_msg(idng_restriction_level(label, 2) == IDNG_RL_UNRESTRICTED,
                      "U+%04X is an emoji but a label with it is not unrestricted", (unsigned)cp);
    }
    ck_assert_uint_gt(count, 1000);
}
END_TEST

/* idng_in_scripts, what idn-scripts rests on: every code point of a
 * script must have one of the scripts given; Common and Inherited ones go
 * with the rest; a label of those only is -1. */
static const struct {
    const char *what;
    uint32_t cps[6];
    size_t n;
    unsigned scripts;
    int want;
} in_scripts[] = {
    {"bücher", {'b', 0xFC, 'c', 'h', 'e', 'r'}, 6, IDNG_SCRIPT_LATIN, 1},
    {"bücher, Cyrillic only", {'b', 0xFC, 'c', 'h', 'e', 'r'}, 6, IDNG_SCRIPT_CYRILLIC, 0},
    {"правда", {0x43F, 0x440, 0x430, 0x432, 0x434, 0x430}, 6, IDNG_SCRIPT_CYRILLIC, 1},
    {"правда, Latin only", {0x43F, 0x440, 0x430, 0x432, 0x434, 0x430}, 6, IDNG_SCRIPT_LATIN, 0},
    {"a and Cyrillic a, Latin", {'a', 0x430}, 2, IDNG_SCRIPT_LATIN, 0},
    {"a and Cyrillic a, both", {'a', 0x430}, 2, IDNG_SCRIPT_LATIN | IDNG_SCRIPT_CYRILLIC, 1},
    {"e with a combining acute", {'e', 0x301}, 2, IDNG_SCRIPT_LATIN, 1},
    {"u-umlaut and an emoji", {0xFC, 0x1F600}, 2, IDNG_SCRIPT_LATIN, 1},
    {"an emoji", {0x1F4A9}, 1, IDNG_SCRIPTS_ALL, -1},
    {"digits and a hyphen", {'1', '-', '2'}, 3, IDNG_SCRIPT_LATIN, -1},
    {"l middle-dot l", {'l', 0xB7, 'l'}, 3, IDNG_SCRIPT_LATIN, 1},
    {"Han and Hiragana", {0x65E5, 0x672C, 0x3054}, 3, IDNG_SCRIPT_CJK, 1},
    {"Katakana and the prolonged sound mark", {0x30AB, 0x30FC}, 2, IDNG_SCRIPT_CJK, 1},
    {"Hangul", {0xD55C, 0xAD6D}, 2, IDNG_SCRIPT_CJK, 1},
    {"ASCII and Han, CJK only", {'a', 0x65E5}, 2, IDNG_SCRIPT_CJK, 0},
    {"Devanagari ka with a vowel sign", {0x915, 0x93F}, 2, IDNG_SCRIPT_DEVANAGARI, 1},
    {"Devanagari, Latin only", {0x915, 0x93F}, 2, IDNG_SCRIPT_LATIN, 0},
    {"Tifinagh, no script of the list", {0x2D30}, 1, IDNG_SCRIPTS_ALL, 0},
    {"not a scalar value", {'a', 0x110000}, 2, IDNG_SCRIPTS_ALL, 0},
};

START_TEST(test_codec_in_scripts)
{
    int got = idng_in_scripts(in_scripts[_i].cps, in_scripts[_i].n, in_scripts[_i].scripts);

    ck_assert_msg(got == in_scripts[_i].want, "%s: %d, want %d", in_scripts[_i].what, got,
                  in_scripts[_i].want);
}
END_TEST

START_TEST(test_codec_keys)
{
    /* Palochka is i to UTS #39 and l with the extra mappings; ł folds to l. */
    uint32_t palochka[] = {0x4CF}, stroke[] = {0x142}, acute[] = {'a', 0x301}, out[16];
    size_t n = 16;

    ck_assert_int_eq(idng_skeleton_ex(palochka, 1, 0, out, &n), IDNG_OK);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(out[0], 'i');
    n = 16;
    ck_assert_int_eq(idng_skeleton_ex(palochka, 1, IDNG_SK_EXTRA, out, &n), IDNG_OK);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(out[0], 'l');
    n = 16;
    ck_assert_int_eq(idng_skeleton_ex(stroke, 1, IDNG_SK_FOLD, out, &n), IDNG_OK);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(out[0], 'l');
    n = 16;
    ck_assert_int_eq(idng_skeleton_ex(acute, 2, IDNG_SK_FOLD, out, &n), IDNG_OK);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(out[0], 'a');
    n = 1;
    ck_assert_int_eq(idng_skeleton_ex(acute, 2, 0, out, &n), IDNG_E_NOSPACE);
    ck_assert_int_eq(idng_skeleton_ex(acute, IDNG_LABEL_MAX + 2, IDNG_SK_FOLD, out, &n),
                     IDNG_E_INVAL);
}
END_TEST

/* Code points that each rule of a label's judgment asks about: letters of
 * several scripts (some with prototypes, extra mappings or whole-script
 * masks), marks, digits of four scripts, the punctuation-like and TLD
 * letters, the Kana of the cjk rules, emoji pieces. */
static const uint32_t judge_pool[] = {
    'a',    'l',    'p',    'i',    '0',    '1',    '5',     '-',    0xE9,   0xB7,
    0xFE,   0xF0,   0x259,  0x131,  0x237,  0x301,  0x307,   0x335,  0x430,  0x440,
    0x43B,  0x4CF,  0x3B1,  0x3BF,  0x58A,  0x2BC,  0x2019,  0x2010, 0x30FC, 0x30CE,
    0x3078, 0x30D8, 0x30A2, 0x3042, 0x3099, 0x4E00, 0x5341,  0x4E2D, 0xAC00, 0x9E6,
    0x966,  0x660,  0x6F0,  0x628,  0x5D0,  0xE01,  0x1F600, 0x200D, 0x13A0};

/* idng_judge_label(s, ents) must be idng_uts39_label, then idng_spoof_label;
 * fails naming what differs. */
static void judge_as_two(const uint32_t *s, const uint16_t *ents, size_t n)
{
    struct idng_spoof_facts one, two;
    int mixed_one = -1, mixed_two = -1;
    idng_restriction level_one = idng_judge_label(s, ents, n, &mixed_one, &one);
    idng_restriction level_two = idng_uts39_label(s, n, &mixed_two);
    size_t i;
    char text[256];
    int at = 0;

    idng_spoof_label(s, n, level_two, &two);
    for (i = 0; i < n && at < (int)sizeof text - 10; i++)
        at += snprintf(text + at, sizeof text - (size_t)at, " %04lX", (unsigned long)s[i]);
    ck_assert_msg(level_one == level_two && mixed_one == mixed_two && one.ws_own == two.ws_own
                      && one.ws_pass == two.ws_pass && one.patterns == two.patterns
                      && one.tld_letters == two.tld_letters && one.keys == two.keys,
                  "[%s ] (entries %s): level %d/%d, mixed %d/%d, ws_own %x/%x, ws_pass %x/%x, "
                  "patterns %x/%x, tld %x/%x, keys %x/%x",
                  text, ents ? "the validation's" : "looked up", (int)level_one, (int)level_two,
                  mixed_one, mixed_two, one.ws_own, two.ws_own, one.ws_pass, two.ws_pass,
                  one.patterns, two.patterns, one.tld_letters, two.tld_letters, one.keys, two.keys);
}

static size_t judged_with_ents;

/* An idng_label_fn: the label judged with the validation's entries and
 * with its own lookups. */
static void judge_handed(void *ctx, size_t off, size_t len, const uint32_t *cps,
                         const uint16_t *ents, size_t n)
{
    (void)ctx;
    (void)off;
    (void)len;
    if (cps == NULL)
        return;
    if (ents != NULL) {
        judged_with_ents++;
        judge_as_two(cps, ents, n);
    }
    judge_as_two(cps, NULL, n);
}

/* The one-pass judgment of a label (idng_judge_label) gives what its two
 * passes give, on labels drawn from judge_pool (and a code point past
 * U+10FFFF now and then), with the entries the validation hands over
 * (idng_wire_check_labels) and without. */
START_TEST(test_codec_judge_label)
{
    uint32_t seed = 0x6a75646u, s[12];
    size_t k, i, n;

    judged_with_ents = 0;
    for (k = 0; k < 20000; k++) {
        uint8_t wire[IDNG_WIRE_MAX];
        char a[IDNG_LABEL_MAX];
        size_t alen = sizeof a - 4, cnt;
        idng_error each[IDNG_LABELS_MAX];
        n = 1 + t_xorshift32(&seed) % 12;
        for (i = 0; i < n; i++)
            s[i] = judge_pool[t_xorshift32(&seed) % (sizeof judge_pool / sizeof judge_pool[0])];
        if (k % 97 == 0)
            s[t_xorshift32(&seed) % n] = 0x110000;
        judge_as_two(s, NULL, n);
        memcpy(a, "xn--", 4);
        if (idng_punycode_encode(s, n, NULL, a + 4, &alen) != IDNG_OK)
            continue;
        wire[0] = (uint8_t)(alen + 4);
        memcpy(wire + 1, a, alen + 4);
        wire[alen + 5] = 0;
        idng_wire_check_labels(wire, alen + 6, IDNG_MODE_UTS46, each, IDNG_LABELS_MAX, &cnt,
                               judge_handed, NULL);
    }
    /* The validation handed its entries over for most of them. */
    ck_assert_uint_gt(judged_with_ents, 10000);
}
END_TEST

/* Where idng_skeleton_keys says a key cannot differ, it does not: every
 * code point of the first two planes, under each flag it leaves out. */
START_TEST(test_codec_skeleton_keys)
{
    static const unsigned flags[] = {IDNG_SK_EXTRA, IDNG_SK_EXTRA | IDNG_SK_FOLD};
    uint32_t zero[] = {'0'}, a[] = {'a'}, e_acute[] = {0xE9}, cp, sk[64], ex[64];
    size_t k, n, m;

    ck_assert_uint_eq(idng_skeleton_keys(zero, 1), IDNG_SK_EXTRA | IDNG_SK_FOLD);
    ck_assert_uint_eq(idng_skeleton_keys(a, 1), 0);
    ck_assert_uint_eq(idng_skeleton_keys(e_acute, 1) & IDNG_SK_FOLD, IDNG_SK_FOLD);
    for (cp = 0; cp < 0x20000; cp++) {
        unsigned differs = idng_skeleton_keys(&cp, 1);
        if (cp - 0xD800 < 0x800)
            continue;
        n = sizeof sk / sizeof sk[0];
        ck_assert_int_eq(idng_skeleton(&cp, 1, sk, &n), IDNG_OK);
        for (k = 0; k < sizeof flags / sizeof flags[0]; k++) {
            if (differs & flags[k])
                continue;
            m = sizeof ex / sizeof ex[0];
            ck_assert_int_eq(idng_skeleton_ex(&cp, 1, flags[k], ex, &m), IDNG_OK);
            ck_assert_msg(m == n && memcmp(sk, ex, n * sizeof *sk) == 0,
                          "U+%04X: key under flags %u differs", (unsigned)cp, flags[k]);
        }
    }
}
END_TEST

/* Names added after idng_protect_reserve, the keys trimmed after, are
 * found as those of a set grown a name at a time; trimming gives room
 * back and more names may follow. */
START_TEST(test_protect_reserve_trim)
{
    static const char *const names[] = {"paypal.com", "g00gle.com", "xn--bcher-kva.de",
                                        "apple.com"};
    struct idng_protect grown, sized;
    struct idng_lookalike a, b;
    uint8_t wire[IDNG_WIRE_MAX];
    size_t i, wlen, before;

    idng_protect_init(&grown);
    idng_protect_init(&sized);
    ck_assert_int_eq(idng_protect_reserve(&sized, 3), 0);
    for (i = 0; i < 4; i++) {
        wlen = sizeof wire;
        ck_assert_int_eq(idng_text_to_wire(names[i], strlen(names[i]), wire, &wlen, NULL), IDNG_OK);
        ck_assert_int_eq(idng_protect_add(&grown, wire, wlen), 0);
        ck_assert_int_eq(idng_protect_add(&sized, wire, wlen), 0);
        if (i == 2) {
            before = idng_protect_mem(&sized);
            idng_protect_trim(&sized);
            ck_assert_uint_lt(idng_protect_mem(&sized), before);
        }
    }
    ck_assert_int_eq(idng_protect_add(&sized, wire, wlen), 1);
    {
        static const char *const asked[] = {"xn--pypal-4ve.com", "xn--ggle-55da.com",
                                            "xn--bcher-kva.com", "xn--ppl-o1a.com"};
        for (i = 0; i < sizeof asked / sizeof asked[0]; i++) {
            wlen = sizeof wire;
            ck_assert_int_eq(idng_text_to_wire(asked[i], strlen(asked[i]), wire, &wlen, NULL),
                             IDNG_OK);
            idng_lookalike_scan(&grown, IDNG_RL_MODERATELY, IDNG_MODE_UTS46, wire, wlen, &a);
            idng_lookalike_scan(&sized, IDNG_RL_MODERATELY, IDNG_MODE_UTS46, wire, wlen, &b);
            ck_assert_uint_eq(a.found, b.found);
            if (a.found & (IDNG_LK_CONFUSABLE | IDNG_LK_NEAR_MISS))
                ck_assert_uint_eq(a.like, b.like);
        }
        wlen = sizeof wire;
        ck_assert_int_eq(idng_text_to_wire(asked[0], strlen(asked[0]), wire, &wlen, NULL), IDNG_OK);
        idng_lookalike_scan(&sized, IDNG_RL_MODERATELY, IDNG_MODE_UTS46, wire, wlen, &b);
        ck_assert_uint_ne(b.found & IDNG_LK_CONFUSABLE, 0);
        ck_assert_uint_eq(b.like, 0);
    }
    idng_protect_free(&grown);
    idng_protect_free(&sized);
}
END_TEST

/* The settings' errors name the value and the reason. */
START_TEST(test_settings_errors)
{
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"idnguard:\ntld-scripts: com klingon\n", "bad script 'klingon'"},
        {"idnguard:\ntld-scripts: example.com latin\n", "give one label"},
        {"idnguard:\ntld-scripts: com\n", "expected 'TLD SCRIPT"},
        {"idnguard:\nprotect-suffixes: some\n", "protect-suffixes"},
        {"idnguard:\nprotect-embedded: maybe\n", "protect-embedded"},
    };
    size_t i;

    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct idng_conf c;
        char err[512];
        idng_conf_init(&c);
        ck_assert_msg(idng_conf_parse(&c, bad[i].text, strlen(bad[i].text), "t.conf", err,
                                      sizeof err)
                          != 0,
                      "%s was accepted", bad[i].text);
        ck_assert_msg(strstr(err, bad[i].want) != NULL, "error '%s' lacks '%s'", err,
                      bad[i].want);
        idng_conf_free(&c);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("lookalike_rules");
    TCase *tc = tcase_create("rules");

    tcase_add_loop_test(tc, test_rule_row, 0, (int)(sizeof rows / sizeof rows[0]));
    tcase_add_test(tc, test_codec_whole_script);
    tcase_add_test(tc, test_codec_emoji_unrestricted);
    tcase_add_loop_test(tc, test_codec_in_scripts, 0,
                        (int)(sizeof in_scripts / sizeof in_scripts[0]));
    tcase_add_test(tc, test_codec_keys);
    tcase_add_test(tc, test_codec_judge_label);
    tcase_add_test(tc, test_codec_skeleton_keys);
    tcase_add_test(tc, test_protect_reserve_trim);
    tcase_add_test(tc, test_settings_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return t_run_suite(suite());
}
