/**
 * \file
 * idnguard codec: Punycode (RFC 3492) and IDNA (RFC 5891-5893, UTS #46).
 *
 * Rules for every function here:
 * - The codec never allocates and never calls anything but libc.
 * - Output goes to caller-owned buffers whose capacity is passed in; on
 *   return the same variable holds the length written, or, when the status
 *   is IDNG_E_NOSPACE, the length that would have been needed; after any
 *   other error it is unspecified.  Nothing is ever written at or beyond the
 *   capacity given.
 * - Text output is NUL-terminated when, and only when, there is room for the
 *   terminator beyond the returned length; lengths never count it.
 * - Every function returns one idng_status.  idng_status_class() gives its
 *   stable class name (used by the CLI, logs and configuration) and
 *   idng_status_message() a sentence; neither returns NULL.
 */
#ifndef IDNGUARD_H
#define IDNGUARD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** idnguard's version (semantic versioning): the one place it is written.
 *  The CLI, the module's load line and `make dist` read it from here. */
#define IDNG_VERSION "0.2.0"
/** Unicode version of the compiled-in tables.  This header stands alone, so
 *  the version is repeated here; tools/gen_tables.py refuses to generate
 *  tables of another version until it is updated. */
#define IDNG_UNICODE_VERSION "16.0.0"
/** Longest DNS label, in octets (RFC 1035 2.3.4). */
#define IDNG_LABEL_MAX 63
/** Longest name in text form without the trailing dot (255 wire octets). */
#define IDNG_NAME_MAX 253
/** Longest text input accepted by the name functions, in octets. */
#define IDNG_INPUT_MAX 1024
/** Longest label accepted by to-ASCII before mapping, in code points. */
#define IDNG_INPUT_LABEL_MAX 252

/**
 * Error classes: X(symbol, name).  The names are stable interface, used by
 * the CLI, the module's logs and EDE texts, and configuration keys.  From
 * mixed-script on they are the policy's judgments, which the validation
 * functions never return: the lookalike classes up to embeds-protected
 * (UTS #39 and the browser's rules beyond it; core/idng_lookalike.h), then
 * idn, a valid IDN label the operator's settings do not exempt
 * (core/idng_policy.h, on-idn).
 */
#define IDNG_CLASS_LIST(X)                                                         \
    X(IDNG_C_OK, "ok")                                                             \
    X(IDNG_C_NOSPACE, "no-space")                                                  \
    X(IDNG_C_INVAL, "invalid-argument")                                            \
    X(IDNG_C_TOO_LONG, "too-long")                                                 \
    X(IDNG_C_EMPTY_LABEL, "empty-label")                                           \
    X(IDNG_C_BAD_PUNYCODE, "bad-punycode")                                         \
    X(IDNG_C_BAD_CODEPOINT, "bad-codepoint")                                       \
    X(IDNG_C_ASCII_ONLY, "ascii-only")                                             \
    X(IDNG_C_NOT_CANONICAL, "not-canonical")                                       \
    X(IDNG_C_DISALLOWED, "disallowed")                                             \
    X(IDNG_C_CONTEXTJ, "contextj")                                                 \
    X(IDNG_C_CONTEXTO, "contexto")                                                 \
    X(IDNG_C_HYPHEN, "hyphen")                                                     \
    X(IDNG_C_LEADING_MARK, "leading-mark")                                         \
    X(IDNG_C_BIDI, "bidi")                                                         \
    X(IDNG_C_RAW_8BIT, "raw-8bit")                                                 \
    X(IDNG_C_BAD_UTF8, "bad-utf8")                                                 \
    X(IDNG_C_MIXED_SCRIPT, "mixed-script")                                         \
    X(IDNG_C_CONFUSABLE, "confusable")                                             \
    X(IDNG_C_MIXED_NUMBER, "mixed-number")                                         \
    X(IDNG_C_WHOLE_SCRIPT, "whole-script")                                         \
    X(IDNG_C_NEAR_MISS, "near-miss")                                               \
    X(IDNG_C_MARK_PATTERN, "mark-pattern")                                         \
    X(IDNG_C_CJK_PATTERN, "cjk-pattern")                                           \
    X(IDNG_C_DIGIT_LOOKALIKE, "digit-lookalike")                                   \
    X(IDNG_C_PUNCTUATION, "punctuation-like")                                     \
    X(IDNG_C_TLD_LETTER, "tld-letter")                                             \
    X(IDNG_C_EMBEDS_PROTECTED, "embeds-protected")                                 \
    X(IDNG_C_IDN, "idn")

/** Error class of a status. */
typedef enum idng_class {
#define IDNG_X_CLASS(sym, name) sym,
    IDNG_CLASS_LIST(IDNG_X_CLASS)
#undef IDNG_X_CLASS
    IDNG_CLASS_COUNT
} idng_class;

/**
 * Statuses: X(symbol, value, class, message).  Several statuses share a
 * class; each names its own reason.
 */
