/**
 * \file
 * What the files of the dynlib module share (module/: the only directory
 * that includes Unbound's headers): the module-wide state, the state of a
 * query and its phases, each thread's state, and the functions one file
 * calls in another.  Every name here is hidden in the module's .so; only
 * the six names of unbound.c are exported.
 *
 * The files: unbound.c, the entry points Unbound looks up, init and
 * deinit (the settings' lifecycle, conf/idng_host.h, in Unbound's words)
 * and the build check; state.c, the state machine of operate and
 * inform_super and the answers it makes; reply.c, the reply callbacks
 * (the query log) and the callback before the cache; scan.c, the
 * response scan over Unbound's structures and the cache's expiry after
 * settings applied without a reload.
 */
#ifndef IDNG_MOD_H
#define IDNG_MOD_H

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

#include "idng_host.h"
#include "idng_memo.h"
#include "idng_policy.h"
#include "idng_scan.h"
#include "idng_watch.h"

#include <stdatomic.h>

#pragma GCC visibility push(hidden)

/** Module-wide state, in dynlibmod_env.dyn_env. */
struct idng_env {
    /* The settings in force (conf, their generation, the log file), the
     * thread that applies a changed file, and the stats timer, which logs
     * the counters and replaces the stats file every stats-interval
     * seconds (conf/idng_host.h). */
    struct idng_host host;
    /* 1: settings were applied without a reload, and what Unbound's cache
     * holds that they reject is still to be expired (idng_mod_expire_rejected, by
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
 *                                      the cache (idng_mod_cb_query_response)
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
    ROLE_CLIENT,  /* a client's query (or a prefetch of one) */
    ROLE_SUB,     /* our normalize sub-query: its super answers the client,
                     though other clients may join it */
    ROLE_INTERNAL /* the validator's own lookup (is_valrec): passed unjudged */
};

/** Per-query state, from qstate->region. */
struct idng_q {
    enum qstate_phase phase;
    enum qstate_role role;
    struct idng_verdict v;
    int ede;               /* EDE code attached, or -1 */
    const uint8_t *target; /* super: the A-label name resolved (its region) */
    size_t target_len;
    struct idng_verdict held_v; /* PH_HELD: the verdict of the rejected response */
};

/* Each thread's state, in one thread-local block so that a cache hit looks
 * it up once: its remembered verdicts of the cache-hit path (idng_memo.h,
 * keyed by the settings generation), and its side of the read sections of
 * the settings in force (idng_live.h).  Defined in reply.c. */
struct idng_mod_thread {
    struct idng_memo memo;
    struct idng_live_reader reader;
};
extern _Thread_local struct idng_mod_thread idng_mod_ts;

/* The settings in force, for one entry point: valid until settings_leave,
 * which every path out of it calls. */
static inline const struct idng_settings *settings_enter(struct idng_env *ie)
{
    return idng_watch_enter_as(&ie->host.watch, &idng_mod_ts.reader);
}

static inline void settings_leave(void)
{
    idng_watch_leave_as(&idng_mod_ts.reader);
}

/* idng_policy_judge of a client's name through this thread's remembered
 * verdicts: a name found ok before is not judged again (idng_memo.h). */
static inline void idng_mod_judge(const struct idng_settings *set, const uint8_t *wire, size_t len,
                                  struct idng_verdict *v)
{
    idng_memo_verdict(&idng_mod_ts.memo, set->gen, &set->conf.policy, wire, len, 0, v);
}

/* What a line says beyond the verdict: the normalize target, the time the
 * answer took. */
struct line_extra {
    const uint8_t *target;
    size_t target_len;
    const struct timeval *start;
};

/* reply.c: one client answered (or dropped): counted, and its query-log
 * line, which is written with log-queries: yes, and for the 'log' action
 * always. */
void idng_mod_log_query(const struct idng_settings *set, struct query_info *qinfo,
                        struct comm_reply *repinfo, int rcode, const struct idng_verdict *v,
                        int ede, enum idng_path path, const struct line_extra *x);

/* reply.c: the reply callbacks (one function, registered once per answer
 * path with a struct reply_path) and the iterator's callback before the
 * cache (arg: the struct idng_env). */
int idng_mod_cb_reply(struct query_info *qinfo, struct module_qstate *qstate,
                      struct reply_info *rep, int rcode, struct edns_data *edns,
                      struct edns_option **opt_list_out, struct comm_reply *repinfo,
                      struct regional *region, struct timeval *start_time, int id, void *arg);
int idng_mod_cb_query_response(struct module_qstate *qstate, struct dns_msg *response, int id,
                               void *arg);

/* scan.c: the policy's response scan over a response (qi, the name it is
 * for, may be NULL); the RRsets it says to remove (strip) are removed from
 * rep and counted. */
enum idng_scan_result idng_mod_scan_response(const struct idng_settings *set,
                                             const struct query_info *qi, struct reply_info *rep,
                                             enum idng_strip strip, struct idng_verdict *out);

/* scan.c: expires what Unbound's caches hold that set rejects. */
void idng_mod_expire_rejected(struct module_env *env, const struct idng_settings *set);

/* state.c: the module's entry points but init and deinit. */
void idng_mod_operate(struct module_qstate *qstate, enum module_ev event, int id,
                      struct outbound_entry *outbound);
void idng_mod_inform_super(struct module_qstate *qstate, int id, struct module_qstate *super);
void idng_mod_clear(struct module_qstate *qstate, int id);
size_t idng_mod_get_mem(struct module_env *env, int id);

#pragma GCC visibility pop

#endif /* IDNG_MOD_H */
