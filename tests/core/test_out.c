/**
 * \file
 * Where lines and counters go (core/out.c): the buffered log file
 * (whole lines, in order, nothing lost at close, flushed by its timer,
 * bounded when the disk stalls, rotation followed, errors counted), the
 * atomic file replacement and the timer thread.  Waits are polls with a
 * bound; nothing asserts how fast anything is.
 */
#include "common.h"
#include "idng_out.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define POLL_MS 5000

static char dir[512];

static void setup(void) { t_tmpdir_make(dir, sizeof dir, "idng-out"); }
static void teardown(void) { t_tmpdir_remove(dir); }

static void path_in(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", dir, name);
}

/* Waits (bounded) until the file holds needle; returns whether it did. */
static int wait_for(const char *path, const char *needle)
{
    unsigned waited;

    for (waited = 0; waited < POLL_MS; waited += 20) {
        char *s = t_slurp(path, NULL);
        int found = s && strstr(s, needle);
        free(s);
        if (found)
            return 1;
        t_sleep_ms(20);
    }
    return 0;
}

static int put(struct idng_logfile *lf, const char *s)
{
    return idng_logfile_write(lf, s, strlen(s));
}

START_TEST(test_lines_in_order_and_close_loses_nothing)
{
    char path[600], line[64], *s;
    struct idng_logfile *lf;
    char err[256];
    unsigned i;
    size_t len;

    path_in(path, sizeof path, "q.log");
    /* A long flush interval: only the full buffers and close write. */
    struct idng_logfile_opts o = {.buffer = 4096, .flush_ms = 60000};
    lf = idng_logfile_open(path, &o, err, sizeof err);
    ck_assert_msg(lf != NULL, "%s", err);
    for (i = 0; i < 2000; i++) {
        snprintf(line, sizeof line, "line %u", i);
        /* The writer drains a full buffer before the next fills up, unless
         * the machine stalls it: then the line is dropped and counted. */
        while (put(lf, line) != 0)
            t_sleep_ms(1);
    }
    idng_logfile_close(lf);
    s = t_slurp(path, &len);
    ck_assert_ptr_nonnull(s);
    {
        const char *p = s;
        for (i = 0; i < 2000; i++) {
            snprintf(line, sizeof line, "line %u\n", i);
            ck_assert_msg(strncmp(p, line, strlen(line)) == 0, "line %u out of place", i);
            p += strlen(line);
        }
        ck_assert_str_eq(p, "");
    }
    free(s);
}
END_TEST

START_TEST(test_timer_flushes_without_close)
{
    char path[600], err[256];
    struct idng_logfile_opts o = {.flush_ms = 100};
    struct idng_logfile *lf;

    path_in(path, sizeof path, "t.log");
    lf = idng_logfile_open(path, &o, err, sizeof err);
    ck_assert_msg(lf != NULL, "%s", err);
    ck_assert_int_eq(put(lf, "by the timer"), 0);
    ck_assert_msg(wait_for(path, "by the timer\n"), "the line was not written by the timer");
    ck_assert_int_eq(put(lf, "by flush"), 0);
    idng_logfile_flush(lf);
    {
        char *s = t_slurp(path, NULL);
        ck_assert_str_eq(s, "by the timer\nby flush\n");
        free(s);
    }
    idng_logfile_close(lf);
}
END_TEST

static int drain_fd;
static char drain_buf[1 << 20];
static size_t drained;

static void *drain(void *arg)
{
    ssize_t n;

    (void)arg;
    while (drained < sizeof drain_buf
           && (n = read(drain_fd, drain_buf + drained, sizeof drain_buf - drained)) > 0)
        drained += (size_t)n;
    return NULL;
}

/* How many "<NNNN....>" lines s holds, asserting that they are whole,
 * each once, in increasing order. */
static int numbered_lines(const char *s)
{
    const char *p = s;
    int lines = 0, last = -1, v;

    while (*p) {
        ck_assert_msg(sscanf(p, "<%4d........................>\n", &v) == 1,
                      "a split line at offset %zu", (size_t)(p - s));
        ck_assert_int_gt(v, last);
        last = v;
        ck_assert_int_eq(p[30], '\n');
        p += 31;
        lines++;
    }
    return lines;
}

