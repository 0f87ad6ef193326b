/**
 * \file
 * libidnguard (lib/libidnguard.h, the interface and its conventions): the
 * guard behind a flat C interface for hosts that are not Unbound's dynlib
 * module, built as build/libidnguard.so.0 and exporting only the header's
 * functions (lib/libidnguard.map).  No Unbound headers and no knowledge of
 * any host's structures: names and messages come in as wire octets and
 * numbers; actions, texts and log lines go out.  Everything that decides
 * (settings, judging, the response scan, EDE texts, log lines, counters)
 * is the same C as the dynlib module's: conf/, core/, codec/; so is the
 * lifecycle of the settings, the log file, the stats and the counters
 * (conf/idng_host.h), which this file gives its hosts' words.
 *
 * Threads: a host calls from any thread (ctypes releases the GIL around
 * each call; an engine runs a Lua state per worker thread), so the
 * counters are atomic, the log file has a mutex, and the settings in
 * force are read inside a read section by every call (conf/idng_watch.h):
 * a changed settings file is applied between two calls, never during one.
 *
 * Lifetime: the library is never unloaded (linked -z nodelete: ctypes
 * never unloads it anyway, and LuaJIT's dlclose when a Lua state goes
 * leaves it in place, with the shared handle and the threads running in
 * its code), so the counters and the last good settings live as long as
 * the daemon, across reloads (Unbound's python module deinit and init
 * again on SIGHUP, and finalizes the interpreter in between).  A deinit
 * cannot tell a reload from a stop (Unbound calls it the same way for
 * both), so the counters line of a stop is written at the process's exit,
 * which comes only when no open followed: by this library's destructor,
 * into the host's log as its settings had it (idnguard_daemon_log), the
 * interpreter being gone.  The shared handle is never closed: at the exit
 * its stats file is written and its counters line goes to stderr, where
 * its watch writes.
 */
#include "idng_conf.h"
#include "idng_host.h"
#include "idng_log.h"
#include "idng_watch.h"
#include "idng_out.h"
#include "idng_policy.h"
#include "idng_scan.h"
#include "idng_stats.h"
#include "idnguard.h"
#include "libidnguard.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#define EXPORT __attribute__((visibility("default")))

/* The header's numbers are the core's: a host keeps them as constants
 * (python/idnguard.py, lua/idnguard.lua) and they are handed through. */
#define SAME(a, b) _Static_assert((int)(a) == (int)(b), #a " is not " #b)
SAME(IDNGUARD_PASS, IDNG_ACT_PASS);
SAME(IDNGUARD_LOG, IDNG_ACT_LOG);
SAME(IDNGUARD_REFUSE, IDNG_ACT_REFUSE);
SAME(IDNGUARD_NXDOMAIN, IDNG_ACT_NXDOMAIN);
SAME(IDNGUARD_DROP, IDNG_ACT_DROP);
SAME(IDNGUARD_NORMALIZE, IDNG_ACT_NORMALIZE);
SAME(IDNGUARD_NORMALIZE + 1, IDNG_ACTION_COUNT);
SAME(IDNGUARD_PATH_RESOLVED, IDNG_PATH_RESOLVED);
SAME(IDNGUARD_PATH_CACHE, IDNG_PATH_CACHE);
SAME(IDNGUARD_PATH_LOCAL, IDNG_PATH_LOCAL);
SAME(IDNGUARD_PATH_SERVFAIL, IDNG_PATH_SERVFAIL);
SAME(IDNGUARD_PATH_POLICY, IDNG_PATH_POLICY);
SAME(IDNGUARD_PATH_POLICY + 1, IDNG_PATH_COUNT);
SAME(IDNGUARD_SCAN_PASS, IDNG_SCAN_PASS);
SAME(IDNGUARD_SCAN_LOG, IDNG_SCAN_LOG);
SAME(IDNGUARD_SCAN_REJECT, IDNG_SCAN_REJECT);
SAME(IDNGUARD_LOAD_FIRST, IDNG_HOST_FIRST);
SAME(IDNGUARD_LOAD_RELOADED, IDNG_HOST_RELOADED);
SAME(IDNGUARD_LOAD_KEPT, IDNG_HOST_KEPT);
#undef SAME
/** The unbound label of idnguard_info: the host's name as it gave it
 *  (idnguard_set_host), else "python-module" (Unbound's python API does
 *  not tell which daemon runs it). */
