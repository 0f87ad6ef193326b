/**
 * \file
 * Building the protected names' table (core/protect.c) for a big list: a
 * set made room for at once (idng_protect_reserve, as a protect-file is
 * loaded), which keys the labels names share through its memo of
 * skeletons and its tables sized once, must hold what a set built a name
 * at a time holds: the same keys, octet for octet, the same parents, as
 * many slots in use, and the same judgment of lookalikes, over names
 * that share labels, labels too long for the memo, skeletons at its
 * bound, IDNs, upper case, and more shared labels than the memo has room
 * for.
 */
#include "common.h"
#include "idng_lookalike.h"
#include "idnguard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Labels above the first, many names each: more distinct ones than the
 * memo's sets, so that they push each other out. */
static void parent_label(unsigned i, char *out, size_t cap)
{
    static const char *const odd[] = {
        "com",
        "co.uk",
        "example",
        "xn--bcher-kva",                     /* bücher */
        "xn--80ak6aa92e",                    /* аррӏе, Cyrillic */
        "mmmmmmmmmmmmmmmmmmmmmmmm",          /* 24 code points, skeleton 48 */
        "mmmmmmmmmmmmmmmmmmmmmmmw",          /* skeleton 48 as well */
        "mmmmmmmmmmmmmmmmmmmmmmmmm",         /* 25: keyed every time */
        "a-very-long-label-of-thirty-two-x", /* longer than the memo takes */
        "Ex4mple",                           /* case */
        "rnicrosoft",                        /* rn, m */
        "xn--pypal-4ve",                     /* pаypal */
    };
    size_t nodd = sizeof odd / sizeof odd[0];

    if (i % 3 == 0)
        snprintf(out, cap, "%s", odd[i / 3 % nodd]);
    else
        snprintf(out, cap, "shared%u0l1", i % 700);
}

static void build(struct idng_protect *s, int reserve, unsigned n)
{
    unsigned i;

    idng_protect_init(s);
    if (reserve)
        ck_assert_int_eq(idng_protect_reserve(s, n), 0);
    for (i = 0; i < n; i++) {
        char parent[96], text[200];
        uint8_t wire[IDNG_WIRE_MAX];
        size_t len;
        int rc;

        parent_label(i, parent, sizeof parent);
        if (i % 7 == 0)
            snprintf(text, sizeof text, "xn--bcher-kva%u.%s", i, parent);
        else if (i % 5 == 0)
            snprintf(text, sizeof text, "BRAND%u.%s", i, parent);
        else
            snprintf(text, sizeof text, "brand%u.sub%u.%s", i, i % 11, parent);
        len = t_wire(text, wire);
        ck_assert_msg(len > 0, "%s", text);
        rc = idng_protect_add(s, wire, len);
        /* bücherN is no A-label; the rest are added, each once. */
        ck_assert_msg(rc == (i % 7 == 0 ? -2 : 0), "%s: %d", text, rc);
    }
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* The parents' sets of a and b (tables of any size) hold the same hashes. */
static int same_parents(const struct idng_protect *a, const struct idng_protect *b)
{
    uint64_t *pa = calloc(a->nparents, sizeof *pa), *pb = calloc(b->nparents, sizeof *pb);
    size_t i, na = 0, nb = 0;
    int same;

    ck_assert(pa != NULL && pb != NULL);
    for (i = 0; i < a->nparents; i++)
        if (a->parents[i] != 0)
            pa[na++] = a->parents[i];
    for (i = 0; i < b->nparents; i++)
        if (b->parents[i] != 0)
            pb[nb++] = b->parents[i];
    qsort(pa, na, sizeof *pa, cmp_u64);
    qsort(pb, nb, sizeof *pb, cmp_u64);
    same = na == nb && memcmp(pa, pb, na * sizeof *pa) == 0;
    free(pa);
    free(pb);
    return same;
}

START_TEST(test_reserved_table_is_the_same)
{
    struct idng_protect a, b;
    const unsigned n = 6000;
    /* brand<Cyrillic a>... under names of the list, and names that are
     * none of the list's lookalikes. */
    static const char *const looks[] = {
        "xn--brnd1-5ve.sub1.shared10l1",
        "xn--brnd2-5ve.sub2.shared20l1",
        "xn--pypal-4ve.com",
        "brand4.sub4.shared40l1",
        "xn--80ak6aa92e.com",
        "www.example",
    };
    static const int looks_found[] = {1, 1, 0, 0, 0, 0};
    size_t i;

    build(&a, 1, n);
    build(&b, 0, n);
    ck_assert_msg(a.memo != NULL && b.memo == NULL, "the memo is not where it should be");
    ck_assert_uint_eq(a.names.count, b.names.count);
    ck_assert_uint_eq(a.used, b.used);
    ck_assert_uint_eq(a.keys_len, b.keys_len);
    ck_assert_msg(memcmp(a.keys, b.keys, a.keys_len * sizeof *a.keys) == 0, "keys differ");
    ck_assert_uint_eq(a.parents_used, b.parents_used);
    ck_assert_msg(same_parents(&a, &b), "parents differ");
    /* Lookalikes of the names, judged against both: the same finding,
     * naming the same protected name. */
    for (i = 0; i < sizeof looks / sizeof looks[0]; i++) {
        struct idng_lookalike la, lb;
        uint8_t wire[IDNG_WIRE_MAX];
        size_t len = t_wire(looks[i], wire);
        int ra = idng_lookalike_scan(&a, IDNG_RL_HIGHLY, IDNG_MODE_UTS46, wire, len, &la);
        int rb = idng_lookalike_scan(&b, IDNG_RL_HIGHLY, IDNG_MODE_UTS46, wire, len, &lb);
        ck_assert_msg(ra == rb && la.found == lb.found && la.like == lb.like, "%s", looks[i]);
        ck_assert_msg(!looks_found[i] || (la.found & IDNG_LK_CONFUSABLE), "%s: not confusable",
                      looks[i]);
    }
    /* Once the file's names are in, the memo is given back. */
    idng_protect_trim(&a);
    ck_assert(a.memo == NULL);
    idng_protect_free(&a);
    idng_protect_free(&b);
}
END_TEST

/* A small reservation gets no memo; the set works as before. */
START_TEST(test_small_reserve)
{
    struct idng_protect s;
    uint8_t wire[IDNG_WIRE_MAX];
    size_t len = t_wire("paypal.com", wire);

    idng_protect_init(&s);
    ck_assert_int_eq(idng_protect_reserve(&s, 10), 0);
    ck_assert(s.memo == NULL);
    ck_assert_int_eq(idng_protect_add(&s, wire, len), 0);
    ck_assert_int_eq(idng_protect_add(&s, wire, len), 1);
    idng_protect_free(&s);
}
END_TEST

static Suite *protect_build_suite(void)
{
    Suite *s = suite_create("protect-build");
    TCase *tc = tcase_create("table");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_reserved_table_is_the_same);
    tcase_add_test(tc, test_small_reserve);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(protect_build_suite)
