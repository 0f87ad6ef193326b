/**
 * \file
 * Operating the module: two worker threads under concurrent clients (and
 * what they remember across reloads), a bad configuration that stops
 * start-up with file:line, the files the module writes (its log file:
 * rotation, a failed reopen; the stats file), and a real stop's counters.
 * The settings applied while running are in test_ops_settings.c, the
 * query log in test_ops_log.c.
 *
 * Each tcase has its own daemon pair started in an unchecked fixture
 * (owned by the runner process; see harness.h); the bad-configuration
 * tests start and reap their daemons inside the test.
 */
#include "common.h"
#include "harness.h"
#include "ops.h"
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

    tc = harness_tcase("bad-config", NULL, teardown);
    if (!harness_engine()) /* Unbound's build check */
        tcase_add_test(tc, test_refuses_other_build);
    tcase_add_loop_test(tc, test_bad_config_stops_startup, 0,
                        (int)(sizeof bad_confs / sizeof bad_confs[0]));
    suite_add_tcase(s, tc);

    tc = harness_tcase("log-file", setup_log_file, teardown);
    tcase_add_test(tc, test_log_file_gets_the_lines);
    tcase_add_test(tc, test_log_file_rotation);
    tcase_add_test(tc, test_log_file_reopen_failed);
    suite_add_tcase(s, tc);

    tc = harness_tcase("stats-file", setup_stats_file, teardown);
    tcase_add_test(tc, test_stats_file);
    tcase_add_test(tc, test_stats_file_error);
    suite_add_tcase(s, tc);

    tc = harness_tcase("stop", setup_stop, teardown);
    tcase_add_test(tc, test_stop_logs_shutdown_stats);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(ops_suite)
