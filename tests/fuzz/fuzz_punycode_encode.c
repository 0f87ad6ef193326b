/**
 * \file
 * Fuzz target: idng_punycode_encode on arbitrary code points, then
 * idng_punycode_decode on the result.
 *
 * Input: byte 0 is a control byte (bit 0: pass case flags; bits 1-7: a
 * capacity offset); then 4 octets per code point: 3 give a value taken
 * modulo 0x110000 (surrogates included), or, when the first of them is
 * 0xFF, a value above U+10FFFF; bit 0 of the 4th is the case flag.
 *
 * Invariants:
 * - a code point above U+10FFFF or a surrogate is refused with its own
 *   status (the first one in input order), anything else encodes or
 *   overflows (IDNG_E_PUNY_OVERFLOW, only for long inputs);
 * - at every capacity (0, needed - 1, needed, needed + 1, one from the
 *   input) into heap buffers of exactly that size: nothing written past it
 *   (ASan), OK iff cap >= needed, the same output as with room to spare,
 *   NUL-terminated only when there is room;
 * - the output is ASCII: basic code points as they are (case per flag for
 *   letters), then '-' if there were any, then lowercase letters and digits
 *   (uppercase only as a flagged final digit);
 * - decode(encode(x)) == x, with the basic letters' case set by their flags
 *   when flags are given, and the flags round trip: 1 exactly where a
 *   non-basic code point was flagged or a basic letter is uppercase.
 */
#include "fuzz_common.h"

static int is_upper(uint32_t c)
{
    return c >= 'A' && c <= 'Z';
}
static int is_lower(uint32_t c)
{
    return c >= 'a' && c <= 'z';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n, i, need, len, caps[5], k, dn;
    uint32_t *cp, *dec;
    unsigned char *cf, *dcf;
    int use_flags;
    char *big, *out;
    idng_status st0, st, want = IDNG_OK;

    if (size < 1)
        return 0;
    use_flags = data[0] & 1;
    n = (size - 1) / 4;
    cp = fuzz_alloc(n * sizeof *cp);
    cf = fuzz_alloc(n);
    for (i = 0; i < n; i++) {
        const uint8_t *p = data + 1 + 4 * i;
        uint32_t v = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
        cp[i] = p[0] == 0xFF ? 0x110000u + ((uint32_t)p[1] << 8 | p[2]) * 0x101u : v % 0x110000u;
        cf[i] = p[3] & 1;
        if (want == IDNG_OK && cp[i] > 0x10FFFF)
            want = IDNG_E_CODEPOINT_MAX;
        else if (want == IDNG_OK && cp[i] >= 0xD800 && cp[i] <= 0xDFFF)
            want = IDNG_E_SURROGATE;
    }

    /* Reference: room to spare (a delta below 2^32 takes at most 16 digits). */
    need = 16 * n + 2;
    big = fuzz_alloc(need);
    len = need;
    st0 = idng_punycode_encode(cp, n, use_flags ? cf : NULL, big, &len);
    if (want != IDNG_OK) {
        FUZZ_CHECK(st0 == want, "status %d, expected %d", st0, want);
    } else {
        FUZZ_CHECK(st0 == IDNG_OK || st0 == IDNG_E_PUNY_OVERFLOW, "status %d", st0);
        FUZZ_CHECK(st0 == IDNG_OK || n >= 3000, "overflow with only %zu code points", n);
    }
    if (st0 != IDNG_OK)
        goto out;
    need = len;
    FUZZ_CHECK(need < 16 * n + 2 && big[need] == '\0', "length %zu, not NUL-terminated", need);

    /* Shape of the output. */
    {
        size_t nbasic = 0, j = 0;
        for (i = 0; i < n; i++)
            if (cp[i] < 0x80) {
                uint32_t c = cp[i];
                if (use_flags && is_lower(c) && cf[i])
                    c -= 32;
                else if (use_flags && is_upper(c) && !cf[i])
                    c += 32;
                FUZZ_CHECK((unsigned char)big[j] == c, "basic code point %zu written as 0x%02x",
                           i, (unsigned char)big[j]);
                j++;
                nbasic++;
            }
        if (nbasic > 0) {
            FUZZ_CHECK(big[j] == '-', "no delimiter after %zu basic code points", nbasic);
            j++;
        }
        FUZZ_CHECK(nbasic < n || j == need, "trailing octets after an all-basic input");
        for (; j < need; j++) {
            unsigned char c = (unsigned char)big[j];
            FUZZ_CHECK(is_lower(c) || (c >= '0' && c <= '9') || (use_flags && is_upper(c)),
                       "extended part holds 0x%02x", c);
        }
    }

    /* Capacities around the needed one, each an exact heap buffer. */
    caps[0] = 0;
    caps[1] = need ? need - 1 : 0;
    caps[2] = need;
    caps[3] = need + 1;
    caps[4] = (data[0] >> 1) % (need + 2);
    for (k = 0; k < 5; k++) {
        out = fuzz_alloc(caps[k]);
        len = caps[k];
        st = idng_punycode_encode(cp, n, use_flags ? cf : NULL, out, &len);
        FUZZ_CHECK(len == need, "cap %zu: length %zu, needed %zu", caps[k], len, need);
        if (caps[k] >= need) {
            FUZZ_CHECK(st == IDNG_OK && memcmp(out, big, need) == 0, "cap %zu: %d", caps[k], st);
            FUZZ_CHECK(caps[k] == need || out[need] == '\0', "cap %zu: no NUL", caps[k]);
        } else {
            FUZZ_CHECK(st == IDNG_E_NOSPACE, "cap %zu < %zu: status %d", caps[k], need, st);
        }
        free(out);
    }

    /* Decode it back, into exactly n code points. */
    dec = fuzz_alloc(n * sizeof *dec);
    dcf = fuzz_alloc(n);
    dn = n;
    st = idng_punycode_decode(big, need, dec, &dn, dcf);
    FUZZ_CHECK(st == IDNG_OK && dn == n, "decode(encode(x)): status %d, %zu of %zu", st, dn, n);
    for (i = 0; i < n; i++) {
        uint32_t want_cp = cp[i];
        unsigned char want_f = 0;
        if (cp[i] < 0x80) {
            if (use_flags && is_lower(want_cp) && cf[i])
                want_cp -= 32;
            else if (use_flags && is_upper(want_cp) && !cf[i])
                want_cp += 32;
            want_f = is_upper(want_cp);
        } else {
            want_f = use_flags && cf[i];
        }
        FUZZ_CHECK(dec[i] == want_cp, "code point %zu: U+%04X back as U+%04X", i,
                   (unsigned)want_cp, (unsigned)dec[i]);
        FUZZ_CHECK(dcf[i] == want_f, "case flag %zu: %u, expected %u", i, dcf[i], want_f);
    }
    free(dec);
    free(dcf);
out:
    free(big);
    free(cp);
    free(cf);
    return 0;
}
