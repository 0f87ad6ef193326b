/**
 * \file
 * One log line per answered query: the formatter and its escapers.
 *
 * Pure C so it can be unit tested and fuzzed: the codec, the policy's names
 * of verdicts and actions (idng_policy.h) and the lookalike classes' names
 * (idng_lookalike.h); libc only besides, no Unbound headers.  Every function writes only into the caller's buffer, never
 * allocates and keeps no mutable static state: threads may call them
 * concurrently.
 *
 * Threat model: the client chooses every octet of the query name.  Nothing
 * it sends may forge or split a line, reorder its display or hide text, so
 * every output of this file holds no octet below 0x20, no 0x7F, no octet
 * that is not part of valid UTF-8, and no code point that
 * idng_display_safe() rejects (bidi controls, joiners, zero-width and
 * format characters, line and paragraph separators, ...).  JSON lines are
 * one valid RFC 8259 object each.
 *
 * Escaping rules (one rule per kind of text).  Names, labels and the Unicode
 * form are the display unit's (idnguard.h, "Display"; codec/display.c), the
 * one spelling shared with EDE texts, CLI error lines and settings messages:
 * - Wire octets of a name or label ("name escaping", idng_display_name): the
 *   octets A-Z, a-z, 0-9, '-', '_' and '*' are written as they are, every
 *   other octet as \DDD (three decimal digits, RFC 1035 5.1), including
 *   '.' inside a label, '\\', '"', ' ', '(', ')', ';', '@', '$', '#', ':'
 *   and every octet >= 0x80.  The \c form is never used, so a backslash is
 *   always followed by three digits, "u{" or "#malformed".  Letter case is
 *   kept as sent (0x20 randomisation stays visible).
 * - Code points of a decoded xn-- label (idng_display_unicode): written as
 *   UTF-8 when idng_display_safe() accepts them, except that ASCII follows
 *   name escaping (so a decoded '.', '(' or ')' cannot fake a label
 *   boundary or the end of the "(unicode)" field); everything else as
 *   \u{XXXX} (upper-case hex, at least four digits).
 * - Other text fields of the text line (client, verdict, action, path):
 *   printable ASCII other than '\\' (0x21-0x7E) as it is, every other octet
 *   as \DDD.  These come from the module, not the client; the escaping is
 *   defensive.
 * - JSON strings: RFC 8259 with \" and \\, \u00XX for controls, and
 *   \uXXXX (a surrogate pair above the BMP) for every other code point
 *   idng_display_safe() rejects, the space included.  An octet that is not
 *   valid UTF-8 becomes \ufffd.  Name, Unicode form and label are first
 *   escaped as above and then as JSON, so a JSON consumer sees exactly the
 *   text line's field.
 *
 * Truncation: output is built from atoms (one escape, one UTF-8 sequence,
 * one literal token), written whole or not at all; once one atom does not
 * fit, nothing further is written.  A truncated result is therefore a
 * prefix of the full one that never ends inside an escape or a UTF-8
 * sequence.  A truncated JSON line is not valid JSON: size buffers with
 * IDNG_LOG_LINE_MAX.
 */
#ifndef IDNG_LOG_H
#define IDNG_LOG_H

#include "idnguard.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Log line formats: X(symbol, name); the names are `log-format` values. */
#define IDNG_LOGFMT_LIST(X)                                                        \
    X(IDNG_LOGFMT_TEXT, "text") /**< space-separated fields, see idng_log_format */ \
    X(IDNG_LOGFMT_JSON, "json") /**< one JSON object */
enum idng_logfmt {
#define IDNG_X_LOGFMT(sym, name) sym,
    IDNG_LOGFMT_LIST(IDNG_X_LOGFMT)
#undef IDNG_X_LOGFMT
    IDNG_LOGFMT_COUNT
};

/**
 * Buffer size that always holds a whole line of either format when
 * label_len <= 63 and client, verdict, action and path are each at most
 * 63 octets (JSON worst case: name 1282, Unicode form 2794, label 315,
 * four strings 1512, the rest under 400).
 */
#define IDNG_LOG_LINE_MAX 8192
/** Buffer size that holds any result of the *_name functions below. */
#define IDNG_LOG_MNEMONIC_MAX 16

