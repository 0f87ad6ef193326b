/**
 * \file
 * The CLI suites' shared helpers (see cli_run.h).
 */
#include "cli_run.h"

#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void buf_append(buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (b->len + n + 1 > cap)
            cap *= 2;
        b->data = realloc(b->data, cap);
        ck_assert_msg(b->data != NULL, "out of memory");
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void buf_printf(buf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    ck_assert(n >= 0 && (size_t)n < sizeof tmp);
    buf_append(b, tmp, (size_t)n);
}

static void set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    ck_assert(fl >= 0);
    ck_assert(fcntl(fd, F_SETFL, fl | O_NONBLOCK) == 0);
}

static void close_fd(int *fd)
{
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

/** Reads what is available from *fd into b; closes *fd at end of file. */
static void drain(int *fd, buf *b)
{
    char tmp[65536];

    for (;;) {
        ssize_t got = read(*fd, tmp, sizeof tmp);
        if (got > 0) {
            buf_append(b, tmp, (size_t)got);
            continue;
        }
        if (got == 0) {
            close_fd(fd);
            return;
        }
        if (errno == EINTR)
            continue;
        ck_assert_msg(errno == EAGAIN || errno == EWOULDBLOCK, "read from child: %s",
                      strerror(errno));
        return;
    }
}

/**
 * Runs the CLI with the NULL-terminated argument list args (argv[1]...),
 * writes in_len octets of in to its standard input and closes it, and
 * collects both output streams until the child closes them.  The three
 * pipes are multiplexed with poll(), so neither side can block the other
 * whatever the sizes.
 */
void run_cli(const char *const *args, const char *in, size_t in_len, run_result *r)
{
    const char *bin = t_idnguard_bin();
    char *argv[MAX_ARGS + 2];
    int in_pipe[2], out_pipe[2], err_pipe[2];
    int to_child, from_out, from_err, wstatus;
    size_t argc = 0, written = 0;
    buf out = {NULL, 0, 0}, err = {NULL, 0, 0};
    time_t deadline = time(NULL) + RUN_TIMEOUT_S;
    pid_t pid;

    argv[argc++] = (char *)bin;
    while (args[argc - 1] != NULL) {
        ck_assert_msg(argc <= MAX_ARGS, "too many arguments for run_cli");
        argv[argc] = (char *)args[argc - 1];
        argc++;
    }
    argv[argc] = NULL;

    /* A child that exits without reading its input must not kill us. */
    signal(SIGPIPE, SIG_IGN);
    ck_assert(pipe(in_pipe) == 0);
    ck_assert(pipe(out_pipe) == 0);
    ck_assert(pipe(err_pipe) == 0);
    fflush(NULL);
    pid = fork();
    ck_assert_msg(pid >= 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        static const char msg[] = "test_cli: execv of IDNGUARD_BIN failed\n";
        signal(SIGPIPE, SIG_DFL);
        if (dup2(in_pipe[0], STDIN_FILENO) < 0 || dup2(out_pipe[1], STDOUT_FILENO) < 0
            || dup2(err_pipe[1], STDERR_FILENO) < 0)
            _exit(127);
        close(in_pipe[0]);
        close(in_pipe[1]);
        close(out_pipe[0]);
        close(out_pipe[1]);
        close(err_pipe[0]);
        close(err_pipe[1]);
        execv(bin, argv);
        if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0)
            _exit(127);
        _exit(127);
    }
    close(in_pipe[0]);
    close(out_pipe[1]);
    close(err_pipe[1]);
    to_child = in_pipe[1];
    from_out = out_pipe[0];
    from_err = err_pipe[0];
    set_nonblock(to_child);
    set_nonblock(from_out);
    set_nonblock(from_err);
    if (in_len == 0)
        close_fd(&to_child);

    while (from_out >= 0 || from_err >= 0) {
        struct pollfd p[3];
        nfds_t n = 0;
        int i_in = -1, i_out = -1, i_err = -1, rc;

        if (to_child >= 0) {
            p[n].fd = to_child;
            p[n].events = POLLOUT;
            i_in = (int)n++;
        }
        if (from_out >= 0) {
            p[n].fd = from_out;
            p[n].events = POLLIN;
            i_out = (int)n++;
        }
        if (from_err >= 0) {
            p[n].fd = from_err;
            p[n].events = POLLIN;
            i_err = (int)n++;
        }
        if (time(NULL) > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, NULL, 0);
            ck_abort_msg("%s %s: no end of output after %d s", bin, argv[1] ? argv[1] : "",
                         RUN_TIMEOUT_S);
        }
        rc = poll(p, n, 1000);
        if (rc < 0 && errno == EINTR)
            continue;
        ck_assert_msg(rc >= 0, "poll: %s", strerror(errno));
        if (i_in >= 0 && p[i_in].revents) {
            ssize_t put = write(to_child, in + written, in_len - written);
            if (put > 0) {
                written += (size_t)put;
                if (written == in_len)
                    close_fd(&to_child);
            } else if (put < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                /* EPIPE: the child stopped reading; it is judged by its output. */
                close_fd(&to_child);
            }
        }
        if (i_out >= 0 && p[i_out].revents)
            drain(&from_out, &out);
        if (i_err >= 0 && p[i_err].revents)
            drain(&from_err, &err);
    }
    close_fd(&to_child);
    while (waitpid(pid, &wstatus, 0) < 0)
        ck_assert_msg(errno == EINTR, "waitpid: %s", strerror(errno));

    r->signo = 0;
    if (WIFEXITED(wstatus)) {
        r->status = WEXITSTATUS(wstatus);
    } else {
        r->status = -1;
        r->signo = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
    }
    buf_append(&out, "", 0);
    buf_append(&err, "", 0);
    r->out = out.data;
    r->out_len = out.len;
    r->err = err.data;
    r->err_len = err.len;
    ck_assert_msg(!(r->status == 127 && strstr(r->err, "execv of IDNGUARD_BIN failed")),
                  "could not run IDNGUARD_BIN=%s", bin);
    ck_assert_msg(r->status >= 0, "%s %s died by signal %d", bin, argv[1] ? argv[1] : "", r->signo);
}

