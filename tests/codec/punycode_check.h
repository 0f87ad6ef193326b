/**
 * \file
 * What the Punycode suites (test_punycode.c, test_punycode_buffers.c)
 * share: output buffers with canaries and the calls that check them,
 * messages' views of inputs, and the vectors both read (RFC 3492 section
 * 7.1's samples, further known encodings).
 */
#ifndef IDNG_TESTS_CODEC_PUNYCODE_CHECK_H
#define IDNG_TESTS_CODEC_PUNYCODE_CHECK_H

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
/* Not inlined: its result has the size of its own buffer, not a caller's. */
static IDNG_TEST_UNUSED __attribute__((noinline)) const char *show(const char *s, size_t len)
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
static IDNG_TEST_UNUSED const char *show_cps(const uint32_t *cps, size_t n)
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
static IDNG_TEST_UNUSED long first_bad_cp(const uint32_t *a, size_t total, size_t cap)
{
    size_t k;

    for (k = 0; k < total; k++)
        if ((k < GUARD || k >= GUARD + cap) && a[k] != CANARY_CP)
            return (long)k;
    return -1;
}

static IDNG_TEST_UNUSED long first_bad_byte(const unsigned char *a, size_t total, size_t cap)
{
    size_t k;

    for (k = 0; k < total; k++)
        if ((k < GUARD || k >= GUARD + cap) && a[k] != CANARY_BYTE)
            return (long)k;
    return -1;
}

static IDNG_TEST_UNUSED void check_cp_guards(const cp_buf *b, size_t cap, int flags_used,
                                             const char *ctx)
{
    long bad = first_bad_cp(b->cp, N_ELEMS(b->cp), cap);

    ck_assert_msg(bad < 0, "%s: code point written at offset %ld with capacity %zu", ctx,
                  bad - GUARD, cap);
    /* With flags NULL no flag element may change at all. */
    bad = first_bad_byte(b->fl, N_ELEMS(b->fl), flags_used ? cap : 0);
    ck_assert_msg(bad < 0, "%s: case flag written at offset %ld with capacity %zu%s", ctx,
                  bad - GUARD, cap, flags_used ? "" : " (flags NULL)");
}

static IDNG_TEST_UNUSED void check_ascii_guards(const ascii_buf *b, size_t cap, const char *ctx)
{
    long bad = first_bad_byte((const unsigned char *)b->s, N_ELEMS(b->s), cap);

    ck_assert_msg(bad < 0, "%s: octet written at offset %ld with capacity %zu", ctx, bad - GUARD,
                  cap);
}

/* Decodes with capacity cap into b (result at b->cp + GUARD) and checks
 * the canaries whatever the status. */
static IDNG_TEST_UNUSED idng_status guarded_decode(cp_buf *b, const char *in, size_t inlen,
                                                   size_t cap, int want_flags, size_t *outlen,
                                                   const char *ctx)
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
static IDNG_TEST_UNUSED idng_status guarded_encode(ascii_buf *b, const uint32_t *in, size_t inlen,
                                                   const unsigned char *flags, size_t cap,
                                                   size_t *outlen, const char *ctx)
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
static IDNG_TEST_UNUSED int ascii_caseeq(const char *a, const char *b, size_t n)
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

static const uint32_t rfc_a[] = {u(0x0644), u(0x064A), u(0x0647), u(0x0645), u(0x0627), u(0x0628),
                                 u(0x062A), u(0x0643), u(0x0644), u(0x0645), u(0x0648), u(0x0634),
                                 u(0x0639), u(0x0631), u(0x0628), u(0x064A), u(0x061F)};
static const uint32_t rfc_b[] = {u(0x4ED6), u(0x4EEC), u(0x4E3A), u(0x4EC0), u(0x4E48),
                                 u(0x4E0D), u(0x8BF4), u(0x4E2D), u(0x6587)};
static const uint32_t rfc_c[] = {u(0x4ED6), u(0x5011), u(0x7232), u(0x4EC0), u(0x9EBD),
                                 u(0x4E0D), u(0x8AAA), u(0x4E2D), u(0x6587)};
