/**
 * \file
 * The DNS-name unit (codec/name.c), the names and records read out of a
 * message (test_name.c has the rest):
 * - names read out of a message, compression followed: pointers that go
 *   backwards, and every way one does not (itself, its own labels,
 *   forwards, past the end, a loop), cut pointers and labels, 255 octets
 *   once followed and 256, a chain of 127 pointers;
 * - resource record headers (idng_wire_rr_read): good records read both
 *   ways, compressed owners, every cut of the header and RDATA, a forward
 *   pointer, RDLENGTH past the end; at a guard page.
 */
#include "common.h"
#include "idnguard.h"
#include "name_check.h"

#include <string.h>

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

static Suite *name_message_suite(void)
{
    Suite *s = suite_create("DNS names in messages");
    TCase *tc = tcase_create("compressed");

    tcase_add_loop_test(tc, test_decompress, 0, N_ELEMS(packed));
    tcase_add_test(tc, test_decompress_255_octets);
    tcase_add_test(tc, test_decompress_every_prefix);
    suite_add_tcase(s, tc);

    tc = tcase_create("record header");
    tcase_add_loop_test(tc, test_rr_read_good, 0, N_ELEMS(records));
    tcase_add_loop_test(tc, test_rr_read_every_cut, 0, N_ELEMS(records));
    tcase_add_test(tc, test_rr_read_refused);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(name_message_suite)
