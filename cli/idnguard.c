/**
 * \file
 * idnguard: command-line front end of the codec.
 *
 *   idnguard encode [--case] [--format=F] [LABEL...]   Unicode label -> raw Punycode
 *   idnguard decode [--case] [--format=F] [LABEL...]   raw Punycode -> Unicode label
 *   idnguard to-ascii [--mode=M] [--strict] [UTS #46 options] [--format=F] [NAME...]
 *   idnguard to-unicode [--mode=M] [--strict] [UTS #46 options] [--format=F] [NAME...]
 *   idnguard check [--mode=M] [--conf FILE] [--format=F] [NAME...]
 *   idnguard explain [--mode=M] [--conf FILE] [--format=F] [NAME...]  why check --conf says so
 *   idnguard skeleton [--mode=M] [--format=F] [NAME...]     UTS #39 skeleton of each label
 *   idnguard restriction [--mode=M] [--format=F] [NAME...]  UTS #39 restriction level
 *   idnguard lint-zone [...] [FILE...]         a zone's names judged (lint.c)
 *   idnguard check-conf [--user=NAME] [FILE]
 *   idnguard stats FILE
 *   idnguard tap (-u SOCKET | -r FILE) [...]  dnstap in, query-log lines out (tap.c)
 *   idnguard top [--conf FILE] [--stats FILE]... [--log FILE]  a live view (top.c)
 *
 * Options may come anywhere among the operands, until "--"; every argument
 * before it that begins with '-' is an option, and one the command does not
 * know is a usage error (so "-m" or "-h" is never taken for a name).  Each
 * command's --help prints its own usage.
 *
 * Without operands each command reads standard input, one item a line, and
 * writes exactly one line per input line (explain: a few lines per name).
 * Exit status: 0 when every item succeeded, 1 when any failed, 2 on a usage
 * error.  check-conf reads no standard input; it exits 0 when FILE is
 * valid, 1 when not.  check --conf judges with the policy of a settings
 * file (check_policy), and explain says why (cmd_explain): 1 when the
 * module would reject any name, 2 when the file does not load.
 */
#include "idng_conf.h"
#include "idng_log.h"
#include "idng_lookalike.h"
#include "idnguard.h"
#include "lint.h"
#include "tap.h"
#include "top.h"

#include <stdio.h>
#include <ctype.h>
#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#define OUT_MAX (4 * IDNG_INPUT_MAX + 16)

/* --format: how each answer line is written (see usage_text). */
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
};

typedef int (*command_fn)(const char *item, size_t len, const struct opts *o);

/*
 * The answers of every per-item command: gathered here and handed to stdio
 * in blocks, since a stdio call per line was a fifth of the time of
 * `to-ascii` over plain names.  Anything else written to standard output
 * first drains it, so the order holds.  On a terminal every line is handed
 * over at once, as stdio's line buffering would.
 */
static struct {
    char buf[1 << 16];
    size_t len;
    int per_line;
} obuf;

static void out_drain(void)
{
    if (obuf.len > 0)
        fwrite(obuf.buf, 1, obuf.len, stdout);
    obuf.len = 0;
}

/* Room for n <= sizeof obuf.buf octets at the end of the buffer. */
static char *out_room(size_t n)
{
    if (sizeof obuf.buf - obuf.len < n)
        out_drain();
    return obuf.buf + obuf.len;
}

/* Keeps the n octets written at out_room() as a line. */
static void out_commit(size_t n)
{
    obuf.len += n;
    if (obuf.per_line)
        out_drain();
}

/* Appends n octets of a line, any n. */
static void out_put(const char *s, size_t n)
{
    while (n > 0) {
        size_t k = n < sizeof obuf.buf ? n : sizeof obuf.buf;
        memcpy(out_room(k), s, k);
        obuf.len += k;
        s += k;
        n -= k;
    }
}

static void out_str(const char *s)
{
    out_put(s, strlen(s));
}

/* before, s, after; nothing when s is NULL or empty. */
static void out_around(const char *before, const char *s, const char *after)
{
    if (s == NULL || s[0] == '\0')
        return;
    out_str(before);
    out_str(s);
    out_str(after);
}

/* Ends a line begun with out_put. */
static void out_end_line(void)
{
    out_put("\n", 1);
    out_commit(0);
}

/* A display sink that appends atoms to the line. */
static void out_sink(void *ctx, const char *atom, size_t n)
{
    (void)ctx;
    out_put(atom, n);
}

/* The same, but a space is an escape too (\032): a field of the CLI's
 * text and TSV lines never holds a space, a tab or a line break. */
static void field_sink(void *ctx, const char *atom, size_t n)
{
    if (n == 1 && atom[0] == ' ')
        idng_display_octet_to(' ', out_sink, ctx);
    else
        out_put(atom, n);
}

/* Is s[0..n) shown as itself in a field (field_put would change nothing)? */
static int field_plain(const char *s, size_t n)
{
    return idng_display_text_plain(s, n) == n && memchr(s, ' ', n) == NULL;
}

/*
 * One item, a label or an answer in a text or TSV line: the display
 * unit's form of text (idng_display_text_to: controls, '\\', octets that
 * are not UTF-8 and code points not safe to show escaped), with the space
 * escaped as well.
 */
static void field_put(const char *s, size_t n)
{
    if (field_plain(s, n))
        out_put(s, n);
    else
        idng_display_text_to(s, n, field_sink, NULL);
}

/* A JSON string: the log's escaper (idng_json_escape), a piece at a time,
 * each piece ending before an octet that begins a UTF-8 sequence. */
static void json_put(const char *s, size_t n)
{
    static char esc[6 * 1024];
    const size_t piece = sizeof esc / 6;

    out_put("\"", 1);
    while (n > 0) {
        size_t k = n, back;
        if (k > piece) {
            k = piece;
            for (back = 0; back < 3 && ((unsigned char)s[k] & 0xC0) == 0x80; back++)
                k--;
        }
        out_put(esc, idng_json_escape((const unsigned char *)s, k, esc));
        s += k;
        n -= k;
    }
    out_put("\"", 1);
}

/* The input item, first in a TSV or JSON line. */
static void put_input(const struct opts *o, const char *item, size_t len)
{
    if (o->format == FMT_JSON) {
        out_str("{\"input\":");
        json_put(item, len);
    } else {
        field_put(item, len);
        out_put("\t", 1);
    }
}

/* A success: the answer (NULL for check, which has none). */
static int put_ok(const struct opts *o, const char *item, size_t len, const char *ans,
                  size_t anslen)
{
    if (o->format == FMT_TEXT) {
        if (ans)
            field_put(ans, anslen);
        else
            out_str("ok");
    } else {
        put_input(o, item, len);
        if (o->format == FMT_JSON) {
            out_str(",\"status\":\"ok\"");
            if (ans) {
                out_str(",\"output\":");
                json_put(ans, anslen);
            }
            out_put("}", 1);
        } else {
            out_str("ok\t");
            if (ans)
                field_put(ans, anslen);
        }
    }
    out_end_line();
    return 0;
}

/*
 * A failure.  text: "ERROR <class>: <label>: <message> (U+XXXX)[; note]";
 * TSV: input, the class, "<label>: <message> (U+XXXX)[; note]"; JSON: input,
 * "status":"error", class, label (null when the error is about the whole
 * item; "" for an empty label), offset, message, codepoint (null or
 * "U+XXXX") and, for a name of raw UTF-8 given to check, "to_ascii".  e
 * may be NULL when the status alone is known (encode, decode).
 */
static int report_full(const struct opts *o, const char *item, size_t len, idng_status st,
                       const idng_error *e, const char *note, const char *to_ascii,
                       size_t to_ascii_len)
{
    int has_label = e && e->label_len > 0 && e->label_off <= len
                    && e->label_len <= len - e->label_off;
    /* JSON names an empty label too: "" at its offset. */
    int json_label = has_label
                     || (e && e->label_len == 0 && e->label_off <= len
                         && idng_status_class(st) == IDNG_C_EMPTY_LABEL);
    char cp[24] = "";

    if (e && e->codepoint != IDNG_NO_CODEPOINT)
        snprintf(cp, sizeof cp, "U+%04lX", (unsigned long)e->codepoint);
    if (o->format == FMT_JSON) {
        put_input(o, item, len);
        out_str(",\"status\":\"error\",\"class\":\"");
        out_str(idng_status_class_name(st));
        out_str("\",\"label\":");
        if (json_label) {
            char off[32];
            json_put(item + e->label_off, e->label_len);
            snprintf(off, sizeof off, ",\"offset\":%zu", e->label_off);
            out_str(off);
        } else {
            out_str("null,\"offset\":null");
        }
        out_str(",\"message\":");
        json_put(idng_status_message(st), strlen(idng_status_message(st)));
        out_str(",\"codepoint\":");
        if (cp[0]) {
            out_put("\"", 1);
            out_str(cp);
            out_put("\"", 1);
        } else {
            out_str("null");
        }
        if (to_ascii) {
            out_str(",\"to_ascii\":");
            json_put(to_ascii, to_ascii_len);
        }
        out_put("}", 1);
        out_end_line();
        return 1;
    }
    if (o->format == FMT_TSV) {
        put_input(o, item, len);
        out_str(idng_status_class_name(st));
        out_put("\t", 1);
    } else {
        out_str("ERROR ");
        out_str(idng_status_class_name(st));
        out_str(": ");
    }
    if (has_label) {
        field_put(item + e->label_off, e->label_len);
        out_str(": ");
    }
    out_str(idng_status_message(st));
    out_around(" (", cp, ")");
    if (note) {
        out_str("; ");
        out_str(note);
        if (to_ascii)
            field_put(to_ascii, to_ascii_len);
    }
    out_end_line();
    return 1;
}

