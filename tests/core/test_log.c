/**
 * \file
 * Log lines (core/idng_log.c): golden text and JSON lines per kind of
 * query, hostile names (control octets, bidi controls raw and inside
 * A-labels, joiners), malformed wire names, the mnemonics, and properties
 * over 100000 random wire names: no control octet, no DEL, no invisible or
 * bidi code point, valid UTF-8, one valid JSON object with every key, the
 * fields agree with idng_display_name / idng_display_unicode, and truncation at any
 * capacity yields a prefix that ends between escapes.
 */
#include "common.h"
#include "idng_log.h"
#include "idng_lookalike.h"
#include "idnguard.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


#define T_SEC 1795240412LL /* 2026-11-21T05:53:32Z */
#define T_USEC 123456L

struct golden {
    const char *what;
    const char *wire;
    size_t wire_len;
    uint16_t qtype, qclass;
    int rcode;
    const char *client;
    unsigned port;
    const char *verdict;
    const char *label;
    size_t label_len;
    const char *action, *path;
    idng_mode mode;
    int ede, with_time;
    const char *text, *json;
    unsigned lookalike; /* IDNG_LK_* bits */
};

#define P IDNG_MODE_PUNYCODE
#define I IDNG_MODE_IDNA2008
#define U IDNG_MODE_UTS46
#define NOLABEL NULL, 0

