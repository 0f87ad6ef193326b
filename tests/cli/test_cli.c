/**
 * \file
 * Check suite for the idnguard command-line tool.
 *
 * Every test runs the real binary, named by the environment variable
 * IDNGUARD_BIN, as a child process (fork + execv, never a shell), feeds it
 * standard input through a pipe and captures standard output and standard
 * error separately, then judges the exit status and the output.
 *
 * Expected output lines in the tables below are compared exactly, except
 * that an expected line ending in '*' only has to be a prefix of the actual
 * line (the '*' not included).  Error lines are matched up to their class
 * and label this way, so that rewording a status message does not break
 * the tests; class names are stable interface.
 */
#include "common.h"

#include "idng_log.h"
#include "idnguard.h"

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

/** Longest argument list a table row may hold (without argv[0]). */
#define MAX_ARGS 6
/** A child still running after this many seconds is killed. */
#define RUN_TIMEOUT_S 30
/** Lines of the large streaming test. */
#define BIG_LINES 20000

/** What one run of the CLI produced. */
typedef struct run_result {
    int status;     /**< exit status, or -1 when the child died by a signal */
    int signo;      /**< the signal, when status is -1 */
    char *out;      /**< standard output, NUL-terminated */
    size_t out_len; /**< its length, not counting the NUL */
    char *err;      /**< standard error, NUL-terminated */
    size_t err_len; /**< its length, not counting the NUL */
} run_result;

/** A growable, NUL-terminated byte buffer. */
typedef struct buf {
    char *data;
    size_t len, cap;
} buf;

static void buf_append(buf *b, const char *s, size_t n)
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

static void buf_printf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void buf_printf(buf *b, const char *fmt, ...)
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

/** Path of the binary under test; fails the test when it is not set. */
static const char *cli_path(void)
{
    const char *bin = getenv("IDNGUARD_BIN");

    ck_assert_msg(bin != NULL && bin[0] != '\0',
                  "IDNGUARD_BIN is not set: run as IDNGUARD_BIN=build/idnguard %s",
                  "build/tests/cli/test_cli");
    ck_assert_msg(access(bin, X_OK) == 0, "IDNGUARD_BIN=%s is not an executable file: %s", bin,
                  strerror(errno));
    return bin;
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
static void run_cli(const char *const *args, const char *in, size_t in_len, run_result *r)
{
    const char *bin = cli_path();
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
    ck_assert_msg(r->status >= 0, "%s %s died by signal %d", bin, argv[1] ? argv[1] : "",
                  r->signo);
}

static void run_free(run_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

/** Does line (len octets, no '\n') match expected (a trailing '*' = prefix)? */
static int line_matches(const char *line, size_t len, const char *expected)
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
static void expect_lines(const char *name, const char *out, size_t out_len,
                         const char *const *expected)
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
                      "%s: line %zu is \"%.*s\", expected \"%s\"", name, k + 1, (int)len,
                      out + pos, expected[k]);
        pos += len + 1;
        k++;
    }
    ck_assert_msg(pos == out_len, "%s: extra output after %zu lines: \"%s\"", name, k,
                  out + pos);
}

static size_t count_lines(const char *s, size_t len)
{
    size_t i, n = 0;
    for (i = 0; i < len; i++)
        n += s[i] == '\n';
    return n;
}

/* ------------------------------------------------------------------------ */
/* Items given as operands.                                                  */

/** One run with operands and no standard input. */
struct operand_case {
    const char *name;
    const char *args[MAX_ARGS + 1];
    const char *lines[MAX_ARGS + 1];
    int status;
};

static const struct operand_case codec_cases[] = {
    {"encode München", {"encode", "München"}, {"Mnchen-3ya"}, 0},
    {"decode Mnchen-3ya", {"decode", "Mnchen-3ya"}, {"München"}, 0},
    {"encode two operands", {"encode", "München", "bücher"}, {"Mnchen-3ya", "bcher-kva"}, 0},
    /* Without --case, basic code points are copied as they are. */
    {"encode Bücher", {"encode", "Bücher"}, {"Bcher-kva"}, 0},
    {"decode Bcher-kva", {"decode", "Bcher-kva"}, {"Bücher"}, 0},
    {"decode BCHER-kvA without --case", {"decode", "BCHER-kvA"}, {"BüCHER"}, 0},
    /* --case lowercases and records the case in the annotation: an
     * uppercase basic letter, or an uppercase final digit of a delta. */
    {"encode --case Bücher", {"encode", "--case", "Bücher"}, {"Bcher-kva"}, 0},
    {"decode --case Bcher-kva", {"decode", "--case", "Bcher-kva"}, {"Bücher"}, 0},
    {"encode --case BÜCHER", {"encode", "--case", "BÜCHER"}, {"BCHER-kvA"}, 0},
    /* In text, a code point UTS #46 maps (an uppercase letter) is shown
     * escaped, as the display unit shows text; JSON strings carry it. */
    {"decode --case BCHER-kvA", {"decode", "--case", "BCHER-kvA"}, {"B\\u{00DC}CHER"}, 0},
    {"decode --case --format=json BCHER-kvA", {"decode", "--case", "--format=json", "BCHER-kvA"},
     {"{\"input\":\"BCHER-kvA\",\"status\":\"ok\",\"output\":\"B\\u00dcCHER\"}"}, 0},
    {"decode --case bcher-kvA", {"decode", "--case", "bcher-kvA"}, {"b\\u{00DC}cher"}, 0},
    {"encode --case ÄÖÜ", {"encode", "--case", "ÄÖÜ"}, {"4cA0BS"}, 0},
    {"decode --case 4cA0BS", {"decode", "--case", "4cA0BS"}, {"\\u{00C4}\\u{00D6}\\u{00DC}"}, 0},
    /* RFC 3492 section 7.1, samples (L) and (M), with their case. */
    {"RFC 3492 (L) encode",
     {"encode", "--case", "3年B組金八先生"},
     {"3B-ww4c5e180e575a65lsy2b"},
     0},
    {"RFC 3492 (L) decode",
     {"decode", "--case", "3B-ww4c5e180e575a65lsy2b"},
     {"3年B組金八先生"},
     0},
    {"RFC 3492 (M) encode",
     {"encode", "--case", "安室奈美恵-with-SUPER-MONKEYS"},
     {"-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"},
     0},
    {"RFC 3492 (M) decode",
     {"decode", "--case", "--", "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"},
     {"安室奈美恵-with-SUPER-MONKEYS"},
     0},
    {"encode all-ASCII gets a delimiter", {"encode", "last"}, {"last-"}, 0},
    {"encode after --", {"encode", "--", "--case"}, {"--case-"}, 0},
    {"decode 0000h", {"decode", "0000h"}, {"ERROR bad-codepoint: *"}, 1},
    {"decode overflow", {"decode", "99999999999a"}, {"ERROR bad-punycode: *"}, 1},
    {"decode bad digit", {"decode", "zz%"}, {"ERROR bad-punycode: *"}, 1},
    {"decode truncated", {"decode", "zz"}, {"ERROR bad-punycode: *"}, 1},
    {"encode bad UTF-8", {"encode", "b\xc3"}, {"ERROR bad-utf8: *"}, 1},
    {"decode ok then failure", {"decode", "Mnchen-3ya", "0000h"},
     {"München", "ERROR bad-codepoint: *"}, 1},

    {"to-ascii Bücher.DE", {"to-ascii", "Bücher.DE"}, {"xn--bcher-kva.de"}, 0},
    {"to-ascii fullwidth", {"to-ascii", "ｂｕｃｈｅｒ.de"}, {"bucher.de"}, 0},
    {"to-ascii ideographic full stop", {"to-ascii", "bücher。de"}, {"xn--bcher-kva.de"}, 0},
    {"to-ascii _dmarc", {"to-ascii", "_dmarc.Bücher.de"}, {"_dmarc.xn--bcher-kva.de"}, 0},
    {"to-ascii trailing dot", {"to-ascii", "xn--bcher-kva.example."},
     {"xn--bcher-kva.example."}, 0},
    {"to-ascii uppercase ASCII", {"to-ascii", "WWW.Example.COM"}, {"www.example.com"}, 0},
    {"to-ascii empty label", {"to-ascii", "a..b"}, {"ERROR empty-label: *"}, 1},
    {"to-ascii xn-- label", {"to-ascii", "xn--.de"}, {"ERROR empty-label: xn--: *"}, 1},
    {"to-ascii --strict _dmarc", {"to-ascii", "--strict", "_dmarc.example"},
     {"ERROR disallowed: _dmarc: *"}, 1},
    {"to-ascii --strict -x", {"to-ascii", "--strict", "--", "-x.example"},
     {"ERROR hyphen: -x: label begins or ends with '-'"}, 1},
    {"to-unicode trailing dot", {"to-unicode", "xn--bcher-kva.example."}, {"bücher.example."}, 0},
    {"to-unicode emoji", {"to-unicode", "xn--ls8h.la"}, {"💩.la"}, 0},
    {"to-unicode uppercase A-label", {"to-unicode", "XN--BCHER-KVA.DE"}, {"bücher.de"}, 0},
    {"to-unicode emoji idna2008", {"to-unicode", "--mode=idna2008", "xn--ls8h.la"},
     {"ERROR disallowed: xn--ls8h: *"}, 1},
    {"to-unicode bidi", {"to-unicode", "xn--1-0hc.de"}, {"ERROR bidi: xn--1-0hc: *"}, 1},
};