#define IDNG_STATUS_LIST(X)                                                        \
    X(IDNG_OK, 0, IDNG_C_OK, "valid")                                                   \
    X(IDNG_E_NOSPACE, -1, IDNG_C_NOSPACE, "output buffer too small")                   \
    X(IDNG_E_INVAL, -2, IDNG_C_INVAL, "invalid argument")                    \
    X(IDNG_E_LABEL_TOO_LONG, -3, IDNG_C_TOO_LONG, "label longer than 63 octets")        \
    X(IDNG_E_NAME_TOO_LONG, -4, IDNG_C_TOO_LONG, "name longer than 253 octets")         \
    X(IDNG_E_INPUT_TOO_LONG, -5, IDNG_C_TOO_LONG, "input longer than the codec accepts") \
    X(IDNG_E_EMPTY_LABEL, -6, IDNG_C_EMPTY_LABEL, "empty label")                        \
    X(IDNG_E_EMPTY_DECODE, -7, IDNG_C_EMPTY_LABEL, "A-label decodes to nothing")        \
    X(IDNG_E_PUNY_DIGIT, -8, IDNG_C_BAD_PUNYCODE, "invalid Punycode digit")             \
    X(IDNG_E_PUNY_NONBASIC, -9, IDNG_C_BAD_PUNYCODE, "non-ASCII octet in Punycode")     \
    X(IDNG_E_PUNY_TRUNCATED, -10, IDNG_C_BAD_PUNYCODE, "unterminated Punycode integer") \
    X(IDNG_E_PUNY_OVERFLOW, -11, IDNG_C_BAD_PUNYCODE, "Punycode arithmetic overflow")   \
    X(IDNG_E_SURROGATE, -12, IDNG_C_BAD_CODEPOINT, "surrogate code point")              \
    X(IDNG_E_CODEPOINT_MAX, -13, IDNG_C_BAD_CODEPOINT, "code point above U+10FFFF")     \
    X(IDNG_E_ASCII_ONLY, -14, IDNG_C_ASCII_ONLY, "A-label decodes to ASCII only")       \
    X(IDNG_E_ROUNDTRIP, -15, IDNG_C_NOT_CANONICAL,                                      \
      "re-encoding does not give back the A-label")                                \
    X(IDNG_E_NOT_NFC, -16, IDNG_C_NOT_CANONICAL, "label is not in NFC")                 \
    X(IDNG_E_MAPPED, -17, IDNG_C_NOT_CANONICAL,                                         \
      "code point is mapped or ignored under UTS #46")                             \
    X(IDNG_E_DISALLOWED, -18, IDNG_C_DISALLOWED, "code point is disallowed")            \
    X(IDNG_E_UNASSIGNED, -19, IDNG_C_DISALLOWED, "code point is unassigned")            \
    X(IDNG_E_CONTEXTJ, -20, IDNG_C_CONTEXTJ,                                            \
      "joiner not allowed here (RFC 5892 A.1, A.2)")                               \
    X(IDNG_E_CONTEXTO, -21, IDNG_C_CONTEXTO,                                            \
      "code point not allowed in this context (RFC 5892 A.3-A.9)")                 \
    X(IDNG_E_HYPHEN_34, -22, IDNG_C_HYPHEN, "'--' in positions 3 and 4")                \
    X(IDNG_E_HYPHEN_EDGE, -23, IDNG_C_HYPHEN, "label begins or ends with '-'")          \
    X(IDNG_E_XN_PREFIX, -24, IDNG_C_HYPHEN, "U-label itself begins with 'xn--'")        \
    X(IDNG_E_LEADING_MARK, -25, IDNG_C_LEADING_MARK, "label begins with a combining mark") \
    X(IDNG_E_BIDI_1, -26, IDNG_C_BIDI, "first character is not L, R or AL (RFC 5893 rule 1)") \
    X(IDNG_E_BIDI_2, -27, IDNG_C_BIDI, "character not allowed in an RTL label (RFC 5893 rule 2)") \
    X(IDNG_E_BIDI_3, -28, IDNG_C_BIDI, "RTL label ends badly (RFC 5893 rule 3)")        \
    X(IDNG_E_BIDI_4, -29, IDNG_C_BIDI, "RTL label mixes EN and AN digits (RFC 5893 rule 4)") \
    X(IDNG_E_BIDI_5, -30, IDNG_C_BIDI, "character not allowed in an LTR label (RFC 5893 rule 5)") \
    X(IDNG_E_BIDI_6, -31, IDNG_C_BIDI, "LTR label ends badly (RFC 5893 rule 6)")        \
    X(IDNG_E_RAW_8BIT, -32, IDNG_C_RAW_8BIT, "label holds octets >= 0x80")              \
    X(IDNG_E_BAD_UTF8, -33, IDNG_C_BAD_UTF8, "invalid UTF-8")                           \
    X(IDNG_E_MIXED_SCRIPT, -34, IDNG_C_MIXED_SCRIPT,                                    \
      "label mixes scripts beyond the restriction level (UTS #39 5.2)")            \
    X(IDNG_E_CONFUSABLE, -35, IDNG_C_CONFUSABLE,                                        \
      "name is confusable with a protected name (UTS #39 section 4)")              \
    X(IDNG_E_MIXED_NUMBER, -36, IDNG_C_MIXED_NUMBER,                                    \
      "label mixes digits of different numbering systems (UTS #39 5.3)")         \
    X(IDNG_E_WHOLE_SCRIPT, -37, IDNG_C_WHOLE_SCRIPT,                                    \
      "every letter looks like a letter of a script the top-level domain expects "         \
      "(UTS #39 section 4, whole-script)")                                             \
    X(IDNG_E_NEAR_MISS, -38, IDNG_C_NEAR_MISS,                                          \
      "name looks like a protected name once marks and strokes are dropped")          \
    X(IDNG_E_MARK_PATTERN, -39, IDNG_C_MARK_PATTERN,                                    \
      "a combining mark hides or fakes a letter's shape")                            \
    X(IDNG_E_CJK_PATTERN, -40, IDNG_C_CJK_PATTERN,                                      \
      "a Kana mark or a Han, Kana or Bopomofo character that looks like a Latin "       \
      "letter or punctuation stands outside Japanese or Chinese text")                \
    X(IDNG_E_DIGIT_LOOKALIKE, -41, IDNG_C_DIGIT_LOOKALIKE,                              \
      "label of digits and letters that look like digits")                           \
    X(IDNG_E_PUNCTUATION, -42, IDNG_C_PUNCTUATION,                                      \
      "a letter that looks like punctuation (a hyphen, an apostrophe, a dot)")       \
    X(IDNG_E_TLD_LETTER, -43, IDNG_C_TLD_LETTER,                                        \
      "a letter of one country's language under another top-level domain")          \
    X(IDNG_E_EMBEDS_PROTECTED, -44, IDNG_C_EMBEDS_PROTECTED,                            \
      "a part of the label between hyphens looks like a protected name's label")      \
    X(IDNG_E_IDN, -45, IDNG_C_IDN, "IDN label that idn-scripts and idn-suffixes do not exempt")

/** Status of every codec call; IDNG_OK is 0, errors are negative. */
typedef enum idng_status {
#define IDNG_X_ENUM(sym, val, cls, msg) sym = (val),
    IDNG_STATUS_LIST(IDNG_X_ENUM)
#undef IDNG_X_ENUM
} idng_status;

/** Class of a status; IDNG_C_INVAL for a value that is not a status. */
idng_class idng_status_class(idng_status st);
/** Stable class name of a status ("bad-punycode"); "unknown" if out of range. */
const char *idng_status_class_name(idng_status st);
/** One-line description of a status; never NULL. */
const char *idng_status_message(idng_status st);
/** Symbol of a status ("IDNG_E_PUNY_DIGIT"); never NULL. */
const char *idng_status_symbol(idng_status st);
/** Name of a class; NULL when out of range. */
const char *idng_class_name(idng_class cls);
/** Class by name; returns 0 and sets *cls, or -1 if there is no such class. */
int idng_class_lookup(const char *name, size_t len, idng_class *cls);

/** Validation profile for xn-- labels; each includes the checks of `punycode`. */
typedef enum idng_mode {
    /** Decodes, not empty, not all-ASCII, no xn-- inside, round-trips, <= 63. */
    IDNG_MODE_PUNYCODE = 0,
    /** Plus RFC 5891 5.4: NFC, RFC 5892 PVALID/CONTEXTJ/CONTEXTO, hyphens,
     *  leading mark, RFC 5893 bidi. */
    IDNG_MODE_IDNA2008 = 1,
    /** Plus UTS #46 nontransitional validity with CheckHyphens, CheckBidi,
     *  CheckJoiners, UseSTD3ASCIIRules, VerifyDnsLength. */
    IDNG_MODE_UTS46 = 2,
    /** IDNA2008 as RFC 5891 section 5.4 asks of a lookup: that of
     *  IDNG_MODE_IDNA2008 (which is section 4's registration, "idna2008"
     *  or "idna2008-registration") but that a label may begin or end with
     *  '-' (only "--" in positions 3-4 is refused) and that the CONTEXTO
     *  rules are not applied (IDNG_F_CHECK_CONTEXTO applies them). */
    IDNG_MODE_IDNA2008_LOOKUP = 3
} idng_mode;
/** The highest mode. */
#define IDNG_MODE_MAX IDNG_MODE_IDNA2008_LOOKUP

/** Name of a mode ("uts46", "idna2008", "idna2008-lookup"); NULL if out of
 *  range. */
const char *idng_mode_name(idng_mode mode);
/** Parses a mode name, or "idna2008-registration" (IDNG_MODE_IDNA2008);
 *  returns 0 and sets *mode, or -1. */
int idng_mode_lookup(const char *name, size_t len, idng_mode *mode);

