/**
 * \file
 * A minimal reader of DNS messages (RFC 1035 4.1) as dnstap carries them:
 * the header, the first question, and the OPT record (RFC 6891) with its
 * first Extended DNS Error option (RFC 8914).
 *
 * Names are walked with the codec's name unit (idng_wire_next in
 * codec/idnguard.h), one definition of a well-formed label sequence.
 * The question name is returned as the raw octets sent, for display and
 * for idng_wire_check: a compressed question name (legal, if unusual) is
 * not followed; the walk stops at the pointer, qname_fault says
 * IDNG_WIRE_POINTER and the parse goes on.  Record headers are read with
 * the codec's idng_wire_rr_read, owners walked in place: they may be
 * compressed, a pointer (two octets) ends them, and is never followed, so
 * no pointer loop can cost anything.
 *
 * What is read, in one pass with bounded work (every question takes at
 * least 5 octets and every record 11, so the counts cannot make it loop
 * past the message's end):
 * - the header; the first question's name, type and class; the other
 *   questions and the answer and authority records are skipped;
 * - in the additional section, the OPT record: the extended RCODE (its
 *   upper 8 bits are combined with the header's 4 into `rcode`), version,
 *   DO bit, UDP payload size, and the first option 15 (EDE): info-code and
 *   extra text.  An OPT record in another section is skipped as any record
 *   (RFC 6891 6.1.1 puts it in the additional section only).
 *
 * Tolerated: octets after the last record (`parsed` < the length says so;
 * servers pad, and ldns ignores them too); rdata is skipped by its length,
 * not checked against its type.  Refused, each with its status: a header
 * under 12 octets; a malformed question name; a question, record header or
 * rdata running past the end; an owner name other than a well-formed
 * (possibly compressed) one; an OPT record not owned by the root or a
 * second one (RFC 6891 6.1.1: FORMERR); an option running past its OPT
 * record; an EDE option under 2 octets (RFC 8914 2).  On an error the
 * fields read before it stay set and `parsed` says where the reader
 * stopped.
 */
#ifndef IDNG_DNSMSG_H
#define IDNG_DNSMSG_H

#include "idng_tap.h"
#include "idnguard.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Header flag bits of idng_dnsmsg.flags (RFC 1035 4.1.1, RFC 4035 3.2). */
enum {
    IDNG_DNS_QR = 0x8000,
    IDNG_DNS_AA = 0x0400,
    IDNG_DNS_TC = 0x0200,
    IDNG_DNS_RD = 0x0100,
    IDNG_DNS_RA = 0x0080,
    IDNG_DNS_AD = 0x0020,
    IDNG_DNS_CD = 0x0010
};
/** OPCODE of a flags word. */
#define IDNG_DNS_OPCODE(flags) (((flags) >> 11) & 0xF)
/** EDNS option code of Extended DNS Errors (RFC 8914 2). */
#define IDNG_DNS_OPT_EDE 15
/** RR type of OPT (RFC 6891 6.1.1). */
#define IDNG_DNS_TYPE_OPT 41

/** What was read of one message.  Pointers point into the caller's
 *  buffer. */
typedef struct idng_dnsmsg {
    uint16_t id;
    uint16_t flags;   /**< the header's second word: IDNG_DNS_* bits, opcode, rcode */
    uint16_t qdcount, ancount, nscount, arcount;
    /** RCODE: the header's 4 bits, with the OPT record's upper 8 bits
     *  above them when there is one (RFC 6891 6.1.3). */
    uint16_t rcode;

    int has_question; /**< qtype and qclass were read (qdcount > 0) */
    /** The first question's name as sent: up to and with its root label,
     *  or its compression pointer; on IDNG_TAP_E_DNS_QNAME the octets up
     *  to the fault (at most the rest of the message).  NULL without a
     *  question. */
    const uint8_t *qname;
    size_t qname_len;
    idng_wire_fault qname_fault; /**< IDNG_WIRE_OK, or why the walk stopped */
    idng_status qname_status;    /**< idng_wire_status of that walk */
    uint16_t qtype, qclass;

    int has_opt;          /**< an OPT record was read */
    uint16_t udp_size;    /**< OPT CLASS: the requestor's payload size */
    uint8_t edns_version; /**< OPT TTL, second octet */
    uint16_t edns_flags;  /**< OPT TTL, low 16 bits (DO is 0x8000) */
    int dnssec_ok;        /**< the DO bit */

    int has_ede;          /**< an EDE option was read (the first one) */
    uint16_t ede_code;    /**< its INFO-CODE */
    const uint8_t *ede_text; /**< its EXTRA-TEXT (UTF-8, unchecked) */
    size_t ede_text_len;

    size_t parsed; /**< octets read: the message's length on success,
                        less with trailing octets or after an error */
} idng_dnsmsg;

/**
 * Reads the DNS message msg[0..len).
 *
 * @param m: filled in (first zeroed); after an error, what was read before.
 * @return IDNG_TAP_OK or one of IDNG_TAP_E_DNS_*.
 */
idng_tap_status idng_dnsmsg_parse(const uint8_t *msg, size_t len, idng_dnsmsg *m);

#ifdef __cplusplus
}
#endif
#endif /* IDNG_DNSMSG_H */
