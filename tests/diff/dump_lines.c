/**
 * \file
 * The differential test's line for one input (see dump.c): every public
 * entry point of the codec, the policy core and the log lines run on it,
 * and their results written into one line of text; and the line of one
 * settings file, the parser's own results.
 */
#include "dump.h"

#include "idng_log.h"
#include "idng_policy.h"
#include "idng_conf.h"
#include "idnguard.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_CAP (1u << 20)

static char line[LINE_CAP];
static size_t line_len;

static void put(const char *fmt, ...)
{
    va_list ap;
    int n;
    if (line_len >= LINE_CAP - 1)
        return;
    va_start(ap, fmt);
    n = vsnprintf(line + line_len, LINE_CAP - line_len, fmt, ap);
    va_end(ap);
    if (n > 0)
        line_len = line_len + (size_t)n < LINE_CAP - 1 ? line_len + (size_t)n : LINE_CAP - 1;
}

static void put_hex(const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t i;
    for (i = 0; i < n; i++)
        put("%02x", b[i]);
}

static void put_err(idng_status st, const idng_error *e)
{
    put(" %d", (int)st);
    if (st != IDNG_OK)
        put("@%zu+%zu:%lx", e->label_off, e->label_len, (unsigned long)e->codepoint);
}

/* --- settings used for the policy and log parts ---------------------- */

static const char *const conf_texts[] = {
    /* the classify harness's settings: lists, every kind of action */
    "idnguard:\n  mode: uts46\n  on-invalid: refuse\n  on-contextj: nxdomain\n"
    "  on-bidi: log\n  on-hyphen: pass\n  on-raw-8bit: normalize\n"
    "  allow: xn--ab-m1t.example\n  allow: ok.example\n  allow: b\xc3\xbc"
    "cher.allow.example\n"
    "  deny: bad.example\n  deny: deny.ok.example\n  deny: xn--bcher-kva.test\n",
    /* the defaults */
    "idnguard:\n",
    /* idna2008, raw labels refused, drops, logs */
    "idnguard:\n  mode: idna2008\n  on-invalid: drop\n  on-raw-8bit: refuse\n"
    "  on-bad-punycode: log\n  on-disallowed: nxdomain\n  deny: xn--nxasmq6b\n",
    /* punycode only, raw labels normalized, everything else logged */
    "idnguard:\n  mode: punycode\n  on-invalid: log\n  on-raw-8bit: normalize\n"
    "  allow: example\n",
};
#define NCONF (sizeof conf_texts / sizeof conf_texts[0])
static struct idng_conf confs[NCONF];

void dump_load_confs(void)
{
    char err[1024];
    size_t i;
    for (i = 0; i < NCONF; i++) {
        idng_conf_init(&confs[i]);
        if (idng_conf_parse(&confs[i], conf_texts[i], strlen(conf_texts[i]), "diff", err,
                            sizeof err)) {
            fprintf(stderr, "dump: settings %zu: %s\n", i, err);
            exit(2);
        }
    }
}

/* --- the results of one input ---------------------------------------- */

static void text_ops(const unsigned char *in, size_t n)
{
    static char out[4096];
    static const unsigned flagsets[] = {0, IDNG_F_STRICT, IDNG_F_KEEP_GOING,
                                        IDNG_F_STRICT | IDNG_F_KEEP_GOING};
    static const size_t caps[] = {sizeof out, 12};
    idng_error e;
    idng_status st;
    size_t olen;
    int m;
    unsigned f, c;

    for (m = 0; m <= 2; m++) {
        for (f = 0; f < 4; f++)
            for (c = 0; c < 2; c++) {
                olen = caps[c];
                memset(&e, 0, sizeof e);
                st = idng_to_ascii((const char *)in, n, out, &olen, (idng_mode)m, flagsets[f], &e);
                put(" A%d%u%u", m, f, c);
                put_err(st, &e);
                if (st == IDNG_OK || (flagsets[f] & IDNG_F_KEEP_GOING))
                    put("=%.*s", (int)(olen < caps[c] ? olen : 0), out);
                olen = caps[c];
                memset(&e, 0, sizeof e);
                st =
                    idng_to_unicode((const char *)in, n, out, &olen, (idng_mode)m, flagsets[f], &e);
                put(" U%d%u%u", m, f, c);
                put_err(st, &e);
                if (st == IDNG_OK || (flagsets[f] & IDNG_F_KEEP_GOING)) {
                    put("=");
                    put_hex(out, olen < caps[c] ? olen : 0);
                }
            }
        memset(&e, 0, sizeof e);
        st = idng_label_check((const char *)in, n, (idng_mode)m, &e);
        put(" L%d", m);
        put_err(st, &e);
        memset(&e, 0, sizeof e);
        st = idng_name_check((const char *)in, n, (idng_mode)m, &e);
        put(" N%d", m);
        put_err(st, &e);
        olen = 64;
        memset(&e, 0, sizeof e);
        st = idng_label_to_ascii((const char *)in, n, out, &olen, (idng_mode)m, &e);
        put(" T%d", m);
        put_err(st, &e);
        if (st == IDNG_OK)
            put("=%.*s", (int)olen, out);
    }
    put(" ace%d", idng_is_ace((const char *)in, n));
}

