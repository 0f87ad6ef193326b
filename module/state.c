/**
 * \file
 * The dynlib module's state machine (idng_mod.h): operate(new) judges the
 * query name; pass and log go on to the next module; refuse/nxdomain answer
 * at once with an EDE; drop drops; a raw UTF-8 name set to normalize is
 * resolved as its A-label form through a sub-query and answered with a
 * CNAME to it (as dns64 does); operate(moddone) handles an answer whose
 * CNAME/DNAME chain reaches a rejected label as if the client had asked
 * for that name.
 */
#include "idng_mod.h"

#include <string.h>

static struct idng_env *env_of(struct module_env *env, int id)
{
    struct dynlibmod_env *de = (struct dynlibmod_env *)env->modinfo[id];
    return de ? (struct idng_env *)de->dyn_env : NULL;
}

/* ---- answers ---- */

/* The EDE a refusal carries; whether it reached a client is decided when
 * the reply is encoded (ede_sent). */
static void attach_ede(struct module_qstate *qstate, const struct idng_settings *set,
                       struct idng_q *q)
{
    char text[512];

    if (!set->conf.ede || q->v.action == IDNG_ACT_DROP)
        return;
    idng_policy_ede_text(&q->v, text, sizeof text);
    if (edns_opt_list_append_ede(&qstate->edns_opts_front_out, qstate->region,
                                 (sldns_ede_code)IDNG_EDE_BLOCKED, text))
        q->ede = IDNG_EDE_BLOCKED;
}

/* Answers with the verdict's action: REFUSED or NXDOMAIN with an EDE, or
 * no answer.  Every client of the state gets it, the clients of our own
 * normalize sub-query included; the super of such a sub-query reads the
 * verdict in inform_super. */
static enum module_ext_state reject(struct module_qstate *qstate, const struct idng_settings *set,
                                    struct idng_q *q)
{
    q->phase = PH_REJECTED;
    qstate->return_msg = NULL;
    qstate->return_rcode =
        q->v.action == IDNG_ACT_NXDOMAIN ? LDNS_RCODE_NXDOMAIN : LDNS_RCODE_REFUSED;
    if (q->v.action != IDNG_ACT_DROP) {
        attach_ede(qstate, set, q);
        return module_finished;
    }
    /* A dropped query gets no reply, so no reply callback: one line for
     * each client, with its own spelling of the name. */
    qstate->is_drop = 1;
    if (qstate->mesh_info) {
        struct mesh_reply *r;
        for (r = qstate->mesh_info->reply_list; r; r = r->next) {
            struct query_info qi = qstate->qinfo;
            qi.qname = r->qname;
            struct line_extra x = {q->target, q->target_len, &r->start_time};
            idng_mod_log_query(set, &qi, &r->query_reply, -1, &q->v, -1, IDNG_PATH_POLICY, &x);
        }
    }
    return module_finished;
}

/* Starts the sub-query for the A-label form of a raw UTF-8 name. */
static int start_normalize(struct module_qstate *qstate, int id, const struct idng_settings *set,
                           struct idng_q *q)
{
    uint8_t alabel[256];
    size_t alen = sizeof alabel;
    struct query_info qinfo;
    struct module_qstate *subq = NULL;
    idng_error e;
    idng_status st = idng_policy_normalize(&set->conf.policy, qstate->qinfo.qname,
                                           qstate->qinfo.qname_len, alabel, &alen, &e);

    if (st != IDNG_OK) {
        /* Unconvertible as a whole (too long once converted): fall back
         * to the setting for the failure's class. */
        q->v.err.status = st;
        q->v.err.label_len = 0;
        q->v.err.codepoint = e.codepoint;
        q->v.action = idng_policy_fallback(&set->conf.policy, st);
        return 0;
    }
    qinfo = qstate->qinfo;
    qinfo.qname = regional_alloc_init(qstate->region, alabel, alen);
    if (!qinfo.qname)
        return -1;
    qinfo.qname_len = alen;
    qinfo.local_alias = NULL;
    q->target = qinfo.qname;
    q->target_len = alen;
    if (!(*qstate->env->attach_sub)(qstate, &qinfo, qstate->query_flags, 0, 0, &subq))
        return -1;
    if (subq) {
        struct idng_q *sq = regional_alloc_zero(subq->region, sizeof *sq);
        if (!sq)
            return -1;
        sq->role = ROLE_SUB;
        sq->ede = -1;
        subq->curmod = id;
        subq->ext_state[id] = module_state_initial;
        subq->minfo[id] = sq;
    }
    q->phase = PH_WAIT_SUB;
    atomic_fetch_add(&idng_host_counters.normalized, 1);
    return 1;
}

