/**
 * \file
 * The settings in force and the watch of their file (conf/watch.c),
 * looked at one change at a time with idng_watch_check: a file changed in
 * place, replaced by a rename, or its protect-file changed is applied (new
 * settings, a new generation); a file that does not load changes nothing
 * and says file:line and "keeping the settings in force", counted once
 * per change; an unchanged file is never read again; watch-settings: no
 * stops the looking; the log file follows the settings (kept open when
 * its path stays, opened anew when it changes, the change refused when it
 * cannot be opened); the stats timer follows stats-interval; and the
 * watch thread applies a change on its own.  The files a settings file
 * includes are watched as it is: an included file edited, a file made in
 * or removed from a pattern's directory, that directory made after the
 * start; an included file that does not load changes nothing.
 */
#include "common.h"
#include "idng_watch.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char dir[512], path[600], names[600];
static struct idng_watch w;
static atomic_ullong failures;
static atomic_int ticks;

/* What the watch said, one line each, "I: ", "W: " or "E: " first. */
static pthread_mutex_t said_lock = PTHREAD_MUTEX_INITIALIZER;
static char said[16384];

static void say(void *arg, int level, const char *text)
{
    size_t n;

    (void)arg;
    pthread_mutex_lock(&said_lock);
    n = strlen(said);
    snprintf(said + n, sizeof said - n, "%s: %s\n",
             level == IDNG_WATCH_INFO   ? "I"
             : level == IDNG_WATCH_WARN ? "W"
                                        : "E",
             text);
    pthread_mutex_unlock(&said_lock);
}

static int said_has(const char *needle)
{
    int found;

    pthread_mutex_lock(&said_lock);
    found = strstr(said, needle) != NULL;
    pthread_mutex_unlock(&said_lock);
    return found;
}

static void said_clear(void)
{
    pthread_mutex_lock(&said_lock);
    said[0] = '\0';
    pthread_mutex_unlock(&said_lock);
}

static void stats(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ticks, 1);
}

static struct idng_logfile *open_log(void *arg, const char *p, char *err, size_t errlen)
{
    (void)arg;
    return idng_logfile_open(p, NULL, err, errlen);
}

/* A new file renamed over the settings file: a new inode. */
static void put_renamed(const char *text)
{
    char tmp[700];

    snprintf(tmp, sizeof tmp, "%s.new", path);
    t_spew_str(tmp, text);
    ck_assert_int_eq(rename(tmp, path), 0);
}

/* Starts the watch on the settings of text, as the module does. */
static void start_with(const char *text)
{
    struct idng_settings *s = calloc(1, sizeof *s);
    struct idng_watch_ops ops = {0};
    char err[2048];

    ck_assert_ptr_nonnull(s);
    t_spew_str(path, text);
    idng_conf_init(&s->conf);
    ck_assert_msg(idng_conf_load(&s->conf, path, err, sizeof err) == 0, "%s", err);
    if (s->conf.log_file)
        ck_assert_ptr_nonnull(s->logf = open_log(NULL, s->conf.log_file, err, sizeof err));
    s->gen = idng_settings_gen();
    ops.open_log = open_log;
    ops.say = say;
    ops.stats = stats;
    ops.failures = &failures;
    ck_assert_int_eq(idng_watch_start(&w, s, path, &ops), 0);
}

/* The settings in force, briefly (copied out of the read section). */
static uint64_t gen_now(void)
{
    uint64_t g = idng_watch_enter(&w)->gen;

    idng_watch_leave();
    return g;
}

static idng_mode mode_now(void)
{
    idng_mode m = idng_watch_enter(&w)->conf.policy.mode;

    idng_watch_leave();
    return m;
}

/* Is name denied by the settings in force? */
static int denied(const char *name)
{
    uint8_t wire[256];
    size_t n = t_wire(name, wire);
    struct idng_verdict v;

    idng_policy_judge(&idng_watch_enter(&w)->conf.policy, wire, n, &v);
    idng_watch_leave();
    return v.listed == IDNG_LISTED_DENY;
}

/* The file's timestamps move on at least a tick of the file system's
 * clock, so that a rewrite of the same size is seen as a change. */
