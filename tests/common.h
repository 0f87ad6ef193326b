/**
 * \file
 * Helpers shared by the Check suites.
 */
#ifndef IDNG_TESTS_COMMON_H
#define IDNG_TESTS_COMMON_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

/** A string literal and its length, embedded NULs included. */
#define BYTES(s) (s), (sizeof(s) - 1)

/* A helper a header gives to several suites, not all of which call it. */
#define IDNG_TEST_UNUSED __attribute__((unused))

/*
 * Check's ck_assert_msg reports every passing assertion to the parent
 * process (a system call each); loops that make millions of assertions call
 * into Check only on failure.
 */
#define REQUIRE(cond, ...)                                                         \
    do {                                                                           \
        if (!(cond))                                                               \
            ck_abort_msg(__VA_ARGS__);                                             \
    } while (0)

/** Decodes NUL-terminated UTF-8 into code points; fails the test on bad input. */
size_t t_utf8_to_cps(const char *s, uint32_t *out, size_t cap);
/** Encodes code points as NUL-terminated UTF-8 into out (cap octets). */
void t_cps_to_utf8(const uint32_t *cps, size_t n, char *out, size_t cap);
/**
 * A readable page followed by a PROT_NONE page: input placed with
 * t_guard_put ends exactly at the inaccessible page, so reading one octet
 * past it faults, and it is read-only, so a stray write faults too.
 */
struct t_guard {
    unsigned char *base;
    size_t page;
};
void t_guard_open(struct t_guard *g);
void t_guard_close(struct t_guard *g);
/** Copies n octets to end at the guard page; returns where they start. */
const unsigned char *t_guard_put(struct t_guard *g, const void *p, size_t n);

/**
 * Makes a fresh directory $TMPDIR/<prefix>-XXXXXX (or under /tmp) into dir
 * (cap octets); fails the test if it cannot.
 */
void t_tmpdir_make(char *dir, size_t cap, const char *prefix);
/** Removes dir and what tests put in it: files, FIFOs, directories and theirs. */
void t_tmpdir_remove(const char *dir);

/**
 * A whole file, NUL-terminated and malloc'd (also /proc files, whose size
 * is not known ahead); its length into *len when len is not NULL.  NULL
 * when the file cannot be opened; a read error fails the test.
 */
char *t_slurp(const char *path, size_t *len);

/**
 * Writes len octets of buf as the whole of path, opened with mode ("wb",
 * or "ab" to add to its end).  0, or -1 with errno set (the file may be
 * left cut); for code that reports its own errors (the integration harness).
 */
int t_write_file(const char *path, const char *mode, const void *buf, size_t len);
/** Writes buf (len octets) as the whole of path; an error fails the test, naming path. */
void t_spew(const char *path, const void *buf, size_t len);
/** t_spew of the NUL-terminated text s. */
void t_spew_str(const char *path, const char *s);

/** A text name, \DDD escapes giving raw octets, in wire format at out
 *  (room for 256 octets); returns its length. */
size_t t_wire(const char *text, uint8_t *out);

/**
 * Runs argv[0] (argv NULL-terminated) with standard input from /dev/null
 * and standard output and error into the files out and err; an alarm kills
 * it after timeout_s seconds, so a hang fails the test instead of stalling
 * the suite.  Returns its wait status; a fork or wait failure fails the test.
 */
int t_run_to_files(const char *const *argv, const char *out, const char *err, unsigned timeout_s);

/** What a command printed, and how it ended. */
struct t_out {
    int status; /**< its exit status (the test fails if it did not exit) */
    char *out, *err; /**< its standard output and error, malloc'd */
};
/**
 * The idnguard binary under test, named by the environment variable
 * IDNGUARD_BIN (make sets it); fails the test when it is not set or not an
 * executable file.
 */
const char *t_idnguard_bin(void);
/**
 * Runs `bin cmd args...` (args NULL-terminated; cmd NULL for none) by
 * t_run_to_files, its output in dir/stdout and dir/stderr, into r.
 */
void t_run_cli(const char *bin, const char *cmd, const char *const *args, const char *dir,
               unsigned timeout_s, struct t_out *r);
/** Frees what t_run_cli put into r. */
void t_out_free(struct t_out *r);

/** Sleeps ms milliseconds, a signal or not (for the bounded polls of the suites). */
void t_sleep_ms(unsigned ms);

/**
 * Fills w[0..len) with a wire-format name that may lie: length octets that
 * are mostly plausible, sometimes past 63 or past the end; label octets
 * drawn from alphabet (alen octets) one time in keep_in... else random; a
 * zero octet (an early root) inserted one time in nul_in.  rnd supplies
 * the pseudo-random numbers, so each suite keeps its own fixed seed.
 */
void t_random_wire(uint8_t *w, size_t len, const char *alphabet, size_t alen, unsigned keep_in,
                   unsigned nul_in, uint32_t (*rnd)(void));

/** One step of the xorshift32 generator on *state (nonzero): each suite
 *  keeps its own seed, so its pseudo-random inputs never change. */
uint32_t t_xorshift32(uint32_t *state);

/** A listed deviation from another project's test data: the input, and why
 *  idnguard differs.  Lists end with {NULL, NULL}. */
struct t_deviation {
    const char *input;
    const char *reason;
};

/** The reason list gives for input, or NULL when it is not listed. */
const char *t_deviation_reason(const struct t_deviation *list, const char *input);

/** Runs a suite with CK_NORMAL output; returns the process exit status. */
int t_run_suite(Suite *s);

#define IDNG_TEST_MAIN(suite_fn)                                                   \
    int main(void)                                                                 \
    {                                                                              \
        return t_run_suite(suite_fn());                                            \
    }

#endif
