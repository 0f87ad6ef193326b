/**
 * \file
 * The per-item commands of `idnguard` (encode, decode, to-ascii,
 * to-unicode, check, explain, skeleton, restriction): what main hands
 * them (struct opts), and the output they share (out.c): answers gathered
 * in one buffer and written in blocks, in text, TSV or JSON.  These are
 * the CLI's own functions, linked into the program only.
 */
#ifndef IDNG_CLI_ITEMS_H
#define IDNG_CLI_ITEMS_H

#include "idng_conf.h"
#include "idng_policy.h"
#include "idnguard.h"

#include <stddef.h>
#include <stdint.h>

/** Room for one answer: the longest output of a name the codec takes. */
#define OUT_MAX (4 * IDNG_INPUT_MAX + 16)

/** --format: how each answer line is written (see items_text). */
enum format { FMT_TEXT, FMT_TSV, FMT_JSON };

struct opts {
    idng_mode mode;
    unsigned flags;
    int use_case;
    enum format format;
    const char *user; /* check-conf --user=NAME */
    const char *conf; /* check --conf FILE; explain's settings file */
    int mode_set;     /* --mode given: it overrides the settings file's */
    /* check --conf, explain: the settings file's policy, loaded by main;
     * NULL without. */
    const struct idng_policy *policy;
    const struct idng_conf *settings; /* the whole of that file, origins included */
    const char *cmd;                  /* the command's name, for messages */
};

typedef int (*command_fn)(const char *item, size_t len, const struct opts *o);

/* ---- the output buffer (out.c) ---- */

/** Writes what the buffer holds to stdout. */
void out_drain(void);
/** Room for n <= 64 KiB octets at the end of the buffer. */
char *out_room(size_t n);
/** Keeps the n octets written at out_room() as a line. */
void out_commit(size_t n);
/** 1: each line is handed to stdio at once (a terminal); 0: in blocks. */
void out_per_line(int on);
/** Appends n octets of a line, any n. */
void out_put(const char *s, size_t n);
void out_str(const char *s);
/** before, s, after; nothing when s is NULL or empty. */
void out_around(const char *before, const char *s, const char *after);
/** Ends a line begun with out_put. */
void out_end_line(void);
/** A display sink (idng_display_sink) that appends atoms to the line. */
void out_sink(void *ctx, const char *atom, size_t n);
/** Is s[0..n) shown as itself in a field (field_put would change nothing)? */
int field_plain(const char *s, size_t n);
/** An item, a label or an answer in a text or TSV line, escaped by the
 *  display unit, the space too. */
void field_put(const char *s, size_t n);
/** A JSON string, exact (RFC 8259 escapes). */
void json_put(const char *s, size_t n);
/** The input item, first in a TSV or JSON line. */
void put_input(const struct opts *o, const char *item, size_t len);
/** A success: the answer (NULL for check, which has none).  @return 0. */
int put_ok(const struct opts *o, const char *item, size_t len, const char *ans, size_t anslen);
/** A failure line (out.c says its fields); e may be NULL, note and to_ascii
 *  too.  @return 1. */
int report_full(const struct opts *o, const char *item, size_t len, idng_status st,
                const idng_error *e, const char *note, const char *to_ascii, size_t to_ascii_len);
int report(const struct opts *o, const char *item, size_t len, const idng_error *e);
int report_status(const struct opts *o, const char *item, size_t len, idng_status st);
/** A TSV field after its tab; empty for NULL. */
void tsv_field(const char *s);
/** A JSON member ,"key":"..." (n octets of s), or ,"key":null for NULL. */
void json_member(const char *key, const char *s, size_t n);
void json_member_str(const char *key, const char *s);
/** Runs fn on each line of standard input, streamed.  @return 0 all ok,
 *  1 any failed, 2 on a read or memory error (said on stderr). */
int run_stdin(command_fn fn, const struct opts *o);

/* ---- the module's judgment of a name (items.c), for check --conf and explain ---- */

/* Room for idng_policy_ede_text's words, a label and a protected name, as
 * the query log shows them. */
#define EDE_TEXT_MAX (IDNG_DISPLAY_NAME_MAX + 4 * IDNG_LABEL_MAX + 256)

/*
 * What the module does with a client's query for a name: one judgment,
 * which check --conf and explain both print, so that the two can never
 * disagree.  The text becomes a wire name by the codec's name unit
 * (idng_text_to_wire), its octets as they are: a label of raw UTF-8 is
 * judged as the module judges one on the wire.
 */
struct judged {
    uint8_t wire[IDNG_WIRE_MAX];
    size_t wlen;
    struct idng_verdict v;
    int rejects;            /* refuse, nxdomain or drop */
    const char *action;     /* its name */
    const char *lookalike;  /* the lookalike classes found, or NULL */
    const char *message;    /* the codec's message, for a verdict no list decided */
    char cp[24];            /* its code point, "U+XXXX", or "" */
    char ede[EDE_TEXT_MAX]; /* idng_policy_ede_text of the verdict */
};

/** Judges item with o->policy; 0, or -1 with *e set when the text spells
 *  no DNS name (an empty or over-long label). */
int judge_item(const char *item, size_t len, const struct opts *o, struct judged *j, idng_error *e);
/** The EDE text without its "idnguard: ": the verdict's words. */
const char *ede_words(const char *ede);

/* ---- the commands: one item each; 0 ok, 1 failed or rejected, 2 output error ---- */

int cmd_encode(const char *item, size_t len, const struct opts *o);
int cmd_decode(const char *item, size_t len, const struct opts *o);
int cmd_to_ascii(const char *item, size_t len, const struct opts *o);
int cmd_to_unicode(const char *item, size_t len, const struct opts *o);
int cmd_check(const char *item, size_t len, const struct opts *o);
int cmd_skeleton(const char *item, size_t len, const struct opts *o);
int cmd_restriction(const char *item, size_t len, const struct opts *o);
/** explain.c */
int cmd_explain(const char *item, size_t len, const struct opts *o);

#endif /* IDNG_CLI_ITEMS_H */