/* A CNAME rrset from the client's raw name to the A-label name. */
static struct ub_packed_rrset_key *make_cname(struct regional *region, struct query_info *from,
                                              uint8_t *to, size_t tolen, time_t ttl)
{
    struct ub_packed_rrset_key *k = regional_alloc_zero(region, sizeof *k);
    struct packed_rrset_data *d = regional_alloc_zero(
        region, sizeof *d + sizeof(size_t) + sizeof(uint8_t *) + sizeof(time_t) + 2 + tolen);
    if (!k || !d)
        return NULL;
    d->ttl = ttl;
    d->count = 1;
    d->trust = rrset_trust_prim_noglue;
    d->security = sec_status_insecure;
    d->rr_len = (size_t *)(d + 1);
    d->rr_data = (uint8_t **)(d->rr_len + 1);
    d->rr_ttl = (time_t *)(d->rr_data + 1);
    d->rr_data[0] = (uint8_t *)(d->rr_ttl + 1);
    d->rr_len[0] = 2 + tolen;
    d->rr_ttl[0] = ttl;
    sldns_write_uint16(d->rr_data[0], (uint16_t)tolen);
    memcpy(d->rr_data[0] + 2, to, tolen);
    k->entry.key = k;
    k->entry.data = d;
    k->rk.dname = from->qname;
    k->rk.dname_len = from->qname_len;
    k->rk.type = htons(LDNS_RR_TYPE_CNAME);
    k->rk.rrset_class = htons(from->qclass);
    k->entry.hash = rrset_key_hash(&k->rk);
    return k;
}

/* The client's answer: its question, CNAME to the A-label name, then the
 * A-label name's answer as the sub-query got it. */
static void build_normalized(struct module_qstate *sub, struct module_qstate *super)
{
    struct reply_info *src = sub->return_msg->rep, *rep;
    struct ub_packed_rrset_key *cname;
    time_t ttl = 300;
    size_t i;

    for (i = 0; i < src->rrset_count; i++) {
        struct packed_rrset_data *d = (struct packed_rrset_data *)src->rrsets[i]->entry.data;
        if (d->ttl < ttl)
            ttl = d->ttl;
    }
    cname = make_cname(super->region, &super->qinfo, sub->qinfo.qname, sub->qinfo.qname_len, ttl);
    rep = cname
              ? construct_reply_info_base(super->region, src->flags, 1, src->ttl, src->prefetch_ttl,
                                          src->serve_expired_ttl, src->an_numrrsets + 1,
                                          src->ns_numrrsets, src->ar_numrrsets,
                                          src->rrset_count + 1, sec_status_insecure)
              : NULL;
    if (!rep || !reply_info_alloc_rrset_keys(rep, NULL, super->region)) {
        super->return_rcode = LDNS_RCODE_SERVFAIL;
        return;
    }
    rep->rrsets[0] = cname;
    for (i = 0; i < src->rrset_count; i++) {
        rep->rrsets[i + 1] = packed_rrset_copy_region(src->rrsets[i], super->region, 0);
        if (!rep->rrsets[i + 1]) {
            super->return_rcode = LDNS_RCODE_SERVFAIL;
            return;
        }
    }
    rep->flags &= ~BIT_AA;
    if (sub->return_rcode == LDNS_RCODE_NXDOMAIN)
        FLAGS_SET_RCODE(rep->flags, LDNS_RCODE_NXDOMAIN);
    super->return_msg = regional_alloc(super->region, sizeof(struct dns_msg));
    if (!super->return_msg) {
        super->return_rcode = LDNS_RCODE_SERVFAIL;
        return;
    }
    super->return_msg->qinfo = super->qinfo;
    super->return_msg->rep = rep;
    super->return_rcode = LDNS_RCODE_NOERROR;
}

/* ---- the module's states ---- */

/* A query new to the module: judged, unless it is the validator's own. */
static enum module_ext_state handle_new(struct module_qstate *qstate, int id,
                                        const struct idng_settings *set, struct idng_q *q)
{
    if (q->role == ROLE_CLIENT && qstate->is_valrec) {
        /* The validator's DS/DNSKEY lookup: no client asks it (clients
         * never join a valrec state) and refusing it would fail the
         * validation of a name the operator allowed.  Its response is still
         * kept out of the cache if its name is rejected (idng_mod_cb_query_response). */
        q->role = ROLE_INTERNAL;
        atomic_fetch_add(&idng_host_counters.internal, 1);
        q->phase = PH_WAIT_MODULE;
        return module_wait_module;
    }
    idng_mod_judge(set, qstate->qinfo.qname, qstate->qinfo.qname_len, &q->v);
    if (q->v.action == IDNG_ACT_NORMALIZE) {
        int r = start_normalize(qstate, id, set, q);
        if (r < 0)
            return module_error;
        if (r > 0)
            return module_wait_subquery;
    }
    if (idng_action_rejects(q->v.action))
        return reject(qstate, set, q);
    q->phase = PH_WAIT_MODULE;
    return module_wait_module;
}

/* The module is run again: a new query may arrive as pass too (sub-queries
 * do, and ours come with their state already attached), or a super whose
 * sub-query finished. */