/* A descriptor nobody drains: the writer blocks in write(2), both buffers
 * fill, and further lines are dropped and counted; memory stays at two
 * buffers.  Once drained, what comes out is whole lines only. */
START_TEST(test_stalled_output_drops_and_counts)
{
    struct idng_logfile_opts o = {.buffer = 256, .flush_ms = 0};
    struct idng_logfile *lf;
    char err[256], line[64];
    static char buf[1 << 20];
    int fds[2], dropped = 0, queued = 0, i;
    size_t got;

    ck_assert_int_eq(pipe(fds), 0);
    lf = idng_logfile_fdopen(fds[1], &o, err, sizeof err);
    ck_assert_msg(lf != NULL, "%s", err);
    for (i = 0; i < 5000; i++) {
        snprintf(line, sizeof line, "<%04d........................>", i);
        if (put(lf, line) == 0)
            queued++;
        else
            dropped++;
    }
    ck_assert_int_gt(dropped, 0);
    ck_assert_uint_eq(idng_logfile_dropped(lf), (unsigned long long)dropped);
    /* A line longer than a buffer is dropped too. */
    memset(buf, 'x', 300);
    ck_assert_int_eq(idng_logfile_write(lf, buf, 300), -1);
    ck_assert_uint_eq(idng_logfile_dropped(lf), (unsigned long long)dropped + 1);
    /* Drain while closing: close waits for the writer, which the reader
     * thread unblocks; the descriptor closes with the log file. */
    {
        pthread_t reader;
        drain_fd = fds[0];
        ck_assert_int_eq(pthread_create(&reader, NULL, drain, NULL), 0);
        idng_logfile_close(lf);
        pthread_join(reader, NULL);
        got = drained;
        memcpy(buf, drain_buf, got);
    }
    close(fds[0]);
    buf[got] = '\0';
    ck_assert_int_eq(numbered_lines(buf), queued);
}
END_TEST

static void *drain_later(void *arg)
{
    t_sleep_ms(200); /* the writer blocks on the full pipe meanwhile */
    return drain(arg);
}

/* The same stalled descriptor with wait set (idnguard tap -r): each write
 * waits for a free buffer, nothing is dropped, every line comes out once
 * and in order.  A line longer than a buffer is still dropped: waiting
 * would never make room for it. */
START_TEST(test_waiting_writer_loses_nothing)
{
    struct idng_logfile_opts o = {.buffer = 256, .flush_ms = 0, .wait = 1};
    struct idng_logfile *lf;
    char err[256], line[64], big[300];
    int fds[2], i;
    pthread_t reader;

    ck_assert_int_eq(pipe(fds), 0);
    lf = idng_logfile_fdopen(fds[1], &o, err, sizeof err);
    ck_assert_msg(lf != NULL, "%s", err);
    drained = 0;
    drain_fd = fds[0];
    ck_assert_int_eq(pthread_create(&reader, NULL, drain_later, NULL), 0);
    for (i = 0; i < 5000; i++) {
        snprintf(line, sizeof line, "<%04d........................>", i);
        ck_assert_int_eq(put(lf, line), 0);
    }
    memset(big, 'x', sizeof big);
    ck_assert_int_eq(idng_logfile_write(lf, big, sizeof big), -1);
    ck_assert_uint_eq(idng_logfile_dropped(lf), 1);
    idng_logfile_close(lf);
    pthread_join(reader, NULL);
    close(fds[0]);
    ck_assert_uint_lt(drained, sizeof drain_buf);
    drain_buf[drained] = '\0';
    ck_assert_int_eq(numbered_lines(drain_buf), 5000);
}
END_TEST

