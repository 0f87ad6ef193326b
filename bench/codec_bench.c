/**
 * \file
 * Codec benchmark: idnguard's codec against ICU (UTS #46) and libidn2, in
 * one process, on the same inputs.
 *
 * Jobs:
 *  (a) validate an xn-- name and convert it to Unicode: idng_to_unicode
 *      (uts46), idng_name_check and idng_wire_check (the module judges the
 *      query name in wire form), ICU uidna_nameToUnicodeUTF8, libidn2
 *      idn2_to_unicode_8z8z (which only decodes: libidn2 2.3 checks nothing
 *      on this path) and idn2_lookup_u8 (which validates A-labels);
 *  (b) convert a Unicode name to ASCII: idng_to_ascii, ICU
 *      uidna_nameToASCII_UTF8, idn2_lookup_u8;
 *  (c) an ASCII-only name with no xn-- label: idng_name_check and
 *      idng_to_ascii, and the peers' to-ASCII.
 *
 * Input sets: RFC 3492's samples, six hand-picked names (hyphens at label
 * edges, sharp s, Persian, a symbol), every IDN entry of
 * the Public Suffix List (both forms; the A-label form computed once with
 * ICU), worst-case 63-octet labels built here ("worst-case") and those of
 * tests/codec/worst_case.h when it exists ("worst-tests"; built with
 * -DHAVE_WORST_CASE_H -Itests/codec), ASCII names (a fixed list, and every
 * ASCII entry of the Public Suffix List).  "harness" times the loop and the
 * indirect call alone.
 *
 * Each (set, job, library) is timed in BENCH_RUNS runs (default 15) of
 * enough iterations over the whole set to last about BENCH_RUN_MS (default
 * 8) milliseconds, the runs of the libraries interleaved; the median of the
 * runs, in ns per name, is reported.  Heap allocations are counted in a
 * separate pass by interposing malloc and friends in this binary.  Results
 * that disagree between libraries (accepted by one and rejected by the
 * other, or converted differently) are counted per set and listed.
 *
 * Usage: codec_bench [-o CSV] [-m MARKDOWN] [-d DISAGREEMENTS] [-p PSL] [-s DUMPDIR]
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "idnguard.h"

#ifdef HAVE_WORST_CASE_H
#include "worst_case.h" /* tests/codec/worst_case.h: the labels that maximise decoder work */
#endif

#include <idn2.h>
#include <unicode/uidna.h>
#include <unicode/uversion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))
#define OUT_MAX 2048

/* ------------------------------------------------------------------ */
/* Allocation counting: this binary's malloc family shadows libc's for
 * every library loaded into it (ICU, libidn2 and libc itself call
 * malloc through the PLT), and forwards to glibc's own entry points.    */

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

static unsigned long long n_allocs;
#define EXPORTED __attribute__((visibility("default")))

EXPORTED void *malloc(size_t n)
{
    n_allocs++;
    return __libc_malloc(n);
}

EXPORTED void *calloc(size_t a, size_t b)
{
    n_allocs++;
    return __libc_calloc(a, b);
}

EXPORTED void *realloc(void *p, size_t n)
{
    n_allocs++;
    return __libc_realloc(p, n);
}

EXPORTED void free(void *p)
{
    __libc_free(p);
}

EXPORTED void *memalign(size_t al, size_t n)
{
    n_allocs++;
    return __libc_memalign(al, n);
}

EXPORTED void *aligned_alloc(size_t al, size_t n)
{
    n_allocs++;
    return __libc_memalign(al, n);
}