static void puny_ops(const unsigned char *in, size_t n)
{
    static uint32_t cps[1024];
    static unsigned char flags[1024];
    static char enc[4096];
    size_t ncp = sizeof cps / sizeof cps[0], elen, i;
    idng_status st;

    st = idng_punycode_decode((const char *)in, n, cps, &ncp, flags);
    put(" PD %d", (int)st);
    if (st == IDNG_OK) {
        for (i = 0; i < ncp; i++)
            put(",%lx%s", (unsigned long)cps[i], flags[i] ? "U" : "");
        elen = sizeof enc;
        st = idng_punycode_encode(cps, ncp, flags, enc, &elen);
        put(" PE %d", (int)st);
        if (st == IDNG_OK)
            put("=%.*s", (int)elen, enc);
    }
    /* the input's UTF-8 code points, encoded */
    ncp = 0;
    for (i = 0; i < n && ncp < 1024;) {
        uint32_t cp;
        size_t k = idng_utf8_decode(in + i, n - i, &cp);
        if (k == 0)
            break;
        cps[ncp++] = cp;
        i += k;
    }
    put(" UD %zu/%zu", i, ncp);
    elen = sizeof enc;
    st = idng_punycode_encode(cps, ncp, NULL, enc, &elen);
    put(" PE %d", (int)st);
    if (st == IDNG_OK)
        put("=%.*s", (int)elen, enc);
    elen = 8;
    st = idng_punycode_encode(cps, ncp, NULL, enc, &elen);
    put(" PE8 %d", (int)st);
}

static void put_verdict(const struct idng_verdict *v)
{
    put(" %d/%d/%d/%d/%lx/%s", (int)v->err.status, (int)idng_status_class(v->err.status),
        (int)v->action, (int)v->listed, (unsigned long)v->err.codepoint, idng_verdict_name(v));
    if (v->err.label_len) {
        put("@%zu:", v->err.label_off);
        put_hex(v->label, v->err.label_len);
    }
}

static void wire_ops(const uint8_t *w, size_t n)
{
    static uint8_t out[1024];
    static char txt[IDNG_LOG_LINE_MAX];
    idng_error each[IDNG_LABELS_MAX], e;
    struct idng_verdict v;
    idng_status st;
    size_t cnt, olen, i, k;
    int m;

    for (m = 0; m <= 2; m++) {
        memset(&e, 0, sizeof e);
        st = idng_wire_check(w, n, (idng_mode)m, &e);
        put(" W%d", m);
        put_err(st, &e);
        cnt = 0;
        memset(each, 0, sizeof each);
        st = idng_wire_check_each(w, n, (idng_mode)m, each, IDNG_LABELS_MAX, &cnt);
        put(" E%d %d#%zu", m, (int)st, cnt);
        for (i = 0; i < cnt && i < IDNG_LABELS_MAX; i++)
            put_err(each[i].status, &each[i]);
        for (k = 0; k < 2; k++) {
            olen = sizeof out;
            memset(&e, 0, sizeof e);
            st = idng_wire_to_ascii(w, n, out, &olen, (idng_mode)m, k ? IDNG_F_KEEP_GOING : 0, &e);
            put(" X%d%zu", m, k);
            put_err(st, &e);
            if (st == IDNG_OK) {
                put("=");
                put_hex(out, olen);
            }
        }
    }
    for (i = 0; i < NCONF; i++) {
        static const size_t ede_caps[] = {300, 24};
        memset(&v, 0xa5, sizeof v);
        idng_policy_judge(&confs[i].policy, w, n, &v);
        put(" J%zu", i);
        put_verdict(&v);
        for (k = 0; k < 2; k++) {
            olen = idng_policy_ede_text(&v, txt, ede_caps[k]);
            put(" ede%zu=%zu:%s", k, olen, txt);
        }
        memset(&v, 0xa5, sizeof v);
        idng_policy_judge_data(&confs[i].policy, w, n, &v);
        put(" D%zu", i);
        put_verdict(&v);
        olen = sizeof out;
        memset(&e, 0, sizeof e);
        st = idng_policy_normalize(&confs[i].policy, w, n, out, &olen, &e);
        put(" Z%zu", i);
        put_err(st, &e);
        if (st == IDNG_OK) {
            put("=");
            put_hex(out, olen);
        }
        put(" in%d/%d", idng_nameset_listed(&confs[i].policy.allow, w, n),
            idng_nameset_listed(&confs[i].policy.deny, w, n));
    }
    idng_display_name(w, n, txt, sizeof txt);
    put(" name=%s", txt);
    for (m = 0; m <= 2; m++) {
        idng_display_unicode(w, n, (idng_mode)m, txt, sizeof txt);
        put(" uni%d=%s", m, txt);
    }
    idng_display_name(w, n, txt, 20);
    put(" name20=%s", txt);
}

