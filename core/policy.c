/**
 * \file
 * The module's decisions, without Unbound (see idng_policy.h).
 */
#include "idng_policy.h"

#include <stddef.h>
#include <string.h>

static const char *const action_names[IDNG_ACTION_COUNT] = {
#define IDNG_X_ANAME(sym, name) name,
    IDNG_ACTION_LIST(IDNG_X_ANAME)
#undef IDNG_X_ANAME
};

const char *idng_action_name(enum idng_action a)
{
    return (unsigned)a < IDNG_ACTION_COUNT ? action_names[a] : NULL;
}

int idng_action_lookup(const char *s, size_t len, enum idng_action *a)
{
    unsigned i;
    for (i = 0; i < IDNG_ACTION_COUNT; i++)
        if (strlen(action_names[i]) == len && memcmp(action_names[i], s, len) == 0) {
            *a = (enum idng_action)i;
            return 0;
        }
    return -1;
}

int idng_policy_class_configurable(int cls)
{
    return cls >= 0 && cls < IDNG_CLASS_COUNT && cls != IDNG_C_OK && cls != IDNG_C_NOSPACE
           && cls != IDNG_C_INVAL;
}

int idng_policy_action_allowed(int cls, enum idng_action a)
{
    if ((unsigned)a >= IDNG_ACTION_COUNT)
        return 0;
    /* Only a raw UTF-8 name has an obvious intended form to resolve instead. */
    return a != IDNG_ACT_NORMALIZE || cls == IDNG_C_RAW_8BIT;
}

int idng_policy_default_action(int cls)
{
    switch (cls) {
    case IDNG_C_RAW_8BIT:
        return IDNG_ACT_NORMALIZE;
    case IDNG_C_CONFUSABLE:
    case IDNG_C_WHOLE_SCRIPT:
        return IDNG_ACT_REFUSE;
    case IDNG_C_MIXED_SCRIPT:
    case IDNG_C_MIXED_NUMBER:
    case IDNG_C_NEAR_MISS:
    case IDNG_C_MARK_PATTERN:
    case IDNG_C_CJK_PATTERN:
    case IDNG_C_DIGIT_LOOKALIKE:
    case IDNG_C_PUNCTUATION:
    case IDNG_C_TLD_LETTER:
    case IDNG_C_EMBEDS_PROTECTED:
        return IDNG_ACT_LOG;
    case IDNG_C_IDN:
        return IDNG_ACT_PASS;
    default:
        return -1;
    }
}

void idng_policy_resolve(struct idng_policy *p, const unsigned char *explicit_action)
{
    int cls;
    for (cls = 0; cls < IDNG_CLASS_COUNT; cls++) {
        if (!idng_policy_class_configurable(cls))
            p->action[cls] = IDNG_ACT_PASS;
        else if (explicit_action != NULL && explicit_action[cls])
            continue;
        else if (idng_policy_default_action(cls) >= 0) /* on-invalid does not change it */
            p->action[cls] = (enum idng_action)idng_policy_default_action(cls);
        else
            p->action[cls] = p->on_invalid;
    }
}

void idng_policy_init(struct idng_policy *p)
{
    p->mode = IDNG_MODE_UTS46;
    p->on_invalid = IDNG_ACT_REFUSE;
    idng_policy_resolve(p, NULL);
    idng_nameset_init(&p->allow);
    idng_nameset_init(&p->deny);
    p->restriction_level = IDNG_RL_HIGHLY;
    idng_protect_init(&p->protect);
    p->idn_scripts = 0;
    idng_nameset_init(&p->idn_suffixes);
}

void idng_policy_free(struct idng_policy *p)
{
    if (p == NULL)
        return;
    idng_nameset_free(&p->allow);
    idng_nameset_free(&p->deny);
    idng_protect_free(&p->protect);
    idng_nameset_free(&p->idn_suffixes);
    idng_policy_init(p);
}

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
    /* like[] is read only up to like_len: left alone, it costs nothing on
     * the path every query takes. */
    memset(v, 0, offsetof(struct idng_verdict, like));
    v->like_len = 0;
    v->err.status = IDNG_OK;
    v->err.codepoint = IDNG_NO_CODEPOINT;
    v->action = IDNG_ACT_PASS;
    v->listed = IDNG_LISTED_NONE;
}

