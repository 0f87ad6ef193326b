/**
 * \file
 * The host's lifecycle (see idng_host.h): the last good settings, the log
 * file, the stats timer and file, the watch, the counters line of a stop.
 */
#include "idng_host.h"

#include "idng_log.h"
#include "idng_out.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct idng_counters idng_host_counters;

/* The settings of the last handle closed with keep, and where the host's
 * own log goes.  Only open, close and exit touch them (see idng_host.h). */
static struct {
    int have; /* conf holds the settings of the last close */
    struct idng_conf conf;
    time_t loaded_at;           /* when conf was read from its file */
    int stopping;               /* a close was the last call: the counters line is owed at exit */
    struct idng_daemon_log log; /* the strings malloc'd */
} kept;

static void drop_kept(void)
{
    if (kept.have)
        idng_conf_free(&kept.conf);
    kept.have = 0;
}

static void say(const struct idng_host *h, int level, const char *text)
{
    if (h->ops.say)
        h->ops.say(h->ops.arg, level, text);
}

/* Where a further line of err goes: after what err holds and a newline
 * (its lines are separated, not ended, by one); *room is what is left. */
static char *next_line(char *err, size_t errlen, size_t *room)
{
    size_t n = errlen ? strlen(err) : 0;

    if (n > 0 && n + 1 < errlen)
        err[n++] = '\n';
    *room = errlen - n;
    if (*room)
        err[n] = '\0';
    return err + n;
}

/* A rotated log file that cannot be opened anew (idng_logfile_opts.warn). */
static void log_warn(void *arg, const char *msg)
{
    say(arg, IDNG_WATCH_ERR, msg);
}

/* The log file of the settings (idng_out.h): workers never wait on its
 * disk; a line lost counts as a log error. */
static struct idng_logfile *open_log(void *arg, const char *path, char *err, size_t errlen)
{
    struct idng_logfile_opts o = {0};

    o.flush_ms = IDNG_LOG_FLUSH_MS;
    o.warn = log_warn;
    o.warn_arg = arg;
    o.errors = &idng_host_counters.log_errors;
    return idng_logfile_open(path, &o, err, errlen);
}

/* The Prometheus text of the counters, written beside stats-file and
 * renamed over it, so a reader (node_exporter's textfile collector) never
 * sees half a file.  One writer at a time: the stats timer, a host's call,
 * a close. */
static void write_file(const struct idng_host *h, const struct idng_settings *set,
                       const struct idng_stats *st, char *err, size_t errlen)
{
    static char text[128 * 1024];
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    char why[4300];
    size_t n;

    if (errlen)
        err[0] = '\0';
    if (!set->conf.stats_file)
        return;
    pthread_mutex_lock(&lock);
    n = idng_stats_prometheus(st, h->ops.label ? h->ops.label(h->ops.arg) : "",
                              set->conf.policy.mode, text, sizeof text);
    if (n >= sizeof text)
        snprintf(err, errlen, "stats-file: too much to write");
    else if (idng_file_replace(set->conf.stats_file, text, n, why, sizeof why) != 0)
        snprintf(err, errlen, "stats-file: %s", why);
    pthread_mutex_unlock(&lock);
}

size_t idng_host_stats(struct idng_host *h, const char *when, char *out, size_t cap, char *err,
                       size_t errlen)
{
    struct idng_stats st;

    idng_counters_snapshot(&idng_host_counters, &st);
    write_file(h, idng_watch_enter(&h->watch), &st, err, errlen);
    idng_watch_leave();
    return out ? idng_stats_line(&st, when, out, cap) : 0;
}

/* Every stats-interval seconds, from the stats timer's thread: the summary
 * line (when the host wants it), then the file. */
static void stats_tick(void *arg)
{
    struct idng_host *h = arg;
    char line[IDNG_LOG_LINE_MAX], err[4400];
    struct idng_stats st;

    idng_counters_snapshot(&idng_host_counters, &st);
    if (h->ops.stats_line) {
        idng_stats_line(&st, "interval", line, sizeof line);
        h->ops.stats_line(h->ops.arg, line);
    }
    write_file(h, idng_watch_enter(&h->watch), &st, err, sizeof err);
    idng_watch_leave();
    if (err[0])
        say(h, IDNG_WATCH_ERR, err);
}

static void watch_say(void *arg, int level, const char *text)
{
    say(arg, level, text);
}

static void watch_applied(void *arg)
{
    struct idng_host *h = arg;

    h->ops.applied(h->ops.arg);
}

