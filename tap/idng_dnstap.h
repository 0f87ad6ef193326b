/**
 * \file
 * A hand-written decoder of dnstap's `Dnstap` protobuf message (one data
 * frame of a Frame Streams stream) into pointers and scalars.
 *
 * Field numbers and enum values are those of dnstap.proto (the dnstap
 * project's schema; Unbound carries a copy in dnstap/dnstap.proto, and
 * tests/tap/test_dnstap.c checks every number below against that copy
 * when it is there).  Newer fields than Unbound 1.17's copy: message types
 * 11-14 (TOOL_*, UPDATE_*), protocols 3-7 (DOT, DOH, DNSCryptUDP,
 * DNSCryptTCP, DOQ), Message.policy (15, skipped) and
 * Message.http_protocol (16).
 *
 * Protobuf wire rules applied (the protobuf encoding guide):
 * - a varint is at most 10 octets; bits beyond 64 are dropped, as
 *   protobuf's own parsers drop them;
 * - uint32 and enum fields keep the low 32 bits of their varint (protobuf's
 *   truncation); an enum value this header does not name is kept as it
 *   came, for the caller to show (proto2 would move it to the unknown
 *   fields; a log line is better served by the number);
 * - fixed32 and fixed64 are little-endian; a length-delimited field must
 *   lie within its message;
 * - groups (wire types 3 and 4) are refused, as are wire types 6 and 7
 *   and field number 0; a known field with another wire type than its
 *   schema's is refused (protobuf's C++ parser would keep it as an unknown
 *   field: for this reader such a message is broken, not newer);
 * - unknown fields of a valid wire type are skipped, in both messages;
 * - a field that appears again takes the last value; a second `message`
 *   field merges into the first as protobuf merges: its fields overwrite,
 *   the others stay (Dnstap and Message are flat but for Policy, which is
 *   skipped, so the merge is exact);
 * - Dnstap.type and Message.type are required (proto2): a message without
 *   them is refused.  Addresses must be 4 or 16 octets (dnstap.proto).
 *
 * No allocation, one pass, no recursion; every pointer points into the
 * caller's buffer, which must outlive the struct.
 */
#ifndef IDNG_DNSTAP_H
#define IDNG_DNSTAP_H

#include "idng_tap.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Field numbers of message Dnstap. */
enum {
    IDNG_DT_F_IDENTITY = 1,
    IDNG_DT_F_VERSION = 2,
    IDNG_DT_F_EXTRA = 3,
    IDNG_DT_F_MESSAGE = 14,
    IDNG_DT_F_TYPE = 15
};
/** Dnstap.Type. */
#define IDNG_DT_TYPE_MESSAGE 1

/** Field numbers of message Message. */
enum {
    IDNG_DT_M_TYPE = 1,
    IDNG_DT_M_SOCKET_FAMILY = 2,
    IDNG_DT_M_SOCKET_PROTOCOL = 3,
    IDNG_DT_M_QUERY_ADDRESS = 4,
    IDNG_DT_M_RESPONSE_ADDRESS = 5,
    IDNG_DT_M_QUERY_PORT = 6,
    IDNG_DT_M_RESPONSE_PORT = 7,
    IDNG_DT_M_QUERY_TIME_SEC = 8,
    IDNG_DT_M_QUERY_TIME_NSEC = 9,
    IDNG_DT_M_QUERY_MESSAGE = 10,
    IDNG_DT_M_QUERY_ZONE = 11,
    IDNG_DT_M_RESPONSE_TIME_SEC = 12,
    IDNG_DT_M_RESPONSE_TIME_NSEC = 13,
    IDNG_DT_M_RESPONSE_MESSAGE = 14,
    IDNG_DT_M_POLICY = 15,
    IDNG_DT_M_HTTP_PROTOCOL = 16
};

/** Message.Type. */
typedef enum idng_dt_mtype {
    IDNG_DT_AUTH_QUERY = 1,
    IDNG_DT_AUTH_RESPONSE = 2,
    IDNG_DT_RESOLVER_QUERY = 3,
    IDNG_DT_RESOLVER_RESPONSE = 4,
    IDNG_DT_CLIENT_QUERY = 5,
    IDNG_DT_CLIENT_RESPONSE = 6,
    IDNG_DT_FORWARDER_QUERY = 7,
    IDNG_DT_FORWARDER_RESPONSE = 8,
    IDNG_DT_STUB_QUERY = 9,
    IDNG_DT_STUB_RESPONSE = 10,
    IDNG_DT_TOOL_QUERY = 11,
    IDNG_DT_TOOL_RESPONSE = 12,
    IDNG_DT_UPDATE_QUERY = 13,
    IDNG_DT_UPDATE_RESPONSE = 14
} idng_dt_mtype;

/** SocketFamily. */
enum { IDNG_DT_INET = 1, IDNG_DT_INET6 = 2 };

