/**
 * \file
 * Log lines (core/log.c), properties over 100000 random wire names
 * and records with hostile strings: no control octet, no DEL, no invisible
 * or bidi code point, valid UTF-8, one valid JSON object with every key,
 * the fields agree with idng_display_name / idng_display_unicode, and
 * truncation at any capacity yields a prefix that ends between escapes;
 * and the Unicode form agrees with the codec's idng_to_unicode.
 */
#include "log_check.h"

#include <stdlib.h>

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

static Suite *log_random_suite(void)
{
    Suite *s = suite_create("log-random");
    TCase *tc = tcase_create("properties");

    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_random_names, 0, RANDOM_LOOPS);
    tcase_add_test(tc, test_codec_agreement);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(log_random_suite)
