/**
 * \file
 * Integration test harness: NSD serving the zones and the Unbound daemon
 * built here, with the idnguard module, on free loopback ports in a
 * temporary directory, started and stopped by scripts/lab.sh (the lab that
 * `make run`, the soak and the resolver benchmark use too); helpers to
 * query them and to read the module's log lines.
 *
 * The zones are those of tests/integration/zones as prepared by
 * tests/integration/prepare-zones.sh (`make zones`, into build/zones): the
 * unsigned ones as they are, and sig., deny.sig. and bad.sig. signed with
 * keys made then, sig.anchor being the trust anchor for sig. that Unbound
 * is given.  Unbound validates (module-config "dynlib validator
 * iterator"): names in sig. and deny.sig. are secure (AD), names in
 * bad.sig. bogus (its DS in sig. matches no key of its own: SERVFAIL, data
 * only with CD), every other zone insecure.  harness_start_ex starts
 * variants of the daemon (another module-config, more server: lines).
 *
 * Environment (set by `make check-integration`): IDNGUARD_LAB
 * (scripts/lab.sh), IDNGUARD_UNBOUND (daemon), IDNGUARD_MODULE (the .so),
 * IDNGUARD_ZONES (the prepared zones, build/zones), IDNGUARD_TEMPLATES
 * (nsd.conf.in, unbound.conf.in).  IDNGUARD_KEEP=1 keeps the temporary
 * directories for a post-mortem.  For the daemon alone (`make asan-check`):
 * IDNGUARD_DAEMON_PRELOAD becomes its LD_PRELOAD (a sanitizer runtime for
 * an instrumented module), IDNGUARD_DAEMON_ASAN_OPTIONS and
 * IDNGUARD_DAEMON_UBSAN_OPTIONS its ASAN_OPTIONS and UBSAN_OPTIONS (lab.sh
 * does that).
 *
 * Processes: `lab.sh start DIR --hold` writes the configurations, picks
 * the ports, starts both daemons, polls them until they answer (bounded),
 * writes ports and PIDs to DIR/lab.env, and stays the daemons' parent;
 * `lab.sh stop DIR` stops them by PID.  Lifetime and Check: a lab is
 * stopped only by the process that started it.  The suites start a shared
 * pair in an unchecked fixture (the runner process, which outlives every
 * forked test and always runs the teardown when the setup succeeded); a
 * setup that fails stops what it started before it reports.  A lab started
 * inside a forked test stays in the test's process group, which Check
 * kills when the test ends however it ends.  As a last resort the holding
 * lab.sh gets SIGTERM when its parent dies (PR_SET_PDEATHSIG), and stops
 * its daemons, and an atexit handler in the starting process does the
 * same.  Every wait is bounded.
 */
#ifndef IDNG_TESTS_HARNESS_H
#define IDNG_TESTS_HARNESS_H

#include "dnsq.h"

#include <check.h>

#include <stddef.h>
#include <sys/types.h>

#define HARNESS_PATH_MAX 512

/** Bounds, in milliseconds. */
#define HARNESS_START_MS 10000 /**< a daemon must answer within this */
#define HARNESS_STOP_MS 5000   /**< SIGTERM to exit, before SIGKILL */
#define HARNESS_QUERY_MS 3000  /**< a query that should be answered */
#define HARNESS_DROP_MS 700    /**< waited out to call a query dropped */
#define HARNESS_LOG_MS 3000    /**< a log line that should appear */
/** lab.sh stop: SIGTERM to exit, before SIGKILL, for each daemon in turn */
#define HARNESS_LAB_STOP_MS (2 * HARNESS_STOP_MS + 2000)

/** The module's lines in Unbound's log about its settings and its end: the
 *  first load, a reload that took the file (then the changes), a reload
 *  that did not (then how many so far), and the counters at a real stop. */
#define HARNESS_LOADED "idnguard: loaded "
#define HARNESS_RELOADED "idnguard: reloaded "
#define HARNESS_RELOAD_FAILED "idnguard: reload failed (reload failures: "
#define HARNESS_SHUTDOWN_STATS "idnguard stats (shutdown): "

/** module-config when a test names none. */
#define HARNESS_MODULES_DEFAULT "dynlib validator iterator"