static int report(const struct opts *o, const char *item, size_t len, const idng_error *e)
{
    return report_full(o, item, len, e->status, e, NULL, NULL, 0);
}

static int report_status(const struct opts *o, const char *item, size_t len, idng_status st)
{
    return report_full(o, item, len, st, NULL, NULL, NULL, 0);
}

static int cmd_encode(const char *item, size_t len, const struct opts *o)
{
    uint32_t cps[IDNG_INPUT_MAX];
    unsigned char flags[IDNG_INPUT_MAX];
    char out[OUT_MAX];
    size_t n = 0, pos = 0, outlen = sizeof out - 1;
    idng_status st;

    while (pos < len) {
        size_t m;
        if (n == IDNG_INPUT_MAX)
            return report_status(o, item, len, IDNG_E_INPUT_TOO_LONG);
        m = idng_utf8_decode((const unsigned char *)item + pos, len - pos, &cps[n]);
        if (m == 0)
            return report_status(o, item, len, IDNG_E_BAD_UTF8);
        flags[n] = 0;
        if (o->use_case) {
            uint32_t lower = idng_simple_lower(cps[n]);
            flags[n] = lower != cps[n];
            cps[n] = lower;
        }
        n++;
        pos += m;
    }
    st = idng_punycode_encode(cps, n, o->use_case ? flags : NULL, out, &outlen);
    if (st != IDNG_OK)
        return report_status(o, item, len, st);
    return put_ok(o, item, len, out, outlen);
}

static int cmd_decode(const char *item, size_t len, const struct opts *o)
{
    uint32_t cps[IDNG_INPUT_MAX];
    unsigned char flags[IDNG_INPUT_MAX];
    char out[4 * IDNG_INPUT_MAX];
    size_t n = IDNG_INPUT_MAX, i, outlen = 0;
    idng_status st;

    if (len > IDNG_INPUT_MAX)
        return report_status(o, item, len, IDNG_E_INPUT_TOO_LONG);
    st = idng_punycode_decode(item, len, cps, &n, flags);
    if (st != IDNG_OK)
        return report_status(o, item, len, st);
    for (i = 0; i < n; i++) {
        uint32_t cp = cps[i];
        if (o->use_case && flags[i])
            cp = cp < 0x80 ? (cp >= 'a' && cp <= 'z' ? cp - 32 : cp) : idng_simple_upper(cp);
        outlen += idng_utf8_encode(cp, (unsigned char *)out + outlen);
    }
    return put_ok(o, item, len, out, outlen);
}

static int convert(const char *item, size_t len, const struct opts *o, int to_unicode)
{
    static char copy[OUT_MAX];
    char *p = out_room(OUT_MAX);
    size_t outlen = OUT_MAX - 1; /* and the newline */
    idng_error e;
    idng_status st = to_unicode ? idng_to_unicode(item, len, p, &outlen, o->mode, o->flags, &e)
                                : idng_to_ascii(item, len, p, &outlen, o->mode, o->flags, &e);
    if (st != IDNG_OK)
        return report(o, item, len, &e);
    /* The fast path: an answer shown as it is, written in place. */
    if (o->format == FMT_TEXT && field_plain(p, outlen)) {
        p[outlen] = '\n';
        out_commit(outlen + 1);
        return 0;
    }
    memcpy(copy, p, outlen);
    return put_ok(o, item, len, copy, outlen);
}

static int cmd_to_ascii(const char *item, size_t len, const struct opts *o)
{
    return convert(item, len, o, 0);
}

static int cmd_to_unicode(const char *item, size_t len, const struct opts *o)
{
    return convert(item, len, o, 1);
}

/* Room for idng_policy_ede_text's words, a label and a protected name, as
 * the query log shows them. */
#define EDE_TEXT_MAX (IDNG_DISPLAY_NAME_MAX + 4 * IDNG_LABEL_MAX + 256)

/* The EDE text without its "idnguard: ": the verdict's words. */
static const char *ede_words(const char *ede)
{
    static const char prefix[] = "idnguard: ";

    return strncmp(ede, prefix, sizeof prefix - 1) == 0 ? ede + sizeof prefix - 1 : ede;
}

/* A TSV field after its tab; empty for NULL. */
static void tsv_field(const char *s)
{
    out_put("\t", 1);
    if (s)
        out_str(s);
}

/* A JSON member ,"key":"..." (n octets of s), or ,"key":null for NULL. */
static void json_member(const char *key, const char *s, size_t n)
{
    out_str(",\"");
    out_str(key);
    out_str("\":");
    if (s)
        json_put(s, n);
    else
        out_str("null");
}

static void json_member_str(const char *key, const char *s)
{
    json_member(key, s, s ? strlen(s) : 0);
}

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

/* Judges item; 0, or -1 with *e set when the text spells no DNS name (an
 * empty or over-long label). */
static int judge_item(const char *item, size_t len, const struct opts *o, struct judged *j,
                      idng_error *e)
{
    j->wlen = sizeof j->wire;
    if (idng_text_to_wire(item, len, j->wire, &j->wlen, e) != IDNG_OK)
        return -1;
    idng_policy_judge(o->policy, j->wire, j->wlen, &j->v);
    j->rejects = idng_action_rejects(j->v.action);
    j->action = idng_action_name(j->v.action);
    j->lookalike = idng_lookalike_name(j->v.lookalike);
    idng_policy_ede_text(&j->v, j->ede, sizeof j->ede);
    j->message = NULL;
    j->cp[0] = '\0';
    if (j->v.listed == IDNG_LISTED_NONE && j->v.err.status != IDNG_OK) {
        j->message = idng_status_message(j->v.err.status);
        if (j->v.err.codepoint != IDNG_NO_CODEPOINT)
            snprintf(j->cp, sizeof j->cp, "U+%04lX", (unsigned long)j->v.err.codepoint);
    }
    return 0;
}

/*
 * check --conf: the judgment, one line.  Text that spells no DNS name is
 * an ERROR line, as without --conf.  Returns 1 when the action rejects.
 */
static int check_policy(const char *item, size_t len, const struct opts *o)
{
    static struct judged j;
    const struct idng_verdict *v = &j.v;
    char label[IDNG_DISPLAY_NAME_MAX], like[IDNG_DISPLAY_NAME_MAX];
    idng_error e;
    size_t i;

    if (judge_item(item, len, o, &j, &e) != 0)
        return report(o, item, len, &e);
    if (o->format == FMT_TEXT) {
        /* "ok", or the action (in capitals when it rejects), the verdict's
         * words as the EDE text has them, the code point, the lookalike
         * classes. */
        if (idng_verdict_is_ok(v)) {
            out_str("ok");
            out_end_line();
            return 0;
        }
        for (i = 0; j.action[i]; i++) {
            char ch = j.rejects ? (char)toupper((unsigned char)j.action[i]) : j.action[i];
            out_put(&ch, 1);
        }
        out_put(" ", 1);
        out_str(ede_words(j.ede));
        out_around(" (", j.cp, ")");
        out_around(" lookalike=", j.lookalike, "");
        out_end_line();
        return j.rejects;
    }
    if (v->like_len > 0)
        idng_display_name(v->like, v->like_len, like, sizeof like);
    put_input(o, item, len);
    if (o->format == FMT_TSV) {
        if (v->err.label_len > 0)
            idng_display_label(v->label, v->err.label_len, label, sizeof label);
        out_str(j.action);
        tsv_field(idng_verdict_name(v));
        tsv_field(v->err.label_len > 0 ? label : NULL);
        tsv_field(j.message);
        tsv_field(j.cp[0] ? j.cp : NULL);
        tsv_field(j.lookalike);
        tsv_field(v->like_len > 0 ? like : NULL);
        tsv_field(j.rejects ? j.ede : NULL);
    } else {
        out_str(j.rejects ? ",\"status\":\"rejected\"" : ",\"status\":\"ok\"");
        json_member_str("action", j.action);
        json_member_str("class", idng_verdict_name(v));
        json_member("label", v->err.label_len > 0 ? (const char *)v->label : NULL,
                    v->err.label_len);
        json_member_str("message", j.message);
        json_member_str("codepoint", j.cp[0] ? j.cp : NULL);
        json_member_str("lookalike", j.lookalike);
        json_member_str("like", v->like_len > 0 ? like : NULL);
        json_member_str("ede", j.rejects ? j.ede : NULL);
        out_put("}", 1);
    }
    out_end_line();
    return j.rejects;
}

