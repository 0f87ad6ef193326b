/**
 * \file
 * Helpers shared by the Check suites.
 */
#include "common.h"

#include "idnguard.h"

#include <stdlib.h>
#include <string.h>

size_t t_utf8_to_cps(const char *s, uint32_t *out, size_t cap)
{
    size_t len = strlen(s), pos = 0, n = 0;

    while (pos < len) {
        size_t m = idng_utf8_decode((const unsigned char *)s + pos, len - pos, &out[n]);
        ck_assert_msg(m > 0, "invalid UTF-8 in test input at offset %zu", pos);
        ck_assert_msg(n < cap, "test input longer than %zu code points", cap);
        pos += m;
        n++;
    }
    return n;
}

void t_cps_to_utf8(const uint32_t *cps, size_t n, char *out, size_t cap)
{
    size_t i, len = 0;

    for (i = 0; i < n; i++) {
        unsigned char buf[4];
        size_t m = idng_utf8_encode(cps[i], buf);
        ck_assert(len + m < cap);
        memcpy(out + len, buf, m);
        len += m;
    }
    out[len] = '\0';
}

int t_run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
