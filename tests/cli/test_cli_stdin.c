/**
 * \file
 * Check suite for the idnguard command-line tool: items read from standard
 * input (streaming, a large stream, a co-process, over-long lines) and
 * the escaping of failing input on error lines.  Runs the real binary
 * (see cli_run.h).
 */
#include "cli_run.h"
#include "common.h"

#include "idng_log.h"
#include "idnguard.h"

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

/** Lines of the large streaming test. */
#define BIG_LINES 20000

/* ------------------------------------------------------------------------ */
/* Items read from standard input.                                           */

struct stream_case {
    const char *name;
    const char *args[MAX_ARGS + 1];
    const char *input;
    const char *lines[8];
    int status;
};

/* Each input: a good line, an empty line, a failing CRLF line, a good CRLF
 * line and a last line without its newline. */
static const struct stream_case stream_cases[] = {
    {"encode stdin",
     {"encode"},
     "München\n\nxx\xff\r\nBücher\r\nlast",
     {"Mnchen-3ya", "", "ERROR bad-utf8: *", "Bcher-kva", "last-"},
     1},
    {"decode stdin",
     {"decode"},
     "Mnchen-3ya\n\n0000h\r\nbcher-kva\r\nzz",
     {"München", "", "ERROR bad-codepoint: *", "bücher", "ERROR bad-punycode: *"},
     1},
    {"decode --case stdin",
     {"decode", "--case"},
     "Bcher-kva\r\nBCHER-kvA\n4cA0BS",
     {"Bücher", "B\\u{00DC}CHER", "\\u{00C4}\\u{00D6}\\u{00DC}"},
     0},
    {"to-ascii stdin",
     {"to-ascii"},
     "Bücher.DE\n\nxn--.de\r\nxn--ls8h.la\r\n_dmarc.example",
     {"xn--bcher-kva.de", "ERROR empty-label: *", "ERROR empty-label: xn--: *", "xn--ls8h.la",
      "_dmarc.example"},
     1},
    {"to-unicode stdin",
     {"to-unicode"},
     "xn--bcher-kva.example.\n\nxn--1-0hc.de\r\nxn--ls8h.la\r\nXN--BCHER-KVA.DE",
     {"bücher.example.", "ERROR empty-label: *", "ERROR bidi: xn--1-0hc: *", "💩.la", "bücher.de"},
     1},
    {"check stdin",
     {"check"},
     "xn--ls8h.la\n\nxn--example-nka.org\r\n_dmarc.example\r\nr3---sn-abc.googlevideo.com",
     {"ok", "ERROR empty-label: *", "ERROR not-canonical: xn--example-nka: *", "ok", "ok"},
     1},
    {"check --mode=idna2008 stdin",
     {"check", "--mode=idna2008"},
     "a--b.example\r\nxn--ls8h.la\nxn--bcher-kva.de",
     {"ok", "ERROR disallowed: xn--ls8h: *", "ok"},
     1},
    {"check stdin all ok",
     {"check"},
     "xn--ls8h.la\r\n_dmarc.example\n-x.example\nXN--BCHER-KVA.de\n",
     {"ok", "ok", "ok", "ok"},
     0},
    {"check -- reads stdin", {"check", "--"}, "xn--\n", {"ERROR empty-label: xn--: *"}, 1},
    {"encode stdin all ok", {"encode"}, "a\nb\n", {"a-", "b-"}, 0},
    {"check empty stdin", {"check"}, "", {NULL}, 0},
    /* UTS #39: p<Cyrillic a>ypal.com has paypal.com's skeleton ("m" and
     * "rn" are confusable too); a '.' inside a label's skeleton (U+0660's
     * prototype) is \046; an invalid name is an error line. */
    {"skeleton stdin",
     {"skeleton"},
     "xn--pypal-4ve.com\nPayPal.COM.\r\nxn--zz\n\xd8\xa8\xd9\xa0.example\n\n",
     {"paypal.corn", "paypal.corn.", "ERROR bad-punycode: xn--zz: *", "\xd8\xa8\\046.exarnple",
      "ERROR empty-label: *"},
     1},
    {"restriction stdin",
     {"restriction", "--format=text"},
     "xn--pypal-4ve.com\npaypal.com\r\n_dmarc.*.example\nxn--aypal-i4k\n"
     "\xe4\xb8\xad\xe6\x96\x87.com\nxn--ls8h.la\na\xe4\xb8\xad\xe3\x81\x8b",
     {"minimally-restrictive", "ascii-only", "ascii-only", "moderately-restrictive",
      "single-script", "unrestricted", "highly-restrictive"},
     0},
    {"restriction --mode=idna2008",
     {"restriction", "--mode=idna2008"},
     "xn--ls8h.la\n",
     {"ERROR disallowed: xn--ls8h: *"},
     1},
    {"skeleton tsv",
     {"skeleton", "--format=tsv"},
     "\xd8\xa8\xd9\xa0.example\n",
     {"\xd8\xa8\xd9\xa0.example\tok\t\xd8\xa8\\046.exarnple"},
     0},
    {"restriction json",
     {"restriction", "--format=json"},
     "xn--pypal-4ve.com\n",
     {"{\"input\":\"xn--pypal-4ve.com\",\"status\":\"ok\",\"output\":\"minimally-restrictive\"}"},
     0},
    /* Lines are data, never options; one '\r' before '\n' is dropped (a
     * second is the item's: escaped). */
    {"stdin lines that look like options",
     {"to-ascii", "--format=tsv"},
     "A.example\r\n-h\n--mode=x\n-\nx\r\r\n",
     {"A.example\tok\ta.example", "-h\tok\t-h", "--mode=x\tok\t--mode=x", "-\tok\t-",
      "x\\013\tok\tx\\013"},
     0},
    {"check json stdin",
     {"check", "--format=json"},
     "xn--ls8h.la\r\n-x\n",
     {"{\"input\":\"xn--ls8h.la\",\"status\":\"ok\"}", "{\"input\":\"-x\",\"status\":\"ok\"}"},
     0},
};

