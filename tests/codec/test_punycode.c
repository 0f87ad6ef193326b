/**
 * \file
 * Tests of the Punycode codec, idng_punycode_encode() and
 * idng_punycode_decode() (RFC 3492):
 * - the sample strings of RFC 3492 section 7.1, both directions, with the
 *   mixed-case annotation of appendix A;
 * - further known encodings (plain ASCII, single code points, IDNs);
 * - decoder and encoder input errors, each with its exact status, and the
 *   U+10FFFF / surrogate boundaries;
 * - buffer discipline: every capacity around the exact size, canaries on
 *   both sides of every output buffer, input errors before NOSPACE (the
 *   bug class of OpenSSL CVE-2022-3602);
 * - a seeded round-trip property over random code point strings;
 * - the converse, exhaustively on short inputs: every lowercase Punycode
 *   string that decodes to something non-basic re-encodes to itself, which
 *   is why the A-label check needs no re-encoding (codec/label.c).
 */
#include "punycode_check.h"

START_TEST(test_rfc_encode)
{
    const rfc_vector *v = &rfc_vectors[_i];
    uint32_t cps[MAX_CPS];
    unsigned char flags[MAX_CPS];
    size_t n = rfc_unpack(v, cps, flags), want = strlen(v->puny), len;
    char ctx[256];
    ascii_buf b;
    idng_status st;

    snprintf(ctx, sizeof ctx, "RFC vector %d %s \"%s\"", _i, v->label, v->puny);
    st = guarded_encode(&b, cps, n, flags, MAX_OCTETS, &len, ctx);
    ck_assert_msg(st == IDNG_OK, "%s: encode gave %s", ctx, idng_status_symbol(st));
    ck_assert_msg(len == want && memcmp(b.s + GUARD, v->puny, want) == 0,
                  "%s: encode gave \"%.*s\"", ctx, (int)len, b.s + GUARD);
    ck_assert_msg(b.s[GUARD + len] == '\0', "%s: no NUL after the output", ctx);

    /* Without flags only the case of the output may differ (appendix A). */
    st = guarded_encode(&b, cps, n, NULL, MAX_OCTETS, &len, ctx);
    ck_assert_msg(st == IDNG_OK, "%s: encode without flags gave %s", ctx, idng_status_symbol(st));
    ck_assert_msg(len == want && ascii_caseeq(b.s + GUARD, v->puny, want),
                  "%s: encode without flags gave \"%.*s\"", ctx, (int)len, b.s + GUARD);
}
END_TEST

START_TEST(test_rfc_decode)
{
    const rfc_vector *v = &rfc_vectors[_i];
    uint32_t cps[MAX_CPS];
    unsigned char flags[MAX_CPS];
    size_t n = rfc_unpack(v, cps, flags), len, k;
    char ctx[256];
    cp_buf b;
    idng_status st;

    snprintf(ctx, sizeof ctx, "RFC vector %d %s \"%s\"", _i, v->label, v->puny);
    st = guarded_decode(&b, v->puny, strlen(v->puny), MAX_CPS, 1, &len, ctx);
    ck_assert_msg(st == IDNG_OK, "%s: decode gave %s", ctx, idng_status_symbol(st));
    ck_assert_msg(len == n, "%s: decoded %zu code points, want %zu", ctx, len, n);
    for (k = 0; k < n; k++) {
        ck_assert_msg(b.cp[GUARD + k] == cps[k], "%s: code point %zu is U+%04X, want U+%04X", ctx,
                      k, (unsigned)b.cp[GUARD + k], (unsigned)cps[k]);
        ck_assert_msg(b.fl[GUARD + k] == flags[k], "%s: case flag %zu is %u, want %u", ctx, k,
                      b.fl[GUARD + k], flags[k]);
    }

    /* The flags are optional and do not change the code points. */
    st = guarded_decode(&b, v->puny, strlen(v->puny), MAX_CPS, 0, &len, ctx);
    ck_assert_msg(st == IDNG_OK && len == n, "%s: decode without flags gave %s, %zu", ctx,
                  idng_status_symbol(st), len);
    ck_assert_msg(memcmp(b.cp + GUARD, cps, n * sizeof *cps) == 0,
                  "%s: decode without flags gave %s", ctx, show_cps(b.cp + GUARD, len));
}
END_TEST