static const struct golden golden[] = {
    {"valid IDN with Unicode", BYTES("\015xn--bcher-kva\007example\000"), 1, 1, 0,
     "127.0.0.1", 53210, "ok", NOLABEL, "pass", "resolved", U, -1, 1,
     "2026-11-21T05:53:32.123456Z 127.0.0.1#53210 xn--bcher-kva.example. (bücher.example.) "
     "A IN NOERROR ok pass resolved",
     "{\"time\":\"2026-11-21T05:53:32.123456Z\",\"client\":\"127.0.0.1\",\"port\":53210,"
     "\"qname\":\"xn--bcher-kva.example.\",\"qname_unicode\":\"bücher.example.\","
     "\"lookalike\":null,\"qtype\":\"A\",\"qclass\":\"IN\",\"rcode\":\"NOERROR\",\"verdict\":\"ok\","
     "\"label\":null,\"action\":\"pass\",\"path\":\"resolved\",\"ede\":null,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    {"A-label in upper case", BYTES("\015XN--BCHER-KVA\007Example\000"), 1, 1, 0, "::1", 5353,
     "ok", NOLABEL, "pass", "cache", I, -1, 0,
     "::1#5353 XN--BCHER-KVA.Example. (bücher.Example.) A IN NOERROR ok pass cache",
     "{\"time\":null,\"client\":\"::1\",\"port\":5353,"
     "\"qname\":\"XN--BCHER-KVA.Example.\",\"qname_unicode\":\"bücher.Example.\","
     "\"lookalike\":null,\"qtype\":\"A\",\"qclass\":\"IN\",\"rcode\":\"NOERROR\",\"verdict\":\"ok\","
     "\"label\":null,\"action\":\"pass\",\"path\":\"cache\",\"ede\":null,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    {"ASCII name, no Unicode part", BYTES("\003www\007example\003com\000"), 28, 1, 0, "::1",
     5353, "ok", NOLABEL, "pass", "cache", U, -1, 0,
     "::1#5353 www.example.com. AAAA IN NOERROR ok pass cache",
     "{\"time\":null,\"client\":\"::1\",\"port\":5353,\"qname\":\"www.example.com.\","
     "\"qname_unicode\":null,\"lookalike\":null,\"qtype\":\"AAAA\",\"qclass\":\"IN\",\"rcode\":\"NOERROR\","
     "\"verdict\":\"ok\",\"label\":null,\"action\":\"pass\",\"path\":\"cache\",\"ede\":null,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    {"emoji name", BYTES("\010xn--ls8h\002la\000"), 1, 1, 0, "192.0.2.1", 1024, "ok", NOLABEL,
     "log", "resolved", U, -1, 1,
     "2026-11-21T05:53:32.123456Z 192.0.2.1#1024 xn--ls8h.la. (\xf0\x9f\x92\xa9.la.) "
     "A IN NOERROR ok log resolved",
     "{\"time\":\"2026-11-21T05:53:32.123456Z\",\"client\":\"192.0.2.1\",\"port\":1024,"
     "\"qname\":\"xn--ls8h.la.\",\"qname_unicode\":\"\xf0\x9f\x92\xa9.la.\","
     "\"lookalike\":null,\"qtype\":\"A\",\"qclass\":\"IN\",\"rcode\":\"NOERROR\",\"verdict\":\"ok\","
     "\"label\":null,\"action\":\"log\",\"path\":\"resolved\",\"ede\":null,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    {"refused fake label (a ZWJ b)", BYTES("\012xn--ab-m1t\007example\000"), 1, 1, 5,
     "127.0.0.1", 53210, "contextj", BYTES("xn--ab-m1t"), "refuse", "policy", U, 15, 1,
     "2026-11-21T05:53:32.123456Z 127.0.0.1#53210 xn--ab-m1t.example. A IN REFUSED "
     "contextj:xn--ab-m1t refuse policy ede=15",
     "{\"time\":\"2026-11-21T05:53:32.123456Z\",\"client\":\"127.0.0.1\",\"port\":53210,"
     "\"qname\":\"xn--ab-m1t.example.\",\"qname_unicode\":null,\"lookalike\":null,\"qtype\":\"A\","
     "\"qclass\":\"IN\",\"rcode\":\"REFUSED\",\"verdict\":\"contextj\","
     "\"label\":\"xn--ab-m1t\",\"action\":\"refuse\",\"path\":\"policy\",\"ede\":15,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    {"dropped query", BYTES("\005xn--x\007example\000"), 16, 1, -1, "198.51.100.7", 40000,
     "bad-punycode", BYTES("xn--x"), "drop", "policy", U, -1, 1,
     "2026-11-21T05:53:32.123456Z 198.51.100.7#40000 xn--x.example. TXT IN DROPPED "
     "bad-punycode:xn--x drop policy",
     "{\"time\":\"2026-11-21T05:53:32.123456Z\",\"client\":\"198.51.100.7\",\"port\":40000,"
     "\"qname\":\"xn--x.example.\",\"qname_unicode\":null,\"lookalike\":null,\"qtype\":\"TXT\","
     "\"qclass\":\"IN\",\"rcode\":\"DROPPED\",\"verdict\":\"bad-punycode\","
     "\"label\":\"xn--x\",\"action\":\"drop\",\"path\":\"policy\",\"ede\":null,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    {"raw UTF-8 name", BYTES("\007b\303\274cher\007example\000"), 1, 1, 5, "127.0.0.1", 1,
     "raw-8bit", BYTES("b\303\274cher"), "refuse", "policy", U, 15, 0,
     "127.0.0.1#1 b\\195\\188cher.example. A IN REFUSED raw-8bit:b\\195\\188cher refuse "
     "policy ede=15",
     "{\"time\":null,\"client\":\"127.0.0.1\",\"port\":1,"
     "\"qname\":\"b\\\\195\\\\188cher.example.\",\"qname_unicode\":null,\"lookalike\":null,\"qtype\":\"A\","
     "\"qclass\":\"IN\",\"rcode\":\"REFUSED\",\"verdict\":\"raw-8bit\","
     "\"label\":\"b\\\\195\\\\188cher\",\"action\":\"refuse\",\"path\":\"policy\",\"ede\":15,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    {"control octets in a plain label", BYTES("\012a\nb\rc\033d\000e\177\007example\000"), 1,
     1, 0, "127.0.0.1", 53, "ok", NOLABEL, "pass", "resolved", U, -1, 0,
     "127.0.0.1#53 a\\010b\\013c\\027d\\000e\\127.example. A IN NOERROR ok pass resolved",
     "{\"time\":null,\"client\":\"127.0.0.1\",\"port\":53,"
     "\"qname\":\"a\\\\010b\\\\013c\\\\027d\\\\000e\\\\127.example.\",\"qname_unicode\":null,"
     "\"lookalike\":null,\"qtype\":\"A\",\"qclass\":\"IN\",\"rcode\":\"NOERROR\",\"verdict\":\"ok\","
     "\"label\":null,\"action\":\"pass\",\"path\":\"resolved\",\"ede\":null,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    {"specials in a plain label", BYTES("\011a.b\\c\"d e\000"), 1, 1, 0, "127.0.0.1", 53, "ok",
     NOLABEL, "pass", "resolved", U, -1, 0,
     "127.0.0.1#53 a\\046b\\092c\\034d\\032e. A IN NOERROR ok pass resolved",
     "{\"time\":null,\"client\":\"127.0.0.1\",\"port\":53,"
     "\"qname\":\"a\\\\046b\\\\092c\\\\034d\\\\032e.\",\"qname_unicode\":null,"
     "\"lookalike\":null,\"qtype\":\"A\",\"qclass\":\"IN\",\"rcode\":\"NOERROR\",\"verdict\":\"ok\","
     "\"label\":null,\"action\":\"pass\",\"path\":\"resolved\",\"ede\":null,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    {"length past the end", BYTES("\003www\007exam"), 1, 1, 1, "127.0.0.1", 53,
     "invalid-argument", NOLABEL, "refuse", "policy", U, -1, 0,
     "127.0.0.1#53 www.\\#malformed A IN FORMERR invalid-argument refuse policy",
     "{\"time\":null,\"client\":\"127.0.0.1\",\"port\":53,\"qname\":\"www.\\\\#malformed\","
     "\"qname_unicode\":null,\"lookalike\":null,\"qtype\":\"A\",\"qclass\":\"IN\",\"rcode\":\"FORMERR\","
     "\"verdict\":\"invalid-argument\",\"label\":null,\"action\":\"refuse\","
     "\"path\":\"policy\",\"ede\":null,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    {"compression pointer", BYTES("\003www\300\014"), 1, 1, 1, "127.0.0.1", 53,
     "invalid-argument", NOLABEL, "refuse", "policy", U, -1, 0,
     "127.0.0.1#53 www.\\#malformed A IN FORMERR invalid-argument refuse policy",
     "{\"time\":null,\"client\":\"127.0.0.1\",\"port\":53,\"qname\":\"www.\\\\#malformed\","
     "\"qname_unicode\":null,\"lookalike\":null,\"qtype\":\"A\",\"qclass\":\"IN\",\"rcode\":\"FORMERR\","
     "\"verdict\":\"invalid-argument\",\"label\":null,\"action\":\"refuse\","
     "\"path\":\"policy\",\"ede\":null,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    {"empty wire name", BYTES(""), 1, 1, 1, "127.0.0.1", 53, "invalid-argument", NOLABEL,
     "refuse", "policy", U, -1, 0,
     "127.0.0.1#53 \\#malformed A IN FORMERR invalid-argument refuse policy",
     "{\"time\":null,\"client\":\"127.0.0.1\",\"port\":53,\"qname\":\"\\\\#malformed\","
     "\"qname_unicode\":null,\"lookalike\":null,\"qtype\":\"A\",\"qclass\":\"IN\",\"rcode\":\"FORMERR\","
     "\"verdict\":\"invalid-argument\",\"label\":null,\"action\":\"refuse\","
     "\"path\":\"policy\",\"ede\":null,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    {"root name", BYTES("\000"), 2, 1, 0, "127.0.0.1", 53, "ok", NOLABEL, "pass", "cache", U,
     -1, 0, "127.0.0.1#53 . NS IN NOERROR ok pass cache",
     "{\"time\":null,\"client\":\"127.0.0.1\",\"port\":53,\"qname\":\".\","
     "\"qname_unicode\":null,\"lookalike\":null,\"qtype\":\"NS\",\"qclass\":\"IN\",\"rcode\":\"NOERROR\","
     "\"verdict\":\"ok\",\"label\":null,\"action\":\"pass\",\"path\":\"cache\",\"ede\":null,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    {"unknown type, class and rcode", BYTES("\007example\000"), 65280, 42, 12, "127.0.0.1", 53,
     "ok", NOLABEL, "pass", "resolved", U, -1, 0,
     "127.0.0.1#53 example. TYPE65280 CLASS42 RCODE12 ok pass resolved",
     "{\"time\":null,\"client\":\"127.0.0.1\",\"port\":53,\"qname\":\"example.\","
     "\"qname_unicode\":null,\"lookalike\":null,\"qtype\":\"TYPE65280\",\"qclass\":\"CLASS42\","
     "\"rcode\":\"RCODE12\",\"verdict\":\"ok\",\"label\":null,\"action\":\"pass\","
     "\"path\":\"resolved\",\"ede\":null,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    {"NULL client and unknown fields", BYTES("\007example\000"), 1, 3, 0, NULL, 53, NULL,
     NOLABEL, NULL, "", U, 0, 1,
     "2026-11-21T05:53:32.123456Z - example. A CH NOERROR - - - ede=0",
     "{\"time\":\"2026-11-21T05:53:32.123456Z\",\"client\":null,\"port\":null,"
     "\"qname\":\"example.\",\"qname_unicode\":null,\"lookalike\":null,\"qtype\":\"A\",\"qclass\":\"CH\","
     "\"rcode\":\"NOERROR\",\"verdict\":null,\"label\":null,\"action\":null,\"path\":null,"
     "\"ede\":0,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    {"raw U+202E in a label", BYTES("\006\342\200\256abc\003com\000"), 1, 1, 5, "127.0.0.1", 53,
     "raw-8bit", BYTES("\342\200\256abc"), "refuse", "policy", U, 15, 0,
     "127.0.0.1#53 \\226\\128\\174abc.com. A IN REFUSED raw-8bit:\\226\\128\\174abc refuse "
     "policy ede=15",
     "{\"time\":null,\"client\":\"127.0.0.1\",\"port\":53,"
     "\"qname\":\"\\\\226\\\\128\\\\174abc.com.\",\"qname_unicode\":null,\"lookalike\":null,\"qtype\":\"A\","
     "\"qclass\":\"IN\",\"rcode\":\"REFUSED\",\"verdict\":\"raw-8bit\","
     "\"label\":\"\\\\226\\\\128\\\\174abc\",\"action\":\"refuse\",\"path\":\"policy\","
     "\"ede\":15,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    {"raw U+2066 in a label", BYTES("\006\342\201\246abc\003com\000"), 1, 1, 0, "127.0.0.1", 53,
     "raw-8bit", BYTES("\342\201\246abc"), "log", "resolved", U, -1, 0,
     "127.0.0.1#53 \\226\\129\\166abc.com. A IN NOERROR raw-8bit:\\226\\129\\166abc log "
     "resolved",
     "{\"time\":null,\"client\":\"127.0.0.1\",\"port\":53,"
     "\"qname\":\"\\\\226\\\\129\\\\166abc.com.\",\"qname_unicode\":null,\"lookalike\":null,\"qtype\":\"A\","
     "\"qclass\":\"IN\",\"rcode\":\"NOERROR\",\"verdict\":\"raw-8bit\","
     "\"label\":\"\\\\226\\\\129\\\\166abc\",\"action\":\"log\",\"path\":\"resolved\","
     "\"ede\":null,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    {"ZWJ in a valid Sinhala label", BYTES("\020xn--10cl1a0b660p\003com\000"), 1, 1, 0,
     "127.0.0.1", 53, "ok", NOLABEL, "pass", "resolved", U, -1, 0,
     "127.0.0.1#53 xn--10cl1a0b660p.com. (\xe0\xb7\x81\xe0\xb7\x8a\\u{200D}"
     "\xe0\xb6\xbb\xe0\xb7\x93.com.) A IN NOERROR ok pass resolved",
     "{\"time\":null,\"client\":\"127.0.0.1\",\"port\":53,\"qname\":\"xn--10cl1a0b660p.com.\","
     "\"qname_unicode\":\"\xe0\xb7\x81\xe0\xb7\x8a\\\\u{200D}\xe0\xb6\xbb\xe0\xb7\x93.com.\","
     "\"lookalike\":null,\"qtype\":\"A\",\"qclass\":\"IN\",\"rcode\":\"NOERROR\",\"verdict\":\"ok\","
     "\"label\":null,\"action\":\"pass\",\"path\":\"resolved\",\"ede\":null,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    /* Punycode mode checks no code points: the basic part may hold ESC and
     * '.', the rest U+202E; all of it escaped, '.' too (it would fake a
     * label boundary). */
    {"punycode mode: ESC, '.', U+202E inside an A-label",
     BYTES("\017xn--\033[2J.x-fm0c\003com\000"), 1, 1, 0, "127.0.0.1", 53, "ok", NOLABEL,
     "pass", "resolved", P, -1, 0,
     "127.0.0.1#53 xn--\\027\\0912J\\046x-fm0c.com. "
     "(\\u{001B}\\u{005B}2j\\u{002E}\\u{202E}x.com.) A IN NOERROR ok pass resolved",
     "{\"time\":null,\"client\":\"127.0.0.1\",\"port\":53,"
     "\"qname\":\"xn--\\\\027\\\\0912J\\\\046x-fm0c.com.\","
     "\"qname_unicode\":\"\\\\u{001B}\\\\u{005B}2j\\\\u{002E}\\\\u{202E}x.com.\","
     "\"lookalike\":null,\"qtype\":\"A\",\"qclass\":\"IN\",\"rcode\":\"NOERROR\",\"verdict\":\"ok\","
     "\"label\":null,\"action\":\"pass\",\"path\":\"resolved\",\"ede\":null,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    {"uts46 mode: the same label has no Unicode form",
     BYTES("\017xn--\033[2J.x-fm0c\003com\000"), 1, 1, 5, "127.0.0.1", 53, "disallowed",
     BYTES("xn--\033[2J.x-fm0c"), "refuse", "policy", U, 15, 0,
     "127.0.0.1#53 xn--\\027\\0912J\\046x-fm0c.com. A IN REFUSED "
     "disallowed:xn--\\027\\0912J\\046x-fm0c refuse policy ede=15",
     "{\"time\":null,\"client\":\"127.0.0.1\",\"port\":53,"
     "\"qname\":\"xn--\\\\027\\\\0912J\\\\046x-fm0c.com.\",\"qname_unicode\":null,"
     "\"lookalike\":null,\"qtype\":\"A\",\"qclass\":\"IN\",\"rcode\":\"REFUSED\",\"verdict\":\"disallowed\","
     "\"label\":\"xn--\\\\027\\\\0912J\\\\046x-fm0c\",\"action\":\"refuse\","
     "\"path\":\"policy\",\"ede\":15,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    {"punycode mode: '(', ')', space, quote, backslash decoded",
     BYTES("\015xn--() \"\\-kva\000"), 1, 1, 0, "127.0.0.1", 53, "ok", NOLABEL, "pass",
     "resolved", P, -1, 0,
     "127.0.0.1#53 xn--\\040\\041\\032\\034\\092-kva. "
     "(\\u{0028}\xc3\xbc\\u{0029}\\u{0020}\\u{0022}\\u{005C}.) A IN NOERROR ok pass resolved",
     "{\"time\":null,\"client\":\"127.0.0.1\",\"port\":53,"
     "\"qname\":\"xn--\\\\040\\\\041\\\\032\\\\034\\\\092-kva.\","
     "\"qname_unicode\":\"\\\\u{0028}\xc3\xbc\\\\u{0029}\\\\u{0020}\\\\u{0022}\\\\u{005C}.\","
     "\"lookalike\":null,\"qtype\":\"A\",\"qclass\":\"IN\",\"rcode\":\"NOERROR\",\"verdict\":\"ok\","
     "\"label\":null,\"action\":\"pass\",\"path\":\"resolved\",\"ede\":null,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    /* The module's own strings are escaped too, should one ever be hostile. */
    {"hostile module strings", BYTES("\001a\000"), 1, 1, 0, "1.2.3.4 x\n", 53,
     "ok\xe2\x80\xae\"\\", BYTES("a:b"), "pass\x1b[0m", "cache\xff", U, -1, 0,
     "1.2.3.4\\032x\\010#53 a. A IN NOERROR ok\\226\\128\\174\"\\092:a\\058b "
     "pass\\027[0m cache\\255",
     "{\"time\":null,\"client\":\"1.2.3.4\\u0020x\\u000a\",\"port\":53,\"qname\":\"a.\","
     "\"qname_unicode\":null,\"lookalike\":null,\"qtype\":\"A\",\"qclass\":\"IN\",\"rcode\":\"NOERROR\","
     "\"verdict\":\"ok\\u202e\\\"\\\\\",\"label\":\"a\\\\058b\",\"action\":\"pass\\u001b[0m\","
     "\"path\":\"cache\\ufffd\",\"ede\":null,\"target\":null,\"transport\":null,\"elapsed_ms\":null}", 0},
    /* A lookalike (p<Cyrillic a>ypal.com, protected paypal.com) is shown in
     * A-labels only, with what was found, whatever the verdict. */
    {"lookalike: no Unicode form", BYTES("\015xn--pypal-4ve\003com\000"), 1, 1, 5, "127.0.0.1",
     53, "confusable", BYTES("xn--pypal-4ve"), "refuse", "policy", U, 15, 0,
     "127.0.0.1#53 xn--pypal-4ve.com. A IN REFUSED confusable:xn--pypal-4ve refuse policy "
     "ede=15 lookalike=mixed-script,confusable",
     "{\"time\":null,\"client\":\"127.0.0.1\",\"port\":53,\"qname\":\"xn--pypal-4ve.com.\","
     "\"qname_unicode\":null,\"lookalike\":\"mixed-script,confusable\",\"qtype\":\"A\","
     "\"qclass\":\"IN\",\"rcode\":\"REFUSED\",\"verdict\":\"confusable\","
     "\"label\":\"xn--pypal-4ve\",\"action\":\"refuse\",\"path\":\"policy\",\"ede\":15,"
     "\"target\":null,\"transport\":null,\"elapsed_ms\":null}",
     IDNG_LK_MIXED_SCRIPT | IDNG_LK_CONFUSABLE},
    {"lookalike allowed by a list", BYTES("\015xn--pypal-4ve\003com\000"), 1, 1, 0, "127.0.0.1",
     53, "allow", NOLABEL, "pass", "resolved", U, -1, 0,
     "127.0.0.1#53 xn--pypal-4ve.com. A IN NOERROR allow pass resolved "
     "lookalike=mixed-script",
     "{\"time\":null,\"client\":\"127.0.0.1\",\"port\":53,\"qname\":\"xn--pypal-4ve.com.\","
     "\"qname_unicode\":null,\"lookalike\":\"mixed-script\",\"qtype\":\"A\","
     "\"qclass\":\"IN\",\"rcode\":\"NOERROR\",\"verdict\":\"allow\","
     "\"label\":null,\"action\":\"pass\",\"path\":\"resolved\",\"ede\":null,"
     "\"target\":null,\"transport\":null,\"elapsed_ms\":null}",
     IDNG_LK_MIXED_SCRIPT},
};

#define NGOLDEN (sizeof golden / sizeof golden[0])

static void golden_rec(const struct golden *g, struct idng_logrec *r)
{
    memset(r, 0, sizeof *r);
    r->time_sec = T_SEC;
    r->time_usec = T_USEC;
    r->client = g->client;
    r->port = g->port;
    r->qname = (const uint8_t *)g->wire;
    r->qname_len = g->wire_len;
    r->qtype = g->qtype;
    r->qclass = g->qclass;
    r->rcode = g->rcode;
    r->verdict = g->verdict;
    r->label = g->label;
    r->label_len = g->label_len;
    r->action = g->action;
    r->path = g->path;
    r->mode = g->mode;
    r->ede = g->ede;
    r->lookalike = g->lookalike;
}

/* ---- checkers shared by the golden and property tests ---- */

/* Printable form of octets for failure messages. */
static const char *show(const void *p, size_t n, char *buf, size_t cap)
{
    const unsigned char *s = p;
    size_t i, k = 0;

    for (i = 0; i < n && k + 5 < cap; i++) {
        if (s[i] >= 0x20 && s[i] < 0x7F && s[i] != '\\')
            buf[k++] = (char)s[i];
        else
            k += (size_t)snprintf(buf + k, cap - k, "\\x%02x", s[i]);
    }
    buf[k] = '\0';
    return buf;
}

static int forbidden_cp(uint32_t cp)
{
    return cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E)
           || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029
           || (cp >= 0x200B && cp <= 0x200D) || cp == 0xFEFF;
}

