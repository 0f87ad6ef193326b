/**
 * \file
 * idnguard as an Unbound module, loaded by Unbound's dynlib module
 * (module-config: "dynlib validator iterator"): the six names Unbound looks
 * up, init and deinit, and the check that the daemon is the build the
 * module was compiled for.  module/ is the only directory that includes
 * Unbound's headers (idng_mod.h says which file does what); the decisions
 * live in policy.c, the log lines in log.c, and the lifecycle of
 * the settings, the log file and the stats in conf/host.c.
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
#include "util/config_file.h"
#include "util/log.h"

#include "idng_mod.h"
#include "idnguard.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define EXPORT __attribute__((visibility("default")))

/*
 * The settings in force, kept across reloads (conf/idng_host.h).  On
 * SIGHUP and `unbound-control reload` dynlib runs deinit, dlclose, dlopen
 * and init.  At its first init the module pins itself in memory
 * (RTLD_NODELETE), so what the lifecycle keeps survives the dlclose:
 * deinit leaves its settings there, and an init whose file does not load
 * takes them back instead of failing, which would stop the resolver; one
 * whose file loads says what changed from them.  At the first start there
 * is nothing to keep, and bad settings stop Unbound, so that a broken
 * deploy is seen.  The counters (idng_host_counters) outlive reloads the
 * same way.
 *
 * A deinit cannot tell a reload from a stop: Unbound calls it the same way
 * for both (daemon/daemon.c: from daemon_fork on a reload, from
 * daemon_delete at the stop) and nothing it is given says which.  So the
 * counters line of a stop is left to the process's exit, which comes only
 * when no init followed (stopping); the pinned module's exit handler
 * writes it into Unbound's log as Unbound's settings had it.
 */
static int pinned;

/* The watch published new settings (conf/idng_watch.h): the next worker
 * that runs the module expires what Unbound's cache holds that they reject
 * (scan.c).  Every change
 * costs one pass over the caches; a summary of what changed (which keys)
 * could spare it when the policy stayed the same. */
static void settings_applied(void *arg)
{
    atomic_store(&((struct idng_env *)arg)->expire, 1);
}

static void pin_module(void)
{
    Dl_info info;

    if (pinned)
        return;
    if (dladdr((void *)&pin_module, &info) && info.dli_fname
        && dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE))
        pinned = 1;
    else
        log_warn("idnguard: cannot pin the module in memory: a bad settings file on reload "
                 "will stop unbound");
}

/*
 * At exit: when a deinit was the module's last call, the daemon stopped,
 * and this is the counters line of the stop.  By now Unbound's own
 * logging is gone (main closes its log and destroys its lock before it
 * returns), so the line goes where Unbound's settings sent its log, in the
 * shape of Unbound's lines (idng_host_exit).  A destructor of the module:
 * it runs at exit only when the module is pinned (else at each dlclose,
 * when nothing is owed).
 */
__attribute__((destructor)) static void log_final_stats(void)
{
    idng_host_exit(1);
}

/* Logs len octets of a report, one problem a line, each a line of its own. */
static void log_report(const char *text, size_t len, int warning)
{
    const char *end = text + len;

    while (text < end) {
        const char *nl = memchr(text, '\n', (size_t)(end - text));
        int n = (int)((nl ? nl : end) - text);
        if (warning)
            log_warn("idnguard: %.*s", n, text);
        else
            log_err("idnguard: %.*s", n, text);
        text += n + (nl != NULL);
    }
}

/* What the lifecycle says (conf/idng_host.h), in Unbound's log. */
static void host_say(void *arg, int level, const char *text)
{
    (void)arg;
    if (level == IDNG_WATCH_INFO)
        log_info("idnguard: %s", text);
    else if (level == IDNG_WATCH_WARN)
        log_warn("idnguard: %s", text);
    else
        log_err("idnguard: %s", text);
}

/* The counters' summary line, every stats-interval seconds and at an
 * unload, in Unbound's log. */
static void host_stats_line(void *arg, const char *line)
{
    (void)arg;
    log_info("%s", line);
}

/* The stats file's info label: the Unbound the module is built for. */
static const char *host_label(void *arg)
{
    (void)arg;
    return PACKAGE_VERSION;
}

/* The line that ends init: what was loaded, or that a reload was not. */
static void log_loaded(const struct idng_settings *set, const char *path, enum idng_host_load r,
                       const char *changes)
{
    char line[8400]; /* a path and the changes (4096 each), and the words */

    if (!idng_host_loaded_line(set, path, r, changes, " built against Unbound " PACKAGE_VERSION,
                               line, sizeof line))
        return;
    if (r == IDNG_HOST_KEPT)
        log_err("%s", line);
    else
        log_info("%s", line);
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

static void idng_mod_deinit(struct module_env *env, int id);

static int idng_mod_init(struct module_env *env, int id)
{
    struct dynlibmod_env *de = (struct dynlibmod_env *)env->modinfo[id];
    struct idng_env *ie;
    struct idng_host_ops ops = {0};
    const struct idng_settings *set;
    const char *path = idng_conf_path();
    static char changes[4096], err[8192]; /* init only: one at a time */
    char why[1024];
    enum idng_host_load loaded;
    size_t warned;

    if (!build_matches(why, sizeof why)) {
        log_err("idnguard: %s", why);
        return 0;
    }
    pin_module();
    ie = calloc(1, sizeof *ie);
    if (!ie) {
        log_err("idnguard: out of memory");
        return 0;
    }
    ops.say = host_say;
    ops.stats_line = host_stats_line;
    ops.label = host_label;
    ops.applied = settings_applied;
    ops.arg = ie;
    loaded =
        idng_host_open(&ie->host, path, &ops, changes, sizeof changes, err, sizeof err, &warned);
    log_report(err, warned, 1);
    log_report(err + warned, strlen(err + warned), 0);
    if (loaded == IDNG_HOST_FAILED) {
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
            ok = ok
                 && de->inplace_cb_register_wrapped((void *)idng_mod_cb_reply, paths[i].type,
                                                    &ie->paths[i], env, id);
        }
        ok = ok
             && de->inplace_cb_register_wrapped((void *)idng_mod_cb_query_response,
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
        idng_host_daemon_log(env->cfg->logfile, env->cfg->chrootdir, env->cfg->log_identity,
                             env->cfg->use_syslog, env->cfg->log_time_ascii);
    /* No worker serves yet: the settings in force are init's to read. */
    set = idng_live_get(&ie->host.watch.live);
    log_loaded(set, path, loaded, changes);
    if (idng_watch_follow(&ie->host.watch) != 0)
        log_err("idnguard: cannot start watching %s: a changed file needs a reload", path);
    return 1;
}

static void idng_mod_deinit(struct module_env *env, int id)
{
    struct dynlibmod_env *de = (struct dynlibmod_env *)env->modinfo[id];
    struct idng_env *ie = de ? (struct idng_env *)de->dyn_env : NULL;
    char err[4400];
    size_t i;

    if (!ie)
        return;
    for (i = 0; i < 4; i++)
        de->inplace_cb_delete_wrapped(env, ie->paths[i].type, id);
    de->inplace_cb_delete_wrapped(env, inplace_cb_query_response, id);
    /* The stats file now, with the last counts if the daemon stops (the
     * workers are gone).  The counters line waits for the exit, which
     * comes only when this is a stop (see pinned).  A module that could
     * not pin itself is unloaded now, its counters with it: their line is
     * the unload's. */
    idng_host_close(&ie->host, pinned, err, sizeof err);
    if (err[0])
        log_err("idnguard: %s", err);
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