static void next_tick(void)
{
    struct timespec ts = {0, 20 * 1000 * 1000};

    nanosleep(&ts, NULL);
}

/* "include: PATTERN" for a file or pattern under the test's directory. */
static void include_line(char *out, size_t cap, const char *head, const char *rel)
{
    snprintf(out, cap, "idnguard:\n%s    include: \"%s/%s\"\n", head, dir, rel);
}

/* A file under the test's directory, written whole. */
static void put_at(const char *rel, const char *text)
{
    char file[800];

    snprintf(file, sizeof file, "%s/%s", dir, rel);
    t_spew_str(file, text);
}

static void mkdir_at(const char *rel)
{
    char d[800];

    snprintf(d, sizeof d, "%s/%s", dir, rel);
    ck_assert_int_eq(mkdir(d, 0700), 0);
}

static void unlink_at(const char *rel)
{
    char file[800];

    snprintf(file, sizeof file, "%s/%s", dir, rel);
    ck_assert_int_eq(unlink(file), 0);
}

static void setup(void)
{
    t_tmpdir_make(dir, sizeof dir, "idng-watch");
    snprintf(path, sizeof path, "%s/idnguard.conf", dir);
    snprintf(names, sizeof names, "%s/names.txt", dir);
    atomic_store(&failures, 0);
    atomic_store(&ticks, 0);
    said_clear();
}

static void teardown(void)
{
    idng_settings_free(idng_watch_stop(&w));
    t_tmpdir_remove(dir);
}

/* The watch started on text: looks that find nothing changed read
 * nothing (no new generation, nothing said). */
static void expect_unchanged_not_read(const char *text)
{
    uint64_t g;

    start_with(text);
    g = gen_now();
    ck_assert_int_eq(idng_watch_check(&w), 0);
    ck_assert_int_eq(idng_watch_check(&w), 0);
    ck_assert_uint_eq(gen_now(), g);
    ck_assert_msg(said[0] == '\0', "said: %s", said);
}

START_TEST(test_unchanged_is_not_read)
{
    expect_unchanged_not_read("idnguard:\n    deny: a.example\n");
}
END_TEST

/* file (the settings file, or one it includes) denying a.example under
 * uts46 is edited in place to deny b.example under idna2008: applied once,
 * a new generation, and the line names the settings file and the change. */
static void expect_edit_applied(const char *file)
{
    uint64_t g = gen_now();

    ck_assert(denied("a.example") && !denied("b.example"));
    next_tick();
    t_spew_str(file, "idnguard:\n    deny: b.example\n    mode: idna2008\n");
    ck_assert_int_eq(idng_watch_check(&w), 1);
    ck_assert(!denied("a.example") && denied("b.example"));
    ck_assert_int_eq(mode_now(), IDNG_MODE_IDNA2008);
    ck_assert_msg(gen_now() > g, "the generation did not move on");
    ck_assert_msg(said_has("I: applied ") && said_has(path) && said_has(" without a reload: ")
                      && said_has("mode uts46 -> idna2008"),
                  "said: %s", said);
    ck_assert_int_eq(idng_watch_check(&w), 0); /* and only once */
    ck_assert_uint_eq(atomic_load(&failures), 0);
}

START_TEST(test_in_place_change_applied)
{
    start_with("idnguard:\n    deny: a.example\n");
    expect_edit_applied(path);
}
END_TEST

START_TEST(test_renamed_file_applied)
{
    struct stat a, b;

    start_with("idnguard:\n");
    ck_assert_int_eq(stat(path, &a), 0);
    put_renamed("idnguard:\n    deny: c.example\n");
    ck_assert_int_eq(stat(path, &b), 0);
    ck_assert(a.st_ino != b.st_ino);
    ck_assert_int_eq(idng_watch_check(&w), 1);
    ck_assert(denied("c.example"));
    /* The new file is the one watched now, in place too. */
    next_tick();
    t_spew_str(path, "idnguard:\n    deny: d.example\n");
    ck_assert_int_eq(idng_watch_check(&w), 1);
    ck_assert(denied("d.example") && !denied("c.example"));
}
END_TEST

