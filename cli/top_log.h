/**
 * \file
 * The query log of `idnguard top` (top_log.c): a log file followed as it
 * grows and across rotation, and the names and clients it shows refused,
 * NXDOMAINed or dropped, counted.  The screen (top.c) draws what it holds.
 */
#ifndef IDNG_CLI_TOP_LOG_H
#define IDNG_CLI_TOP_LOG_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#define NAMES_MAX 4096
#define KEY_MAX 300

/* A name or client with its count: open addressing, never removed. */
struct tally {
    char key[KEY_MAX];
    char extra[KEY_MAX]; /* a name's Unicode form, or its class and action */
    unsigned long long n;
};

struct table {
    struct tally *e;
    size_t used;
    unsigned long long lost; /* lines whose key found no free slot */
};

struct logview {
    const char *path;
    FILE *f;
    dev_t dev;
    ino_t ino;
    off_t pos;
    char part[8192]; /* an unfinished last line */
    size_t plen;
    unsigned long long lines, answers, rejected, skipped;
    struct table names, clients;
    time_t since;
};

/** Is the action (n octets of s) one that keeps the answer from the
 *  client (the policy's rule)? */
int top_rejecting(const char *s, size_t n);

/** Reads what the log gained since the last call; follows a rotation (a
 *  new file at the path) and a truncation. */
void top_follow(struct logview *lv);

#endif /* IDNG_CLI_TOP_LOG_H */
