/**
 * \file
 * UTS #39 against ICU's spoof checker (ICU 76, Unicode 16.0: Debian 13's
 * libicu, from the Debian 13 root, mk/uts39-icu76.mk) as the oracle, in the
 * same process:
 * - the skeleton of every scalar value, and of generated strings that mix
 *   scripts, combining marks in every order and decomposable letters;
 * - the restriction level and mixed numbers of every scalar value alone and
 *   of generated labels mixing scripts (uspoof_check2 with
 *   USPOOF_RESTRICTION_LEVEL | USPOOF_MIXED_NUMBERS, the allowed set being
 *   ICU's recommended and inclusion sets, which is UTS #39's
 *   Identifier_Status=Allowed);
 * - hand-picked cases from UTS #39's text and the textbook homograph (paypal with a
 *   Cyrillic a), so a reader sees the levels' meaning;
 * - the name functions: ASCII labels, A-labels, the least restrictive
 *   label, '.' inside a skeleton;
 * - idng_is_emoji, which the mixed-script rule sets aside, against ICU's
 *   Extended_Pictographic and Emoji_Component (UTS #51) for every code
 *   point.
 * Known divergences: none.  (Since UTS #39 15.1 the skeleton drops
 * Default_Ignorable code points; ICU 76 and idnguard both do.)
 */
#include "common.h"
#include "idnguard.h"

#include <check.h>
#include <stdio.h>
#include <string.h>
#include <unicode/uchar.h>
#include <unicode/uset.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>

static USpoofChecker *sc;
static USpoofCheckResult *res;

static void oracle_open(void)
{
    UErrorCode e = U_ZERO_ERROR;
    USet *allowed;

    sc = uspoof_open(&e);
    uspoof_setChecks(sc, USPOOF_RESTRICTION_LEVEL | USPOOF_MIXED_NUMBERS, &e);
    allowed = uset_openEmpty();
    uset_addAll(allowed, uspoof_getRecommendedSet(&e));
    uset_addAll(allowed, uspoof_getInclusionSet(&e));
    uspoof_setAllowedChars(sc, allowed, &e);
    uset_close(allowed);
    res = uspoof_openCheckResult(&e);
    ck_assert_msg(U_SUCCESS(e), "ICU spoof checker: %s", u_errorName(e));
}

static void oracle_close(void)
{
    uspoof_closeCheckResult(res);
    uspoof_close(sc);
}

static int32_t to_utf16(const uint32_t *s, size_t n, UChar *out, int32_t cap)
{
    int32_t len = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        UBool err = 0;
        U16_APPEND(out, len, cap, (UChar32)s[i], err);
        ck_assert(!err);
    }
    return len;
}

static size_t from_utf16(const UChar *s, int32_t len, uint32_t *out, size_t cap)
{
    int32_t i = 0;
    size_t n = 0;

    while (i < len) {
        UChar32 c;
        U16_NEXT(s, i, len, c);
        ck_assert(n < cap);
        out[n++] = (uint32_t)c;
    }
    return n;
}

static void show(const uint32_t *s, size_t n, char *out, size_t cap)
{
    size_t i, len = 0;

    out[0] = '\0';
    for (i = 0; i < n && len + 10 < cap; i++)
        len += (size_t)snprintf(out + len, cap - len, "%s%04X", i ? " " : "", (unsigned)s[i]);
}

/* Compares the skeleton of s with ICU's; fails naming s. */
static void same_skeleton(const uint32_t *s, size_t n)
{
    UChar u[512], v[4096];
    uint32_t want[4096], got[4096];
    size_t wn, gn = sizeof got / sizeof got[0];
    UErrorCode e = U_ZERO_ERROR;
    int32_t ulen = to_utf16(s, n, u, 512), vlen;
    idng_status st;
    char a[256];

    vlen = uspoof_getSkeleton(sc, 0, u, ulen, v, 4096, &e);
    REQUIRE(U_SUCCESS(e), "ICU skeleton: %s", u_errorName(e));
    wn = from_utf16(v, vlen, want, 4096);
    st = idng_skeleton(s, n, got, &gn);
    if (st != IDNG_OK || gn != wn || memcmp(got, want, wn * sizeof *got) != 0) {
        char b[256], c[256];
        show(s, n, a, sizeof a);
        show(want, wn, b, sizeof b);
        show(got, st == IDNG_OK ? gn : 0, c, sizeof c);
        ck_abort_msg("skeleton of [%s]: ICU [%s], ours [%s] (%s)", a, b, c,
                     idng_status_class_name(st));
    }
}

