/**
 * \file
 * The module's decisions, without Unbound: a query name and the settings
 * in, a verdict and an action out; the normalized name for raw UTF-8
 * queries; the Extended DNS Error for a refusal.  Pure functions of their
 * arguments, safe from any thread.
 */
#ifndef IDNG_CORE_POLICY_H
#define IDNG_CORE_POLICY_H

#include "idng_conf.h"
#include "idnguard.h"

#include <stddef.h>
#include <stdint.h>

/** Which list, if any, decided the verdict. */
enum idng_listed { IDNG_LISTED_NONE, IDNG_LISTED_ALLOW, IDNG_LISTED_DENY };

/** A verdict on one query name. */
struct idng_verdict {
    idng_status status;     /**< codec status of the first failing label, IDNG_OK if none */
    idng_class cls;         /**< its class */
    enum idng_action action;
    enum idng_listed listed;
    const uint8_t *name;    /**< the wire name judged: the query name, or a name
                                 from an answer (a CNAME target, say) */
    size_t name_len;
    size_t label_off;       /**< failing label in name (content, not length octet) */
    size_t label_len;
    uint32_t codepoint;     /**< offending code point or IDNG_NO_CODEPOINT */
};

/** EDE info-codes used (RFC 8914): both are the operator's policy. */
#define IDNG_EDE_BLOCKED 15

/**
 * Judges an uncompressed wire-format query name.  The lists decide first,
 * the more specific matching entry winning: allow passes; deny rejects with
 * on-invalid's action when that rejects, else refuses.  Otherwise every
 * label is judged with the codec under c->mode, and the action is the one
 * configured for the failing label's class.
 */
void idng_policy_judge(const struct idng_conf *c, const uint8_t *wire, size_t len,
                       struct idng_verdict *v);

/** Do refuse, nxdomain and drop keep the client from an answer? */
int idng_action_rejects(enum idng_action a);

/** The action to take when normalizing failed with status st. */
enum idng_action idng_policy_fallback(const struct idng_conf *c, idng_status st);

/** "ok", the class name, "allow" or "deny". */
const char *idng_verdict_name(const struct idng_verdict *v);

/**
 * Converts a wire name with raw UTF-8 labels into its A-label wire form
 * (UTS #46 ToASCII, labels validated under c->mode).  out must hold 255
 * octets; *outlen gets the length.  A label holding a full stop ('.',
 * U+3002, U+FF0E or U+FF61) would become two labels, and is refused as
 * disallowed instead.
 */
idng_status idng_policy_normalize(const struct idng_conf *c, const uint8_t *wire, size_t len,
                                  uint8_t *out, size_t *outlen, idng_error *err);

/**
 * EDE text for a rejected query: "idnguard: <class>: <label>: <message>",
 * the label (from v->name) escaped to printable ASCII.  Returns the length
 * written; out is always NUL-terminated (cap >= 1).
 */
size_t idng_policy_ede_text(const struct idng_verdict *v, char *out, size_t cap);

#endif /* IDNG_CORE_POLICY_H */
