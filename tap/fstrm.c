/**
 * \file
 * Frame Streams: the frame parser, the control frame encoder and the
 * reader's connection state machine (idng_fstrm.h says what is tolerated).
 */
#include "idng_fstrm.h"

#include <string.h>

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static int control_known(uint32_t type)
{
    return type >= IDNG_FSTRM_ACCEPT && type <= IDNG_FSTRM_FINISH;
}

/* Incomplete: the caller must have `need` octets before asking again. */
static idng_tap_status need_more(idng_fstrm_frame *f, size_t need)
{
    f->need = need;
    return IDNG_TAP_OK;
}

/* The fields of a known control frame: CONTENT_TYPE only, within the
 * frame, each at most 256 octets; START takes at most one, STOP and
 * FINISH none (the rules of libfstrm's fstrm_control_decode). */
static idng_tap_status control_fields(idng_fstrm_frame *f)
{
    const uint8_t *d = f->data;
    size_t p = 0, n = f->data_len;

    while (p < n) {
        uint32_t ftype, flen;
        if (n - p < 8)
            return IDNG_TAP_E_FSTRM_FIELD_TRUNCATED;
        ftype = be32(d + p);
        flen = be32(d + p + 4);
        if (ftype != IDNG_FSTRM_FIELD_CONTENT_TYPE)
            return IDNG_TAP_E_FSTRM_FIELD_TYPE;
        if (flen > IDNG_FSTRM_CTYPE_MAX)
            return IDNG_TAP_E_FSTRM_CTYPE_TOO_LONG;
        if (flen > n - p - 8)
            return IDNG_TAP_E_FSTRM_FIELD_TRUNCATED;
        if (f->n_ctypes < IDNG_FSTRM_CTYPES) {
            f->ctype[f->n_ctypes] = d + p + 8;
            f->ctype_len[f->n_ctypes] = flen;
        }
        f->n_ctypes++;
        p += 8 + (size_t)flen;
    }
    if ((f->control == IDNG_FSTRM_START && f->n_ctypes > 1)
        || ((f->control == IDNG_FSTRM_STOP || f->control == IDNG_FSTRM_FINISH) && f->n_ctypes > 0))
        return IDNG_TAP_E_FSTRM_CTYPE_COUNT;
    return IDNG_TAP_OK;
}

idng_tap_status idng_fstrm_next(const uint8_t *buf, size_t len, size_t max_frame,
                                idng_fstrm_frame *f)
{
    uint32_t n, clen;
    idng_tap_status st;

    f->kind = IDNG_FSTRM_NEED_MORE;
    f->consumed = 0;
    f->need = 0;
    f->data = NULL;
    f->data_len = 0;
    f->control = 0;
    f->n_ctypes = 0;
    if (len < 4)
        return need_more(f, 4);
    n = be32(buf);
    if (n != 0) {
        if (n > max_frame) {
            f->need = (size_t)n + 4;
            return IDNG_TAP_E_FSTRM_FRAME_TOO_LONG;
        }
        if (len - 4 < n)
            return need_more(f, (size_t)n + 4);
        f->kind = IDNG_FSTRM_DATA;
        f->data = buf + 4;
        f->data_len = n;
        f->consumed = (size_t)n + 4;
        return IDNG_TAP_OK;
    }
    /* The escape: a control frame follows. */
    if (len < 8)
        return need_more(f, 8);
    clen = be32(buf + 4);
    if (clen > IDNG_FSTRM_CONTROL_MAX)
        return IDNG_TAP_E_FSTRM_CONTROL_TOO_LONG;
    if (clen < 4)
        return IDNG_TAP_E_FSTRM_CONTROL_SHORT;
    if (len - 8 < clen)
        return need_more(f, (size_t)clen + 8);
    f->control = be32(buf + 8);
    f->data = buf + 12;
    f->data_len = clen - 4;
    /* A type not known here: its fields are not ours to judge. */
    if (control_known(f->control) && (st = control_fields(f)) != IDNG_TAP_OK) {
        f->n_ctypes = 0;
        return st;
    }
    f->kind = IDNG_FSTRM_CONTROL;
    f->consumed = (size_t)clen + 8;
    return IDNG_TAP_OK;
}

int idng_fstrm_has_ctype(const idng_fstrm_frame *f, const uint8_t *ctype, size_t len)
{
    size_t p = 0;

    if (f->kind != IDNG_FSTRM_CONTROL || !control_known(f->control))
        return 0;
    /* idng_fstrm_next has checked every field's bounds. */
    while (f->data_len - p >= 8) {
        size_t flen = be32(f->data + p + 4);
        if (flen == len && memcmp(f->data + p + 8, ctype, len) == 0)
            return 1;
        p += 8 + flen;
    }
    return 0;
}

