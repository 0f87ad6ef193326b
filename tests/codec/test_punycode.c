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
#include "common.h"

#include "idnguard.h"

#include <stdio.h>
#include <string.h>

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))
/* A string literal and its length, so rows may hold NUL octets. */
#define LIT(s) s, sizeof(s) - 1

/* Canary elements on each side of every output buffer. */
#define GUARD 16
#define CANARY_CP 0xDEADBEEFu
#define CANARY_BYTE 0xA5
/* Largest output any test here asks for, in code points and octets. */
#define MAX_CPS 128
#define MAX_OCTETS 512

/* ------------------------------------------------------------------ */
/* Helpers                                                              */

/* Input shown in messages: printable ASCII as is, other octets escaped. */
static const char *show(const char *s, size_t len)
{
    static char buf[4 * 256 + 1];
    size_t i, n = 0;

    for (i = 0; i < len && n + 5 < sizeof buf; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7F)
            buf[n++] = (char)c;
        else
            n += (size_t)snprintf(buf + n, sizeof buf - n, "\\x%02x", c);
    }
    buf[n] = '\0';
    return buf;
}

/* Code points shown in messages as "U+0041 U+00FC ...". */
static const char *show_cps(const uint32_t *cps, size_t n)
{
    static char buf[10 * 64 + 8];
    size_t i, len = 0;

    buf[0] = '\0';
    for (i = 0; i < n && len + 12 < sizeof buf; i++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%sU+%04X", i ? " " : "",
                                (unsigned)cps[i]);
    if (i < n)
        snprintf(buf + len, sizeof buf - len, " ...");
    return buf;
}

/* Output buffers with GUARD canaries before them; everything from the
 * capacity on is canary too, since nothing may be written there. */
typedef struct {
    uint32_t cp[GUARD + MAX_CPS + GUARD];
    unsigned char fl[GUARD + MAX_CPS + GUARD];
} cp_buf;

typedef struct {
    char s[GUARD + MAX_OCTETS + GUARD];
} ascii_buf;

/* Index of the first element outside [GUARD, GUARD + cap) that lost its
 * canary, or -1.  Scanned first and asserted once, since every Check
 * assertion costs a write to the runner. */
static long first_bad_cp(const uint32_t *a, size_t total, size_t cap)
{
    size_t k;

    for (k = 0; k < total; k++)
        if ((k < GUARD || k >= GUARD + cap) && a[k] != CANARY_CP)
            return (long)k;
    return -1;
}

static long first_bad_byte(const unsigned char *a, size_t total, size_t cap)
{
    size_t k;

    for (k = 0; k < total; k++)
        if ((k < GUARD || k >= GUARD + cap) && a[k] != CANARY_BYTE)
            return (long)k;
    return -1;
}

static void check_cp_guards(const cp_buf *b, size_t cap, int flags_used, const char *ctx)
{
    long bad = first_bad_cp(b->cp, N_ELEMS(b->cp), cap);

    ck_assert_msg(bad < 0, "%s: code point written at offset %ld with capacity %zu", ctx,
                  bad - GUARD, cap);
    /* With flags NULL no flag element may change at all. */
    bad = first_bad_byte(b->fl, N_ELEMS(b->fl), flags_used ? cap : 0);
    ck_assert_msg(bad < 0, "%s: case flag written at offset %ld with capacity %zu%s", ctx,
                  bad - GUARD, cap, flags_used ? "" : " (flags NULL)");
}

static void check_ascii_guards(const ascii_buf *b, size_t cap, const char *ctx)
{
    long bad = first_bad_byte((const unsigned char *)b->s, N_ELEMS(b->s), cap);

    ck_assert_msg(bad < 0, "%s: octet written at offset %ld with capacity %zu", ctx, bad - GUARD,
                  cap);
}

/* Decodes with capacity cap into b (result at b->cp + GUARD) and checks
 * the canaries whatever the status. */
