/**
 * \file
 * Checkers shared by the log suites (tests/core/test_log_*.c): the safety
 * of any output (no control octet, no DEL, no bidi control or invisible
 * code point, valid UTF-8), truncation at every capacity, a small strict
 * reader of the JSON line, and check_line, which holds a line of either
 * format against its record.  Header-only (static inline): the Makefile
 * links each suite from its one file and tests/common.c.
 */
#ifndef IDNG_TESTS_LOG_CHECK_H
#define IDNG_TESTS_LOG_CHECK_H

#include "common.h"
#include "json_flat.h"
#include "idng_log.h"
#include "idng_lookalike.h"
#include "idnguard.h"

#include <stdio.h>
#include <string.h>

#define T_SEC 1795240412LL /* 2026-11-21T05:53:32Z */
#define T_USEC 123456L

/* The modes, short for the tables. */
#define P IDNG_MODE_PUNYCODE
#define I IDNG_MODE_IDNA2008
#define U IDNG_MODE_UTS46

static inline int forbidden_cp(uint32_t cp)
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
static inline void check_safe(const char *what, const char *out, size_t len, size_t cap)
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

static inline int is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static inline int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Length of an escape of ours at s ("\DDD", "\u{X..}", "\#malformed"), or 0. */
static inline size_t our_escape(const char *s, size_t n)
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
static inline void token_bounds(const char *s, size_t len, int json, unsigned char *ok)
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

static inline void check_truncation(const char *what, fmt_fn fn, const void *ctx, int json)
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

static inline size_t fmt_line(const void *ctx, char *out, size_t cap)
{
    const struct fmt_ctx *c = ctx;
    return idng_log_format(c->r, c->fmt, c->with_time, out, cap);
}

struct wire_ctx {
    const uint8_t *wire;
    size_t len;
    idng_mode mode;
};

static inline size_t fmt_name(const void *ctx, char *out, size_t cap)
{
    const struct wire_ctx *c = ctx;
    return idng_display_name(c->wire, c->len, out, cap);
}

static inline size_t fmt_unicode(const void *ctx, char *out, size_t cap)
{
    const struct wire_ctx *c = ctx;
    return idng_display_unicode(c->wire, c->len, c->mode, out, cap);
}

/* ---- a JSON line: tests/json_flat.h, as strict as the writer promises ---- */

/* Reads line as exactly one compact object with tj_log_keys in order;
 * numbers are non-negative integers, or three decimals (elapsed_ms). */
static inline int json_parse(const char *line, size_t len, struct tj_field *v, char *buf,
                             size_t cap, char *err, size_t errcap)
{
    int n = tj_flat(line, len, TJ_COMPACT | TJ_U_ONLY, v, TJ_LOG_NKEYS, buf, cap, err, errcap);
    size_t k;

    if (n < 0)
        return 0;
    if (n != TJ_LOG_NKEYS) {
        snprintf(err, errcap, "%d keys, not %d", n, TJ_LOG_NKEYS);
        return 0;
    }
    for (k = 0; k < TJ_LOG_NKEYS; k++) {
        const char *dot;
        if (strcmp(v[k].key, tj_log_keys[k]) != 0) {
            snprintf(err, errcap, "key %zu is \"%s\", not \"%s\"", k, v[k].key, tj_log_keys[k]);
            return 0;
        }
        if (v[k].type != TJ_NUMBER)
            continue;
        dot = strchr(v[k].val, '.');
        if (strspn(v[k].val, "0123456789.") != v[k].len || (dot != NULL && strlen(dot + 1) != 3)) {
            snprintf(err, errcap, "\"%s\": %s is not an integer or three decimals", v[k].key,
                     v[k].val);
            return 0;
        }
    }
    return 1;
}

/* ---- the record's expected pieces ---- */

