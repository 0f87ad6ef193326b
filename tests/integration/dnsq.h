/**
 * \file
 * A small DNS client for the integration tests: one query to 127.0.0.1 over
 * UDP or TCP, with a bounded wait, and the parts of the reply the tests
 * look at (rcode, header flags, the three record sections as text, OPT
 * record, Extended DNS Error).  Query flags set CD and AD in the header and
 * DO in the OPT record, for the DNSSEC tests.
 *
 * The query is built and the reply walked here rather than through
 * ldns_resolver, so that the tests control every octet of the query name
 * (raw 8-bit octets, newlines), the EDNS record, the timeout, and know the
 * source port, which is how a query is matched with the module's log line
 * ("127.0.0.1#PORT").  ldns parses the name and prints the answer records.
 *
 * Thread-safe: no shared state apart from an atomic counter for query IDs.
 */
#ifndef IDNG_TESTS_DNSQ_H
#define IDNG_TESTS_DNSQ_H

#include <stddef.h>
#include <stdint.h>

/** Room for one section (answer, authority, additional) as text.  Records
 *  that do not fit are left out of the text, not of the counts. */
#define DNSQ_ANSWER_MAX 8192
/** Room for the text of an Extended DNS Error. */
#define DNSQ_EDE_TEXT_MAX 1024

/** Record types the tests use (RFC 1035, RFC 3596, RFC 4034). */
#define DNSQ_A 1
#define DNSQ_NS 2
#define DNSQ_CNAME 5
#define DNSQ_SOA 6
#define DNSQ_MX 15
#define DNSQ_TXT 16
#define DNSQ_AAAA 28
#define DNSQ_DS 43     /**< RFC 4034 */
#define DNSQ_DNSKEY 48 /**< RFC 4034 */

/** Flags of dnsq_query_ex (the harness's HQ_* flags have the same values). */
enum {
    DNSQ_F_TCP = 1,    /**< over TCP (else UDP, and TCP once after a TC reply) */
    DNSQ_F_NOEDNS = 2, /**< no OPT record (else one, payload 1232, no options) */
    DNSQ_F_CD = 4,     /**< Checking Disabled: the resolver hands out data it cannot validate */
    DNSQ_F_DO = 8,     /**< DNSSEC OK in the OPT record: RRSIGs in the reply, AD when secure */
    DNSQ_F_AD = 16,    /**< AD in the query: the client understands AD (RFC 6840 5.7) */
    DNSQ_F_CHAOS = 32, /**< class CH (version.bind and friends) instead of IN */
    DNSQ_F_RCODE5 = 64, /**< RCODE bits 5 (REFUSED) in the query header, which a resolver
                             must ignore: a client's attempt to spoof the log */
    DNSQ_F_SMALL = 128, /**< EDNS payload 512 instead of 1232 */
    DNSQ_F_NORD = 256  /**< RD clear: a non-recursive query (cache snooping, allow_snoop) */
};

/** What came back. */
struct dnsq_result {
    int timed_out; /**< no reply within the time (a dropped query) */
    int rcode;     /**< header rcode with the OPT record's upper bits; -1 without a reply */
    int aa, tc;    /**< header flags */
    int ad, cd;    /**< header flags: Authentic Data (validated), Checking Disabled (echoed) */
    int ancount;   /**< records in the answer section */
    int nscount;   /**< records in the authority section */
    int arcount;   /**< records in the additional section, the OPT record not counted */
    /** Answer section, one "owner TTL IN TYPE rdata" line per record
     *  (ldns_rr2str with tabs turned into single spaces), each ending in \n. */
    char answer[DNSQ_ANSWER_MAX];
    /** Authority section, in the same form. */
    char authority[DNSQ_ANSWER_MAX];
    /** Additional section, in the same form, without the OPT record. */
    char additional[DNSQ_ANSWER_MAX];
    int has_opt;  /**< the reply held an OPT record */
    int edns_do;  /**< its DO bit */
    int ede_code; /**< info-code of the first EDE option (RFC 8914), -1 if none */
    char ede_text[DNSQ_EDE_TEXT_MAX]; /**< its EXTRA-TEXT, NUL-terminated ("" if none) */
    unsigned local_port;              /**< our source port: the module logs it as 127.0.0.1#PORT */
    int used_tcp;                     /**< the reply came over TCP (asked for, or after TC) */
};

