/**
 * \file
 * Hostile inputs to the module's core (policy and log lines, without
 * Unbound), each a named regression test:
 * - every octet value in every position of a 63-octet label, through
 *   idng_policy_judge, idng_policy_normalize, idng_policy_ede_text,
 *   idng_display_name and idng_log_format: the right class and action, exact
 *   escaping, outputs within capacity;
 * - wire names that lie (pointers, lengths past the end or past 255, label
 *   types 0x40-0xBF, no root, trailing octets) placed at the very end of a
 *   readable page followed by a PROT_NONE page: nothing reads past len;
 * - log injection: newline, CR, ESC sequences, bidi overrides, invalid
 *   UTF-8, in raw labels and inside A-labels: no formatted line (text or
 *   JSON) and no EDE text holds any of them raw.
 * Hostile settings files are test_hostile_conf.c's.
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS, symlink, memmem */

#include "common.h"
#include "hostile_check.h"
#include "idng_log.h"
#include "idng_policy.h"
#include "idng_conf.h"
#include "idnguard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>


#define P IDNG_MODE_PUNYCODE
#define I IDNG_MODE_IDNA2008
#define U IDNG_MODE_UTS46

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

/* Every settings object the tests use: the defaults, and one with lists so
 * that idng_nameset_listed reads the names too. */
static struct idng_conf conf_default, conf_lists, conf_drop;

static void parse_or_die(struct idng_conf *c, const char *text)
{
    char err[512];
    idng_conf_init(c);
    ck_assert_msg(idng_conf_parse(c, text, strlen(text), "test", err, sizeof err) == 0, "%s",
                  err);
}

static void confs_setup(void)
{
    parse_or_die(&conf_default, "idnguard:\n");
    parse_or_die(&conf_lists, "idnguard:\n  allow: ok.example\n  deny: www.example\n"
                              "  deny: xn--bcher-kva.example\n  allow: .\n");
    parse_or_die(&conf_drop, "idnguard:\n  on-invalid: drop\n  on-raw-8bit: log\n"
                             "  mode: idna2008\n");
}

static void confs_teardown(void)
{
    idng_conf_free(&conf_default);
    idng_conf_free(&conf_lists);
    idng_conf_free(&conf_drop);
}

/* What a log line, a name or an EDE text may hold: no octet below 0x20, no
 * DEL, valid UTF-8, and no code point that idng_display_safe rejects (bidi
 * controls, joiners, line separators, ...).  Returns NULL or a reason. */
static const char *line_clean(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint32_t cp;
        size_t m = idng_utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (m == 0)
            return "invalid UTF-8";
        if (cp < 0x20)
            return "a control octet";
        if (cp == 0x7F)
            return "DEL";
        if (cp >= 0x80 && !idng_display_safe(cp))
            return "a code point that is not display-safe";
        i += m;
    }
    return NULL;
}

/* The name escaping of idng_log.h, computed independently. */
static size_t expect_name(const uint8_t *w, size_t len, char *out)
{
    size_t pos = 0, o = 0;
    while (pos < len && w[pos] != 0) {
        size_t l = w[pos], k;
        for (k = 0; k < l; k++) {
            unsigned c = w[pos + 1 + k];
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '-' || c == '_' || c == '*')
                out[o++] = (char)c;
            else
                o += (size_t)sprintf(out + o, "\\%03u", c);
        }
        out[o++] = '.';
        pos += 1 + l;
    }
    if (o == 0)
        out[o++] = '.';
    out[o] = '\0';
    return o;
}

static void fill_rec(struct idng_logrec *r, const uint8_t *w, size_t len,
                     const struct idng_verdict *v, idng_mode mode)
{
    memset(r, 0, sizeof *r);
    r->time_sec = 1795240412LL;
    r->client = "127.0.0.1";
    r->port = 53;
    r->qname = w;
    r->qname_len = len;
    r->qtype = 1;
    r->qclass = 1;
    r->rcode = idng_action_rejects(v->action) ? 5 : 0;
    r->verdict = idng_verdict_name(v);
    if (v->err.label_len > 0) {
        r->label = (const char *)v->label;
        r->label_len = v->err.label_len;
    }
    r->action = idng_action_name(v->action);
    r->path = "policy";
    r->mode = mode;
    r->ede = idng_action_rejects(v->action) ? 15 : -1;
}

