/**
 * \file
 * The generated Unicode tables and NFC (white-box: uses codec/unicode.h).
 *
 * - NFC against Unicode's own NormalizationTest.txt (16.0, from Debian's
 *   icu source package, kept in tests/codec/data/; $NORMALIZATION_TEST): for
 *   every line, NFC(c1) = NFC(c2) = NFC(c3) = c2 and NFC(c4) = NFC(c5) = c4,
 *   by idng_nfc and by idng_nfc_short, and the quick check agrees.
 * - The RFC 5892 derived property against an independent derivation: IANA's
 *   idna-tables-properties.csv as shipped in Debian's libidn2 source, kept
 *   in tests/codec/data/ ($IDNA_PROPERTIES_CSV), for an earlier Unicode
 *   version.  Every code point
 *   it lists as assigned must have the same property here.
 * - Spot values of RFC 5892 section 2.6 exceptions and UTS #46 statuses.
 * - idnguard.h's IDNG_UNICODE_VERSION is the generated tables' version.
 * - idng_is_nfc and idng_nfc_short against idng_nfc on every pair of a
 *   code point that decomposes (or lies in U+00C0-U+02FF) and one whose
 *   quick check is Maybe: U+00E9 U+0323 was once taken for NFC.
 * - The text walk's inline UTF-8 validation (idna_internal.h) accepts
 *   exactly what idng_utf8_decode accepts.
 */
#include "common.h"
#include "idnguard.h"
#include "unicode.h"
#include "idna_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- NormalizationTest.txt ---- */

static size_t parse_cps(const char *field, uint32_t *out, size_t cap)
{
    size_t n = 0;
    char *end;
    while (*field) {
        unsigned long v = strtoul(field, &end, 16);
        if (end == field)
            break;
        ck_assert(n < cap);
        out[n++] = (uint32_t)v;
        field = end;
        while (*field == ' ')
            field++;
    }
    return n;
}

static int same(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
    return na == nb && memcmp(a, b, na * sizeof *a) == 0;
}

START_TEST(test_normalization_file)
{
    const char *path = getenv("NORMALIZATION_TEST");
    FILE *f;
    char *line = NULL;
    size_t cap = 0;
    unsigned lineno = 0, tested = 0;

    ck_assert_msg(path != NULL, "set NORMALIZATION_TEST to NormalizationTest.txt");
    f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    while (getline(&line, &cap, f) >= 0) {
        uint32_t col[5][64], work[256];
        size_t n[5], i, wn;
        char *p = line;
        lineno++;
        if (line[0] == '#' || line[0] == '@' || line[0] == '\n')
            continue;
        for (i = 0; i < 5; i++) {
            char *semi = strchr(p, ';');
            ck_assert_msg(semi != NULL, "line %u: too few columns", lineno);
            *semi = '\0';
            n[i] = parse_cps(p, col[i], 64);
            p = semi + 1;
        }
        for (i = 0; i < 5; i++) {
            size_t want = i < 3 ? 1 : 3; /* NFC(c1..c3) = c2, NFC(c4, c5) = c4 */
            memcpy(work, col[i], n[i] * sizeof *work);
            wn = n[i];
            ck_assert_int_eq(idng_nfc(work, &wn, 256), 0);
            ck_assert_msg(same(work, wn, col[want], n[want]), "line %u: NFC(c%zu) != c%zu",
                          lineno, i + 1, want + 1);
            memcpy(work, col[i], n[i] * sizeof *work);
            wn = n[i];
            idng_nfc_short(work, &wn);
            ck_assert_msg(same(work, wn, col[want], n[want]),
                          "line %u: idng_nfc_short(c%zu) != c%zu", lineno, i + 1, want + 1);
        }
        ck_assert_msg(idng_is_nfc(col[1], n[1]), "line %u: c2 is NFC but quick check says no",
                      lineno);
        if (!same(col[0], n[0], col[1], n[1]))
            ck_assert_msg(!idng_is_nfc(col[0], n[0]), "line %u: c1 is not NFC", lineno);
        tested++;
    }
    free(line);
    fclose(f);
    printf("NormalizationTest.txt: %u lines, NFC (both ways) and quick check agree on all\n",
           tested);
    ck_assert_uint_gt(tested, 15000);
}
END_TEST

/* ---- IANA derived property table ---- */