/*
 * The safety property of any output: fits the capacity, NUL-terminated at
 * len, no octet < 0x20 or 0x7F, valid UTF-8, no bidi control, separator or
 * invisible code point, and every non-ASCII code point display-safe.
 */
static void check_safe(const char *what, const char *out, size_t len, size_t cap)
{
    const unsigned char *s = (const unsigned char *)out;
    size_t i = 0;

    REQUIRE(cap >= 1 && len <= cap - 1, "%s: length %zu for capacity %zu", what, len, cap);
    REQUIRE(out[len] == '\0' && strlen(out) == len, "%s: not NUL-terminated at %zu", what,
            len);
    while (i < len) {
        uint32_t cp;
        size_t m = idng_utf8_decode(s + i, len - i, &cp);
        REQUIRE(m > 0, "%s: invalid UTF-8 at %zu: %s", what, i, out);
        REQUIRE(cp >= 0x20 && cp != 0x7F, "%s: control 0x%02x at %zu", what, (unsigned)cp,
                i);
        REQUIRE(!forbidden_cp(cp), "%s: U+%04X at %zu", what, (unsigned)cp, i);
        REQUIRE(cp < 0x80 || idng_display_safe(cp), "%s: unsafe U+%04X at %zu", what,
                (unsigned)cp, i);
        i += m;
    }
}

static int is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Length of an escape of ours at s ("\DDD", "\u{X..}", "\#malformed"), or 0. */
static size_t our_escape(const char *s, size_t n)
{
    size_t k;

    if (n >= 4 && s[0] == '\\' && is_digit(s[1]) && is_digit(s[2]) && is_digit(s[3]))
        return 4;
    if (n >= 11 && memcmp(s, IDNG_DISPLAY_MALFORMED, 11) == 0)
        return 11;
    if (n >= 3 && s[0] == '\\' && s[1] == 'u' && s[2] == '{') {
        for (k = 3; k < n && is_hex(s[k]); k++)
            ;
        if (k < n && s[k] == '}' && k > 3)
            return k + 1;
    }
    return 0;
}

/*
 * Marks the positions of out (full output, len octets) where truncation
 * may end it: between our escapes, JSON escapes (a surrogate pair is one),
 * JSON-escaped escapes of ours, and whole UTF-8 sequences.
 */
static void token_bounds(const char *s, size_t len, int json, unsigned char *ok)
{
    size_t i = 0, m;

    memset(ok, 0, len + 1);
    while (i < len) {
        ok[i] = 1;
        if (json && s[i] == '\\' && i + 1 < len && s[i + 1] == '\\') {
            /* "\\" and what our escape became: "\\DDD", "\\u{..}", "\\#malformed" */
            char inner[16];
            size_t k, n = 0;
            inner[n++] = '\\';
            for (k = i + 2; k < len && n < sizeof inner && s[k] != '\\' && s[k] != '"'; k++)
                inner[n++] = s[k];
            m = our_escape(inner, n);
            i += m ? m + 1 : 2;
        } else if (json && s[i] == '\\' && i + 1 < len && s[i + 1] == 'u') {
            m = 6;
            if (i + 12 <= len && (s[i + 2] == 'd' || s[i + 2] == 'D') && strchr("89abAB", s[i + 3])
                && s[i + 6] == '\\')
                m = 12;
            i += m;
        } else if (json && s[i] == '\\') {
            i += 2;
        } else if (!json && (m = our_escape(s + i, len - i)) > 0) {
            i += m;
        } else {
            uint32_t cp;
            m = idng_utf8_decode((const unsigned char *)s + i, len - i, &cp);
            i += m ? m : 1;
        }
    }
    ok[len] = 1;
}

/*
 * Truncation: every capacity from 1 to the full length plus one gives a
 * prefix of the full output, within capacity, ending at a token boundary,
 * and never shorter than with a smaller capacity.
 */
typedef size_t (*fmt_fn)(const void *ctx, char *out, size_t cap);

static void check_truncation(const char *what, fmt_fn fn, const void *ctx, int json)
{
    static char full[IDNG_LOG_LINE_MAX], out[IDNG_LOG_LINE_MAX];
    static unsigned char ok[IDNG_LOG_LINE_MAX + 1];
    size_t flen = fn(ctx, full, sizeof full), cap, last = 0;

    REQUIRE(flen < sizeof full - 1, "%s: full output truncated", what);
    token_bounds(full, flen, json, ok);
    for (cap = 1; cap <= flen + 1; cap++) {
        size_t n;
        memset(out, 'Z', cap + 1 < sizeof out ? cap + 1 : sizeof out);
        n = fn(ctx, out, cap);
        REQUIRE(n <= cap - 1, "%s: cap %zu: length %zu", what, cap, n);
        REQUIRE(out[n] == '\0', "%s: cap %zu: no NUL at %zu", what, cap, n);
        REQUIRE(cap + 1 > sizeof out || out[cap] == 'Z', "%s: cap %zu: wrote past it", what,
                cap);
        REQUIRE(memcmp(out, full, n) == 0, "%s: cap %zu: not a prefix", what, cap);
        REQUIRE(ok[n], "%s: cap %zu: ends inside an escape: ...%s", what, cap,
                out + (n > 16 ? n - 16 : 0));
        REQUIRE(n >= last, "%s: cap %zu: shorter than with a smaller capacity", what, cap);
        last = n;
    }
    REQUIRE(last == flen, "%s: full capacity gives %zu, not %zu", what, last, flen);
}

struct fmt_ctx {
    const struct idng_logrec *r;
    enum idng_logfmt fmt;
    int with_time;
};

static size_t fmt_line(const void *ctx, char *out, size_t cap)
{
    const struct fmt_ctx *c = ctx;
    return idng_log_format(c->r, c->fmt, c->with_time, out, cap);
}

struct wire_ctx {
    const uint8_t *wire;
    size_t len;
    idng_mode mode;
};

static size_t fmt_name(const void *ctx, char *out, size_t cap)
{
    const struct wire_ctx *c = ctx;
    return idng_display_name(c->wire, c->len, out, cap);
}

static size_t fmt_unicode(const void *ctx, char *out, size_t cap)
{
    const struct wire_ctx *c = ctx;
    return idng_display_unicode(c->wire, c->len, c->mode, out, cap);
}

/* ---- a small strict JSON reader for our one flat object ---- */

enum jtype { J_NULL, J_STRING, J_NUMBER };

static const char *const json_keys[] = {
    "time",    "client",  "port",  "qname", "qname_unicode", "lookalike", "qtype", "qclass",
    "rcode",   "verdict", "label", "action", "path",         "ede",
    "target",  "transport", "elapsed_ms",
};
#define NKEYS (sizeof json_keys / sizeof json_keys[0])

struct jval {
    enum jtype type;
    char *str; /* decoded, NUL-terminated, for J_STRING */
    size_t len;
    long long num;
};

struct jreader {
    const char *s;
    size_t n, i;
    char *buf; /* decoded strings go here */
    size_t cap, used;
    char err[128];
};

static int jfail(struct jreader *j, const char *msg)
{
    if (!j->err[0])
        snprintf(j->err, sizeof j->err, "%s at offset %zu", msg, j->i);
    return 0;
}

static int jput(struct jreader *j, const unsigned char *p, size_t n)
{
    if (j->used + n >= j->cap)
        return jfail(j, "decode buffer full");
    memcpy(j->buf + j->used, p, n);
    j->used += n;
    return 1;
}