/** Variants of the daemon pair (harness_start_ex); a NULL field, or a NULL
 *  struct, keeps the default, which is what harness_start runs. */
struct harness_opts {
    /** Unbound's module-config (HARNESS_MODULES_DEFAULT when NULL), e.g.
     *  "dynlib iterator" for a resolver that does not validate.  Without
     *  "dynlib" the module is not loaded and no query is logged, so only
     *  dnsq_query_ex can ask such a daemon. */
    const char *module_config;
    /** Lines added inside unbound.conf's server: clause, after the
     *  template's own (so a setting given again here wins), e.g.
     *  "serve-expired: yes\nserve-expired-ttl: 3600\n" or
     *  "minimal-responses: no\n".  "@DIR@", "@ZONES@", "@PORT@" and
     *  "@NSD_PORT@" in them are filled in as in the templates. */
    const char *server_extra;
    /** The lab's flavour (scripts/lab.sh --flavour) when not
     *  $IDNGUARD_FLAVOUR's: "stock" is Debian's stock daemon with no
     *  idnguard module (so nothing is logged: ask it with dnsq_query_ex). */
    const char *flavour;
    /** A Unix socket path: Unbound sends its client queries and responses
     *  there over dnstap (lab.sh --dnstap; a bidirectional Frame Streams
     *  reader such as `idnguard tap -u` listens on it). */
    const char *dnstap_socket;
    /** "nsd": NSD alone, for a test that runs a resolver of its own in
     *  front of it (lab.sh --only; h->port is then no one's). */
    const char *only;
};

/** One NSD and one Unbound with the module. */
struct harness {
    char dir[HARNESS_PATH_MAX];       /**< the temporary directory */
    char idng_conf[HARNESS_PATH_MAX]; /**< $IDNGUARD_CONF of the daemon */
    char ub_conf[HARNESS_PATH_MAX];
    char ub_log[HARNESS_PATH_MAX]; /**< Unbound's logfile: */
    char ub_out[HARNESS_PATH_MAX]; /**< its stdout and stderr */
    char nsd_conf[HARNESS_PATH_MAX];
    char nsd_log[HARNESS_PATH_MAX];
    char nsd_out[HARNESS_PATH_MAX];
    char lab_out[HARNESS_PATH_MAX];  /**< lab.sh's messages */
    char conf_in[HARNESS_PATH_MAX];  /**< idnguard.conf before lab.sh fills it in */
    char extra_in[HARNESS_PATH_MAX]; /**< the extra server: lines, likewise */
    /** Where the module's query lines go: ub_log unless a test points it at
     *  the module's own log-file. */
    char qlog[HARNESS_PATH_MAX];
    int port, nsd_port;
    pid_t ub_pid, nsd_pid; /**< children of lab_pid */
    pid_t lab_pid;         /**< the lab.sh holding them */
    pid_t owner;           /**< the process that started lab_pid */
    int threads;
};

/**
 * Starts NSD, then Unbound with num-threads threads and an idnguard.conf
 * holding conf_text (every "@DIR@" in it replaced by the temporary
 * directory), and waits until both answer.  On failure everything started
 * is stopped, the directory is removed and err holds the reason with the
 * daemon's log tail.
 * @return 0 or -1.
 */
int harness_start(struct harness *h, const char *conf_text, int threads, char *err, size_t errlen);

/** harness_start with a variant of the daemon (opts may be NULL: the
 *  defaults, exactly harness_start). */
int harness_start_ex(struct harness *h, const char *conf_text, int threads,
                     const struct harness_opts *opts, char *err, size_t errlen);

/** Stops both daemons (if this process started them) and removes the
 *  directory.  Never fails a test, so it is safe in a teardown; safe to
 *  call twice and on a harness that never started. */
void harness_stop(struct harness *h);

/** harness_start for a fixture: fails the current test/setup with the
 *  reason when the daemons do not come up. */
void harness_setup(struct harness *h, const char *conf_text, int threads);

/**
 * A test case of the integration suites: one daemon pair for all its tests,
 * started by setup (an unchecked fixture; none when NULL) and stopped by
 * teardown, and 60 seconds for the whole case.
 */
TCase *harness_tcase(const char *name, void (*setup)(void), void (*teardown)(void));