const char *idng_fstrm_control_name(uint32_t type)
{
    static const char *const names[] = {"UNKNOWN", "ACCEPT", "START", "STOP", "READY", "FINISH"};
    return names[control_known(type) ? type : 0];
}

idng_tap_status idng_fstrm_encode_control(uint32_t type, const uint8_t *ctype, size_t ctype_len,
                                          uint8_t *out, size_t *outlen)
{
    size_t payload, total;

    if (!control_known(type) || (ctype == NULL && ctype_len != 0)
        || ctype_len > IDNG_FSTRM_CTYPE_MAX
        || (ctype != NULL && (type == IDNG_FSTRM_STOP || type == IDNG_FSTRM_FINISH)))
        return IDNG_TAP_E_INVAL;
    payload = 4 + (ctype != NULL ? 8 + ctype_len : 0);
    total = 8 + payload;
    if (*outlen < total) {
        *outlen = total;
        return IDNG_TAP_E_NOSPACE;
    }
    put_be32(out, 0);
    put_be32(out + 4, (uint32_t)payload);
    put_be32(out + 8, type);
    if (ctype != NULL) {
        put_be32(out + 12, IDNG_FSTRM_FIELD_CONTENT_TYPE);
        put_be32(out + 16, (uint32_t)ctype_len);
        if (ctype_len > 0)
            memcpy(out + 20, ctype, ctype_len);
    }
    *outlen = total;
    return IDNG_TAP_OK;
}

void idng_fstrm_conn_init(idng_fstrm_conn *c, idng_fstrm_mode mode)
{
    c->mode = mode;
    c->state = mode == IDNG_FSTRM_BIDIRECTIONAL ? IDNG_FSTRM_WAIT_READY : IDNG_FSTRM_WAIT_START;
    c->data_frames = 0;
    c->ignored = 0;
    c->failure = IDNG_TAP_OK;
}

static idng_tap_status fail(idng_fstrm_conn *c, idng_tap_status st)
{
    c->state = IDNG_FSTRM_FAILED;
    c->failure = st;
    return st;
}

static int is_dnstap(const idng_fstrm_frame *f)
{
    return idng_fstrm_has_ctype(f, (const uint8_t *)IDNG_DNSTAP_CTYPE,
                                sizeof IDNG_DNSTAP_CTYPE - 1);
}

idng_tap_status idng_fstrm_conn_step(idng_fstrm_conn *c, const idng_fstrm_frame *f,
                                     uint32_t *reply)
{
    *reply = 0;
    if (c->state == IDNG_FSTRM_FAILED)
        return c->failure;
    if (f->kind != IDNG_FSTRM_DATA && f->kind != IDNG_FSTRM_CONTROL)
        return fail(c, IDNG_TAP_E_INVAL);
    if (c->state == IDNG_FSTRM_DONE)
        return IDNG_TAP_E_FSTRM_AFTER_END;
    if (f->kind == IDNG_FSTRM_DATA) {
        if (c->state != IDNG_FSTRM_IN_DATA)
            return fail(c, IDNG_TAP_E_FSTRM_ORDER);
        c->data_frames++;
        return IDNG_TAP_OK;
    }
    if (!control_known(f->control)) {
        /* fstrm/control.h: ignored between START and STOP. */
        if (c->state != IDNG_FSTRM_IN_DATA)
            return fail(c, IDNG_TAP_E_FSTRM_CONTROL_TYPE);
        c->ignored++;
        return IDNG_TAP_OK;
    }
    switch (c->state) {
    case IDNG_FSTRM_WAIT_READY:
    case IDNG_FSTRM_WAIT_START: {
        /* READY offers content types, START names the one that follows. */
        int ready = c->state == IDNG_FSTRM_WAIT_READY;
        if (f->control != (ready ? IDNG_FSTRM_READY : IDNG_FSTRM_START))
            return fail(c, IDNG_TAP_E_FSTRM_ORDER);
        if (!is_dnstap(f))
            return fail(c, IDNG_TAP_E_FSTRM_CTYPE);
        *reply = ready ? IDNG_FSTRM_ACCEPT : 0;
        c->state = ready ? IDNG_FSTRM_WAIT_START : IDNG_FSTRM_IN_DATA;
        return IDNG_TAP_OK;
    }
    default: /* IDNG_FSTRM_IN_DATA */
        if (f->control != IDNG_FSTRM_STOP)
            return fail(c, IDNG_TAP_E_FSTRM_ORDER);
        c->state = IDNG_FSTRM_DONE;
        if (c->mode == IDNG_FSTRM_BIDIRECTIONAL)
            *reply = IDNG_FSTRM_FINISH;
        return IDNG_TAP_OK;
    }
}
