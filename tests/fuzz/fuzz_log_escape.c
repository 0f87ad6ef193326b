/**
 * \file
 * Fuzz target: the display unit (codec/display.c) and the query-log
 * formatter (core/idng_log.h) with a client-chosen query name:
 * idng_log_format in text and JSON, and idng_display_name,
 * idng_display_unicode, idng_display_label and idng_display_text on their
 * own.  Those four are every place a hostile octet is shown: log lines,
 * EDE texts (idng_display_label), CLI error lines and settings messages
 * (idng_display_text).
 *
 * Input: byte 0 controls the record (bit 0 JSON, bit 1 with time, bits 2-3
 * the mode, bit 4 the input as the label too, bit 5 as the client too,
 * bit 6 as verdict/action/path too, bit 7 an EDE), byte 1 a small capacity
 * for the truncation check; the rest is the query name (wire form, as
 * sent, possibly malformed).  Strings taken from the input are cut at 63
 * octets (the limit for which IDNG_LOG_LINE_MAX is documented to suffice).
 *
 * Invariants:
 * - every output fits its capacity (exact heap buffers: ASan), is
 *   NUL-terminated at the returned length and holds no octet < 0x20, no
 *   DEL, only valid UTF-8, no bidi control (U+200E, U+200F, U+202A-U+202E,
 *   U+2066-U+2069, U+061C), no U+2028/U+2029, no C1 control, and no code
 *   point from U+0080 up that idng_display_safe() rejects;
 * - idng_display_name writes only A-Z a-z 0-9 - _ * . and escapes: every '\\'
 *   starts \DDD (DDD <= 255) or the final \#malformed;
 * - idng_display_unicode writes nothing unless the name has an xn-- label and
 *   passes idng_wire_check;
 * - a whole line fits IDNG_LOG_LINE_MAX: a text line has exactly the
 *   expected number of space-separated fields (none empty), its name and
 *   "(unicode)" fields equal idng_display_name / idng_display_unicode; a JSON line
 *   is one valid object with the 13 documented keys in order, and its
 *   qname / qname_unicode strings decode to the same text;
 * - a smaller capacity gives a prefix of the whole line;
 * - idng_display_label and idng_display_text of the input (as octets) are
 *   safe as above, and reading their escapes back (\DDD an octet, \u{X}
 *   a code point in UTF-8, anything else itself) gives the input exactly:
 *   the spelling is unambiguous; a smaller capacity gives a prefix.
 */
#include "fuzz_common.h"
#include "idng_log.h"
#include "json_flat.h"

static char full[IDNG_LOG_LINE_MAX];

/* Byte-level rules for anything the log writes. */
static void check_safe(const char *s, size_t n, const char *what)
{
    size_t i = 0;

    FUZZ_CHECK(strlen(s) == n, "%s: NUL inside or missing at %zu", what, n);
    FUZZ_CHECK(fuzz_utf8_valid((const unsigned char *)s, n), "%s: not UTF-8: %s", what, s);
    while (i < n) {
        size_t at = i;
        uint32_t cp = fuzz_utf8_next((const unsigned char *)s, &i);
        FUZZ_CHECK(!fuzz_forbidden_cp(cp), "%s: U+%04X at %zu: %s", what, (unsigned)cp, at, s);
        FUZZ_CHECK(cp < 0x80 || idng_display_safe(cp), "%s: unsafe U+%04X at %zu", what,
                   (unsigned)cp, at);
    }
}

