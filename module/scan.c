/**
 * \file
 * The dynlib module's response scan over Unbound's structures (the
 * core's response scan, core/idng_scan.h, RRset by RRset), and the expiry of
 * what Unbound's caches hold that settings applied without a reload reject
 * (idng_mod.h).
 */
#include "idng_mod.h"

#include <string.h>

/* ---- judging responses ---- */

/* Judges one RRset's owner and, where the policy says so, its CNAME/DNAME
 * targets; 1 when the RRset is to be removed (see enum idng_strip). */
static int scan_rrset(const struct idng_policy *p, struct idng_scan *s, enum idng_section sec,
                      struct ub_packed_rrset_key *k, enum idng_strip strip)
{
    struct packed_rrset_data *d = (struct packed_rrset_data *)k->entry.data;
    uint16_t t = ntohs(k->rk.type);
    int cut = idng_scan_owner(p, s, sec, t, k->rk.dname, k->rk.dname_len, strip);
    size_t j;

    if (idng_scan_has_targets(sec, t))
        for (j = 0; j < d->count; j++)
            if (d->rr_len[j] >= 3) /* rdlength, then at least the root label */
                cut |= idng_scan_target(p, s, d->rr_data[j] + 2, d->rr_len[j] - 2, strip);
    return cut;
}

/* The section of a response's i-th RRset. */
static enum idng_section section_of(const struct reply_info *rep, size_t i)
{
    return i < rep->an_numrrsets                       ? IDNG_SEC_ANSWER
           : i < rep->an_numrrsets + rep->ns_numrrsets ? IDNG_SEC_AUTHORITY
                                                       : IDNG_SEC_ADDITIONAL;
}

/* A scan through this thread's remembered verdicts. */
static void scan_start(const struct idng_settings *set, struct idng_scan *s)
{
    idng_scan_init(s);
    s->memo = &idng_mod_ts.memo;
    s->gen = set->gen;
}

/*
 * Runs the core's response scan (idng_scan.h) over a response: qi (may
 * be NULL) is the name it is for; RRsets the scan says to remove (strip)
 * are removed from rep and counted.
 */
enum idng_scan_result idng_mod_scan_response(const struct idng_settings *set,
                                             const struct query_info *qi, struct reply_info *rep,
                                             enum idng_strip strip, struct idng_verdict *out)
{
    struct idng_scan s;
    size_t i, kept = 0, cut_an = 0, cut_ns = 0, cut_ar = 0;

    scan_start(set, &s);
    if (qi)
        idng_scan_name(&set->conf.policy, &s, qi->qname, qi->qname_len);
    if (!rep)
        return idng_scan_result(&s, out);
    for (i = 0; i < rep->rrset_count; i++) {
        struct ub_packed_rrset_key *k = rep->rrsets[i];
        enum idng_section sec = section_of(rep, i);

        if (!scan_rrset(&set->conf.policy, &s, sec, k, strip)) {
            rep->rrsets[kept++] = k;
            continue;
        }
        *(sec == IDNG_SEC_ANSWER ? &cut_an : sec == IDNG_SEC_AUTHORITY ? &cut_ns : &cut_ar) += 1;
        atomic_fetch_add(&idng_host_counters.stripped, 1);
    }
    rep->rrset_count = kept;
    rep->an_numrrsets -= cut_an;
    rep->ns_numrrsets -= cut_ns;
    rep->ar_numrrsets -= cut_ar;
    return idng_scan_result(&s, out);
}

/* ---- the cache, after settings applied without a reload ---- */

/*
 * Settings applied without a reload (conf/idng_watch.h) keep Unbound's
 * cache, which may hold answers stored under the settings they replaced:
 * a name now denied, a chain into one.  A reload empties the cache; here
 * only what the settings in force reject is expired, as `unbound-control
 * flush_zone` expires a zone: every RRset that the check before the cache
 * (idng_mod_cb_query_response) would now keep out, and every message whose name
 * the settings reject or normalize, or that holds such an RRset.  The
 * worker then no longer answers them from the cache, and the next query
 * for them goes through the module.
 *
 * This runs in a worker, in the module's operate (no cache lock is held
 * there), not in the watch thread: during a reload Unbound may delete and
 * make the caches anew before the module's deinit stops that thread.
 */