START_TEST(test_bad_file_keeps_settings)
{
    uint64_t g;

    start_with("idnguard:\n    deny: a.example\n");
    g = gen_now();
    put_renamed("idnguard:\n    deny: b.example\n    mode: idna2009\n");
    ck_assert_int_eq(idng_watch_check(&w), -1);
    ck_assert(denied("a.example") && !denied("b.example"));
    ck_assert_uint_eq(gen_now(), g);
    ck_assert_uint_eq(atomic_load(&failures), 1);
    ck_assert_msg(said_has("E: ") && said_has("idnguard.conf:3: bad value 'idna2009'"), "said: %s",
                  said);
    ck_assert_msg(said_has("not applied: keeping the settings in force (reload failures: 1)"),
                  "said: %s", said);
    ck_assert_msg(!said_has("I: applied"), "said: %s", said);
    /* Not read again until it changes: counted once. */
    ck_assert_int_eq(idng_watch_check(&w), 0);
    ck_assert_uint_eq(atomic_load(&failures), 1);
    /* Gone is no better. */
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(idng_watch_check(&w), -1);
    ck_assert_uint_eq(atomic_load(&failures), 2);
    ck_assert(denied("a.example"));
    /* Fixed: applied. */
    put_renamed("idnguard:\n    deny: b.example\n");
    ck_assert_int_eq(idng_watch_check(&w), 1);
    ck_assert(denied("b.example") && !denied("a.example"));
}
END_TEST

START_TEST(test_half_file_not_applied)
{
    /* What an editor's write may leave for a moment: no clause yet. */
    start_with("idnguard:\n    deny: a.example\n");
    next_tick();
    t_spew_str(path, "");
    ck_assert_int_eq(idng_watch_check(&w), -1);
    ck_assert(denied("a.example"));
    next_tick();
    t_spew_str(path, "idnguard:\n    deny: e.example\n");
    ck_assert_int_eq(idng_watch_check(&w), 1);
    ck_assert(denied("e.example") && !denied("a.example"));
}
END_TEST

START_TEST(test_protect_file_change_applied)
{
    char text[800];

    t_spew_str(names, "paypal.example\n");
    snprintf(text, sizeof text, "idnguard:\n    protect-file: \"%s\"\n", names);
    start_with(text);
    ck_assert_int_eq(idng_watch_check(&w), 0);
    next_tick();
    t_spew_str(names, "paypal.example\nbank.example\n");
    ck_assert_int_eq(idng_watch_check(&w), 1);
    {
        const struct idng_settings *s = idng_watch_enter(&w);
        size_t n = s->conf.policy.protect.names.count;

        idng_watch_leave();
        ck_assert_uint_eq(n, 2);
    }
    /* A protect-file that goes away: the settings no longer load. */
    ck_assert_int_eq(unlink(names), 0);
    ck_assert_int_eq(idng_watch_check(&w), -1);
    ck_assert_uint_eq(atomic_load(&failures), 1);
}
END_TEST

START_TEST(test_watch_settings_no)
{
    start_with("idnguard:\n");
    put_renamed("idnguard:\n    watch-settings: no\n    deny: a.example\n");
    ck_assert_int_eq(idng_watch_check(&w), 1); /* that file is still applied */
    ck_assert(denied("a.example"));
    put_renamed("idnguard:\n    deny: b.example\n");
    ck_assert_int_eq(idng_watch_check(&w), 0); /* from then on, no look */
    ck_assert(denied("a.example") && !denied("b.example"));
    ck_assert_int_eq(idng_watch_follow(&w), 0); /* no thread either */
    ck_assert(!w.watcher.running);
}
END_TEST

