/**
 * \file
 * The host's lifecycle: one home for what the dynlib module (module/) and
 * libidnguard (lib/host.c, under the python module and the Lua engines) do
 * between a load and a stop, apart from talking to their host.  No Unbound
 * headers: what differs between the hosts comes in as callbacks (struct
 * idng_host_ops).
 *
 * - The counters (idng_stats.h), one set for the whole process (one per
 *   binary that links this), cumulative since the daemon started: they
 *   outlive reloads, as the binary is never unloaded (the module pins
 *   itself, libidnguard is linked -z nodelete).
 * - The settings of the last handle closed (the last good ones), kept for
 *   the next open: a reload says what changed from them (idng_conf_diff),
 *   and a reload whose file does not load (or whose log-file cannot be
 *   opened) goes on with them instead of stopping the resolver, counted
 *   in reload_failures.  At the first start there is nothing to keep, and
 *   a file that does not load fails the open.
 * - The log file (idng_out.h): opened with the settings, flushed every
 *   IDNG_LOG_FLUSH_MS, its lost lines counted in log_errors, a rotated file
 *   that cannot be opened anew said (once, until it opens again).
 * - The stats timer and the stats file (conf/idng_watch.h runs the timer):
 *   the Prometheus text replaced atomically, a problem writing it said.
 * - The settings watch (conf/idng_watch.h), whose lines go to the host's.
 * - The counters line of a stop: a close cannot tell a reload from a stop
 *   (Unbound calls deinit the same way for both), so the line is owed from
 *   the last close until the next open, and written at the process's exit
 *   (idng_host_exit) into the host's log as its settings had it
 *   (idng_host_daemon_log), the host's own logging being gone by then.
 *
 * Threads: idng_host_open, idng_host_close, idng_host_daemon_log and
 * idng_host_exit run with no worker serving (Unbound's init and deinit,
 * or under the caller's lock); everything else from any thread.
 */
#ifndef IDNG_HOST_H
#define IDNG_HOST_H

#include "idng_stats.h"
#include "idng_watch.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The process's counters (see above). */
extern struct idng_counters idng_host_counters;

/** What differs between the hosts. */
struct idng_host_ops {
    /** A line for the host's log (text without the "idnguard: " prefix),
     *  level IDNG_WATCH_INFO, _WARN or _ERR: from the watch thread, the
     *  stats timer, the log file's writer.  NULL: nothing is said. */
    void (*say)(void *arg, int level, const char *text);
    /** The counters' summary line at every stats-interval (the module,
     *  which writes it itself); NULL: the host logs that line on its own,
     *  and the stats timer runs only while stats-file is set, for the
     *  file alone (libidnguard's hosts). */
    void (*stats_line)(void *arg, const char *line);
    /** The label of the stats file's info metric (its `unbound` label):
     *  the Unbound version, or the host's name; read at each write. */
    const char *(*label)(void *arg);
    /** New settings were applied by the watch (idng_watch_ops.applied). */
    void (*applied)(void *arg);
    void *arg; /**< for every callback */
};

/** A host's handle on the settings in force: from idng_host_open to
 *  idng_host_close.  The workers read the settings with
 *  idng_watch_enter(&h->watch) (or _enter_as) ... idng_watch_leave. */
struct idng_host {
    struct idng_watch watch;
    struct idng_host_ops ops;
};

/** What idng_host_open did. */
enum idng_host_load {
    IDNG_HOST_FAILED = -1, /**< the first load did not load (or out of memory) */
    IDNG_HOST_FIRST,       /**< the first load */
    IDNG_HOST_RELOADED,    /**< a reload that loaded: changes says what changed */
    IDNG_HOST_KEPT         /**< a reload that did not: the kept settings go on */
};

/**
 * Loads the settings file at path into h (with its log-file), or, on a
 * reload whose file does not load or whose log-file cannot be opened, takes
 * the kept settings back (their log-file opened again; one that cannot be
 * is a line of err, and query lines go to the host); then starts the stats
 * timer.  The watch thread is the host's to start (idng_watch_follow), once
 * it is ready for what the watch says.
 * @param changes, ccap: IDNG_HOST_RELOADED: what changed ("" otherwise).
 * @param err, errlen: one problem a line ("file:line: message"): the
 *   warnings of a file that loaded, then, when it did not load, the
 *   problems; "" when none.
 * @param warned: the octets at the start of err that are warnings.
 */
enum idng_host_load idng_host_open(struct idng_host *h, const char *path,
                                   const struct idng_host_ops *ops, char *changes, size_t ccap,
                                   char *err, size_t errlen, size_t *warned);

/**
 * Ends h: stops the watch and the stats timer, writes the stats file (with
 * the last counts if the daemon stops), closes the log file.  keep 1: the
 * settings are kept for the next idng_host_open and the counters line is
 * owed at exit; keep 0 (a binary about to be unloaded, its counters with
 * it): the counters line is said now ("unload", ops.stats_line) and the
 * settings are freed.  err gets a problem writing the stats file ("" if
 * none).
 */
void idng_host_close(struct idng_host *h, int keep, char *err, size_t errlen);

/**
 * The counters outward: with stats-file, the Prometheus text written
 * beside that file and renamed over it (err: a problem, "" if none); with
 * out, the summary line labelled when into it.  @return the line's length
 * (0 without out).
 */
size_t idng_host_stats(struct idng_host *h, const char *when, char *out, size_t cap, char *err,
                       size_t errlen);

/**
 * The line that ends a host's load, in every host's words but its own
 * (host: what follows the version on a first load, e.g. " built against
 * Unbound 1.17.1" or ", python module"; NULL: nothing):
 *   IDNG_HOST_FIRST     "idnguard: loaded PATH (mode M, Unicode U; idnguard V<host>)"
 *   IDNG_HOST_RELOADED  "idnguard: reloaded PATH: CHANGES"
 *   IDNG_HOST_KEPT      "idnguard: reload failed (reload failures: N); still running
 *                        with the settings loaded at TIME (mode M)"
 * IDNG_HOST_FAILED has no line (the error said it).  PATH and host are
 * the host's own words; CHANGES is the load's (idng_host_open), already
 * in the display unit's spelling.
 * @return the line's length (no newline; truncated to cap - 1, NUL
 *   ended), 0 for none.
 */
size_t idng_host_loaded_line(const struct idng_settings *set, const char *path,
                             enum idng_host_load r, const char *changes, const char *host,
                             char *out, size_t cap);

/** Queues one query-log line in the settings' log file (set->logf, not
 *  NULL); a line dropped counts in log_errors. */
void idng_host_log_line(const struct idng_settings *set, const char *line, size_t len);

/** Where the host's own log goes (idng_daemon_log_set), for the counters
 *  line at exit. */
void idng_host_daemon_log(const char *file, const char *chroot, const char *ident, int syslog,
                          int time_ascii);

/**
 * At the process's exit (a destructor of the host's): with line 1 and a
 * close the last call (the daemon stopped), the counters line "shutdown"
 * in the host's log (idng_host_daemon_log); then the kept settings go, so
 * no leak checker sees them.
 */
void idng_host_exit(int line);

#ifdef __cplusplus
}
#endif
#endif /* IDNG_HOST_H */
