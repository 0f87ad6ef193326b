/**
 * \file
 * The DNS-name unit (codec/name.c), mirroring it:
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
 * - the "xn--" prefix test;
 * - names read out of a message, compression followed: pointers that go
 *   backwards, and every way one does not (itself, its own labels,
 *   forwards, past the end, a loop), cut pointers and labels, 255 octets
 *   once followed and 256, a chain of 127 pointers.
 */
#include "common.h"
#include "idnguard.h"

#include <string.h>

/* A wire name as a string literal: its octets and length (NULs included). */
struct wire {
    const char *w;
    size_t len;
};
#define W(s) {(s), sizeof(s) - 1}

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

/* n labels of `size` octets each, then the root; returns the length. */
static size_t build(uint8_t *w, size_t n, size_t size)
{
    size_t i, o = 0;
    for (i = 0; i < n; i++) {
        w[o++] = (uint8_t)size;
        memset(w + o, 'a' + (int)(i % 26), size);
        o += size;
    }
    w[o++] = 0;
    return o;
}

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

/* ---- Compressed names in a message ---- */

/* Messages (from offset 0: no header, which the unit does not read) and
 * the name at `off`: what it reads as, where it ends in place, or why it
 * cannot be read. */
static const struct {
    const char *what;
    struct wire msg;
    size_t off;
    idng_wire_fault fault;
    struct wire name; /* on success */
    size_t next;      /* on success */
} packed[] = {
    {"uncompressed", W("\003www\007example\000"), 0, IDNG_WIRE_OK, W("\003www\007example\000"), 13},
    {"the root", W("\001a\000\000"), 3, IDNG_WIRE_OK, W("\000"), 4},
    {"a label, then a pointer back", W("\003www\007example\000\003ftp\300\004"), 13, IDNG_WIRE_OK,
     W("\003ftp\007example\000"), 19},
    {"a pointer alone", W("\003www\007example\000\300\000"), 13, IDNG_WIRE_OK,
     W("\003www\007example\000"), 15},
    {"a pointer to a pointer, each backwards", W("\001a\000\300\000\300\003\001b\300\005"), 7,
     IDNG_WIRE_OK, W("\001b\001a\000"), 11},
    {"a pointer to itself", W("\300\000"), 0, IDNG_WIRE_POINTER, W(""), 0},
    {"a pointer into its own labels", W("\001a\000\001b\300\003"), 3, IDNG_WIRE_POINTER, W(""), 0},
    {"a pointer forwards", W("\300\002\001a\000"), 0, IDNG_WIRE_POINTER, W(""), 0},
    {"a pointer past the end", W("\001a\000\001b\300\100"), 3, IDNG_WIRE_POINTER, W(""), 0},
    /* 3: b, then 7; 7: c, then back to 3, which points to 7 again. */
    {"a loop of two", W("\001a\000\001b\300\007\001c\300\003"), 7, IDNG_WIRE_POINTER, W(""), 0},
    {"a pointer cut after one octet", W("\001a\000\001b\300"), 3, IDNG_WIRE_TRUNCATED, W(""), 0},
    {"a label cut", W("\001a\000\005ab"), 3, IDNG_WIRE_TRUNCATED, W(""), 0},
    {"a pointer to a cut label", W("\011ab\001b\300\000"), 3, IDNG_WIRE_TRUNCATED, W(""), 0},
    {"no root label", W("\001a\000\001b"), 3, IDNG_WIRE_NO_ROOT, W(""), 0},
    {"an offset at the end", W("\001a\000"), 3, IDNG_WIRE_NO_ROOT, W(""), 0},
    {"an offset past the end", W("\001a\000"), 9, IDNG_WIRE_NO_ROOT, W(""), 0},
    {"an extended label type", W("\001a\000\101\000"), 3, IDNG_WIRE_LABEL_TYPE, W(""), 0},
    {"a pointer to an extended label type", W("\101\000\001b\300\000"), 2, IDNG_WIRE_LABEL_TYPE,
     W(""), 0},
};