/* Compares the restriction level and mixed numbers of s with ICU's. */
static void same_level(const uint32_t *s, size_t n)
{
    UChar u[512];
    UErrorCode e = U_ZERO_ERROR;
    int32_t ulen = to_utf16(s, n, u, 512);
    int32_t r = uspoof_check2(sc, u, ulen, res, &e);
    URestrictionLevel want = uspoof_getCheckResultRestrictionLevel(res, &e);
    static const URestrictionLevel map[IDNG_RL_COUNT] = {
        USPOOF_ASCII, USPOOF_SINGLE_SCRIPT_RESTRICTIVE, USPOOF_HIGHLY_RESTRICTIVE,
        USPOOF_MODERATELY_RESTRICTIVE, USPOOF_MINIMALLY_RESTRICTIVE, USPOOF_UNRESTRICTIVE};
    idng_restriction got = idng_restriction_level(s, n);
    int mixed = idng_mixed_numbers(s, n);
    char a[256];

    REQUIRE(U_SUCCESS(e), "ICU check: %s", u_errorName(e));
    if (map[got] != want || mixed != ((r & USPOOF_MIXED_NUMBERS) != 0)) {
        show(s, n, a, sizeof a);
        ck_abort_msg("[%s]: ICU level %#x mixed %d, ours %s mixed %d", a, (unsigned)want,
                     (r & USPOOF_MIXED_NUMBERS) != 0, idng_restriction_name(got), mixed);
    }
}

START_TEST(every_code_point_skeleton)
{
    uint32_t cp;

    oracle_open();
    for (cp = 0; cp <= 0x10FFFF; cp++) {
        if (cp - 0xD800 < 0x800)
            continue;
        same_skeleton(&cp, 1);
    }
    oracle_close();
}
END_TEST

START_TEST(every_code_point_level)
{
    uint32_t cp, s[3];

    oracle_open();
    for (cp = 0; cp <= 0x10FFFF; cp++) {
        if (cp - 0xD800 < 0x800)
            continue;
        same_level(&cp, 1);
        /* Beside a Latin letter and an ASCII digit: the second step's
         * resolved set, and the digits' set of ten. */
        s[0] = 'a';
        s[1] = cp;
        s[2] = '7';
        same_level(s, 3);
    }
    oracle_close();
}
END_TEST

/* An emoji code point is Extended_Pictographic, or Emoji_Component but
 * ASCII ('#', '*', digits); ICU reads both from emoji-data.txt. */
START_TEST(every_code_point_emoji)
{
    uint32_t cp;
    size_t yes = 0;

    for (cp = 0; cp <= 0x10FFFF; cp++) {
        int want = u_hasBinaryProperty((UChar32)cp, UCHAR_EXTENDED_PICTOGRAPHIC)
                   || (cp >= 0x80 && u_hasBinaryProperty((UChar32)cp, UCHAR_EMOJI_COMPONENT));
        ck_assert_msg(idng_is_emoji(cp) == want, "U+%04X: idng_is_emoji %d, ICU %d", cp,
                      idng_is_emoji(cp), want);
        yes += (size_t)want;
    }
    ck_assert_msg(yes > 3000, "only %zu emoji code points", yes);
    ck_assert_int_eq(idng_is_emoji(0x110000), 0);
    ck_assert_int_eq(idng_is_emoji(0xFFFFFFFFu), 0);
}
END_TEST

/* A fixed generator (xorshift64*), so every run tests the same strings. */
static uint64_t rnd_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(uint32_t n)
{
    rnd_state ^= rnd_state >> 12;
    rnd_state ^= rnd_state << 25;
    rnd_state ^= rnd_state >> 27;
    return (uint32_t)((rnd_state * 0x2545F4914F6CDD1Dull) >> 33) % n;
}

/* Code points that make the levels and skeletons interesting: letters of
 * the scripts UTS #39 names, Common and Inherited ones, code points whose
 * Script_Extensions hold several scripts, digits of several sets of ten,
 * combining marks of different classes, decomposable letters, and some
 * code points outside the Allowed set. */
