/**
 * \file
 * The scan of a response: every name in it judged by the policy
 * (idng_policy_judge_data), through the calling thread's remembered
 * verdicts when it has them (idng_memo_verdict), the most severe verdict
 * kept; and the scan of a whole DNS message for the hosts that have only
 * the message.  Above the policy and the memo, which know nothing of it.
 * Uses the policy (idng_policy.h), the memo (idng_memo.h) and the codec;
 * libc only besides, no Unbound headers.
 */
#ifndef IDNG_SCAN_H
#define IDNG_SCAN_H

#include "idng_policy.h"
#include "idnguard.h"

#include <stddef.h>
#include <stdint.h>

struct idng_memo; /* idng_memo.h */

/**
 * The response scan (one home for what is judged in it; the module runs
 * it on every response before the cache, and on every answer before the
 * client):
 * - the name the response is for (idng_scan_name);
 * - the answer section: every owner, and every CNAME and DNAME target
 *   (idng_scan_owner, then idng_scan_name for each target when
 *   idng_scan_has_targets says so);
 * - the authority and additional sections: every owner, except NSEC and
 *   NSEC3 records, which prove what does not exist, hand out no data of
 *   their owner and are needed by a client that validates.  When the
 *   caller strips, an RRset there whose owner is rejected is to be removed
 *   from the response and does not count.
 * Every name is judged with idng_policy_judge_data; the scan keeps the
 * most severe verdict (the first among equals).
 */
enum idng_section { IDNG_SEC_ANSWER, IDNG_SEC_AUTHORITY, IDNG_SEC_ADDITIONAL };

/** What a scan may remove from the response it judges. */
enum idng_strip {
    IDNG_STRIP_NONE,  /**< nothing: every rejected name counts (before the cache) */
    IDNG_STRIP_EXTRA, /**< authority and additional RRsets owned by a rejected name,
                           which then do not count (before the client) */
    IDNG_STRIP_ALL    /**< every RRset with a rejected owner or CNAME/DNAME target,
                           in any section; they still count (a response that Unbound
                           would store whatever no_cache_store says) */
};

/** What a scanned response holds, at worst. */
enum idng_scan_result { IDNG_SCAN_PASS, IDNG_SCAN_LOG, IDNG_SCAN_REJECT };

/** The running state of one response scan. */
struct idng_scan {
    struct idng_verdict worst; /**< the most severe verdict so far */
    int found;                 /**< nonzero once worst holds a verdict */
    /** Optional (NULL after idng_scan_init): the calling thread's
     *  remembered verdicts and their settings generation (idng_memo.h), so
     *  that a name judged ok before, by the query or an earlier scan, is
     *  not judged again. */
    struct idng_memo *memo;
    uint64_t gen;
};

/** Starts a scan. */
void idng_scan_init(struct idng_scan *s);

/** Judges one name (the name the response is for, a CNAME/DNAME target). */
void idng_scan_name(const struct idng_policy *p, struct idng_scan *s, const uint8_t *wire,
                    size_t len);

/**
 * Judges the owner of one RRset of type (host order) in section sec.
 * @return 1 when this RRset is to be removed (see enum idng_strip), else 0.
 */
int idng_scan_owner(const struct idng_policy *p, struct idng_scan *s, enum idng_section sec,
                    uint16_t type, const uint8_t *owner, size_t len, enum idng_strip strip);

/**
 * Judges one CNAME or DNAME target (for RRsets idng_scan_has_targets names).
 * @return 1 when its RRset is to be removed (only with IDNG_STRIP_ALL).
 */
int idng_scan_target(const struct idng_policy *p, struct idng_scan *s, const uint8_t *wire,
                     size_t len, enum idng_strip strip);

/** Are the targets of this RRset judged (CNAME and DNAME in the answer section)? */
int idng_scan_has_targets(enum idng_section sec, uint16_t type);

/**
 * The scan of a whole response in DNS wire format (RFC 1035 4.1), for a
 * host that has only the message (libidnguard's idnguard_scan_message):
 * every question name (idng_scan_name); the owner of every record of the
 * answer, authority and additional sections (idng_scan_owner; OPT records
 * are skipped: they own nothing); the targets of the CNAME and DNAME
 * records idng_scan_has_targets names (idng_scan_target).  Names are read
 * with idng_wire_decompress (every pointer strictly backwards), record
 * headers with idng_wire_rr_read (owner decompressed); nothing is
 * stripped (IDNG_STRIP_NONE); octets after the last record are ignored.
 * A message that cannot be read (a header under 12 octets, a name
 * idng_wire_decompress refuses, a question, record or rdata running past
 * the end, the rdata of a CNAME or DNAME judged that is not exactly one
 * name) is rejected, whatever was found in it before: the scan's verdict
 * becomes the one of a malformed name (status IDNG_E_INVAL, class
 * invalid-argument, as idng_policy_judge judges a malformed name), with
 * on-invalid's action when that rejects, else refuse (as for the deny
 * list).
 * @return 0, or -1 when the message cannot be read.
 */
int idng_scan_message(const struct idng_policy *p, struct idng_scan *s, const uint8_t *msg,
                      size_t len);

/** The scan's outcome; *v (may be NULL) gets the most severe verdict. */
enum idng_scan_result idng_scan_result(const struct idng_scan *s, struct idng_verdict *v);

#endif /* IDNG_SCAN_H */
