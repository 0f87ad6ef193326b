/**
 * \file
 * `idnguard lint-zone`: judges the names of DNS master files as the
 * resolver module would (docs/cli.md, "Linting zones"; man idnguard(1)).
 */
#ifndef IDNG_CLI_LINT_H
#define IDNG_CLI_LINT_H

#include "idng_policy.h"

#include <stdio.h>
#include <sys/stat.h>

/*
 * The limits on $INCLUDE, per input given on the command line (docs/cli.md
 * and idnguard(1) state them).  A file already being read (by device and
 * inode) is a loop and refused, but without a loop a file can still
 * include the next one ten times, and that one the next: under the depth
 * limit alone, 10^15 files.  The other two bound that: far more files and
 * octets than a real zone brings in with $INCLUDE.
 */
/** Files nested at most this deep. */
#define IDNG_LINT_INCLUDE_DEPTH_MAX 16
/** At most this many files included for one input. */
#define IDNG_LINT_INCLUDE_FILES_MAX 4096
/** At most this many octets (their sizes when opened) in the files
 *  included for one input: 1 GiB. */
#define IDNG_LINT_INCLUDE_OCTETS_MAX (1ULL << 30)

/** Runs `idnguard lint-zone ...`: argv[0] is the program, argv[1]
 *  "lint-zone".  @return the exit status (0 clean, 1 findings, 2 errors). */
int idng_lint_main(int argc, char **argv);

/** What one run reads with, and where it writes. */
struct idng_lint_cfg {
    const struct idng_policy *policy; /**< the verdicts' policy */
    int json;                         /**< findings as JSON objects, one a line */
    int follow_include;               /**< open the files $INCLUDE names (0: an error) */
    FILE *out;                        /**< findings */
    FILE *err;                        /**< syntax errors and unreadable inputs */
};

/** Totals of a run. */
struct idng_lint_totals {
    unsigned long long records, names, findings, errors;
    /** Findings per error class, then deny ([IDNG_CLASS_COUNT]). */
    unsigned long long by_class[IDNG_CLASS_COUNT + 1];
};

/**
 * Reads one master file from fp (already open; not closed) and judges its
 * names: name is how messages call it, origin (may be NULL) the initial
 * $ORIGIN in text.  Records are read and freed one at a time.  Adds to *t.
 * The limits on the files $INCLUDE opens (loops, depth, number, octets)
 * count from zero on each call.
 */
void idng_lint_stream(const struct idng_lint_cfg *cfg, FILE *fp, const char *name,
                      const char *origin, struct idng_lint_totals *t);

/**
 * Opens path for reading if it is a regular file; *st is its status.  A
 * FIFO or a device is refused without waiting for it.
 * @return the file; NULL with *why set (a phrase) when it cannot be opened
 *   or is not a regular file.
 */
FILE *idng_lint_open(const char *path, struct stat *st, const char **why);

#endif /* IDNG_CLI_LINT_H */