struct expiry {
    const struct idng_settings *set;
    time_t expired; /* a TTL in the past for every worker (3 s of skew, as flush_zone) */
    size_t msgs, rrsets;
};

/* One RRset of the RRset cache (write-locked by the traversal). */
static void expire_rrset(struct lruhash_entry *e, void *arg)
{
    struct expiry *x = arg;
    struct ub_packed_rrset_key *k = (struct ub_packed_rrset_key *)e->key;
    struct packed_rrset_data *d = (struct packed_rrset_data *)e->data;
    uint16_t t = ntohs(k->rk.type);
    struct idng_scan s;

    if (d->ttl <= x->expired)
        return;
    /* Judged as a response's answer section judges it (owner, targets);
     * NSEC and NSEC3 as its authority section does (not for their owner). */
    scan_start(x->set, &s);
    scan_rrset(&x->set->conf.policy, &s,
               t == LDNS_RR_TYPE_NSEC || t == LDNS_RR_TYPE_NSEC3 ? IDNG_SEC_AUTHORITY
                                                                 : IDNG_SEC_ANSWER,
               k, IDNG_STRIP_NONE);
    if (idng_scan_result(&s, NULL) != IDNG_SCAN_REJECT)
        return;
    d->ttl = x->expired;
    x->rrsets++;
}

/* One message of the message cache (write-locked by the traversal). */
static void expire_msg(struct lruhash_entry *e, void *arg)
{
    struct expiry *x = arg;
    struct msgreply_entry *k = (struct msgreply_entry *)e->key;
    struct reply_info *rep = (struct reply_info *)e->data;
    struct idng_brief b;
    int rejected;

    if (rep->ttl <= x->expired && rep->serve_expired_ttl <= x->expired)
        return;
    idng_memo_judge(&idng_mod_ts.memo, x->set->gen, &x->set->conf.policy, k->key.qname,
                    k->key.qname_len, &b);
    rejected = b.action != IDNG_ACT_PASS && b.action != IDNG_ACT_LOG;
    /* Its RRsets, read-locked as a cache hit reads them (expired or not:
     * serve-expired may serve them); gone or replaced, it cannot be served. */
    if (!rejected && rrset_array_lock(rep->ref, rep->rrset_count, 0)) {
        struct idng_scan s;
        size_t i;

        scan_start(x->set, &s);
        for (i = 0; i < rep->rrset_count; i++)
            scan_rrset(&x->set->conf.policy, &s, section_of(rep, i), rep->rrsets[i],
                       IDNG_STRIP_NONE);
        rejected = idng_scan_result(&s, NULL) == IDNG_SCAN_REJECT;
        rrset_array_unlock(rep->ref, rep->rrset_count);
    }
    if (!rejected)
        return;
    rep->ttl = x->expired;
    rep->prefetch_ttl = x->expired;
    rep->serve_expired_ttl = x->expired;
    x->msgs++;
}

/* Expires what Unbound's caches hold that set rejects (see above). */
void idng_mod_expire_rejected(struct module_env *env, const struct idng_settings *set)
{
    struct expiry x;

    x.set = set;
    x.expired = *env->now - 3;
    x.msgs = x.rrsets = 0;
    slabhash_traverse(&env->rrset_cache->table, 1, expire_rrset, &x);
    slabhash_traverse(env->msg_cache, 1, expire_msg, &x);
    if (x.msgs || x.rrsets)
        log_info("idnguard: expired %zu cached answers and %zu cached RRsets that the settings "
                 "applied without a reload reject",
                 x.msgs, x.rrsets);
}
