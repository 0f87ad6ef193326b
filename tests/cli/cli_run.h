/**
 * \file
 * What the CLI suites (tests/cli/test_cli_*.c) share: running the real
 * binary, named by the environment variable IDNGUARD_BIN, as a child
 * process (fork + execv, never a shell), feeding it standard input through
 * a pipe and capturing standard output and standard error apart; judging
 * its output line by line; a settings file in a directory.
 *
 * Expected output lines are compared exactly, except that an expected line
 * ending in '*' only has to be a prefix of the actual line (the '*' not
 * included).  Error lines are matched up to their class and label this
 * way, so that rewording a status message does not break the tests; class
 * names are stable interface.
 */
#ifndef IDNG_TESTS_CLI_RUN_H
#define IDNG_TESTS_CLI_RUN_H

#include <check.h>
#include <stddef.h>

/** Longest argument list a table row may hold (without argv[0]). */
#define MAX_ARGS 6
/** A child still running after this many seconds is killed. */
#define RUN_TIMEOUT_S 30

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

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

/** Appends n octets of s to b. */
void buf_append(buf *b, const char *s, size_t n);
/** Appends printf output to b. */
void buf_printf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/**
 * Runs the CLI with the NULL-terminated argument list args (argv[1]...),
 * writes in_len octets of in to its standard input and closes it, and
 * collects both output streams until the child closes them.
 */
void run_cli(const char *const *args, const char *in, size_t in_len, run_result *r);
void run_free(run_result *r);
/**
 * Checks that out holds exactly the lines of expected (NULL-terminated),
 * each ended by '\n'.  name identifies the case in failure messages.
 */
void expect_lines(const char *name, const char *out, size_t out_len, const char *const *expected);
/** Lines in s (len octets), a last one without '\n' counted. */
size_t count_lines(const char *s, size_t len);
/** Writes text to dir/idnguard.conf; its path into path (cap octets). */
void write_conf(const char *dir, const char *text, char *path, size_t cap);
/**
 * When IDNGUARD_BIN is not set, adds to s one test that fails saying so
 * (instead of one failure per test) and returns 1; suite names the binary.
 */
int cli_bin_missing(Suite *s, const char *suite);

#endif
