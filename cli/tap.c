/**
 * \file
 * `idnguard tap`: dnstap in, the module's query-log lines out.
 *
 *   idnguard tap (-u SOCKET | -r FILE) [--conf FILE] [--format=text|json]
 *                [-w OUTFILE] [--stats-file FILE] [--stats-interval SECONDS]
 *                [--wait SECONDS]
 *
 * A resolver (Unbound, BIND, Knot Resolver, dnsdist; PowerDNS Recursor's
 * dnstap has no client messages) streams a dnstap message for each client
 * query and response over a Frame Streams socket; this reads them (tap/:
 * the framing, the protobuf, the DNS message), judges each query name with
 * the settings file's policy (core/, conf/: the module's own code) and
 * writes one line per client query in the module's format
 * (core/idng_log.h), through the module's buffered log file
 * (core/idng_out.h).
 *
 * One thread reads and decodes; the log file's writer thread writes.  A
 * CLIENT_QUERY waits in a bounded table (TAP_PENDING) for its
 * CLIENT_RESPONSE, matched by transport, client address and port, DNS id
 * and question; the response writes the line, with the time between the
 * two.  A query whose response does not come within --wait seconds (or
 * when the table is full, the oldest) gets its line without an rcode.  A
 * response whose query was not seen (the resolver sends no queries, or
 * the tap started late) gets its line alone.  Other message types, and
 * client messages sent without their DNS message, are counted only.
 *
 * Nothing the producer sends can make memory grow: each connection has
 * one buffer of one frame's size, connections are capped (TAP_CONNS), the
 * pending table is fixed, and lines the disk cannot take are dropped and
 * counted (idng_out.h).  The tap never slows the resolver: it reads as
 * fast as it can, whatever the output does.  A capture read with -r has
 * no producer to keep up with: there the output is waited for instead.
 *
 * This file holds the command: its options, the settings, the counters
 * and the tap-stats-file; tap_stream.c reads the input, tap_match.c pairs
 * queries with responses and writes the lines (tap_run.h).
 */
#include "tap.h"
#include "tap_run.h"
#include "stopsig.h"
#include "opts.h"

#include "idng_conf.h"
#include "idng_log.h"
#include "idng_out.h"
#include "idng_policy.h"
#include "idng_stats.h"
#include "idnguard.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- counters ---- */

struct tap_counters tap_count;

__attribute__((format(printf, 2, 3))) void tap_report(struct tap *t, const char *fmt, ...)
{
    va_list ap;

    if (t->errors_shown == TAP_ERRORS_SHOWN)
        fprintf(stderr, "idnguard tap: further errors are only counted\n");
    if (t->errors_shown++ >= TAP_ERRORS_SHOWN)
        return;
    va_start(ap, fmt);
    fputs("idnguard tap: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

long long tap_wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * NS + ts.tv_nsec;
}

long long tap_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * NS + ts.tv_nsec;
}

/* ---- counters outward ---- */

void tap_write_stats(struct tap *t)
{
    static char text[64 * 1024];
    char err[4400];
    size_t len = 0;
    unsigned r, a;
    int n;

#define PUT(...)                                                                             \
    do {                                                                                     \
        n = snprintf(text + len, sizeof text - len, __VA_ARGS__);                            \
        if (n < 0 || (size_t)n >= sizeof text - len)                                         \
            goto full;                                                                       \
        len += (size_t)n;                                                                    \
    } while (0)
    PUT("# HELP idnguard_tap_lines_total Client queries seen by idnguard tap, by the verdict "
        "class and the action the settings give it.\n# TYPE idnguard_tap_lines_total counter\n");
    for (r = 0; r < IDNG_VERDICT_COUNT; r++)
        for (a = 0; a < IDNG_ACTION_COUNT; a++)
            if (tap_count.verdicts[r][a])
                PUT("idnguard_tap_lines_total{class=\"%s\",action=\"%s\"} %llu\n",
                    idng_verdict_row_name(r), idng_action_name((enum idng_action)a),
                    tap_count.verdicts[r][a]);
    {
        const struct {
            const char *name, *help;
            unsigned long long v;
        } rows[] = {
            {"frames", "Frame Streams data frames read.", tap_count.frames},
            {"messages", "dnstap messages decoded.", tap_count.messages},
            {"other_messages",
             "dnstap messages not logged: of other types than CLIENT_QUERY "
             "and CLIENT_RESPONSE (resolver, auth, forwarder ...), or sent "
             "without their DNS message.",
             tap_count.other_messages},
            {"unanswered", "Client queries whose response did not come within --wait.",
             tap_count.unanswered},
            {"unmatched", "Client responses whose query was not seen.", tap_count.unmatched},
            {"dropped", "Lines dropped because the output could not keep up.",
             idng_logfile_dropped(t->out)},
            {"write_errors", "Lines lost to output write errors.", idng_logfile_errors(t->out)},
            {"malformed_frames", "Frame Streams frames or handshakes refused.",
             tap_count.malformed_frames},
            {"malformed_messages", "Data frames that are not a valid dnstap message.",
             tap_count.malformed_messages},
            {"malformed_dns", "dnstap messages whose DNS message is malformed.",
             tap_count.malformed_dns},
            {"connections", "Writer connections accepted.", tap_count.connections},
            {"closed",
             "Writer connections the tap closed: no handshake in time, stopped "
             "inside a frame, or the oldest when all slots were taken.",
             tap_count.closed_conns},
        };
        size_t i;
        for (i = 0; i < sizeof rows / sizeof rows[0]; i++)
            PUT("# HELP idnguard_tap_%s_total %s\n# TYPE idnguard_tap_%s_total counter\n"
                "idnguard_tap_%s_total %llu\n",
                rows[i].name, rows[i].help, rows[i].name, rows[i].name, rows[i].v);
    }
    PUT("# HELP idnguard_tap_info idnguard tap's version and settings.\n"
        "# TYPE idnguard_tap_info gauge\n"
        "idnguard_tap_info{version=\"%s\",unicode=\"%s\",mode=\"%s\"} 1\n",
        IDNG_VERSION, IDNG_UNICODE_VERSION, idng_mode_name(t->conf.policy.mode));
#undef PUT
    if (idng_file_replace(t->stats_file, text, len, err, sizeof err) != 0)
        tap_report(t, "stats-file: %s", err);
    return;
full:
    tap_report(t, "stats-file: too much to write");
}