static enum module_ext_state handle_pass(struct module_qstate *qstate, int id,
                                         const struct idng_settings *set, struct idng_q *q)
{
    switch (q->phase) {
    case PH_NEW:
        return handle_new(qstate, id, set, q);
    case PH_WAIT_SUB:
        return module_wait_subquery;
    case PH_SUB_REJECTED:
        /* Answer the client as the A-label name was answered: its verdict,
         * action and EDE. */
        return reject(qstate, set, q);
    case PH_SUB_DONE:
        q->phase = PH_DONE;
        return module_finished;
    default:
        return module_finished;
    }
}

/* The modules below are done: the answer is judged before anyone gets it. */
static enum module_ext_state handle_moddone(struct module_qstate *qstate,
                                            const struct idng_settings *set, struct idng_q *q)
{
    struct idng_verdict v;
    enum idng_scan_result found;

    if (q->role == ROLE_INTERNAL) {
        q->phase = PH_DONE;
        return module_finished;
    }
    found = qstate->return_msg
                ? idng_mod_scan_response(set, NULL, qstate->return_msg->rep, IDNG_STRIP_EXTRA, &v)
                : IDNG_SCAN_PASS;
    if (q->phase == PH_HELD && found != IDNG_SCAN_REJECT) {
        found = IDNG_SCAN_REJECT;
        v = q->held_v;
    }
    if (found == IDNG_SCAN_REJECT) {
        /* Answer as if the client had asked for the rejected name (the log
         * still shows the client's name, as its own verdict says). */
        atomic_fetch_add(&idng_host_counters.answers_rejected, 1);
        idng_verdict_for_client(&v, &q->v);
        q->v = v;
        return reject(qstate, set, q);
    }
    if (found == IDNG_SCAN_LOG && q->v.err.status == IDNG_OK && q->v.listed == IDNG_LISTED_NONE) {
        idng_verdict_for_client(&v, &q->v);
        q->v = v; /* a name in the answer is to be logged */
    }
    q->phase = PH_DONE;
    return module_finished;
}

/* The module's entry point, as dns64_operate: one handler per event, each
 * returning the module state. */
void idng_mod_operate(struct module_qstate *qstate, enum module_ev event, int id,
                      struct outbound_entry *outbound)
{
    struct idng_env *ie = env_of(qstate->env, id);
    struct idng_q *q = (struct idng_q *)qstate->minfo[id];
    const struct idng_settings *set;

    (void)outbound;
    if (!ie) {
        qstate->ext_state[id] = module_error;
        return;
    }
    if (!q) {
        q = regional_alloc_zero(qstate->region, sizeof *q);
        if (!q) {
            qstate->ext_state[id] = module_error;
            return;
        }
        q->ede = -1;
        q->role = ROLE_CLIENT;
        qstate->minfo[id] = q;
    }
    set = settings_enter(ie);
    if (atomic_load_explicit(&ie->expire, memory_order_relaxed) && atomic_exchange(&ie->expire, 0))
        idng_mod_expire_rejected(qstate->env, set);
    switch (event) {
    case module_event_new:
    case module_event_pass:
        qstate->ext_state[id] = handle_pass(qstate, id, set, q);
        break;
    case module_event_moddone:
        qstate->ext_state[id] = handle_moddone(qstate, set, q);
        break;
    default:
        qstate->ext_state[id] = module_finished;
        break;
    }
    settings_leave();
}

void idng_mod_inform_super(struct module_qstate *qstate, int id, struct module_qstate *super)
{
    struct idng_q *sq = (struct idng_q *)super->minfo[id];
    struct idng_q *q = (struct idng_q *)qstate->minfo[id];

    if (!sq)
        return;
    if (q && q->phase == PH_REJECTED) {
        /* The A-label name (or its chain) was rejected: the super takes the
         * verdict over (it holds its own copy of the label). */
        sq->phase = PH_SUB_REJECTED;
        sq->v = q->v;
        return;
    }
    sq->phase = PH_SUB_DONE;
    /* NXDOMAIN keeps its message: the client gets the CNAME and the SOA. */
    if ((qstate->return_rcode != LDNS_RCODE_NOERROR && qstate->return_rcode != LDNS_RCODE_NXDOMAIN)
        || !qstate->return_msg || !qstate->return_msg->rep) {
        super->return_rcode = qstate->return_rcode ? qstate->return_rcode : LDNS_RCODE_SERVFAIL;
        super->return_msg = NULL;
        return;
    }
    build_normalized(qstate, super);
}

void idng_mod_clear(struct module_qstate *qstate, int id)
{
    if (qstate)
        qstate->minfo[id] = NULL;
}

size_t idng_mod_get_mem(struct module_env *env, int id)
{
    struct idng_env *ie = env_of(env, id);
    const struct idng_settings *set;
    size_t n;

    if (!ie)
        return 0;
    set = settings_enter(ie);
    n = sizeof *ie + sizeof *set + idng_nameset_mem(&set->conf.policy.allow)
        + idng_nameset_mem(&set->conf.policy.deny);
    settings_leave();
    return n;
}