START_TEST(test_log_file_follows)
{
    char text[1400], one[700], two[700];
    struct idng_logfile *first, *kept;

    snprintf(one, sizeof one, "%s/one.log", dir);
    snprintf(two, sizeof two, "%s/two.log", dir);
    snprintf(text, sizeof text, "idnguard:\n    log-file: \"%s\"\n", one);
    start_with(text);
    first = idng_watch_enter(&w)->logf;
    idng_watch_leave();
    ck_assert_ptr_nonnull(first);
    /* The same path: the file stays open (the same writer). */
    snprintf(text, sizeof text, "idnguard:\n    log-file: \"%s\"\n    deny: a.example\n", one);
    put_renamed(text);
    ck_assert_int_eq(idng_watch_check(&w), 1);
    kept = idng_watch_enter(&w)->logf;
    idng_watch_leave();
    ck_assert_ptr_eq(kept, first);
    ck_assert_int_eq(idng_logfile_write(kept, "x", 1), 0);
    /* Another path: opened; lines go there. */
    snprintf(text, sizeof text, "idnguard:\n    log-file: \"%s\"\n", two);
    put_renamed(text);
    ck_assert_int_eq(idng_watch_check(&w), 1);
    {
        struct idng_logfile *lf = idng_watch_enter(&w)->logf;

        idng_watch_leave();
        ck_assert_ptr_nonnull(lf);
        ck_assert_int_eq(idng_logfile_write(lf, "y", 1), 0);
        idng_logfile_flush(lf);
    }
    {
        char *t1 = t_slurp(one, NULL), *t2 = t_slurp(two, NULL);

        ck_assert_msg(t1 && strcmp(t1, "x\n") == 0, "one.log: %s", t1 ? t1 : "(none)");
        ck_assert_msg(t2 && strcmp(t2, "y\n") == 0, "two.log: %s", t2 ? t2 : "(none)");
        free(t1);
        free(t2);
    }
    /* One that cannot be opened (a directory): the change is refused. */
    snprintf(text, sizeof text, "idnguard:\n    log-file: \"%s\"\n    deny: b.example\n", dir);
    put_renamed(text);
    ck_assert_int_eq(idng_watch_check(&w), -1);
    ck_assert(!denied("b.example"));
    ck_assert_uint_eq(atomic_load(&failures), 1);
    /* Unset: the daemon's log. */
    put_renamed("idnguard:\n");
    ck_assert_int_eq(idng_watch_check(&w), 1);
    ck_assert_ptr_null(idng_watch_enter(&w)->logf);
    idng_watch_leave();
}
END_TEST

START_TEST(test_stats_timer_follows)
{
    start_with("idnguard:\n    stats-interval: 3600\n");
    ck_assert_uint_eq(w.stats_every, 3600);
    put_renamed("idnguard:\n    stats-interval: 1\n");
    ck_assert_int_eq(idng_watch_check(&w), 1);
    ck_assert_uint_eq(w.stats_every, 1);
    {
        long long waited = 0;
        struct timespec ts = {0, 50 * 1000 * 1000};

        while (atomic_load(&ticks) == 0 && waited < 5000) {
            nanosleep(&ts, NULL);
            waited += 50;
        }
        ck_assert_msg(atomic_load(&ticks) > 0, "no stats tick at the new interval");
    }
    put_renamed("idnguard:\n    stats-interval: 0\n");
    ck_assert_int_eq(idng_watch_check(&w), 1);
    ck_assert_uint_eq(w.stats_every, 0);
    ck_assert(!w.stats.running);
}
END_TEST

/* The watch thread, on its own: a change is applied within a few looks. */
START_TEST(test_thread_applies)
{
    long long waited = 0;
    struct timespec ts = {0, 50 * 1000 * 1000};

    start_with("idnguard:\n");
    ck_assert_int_eq(idng_watch_follow(&w), 0);
    put_renamed("idnguard:\n    deny: f.example\n");
    while (!denied("f.example") && waited < 10000) {
        nanosleep(&ts, NULL);
        waited += 50;
    }
    ck_assert_msg(denied("f.example"), "not applied by the watch thread");
    ck_assert(said_has("I: applied "));
}
END_TEST

/* An included file edited in place is applied as the settings file is. */
START_TEST(test_included_file_edit_applied)
{
    char text[1400], local[800];

    put_at("local.conf", "idnguard:\n    deny: a.example\n");
    include_line(text, sizeof text, "    mode: uts46\n", "local.conf");
    start_with(text);
    ck_assert_int_eq(idng_watch_check(&w), 0);
    snprintf(local, sizeof local, "%s/local.conf", dir);
    expect_edit_applied(local);
}
END_TEST