/** Flags for the name functions. */
enum {
    /**
     * Judge every label, ASCII ones included, exactly as UTS #46 processing
     * does (STD3 rules, hyphens, bidi on every label).  Without it, labels
     * of plain ASCII that do not begin with "xn--" are never judged, since
     * real DNS names (_dmarc, r3---sn-abc, -x) break IDNA rules legitimately.
     */
    IDNG_F_STRICT = 1u << 0,
    /** to-Unicode: leave xn-- labels that fail validation as they are and
     *  keep going instead of stopping at the first error; wire to-ASCII:
     *  likewise for raw labels that cannot be converted. */
    IDNG_F_KEEP_GOING = 1u << 1,
    /*
     * The UTS #46 processing options (section 4) that differ from this
     * codec's defaults, for idng_to_ascii and idng_to_unicode.  The
     * defaults are the module's: nontransitional, CheckHyphens,
     * UseSTD3ASCIIRules, VerifyDnsLength, CheckBidi, CheckJoiners on.
     */
    /** Transitional processing (to-ASCII only; ToUnicode is always
     *  nontransitional): U+00DF maps to "ss", U+03C2 to U+03C3, U+200C
     *  and U+200D are removed.  xn-- labels are validated as without it
     *  (UTS #46 15.0 section 4 step 4). */
    IDNG_F_TRANSITIONAL = 1u << 2,
    /** CheckHyphens=false: '-' may begin or end a label, and "--" stand
     *  in positions 3-4 (a U-label still may not begin with "xn--"). */
    IDNG_F_NO_CHECK_HYPHENS = 1u << 3,
    /** UseSTD3ASCIIRules=false: ASCII code points other than letters,
     *  digits and '-' (but '.') are valid.  The tables fold the STD3 rules
     *  in, so the few non-ASCII code points UTS #46 maps to such ASCII
     *  when the rules are off (disallowed_STD3_mapped: U+2474 to "(1)",
     *  U+FF0F to "/", ...) stay disallowed. */
    IDNG_F_NO_STD3 = 1u << 4,
    /** VerifyDnsLength=false: no label or name length limit on the
     *  result, and empty labels are allowed. */
    IDNG_F_NO_DNS_LENGTH = 1u << 5,
    /** CheckBidi=false: the bidi rule (RFC 5893) is not applied. */
    IDNG_F_NO_BIDI = 1u << 6,
    /** CheckJoiners=false (uts46 mode): U+200C and U+200D are valid
     *  anywhere. */
    IDNG_F_NO_JOINERS = 1u << 7,
    /** Apply RFC 5892's CONTEXTO rules in uts46 and idna2008-lookup modes
     *  too (IDNG_MODE_IDNA2008 always does). */
    IDNG_F_CHECK_CONTEXTO = 1u << 8
};

/** Where an error was found; filled by the name and label functions. */
typedef struct idng_error {
    idng_status status;  /**< same as the return value */
    size_t label_off;    /**< offset of the failing label in the input */
    size_t label_len;    /**< its length in octets */
    uint32_t codepoint;  /**< offending code point, or IDNG_NO_CODEPOINT */
} idng_error;
#define IDNG_NO_CODEPOINT 0xFFFFFFFFu

/**
 * Punycode encoder, RFC 3492 section 6.3, with the mixed-case annotation of
 * appendix A.  No ACE prefix is added.
 *
 * @param in: code points; each must be <= U+10FFFF and not a surrogate.
 * @param inlen: number of code points.
 * @param case_flags: NULL, or inlen flags: nonzero forces the corresponding
 *   code point's annotation to uppercase (basic code points are written in
 *   uppercase, other code points get an uppercase final digit).
 * @param out: output buffer, ASCII.
 * @param outlen: in: capacity of out; out: length written or needed.
 * @return IDNG_OK, IDNG_E_NOSPACE, IDNG_E_PUNY_OVERFLOW, IDNG_E_SURROGATE,
 *   IDNG_E_CODEPOINT_MAX.
 */
idng_status idng_punycode_encode(const uint32_t *in, size_t inlen, const unsigned char *case_flags,
                                 char *out, size_t *outlen);

/**
 * Punycode decoder, RFC 3492 section 6.2 with the overflow checks of 6.4.
 * The input is the part after "xn--".  Basic code points are copied as
 * they are (no case folding).
 *
 * @param in: ASCII input (not NUL-terminated necessarily).
 * @param inlen: its length.
 * @param out: output code points.
 * @param outlen: in: capacity of out (and of case_flags); out: number of
 *   code points written or needed.
 * @param case_flags: NULL, or an array with the same capacity as out; set to
 *   1 where the annotation is uppercase, 0 elsewhere.
 * @return IDNG_OK, IDNG_E_NOSPACE, IDNG_E_PUNY_DIGIT, IDNG_E_PUNY_NONBASIC,
 *   IDNG_E_PUNY_TRUNCATED, IDNG_E_PUNY_OVERFLOW, IDNG_E_SURROGATE,
 *   IDNG_E_CODEPOINT_MAX.  Input errors take precedence over NOSPACE.
 */
idng_status idng_punycode_decode(const char *in, size_t inlen, uint32_t *out, size_t *outlen,
                                 unsigned char *case_flags);

/**
 * Judges one label the way the resolver module does: a label of plain ASCII
 * not beginning with "xn--" (any case) is IDNG_OK without further checks;
 * a label with an octet >= 0x80 is IDNG_E_RAW_8BIT; an xn-- label is
 * validated under mode.  The RFC 5893 bidi rule is applied only if the
 * label itself is right-to-left; use idng_name_check for whole names.
 *
 * @param err: NULL, or filled with the details of a failure.
 */
idng_status idng_label_check(const char *label, size_t len, idng_mode mode, idng_error *err);

/**
 * Judges a text name (labels separated by '.', optional trailing dot) label
 * by label as idng_label_check does, and applies the bidi rule to every
 * xn-- label when any label of the name is right-to-left.  Reports the
 * first failing label.  Also checks the label and name lengths.
 */
idng_status idng_name_check(const char *name, size_t len, idng_mode mode, idng_error *err);

/**
 * Same as idng_name_check for an uncompressed wire-format name of at most
 * len octets (the root label ends it).  A label that runs past len, or a
 * compression pointer, is IDNG_E_INVAL.
 */
idng_status idng_wire_check(const uint8_t *wire, size_t len, idng_mode mode, idng_error *err);

/**
 * Like idng_wire_check, but judges every label instead of stopping at the
 * first failure: each[] receives one error per failing label, in name
 * order (the label's own failure, or else the bidi rule's when the name is
 * a Bidi domain name), at most cap of them, and *count the number of
 * failing labels (which may exceed cap).  A malformed or too long name is
 * one error covering the name.  Returns the first failure, or IDNG_OK.
 */
idng_status idng_wire_check_each(const uint8_t *wire, size_t len, idng_mode mode,
                                 idng_error *each, size_t cap, size_t *count);

/**
 * Told about each label by idng_wire_check_labels, in name order: off and
 * len locate its contents in the wire name; cps[0..n) are its code points
 * when it is an xn-- label that decodes (ASCII letters lowercased; the
 * label may still have failed a later check), else cps is NULL and n 0.
 * ents[0..n) are then the code points' entries in the codec's property
 * tables as the validation looked them up, for idng_judge_label (NULL when
 * the validation did not get that far: a label that decodes to ASCII, or
 * to an "xn--" prefix, or punycode mode).  Both are valid during the call
 * only.
 */
typedef void idng_label_fn(void *ctx, size_t off, size_t len, const uint32_t *cps,
                           const uint16_t *ents, size_t n);

