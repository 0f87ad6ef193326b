/**
 * \file
 * idnguard as an Unbound module, loaded by Unbound's dynlib module
 * (module-config: "dynlib validator iterator").  The only file that includes
 * Unbound's headers; the decisions live in core_policy.c and the log lines
 * in core_log.c.
 *
 * What it does on each path:
 * - operate(new): judges the query name.  Pass and log go on to the next
 *   module; refuse/nxdomain answer at once with an EDE; drop drops; a raw
 *   UTF-8 name set to normalize is resolved as its A-label form through a
 *   sub-query and answered with a CNAME to it (as dns64 does).
 * - query_response callback (the iterator, before it caches): a response
 *   whose answer section names a rejected label is kept out of the cache,
 *   so a later query cannot be answered from the cache behind our back.
 * - operate(moddone): an answer whose CNAME/DNAME chain reaches a rejected
 *   label is handled as if the client had asked for that name.
 * - reply callbacks (resolved, cache, local data, servfail): the query log.
 *
 * Module-wide state is set up in init and read-only afterwards, apart from
 * atomic counters and a mutex around the log file.  Per-query state lives in
 * qstate->minfo[id], allocated from the query's region.
 */
#include "config.h"

#include "dynlibmod/dynlibmod.h"
#include "services/cache/dns.h"
#include "services/mesh.h"
#include "sldns/pkthdr.h"
#include "sldns/rrdef.h"
#include "util/data/dname.h"
#include "util/data/msgreply.h"
#include "util/data/packed_rrset.h"
#include "util/log.h"
#include "util/module.h"
#include "util/net_help.h"
#include "util/netevent.h"
#include "util/regional.h"

#include "core_log.h"
#include "core_policy.h"
#include "idng_conf.h"
#include "idnguard.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#define EXPORT __attribute__((visibility("default")))


/** Module-wide state, in dynlibmod_env.dyn_env. */
struct idng_env {
    struct idng_conf conf;
    FILE *logf;                 /* NULL: Unbound's own log */
    pthread_mutex_t log_lock;
    /* Queries that reached operate, by verdict class and action; list hits
     * are counted under their own rows. */
    atomic_ullong count[IDNG_CLASS_COUNT][IDNG_ACTION_COUNT];
    atomic_ullong listed[3];
    atomic_ullong normalized, answers_rejected, uncached;
    atomic_llong next_stats;
    /* Arguments of the reply callback, one per answer path. */
    struct reply_path {
        struct idng_env *ie;
        const char *name;
        enum inplace_cb_list_type type;
    } paths[4];
};

enum qstate_phase { PH_NEW, PH_WAIT_MODULE, PH_WAIT_SUB, PH_SUB_DONE };

/** Per-query state, from qstate->region. */
struct idng_q {
    enum qstate_phase phase;
    struct idng_verdict v;
    int by_policy;              /* the module answered (path "policy") */
    int ede;                    /* EDE code sent, or -1 */
    int is_sub;                 /* our normalize sub-query: its super answers */
    int sub_rejected;           /* super: the sub-query's name was rejected */
};

static struct idng_env *env_of(struct module_env *env, int id)
{
    struct dynlibmod_env *de = (struct dynlibmod_env *)env->modinfo[id];
    return de ? (struct idng_env *)de->dyn_env : NULL;
}

/* ---- logging ---- */

static void write_line(struct idng_env *ie, const char *line)
{
    if (!ie->logf) {
        log_info("idnguard: %s", line);
        return;
    }
    pthread_mutex_lock(&ie->log_lock);
    fputs(line, ie->logf);
    fputc('\n', ie->logf);
    fflush(ie->logf);
    pthread_mutex_unlock(&ie->log_lock);
}

static void format_client(struct comm_reply *rep, char *buf, size_t cap, unsigned *port)
{
    struct sockaddr_storage *a;
    *port = 0;
    buf[0] = '\0';
    if (!rep)
        return;
    a = &rep->client_addr;
    if (a->ss_family == AF_INET) {
        struct sockaddr_in *s = (struct sockaddr_in *)a;
        inet_ntop(AF_INET, &s->sin_addr, buf, (socklen_t)cap);
        *port = ntohs(s->sin_port);
    } else if (a->ss_family == AF_INET6) {
        struct sockaddr_in6 *s = (struct sockaddr_in6 *)a;
        inet_ntop(AF_INET6, &s->sin6_addr, buf, (socklen_t)cap);
        *port = ntohs(s->sin6_port);
    }
}