START_TEST(test_iana_properties)
{
    static const char *const names[] = {"PVALID", "CONTEXTJ", "CONTEXTO", "DISALLOWED",
                                        "UNASSIGNED"};
    const char *path = getenv("IDNA_PROPERTIES_CSV");
    FILE *f;
    char *line = NULL;
    size_t cap = 0;
    unsigned long compared = 0, differ = 0;

    ck_assert_msg(path != NULL, "set IDNA_PROPERTIES_CSV to idna-tables-properties.csv");
    f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    while (getline(&line, &cap, f) >= 0) {
        unsigned long lo, hi, cp;
        char prop[32];
        int want = -1, i;
        if (sscanf(line, "%lx-%lx,%31[A-Z]", &lo, &hi, prop) != 3) {
            if (sscanf(line, "%lx,%31[A-Z]", &lo, prop) != 2)
                continue; /* header */
            hi = lo;
        }
        for (i = 0; i < 5; i++)
            if (strcmp(prop, names[i]) == 0)
                want = i;
        ck_assert_msg(want >= 0, "unknown property %s", prop);
        if (want == I08_UNASSIGNED)
            continue; /* may have been assigned since */
        for (cp = lo; cp <= hi; cp++) {
            unsigned got = UP_I08(idng_uprops((uint32_t)cp));
            compared++;
            if (got != (unsigned)want && differ++ < 20)
                fprintf(stderr, "U+%04lX: IANA %s, idnguard %s\n", cp, names[want], names[got]);
        }
    }
    free(line);
    fclose(f);
    printf("IANA derived properties: %lu assigned code points compared, %lu differ\n", compared,
           differ);
    ck_assert_uint_eq(differ, 0);
    ck_assert_uint_gt(compared, 100000);
}
END_TEST

/* ---- spot values ---- */

static const struct {
    uint32_t cp;
    unsigned i08, u46;
} spots[] = {
    {0x002D, I08_PVALID, U46_VALID},
    {0x0041, I08_DISALLOWED, U46_MAPPED},
    {0x005F, I08_DISALLOWED, U46_DISALLOWED},  /* STD3 */
    {0x00AD, I08_DISALLOWED, U46_IGNORED},
    {0x00B7, I08_CONTEXTO, U46_VALID},
    {0x00DF, I08_PVALID, U46_DEVIATION},       /* RFC 5892 2.6 exception */
    {0x03C2, I08_PVALID, U46_DEVIATION},
    {0x0640, I08_DISALLOWED, U46_VALID},       /* TATWEEL: exception */
    {0x0660, I08_CONTEXTO, U46_VALID},
    {0x06FD, I08_PVALID, U46_VALID},
    {0x07FA, I08_DISALLOWED, U46_VALID},       /* RFC 5892 exception only */
    {0x0F0B, I08_PVALID, U46_VALID},
    {0x1100, I08_DISALLOWED, U46_VALID},       /* old Hangul jamo */
    {0x200C, I08_CONTEXTJ, U46_DEVIATION},
    {0x200D, I08_CONTEXTJ, U46_DEVIATION},
    {0x2260, I08_DISALLOWED, U46_VALID},       /* disallowed_STD3_valid up to 15.0 */
    {0x2474, I08_DISALLOWED, U46_MAPPED},      /* disallowed_STD3_mapped up to 15.1 */
    {0x0021, I08_DISALLOWED, U46_DISALLOWED},  /* '!': STD3, folded in */
    {0x3002, I08_DISALLOWED, U46_MAPPED},
    {0x3007, I08_PVALID, U46_VALID},
    {0x302E, I08_DISALLOWED, U46_VALID},
    {0x30FB, I08_CONTEXTO, U46_VALID},
    {0xD800, I08_DISALLOWED, U46_DISALLOWED},
    {0xFDD0, I08_DISALLOWED, U46_DISALLOWED},  /* noncharacter: not UNASSIGNED */
    {0xFFFD, I08_DISALLOWED, U46_DISALLOWED},
    {0x1F4A9, I08_DISALLOWED, U46_VALID},      /* emoji */
    {0x1D400, I08_DISALLOWED, U46_MAPPED},
    {0x0378, I08_UNASSIGNED, U46_DISALLOWED},
    {0x10FFFF, I08_DISALLOWED, U46_DISALLOWED},
    {0x31350, I08_PVALID, U46_VALID},          /* CJK Ext H, new in 15.0 */
};

