/**
 * \file
 * Frame Streams (tap/fstrm.c): every status of the frame parser, the
 * encoder's round trip, every prefix of a frame, and the reader's
 * handshake in both modes with each out-of-order frame; also the tap
 * status table.
 */
#include "common.h"
#include "idng_fstrm.h"
#include "tap_build.h"

#include <string.h>

#define DNSTAP IDNG_DNSTAP_CTYPE
#define MAXF IDNG_FSTRM_FRAME_DEFAULT

/* A control frame built by hand: type and content-type fields. */
static void control(struct tb *t, uint32_t type, const char *const *ctypes, size_t n)
{
    size_t i, payload = 4;
    for (i = 0; i < n; i++)
        payload += 8 + strlen(ctypes[i]);
    t->n = 0;
    tb_be32(t, 0);
    tb_be32(t, (uint32_t)payload);
    tb_be32(t, type);
    for (i = 0; i < n; i++) {
        tb_be32(t, 1);
        tb_be32(t, (uint32_t)strlen(ctypes[i]));
        tb_bytes(t, ctypes[i], strlen(ctypes[i]));
    }
}

static idng_tap_status parse(const struct tb *t, idng_fstrm_frame *f)
{
    return idng_fstrm_next(t->b, t->n, MAXF, f);
}

START_TEST(test_status_table)
{
    int v;
    for (v = 0; v >= IDNG_TAP_E_DNS_EDE_SHORT; v--) {
        ck_assert_ptr_nonnull(idng_tap_status_message((idng_tap_status)v));
        ck_assert_str_ne(idng_tap_status_symbol((idng_tap_status)v), "IDNG_TAP_UNKNOWN");
    }
    ck_assert_str_eq(idng_tap_status_symbol(IDNG_TAP_E_PB_GROUP), "IDNG_TAP_E_PB_GROUP");
    ck_assert_str_eq(idng_tap_status_symbol((idng_tap_status)(IDNG_TAP_E_DNS_EDE_SHORT - 1)),
                     "IDNG_TAP_UNKNOWN");
    ck_assert_str_eq(idng_tap_status_symbol((idng_tap_status)1), "IDNG_TAP_UNKNOWN");
    ck_assert_str_eq(idng_tap_status_message((idng_tap_status)7), "unknown status");
}
END_TEST

START_TEST(test_data_frame)
{
    struct tb t = {{0}, 0};
    idng_fstrm_frame f;
    size_t k;

    tb_be32(&t, 5);
    tb_bytes(&t, "hello", 5);
    tb_be32(&t, 1); /* the next frame's start: not consumed */
    ck_assert_int_eq(parse(&t, &f), IDNG_TAP_OK);
    ck_assert_int_eq(f.kind, IDNG_FSTRM_DATA);
    ck_assert_uint_eq(f.consumed, 9);
    ck_assert_ptr_eq(f.data, t.b + 4);
    ck_assert_uint_eq(f.data_len, 5);
    /* Every prefix: need more, and how much when known. */
    for (k = 0; k < 9; k++) {
        ck_assert_int_eq(idng_fstrm_next(t.b, k, MAXF, &f), IDNG_TAP_OK);
        ck_assert_int_eq(f.kind, IDNG_FSTRM_NEED_MORE);
        ck_assert_uint_eq(f.consumed, 0);
        ck_assert_uint_eq(f.need, k < 4 ? 4 : 9);
    }
    /* The limit: 5 passes at 5, fails at 4 with the length announced. */
    ck_assert_int_eq(idng_fstrm_next(t.b, t.n, 5, &f), IDNG_TAP_OK);
    ck_assert_int_eq(idng_fstrm_next(t.b, t.n, 4, &f), IDNG_TAP_E_FSTRM_FRAME_TOO_LONG);
    ck_assert_uint_eq(f.need, 9);
    ck_assert_uint_eq(f.consumed, 0);
    /* A huge length is refused from its 4 octets alone. */
    t.n = 0;
    tb_be32(&t, 0xFFFFFFFFu);
    ck_assert_int_eq(parse(&t, &f), IDNG_TAP_E_FSTRM_FRAME_TOO_LONG);
}
END_TEST