static const uint32_t rfc_d[] = {U(0x0050), u(0x0072), u(0x006F), u(0x010D), u(0x0070), u(0x0072),
                                 u(0x006F), u(0x0073), u(0x0074), u(0x011B), u(0x006E), u(0x0065),
                                 u(0x006D), u(0x006C), u(0x0075), u(0x0076), u(0x00ED), u(0x010D),
                                 u(0x0065), u(0x0073), u(0x006B), u(0x0079)};
static const uint32_t rfc_e[] = {u(0x05DC), u(0x05DE), u(0x05D4), u(0x05D4), u(0x05DD), u(0x05E4),
                                 u(0x05E9), u(0x05D5), u(0x05D8), u(0x05DC), u(0x05D0), u(0x05DE),
                                 u(0x05D3), u(0x05D1), u(0x05E8), u(0x05D9), u(0x05DD), u(0x05E2),
                                 u(0x05D1), u(0x05E8), u(0x05D9), u(0x05EA)};
static const uint32_t rfc_f[] = {u(0x092F), u(0x0939), u(0x0932), u(0x094B), u(0x0917), u(0x0939),
                                 u(0x093F), u(0x0928), u(0x094D), u(0x0926), u(0x0940), u(0x0915),
                                 u(0x094D), u(0x092F), u(0x094B), u(0x0902), u(0x0928), u(0x0939),
                                 u(0x0940), u(0x0902), u(0x092C), u(0x094B), u(0x0932), u(0x0938),
                                 u(0x0915), u(0x0924), u(0x0947), u(0x0939), u(0x0948), u(0x0902)};
static const uint32_t rfc_g[] = {u(0x306A), u(0x305C), u(0x307F), u(0x3093), u(0x306A), u(0x65E5),
                                 u(0x672C), u(0x8A9E), u(0x3092), u(0x8A71), u(0x3057), u(0x3066),
                                 u(0x304F), u(0x308C), u(0x306A), u(0x3044), u(0x306E), u(0x304B)};
static const uint32_t rfc_h[] = {u(0xC138), u(0xACC4), u(0xC758), u(0xBAA8), u(0xB4E0), u(0xC0AC),
                                 u(0xB78C), u(0xB4E4), u(0xC774), u(0xD55C), u(0xAD6D), u(0xC5B4),
                                 u(0xB97C), u(0xC774), u(0xD574), u(0xD55C), u(0xB2E4), u(0xBA74),
                                 u(0xC5BC), u(0xB9C8), u(0xB098), u(0xC88B), u(0xC744), u(0xAE4C)};
static const uint32_t rfc_i[] = {U(0x043F), u(0x043E), u(0x0447), u(0x0435), u(0x043C), u(0x0443),
                                 u(0x0436), u(0x0435), u(0x043E), u(0x043D), u(0x0438), u(0x043D),
                                 u(0x0435), u(0x0433), u(0x043E), u(0x0432), u(0x043E), u(0x0440),
                                 u(0x044F), u(0x0442), u(0x043F), u(0x043E), u(0x0440), u(0x0443),
                                 u(0x0441), u(0x0441), u(0x043A), u(0x0438)};
static const uint32_t rfc_j[] = {
    U(0x0050), u(0x006F), u(0x0072), u(0x0071), u(0x0075), u(0x00E9), u(0x006E), u(0x006F),
    u(0x0070), u(0x0075), u(0x0065), u(0x0064), u(0x0065), u(0x006E), u(0x0073), u(0x0069),
    u(0x006D), u(0x0070), u(0x006C), u(0x0065), u(0x006D), u(0x0065), u(0x006E), u(0x0074),
    u(0x0065), u(0x0068), u(0x0061), u(0x0062), u(0x006C), u(0x0061), u(0x0072), u(0x0065),
    u(0x006E), U(0x0045), u(0x0073), u(0x0070), u(0x0061), u(0x00F1), u(0x006F), u(0x006C)};