/** SocketProtocol. */
enum {
    IDNG_DT_UDP = 1,
    IDNG_DT_TCP = 2,
    IDNG_DT_DOT = 3,
    IDNG_DT_DOH = 4,
    IDNG_DT_DNSCRYPT_UDP = 5,
    IDNG_DT_DNSCRYPT_TCP = 6,
    IDNG_DT_DOQ = 7
};

/** HttpProtocol. */
enum { IDNG_DT_HTTP1 = 1, IDNG_DT_HTTP2 = 2, IDNG_DT_HTTP3 = 3 };

/** Presence bits of struct idng_dnstap: one per field decoded. */
enum {
    IDNG_DT_HAS_IDENTITY = 1u << 0,
    IDNG_DT_HAS_VERSION = 1u << 1,
    IDNG_DT_HAS_EXTRA = 1u << 2,
    IDNG_DT_HAS_TYPE = 1u << 3,
    IDNG_DT_HAS_MESSAGE = 1u << 4,
    IDNG_DT_HAS_MTYPE = 1u << 5,
    IDNG_DT_HAS_FAMILY = 1u << 6,
    IDNG_DT_HAS_PROTOCOL = 1u << 7,
    IDNG_DT_HAS_QADDR = 1u << 8,
    IDNG_DT_HAS_RADDR = 1u << 9,
    IDNG_DT_HAS_QPORT = 1u << 10,
    IDNG_DT_HAS_RPORT = 1u << 11,
    IDNG_DT_HAS_QTIME_SEC = 1u << 12,
    IDNG_DT_HAS_QTIME_NSEC = 1u << 13,
    IDNG_DT_HAS_QMSG = 1u << 14,
    IDNG_DT_HAS_QZONE = 1u << 15,
    IDNG_DT_HAS_RTIME_SEC = 1u << 16,
    IDNG_DT_HAS_RTIME_NSEC = 1u << 17,
    IDNG_DT_HAS_RMSG = 1u << 18,
    IDNG_DT_HAS_HTTP = 1u << 19,
    IDNG_DT_HAS_POLICY = 1u << 20
};

/** A pointer into the caller's buffer and a length. */
typedef struct idng_dt_bytes {
    const uint8_t *p;
    size_t len;
} idng_dt_bytes;

/** One decoded Dnstap message.  A field is meaningful only when its
 *  IDNG_DT_HAS_ bit is set in `present`; the others are zero. */
typedef struct idng_dnstap {
    uint32_t present;        /**< IDNG_DT_HAS_* bits */
    idng_dt_bytes identity;  /**< Dnstap.identity */
    idng_dt_bytes version;   /**< Dnstap.version */
    idng_dt_bytes extra;     /**< Dnstap.extra */
    uint32_t type;           /**< Dnstap.type (IDNG_DT_TYPE_MESSAGE) */
    uint32_t mtype;          /**< Message.type (idng_dt_mtype) */
    uint32_t family;         /**< Message.socket_family */
    uint32_t protocol;       /**< Message.socket_protocol */
    uint32_t http_protocol;  /**< Message.http_protocol */
    idng_dt_bytes qaddr;     /**< Message.query_address: 4 or 16 octets */
    idng_dt_bytes raddr;     /**< Message.response_address: 4 or 16 octets */
    uint32_t qport, rport;   /**< Message.query_port, response_port */
    uint64_t qtime_sec;      /**< Message.query_time_sec */
    uint32_t qtime_nsec;     /**< Message.query_time_nsec */
    uint64_t rtime_sec;      /**< Message.response_time_sec */
    uint32_t rtime_nsec;     /**< Message.response_time_nsec */
    idng_dt_bytes qmsg;      /**< Message.query_message (wire DNS) */
    idng_dt_bytes qzone;     /**< Message.query_zone (wire name) */
    idng_dt_bytes rmsg;      /**< Message.response_message (wire DNS) */
    idng_dt_bytes policy;    /**< Message.policy, undecoded (last one) */
} idng_dnstap;

/**
 * Decodes one Dnstap message from buf[0..len).
 *
 * @param d: filled in; after an error, what was decoded before it.
 * @return IDNG_TAP_OK; IDNG_TAP_E_PB_* for a wire-format error;
 *   IDNG_TAP_E_DT_NO_TYPE, IDNG_TAP_E_DT_NO_MESSAGE_TYPE (a message field
 *   without its type), IDNG_TAP_E_DT_ADDRESS_LENGTH.
 */
idng_tap_status idng_dnstap_decode(const uint8_t *buf, size_t len, idng_dnstap *d);

/** Name of a Message.Type ("CLIENT_QUERY"), or NULL if unknown. */
const char *idng_dnstap_mtype_name(uint32_t mtype);
/** Name of a SocketProtocol ("UDP", "DOH", "DNSCryptUDP"), or NULL. */
const char *idng_dnstap_protocol_name(uint32_t protocol);

#ifdef __cplusplus
}
#endif
#endif /* IDNG_DNSTAP_H */