START_TEST(test_roundtrip)
{
    static const char *const types[] = {DNSTAP, "", "x"};
    uint8_t out[IDNG_FSTRM_ENCODED_MAX];
    uint8_t big[IDNG_FSTRM_CTYPE_MAX];
    idng_fstrm_frame f;
    uint32_t type;
    size_t i, n, k;

    memset(big, 'b', sizeof big);
    for (type = IDNG_FSTRM_ACCEPT; type <= IDNG_FSTRM_FINISH; type++) {
        int ctype_ok = type != IDNG_FSTRM_STOP && type != IDNG_FSTRM_FINISH;
        n = sizeof out;
        ck_assert_int_eq(idng_fstrm_encode_control(type, NULL, 0, out, &n), IDNG_TAP_OK);
        ck_assert_uint_eq(n, 12);
        ck_assert_int_eq(idng_fstrm_next(out, n, MAXF, &f), IDNG_TAP_OK);
        ck_assert_int_eq(f.kind, IDNG_FSTRM_CONTROL);
        ck_assert_uint_eq(f.control, type);
        ck_assert_uint_eq(f.n_ctypes, 0);
        ck_assert_uint_eq(f.consumed, 12);
        for (i = 0; i < 3; i++) {
            const uint8_t *ct = i < 2 ? (const uint8_t *)types[i] : big;
            size_t ctl = i < 2 ? strlen(types[i]) : sizeof big;
            n = sizeof out;
            if (!ctype_ok) {
                ck_assert_int_eq(idng_fstrm_encode_control(type, ct, ctl, out, &n),
                                 IDNG_TAP_E_INVAL);
                continue;
            }
            ck_assert_int_eq(idng_fstrm_encode_control(type, ct, ctl, out, &n), IDNG_TAP_OK);
            ck_assert_uint_eq(n, 20 + ctl);
            ck_assert_int_eq(idng_fstrm_next(out, n, MAXF, &f), IDNG_TAP_OK);
            ck_assert_uint_eq(f.control, type);
            ck_assert_uint_eq(f.n_ctypes, 1);
            ck_assert_uint_eq(f.ctype_len[0], ctl);
            ck_assert(ctl == 0 || memcmp(f.ctype[0], ct, ctl) == 0);
            ck_assert_int_eq(idng_fstrm_has_ctype(&f, ct, ctl), 1);
            ck_assert_int_eq(idng_fstrm_has_ctype(&f, (const uint8_t *)"y", 1), 0);
            /* Every prefix needs more. */
            for (k = 0; k < n; k++) {
                ck_assert_int_eq(idng_fstrm_next(out, k, MAXF, &f), IDNG_TAP_OK);
                ck_assert_int_eq(f.kind, IDNG_FSTRM_NEED_MORE);
                ck_assert_uint_le(f.need, n);
                ck_assert_uint_gt(f.need, k);
            }
        }
    }
    /* Too small a buffer says how much is needed and writes nothing. */
    n = 19;
    memset(out, 0xAA, sizeof out);
    ck_assert_int_eq(idng_fstrm_encode_control(IDNG_FSTRM_ACCEPT, (const uint8_t *)"ab", 2, out,
                                               &n),
                     IDNG_TAP_E_NOSPACE);
    ck_assert_uint_eq(n, 22);
    ck_assert_uint_eq(out[0], 0xAA);
    n = sizeof out;
    ck_assert_int_eq(idng_fstrm_encode_control(0, NULL, 0, out, &n), IDNG_TAP_E_INVAL);
    ck_assert_int_eq(idng_fstrm_encode_control(6, NULL, 0, out, &n), IDNG_TAP_E_INVAL);
    ck_assert_int_eq(idng_fstrm_encode_control(IDNG_FSTRM_READY, NULL, 3, out, &n),
                     IDNG_TAP_E_INVAL);
    ck_assert_int_eq(idng_fstrm_encode_control(IDNG_FSTRM_READY, big, sizeof big + 1, out, &n),
                     IDNG_TAP_E_INVAL);
    ck_assert_str_eq(idng_fstrm_control_name(IDNG_FSTRM_READY), "READY");
    ck_assert_str_eq(idng_fstrm_control_name(0), "UNKNOWN");
    ck_assert_str_eq(idng_fstrm_control_name(77), "UNKNOWN");
}
END_TEST