START_TEST(test_text_encode)
{
    const text_vector *v = &text_vectors[_i];
    uint32_t cps[MAX_CPS];
    size_t n = t_utf8_to_cps(v->text, cps, MAX_CPS), want = strlen(v->puny), len;
    char ctx[256];
    ascii_buf b;
    idng_status st;

    snprintf(ctx, sizeof ctx, "text vector %d \"%s\"", _i, v->text);
    st = guarded_encode(&b, cps, n, NULL, MAX_OCTETS, &len, ctx);
    ck_assert_msg(st == IDNG_OK, "%s: encode gave %s", ctx, idng_status_symbol(st));
    ck_assert_msg(len == want && memcmp(b.s + GUARD, v->puny, want) == 0,
                  "%s: encode gave \"%.*s\", want \"%s\"", ctx, (int)len, b.s + GUARD, v->puny);
    ck_assert_msg(b.s[GUARD + len] == '\0', "%s: no NUL after the output", ctx);
}
END_TEST

START_TEST(test_text_decode)
{
    const text_vector *v = &text_vectors[_i];
    uint32_t cps[MAX_CPS];
    size_t n = t_utf8_to_cps(v->text, cps, MAX_CPS), len;
    char ctx[256];
    cp_buf b;
    idng_status st;

    snprintf(ctx, sizeof ctx, "text vector %d \"%s\"", _i, v->puny);
    st = guarded_decode(&b, v->puny, strlen(v->puny), MAX_CPS, 0, &len, ctx);
    ck_assert_msg(st == IDNG_OK, "%s: decode gave %s", ctx, idng_status_symbol(st));
    ck_assert_msg(len == n && memcmp(b.cp + GUARD, cps, n * sizeof *cps) == 0,
                  "%s: decode gave %s, want \"%s\"", ctx, show_cps(b.cp + GUARD, len), v->text);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Decoder input errors                                                 */

typedef struct {
    const char *in;
    size_t len;
    idng_status want;
} bad_puny;

/*
 * Each status is derived from RFC 3492 6.2 (with bias 72 and n 0x80 at
 * the start, threshold t = tmin 1 for k <= bias, tmax 26 for k >= bias +
 * 26), the overflow rules of 6.4 for 32-bit integers, and the range of
 * Unicode scalar values.
 */
static const bad_puny bad_puny_vectors[] = {
    /* Not a digit (6.2 "fail on any non-digit"). */
    { LIT("a!"), IDNG_E_PUNY_DIGIT },
    { LIT("ab_"), IDNG_E_PUNY_DIGIT },
    { LIT("abc-."), IDNG_E_PUNY_DIGIT },
    { LIT("abc-a.b"), IDNG_E_PUNY_DIGIT },
    { LIT("abc- "), IDNG_E_PUNY_DIGIT },
    { LIT("abc-a b"), IDNG_E_PUNY_DIGIT },
    { LIT("x-y-a!"), IDNG_E_PUNY_DIGIT },
    { LIT("abc-\0"), IDNG_E_PUNY_DIGIT },
    { LIT("\0"), IDNG_E_PUNY_DIGIT },
    /* The neighbours of the digit ranges 0-9, A-Z, a-z. */
    { LIT("/"), IDNG_E_PUNY_DIGIT },
    { LIT(":"), IDNG_E_PUNY_DIGIT },
    { LIT("@"), IDNG_E_PUNY_DIGIT },
    { LIT("["), IDNG_E_PUNY_DIGIT },
    { LIT("`"), IDNG_E_PUNY_DIGIT },
    { LIT("{"), IDNG_E_PUNY_DIGIT },
    /* A delimiter at position 0 has no code points before it, so it is not
     * consumed (6.2) and is then read as a digit. */
    { LIT("-"), IDNG_E_PUNY_DIGIT },
    { LIT("-abc"), IDNG_E_PUNY_DIGIT },
    /* The bad digit comes after the output is complete: still reported. */
    { LIT("abcdef-tda!"), IDNG_E_PUNY_DIGIT },
    { LIT("Mnchen-3ya!"), IDNG_E_PUNY_DIGIT },

    /* Octets >= 0x80, before and after the delimiter. */
    { LIT("\xc3\xbc-abc"), IDNG_E_PUNY_NONBASIC },
    { LIT("abc-\xc3\xbc"), IDNG_E_PUNY_NONBASIC },
    { LIT("\x80"), IDNG_E_PUNY_NONBASIC },
    { LIT("tda\xff"), IDNG_E_PUNY_NONBASIC },

    /* The input ends inside an integer: its last digit is not below the
     * threshold.  b = 1 >= t = 1; z = 25 >= t = 1 twice; 0-9 are 26-35,
     * never below tmax = 26, so they never end an integer. */
    { LIT("b"), IDNG_E_PUNY_TRUNCATED },
    { LIT("zz"), IDNG_E_PUNY_TRUNCATED },
    { LIT("a-zz"), IDNG_E_PUNY_TRUNCATED },
    { LIT("9"), IDNG_E_PUNY_TRUNCATED },
    { LIT("99999"), IDNG_E_PUNY_TRUNCATED },
    { LIT("tda0"), IDNG_E_PUNY_TRUNCATED },
    { LIT("Mnchen-3ya9"), IDNG_E_PUNY_TRUNCATED },

    /* i = sum of digit * w goes past 2^32 - 1: with 9 = 35 the weights are
     * 1, 35, 35^2, then *10; the tenth digit adds 35 * 1225000000. */
    { LIT("99999999999999"), IDNG_E_PUNY_OVERFLOW },
    /* A first delta of exactly 2^32. */
    { LIT("l0902716a"), IDNG_E_PUNY_OVERFLOW },
    /* After "a" inserts U+0080, i = 1 and the next delta is 2^32 - 1. */
    { LIT("a904870604b"), IDNG_E_PUNY_OVERFLOW },
    /* Deltas 2^32 - 128 and 2^32 - 1 fit in i, but n = 0x80 + i does not. */
    { LIT("xw902716a"), IDNG_E_PUNY_OVERFLOW },
    { LIT("k0902716a"), IDNG_E_PUNY_OVERFLOW },

    /* Above U+10FFFF.  libidn decoded "0000h" to U+127252. */
    { LIT("0000h"), IDNG_E_CODEPOINT_MAX },
    /* Delta 2^32 - 129: n = 0xFFFFFFFF exactly, no overflow, but not Unicode. */
    { LIT("ww902716a"), IDNG_E_CODEPOINT_MAX },

    /* Surrogates are not scalar values. */
    { LIT("a-9z5g"), IDNG_E_SURROGATE },
};

START_TEST(test_decode_bad)
{
    const bad_puny *v = &bad_puny_vectors[_i];
    /* Ample room, then none and one: an input error outranks NOSPACE. */
    static const size_t caps[] = { MAX_CPS, 0, 1 };
    char ctx[256];
    size_t c, len;
    cp_buf b;
    idng_status st;

    for (c = 0; c < N_ELEMS(caps); c++) {
        snprintf(ctx, sizeof ctx, "bad Punycode %d \"%s\" capacity %zu", _i, show(v->in, v->len),
                 caps[c]);
        st = guarded_decode(&b, v->in, v->len, caps[c], 1, &len, ctx);
        ck_assert_msg(st == v->want, "%s: decode gave %s, want %s", ctx, idng_status_symbol(st),
                      idng_status_symbol(v->want));
    }
}
END_TEST

/* ------------------------------------------------------------------ */
/* Boundaries of the code point range, both directions                 */

typedef struct {
    uint32_t cp;
    const char *puny;
    idng_status want;
} boundary_vector;

/* The strings are the encodings of cp alone (first delta cp - 0x80 at bias
 * 72), so that each failing row is the next value after a passing one. */
static const boundary_vector boundary_vectors[] = {
    { 0x80, "a", IDNG_OK },
    { 0x10FFFF, "dn32g", IDNG_OK },
    { 0x110000, "en32g", IDNG_E_CODEPOINT_MAX },
    { 0xD7FF, "hb9b", IDNG_OK },
    { 0xD800, "ib9b", IDNG_E_SURROGATE },
    { 0xDFFF, "zy0c", IDNG_E_SURROGATE },
    { 0xE000, "0y0c", IDNG_OK },
};

START_TEST(test_boundary)
{
    const boundary_vector *v = &boundary_vectors[_i];
    char ctx[256];
    size_t len;
    cp_buf d;
    ascii_buf e;
    idng_status st;

    snprintf(ctx, sizeof ctx, "boundary %d U+%04X \"%s\"", _i, (unsigned)v->cp, v->puny);
    st = guarded_decode(&d, v->puny, strlen(v->puny), MAX_CPS, 1, &len, ctx);
    ck_assert_msg(st == v->want, "%s: decode gave %s, want %s", ctx, idng_status_symbol(st),
                  idng_status_symbol(v->want));
    if (st == IDNG_OK)
        ck_assert_msg(len == 1 && d.cp[GUARD] == v->cp, "%s: decode gave %s", ctx,
                      show_cps(d.cp + GUARD, len));

    st = guarded_encode(&e, &v->cp, 1, NULL, MAX_OCTETS, &len, ctx);
    ck_assert_msg(st == v->want, "%s: encode gave %s, want %s", ctx, idng_status_symbol(st),
                  idng_status_symbol(v->want));
    if (st == IDNG_OK)
        ck_assert_msg(len == strlen(v->puny) && memcmp(e.s + GUARD, v->puny, len) == 0,
                      "%s: encode gave \"%.*s\"", ctx, (int)len, e.s + GUARD);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Encoder input errors                                                 */

typedef struct {
    const char *what;
    uint32_t cps[4];
    size_t ncps;
    idng_status want;
} bad_cps;

static const bad_cps bad_cps_vectors[] = {
    { "lone high surrogate", { 0xD800 }, 1, IDNG_E_SURROGATE },
    { "low surrogate after ASCII", { 'a', 'b', 0xDFFF }, 3, IDNG_E_SURROGATE },
    { "surrogate among non-ASCII", { 0xFC, 0xDBFF, 0x4F8B }, 3, IDNG_E_SURROGATE },
    { "U+110000", { 0x110000 }, 1, IDNG_E_CODEPOINT_MAX },
    { "0xFFFFFFFF after ASCII", { 'a', 0xFFFFFFFFu }, 2, IDNG_E_CODEPOINT_MAX },
    { "0x80000000 among non-ASCII", { 0xFC, 0x80000000u, 0x10FFFF }, 3, IDNG_E_CODEPOINT_MAX },
};

START_TEST(test_encode_bad)
{
    const bad_cps *v = &bad_cps_vectors[_i];
    /* Ample room, then none and one: an input error outranks NOSPACE. */
    static const size_t caps[] = { MAX_OCTETS, 0, 1 };
    unsigned char flags[4] = { 1, 0, 1, 0 };
    char ctx[256];
    size_t c, len;
    ascii_buf b;
    idng_status st;

    for (c = 0; c < N_ELEMS(caps); c++) {
        snprintf(ctx, sizeof ctx, "bad code points %d (%s) %s capacity %zu", _i, v->what,
                 show_cps(v->cps, v->ncps), caps[c]);
        st = guarded_encode(&b, v->cps, v->ncps, NULL, caps[c], &len, ctx);
        ck_assert_msg(st == v->want, "%s: encode gave %s, want %s", ctx, idng_status_symbol(st),
                      idng_status_symbol(v->want));
        st = guarded_encode(&b, v->cps, v->ncps, flags, caps[c], &len, ctx);
        ck_assert_msg(st == v->want, "%s: encode with flags gave %s, want %s", ctx,
                      idng_status_symbol(st), idng_status_symbol(v->want));
    }
}
END_TEST

static Suite *punycode_suite(void)
{
    Suite *s = suite_create("punycode");
    TCase *tc;

    tc = tcase_create("rfc3492");
    tcase_add_loop_test(tc, test_rfc_encode, 0, (int)N_ELEMS(rfc_vectors));
    tcase_add_loop_test(tc, test_rfc_decode, 0, (int)N_ELEMS(rfc_vectors));
    suite_add_tcase(s, tc);

    tc = tcase_create("vectors");
    tcase_add_loop_test(tc, test_text_encode, 0, (int)N_ELEMS(text_vectors));
    tcase_add_loop_test(tc, test_text_decode, 0, (int)N_ELEMS(text_vectors));
    tcase_add_loop_test(tc, test_boundary, 0, (int)N_ELEMS(boundary_vectors));
    suite_add_tcase(s, tc);

    tc = tcase_create("errors");
    tcase_add_loop_test(tc, test_decode_bad, 0, (int)N_ELEMS(bad_puny_vectors));
    tcase_add_loop_test(tc, test_encode_bad, 0, (int)N_ELEMS(bad_cps_vectors));
    suite_add_tcase(s, tc);

    return s;
}

IDNG_TEST_MAIN(punycode_suite)
