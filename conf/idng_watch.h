/**
 * \file
 * The settings in force, and a changed settings file applied without a
 * reload: publish the settings to the workers, run the stats timer, watch
 * the file.  Run for the dynlib module (module/) and libidnguard (lib/host.c)
 * by their common lifecycle, conf/idng_host.h.
 * Uses the settings (idng_conf.h), core/'s published object (idng_live.h)
 * and where lines and counters go (idng_out.h); libc and POSIX threads
 * besides, no Unbound headers.
 *
 * Why: an Unbound reload (SIGHUP, `unbound-control reload`) empties
 * Unbound's cache.  With `watch-settings: yes` (the default) a thread of the
 * watch's own looks once a second at every file and directory the settings
 * in force were read from (struct idng_conf_sources): the settings file,
 * the files it includes, the directories its include patterns look in (so
 * a file dropped into or removed from idnguard.conf.d is seen, and so is
 * such a directory that did not exist yet), the protect-file.  One that
 * counts as changed when any of its device, inode, size, modification or
 * status-change time differs from what the load saw, so an editor that
 * writes a new file and renames it over the old one is seen (a new inode),
 * and so is a file that went away.  One stat of each a second, at most
 * IDNG_CONF_SOURCES_MAX of them.
 *
 * On a change the whole file is loaded again (idng_conf_load) into new
 * settings, the log-file they name is opened (the open one is kept when the
 * path is the same), and only when all of that succeeded are they
 * published (core/idng_live.h): every worker's next callback reads them.
 * The settings replaced are freed, and their log file closed, once no
 * worker can hold them any more.  Each load takes a new settings
 * generation (idng_settings_gen), so the verdicts the threads remember
 * (core/idng_memo.h) from the old settings are never used again.  Then the
 * stats timer is started again if stats-interval changed, and one line
 * says what was applied.
 *
 * Settings that load but come out the same as those in force (a file
 * beside them in a pattern's directory, the file written again as it was)
 * are not published: no new generation, nothing expired, nothing said
 * (but after a file that did not load, that it loads again).
 *
 * A file that does not load (a typo, a half-written file, a log file that
 * cannot be opened) changes nothing: its file:line problems are logged,
 * then "keeping the settings in force", and it counts as a reload failure.
 * What that load read is watched from then on, so a fix of a new included
 * file is seen too.  A file that changed while it was being read (any of
 * them: each is looked at again once the load is done) is not judged: it
 * is read again at the next look.  Either way the next change is tried
 * again.
 *
 * Threads: the workers only read (idng_watch_enter/idng_watch_leave around
 * every use); the watch thread is the one writer; start and stop run with
 * no worker serving (Unbound's init and deinit).
 */
#ifndef IDNG_WATCH_H
#define IDNG_WATCH_H

#include "idng_conf.h"
#include "idng_live.h"
#include "idng_out.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One set of settings as the workers read it: never changed once
 *  published; a change is a new one. */
struct idng_settings {
    struct idng_conf conf;
    /** Names conf for the threads' remembered verdicts (idng_memo.h):
     *  idng_settings_gen() at every load, never 0. */
    uint64_t gen;
    /** conf.log_file opened (idng_out.h); NULL: the daemon's own log. */
    struct idng_logfile *logf;
    /** When conf was read from its file (a failed reload's line says it). */
    time_t loaded_at;
};
/* conf.sources is the watch's: idng_watch_start and each load it applies
 * take them (it is empty in the settings in force). */

/** A fresh settings generation: 1, 2, ... for the life of the process. */
uint64_t idng_settings_gen(void);