/* ---- explain: why the module would block a name, or not ---- */

/* Room for "FILE:LINE": a file name as the display unit shows it. */
#define ORIGIN_MAX (10 * IDNG_CONF_LINE_MAX + 32)

/* What decided a verdict's action: a key of the settings and its line. */
struct rule {
    char key[64];               /* "on-contextj", "on-invalid", "allow", "deny"; "" for none */
    struct idng_conf_origin at; /* where it was set; line 0: the default */
    char why[96];               /* "", or what leads from the verdict to this key */
    char entry[IDNG_DISPLAY_NAME_MAX]; /* allow/deny: the entry that matched, or "" */
    int via;                           /* deny: the action is on-invalid's, set at via_at */
    struct idng_conf_origin via_at;
};

/* The entry of set that the name (or, for a raw name, its A-label form)
 * matches: the most specific one, as the policy takes it. */
static size_t listed_entry(const struct idng_policy *p, const struct idng_nameset *set,
                           const uint8_t *wire, size_t len)
{
    uint8_t alabel[IDNG_WIRE_MAX];
    size_t alen = sizeof alabel;
    int m = idng_nameset_listed(set, wire, len);

    if (m <= 0 && idng_policy_normalize(p, wire, len, alabel, &alen, NULL) == IDNG_OK) {
        wire = alabel;
        len = alen;
        m = idng_nameset_listed(set, wire, len);
    }
    if (m <= 0 || (size_t)m > len)
        return IDNG_NAMESET_NONE;
    return idng_nameset_find(set, wire + len - (size_t)m, (size_t)m);
}

/*
 * The key behind v's action, found the way idng_policy_resolve and the
 * judging rule (idng_policy.h) pick it: a list entry; else the on-<class>
 * key of the verdict's class when a line sets it or the class has a
 * default of its own, else on-invalid; a raw label that cannot be
 * normalized takes on-invalid's action too.  Any class of the codec's list
 * is found the same way, so a new one needs nothing here.
 */
static void find_rule(const struct idng_conf *c, const struct judged *j, struct rule *r)
{
    const struct idng_policy *p = &c->policy;
    const struct idng_verdict *v = &j->v;
    int cls = idng_status_class(v->err.status);
    char own[64];
    size_t i;

    memset(r, 0, sizeof *r);
    if (v->listed != IDNG_LISTED_NONE) {
        const struct idng_nameset *set = v->listed == IDNG_LISTED_ALLOW ? &p->allow : &p->deny;
        const struct idng_conf_origin *at =
            v->listed == IDNG_LISTED_ALLOW ? c->origin.allow : c->origin.deny;
        snprintf(r->key, sizeof r->key, "%s", idng_verdict_name(v));
        i = listed_entry(p, set, j->wire, j->wlen);
        if (i != IDNG_NAMESET_NONE) {
            idng_display_name(set->names[i], idng_wire_len(set->names[i], IDNG_WIRE_MAX), r->entry,
                              sizeof r->entry);
            if (at)
                r->at = at[i];
        }
        /* A denied name takes on-invalid's action when that rejects. */
        if (v->listed == IDNG_LISTED_DENY && v->action == p->on_invalid) {
            snprintf(r->why, sizeof r->why, "with on-invalid's action");
            r->via = 1;
            idng_conf_key_origin(c, "on-invalid", &r->via_at);
        } else if (v->listed == IDNG_LISTED_DENY) {
            snprintf(r->why, sizeof r->why, "refused, as on-invalid does not reject");
        }
        return;
    }
    if (v->err.status == IDNG_OK && v->action == IDNG_ACT_PASS)
        return; /* nothing objects to the name */
    snprintf(own, sizeof own, "on-%s", idng_class_name((idng_class)cls));
    if (v->action != p->action[cls]) {
        snprintf(r->why, sizeof r->why, "%s: normalize cannot apply", own);
    } else if (idng_conf_key_origin(c, own, &r->at) > 0 || idng_policy_default_action(cls) >= 0) {
        snprintf(r->key, sizeof r->key, "%s", own);
        return;
    } else {
        snprintf(r->why, sizeof r->why, "%s is not set", own);
    }
    snprintf(r->key, sizeof r->key, "on-invalid");
    idng_conf_key_origin(c, "on-invalid", &r->at);
}

/* The protected name a verdict looks like, and where it was protected:
 * "protect FILE:LINE" or "protect-file FILE:LINE" into where. */
static void like_origin(const struct idng_conf *c, const struct idng_verdict *v, char *where,
                        size_t cap)
{
    char at[ORIGIN_MAX];
    size_t i = idng_nameset_find(&c->policy.protect.names, v->like, v->like_len);
    int in_file = i != IDNG_NAMESET_NONE && i >= c->protect_lines.count;

    where[0] = '\0';
    if (i == IDNG_NAMESET_NONE)
        return;
    if (c->origin.protect == NULL) {
        snprintf(where, cap, "%s", in_file ? "protect-file" : "protect");
        return;
    }
    idng_conf_origin_text(c, &c->origin.protect[i], at, sizeof at);
    snprintf(where, cap, "%s %s", in_file ? "protect-file" : "protect at", at);
}

/* One label's verdict, as explain shows it. */
struct label_view {
    size_t off, len; /* its contents in the wire name */
    idng_status st;  /* the codec's; for a raw label, its conversion's */
    uint32_t codepoint;
    char alabel[IDNG_LABEL_MAX + 1]; /* a raw label's A-label form, or "" */
    unsigned lookalike;              /* IDNG_LK_* bits found at this label */
};

/* Every label of j's name: the codec's checks (idng_wire_check_each), a
 * raw label as what it normalizes to (rule 3), the lookalike classes
 * found at it (idng_lookalike_scan).  Returns the number of labels. */
static size_t view_labels(const struct idng_policy *p, const struct judged *j,
                          struct label_view *out)
{
    idng_error each[IDNG_LABELS_MAX];
    struct idng_lookalike f;
    idng_wire_iter it;
    const uint8_t *lab;
    size_t n = 0, nerr = 0, k, l;
    unsigned x;

    idng_wire_check_each(j->wire, j->wlen, p->mode, each, IDNG_LABELS_MAX, &nerr);
    if (!idng_lookalike_scan(&p->protect, p->restriction_level, p->mode, j->wire, j->wlen, &f))
        f.found = 0;
    idng_wire_iter_init(&it, j->wire, j->wlen);
    while (idng_wire_next(&it, &lab, &l) == IDNG_WIRE_LABEL && n < IDNG_LABELS_MAX) {
        struct label_view *lv = &out[n++];
        memset(lv, 0, sizeof *lv);
        lv->off = (size_t)(lab - j->wire);
        lv->len = l;
        lv->st = IDNG_OK;
        lv->codepoint = IDNG_NO_CODEPOINT;
        for (k = 0; k < nerr && k < IDNG_LABELS_MAX; k++)
            if (each[k].label_off == lv->off && each[k].label_len > 0) {
                lv->st = each[k].status;
                lv->codepoint = each[k].codepoint;
            }
        if (lv->st == IDNG_E_RAW_8BIT) {
            size_t alen = IDNG_LABEL_MAX;
            idng_error le;
            idng_status st =
                idng_label_to_ascii((const char *)lab, l, lv->alabel, &alen, p->mode, &le);
            if (st == IDNG_OK) {
                lv->alabel[alen] = '\0';
            } else {
                lv->st = st;
                lv->codepoint = le.codepoint;
            }
        }
        for (x = 0; x < IDNG_LK_COUNT; x++)
            if ((f.found & 1u << x) && f.at[x].off == lv->off)
                lv->lookalike |= 1u << x;
    }
    return n;
}

/* The answer the client gets, and the verdict its log line shows: for
 * normalize, the A-label form's (idng_policy_judge_data: the module
 * resolves it as a query of its own, and answers the client as that was
 * answered when it is rejected). */
struct answer {
    struct idng_verdict v;
    uint8_t target[IDNG_WIRE_MAX]; /* normalize: the A-label name; target_len 0: none */
    size_t target_len;
    int rcode; /* the log's: a DNS rcode, -1 dropped */
    int ede;   /* EDE info-code sent, or -1 */
    char ede_text[EDE_TEXT_MAX];
    char log[IDNG_LOG_LINE_MAX]; /* the module's line, "" when it writes none */
};