/**
 * Is wire[0..len) a well-formed name of plain ASCII labels none of which
 * begins with "xn--" (in any case)?  Such a name is what every check passes
 * without a look (in every mode, unless IDNG_F_STRICT); 1 or 0.
 */
int idng_wire_is_plain(const uint8_t *wire, size_t len);

/**
 * idng_wire_check_each that also hands every label to fn (see
 * idng_label_fn), so that a caller judging labels further does not decode
 * them again.  It walks every label of a well-formed name, so a caller
 * tests idng_wire_is_plain first (a plain name has nothing to hand over);
 * fn is not called for a malformed name.
 */
idng_status idng_wire_check_labels(const uint8_t *wire, size_t len, idng_mode mode,
                                   idng_error *each, size_t cap, size_t *count, idng_label_fn *fn,
                                   void *ctx);

/** Most labels a wire name can have (255 octets: 127 one-octet labels). */
#define IDNG_LABELS_MAX 127

/**
 * UTS #46 ToASCII (nontransitional): the name, in UTF-8, is split into
 * labels at U+002E, U+3002, U+FF0E and U+FF61; each label is mapped with
 * the UTS #46 table, normalized to NFC, validated under mode and converted
 * to an A-label when not ASCII.  Plain ASCII labels are lowercased and,
 * without IDNG_F_STRICT, not judged; xn-- labels are validated.  The result
 * must fit DNS lengths (VerifyDnsLength).  A trailing dot is kept.
 *
 * @param out: ASCII output; @param outlen: in capacity, out length/needed.
 */
idng_status idng_to_ascii(const char *in, size_t inlen, char *out, size_t *outlen,
                          idng_mode mode, unsigned flags, idng_error *err);

/**
 * UTS #46 ToUnicode: like idng_to_ascii, but every xn-- label that is valid
 * under mode is written as its U-label (UTF-8), and non-ASCII labels are
 * written mapped and normalized.  On a failing label the function stops
 * and returns its error, unless IDNG_F_KEEP_GOING is set, in which case the
 * failing label is copied unchanged, the first error is returned and the
 * output is complete.
 */
idng_status idng_to_unicode(const char *in, size_t inlen, char *out, size_t *outlen,
                            idng_mode mode, unsigned flags, idng_error *err);

/**
 * UTS #46 ToASCII of one label (UTF-8, no separators): the result is one
 * ASCII label of at most 63 octets, lowercased, an A-label when the input
 * holds anything but ASCII.  A full stop in the input ('.', U+3002, U+FF0E,
 * U+FF61), which would split the label, is IDNG_E_DISALLOWED with that
 * code point.  Error offsets are within the label.
 */
idng_status idng_label_to_ascii(const char *label, size_t len, char *out, size_t *outlen,
                                idng_mode mode, idng_error *err);

/**
 * ToASCII on a wire name, label by label: each label holding an octet >=
 * 0x80 goes through idng_label_to_ascii; every other label is copied with
 * ASCII letters lowercased and is not judged (use idng_wire_check for
 * that).  The output is an uncompressed wire name of at most 255 octets;
 * *outlen: capacity in, length out (0 after an error that leaves no
 * output).  Errors name the failing label's offset and length in the
 * input wire name.  With IDNG_F_KEEP_GOING, a label that cannot be
 * converted is copied unchanged instead, the first such failure is
 * returned, and the output is complete (*outlen > 0); only a malformed
 * name, one too long once converted, or too small a buffer leave no
 * output.
 */
idng_status idng_wire_to_ascii(const uint8_t *wire, size_t len, uint8_t *out, size_t *outlen,
                               idng_mode mode, unsigned flags, idng_error *err);

/**
 * Decodes one code point of UTF-8 (RFC 3629: no overlongs, no surrogates,
 * nothing above U+10FFFF).  Returns the number of octets used (1-4), or 0
 * on invalid or truncated input, leaving *cp untouched.
 */
size_t idng_utf8_decode(const unsigned char *s, size_t len, uint32_t *cp);
/** Encodes cp (valid scalar) into out, which must hold 4 octets; returns 1-4. */
size_t idng_utf8_encode(uint32_t cp, unsigned char *out);

/**
 * May cp be shown as itself in a log line?  True for printable ASCII other
 * than '\\' (0x21-0x7E), and for code points from U+00A0 up whose UTS #46
 * status is valid or deviation, except the invisible joiners U+200C and
 * U+200D.  False for controls, spaces, bidi controls (U+200E, U+200F,
 * U+202A-U+202E, U+2066-U+2069), other format characters, line separators,
 * private use, unassigned and everything else UTS #46 disallows or maps:
 * such code points should be escaped.
 */
int idng_display_safe(uint32_t cp);

/**
 * Simple (one-to-one) case mappings of UnicodeData.txt, of the Unicode
 * version IDNG_UNICODE_VERSION: idng_simple_lower gives the
 * Simple_Lowercase_Mapping of cp, idng_simple_upper its
 * Simple_Uppercase_Mapping, and each returns cp itself when it has none,
 * as for any value that is not a code point.  They map one code point at
 * a time, with no special casing or case folding (U+00DF stays itself in
 * uppercase), so they are not how UTS #46 maps case: they serve the
 * mixed-case annotation of RFC 3492 appendix A (see
 * idng_punycode_encode's case_flags), as the CLI's --case does.
 */
uint32_t idng_simple_lower(uint32_t cp);
uint32_t idng_simple_upper(uint32_t cp);

/*
 * Display: one spelling for hostile octets, wherever a person reads them
 * (the query log, EDE texts, CLI error lines, messages about settings
 * files).  Two escapes and nothing else:
 *   \DDD      an octet by its decimal value (RFC 1035 section 5.1);
 *   \u{XXXX}  a code point by its hexadecimal value (at least 4 digits).
 * Output is made of atoms (one literal character or one escape) handed to
 * a sink whole; the buffer forms write an atom whole or not at all and
 * stop at the first that does not fit, so truncation never cuts an escape.
 */

/** Receives one atom: n octets (at most IDNG_DISPLAY_ATOM_MAX). */
typedef void idng_display_sink(void *ctx, const char *atom, size_t n);

/** Longest atom: "\#malformed" (11) or "\u{10FFFF}" (10). */
#define IDNG_DISPLAY_ATOM_MAX 12
/** Ends a name whose wire form cannot be read to its end. */
#define IDNG_DISPLAY_MALFORMED "\\#malformed"
/** Buffer size (with the NUL) that always holds idng_display_name's
 *  output: at most 254 octets of labels and length octets are shown, each
 *  as at most 4 characters, plus the marker. */
#define IDNG_DISPLAY_NAME_MAX (4 * 254 + 12)
/** Buffer size (with the NUL) that always holds idng_display_unicode's
 *  output: one code point per wire octet at most, each at most 10
 *  characters. */
#define IDNG_DISPLAY_UNICODE_MAX (10 * 254 + 1)

/** Octet c as \\DDD. */
void idng_display_octet_to(uint8_t c, idng_display_sink *sink, void *ctx);

/**
 * A label's octets, as a DNS name shows them: letters, digits, '-', '_'
 * and '*' as themselves, every other octet as \DDD (so a '.' inside a
 * label never reads as two labels, and nothing non-ASCII is shown).  The
 * form of a label everywhere: log lines, EDE texts, CLI error lines.
 */
void idng_display_label_to(const uint8_t *label, size_t len, idng_display_sink *sink, void *ctx);