void run_free(run_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

/** Does line (len octets, no '\n') match expected (a trailing '*' = prefix)? */
int line_matches(const char *line, size_t len, const char *expected)
{
    size_t elen = strlen(expected);

    if (elen > 0 && expected[elen - 1] == '*')
        return len >= elen - 1 && memcmp(line, expected, elen - 1) == 0;
    return len == elen && memcmp(line, expected, elen) == 0;
}

/**
 * Checks that out holds exactly the lines of expected (NULL-terminated),
 * each ended by '\n'.  name identifies the case in failure messages.
 */
void expect_lines(const char *name, const char *out, size_t out_len, const char *const *expected)
{
    size_t pos = 0, k = 0;

    while (expected[k] != NULL) {
        const char *nl;
        size_t len;

        ck_assert_msg(pos < out_len, "%s: output ends before line %zu (expected \"%s\")", name,
                      k + 1, expected[k]);
        nl = memchr(out + pos, '\n', out_len - pos);
        ck_assert_msg(nl != NULL, "%s: line %zu has no final newline: \"%s\"", name, k + 1,
                      out + pos);
        len = (size_t)(nl - (out + pos));
        ck_assert_msg(line_matches(out + pos, len, expected[k]),
                      "%s: line %zu is \"%.*s\", expected \"%s\"", name, k + 1, (int)len, out + pos,
                      expected[k]);
        pos += len + 1;
        k++;
    }
    ck_assert_msg(pos == out_len, "%s: extra output after %zu lines: \"%s\"", name, k, out + pos);
}

size_t count_lines(const char *s, size_t len)
{
    size_t i, n = 0;
    for (i = 0; i < len; i++)
        n += s[i] == '\n';
    return n;
}

/** Writes text to dir/idnguard.conf; its path into path (cap octets). */
void write_conf(const char *dir, const char *text, char *path, size_t cap)
{
    snprintf(path, cap, "%s/idnguard.conf", dir);
    t_spew_str(path, text);
}

START_TEST(test_bin_missing)
{
    (void)t_idnguard_bin();
}
END_TEST

int cli_bin_missing(Suite *s, const char *suite)
{
    TCase *tc;

    if (getenv("IDNGUARD_BIN") != NULL)
        return 0;
    tc = tcase_create("setup");
    tcase_add_test(tc, test_bin_missing);
    suite_add_tcase(s, tc);
    fprintf(stderr,
            "%s: IDNGUARD_BIN is not set; run as IDNGUARD_BIN=build/idnguard "
            "build/tests/cli/%s\n",
            suite, suite);
    return 1;
}