/** harness_setup with a variant of the daemon (harness_start_ex). */
void harness_setup_ex(struct harness *h, const char *conf_text, int threads,
                      const struct harness_opts *opts);

/**
 * Runs Unbound alone with conf_text as its idnguard.conf, expecting it to
 * refuse to start.  Waits at most HARNESS_START_MS for it to exit; if it is
 * still running (it started after all) it is stopped and 1 returned.
 * @param conf_path: the IDNGUARD_CONF value used, for messages.
 * @param status: its wait status when it exited.
 * @param log: its log and stderr, NUL-terminated.
 * @return 0 when it exited, 1 when it kept running, -1 on a local error.
 */
int harness_run_failing(const char *conf_text, char *conf_path, size_t pathcap, int *status,
                        char *log, size_t logcap);

/** Is the daemon still running?  (owner: unused, as the daemons are
 *  lab.sh's children.) */
int harness_alive(pid_t pid, pid_t owner);

/** Sends SIGHUP to Unbound (a reload: module deinit and init). */
int harness_sighup(const struct harness *h);

/** Rewrites the daemon's idnguard.conf (for a reload): a new file renamed
 *  over it, so it is a new inode that the daemon never sees half written. */
int harness_write_conf(const struct harness *h, const char *conf_text);

/**
 * Rewrites the daemon's idnguard.conf in place, as an editor that saves
 * over the file does: the same inode, one write(2) from its start, padded
 * with a comment so that it never gets shorter (a reader never sees it
 * empty or cut), then cut to that length.
 */
int harness_edit_conf(const struct harness *h, const char *conf_text);

/**
 * Runs argv (argv[0] a path) as a child: stdin from /dev/null, stdout into
 * out_path and stderr into err_path (truncated; the same path for both is
 * one file; NULL is /dev/null), signals at their defaults, no other
 * descriptor.  It stays in our process group (Check ends a forked test's
 * whole group) and gets SIGTERM if we die first.
 * @return its pid, or -1 when a file could not be opened or fork failed.
 */
pid_t harness_spawn(char *const argv[], const char *out_path, const char *err_path);

/* ---- files and log lines ---- */

/** Size of a file in octets, 0 if missing: an offset to read new lines from. */
long harness_file_size(const char *path);

/** Reads a file from offset from; malloc'd, NUL-terminated, *len octets
 *  (it may hold NULs); NULL if it cannot be read. */
char *harness_read_file(const char *path, long from, size_t *len);

/** The last cap - 1 octets of a file, for failure messages. */
void harness_tail(const char *path, char *out, size_t cap);

/**
 * Waits (bounded polling) until a complete line (ending in \n) after
 * offset from holds needle; copies it, without the \n, to line.
 * @return 1 when found, 0 on timeout.
 */
int harness_wait_line(const char *path, long from, const char *needle, int timeout_ms, char *line,
                      size_t cap);

/** Complete lines after offset from that hold needle. */
int harness_count_lines(const char *path, long from, const char *needle);

/**
 * Waits until at least n complete lines after from hold needle.
 * @return the count seen last (>= n on success).
 */
int harness_wait_count(const char *path, long from, const char *needle, int n, int timeout_ms);

/* ---- queries and their log lines ---- */

/** Flags of harness_query, or'ed: those of dnsq_query_ex.  0 is UDP with
 *  EDNS (no DO), RD set.  HQ_DO needs EDNS (not with HQ_NOEDNS). */
enum {
    HQ_TCP = DNSQ_F_TCP,       /**< over TCP */
    HQ_NOEDNS = DNSQ_F_NOEDNS, /**< no OPT record */
    HQ_CD = DNSQ_F_CD,         /**< Checking Disabled */
    HQ_DO = DNSQ_F_DO,         /**< DNSSEC OK: RRSIGs in the reply, and AD when secure */
    HQ_AD = DNSQ_F_AD,         /**< AD in the query: AD in the reply when secure, without DO */
    HQ_CHAOS = DNSQ_F_CHAOS,   /**< class CH */
    HQ_RCODE5 = DNSQ_F_RCODE5, /**< RCODE 5 in the query header */
    HQ_SMALL = DNSQ_F_SMALL,   /**< EDNS payload 512 */
    HQ_NORD = DNSQ_F_NORD      /**< RD=0 (needs access-control allow_snoop) */
};

