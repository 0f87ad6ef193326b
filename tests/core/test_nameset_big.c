/**
 * \file
 * The name sets behind `allow` and `deny` (conf/conf_names.c) at size
 * (test_nameset.c has the rest): 100,000 names parsed and every one
 * found, and duplicates found in a big list with the same messages as in
 * a small one, the settings untouched when it fails.  The parse time and
 * lookup rate are printed, not asserted: the test machines are shared and
 * noisy.
 */
#include "common.h"
#include "idng_conf.h"
#include "nameset_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t big_wire(uint8_t *w, size_t i, const char *prefix, const char *tld)
{
    char lab[32];
    size_t o = 0, l;

    if (prefix != NULL) {
        l = strlen(prefix);
        w[o++] = (uint8_t)l;
        memcpy(w + o, prefix, l);
        o += l;
    }
    l = (size_t)snprintf(lab, sizeof lab, "name%zu", i);
    w[o++] = (uint8_t)l;
    memcpy(w + o, lab, l);
    o += l;
    w[o++] = 7;
    memcpy(w + o, tld, 7);
    o += 7;
    w[o++] = 0;
    return o;
}

#define BIG 100000
/** Room per prebuilt query; its last octet holds the query's length. */
#define QSTRIDE 32

/* 100,000 names load and are found; times printed for the report. */
START_TEST(test_hundred_thousand)
{
    struct text t = {NULL, 0, 0};
    struct idng_conf c;
    char err[ERR_MAX];
    uint8_t w[WIRE_MAX], *qs;
    size_t i, k, len;
    double t0, t1, parse_s, rate[2];

    big_list(&t, BIG);
    idng_conf_init(&c);
    t0 = now();
    ck_assert_msg(idng_conf_parse(&c, t.s, t.len, "big.conf", err, sizeof err) == 0, "%s", err);
    parse_s = now() - t0;
    ck_assert_uint_eq(c.policy.deny.count, BIG);
    ck_assert_uint_eq(c.policy.allow.count, 0);

    /* Every name, in file order, in the case written and in capitals. */
    for (i = 0; i < BIG; i++) {
        len = big_wire(w, i, NULL, "example");
        REQUIRE(memcmp(c.policy.deny.names[i], w, len) == 0, "name %zu out of place", i);
        REQUIRE(idng_nameset_listed(&c.policy.deny, w, len) == (int)len, "name%zu.example.", i);
        mix_case(w, len);
        REQUIRE(idng_nameset_listed(&c.policy.deny, w, len) == (int)len, "name%zu.example. mixed",
                i);
        REQUIRE(idng_nameset_listed(&c.policy.allow, w, len) == 0, "name%zu in allow", i);
    }
    /* Below a listed name: the listed name's length.  Not listed: 0. */
    len = big_wire(w, 4242, "www", "example");
    ck_assert_int_eq(idng_nameset_listed(&c.policy.deny, w, len), (int)len - 4);
    len = big_wire(w, BIG, NULL, "example");
    ck_assert_int_eq(idng_nameset_listed(&c.policy.deny, w, len), 0);
    len = big_wire(w, 7, NULL, "exampl2");
    ck_assert_int_eq(idng_nameset_listed(&c.policy.deny, w, len), 0);

    /* Rates, with the queries built beforehand: www.nameI.example. (found
     * at its parent) and www.nameI.exampge. (found nowhere; suffixes of
     * lengths no listed name has cost no probe). */
    qs = malloc((size_t)BIG * 2 * QSTRIDE);
    ck_assert(qs != NULL);
    for (i = 0; i < BIG; i++) {
        len = big_wire(qs + 2 * i * QSTRIDE, i, "www", "example");
        ck_assert(len < QSTRIDE);
        qs[2 * i * QSTRIDE + QSTRIDE - 1] = (uint8_t)len;
        memcpy(qs + (2 * i + 1) * QSTRIDE, qs + 2 * i * QSTRIDE, QSTRIDE);
        qs[(2 * i + 1) * QSTRIDE + len - 3] = 'g';
    }
    for (k = 0; k < 2; k++) {
        size_t rounds = 0, found = 0;
        t0 = now();
        do {
            for (i = 0; i < BIG; i++) {
                const uint8_t *q = qs + (2 * i + k) * QSTRIDE;
                found += idng_nameset_listed(&c.policy.deny, q, q[QSTRIDE - 1]) != 0;
            }
            rounds++;
            t1 = now();
        } while (t1 - t0 < 0.25);
        rate[k] = (double)(rounds * BIG) / (t1 - t0);
        ck_assert_uint_eq(found, k == 0 ? rounds * BIG : 0);
    }
    free(qs);
    printf("name set: %d names (%zu octets of settings) parsed in %.3f s; "
           "%.2f M lookups/s listed, %.2f M lookups/s not listed; %zu octets held\n",
           BIG, t.len, parse_s, rate[0] / 1e6, rate[1] / 1e6, idng_nameset_mem(&c.policy.deny));
    fflush(stdout);

    idng_conf_free(&c);
    ck_assert_uint_eq(c.policy.deny.count, 0);
    ck_assert_uint_eq(idng_nameset_mem(&c.policy.deny), 0);
    free(t.s);
}
END_TEST