/**
 * Sends one query to 127.0.0.1:port and waits at most timeout_ms for the
 * reply.  A UDP reply with TC set is asked again once over TCP (the only
 * retry); a lost UDP query is not resent, so a timeout means no answer.
 *
 * @param qname_presentation: the name in presentation form; \DDD escapes
 *   give raw octets (b\195\188cher.example), a missing final dot is added.
 * @param qtype: DNSQ_A, ...; class is IN.
 * @param use_tcp: nonzero for TCP.
 * @param use_edns: nonzero to send an OPT record (payload 1232, no options).
 * @param r: filled in; r->timed_out is set, and 0 returned, when no reply came.
 * @return 0 (reply or timeout), -1 on a local error or a reply that cannot
 *   be parsed, or when the server refused the connection / the port was
 *   unreachable (no daemon).
 */
int dnsq_query(int port, const char *qname_presentation, uint16_t qtype, int use_tcp, int use_edns,
               int timeout_ms, struct dnsq_result *r);

/**
 * dnsq_query with a flags word: DNSQ_F_TCP, DNSQ_F_NOEDNS, DNSQ_F_CD,
 * DNSQ_F_DO, DNSQ_F_AD, or'ed; 0 is UDP with EDNS, RD set.  DNSQ_F_DO needs
 * the OPT record: with DNSQ_F_NOEDNS too, -1 (a local error).
 * @return as dnsq_query.
 */
int dnsq_query_ex(int port, const char *qname_presentation, uint16_t qtype, unsigned flags,
                  int timeout_ms, struct dnsq_result *r);

/**
 * The same query from `copies` clients at once, as a cache race needs it:
 * one UDP socket (so one source port) per copy, sent gap_us microseconds
 * apart, then every reply collected until timeout_ms after the last send.
 * results[i] is copy i's (timed_out when it got none).  copies is at most
 * DNSQ_BURST_MAX.
 * @return the number of replies, or -1 on a local error.
 */
#define DNSQ_BURST_MAX 32
int dnsq_burst(int port, const char *qname_presentation, uint16_t qtype, unsigned flags, int copies,
               int gap_us, int timeout_ms, struct dnsq_result *results);

/** Name of an rcode as the module logs it ("NOERROR", "REFUSED"), "NONE" for -1. */
const char *dnsq_rcode_name(int rcode);

/**
 * Does the answer section hold a record owner/type/rdata?  The owner is
 * compared without regard to ASCII case and with or without a final dot;
 * type and rdata exactly ("A", "192.0.2.2"; "CNAME", "xn--bcher-kva.example.").
 */
int dnsq_answer_has(const struct dnsq_result *r, const char *owner, const char *type,
                    const char *rdata);

/**
 * The answer section without TTLs and classes, records joined by " | ":
 * "owner TYPE rdata | owner TYPE rdata", for comparisons that care about
 * order and for failure messages.
 */
void dnsq_answer_summary(const struct dnsq_result *r, char *out, size_t cap);

/**
 * dnsq_answer_has for any section's text (r->answer, r->authority,
 * r->additional); rdata NULL matches any rdata (an RRSIG, an NSEC).
 */
int dnsq_section_has(const char *section, const char *owner, const char *type, const char *rdata);

/** Records of one type in a section's text ("RRSIG", "NSEC"). */
int dnsq_section_count(const char *section, const char *type);

/** dnsq_answer_summary for any section's text. */
void dnsq_section_summary(const char *section, char *out, size_t cap);

#endif
