/**
 * \file
 * Log line formatter and escapers; the rules are in idng_log.h.
 *
 * All output goes through one writer that takes atoms whole or not at all
 * and, for JSON string content, passes each atom through the JSON escaper
 * first: that is what keeps truncation from splitting an escape at either
 * level.
 */
#include "idng_log.h"
#include "idng_display_put.h"
#include "idng_lookalike.h"
#include "idng_policy.h"

#include <arpa/inet.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Longest atom handed to the writer before JSON escaping ("\#malformed"). */
#define ATOM_MAX 16
/* An atom after JSON escaping: at most 6 characters per input octet. */
#define JATOM_MAX (6 * ATOM_MAX)

/* The display unit's buffer, plus JSON escaping of string content. */
struct wr {
    struct idng_display_buf b;
    int json; /* wr_str escapes its atoms for a JSON string */
};

static void wr_init(struct wr *w, char *out, size_t cap, int json)
{
    idng_display_buf_init(&w->b, out, cap);
    w->json = json;
}

/* Writes n octets that need no escaping, all or nothing. */
static inline void wr_raw(struct wr *w, const char *s, size_t n)
{
    idng_display_put_atom(&w->b, s, n);
}

static void wr_lit(struct wr *w, const char *s)
{
    wr_raw(w, s, strlen(s));
}

/* A string literal, its length known at compile time. */
#define WR_LIT(w, s) wr_raw((w), "" s, sizeof(s) - 1)

static const char hex_lower[] = "0123456789abcdef";

static size_t json_u(char *d, uint32_t v)
{
    d[0] = '\\';
    d[1] = 'u';
    d[2] = hex_lower[v >> 12 & 0xF];
    d[3] = hex_lower[v >> 8 & 0xF];
    d[4] = hex_lower[v >> 4 & 0xF];
    d[5] = hex_lower[v & 0xF];
    return 6;
}

/* RFC 8259 escaping of JSON string content: see idng_log.h. */
size_t idng_json_escape(const unsigned char *s, size_t n, char *d)
{
    size_t i = 0, k = 0;

    while (i < n) {
        uint32_t cp;
        size_t m = idng_utf8_decode(s + i, n - i, &cp);
        if (m == 0) {
            k += json_u(d + k, 0xFFFD);
            i++;
            continue;
        }
        if (cp == '"' || cp == '\\') {
            d[k++] = '\\';
            d[k++] = (char)cp;
        } else if (idng_display_safe(cp)) {
            memcpy(d + k, s + i, m);
            k += m;
        } else if (cp >= 0x10000) { /* RFC 8259 section 7: UTF-16 surrogate pair */
            k += json_u(d + k, 0xD800 + ((cp - 0x10000) >> 10));
            k += json_u(d + k, 0xDC00 + ((cp - 0x10000) & 0x3FF));
        } else {
            k += json_u(d + k, cp);
        }
        i += m;
    }
    return k;
}

/* Printable ASCII but space and '\\': what a text field (wr_field) shows as
 * itself. */
static int field_plain(unsigned char c)
{
    return c > 0x20 && c < 0x7F && c != '\\';
}

/* What idng_json_escape copies as itself among them: all but '"'. */
static int json_plain(unsigned char c)
{
    return field_plain(c) && c != '"';
}

/* Writes one atom of string content, JSON-escaped first when w->json. */
static void wr_str(struct wr *w, const char *s, size_t n)
{
    char buf[JATOM_MAX];
    size_t i;

    if (!w->json) {
        wr_raw(w, s, n);
        return;
    }
    if (n > ATOM_MAX) { /* no caller does this; keep the bound anyway */
        w->b.full = 1;
        return;
    }
    for (i = 0; i < n; i++)
        if (!json_plain((unsigned char)s[i]))
            break;
    if (i == n) /* idng_json_escape would copy it unchanged */
        wr_raw(w, s, n);
    else
        wr_raw(w, buf, idng_json_escape((const unsigned char *)s, n, buf));
}

/* The display unit's atoms, JSON-escaped when the writer says so. */
static void wr_sink(void *ctx, const char *atom, size_t n)
{
    wr_str(ctx, atom, n);
}