static void summary(struct tap *t)
{
    fprintf(stderr,
            "idnguard tap: frames=%llu messages=%llu lines=%llu unanswered=%llu unmatched=%llu "
            "dropped=%llu malformed_frames=%llu malformed_messages=%llu malformed_dns=%llu "
            "connections=%llu closed=%llu\n",
            tap_count.frames, tap_count.messages, tap_count.lines, tap_count.unanswered,
            tap_count.unmatched, idng_logfile_dropped(t->out) + idng_logfile_errors(t->out),
            tap_count.malformed_frames, tap_count.malformed_messages, tap_count.malformed_dns,
            tap_count.connections, tap_count.closed_conns);
}
/* ---- the command ---- */

static void usage(FILE *f)
{
    fputs("usage: idnguard tap (-u SOCKET | -r FILE) [OPTIONS]\n"
          "\n"
          "Reads dnstap (Frame Streams, content type protobuf:dnstap.Dnstap) and writes\n"
          "one query-log line per client query, in the idnguard module's format.\n"
          "\n"
          "  -u SOCKET              listen on this Unix socket for the resolver's dnstap\n"
          "                         (bidirectional Frame Streams); runs until SIGTERM/SIGINT\n"
          "  -r FILE                read a capture written by fstrm_capture ('-': stdin)\n"
          "  -w FILE                append the lines to FILE (rotation is followed);\n"
          "                         default: standard output\n"
          "  --conf FILE            the settings file (idnguard.conf(5)) whose policy judges\n"
          "                         the names and whose log-* settings shape the lines\n"
          "  --format=text|json     the line format (default: the settings' log-format)\n"
          "  --stats-file FILE      Prometheus counters, replaced every --stats-interval\n"
          "                         (default: the settings' tap-stats-file; never the\n"
          "                         module's stats-file)\n"
          "  --stats-interval SECS  (default: the settings' stats-interval)\n"
          "  --wait SECS            how long a query waits for its response (default 5)\n"
          "\n"
          "Exit status: 0 done; 1 malformed frames or messages were counted (-r); 2 the\n"
          "input cannot be read, is not Frame Streams, or a usage error.\n",
          f);
}

/* The command line as given, before the settings file is read. */
struct tap_args {
    struct tap *t;
    const char *conf_path, *fmt;
    int have_interval;
};

/* --stats-interval SECS, --wait SECS. */
static int tap_seconds(void *ctx, const struct idng_opt *opt, const char *value)
{
    struct tap_args *a = ctx;
    int interval = opt->id == 1;

    if (idng_opt_uint("tap", opt->name, value, 0, interval ? IDNG_CONF_STATS_MAX : 3600,
                      interval ? &a->t->stats_interval : &a->t->wait_s)
        != 0)
        return 2;
    a->have_interval |= interval;
    return -1;
}

/* The options into a; returns -1 to go on, or the exit status. */
static int parse_args(int argc, char **argv, struct tap_args *a)
{
    struct tap *t = a->t;
    const struct idng_opt opts[] = {
        {.short_name = 'u', .val = IDNG_OPT_NEXT, .arg = "SOCKET", .store = &t->sock},
        {.short_name = 'r', .val = IDNG_OPT_NEXT, .arg = "FILE", .store = &t->file},
        {.short_name = 'w', .val = IDNG_OPT_NEXT, .arg = "FILE", .store = &t->out_path},
        {.name = "--conf", .val = IDNG_OPT_NEXT, .arg = "FILE", .store = &a->conf_path},
        {.name = "--format", .val = IDNG_OPT_NEXT, .arg = "text|json", .store = &a->fmt},
        {.name = "--stats-file", .val = IDNG_OPT_NEXT, .arg = "FILE", .store = &t->stats_file},
        {.name = "--stats-interval", .val = IDNG_OPT_NEXT, .arg = "SECS", .fn = tap_seconds,
         .id = 1},
        {.name = "--wait", .val = IDNG_OPT_NEXT, .arg = "SECS", .fn = tap_seconds},
    };
    const struct idng_optspec spec = {.cmd = "tap",
                                      .opts = opts,
                                      .nopts = sizeof opts / sizeof opts[0],
                                      .ctx = a,
                                      .usage = usage};
    int n;

    return idng_opts_parse(&spec, argc, argv, &n);
}

