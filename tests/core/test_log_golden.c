/**
 * \file
 * Log lines (core/log.c), golden: the exact text and JSON line per
 * kind of query (hostile names among them: control octets, bidi controls
 * raw and inside A-labels, joiners, malformed wire names; a lookalike's
 * line), the fields a line carries when the module knows them, and
 * truncation of each line, name and Unicode form at every capacity.
 */
#include "log_check.h"

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

static Suite *log_golden_suite(void)
{
    Suite *s = suite_create("log-golden");
    TCase *tc = tcase_create("golden");

    tcase_add_loop_test(tc, test_golden_text, 0, NGOLDEN);
    tcase_add_loop_test(tc, test_golden_json, 0, NGOLDEN);
    tcase_add_test(tc, test_extra_fields);
    tcase_add_loop_test(tc, test_golden_truncation, 0, NGOLDEN);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(log_golden_suite)
