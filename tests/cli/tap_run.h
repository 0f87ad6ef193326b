/**
 * \file
 * What the suites of `idnguard tap` as a process (tests/cli/test_tap_*.c)
 * share: a directory per test and the tap it started (the fixture), dnstap
 * messages, frames and capture files built from tests/tap/tap_build.h, and
 * a run of the binary (IDNGUARD_BIN) to its end.
 */
#ifndef IDNG_TESTS_CLI_TAP_RUN_H
#define IDNG_TESTS_CLI_TAP_RUN_H

#include "common.h"
#include "tap/tap_build.h"

#include <stdio.h>
#include <sys/types.h>

#define POLL_MS 10000

/** The test's directory (setup makes it, teardown removes it). */
extern char dir[512];
/* The tap a test started and has not stopped yet: teardown kills it, so
 * that a failed check (which leaves the test early) never leaves a tap
 * running, holding the suite's output open. */
extern pid_t running_tap;

void setup(void);
void teardown(void);
/** dir/name into out (cap octets). */
void path_in(char *out, size_t cap, const char *name);
/** Lines in the NUL-terminated s (NULL: none). */
size_t count_lines(const char *s);
/** Lines in the n octets of s. */
size_t count_lines_n(const char *s, size_t n);

enum { RQ = 3, RR = 4, CQ = 5, CR = 6 };

struct dtm {
    unsigned type;  /* CQ, CR, RQ or RR */
    unsigned proto; /* 1 udp, 2 tcp, 3 dot */
    uint8_t addr[16];
    size_t alen;
    unsigned port;
    long long qsec; /* 0: not sent */
    unsigned qnsec;
    long long rsec;
    unsigned rnsec;
    const struct tb *dns;  /* NULL: no DNS message (the producer leaves it out) */
    const struct tb *zone; /* query_zone, a wire name; NULL: none */
};

void dnstap_msg(struct tb *out, const struct dtm *m);
/** A question for a wire name given as raw octets. */
void dns_msg(struct tb *t, unsigned id, int response, unsigned rcode, const uint8_t *wire,
             size_t wlen, unsigned qtype, int ede);
/** Text name to wire (no escapes), for the ordinary names. */
size_t wire_of(const char *text, uint8_t *w);
/** A data frame: length, payload. */
void frame(struct tb *out, const struct tb *payload);
/** A control frame with the dnstap content type or none. */
void control(struct tb *out, unsigned type, int with_ctype);
/** One dnstap message as a data frame, into the capture. */
void put_message(FILE *f, const struct dtm *m);
/** A message from 127.0.0.1#port at the time of id (as pair sends them). */
void msg_from(struct dtm *m, unsigned type, unsigned id, unsigned port);
/** A query/response pair from 127.0.0.1#port, 412 microseconds apart. */
void pair(FILE *f, unsigned id, unsigned port, const uint8_t *wire, size_t wlen, unsigned rcode,
          int ede, int send_query, int send_response);
void put_control(FILE *f, unsigned type, int with_ctype);
/** Runs idnguard tap with args (NULL-terminated). */
void run_tap(const char *const *args, struct t_out *r);
void run_free(struct t_out *r);
/** Line k (0-based) of s, into buf. */
const char *line_at(const char *s, size_t k, char *buf, size_t cap);
/** A capture file dir/name opened for writing; its path into path. */
FILE *capture(char *path, size_t cap, const char *name);

#endif
