/**
 * \file
 * `idnguard tap -u SOCKET` as a process (IDNGUARD_BIN), with writers on the
 * Unix socket speaking the bidirectional Frame Streams handshake as
 * Unbound's and BIND's dnstap do: several writers at once, a writer that
 * reconnects, a writer that breaks the handshake, every slot held by
 * silent writers and a second reader, output that stalls (lines dropped and
 * counted, memory bounded); stopped by SIGTERM.
 */
#include "tap_run.h"

#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- the socket ---- */

struct tap_proc {
    pid_t pid;
    char sock[600], out[600], err[600];
};

static void tap_start(struct tap_proc *t, const char *out_path, const char *extra)
{
    unsigned waited;
    struct stat st;

    path_in(t->sock, sizeof t->sock, "tap.sock");
    path_in(t->err, sizeof t->err, "tap.err");
    snprintf(t->out, sizeof t->out, "%s", out_path ? out_path : "");
    t->pid = fork();
    ck_assert_int_ge(t->pid, 0);
    if (t->pid == 0) {
        const char *argv[10];
        int n = 0, e = open(t->err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (e < 0 || dup2(e, 2) < 0)
            _exit(126);
        argv[n++] = t_idnguard_bin();
        argv[n++] = "tap";
        argv[n++] = "-u";
        argv[n++] = t->sock;
        if (out_path) {
            argv[n++] = "-w";
            argv[n++] = out_path;
        }
        if (extra)
            argv[n++] = extra;
        argv[n] = NULL;
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    running_tap = t->pid;
    /* Ready once it says so: the socket file appears at bind, a moment
     * before listen, when a connect is still refused. */
    for (waited = 0; waited < POLL_MS; waited += 10) {
        char *e = t_slurp(t->err, NULL);
        int ready = e && strstr(e, "idnguard tap: listening on ");
        free(e);
        if (ready && stat(t->sock, &st) == 0 && S_ISSOCK(st.st_mode))
            return;
        t_sleep_ms(10);
    }
    ck_abort_msg("idnguard tap did not listen on %s", t->sock);
}

/* Signal sig, bounded wait; returns the exit status and its stderr. */
static int tap_stop_by(struct tap_proc *t, int sig, char **err)
{
    unsigned waited;
    int st;

    kill(t->pid, sig);
    for (waited = 0; waited < POLL_MS; waited += 10) {
        if (waitpid(t->pid, &st, WNOHANG) == t->pid) {
            running_tap = 0;
            *err = t_slurp(t->err, NULL);
            return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
        }
        t_sleep_ms(10);
    }
    ck_abort_msg("idnguard tap did not stop on signal %d", sig); /* teardown kills it */
    return -1;
}

/* SIGTERM, bounded wait; returns the exit status and its stderr. */
static int tap_stop(struct tap_proc *t, char **err)
{
    return tap_stop_by(t, SIGTERM, err);
}

static int connect_to(const char *path)
{
    struct sockaddr_un sa;
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);

    ck_assert_int_ge(fd, 0);
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
    ck_assert_msg(connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0, "connect %s: %s", path,
                  strerror(errno));
    return fd;
}

static void send_all(int fd, const void *p, size_t n)
{
    const uint8_t *b = p;
    while (n > 0) {
        ssize_t w = send(fd, b, n, MSG_NOSIGNAL);
        ck_assert_msg(w > 0, "send: %s", strerror(errno));
        b += w;
        n -= (size_t)w;
    }
}

/* Reads one control frame; returns its type (0 on EOF or garbage). */
static unsigned read_control(int fd)
{
    uint8_t b[600];
    size_t got = 0, want = 8;

    while (got < want) {
        ssize_t n = read(fd, b + got, want - got);
        if (n <= 0)
            return 0;
        got += (size_t)n;
        if (got == 8 && want == 8) {
            uint32_t len = (uint32_t)b[4] << 24 | (uint32_t)b[5] << 16 | b[6] << 8 | b[7];
            if (b[0] || b[1] || b[2] || b[3] || len < 4 || len > 512)
                return 0;
            want = 8 + len;
        }
    }
    return (unsigned)b[8] << 24 | (unsigned)b[9] << 16 | b[10] << 8 | b[11];
}

/* A writer: READY, ACCEPT back, START. */
static int writer_open(const char *sock)
{
    struct tb t = {{0}, 0};
    int fd = connect_to(sock);

    control(&t, 4, 1); /* READY */
    send_all(fd, t.b, t.n);
    ck_assert_uint_eq(read_control(fd), 1); /* ACCEPT */
    t.n = 0;
    control(&t, 2, 1); /* START */
    send_all(fd, t.b, t.n);
    return fd;
}

/* STOP, FINISH back, close. */
static void writer_close(int fd)
{
    struct tb t = {{0}, 0};
    control(&t, 3, 0);
    send_all(fd, t.b, t.n);
    ck_assert_uint_eq(read_control(fd), 5); /* FINISH */
    close(fd);
}

/* n query/response pairs "wNNN-iNNN.example" on fd. */
static void writer_pairs(int fd, unsigned writer, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        char name[64], *buf = NULL;
        size_t len = 0;
        uint8_t w[256];
        size_t wl;
        FILE *m = open_memstream(&buf, &len);
        snprintf(name, sizeof name, "w%u-i%u.example", writer, i);
        wl = wire_of(name, w);
        pair(m, (writer * 1000 + i) & 0xFFFF, 1000 + writer, w, wl, 0, -1, 1, 1);
        fclose(m);
        send_all(fd, buf, len);
        free(buf);
    }
}

