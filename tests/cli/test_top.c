/**
 * \file
 * `idnguard top` and `idnguard stats`: one frame (--once) from made-up
 * counters files and query logs, text and JSON, with hostile lines; and the
 * live view in a real terminal, under tmux: it refreshes as the counters
 * file is replaced and the log grows and is rotated, shows rates, and quits
 * on q; without a terminal it stops on SIGINT and SIGTERM.  tmux runs on a
 * socket of its own in the test's directory and its server is stopped by
 * PID.
 */
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[256];

static void path_in(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", dir, name);
}

/* text added at the end of path (a log growing under the pane). */
static void append(const char *path, const char *text)
{
    ck_assert_msg(t_write_file(path, "ab", text, strlen(text)) == 0, "cannot write %s: %s", path,
                  strerror(errno));
}

/* Runs idnguard with args (NULL-terminated). */
static void run(const char *const *args, struct t_out *r)
{
    t_run_cli(t_idnguard_bin(), NULL, args, dir, 20, r);
}

static void run_free(struct t_out *r)
{
    t_out_free(r);
}

static const char module_prom[] =
    "# HELP idnguard_info idnguard's build and settings\n# TYPE idnguard_info gauge\n"
    "idnguard_info{version=\"0.2.0\",unicode=\"16.0.0\",unbound=\"1.17.1\",mode=\"uts46\"} 1\n"
    "idnguard_answers_total{class=\"ok\",action=\"pass\",path=\"resolved\"} 90\n"
    "idnguard_answers_total{class=\"ok\",action=\"pass\",path=\"cache\"} 6\n"
    "idnguard_answers_total{class=\"confusable\",action=\"refuse\",path=\"policy\"} 3\n"
    "idnguard_answers_total{class=\"deny\",action=\"nxdomain\",path=\"policy\"} 1\n"
    "# HELP idnguard_reload_failures_total reloads that kept the previous settings\n"
    "idnguard_reload_failures_total 1\n";

/* Unbound's log with the module's lines, and lines that are not the
 * module's or are hostile: an escape sequence and a bidi control in a name
 * (as a log written by someone else could hold), a lookalike (no Unicode
 * form), a JSON line, an over-long line. */
static void write_log(const char *path)
{
    char lng[12000];

    memset(lng, 'a', sizeof lng - 2);
    lng[sizeof lng - 2] = '\n';
    lng[sizeof lng - 1] = '\0';
    t_spew_str(
        path, "Nov 28 06:04:30 unbound[1:0] info: idnguard: loaded /etc/unbound/idnguard.conf "
              "(mode uts46, Unicode 16.0.0)\n"
              "Nov 28 06:04:31 unbound[1:1] info: idnguard: 127.0.0.1#37350 "
              "xn--bcher-kva.example. (b\xc3\xbc"
              "cher.example.) A IN NOERROR ok pass resolved "
              "proto=udp ms=1.3\n"
              "Nov 28 06:04:31 unbound[1:1] info: idnguard: 192.0.2.7#4001 xn--pypal-4ve.example. "
              "A IN REFUSED confusable:xn--pypal-4ve refuse policy ede=15 lookalike=confusable "
              "proto=udp ms=0.2\n"
              "Nov 28 06:04:32 unbound[1:1] info: idnguard: 192.0.2.7#4002 xn--pypal-4ve.example. "
              "A IN REFUSED confusable:xn--pypal-4ve refuse policy ede=15 lookalike=confusable "
              "proto=udp ms=0.2\n"
              "Nov 28 06:04:33 unbound[1:1] info: idnguard: 198.51.100.9#53 evil\x1b[2J\xe2\x80\xae"
              "moc.example. A IN REFUSED deny refuse policy ede=15\n"
              "{\"time\":\"2026-11-28T06:04:34Z\",\"client\":\"2001:db8::1\",\"port\":7,"
              "\"qname\":\"xn--ab-m1t.example.\",\"qname_unicode\":null,\"lookalike\":null,"
              "\"qtype\":\"A\",\"qclass\":\"IN\",\"rcode\":\"NXDOMAIN\",\"verdict\":\"contextj\","
              "\"label\":\"xn--ab-m1t\",\"action\":\"nxdomain\",\"path\":\"policy\"}\n"
              "Nov 28 06:04:34 unbound[1:1] info: {\"time\":null,\"client\":\"2001:db8::1\","
              "\"port\":8,\"qname\":\"xn--ab-m1t.example.\",\"qname_unicode\":null,"
              "\"verdict\":\"contextj\",\"label\":\"xn--ab-m1t\",\"action\":\"nxdomain\"}\n"
              "Nov 28 06:04:35 unbound[1:0] info: idnguard stats (interval): answers=6\n");
    append(path, lng);
}