static const uint32_t rfc_k[] = {
    U(0x0054), u(0x1EA1), u(0x0069), u(0x0073), u(0x0061), u(0x006F), u(0x0068), u(0x1ECD),
    u(0x006B), u(0x0068), u(0x00F4), u(0x006E), u(0x0067), u(0x0074), u(0x0068), u(0x1EC3),
    u(0x0063), u(0x0068), u(0x1EC9), u(0x006E), u(0x00F3), u(0x0069), u(0x0074), u(0x0069),
    u(0x1EBF), u(0x006E), u(0x0067), U(0x0056), u(0x0069), u(0x1EC7), u(0x0074)};
static const uint32_t rfc_l[] = {u(0x0033), u(0x5E74), U(0x0042), u(0x7D44),
                                 u(0x91D1), u(0x516B), u(0x5148), u(0x751F)};
static const uint32_t rfc_m[] = {u(0x5B89), u(0x5BA4), u(0x5948), u(0x7F8E), u(0x6075), u(0x002D),
                                 u(0x0077), u(0x0069), u(0x0074), u(0x0068), u(0x002D), U(0x0053),
                                 U(0x0055), U(0x0050), U(0x0045), U(0x0052), u(0x002D), U(0x004D),
                                 U(0x004F), U(0x004E), U(0x004B), U(0x0045), U(0x0059), U(0x0053)};
static const uint32_t rfc_n[] = {U(0x0048), u(0x0065), u(0x006C), u(0x006C), u(0x006F),
                                 u(0x002D), U(0x0041), u(0x006E), u(0x006F), u(0x0074),
                                 u(0x0068), u(0x0065), u(0x0072), u(0x002D), U(0x0057),
                                 u(0x0061), u(0x0079), u(0x002D), u(0x305D), u(0x308C),
                                 u(0x305E), u(0x308C), u(0x306E), u(0x5834), u(0x6240)};
static const uint32_t rfc_o[] = {u(0x3072), u(0x3068), u(0x3064), u(0x5C4B),
                                 u(0x6839), u(0x306E), u(0x4E0B), u(0x0032)};
static const uint32_t rfc_p[] = {U(0x004D), u(0x0061), u(0x006A), u(0x0069), u(0x3067),
                                 U(0x004B), u(0x006F), u(0x0069), u(0x3059), u(0x308B),
                                 u(0x0035), u(0x79D2), u(0x524D)};
static const uint32_t rfc_q[] = {u(0x30D1), u(0x30D5), u(0x30A3), u(0x30FC), u(0x0064),
                                 u(0x0065), u(0x30EB), u(0x30F3), u(0x30D0)};
static const uint32_t rfc_r[] = {u(0x305D), u(0x306E), u(0x30B9), u(0x30D4),
                                 u(0x30FC), u(0x30C9), u(0x3067)};