/** What one log line says about one query.  Nothing is owned. */
struct idng_logrec {
    long long time_sec;  /**< wall clock, UTC, seconds since the epoch */
    long time_usec;      /**< microseconds; values outside 0..999999 carry */
    const char *client;  /**< address text ("127.0.0.1", "::1"); NULL or "" if unknown */
    unsigned port;       /**< client port; shown only with client */
    const uint8_t *qname; /**< uncompressed wire name as sent; may be malformed */
    size_t qname_len;     /**< octets readable at qname; nothing beyond is read */
    uint16_t qtype, qclass;
    int rcode;           /**< DNS rcode (0..15 or extended), or -1 for a dropped query */
    const char *verdict; /**< "ok", an error class name, "allow"/"deny"; NULL if unknown */
    const char *label;   /**< NULL, or the offending label as raw octets */
    size_t label_len;    /**< octets at label */
    const char *action;  /**< "pass", "log", "refuse", "nxdomain", "drop", "normalize"; or NULL */
    const char *path;    /**< "resolved", "cache", "local", "servfail", "policy"; or NULL */
    idng_mode mode;      /**< profile used to judge xn-- labels for the Unicode form */
    int ede;             /**< EDE info-code sent (0..65535), or -1 for none */
    const uint8_t *target; /**< NULL, or the A-label name a normalize resolved
                                (uncompressed wire, may be malformed) */
    size_t target_len;     /**< octets readable at target */
    const char *transport; /**< "udp", "tcp", "tls", "https"; NULL if unknown */
    unsigned lookalike;    /**< IDNG_LK_* bits (core/idng_lookalike.h): what the policy found
                                of UTS #39 in qname; nonzero: no Unicode form is shown */
    const struct idng_decoded *decoded; /**< NULL, or what the judgment of qname decoded
                                             (idng_policy_judge_decoded): the Unicode form
                                             is written from it, not decoded again */
    int has_elapsed;       /**< elapsed_us is known */
    long long elapsed_us;  /**< from the query's arrival to the answer, microseconds */
};

/**
 * Formats one log line, without a trailing newline.
 *
 * Text format, fields separated by one space, an unknown field is "-":
 *   1. time        "2026-11-21T05:53:32.123456Z" (RFC 3339, UTC); only
 *                  when with_time is nonzero
 *   2. client#port "127.0.0.1#53210", "::1#5353" (IPv6 is not bracketed:
 *                  the port is after the last '#'); "-" if client is unknown
 *   3. qname       idng_display_name, e.g. "xn--bcher-kva.example."
 *   4. (unicode)   only when idng_display_unicode has something to show and
 *                  the name is no lookalike (lookalike is 0):
 *                  "(bücher.example.)"; no qname begins with '(', so the
 *                  field is recognisable by its first character.  A
 *                  lookalike is shown only as its A-labels, so that a
 *                  reader is never fooled by a name that reads like another
 *   5. qtype       idng_log_type_name: "A", "TYPE65280"
 *   6. qclass      idng_log_class_name: "IN", "CLASS42"
 *   7. rcode       idng_log_rcode_name: "NOERROR", "DROPPED", "RCODE12"
 *   8. verdict     "ok", "contextj"; with a label "contextj:xn--ab-m1t"
 *                  (the label name-escaped, so it holds no ':')
 *   9. action      "pass", "refuse", ...
 *  10. path        "resolved", "policy", ...
 *  11. ede=N       only when ede >= 0
 * then, each only when known, in this order:
 *      lookalike=C  the UTS #39 classes found (idng_lookalike_name), when
 *                   lookalike is nonzero: "lookalike=mixed-script,confusable"
 *      target=NAME  the A-label name a normalize resolved (name escaping)
 *      proto=P      the transport: udp, tcp, tls, https
 *      ms=X.XXX     milliseconds from the query's arrival to the answer
 * Example:
 *   2026-11-21T05:53:32.123456Z 127.0.0.1#53210 xn--bcher-kva.example. (bücher.example.) A IN NOERROR ok pass resolved
 *
 * JSON format, all keys always present and in this order, null where a
 * value is absent or unknown:
 *   {"time":"2026-11-21T05:53:32.123456Z","client":"127.0.0.1","port":53210,
 *    "qname":"xn--bcher-kva.example.","qname_unicode":"bücher.example.","lookalike":null,
 *    "qtype":"A","qclass":"IN","rcode":"NOERROR","verdict":"ok","label":null,
 *    "action":"pass","path":"resolved","ede":null,"target":null,
 *    "transport":"udp","elapsed_ms":0.412}
 * "time" is null without with_time; "port" is null when "client" is.
 *
 * @param r: the record; NULL gives an empty line.
 * @param fmt: IDNG_LOGFMT_TEXT or IDNG_LOGFMT_JSON (others: text).
 * @param with_time: nonzero to include the timestamp (zero when the log
 *   sink adds its own, as Unbound's log does).
 * @param out: output buffer; always NUL-terminated when cap >= 1.
 * @param cap: its size, >= 1; IDNG_LOG_LINE_MAX always suffices for
 *   records within its stated limits.  A smaller buffer truncates at an
 *   atom boundary (see the file comment).
 * @return the length written, at most cap - 1; 0 when out is NULL or cap 0.
 */