/* One query-log line; also used for the 'log' action when query logging is off. */
static void idng_log_query(struct idng_env *ie, struct query_info *qinfo, struct comm_reply *repinfo,
                      int rcode, const struct idng_verdict *v, int ede, const char *path)
{
    struct idng_logrec r;
    struct timeval tv;
    char line[IDNG_LOG_LINE_MAX], client[INET6_ADDRSTRLEN];
    unsigned port;
    int interesting = v->cls != IDNG_C_OK || v->listed != IDNG_LISTED_NONE;

    if (!ie->conf.log_queries && !(interesting && v->action == IDNG_ACT_LOG))
        return;
    memset(&r, 0, sizeof r);
    gettimeofday(&tv, NULL);
    r.time_sec = tv.tv_sec;
    r.time_usec = tv.tv_usec;
    format_client(repinfo, client, sizeof client, &port);
    r.client = client[0] ? client : NULL;
    r.port = port;
    if (qinfo) {
        r.qname = qinfo->qname;
        r.qname_len = qinfo->qname_len;
        r.qtype = qinfo->qtype;
        r.qclass = qinfo->qclass;
    }
    r.rcode = rcode;
    r.verdict = idng_verdict_name(v);
    if (v->name && v->label_len > 0 && v->label_off + v->label_len <= v->name_len) {
        r.label = (const char *)v->name + v->label_off;
        r.label_len = v->label_len;
    }
    r.action = idng_action_name(v->action);
    r.path = path;
    r.mode = ie->conf.mode;
    r.ede = ede;
    idng_log_format(&r, ie->conf.log_format == IDNG_LOG_JSON ? IDNG_LOGFMT_JSON : IDNG_LOGFMT_TEXT,
                    ie->logf != NULL, line, sizeof line);
    write_line(ie, line);
}

static void log_stats(struct idng_env *ie, const char *when)
{
    char line[IDNG_LOG_LINE_MAX];
    size_t n = 0;
    int c, a;

    n += (size_t)snprintf(line + n, sizeof line - n, "idnguard stats (%s):", when);
    for (c = 0; c < IDNG_CLASS_COUNT; c++)
        for (a = 0; a < IDNG_ACTION_COUNT; a++) {
            unsigned long long k = atomic_load(&ie->count[c][a]);
            if (k && n < sizeof line)
                n += (size_t)snprintf(line + n, sizeof line - n, " %s/%s=%llu",
                                      idng_class_name((idng_class)c),
                                      idng_action_name((enum idng_action)a), k);
        }
    if (n < sizeof line)
        snprintf(line + n, sizeof line - n,
                 " allow=%llu deny=%llu normalized=%llu answers-rejected=%llu uncached=%llu",
                 atomic_load(&ie->listed[IDNG_LISTED_ALLOW]),
                 atomic_load(&ie->listed[IDNG_LISTED_DENY]), atomic_load(&ie->normalized),
                 atomic_load(&ie->answers_rejected), atomic_load(&ie->uncached));
    log_info("%s", line);
}

/* Writes the counters when the interval has passed; one thread wins the slot. */
static void maybe_stats(struct idng_env *ie)
{
    long long now = (long long)time(NULL), due = atomic_load(&ie->next_stats);
    if (ie->conf.stats_interval == 0 || now < due)
        return;
    if (atomic_compare_exchange_strong(&ie->next_stats, &due, now + ie->conf.stats_interval))
        log_stats(ie, "interval");
}

/* ---- answers ---- */