enum idng_host_load idng_host_open(struct idng_host *h, const char *path,
                                   const struct idng_host_ops *ops, char *changes, size_t ccap,
                                   char *err, size_t errlen, size_t *warned)
{
    struct idng_settings *set = calloc(1, sizeof *set);
    struct idng_conf_sources tried = {0};
    struct idng_watch_ops wops = {0};
    enum idng_host_load r = kept.have ? IDNG_HOST_RELOADED : IDNG_HOST_FIRST;
    size_t room, n;
    char *more;
    int loaded;

    memset(h, 0, sizeof *h);
    h->ops = *ops;
    *warned = 0;
    if (ccap)
        changes[0] = '\0';
    if (errlen)
        err[0] = '\0';
    if (!set) {
        snprintf(err, errlen, "out of memory");
        return IDNG_HOST_FAILED;
    }
    idng_conf_init(&set->conf);
    loaded = idng_conf_load_sources(&set->conf, path, 0, &tried, err, errlen) == 0;
    if (loaded) {
        *warned = errlen ? strlen(err) : 0;
        more = next_line(err, errlen, &room);
        if (set->conf.log_file && !(set->logf = open_log(h, set->conf.log_file, more, room))) {
            *warned = (size_t)(more - err);
            tried = set->conf.sources;
            memset(&set->conf.sources, 0, sizeof set->conf.sources);
            idng_conf_free(&set->conf);
            loaded = 0;
        } else if (errlen) {
            err[*warned] = '\0'; /* no newline after the warnings */
        }
    }
    if (!loaded) {
        if (!kept.have) {
            idng_conf_sources_free(&tried);
            free(set);
            return IDNG_HOST_FAILED;
        }
        r = IDNG_HOST_KEPT;
        atomic_fetch_add(&idng_host_counters.reload_failures, 1);
        set->conf = kept.conf;
        /* The watch waits for a change of what the failed load read. */
        idng_conf_sources_free(&set->conf.sources);
        set->conf.sources = tried;
        set->loaded_at = kept.loaded_at;
        kept.have = 0;
        n = errlen ? strlen(err) : 0;
        more = next_line(err, errlen, &room);
        if (set->conf.log_file && !(set->logf = open_log(h, set->conf.log_file, more, room))) {
            if (room && room > strlen(more))
                snprintf(more + strlen(more), room - strlen(more),
                         "; query lines go to unbound's log");
        } else if (errlen) {
            err[n] = '\0'; /* no newline after the problems */
        }
    } else {
        set->loaded_at = time(NULL);
        if (kept.have)
            idng_conf_diff(&kept.conf, &set->conf, changes, ccap);
        drop_kept();
    }
    kept.stopping = 0; /* a reload, if a close came before: no stop */
    set->gen = idng_settings_gen();
    wops.open_log = open_log;
    wops.say = watch_say;
    wops.stats = stats_tick;
    wops.stats_need_file = !ops->stats_line;
    wops.applied = ops->applied ? watch_applied : NULL;
    wops.failures = &idng_host_counters.reload_failures;
    wops.arg = h;
    if (idng_watch_start(&h->watch, set, path, &wops) != 0) {
        more = next_line(err, errlen, &room);
        snprintf(more, room, "out of memory");
        idng_settings_free(set);
        return IDNG_HOST_FAILED;
    }
    return r;
}

void idng_host_close(struct idng_host *h, int keep, char *err, size_t errlen)
{
    struct idng_settings *set = idng_watch_stop(&h->watch);
    struct idng_stats st;

    if (errlen)
        err[0] = '\0';
    if (!set)
        return;
    /* The workers are gone: the last counts. */
    idng_counters_snapshot(&idng_host_counters, &st);
    if (!keep && h->ops.stats_line) {
        char line[IDNG_LOG_LINE_MAX];

        idng_stats_line(&st, "unload", line, sizeof line);
        h->ops.stats_line(h->ops.arg, line);
    }
    write_file(h, set, &st, err, errlen);
    idng_logfile_close(set->logf);
    drop_kept();
    if (keep) {
        kept.conf = set->conf; /* for a reload: what changed, or what stays */
        kept.loaded_at = set->loaded_at;
        kept.have = 1;
        kept.stopping = 1;
    } else {
        idng_conf_free(&set->conf);
    }
    free(set);
}

size_t idng_host_loaded_line(const struct idng_settings *set, const char *path,
                             enum idng_host_load r, const char *changes, const char *host,
                             char *out, size_t cap)
{
    const char *mode = idng_mode_name(set->conf.policy.mode);
    char when[32];
    struct tm tm;
    int n = 0;

    switch (r) {
    case IDNG_HOST_FIRST:
        n = snprintf(out, cap, "idnguard: loaded %s (mode %s, Unicode %s; idnguard %s%s)", path,
                     mode, IDNG_UNICODE_VERSION, IDNG_VERSION, host ? host : "");
        break;
    case IDNG_HOST_RELOADED:
        n = snprintf(out, cap, "idnguard: reloaded %s: %s", path, changes ? changes : "");
        break;
    case IDNG_HOST_KEPT:
        if (!gmtime_r(&set->loaded_at, &tm)
            || !strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm))
            snprintf(when, sizeof when, "an unknown time");
        n = snprintf(out, cap,
                     "idnguard: reload failed (reload failures: %llu); still running with the "
                     "settings loaded at %s (mode %s)",
                     (unsigned long long)atomic_load(&idng_host_counters.reload_failures), when,
                     mode);
        break;
    case IDNG_HOST_FAILED:
        break;
    }
    if (cap > 0 && n <= 0)
        out[0] = '\0';
    if (n <= 0 || cap == 0)
        return 0;
    return (size_t)n < cap ? (size_t)n : cap - 1;
}

void idng_host_log_line(const struct idng_settings *set, const char *line, size_t len)
{
    if (idng_logfile_write(set->logf, line, len) != 0)
        atomic_fetch_add(&idng_host_counters.log_errors, 1); /* dropped: the disk is behind */
}

void idng_host_daemon_log(const char *file, const char *chroot, const char *ident, int syslog,
                          int time_ascii)
{
    idng_daemon_log_set(&kept.log, file, chroot, ident, syslog, time_ascii);
}

void idng_host_exit(int line)
{
    if (line && kept.stopping)
        idng_daemon_log_counters(&kept.log, &idng_host_counters, "shutdown");
    kept.stopping = 0;
    drop_kept();
    idng_daemon_log_free(&kept.log);
}