static int wait_lines(const char *path, size_t n)
{
    unsigned waited;
    for (waited = 0; waited < POLL_MS; waited += 20) {
        char *s = t_slurp(path, NULL);
        size_t have = count_lines(s);
        free(s);
        if (have >= n)
            return 1;
        t_sleep_ms(20);
    }
    return 0;
}

START_TEST(test_socket_writers_reconnects_and_broken_ones)
{
    struct tap_proc t;
    char out[600], *err, *s;
    int a, b, bad;
    unsigned i;

    path_in(out, sizeof out, "lines.log");
    tap_start(&t, out, NULL);
    /* Two writers at once, interleaved. */
    a = writer_open(t.sock);
    b = writer_open(t.sock);
    for (i = 0; i < 10; i++) {
        writer_pairs(a, 1, 10);
        writer_pairs(b, 2, 10);
    }
    /* One that breaks the handshake: data before START. */
    bad = connect_to(t.sock);
    {
        struct tb x = {{0}, 0};
        tb_be32(&x, 3);
        tb_bytes(&x, "abc", 3);
        send_all(bad, x.b, x.n);
    }
    writer_close(a);
    writer_close(b);
    /* A writer that comes back (a resolver restarted). */
    a = writer_open(t.sock);
    writer_pairs(a, 3, 5);
    writer_close(a);
    ck_assert_msg(wait_lines(out, 205), "the lines did not all come");
    ck_assert_int_eq(tap_stop(&t, &err), 0);
    close(bad);
    ck_assert_msg(strstr(err, "listening on"), "%s", err);
    ck_assert_msg(strstr(err, "frame out of order for the handshake"), "%s", err);
    ck_assert_msg(strstr(err, "lines=205 unanswered=0 unmatched=0 dropped=0 malformed_frames=1"),
                  "%s", err);
    ck_assert_msg(strstr(err, "connections=4"), "%s", err);
    s = t_slurp(out, NULL);
    ck_assert_uint_eq(count_lines(s), 205);
    ck_assert_ptr_nonnull(strstr(s, " w1-i9.example. A IN NOERROR ok pass - proto=udp ms=0.412\n"));
    ck_assert_ptr_nonnull(strstr(s, " w3-i4.example. "));
    free(s);
    free(err);
    /* The socket is removed at exit. */
    ck_assert_int_ne(access(t.sock, F_OK), 0);
}
END_TEST

/* SIGINT stops the tap as SIGTERM does: the writer's lines written, the
 * summary on stderr, exit 0, the socket removed. */
START_TEST(test_socket_sigint_stops)
{
    struct tap_proc t;
    char out[600], *err, *s;
    int a;

    path_in(out, sizeof out, "lines.log");
    tap_start(&t, out, NULL);
    a = writer_open(t.sock);
    writer_pairs(a, 1, 10);
    writer_close(a);
    ck_assert_msg(wait_lines(out, 10), "the lines did not all come");
    ck_assert_int_eq(tap_stop_by(&t, SIGINT, &err), 0);
    ck_assert_msg(strstr(err, "lines=10 unanswered=0 unmatched=0 dropped=0"), "%s", err);
    s = t_slurp(out, NULL);
    ck_assert_uint_eq(count_lines(s), 10);
    free(s);
    free(err);
    ck_assert_int_ne(access(t.sock, F_OK), 0);
}
END_TEST

