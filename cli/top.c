/**
 * \file
 * `idnguard top`: the module's (or the tap's) counters and query log as a
 * live view in the terminal.
 *
 * Two sources, either or both:
 * - counters files (the module's stats-file, the tap's tap-stats-file):
 *   answers by class and action, and per second between two versions of
 *   the file (it is replaced every stats-interval);
 * - a query-log file (the module's log-file, the tap's -w, or a file
 *   Unbound's own log goes to), followed as it grows and across rotation:
 *   the names and clients refused, NXDOMAINed or dropped most often since
 *   top started (and in the last MiB before it started).
 *
 * Everything shown from the log is shown as the module wrote it (names in
 * their escaped A-label form, a Unicode form only where the log line holds
 * one, which it never does for a lookalike), and escaped once more when a
 * field holds anything but printable ASCII: a log file written by someone
 * else cannot send the terminal an escape sequence.
 */
#include "top.h"
#include "top_log.h"
#include "stopsig.h"
#include "opts.h"

#include "idng_conf.h"
#include "idng_policy.h"
#include "idnguard.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

/* ---- the frame ---- */

struct frame {
    char *b;
    size_t len, cap;
    int rows, cols, row;
};

__attribute__((format(printf, 2, 3))) static void put(struct frame *f, const char *fmt, ...)
{
    va_list ap;
    char line[2048];
    int n;

    if (f->rows > 0 && f->row >= f->rows)
        return;
    va_start(ap, fmt);
    n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof line)
        n = sizeof line - 1;
    if (f->len + (size_t)n + 8 > f->cap) {
        size_t cap = (f->cap + (size_t)n + 8) * 2;
        char *b = realloc(f->b, cap);
        if (b == NULL)
            return;
        f->b = b;
        f->cap = cap;
    }
    memcpy(f->b + f->len, line, (size_t)n);
    f->len += (size_t)n;
    f->row += (n > 0 && line[n - 1] == '\n');
}

/* A field from the log, made safe for a terminal: printable ASCII as it
 * is (the module's escapes stay readable), anything else through the
 * display unit (controls and unsafe code points as escapes). */
static void safe(char *out, size_t cap, const char *s)
{
    struct idng_display_buf b;
    size_t n = strlen(s);

    idng_display_buf_init(&b, out, cap);
    while (n > 0) {
        size_t run = 0;
        while (run < n && (unsigned char)s[run] > 0x20 && (unsigned char)s[run] < 0x7f)
            run++;
        idng_display_put_run(&b, s, run);
        s += run;
        n -= run;
        if (n == 0)
            break;
        for (run = 0; run < n && !((unsigned char)s[run] > 0x20 && (unsigned char)s[run] < 0x7f);
             run++)
            ;
        idng_display_text_to(s, run, idng_display_put, &b);
        s += run;
        n -= run;
    }
}

static int by_count(const void *a, const void *b)
{
    const struct tally *x = *(const struct tally *const *)a, *y = *(const struct tally *const *)b;
    if (x->n != y->n)
        return x->n < y->n ? 1 : -1;
    return strcmp(x->key, y->key);
}

static void top_list(struct frame *f, const struct table *t, const char *title, int want,
                     int with_extra)
{
    const struct tally **v = malloc(NAMES_MAX * sizeof *v);
    size_t n = 0, i;
    char k[KEY_MAX * 5], x[KEY_MAX * 5];

    if (v == NULL)
        return;
    for (i = 0; i < NAMES_MAX; i++)
        if (t->e[i].key[0])
            v[n++] = &t->e[i];
    qsort(v, n, sizeof *v, by_count);
    put(f, "%-44s %8s%s\n", title, "count", with_extra ? "  verdict action (unicode)" : "");
    for (i = 0; i < n && (int)i < want; i++) {
        safe(k, sizeof k, v[i]->key);
        safe(x, sizeof x, v[i]->extra);
        put(f, "  %-42s %8llu%s%s\n", k, v[i]->n, with_extra ? "  " : "", with_extra ? x : "");
    }
    if (n == 0)
        put(f, "  (none)\n");
    free(v);
}

struct source {
    const char *path;
    struct idng_statsfile now, before; /* the file now, and its previous version */
    int have, have_before, err;
};

static double seconds(struct timespec a, struct timespec b)
{
    return (double)(a.tv_sec - b.tv_sec) + (double)(a.tv_nsec - b.tv_nsec) / 1e9;
}