START_TEST(test_control_errors)
{
    static const char *const two[] = {"a", DNSTAP};
    static const char *const six[] = {"a", "b", "c", "d", "e", DNSTAP};
    struct tb t = {{0}, 0};
    idng_fstrm_frame f;
    size_t i;

    /* Lengths: 512 is the most, 4 the least (the type). */
    t.n = 0;
    tb_be32(&t, 0);
    tb_be32(&t, 513);
    ck_assert_int_eq(parse(&t, &f), IDNG_TAP_E_FSTRM_CONTROL_TOO_LONG);
    for (i = 0; i < 4; i++) {
        t.n = 0;
        tb_be32(&t, 0);
        tb_be32(&t, (uint32_t)i);
        ck_assert_int_eq(parse(&t, &f), IDNG_TAP_E_FSTRM_CONTROL_SHORT);
    }
    t.n = 0;
    tb_be32(&t, 0);
    tb_be32(&t, 512);
    tb_be32(&t, 77); /* unknown type: fields unread */
    while (t.n < 520)
        tb_u8(&t, 0xEE);
    ck_assert_int_eq(parse(&t, &f), IDNG_TAP_OK);
    ck_assert_int_eq(f.kind, IDNG_FSTRM_CONTROL);
    ck_assert_uint_eq(f.control, 77);
    ck_assert_uint_eq(f.n_ctypes, 0);
    ck_assert_uint_eq(f.consumed, 520);
    ck_assert_int_eq(idng_fstrm_has_ctype(&f, (const uint8_t *)"", 0), 0);

    /* Fields: a short header, a length past the frame, another type, too long. */
    control(&t, IDNG_FSTRM_READY, two, 2);
    t.b[7] -= 1; /* the frame now ends inside the last content type */
    t.n -= 1;
    ck_assert_int_eq(parse(&t, &f), IDNG_TAP_E_FSTRM_FIELD_TRUNCATED);
    control(&t, IDNG_FSTRM_READY, NULL, 0);
    t.b[7] += 7;
    tb_be32(&t, 1);
    tb_be16(&t, 0);
    tb_u8(&t, 0);
    ck_assert_int_eq(parse(&t, &f), IDNG_TAP_E_FSTRM_FIELD_TRUNCATED);
    control(&t, IDNG_FSTRM_READY, two, 1);
    t.b[15] = 2;
    ck_assert_int_eq(parse(&t, &f), IDNG_TAP_E_FSTRM_FIELD_TYPE);
    control(&t, IDNG_FSTRM_READY, NULL, 0);
    t.b[7] += 8 + 257;
    tb_be32(&t, 1);
    tb_be32(&t, 257);
    for (i = 0; i < 257; i++)
        tb_u8(&t, 'c');
    ck_assert_int_eq(parse(&t, &f), IDNG_TAP_E_FSTRM_CTYPE_TOO_LONG);
    /* Content-type counts per type (fstrm/control.h). */
    control(&t, IDNG_FSTRM_START, two, 2);
    ck_assert_int_eq(parse(&t, &f), IDNG_TAP_E_FSTRM_CTYPE_COUNT);
    ck_assert_uint_eq(f.n_ctypes, 0);
    control(&t, IDNG_FSTRM_STOP, two, 1);
    ck_assert_int_eq(parse(&t, &f), IDNG_TAP_E_FSTRM_CTYPE_COUNT);
    control(&t, IDNG_FSTRM_FINISH, two, 1);
    ck_assert_int_eq(parse(&t, &f), IDNG_TAP_E_FSTRM_CTYPE_COUNT);
    /* READY and ACCEPT take many; the first IDNG_FSTRM_CTYPES are kept,
     * idng_fstrm_has_ctype sees them all. */
    control(&t, IDNG_FSTRM_READY, six, 6);
    ck_assert_int_eq(parse(&t, &f), IDNG_TAP_OK);
    ck_assert_uint_eq(f.n_ctypes, 6);
    ck_assert_uint_eq(f.ctype_len[3], 1);
    ck_assert_int_eq(f.ctype[3][0], 'd');
    ck_assert_int_eq(idng_fstrm_has_ctype(&f, (const uint8_t *)DNSTAP, strlen(DNSTAP)), 1);
}
END_TEST