/**
 * A wire name as sent: its labels as idng_display_label_to shows them,
 * each followed by '.', the root name alone as ".".  Reading stops at the
 * root label.  A length octet that runs past len, a compression pointer or
 * extended label type (length octet >= 0x40), a missing root label or a
 * name longer than 255 octets ends the output with IDNG_DISPLAY_MALFORMED
 * after the labels read so far ("example.\#malformed"); an empty input
 * is "\#malformed".  wire may be NULL when len is 0.
 */
void idng_display_name_to(const uint8_t *wire, size_t len, idng_display_sink *sink, void *ctx);

/**
 * The Unicode form of a wire name, to show beside idng_display_name_to's.
 * There is one only when idng_wire_check() accepts the whole name under
 * mode and it holds at least one xn-- label; otherwise nothing is emitted
 * and the result is 0.  Each xn-- label is shown decoded: a code point
 * idng_display_safe() accepts (or an ASCII letter, digit, '-', '_', '*')
 * as itself, any other as \u{XXXX}; other labels and the dots as in
 * idng_display_name_to.
 */
int idng_display_unicode_to(const uint8_t *wire, size_t len, idng_mode mode,
                            idng_display_sink *sink, void *ctx);
/** Does the name have a Unicode form (see idng_display_unicode_to)? */
int idng_display_has_unicode(const uint8_t *wire, size_t len, idng_mode mode);
/** idng_display_unicode_to's output for a name idng_display_has_unicode()
 *  has accepted, without checking the name again (a caller that has asked
 *  already, such as the log line, saves a second idng_wire_check). */
void idng_display_unicode_known_to(const uint8_t *wire, size_t len, idng_display_sink *sink,
                                   void *ctx);

/**
 * Text from a user or a file (a CLI operand, a settings value): printable
 * ASCII as itself but '\\' (shown as \092), code points that
 * idng_display_safe() accepts as themselves, other valid UTF-8 as
 * \u{XXXX}, controls, DEL and octets that are not UTF-8 as \DDD.
 */
void idng_display_text_to(const char *s, size_t len, idng_display_sink *sink, void *ctx);
/** How many octets at the start of s[0..len) idng_display_text_to shows
 *  as themselves (len when it would change nothing): lets a caller copy
 *  text that needs no escaping as it is. */
size_t idng_display_text_plain(const char *s, size_t len);

/** A buffer sink: keeps cap - 1 octets of whole atoms and a NUL. */
struct idng_display_buf {
    char *out;
    size_t cap, len;
    int full; /**< an atom did not fit: nothing more is written */
};
/** Starts an empty buffer sink over out (NULL or cap 0: takes nothing). */
void idng_display_buf_init(struct idng_display_buf *b, char *out, size_t cap);
/** The sink function of struct idng_display_buf (ctx points to one). */
void idng_display_put(void *ctx, const char *atom, size_t n);
/** n one-octet atoms at s, as n calls of idng_display_put: the ones that
 *  fit are written, the first that does not sets full. */
void idng_display_put_run(struct idng_display_buf *b, const char *s, size_t n);

/** Buffer forms of the above: NUL-terminated when cap >= 1; return the
 *  length written, at most cap - 1 (idng_display_unicode: 0 when there is
 *  no Unicode form). */
size_t idng_display_label(const uint8_t *label, size_t len, char *out, size_t cap);
size_t idng_display_name(const uint8_t *wire, size_t len, char *out, size_t cap);
size_t idng_display_unicode(const uint8_t *wire, size_t len, idng_mode mode, char *out, size_t cap);
size_t idng_display_text(const char *s, size_t len, char *out, size_t cap);

/** ASCII-only convenience: does the label begin with "xn--" in any case? */
int idng_is_ace(const char *label, size_t len);

/* ---- DNS names ---- */

/** Longest uncompressed wire name, root label included (RFC 1035 3.1). */
#define IDNG_WIRE_MAX 255

/**
 * A name's labels as a check of the whole name decoded them (see
 * idng_label_fn), kept so that its Unicode form is written without
 * decoding each xn-- label again.  Filled with idng_decoded_init and one
 * idng_decoded_add per label, in name order, then idng_decoded_done.
 * Fixed size, no allocation: the check's own code points, at most one per
 * octet of the name.
 */
struct idng_decoded {
    int complete;                    /**< every label was added, and status is the check's */
    idng_mode mode;                  /**< the mode of that check */
    idng_status status;              /**< its result: the name's idng_wire_check() */
    int ace;                         /**< some label is an xn-- label that decoded */
    size_t nlab, used;               /**< labels added; code points in cp */
    uint16_t start[IDNG_LABELS_MAX]; /**< label i's first code point in cp */
    uint8_t n[IDNG_LABELS_MAX];      /**< and how many (0: not a decoded xn-- label) */
    uint32_t cp[IDNG_WIRE_MAX];
};
/** Empties d: not complete until idng_decoded_done. */
void idng_decoded_init(struct idng_decoded *d);
/** The next label: its code points cps[0..n) (NULL, 0: not a decoded xn--
 *  label), as idng_label_fn hands them.  Too many labels or code points
 *  leave d incomplete for good. */
void idng_decoded_add(struct idng_decoded *d, const uint32_t *cps, size_t n);
/** The check that handed every label over ended with status, in mode. */
void idng_decoded_done(struct idng_decoded *d, idng_mode mode, idng_status status);
/** Does the name have a Unicode form under mode (idng_display_has_unicode)?
 *  Answered from d when d is complete and of that mode, else by checking
 *  the name. */
int idng_display_has_unicode_decoded(const uint8_t *wire, size_t len, idng_mode mode,
                                     const struct idng_decoded *d);
/** idng_display_unicode_known_to, written from d's code points when d is
 *  complete and holds the name's labels, else by decoding them. */
void idng_display_unicode_decoded_to(const uint8_t *wire, size_t len, const struct idng_decoded *d,
                                     idng_display_sink *sink, void *ctx);

/** Why a wire name is malformed; IDNG_WIRE_OK while it is not. */
typedef enum idng_wire_fault {
    IDNG_WIRE_OK = 0,
    /** A length octet with the top two bits set: a compression pointer. */
    IDNG_WIRE_POINTER,
    /** A length octet of 64-191: a label over 63 octets, or an extended
     *  label type (RFC 6891 6.2). */
    IDNG_WIRE_LABEL_TYPE,
    /** A label runs past the end of the buffer. */
    IDNG_WIRE_TRUNCATED,
    /** The buffer ends where a length octet should be: no root label. */
    IDNG_WIRE_NO_ROOT,
    /** The name would be longer than IDNG_WIRE_MAX octets. */
    IDNG_WIRE_TOO_LONG,
    /** More than IDNG_LABELS_MAX labels. */
    IDNG_WIRE_TOO_MANY
} idng_wire_fault;

/**
 * A walk over the labels of an uncompressed wire name that never reads
 * past the length it was given.  Set it up with idng_wire_iter_init; the
 * fields may be read, not written.
 */
typedef struct idng_wire_iter {
    const uint8_t *wire;   /**< the name */
    size_t len;            /**< octets readable at wire */
    size_t pos;            /**< offset of the next length octet (at the end:
                                the root label's; on a fault: the faulty one's) */
    size_t labels;         /**< labels returned so far, the root not counted */
    idng_wire_fault fault; /**< why the walk stopped early, or IDNG_WIRE_OK */
} idng_wire_iter;

/** What idng_wire_next found. */
enum {
    IDNG_WIRE_LABEL = 1, /**< a label, returned through the out parameters */
    IDNG_WIRE_END = 0,   /**< the root label: the name is well formed */
    IDNG_WIRE_BAD = -1   /**< the name is malformed; it->fault says why */
};

