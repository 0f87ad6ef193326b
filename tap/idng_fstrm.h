/**
 * \file
 * Frame Streams, the framing under dnstap: a frame parser over a caller's
 * buffer, a control frame encoder, and the reader's side of one
 * connection.
 *
 * The protocol (libfstrm's fstrm/control.h; the numbers below are from
 * there): a data frame is a big-endian u32 length, then that many octets.
 * A length of 0 is the escape: a u32 control frame length follows, then
 * the control frame itself, a u32 type (ACCEPT 1, START 2, STOP 3, READY 4,
 * FINISH 5) and fields, each a u32 field type (CONTENT_TYPE 1), a u32
 * length and that many octets.  A control frame is at most 512 octets and
 * a content type at most 256 (FSTRM_CONTROL_FRAME_LENGTH_MAX,
 * FSTRM_CONTROL_FIELD_CONTENT_TYPE_LENGTH_MAX).
 *
 * A file written by fstrm_capture is unidirectional: START, data frames,
 * STOP.  A Unix socket from Unbound, BIND, dnsdist or Knot Resolver is
 * bidirectional: the writer sends READY with the content types it can
 * produce, the reader answers ACCEPT with the one it takes, then the
 * writer sends START, data frames, STOP, and the reader answers FINISH.
 *
 * What is tolerated and what is refused, and why:
 * - Refused as libfstrm's fstrm_control_decode refuses it, so that what
 *   this reader takes a libfstrm reader would take too: a control frame
 *   over 512 octets or too short to hold its type; a field that runs past
 *   the frame; a field type other than CONTENT_TYPE; a content type over
 *   256 octets; more than one content type in START, any in STOP or
 *   FINISH.
 * - A control frame of an unknown type is returned by idng_fstrm_next
 *   (its fields unread: a future type may define other fields) and
 *   ignored by the connection between START and STOP, as fstrm/control.h
 *   requires for forward compatibility; before START it is an error
 *   (IDNG_TAP_E_FSTRM_CONTROL_TYPE): the handshake cannot go on.
 * - Only the content type "protobuf:dnstap.Dnstap" is accepted, compared
 *   octet for octet; START without a content type is refused too: this
 *   reader decodes nothing else.
 * - A data frame longer than the caller's limit is refused rather than
 *   buffered: the caller picks the limit (dnstap messages carry two DNS
 *   messages, so 64 KiB + 1 KiB is plenty; IDNG_FSTRM_FRAME_DEFAULT).
 *
 * Everything here is pure: no allocation, no I/O, no global state; the
 * parser reads each octet at most twice (once for the frame, once for
 * its fields) and never past the length it is given.
 */
#ifndef IDNG_FSTRM_H
#define IDNG_FSTRM_H

#include "idng_tap.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Control frame types (fstrm/control.h, fstrm_control_type). */
enum {
    IDNG_FSTRM_ACCEPT = 1,
    IDNG_FSTRM_START = 2,
    IDNG_FSTRM_STOP = 3,
    IDNG_FSTRM_READY = 4,
    IDNG_FSTRM_FINISH = 5
};
/** The one control field type (fstrm_control_field). */
#define IDNG_FSTRM_FIELD_CONTENT_TYPE 1
/** Longest control frame payload (FSTRM_CONTROL_FRAME_LENGTH_MAX). */
#define IDNG_FSTRM_CONTROL_MAX 512
/** Longest content type (FSTRM_CONTROL_FIELD_CONTENT_TYPE_LENGTH_MAX). */
#define IDNG_FSTRM_CTYPE_MAX 256
/** Content types kept in a parsed frame; idng_fstrm_has_ctype sees all. */
#define IDNG_FSTRM_CTYPES 4
/** A sensible data frame limit for dnstap: two 64 KiB DNS messages fit. */
#define IDNG_FSTRM_FRAME_DEFAULT (160u * 1024u)
/** Largest encoded control frame: escape, length and the payload. */
#define IDNG_FSTRM_ENCODED_MAX (8 + IDNG_FSTRM_CONTROL_MAX)
/** dnstap's content type (dnstap.proto's package and message name). */
#define IDNG_DNSTAP_CTYPE "protobuf:dnstap.Dnstap"

/** What idng_fstrm_next found at the start of the buffer. */
typedef enum idng_fstrm_kind {
    IDNG_FSTRM_NEED_MORE = 0, /**< the frame is not complete yet */
    IDNG_FSTRM_DATA,          /**< a data frame */
    IDNG_FSTRM_CONTROL        /**< a control frame */
} idng_fstrm_kind;

/** One frame; pointers point into the caller's buffer. */
typedef struct idng_fstrm_frame {
    idng_fstrm_kind kind;
    /** Octets of the buffer the frame takes, length prefixes included
     *  (0 for NEED_MORE and on errors). */
    size_t consumed;
    /** NEED_MORE: octets needed from the start of the buffer before the
     *  next call can say more (more than the length given). */
    size_t need;
    /** DATA: the payload.  CONTROL: the control frame after its type (the
     *  fields, as sent). */
    const uint8_t *data;
    size_t data_len;
    /** CONTROL: the type, possibly one this parser does not know. */
    uint32_t control;
    /** CONTROL of a known type: the number of CONTENT_TYPE fields, and the
     *  first IDNG_FSTRM_CTYPES of them. */
    size_t n_ctypes;
    const uint8_t *ctype[IDNG_FSTRM_CTYPES];
    size_t ctype_len[IDNG_FSTRM_CTYPES];
} idng_fstrm_frame;