START_TEST(test_stream)
{
    const struct stream_case *c = &stream_cases[_i];
    run_result r;

    run_cli(c->args, c->input, strlen(c->input), &r);
    ck_assert_msg(r.status == c->status, "%s: exit status %d, expected %d (stdout \"%s\")", c->name,
                  r.status, c->status, r.out);
    expect_lines(c->name, r.out, r.out_len, c->lines);
    ck_assert_msg(r.err_len == 0, "%s: unexpected stderr \"%s\"", c->name, r.err);
    run_free(&r);
}
END_TEST

/* The large stream: BIG_LINES names of five kinds, every seventh line ended
 * by CRLF, the last one without a newline. */
static const char *const big_commands[] = {"check", "to-unicode"};

static void big_expected(const char *cmd, size_t i, buf *b)
{
    int check = strcmp(cmd, "check") == 0;

    b->len = 0;
    switch (i % 5) {
    case 0:
        buf_printf(b, check ? "ok" : "host%zu.example", i);
        break;
    case 1:
        buf_printf(b, "ERROR empty-label: xn--: ");
        break;
    case 2:
        buf_printf(b, check ? "ok" : "bücher.n%zu.de", i);
        break;
    case 3:
        buf_printf(b, check ? "ok" : "\xf0\x9f\x92\xa9.n%zu.la", i);
        break;
    default:
        buf_printf(b, check ? "ERROR raw-8bit: a\\255%zu: " : "ERROR bad-utf8: a\\255%zu: ", i);
        break;
    }
}