START_TEST(test_decompress)
{
    struct t_guard g;
    uint8_t out[IDNG_WIRE_MAX];
    size_t outlen = 999, next = 999;
    const uint8_t *m;
    idng_wire_fault f;

    t_guard_open(&g);
    m = t_guard_put(&g, packed[_i].msg.w, packed[_i].msg.len);
    f = idng_wire_decompress(m, packed[_i].msg.len, packed[_i].off, out, &outlen, &next);
    ck_assert_msg(f == packed[_i].fault, "%s: fault %d, expected %d", packed[_i].what, (int)f,
                  (int)packed[_i].fault);
    if (f == IDNG_WIRE_OK) {
        ck_assert_msg(outlen == packed[_i].name.len && memcmp(out, packed[_i].name.w, outlen) == 0,
                      "%s: read as another name (%zu octets)", packed[_i].what, outlen);
        ck_assert_msg(next == packed[_i].next, "%s: ends at %zu", packed[_i].what, next);
        /* next may be NULL. */
        ck_assert_int_eq(
            idng_wire_decompress(m, packed[_i].msg.len, packed[_i].off, out, &outlen, NULL),
            IDNG_WIRE_OK);
    }
    t_guard_close(&g);
}
END_TEST

/* A name of 255 octets once its pointer is followed, and one of 256. */
START_TEST(test_decompress_255_octets)
{
    uint8_t m[600], out[IDNG_WIRE_MAX];
    size_t base = build(m, 3, 63), len, outlen, next;
    struct t_guard g;

    ck_assert_uint_eq(base, 193);
    /* A label of 61 octets, then a pointer to the 193 octets at 0. */
    m[base] = 61;
    memset(m + base + 1, 'z', 61);
    m[base + 62] = 0xC0;
    m[base + 63] = 0;
    len = base + 64;
    t_guard_open(&g);
    ck_assert_int_eq(idng_wire_decompress(t_guard_put(&g, m, len), len, base, out, &outlen, &next),
                     IDNG_WIRE_OK);
    ck_assert_uint_eq(outlen, 255);
    ck_assert_uint_eq(next, len);
    ck_assert_int_eq(idng_wire_len(out, outlen), 255);
    /* 62 octets: 256 once followed, though each run is short. */
    m[base] = 62;
    memset(m + base + 1, 'z', 62);
    m[base + 63] = 0xC0;
    m[base + 64] = 0;
    len = base + 65;
    ck_assert_int_eq(idng_wire_decompress(t_guard_put(&g, m, len), len, base, out, &outlen, &next),
                     IDNG_WIRE_TOO_LONG);
    /* A chain of pointers adding one label each: 127 labels of 1 octet
     * are 255 octets; each name points to the one before. */
    len = 0;
    m[len++] = 0;
    for (size_t i = 0; i < 127; i++) {
        size_t prev = len == 1 ? 0 : len - 4;
        m[len++] = 1;
        m[len++] = 'a';
        m[len++] = (uint8_t)(0xC0 | prev >> 8);
        m[len++] = (uint8_t)prev;
    }
    ck_assert_int_eq(
        idng_wire_decompress(t_guard_put(&g, m, len), len, len - 4, out, &outlen, NULL),
        IDNG_WIRE_OK);
    ck_assert_uint_eq(outlen, 255);
    m[len] = 1;
    m[len + 1] = 'a';
    m[len + 2] = (uint8_t)(0xC0 | (len - 4) >> 8);
    m[len + 3] = (uint8_t)(len - 4);
    ck_assert_int_eq(
        idng_wire_decompress(t_guard_put(&g, m, len + 4), len + 4, len, out, &outlen, NULL),
        IDNG_WIRE_TOO_LONG);
    t_guard_close(&g);
}
END_TEST

/* Every prefix of a compressed message at the guard page: what is cut
 * off is never read, and a name whose octets are cut cannot be read. */
START_TEST(test_decompress_every_prefix)
{
    static const uint8_t m[] = "\003www\007example\000\003ftp\300\004";
    struct t_guard g;
    uint8_t out[IDNG_WIRE_MAX];
    size_t cut, outlen;

    t_guard_open(&g);
    for (cut = 0; cut < sizeof m - 1; cut++) {
        idng_wire_fault f =
            idng_wire_decompress(t_guard_put(&g, m, cut), cut, 13, out, &outlen, NULL);
        REQUIRE(f != IDNG_WIRE_OK, "read from %zu octets", cut);
    }
    t_guard_close(&g);
}
END_TEST

/* ---- Resource record headers ---- */

/* Records at `off` of a message (no DNS header: the unit does not read
 * one): the owner's place, and TYPE 1, CLASS 1, TTL 0x01020304, RDLENGTH
 * 4 after it, then 4 octets of RDATA. */