/**
 * Parses the frame at the start of buf[0..len).  Stateless: call it again
 * on buf + f->consumed for the next one.
 *
 * @param max_frame: longest data frame accepted, in octets.
 * @param f: filled in; on an error only kind (NEED_MORE) and consumed (0)
 *   are set, with need, for ..._FRAME_TOO_LONG, the length announced.
 * @return IDNG_TAP_OK (a frame or NEED_MORE: see f->kind), or
 *   IDNG_TAP_E_FSTRM_FRAME_TOO_LONG, _CONTROL_TOO_LONG, _CONTROL_SHORT,
 *   _FIELD_TRUNCATED, _FIELD_TYPE, _CTYPE_TOO_LONG, _CTYPE_COUNT.  A
 *   malformation is reported as soon as its octets are in the buffer.
 */
idng_tap_status idng_fstrm_next(const uint8_t *buf, size_t len, size_t max_frame,
                                idng_fstrm_frame *f);

/** Is ctype[0..len) among the content types of control frame f?  Sees
 *  every field, not only the first IDNG_FSTRM_CTYPES.  Returns 1 or 0. */
int idng_fstrm_has_ctype(const idng_fstrm_frame *f, const uint8_t *ctype, size_t len);

/** Name of a control type ("READY"), or "UNKNOWN". */
const char *idng_fstrm_control_name(uint32_t type);

/**
 * Encodes a control frame, escape and length included.
 *
 * @param type: IDNG_FSTRM_ACCEPT ... IDNG_FSTRM_FINISH.
 * @param ctype: NULL for no CONTENT_TYPE field, else the content type
 *   (ctype_len octets, at most IDNG_FSTRM_CTYPE_MAX); not allowed for STOP
 *   and FINISH.
 * @param out: output; @param outlen: in capacity, out length written or,
 *   on IDNG_TAP_E_NOSPACE, needed (at most IDNG_FSTRM_ENCODED_MAX).
 * @return IDNG_TAP_OK, IDNG_TAP_E_NOSPACE or IDNG_TAP_E_INVAL.
 */
idng_tap_status idng_fstrm_encode_control(uint32_t type, const uint8_t *ctype, size_t ctype_len,
                                          uint8_t *out, size_t *outlen);

/** How the stream reaches the reader. */
typedef enum idng_fstrm_mode {
    IDNG_FSTRM_BIDIRECTIONAL, /**< a socket: READY/ACCEPT, START ... STOP/FINISH */
    IDNG_FSTRM_UNIDIRECTIONAL /**< a file: START ... STOP */
} idng_fstrm_mode;

/** Where a connection is. */
typedef enum idng_fstrm_state {
    IDNG_FSTRM_WAIT_READY, /**< bidirectional, before READY */
    IDNG_FSTRM_WAIT_START, /**< before START */
    IDNG_FSTRM_IN_DATA,    /**< after START: data frames until STOP */
    IDNG_FSTRM_DONE,       /**< after STOP: nothing more may come */
    IDNG_FSTRM_FAILED      /**< after an error: nothing more is taken */
} idng_fstrm_state;

/** The reader's side of one connection or file.  Fields may be read. */
typedef struct idng_fstrm_conn {
    idng_fstrm_mode mode;
    idng_fstrm_state state;
    uint64_t data_frames;    /**< data frames taken */
    uint64_t ignored;        /**< unknown control frames ignored */
    idng_tap_status failure; /**< what broke the stream (state FAILED), else OK */
} idng_fstrm_conn;

/** Starts a connection in the given mode. */
void idng_fstrm_conn_init(idng_fstrm_conn *c, idng_fstrm_mode mode);

/**
 * Takes one frame that idng_fstrm_next parsed (kind DATA or CONTROL) and
 * moves the connection on.
 *
 * @param reply: set to the control type to send back (IDNG_FSTRM_ACCEPT
 *   with IDNG_DNSTAP_CTYPE after READY, IDNG_FSTRM_FINISH after STOP in a
 *   bidirectional stream), or 0 for nothing.
 * @return IDNG_TAP_OK: for a DATA frame, the caller decodes it; once
 *   c->state is IDNG_FSTRM_DONE, the stream has ended (after the reply).
 *   IDNG_TAP_E_FSTRM_ORDER, _CTYPE, _CONTROL_TYPE, _AFTER_END or
 *   IDNG_TAP_E_INVAL (kind NEED_MORE): the stream is broken, c->state is
 *   IDNG_FSTRM_FAILED (IDNG_FSTRM_DONE stays for _AFTER_END) and every
 *   later call returns c->failure again.
 */
idng_tap_status idng_fstrm_conn_step(idng_fstrm_conn *c, const idng_fstrm_frame *f,
                                     uint32_t *reply);

#ifdef __cplusplus
}
#endif
#endif /* IDNG_FSTRM_H */
