/**
 * \file
 * The DNS-name unit (codec/name.c), mirroring it (names read out of a
 * message are test_name_message.c's):
 * - the wire walk over good names (labels, their count, where it ends) and
 *   over every kind of malformed one (compression pointer, label types
 *   0x40-0xBF, lengths that run past the buffer, a buffer that ends at a
 *   length octet or where one should be, names over 255 octets, 127 labels
 *   against 128), each placed at a guard page so that reading one octet
 *   past len faults; the status and place each fault maps to;
 * - wire name lengths; label comparison (ASCII letters only are folded);
 *   the label-wise below-or-equal test;
 * - every full stop, and near misses; text to wire with its 63 and 255
 *   octet limits, empty labels, the root, and too small buffers;
 * - the "xn--" prefix test.
 */
#include "common.h"
#include "idnguard.h"
#include "name_check.h"

#include <string.h>

/* Walks w[0..len) at the guard page and returns what the last step said;
 * the labels found go to labels[] (up to cap) and their count to *n. */
static int walk(struct t_guard *g, const void *w, size_t len, idng_wire_iter *it,
                const uint8_t **labels, size_t *lens, size_t cap, size_t *n)
{
    const uint8_t *at = t_guard_put(g, w, len), *l;
    size_t ll;
    int r;

    *n = 0;
    idng_wire_iter_init(it, at, len);
    while ((r = idng_wire_next(it, &l, &ll)) == IDNG_WIRE_LABEL) {
        REQUIRE(l > at && l + ll <= at + len, "label outside the name");
        if (*n < cap) {
            labels[*n] = l;
            lens[*n] = ll;
        }
        (*n)++;
    }
    return r;
}

/* ---- Good names ---- */

static const struct {
    struct wire name;
    size_t labels;   /* how many */
    size_t len;      /* the name's length, root label included */
    struct wire dot; /* the labels, joined with '.' */
} good[] = {
    {W("\000"), 0, 1, W("")},
    {W("\003www\007example\003com\000"), 3, 17, W("www.example.com")},
    {W("\001a\000"), 1, 3, W("a")},
    {W("\003WwW\000trailing octets are not looked at"), 1, 5, W("WwW")},
    {W("\002\303\251\000"), 1, 4, W("\303\251")},
    /* A label holding a full stop and a NUL: octets like any other. */
    {W("\003a.b\002\000x\000"), 2, 8, W("a.b.\000x")},
};

START_TEST(test_walk_good_names)
{
    struct t_guard g;
    idng_wire_iter it;
    const uint8_t *labels[8];
    size_t lens[8], n, i, o = 0;
    char joined[64];
    int r;

    t_guard_open(&g);
    r = walk(&g, good[_i].name.w, good[_i].name.len, &it, labels, lens, 8, &n);
    ck_assert_int_eq(r, IDNG_WIRE_END);
    ck_assert_uint_eq(n, good[_i].labels);
    ck_assert_uint_eq(it.labels, good[_i].labels);
    ck_assert_int_eq(it.fault, IDNG_WIRE_OK);
    ck_assert_int_eq(idng_wire_status(&it, NULL), IDNG_OK);
    for (i = 0; i < n; i++) {
        if (i > 0)
            joined[o++] = '.';
        memcpy(joined + o, labels[i], lens[i]);
        o += lens[i];
    }
    ck_assert_uint_eq(o, good[_i].dot.len);
    ck_assert_mem_eq(joined, good[_i].dot.w, o);
    /* The walk stops at the root label and stays there. */
    ck_assert_uint_eq(it.pos + 1, good[_i].len);
    ck_assert_uint_eq(idng_wire_len(it.wire, good[_i].name.len), good[_i].len);
    ck_assert_uint_eq(it.wire[it.pos], 0);
    ck_assert_int_eq(idng_wire_next(&it, &labels[0], &lens[0]), IDNG_WIRE_END);
    t_guard_close(&g);
}
END_TEST

/* ---- Malformed names ---- */

