/*
 * Where log lines and counters go (idng_out.h): the buffered log file with
 * its writer thread, the atomic file replacement, the timer thread.
 *
 * The log file's buffers move between three places, under lock:
 *   fill  the buffer callers append to (always there);
 *   out   a buffer handed to the writer thread (NULL when none);
 *   idle  the buffer nobody uses (NULL while out holds it).
 * A caller whose line does not fit moves fill to out and idle to fill when
 * out is free, else drops the line.  The writer takes out, writes it
 * without the lock, and gives it back as idle.
 */
#include "idng_out.h"
#include "idng_log.h"
#include "idng_stats.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

struct idng_logfile {
    pthread_mutex_t lock;
    pthread_cond_t wake; /* the writer waits here */
    pthread_cond_t done; /* idng_logfile_flush waits here, and a waiting write */
    pthread_t thread;
    int fd;
    char *path; /* NULL: a descriptor given, never reopened */
    size_t cap;
    unsigned flush_ms;
    char *fill, *out, *idle;
    size_t fill_len, out_len;
    struct timespec fill_since; /* CLOCK_MONOTONIC, when fill got its first line */
    int urgent;                 /* a flush is waited for */
    int stop;
    int wait; /* a write waits for a free buffer (idng_logfile_opts) */
    /* the writer thread's own */
    time_t checked;
    int reopen_failed;
    int mid_line; /* a failed write left part of a line in the file */
    void (*warn)(void *, const char *);
    void *warn_arg;
    atomic_ullong *errors_ext;
    atomic_ullong dropped, errors;
    char storage[]; /* the two buffers */
};

