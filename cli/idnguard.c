/**
 * \file
 * idnguard: command-line front end of the codec.
 *
 *   idnguard encode [--case] [--format=F] [LABEL...]   Unicode label -> raw Punycode
 *   idnguard decode [--case] [--format=F] [LABEL...]   raw Punycode -> Unicode label
 *   idnguard to-ascii [--mode=M] [--strict] [UTS #46 options] [--format=F] [NAME...]
 *   idnguard to-unicode [--mode=M] [--strict] [UTS #46 options] [--format=F] [NAME...]
 *   idnguard check [--mode=M] [--conf FILE] [--format=F] [NAME...]
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
 * writes exactly one line per input line.  Exit status: 0 when every item
 * succeeded, 1 when any failed, 2 on a usage error.  check-conf reads no
 * standard input; it exits 0 when FILE is valid, 1 when not.  check --conf
 * judges with the policy of a settings file (check_policy): 1 when the
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
    const char *conf; /* check --conf FILE */
    int mode_set;     /* --mode given: it overrides the settings file's */
    /* check --conf: the settings file's policy, loaded by main; NULL without. */
    const struct idng_policy *policy;
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
 * check --conf: what the module does with a client's query for the name,
 * idng_policy_judge with the settings file's policy.  The text becomes a
 * wire name by the codec's name unit (idng_text_to_wire), its octets as
 * they are: a label of raw UTF-8 is judged as the module judges one on the
 * wire.  Text that spells no DNS name (an empty or over-long label) is an
 * ERROR line, as without --conf.  Returns 1 when the action rejects.
 */
static int check_policy(const char *item, size_t len, const struct opts *o)
{
    uint8_t wire[IDNG_WIRE_MAX];
    size_t wlen = sizeof wire, i;
    idng_error e;
    struct idng_verdict v;
    char ede[EDE_TEXT_MAX], label[IDNG_DISPLAY_NAME_MAX], like[IDNG_DISPLAY_NAME_MAX];
    char cp[24] = "";
    const char *action, *lookalike, *message = NULL;
    int rejects;

    if (idng_text_to_wire(item, len, wire, &wlen, &e) != IDNG_OK)
        return report(o, item, len, &e);
    idng_policy_judge(o->policy, wire, wlen, &v);
    rejects = idng_action_rejects(v.action);
    action = idng_action_name(v.action);
    lookalike = idng_lookalike_name(v.lookalike);
    idng_policy_ede_text(&v, ede, sizeof ede);
    /* The codec's message and code point, for a verdict no list decided. */
    if (v.listed == IDNG_LISTED_NONE && v.err.status != IDNG_OK) {
        message = idng_status_message(v.err.status);
        if (v.err.codepoint != IDNG_NO_CODEPOINT)
            snprintf(cp, sizeof cp, "U+%04lX", (unsigned long)v.err.codepoint);
    }
    if (o->format == FMT_TEXT) {
        /* "ok", or the action (in capitals when it rejects), the verdict's
         * words as the EDE text has them, the code point, the lookalike
         * classes. */
        if (idng_verdict_is_ok(&v)) {
            out_str("ok");
            out_end_line();
            return 0;
        }
        for (i = 0; action[i]; i++) {
            char ch = rejects ? (char)toupper((unsigned char)action[i]) : action[i];
            out_put(&ch, 1);
        }
        out_put(" ", 1);
        out_str(ede_words(ede));
        out_around(" (", cp, ")");
        out_around(" lookalike=", lookalike, "");
        out_end_line();
        return rejects;
    }
    if (v.like_len > 0)
        idng_display_name(v.like, v.like_len, like, sizeof like);
    put_input(o, item, len);
    if (o->format == FMT_TSV) {
        if (v.err.label_len > 0)
            idng_display_label(v.label, v.err.label_len, label, sizeof label);
        out_str(action);
        tsv_field(idng_verdict_name(&v));
        tsv_field(v.err.label_len > 0 ? label : NULL);
        tsv_field(message);
        tsv_field(cp[0] ? cp : NULL);
        tsv_field(lookalike);
        tsv_field(v.like_len > 0 ? like : NULL);
        tsv_field(rejects ? ede : NULL);
    } else {
        out_str(rejects ? ",\"status\":\"rejected\"" : ",\"status\":\"ok\"");
        json_member_str("action", action);
        json_member_str("class", idng_verdict_name(&v));
        json_member("label", v.err.label_len > 0 ? (const char *)v.label : NULL,
                    v.err.label_len);
        json_member_str("message", message);
        json_member_str("codepoint", cp[0] ? cp : NULL);
        json_member_str("lookalike", lookalike);
        json_member_str("like", v.like_len > 0 ? like : NULL);
        json_member_str("ede", rejects ? ede : NULL);
        out_put("}", 1);
    }
    out_end_line();
    return rejects;
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
    if (idng_conf_check_file(&conf, path, IDNG_CONF_F_CHECK_PATHS, user, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    if (err[0])
        fprintf(stderr, "%s\n", err); /* warnings */
    rc = idng_conf_write(&conf, stdout);
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
    if (idng_conf_load(conf, o->conf, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    if (err[0])
        fprintf(stderr, "%s\n", err); /* warnings */
    if (o->mode_set)
        conf->policy.mode = o->mode;
    o->policy = &conf->policy;
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
    {"skeleton", cmd_skeleton, O_MODE | O_FORMAT, "[NAME...]",
     "UTS #39 confusable skeleton of each label's Unicode form: names that look\n"
     "    alike have one skeleton ('\\046' is a '.' inside a label)"},
    {"restriction", cmd_restriction, O_MODE | O_FORMAT, "[NAME...]",
     "UTS #39 restriction level of the least restrictive label: ascii-only,\n"
     "    single-script, highly-, moderately-, minimally-restrictive or unrestricted\n"
     "    (plain ASCII labels: ascii-only)"},
    {"check-conf", NULL, O_FILE | O_USER, "[FILE]",
     "validate the module's settings file (default: $" IDNG_CONF_ENV " or\n"
     "    " IDNG_CONF_DEFAULT_PATH "): prints the effective settings, or every\n"
     "    error as 'FILE:LINE: message' on stderr; also checks that log-file and\n"
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
    struct opts o = {IDNG_MODE_UTS46, 0, 0, FMT_TEXT, NULL, NULL, 0, NULL};
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