/* Sends rcode with an EDE naming the label and class, or drops. */
static void reject(struct module_qstate *qstate, int id, struct idng_env *ie, struct idng_q *q)
{
    q->by_policy = 1;
    qstate->return_msg = NULL;
    qstate->ext_state[id] = module_finished;
    if (q->is_sub) {
        /* Our normalize sub-query: no client of its own; the super reads
         * the verdict in inform_super and answers its client. */
        qstate->return_rcode = LDNS_RCODE_REFUSED;
        return;
    }
    if (q->v.action == IDNG_ACT_DROP) {
        qstate->is_drop = 1;
        idng_log_query(ie, &qstate->qinfo, qstate->mesh_info && qstate->mesh_info->reply_list
                                          ? &qstate->mesh_info->reply_list->query_reply
                                          : NULL,
                  -1, &q->v, -1, "policy");
    } else {
        qstate->return_rcode =
            q->v.action == IDNG_ACT_NXDOMAIN ? LDNS_RCODE_NXDOMAIN : LDNS_RCODE_REFUSED;
        if (ie->conf.ede) {
            char text[512];
            idng_policy_ede_text(&q->v, text, sizeof text);
            if (edns_opt_list_append_ede(&qstate->edns_opts_front_out, qstate->region,
                                         (sldns_ede_code)IDNG_EDE_BLOCKED, text))
                q->ede = IDNG_EDE_BLOCKED;
        }
    }
}

/* Starts the sub-query for the A-label form of a raw UTF-8 name. */
static int start_normalize(struct module_qstate *qstate, int id, struct idng_env *ie,
                           struct idng_q *q)
{
    uint8_t alabel[256];
    size_t alen = sizeof alabel;
    struct query_info qinfo;
    struct module_qstate *subq = NULL;
    idng_error e;
    idng_status st = idng_policy_normalize(&ie->conf, qstate->qinfo.qname,
                                           qstate->qinfo.qname_len, alabel, &alen, &e);

    if (st != IDNG_OK) {
        /* Unconvertible: fall back to the setting for the failure's class. */
        q->v.status = st;
        q->v.cls = idng_status_class(st);
        q->v.label_off = e.label_off;
        q->v.label_len = e.label_len;
        q->v.codepoint = e.codepoint;
        q->v.action = idng_policy_fallback(&ie->conf, st);
        return 0;
    }
    qinfo = qstate->qinfo;
    qinfo.qname = regional_alloc_init(qstate->region, alabel, alen);
    if (!qinfo.qname)
        return -1;
    qinfo.qname_len = alen;
    qinfo.local_alias = NULL;
    if (!(*qstate->env->attach_sub)(qstate, &qinfo, qstate->query_flags, 0, 0, &subq))
        return -1;
    if (subq) {
        struct idng_q *sq = regional_alloc_zero(subq->region, sizeof *sq);
        if (!sq)
            return -1;
        sq->is_sub = 1;
        sq->ede = -1;
        subq->curmod = id;
        subq->ext_state[id] = module_state_initial;
        subq->minfo[id] = sq;
    }
    q->phase = PH_WAIT_SUB;
    atomic_fetch_add(&ie->normalized, 1);
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
    rep = cname ? construct_reply_info_base(super->region, src->flags, 1, src->ttl,
                                            src->prefetch_ttl, src->serve_expired_ttl,
                                            src->an_numrrsets + 1, src->ns_numrrsets,
                                            src->ar_numrrsets, src->rrset_count + 1,
                                            sec_status_insecure)
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

/*
 * Judges the names of an answer section: owners, and CNAME/DNAME targets.
 * Returns 2 with the verdict when one is rejected, 1 when one is to be
 * logged (action log) and none rejected, 0 when all pass.
 */
static int answer_verdict(struct idng_env *ie, struct reply_info *rep, struct idng_verdict *out)
{
    size_t i;
    int found = 0;

    if (!rep)
        return 0;
    for (i = 0; i < rep->an_numrrsets && i < rep->rrset_count; i++) {
        struct ub_packed_rrset_key *k = rep->rrsets[i];
        struct packed_rrset_data *d = (struct packed_rrset_data *)k->entry.data;
        uint16_t t = ntohs(k->rk.type);
        struct idng_verdict v;
        size_t j;

        idng_policy_judge(&ie->conf, k->rk.dname, k->rk.dname_len, &v);
        if (idng_action_rejects(v.action)) {
            *out = v;
            return 2;
        }
        if (v.action == IDNG_ACT_LOG && !found) {
            *out = v;
            found = 1;
        }
        if (t != LDNS_RR_TYPE_CNAME && t != LDNS_RR_TYPE_DNAME)
            continue;
        for (j = 0; j < d->count; j++) {
            if (d->rr_len[j] < 3)
                continue;
            idng_policy_judge(&ie->conf, d->rr_data[j] + 2, d->rr_len[j] - 2, &v);
            if (idng_action_rejects(v.action)) {
                *out = v;
                return 2;
            }
            if (v.action == IDNG_ACT_LOG && !found) {
                *out = v;
                found = 1;
            }
        }
    }
    return found;
}

/* ---- module entry points ---- */

static int idng_mod_init(struct module_env *env, int id);
static void idng_mod_deinit(struct module_env *env, int id);

static void idng_mod_operate(struct module_qstate *qstate, enum module_ev event, int id,
                        struct outbound_entry *outbound)
{
    struct idng_env *ie = env_of(qstate->env, id);
    struct idng_q *q = (struct idng_q *)qstate->minfo[id];