void idng_verdict_ok(struct idng_verdict *v)
{
    clear(v);
}

int idng_verdict_is_ok(const struct idng_verdict *v)
{
    return v->err.status == IDNG_OK && v->err.label_len == 0 && v->action == IDNG_ACT_PASS
           && v->listed == IDNG_LISTED_NONE && v->lookalike == 0 && v->like_len == 0;
}

/* Makes e, found in wire[0..len), the verdict, with action a. */
static void decide(struct idng_verdict *v, const idng_error *e, enum idng_action a,
                   const uint8_t *wire, size_t len)
{
    v->err = *e;
    v->action = a;
    /* The label is kept only when it lies within the name. */
    v->err.label_len = 0;
    if (e->label_len > 0 && e->label_len <= IDNG_LABEL_MAX && e->label_off <= len
        && e->label_len <= len - e->label_off) {
        v->err.label_len = e->label_len;
        memcpy(v->label, wire + e->label_off, e->label_len);
    }
}

enum idng_action idng_policy_fallback(const struct idng_policy *p, idng_status st)
{
    enum idng_action a = p->action[idng_status_class(st)];
    /* Only raw-8bit may normalize; a name that could not be normalized
     * falls back to the general setting for invalid names. */
    if (a == IDNG_ACT_NORMALIZE) {
        a = p->on_invalid;
        if (a == IDNG_ACT_NORMALIZE)
            a = IDNG_ACT_REFUSE;
    }
    return a;
}

/* The lists: 1 when one decided (v is set), else 0. */
static int listed(const struct idng_policy *p, const uint8_t *wire, size_t len,
                  struct idng_verdict *v)
{
    int allow, deny;

    if (p->allow.count == 0 && p->deny.count == 0) /* most resolvers: no lists */
        return 0;
    idng_nameset_listed2(&p->allow, &p->deny, wire, len, &allow, &deny);

    /* The more specific entry wins (a name cannot be in both lists). */
    if (allow > deny) {
        v->listed = IDNG_LISTED_ALLOW;
        return 1;
    }
    if (deny > allow) {
        v->listed = IDNG_LISTED_DENY;
        v->action = idng_action_rejects(p->on_invalid) ? p->on_invalid : IDNG_ACT_REFUSE;
        return 1;
    }
    return 0;
}

/*
 * The action for one failing label.  A raw 8-bit label is judged as what it
 * normalizes to: its status becomes the conversion's failure, if any.
 */
static enum idng_action label_action(const struct idng_policy *p, const uint8_t *wire,
                                     idng_error *e)
{
    if (e->status == IDNG_E_RAW_8BIT) {
        char a[IDNG_LABEL_MAX];
        size_t n = sizeof a;
        idng_error le;
        idng_status st = idng_label_to_ascii((const char *)wire + e->label_off, e->label_len, a,
                                             &n, p->mode, &le);
        if (st != IDNG_OK) {
            e->status = st;
            e->codepoint = le.codepoint;
            return idng_policy_fallback(p, st);
        }
    }
    return p->action[idng_status_class(e->status)];
}

/* Rule 6: the facts f found about wire.  With decide_it 0 (a list has
 * decided), only what was found is noted. */