static _Atomic(const char *) host_name;

/**
 * A handle: the settings in force (their log file: NULL sends lines back
 * to the host, for its own log), the thread that applies a changed file,
 * and the stats timer, which replaces the stats file every stats-interval
 * seconds whether queries come or not (the summary line is the host's, in
 * its log, which C here cannot reach): conf/idng_host.h.
 */
struct lib_handle {
    struct idng_host host;
    /* What the lifecycle says, for the host's log: NULL until
     * idnguard_watch, read from the watch's, the timer's and the log
     * file's threads. */
    _Atomic(idnguard_say_fn) say;
};

/* The settings in force for one call: valid until leave(), which every
 * path out of the call takes (conf/idng_watch.h). */
static const struct idng_settings *enter(void *hp)
{
    return idng_watch_enter(&((struct lib_handle *)hp)->host.watch);
}

static void leave(void)
{
    idng_watch_leave();
}

static void host_say(void *arg, int level, const char *text)
{
    idnguard_say_fn say = atomic_load(&((struct lib_handle *)arg)->say);

    if (say)
        say(level, text);
}

/* The stats file's info label: the host's name, else "python-module"
 * (the stock daemon this runs in is Debian's; unboundmodule tells no
 * version). */
static const char *host_label(void *arg)
{
    const char *name = atomic_load(&host_name);

    (void)arg;
    return name ? name : "python-module";
}

/** The settings file to read: $IDNGUARD_CONF, else the default path. */
EXPORT const char *idnguard_conf_path(void)
{
    return idng_conf_path();
}

/** The version of idnguard and of its Unicode tables, "0.2.0 15.0.0". */
EXPORT const char *idnguard_version(void)
{
    return IDNG_VERSION " " IDNG_UNICODE_VERSION;
}

/** Names the host for idnguard_info's unbound label ("dnsdist"); the
 *  first name given stays, copied (a Lua string goes with its state). */
EXPORT void idnguard_set_host(const char *name)
{
    static char copy[64];
    static atomic_int taken;

    if (name && name[0] && !atomic_exchange(&taken, 1)) {
        snprintf(copy, sizeof copy, "%s", name);
        atomic_store(&host_name, copy);
    }
}

/**
 * Loads the settings file at path and opens its log file.  *state (enum
 * idnguard_load) says whether this is the first load, a reload (then
 * changes gets what changed from the settings in force, idng_conf_diff),
 * or a reload whose file did not load: then the handle holds the settings
 * of the last handle closed and reload-failures is counted.  NULL when the
 * first load fails.  err gets the problems, one a line ("file:line:
 * message"); on success, the warnings ("" when none).
 */
EXPORT void *idnguard_open(const char *path, int *state, char *changes, size_t changes_cap,
                          char *err, size_t errlen)
{
    struct lib_handle *h = calloc(1, sizeof *h);
    struct idng_host_ops ops = {0};
    enum idng_host_load r;
    size_t warned;

    *state = IDNGUARD_LOAD_FIRST;
    if (changes_cap)
        changes[0] = '\0';
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    ops.say = host_say;
    ops.label = host_label;
    ops.arg = h;
    r = idng_host_open(&h->host, path, &ops, changes, changes_cap, err, errlen, &warned);
    if (r == IDNG_HOST_FAILED) {
        free(h);
        return NULL;
    }
    *state = (int)r;
    return h;
}

/**
 * Starts applying a changed settings file without a reload (with
 * watch-settings: yes; conf/idng_watch.h).  say gets what the lifecycle
 * has to say (conf/idng_host.h: the watch, a stats file the timer cannot
 * write, a rotated log file that cannot be opened again), from the
 * watch's, the timer's or the log file's own thread (a ctypes callback
 * takes the GIL); it must stay valid until idnguard_close.  @return 1, or 0 when the watch
 * could not start (then a changed file needs a reload).
 */
