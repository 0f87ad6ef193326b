/**
 * \file
 * idnguard as an Unbound module, loaded by Unbound's dynlib module
 * (module-config: "dynlib validator iterator").  The only file that includes
 * Unbound's headers; the decisions live in idng_policy.c and the log lines
 * in idng_log.c.
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
 * atomic counters, a mutex around the log file, and the settings in force:
 * those are replaced whole when their file changes (conf/idng_watch.h), and
 * every entry point reads them inside a read section (settings_enter ...
 * settings_leave), never keeping a pointer into them past it: per-query
 * state holds copies.  Per-query state lives in qstate->minfo[id],
 * allocated from the query's region.
 */
#include "config.h"

#include "dynlibmod/dynlibmod.h"
#include "services/cache/dns.h"
#include "services/cache/rrset.h"
#include "services/mesh.h"
#include "sldns/pkthdr.h"
#include "sldns/rrdef.h"
#include "util/config_file.h"
#include "util/data/dname.h"
#include "util/data/msgencode.h"
#include "util/data/msgreply.h"
#include "util/data/packed_rrset.h"
#include "util/log.h"
#include "util/module.h"
#include "util/net_help.h"
#include "util/netevent.h"
#include "util/regional.h"
#include "util/storage/slabhash.h"

#include "idng_log.h"
#include "idng_memo.h"
#include "idng_out.h"
#include "idng_policy.h"
#include "idng_scan.h"
#include "idng_stats.h"
#include "idng_conf.h"
#include "idng_watch.h"
#include "idnguard.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#define EXPORT __attribute__((visibility("default")))


/** Module-wide state, in dynlibmod_env.dyn_env. */
struct idng_env {
    /* The settings in force (conf, their generation, the log file), the
     * thread that applies a changed file, and the stats timer, which logs
     * the counters and replaces the stats file every stats-interval
     * seconds (conf/idng_watch.h). */
    struct idng_watch watch;
    /* 1: settings were applied without a reload, and what Unbound's cache
     * holds that they reject is still to be expired (expire_rejected, by
     * the next worker that runs the module). */
    atomic_int expire;
    /* Arguments of the reply callback, one per answer path. */
    struct reply_path {
        struct idng_env *ie;
        enum idng_path path;
        enum inplace_cb_list_type type;
    } paths[4];
};

/**
 * Where a query stands in the module: one value, no side flags.  The
 * transitions (idng_mod_operate's handlers, the pre-cache callback and
 * inform_super):
 *   NEW -> WAIT_MODULE                 passed on to the modules below
 *   NEW -> WAIT_SUB                    a raw name's A-label form is asked
 *   NEW -> REJECTED                    refused, NXDOMAINed or dropped
 *   WAIT_MODULE -> HELD                an RD=0 response was rejected before
 *                                      the cache (cb_query_response)
 *   WAIT_MODULE, HELD -> DONE|REJECTED the answer judged at moddone
 *   WAIT_SUB -> SUB_DONE|SUB_REJECTED  the sub-query finished (inform_super)
 *   SUB_DONE -> DONE, SUB_REJECTED -> REJECTED
 */
enum qstate_phase {
    PH_NEW,          /* not judged yet */
    PH_WAIT_MODULE,  /* judged and passed on to the modules below */
    PH_HELD,         /* passed on, and a response was rejected before the cache:
                        held_v is the client's verdict */
    PH_WAIT_SUB,     /* waiting for the normalize sub-query */
    PH_SUB_DONE,     /* the sub-query's answer is the super's (build_normalized) */
    PH_SUB_REJECTED, /* the sub-query's name was rejected: answer the same way */
    PH_REJECTED,     /* the module answered with the verdict's action (path "policy") */
    PH_DONE          /* finished: the answer is the modules' below */
};

/** Whose query a module state is. */
enum qstate_role {
    ROLE_CLIENT,   /* a client's query (or a prefetch of one) */
    ROLE_SUB,      /* our normalize sub-query: its super answers the client,
                      though other clients may join it */
    ROLE_INTERNAL  /* the validator's own lookup (is_valrec): passed unjudged */
};

/** Per-query state, from qstate->region. */
struct idng_q {
    enum qstate_phase phase;
    enum qstate_role role;
    struct idng_verdict v;
    int ede;                    /* EDE code attached, or -1 */
    const uint8_t *target;      /* super: the A-label name resolved (its region) */
    size_t target_len;
    struct idng_verdict held_v; /* PH_HELD: the verdict of the rejected response */
};