/** Starts a walk over wire[0..len). */
void idng_wire_iter_init(idng_wire_iter *it, const uint8_t *wire, size_t len);

/**
 * Steps to the next label of the name.  After IDNG_WIRE_END or
 * IDNG_WIRE_BAD, every further call returns the same again.
 *
 * @param label: set to the label's first octet (after its length octet).
 * @param label_len: set to its length, 1-63.
 * @return IDNG_WIRE_LABEL, IDNG_WIRE_END or IDNG_WIRE_BAD.
 */
int idng_wire_next(idng_wire_iter *it, const uint8_t **label, size_t *label_len);

/**
 * The status of a walk that has stopped, as idng_wire_check reports it:
 * IDNG_OK after IDNG_WIRE_END; IDNG_E_NAME_TOO_LONG for IDNG_WIRE_TOO_LONG
 * and IDNG_WIRE_TOO_MANY (err: offset 0, and the length up to the end of
 * the label that does not fit); IDNG_E_INVAL for the other faults (err:
 * the offset of the faulty length octet, or of the missing one, and
 * length 0).
 *
 * @param err: NULL, or filled with the details of a failure.
 */
idng_status idng_wire_status(const idng_wire_iter *it, idng_error *err);

/**
 * Length of the wire name at wire[0..len), root label included (1 to
 * IDNG_WIRE_MAX), or 0 when it is malformed as idng_wire_next sees it.
 * Octets after the root label are not looked at.
 */
size_t idng_wire_len(const uint8_t *wire, size_t len);

/**
 * Reads the name at offset off of the DNS message msg[0..len), compression
 * followed (RFC 1035 4.1.4), into its uncompressed wire form.  Its labels
 * are walked with idng_wire_next; a compression pointer is followed only
 * when it points strictly before the first octet of the labels that led to
 * it (the name's own first octet, or where the pointer before it pointed),
 * so every jump goes backwards: a loop is refused at its first turn and a
 * name costs at most one step per octet of msg.  Nothing at or past len is
 * read, so a caller limits the name's place with len (a name in rdata:
 * len is the rdata's end; what a pointer names lies before it anyway).
 *
 * @param out: room for IDNG_WIRE_MAX octets.
 * @param outlen: set to the name's length, root label included (on success).
 * @param next: NULL, or set to the offset just after the name in place:
 *   after its root label, or after its first pointer (on success).
 * @return IDNG_WIRE_OK, or why the name cannot be read: IDNG_WIRE_POINTER
 *   for a pointer that does not point backwards, IDNG_WIRE_TRUNCATED for a
 *   label or a pointer cut by len, IDNG_WIRE_TOO_LONG for a name over
 *   IDNG_WIRE_MAX octets once its pointers are followed, and as
 *   idng_wire_next: IDNG_WIRE_LABEL_TYPE, IDNG_WIRE_NO_ROOT (also for off
 *   at or past len).
 */
idng_wire_fault idng_wire_decompress(const uint8_t *msg, size_t len, size_t off, uint8_t *out,
                                     size_t *outlen, size_t *next);

/** What idng_wire_rr_read found. */
typedef enum idng_wire_rr_status {
    IDNG_WIRE_RR_OK = 0,
    /** The owner name cannot be read; the record's fault says why. */
    IDNG_WIRE_RR_NAME,
    /** The message ends inside TYPE, CLASS, TTL or RDLENGTH. */
    IDNG_WIRE_RR_SHORT,
    /** The RDATA, RDLENGTH octets long, runs past the message's end. */
    IDNG_WIRE_RR_RDATA
} idng_wire_rr_status;

/** The header of one resource record (RFC 1035 4.1.3) as
 *  idng_wire_rr_read reads it.  Offsets are into the message. */
typedef struct idng_wire_rr {
    size_t owner;          /**< the owner name's first octet */
    size_t owner_end;      /**< just after the owner as sent: after its root
                                label or its first pointer (TYPE begins here) */
    size_t owner_len;      /**< the decompressed owner's length, root label
                                included, when it was asked for; else 0 */
    idng_wire_fault fault; /**< IDNG_WIRE_OK, or why the owner cannot be read */
    uint16_t type;
    uint16_t rclass;
    uint32_t ttl;
    uint16_t rdlength;
    size_t rdata; /**< the RDATA's first octet (owner_end + 10) */
    size_t end;   /**< just after the RDATA: where the next record begins */
} idng_wire_rr;

/**
 * Reads the header of the resource record at offset off of the DNS message
 * msg[0..len): its owner name, TYPE, CLASS, TTL and RDLENGTH, and where
 * its RDATA lies.  The RDATA itself is not read.  Nothing at or past len is
 * read, and nothing is allocated.
 *
 * The owner is read in one of two ways.  With owner_out, it is
 * decompressed as idng_wire_decompress does (every pointer strictly
 * backwards) into owner_out, IDNG_WIRE_MAX octets of room, and its length
 * set in rr->owner_len.  Without (NULL), it is only walked in place with
 * idng_wire_next: it ends at its root label or at a compression pointer
 * (two octets), which is not followed, so where the pointer points is not
 * looked at; rr->fault is then IDNG_WIRE_POINTER for a name that ends so.
 *
 * @param rr: filled in as far as the record could be read: on
 *   IDNG_WIRE_RR_NAME only owner and fault; on IDNG_WIRE_RR_SHORT the
 *   owner's fields too; on IDNG_WIRE_RR_RDATA every field.
 * @return IDNG_WIRE_RR_OK; IDNG_WIRE_RR_NAME for an owner that cannot be
 *   read (also for off at or past len); IDNG_WIRE_RR_SHORT when fewer than
 *   10 octets follow the owner; IDNG_WIRE_RR_RDATA when fewer than
 *   RDLENGTH octets follow those.
 */
idng_wire_rr_status idng_wire_rr_read(const uint8_t *msg, size_t len, size_t off,
                                      uint8_t *owner_out, idng_wire_rr *rr);

/**
 * Compares two labels as DNS does (RFC 4034 6.1): octet by octet with
 * ASCII letters folded to lowercase (no other folding), a label that is a
 * prefix of the other first.  Returns < 0, 0 or > 0.
 */
int idng_label_casecmp(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);

/**
 * Is the wire name `name` equal to `apex` or below it?  Label by label and
 * ASCII case-insensitively: b.example is below example, bexample is not.
 * Returns 1 or 0; 0 also when either name is malformed.
 */
int idng_wire_is_below(const uint8_t *name, size_t name_len, const uint8_t *apex,
                       size_t apex_len);

/**
 * Length of the full stop that begins at s[0..len): 1 for U+002E, 3 for
 * the UTF-8 of U+3002 IDEOGRAPHIC FULL STOP, U+FF0E FULLWIDTH FULL STOP and
 * U+FF61 HALFWIDTH IDEOGRAPHIC FULL STOP (UTS #46 section 4), or 0.  This
 * is the codec's one definition of what separates labels in Unicode text.
 */
size_t idng_full_stop(const char *s, size_t len);

/**
 * Text name to an uncompressed wire name: labels are separated by any
 * full stop of idng_full_stop, and one at the end stands for the root
 * label; a full stop alone is the root name.  Label octets are copied as
 * they are: no case folding, no mapping, and a backslash is an ordinary
 * octet (no presentation-format escapes).
 *
 * @param out: wire output; @param outlen: in capacity, out length/needed.
 * @param err: NULL, or filled with the details of a failure.
 * @return IDNG_OK; IDNG_E_EMPTY_LABEL (also for an empty text);
 *   IDNG_E_LABEL_TOO_LONG over 63 octets (err: the label in the text);
 *   IDNG_E_NAME_TOO_LONG over IDNG_WIRE_MAX wire octets; IDNG_E_NOSPACE.
 */
