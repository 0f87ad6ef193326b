/**
 * \file
 * One reader, for every suite, of the flat JSON objects idnguard writes:
 * its JSON log lines (`log-format: json`).  The unit suites, the
 * integration suites and the fuzz harnesses all read a line with it, each
 * then checking what it expects of the fields; it depends on the codec's
 * UTF-8 functions only, not on Check, so that the fuzz harnesses can use it.
 *
 * An object is read as RFC 8259 has it, values limited to strings, numbers
 * and null (idnguard writes nothing else): strings are checked to be valid
 * UTF-8, their escapes decoded (surrogate pairs joined, lone surrogates
 * refused); numbers must follow the RFC's grammar (so no leading zero) and
 * are kept as their text.  Two flags make it stricter, for what the writer
 * promises: TJ_COMPACT, no whitespace anywhere; TJ_U_ONLY, control
 * characters written only as \u00XX, never \n, \t and the other
 * two-character escapes.
 */
#ifndef IDNG_TESTS_JSON_FLAT_H
#define IDNG_TESTS_JSON_FLAT_H

#include "idnguard.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define TJ_COMPACT 1u /**< no whitespace between tokens */
#define TJ_U_ONLY 2u  /**< no \b \f \n \r \t escapes */

enum tj_type { TJ_NULL, TJ_STRING, TJ_NUMBER };

/** One member of the object; key and val point into the caller's buffer,
 *  decoded and NUL-terminated (val is NULL for null). */
struct tj_field {
    char *key;
    enum tj_type type;
    char *val;  /**< a string's decoded octets, or a number's text */
    size_t len; /**< of val */
};

/** The keys of a JSON log line, in the order idnguard writes them. */
#define TJ_LOG_NKEYS 17
__attribute__((unused)) static const char *const tj_log_keys[TJ_LOG_NKEYS] = {
    "time",  "client", "port",   "qname",     "qname_unicode", "lookalike",
    "qtype", "qclass", "rcode",  "verdict",   "label",         "action",
    "path",  "ede",    "target", "transport", "elapsed_ms"};

struct tj_reader {
    const char *s;
    size_t n, i;
    unsigned flags;
    char *buf;
    size_t cap, used;
    char *err;
    size_t errcap;
};

static inline int tj_fail(struct tj_reader *r, const char *msg)
{
    if (r->err[0] == '\0')
        snprintf(r->err, r->errcap, "%s at offset %zu", msg, r->i);
    return 0;
}

static inline void tj_space(struct tj_reader *r)
{
    if (r->flags & TJ_COMPACT)
        return;
    while (r->i < r->n
           && (r->s[r->i] == ' ' || r->s[r->i] == '\t' || r->s[r->i] == '\n' || r->s[r->i] == '\r'))
        r->i++;
}

static inline int tj_put(struct tj_reader *r, const void *p, size_t n)
{
    if (r->used + n >= r->cap)
        return tj_fail(r, "decode buffer full");
    memcpy(r->buf + r->used, p, n);
    r->used += n;
    return 1;
}

static inline int tj_hex4(struct tj_reader *r, uint32_t *v)
{
    size_t k;

    *v = 0;
    if (r->n - r->i < 4)
        return tj_fail(r, "short \\u escape");
    for (k = 0; k < 4; k++) {
        char c = r->s[r->i + k];
        uint32_t d = c >= '0' && c <= '9'   ? (uint32_t)(c - '0')
                     : c >= 'a' && c <= 'f' ? (uint32_t)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (uint32_t)(c - 'A' + 10)
                                            : 16;
        if (d == 16)
            return tj_fail(r, "bad hex digit in \\u escape");
        *v = *v << 4 | d;
    }
    r->i += 4;
    return 1;
}

