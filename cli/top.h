/**
 * \file
 * `idnguard top`: a live view of the module's or the tap's counters and
 * query log, refreshed in the terminal; and the reader of the counters
 * files that `idnguard stats` shares.
 */
#ifndef IDNG_CLI_TOP_H
#define IDNG_CLI_TOP_H

#include <stddef.h>
#include <time.h>

/** Rows of one counters file: answers (or the tap's lines) by class and
 *  action, summed over the answer paths. */
#define IDNG_STATSFILE_ROWS 256
/** The other counters of a file (normalized, reload_failures, ...). */
#define IDNG_STATSFILE_OTHERS 32

struct idng_statsfile {
    int tap; /**< 1: idnguard tap's file (idnguard_tap_*), 0: the module's */
    struct idng_statsfile_row {
        char cls[32], action[16];
        unsigned long long n;
        unsigned long long path[5]; /**< by answer path (the module's file) */
    } rows[IDNG_STATSFILE_ROWS];
    size_t nrows;
    struct idng_statsfile_other {
        char name[48];
        unsigned long long n;
    } others[IDNG_STATSFILE_OTHERS];
    size_t nothers;
    char mode[32];        /**< the info line's mode, "" when absent */
    struct timespec mtime; /**< when the file was last replaced */
};

/** The answer paths of the module's file, in column order. */
extern const char *const idng_statsfile_paths[5];

/**
 * Reads the counters file the module (stats-file) or `idnguard tap`
 * (tap-stats-file) writes.  Lines it does not know are skipped.
 * @return 0; -1 with errno set when the file cannot be read; -2 when it
 *   holds no idnguard counters.
 */
int idng_statsfile_read(const char *path, struct idng_statsfile *s);

/** Runs `idnguard top ...`: argv[0] is the program, argv[1] "top".
 *  @return the exit status. */
int idng_top_main(int argc, char **argv);

#endif /* IDNG_CLI_TOP_H */
