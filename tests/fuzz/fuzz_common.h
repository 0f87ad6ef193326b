/**
 * \file
 * Helpers shared by the fuzz harnesses: invariant checks that abort with a
 * message (so libFuzzer, and the replay driver under ASan, report them as
 * crashes), exact-size heap copies (so ASan sees any write past a capacity),
 * and small validators (UTF-8, wire names).
 *
 * Header-only and static: each harness is one translation unit linked with
 * the library sources and either libFuzzer or tests/fuzz/replay_main.c.
 */
#ifndef IDNG_FUZZ_COMMON_H
#define IDNG_FUZZ_COMMON_H

#include "idnguard.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant failed: say which, then abort (libFuzzer saves the input). */
#define FUZZ_CHECK(cond, ...)                                                              \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: invariant failed: %s\n  ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
            abort();                                                                       \
        }                                                                                  \
    } while (0)

/* malloc that never returns NULL (and never malloc(0): ASan then still
 * flags any write, since the one byte allocated is not handed out). */
static inline void *fuzz_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        abort();
    }
    return p;
}

/* Exact-size heap copy of the input: ASan catches any read past it. */
static inline void *fuzz_dup(const void *p, size_t n)
{
    void *q = calloc(n ? n : 1, 1); /* calloc: gcc cannot see n == 0 means unread */
    if (q == NULL) {
        fprintf(stderr, "out of memory\n");
        abort();
    }
    if (n)
        memcpy(q, p, n);
    return q;
}

/* Is s[0..n) valid UTF-8 (RFC 3629: no overlongs, surrogates, > U+10FFFF)?
 * Written independently of the codec's decoder, which is under test. */
static inline int fuzz_utf8_valid(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        uint32_t cp;
        size_t k, m;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) {
            m = 2;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            m = 3;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            m = 4;
            cp = c & 0x07;
        } else {
            return 0;
        }
        if (n - i < m)
            return 0;
        for (k = 1; k < m; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return 0;
            cp = cp << 6 | (s[i + k] & 0x3F);
        }
        if ((m == 3 && cp < 0x800) || (m == 4 && cp < 0x10000) || cp > 0x10FFFF
            || (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        i += m;
    }
    return 1;
}

/* Decodes valid UTF-8 (checked by fuzz_utf8_valid first) at s[*i]. */
static inline uint32_t fuzz_utf8_next(const unsigned char *s, size_t *i)
{
    unsigned char c = s[*i];
    uint32_t cp;
    size_t m, k;
    if (c < 0x80) {
        (*i)++;
        return c;
    }
    m = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    cp = c & (m == 2 ? 0x1F : m == 3 ? 0x0F : 0x07);
    for (k = 1; k < m; k++)
        cp = cp << 6 | (s[*i + k] & 0x3F);
    *i += m;
    return cp;
}

/* Bidi controls, line/paragraph separators: never in a log line. */
static inline int fuzz_forbidden_cp(uint32_t cp)
{
    return cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E)
           || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029
           || cp == 0x061C || cp < 0x20 || (cp >= 0x7F && cp < 0xA0);
}

/*
 * Is w[0..n) exactly one uncompressed wire name (labels of 1..63 octets,
 * no pointer, the root label as its last octet, at most 255 octets)?
 * Returns the number of labels, or -1.
 */
static inline int fuzz_wire_labels(const uint8_t *w, size_t n)
{
    size_t pos = 0;
    int labels = 0;
    if (n == 0 || n > 255)
        return -1;
    while (pos < n) {
        size_t l = w[pos];
        if (l == 0)
            return pos + 1 == n ? labels : -1;
        if (l > IDNG_LABEL_MAX || pos + 1 + l >= n)
            return -1;
        pos += 1 + l;
        labels++;
    }
    return -1;
}

/* Length of the wire name at w (up to and with its root label), reading at
 * most max octets; 0 if it is malformed or does not end within max. */
static inline size_t fuzz_wire_span(const uint8_t *w, size_t max)
{
    size_t pos = 0;
    while (pos < max && pos < 255) {
        size_t l = w[pos];
        if (l == 0)
            return pos + 1;
        if (l > IDNG_LABEL_MAX)
            return 0;
        pos += 1 + l;
    }
    return 0;
}

/*
 * Checks for open findings (bugs reported but not fixed yet) run only when
 * IDNG_FUZZ_FINDINGS is set (make fuzz-findings), so that fuzzing and
 * `make check` keep looking for new bugs meanwhile.
 */