static const struct operand_case check_cases[] = {
    {"check emoji uts46", {"check", "xn--ls8h.la"}, {"ok"}, 0},
    {"check emoji --mode=uts46", {"check", "--mode=uts46", "xn--ls8h.la"}, {"ok"}, 0},
    {"check emoji idna2008", {"check", "--mode=idna2008", "xn--ls8h.la"},
     {"ERROR disallowed: xn--ls8h: *"}, 1},
    {"check emoji punycode", {"check", "--mode=punycode", "xn--ls8h.la"}, {"ok"}, 0},
    {"check soft hyphen", {"check", "xn--example-nka.org"},
     {"ERROR not-canonical: xn--example-nka: *"}, 1},
    {"check soft hyphen idna2008",
     {"check", "--mode=idna2008", "xn--example-nka.org"},
     {"ERROR disallowed: xn--example-nka: *"},
     1},
    {"check _dmarc", {"check", "_dmarc.example"}, {"ok"}, 0},
    {"check r3---sn", {"check", "r3---sn-abc.googlevideo.com"}, {"ok"}, 0},
    {"check -x", {"check", "--", "-x.example"}, {"ok"}, 0},
    {"check a--b", {"check", "a--b.example"}, {"ok"}, 0},
    {"check uppercase A-label", {"check", "XN--BCHER-KVA.de"}, {"ok"}, 0},
    {"check A-label", {"check", "xn--bcher-kva.example."}, {"ok"}, 0},
    {"check root", {"check", "."}, {"ok"}, 0},
    {"check bidi", {"check", "xn--1-0hc"}, {"ERROR bidi: *"}, 1},
    {"check xn--", {"check", "xn--"}, {"ERROR empty-label: *"}, 1},
    {"check xn--example-", {"check", "xn--example-"}, {"ERROR ascii-only: *"}, 1},
    {"check raw UTF-8", {"check", "bücher.de"},
     {"ERROR raw-8bit: bücher: label holds octets >= 0x80; a U-label name: to-ascii gives "
      "xn--bcher-kva.de"}, 1},
    {"check raw UTF-8 to-ascii refuses", {"check", "b\xc3\xbc_cher.de"},
     {"ERROR raw-8bit: bü_cher: label holds octets >= 0x80; a U-label name, which to-ascii "
      "refuses too"}, 1},
    {"check raw UTF-8 --format=json", {"check", "--format=json", "bücher.de"},
     {"{\"input\":\"bücher.de\",\"status\":\"error\",\"class\":\"raw-8bit\",\"label\":"
      "\"bücher\",\"offset\":0,\"message\":"
      "\"label\\u0020holds\\u0020octets\\u0020>=\\u00200x80\",\"codepoint\":null,"
      "\"to_ascii\":\"xn--bcher-kva.de\"}"}, 1},
    {"check bad Punycode", {"check", "xn--zz%.de"}, {"ERROR bad-punycode: xn--zz%: *"}, 1},
    {"check all pass", {"check", "xn--ls8h.la", "_dmarc.example", "a--b.example"},
     {"ok", "ok", "ok"}, 0},
    {"check one fails",
     {"check", "xn--ls8h.la", "xn--", "a--b.example"},
     {"ok", "ERROR empty-label: xn--: *", "ok"},
     1},
    /* Without --conf the codec alone judges: a lookalike is a valid name,
     * and its raw spelling a U-label name. */
    {"check lookalike without --conf", {"check", "xn--pypal-4ve.com", "p\xd0\xb0ypal.com"},
     {"ok", "ERROR raw-8bit: p\xd0\xb0ypal: *"}, 1},
};

/* Options anywhere before "--", formats and the UTS #46 options: every
 * line exact. */
static const struct operand_case option_cases[] = {
    /* An option after an item applies to every item. */
    {"option after an item", {"check", "xn--ls8h.la", "--mode=idna2008"},
     {"ERROR disallowed: xn--ls8h: code point is disallowed (U+1F4A9)"}, 1},
    {"items after --", {"check", "--", "--help", "-h", "-"}, {"ok", "ok", "ok"}, 0},
    {"to-ascii -- -x", {"to-ascii", "--", "-X.example"}, {"-x.example"}, 0},
    /* text: an answer holds no space (\032), so it never reads as an
     * ERROR line; controls and '\\' escaped too. */
    {"to-ascii space", {"to-ascii", "a b.DE"}, {"a\\032b.de"}, 0},
    {"to-ascii ESC and backslash", {"to-ascii", "a\x1b\\.de"}, {"a\\027\\092.de"}, 0},
    {"decode ERROR lookalike", {"decode", "ERROR x-"}, {"ERROR\\032x"}, 0},
    {"to-unicode text", {"to-unicode", "xn--bcher-kva.de"}, {"bücher.de"}, 0},
    {"to-ascii tsv",
     {"to-ascii", "--format=tsv", "Bücher.DE", "a..b", "a b.de", "xn--zz%"},
     {"Bücher.DE\tok\txn--bcher-kva.de", "a..b\tempty-label\tempty label",
      "a\\032b.de\tok\ta\\032b.de", "xn--zz%\tbad-punycode\txn--zz%: invalid Punycode digit"},
     1},
    {"to-ascii json",
     {"to-ascii", "--format=json", "Bücher.DE", "a..b"},
     {"{\"input\":\"Bücher.DE\",\"status\":\"ok\",\"output\":\"xn--bcher-kva.de\"}",
      "{\"input\":\"a..b\",\"status\":\"error\",\"class\":\"empty-label\",\"label\":\"\","
      "\"offset\":2,\"message\":\"empty\\u0020label\",\"codepoint\":null}"},
     1},
    {"to-unicode json",
     {"to-unicode", "--format=json", "xn--bcher-kva.de", "a.xn--1-0hc"},
     {"{\"input\":\"xn--bcher-kva.de\",\"status\":\"ok\",\"output\":\"bücher.de\"}",
      "{\"input\":\"a.xn--1-0hc\",\"status\":\"error\",\"class\":\"bidi\",\"label\":"
      "\"xn--1-0hc\",\"offset\":2,\"message\":\"first\\u0020character\\u0020is\\u0020not"
      "\\u0020L,\\u0020R\\u0020or\\u0020AL\\u0020(RFC\\u00205893\\u0020rule\\u00201)\","
      "\"codepoint\":\"U+0031\"}"},
     1},
    {"json escapes input", {"to-ascii", "--format=json", "a\"\\\x01.de"},
     {"{\"input\":\"a\\\"\\\\\\u0001.de\",\"status\":\"ok\",\"output\":\"a\\\"\\\\\\u0001.de\"}"},
     0},
    {"json: an octet that is not UTF-8", {"to-ascii", "--format=json", "a\xff.de"},
     {"{\"input\":\"a\\ufffd.de\",\"status\":\"error\",\"class\":\"bad-utf8\",\"label\":"
      "\"a\\ufffd\",\"offset\":0,\"message\":\"invalid\\u0020UTF-8\",\"codepoint\":null}"},
     1},
    {"tsv fields hold no tab", {"check", "--format=tsv", "a b\tc.de"}, {"a\\032b\\009c.de\tok\t"},
     0},
    {"check tsv", {"check", "--format=tsv", "xn--ls8h.la", "xn--"},
     {"xn--ls8h.la\tok\t", "xn--\tempty-label\txn--: A-label decodes to nothing"}, 1},
    {"check json", {"check", "--format=json", "xn--ls8h.la"},
     {"{\"input\":\"xn--ls8h.la\",\"status\":\"ok\"}"}, 0},
    {"encode tsv", {"encode", "--format=tsv", "München", "b\\c"},
     {"München\tok\tMnchen-3ya", "b\\092c\tok\tb\\092c-"}, 0},
    {"decode json error", {"decode", "--format=json", "0000h"},
     {"{\"input\":\"0000h\",\"status\":\"error\",\"class\":\"bad-codepoint\",\"label\":null,"
      "\"offset\":null,\"message\":\"code\\u0020point\\u0020above\\u0020U+10FFFF\","
      "\"codepoint\":null}"},
     1},
    /* UTS #46 options. */
    {"--transitional", {"to-ascii", "--transitional", "Faß.de", "a\xe2\x80\x8d" "b.de"},
     {"fass.de", "ab.de"}, 0},
    {"nontransitional", {"to-ascii", "Faß.de", "a\xe2\x80\x8d" "b.de"},
     {"xn--fa-hia.de",
      "ERROR contextj: a\\u{200D}b: joiner not allowed here (RFC 5892 A.1, A.2) (U+200D)"}, 1},
    {"to-unicode ignores --transitional", {"to-unicode", "--transitional", "Faß.de"},
     {"faß.de"}, 0},
    {"--no-check-hyphens", {"to-ascii", "--no-check-hyphens", "--", "-bü-.de"},
     {"xn---b--ioa.de"}, 0},
    {"check hyphens", {"to-ascii", "--", "-bü-.de"},
     {"ERROR hyphen: -bü-: label begins or ends with '-'"}, 1},
    {"--no-std3", {"to-ascii", "--no-std3", "ü_.de"}, {"xn--_-dha.de"}, 0},
    {"std3", {"to-ascii", "ü_.de"}, {"ERROR disallowed: ü_: code point is disallowed (U+005F)"},
     1},
    {"--no-dns-length", {"to-ascii", "--no-dns-length", "a..b", "\xc2\xad.de"}, {"a..b", ".de"},
     0},
    {"--no-bidi", {"to-ascii", "--no-bidi", "xn--1-0hc.de"}, {"xn--1-0hc.de"}, 0},
    {"--no-joiners", {"to-ascii", "--no-joiners", "a\xe2\x80\x8c" "b.de"}, {"xn--ab-j1t.de"}, 0},
    {"--check-contexto", {"to-ascii", "--check-contexto", "a·b.de", "l·l.de"},
     {"ERROR contexto: a·b: code point not allowed in this context (RFC 5892 A.3-A.9) (U+00B7)",
      "xn--ll-0ea.de"},
     1},
    {"--profile=whatwg",
     {"to-ascii", "--profile=whatwg", "--", "a_b--c-.EX", "a..b", "xn--1-0hc.de"},
     {"a_b--c-.ex", "a..b",
      "ERROR bidi: xn--1-0hc: first character is not L, R or AL (RFC 5893 rule 1) (U+0031)"},
     1},
    {"--profile=whatwg then dns", {"to-ascii", "--profile=whatwg", "--profile=dns", "a..b"},
     {"ERROR empty-label: empty label"}, 1},
    {"--profile=idna2008-registration",
     {"to-ascii", "--profile=idna2008-registration", "--", "-x.de", "xn--ls8h.la"},
     {"ERROR hyphen: -x: label begins or ends with '-'",
      "ERROR disallowed: xn--ls8h: code point is disallowed (U+1F4A9)"},
     1},
    {"--profile=idna2008-lookup", {"to-ascii", "--profile=idna2008-lookup", "--", "-bücher.de"},
     {"xn---bcher-4ya.de"}, 0},
    /* The modes by name: idna2008 is the registration. */
    {"--mode=idna2008-lookup", {"to-unicode", "--mode=idna2008-lookup", "xn---bcher-4ya.de"},
     {"-bücher.de"}, 0},
    {"--mode=idna2008-registration",
     {"check", "--mode=idna2008-registration", "xn---bcher-4ya.de", "xn--ls8h.la"},
     {"ERROR hyphen: xn---bcher-4ya: label begins or ends with '-'",
      "ERROR disallowed: xn--ls8h: code point is disallowed (U+1F4A9)"},
     1},
    {"--mode=idna2008", {"check", "--mode=idna2008", "xn---bcher-4ya.de"},
     {"ERROR hyphen: xn---bcher-4ya: label begins or ends with '-'"}, 1},
    {"check --mode=idna2008-lookup", {"check", "--mode=idna2008-lookup", "xn---bcher-4ya.de"},
     {"ok"}, 0},
    /* A last label of ignored code points only is the root. */
    {"soft hyphen after the root", {"to-ascii", "example.com.\xc2\xad"}, {"example.com."}, 0},
};