EXPORTED int posix_memalign(void **p, size_t al, size_t n)
{
    void *q;
    n_allocs++;
    q = __libc_memalign(al, n);
    if (!q)
        return 12; /* ENOMEM */
    *p = q;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Input sets                                                           */

struct name {
    char *s;
    size_t len;
    uint8_t *wire; /* uncompressed wire form (labels split at '.'), or NULL */
    size_t wire_len;
};

struct set {
    const char *id;
    struct name *v;
    size_t n, cap;
};

static void set_add(struct set *st, const char *s, size_t len)
{
    if (st->n == st->cap) {
        st->cap = st->cap ? st->cap * 2 : 64;
        st->v = realloc(st->v, st->cap * sizeof *st->v);
        if (!st->v) {
            perror("realloc");
            exit(2);
        }
    }
    st->v[st->n].s = malloc(len + 1);
    if (!st->v[st->n].s) {
        perror("malloc");
        exit(2);
    }
    memcpy(st->v[st->n].s, s, len);
    st->v[st->n].s[len] = '\0';
    st->v[st->n].len = len;
    st->v[st->n].wire = NULL;
    st->v[st->n].wire_len = 0;
    {
        /* The wire form, as the module sees a query name. */
        uint8_t w[256];
        size_t i, start = 0, wl = 0;
        int okw = len > 0;
        for (i = 0; okw && i <= len; i++) {
            if (i < len && s[i] != '.')
                continue;
            if (i - start > 63 || (i == start && i != len) || wl + 1 + (i - start) > 255)
                okw = 0;
            else if (i > start) {
                w[wl++] = (uint8_t)(i - start);
                memcpy(w + wl, s + start, i - start);
                wl += i - start;
            }
            start = i + 1;
        }
        if (okw && wl < 255) {
            w[wl++] = 0;
            st->v[st->n].wire = malloc(wl);
            if (st->v[st->n].wire) {
                memcpy(st->v[st->n].wire, w, wl);
                st->v[st->n].wire_len = wl;
            }
        }
    }
    st->n++;
}

static size_t cps_to_utf8(const uint32_t *u, size_t n, char *out)
{
    size_t i, len = 0;
    for (i = 0; i < n; i++)
        len += idng_utf8_encode(u[i], (unsigned char *)out + len);
    out[len] = '\0';
    return len;
}

/* RFC 3492 section 7.1: the code points (as the RFC lists them, case
 * included) and the Punycode. */
struct rfc_sample {
    const char *id;
    uint32_t cp[48];
    const char *puny;
};

static const struct rfc_sample rfc_samples[] = {
    {"A", {0x0644, 0x064A, 0x0647, 0x0645, 0x0627, 0x0628, 0x062A, 0x0643, 0x0644, 0x0645,
           0x0648, 0x0634, 0x0639, 0x0631, 0x0628, 0x064A, 0x061F},
     "egbpdaj6bu4bxfgehfvwxn"},
    {"B", {0x4ED6, 0x4EEC, 0x4E3A, 0x4EC0, 0x4E48, 0x4E0D, 0x8BF4, 0x4E2D, 0x6587},
     "ihqwcrb4cv8a8dqg056pqjye"},
    {"C", {0x4ED6, 0x5011, 0x7232, 0x4EC0, 0x9EBD, 0x4E0D, 0x8AAA, 0x4E2D, 0x6587},
     "ihqwctvzc91f659drss3x8bo0yb"},
    {"D", {0x0050, 0x0072, 0x006F, 0x010D, 0x0070, 0x0072, 0x006F, 0x0073, 0x0074, 0x011B,
           0x006E, 0x0065, 0x006D, 0x006C, 0x0075, 0x0076, 0x00ED, 0x010D, 0x0065, 0x0073,
           0x006B, 0x0079},
     "Proprostnemluvesky-uyb24dma41a"},
    {"E", {0x05DC, 0x05DE, 0x05D4, 0x05D4, 0x05DD, 0x05E4, 0x05E9, 0x05D5, 0x05D8, 0x05DC,
           0x05D0, 0x05DE, 0x05D3, 0x05D1, 0x05E8, 0x05D9, 0x05DD, 0x05E2, 0x05D1, 0x05E8,
           0x05D9, 0x05EA},
     "4dbcagdahymbxekheh6e0a7fei0b"},
    {"F", {0x092F, 0x0939, 0x0932, 0x094B, 0x0917, 0x0939, 0x093F, 0x0928, 0x094D, 0x0926,
           0x0940, 0x0915, 0x094D, 0x092F, 0x094B, 0x0902, 0x0928, 0x0939, 0x0940, 0x0902,
           0x092C, 0x094B, 0x0932, 0x0938, 0x0915, 0x0924, 0x0947, 0x0939, 0x0948, 0x0902},
     "i1baa7eci9glrd9b2ae1bj0hfcgg6iyaf8o0a1dig0cd"},
    {"G", {0x306A, 0x305C, 0x307F, 0x3093, 0x306A, 0x65E5, 0x672C, 0x8A9E, 0x3092, 0x8A71,
           0x3057, 0x3066, 0x304F, 0x308C, 0x306A, 0x3044, 0x306E, 0x304B},
     "n8jok5ay5dzabd5bym9f0cm5685rrjetr6pdxa"},
    {"H", {0xC138, 0xACC4, 0xC758, 0xBAA8, 0xB4E0, 0xC0AC, 0xB78C, 0xB4E4, 0xC774, 0xD55C,
           0xAD6D, 0xC5B4, 0xB97C, 0xC774, 0xD574, 0xD55C, 0xB2E4, 0xBA74, 0xC5BC, 0xB9C8,
           0xB098, 0xC88B, 0xC744, 0xAE4C},
     "989aomsvi5e83db1d2a355cv1e0vak1dwrv93d5xbh15a0dt30a5jpsd879ccm6fea98c"},
    {"I", {0x043F, 0x043E, 0x0447, 0x0435, 0x043C, 0x0443, 0x0436, 0x0435, 0x043E, 0x043D,
           0x0438, 0x043D, 0x0435, 0x0433, 0x043E, 0x0432, 0x043E, 0x0440, 0x044F, 0x0442,
           0x043F, 0x043E, 0x0440, 0x0443, 0x0441, 0x0441, 0x043A, 0x0438},
     "b1abfaaepdrnnbgefbaDotcwatmq2g4l"},
    {"J", {0x0050, 0x006F, 0x0072, 0x0071, 0x0075, 0x00E9, 0x006E, 0x006F, 0x0070, 0x0075,
           0x0065, 0x0064, 0x0065, 0x006E, 0x0073, 0x0069, 0x006D, 0x0070, 0x006C, 0x0065,
           0x006D, 0x0065, 0x006E, 0x0074, 0x0065, 0x0068, 0x0061, 0x0062, 0x006C, 0x0061,
           0x0072, 0x0065, 0x006E, 0x0045, 0x0073, 0x0070, 0x0061, 0x00F1, 0x006F, 0x006C},
     "PorqunopuedensimplementehablarenEspaol-fmd56a"},
    {"K", {0x0054, 0x1EA1, 0x0069, 0x0073, 0x0061, 0x006F, 0x0068, 0x1ECD, 0x006B, 0x0068,
           0x00F4, 0x006E, 0x0067, 0x0074, 0x0068, 0x1EC3, 0x0063, 0x0068, 0x1EC9, 0x006E,
           0x00F3, 0x0069, 0x0074, 0x0069, 0x1EBF, 0x006E, 0x0067, 0x0056, 0x0069, 0x1EC7,
           0x0074},
     "TisaohkhngthchnitingVit-kjcr8268qyxafd2f1b9g"},
    {"L", {0x0033, 0x5E74, 0x0042, 0x7D44, 0x91D1, 0x516B, 0x5148, 0x751F},
     "3B-ww4c5e180e575a65lsy2b"},
    {"M", {0x5B89, 0x5BA4, 0x5948, 0x7F8E, 0x6075, 0x002D, 0x0077, 0x0069, 0x0074, 0x0068,
           0x002D, 0x0053, 0x0055, 0x0050, 0x0045, 0x0052, 0x002D, 0x004D, 0x004F, 0x004E,
           0x004B, 0x0045, 0x0059, 0x0053},
     "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"},
    {"N", {0x0048, 0x0065, 0x006C, 0x006C, 0x006F, 0x002D, 0x0041, 0x006E, 0x006F, 0x0074,
           0x0068, 0x0065, 0x0072, 0x002D, 0x0057, 0x0061, 0x0079, 0x002D, 0x305D, 0x308C,
           0x305E, 0x308C, 0x306E, 0x5834, 0x6240},
     "Hello-Another-Way--fc4qua05auwb3674vfr0b"},
    {"O", {0x3072, 0x3068, 0x3064, 0x5C4B, 0x6839, 0x306E, 0x4E0B, 0x0032},
     "2-u9tlzr9756bt3uc0v"},
    {"P", {0x004D, 0x0061, 0x006A, 0x0069, 0x3067, 0x004B, 0x006F, 0x0069, 0x3059, 0x308B,
           0x0035, 0x79D2, 0x524D},
     "MajiKoi5-783gue6qz075azm5e"},
    {"Q", {0x30D1, 0x30D5, 0x30A3, 0x30FC, 0x0064, 0x0065, 0x30EB, 0x30F3, 0x30D0},
     "de-jg4avhby1noc0d"},
    {"R", {0x305D, 0x306E, 0x30B9, 0x30D4, 0x30FC, 0x30C9, 0x3067}, "d9juau41awczczp"},
    {"S", {0x002D, 0x003E, 0x0020, 0x0024, 0x0031, 0x002E, 0x0030, 0x0030, 0x0020, 0x003C,
           0x002D},
     "-> $1.00 <--"},
};

static size_t cp_count(const uint32_t *cp, size_t max)
{
    size_t n = 0;
    while (n < max && cp[n])
        n++;
    return n;
}

static void build_rfc(struct set *ace, struct set *uni)
{
    size_t i, j;
    char buf[512];
    for (i = 0; i < N_ELEMS(rfc_samples); i++) {
        const struct rfc_sample *r = &rfc_samples[i];
        size_t n = cp_count(r->cp, N_ELEMS(r->cp)), len;
        len = cps_to_utf8(r->cp, n, buf);
        set_add(uni, buf, len);
        len = (size_t)snprintf(buf, sizeof buf, "xn--%s", r->puny);
        for (j = 0; j < len; j++)
            if (buf[j] >= 'A' && buf[j] <= 'Z')
                buf[j] = (char)(buf[j] + 32);
        set_add(ace, buf, len);
    }
}

/* Hyphens at label edges, sharp s (deviation), Persian, a symbol. */
static const char *const six_names[] = {
    "-x.xn--zca", "xn--zca.xn--zca", "xn--mgba3gch31f060k", "xn--1ch", "x-.\xc3\x9f",
    "me\303\237agefactory.ca",
};

/* ASCII names with no xn-- label, as a resolver sees them. */
static const char *const ascii_names[] = {
    "www.example.com",         "example.org",      "mail.google.com",
    "_dmarc.example.org",      "ns1.example.net.", "a.root-servers.net.",
    "r3---sn-abc.googlevideo.com", "WWW.Example.COM", "localhost",
    "api.github.com",          "cdn.jsdelivr.net", "_443._tcp.mail.example.de",
    "a--b.example",            "-x.example",       "s3.eu-west-1.amazonaws.com",
    "1.0.168.192.in-addr.arpa.", "www.bbc.co.uk",  "login.microsoftonline.com",
    "time.cloudflare.com",     "de",
};

static UIDNA *icu;

static int icu_to_ascii(const char *s, size_t len, char *out, size_t cap)
{
    UIDNAInfo info = UIDNA_INFO_INITIALIZER;
    UErrorCode e = U_ZERO_ERROR;
    int32_t n = uidna_nameToASCII_UTF8(icu, s, (int32_t)len, out, (int32_t)cap - 1, &info, &e);
    if (U_FAILURE(e) || info.errors != 0 || n < 0 || (size_t)n >= cap)
        return -1;
    out[n] = '\0';
    return n;
}

/* Every IDN entry of the Public Suffix List, in both forms. */
static void build_psl(const char *path, struct set *ace, struct set *uni, struct set *asc,
                      size_t *skipped)
{
    FILE *f = fopen(path, "r");
    char line[1024], out[OUT_MAX];
    *skipped = 0;
    if (!f) {
        perror(path);
        exit(2);
    }
    while (fgets(line, sizeof line, f)) {
        char *p = line;
        size_t len = 0, j;
        int hi = 0, n;
        if (p[0] == '/' && p[1] == '/')
            continue;
        while (p[len] && p[len] != ' ' && p[len] != '\t' && p[len] != '\n' && p[len] != '\r')
            len++;
        if (len == 0)
            continue;
        if (*p == '!')
            p++, len--;
        while (len >= 2 && p[0] == '*' && p[1] == '.')
            p += 2, len -= 2;
        if (len == 0)
            continue;
        for (j = 0; j < len; j++)
            hi |= (unsigned char)p[j] >= 0x80;
        if (!hi) {
            set_add(asc, p, len);
            continue;
        }
        n = icu_to_ascii(p, len, out, sizeof out);
        if (n < 0) {
            (*skipped)++;
            continue;
        }
        set_add(uni, p, len);
        set_add(ace, out, (size_t)n);
    }
    fclose(f);
}

/* Worst cases: 63-octet A-labels that keep the decoder, the round-trip
 * encoder and the checks busy, each valid under uts46. */
struct wc_family {
    const char *id;
    int kind;
};

static int wc_next(int kind, size_t k, uint32_t *cp, size_t *m)
{
    /* Writes the next code points of the family into cp; returns their count. */
    switch (kind) {
    case 0: /* consecutive CJK: the most distinct code points */
        cp[0] = 0x4E00 + (uint32_t)k;
        *m = 1;
        return 1;
    case 1: /* CJK in descending order, far apart: large deltas */
        cp[0] = 0x9FA0 - (uint32_t)k * 397;
        *m = 1;
        return 1;
    case 2: /* CJK Extension B, spread out: 4-octet UTF-8, the largest deltas */
        cp[0] = 0x2A6D0 - (uint32_t)k * 2311;
        *m = 1;
        return 1;
    case 3: /* letter + combining acute that does not compose: NFC_QC Maybe */
        cp[0] = (k & 1) ? 0x0301 : 0x0078;
        *m = 1;
        return 1;
    case 4: { /* dual-joining Arabic letters and ZWNJ: CONTEXTJ and bidi on every other */
        static const uint32_t dual[] = {0x0628, 0x062A, 0x062B, 0x062C, 0x062D, 0x062E,
                                        0x0633, 0x0634, 0x0635, 0x0636, 0x0637, 0x0638,
                                        0x0639, 0x063A, 0x0641, 0x0642, 0x0643, 0x0644,
                                        0x0645, 0x0646, 0x0647, 0x064A};
        cp[0] = (k & 1) ? 0x200C : dual[(k / 2 * 7) % N_ELEMS(dual)];
        *m = 1;
        return 1;
    }
    case 5: /* emoji, spread out */
        cp[0] = 0x1F600 + (uint32_t)((k * 37) % 80);
        *m = 1;
        return 1;
    case 6: /* Hangul syllables, spread: NFC decomposition data */
        cp[0] = 0xD7A0 - (uint32_t)k * 811;
        *m = 1;
        return 1;
    }
    return 0;
}

static const struct wc_family wc_families[] = {
    {"cjk-run", 0}, {"cjk-desc", 1}, {"cjk-extb", 2}, {"nfc-maybe", 3},
    {"arabic-zwnj", 4}, {"emoji", 5}, {"hangul", 6},
};

static void build_worst(struct set *ace, struct set *uni)
{
    size_t f;
    for (f = 0; f < N_ELEMS(wc_families); f++) {
        uint32_t u[128];
        char a[256], buf[1024];
        size_t n = 0, k, best = 0, len;
        for (k = 0; n < 100; k++) {
            size_t m, alen = sizeof a;
            wc_next(wc_families[f].kind, k, u + n, &m);
            /* no duplicates in the spread families */
            n += m;
            if (idng_punycode_encode(u, n, NULL, a, &alen) != IDNG_OK || alen > IDNG_LABEL_MAX - 4) {
                n -= m;
                break;
            }
        }
        /* Trim to the longest prefix that is a valid uts46 label. */
        for (k = n; k > 0; k--) {
            size_t alen = sizeof a - 4;
            memcpy(a, "xn--", 4);
            if (idng_punycode_encode(u, k, NULL, a + 4, &alen) != IDNG_OK)
                continue;
            if (idng_label_check(a, alen + 4, IDNG_MODE_UTS46, NULL) == IDNG_OK) {
                best = k;
                set_add(ace, a, alen + 4);
                break;
            }
        }
        if (best == 0) {
            fprintf(stderr, "codec_bench: worst case %s: no valid prefix\n", wc_families[f].id);
            continue;
        }
        len = cps_to_utf8(u, best, buf);
        set_add(uni, buf, len);
    }
}

/* The tests' worst cases (tests/codec/worst_case.h), each 63-octet label
 * as a name, and its U-label where it decodes (punycode mode: the label
 * itself may be invalid on purpose). */
static void build_worst_tests(struct set *ace, struct set *uni)
{
#ifdef HAVE_WORST_CASE_H
    size_t i;
    for (i = 0; i < sizeof idng_worst_labels / sizeof idng_worst_labels[0]; i++) {
        const char *l = idng_worst_labels[i].label;
        char buf[1024];
        size_t n = sizeof buf;
        set_add(ace, l, strlen(l));
        if (idng_to_unicode(l, strlen(l), buf, &n, IDNG_MODE_PUNYCODE, 0, NULL) == IDNG_OK)
            set_add(uni, buf, n);
    }
#else
    (void)ace;
    (void)uni;
#endif
}

/* ------------------------------------------------------------------ */
/* The operations                                                        */

/* Each returns 1 when the name is accepted, 0 when rejected; the output,
 * when there is one, goes to out (NUL-terminated). */
typedef int (*op_fn)(const struct name *nm, char *out);

static int op_idng_to_unicode(const struct name *nm, char *out)
{
    size_t olen = OUT_MAX;
    return idng_to_unicode(nm->s, nm->len, out, &olen, IDNG_MODE_UTS46, 0, NULL) == IDNG_OK;
}

static int op_idng_to_ascii(const struct name *nm, char *out)
{
    size_t olen = OUT_MAX;
    return idng_to_ascii(nm->s, nm->len, out, &olen, IDNG_MODE_UTS46, 0, NULL) == IDNG_OK;
}

static int op_idng_name_check(const struct name *nm, char *out)
{
    out[0] = '\0';
    return idng_name_check(nm->s, nm->len, IDNG_MODE_UTS46, NULL) == IDNG_OK;
}

static int op_idng_wire_check(const struct name *nm, char *out)
{
    out[0] = '\0';
    if (!nm->wire)
        return 0;
    return idng_wire_check(nm->wire, nm->wire_len, IDNG_MODE_UTS46, NULL) == IDNG_OK;
}

static int op_icu_to_unicode(const struct name *nm, char *out)
{
    UIDNAInfo info = UIDNA_INFO_INITIALIZER;
    UErrorCode e = U_ZERO_ERROR;
    int32_t n = uidna_nameToUnicodeUTF8(icu, nm->s, (int32_t)nm->len, out, OUT_MAX - 1, &info, &e);
    if (U_FAILURE(e) || n < 0) {
        out[0] = '\0';
        return 0;
    }
    out[n] = '\0';
    return info.errors == 0;
}

static int op_icu_to_ascii(const struct name *nm, char *out)
{
    UIDNAInfo info = UIDNA_INFO_INITIALIZER;
    UErrorCode e = U_ZERO_ERROR;
    int32_t n = uidna_nameToASCII_UTF8(icu, nm->s, (int32_t)nm->len, out, OUT_MAX - 1, &info, &e);
    if (U_FAILURE(e) || n < 0) {
        out[0] = '\0';
        return 0;
    }
    out[n] = '\0';
    return info.errors == 0;
}

#define IDN2_FLAGS (IDN2_NONTRANSITIONAL | IDN2_USE_STD3_ASCII_RULES)

static int op_idn2_lookup(const struct name *nm, char *out)
{
    uint8_t *r = NULL;
    int rc = idn2_lookup_u8((const uint8_t *)nm->s, &r, IDN2_FLAGS);
    out[0] = '\0';
    if (rc == IDN2_OK && r) {
        size_t n = strlen((char *)r);
        if (n < OUT_MAX)
            memcpy(out, r, n + 1);
    }
    idn2_free(r);
    return rc == IDN2_OK;
}

static int op_idn2_to_unicode(const struct name *nm, char *out)
{
    char *r = NULL;
    int rc = idn2_to_unicode_8z8z(nm->s, &r, 0);
    out[0] = '\0';
    if (rc == IDN2_OK && r) {
        size_t n = strlen(r);
        if (n < OUT_MAX)
            memcpy(out, r, n + 1);
    }
    idn2_free(r);
    return rc == IDN2_OK;
}

/* The harness alone: the indirect call and the loop, for reference. */
static int op_noop(const struct name *nm, char *out)
{
    out[0] = '\0';
    return nm->len != 0;
}

struct lib {
    const char *id;   /* column name */
    const char *call; /* what it calls */
    op_fn fn;
    int compare;      /* 0: reference; 1: compare accept and output; 2: accept only;
                         3: not compared */
};

enum { JOB_UNICODE, JOB_ASCII, JOB_PLAIN };

static const struct lib job_libs[3][8] = {
    [JOB_UNICODE] = {
        {"idnguard", "idng_to_unicode", op_idng_to_unicode, 0},
        {"idnguard-check", "idng_name_check", op_idng_name_check, 2},
        {"idnguard-wire", "idng_wire_check", op_idng_wire_check, 2},
        {"icu", "uidna_nameToUnicodeUTF8", op_icu_to_unicode, 1},
        {"libidn2", "idn2_to_unicode_8z8z", op_idn2_to_unicode, 1},
        {"libidn2-lookup", "idn2_lookup_u8", op_idn2_lookup, 2},
        {NULL, NULL, NULL, 0}},
    [JOB_ASCII] = {
        {"idnguard", "idng_to_ascii", op_idng_to_ascii, 0},
        {"icu", "uidna_nameToASCII_UTF8", op_icu_to_ascii, 1},
        {"libidn2", "idn2_lookup_u8", op_idn2_lookup, 1},
        {NULL, NULL, NULL, 0}},
    [JOB_PLAIN] = {
        {"idnguard-check", "idng_name_check", op_idng_name_check, 2},
        {"idnguard-wire", "idng_wire_check", op_idng_wire_check, 2},
        {"idnguard", "idng_to_ascii", op_idng_to_ascii, 0},
        {"icu", "uidna_nameToASCII_UTF8", op_icu_to_ascii, 1},
        {"libidn2", "idn2_lookup_u8", op_idn2_lookup, 1},
        {"harness", "(no call: loop and indirect call only)", op_noop, 3},
        {NULL, NULL, NULL, 0}},
};

static const char *const job_names[3] = {"a:to-unicode", "b:to-ascii", "c:ascii-name"};

/* ------------------------------------------------------------------ */
/* Timing                                                                */

static volatile unsigned long long sink;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* One run: iters passes over the set; returns ns per name. */
static double run_once(op_fn fn, const struct set *st, unsigned long iters)
{
    static char out[OUT_MAX];
    unsigned long long acc = 0;
    unsigned long it;
    size_t i;
    double t0 = now_ns(), t1;
    for (it = 0; it < iters; it++)
        for (i = 0; i < st->n; i++)
            acc += (unsigned)fn(&st->v[i], out);
    t1 = now_ns();
    sink += acc;
    return (t1 - t0) / ((double)iters * (double)st->n);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int runs = 15;

/* -s DIR: writes each input set to DIR/<set>-<form>.txt, one name a line,
 * for profiling the codec on the same inputs (valgrind --tool=callgrind). */
static void dump_set(const char *dir, const struct set *st, const char *form)
{
    char path[512];
    FILE *f;
    size_t i;
    snprintf(path, sizeof path, "%s/%s-%s.txt", dir, st->id, form);
    if (!(f = fopen(path, "w"))) {
        perror(path);
        exit(2);
    }
    for (i = 0; i < st->n; i++)
        fprintf(f, "%s\n", st->v[i].s);
    fclose(f);
}
static const char *filter; /* BENCH_FILTER: only sets whose "set job" contains it */
static double run_ms = 8.0;

struct result {
    const char *set, *job, *lib, *call;
    size_t names;
    double ns, ns_min, ns_max;
    double allocs;
    size_t accepted, disagree;
};

static struct result results[256];
static size_t nresults;
static FILE *dis_out;

static void loadavg(char *buf, size_t cap)
{
    FILE *f = fopen("/proc/loadavg", "r");
    buf[0] = '\0';
    if (f) {
        if (fgets(buf, (int)cap, f)) {
            char *sp = buf;
            int k = 0;
            while (*sp && k < 3)
                if (*sp++ == ' ')
                    k++;
            if (k == 3)
                sp[-1] = '\0';
        }
        fclose(f);
    }
}

static int utf8_valid(const char *s)
{
    size_t len = strlen(s), pos = 0;
    uint32_t cp;
    while (pos < len) {
        size_t m = idng_utf8_decode((const unsigned char *)s + pos, len - pos, &cp);
        if (!m)
            return 0;
        pos += m;
    }
    return 1;
}

static void show(FILE *f, const char *s)
{
    if (utf8_valid(s))
        fputs(s, f);
    else
        fputs("(invalid UTF-8)", f);
}

static void bench_set(const struct set *st, int job)
{
    const struct lib *libs = job_libs[job];
    size_t nl = 0, l, i;
    unsigned long iters[8];
    double samples[8][64];
    static char ref[OUT_MAX], out[OUT_MAX];
    size_t first = nresults;
    int r;

    if (st->n == 0)
        return;
    while (libs[nl].id)
        nl++;
    if (filter) {
        char key[128];
        snprintf(key, sizeof key, "%s %s", st->id, job_names[job]);
        if (!strstr(key, filter))
            return;
    }

    /* Agreement, acceptance and allocations: one pass each. */
    for (l = 0; l < nl; l++) {
        struct result *res = &results[nresults++];
        unsigned long long before;
        memset(res, 0, sizeof *res);
        res->set = st->id;
        res->job = job_names[job];
        res->lib = libs[l].id;
        res->call = libs[l].call;
        res->names = st->n;
        for (i = 0; i < st->n; i++) {
            int ra, rb;
            before = n_allocs;
            rb = libs[l].fn(&st->v[i], out);
            res->allocs += (double)(n_allocs - before);
            res->accepted += (size_t)rb;
            if (libs[l].compare == 0 || libs[l].compare == 3)
                continue;
            /* The reference is the idnguard conversion of this job. */
            {
                size_t k;
                for (k = 0; k < nl && libs[k].compare != 0; k++)
                    ;
                ra = libs[k].fn(&st->v[i], ref);
            }
            if (ra != rb || (libs[l].compare == 1 && ra && rb && strcmp(ref, out) != 0)) {
                res->disagree++;
                if (dis_out) {
                    fprintf(dis_out, "%s\t%s\t%s\t", st->id, job_names[job], libs[l].id);
                    show(dis_out, st->v[i].s);
                    fprintf(dis_out, "\tidnguard: %s", ra ? "accepts" : "rejects");
                    if (ra && libs[l].compare == 1) {
                        fputs(" -> ", dis_out);
                        show(dis_out, ref);
                    }
                    fprintf(dis_out, "\t%s: %s", libs[l].id, rb ? "accepts" : "rejects");
                    if (rb && libs[l].compare == 1) {
                        fputs(" -> ", dis_out);
                        show(dis_out, out);
                    }
                    fputc('\n', dis_out);
                }
            }
        }
        res->allocs /= (double)st->n;
    }

    /* Calibration: iterations for about run_ms per run. */
    for (l = 0; l < nl; l++) {
        double ns = run_once(libs[l].fn, st, 1) * (double)st->n;
        unsigned long it = 1;
        ns = run_once(libs[l].fn, st, 1) * (double)st->n; /* warm */
        if (ns > 0)
            it = (unsigned long)(run_ms * 1e6 / ns);
        iters[l] = it ? it : 1;
    }
    for (r = 0; r < runs; r++)
        for (l = 0; l < nl; l++)
            samples[l][r] = run_once(libs[l].fn, st, iters[l]);
    for (l = 0; l < nl; l++) {
        struct result *res = &results[first + l];
        qsort(samples[l], (size_t)runs, sizeof samples[l][0], cmp_double);
        res->ns = runs % 2 ? samples[l][runs / 2]
                           : (samples[l][runs / 2 - 1] + samples[l][runs / 2]) / 2;
        res->ns_min = samples[l][0];
        res->ns_max = samples[l][runs - 1];
    }
}

static const struct result *find(const char *set, const char *job, const char *lib)
{
    size_t i;
    for (i = 0; i < nresults; i++)
        if (!strcmp(results[i].set, set) && !strcmp(results[i].job, job)
            && !strcmp(results[i].lib, lib))
            return &results[i];
    return NULL;
}

static void ratio_cell(FILE *f, const struct result *a, const struct result *b)
{
    if (!a || !b || b->ns <= 0)
        fputs(" - |", f);
    else if (a->ns <= b->ns)
        fprintf(f, " %.3f (%.1fx faster) |", a->ns / b->ns, b->ns / a->ns);
    else
        fprintf(f, " %.3f (%.1fx slower) |", a->ns / b->ns, a->ns / b->ns);
}

int main(int argc, char **argv)
{
    const char *csv_path = NULL, *md_path = NULL, *dis_path = NULL, *dump_dir = NULL;
    const char *psl = "/usr/share/publicsuffix/public_suffix_list.dat";
    struct set rfc_ace = {"rfc3492", 0, 0, 0}, rfc_uni = {"rfc3492", 0, 0, 0};
    struct set six = {"six", 0, 0, 0};
    struct set psl_ace = {"psl-idn", 0, 0, 0}, psl_uni = {"psl-idn", 0, 0, 0};
    struct set psl_asc = {"psl-ascii", 0, 0, 0};
    struct set wc_ace = {"worst-case", 0, 0, 0}, wc_uni = {"worst-case", 0, 0, 0};
    struct set wt_ace = {"worst-tests", 0, 0, 0}, wt_uni = {"worst-tests", 0, 0, 0};
    struct set asc = {"ascii", 0, 0, 0};
    const struct set *unicode_sets[5], *ascii_sets[5], *plain_sets[2];
    UErrorCode e = U_ZERO_ERROR;
    size_t skipped, i;
    int c;
    FILE *f;
    char icu_ver[U_MAX_VERSION_STRING_LENGTH], load_start[64], load_end[64];
    UVersionInfo uv;

    while ((c = getopt(argc, argv, "o:m:d:p:s:")) != -1) {
        switch (c) {
        case 'o': csv_path = optarg; break;
        case 'm': md_path = optarg; break;
        case 'd': dis_path = optarg; break;
        case 'p': psl = optarg; break;
        case 's': dump_dir = optarg; break;
        default:
            fprintf(stderr, "usage: codec_bench [-o CSV] [-m MD] [-d DISAGREEMENTS] [-p PSL] [-s DUMPDIR]\n");
            return 2;
        }
    }
    if (getenv("BENCH_RUNS"))
        runs = atoi(getenv("BENCH_RUNS"));
    if (runs < 1 || runs > 64)
        runs = 15;
    filter = getenv("BENCH_FILTER");
    if (getenv("BENCH_RUN_MS"))
        run_ms = atof(getenv("BENCH_RUN_MS"));
    if (run_ms <= 0)
        run_ms = 8.0;

    icu = uidna_openUTS46(UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_NONTRANSITIONAL_TO_UNICODE
                              | UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ | UIDNA_CHECK_CONTEXTO
                              | UIDNA_USE_STD3_RULES,
                          &e);
    if (U_FAILURE(e)) {
        fprintf(stderr, "codec_bench: uidna_openUTS46: %s\n", u_errorName(e));
        return 2;
    }
    u_getVersion(uv);
    u_versionToString(uv, icu_ver);

    build_rfc(&rfc_ace, &rfc_uni);
    for (i = 0; i < N_ELEMS(six_names); i++)
        set_add(&six, six_names[i], strlen(six_names[i]));
    build_psl(psl, &psl_ace, &psl_uni, &psl_asc, &skipped);
    build_worst(&wc_ace, &wc_uni);
    build_worst_tests(&wt_ace, &wt_uni);
    for (i = 0; i < N_ELEMS(ascii_names); i++)
        set_add(&asc, ascii_names[i], strlen(ascii_names[i]));

    if (dump_dir) {
        dump_set(dump_dir, &rfc_ace, "ace");
        dump_set(dump_dir, &rfc_uni, "unicode");
        dump_set(dump_dir, &six, "mixed");
        dump_set(dump_dir, &psl_ace, "ace");
        dump_set(dump_dir, &psl_uni, "unicode");
        dump_set(dump_dir, &wc_ace, "ace");
        dump_set(dump_dir, &wc_uni, "unicode");
        dump_set(dump_dir, &wt_ace, "ace");
        dump_set(dump_dir, &wt_uni, "unicode");
        dump_set(dump_dir, &asc, "ascii");
        dump_set(dump_dir, &psl_asc, "ascii");
        return 0;
    }
    if (dis_path && !(dis_out = fopen(dis_path, "w"))) {
        perror(dis_path);
        return 2;
    }
    if (dis_out)
        fprintf(dis_out, "# set\tjob\tlibrary\tinput\tidnguard\tpeer\n");

    printf("codec_bench: ICU %s, libidn2 %s, idnguard (Unicode %s); %d runs of ~%.0f ms\n",
           icu_ver, idn2_check_version(NULL), IDNG_UNICODE_VERSION, runs, run_ms);
    printf("sets: rfc3492 %zu, six %zu, psl-idn %zu (%zu PSL IDN entries ICU rejects, left out), "
           "worst-case %zu, worst-tests %zu (tests/codec/worst_case.h), ascii %zu, psl-ascii %zu\n",
           rfc_ace.n, six.n, psl_ace.n, skipped, wc_ace.n, wt_ace.n, asc.n, psl_asc.n);
    for (i = 0; i < wc_ace.n; i++)
        printf("  worst case %s: %s (%zu octets)\n", wc_families[i < N_ELEMS(wc_families) ? i : 0].id,
               wc_ace.v[i].s, wc_ace.v[i].len);
    fflush(stdout);

    unicode_sets[0] = &rfc_ace;
    unicode_sets[1] = &six;
    unicode_sets[2] = &psl_ace;
    unicode_sets[3] = &wc_ace;
    unicode_sets[4] = &wt_ace;
    ascii_sets[0] = &rfc_uni;
    ascii_sets[1] = &six;
    ascii_sets[2] = &psl_uni;
    ascii_sets[3] = &wc_uni;
    ascii_sets[4] = &wt_uni;
    plain_sets[0] = &asc;
    plain_sets[1] = &psl_asc;
    loadavg(load_start, sizeof load_start);
    for (i = 0; i < 5; i++)
        bench_set(unicode_sets[i], JOB_UNICODE);
    for (i = 0; i < 5; i++)
        bench_set(ascii_sets[i], JOB_ASCII);
    for (i = 0; i < 2; i++)
        bench_set(plain_sets[i], JOB_PLAIN);
    if (dis_out)
        fclose(dis_out);
    loadavg(load_end, sizeof load_end);

    /* Console. */
    printf("\n%-12s %-14s %-15s %6s %10s %10s %10s %8s %8s %9s\n", "set", "job", "library",
           "names", "ns/name", "min", "max", "allocs", "accepted", "disagree");
    for (i = 0; i < nresults; i++) {
        const struct result *r = &results[i];
        printf("%-12s %-14s %-15s %6zu %10.1f %10.1f %10.1f %8.2f %8zu %9zu\n", r->set, r->job,
               r->lib, r->names, r->ns, r->ns_min, r->ns_max, r->allocs, r->accepted, r->disagree);
    }

    if (csv_path) {
        if (!(f = fopen(csv_path, "w"))) {
            perror(csv_path);
            return 2;
        }
        fprintf(f, "set,job,library,call,names,ns_per_name_median,ns_min,ns_max,allocs_per_call,"
                   "accepted,disagreements_vs_idnguard\n");
        for (i = 0; i < nresults; i++) {
            const struct result *r = &results[i];
            fprintf(f, "%s,%s,%s,%s,%zu,%.2f,%.2f,%.2f,%.3f,%zu,%zu\n", r->set, r->job, r->lib,
                    r->call, r->names, r->ns, r->ns_min, r->ns_max, r->allocs, r->accepted,
                    r->disagree);
        }
        fclose(f);
    }

    f = md_path ? fopen(md_path, "w") : stdout;
    if (!f) {
        perror(md_path);
        return 2;
    }
    if (!md_path)
        fputc('\n', f);
    fprintf(f, "Median ns per name over %d runs (about %.0f ms each); allocations per call; "
               "ratio < 1: idnguard is faster. \"disagree\": names whose verdict (or output) "
               "differs from idnguard's (listed in disagreements.tsv).\n\n",
            runs, run_ms);
    fprintf(f, "ICU %s, libidn2 %s. Load average at start: %s; at end: %s. \"harness\" "
               "(loop and indirect call, no library call) on the ascii set: %.1f ns, included in "
               "every figure.\n\n",
            icu_ver, idn2_check_version(NULL), load_start, load_end,
            find("ascii", job_names[JOB_PLAIN], "harness") ? find("ascii", job_names[JOB_PLAIN], "harness")->ns : 0.0);
    fprintf(f, "| set | job | names | idnguard ns | check ns | ICU ns | libidn2 ns | "
               "idnguard/ICU | idnguard/libidn2 | check/ICU | check/libidn2 (lookup) | "
               "allocs idng / ICU / idn2 | disagree ICU / idn2 |\n");
    fprintf(f, "|---|---|---:|---:|---:|---:|---:|---|---|---|---|---|---|\n");
    for (i = 0; i < nresults; i++) {
        const struct result *r = &results[i], *g, *ch, *ic, *id, *lk;
        if (strcmp(r->lib, "icu") != 0)
            continue;
        g = find(r->set, r->job, "idnguard");
        ch = find(r->set, r->job, "idnguard-check");
        ic = r;
        id = find(r->set, r->job, "libidn2");
        lk = find(r->set, r->job, "libidn2-lookup");
        fprintf(f, "| %s | %s | %zu | %.1f | ", r->set, r->job, r->names, g ? g->ns : 0);
        if (ch)
            fprintf(f, "%.1f |", ch->ns);
        else
            fputs("- |", f);
        fprintf(f, " %.1f | %.1f", ic->ns, id ? id->ns : 0);
        if (lk)
            fprintf(f, " (lookup %.1f)", lk->ns);
        fputs(" |", f);
        ratio_cell(f, g, ic);
        ratio_cell(f, g, id);
        ratio_cell(f, ch, ic);
        ratio_cell(f, ch, lk ? lk : id);
        fprintf(f, " %.2f / %.2f / %.2f | %zu / %zu%s |\n", g ? g->allocs : 0, ic->allocs,
                id ? id->allocs : 0, ic->disagree, id ? id->disagree : 0,
                lk ? "" : "");
    }
    if (md_path)
        fclose(f);
    return 0;
}
