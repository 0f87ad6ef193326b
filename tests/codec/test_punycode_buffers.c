/**
 * \file
 * Tests of the Punycode codec, the second part (the first is
 * test_punycode.c; punycode_check.h what both share):
 * - buffer discipline: every capacity around the exact size, canaries on
 *   both sides of every output buffer, input errors before NOSPACE (the
 *   bug class of OpenSSL CVE-2022-3602);
 * - a seeded round-trip property over random code point strings;
 * - the converse, exhaustively on short inputs: every lowercase Punycode
 *   string that decodes to something non-basic re-encodes to itself, which
 *   is why the A-label check needs no re-encoding (codec/label.c).
 */
#include "punycode_check.h"

/* ------------------------------------------------------------------ */
/* Buffer discipline                                                    */

/* Decodes puny at every capacity from 0 to two past the decoded length n:
 * below n it must be NOSPACE reporting n, from n on it must succeed with
 * the right result, and no call may touch the canaries. */
static void decode_all_caps(const char *puny, const uint32_t *cps, const unsigned char *flags,
                            size_t n, const char *what)
{
    char ctx[256];
    size_t cap, len;
    cp_buf b;
    idng_status st;

    for (cap = 0; cap <= n + 2 && cap <= MAX_CPS; cap++) {
        int with_flags = (cap % 2) == 0 || flags != NULL;

        snprintf(ctx, sizeof ctx, "%s \"%s\" decode capacity %zu of %zu", what, puny, cap, n);
        st = guarded_decode(&b, puny, strlen(puny), cap, with_flags, &len, ctx);
        if (cap < n) {
            ck_assert_msg(st == IDNG_E_NOSPACE, "%s: gave %s, want IDNG_E_NOSPACE", ctx,
                          idng_status_symbol(st));
            ck_assert_msg(len == n, "%s: NOSPACE reported %zu code points needed", ctx, len);
            continue;
        }
        ck_assert_msg(st == IDNG_OK, "%s: gave %s", ctx, idng_status_symbol(st));
        ck_assert_msg(len == n && memcmp(b.cp + GUARD, cps, n * sizeof *cps) == 0, "%s: gave %s",
                      ctx, show_cps(b.cp + GUARD, len));
        if (flags != NULL)
            ck_assert_msg(memcmp(b.fl + GUARD, flags, n) == 0, "%s: wrong case flags", ctx);
    }
}

/* Encodes at every capacity from 0 to two past the encoded length m: below
 * m NOSPACE reporting m; at exactly m success with no NUL (no room for
 * it); above m success with the NUL. */
static void encode_all_caps(const uint32_t *cps, const unsigned char *flags, size_t n,
                            const char *puny, const char *what)
{
    size_t m = strlen(puny), cap, len;
    char ctx[256];
    ascii_buf b;
    idng_status st;

    for (cap = 0; cap <= m + 2; cap++) {
        snprintf(ctx, sizeof ctx, "%s \"%s\" encode capacity %zu of %zu", what, puny, cap, m);
        st = guarded_encode(&b, cps, n, flags, cap, &len, ctx);
        if (cap < m) {
            ck_assert_msg(st == IDNG_E_NOSPACE, "%s: gave %s, want IDNG_E_NOSPACE", ctx,
                          idng_status_symbol(st));
            ck_assert_msg(len == m, "%s: NOSPACE reported %zu octets needed", ctx, len);
            continue;
        }
        ck_assert_msg(st == IDNG_OK, "%s: gave %s", ctx, idng_status_symbol(st));
        ck_assert_msg(len == m && memcmp(b.s + GUARD, puny, m) == 0, "%s: gave \"%.*s\"", ctx,
                      (int)len, b.s + GUARD);
        /* At cap == m the guard check already proved out[m] untouched. */
        if (cap > m)
            ck_assert_msg(b.s[GUARD + m] == '\0', "%s: no NUL with room for it", ctx);
    }
}

START_TEST(test_space_rfc)
{
    const rfc_vector *v = &rfc_vectors[_i];
    uint32_t cps[MAX_CPS];
    unsigned char flags[MAX_CPS];
    size_t n = rfc_unpack(v, cps, flags);
    char what[64];

    snprintf(what, sizeof what, "RFC vector %d %s", _i, v->label);
    decode_all_caps(v->puny, cps, flags, n, what);
    encode_all_caps(cps, flags, n, v->puny, what);
}
END_TEST