/* A module-supplied text field: printable ASCII but '\\' as is, else \DDD. */
static void wr_field(struct wr *w, const char *s)
{
    while (*s) {
        unsigned char c = (unsigned char)*s;
        size_t n = 0;

        while (field_plain((unsigned char)s[n]))
            n++;
        if (n > 0 && !w->json) { /* n one-octet atoms that wr_str writes as they are */
            idng_display_put_run(&w->b, s, n);
            s += n;
            continue;
        }
        if (field_plain(c))
            wr_str(w, (const char *)&c, 1);
        else
            idng_display_octet_to(c, wr_sink, w);
        s++;
    }
}

/* A JSON string value from module-supplied text, one code point per atom. */
static void wr_json_text(struct wr *w, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), i = 0;

    wr_raw(w, "\"", 1);
    while (i < n) {
        uint32_t cp;
        size_t m;

        for (m = 0; i + m < n && json_plain(p[i + m]); m++)
            ;
        if (m > 0) { /* m one-octet code points that wr_str copies as they are */
            idng_display_put_run(&w->b, s + i, m);
            i += m;
            continue;
        }
        m = idng_utf8_decode(p + i, n - i, &cp);
        if (m == 0)
            m = 1; /* becomes \ufffd */
        wr_str(w, s + i, m);
        i += m;
    }
    wr_raw(w, "\"", 1);
}

/* ---- mnemonics ---- */

struct mnemonic {
    uint16_t value;
    const char *name;
};

/* RR types as Unbound 1.17 names them (sldns/rrdef.c). */
static const struct mnemonic rr_types[] = {
    {1, "A"},          {2, "NS"},          {3, "MD"},         {4, "MF"},
    {5, "CNAME"},      {6, "SOA"},         {7, "MB"},         {8, "MG"},
    {9, "MR"},         {10, "NULL"},       {11, "WKS"},       {12, "PTR"},
    {13, "HINFO"},     {14, "MINFO"},      {15, "MX"},        {16, "TXT"},
    {17, "RP"},        {18, "AFSDB"},      {19, "X25"},       {20, "ISDN"},
    {21, "RT"},        {22, "NSAP"},       {23, "NSAP-PTR"},  {24, "SIG"},
    {25, "KEY"},       {26, "PX"},         {27, "GPOS"},      {28, "AAAA"},
    {29, "LOC"},       {30, "NXT"},        {31, "EID"},       {32, "NIMLOC"},
    {33, "SRV"},       {34, "ATMA"},       {35, "NAPTR"},     {36, "KX"},
    {37, "CERT"},      {38, "A6"},         {39, "DNAME"},     {40, "SINK"},
    {41, "OPT"},       {42, "APL"},        {43, "DS"},        {44, "SSHFP"},
    {45, "IPSECKEY"},  {46, "RRSIG"},      {47, "NSEC"},      {48, "DNSKEY"},
    {49, "DHCID"},     {50, "NSEC3"},      {51, "NSEC3PARAM"}, {52, "TLSA"},
    {53, "SMIMEA"},    {55, "HIP"},        {56, "NINFO"},     {57, "RKEY"},
    {58, "TALINK"},    {59, "CDS"},        {60, "CDNSKEY"},   {61, "OPENPGPKEY"},
    {62, "CSYNC"},     {63, "ZONEMD"},     {64, "SVCB"},      {65, "HTTPS"},
    {99, "SPF"},       {100, "UINFO"},     {101, "UID"},      {102, "GID"},
    {103, "UNSPEC"},   {104, "NID"},       {105, "L32"},      {106, "L64"},
    {107, "LP"},       {108, "EUI48"},     {109, "EUI64"},    {249, "TKEY"},
    {250, "TSIG"},     {251, "IXFR"},      {252, "AXFR"},     {253, "MAILB"},
    {254, "MAILA"},    {255, "ANY"},       {256, "URI"},      {257, "CAA"},
    {258, "AVC"},      {32768, "TA"},      {32769, "DLV"},
};

static const struct mnemonic rr_classes[] = {
    {1, "IN"}, {3, "CH"}, {4, "HS"}, {254, "NONE"}, {255, "ANY"},
};

/* Unbound's spelling (sldns/wire2str.c), so our lines match its own. */
static const char *const rcodes[] = {
    "NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMPL", "REFUSED",
    "YXDOMAIN", "YXRRSET", "NXRRSET", "NOTAUTH", "NOTZONE",
};

static const char *lookup(const struct mnemonic *t, size_t n, unsigned v, const char *generic,
                          char *buf, size_t cap)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (t[i].value == v)
            return t[i].name;
    if (buf == NULL || cap == 0)
        return "-";
    snprintf(buf, cap, "%s%u", generic, v);
    return buf;
}

