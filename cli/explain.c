/**
 * \file
 * `idnguard explain`: why the module would block a name, or not: each
 * label's verdict, the settings line that decided the action, the client's
 * answer and the query-log line (items.h).
 */
#include "items.h"

#include "idng_log.h"
#include "idng_lookalike.h"
#include "idnguard.h"

#include <stdio.h>
#include <string.h>

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
    /* The line as the module writes it (module/reply.c, idng_mod_log_query),
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
int cmd_explain(const char *item, size_t len, const struct opts *o)
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
