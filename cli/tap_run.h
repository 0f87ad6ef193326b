/**
 * \file
 * The parts of `idnguard tap` (tap.c) shared by its files: the settings of
 * a run (struct tap), the counters, and what the matcher (tap_match.c:
 * queries waiting for their responses, the lines) and the streams
 * (tap_stream.c: the capture file, the socket server) offer each other.
 * One thread runs all of it.
 */
#ifndef IDNG_CLI_TAP_RUN_H
#define IDNG_CLI_TAP_RUN_H

#include "idng_conf.h"
#include "idng_log.h"
#include "idng_out.h"
#include "idng_policy.h"
#include "idng_stats.h"

#include <stddef.h>
#include <stdint.h>

/** Concurrent writers (Unbound: one per dnstap thread; BIND: one). */
#define TAP_CONNS 64
/** Queries waiting for their responses. */
#define TAP_PENDING 16384
#define TAP_BUCKETS (2 * TAP_PENDING)
/** Largest data frame taken: two DNS messages of 64 KiB and the rest. */
#define TAP_FRAME_MAX IDNG_FSTRM_FRAME_DEFAULT
/** Each log buffer (two are kept). */
#define TAP_OUT_BUFFER (1024 * 1024)
/** Error messages printed before they are only counted. */
#define TAP_ERRORS_SHOWN 50

#define NS 1000000000LL

/** What a run has counted: the summary line and the tap-stats-file. */
struct tap_counters {
    unsigned long long frames, messages, lines, unanswered, unmatched;
    unsigned long long malformed_frames, malformed_messages, malformed_dns, connections;
    unsigned long long closed_conns, other_messages;
    unsigned long long verdicts[IDNG_VERDICT_COUNT][IDNG_ACTION_COUNT];
};
extern struct tap_counters tap_count;

/** One run: its settings and its state. */
struct tap {
    const char *sock, *file, *out_path;
    struct idng_conf conf;
    enum idng_logfmt fmt;
    unsigned wait_s;
    const char *stats_file; /* --stats-file, else the settings' */
    unsigned stats_interval;
    struct idng_logfile *out;
    /* The clock pending queries expire by: with -r the latest message time
     * seen (the capture's own time), with -u CLOCK_MONOTONIC. */
    long long clock_ns;
    long long next_stats_ns;
    unsigned errors_shown;
    int said_bare[2]; /* [1]: a CLIENT_QUERY, [0]: a CLIENT_RESPONSE without its DNS message */
};

/** An error about the input, on stderr as "idnguard tap: ...", the first
 *  TAP_ERRORS_SHOWN of them; the rest only counted. */
__attribute__((format(printf, 2, 3))) void tap_report(struct tap *t, const char *fmt, ...);
/** CLOCK_REALTIME and CLOCK_MONOTONIC in nanoseconds. */
long long tap_wall_ns(void);
long long tap_mono_ns(void);

/* tap_match.c */
/** Empties the table of waiting queries and draws its hash key. */
void tap_match_init(void);
/** Writes the lines of the queries waited for too long (all: every one). */
void tap_expire(struct tap *t, int all);
/** One data frame from src (a file or a connection's name). */
void tap_on_data(struct tap *t, const char *src, const uint8_t *buf, size_t len);

/* tap_stream.c: each returns the exit status. */
int tap_read_file(struct tap *t);
int tap_serve_socket(struct tap *t);

/* tap.c */
/** Replaces the tap-stats-file (t->stats_file) with the counters. */
void tap_write_stats(struct tap *t);

#endif /* IDNG_CLI_TAP_RUN_H */
