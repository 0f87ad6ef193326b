/**
 * \file
 * The hosts' lifecycle (conf/host.c), one open and close after
 * another as a daemon's start, reloads and stop make them: a first file
 * that does not load fails; one that loads is the first load, its warnings
 * told apart from problems (also when its log file does not open); a
 * reload whose file does not load keeps the settings of the last close and
 * counts a reload failure, and says when their log file cannot be opened
 * again; a reload that loads says what changed; a close that does not keep
 * says the counters line and keeps nothing; the stats file is written
 * with the host's label, and a problem writing it said.  One test: the
 * lifecycle's state is the process's.
 */
#include "common.h"
#include "idng_host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[512], path[600], logpath[600], statspath[600];
static char said[8192];

/* What the lifecycle said, one line each, "LEVEL: " first; "L: " for the
 * counters line. */
static void say(void *arg, int level, const char *text)
{
    size_t n = strlen(said);

    (void)arg;
    snprintf(said + n, sizeof said - n, "%d: %s\n", level, text);
}

static void stats_line(void *arg, const char *line)
{
    size_t n = strlen(said);

    (void)arg;
    snprintf(said + n, sizeof said - n, "L: %s\n", line);
}

static const char *label(void *arg)
{
    (void)arg;
    return "test-host";
}

static char changes[4096], err[8192];
static size_t warned;

/* Opens h on a settings file of text. */
static enum idng_host_load open_with(struct idng_host *h, const char *text)
{
    struct idng_host_ops ops = {0};

    ops.say = say;
    ops.stats_line = stats_line;
    ops.label = label;
    t_spew_str(path, text);
    return idng_host_open(h, path, &ops, changes, sizeof changes, err, sizeof err, &warned);
}

/* The settings in force, briefly. */
static idng_mode mode_of(struct idng_host *h)
{
    idng_mode m = idng_watch_enter(&h->watch)->conf.policy.mode;

    idng_watch_leave();
    return m;
}

static int has_logf(struct idng_host *h)
{
    int on = idng_watch_enter(&h->watch)->logf != NULL;

    idng_watch_leave();
    return on;
}

/* The line that ends h's load r, as every host writes it. */
static const char *loaded(struct idng_host *h, enum idng_host_load r)
{
    static char line[8400];
    size_t n = idng_host_loaded_line(idng_watch_enter(&h->watch), path, r, changes, ", test host",
                                     line, sizeof line);

    idng_watch_leave();
    ck_assert_uint_eq(n, strlen(line));
    return line;
}