/* A file made in a pattern's directory is applied; removed, its settings
 * go with it. */
START_TEST(test_glob_file_added_and_removed)
{
    char text[1400];

    mkdir_at("conf.d");
    put_at("conf.d/10-a.conf", "idnguard:\n    deny: a.example\n");
    include_line(text, sizeof text, "", "conf.d/*.conf");
    start_with(text);
    ck_assert(denied("a.example") && !denied("b.example"));
    ck_assert_int_eq(idng_watch_check(&w), 0);
    next_tick();
    put_at("conf.d/20-deny.conf", "idnguard:\n    deny: b.example\n");
    ck_assert_int_eq(idng_watch_check(&w), 1);
    ck_assert(denied("a.example") && denied("b.example"));
    ck_assert_msg(said_has("deny +1 (now 2)"), "said: %s", said);
    /* The new file is watched from then on, in place too. */
    next_tick();
    put_at("conf.d/20-deny.conf", "idnguard:\n    deny: c.example\n");
    ck_assert_int_eq(idng_watch_check(&w), 1);
    ck_assert(denied("c.example") && !denied("b.example"));
    next_tick();
    unlink_at("conf.d/20-deny.conf");
    ck_assert_int_eq(idng_watch_check(&w), 1);
    ck_assert(denied("a.example") && !denied("c.example"));
    ck_assert_int_eq(idng_watch_check(&w), 0);
    ck_assert_uint_eq(atomic_load(&failures), 0);
}
END_TEST

/* A pattern whose directory is missing at the start: the directory made
 * later, with a file in it, is applied. */
START_TEST(test_glob_dir_made_later)
{
    char text[1400];

    include_line(text, sizeof text, "", "later.d/*.conf");
    start_with(text);
    ck_assert_int_eq(idng_watch_check(&w), 0);
    mkdir_at("later.d");
    put_at("later.d/local.conf", "idnguard:\n    deny: a.example\n");
    ck_assert_int_eq(idng_watch_check(&w), 1);
    ck_assert(denied("a.example"));
    ck_assert_int_eq(idng_watch_check(&w), 0);
}
END_TEST

/* An included file that does not load changes nothing, is counted once,
 * and is tried again once it changes; so is a bad file new in a pattern's
 * directory, fixed in place. */
START_TEST(test_included_file_invalid_kept)
{
    char text[1400];
    uint64_t g;

    mkdir_at("conf.d");
    put_at("local.conf", "idnguard:\n    deny: a.example\n");
    include_line(text, sizeof text, "", "local.conf");
    snprintf(text + strlen(text), sizeof text - strlen(text), "    include: \"%s/conf.d/*\"\n",
             dir);
    start_with(text);
    g = gen_now();
    next_tick();
    put_at("local.conf", "idnguard:\n    deny: b.example\n    mode: idna2009\n");
    ck_assert_int_eq(idng_watch_check(&w), -1);
    ck_assert(denied("a.example") && !denied("b.example"));
    ck_assert_uint_eq(gen_now(), g);
    ck_assert_uint_eq(atomic_load(&failures), 1);
    ck_assert_msg(said_has("local.conf:3: bad value 'idna2009'")
                      && said_has("not applied: keeping the settings in force"),
                  "said: %s", said);
    ck_assert_int_eq(idng_watch_check(&w), 0); /* counted once */
    ck_assert_uint_eq(atomic_load(&failures), 1);
    next_tick();
    put_at("local.conf", "idnguard:\n    deny: b.example\n");
    ck_assert_int_eq(idng_watch_check(&w), 1);
    ck_assert(denied("b.example") && !denied("a.example"));
    /* A new file that does not load, then fixed where it is. */
    next_tick();
    put_at("conf.d/bad.conf", "idnguard:\n    deny: c.example\n    ede: maybe\n");
    ck_assert_int_eq(idng_watch_check(&w), -1);
    ck_assert_uint_eq(atomic_load(&failures), 2);
    ck_assert(!denied("c.example"));
    ck_assert_int_eq(idng_watch_check(&w), 0);
    next_tick();
    put_at("conf.d/bad.conf", "idnguard:\n    deny: c.example\n");
    ck_assert_int_eq(idng_watch_check(&w), 1);
    ck_assert(denied("c.example") && denied("b.example"));
}
END_TEST