START_TEST(test_once)
{
    char prom[600], log[600];
    const char *args[] = {"top", "--once", "--stats", prom, "--log", log, NULL};
    struct t_out r;

    path_in(prom, sizeof prom, "idnguard.prom");
    path_in(log, sizeof log, "query.log");
    t_spew_str(prom, module_prom);
    write_log(log);
    run(args, &r);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    /* Counters by class and action, summed over the paths. */
    ck_assert_msg(strstr(r.out, "(module, mode uts46)"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "  ok                     pass                 96"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "  confusable             refuse                3"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "all answers                                100   rejected 4 (4.00%)"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "reload_failures 1"), "%s", r.out);
    /* The log: six answers (the loaded, stats and over-long lines are none);
     * JSON alone and after Unbound's prefix. */
    ck_assert_msg(strstr(r.out, ": 6 answers, 5 rejected"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "  2001:db8::1                                       2\n"), "%s",
                  r.out);
    ck_assert_msg(strstr(r.out, "  xn--pypal-4ve.example.                            2  confusable refuse\n"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "xn--ab-m1t.example.") && strstr(r.out, "contextj nxdomain"), "%s",
                  r.out);
    /* Escaped: no ESC, no bidi override reaches the terminal. */
    ck_assert_msg(strstr(r.out, "evil\\027[2J\\u{202E}moc.example."), "%s", r.out);
    ck_assert_ptr_null(strchr(r.out, '\x1b'));
    ck_assert_ptr_null(strstr(r.out, "\xe2\x80\xae"));
    /* Clients by rejections, without their ports. */
    ck_assert_msg(strstr(r.out, "  192.0.2.7                                         2\n"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "  2001:db8::1 "), "%s", r.out);
    ck_assert_msg(strstr(r.out, "  198.51.100.9 "), "%s", r.out);
    /* A valid name's line is no rejection: not listed. */
    ck_assert_ptr_null(strstr(r.out, "bcher"));
    run_free(&r);
}
END_TEST

/* --conf takes the files from the settings; the tap's file is shown as the
 * tap's, and `idnguard stats` reads it too. */
START_TEST(test_conf_and_tap_file)
{
    char conf[600], tapf[600], text[2000];
    const char *args[] = {"top", "--once", "--conf", conf, NULL};
    const char *st[] = {"stats", tapf, NULL};
    struct t_out r;

    path_in(conf, sizeof conf, "idnguard.conf");
    path_in(tapf, sizeof tapf, "tap.prom");
    t_spew_str(tapf, "idnguard_tap_lines_total{class=\"ok\",action=\"pass\"} 7\n"
                     "idnguard_tap_lines_total{class=\"bad-punycode\",action=\"refuse\"} 2\n"
                     "idnguard_tap_dropped_total 0\n"
                     "idnguard_tap_info{version=\"0.2.0\",unicode=\"16.0.0\",mode=\"uts46\"} 1\n");
    snprintf(text, sizeof text, "idnguard:\n    tap-stats-file: \"%s\"\n", tapf);
    t_spew_str(conf, text);
    run(args, &r);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, "(idnguard tap, mode uts46)") && strstr(r.out, "all lines"), "%s",
                  r.out);
    ck_assert_msg(strstr(r.out, "bad-punycode           refuse                2"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "query log: Unbound's own log"), "%s", r.out);
    run_free(&r);
    run(st, &r);
    ck_assert_msg(r.status == 0 && strstr(r.out, "idnguard tap's lines")
                      && strstr(r.out, "bad-punycode     refuse              2")
                      && strstr(r.out, "dropped"),
                  "%d %s %s", r.status, r.out, r.err);
    run_free(&r);
}
END_TEST