START_TEST(test_spots)
{
    uint32_t w = idng_uprops(spots[_i].cp);
    ck_assert_msg(UP_I08(w) == spots[_i].i08, "U+%04X: RFC 5892 property %u, want %u",
                  spots[_i].cp, UP_I08(w), spots[_i].i08);
    ck_assert_msg(UP_U46(w) == spots[_i].u46, "U+%04X: UTS #46 status %u, want %u",
                  spots[_i].cp, UP_U46(w), spots[_i].u46);
}
END_TEST

/* idng_is_emoji: Extended_Pictographic, and Emoji_Component but ASCII
 * (emoji-data.txt; tests/codec/test_uts39.c compares every code point with
 * ICU's).  The edges of the table's runs, the pieces of emoji sequences, and
 * what is no emoji. */
static const struct {
    uint32_t cp;
    int emoji;
} emoji_spots[] = {
    {0x1F4A9, 1}, /* pile of poo */
    {0x2764, 1},  /* heavy black heart */
    {0x00A9, 1},  /* copyright sign: Extended_Pictographic */
    {0x00AE, 1},  {0x00A8, 0}, {0x00AA, 0}, {0x00AD, 0}, {0x00AF, 0},
    {0x2122, 1},  /* trade mark sign (UTS #46 maps it to "tm") */
    {0x200D, 1},  /* ZERO WIDTH JOINER: Emoji_Component */
    {0x200C, 0},  /* ZERO WIDTH NON-JOINER */
    {0x20E3, 1},  /* COMBINING ENCLOSING KEYCAP */
    {0xFE0F, 1},  /* VARIATION SELECTOR-16 */
    {0xFE0E, 0},  /* VARIATION SELECTOR-15 */
    {0x1F1E6, 1}, {0x1F1FF, 1}, /* regional indicators A, Z */
    {0x1F3FB, 1}, {0x1F3FF, 1}, /* skin tones */
    {0x1F9B0, 1}, /* hair component */
    {0xE0020, 1}, {0xE007F, 1}, {0xE001F, 0}, {0xE0080, 0}, /* tags */
    {0x1FFFD, 1}, /* reserved, Extended_Pictographic */
    {0x1FFFE, 0},
    {0x0041, 0},  {0x0061, 0}, {0x0030, 0}, {0x0039, 0}, /* letters, digits */
    {0x0023, 0},  {0x002A, 0}, /* '#', '*': Emoji_Component, but ASCII */
    {0x0000, 0},  {0x4E00, 0}, {0x0430, 0}, {0x3030, 1}, {0x303D, 1}, {0x3297, 1},
    {0x10FFFF, 0}, {0x110000, 0},
};

START_TEST(test_emoji_spots)
{
    ck_assert_msg(idng_is_emoji(emoji_spots[_i].cp) == emoji_spots[_i].emoji,
                  "U+%04X: idng_is_emoji %d, want %d", emoji_spots[_i].cp,
                  idng_is_emoji(emoji_spots[_i].cp), emoji_spots[_i].emoji);
}
END_TEST

START_TEST(test_mappings_and_case)
{
    const uint32_t *seq;
    ck_assert_int_eq(idng_u46_mapping(0x41, &seq), 1);
    ck_assert_uint_eq(seq[0], 0x61);
    ck_assert_int_eq(idng_u46_mapping(0xAD, &seq), 0);        /* ignored */
    ck_assert_int_eq(idng_u46_mapping(0x3250, &seq), 3);      /* SQUARE PTE -> pte */
    ck_assert_uint_eq(seq[0], 'p');
    ck_assert_uint_eq(seq[2], 'e');
    /* The longest mapping, 18 code points with two spaces: mapped since
     * UTS #46 16.0 (STD3 then refuses the spaces in the mapped label). */
    ck_assert_int_eq(idng_u46_mapping(0xFDFA, &seq), 18);
    ck_assert_uint_eq(seq[3], ' ');
    ck_assert_uint_eq(UP_U46(idng_uprops(0xFDFA)), U46_MAPPED);
    ck_assert_int_eq(idng_u46_mapping(0x61, &seq), -1);
    ck_assert_uint_eq(idng_simple_lower(0xC4), 0xE4);
    ck_assert_uint_eq(idng_simple_upper(0xE4), 0xC4);
    ck_assert_uint_eq(idng_simple_lower(0x4E2D), 0x4E2D);
    ck_assert_uint_eq(UP_BIDI(idng_uprops(0x05D0)), BC_R);
    ck_assert_uint_eq(UP_BIDI(idng_uprops(0x0627)), BC_AL);
    ck_assert_uint_eq(UP_BIDI(idng_uprops(0x0660)), BC_AN);
    ck_assert_uint_eq(UP_BIDI(idng_uprops(0x0590)), BC_R); /* unassigned, Hebrew block default */
    ck_assert_uint_eq(UP_JT(idng_uprops(0x0628)), JT_D);
    ck_assert_uint_eq(UP_JT(idng_uprops(0x0301)), JT_T);
    ck_assert_uint_eq(UP_CCC(idng_uprops(0x094D)), 9);
    ck_assert_uint_eq(UP_SCRIPT(idng_uprops(0x03B1)), SC_GREEK);
}
END_TEST

