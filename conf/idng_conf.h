/**
 * \file
 * idnguard configuration: the module's settings file, parsed, checked and
 * written back.  Uses core/ (the policy and its name sets and protected
 * names, idng_policy.h; the log settings, idng_log.h; the log file it
 * opens, idng_out.h) and the codec; libc besides, no Unbound headers.
 *
 * The file has the syntax of unbound.conf: one `idnguard:` clause header,
 * then `key: value` lines.  The schema (keys, defaults, allowed values) is
 * documented in conf/idnguard.conf.example and enforced by one table in
 * conf/conf_schema.c.  The parser is strict: every problem is reported, one a
 * line, as "file:line: message", and nothing is applied.
 *
 * Syntax details:
 * - A value may be double-quoted.  Inside quotes `#` is literal and the only
 *   escapes are \" and \\; any other backslash is an error.  Without quotes
 *   a value runs to `#` or the end of the line, trailing blanks dropped, and
 *   backslashes are literal (as in unbound.conf).
 * - Only tab and space count as blanks.  Any other control octet (NUL, CR
 *   not followed by LF, DEL, ...) is an error anywhere in the file, comments
 *   and quoted values included: no setting can need one.
 * - The file must be UTF-8; a UTF-8 byte order mark at its start is skipped.
 * - Lines end with LF or CR LF and hold at most IDNG_CONF_LINE_MAX octets.
 * - A file without an `idnguard:` clause (empty, or only comments) is an
 *   error, not an empty configuration: it is most likely the wrong file.
 *
 * Included files (`include: PATH`, as in unbound.conf; anywhere in a file,
 * before or after its clause line):
 * - PATH is absolute.  With a glob character (`*`, `?`, `[`, `{`) it is a
 *   pattern: the files it matches are read in byte order of their names,
 *   and a pattern that matches nothing (its directory missing included)
 *   is no error.  Without one it names a file that must exist.
 * - Each included file is a settings file of its own: its `idnguard:` line,
 *   then its settings; it is read where its include line stands.
 * - Settings are applied in the order they are read: a single-valued key
 *   set again in another file replaces the earlier value (a local file
 *   included after the shipped settings overrides them); the list keys
 *   (allow, deny, protect, tld-scripts) gather their entries from every
 *   file.  A single-valued key twice in one file is still an error, and a
 *   name twice in the lists too, whichever files hold it.
 * - Errors name the file they are in, "included.conf:3: message"; a file
 *   that cannot be included, "file:line: include 'PATH': ...".
 * - Includes nest at most IDNG_CONF_INCLUDE_DEPTH deep; a file that
 *   includes itself, directly or not, or is included twice, is an error.
 *   The settings files together hold at most IDNG_CONF_FILE_MAX octets.
 * - The protect-file is read once every file is, so that the last
 *   `protect-file` line is the one read.  So are the files of every
 *   `allow-file` and `deny-file` line (those keys repeat: each file adds
 *   its names after the `allow` and `deny` lines' names, in the order the
 *   lines were read).
 * - A load notes every file and directory it read or looked at, as it was
 *   then (struct idng_conf_sources), so that the watch (idng_watch.h)
 *   sees a change of any: each settings file, the directories a pattern
 *   looked in (a file made or removed there changes its directory; one
 *   missing is noted as missing), the protect-file.
 *
 * Nothing here keeps global state; every function is safe to call from
 * several threads on different objects.  conf/ allocates (the codec does
 * not); idng_conf_free releases everything.
 */
#ifndef IDNG_CONF_H
#define IDNG_CONF_H

#include "idng_log.h"
#include "idng_policy.h"
#include "idnguard.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Where the module and `idnguard check-conf` look without $IDNGUARD_CONF. */
#define IDNG_CONF_DEFAULT_PATH "/etc/unbound/idnguard.conf"
/** Environment variable naming the settings file; ignored when empty. */
#define IDNG_CONF_ENV "IDNGUARD_CONF"
/** Longest line accepted, in octets, not counting LF or CR LF. */
#define IDNG_CONF_LINE_MAX 4096
/** Largest settings file idng_conf_load reads, in octets; also the most
 *  that a file and the files it includes may hold together. */
#define IDNG_CONF_FILE_MAX (8 * 1024 * 1024)
/** How deep includes may nest: a file included by an included file is 2. */
#define IDNG_CONF_INCLUDE_DEPTH 8
/** Rows the schema may have (the keys, on-<class> ones included). */
#define IDNG_CONF_KEYS_MAX 64
/** Largest protect-file, allow-file or deny-file, in octets (a million
 *  names fit). */
#define IDNG_CONF_NAMES_FILE_MAX (64 * 1024 * 1024)
/** Files and directories one load notes for the watch, at most (struct
 *  idng_conf_sources); past it a warning says that changes of the others
 *  need a reload. */
