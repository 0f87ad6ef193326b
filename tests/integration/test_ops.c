/**
 * \file
 * Operating the module: two worker threads under concurrent clients,
 * reload on SIGHUP with a changed configuration, a bad configuration that
 * stops start-up with file:line, and the query log itself (escaping of
 * hostile names, the JSON format, a log file of its own, log-queries: no).
 *
 * Each tcase has its own daemon pair started in an unchecked fixture
 * (owned by the runner process; see harness.h); the bad-configuration
 * tests start and reap their daemons inside the test.
 */
#define _GNU_SOURCE /* memmem */

#include "common.h"
#include "harness.h"
#include "idnguard.h"

#include <check.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static struct harness H;

static void teardown(void)
{
    harness_stop(&H);
}

static void setup_defaults(void)
{
    harness_setup(&H, "idnguard:\n", 1);
}

/* The tests of reloads (SIGHUP) change the file and then reload: the
 * module must not apply the file on its own first (watch-settings, tested
 * in the watch tcase). */
#define NO_WATCH "    watch-settings: no\n"

static void setup_no_watch(void)
{
    harness_setup(&H, "idnguard:\n" NO_WATCH, 1);
}

/* ---- num-threads: 2 under concurrent clients ---- */

static void setup_threads(void)
{
    harness_setup(&H, "idnguard:\n" NO_WATCH, 2);
}

#define NWORKERS 4
#define PER_WORKER 80

/* What each kind of query must get, whoever else is asking. */
static const struct {
    const char *qname;
    uint16_t qtype;
    int rcode;
    const char *answer; /* summary; "" for none */
    const char *ede;    /* EDE text prefix, NULL for none */
} mix[] = {
    {"xn--bcher-kva.example", DNSQ_A, 0, "xn--bcher-kva.example. A 192.0.2.2", NULL},
    {"xn--ab-m1t.example", DNSQ_A, 5, "", "idnguard: contextj: xn--ab-m1t: "},
    {"b\\195\\188cher.example", DNSQ_A, 0,
     "b\\195\\188cher.example. CNAME xn--bcher-kva.example. | xn--bcher-kva.example. A 192.0.2.2",
     NULL},
    {"alias.example", DNSQ_A, 5, "", "idnguard: contextj"},
    {"xn--ls8h.example", DNSQ_A, 0, "xn--ls8h.example. A 192.0.2.3", NULL},
    {"_dmarc.example", DNSQ_TXT, 0, "_dmarc.example. TXT \"v=DMARC1; p=none\"", NULL},
    {"\\255\\254.example", DNSQ_A, 5, "", "idnguard: bad-utf8: "},
    {"xn--80aafi6cg.example", DNSQ_AAAA, 0, "", NULL}, /* NODATA */
};
#define NMIX ((int)(sizeof mix / sizeof mix[0]))

struct worker {
    pthread_t tid;
    int id, failures, sent;
    char first[600];
};

/* No Check assertions off the main thread: failures are collected. */
static void *run_worker(void *arg)
{
    struct worker *w = arg;
    int i;

    for (i = 0; i < PER_WORKER; i++) {
        int k = (i * 3 + w->id) % NMIX, tcp = i % 8 == w->id;
        struct dnsq_result r;
        char sum[1024] = "";
        const char *why = NULL;

        w->sent++;
        if (dnsq_query(H.port, mix[k].qname, mix[k].qtype, tcp, 1, HARNESS_QUERY_MS, &r) != 0)
            why = "query failed";
        else if (r.timed_out)
            why = "no reply";
        else {
            dnsq_answer_summary(&r, sum, sizeof sum);
            if (r.rcode != mix[k].rcode)
                why = "wrong rcode";
            else if (strcmp(sum, mix[k].answer) != 0
                     /* PY: normalize answers the CNAME alone */
                     && !(harness_python() && strstr(mix[k].answer, " CNAME ")
                          && strncmp(sum, mix[k].answer, strlen(sum)) == 0
                          && strstr(mix[k].answer + strlen(sum), " | ") == mix[k].answer + strlen(sum)))
                why = "wrong answer";
            else if (mix[k].ede ? (r.ede_code != 15
                                   || strncmp(r.ede_text, mix[k].ede, strlen(mix[k].ede)) != 0)
                                : r.ede_code != -1)
                why = "wrong EDE";
        }
        if (why && w->failures++ == 0) {
            int k2 = snprintf(w->first, sizeof w->first, "%s type %u over %s: %s (%s [%.200s]",
                              mix[k].qname, mix[k].qtype, tcp ? "TCP" : "UDP", why,
                              dnsq_rcode_name(r.rcode), sum);
            if (k2 > 0 && (size_t)k2 < sizeof w->first)
                snprintf(w->first + k2, sizeof w->first - (size_t)k2, " EDE %d \"%.200s\")",
                         r.ede_code, r.ede_text);
        }
    }
    return NULL;
}

START_TEST(test_concurrent_clients)
{
    struct worker w[NWORKERS];
    long from = harness_file_size(H.qlog);
    int i, sent = 0, lines;
    struct dnsq_result r;

    memset(w, 0, sizeof w);
    for (i = 0; i < NWORKERS; i++) {
        w[i].id = i;
        ck_assert_int_eq(pthread_create(&w[i].tid, NULL, run_worker, &w[i]), 0);
    }
    for (i = 0; i < NWORKERS; i++) {
        pthread_join(w[i].tid, NULL);
        sent += w[i].sent;
    }
    for (i = 0; i < NWORKERS; i++)
        ck_assert_msg(w[i].failures == 0, "worker %d: %d of %d queries wrong; first: %s", i,
                      w[i].failures, w[i].sent, w[i].first);
    ck_assert_int_eq(sent, NWORKERS * PER_WORKER);
    ck_assert_msg(harness_alive(H.ub_pid, H.owner), "unbound is gone after the load");
    /* One line per query: the readiness probe below is not counted yet. */
    lines = harness_wait_count(H.qlog, from, "idnguard: 127.0.0.1#", sent, HARNESS_LOG_MS * 2);
    ck_assert_msg(lines == sent, "%d log lines for %d queries", lines, sent);
    ck_assert_msg(dnsq_query(H.port, "ready.local.test", DNSQ_A, 0, 0, HARNESS_QUERY_MS, &r) == 0
                      && r.rcode == 0,
                  "unbound does not answer after the load");
}
END_TEST

/* ---- the cache race ---- */

#define RACE_NAMES 400 /* a0.race .. a399.race (tests/integration/zones/race.zone) */
#define RACE_COPIES 8
#define RACE_GAP_US 200

/*
 * aN.race CNAME xn--ab-m1t.race, both in one response.  Each name is asked
 * by eight clients 200 us apart (the first half with RD, the second with
 * CD too), so later copies arrive while the first is being resolved,
 * judged and stored: any moment at which the chain sits in the message
 * cache before the module has judged it hands the fake's address to a
 * client as a cache hit.  The module must make that moment impossible,
 * not rare: no reply in 3,200 may carry 192.0.2.66, each must be the
 * refusal, and each must have its line in the log.
 */
START_TEST(test_race_never_serves_rejected)
{
    struct dnsq_result *rs = malloc(RACE_COPIES * sizeof *rs);
    long from = harness_file_size(H.qlog);
    int i, k, replies = 0, leaked = 0, wrong = 0, lines;
    char name[32], first[512] = "";

    ck_assert_ptr_nonnull(rs);
    for (i = 0; i < RACE_NAMES; i++) {
        unsigned flags = i < RACE_NAMES / 2 ? 0 : DNSQ_F_CD;
        int got;

        snprintf(name, sizeof name, "a%d.race", i);
        got = dnsq_burst(H.port, name, DNSQ_A, flags, RACE_COPIES, RACE_GAP_US, HARNESS_QUERY_MS,
                         rs);
        ck_assert_msg(got >= 0, "%s: the burst failed locally", name);
        replies += got;
        for (k = 0; k < RACE_COPIES; k++) {
            if (rs[k].timed_out)
                continue;
            if (strstr(rs[k].answer, "192.0.2.66"))
                leaked++;
            else if (rs[k].rcode == 5 && rs[k].ede_code == 15)
                continue;
            else
                wrong++;
            if (!first[0])
                snprintf(first, sizeof first, "%s copy %d (%s): %s rcode %s", name, k,
                         flags ? "CD" : "RD", rs[k].answer[0] ? rs[k].answer : "(no answer)",
                         dnsq_rcode_name(rs[k].rcode));
        }
    }
    free(rs);
    printf("race: %d replies to %d queries, %d with the fake's address, %d otherwise wrong\n",
           replies, RACE_NAMES * RACE_COPIES, leaked, wrong);
    ck_assert_msg(leaked == 0 && wrong == 0, "%d replies carried the fake's address, %d others "
                  "were not the refusal; first: %s", leaked, wrong, first);
    ck_assert_msg(replies >= RACE_NAMES * RACE_COPIES * 99 / 100,
                  "only %d replies to %d queries", replies, RACE_NAMES * RACE_COPIES);
    /* Every reply a client got, the refusals the module made and any
     * cache hit alike, is in the log: one line each. */
    lines = harness_wait_count(H.qlog, from, ".race. A IN ", replies, HARNESS_LOG_MS * 2);
    ck_assert_msg(lines == replies, "%d log lines for %d replies", lines, replies);
}
END_TEST

/* Does line end in "idnguard: reloaded <settings file>: <changes>"? */
static int reload_line_says(const char *line, const char *changes)
{
    char want[HARNESS_PATH_MAX + 1024];
    size_t n, w;

    snprintf(want, sizeof want, HARNESS_RELOADED "%s: %s", H.idng_conf, changes);
    n = strlen(line);
    w = strlen(want);
    return n >= w && strcmp(line + n - w, want) == 0;
}

/* Writes the settings file, sends SIGHUP, and waits for the module's
 * reload line, into line.  A reload is no stop: no counters line for a
 * shutdown comes with it. */
static void reload_with(const char *conf, char *line, size_t cap)
{
    long from = harness_file_size(H.ub_log);

    ck_assert_int_eq(harness_write_conf(&H, conf), 0);
    ck_assert_int_eq(harness_sighup(&H), 0);
    ck_assert_msg(harness_wait_line(H.ub_log, from, HARNESS_RELOADED, HARNESS_START_MS, line, cap),
                  "no \"%s\" line after SIGHUP", HARNESS_RELOADED);
    ck_assert_msg(harness_count_lines(H.ub_log, 0, HARNESS_SHUTDOWN_STATS) == 0,
                  "a reload logged \"%s\"", HARNESS_SHUTDOWN_STATS);
}

/* ---- reload ---- */