START_TEST(test_space_text)
{
    const text_vector *v = &text_vectors[_i];
    uint32_t cps[MAX_CPS];
    size_t n = t_utf8_to_cps(v->text, cps, MAX_CPS);
    char what[128];

    snprintf(what, sizeof what, "text vector %d \"%s\"", _i, v->text);
    decode_all_caps(v->puny, cps, NULL, n, what);
    encode_all_caps(cps, NULL, n, v->puny, what);
}
END_TEST

/* Named cases of input errors outranking NOSPACE: the codec must keep
 * reading after the output is full. */
START_TEST(test_error_before_nospace)
{
    static const uint32_t late_surrogate[] = {'a', 'b', 'c', 0xFC, 0xD800};
    static const uint32_t late_too_big[] = {'a', 'b', 'c', 0xFC, 0x110000};
    size_t len;
    cp_buf d;
    ascii_buf e;
    idng_status st;

    st = guarded_decode(&d, "0000h", 5, 0, 1, &len, "\"0000h\" capacity 0");
    ck_assert_msg(st == IDNG_E_CODEPOINT_MAX, "\"0000h\" capacity 0: gave %s",
                  idng_status_symbol(st));
    st = guarded_decode(&d, "abcdef-tda!", 11, 2, 1, &len, "\"abcdef-tda!\" capacity 2");
    ck_assert_msg(st == IDNG_E_PUNY_DIGIT, "\"abcdef-tda!\" capacity 2: gave %s",
                  idng_status_symbol(st));
    st = guarded_decode(&d, "abcdef-9", 8, 6, 1, &len, "\"abcdef-9\" capacity 6");
    ck_assert_msg(st == IDNG_E_PUNY_TRUNCATED, "\"abcdef-9\" capacity 6: gave %s",
                  idng_status_symbol(st));
    st = guarded_encode(&e, late_surrogate, N_ELEMS(late_surrogate), NULL, 0, &len,
                        "abc U+00FC U+D800 capacity 0");
    ck_assert_msg(st == IDNG_E_SURROGATE, "abc U+00FC U+D800 capacity 0: gave %s",
                  idng_status_symbol(st));
    st = guarded_encode(&e, late_too_big, N_ELEMS(late_too_big), NULL, 2, &len,
                        "abc U+00FC U+110000 capacity 2");
    ck_assert_msg(st == IDNG_E_CODEPOINT_MAX, "abc U+00FC U+110000 capacity 2: gave %s",
                  idng_status_symbol(st));
}
END_TEST

/* ------------------------------------------------------------------ */
/* Round-trip property                                                  */

#define PROP_BATCHES 64
#define PROP_PER_BATCH 64
#define PROP_MAXLEN 40