START_TEST(test_usage_errors)
{
    /* The arguments, then what standard error begins with: the command's
     * prefix and the option named. */
    static const char *const cases[][6] = {
        {"top", "--bogus", NULL, "idnguard top: unknown option '--bogus' (idnguard top --help)"},
        {"top", "--interval", "0", NULL, "idnguard top: --interval: '0' is not a number"},
        {"top", "--top", "x", NULL, "idnguard top: --top: 'x' is not a number"},
        {"top", "--stats", NULL, "idnguard top: option '--stats' needs a value: --stats FILE"},
        {"top", "--conf", "/nonexistent/idnguard.conf", NULL, "idnguard top: "},
    };
    size_t i, k;
    struct t_out r;

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *want;
        run(cases[i], &r);
        for (k = 0; cases[i][k]; k++)
            ;
        want = cases[i][k + 1];
        ck_assert_msg(r.status == 2 && strncmp(r.err, want, strlen(want)) == 0,
                      "case %zu: status %d, stderr '%s', not '%s...'", i, r.status, r.err, want);
        run_free(&r);
    }
    {
        char conf[600];
        const char *a[] = {"top", "--conf", conf, NULL};
        path_in(conf, sizeof conf, "empty.conf");
        t_spew_str(conf, "idnguard:\n");
        run(a, &r);
        ck_assert_msg(r.status == 2 && strstr(r.err, "nothing to show"), "%s", r.err);
        run_free(&r);
    }
}
END_TEST

/* ---- the live view under tmux ---- */

static char sock[600];
/* The tmux server of the live test, stopped by PID in teardown whatever
 * the test's outcome (0: none started). */
static pid_t tmux_server;

static int tmux(const char *fmt, const char *arg)
{
    char cmd[4800], a[4000];
    snprintf(a, sizeof a, fmt, arg);
    snprintf(cmd, sizeof cmd, "tmux -S '%s' %s", sock, a);
    return system(cmd);
}

/* The pane's text, polled until it holds want (or 10 s pass). */
static char *pane_with(const char *want)
{
    char path[700], cmd[1600];
    int i;

    path_in(path, sizeof path, "pane.txt");
    for (i = 0; i < 100; i++) {
        char *t;
        snprintf(cmd, sizeof cmd, "tmux -S '%s' capture-pane -p -t top > '%s' 2>/dev/null", sock,
                 path);
        if (system(cmd) == 0 && (t = t_slurp(path, NULL)) != NULL) {
            if (strstr(t, want) || i == 99)
                return t;
            free(t);
        }
        t_sleep_ms(100);
    }
    return t_slurp(path, NULL);
}

static pid_t server_pid(void)
{
    char cmd[1200], buf[32] = "";
    FILE *p;

    snprintf(cmd, sizeof cmd, "tmux -S '%s' display-message -p '#{pid}' 2>/dev/null", sock);
    p = popen(cmd, "r");
    if (p == NULL)
        return -1;
    if (fgets(buf, sizeof buf, p) == NULL)
        buf[0] = '\0';
    pclose(p);
    return (pid_t)atol(buf);
}

