/**
 * \file
 * `idnguard tap` as a process for the tap's integration suites (see
 * tap_proc.h).
 */
#include "common.h"
#include "harness.h"
#include "tap_proc.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* `idnguard tap ARGS...`, its stderr into t->err. */
pid_t tap_spawn(struct tap *t, char *const args[])
{
    char *argv[24];
    const char *bin = t_idnguard_bin();
    size_t n = 0;
    pid_t pid;

    argv[n++] = (char *)bin;
    argv[n++] = "tap";
    while (*args && n < sizeof argv / sizeof argv[0] - 1)
        argv[n++] = *args++;
    argv[n] = NULL;
    pid = harness_spawn(argv, NULL, t->err);
    ck_assert_msg(pid > 0, "cannot start %s: %s", bin, strerror(errno));
    return pid;
}

/* Waits for a child to exit, bounded; *status its wait status.  0 when it
 * exited, -1 when it had to be killed. */
int tap_reap(pid_t pid, int bound_ms, int *status)
{
    long long deadline = harness_now_ms() + bound_ms;

    while (waitpid(pid, status, WNOHANG) == 0) {
        if (harness_now_ms() >= deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, status, 0);
            return -1;
        }
        t_sleep_ms(10);
    }
    return 0;
}

/* A daemon this process started (dnsdist, a producer): SIGTERM, a bounded
 * wait.  Safe when it is not running (0). */
void tap_daemon_stop(pid_t *pid)
{
    int st;

    if (*pid > 0) {
        kill(*pid, SIGTERM);
        tap_reap(*pid, HARNESS_STOP_MS, &st);
    }
    *pid = 0;
}

/* SIGTERM, a bounded wait; the wait status.  Safe when it is not running. */
int tap_stop(struct tap *t)
{
    int st = -1;

    if (t->pid > 0 && t->owner == getpid()) {
        kill(t->pid, SIGTERM);
        tap_reap(t->pid, HARNESS_STOP_MS, &st);
    }
    t->pid = 0;
    return st;
}

/* Waits (bounded) until the tap says it listens; 0 at once when it exits
 * first. */
int tap_wait_listening(struct tap *t, char *line, size_t cap)
{
    long long deadline = harness_now_ms() + HARNESS_START_MS;
    int st;

    do {
        if (harness_wait_line(t->err, 0, "idnguard tap: listening on ", 100, line, cap))
            return 1;
        if (waitpid(t->pid, &st, WNOHANG) == t->pid) {
            t->pid = 0;
            return 0;
        }
    } while (harness_now_ms() < deadline);
    return 0;
}

/* Its own directory, the settings file, and `tap -u SOCK -w OUT --conf
 * CONF --wait 1 --stats-file STATS --stats-interval 1`, waited for
 * (bounded) until it says it listens. */
void tap_start(struct tap *t, const char *conf_text)
{
    char wait_s[16], line[LINE_CAP];

    memset(t, 0, sizeof *t);
    t_tmpdir_make(t->dir, sizeof t->dir, "idng-tap");
    snprintf(t->sock, sizeof t->sock, "%s/tap.sock", t->dir);
    snprintf(t->out, sizeof t->out, "%s/tap.log", t->dir);
    snprintf(t->err, sizeof t->err, "%s/tap.err", t->dir);
    snprintf(t->conf, sizeof t->conf, "%s/idnguard.conf", t->dir);
    snprintf(t->stats, sizeof t->stats, "%s/tap.prom", t->dir);
    t_spew_str(t->conf, conf_text);
    snprintf(wait_s, sizeof wait_s, "%d", TAP_WAIT_S);
    {
        char *args[] = {"-u",     t->sock, "-w",           t->out,   "--conf",           t->conf,
                        "--wait", wait_s,  "--stats-file", t->stats, "--stats-interval", "1",
                        NULL};
        t->owner = getpid();
        t->pid = tap_spawn(t, args);
    }
    if (!tap_wait_listening(t, line, sizeof line)) {
        char tail[2000];
        harness_tail(t->err, tail, sizeof tail);
        tap_stop(t);
        ck_abort_msg("idnguard tap -u %s did not say it listens: %s", t->sock, tail);
    }
}