#define RR_FIXED "\000\001\000\001\001\002\003\004\000\004"
#define RR_RDATA "\300\000\002\001"
static const struct {
    const char *what;
    struct wire msg;
    size_t off;
    struct wire owner; /* decompressed */
    size_t owner_end;
    idng_wire_fault in_place; /* the fault of a walk in place */
} records[] = {
    {"an uncompressed owner", W("\003www\007example\000" RR_FIXED RR_RDATA), 0,
     W("\003www\007example\000"), 13, IDNG_WIRE_OK},
    {"the root as owner", W("\001a\000\000" RR_FIXED RR_RDATA), 3, W("\000"), 4, IDNG_WIRE_OK},
    {"a label, then a pointer back", W("\007example\000\003www\300\000" RR_FIXED RR_RDATA), 9,
     W("\003www\007example\000"), 15, IDNG_WIRE_POINTER},
    {"a pointer alone", W("\007example\000\300\000" RR_FIXED RR_RDATA), 9, W("\007example\000"), 11,
     IDNG_WIRE_POINTER},
    {"a pointer to a pointer", W("\001a\000\300\000\001b\300\003" RR_FIXED RR_RDATA), 5,
     W("\001b\001a\000"), 9, IDNG_WIRE_POINTER},
};

/* Every field, read both ways: decompressed, and walked in place. */
START_TEST(test_rr_read_good)
{
    struct t_guard g;
    uint8_t out[IDNG_WIRE_MAX];
    const uint8_t *m;
    size_t len = records[_i].msg.len, end = records[_i].owner_end;
    idng_wire_rr rr;

    t_guard_open(&g);
    m = t_guard_put(&g, records[_i].msg.w, len);
    ck_assert_int_eq(idng_wire_rr_read(m, len, records[_i].off, out, &rr), IDNG_WIRE_RR_OK);
    ck_assert_msg(rr.owner_len == records[_i].owner.len
                      && memcmp(out, records[_i].owner.w, rr.owner_len) == 0,
                  "%s: owner read as another name (%zu octets)", records[_i].what, rr.owner_len);
    ck_assert_int_eq(rr.fault, IDNG_WIRE_OK);
    for (int in_place = 0; in_place < 2; in_place++) {
        if (in_place) {
            ck_assert_int_eq(idng_wire_rr_read(m, len, records[_i].off, NULL, &rr),
                             IDNG_WIRE_RR_OK);
            ck_assert_uint_eq(rr.owner_len, 0);
            ck_assert_int_eq(rr.fault, records[_i].in_place);
        }
        ck_assert_uint_eq(rr.owner, records[_i].off);
        ck_assert_msg(rr.owner_end == end, "%s: owner ends at %zu", records[_i].what, rr.owner_end);
        ck_assert_uint_eq(rr.type, 1);
        ck_assert_uint_eq(rr.rclass, 1);
        ck_assert_uint_eq(rr.ttl, 0x01020304u);
        ck_assert_uint_eq(rr.rdlength, 4);
        ck_assert_uint_eq(rr.rdata, end + 10);
        ck_assert_uint_eq(rr.end, len);
        ck_assert(memcmp(m + rr.rdata, RR_RDATA, 4) == 0);
    }
    t_guard_close(&g);
}
END_TEST

/* Every cut of every record at the guard page: in the owner, the owner
 * cannot be read; in the ten fixed octets, the header is short; in the
 * RDATA, it runs past the end.  What is cut off is never read. */
START_TEST(test_rr_read_every_cut)
{
    struct t_guard g;
    uint8_t out[IDNG_WIRE_MAX];
    size_t off = records[_i].off, end = records[_i].owner_end, cut;
    idng_wire_rr rr;

    t_guard_open(&g);
    for (cut = 0; cut < records[_i].msg.len; cut++) {
        const uint8_t *m = t_guard_put(&g, records[_i].msg.w, cut);
        idng_wire_rr_status want = cut < end        ? IDNG_WIRE_RR_NAME
                                   : cut < end + 10 ? IDNG_WIRE_RR_SHORT
                                                    : IDNG_WIRE_RR_RDATA;
        for (int in_place = 0; in_place < 2; in_place++) {
            idng_wire_rr_status st = idng_wire_rr_read(m, cut, off, in_place ? NULL : out, &rr);
            REQUIRE(st == want, "%s, cut at %zu%s: %d, expected %d", records[_i].what, cut,
                    in_place ? " (in place)" : "", (int)st, (int)want);
            REQUIRE(rr.owner == off, "%s: owner at %zu", records[_i].what, rr.owner);
            if (st == IDNG_WIRE_RR_NAME)
                REQUIRE(rr.fault != IDNG_WIRE_OK && rr.owner_len == 0, "%s, cut at %zu: fault %d",
                        records[_i].what, cut, (int)rr.fault);
            else
                REQUIRE(rr.owner_end == end, "%s, cut at %zu: owner ends at %zu", records[_i].what,
                        cut, rr.owner_end);
            if (st == IDNG_WIRE_RR_RDATA)
                REQUIRE(rr.rdlength == 4 && rr.end == records[_i].msg.len,
                        "%s, cut at %zu: RDATA to %zu", records[_i].what, cut, rr.end);
        }
    }
    t_guard_close(&g);
}
END_TEST