size_t idng_log_format(const struct idng_logrec *r, enum idng_logfmt fmt, int with_time,
                       char *out, size_t cap);

/** Room idng_json_escape needs for n octets (at most 6 out per octet in). */
#define IDNG_JSON_ROOM(n) (6 * (size_t)(n))

/**
 * RFC 8259 section 7 escaping of n octets of JSON string content into d,
 * which has room for 6 * n: \" and \\, \u00XX for controls, \uXXXX
 * (a surrogate pair above the BMP) for every code point idng_display_safe
 * rejects, the space included, \ufffd for each octet that is not valid
 * UTF-8; everything else as it is.  The log's one JSON escaper, also used
 * by the CLI's --format=json and `idnguard lint-zone`.  Returns the length written.
 */
size_t idng_json_escape(const unsigned char *s, size_t n, char *d);

struct idng_verdict;

/** Buffer size for idng_log_client (INET6_ADDRSTRLEN). */
#define IDNG_LOG_CLIENT_MAX 46

/**
 * A client address as the log shows it: len 4 is IPv4, 16 is IPv6 (network
 * order, as in a sockaddr or a dnstap message).  With anonymize, cut to
 * its /24 (IPv4) or /48 (IPv6) network, as Pi-hole and AdGuard Home offer.
 * @return buf, or NULL (and buf "") for any other length.
 */
const char *idng_log_client(const void *addr, size_t len, int anonymize, char *buf, size_t cap);

/**
 * Fills r's verdict, label, action and mode from a policy verdict
 * (idng_policy.h): the fields every producer of a line sets alike.
 */
void idng_logrec_verdict(struct idng_logrec *r, const struct idng_verdict *v, idng_mode mode);

/**
 * Mnemonic of an RR type as Unbound prints it ("A", "AAAA", "NSAP-PTR",
 * "ANY"), else "TYPE123" (RFC 3597 section 5) written into buf.
 * @param buf, cap: room for the generic form; IDNG_LOG_MNEMONIC_MAX
 *   suffices.  With buf NULL or cap 0 an unknown type gives "-".
 * @return a string constant or buf; never NULL.
 */
const char *idng_log_type_name(uint16_t t, char *buf, size_t cap);

/** Mnemonic of a class ("IN", "CH", "HS", "NONE", "ANY"), else "CLASS42";
 *  buffer and return value as for idng_log_type_name. */
const char *idng_log_class_name(uint16_t c, char *buf, size_t cap);

/**
 * Mnemonic of an rcode as Unbound prints it: 0-10 are "NOERROR",
 * "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMPL", "REFUSED", "YXDOMAIN",
 * "YXRRSET", "NXRRSET", "NOTAUTH", "NOTZONE"; -1 is "DROPPED"; other
 * non-negative values "RCODE12"; other negative values "-".  Buffer and
 * return value as for idng_log_type_name.
 */
const char *idng_log_rcode_name(int rcode, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif /* IDNG_LOG_H */