static idng_status guarded_decode(cp_buf *b, const char *in, size_t inlen, size_t cap,
                                  int want_flags, size_t *outlen, const char *ctx)
{
    idng_status st;

    ck_assert_msg(cap <= MAX_CPS, "%s: capacity %zu too large for the test buffer", ctx, cap);
    for (size_t k = 0; k < N_ELEMS(b->cp); k++)
        b->cp[k] = CANARY_CP;
    memset(b->fl, CANARY_BYTE, sizeof b->fl);
    *outlen = cap;
    st = idng_punycode_decode(in, inlen, b->cp + GUARD, outlen, want_flags ? b->fl + GUARD : NULL);
    check_cp_guards(b, cap, want_flags, ctx);
    return st;
}

/* Encodes with capacity cap into b (result at b->s + GUARD) and checks
 * the canaries whatever the status. */
static idng_status guarded_encode(ascii_buf *b, const uint32_t *in, size_t inlen,
                                  const unsigned char *flags, size_t cap, size_t *outlen,
                                  const char *ctx)
{
    idng_status st;

    ck_assert_msg(cap <= MAX_OCTETS, "%s: capacity %zu too large for the test buffer", ctx, cap);
    memset(b->s, CANARY_BYTE, sizeof b->s);
    *outlen = cap;
    st = idng_punycode_encode(in, inlen, flags, b->s + GUARD, outlen);
    check_ascii_guards(b, cap, ctx);
    return st;
}