static void refresh(struct source *s)
{
    static struct idng_statsfile next;
    int rc = idng_statsfile_read(s->path, &next);

    s->err = rc == -1 ? errno : rc == -2 ? -2 : 0;
    if (rc != 0)
        return;
    if (s->have && (next.mtime.tv_sec != s->now.mtime.tv_sec
                    || next.mtime.tv_nsec != s->now.mtime.tv_nsec)) {
        s->before = s->now;
        s->have_before = 1;
    }
    s->now = next;
    s->have = 1;
}

static unsigned long long before_n(const struct source *s, const struct idng_statsfile_row *r)
{
    size_t i;
    for (i = 0; i < s->before.nrows; i++)
        if (strcmp(s->before.rows[i].cls, r->cls) == 0
            && strcmp(s->before.rows[i].action, r->action) == 0)
            return s->before.rows[i].n;
    return 0;
}

static void show_source(struct frame *f, struct source *s, time_t now)
{
    char p[1024];
    unsigned long long total = 0, rej = 0;
    double dt = s->have_before ? seconds(s->now.mtime, s->before.mtime) : 0;
    size_t i;

    safe(p, sizeof p, s->path);
    if (!s->have) {
        put(f, "counters: %s: %s\n", p,
            s->err == -2 ? "no idnguard counters in it" : strerror(s->err ? s->err : ENOENT));
        return;
    }
    put(f, "counters: %s (%s%s%s), written %lds ago%s\n", p, s->now.tap ? "idnguard tap" : "module",
        s->now.mode[0] ? ", mode " : "", s->now.mode, (long)(now - s->now.mtime.tv_sec),
        s->err ? " (now unreadable)" : "");
    put(f, "  %-22s %-10s %12s %10s\n", "class", "action", "total", dt > 0 ? "per second" : "");
    for (i = 0; i < s->now.nrows; i++) {
        const struct idng_statsfile_row *r = &s->now.rows[i];
        char rate[32] = "";
        if (dt > 0)
            snprintf(rate, sizeof rate, "%.2f", (double)(r->n - before_n(s, r)) / dt);
        put(f, "  %-22s %-10s %12llu %10s\n", r->cls, r->action, r->n, rate);
        total += r->n;
        rej += top_rejecting(r->action, strlen(r->action)) ? r->n : 0;
    }
    put(f, "  %-33s %12llu   rejected %llu (%.2f%%)\n", s->now.tap ? "all lines" : "all answers",
        total, rej, total ? 100.0 * (double)rej / (double)total : 0.0);
    {
        char o[1024];
        size_t len = 0;
        for (i = 0; i < s->now.nothers && len < sizeof o; i++)
            len += (size_t)snprintf(o + len, sizeof o - len, "%s%s %llu", i ? ", " : "",
                                    s->now.others[i].name, s->now.others[i].n);
        if (s->now.nothers)
            put(f, "  %s\n", o);
    }
}

static void usage(FILE *f)
{
    fputs("usage: idnguard top [--conf FILE] [--stats FILE]... [--log FILE] [OPTIONS]\n"
          "\n"
          "A live view of idnguard's counters and query log, refreshed in the terminal:\n"
          "answers by class and action with their rates, and the names and clients\n"
          "refused, NXDOMAINed or dropped most often.  q or Ctrl-C quits.\n"
          "\n"
          "  --conf FILE        take stats-file, tap-stats-file and log-file from this\n"
          "                     settings file (default, when no --stats or --log is\n"
          "                     given: $" IDNG_CONF_ENV " or " IDNG_CONF_DEFAULT_PATH ")\n"
          "  --stats FILE       a counters file (the module's stats-file or the tap's\n"
          "                     tap-stats-file); up to 4\n"
          "  --log FILE         a query log to follow (log-file, the tap's -w, or the file\n"
          "                     Unbound's own log goes to); text or json lines\n"
          "  --interval SECS    seconds between refreshes (default 2)\n"
          "  --top N            how many names and clients to list (default 10)\n"
          "  --once             print one frame and exit (no terminal control)\n"
          "\n"
          "Exit status: 0 done; 2 a usage error, or no source can be read.\n",
          f);
}

#define SOURCES_MAX 4

/* The command line as given. */
struct top_args {
    struct source *src; /* [SOURCES_MAX] */
    size_t nsrc;
    const char *conf_path, *log_path, *once;
    unsigned interval, want;
};