static void lookalike(const struct idng_policy *p, const uint8_t *wire, size_t len,
                      const struct idng_lookalike *f, struct idng_verdict *v, int decide_it)
{
    /* The classes in the order they win among equal actions: the names of
     * a protected name first, then the most specific. */
    static const idng_status order[] = {
        IDNG_E_CONFUSABLE,   IDNG_E_WHOLE_SCRIPT,  IDNG_E_NEAR_MISS,
        IDNG_E_MIXED_SCRIPT, IDNG_E_MIXED_NUMBER,  IDNG_E_DIGIT_LOOKALIKE,
        IDNG_E_PUNCTUATION,  IDNG_E_CJK_PATTERN,   IDNG_E_MARK_PATTERN,
        IDNG_E_TLD_LETTER,   IDNG_E_EMBEDS_PROTECTED,
    };
    size_t k;

    _Static_assert(sizeof order / sizeof order[0] == IDNG_LK_COUNT,
                   "every lookalike class has its place in order[]");
    if (f->found == 0)
        return;
    v->lookalike = f->found;
    if (f->found & (IDNG_LK_CONFUSABLE | IDNG_LK_NEAR_MISS | IDNG_LK_EMBEDS_PROTECTED)) {
        const uint8_t *like = p->protect.names.names[f->like];
        v->like_len = idng_wire_len(like, IDNG_WIRE_MAX);
        memcpy(v->like, like, v->like_len);
    }
    if (!decide_it)
        return;
    for (k = 0; k < sizeof order / sizeof order[0]; k++) {
        int cls = idng_status_class(order[k]);
        unsigned x = (unsigned)(cls - IDNG_C_MIXED_SCRIPT);
        idng_error e = {order[k], f->at[x].off, f->at[x].len, IDNG_NO_CODEPOINT};
        enum idng_action a = p->action[cls];
        if (!(f->found & 1u << x))
            continue;
        /* As in rule 2: the most severe, the first label among equals. */
        if (v->err.status == IDNG_OK || idng_action_severity(a) > idng_action_severity(v->action)
            || (idng_action_severity(a) == idng_action_severity(v->action)
                && e.label_off < v->err.label_off))
            decide(v, &e, a, wire, len);
    }
}

static void judge(const struct idng_policy *p, const uint8_t *wire, size_t len,
                  struct idng_verdict *v, int a_form, struct idng_decoded *d);

/* Rule 7's suffixes: is the name at or under an idn-suffixes name?  A name
 * with raw labels (raw: it has some) is matched in its A-label form, as
 * the names are held. */
static int idn_suffixed(const struct idng_policy *p, const uint8_t *wire, size_t len, int raw)
{
    uint8_t alabel[256];
    size_t alen = sizeof alabel;

    if (p->idn_suffixes.count == 0)
        return 0;
    if (raw && idng_policy_normalize(p, wire, len, alabel, &alen, NULL) == IDNG_OK)
        return idng_nameset_listed(&p->idn_suffixes, alabel, alen) > 0;
    return idng_nameset_listed(&p->idn_suffixes, wire, len) > 0;
}

/* Rule 7: the first IDN label that is valid (no entry of each[0..n), but
 * a raw label's, which normalizes) and that idn-scripts does not exempt,
 * unless idn-suffixes exempts the name.  On a frame of its own, which a
 * policy without on-idn never pays for. */
static __attribute__((noinline)) void idn(const struct idng_policy *p, const uint8_t *wire,
                                           size_t len, const struct idng_lookalike_run *run,
                                           const idng_error *each, size_t n, int raw,
                                           struct idng_verdict *v)
{
    enum idng_action a = p->action[IDNG_C_IDN];
    size_t i, k, off, llen;

    for (i = 0; idng_lookalike_foreign(run, &i, &off, &llen); i++) {
        for (k = 0; k < n && k < IDNG_LABELS_MAX; k++)
            if (each[k].label_off == off && each[k].status != IDNG_E_RAW_8BIT)
                break;
        if (k < n && k < IDNG_LABELS_MAX)
            continue;
        if (idn_suffixed(p, wire, len, raw))
            return;
        /* As in rule 2, the first label among equals; on the same label
         * the class found there first, more specific, keeps it. */
        if (v->err.status == IDNG_OK || idng_action_severity(a) > idng_action_severity(v->action)
            || (idng_action_severity(a) == idng_action_severity(v->action)
                && off < v->err.label_off)) {
            idng_error e = {IDNG_E_IDN, off, llen, IDNG_NO_CODEPOINT};
            decide(v, &e, a, wire, len);
        }
        return;
    }
}

/* Rule 6's walk over the labels, which also keeps them for the log line. */
struct keep {
    struct idng_lookalike_run *run;
    struct idng_decoded *d;
};