static void find_answer(const struct idng_conf *c, const struct judged *j, struct answer *a)
{
    struct idng_logrec r;
    idng_error e;

    a->v = j->v;
    a->target_len = 0;
    if (j->v.action == IDNG_ACT_NORMALIZE) {
        struct idng_verdict sub;
        a->target_len = sizeof a->target;
        if (idng_policy_normalize(&c->policy, j->wire, j->wlen, a->target, &a->target_len, &e)
            != IDNG_OK)
            a->target_len = 0;
        idng_policy_judge_data(&c->policy, j->wire, j->wlen, &sub);
        if (idng_action_rejects(sub.action)) {
            a->v = sub;
            a->target_len = 0;
        }
    }
    a->rcode = a->v.action == IDNG_ACT_DROP       ? -1
               : a->v.action == IDNG_ACT_REFUSE   ? 5
               : a->v.action == IDNG_ACT_NXDOMAIN ? 3
                                                  : 0;
    a->ede = c->ede && (a->v.action == IDNG_ACT_REFUSE || a->v.action == IDNG_ACT_NXDOMAIN)
                 ? IDNG_EDE_BLOCKED
                 : -1;
    idng_policy_ede_text(&a->v, a->ede_text, sizeof a->ede_text);
    a->log[0] = '\0';
    if (!idng_conf_logs(c, &a->v))
        return;
    /* The line as the module writes it (module/unbound.c, idng_log_query),
     * for a client unknown here, asking for type A. */
    memset(&r, 0, sizeof r);
    r.qname = j->wire;
    r.qname_len = j->wlen;
    r.qtype = 1;
    r.qclass = 1;
    r.rcode = a->rcode;
    idng_logrec_verdict(&r, &a->v, c->policy.mode);
    r.path = idng_action_rejects(a->v.action) ? "policy" : "resolved";
    r.ede = a->ede;
    if (a->target_len > 0) {
        r.target = a->target;
        r.target_len = a->target_len;
    }
    idng_log_format(&r, c->log_format, 0, a->log, sizeof a->log);
}

/* The action a label's own verdict takes (the core's rule 3): a raw label
 * that normalizes has on-raw-8bit's, one that does not falls back. */
static enum idng_action label_action(const struct idng_policy *p, const struct label_view *lv)
{
    if (lv->st == IDNG_OK)
        return IDNG_ACT_PASS;
    if (lv->st == IDNG_E_RAW_8BIT)
        return p->action[IDNG_C_RAW_8BIT];
    return idng_policy_fallback(p, lv->st);
}

/* "class (action)" words of a label: its status, then the lookalike
 * classes found at it. */
static void put_label_words(const struct idng_policy *p, const struct label_view *lv, int listed,
                            int json)
{
    unsigned x;
    int cls = idng_status_class(lv->st);

    if (json) {
        json_member_str("class", idng_class_name((idng_class)cls));
        json_member_str("message", lv->st != IDNG_OK ? idng_status_message(lv->st) : NULL);
        if (lv->codepoint != IDNG_NO_CODEPOINT) {
            char cp[24];
            snprintf(cp, sizeof cp, "U+%04lX", (unsigned long)lv->codepoint);
            json_member_str("codepoint", cp);
        } else {
            json_member_str("codepoint", NULL);
        }
        json_member_str("action", listed ? NULL : idng_action_name(label_action(p, lv)));
        json_member_str("normalized", lv->alabel[0] ? lv->alabel : NULL);
        json_member_str("lookalike", idng_lookalike_name(lv->lookalike));
        return;
    }
    out_str(lv->st == IDNG_OK ? "valid" : idng_class_name((idng_class)cls));
    if (lv->st != IDNG_OK && !listed)
        out_around(" (", idng_action_name(label_action(p, lv)), ")");
    if (lv->st != IDNG_OK) {
        out_str(": ");
        out_str(idng_status_message(lv->st));
        if (lv->codepoint != IDNG_NO_CODEPOINT) {
            char cp[24];
            snprintf(cp, sizeof cp, " (U+%04lX)", (unsigned long)lv->codepoint);
            out_str(cp);
        }
    }
    out_around("; its A-label is ", lv->alabel, "");
    for (x = 0; x < IDNG_LK_COUNT; x++) {
        int lc = IDNG_C_MIXED_SCRIPT + (int)x;
        if (!(lv->lookalike & 1u << x))
            continue;
        out_str(x == 0 || !(lv->lookalike & ((1u << x) - 1)) ? "; lookalike: " : ", ");
        out_str(idng_class_name((idng_class)lc));
        if (!listed)
            out_around(" (", idng_action_name(p->action[lc]), ")");
    }
}

/* "key FILE:LINE" or "key (default)" of a rule's key, for text lines. */
static void put_origin(const struct idng_conf *c, const struct idng_conf_origin *at)
{
    static char text[ORIGIN_MAX];

    idng_conf_origin_text(c, at, text, sizeof text);
    out_str(at->line > 0 ? " at " : " (");
    out_str(text);
    if (at->line == 0)
        out_str(")");
}

/* The text form of explain: a few "what: ..." lines. */
static void explain_text(const struct opts *o, const char *item, size_t len, const struct judged *j,
                         const struct label_view *lv, size_t nlab, const struct rule *r,
                         const struct answer *a)
{
    const struct idng_conf *c = o->settings;
    const struct idng_verdict *v = &j->v;
    static char text[IDNG_DISPLAY_UNICODE_MAX], where[ORIGIN_MAX + 32];
    char num[32];
    size_t k;

    out_str("name: ");
    idng_display_name_to(j->wire, j->wlen, out_sink, NULL);
    /* A lookalike is never shown in Unicode (core/idng_log.h), nor is the
     * text it was given as. */
    if (v->lookalike == 0
        && idng_display_unicode(j->wire, j->wlen, c->policy.mode, text, sizeof text) > 0)
        out_around(" (", text, ")");
    out_end_line();
    if (v->lookalike == 0) {
        out_str("given as: ");
        idng_display_text_to(item, len, out_sink, NULL);
        out_end_line();
    }
    for (k = 0; k < nlab; k++) {
        snprintf(num, sizeof num, "label %zu: ", k + 1);
        out_str(num);
        idng_display_label_to(j->wire + lv[k].off, lv[k].len, out_sink, NULL);
        out_str(": ");
        put_label_words(&c->policy, &lv[k], v->listed != IDNG_LISTED_NONE, 0);
        out_end_line();
    }
    out_str("verdict: ");
    out_str(idng_verdict_is_ok(v) ? "ok" : ede_words(j->ede));
    out_around(" (", j->cp, ")");
    out_around(" lookalike=", j->lookalike, "");
    out_end_line();
    if (v->like_len > 0) {
        out_str("looks like: ");
        idng_display_name_to(v->like, v->like_len, out_sink, NULL);
        like_origin(c, v, where, sizeof where);
        out_around(" (", where, ")");
        out_end_line();
    }
    out_str("action: ");
    out_str(j->action);
    if (r->key[0] == '\0') {
        out_str(": nothing in the settings objects to the name");
    } else {
        out_str(", by ");
        out_str(r->key);
        out_around(" ", r->entry, "");
        put_origin(c, &r->at);
        out_around("; ", r->why, "");
        if (r->via)
            put_origin(c, &r->via_at);
    }
    out_end_line();
    out_str("answer: ");
    if (a->v.action == IDNG_ACT_DROP) {
        out_str("none: the query is dropped");
    } else if (idng_action_rejects(a->v.action)) {
        out_str(a->v.action == IDNG_ACT_NXDOMAIN ? "NXDOMAIN" : "REFUSED");
        if (a->ede >= 0)
            out_around(", EDE 15 (Blocked) \"", a->ede_text, "\"");
        else
            out_str(", no EDE (ede: no)");
    } else if (a->target_len > 0) {
        out_str("a CNAME to ");
        idng_display_name_to(a->target, a->target_len, out_sink, NULL);
        out_str(", then that name's answer (it is judged as a query of its own)");
    } else {
        out_str("the resolver's own, as the name resolves (the names in it are judged too)");
    }
    if (a->v.action != j->v.action)
        out_str(", as its A-label form is rejected");
    out_end_line();
    out_str("log: ");
    out_str(a->log[0] ? a->log
                      : "none (log-queries: no, and the name is neither rejected nor "
                        "logged)");
    out_end_line();
}