static int jhex4(struct jreader *j, uint32_t *v)
{
    size_t k;

    *v = 0;
    if (j->i + 4 > j->n)
        return jfail(j, "short \\u escape");
    for (k = 0; k < 4; k++) {
        char c = j->s[j->i + k];
        if (!is_hex(c))
            return jfail(j, "bad hex in \\u escape");
        *v = *v << 4 | (uint32_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    j->i += 4;
    return 1;
}

/* RFC 8259 section 7 string; decodes into j->buf. */
static int jstring(struct jreader *j, char **str, size_t *len)
{
    size_t start = j->used;

    if (j->i >= j->n || j->s[j->i] != '"')
        return jfail(j, "expected a string");
    j->i++;
    for (;;) {
        unsigned char c;
        if (j->i >= j->n)
            return jfail(j, "unterminated string");
        c = (unsigned char)j->s[j->i];
        if (c == '"') {
            j->i++;
            break;
        }
        if (c < 0x20)
            return jfail(j, "raw control in string");
        if (c == '\\') {
            char e;
            unsigned char u8[4];
            uint32_t cp, lo;
            if (j->i + 1 >= j->n)
                return jfail(j, "escape at end");
            e = j->s[j->i + 1];
            j->i += 2;
            switch (e) {
            case '"': case '\\': case '/':
                u8[0] = (unsigned char)e;
                if (!jput(j, u8, 1))
                    return 0;
                continue;
            case 'b': case 'f': case 'n': case 'r': case 't':
                return jfail(j, "short control escape (we promise \\u00XX)");
            case 'u':
                if (!jhex4(j, &cp))
                    return 0;
                if (cp >= 0xDC00 && cp <= 0xDFFF)
                    return jfail(j, "lone low surrogate");
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    if (j->i + 2 > j->n || j->s[j->i] != '\\' || j->s[j->i + 1] != 'u')
                        return jfail(j, "lone high surrogate");
                    j->i += 2;
                    if (!jhex4(j, &lo))
                        return 0;
                    if (lo < 0xDC00 || lo > 0xDFFF)
                        return jfail(j, "bad low surrogate");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                }
                if (!jput(j, u8, idng_utf8_encode(cp, u8)))
                    return 0;
                continue;
            default:
                return jfail(j, "unknown escape");
            }
        } else {
            uint32_t cp;
            size_t m = idng_utf8_decode((const unsigned char *)j->s + j->i, j->n - j->i, &cp);
            if (m == 0)
                return jfail(j, "invalid UTF-8 in string");
            if (!jput(j, (const unsigned char *)j->s + j->i, m))
                return 0;
            j->i += m;
        }
    }
    *str = j->buf + start;
    *len = j->used - start;
    j->buf[j->used++] = '\0';
    return 1;
}

static int jvalue(struct jreader *j, struct jval *v)
{
    if (j->i + 4 <= j->n && memcmp(j->s + j->i, "null", 4) == 0) {
        v->type = J_NULL;
        j->i += 4;
        return 1;
    }
    if (j->i < j->n && j->s[j->i] == '"') {
        v->type = J_STRING;
        return jstring(j, &v->str, &v->len);
    }
    if (j->i < j->n && is_digit(j->s[j->i])) {
        /* Only non-negative integers without leading zeros are ever written. */
        if (j->s[j->i] == '0' && j->i + 1 < j->n && is_digit(j->s[j->i + 1]))
            return jfail(j, "leading zero");
        v->type = J_NUMBER;
        v->num = 0;
        while (j->i < j->n && is_digit(j->s[j->i]) && v->num < 1000000000000LL)
            v->num = v->num * 10 + (j->s[j->i++] - '0');
        if (j->i < j->n && j->s[j->i] == '.') { /* elapsed_ms: three decimals */
            size_t d = 0;
            for (j->i++; j->i < j->n && is_digit(j->s[j->i]); j->i++)
                d++;
            if (d != 3)
                return jfail(j, "expected three decimals");
        }
        return 1;
    }
    return jfail(j, "expected a value");
}

/* Parses line as exactly one object with json_keys in order, no whitespace. */
static int json_parse(const char *line, size_t len, struct jval *vals, char *buf, size_t cap,
                      char *err, size_t errcap)
{
    struct jreader j;
    size_t k;

    memset(&j, 0, sizeof j);
    j.s = line;
    j.n = len;
    j.buf = buf;
    j.cap = cap;
    if (len == 0 || line[0] != '{') {
        jfail(&j, "expected '{'");
        goto out;
    }
    j.i = 1;
    for (k = 0; k < NKEYS; k++) {
        char *key;
        size_t klen;
        if (k > 0 && (j.i >= j.n || j.s[j.i++] != ','))
            goto fail_sep;
        if (!jstring(&j, &key, &klen))
            goto out;
        if (strcmp(key, json_keys[k]) != 0) {
            snprintf(j.err, sizeof j.err, "key %zu is \"%s\", not \"%s\"", k, key, json_keys[k]);
            goto out;
        }
        if (j.i >= j.n || j.s[j.i++] != ':') {
            jfail(&j, "expected ':'");
            goto out;
        }
        if (!jvalue(&j, &vals[k]))
            goto out;
    }
    if (j.i + 1 != j.n || j.s[j.i] != '}') {
        jfail(&j, "expected '}' and the end");
        goto out;
    }
    return 1;
fail_sep:
    jfail(&j, "expected ','");
out:
    snprintf(err, errcap, "%s", j.err);
    return 0;
}

/* ---- the record's expected pieces ---- */

static int valid_utf8(const char *s)
{
    size_t n = strlen(s), i = 0, m;
    uint32_t cp;

    for (; i < n; i += m)
        if ((m = idng_utf8_decode((const unsigned char *)s + i, n - i, &cp)) == 0)
            return 0;
    return 1;
}

/* A JSON value from one of the module's strings: null when unknown, else
 * the string itself after JSON decoding (when it is valid UTF-8). */
static void check_json_text(const char *what, const char *line, const struct jval *v,
                            const char *want)
{
    if (want == NULL || want[0] == '\0') {
        REQUIRE(v->type == J_NULL, "%s: want null: %s", what, line);
        return;
    }
    REQUIRE(v->type == J_STRING, "%s: want a string: %s", what, line);
    if (valid_utf8(want))
        REQUIRE(strcmp(v->str, want) == 0, "%s: string does not decode to the input: %s", what,
                line);
}

/* Name escaping of a label, via idng_display_name on a one-label wire name. */
static size_t label_escaped(const char *label, size_t n, char *out, size_t cap)
{
    uint8_t wire[IDNG_LABEL_MAX + 2];
    size_t len;

    REQUIRE(n >= 1 && n <= IDNG_LABEL_MAX, "label of %zu octets", n);
    wire[0] = (uint8_t)n;
    memcpy(wire + 1, label, n);
    wire[n + 1] = 0;
    len = idng_display_name(wire, n + 2, out, cap);
    REQUIRE(len >= 1 && out[len - 1] == '.', "label escaping");
    out[--len] = '\0';
    return len;
}

/*
 * Checks a line of either format against the record: safety, structure,
 * and that its name fields are exactly idng_display_name / idng_display_unicode.
 */
static void check_line(const char *what, const struct idng_logrec *r, enum idng_logfmt fmt,
                       int with_time, const char *line, size_t len, size_t cap)
{
    static char name[IDNG_DISPLAY_NAME_MAX], uni[IDNG_DISPLAY_UNICODE_MAX], lab[IDNG_DISPLAY_NAME_MAX];
    static char dec[2 * IDNG_LOG_LINE_MAX];
    size_t nlen = idng_display_name(r->qname, r->qname_len, name, sizeof name);
    size_t ulen = idng_display_unicode(r->qname, r->qname_len, r->mode, uni, sizeof uni);
    size_t llen = 0;

    check_safe(what, line, len, cap);
    check_safe(what, name, nlen, sizeof name);
    check_safe(what, uni, ulen, sizeof uni);
    if (r->label != NULL && r->label_len >= 1 && r->label_len <= IDNG_LABEL_MAX)
        llen = label_escaped(r->label, r->label_len, lab, sizeof lab);

    if (fmt == IDNG_LOGFMT_JSON) {
        struct jval v[NKEYS];
        char err[160];
        REQUIRE(json_parse(line, len, v, dec, sizeof dec, err, sizeof err),
                "%s: bad JSON: %s: %s", what, err, line);
        REQUIRE(v[3].type == J_STRING && v[3].len == nlen && memcmp(v[3].str, name, nlen) == 0,
                "%s: qname is not idng_display_name's \"%s\": %s", what, name, line);
        if (ulen == 0 || r->lookalike != 0)
            REQUIRE(v[4].type == J_NULL, "%s: qname_unicode not null: %s", what, line);
        else
            REQUIRE(v[4].type == J_STRING && v[4].len == ulen
                        && memcmp(v[4].str, uni, ulen) == 0,
                    "%s: qname_unicode is not \"%s\": %s", what, uni, line);
        check_json_text(what, line, &v[5], idng_lookalike_name(r->lookalike));
        REQUIRE(v[0].type == (with_time ? J_STRING : J_NULL), "%s: time: %s", what, line);
        REQUIRE(v[2].type == (v[1].type == J_STRING ? J_NUMBER : J_NULL), "%s: port: %s",
                what, line);
        {
            char tb[IDNG_LOG_MNEMONIC_MAX], cb[IDNG_LOG_MNEMONIC_MAX];
            const char *ty = idng_log_type_name(r->qtype, tb, sizeof tb);
            const char *cl = idng_log_class_name(r->qclass, cb, sizeof cb);
            REQUIRE(v[6].type == J_STRING && strcmp(v[6].str, ty) == 0 && v[7].type == J_STRING
                        && strcmp(v[7].str, cl) == 0,
                    "%s: type/class: %s", what, line);
            REQUIRE(v[8].type == (r->rcode >= -1 ? J_STRING : J_NULL), "%s: rcode: %s", what,
                    line);
        }
        /* The module's strings come back exactly when they are valid UTF-8. */
        check_json_text(what, line, &v[1], r->client);
        check_json_text(what, line, &v[9], r->verdict);
        check_json_text(what, line, &v[11], r->action);
        check_json_text(what, line, &v[12], r->path);
        REQUIRE(v[13].type == (r->ede >= 0 ? J_NUMBER : J_NULL), "%s: ede: %s", what, line);
        REQUIRE(v[14].type == (r->target ? J_STRING : J_NULL), "%s: target: %s", what, line);
        check_json_text(what, line, &v[15], r->transport);
        REQUIRE(v[16].type == (r->has_elapsed ? J_NUMBER : J_NULL), "%s: elapsed_ms: %s", what,
                line);
        REQUIRE(v[10].type == (r->label ? J_STRING : J_NULL), "%s: label: %s", what, line);
        if (llen)
            REQUIRE(v[10].len == llen && memcmp(v[10].str, lab, llen) == 0,
                    "%s: label is not \"%s\": %s", what, lab, line);
    } else {
        const char *f[16];
        size_t flen[16], nf = 0, i = 0, start = 0, want, at;
        int shown;
        for (i = 0; i <= len; i++) {
            if (i < len && line[i] != ' ')
                continue;
            REQUIRE(i > start, "%s: empty field at %zu: %s", what, i, line);
            REQUIRE(nf < 16, "%s: too many fields: %s", what, line);
            f[nf] = line + start;
            flen[nf++] = i - start;
            start = i + 1;
        }
        /* A lookalike has no Unicode field, and a lookalike= field last. */
        shown = ulen > 0 && r->lookalike == 0;
        want = (with_time ? 1u : 0u) + 8 + (shown ? 1 : 0) + (r->ede >= 0 ? 1 : 0)
               + (r->lookalike != 0);
        REQUIRE(nf == want, "%s: %zu fields, want %zu: %s", what, nf, want, line);
        if (r->lookalike != 0)
            REQUIRE(flen[nf - 1] == 10 + strlen(idng_lookalike_name(r->lookalike))
                        && memcmp(f[nf - 1], "lookalike=", 10) == 0
                        && memcmp(f[nf - 1] + 10, idng_lookalike_name(r->lookalike),
                                  flen[nf - 1] - 10) == 0,
                    "%s: no lookalike=%s last: %s", what, idng_lookalike_name(r->lookalike),
                    line);
        at = with_time ? 2 : 1;
        REQUIRE(flen[at] == nlen && memcmp(f[at], name, nlen) == 0,
                "%s: name field is not \"%s\": %s", what, name, line);
        at++;
        if (shown) {
            REQUIRE(flen[at] == ulen + 2 && f[at][0] == '(' && f[at][ulen + 1] == ')'
                        && memcmp(f[at] + 1, uni, ulen) == 0,
                    "%s: Unicode field is not (%s): %s", what, uni, line);
            at++;
        }
        at += 3; /* type, class, rcode */
        if (llen)
            REQUIRE(flen[at] > llen && f[at][flen[at] - llen - 1] == ':'
                        && memcmp(f[at] + flen[at] - llen, lab, llen) == 0,
                    "%s: verdict field does not end in \":%s\": %s", what, lab, line);
        if (r->ede >= 0)
            REQUIRE(strncmp(f[nf - 1 - (r->lookalike != 0)], "ede=", 4) == 0, "%s: no ede: %s",
                    what, line);
    }
}

/* ---- golden lines ---- */

/* One golden record in one format: exact line, then the line invariants. */
static void check_golden(const struct golden *g, enum idng_logfmt fmt, const char *want)
{
    struct idng_logrec r;
    char out[IDNG_LOG_LINE_MAX];
    size_t n;

    golden_rec(g, &r);
    n = idng_log_format(&r, fmt, g->with_time, out, sizeof out);
    REQUIRE(n == strlen(want) && strcmp(out, want) == 0, "%s:\n got  %s\n want %s", g->what, out,
            want);
    check_line(g->what, &r, fmt, g->with_time, out, n, sizeof out);
}

START_TEST(test_golden_text)
{
    check_golden(&golden[_i], IDNG_LOGFMT_TEXT, golden[_i].text);
}
END_TEST

/* The fields a line carries when the module knows them: the A-label name a
 * normalize resolved, the transport, the time from arrival to answer. */
START_TEST(test_extra_fields)
{
    static const uint8_t raw[] = "\007b\303\274cher\007example";
    static const uint8_t target[] = "\015xn--bcher-kva\007example";
    struct idng_logrec r;
    char out[IDNG_LOG_LINE_MAX];

    memset(&r, 0, sizeof r);
    r.time_sec = T_SEC;
    r.time_usec = T_USEC;
    r.client = "192.0.2.1";
    r.port = 4242;
    r.qname = raw;
    r.qname_len = sizeof raw;
    r.qtype = 1;
    r.qclass = 1;
    r.rcode = 0;
    r.verdict = "raw-8bit";
    r.label = (const char *)raw + 1;
    r.label_len = 7;
    r.action = "normalize";
    r.path = "resolved";
    r.mode = IDNG_MODE_UTS46;
    r.ede = -1;
    r.target = target;
    r.target_len = sizeof target;
    r.transport = "tcp";
    r.has_elapsed = 1;
    r.elapsed_us = 1234;
    idng_log_format(&r, IDNG_LOGFMT_TEXT, 0, out, sizeof out);
    ck_assert_str_eq(out, "192.0.2.1#4242 b\\195\\188cher.example. A IN NOERROR "
                          "raw-8bit:b\\195\\188cher normalize resolved "
                          "target=xn--bcher-kva.example. proto=tcp ms=1.234");
    idng_log_format(&r, IDNG_LOGFMT_JSON, 0, out, sizeof out);
    ck_assert_ptr_nonnull(strstr(out, ",\"ede\":null,\"target\":\"xn--bcher-kva.example.\","
                                      "\"transport\":\"tcp\",\"elapsed_ms\":1.234}"));
    /* Not known: not in the text line, null in JSON. */
    r.target = NULL;
    r.transport = NULL;
    r.has_elapsed = 0;
    idng_log_format(&r, IDNG_LOGFMT_TEXT, 0, out, sizeof out);
    ck_assert_ptr_null(strstr(out, "target="));
    ck_assert_ptr_null(strstr(out, "proto="));
    ck_assert_ptr_null(strstr(out, "ms="));
}
END_TEST

START_TEST(test_golden_json)
{
    check_golden(&golden[_i], IDNG_LOGFMT_JSON, golden[_i].json);
}
END_TEST

START_TEST(test_golden_truncation)
{
    const struct golden *g = &golden[_i];
    struct idng_logrec r;
    struct fmt_ctx fc;
    struct wire_ctx wc;
    char what[160];

    golden_rec(g, &r);
    fc.r = &r;
    fc.with_time = 1;
    fc.fmt = IDNG_LOGFMT_TEXT;
    snprintf(what, sizeof what, "%s (text)", g->what);
    check_truncation(what, fmt_line, &fc, 0);
    fc.fmt = IDNG_LOGFMT_JSON;
    snprintf(what, sizeof what, "%s (JSON)", g->what);
    check_truncation(what, fmt_line, &fc, 1);
    wc.wire = (const uint8_t *)g->wire;
    wc.len = g->wire_len;
    wc.mode = g->mode;
    snprintf(what, sizeof what, "%s (name)", g->what);
    check_truncation(what, fmt_name, &wc, 0);
    snprintf(what, sizeof what, "%s (unicode)", g->what);
    check_truncation(what, fmt_unicode, &wc, 0);
}
END_TEST

/* ---- names on their own ---- */

struct name_row {
    const char *what;
    const char *wire;
    size_t len;
    idng_mode mode;
    const char *name;    /* idng_display_name */
    const char *unicode; /* idng_display_unicode; "" for none */
};

static const struct name_row names[] = {
    {"root", BYTES("\000"), U, ".", ""},
    {"trailing octets after the root are ignored", BYTES("\001a\000\300\014junk"), U, "a.", ""},
    {"empty", BYTES(""), U, "\\#malformed", ""},
    {"no root label", BYTES("\001a"), U, "a.\\#malformed", ""},
    {"length runs past the end", BYTES("\001a\077abc"), U, "a.\\#malformed", ""},
    {"pointer first", BYTES("\300\014"), U, "\\#malformed", ""},
    {"extended label type", BYTES("\001a\101\000"), U, "a.\\#malformed", ""},
    {"label type 0x80", BYTES("\200\000"), U, "\\#malformed", ""},
    {"every special octet", BYTES("\015.\\\"()@$;# :/+\000"), U,
     "\\046\\092\\034\\040\\041\\064\\036\\059\\035\\032\\058\\047\\043.", ""},
    {"literal set", BYTES("\011aZ09-_*xY\000"), U, "aZ09-_*xY.", ""},
    {"wildcard", BYTES("\001*\007example\000"), U, "*.example.", ""},
    {"high octets", BYTES("\003\200\377\302\000"), U, "\\128\\255\\194.", ""},
    {"A-label, uts46", BYTES("\015xn--bcher-kva\002de\000"), U, "xn--bcher-kva.de.",
     "bücher.de."},
    {"A-label, punycode", BYTES("\015xn--bcher-kva\002de\000"), P, "xn--bcher-kva.de.",
     "bücher.de."},
    {"two A-labels", BYTES("\012xn--e1aybc\010xn--p1ai\000"), U, "xn--e1aybc.xn--p1ai.",
     "\xd1\x82\xd0\xb5\xd1\x81\xd1\x82.\xd1\x80\xd1\x84."},
    {"A-label beside an escaped plain label", BYTES("\003a b\015xn--bcher-kva\000"), U,
     "a\\032b.xn--bcher-kva.", "a\\032b.bücher."},
    {"a valid and an invalid A-label", BYTES("\015xn--bcher-kva\012xn--ab-m1t\000"), U,
     "xn--bcher-kva.xn--ab-m1t.", ""},
    {"A-label and a raw 8-bit label", BYTES("\015xn--bcher-kva\002\303\274\000"), U,
     "xn--bcher-kva.\\195\\188.", ""},
    {"A-label then malformed", BYTES("\015xn--bcher-kva\300\014"), U,
     "xn--bcher-kva.\\#malformed", ""},
    {"ZWJ, Sinhala, idna2008", BYTES("\020xn--10cl1a0b660p\000"), I, "xn--10cl1a0b660p.",
     "\xe0\xb7\x81\xe0\xb7\x8a\\u{200D}\xe0\xb6\xbb\xe0\xb7\x93."},
    {"ZWNJ in Arabic joining context", BYTES("\023xn--mgba3gch31f060k\000"), U,
     "xn--mgba3gch31f060k.",
     "\xd9\x86\xd8\xa7\xd9\x85\xd9\x87\\u{200C}\xd8\xa7\xdb\x8c."},
    /* The codec's punycode mode accepts these; the display must not. */
    {"punycode: a U+202E b", BYTES("\012xn--ab-g4t\000"), P, "xn--ab-g4t.", "a\\u{202E}b."},
    {"punycode: a U+2066 b U+2028 c", BYTES("\016xn--abc-iq0a9n\000"), P, "xn--abc-iq0a9n.",
     "a\\u{2066}b\\u{2028}c."},
    {"punycode: newline in the basic part", BYTES("\013xn--a\nb-joa\000"), P,
     "xn--a\\010b-joa.", "a\\u{000A}bü."},
    {"uts46: a U+202E b", BYTES("\012xn--ab-g4t\000"), U, "xn--ab-g4t.", ""},
    {"idna2008: newline in the basic part", BYTES("\013xn--a\nb-joa\000"), I,
     "xn--a\\010b-joa.", ""},
    {"Hebrew label, bidi rule holds", BYTES("\007xn--4db\007example\000"), U,
     "xn--4db.example.", "\xd7\x90.example."},
};

#define NNAMES (sizeof names / sizeof names[0])

/* idng_display_text_plain: the prefix idng_display_text_to leaves as it
 * is, which the CLI copies without escaping; and idng_json_escape, the
 * one JSON escaper, exposed for the CLI's --format=json. */
START_TEST(test_text_plain_and_json_escape)
{
    static const struct {
        const char *s;
        size_t plain;
        const char *json;
    } rows[] = {
        {"xn--bcher-kva.de", 16, "xn--bcher-kva.de"},
        {"b\xc3\xbc" "cher", 7, "b\xc3\xbc" "cher"},
        {"a b", 3, "a\\u0020b"},
        {"a\\b", 1, "a\\\\b"},
        {"a\x1b[", 1, "a\\u001b["},
        {"\xc3\x9c", 0, "\\u00dc"},        /* mapped under UTS #46 */
        {"a\xe2\x80\x8d", 1, "a\\u200d"},  /* a joiner */
        {"ok\xff", 2, "ok\\ufffd"},
        {"q\"", 2, "q\\\""},
        {"\xf0\x9f\x92\xa9", 4, "\xf0\x9f\x92\xa9"},
    };
    size_t i;

    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const char *s = rows[i].s;
        char shown[64], json[64];
        size_t n = strlen(s), k = idng_display_text_plain(s, n);
        ck_assert_msg(k == rows[i].plain, "%zu: plain %zu, want %zu", i, k, rows[i].plain);
        /* What is plain is shown as it is. */
        ck_assert_uint_ge(idng_display_text(s, n, shown, sizeof shown), k);
        ck_assert_msg(memcmp(shown, s, k) == 0, "%zu: '%s'", i, shown);
        k = idng_json_escape((const unsigned char *)s, n, json);
        json[k] = '\0';
        ck_assert_msg(strcmp(json, rows[i].json) == 0, "%zu: json '%s', want '%s'", i, json,
                      rows[i].json);
    }
    ck_assert_uint_eq(idng_display_text_plain(NULL, 0), 0);
}
END_TEST