#define IDNG_CONF_SOURCES_MAX 1024
/** Problems reported by one parse, at most (then "more problems not shown"). */
#define IDNG_CONF_REPORT_MAX 50
/** Flags of idng_conf_parse_flags and idng_conf_load_flags. */
enum {
    /**
     * Also check what the daemon would trip over when it opens the files
     * the settings name (log-file, stats-file): a directory that is missing
     * or not writable, a path that is a FIFO, a directory or anything but a
     * regular file, a file that is not writable; as the user running the
     * check.  For `idnguard check-conf`; the module itself does not.
     */
    IDNG_CONF_F_CHECK_PATHS = 1u << 0,
    /**
     * Also keep where each list entry was set (struct idng_conf_origins:
     * allow, deny, protect, tld): for `idnguard check-conf` and `idnguard
     * explain`.  The module does without: a protect-file of a million
     * names would cost it 8 MB more.
     */
    IDNG_CONF_F_ORIGINS = 1u << 1,
    /**
     * Check each `include` line's path but read no file it names: for a
     * parser of text nobody vouches for (the fuzz harness), which must not
     * wander the file system.
     */
    IDNG_CONF_F_NO_INCLUDE = 1u << 2
};
/** Longest stats-interval, in seconds (one day). */
#define IDNG_CONF_STATS_MAX 86400u

/** Where a setting was made: a line of one of the files read. */
struct idng_conf_origin {
    uint32_t file; /**< index in struct idng_conf_origins.files */
    uint32_t line; /**< from 1; 0: no file set it, it is the default */
};

/** Where the settings came from; the module never reads it at query time. */
struct idng_conf_origins {
    /** The files read, named as idng_display_text shows them (malloc'd):
     *  the settings file, the files it includes in the order read, the
     *  protect-file. */
    char **files;
    size_t nfiles;
    /** Per key row, the last line that set it (idng_conf_key_origin). */
    struct idng_conf_origin key[IDNG_CONF_KEYS_MAX];
    /**
     * With IDNG_CONF_F_ORIGINS, the line of every list entry, parallel to
     * the list (NULL without): policy.allow.names, policy.deny.names,
     * policy.protect.names (the `protect` lines' names first, then the
     * protect-file's, each with its line in that file),
     * policy.protect.tld and policy.idn_suffixes.names.
     */
    struct idng_conf_origin *allow, *deny, *protect, *tld, *idn_suffixes;
};

/** What a file or directory was at one look (all zero but err: it could
 *  not be stat'ed).  Any of these differing is a change: an editor that
 *  renames a new file over the old one gives a new inode, a file made in
 *  or removed from a directory changes the directory's times. */
struct idng_filesig {
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime, ctime;
    int err; /**< errno of stat, 0 when it was */
};

/** A file or directory the settings were read from, as it was then. */
struct idng_conf_source {
    char *path;              /**< as opened (malloc'd), not escaped for display */
    struct idng_filesig sig; /**< seen before its contents were read */
};

/**
 * The files and directories a load read or looked at, in the order it did:
 * the settings file, each included file, the directories each pattern
 * looked in (its directory part; with glob characters in it, the
 * directories that part expands to and its own directory part, the same
 * way), the protect-file.  Each once; at most IDNG_CONF_SOURCES_MAX.
 */
struct idng_conf_sources {
    struct idng_conf_source *v; /**< malloc'd; NULL when n is 0 */
    size_t n;
};

/** Frees what s holds and empties it; safe on an empty one and on NULL. */
void idng_conf_sources_free(struct idng_conf_sources *s);

/** The file or directory at path now (NULL path: one that is not there). */
void idng_filesig_read(const char *path, struct idng_filesig *sig);

/** 1 when two looks saw the same file, unchanged. */
int idng_filesig_same(const struct idng_filesig *a, const struct idng_filesig *b);

/** The paths a repeatable file key names, in the order read. */
struct idng_conf_files {
    char **v;                      /**< absolute paths, malloc'd; NULL when n is 0 */
    struct idng_conf_origin *from; /**< the line that named each */
    size_t n;
};