/* The settings file and what the options change of it: the line format,
 * the tap's own files, the stats interval.  Returns -1 to go on, or 2
 * after the error (t->conf freed). */
static int settle(struct tap *t, const struct tap_args *a)
{
    char err[8192];
    const struct {
        const char *opt, **path;
    } mine[] = {{"--stats-file", &t->stats_file}, {"-w", &t->out_path}};
    size_t m;

    idng_conf_init(&t->conf);
    if (a->conf_path && idng_conf_load(&t->conf, a->conf_path, err, sizeof err) != 0) {
        fprintf(stderr, "%s", err);
        if (err[0] && err[strlen(err) - 1] != '\n')
            fputc('\n', stderr);
        return 2;
    }
    t->fmt = t->conf.log_format;
    if (a->fmt) {
        if (strcmp(a->fmt, "text") == 0)
            t->fmt = IDNG_LOGFMT_TEXT;
        else if (strcmp(a->fmt, "json") == 0)
            t->fmt = IDNG_LOGFMT_JSON;
        else {
            fprintf(stderr, "idnguard tap: --format: '%s' is neither text nor json\n", a->fmt);
            return 2;
        }
    }
    /* The settings' stats-file and log-file are the module's: the tap
     * writes its counters to tap-stats-file (or --stats-file) and its lines
     * to -w, never over the module's. */
    if (!t->stats_file)
        t->stats_file = t->conf.tap_stats_file;
    for (m = 0; m < 2; m++) {
        const char *key = *mine[m].path ? idng_conf_file_key(&t->conf, *mine[m].path) : NULL;
        if (key != NULL) {
            fprintf(stderr,
                    "idnguard tap: %s '%s' is the %s of %s: the tap needs files of "
                    "its own (tap-stats-file: for its counters)\n",
                    mine[m].opt, *mine[m].path, key, a->conf_path);
            idng_conf_free(&t->conf);
            return 2;
        }
    }
    if (!a->have_interval)
        t->stats_interval = t->conf.stats_interval;
    return -1;
}

/* The lines' file (-w, else standard output); -1 after the error. */
static int open_output(struct tap *t)
{
    struct idng_logfile_opts o = {0};
    char err[8192];

    o.buffer = TAP_OUT_BUFFER;
    o.wait = t->file != NULL; /* a file has no producer to keep up with: lose no line */
    /* At a terminal a line shows at once; elsewhere the short timer. */
    o.flush_ms = !t->out_path && isatty(STDOUT_FILENO) ? 0 : IDNG_LOG_FLUSH_MS;
    t->out = t->out_path ? idng_logfile_open(t->out_path, &o, err, sizeof err)
                         : idng_logfile_fdopen(STDOUT_FILENO, &o, err, sizeof err);
    if (!t->out) {
        fprintf(stderr, "idnguard tap: %s\n", err);
        return -1;
    }
    return 0;
}

int idng_tap_main(int argc, char **argv)
{
    struct tap t;
    struct tap_args args = {&t, NULL, NULL, 0};
    int rc;
    unsigned long long lost;

    memset(&t, 0, sizeof t);
    t.wait_s = 5;
    if ((rc = parse_args(argc, argv, &args)) >= 0)
        return rc;
    if (!t.sock == !t.file) {
        fprintf(stderr, "idnguard tap: give one of -u SOCKET and -r FILE\n");
        usage(stderr);
        return 2;
    }
    if ((rc = settle(&t, &args)) >= 0)
        return rc;
    if (open_output(&t) != 0) {
        idng_conf_free(&t.conf);
        return 2;
    }
    idng_stop_on_signals(1); /* a reader gone is an error of a write */
    tap_match_init();
    t.clock_ns = t.file ? 0 : tap_mono_ns();
    t.next_stats_ns = tap_wall_ns() + (long long)t.stats_interval * NS;
    rc = t.file ? tap_read_file(&t) : tap_serve_socket(&t);
    tap_expire(&t, 1);
    idng_logfile_flush(t.out); /* every line written: the counters are final */
    lost = idng_logfile_dropped(t.out) + idng_logfile_errors(t.out);
    if (t.stats_file)
        tap_write_stats(&t);
    summary(&t);
    idng_logfile_close(t.out);
    idng_conf_free(&t.conf);
    /* A file read with something lost or broken does not exit 0. */
    if (rc == 0 && t.file && (tap_count.malformed_frames || tap_count.malformed_messages || lost))
        rc = 1;
    return rc;
}