START_TEST(test_names)
{
    const struct name_row *t = &names[_i];
    char out[IDNG_DISPLAY_UNICODE_MAX];
    size_t n;

    n = idng_display_name((const uint8_t *)t->wire, t->len, out, sizeof out);
    REQUIRE(n == strlen(t->name) && strcmp(out, t->name) == 0, "%s: name %s, want %s",
            t->what, out, t->name);
    check_safe(t->what, out, n, sizeof out);
    n = idng_display_unicode((const uint8_t *)t->wire, t->len, t->mode, out, sizeof out);
    REQUIRE(n == strlen(t->unicode) && strcmp(out, t->unicode) == 0,
            "%s: unicode \"%s\", want \"%s\"", t->what, out, t->unicode);
    check_safe(t->what, out, n, sizeof out);
}
END_TEST

START_TEST(test_null_and_tiny_buffers)
{
    char out[8];
    struct idng_logrec r;

    /* "\#malformed" does not fit 8 octets: nothing rather than half of it. */
    ck_assert_uint_eq(idng_display_name(NULL, 0, out, sizeof out), 0);
    ck_assert_str_eq(out, "");
    ck_assert_uint_eq(idng_display_name(NULL, 5, out, 1), 0);
    ck_assert_str_eq(out, "");
    ck_assert_uint_eq(idng_display_name((const uint8_t *)"\000", 1, out, 2), 1);
    ck_assert_str_eq(out, ".");
    ck_assert_uint_eq(idng_display_name((const uint8_t *)"\000", 1, NULL, 0), 0);
    ck_assert_uint_eq(idng_display_unicode(NULL, 3, U, out, sizeof out), 0);
    ck_assert_str_eq(out, "");
    ck_assert_uint_eq(idng_display_unicode((const uint8_t *)"\000", 1, (idng_mode)7, out, sizeof out),
                      0);
    ck_assert_uint_eq(idng_log_format(NULL, IDNG_LOGFMT_JSON, 1, out, sizeof out), 0);
    ck_assert_str_eq(out, "");
    memset(&r, 0, sizeof r);
    ck_assert_uint_eq(idng_log_format(&r, IDNG_LOGFMT_TEXT, 1, NULL, 0), 0);
    ck_assert_uint_eq(idng_log_format(&r, IDNG_LOGFMT_TEXT, 1, out, 1), 0);
    ck_assert_str_eq(out, "");
}
END_TEST