static const struct {
    const char *what;
    struct wire name;
    idng_wire_fault fault;
    size_t pos;      /* the faulty length octet, or where one is missing */
    size_t labels;   /* labels returned before the fault */
} bad[] = {
    {"empty buffer", W(""), IDNG_WIRE_NO_ROOT, 0, 0},
    {"no root label", W("\003www"), IDNG_WIRE_NO_ROOT, 4, 1},
    {"compression pointer first", W("\300\014"), IDNG_WIRE_POINTER, 0, 0},
    {"compression pointer after a label", W("\003www\300\014"), IDNG_WIRE_POINTER, 4, 1},
    {"0xFF length octet", W("\001a\377"), IDNG_WIRE_POINTER, 2, 1},
    {"label of 64 octets", W("\100abc"), IDNG_WIRE_LABEL_TYPE, 0, 0},
    {"extended label type 0x41", W("\001a\101\000"), IDNG_WIRE_LABEL_TYPE, 2, 1},
    {"label type 0x80", W("\200"), IDNG_WIRE_LABEL_TYPE, 0, 0},
    {"label type 0xBF", W("\277\000"), IDNG_WIRE_LABEL_TYPE, 0, 0},
    {"length that lies", W("\005ab\000"), IDNG_WIRE_TRUNCATED, 0, 0},
    {"length one past the end", W("\003www\003co"), IDNG_WIRE_TRUNCATED, 4, 1},
    {"buffer ends at a length octet", W("\003www\003"), IDNG_WIRE_TRUNCATED, 4, 1},
    {"buffer of one length octet", W("\001"), IDNG_WIRE_TRUNCATED, 0, 0},
};

START_TEST(test_walk_malformed_names)
{
    struct t_guard g;
    idng_wire_iter it;
    const uint8_t *labels[8];
    size_t lens[8], n;
    idng_error e;
    int r;

    t_guard_open(&g);
    r = walk(&g, bad[_i].name.w, bad[_i].name.len, &it, labels, lens, 8, &n);
    ck_assert_msg(r == IDNG_WIRE_BAD, "%s: %d", bad[_i].what, r);
    ck_assert_msg(it.fault == bad[_i].fault, "%s: fault %d", bad[_i].what, (int)it.fault);
    ck_assert_uint_eq(it.pos, bad[_i].pos);
    ck_assert_uint_eq(n, bad[_i].labels);
    ck_assert_uint_eq(it.labels, bad[_i].labels);
    /* Every malformation here is IDNG_E_INVAL at the faulty length octet. */
    ck_assert_int_eq(idng_wire_status(&it, &e), IDNG_E_INVAL);
    ck_assert_int_eq(e.status, IDNG_E_INVAL);
    ck_assert_uint_eq(e.label_off, bad[_i].pos);
    ck_assert_uint_eq(e.label_len, 0);
    ck_assert_uint_eq(idng_wire_len(it.wire, bad[_i].name.len), 0);
    /* It stays stopped. */
    ck_assert_int_eq(idng_wire_next(&it, &labels[0], &lens[0]), IDNG_WIRE_BAD);
    ck_assert_uint_eq(it.pos, bad[_i].pos);
    t_guard_close(&g);
}
END_TEST