START_TEST(test_rotation_is_followed)
{
    char path[600], moved[600], err[256];
    struct idng_logfile_opts o = {.flush_ms = 0};
    struct idng_logfile *lf;
    unsigned waited;
    int found = 0;

    path_in(path, sizeof path, "r.log");
    path_in(moved, sizeof moved, "r.log.1");
    lf = idng_logfile_open(path, &o, err, sizeof err);
    ck_assert_msg(lf != NULL, "%s", err);
    put(lf, "before");
    idng_logfile_flush(lf);
    ck_assert_int_eq(rename(path, moved), 0);
    /* The path is looked at once a second: lines go on until the new file
     * appears. */
    for (waited = 0; waited < POLL_MS && !found; waited += 50) {
        char *s;
        put(lf, "after");
        idng_logfile_flush(lf);
        s = t_slurp(path, NULL);
        found = s && strstr(s, "after\n") != NULL;
        free(s);
        t_sleep_ms(50);
    }
    ck_assert_msg(found, "the rotated log was not opened anew");
    idng_logfile_close(lf);
    {
        char *s = t_slurp(moved, NULL);
        ck_assert_ptr_nonnull(s);
        ck_assert(strncmp(s, "before\n", 7) == 0);
        free(s);
    }
}
END_TEST

START_TEST(test_refused_and_failing_files)
{
    char path[600], err[700];
    struct idng_logfile *lf;
    atomic_ullong ext = 0;
    struct idng_logfile_opts o = {.flush_ms = 0, .errors = &ext};

    /* A FIFO would block the writer: refused by path, naming it. */
    path_in(path, sizeof path, "fifo");
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    ck_assert_ptr_null(idng_logfile_open(path, NULL, err, sizeof err));
    ck_assert_msg(strstr(err, path) && strstr(err, "not a regular file"), "%s", err);
    /* A directory that is not there. */
    path_in(path, sizeof path, "missing/q.log");
    ck_assert_ptr_null(idng_logfile_open(path, NULL, err, sizeof err));
    ck_assert_msg(strstr(err, path) && strstr(err, "No such file"), "%s", err);
    /* Write errors (a full disk) lose the lines and count them. */
    {
        int fd = open("/dev/full", O_WRONLY);
        ck_assert_int_ge(fd, 0);
        lf = idng_logfile_fdopen(fd, &o, err, sizeof err);
        ck_assert_ptr_nonnull(lf);
        put(lf, "one");
        put(lf, "two");
        idng_logfile_flush(lf);
        ck_assert_uint_eq(idng_logfile_errors(lf), 2);
        ck_assert_uint_eq(atomic_load(&ext), 2);
        ck_assert_uint_eq(idng_logfile_dropped(lf), 0);
        idng_logfile_close(lf);
    }
    idng_logfile_close(NULL);
}
END_TEST

/* Several threads at once: every line whole, each exactly once. */
#define WRITERS 4
#define PER_WRITER 20000
static struct idng_logfile *shared_lf;

static void *writer(void *arg)
{
    unsigned id = (unsigned)(size_t)arg, i;
    char line[64];

    for (i = 0; i < PER_WRITER; i++) {
        snprintf(line, sizeof line, "w%u %05u %s", id, i, "padding-padding-padding");
        while (idng_logfile_write(shared_lf, line, strlen(line)) != 0)
            t_sleep_ms(1);
    }
    return NULL;
}

/* A file size limit cuts a write inside a line; once there is room again
 * the next lines start on a line of their own, never glued to the cut one. */
START_TEST(test_cut_line_is_not_glued)
{
    char path[600], *s, *p;
    pid_t pid;
    int st;

    path_in(path, sizeof path, "cut.log");
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct idng_logfile_opts o = {.flush_ms = 0};
        struct rlimit rl;
        struct idng_logfile *lf;
        char err[256], line[64];
        int i;

        signal(SIGXFSZ, SIG_IGN);
        getrlimit(RLIMIT_FSIZE, &rl);
        rl.rlim_cur = 100;
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0 || !(lf = idng_logfile_open(path, &o, err, sizeof err)))
            _exit(10);
        for (i = 0; i < 10; i++) {
            snprintf(line, sizeof line, "before-%02d-padding-padding", i); /* 25 octets */
            idng_logfile_write(lf, line, strlen(line));
        }
        idng_logfile_flush(lf);
        if (idng_logfile_errors(lf) == 0)
            _exit(11);
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_FSIZE, &rl);
        idng_logfile_write(lf, "after-1", 7);
        idng_logfile_write(lf, "after-2", 7);
        idng_logfile_close(lf);
        _exit(0);
    }
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %d", st);
    s = t_slurp(path, NULL);
    ck_assert_ptr_nonnull(s);
    /* Whole lines, then at most one cut line, then the two after. */
    p = strstr(s, "after-1\nafter-2\n");
    ck_assert_msg(p != NULL && p[16] == '\0', "%s", s);
    ck_assert_msg(p == s || p[-1] == '\n', "a line glued to the cut one: %s", s);
    ck_assert_msg(strncmp(s, "before-00-padding-padding\nbefore-01-padding-padding\n", 52) == 0,
                  "%s", s);
    free(s);
}
END_TEST