static const uint32_t rfc_s[] = {u(0x002D), u(0x003E), u(0x0020), u(0x0024), u(0x0031), u(0x002E),
                                 u(0x0030), u(0x0030), u(0x0020), u(0x003C), u(0x002D)};
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
    {"(A)", RFC_CPS(rfc_a), "egbpdaj6bu4bxfgehfvwxn"},
    {"(B)", RFC_CPS(rfc_b), "ihqwcrb4cv8a8dqg056pqjye"},
    {"(C)", RFC_CPS(rfc_c), "ihqwctvzc91f659drss3x8bo0yb"},
    {"(D)", RFC_CPS(rfc_d), "Proprostnemluvesky-uyb24dma41a"},
    {"(E)", RFC_CPS(rfc_e), "4dbcagdahymbxekheh6e0a7fei0b"},
    {"(F)", RFC_CPS(rfc_f), "i1baa7eci9glrd9b2ae1bj0hfcgg6iyaf8o0a1dig0cd"},
    {"(G)", RFC_CPS(rfc_g), "n8jok5ay5dzabd5bym9f0cm5685rrjetr6pdxa"},
    {"(H)", RFC_CPS(rfc_h),
     "989aomsvi5e83db1d2a355cv1e0vak1dwrv93d5xbh15a0dt30a5j"
     "psd879ccm6fea98c"},
    {"(I)", RFC_CPS(rfc_i), "b1abfaaepdrnnbgefbaDotcwatmq2g4l"},
    {"(J)", RFC_CPS(rfc_j), "PorqunopuedensimplementehablarenEspaol-fmd56a"},
    {"(K)", RFC_CPS(rfc_k), "TisaohkhngthchnitingVit-kjcr8268qyxafd2f1b9g"},
    {"(L)", RFC_CPS(rfc_l), "3B-ww4c5e180e575a65lsy2b"},
    {"(M)", RFC_CPS(rfc_m), "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"},
    {"(N)", RFC_CPS(rfc_n), "Hello-Another-Way--fc4qua05auwb3674vfr0b"},
    {"(O)", RFC_CPS(rfc_o), "2-u9tlzr9756bt3uc0v"},
    {"(P)", RFC_CPS(rfc_p), "MajiKoi5-783gue6qz075azm5e"},
    {"(Q)", RFC_CPS(rfc_q), "de-jg4avhby1noc0d"},
    {"(R)", RFC_CPS(rfc_r), "d9juau41awczczp"},
    {"(S)", RFC_CPS(rfc_s), "-> $1.00 <--"},
};

/* Splits a row into code points and case flags (1 for "U+"). */
static IDNG_TEST_UNUSED size_t rfc_unpack(const rfc_vector *v, uint32_t *cps, unsigned char *flags)
{
    size_t k;

    ck_assert(v->ncps <= MAX_CPS);
    for (k = 0; k < v->ncps; k++) {
        cps[k] = v->cps[k] & ~UPPER_BIT;
        flags[k] = (v->cps[k] & UPPER_BIT) != 0;
    }
    return v->ncps;
}

/* ------------------------------------------------------------------ */
/* Further known encodings, without case flags                          */

typedef struct {
    const char *text; /* UTF-8 */
    const char *puny;
} text_vector;

static const text_vector text_vectors[] = {
    /* Only basic code points: copied and followed by the delimiter (6.3),
     * hyphens included; the empty string has no delimiter. */
    {"", ""},
    {"a", "a-"},
    {"A", "A-"},
    {"3", "3-"},
    {"-", "--"},
    {"--", "---"},
    {"London", "London-"},
    {"Lloyd-Atkinson", "Lloyd-Atkinson-"},
    {"This has spaces", "This has spaces-"},
    {"-> $1.00 <-", "-> $1.00 <--"},
    /* Single code points: one delta each. */
    {"\u0431", "90a"},
    {"\u00FC", "tda"},
    {"\u03B1", "mxa"},
    {"\u4F8B", "fsq"},
    {"\U0001F609", "n28h"},
    {"\u03B1\u03B2\u03B3", "mxacd"},
    /* Mixed basic and non-basic. */
    {"München", "Mnchen-3ya"},
    {"Mnchen-3ya", "Mnchen-3ya-"},
    {"München-Ost", "Mnchen-Ost-9db"},
    {"Bahnhof München-Ost", "Bahnhof Mnchen-Ost-u6b"},
    {"abæcdöef", "abcdef-qua4k"},
    {"правда", "80aafi6cg"},
    {"도메인", "hq1bm8jm9l"},
    {"ドメイン名例", "eckwd4c7cu47r2wf"},
    {"Majiでkoiする5秒前", "Majikoi5-783gue6qz075azm5e"},
    {"「bücher」", "bcher-kva8445foa"},
    /* Thai U+0E22 U+0E08 U+0E06 U+0E1F U+0E04 U+0E0F U+0E02. */
    {"\u0E22\u0E08\u0E06\u0E1F\u0E04\u0E0F\u0E02", "22cdfh1b8fsa"},
};

#endif
