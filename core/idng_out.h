/**
 * \file
 * Where log lines and counters go: the query-log file, the stats file, and
 * the timer that writes the stats.  One home for what the dynlib module,
 * libidnguard and `idnguard tap` all do with files.  Uses the log lines
 * (idng_log.h) and the counters (idng_stats.h); libc and POSIX threads
 * besides, no Unbound headers.
 *
 * The log file (struct idng_logfile) never makes its caller wait on the
 * disk.  A caller (a resolver worker, the tap's decoder) copies its line
 * into a buffer under a mutex and goes on; a writer thread of the log
 * file's own moves full buffers to the file.  There are two buffers: the
 * one being filled and the one being written.  When the disk is slower
 * than the lines come, the filling buffer fills up while the other is
 * still being written, and the next lines are dropped and counted
 * (idng_logfile_dropped), never queued without bound: memory is two
 * buffers, whatever happens to the disk.
 *
 * Lines are never split or interleaved: a buffer holds whole lines only,
 * and is written with write(2) in O_APPEND mode; a line longer than a
 * buffer is dropped.  A write that fails halfway (a full disk) leaves part
 * of a line; the next write starts with a newline, so no line is glued
 * to it.  The writer thread writes the filled buffer when it
 * is full, when its oldest line is flush_ms old, and at close.  So a
 * crash of the process loses at most the lines of its last flush_ms
 * milliseconds (at most two buffers' worth); idng_logfile_close loses
 * nothing.
 *
 * Rotation: before a write, at most once a second, the writer looks at
 * the path; when it names another file than the one open (logrotate moved
 * it away or removed it) the path is opened anew.  copytruncate needs
 * nothing (append mode).
 *
 * Only a regular file is opened by path: a FIFO with no reader, a device
 * or a socket would block or misbehave.  idng_logfile_fdopen takes an
 * open descriptor of any kind (the tap's standard output) and never
 * reopens it.
 */
#ifndef IDNG_OUT_H
#define IDNG_OUT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct idng_logfile;

/** How a log file behaves. */
struct idng_logfile_opts {
    size_t buffer;        /**< octets per buffer (two are kept); 0: 256 KiB */
    unsigned flush_ms;    /**< a line waits at most this long (about); 0: written
                               as soon as the writer thread wakes */
    /** Called from the writer thread with a one-line message when the
     *  rotated file cannot be opened anew (writing goes on to the old
     *  one), once until it succeeds again; NULL: not told. */
    void (*warn)(void *arg, const char *msg);
    void *warn_arg;
    /** Counts every line lost to a write error (disk full, I/O error);
     *  NULL: idng_logfile_errors only. */
    atomic_ullong *errors;
    /** Nonzero: when both buffers are busy, idng_logfile_write waits for
     *  the writer instead of dropping the line.  For a reader of a file
     *  (`idnguard tap -r`), which has no producer to keep up with; never
     *  for a resolver's log. */
    int wait;
};

/** The query log's flush interval in the module, libidnguard and the
 *  tap: a crash loses at most this many milliseconds of lines. */
#define IDNG_LOG_FLUSH_MS 250

/** Default octets per buffer. */
#define IDNG_LOGFILE_BUFFER (256 * 1024)

/**
 * Opens path for appending (created 0640 if missing; only a regular file)
 * and starts its writer thread.
 * @param o: NULL for the defaults.
 * @param err, errlen: on failure, "PATH: log-file: reason".
 * @return the log file, or NULL.
 */
struct idng_logfile *idng_logfile_open(const char *path, const struct idng_logfile_opts *o,
                                       char *err, size_t errlen);

/**
 * The same on an open descriptor, which becomes the log file's (closed by
 * idng_logfile_close unless it is 0, 1 or 2); never reopened.  A blocking
 * descriptor blocks the writer thread only.
 */
struct idng_logfile *idng_logfile_fdopen(int fd, const struct idng_logfile_opts *o, char *err,
                                         size_t errlen);

/**
 * Queues one line (len octets, no newline; one is added).  Thread-safe,
 * never waits for the disk unless the options' wait is set.
 * @return 0 when queued; -1 when dropped (both buffers busy without wait,
 *   or a line longer than a buffer), counted by idng_logfile_dropped.
 */