START_TEST(test_concurrent_writers)
{
    char path[600], err[256], *s, *p;
    struct idng_logfile_opts o = {.buffer = 8192, .flush_ms = 10};
    pthread_t t[WRITERS];
    unsigned next[WRITERS] = {0}, id, seq, i;

    path_in(path, sizeof path, "c.log");
    shared_lf = idng_logfile_open(path, &o, err, sizeof err);
    ck_assert_msg(shared_lf != NULL, "%s", err);
    for (i = 0; i < WRITERS; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, writer, (void *)(size_t)i), 0);
    for (i = 0; i < WRITERS; i++)
        pthread_join(t[i], NULL);
    idng_logfile_close(shared_lf);
    s = t_slurp(path, NULL);
    ck_assert_ptr_nonnull(s);
    for (p = s; *p;) {
        char *nl = strchr(p, '\n');
        ck_assert_ptr_nonnull(nl);
        *nl = '\0';
        REQUIRE(sscanf(p, "w%u %5u padding-padding-padding", &id, &seq) == 2 && id < WRITERS
                    && strlen(p) == 32,
                "a torn line: %s", p);
        REQUIRE(seq == next[id], "writer %u: line %u where %u was due", id, seq, next[id]);
        next[id]++;
        p = nl + 1;
    }
    for (i = 0; i < WRITERS; i++)
        ck_assert_uint_eq(next[i], PER_WRITER);
    free(s);
}
END_TEST

START_TEST(test_file_replace)
{
    char path[600], err[700], *s;

    path_in(path, sizeof path, "stats.prom");
    ck_assert_int_eq(idng_file_replace(path, BYTES("first\n"), err, sizeof err), 0);
    ck_assert_int_eq(idng_file_replace(path, BYTES("second\n"), err, sizeof err), 0);
    s = t_slurp(path, NULL);
    ck_assert_str_eq(s, "second\n");
    free(s);
    /* Readable by a collector; no temporary file left behind. */
    {
        struct stat st;
        DIR *d = opendir(dir);
        struct dirent *e;
        int n = 0;
        ck_assert_int_eq(stat(path, &st), 0);
        ck_assert_uint_eq(st.st_mode & 0777, 0644);
        ck_assert_ptr_nonnull(d);
        while ((e = readdir(d)) != NULL)
            n += e->d_name[0] != '.';
        closedir(d);
        ck_assert_int_eq(n, 1);
    }
    /* A link planted where a fixed temporary name would be is not followed. */
    {
        char link[700], victim[600];
        path_in(victim, sizeof victim, "victim");
        snprintf(link, sizeof link, "%s.tmp", path);
        ck_assert_int_eq(symlink(victim, link), 0);
        ck_assert_int_eq(idng_file_replace(path, BYTES("third\n"), err, sizeof err), 0);
        ck_assert_int_ne(access(victim, F_OK), 0);
        unlink(link);
    }
    path_in(path, sizeof path, "missing/stats.prom");
    ck_assert_int_eq(idng_file_replace(path, BYTES("x"), err, sizeof err), -1);
    ck_assert_msg(strstr(err, path) && strstr(err, "No such file"), "%s", err);
}
END_TEST

/* A line written as Unbound writes its own, once its logging is gone:
 * appended to the file, in Unbound's two shapes, the chroot taken off the
 * front of the path as Unbound does; a file that cannot be opened is an
 * error. */
