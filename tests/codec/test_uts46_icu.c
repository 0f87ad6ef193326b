/**
 * \file
 * UTS #46 against ICU 76 (Unicode 16.0: Debian 13's libicu, from the Debian
 * 13 root, mk/uts39-icu76.mk) as the oracle, in the same process: ICU's
 * uidna_openUTS46 with nontransitional processing, UseSTD3ASCIIRules,
 * CheckBidi and CheckJoiners (ICU always checks hyphens and, in ToASCII,
 * the DNS lengths), against idng_to_ascii and idng_to_unicode in UTS #46
 * mode with every check on, ASCII labels included (IDNG_F_STRICT, as the
 * conformance test runs it; by default idnguard passes an ASCII label
 * through as DNS octets, _dmarc and all).
 *
 * - Every scalar value but NUL, in "a<cp>.example" and alone as
 *   "<cp>.example": the same verdict (an error or none) in ToASCII and in
 *   ToUnicode, and the same string where neither has an error.
 * - 40,000 generated names of one to three labels: the code points that
 *   Unicode 15.1 and 16.0 added (ICU's u_charAge), older letters of many
 *   scripts, marks, joiners, digits, '-' and mapped characters, in
 *   random order; the same agreement.
 *
 * One known divergence, counted and shown: CheckHyphens refuses "--" in a
 * label's third and fourth positions, which UTS #46 (and RFC 5891 4.2.3.1)
 * count in code points; ICU counts UTF-16 code units (uts46.cpp looks at
 * label[2] and label[3]), so with a supplementary code point among the
 * first two ICU misses "𓱊a--b" and refuses "𓱊--b".  idnguard follows the
 * standard.  And one deliberate difference: a last label that maps to
 * nothing ("7." and U+00AD) leaves the name ending with a full stop, which
 * idnguard takes as the root (UTS #46 maps the whole name before it splits
 * it, codec/uts46.c), where ICU reports an empty label; ICU takes a
 * written final full stop as the root too.
 */
#include "common.h"
#include "idnguard.h"

#include <check.h>
#include <stdio.h>
#include <string.h>
#include <unicode/uchar.h>
#include <unicode/uidna.h>
#include <unicode/utf8.h>

static UIDNA *icu;

static void oracle_open(void)
{
    UErrorCode e = U_ZERO_ERROR;
    UVersionInfo v;

    icu = uidna_openUTS46(UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_NONTRANSITIONAL_TO_UNICODE |
                              UIDNA_USE_STD3_RULES | UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ,
                          &e);
    ck_assert_msg(U_SUCCESS(e), "ICU UTS #46: %s", u_errorName(e));
    /* The oracle must be of the tables' Unicode version. */
    u_getUnicodeVersion(v);
    ck_assert_msg(v[0] == 16 && v[1] == 0, "ICU's Unicode is %d.%d, not 16.0", v[0], v[1]);
}

static void oracle_close(void)
{
    uidna_close(icu);
}

/* The code points of the UTF-8 text in, as "61 10D50 2E ...". */
static void show(const char *in, char *out, size_t cap)
{
    int32_t i = 0, n = (int32_t)strlen(in);
    size_t len = 0;

    out[0] = '\0';
    while (i < n && len + 10 < cap) {
        UChar32 c;
        U8_NEXT(in, i, n, c);
        len += (size_t)snprintf(out + len, cap - len, "%s%04X", len ? " " : "", (unsigned)c);
    }
}

/* Names where the two ways of counting disagree: some label of in has
 * '-' at code points 3 and 4 but not at UTF-16 code units 3 and 4, or the
 * other way round. */
static unsigned hyphen_units;

static int hyphen_by_units(const char *in)
{
    int32_t i = 0, n = (int32_t)strlen(in);
    uint32_t cps[4];
    UChar units[6];
    int k = 0, u = 0;

    while (i <= n) {
        UChar32 c = '.';
        if (i < n)
            U8_NEXT(in, i, n, c);
        else
            i++;
        if (c == '.' || c == 0x3002 || c == 0xFF0E || c == 0xFF61) {
            int by_cp = k == 4 && cps[2] == '-' && cps[3] == '-';
            int by_unit = u >= 4 && units[2] == '-' && units[3] == '-';
            if (by_cp != by_unit)
                return 1;
            k = u = 0;
            continue;
        }
        if (k < 4)
            cps[k++] = (uint32_t)c;
        if (u < 4)
            U16_APPEND_UNSAFE(units, u, c);
    }
    return 0;
}

/* The names whose last label maps to nothing, which ICU calls empty. */
static unsigned vanished_roots;

static int ends_with_dot(const char *s)
{
    size_t n = strlen(s);

    return (n >= 1 && s[n - 1] == '.')
           || (n >= 3 && (memcmp(s + n - 3, "\343\200\202", 3) == 0     /* U+3002 */
                          || memcmp(s + n - 3, "\357\274\216", 3) == 0  /* U+FF0E */
                          || memcmp(s + n - 3, "\357\275\241", 3) == 0)); /* U+FF61 */
}

