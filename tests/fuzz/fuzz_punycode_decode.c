/**
 * \file
 * Fuzz target: idng_punycode_decode on arbitrary bytes (the part after
 * "xn--"), then idng_punycode_encode on what it decoded.
 *
 * Invariants:
 * - the status is a known one, never IDNG_E_NOSPACE with room enough, and
 *   an input error is reported whatever the capacity (6.4 errors before
 *   NOSPACE, as documented);
 * - at every capacity (0, needed - 1, needed, needed + 1, one from the
 *   input) into heap buffers of exactly that many elements, for out and for
 *   case_flags: nothing written past them (ASan), OK iff cap >= needed,
 *   *outlen the count needed, and the same code points as with room to spare;
 * - decoded: at most one code point per input octet; code points < 0x80 are
 *   exactly the octets before the last delimiter, in order; the others are
 *   scalar values >= 0x80; case flags are 0/1, 1 on a basic code point iff
 *   it is an uppercase letter;
 * - RFC 3492: the decoder inverts the encoder and digit strings are unique,
 *   so encoding the result gives back the input with its extended part
 *   lowercased (the basic part unchanged); with the decoded case flags
 *   (appendix A) it gives the input up to the case of non-final digits, and
 *   decoding that gives the same code points and flags.
 */
#include "fuzz_common.h"

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
}

/* Decode at capacity cap, into buffers of exactly cap elements. */
static void decode_at(const char *in, size_t inlen, size_t cap, int flags, idng_status st0,
                      const uint32_t *ref, const unsigned char *ref_flags, size_t n0)
{
    uint32_t *out = fuzz_alloc(cap * sizeof *out);
    unsigned char *cf = flags ? fuzz_alloc(cap) : NULL;
    size_t n = cap;
    idng_status st = idng_punycode_decode(in, inlen, out, &n, cf);

    if (st0 != IDNG_OK) {
        FUZZ_CHECK(st == st0, "cap %zu: status %d, with room %d", cap, st, st0);
    } else if (cap >= n0) {
        FUZZ_CHECK(st == IDNG_OK && n == n0, "cap %zu >= needed %zu: status %d, n %zu", cap,
                   n0, st, n);
        FUZZ_CHECK(n0 == 0 || memcmp(out, ref, n0 * sizeof *out) == 0,
                   "cap %zu: code points differ from the reference decode", cap);
        FUZZ_CHECK(!cf || n0 == 0 || memcmp(cf, ref_flags, n0) == 0,
                   "cap %zu: case flags differ", cap);
    } else {
        FUZZ_CHECK(st == IDNG_E_NOSPACE && n == n0, "cap %zu < needed %zu: status %d, n %zu",
                   cap, n0, st, n);
    }
    free(out);
    free(cf);
}