/* The JSON form: one object a name. */
static void explain_json(const struct opts *o, const char *item, size_t len, const struct judged *j,
                         const struct label_view *lv, size_t nlab, const struct rule *r,
                         const struct answer *a)
{
    const struct idng_conf *c = o->settings;
    const struct idng_verdict *v = &j->v;
    static char text[IDNG_DISPLAY_UNICODE_MAX], where[ORIGIN_MAX + 32];
    char label[IDNG_DISPLAY_NAME_MAX], rcode[IDNG_LOG_MNEMONIC_MAX];
    size_t k;

    put_input(o, item, len);
    out_str(j->rejects ? ",\"status\":\"rejected\"" : ",\"status\":\"ok\"");
    json_member_str("settings", c->origin.nfiles > 0 ? c->origin.files[0] : NULL);
    idng_display_name(j->wire, j->wlen, text, sizeof text);
    json_member_str("name", text);
    json_member_str(
        "unicode",
        v->lookalike == 0
                && idng_display_unicode(j->wire, j->wlen, c->policy.mode, text, sizeof text) > 0
            ? text
            : NULL);
    json_member_str("action", j->action);
    json_member_str("class", idng_verdict_name(v));
    json_member("label", v->err.label_len > 0 ? (const char *)v->label : NULL, v->err.label_len);
    json_member_str("message", j->message);
    json_member_str("codepoint", j->cp[0] ? j->cp : NULL);
    json_member_str("lookalike", j->lookalike);
    if (v->like_len > 0) {
        idng_display_name(v->like, v->like_len, label, sizeof label);
        like_origin(c, v, where, sizeof where);
    }
    json_member_str("like", v->like_len > 0 ? label : NULL);
    json_member_str("like_origin", v->like_len > 0 && where[0] ? where : NULL);
    json_member_str("rule", r->key[0] ? r->key : NULL);
    json_member_str("entry", r->entry[0] ? r->entry : NULL);
    idng_conf_origin_text(c, &r->at, where, sizeof where);
    json_member_str("origin", r->key[0] ? where : NULL);
    json_member_str("why", r->why[0] ? r->why : NULL);
    idng_conf_origin_text(c, &r->via_at, where, sizeof where);
    json_member_str("why_origin", r->via ? where : NULL);
    json_member_str("rcode",
                    a->rcode >= 0 ? idng_log_rcode_name(a->rcode, rcode, sizeof rcode) : NULL);
    json_member_str("ede", a->ede >= 0 ? a->ede_text : NULL);
    if (a->target_len > 0)
        idng_display_name(a->target, a->target_len, text, sizeof text);
    json_member_str("target", a->target_len > 0 ? text : NULL);
    json_member_str("log", a->log[0] ? a->log : NULL);
    /* Last, so that the name's own members come first. */
    out_str(",\"labels\":[");
    for (k = 0; k < nlab; k++) {
        idng_display_label(j->wire + lv[k].off, lv[k].len, label, sizeof label);
        out_str(k ? ",{\"label\":" : "{\"label\":");
        json_put(label, strlen(label));
        put_label_words(&c->policy, &lv[k], v->listed != IDNG_LISTED_NONE, 1);
        out_put("}", 1);
    }
    out_str("]}");
    out_end_line();
}

/*
 * explain: why the module would block a name, or not.  The judgment is
 * check --conf's (judge_item); the rest says where it came from.  Returns
 * 1 when the action rejects.
 */
static int cmd_explain(const char *item, size_t len, const struct opts *o)
{
    static struct judged j;
    static struct label_view lv[IDNG_LABELS_MAX];
    static struct answer a;
    static int items_before;
    struct rule r;
    idng_error e;
    size_t nlab;

    if (o->format == FMT_TEXT && items_before++)
        out_end_line(); /* a blank line between names */
    if (judge_item(item, len, o, &j, &e) != 0)
        return report(o, item, len, &e);
    nlab = view_labels(o->policy, &j, lv);
    find_rule(o->settings, &j, &r);
    find_answer(o->settings, &j, &a);
    if (o->format == FMT_JSON)
        explain_json(o, item, len, &j, lv, nlab, &r, &a);
    else
        explain_text(o, item, len, &j, lv, nlab, &r, &a);
    return j.rejects;
}

static int cmd_check(const char *item, size_t len, const struct opts *o)
{
    char ascii[OUT_MAX];
    size_t alen = sizeof ascii;
    idng_error e, ae;

    if (o->policy)
        return check_policy(item, len, o);
    if (idng_name_check(item, len, o->mode, &e) == IDNG_OK) {
        if (o->format != FMT_TEXT)
            return put_ok(o, item, len, NULL, 0);
        memcpy(out_room(3), "ok\n", 3);
        out_commit(3);
        return 0;
    }
    /* A name of raw UTF-8 is a U-label name, not a wire name: say what
     * to-ascii makes of it (the module never sees such a name). */
    if (e.status == IDNG_E_RAW_8BIT) {
        if (idng_to_ascii(item, len, ascii, &alen, o->mode, 0, &ae) == IDNG_OK)
            return report_full(o, item, len, e.status, &e, "a U-label name: to-ascii gives ",
                               ascii, alen);
        return report_full(o, item, len, e.status, &e,
                           idng_status_class(ae.status) == IDNG_C_BAD_UTF8
                               ? "not UTF-8 either"
                               : "a U-label name, which to-ascii refuses too",
                           NULL, 0);
    }
    return report(o, item, len, &e);
}

/* The longest skeleton idng_name_skeleton can write for a name the codec
 * accepts: at most 253 code points of labels, each with a skeleton of at
 * most IDNG_SKELETON_GROWTH code points of at most 10 octets (\\u{XXXXX}),
 * and the full stops. */
#define SKELETON_OUT_MAX (253 * IDNG_SKELETON_GROWTH * 10 + 2 * IDNG_LABELS_MAX)

/* The skeleton is already in the display unit's spelling (a '.' inside a
 * label as \\046): text and TSV show it as it is, JSON as a string. */
static int cmd_skeleton(const char *item, size_t len, const struct opts *o)
{
    static char out[SKELETON_OUT_MAX + 1];
    size_t n = SKELETON_OUT_MAX;
    idng_error e;
    idng_status st = idng_name_skeleton(item, len, out, &n, o->mode, &e);

    if (st == IDNG_E_NOSPACE)
        return report_status(o, item, len, st);
    if (st != IDNG_OK)
        return report(o, item, len, &e);
    if (o->format == FMT_JSON)
        return put_ok(o, item, len, out, n);
    if (o->format == FMT_TSV) {
        put_input(o, item, len);
        out_str("ok\t");
    }
    out_put(out, n);
    out_end_line();
    return 0;
}

static int cmd_restriction(const char *item, size_t len, const struct opts *o)
{
    idng_restriction level;
    idng_error e;
    const char *name;

    if (idng_name_restriction(item, len, o->mode, &level, NULL, &e) != IDNG_OK)
        return report(o, item, len, &e);
    name = idng_restriction_name(level);
    return put_ok(o, item, len, name, strlen(name));
}

/* check-conf [FILE]: validates one file and prints the effective settings. */
/*
 * `idnguard stats FILE`: the module's Prometheus stats file, for a person:
 * client answers by verdict and action, one column per answer path, then
 * the other counters; or the tap's file, its lines by verdict and action.
 * The reader is idng_statsfile_read (top.c).
 */
static int stats_file(const char *path)
{
    static struct idng_statsfile s;
    size_t i;
    int p, rc = idng_statsfile_read(path, &s);

    if (rc != 0) {
        fprintf(stderr, "idnguard: stats: %s: %s\n", path,
                rc == -2 ? "no idnguard counters in it" : strerror(errno));
        return 1;
    }
    if (s.tap) {
        printf("idnguard tap's lines, by verdict and action:\n");
        printf("  %-16s %-10s %10s\n", "verdict", "action", "total");
        for (i = 0; i < s.nrows; i++)
            printf("  %-16s %-10s %10llu\n", s.rows[i].cls, s.rows[i].action, s.rows[i].n);
    } else {
        printf("client answers, by verdict and action, per answer path:\n");
        printf("  %-16s %-10s", "verdict", "action");
        for (p = 0; p < 5; p++)
            printf(" %10s", idng_statsfile_paths[p]);
        printf(" %10s\n", "total");
        for (i = 0; i < s.nrows; i++) {
            printf("  %-16s %-10s", s.rows[i].cls, s.rows[i].action);
            for (p = 0; p < 5; p++)
                printf(" %10llu", s.rows[i].path[p]);
            printf(" %10llu\n", s.rows[i].n);
        }
    }
    printf("other counters:\n");
    for (i = 0; i < s.nothers; i++)
        printf("  %-22s %llu\n", s.others[i].name, s.others[i].n);
    return 0;
}