START_TEST(test_lifecycle)
{
    struct idng_host h;
    char text[1024], *stats;
    unsigned long long failures;

    t_tmpdir_make(dir, sizeof dir, "idng-host");
    snprintf(path, sizeof path, "%s/idnguard.conf", dir);
    snprintf(logpath, sizeof logpath, "%s/queries.log", dir);
    snprintf(statspath, sizeof statspath, "%s/idnguard.prom", dir);
    idng_host_exit(0); /* nothing kept */

    /* The first start: a bad file fails, with file:line and no warning. */
    ck_assert_int_eq(open_with(&h, "idnguard:\n    mode: idna2009\n"), IDNG_HOST_FAILED);
    ck_assert_msg(strstr(err, "idnguard.conf:2: ") && warned == 0, "err: %s", err);
    /* A warning and a log file that does not open: still a failure, the
     * warning first and told apart. */
    ck_assert_int_eq(mkdir(logpath, 0755), 0);
    snprintf(text, sizeof text, "idnguard:\n    deny: 192.0.2.1\n    log-file: \"%s\"\n", logpath);
    ck_assert_int_eq(open_with(&h, text), IDNG_HOST_FAILED);
    ck_assert_msg(warned > 0 && err[warned - 1] == '\n' && strstr(err, "warning: ")
                      && strstr(err, "warning: ") < err + warned
                      && strstr(err + warned, "queries.log: log-file: "),
                  "err: %s (warned %zu)", err, warned);
    ck_assert_int_eq(rmdir(logpath), 0);

    /* The first load: its warnings are all of err. */
    ck_assert_int_eq(open_with(&h, text), IDNG_HOST_FIRST);
    ck_assert_msg(warned == strlen(err) && strstr(err, "warning: ") && !strchr(err, '\n'),
                  "err: %s", err);
    ck_assert(has_logf(&h));
    {
        char want[8400], cut[10];
        snprintf(want, sizeof want,
                 "idnguard: loaded %s (mode uts46, Unicode %s; idnguard %s, test host)", path,
                 IDNG_UNICODE_VERSION, IDNG_VERSION);
        ck_assert_str_eq(loaded(&h, IDNG_HOST_FIRST), want);
        ck_assert_str_eq(loaded(&h, IDNG_HOST_FAILED), "");
        /* Cut to the buffer, NUL ended. */
        ck_assert_uint_eq(idng_host_loaded_line(idng_watch_enter(&h.watch), path, IDNG_HOST_FIRST,
                                                changes, NULL, cut, sizeof cut),
                          sizeof cut - 1);
        idng_watch_leave();
        ck_assert_str_eq(cut, "idnguard:");
    }
    idng_host_close(&h, 1, err, sizeof err);
    ck_assert_str_eq(err, "");

    /* A reload whose file does not load: the kept settings, counted; their
     * log file, now a directory, cannot be opened again, and err says so. */
    failures = atomic_load(&idng_host_counters.reload_failures);
    ck_assert_int_eq(unlink(logpath), 0);
    ck_assert_int_eq(mkdir(logpath, 0755), 0);
    said[0] = '\0';
    ck_assert_int_eq(open_with(&h, "idnguard:\n    mode: idna2009\n"), IDNG_HOST_KEPT);
    ck_assert_msg(warned == 0 && strstr(err, "idnguard.conf:2: ") && strstr(err, "\n")
                      && strstr(strstr(err, "\n"), "queries.log: log-file: ")
                      && strstr(err, "; query lines go to unbound's log"),
                  "err: %s", err);
    ck_assert_uint_eq(atomic_load(&idng_host_counters.reload_failures), failures + 1);
    ck_assert_int_eq(mode_of(&h), IDNG_MODE_UTS46);
    {
        char want[128];
        const char *l = loaded(&h, IDNG_HOST_KEPT);
        snprintf(want, sizeof want,
                 "idnguard: reload failed (reload failures: %llu); still running with the "
                 "settings loaded at 2",
                 failures + 1);
        ck_assert_msg(strncmp(l, want, strlen(want)) == 0 && strstr(l, "Z (mode uts46)"),
                      "line: %s", l);
    }
    ck_assert(!has_logf(&h));
    idng_host_close(&h, 1, err, sizeof err);
    ck_assert_int_eq(rmdir(logpath), 0);

    /* A reload that loads: what changed from the kept settings; the stats
     * file written at the close, with the host's label. */
    snprintf(text, sizeof text,
             "idnguard:\n    mode: idna2008\n    stats-interval: 0\n"
             "    stats-file: \"%s\"\n",
             statspath);
    ck_assert_int_eq(open_with(&h, text), IDNG_HOST_RELOADED);
    ck_assert_msg(strstr(changes, "mode uts46 -> idna2008") && strstr(changes, "log-file"),
                  "changes: %s", changes);
    {
        char want[8400];
        snprintf(want, sizeof want, "idnguard: reloaded %s: %s", path, changes);
        ck_assert_str_eq(loaded(&h, IDNG_HOST_RELOADED), want);
    }
    ck_assert_str_eq(err, "");
    ck_assert_int_eq(mode_of(&h), IDNG_MODE_IDNA2008);
    idng_host_close(&h, 1, err, sizeof err);
    ck_assert_str_eq(err, "");
    stats = t_slurp(statspath, NULL);
    ck_assert_msg(stats && strstr(stats, "unbound=\"test-host\""), "stats file: %s",
                  stats ? stats : "(none)");
    free(stats);

    /* A stats file that cannot be written: said by idng_host_stats, and by
     * the close; a close that does not keep says the counters line. */
    ck_assert_int_eq(open_with(&h, text), IDNG_HOST_RELOADED);
    ck_assert_str_eq(changes, "no change");
    ck_assert_int_eq(unlink(statspath), 0);
    ck_assert_int_eq(mkdir(statspath, 0755), 0);
    ck_assert_uint_gt(idng_host_stats(&h, "now", text, sizeof text, err, sizeof err), 0);
    ck_assert_msg(strncmp(text, "idnguard stats (now): ", 22) == 0, "line: %s", text);
    ck_assert_msg(strstr(err, "stats-file: ") && strstr(err, "idnguard.prom"), "err: %s", err);
    said[0] = '\0';
    idng_host_close(&h, 0, err, sizeof err);
    ck_assert_msg(strstr(err, "stats-file: "), "err: %s", err);
    ck_assert_msg(strstr(said, "L: idnguard stats (unload): "), "said: %s", said);

    /* Nothing kept: the next open is a first one, and a bad file fails. */
    ck_assert_int_eq(open_with(&h, "idnguard:\n    mode: idna2009\n"), IDNG_HOST_FAILED);
    ck_assert_int_eq(rmdir(statspath), 0);
    idng_host_exit(0);
    t_tmpdir_remove(dir);
}
END_TEST

static Suite *host_suite(void)
{
    Suite *s = suite_create("host");
    TCase *tc = tcase_create("lifecycle");

    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_lifecycle);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(host_suite)