/** The module's text log line, split into its fields (idng_log.h). */
struct qline {
    char time[48]; /**< "" when the sink adds its own (Unbound's log) */
    char client[64];
    unsigned port;
    char qname[1100];
    char unicode[2600]; /**< without the parentheses; "" when absent */
    char qtype[24], qclass[24], rcode[24];
    char verdict[400]; /**< "contextj:xn--ab-m1t" as it stands */
    char action[24], path[24];
    int ede;        /**< -1 when absent */
    char lookalike[80]; /**< UTS #39 classes found ("mixed-script"); "" when absent */
    char target[1100]; /**< normalize's A-label name; "" when absent */
    char proto[16];    /**< "udp", "tcp", ...; "" when absent */
    char ms[32];       /**< elapsed milliseconds as written; "" when absent */
    char raw[4096]; /**< the line as read (set by hx_query), for messages */
};

/** Splits a text line (with or without Unbound's prefix up to
 *  "idnguard: ").  @return 0, or -1 if the fields are not all there. */
int qline_parse(const char *text, struct qline *q);

/**
 * Sends one query to Unbound and fetches the module's line for it (the
 * line in h->qlog, written after the query was sent, with
 * "127.0.0.1#<source port> ").
 * @param timeout_ms: how long to wait for the reply (HARNESS_QUERY_MS, or
 *   HARNESS_DROP_MS where no reply is expected).
 * @param line: the line without Unbound's prefix, or, when none is found,
 *   a description of what the log held instead.
 * @return 1 when the reply (or timeout) and the line were had, 0 when the
 *   line did not appear, -1 when the query itself failed.
 */
int harness_query(const struct harness *h, const char *qname, uint16_t qtype, unsigned flags,
                  int timeout_ms, struct dnsq_result *r, char *line, size_t cap);

/* ---- assertions for the suites: each fails the calling test with details ---- */

/** harness_query that must succeed, with a line that must parse. */
void hx_query(const struct harness *h, const char *qname, uint16_t qtype, unsigned flags,
              int timeout_ms, struct dnsq_result *r, struct qline *q);

/**
 * A query the module answered itself: rcode (REFUSED or NXDOMAIN), no
 * answer records, EDE 15 whose text begins with ede_prefix (when the query
 * had EDNS); the line: qname_log, the same rcode, verdict (exact),
 * action, path "policy", ede=15.
 */
void hx_expect_policy(const struct dnsq_result *r, const struct qline *q, const char *qname_log,
                      int rcode, const char *verdict, const char *action, const char *ede_prefix);

/**
 * A query answered with data: NOERROR, no EDE, the answer section equal to
 * summary (dnsq_answer_summary form); the line: qname_log, NOERROR,
 * verdict, action, path.
 */
/**
 * No EDE on an answer but, on a CD=1 reply, Unbound's own DNSSEC
 * Indeterminate (5) or DNSSEC Bogus (6), which Unbound 1.26.2 attaches to
 * the data it hands a CD client and 1.17.1 does not (pdns: the Recursor's
 * own, any DNSSEC one, 1-12): never the module's.
 */
int hx_answer_ede_ok(const struct dnsq_result *r);

void hx_expect_data(const struct dnsq_result *r, const struct qline *q, const char *qname_log,
                    const char *summary, const char *verdict, const char *action, const char *path);

/* ---- the two flavours: one table of expectations ---- */

/**
 * The flavour of the lab ($IDNGUARD_FLAVOUR, scripts/lab.sh --flavour):
 * 0 for the dynlib module in the Unbound built here, 1 for the python
 * module (python/idnguard.py) in Debian's stock daemon.  The integration
 * suites run under both (`make check-integration`, `make check-python`)
 * from the same expectations: where the python module does something
 * else, the expectation says what, on the spot, with PY(dynlib, python),
 * PY_DOES (a comment-like string naming the difference, printed once per
 * test so the run lists them) or the helpers below.  docs/unbound.md's
 * answer-path table has the reasons.
 */