/* Feeds built control frames to a connection. */
static idng_tap_status feed(idng_fstrm_conn *c, uint32_t type, const char *ctype, uint32_t *reply)
{
    struct tb t = {{0}, 0};
    idng_fstrm_frame f;
    control(&t, type, &ctype, ctype != NULL);
    ck_assert_int_eq(parse(&t, &f), IDNG_TAP_OK);
    return idng_fstrm_conn_step(c, &f, reply);
}

static idng_tap_status feed_data(idng_fstrm_conn *c)
{
    static const uint8_t frame[] = {0, 0, 0, 2, 0x78, 0x01};
    idng_fstrm_frame f;
    uint32_t reply;
    ck_assert_int_eq(idng_fstrm_next(frame, sizeof frame, MAXF, &f), IDNG_TAP_OK);
    return idng_fstrm_conn_step(c, &f, &reply);
}

START_TEST(test_handshake)
{
    idng_fstrm_conn c;
    uint32_t reply;
    idng_fstrm_frame f;

    /* A socket: READY, ACCEPT, START, data, STOP, FINISH. */
    idng_fstrm_conn_init(&c, IDNG_FSTRM_BIDIRECTIONAL);
    ck_assert_int_eq(c.state, IDNG_FSTRM_WAIT_READY);
    ck_assert_int_eq(feed(&c, IDNG_FSTRM_READY, DNSTAP, &reply), IDNG_TAP_OK);
    ck_assert_uint_eq(reply, IDNG_FSTRM_ACCEPT);
    ck_assert_int_eq(feed(&c, IDNG_FSTRM_START, DNSTAP, &reply), IDNG_TAP_OK);
    ck_assert_uint_eq(reply, 0);
    ck_assert_int_eq(feed_data(&c), IDNG_TAP_OK);
    ck_assert_int_eq(feed_data(&c), IDNG_TAP_OK);
    ck_assert_int_eq(feed(&c, 9, NULL, &reply), IDNG_TAP_OK); /* ignored */
    ck_assert_uint_eq(c.ignored, 1);
    ck_assert_int_eq(feed(&c, IDNG_FSTRM_STOP, NULL, &reply), IDNG_TAP_OK);
    ck_assert_uint_eq(reply, IDNG_FSTRM_FINISH);
    ck_assert_int_eq(c.state, IDNG_FSTRM_DONE);
    ck_assert_uint_eq(c.data_frames, 2);
    ck_assert_int_eq(feed_data(&c), IDNG_TAP_E_FSTRM_AFTER_END);
    ck_assert_int_eq(c.state, IDNG_FSTRM_DONE);

    /* A file: START, data, STOP; nothing to send. */
    idng_fstrm_conn_init(&c, IDNG_FSTRM_UNIDIRECTIONAL);
    ck_assert_int_eq(feed(&c, IDNG_FSTRM_START, DNSTAP, &reply), IDNG_TAP_OK);
    ck_assert_int_eq(feed_data(&c), IDNG_TAP_OK);
    ck_assert_int_eq(feed(&c, IDNG_FSTRM_STOP, NULL, &reply), IDNG_TAP_OK);
    ck_assert_uint_eq(reply, 0);
    ck_assert_int_eq(c.state, IDNG_FSTRM_DONE);
    ck_assert_int_eq(feed(&c, IDNG_FSTRM_START, DNSTAP, &reply), IDNG_TAP_E_FSTRM_AFTER_END);

    /* A frame not parsed is not a frame. */
    idng_fstrm_conn_init(&c, IDNG_FSTRM_UNIDIRECTIONAL);
    memset(&f, 0, sizeof f);
    ck_assert_int_eq(idng_fstrm_conn_step(&c, &f, &reply), IDNG_TAP_E_INVAL);
    ck_assert_int_eq(c.state, IDNG_FSTRM_FAILED);
    ck_assert_int_eq(feed(&c, IDNG_FSTRM_START, DNSTAP, &reply), IDNG_TAP_E_INVAL);
}
END_TEST

