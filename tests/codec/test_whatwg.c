/**
 * \file
 * The host cases of the WHATWG URL Standard's urltestdata.json (web
 * platform tests), run through idng_to_ascii with the options the URL
 * Standard's "domain to ASCII" uses (beStrict false): the `whatwg` profile
 * of the CLI, IDNG_F_STRICT | IDNG_F_NO_CHECK_HYPHENS | IDNG_F_NO_STD3 |
 * IDNG_F_NO_DNS_LENGTH, nontransitional, CheckBidi and CheckJoiners on.
 *
 * The file is Debian's librust-url-dev's (the url crate ships it in its
 * tests/), kept in tests/codec/data/ (data.manifest pins it) and named by
 * $WHATWG_URLTESTDATA.  Its toascii.json is in no Debian package:
 * tests/codec/data/ keeps a copy too ($WHATWG_TOASCII), whose cases run
 * through the same host parser.
 *
 * A host case is an absolute URL of a special scheme other than file
 * (http, https, ws, wss, ftp) with an authority ("scheme:" and at least
 * two slashes or backslashes), whose port is empty or a number up to
 * 65535, and whose host is neither an IPv6 address ("[...]") nor, once
 * converted, a name that ends in a number (the IPv4 parser's, not IDNA's).
 * Its host is cut out as the URL parser does (tab and newlines removed,
 * C0 controls and spaces trimmed at both ends, userinfo up to the last
 * '@', the port after the last ':'), percent-decoded, converted, and
 * checked for the forbidden domain code points, as the host parser does.
 * The expectation is the case's hostname, or failure.
 *
 * Every deviation is listed below with its reason, and a listed case must
 * still deviate, so the list stays true.
 */
#include "common.h"
#include "idnguard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WHATWG_FLAGS                                                                               \
    (IDNG_F_STRICT | IDNG_F_NO_CHECK_HYPHENS | IDNG_F_NO_STD3 | IDNG_F_NO_DNS_LENGTH)

struct host_case {
    char *input; /* the URL, as in the file */
    char *host;  /* its host, cut out and percent-decoded */
    size_t hostlen;
    char *hostname; /* expected, or NULL for a failure */
};

static struct host_case *cases;
static size_t ncases, nobjects;

/*
 * Deviations, by the case's input, each with its reason; none today.  The
 * one known kind: UTS #46 with UseSTD3ASCIIRules=false maps the
 * disallowed_STD3_mapped code points (fullwidth ASCII symbols,
 * parenthesized and full-stop digits, ...) to ASCII, and idnguard's tables
 * fold the STD3 rules in and keep no mapping for them, so they stay
 * disallowed (docs/codec.md, "Known deviations from UTS #46"); in this file every
 * such host fails either way (the mapping gives a forbidden code point).
 */
static const struct t_deviation deviations[] = {
    {NULL, NULL},
};

static void die(const char *msg) __attribute__((noreturn));

static void die(const char *msg)
{
    fprintf(stderr, "test_whatwg: %s\n", msg);
    exit(EXIT_FAILURE);
}

/* ---- Just enough JSON: an array of strings and flat objects of strings,
 * booleans and null (RFC 8259). ---- */

struct json {
    const char *p, *end;
};

static void skip_ws(struct json *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
        j->p++;
}

static int expect(struct json *j, char c)
{
    skip_ws(j);
    if (j->p < j->end && *j->p == c) {
        j->p++;
        return 1;
    }
    return 0;
}

static unsigned hex4(struct json *j)
{
    unsigned v = 0;
    int i;

    if (j->end - j->p < 4)
        die("truncated \\u escape");
    for (i = 0; i < 4; i++) {
        char c = *j->p++;
        v = v * 16
            + (unsigned)(c >= '0' && c <= '9'   ? c - '0'
                         : c >= 'a' && c <= 'f' ? c - 'a' + 10
                         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                : (die("bad \\u escape"), 0));
    }
    return v;
}