EXPORT int idnguard_watch(void *hp, idnguard_say_fn say)
{
    struct lib_handle *h = hp;

    atomic_store(&h->say, say);
    return idng_watch_follow(&h->host.watch) == 0;
}

/**
 * Closes a handle (Unbound's deinit, a reload's or the stop's): stops the
 * watch, writes the stats file, with the last counts if the daemon stops,
 * and keeps the settings for a reload; the counters line is left to the
 * exit, which comes only if the daemon stops.  err gets a problem writing
 * the stats file ("" if none).
 */
EXPORT void idnguard_close(void *hp, char *err, size_t errlen)
{
    struct lib_handle *h = hp;

    if (errlen)
        err[0] = '\0';
    if (!h)
        return;
    idng_host_close(&h->host, 1, err, errlen);
    free(h);
}

/* The process's one handle (idnguard_open_shared), NULL until a first
 * load succeeds; set and read under shared_lock. */
static struct lib_handle *shared;
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;

/* What the shared handle's watch says: on stderr, which the engines send
 * to their own log (systemd's journal). */
static void say_stderr(int level, const char *text)
{
    (void)level;
    fprintf(stderr, "idnguard: %s\n", text);
}

/**
 * The process's one handle: loaded by the first call (path NULL: the
 * default) with its watch started, which says what it has to say on
 * stderr; every later call returns it.  The first load's lines go to err
 * as idnguard_open's do; a later call's err is "".  NULL when the first
 * load fails; the next call tries again.
 */
EXPORT void *idnguard_open_shared(const char *path, char *err, size_t errlen)
{
    struct lib_handle *h;
    char changes[4096];
    int state;

    pthread_mutex_lock(&shared_lock);
    if (shared) {
        if (errlen)
            err[0] = '\0';
    } else if ((shared = idnguard_open(path ? path : idng_conf_path(), &state, changes,
                                        sizeof changes, err, errlen))
               && !idnguard_watch(shared, say_stderr)) {
        say_stderr(IDNG_WATCH_ERR, "cannot start watching the settings: a changed file is not "
                                   "applied before a restart");
    }
    h = shared;
    pthread_mutex_unlock(&shared_lock);
    return h;
}

/**
 * Where the host's log goes, from its settings (Unbound's env.cfg at
 * init): logfile, use-syslog, chroot, log-identity, log-time-ascii (NULL,
 * 0: not known); for the counters line at exit.
 */
EXPORT void idnguard_daemon_log(const char *logfile, int use_syslog, const char *chroot,
                               const char *ident, int time_ascii)
{
    idng_host_daemon_log(logfile, chroot, ident, use_syslog, time_ascii);
}

/** When the settings in force were read from their file (seconds since the epoch). */
EXPORT long long idnguard_loaded_at(void *hp)
{
    long long at = (long long)enter(hp)->loaded_at;

    leave();
    return at;
}

EXPORT unsigned long long idnguard_settings_gen(void *hp)
{
    unsigned long long gen = (unsigned long long)enter(hp)->gen;

    leave();
    return gen;
}

/** The line that ends a load, in the words of every host (idng_host.h). */
EXPORT size_t idnguard_loaded_line(void *hp, const char *path, int state, const char *changes,
                                   const char *host, char *out, size_t cap)
{
    size_t n;

    if (state < IDNGUARD_LOAD_FIRST || state > IDNGUARD_LOAD_KEPT) {
        if (cap > 0)
            out[0] = '\0';
        return 0;
    }
    n = idng_host_loaded_line(enter(hp), path ? path : "", (enum idng_host_load)state, changes,
                              host, out, cap);
    leave();
    return n;
}

/** Reloads that kept the previous settings, so far. */
EXPORT unsigned long long idnguard_reload_failures(void)
{
    return (unsigned long long)atomic_load(&idng_host_counters.reload_failures);
}

/** The mode's name, for the load line ("uts46"). */
EXPORT const char *idnguard_mode(void *hp)
{
    const char *name = idng_mode_name(enter(hp)->conf.policy.mode); /* a constant string */

    leave();
    return name;
}