START_TEST(test_big_stream)
{
    const char *cmd = big_commands[_i];
    const char *args[] = {cmd, NULL};
    buf in = {NULL, 0, 0}, exp = {NULL, 0, 0};
    run_result r;
    size_t i, pos = 0;

    for (i = 0; i < BIG_LINES; i++) {
        switch (i % 5) {
        case 0:
            buf_printf(&in, "HOST%zu.Example", i);
            break;
        case 1:
            buf_printf(&in, "xn--.n%zu", i);
            break;
        case 2:
            buf_printf(&in, "xn--bcher-kva.n%zu.de", i);
            break;
        case 3:
            buf_printf(&in, "xn--ls8h.n%zu.la", i);
            break;
        default:
            buf_printf(&in, "a\xff%zu.example", i);
            break;
        }
        if (i + 1 < BIG_LINES)
            buf_append(&in, i % 7 == 0 ? "\r\n" : "\n", i % 7 == 0 ? 2 : 1);
    }

    run_cli(args, in.data, in.len, &r);
    ck_assert_msg(r.status == 1, "%s: exit status %d, expected 1", cmd, r.status);
    ck_assert_msg(r.err_len == 0, "%s: unexpected stderr \"%s\"", cmd, r.err);
    ck_assert_msg(count_lines(r.out, r.out_len) == BIG_LINES, "%s: %zu lines out for %d lines in",
                  cmd, count_lines(r.out, r.out_len), BIG_LINES);
    for (i = 0; i < BIG_LINES; i++) {
        const char *nl = memchr(r.out + pos, '\n', r.out_len - pos);
        size_t len;
        int prefix = i % 5 == 1 || i % 5 == 4;

        ck_assert(nl != NULL);
        len = (size_t)(nl - (r.out + pos));
        big_expected(cmd, i, &exp);
        ck_assert_msg(prefix ? len >= exp.len && memcmp(r.out + pos, exp.data, exp.len) == 0
                             : len == exp.len && memcmp(r.out + pos, exp.data, len) == 0,
                      "%s: line %zu is \"%.*s\", expected %s\"%s\"", cmd, i + 1, (int)len,
                      r.out + pos, prefix ? "a line starting " : "", exp.data);
        pos += len + 1;
    }
    ck_assert(pos == r.out_len);
    run_free(&r);
    free(in.data);
    free(exp.data);
}
END_TEST

START_TEST(test_big_stream_all_ok)
{
    const char *args[] = {"encode", NULL};
    buf in = {NULL, 0, 0};
    run_result r;
    size_t i;

    for (i = 0; i < BIG_LINES; i++)
        buf_printf(&in, "bücher%zu\n", i);
    run_cli(args, in.data, in.len, &r);
    ck_assert_msg(r.status == 0, "encode: exit status %d, expected 0", r.status);
    ck_assert_msg(count_lines(r.out, r.out_len) == BIG_LINES, "encode: %zu lines out for %d in",
                  count_lines(r.out, r.out_len), BIG_LINES);
    ck_assert_msg(strncmp(r.out, "bcher0-", 7) == 0, "encode: first line \"%.20s\"", r.out);
    ck_assert(r.err_len == 0);
    run_free(&r);
    free(in.data);
}
END_TEST

/* An over-long line fails with too-long and the stream goes on.  1025 code
 * points is one more than the CLI's buffers hold (IDNG_INPUT_MAX). */
struct long_case {
    const char *cmd;
    const char *error_prefix;
    const char *next_in;  /**< the line after it */
    const char *next_out; /**< and its output */
};

static const struct long_case long_cases[] = {
    {"encode", "ERROR too-long: ", "München", "Mnchen-3ya"},
    {"decode", "ERROR too-long: ", "Mnchen-3ya", "München"},
    {"to-ascii", "ERROR too-long: ", "Bücher.de", "xn--bcher-kva.de"},
    {"to-unicode", "ERROR too-long: ", "xn--bcher-kva.de", "bücher.de"},
    {"check", "ERROR too-long: ", "xn--bcher-kva.de", "ok"},
};