/* Encode at exactly cap octets; returns the status, *len the length. */
static idng_status encode_at(const uint32_t *u, size_t n, const unsigned char *cf, size_t cap,
                             char **res, size_t *len)
{
    char *out = fuzz_alloc(cap);
    idng_status st;

    *len = cap;
    st = idng_punycode_encode(u, n, cf, out, len);
    if (res)
        *res = out;
    else
        free(out);
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *in = fuzz_dup(data, size);
    size_t cap0 = size + 1, n0 = cap0, i, b = 0, ext, nb = 0, elen, elen2;
    uint32_t *ref = fuzz_alloc(cap0 * sizeof *ref), *u2;
    unsigned char *ref_flags = fuzz_alloc(cap0), *cf2;
    char *enc = NULL, *enc2 = NULL;
    idng_status st0, st;
    int has_delim = 0;

    st0 = idng_punycode_decode(in, size, ref, &n0, ref_flags);
    FUZZ_CHECK(fuzz_is_valid_status(st0) && st0 != IDNG_E_NOSPACE,
               "status %d with room for %zu code points", st0, cap0);
    if (st0 == IDNG_OK) {
        uint32_t *plain = fuzz_alloc(cap0 * sizeof *plain);
        size_t np = cap0;
        FUZZ_CHECK(n0 <= size, "%zu code points from %zu octets", n0, size);
        st = idng_punycode_decode(in, size, plain, &np, NULL);
        FUZZ_CHECK(st == IDNG_OK && np == n0 && (n0 == 0 || !memcmp(plain, ref, n0 * 4)),
                   "decode without case flags differs");
        free(plain);
    }
    {
        size_t caps[5], k;
        caps[0] = 0;
        caps[1] = n0 > 0 ? n0 - 1 : 0;
        caps[2] = n0;
        caps[3] = n0 + 1;
        caps[4] = size ? data[size - 1] % (n0 + 2) : 0;
        if (st0 != IDNG_OK) /* n0 is meaningless: try a few small ones */
            caps[2] = size / 2, caps[3] = size;
        for (k = 0; k < 5; k++)
            decode_at(in, size, caps[k], (int)(k & 1) ^ (size & 1), st0, ref, ref_flags, n0);
    }
    if (st0 != IDNG_OK)
        goto out;

    /* Basic code points: the octets before the last delimiter, in order. */
    for (i = 0; i < size; i++)
        if (in[i] == '-') {
            b = i;
            has_delim = 1;
        }
    ext = has_delim && b > 0 ? b + 1 : 0;
    for (i = 0; i < n0; i++) {
        FUZZ_CHECK(ref_flags[i] <= 1, "case flag %u", ref_flags[i]);
        if (ref[i] < 0x80) {
            FUZZ_CHECK(nb < b && ref[i] == (unsigned char)in[nb],
                       "basic code point %zu is U+%04X", i, (unsigned)ref[i]);
            FUZZ_CHECK(ref_flags[i] == (ref[i] >= 'A' && ref[i] <= 'Z'),
                       "case flag %u on basic U+%04X", ref_flags[i], (unsigned)ref[i]);
            nb++;
        } else {
            FUZZ_CHECK(ref[i] <= 0x10FFFF && !(ref[i] >= 0xD800 && ref[i] <= 0xDFFF),
                       "decoded U+%04X at %zu", (unsigned)ref[i], i);
        }
    }
    FUZZ_CHECK(nb == (ext ? b : 0), "%zu basic code points, %zu octets before the delimiter",
               nb, b);

    /* Re-encode: the input, extended part lowercased. */
    st = encode_at(ref, n0, NULL, size + 1, &enc, &elen);
    FUZZ_CHECK(st == IDNG_OK, "re-encoding failed: %d", st);
    FUZZ_CHECK(elen == size, "re-encoding has %zu octets, input %zu", elen, size);
    for (i = 0; i < size; i++)
        FUZZ_CHECK(enc[i] == (i < ext ? in[i] : lower(in[i])),
                   "re-encoding differs at %zu: '%c' for '%c' (%.*s)", i, enc[i], in[i],
                   (int)elen, enc);
    /* Exactly the capacity needed, and one short. */
    st = encode_at(ref, n0, NULL, elen, NULL, &elen2);
    FUZZ_CHECK(st == IDNG_OK && elen2 == elen, "encode at exact capacity: %d", st);
    if (elen > 0) {
        st = encode_at(ref, n0, NULL, elen - 1, NULL, &elen2);
        FUZZ_CHECK(st == IDNG_E_NOSPACE && elen2 == elen, "encode one short: %d, %zu", st,
                   elen2);
    }

    /* Mixed-case annotation round trip. */
    st = encode_at(ref, n0, ref_flags, size + 1, &enc2, &elen2);
    FUZZ_CHECK(st == IDNG_OK && elen2 == size, "re-encoding with flags: %d, %zu", st, elen2);
    for (i = 0; i < size; i++)
        FUZZ_CHECK(i < ext ? enc2[i] == in[i] : lower(enc2[i]) == lower(in[i]),
                   "flagged re-encoding differs at %zu (%.*s)", i, (int)elen2, enc2);
    u2 = fuzz_alloc(cap0 * sizeof *u2);
    cf2 = fuzz_alloc(cap0);
    elen = cap0;
    st = idng_punycode_decode(enc2, elen2, u2, &elen, cf2);
    FUZZ_CHECK(st == IDNG_OK && elen == n0, "decoding the flagged encoding: %d", st);
    FUZZ_CHECK(n0 == 0 || (!memcmp(u2, ref, n0 * sizeof *u2) && !memcmp(cf2, ref_flags, n0)),
               "flagged round trip changed code points or flags");
    free(u2);
    free(cf2);
out:
    free(enc);
    free(enc2);
    free(ref);
    free(ref_flags);
    free(in);
    return 0;
}