static uint32_t xorshift32(uint32_t *state)
{
    uint32_t x = *state;

    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

/* A scalar value from a mix of ranges, with the edges of each range more
 * likely than chance would make them. */
static uint32_t random_cp(uint32_t *state)
{
    uint32_t r = xorshift32(state), v = xorshift32(state);

    switch (r % 6) {
    case 0:
        return v % 0x80; /* ASCII, controls included */
    case 1:
        return 'a' + v % 26; /* letters, to exercise the case flags */
    case 2:
        return 0x80 + v % 0x80; /* Latin-1 */
    case 3:
        v = 0x100 + v % (0x10000 - 0x100 - 0x800); /* BMP without surrogates */
        return v >= 0xD800 ? v + 0x800 : v;
    case 4:
        return 0x10000 + v % 0x100000; /* supplementary planes */
    default: {
        static const uint32_t edges[] = {0x00,   0x7F,   0x80,    0xFF,    0xD7FF,
                                         0xE000, 0xFFFF, 0x10000, 0x10FFFF};
        return edges[v % N_ELEMS(edges)];
    }
    }
}

static int is_lower(uint32_t c)
{
    return c >= 'a' && c <= 'z';
}

static int is_upper(uint32_t c)
{
    return c >= 'A' && c <= 'Z';
}

START_TEST(test_roundtrip)
{
    /* Each batch has its own fixed seed, so a failure names a batch and a
     * string that can be replayed alone. */
    uint32_t state = 0x2545F491u ^ ((uint32_t)_i * 0x9E3779B9u);
    int s;

    for (s = 0; s < PROP_PER_BATCH; s++) {
        uint32_t cps[PROP_MAXLEN];
        unsigned char flags[PROP_MAXLEN];
        size_t n = xorshift32(&state) % (PROP_MAXLEN + 1), k, elen, dlen, rlen;
        char ctx[768];
        ascii_buf e, r;
        cp_buf d;
        idng_status st;

        for (k = 0; k < n; k++) {
            cps[k] = random_cp(&state);
            flags[k] = (unsigned char)(xorshift32(&state) % 3); /* any nonzero counts */
        }
        snprintf(ctx, sizeof ctx, "round trip batch %d string %d [%s]", _i, s, show_cps(cps, n));

        /* Without flags the code points come back unchanged. */
        st = guarded_encode(&e, cps, n, NULL, MAX_OCTETS, &elen, ctx);
        ck_assert_msg(st == IDNG_OK, "%s: encode gave %s", ctx, idng_status_symbol(st));
        st = guarded_decode(&d, e.s + GUARD, elen, MAX_CPS, 0, &dlen, ctx);
        ck_assert_msg(st == IDNG_OK, "%s: decode of \"%s\" gave %s", ctx, show(e.s + GUARD, elen),
                      idng_status_symbol(st));
        ck_assert_msg(dlen == n && memcmp(d.cp + GUARD, cps, n * sizeof *cps) == 0,
                      "%s: \"%s\" decodes to %s", ctx, show(e.s + GUARD, elen),
                      show_cps(d.cp + GUARD, dlen));

        /* With flags: the encoder sets the case of basic letters from the
         * flags, non-basic code points carry theirs in the last digit. */
        st = guarded_encode(&e, cps, n, flags, MAX_OCTETS, &elen, ctx);
        ck_assert_msg(st == IDNG_OK, "%s: encode with flags gave %s", ctx, idng_status_symbol(st));
        st = guarded_decode(&d, e.s + GUARD, elen, MAX_CPS, 1, &dlen, ctx);
        ck_assert_msg(st == IDNG_OK && dlen == n, "%s: decode of \"%s\" gave %s, %zu code points",
                      ctx, show(e.s + GUARD, elen), idng_status_symbol(st), dlen);
        /* Find the first wrong element, then assert once. */
        for (k = 0; k < n; k++) {
            uint32_t c = cps[k], want = c;
            int up = flags[k] != 0, letter = is_lower(c) || is_upper(c);

            if (letter)
                want = up ? (is_lower(c) ? c - 'a' + 'A' : c) : (is_upper(c) ? c - 'A' + 'a' : c);
            /* Basic non-letters have no case to carry. */
            if (d.cp[GUARD + k] != want || ((c >= 0x80 || letter) && d.fl[GUARD + k] != up))
                break;
        }
        ck_assert_msg(k == n, "%s: \"%s\" decodes to %s; element %zu or its case flag %d is wrong",
                      ctx, show(e.s + GUARD, elen), show_cps(d.cp + GUARD, dlen), k,
                      k < n ? (int)d.fl[GUARD + k] : -1);

        /* Encoding what was decoded, flags included, gives the same text. */
        st = guarded_encode(&r, d.cp + GUARD, dlen, d.fl + GUARD, MAX_OCTETS, &rlen, ctx);
        ck_assert_msg(st == IDNG_OK && rlen == elen && memcmp(r.s + GUARD, e.s + GUARD, elen) == 0,
                      "%s: \"%s\" re-encodes to \"%.*s\"", ctx, show(e.s + GUARD, elen), (int)rlen,
                      r.s + GUARD);
    }
}
END_TEST

/* Every input of _i octets over the lowercase digits, then the same after
 * each basic prefix (a delimiter last among them, or inside): decoded,
 * re-encoded, compared.  Inputs that fail to decode, or decode to basic
 * code points only, are what the A-label check refuses first. */
#define CANON_MAXLEN 4

static const char canon_digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
static const char *const canon_prefixes[] = {"", "a-", "0-b-", "--"};

START_TEST(test_canonical)
{
    size_t len = (size_t)_i, total = 1, p, k, tried = 0;
    char in[16];

    for (k = 0; k < len; k++)
        total *= sizeof canon_digits - 1;
    for (p = 0; p < N_ELEMS(canon_prefixes); p++) {
        size_t pl = strlen(canon_prefixes[p]), idx;
        if (pl + len > CANON_MAXLEN + 1)
            continue;
        memcpy(in, canon_prefixes[p], pl);
        for (idx = 0; idx < total; idx++) {
            uint32_t cps[16];
            char re[32];
            size_t n = N_ELEMS(cps), rl = sizeof re, v = idx, j;
            int high = 0;
            idng_status st;

            for (k = 0; k < len; k++, v /= sizeof canon_digits - 1)
                in[pl + k] = canon_digits[v % (sizeof canon_digits - 1)];
            if (idng_punycode_decode(in, pl + len, cps, &n, NULL) != IDNG_OK)
                continue;
            for (j = 0; j < n; j++)
                high |= cps[j] >= 0x80;
            if (!high)
                continue;
            tried++;
            st = idng_punycode_encode(cps, n, NULL, re, &rl);
            ck_assert_msg(st == IDNG_OK && rl == pl + len && memcmp(re, in, rl) == 0,
                          "\"%s\" decodes to %s, which encodes to \"%.*s\" (%s)",
                          show(in, pl + len), show_cps(cps, n), (int)rl, re,
                          idng_status_symbol(st));
        }
    }
    ck_assert_msg(len == 0 || tried > 0, "no input of %zu digits decodes", len);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Against the plain algorithm                                         */

/* Section 6.3 as written: one scan of the whole input per code point
 * value, the delta counted up one step at a time, no sorting.  No
 * overflow check: the inputs below stay far from 2^32. */
static uint32_t ref_adapt(uint32_t delta, uint32_t numpoints, int firsttime)
{
    uint32_t k = 0;

    delta = firsttime ? delta / 700 : delta / 2;
    delta += delta / numpoints;
    while (delta > ((36 - 1) * 26) / 2) {
        delta /= 36 - 1;
        k += 36;
    }
    return k + (36 - 1 + 1) * delta / (delta + 38);
}

static char ref_digit(uint32_t d, int upper)
{
    if (d >= 26)
        return (char)('0' + d - 26);
    return (char)((upper ? 'A' : 'a') + d);
}

static size_t ref_encode(const uint32_t *in, const unsigned char *flags, size_t len, char *out)
{
    uint32_t n = 0x80, delta = 0, bias = 72, m;
    size_t o = 0, h, b = 0, j;

    for (j = 0; j < len; j++) {
        if (in[j] >= 0x80)
            continue;
        if (flags && is_lower(in[j]) && flags[j])
            out[o++] = (char)(in[j] - 'a' + 'A');
        else if (flags && is_upper(in[j]) && !flags[j])
            out[o++] = (char)(in[j] - 'A' + 'a');
        else
            out[o++] = (char)in[j];
        b++;
    }
    if (b > 0)
        out[o++] = '-';
    for (h = b; h < len; n++, delta++) {
        for (m = 0xFFFFFFFFu, j = 0; j < len; j++)
            if (in[j] >= n && in[j] < m)
                m = in[j];
        delta += (m - n) * (uint32_t)(h + 1);
        n = m;
        for (j = 0; j < len; j++) {
            uint32_t q, k, t;
            if (in[j] < n)
                delta++;
            if (in[j] != n)
                continue;
            for (q = delta, k = 36;; k += 36) {
                t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
                if (q < t)
                    break;
                out[o++] = ref_digit(t + (q - t) % (36 - t), 0);
                q = (q - t) / (36 - t);
            }
            out[o++] = ref_digit(q, flags && flags[j]);
            bias = ref_adapt(delta, (uint32_t)(h + 1), h == b);
            delta = 0;
            h++;
        }
    }
    return o;
}

/* The input shapes: what the encoder's sorting of (value, position) keys
 * must get right, at every length around its run and merge sizes. */
enum { SHAPE_SAME, SHAPE_UP, SHAPE_DOWN, SHAPE_FEW, SHAPE_EDGES, SHAPE_ANY, SHAPE_ZIGZAG, SHAPES };

static uint32_t shape_cp(int shape, size_t j, size_t len, uint32_t *state)
{
    static const uint32_t few[] = {'a', 'Z', 0x430, 0x431, 0x432};
    static const uint32_t edges[] = {'-', 0x80, 0x81, 0xFFFF, 0x10000, 0x10FFFE, 0x10FFFF};

    switch (shape) {
    case SHAPE_SAME:
        return 0xE9;
    case SHAPE_UP:
        return 0x4E00 + (uint32_t)j * 3;
    case SHAPE_DOWN:
        return 0x10FFFF - (uint32_t)j;
    case SHAPE_FEW:
        return few[xorshift32(state) % N_ELEMS(few)];
    case SHAPE_EDGES:
        return edges[xorshift32(state) % N_ELEMS(edges)];
    case SHAPE_ZIGZAG: /* ascending runs of 5, descending between them */
        return 0x100 + (uint32_t)((len - j / 5 * 5) * 8 + j % 5);
    default:
        return random_cp(state);
    }
}

#define REF_MAXLEN 66
#define REF_SEEDS 8

START_TEST(test_reference)
{
    uint32_t state = 0x6A09E667u ^ ((uint32_t)_i * 0x9E3779B9u);
    size_t len;
    int seed;

    for (len = 1; len <= REF_MAXLEN; len++) {
        for (seed = 0; seed < REF_SEEDS; seed++) {
            uint32_t cps[REF_MAXLEN];
            unsigned char flags[REF_MAXLEN];
            char want[MAX_OCTETS], ctx[1024];
            size_t k, wlen, elen;
            ascii_buf e;
            idng_status st;

            for (k = 0; k < len; k++) {
                cps[k] = shape_cp(_i, k, len, &state);
                flags[k] = (unsigned char)(xorshift32(&state) % 2);
            }
            snprintf(ctx, sizeof ctx, "shape %d length %zu seed %d [%s]", _i, len, seed,
                     show_cps(cps, len));
            wlen = ref_encode(cps, NULL, len, want);
            st = guarded_encode(&e, cps, len, NULL, MAX_OCTETS, &elen, ctx);
            ck_assert_msg(st == IDNG_OK && elen == wlen && memcmp(e.s + GUARD, want, wlen) == 0,
                          "%s: encode gave \"%.*s\" (%s), want \"%.*s\"", ctx, (int)elen,
                          e.s + GUARD, idng_status_symbol(st), (int)wlen, want);
            wlen = ref_encode(cps, flags, len, want);
            st = guarded_encode(&e, cps, len, flags, MAX_OCTETS, &elen, ctx);
            ck_assert_msg(st == IDNG_OK && elen == wlen && memcmp(e.s + GUARD, want, wlen) == 0,
                          "%s: encode with flags gave \"%.*s\" (%s), want \"%.*s\"", ctx, (int)elen,
                          e.s + GUARD, idng_status_symbol(st), (int)wlen, want);
        }
    }
}
END_TEST

static Suite *punycode_buffers_suite(void)
{
    Suite *s = suite_create("punycode-buffers");
    TCase *tc;

    tc = tcase_create("buffers");
    tcase_add_loop_test(tc, test_space_rfc, 0, (int)N_ELEMS(rfc_vectors));
    tcase_add_loop_test(tc, test_space_text, 0, (int)N_ELEMS(text_vectors));
    tcase_add_test(tc, test_error_before_nospace);
    suite_add_tcase(s, tc);

    tc = tcase_create("property");
    tcase_add_loop_test(tc, test_roundtrip, 0, PROP_BATCHES);
    tcase_add_loop_test(tc, test_canonical, 0, CANON_MAXLEN + 1);
    tcase_add_loop_test(tc, test_reference, 0, SHAPES);
    suite_add_tcase(s, tc);

    return s;
}

IDNG_TEST_MAIN(punycode_buffers_suite)