/* Out-of-order and wrong-type sequences: each fails, and stays failed. */
struct bad_seq {
    idng_fstrm_mode mode;
    uint32_t frames[4]; /* control types; 100 = a data frame; 0 ends */
    const char *ctype;  /* for READY and START */
    idng_tap_status st;
};

static const struct bad_seq bad_seqs[] = {
    {IDNG_FSTRM_BIDIRECTIONAL, {100}, DNSTAP, IDNG_TAP_E_FSTRM_ORDER},
    {IDNG_FSTRM_BIDIRECTIONAL, {IDNG_FSTRM_START}, DNSTAP, IDNG_TAP_E_FSTRM_ORDER},
    {IDNG_FSTRM_BIDIRECTIONAL, {IDNG_FSTRM_ACCEPT}, DNSTAP, IDNG_TAP_E_FSTRM_ORDER},
    {IDNG_FSTRM_BIDIRECTIONAL, {IDNG_FSTRM_READY, IDNG_FSTRM_READY}, DNSTAP, IDNG_TAP_E_FSTRM_ORDER},
    {IDNG_FSTRM_BIDIRECTIONAL, {IDNG_FSTRM_READY, 100}, DNSTAP, IDNG_TAP_E_FSTRM_ORDER},
    {IDNG_FSTRM_BIDIRECTIONAL, {IDNG_FSTRM_READY}, "protobuf:other", IDNG_TAP_E_FSTRM_CTYPE},
    {IDNG_FSTRM_BIDIRECTIONAL, {IDNG_FSTRM_READY}, NULL, IDNG_TAP_E_FSTRM_CTYPE},
    {IDNG_FSTRM_BIDIRECTIONAL, {7}, DNSTAP, IDNG_TAP_E_FSTRM_CONTROL_TYPE},
    {IDNG_FSTRM_UNIDIRECTIONAL, {IDNG_FSTRM_READY}, DNSTAP, IDNG_TAP_E_FSTRM_ORDER},
    {IDNG_FSTRM_UNIDIRECTIONAL, {100}, DNSTAP, IDNG_TAP_E_FSTRM_ORDER},
    {IDNG_FSTRM_UNIDIRECTIONAL, {IDNG_FSTRM_STOP}, DNSTAP, IDNG_TAP_E_FSTRM_ORDER},
    {IDNG_FSTRM_UNIDIRECTIONAL, {IDNG_FSTRM_FINISH}, DNSTAP, IDNG_TAP_E_FSTRM_ORDER},
    {IDNG_FSTRM_UNIDIRECTIONAL, {0xFFFFFFFFu}, DNSTAP, IDNG_TAP_E_FSTRM_CONTROL_TYPE},
    {IDNG_FSTRM_UNIDIRECTIONAL, {IDNG_FSTRM_START}, NULL, IDNG_TAP_E_FSTRM_CTYPE},
    {IDNG_FSTRM_UNIDIRECTIONAL, {IDNG_FSTRM_START}, "protobuf:dnstap.Dnstap ", IDNG_TAP_E_FSTRM_CTYPE},
    {IDNG_FSTRM_UNIDIRECTIONAL, {IDNG_FSTRM_START, IDNG_FSTRM_START}, DNSTAP, IDNG_TAP_E_FSTRM_ORDER},
    {IDNG_FSTRM_UNIDIRECTIONAL, {IDNG_FSTRM_START, 100, IDNG_FSTRM_READY}, DNSTAP, IDNG_TAP_E_FSTRM_ORDER},
    {IDNG_FSTRM_UNIDIRECTIONAL, {IDNG_FSTRM_START, IDNG_FSTRM_FINISH}, DNSTAP, IDNG_TAP_E_FSTRM_ORDER},
    {IDNG_FSTRM_UNIDIRECTIONAL, {IDNG_FSTRM_START, IDNG_FSTRM_ACCEPT}, DNSTAP, IDNG_TAP_E_FSTRM_ORDER},
};