const char *idng_log_type_name(uint16_t t, char *buf, size_t cap)
{
    return lookup(rr_types, sizeof rr_types / sizeof rr_types[0], t, "TYPE", buf, cap);
}

const char *idng_log_class_name(uint16_t c, char *buf, size_t cap)
{
    return lookup(rr_classes, sizeof rr_classes / sizeof rr_classes[0], c, "CLASS", buf, cap);
}

const char *idng_log_rcode_name(int rcode, char *buf, size_t cap)
{
    if (rcode == -1)
        return "DROPPED";
    if (rcode < 0)
        return "-";
    if ((size_t)rcode < sizeof rcodes / sizeof rcodes[0])
        return rcodes[rcode];
    return lookup(NULL, 0, (unsigned)rcode, "RCODE", buf, cap);
}

/* ---- the line ---- */

/* Numbers are written by hand, not with snprintf: every line holds a time,
 * a client address and port and an elapsed time, and printf's machinery
 * was a third of the tap's time per line (bench/results/tap.md). */

/* v in decimal at d, no terminator; the number of digits (at most 20). */
static size_t put_dec(char *d, unsigned long long v)
{
    char t[20];
    size_t n = 0, i;

    do {
        t[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    for (i = 0; i < n; i++)
        d[i] = t[n - 1 - i];
    return n;
}

/* An octet's value in decimal at d (as put_dec), no terminator; 1-3 digits. */
static size_t put_octet(char *d, unsigned v)
{
    if (v >= 100) {
        d[0] = (char)('0' + v / 100);
        d[1] = (char)('0' + v / 10 % 10);
        d[2] = (char)('0' + v % 10);
        return 3;
    }
    if (v >= 10) {
        d[0] = (char)('0' + v / 10);
        d[1] = (char)('0' + v % 10);
        return 2;
    }
    d[0] = (char)('0' + v);
    return 1;
}

/* "00" to "99": two digits per division in put_fixed. */
static const char digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* v in exactly w decimal digits, zero-padded (v < 10^w). */
static void put_fixed(char *d, unsigned long v, int w)
{
    while (w >= 2) {
        w -= 2;
        memcpy(d + w, digit_pairs + 2 * (v % 100), 2);
        v /= 100;
    }
    if (w == 1)
        d[0] = (char)('0' + v % 10);
}

/* prefix, then v in decimal, NUL-terminated into out (32 octets: a prefix
 * of at most 11). */
static const char *prefixed_dec(char out[32], const char *prefix, unsigned long long v)
{
    size_t n = strlen(prefix);

    memcpy(out, prefix, n);
    out[n + put_dec(out + n, v)] = '\0';
    return out;
}

/* The civil date of day z since 1970-01-01 (z >= 0): Howard Hinnant's
 * civil_from_days, proleptic Gregorian, as gmtime's. */
static void civil_from_days(long long z, int *y, int *m, int *d)
{
    long long era, doe, yoe, doy, mp;

    z += 719468; /* days from 0000-03-01 */
    era = z / 146097;
    doe = z - era * 146097;
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = (int)(yoe + era * 400 + (*m <= 2));
}

/* RFC 3339 UTC time with microseconds into buf (64 octets); 0 if unrepresentable. */
static size_t format_time(long long sec, long usec, char *buf, size_t cap)
{
    struct tm tm;
    time_t t;
    int n;

    /* Carry usec into sec (floor division), far from overflow. */
    if (sec > LLONG_MAX / 2 || sec < LLONG_MIN / 2)
        return 0;
    sec += usec / 1000000;
    usec %= 1000000;
    if (usec < 0) {
        usec += 1000000;
        sec--;
    }
    /* 1970 to 9999, all a capture holds: by hand, "%04d" never wider. */
    if (sec >= 0 && sec < 253402300800LL && cap > 27) {
        long long days = sec / 86400, s = sec % 86400;
        int y, mo, d;

        civil_from_days(days, &y, &mo, &d);
        put_fixed(buf, (unsigned long)y, 4);
        buf[4] = '-';
        put_fixed(buf + 5, (unsigned long)mo, 2);
        buf[7] = '-';
        put_fixed(buf + 8, (unsigned long)d, 2);
        buf[10] = 'T';
        put_fixed(buf + 11, (unsigned long)(s / 3600), 2);
        buf[13] = ':';
        put_fixed(buf + 14, (unsigned long)(s / 60 % 60), 2);
        buf[16] = ':';
        put_fixed(buf + 17, (unsigned long)(s % 60), 2);
        buf[19] = '.';
        put_fixed(buf + 20, (unsigned long)usec, 6);
        buf[26] = 'Z';
        buf[27] = '\0';
        return 27;
    }
    t = (time_t)sec;
    if ((long long)t != sec || gmtime_r(&t, &tm) == NULL)
        return 0;
    n = snprintf(buf, cap, "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ", tm.tm_year + 1900,
                 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, usec);
    return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

static int known(const char *s)
{
    return s != NULL && s[0] != '\0';
}

static void text_field(struct wr *w, const char *s)
{
    if (known(s))
        wr_field(w, s);
    else
        WR_LIT(w, "-");
}

/* Milliseconds with three decimals ("0.412"); negative values as 0. */
static void elapsed_ms(long long us, char out[32])
{
    size_t n;

    if (us < 0)
        us = 0;
    n = put_dec(out, (unsigned long long)(us / 1000));
    out[n] = '.';
    put_fixed(out + n + 1, (unsigned long)(us % 1000), 3);
    out[n + 4] = '\0';
}

static void format_text(struct wr *w, const struct idng_logrec *r, const char *time_s,
                        int unicode, const char *type, const char *cls, const char *rcode)
{
    char num[32];

    if (time_s != NULL) {
        wr_lit(w, time_s[0] ? time_s : "-");
        WR_LIT(w, " ");
    }
    if (known(r->client)) {
        wr_field(w, r->client);
        wr_lit(w, prefixed_dec(num, "#", r->port));
    } else {
        WR_LIT(w, "-");
    }
    WR_LIT(w, " ");
    idng_display_name_to(r->qname, r->qname_len, idng_display_put, &w->b);
    WR_LIT(w, " ");
    if (unicode) {
        WR_LIT(w, "(");
        idng_display_unicode_decoded_to(r->qname, r->qname_len, r->decoded, idng_display_put,
                                        &w->b);
        WR_LIT(w, ") ");
    }
    wr_lit(w, type);
    WR_LIT(w, " ");
    wr_lit(w, cls);
    WR_LIT(w, " ");
    wr_lit(w, rcode);
    WR_LIT(w, " ");
    text_field(w, r->verdict);
    if (r->label != NULL) {
        WR_LIT(w, ":");
        idng_display_label_to((const uint8_t *)r->label, r->label_len, idng_display_put, &w->b);
    }
    WR_LIT(w, " ");
    text_field(w, r->action);
    WR_LIT(w, " ");
    text_field(w, r->path);
    if (r->ede >= 0) {
        wr_lit(w, prefixed_dec(num, " ede=", (unsigned)r->ede));
    }
    if (r->lookalike != 0) {
        WR_LIT(w, " lookalike=");
        wr_lit(w, idng_lookalike_name(r->lookalike));
    }
    if (r->target != NULL) {
        WR_LIT(w, " target=");
        idng_display_name_to(r->target, r->target_len, idng_display_put, &w->b);
    }
    if (known(r->transport)) {
        WR_LIT(w, " proto=");
        text_field(w, r->transport);
    }
    if (r->has_elapsed) {
        elapsed_ms(r->elapsed_us, num);
        WR_LIT(w, " ms=");
        wr_lit(w, num);
    }
}

static void json_text(struct wr *w, const char *key, const char *s)
{
    wr_lit(w, key);
    if (known(s))
        wr_json_text(w, s);
    else
        WR_LIT(w, "null");
}

static void format_json(struct wr *w, const struct idng_logrec *r, const char *time_s,
                        int unicode, const char *type, const char *cls, const char *rcode)
{
    char num[32];

    json_text(w, "{\"time\":", time_s);
    json_text(w, ",\"client\":", r->client);
    if (known(r->client)) {
        wr_lit(w, prefixed_dec(num, ",\"port\":", r->port));
    } else {
        WR_LIT(w, ",\"port\":null");
    }
    WR_LIT(w, ",\"qname\":\"");
    idng_display_name_to(r->qname, r->qname_len, wr_sink, w);
    WR_LIT(w, "\",\"qname_unicode\":");
    if (unicode) {
        WR_LIT(w, "\"");
        idng_display_unicode_decoded_to(r->qname, r->qname_len, r->decoded, wr_sink, w);
        WR_LIT(w, "\"");
    } else {
        WR_LIT(w, "null");
    }
    json_text(w, ",\"lookalike\":", idng_lookalike_name(r->lookalike));
    json_text(w, ",\"qtype\":", type);
    json_text(w, ",\"qclass\":", cls);
    json_text(w, ",\"rcode\":", strcmp(rcode, "-") != 0 ? rcode : NULL);
    json_text(w, ",\"verdict\":", r->verdict);
    WR_LIT(w, ",\"label\":");
    if (r->label != NULL) {
        WR_LIT(w, "\"");
        idng_display_label_to((const uint8_t *)r->label, r->label_len, wr_sink, w);
        WR_LIT(w, "\"");
    } else {
        WR_LIT(w, "null");
    }
    json_text(w, ",\"action\":", r->action);
    json_text(w, ",\"path\":", r->path);
    if (r->ede >= 0) {
        wr_lit(w, prefixed_dec(num, ",\"ede\":", (unsigned)r->ede));
    } else {
        WR_LIT(w, ",\"ede\":null");
    }
    WR_LIT(w, ",\"target\":");
    if (r->target != NULL) {
        WR_LIT(w, "\"");
        idng_display_name_to(r->target, r->target_len, wr_sink, w);
        WR_LIT(w, "\"");
    } else {
        WR_LIT(w, "null");
    }
    json_text(w, ",\"transport\":", r->transport);
    WR_LIT(w, ",\"elapsed_ms\":");
    if (r->has_elapsed) {
        elapsed_ms(r->elapsed_us, num);
        wr_lit(w, num);
    } else {
        WR_LIT(w, "null");
    }
    WR_LIT(w, "}");
}

size_t idng_log_format(const struct idng_logrec *r, enum idng_logfmt fmt, int with_time,
                       char *out, size_t cap)
{
    char tbuf[64], ty[IDNG_LOG_MNEMONIC_MAX], cl[IDNG_LOG_MNEMONIC_MAX],
        rc[IDNG_LOG_MNEMONIC_MAX];
    const char *time_s = NULL, *type, *cls, *rcode;
    int json = fmt == IDNG_LOGFMT_JSON, unicode;
    struct wr w;

    wr_init(&w, out, cap, json);
    if (r == NULL)
        return 0;
    if (with_time) {
        tbuf[0] = '\0';
        format_time(r->time_sec, r->time_usec, tbuf, sizeof tbuf);
        time_s = tbuf; /* "" when unrepresentable: "-" or null */
    }
    type = idng_log_type_name(r->qtype, ty, sizeof ty);
    cls = idng_log_class_name(r->qclass, cl, sizeof cl);
    rcode = idng_log_rcode_name(r->rcode, rc, sizeof rc);
    unicode = r->lookalike == 0
              && idng_display_has_unicode_decoded(r->qname, r->qname_len, r->mode, r->decoded);
    if (json)
        format_json(&w, r, time_s, unicode, type, cls, rcode);
    else
        format_text(&w, r, time_s, unicode, type, cls, rcode);
    return w.b.len;
}

void idng_logrec_verdict(struct idng_logrec *r, const struct idng_verdict *v, idng_mode mode)
{
    r->verdict = idng_verdict_name(v);
    r->label = v->err.label_len > 0 ? (const char *)v->label : NULL;
    r->label_len = v->err.label_len;
    r->action = idng_action_name(v->action);
    r->mode = mode;
    r->lookalike = v->lookalike;
}

const char *idng_log_client(const void *addr, size_t len, int anonymize, char *buf, size_t cap)
{
    unsigned char a[16];

    if (cap)
        buf[0] = '\0';
    if ((len != 4 && len != 16) || cap == 0)
        return NULL;
    memcpy(a, addr, len);
    if (anonymize && len == 4)
        a[3] = 0;
    else if (anonymize)
        memset(a + 6, 0, 10);
    if (len == 4) { /* inet_ntop's dotted quad, without its sprintf */
        char t[16];
        size_t n = 0, i;

        for (i = 0; i < 4; i++) {
            n += put_octet(t + n, a[i]);
            t[n++] = i < 3 ? '.' : '\0';
        }
        if (n > cap)
            return NULL;
        memcpy(buf, t, n);
        return buf;
    }
    return inet_ntop(len == 4 ? AF_INET : AF_INET6, a, buf, (socklen_t)cap) ? buf : NULL;
}