/** Is `ede: yes` set? */
EXPORT int idnguard_ede_enabled(void *hp)
{
    int on = enter(hp)->conf.ede;

    leave();
    return on;
}

/** Seconds between stats lines (`stats-interval`; 0: at shutdown only). */
EXPORT unsigned idnguard_stats_interval(void *hp)
{
    unsigned every = enter(hp)->conf.stats_interval;

    leave();
    return every;
}

/** Octets a verdict block needs. */
EXPORT size_t idnguard_verdict_size(void)
{
    return sizeof(struct idng_verdict);
}

/**
 * Judges a client's query name (data 0: idng_policy_judge) or a name from
 * an answer (data 1: idng_policy_judge_data) into the verdict block v.
 * @return the action (enum idng_action: 0 pass, 1 log, 2 refuse,
 *   3 nxdomain, 4 drop, 5 normalize).
 */
EXPORT int idnguard_judge(void *hp, const uint8_t *wire, size_t len, int data, void *v)
{
    const struct idng_settings *set = enter(hp);
    struct idng_verdict *out = v;

    if (data)
        idng_policy_judge_data(&set->conf.policy, wire, len, out);
    else
        idng_policy_judge(&set->conf.policy, wire, len, out);
    leave();
    return (int)out->action;
}

/** The action of a verdict block. */
EXPORT int idnguard_action(const void *v)
{
    return (int)((const struct idng_verdict *)v)->action;
}

/** Sets a verdict block's action (a fallback the host had to take). */
EXPORT void idnguard_set_action(void *v, int action)
{
    if (action >= 0 && action < IDNG_ACTION_COUNT)
        ((struct idng_verdict *)v)->action = (enum idng_action)action;
}

EXPORT int idnguard_action_named(const char *name)
{
    enum idng_action a;
    if (name == NULL || idng_action_lookup(name, strlen(name), &a) != 0)
        return -1;
    return (int)a;
}

/** Is the verdict not plain ok (a class, or a list decided)? */
/** idng_verdict_for_client: v, a rejected response's verdict, keeps the
 *  display facts of q, the client's name's. */
EXPORT void idnguard_for_client(void *v, const void *q)
{
    idng_verdict_for_client(v, q);
}

EXPORT int idnguard_interesting(const void *v)
{
    return idng_verdict_interesting(v);
}

/**
 * The A-label form of a raw name (idng_policy_normalize).  out must hold
 * 255 octets.  @return its length, or 0 when the name cannot be converted;
 * then v's action becomes the fallback (idng_policy_fallback).
 */
EXPORT size_t idnguard_normalize(void *hp, const uint8_t *wire, size_t len, uint8_t *out, void *v)
{
    const struct idng_settings *set = enter(hp);
    size_t n = 255;
    idng_error e;
    idng_status st = idng_policy_normalize(&set->conf.policy, wire, len, out, &n, &e);

    if (st != IDNG_OK) {
        ((struct idng_verdict *)v)->action = idng_policy_fallback(&set->conf.policy, st);
        n = 0;
    }
    leave();
    return n;
}

/**
 * The response scan (idng_scan.h) over a response flattened by the
 * host into records: kind (1 octet: 0 the name the response is for,
 * 1 an answer owner, 2 an authority owner, 3 an additional owner, 4 a
 * CNAME/DNAME target), RR type (2 octets, network order), name length
 * (1 octet), the uncompressed wire name.  Nothing is stripped (no host
 * can remove one RRset from an answer: Unbound's python module cannot):
 * every rejected name counts.  A truncated record ends the scan.
 * @return 0 pass, 1 log, 2 reject; v gets the most severe verdict.
 */
EXPORT int idnguard_scan(void *hp, const uint8_t *buf, size_t len, void *v)
{
    const struct idng_settings *set = enter(hp);
    struct idng_scan s;
    size_t i = 0;
    int found;

    idng_scan_init(&s);
    while (i + 4 <= len) {
        unsigned kind = buf[i];
        uint16_t type = (uint16_t)(buf[i + 1] << 8 | buf[i + 2]);
        size_t n = buf[i + 3];
        const uint8_t *name = buf + i + 4;

        if (i + 4 + n > len)
            break;
        if (kind == 0)
            idng_scan_name(&set->conf.policy, &s, name, n);
        else if (kind == 4)
            idng_scan_target(&set->conf.policy, &s, name, n, IDNG_STRIP_NONE);
        else if (kind <= 3)
            idng_scan_owner(&set->conf.policy, &s, (enum idng_section)(kind - 1), type, name, n,
                            IDNG_STRIP_NONE);
        i += 4 + n;
    }
    found = (int)idng_scan_result(&s, (struct idng_verdict *)v);
    leave();
    return found;
}