START_TEST(test_walk_255_octets)
{
    uint8_t w[300];
    struct t_guard g;
    idng_wire_iter it;
    const uint8_t *labels[4];
    size_t lens[4], n, len;
    idng_error e;

    t_guard_open(&g);
    /* 63 + 63 + 63 + 61 octets: 4 * 1 + 250 + 1 = 255, the longest name. */
    len = build(w, 3, 63);
    w[len - 1] = 61;
    memset(w + len, 'z', 61);
    w[len + 61] = 0;
    len += 62;
    ck_assert_uint_eq(len, 255);
    ck_assert_int_eq(walk(&g, w, len, &it, labels, lens, 4, &n), IDNG_WIRE_END);
    ck_assert_uint_eq(n, 4);
    ck_assert_uint_eq(idng_wire_len(t_guard_put(&g, w, len), len), 255);

    /* One octet more in the last label: 256 octets. */
    w[192] = 62;
    memset(w + 193, 'z', 62);
    w[255] = 0;
    ck_assert_int_eq(walk(&g, w, 256, &it, labels, lens, 4, &n), IDNG_WIRE_BAD);
    ck_assert_int_eq(it.fault, IDNG_WIRE_TOO_LONG);
    ck_assert_uint_eq(it.pos, 192);
    ck_assert_uint_eq(n, 3);
    ck_assert_int_eq(idng_wire_status(&it, &e), IDNG_E_NAME_TOO_LONG);
    ck_assert_uint_eq(e.label_off, 0);
    ck_assert_uint_eq(e.label_len, 255); /* up to the end of the label that did not fit */
    ck_assert_uint_eq(idng_wire_len(t_guard_put(&g, w, 256), 256), 0);

    /* Four labels of 63: the fourth is over before the buffer is. */
    len = build(w, 4, 63);
    ck_assert_int_eq(walk(&g, w, len, &it, labels, lens, 4, &n), IDNG_WIRE_BAD);
    ck_assert_int_eq(it.fault, IDNG_WIRE_TOO_LONG);
    t_guard_close(&g);
}
END_TEST

START_TEST(test_walk_127_labels_not_128)
{
    uint8_t w[300];
    struct t_guard g;
    idng_wire_iter it;
    const uint8_t *label;
    size_t n, len;

    t_guard_open(&g);
    len = build(w, IDNG_LABELS_MAX, 1);
    ck_assert_uint_eq(len, 255);
    ck_assert_int_eq(walk(&g, w, len, &it, NULL, NULL, 0, &n), IDNG_WIRE_END);
    ck_assert_uint_eq(n, IDNG_LABELS_MAX);
    ck_assert_uint_eq(idng_wire_len(it.wire, len), 255);

    len = build(w, IDNG_LABELS_MAX + 1, 1);
    ck_assert_int_eq(walk(&g, w, len, &it, NULL, NULL, 0, &n), IDNG_WIRE_BAD);
    ck_assert_int_eq(it.fault, IDNG_WIRE_TOO_LONG);
    ck_assert_uint_eq(n, IDNG_LABELS_MAX);
    ck_assert_uint_eq(idng_wire_len(it.wire, len), 0);

    /* White box: 255 octets cannot hold a 128th label, so the label limit
     * is a second line of defence; seen alone, it stops the walk too. */
    len = build(w, 2, 1);
    idng_wire_iter_init(&it, t_guard_put(&g, w, len), len);
    it.labels = IDNG_LABELS_MAX;
    ck_assert_int_eq(idng_wire_next(&it, &label, &n), IDNG_WIRE_BAD);
    ck_assert_int_eq(it.fault, IDNG_WIRE_TOO_MANY);
    ck_assert_int_eq(idng_wire_status(&it, NULL), IDNG_E_NAME_TOO_LONG);
    t_guard_close(&g);
}
END_TEST

/* Every prefix of a good name, and every 1- and 2-octet buffer, at the
 * guard page: only a buffer that reaches the root label is well formed,
 * and nothing is read past len (a read would fault). */
START_TEST(test_walk_every_prefix_and_short_buffer)
{
    static const char name[] = "\003www\007example\003com\000";
    struct t_guard g;
    idng_wire_iter it;
    uint8_t w[2];
    size_t n, len;
    unsigned a, b;
    int r;

    t_guard_open(&g);
    for (len = 0; len < sizeof name; len++) {
        r = walk(&g, name, len, &it, NULL, NULL, 0, &n);
        REQUIRE(r == (len == sizeof name - 1 ? IDNG_WIRE_END : IDNG_WIRE_BAD), "prefix %zu: %d",
                len, r);
    }
    for (a = 0; a < 256; a++) {
        w[0] = (uint8_t)a;
        r = walk(&g, w, 1, &it, NULL, NULL, 0, &n);
        REQUIRE(r == (a == 0 ? IDNG_WIRE_END : IDNG_WIRE_BAD), "0x%02x: %d", a, r);
        for (b = 0; b < 256; b++) {
            w[1] = (uint8_t)b;
            r = walk(&g, w, 2, &it, NULL, NULL, 0, &n);
            REQUIRE(r == (a == 0 ? IDNG_WIRE_END : IDNG_WIRE_BAD), "0x%02x 0x%02x: %d", a, b, r);
        }
    }
    t_guard_close(&g);
}
END_TEST