START_TEST(test_too_long)
{
    const struct long_case *c = &long_cases[_i];
    const char *args[] = {c->cmd, NULL};
    const char *next[] = {c->next_out, NULL};
    char in[IDNG_INPUT_MAX + 64];
    size_t len = IDNG_INPUT_MAX + 1;
    const char *nl;
    run_result r;

    memset(in, 'a', len);
    in[len++] = '\n';
    ck_assert(len + strlen(c->next_in) + 1 < sizeof in);
    memcpy(in + len, c->next_in, strlen(c->next_in));
    len += strlen(c->next_in);
    in[len++] = '\n';
    run_cli(args, in, len, &r);
    ck_assert_msg(r.status == 1, "%s: exit status %d, expected 1", c->cmd, r.status);
    ck_assert_msg(strncmp(r.out, c->error_prefix, strlen(c->error_prefix)) == 0,
                  "%s: first line \"%.60s\" does not start \"%s\"", c->cmd, r.out, c->error_prefix);
    nl = memchr(r.out, '\n', r.out_len);
    ck_assert_msg(nl != NULL, "%s: no output line", c->cmd);
    expect_lines(c->cmd, nl + 1, r.out_len - (size_t)(nl + 1 - r.out), next);
    ck_assert_msg(r.err_len == 0, "%s: unexpected stderr \"%s\"", c->cmd, r.err);
    run_free(&r);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Control characters in failing input are escaped on the error line, as the */
/* display unit shows text (\DDD for octets, \u{XXXX} for code points).    */

struct escape_case {
    const char *name;
    const char *cmd;
    const char *opt;      /**< NULL, or one option */
    const char *input;    /**< one line, without its newline */
    size_t input_len;     /**< 0: strlen(input) */
    const char *prefix;   /**< the line starts with it */
    const char *contains; /**< NULL, or a substring the line must hold */
};

static const struct escape_case escape_cases[] = {
    {"check ESC before xn--", "check", NULL, "a\x1b[31mb.xn--", 0,
     "ERROR empty-label: xn--: ", NULL},
    {"to-ascii ESC before xn--", "to-ascii", NULL, "a\x1b[31mb.xn--", 0,
     "ERROR empty-label: xn--: ", NULL},
    {"check ESC in A-label", "check", NULL, "xn--a\x1b[31mb.de", 0,
     "ERROR bad-punycode: ", "xn--a\\027[31mb: "},
    {"to-unicode ESC in A-label", "to-unicode", NULL, "xn--a\x1b[31mb.de", 0, "ERROR ",
     "xn--a\\027[31mb: "},
    {"to-ascii ESC, DEL and backslash in U-label", "to-ascii", NULL, "\xc3\xbc\x1b[31m\x7f\\b.de",
     0, "ERROR disallowed: ", "ü\\027[31m\\127\\092b: "},
    {"to-ascii --strict ESC in ASCII label", "to-ascii", "--strict", "A\x1b[31mb.example", 0,
     "ERROR disallowed: A\\027[31mb: ", NULL},
    {"check raw 8-bit with SOH", "check", NULL,
     "b\xc3\xbc\x01"
     "cher.de",
     0, "ERROR raw-8bit: ", "bü\\001cher: "},
    {"check NUL in A-label", "check", NULL, "xn--a\0b.de", 10,
     "ERROR bad-punycode: ", "xn--a\\000b: "},
    {"check bell and tab", "check", NULL, "xn--\a\tb", 0,
     "ERROR bad-punycode: ", "xn--\\007\\009b: "},
    {"to-unicode bad UTF-8 and ESC", "to-unicode", NULL, "\x1b\xff.xn--x", 0,
     "ERROR bad-utf8: ", "\\027\\255: "},
    {"check CR inside the line", "check", NULL, "xn--a\rb.de", 0,
     "ERROR bad-punycode: ", "xn--a\\013b: "},
};

START_TEST(test_escapes)
{
    const struct escape_case *c = &escape_cases[_i];
    size_t in_len = c->input_len ? c->input_len : strlen(c->input), i;
    const char *args[] = {c->cmd, c->opt, NULL};
    char in[64];
    run_result r;

    ck_assert(in_len + 1 < sizeof in);
    memcpy(in, c->input, in_len);
    in[in_len] = '\n';
    run_cli(args, in, in_len + 1, &r);
    ck_assert_msg(r.status == 1, "%s: exit status %d, expected 1", c->name, r.status);
    ck_assert_msg(r.out_len > 0 && r.out[r.out_len - 1] == '\n', "%s: no final newline", c->name);
    for (i = 0; i + 1 < r.out_len; i++)
        ck_assert_msg((unsigned char)r.out[i] >= 0x20 && (unsigned char)r.out[i] != 0x7f,
                      "%s: raw octet 0x%02x at offset %zu of the error line", c->name,
                      (unsigned char)r.out[i], i);
    ck_assert_msg(strncmp(r.out, c->prefix, strlen(c->prefix)) == 0,
                  "%s: \"%s\" does not start \"%s\"", c->name, r.out, c->prefix);
    if (c->contains != NULL)
        ck_assert_msg(strstr(r.out, c->contains) != NULL, "%s: \"%s\" does not hold \"%s\"",
                      c->name, r.out, c->contains);
    run_free(&r);
}
END_TEST

/*
 * A co-process: one line in, and its answer must come out while standard
 * input stays open (the CLI may buffer output, but never while it waits
 * for more input).  Three rounds, each answered within RUN_TIMEOUT_S.
 */
START_TEST(test_coprocess)
{
    static const char *const in[] = {"xn--bcher-kva.de\n", "xn--a.de\n", "example.com\n"};
    static const char *const want[] = {"bücher.de\n", "ERROR ", "example.com\n"};
    const char *bin = t_idnguard_bin();
    int to[2], from[2], k;
    pid_t pid;

    signal(SIGPIPE, SIG_IGN);
    ck_assert(pipe(to) == 0 && pipe(from) == 0);
    fflush(NULL);
    pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        if (dup2(to[0], STDIN_FILENO) < 0 || dup2(from[1], STDOUT_FILENO) < 0)
            _exit(127);
        close(to[0]);
        close(to[1]);
        close(from[0]);
        close(from[1]);
        execl(bin, bin, "to-unicode", (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    for (k = 0; k < 3; k++) {
        char got[256];
        size_t n = 0;
        time_t deadline = time(NULL) + RUN_TIMEOUT_S;

        ck_assert(write(to[1], in[k], strlen(in[k])) == (ssize_t)strlen(in[k]));
        while (n == 0 || got[n - 1] != '\n') {
            struct pollfd p = {from[0], POLLIN, 0};
            ssize_t r;
            if (time(NULL) > deadline || poll(&p, 1, 1000) < 0) {
                kill(pid, SIGKILL);
                waitpid(pid, NULL, 0);
                ck_abort_msg("round %d: no answer to \"%.*s\" while input stays open", k,
                             (int)strlen(in[k]) - 1, in[k]);
            }
            if (!(p.revents & (POLLIN | POLLHUP)))
                continue;
            r = read(from[0], got + n, sizeof got - 1 - n);
            ck_assert_msg(r > 0, "round %d: the CLI closed its output", k);
            n += (size_t)r;
        }
        got[n] = '\0';
        ck_assert_msg(strncmp(got, want[k], strlen(want[k])) == 0, "round %d: \"%s\"", k, got);
    }
    close(to[1]);
    close(from[0]);
    ck_assert(waitpid(pid, &k, 0) == pid);
    ck_assert(WIFEXITED(k) && WEXITSTATUS(k) == 1); /* one line failed */
}
END_TEST

static Suite *cli_stdin_suite(void)
{
    Suite *s = suite_create("cli_stdin");
    TCase *tc;

    if (cli_bin_missing(s, "test_cli_stdin"))
        return s;

    tc = tcase_create("stdin");
    tcase_set_timeout(tc, 2 * RUN_TIMEOUT_S);
    tcase_add_loop_test(tc, test_stream, 0, N_OF(stream_cases));
    tcase_add_loop_test(tc, test_big_stream, 0, N_OF(big_commands));
    tcase_add_test(tc, test_big_stream_all_ok);
    tcase_add_test(tc, test_coprocess);
    tcase_add_loop_test(tc, test_too_long, 0, N_OF(long_cases));
    tcase_add_loop_test(tc, test_escapes, 0, N_OF(escape_cases));
    suite_add_tcase(s, tc);

    return s;
}

IDNG_TEST_MAIN(cli_stdin_suite)
