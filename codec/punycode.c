/**
 * \file
 * Punycode, RFC 3492: the Bootstring parameters of section 5 and the
 * algorithms of section 6, with the overflow handling of 6.4 done in
 * uint32_t against the limit maxint = 0xFFFFFFFF, and the mixed-case
 * annotation of appendix A.
 *
 * Neither direction allocates.  When the output buffer fills up both keep
 * going without writing, so that the caller learns the size needed and
 * input errors are still reported in preference to IDNG_E_NOSPACE.
 */
#include "idnguard.h"

#include <string.h>

enum {
    BASE = 36,
    TMIN = 1,
    TMAX = 26,
    SKEW = 38,
    DAMP = 700,
    INITIAL_BIAS = 72,
    INITIAL_N = 0x80,
    DELIMITER = '-'
};
#define MAXINT 0xFFFFFFFFu

/* Digit value of an ASCII octet (RFC 3492 section 5), or BASE if none. */
static uint32_t digit_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0' + 26;
    if (c >= 'a' && c <= 'z')
        return c - 'a';
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    return BASE;
}

/* Digit d (0..35) as ASCII; uppercase letter when upper is set. */
static char digit_char(uint32_t d, int upper)
{
    if (d < 26)
        return (char)((upper ? 'A' : 'a') + d);
    return (char)('0' + (d - 26));
}

/* Section 6.1. */
static uint32_t adapt(uint32_t delta, uint32_t numpoints, int firsttime)
{
    uint32_t k = 0;

    delta = firsttime ? delta / DAMP : delta / 2;
    delta += delta / numpoints;
    while (delta > ((BASE - TMIN) * TMAX) / 2) {
        delta /= BASE - TMIN;
        k += BASE;
    }
    return k + (BASE - TMIN + 1) * delta / (delta + SKEW);
}

static uint32_t threshold(uint32_t k, uint32_t bias)
{
    if (k <= bias)
        return TMIN;
    if (k >= bias + TMAX)
        return TMAX;
    return k - bias;
}

/* Appends one octet when there is room; always counts it. */
static void put(char *out, size_t cap, size_t *len, char c)
{
    if (*len < cap)
        out[*len] = c;
    (*len)++;
}

idng_status idng_punycode_encode(const uint32_t *in, size_t inlen, const unsigned char *case_flags,
                                 char *out, size_t *outlen)
{
    size_t cap = *outlen, len = 0, j, h, b;
    uint32_t n = INITIAL_N, delta = 0, bias = INITIAL_BIAS, m, q, k, t;

    /* Inputs whose handled count could overflow delta are refused early by
     * the arithmetic checks below; the length check keeps h in uint32_t. */
    if (inlen > MAXINT)
        return IDNG_E_PUNY_OVERFLOW;
    for (j = 0; j < inlen; j++) {
        if (in[j] > 0x10FFFF)
            return IDNG_E_CODEPOINT_MAX;
        if (in[j] >= 0xD800 && in[j] <= 0xDFFF)
            return IDNG_E_SURROGATE;
        if (in[j] < 0x80) {
            char c = (char)in[j];
            if (case_flags && c >= 'a' && c <= 'z' && case_flags[j])
                c = (char)(c - 'a' + 'A');
            else if (case_flags && c >= 'A' && c <= 'Z' && !case_flags[j])
                c = (char)(c - 'A' + 'a');
            put(out, cap, &len, c);
        }
    }
    h = b = len;
    if (b > 0)
        put(out, cap, &len, DELIMITER);

    while (h < inlen) {
        /* The smallest code point >= n still to be handled. */
        for (m = MAXINT, j = 0; j < inlen; j++)
            if (in[j] >= n && in[j] < m)
                m = in[j];
        if ((m - n) > (MAXINT - delta) / (uint32_t)(h + 1))
            return IDNG_E_PUNY_OVERFLOW;
        delta += (m - n) * (uint32_t)(h + 1);
        n = m;
        for (j = 0; j < inlen; j++) {
            if (in[j] < n) {
                if (++delta == 0)
                    return IDNG_E_PUNY_OVERFLOW;
            }
            if (in[j] != n)
                continue;
            for (q = delta, k = BASE;; k += BASE) {
                t = threshold(k, bias);
                if (q < t)
                    break;
                put(out, cap, &len, digit_char(t + (q - t) % (BASE - t), 0));
                q = (q - t) / (BASE - t);
            }
            put(out, cap, &len, digit_char(q, case_flags && case_flags[j]));
            bias = adapt(delta, (uint32_t)(h + 1), h == b);
            delta = 0;
            h++;
        }
        delta++;
        n++;
    }
    *outlen = len;
    if (len > cap)
        return IDNG_E_NOSPACE;
    if (len < cap)
        out[len] = '\0';
    return IDNG_OK;
}

idng_status idng_punycode_decode(const char *in, size_t inlen, uint32_t *out, size_t *outlen,
                                 unsigned char *case_flags)
{
    const unsigned char *s = (const unsigned char *)in;
    size_t cap = *outlen, len = 0, b = 0, j, pos;
    uint32_t n = INITIAL_N, i = 0, bias = INITIAL_BIAS, oldi, w, k, digit, t;

    if (inlen > MAXINT)
        return IDNG_E_PUNY_OVERFLOW;
    /* b is the number of basic code points: everything before the last
     * delimiter, which must all be basic. */
    for (j = 0; j < inlen; j++) {
        if (s[j] >= 0x80)
            return IDNG_E_PUNY_NONBASIC;
        if (s[j] == DELIMITER)
            b = j;
    }
    for (j = 0; j < b; j++) {
        if (len < cap) {
            out[len] = s[j];
            if (case_flags)
                case_flags[len] = s[j] >= 'A' && s[j] <= 'Z';
        }
        len++;
    }

    for (j = b > 0 ? b + 1 : 0; j < inlen; len++) {
        oldi = i;
        for (w = 1, k = BASE;; k += BASE) {
            if (j >= inlen)
                return IDNG_E_PUNY_TRUNCATED;
            digit = digit_value(s[j++]);
            if (digit >= BASE)
                return IDNG_E_PUNY_DIGIT;
            if (digit > (MAXINT - i) / w)
                return IDNG_E_PUNY_OVERFLOW;
            i += digit * w;
            t = threshold(k, bias);
            if (digit < t)
                break;
            if (w > MAXINT / (BASE - t))
                return IDNG_E_PUNY_OVERFLOW;
            w *= BASE - t;
        }
        bias = adapt(i - oldi, (uint32_t)(len + 1), oldi == 0);
        if (i / (uint32_t)(len + 1) > MAXINT - n)
            return IDNG_E_PUNY_OVERFLOW;
        n += i / (uint32_t)(len + 1);
        i %= (uint32_t)(len + 1);
        if (n > 0x10FFFF)
            return IDNG_E_CODEPOINT_MAX;
        if (n >= 0xD800 && n <= 0xDFFF)
            return IDNG_E_SURROGATE;
        /* Insert n at position i, while the result still fits. */
        pos = i;
        if (len < cap) {
            memmove(out + pos + 1, out + pos, (len - pos) * sizeof *out);
            out[pos] = n;
            if (case_flags) {
                memmove(case_flags + pos + 1, case_flags + pos, len - pos);
                case_flags[pos] = s[j - 1] >= 'A' && s[j - 1] <= 'Z';
            }
        }
        i++;
    }
    *outlen = len;
    return len > cap ? IDNG_E_NOSPACE : IDNG_OK;
}