/* ---- mnemonics ---- */

struct mn_row {
    int kind; /* 0 type, 1 class, 2 rcode */
    int value;
    const char *want;
};

static const struct mn_row mnemonics[] = {
    {0, 1, "A"},          {0, 28, "AAAA"},       {0, 5, "CNAME"},     {0, 23, "NSAP-PTR"},
    {0, 65, "HTTPS"},     {0, 255, "ANY"},       {0, 257, "CAA"},     {0, 32769, "DLV"},
    {0, 0, "TYPE0"},      {0, 54, "TYPE54"},     {0, 123, "TYPE123"}, {0, 65535, "TYPE65535"},
    {1, 1, "IN"},         {1, 3, "CH"},          {1, 4, "HS"},        {1, 254, "NONE"},
    {1, 255, "ANY"},      {1, 2, "CLASS2"},      {1, 42, "CLASS42"},  {1, 0, "CLASS0"},
    {1, 65535, "CLASS65535"},
    {2, 0, "NOERROR"},    {2, 1, "FORMERR"},     {2, 2, "SERVFAIL"},  {2, 3, "NXDOMAIN"},
    {2, 4, "NOTIMPL"},    {2, 5, "REFUSED"},     {2, 6, "YXDOMAIN"},  {2, 7, "YXRRSET"},
    {2, 8, "NXRRSET"},    {2, 9, "NOTAUTH"},     {2, 10, "NOTZONE"},  {2, 11, "RCODE11"},
    {2, 12, "RCODE12"},   {2, 15, "RCODE15"},    {2, 4095, "RCODE4095"}, {2, -1, "DROPPED"},
    {2, -2, "-"},
};

#define NMNEMONICS (sizeof mnemonics / sizeof mnemonics[0])

START_TEST(test_mnemonics)
{
    const struct mn_row *t = &mnemonics[_i];
    char buf[IDNG_LOG_MNEMONIC_MAX];
    const char *got;

    memset(buf, 'X', sizeof buf);
    if (t->kind == 0)
        got = idng_log_type_name((uint16_t)t->value, buf, sizeof buf);
    else if (t->kind == 1)
        got = idng_log_class_name((uint16_t)t->value, buf, sizeof buf);
    else
        got = idng_log_rcode_name(t->value, buf, sizeof buf);
    REQUIRE(got != NULL && strcmp(got, t->want) == 0, "kind %d value %d: %s, want %s",
            t->kind, t->value, got ? got : "(null)", t->want);
}
END_TEST

START_TEST(test_mnemonic_buffers)
{
    char buf[4];

    ck_assert_str_eq(idng_log_type_name(123, NULL, 0), "-");
    ck_assert_str_eq(idng_log_type_name(1, NULL, 0), "A");
    ck_assert_str_eq(idng_log_class_name(42, buf, 0), "-");
    ck_assert_str_eq(idng_log_rcode_name(12, buf, sizeof buf), "RCO"); /* truncated, terminated */
}
END_TEST

/* ---- time ---- */

struct time_row {
    long long sec;
    long usec;
    const char *want; /* the text line's first field */
};

static const struct time_row times[] = {
    {0, 0, "1970-01-01T00:00:00.000000Z"},
    {T_SEC, T_USEC, "2026-11-21T05:53:32.123456Z"},
    {T_SEC, 999999, "2026-11-21T05:53:32.999999Z"},
    {T_SEC, 1000000, "2026-11-21T05:53:33.000000Z"}, /* microseconds carry */
    {T_SEC, -1, "2026-11-21T05:53:31.999999Z"},
    {951782400, 0, "2000-02-29T00:00:00.000000Z"},
    {4102444799LL, 0, "2099-12-31T23:59:59.000000Z"},
    {4107542400LL, 0, "2100-03-01T00:00:00.000000Z"}, /* 2100 is no leap year */
    {253402300799LL, 999999, "9999-12-31T23:59:59.999999Z"}, /* the last by hand */
    {253402300800LL, 0, "10000-01-01T00:00:00.000000Z"}, /* then gmtime's "%04d" */
    {-1, 0, "1969-12-31T23:59:59.000000Z"},
    {0, -1, "1969-12-31T23:59:59.999999Z"},
    {(long long)1 << 62, 0, "-"}, /* not representable: unknown */
};

#define NTIMES (sizeof times / sizeof times[0])

START_TEST(test_time)
{
    const struct time_row *t = &times[_i];
    struct idng_logrec r;
    char out[IDNG_LOG_LINE_MAX];
    size_t n, want = strlen(t->want);

    memset(&r, 0, sizeof r);
    r.time_sec = t->sec;
    r.time_usec = t->usec;
    r.qname = (const uint8_t *)"";
    r.qname_len = 1;
    r.ede = -1;
    n = idng_log_format(&r, IDNG_LOGFMT_TEXT, 1, out, sizeof out);
    REQUIRE(n > want && memcmp(out, t->want, want) == 0 && out[want] == ' ',
            "%lld.%ld: %s, want %s", t->sec, t->usec, out, t->want);
    n = idng_log_format(&r, IDNG_LOGFMT_JSON, 1, out, sizeof out);
    check_line("time", &r, IDNG_LOGFMT_JSON, strcmp(t->want, "-") != 0, out, n, sizeof out);
}
END_TEST

/* The hand-written date agrees with gmtime_r over the years it covers
 * (1970 to 9999), a second in every 13,337,831 (a stride prime to the day's
 * and leap cycles' lengths) plus the first and last of each day near it. */
START_TEST(test_time_sweep)
{
    struct idng_logrec r;
    char out[IDNG_LOG_LINE_MAX], want[64];
    long long sec, k;
    struct tm tm;
    time_t t;

    memset(&r, 0, sizeof r);
    r.qname = (const uint8_t *)"";
    r.qname_len = 1;
    r.ede = -1;
    for (sec = 0; sec < 253402300800LL; sec += 13337831) {
        for (k = 0; k < 3; k++) {
            r.time_sec = k == 0 ? sec : k == 1 ? sec - sec % 86400 : sec - sec % 86400 + 86399;
            r.time_usec = (long)(sec % 1000000);
            t = (time_t)r.time_sec;
            ck_assert_ptr_nonnull(gmtime_r(&t, &tm));
            snprintf(want, sizeof want, "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ ", tm.tm_year + 1900,
                     tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, r.time_usec);
            idng_log_format(&r, IDNG_LOGFMT_TEXT, 1, out, sizeof out);
            REQUIRE(strncmp(out, want, strlen(want)) == 0, "%lld: %s, want %s", r.time_sec, out,
                    want);
        }
    }
}
END_TEST