/** Effective settings.  Fill with idng_conf_init or idng_conf_parse. */
struct idng_conf {
    /** What decides a name's fate: `mode`, `on-invalid`, the `on-<class>`
     *  keys, `allow` and `deny` (core/idng_policy.h). */
    struct idng_policy policy;
    int log_queries;                  /**< 1 or 0 (`log-queries`) */
    int log_rejected;                 /**< 1 or 0 (`log-rejected`): a line for every client
                                           refused, NXDOMAINed or dropped by the policy,
                                           whatever log-queries says */
    enum idng_logfmt log_format;      /**< `log-format` */
    char *log_file;                   /**< absolute path, malloc'd; NULL for Unbound's log */
    int anonymize_clients;            /**< 1 or 0: log client addresses cut to /24 and /48 */
    int ede;                          /**< 1 or 0: attach Extended DNS Errors */
    unsigned stats_interval;          /**< seconds, 0..IDNG_CONF_STATS_MAX; 0 = at shutdown */
    char *stats_file;                 /**< absolute path, malloc'd, of the Prometheus text
                                           file replaced every stats_interval; NULL: none */
    char *tap_stats_file;             /**< absolute path, malloc'd: `idnguard tap`'s own
                                           Prometheus file (never stats_file); NULL: none */
    /** The `protect` lines' names, for writing back (the policy's protected
     *  names hold them and the protect-file's together). */
    struct idng_nameset protect_lines;
    char *protect_file;               /**< absolute path, malloc'd, of `protect-file`; NULL */
    /** The `allow-file` and `deny-file` lines: files of names, read once
     *  every settings file is, their names added to policy.allow and
     *  policy.deny after the `allow` and `deny` lines' own. */
    struct idng_conf_files allow_files, deny_files;
    /** How many of policy.allow's and policy.deny's names (the last ones)
     *  came from those files; the writer shows the other ones as lines. */
    size_t allow_from_files, deny_from_files;
    int watch_settings;               /**< 1 or 0 (`watch-settings`): the module applies a
                                           changed file (and protect-file) within a second,
                                           without a reload (conf/idng_watch.h) */
    struct idng_conf_origins origin;  /**< which file and line set what */
    /** What a load read (idng_conf_load; idng_conf_parse: only what the
     *  text includes); the watch takes them (idng_watch.h). */
    struct idng_conf_sources sources;
};

/**
 * Sets every field to its default (mode uts46, on-invalid refuse,
 * on-raw-8bit normalize, log-queries yes, log-rejected yes, log-format text, Unbound's log,
 * ede yes, empty lists, stats-interval 3600, watch-settings yes).  Allocates nothing.
 */
void idng_conf_init(struct idng_conf *c);

/**
 * Frees the lists and strings of c and resets it to the defaults, so it may
 * be reused.  Safe to call twice, and on a c fresh from idng_conf_init.
 */
void idng_conf_free(struct idng_conf *c);

/**
 * Parses a settings file held in memory.
 *
 * @param c: initialized (idng_conf_init) or previously parsed settings.  On
 *   success its old contents are freed and replaced by the file's settings
 *   (defaults for keys the file omits); on error it is left untouched.
 * @param buf: the file's contents; need not be NUL-terminated and may hold
 *   NUL octets (which are errors).
 * @param len: its length in octets.
 * @param fname: name used in messages; NULL gives "config".
 * @param err: NULL, or a buffer for the problems found, one a line, each
 *   "fname:line: message" (warnings "fname:line: warning: message"),
 *   NUL-terminated, truncated to errlen - 1 octets.  Every line of the file
 *   is read, so every problem is reported (at most IDNG_CONF_REPORT_MAX).
 *   On success it holds the warnings, if any ("" when none).
 * @param errlen: capacity of err.
 * @return 0 on success, -1 on error (including allocation failure).
 */
int idng_conf_parse(struct idng_conf *c, const char *buf, size_t len, const char *fname,
                    char *err, size_t errlen);

/** idng_conf_parse with flags (IDNG_CONF_F_*). */
int idng_conf_parse_flags(struct idng_conf *c, const char *buf, size_t len, const char *fname,
                          unsigned flags, char *err, size_t errlen);

/**
 * 1 when paths a and b name one file: the same string, or two names of one
 * existing file (a link, "//", "/./"); 0 otherwise, NULL included.  The
 * settings refuse two of their files that are one (a stats file written over
 * the query log or over protect-file, the module's and the tap's stats file),
 * and `idnguard tap` refuses its outputs on the module's files with it.
 */
int idng_conf_same_file(const char *a, const char *b);

/**
 * The key of the file of settings c that path is (idng_conf_same_file):
 * "stats-file" or "log-file", which the module writes, or "protect-file",
 * "allow-file" or "deny-file", which the settings read; NULL for none of
 * them (tap-stats-file is not looked at: it is the tap's own).  `idnguard
 * tap` writes its lines and counters over none of them.
 */
const char *idng_conf_file_key(const struct idng_conf *c, const char *path);

/**
 * Reads and parses a settings file (at most IDNG_CONF_FILE_MAX octets, a
 * regular file).  A file that cannot be read gives "path: message"
 * (missing, unreadable, a directory, not a regular file, too big); a file
 * that does not parse gives "path:line: message".
 *
 * @param c: as for idng_conf_parse; untouched on any error.
 * @return 0 on success, -1 on error.
 */
