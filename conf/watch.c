/**
 * \file
 * The settings in force and the watch of their file (see idng_watch.h).
 */
#include "idng_watch.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Problems of one load, one a line: idng_conf_load's report. */
#define WATCH_ERR_MAX 8192

static atomic_uint_fast64_t gens;

uint64_t idng_settings_gen(void)
{
    return 1 + atomic_fetch_add(&gens, 1);
}

void idng_settings_free(struct idng_settings *s)
{
    if (!s)
        return;
    idng_logfile_close(s->logf);
    idng_conf_free(&s->conf);
    free(s);
}

/* Two optional paths that are the same string. */
static int same_path(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static void say(const struct idng_watch *w, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void say(const struct idng_watch *w, int level, const char *fmt, ...)
{
    char text[1024];
    va_list ap;

    if (!w->ops.say)
        return;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    w->ops.say(w->ops.arg, level, text);
}

/* A report of the parser, each of its lines a line of the log. */
static void say_lines(const struct idng_watch *w, int level, const char *text)
{
    while (*text) {
        const char *nl = strchr(text, '\n');
        int n = nl ? (int)(nl - text) : (int)strlen(text);

        if (n > 0)
            say(w, level, "%.*s", n, text);
        text += n + (nl != NULL);
    }
}

static void stats_tick(void *arg)
{
    struct idng_watch *w = arg;

    w->ops.stats(w->ops.arg);
}

/* The stats timer at the interval c asks for: started, started again at
 * another interval, or stopped.  The stats thread reads the settings in a
 * read section of its own, so it never holds the settings being replaced. */
static void stats_follow(struct idng_watch *w, const struct idng_conf *c)
{
    unsigned want = w->ops.stats && c->stats_interval && (!w->ops.stats_need_file || c->stats_file)
                        ? c->stats_interval
                        : 0;

    if (want == w->stats_every)
        return;
    idng_ticker_stop(&w->stats);
    w->stats_every = 0;
    if (!want)
        return;
    if (idng_ticker_start(&w->stats, want, stats_tick, w) != 0)
        say(w, IDNG_WATCH_ERR, "cannot start the stats timer; counters only at shutdown");
    else
        w->stats_every = want;
}

/* Has any of the files and directories changed since the look in s? */
static int any_changed(const struct idng_conf_sources *s)
{
    struct idng_filesig now;
    size_t i;

    for (i = 0; i < s->n; i++) {
        idng_filesig_read(s->v[i].path, &now);
        if (!idng_filesig_same(&now, &s->v[i].sig))
            return 1;
    }
    return 0;
}

/* What the watch looks at from now on: src, taken (emptied).  None (a
 * load out of memory): the settings file as it is now. */
static void watch_sources(struct idng_watch *w, struct idng_conf_sources *src)
{
    idng_conf_sources_free(&w->seen);
    w->seen = *src;
    memset(src, 0, sizeof *src);
    if (w->seen.n > 0)
        return;
    if (!(w->seen.v = calloc(1, sizeof *w->seen.v)) || !(w->seen.v->path = strdup(w->path))) {
        free(w->seen.v);
        w->seen.v = NULL;
        say(w, IDNG_WATCH_ERR, "%s: out of memory: a change applies at a reload", w->path);
        return;
    }
    idng_filesig_read(w->path, &w->seen.v->sig);
    w->seen.n = 1;
}

int idng_watch_start(struct idng_watch *w, struct idng_settings *s, const char *path,
                     const struct idng_watch_ops *ops)
{
    memset(w, 0, sizeof *w);
    w->path = strdup(path);
    if (!w->path)
        return -1;
    w->ops = *ops;
    pthread_mutex_init(&w->lock, NULL);
    watch_sources(w, &s->conf.sources);
    atomic_store(&w->live.obj, s);
    stats_follow(w, &s->conf);
    w->started = 1;
    return 0;
}

static void watch_tick(void *arg)
{
    idng_watch_check(arg);
}

int idng_watch_follow(struct idng_watch *w)
{
    const struct idng_settings *cur = idng_live_get(&w->live);

    if (!cur || !cur->conf.watch_settings || w->watcher.running)
        return 0;
    return idng_ticker_start(&w->watcher, 1, watch_tick, w);
}

/* A changed file that did not load: said, counted, and nothing else. */
static int not_applied(struct idng_watch *w, struct idng_settings *s, const char *err)
{
    unsigned long long n = 0;

    say_lines(w, IDNG_WATCH_ERR, err);
    w->failing = 1;
    if (w->ops.failures)
        n = atomic_fetch_add(w->ops.failures, 1) + 1;
    say(w, IDNG_WATCH_ERR, "%s not applied: keeping the settings in force (reload failures: %llu)",
        w->path, n);
    idng_conf_free(&s->conf);
    free(s);
    return -1;
}

/* Loads the changed file and publishes it.  Under w->lock, by the one
 * writer. */
static int apply(struct idng_watch *w, struct idng_settings *cur)
{
    char *err = malloc(WATCH_ERR_MAX), what[1024];
    struct idng_settings *s = calloc(1, sizeof *s), *old;
    struct idng_conf_sources tried = {0}, *read;
    int r;

    if (!err || !s) {
        free(err);
        free(s);
        say(w, IDNG_WATCH_ERR, "%s: out of memory: keeping the settings in force", w->path);
        return -1;
    }
    idng_conf_init(&s->conf);
    r = idng_conf_load_sources(&s->conf, w->path, 0, &tried, err, WATCH_ERR_MAX);
    read = r == 0 ? &s->conf.sources : &tried;
    if (any_changed(read)) {
        /* Written to while it was read: neither applied nor judged.  What
         * the watch saw before still differs: read again at the next look. */
        idng_conf_sources_free(&tried);
        idng_conf_free(&s->conf);
        free(s);
        free(err);
        return 0;
    }
    /* The next change is the next to try, whatever this one gives. */
    watch_sources(w, read);
    if (r != 0) {
        r = not_applied(w, s, err);
        free(err);
        return r;
    }
    if (err[0])
        say_lines(w, IDNG_WATCH_WARN, err);
    if (s->conf.log_file) {
        if (cur->logf && same_path(s->conf.log_file, cur->conf.log_file))
            s->logf = cur->logf; /* the same file: it stays open */
        else if (!(s->logf = w->ops.open_log(w->ops.arg, s->conf.log_file, err, WATCH_ERR_MAX))) {
            r = not_applied(w, s, err);
            free(err);
            return r;
        }
    }
    free(err);
    s->gen = idng_settings_gen();
    s->loaded_at = time(NULL);
    /* What changed: the same summary as a reload's line. */
    idng_conf_diff(&cur->conf, &s->conf, what, sizeof what);
    if (strcmp(what, "no change") == 0) {
        /* Nothing to apply (a file beside the settings in a pattern's
         * directory, the same settings written again): the settings in
         * force stay, with their generation, so that nothing remembered
         * or cached is judged again for nothing. */
        if (w->failing)
            say(w, IDNG_WATCH_INFO, "%s loads again; the settings in force are unchanged",
                w->path);
        w->failing = 0;
        if (s->logf == cur->logf)
            s->logf = NULL; /* cur's */
        idng_settings_free(s);
        return 0;
    }
    w->failing = 0;
    old = idng_live_publish(&w->live, s);
    /* No worker holds old now. */
    stats_follow(w, &s->conf);
    if (w->ops.applied)
        w->ops.applied(w->ops.arg);
    say(w, IDNG_WATCH_INFO, "applied %s without a reload: %s", w->path, what);
    if (old->logf == s->logf)
        old->logf = NULL; /* the new settings' now */
    idng_settings_free(old);
    return 1;
}

int idng_watch_check(struct idng_watch *w)
{
    struct idng_settings *cur;
    int r = 0;

    pthread_mutex_lock(&w->lock);
    cur = idng_live_get(&w->live);
    if (cur && cur->conf.watch_settings && any_changed(&w->seen))
        r = apply(w, cur);
    pthread_mutex_unlock(&w->lock);
    return r;
}

struct idng_settings *idng_watch_stop(struct idng_watch *w)
{
    struct idng_settings *s;

    if (!w->started)
        return NULL;
    idng_ticker_stop(&w->watcher);
    idng_ticker_stop(&w->stats);
    w->stats_every = 0;
    s = idng_live_publish(&w->live, NULL);
    pthread_mutex_destroy(&w->lock);
    idng_conf_sources_free(&w->seen);
    free(w->path);
    w->path = NULL;
    w->started = 0;
    return s;
}