/* Owners that cannot be read, the offset at or past the end, RDLENGTH
 * past the end however large, and the one difference between the two
 * ways: a pointer is not followed in place. */
START_TEST(test_rr_read_refused)
{
    static const uint8_t fwd[] = "\300\014" RR_FIXED RR_RDATA;
    static const uint8_t ext[] = "\101\000" RR_FIXED;
    static const uint8_t big[] = "\000\000"
                                 "\000\051"
                                 "\004\320"
                                 "\000\000\200\000"
                                 "\377\377"
                                 "\000\000";
    static const uint8_t empty[] = "\000\000\001\000\001\000\000\000\000\000\000";
    struct t_guard g;
    uint8_t out[IDNG_WIRE_MAX];
    const uint8_t *m;
    idng_wire_rr rr;

    t_guard_open(&g);
    /* A pointer forwards, to a root label. */
    m = t_guard_put(&g, fwd, sizeof fwd - 1);
    ck_assert_int_eq(idng_wire_rr_read(m, sizeof fwd - 1, 0, out, &rr), IDNG_WIRE_RR_NAME);
    ck_assert_int_eq(rr.fault, IDNG_WIRE_POINTER);
    ck_assert_int_eq(idng_wire_rr_read(m, sizeof fwd - 1, 0, NULL, &rr), IDNG_WIRE_RR_OK);
    ck_assert_int_eq(rr.fault, IDNG_WIRE_POINTER);
    ck_assert_uint_eq(rr.owner_end, 2);
    ck_assert_uint_eq(rr.end, sizeof fwd - 1);
    /* An extended label type. */
    m = t_guard_put(&g, ext, sizeof ext - 1);
    for (int in_place = 0; in_place < 2; in_place++) {
        ck_assert_int_eq(idng_wire_rr_read(m, sizeof ext - 1, 0, in_place ? NULL : out, &rr),
                         IDNG_WIRE_RR_NAME);
        ck_assert_int_eq(rr.fault, IDNG_WIRE_LABEL_TYPE);
    }
    /* The offset at and past the end. */
    m = t_guard_put(&g, empty, sizeof empty - 1);
    for (size_t off = sizeof empty - 1; off < sizeof empty + 2; off++)
        for (int in_place = 0; in_place < 2; in_place++) {
            ck_assert_int_eq(
                idng_wire_rr_read(m, sizeof empty - 1, off, in_place ? NULL : out, &rr),
                IDNG_WIRE_RR_NAME);
            ck_assert_int_eq(rr.fault, IDNG_WIRE_NO_ROOT);
        }
    /* RDLENGTH 0 that ends the message exactly: read; the RDATA is empty. */
    ck_assert_int_eq(idng_wire_rr_read(m, sizeof empty - 1, 0, out, &rr), IDNG_WIRE_RR_OK);
    ck_assert_uint_eq(rr.rdata, sizeof empty - 1);
    ck_assert_uint_eq(rr.end, sizeof empty - 1);
    /* An OPT record (root owner) whose RDLENGTH 65535 runs past its 2
     * octets: refused, with every field read. */
    m = t_guard_put(&g, big, sizeof big - 1);
    ck_assert_int_eq(idng_wire_rr_read(m, sizeof big - 1, 1, NULL, &rr), IDNG_WIRE_RR_RDATA);
    ck_assert_uint_eq(rr.type, 41);
    ck_assert_uint_eq(rr.rclass, 1232);
    ck_assert_uint_eq(rr.ttl, 0x8000);
    ck_assert_uint_eq(rr.rdlength, 65535);
    ck_assert_uint_eq(rr.rdata, 12);
    ck_assert_uint_eq(rr.end, 12 + 65535);
    t_guard_close(&g);
}
END_TEST

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

#define N_ELEMS(a) ((int)(sizeof(a) / sizeof((a)[0])))

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

    tc = tcase_create("compressed");
    tcase_add_loop_test(tc, test_decompress, 0, N_ELEMS(packed));
    tcase_add_test(tc, test_decompress_255_octets);
    tcase_add_test(tc, test_decompress_every_prefix);
    suite_add_tcase(s, tc);

    tc = tcase_create("record header");
    tcase_add_loop_test(tc, test_rr_read_good, 0, N_ELEMS(records));
    tcase_add_loop_test(tc, test_rr_read_every_cut, 0, N_ELEMS(records));
    tcase_add_test(tc, test_rr_read_refused);
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