static const uint32_t pool[] = {
    'a', 'p', 'y', 'l', 'o', 'm', 'r', 'n', '0', '1', '7', '-', '_', 0x00E9, 0x00DF, 0x0131,
    0x0430, 0x043E, 0x0440, 0x0441, 0x0455, 0x04CF,         /* Cyrillic */
    0x03B1, 0x03BF, 0x03C1, 0x03BD,                         /* Greek */
    0x13A0, 0x13AA, 0xAB70,                                 /* Cherokee */
    0x4E00, 0x4E2D, 0x6587, 0x3005, 0x3007,                 /* Han */
    0x3042, 0x3093, 0x30A2, 0x30F3, 0x30FC, 0x30FB, 0x3001, /* kana, Common-kana */
    0xAC00, 0xD55C, 0x1100, 0x1161,                         /* Hangul */
    0x3105, 0x3120,                                         /* Bopomofo */
    0x0627, 0x0628, 0x0660, 0x0661, 0x06F0, 0x06F5, 0x064B, /* Arabic, digits */
    0x0905, 0x0966, 0x0967, 0x0964, 0x0951,                 /* Devanagari, dandas */
    0x0E01, 0x0E50, 0x10D0, 0x0531, 0x05D0, 0x0F40, 0x1780, /* Thai Georgian ... */
    0xFF10, 0xFF11, 0x1D7CE, 0x1D7D8,                       /* other zeros and ones */
    0x0300, 0x0301, 0x0307, 0x0323, 0x0328, 0x0338, 0x0345, /* marks */
    0x1E0B, 0x1E9B, 0x01C4, 0x00C5, 0x212B, 0x1F80,         /* decomposables */
    0x00B7, 0x0375, 0x05F3, 0x2019, 0x30A0, 0x200C, 0x200D, /* inclusion, joiners */
    0x2460, 0x00A0, 0x1E900, 0x16A0, 0xA4D0, 0x1F600,       /* not Allowed */
};
#define POOL_N (sizeof pool / sizeof pool[0])

START_TEST(generated_strings)
{
    uint32_t s[12];
    unsigned i;

    oracle_open();
    for (i = 0; i < 60000; i++) {
        size_t n = 1 + rnd(8), k;
        for (k = 0; k < n; k++) {
            /* Mostly the pool; sometimes any scalar value. */
            uint32_t cp = rnd(4) ? pool[rnd(POOL_N)] : rnd(0x110000);
            if (cp - 0xD800 < 0x800)
                cp = 'x';
            s[k] = cp;
        }
        same_skeleton(s, n);
        same_level(s, n);
    }
    oracle_close();
}
END_TEST

/* Strings over 64 code points take the codec's other path (by the book);
 * they must give ICU's skeleton too. */
START_TEST(long_strings)
{
    uint32_t s[160];
    unsigned i;

    oracle_open();
    for (i = 0; i < 3000; i++) {
        size_t n = 60 + rnd(100), k;
        for (k = 0; k < n; k++)
            s[k] = pool[rnd(POOL_N)];
        same_skeleton(s, n);
    }
    oracle_close();
}
END_TEST

static idng_restriction level_of(const char *utf8)
{
    uint32_t s[64];
    size_t n = t_utf8_to_cps(utf8, s, 64);
    return idng_restriction_level(s, n);
}

START_TEST(levels_by_hand)
{
    /* UTS #39 section 5.2's examples and the textbook homograph. */
    ck_assert_int_eq(level_of("paypal"), IDNG_RL_ASCII);
    ck_assert_int_eq(level_of("p\xD0\xB0ypal"), IDNG_RL_MINIMALLY); /* Cyrillic a */
    ck_assert_int_eq(level_of("\xD0\xBF\xD0\xB0\xD0\xB9"), IDNG_RL_SINGLE_SCRIPT);
    ck_assert_int_eq(level_of("caf\xC3\xA9"), IDNG_RL_SINGLE_SCRIPT);
    /* Latin + Han + Hiragana + Katakana */
    ck_assert_int_eq(level_of("abc\xE4\xB8\xAD\xE3\x81\x82\xE3\x82\xA2"), IDNG_RL_HIGHLY);
    /* Latin + Han + Hangul */
    ck_assert_int_eq(level_of("a\xE4\xB8\xAD\xED\x95\x9C"), IDNG_RL_HIGHLY);
    /* Latin + Arabic: one other Recommended script */
    ck_assert_int_eq(level_of("a\xD8\xA8"), IDNG_RL_MODERATELY);
    /* Latin + Greek is not moderately restrictive */
    ck_assert_int_eq(level_of("a\xCE\xB1"), IDNG_RL_MINIMALLY);
    /* Arabic + Devanagari without Latin */
    ck_assert_int_eq(level_of("\xD8\xA8\xE0\xA4\x85"), IDNG_RL_MINIMALLY);
    /* U+2460 CIRCLED DIGIT ONE is not Allowed */
    ck_assert_int_eq(level_of("a\xE2\x91\xA0"), IDNG_RL_UNRESTRICTED);
    /* '*' is not Allowed either: labels alone see every code point */
    ck_assert_int_eq(level_of("*"), IDNG_RL_UNRESTRICTED);
}
END_TEST