START_TEST(test_reload_changes_mode)
{
    struct dnsq_result r;
    struct qline q;
    char line[2048];

    /* uts46: the emoji passes (and its answer is now in the cache). */
    hx_query(&H, "xn--ls8h.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "xn--ls8h.example.", "xn--ls8h.example. A 192.0.2.3",
                   "ok", "pass", "resolved");
    /* The first load line names the mode, the module's version and the
     * Unbound it was built for. */
    ck_assert(harness_wait_line(H.ub_log, 0, HARNESS_LOADED, 0, line, sizeof line));
    ck_assert_msg(strstr(line, "(mode uts46, ")
                      && strstr(line, PY("idnguard " IDNG_VERSION " built against Unbound ",
                                         "idnguard " IDNG_VERSION ", python module")),
                  "load line: %s", line);

    /* A reload says what changed, and is no first load. */
    reload_with("idnguard:\n    mode: idna2008\n" NO_WATCH, line, sizeof line);
    ck_assert_msg(reload_line_says(line, "mode uts46 -> idna2008"), "reload line: %s", line);
    ck_assert_int_eq(harness_count_lines(H.ub_log, 0, HARNESS_LOADED), 1);
    ck_assert_msg(harness_alive(H.ub_pid, H.owner), "unbound died on SIGHUP");

    /* idna2008: refused, and not served from the cache of before. */
    hx_query(&H, "xn--ls8h.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "xn--ls8h.example.", 5, "disallowed:xn--ls8h", "refuse",
                     "idnguard: disallowed: xn--ls8h: ");
    /* The rest still works after the reload. */
    hx_query(&H, "b\\195\\188cher.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_normalized(&H, &r, &q, "b\\195\\188cher.example.", DNSQ_A,
                         "b\\195\\188cher.example. CNAME xn--bcher-kva.example.",
                         "xn--bcher-kva.example. A 192.0.2.2", "raw-8bit:b\\195\\188cher");

    /* The same file again: nothing changed, and the line says so. */
    reload_with("idnguard:\n    mode: idna2008\n" NO_WATCH, line, sizeof line);
    ck_assert_msg(reload_line_says(line, "no change"), "reload line: %s", line);
    /* Several keys at once, in the order of the schema; then back. */
    reload_with("idnguard:\n    mode: idna2008\n    deny: a.example\n    deny: b.example\n"
                "    on-confusable: log\n    stats-interval: 60\n" NO_WATCH,
                line, sizeof line);
    ck_assert_msg(reload_line_says(line, "on-confusable refuse -> log; deny +2 (now 2); "
                                         "stats-interval 3600 -> 60"),
                  "reload line: %s", line);
    reload_with("idnguard:\n    mode: idna2008\n    deny: b.example\n" NO_WATCH, line, sizeof line);
    ck_assert_msg(reload_line_says(line, "on-confusable log -> refuse; deny -1 (now 1); "
                                         "stats-interval 60 -> 3600"),
                  "reload line: %s", line);
}
END_TEST

/* Load during a reload: dnsperf (installed by make check) asking for a
 * bounded time, its report in a file to read after. */