/*
 * The settings in force, kept across reloads.  On SIGHUP and
 * `unbound-control reload` dynlib runs deinit, dlclose, dlopen and init.
 * At its first init the module pins itself in memory (RTLD_NODELETE), so
 * this survives the dlclose: deinit leaves its settings here, and an init
 * whose file does not load takes them back instead of failing, which would
 * stop the resolver; one whose file loads says what changed from them.  At
 * the first start there is nothing to keep, and bad settings stop Unbound,
 * so that a broken deploy is seen.  Only init and deinit touch this (and
 * the exit handler, log_final_stats), and Unbound runs them with no worker
 * serving.
 *
 * A deinit cannot tell a reload from a stop: Unbound calls it the same way
 * for both (daemon/daemon.c: from daemon_fork on a reload, from
 * daemon_delete at the stop) and nothing it is given says which.  So the
 * counters line of a stop is left to the process's exit, which comes only
 * when no init followed (stopping); the pinned module's exit handler
 * writes it into Unbound's log as Unbound's settings had it.
 */
static struct {
    int pinned;
    int have;            /* conf holds the settings of the last deinit */
    struct idng_conf conf;
    time_t loaded_at;    /* when conf was read from its file */
    int stopping;        /* a deinit was the last call: the counters line is owed at exit */
    /* Unbound's log as its settings had it at the last init, for the
     * counters line at exit (the strings malloc'd). */
    struct idng_daemon_log log;
} kept;

/* The counters (idng_stats.h), cumulative since the daemon started: in the
 * pinned module they outlive reloads too.  Atomic: every worker counts. */
static struct idng_counters counters;
/* Each thread's state, in one thread-local block so that a cache hit looks
 * it up once: its remembered verdicts of the cache-hit path (idng_memo.h,
 * keyed by the settings generation), and its side of the read sections of
 * the settings in force (idng_live.h). */
static _Thread_local struct thread_state {
    struct idng_memo memo;
    struct idng_live_reader reader;
} ts;

static struct idng_env *env_of(struct module_env *env, int id)
{
    struct dynlibmod_env *de = (struct dynlibmod_env *)env->modinfo[id];
    return de ? (struct idng_env *)de->dyn_env : NULL;
}

/* The settings in force, for one entry point: valid until settings_leave,
 * which every path out of it calls. */
static const struct idng_settings *settings_enter(struct idng_env *ie)
{
    return idng_watch_enter_as(&ie->watch, &ts.reader);
}

static void settings_leave(void)
{
    idng_watch_leave_as(&ts.reader);
}

/* ---- logging ---- */

static void write_line(const struct idng_settings *set, const char *line, size_t len)
{
    if (!set->logf) {
        /* Through Unbound's log (or syslog), after Unbound's own "info: "
         * a text line is "idnguard: ..." and a JSON line is the object
         * alone, so the message part parses as one JSON value. */
        if (set->conf.log_format == IDNG_LOGFMT_JSON)
            log_info("%s", line);
        else
            log_info("idnguard: %s", line);
        return;
    }
    if (idng_logfile_write(set->logf, line, len) != 0)
        atomic_fetch_add(&counters.log_errors, 1); /* dropped: the disk is behind */
}

/* The client's address as text; with anonymize, cut to its /24 (IPv4) or
 * /48 (IPv6) network, as Pi-hole and AdGuard Home offer. */
static void format_client(struct comm_reply *rep, int anonymize, char *buf, size_t cap,
                          unsigned *port)
{
    struct sockaddr_storage *a;
    *port = 0;
    buf[0] = '\0';
    if (!rep)
        return;
    a = &rep->client_addr;
    if (a->ss_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)a;
        idng_log_client(&in->sin_addr, 4, anonymize, buf, cap);
        *port = ntohs(in->sin_port);
    } else if (a->ss_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)a;
        idng_log_client(&in6->sin6_addr, 16, anonymize, buf, cap);
        *port = ntohs(in6->sin6_port);
    }
}

/* The transport a query came over, where Unbound says. */
static const char *transport_of(const struct comm_reply *rep)
{
    if (!rep || !rep->c)
        return NULL;
    switch (rep->c->type) {
    case comm_udp:
        return "udp";
    case comm_tcp:
        return rep->c->ssl ? "tls" : "tcp";
    case comm_http:
        return "https";
    default:
        return NULL;
    }
}

/* What a line says beyond the verdict: the normalize target, the time the
 * answer took. */
struct line_extra {
    const uint8_t *target;
    size_t target_len;
    const struct timeval *start;
};

/* One client answered (or dropped): counted, and its query-log line, which
 * is written with log-queries: yes, and for the 'log' action always. */