/* The name in (UTF-8, NUL-terminated) through both, in both directions. */
static void same(const char *in)
{
    char want[1024], got[1024], shown[256];
    size_t n = strlen(in), gn;
    int32_t wn;
    UIDNAInfo info = UIDNA_INFO_INITIALIZER;
    UErrorCode e = U_ZERO_ERROR;
    idng_status st;
    int icu_ok;

    show(in, shown, sizeof shown);
    wn = uidna_nameToASCII_UTF8(icu, in, (int32_t)n, want, sizeof want - 1, &info, &e);
    icu_ok = U_SUCCESS(e) && info.errors == 0;
    gn = sizeof got - 1;
    st = idng_to_ascii(in, n, got, &gn, IDNG_MODE_UTS46, IDNG_F_STRICT, NULL);
    if (((icu_ok && st == IDNG_E_HYPHEN_34)
         || (!icu_ok && info.errors == UIDNA_ERROR_HYPHEN_3_4 && st == IDNG_OK))
        && hyphen_by_units(in)) {
        if (hyphen_units++ < 3)
            fprintf(stderr, "known divergence (ICU counts code units for CheckHyphens): %s\n",
                    shown);
        return;
    }
    if (!icu_ok && info.errors == UIDNA_ERROR_EMPTY_LABEL && st == IDNG_OK) {
        got[gn] = '\0';
        if (ends_with_dot(got) && !ends_with_dot(in)) {
            vanished_roots++;
            return;
        }
    }
    ck_assert_msg(icu_ok == (st == IDNG_OK), "ToASCII(%s): ICU %s (errors 0x%x), ours %s", shown,
                  icu_ok ? "accepts" : "refuses", (unsigned)info.errors, idng_status_symbol(st));
    if (icu_ok) {
        want[wn] = got[gn] = '\0';
        ck_assert_msg(strcmp(want, got) == 0, "ToASCII(%s): ICU %s, ours %s", shown, want, got);
    }

    info = (UIDNAInfo)UIDNA_INFO_INITIALIZER;
    e = U_ZERO_ERROR;
    wn = uidna_nameToUnicodeUTF8(icu, in, (int32_t)n, want, sizeof want - 1, &info, &e);
    icu_ok = U_SUCCESS(e) && info.errors == 0;
    gn = sizeof got - 1;
    st = idng_to_unicode(in, n, got, &gn, IDNG_MODE_UTS46, IDNG_F_STRICT, NULL);
    ck_assert_msg(icu_ok == (st == IDNG_OK), "ToUnicode(%s): ICU %s (errors 0x%x), ours %s",
                  shown, icu_ok ? "accepts" : "refuses", (unsigned)info.errors,
                  idng_status_symbol(st));
    if (icu_ok) {
        want[wn] = got[gn] = '\0';
        ck_assert_msg(strcmp(want, got) == 0, "ToUnicode(%s): ICU %s, ours %s", shown, want, got);
    }
}

/* "<prefix><cp>.example" as UTF-8. */
static void with_cp(const char *prefix, uint32_t cp)
{
    char in[32];
    int32_t k = (int32_t)strlen(prefix);

    memcpy(in, prefix, (size_t)k);
    U8_APPEND_UNSAFE(in, k, cp);
    memcpy(in + k, ".example", sizeof ".example");
    same(in);
}

START_TEST(every_code_point)
{
    uint32_t cp;

    oracle_open();
    for (cp = 1; cp <= 0x10FFFF; cp++) {
        if (cp - 0xD800 < 0x800)
            continue;
        with_cp("a", cp);
        with_cp("", cp);
    }
    oracle_close();
}
END_TEST

static uint32_t rnd_state = 0x2545F491u;
static uint32_t rnd(uint32_t n)
{
    return t_xorshift32(&rnd_state) % n;
}

/* Older code points the generated names mix with the new ones. */
static const uint32_t older[] = {
    'a', 'z', 'x', '0', '7', '-', 0xE4, 0xDF, 0x3C2, 0x1E9E,     /* Latin, deviations */
    0x430, 0x3B1, 0x5D0, 0x627, 0x660, 0x6F0, 0x915, 0x966,      /* scripts, digits */
    0xE01, 0x10D0, 0x4E00, 0x3042, 0x30A2, 0xAC00, 0x1100, 0x1161, 0x13A0,
    0x300, 0x301, 0x328, 0x94D, 0x200C, 0x200D, 0xAD,            /* marks, joiners */
    0x41, 0xFF21, 0x2474, 0x2260, 0xFDFA, 0x2F00, 0x3002,        /* mapped, STD3 */
};
#define OLDER_N (sizeof older / sizeof older[0])

/* The code points of Unicode 15.1 and 16.0, as ICU 76 dates them. */
static uint32_t added[8192];
static size_t nadded;

static void collect_added(void)
{
    uint32_t cp;

    nadded = 0;
    for (cp = 0; cp <= 0x10FFFF && nadded < sizeof added / sizeof added[0]; cp++) {
        UVersionInfo age;
        u_charAge((UChar32)cp, age);
        if ((age[0] == 15 && age[1] == 1) || age[0] == 16)
            added[nadded++] = cp;
    }
    /* 5,812 in all (627 in 15.1, 5,185 in 16.0); the array holds them. */
    ck_assert_uint_eq(nadded, 5812);
}

START_TEST(generated_names)
{
    unsigned i;

    oracle_open();
    collect_added();
    for (i = 0; i < 40000; i++) {
        char in[256];
        int32_t k = 0;
        size_t labels = 1 + rnd(3), l, j;
        for (l = 0; l < labels; l++) {
            size_t len = 1 + rnd(6);
            if (l > 0)
                in[k++] = '.';
            for (j = 0; j < len; j++) {
                uint32_t cp = rnd(2) ? added[rnd((uint32_t)nadded)] : older[rnd(OLDER_N)];
                U8_APPEND_UNSAFE(in, k, cp);
            }
        }
        in[k] = '\0';
        same(in);
    }
    fprintf(stderr,
            "generated names: %u CheckHyphens divergences (ICU counts code units), %u last "
            "labels mapped to nothing taken as the root\n",
            hyphen_units, vanished_roots);
    oracle_close();
}
END_TEST

static Suite *uts46_icu_suite(void)
{
    Suite *s = suite_create("uts46-icu");
    TCase *tc = tcase_create("icu");

    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, every_code_point);
    tcase_add_test(tc, generated_names);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(uts46_icu_suite)
