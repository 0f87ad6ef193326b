/**
 * \file
 * Fuzz target: Frame Streams (tap/idng_fstrm.h).  The input is a byte
 * stream, parsed frame by frame with idng_fstrm_next and fed to a
 * connection (byte 0 bit 0: bidirectional or not; bits 1-7: a data frame
 * limit of 8 << n octets).
 *
 * Invariants: consumed <= what is left and > 0 for a frame; NEED_MORE's
 * need exceeds what is left; every pointer lies inside the input; an
 * error sets no frame; a control frame re-encoded (type and its first
 * content type, when it has at most one) parses back the same; a
 * connection's state only moves forward and, once failed, stays failed.
 */
#include "fuzz_common.h"
#include "idng_fstrm.h"

static int inside(const uint8_t *p, size_t n, const uint8_t *b, size_t len)
{
    return p >= b && n <= len && (size_t)(p - b) <= len - n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *buf, enc[IDNG_FSTRM_ENCODED_MAX];
    size_t off = 0, max_frame, len;
    idng_fstrm_conn c;
    idng_fstrm_frame f, g;
    uint32_t reply;

    if (size < 1)
        return 0;
    max_frame = (size_t)8 << (data[0] >> 1 & 15);
    idng_fstrm_conn_init(&c, data[0] & 1 ? IDNG_FSTRM_BIDIRECTIONAL : IDNG_FSTRM_UNIDIRECTIONAL);
    len = size - 1;
    buf = fuzz_dup(data + 1, len);
    for (;;) {
        idng_fstrm_state before = c.state;
        idng_tap_status st = idng_fstrm_next(buf + off, len - off, max_frame, &f), cs;
        size_t i;
        if (st != IDNG_TAP_OK) {
            FUZZ_CHECK(st < 0 && st >= IDNG_TAP_E_FSTRM_CTYPE_COUNT, "status %d", st);
            FUZZ_CHECK(f.consumed == 0 && f.kind == IDNG_FSTRM_NEED_MORE, "error with a frame");
            break;
        }
        if (f.kind == IDNG_FSTRM_NEED_MORE) {
            FUZZ_CHECK(f.need > len - off, "need %zu with %zu left", f.need, len - off);
            break;
        }
        FUZZ_CHECK(f.consumed > 0 && f.consumed <= len - off, "consumed %zu of %zu",
                   f.consumed, len - off);
        FUZZ_CHECK(inside(f.data, f.data_len, buf + off, f.consumed), "data outside its frame");
        for (i = 0; i < f.n_ctypes && i < IDNG_FSTRM_CTYPES; i++)
            FUZZ_CHECK(inside(f.ctype[i], f.ctype_len[i], f.data, f.data_len),
                       "content type outside its frame");
        if (f.kind == IDNG_FSTRM_CONTROL && f.control >= 1 && f.control <= 5 && f.n_ctypes <= 1) {
            size_t n = sizeof enc;
            FUZZ_CHECK(idng_fstrm_encode_control(f.control, f.n_ctypes ? f.ctype[0] : NULL,
                                                 f.n_ctypes ? f.ctype_len[0] : 0, enc, &n)
                           == IDNG_TAP_OK,
                       "cannot re-encode");
            FUZZ_CHECK(n == f.consumed && !memcmp(enc, buf + off, n), "re-encoding differs");
            FUZZ_CHECK(idng_fstrm_next(enc, n, max_frame, &g) == IDNG_TAP_OK
                           && g.control == f.control && g.n_ctypes == f.n_ctypes,
                       "round trip differs");
        }
        cs = idng_fstrm_conn_step(&c, &f, &reply);
        if (before == IDNG_FSTRM_FAILED)
            FUZZ_CHECK(c.state == IDNG_FSTRM_FAILED && cs == c.failure, "left FAILED");
        if (cs == IDNG_TAP_OK)
            FUZZ_CHECK(c.state >= before, "state went back");
        FUZZ_CHECK(reply == 0 || reply == IDNG_FSTRM_ACCEPT || reply == IDNG_FSTRM_FINISH,
                   "reply %u", reply);
        off += f.consumed;
    }
    free(buf);
    return 0;
}