static void check_name_text(const char *s, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        char c = s[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
            || c == '-' || c == '_' || c == '*' || c == '.')
            continue;
        FUZZ_CHECK(c == '\\', "name text holds '%c' at %zu: %s", c, i, s);
        if (n - i == sizeof IDNG_DISPLAY_MALFORMED - 1
            && !memcmp(s + i, IDNG_DISPLAY_MALFORMED, sizeof IDNG_DISPLAY_MALFORMED - 1))
            return;
        FUZZ_CHECK(n - i >= 4 && s[i + 1] >= '0' && s[i + 1] <= '2' && s[i + 2] >= '0'
                       && s[i + 2] <= '9' && s[i + 3] >= '0' && s[i + 3] <= '9'
                       && (s[i + 1] - '0') * 100 + (s[i + 2] - '0') * 10 + (s[i + 3] - '0') <= 255,
                   "bad escape at %zu: %s", i, s);
        i += 3;
    }
}

/* ---- a JSON line: tests/json_flat.h, as strict as the writer promises ---- */

/* Checks the line's keys and value types; qname and qname_unicode (or ""
 * for null) into the buffers. */
static void check_json(const char *s, size_t n, char *qname, size_t *qn, char *uni, size_t *un)
{
    static char dec[IDNG_LOG_LINE_MAX * 4];
    struct tj_field f[TJ_LOG_NKEYS];
    char err[128];
    int got =
        tj_flat(s, n, TJ_COMPACT | TJ_U_ONLY, f, TJ_LOG_NKEYS, dec, sizeof dec, err, sizeof err);
    size_t k;

    FUZZ_CHECK(got == TJ_LOG_NKEYS, "JSON: %d members (%s): %s", got, err, s);
    *un = 0;
    for (k = 0; k < TJ_LOG_NKEYS; k++) {
        FUZZ_CHECK(!strcmp(f[k].key, tj_log_keys[k]), "JSON: key %zu is \"%s\": %s", k, f[k].key,
                   s);
        if (f[k].type == TJ_NUMBER)
            FUZZ_CHECK((k == 2 || k == 13 || k == 16) && (k == 16 || !strchr(f[k].val, '.')),
                       "JSON: value of \"%s\" is not a string or null: %s", tj_log_keys[k], s);
        FUZZ_CHECK(k != 3 || f[k].type == TJ_STRING, "JSON: qname is not a string: %s", s);
        if (k == 3) {
            memcpy(qname, f[k].val, f[k].len);
            *qn = f[k].len;
        } else if (k == 4 && f[k].type == TJ_STRING) {
            memcpy(uni, f[k].val, f[k].len);
            *un = f[k].len;
        }
    }
}

/* A string field from the input: at most 63 octets, no NUL, never empty. */
static char *field(const uint8_t *d, size_t n)
{
    size_t l = 0;
    char *s;
    while (l < n && l < 63 && d[l] != 0)
        l++;
    s = fuzz_alloc(l + 1);
    memcpy(s, d, l);
    s[l] = '\0';
    return s;
}

/* Reads display text back into octets: \DDD, \u{X}, or the character. */
static size_t undisplay(const char *s, size_t n, unsigned char *out, size_t cap)
{
    size_t i = 0, o = 0;

    while (i < n) {
        FUZZ_CHECK(o + 4 <= cap, "undisplay: output over %zu", cap);
        if (s[i] != '\\') {
            out[o++] = (unsigned char)s[i++];
            continue;
        }
        if (i + 1 < n && s[i + 1] == 'u') {
            unsigned long cp;
            char *end;
            FUZZ_CHECK(i + 2 < n && s[i + 2] == '{', "\\u without '{' at %zu: %s", i, s);
            cp = strtoul(s + i + 3, &end, 16);
            FUZZ_CHECK(*end == '}' && end - (s + i + 3) >= 4, "bad \\u{} at %zu: %s", i, s);
            o += idng_utf8_encode((uint32_t)cp, out + o);
            i = (size_t)(end - s) + 1;
            continue;
        }
        FUZZ_CHECK(i + 3 < n && s[i + 1] >= '0' && s[i + 1] <= '2' && s[i + 2] >= '0'
                       && s[i + 2] <= '9' && s[i + 3] >= '0' && s[i + 3] <= '9',
                   "bad escape at %zu: %s", i, s);
        out[o++] = (unsigned char)((s[i + 1] - '0') * 100 + (s[i + 2] - '0') * 10 + (s[i + 3] - '0'));
        i += 4;
    }
    return o;
}