static void idng_log_query(const struct idng_settings *set, struct query_info *qinfo,
                           struct comm_reply *repinfo, int rcode, const struct idng_verdict *v,
                           int ede, enum idng_path path, const struct line_extra *x)
{
    struct idng_logrec r;
    struct timeval tv;
    char line[IDNG_LOG_LINE_MAX], client[INET6_ADDRSTRLEN];
    unsigned port;
    size_t n;

    idng_counters_answer(&counters, v, path);
    if (!idng_conf_logs(&set->conf, v))
        return;
    memset(&r, 0, sizeof r);
    gettimeofday(&tv, NULL);
    r.time_sec = tv.tv_sec;
    r.time_usec = tv.tv_usec;
    format_client(repinfo, set->conf.anonymize_clients, client, sizeof client, &port);
    r.client = client[0] ? client : NULL;
    r.port = port;
    if (qinfo) {
        r.qname = qinfo->qname;
        r.qname_len = qinfo->qname_len;
        r.qtype = qinfo->qtype;
        r.qclass = qinfo->qclass;
    }
    r.rcode = rcode;
    idng_logrec_verdict(&r, v, set->conf.policy.mode);
    r.path = idng_path_name(path);
    r.ede = ede;
    r.transport = transport_of(repinfo);
    if (x && x->target) {
        r.target = x->target;
        r.target_len = x->target_len;
    }
    if (x && x->start && x->start->tv_sec > 0) {
        r.has_elapsed = 1;
        r.elapsed_us = ((long long)tv.tv_sec - x->start->tv_sec) * 1000000LL
                       + ((long long)tv.tv_usec - x->start->tv_usec);
    }
    n = idng_log_format(&r, set->conf.log_format == IDNG_LOGFMT_JSON ? IDNG_LOGFMT_JSON
                                                                      : IDNG_LOGFMT_TEXT,
                        set->logf != NULL, line, sizeof line);
    write_line(set, line, n);
}

/*
 * The counters outward: the summary line in Unbound's log, labelled when
 * ("interval"; none when NULL), and the stats file replaced atomically
 * (written beside it, then renamed), so that a reader (node_exporter's
 * textfile collector) never sees half a file.
 */
static void emit_stats(const struct idng_settings *set, const char *when)
{
    static char text[128 * 1024]; /* one writer at a time: the stats thread, or deinit */
    struct idng_stats st;
    char line[IDNG_LOG_LINE_MAX], err[4300];
    size_t n;

    idng_counters_snapshot(&counters, &st);
    if (when) {
        idng_stats_line(&st, when, line, sizeof line);
        log_info("%s", line);
    }
    if (!set->conf.stats_file)
        return;
    n = idng_stats_prometheus(&st, PACKAGE_VERSION, set->conf.policy.mode, text, sizeof text);
    if (n >= sizeof text)
        log_err("idnguard: stats-file: too much to write");
    else if (idng_file_replace(set->conf.stats_file, text, n, err, sizeof err) != 0)
        log_err("idnguard: stats-file: %s", err);
}

static void stats_tick(void *arg)
{
    const struct idng_settings *set = settings_enter(arg);

    emit_stats(set, "interval");
    settings_leave();
}

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

/* idng_policy_judge of a client's name through this thread's remembered
 * verdicts: a name found ok before is not judged again (idng_memo.h). */
static void judge_name(const struct idng_settings *set, const uint8_t *wire, size_t len,
                       struct idng_verdict *v)
{
    idng_memo_verdict(&ts.memo, set->gen, &set->conf.policy, wire, len, 0, v);
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
    s->memo = &ts.memo;
    s->gen = set->gen;
}

/*
 * Runs the policy's response scan (idng_policy.h) over a response: qi (may
 * be NULL) is the name it is for; RRsets the scan says to remove (strip)
 * are removed from rep and counted.
 */