/* The public header repeats the generated tables' Unicode version. */
START_TEST(test_version)
{
    ck_assert_str_eq(IDNG_UNICODE_VERSION, IDNG_UT_UNICODE_VERSION);
}
END_TEST

/* A pair is NFC exactly when NFC leaves it as it is, and idng_nfc_short
 * normalizes it as idng_nfc does. */
START_TEST(test_nfc_pairs)
{
    static uint32_t maybe[512];
    size_t nmaybe = 0, pairs = 0, j;
    uint32_t a, b;

    for (b = 0x300; b <= 0x10FFFF; b++)
        if ((b < 0xD800 || b > 0xDFFF) && UP_NFCQC(idng_uprops(b)) == QC_MAYBE) {
            ck_assert_uint_lt(nmaybe, sizeof maybe / sizeof maybe[0]);
            maybe[nmaybe++] = b;
        }
    for (a = 0xC0; a <= 0x10FFFF; a++) {
        if ((a >= 0xD800 && a <= 0xDFFF)
            || (a >= 0x300 && !idng_decomposes(a, idng_uprops(a))))
            continue;
        for (j = 0; j < nmaybe; j++) {
            uint32_t s[2] = {a, maybe[j]}, t[16] = {a, maybe[j]}, v[16] = {a, maybe[j]};
            size_t n = 2, nv = 2;
            int same;
            ck_assert_int_eq(idng_nfc(t, &n, 16), 0);
            same = n == 2 && t[0] == s[0] && t[1] == s[1];
            ck_assert_msg(idng_is_nfc(s, 2) == same, "U+%04X U+%04X: idng_is_nfc says %d",
                          (unsigned)a, (unsigned)maybe[j], !same);
            idng_nfc_short(v, &nv);
            ck_assert_msg(nv == n && memcmp(v, t, n * sizeof *t) == 0,
                          "U+%04X U+%04X: idng_nfc_short differs from idng_nfc", (unsigned)a,
                          (unsigned)maybe[j]);
            pairs++;
        }
    }
    ck_assert_uint_gt(pairs, 100000);
}
END_TEST

/* idng_utf8_valid against idng_utf8_decode: every lead octet >= 0x80 and
 * second octet, the third and fourth from the edges of the continuation
 * range, every length left from 1 to 4. */
START_TEST(test_utf8_valid)
{
    static const unsigned char tails[] = {0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF};
    unsigned char s[4];
    unsigned a, b, c, d;
    size_t len;
    uint32_t cp;

    for (a = 0x80; a < 0x100; a++)
        for (b = 0; b < 0x100; b++)
            for (c = 0; c < sizeof tails; c++)
                for (d = 0; d < sizeof tails; d++)
                    for (len = 1; len <= 4; len++) {
                        s[0] = (unsigned char)a;
                        s[1] = (unsigned char)b;
                        s[2] = tails[c];
                        s[3] = tails[d];
                        ck_assert_uint_eq(idng_utf8_valid(s, len), idng_utf8_decode(s, len, &cp));
                    }
}
END_TEST

static Suite *unicode_suite(void)
{
    Suite *s = suite_create("unicode");
    TCase *tc = tcase_create("tables");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_normalization_file);
    tcase_add_test(tc, test_iana_properties);
    tcase_add_loop_test(tc, test_spots, 0, (int)(sizeof spots / sizeof spots[0]));
    tcase_add_loop_test(tc, test_emoji_spots, 0,
                        (int)(sizeof emoji_spots / sizeof emoji_spots[0]));
    tcase_add_test(tc, test_mappings_and_case);
    tcase_add_test(tc, test_version);
    tcase_add_test(tc, test_nfc_pairs);
    tcase_add_test(tc, test_utf8_valid);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(unicode_suite)