    (void)outbound;
    if (!ie) {
        qstate->ext_state[id] = module_error;
        return;
    }
    maybe_stats(ie);
    /* A new query may arrive as module_event_pass too (sub-queries do),
     * and our own sub-queries come with their state already attached. */
    if (event == module_event_new
        || (event == module_event_pass && (!q || q->phase == PH_NEW))) {
        if (!q) {
            q = regional_alloc_zero(qstate->region, sizeof *q);
            if (!q) {
                qstate->ext_state[id] = module_error;
                return;
            }
            q->ede = -1;
            qstate->minfo[id] = q;
        }
        idng_policy_judge(&ie->conf, qstate->qinfo.qname, qstate->qinfo.qname_len, &q->v);
        if (q->v.action == IDNG_ACT_NORMALIZE) {
            int r = start_normalize(qstate, id, ie, q);
            if (r < 0) {
                qstate->ext_state[id] = module_error;
                return;
            }
            if (r > 0) {
                atomic_fetch_add(&ie->count[q->v.cls][IDNG_ACT_NORMALIZE], 1);
                qstate->ext_state[id] = module_wait_subquery;
                return;
            }
        }
        atomic_fetch_add(&ie->count[q->v.cls][q->v.action], 1);
        atomic_fetch_add(&ie->listed[q->v.listed], 1);
        if (idng_action_rejects(q->v.action)) {
            reject(qstate, id, ie, q);
            return;
        }
        q->phase = PH_WAIT_MODULE;
        qstate->ext_state[id] = module_wait_module;
        return;
    }
    if (event == module_event_pass && q->phase == PH_SUB_DONE) {
        if (q->sub_rejected) {
            /* Answer the client as the A-label name was answered: its
             * verdict, action and EDE. */
            reject(qstate, id, ie, q);
            return;
        }
        qstate->ext_state[id] = module_finished;
        return;
    }
    if (event == module_event_pass && q->phase == PH_WAIT_SUB) {
        qstate->ext_state[id] = module_wait_subquery;
        return;
    }
    if (event == module_event_moddone) {
        struct idng_verdict v;
        int found = qstate->return_msg ? answer_verdict(ie, qstate->return_msg->rep, &v) : 0;
        if (found == 2) {
            /* Answer as if the client had asked for the rejected name. */
            atomic_fetch_add(&ie->answers_rejected, 1);
            q->v = v;
            reject(qstate, id, ie, q);
            return;
        }
        if (found == 1 && q->v.cls == IDNG_C_OK && q->v.listed == IDNG_LISTED_NONE)
            q->v = v; /* a name in the chain is to be logged */
        qstate->ext_state[id] = module_finished;
        return;
    }
    qstate->ext_state[id] = module_finished;
}

static void idng_mod_inform_super(struct module_qstate *qstate, int id, struct module_qstate *super)
{
    struct idng_q *sq = (struct idng_q *)super->minfo[id];
    struct idng_q *q = (struct idng_q *)qstate->minfo[id];

    if (!sq)
        return;
    sq->phase = PH_SUB_DONE;
    if (q && q->by_policy) {
        /* The A-label name (or its chain) was rejected: the super takes the
         * verdict over; the name it points into lives in the sub's region,
         * so it is copied. */
        sq->sub_rejected = 1;
        sq->v = q->v;
        sq->v.name = q->v.name ? regional_alloc_init(super->region, q->v.name, q->v.name_len)
                               : NULL;
        if (!sq->v.name)
            sq->v.label_len = 0;
        return;
    }
    /* NXDOMAIN keeps its message: the client gets the CNAME and the SOA. */
    if ((qstate->return_rcode != LDNS_RCODE_NOERROR
         && qstate->return_rcode != LDNS_RCODE_NXDOMAIN)
        || !qstate->return_msg || !qstate->return_msg->rep) {
        super->return_rcode = qstate->return_rcode ? qstate->return_rcode : LDNS_RCODE_SERVFAIL;
        super->return_msg = NULL;
        return;
    }
    build_normalized(qstate, super);
}

static void idng_mod_clear(struct module_qstate *qstate, int id)
{
    if (qstate)
        qstate->minfo[id] = NULL;
}

static size_t idng_mod_get_mem(struct module_env *env, int id)
{
    struct idng_env *ie = env_of(env, id);
    size_t n, i;

    if (!ie)
        return 0;
    n = sizeof *ie;
    for (i = 0; i < ie->conf.allow.count; i++)
        n += sizeof(uint8_t *) + 256;
    for (i = 0; i < ie->conf.deny.count; i++)
        n += sizeof(uint8_t *) + 256;
    return n;
}

/* ---- callbacks ---- */

static void idng_log_reply(struct query_info *qinfo, struct module_qstate *qstate,
                      struct reply_info *rep, int rcode, struct comm_reply *repinfo, int id,
                      void *arg, const char *path)
{
    struct idng_env *ie = (struct idng_env *)arg;
    struct idng_q *q = qstate ? (struct idng_q *)qstate->minfo[id] : NULL;
    struct idng_verdict v;
    int ede = -1;

    (void)id;
    if (rcode == LDNS_RCODE_NOERROR && rep)
        rcode = FLAGS_GET_RCODE(rep->flags);
    if (q) {
        v = q->v;
        ede = q->ede;
        if (q->by_policy)
            path = "policy";
    } else if (qinfo) {
        idng_policy_judge(&ie->conf, qinfo->qname, qinfo->qname_len, &v);
        /* Answered without the module: nothing was rejected or normalized
         * here, but a name whose action is log is still logged as such. */
        if (v.action != IDNG_ACT_LOG)
            v.action = IDNG_ACT_PASS;
    } else {
        memset(&v, 0, sizeof v);
        v.cls = IDNG_C_OK;
    }
    idng_log_query(ie, qinfo, repinfo, rcode, &v, ede, path);
    maybe_stats(ie);
}

/* The reply callbacks: one function, registered once per answer path with
 * an argument that names the path. */
static int cb_reply(struct query_info *qinfo, struct module_qstate *qstate, struct reply_info *rep,
                    int rcode, struct edns_data *edns, struct edns_option **opt_list_out,
                    struct comm_reply *repinfo, struct regional *region,
                    struct timeval *start_time, int id, void *arg)
{
    struct reply_path *p = (struct reply_path *)arg;

