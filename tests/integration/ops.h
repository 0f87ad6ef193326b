/**
 * \file
 * What the suites operating the module (test_ops*.c) share: the daemon
 * pair of the running tcase and its teardown, and a reload with a changed
 * settings file.  Static: each suite has its own; inline, so a suite that
 * uses no reload still compiles.
 */
#ifndef IDNG_TESTS_INTEGRATION_OPS_H
#define IDNG_TESTS_INTEGRATION_OPS_H

#include "harness.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

static struct harness H;

static inline void teardown(void)
{
    harness_stop(&H);
}

/* The tests of reloads (SIGHUP) change the file and then reload: the
 * module must not apply the file on its own first (watch-settings, tested
 * in the watch tcase). */
#define NO_WATCH "    watch-settings: no\n"

/* Does line end in "idnguard: reloaded <settings file>: <changes>"? */
static inline int reload_line_says(const char *line, const char *changes)
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
static inline void reload_with(const char *conf, char *line, size_t cap)
{
    long from = harness_file_size(H.ub_log);

    ck_assert_int_eq(harness_write_conf(&H, conf), 0);
    ck_assert_int_eq(harness_sighup(&H), 0);
    ck_assert_msg(harness_wait_line(H.ub_log, from, HARNESS_RELOADED, HARNESS_START_MS, line, cap),
                  "no \"%s\" line after SIGHUP", HARNESS_RELOADED);
    ck_assert_msg(harness_count_lines(H.ub_log, 0, HARNESS_SHUTDOWN_STATS) == 0,
                  "a reload logged \"%s\"", HARNESS_SHUTDOWN_STATS);
}

#endif
