/**
 * \file
 * The codec benchmark's input sets (bench/codec_bench.c runs them): RFC
 * 3492's samples, six hand-picked names, the Public Suffix List's IDN and
 * ASCII entries, and the worst-case labels, each in its A-label and
 * Unicode forms.  See codec_bench.c for what each set is for.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "codec_sets.h"

#ifdef HAVE_WORST_CASE_H
#include "worst_case.h" /* tests/codec/worst_case.h: the labels that maximise decoder work */
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void set_add(struct set *st, const char *s, size_t len)
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
    {"A",
     {0x0644, 0x064A, 0x0647, 0x0645, 0x0627, 0x0628, 0x062A, 0x0643, 0x0644, 0x0645, 0x0648,
      0x0634, 0x0639, 0x0631, 0x0628, 0x064A, 0x061F},
     "egbpdaj6bu4bxfgehfvwxn"},
    {"B",
     {0x4ED6, 0x4EEC, 0x4E3A, 0x4EC0, 0x4E48, 0x4E0D, 0x8BF4, 0x4E2D, 0x6587},
     "ihqwcrb4cv8a8dqg056pqjye"},
    {"C",
     {0x4ED6, 0x5011, 0x7232, 0x4EC0, 0x9EBD, 0x4E0D, 0x8AAA, 0x4E2D, 0x6587},
     "ihqwctvzc91f659drss3x8bo0yb"},
    {"D",
     {0x0050, 0x0072, 0x006F, 0x010D, 0x0070, 0x0072, 0x006F, 0x0073, 0x0074, 0x011B, 0x006E,
      0x0065, 0x006D, 0x006C, 0x0075, 0x0076, 0x00ED, 0x010D, 0x0065, 0x0073, 0x006B, 0x0079},
     "Proprostnemluvesky-uyb24dma41a"},
    {"E",
     {0x05DC, 0x05DE, 0x05D4, 0x05D4, 0x05DD, 0x05E4, 0x05E9, 0x05D5, 0x05D8, 0x05DC, 0x05D0,
      0x05DE, 0x05D3, 0x05D1, 0x05E8, 0x05D9, 0x05DD, 0x05E2, 0x05D1, 0x05E8, 0x05D9, 0x05EA},
     "4dbcagdahymbxekheh6e0a7fei0b"},
    {"F",
     {0x092F, 0x0939, 0x0932, 0x094B, 0x0917, 0x0939, 0x093F, 0x0928, 0x094D, 0x0926,
      0x0940, 0x0915, 0x094D, 0x092F, 0x094B, 0x0902, 0x0928, 0x0939, 0x0940, 0x0902,
      0x092C, 0x094B, 0x0932, 0x0938, 0x0915, 0x0924, 0x0947, 0x0939, 0x0948, 0x0902},
     "i1baa7eci9glrd9b2ae1bj0hfcgg6iyaf8o0a1dig0cd"},
    {"G",
     {0x306A, 0x305C, 0x307F, 0x3093, 0x306A, 0x65E5, 0x672C, 0x8A9E, 0x3092, 0x8A71, 0x3057,
      0x3066, 0x304F, 0x308C, 0x306A, 0x3044, 0x306E, 0x304B},
     "n8jok5ay5dzabd5bym9f0cm5685rrjetr6pdxa"},
    {"H",
     {0xC138, 0xACC4, 0xC758, 0xBAA8, 0xB4E0, 0xC0AC, 0xB78C, 0xB4E4,
      0xC774, 0xD55C, 0xAD6D, 0xC5B4, 0xB97C, 0xC774, 0xD574, 0xD55C,
      0xB2E4, 0xBA74, 0xC5BC, 0xB9C8, 0xB098, 0xC88B, 0xC744, 0xAE4C},
     "989aomsvi5e83db1d2a355cv1e0vak1dwrv93d5xbh15a0dt30a5jpsd879ccm6fea98c"},
    {"I",
     {0x043F, 0x043E, 0x0447, 0x0435, 0x043C, 0x0443, 0x0436, 0x0435, 0x043E, 0x043D,
      0x0438, 0x043D, 0x0435, 0x0433, 0x043E, 0x0432, 0x043E, 0x0440, 0x044F, 0x0442,
      0x043F, 0x043E, 0x0440, 0x0443, 0x0441, 0x0441, 0x043A, 0x0438},
     "b1abfaaepdrnnbgefbaDotcwatmq2g4l"},
    {"J",
     {0x0050, 0x006F, 0x0072, 0x0071, 0x0075, 0x00E9, 0x006E, 0x006F, 0x0070, 0x0075,
      0x0065, 0x0064, 0x0065, 0x006E, 0x0073, 0x0069, 0x006D, 0x0070, 0x006C, 0x0065,
      0x006D, 0x0065, 0x006E, 0x0074, 0x0065, 0x0068, 0x0061, 0x0062, 0x006C, 0x0061,
      0x0072, 0x0065, 0x006E, 0x0045, 0x0073, 0x0070, 0x0061, 0x00F1, 0x006F, 0x006C},
     "PorqunopuedensimplementehablarenEspaol-fmd56a"},
    {"K",
     {0x0054, 0x1EA1, 0x0069, 0x0073, 0x0061, 0x006F, 0x0068, 0x1ECD, 0x006B, 0x0068, 0x00F4,
      0x006E, 0x0067, 0x0074, 0x0068, 0x1EC3, 0x0063, 0x0068, 0x1EC9, 0x006E, 0x00F3, 0x0069,
      0x0074, 0x0069, 0x1EBF, 0x006E, 0x0067, 0x0056, 0x0069, 0x1EC7, 0x0074},
     "TisaohkhngthchnitingVit-kjcr8268qyxafd2f1b9g"},
    {"L",
     {0x0033, 0x5E74, 0x0042, 0x7D44, 0x91D1, 0x516B, 0x5148, 0x751F},
     "3B-ww4c5e180e575a65lsy2b"},
    {"M",
     {0x5B89, 0x5BA4, 0x5948, 0x7F8E, 0x6075, 0x002D, 0x0077, 0x0069,
      0x0074, 0x0068, 0x002D, 0x0053, 0x0055, 0x0050, 0x0045, 0x0052,
      0x002D, 0x004D, 0x004F, 0x004E, 0x004B, 0x0045, 0x0059, 0x0053},
     "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"},
    {"N",
     {0x0048, 0x0065, 0x006C, 0x006C, 0x006F, 0x002D, 0x0041, 0x006E, 0x006F,
      0x0074, 0x0068, 0x0065, 0x0072, 0x002D, 0x0057, 0x0061, 0x0079, 0x002D,
      0x305D, 0x308C, 0x305E, 0x308C, 0x306E, 0x5834, 0x6240},
     "Hello-Another-Way--fc4qua05auwb3674vfr0b"},
    {"O", {0x3072, 0x3068, 0x3064, 0x5C4B, 0x6839, 0x306E, 0x4E0B, 0x0032}, "2-u9tlzr9756bt3uc0v"},
    {"P",
     {0x004D, 0x0061, 0x006A, 0x0069, 0x3067, 0x004B, 0x006F, 0x0069, 0x3059, 0x308B, 0x0035,
      0x79D2, 0x524D},
     "MajiKoi5-783gue6qz075azm5e"},
    {"Q",
     {0x30D1, 0x30D5, 0x30A3, 0x30FC, 0x0064, 0x0065, 0x30EB, 0x30F3, 0x30D0},
     "de-jg4avhby1noc0d"},
    {"R", {0x305D, 0x306E, 0x30B9, 0x30D4, 0x30FC, 0x30C9, 0x3067}, "d9juau41awczczp"},
    {"S",
     {0x002D, 0x003E, 0x0020, 0x0024, 0x0031, 0x002E, 0x0030, 0x0030, 0x0020, 0x003C, 0x002D},
     "-> $1.00 <--"},
};

