/**
 * \file
 * The module's decisions, without Unbound (see idng_policy.h).
 */
#include "idng_policy.h"

#include "idng_log.h"

#include <stdio.h>
#include <string.h>

int idng_action_rejects(enum idng_action a)
{
    return a == IDNG_ACT_REFUSE || a == IDNG_ACT_NXDOMAIN || a == IDNG_ACT_DROP;
}

int idng_action_severity(enum idng_action a)
{
    switch (a) {
    case IDNG_ACT_PASS:
        return 0;
    case IDNG_ACT_LOG:
        return 1;
    case IDNG_ACT_NORMALIZE:
        return 2;
    case IDNG_ACT_NXDOMAIN:
        return 3;
    case IDNG_ACT_REFUSE:
        return 4;
    case IDNG_ACT_DROP:
        return 5;
    case IDNG_ACTION_COUNT:
        break;
    }
    return 4; /* not an action: as severe as a refusal */
}

static void clear(struct idng_verdict *v)
{
    memset(v, 0, sizeof *v);
    v->status = IDNG_OK;
    v->cls = IDNG_C_OK;
    v->action = IDNG_ACT_PASS;
    v->listed = IDNG_LISTED_NONE;
    v->codepoint = IDNG_NO_CODEPOINT;
}

/* Makes e, found in wire[0..len), the verdict, with action a. */
static void decide(struct idng_verdict *v, const idng_error *e, enum idng_action a,
                   const uint8_t *wire, size_t len)
{
    v->status = e->status;
    v->cls = idng_status_class(e->status);
    v->action = a;
    v->codepoint = e->codepoint;
    v->label_off = e->label_off;
    v->label_len = 0;
    if (e->label_len > 0 && e->label_len <= IDNG_LABEL_MAX && e->label_off <= len
        && e->label_len <= len - e->label_off) {
        v->label_len = e->label_len;
        memcpy(v->label, wire + e->label_off, e->label_len);
    }
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

/* The lists: 1 when one decided (v is set), else 0. */
static int listed(const struct idng_conf *c, const uint8_t *wire, size_t len,
                  struct idng_verdict *v)
{
    int allow = idng_conf_name_listed(&c->allow, wire, len);
    int deny = idng_conf_name_listed(&c->deny, wire, len);

    /* The more specific entry wins (a name cannot be in both lists). */
    if (allow > deny) {
        v->listed = IDNG_LISTED_ALLOW;
        return 1;
    }
    if (deny > allow) {
        v->listed = IDNG_LISTED_DENY;
        v->action = idng_action_rejects(c->on_invalid) ? c->on_invalid : IDNG_ACT_REFUSE;
        return 1;
    }
    return 0;
}

/*
 * The action for one failing label.  A raw 8-bit label is judged as what it
 * normalizes to: its status becomes the conversion's failure, if any.
 */
static enum idng_action label_action(const struct idng_conf *c, const uint8_t *wire,
                                     idng_error *e)
{
    if (e->status == IDNG_E_RAW_8BIT) {
        char a[IDNG_LABEL_MAX];
        size_t n = sizeof a;
        idng_error le;
        idng_status st = idng_label_to_ascii((const char *)wire + e->label_off, e->label_len, a,
                                             &n, c->mode, &le);
        if (st != IDNG_OK) {
            e->status = st;
            e->codepoint = le.codepoint;
            return idng_policy_fallback(c, st);
        }
    }
    return c->action[idng_status_class(e->status)];
}

/* Rules 1-3 on the name as it is; with a_form, rule 5 on top. */
static void judge(const struct idng_conf *c, const uint8_t *wire, size_t len,
                  struct idng_verdict *v, int a_form)
{
    idng_error each[IDNG_LABELS_MAX];
    size_t n = 0, i;
    int raw = 0;

    clear(v);
    if (listed(c, wire, len, v))
        return;
    idng_wire_check_each(wire, len, c->mode, each, IDNG_LABELS_MAX, &n);
    for (i = 0; i < n && i < IDNG_LABELS_MAX; i++) {
        enum idng_action a;
        raw |= each[i].status == IDNG_E_RAW_8BIT;
        a = label_action(c, wire, &each[i]);
        /* The first failing label, unless a later one is more severe. */
        if (i == 0 || idng_action_severity(a) > idng_action_severity(v->action))
            decide(v, &each[i], a, wire, len);
    }
    if (raw && a_form) {
        /* Rule 5: the name a raw spelling stands for is judged too (the
         * lists, the bidi rule across labels), whatever on-raw-8bit says. */
        uint8_t alabel[256];
        size_t alen = sizeof alabel;
        struct idng_verdict av;

        if (idng_policy_normalize(c, wire, len, alabel, &alen, NULL) == IDNG_OK
            && (alen != len || memcmp(alabel, wire, len) != 0)) {
            judge(c, alabel, alen, &av, 0);
            if (idng_action_severity(av.action) > idng_action_severity(v->action))
                *v = av;
        }
    }
}

void idng_policy_judge(const struct idng_conf *c, const uint8_t *wire, size_t len,
                       struct idng_verdict *v)
{
    judge(c, wire, len, v, 1);
}

void idng_policy_judge_data(const struct idng_conf *c, const uint8_t *wire, size_t len,
                            struct idng_verdict *v)
{
    uint8_t alabel[256];
    size_t alen = sizeof alabel;
    idng_error e;
    idng_status st;

    idng_policy_judge(c, wire, len, v);
    if (v->action != IDNG_ACT_NORMALIZE)
        return;
    st = idng_policy_normalize(c, wire, len, alabel, &alen, &e);
    if (st != IDNG_OK) {
        clear(v);
        decide(v, &e, idng_policy_fallback(c, st), wire, len);
        return;
    }
    judge(c, alabel, alen, v, 0);
    if (v->action == IDNG_ACT_NORMALIZE) /* cannot be: no raw label is left */
        v->action = idng_policy_fallback(c, v->status);
}

const char *idng_verdict_name(const struct idng_verdict *v)
{
    if (v->listed == IDNG_LISTED_ALLOW)
        return "allow";
    if (v->listed == IDNG_LISTED_DENY)
        return "deny";
    return idng_class_name(v->cls);
}

idng_status idng_policy_normalize(const struct idng_conf *c, const uint8_t *wire, size_t len,
                                  uint8_t *out, size_t *outlen, idng_error *err)
{
    idng_error e;
    idng_status st;

    /* Labels that cannot be converted were judged on their own, and got an
     * action that does not reject (or the name would not be normalized):
     * they stay as they are, and the A-label name is judged again. */
    *outlen = 255;
    st = idng_wire_to_ascii(wire, len, out, outlen, c->mode, IDNG_F_KEEP_GOING, &e);
    if (st != IDNG_OK && *outlen == 0) {
        if (err)
            *err = e;
        return st;
    }
    if (err) {
        err->status = IDNG_OK;
        err->label_off = err->label_len = 0;
        err->codepoint = IDNG_NO_CODEPOINT;
    }
    return IDNG_OK;
}

void idng_scan_init(struct idng_scan *s)
{
    clear(&s->worst);
    s->found = 0;
}

/* Keeps the more severe of s->worst and v (the earlier one among equals). */
static void keep_worse(struct idng_scan *s, const struct idng_verdict *v)
{
    if (!s->found || idng_action_severity(v->action) > idng_action_severity(s->worst.action)) {
        s->worst = *v;
        s->found = 1;
    }
}

void idng_scan_name(const struct idng_conf *c, struct idng_scan *s, const uint8_t *wire,
                    size_t len)
{
    struct idng_verdict v;

    idng_policy_judge_data(c, wire, len, &v);
    keep_worse(s, &v);
}

/* RR types of RFC 4034 and RFC 5155 that prove non-existence. */
#define RR_NSEC 47
#define RR_NSEC3 50
/* RR types whose data is a name the resolver follows (RFC 1035, RFC 6672). */
#define RR_CNAME 5
#define RR_DNAME 39

int idng_scan_owner(const struct idng_conf *c, struct idng_scan *s, enum idng_section sec,
                    uint16_t type, const uint8_t *owner, size_t len, enum idng_strip strip)
{
    struct idng_verdict v;
    int cut;

    if (sec != IDNG_SEC_ANSWER && (type == RR_NSEC || type == RR_NSEC3))
        return 0;
    idng_policy_judge_data(c, owner, len, &v);
    cut = idng_action_rejects(v.action)
          && (strip == IDNG_STRIP_ALL || (strip == IDNG_STRIP_EXTRA && sec != IDNG_SEC_ANSWER));
    if (strip != IDNG_STRIP_EXTRA || !cut)
        keep_worse(s, &v);
    return cut;
}

int idng_scan_target(const struct idng_conf *c, struct idng_scan *s, const uint8_t *wire,
                     size_t len, enum idng_strip strip)
{
    struct idng_verdict v;

    idng_policy_judge_data(c, wire, len, &v);
    keep_worse(s, &v);
    return strip == IDNG_STRIP_ALL && idng_action_rejects(v.action);
}

int idng_scan_has_targets(enum idng_section sec, uint16_t type)
{
    return sec == IDNG_SEC_ANSWER && (type == RR_CNAME || type == RR_DNAME);
}

enum idng_scan_result idng_scan_result(const struct idng_scan *s, struct idng_verdict *v)
{
    if (v)
        *v = s->worst;
    if (!s->found)
        return IDNG_SCAN_PASS;
    if (idng_action_rejects(s->worst.action))
        return IDNG_SCAN_REJECT;
    return s->worst.action == IDNG_ACT_LOG ? IDNG_SCAN_LOG : IDNG_SCAN_PASS;
}

size_t idng_policy_ede_text(const struct idng_verdict *v, char *out, size_t cap)
{
    size_t n;
    int w;

    if (cap == 0)
        return 0;
    w = snprintf(out, cap, "idnguard: %s", idng_verdict_name(v));
    n = w < 0 ? 0 : (size_t)w >= cap ? cap - 1 : (size_t)w;
    if (v->label_len > 0 && n + 2 < cap) {
        out[n++] = ':';
        out[n++] = ' ';
        n += idng_display_label(v->label, v->label_len, out + n, cap - n);
    }
    if (v->listed == IDNG_LISTED_NONE && v->status != IDNG_OK && n + 2 < cap) {
        w = snprintf(out + n, cap - n, ": %s", idng_status_message(v->status));
        n += w < 0 ? 0 : (size_t)w >= cap - n ? cap - n - 1 : (size_t)w;
    }
    out[n] = '\0';
    return n;
}