/* ---- client addresses: inet_ntop's text ---- */

static const char *const addr_texts[] = {
    "0.0.0.0", "127.0.0.1", "192.0.2.255", "10.20.30.4", "255.255.255.255", "1.0.100.9",
    "::1", "2001:db8::7", "::ffff:192.0.2.1", "fe80::1:2:3:4",
};

#define NADDRS (sizeof addr_texts / sizeof addr_texts[0])

START_TEST(test_client)
{
    const char *text = addr_texts[_i];
    unsigned char a[16], anon[16];
    int af = strchr(text, ':') ? AF_INET6 : AF_INET;
    size_t len = af == AF_INET ? 4 : 16, cap;
    char got[64], want[64];

    ck_assert_int_eq(inet_pton(af, text, a), 1);
    ck_assert_str_eq(idng_log_client(a, len, 0, got, sizeof got), text);
    /* anonymized: the last octet, the last 80 bits */
    memcpy(anon, a, len);
    if (len == 4)
        anon[3] = 0;
    else
        memset(anon + 6, 0, 10);
    ck_assert_ptr_nonnull(inet_ntop(af, anon, want, sizeof want));
    ck_assert_str_eq(idng_log_client(a, len, 1, got, sizeof got), want);
    /* too small a buffer: NULL and "", as inet_ntop */
    for (cap = 1; cap <= strlen(text); cap++) {
        memset(got, 'x', sizeof got);
        ck_assert_ptr_null(idng_log_client(a, len, 0, got, cap));
        ck_assert_int_eq(got[0], '\0');
    }
    ck_assert_str_eq(idng_log_client(a, len, 0, got, cap), text);
}
END_TEST

/* ---- worst cases fit the documented buffer sizes ---- */

/* Appends a label to a wire name being built. */
static void put_label(uint8_t *wire, size_t *len, const void *label, size_t n)
{
    wire[(*len)++] = (uint8_t)n;
    memcpy(wire + *len, label, n);
    *len += n;
}

/* An A-label of k copies of cp (punycode mode only), written into out. */
static size_t repeat_alabel(uint32_t cp, size_t k, char *out)
{
    uint32_t u[IDNG_LABEL_MAX];
    size_t i, n = IDNG_LABEL_MAX - 4;

    for (i = 0; i < k; i++)
        u[i] = cp;
    ck_assert_int_eq(idng_punycode_encode(u, k, NULL, out + 4, &n), IDNG_OK);
    memcpy(out, "xn--", 4);
    return n + 4;
}

START_TEST(test_worst_cases)
{
    static char line[IDNG_LOG_LINE_MAX + 4096], name[IDNG_DISPLAY_NAME_MAX + 64],
        uni[IDNG_DISPLAY_UNICODE_MAX + 64];
    uint8_t wire[600];
    char lab[64], strs[64];
    size_t len = 0, n, k, nl, nu, fmt;
    struct idng_logrec r;

    /* 254 octets that all need \DDD, then a pointer: the longest name. */
    memset(lab, 0, sizeof lab);
    for (k = 0; k < 3; k++)
        put_label(wire, &len, lab, 63);
    put_label(wire, &len, lab, 61);
    ck_assert_uint_eq(len, 254);
    wire[len++] = 0xC0;
    wire[len++] = 0;
    nl = idng_display_name(wire, len, name, sizeof name);
    REQUIRE(nl < IDNG_DISPLAY_NAME_MAX, "name of %zu octets for IDNG_DISPLAY_NAME_MAX %d", nl,
            IDNG_DISPLAY_NAME_MAX);
    ck_assert(nl > 1000);
    /* One label more is over 255 octets: malformed, and read no further. */
    wire[254] = 1;
    wire[255] = 'a';
    wire[256] = 0;
    ck_assert_int_ne(idng_wire_check(wire, 257, P, NULL), IDNG_OK);
    n = idng_display_name(wire, 257, name, sizeof name);
    ck_assert_uint_eq(n, nl);
    ck_assert_str_eq(name + n - 11, "\\#malformed");

    /* A-labels of U+10FFFF repeated: the longest Unicode form. */
    len = 0;
    for (k = 0; k < 4; k++) {
        n = repeat_alabel(0x10FFFF, k < 3 ? 55 : 53, lab);
        ck_assert(n <= IDNG_LABEL_MAX);
        put_label(wire, &len, lab, n);
    }
    wire[len++] = 0;
    ck_assert_uint_le(len, 255);
    nu = idng_display_unicode(wire, len, P, uni, sizeof uni);
    REQUIRE(nu > 2000 && nu < IDNG_DISPLAY_UNICODE_MAX, "unicode form of %zu octets", nu);

    /* With a 63-octet label of NULs and 63-octet strings of controls. */
    memset(strs, 1, 63);
    strs[63] = '\0';
    memset(&r, 0, sizeof r);
    r.time_sec = T_SEC;
    r.client = r.verdict = r.action = r.path = strs;
    r.port = 65535;
    r.qname = wire;
    r.qname_len = len;
    r.qtype = r.qclass = 65535;
    r.rcode = 4095;
    memset(lab, 0, sizeof lab);
    r.label = lab;
    r.label_len = 63;
    r.mode = P;
    r.ede = 65535;
    for (fmt = 0; fmt < 2; fmt++) {
        n = idng_log_format(&r, (enum idng_logfmt)fmt, 1, line, sizeof line);
        REQUIRE(n < IDNG_LOG_LINE_MAX, "format %zu: line of %zu octets", fmt, n);
        check_line("worst case", &r, (enum idng_logfmt)fmt, 1, line, n, sizeof line);
    }
    /* And the longest escaped name in the same line. */
    len = 0;
    memset(lab, 0, sizeof lab);
    for (k = 0; k < 3; k++)
        put_label(wire, &len, lab, 63);
    put_label(wire, &len, lab, 61);
    wire[len++] = 0xC0;
    r.qname_len = len;
    for (fmt = 0; fmt < 2; fmt++) {
        n = idng_log_format(&r, (enum idng_logfmt)fmt, 1, line, sizeof line);
        REQUIRE(n < IDNG_LOG_LINE_MAX, "format %zu: line of %zu octets", fmt, n);
        check_line("worst case 2", &r, (enum idng_logfmt)fmt, 1, line, n, sizeof line);
    }
}
END_TEST

/* ---- properties over random names ---- */

#define RANDOM_LOOPS 100
#define RANDOM_PER_LOOP 1000

