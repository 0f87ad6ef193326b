/**
 * \file
 * Tests of the Public Suffix List lookup (core/idng_psl.h) and of its
 * generated table (core/psl_table.c, tools/gen_psl.py):
 *
 * - the list project's own test vectors, as registrable names;
 * - IDN TLDs and the list's Unicode rules in A-label form, ASCII case,
 *   wildcard and exception rules, IDNG_PSL_ICANN_ONLY, the root, one label,
 *   octets after the root, a label in raw UTF-8, malformed wire names
 *   (placed against a guard page, so that reading past len faults);
 * - when the installed list is the pinned one, every rule of it against a
 *   plain reading of the list's algorithm (ref_suffix below), on names made
 *   from each rule, with both sets of flags.  That reading converts the
 *   Unicode labels with the codec's Punycode, not the generator's.
 *
 * The expectations that depend on the list's content hold for the pinned
 * version (tools/psl.manifest: publicsuffix 20230209.2326-1).
 */
#include "common.h"
#include "idng_psl.h"
#include "idng_psl_table.h"
#include "idnguard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIRE_MAX 255
#define TEXT_MAX 1024
/** Where Debian's publicsuffix package installs the list. */
#define PSL_LIST "/usr/share/publicsuffix/public_suffix_list.dat"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

static unsigned char fold(unsigned char ch)
{
    return ch >= 'A' && ch <= 'Z' ? (unsigned char)(ch + 32) : ch;
}

/* A text name (no trailing dot; "" for the root) in wire form at w; a name
 * with non-ASCII characters goes through UTS #46 ToASCII first, ASCII as
 * it is (its case kept).  Returns the wire length. */
static size_t wire_of(const char *text, uint8_t *w)
{
    char ascii[TEXT_MAX];
    size_t n = sizeof ascii;
    const char *p;

    for (p = text; *p && (unsigned char)*p < 0x80; p++)
        ;
    if (*p) {
        idng_status st = idng_to_ascii(text, strlen(text), ascii, &n, IDNG_MODE_UTS46, 0, NULL);
        ck_assert_msg(st == IDNG_OK, "ToASCII of %s: %s", text, idng_status_class_name(st));
        text = ascii;
    }
    return t_wire(text, w);
}

/* Does the wire name from w[at] on equal the text name want (any case)? */
static int wire_is(const uint8_t *w, size_t len, size_t at, const char *want)
{
    uint8_t x[WIRE_MAX + 1];
    size_t n = wire_of(want, x), i;

    if (at > len || len - at != n)
        return 0;
    for (i = 0; i < n && fold(w[at + i]) == fold(x[i]); i++)
        ;
    return i == n;
}

/* The registrable name of name under flags is want (NULL: it has none). */
static void expect_registrable(const char *name, const char *want, unsigned flags)
{
    uint8_t w[WIRE_MAX + 1];
    size_t len = wire_of(name, w), at = idng_psl_registrable(w, len, flags);

    if (want == NULL)
        ck_assert_msg(at == len, "%s (flags %u): registrable at %zu, expected none", name, flags,
                      at);
    else
        ck_assert_msg(wire_is(w, len, at, want), "%s (flags %u): registrable at %zu, expected %s",
                      name, flags, at, want);
}

/* The public suffix of name under flags is want, of labels labels. */
static void expect_suffix(const char *name, const char *want, size_t labels, unsigned flags)
{
    uint8_t w[WIRE_MAX + 1];
    size_t len = wire_of(name, w), got = 99, at = idng_psl_suffix(w, len, flags, &got);

    ck_assert_msg(wire_is(w, len, at, want) && got == labels,
                  "%s (flags %u): suffix at %zu of %zu labels, expected %s of %zu", name, flags,
                  at, got, want, labels);
}

/* ------------------------------------------------------------------------ */
/* The list project's test vectors                                           */