static void run_operand_case(const struct operand_case *c)
{
    run_result r;

    run_cli(c->args, "", 0, &r);
    ck_assert_msg(r.status == c->status,
                  "%s: exit status %d, expected %d (stdout \"%s\", stderr \"%s\")", c->name,
                  r.status, c->status, r.out, r.err);
    expect_lines(c->name, r.out, r.out_len, c->lines);
    ck_assert_msg(r.err_len == 0, "%s: unexpected stderr \"%s\"", c->name, r.err);
    run_free(&r);
}

START_TEST(test_codec_operands)
{
    run_operand_case(&codec_cases[_i]);
}
END_TEST

START_TEST(test_check_operands)
{
    run_operand_case(&check_cases[_i]);
}
END_TEST

START_TEST(test_option_operands)
{
    run_operand_case(&option_cases[_i]);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* check --conf FILE: each name judged by a settings file's policy, as the   */
/* module judges a client's query for it.                                    */

/* A protected name, a deny and an allow entry, and mixed scripts refused
 * (by default they are only logged). */
static const char policy_conf[] = "idnguard:\n"
                                  "    protect: paypal.com\n"
                                  "    deny: blocked.example\n"
                                  "    allow: xn--pypal-4ve.net\n"
                                  "    on-mixed-script: refuse\n";

/* on-idn: refuse, Latin IDNs and names under .рф exempt. */
static const char idn_conf[] = "idnguard:\n"
                               "    on-idn: refuse\n"
                               "    idn-scripts: latin\n"
                               "    idn-suffixes: \xd1\x80\xd1\x84\n";

/** Writes text to dir/idnguard.conf; its path into path (cap octets). */
static void write_conf(const char *dir, const char *text, char *path, size_t cap)
{
    snprintf(path, cap, "%s/idnguard.conf", dir);
    t_spew_str(path, text);
}

struct policy_case {
    const char *name;
    const char *opt;      /**< NULL, or one more option */
    int conf_eq;          /**< "--conf=FILE" rather than "--conf FILE" */
    const char *input;    /**< standard input, a name a line */
    const char *lines[6]; /**< every output line (a trailing '*': a prefix) */
    const char *has[3];   /**< substrings the output holds */
    int status;
};

static const struct policy_case policy_cases[] = {
    {"protected lookalike is refused", NULL, 0, "xn--pypal-4ve.com\n",
     {"REFUSE confusable: xn--pypal-4ve: *"},
     {": looks like paypal.com. lookalike=mixed-script,confusable\n"}, 1},
    /* p<U+0430 CYRILLIC SMALL LETTER A>ypal.com as the raw UTF-8 a client
     * may send: the module judges the A-label form too (rule 5). */
    {"raw UTF-8 lookalike is refused", NULL, 1, "p\xd0\xb0ypal.com\n",
     {"REFUSE confusable: p\\208\\176ypal: *"},
     {": looks like paypal.com. lookalike=mixed-script,confusable\n"}, 1},
    {"denied name and a name below it", NULL, 0, "blocked.example\nwww.Blocked.EXAMPLE.\n",
     {"REFUSE deny", "REFUSE deny"}, {NULL}, 1},
    /* The allowed name would be refused as mixed-script without its entry,
     * as a sibling outside the list is. */
    {"allowed name and a name below it pass", NULL, 0,
     "xn--pypal-4ve.net\nwww.xn--pypal-4ve.net\n",
     {"pass allow lookalike=mixed-script", "pass allow lookalike=mixed-script"}, {NULL}, 0},
    {"on-mixed-script refuse", NULL, 0, "xn--pypal-4ve.org\n",
     {"REFUSE mixed-script: xn--pypal-4ve: *"}, {" lookalike=mixed-script\n"}, 1},
    /* A valid IDN passes; digits of two systems log (on-mixed-number's
     * default); a raw label normalizes (on-raw-8bit's). */
    {"valid names pass or log", NULL, 0,
     "xn--bcher-kva.de\nexample.com\nxn--2-izd.example\nb\xc3\xbc" "cher.de\n",
     {"ok", "ok", "log mixed-number: xn--2-izd: *", "normalize raw-8bit: b\\195\\188cher: *"},
     {" lookalike=mixed-number\n"}, 0},
    {"one rejected name among passing ones", NULL, 0,
     "example.com\r\nwww.blocked.example\nxn--bcher-kva.de",
     {"ok", "REFUSE deny", "ok"}, {NULL}, 1},
    {"text that is no name", NULL, 0, "a..b\n\n", {"ERROR empty-label: *", "ERROR empty-label: *"},
     {NULL}, 1},
    /* Emoji are pictographs, set aside by the mixed-script rule even when
     * it refuses: 💩.la and i❤.ws pass without a lookalike class; Latin
     * and Cyrillic with an emoji (pаypal💩) are still refused, and, keyed
     * with its emoji set aside too, that one is paypal.com's lookalike.
     * --mode overrides the file's mode: then the code point decides. */
    {"emoji labels are not mixed-script", NULL, 0,
     "xn--ls8h.la\nxn--i-7iq.ws\nxn--pypal-4ve79700g.com\n",
     {"ok", "ok", "REFUSE confusable: xn--pypal-4ve79700g: *"},
     {": looks like paypal.com. lookalike=mixed-script,confusable\n"}, 1},
    {"--mode overrides the mode", "--mode=idna2008", 0, "xn--ls8h.la\n",
     {"REFUSE disallowed: xn--ls8h: code point is disallowed (U+1F4A9)"}, {NULL}, 1},
    {"tsv", "--format=tsv", 0, "xn--pypal-4ve.com\nexample.com\nblocked.example\n",
     {"xn--pypal-4ve.com\trefuse\tconfusable\txn--pypal-4ve\t*",
      "example.com\tpass\tok\t\t\t\t\t\t",
      "blocked.example\trefuse\tdeny\t\t\t\t\t\tidnguard: deny"},
     {"\t\tmixed-script,confusable\tpaypal.com.\tidnguard: confusable: xn--pypal-4ve: "}, 1},
    {"json", "--format=json", 1, "xn--pypal-4ve.com\nxn--pypal-4ve.net\nblocked.example\n",
     {"{\"input\":\"xn--pypal-4ve.com\",\"status\":\"rejected\",\"action\":\"refuse\","
      "\"class\":\"confusable\",\"label\":\"xn--pypal-4ve\",\"message\":*",
      "{\"input\":\"xn--pypal-4ve.net\",\"status\":\"ok\",\"action\":\"pass\",\"class\":\"allow\","
      "\"label\":null,\"message\":null,\"codepoint\":null,\"lookalike\":\"mixed-script\","
      "\"like\":null,\"ede\":null}",
      "{\"input\":\"blocked.example\",\"status\":\"rejected\",\"action\":\"refuse\","
      "\"class\":\"deny\",\"label\":null,\"message\":null,\"codepoint\":null,\"lookalike\":null,"
      "\"like\":null,\"ede\":\"idnguard:\\u0020deny\"}"},
     {"\"codepoint\":null,\"lookalike\":\"mixed-script,confusable\",\"like\":\"paypal.com.\","
      "\"ede\":\"idnguard:\\u0020confusable:\\u0020xn--pypal-4ve:\\u0020"},
     1},
    {"json passes", "--format=json", 0, "example.com\n",
     {"{\"input\":\"example.com\",\"status\":\"ok\",\"action\":\"pass\",\"class\":\"ok\","
      "\"label\":null,\"message\":null,\"codepoint\":null,\"lookalike\":null,\"like\":null,"
      "\"ede\":null}"},
     {NULL}, 0},
};

/* Runs case c against the settings file conf. */
static void run_policy_case(const struct policy_case *c, const char *conf)
{
    char dir[256], path[300], eq[320];
    const char *args[6] = {"check", "--conf", path, c->opt, NULL, NULL};
    run_result r;
    size_t k;

    t_tmpdir_make(dir, sizeof dir, "idng-check");
    write_conf(dir, conf, path, sizeof path);
    if (c->conf_eq) {
        snprintf(eq, sizeof eq, "--conf=%s", path);
        args[1] = eq;
        args[2] = c->opt;
    }
    run_cli(args, c->input, strlen(c->input), &r);
    t_tmpdir_remove(dir);
    ck_assert_msg(r.status == c->status,
                  "%s: exit status %d, expected %d (stdout \"%s\", stderr \"%s\")", c->name,
                  r.status, c->status, r.out, r.err);
    expect_lines(c->name, r.out, r.out_len, c->lines);
    for (k = 0; k < 3 && c->has[k]; k++)
        ck_assert_msg(strstr(r.out, c->has[k]) != NULL, "%s: \"%s\" does not hold \"%s\"", c->name,
                      r.out, c->has[k]);
    ck_assert_msg(r.err_len == 0, "%s: unexpected stderr \"%s\"", c->name, r.err);
    run_free(&r);
}

START_TEST(test_check_policy)
{
    run_policy_case(&policy_cases[_i], policy_conf);
}
END_TEST

static const struct policy_case idn_cases[] = {
    /* on-idn: every IDN refused but Latin ones and those under .рф; the
     * raw spelling of a refused one is refused, of an exempt one
     * normalized; plain names are no IDNs. */
    {"on-idn refuse with exemptions", NULL, 0,
     "xn--80aafi6cg.example\nxn--bcher-kva.example\nxn--80aafi6cg.xn--p1ai\n"
     "\xd0\xbf\xd1\x80\xd0\xb0\xd0\xb2\xd0\xb4\xd0\xb0.example\n"
     "\xd0\xbf\xd1\x80\xd0\xb0\xd0\xb2\xd0\xb4\xd0\xb0.\xd1\x80\xd1\x84\nwww.example\n",
     {"REFUSE idn: xn--80aafi6cg: IDN label that idn-scripts and idn-suffixes do not exempt",
      "ok", "ok", "REFUSE idn: \\208\\191\\209\\128\\208\\176\\208\\178\\208\\180\\208\\176: *",
      "normalize raw-8bit: *", "ok"},
     {NULL}, 1},
    {"on-idn tsv", "--format=tsv", 1, "xn--80aafi6cg.example\nxn--bcher-kva.example\n",
     {"xn--80aafi6cg.example\trefuse\tidn\txn--80aafi6cg\t*", "xn--bcher-kva.example\tpass\tok\t*"},
     {"\tidnguard: idn: xn--80aafi6cg: IDN label that idn-scripts and idn-suffixes do not exempt"},
     1},
};

START_TEST(test_check_idn)
{
    run_policy_case(&idn_cases[_i], idn_conf);
}
END_TEST

/* A settings file that does not load: its errors as check-conf prints
 * them, naming the file, exit status 2 and no line judged.  Warnings go to
 * standard error and the names are judged. */
struct conf_file_case {
    const char *name;
    const char *text;   /**< the file; NULL: there is none */
    const char *after;  /**< standard error begins with the path, then this */
    const char *out;    /**< all of standard output */
    int status;
};

static const struct conf_file_case conf_file_cases[] = {
    {"settings file that does not parse", "idnguard:\n    on-confusable: maybe\n",
     ":2: bad value 'maybe' for 'on-confusable'", "", 2},
    {"no settings file", NULL, ": cannot open: No such file or directory\n", "", 2},
    {"settings file with a warning",
     "idnguard:\n    deny: 10.0.0.1\n", ":2: warning: deny name '10.0.0.1.' looks like",
     "REFUSE deny\nok\n", 1},
};

START_TEST(test_check_conf_file)
{
    const struct conf_file_case *c = &conf_file_cases[_i];
    char dir[256], path[300];
    const char *args[] = {"check", "--conf", path, NULL};
    run_result r;

    t_tmpdir_make(dir, sizeof dir, "idng-check");
    if (c->text)
        write_conf(dir, c->text, path, sizeof path);
    else
        snprintf(path, sizeof path, "%s/none.conf", dir);
    run_cli(args, "10.0.0.1\nexample.com\n", strlen("10.0.0.1\nexample.com\n"), &r);
    t_tmpdir_remove(dir);
    ck_assert_msg(r.status == c->status, "%s: exit status %d, expected %d (stderr \"%s\")",
                  c->name, r.status, c->status, r.err);
    ck_assert_msg(strcmp(r.out, c->out) == 0, "%s: stdout \"%s\", expected \"%s\"", c->name, r.out,
                  c->out);
    ck_assert_msg(strncmp(r.err, path, strlen(path)) == 0
                      && strncmp(r.err + strlen(path), c->after, strlen(c->after)) == 0,
                  "%s: stderr \"%s\" does not begin \"%s%s\"", c->name, r.err, path, c->after);
    run_free(&r);
}
END_TEST

/* $IDNGUARD_CONF names the module's file; check reads a settings file only
 * when --conf names one. */
START_TEST(test_check_ignores_conf_env)
{
    char dir[256], path[300];
    const char *args[] = {"check", "xn--pypal-4ve.com", "blocked.example", NULL};
    run_result r;

    t_tmpdir_make(dir, sizeof dir, "idng-check");
    write_conf(dir, policy_conf, path, sizeof path);
    ck_assert(setenv("IDNGUARD_CONF", path, 1) == 0);
    run_cli(args, "", 0, &r);
    unsetenv("IDNGUARD_CONF");
    t_tmpdir_remove(dir);
    ck_assert_msg(r.status == 0, "exit status %d (stdout \"%s\")", r.status, r.out);
    ck_assert_msg(strcmp(r.out, "ok\nok\n") == 0, "stdout \"%s\"", r.out);
    ck_assert_msg(r.err_len == 0, "stderr \"%s\"", r.err);
    run_free(&r);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* explain: why the module blocks a name, or does not.                       */

/* The settings explain is run with: each line a rule the cases name by its
 * line number; the protect-file's second line is a name too. */
static const char explain_conf[] = "idnguard:\n"
                                   "    protect: paypal.com\n"
                                   "    deny: blocked.example\n"
                                   "    allow: xn--pypal-4ve.net\n"
                                   "    on-contextj: nxdomain\n"
                                   "    protect-file: @DIR@/names.txt\n";

struct explain_case {
    const char *name;
    const char *item;
    const char *lines[9]; /**< every line; @CONF@ and @DIR@ stand for the paths */
    int status;
};

static const struct explain_case explain_cases[] = {
    {"valid IDN", "xn--bcher-kva.example",
     {"name: xn--bcher-kva.example. (bücher.example.)", "given as: xn--bcher-kva.example",
      "label 1: xn--bcher-kva: valid", "label 2: example: valid", "verdict: ok",
      "action: pass: nothing in the settings objects to the name",
      "answer: the resolver's own, as the name resolves (the names in it are judged too)",
      "log: - xn--bcher-kva.example. (bücher.example.) A IN NOERROR ok pass resolved"},
     0},
    /* A joiner out of place: on-contextj's line decides. */
    {"invalid A-label", "xn--ab-m1t.example",
     {"name: xn--ab-m1t.example.",
      "label 1: xn--ab-m1t: contextj (nxdomain): joiner not allowed here (RFC 5892 A.1, A.2) "
      "(U+200D); lookalike: mixed-script (log)",
      "label 2: example: valid",
      "verdict: contextj: xn--ab-m1t: joiner not allowed here (RFC 5892 A.1, A.2) (U+200D) "
      "lookalike=mixed-script",
      "action: nxdomain, by on-contextj at @CONF@:5",
      "answer: NXDOMAIN, EDE 15 (Blocked) \"idnguard: contextj: xn--ab-m1t: joiner not allowed "
      "here (RFC 5892 A.1, A.2)\"",
      "log: - xn--ab-m1t.example. A IN NXDOMAIN contextj:xn--ab-m1t nxdomain policy ede=15 "
      "lookalike=mixed-script"},
     1},
    /* A class no line sets follows on-invalid, which no line sets either. */
    {"class that follows on-invalid", "xn--1-0hc.example",
     {"name: xn--1-0hc.example.", "given as: xn--1-0hc.example", "label 1: xn--1-0hc: bidi (refuse): *",
      "label 2: example: valid", "verdict: bidi: xn--1-0hc: *",
      "action: refuse, by on-invalid (default); on-bidi is not set",
      "answer: REFUSED, EDE 15 (Blocked) \"idnguard: bidi: xn--1-0hc: *",
      "log: - xn--1-0hc.example. A IN REFUSED bidi:xn--1-0hc refuse policy ede=15"},
     1},
    /* p<Cyrillic a>ypal.com: never shown in Unicode. */
    {"confusable of a protected name", "xn--pypal-4ve.com",
     {"name: xn--pypal-4ve.com.",
      "label 1: xn--pypal-4ve: valid; lookalike: mixed-script (log), confusable (refuse)",
      "label 2: com: valid",
      "verdict: confusable: xn--pypal-4ve: name is confusable with a protected name (UTS #39 "
      "section 4): looks like paypal.com. lookalike=mixed-script,confusable",
      "looks like: paypal.com. (protect at @CONF@:2)",
      "action: refuse, by on-confusable (default)",
      "answer: REFUSED, EDE 15 (Blocked) \"idnguard: confusable: xn--pypal-4ve: name is "
      "confusable with a protected name (UTS #39 section 4): looks like paypal.com.\"",
      "log: - xn--pypal-4ve.com. A IN REFUSED confusable:xn--pypal-4ve refuse policy ede=15 "
      "lookalike=mixed-script,confusable"},
     1},
    /* bаnk.example (Cyrillic a) looks like the protect-file's second name. */
    {"confusable of a protect-file name", "xn--bnk-6cd.example",
     {"name: xn--bnk-6cd.example.", "label 1: xn--bnk-6cd: valid; lookalike: *",
      "label 2: example: valid", "verdict: confusable: xn--bnk-6cd: *",
      "looks like: bank.example. (protect-file @DIR@/names.txt:2)",
      "action: refuse, by on-confusable (default)", "answer: REFUSED, EDE 15 (Blocked) *",
      "log: - xn--bnk-6cd.example. A IN REFUSED confusable:xn--bnk-6cd refuse policy *"},
     1},
    {"denied name", "www.blocked.example",
     {"name: www.blocked.example.", "given as: www.blocked.example", "label 1: www: valid",
      "label 2: blocked: valid", "label 3: example: valid", "verdict: deny",
      "action: refuse, by deny blocked.example. at @CONF@:3; with on-invalid's action (default)",
      "answer: REFUSED, EDE 15 (Blocked) \"idnguard: deny\"",
      "log: - www.blocked.example. A IN REFUSED deny refuse policy ede=15"},
     1},
    /* Mixed scripts, but listed: the list decides, the labels have no action. */
    {"allowed name", "xn--pypal-4ve.net",
     {"name: xn--pypal-4ve.net.", "label 1: xn--pypal-4ve: valid; lookalike: mixed-script",
      "label 2: net: valid", "verdict: allow lookalike=mixed-script",
      "action: pass, by allow xn--pypal-4ve.net. at @CONF@:4",
      "answer: the resolver's own, as the name resolves (the names in it are judged too)",
      "log: - xn--pypal-4ve.net. A IN NOERROR allow pass resolved lookalike=mixed-script"},
     0},
    /* UTF-8 as a client may send it: the module resolves its A-label form. */
    {"raw UTF-8 name", "b\xc3\xbc" "cher.example",
     {"name: b\\195\\188cher.example.", "given as: b\xc3\xbc" "cher.example",
      "label 1: b\\195\\188cher: raw-8bit (normalize): label holds octets >= 0x80; its A-label "
      "is xn--bcher-kva",
      "label 2: example: valid", "verdict: raw-8bit: b\\195\\188cher: label holds octets >= 0x80",
      "action: normalize, by on-raw-8bit (default)",
      "answer: a CNAME to xn--bcher-kva.example., then that name's answer (it is judged as a "
      "query of its own)",
      "log: - b\\195\\188cher.example. A IN NOERROR raw-8bit:b\\195\\188cher normalize resolved "
      "target=xn--bcher-kva.example."},
     0},
};

/* s with @CONF@ and @DIR@ replaced, into out. */
static void substitute(const char *s, const char *conf, const char *dir, char *out, size_t cap)
{
    size_t o = 0;

    while (*s && o + 1 < cap) {
        const char *with = strncmp(s, "@CONF@", 6) == 0 ? conf
                           : strncmp(s, "@DIR@", 5) == 0 ? dir
                                                         : NULL;
        if (with) {
            o += (size_t)snprintf(out + o, cap - o, "%s", with);
            s += with == conf ? 6 : 5;
        } else {
            out[o++] = *s++;
        }
    }
    out[o < cap ? o : cap - 1] = '\0';
}

/* The explain settings in a fresh directory: dir, and the file's path. */
static void explain_setup(char *dir, size_t dcap, char *path, size_t pcap)
{
    char text[1024], names[600];

    t_tmpdir_make(dir, dcap, "idng-explain");
    snprintf(names, sizeof names, "%s/names.txt", dir);
    t_spew_str(names, "# ours\nbank.example\n");
    substitute(explain_conf, "", dir, text, sizeof text);
    write_conf(dir, text, path, pcap);
}

/* Each case twice: with --conf, and with $IDNGUARD_CONF naming the file
 * (the file the module reads) and no --conf. */
START_TEST(test_explain)
{
    const struct explain_case *c = &explain_cases[_i / 2];
    char dir[256], path[300], want[9][1024];
    const char *args[5] = {"explain", "--conf", path, c->item, NULL};
    const char *lines[10];
    run_result r;
    size_t k;

    explain_setup(dir, sizeof dir, path, sizeof path);
    if (_i % 2) {
        ck_assert(setenv("IDNGUARD_CONF", path, 1) == 0);
        args[1] = c->item;
        args[2] = NULL;
    }
    run_cli(args, "", 0, &r);
    unsetenv("IDNGUARD_CONF");
    for (k = 0; k < 9 && c->lines[k]; k++) {
        substitute(c->lines[k], path, dir, want[k], sizeof want[k]);
        lines[k] = want[k];
    }
    lines[k] = NULL;
    t_tmpdir_remove(dir);
    ck_assert_msg(r.status == c->status, "%s: exit status %d, expected %d (stdout \"%s\", "
                  "stderr \"%s\")", c->name, r.status, c->status, r.out, r.err);
    expect_lines(c->name, r.out, r.out_len, lines);
    ck_assert_msg(r.err_len == 0, "%s: unexpected stderr \"%s\"", c->name, r.err);
    run_free(&r);
}
END_TEST

/* Several names: a blank line between them; JSON: one object a name. */
START_TEST(test_explain_many)
{
    char dir[256], path[300], want[600];
    const char *args[5] = {"explain", "--conf", path, NULL, NULL};
    run_result r;

    explain_setup(dir, sizeof dir, path, sizeof path);
    run_cli(args, "example.com\na..b\nwww.blocked.example\n", 37, &r);
    ck_assert_msg(r.status == 1, "exit status %d", r.status);
    ck_assert_msg(strncmp(r.out, "name: example.com.\n", 19) == 0, "%s", r.out);
    ck_assert_msg(strstr(r.out, "\nlog: - example.com. A IN NOERROR ok pass resolved\n\n"
                                "ERROR empty-label: empty label\n\nname: www.blocked.example.\n")
                      != NULL,
                  "%s", r.out);
    run_free(&r);
    args[3] = "--format=json";
    run_cli(args, "xn--pypal-4ve.com\nexample.com\n", 30, &r);
    ck_assert_int_eq(r.status, 1);
    ck_assert_uint_eq(count_lines(r.out, r.out_len), 2);
    snprintf(want, sizeof want,
             "\"like\":\"paypal.com.\",\"like_origin\":\"protect\\u0020at\\u0020%s:2\","
             "\"rule\":\"on-confusable\",\"entry\":null,\"origin\":\"default\"",
             path);
    ck_assert_msg(strstr(r.out, want) != NULL, "%s does not hold %s", r.out, want);
    {
        static const char head[] = "{\"input\":\"xn--pypal-4ve.com\",\"status\":\"rejected\",";
        ck_assert_msg(strncmp(r.out, head, sizeof head - 1) == 0, "%s", r.out);
    }
    run_free(&r);
    t_tmpdir_remove(dir);
}
END_TEST

/* A settings file that does not load, none at all, and usage errors: exit
 * status 2, nothing judged. */
START_TEST(test_explain_errors)
{
    char dir[256], path[300];
    const char *args[5] = {"explain", "--conf", path, "example.com", NULL};
    const char *noconf[3] = {"explain", "example.com", NULL};
    const char *frob[4] = {"explain", "--frob", "example.com", NULL};
    const char *tsv[4] = {"explain", "--format=tsv", "example.com", NULL};
    run_result r;

    t_tmpdir_make(dir, sizeof dir, "idng-explain");
    snprintf(path, sizeof path, "%s/none.conf", dir);
    run_cli(args, "", 0, &r);
    ck_assert_msg(r.status == 2 && r.out_len == 0 && strncmp(r.err, path, strlen(path)) == 0
                      && strstr(r.err, ": cannot open: ") != NULL,
                  "status %d, stderr \"%s\"", r.status, r.err);
    run_free(&r);
    /* $IDNGUARD_CONF names the file, as for the module. */
    ck_assert(setenv("IDNGUARD_CONF", path, 1) == 0);
    run_cli(noconf, "", 0, &r);
    unsetenv("IDNGUARD_CONF");
    ck_assert_msg(r.status == 2 && r.out_len == 0 && strncmp(r.err, path, strlen(path)) == 0,
                  "status %d, stderr \"%s\"", r.status, r.err);
    run_free(&r);
    write_conf(dir, "idnguard:\n    on-bidi: reject\n", path, sizeof path);
    run_cli(args, "", 0, &r);
    ck_assert_msg(r.status == 2 && r.out_len == 0 && strstr(r.err, ":2: bad value 'reject'"),
                  "status %d, stderr \"%s\"", r.status, r.err);
    run_free(&r);
    t_tmpdir_remove(dir);
    run_cli(frob, "", 0, &r);
    ck_assert_msg(r.status == 2 && r.out_len == 0
                      && strstr(r.err, "idnguard explain: unknown option '--frob'"),
                  "status %d, stderr \"%s\"", r.status, r.err);
    run_free(&r);
    run_cli(tsv, "", 0, &r);
    ck_assert_msg(r.status == 2 && r.out_len == 0 && strstr(r.err, "--format=tsv"),
                  "status %d, stderr \"%s\"", r.status, r.err);
    run_free(&r);
}
END_TEST

/* The JSON value of key in line (a string with its quotes, or null): the
 * first one, which in both commands' objects is the name's own. */
static void json_value(const char *line, const char *key, char *out, size_t cap)
{
    char k[64];
    const char *at, *end;

    snprintf(k, sizeof k, ",\"%s\":", key);
    at = strstr(line, k);
    ck_assert_msg(at != NULL, "no %s in %s", key, line);
    at += strlen(k);
    if (*at == '"') {
        for (end = at + 1; *end && !(*end == '"' && end[-1] != '\\'); end++)
            ;
        end++;
    } else {
        end = at + strcspn(at, ",}");
    }
    ck_assert((size_t)(end - at) < cap);
    memcpy(out, at, (size_t)(end - at));
    out[end - at] = '\0';
}

/* check --conf and explain say the same of every name: the judgment is one
 * call.  The browser cases' hosts (tests/core/data), their top domains
 * protected, and raw UTF-8 spellings of some. */
START_TEST(test_explain_agrees_with_check)
{
    static const char *const keys[] = {"status", "action", "class", "label", "message",
                                       "codepoint", "lookalike", "like", "ede"};
    char dir[256], path[300], cwd[512], text[1024];
    const char *check_args[6] = {"check", "--conf", path, "--format=json", NULL};
    const char *explain_args[6] = {"explain", "--conf", path, "--format=json", NULL};
    buf in = {NULL, 0, 0};
    char *cases = t_slurp("tests/core/data/browser_idn_cases.txt", NULL), *line, *save = NULL;
    run_result rc, re;
    const char *pc, *pe;
    size_t n = 0, k;

    ck_assert_msg(cases != NULL, "tests/core/data/browser_idn_cases.txt (run from the "
                                 "repository root)");
    ck_assert(getcwd(cwd, sizeof cwd) != NULL);
    t_tmpdir_make(dir, sizeof dir, "idng-explain");
    snprintf(text, sizeof text,
             "idnguard:\n    protect-file: %s/tests/core/data/browser_top_domains.txt\n"
             "    deny: xn--80ak6aa92e.com\n    allow: xn--bcher-kva.de\n", cwd);
    write_conf(dir, text, path, sizeof path);
    for (line = strtok_r(cases, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *host, *tab;
        if (line[0] == '#' || (tab = strchr(line, '\t')) == NULL)
            continue;
        host = tab + 1;
        if ((tab = strchr(host, '\t')) != NULL)
            *tab = '\0';
        buf_printf(&in, "%s\n", host);
        n++;
    }
    free(cases);
    buf_printf(&in, "%s", "b\xc3\xbc" "cher.de\np\xd0\xb0ypal.com\nwww.\xd0\xb0pple.com\n");
    n += 3;
    ck_assert_uint_ge(n, 300);
    run_cli(check_args, in.data, in.len, &rc);
    run_cli(explain_args, in.data, in.len, &re);
    t_tmpdir_remove(dir);
    ck_assert_int_eq(rc.status, re.status);
    ck_assert_uint_eq(count_lines(rc.out, rc.out_len), n);
    ck_assert_uint_eq(count_lines(re.out, re.out_len), n);
    for (pc = rc.out, pe = re.out; *pc; pc = strchr(pc, '\n') + 1, pe = strchr(pe, '\n') + 1) {
        char lc[8192], le[16384], vc[4096], ve[4096];
        size_t nc = (size_t)(strchr(pc, '\n') - pc), ne = (size_t)(strchr(pe, '\n') - pe);
        ck_assert(nc < sizeof lc && ne < sizeof le);
        memcpy(lc, pc, nc);
        lc[nc] = '\0';
        memcpy(le, pe, ne);
        le[ne] = '\0';
        if (strstr(lc, "\"status\":\"error\"")) { /* no name: the same error object */
            ck_assert_str_eq(lc, le);
            continue;
        }
        for (k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            json_value(lc, keys[k], vc, sizeof vc);
            json_value(le, keys[k], ve, sizeof ve);
            ck_assert_msg(strcmp(vc, ve) == 0, "%s: check says %s, explain %s\n  %s\n  %s",
                          keys[k], vc, ve, lc, le);
        }
    }
    free(in.data);
    run_free(&rc);
    run_free(&re);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* encode --case | decode --case gives the input back.                       */

static const char *const case_words[] = {
    "Bücher", "BÜCHER", "bÜcher", "München", "MÜNCHEN", "ÄÖÜ", "ПРИВЕТ-Мир", "ΣΊΣΥΦΟΣ",
    "3年B組金八先生", "安室奈美恵-with-SUPER-MONKEYS", "Ünïcödé", "CamelCase",
};

START_TEST(test_case_roundtrip)
{
    const char *word = case_words[_i];
    const char *enc_args[] = {"encode", "--case", "--", word, NULL};
    char encoded[256];
    /* "--": an encoded label may itself begin with "--" ("ПРИВЕТ-Мир"). */
    const char *dec_args[] = {"decode", "--case", "--format=json", "--", encoded, NULL};
    char want[1024];
    run_result r;
    size_t i, n;
    int upper = 0;

    run_cli(enc_args, "", 0, &r);
    ck_assert_msg(r.status == 0, "encode --case %s: exit status %d (%s)", word, r.status, r.out);
    ck_assert_msg(r.out_len > 1 && r.out[r.out_len - 1] == '\n'
                      && count_lines(r.out, r.out_len) == 1,
                  "encode --case %s: not one line: \"%s\"", word, r.out);
    ck_assert(r.out_len < sizeof encoded);
    memcpy(encoded, r.out, r.out_len - 1);
    encoded[r.out_len - 1] = '\0';
    for (i = 0; encoded[i] != '\0'; i++) {
        ck_assert_msg((unsigned char)encoded[i] < 0x80, "encode --case %s: non-ASCII output",
                      word);
        upper |= encoded[i] >= 'A' && encoded[i] <= 'Z';
    }
    ck_assert_msg(upper, "encode --case %s: \"%s\" carries no uppercase annotation", word,
                  encoded);
    run_free(&r);

    /* JSON gives the code points exactly (text escapes the uppercase
     * ones): the output string is the word, escaped by the log's escaper. */
    n = (size_t)snprintf(want, sizeof want, "{\"input\":\"%s\",\"status\":\"ok\",\"output\":\"",
                         encoded);
    ck_assert(n + 6 * strlen(word) + 3 < sizeof want);
    n += idng_json_escape((const unsigned char *)word, strlen(word), want + n);
    memcpy(want + n, "\"}\n", 4);
    run_cli(dec_args, "", 0, &r);
    ck_assert_msg(r.status == 0, "decode --case %s: exit status %d (%s)", encoded, r.status,
                  r.out);
    ck_assert_msg(strcmp(r.out, want) == 0, "decode --case %s: \"%s\", expected \"%s\"", encoded,
                  r.out, want);
    run_free(&r);
}
END_TEST

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
     {"bücher.example.", "ERROR empty-label: *", "ERROR bidi: xn--1-0hc: *", "💩.la",
      "bücher.de"},
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
     {"paypal.corn", "paypal.corn.", "ERROR bad-punycode: xn--zz: *",
      "\xd8\xa8\\046.exarnple", "ERROR empty-label: *"},
     1},
    {"restriction stdin",
     {"restriction", "--format=text"},
     "xn--pypal-4ve.com\npaypal.com\r\n_dmarc.*.example\nxn--aypal-i4k\n"
     "\xe4\xb8\xad\xe6\x96\x87.com\nxn--ls8h.la\na\xe4\xb8\xad\xe3\x81\x8b",
     {"minimally-restrictive", "ascii-only", "ascii-only", "moderately-restrictive",
      "single-script", "unrestricted", "highly-restrictive"},
     0},
    {"restriction --mode=idna2008", {"restriction", "--mode=idna2008"}, "xn--ls8h.la\n",
     {"ERROR disallowed: xn--ls8h: *"}, 1},
    {"skeleton tsv", {"skeleton", "--format=tsv"}, "\xd8\xa8\xd9\xa0.example\n",
     {"\xd8\xa8\xd9\xa0.example\tok\t\xd8\xa8\\046.exarnple"}, 0},
    {"restriction json", {"restriction", "--format=json"}, "xn--pypal-4ve.com\n",
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
    {"check json stdin", {"check", "--format=json"}, "xn--ls8h.la\r\n-x\n",
     {"{\"input\":\"xn--ls8h.la\",\"status\":\"ok\"}", "{\"input\":\"-x\",\"status\":\"ok\"}"}, 0},
};

START_TEST(test_stream)
{
    const struct stream_case *c = &stream_cases[_i];
    run_result r;

    run_cli(c->args, c->input, strlen(c->input), &r);
    ck_assert_msg(r.status == c->status, "%s: exit status %d, expected %d (stdout \"%s\")",
                  c->name, r.status, c->status, r.out);
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
    const char *next_in;   /**< the line after it */
    const char *next_out;  /**< and its output */
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
                  "%s: first line \"%.60s\" does not start \"%s\"", c->cmd, r.out,
                  c->error_prefix);
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
    const char *opt;   /**< NULL, or one option */
    const char *input; /**< one line, without its newline */
    size_t input_len;  /**< 0: strlen(input) */
    const char *prefix;   /**< the line starts with it */
    const char *contains; /**< NULL, or a substring the line must hold */
};

static const struct escape_case escape_cases[] = {
    {"check ESC before xn--", "check", NULL, "a\x1b[31mb.xn--", 0, "ERROR empty-label: xn--: ", NULL},
    {"to-ascii ESC before xn--", "to-ascii", NULL, "a\x1b[31mb.xn--", 0,
     "ERROR empty-label: xn--: ", NULL},
    {"check ESC in A-label", "check", NULL, "xn--a\x1b[31mb.de", 0, "ERROR bad-punycode: ",
     "xn--a\\027[31mb: "},
    {"to-unicode ESC in A-label", "to-unicode", NULL, "xn--a\x1b[31mb.de", 0,
     "ERROR ", "xn--a\\027[31mb: "},
    {"to-ascii ESC, DEL and backslash in U-label", "to-ascii", NULL,
     "\xc3\xbc\x1b[31m\x7f\\b.de", 0, "ERROR disallowed: ",
     "ü\\027[31m\\127\\092b: "},
    {"to-ascii --strict ESC in ASCII label", "to-ascii", "--strict", "A\x1b[31mb.example", 0,
     "ERROR disallowed: A\\027[31mb: ", NULL},
    {"check raw 8-bit with SOH", "check", NULL, "b\xc3\xbc\x01" "cher.de", 0, "ERROR raw-8bit: ",
     "bü\\001cher: "},
    {"check NUL in A-label", "check", NULL, "xn--a\0b.de", 10, "ERROR bad-punycode: ",
     "xn--a\\000b: "},
    {"check bell and tab", "check", NULL, "xn--\a\tb", 0, "ERROR bad-punycode: ",
     "xn--\\007\\009b: "},
    {"to-unicode bad UTF-8 and ESC", "to-unicode", NULL, "\x1b\xff.xn--x", 0,
     "ERROR bad-utf8: ", "\\027\\255: "},
    {"check CR inside the line", "check", NULL, "xn--a\rb.de", 0, "ERROR bad-punycode: ",
     "xn--a\\013b: "},
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
    ck_assert_msg(r.out_len > 0 && r.out[r.out_len - 1] == '\n', "%s: no final newline",
                  c->name);
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

/* ------------------------------------------------------------------------ */
/* Usage errors and --help.                                                  */

struct usage_case {
    const char *name;
    const char *args[MAX_ARGS + 1];
    const char *stderr_has; /**< substring of standard error */
};

static const struct usage_case usage_cases[] = {
    {"no command", {NULL}, "usage:"},
    {"unknown command", {"frob", "x"}, "unknown command 'frob'"},
    {"unknown command looks like an option", {"--frob"}, "unknown command"},
    {"unknown option", {"check", "--frob", "x"}, "unknown option '--frob'"},
    {"bogus mode", {"check", "--mode=bogus", "x"}, "unknown mode 'bogus'"},
    {"empty mode", {"to-ascii", "--mode=", "x"}, "unknown mode"},
    {"to-unicode bogus mode", {"to-unicode", "--mode=bogus", "x"}, "unknown mode"},
    {"encode has no --mode", {"encode", "--mode=uts46", "x"}, "unknown option"},
    {"decode has no --strict", {"decode", "--strict", "x"}, "unknown option"},
    {"check has no --strict", {"check", "--strict", "x"}, "unknown option"},
    {"to-ascii has no --case", {"to-ascii", "--case", "x"}, "unknown option"},
    /* A short option is an option, never a name: -m was judged as one. */
    {"check -m", {"check", "-m", "idna2008", "x"},
     "idnguard check: unknown option '-m' (idnguard check --help; an item that begins with "
     "'-' goes after '--')\n"},
    {"unknown option after an item", {"check", "x", "--frob"},
     "idnguard check: unknown option '--frob' (idnguard check --help; an item that begins "
     "with '-' goes after '--')\n"},
    {"item that begins with -", {"decode", "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"},
     "unknown option '-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n'"},
    {"lone -", {"check", "-"},
     "idnguard check: '-' is not an item (without items, standard input is read; an item "
     "'-' goes after '--')\n"},
    {"--mode without a value", {"to-ascii", "--mode", "uts46", "x"},
     "idnguard to-ascii: option '--mode' needs a value: --mode=M\n"},
    {"flag with a value", {"to-ascii", "--strict=1", "x"}, "unknown option '--strict=1'"},
    {"bogus format", {"check", "--format=xml", "x"},
     "idnguard check: unknown format 'xml' (text, tsv, json)\n"},
    {"bogus profile", {"to-ascii", "--profile=browser", "x"},
     "idnguard to-ascii: unknown profile 'browser' (dns, whatwg, idna2008-registration, "
     "idna2008-lookup)\n"},
    {"check has no --transitional", {"check", "--transitional", "x"}, "unknown option"},
    {"encode has no --profile", {"encode", "--profile=dns", "x"}, "unknown option"},
    {"stats has no --format", {"stats", "--format=json", "f"}, "unknown option"},
    {"check --conf without a value", {"check", "--conf"},
     "idnguard check: option '--conf' needs a value: --conf FILE\n"},
    {"check --conf= empty", {"check", "--conf=", "x"},
     "idnguard check: option '--conf=' needs a value: --conf FILE\n"},
    /* An option after --conf is not its file. */
    {"check --conf then an option", {"check", "--conf", "--format=json", "x"},
     "idnguard check: option '--conf' needs a value: --conf FILE\n"},
    {"to-ascii has no --conf", {"to-ascii", "--conf=x", "y"}, "unknown option '--conf=x'"},
    {"bogus mode names the modes", {"check", "--mode=idna2003", "x"},
     "idnguard check: unknown mode 'idna2003' (uts46, idna2008-lookup, idna2008-registration, "
     "idna2008, punycode)\n"},
};

START_TEST(test_usage_errors)
{
    const struct usage_case *c = &usage_cases[_i];
    run_result r;

    /* Input is offered, but a usage error must not consume or judge it. */
    run_cli(c->args, "xn--\n", 5, &r);
    ck_assert_msg(r.status == 2, "%s: exit status %d, expected 2", c->name, r.status);
    ck_assert_msg(r.out_len == 0, "%s: unexpected stdout \"%s\"", c->name, r.out);
    ck_assert_msg(strstr(r.err, c->stderr_has) != NULL, "%s: stderr \"%s\" does not hold \"%s\"",
                  c->name, r.err, c->stderr_has);
    run_free(&r);
}
END_TEST

/* --help: the whole usage, or one command's (its options and no other's),
 * on stdout with status 0, wherever it stands before "--". */
struct help_case {
    const char *name;
    const char *args[MAX_ARGS + 1];
    const char *first_line;
    const char *has[4];  /**< substrings the text holds */
    const char *lacks;   /**< NULL, or a substring it must not hold */
};

static const struct help_case help_cases[] = {
    {"--help", {"--help"}, "usage: idnguard COMMAND [OPTIONS] [ITEM...]",
     {"to-ascii [NAME...]", "check-conf [FILE]", "idnguard COMMAND --help"}, NULL},
    {"-h", {"-h"}, "usage: idnguard COMMAND [OPTIONS] [ITEM...]", {"decode [LABEL...]"}, NULL},
    {"help", {"help"}, "usage: idnguard COMMAND [OPTIONS] [ITEM...]", {"stats FILE"}, NULL},
    {"check --help", {"check", "--help"}, "usage: idnguard check [OPTIONS] [NAME...]",
     {"  --mode=M ", "  --format=F ", "idna2008-lookup", "'-' alone is an error"}, "--case"},
    /* It printed "ok" before: -h was taken for a name. */
    {"check -h", {"check", "-h"}, "usage: idnguard check [OPTIONS] [NAME...]", {"--mode=M"},
     "--strict"},
    {"check NAME --help", {"check", "xn--", "--help"}, "usage: idnguard check [OPTIONS] [NAME...]",
     {"--format=F"}, NULL},
    {"encode --help", {"encode", "--case", "--help"}, "usage: idnguard encode [OPTIONS] [LABEL...]",
     {"  --case ", "--format=F"}, "--mode"},
    {"to-ascii --help", {"to-ascii", "--help", "xn--"}, "usage: idnguard to-ascii [OPTIONS] [NAME...]",
     {"  --transitional ", "  --no-std3 ", "  --profile=P ", "  --check-contexto "}, "--case"},
    {"to-unicode --help", {"to-unicode", "--help"}, "usage: idnguard to-unicode [OPTIONS] [NAME...]",
     {"  --no-check-hyphens ", "  --no-dns-length ", "  --no-bidi ", "  --no-joiners "}, NULL},
    {"stats --help", {"stats", "--help"}, "usage: idnguard stats [OPTIONS] FILE", {"--help"},
     "--format"},
    {"check --help states --conf", {"check", "--help"}, "usage: idnguard check [OPTIONS] [NAME...]",
     {"  --conf FILE ", "(REFUSE,\n  NXDOMAIN, DROP)", "[ lookalike=<classes>]",
      "\"status\":\"ok\" or \"rejected\""},
     NULL},
    {"to-ascii --help has no --conf", {"to-ascii", "--help"},
     "usage: idnguard to-ascii [OPTIONS] [NAME...]", {"--format=F"}, "--conf"},
};

START_TEST(test_help)
{
    const struct help_case *c = &help_cases[_i];
    const char *nl;
    run_result r;
    size_t k;

    run_cli(c->args, "xn--\n", 5, &r);
    ck_assert_msg(r.status == 0, "%s: exit status %d, expected 0", c->name, r.status);
    nl = strchr(r.out, '\n');
    ck_assert_msg(nl != NULL && (size_t)(nl - r.out) == strlen(c->first_line)
                      && strncmp(r.out, c->first_line, strlen(c->first_line)) == 0,
                  "%s: stdout \"%.60s\" does not begin with the line \"%s\"", c->name, r.out,
                  c->first_line);
    for (k = 0; k < 4 && c->has[k]; k++)
        ck_assert_msg(strstr(r.out, c->has[k]) != NULL, "%s: help text lacks \"%s\"", c->name,
                      c->has[k]);
    if (c->lacks)
        ck_assert_msg(strstr(r.out, c->lacks) == NULL, "%s: help text holds \"%s\"", c->name,
                      c->lacks);
    ck_assert_msg(r.err_len == 0, "%s: unexpected stderr \"%s\"", c->name, r.err);
    run_free(&r);
}
END_TEST

/* The version: idnguard's first, then the Unicode of the tables. */
START_TEST(test_version)
{
    static const char *const args[][2] = {{"--version", NULL}, {"version", NULL}};
    run_result r;

    run_cli(args[_i], "", 0, &r);
    ck_assert_msg(r.status == 0, "%s: exit status %d", args[_i][0], r.status);
    ck_assert_msg(strncmp(r.out, "idnguard " IDNG_VERSION "\nUnicode " IDNG_UNICODE_VERSION "\n",
                          strlen("idnguard " IDNG_VERSION "\nUnicode " IDNG_UNICODE_VERSION "\n"))
                      == 0,
                  "%s: stdout \"%s\"", args[_i][0], r.out);
    ck_assert_msg(r.err_len == 0, "%s: stderr \"%s\"", args[_i][0], r.err);
    run_free(&r);
}
END_TEST

START_TEST(test_bin_set)
{
    /* Fails with a clear message when IDNGUARD_BIN is missing. */
    (void)cli_path();
}
END_TEST

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

/*
 * A co-process: one line in, and its answer must come out while standard
 * input stays open (the CLI may buffer output, but never while it waits
 * for more input).  Three rounds, each answered within RUN_TIMEOUT_S.
 */
START_TEST(test_coprocess)
{
    static const char *const in[] = {"xn--bcher-kva.de\n", "xn--a.de\n", "example.com\n"};
    static const char *const want[] = {"bücher.de\n", "ERROR ",
                                       "example.com\n"};
    const char *bin = cli_path();
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

static Suite *cli_suite(void)
{
    Suite *s = suite_create("cli");
    TCase *tc;

    tc = tcase_create("setup");
    tcase_add_test(tc, test_bin_set);
    suite_add_tcase(s, tc);
    if (getenv("IDNGUARD_BIN") == NULL) {
        /* One clear failure instead of one per test. */
        fputs("test_cli: IDNGUARD_BIN is not set; "
              "run as IDNGUARD_BIN=build/idnguard build/tests/cli/test_cli\n",
              stderr);
        return s;
    }

    tc = tcase_create("operands");
    tcase_add_loop_test(tc, test_codec_operands, 0, N_OF(codec_cases));
    tcase_add_loop_test(tc, test_check_operands, 0, N_OF(check_cases));
    tcase_add_loop_test(tc, test_option_operands, 0, N_OF(option_cases));
    tcase_add_loop_test(tc, test_case_roundtrip, 0, N_OF(case_words));
    suite_add_tcase(s, tc);

    tc = tcase_create("check --conf");
    tcase_add_loop_test(tc, test_check_policy, 0, N_OF(policy_cases));
    tcase_add_loop_test(tc, test_check_idn, 0, N_OF(idn_cases));
    tcase_add_loop_test(tc, test_check_conf_file, 0, N_OF(conf_file_cases));
    tcase_add_test(tc, test_check_ignores_conf_env);
    suite_add_tcase(s, tc);

    tc = tcase_create("explain");
    tcase_add_loop_test(tc, test_explain, 0, 2 * N_OF(explain_cases));
    tcase_add_test(tc, test_explain_many);
    tcase_add_test(tc, test_explain_errors);
    tcase_add_test(tc, test_explain_agrees_with_check);
    suite_add_tcase(s, tc);

    tc = tcase_create("stdin");
    tcase_set_timeout(tc, 2 * RUN_TIMEOUT_S);
    tcase_add_loop_test(tc, test_stream, 0, N_OF(stream_cases));
    tcase_add_loop_test(tc, test_big_stream, 0, N_OF(big_commands));
    tcase_add_test(tc, test_big_stream_all_ok);
    tcase_add_test(tc, test_coprocess);
    tcase_add_loop_test(tc, test_too_long, 0, N_OF(long_cases));
    tcase_add_loop_test(tc, test_escapes, 0, N_OF(escape_cases));
    suite_add_tcase(s, tc);

    tc = tcase_create("usage");
    tcase_add_loop_test(tc, test_usage_errors, 0, N_OF(usage_cases));
    tcase_add_loop_test(tc, test_help, 0, N_OF(help_cases));
    tcase_add_loop_test(tc, test_version, 0, 2);
    suite_add_tcase(s, tc);

    return s;
}

IDNG_TEST_MAIN(cli_suite)
