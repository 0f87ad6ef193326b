/**
 * \file
 * The module's decisions, without Unbound (see core_policy.h).
 */
#include "core_policy.h"

#include <stdio.h>
#include <string.h>

int idng_action_rejects(enum idng_action a)
{
    return a == IDNG_ACT_REFUSE || a == IDNG_ACT_NXDOMAIN || a == IDNG_ACT_DROP;
}

static void clear(struct idng_verdict *v, const uint8_t *wire, size_t len)
{
    v->name = wire;
    v->name_len = len;
    v->status = IDNG_OK;
    v->cls = IDNG_C_OK;
    v->action = IDNG_ACT_PASS;
    v->listed = IDNG_LISTED_NONE;
    v->label_off = 0;
    v->label_len = 0;
    v->codepoint = IDNG_NO_CODEPOINT;
}

void idng_policy_judge(const struct idng_conf *c, const uint8_t *wire, size_t len,
                       struct idng_verdict *v)
{
    idng_error e;
    int allow, deny;

    clear(v, wire, len);
    allow = idng_conf_name_listed(&c->allow, wire, len);
    deny = idng_conf_name_listed(&c->deny, wire, len);
    /* The more specific entry wins (a name cannot be in both lists). */
    if (allow > deny) {
        v->listed = IDNG_LISTED_ALLOW;
        return;
    }
    if (deny > allow) {
        enum idng_action a = c->on_invalid;
        v->listed = IDNG_LISTED_DENY;
        v->action = idng_action_rejects(a) ? a : IDNG_ACT_REFUSE;
        return;
    }
    if (idng_wire_check(wire, len, c->mode, &e) == IDNG_OK)
        return;
    v->status = e.status;
    v->cls = idng_status_class(e.status);
    v->action = c->action[v->cls];
    v->label_off = e.label_off;
    v->label_len = e.label_len;
    v->codepoint = e.codepoint;
}

enum idng_action idng_policy_fallback(const struct idng_conf *c, idng_status st)
{
    enum idng_action a = c->action[idng_status_class(st)];
    /* Only raw-8bit may normalize; a name that could not be normalized
     * falls back to the general setting for invalid names. */
    if (a == IDNG_ACT_NORMALIZE) {
        a = c->on_invalid;
        if (a == IDNG_ACT_NORMALIZE)
            a = IDNG_ACT_REFUSE;
    }
    return a;
}

const char *idng_verdict_name(const struct idng_verdict *v)
{
    if (v->listed == IDNG_LISTED_ALLOW)
        return "allow";
    if (v->listed == IDNG_LISTED_DENY)
        return "deny";
    return idng_class_name(v->cls);
}

/*
 * The first full stop in a wire label: '.' or one of U+3002, U+FF0E, U+FF61,
 * which ToASCII also takes as label separators.  Inside one wire label any
 * of them would split it in two, so such a label is refused instead.
 */
static uint32_t label_full_stop(const uint8_t *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (s[i] == '.')
            return '.';
        if (i + 2 < n && s[i] == 0xE3 && s[i + 1] == 0x80 && s[i + 2] == 0x82)
            return 0x3002;
        if (i + 2 < n && s[i] == 0xEF && s[i + 1] == 0xBC && s[i + 2] == 0x8E)
            return 0xFF0E;
        if (i + 2 < n && s[i] == 0xEF && s[i + 1] == 0xBD && s[i + 2] == 0xA1)
            return 0xFF61;
    }
    return 0;
}

idng_status idng_policy_normalize(const struct idng_conf *c, const uint8_t *wire, size_t len,
                                  uint8_t *out, size_t *outlen, idng_error *err)
{
    uint32_t stop;
    char text[IDNG_NAME_MAX + 2], ascii[IDNG_NAME_MAX + 2];
    size_t pos = 0, tlen = 0, alen = sizeof ascii, start, o;
    idng_status st;

    /* Wire -> dotted text; the root name has nothing to normalize. */
    while (pos < len && wire[pos] != 0) {
        size_t l = wire[pos];
        if (l > IDNG_LABEL_MAX || pos + 1 + l >= len || tlen + l + 1 > IDNG_NAME_MAX + 1) {
            if (err) {
                err->status = IDNG_E_INVAL;
                err->label_off = pos;
                err->label_len = 0;
                err->codepoint = IDNG_NO_CODEPOINT;
            }
            return IDNG_E_INVAL;
        }
        if ((stop = label_full_stop(wire + pos + 1, l)) != 0) {
            if (err) {
                err->status = IDNG_E_DISALLOWED;
                err->label_off = pos + 1;
                err->label_len = l;
                err->codepoint = stop;
            }
            return IDNG_E_DISALLOWED;
        }
        memcpy(text + tlen, wire + pos + 1, l);
        tlen += l;
        text[tlen++] = '.';
        pos += 1 + l;
    }
    if (pos >= len) { /* empty, or no root label within len */
        if (err) {
            err->status = IDNG_E_INVAL;
            err->label_off = 0;
            err->label_len = 0;
            err->codepoint = IDNG_NO_CODEPOINT;
        }
        return IDNG_E_INVAL;
    }
    if (tlen == 0) {
        out[0] = 0;
        *outlen = 1;
        return IDNG_OK;
    }
    st = idng_to_ascii(text, tlen, ascii, &alen, c->mode, 0, err);
    if (st != IDNG_OK) {
        /* Each dot of the text stands where the next length octet stands in
         * the wire name, so a text offset is the wire offset minus one. */
        if (err)
            err->label_off += 1;
        return st;
    }
    /* Dotted A-label text (trailing dot kept) -> wire. */
    for (start = 0, o = 0; start < alen;) {
        const char *dot = memchr(ascii + start, '.', alen - start);
        size_t l = (size_t)((dot ? dot : ascii + alen) - (ascii + start));
        out[o++] = (uint8_t)l;
        memcpy(out + o, ascii + start, l);
        o += l;
        start += l + 1;
    }
    out[o++] = 0;
    *outlen = o;
    return IDNG_OK;
}

size_t idng_policy_ede_text(const struct idng_verdict *v, char *out, size_t cap)
{
    const uint8_t *wire = v->name;
    size_t len = wire ? v->name_len : 0;
    size_t n = 0, i;
    int w;

    if (cap == 0)
        return 0;
    w = snprintf(out, cap, "idnguard: %s", idng_verdict_name(v));
    n = w < 0 ? 0 : (size_t)w >= cap ? cap - 1 : (size_t)w;
    if (v->label_len > 0 && v->label_off + v->label_len <= len) {
        const uint8_t *l = wire + v->label_off;
        if (n + 2 < cap) {
            out[n++] = ':';
            out[n++] = ' ';
        }
        for (i = 0; i < v->label_len && n + 5 < cap; i++) {
            if (l[i] > 0x20 && l[i] < 0x7F && l[i] != '\\')
                out[n++] = (char)l[i];
            else
                n += (size_t)snprintf(out + n, cap - n, "\\%03u", l[i]);
        }
    }
    if (v->listed == IDNG_LISTED_NONE && v->status != IDNG_OK && n + 2 < cap) {
        w = snprintf(out + n, cap - n, ": %s", idng_status_message(v->status));
        n += w < 0 ? 0 : (size_t)w >= cap - n ? cap - n - 1 : (size_t)w;
    }
    out[n] = '\0';
    return n;
}