/** What the watch needs of the flavour that runs it. */
struct idng_watch_ops {
    /** Opens a log-file as the flavour does (its warning callback, its
     *  error counter; arg is ops.arg); err gets "PATH: log-file: reason". */
    struct idng_logfile *(*open_log)(void *arg, const char *path, char *err, size_t errlen);
    /** A line for the daemon's log (text without the "idnguard: "
     *  prefix), from the watch thread: level IDNG_WATCH_INFO, _WARN or
     *  _ERR.  NULL: nothing is said. */
    void (*say)(void *arg, int level, const char *text);
    /** Called every stats-interval seconds, from the stats thread; it
     *  reads the settings inside a read section.  NULL: no stats timer. */
    void (*stats)(void *arg);
    /** 1: the stats timer runs only while stats-file is set
     *  (libidnguard, whose summary line is the host's); 0: whenever
     *  stats-interval is not 0 (the module logs the line itself). */
    int stats_need_file;
    /** Called from the watch thread once new settings are published and
     *  no worker holds the old ones any more (the module expires what
     *  Unbound's cache holds that they reject).  NULL: nothing. */
    void (*applied)(void *arg);
    /** Counts every file that did not load (reload_failures). */
    atomic_ullong *failures;
    void *arg; /**< for open_log, say, stats and applied */
};

enum { IDNG_WATCH_INFO, IDNG_WATCH_WARN, IDNG_WATCH_ERR };

/** Settings in force, their stats timer and their watch thread. */
struct idng_watch {
    struct idng_live live; /**< -> struct idng_settings */
    char *path;            /**< the settings file */
    struct idng_watch_ops ops;
    struct idng_ticker stats; /**< runs ops.stats */
    unsigned stats_every;     /**< the seconds it runs at; 0: not running */
    struct idng_ticker watcher;
    /** The files and directories as they were when the settings in force
     *  were read (or the files that did not load were): the settings file,
     *  the files it includes, its patterns' directories, the protect-file. */
    struct idng_conf_sources seen;
    pthread_mutex_t lock; /**< one look at a time (the thread, a test) */
    int started;
    int failing; /**< the last change read did not load (a recovery is said) */
};

/**
 * Makes s (filled by the flavour: conf loaded, gen, logf opened) the
 * settings in force and starts the stats timer; w owns s from here on.
 * What s->conf.sources says the load saw is the baseline of the first
 * change (the watch takes them): a change since the load is one.  Settings
 * kept after a reload whose file did not load should carry what that load
 * read (idng_conf_load_sources); with none, the settings file as it is now.
 * @return 0, or -1 when out of memory (s is still the caller's).
 */
int idng_watch_start(struct idng_watch *w, struct idng_settings *s, const char *path,
                     const struct idng_watch_ops *ops);

/**
 * Starts the watch thread (a look every second) when the settings in force
 * say watch-settings: yes.  Settings applied later that say no stop the
 * looking, until the next start.  @return 0, or -1 when no thread could be
 * made (then changes need a reload, as before).
 */
int idng_watch_follow(struct idng_watch *w);

/**
 * One look at the files now, and the change applied if there is one (what
 * the watch thread does each second).  @return 1 when new settings were
 * applied, 0 when nothing changed (or watching is off), -1 when a changed
 * file did not load.
 */
int idng_watch_check(struct idng_watch *w);

/**
 * Stops the watch thread and the stats timer and returns the settings in
 * force, which are the caller's again (NULL when w was never started).
 */
struct idng_settings *idng_watch_stop(struct idng_watch *w);

/** The settings in force, inside a read section that idng_watch_leave
 *  ends (idng_live.h: never kept past it). */
static inline const struct idng_settings *idng_watch_enter(struct idng_watch *w)
{
    idng_live_enter();
    return (const struct idng_settings *)idng_live_get(&w->live);
}

/** Ends the read section of idng_watch_enter. */
static inline void idng_watch_leave(void)
{
    idng_live_leave();
}

/** idng_watch_enter and idng_watch_leave on a reader of the caller's
 *  (idng_live_enter_as). */
static inline const struct idng_settings *idng_watch_enter_as(struct idng_watch *w,
                                                              struct idng_live_reader *r)
{
    idng_live_enter_as(r);
    return (const struct idng_settings *)idng_live_get(&w->live);
}

static inline void idng_watch_leave_as(struct idng_live_reader *r)
{
    idng_live_leave_as(r);
}

/** Frees settings (idng_conf_free, the log file closed) and s itself. */
void idng_settings_free(struct idng_settings *s);

#ifdef __cplusplus
}
#endif
#endif /* IDNG_WATCH_H */