static enum idng_scan_result scan_response(const struct idng_settings *set,
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
        atomic_fetch_add(&counters.stripped, 1);
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
 * (cb_query_response) would now keep out, and every message whose name
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
    idng_memo_judge(&ts.memo, x->set->gen, &x->set->conf.policy, k->key.qname, k->key.qname_len,
                    &b);
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
static void expire_rejected(struct module_env *env, const struct idng_settings *set)
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

/* The watch published new settings (conf/idng_watch.h).  Every change
 * costs one pass over the caches; a summary of what changed (which keys)
 * could spare it when the policy stayed the same. */
static void settings_applied(void *arg)
{
    atomic_store(&((struct idng_env *)arg)->expire, 1);
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
            idng_log_query(set, &qi, &r->query_reply, -1, &q->v, -1, IDNG_PATH_POLICY, &x);
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
    atomic_fetch_add(&counters.normalized, 1);
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

/* ---- the module's states ---- */

/* A query new to the module: judged, unless it is the validator's own. */
static enum module_ext_state handle_new(struct module_qstate *qstate, int id,
                                        const struct idng_settings *set, struct idng_q *q)
{
    if (q->role == ROLE_CLIENT && qstate->is_valrec) {
        /* The validator's DS/DNSKEY lookup: no client asks it (clients
         * never join a valrec state) and refusing it would fail the
         * validation of a name the operator allowed.  Its response is still
         * kept out of the cache if its name is rejected (cb_query_response). */
        q->role = ROLE_INTERNAL;
        atomic_fetch_add(&counters.internal, 1);
        q->phase = PH_WAIT_MODULE;
        return module_wait_module;
    }
    judge_name(set, qstate->qinfo.qname, qstate->qinfo.qname_len, &q->v);
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
                ? scan_response(set, NULL, qstate->return_msg->rep, IDNG_STRIP_EXTRA, &v)
                : IDNG_SCAN_PASS;
    if (q->phase == PH_HELD && found != IDNG_SCAN_REJECT) {
        found = IDNG_SCAN_REJECT;
        v = q->held_v;
    }
    if (found == IDNG_SCAN_REJECT) {
        /* Answer as if the client had asked for the rejected name (the log
         * still shows the client's name, as its own verdict says). */
        atomic_fetch_add(&counters.answers_rejected, 1);
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

static int idng_mod_init(struct module_env *env, int id);
static void idng_mod_deinit(struct module_env *env, int id);

/* The module's entry point, as dns64_operate: one handler per event, each
 * returning the module state. */
static void idng_mod_operate(struct module_qstate *qstate, enum module_ev event, int id,
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
        expire_rejected(qstate->env, set);
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

static void idng_mod_inform_super(struct module_qstate *qstate, int id, struct module_qstate *super)
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

/* ---- callbacks ---- */

/*
 * Was the module's EDE sent to this client?  Only with EDNS, and only when
 * the OPT record fits: a refusal is encoded by error_encode, which leaves
 * the whole OPT record out when the question and options exceed the
 * client's UDP size.
 */
static int ede_sent(const struct query_info *qinfo, const struct edns_data *edns,
                    struct edns_option **opt_list_out, int ede)
{
    const struct edns_option *o;
    size_t size;
    int found = 0;

    if (ede < 0 || !edns || !edns->edns_present || !qinfo || !opt_list_out)
        return 0;
    size = LDNS_HEADER_SIZE + qinfo->qname_len + 4 + 11;
    for (o = edns->opt_list_out; o; o = o->next)
        size += 4 + o->opt_len;
    for (o = *opt_list_out; o; o = o->next) {
        size += 4 + o->opt_len;
        found |= o->opt_code == LDNS_EDNS_EDE && o->opt_len >= 2
                 && sldns_read_uint16(o->opt_data) == (uint16_t)ede;
    }
    return found && size <= edns->udp_size;
}

/*
 * The question of a query the worker answered without parsing it into a
 * query_info (CHAOS version.bind and friends): read from the query packet,
 * still in the buffer when the local-answer callback runs.
 */
static int question_of(struct comm_reply *repinfo, struct query_info *qi)
{
    sldns_buffer *b = repinfo && repinfo->c ? repinfo->c->buffer : NULL;
    size_t len, nlen;
    uint8_t *p;

    if (!b || sldns_buffer_limit(b) < LDNS_HEADER_SIZE + 5)
        return 0;
    p = sldns_buffer_begin(b);
    len = sldns_buffer_limit(b);
    if (LDNS_QDCOUNT(p) != 1)
        return 0;
    nlen = idng_wire_len(p + LDNS_HEADER_SIZE, len - LDNS_HEADER_SIZE);
    if (nlen == 0 || LDNS_HEADER_SIZE + nlen + 4 > len)
        return 0;
    memset(qi, 0, sizeof *qi);
    qi->qname = p + LDNS_HEADER_SIZE;
    qi->qname_len = nlen;
    qi->qtype = sldns_read_uint16(p + LDNS_HEADER_SIZE + nlen);
    qi->qclass = sldns_read_uint16(p + LDNS_HEADER_SIZE + nlen + 2);
    return 1;
}

/*
 * A client answered: counted and logged.  t is this thread's state (ts),
 * looked up once for the read section and the remembered verdicts, as
 * every cache hit comes here.
 */
static void idng_log_reply(struct query_info *qinfo, struct module_qstate *qstate,
                           struct reply_info *rep, int rcode, struct edns_data *edns,
                           struct edns_option **opt_list_out, struct comm_reply *repinfo, int id,
                           struct idng_env *ie, enum idng_path path,
                           const struct timeval *start, struct thread_state *t)
{
    struct idng_q *q = qstate ? (struct idng_q *)qstate->minfo[id] : NULL;
    const struct idng_settings *set;
    struct query_info chaos;
    struct idng_verdict v;
    int ede = -1;
    int cache = path == IDNG_PATH_CACHE;

    /* An opaque value from here on: the compiler would rather look the
     * thread-local block up again at each use (a call to __tls_get_addr
     * in a library loaded with dlopen) than keep its address. */
    __asm__("" : "+r"(t));
    set = idng_watch_enter_as(&ie->watch, &t->reader);

    /* The rcode is the reply's: on a cache hit the value passed is the
     * query's own RCODE bits, which the client chose. */
    if (rep && (cache || rcode == LDNS_RCODE_NOERROR))
        rcode = FLAGS_GET_RCODE(rep->flags);
    else if (cache)
        rcode = LDNS_RCODE_NOERROR;
    if (!qinfo && question_of(repinfo, &chaos))
        qinfo = &chaos;
    if (q) {
        v = q->v;
        ede = ede_sent(qinfo, edns, opt_list_out, q->ede) ? q->ede : -1;
        if (q->phase == PH_REJECTED)
            path = IDNG_PATH_POLICY;
    } else if (qinfo) {
        /* Answered without the module: nothing was rejected or normalized
         * here, but a name whose action is log is still logged as such.
         * Unless that or log-queries makes a line, the answer is only
         * counted.  This thread remembers what it needs of the verdicts
         * (idng_memo.h); a line needs the whole verdict, which for a name
         * found ok is known without judging it again. */
        if (!set->conf.log_queries) {
            struct idng_brief b;

            idng_memo_judge(&t->memo, set->gen, &set->conf.policy, qinfo->qname,
                            qinfo->qname_len, &b);
            if (b.action != IDNG_ACT_LOG) {
                idng_counters_count(&counters, b.row, IDNG_ACT_PASS, path);
                goto out;
            }
        }
        judge_name(set, qinfo->qname, qinfo->qname_len, &v);
        if (v.action != IDNG_ACT_LOG)
            v.action = IDNG_ACT_PASS;
    } else {
        memset(&v, 0, sizeof v);
        v.err.status = IDNG_OK;
    }
    {
        struct line_extra x = {q ? q->target : NULL, q ? q->target_len : 0, start};
        idng_log_query(set, qinfo, repinfo, rcode, &v, ede, path, &x);
    }
out:
    idng_watch_leave_as(&t->reader);
}

/* The reply callbacks: one function, registered once per answer path with
 * an argument that names the path. */
static int cb_reply(struct query_info *qinfo, struct module_qstate *qstate, struct reply_info *rep,
                    int rcode, struct edns_data *edns, struct edns_option **opt_list_out,
                    struct comm_reply *repinfo, struct regional *region,
                    struct timeval *start_time, int id, void *arg)
{
    struct reply_path *p = (struct reply_path *)arg;

    (void)region;
    idng_log_reply(qinfo, qstate, rep, rcode, edns, opt_list_out, repinfo, id, p->ie, p->path,
                   start_time, &ts);
    return 1;
}

/* The iterator calls this with every response, before it stores anything
 * of it in the message or RRset cache, and with none (response NULL) when
 * a server did not answer, before it may store a SERVFAIL for the name. */
static void guard_response(struct module_qstate *qstate, struct dns_msg *response, int id,
                           const struct idng_settings *set)
{
    struct idng_q *q = (struct idng_q *)qstate->minfo[id];
    struct idng_verdict v;

    if (qstate->no_cache_store)
        return;
    /* The name the state resolves (an internal lookup's name is judged
     * nowhere else), then the response: the name it is for and its data. */
    if (!response || query_dname_compare(qstate->qinfo.qname, response->qinfo.qname) != 0)
        idng_policy_judge_data(&set->conf.policy, qstate->qinfo.qname, qstate->qinfo.qname_len,
                               &v);
    else
        v.action = IDNG_ACT_PASS; /* the same name: judged with the response */
    if (!idng_action_rejects(v.action)
        && !(response
             && scan_response(set, &response->qinfo, response->rep, IDNG_STRIP_NONE, &v)
                    == IDNG_SCAN_REJECT))
        return;
    qstate->no_cache_store = 1;
    atomic_fetch_add(&counters.uncached, 1);
    if (response && !(qstate->query_flags & BIT_RD)) {
        /* An RD=0 query (access-control allow_snoop): Unbound's validator
         * stores every RRset of such an answer in the RRset cache whatever
         * no_cache_store says, where later answers are built from.  So the
         * rejected RRsets leave the response here, and the verdict is held
         * for handle_moddone, which answers the client with it. */
        scan_response(set, NULL, response->rep, IDNG_STRIP_ALL, NULL);
        if (q && q->phase == PH_WAIT_MODULE) {
            q->phase = PH_HELD;
            q->held_v = v;
        }
    }
}

static int cb_query_response(struct module_qstate *qstate, struct dns_msg *response, int id,
                             void *arg)
{
    const struct idng_settings *set = settings_enter(arg);

    guard_response(qstate, response, id, set);
    settings_leave();
    return 1;
}

static void pin_module(void)
{
    Dl_info info;

    if (kept.pinned)
        return;
    if (dladdr((void *)&pin_module, &info) && info.dli_fname
        && dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE))
        kept.pinned = 1;
    else
        log_warn("idnguard: cannot pin the module in memory: a bad settings file on reload "
                 "will stop unbound");
}

static void drop_kept(void)
{
    if (kept.have)
        idng_conf_free(&kept.conf);
    kept.have = 0;
}

/*
 * At exit: when a deinit was the module's last call, the daemon stopped,
 * and this is the counters line of the stop.  By now Unbound's own
 * logging is gone (main closes its log and destroys its lock before it
 * returns), so the line goes where Unbound's settings sent its log, in the
 * shape of Unbound's lines (idng_daemon_log_line).  Then the kept settings
 * go, so no leak checker sees them.  A destructor of the module: it runs
 * at exit only when the module is pinned (else at each dlclose, when
 * nothing is owed).
 */
__attribute__((destructor)) static void log_final_stats(void)
{
    if (kept.stopping)
        idng_daemon_log_counters(&kept.log, &counters, "shutdown");
    kept.stopping = 0;
    drop_kept();
    idng_daemon_log_free(&kept.log);
}

/* Logs a parser report, one problem a line, each a line of its own. */
static void log_report(const char *text, int warning)
{
    while (*text) {
        const char *nl = strchr(text, '\n');
        int n = nl ? (int)(nl - text) : (int)strlen(text);
        if (warning)
            log_warn("idnguard: %.*s", n, text);
        else
            log_err("idnguard: %.*s", n, text);
        text += n + (nl != NULL);
    }
}

static void warn_log(void *arg, const char *msg)
{
    (void)arg;
    log_err("idnguard: %s", msg);
}

/* What the settings watch says (conf/idng_watch.h), in Unbound's log. */
static void watch_say(void *arg, int level, const char *text)
{
    (void)arg;
    if (level == IDNG_WATCH_INFO)
        log_info("idnguard: %s", text);
    else if (level == IDNG_WATCH_WARN)
        log_warn("idnguard: %s", text);
    else
        log_err("idnguard: %s", text);
}

/* The module's own log file (idng_out.h): workers never wait on its disk. */
static struct idng_logfile *open_logfile(const char *path, char *err, size_t errlen)
{
    struct idng_logfile_opts o = {0};

    o.flush_ms = IDNG_LOG_FLUSH_MS;
    o.warn = warn_log;
    o.errors = &counters.log_errors;
    return idng_logfile_open(path, &o, err, errlen);
}

/** What load_settings did. */
enum load_result {
    LOAD_FAILED = -1, /* a first start whose file did not load (logged) */
    LOAD_FIRST,       /* the first start's file loaded */
    LOAD_RELOADED,    /* a reload's file loaded; what changed is in changes */
    LOAD_KEPT         /* a reload's file did not load (logged): the kept settings go on */
};

/*
 * Loads the settings file into set, or on a reload whose file does not
 * load (or whose log file cannot be opened) takes the kept settings back.
 * On a reload that loads, changes gets what changed from the kept settings
 * (idng_conf_diff).
 */
static enum load_result load_settings(struct idng_settings *set, const char *path, char *changes,
                                      size_t cap)
{
    static char err[8192]; /* init and deinit only: one at a time */
    struct idng_conf_sources tried = {0};
    int loaded;
    enum load_result r;

    idng_conf_init(&set->conf);
    loaded = idng_conf_load_sources(&set->conf, path, 0, &tried, err, sizeof err) == 0;
    if (loaded && err[0])
        log_report(err, 1);
    if (loaded && set->conf.log_file
        && !(set->logf = open_logfile(set->conf.log_file, err, sizeof err))) {
        tried = set->conf.sources;
        memset(&set->conf.sources, 0, sizeof set->conf.sources);
        idng_conf_free(&set->conf);
        loaded = 0;
    }
    set->gen = idng_settings_gen();
    if (loaded) {
        r = kept.have ? LOAD_RELOADED : LOAD_FIRST;
        if (kept.have)
            idng_conf_diff(&kept.conf, &set->conf, changes, cap);
        set->loaded_at = time(NULL);
        drop_kept();
        return r;
    }
    log_report(err, 0);
    if (!kept.have) {
        idng_conf_sources_free(&tried);
        return LOAD_FAILED;
    }
    atomic_fetch_add(&counters.reload_failures, 1);
    set->conf = kept.conf;
    /* The watch waits for a change of what the failed load read. */
    idng_conf_sources_free(&set->conf.sources);
    set->conf.sources = tried;
    set->loaded_at = kept.loaded_at;
    kept.have = 0;
    if (set->conf.log_file && !(set->logf = open_logfile(set->conf.log_file, err, sizeof err)))
        log_err("idnguard: %s; query lines go to unbound's log", err);
    return LOAD_KEPT;
}

/* The line that ends init: what was loaded, or that a reload was not. */
static void log_loaded(const struct idng_settings *set, const char *path, enum load_result r,
                       const char *changes)
{
    char when[32];
    struct tm tm;

    switch (r) {
    case LOAD_FIRST:
        log_info("idnguard: loaded %s (mode %s, Unicode %s; idnguard %s built against Unbound %s)",
                 path, idng_mode_name(set->conf.policy.mode), IDNG_UNICODE_VERSION, IDNG_VERSION,
                 PACKAGE_VERSION);
        break;
    case LOAD_RELOADED:
        log_info("idnguard: reloaded %s: %s", path, changes);
        break;
    case LOAD_KEPT:
        if (!gmtime_r(&set->loaded_at, &tm)
            || !strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm))
            snprintf(when, sizeof when, "an unknown time");
        log_err("idnguard: reload failed (reload failures: %llu); still running with the settings "
                "loaded at %s (mode %s)",
                (unsigned long long)atomic_load(&counters.reload_failures), when,
                idng_mode_name(set->conf.policy.mode));
        break;
    case LOAD_FAILED:
        break;
    }
}

/*
 * Does this daemon come from the build the module was compiled against?
 * Structure layouts change between versions and with configure options, so
 * a module built elsewhere would misread them.  What both sides can see
 * without touching a structure:
 * - the version: the daemon's executable holds PACKAGE_STRING ("unbound
 *   1.17.1"), which it logs at start; the module has its own build's;
 * - the configure options that change layouts or add modules: the daemon
 *   exports the functions those options compile in (dlsym finds them, or
 *   not), and the module knows from config.h which it expects.
 * Returns 1 when they match (or the version cannot be read, e.g. in a
 * chroot without /proc: then only the options are compared), else 0 with
 * the one-line reason in why.
 */
static const struct build_option {
    const char *name, *symbol;
    int expected;
} build_options[] = {
    {"dnstap", "dt_create",
#ifdef USE_DNSTAP
     1
#else
     0
#endif
    },
    {"dnscrypt", "dnsc_create",
#ifdef USE_DNSCRYPT
     1
#else
     0
#endif
    },
    {"DNS-over-HTTPS (nghttp2)", "http2_stream_create",
#ifdef HAVE_NGHTTP2
     1
#else
     0
#endif
    },
    {"subnetcache", "subnetmod_get_funcblock",
#ifdef CLIENT_SUBNET
     1
#else
     0
#endif
    },
    {"cachedb", "cachedb_get_funcblock",
#ifdef USE_CACHEDB
     1
#else
     0
#endif
    },
    {"ipsecmod", "ipsecmod_get_funcblock",
#ifdef USE_IPSECMOD
     1
#else
     0
#endif
    },
    {"python", "pythonmod_get_funcblock",
#ifdef WITH_PYTHONMODULE
     1
#else
     0
#endif
    },
    {"ipset", "ipset_get_funcblock",
#ifdef USE_IPSET
     1
#else
     0
#endif
    },
};

/* 1 when the file at path holds the octets needle, 0 when not, -1 when it
 * cannot be read. */
static int file_holds(const char *path, const char *needle)
{
    static char buf[65536 + 64];
    size_t nl = strlen(needle), keep = 0, got;
    FILE *f = fopen(path, "rb");
    int found = 0;

    if (!f)
        return -1;
    while (!found && (got = fread(buf + keep, 1, sizeof buf - keep, f)) > 0) {
        size_t have = keep + got;
        found = memmem(buf, have, needle, nl) != NULL;
        keep = have < nl ? have : nl - 1;
        memmove(buf, buf + have - keep, keep);
    }
    fclose(f);
    return found;
}

static int build_matches(char *why, size_t cap)
{
    char mine[256] = "", theirs[256] = "";
    size_t i, m = 0, t = 0;
    int same = 1, exe = file_holds("/proc/self/exe", PACKAGE_STRING);

    if (exe == 0)
        same = 0;
    for (i = 0; i < sizeof build_options / sizeof build_options[0]; i++) {
        const struct build_option *o = &build_options[i];
        int has = dlsym(RTLD_DEFAULT, o->symbol) != NULL;
        if (has != o->expected)
            same = 0;
        m += (size_t)snprintf(mine + m, m < sizeof mine ? sizeof mine - m : 0, "%s%s %s",
                              m ? ", " : "", o->name, o->expected ? "yes" : "no");
        t += (size_t)snprintf(theirs + t, t < sizeof theirs ? sizeof theirs - t : 0, "%s%s %s",
                              t ? ", " : "", o->name, has ? "yes" : "no");
    }
    if (!same)
        snprintf(why, cap,
                 "built for %s (%s) but loaded into %s (%s): refusing to load; rebuild the module "
                 "against this daemon's configured source tree (make UNBOUND_SRC=...)",
                 PACKAGE_STRING, mine, exe == 0 ? "another version of unbound" : PACKAGE_STRING,
                 theirs);
    return same;
}

static int idng_mod_init(struct module_env *env, int id)
{
    struct dynlibmod_env *de = (struct dynlibmod_env *)env->modinfo[id];
    struct idng_env *ie;
    struct idng_settings *set;
    struct idng_watch_ops ops = {0};
    const char *path = idng_conf_path();
    static char changes[4096]; /* init only: one at a time */
    char why[1024];
    enum load_result loaded;

    if (!build_matches(why, sizeof why)) {
        log_err("idnguard: %s", why);
        return 0;
    }
    pin_module();
    ie = calloc(1, sizeof *ie);
    set = calloc(1, sizeof *set);
    if (!ie || !set) {
        log_err("idnguard: out of memory");
        free(ie);
        free(set);
        return 0;
    }
    if ((loaded = load_settings(set, path, changes, sizeof changes)) == LOAD_FAILED) {
        free(set);
        free(ie);
        return 0;
    }
    ops.open_log = open_logfile;
    ops.say = watch_say;
    ops.stats = stats_tick;
    ops.applied = settings_applied;
    ops.failures = &counters.reload_failures;
    ops.arg = ie;
    if (idng_watch_start(&ie->watch, set, path, &ops) != 0) {
        log_err("idnguard: out of memory");
        idng_settings_free(set);
        free(ie);
        return 0;
    }
    de->dyn_env = ie;
    {
        static const struct {
            enum idng_path path;
            enum inplace_cb_list_type type;
        } paths[4] = {{IDNG_PATH_RESOLVED, inplace_cb_reply},
                      {IDNG_PATH_CACHE, inplace_cb_reply_cache},
                      {IDNG_PATH_LOCAL, inplace_cb_reply_local},
                      {IDNG_PATH_SERVFAIL, inplace_cb_reply_servfail}};
        size_t i;
        int ok = 1;
        for (i = 0; i < 4; i++) {
            ie->paths[i].ie = ie;
            ie->paths[i].path = paths[i].path;
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
    /* Unbound's log as its settings have it (what Unbound gives log_init,
     * and the shape of its lines), for log_final_stats. */
    if (env->cfg)
        idng_daemon_log_set(&kept.log, env->cfg->logfile, env->cfg->chrootdir,
                            env->cfg->log_identity, env->cfg->use_syslog, env->cfg->log_time_ascii);
    kept.stopping = 0; /* a reload, if a deinit came before: no stop */
    log_loaded(set, path, loaded, changes);
    if (idng_watch_follow(&ie->watch) != 0)
        log_err("idnguard: cannot start watching %s: a changed file needs a reload", path);
    return 1;
}

static void idng_mod_deinit(struct module_env *env, int id)
{
    struct dynlibmod_env *de = (struct dynlibmod_env *)env->modinfo[id];
    struct idng_env *ie = de ? (struct idng_env *)de->dyn_env : NULL;
    struct idng_settings *set;
    size_t i;

    if (!ie)
        return;
    for (i = 0; i < 4; i++)
        de->inplace_cb_delete_wrapped(env, ie->paths[i].type, id);
    de->inplace_cb_delete_wrapped(env, inplace_cb_query_response, id);
    set = idng_watch_stop(&ie->watch);
    /* The stats file now, with the last counts if the daemon stops (the
     * workers are gone).  The counters line waits for the exit, which
     * comes only when this is a stop (see kept).  A module that could not
     * pin itself is unloaded now, its counters with it: their line is the
     * unload's. */
    emit_stats(set, kept.pinned ? NULL : "unload");
    idng_logfile_close(set->logf);
    drop_kept();
    if (kept.pinned) {
        kept.conf = set->conf; /* for a reload: what changed, or what stays */
        kept.loaded_at = set->loaded_at;
        kept.have = 1;
        kept.stopping = 1;
    } else {
        idng_conf_free(&set->conf);
    }
    free(set);
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