/* A string, as UTF-8 (a lone surrogate as its three CESU-style octets, which
 * the codec sees as bad UTF-8, as a URL parser would see U+FFFD). */
static char *json_string(struct json *j, size_t *len)
{
    size_t cap = 64, n = 0;
    char *s = malloc(cap);

    if (!s || !expect(j, '"'))
        die("string expected");
    while (j->p < j->end && *j->p != '"') {
        unsigned char buf[4];
        uint32_t cp;
        size_t m;
        if (n + 8 > cap && !(s = realloc(s, cap *= 2)))
            die("out of memory");
        if (*j->p != '\\') {
            s[n++] = *j->p++;
            continue;
        }
        j->p++;
        switch (j->p < j->end ? *j->p++ : 0) {
        case '"':
            s[n++] = '"';
            continue;
        case '\\':
            s[n++] = '\\';
            continue;
        case '/':
            s[n++] = '/';
            continue;
        case 'b':
            s[n++] = '\b';
            continue;
        case 'f':
            s[n++] = '\f';
            continue;
        case 'n':
            s[n++] = '\n';
            continue;
        case 'r':
            s[n++] = '\r';
            continue;
        case 't':
            s[n++] = '\t';
            continue;
        case 'u':
            break;
        default:
            die("bad escape");
        }
        cp = hex4(j);
        if (cp >= 0xD800 && cp < 0xDC00 && j->end - j->p >= 6 && j->p[0] == '\\'
            && j->p[1] == 'u') {
            struct json k = {j->p + 2, j->end};
            uint32_t lo = hex4(&k);
            if (lo >= 0xDC00 && lo < 0xE000) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                j->p = k.p;
            }
        }
        if (cp >= 0xD800 && cp < 0xE000) {
            s[n++] = (char)(0xE0 | cp >> 12);
            s[n++] = (char)(0x80 | (cp >> 6 & 0x3F));
            s[n++] = (char)(0x80 | (cp & 0x3F));
            continue;
        }
        m = idng_utf8_encode(cp, buf);
        memcpy(s + n, buf, m);
        n += m;
    }
    if (!expect(j, '"'))
        die("unterminated string");
    s[n] = '\0';
    if (len)
        *len = n;
    return s;
}

/* ---- The URL parser's steps up to the host, for the cases kept ---- */

static int c0_or_space(unsigned char c)
{
    return c <= 0x20;
}

static int special_scheme(const char *s, size_t n)
{
    static const char *const schemes[] = {"http", "https", "ws", "wss", "ftp"};
    size_t i, k;

    for (i = 0; i < sizeof schemes / sizeof schemes[0]; i++) {
        if (strlen(schemes[i]) != n)
            continue;
        for (k = 0; k < n && (s[k] | 0x20) == schemes[i][k]; k++)
            ;
        if (k == n)
            return 1;
    }
    return 0;
}

