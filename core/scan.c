/**
 * \file
 * The scan of a response (see idng_scan.h).
 */
#include "idng_scan.h"

#include "idng_memo.h"

#include <string.h>

void idng_scan_init(struct idng_scan *s)
{
    idng_verdict_ok(&s->worst);
    s->found = 0;
    s->memo = NULL;
    s->gen = 0;
}

/* idng_policy_judge_data for the scan: through the scan's remembered
 * verdicts when it has them (idng_memo_verdict). */
static void scan_judge(const struct idng_policy *p, struct idng_scan *s, const uint8_t *wire,
                       size_t len, struct idng_verdict *v)
{
    if (s->memo)
        idng_memo_verdict(s->memo, s->gen, p, wire, len, 1, v);
    else
        idng_policy_judge_data(p, wire, len, v);
}

/* Keeps the more severe of s->worst and v (the earlier one among equals). */
static void keep_worse(struct idng_scan *s, const struct idng_verdict *v)
{
    if (!s->found || idng_action_severity(v->action) > idng_action_severity(s->worst.action)) {
        s->worst = *v;
        s->found = 1;
    }
}

void idng_scan_name(const struct idng_policy *p, struct idng_scan *s, const uint8_t *wire,
                    size_t len)
{
    struct idng_verdict v;

    scan_judge(p, s, wire, len, &v);
    keep_worse(s, &v);
}

/* RR types of RFC 4034 and RFC 5155 that prove non-existence. */
#define RR_NSEC 47
#define RR_NSEC3 50
/* RR types whose data is a name the resolver follows (RFC 1035, RFC 6672). */
#define RR_CNAME 5
#define RR_DNAME 39

int idng_scan_owner(const struct idng_policy *p, struct idng_scan *s, enum idng_section sec,
                    uint16_t type, const uint8_t *owner, size_t len, enum idng_strip strip)
{
    struct idng_verdict v;
    int cut;

    if (sec != IDNG_SEC_ANSWER && (type == RR_NSEC || type == RR_NSEC3))
        return 0;
    scan_judge(p, s, owner, len, &v);
    cut = idng_action_rejects(v.action)
          && (strip == IDNG_STRIP_ALL || (strip == IDNG_STRIP_EXTRA && sec != IDNG_SEC_ANSWER));
    if (strip != IDNG_STRIP_EXTRA || !cut)
        keep_worse(s, &v);
    return cut;
}

int idng_scan_target(const struct idng_policy *p, struct idng_scan *s, const uint8_t *wire,
                     size_t len, enum idng_strip strip)
{
    struct idng_verdict v;

    scan_judge(p, s, wire, len, &v);
    keep_worse(s, &v);
    return strip == IDNG_STRIP_ALL && idng_action_rejects(v.action);
}

int idng_scan_has_targets(enum idng_section sec, uint16_t type)
{
    return sec == IDNG_SEC_ANSWER && (type == RR_CNAME || type == RR_DNAME);
}

/* RR type of OPT (RFC 6891 6.1.1), a pseudo-record that owns no data. */
#define RR_OPT 41

static uint16_t be16(const uint8_t *b)
{
    return (uint16_t)(b[0] << 8 | b[1]);
}

/* The verdict of a message that cannot be read: what was judged of it
 * before is not all of it, so this one stands whatever that was. */
static void scan_malformed(const struct idng_policy *p, struct idng_scan *s)
{
    idng_verdict_ok(&s->worst);
    s->worst.err.status = IDNG_E_INVAL;
    s->worst.action = idng_action_rejects(p->on_invalid) ? p->on_invalid : IDNG_ACT_REFUSE;
    s->found = 1;
}

int idng_scan_message(const struct idng_policy *p, struct idng_scan *s, const uint8_t *msg,
                      size_t len)
{
    uint8_t name[IDNG_WIRE_MAX], last[IDNG_WIRE_MAX];
    size_t pos = 12, n, next, last_len = 0;
    unsigned count, i, sec, last_sec = 0, last_type = 0;

    if (len < 12)
        goto malformed;
    for (i = 0, count = be16(msg + 4); i < count; i++) {
        if (idng_wire_decompress(msg, len, pos, name, &n, &next) != IDNG_WIRE_OK || len - next < 4)
            goto malformed;
        idng_scan_name(p, s, name, n);
        pos = next + 4;
    }
    for (sec = IDNG_SEC_ANSWER; sec <= IDNG_SEC_ADDITIONAL; sec++) {
        for (i = 0, count = be16(msg + 6 + 2 * sec); i < count; i++) {
            idng_wire_rr rr;
            unsigned type;
            if (idng_wire_rr_read(msg, len, pos, name, &rr) != IDNG_WIRE_RR_OK)
                goto malformed;
            type = rr.type;
            n = rr.owner_len;
            /* The records of one RRset follow one another: its owner is
             * judged once. */
            if (type != RR_OPT
                && !(sec == last_sec && type == last_type && n == last_len
                     && memcmp(name, last, n) == 0)) {
                idng_scan_owner(p, s, (enum idng_section)sec, (uint16_t)type, name, n,
                                IDNG_STRIP_NONE);
                memcpy(last, name, n);
                last_len = n;
                last_sec = sec;
                last_type = type;
            }
            if (idng_scan_has_targets((enum idng_section)sec, (uint16_t)type)) {
                if (idng_wire_decompress(msg, rr.end, rr.rdata, name, &n, &next) != IDNG_WIRE_OK
                    || next != rr.end)
                    goto malformed;
                idng_scan_target(p, s, name, n, IDNG_STRIP_NONE);
            }
            pos = rr.end;
        }
    }
    return 0;
malformed:
    scan_malformed(p, s);
    return -1;
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