static void log_ops(const unsigned char *in, size_t n, const uint8_t *w, size_t wn)
{
    static char txt[IDNG_LOG_LINE_MAX];
    struct idng_logrec r;
    struct idng_verdict v;
    int f;

    idng_display_label(in, n, txt, sizeof txt);
    put(" label=%s", txt);
    idng_display_label(in, n, txt, 9);
    put(" label9=%s", txt);
    idng_policy_judge(&confs[0].policy, w, wn, &v);
    memset(&r, 0, sizeof r);
    r.time_sec = 1700000000;
    r.time_usec = 123456;
    r.client = "192.0.2.1";
    r.port = 5353;
    r.qname = w;
    r.qname_len = wn;
    r.qtype = 28;
    r.qclass = 1;
    r.rcode = idng_action_rejects(v.action) ? 5 : 0;
    r.verdict = idng_verdict_name(&v);
    r.label = v.err.label_len ? (const char *)v.label : NULL;
    r.label_len = v.err.label_len;
    r.action = idng_action_name(v.action);
    r.path = "resolved";
    r.mode = IDNG_MODE_UTS46;
    r.ede = v.action == IDNG_ACT_PASS ? -1 : 15;
    r.target = w;
    r.target_len = wn;
    r.transport = "udp";
    r.has_elapsed = 1;
    r.elapsed_us = 1234;
    for (f = 0; f < 2; f++) {
        size_t k = idng_log_format(&r, f ? IDNG_LOGFMT_JSON : IDNG_LOGFMT_TEXT, f, txt, sizeof txt);
        put(" log%d=%zu:%s", f, k, txt);
    }
}

/* The input as a wire name: split at ASCII dots only, labels cut at 63. */
static size_t to_wire(const unsigned char *in, size_t n, uint8_t *w, size_t cap)
{
    size_t o = 0, i = 0;
    while (i < n && o + 2 < cap) {
        size_t s = i, l;
        while (i < n && in[i] != '.')
            i++;
        l = i - s > 63 ? 63 : i - s;
        if (l == 0) {
            i++;
            continue;
        }
        if (o + 1 + l + 1 > cap)
            break;
        w[o++] = (uint8_t)l;
        memcpy(w + o, in + s, l);
        o += l;
        i++;
    }
    w[o++] = 0;
    return o;
}

void dump_one_input(const unsigned char *in, size_t n)
{
    static uint8_t w[600];
    size_t wn;

    line_len = 0;
    put_hex(in, n);
    text_ops(in, n);
    puny_ops(in, n);
    put(" |raw");
    wire_ops(in, n);
    wn = to_wire(in, n, w, sizeof w);
    put(" |wire");
    wire_ops(w, wn);
    log_ops(in, n, w, wn);
    put("\n");
}

/* --- conf corpus: the parser's own results ---------------------------- */

void dump_conf_input(const unsigned char *in, size_t n)
{
    static char err[8192];
    struct idng_conf c;
    char *buf = NULL;
    size_t blen = 0;
    FILE *f;
    int rc;

    line_len = 0;
    put_hex(in, n);
    idng_conf_init(&c);
    /* An include line is checked, never followed: the inputs must not
     * read this machine's files. */
    rc = idng_conf_parse_flags(&c, (const char *)in, n, "diff.conf", IDNG_CONF_F_NO_INCLUDE, err,
                               sizeof err);
    put(" rc=%d err=", rc);
    put_hex(err, strlen(err));
    if (rc == 0) {
        f = open_memstream(&buf, &blen);
        if (f) {
            idng_conf_write(&c, f);
            fclose(f);
            put(" w=");
            put_hex(buf, blen);
            free(buf);
        }
    }
    idng_conf_free(&c);
    put("\n");
}

const char *dump_line(size_t *len)
{
    *len = line_len;
    return line;
}
