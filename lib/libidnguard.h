/**
 * \file
 * libidnguard: idnguard's guard as a shared library with a flat, stable C
 * interface, for hosts that are not Unbound's dynlib module: Unbound's
 * python module (python/idnguard.py, through ctypes) and the Lua engines
 * (lua/idnguard.lua, through LuaJIT's FFI: Knot Resolver, PowerDNS
 * Recursor, dnsdist).  Built as libidnguard.so.0 (soname
 * libidnguard.so.0); only the functions declared here are exported
 * (lib/libidnguard.map), and an incompatible change of any of them takes
 * a new soname.
 *
 * The host hands over names and messages as wire octets and gets back
 * actions, texts and log lines; everything that decides (the settings
 * file and its parser, judging a name, the scan of a response, the EDE
 * text, the log line, the counters and the stats file) is the same C as
 * the dynlib module's (conf/, core/, codec/).
 *
 * Conventions: 1 = yes, 0 = no; every output buffer comes with its
 * capacity and is NUL-terminated; a verdict is an opaque block of
 * idnguard_verdict_size() octets owned by the caller (one per query).
 * Every call may be made from any thread: the settings in force are read
 * inside a read section by each call, and a changed settings file is
 * applied between two calls, never during one (conf/idng_watch.h).
 *
 * Two ways to hold the settings:
 * - idnguard_open/idnguard_close: one handle at a time, closed and opened
 *   again on the host's reload (Unbound's python module); a reload whose
 *   file does not load keeps the settings of the handle closed last.
 * - idnguard_open_shared: one handle for the whole process, opened by the
 *   first call and returned to every later one, never closed (engines
 *   with a Lua state per thread, or one created again on each reload of
 *   the host's script).  Its watch applies a changed file by itself and
 *   says so, and anything it has to say, on stderr ("idnguard: ...").
 */
#ifndef LIBIDNGUARD_H
#define LIBIDNGUARD_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/** Actions (the values of enum idng_action, core/idng_policy.h). */
enum idnguard_action {
    IDNGUARD_PASS = 0,
    IDNGUARD_LOG = 1,
    IDNGUARD_REFUSE = 2,
    IDNGUARD_NXDOMAIN = 3,
    IDNGUARD_DROP = 4,
    IDNGUARD_NORMALIZE = 5
};

/** How an answer was made, for the log line (enum idng_path). */
enum idnguard_path {
    IDNGUARD_PATH_RESOLVED = 0,
    IDNGUARD_PATH_CACHE = 1,
    IDNGUARD_PATH_LOCAL = 2,
    IDNGUARD_PATH_SERVFAIL = 3,
    IDNGUARD_PATH_POLICY = 4
};

/** What a host may count (idnguard_count). */
enum idnguard_counter {
    IDNGUARD_COUNT_NORMALIZED = 0,
    IDNGUARD_COUNT_ANSWERS_REJECTED = 1,
    IDNGUARD_COUNT_UNCACHED = 2,
    IDNGUARD_COUNT_INTERNAL = 3
};

/** What idnguard_open did (*state). */
enum idnguard_load {
    IDNGUARD_LOAD_FIRST = 0,    /**< the first load */
    IDNGUARD_LOAD_RELOADED = 1, /**< a reload that loaded: changes says what changed */
    IDNGUARD_LOAD_KEPT = 2      /**< a reload whose file did not load: the last settings go on */
};

/** What a response scan found (idnguard_scan, idnguard_scan_message). */
enum idnguard_scan_result { IDNGUARD_SCAN_PASS = 0, IDNGUARD_SCAN_LOG = 1, IDNGUARD_SCAN_REJECT = 2 };

/** What the watch says: level 0 info, 1 warning, 2 error. */
typedef void (*idnguard_say_fn)(int level, const char *text);

/** The version of idnguard and of its Unicode tables, "0.2.0 15.0.0". */
const char *idnguard_version(void);

/**
 * Names the host for the stats file's idnguard_info metric (its `unbound`
 * label): "dnsdist", "pdns-recursor", "kresd"; "python-module" when no
 * host names itself.  The first name given stays (copied, at most 63
 * octets).
 */
void idnguard_set_host(const char *name);

/** The settings file to read: $IDNGUARD_CONF, else the default path. */
const char *idnguard_conf_path(void);

/**
 * Loads the settings file at path and opens its log file.  *state (enum
 * idnguard_load) says whether this is the first load, a reload (changes
 * gets what changed) or a reload whose file did not load (the handle then
 * holds the settings of the handle closed last, and reload-failures is
 * counted).  NULL when a first load fails.  err gets the problems, one a
 * line ("file:line: message"); on success, the warnings ("" when none).
 */
void *idnguard_open(const char *path, int *state, char *changes, size_t changes_cap, char *err,
                    size_t errlen);

/**
 * Starts applying a changed settings file without a reload (with
 * watch-settings: yes).  say gets what the watch has to say, and a stats
 * file that cannot be written or a rotated log file that cannot be opened
 * again, from the watch's, the stats timer's or the log file's own thread;
 * it must stay valid until idnguard_close.
 * @return 1, or 0 when the watch could not start.
 */
int idnguard_watch(void *h, idnguard_say_fn say);

/**
 * Closes a handle of idnguard_open: stops the watch, writes the stats
 * file, and keeps the settings for the next idnguard_open.  err gets a
 * problem writing the stats file ("" if none).
 */
void idnguard_close(void *h, char *err, size_t errlen);

/**
 * The process's one handle: the first call loads path (NULL: the default,
 * idnguard_conf_path) and starts the watch, which writes what it says to
 * stderr; every later call returns the same handle, whatever its path.
 * NULL when the first load fails (err as for idnguard_open); a later call
 * then tries again.
 */
