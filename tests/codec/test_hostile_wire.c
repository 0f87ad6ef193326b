/**
 * \file
 * Hostile inputs to the codec, the wire names that lie, each a named
 * regression test (test_hostile.c has the others): compression pointers,
 * lengths past the end or past 255, label types 0x40-0xBF, no root,
 * trailing octets, placed at the very end of a readable page followed by a
 * PROT_NONE page, so that reading one octet past len faults; and text
 * names at the same page.
 * No timing assertions: the costs are the benchmark's business.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */

#include "hostile_codec.h"
#include "worst_case.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* ------------------------------------------------------------------------ */
/* Wire names that lie, at the end of a page followed by a PROT_NONE page.   */

/* Named malformed wire names and the status idng_wire_check must give. */
static const struct {
    const char *what;
    const char *wire;
    size_t len;
    idng_status st;
} lies[] = {
    {"empty", BYTES(""), IDNG_E_INVAL},
    {"length past the end", BYTES("\005abc"), IDNG_E_INVAL},
    {"length 63 with 3 octets", BYTES("\077abc"), IDNG_E_INVAL},
    {"missing root", BYTES("\003abc"), IDNG_E_INVAL},
    {"missing root after two labels", BYTES("\003abc\003def"), IDNG_E_INVAL},
    {"root missing, just a length octet", BYTES("\003"), IDNG_E_INVAL},
    {"compression pointer first", BYTES("\300\000"), IDNG_E_INVAL},
    {"compression pointer after a label", BYTES("\003abc\300\014"), IDNG_E_INVAL},
    {"pointer to itself", BYTES("\300\000\000"), IDNG_E_INVAL},
    {"extended label type 0x40", BYTES("\100abc\000"), IDNG_E_INVAL},
    {"binary label 0x41 (RFC 2673)", BYTES("\101\010\377\000"), IDNG_E_INVAL},
    {"reserved type 0x80", BYTES("\200abc\000"), IDNG_E_INVAL},
    {"reserved type 0xBF", BYTES("\277abc\000"), IDNG_E_INVAL},
    {"0xFF", BYTES("\377"), IDNG_E_INVAL},
    {"trailing garbage after the root", BYTES("\003abc\000\377\300\001garbage"), IDNG_OK},
    {"trailing fake label after the root", BYTES("\003abc\000\012xn--ab-m1t\000"), IDNG_OK},
};

/* Wire names of 256 and 257 octets (over the limit by one and two) and of
 * exactly 255: 4 labels of 63 with a shorter last one. */
static size_t long_wire(uint8_t *w, size_t total)
{
    size_t pos = 0;
    while (pos + 1 < total) {
        size_t l = total - 1 - pos - 1;
        if (l > 63)
            l = 63;
        w[pos] = (uint8_t)l;
        memset(w + pos + 1, 'a', l);
        pos += 1 + l;
    }
    w[pos++] = 0;
    return pos;
}

START_TEST(test_wire_lies_never_read_past_len)
{
    struct t_guard g;
    size_t i, m;

    t_guard_open(&g);
    for (i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        const uint8_t *w = t_guard_put(&g, lies[i].wire, lies[i].len);
        for (m = 0; m < 3; m++) {
            idng_status st = idng_wire_check(w, lies[i].len, modes[m], NULL);
            ck_assert_msg(st == lies[i].st, "%s: %s, expected %s", lies[i].what,
                          idng_status_symbol(st), idng_status_symbol(lies[i].st));
        }
    }
    t_guard_close(&g);
}
END_TEST

START_TEST(test_wire_255_octets_limit_at_guard_page)
{
    struct t_guard g;
    uint8_t w[300];
    size_t total;

    t_guard_open(&g);
    for (total = 250; total <= 258; total++) {
        size_t n = long_wire(w, total);
        const uint8_t *at = t_guard_put(&g, w, n);
        idng_status st = idng_wire_check(at, n, U, NULL);
        ck_assert_msg(st == (n <= 255 ? IDNG_OK : IDNG_E_NAME_TOO_LONG), "%zu octets: %s", n,
                      idng_status_symbol(st));
        /* Cut one octet short (no root): invalid, and no read past it. */
        at = t_guard_put(&g, w, n - 1);
        st = idng_wire_check(at, n - 1, U, NULL);
        ck_assert_msg(st == IDNG_E_INVAL || st == IDNG_E_NAME_TOO_LONG, "%zu octets: %s", n - 1,
                      idng_status_symbol(st));
    }
    /* The worst-case names, 255 octets, at the guard and cut short. */
    for (total = 0; total < IDNG_WORST_LABEL_COUNT; total++) {
        uint8_t wire[IDNG_WORST_WIRE_LEN];
        size_t cut;
        idng_worst_wire(&idng_worst_labels[total], wire);
        for (cut = 0; cut <= sizeof wire; cut += (cut < 60 ? 1 : 64)) {
            const uint8_t *at = t_guard_put(&g, wire, sizeof wire - cut);
            idng_status st = idng_wire_check(at, sizeof wire - cut, U, NULL);
            ck_assert_msg(cut == 0 ? st == idng_worst_labels[total].status[2] : st == IDNG_E_INVAL,
                          "%s cut by %zu: %s", idng_worst_labels[total].name, cut,
                          idng_status_symbol(st));
        }
    }
    t_guard_close(&g);
}
END_TEST