static inline int valid_utf8(const char *s)
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
static inline void check_json_text(const char *what, const char *line, const struct tj_field *v,
                                   const char *want)
{
    if (want == NULL || want[0] == '\0') {
        REQUIRE(v->type == TJ_NULL, "%s: want null: %s", what, line);
        return;
    }
    REQUIRE(v->type == TJ_STRING, "%s: want a string: %s", what, line);
    if (valid_utf8(want))
        REQUIRE(strcmp(v->val, want) == 0, "%s: string does not decode to the input: %s", what,
                line);
}

/* Name escaping of a label, via idng_display_name on a one-label wire name. */
static inline size_t label_escaped(const char *label, size_t n, char *out, size_t cap)
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
static inline void check_line(const char *what, const struct idng_logrec *r, enum idng_logfmt fmt,
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
        struct tj_field v[TJ_LOG_NKEYS];
        char err[160];
        REQUIRE(json_parse(line, len, v, dec, sizeof dec, err, sizeof err),
                "%s: bad JSON: %s: %s", what, err, line);
        REQUIRE(v[3].type == TJ_STRING && v[3].len == nlen && memcmp(v[3].val, name, nlen) == 0,
                "%s: qname is not idng_display_name's \"%s\": %s", what, name, line);
        if (ulen == 0 || r->lookalike != 0)
            REQUIRE(v[4].type == TJ_NULL, "%s: qname_unicode not null: %s", what, line);
        else
            REQUIRE(v[4].type == TJ_STRING && v[4].len == ulen && memcmp(v[4].val, uni, ulen) == 0,
                    "%s: qname_unicode is not \"%s\": %s", what, uni, line);
        check_json_text(what, line, &v[5], idng_lookalike_name(r->lookalike));
        REQUIRE(v[0].type == (with_time ? TJ_STRING : TJ_NULL), "%s: time: %s", what, line);
        REQUIRE(v[2].type == (v[1].type == TJ_STRING ? TJ_NUMBER : TJ_NULL), "%s: port: %s", what,
                line);
        {
            char tb[IDNG_LOG_MNEMONIC_MAX], cb[IDNG_LOG_MNEMONIC_MAX];
            const char *ty = idng_log_type_name(r->qtype, tb, sizeof tb);
            const char *cl = idng_log_class_name(r->qclass, cb, sizeof cb);
            REQUIRE(v[6].type == TJ_STRING && strcmp(v[6].val, ty) == 0 && v[7].type == TJ_STRING
                        && strcmp(v[7].val, cl) == 0,
                    "%s: type/class: %s", what, line);
            REQUIRE(v[8].type == (r->rcode >= -1 ? TJ_STRING : TJ_NULL), "%s: rcode: %s", what,
                    line);
        }
        /* The module's strings come back exactly when they are valid UTF-8. */
        check_json_text(what, line, &v[1], r->client);
        check_json_text(what, line, &v[9], r->verdict);
        check_json_text(what, line, &v[11], r->action);
        check_json_text(what, line, &v[12], r->path);
        REQUIRE(v[13].type == (r->ede >= 0 ? TJ_NUMBER : TJ_NULL), "%s: ede: %s", what, line);
        REQUIRE(v[14].type == (r->target ? TJ_STRING : TJ_NULL), "%s: target: %s", what, line);
        check_json_text(what, line, &v[15], r->transport);
        REQUIRE(v[16].type == (r->has_elapsed ? TJ_NUMBER : TJ_NULL), "%s: elapsed_ms: %s", what,
                line);
        REQUIRE(v[10].type == (r->label ? TJ_STRING : TJ_NULL), "%s: label: %s", what, line);
        if (llen)
            REQUIRE(v[10].len == llen && memcmp(v[10].val, lab, llen) == 0,
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

/* Appends a label to a wire name being built. */
static inline void put_label(uint8_t *wire, size_t *len, const void *label, size_t n)
{
    wire[(*len)++] = (uint8_t)n;
    memcpy(wire + *len, label, n);
    *len += n;
}

#endif