static void keep_label(void *ctx, size_t off, size_t len, const uint32_t *cps, const uint16_t *ents,
                       size_t n)
{
    struct keep *k = ctx;

    idng_decoded_add(k->d, cps, n);
    idng_lookalike_label(k->run, off, len, cps, ents, n);
}

/* Rules 2, 3 and 6 (and with a_form, 5) on a name that is not plain ASCII:
 * on a frame of its own, which the common name never pays for. */
static __attribute__((noinline)) void judge_labels(const struct idng_policy *p, const uint8_t *wire,
                                                   size_t len, struct idng_verdict *v, int a_form,
                                                   struct idng_decoded *d)
{
    idng_error each[IDNG_LABELS_MAX];
    struct idng_lookalike_run run;
    struct idng_lookalike f;
    size_t n = 0, i;
    int raw = 0, idn_on = p->action[IDNG_C_IDN] != IDNG_ACT_PASS;

    /* Rules 2, 6 and 7 from one walk: the codec hands rule 6 every label
     * it has decoded (and, with d, the log line keeps them). */
    idng_lookalike_start(&run, &p->protect, p->restriction_level, p->mode, wire, len);
    if (idn_on)
        idng_lookalike_idn(&run, p->idn_scripts);
    if (d != NULL) {
        struct keep k = {&run, d};
        idng_decoded_done(
            d, p->mode,
            idng_wire_check_labels(wire, len, p->mode, each, IDNG_LABELS_MAX, &n, keep_label, &k));
    } else {
        idng_wire_check_labels(wire, len, p->mode, each, IDNG_LABELS_MAX, &n, idng_lookalike_label,
                               &run);
    }
    for (i = 0; i < n && i < IDNG_LABELS_MAX; i++) {
        enum idng_action a;
        raw |= each[i].status == IDNG_E_RAW_8BIT;
        a = label_action(p, wire, &each[i]);
        /* The first failing label, unless a later one is more severe. */
        if (i == 0 || idng_action_severity(a) > idng_action_severity(v->action))
            decide(v, &each[i], a, wire, len);
    }
    if (run.any && idng_lookalike_finish(&run, &f))
        lookalike(p, wire, len, &f, v, 1);
    if (idn_on && run.any)
        idn(p, wire, len, &run, each, n, raw, v);
    if (raw && a_form) {
        /* Rule 5: the name a raw spelling stands for is judged too (the
         * lists, the bidi rule across labels), whatever on-raw-8bit says. */
        uint8_t alabel[256];
        size_t alen = sizeof alabel;
        struct idng_verdict av;

        if (idng_policy_normalize(p, wire, len, alabel, &alen, NULL) == IDNG_OK
            && (alen != len || memcmp(alabel, wire, len) != 0)) {
            judge(p, alabel, alen, &av, 0, NULL);
            if (idng_action_severity(av.action) > idng_action_severity(v->action))
                *v = av;
        }
    }
}

/* Rule 1: 1 when a list decided v (its lookalike facts too). */
static int judge_lists(const struct idng_policy *p, const uint8_t *wire, size_t len,
                       struct idng_verdict *v)
{
    struct idng_lookalike f;

    clear(v);
    if (!listed(p, wire, len, v))
        return 0;
    if (idng_lookalike_scan(&p->protect, p->restriction_level, p->mode, wire, len, &f))
        lookalike(p, wire, len, &f, v, 0);
    return 1;
}

/* Rules 1-3 and 6 on the name as it is; with a_form, rule 5 on top. */
static void judge(const struct idng_policy *p, const uint8_t *wire, size_t len,
                  struct idng_verdict *v, int a_form, struct idng_decoded *d)
{
    if (d != NULL)
        idng_decoded_init(d);
    if (judge_lists(p, wire, len, v))
        return;
    /* A name of plain ASCII labels: no label fails, none is a lookalike. */
    if (!idng_wire_is_plain(wire, len))
        judge_labels(p, wire, len, v, a_form, d);
    else if (d != NULL)
        idng_decoded_done(d, p->mode, IDNG_OK); /* no xn-- label to keep */
}

void idng_policy_judge(const struct idng_policy *p, const uint8_t *wire, size_t len,
                       struct idng_verdict *v)
{
    judge(p, wire, len, v, 1, NULL);
}