static pid_t start_dnsperf(int seconds, char *out, size_t cap)
{
    char qfile[HARNESS_PATH_MAX + 16], port[16], secs[16];
    FILE *f;
    pid_t pid;

    snprintf(qfile, sizeof qfile, "%s/queries.txt", H.dir);
    snprintf(out, cap, "%s/dnsperf.out", H.dir);
    f = fopen(qfile, "w");
    ck_assert(f != NULL);
    fputs("www.example A\nxn--bcher-kva.example A\nxn--ab-m1t.example A\n", f);
    fclose(f);
    snprintf(port, sizeof port, "%d", H.port);
    snprintf(secs, sizeof secs, "%d", seconds);
    pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execlp("dnsperf", "dnsperf", "-s", "127.0.0.1", "-p", port, "-d", qfile, "-l", secs,
               "-c", "2", "-q", "20", "-t", "2", (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* "Queries sent:" and "Queries completed:" of dnsperf's report. */
static void dnsperf_counts(const char *out, long *sent, long *completed)
{
    char *t = harness_read_file(out, 0, NULL), *p;

    *sent = *completed = -1;
    if (!t)
        return;
    if ((p = strstr(t, "Queries sent:")) != NULL)
        *sent = strtol(p + 13, NULL, 10);
    if ((p = strstr(t, "Queries completed:")) != NULL)
        *completed = strtol(p + 18, NULL, 10);
    free(t);
}

/* A reload whose file does not load keeps the settings in force, and the
 * resolver keeps serving; the next good file is taken. */
START_TEST(test_reload_bad_file_keeps_previous_settings)
{
    struct dnsq_result r;
    struct qline q;
    char line[2048], perf_out[HARNESS_PATH_MAX + 16];
    struct timespec ts = {1, 0};
    long sent, completed, from;
    int st;
    pid_t perf;

    /* Where test_reload_changes_mode left it: idna2008 with deny
     * b.example.  dnsperf keeps asking while the bad file is reloaded. */
    perf = start_dnsperf(4, perf_out, sizeof perf_out);
    nanosleep(&ts, NULL);
    from = harness_file_size(H.ub_log);
    ck_assert_int_eq(harness_write_conf(&H, "idnguard:\n    mode: idna2009\n"), 0);
    ck_assert_int_eq(harness_sighup(&H), 0);
    ck_assert_msg(harness_wait_line(H.ub_log, from,
                                    HARNESS_RELOAD_FAILED
                                    "1); still running with the settings loaded at ",
                                    HARNESS_START_MS, line, sizeof line),
                  "no \"reload failed\" line after a bad reload");
    /* Which settings: when they were loaded, and their mode. */
    ck_assert_msg(strstr(line, " loaded at 20") && strstr(line, "Z (mode idna2008)"),
                  "reload failure line: %s", line);
    ck_assert_int_eq(waitpid(perf, &st, 0), perf);
    dnsperf_counts(perf_out, &sent, &completed);
    /* A reload drops what is in flight: dnsperf keeps at most 2 x 20 out. */
    ck_assert_msg(sent > 0 && completed >= sent - 40,
                  "answers did not keep flowing under dnsperf: %ld of %ld completed", completed,
                  sent);
    ck_assert_msg(harness_wait_line(H.ub_log, from, "idnguard.conf:2: bad value 'idna2009'", 0,
                                    line, sizeof line),
                  "the reload error does not name file:line");
    ck_assert_msg(harness_alive(H.ub_pid, H.owner), "unbound died on a bad reload");
    hx_query(&H, "xn--ls8h.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "xn--ls8h.example.", 5, "disallowed:xn--ls8h", "refuse",
                     "idnguard: disallowed: xn--ls8h: ");
    hx_query(&H, "www.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "www.example.", "www.example. A 192.0.2.1", "ok", "pass", "cache");
    /* The module answers, so its init is over: nothing after the errors
     * reads like a load, nor like a stop. */
    ck_assert_msg(harness_count_lines(H.ub_log, from, HARNESS_LOADED) == 0
                      && harness_count_lines(H.ub_log, from, HARNESS_RELOADED) == 0,
                  "a failed reload logged a load line");
    ck_assert_int_eq(harness_count_lines(H.ub_log, 0, HARNESS_SHUTDOWN_STATS), 0);

    /* A file that is gone is no better; then a good one is taken, and the
     * changes are from the settings that stayed in force. */
    ck_assert_int_eq(unlink(H.idng_conf), 0);
    ck_assert_int_eq(harness_sighup(&H), 0);
    ck_assert_msg(harness_wait_line(H.ub_log, from, HARNESS_RELOAD_FAILED "2); ", HARNESS_START_MS,
                                    line, sizeof line),
                  "no second reload failure");
    reload_with("idnguard:\n    mode: uts46\n" NO_WATCH, line, sizeof line);
    ck_assert_msg(reload_line_says(line, "mode idna2008 -> uts46; deny -1 (now 0)"),
                  "reload line: %s", line);
    hx_query(&H, "xn--ls8h.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "xn--ls8h.example.", "xn--ls8h.example. A 192.0.2.3",
                   "ok", "pass", "resolved");
}
END_TEST

/* The settings file includes a local one, which overrides it (the module
 * reads settings through idng_conf_load, includes and all); a reload
 * reads the included file again. */
START_TEST(test_reload_include)
{
    struct dnsq_result r;
    struct qline q;
    char conf[HARNESS_PATH_MAX + 128], local[HARNESS_PATH_MAX + 32], line[1024];
    FILE *f;

    snprintf(local, sizeof local, "%s/local-1.conf", H.dir);
    f = fopen(local, "w");
    ck_assert(f != NULL);
    ck_assert(fputs("idnguard:\n    mode: idna2008\n", f) >= 0);
    ck_assert(fclose(f) == 0);
    snprintf(conf, sizeof conf,
             "idnguard:\n    mode: uts46\n    include: \"%s/local-*.conf\"\n" NO_WATCH, H.dir);
    reload_with(conf, line, sizeof line);
    hx_query(&H, "xn--ls8h.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "xn--ls8h.example.", 5, "disallowed:xn--ls8h", "refuse",
                     "idnguard: disallowed: xn--ls8h: ");
    /* Without the local file, the main file's mode again. */
    ck_assert_int_eq(unlink(local), 0);
    reload_with(conf, line, sizeof line);
    ck_assert_msg(strstr(line, "mode idna2008 -> uts46"), "%s", line);
    hx_query(&H, "xn--ls8h.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "xn--ls8h.example.", "xn--ls8h.example. A 192.0.2.3", "ok", "pass",
                   "resolved");
}
END_TEST

/* ---- a changed settings file applied without a reload ---- */

/* The watch tcase's settings, which each test starts from (the stats file
 * shows reload_failures_total). */
#define WATCH_BASE "idnguard:\n    stats-interval: 1\n    stats-file: \"@DIR@/idnguard.prom\"\n"
/* Bound of the wait for a change to be applied: one look a second. */
#define WATCH_MS 5000

static void setup_watch(void)
{
    harness_setup(&H, WATCH_BASE, 2);
}

/* WATCH_BASE with @DIR@ filled in, then the lines of extra. */
static void watch_conf(const char *extra, char *out, size_t cap)
{
    const char *at = strstr(WATCH_BASE, "@DIR@");

    snprintf(out, cap, "%.*s%s%s%s", (int)(at - WATCH_BASE), WATCH_BASE, H.dir, at + 5, extra);
}

/* Changes the settings file (in place, or a new file renamed over it) and
 * waits until the module says it applied it: one more "without a reload"
 * line in Unbound's log. */
static void watch_apply(const char *extra, int in_place)
{
    char text[HARNESS_PATH_MAX + 1024];
    int before = harness_count_lines(H.ub_log, 0, "without a reload"), n;

    watch_conf(extra, text, sizeof text);
    ck_assert_int_eq(in_place ? harness_edit_conf(&H, text) : harness_write_conf(&H, text), 0);
    n = harness_wait_count(H.ub_log, 0, "without a reload", before + 1, WATCH_MS);
    ck_assert_msg(n > before, "the changed settings were not applied within %d ms", WATCH_MS);
}

/* The rcode a name gets, once it is rcode (bounded polling): a change
 * applies within a second, at the watch's next look. */
static int wait_rcode(const char *name, int rcode)
{
    long long until = harness_now_ms() + WATCH_MS;
    struct timespec ts = {0, 100 * 1000 * 1000};
    struct dnsq_result r;

    for (;;) {
        ck_assert(dnsq_query(H.port, name, DNSQ_A, 0, 1, HARNESS_QUERY_MS, &r) == 0);
        if (r.rcode == rcode || harness_now_ms() >= until)
            return r.rcode;
        nanosleep(&ts, NULL);
    }
}

/* The value of a counter in the stats file (-1 when it is not there yet). */
static long long stats_value(const char *metric)
{
    char path[HARNESS_PATH_MAX + 32], line[128], *t, *p;
    long long v = -1;

    snprintf(path, sizeof path, "%s/idnguard.prom", H.dir);
    snprintf(line, sizeof line, "\n%s ", metric);
    t = harness_read_file(path, 0, NULL);
    if (t && (p = strstr(t, line)) != NULL)
        v = strtoll(p + strlen(line), NULL, 10);
    free(t);
    return v;
}

/* A settings file edited in place is applied within a second, without a
 * reload: names already in the cache are still answered from it, and a
 * name the new settings deny is refused.  No reload happened: the module
 * did not load again, and the cached answer's line says path "cache".
 * dynlib: the first query the module sees after the change also expires
 * what the cache holds that the new settings reject (a denied name asked
 * before, a cached chain into it), so they are refused too. */
START_TEST(test_watch_applies_without_reload)
{
    struct dnsq_result r;
    struct qline q;
    char line[2048];
    int loaded = harness_count_lines(H.ub_log, 0, "idnguard: loaded");
    static const char *const cached[] = {"www.example", "xn--bcher-kva.example",
                                         "good-alias.example"};
    size_t i;

    for (i = 0; i < sizeof cached / sizeof cached[0]; i++) {
        hx_query(&H, cached[i], DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
        hx_query(&H, cached[i], DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
        ck_assert_msg(r.rcode == 0 && strcmp(q.path, "cache") == 0, "%s not from the cache: %s",
                      cached[i], q.raw);
    }
    watch_apply("    deny: www2.example.\n    deny: xn--bcher-kva.example.\n", 1);
    ck_assert(harness_wait_line(H.ub_log, 0, "without a reload", 0, line, sizeof line));
    ck_assert_msg(strstr(line, "idnguard: applied ") && strstr(line, H.idng_conf),
                  "the applied line does not name the file: %s", line);
    /* A name not in the cache: refused from the change on. */
    ck_assert_int_eq(wait_rcode("www2.example", 5), 5);
    hx_query(&H, "www2.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "www2.example.", 5, "deny", "refuse", "idnguard: deny");
    /* Names in the cache that the change denies. */
    if (harness_python())
        py_does("the python module cannot reach Unbound's cache: a cached answer that new "
                "settings reject is served until it expires");
    hx_query(&H, "xn--bcher-kva.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    if (harness_python())
        hx_expect_data(&r, &q, "xn--bcher-kva.example.", "xn--bcher-kva.example. A 192.0.2.2",
                       "deny", "pass", "cache");
    else
        hx_expect_policy(&r, &q, "xn--bcher-kva.example.", 5, "deny", "refuse", "idnguard: deny");
    hx_query(&H, "good-alias.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(harness_python() ? r.rcode == 0 && strcmp(q.path, "cache") == 0
                                   : r.rcode == 5 && strcmp(q.verdict, "deny") == 0
                                         && strcmp(q.path, "policy") == 0,
                  "a cached CNAME into the denied name: %s, line %s", dnsq_rcode_name(r.rcode),
                  q.raw);
    if (harness_flavour() == HX_KRESD)
        engine_does("kresd judges a cached answer again before the client: nothing to expire");
    if (!harness_python() && !harness_engine())
        ck_assert_msg(harness_wait_line(H.ub_log, 0, "cached answers and", 0, line, sizeof line),
                      "no line for the cached answers expired");
    /* The cache survived: a name the change does not touch. */
    hx_query(&H, "www.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "www.example.", "www.example. A 192.0.2.1", "ok", "pass", "cache");
    ck_assert_int_eq(harness_count_lines(H.ub_log, 0, "idnguard: loaded"), loaded);
    ck_assert_msg(harness_alive(H.ub_pid, H.owner), "unbound died");
}
END_TEST

/* A changed file that does not load changes nothing: its file:line
 * problem and "keeping the settings in force" are logged, it counts as a
 * reload failure, and queries are judged as before.  Fixed, it is applied. */
START_TEST(test_watch_bad_file_keeps_settings)
{
    struct dnsq_result r;
    struct qline q;
    char text[HARNESS_PATH_MAX + 1024], line[2048];
    long from;
    int failures, n;

    watch_apply("    deny: www2.example.\n", 0);
    ck_assert_int_eq(wait_rcode("www2.example", 5), 5);
    from = harness_file_size(H.ub_log);
    failures = harness_count_lines(H.ub_log, 0, "keeping the settings in force");
    watch_conf("    mode: idna2009\n", text, sizeof text);
    ck_assert_int_eq(harness_write_conf(&H, text), 0);
    ck_assert_msg(harness_wait_line(H.ub_log, from, "keeping the settings in force", WATCH_MS, line,
                                    sizeof line),
                  "no \"keeping the settings in force\" line for a bad file");
    ck_assert_msg(harness_wait_line(H.ub_log, from, "idnguard.conf:4: bad value 'idna2009'", 0,
                                    line, sizeof line),
                  "the error does not name file:line");
    /* Judged by the settings in force: www2 is still denied. */
    hx_query(&H, "www2.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "www2.example.", 5, "deny", "refuse", "idnguard: deny");
    /* Counted: the stats file (written every second) catches up. */
    n = harness_count_lines(H.ub_log, 0, "keeping the settings in force");
    ck_assert_int_eq(n, failures + 1);
    {
        long long until = harness_now_ms() + WATCH_MS, v;
        struct timespec ts = {0, 100 * 1000 * 1000};

        while ((v = stats_value("idnguard_reload_failures_total")) != n && harness_now_ms() < until)
            nanosleep(&ts, NULL);
        ck_assert_msg(v == n, "reload_failures_total %lld, %d failure lines", v, n);
    }
    ck_assert_int_eq(harness_count_lines(H.ub_log, 0, "idnguard: loaded"), 1);
    /* Fixed: applied, and idna2008 refuses the emoji name. */
    watch_apply("    mode: idna2008\n", 0);
    hx_query(&H, "xn--ls8h.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "xn--ls8h.example.", 5, "disallowed:xn--ls8h", "refuse",
                     "idnguard: disallowed: xn--ls8h: ");
    hx_query(&H, "www2.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(r.rcode == 0, "www2.example no longer denied: %s", dnsq_rcode_name(r.rcode));
    ck_assert_msg(harness_alive(H.ub_pid, H.owner), "unbound died");
}
END_TEST

/* A new file renamed over the settings file (a new inode, as editors and
 * configuration tools write) is applied; the new file is watched from then
 * on, in place too. */
START_TEST(test_watch_rename)
{
    struct stat before, after;

    watch_apply("", 1);
    ck_assert_int_eq(stat(H.idng_conf, &before), 0);
    watch_apply("    deny: a--b.example.\n", 0);
    ck_assert_int_eq(stat(H.idng_conf, &after), 0);
    ck_assert_msg(before.st_ino != after.st_ino, "the rename kept the inode");
    ck_assert_int_eq(wait_rcode("a--b.example", 5), 5);
    watch_apply("", 1);
    ck_assert_int_eq(wait_rcode("a--b.example", 0), 0);
}
END_TEST

/* A log-file set, changed and unset without a reload: the lines go to
 * the file the settings in force name. */
START_TEST(test_watch_log_file)
{
    char extra[HARNESS_PATH_MAX + 64], live[HARNESS_PATH_MAX + 16], needle[64], line[2048];
    struct dnsq_result r;
    long from;

    snprintf(live, sizeof live, "%s/live.log", H.dir);
    snprintf(extra, sizeof extra, "    log-file: \"%s\"\n", live);
    watch_apply(extra, 0);
    ck_assert(dnsq_query(H.port, "xn--ab-m1t.example", DNSQ_A, 0, 1, HARNESS_QUERY_MS, &r) == 0);
    snprintf(needle, sizeof needle, "127.0.0.1#%u ", r.local_port);
    ck_assert_msg(harness_wait_line(live, 0, needle, HARNESS_LOG_MS, line, sizeof line),
                  "no line in the log-file applied");
    ck_assert_msg(strstr(line, "contextj") != NULL, "line %s", line);
    from = harness_file_size(H.ub_log);
    watch_apply("", 1);
    ck_assert(dnsq_query(H.port, "xn--ab-m1t.example", DNSQ_A, 0, 1, HARNESS_QUERY_MS, &r) == 0);
    snprintf(needle, sizeof needle, "127.0.0.1#%u ", r.local_port);
    ck_assert_msg(harness_wait_line(H.ub_log, from, needle, HARNESS_LOG_MS, line, sizeof line),
                  "no line in Unbound's log once log-file is unset");
    ck_assert_int_eq(harness_count_lines(live, 0, needle), 0);
}
END_TEST

/* A file dropped into a directory the settings include (a pattern whose
 * directory did not exist yet) is applied within a second, without a
 * reload and with Unbound's cache kept; removed, its settings go.  (The
 * name is first asked once the file is applied: the python module would
 * serve a cached answer on, test_watch_applies_without_reload.) */
START_TEST(test_watch_included_dir)
{
    char extra[HARNESS_PATH_MAX + 64], local[HARNESS_PATH_MAX + 32], tmp[HARNESS_PATH_MAX + 32],
        line[2048];
    struct dnsq_result r;
    struct qline q;
    int loaded = harness_count_lines(H.ub_log, 0, "idnguard: loaded"), before, n;
    FILE *f;

    hx_query(&H, "www.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    /* The include of a directory not there yet changes no setting, and
     * settings that come out the same are not applied (no line): a deny
     * comes with it, so that its line says the include is in force. */
    snprintf(extra, sizeof extra,
             "    include: \"%s/local.d/*.conf\"\n    deny: unrelated.example.\n", H.dir);
    watch_apply(extra, 1);
    /* The directory made now, and a file renamed into it whole. */
    snprintf(local, sizeof local, "%s/local.d", H.dir);
    ck_assert_int_eq(mkdir(local, 0755), 0);
    snprintf(tmp, sizeof tmp, "%s/local.d/.20-deny.tmp", H.dir);
    snprintf(local, sizeof local, "%s/local.d/20-deny.conf", H.dir);
    before = harness_count_lines(H.ub_log, 0, "without a reload");
    f = fopen(tmp, "w");
    ck_assert(f != NULL);
    ck_assert(fputs("idnguard:\n    deny: sub.www.example.\n", f) >= 0);
    ck_assert(fclose(f) == 0);
    ck_assert_int_eq(rename(tmp, local), 0);
    n = harness_wait_count(H.ub_log, 0, "without a reload", before + 1, WATCH_MS);
    ck_assert_msg(n > before, "the dropped file was not applied within %d ms", WATCH_MS);
    ck_assert(harness_wait_line(H.ub_log, 0, "deny +1", 0, line, sizeof line));
    hx_query(&H, "sub.www.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "sub.www.example.", 5, "deny", "refuse", "idnguard: deny");
    ck_assert_msg(strstr(line, "idnguard: applied ") && strstr(line, H.idng_conf),
                  "the applied line does not name the settings file: %s", line);
    /* No reload: the module did not load again, the cache is kept. */
    hx_query(&H, "www.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "www.example.", "www.example. A 192.0.2.1", "ok", "pass", "cache");
    ck_assert_int_eq(harness_count_lines(H.ub_log, 0, "idnguard: loaded"), loaded);
    /* Removed: its deny goes. */
    ck_assert_int_eq(unlink(local), 0);
    ck_assert_int_eq(wait_rcode("sub.www.example", 0), 0);
    ck_assert_msg(harness_alive(H.ub_pid, H.owner), "unbound died");
}
END_TEST

/* Changes applied while dnsperf asks: every query is answered (a reload
 * would drop what is in flight), and the daemon lives. */
START_TEST(test_watch_under_load)
{
    char perf_out[HARNESS_PATH_MAX + 16];
    long sent, completed;
    int i, st;
    pid_t perf;

    perf = start_dnsperf(6, perf_out, sizeof perf_out);
    for (i = 0; i < 8; i++)
        watch_apply(i % 2 ? "    deny: xn--bcher-kva.example.\n" : "    on-contextj: log\n", i % 3);
    ck_assert_int_eq(waitpid(perf, &st, 0), perf);
    dnsperf_counts(perf_out, &sent, &completed);
    ck_assert_msg(sent > 0 && completed == sent, "%ld of %ld queries answered", completed, sent);
    ck_assert_msg(harness_alive(H.ub_pid, H.owner), "unbound died");
    ck_assert_int_eq(harness_count_lines(H.ub_log, 0, "idnguard: loaded"), 1);
}
END_TEST

/* A deny-file of a million names in the test's directory (a new file
 * renamed over the old, as a list update does), holding also the name
 * extra; the names' labels tell the lists apart. */
#define BIG_LIST 1000000
/* Bound of the wait for a million names to be read and applied, sanitizer
 * builds on a loaded machine included (a look a second, then the load). */
#define BIG_LIST_MS 120000

static void write_big_list(const char *tag, const char *extra)
{
    char path[HARNESS_PATH_MAX + 32], tmp[HARNESS_PATH_MAX + 48];
    FILE *f;
    long i;

    snprintf(path, sizeof path, "%s/big.txt", H.dir);
    snprintf(tmp, sizeof tmp, "%s.new", path);
    f = fopen(tmp, "w");
    ck_assert(f != NULL);
    ck_assert(fprintf(f, "# %s\n%s\n", tag, extra) > 0);
    for (i = 1; i < BIG_LIST; i++)
        fprintf(f, "d%ld.%s%ld.example\n", i, tag, i % 97);
    ck_assert(fclose(f) == 0);
    ck_assert(rename(tmp, path) == 0);
}

/* A million-name deny-file applied, then replaced by another million,
 * while dnsperf asks: every query is answered throughout (the new settings
 * are read and built beside the ones in force, then swapped in), each list
 * takes effect, and the daemon lives. */
START_TEST(test_watch_million_names_under_load)
{
    struct dnsq_result r;
    struct qline q;
    char extra[HARNESS_PATH_MAX + 64], text[2 * HARNESS_PATH_MAX + 1024];
    char perf_out[HARNESS_PATH_MAX + 16], line[2048];
    long sent, completed, from;
    int st, before, n;
    pid_t perf;

    write_big_list("one", "www.example");
    /* Runs until stopped below (SIGINT: dnsperf stops sending and
     * reports, what was in flight counted apart). */
    perf = start_dnsperf(600, perf_out, sizeof perf_out);
    before = harness_count_lines(H.ub_log, 0, "without a reload");
    snprintf(extra, sizeof extra, "    deny-file: %s/big.txt\n", H.dir);
    watch_conf(extra, text, sizeof text);
    ck_assert_int_eq(harness_write_conf(&H, text), 0);
    n = harness_wait_count(H.ub_log, 0, "without a reload", before + 1, BIG_LIST_MS);
    ck_assert_msg(n > before, "the million-name deny-file was not applied");
    /* www.example is in Unbound's cache (dnsperf asks it): expired when a
     * query next passes the module, as one for a name below it that no
     * test asked does (the cache hits alone do not). */
    hx_query(&H, "million.www.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "million.www.example.", 5, "deny", "refuse", "idnguard: deny");
    if (harness_flavour() == HX_DYNLIB) {
        ck_assert_int_eq(wait_rcode("www.example", 5), 5);
        hx_query(&H, "www.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
        hx_expect_policy(&r, &q, "www.example.", 5, "deny", "refuse", "idnguard: deny");
    } else {
        py_does("a cached answer is not expired when the settings change");
        engine_does("a cached answer is not expired when the settings change");
    }

    /* Another million: www.example leaves the list, www2.example joins. */
    from = harness_file_size(H.ub_log);
    write_big_list("two", "www2.example");
    ck_assert_msg(harness_wait_line(H.ub_log, from, "without a reload: deny +", BIG_LIST_MS, line,
                                    sizeof line),
                  "the replaced deny-file was not applied");
    ck_assert_msg(strstr(line, "deny +1000000 -1000000 (now 1000000)") != NULL, "%s", line);
    hx_query(&H, "million.www2.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "million.www2.example.", 5, "deny", "refuse", "idnguard: deny");
    if (harness_flavour() == HX_DYNLIB) {
        ck_assert_int_eq(wait_rcode("www2.example", 5), 5);
        hx_query(&H, "www2.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
        hx_expect_policy(&r, &q, "www2.example.", 5, "deny", "refuse", "idnguard: deny");
    }
    hx_query(&H, "www.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(r.rcode == 0, "www.example after it left the list: %s", dnsq_rcode_name(r.rcode));

    ck_assert_msg(harness_alive(perf, getpid()) && kill(perf, SIGINT) == 0,
                  "dnsperf ended before both lists were applied: %s", perf_out);
    ck_assert_int_eq(waitpid(perf, &st, 0), perf);
    dnsperf_counts(perf_out, &sent, &completed);
    {
        /* Stopped, dnsperf counts what was in flight as interrupted, not
         * lost: every other query has its answer. */
        char *t = harness_read_file(perf_out, 0, NULL), *p;
        long lost = -1, interrupted = -1;
        if (t && (p = strstr(t, "Queries lost:")) != NULL)
            lost = strtol(p + 13, NULL, 10);
        if (t && (p = strstr(t, "Queries interrupted:")) != NULL)
            interrupted = strtol(p + 20, NULL, 10);
        ck_assert_msg(sent > 0 && lost == 0 && interrupted >= 0 && completed + interrupted == sent,
                      "%ld of %ld queries answered (%ld lost, %ld in flight when stopped): %s",
                      completed, sent, lost, interrupted, t ? t : "");
        free(t);
    }
    ck_assert_msg(harness_alive(H.ub_pid, H.owner), "unbound died");
    ck_assert_int_eq(harness_count_lines(H.ub_log, 0, "idnguard: loaded"), 1);
}
END_TEST

/* ---- a bad configuration stops start-up ---- */

static const struct {
    const char *conf;
    const char *where; /* after the path: ":3: "; NULL when no line applies */
    const char *msg;
} bad_confs[] = {
    {"idnguard:\n    mode: uts46\n    frobnicate: yes\n", ":3: ", "unknown key 'frobnicate'"},
    {"idnguard:\n    on-invalid: normalize\n",
     ":2: ", "'normalize' is allowed only for 'on-raw-8bit'"},
    {"# settings for something else\n", ":1: ", "no 'idnguard:' clause"},
    {"idnguard:\n    log-file: \"/nonexistent/idnguard-test/q.log\"\n", NULL,
     "/nonexistent/idnguard-test/q.log: log-file: No such file or directory"},
};

START_TEST(test_bad_config_stops_startup)
{
    char path[HARNESS_PATH_MAX], log[8192], want[HARNESS_PATH_MAX + 64];
    int status, rc;

    rc = harness_run_failing(bad_confs[_i].conf, path, sizeof path, &status, log, sizeof log);
    ck_assert_msg(rc >= 0, "could not run unbound: %s", log);
    ck_assert_msg(rc == 0, "unbound started with a bad idnguard.conf (\"%s\"); log: %s",
                  bad_confs[_i].msg, log);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) != 0,
                  "unbound ended with status 0x%x, expected a non-zero exit", status);
    if (bad_confs[_i].where) {
        snprintf(want, sizeof want, "%s%s", path, bad_confs[_i].where);
        ck_assert_msg(strstr(log, want) != NULL, "log lacks \"%s\": %s", want, log);
    }
    ck_assert_msg(strstr(log, bad_confs[_i].msg) != NULL, "log lacks \"%s\": %s", bad_confs[_i].msg,
                  log);
    ck_assert_msg(strstr(log, "idnguard: ") != NULL, "the error is not the module's: %s", log);
}
END_TEST

/* The module refuses to load into an Unbound of another build: here the
 * same version configured with --enable-subnet ($IDNGUARD_UNBOUND_ALT),
 * which lays its structures out differently.  The daemon stops at start,
 * with one line naming both sides. */
START_TEST(test_refuses_other_build)
{
    const char *alt = getenv("IDNGUARD_UNBOUND_ALT");
    char path[HARNESS_PATH_MAX], log[8192];
    int status, rc;

    if (harness_python()) {
        /* PY: the python module reads no Unbound structure from C, so any
         * daemon with Unbound's python module runs it: nothing to refuse. */
        py_does("no build check (the glue reads no Unbound structure)");
        return;
    }

    ck_assert_msg(alt && access(alt, X_OK) == 0,
                  "IDNGUARD_UNBOUND_ALT (a second, differently configured unbound) is not set or "
                  "not built: run through make check-integration");
    ck_assert_int_eq(setenv("IDNGUARD_UNBOUND", alt, 1), 0); /* this forked test only */
    rc = harness_run_failing("idnguard:\n", path, sizeof path, &status, log, sizeof log);
    ck_assert_msg(rc == 0, "the other build kept running with the module loaded: %s", log);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) != 0, "exit status 0x%x", status);
    ck_assert_msg(strstr(log, "idnguard: built for unbound ") && strstr(log, "refusing to load")
                      && strstr(log, "subnetcache no") && strstr(log, "subnetcache yes"),
                  "no refusal naming both builds: %s", log);
}
END_TEST

/* ---- escaping of hostile names in the log ---- */

static const struct {
    const char *qname;  /* sent */
    const char *logged; /* the qname field */
    const char *rcode, *verdict;
} hostile[] = {
    /* RIGHT-TO-LEFT OVERRIDE: would reverse the rest of the line on display */
    {"a\\226\\128\\174b.example", "a\\226\\128\\174b.example.", "REFUSED",
     "disallowed:a\\226\\128\\174b"},
    /* LINE SEPARATOR */
    {"a\\226\\128\\168b.example", "a\\226\\128\\168b.example.", "REFUSED",
     "disallowed:a\\226\\128\\168b"},
    /* a newline: would forge a second line */
    {"a\\010b.example", "a\\010b.example.", "NXDOMAIN", "ok"},
    /* a terminal escape sequence */
    {"x\\027[31mred.example", "x\\027\\09131mred.example.", "NXDOMAIN", "ok"},
    /* a dot, blanks and brackets inside labels: would fake labels and fields */
    {"a\\046b\\032(c)\\059.example", "a\\046b\\032\\040c\\041\\059.example.", "NXDOMAIN", "ok"},
    /* NUL and DEL */
    {"a\\000b\\127.example", "a\\000b\\127.example.", "NXDOMAIN", "ok"},
};
#define NHOSTILE ((int)(sizeof hostile / sizeof hostile[0]))

/* The line for the query is printable ASCII (nothing here has a Unicode
 * form to show), every line written meanwhile is one of Unbound's, and no
 * raw control or bidi octets are anywhere in them. */
START_TEST(test_log_escapes_hostile_names)
{
    struct dnsq_result r;
    struct qline q;
    long from = harness_file_size(H.qlog);
    size_t n, i;
    char *text, *p, *end;
    int own = 0;

    hx_query(&H, hostile[_i].qname, DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(strcmp(q.qname, hostile[_i].logged) == 0
                      && strcmp(q.rcode, hostile[_i].rcode) == 0
                      && strcmp(q.verdict, hostile[_i].verdict) == 0 && q.unicode[0] == '\0',
                  "line %s; expected qname %s, %s, %s", q.raw, hostile[_i].logged,
                  hostile[_i].rcode, hostile[_i].verdict);
    for (i = 0; r.ede_text[i]; i++)
        ck_assert_msg((unsigned char)r.ede_text[i] >= 0x20 && (unsigned char)r.ede_text[i] < 0x7F,
                      "EDE text holds octet 0x%02x: %s", (unsigned char)r.ede_text[i], r.ede_text);

    text = harness_read_file(H.qlog, from, &n);
    ck_assert(text != NULL);
    ck_assert_msg(!memmem(text, n, "\xe2\x80\xae", 3) && !memmem(text, n, "\xe2\x80\xa8", 3)
                      && !memchr(text, 0x1b, n) && !memchr(text, 0, n) && !memchr(text, 0x7f, n),
                  "raw control or bidi octets in the log: %s", text);
    for (p = text, end = text + n; p < end;) {
        char *nl = memchr(p, '\n', (size_t)(end - p)), *c;
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char port[32];

        /* kresd: idnguard's own lines, or kresd's ("[group] ..."). */
        ck_assert_msg(harness_flavour() == HX_KRESD
                          ? (len >= 10 && memcmp(p, "idnguard: ", 10) == 0) || (len && *p == '[')
                          : memmem(p, len, " unbound[", 9) != NULL,
                      "a log line that is not Unbound's (a forged or split line?): %.*s", (int)len,
                      p);
        snprintf(port, sizeof port, "127.0.0.1#%u ", r.local_port);
        if (memmem(p, len, port, strlen(port))) {
            own++;
            for (c = p; c < p + len; c++)
                ck_assert_msg(*c >= 0x20 && *c < 0x7F, "octet 0x%02x in the line: %.*s",
                              (unsigned char)*c, (int)len, p);
        }
        p += len + 1;
    }
    ck_assert_msg(own == 1, "%d lines for one query: %s", own, text);
    free(text);
}
END_TEST

/* ---- log-format: json ---- */

static void setup_json(void)
{
    harness_setup(&H, "idnguard:\n    log-format: json\n", 1);
}

enum jtype { J_STR, J_NUM, J_NULL };
struct jfield {
    char key[32];
    enum jtype type;
    char val[2048]; /* decoded string, or the number's text */
};

static int hexval(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* An RFC 8259 string at *p (after the quote) decoded into out. */
static int json_string(const char **p, char *out, size_t cap)
{
    const unsigned char *s = (const unsigned char *)*p;
    size_t n = 0;

    for (;;) {
        uint32_t cp;
        unsigned char u8[4];
        size_t m;

        if (*s == '"')
            break;
        if (*s == '\0' || *s < 0x20)
            return -1; /* unterminated, or a raw control character */
        if (*s == '\\') {
            s++;
            switch (*s) {
            case '"':
            case '\\':
            case '/':
                cp = *s;
                s++;
                break;
            case 'b':
                cp = 8;
                s++;
                break;
            case 'f':
                cp = 12;
                s++;
                break;
            case 'n':
                cp = 10;
                s++;
                break;
            case 'r':
                cp = 13;
                s++;
                break;
            case 't':
                cp = 9;
                s++;
                break;
            case 'u': {
                int i, v = 0;
                for (i = 1; i <= 4; i++) {
                    if (hexval((char)s[i]) < 0)
                        return -1;
                    v = v * 16 + hexval((char)s[i]);
                }
                s += 5;
                cp = (uint32_t)v;
                if (cp >= 0xD800 && cp < 0xDC00) {
                    int w = 0;
                    if (s[0] != '\\' || s[1] != 'u')
                        return -1;
                    for (i = 2; i <= 5; i++) {
                        if (hexval((char)s[i]) < 0)
                            return -1;
                        w = w * 16 + hexval((char)s[i]);
                    }
                    if (w < 0xDC00 || w > 0xDFFF)
                        return -1;
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (uint32_t)(w - 0xDC00);
                    s += 6;
                } else if (cp >= 0xDC00 && cp < 0xE000) {
                    return -1;
                }
                break;
            }
            default:
                return -1;
            }
            m = idng_utf8_encode(cp, u8);
            if (n + m >= cap)
                return -1;
            memcpy(out + n, u8, m);
            n += m;
            continue;
        }
        m = idng_utf8_decode(s, strlen((const char *)s), &cp);
        if (m == 0 || n + m >= cap)
            return -1; /* invalid UTF-8 */
        memcpy(out + n, s, m);
        n += m;
        s += m;
    }
    out[n] = '\0';
    *p = (const char *)s + 1;
    return 0;
}

/* One flat JSON object (strings, integers, null) and nothing after it. */
static int json_flat(const char *s, struct jfield *f, int max)
{
    int n = 0;

#define WS()                                                                                       \
    while (*s == ' ' || *s == '\t')                                                                \
    s++
    WS();
    if (*s++ != '{')
        return -1;
    WS();
    if (*s == '}')
        return 0;
    for (;;) {
        if (n >= max)
            return -1;
        WS();
        if (*s++ != '"' || json_string(&s, f[n].key, sizeof f[n].key) != 0)
            return -1;
        WS();
        if (*s++ != ':')
            return -1;
        WS();
        if (*s == '"') {
            s++;
            f[n].type = J_STR;
            if (json_string(&s, f[n].val, sizeof f[n].val) != 0)
                return -1;
        } else if (strncmp(s, "null", 4) == 0) {
            f[n].type = J_NULL;
            f[n].val[0] = '\0';
            s += 4;
        } else if (*s == '-' || (*s >= '0' && *s <= '9')) {
            size_t k = 0;
            f[n].type = J_NUM;
            if (*s == '-')
                f[n].val[k++] = *s++;
            if (!(*s >= '0' && *s <= '9'))
                return -1;
            while (((*s >= '0' && *s <= '9') || *s == '.') && k + 1 < sizeof f[n].val)
                f[n].val[k++] = *s++;
            f[n].val[k] = '\0';
        } else {
            return -1;
        }
        n++;
        WS();
        if (*s == ',') {
            s++;
            continue;
        }
        if (*s++ != '}')
            return -1;
        break;
    }
    WS();
    return *s == '\0' ? n : -1;
#undef WS
}

/* The line for one query in Unbound's log, as JSON fields in order. */
static const char *const jkeys[] = {"time",   "client", "port",   "qname",     "qname_unicode",
                                    "lookalike", "qtype",  "qclass", "rcode",  "verdict",   "label",
                                    "action", "path",   "ede",    "target",    "transport",
                                    "elapsed_ms"};
#define NJKEYS 17
/* Values that differ run to run: checked for their type only. */
#define ANY_NUM "(number)"

/* Expected values: NULL for null; numbers as text. */
static const struct {
    const char *qname;
    const char *v[NJKEYS]; /* "port" is filled in from the query */
} jrows[] = {
    {"xn--bcher-kva.example",
     {NULL, "127.0.0.1", "", "xn--bcher-kva.example.",
      "b\xc3\xbc"
      "cher.example.",
      NULL, "A", "IN", "NOERROR", "ok", NULL, "pass", "resolved", NULL, NULL, "udp", ANY_NUM}},
    {"xn--ab-m1t.example",
     {NULL, "127.0.0.1", "", "xn--ab-m1t.example.", NULL, "mixed-script", "A", "IN", "REFUSED",
      "contextj",
      "xn--ab-m1t", "refuse", "policy", "15", NULL, "udp", ANY_NUM}},
    {"b\\195\\188cher.example",
     {NULL, "127.0.0.1", "", "b\\195\\188cher.example.", NULL, NULL, "A", "IN", "NOERROR", "raw-8bit",
      "b\\195\\188cher", "normalize", "resolved", NULL, "xn--bcher-kva.example.", "udp",
      ANY_NUM}},
    {"a\\226\\128\\174b.example",
     {NULL, "127.0.0.1", "", "a\\226\\128\\174b.example.", NULL, NULL,
      "A", "IN", "REFUSED", "disallowed",
      "a\\226\\128\\174b", "refuse", "policy", "15", NULL, "udp", ANY_NUM}},
    {"x\\027[\"\\092.example",
     {NULL, "127.0.0.1", "", "x\\027\\091\\034\\092.example.", NULL, NULL,
      "A", "IN", "NXDOMAIN", "ok",
      NULL, "pass", "resolved", NULL, NULL, "udp", ANY_NUM}},
    /* A lookalike (p<Cyrillic a>ypal) is shown in A-labels only, with
     * what was found. */
    {"xn--pypal-4ve.example",
     {NULL, "127.0.0.1", "", "xn--pypal-4ve.example.", NULL, "mixed-script", "A", "IN",
      "NOERROR", "mixed-script", "xn--pypal-4ve", "log", "resolved", NULL, NULL, "udp",
      ANY_NUM}},
};

START_TEST(test_json_lines)
{
    struct dnsq_result r;
    struct jfield f[20];
    char line[16384], port[16], needle[40];
    const char *obj;
    long from = harness_file_size(H.qlog);
    int n, k;

    ck_assert(dnsq_query(H.port, jrows[_i].qname, DNSQ_A, 0, 1, HARNESS_QUERY_MS, &r) == 0);
    snprintf(needle, sizeof needle, "\"port\":%u,", r.local_port);
    ck_assert_msg(harness_wait_line(H.qlog, from, needle, HARNESS_LOG_MS, line, sizeof line),
                  "no JSON line with %s", needle);
    /* After Unbound's "info: ", the message is the object alone (kresd:
     * the line is the object). */
    obj = harness_flavour() == HX_KRESD ? line : strstr(line, " info: ");
    ck_assert_msg(obj != NULL, "no Unbound prefix: %s", line);
    if (obj != line)
        obj += strlen(" info: ");
    n = json_flat(obj, f, 20);
    ck_assert_msg(n == NJKEYS, "not one flat JSON object with %d keys (%d): %s", NJKEYS, n, obj);
    snprintf(port, sizeof port, "%u", r.local_port);
    for (k = 0; k < NJKEYS; k++) {
        const char *want = k == 2 ? port : jrows[_i].v[k];
        /* PY: the transport is unknown (Unbound's python API does not give
         * the comm point); normalize's answer is the module's own. */
        if (harness_python() && strcmp(jkeys[k], "transport") == 0)
            want = NULL;
        if (harness_python() && strcmp(jkeys[k], "path") == 0 && jrows[_i].v[11]
            && strcmp(jrows[_i].v[11], "normalize") == 0)
            want = "policy";
        /* kresd: no sub-query; the A-label name's answer is its cache's
         * (asked in row 0). */
        if (harness_flavour() == HX_KRESD && strcmp(jkeys[k], "path") == 0 && jrows[_i].v[11]
            && strcmp(jrows[_i].v[11], "normalize") == 0)
            want = "cache";
        ck_assert_msg(strcmp(f[k].key, jkeys[k]) == 0, "key %d is \"%s\", expected \"%s\": %s", k,
                      f[k].key, jkeys[k], obj);
        if (!want) {
            ck_assert_msg(f[k].type == J_NULL, "\"%s\" is \"%s\", expected null: %s", jkeys[k],
                          f[k].val, obj);
            continue;
        }
        ck_assert_msg(f[k].type == ((k == 2 || k == 13 || k == 16) ? J_NUM : J_STR),
                      "\"%s\" has the wrong JSON type: %s", jkeys[k], obj);
        if (strcmp(want, ANY_NUM) == 0)
            continue;
        ck_assert_msg(strcmp(f[k].val, want) == 0, "\"%s\" is \"%s\", expected \"%s\": %s",
                      jkeys[k], f[k].val, want, obj);
    }
}
END_TEST

/* ---- log-file: a file of the module's own ---- */

static void setup_log_file(void)
{
    harness_setup(&H, "idnguard:\n    log-file: \"@DIR@/queries.log\"\n", 1);
}

/* "2026-11-21T05:53:32.123456Z" */
static int rfc3339_utc(const char *t)
{
    static const char shape[] = "dddd-dd-ddTdd:dd:dd.ddddddZ";
    size_t i;
    if (strlen(t) != sizeof shape - 1)
        return 0;
    for (i = 0; shape[i]; i++)
        if (shape[i] == 'd' ? !(t[i] >= '0' && t[i] <= '9') : t[i] != shape[i])
            return 0;
    return 1;
}

START_TEST(test_log_file_gets_the_lines)
{
    struct harness h = H; /* this test's view: query lines in the module's file */
    struct dnsq_result r;
    struct qline q;

    snprintf(h.qlog, sizeof h.qlog, "%.*s/queries.log", HARNESS_PATH_MAX - 16, H.dir);
    hx_query(&h, "xn--bcher-kva.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "xn--bcher-kva.example.", "xn--bcher-kva.example. A 192.0.2.2", "ok",
                   "pass", "resolved");
    ck_assert_msg(rfc3339_utc(q.time), "no RFC 3339 time first on the line: %s", q.raw);
    ck_assert_msg(strstr(q.raw, "idnguard: ") == NULL, "Unbound's prefix in the module's file: %s",
                  q.raw);
    hx_query(&h, "xn--ab-m1t.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "xn--ab-m1t.example.", 5, "contextj:xn--ab-m1t", "refuse",
                     "idnguard: contextj: xn--ab-m1t: ");

    /* Unbound's log has the module's start-up line but none of the queries. */
    ck_assert_int_eq(harness_count_lines(H.ub_log, 0, HARNESS_LOADED), 1);
    ck_assert_msg(harness_count_lines(H.ub_log, 0, "127.0.0.1#") == 0,
                  "query lines in Unbound's log although log-file is set");
}
END_TEST

/* Log rotation without a reload: a moved-away file is replaced by a new
 * one within a second or so (logrotate's default), and a truncated file
 * (copytruncate) is written from its start, with no hole before the line. */
START_TEST(test_log_file_rotation)
{
    struct harness h = H;
    char moved[HARNESS_PATH_MAX + 8], needle[40], *text;
    struct timespec ts = {1, 300000000};
    struct dnsq_result r;
    struct qline q;
    size_t n;

    snprintf(h.qlog, sizeof h.qlog, "%.*s/queries.log", HARNESS_PATH_MAX - 16, H.dir);
    snprintf(moved, sizeof moved, "%s.1", h.qlog);
    hx_query(&h, "www.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    ck_assert_int_eq(rename(h.qlog, moved), 0);
    nanosleep(&ts, NULL); /* past the module's once-a-second look at the path */
    hx_query(&h, "xn--80aafi6cg.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "xn--80aafi6cg.example.", "xn--80aafi6cg.example. A 192.0.2.5", "ok",
                   "pass", "resolved");
    snprintf(needle, sizeof needle, "127.0.0.1#%u ", r.local_port);
    ck_assert_msg(harness_count_lines(moved, 0, needle) == 0, "the line went to the moved file");

    ck_assert_int_eq(truncate(h.qlog, 0), 0);
    hx_query(&h, "www2.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    text = harness_read_file(h.qlog, 0, &n);
    ck_assert(text != NULL);
    ck_assert_msg(n > 0 && memchr(text, '\0', n) == NULL && rfc3339_utc(q.time)
                      && strncmp(text, q.time, strlen(q.time)) == 0,
                  "after copytruncate the file does not begin with the new line (%zu octets)", n);
    free(text);
}
END_TEST

/* A log file that cannot be opened again is said in the daemon's log, in
 * every flavour: a rotated file whose path is now a directory (writing goes
 * on to the old file), and, after a reload whose file does not load, the
 * kept settings' log file (query lines then go to the daemon's log).  Last
 * in its tcase: the path stays a directory. */
START_TEST(test_log_file_reopen_failed)
{
    struct harness h = H;
    char moved[HARNESS_PATH_MAX + 8], line[2048];
    struct timespec ts = {1, 300000000};
    struct dnsq_result r;
    struct qline q;
    long from = harness_file_size(H.ub_log);

    snprintf(h.qlog, sizeof h.qlog, "%.*s/queries.log", HARNESS_PATH_MAX - 16, H.dir);
    snprintf(moved, sizeof moved, "%s.1", h.qlog);
    hx_query(&h, "www.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    ck_assert_int_eq(rename(h.qlog, moved), 0);
    ck_assert_int_eq(mkdir(h.qlog, 0755), 0);
    nanosleep(&ts, NULL); /* past the writer's once-a-second look at the path */
    ck_assert(dnsq_query(H.port, "www2.example", DNSQ_A, 0, 1, HARNESS_QUERY_MS, &r) == 0);
    ck_assert_msg(harness_wait_line(H.ub_log, from, "idnguard: reopening the rotated log: ",
                                    HARNESS_LOG_MS, line, sizeof line),
                  "no line says that the rotated log file cannot be opened again");
    ck_assert_msg(strstr(line, "queries.log") && strstr(line, "still writing to the old file"),
                  "line: %s", line);
    if (harness_engine()) /* Unbound's reload (SIGHUP) */
        return;

    from = harness_file_size(H.ub_log);
    ck_assert_int_eq(harness_write_conf(&H, "idnguard:\n    mode: idna2009\n"), 0);
    ck_assert_int_eq(harness_sighup(&H), 0);
    ck_assert_msg(harness_wait_line(H.ub_log, from, HARNESS_RELOAD_FAILED, HARNESS_START_MS, line,
                                    sizeof line),
                  "no \"reload failed\" line after a bad reload");
    ck_assert_msg(harness_wait_line(H.ub_log, from, "; query lines go to unbound's log", 0, line,
                                    sizeof line),
                  "no line says that the kept settings' log file cannot be opened again");
    ck_assert_msg(strstr(line, "queries.log: log-file: "), "line: %s", line);
    /* Which is true: the next query's line is in the daemon's log. */
    hx_query(&H, "xn--bcher-kva.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "xn--bcher-kva.example.", "xn--bcher-kva.example. A 192.0.2.2", "ok",
                   "pass", "resolved");
}
END_TEST

/* ---- what a line carries besides the verdict ---- */

/* The normalize target, the transport (UDP, TCP) and the elapsed time. */
START_TEST(test_line_fields)
{
    static const unsigned flags[] = {0, HQ_TCP};
    static const char *const proto[] = {"udp", "tcp"};
    struct dnsq_result r;
    struct qline q;
    int i;

    for (i = 0; i < 2; i++) {
        hx_query(&H, "b\\195\\188cher.example", DNSQ_A, flags[i], HARNESS_QUERY_MS, &r, &q);
        /* PY: no proto= (the transport is not in Unbound's python API). */
        ck_assert_msg(strcmp(q.target, "xn--bcher-kva.example.") == 0
                          && strcmp(q.proto, PY(proto[i], "")) == 0 && q.ms[0] >= '0'
                          && q.ms[0] <= '9' && strchr(q.ms, '.') != NULL,
                      "line: %s", q.raw);
    }
    hx_query(&H, "www.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(q.target[0] == '\0' && strcmp(q.proto, PY("udp", "")) == 0, "line: %s", q.raw);
}
END_TEST

static void setup_anonymize(void)
{
    harness_setup(&H, "idnguard:\n    anonymize-clients: yes\n", 1);
}

/* anonymize-clients: yes logs 127.0.0.1 as its /24, 127.0.0.0. */
START_TEST(test_anonymize_clients)
{
    struct dnsq_result r;
    char needle[48], line[2048];
    long from = harness_file_size(H.qlog);

    ck_assert(dnsq_query(H.port, "www.example", DNSQ_A, 0, 1, HARNESS_QUERY_MS, &r) == 0);
    ck_assert_int_eq(r.rcode, 0);
    snprintf(needle, sizeof needle, "127.0.0.0#%u www.example.", r.local_port);
    ck_assert_msg(harness_wait_line(H.qlog, from, needle, HARNESS_LOG_MS, line, sizeof line),
                  "no line with %s", needle);
    ck_assert_int_eq(harness_count_lines(H.qlog, from, "127.0.0.1#"), 0);
}
END_TEST

/* ---- the stats file ---- */

static void setup_stats_file(void)
{
    harness_setup(&H, "idnguard:\n    stats-interval: 1\n    stats-file: \"@DIR@/idnguard.prom\"\n",
                  1);
}

/* Waits (bounded) until the stats file holds line; returns the file. */
static char *wait_stats(const char *path, const char *line)
{
    long long deadline = harness_now_ms() + 4000;
    struct timespec ts = {0, 100000000};

    for (;;) {
        char *t = harness_read_file(path, 0, NULL);
        if (t && strstr(t, line))
            return t;
        if (harness_now_ms() > deadline)
            return t;
        free(t);
        nanosleep(&ts, NULL);
    }
}

/* The counters are written every stats-interval seconds by a timer,
 * whether queries come or not, in Prometheus text format, and they survive
 * a reload. */
START_TEST(test_stats_file)
{
    char path[HARNESS_PATH_MAX + 32];
    struct dnsq_result r;
    struct qline q;
    char *t;
    int i;

    snprintf(path, sizeof path, "%s/idnguard.prom", H.dir);
    for (i = 0; i < 2; i++)
        hx_query(&H, "xn--bcher-kva.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_query(&H, "xn--ab-m1t.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    t = wait_stats(path, "path=\"cache\"} 1\n");
    ck_assert_msg(t != NULL, "no stats file at %s", path);
    ck_assert_msg(strstr(t, "idnguard_answers_total{class=\"ok\",action=\"pass\",path=\"resolved\"} 1\n")
                      && strstr(t, "idnguard_answers_total{class=\"ok\",action=\"pass\",path=\"cache\"} 1\n")
                      && strstr(t, "idnguard_answers_total{class=\"contextj\",action=\"refuse\","
                                   "path=\"policy\"} 1\n")
                      && strstr(t, "# TYPE idnguard_answers_total counter\n")
                      && strstr(t, "idnguard_info{version=\"" IDNG_VERSION "\""),
                  "stats file:\n%s", t);
    free(t);
    /* kresd: the counters' summary line every stats-interval seconds, in
     * its log (the adapter's timer; the library writes the file), and
     * the file names the host. */
    if (harness_flavour() == HX_KRESD) {
        ck_assert_msg(harness_wait_line(H.ub_log, 0, "idnguard stats (interval): ", 3000, NULL, 0),
                      "no summary line at stats-interval");
        t = harness_read_file(path, 0, NULL);
        ck_assert_msg(t && strstr(t, "unbound=\"kresd\""), "stats file:\n%s", t ? t : "");
        free(t);
    }
    /* A reload keeps the counts; the next refusal makes it 2.  (An engine
     * has no reload.) */
    if (!harness_engine()) {
        ck_assert_int_eq(harness_sighup(&H), 0);
        ck_assert(harness_wait_count(H.ub_log, 0, HARNESS_RELOADED, 1, HARNESS_START_MS) >= 1);
    }
    hx_query(&H, "xn--ab-m1t.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    t = wait_stats(path, "action=\"refuse\",path=\"policy\"} 2\n");
    ck_assert_msg(t && strstr(t, "action=\"refuse\",path=\"policy\"} 2\n"),
                  "after a reload:\n%s", t ? t : "(no file)");
    free(t);
    /* `idnguard stats FILE` reads it back as a table. */
    if (getenv("IDNGUARD_BIN")) {
        char cmd[HARNESS_PATH_MAX * 2 + 64], out[8192];
        size_t n;
        FILE *pp;
        snprintf(cmd, sizeof cmd, "'%s' stats '%s'", getenv("IDNGUARD_BIN"), path);
        pp = popen(cmd, "r");
        ck_assert(pp != NULL);
        n = fread(out, 1, sizeof out - 1, pp);
        out[n] = '\0';
        ck_assert_msg(pclose(pp) == 0 && strstr(out, "contextj") && strstr(out, "refuse")
                          && strstr(out, "normalized"),
                      "idnguard stats: %s", out);
    }
    /* Prometheus's own linter (make check unpacks Debian's promtool) takes
     * the file as node_exporter would: format, names, HELP and TYPE. */
    if (getenv("IDNGUARD_PROMTOOL") && getenv("IDNGUARD_PROMTOOL")[0]) {
        char cmd[HARNESS_PATH_MAX * 2 + 64];
        snprintf(cmd, sizeof cmd, "'%s' check metrics <'%s' >&2", getenv("IDNGUARD_PROMTOOL"),
                 path);
        ck_assert_msg(system(cmd) == 0, "promtool check metrics refuses %s", path);
    }
    /* Never half a file: the module writes beside it and renames. */
    snprintf(path, sizeof path, "%s/idnguard.prom.tmp", H.dir);
    ck_assert_msg(harness_file_size(path) == 0, "a temporary file is left over");
}
END_TEST

/* A stats file that cannot be written is said in the daemon's log by the
 * stats timer, whether queries come or not, in every flavour.  Last in its
 * tcase: the path stays a directory. */
START_TEST(test_stats_file_error)
{
    char path[HARNESS_PATH_MAX + 32], line[2048];
    long from = harness_file_size(H.ub_log);

    snprintf(path, sizeof path, "%s/idnguard.prom", H.dir);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    /* No query from here on: the timer alone writes the file. */
    ck_assert_msg(
        harness_wait_line(H.ub_log, from, "idnguard: stats-file: ", 4000, line, sizeof line),
        "no line says that the stats file cannot be written");
    ck_assert_msg(strstr(line, "idnguard.prom"), "line: %s", line);
}
END_TEST

/* ---- a real stop ---- */

static void setup_stop(void)
{
    harness_setup(&H,
                  "idnguard:\n    stats-interval: 0\n    stats-file: \"@DIR@/idnguard.prom\"\n" NO_WATCH,
                  1);
}

/* Reloads, good or bad, are no stop: no counters line for a shutdown.  A
 * real stop (SIGTERM) logs it once, with every count since the start
 * (across the reloads), and writes the stats file, which stats-interval 0
 * leaves to the stop. */
START_TEST(test_stop_logs_shutdown_stats)
{
    char path[HARNESS_PATH_MAX + 32], conf[HARNESS_PATH_MAX + 128], line[4096], *t;
    struct dnsq_result r;
    struct qline q;
    struct timespec ts = {0, 50000000};
    long long deadline;

    snprintf(path, sizeof path, "%s/idnguard.prom", H.dir);
    hx_query(&H, "xn--ab-m1t.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "xn--ab-m1t.example.", 5, "contextj:xn--ab-m1t", "refuse",
                     "idnguard: contextj: xn--ab-m1t: ");
    if (!harness_engine()) { /* an engine has no reload: the same counts without them */
        snprintf(conf, sizeof conf,
                 "idnguard:\n    stats-interval: 0\n    stats-file: \"%s\"\n" NO_WATCH, path);
        reload_with(conf, line, sizeof line);
        ck_assert_msg(reload_line_says(line, "no change"), "reload line: %s", line);
        ck_assert_int_eq(harness_write_conf(&H, "idnguard:\n    mode: idna2009\n"), 0);
        ck_assert_int_eq(harness_sighup(&H), 0);
        ck_assert(harness_wait_line(H.ub_log, 0, HARNESS_RELOAD_FAILED "1); ", HARNESS_START_MS,
                                    line, sizeof line));
    }
    hx_query(&H, "xn--ab-m1t.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, "xn--ab-m1t.example.", 5, "contextj:xn--ab-m1t", "refuse",
                     "idnguard: contextj: xn--ab-m1t: ");
    ck_assert_int_eq(harness_count_lines(H.ub_log, 0, HARNESS_SHUTDOWN_STATS), 0);

    ck_assert_int_eq(kill(H.ub_pid, SIGTERM), 0);
    deadline = harness_now_ms() + HARNESS_STOP_MS;
    while (harness_alive(H.ub_pid, H.owner) && harness_now_ms() < deadline)
        nanosleep(&ts, NULL);
    ck_assert_msg(!harness_alive(H.ub_pid, H.owner), "unbound did not stop on SIGTERM");
    if (!harness_wait_line(H.ub_log, 0, HARNESS_SHUTDOWN_STATS, HARNESS_LOG_MS, line,
                           sizeof line)) {
        harness_tail(H.ub_log, line, sizeof line);
        ck_abort_msg("no \"%s\" line at the stop; the log ends:\n%s", HARNESS_SHUTDOWN_STATS, line);
    }
    ck_assert_msg(strstr(line, " contextj/refuse=2 ")
                      && strstr(line, ENGINE(" reload-failures=1", " reload-failures=0",
                                             " reload-failures=1", " reload-failures=1")),
                  "shutdown line: %s", line);
    ck_assert_int_eq(harness_count_lines(H.ub_log, 0, HARNESS_SHUTDOWN_STATS), 1);
    t = harness_read_file(path, 0, NULL);
    ck_assert_msg(t
                      && strstr(t, "idnguard_answers_total{class=\"contextj\",action=\"refuse\","
                                   "path=\"policy\"} 2\n"),
                  "the stats file after the stop:\n%s", t ? t : "(none)");
    free(t);
}
END_TEST

/* ---- log-rejected ---- */

static void setup_rejected_only(void)
{
    harness_setup(&H, "idnguard:\n    log-queries: no\n", 1);
}

static void setup_silent(void)
{
    harness_setup(&H, "idnguard:\n    log-queries: no\n    log-rejected: no\n", 1);
}

/* With log-queries: no a refusal is still logged (log-rejected: yes, the
 * default), and an answered name is not; with log-rejected: no neither is.
 * The refused query goes second: one worker handles them in order, so once
 * its line is there (or, silent, once its reply is), the first had its. */
START_TEST(test_log_rejected)
{
    int silent = _i;
    struct dnsq_result r1, r2;
    char needle[40], line[2048];

    ck_assert(dnsq_query(H.port, "xn--bcher-kva.example", DNSQ_A, 0, 1, HARNESS_QUERY_MS, &r1)
              == 0);
    ck_assert_msg(r1.rcode == 0, "good name: %s", dnsq_rcode_name(r1.rcode));
    ck_assert(dnsq_query(H.port, "xn--ab-m1t.example", DNSQ_A, 0, 1, HARNESS_QUERY_MS, &r2) == 0);
    ck_assert_msg(r2.rcode == 5, "fake name: %s", dnsq_rcode_name(r2.rcode));
    snprintf(needle, sizeof needle, "127.0.0.1#%u ", r2.local_port);
    if (!silent) {
        ck_assert_msg(harness_wait_line(H.qlog, 0, needle, HARNESS_LOG_MS, line, sizeof line),
                      "no line for a refusal with log-queries: no");
        ck_assert_msg(strstr(line, " REFUSED contextj:xn--ab-m1t refuse policy") != NULL,
                      "line: %s", line);
    } else {
        ck_assert_msg(harness_count_lines(H.qlog, 0, needle) == 0,
                      "a line for a refusal with log-rejected: no");
    }
    snprintf(needle, sizeof needle, "127.0.0.1#%u ", r1.local_port);
    ck_assert_msg(harness_count_lines(H.qlog, 0, needle) == 0,
                  "a line for a valid name with log-queries: no");
}
END_TEST

/* ---- log-queries: no ---- */

static void setup_quiet(void)
{
    harness_setup(&H, "idnguard:\n    log-queries: no\n    on-invalid: log\n" NO_WATCH, 1);
}

/* Only names whose action is "log" are logged.  The good query goes first:
 * one worker thread handles them in order, so once the second query's line
 * is there, a line for the first would be too. */
START_TEST(test_log_queries_no)
{
    struct dnsq_result r1, r2;
    struct qline q;
    char needle[40];

    ck_assert(dnsq_query(H.port, "xn--bcher-kva.example", DNSQ_A, 0, 1, HARNESS_QUERY_MS, &r1)
              == 0);
    ck_assert_msg(r1.rcode == 0, "good name: %s", dnsq_rcode_name(r1.rcode));
    hx_query(&H, "xn--ab-m1t.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r2, &q);
    hx_expect_data(&r2, &q, "xn--ab-m1t.example.", "xn--ab-m1t.example. A 192.0.2.67",
                   "contextj:xn--ab-m1t", "log", "resolved");
    snprintf(needle, sizeof needle, "127.0.0.1#%u ", r1.local_port);
    ck_assert_msg(harness_count_lines(H.qlog, 0, needle) == 0,
                  "a line for a valid name with log-queries: no");
}
END_TEST

/* Emoji are pictographs, which the mixed-script rule sets aside: with
 * log-queries: no, emoji names (💩, 😉) are answered without a line, as
 * good IDNs are; a name mixing Latin and Cyrillic still makes one (the
 * default on-mixed-script: log; login.pаypal, as pаypal itself is
 * test_log_queries_no_cache_hit_reload's).  The emoji go first: one worker handles
 * the queries in order, so once the mixed name's line is there, theirs
 * would be too. */
START_TEST(test_log_queries_no_emoji)
{
    static const char *const emoji[] = {"xn--ls8h.example", "xn--n28h.example"};
    struct dnsq_result r, er[2];
    struct qline q;
    char needle[40];
    int i;

    for (i = 0; i < 2; i++) {
        ck_assert(dnsq_query(H.port, emoji[i], DNSQ_A, 0, 1, HARNESS_QUERY_MS, &er[i]) == 0);
        ck_assert_msg(er[i].rcode == 0, "%s: %s", emoji[i], dnsq_rcode_name(er[i].rcode));
    }
    hx_query(&H, "login.xn--pypal-4ve.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "login.xn--pypal-4ve.example.",
                   "login.xn--pypal-4ve.example. A 192.0.2.82", "mixed-script:xn--pypal-4ve", "log",
                   "resolved");
    for (i = 0; i < 2; i++) {
        snprintf(needle, sizeof needle, "127.0.0.1#%u ", er[i].local_port);
        ck_assert_msg(harness_count_lines(H.qlog, 0, needle) == 0,
                      "a line for the emoji name %s with log-queries: no", emoji[i]);
    }
    ck_assert_msg(harness_count_lines(H.qlog, 0, "xn--ls8h") == 0
                      && harness_count_lines(H.qlog, 0, "xn--n28h") == 0,
                  "a line for an emoji name with log-queries: no");
}
END_TEST

/* The name's action is "log" also when its answer comes from the cache:
 * every query for it is logged, not only the first one. */
START_TEST(test_log_queries_no_cache_hit)
{
    struct dnsq_result r;
    struct qline q;
    int i;

    for (i = 0; i < 2; i++) {
        hx_query(&H, "xn--ab-m1t.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
        ck_assert_msg(strcmp(q.verdict, "contextj:xn--ab-m1t") == 0 && strcmp(q.action, "log") == 0,
                      "query %d: line %s", i + 1, q.raw);
    }
    ck_assert_msg(strcmp(q.path, "cache") == 0, "second query not from the cache: %s", q.raw);
}
END_TEST

/* The cache-hit path remembers verdicts per thread (core/idng_memo.h);
 * settings loaded on SIGHUP must not meet a verdict of the old ones.
 * pаypal (Latin and Cyrillic) is mixed-script: first passed, so that its
 * cache hit is remembered as pass (one worker, which is Unbound's main
 * thread and survives the reload), then logged, so that the cache hit
 * after the reload must make a line. */
START_TEST(test_log_queries_no_cache_hit_reload)
{
    struct dnsq_result r;
    struct qline q;
    int i;

    char line[2048];

    reload_with("idnguard:\n    log-queries: no\n    on-invalid: log\n    on-mixed-script: pass\n"
                NO_WATCH,
                line, sizeof line);
    for (i = 0; i < 2; i++) {
        ck_assert(dnsq_query(H.port, "xn--pypal-4ve.example", DNSQ_A, 0, 1, HARNESS_QUERY_MS, &r)
                  == 0);
        ck_assert_msg(r.rcode == 0, "mixed-script name: %s", dnsq_rcode_name(r.rcode));
    }
    /* A line that does come (contextj is logged) shows that none was
     * written for the mixed-script name before it. */
    hx_query(&H, "xn--ab-m1t.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    ck_assert_msg(strcmp(q.action, "log") == 0, "line %s", q.raw);
    ck_assert_msg(harness_count_lines(H.qlog, 0, " xn--pypal-4ve.example. ") == 0,
                  "a line for a passed mixed-script name with log-queries: no");

    reload_with("idnguard:\n    log-queries: no\n    on-invalid: log\n" NO_WATCH, line, sizeof line);
    for (i = 0; i < 2; i++) {
        hx_query(&H, "xn--pypal-4ve.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
        ck_assert_msg(strcmp(q.verdict, "mixed-script:xn--pypal-4ve") == 0
                          && strcmp(q.action, "log") == 0,
                      "query %d after the reload: line %s", i + 1, q.raw);
    }
    ck_assert_msg(strcmp(q.path, "cache") == 0, "second query not from the cache: %s", q.raw);
}
END_TEST

/* From an attacker's review of the remembered verdicts: both workers
 * remember xn--bcher-kva.example (asked directly, and as good-alias's CNAME
 * target) as ok; a reload that fails keeps that; a reload that denies it
 * must refuse it on every worker, as the query and as the target. */
static void ask_both(int rcode, const char *when)
{
    struct dnsq_result r;
    int i;

    for (i = 0; i < 40; i++) {
        ck_assert(dnsq_query(H.port, i % 2 ? "xn--bcher-kva.example" : "good-alias.example",
                             DNSQ_A, 0, 1, HARNESS_QUERY_MS, &r) == 0);
        ck_assert_msg(r.rcode == rcode, "query %d %s: %s", i, when, dnsq_rcode_name(r.rcode));
    }
}

START_TEST(test_threads_reload_remembered)
{
    char line[2048];

    ask_both(0, "before the reloads");
    ck_assert_int_eq(harness_write_conf(&H, "idnguard:\n    mode: idna2009\n"), 0);
    ck_assert_int_eq(harness_sighup(&H), 0);
    ck_assert(
        harness_wait_line(H.ub_log, 0, HARNESS_RELOAD_FAILED, HARNESS_START_MS, line, sizeof line));
    ask_both(0, "after a reload that failed");
    reload_with("idnguard:\n    deny: xn--bcher-kva.example.\n" NO_WATCH, line, sizeof line);
    ask_both(5, "after a reload that denies the name");
}
END_TEST

static Suite *ops_suite(void)
{
    Suite *s = suite_create("integration-ops");
    TCase *tc;

    tc = harness_tcase("threads", setup_threads, teardown);
    tcase_add_test(tc, test_concurrent_clients);
    tcase_add_test(tc, test_race_never_serves_rejected);
    if (!harness_engine()) /* Unbound's reload (SIGHUP) */
        tcase_add_test(tc, test_threads_reload_remembered);
    suite_add_tcase(s, tc);

    /* Unbound's reload (SIGHUP) */
    if (!harness_engine()) {
        tc = harness_tcase("reload", setup_no_watch, teardown);
        tcase_add_test(tc, test_reload_changes_mode);
        tcase_add_test(tc, test_reload_bad_file_keeps_previous_settings);
        tcase_add_test(tc, test_reload_include);
        suite_add_tcase(s, tc);
    }

    tc = harness_tcase("watch", setup_watch, teardown);
    tcase_add_test(tc, test_watch_applies_without_reload);
    tcase_add_test(tc, test_watch_bad_file_keeps_settings);
    tcase_add_test(tc, test_watch_rename);
    tcase_add_test(tc, test_watch_log_file);
    tcase_add_test(tc, test_watch_included_dir);
    tcase_add_test(tc, test_watch_under_load);
    tcase_add_test(tc, test_watch_million_names_under_load);
    /* Two million names written and read in one test: room for a
     * sanitizer build on a loaded machine. */
    tcase_set_timeout(tc, 300);
    suite_add_tcase(s, tc);

    tc = harness_tcase("bad-config", NULL, teardown);
    if (!harness_engine()) /* Unbound's build check */
        tcase_add_test(tc, test_refuses_other_build);
    tcase_add_loop_test(tc, test_bad_config_stops_startup, 0,
                        (int)(sizeof bad_confs / sizeof bad_confs[0]));
    suite_add_tcase(s, tc);

    tc = harness_tcase("escaping", setup_defaults, teardown);
    tcase_add_loop_test(tc, test_log_escapes_hostile_names, 0, NHOSTILE);
    suite_add_tcase(s, tc);

    tc = harness_tcase("json", setup_json, teardown);
    tcase_add_loop_test(tc, test_json_lines, 0, (int)(sizeof jrows / sizeof jrows[0]));
    suite_add_tcase(s, tc);

    tc = harness_tcase("log-file", setup_log_file, teardown);
    tcase_add_test(tc, test_log_file_gets_the_lines);
    tcase_add_test(tc, test_log_file_rotation);
    tcase_add_test(tc, test_log_file_reopen_failed);
    suite_add_tcase(s, tc);

    tc = harness_tcase("line-fields", setup_defaults, teardown);
    tcase_add_test(tc, test_line_fields);
    suite_add_tcase(s, tc);
    tc = harness_tcase("anonymize", setup_anonymize, teardown);
    tcase_add_test(tc, test_anonymize_clients);
    suite_add_tcase(s, tc);

    tc = harness_tcase("stats-file", setup_stats_file, teardown);
    tcase_add_test(tc, test_stats_file);
    tcase_add_test(tc, test_stats_file_error);
    suite_add_tcase(s, tc);

    tc = harness_tcase("stop", setup_stop, teardown);
    tcase_add_test(tc, test_stop_logs_shutdown_stats);
    suite_add_tcase(s, tc);

    tc = harness_tcase("log-rejected", setup_rejected_only, teardown);
    tcase_add_loop_test(tc, test_log_rejected, 0, 1);
    suite_add_tcase(s, tc);
    tc = harness_tcase("log-rejected-no", setup_silent, teardown);
    tcase_add_loop_test(tc, test_log_rejected, 1, 2);
    suite_add_tcase(s, tc);

    tc = harness_tcase("log-queries-no", setup_quiet, teardown);
    tcase_add_test(tc, test_log_queries_no);
    tcase_add_test(tc, test_log_queries_no_emoji);
    tcase_add_test(tc, test_log_queries_no_cache_hit);
    if (!harness_engine()) /* Unbound's reload (SIGHUP) */
        tcase_add_test(tc, test_log_queries_no_cache_hit_reload);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(ops_suite)
