/**
 * \file
 * The differential test (behaviour kept across refactoring): every public entry point of
 * the codec, the policy core and the log lines, run over fixed corpora and a
 * seeded random corpus, must give byte-identical results to the code at the
 * baseline commit (named in tests/diff/baseline.txt).
 *
 * For each input, one line of text holds every result (statuses, error
 * fields, outputs, verdicts, EDE texts, log lines).  Lines are hashed
 * (64-bit FNV-1a) in chunks of CHUNK inputs; tests/diff/baseline.txt holds
 * the chunk digests the code at the baseline commit produced.
 *
 *   dump --write FILE  CORPUS...   write the digests (at the baseline only)
 *   dump --check FILE  CORPUS...   compare; on a difference, print the
 *                                  chunk's inputs and current lines, exit 1
 *   dump --print       CORPUS...   print every line (to diff by hand
 *                                  against the baseline commit's --print)
 *
 * CORPUS is a directory of one-input files (the fuzz corpora), "idnatest:F"
 * (the source column of Unicode's IdnaTestV2.txt, \uXXXX escapes decoded) or
 * "random:N" (N names from a fixed seed, made of fragments that exercise
 * every rule: see fragments[]).
 *
 * The line format is this file's own; it may change only together with a
 * new baseline, in a commit that says why.  When an API changes, this file
 * is adapted so that the lines stay the same.
 */
#include "idng_log.h"
#include "idng_policy.h"
#include "idng_conf.h"
#include "idnguard.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 200
#define LINE_CAP (1u << 20)
#define INPUT_MAX 2048

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
    "  allow: xn--ab-m1t.example\n  allow: ok.example\n  allow: b\xc3\xbc" "cher.allow.example\n"
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

static void load_confs(void)
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
                st = idng_to_unicode((const char *)in, n, out, &olen, (idng_mode)m, flagsets[f],
                                     &e);
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
    put(" %d/%d/%d/%d/%lx/%s", (int)v->err.status, (int)idng_status_class(v->err.status), (int)v->action, (int)v->listed,
        (unsigned long)v->err.codepoint, idng_verdict_name(v));
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
            st = idng_wire_to_ascii(w, n, out, &olen, (idng_mode)m, k ? IDNG_F_KEEP_GOING : 0,
                                    &e);
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

static void one_input(const unsigned char *in, size_t n)
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

static void conf_input(const unsigned char *in, size_t n)
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

/* --- corpora and chunks ----------------------------------------------- */

enum run_mode { M_PRINT, M_WRITE, M_CHECK };
static enum run_mode run_mode;
static FILE *out_file;

struct chunk {
    uint64_t h;
    size_t count;
    char name[256];
    size_t index;
    char *inputs; /* the chunk's inputs as hex, for --check reports */
    size_t inputs_len;
};
static struct chunk cur;
static char (*base_lines)[64];
static size_t base_count, base_used;
static unsigned mismatches;
static size_t total_inputs, total_chunks;

static void chunk_flush(void)
{
    char got[64];
    if (cur.count == 0)
        return;
    snprintf(got, sizeof got, "%016llx", (unsigned long long)cur.h);
    total_chunks++;
    if (run_mode == M_WRITE) {
        fprintf(out_file, "%s %zu %zu %s\n", cur.name, cur.index, cur.count, got);
    } else if (run_mode == M_CHECK) {
        const char *want = base_used < base_count ? base_lines[base_used] : "(none)";
        if (strcmp(want, got) != 0) {
            mismatches++;
            fprintf(stderr, "diff: %s chunk %zu (%zu inputs): digest %s, baseline %s\n", cur.name,
                    cur.index, cur.count, got, want);
            if (mismatches <= 3)
                fprintf(stderr, "diff: its inputs (hex), one per line:\n%.*s", (int)cur.inputs_len,
                        cur.inputs ? cur.inputs : "");
        }
        base_used++;
    }
    cur.index++;
    cur.count = 0;
    cur.h = 1469598103934665603ULL;
    cur.inputs_len = 0;
}

static void chunk_begin(const char *name)
{
    chunk_flush();
    snprintf(cur.name, sizeof cur.name, "%s", name);
    cur.index = 0;
    cur.count = 0;
    cur.h = 1469598103934665603ULL;
    cur.inputs_len = 0;
}

