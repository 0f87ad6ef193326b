/**
 * \file
 * The output of the per-item commands (items.h): their answer lines in
 * text, TSV or JSON, the error lines, and the loop over standard input.
 */
#include "items.h"

#include "idnguard.h"
#include "idng_log.h"
#include "opts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


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

void out_drain(void)
{
    if (obuf.len > 0)
        fwrite(obuf.buf, 1, obuf.len, stdout);
    obuf.len = 0;
}

/* Room for n <= sizeof obuf.buf octets at the end of the buffer. */
char *out_room(size_t n)
{
    if (sizeof obuf.buf - obuf.len < n)
        out_drain();
    return obuf.buf + obuf.len;
}

/* Keeps the n octets written at out_room() as a line. */
void out_commit(size_t n)
{
    obuf.len += n;
    if (obuf.per_line)
        out_drain();
}

/* Appends n octets of a line, any n. */
void out_put(const char *s, size_t n)
{
    while (n > 0) {
        size_t k = n < sizeof obuf.buf ? n : sizeof obuf.buf;
        memcpy(out_room(k), s, k);
        obuf.len += k;
        s += k;
        n -= k;
    }
}

void out_str(const char *s)
{
    out_put(s, strlen(s));
}

/* before, s, after; nothing when s is NULL or empty. */
void out_around(const char *before, const char *s, const char *after)
{
    if (s == NULL || s[0] == '\0')
        return;
    out_str(before);
    out_str(s);
    out_str(after);
}

/* Ends a line begun with out_put. */
void out_end_line(void)
{
    out_put("\n", 1);
    out_commit(0);
}

/* A display sink that appends atoms to the line. */
void out_sink(void *ctx, const char *atom, size_t n)
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
int field_plain(const char *s, size_t n)
{
    return idng_display_text_plain(s, n) == n && memchr(s, ' ', n) == NULL;
}

/*
 * One item, a label or an answer in a text or TSV line: the display
 * unit's form of text (idng_display_text_to: controls, '\\', octets that
 * are not UTF-8 and code points not safe to show escaped), with the space
 * escaped as well.
 */
void field_put(const char *s, size_t n)
{
    if (field_plain(s, n))
        out_put(s, n);
    else
        idng_display_text_to(s, n, field_sink, NULL);
}

/* A JSON string: the log's escaper (idng_json_escape), a piece at a time,
 * each piece ending before an octet that begins a UTF-8 sequence. */
void json_put(const char *s, size_t n)
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
void put_input(const struct opts *o, const char *item, size_t len)
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
int put_ok(const struct opts *o, const char *item, size_t len, const char *ans,
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
int report_full(const struct opts *o, const char *item, size_t len, idng_status st,
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

int report(const struct opts *o, const char *item, size_t len, const idng_error *e)
{
    return report_full(o, item, len, e->status, e, NULL, NULL, 0);
}

int report_status(const struct opts *o, const char *item, size_t len, idng_status st)
{
    return report_full(o, item, len, st, NULL, NULL, NULL, 0);
}

void out_per_line(int on)
{
    obuf.per_line = on;
}

/* A TSV field after its tab; empty for NULL. */
void tsv_field(const char *s)
{
    out_put("\t", 1);
    if (s)
        out_str(s);
}

/* A JSON member ,"key":"..." (n octets of s), or ,"key":null for NULL. */
void json_member(const char *key, const char *s, size_t n)
{
    out_str(",\"");
    out_str(key);
    out_str("\":");
    if (s)
        json_put(s, n);
    else
        out_str("null");
}

void json_member_str(const char *key, const char *s)
{
    json_member(key, s, s ? strlen(s) : 0);
}
/*
 * One line out per line in, streamed.  Input is read in blocks with
 * read(2), and the output is flushed just before a read that may wait: so
 * nothing is held back while the input has nothing more ready (a
 * co-process that writes a line and waits for its answer gets it), and a
 * fast pipe or file is not slowed by a flush per line.
 */
int run_stdin(command_fn fn, const struct opts *o)
{
    size_t cap = 1 << 16, have = 0, start = 0;
    char *buf = malloc(cap);
    int failed = 0, eof = 0;

    if (buf == NULL) {
        fprintf(stderr, IDNG_CLI_ERR "out of memory\n", o->cmd);
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
                    fprintf(stderr, IDNG_CLI_ERR "out of memory for a %zu-octet line\n", o->cmd,
                            have);
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
                fprintf(stderr, IDNG_CLI_ERR "standard input: %s\n", o->cmd, strerror(errno));
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