/* Formats the record both ways at full size and checks both lines, and
 * the EDE text. */
static void check_lines(const struct idng_logrec *r, const struct idng_verdict *v,
                        const char *what)
{
    char line[IDNG_LOG_LINE_MAX + 16], ede[512];
    size_t n;
    const char *bad;
    int f;

    for (f = 0; f < 2; f++) {
        memset(line, 0x5A, sizeof line);
        n = idng_log_format(r, f ? IDNG_LOGFMT_JSON : IDNG_LOGFMT_TEXT, 1, line,
                            IDNG_LOG_LINE_MAX);
        REQUIRE(n < IDNG_LOG_LINE_MAX && line[n] == '\0' && strlen(line) == n,
                "%s: line length %zu", what, n);
        REQUIRE(line[IDNG_LOG_LINE_MAX] == 0x5A, "%s: wrote past capacity", what);
        bad = line_clean(line, n);
        REQUIRE(!bad, "%s: %s line holds %s: %s", what, f ? "JSON" : "text", bad, line);
        if (f)
            REQUIRE(line[0] == '{' && line[n - 1] == '}', "%s: JSON line %s", what, line);
        /* The text line has its 10 or 11 fields: nothing split it. */
        if (!f) {
            size_t spaces = 0, i;
            for (i = 0; i < n; i++)
                spaces += line[i] == ' ';
            REQUIRE(spaces >= 8 && spaces <= 11, "%s: %zu spaces: %s", what, spaces, line);
        }
    }
    n = idng_policy_ede_text(v, ede, sizeof ede);
    bad = ascii_clean(ede, n);
    REQUIRE(!bad && n < sizeof ede, "%s: EDE text holds %s: %s", what, bad ? bad : "", ede);
}

/* The line written from the labels the judgment decoded
 * (idng_policy_judge_decoded) is, byte for byte, the line written by
 * checking and decoding the name again: Unicode form or not, at full size
 * and (with cuts) cut short and with the record's lookalike classes. */
static void check_decoded_line(const struct idng_policy *p, const struct idng_logrec *r0, int cuts,
                               const char *what)
{
    struct idng_verdict v;
    struct idng_decoded d;
    struct idng_logrec r = *r0;
    char a[IDNG_LOG_LINE_MAX], b[IDNG_LOG_LINE_MAX];
    size_t na, nb, cap;
    int f, lk;

    idng_policy_judge_decoded(p, r.qname, r.qname_len, &v, &d);
    r.mode = p->mode;
    for (lk = 0; lk < 1 + cuts; lk++)
        for (f = 0; f < 2; f++) {
            enum idng_logfmt fmt = f ? IDNG_LOGFMT_JSON : IDNG_LOGFMT_TEXT;
            r.lookalike = lk ? v.lookalike : 0;
            r.decoded = NULL;
            na = idng_log_format(&r, fmt, 1, a, sizeof a);
            r.decoded = &d;
            nb = idng_log_format(&r, fmt, 1, b, sizeof b);
            REQUIRE(na == nb && memcmp(a, b, na + 1) == 0,
                    "%s: %s line from decoded labels:\n%s\nnot\n%s", what, f ? "JSON" : "text", b,
                    a);
            for (cap = 1; cuts && cap < na; cap += 1 + cap / 3) {
                r.decoded = NULL;
                na = idng_log_format(&r, fmt, 1, a, cap);
                r.decoded = &d;
                nb = idng_log_format(&r, fmt, 1, b, cap);
                REQUIRE(na == nb && memcmp(a, b, na + 1) == 0,
                        "%s: %s line cut at %zu from decoded labels:\n%s\nnot\n%s", what,
                        f ? "JSON" : "text", cap, b, a);
                na = idng_log_format(&r, fmt, 1, a, sizeof a);
            }
        }
}

/* ------------------------------------------------------------------------ */
/* Every octet in every position of a 63-octet label, in a wire name.        */

static const char *const byte_bases[] = {
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "xn--80aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
};