static void emit_line(void)
{
    size_t i, hexlen = strcspn(line, " \n");
    if (hexlen > 160) /* enough to find the input again */
        hexlen = 160;
    for (i = 0; i < line_len; i++) {
        cur.h ^= (unsigned char)line[i];
        cur.h *= 1099511628211ULL;
    }
    if (run_mode == M_PRINT)
        fwrite(line, 1, line_len, stdout);
    if (run_mode == M_CHECK) {
        char *p = realloc(cur.inputs, cur.inputs_len + hexlen + 2);
        if (p) {
            cur.inputs = p;
            memcpy(p + cur.inputs_len, line, hexlen);
            cur.inputs_len += hexlen;
            p[cur.inputs_len++] = '\n';
        }
    }
    total_inputs++;
    if (++cur.count == CHUNK)
        chunk_flush();
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int corpus_dir(const char *dir)
{
    static unsigned char buf[1 << 16];
    DIR *d = opendir(dir);
    struct dirent *de;
    char **names = NULL;
    size_t count = 0, i;
    int is_conf = strstr(dir, "conf_parse") != NULL;

    if (!d) {
        fprintf(stderr, "dump: %s: cannot open the directory\n", dir);
        return -1;
    }
    while ((de = readdir(d)) != NULL) {
        char **p;
        if (de->d_name[0] == '.')
            continue;
        p = realloc(names, (count + 1) * sizeof *names);
        if (!p)
            abort();
        names = p;
        names[count++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(names, count, sizeof *names, cmp_str);
    chunk_begin(dir);
    for (i = 0; i < count; i++) {
        char path[4096];
        FILE *f;
        size_t n;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        f = fopen(path, "rb");
        if (!f) {
            fprintf(stderr, "dump: %s: cannot open\n", path);
            return -1;
        }
        n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        if (is_conf)
            conf_input(buf, n);
        else
            one_input(buf, n < INPUT_MAX ? n : INPUT_MAX);
        emit_line();
        free(names[i]);
    }
    free(names);
    chunk_flush();
    return 0;
}

static size_t utf8_put(uint32_t cp, unsigned char *o)
{
    return idng_utf8_encode(cp, o);
}

static int corpus_idnatest(const char *path)
{
    static char l[8192];
    static unsigned char in[8192];
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "dump: %s: cannot open IdnaTestV2.txt\n", path);
        return -1;
    }
    chunk_begin("idnatest");
    while (fgets(l, sizeof l, f)) {
        char *end;
        size_t n = 0, i, len;
        if (l[0] == '#' || l[0] == '\n')
            continue;
        end = strchr(l, ';');
        if (!end)
            continue;
        len = (size_t)(end - l);
        while (len && l[len - 1] == ' ')
            len--;
        i = 0;
        while (i < len && l[i] == ' ')
            i++;
        for (; i < len && n + 8 < sizeof in;) {
            if (l[i] == '\\' && i + 5 < len + 1 && l[i + 1] == 'u') {
                char hex[5] = {l[i + 2], l[i + 3], l[i + 4], l[i + 5], 0};
                n += utf8_put((uint32_t)strtoul(hex, NULL, 16), in + n);
                i += 6;
            } else if (l[i] == '\\' && l[i + 1] == 'x' && l[i + 2] == '{') {
                char *close = strchr(l + i, '}');
                n += utf8_put((uint32_t)strtoul(l + i + 3, NULL, 16), in + n);
                i = close ? (size_t)(close - l) + 1 : len;
            } else {
                in[n++] = (unsigned char)l[i++];
            }
        }
        one_input(in, n);
        emit_line();
    }
    fclose(f);
    chunk_flush();
    return 0;
}

/* Fragments of names: ASCII, A-labels real and made up, the code points
 * each rule looks at (joiners, bidi classes, CONTEXTO, marks, mapped and
 * ignored ones, full stops), bad UTF-8, hostile octets. */
static const char *const fragments[] = {
    /* mostly good: letters of several scripts, digits, real A-labels */
    "a", "b", "z", "Q", "0", "9", "1", "-", "abc", "example", "com", "xn--bcher-kva",
    "xn--nxasmq6b", "xn--ls8h", "xn--55qx5d", "xn--mgbh0fb", "xn--4dbrk0ce", "xn--fsq",
    "xn--ida", "\xc3\xbc", "\xc3\x9c", "\xc3\x9f", "\xcf\x82", "\xc4\xb1", "\xce\xb1",
    "\xd0\xb0", "\xe4\xb8\xad", "\xed\x95\x9c", "\xe0\xa4\x95", "\xe0\xa5\x8d",
    "\xd8\xa8", "\xd7\x90", "\xd9\x85", "\xd9\xa1", "\xdb\xb0", "\xf0\x9f\x98\x80",
#define NGOOD 36
    /* the rules' corner cases and hostile octets */
    "--", "_", "*", "xn--", "XN--", "xn--a", "xn--xn--a", "xn--zz-", "xn--0", "xn--l-ffa",
    "\xe2\x80\x8c", "\xe2\x80\x8d", "\xc2\xb7", "\xcd\xb5", "\xd7\xb3", "\xd7\xb4",
    "\xe3\x83\xbb", "\xd9\xa0", "\xcc\x81", "\xe3\x80\x82", "\xef\xbc\x8e",
    "\xef\xbd\xa1", "\xc2\xad", "\xe2\x80\x8b", "\xef\xbc\xa1", "\xe2\x84\xaa",
    "\xe2\x91\xa0", "\xef\xbc\x90", "\x80", "\xc3", "\xed\xa0\x80", "\xf4\x90\x80\x80",
    "\xc0\xaf", "\x00", "\n", " ", "\x1b[31m", "\"", "\\", "\x7f", "\xff", "\xe2\x80\xae",
    "\xef\xbb\xbf", "\xf3\xa0\x80\x81", "\xe0\xbe\x8b", "\xe1\x80\xba",
};
#define NFRAG (sizeof fragments / sizeof fragments[0])

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int corpus_random(unsigned long count)
{
    static unsigned char in[INPUT_MAX];
    unsigned long k;
    chunk_begin("random");
    for (k = 0; k < count; k++) {
        size_t n = 0, labels = 1 + next_rand() % 4, j;
        for (j = 0; j < labels; j++) {
            size_t parts = 1 + next_rand() % 6, p;
            if (j)
                in[n++] = '.';
            for (p = 0; p < parts; p++) {
                const char *fr = fragments[next_rand() % 10 ? next_rand() % NGOOD
                                                             : next_rand() % NFRAG];
                size_t fl = strlen(fr);
                if (fl == 0)
                    fl = 1; /* the NUL fragment */
                if (n + fl >= sizeof in)
                    break;
                memcpy(in + n, fr, fl);
                n += fl;
            }
            /* a Punycode-looking tail now and then */
            if (next_rand() % 4 == 0 && n + 12 < sizeof in) {
                size_t t = 1 + next_rand() % 10;
                while (t--)
                    in[n++] = "abcdefghijklmnopqrstuvwxyz0123456789-"[next_rand() % 37];
            }
        }
        if (next_rand() % 8 == 0)
            in[n++] = '.';
        one_input(in, n);
        emit_line();
    }
    chunk_flush();
    return 0;
}

static int load_baseline(const char *path)
{
    FILE *f = fopen(path, "r");
    char l[512];
    if (!f) {
        fprintf(stderr, "dump: %s: cannot open the baseline\n", path);
        return -1;
    }
    while (fgets(l, sizeof l, f)) {
        char name[300], digest[64];
        size_t idx, cnt;
        if (l[0] == '#')
            continue;
        if (sscanf(l, "%299s %zu %zu %63s", name, &idx, &cnt, digest) != 4)
            continue;
        base_lines = realloc(base_lines, (base_count + 1) * sizeof *base_lines);
        if (!base_lines)
            abort();
        snprintf(base_lines[base_count++], 64, "%s", digest);
    }
    fclose(f);
    return 0;
}

int main(int argc, char **argv)
{
    const char *file = NULL;
    int i = 1, rc = 0;

    if (argc > 2 && strcmp(argv[1], "--write") == 0) {
        run_mode = M_WRITE;
        file = argv[2];
        i = 3;
    } else if (argc > 2 && strcmp(argv[1], "--check") == 0) {
        run_mode = M_CHECK;
        file = argv[2];
        i = 3;
    } else if (argc > 1 && strcmp(argv[1], "--print") == 0) {
        run_mode = M_PRINT;
        i = 2;
    } else {
        fprintf(stderr, "usage: dump --write FILE | --check FILE | --print  CORPUS...\n");
        return 2;
    }
    load_confs();
    if (run_mode == M_WRITE) {
        out_file = fopen(file, "w");
        if (!out_file) {
            fprintf(stderr, "dump: %s: cannot write\n", file);
            return 2;
        }
        fprintf(out_file, "# chunk digests of tests/diff/dump.c's lines (corpus, chunk, "
                          "inputs, FNV-1a 64)\n");
    } else if (run_mode == M_CHECK && load_baseline(file)) {
        return 2;
    }
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "idnatest:", 9) == 0)
            rc |= corpus_idnatest(a + 9);
        else if (strncmp(a, "random:", 7) == 0)
            rc |= corpus_random(strtoul(a + 7, NULL, 10));
        else
            rc |= corpus_dir(a);
    }
    if (rc)
        return 2;
    if (run_mode == M_WRITE) {
        fclose(out_file);
        printf("diff: %zu inputs, %zu chunk digests written to %s\n", total_inputs, total_chunks,
               file);
    } else if (run_mode == M_CHECK) {
        if (base_used != base_count) {
            fprintf(stderr, "diff: %zu chunks here, %zu in the baseline\n", base_used, base_count);
            return 1;
        }
        if (mismatches) {
            fprintf(stderr, "diff: %u of %zu chunks differ from %s\n", mismatches, total_chunks,
                    file);
            return 1;
        }
        printf("diff: %zu inputs in %zu chunks give byte-identical results to the baseline\n",
               total_inputs, total_chunks);
    }
    return 0;
}