void tap_cleanup(struct tap *t)
{
    tap_stop(t);
    if (t->dir[0] && t->owner == getpid()
        && !(getenv("IDNGUARD_KEEP") && atoi(getenv("IDNGUARD_KEEP"))))
        t_tmpdir_remove(t->dir);
    t->dir[0] = '\0';
}

/* The tap's line for the client port, written after offset from. */
void tap_line(const struct tap *t, long from, unsigned port, int timeout_ms, struct qline *q)
{
    char needle[40], line[LINE_CAP];

    snprintf(needle, sizeof needle, " 127.0.0.1#%u ", port);
    if (!harness_wait_line(t->out, from, needle, timeout_ms, line, sizeof line)) {
        char tail[2000];
        harness_tail(t->err, tail, sizeof tail);
        ck_abort_msg("no tap line with \"%s\" in %s within %d ms; tap's stderr: %s", needle, t->out,
                     timeout_ms, tail);
    }
    ck_assert_msg(qline_parse(line, q) == 0, "tap line does not parse: %s", line);
    line[sizeof q->raw - 1] = '\0'; /* kept for messages only */
    memcpy(q->raw, line, strlen(line) + 1);
    ck_assert_msg(q->time[0] != '\0', "tap line without its time: %s", line);
    ck_assert_msg(strcmp(q->path, "-") == 0, "tap line's path %s (expected -): %s", q->path, line);
    ck_assert_msg(q->target[0] == '\0', "tap line with a target: %s", line);
}

void tap_summary(const struct tap *t, struct tap_summary *s)
{
    size_t n;
    char *text = harness_read_file(t->err, 0, &n), *last;

    ck_assert_msg(text != NULL, "cannot read %s", t->err);
    while (n > 0 && text[n - 1] == '\n')
        text[--n] = '\0';
    last = strrchr(text, '\n');
    last = last ? last + 1 : text;
    memset(s, 0, sizeof *s);
    ck_assert_msg(sscanf(last,
                         "idnguard tap: frames=%ld messages=%ld lines=%ld unanswered=%ld "
                         "unmatched=%ld dropped=%ld malformed_frames=%ld "
                         "malformed_messages=%ld malformed_dns=%ld connections=%ld",
                         &s->frames, &s->messages, &s->lines, &s->unanswered, &s->unmatched,
                         &s->dropped, &s->mal_frames, &s->mal_messages, &s->mal_dns,
                         &s->connections)
                      == 10,
                  "no summary line last on the tap's stderr: %s", last);
    free(text);
}

/* 0 with the counts, -1 while there is no stats file yet. */
int tap_counts(const struct tap *t, struct tap_counts *c)
{
    const struct {
        const char *name;
        long long *v;
    } rows[] = {{"frames", &c->frames},
                {"messages", &c->messages},
                {"other_messages", &c->other},
                {"unanswered", &c->unanswered},
                {"unmatched", &c->unmatched},
                {"malformed_frames", &c->mal_frames},
                {"malformed_messages", &c->mal_messages},
                {"malformed_dns", &c->mal_dns},
                {"connections", &c->connections}};
    char *text = harness_read_file(t->stats, 0, NULL), key[64];
    size_t i;

    if (!text)
        return -1;
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const char *p;
        snprintf(key, sizeof key, "\nidnguard_tap_%s_total ", rows[i].name);
        p = strstr(text, key);
        *rows[i].v = p ? strtoll(p + strlen(key), NULL, 10) : -1;
    }
    free(text);
    return 0;
}

/* A loopback port that is free for both UDP and TCP now (dnsdist binds
 * both; one taken meanwhile makes it exit, and setup tries again). */
int tap_free_port(void)
{
    struct sockaddr_in sa;
    socklen_t len = sizeof sa;
    int u = socket(AF_INET, SOCK_DGRAM, 0), t = socket(AF_INET, SOCK_STREAM, 0), port = -1;

    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (u >= 0 && t >= 0 && bind(u, (struct sockaddr *)&sa, sizeof sa) == 0
        && getsockname(u, (struct sockaddr *)&sa, &len) == 0
        && bind(t, (struct sockaddr *)&sa, sizeof sa) == 0)
        port = ntohs(sa.sin_port);
    if (u >= 0)
        close(u);
    if (t >= 0)
        close(t);
    return port;
}

/* The tcase's lab and tap, stopped (a teardown). */
void tap_lab_stop(struct harness *h, struct tap *t)
{
    harness_stop(h);
    tap_cleanup(t);
}
