/**
 * \file
 * The policy unit: the one owner of what happens to a name.  It holds the
 * actions and their names, the defaults, which classes are configurable,
 * the deny and fallback rules, the most-severe-action rule across labels
 * and the name sets (struct idng_policy); the settings file (conf/) only
 * parses text into it.  A name and the policy in, a verdict and an action
 * out; the A-label form of a raw UTF-8 name; the Extended DNS Error text of
 * a refusal (the scan of a response is idng_scan.h's, above this unit).
 * Uses the lookalike rules (idng_lookalike.h), the name sets
 * (idng_nameset.h) and the codec; libc only besides, no Unbound headers;
 * pure functions of their arguments, safe from any thread.
 *
 * The rule for a name (one place, used on every path):
 * 1. The allow and deny lists decide first; the more specific matching
 *    entry wins.  allow passes the name unjudged; deny rejects it with
 *    on-invalid's action when that rejects, else with refuse.
 * 2. Otherwise every label is judged, and the name gets the most severe
 *    of its labels' actions (idng_action_severity); the verdict names the
 *    first label with that action.  No label can hide another.
 * 3. A label holding octets >= 0x80 is judged as what it normalizes to:
 *    when UTS #46 ToASCII of the label succeeds it is of class raw-8bit
 *    (action on-raw-8bit, normally normalize); when it fails, it is of the
 *    failure's class (bad-utf8, disallowed, contextj, ...) with that
 *    class's action, normalize falling back to on-invalid.
 * 4. A name from an answer (an owner, a CNAME or DNAME target, the name a
 *    response is for) is judged by idng_policy_judge_data: a name whose
 *    action would be normalize is judged again in its A-label form, so
 *    "normalize" never lets a name through on the answer path.
 * 5. A name with raw labels is also judged in its A-label form (rules 1
 *    and 2: the lists, the bidi rule across labels), and gets the more
 *    severe of the two verdicts, whatever on-raw-8bit says: a raw spelling
 *    of a denied name is denied.
 * 6. A name whose labels are all valid and that holds an xn-- label is
 *    judged for lookalikes (UTS #39, core/idng_lookalike.h): confusable
 *    with a protected name (on-confusable, default refuse), an xn-- label
 *    less restrictive than restriction-level (on-mixed-script, default
 *    log), digits of two numbering systems in one label (on-mixed-number,
 *    default log); the most severe of these, as in rule 2.  Whatever the
 *    actions, the verdict says what was found (struct idng_verdict's
 *    lookalike), so that a log line never shows such a name in Unicode;
 *    names the lists decide are looked at for that too.
 * 7. With on-idn other than pass (the default pass looks for nothing), a
 *    name with an IDN label is of class idn: a label that is valid and
 *    judged as rule 6 judges (an xn-- label that decodes, a raw label that
 *    normalizes to one), unless it is written in the idn-scripts
 *    (idng_in_scripts: every code point of a script is of one listed;
 *    Common and Inherited ones go with the rest; a label of those only
 *    needs "common") or the name lies at or under an idn-suffixes name (a
 *    raw name in its A-label form).  Labels that fail a check keep their
 *    own class.  As in rules 2 and 6, the most severe action wins, the
 *    first label among equals; on one label the more specific class (its
 *    own failure, a lookalike) wins a tie.  idn is no lookalike: it sets no
 *    bit of the verdict's lookalike.
 */
#ifndef IDNG_POLICY_H
#define IDNG_POLICY_H

#include "idng_lookalike.h"
#include "idng_nameset.h"
#include "idnguard.h"

#include <stddef.h>
#include <stdint.h>

/**
 * Actions: X(symbol, name).  The names are the settings file's values and
 * stable interface (logs print them).
 */
#define IDNG_ACTION_LIST(X)                                                        \
    X(IDNG_ACT_PASS, "pass")         /**< answer as usual, say nothing */         \
    X(IDNG_ACT_LOG, "log")           /**< answer as usual, log the name */        \
    X(IDNG_ACT_REFUSE, "refuse")     /**< REFUSED (with EDE if enabled) */         \
    X(IDNG_ACT_NXDOMAIN, "nxdomain") /**< NXDOMAIN */                              \
    X(IDNG_ACT_DROP, "drop")         /**< no answer at all */                     \
    X(IDNG_ACT_NORMALIZE, "normalize") /**< raw-8bit only: resolve the A-label form */

/** What the module does with a name of a given error class. */
enum idng_action {
#define IDNG_X_ACTION(sym, name) sym,
    IDNG_ACTION_LIST(IDNG_X_ACTION)
#undef IDNG_X_ACTION
    IDNG_ACTION_COUNT
};

/** Name of an action ("refuse"); NULL if out of range. */
const char *idng_action_name(enum idng_action a);

/** Looks up an action by its exact name; 0 and *a set, or -1. */
int idng_action_lookup(const char *s, size_t len, enum idng_action *a);