static int hexval(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* The host of a host case, percent-decoded, in a new string; NULL when the
 * input is not a host case. */
static char *cut_host(const char *input, size_t n, size_t *hostlen)
{
    size_t i, k = 0, start, end, at, colon;
    char *u = malloc(n + 1), *h;

    if (!u)
        die("out of memory");
    /* Trim C0 controls and spaces; remove every tab and newline. */
    while (n > 0 && c0_or_space((unsigned char)input[n - 1]))
        n--;
    for (i = 0; i < n && c0_or_space((unsigned char)input[i]); i++)
        ;
    for (; i < n; i++)
        if (input[i] != '\t' && input[i] != '\n' && input[i] != '\r')
            u[k++] = input[i];
    u[k] = '\0';
    for (i = 0; i < k && u[i] != ':'; i++)
        ;
    if (i == k || !special_scheme(u, i) || k - i < 3 || (u[i + 1] != '/' && u[i + 1] != '\\')
        || (u[i + 2] != '/' && u[i + 2] != '\\')) {
        free(u);
        return NULL;
    }
    for (start = i + 1; start < k && (u[start] == '/' || u[start] == '\\'); start++)
        ;
    for (end = start; end < k && !memchr("/\\?#", u[end], 4); end++)
        ;
    for (at = end; at > start && u[at - 1] != '@'; at--)
        ;
    start = at;
    if (start < end && u[start] == '[') { /* IPv6 */
        free(u);
        return NULL;
    }
    for (colon = end; colon > start && u[colon - 1] != ':'; colon--)
        ;
    if (colon > start) {
        unsigned long port = 0;
        for (i = colon; i < end; i++) {
            if (u[i] >= '0' && u[i] <= '9')
                port = port * 10 + (unsigned long)(u[i] - '0');
            if (u[i] < '0' || u[i] > '9' || port > 65535) {
                free(u);
                return NULL; /* the port fails, not the host */
            }
        }
        end = colon - 1;
    }
    if (end == start) { /* an empty host: no IDNA there */
        free(u);
        return NULL;
    }
    h = malloc(end - start + 1);
    if (!h)
        die("out of memory");
    for (i = start, k = 0; i < end; i++) {
        if (u[i] == '%' && i + 2 < end && hexval(u[i + 1]) >= 0 && hexval(u[i + 2]) >= 0) {
            h[k++] = (char)(hexval(u[i + 1]) * 16 + hexval(u[i + 2]));
            i += 2;
        } else {
            h[k++] = u[i];
        }
    }
    h[k] = '\0';
    *hostlen = k;
    free(u);
    return h;
}

/* The forbidden domain code points of the URL Standard (all ASCII). */
static int forbidden_domain(unsigned char c)
{
    return c <= 0x20 || c == 0x7F || (c != 0 && memchr("#%/:<>?@[\\]^|", c, 13));
}

/* Does the converted host end in a number (URL Standard, "ends in a
 * number checker")?  Then it is the IPv4 parser's. */
static int ends_in_number(const char *s, size_t n)
{
    size_t start, i;

    if (n > 0 && s[n - 1] == '.')
        n--;
    if (n > 0 && s[n - 1] == '.')
        return 0;
    for (start = n; start > 0 && s[start - 1] != '.'; start--)
        ;
    if (start == n)
        return 0;
    for (i = start; i < n && s[i] >= '0' && s[i] <= '9'; i++)
        ;
    if (i == n)
        return 1;
    return n - start >= 2 && s[start] == '0' && (s[start + 1] | 0x20) == 'x';
}

/* What the two files' objects hold that these tests read. */
struct jobj {
    char *input, *hostname, *output;
    size_t inputlen;
    int failure, has_output;
};

/* Reads a JSON array of objects and strings (comments) from path, and hands
 * each object to fn, which takes over its strings. */
static void read_objects(const char *path, const char *var, void (*fn)(struct jobj *o))
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long size = 0;
    struct json j;

    if (!f) {
        fprintf(stderr, "test_whatwg: cannot open %s (set %s)\n", path, var);
        exit(EXIT_FAILURE);
    }
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0
        || !(text = malloc((size_t)size + 1)) || fread(text, 1, (size_t)size, f) != (size_t)size)
        die("cannot read the file");
    fclose(f);
    j.p = text;
    j.end = text + size;
    if (!expect(&j, '['))
        die("not a JSON array");
    do {
        struct jobj o = {NULL, NULL, NULL, 0, 0, 0};
        skip_ws(&j);
        if (j.p < j.end && *j.p == '"') { /* a comment */
            free(json_string(&j, NULL));
            continue;
        }
        if (!expect(&j, '{'))
            die("object expected");
        nobjects++;
        do {
            char *key;
            skip_ws(&j);
            if (j.p < j.end && *j.p == '}')
                break;
            key = json_string(&j, NULL);
            if (!expect(&j, ':'))
                die("':' expected");
            skip_ws(&j);
            if (j.p < j.end && *j.p == '"') {
                size_t vlen;
                char *v = json_string(&j, &vlen);
                if (strcmp(key, "input") == 0 && !o.input) {
                    o.input = v;
                    o.inputlen = vlen;
                } else if (strcmp(key, "hostname") == 0 && !o.hostname) {
                    o.hostname = v;
                } else if (strcmp(key, "output") == 0 && !o.output) {
                    o.output = v;
                    o.has_output = 1;
                } else {
                    free(v);
                }
            } else if (j.end - j.p >= 4 && memcmp(j.p, "true", 4) == 0) {
                o.failure |= strcmp(key, "failure") == 0;
                j.p += 4;
            } else if (j.end - j.p >= 5 && memcmp(j.p, "false", 5) == 0) {
                j.p += 5;
            } else if (j.end - j.p >= 4 && memcmp(j.p, "null", 4) == 0) {
                o.has_output |= strcmp(key, "output") == 0;
                j.p += 4;
            } else {
                die("unexpected value");
            }
            free(key);
        } while (expect(&j, ','));
        if (!expect(&j, '}'))
            die("'}' expected");
        fn(&o);
    } while (expect(&j, ','));
    if (!expect(&j, ']'))
        die("']' expected");
    free(text);
}