START_TEST(test_daemon_log_line)
{
    struct idng_daemon_log d = {0};
    char path[600], chrooted[1200], want[128], *s, *second;
    unsigned sec;
    int pid = (int)getpid(), n;

    path_in(path, sizeof path, "unbound.log");
    idng_daemon_log_set(&d, path, NULL, NULL, 0, 0);
    ck_assert_int_eq(idng_daemon_log_line(&d, "idnguard stats (shutdown): ok/pass=1"), 0);
    /* As the daemon's settings name it with chroot: dir, the file is
     * dir + path; inside the chroot it is path. */
    snprintf(chrooted, sizeof chrooted, "%s%s", dir, path);
    idng_daemon_log_set(&d, chrooted, dir, "resolver", 0, 1);
    ck_assert_int_eq(idng_daemon_log_line(&d, "second"), 0);
    s = t_slurp(path, NULL);
    ck_assert_ptr_nonnull(s);
    snprintf(want, sizeof want, "] unbound[%d:0] info: idnguard stats (shutdown): ok/pass=1\n",
             pid);
    ck_assert_msg(sscanf(s, "[%u%n", &sec, &n) == 1 && strncmp(s + n, want, strlen(want)) == 0,
                  "epoch shape: %s", s);
    second = s + n + strlen(want);
    snprintf(want, sizeof want, " resolver[%d:0] info: second\n", pid);
    /* "Nov 28 06:18:54" */
    ck_assert_msg(strlen(second) == 15 + strlen(want) && strcmp(second + 15, want) == 0
                      && second[3] == ' ' && second[9] == ':' && second[12] == ':',
                  "ascii time shape: %s", second);
    free(s);
    idng_daemon_log_set(&d, "/nonexistent-dir/unbound.log", NULL, NULL, 0, 0);
    ck_assert_int_eq(idng_daemon_log_line(&d, "lost"), -1);
    idng_daemon_log_free(&d);
    ck_assert_ptr_null(d.file);
}
END_TEST

static atomic_uint ticks;
static void tick(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ticks, 1);
}

START_TEST(test_ticker)
{
    struct idng_ticker t;
    unsigned waited;

    ck_assert_int_eq(idng_ticker_start(&t, 0, tick, NULL), -1);
    idng_ticker_stop(&t); /* never started: nothing to do */
    ck_assert_int_eq(idng_ticker_start(&t, 1, tick, NULL), 0);
    for (waited = 0; waited < POLL_MS && atomic_load(&ticks) == 0; waited += 20)
        t_sleep_ms(20);
    ck_assert_uint_ge(atomic_load(&ticks), 1);
    idng_ticker_stop(&t);
    ck_assert_int_eq(t.running, 0);
    idng_ticker_stop(&t);
}
END_TEST

/* The one spelling of what a file that is not regular is. */
START_TEST(test_file_kind)
{
    struct stat st;
    char fifo[600];

    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    ck_assert_int_eq(stat(fifo, &st), 0);
    ck_assert_str_eq(idng_file_kind((unsigned)st.st_mode), "a FIFO");
    ck_assert_int_eq(stat(dir, &st), 0);
    ck_assert_str_eq(idng_file_kind((unsigned)st.st_mode), "a directory");
    ck_assert_int_eq(stat("/dev/null", &st), 0);
    ck_assert_str_eq(idng_file_kind((unsigned)st.st_mode), "a character device");
    ck_assert_str_eq(idng_file_kind(S_IFREG | 0644), "a regular file");
    ck_assert_str_eq(idng_file_kind(S_IFSOCK), "a socket");
    ck_assert_str_eq(idng_file_kind(S_IFBLK), "a block device");
    ck_assert_str_eq(idng_file_kind(0), "a special file");
}
END_TEST

static Suite *out_suite(void)
{
    Suite *s = suite_create("out");
    TCase *tc = tcase_create("logfile");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_lines_in_order_and_close_loses_nothing);
    tcase_add_test(tc, test_timer_flushes_without_close);
    tcase_add_test(tc, test_stalled_output_drops_and_counts);
    tcase_add_test(tc, test_waiting_writer_loses_nothing);
    tcase_add_test(tc, test_rotation_is_followed);
    tcase_add_test(tc, test_refused_and_failing_files);
    tcase_add_test(tc, test_file_kind);
    tcase_add_test(tc, test_cut_line_is_not_glued);
    tcase_add_test(tc, test_concurrent_writers);
    tcase_add_test(tc, test_file_replace);
    tcase_add_test(tc, test_ticker);
    tcase_add_test(tc, test_daemon_log_line);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(out_suite)