void *idnguard_open_shared(const char *path, char *err, size_t errlen);

/**
 * Where the host's own log goes (logfile, use-syslog, chroot, identity,
 * ascii time; NULL, 0 when not known), for the counters line written when
 * the process exits after idnguard_close.
 */
void idnguard_daemon_log(const char *logfile, int use_syslog, const char *chroot,
                         const char *ident, int time_ascii);

/**
 * The line a host logs when a load ends, the same in every host:
 *   IDNGUARD_LOAD_FIRST     "idnguard: loaded PATH (mode M, Unicode U; idnguard V<host>)"
 *   IDNGUARD_LOAD_RELOADED  "idnguard: reloaded PATH: CHANGES"
 *   IDNGUARD_LOAD_KEPT      "idnguard: reload failed (reload failures: N); still running
 *                            with the settings loaded at TIME (mode M)"
 * host: the host's words after the version (", python module", ", dnsdist";
 * NULL: none); changes: idnguard_open's.  Log the KEPT line as an error.
 * @return the line's length (no newline; truncated to cap - 1, NUL ended);
 *   0 for a state that is none of these.
 */
size_t idnguard_loaded_line(void *h, const char *path, int state, const char *changes,
                            const char *host, char *out, size_t cap);

/** When the settings in force were read (seconds since the epoch). */
long long idnguard_loaded_at(void *h);
/**
 * The generation of the settings in force: a number of their own for each
 * load that took (the first, a reload, the watch's), never 0, the same for
 * as long as they are in force.  A host that keeps answers judged under
 * them (PowerDNS Recursor's packet cache) keys them by it.
 */
unsigned long long idnguard_settings_gen(void *h);
/** Reloads that kept the previous settings, so far. */
unsigned long long idnguard_reload_failures(void);
/** The mode's name ("uts46"). */
const char *idnguard_mode(void *h);
/** Does a rejected answer carry an Extended DNS Error (ede: yes)? */
int idnguard_ede_enabled(void *h);
/** stats-interval in seconds (0: none). */
unsigned idnguard_stats_interval(void *h);

/** The size of a verdict block. */
size_t idnguard_verdict_size(void);

/**
 * Judges a client's query name (data 0) or a name from an answer (data 1)
 * into the verdict block v.  @return its action (enum idnguard_action).
 */
int idnguard_judge(void *h, const uint8_t *wire, size_t len, int data, void *v);
/** The action of a verdict block. */
int idnguard_action(const void *v);
/** Sets a verdict block's action (a fallback the host had to take). */
void idnguard_set_action(void *v, int action);
/** The action a settings file names ("pass", "refuse", ...), or -1 when
 *  there is none of that name: hosts take the values from here. */
int idnguard_action_named(const char *name);
/** v, a rejected response's verdict, keeps the display facts of q, the
 *  client's name's verdict. */
void idnguard_for_client(void *v, const void *q);
/** Is the verdict not plain ok (a class, or a list decided)? */
int idnguard_interesting(const void *v);

/**
 * The A-label form of a raw name.  out must hold 255 octets.  @return its
 * length, or 0 when the name cannot be converted; then v's action becomes
 * the fallback.
 */
size_t idnguard_normalize(void *h, const uint8_t *wire, size_t len, uint8_t *out, void *v);

/**
 * The response scan over a response flattened by the host into records:
 * kind (1 octet: 0 the name the response is for, 1 an answer owner, 2 an
 * authority owner, 3 an additional owner, 4 a CNAME/DNAME target), RR
 * type (2 octets, network order), name length (1 octet), the uncompressed
 * wire name.  A truncated record ends the scan.
 * @return enum idnguard_scan_result; v gets the most severe verdict.
 */
int idnguard_scan(void *h, const uint8_t *buf, size_t len, void *v);

/**
 * The response scan over a whole DNS response message in wire format
 * (compression followed, every pointer strictly backwards): the question
 * name, every owner name of the answer, authority and additional
 * sections, and every CNAME and DNAME target.  A message that cannot be
 * read (truncated, a bad name or pointer) is rejected: v gets the class
 * malformed.  @return enum idnguard_scan_result; v gets the most severe
 * verdict.
 */
int idnguard_scan_message(void *h, const uint8_t *msg, size_t len, void *v);

/** The EDE text of a rejected verdict; its length. */
size_t idnguard_ede_text(const void *v, char *out, size_t cap);

/** Counts one event of the host's (enum idnguard_counter). */
void idnguard_count(int which);

/**
 * One client answered (or dropped: rcode -1): counted, and its query-log
 * line when the settings want it.  v NULL: answered without the guard
 * (cache, local data): the name is judged here.  path: enum
 * idnguard_path.  client NULL or "" when unknown; elapsed_us < 0 when
 * unknown; target NULL when none; transport "udp", "tcp", ... or NULL.
 * @return the length of a line the host must write to its own log (out:
 *   "idnguard: ..." for text, the JSON object alone for json); 0 when
 *   there is none (not logged, or written to the settings' log-file).
 */
size_t idnguard_log(void *h, const void *v, const char *client, unsigned port,
                    const uint8_t *qname, size_t qname_len, unsigned qtype, unsigned qclass,
                    int rcode, int ede, int path, const uint8_t *target, size_t target_len,
                    const char *transport, long long elapsed_us, char *out, size_t cap);

/**
 * The counters outward: the summary line into out (for the host's log),
 * and, with stats-file, the Prometheus text written beside that file and
 * renamed over it.  err gets a problem writing the file ("" if none).
 */
size_t idnguard_stats(void *h, const char *when, char *out, size_t cap, char *err,
                      size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* LIBIDNGUARD_H */