/* The unit and idng_wire_check agree on which names are malformed. */
static uint32_t rng = 0x2545F491u;
static uint32_t rnd(void)
{
    return t_xorshift32(&rng);
}

START_TEST(test_walk_agrees_with_wire_check)
{
    static const char alphabet[] = "abcxn-0123456789";
    struct t_guard g;
    uint8_t w[300];
    idng_wire_iter it;
    idng_error e1, e2;
    size_t n, len;
    int iter, r;

    t_guard_open(&g);
    for (iter = 0; iter < 20000; iter++) {
        idng_status st, ws;
        len = rnd() % 300;
        t_random_wire(w, len, alphabet, sizeof alphabet - 1, 4, 8, rnd);
        r = walk(&g, w, len, &it, NULL, NULL, 0, &n);
        ws = idng_wire_status(&it, &e1);
        st = idng_wire_check(it.wire, len, IDNG_MODE_PUNYCODE, &e2);
        if (r == IDNG_WIRE_BAD) {
            REQUIRE(st == ws && e1.label_off == e2.label_off && e1.label_len == e2.label_len,
                    "iteration %d: walk says %s at %zu, wire check %s at %zu", iter,
                    idng_status_symbol(ws), e1.label_off, idng_status_symbol(st), e2.label_off);
        } else {
            REQUIRE(st != IDNG_E_INVAL && st != IDNG_E_NAME_TOO_LONG,
                    "iteration %d: well formed, but wire check says %s", iter,
                    idng_status_symbol(st));
            REQUIRE(idng_wire_len(it.wire, len) == it.pos + 1, "iteration %d: length", iter);
        }
    }
    t_guard_close(&g);
}
END_TEST

/* ---- Comparison and the below test ---- */

START_TEST(test_label_casecmp)
{
#define CMP(a, b) idng_label_casecmp((const uint8_t *)(a), sizeof(a) - 1, (const uint8_t *)(b), \
                                     sizeof(b) - 1)
    ck_assert_int_eq(CMP("ExAmPlE", "example"), 0);
    ck_assert_int_eq(CMP("AZ", "az"), 0);
    ck_assert_int_lt(CMP("a", "b"), 0);
    ck_assert_int_gt(CMP("B", "a"), 0);
    ck_assert_int_lt(CMP("a", "ab"), 0); /* a prefix first */
    ck_assert_int_gt(CMP("ab", "A"), 0);
    ck_assert_int_eq(CMP("", ""), 0);
    /* Only ASCII letters fold: '@' and '`', '[' and '{' differ in the
     * same bit as 'A' and 'a'; so do U+00C9 and U+00E9 in UTF-8. */
    ck_assert_int_ne(CMP("@", "`"), 0);
    ck_assert_int_ne(CMP("[", "{"), 0);
    ck_assert_int_ne(CMP("\303\211", "\303\251"), 0);
    /* Octets compare unsigned. */
    ck_assert_int_gt(CMP("\200", "z"), 0);
#undef CMP
}
END_TEST