/* Every slot held by writers that never speak: a real one still gets in
 * (the silent ones make room), and a second tap on the same path is
 * refused, leaving the first one's socket alone. */
START_TEST(test_socket_slots_and_second_reader)
{
    struct tap_proc t;
    char out[600], *err, *s;
    int idle[64], w, i;
    struct t_out r;
    const char *second[] = {"-u", NULL, NULL};

    path_in(out, sizeof out, "slots.log");
    tap_start(&t, out, NULL);
    for (i = 0; i < 64; i++)
        idle[i] = connect_to(t.sock);
    t_sleep_ms(300); /* let the tap take them all */
    w = writer_open(t.sock);
    writer_pairs(w, 7, 3);
    writer_close(w);
    ck_assert_msg(wait_lines(out, 3), "the writer's lines did not come");
    second[1] = t.sock;
    run_tap(second, &r);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "another reader listens there"), "%s", r.err);
    run_free(&r);
    ck_assert_int_eq(tap_stop(&t, &err), 0);
    for (i = 0; i < 64; i++)
        close(idle[i]);
    ck_assert_msg(strstr(err, "writers: connection 1 closed for a new one"), "%s", err);
    /* 64 silent, the writer, and the second tap's probe of the path. */
    ck_assert_msg(strstr(err, "connections=66 closed=1"), "%s", err);
    s = t_slurp(out, NULL);
    ck_assert_uint_eq(count_lines(s), 3);
    free(s);
    free(err);
}
END_TEST

/* Output nobody reads: the tap goes on reading, drops lines and counts
 * them; its memory stays bounded. */
START_TEST(test_socket_stalled_output_drops)
{
    struct tap_proc t;
    char *err, status[600], *s, *p;
    int fds[2], w, saved, drained = 0;
    long rss_kb = 0;
    unsigned i;

    ck_assert_int_eq(pipe(fds), 0);
    /* The tap's stdout is the pipe; the suite does not read it yet. */
    saved = dup(1);
    dup2(fds[1], 1);
    tap_start(&t, NULL, NULL);
    dup2(saved, 1);
    close(saved);
    close(fds[1]);
    w = writer_open(t.sock);
    for (i = 0; i < 60; i++)
        writer_pairs(w, 4, 1000); /* 60,000 lines, far more than two 1 MiB buffers */
    writer_close(w);
    snprintf(status, sizeof status, "/proc/%d/status", (int)t.pid);
    s = t_slurp(status, NULL);
    if (s && (p = strstr(s, "VmRSS:")) != NULL)
        rss_kb = strtol(p + 6, NULL, 10);
    free(s);
    /* Two 1 MiB buffers, the frame buffers and the pending table; never the
     * 60,000 lines. */
    ck_assert_msg(rss_kb > 0 && rss_kb < 48 * 1024, "VmRSS %ld kB", rss_kb);
    /* Drain while it stops (its writer is blocked on the pipe). */
    kill(t.pid, SIGTERM);
    {
        char buf[65536];
        ssize_t n;
        while ((n = read(fds[0], buf, sizeof buf)) > 0)
            drained += (int)count_lines_n(buf, (size_t)n);
    }
    close(fds[0]);
    ck_assert_int_eq(tap_stop(&t, &err), 0);
    {
        unsigned long long lines = 0, dropped = 0;
        p = strstr(err, "lines=");
        ck_assert_ptr_nonnull(p);
        ck_assert_int_eq(sscanf(p, "lines=%llu", &lines), 1);
        p = strstr(err, "dropped=");
        ck_assert_ptr_nonnull(p);
        ck_assert_int_eq(sscanf(p, "dropped=%llu", &dropped), 1);
        ck_assert_uint_eq(lines, 60000);
        ck_assert_msg(dropped > 0, "%s", err);
        ck_assert_uint_eq((unsigned long long)drained + dropped, lines);
    }
    free(err);
}
END_TEST

static Suite *tap_socket_suite(void)
{
    Suite *s = suite_create("tap_socket");
    TCase *tc = tcase_create("tap");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_socket_writers_reconnects_and_broken_ones);
    tcase_add_test(tc, test_socket_sigint_stops);
    tcase_add_test(tc, test_socket_slots_and_second_reader);
    tcase_add_test(tc, test_socket_stalled_output_drops);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(tap_socket_suite)