void idng_policy_judge_decoded(const struct idng_policy *p, const uint8_t *wire, size_t len,
                               struct idng_verdict *v, struct idng_decoded *d)
{
    judge(p, wire, len, v, 1, d);
}

void idng_policy_judge_plain(const struct idng_policy *p, const uint8_t *wire, size_t len,
                             struct idng_verdict *v)
{
    judge_lists(p, wire, len, v);
}

void idng_policy_judge_data(const struct idng_policy *p, const uint8_t *wire, size_t len,
                            struct idng_verdict *v)
{
    uint8_t alabel[256];
    size_t alen = sizeof alabel;
    idng_error e;
    idng_status st;

    idng_policy_judge(p, wire, len, v);
    if (v->action != IDNG_ACT_NORMALIZE)
        return;
    st = idng_policy_normalize(p, wire, len, alabel, &alen, &e);
    if (st != IDNG_OK) {
        clear(v);
        decide(v, &e, idng_policy_fallback(p, st), wire, len);
        return;
    }
    judge(p, alabel, alen, v, 0, NULL);
    if (v->action == IDNG_ACT_NORMALIZE) /* cannot be: no raw label is left */
        v->action = idng_policy_fallback(p, v->err.status);
}

const char *idng_verdict_name(const struct idng_verdict *v)
{
    if (v->listed == IDNG_LISTED_ALLOW)
        return "allow";
    if (v->listed == IDNG_LISTED_DENY)
        return "deny";
    return idng_status_class_name(v->err.status);
}

idng_status idng_policy_normalize(const struct idng_policy *p, const uint8_t *wire, size_t len,
                                  uint8_t *out, size_t *outlen, idng_error *err)
{
    idng_error e;
    idng_status st;

    /* Labels that cannot be converted were judged on their own, and got an
     * action that does not reject (or the name would not be normalized):
     * they stay as they are, and the A-label name is judged again. */
    *outlen = 255;
    st = idng_wire_to_ascii(wire, len, out, outlen, p->mode, IDNG_F_KEEP_GOING, &e);
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

/* Appends s to out[0..n), at most up to cap - 1 octets as snprintf would
 * cut it; the new length.  (snprintf was most of a refusal's EDE text, and
 * the text is built for every refused query.) */
static size_t put_str(char *out, size_t cap, size_t n, const char *s)
{
    size_t l = strlen(s);

    if (n + 1 >= cap)
        return n;
    if (l > cap - 1 - n)
        l = cap - 1 - n;
    memcpy(out + n, s, l);
    return n + l;
}

size_t idng_policy_ede_text(const struct idng_verdict *v, char *out, size_t cap)
{
    size_t n;

    if (cap == 0)
        return 0;
    n = put_str(out, cap, 0, "idnguard: ");
    n = put_str(out, cap, n, idng_verdict_name(v));
    if (v->err.label_len > 0 && n + 2 < cap) {
        out[n++] = ':';
        out[n++] = ' ';
        n += idng_display_label(v->label, v->err.label_len, out + n, cap - n);
    }
    if (v->listed == IDNG_LISTED_NONE && v->err.status != IDNG_OK && n + 2 < cap) {
        n = put_str(out, cap, n, ": ");
        n = put_str(out, cap, n, idng_status_message(v->err.status));
    }
    if ((v->err.status == IDNG_E_CONFUSABLE || v->err.status == IDNG_E_NEAR_MISS
         || v->err.status == IDNG_E_EMBEDS_PROTECTED)
        && v->like_len > 0 && n + 14 < cap) {
        memcpy(out + n, ": looks like ", 13);
        n += 13;
        n += idng_display_name(v->like, v->like_len, out + n, cap - n);
    }
    out[n] = '\0';
    return n;
}

void idng_verdict_for_client(struct idng_verdict *v, const struct idng_verdict *q)
{
    v->lookalike = q->lookalike;
}

int idng_verdict_interesting(const struct idng_verdict *v)
{
    return v->err.status != IDNG_OK || v->listed != IDNG_LISTED_NONE;
}
