/**
 * \file
 * What the codec's hostile-input suites (test_hostile.c,
 * test_hostile_wire.c) share: the modes, and output buffers with canaries.
 */
#ifndef IDNG_TESTS_CODEC_HOSTILE_CODEC_H
#define IDNG_TESTS_CODEC_HOSTILE_CODEC_H

#include "common.h"
#include "idnguard.h"

#include <stdint.h>
#include <string.h>

#define P IDNG_MODE_PUNYCODE
#define I IDNG_MODE_IDNA2008
#define U IDNG_MODE_UTS46

/* Loops make hundreds of thousands of checks: REQUIRE (tests/common.h) calls Check only on failure. */
static const idng_mode modes[] = {P, I, U};
static const char *const mode_names[] = {"punycode", "idna2008", "uts46"};

/* ------------------------------------------------------------------------ */
/* Output buffers with canaries: nothing may be written at or past cap.      */

#define CANARY 0xA5
#define OUT_MAX 4200

struct outbuf {
    char b[OUT_MAX + 64];
};

static IDNG_TEST_UNUSED char *out_prep(struct outbuf *o, size_t cap)
{
    ck_assert(cap <= OUT_MAX);
    memset(o->b, CANARY, sizeof o->b);
    return o->b;
}

static IDNG_TEST_UNUSED int out_intact(const struct outbuf *o, size_t cap)
{
    size_t i;
    for (i = cap; i < sizeof o->b; i++)
        if ((unsigned char)o->b[i] != CANARY)
            return 0;
    return 1;
}

/* Is s[0..n) valid UTF-8?  (The codec's own decoder: tested elsewhere.) */
static IDNG_TEST_UNUSED int utf8_ok(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint32_t cp;
        size_t m = idng_utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (m == 0)
            return 0;
        i += m;
    }
    return 1;
}

#endif