int harness_python(void);
#define PY(dyn, py) (harness_python() ? (py) : (dyn))
/** Notes, under the python flavour, that the test's expectations are the
 *  python module's (why: a short reason), on stdout. */
void py_does(const char *why);

/**
 * A query the policy drops.  dynlib: no reply, and a DROPPED line (verdict
 * exact, action drop, path policy).  PY: Unbound's python API cannot drop
 * (module_qstate.is_drop is not wrapped): REFUSED without EDE, and the line
 * says REFUSED with action drop, path policy.
 */
void hx_expect_dropped(const struct dnsq_result *r, const struct qline *q, const char *qname_log,
                       const char *verdict);

/**
 * A raw name normalized.  cname is the answer's CNAME ("raw. CNAME
 * xn--....") and rest the A-label name's answer after it.  dynlib: cname
 * then rest, path resolved (or cache when allow_cache).  PY (and wherever
 * harness_cname_alone): the answer is the CNAME alone (path policy,
 * target= in the line), and the client that follows it (queried here, with
 * qtype) gets rest.
 */
void hx_expect_normalized(const struct harness *h, const struct dnsq_result *r,
                          const struct qline *q, const char *qname_log, uint16_t qtype,
                          const char *cname, const char *rest, const char *verdict);

/**
 * PY (and wherever harness_cname_alone): a raw name is judged in its
 * A-label form only once the client asks for that name.  When the reply in r and q is normalize's CNAME (NOERROR,
 * action normalize, path policy, a target), queries the target as a client
 * following it would (qtype, flags, timeout_ms) into r and q, and puts the
 * target into qname_log (cap octets).  @return 1 when it followed; 0
 * otherwise (the whole chain, or any other reply).
 */
int py_follow_normalize(const struct harness *h, uint16_t qtype, unsigned flags, int timeout_ms,
                        struct dnsq_result *r, struct qline *q, char *qname_log, size_t cap);

/* ---- the engines: the guard in other resolvers, through the Lua binding ---- */

/** The flavours of the lab ($IDNGUARD_FLAVOUR). */
enum hx_flavour { HX_DYNLIB, HX_PYTHON, HX_KRESD, HX_PDNS, HX_DNSDIST };

/**
 * The flavour of the lab.  kresd (Knot Resolver), pdns (PowerDNS
 * Recursor) and dnsdist (in front of the Unbound built here, without the
 * module) run idnguard through lua/idnguard.lua and libidnguard, from the
 * Debian 13 root (tests/integration/engines/).  The suites run under them
 * from the same expectations as under dynlib: where an engine does
 * something else, the expectation says so on the spot, with
 * ENGINE(dynlib, kresd, pdns, dnsdist) (python's own difference, if any,
 * with PY inside the first argument) and engine_does(); a test that needs
 * Unbound itself (its module-config, server: options, unbound-control) is
 * not added to the suite under an engine (harness_engine()).
 */
enum hx_flavour harness_flavour(void);
/** Is the lab's resolver one of the Lua engines (kresd, pdns, dnsdist)? */
int harness_engine(void);
#define ENGINE(dyn, kresd, pdns, dnsdist)                                                          \
    (harness_flavour() == HX_KRESD    ? (kresd)                                                  \
     : harness_flavour() == HX_PDNS   ? (pdns)                                                   \
     : harness_flavour() == HX_DNSDIST ? (dnsdist)                                               \
                                       : (dyn))
/** Notes, under an engine flavour, that the test's expectations are the
 *  engine's (why: a short reason), on stdout. */
void engine_does(const char *why);

/**
 * Does a raw name that is normalized get normalize's CNAME alone, which the
 * client follows (its next query judged and scanned as any other), rather
 * than the CNAME and the A-label name's answer?  The python module (no
 * sub-queries from python), PowerDNS Recursor (the answer its own CNAME
 * chase adds reaches the client past every hook, unscanned) and dnsdist (a
 * proxy, which asks its backend nothing of its own) do that.
 * hx_expect_normalized and py_follow_normalize go by it; CN(chain, alone)
 * is an expectation's value for each.
 */
int harness_cname_alone(void);
#define CN(chain, alone) (harness_cname_alone() ? (alone) : (chain))

/** A monotonic clock in milliseconds. */
long long harness_now_ms(void);

#endif