/* --stats FILE, up to SOURCES_MAX of them. */
static int top_stats(void *ctx, const struct idng_opt *opt, const char *value)
{
    struct top_args *a = ctx;

    (void)opt;
    if (a->nsrc == SOURCES_MAX) {
        fprintf(stderr, IDNG_CLI_ERR "at most %d --stats files\n", "top", SOURCES_MAX);
        return 2;
    }
    a->src[a->nsrc++].path = value;
    return -1;
}

/* --interval SECS, --top N. */
static int top_number(void *ctx, const struct idng_opt *opt, const char *value)
{
    struct top_args *a = ctx;
    int is_top = opt->id == 1;

    return idng_opt_uint("top", opt->name, value, 1, is_top ? 1000u : 3600u,
                         is_top ? &a->want : &a->interval)
                   == 0
               ? -1
               : 2;
}

/* The options into a; returns -1 to go on, or the exit status. */
static int parse_args(int argc, char **argv, struct top_args *a)
{
    const struct idng_opt opts[] = {
        {.name = "--conf", .val = IDNG_OPT_NEXT, .arg = "FILE", .store = &a->conf_path},
        {.name = "--stats", .val = IDNG_OPT_NEXT, .arg = "FILE", .fn = top_stats},
        {.name = "--log", .val = IDNG_OPT_NEXT, .arg = "FILE", .store = &a->log_path},
        {.name = "--interval", .val = IDNG_OPT_NEXT, .arg = "SECS", .fn = top_number},
        {.name = "--top", .val = IDNG_OPT_NEXT, .arg = "N", .fn = top_number, .id = 1},
        {.name = "--once", .store = &a->once},
    };
    const struct idng_optspec spec = {.cmd = "top",
                                      .opts = opts,
                                      .nopts = sizeof opts / sizeof opts[0],
                                      .ctx = a,
                                      .usage = usage};
    int n;

    return idng_opts_parse(&spec, argc, argv, &n);
}

/* What one run shows, and how. */
struct view {
    struct source *src;
    size_t nsrc;
    struct logview *lv;
    unsigned interval, want;
    int tty;         /* 1: a terminal with keys, 2: without keys, 0: none */
    int conf_loaded; /* the sources came from a settings file */
};

/* The settings file's sources after the ones given; -1 after the error. */
static int load_sources(struct view *v, struct idng_conf *conf, const char *conf_path,
                        const char **log_path)
{
    char err[8192];

    if (conf_path) {
        if (idng_conf_load(conf, conf_path, err, sizeof err) != 0) {
            fprintf(stderr, IDNG_CLI_ERR "%s%s", "top", err,
                    err[0] && err[strlen(err) - 1] == '\n' ? "" : "\n");
            return -1;
        }
        v->conf_loaded = 1;
        if (conf->stats_file && v->nsrc < SOURCES_MAX)
            v->src[v->nsrc++].path = conf->stats_file;
        if (conf->tap_stats_file && v->nsrc < SOURCES_MAX)
            v->src[v->nsrc++].path = conf->tap_stats_file;
        if (!*log_path)
            *log_path = conf->log_file;
    }
    if (v->nsrc == 0 && !*log_path) {
        fprintf(stderr,
                IDNG_CLI_ERR "nothing to show: %s names no stats-file, "
                             "tap-stats-file or log-file (give --stats FILE or --log FILE)\n",
                "top", conf_path);
        return -1;
    }
    return 0;
}

