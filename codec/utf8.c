/**
 * \file
 * UTF-8 (RFC 3629) decoding and encoding of single code points (the encoding
 * inline in idna_internal.h, for the codec's own output).
 */
#include "idna_internal.h"

size_t idng_utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
    uint32_t c;
    size_t n, i;

    if (len == 0)
        return 0;
    c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c < 0xC2)
        return 0; /* continuation octet, or overlong 2-octet lead */
    if (c < 0xE0) {
        n = 2;
        c &= 0x1F;
    } else if (c < 0xF0) {
        n = 3;
        c &= 0x0F;
    } else if (c < 0xF5) {
        n = 4;
        c &= 0x07;
    } else {
        return 0;
    }
    if (len < n)
        return 0;
    for (i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = c << 6 | (s[i] & 0x3F);
    }
    if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) || c > 0x10FFFF
        || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return n;
}

size_t idng_utf8_encode(uint32_t cp, unsigned char *out)
{
    return idng_utf8_put(cp, out);
}