/* From tests/test_psl.txt of https://github.com/publicsuffix/list at commit
 * 6ca11f5dd03631be45cc04049fd23a5b0c44c0ac (its last change on the main
 * branch); the file's header dedicates it to the public domain (CC0 1.0,
 * https://creativecommons.org/publicdomain/zero/1.0/), the repository as a
 * whole is under the Mozilla Public License 2.0.  checkPublicSuffix(a, b)
 * says that b is a's registrable name, null for none.  Every vector holds
 * for the pinned list, and all are here but these:
 * - checkPublicSuffix(null, null): there is no null wire name; a NULL
 *   pointer is tested as malformed input below;
 * - the four of a leading dot ('.com', '.example', '.example.com',
 *   '.example.example'): an empty label has no wire form (the first empty
 *   label is the root);
 * - the four of .local, which the file itself comments out.
 * The names in Unicode are converted with UTS #46 ToASCII; the file repeats
 * them in Punycode. */
static const char *const project_vectors[][2] = {
    /* Mixed case. */
    {"COM", NULL},
    {"example.COM", "example.com"},
    {"WwW.example.COM", "example.com"},
    /* Unlisted TLD. */
    {"example", NULL},
    {"example.example", "example.example"},
    {"b.example.example", "example.example"},
    {"a.b.example.example", "example.example"},
    /* TLD with only 1 rule. */
    {"biz", NULL},
    {"domain.biz", "domain.biz"},
    {"b.domain.biz", "domain.biz"},
    {"a.b.domain.biz", "domain.biz"},
    /* TLD with some 2-level rules. */
    {"com", NULL},
    {"example.com", "example.com"},
    {"b.example.com", "example.com"},
    {"a.b.example.com", "example.com"},
    {"uk.com", NULL},
    {"example.uk.com", "example.uk.com"},
    {"b.example.uk.com", "example.uk.com"},
    {"a.b.example.uk.com", "example.uk.com"},
    {"test.ac", "test.ac"},
    /* TLD with only 1 (wildcard) rule. */
    {"mm", NULL},
    {"c.mm", NULL},
    {"b.c.mm", "b.c.mm"},
    {"a.b.c.mm", "b.c.mm"},
    /* More complex TLD. */
    {"jp", NULL},
    {"test.jp", "test.jp"},
    {"www.test.jp", "test.jp"},
    {"ac.jp", NULL},
    {"test.ac.jp", "test.ac.jp"},
    {"www.test.ac.jp", "test.ac.jp"},
    {"kyoto.jp", NULL},
    {"test.kyoto.jp", "test.kyoto.jp"},
    {"ide.kyoto.jp", NULL},
    {"b.ide.kyoto.jp", "b.ide.kyoto.jp"},
    {"a.b.ide.kyoto.jp", "b.ide.kyoto.jp"},
    {"c.kobe.jp", NULL},
    {"b.c.kobe.jp", "b.c.kobe.jp"},
    {"a.b.c.kobe.jp", "b.c.kobe.jp"},
    {"city.kobe.jp", "city.kobe.jp"},
    {"www.city.kobe.jp", "city.kobe.jp"},
    /* TLD with a wildcard rule and exceptions. */
    {"ck", NULL},
    {"test.ck", NULL},
    {"b.test.ck", "b.test.ck"},
    {"a.b.test.ck", "b.test.ck"},
    {"www.ck", "www.ck"},
    {"www.www.ck", "www.ck"},
    /* US K12. */
    {"us", NULL},
    {"test.us", "test.us"},
    {"www.test.us", "test.us"},
    {"ak.us", NULL},
    {"test.ak.us", "test.ak.us"},
    {"www.test.ak.us", "test.ak.us"},
    {"k12.ak.us", NULL},
    {"test.k12.ak.us", "test.k12.ak.us"},
    {"www.test.k12.ak.us", "test.k12.ak.us"},
    /* IDN labels. */
    {"食狮.com.cn", "食狮.com.cn"},
    {"食狮.公司.cn", "食狮.公司.cn"},
    {"www.食狮.公司.cn", "食狮.公司.cn"},
    {"shishi.公司.cn", "shishi.公司.cn"},
    {"公司.cn", NULL},
    {"食狮.中国", "食狮.中国"},
    {"www.食狮.中国", "食狮.中国"},
    {"shishi.中国", "shishi.中国"},
    {"中国", NULL},
    /* Same as above, but punycoded. */
    {"xn--85x722f.com.cn", "xn--85x722f.com.cn"},
    {"xn--85x722f.xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn"},
    {"www.xn--85x722f.xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn"},
    {"shishi.xn--55qx5d.cn", "shishi.xn--55qx5d.cn"},
    {"xn--55qx5d.cn", NULL},
    {"xn--85x722f.xn--fiqs8s", "xn--85x722f.xn--fiqs8s"},
    {"www.xn--85x722f.xn--fiqs8s", "xn--85x722f.xn--fiqs8s"},
    {"shishi.xn--fiqs8s", "shishi.xn--fiqs8s"},
    {"xn--fiqs8s", NULL},
};