/* wire: [63] label [7] example [0] = 73 octets */
#define BYTE_WIRE_LEN 73

static void byte_wire(const char *base, size_t p, unsigned b, uint8_t *w)
{
    w[0] = 63;
    memcpy(w + 1, base, 63);
    w[1 + p] = (uint8_t)b;
    memcpy(w + 64, "\007example\000", 9);
}

START_TEST(test_every_octet_every_position_policy_judge)
{
    const char *base = byte_bases[_i];
    uint8_t w[BYTE_WIRE_LEN];
    size_t p;
    unsigned b;

    for (p = 0; p < 63; p++)
        for (b = 0; b < 256; b++) {
            struct idng_verdict v;
            idng_status direct;
            byte_wire(base, p, b, w);
            idng_policy_judge(&conf_default.policy, w, sizeof w, &v);
            direct = idng_wire_check(w, sizeof w, U, NULL);
            if (b >= 0x80) {
                /* One octet >= 0x80 among ASCII is never UTF-8: the raw
                 * label is judged as what it normalizes to, bad-utf8. */
                REQUIRE(direct == IDNG_E_RAW_8BIT && v.err.status == IDNG_E_BAD_UTF8
                            && v.action == IDNG_ACT_REFUSE && v.err.label_off == 1
                            && v.err.label_len == 63 && memcmp(v.label, w + 1, 63) == 0,
                        "octet 0x%02x at %zu: %s %s at %zu+%zu", b, p, idng_verdict_name(&v),
                        idng_action_name(v.action), v.err.label_off, v.err.label_len);
            } else {
                /* A valid xn-- label may still be a lookalike (rule 6):
                 * of a class from mixed-script on (core/idng_lookalike.h),
                 * with the default settings' action for it (whole-script
                 * refuses: Xn--80aaa... is Cyrillic а's, which pass for
                 * Latin a's under .example; the others log).  ASCII labels
                 * are never lookalikes. */
                int cls = idng_status_class(v.err.status);
                int lookalike = direct == IDNG_OK && _i == 1 && cls >= IDNG_C_MIXED_SCRIPT;
                REQUIRE(v.err.status == direct || lookalike,
                        "octet 0x%02x at %zu: verdict %s, codec %s", b, p,
                        idng_status_symbol(v.err.status), idng_status_symbol(direct));
                REQUIRE(cls == IDNG_C_OK ? v.action == IDNG_ACT_PASS
                        : lookalike      ? (int)v.action == idng_policy_default_action(cls)
                                         : v.action == IDNG_ACT_REFUSE && _i == 1,
                        "label with 0x%02x at %zu: %s %s", b, p, idng_verdict_name(&v),
                        idng_action_name(v.action));
            }
            /* The lists read the same octets (allow: . matches it all). */
            idng_policy_judge(&conf_lists.policy, w, sizeof w, &v);
            REQUIRE(v.listed == IDNG_LISTED_ALLOW && v.action == IDNG_ACT_PASS,
                    "allow . did not match octet 0x%02x at %zu", b, p);
            /* on-raw-8bit: log does not cover a label that is not UTF-8: it
             * gets bad-utf8's action, here on-invalid's drop. */
            idng_policy_judge(&conf_drop.policy, w, sizeof w, &v);
            REQUIRE(b < 0x80 || (idng_status_class(v.err.status) == IDNG_C_BAD_UTF8 && v.action == IDNG_ACT_DROP),
                    "on-invalid: drop, octet 0x%02x: %s %s", b, idng_verdict_name(&v),
                    idng_action_name(v.action));
        }
}
END_TEST

/*
 * Normalization of the same names: a label with one octet >= 0x80 between
 * ASCII octets is never UTF-8 and is kept as it is (the judge refused it
 * above as bad-utf8); a label of ASCII octets, '.' included, is one label
 * and is copied lowercased, never split.  The output never exceeds 255
 * octets and is a well-formed wire name.
 */