idng_status idng_text_to_wire(const char *text, size_t len, uint8_t *out, size_t *outlen,
                              idng_error *err);

/** An ASCII capital letter lowercased; any other octet as it is (DNS
 *  compares names ASCII case aside, RFC 4343). */
static inline unsigned char idng_ascii_lower(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

/* ---- UTS #39: lookalikes ---- */

/**
 * Restriction levels of UTS #39 section 5.2, most restrictive first:
 * X(symbol, name).  The names are stable interface (CLI, settings, logs).
 */
#define IDNG_RESTRICTION_LIST(X)                                                   \
    X(IDNG_RL_ASCII, "ascii-only")                                                 \
    X(IDNG_RL_SINGLE_SCRIPT, "single-script")                                      \
    X(IDNG_RL_HIGHLY, "highly-restrictive")                                        \
    X(IDNG_RL_MODERATELY, "moderately-restrictive")                                \
    X(IDNG_RL_MINIMALLY, "minimally-restrictive")                                  \
    X(IDNG_RL_UNRESTRICTED, "unrestricted")

/** A restriction level; a greater value is less restrictive. */
typedef enum idng_restriction {
#define IDNG_X_RL(sym, name) sym,
    IDNG_RESTRICTION_LIST(IDNG_X_RL)
#undef IDNG_X_RL
    IDNG_RL_COUNT
} idng_restriction;

/** Name of a level ("highly-restrictive"); NULL if out of range. */
const char *idng_restriction_name(idng_restriction level);
/** Parses a level's name; returns 0 and sets *level, or -1. */
int idng_restriction_lookup(const char *name, size_t len, idng_restriction *level);

/**
 * The restriction level of a string (UTS #39 section 5.2, with the
 * Identifier_Status=Allowed set of IdentifierStatus.txt and the augmented
 * Script_Extensions sets of section 5.1): unrestricted when a code point
 * is not Allowed; ascii-only when all are ASCII; single-script when one
 * script covers every code point; highly-restrictive for Latin with Han
 * and Hiragana/Katakana, Han and Bopomofo, or Han and Hangul;
 * moderately-restrictive for Latin with one other script that is not
 * Cyrillic, Greek or Cherokee; else minimally-restrictive.  Applied to a
 * label, it sees every code point, ASCII ones included, as ICU's spoof
 * checker does (idng_name_restriction treats plain ASCII labels apart).
 */
idng_restriction idng_restriction_level(const uint32_t *s, size_t n);

/**
 * Mixed numbers (UTS #39 section 5.3): do the decimal digits of s
 * (General_Category Nd) come from more than one set of ten (U+0030 and
 * U+0660, say)?  Returns 1 or 0.
 */
int idng_mixed_numbers(const uint32_t *s, size_t n);

/** idng_restriction_level and idng_mixed_numbers of s in one pass (what
 *  the policy judges each label with); *mixed_numbers may be NULL. */
idng_restriction idng_uts39_label(const uint32_t *s, size_t n, int *mixed_numbers);

/** The longest skeleton of one code point that UTS #46 keeps (valid or
 *  deviation): a label of n such code points has a skeleton of at most
 *  IDNG_SKELETON_GROWTH * n code points.  The generator checks it. */
#define IDNG_SKELETON_GROWTH 7

/**
 * The confusable skeleton of UTS #39 section 4, with confusables.txt:
 * NFD, each code point replaced by its prototype, NFD again.  Two strings
 * are confusable when their skeletons are equal.
 *
 * @param out: code points; @param outlen: in capacity, out length/needed.
 * @return IDNG_OK, IDNG_E_NOSPACE, or IDNG_E_SURROGATE / IDNG_E_CODEPOINT_MAX
 *   for a value that is not a scalar value.
 */
idng_status idng_skeleton(const uint32_t *in, size_t n, uint32_t *out, size_t *outlen);

/**
 * The skeleton of a name, in text: the name is converted as
 * idng_to_unicode does under mode (so it must be valid; xn-- labels are
 * decoded, raw labels mapped), then each label is replaced by its
 * skeleton, in UTF-8, in the display unit's spelling: a full stop ends
 * each label as in the input (a trailing one is kept); a U+002E inside a
 * label's skeleton (the prototype of U+0660 ARABIC-INDIC DIGIT ZERO) is
 * written as "\\046", and '\\' as "\\092", so the labels stay apart; a
 * code point idng_display_safe() rejects (a prototype may be any code
 * point) as \\u{XXXX}.  Only printable text comes out.
 *
 * @param out: UTF-8; @param outlen: in capacity, out length/needed.
 */
idng_status idng_name_skeleton(const char *in, size_t inlen, char *out, size_t *outlen,
                               idng_mode mode, idng_error *err);

/**
 * The restriction level of a name: the least restrictive of its labels'.
 * The name is converted as idng_to_unicode does under mode (it must be
 * valid).  A label whose Unicode form is plain ASCII is ascii-only whatever
 * it holds: UTS #39 is about look-alike scripts, and DNS names carry '_'
 * and '*', which the Allowed set leaves out.  *mixed_numbers (may be NULL)
 * gets 1 when a label mixes decimal digits of different sets of ten.
 * err (may be NULL) describes a failure.
 */
idng_status idng_name_restriction(const char *in, size_t inlen, idng_mode mode,
                                  idng_restriction *level, int *mixed_numbers, idng_error *err);

/* ---- lookalikes beyond UTS #39's skeleton (codec/spoof.c) ---- */

/**
 * The scripts a top-level domain can expect, for whole-script confusables:
 * X(bit symbol, name).  The names are stable interface (settings).
 */
#define IDNG_SCRIPT_LIST(X)                                                        \
    X(IDNG_SCRIPT_LATIN, "latin")                                                  \
    X(IDNG_SCRIPT_CYRILLIC, "cyrillic")                                            \
    X(IDNG_SCRIPT_GREEK, "greek")                                                  \
    X(IDNG_SCRIPT_ARMENIAN, "armenian")                                            \
    X(IDNG_SCRIPT_GEORGIAN, "georgian")                                            \
    X(IDNG_SCRIPT_HEBREW, "hebrew")                                                \
    X(IDNG_SCRIPT_ARABIC, "arabic")                                                \
    X(IDNG_SCRIPT_THAI, "thai")                                                    \
    X(IDNG_SCRIPT_CJK, "cjk")                                                      \
    X(IDNG_SCRIPT_ETHIOPIC, "ethiopic")                                            \
    X(IDNG_SCRIPT_MYANMAR, "myanmar")                                              \
    X(IDNG_SCRIPT_BENGALI, "bengali")                                              \
    X(IDNG_SCRIPT_DEVANAGARI, "devanagari")                                        \
    X(IDNG_SCRIPT_GUJARATI, "gujarati")                                            \
    X(IDNG_SCRIPT_GURMUKHI, "gurmukhi")                                            \
    X(IDNG_SCRIPT_KANNADA, "kannada")                                              \
    X(IDNG_SCRIPT_MALAYALAM, "malayalam")                                          \
    X(IDNG_SCRIPT_ORIYA, "oriya")                                                  \
    X(IDNG_SCRIPT_TAMIL, "tamil")                                                  \
    X(IDNG_SCRIPT_TELUGU, "telugu")

/** The index of each script; its bit is 1u << index. */
enum {
#define IDNG_X_SCRIPT(sym, name) sym##_INDEX,
    IDNG_SCRIPT_LIST(IDNG_X_SCRIPT)
#undef IDNG_X_SCRIPT
    IDNG_SCRIPT_COUNT
};
/** The bit of each script. */
enum {
#define IDNG_X_SCRIPT(sym, name) sym = 1u << sym##_INDEX,
    IDNG_SCRIPT_LIST(IDNG_X_SCRIPT)
#undef IDNG_X_SCRIPT
};
#define IDNG_SCRIPTS_ALL ((1u << IDNG_SCRIPT_COUNT) - 1)

/** Name of the script of index i ("cyrillic"); NULL if out of range. */
const char *idng_script_name(unsigned i);
/** Parses a script's name; returns its index, or -1. */
int idng_script_lookup(const char *name, size_t len);

/**
 * Is s written in the scripts given (IDNG_SCRIPT_* bits), as the
 * idn-scripts setting asks: does every code point of a script (one whose
 * augmented Script_Extensions, UTS #39 5.1, is not Common or Inherited)
 * have one of them among its scripts?  Code points of Common and Inherited
 * (digits, '-', the combining marks scripts share, symbols, emoji) go with
 * the rest: they are in every script, as UTS #39 counts them.  ASCII letters
 * are Latin; Han, Hiragana, Katakana, Hangul and Bopomofo are cjk.
 *
 * @return 1 when it is; 0 when a code point is not (or a value is not a
 *   scalar value); -1 when s holds no code point of a script at all (only
 *   Common and Inherited ones, such as an emoji label), which no script
 *   set decides.
 */
int idng_in_scripts(const uint32_t *s, size_t n, unsigned scripts);

/**
 * Whole-script confusables (UTS #39 section 4, tested one character at a
 * time) against the IDNG_SCRIPT_* scripts: a string of one script whose
 * every letter has a lookalike in script T (a letter of T with the same
 * skeleton, or an extra lookalike mapping to Latin) can pass for T.
 * Code points of Common and Inherited (digits, '-', marks) pass for any.
 * A string whose every letter and mark of its script is in Chromium's
 * whole-script set of that script (tools/lookalike_browser_ws.txt) can pass
 * for Latin too, as a whole (the two sources are not mixed in one string).
 *
 * @param own: gets the bits of the scripts s is written in (0 when none
 *   of them; every bit when s is not of one script or holds no letter of
 *   any script).
 * @return the bits of the scripts every letter of s can pass for; 0 when
 *   *own has every bit.
 */
unsigned idng_whole_script(const uint32_t *s, size_t n, unsigned *own);

/** Flags of idng_skeleton_ex. */
enum {
    /** letters UTS #39 maps elsewhere than they look (tools/lookalike_extra.txt)
     *  are taken as the ASCII they look like */
    IDNG_SK_EXTRA = 1u << 0,
    /** NFD, combining marks (nonzero combining class) dropped, and letters
     *  "<X> WITH <mark>" that have no decomposition (l with stroke) taken
     *  as <X>: a near miss */
    IDNG_SK_FOLD = 1u << 1
};

/**
 * The skeleton (idng_skeleton) of s after the changes flags ask for, in
 * that order: the key of looser lookalike tests.  Arguments and results as
 * idng_skeleton's; n is at most IDNG_LABEL_MAX + 1 (IDNG_E_INVAL beyond).
 */
idng_status idng_skeleton_ex(const uint32_t *in, size_t n, unsigned flags, uint32_t *out,
                             size_t *outlen);

/**
 * The flags of idng_skeleton_ex under which the key of s may differ from
 * its skeleton (IDNG_SK_EXTRA, IDNG_SK_FOLD): under a flag not returned,
 * idng_skeleton_ex gives idng_skeleton's result.  Letters are taken as
 * they are: an ASCII capital, which the extra mappings lowercase, counts.
 */
unsigned idng_skeleton_keys(const uint32_t *s, size_t n);

/**
 * Patterns of one label that browsers refuse to show and that UTS #39
 * lets through: bits of the classes found (1u << (class - IDNG_C_MARK_PATTERN)
 * for mark-pattern, cjk-pattern, digit-lookalike and punctuation-like).
 * See codec/spoof.c for each rule and its source.
 */
unsigned idng_spoof_patterns(const uint32_t *s, size_t n);

/** What idng_spoof_label finds in one label. */
struct idng_spoof_facts {
    unsigned ws_own, ws_pass; /**< idng_whole_script's *own and result */
    unsigned patterns;        /**< idng_spoof_patterns's result */
    unsigned tld_letters;     /**< idng_tld_letters's result */
    /** The IDNG_SK_* flags under which s's key is not its skeleton (0 for
     *  most labels: their looser keys need not be made). */
    unsigned keys;
};

/**
 * idng_whole_script, idng_spoof_patterns and idng_tld_letters of s in one
 * pass, given s's restriction level (idng_uts39_label): what the policy
 * runs on every judged label.
 */
void idng_spoof_label(const uint32_t *s, size_t n, idng_restriction level,
                      struct idng_spoof_facts *f);

/**
 * idng_uts39_label and then idng_spoof_label of s[0..n), with one lookup of
 * each code point: ents[0..n) are the code points' entries that the
 * validation looked up (idng_label_fn), or NULL to look them up here.
 * Returns s's restriction level; *mixed_numbers and f as there.
 */
idng_restriction idng_judge_label(const uint32_t *s, const uint16_t *ents, size_t n,
                                  int *mixed_numbers, struct idng_spoof_facts *f);

/**
 * Is cp an emoji code point: Extended_Pictographic, or Emoji_Component
 * outside ASCII (UTS #51, emoji-data.txt): a pictograph, or a piece of an
 * emoji sequence (U+200D ZWJ, U+20E3 the keycap, U+FE0F VS16, the regional
 * indicators of flags, the skin-tone modifiers U+1F3FB..U+1F3FF, the hair
 * components, the tags U+E0020..U+E007F).  '#', '*' and the ASCII digits
 * are Emoji_Component too, and are left out: they are characters of
 * every label.  UTS #39 counts emoji unrestricted (they are not
 * Identifier_Status=Allowed); they are no letters, so they cannot pass for
 * a letter of another script, and the policy's mixed-script rule judges a
 * label by its restriction level with them set aside, and matches it with
 * the protected names with them set aside too (core/lookalike.c).  A binary search over a table of the emoji
 * runs' edges.  Returns 1 or 0; 0 for any value above U+10FFFF.
 */
int idng_is_emoji(uint32_t cp);

/** Letters at home under one country's top-level domains only (bits of
 *  idng_tld_letters): the caller knows the TLD (core/tld_scripts.c). */
enum {
    IDNG_TL_ICELANDIC = 1u << 0,   /**< thorn and eth (U+00FE, U+00F0): .is, .fo */
    IDNG_TL_AZERBAIJANI = 1u << 1, /**< schwa (U+0259): .az */
    IDNG_TL_CATALAN = 1u << 2      /**< the middle dot of l·l (U+00B7): .cat */
};

/** The IDNG_TL_* letters s holds.  Chromium shows them under those TLDs
 *  only (thorn looks like b and p, eth like o, schwa like an e turned). */
unsigned idng_tld_letters(const uint32_t *s, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* IDNGUARD_H */