/* Opens path for appending without ever blocking: only a regular file. */
static int open_regular(const char *path, char *err, size_t errlen)
{
    struct stat st;
    int fd;

    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: log-file: not a regular file", path);
        return -1;
    }
    /* O_NONBLOCK for the open itself (a FIFO created meanwhile); cleared after. */
    fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0640);
    if (fd < 0) {
        snprintf(err, errlen, "%s: log-file: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: log-file: not a regular file", path);
        close(fd);
        return -1;
    }
    if (fcntl(fd, F_SETFL, O_APPEND) != 0) {
        snprintf(err, errlen, "%s: log-file: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

/* Called by the writer before each write; see the rotation paragraph of
 * idng_out.h. */
static void follow_rotation(struct idng_logfile *lf)
{
    struct stat path_st, fd_st;
    time_t now = time(NULL);
    char err[600];
    int fd;

    if (!lf->path || now == lf->checked)
        return;
    lf->checked = now;
    if (stat(lf->path, &path_st) == 0 && fstat(lf->fd, &fd_st) == 0
        && path_st.st_dev == fd_st.st_dev && path_st.st_ino == fd_st.st_ino)
        return;
    fd = open_regular(lf->path, err, sizeof err);
    if (fd < 0) {
        if (!lf->reopen_failed && lf->warn) {
            char msg[700];
            snprintf(msg, sizeof msg, "reopening the rotated log: %s (still writing to the old file)",
                     err);
            lf->warn(lf->warn_arg, msg);
        }
        lf->reopen_failed = 1;
        return;
    }
    close(lf->fd);
    lf->fd = fd;
    lf->reopen_failed = 0;
    lf->mid_line = 0;
}

static void count_lost(struct idng_logfile *lf, const char *p, size_t n)
{
    unsigned long long lines = 0;
    const char *e = p + n, *q;

    while (p < e && (q = memchr(p, '\n', (size_t)(e - p))) != NULL) {
        lines++;
        p = q + 1;
    }
    atomic_fetch_add(&lf->errors, lines);
    if (lf->errors_ext)
        atomic_fetch_add(lf->errors_ext, lines);
}

/* write(2) until done or failed; returns the octets written. */
static size_t write_some(int fd, const char *p, size_t n)
{
    size_t done = 0;

    while (done < n) {
        ssize_t w = write(fd, p + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    return done;
}

/*
 * Writes whole lines; what a failing write leaves is lost and counted.  A
 * write that fails after part of a line (a full disk, a file size limit)
 * leaves that part in the file: the next write begins with a newline, so
 * the next line is never glued to it.
 */
static void write_out(struct idng_logfile *lf, const char *p, size_t n)
{
    size_t done;

    follow_rotation(lf);
    if (lf->mid_line) {
        if (write_some(lf->fd, "\n", 1) != 1) {
            count_lost(lf, p, n);
            return;
        }
        lf->mid_line = 0;
    }
    done = write_some(lf->fd, p, n);
    if (done < n) {
        count_lost(lf, p + done, n - done);
        lf->mid_line = done > 0 && p[done - 1] != '\n';
    }
}

static int due(const struct idng_logfile *lf, struct timespec *deadline)
{
    struct timespec now;
    long long ns;

    if (lf->fill_len == 0)
        return 0;
    if (lf->stop || lf->urgent || lf->flush_ms == 0)
        return 1;
    ns = (long long)lf->fill_since.tv_nsec + (long long)lf->flush_ms * 1000000LL;
    deadline->tv_sec = lf->fill_since.tv_sec + (time_t)(ns / 1000000000LL);
    deadline->tv_nsec = (long)(ns % 1000000000LL);
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > deadline->tv_sec
           || (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec);
}

/* Moves fill to out (out must be free). */
static void hand_over(struct idng_logfile *lf)
{
    lf->out = lf->fill;
    lf->out_len = lf->fill_len;
    lf->fill = lf->idle;
    lf->idle = NULL;
    lf->fill_len = 0;
}

static void *writer_main(void *arg)
{
    struct idng_logfile *lf = arg;
    struct timespec deadline;

    pthread_mutex_lock(&lf->lock);
    for (;;) {
        if (!lf->out) {
            if (due(lf, &deadline)) {
                hand_over(lf);
            } else if (lf->fill_len == 0 && (lf->stop || lf->urgent)) {
                lf->urgent = 0;
                pthread_cond_broadcast(&lf->done);
                if (lf->stop)
                    break;
                continue;
            } else if (lf->fill_len > 0) {
                pthread_cond_timedwait(&lf->wake, &lf->lock, &deadline);
                continue;
            } else {
                pthread_cond_wait(&lf->wake, &lf->lock);
                continue;
            }
        }
        pthread_mutex_unlock(&lf->lock);
        write_out(lf, lf->out, lf->out_len);
        pthread_mutex_lock(&lf->lock);
        lf->idle = lf->out;
        lf->out = NULL;
        lf->out_len = 0;
        if (lf->wait)
            pthread_cond_broadcast(&lf->done); /* a buffer is free again */
    }
    pthread_mutex_unlock(&lf->lock);
    return NULL;
}

static struct idng_logfile *start(int fd, const char *path, const struct idng_logfile_opts *o,
                                  char *err, size_t errlen)
{
    size_t cap = o && o->buffer ? o->buffer : IDNG_LOGFILE_BUFFER;
    struct idng_logfile *lf;
    pthread_condattr_t ca;

    if (cap > ((size_t)-1 - sizeof *lf) / 2 || !(lf = calloc(1, sizeof *lf + 2 * cap))) {
        snprintf(err, errlen, "%s: log-file: out of memory", path ? path : "output");
        return NULL;
    }
    if (path && !(lf->path = strdup(path))) {
        snprintf(err, errlen, "%s: log-file: out of memory", path);
        free(lf);
        return NULL;
    }
    lf->fd = fd;
    lf->cap = cap;
    lf->fill = lf->storage;
    lf->idle = lf->storage + cap;
    if (o) {
        lf->flush_ms = o->flush_ms;
        lf->warn = o->warn;
        lf->warn_arg = o->warn_arg;
        lf->errors_ext = o->errors;
        lf->wait = o->wait != 0;
    }
    lf->checked = time(NULL);
    pthread_mutex_init(&lf->lock, NULL);
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&lf->wake, &ca);
    pthread_condattr_destroy(&ca);
    pthread_cond_init(&lf->done, NULL);
    if (pthread_create(&lf->thread, NULL, writer_main, lf) != 0) {
        snprintf(err, errlen, "%s: log-file: cannot start its writer thread",
                 path ? path : "output");
        pthread_cond_destroy(&lf->done);
        pthread_cond_destroy(&lf->wake);
        pthread_mutex_destroy(&lf->lock);
        free(lf->path);
        free(lf);
        return NULL;
    }
    return lf;
}

struct idng_logfile *idng_logfile_open(const char *path, const struct idng_logfile_opts *o,
                                       char *err, size_t errlen)
{
    struct idng_logfile *lf;
    int fd = open_regular(path, err, errlen);

    if (fd < 0)
        return NULL;
    if (!(lf = start(fd, path, o, err, errlen)))
        close(fd);
    return lf;
}

struct idng_logfile *idng_logfile_fdopen(int fd, const struct idng_logfile_opts *o, char *err,
                                         size_t errlen)
{
    return start(fd, NULL, o, err, errlen);
}

int idng_logfile_write(struct idng_logfile *lf, const char *line, size_t len)
{
    pthread_mutex_lock(&lf->lock);
    while (lf->fill_len + len + 1 > lf->cap) {
        if (len + 1 > lf->cap || (lf->out && !lf->wait)) {
            pthread_mutex_unlock(&lf->lock);
            atomic_fetch_add(&lf->dropped, 1);
            return -1;
        }
        if (lf->out) { /* wait set: until the writer frees a buffer */
            pthread_cond_wait(&lf->done, &lf->lock);
            continue;
        }
        hand_over(lf);
        pthread_cond_signal(&lf->wake);
    }
    if (lf->fill_len == 0) {
        clock_gettime(CLOCK_MONOTONIC, &lf->fill_since);
        pthread_cond_signal(&lf->wake); /* to time the flush */
    }
    memcpy(lf->fill + lf->fill_len, line, len);
    lf->fill[lf->fill_len + len] = '\n';
    lf->fill_len += len + 1;
    pthread_mutex_unlock(&lf->lock);
    return 0;
}

void idng_logfile_flush(struct idng_logfile *lf)
{
    pthread_mutex_lock(&lf->lock);
    lf->urgent = 1;
    pthread_cond_signal(&lf->wake);
    while (lf->urgent)
        pthread_cond_wait(&lf->done, &lf->lock);
    pthread_mutex_unlock(&lf->lock);
}

unsigned long long idng_logfile_dropped(const struct idng_logfile *lf)
{
    return atomic_load(&((struct idng_logfile *)lf)->dropped);
}

unsigned long long idng_logfile_errors(const struct idng_logfile *lf)
{
    return atomic_load(&((struct idng_logfile *)lf)->errors);
}

void idng_logfile_close(struct idng_logfile *lf)
{
    if (!lf)
        return;
    pthread_mutex_lock(&lf->lock);
    lf->stop = 1;
    pthread_cond_signal(&lf->wake);
    pthread_mutex_unlock(&lf->lock);
    pthread_join(lf->thread, NULL);
    if (lf->fd > 2)
        close(lf->fd);
    pthread_cond_destroy(&lf->done);
    pthread_cond_destroy(&lf->wake);
    pthread_mutex_destroy(&lf->lock);
    free(lf->path);
    free(lf);
}

int idng_file_replace(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    char tmp[4200];
    int fd, ok, e;

    if (snprintf(tmp, sizeof tmp, "%s.XXXXXX", path) >= (int)sizeof tmp) {
        snprintf(err, errlen, "%.200s...: name too long", path);
        return -1;
    }
    /* A fresh name of our own (O_EXCL: never a file or link put there),
     * readable by a collector running as another user. */
    fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    ok = fchmod(fd, 0644) == 0 && write_some(fd, text, len) == len;
    e = errno;
    ok = close(fd) == 0 && ok;
    if (ok && rename(tmp, path) == 0)
        return 0;
    e = ok ? errno : e;
    snprintf(err, errlen, "%s: %s", path, strerror(e));
    unlink(tmp);
    return -1;
}

static char *copy(const char *s)
{
    return s && s[0] ? strdup(s) : NULL;
}

void idng_daemon_log_set(struct idng_daemon_log *d, const char *file, const char *chroot,
                         const char *ident, int syslog, int time_ascii)
{
    idng_daemon_log_free(d);
    d->file = copy(file);
    d->chroot = copy(chroot);
    d->ident = copy(ident);
    d->syslog = syslog;
    d->time_ascii = time_ascii;
}

void idng_daemon_log_free(struct idng_daemon_log *d)
{
    free(d->file);
    free(d->chroot);
    free(d->ident);
    memset(d, 0, sizeof *d);
}

int idng_daemon_log_counters(const struct idng_daemon_log *d, const struct idng_counters *c,
                             const char *when)
{
    struct idng_stats st;
    char line[IDNG_LOG_LINE_MAX];

    idng_counters_snapshot(c, &st);
    idng_stats_line(&st, when, line, sizeof line);
    return idng_daemon_log_line(d, line);
}

int idng_daemon_log_line(const struct idng_daemon_log *d, const char *line)
{
    const char *ident = d->ident && d->ident[0] ? d->ident : "unbound", *path = d->file;
    size_t cl = d->chroot ? strlen(d->chroot) : 0;
    char when[32];
    time_t now = time(NULL);
    struct tm tm;
    FILE *f = stderr;
    int ok;

    if (d->syslog) {
        openlog(ident, LOG_NDELAY, LOG_DAEMON);
        syslog(LOG_INFO, "[%d:0] info: %s", (int)getpid(), line);
        closelog();
        return 0;
    }
    if (path && path[0]) {
        if (cl > 0 && strncmp(path, d->chroot, cl) == 0)
            path += cl;
        if ((f = fopen(path, "a")) == NULL)
            return -1;
    }
    if (!d->time_ascii || !localtime_r(&now, &tm)
        || strftime(when, sizeof when, "%b %d %H:%M:%S", &tm) == 0)
        snprintf(when, sizeof when, "[%lld]", (long long)now);
    ok = fprintf(f, "%s %s[%d:0] info: %s\n", when, ident, (int)getpid(), line) > 0;
    if (f != stderr)
        return fclose(f) == 0 && ok ? 0 : -1;
    return fflush(f) == 0 && ok ? 0 : -1;
}

static void *ticker_main(void *arg)
{
    struct idng_ticker *t = arg;
    struct timespec until;

    pthread_mutex_lock(&t->lock);
    clock_gettime(CLOCK_REALTIME, &until);
    while (!t->stop) {
        until.tv_sec += (time_t)t->seconds;
        while (!t->stop && pthread_cond_timedwait(&t->cond, &t->lock, &until) != ETIMEDOUT)
            ;
        if (t->stop)
            break;
        pthread_mutex_unlock(&t->lock);
        t->fn(t->arg);
        pthread_mutex_lock(&t->lock);
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

int idng_ticker_start(struct idng_ticker *t, unsigned seconds, void (*fn)(void *), void *arg)
{
    memset(t, 0, sizeof *t);
    if (seconds == 0)
        return -1;
    t->fn = fn;
    t->arg = arg;
    t->seconds = seconds;
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->cond, NULL);
    if (pthread_create(&t->thread, NULL, ticker_main, t) != 0) {
        pthread_cond_destroy(&t->cond);
        pthread_mutex_destroy(&t->lock);
        return -1;
    }
    t->running = 1;
    return 0;
}

void idng_ticker_stop(struct idng_ticker *t)
{
    if (!t->running)
        return;
    pthread_mutex_lock(&t->lock);
    t->stop = 1;
    pthread_cond_signal(&t->cond);
    pthread_mutex_unlock(&t->lock);
    pthread_join(t->thread, NULL);
    pthread_cond_destroy(&t->cond);
    pthread_mutex_destroy(&t->lock);
    t->running = 0;
}

const char *idng_file_kind(unsigned mode)
{
    return S_ISREG(mode)    ? "a regular file"
           : S_ISDIR(mode)  ? "a directory"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISSOCK(mode) ? "a socket"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
                            : "a special file";
}