int idng_conf_load(struct idng_conf *c, const char *path, char *err, size_t errlen);

/** idng_conf_load with flags (IDNG_CONF_F_*). */
int idng_conf_load_flags(struct idng_conf *c, const char *path, unsigned flags, char *err,
                         size_t errlen);

/**
 * idng_conf_load_flags that also says, when the load fails, what it read
 * or looked at up to the failure (the settings file too when it cannot be
 * opened): the watch waits for a change of any of them before it tries
 * again.  On success c->sources holds them and *tried is left empty.
 * @param tried: emptied first; the caller frees it (idng_conf_sources_free);
 *   NULL: not wanted.
 */
int idng_conf_load_sources(struct idng_conf *c, const char *path, unsigned flags,
                           struct idng_conf_sources *tried, char *err, size_t errlen);

/**
 * idng_conf_load_flags with the path checks of IDNG_CONF_F_CHECK_PATHS made
 * for user (the daemon's, e.g. "unbound") from the files' owners, groups
 * and permission bits, instead of for the caller; NULL: the caller.
 */
int idng_conf_check_file(struct idng_conf *c, const char *path, unsigned flags, const char *user,
                         char *err, size_t errlen);

/**
 * The settings file to read: $IDNGUARD_CONF when set and not empty, else
 * IDNG_CONF_DEFAULT_PATH.  The result is not a copy; it stays valid until
 * the environment changes.
 */
const char *idng_conf_path(void);

/**
 * Where key (its name: "mode", "on-contextj") was last set.
 * @return 1 and *o set when a line set it; 0 (*o zero) when it has its
 *   default; -1 when there is no such key.
 */
int idng_conf_key_origin(const struct idng_conf *c, const char *key, struct idng_conf_origin *o);

/**
 * "FILE:LINE" of an origin (the file as idng_conf_origins.files names it),
 * or "default" for line 0.  Returns the length written; out is always
 * NUL-terminated (cap >= 1), cut to fit.
 */
size_t idng_conf_origin_text(const struct idng_conf *c, const struct idng_conf_origin *o, char *out,
                             size_t cap);

/**
 * Does a client answered with verdict v get a query-log line under c?
 * log-queries (every client), log-rejected (clients refused, NXDOMAINed or
 * dropped), and the log action (a verdict that is not plain ok).
 */
int idng_conf_logs(const struct idng_conf *c, const struct idng_verdict *v);

/**
 * Writes the effective settings in the file's own syntax: the clause
 * header, then every key, one per line, in schema order; `on-invalid` and
 * each `on-<class>` explicitly; allow/deny names in text form with a
 * trailing dot, one line each (a comment line when a list is empty).
 * Parsing the output gives the same settings.
 *
 * @return 0, or -1 when writing failed or c holds a value that has no
 *   text form (an out-of-range enum, a name label the parser would refuse).
 */
int idng_conf_write(const struct idng_conf *c, FILE *f);

/**
 * idng_conf_write, with "  # FILE:LINE" after every line that a line of
 * the files set (list entries need IDNG_CONF_F_ORIGINS); a line without
 * one is the default.  Still parses to the same settings.
 */
int idng_conf_write_origins(const struct idng_conf *c, FILE *f);

/**
 * What changed from the settings old to now, as one line for a log (the
 * reload line of the module).  Every key of the schema whose effective
 * value differs gets an item, in schema order (the order of
 * idng_conf_write), items separated by "; ":
 * - a key of one value: "KEY OLD -> NEW", each value as idng_conf_write
 *   writes it ("mode uts46 -> idna2008", "log-file \"\" -> \"/var/log/q\"");
 *   on-invalid and each on-<class> by their effective action, so a changed
 *   on-invalid names the classes that follow it as well;
 * - a list (allow, deny, protect, tld-scripts): "KEY +ADDED -REMOVED
 *   (now COUNT)", a zero count of added or removed left out; the order of
 *   the names does not count;
 * - protect-file: "protect-file OLD -> NEW" for another path ("(none)"
 *   when there is none), and ", names +ADDED -REMOVED (now COUNT)" (without
 *   the ", " when the path is the same) for the names read from it.
 * "no change" when nothing differs.
 *
 * @param buf: the line, NUL-terminated.  A line longer than cap - 1 is cut
 *   after the last whole item that fits with "; ..." after it ("..." alone
 *   when none does, "" when cap < 4): never inside an item.  May be NULL
 *   when cap is 0.
 * @return the length of the whole line, as snprintf: cap or more when it
 *   was cut.
 */
size_t idng_conf_diff(const struct idng_conf *old, const struct idng_conf *now, char *buf,
                      size_t cap);

#ifdef __cplusplus
}
#endif
#endif /* IDNG_CONF_H */