/* A string at r->i, decoded into the buffer; *out its start. */
static inline int tj_string(struct tj_reader *r, char **out, size_t *len)
{
    size_t start = r->used;

    if (r->i >= r->n || r->s[r->i] != '"')
        return tj_fail(r, "expected a string");
    r->i++;
    for (;;) {
        unsigned char c, u8[4];
        uint32_t cp, lo;
        size_t m;

        if (r->i >= r->n)
            return tj_fail(r, "unterminated string");
        c = (unsigned char)r->s[r->i];
        if (c == '"')
            break;
        if (c < 0x20)
            return tj_fail(r, "raw control character in a string");
        if (c != '\\') {
            m = idng_utf8_decode((const unsigned char *)r->s + r->i, r->n - r->i, &cp);
            if (m == 0)
                return tj_fail(r, "invalid UTF-8 in a string");
            if (!tj_put(r, r->s + r->i, m))
                return 0;
            r->i += m;
            continue;
        }
        if (r->i + 1 >= r->n)
            return tj_fail(r, "escape at the end");
        c = (unsigned char)r->s[r->i + 1];
        r->i += 2;
        switch (c) {
        case '"':
        case '\\':
        case '/':
            cp = c;
            break;
        case 'b':
        case 'f':
        case 'n':
        case 'r':
        case 't':
            if (r->flags & TJ_U_ONLY)
                return tj_fail(r, "two-character control escape (the writer promises \\u00XX)");
            cp = c == 'b' ? 8 : c == 'f' ? 12 : c == 'n' ? 10 : c == 'r' ? 13 : 9;
            break;
        case 'u':
            if (!tj_hex4(r, &cp))
                return 0;
            if (cp >= 0xDC00 && cp <= 0xDFFF)
                return tj_fail(r, "lone low surrogate");
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                if (r->n - r->i < 2 || r->s[r->i] != '\\' || r->s[r->i + 1] != 'u')
                    return tj_fail(r, "lone high surrogate");
                r->i += 2;
                if (!tj_hex4(r, &lo))
                    return 0;
                if (lo < 0xDC00 || lo > 0xDFFF)
                    return tj_fail(r, "bad low surrogate");
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            break;
        default:
            return tj_fail(r, "unknown escape");
        }
        if (!tj_put(r, u8, idng_utf8_encode(cp, u8)))
            return 0;
    }
    r->i++;
    *out = r->buf + start;
    *len = r->used - start;
    return tj_put(r, "", 1);
}

static inline int tj_digits(struct tj_reader *r)
{
    size_t from = r->i;

    while (r->i < r->n && r->s[r->i] >= '0' && r->s[r->i] <= '9')
        r->i++;
    return r->i > from;
}

/* A number's text at r->i (RFC 8259 section 6), copied to the buffer. */
static inline int tj_number(struct tj_reader *r, char **out, size_t *len)
{
    size_t from = r->i, start = r->used;

    if (r->i < r->n && r->s[r->i] == '-')
        r->i++;
    if (r->i < r->n && r->s[r->i] == '0')
        r->i++;
    else if (!tj_digits(r))
        return tj_fail(r, "expected a value");
    if (r->i < r->n && r->s[r->i] == '.') {
        r->i++;
        if (!tj_digits(r))
            return tj_fail(r, "expected digits after '.'");
    }
    if (r->i < r->n && (r->s[r->i] == 'e' || r->s[r->i] == 'E')) {
        r->i++;
        if (r->i < r->n && (r->s[r->i] == '+' || r->s[r->i] == '-'))
            r->i++;
        if (!tj_digits(r))
            return tj_fail(r, "expected an exponent");
    }
    if (r->i < r->n && r->s[r->i] >= '0' && r->s[r->i] <= '9')
        return tj_fail(r, "leading zero");
    if (!tj_put(r, r->s + from, r->i - from) || !tj_put(r, "", 1))
        return 0;
    *out = r->buf + start;
    *len = r->i - from;
    return 1;
}

/**
 * Reads s[0..n) as exactly one flat JSON object into f (at most max
 * members), decoding into buf (cap octets).  Returns the number of members,
 * or -1 with err (errcap octets) saying what is wrong and where.
 */
static inline int tj_flat(const char *s, size_t n, unsigned flags, struct tj_field *f, int max,
                          char *buf, size_t cap, char *err, size_t errcap)
{
    struct tj_reader r = {s, n, 0, flags, buf, cap, 0, err, errcap};
    int count = 0;

    err[0] = '\0';
    tj_space(&r);
    if (r.i >= n || s[r.i] != '{')
        return tj_fail(&r, "expected '{'") - 1;
    r.i++;
    tj_space(&r);
    if (r.i < n && s[r.i] == '}')
        r.i++;
    else
        for (;;) {
            struct tj_field *m = &f[count];
            size_t klen;

            if (count == max)
                return tj_fail(&r, "more members than expected") - 1;
            if (!tj_string(&r, &m->key, &klen))
                return -1;
            tj_space(&r);
            if (r.i >= n || s[r.i] != ':')
                return tj_fail(&r, "expected ':'") - 1;
            r.i++;
            tj_space(&r);
            if (n - r.i >= 4 && memcmp(s + r.i, "null", 4) == 0) {
                m->type = TJ_NULL;
                m->val = NULL;
                m->len = 0;
                r.i += 4;
            } else if (r.i < n && s[r.i] == '"') {
                m->type = TJ_STRING;
                if (!tj_string(&r, &m->val, &m->len))
                    return -1;
            } else {
                m->type = TJ_NUMBER;
                if (!tj_number(&r, &m->val, &m->len))
                    return -1;
            }
            count++;
            tj_space(&r);
            if (r.i < n && s[r.i] == ',') {
                r.i++;
                tj_space(&r);
                continue;
            }
            if (r.i < n && s[r.i] == '}') {
                r.i++;
                break;
            }
            return tj_fail(&r, "expected ',' or '}'") - 1;
        }
    tj_space(&r);
    if (r.i != n)
        return tj_fail(&r, "text after the object") - 1;
    return count;
}

#endif