/* urltestdata.json: a host case of an object, or nothing. */
static void host_object(struct jobj *o)
{
    static size_t alloc;
    size_t hostlen = 0;
    char *host = o->input ? cut_host(o->input, o->inputlen, &hostlen) : NULL;

    free(o->output);
    if (host && (o->failure || o->hostname)) {
        if (ncases == alloc
            && !(cases = realloc(cases, (alloc = alloc ? 2 * alloc : 256) * sizeof *cases)))
            die("out of memory");
        cases[ncases].input = o->input;
        cases[ncases].host = host;
        cases[ncases].hostlen = hostlen;
        cases[ncases].hostname = o->failure ? NULL : o->hostname;
        ncases++;
        if (o->failure)
            free(o->hostname);
    } else {
        free(o->input);
        free(o->hostname);
        free(host);
    }
}

/*
 * toascii.json (web-platform-tests' url/resources/toascii.json, kept in
 * tests/codec/data/ since no Debian package ships it): objects with an
 * "input" and an "output", a string or null for a failure.  WPT runs them
 * through the URL parser's host (https://INPUT/x); so does this test, with
 * the host parser below.
 */
struct ascii_case {
    char *input;
    size_t len;
    char *output; /* NULL: a failure */
};

static struct ascii_case *acases;
static size_t nacases;

/* toascii.json: every object is a case. */
static void ascii_object(struct jobj *o)
{
    static size_t alloc;
    struct ascii_case c = {o->input, o->inputlen, o->output};

    free(o->hostname);
    if (!o->input || !o->has_output)
        die("toascii.json: an object without input or output");
    if (nacases == alloc
        && !(acases = realloc(acases, (alloc = alloc ? 2 * alloc : 64) * sizeof *acases)))
        die("out of memory");
    acases[nacases++] = c;
}

/* The host parser on a case's host: the result in out, or NULL for a
 * failure; *ipv4 when the IPv4 parser would take it. */
static const char *host_parse(const struct host_case *c, char *out, size_t cap, int *ipv4)
{
    size_t n = cap - 1, i;

    *ipv4 = 0;
    if (idng_to_ascii(c->host, c->hostlen, out, &n, IDNG_MODE_UTS46, WHATWG_FLAGS, NULL) != IDNG_OK)
        return NULL;
    out[n] = '\0';
    if (n == 0)
        return NULL;
    for (i = 0; i < n; i++)
        if (forbidden_domain((unsigned char)out[i]))
            return NULL;
    *ipv4 = ends_in_number(out, n);
    return out;
}