START_TEST(test_every_octet_every_position_policy_normalize)
{
    const char *base = byte_bases[_i];
    uint8_t w[BYTE_WIRE_LEN], out[255 + 32];
    size_t p, k;
    unsigned b;

    for (p = 0; p < 63; p++)
        for (b = 0; b < 256; b++) {
            idng_error e;
            size_t olen = 255;
            idng_status st;
            byte_wire(base, p, b, w);
            memset(out, 0xA5, sizeof out);
            st = idng_policy_normalize(&conf_default.policy, w, sizeof w, out, &olen, &e);
            for (k = 255; k < sizeof out; k++)
                REQUIRE(out[k] == 0xA5, "octet 0x%02x at %zu: wrote past 255", b, p);
            REQUIRE(st == IDNG_OK && olen == sizeof w, "octet 0x%02x at %zu: %s, %zu octets", b,
                    p, idng_status_symbol(st), olen);
            for (k = 0; k < olen; k++) {
                int in_raw = b >= 0x80 && k >= 1 && k <= 63;
                uint8_t want = !in_raw && w[k] >= 'A' && w[k] <= 'Z' && k > 0
                                   ? (uint8_t)(w[k] + 32)
                                   : w[k];
                REQUIRE(out[k] == want, "octet 0x%02x at %zu: output octet %zu is 0x%02x", b, p,
                        k, out[k]);
            }
        }
}
END_TEST

/* idng_display_name escapes exactly as documented, for every octet anywhere;
 * the full lines and the EDE text stay clean. */