/* Included files and a pattern's directory unchanged: nothing read again. */
START_TEST(test_unchanged_includes_not_read)
{
    char text[1400];

    mkdir_at("conf.d");
    put_at("local.conf", "idnguard:\n    deny: a.example\n");
    put_at("conf.d/x.conf", "idnguard:\n    deny: b.example\n");
    include_line(text, sizeof text, "", "local.conf");
    snprintf(text + strlen(text), sizeof text - strlen(text),
             "    include: \"%s/conf.d/*.conf\"\n    include: \"%s/none.d/*.conf\"\n", dir, dir);
    expect_unchanged_not_read(text);
}
END_TEST

/* What changes the directory but no setting (an editor's swap file beside
 * a local file, the settings file written again as it was) is read, but
 * nothing is applied: no new generation, so the verdicts remembered stay
 * and the module expires nothing from the cache, and no line is said.
 * After a file that did not load, the same settings back do say so. */
START_TEST(test_same_settings_not_applied)
{
    char text[1400];
    uint64_t g;

    mkdir_at("conf.d");
    put_at("conf.d/10-a.conf", "idnguard:\n    deny: a.example\n");
    include_line(text, sizeof text, "", "conf.d/*.conf");
    start_with(text);
    g = gen_now();
    next_tick();
    put_at("conf.d/.10-a.conf.swp", "not settings");
    ck_assert_int_eq(idng_watch_check(&w), 0);
    ck_assert_uint_eq(gen_now(), g);
    ck_assert_msg(said[0] == '\0', "said: %s", said);
    next_tick();
    put_renamed(text);
    ck_assert_int_eq(idng_watch_check(&w), 0);
    ck_assert_uint_eq(gen_now(), g);
    ck_assert_msg(said[0] == '\0', "said: %s", said);
    ck_assert_int_eq(idng_watch_check(&w), 0); /* and the new look is the baseline */
    /* Broken, then back as it was: the recovery is said, nothing applied. */
    next_tick();
    put_at("conf.d/10-a.conf", "idnguard:\n    deny: a.example\n    ede: maybe\n");
    ck_assert_int_eq(idng_watch_check(&w), -1);
    said_clear();
    next_tick();
    put_at("conf.d/10-a.conf", "idnguard:\n    deny: a.example\n");
    ck_assert_int_eq(idng_watch_check(&w), 0);
    ck_assert_uint_eq(gen_now(), g);
    ck_assert_msg(said_has("I: ") && said_has("loads again; the settings in force are unchanged"),
                  "said: %s", said);
    ck_assert(denied("a.example"));
}
END_TEST

static Suite *watch_suite(void)
{
    Suite *s = suite_create("watch");
    TCase *tc = tcase_create("watch");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_unchanged_is_not_read);
    tcase_add_test(tc, test_in_place_change_applied);
    tcase_add_test(tc, test_renamed_file_applied);
    tcase_add_test(tc, test_bad_file_keeps_settings);
    tcase_add_test(tc, test_half_file_not_applied);
    tcase_add_test(tc, test_protect_file_change_applied);
    tcase_add_test(tc, test_watch_settings_no);
    tcase_add_test(tc, test_log_file_follows);
    tcase_add_test(tc, test_stats_timer_follows);
    tcase_add_test(tc, test_thread_applies);
    tcase_add_test(tc, test_included_file_edit_applied);
    tcase_add_test(tc, test_glob_file_added_and_removed);
    tcase_add_test(tc, test_glob_dir_made_later);
    tcase_add_test(tc, test_included_file_invalid_kept);
    tcase_add_test(tc, test_unchanged_includes_not_read);
    tcase_add_test(tc, test_same_settings_not_applied);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(watch_suite)