static const struct {
    struct wire name, apex;
    int below;
} below[] = {
    {W("\003www\007example\003com\000"), W("\007example\003com\000"), 1},
    {W("\007EXAMPLE\003com\000"), W("\007example\003COM\000"), 1}, /* equal */
    {W("\003www\007example\003com\000"), W("\000"), 1},             /* below the root */
    {W("\000"), W("\000"), 1},
    {W("\003com\000"), W("\007example\003com\000"), 0},             /* above */
    {W("\012wwwexample\003com\000"), W("\007example\003com\000"), 0},
    /* The apex's octets, length octet included, inside a label: not a
     * label boundary, so not below. */
    {W("\011x\007example\003com\000"), W("\007example\003com\000"), 0},
    {W("\003www\007example\003org\000"), W("\007example\003com\000"), 0},
    {W("\003www\007\303\211xample\003com\000"), W("\007\303\251xample\003com\000"), 0},
    /* Malformed either side. */
    {W("\003www\007example\003com"), W("\003com\000"), 0},
    {W("\003www\003com\000"), W("\003com\300\014"), 0},
    {W("\003www\003com\000"), W(""), 0},
};

START_TEST(test_wire_is_below)
{
    struct t_guard g, h;
    const uint8_t *n, *a;

    t_guard_open(&g);
    t_guard_open(&h);
    n = t_guard_put(&g, below[_i].name.w, below[_i].name.len);
    a = t_guard_put(&h, below[_i].apex.w, below[_i].apex.len);
    ck_assert_int_eq(idng_wire_is_below(n, below[_i].name.len, a, below[_i].apex.len),
                     below[_i].below);
    t_guard_close(&h);
    t_guard_close(&g);
}
END_TEST

/* ---- Full stops and text to wire ---- */

static const struct {
    const char *s;
    size_t len, stop;
} stops[] = {
    {".", 1, 1},
    {"\343\200\202", 3, 3},       /* U+3002 IDEOGRAPHIC FULL STOP */
    {"\357\274\216", 3, 3},       /* U+FF0E FULLWIDTH FULL STOP */
    {"\357\275\241", 3, 3},       /* U+FF61 HALFWIDTH IDEOGRAPHIC FULL STOP */
    {".a", 2, 1},
    {"\343\200\202a", 4, 3},
    {"", 0, 0},
    {"a", 1, 0},
    {"\343\200\201", 3, 0},       /* U+3001 IDEOGRAPHIC COMMA */
    {"\343\200\203", 3, 0},       /* U+3003 */
    {"\357\274\215", 3, 0},       /* U+FF0D FULLWIDTH HYPHEN-MINUS */
    {"\357\275\240", 3, 0},       /* U+FF60 */
    {"\343\200", 2, 0},           /* U+3002 cut short */
    {"\357\274", 2, 0},
    {"\302\267", 2, 0},           /* U+00B7 MIDDLE DOT */
};

START_TEST(test_full_stop)
{
    struct t_guard g;
    const char *at;

    t_guard_open(&g);
    at = (const char *)t_guard_put(&g, stops[_i].s, stops[_i].len);
    ck_assert_uint_eq(idng_full_stop(at, stops[_i].len), stops[_i].stop);
    t_guard_close(&g);
}
END_TEST

static const struct {
    const char *text;
    struct wire want;
} t2w_good[] = {
    {"www.example.com", W("\003www\007example\003com\000")},
    {"www.example.com.", W("\003www\007example\003com\000")},
    {"a\343\200\202b", W("\001a\001b\000")},
    {"a\357\274\216b", W("\001a\001b\000")},
    {"a\357\275\241b", W("\001a\001b\000")},
    {"a\343\200\202", W("\001a\000")},
    {"a\357\275\241", W("\001a\000")},
    {".", W("\000")},
    {"\343\200\202", W("\000")},
    {"\357\274\216", W("\000")},
    {"WwW.Ex", W("\003WwW\002Ex\000")},             /* no case folding */
    {"b\303\274cher.de", W("\007b\303\274cher\002de\000")}, /* no mapping */
    {"a\\b", W("\003a\\b\000")},                    /* no escapes */
    {"a\\.b", W("\002a\\\001b\000")},
    {"a\343\200\201b", W("\005a\343\200\201b\000")}, /* U+3001 is no full stop */
};