START_TEST(test_live_under_tmux)
{
    char prom[600], log[600], cmd[2000], old[700], *t;
    pid_t server;
    int i;

    ck_assert_msg(system("command -v tmux >/dev/null") == 0, "tmux is not installed (make deps)");
    path_in(sock, sizeof sock, "tmux.sock");
    path_in(prom, sizeof prom, "live.prom");
    path_in(log, sizeof log, "live.log");
    t_spew_str(prom, module_prom);
    t_spew_str(log, "");
    snprintf(cmd, sizeof cmd,
             "new-session -d -s top -x 120 -y 50 \"exec '%s' top --interval 1 --stats '%s' --log "
             "'%s'\"",
             t_idnguard_bin(), prom, log);
    ck_assert_int_eq(tmux("%s", cmd), 0);
    server = tmux_server = server_pid();
    ck_assert_msg(server > 0, "no tmux server");
    t = pane_with("(q quits)");
    ck_assert_msg(t && strstr(t, "(q quits)") && strstr(t, ": 0 answers, 0 rejected"), "%s",
                  t ? t : "");
    free(t);
    /* A newer counters file: rates per second, from the two versions' times. */
    t_sleep_ms(1100);
    t_spew_str(
        prom, "idnguard_answers_total{class=\"ok\",action=\"pass\",path=\"resolved\"} 196\n"
              "idnguard_answers_total{class=\"confusable\",action=\"refuse\",path=\"policy\"} 3\n");
    t = pane_with("per second");
    ck_assert_msg(t && strstr(t, "per second") && strstr(t, "  ok                     pass                196"),
                  "%s", t ? t : "");
    free(t);
    /* The log grows, then is rotated: both files' lines are counted. */
    append(log, "Nov 28 06:05:00 unbound[1:1] info: idnguard: 192.0.2.7#1 xn--pypal-4ve.example. A "
                "IN REFUSED confusable:xn--pypal-4ve refuse policy ede=15\n");
    t = pane_with(": 1 answers, 1 rejected");
    ck_assert_msg(t && strstr(t, ": 1 answers, 1 rejected"), "%s", t ? t : "");
    free(t);
    path_in(old, sizeof old, "live.log.1");
    ck_assert_int_eq(rename(log, old), 0);
    t_spew_str(log,
               "Nov 28 06:05:01 unbound[1:1] info: idnguard: 192.0.2.8#2 xn--pypal-4ve.example. A "
               "IN REFUSED confusable:xn--pypal-4ve refuse policy ede=15\n");
    t = pane_with(": 2 answers, 2 rejected");
    ck_assert_msg(t && strstr(t, ": 2 answers, 2 rejected")
                      && strstr(t, "xn--pypal-4ve.example.                            2"),
                  "%s", t ? t : "");
    free(t);
    /* q quits: the session ends with it. */
    ck_assert_int_eq(tmux("send-keys -t top %s", "q"), 0);
    for (i = 0; i < 100 && tmux("has-session -t top 2>/dev/null%s", "") == 0; i++)
        t_sleep_ms(100);
    ck_assert_msg(i < 100, "idnguard top did not quit on q");
}
END_TEST

/* Without a terminal and without --once, top draws a frame every interval
 * until SIGINT or SIGTERM (the loop's _i picks which) stops it: exit 0, the
 * frames it drew complete. */
static const int stop_signals[] = {SIGINT, SIGTERM};

START_TEST(test_stops_on_signal)
{
    char prom[600], out[600];
    const char *argv[] = {t_idnguard_bin(), "top", "--stats", prom, "--interval", "1", NULL};
    pid_t pid;
    int i, st = 0, drawn = 0;
    char *o;

    path_in(prom, sizeof prom, "idnguard.prom");
    path_in(out, sizeof out, "top.out");
    t_spew_str(prom, module_prom);
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || dup2(fd, 1) < 0)
            _exit(126);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    /* The first frame, then the signal. */
    for (i = 0; i < 200 && !drawn; i++) {
        o = t_slurp(out, NULL);
        drawn = o && strstr(o, "(module, mode uts46)");
        free(o);
        if (!drawn)
            t_sleep_ms(50);
    }
    kill(pid, stop_signals[_i]);
    for (i = 0; i < 200 && waitpid(pid, &st, WNOHANG) != pid; i++)
        t_sleep_ms(50);
    if (i == 200) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
    ck_assert_msg(drawn, "idnguard top drew no frame");
    ck_assert_msg(i < 200, "idnguard top did not stop on signal %d", stop_signals[_i]);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "signal %d: wait status 0x%x",
                  stop_signals[_i], st);
}
END_TEST

static void setup(void)
{
    t_tmpdir_make(dir, sizeof dir, "idng-top");
}

static void teardown(void)
{
    /* The tmux server (and with it top, its pane's process), if it is still
     * there: TERM, then KILL after a bounded wait. */
    if (tmux_server > 0) {
        int i;
        if (kill(tmux_server, SIGTERM) == 0)
            for (i = 0; i < 50 && kill(tmux_server, 0) == 0; i++)
                t_sleep_ms(100);
        if (kill(tmux_server, 0) == 0)
            kill(tmux_server, SIGKILL);
        tmux_server = 0;
    }
    t_tmpdir_remove(dir);
}

static Suite *top_suite(void)
{
    Suite *s = suite_create("top");
    TCase *tc = tcase_create("top");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_once);
    tcase_add_test(tc, test_conf_and_tap_file);
    tcase_add_test(tc, test_usage_errors);
    tcase_add_test(tc, test_live_under_tmux);
    tcase_add_loop_test(tc, test_stops_on_signal, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(top_suite)