static size_t cp_count(const uint32_t *cp, size_t max)
{
    size_t n = 0;
    while (n < max && cp[n])
        n++;
    return n;
}

void build_rfc(struct set *ace, struct set *uni)
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
const char *const six_names[] = {
    "-x.xn--zca", "xn--zca.xn--zca", "xn--mgba3gch31f060k",
    "xn--1ch",    "x-.\xc3\x9f",     "me\303\237agefactory.ca",
};
const size_t six_names_count = N_ELEMS(six_names);

/* ASCII names with no xn-- label, as a resolver sees them. */
const char *const ascii_names[] = {
    "www.example.com",
    "example.org",
    "mail.google.com",
    "_dmarc.example.org",
    "ns1.example.net.",
    "a.root-servers.net.",
    "r3---sn-abc.googlevideo.com",
    "WWW.Example.COM",
    "localhost",
    "api.github.com",
    "cdn.jsdelivr.net",
    "_443._tcp.mail.example.de",
    "a--b.example",
    "-x.example",
    "s3.eu-west-1.amazonaws.com",
    "1.0.168.192.in-addr.arpa.",
    "www.bbc.co.uk",
    "login.microsoftonline.com",
    "time.cloudflare.com",
    "de",
};
const size_t ascii_names_count = N_ELEMS(ascii_names);

UIDNA *icu;

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
void build_psl(const char *path, struct set *ace, struct set *uni, struct set *asc, size_t *skipped)
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
        static const uint32_t dual[] = {
            0x0628, 0x062A, 0x062B, 0x062C, 0x062D, 0x062E, 0x0633, 0x0634, 0x0635, 0x0636, 0x0637,
            0x0638, 0x0639, 0x063A, 0x0641, 0x0642, 0x0643, 0x0644, 0x0645, 0x0646, 0x0647, 0x064A};
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

const struct wc_family wc_families[] = {
    {"cjk-run", 0},     {"cjk-desc", 1}, {"cjk-extb", 2}, {"nfc-maybe", 3},
    {"arabic-zwnj", 4}, {"emoji", 5},    {"hangul", 6},
};
const size_t wc_families_count = N_ELEMS(wc_families);

void build_worst(struct set *ace, struct set *uni)
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
            if (idng_punycode_encode(u, n, NULL, a, &alen) != IDNG_OK
                || alen > IDNG_LABEL_MAX - 4) {
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
void build_worst_tests(struct set *ace, struct set *uni)
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