START_TEST(test_text_to_wire_good)
{
    uint8_t out[300];
    size_t len = sizeof out;
    idng_error e;
    const char *t = t2w_good[_i].text;

    memset(out, 0xA5, sizeof out);
    ck_assert_int_eq(idng_text_to_wire(t, strlen(t), out, &len, &e), IDNG_OK);
    ck_assert_int_eq(e.status, IDNG_OK);
    ck_assert_uint_eq(len, t2w_good[_i].want.len);
    ck_assert_mem_eq(out, t2w_good[_i].want.w, len);
    ck_assert_uint_eq(out[len], 0xA5);
}
END_TEST

static const struct {
    const char *text;
    idng_status st;
    size_t off, len;
} t2w_bad[] = {
    {"", IDNG_E_EMPTY_LABEL, 0, 0},
    {"..", IDNG_E_EMPTY_LABEL, 0, 0},
    {".a", IDNG_E_EMPTY_LABEL, 0, 0},
    {"a..b", IDNG_E_EMPTY_LABEL, 2, 0},
    {"a..", IDNG_E_EMPTY_LABEL, 2, 0},
    {"a\343\200\202\343\200\202b", IDNG_E_EMPTY_LABEL, 4, 0},
    {"a.\357\274\216", IDNG_E_EMPTY_LABEL, 2, 0},
    {"\343\200\202.", IDNG_E_EMPTY_LABEL, 0, 0},
};

START_TEST(test_text_to_wire_bad)
{
    uint8_t out[300];
    size_t len = sizeof out;
    idng_error e;
    const char *t = t2w_bad[_i].text;

    ck_assert_int_eq(idng_text_to_wire(t, strlen(t), out, &len, &e), t2w_bad[_i].st);
    ck_assert_int_eq(e.status, t2w_bad[_i].st);
    ck_assert_uint_eq(e.label_off, t2w_bad[_i].off);
    ck_assert_uint_eq(e.label_len, t2w_bad[_i].len);
}
END_TEST

/* Labels of `size` octets joined by the full stop `stop`: the text. */
static size_t text_of(char *t, size_t n, size_t size, const char *stop)
{
    size_t i, o = 0;
    for (i = 0; i < n; i++) {
        if (i > 0) {
            memcpy(t + o, stop, strlen(stop));
            o += strlen(stop);
        }
        memset(t + o, 'a', size);
        o += size;
    }
    return o;
}

START_TEST(test_text_to_wire_limits)
{
    char t[1200];
    uint8_t out[300];
    size_t len, n;
    idng_error e;

    /* 63 octets in a label, not 64. */
    n = text_of(t, 1, 63, ".");
    len = sizeof out;
    ck_assert_int_eq(idng_text_to_wire(t, n, out, &len, NULL), IDNG_OK);
    ck_assert_uint_eq(len, 65);
    n = text_of(t, 2, 64, "\343\200\202");
    len = sizeof out;
    ck_assert_int_eq(idng_text_to_wire(t, n, out, &len, &e), IDNG_E_LABEL_TOO_LONG);
    ck_assert_uint_eq(e.label_off, 0);
    ck_assert_uint_eq(e.label_len, 64);

    /* 127 one-octet labels make 255 wire octets, whatever the full stops. */
    n = text_of(t, 127, 1, "\357\275\241");
    len = sizeof out;
    ck_assert_int_eq(idng_text_to_wire(t, n, out, &len, NULL), IDNG_OK);
    ck_assert_uint_eq(len, 255);
    memcpy(t + n, "\357\275\241", 3); /* with the root's full stop too */
    len = sizeof out;
    ck_assert_int_eq(idng_text_to_wire(t, n + 3, out, &len, NULL), IDNG_OK);
    ck_assert_uint_eq(len, 255);
    n = text_of(t, 128, 1, ".");
    len = sizeof out;
    ck_assert_int_eq(idng_text_to_wire(t, n, out, &len, &e), IDNG_E_NAME_TOO_LONG);
    ck_assert_uint_eq(e.label_off, 0);
    ck_assert_uint_eq(e.label_len, n);

    /* 63.63.63.61 is 255 octets; 63.63.63.62 is 256. */
    n = text_of(t, 4, 63, ".") - 2;
    len = sizeof out;
    ck_assert_int_eq(idng_text_to_wire(t, n, out, &len, NULL), IDNG_OK);
    ck_assert_uint_eq(len, 255);
    len = sizeof out;
    ck_assert_int_eq(idng_text_to_wire(t, n + 1, out, &len, NULL), IDNG_E_NAME_TOO_LONG);
}
END_TEST