START_TEST(test_host)
{
    const struct host_case *c = &cases[_i];
    const char *reason = t_deviation_reason(deviations, c->input);
    char out[4 * IDNG_INPUT_MAX];
    int ipv4;
    const char *got = host_parse(c, out, sizeof out, &ipv4);
    int agree;

    if (ipv4)
        return; /* the IPv4 parser's case, not IDNA's */
    agree = c->hostname ? got && strcmp(got, c->hostname) == 0 : got == NULL;
    if (reason) {
        ck_assert_msg(!agree, "%s: listed as a deviation (%s) but agrees: update the list",
                      c->input, reason);
        return;
    }
    ck_assert_msg(agree, "%s: host '%s': want %s%s%s, got %s%s%s", c->input, c->host,
                  c->hostname ? "'" : "", c->hostname ? c->hostname : "failure",
                  c->hostname ? "'" : "", got ? "'" : "", got ? got : "failure", got ? "'" : "");
}
END_TEST

/*
 * toascii.json's deviations, by input, each with its reason; a listed case
 * must still deviate.
 */
static const struct t_deviation toascii_deviations[] = {
    {"1.\xd9\x8a",
     "the URL Standard lets an all-ASCII label that begins with a digit stand beside an RTL "
     "label (whatwg/url#543); UTS #46 15.0's CheckBidi applies RFC 5893 rule 1 to every label "
     "of a Bidi domain name, and IdnaTestV2.txt 15.0 marks such names [B1], as idnguard does"},
    {NULL, NULL},
};

/* One case of toascii.json: the host parser's result, or a failure.  A
 * result that ends in a number goes to the IPv4 parser, which fails on
 * every such name of this file (none is an address): a failure too. */
START_TEST(test_toascii)
{
    const struct ascii_case *c = &acases[_i];
    struct host_case h = {c->input, c->input, c->len, c->output};
    char out[4 * IDNG_INPUT_MAX];
    int ipv4, agree;
    const char *got = host_parse(&h, out, sizeof out, &ipv4),
               *reason = t_deviation_reason(toascii_deviations, c->input);

    if (ipv4)
        got = NULL;
    agree = c->output ? got && strcmp(got, c->output) == 0 : got == NULL;
    if (reason) {
        ck_assert_msg(!agree, "toascii.json '%s': listed as a deviation (%s) but agrees",
                      c->input, reason);
        return;
    }
    ck_assert_msg(agree, "toascii.json '%s': want %s, got %s", c->input,
                  c->output ? c->output : "failure", got ? got : "failure");
}
END_TEST

static Suite *whatwg_suite(void)
{
    Suite *s = suite_create("whatwg-url-hosts");
    TCase *tc = tcase_create("urltestdata");

    tcase_add_loop_test(tc, test_host, 0, (int)ncases);
    suite_add_tcase(s, tc);
    tc = tcase_create("toascii");
    tcase_add_loop_test(tc, test_toascii, 0, (int)nacases);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    const char *path = getenv("WHATWG_URLTESTDATA");
    size_t i, nfail = 0, ndev = 0, nipv4 = 0, nurl;

    const char *toascii = getenv("WHATWG_TOASCII");

    read_objects(path && path[0] ? path : "tests/codec/data/urltestdata.json",
                 "WHATWG_URLTESTDATA",
                 host_object);
    nurl = nobjects;
    read_objects(toascii && toascii[0] ? toascii : "tests/codec/data/toascii.json",
                 "WHATWG_TOASCII", ascii_object);
    if (ncases == 0)
        die("no host cases found");
    for (i = 0; i < ncases; i++) {
        char out[4 * IDNG_INPUT_MAX];
        int ipv4;
        nfail += cases[i].hostname == NULL;
        host_parse(&cases[i], out, sizeof out, &ipv4);
        nipv4 += ipv4;
    }
    for (i = 0; deviations[i].input; i++)
        ndev++;
    printf("urltestdata.json: %zu of its %zu cases are host cases (%zu expect failure), "
           "%zu of them left to the IPv4 parser; %zu listed deviations\n",
           ncases, nurl, nfail, nipv4, ndev);
    for (ndev = 0; toascii_deviations[ndev].input; ndev++)
        ;
    printf("toascii.json: %zu cases; %zu listed deviations\n", nacases, ndev);
    return t_run_suite(whatwg_suite());
}