/**
 * The response scan over a whole response in wire format
 * (idng_scan_message: compression followed, every pointer backwards); a
 * message that cannot be read is rejected as a malformed name.  Nothing
 * is stripped, as for idnguard_scan.
 * @return 0 pass, 1 log, 2 reject; v gets the most severe verdict.
 */
EXPORT int idnguard_scan_message(void *hp, const uint8_t *msg, size_t len, void *v)
{
    const struct idng_settings *set = enter(hp);
    struct idng_scan s;
    int found;

    idng_scan_init(&s);
    idng_scan_message(&set->conf.policy, &s, msg, len);
    found = (int)idng_scan_result(&s, (struct idng_verdict *)v);
    leave();
    return found;
}

/** EDE text of a rejected verdict (idng_policy_ede_text); its length. */
EXPORT size_t idnguard_ede_text(const void *v, char *out, size_t cap)
{
    return idng_policy_ede_text((const struct idng_verdict *)v, out, cap);
}

/** Counts one event of the host's (enum idnguard_counter). */
EXPORT void idnguard_count(int which)
{
    switch (which) {
    case IDNGUARD_COUNT_NORMALIZED:
        atomic_fetch_add(&idng_host_counters.normalized, 1);
        break;
    case IDNGUARD_COUNT_ANSWERS_REJECTED:
        atomic_fetch_add(&idng_host_counters.answers_rejected, 1);
        break;
    case IDNGUARD_COUNT_UNCACHED:
        atomic_fetch_add(&idng_host_counters.uncached, 1);
        break;
    case IDNGUARD_COUNT_INTERNAL:
        atomic_fetch_add(&idng_host_counters.internal, 1);
        break;
    default:
        break;
    }
}

/* The client's address cut to its /24 (IPv4) or /48 (IPv6) network, as
 * the dynlib module logs it with anonymize-clients. */
static const char *anonymize(const char *text, char *buf, size_t cap)
{
    struct in6_addr a;

    if (inet_pton(AF_INET, text, &a) == 1)
        return idng_log_client(&a, 4, 1, buf, cap) ? buf : "-";
    if (inet_pton(AF_INET6, text, &a) == 1)
        return idng_log_client(&a, 16, 1, buf, cap) ? buf : "-";
    return "-";
}

/**
 * One client answered (or dropped, rcode -1): counted, and its query-log
 * line when the settings want it (log-queries, log-rejected, the log
 * action), formatted by idng_log_format exactly as the dynlib module does.
 * v NULL: answered without the module (cache, local data): the name is
 * judged here and its action is pass, or log.  path: enum idng_path
 * (0 resolved, 1 cache, 2 local, 3 servfail, 4 policy).  client NULL or ""
 * when unknown; elapsed_us < 0 when unknown; target NULL when none.
 * @return the length of a line the host must write to its own log
 *   (out, "idnguard: ..." for text, the object alone for JSON); 0 when
 *   there is none (not logged, or written to the module's own log-file).
 */