static inline int fuzz_open_findings(void)
{
    static int v = -1;
    if (v < 0)
        v = getenv("IDNG_FUZZ_FINDINGS") != NULL;
    return v;
}

static inline int fuzz_is_valid_status(idng_status st)
{
    return st <= 0 && st >= IDNG_E_BAD_UTF8;
}

/*
 * The UTS #46 processing flags and every mode, idna2008-lookup included,
 * on one input, the flags chosen by its first octet (and IDNG_F_STRICT by
 * its second): whatever the mix, a valid status, an error inside the
 * input, and the buffer discipline (exactly the length needed is enough,
 * one octet less is IDNG_E_NOSPACE with the same length).  The properties
 * of the default flags (the module's classifier accepts the output, the
 * round trips) do not hold for every mix, so only these are checked.
 */
static inline void fuzz_check_uts46_flags(const uint8_t *data, size_t size, int to_unicode)
{
    static const unsigned bits[] = {
        IDNG_F_TRANSITIONAL, IDNG_F_NO_CHECK_HYPHENS, IDNG_F_NO_STD3,       IDNG_F_NO_DNS_LENGTH,
        IDNG_F_NO_BIDI,      IDNG_F_NO_JOINERS,       IDNG_F_CHECK_CONTEXTO};
    static char out[64 * 1024];
    const char *in = (const char *)data;
    unsigned flags = 0, m;
    size_t k;

    if (size == 0)
        return;
    for (k = 0; k < sizeof bits / sizeof bits[0]; k++)
        if (data[0] & (1u << k))
            flags |= bits[k];
    if (size > 1 && (data[1] & 1))
        flags |= IDNG_F_STRICT;
    for (m = 0; m <= IDNG_MODE_MAX; m++) {
        idng_error e;
        size_t n = sizeof out, n2;
        char *small;
        idng_status st = to_unicode ? idng_to_unicode(in, size, out, &n, (idng_mode)m, flags, &e)
                                    : idng_to_ascii(in, size, out, &n, (idng_mode)m, flags, &e);
        FUZZ_CHECK(fuzz_is_valid_status(st) && st != IDNG_E_NOSPACE && e.status == st,
                   "flags 0x%x mode %u: status %d", flags, m, st);
        if (st != IDNG_OK) {
            FUZZ_CHECK(e.label_off <= size && e.label_len <= size - e.label_off,
                       "flags 0x%x mode %u: error at %zu+%zu in %zu octets", flags, m, e.label_off,
                       e.label_len, size);
            continue;
        }
        FUZZ_CHECK(n < sizeof out && out[n] == '\0', "flags 0x%x mode %u: no NUL", flags, m);
        small = fuzz_alloc(n);
        n2 = n;
        st = to_unicode ? idng_to_unicode(in, size, small, &n2, (idng_mode)m, flags, NULL)
                        : idng_to_ascii(in, size, small, &n2, (idng_mode)m, flags, NULL);
        FUZZ_CHECK(st == IDNG_OK && n2 == n && !memcmp(small, out, n),
                   "flags 0x%x mode %u: cap %zu gives %d", flags, m, n, st);
        free(small);
        if (n == 0)
            continue;
        small = fuzz_alloc(n - 1);
        n2 = n - 1;
        st = to_unicode ? idng_to_unicode(in, size, small, &n2, (idng_mode)m, flags, NULL)
                        : idng_to_ascii(in, size, small, &n2, (idng_mode)m, flags, NULL);
        FUZZ_CHECK(st == IDNG_E_NOSPACE && n2 == n, "flags 0x%x mode %u: cap %zu gives %d", flags,
                   m, n - 1, st);
        free(small);
    }
}

/*
 * Modes are ordered by strictness: a name that idna2008 or uts46 (rows 1, 2)
 * converts, punycode mode (row 0) converts too, to the same output.  res,
 * outn and the outputs are indexed [mode][flags]; output (m, f) starts at
 * saved + (m * 2 + f) * stride.
 */
static inline void fuzz_check_modes_agree(idng_status res[3][2], size_t outn[3][2],
                                          const char *saved, size_t stride)
{
    size_t m, f;

    for (m = 1; m < 3; m++)
        for (f = 0; f < 2; f++)
            if (res[m][f] == IDNG_OK)
                FUZZ_CHECK(res[0][f] == IDNG_OK && outn[0][f] == outn[m][f]
                               && !memcmp(saved + f * stride, saved + (m * 2 + f) * stride,
                                          outn[m][f]),
                           "OK in mode %zu, punycode mode gives %d", m, res[0][f]);
}

#endif /* IDNG_FUZZ_COMMON_H */
