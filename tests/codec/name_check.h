/**
 * \file
 * What the suites of the DNS-name unit (test_name.c, test_name_message.c)
 * share: wire names written as string literals.
 */
#ifndef IDNG_TESTS_CODEC_NAME_CHECK_H
#define IDNG_TESTS_CODEC_NAME_CHECK_H

#include "common.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A wire name as a string literal: its octets and length (NULs included). */
struct wire {
    const char *w;
    size_t len;
};
#define W(s)                                                                                       \
    {                                                                                              \
        (s), sizeof(s) - 1                                                                         \
    }

#define N_ELEMS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* n labels of `size` octets each, then the root; returns the length. */
static IDNG_TEST_UNUSED size_t build(uint8_t *w, size_t n, size_t size)
{
    size_t i, o = 0;
    for (i = 0; i < n; i++) {
        w[o++] = (uint8_t)size;
        memset(w + o, 'a' + (int)(i % 26), size);
        o += size;
    }
    w[o++] = 0;
    return o;
}

#endif