START_TEST(test_project_vectors)
{
    size_t i;

    for (i = 0; i < sizeof project_vectors / sizeof project_vectors[0]; i++)
        expect_registrable(project_vectors[i][0], project_vectors[i][1], 0);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Rules of the list                                                         */

START_TEST(test_idn_tlds)
{
    /* рф and рус, ICANN rules of one Unicode label. */
    expect_suffix("xn--p1ai", "xn--p1ai", 1, 0);
    expect_registrable("xn--p1ai", NULL, 0);
    expect_registrable("www.xn--80ak6aa92e.xn--p1ai", "xn--80ak6aa92e.xn--p1ai", 0);
    expect_registrable("пример.рф", "пример.рф", 0);
    expect_registrable("xn--p1acf", NULL, 0);
    /* Unicode rules of two labels: 公司.cn, 公司.hk, aéroport.ci. */
    expect_suffix("a.xn--55qx5d.cn", "xn--55qx5d.cn", 2, 0);
    expect_suffix("a.xn--55qx5d.hk", "xn--55qx5d.hk", 2, 0);
    expect_registrable("xn--55qx5d.hk", NULL, 0);
    expect_suffix("paypal.xn--aroport-bya.ci", "xn--aroport-bya.ci", 2, 0);
    expect_registrable("www.paypal.aéroport.ci", "paypal.aéroport.ci", 0);
    /* The A-label of a TLD the list does not know is its own suffix. */
    expect_suffix("a.b.xn--zckzah", "xn--zckzah", 1, 0);
}
END_TEST

START_TEST(test_case)
{
    expect_registrable("WWW.EXAMPLE.CO.UK", "example.co.uk", 0);
    expect_suffix("WWW.EXAMPLE.CO.UK", "co.uk", 2, 0);
    expect_suffix("Shop.XN--P1AI", "xn--p1ai", 1, 0);
    expect_suffix("A.XN--55QX5D.CN", "xn--55qx5d.cn", 2, 0);
    expect_registrable("A.B.IDE.KYOTO.JP", "b.ide.kyoto.jp", 0);
    expect_registrable("WwW.CiTy.KoBe.Jp", "city.kobe.jp", 0);
    expect_registrable("Www.Ck", "www.ck", 0);
    expect_registrable("User.GitHub.IO", "user.github.io", 0);
}
END_TEST

START_TEST(test_wildcards_and_exceptions)
{
    /* *.ck and !www.ck; *.kobe.jp and !city.kobe.jp. */
    expect_suffix("a.b.ck", "b.ck", 2, 0);
    expect_suffix("ck", "ck", 1, 0);
    expect_suffix("www.ck", "ck", 1, 0);
    expect_suffix("a.www.ck", "ck", 1, 0);
    expect_suffix("x.y.kobe.jp", "y.kobe.jp", 3, 0);
    expect_suffix("kobe.jp", "jp", 1, 0);
    expect_suffix("www.city.kobe.jp", "kobe.jp", 2, 0);
    /* The wildcard of the PRIVATE section *.compute.amazonaws.com, under a
     * name that is no rule (amazonaws.com). */
    expect_suffix("a.b.compute.amazonaws.com", "b.compute.amazonaws.com", 4, 0);
    expect_suffix("compute.amazonaws.com", "com", 1, 0);
    expect_registrable("compute.amazonaws.com", "amazonaws.com", 0);
    expect_suffix("a.b.compute.amazonaws.com", "com", 1, IDNG_PSL_ICANN_ONLY);
}
END_TEST

START_TEST(test_icann_only)
{
    unsigned icann = IDNG_PSL_ICANN_ONLY;

    expect_registrable("www.user.github.io", "user.github.io", 0);
    expect_registrable("www.user.github.io", "github.io", icann);
    expect_registrable("github.io", NULL, 0);
    expect_registrable("github.io", "github.io", icann);
    expect_registrable("me.blogspot.com", "me.blogspot.com", 0);
    expect_registrable("me.blogspot.com", "blogspot.com", icann);
    expect_registrable("me.blogspot.co.uk", "blogspot.co.uk", icann);
    expect_registrable("example.uk.com", "uk.com", icann);
    /* A Unicode rule of the PRIVATE section: биз.рус. */
    expect_suffix("shop.биз.рус", "биз.рус", 2, 0);
    expect_suffix("shop.биз.рус", "рус", 1, icann);
    expect_registrable("shop.xn--90amc.xn--p1acf", "xn--90amc.xn--p1acf", icann);
    /* ICANN rules are the same under both. */
    expect_registrable("www.example.co.uk", "example.co.uk", icann);
    expect_registrable("a.b.c.kobe.jp", "b.c.kobe.jp", icann);
    expect_registrable("www.city.kobe.jp", "city.kobe.jp", icann);
    /* Flags other than IDNG_PSL_ICANN_ONLY are ignored. */
    expect_registrable("www.user.github.io", "user.github.io", 0x10u);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Names at the edges                                                        */

START_TEST(test_root_and_one_label)
{
    uint8_t w[WIRE_MAX + 1];
    size_t len = wire_of("", w), labels = 99;

    ck_assert_uint_eq(len, 1);
    ck_assert_uint_eq(idng_psl_suffix(w, len, 0, &labels), 0);
    ck_assert_uint_eq(labels, 0);
    ck_assert_uint_eq(idng_psl_registrable(w, len, 0), len);
    ck_assert_uint_eq(idng_psl_registrable(w, len, IDNG_PSL_ICANN_ONLY), len);
    ck_assert_uint_eq(idng_psl_suffix(w, len, 0, NULL), 0);

    expect_suffix("com", "com", 1, 0);
    expect_suffix("localhost", "localhost", 1, 0);
    expect_suffix("io", "io", 1, IDNG_PSL_ICANN_ONLY);
    expect_registrable("localhost", NULL, 0);
    expect_registrable("a.localhost", "a.localhost", 0);
    /* A literal "*" label is only a label. */
    expect_registrable("*.ck", NULL, 0);
    expect_registrable("*.*.ck", "*.*.ck", 0);
    expect_registrable("*.com", "*.com", 0);
}
END_TEST

START_TEST(test_octets_after_root)
{
    uint8_t w[WIRE_MAX + 8];
    size_t len = wire_of("www.example.co.uk", w), labels = 0;

    memcpy(w + len, "\003com\000", 5);
    ck_assert_uint_eq(idng_psl_registrable(w, len + 5, 0), 4);
    ck_assert_uint_eq(idng_psl_suffix(w, len + 5, 0, &labels), 12);
    ck_assert_uint_eq(labels, 2);
    /* A public suffix: "none" is the len passed. */
    len = wire_of("co.uk", w);
    ck_assert_uint_eq(idng_psl_registrable(w, len + 3, 0), len + 3);
}
END_TEST

/* The list's labels are A-labels: a label in raw UTF-8 is one it does not
 * know, like any other.  (wire_of would convert these names.) */
START_TEST(test_raw_utf8)
{
    uint8_t w[WIRE_MAX + 1];
    size_t len, labels = 0;

    /* 公司.cn: cn is the suffix, not the rule 公司.cn. */
    len = t_wire("a.\345\205\254\345\217\270.cn", w);
    ck_assert_uint_eq(idng_psl_suffix(w, len, 0, &labels), 9);
    ck_assert_uint_eq(labels, 1);
    ck_assert_uint_eq(idng_psl_registrable(w, len, 0), 2);
    /* рф: an unknown TLD, its own suffix. */
    len = t_wire("a.\321\200\321\204", w);
    ck_assert_uint_eq(idng_psl_suffix(w, len, 0, &labels), 2);
    ck_assert_uint_eq(labels, 1);
    ck_assert_uint_eq(idng_psl_registrable(w, len, 0), 0);
}
END_TEST

/* Malformed names, each ending at a guard page: both functions return len,
 * with no suffix labels, and read nothing past len. */
START_TEST(test_malformed)
{
    static const struct {
        const char *wire;
        size_t len;
    } bad[] = {
        {"", 0},                                 /* nothing at all */
        {"\003com", 4},                          /* no root label */
        {"\007example\003com", 12},              /* no root label, two labels */
        {"\003co\000", 4},                       /* a label past the end */
        {"\007example\300\014", 10},             /* a compression pointer */
        {"\100aaaa", 5},                         /* a length octet of 64 */
        {"\003www\200\000", 6},                  /* an extended label type */
    };
    struct t_guard g;
    uint8_t big[300];
    size_t i, labels;

    t_guard_open(&g);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const uint8_t *w = t_guard_put(&g, bad[i].wire, bad[i].len);

        labels = 99;
        ck_assert_msg(idng_psl_suffix(w, bad[i].len, 0, &labels) == bad[i].len && labels == 0,
                      "malformed name %zu: suffix", i);
        ck_assert_msg(idng_psl_registrable(w, bad[i].len, 0) == bad[i].len,
                      "malformed name %zu: registrable", i);
    }
    t_guard_close(&g);

    /* 127 labels of one octet (255 octets) are fine; 128 are too many. */
    for (i = 0; i < 128; i++)
        memcpy(big + 2 * i, "\001a", 2);
    big[254] = 0;
    labels = 0;
    ck_assert_uint_eq(idng_psl_suffix(big, 255, 0, &labels), 252);
    ck_assert_uint_eq(labels, 1);
    ck_assert_uint_eq(idng_psl_registrable(big, 255, 0), 250);
    big[254] = 1;
    big[256] = 0;
    labels = 99;
    ck_assert_uint_eq(idng_psl_suffix(big, 257, 0, &labels), 257);
    ck_assert_uint_eq(labels, 0);
    ck_assert_uint_eq(idng_psl_registrable(big, 257, 0), 257);

    /* A NULL name. */
    labels = 99;
    ck_assert_uint_eq(idng_psl_suffix(NULL, 7, 0, &labels), 7);
    ck_assert_uint_eq(labels, 0);
    ck_assert_uint_eq(idng_psl_registrable(NULL, 7, 0), 7);
}
END_TEST

START_TEST(test_version)
{
    const char *v = idng_psl_version;
    size_t i;

    ck_assert_uint_ge(strlen(v), 10);
    for (i = 0; i < 8; i++)
        ck_assert_msg(v[i] >= '0' && v[i] <= '9', "version %s: a date first", v);
    ck_assert_msg(v[8] == '.', "version %s: YYYYMMDD.", v);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Every rule against the algorithm read plainly                             */

/* Most labels of a rule kept by the reference (the list's have 5). */
#define REF_LABELS 8

/* A rule: its labels, the top-level one first, in A-label form; a wildcard
 * rule's last label is "*"; an exception rule without its "!". */
struct ref_rule {
    char lab[REF_LABELS][64];
    int nlab;
    int exception;
    int icann;
};

static struct ref_rule *rules;
static size_t nrules;

/* The A-label of the UTF-8 label s (n octets), or a copy when ASCII. */
static void ref_alabel(const char *s, size_t n, char *out)
{
    uint32_t cps[64];
    char in[TEXT_MAX];
    size_t k, m, outlen = 59;
    idng_status st;

    for (k = 0; k < n && (unsigned char)s[k] < 0x80; k++)
        ;
    ck_assert_msg(n < 64 && n < sizeof in, "a label of the list is too long");
    if (k == n) {
        memcpy(out, s, n);
        out[n] = '\0';
        return;
    }
    memcpy(in, s, n);
    in[n] = '\0';
    m = t_utf8_to_cps(in, cps, 64);
    memcpy(out, "xn--", 4);
    st = idng_punycode_encode(cps, m, NULL, out + 4, &outlen);
    ck_assert_msg(st == IDNG_OK && outlen <= 59, "Punycode of %s: %s", in,
                  idng_status_class_name(st));
    out[4 + outlen] = '\0';
}

static int rule_cmp(const void *a, const void *b)
{
    return strcmp(((const struct ref_rule *)a)->lab[0], ((const struct ref_rule *)b)->lab[0]);
}

/* Reads the list's rules, both sections, into rules[] sorted by top-level
 * label.  Returns 0 when the installed list is not the pinned one. */
static int ref_load(void)
{
    size_t size = 0, cap = 0;
    char *text = t_slurp(PSL_LIST, &size), *line, *next;
    int icann = -1;

    if (text == NULL || size != IDNG_PSL_INPUT_OCTETS) {
        fprintf(stderr, "test_psl: %s is %s; every-rule test skipped\n", PSL_LIST,
                text == NULL ? "not installed" : "not the pinned version");
        free(text);
        return 0;
    }
    for (line = text; *line; line = next) {
        struct ref_rule *r;
        char *p, *end;

        next = strchr(line, '\n');
        next = next ? next + 1 : line + strlen(line);
        if (strncmp(line, "// ===BEGIN ICANN", 17) == 0)
            icann = 1;
        if (strncmp(line, "// ===BEGIN PRIVATE", 19) == 0)
            icann = 0;
        if (line[0] == '/' || line[0] == '\n' || line[0] == ' ' || line[0] == '\t')
            continue;
        ck_assert_msg(icann >= 0, "a rule outside the sections");
        if (nrules == cap) {
            cap = cap ? 2 * cap : 1024;
            rules = realloc(rules, cap * sizeof *rules);
            ck_assert(rules != NULL);
        }
        r = &rules[nrules++];
        memset(r, 0, sizeof *r);
        r->icann = icann;
        p = line;
        if (*p == '!') {
            r->exception = 1;
            p++;
        }
        for (end = p; *end && *end != '\n' && *end != ' ' && *end != '\t' && *end != '\r'; end++)
            ;
        /* Labels from the right. */
        while (end > p) {
            char *dot = end;

            while (dot > p && dot[-1] != '.')
                dot--;
            ck_assert_msg(r->nlab < REF_LABELS, "a rule of over %d labels", REF_LABELS);
            ref_alabel(dot, (size_t)(end - dot), r->lab[r->nlab++]);
            end = dot > p ? dot - 1 : p;
        }
    }
    free(text);
    qsort(rules, nrules, sizeof *rules, rule_cmp);
    return 1;
}

/* The public suffix's labels of the name of nlab labels q (the top-level
 * one first, lowercase), by the list's algorithm as its wiki states it:
 * of the matching rules, an exception prevails (the suffix is the rule
 * without its leftmost label), else the one of most labels; none matching,
 * the rule "*". */
static size_t ref_suffix(char q[][64], int nlab, int icann_only)
{
    size_t lo = 0, hi = nrules, best = 1, i;
    int exception = -1;

    while (lo < hi) { /* the first rule of q's top-level label */
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(rules[mid].lab[0], q[0]) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (i = lo; i < nrules && strcmp(rules[i].lab[0], q[0]) == 0; i++) {
        const struct ref_rule *r = &rules[i];
        int k;

        if (r->nlab > nlab || (icann_only && !r->icann))
            continue;
        for (k = 0; k < r->nlab; k++)
            if (strcmp(r->lab[k], "*") != 0 && strcmp(r->lab[k], q[k]) != 0)
                break;
        if (k < r->nlab)
            continue;
        if (r->exception)
            exception = r->nlab - 1;
        else if ((size_t)r->nlab > best)
            best = (size_t)r->nlab;
    }
    return exception >= 0 ? (size_t)exception : best;
}

/* A wire name from labels q[0..nlab) (top-level first), some letters in
 * capitals. */
static size_t ref_wire(char q[][64], int nlab, uint8_t *w, uint32_t *state)
{
    size_t o = 0;
    int k;

    for (k = nlab - 1; k >= 0; k--) {
        size_t n = strlen(q[k]), j;

        w[o++] = (uint8_t)n;
        for (j = 0; j < n; j++) {
            unsigned char ch = (unsigned char)q[k][j];
            w[o++] = ch >= 'a' && ch <= 'z' && t_xorshift32(state) % 3 == 0
                ? (uint8_t)(ch - 32) : ch;
        }
    }
    w[o++] = 0;
    return o;
}

/* Offset of label k (0: the first) of the well-formed wire name w. */
static size_t label_at(const uint8_t *w, size_t k)
{
    size_t at = 0;

    while (k-- > 0)
        at += 1u + w[at];
    return at;
}

START_TEST(test_every_rule)
{
    static const char *const above[] = {"", "x", "y"};
    uint32_t state = 0x50534cu;
    size_t i, checked = 0;

    if (!ref_load())
        return;
    ck_assert_uint_ge(nrules, 9000);
    for (i = 0; i < nrules; i++) {
        const struct ref_rule *r = &rules[i];
        char q[REF_LABELS + 2][64];
        int nlab, base, extra, icann_only;

        /* The rule's name ("*" as a label "wild"), then one and two labels
         * more; and its parent. */
        for (base = 0; base < r->nlab; base++)
            strcpy(q[base], strcmp(r->lab[base], "*") == 0 ? "wild" : r->lab[base]);
        for (extra = -1; extra <= 2; extra++) {
            uint8_t w[WIRE_MAX + 1];
            size_t len, want, got, at;

            nlab = r->nlab + extra;
            if (nlab < 1)
                continue;
            if (extra > 0)
                strcpy(q[r->nlab + extra - 1], above[extra]);
            len = ref_wire(q, nlab, w, &state);
            for (icann_only = 0; icann_only <= 1; icann_only++) {
                unsigned fl = icann_only ? IDNG_PSL_ICANN_ONLY : 0;

                want = ref_suffix(q, nlab, icann_only);
                at = idng_psl_suffix(w, len, fl, &got);
                REQUIRE(got == want && at == label_at(w, (size_t)nlab - want),
                        "rule %zu (%s...): %d labels, flags %u: suffix at %zu of %zu labels, "
                        "expected %zu labels", i, r->lab[0], nlab, fl, at, got, want);
                REQUIRE(idng_psl_registrable(w, len, fl)
                            == ((size_t)nlab > want ? label_at(w, (size_t)nlab - want - 1) : len),
                        "rule %zu (%s...): %d labels, flags %u: registrable", i, r->lab[0],
                        nlab, fl);
                checked++;
            }
        }
    }
    free(rules);
    rules = NULL;
    nrules = 0;
    ck_assert_uint_ge(checked, 30000);
}
END_TEST

static Suite *psl_suite(void)
{
    Suite *s = suite_create("psl");
    TCase *tc = tcase_create("lookup");

    tcase_add_test(tc, test_project_vectors);
    tcase_add_test(tc, test_idn_tlds);
    tcase_add_test(tc, test_case);
    tcase_add_test(tc, test_wildcards_and_exceptions);
    tcase_add_test(tc, test_icann_only);
    tcase_add_test(tc, test_root_and_one_label);
    tcase_add_test(tc, test_octets_after_root);
    tcase_add_test(tc, test_raw_utf8);
    tcase_add_test(tc, test_malformed);
    tcase_add_test(tc, test_version);
    suite_add_tcase(s, tc);

    tc = tcase_create("every rule");
    tcase_add_test(tc, test_every_rule);
    tcase_set_timeout(tc, 120); /* sanitizer builds are several times slower */
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(psl_suite)
