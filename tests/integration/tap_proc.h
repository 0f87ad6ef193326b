/**
 * \file
 * `idnguard tap` as a process for the tap's integration suites
 * (test_tap.c, test_tap_dnsdist.c): started on a socket of its own with a
 * settings file, its lines, summary and stats file read back, stopped.
 */
#ifndef IDNG_TESTS_INTEGRATION_TAP_PROC_H
#define IDNG_TESTS_INTEGRATION_TAP_PROC_H

#include "harness.h"

#include <stddef.h>
#include <sys/types.h>

/** The tap's --wait in these tests: how long a query waits for its response. */
#define TAP_WAIT_S 1
#define LINE_CAP 8192

struct tap {
    char dir[HARNESS_PATH_MAX];
    char sock[HARNESS_PATH_MAX + 16], out[HARNESS_PATH_MAX + 16], err[HARNESS_PATH_MAX + 16],
        conf[HARNESS_PATH_MAX + 16], stats[HARNESS_PATH_MAX + 16];
    pid_t pid, owner;
};

/* The summary line, last on the tap's stderr: its counts. */
struct tap_summary {
    long frames, messages, lines, unanswered, unmatched, dropped, mal_frames, mal_messages, mal_dns,
        connections;
};

/* The counters of the tap's stats file, one snapshot (it is written
 * whole, once a second); -1 for a counter not there. */
struct tap_counts {
    long long frames, messages, other, unanswered, unmatched, mal_frames, mal_messages, mal_dns,
        connections;
};

/* `idnguard tap ARGS...`, its stderr into t->err. */
pid_t tap_spawn(struct tap *t, char *const args[]);

/* Waits for a child to exit, bounded; *status its wait status.  0 when it
 * exited, -1 when it had to be killed. */
int tap_reap(pid_t pid, int bound_ms, int *status);

/* A daemon this process started (dnsdist, a producer): SIGTERM, a bounded
 * wait.  Safe when it is not running (0). */
void tap_daemon_stop(pid_t *pid);

/* SIGTERM, a bounded wait; the wait status.  Safe when it is not running. */
int tap_stop(struct tap *t);

/* Waits (bounded) until the tap says it listens; 0 at once when it exits
 * first. */
int tap_wait_listening(struct tap *t, char *line, size_t cap);

/* Its own directory, the settings file, and `tap -u SOCK -w OUT --conf
 * CONF --wait 1 --stats-file STATS --stats-interval 1`, waited for
 * (bounded) until it says it listens. */
void tap_start(struct tap *t, const char *conf_text);

/* Stops the tap and, in the process that made it, removes its directory
 * (IDNGUARD_KEEP keeps it). */
void tap_cleanup(struct tap *t);

/* The tap's line for the client port, written after offset from. */
void tap_line(const struct tap *t, long from, unsigned port, int timeout_ms, struct qline *q);

/* The counts of the summary line (the tap stopped). */
void tap_summary(const struct tap *t, struct tap_summary *s);

/* 0 with the counts, -1 while there is no stats file yet. */
int tap_counts(const struct tap *t, struct tap_counts *c);

/* A loopback port that is free for both UDP and TCP now (dnsdist binds
 * both; one taken meanwhile makes it exit, and setup tries again). */
int tap_free_port(void);

/* The tcase's lab and tap, stopped (a teardown). */
void tap_lab_stop(struct harness *h, struct tap *t);

#endif