static size_t log_answer(const struct idng_settings *set, const void *v, const char *client,
                         unsigned port, const uint8_t *qname, size_t qname_len, unsigned qtype,
                         unsigned qclass, int rcode, int ede, int path, const uint8_t *target,
                         size_t target_len, const char *transport, long long elapsed_us, char *out,
                         size_t cap)
{
    struct idng_verdict judged;
    const struct idng_verdict *x = v;
    struct idng_logrec r;
    struct timespec now;
    char line[IDNG_LOG_LINE_MAX], anon[INET6_ADDRSTRLEN];
    size_t n;

    if (cap)
        out[0] = '\0';
    if (path < 0 || path >= IDNG_PATH_COUNT)
        return 0;
    if (!x) {
        idng_policy_judge(&set->conf.policy, qname, qname_len, &judged);
        if (judged.action != IDNG_ACT_LOG)
            judged.action = IDNG_ACT_PASS;
        x = &judged;
    }
    idng_counters_answer(&idng_host_counters, x, (enum idng_path)path);
    if (!idng_conf_logs(&set->conf, x))
        return 0;
    memset(&r, 0, sizeof r);
    clock_gettime(CLOCK_REALTIME, &now);
    r.time_sec = now.tv_sec;
    r.time_usec = now.tv_nsec / 1000;
    r.client = client && client[0] ? client : NULL;
    if (r.client && set->conf.anonymize_clients)
        r.client = anonymize(r.client, anon, sizeof anon);
    r.port = port;
    r.qname = qname;
    r.qname_len = qname_len;
    r.qtype = (uint16_t)qtype;
    r.qclass = (uint16_t)qclass;
    r.rcode = rcode;
    idng_logrec_verdict(&r, x, set->conf.policy.mode);
    r.path = idng_path_name((enum idng_path)path);
    r.ede = ede;
    r.target = target;
    r.target_len = target ? target_len : 0;
    r.transport = transport && transport[0] ? transport : NULL;
    if (elapsed_us >= 0) {
        r.has_elapsed = 1;
        r.elapsed_us = elapsed_us;
    }
    if (!set->logf) {
        int json = set->conf.log_format == IDNG_LOGFMT_JSON;
        idng_log_format(&r, json ? IDNG_LOGFMT_JSON : IDNG_LOGFMT_TEXT, 0, line, sizeof line);
        n = (size_t)snprintf(out, cap, "%s%s", json ? "" : "idnguard: ", line);
        return n < cap ? n : cap - 1;
    }
    n = idng_log_format(
        &r, set->conf.log_format == IDNG_LOGFMT_JSON ? IDNG_LOGFMT_JSON : IDNG_LOGFMT_TEXT, 1, line,
        sizeof line);
    idng_host_log_line(set, line, n);
    return 0;
}

EXPORT size_t idnguard_log(void *hp, const void *v, const char *client, unsigned port,
                          const uint8_t *qname, size_t qname_len, unsigned qtype, unsigned qclass,
                          int rcode, int ede, int path, const uint8_t *target, size_t target_len,
                          const char *transport, long long elapsed_us, char *out, size_t cap)
{
    size_t n = log_answer(enter(hp), v, client, port, qname, qname_len, qtype, qclass, rcode, ede,
                          path, target, target_len, transport, elapsed_us, out, cap);

    leave();
    return n;
}

/**
 * The counters outward: the summary line into out (for the host's log),
 * and, with `stats-file:`, the Prometheus text written beside that file
 * and renamed over it.  err gets a problem writing the file ("" if none).
 */
EXPORT size_t idnguard_stats(void *hp, const char *when, char *out, size_t cap, char *err,
                            size_t errlen)
{
    return idng_host_stats(&((struct lib_handle *)hp)->host, when, out, cap, err, errlen);
}

/* At exit: when a handle was closed last, the daemon stopped, and this is
 * the counters line of the stop, in the host's log (Unbound's: the
 * interpreter and Unbound's own logging are gone by now; idng_host_exit).
 * The shared handle, never closed, writes its stats file and its counters
 * line on stderr, where its watch writes, and that is the one counters
 * line (its watch thread may still run: the settings are read in a read
 * section as by any call).  Then the kept settings go, so no leak checker
 * sees them. */
__attribute__((destructor)) static void at_exit(void)
{
    pthread_mutex_lock(&shared_lock);
    if (shared) {
        char err[512], line[IDNG_LOG_LINE_MAX];

        idng_host_stats(&shared->host, "shutdown", line, sizeof line, err, sizeof err);
        if (err[0])
            say_stderr(IDNG_WATCH_ERR, err);
        fprintf(stderr, "%s\n", line);
    }
    idng_host_exit(!shared);
    pthread_mutex_unlock(&shared_lock);
}