/**
 * The policy: everything that decides what happens to a name.  The
 * settings file (conf/) only parses text into it; idng_policy_init gives
 * the defaults, idng_policy_resolve the effective per-class actions.
 */
struct idng_policy {
    /** Validation profile of xn-- labels (`mode`). */
    idng_mode mode;
    /**
     * Effective action per error class, `on-invalid` and the `on-<class>`
     * overrides resolved.  IDNG_ACT_NORMALIZE appears only for
     * IDNG_C_RAW_8BIT.  Classes that are not configurable are
     * IDNG_ACT_PASS.
     */
    enum idng_action action[IDNG_CLASS_COUNT];
    /**
     * The `on-invalid` value itself (never IDNG_ACT_NORMALIZE).  Per-class
     * decisions read action[]; this is for what belongs to no class: names
     * on the deny list, and raw names that could not be normalized when
     * their class's own action is normalize.
     */
    enum idng_action on_invalid;
    struct idng_nameset allow; /**< names (and all below) never judged */
    struct idng_nameset deny;  /**< names (and all below) always rejected */
    /** Labels less restrictive than this are mixed-script (`restriction-level`). */
    idng_restriction restriction_level;
    /** Names whose lookalikes are confusable (`protect`, `protect-file`). */
    struct idng_protect protect;
    /** Rule 7's exemptions: the scripts an IDN label may be written in
     *  (`idn-scripts`: IDNG_SCRIPT_* bits and IDNG_SCRIPT_COMMON), and the
     *  names at and under which every IDN label is (`idn-suffixes`). */
    unsigned idn_scripts;
    struct idng_nameset idn_suffixes;
};

/**
 * The defaults: mode uts46, on-invalid refuse, every configurable class
 * refuse but raw-8bit, which normalizes, the lookalike classes (refuse
 * for those that pass for another name, log for the others) and idn,
 * which passes; restriction-level highly-restrictive; empty lists, no
 * protected names, no idn exemptions.  Allocates nothing.
 */
void idng_policy_init(struct idng_policy *p);

/** Frees the lists and resets p to the defaults; safe to call twice. */
void idng_policy_free(struct idng_policy *p);

/**
 * Classes that describe a query name and so have an action of their own
 * (an `on-<class>` setting).  ok, no-space and invalid-argument are about
 * the caller, not the name, and always pass.
 */
int idng_policy_class_configurable(int cls);

/**
 * May action a be set for class cls (or for on-invalid, cls < 0)?  Only
 * raw-8bit may normalize: no other class has an A-label form to resolve.
 */
int idng_policy_action_allowed(int cls, enum idng_action a);

/**
 * Sets p->action[] from p->on_invalid and the classes whose action was set
 * explicitly (explicit_action[cls] nonzero; NULL: none): unset
 * configurable classes take on-invalid's action, but those whose default
 * does not follow it (idng_policy_default_action); other classes pass.
 * So the order of lines in a file does not matter.
 */
void idng_policy_resolve(struct idng_policy *p, const unsigned char *explicit_action);

/**
 * The default action of a class whose default does not follow on-invalid,
 * or -1: raw-8bit normalizes (a raw name has an A-label form to resolve);
 * confusable and whole-script refuse; the other lookalike classes log
 * (names that are valid, just unusual: an operator opts in to refusing
 * them); idn passes (the switch is off until an operator turns it on).
 */
int idng_policy_default_action(int cls);

/** Which list, if any, decided the verdict. */
enum idng_listed { IDNG_LISTED_NONE, IDNG_LISTED_ALLOW, IDNG_LISTED_DENY };

/** A verdict on one name. */
struct idng_verdict {
    /**
     * The codec's error for the deciding label (status IDNG_OK if none;
     * its class is idng_status_class(err.status)).  err.label_off is the
     * label's offset (content, not length octet) in the name judged: for
     * idng_policy_judge_data of a raw name, its A-label form; err.label_len
     * is 0 when no single label decided.
     */
    idng_error err;
    enum idng_action action;
    enum idng_listed listed;
    uint8_t label[IDNG_LABEL_MAX]; /**< a copy of the deciding label's octets, so the
                                        verdict outlives the name */
    /** IDNG_LK_* bits: what rule 6 found in the name, whatever decided the
     *  verdict; a name with any is not to be shown in Unicode. */
    unsigned lookalike;
    /** The protected name it is confusable with (IDNG_LK_CONFUSABLE), in
     *  wire form, like_len octets (0: none). */
    uint8_t like[IDNG_WIRE_MAX];
    size_t like_len;
};

/** EDE info-code used (RFC 8914): the operator's policy. */
#define IDNG_EDE_BLOCKED 15