static uint64_t rnd_next(uint64_t *s)
{
    /* splitmix64: small, good enough, deterministic across platforms */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static size_t rnd(uint64_t *s, size_t n)
{
    return (size_t)(rnd_next(s) % n);
}

/* Real A-labels; the second half is valid only in punycode mode. */
static const char *const alabels[] = {
    "xn--bcher-kva", "XN--BCHER-KVA", "xn--ls8h",   "xn--10cl1a0b660p", "xn--mgba3gch31f060k",
    "xn--4db",       "xn--80aafi6cg", "xn--p1ai",   "xn--zca",          "xn--nxasmm1c",
    "xn--ab-m1t",    "xn--ab-g4t",    "xn--abc-iq0a9n", "xn--a\nb-joa", "xn--\033[2J.x-fm0c",
    "xn--() \"\\-kva", "xn--x",       "xn--",
};
#define NALABELS (sizeof alabels / sizeof alabels[0])

/* UTF-8 of the code points that must never appear in output. */
static const char *const hostile_utf8[] = {
    "\xe2\x80\x8e", "\xe2\x80\x8f", "\xe2\x80\xaa", "\xe2\x80\xab", "\xe2\x80\xac",
    "\xe2\x80\xad", "\xe2\x80\xae", "\xe2\x81\xa6", "\xe2\x81\xa7", "\xe2\x81\xa8",
    "\xe2\x81\xa9", "\xe2\x80\xa8", "\xe2\x80\xa9", "\xe2\x80\x8b", "\xe2\x80\x8c",
    "\xe2\x80\x8d", "\xef\xbb\xbf", "\xc2\x85",     "\xc2\xa0",     "\xf0\x9f\x92\xa9",
};
#define NHOSTILE (sizeof hostile_utf8 / sizeof hostile_utf8[0])

static const char dangerous[] = " .\\\"();@$#:\x7f";

static uint8_t rnd_octet(uint64_t *s, int ascii)
{
    size_t k = rnd(s, 100);

    if (ascii && k >= 35 && k < 55)
        return (uint8_t)rnd(s, 0x80);

    if (k < 20)
        return (uint8_t)rnd(s, 0x21); /* 0x00-0x20 */
    if (k < 35)
        return (uint8_t)dangerous[rnd(s, sizeof dangerous - 1)];
    if (k < 45)
        return (uint8_t)(0x80 + rnd(s, 0x80));
    if (k < 55)
        return (uint8_t)rnd(s, 256);
    return (uint8_t)"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_*"[rnd(s, 65)];
}

/* A random label body of 1..63 octets into out; ascii: no octet >= 0x80. */
static size_t rnd_label(uint64_t *s, uint8_t *out, int ascii)
{
    size_t k = rnd(s, 100), n, want;

    if (k < 30) {
        const char *a = alabels[rnd(s, NALABELS)];
        n = strlen(a);
        memcpy(out, a, n);
        return n;
    }
    want = 1 + (k < 90 ? rnd(s, 20) : rnd(s, 63));
    n = 0;
    while (n < want) {
        if (!ascii && rnd(s, 100) < 20) {
            const char *h = hostile_utf8[rnd(s, NHOSTILE)];
            size_t m = strlen(h);
            if (n + m > want)
                break;
            memcpy(out + n, h, m);
            n += m;
        } else {
            out[n++] = rnd_octet(s, ascii);
        }
    }
    if (n == 0)
        out[n++] = rnd_octet(s, ascii);
    return n;
}

/*
 * A random wire name, usually well formed, into wire (room for 512).  One
 * in four has no octet >= 0x80 outside A-labels, so that the codec accepts
 * more of them and the Unicode form is exercised beside hostile ASCII.
 */
static size_t rnd_wire(uint64_t *s, uint8_t *wire)
{
    size_t len = 0, labels = rnd(s, 100) < 90 ? rnd(s, 6) : rnd(s, 12), i, k;
    uint8_t lab[IDNG_LABEL_MAX];
    int ascii = rnd(s, 4) == 0;

    for (i = 0; i < labels; i++) {
        size_t n = rnd_label(s, lab, ascii);
        put_label(wire, &len, lab, n);
    }
    k = rnd(s, 100);
    if (k < 75) {
        wire[len++] = 0;
        if (rnd(s, 10) == 0)
            wire[len++] = rnd_octet(s, 0); /* trailing octet */
    } else if (k < 82) {
        wire[len++] = (uint8_t)(1 + rnd(s, 63)); /* runs past the end */
        wire[len++] = 'a';
    } else if (k < 88) {
        wire[len++] = (uint8_t)(0xC0 | rnd(s, 64));
        wire[len++] = (uint8_t)rnd(s, 256);
    } else if (k < 92) {
        wire[len++] = (uint8_t)(0x40 + rnd(s, 0x80)); /* 0x40-0xBF: other label types */
    } else if (k < 96 && len > 0) {
        len -= 1 + rnd(s, len); /* cut anywhere */
    } /* else: no root label at all */
    return len;
}

static const char *const clients[] = {
    NULL, "", "127.0.0.1", "::1", "2001:db8::53", "fe80::1%eth0", "1.2.3.4 evil\n", "\xe2\x80\xae",
    "\xff\xfe", "a\\b\"c",
};
static const char *const verdicts[] = {
    NULL, "ok", "contextj", "bidi", "raw-8bit", "allow", "deny", "x\x1b[31m", "\xe2\x81\xa6q",
    "\xf0\x9f\x92\xa9", "\xf3\xa0\x80\x81", /* U+E0001 LANGUAGE TAG: a surrogate pair in JSON */
};
static const char *const actions[] = {NULL, "pass", "log", "refuse", "nxdomain", "drop",
                                      "normalize", "a b"};
static const char *const paths[] = {NULL, "resolved", "cache", "local", "servfail", "policy",
                                    "\r\n"};

#define PICK(s, arr) ((arr)[rnd(s, sizeof(arr) / sizeof((arr)[0]))])

START_TEST(test_random_names)
{
    static char line[IDNG_LOG_LINE_MAX];
    uint64_t seed = 0x1D9A5EEDULL + (uint64_t)_i * 7919, s = seed;
    uint8_t wire[512], lab[IDNG_LABEL_MAX];
    size_t iter;

    for (iter = 0; iter < RANDOM_PER_LOOP; iter++) {
        struct idng_logrec r;
        char what[1400], hex[1200];
        size_t wlen = rnd_wire(&s, wire), fmt;

        memset(&r, 0, sizeof r);
        r.time_sec = (long long)rnd(&s, 4102444800ULL);
        r.time_usec = (long)rnd(&s, 1000000);
        r.client = PICK(&s, clients);
        r.port = (unsigned)rnd(&s, 65536);
        r.qname = wire;
        r.qname_len = wlen;
        r.qtype = (uint16_t)(rnd(&s, 2) ? rnd(&s, 70) : rnd(&s, 65536));
        r.qclass = (uint16_t)(rnd(&s, 2) ? 1 : rnd(&s, 65536));
        r.rcode = (int)rnd(&s, 20) - 2;
        r.verdict = PICK(&s, verdicts);
        if (rnd(&s, 2)) {
            r.label_len = rnd_label(&s, lab, 0);
            r.label = (const char *)lab;
        }
        r.action = PICK(&s, actions);
        r.path = PICK(&s, paths);
        r.mode = (idng_mode)rnd(&s, 3);
        r.ede = (int)rnd(&s, 30) - 1;
        r.lookalike = rnd(&s, 4) == 0 ? (unsigned)rnd(&s, 8) : 0;
        snprintf(what, sizeof what, "loop %d iteration %zu mode %d wire %s", _i, iter, r.mode,
                 show(wire, wlen, hex, sizeof hex));

        for (fmt = 0; fmt < 2; fmt++) {
            int with_time = (int)rnd(&s, 2);
            size_t n = idng_log_format(&r, (enum idng_logfmt)fmt, with_time, line, sizeof line);
            check_line(what, &r, (enum idng_logfmt)fmt, with_time, line, n, sizeof line);
            if (rnd(&s, 100) == 0) {
                struct fmt_ctx fc;
                fc.r = &r;
                fc.fmt = (enum idng_logfmt)fmt;
                fc.with_time = with_time;
                check_truncation(what, fmt_line, &fc, (int)fmt);
            } else {
                /* One random capacity: a safe prefix. */
                static char part[IDNG_LOG_LINE_MAX];
                size_t cap = 1 + rnd(&s, n + 1), m;
                m = idng_log_format(&r, (enum idng_logfmt)fmt, with_time, part, cap);
                check_safe(what, part, m, cap);
                REQUIRE(memcmp(part, line, m) == 0, "%s: cap %zu: not a prefix", what, cap);
            }
        }
    }
}
END_TEST

/*
 * Agreement with the codec: for names of plain LDH labels and valid
 * A-labels, the Unicode form with its \u{XXXX} escapes undone equals
 * idng_to_unicode of the text name.
 */
static size_t unescape_unicode(const char *s, size_t n, char *out)
{
    size_t i = 0, k = 0;

    while (i < n) {
        if (s[i] == '\\' && i + 2 < n && s[i + 1] == 'u' && s[i + 2] == '{') {
            uint32_t cp = (uint32_t)strtoul(s + i + 3, NULL, 16);
            k += idng_utf8_encode(cp, (unsigned char *)out + k);
            i = (size_t)(strchr(s + i, '}') - s) + 1;
        } else {
            out[k++] = s[i++];
        }
    }
    out[k] = '\0';
    return k;
}

START_TEST(test_codec_agreement)
{
    static const char *const clean[] = {
        "xn--bcher-kva", "XN--BCHER-KVA", "xn--ls8h", "xn--10cl1a0b660p", "xn--mgba3gch31f060k",
        "xn--4db",       "xn--80aafi6cg", "xn--p1ai", "xn--zca",          "xn--nxasmm1c",
        "xn--ab-m1t",    "xn--ab-g4t",    "xn--abc-iq0a9n", "xn--5dbb",   "xn--0ca",
    };
    uint64_t s = 42;
    size_t iter, checked = 0;

    for (iter = 0; iter < 20000; iter++) {
        uint8_t wire[300];
        char text[300], uni[IDNG_DISPLAY_UNICODE_MAX], plain[IDNG_DISPLAY_UNICODE_MAX],
            want[IDNG_DISPLAY_UNICODE_MAX];
        size_t wlen = 0, tlen = 0, labels = 1 + rnd(&s, 4), i, n, wn = sizeof want - 1;
        idng_mode mode = (idng_mode)rnd(&s, 3);
        idng_status st;

        for (i = 0; i < labels; i++) {
            char lab[IDNG_LABEL_MAX];
            size_t m;
            if (rnd(&s, 2)) {
                const char *a = clean[rnd(&s, sizeof clean / sizeof clean[0])];
                m = strlen(a);
                memcpy(lab, a, m);
            } else {
                size_t j;
                m = 1 + rnd(&s, 10);
                for (j = 0; j < m; j++)
                    lab[j] = "abcdefghijklmnopqrstuvwxyz0123456789"[rnd(&s, 36)];
            }
            put_label(wire, &wlen, lab, m);
            memcpy(text + tlen, lab, m);
            tlen += m;
            text[tlen++] = '.';
        }
        wire[wlen++] = 0;
        n = idng_display_unicode(wire, wlen, mode, uni, sizeof uni);
        st = idng_to_unicode(text, tlen, want, &wn, mode, 0, NULL);
        if (n == 0) {
            int has_ace = 0;
            for (i = 0; i + 4 <= tlen; i++)
                has_ace |= (text[i] | 0x20) == 'x' && (text[i + 1] | 0x20) == 'n'
                           && text[i + 2] == '-' && text[i + 3] == '-';
            REQUIRE(st != IDNG_OK || !has_ace, "%.*s mode %d: codec accepts, no Unicode form",
                    (int)tlen, text, mode);
            continue;
        }
        REQUIRE(st == IDNG_OK, "%.*s mode %d: Unicode form but codec says %s", (int)tlen,
                text, mode, idng_status_class_name(st));
        unescape_unicode(uni, n, plain);
        REQUIRE(strlen(plain) == wn && memcmp(plain, want, wn) == 0,
                "%.*s mode %d: %s, codec %.*s", (int)tlen, text, mode, plain, (int)wn, want);
        checked++;
    }
    ck_assert_uint_gt(checked, 1000);
}
END_TEST

/* The escaper lint-zone's JSON lines share with the log's: exact output,
 * within IDNG_JSON_ROOM, for each kind of octet it treats apart. */
START_TEST(test_json_escape)
{
    static const char in[] = "a b\"\\\x01\x7f\xc3\xbc\xe2\x80\xae\xf0\x9f\x98\x89\xff.";
    static const char want[] = "a\\u0020b\\\"\\\\\\u0001\\u007f\xc3\xbc\\u202e\xf0\x9f\x98\x89"
                               "\\ufffd.";
    char out[IDNG_JSON_ROOM(sizeof in - 1)];
    size_t n = idng_json_escape((const unsigned char *)in, sizeof in - 1, out);

    ck_assert_msg(n == sizeof want - 1 && memcmp(out, want, n) == 0, "got %.*s", (int)n, out);
}
END_TEST

static Suite *log_suite(void)
{
    Suite *s = suite_create("log");
    TCase *tc = tcase_create("golden");

    tcase_add_loop_test(tc, test_golden_text, 0, NGOLDEN);
    tcase_add_loop_test(tc, test_golden_json, 0, NGOLDEN);
    tcase_add_test(tc, test_extra_fields);
    tcase_add_loop_test(tc, test_golden_truncation, 0, NGOLDEN);
    tcase_add_loop_test(tc, test_names, 0, NNAMES);
    tcase_add_test(tc, test_text_plain_and_json_escape);
    tcase_add_test(tc, test_null_and_tiny_buffers);
    tcase_add_loop_test(tc, test_mnemonics, 0, NMNEMONICS);
    tcase_add_test(tc, test_mnemonic_buffers);
    tcase_add_loop_test(tc, test_time, 0, NTIMES);
    tcase_add_test(tc, test_worst_cases);
    tcase_add_loop_test(tc, test_client, 0, NADDRS);
    tcase_add_test(tc, test_json_escape);
    suite_add_tcase(s, tc);

    tc = tcase_create("properties");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_random_names, 0, RANDOM_LOOPS);
    tcase_add_test(tc, test_codec_agreement);
    tcase_add_test(tc, test_time_sweep);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(log_suite)