START_TEST(test_text_to_wire_capacity)
{
    static const char text[] = "www.example.com";
    static const char want[] = "\003www\007example\003com";
    uint8_t out[32];
    size_t cap, len;

    for (cap = 0; cap <= 17; cap++) {
        memset(out, 0xA5, sizeof out);
        len = cap;
        if (cap < 17) {
            REQUIRE(idng_text_to_wire(text, sizeof text - 1, out, &len, NULL) == IDNG_E_NOSPACE,
                    "capacity %zu", cap);
        } else {
            REQUIRE(idng_text_to_wire(text, sizeof text - 1, out, &len, NULL) == IDNG_OK,
                    "capacity %zu", cap);
            REQUIRE(memcmp(out, want, sizeof want) == 0, "output");
        }
        REQUIRE(len == 17, "capacity %zu: needed %zu", cap, len);
        REQUIRE(out[cap] == 0xA5, "capacity %zu: wrote at or past it", cap);
    }
}
END_TEST

/* ---- The ACE prefix ---- */

START_TEST(test_is_ace)
{
    ck_assert(idng_is_ace("xn--", 4));
    ck_assert(idng_is_ace("XN--bcher-kva", 13));
    ck_assert(idng_is_ace("xN--a", 5));
    ck_assert(idng_is_ace("Xn--a", 5));
    ck_assert(!idng_is_ace("xn--", 3));
    ck_assert(!idng_is_ace("xn-a", 4));
    ck_assert(!idng_is_ace("xm--a", 5));
    ck_assert(!idng_is_ace("yn--a", 5));
    ck_assert(!idng_is_ace("x\316\275--", 6)); /* U+03BD is not 'n' */
    ck_assert(!idng_is_ace("\370n--a", 5));    /* 'x' | 0x80 */
    ck_assert(!idng_is_ace("", 0));
}
END_TEST

static Suite *name_suite(void)
{
    Suite *s = suite_create("DNS names");
    TCase *tc = tcase_create("wire walk");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_walk_good_names, 0, N_ELEMS(good));
    tcase_add_loop_test(tc, test_walk_malformed_names, 0, N_ELEMS(bad));
    tcase_add_test(tc, test_walk_255_octets);
    tcase_add_test(tc, test_walk_127_labels_not_128);
    tcase_add_test(tc, test_walk_every_prefix_and_short_buffer);
    tcase_add_test(tc, test_walk_agrees_with_wire_check);
    suite_add_tcase(s, tc);

    tc = tcase_create("compare");
    tcase_add_test(tc, test_label_casecmp);
    tcase_add_loop_test(tc, test_wire_is_below, 0, N_ELEMS(below));
    suite_add_tcase(s, tc);

    tc = tcase_create("text");
    tcase_add_loop_test(tc, test_full_stop, 0, N_ELEMS(stops));
    tcase_add_loop_test(tc, test_text_to_wire_good, 0, N_ELEMS(t2w_good));
    tcase_add_loop_test(tc, test_text_to_wire_bad, 0, N_ELEMS(t2w_bad));
    tcase_add_test(tc, test_text_to_wire_limits);
    tcase_add_test(tc, test_text_to_wire_capacity);
    tcase_add_test(tc, test_is_ace);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(name_suite)
