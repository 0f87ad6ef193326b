/**
 * \file
 * Operating the module, the settings applied while it runs: reload on
 * SIGHUP with a changed configuration (a bad file keeps the settings in
 * force, included files, under load), and a changed file applied without a
 * reload (watch-settings).
 *
 * Each tcase has its own daemon pair started in an unchecked fixture
 * (owned by the runner process; see harness.h).
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

static void setup_no_watch(void)
{
    harness_setup(&H, "idnguard:\n" NO_WATCH, 1);
}

/* ---- reload ---- */

START_TEST(test_reload_changes_mode)
{
    struct dnsq_result r;
    struct qline q;
    char line[2048];

    /* uts46: the emoji passes (and its answer is now in the cache). */
    hx_query(&H, "xn--ls8h.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, "xn--ls8h.example.", "xn--ls8h.example. A 192.0.2.3", "ok", "pass",
                   "resolved");
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
    pid_t pid;

    snprintf(qfile, sizeof qfile, "%s/queries.txt", H.dir);
    snprintf(out, cap, "%s/dnsperf.out", H.dir);
    t_spew_str(qfile, "www.example A\nxn--bcher-kva.example A\nxn--ab-m1t.example A\n");
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
        execlp("dnsperf", "dnsperf", "-s", "127.0.0.1", "-p", port, "-d", qfile, "-l", secs, "-c",
               "2", "-q", "20", "-t", "2", (char *)NULL);
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
    hx_expect_data(&r, &q, "xn--ls8h.example.", "xn--ls8h.example. A 192.0.2.3", "ok", "pass",
                   "resolved");
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

    snprintf(local, sizeof local, "%s/local-1.conf", H.dir);
    t_spew_str(local, "idnguard:\n    mode: idna2008\n");
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
    t_spew_str(tmp, "idnguard:\n    deny: sub.www.example.\n");
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
    if (!harness_python()) { /* an engine judges each query before its cache */
        ck_assert_int_eq(wait_rcode("www.example", 5), 5);
        hx_query(&H, "www.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
        hx_expect_policy(&r, &q, "www.example.", 5, "deny", "refuse", "idnguard: deny");
    } else {
        py_does("a cached answer is not expired when the settings change");
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
    if (!harness_python()) {
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
        long lost = -1, interrupted = 0;
        if (t && (p = strstr(t, "Queries lost:")) != NULL)
            lost = strtol(p + 13, NULL, 10);
        /* dnsperf prints this line only when queries were in flight. */
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

static Suite *ops_settings_suite(void)
{
    Suite *s = suite_create("integration-ops-settings");
    TCase *tc;

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
    return s;
}

IDNG_TEST_MAIN(ops_settings_suite)