/**
 * Severity of an action: pass 0 < log 1 < normalize 2 < nxdomain 3 <
 * refuse 4 < drop 5.  Each step keeps more from the client: log still
 * answers, normalize answers another name than was asked, nxdomain
 * answers that nothing exists, refuse answers nothing, drop sends nothing.
 */
int idng_action_severity(enum idng_action a);

/**
 * Judges an uncompressed wire-format name, the query name of a client
 * (see the file comment for the rule).
 */
void idng_policy_judge(const struct idng_policy *p, const uint8_t *wire, size_t len,
                       struct idng_verdict *v);

/**
 * idng_policy_judge that also keeps in d the labels its check decoded
 * (struct idng_decoded, idnguard.h), so that the name's log line
 * (idng_logrec.decoded) shows its Unicode form without decoding again.  d
 * is complete when the name's labels were checked in the policy's mode (a
 * name of plain labels counts: none is an xn-- label); not when a list
 * decided.  No allocation: d is the caller's.
 */
void idng_policy_judge_decoded(const struct idng_policy *p, const uint8_t *wire, size_t len,
                               struct idng_verdict *v, struct idng_decoded *d);

/**
 * The verdict of a name that nothing in the policy objects to: status ok,
 * action pass, no list, no label, no lookalike facts.  It is what
 * idng_policy_judge gives whenever the verdict's class is ok and no list
 * decided (a lookalike found always decides a verdict that was ok), so a
 * caller that kept only that much of a verdict (idng_memo.h) can have the
 * whole of it back (it keeps idng_verdict_is_ok of the verdict, so that the
 * shortcut never rests on the rule above alone).
 */
void idng_verdict_ok(struct idng_verdict *v);

/** 1 when v is idng_verdict_ok's verdict in every field a reader uses. */
int idng_verdict_is_ok(const struct idng_verdict *v);

/**
 * idng_policy_judge of a name the caller has found plain with
 * idng_wire_is_plain (no xn-- label, no octet >= 0x80, well formed): only
 * the lists decide it, so the test is not made twice.  For any other name
 * the verdict is wrong.
 */
void idng_policy_judge_plain(const struct idng_policy *p, const uint8_t *wire, size_t len,
                             struct idng_verdict *v);

/**
 * Judges a name found in a response (answer-section owners, CNAME and
 * DNAME targets, the name a response is for).  As idng_policy_judge,
 * except that a name whose action would be normalize is converted with
 * idng_policy_normalize and judged in that form: its verdict is the
 * A-label form's (ok, log, allow, or a rejection), or the conversion's
 * failure with idng_policy_fallback's action.  Never returns normalize.
 */
void idng_policy_judge_data(const struct idng_policy *p, const uint8_t *wire, size_t len,
                            struct idng_verdict *v);

/**
 * When a response is rejected, the client is answered with the rejected
 * name's verdict v (its class, its label, "looks like" in the EDE text),
 * but the query log shows the client's own name: v takes the display facts
 * of q, the verdict of that name (its lookalike bits), so that a lookalike
 * asked for is never shown in Unicode beside another name's verdict.
 */
void idng_verdict_for_client(struct idng_verdict *v, const struct idng_verdict *q);

/** Do refuse, nxdomain and drop keep the client from an answer? */
int idng_action_rejects(enum idng_action a);

/** The action to take when normalizing failed with status st. */
enum idng_action idng_policy_fallback(const struct idng_policy *p, idng_status st);

/** "ok", the class name, "allow" or "deny". */
const char *idng_verdict_name(const struct idng_verdict *v);

/** Is v more than plain ok: an error class, or a list decided? */
int idng_verdict_interesting(const struct idng_verdict *v);

/**
 * Converts a wire name with raw UTF-8 labels into its A-label wire form:
 * idng_wire_to_ascii under p->mode (raw labels through UTS #46 ToASCII one
 * by one, other labels lowercased).  A raw label that cannot be converted
 * (bad UTF-8, a disallowed code point, a full stop that would make two
 * labels of one, ...) is kept as it is: idng_policy_judge gave it an action
 * of its own, and the result is to be judged again.  Fails only when the
 * name is malformed or too long once converted.  out must hold 255 octets;
 * *outlen gets the length.
 */
idng_status idng_policy_normalize(const struct idng_policy *p, const uint8_t *wire, size_t len,
                                  uint8_t *out, size_t *outlen, idng_error *err);

/**
 * EDE text for a rejected name: "idnguard: <verdict>: <label>: <message>",
 * the label name-escaped as in the query log (idng_display_label), so the text
 * is printable ASCII and a '.' inside a label shows as \046; for a
 * confusable name, ": looks like <name>" follows, the protected name as
 * idng_display_name shows it.  Returns the
 * length written; out is always NUL-terminated (cap >= 1).
 */
size_t idng_policy_ede_text(const struct idng_verdict *v, char *out, size_t cap);

#endif /* IDNG_POLICY_H */