/* ASCII case-insensitive equality of n octets. */
static int ascii_caseeq(const char *a, const char *b, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x >= 'A' && x <= 'Z')
            x = (unsigned char)(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z')
            y = (unsigned char)(y - 'A' + 'a');
        if (x != y)
            return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ */
/* RFC 3492 section 7.1                                                 */

/* The RFC writes "U+" where the case annotation is uppercase and "u+"
 * where it is lowercase; U() marks the former in a spare high bit, so the
 * rows below read exactly like the RFC. */
#define UPPER_BIT 0x80000000u
#define U(cp) ((cp) | UPPER_BIT)
#define u(cp) (cp)

static const uint32_t rfc_a[] = {
    u(0x0644), u(0x064A), u(0x0647), u(0x0645), u(0x0627), u(0x0628),
    u(0x062A), u(0x0643), u(0x0644), u(0x0645), u(0x0648), u(0x0634),
    u(0x0639), u(0x0631), u(0x0628), u(0x064A), u(0x061F)
};
static const uint32_t rfc_b[] = {
    u(0x4ED6), u(0x4EEC), u(0x4E3A), u(0x4EC0), u(0x4E48), u(0x4E0D),
    u(0x8BF4), u(0x4E2D), u(0x6587)
};
static const uint32_t rfc_c[] = {
    u(0x4ED6), u(0x5011), u(0x7232), u(0x4EC0), u(0x9EBD), u(0x4E0D),
    u(0x8AAA), u(0x4E2D), u(0x6587)
};
static const uint32_t rfc_d[] = {
    U(0x0050), u(0x0072), u(0x006F), u(0x010D), u(0x0070), u(0x0072),
    u(0x006F), u(0x0073), u(0x0074), u(0x011B), u(0x006E), u(0x0065),
    u(0x006D), u(0x006C), u(0x0075), u(0x0076), u(0x00ED), u(0x010D),
    u(0x0065), u(0x0073), u(0x006B), u(0x0079)
};
static const uint32_t rfc_e[] = {
    u(0x05DC), u(0x05DE), u(0x05D4), u(0x05D4), u(0x05DD), u(0x05E4),
    u(0x05E9), u(0x05D5), u(0x05D8), u(0x05DC), u(0x05D0), u(0x05DE),
    u(0x05D3), u(0x05D1), u(0x05E8), u(0x05D9), u(0x05DD), u(0x05E2),
    u(0x05D1), u(0x05E8), u(0x05D9), u(0x05EA)
};
static const uint32_t rfc_f[] = {
    u(0x092F), u(0x0939), u(0x0932), u(0x094B), u(0x0917), u(0x0939),
    u(0x093F), u(0x0928), u(0x094D), u(0x0926), u(0x0940), u(0x0915),
    u(0x094D), u(0x092F), u(0x094B), u(0x0902), u(0x0928), u(0x0939),
    u(0x0940), u(0x0902), u(0x092C), u(0x094B), u(0x0932), u(0x0938),
    u(0x0915), u(0x0924), u(0x0947), u(0x0939), u(0x0948), u(0x0902)
};
static const uint32_t rfc_g[] = {
    u(0x306A), u(0x305C), u(0x307F), u(0x3093), u(0x306A), u(0x65E5),
    u(0x672C), u(0x8A9E), u(0x3092), u(0x8A71), u(0x3057), u(0x3066),
    u(0x304F), u(0x308C), u(0x306A), u(0x3044), u(0x306E), u(0x304B)
};
static const uint32_t rfc_h[] = {
    u(0xC138), u(0xACC4), u(0xC758), u(0xBAA8), u(0xB4E0), u(0xC0AC),
    u(0xB78C), u(0xB4E4), u(0xC774), u(0xD55C), u(0xAD6D), u(0xC5B4),
    u(0xB97C), u(0xC774), u(0xD574), u(0xD55C), u(0xB2E4), u(0xBA74),
    u(0xC5BC), u(0xB9C8), u(0xB098), u(0xC88B), u(0xC744), u(0xAE4C)
};
static const uint32_t rfc_i[] = {
    U(0x043F), u(0x043E), u(0x0447), u(0x0435), u(0x043C), u(0x0443),
    u(0x0436), u(0x0435), u(0x043E), u(0x043D), u(0x0438), u(0x043D),
    u(0x0435), u(0x0433), u(0x043E), u(0x0432), u(0x043E), u(0x0440),
    u(0x044F), u(0x0442), u(0x043F), u(0x043E), u(0x0440), u(0x0443),
    u(0x0441), u(0x0441), u(0x043A), u(0x0438)
};
static const uint32_t rfc_j[] = {
    U(0x0050), u(0x006F), u(0x0072), u(0x0071), u(0x0075), u(0x00E9),
    u(0x006E), u(0x006F), u(0x0070), u(0x0075), u(0x0065), u(0x0064),
    u(0x0065), u(0x006E), u(0x0073), u(0x0069), u(0x006D), u(0x0070),
    u(0x006C), u(0x0065), u(0x006D), u(0x0065), u(0x006E), u(0x0074),
    u(0x0065), u(0x0068), u(0x0061), u(0x0062), u(0x006C), u(0x0061),
    u(0x0072), u(0x0065), u(0x006E), U(0x0045), u(0x0073), u(0x0070),
    u(0x0061), u(0x00F1), u(0x006F), u(0x006C)
};
static const uint32_t rfc_k[] = {
    U(0x0054), u(0x1EA1), u(0x0069), u(0x0073), u(0x0061), u(0x006F),
    u(0x0068), u(0x1ECD), u(0x006B), u(0x0068), u(0x00F4), u(0x006E),
    u(0x0067), u(0x0074), u(0x0068), u(0x1EC3), u(0x0063), u(0x0068),
    u(0x1EC9), u(0x006E), u(0x00F3), u(0x0069), u(0x0074), u(0x0069),
    u(0x1EBF), u(0x006E), u(0x0067), U(0x0056), u(0x0069), u(0x1EC7),
    u(0x0074)
};
static const uint32_t rfc_l[] = {
    u(0x0033), u(0x5E74), U(0x0042), u(0x7D44), u(0x91D1), u(0x516B),
    u(0x5148), u(0x751F)
};
static const uint32_t rfc_m[] = {
    u(0x5B89), u(0x5BA4), u(0x5948), u(0x7F8E), u(0x6075), u(0x002D),
    u(0x0077), u(0x0069), u(0x0074), u(0x0068), u(0x002D), U(0x0053),
    U(0x0055), U(0x0050), U(0x0045), U(0x0052), u(0x002D), U(0x004D),
    U(0x004F), U(0x004E), U(0x004B), U(0x0045), U(0x0059), U(0x0053)
};
static const uint32_t rfc_n[] = {
    U(0x0048), u(0x0065), u(0x006C), u(0x006C), u(0x006F), u(0x002D),
    U(0x0041), u(0x006E), u(0x006F), u(0x0074), u(0x0068), u(0x0065),
    u(0x0072), u(0x002D), U(0x0057), u(0x0061), u(0x0079), u(0x002D),
    u(0x305D), u(0x308C), u(0x305E), u(0x308C), u(0x306E), u(0x5834),
    u(0x6240)
};
static const uint32_t rfc_o[] = {
    u(0x3072), u(0x3068), u(0x3064), u(0x5C4B), u(0x6839), u(0x306E),
    u(0x4E0B), u(0x0032)
};
static const uint32_t rfc_p[] = {
    U(0x004D), u(0x0061), u(0x006A), u(0x0069), u(0x3067), U(0x004B),
    u(0x006F), u(0x0069), u(0x3059), u(0x308B), u(0x0035), u(0x79D2),
    u(0x524D)
};
static const uint32_t rfc_q[] = {
    u(0x30D1), u(0x30D5), u(0x30A3), u(0x30FC), u(0x0064), u(0x0065),
    u(0x30EB), u(0x30F3), u(0x30D0)
};
static const uint32_t rfc_r[] = {
    u(0x305D), u(0x306E), u(0x30B9), u(0x30D4), u(0x30FC), u(0x30C9),
    u(0x3067)
};
static const uint32_t rfc_s[] = {
    u(0x002D), u(0x003E), u(0x0020), u(0x0024), u(0x0031), u(0x002E),
    u(0x0030), u(0x0030), u(0x0020), u(0x003C), u(0x002D)
};
#undef U
#undef u

typedef struct {
    const char *label;
    const uint32_t *cps; /* with UPPER_BIT where the RFC prints "U+" */
    size_t ncps;
    const char *puny;
} rfc_vector;

#define RFC_CPS(a) a, N_ELEMS(a)

static const rfc_vector rfc_vectors[] = {
    { "(A)", RFC_CPS(rfc_a), "egbpdaj6bu4bxfgehfvwxn" },
    { "(B)", RFC_CPS(rfc_b), "ihqwcrb4cv8a8dqg056pqjye" },
    { "(C)", RFC_CPS(rfc_c), "ihqwctvzc91f659drss3x8bo0yb" },
    { "(D)", RFC_CPS(rfc_d), "Proprostnemluvesky-uyb24dma41a" },
    { "(E)", RFC_CPS(rfc_e), "4dbcagdahymbxekheh6e0a7fei0b" },
    { "(F)", RFC_CPS(rfc_f), "i1baa7eci9glrd9b2ae1bj0hfcgg6iyaf8o0a1dig0cd" },
    { "(G)", RFC_CPS(rfc_g), "n8jok5ay5dzabd5bym9f0cm5685rrjetr6pdxa" },
    { "(H)", RFC_CPS(rfc_h), "989aomsvi5e83db1d2a355cv1e0vak1dwrv93d5xbh15a0dt30a5j"
              "psd879ccm6fea98c" },
    { "(I)", RFC_CPS(rfc_i), "b1abfaaepdrnnbgefbaDotcwatmq2g4l" },
    { "(J)", RFC_CPS(rfc_j), "PorqunopuedensimplementehablarenEspaol-fmd56a" },
    { "(K)", RFC_CPS(rfc_k), "TisaohkhngthchnitingVit-kjcr8268qyxafd2f1b9g" },
    { "(L)", RFC_CPS(rfc_l), "3B-ww4c5e180e575a65lsy2b" },
    { "(M)", RFC_CPS(rfc_m), "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n" },
    { "(N)", RFC_CPS(rfc_n), "Hello-Another-Way--fc4qua05auwb3674vfr0b" },
    { "(O)", RFC_CPS(rfc_o), "2-u9tlzr9756bt3uc0v" },
    { "(P)", RFC_CPS(rfc_p), "MajiKoi5-783gue6qz075azm5e" },
    { "(Q)", RFC_CPS(rfc_q), "de-jg4avhby1noc0d" },
    { "(R)", RFC_CPS(rfc_r), "d9juau41awczczp" },
    { "(S)", RFC_CPS(rfc_s), "-> $1.00 <--" },
};

/* Splits a row into code points and case flags (1 for "U+"). */
static size_t rfc_unpack(const rfc_vector *v, uint32_t *cps, unsigned char *flags)
{
    size_t k;

    ck_assert(v->ncps <= MAX_CPS);
    for (k = 0; k < v->ncps; k++) {
        cps[k] = v->cps[k] & ~UPPER_BIT;
        flags[k] = (v->cps[k] & UPPER_BIT) != 0;
    }
    return v->ncps;
}

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

/* ------------------------------------------------------------------ */
/* Further known encodings, without case flags                          */

typedef struct {
    const char *text; /* UTF-8 */
    const char *puny;
} text_vector;

static const text_vector text_vectors[] = {
    /* Only basic code points: copied and followed by the delimiter (6.3),
     * hyphens included; the empty string has no delimiter. */
    { "", "" },
    { "a", "a-" },
    { "A", "A-" },
    { "3", "3-" },
    { "-", "--" },
    { "--", "---" },
    { "London", "London-" },
    { "Lloyd-Atkinson", "Lloyd-Atkinson-" },
    { "This has spaces", "This has spaces-" },
    { "-> $1.00 <-", "-> $1.00 <--" },
    /* Single code points: one delta each. */
    { "\u0431", "90a" },
    { "\u00FC", "tda" },
    { "\u03B1", "mxa" },
    { "\u4F8B", "fsq" },
    { "\U0001F609", "n28h" },
    { "\u03B1\u03B2\u03B3", "mxacd" },
    /* Mixed basic and non-basic. */
    { "München", "Mnchen-3ya" },
    { "Mnchen-3ya", "Mnchen-3ya-" },
    { "München-Ost", "Mnchen-Ost-9db" },
    { "Bahnhof München-Ost", "Bahnhof Mnchen-Ost-u6b" },
    { "abæcdöef", "abcdef-qua4k" },
    { "правда", "80aafi6cg" },
    { "도메인", "hq1bm8jm9l" },
    { "ドメイン名例", "eckwd4c7cu47r2wf" },
    { "Majiでkoiする5秒前", "Majikoi5-783gue6qz075azm5e" },
    { "「bücher」", "bcher-kva8445foa" },
    /* Thai U+0E22 U+0E08 U+0E06 U+0E1F U+0E04 U+0E0F U+0E02. */
    { "\u0E22\u0E08\u0E06\u0E1F\u0E04\u0E0F\u0E02", "22cdfh1b8fsa" },
};

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
        ck_assert_msg(len == n && memcmp(b.cp + GUARD, cps, n * sizeof *cps) == 0,
                      "%s: gave %s", ctx, show_cps(b.cp + GUARD, len));
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
    static const uint32_t late_surrogate[] = { 'a', 'b', 'c', 0xFC, 0xD800 };
    static const uint32_t late_too_big[] = { 'a', 'b', 'c', 0xFC, 0x110000 };
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
        static const uint32_t edges[] = { 0x00, 0x7F, 0x80, 0xFF, 0xD7FF, 0xE000, 0xFFFF,
                                          0x10000, 0x10FFFF };
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
                      "%s: \"%s\" re-encodes to \"%.*s\"", ctx, show(e.s + GUARD, elen),
                      (int)rlen, r.s + GUARD);
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

    tc = tcase_create("buffers");
    tcase_add_loop_test(tc, test_space_rfc, 0, (int)N_ELEMS(rfc_vectors));
    tcase_add_loop_test(tc, test_space_text, 0, (int)N_ELEMS(text_vectors));
    tcase_add_test(tc, test_error_before_nospace);
    suite_add_tcase(s, tc);

    tc = tcase_create("property");
    tcase_add_loop_test(tc, test_roundtrip, 0, PROP_BATCHES);
    tcase_add_loop_test(tc, test_canonical, 0, CANON_MAXLEN + 1);
    suite_add_tcase(s, tc);

    return s;
}

IDNG_TEST_MAIN(punycode_suite)