/* idng_display_label and idng_display_text: safe, unambiguous, prefixes. */
static void check_views(const unsigned char *q, size_t qlen, size_t small_cap)
{
    size_t cap = 10 * qlen + 1, n, m, k;
    char *out = fuzz_alloc(cap), *part;
    unsigned char *back = fuzz_alloc(qlen + 4);
    int view;

    for (view = 0; view < 2; view++) {
        const char *what = view ? "text" : "label";
        n = view ? idng_display_text((const char *)q, qlen, out, cap)
                 : idng_display_label(q, qlen, out, cap);
        FUZZ_CHECK(n < cap, "%s: length %zu in %zu", what, n, cap);
        check_safe(out, n, what);
        m = undisplay(out, n, back, qlen + 4);
        FUZZ_CHECK(m == qlen && !memcmp(back, q, qlen), "%s: \"%s\" does not read back", what,
                   out);
        part = fuzz_alloc(small_cap);
        k = view ? idng_display_text((const char *)q, qlen, part, small_cap)
                 : idng_display_label(q, qlen, part, small_cap);
        FUZZ_CHECK(k < small_cap && !memcmp(part, out, k), "%s: cap %zu not a prefix", what,
                   small_cap);
        free(part);
    }
    free(out);
    free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char lname[IDNG_DISPLAY_NAME_MAX], luni[IDNG_DISPLAY_UNICODE_MAX];
    static char jq[IDNG_LOG_LINE_MAX * 4], ju[IDNG_LOG_LINE_MAX * 4];
    struct idng_logrec r;
    uint8_t ctl, small;
    const uint8_t *q;
    size_t qlen, n, nn, nu, cap, jqn = 0, jun = 0;
    char *qbuf, *lab = NULL, *client = NULL, *str = NULL, *out;
    int json, with_time;

    if (size < 2)
        return 0;
    ctl = data[0];
    small = data[1];
    q = data + 2;
    qlen = size - 2;
    qbuf = fuzz_dup(q, qlen);
    json = ctl & 1;
    with_time = (ctl >> 1) & 1;

    memset(&r, 0, sizeof r);
    r.time_sec = 1795240385LL + (long long)small * 86400 * 365 * (ctl & 0x80 ? -7 : 1);
    r.time_usec = (long)small * 12345 - 600000;
    r.client = "192.0.2.1";
    r.port = 53000u + small;
    r.qname = (const uint8_t *)qbuf;
    r.qname_len = qlen;
    r.qtype = (uint16_t)(small * 257u);
    r.qclass = (uint16_t)(small < 128 ? 1 : small);
    r.rcode = (int)small % 20 - 1;
    r.verdict = "ok";
    r.action = "pass";
    r.path = "resolved";
    r.mode = (idng_mode)((ctl >> 2) & 3) % 3;
    r.ede = ctl & 0x80 ? small * 300 : -1;
    /* Now and then a lookalike: no Unicode form in either format. */
    r.lookalike = small % 11 == 0 ? small & 7u : 0;
    if (ctl & 0x10) {
        lab = fuzz_dup(q, qlen < 63 ? qlen : 63);
        r.label = lab;
        r.label_len = qlen < 63 ? qlen : 63;
    }
    if (ctl & 0x20) {
        client = field(q, qlen);
        r.client = client;
    }
    if (ctl & 0x40) {
        str = field(q, qlen);
        r.verdict = r.action = r.path = str;
    }

    /* The name on its own. */
    out = fuzz_alloc(IDNG_DISPLAY_NAME_MAX);
    nn = idng_display_name(r.qname, qlen, out, IDNG_DISPLAY_NAME_MAX);
    FUZZ_CHECK(nn < IDNG_DISPLAY_NAME_MAX, "name length %zu", nn);
    check_safe(out, nn, "name");
    check_name_text(out, nn);
    memcpy(lname, out, nn + 1);
    free(out);
    out = fuzz_alloc(IDNG_DISPLAY_UNICODE_MAX);
    nu = idng_display_unicode(r.qname, qlen, r.mode, out, IDNG_DISPLAY_UNICODE_MAX);
    FUZZ_CHECK(nu < IDNG_DISPLAY_UNICODE_MAX, "unicode length %zu", nu);
    check_safe(out, nu, "unicode");
    if (nu > 0)
        FUZZ_CHECK(idng_wire_check(r.qname, qlen, r.mode, NULL) == IDNG_OK,
                   "Unicode form for a name the codec rejects");
    memcpy(luni, out, nu + 1);
    free(out);
    /* A lookalike's line shows no Unicode form (the display rule of UTS #39). */
    if (r.lookalike != 0) {
        nu = 0;
        luni[0] = '\0';
    }

    /* The whole line. */
    out = fuzz_alloc(IDNG_LOG_LINE_MAX);
    n = idng_log_format(&r, json ? IDNG_LOGFMT_JSON : IDNG_LOGFMT_TEXT, with_time, out,
                        IDNG_LOG_LINE_MAX);
    FUZZ_CHECK(n < IDNG_LOG_LINE_MAX - 1, "line of %zu octets fills the buffer", n);
    check_safe(out, n, "line");
    memcpy(full, out, n + 1);
    free(out);
    if (json) {
        check_json(full, n, jq, &jqn, ju, &jun);
        FUZZ_CHECK(jqn == nn && !memcmp(jq, lname, nn), "JSON qname \"%.*s\", text \"%s\"",
                   (int)jqn, jq, lname);
        FUZZ_CHECK(jun == nu && !memcmp(ju, luni, nu), "JSON qname_unicode \"%.*s\", text \"%s\"",
                   (int)jun, ju, luni);
    } else {
        size_t fields = 1, i, want, at;
        for (i = 0; i < n; i++)
            if (full[i] == ' ') {
                FUZZ_CHECK(i + 1 < n && full[i + 1] != ' ' && i > 0, "empty field: %s", full);
                fields++;
            }
        want = (size_t)with_time + 2 + (nu > 0) + 3 + 3 + (r.ede >= 0) + (r.lookalike != 0);
        FUZZ_CHECK(fields == want, "%zu fields, expected %zu: %s", fields, want, full);
        at = (size_t)(strchr(full, ' ') - full) + 1;
        if (with_time)
            at += (size_t)(strchr(full + at, ' ') - (full + at)) + 1;
        FUZZ_CHECK(!strncmp(full + at, lname, nn) && full[at + nn] == ' ',
                   "name field differs from idng_display_name: %s", full);
        if (nu > 0)
            FUZZ_CHECK(full[at + nn + 1] == '(' && !strncmp(full + at + nn + 2, luni, nu)
                           && full[at + nn + 2 + nu] == ')',
                       "unicode field differs: %s", full);
    }

    /* Truncation: a prefix, cut between atoms, still safe. */
    cap = (size_t)small + 1;
    out = fuzz_alloc(cap);
    nn = idng_log_format(&r, json ? IDNG_LOGFMT_JSON : IDNG_LOGFMT_TEXT, with_time, out, cap);
    FUZZ_CHECK(nn < cap && nn <= n && !memcmp(out, full, nn), "cap %zu: not a prefix", cap);
    check_safe(out, nn, "truncated line");
    free(out);
    out = fuzz_alloc(cap);
    nn = idng_display_name(r.qname, qlen, out, cap);
    FUZZ_CHECK(nn < cap && !memcmp(out, lname, nn), "cap %zu: name not a prefix", cap);
    check_safe(out, nn, "truncated name");
    free(out);

    check_views(q, qlen, cap);

    free(qbuf);
    free(lab);
    free(client);
    free(str);
    return 0;
}