START_TEST(test_every_octet_every_position_log_lines)
{
    const char *base = byte_bases[_i];
    uint8_t w[BYTE_WIRE_LEN];
    char got[IDNG_DISPLAY_NAME_MAX], want[IDNG_DISPLAY_NAME_MAX];
    size_t p, n, wn;
    unsigned b;

    for (p = 0; p < 63; p++)
        for (b = 0; b < 256; b++) {
            struct idng_verdict v;
            struct idng_logrec r;
            char what[64];
            byte_wire(base, p, b, w);
            n = idng_display_name(w, sizeof w, got, sizeof got);
            wn = expect_name(w, sizeof w, want);
            REQUIRE(n == wn && strcmp(got, want) == 0, "octet 0x%02x at %zu: %s, expected %s", b,
                    p, got, want);
            snprintf(what, sizeof what, "octet 0x%02x at %zu", b, p);
            idng_policy_judge(&conf_default.policy, w, sizeof w, &v);
            fill_rec(&r, w, sizeof w, &v, U);
            check_lines(&r, &v, what);
            if (_i == 1 && p % 4 == 0) /* the xn-- base, whose labels are decoded */
                check_decoded_line(&conf_default.policy, &r, 0, what);
            /* punycode mode shows the Unicode form of more labels */
            idng_policy_judge(&conf_drop.policy, w, sizeof w, &v);
            fill_rec(&r, w, sizeof w, &v, P);
            check_lines(&r, &v, what);
            if (_i == 1 && p % 4 == 0)
                check_decoded_line(&conf_drop.policy, &r, 0, what);
        }
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Wire names that lie, at the end of a page followed by a PROT_NONE page.   */

static const struct {
    const char *what;
    const char *wire;
    size_t len;
} lies[] = {
    {"empty", BYTES("")},
    {"length past the end", BYTES("\005abc")},
    {"length 63 with 3 octets", BYTES("\077abc")},
    {"missing root", BYTES("\003abc")},
    {"missing root after two labels", BYTES("\003abc\003def")},
    {"just a length octet", BYTES("\003")},
    {"compression pointer first", BYTES("\300\000")},
    {"compression pointer after a label", BYTES("\003abc\300\014")},
    {"pointer to itself", BYTES("\300\000\000")},
    {"extended label type 0x40", BYTES("\100abc\000")},
    {"binary label 0x41 (RFC 2673)", BYTES("\101\010\377\000")},
    {"reserved type 0x80", BYTES("\200abc\000")},
    {"reserved type 0xBF", BYTES("\277abc\000")},
    {"0xFF", BYTES("\377")},
    {"raw UTF-8 label, no root", BYTES("\007b\303\274cher")},
    {"raw UTF-8 cut inside a sequence", BYTES("\007b\303")},
    {"fake A-label, no root", BYTES("\012xn--ab-m1t")},
};

/* Runs every core function that takes a wire name on w[0..len) placed at
 * the guard; a malformed name is "\#malformed" in the log and never
 * normalized. */
static void core_at_guard(struct t_guard *g, const void *wire, size_t len, int malformed,
                          const char *what)
{
    const uint8_t *w = t_guard_put(g, wire, len);
    const struct idng_conf *confs[] = {&conf_default, &conf_lists, &conf_drop};
    char buf[IDNG_DISPLAY_UNICODE_MAX];
    uint8_t out[255];
    size_t i, n, olen;
    static unsigned calls;

    calls++;

    for (i = 0; i < 3; i++) {
        struct idng_verdict v;
        struct idng_logrec r;
        idng_error e;
        idng_status st;
        idng_policy_judge(&confs[i]->policy, w, len, &v);
        if (malformed)
            REQUIRE(v.listed == IDNG_LISTED_NONE
                        && (idng_status_class(v.err.status) == IDNG_C_INVAL || idng_status_class(v.err.status) == IDNG_C_TOO_LONG),
                    "%s: judged %s", what, idng_verdict_name(&v));
        fill_rec(&r, w, len, &v, confs[i]->policy.mode);
        check_lines(&r, &v, what);
        check_decoded_line(&confs[i]->policy, &r, calls % 16 == 0, what); /* cut: 1 in 16 */
        olen = sizeof out;
        st = idng_policy_normalize(&confs[i]->policy, w, len, out, &olen, &e);
        /* (len 0: see test_bug_normalize_takes_empty_input_for_the_root) */
        if (malformed && len > 0)
            REQUIRE(st != IDNG_OK, "%s: normalized to %zu octets", what, olen);
        else if (st == IDNG_OK)
            REQUIRE(olen <= 255, "%s: %zu octets", what, olen);
        (void)idng_nameset_listed(&confs[i]->policy.allow, w, len);
        (void)idng_nameset_listed(&confs[i]->policy.deny, w, len);
        n = idng_display_unicode(w, len, confs[i]->policy.mode, buf, sizeof buf);
        REQUIRE(!malformed || n == 0, "%s: a Unicode form: %s", what, buf);
    }
    n = idng_display_name(w, len, buf, sizeof buf);
    if (malformed)
        REQUIRE(n >= sizeof IDNG_DISPLAY_MALFORMED - 1
                    && strcmp(buf + n - (sizeof IDNG_DISPLAY_MALFORMED - 1), IDNG_DISPLAY_MALFORMED) == 0,
                "%s: logged as %s", what, buf);
    else
        REQUIRE(strstr(buf, IDNG_DISPLAY_MALFORMED) == NULL, "%s: logged as %s", what, buf);
}

START_TEST(test_wire_lies_core_never_reads_past_len)
{
    struct t_guard g;
    size_t i;

    t_guard_open(&g);
    for (i = 0; i < sizeof lies / sizeof lies[0]; i++)
        core_at_guard(&g, lies[i].wire, lies[i].len, 1, lies[i].what);
    /* Trailing octets after the root are within len: read or not, they
     * change nothing. */
    core_at_guard(&g, BYTES("\003abc\000\377\300\001garbage"), 0, "trailing garbage");
    core_at_guard(&g, BYTES("\007b\303\274cher\000\012xn--ab-m1t\000"), 0, "trailing label");
    t_guard_close(&g);
}
END_TEST

/* Names of 250 to 258 octets: over 255 is malformed everywhere. */
START_TEST(test_wire_over_255_octets_core_at_guard)
{
    struct t_guard g;
    uint8_t w[300];
    size_t total;

    t_guard_open(&g);
    for (total = 250; total <= 258; total++) {
        size_t pos = 0, n;
        char what[32];
        while (pos + 1 < total) {
            size_t l = total - 2 - pos > 63 ? 63 : total - 2 - pos;
            w[pos] = (uint8_t)l;
            memset(w + pos + 1, pos == 0 ? 0xC3 : 'a', l); /* raw octets: normalize runs */
            pos += 1 + l;
        }
        w[pos++] = 0;
        n = pos;
        snprintf(what, sizeof what, "%zu-octet name", n);
        core_at_guard(&g, w, n, n > 255, what);
        snprintf(what, sizeof what, "%zu-octet name cut by one", n);
        core_at_guard(&g, w, n - 1, 1, what);
    }
    t_guard_close(&g);
}
END_TEST

static uint32_t rng = 0x12345678u;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* Well-formed or not, as a careful reader decides. */
static int wire_malformed(const uint8_t *w, size_t len)
{
    size_t pos = 0;
    for (;;) {
        size_t l;
        if (pos >= len)
            return 1;
        l = w[pos];
        if (l == 0)
            return 0;
        if (l > 63 || pos + 1 + l > len || pos + 1 + l + 1 > 255)
            return 1;
        pos += 1 + l;
    }
}

START_TEST(test_wire_every_short_and_random_name_core_at_guard)
{
    struct t_guard g;
    uint8_t w[320];
    unsigned a, b;
    int iter;

    t_guard_open(&g);
    for (a = 0; a < 256; a++) {
        w[0] = (uint8_t)a;
        core_at_guard(&g, w, 1, wire_malformed(w, 1), "1 octet");
        for (b = 0; b < 256; b += 3) {
            w[1] = (uint8_t)b;
            core_at_guard(&g, w, 2, wire_malformed(w, 2), "2 octets");
        }
    }
    for (iter = 0; iter < 5000; iter++) {
        static const char alphabet[] = "xn--ab0\303\274\342\200\256\n\033.";
        size_t len = rnd() % 300;
        t_random_wire(w, len, alphabet, sizeof alphabet - 1, 3, 6, rnd);
        core_at_guard(&g, w, len, wire_malformed(w, len), "random");
    }
    t_guard_close(&g);
}
END_TEST

/*
 * BUG (core/policy.c, idng_policy_normalize): an empty input, which
 * holds no root label, is converted to the root name "\0" with IDNG_OK,
 * while every other function calls it malformed (idng_wire_check:
 * IDNG_E_INVAL; idng_display_name: "\#malformed"; idng_nameset_listed: not
 * listed).  Unbound never hands the module an empty qname, so the module
 * is not affected; a library caller would normalize nothing into ".".
 */
START_TEST(test_bug_normalize_takes_empty_input_for_the_root)
{
    uint8_t out[255];
    size_t olen = sizeof out;
    idng_error e;
    idng_status st = idng_policy_normalize(&conf_default.policy, (const uint8_t *)"", 0, out, &olen, &e);

    ck_assert_int_eq(idng_wire_check((const uint8_t *)"", 0, U, NULL), IDNG_E_INVAL);
    ck_assert_msg(st == IDNG_E_INVAL,
                  "normalize of 0 octets: %s, %zu octets out; expected IDNG_E_INVAL like "
                  "idng_wire_check (no root label)",
                  idng_status_symbol(st), olen);
}
END_TEST

/*
 * BUG (core/policy.c, idng_policy_normalize): a raw wire label
 * holding U+3002 IDEOGRAPHIC FULL STOP (or U+FF0E, U+FF61) is turned into
 * two labels: "a\343\200\202com.example" (two labels) is normalized to
 * a.com.example (three), so the sub-query asks for a name of another shape,
 * possibly in another zone ("x\343\200\202bank.com" -> x.bank.com).  The
 * same label with an ASCII '.' is refused as disallowed ("cannot be told
 * apart from two labels"), and UTS #46 validity criterion 4 forbids a
 * label that maps to one holding U+002E.  The cause: the wire name is
 * turned into dotted text before idng_to_ascii, which splits at U+3002.
 */
START_TEST(test_bug_ideographic_full_stop_in_a_wire_label_is_split_by_normalize)
{
    static const struct {
        const char *what;
        const char *wire;
        size_t len;
    } cases[] = {
        {"U+3002", BYTES("\007a\343\200\202com\007example\000")},
        {"U+FF0E", BYTES("\007a\357\274\216com\007example\000")},
        {"U+FF61", BYTES("\007a\357\275\241com\007example\000")},
        {"ASCII dot (the documented rule)", BYTES("\005a.com\007example\000")},
    };
    size_t i;

    static const uint32_t cps[] = {0x3002, 0xFF0E, 0xFF61, 0};

    /* Fixed by judging raw labels as what they normalize to (the judge
     * refuses the label, naming the full stop) and by converting wire
     * labels one by one (normalization never makes two labels of one). */
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t out[255];
        size_t olen = sizeof out;
        struct idng_verdict v;
        idng_status st = idng_policy_normalize(&conf_default.policy, (const uint8_t *)cases[i].wire,
                                               cases[i].len, out, &olen, NULL);
        char got[IDNG_DISPLAY_NAME_MAX] = "-";
        if (st == IDNG_OK)
            idng_display_name(out, olen, got, sizeof got);
        ck_assert_msg(st == IDNG_OK && olen == cases[i].len
                          && memcmp(out, cases[i].wire, olen) == 0,
                      "one wire label holding %s: normalized with %s to %s; expected the "
                      "label kept whole", cases[i].what, idng_status_symbol(st), got);
        idng_policy_judge(&conf_default.policy, (const uint8_t *)cases[i].wire, cases[i].len, &v);
        if (cps[i])
            ck_assert_msg(v.err.status == IDNG_E_DISALLOWED && v.err.codepoint == cps[i]
                              && v.action == IDNG_ACT_REFUSE,
                          "one wire label holding %s: judged %s %s", cases[i].what,
                          idng_verdict_name(&v), idng_action_name(v.action));
    }
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Log injection                                                             */

/* A wire name from text labels separated by '/', each written as given
 * (so '.' and every other octet may sit inside a label). */
static size_t wire_of(const char *spec, size_t n, uint8_t *w)
{
    size_t i = 0, o = 0;
    while (i < n) {
        size_t start = i;
        while (i < n && spec[i] != '/')
            i++;
        w[o++] = (uint8_t)(i - start);
        memcpy(w + o, spec + start, i - start);
        o += i - start;
        i++;
    }
    w[o++] = 0;
    return o;
}

static const struct {
    const char *what;
    const char *spec;
    size_t len;
    const char *never; /* a raw sequence none of the outputs may hold */
} injections[] = {
    {"newline and a forged line", BYTES("a\n2026-01-01T00:00:00Z 127.0.0.1#1 evil/example"), "\n"},
    {"CR LF", BYTES("a\r\nb/example"), "\r"},
    {"ESC colour sequence", BYTES("\033[31mred\033[0m/example"), "\033"},
    {"ESC OSC title sequence", BYTES("\033]0;owned\007/example"), "\033"},
    {"ESC in a JSON-looking label", BYTES("\",\"verdict\":\"ok\033/example"), "\033"},
    {"raw RLO bidi override", BYTES("abc\342\200\256gpj.exe/example"), "\342\200\256"},
    {"raw LRI/PDI isolates", BYTES("\342\201\246x\342\201\251/example"), "\342\201\246"},
    {"raw LINE SEPARATOR", BYTES("a\342\200\250b/example"), "\342\200\250"},
    {"raw ZWJ", BYTES("a\342\200\215b/example"), "\342\200\215"},
    {"raw BOM", BYTES("\357\273\277a/example"), "\357\273\277"},
    {"invalid UTF-8: lone continuation", BYTES("a\200b/example"), "\200"},
    {"invalid UTF-8: overlong slash", BYTES("\300\257etc/example"), "\300\257"},
    {"invalid UTF-8: surrogate", BYTES("\355\240\200/example"), "\355\240\200"},
    {"invalid UTF-8: truncated", BYTES("\342\200/example"), "\342\200/"},
    {"DEL and NUL", BYTES("a\177b\000c/example"), "\177"},
    {"backslash forging an escape", BYTES("a\\010b/example"), "a\\010b"},
    {"dot inside a label", BYTES("www.bank.com/evil"), "www.bank.com."},
    {"fake field separators", BYTES("x ok pass resolved/example"), "x ok"},
    {"A-label of an RLO (punycode mode shows it)", BYTES("xn--abc-7q0a/example"), "\342\200\256"},
    {"A-label of a newline-free ZWJ", BYTES("xn--ab-m1t/example"), "\342\200\215"},
};

START_TEST(test_log_injection_never_raw)
{
    static const idng_mode ms[] = {P, I, U};
    uint8_t w[300];
    size_t n = wire_of(injections[_i].spec, injections[_i].len, w), m;
    const char *never = injections[_i].never;

    for (m = 0; m < 3; m++) {
        const struct idng_conf *c = m == 0 ? &conf_default : m == 1 ? &conf_drop : &conf_lists;
        struct idng_verdict v;
        struct idng_logrec r;
        char line[IDNG_LOG_LINE_MAX], ede[512];
        int f;

        idng_policy_judge(&c->policy, w, n, &v);
        fill_rec(&r, w, n, &v, ms[m]);
        /* Show the label field even when the verdict has none. */
        if (!r.label) {
            r.label = (const char *)w + 1;
            r.label_len = w[0];
        }
        check_lines(&r, &v, injections[_i].what);
        check_decoded_line(&c->policy, &r, 1, injections[_i].what);
        for (f = 0; f < 2; f++) {
            size_t len = idng_log_format(&r, f ? IDNG_LOGFMT_JSON : IDNG_LOGFMT_TEXT, 1, line,
                                         sizeof line);
            ck_assert_msg(memmem(line, len, never, strlen(never)) == NULL,
                          "%s (%s, %s): line holds it raw: %s", injections[_i].what,
                          idng_mode_name(ms[m]), f ? "json" : "text", line);
        }
        idng_policy_ede_text(&v, ede, sizeof ede);
        ck_assert_msg(strstr(ede, never) == NULL, "%s: EDE text holds it raw: %s",
                      injections[_i].what, ede);
    }
}
END_TEST

/* The RLO A-label is valid Punycode, so punycode mode shows a Unicode form;
 * the override must appear there as \u{202E}. */
START_TEST(test_log_injection_rlo_alabel_escaped_in_unicode_form)
{
    uint8_t w[64];
    char buf[IDNG_DISPLAY_UNICODE_MAX];
    uint32_t u[8] = {'a', 'b', 'c', 0x202E};
    char a[32];
    size_t alen = sizeof a - 4, n;

    memcpy(a, "xn--", 4);
    ck_assert_int_eq(idng_punycode_encode(u, 4, NULL, a + 4, &alen), IDNG_OK);
    ck_assert_str_eq(a, "xn--abc-7q0a");
    n = wire_of("xn--abc-7q0a/example", 20, w);
    ck_assert_int_eq(idng_wire_check(w, n, P, NULL), IDNG_OK);
    ck_assert_int_eq(idng_wire_check(w, n, U, NULL), IDNG_E_DISALLOWED);
    idng_display_unicode(w, n, P, buf, sizeof buf);
    ck_assert_str_eq(buf, "abc\\u{202E}.example.");
}
END_TEST

static Suite *hostile_suite(void)
{
    Suite *s = suite_create("hostile names (module core)");
    TCase *tc = tcase_create("every octet in every position");
    tcase_add_unchecked_fixture(tc, confs_setup, confs_teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_every_octet_every_position_policy_judge, 0, 2);
    tcase_add_loop_test(tc, test_every_octet_every_position_policy_normalize, 0, 2);
    tcase_add_loop_test(tc, test_every_octet_every_position_log_lines, 0, 2);
    suite_add_tcase(s, tc);

    tc = tcase_create("wire names that lie, at a guard page");
    tcase_add_unchecked_fixture(tc, confs_setup, confs_teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_wire_lies_core_never_reads_past_len);
    tcase_add_test(tc, test_wire_over_255_octets_core_at_guard);
    tcase_add_test(tc, test_wire_every_short_and_random_name_core_at_guard);
    tcase_add_test(tc, test_bug_normalize_takes_empty_input_for_the_root);
    tcase_add_test(tc, test_bug_ideographic_full_stop_in_a_wire_label_is_split_by_normalize);
    suite_add_tcase(s, tc);

    tc = tcase_create("log injection");
    tcase_add_unchecked_fixture(tc, confs_setup, confs_teardown);
    tcase_add_loop_test(tc, test_log_injection_never_raw, 0,
                        (int)(sizeof injections / sizeof injections[0]));
    tcase_add_test(tc, test_log_injection_rlo_alabel_escaped_in_unicode_form);
    suite_add_tcase(s, tc);

    return s;
}

IDNG_TEST_MAIN(hostile_suite)
