/**
 * \file
 * The per-item commands but explain (items.h): encode, decode, to-ascii,
 * to-unicode, check (with --conf: the module's judgment, judge_item),
 * skeleton and restriction; each writes one line per item.
 */
#include "items.h"

#include "idng_lookalike.h"
#include "idnguard.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

int cmd_encode(const char *item, size_t len, const struct opts *o)
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

int cmd_decode(const char *item, size_t len, const struct opts *o)
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

int cmd_to_ascii(const char *item, size_t len, const struct opts *o)
{
    return convert(item, len, o, 0);
}

int cmd_to_unicode(const char *item, size_t len, const struct opts *o)
{
    return convert(item, len, o, 1);
}
/* The EDE text without its "idnguard: ": the verdict's words. */
const char *ede_words(const char *ede)
{
    static const char prefix[] = "idnguard: ";

    return strncmp(ede, prefix, sizeof prefix - 1) == 0 ? ede + sizeof prefix - 1 : ede;
}
/* Judges item; 0, or -1 with *e set when the text spells no DNS name (an
 * empty or over-long label). */
int judge_item(const char *item, size_t len, const struct opts *o, struct judged *j,
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
int check_policy(const char *item, size_t len, const struct opts *o)
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
int cmd_check(const char *item, size_t len, const struct opts *o)
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
int cmd_skeleton(const char *item, size_t len, const struct opts *o)
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

int cmd_restriction(const char *item, size_t len, const struct opts *o)
{
    idng_restriction level;
    idng_error e;
    const char *name;

    if (idng_name_restriction(item, len, o->mode, &level, NULL, &e) != IDNG_OK)
        return report(o, item, len, &e);
    name = idng_restriction_name(level);
    return put_ok(o, item, len, name, strlen(name));
}