START_TEST(names)
{
    char out[512];
    size_t len = sizeof out;
    idng_restriction lv;
    int mixed = -1;
    idng_error err;

    /* The textbook homograph: the A-label of p<Cyrillic a>ypal, and its
     * skeleton equal to paypal's ("m" and "rn" are confusable too). */
    ck_assert_int_eq(idng_name_skeleton(BYTES("xn--pypal-4ve.com"), out, &len, IDNG_MODE_UTS46,
                                        &err), IDNG_OK);
    ck_assert_str_eq(out, "paypal.corn");
    len = sizeof out;
    ck_assert_int_eq(idng_name_skeleton(BYTES("PayPal.COM."), out, &len, IDNG_MODE_UTS46, &err),
                     IDNG_OK);
    ck_assert_str_eq(out, "paypal.corn.");
    ck_assert_int_eq(idng_name_restriction(BYTES("login.xn--pypal-4ve.com"), IDNG_MODE_UTS46,
                                           &lv, &mixed, &err), IDNG_OK);
    ck_assert_int_eq(lv, IDNG_RL_MINIMALLY);
    ck_assert_int_eq(mixed, 0);
    /* An ASCII label is ascii-only whatever it holds. */
    ck_assert_int_eq(idng_name_restriction(BYTES("_dmarc.*.example"), IDNG_MODE_UTS46, &lv,
                                           NULL, &err), IDNG_OK);
    ck_assert_int_eq(lv, IDNG_RL_ASCII);
    /* The least restrictive label decides. */
    ck_assert_int_eq(idng_name_restriction(BYTES("caf\xC3\xA9.a\xE0\xA4\x85.example"),
                                           IDNG_MODE_UTS46, &lv, NULL, &err), IDNG_OK);
    ck_assert_int_eq(lv, IDNG_RL_MODERATELY);
    /* Mixed digits in one label: Devanagari 1 beside an ASCII 2 (Arabic-Indic
     * beside ASCII digits is refused by the bidi rule before this). */
    ck_assert_int_eq(idng_name_restriction(BYTES("\xE0\xA4\x85\xE0\xA5\xA7\x32.example"),
                                           IDNG_MODE_UTS46, &lv, &mixed, &err), IDNG_OK);
    ck_assert_int_eq(mixed, 1);
    /* U+0660's prototype is '.', which must not split the label. */
    len = sizeof out;
    ck_assert_int_eq(idng_name_skeleton(BYTES("\xD8\xA8\xD9\xA0.example"), out, &len,
                                        IDNG_MODE_UTS46, &err), IDNG_OK);
    ck_assert_str_eq(out, "\xD8\xA8\\046.exarnple");
    /* An invalid name has no skeleton: the failure is the codec's. */
    len = sizeof out;
    ck_assert_int_eq(idng_name_skeleton(BYTES("xn--zz.example"), out, &len, IDNG_MODE_UTS46,
                                        &err), IDNG_E_PUNY_TRUNCATED);
    /* Too small a buffer says how much is needed. */
    len = 4;
    ck_assert_int_eq(idng_name_skeleton(BYTES("paypal.com"), out, &len, IDNG_MODE_UTS46, &err),
                     IDNG_E_NOSPACE);
    ck_assert_uint_eq(len, 11);
}
END_TEST

START_TEST(skeleton_errors)
{
    uint32_t s[2] = {'a', 0xD800}, out[8];
    size_t len = 8;

    ck_assert_int_eq(idng_skeleton(s, 2, out, &len), IDNG_E_SURROGATE);
    s[1] = 0x110000;
    len = 8;
    ck_assert_int_eq(idng_skeleton(s, 2, out, &len), IDNG_E_CODEPOINT_MAX);
    /* U+FDFA's skeleton is the longest, 18 code points. */
    s[0] = 0xFDFA;
    len = 17;
    ck_assert_int_eq(idng_skeleton(s, 1, out, &len), IDNG_E_NOSPACE);
    ck_assert_uint_eq(len, 18);
    ck_assert_int_eq(idng_restriction_level(s + 1, 1), IDNG_RL_UNRESTRICTED);
}
END_TEST

START_TEST(level_names)
{
    idng_restriction lv;

    ck_assert_str_eq(idng_restriction_name(IDNG_RL_HIGHLY), "highly-restrictive");
    ck_assert_ptr_null(idng_restriction_name(IDNG_RL_COUNT));
    ck_assert_int_eq(idng_restriction_lookup(BYTES("unrestricted"), &lv), 0);
    ck_assert_int_eq(lv, IDNG_RL_UNRESTRICTED);
    ck_assert_int_eq(idng_restriction_lookup(BYTES("highly"), &lv), -1);
}
END_TEST

static Suite *uts39_suite(void)
{
    Suite *s = suite_create("uts39");
    TCase *tc = tcase_create("icu");

    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, every_code_point_skeleton);
    tcase_add_test(tc, every_code_point_level);
    tcase_add_test(tc, generated_strings);
    tcase_add_test(tc, long_strings);
    tcase_add_test(tc, levels_by_hand);
    tcase_add_test(tc, names);
    tcase_add_test(tc, skeleton_errors);
    tcase_add_test(tc, level_names);
    tcase_add_test(tc, every_code_point_emoji);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(uts39_suite)
