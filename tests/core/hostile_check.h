/**
 * \file
 * What the hostile-input suites of tests/core (test_hostile_names.c,
 * test_hostile_conf.c) share.
 */
#ifndef IDNG_TESTS_CORE_HOSTILE_CHECK_H
#define IDNG_TESTS_CORE_HOSTILE_CHECK_H

#include "common.h"

#include <stddef.h>

/* Why s[0..n) is not printable ASCII (EDE texts, names, error lines), or
 * NULL when it is. */
static IDNG_TEST_UNUSED const char *ascii_clean(const char *s, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c >= 0x7F)
            return "an octet outside printable ASCII";
    }
    return NULL;
}

#endif