/* Repeats are caught at any size, with the messages they always had, and
 * a failed parse leaves the previous settings as they were. */
START_TEST(test_duplicates_in_a_big_list)
{
    static const struct {
        const char *line, *want;
    } cases[] = {
        {"deny: name17.example.\n", "big.conf:20002: duplicate deny name 'name17.example.' "
                                    "(first at line 19)"},
        {"deny: NAME19999.Example\n", "big.conf:20002: duplicate deny name 'name19999.example.' "
                                      "(first at line 20001)"},
        {"allow: name0.example\n", "big.conf:20002: 'name0.example.' is in both 'deny' (line 2) "
                                   "and 'allow'; a name can be in one list only"},
    };
    static const uint8_t q1[] = "\001x\004KEEP\007example\000";
    static const uint8_t q2[] = "\001x\001B\004keep\007example\000";
    struct idng_conf c;
    char err[ERR_MAX];
    uint8_t w[WIRE_MAX];
    size_t k, len;

    /* The settings to keep: two names of their own. */
    idng_conf_init(&c);
    ck_assert(idng_conf_parse(&c, BYTES("idnguard:\nallow: keep.example\ndeny: b.keep.example\n"),
                              "keep.conf", err, sizeof err)
              == 0);
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct text t = {NULL, 0, 0};
        big_list(&t, 20000); /* lines 2 to 20001 */
        text_str(&t, cases[k].line);
        err[0] = '\0';
        ck_assert_int_eq(idng_conf_parse(&c, t.s, t.len, "big.conf", err, sizeof err), -1);
        ck_assert_str_eq(err, cases[k].want);
        free(t.s);
    }
    ck_assert_uint_eq(c.policy.allow.count, 1);
    ck_assert_uint_eq(c.policy.deny.count, 1);
    ck_assert_mem_eq(c.policy.allow.names[0], "\004keep\007example", 14);
    len = big_wire(w, 17, NULL, "example");
    ck_assert_int_eq(idng_nameset_listed(&c.policy.deny, w, len), 0);
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, q1, sizeof q1 - 1), 14);
    ck_assert_int_eq(idng_nameset_listed(&c.policy.deny, q2, sizeof q2 - 1), 16);
    idng_conf_free(&c);
}
END_TEST

static Suite *nameset_big_suite(void)
{
    Suite *s = suite_create("nameset at size");
    TCase *tc;

    tc = tcase_create("big");
    tcase_add_test(tc, test_hundred_thousand);
    tcase_add_test(tc, test_duplicates_in_a_big_list);
    tcase_set_timeout(tc, 300);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(nameset_big_suite)