/* Every prefix of valid names, every 1- and 2-octet input, and random
 * names biased towards lying length octets: no fault at the guard page,
 * and the status is the one a careful reader computes. */
static idng_status reference_shape(const uint8_t *w, size_t len)
{
    size_t pos = 0;
    for (;;) {
        size_t l;
        if (pos >= len)
            return IDNG_E_INVAL;
        l = w[pos];
        if (l == 0)
            return pos + 1 > 255 ? IDNG_E_NAME_TOO_LONG : IDNG_OK;
        if (l > 63 || pos + 1 + l > len)
            return IDNG_E_INVAL;
        if (pos + 1 + l + 1 > 255)
            return IDNG_E_NAME_TOO_LONG;
        pos += 1 + l;
    }
}

static uint32_t rng = 0x9E3779B9u;
static uint32_t rnd(void)
{
    return t_xorshift32(&rng);
}

/* Checks one wire name at the guard: shape errors as the reference says;
 * a well-formed name gets the status of its labels. */
static void wire_at_guard(struct t_guard *g, const uint8_t *w, size_t len, const char *what)
{
    const uint8_t *at = t_guard_put(g, w, len);
    idng_status ref = reference_shape(at, len);
    size_t m;

    for (m = 0; m < 3; m++) {
        idng_status st = idng_wire_check(at, len, modes[m], NULL);
        if (ref != IDNG_OK)
            REQUIRE(st == ref, "%s (%zu octets, first 0x%02x): %s, expected %s", what, len,
                    len ? at[0] : 0, idng_status_symbol(st), idng_status_symbol(ref));
        else
            REQUIRE(idng_status_class(st) != IDNG_C_INVAL
                        && idng_status_class(st) != IDNG_C_TOO_LONG,
                    "%s: well-formed name gets %s", what, idng_status_symbol(st));
    }
}

START_TEST(test_wire_every_prefix_and_short_input_at_guard_page)
{
    static const char *const names[] = {
        "\015xn--bcher-kva\007example\000",
        "\012xn--ab-m1t\007example\000",
        "\007b\303\274cher\007example\000",
        "\000",
    };
    static const size_t lens[] = {23, 20, 17, 1};
    struct t_guard g;
    uint8_t w[4];
    size_t i, n;
    unsigned a, b;

    t_guard_open(&g);
    for (i = 0; i < 4; i++)
        for (n = 0; n <= lens[i]; n++)
            wire_at_guard(&g, (const uint8_t *)names[i], n, "prefix");
    for (a = 0; a < 256; a++) {
        w[0] = (uint8_t)a;
        wire_at_guard(&g, w, 1, "1 octet");
        for (b = 0; b < 256; b++) {
            w[1] = (uint8_t)b;
            wire_at_guard(&g, w, 2, "2 octets");
        }
    }
    t_guard_close(&g);
}
END_TEST

START_TEST(test_wire_random_lying_names_at_guard_page)
{
    struct t_guard g;
    uint8_t w[320];
    int iter;

    t_guard_open(&g);
    for (iter = 0; iter < 20000; iter++) {
        static const char alphabet[] = "xn--abcdefgh0123456789-";
        size_t len = rnd() % 300;
        t_random_wire(w, len, alphabet, sizeof alphabet - 1, 4, 8, rnd);
        wire_at_guard(&g, w, len, "random");
    }
    t_guard_close(&g);
}
END_TEST

/* Text names at the guard page too: the text functions read no further. */
START_TEST(test_text_names_at_guard_page)
{
    static const char *const names[] = {
        "xn--bcher-kva.example",
        "xn--ab-m1t",
        "b\303\274cher.example.",
        "xn--",
        "xn--a",
        "a.",
        ".",
        "\343\200\202",
        "\357\274\216a",
        "xn--bcher-kva\303",
    };
    struct t_guard g;
    struct outbuf o;
    size_t i, n, m, len;

    t_guard_open(&g);
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        for (n = 0; n <= strlen(names[i]); n++) {
            const char *at = (const char *)t_guard_put(&g, names[i], n);
            for (m = 0; m < 3; m++) {
                (void)idng_name_check(at, n, modes[m], NULL);
                (void)idng_label_check(at, n, modes[m], NULL);
                len = 256;
                (void)idng_to_ascii(at, n, out_prep(&o, len), &len, modes[m], 0, NULL);
                REQUIRE(out_intact(&o, 256), "wrote past capacity");
                len = 256;
                (void)idng_to_unicode(at, n, out_prep(&o, len), &len, modes[m], IDNG_F_KEEP_GOING,
                                      NULL);
                REQUIRE(out_intact(&o, 256), "wrote past capacity");
                len = 64;
                (void)idng_punycode_decode(at, n, (uint32_t *)(void *)o.b, &len, NULL);
            }
        }
    t_guard_close(&g);
}
END_TEST

static Suite *hostile_wire_suite(void)
{
    Suite *s = suite_create("hostile wire names (codec)");
    TCase *tc;

    tc = tcase_create("wire names that lie, at a guard page");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_wire_lies_never_read_past_len);
    tcase_add_test(tc, test_wire_255_octets_limit_at_guard_page);
    tcase_add_test(tc, test_wire_every_prefix_and_short_input_at_guard_page);
    tcase_add_test(tc, test_wire_random_lying_names_at_guard_page);
    tcase_add_test(tc, test_text_names_at_guard_page);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(hostile_wire_suite)
