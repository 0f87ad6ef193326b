/**
 * \file
 * Tests of the public simple case mappings, idng_simple_lower() and
 * idng_simple_upper(), through idnguard.h alone (black-box):
 * - spot values of UnicodeData.txt 15.0's Simple_Lowercase_Mapping and
 *   Simple_Uppercase_Mapping (fields 13 and 12), among them the pairs that
 *   are not each other's inverse (U+0130, U+2126, U+212A), titlecase
 *   letters, scripts outside the BMP, and letters with no simple mapping;
 * - values that are not code points come back unchanged;
 * - over every code point, a mapping that changes it gives a Unicode
 *   scalar value, and both are idempotent (true of Unicode 15.0's);
 * - the mixed-case annotation the CLI builds with them: RFC 3492 section
 *   7.1's sample (L), whose annotation marks the uppercase letters.
 */
#include "common.h"

#include "idnguard.h"

#include <string.h>

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
    uint32_t cp, lower, upper;
} spots[] = {
    {0x0041, 0x0061, 0x0041},  /* A */
    {0x0061, 0x0061, 0x0041},  /* a */
    {0x00C4, 0x00E4, 0x00C4},  /* A WITH DIAERESIS */
    {0x00DF, 0x00DF, 0x00DF},  /* SHARP S: its uppercase "SS" is not simple */
    {0x1E9E, 0x00DF, 0x1E9E},  /* CAPITAL SHARP S */
    {0x0130, 0x0069, 0x0130},  /* CAPITAL I WITH DOT ABOVE lowers to plain i */
    {0x0131, 0x0131, 0x0049},  /* DOTLESS I uppers to plain I */
    {0x01C5, 0x01C6, 0x01C4},  /* titlecase DZ WITH CARON */
    {0x03A3, 0x03C3, 0x03A3},  /* SIGMA */
    {0x03C2, 0x03C2, 0x03A3},  /* FINAL SIGMA */
    {0x2126, 0x03C9, 0x2126},  /* OHM SIGN lowers to omega ... */
    {0x03C9, 0x03C9, 0x03A9},  /* ... which uppers to OMEGA, not to it */
    {0x212A, 0x006B, 0x212A},  /* KELVIN SIGN */
    {0x10D0, 0x10D0, 0x1C90},  /* Georgian Mkhedruli and Mtavruli */
    {0x1C90, 0x10D0, 0x1C90},
    {0x13A0, 0xAB70, 0x13A0},  /* Cherokee: the capitals are the older letters */
    {0xAB70, 0xAB70, 0x13A0},
    {0x10400, 0x10428, 0x10400}, /* Deseret */
    {0x1E900, 0x1E922, 0x1E900}, /* Adlam */
    {0x4E2D, 0x4E2D, 0x4E2D},  /* no case */
    {0x0031, 0x0031, 0x0031},
};

START_TEST(test_spots)
{
    uint32_t cp = spots[_i].cp;

    ck_assert_msg(idng_simple_lower(cp) == spots[_i].lower, "lower(U+%04X) = U+%04X, want U+%04X",
                  cp, idng_simple_lower(cp), spots[_i].lower);
    ck_assert_msg(idng_simple_upper(cp) == spots[_i].upper, "upper(U+%04X) = U+%04X, want U+%04X",
                  cp, idng_simple_upper(cp), spots[_i].upper);
}
END_TEST

START_TEST(test_not_code_points)
{
    static const uint32_t odd[] = {0xD800, 0xDFFF, 0x110000, 0x7FFFFFFF, 0xFFFFFFFF};
    size_t i;

    for (i = 0; i < N_ELEMS(odd); i++) {
        ck_assert_uint_eq(idng_simple_lower(odd[i]), odd[i]);
        ck_assert_uint_eq(idng_simple_upper(odd[i]), odd[i]);
    }
}
END_TEST

static int is_scalar(uint32_t cp)
{
    return cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF);
}

START_TEST(test_every_code_point)
{
    uint32_t cp;
    unsigned long changed = 0;

    for (cp = 0; cp <= 0x10FFFF; cp++) {
        uint32_t lo = idng_simple_lower(cp), up = idng_simple_upper(cp);
        REQUIRE((lo == cp || is_scalar(lo)) && (up == cp || is_scalar(up)),
                "U+%04X maps outside the scalar values", cp);
        REQUIRE(idng_simple_lower(lo) == lo, "lower(U+%04X) = U+%04X is not lowercase", cp, lo);
        REQUIRE(idng_simple_upper(up) == up, "upper(U+%04X) = U+%04X is not uppercase", cp, up);
        changed += (lo != cp) + (up != cp);
    }
    /* UnicodeData.txt 16.0 has 1,460 simple lowercase and 1,477 simple
     * uppercase mappings; none maps a code point to itself. */
    ck_assert_uint_eq(changed, 1460 + 1477);
}
END_TEST

/* RFC 3492 7.1 (L): "3<nen>B<gumi><kinpachi><sensei>", written in lowercase
 * with the annotation marking the B uppercase, as `idnguard encode --case`
 * does it: lowercase each code point and flag the ones that changed. */
START_TEST(test_annotation)
{
    static const uint32_t mixed[] = {0x0033, 0x5E74, 0x0042, 0x7D44, 0x91D1, 0x516B,
                                     0x5148, 0x751F};
    uint32_t cps[N_ELEMS(mixed)];
    unsigned char flags[N_ELEMS(mixed)];
    char out[64];
    size_t i, outlen = sizeof out;

    for (i = 0; i < N_ELEMS(mixed); i++) {
        cps[i] = idng_simple_lower(mixed[i]);
        flags[i] = cps[i] != mixed[i];
    }
    ck_assert_int_eq(idng_punycode_encode(cps, N_ELEMS(cps), flags, out, &outlen), IDNG_OK);
    ck_assert_uint_eq(outlen, strlen("3B-ww4c5e180e575a65lsy2b"));
    ck_assert(memcmp(out, "3B-ww4c5e180e575a65lsy2b", outlen) == 0);
}
END_TEST

static Suite *case_suite(void)
{
    Suite *s = suite_create("case");
    TCase *tc = tcase_create("simple");

    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_spots, 0, (int)N_ELEMS(spots));
    tcase_add_test(tc, test_not_code_points);
    tcase_add_test(tc, test_every_code_point);
    tcase_add_test(tc, test_annotation);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(case_suite)