/* One frame of the view into f. */
static void draw(struct frame *f, const struct view *v)
{
    struct logview *lv = v->lv;
    struct winsize ws;
    time_t now = time(NULL);
    char ts[32], p[1024];
    struct tm tm;
    size_t i;

    f->len = 0;
    f->row = 0;
    f->rows = 0;
    f->cols = 80;
    if (v->tty && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0) {
        f->rows = ws.ws_row - 1;
        f->cols = ws.ws_col;
    }
    for (i = 0; i < v->nsrc; i++)
        refresh(&v->src[i]);
    if (lv->path)
        top_follow(lv);
    localtime_r(&now, &tm);
    strftime(ts, sizeof ts, "%Y-%m-%d %H:%M:%S", &tm);
    if (v->tty)
        put(f, "\033[H\033[2J");
    put(f, "idnguard top  %s  every %us%s\n\n", ts, v->interval, v->tty == 1 ? "  (q quits)" : "");
    for (i = 0; i < v->nsrc; i++) {
        show_source(f, &v->src[i], now);
        put(f, "\n");
    }
    if (lv->path && lv->path[0]) {
        char since[32];
        localtime_r(&lv->since, &tm);
        strftime(since, sizeof since, "%H:%M:%S", &tm);
        safe(p, sizeof p, lv->path);
        if (lv->f == NULL && lv->lines == 0)
            put(f, "query log: %s: %s\n", p, strerror(errno ? errno : ENOENT));
        else
            put(f, "query log: %s: %llu answers, %llu rejected (the last MiB before %s, "
                   "and since)\n\n",
                p, lv->answers, lv->rejected, since);
        top_list(f, &lv->names, "most rejected names", (int)v->want, 1);
        put(f, "\n");
        top_list(f, &lv->clients, "clients with most rejections", (int)v->want, 0);
    } else if (v->conf_loaded) {
        put(f, "query log: Unbound's own log (log-file is \"\"): give --log FILE to follow "
               "the file it goes to\n");
    }
}

/* Waits the interval out, or until q is pressed or a signal stops it. */
static void wait_next(const struct view *v)
{
    struct pollfd pfd = {STDIN_FILENO, POLLIN, 0};
    int waited = 0;

    while (!idng_stop && waited < (int)v->interval * 1000) {
        int r = poll(v->tty == 1 ? &pfd : NULL, v->tty == 1 ? 1 : 0, 200);
        waited += 200;
        if (r > 0 && (pfd.revents & POLLIN)) {
            char c;
            if (read(STDIN_FILENO, &c, 1) == 1 && (c == 'q' || c == 'Q'))
                idng_stop = 1;
        }
    }
}

/* Keys read one at a time, unechoed, when standard input is a terminal
 * too: *saved is what to restore.  Returns the view's tty. */
static int raw_keys(int tty, struct termios *saved)
{
    if (tty && isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, saved) == 0) {
        struct termios raw = *saved;
        raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
        raw.c_cc[VMIN] = 0;
        raw.c_cc[VTIME] = 0;
        tcsetattr(STDIN_FILENO, TCSANOW, &raw);
        return 1;
    }
    return tty ? 2 : 0; /* a terminal to draw on, but no keys to read */
}

int idng_top_main(int argc, char **argv)
{
    static struct source src[SOURCES_MAX];
    static struct logview lv;
    struct idng_conf conf;
    struct top_args args = {src, 0, NULL, NULL, NULL, 2, 10};
    struct view v = {src, 0, &lv, 2, 10, 0, 0};
    const char *conf_path;
    int rc;
    struct termios saved;
    struct frame f = {0};

    if ((rc = parse_args(argc, argv, &args)) >= 0)
        return rc;
    conf_path = args.conf_path;
    lv.path = args.log_path;
    v.nsrc = args.nsrc;
    v.interval = args.interval;
    v.want = args.want;
    rc = 0;
    if (!conf_path && v.nsrc == 0 && !lv.path)
        conf_path = idng_conf_path();
    idng_conf_init(&conf);
    if (load_sources(&v, &conf, conf_path, &lv.path) != 0) {
        idng_conf_free(&conf);
        return 2;
    }
    lv.names.e = calloc(NAMES_MAX, sizeof *lv.names.e);
    lv.clients.e = calloc(NAMES_MAX, sizeof *lv.clients.e);
    if (!lv.names.e || !lv.clients.e) {
        fprintf(stderr, IDNG_CLI_ERR "out of memory\n", "top");
        rc = 2;
        goto out;
    }
    lv.since = time(NULL);
    idng_stop_on_signals(0);
    v.tty = raw_keys(!args.once && isatty(STDOUT_FILENO), &saved);
    if (v.tty)
        fputs("\033[?25l", stdout); /* no cursor while drawing */
    while (!idng_stop) {
        draw(&f, &v);
        fwrite(f.b, 1, f.len, stdout);
        fflush(stdout);
        if (args.once || ferror(stdout))
            break;
        wait_next(&v);
    }
    if (v.tty) {
        fputs("\033[?25h\n", stdout);
        fflush(stdout);
    }
    if (v.tty == 1)
        tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    if (ferror(stdout))
        rc = 2;
out:
    if (lv.f)
        fclose(lv.f);
    free(lv.names.e);
    free(lv.clients.e);
    free(f.b);
    idng_conf_free(&conf);
    return rc;
}