    (void)edns, (void)opt_list_out, (void)region, (void)start_time;
    idng_log_reply(qinfo, qstate, rep, rcode, repinfo, id, p->ie, p->name);
    return 1;
}

/* The iterator calls this before it stores a response in the cache. */
static int cb_query_response(struct module_qstate *qstate, struct dns_msg *response, int id,
                             void *arg)
{
    struct idng_env *ie = (struct idng_env *)arg;
    struct idng_verdict v;

    (void)id;
    if (response && !qstate->no_cache_store && answer_verdict(ie, response->rep, &v) == 2) {
        qstate->no_cache_store = 1;
        atomic_fetch_add(&ie->uncached, 1);
    }
    return 1;
}

static int idng_mod_init(struct module_env *env, int id)
{
    struct dynlibmod_env *de = (struct dynlibmod_env *)env->modinfo[id];
    struct idng_env *ie;
    char err[1024];
    const char *path = idng_conf_path();

    ie = calloc(1, sizeof *ie);
    if (!ie) {
        log_err("idnguard: out of memory");
        return 0;
    }
    idng_conf_init(&ie->conf);
    if (idng_conf_load(&ie->conf, path, err, sizeof err) != 0) {
        log_err("idnguard: %s", err);
        idng_conf_free(&ie->conf);
        free(ie);
        return 0;
    }
    if (ie->conf.log_file) {
        ie->logf = fopen(ie->conf.log_file, "a");
        if (!ie->logf) {
            log_err("idnguard: %s: log-file: %s", ie->conf.log_file, strerror(errno));
            idng_conf_free(&ie->conf);
            free(ie);
            return 0;
        }
    }
    pthread_mutex_init(&ie->log_lock, NULL);
    atomic_store(&ie->next_stats, (long long)time(NULL) + ie->conf.stats_interval);
    de->dyn_env = ie;
    {
        static const struct {
            const char *name;
            enum inplace_cb_list_type type;
        } paths[4] = {{"resolved", inplace_cb_reply},
                      {"cache", inplace_cb_reply_cache},
                      {"local", inplace_cb_reply_local},
                      {"servfail", inplace_cb_reply_servfail}};
        size_t i;
        int ok = 1;
        for (i = 0; i < 4; i++) {
            ie->paths[i].ie = ie;
            ie->paths[i].name = paths[i].name;
            ie->paths[i].type = paths[i].type;
            ok = ok && de->inplace_cb_register_wrapped((void *)cb_reply, paths[i].type,
                                                       &ie->paths[i], env, id);
        }
        ok = ok && de->inplace_cb_register_wrapped((void *)cb_query_response,
                                                   inplace_cb_query_response, ie, env, id);
        if (!ok) {
            log_err("idnguard: could not register callbacks");
            idng_mod_deinit(env, id);
            return 0;
        }
    }
    log_info("idnguard: loaded %s (mode %s, Unicode %s)", path, idng_mode_name(ie->conf.mode),
             IDNG_UNICODE_VERSION);
    return 1;
}

static void idng_mod_deinit(struct module_env *env, int id)
{
    struct dynlibmod_env *de = (struct dynlibmod_env *)env->modinfo[id];
    struct idng_env *ie = de ? (struct idng_env *)de->dyn_env : NULL;
    size_t i;

    if (!ie)
        return;
    for (i = 0; i < 4; i++)
        de->inplace_cb_delete_wrapped(env, ie->paths[i].type, id);
    de->inplace_cb_delete_wrapped(env, inplace_cb_query_response, id);
    log_stats(ie, "shutdown");
    if (ie->logf)
        fclose(ie->logf);
    pthread_mutex_destroy(&ie->log_lock);
    idng_conf_free(&ie->conf);
    free(ie);
    de->dyn_env = NULL;
}

/* The six names dynlib looks up; nothing else is exported. */
EXPORT int init(struct module_env *env, int id);
EXPORT void deinit(struct module_env *env, int id);
EXPORT void operate(struct module_qstate *qstate, enum module_ev event, int id,
                    struct outbound_entry *entry);
EXPORT void inform_super(struct module_qstate *qstate, int id, struct module_qstate *super);
EXPORT void clear(struct module_qstate *qstate, int id);
EXPORT size_t get_mem(struct module_env *env, int id);

EXPORT int init(struct module_env *env, int id) { return idng_mod_init(env, id); }
EXPORT void deinit(struct module_env *env, int id) { idng_mod_deinit(env, id); }
EXPORT void operate(struct module_qstate *qstate, enum module_ev event, int id,
                    struct outbound_entry *entry) { idng_mod_operate(qstate, event, id, entry); }
EXPORT void inform_super(struct module_qstate *qstate, int id, struct module_qstate *super)
{ idng_mod_inform_super(qstate, id, super); }
EXPORT void clear(struct module_qstate *qstate, int id) { idng_mod_clear(qstate, id); }
EXPORT size_t get_mem(struct module_env *env, int id) { return idng_mod_get_mem(env, id); }