static int check_conf_file(const char *path, const char *user)
{
    struct idng_conf conf;
    static char err[16384];
    int rc;

    idng_conf_init(&conf);
    if (idng_conf_check_file(&conf, path, IDNG_CONF_F_CHECK_PATHS | IDNG_CONF_F_ORIGINS, user, err,
                             sizeof err)
        != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    if (err[0])
        fprintf(stderr, "%s\n", err); /* warnings */
    rc = idng_conf_write_origins(&conf, stdout);
    idng_conf_free(&conf);
    return rc != 0 ? 2 : 0;
}

/*
 * check --conf FILE: the settings file loaded as the module loads it, its
 * policy (the mode of --mode, when given) for check_policy.  A file that
 * does not load: its errors as check-conf prints them.
 */
static int load_policy(struct idng_conf *conf, struct opts *o)
{
    static char err[16384];

    idng_conf_init(conf);
    if (idng_conf_load_flags(conf, o->conf, IDNG_CONF_F_ORIGINS, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    if (err[0])
        fprintf(stderr, "%s\n", err); /* warnings */
    if (o->mode_set)
        conf->policy.mode = o->mode;
    o->policy = &conf->policy;
    o->settings = conf;
    return 0;
}

/*
 * One line out per line in, streamed.  Input is read in blocks with
 * read(2), and the output is flushed just before a read that may wait: so
 * nothing is held back while the input has nothing more ready (a
 * co-process that writes a line and waits for its answer gets it), and a
 * fast pipe or file is not slowed by a flush per line.
 */
static int run_stdin(command_fn fn, const struct opts *o)
{
    size_t cap = 1 << 16, have = 0, start = 0;
    char *buf = malloc(cap);
    int failed = 0, eof = 0;

    if (buf == NULL) {
        fprintf(stderr, "idnguard: out of memory\n");
        return 2;
    }
    while (!eof || start < have) {
        char *nl = memchr(buf + start, '\n', have - start);
        size_t len;

        if (nl == NULL && !eof) {
            ssize_t got;
            /* No whole line left: keep the partial one, then wait for more. */
            memmove(buf, buf + start, have - start);
            have -= start;
            start = 0;
            if (have == cap) {
                char *bigger = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
                if (bigger == NULL) {
                    fprintf(stderr, "idnguard: out of memory for a %zu-octet line\n", have);
                    failed = 2;
                    break;
                }
                buf = bigger;
                cap *= 2;
            }
            out_drain();
            if (fflush(stdout) != 0) {
                failed = 2;
                break;
            }
            got = read(STDIN_FILENO, buf + have, cap - have);
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0) {
                fprintf(stderr, "idnguard: standard input: %s\n", strerror(errno));
                failed = 2;
                break;
            }
            if (got == 0)
                eof = 1;
            have += (size_t)got;
            continue;
        }
        len = nl != NULL ? (size_t)(nl - (buf + start)) : have - start; /* last line, no newline */
        if (len > 0 && buf[start + len - 1] == '\r')
            len--;
        failed |= fn(buf + start, len, o);
        start = nl != NULL ? (size_t)(nl - buf) + 1 : have;
    }
    free(buf);
    return failed;
}

/* Which options a command takes. */
enum {
    O_MODE = 1u << 0,
    O_STRICT = 1u << 1,
    O_CASE = 1u << 2,
    O_FILE = 1u << 3,
    O_USER = 1u << 4,
    O_FORMAT = 1u << 5,
    O_UTS46 = 1u << 6, /* the UTS #46 processing flags and --profile */
    O_CONF = 1u << 7,
    O_ALL = ~0u
};

enum opt_id {
    OPT_HELP,
    OPT_MODE,
    OPT_STRICT,
    OPT_CASE,
    OPT_FORMAT,
    OPT_USER,
    OPT_PROFILE,
    OPT_CONF, /* its value may also be the next argument, as in lint-zone and tap */
    OPT_SET   /* sets flag */
};

/* Every option of the per-item commands and check-conf: what it is called,
 * which commands take it, and its line in the command's --help. */
static const struct option {
    const char *name; /* "--mode": with a value "--mode=M" */
    unsigned cmds;
    enum opt_id id;
    unsigned flag;
    const char *arg; /* NULL: takes no value */
    const char *help;
} options[] = {
    {"--mode", O_MODE, OPT_MODE, 0, "M",
     "validation: uts46 (default), idna2008-lookup,\n"
     "                     idna2008-registration (idna2008 is its old name),\n"
     "                     punycode"},
    {"--strict", O_STRICT, OPT_STRICT, 0, NULL,
     "judge plain ASCII labels too (STD3 rules, hyphens, bidi)"},
    {"--profile", O_UTS46, OPT_PROFILE, 0, "P",
     "dns (the default settings), whatwg (URL host parsing:\n"
     "                     --strict --no-check-hyphens --no-std3 --no-dns-length),\n"
     "                     idna2008-registration (--strict, that mode),\n"
     "                     idna2008-lookup (that mode)"},
    {"--transitional", O_UTS46, OPT_SET, IDNG_F_TRANSITIONAL, NULL,
     "to-ascii: transitional processing (maps U+00DF to ss,\n"
     "                     U+03C2 to U+03C3, removes U+200C and U+200D)"},
    {"--no-check-hyphens", O_UTS46, OPT_SET, IDNG_F_NO_CHECK_HYPHENS, NULL,
     "allow '-' first, last and in positions 3-4\n"
     "                     (CheckHyphens=false)"},
    {"--no-std3", O_UTS46, OPT_SET, IDNG_F_NO_STD3, NULL,
     "allow ASCII other than letters, digits and '-'\n"
     "                     (UseSTD3ASCIIRules=false)"},
    {"--no-dns-length", O_UTS46, OPT_SET, IDNG_F_NO_DNS_LENGTH, NULL,
     "no label or name length limits, empty labels allowed\n"
     "                     (VerifyDnsLength=false)"},
    {"--no-bidi", O_UTS46, OPT_SET, IDNG_F_NO_BIDI, NULL,
     "skip the bidi rule of RFC 5893 (CheckBidi=false)"},
    {"--no-joiners", O_UTS46, OPT_SET, IDNG_F_NO_JOINERS, NULL,
     "skip the context rules of U+200C, U+200D\n"
     "                     (CheckJoiners=false)"},
    {"--check-contexto", O_UTS46, OPT_SET, IDNG_F_CHECK_CONTEXTO, NULL,
     "apply RFC 5892's CONTEXTO rules (uts46, idna2008-lookup)"},
    {"--case", O_CASE, OPT_CASE, 0, NULL,
     "encode: lowercase and record case flags (RFC 3492\n"
     "                     appendix A); decode: apply them"},
    {"--conf", O_CONF, OPT_CONF, 0, "FILE",
     "judge as the module does with this settings file\n"
     "                     (idnguard.conf(5)): see below"},
    {"--format", O_FORMAT, OPT_FORMAT, 0, "F", "text (default), tsv or json: see below"},
    {"--user", O_USER, OPT_USER, 0, "NAME", "check the files as this user"},
    {"--help", O_ALL, OPT_HELP, 0, NULL, "this command's usage"},
};

#define PROFILE_FLAGS                                                                  \
    (IDNG_F_STRICT | IDNG_F_TRANSITIONAL | IDNG_F_NO_CHECK_HYPHENS | IDNG_F_NO_STD3      \
     | IDNG_F_NO_DNS_LENGTH | IDNG_F_NO_BIDI | IDNG_F_NO_JOINERS | IDNG_F_CHECK_CONTEXTO)

/* --profile=P: a mode and flags, replacing those set before. */
static const struct profile {
    const char *name;
    idng_mode mode;
    unsigned flags;
} profiles[] = {
    {"dns", IDNG_MODE_UTS46, 0},
    {"whatwg", IDNG_MODE_UTS46,
     IDNG_F_STRICT | IDNG_F_NO_CHECK_HYPHENS | IDNG_F_NO_STD3 | IDNG_F_NO_DNS_LENGTH},
    {"idna2008-registration", IDNG_MODE_IDNA2008, IDNG_F_STRICT},
    {"idna2008-lookup", IDNG_MODE_IDNA2008_LOOKUP, 0},
};

struct command {
    const char *name;
    command_fn fn;  /* per item; NULL for check-conf and stats */
    unsigned opts;
    const char *operands;
    const char *what;
};


static const struct command cmds[] = {
    {"encode", cmd_encode, O_CASE | O_FORMAT, "[LABEL...]",
     "Punycode-encode UTF-8 labels (no xn-- prefix)"},
    {"decode", cmd_decode, O_CASE | O_FORMAT, "[LABEL...]",
     "decode raw Punycode (no xn-- prefix) to UTF-8"},
    {"to-ascii", cmd_to_ascii, O_MODE | O_STRICT | O_FORMAT | O_UTS46, "[NAME...]",
     "UTS #46 ToASCII: 'B\xc3\xbc" "cher.DE' -> xn--bcher-kva.de"},
    {"to-unicode", cmd_to_unicode, O_MODE | O_STRICT | O_FORMAT | O_UTS46, "[NAME...]",
     "UTS #46 ToUnicode: xn--bcher-kva.de -> b\xc3\xbc" "cher.de"},
    {"check", cmd_check, O_MODE | O_CONF | O_FORMAT, "[NAME...]",
     "judge each name as the resolver module does: 'ok' or an ERROR line;\n"
     "    with --conf FILE, by that settings file's whole policy"},
    {"explain", cmd_explain, O_MODE | O_CONF | O_FORMAT, "[NAME...]",
     "would the resolver module block the name, and why: each label's verdict,\n"
     "    the settings line that decided, the client's answer and the log line\n"
     "    (settings: --conf FILE, else $" IDNG_CONF_ENV " or " IDNG_CONF_DEFAULT_PATH ")"},
    {"skeleton", cmd_skeleton, O_MODE | O_FORMAT, "[NAME...]",
     "UTS #39 confusable skeleton of each label's Unicode form: names that look\n"
     "    alike have one skeleton ('\\046' is a '.' inside a label)"},
    {"restriction", cmd_restriction, O_MODE | O_FORMAT, "[NAME...]",
     "UTS #39 restriction level of the least restrictive label: ascii-only,\n"
     "    single-script, highly-, moderately-, minimally-restrictive or unrestricted\n"
     "    (plain ASCII labels: ascii-only)"},
    {"check-conf", NULL, O_FILE | O_USER, "[FILE]",
     "validate the module's settings file (default: $" IDNG_CONF_ENV " or\n"
     "    " IDNG_CONF_DEFAULT_PATH ") and the files it includes: prints the\n"
     "    effective settings, each value a file set followed by '# FILE:LINE', or\n"
     "    every error as 'FILE:LINE: message' on stderr; also checks that log-file and\n"
     "    stats-file can be written by the user --user=NAME names (as root:\n"
     "    'unbound' when that user exists; else the user running it)"},
    {"stats", NULL, O_FILE, "FILE",
     "the module's stats-file (Prometheus text), as a table: answers by\n"
     "    verdict, action and path (or the tap's tap-stats-file: its lines)"},
};

static const char items_text[] =
    "Options may come before, between or after the items; '--' ends them, and\n"
    "an item that begins with '-' (Punycode can) goes after it.  Any other\n"
    "argument that begins with '-' is an option, and an unknown one is an\n"
    "error; '-' alone is an error too (without items, standard input is read).\n"
    "Without ITEM operands, items are read from standard input, one a line (a\n"
    "'\\r' before the '\\n' is dropped; lines are data, never options), and\n"
    "exactly one line is written per item.\n"
    "--format=text: the answer, or 'ok' for check; a failure is\n"
    "  'ERROR <class>: <label>: <message>'.  Labels and answers are shown\n"
    "  escaped (\\DDD for an octet, \\u{XXXX} for a code point not safe to\n"
    "  show; '\\', the space and controls always), so an answer line holds no\n"
    "  space and never begins like an ERROR line.\n"
    "--format=tsv: 'INPUT<TAB>ok<TAB>ANSWER' or 'INPUT<TAB><class><TAB><label>:\n"
    "  <message>', escaped as in text.\n"
    "--format=json: one object a line, strings exact (RFC 8259 escapes; an octet\n"
    "  that is not UTF-8 becomes \\ufffd):\n"
    "  {\"input\":...,\"status\":\"ok\",\"output\":...} or {\"input\":...,\n"
    "  \"status\":\"error\",\"class\":...,\"label\":...,\"offset\":...,\"message\":...,\n"
    "  \"codepoint\":...}.\n"
    "Exit status: 0 all ok, 1 any failure, 2 usage error.\n";

/* explain: what it writes. */
static const char explain_text_help[] =
    "Each name is judged as check --conf judges it (the same call), by the settings\n"
    "file the module reads: --conf FILE (or --conf=FILE), else $" IDNG_CONF_ENV ", else\n"
    IDNG_CONF_DEFAULT_PATH "; --mode overrides its mode.  Names as operands, or\n"
    "one a line on standard input.\n"
    "--format=text: for each name, lines 'what: ...', a blank line between names:\n"
    "  name:      the name as the module receives it (escaped: \\DDD for an octet that\n"
    "             is not a letter, digit, '-' or '_'), and its Unicode form unless it\n"
    "             is a lookalike, which is never shown in Unicode;\n"
    "  given as:  the text given (not for a lookalike);\n"
    "  label N:   each label's verdict: its class (its action) and message, a raw\n"
    "             label's A-label, the lookalike classes found at it;\n"
    "  verdict:   the name's, as the EDE text says it;\n"
    "  looks like: the protected name, and its 'protect' line or protect-file line;\n"
    "  action:    the action and the setting that decided it: on-<class>, on-invalid,\n"
    "             an allow or deny entry, with FILE:LINE or '(default)';\n"
    "  answer:    what the client gets: REFUSED or NXDOMAIN with the EDE text, no\n"
    "             answer (drop), a CNAME to the A-label name (normalize), or the\n"
    "             resolver's own answer;\n"
    "  log:       the query-log line the module writes (client '-', type A; the\n"
    "             time stamp left out), or none.\n"
    "--format=json: one object a name: input, status (ok or rejected), settings,\n"
    "  name, unicode, action, class, label, message, codepoint, lookalike, like,\n"
    "  like_origin, rule, entry, origin, why, why_origin, rcode, ede, target, log,\n"
    "  labels (each: label, class, message, codepoint, action, normalized,\n"
    "  lookalike); null where absent.\n"
    "Exit status: 0 every name passes (pass, log, normalize), 1 any is rejected or\n"
    "spells no name, 2 a usage error or a settings file that does not load.\n";

/* check --conf: the lines check_policy writes. */
static const char conf_text[] =
    "With --conf FILE (or --conf=FILE), each name is judged as the module judges\n"
    "a client's query for it, by the settings file's whole policy: its mode\n"
    "(--mode overrides it), actions, allow and deny lists, protected names and\n"
    "restriction level.  A name in UTF-8 is judged as its raw labels on the\n"
    "wire are; one in A-labels as those.\n"
    "--format=text: 'ok' when nothing in the policy objects to the name, else\n"
    "  '<ACTION> <verdict>[: <label>][: <message>][: looks like <name>][ (U+XXXX)]\n"
    "  [ lookalike=<classes>]': the action as the settings spell it (pass, log,\n"
    "  normalize), in capitals when the module rejects the name (REFUSE,\n"
    "  NXDOMAIN, DROP); then the verdict (a class, allow or deny), the label,\n"
    "  the message and the protected name it looks like, as the module's EDE\n"
    "  text says them; the lookalike classes found (UTS #39).  Text that spells\n"
    "  no DNS name (an empty label) is an ERROR line, in every format as above.\n"
    "--format=tsv: INPUT, action, verdict, label, message, code point, lookalike\n"
    "  classes, protected name, EDE text (for refuse, nxdomain and drop); an\n"
    "  absent field is empty.\n"
    "--format=json: {\"input\":...,\"status\":\"ok\" or \"rejected\",\"action\":...,\n"
    "  \"class\":...,\"label\":...,\"message\":...,\"codepoint\":...,\"lookalike\":...,\n"
    "  \"like\":...,\"ede\":...}, null where absent.\n"
    "Exit status with --conf: 0 every name passes (pass, log, normalize), 1 any\n"
    "is rejected (refuse, nxdomain, drop) or spells no name, 2 a usage error or a\n"
    "settings file that does not load (its errors as 'FILE:LINE: message').\n";

static void usage(FILE *f)
{
    size_t k;

    fputs("usage: idnguard COMMAND [OPTIONS] [ITEM...]\n\ncommands:\n", f);
    for (k = 0; k < sizeof cmds / sizeof cmds[0]; k++)
        fprintf(f, "  %s %s\n    %s\n", cmds[k].name, cmds[k].operands, cmds[k].what);
    fputs("  lint-zone [OPTIONS] [FILE...]\n"
          "    judge every name of DNS master files as the module would (idnguard\n"
          "    lint-zone --help)\n"
          "  tap (-u SOCKET | -r FILE) [OPTIONS]\n"
          "    a resolver's dnstap as the module's query-log lines (idnguard tap --help)\n"
          "  top [--conf FILE] [--stats FILE]... [--log FILE] [OPTIONS]\n"
          "    a live view: answers and refusals by class and action, their rates, the\n"
          "    names and clients refused most (idnguard top --help)\n"
          "  --version\n"
          "    idnguard's version, its Unicode version and the Unbound the module was\n"
          "    built against\n"
          "\n"
          "Each command's options: idnguard COMMAND --help.\n\n",
          f);
    fputs(items_text, f);
}

/* An option as --help and the errors spell it with its value: "--mode=M",
 * "--conf FILE". */
static void option_head(const struct option *p, char *head, size_t cap)
{
    snprintf(head, cap, "%s%s%s", p->name, p->arg ? (p->id == OPT_CONF ? " " : "=") : "",
             p->arg ? p->arg : "");
}

static void command_usage(const struct command *c, FILE *f)
{
    size_t k;

    fprintf(f, "usage: idnguard %s [OPTIONS] %s\n  %s\n\noptions:\n", c->name, c->operands,
            c->what);
    for (k = 0; k < sizeof options / sizeof options[0]; k++) {
        const struct option *p = &options[k];
        char head[40];
        if (!(c->opts & p->cmds))
            continue;
        option_head(p, head, sizeof head);
        fprintf(f, "  %-18s %s\n", head, p->help);
    }
    if (c->fn == cmd_explain) {
        fputc('\n', f);
        fputs(explain_text_help, f);
        return;
    }
    if (c->fn) {
        fputc('\n', f);
        fputs(items_text, f);
    }
    if (c->opts & O_CONF) {
        fputc('\n', f);
        fputs(conf_text, f);
    }
}

/* The value of "--name=VALUE" when a is that option, else NULL. */
static const char *option_value(const char *a, const struct option *p, int *match)
{
    size_t n = strlen(p->name);

    *match = strncmp(a, p->name, n) == 0 && (a[n] == '\0' || (p->arg && a[n] == '='));
    return *match && a[n] == '=' ? a + n + 1 : NULL;
}

/* Applies one option; returns -1 to go on, or the exit status. */
static int apply_option(const struct command *c, const struct option *p, const char *a,
                        const char *v, struct opts *o)
{
    size_t k;
    char head[40];

    /* (An empty file name is no value either.) */
    if (p->arg && (v == NULL || (p->id == OPT_CONF && v[0] == '\0'))) {
        option_head(p, head, sizeof head);
        fprintf(stderr, "idnguard: %s: option '%s' needs a value: %s\n", c->name, a, head);
        return 2;
    }
    switch (p->id) {
    case OPT_HELP:
        command_usage(c, stdout);
        return fflush(stdout) == 0 ? 0 : 2;
    case OPT_MODE:
        if (idng_mode_lookup(v, strlen(v), &o->mode) != 0) {
            fprintf(stderr,
                    "idnguard: %s: unknown mode '%s' (uts46, idna2008-lookup, "
                    "idna2008-registration, idna2008, punycode)\n",
                    c->name, v);
            return 2;
        }
        o->mode_set = 1;
        return -1;
    case OPT_CONF:
        o->conf = v;
        return -1;
    case OPT_PROFILE:
        for (k = 0; k < sizeof profiles / sizeof profiles[0]; k++)
            if (strcmp(profiles[k].name, v) == 0) {
                o->mode = profiles[k].mode;
                o->flags = (o->flags & ~(unsigned)PROFILE_FLAGS) | profiles[k].flags;
                return -1;
            }
        fprintf(stderr,
                "idnguard: %s: unknown profile '%s' (dns, whatwg, idna2008-registration, "
                "idna2008-lookup)\n",
                c->name, v);
        return 2;
    case OPT_FORMAT:
        if (strcmp(v, "text") == 0)
            o->format = FMT_TEXT;
        else if (strcmp(v, "tsv") == 0)
            o->format = FMT_TSV;
        else if (strcmp(v, "json") == 0)
            o->format = FMT_JSON;
        else {
            fprintf(stderr, "idnguard: %s: unknown format '%s' (text, tsv, json)\n", c->name, v);
            return 2;
        }
        return -1;
    case OPT_STRICT:
        o->flags |= IDNG_F_STRICT;
        return -1;
    case OPT_SET:
        o->flags |= p->flag;
        return -1;
    case OPT_CASE:
        o->use_case = 1;
        return -1;
    case OPT_USER:
        if (v[0] == '\0' || !getpwnam(v)) {
            fprintf(stderr, "idnguard: %s: no user '%s'\n", c->name, v);
            return 2;
        }
        o->user = v;
        return -1;
    }
    return 2;
}

/*
 * Parses the arguments after the command name: the options into o, the
 * operands moved to the front of argv + 2 in order, *nops of them.
 * Every argument before "--" that begins with '-' is an option; after "--"
 * everything is an operand.  Returns -1, or the exit status to return at
 * once (0 for --help, 2 for a usage error).
 */
static int parse_args(int argc, char **argv, const struct command *c, struct opts *o, int *nops)
{
    int i, at, n = 0, rc;
    size_t k;

    for (i = 2; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        const struct option *p = NULL;
        if (strcmp(a, "--") == 0) {
            for (i++; i < argc; i++)
                argv[2 + n++] = argv[i];
            break;
        }
        if (a[0] != '-') {
            argv[2 + n++] = argv[i];
            continue;
        }
        if (a[1] == '\0') {
            fprintf(stderr,
                    "idnguard: %s: '-' is not an item (without items, standard input is "
                    "read; an item '-' goes after '--')\n",
                    c->name);
            return 2;
        }
        if (strcmp(a, "-h") == 0)
            a = "--help";
        for (k = 0; k < sizeof options / sizeof options[0] && !p; k++) {
            int match;
            v = option_value(a, &options[k], &match);
            if (match && (c->opts & options[k].cmds))
                p = &options[k];
        }
        if (!p) {
            fprintf(stderr,
                    "idnguard: %s: unknown option '%s' (idnguard %s --help; an item that "
                    "begins with '-' goes after '--')\n",
                    c->name, argv[i], c->name);
            return 2;
        }
        /* "--conf FILE": the next argument, unless it is an option too. */
        at = i;
        if (p->id == OPT_CONF && v == NULL && i + 1 < argc && argv[i + 1][0] != '-')
            v = argv[++i];
        if ((rc = apply_option(c, p, argv[at], v, o)) >= 0)
            return rc;
    }
    *nops = n;
    return -1;
}

int main(int argc, char **argv)
{
    static struct idng_conf conf;
    struct opts o = {IDNG_MODE_UTS46, 0, 0, FMT_TEXT, NULL, NULL, 0, NULL, NULL};
    const struct command *c = NULL;
    size_t k;
    int i, n, rc, failed = 0;

    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0
        || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("idnguard " IDNG_VERSION "\nUnicode " IDNG_UNICODE_VERSION "\n");
#ifdef IDNG_UNBOUND_VERSION
        if (IDNG_UNBOUND_VERSION[0])
            printf("Unbound " IDNG_UNBOUND_VERSION " (the module's build)\n");
#endif
        return fflush(stdout) == 0 ? 0 : 2;
    }
    if (strcmp(argv[1], "tap") == 0)
        return idng_tap_main(argc, argv);
    if (strcmp(argv[1], "lint-zone") == 0)
        return idng_lint_main(argc, argv);
    if (strcmp(argv[1], "top") == 0)
        return idng_top_main(argc, argv);
    for (k = 0; k < sizeof cmds / sizeof cmds[0]; k++)
        if (strcmp(argv[1], cmds[k].name) == 0)
            c = &cmds[k];
    if (!c) {
        fprintf(stderr, "idnguard: unknown command '%s'\n", argv[1]);
        usage(stderr);
        return 2;
    }
    if ((rc = parse_args(argc, argv, c, &o, &n)) >= 0)
        return rc;
    if (c->fn == cmd_explain) {
        if (o.format == FMT_TSV) {
            fprintf(stderr, "idnguard: explain: --format=tsv is not one of its formats (text, "
                            "json)\n");
            return 2;
        }
        /* The module's own file unless told another. */
        if (!o.conf)
            o.conf = idng_conf_path();
    }
    if (o.conf && load_policy(&conf, &o) != 0)
        return 2;
    if (c->opts & O_FILE) {
        if (n > 1) {
            fprintf(stderr, "idnguard: %s: one FILE at most (extra '%s')\n", c->name, argv[3]);
            return 2;
        }
        if (strcmp(c->name, "stats") == 0) {
            if (n == 0) {
                fprintf(stderr, "idnguard: stats: which FILE? (the module's stats-file)\n");
                return 2;
            }
            return stats_file(argv[2]) ? 1 : (fflush(stdout) == 0 ? 0 : 2);
        }
        /* The files are opened by the daemon's user: as root, check for
         * Unbound's usual one unless told another. */
        if (!o.user && geteuid() == 0 && getpwnam("unbound"))
            o.user = "unbound";
        failed = check_conf_file(n > 0 ? argv[2] : idng_conf_path(), o.user);
        if (failed == 1)
            return 1;
    } else if (n == 0) {
        /* A file or pipe gets full buffers (run_stdin flushes before it
         * waits for input); a terminal keeps stdio's line buffering. */
        if (!isatty(STDOUT_FILENO))
            setvbuf(stdout, NULL, _IOFBF, 1 << 16);
        else
            obuf.per_line = 1;
        failed = run_stdin(c->fn, &o);
    } else {
        obuf.per_line = isatty(STDOUT_FILENO);
        for (i = 0; i < n; i++)
            failed |= c->fn(argv[2 + i], strlen(argv[2 + i]), &o);
    }
    out_drain();
    if (o.policy)
        idng_conf_free(&conf);
    if (failed == 2 || fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "idnguard: error writing output\n");
        return 2;
    }
    return failed ? 1 : 0;
}