START_TEST(test_bad_sequence)
{
    const struct bad_seq *b = &bad_seqs[_i];
    idng_fstrm_conn c;
    uint32_t reply;
    idng_tap_status st = IDNG_TAP_OK;
    size_t k;

    idng_fstrm_conn_init(&c, b->mode);
    for (k = 0; k < 4 && b->frames[k] != 0; k++) {
        uint32_t t = b->frames[k];
        int with_ctype = t == IDNG_FSTRM_READY || t == IDNG_FSTRM_START;
        st = t == 100 ? feed_data(&c) : feed(&c, t, with_ctype ? b->ctype : NULL, &reply);
    }
    ck_assert_msg(st == b->st, "sequence %d: %s, expected %s", _i, idng_tap_status_symbol(st),
                  idng_tap_status_symbol(b->st));
    ck_assert_int_eq(c.state, IDNG_FSTRM_FAILED);
    ck_assert_int_eq(c.failure, b->st);
    ck_assert_int_eq(feed_data(&c), b->st);
}
END_TEST

/* A whole stream in one buffer, parsed frame by frame at a guard page:
 * never a read past the end. */
START_TEST(test_stream_guarded)
{
    struct tb s = {{0}, 0}, t = {{0}, 0};
    const char *ct = DNSTAP;
    struct t_guard g;
    const unsigned char *p;
    idng_fstrm_frame f;
    idng_fstrm_conn c;
    uint32_t reply;
    size_t off = 0, cut, frames = 0;

    control(&t, IDNG_FSTRM_START, &ct, 1);
    tb_bytes(&s, t.b, t.n);
    tb_be32(&s, 3);
    tb_bytes(&s, "abc", 3);
    tb_be32(&s, 1);
    tb_u8(&s, 'z');
    control(&t, IDNG_FSTRM_STOP, NULL, 0);
    tb_bytes(&s, t.b, t.n);
    t_guard_open(&g);
    for (cut = 0; cut <= s.n; cut++) {
        p = t_guard_put(&g, s.b, cut);
        idng_fstrm_conn_init(&c, IDNG_FSTRM_UNIDIRECTIONAL);
        off = 0;
        frames = 0;
        for (;;) {
            ck_assert_int_eq(idng_fstrm_next(p + off, cut - off, MAXF, &f), IDNG_TAP_OK);
            if (f.kind == IDNG_FSTRM_NEED_MORE)
                break;
            ck_assert_int_eq(idng_fstrm_conn_step(&c, &f, &reply), IDNG_TAP_OK);
            off += f.consumed;
            frames++;
        }
        ck_assert_uint_le(off, cut);
        ck_assert_int_eq(c.state == IDNG_FSTRM_DONE, cut == s.n);
    }
    ck_assert_uint_eq(frames, 4);
    ck_assert_uint_eq(c.data_frames, 2);
    t_guard_close(&g);
}
END_TEST

static Suite *fstrm_suite(void)
{
    Suite *s = suite_create("tap/fstrm");
    TCase *tc = tcase_create("frames");

    tcase_add_test(tc, test_status_table);
    tcase_add_test(tc, test_data_frame);
    tcase_add_test(tc, test_roundtrip);
    tcase_add_test(tc, test_control_errors);
    tcase_add_test(tc, test_handshake);
    tcase_add_loop_test(tc, test_bad_sequence, 0, (int)(sizeof bad_seqs / sizeof bad_seqs[0]));
    tcase_add_test(tc, test_stream_guarded);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(fstrm_suite)
