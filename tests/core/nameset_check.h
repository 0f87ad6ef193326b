/**
 * \file
 * What the name-set suites (test_nameset.c, test_nameset_big.c) share:
 * seeded random numbers, case changes, a growing text buffer, a clock.
 */
#ifndef IDNG_TESTS_CORE_NAMESET_CHECK_H
#define IDNG_TESTS_CORE_NAMESET_CHECK_H

#include "common.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ERR_MAX 1024
#define WIRE_MAX 255

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

/* Deterministic pseudo-random numbers (xorshift32), so failures reproduce;
 * each test sets the seed from its loop index. */
static uint32_t seed;

static IDNG_TEST_UNUSED uint32_t rnd(void)
{
    seed ^= seed << 13;
    seed ^= seed >> 17;
    seed ^= seed << 5;
    return seed;
}

static IDNG_TEST_UNUSED unsigned char fold(unsigned char ch)
{
    return ch >= 'A' && ch <= 'Z' ? (unsigned char)(ch + 32) : ch;
}

static IDNG_TEST_UNUSED unsigned char flip(unsigned char ch)
{
    if (ch >= 'a' && ch <= 'z')
        return (unsigned char)(ch - 32);
    if (ch >= 'A' && ch <= 'Z')
        return (unsigned char)(ch + 32);
    return ch;
}

/* Wire length of a well-formed name. */
static IDNG_TEST_UNUSED size_t wire_len(const uint8_t *w)
{
    size_t pos = 0;
    while (w[pos] != 0)
        pos += 1u + w[pos];
    return pos + 1;
}

static IDNG_TEST_UNUSED double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A growing text buffer for settings built in memory. */
struct text {
    char *s;
    size_t len, cap;
};

static IDNG_TEST_UNUSED void text_add(struct text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        ck_assert(t->s != NULL);
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
}

static IDNG_TEST_UNUSED void text_str(struct text *t, const char *s)
{
    text_add(t, s, strlen(s));
}

/* Changes the case of some letters of a name (label octets only). */
static IDNG_TEST_UNUSED void mix_case(uint8_t *w, size_t len)
{
    size_t pos = 0, i;
    while (pos < len && w[pos] != 0 && w[pos] <= 63) {
        for (i = 1; i <= w[pos] && pos + i < len; i++)
            if (rnd() % 2)
                w[pos + i] = flip(w[pos + i]);
        pos += 1u + w[pos];
    }
}

/* Settings text with n names "nameI.example." (I from 0), in deny. */
static IDNG_TEST_UNUSED void big_list(struct text *t, size_t n)
{
    char line[64];
    size_t i;

    text_str(t, "idnguard:\n");
    for (i = 0; i < n; i++) {
        int w = snprintf(line, sizeof line, "deny: name%zu.example.\n", i);
        text_add(t, line, (size_t)w);
    }
}

#endif