int idng_logfile_write(struct idng_logfile *lf, const char *line, size_t len);

/** Writes every queued line now and waits until it is written. */
void idng_logfile_flush(struct idng_logfile *lf);

/** Lines dropped so far; lines lost to write errors so far. */
unsigned long long idng_logfile_dropped(const struct idng_logfile *lf);
unsigned long long idng_logfile_errors(const struct idng_logfile *lf);

/** Writes every queued line, stops the writer thread, closes; NULL is a no-op. */
void idng_logfile_close(struct idng_logfile *lf);

/**
 * Replaces the file at path with text, atomically: written to a new file
 * beside it ("PATH.XXXXXX", created exclusively, mode 0644) and renamed
 * over path, so a reader (node_exporter's textfile collector) never sees
 * half a file, and a link planted in the directory is never followed.
 * @return 0, or -1 with err set ("PATH: reason").
 */
int idng_file_replace(const char *path, const char *text, size_t len, char *err, size_t errlen);

/**
 * What a file of mode st_mode is when it is not a regular file, for an
 * error message: "a directory", "a FIFO", "a socket", "a character
 * device", "a block device" or "a special file"; "a regular file" for one.
 * The one spelling of the settings' path checks and lint-zone's refusals.
 */
const char *idng_file_kind(unsigned mode);

/**
 * Where the daemon's own log goes, as its settings say (Unbound's logfile,
 * use-syslog, chroot, log-identity and log-time-ascii): for a line written
 * after the daemon's logging has closed, the counters line at its exit.
 * All zeros is standard error; idng_daemon_log_set fills it with copies.
 */
struct idng_daemon_log {
    char *file;     /**< the log file; NULL: standard error, unless syslog */
    char *chroot;   /**< stripped from the front of file, as the daemon does; NULL: none */
    char *ident;    /**< the name on the line; NULL: "unbound" */
    int syslog;     /**< to syslog, facility daemon, instead */
    int time_ascii; /**< "Nov 28 06:18:54" for the time instead of seconds since the epoch */
};

/**
 * Sets d to copies of the settings given (NULL or "" for a string: none),
 * freeing what it held.  A copy that cannot be made is left NULL.
 */
void idng_daemon_log_set(struct idng_daemon_log *d, const char *file, const char *chroot,
                         const char *ident, int syslog, int time_ascii);

/** Frees what d holds and makes it all zeros. */
void idng_daemon_log_free(struct idng_daemon_log *d);

/**
 * Writes one line at level info as Unbound's log writes its own
 * (util/log.c): to syslog "[PID:0] info: LINE" under ident; to the file or
 * standard error "[SECONDS] IDENT[PID:0] info: LINE", or "MON DD HH:MM:SS
 * IDENT[PID:0] info: LINE" with time_ascii.  The file is opened for the
 * line and closed after it.
 * @return 0, or -1 when the file cannot be opened or written.
 */
int idng_daemon_log_line(const struct idng_daemon_log *d, const char *line);

struct idng_counters;

/**
 * idng_daemon_log_line of the counters' summary line (idng_stats_line),
 * labelled when ("shutdown"): the module's and libidnguard's last line.
 */
int idng_daemon_log_counters(const struct idng_daemon_log *d, const struct idng_counters *c,
                             const char *when);

/**
 * A timer thread: calls fn(arg) every seconds seconds (wall clock, not
 * drifting with fn's own time) until stopped.
 */
struct idng_ticker {
    void (*fn)(void *arg);
    void *arg;
    unsigned seconds;
    int running, stop;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
};

/** Starts t (seconds > 0).  @return 0, or -1 when no thread could be made. */
int idng_ticker_start(struct idng_ticker *t, unsigned seconds, void (*fn)(void *), void *arg);

/** Stops a started ticker and waits for it; a call in progress finishes first.
 *  A ticker that was never started, or whose start failed, is a no-op. */
void idng_ticker_stop(struct idng_ticker *t);

#ifdef __cplusplus
}
#endif
#endif /* IDNG_OUT_H */
