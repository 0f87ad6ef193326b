/**
 * \file
 * Log lines (core/log.c), field by field: names on their own (every
 * malformation, hostile octets and code points, A-labels per mode), the
 * plain prefix and the JSON escaper, NULL and tiny buffers, the type,
 * class and rcode mnemonics, the time (against gmtime_r over the years
 * it covers), client addresses, and worst cases within the documented
 * buffer sizes.
 */
#include "log_check.h"

#include <arpa/inet.h>
#include <time.h>

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

/* The suites' JSON reader (tests/json_flat.h) itself: what it must refuse,
 * so that the checks made with it can fail. */
static const struct {
    const char *text;
    unsigned flags;
    int members;        /* -1: refused */
    const char *second; /* the second member's value, decoded (NULL: no check) */
} jcases[] = {
    {"{\"a\":null,\"b\":\"x\\u00e9\\ud83d\\ude00\\/\"}", TJ_COMPACT | TJ_U_ONLY, 2,
     "x\xc3\xa9\xf0\x9f\x98\x80/"},
    {"{\"a\":0,\"b\":12.345}", TJ_COMPACT, 2, "12.345"},
    {"{}", TJ_COMPACT, 0, NULL},
    {" { \"a\" : 1 , \"b\" : \"\\n\" } ", 0, 2, "\n"},
    {"{\"a\": 1}", TJ_COMPACT, -1, NULL},      /* whitespace */
    {"{\"a\":\"\\n\"}", TJ_U_ONLY, -1, NULL},  /* a short escape */
    {"{\"a\":\"\\ud83d\"}", 0, -1, NULL},      /* lone high surrogate */
    {"{\"a\":\"\\ude00\"}", 0, -1, NULL},      /* lone low surrogate */
    {"{\"a\":\"\\ud83dx\"}", 0, -1, NULL},     /* high surrogate, no pair */
    {"{\"a\":\"\\x\"}", 0, -1, NULL},          /* unknown escape */
    {"{\"a\":\"\\u12g4\"}", 0, -1, NULL},      /* bad hex */
    {"{\"a\":\"\x01\"}", 0, -1, NULL},         /* raw control */
    {"{\"a\":\"\xc3\"}", 0, -1, NULL},         /* cut UTF-8 */
    {"{\"a\":\"\xed\xa0\x80\"}", 0, -1, NULL}, /* a surrogate in UTF-8 */
    {"{\"a\":01}", 0, -1, NULL},               /* leading zero */
    {"{\"a\":1.}", 0, -1, NULL},               /* no decimals */
    {"{\"a\":-}", 0, -1, NULL},
    {"{\"a\":true}", 0, -1, NULL}, /* never written */
    {"{\"a\":1}x", 0, -1, NULL},   /* text after */
    {"{\"a\":1,}", 0, -1, NULL},   /* trailing comma */
    {"{\"a\":\"x}", 0, -1, NULL},  /* unterminated */
    {"{\"a\" 1}", 0, -1, NULL},
    {"[1]", 0, -1, NULL},
    {"", 0, -1, NULL},
};
#define NJCASES ((int)(sizeof jcases / sizeof jcases[0]))

START_TEST(test_json_reader)
{
    struct tj_field f[4];
    char buf[256], err[128];
    const char *t = jcases[_i].text;
    int n = tj_flat(t, strlen(t), jcases[_i].flags, f, 4, buf, sizeof buf, err, sizeof err);

    ck_assert_msg(n == jcases[_i].members, "%s: %d members, want %d (%s)", t, n, jcases[_i].members,
                  n < 0 ? err : "");
    ck_assert_msg(n >= 0 || err[0] != '\0', "%s: refused without a reason", t);
    if (jcases[_i].second)
        ck_assert_msg(strcmp(f[1].val, jcases[_i].second) == 0 && strlen(f[1].val) == f[1].len,
                      "%s: second value \"%s\"", t, f[1].val);
}
END_TEST

static Suite *log_fields_suite(void)
{
    Suite *s = suite_create("log-fields");
    TCase *tc = tcase_create("fields");

    tcase_add_loop_test(tc, test_names, 0, NNAMES);
    tcase_add_test(tc, test_text_plain_and_json_escape);
    tcase_add_test(tc, test_null_and_tiny_buffers);
    tcase_add_loop_test(tc, test_mnemonics, 0, NMNEMONICS);
    tcase_add_test(tc, test_mnemonic_buffers);
    tcase_add_loop_test(tc, test_time, 0, NTIMES);
    tcase_add_test(tc, test_worst_cases);
    tcase_add_loop_test(tc, test_client, 0, NADDRS);
    tcase_add_test(tc, test_json_escape);
    tcase_add_loop_test(tc, test_json_reader, 0, NJCASES);
    suite_add_tcase(s, tc);

    tc = tcase_create("properties");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_time_sweep);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(log_fields_suite)
