/**
 * \file
 * What harness.c and harness_query.c share and no suite uses.
 */
#ifndef IDNG_TESTS_INTEGRATION_HARNESS_PRIV_H
#define IDNG_TESTS_INTEGRATION_HARNESS_PRIV_H

#include <string.h>

#define LINE_MAX_ 16384
#define TAIL_MAX 1500
#define POLL_MS 20

/* Copies s into d (cap octets), truncating: for text that is only shown. */
static inline void scopy(char *d, size_t cap, const char *s)
{
    size_t n = strlen(s);
    if (cap == 0)
        return;
    if (n > cap - 1)
        n = cap - 1;
    memcpy(d, s, n);
    d[n] = '\0';
}

#endif
