/**
 * \file
 * Statuses of the dnstap decoders (tap/): Frame Streams (idng_fstrm.h),
 * the Dnstap protobuf message (idng_dnstap.h) and the DNS message reader
 * (idng_dnsmsg.h).
 *
 * One X-macro list gives the enum, the stable symbol and the message, so
 * the three can never drift.  IDNG_TAP_OK is 0, every error is negative and
 * names one malformation: a log line or a test can always tell which rule
 * an input broke.  The tap library uses libc and codec/idnguard.h only,
 * never allocates, does no I/O and keeps no mutable global state.
 */
#ifndef IDNG_TAP_H
#define IDNG_TAP_H

#ifdef __cplusplus
extern "C" {
#endif

/** Statuses: X(symbol, value, message), values 0, -1, -2, ... in order. */
#define IDNG_TAP_STATUS_LIST(X)                                                            \
    X(IDNG_TAP_OK, 0, "ok")                                                                \
    X(IDNG_TAP_E_NOSPACE, -1, "output buffer too small")                                   \
    X(IDNG_TAP_E_INVAL, -2, "invalid argument")                                            \
    /* Frame Streams: framing (idng_fstrm_next). */                                        \
    X(IDNG_TAP_E_FSTRM_FRAME_TOO_LONG, -3, "data frame longer than the reader's limit")    \
    X(IDNG_TAP_E_FSTRM_CONTROL_TOO_LONG, -4, "control frame longer than 512 octets")       \
    X(IDNG_TAP_E_FSTRM_CONTROL_SHORT, -5, "control frame shorter than its type")           \
    X(IDNG_TAP_E_FSTRM_FIELD_TRUNCATED, -6, "control field runs past its frame")           \
    X(IDNG_TAP_E_FSTRM_FIELD_TYPE, -7, "unknown control field type")                      \
    X(IDNG_TAP_E_FSTRM_CTYPE_TOO_LONG, -8, "content type longer than 256 octets")          \
    X(IDNG_TAP_E_FSTRM_CTYPE_COUNT, -9, "too many content types for this control frame")   \
    /* Frame Streams: the connection (idng_fstrm_conn_step). */                            \
    X(IDNG_TAP_E_FSTRM_CONTROL_TYPE, -10, "unknown control frame type before the data")   \
    X(IDNG_TAP_E_FSTRM_ORDER, -11, "frame out of order for the handshake")                \
    X(IDNG_TAP_E_FSTRM_CTYPE, -12, "content type is not protobuf:dnstap.Dnstap")           \
    X(IDNG_TAP_E_FSTRM_AFTER_END, -13, "frame after the end of the stream")               \
    /* Protobuf wire format (idng_dnstap_decode). */                                      \
    X(IDNG_TAP_E_PB_VARINT_TRUNCATED, -14, "message ends inside a varint")                 \
    X(IDNG_TAP_E_PB_VARINT_TOO_LONG, -15, "varint longer than 10 octets")                  \
    X(IDNG_TAP_E_PB_FIELD_NUMBER, -16, "field number 0 or above 2^29-1")                   \
    X(IDNG_TAP_E_PB_WIRE_TYPE, -17, "wire type 6 or 7")                                    \
    X(IDNG_TAP_E_PB_GROUP, -18, "group (wire type 3 or 4)")                                \
    X(IDNG_TAP_E_PB_FIELD_WIRE_TYPE, -19, "known field with the wrong wire type")          \
    X(IDNG_TAP_E_PB_LENGTH, -20, "length-delimited field runs past its message")           \
    X(IDNG_TAP_E_PB_FIXED_TRUNCATED, -21, "message ends inside a fixed32 or fixed64")      \
    /* Dnstap schema (idng_dnstap_decode). */                                             \
    X(IDNG_TAP_E_DT_NO_TYPE, -22, "Dnstap.type (required) missing")                       \
    X(IDNG_TAP_E_DT_NO_MESSAGE_TYPE, -23, "Message.type (required) missing")              \
    X(IDNG_TAP_E_DT_ADDRESS_LENGTH, -24, "address neither 4 nor 16 octets")               \
    /* DNS messages (idng_dnsmsg_parse). */                                              \
    X(IDNG_TAP_E_DNS_HEADER_SHORT, -25, "DNS message shorter than its 12-octet header")   \
    X(IDNG_TAP_E_DNS_QNAME, -26, "malformed question name")                               \
    X(IDNG_TAP_E_DNS_QUESTION_SHORT, -27, "message ends inside a question")               \
    X(IDNG_TAP_E_DNS_RR_NAME, -28, "malformed owner name in a record or later question")  \
    X(IDNG_TAP_E_DNS_RR_SHORT, -29, "message ends inside a record header")                \
    X(IDNG_TAP_E_DNS_RDATA_SHORT, -30, "record data runs past the message")               \
    X(IDNG_TAP_E_DNS_OPT_OWNER, -31, "OPT record not owned by the root")                  \
    X(IDNG_TAP_E_DNS_OPT_DUP, -32, "more than one OPT record")                            \
    X(IDNG_TAP_E_DNS_OPT_OPTION, -33, "EDNS option runs past its OPT record")             \
    X(IDNG_TAP_E_DNS_EDE_SHORT, -34, "Extended DNS Error option shorter than 2 octets")

/** Status of every tap decoder call. */
typedef enum idng_tap_status {
#define IDNG_TAP_X_ENUM(sym, val, msg) sym = (val),
    IDNG_TAP_STATUS_LIST(IDNG_TAP_X_ENUM)
#undef IDNG_TAP_X_ENUM
} idng_tap_status;

/** Symbol of a status ("IDNG_TAP_E_PB_GROUP"); "IDNG_TAP_UNKNOWN" out of range. */
const char *idng_tap_status_symbol(idng_tap_status st);
/** One-line description of a status; never NULL. */
const char *idng_tap_status_message(idng_tap_status st);

#ifdef __cplusplus
}
#endif
#endif /* IDNG_TAP_H */
