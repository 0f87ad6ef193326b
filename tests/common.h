/**
 * \file
 * Helpers shared by the Check suites.
 */
#ifndef IDNG_TESTS_COMMON_H
#define IDNG_TESTS_COMMON_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

/** Decodes NUL-terminated UTF-8 into code points; fails the test on bad input. */
size_t t_utf8_to_cps(const char *s, uint32_t *out, size_t cap);
/** Encodes code points as NUL-terminated UTF-8 into out (cap octets). */
void t_cps_to_utf8(const uint32_t *cps, size_t n, char *out, size_t cap);
/**
 * A readable page followed by a PROT_NONE page: input placed with
 * t_guard_put ends exactly at the inaccessible page, so reading one octet
 * past it faults, and it is read-only, so a stray write faults too.
 */
struct t_guard {
    unsigned char *base;
    size_t page;
};
void t_guard_open(struct t_guard *g);
void t_guard_close(struct t_guard *g);
/** Copies n octets to end at the guard page; returns where they start. */
const unsigned char *t_guard_put(struct t_guard *g, const void *p, size_t n);

/** Runs a suite with CK_NORMAL output; returns the process exit status. */
int t_run_suite(Suite *s);

#define IDNG_TEST_MAIN(suite_fn)                                                   \
    int main(void)                                                                 \
    {                                                                              \
        return t_run_suite(suite_fn());                                            \
    }

#endif
