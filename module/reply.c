/**
 * \file
 * The dynlib module's query log and callbacks (idng_mod.h): the reply
 * callbacks (resolved, cache, local data, servfail), which count every
 * client answered and write its line, and the iterator's callback before
 * the cache, which keeps a response that names a rejected label out of it.
 */
#include "idng_mod.h"

#include "idng_log.h"

#include <string.h>
#include <sys/time.h>

_Thread_local struct idng_mod_thread idng_mod_ts;

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
    idng_host_log_line(set, line, len);
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

/* One client answered (or dropped): counted, and its query-log line, which
 * is written with log-queries: yes, and for the 'log' action always. */
void idng_mod_log_query(const struct idng_settings *set, struct query_info *qinfo,
                        struct comm_reply *repinfo, int rcode, const struct idng_verdict *v,
                        int ede, enum idng_path path, const struct line_extra *x)
{
    struct idng_logrec r;
    struct timeval tv;
    char line[IDNG_LOG_LINE_MAX], client[INET6_ADDRSTRLEN];
    unsigned port;
    size_t n;

    idng_counters_answer(&idng_host_counters, v, path);
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
    n = idng_log_format(
        &r, set->conf.log_format == IDNG_LOGFMT_JSON ? IDNG_LOGFMT_JSON : IDNG_LOGFMT_TEXT,
        set->logf != NULL, line, sizeof line);
    write_line(set, line, n);
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
 * A client answered: counted and logged.  t is this thread's state (idng_mod_ts),
 * looked up once for the read section and the remembered verdicts, as
 * every cache hit comes here.
 */
static void idng_log_reply(struct query_info *qinfo, struct module_qstate *qstate,
                           struct reply_info *rep, int rcode, struct edns_data *edns,
                           struct edns_option **opt_list_out, struct comm_reply *repinfo, int id,
                           struct idng_env *ie, enum idng_path path, const struct timeval *start,
                           struct idng_mod_thread *t)
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
    set = idng_watch_enter_as(&ie->host.watch, &t->reader);

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

            idng_memo_judge(&t->memo, set->gen, &set->conf.policy, qinfo->qname, qinfo->qname_len,
                            &b);
            if (b.action != IDNG_ACT_LOG) {
                idng_counters_count(&idng_host_counters, b.row, IDNG_ACT_PASS, path);
                goto out;
            }
        }
        idng_mod_judge(set, qinfo->qname, qinfo->qname_len, &v);
        if (v.action != IDNG_ACT_LOG)
            v.action = IDNG_ACT_PASS;
    } else {
        memset(&v, 0, sizeof v);
        v.err.status = IDNG_OK;
    }
    {
        struct line_extra x = {q ? q->target : NULL, q ? q->target_len : 0, start};
        idng_mod_log_query(set, qinfo, repinfo, rcode, &v, ede, path, &x);
    }
out:
    idng_watch_leave_as(&t->reader);
}

/* The reply callbacks: one function, registered once per answer path with
 * an argument that names the path. */
int idng_mod_cb_reply(struct query_info *qinfo, struct module_qstate *qstate,
                      struct reply_info *rep, int rcode, struct edns_data *edns,
                      struct edns_option **opt_list_out, struct comm_reply *repinfo,
                      struct regional *region, struct timeval *start_time, int id, void *arg)
{
    struct reply_path *p = (struct reply_path *)arg;

    (void)region;
    idng_log_reply(qinfo, qstate, rep, rcode, edns, opt_list_out, repinfo, id, p->ie, p->path,
                   start_time, &idng_mod_ts);
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
        idng_policy_judge_data(&set->conf.policy, qstate->qinfo.qname, qstate->qinfo.qname_len, &v);
    else
        v.action = IDNG_ACT_PASS; /* the same name: judged with the response */
    if (!idng_action_rejects(v.action)
        && !(response
             && idng_mod_scan_response(set, &response->qinfo, response->rep, IDNG_STRIP_NONE, &v)
                    == IDNG_SCAN_REJECT))
        return;
    qstate->no_cache_store = 1;
    atomic_fetch_add(&idng_host_counters.uncached, 1);
    if (response && !(qstate->query_flags & BIT_RD)) {
        /* An RD=0 query (access-control allow_snoop): Unbound's validator
         * stores every RRset of such an answer in the RRset cache whatever
         * no_cache_store says, where later answers are built from.  So the
         * rejected RRsets leave the response here, and the verdict is held
         * for handle_moddone, which answers the client with it. */
        idng_mod_scan_response(set, NULL, response->rep, IDNG_STRIP_ALL, NULL);
        if (q && q->phase == PH_WAIT_MODULE) {
            q->phase = PH_HELD;
            q->held_v = v;
        }
    }
}

int idng_mod_cb_query_response(struct module_qstate *qstate, struct dns_msg *response, int id,
                               void *arg)
{
    const struct idng_settings *set = settings_enter(arg);

    guard_response(qstate, response, id, set);
    settings_leave();
    return 1;
}
