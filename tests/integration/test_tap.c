/**
 * \file
 * `idnguard tap` against real resolvers: the tap listens on a Unix socket
 * (-u), the lab's Unbound sends it its client queries and responses over
 * dnstap (harness_opts.dnstap_socket, scripts/lab.sh --dnstap), and the
 * tap's lines (-w FILE) are read back field by field.
 *
 * - dynlib: the Unbound built here with the module.  Each query's tap line
 *   says what the module's own line says (client, qname, Unicode form,
 *   type, class, rcode, verdict, action, EDE, transport); only the time
 *   (the tap's is the query's arrival) and the path (the tap's is always
 *   "-") differ.  Good IDNs, fake A-labels, raw UTF-8, names with control
 *   octets, NUL, blanks, bidi controls and brackets, over UDP and TCP.
 * - stock: Debian's stock daemon without the module.  Unbound answers
 *   everything; the tap's verdict and action still say what the settings
 *   would have done (a fake A-label: its class and refuse, next to
 *   Unbound's NOERROR).
 * - restart: the resolver is stopped and another one started on the same
 *   socket while the tap runs; the tap takes the new connection, lines go
 *   on, and after SIGTERM it exits 0 with its summary line.
 * - socket: what -u does with what is already at its path.
 *
 * Debian's dnsdist as a producer is in test_tap_dnsdist.c; the tap process
 * itself in tap_proc.c.  With IDNGUARD_TAP_PRODUCER set (make
 * check-tap-producers) the suite is the producers of Debian 13's instead.
 *
 * Environment: that of every integration suite (harness.h), and
 * IDNGUARD_BIN (the CLI).
 */
#include "common.h"
#include "harness.h"
#include "tap_proc.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- dynlib: the tap's lines and the module's ---- */

static struct harness H;
static struct tap T;

/* The module and the tap read the same settings: raw UTF-8 is normalized,
 * a label that decodes to ASCII is dropped, the rest refused. */
#define CONF_TEXT "idnguard:\non-ascii-only: drop\n"

static void setup_dynlib(void)
{
    struct harness_opts o = {.dnstap_socket = NULL};

    tap_start(&T, CONF_TEXT);
    o.dnstap_socket = T.sock;
    harness_setup_ex(&H, CONF_TEXT, 1, &o);
}

static void teardown_dynlib(void)
{
    tap_lab_stop(&H, &T);
}

static const struct {
    const char *qname; /* sent, presentation form */
    uint16_t qtype;
    unsigned flags;
    const char *rcode, *verdict, *action;
} same[] = {
    {"xn--bcher-kva.example", DNSQ_A, 0, "NOERROR", "ok", "pass"},
    {"xn--bcher-kva.example", DNSQ_AAAA, HQ_TCP, "NOERROR", "ok", "pass"},
    {"xn--80aafi6cg.example", DNSQ_A, 0, "NOERROR", "ok", "pass"},
    {"xn--ls8h.example", DNSQ_A, 0, "NOERROR", "ok", "pass"},
    {"_dmarc.example", DNSQ_TXT, 0, "NOERROR", "ok", "pass"},
    {"xn--ab-m1t.example", DNSQ_A, 0, "REFUSED", "contextj:xn--ab-m1t", "refuse"},
    {"xn--ab-m1t.example", DNSQ_A, HQ_NOEDNS, "REFUSED", "contextj:xn--ab-m1t", "refuse"},
    {"xn--ab-m1t.example", DNSQ_A, HQ_TCP, "REFUSED", "contextj:xn--ab-m1t", "refuse"},
    {"xn--zz.example", DNSQ_A, 0, "REFUSED", "bad-punycode:xn--zz", "refuse"},
    {"xn--a-99999999999.example", DNSQ_A, HQ_TCP, "REFUSED", "bad-punycode:xn--a-99999999999",
     "refuse"},
    {"xn--0000h.example", DNSQ_A, 0, "REFUSED", "bad-codepoint:xn--0000h", "refuse"},
    {"xn--cafe-yvc.example", DNSQ_A, 0, "REFUSED", "not-canonical:xn--cafe-yvc", "refuse"},
    {"b\\195\\188cher.example", DNSQ_A, 0, "NOERROR", "raw-8bit:b\\195\\188cher", "normalize"},
    {"b\\195\\188cher.example", DNSQ_A, HQ_TCP, "NOERROR", "raw-8bit:b\\195\\188cher", "normalize"},
    {"a\\255b.example", DNSQ_A, 0, "REFUSED", "bad-utf8:a\\255b", "refuse"},
    {"a\\010b.example", DNSQ_A, 0, "NXDOMAIN", "ok", "pass"},
    {"a\\000b\\127.example", DNSQ_A, 0, "NXDOMAIN", "ok", "pass"},
    {"a\\032b.example", DNSQ_A, 0, "NXDOMAIN", "ok", "pass"},
    {"a\\226\\128\\174b.example", DNSQ_A, 0, "REFUSED", "disallowed:a\\226\\128\\174b", "refuse"},
    {"x\\027[31mred.example", DNSQ_A, 0, "NXDOMAIN", "ok", "pass"},
    {"a\\046b\\032(c)\\059.example", DNSQ_A, HQ_TCP, "NXDOMAIN", "ok", "pass"},
    {"version.bind", DNSQ_TXT, HQ_CHAOS, "NOERROR", "ok", "pass"},
};
#define NSAME ((int)(sizeof same / sizeof same[0]))

/* The fields the tap and the module must agree on. */
static void expect_same(const struct qline *tap, const struct qline *mod, unsigned flags)
{
#define SAME_STR(f)                                                                                \
    ck_assert_msg(strcmp(tap->f, mod->f) == 0,                                                     \
                  #f ": tap %s, module %s\n  tap:    %s\n  module: %s", tap->f, mod->f, tap->raw,  \
                  mod->raw)
    SAME_STR(client);
    SAME_STR(qname);
    SAME_STR(unicode);
    SAME_STR(qtype);
    SAME_STR(qclass);
    SAME_STR(verdict);
    SAME_STR(action);
    SAME_STR(lookalike);
    /* PY: no proto= in the python module's lines (the transport is not in
     * Unbound's python API); the callers check the tap's against the query. */
    if (!harness_python())
        SAME_STR(proto);
#undef SAME_STR
    ck_assert_msg(tap->port == mod->port, "port: tap %u, module %u", tap->port, mod->port);
    /* PY: the python module's ede=15 says it attached the EDE, not that
     * the client got it (test_guard.c): without EDNS the client, and so
     * the tap, saw none. */
    if (harness_python() && (flags & HQ_NOEDNS) && mod->ede == 15 && tap->ede == -1)
        py_does("ede=15 in the module's line means attached; the tap's, received");
    else
        ck_assert_msg(tap->ede == mod->ede, "ede: tap %d, module %d\n  tap:    %s\n  module: %s",
                      tap->ede, mod->ede, tap->raw, mod->raw);
    /* The module writes DROPPED where the tap saw no response. */
    ck_assert_msg(strcmp(tap->rcode, strcmp(mod->rcode, "DROPPED") == 0 ? "-" : mod->rcode) == 0,
                  "rcode: tap %s, module %s\n  tap:    %s\n  module: %s", tap->rcode, mod->rcode,
                  tap->raw, mod->raw);
}

START_TEST(test_same_as_module)
{
    struct dnsq_result r;
    struct qline mod, tap;
    long from = harness_file_size(T.out);

    if (harness_python() && (same[_i].flags & HQ_CHAOS)) {
        /* PY: CHAOS queries are answered and not logged (test_guard.c,
         * test_chaos_query_named): the tap's line alone. */
        py_does("CHAOS queries are not logged: the tap's line is checked alone");
        ck_assert_msg(dnsq_query_ex(H.port, same[_i].qname, same[_i].qtype, same[_i].flags,
                                    HARNESS_QUERY_MS, &r)
                              == 0
                          && !r.timed_out,
                      "%s: no answer", same[_i].qname);
        tap_line(&T, from, r.local_port, HARNESS_LOG_MS, &tap);
    } else {
        hx_query(&H, same[_i].qname, same[_i].qtype, same[_i].flags, HARNESS_QUERY_MS, &r, &mod);
        tap_line(&T, from, r.local_port, HARNESS_LOG_MS, &tap);
        expect_same(&tap, &mod, same[_i].flags);
    }
    ck_assert_msg(
        strcmp(tap.rcode, same[_i].rcode) == 0 && strcmp(tap.verdict, same[_i].verdict) == 0
            && strcmp(tap.action, same[_i].action) == 0,
        "%s: tap says %s %s %s, expected %s %s %s: %s", same[_i].qname, tap.rcode, tap.verdict,
        tap.action, same[_i].rcode, same[_i].verdict, same[_i].action, tap.raw);
    ck_assert_msg(strcmp(tap.proto, same[_i].flags & HQ_TCP ? "tcp" : "udp") == 0, "proto=%s: %s",
                  tap.proto, tap.raw);
    ck_assert_msg(tap.ms[0] != '\0', "no ms= though the response was seen: %s", tap.raw);
    ck_assert_msg((tap.ede == 15) == (r.ede_code == 15), "ede=%d, the response's EDE %d: %s",
                  tap.ede, r.ede_code, tap.raw);
}
END_TEST

/* A query the module drops has no response: the tap writes its line when
 * its wait ends, with rcode "-" and no ms=.  PY: the python module answers
 * REFUSED instead of dropping (harness.h, hx_expect_dropped). */
START_TEST(test_dropped)
{
    struct dnsq_result r;
    struct qline mod, tap;
    long from = harness_file_size(T.out);

    hx_query(&H, "xn--example-.example", DNSQ_A, 0, PY(HARNESS_DROP_MS, HARNESS_QUERY_MS), &r,
             &mod);
    hx_expect_dropped(&r, &mod, "xn--example-.example.", "ascii-only:xn--example-");
    tap_line(&T, from, r.local_port, HARNESS_LOG_MS + 1000 * TAP_WAIT_S, &tap);
    expect_same(&tap, &mod, 0);
    ck_assert_msg(strcmp(tap.rcode, PY("-", "REFUSED")) == 0 && strcmp(tap.proto, "udp") == 0,
                  "rcode %s proto=%s: %s", tap.rcode, tap.proto, tap.raw);
    ck_assert_msg((tap.ms[0] == '\0') == !harness_python(), "ms=%s: %s", tap.ms, tap.raw);
}
END_TEST

/* The output file moved away (logrotate's default): the tap opens a new
 * one at the same path, as the module does with its log-file. */
START_TEST(test_output_rotated)
{
    char moved[HARNESS_PATH_MAX + 32];
    struct dnsq_result r;
    struct qline mod, tap;
    long long deadline;

    snprintf(moved, sizeof moved, "%s.1", T.out);
    ck_assert_msg(rename(T.out, moved) == 0, "rename %s: %s", T.out, strerror(errno));
    /* Queries until one line lands in the new file: the tap looks at the
     * path at most once a second. */
    deadline = harness_now_ms() + HARNESS_LOG_MS + 2000;
    for (;;) {
        hx_query(&H, "xn--bcher-kva.example", DNSQ_A, 0, HARNESS_QUERY_MS, &r, &mod);
        if (access(T.out, F_OK) == 0 && harness_file_size(T.out) > 0)
            break;
        ck_assert_msg(harness_now_ms() < deadline, "no new %s after it was moved away", T.out);
        t_sleep_ms(200);
    }
    tap_line(&T, 0, r.local_port, HARNESS_LOG_MS, &tap);
    expect_same(&tap, &mod, 0);
}
END_TEST

/* ---- stock: Debian's daemon without the module ---- */

static void setup_stock(void)
{
    struct harness_opts o = {.flavour = "stock"};

    tap_start(&T, "idnguard:\n");
    o.dnstap_socket = T.sock;
    harness_setup_ex(&H, "idnguard:\n", 1, &o);
}

static const struct {
    const char *qname;
    uint16_t qtype;
    unsigned flags;
    const char *logged, *unicode, *qtype_name, *rcode, *verdict, *action;
} stock[] = {
    {"xn--bcher-kva.example", DNSQ_A, 0, "xn--bcher-kva.example.",
     "b\xc3\xbc"
     "cher.example.",
     "A", "NOERROR", "ok", "pass"},
    {"xn--bcher-kva.example", DNSQ_AAAA, HQ_TCP, "xn--bcher-kva.example.",
     "b\xc3\xbc"
     "cher.example.",
     "AAAA", "NOERROR", "ok", "pass"},
    /* answered with NSD's data, though the settings say refuse */
    {"xn--ab-m1t.example", DNSQ_A, 0, "xn--ab-m1t.example.", "", "A", "NOERROR",
     "contextj:xn--ab-m1t", "refuse"},
    {"xn--zz.example", DNSQ_A, HQ_TCP, "xn--zz.example.", "", "A", "NXDOMAIN",
     "bad-punycode:xn--zz", "refuse"},
    /* sent on as it is: nothing normalizes it */
    {"b\\195\\188cher.example", DNSQ_A, 0, "b\\195\\188cher.example.", "", "A", "NXDOMAIN",
     "raw-8bit:b\\195\\188cher", "normalize"},
    {"a\\226\\128\\174b.example", DNSQ_A, 0, "a\\226\\128\\174b.example.", "", "A", "NXDOMAIN",
     "disallowed:a\\226\\128\\174b", "refuse"},
    {"a\\000b\\127.example", DNSQ_A, 0, "a\\000b\\127.example.", "", "A", "NXDOMAIN", "ok", "pass"},
};
#define NSTOCK ((int)(sizeof stock / sizeof stock[0]))

START_TEST(test_stock_producer)
{
    struct dnsq_result r;
    struct qline tap;
    long from = harness_file_size(T.out);

    ck_assert_msg(dnsq_query_ex(H.port, stock[_i].qname, stock[_i].qtype, stock[_i].flags,
                                HARNESS_QUERY_MS, &r)
                          == 0
                      && !r.timed_out,
                  "%s: no answer from the stock daemon", stock[_i].qname);
    ck_assert_msg(strcmp(dnsq_rcode_name(r.rcode), stock[_i].rcode) == 0,
                  "%s: the stock daemon answered %s (expected %s)", stock[_i].qname,
                  dnsq_rcode_name(r.rcode), stock[_i].rcode);
    tap_line(&T, from, r.local_port, HARNESS_LOG_MS, &tap);
    ck_assert_msg(
        strcmp(tap.qname, stock[_i].logged) == 0 && strcmp(tap.unicode, stock[_i].unicode) == 0
            && strcmp(tap.qtype, stock[_i].qtype_name) == 0 && strcmp(tap.qclass, "IN") == 0,
        "%s: tap line's question: %s", stock[_i].qname, tap.raw);
    ck_assert_msg(strcmp(tap.rcode, stock[_i].rcode) == 0
                      && strcmp(tap.verdict, stock[_i].verdict) == 0
                      && strcmp(tap.action, stock[_i].action) == 0 && tap.ede == -1,
                  "%s: tap says %s %s %s ede=%d, expected %s %s %s: %s", stock[_i].qname, tap.rcode,
                  tap.verdict, tap.action, tap.ede, stock[_i].rcode, stock[_i].verdict,
                  stock[_i].action, tap.raw);
    ck_assert_msg(strcmp(tap.proto, stock[_i].flags & HQ_TCP ? "tcp" : "udp") == 0 && tap.ms[0],
                  "%s: proto=%s ms=%s: %s", stock[_i].qname, tap.proto, tap.ms, tap.raw);
}
END_TEST

/* ---- restart, and the summary ---- */

/* One query, and its tap line. */
static void query_and_line(const struct harness *h, const struct tap *t, const char *qname)
{
    struct dnsq_result r;
    struct qline q;
    long from = harness_file_size(t->out);

    ck_assert_msg(dnsq_query_ex(h->port, qname, DNSQ_A, 0, HARNESS_QUERY_MS, &r) == 0
                      && !r.timed_out,
                  "%s: no answer", qname);
    tap_line(t, from, r.local_port, HARNESS_LOG_MS, &q);
}

/* The resolver stops and another starts, with the same socket: the tap
 * accepts the new connection and the lines go on.  SIGTERM then: exit 0,
 * the summary line, every line written, nothing malformed. */
START_TEST(test_restart_and_summary)
{
    struct harness h1, h2;
    struct tap t;
    struct harness_opts o = {.dnstap_socket = NULL};
    struct tap_summary s;
    int st, lines;

    tap_start(&t, "idnguard:\n");
    o.dnstap_socket = t.sock;
    harness_setup_ex(&h1, "idnguard:\n", 1, &o);
    query_and_line(&h1, &t, "xn--bcher-kva.example");
    harness_stop(&h1);
    harness_setup_ex(&h2, "idnguard:\n", 1, &o);
    query_and_line(&h2, &t, "xn--ab-m1t.example");
    query_and_line(&h2, &t, "www.example");
    harness_stop(&h2);
    st = tap_stop(&t);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "tap after SIGTERM: wait status 0x%x", st);
    tap_summary(&t, &s);
    lines = harness_count_lines(t.out, 0, " ");
    ck_assert_msg(s.connections >= 2, "connections=%ld after a restart", s.connections);
    ck_assert_msg(s.lines == lines && lines >= 3, "lines=%ld, %d in the file", s.lines, lines);
    ck_assert_msg(s.frames >= 2 * s.lines && s.messages == 2 * s.lines - s.unanswered,
                  "frames=%ld messages=%ld for %ld lines, %ld unanswered", s.frames, s.messages,
                  s.lines, s.unanswered);
    ck_assert_msg(s.mal_frames == 0 && s.mal_messages == 0 && s.mal_dns == 0,
                  "malformed: frames %ld, messages %ld, dns %ld", s.mal_frames, s.mal_messages,
                  s.mal_dns);
    tap_cleanup(&t);
}
END_TEST

/* ---- the socket path ---- */

/* A regular file at the path is not the tap's to remove: it refuses to
 * start and leaves it.  A socket nobody listens on (a crashed reader's) is
 * replaced. */
START_TEST(test_socket_path)
{
    struct tap t;
    struct stat sb;
    struct sockaddr_un sa;
    int fd, st;
    pid_t pid;

    tap_start(&t, "idnguard:\n");
    tap_stop(&t);
    /* a stale socket: bound, never listened on, closed, still on disk */
    unlink(t.sock);
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    ck_assert_msg(strlen(t.sock) < sizeof sa.sun_path, "socket path too long: %s", t.sock);
    memcpy(sa.sun_path, t.sock, strlen(t.sock) + 1);
    fd = socket(AF_UNIX, SOCK_STREAM, 0);
    ck_assert_msg(fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0, "bind %s: %s",
                  t.sock, strerror(errno));
    close(fd);
    {
        char *args[] = {"-u", t.sock, "-w", t.out, "--conf", t.conf, NULL};
        char line[LINE_CAP];
        t.pid = tap_spawn(&t, args);
        ck_assert_msg(tap_wait_listening(&t, line, sizeof line),
                      "the tap did not take over a stale socket");
        tap_stop(&t);
    }
    /* a regular file */
    unlink(t.sock);
    t_spew_str(t.sock, "not a socket\n");
    {
        char *args[] = {"-u", t.sock, "-w", t.out, "--conf", t.conf, NULL};
        pid = tap_spawn(&t, args);
        ck_assert_msg(tap_reap(pid, HARNESS_START_MS, &st) == 0,
                      "the tap started on a regular file");
        ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) != 0, "exit status 0x%x", st);
        ck_assert_msg(stat(t.sock, &sb) == 0 && S_ISREG(sb.st_mode), "the file at %s is gone",
                      t.sock);
    }
    tap_cleanup(&t);
}
END_TEST

/* ---- the producers of Debian 13 (make check-tap-producers) ---- */

/*
 * Each producer in turn, from Debian 13's packages in their roots
 * (scripts/tap-producer.sh runs it with the settings docs/tap.md gives an
 * operator, the socket being this tap's), on a free port of its own in
 * front of the lab's NSD.  The same names go to each, and the tap's line
 * for each query must say what the client got.  PowerDNS Recursor sends
 * no client messages at all: the tap must take what it sends (its own
 * queries to NSD and their responses, a CLIENT_QUERY without the query
 * for each newly observed domain), write no line, and count nothing as
 * malformed.
 *
 * The setup asks every name, in order, and keeps the answers; each test
 * then checks one of them and its line.  So the producers' dnstap delay
 * (libfstrm sends at least once a second) is waited out once per
 * producer, not once per name.
 */
struct producer {
    const char *name;    /* tap-producer.sh's PRODUCER, the tcase's name */
    int client_messages; /* 0: its dnstap has none (PowerDNS Recursor) */
};
static const struct producer *P;
static pid_t producer_pid;
static int producer_port;
static char producer_out[HARNESS_PATH_MAX + 32];

/* The names, as the lab's NSD answers them (no producer judges names):
 * the tap's verdict and action are what the settings would do. */
static const struct {
    const char *qname;
    unsigned flags;
    const char *logged, *unicode, *rcode, *verdict, *action;
    int cached; /* asked before: from the producer's cache */
} via_producer[] = {
    {"xn--bcher-kva.example", 0, "xn--bcher-kva.example.",
     "b\xc3\xbc"
     "cher.example.",
     "NOERROR", "ok", "pass", 0},
    {"xn--ab-m1t.example", HQ_TCP, "xn--ab-m1t.example.", "", "NOERROR", "contextj:xn--ab-m1t",
     "refuse", 0},
    {"b\\195\\188cher.example", 0, "b\\195\\188cher.example.", "", "NXDOMAIN",
     "raw-8bit:b\\195\\188cher", "normalize", 0},
    /* dnsdist: from its packet cache, which has response actions of its own */
    {"xn--bcher-kva.example", 0, "xn--bcher-kva.example.",
     "b\xc3\xbc"
     "cher.example.",
     "NOERROR", "ok", "pass", 1},
};
#define NVIA_PRODUCER ((int)(sizeof via_producer / sizeof via_producer[0]))

/* The setup's answers to via_producer's names (dnsq_query_ex's return). */
static struct dnsq_result producer_answer[NVIA_PRODUCER];
static int producer_asked[NVIA_PRODUCER];

/* The producer's output and the tap's stderr, for a failure message. */
#define TAILS_CAP 4096
static const char *producer_tails(char *buf)
{
    char a[1500], b[700];

    harness_tail(producer_out, a, sizeof a);
    harness_tail(T.err, b, sizeof b);
    snprintf(buf, TAILS_CAP, "\n--- %s ---\n%s\n--- %s ---\n%s", producer_out, a, T.err, b);
    return buf;
}

/* Has the tap taken what the producer sent for this answered probe, within
 * a bound?  Its line for the client port, or, from a producer without
 * client messages, more messages than before it. */
static int probe_seen(unsigned port, long long before)
{
    char needle[40], line[LINE_CAP];
    struct tap_counts c;
    long long deadline = harness_now_ms() + HARNESS_LOG_MS + 2000;

    if (P->client_messages) {
        snprintf(needle, sizeof needle, " 127.0.0.1#%u ", port);
        return harness_wait_line(T.out, 0, needle, HARNESS_LOG_MS + 2000, line, sizeof line);
    }
    do {
        if (tap_counts(&T, &c) == 0 && c.messages > before)
            return 1;
        t_sleep_ms(100);
    } while (harness_now_ms() < deadline);
    return 0;
}

/* The producer on a free port; 0 once it answers and the tap has taken
 * what it sent for that, -1 when it exited first (a port taken meanwhile:
 * the caller tries again), -2 when neither came within the bound. */
static int producer_start(const char *script)
{
    char port[16], nsd_port[16];
    long long deadline;
    struct dnsq_result r;
    int st;

    producer_port = tap_free_port();
    ck_assert_msg(producer_port > 0, "no free port");
    snprintf(port, sizeof port, "%d", producer_port);
    snprintf(nsd_port, sizeof nsd_port, "%d", H.nsd_port);
    snprintf(producer_out, sizeof producer_out, "%s/%s.out", T.dir, P->name);
    {
        char *argv[] = {"/bin/sh", (char *)script, (char *)P->name, T.dir, port, nsd_port, NULL};
        producer_pid = harness_spawn(argv, producer_out, producer_out);
        ck_assert_msg(producer_pid > 0, "cannot start %s: %s", script, strerror(errno));
    }
    deadline = harness_now_ms() + 2 * HARNESS_START_MS;
    while (harness_now_ms() < deadline) {
        struct tap_counts c;
        if (waitpid(producer_pid, &st, WNOHANG) == producer_pid) {
            producer_pid = 0;
            return -1;
        }
        if (tap_counts(&T, &c) != 0)
            c.messages = 0;
        if (dnsq_query_ex(producer_port, "www.example", DNSQ_A, 0, 500, &r) == 0 && !r.timed_out
            && r.rcode == 0 && probe_seen(r.local_port, c.messages))
            return 0;
        t_sleep_ms(100);
    }
    return -2;
}

static void teardown_producer(void);

static void setup_producer(const struct producer *p)
{
    const char *script = getenv("IDNGUARD_TAP_PRODUCER");
    struct harness_opts o = {.only = "nsd"};
    int tries, i;

    int st = -1;

    P = p;
    tap_start(&T, "idnguard:\n");
    harness_setup_ex(&H, "idnguard:\n", 1, &o);
    for (tries = 0; tries < 3 && (st = producer_start(script)) == -1; tries++)
        ;
    if (st != 0) {
        /* Nothing left running for the producers after this one. */
        char tails[TAILS_CAP], why[200];
        snprintf(why, sizeof why,
                 st == -1 ? "%s exited before it answered, three times (a port taken meanwhile?)"
                          : "%s did not answer on its port, or the tap saw nothing of it, within "
                            "the bound",
                 P->name);
        producer_tails(tails);
        teardown_producer();
        ck_abort_msg("%s%s", why, tails);
    }
    for (i = 0; i < NVIA_PRODUCER; i++)
        producer_asked[i] =
            dnsq_query_ex(producer_port, via_producer[i].qname, DNSQ_A, via_producer[i].flags,
                          HARNESS_QUERY_MS, &producer_answer[i]);
}

static void teardown_producer(void)
{
    tap_daemon_stop(&producer_pid);
    teardown_dynlib();
}

static const struct producer producers[] = {
    {"named", 1}, {"kresd", 1}, {"recursor", 0}, {"dnsdist", 1}, {"unbound", 1},
};
#define NPRODUCERS ((int)(sizeof producers / sizeof producers[0]))

static void setup_named(void)
{
    setup_producer(&producers[0]);
}
static void setup_kresd(void)
{
    setup_producer(&producers[1]);
}
static void setup_recursor(void)
{
    setup_producer(&producers[2]);
}
static void setup_dnsdist13(void)
{
    setup_producer(&producers[3]);
}
static void setup_unbound13(void)
{
    setup_producer(&producers[4]);
}
static void (*const producer_setups[NPRODUCERS])(void) = {
    setup_named, setup_kresd, setup_recursor, setup_dnsdist13, setup_unbound13,
};

/* What the client got, and the tap's line for it. */
START_TEST(test_producer_query)
{
    const struct dnsq_result *r = &producer_answer[_i];
    char needle[40];
    struct qline tap;

    ck_assert_msg(producer_asked[_i] == 0 && !r->timed_out, "%s: no answer from %s",
                  via_producer[_i].qname, P->name);
    ck_assert_msg(strcmp(dnsq_rcode_name(r->rcode), via_producer[_i].rcode) == 0,
                  "%s: %s answered %s (expected %s)", via_producer[_i].qname, P->name,
                  dnsq_rcode_name(r->rcode), via_producer[_i].rcode);
    if (!P->client_messages) {
        /* What it did send is counted in test_producer_clean. */
        snprintf(needle, sizeof needle, " 127.0.0.1#%u ", r->local_port);
        ck_assert_msg(harness_count_lines(T.out, 0, needle) == 0,
                      "%s via %s: a line, though it sends no client message",
                      via_producer[_i].qname, P->name);
        return;
    }
    tap_line(&T, 0, r->local_port, HARNESS_LOG_MS + 2000, &tap);
    ck_assert_msg(strcmp(tap.qname, via_producer[_i].logged) == 0
                      && strcmp(tap.unicode, via_producer[_i].unicode) == 0
                      && strcmp(tap.qtype, "A") == 0 && strcmp(tap.qclass, "IN") == 0,
                  "%s via %s: the tap line's question: %s", via_producer[_i].qname, P->name,
                  tap.raw);
    ck_assert_msg(strcmp(tap.rcode, dnsq_rcode_name(r->rcode)) == 0
                      && strcmp(tap.verdict, via_producer[_i].verdict) == 0
                      && strcmp(tap.action, via_producer[_i].action) == 0,
                  "%s via %s: the tap says %s %s %s, the client got %s, the settings say %s %s: "
                  "%s",
                  via_producer[_i].qname, P->name, tap.rcode, tap.verdict, tap.action,
                  dnsq_rcode_name(r->rcode), via_producer[_i].verdict, via_producer[_i].action,
                  tap.raw);
    ck_assert_msg(tap.ede == r->ede_code, "%s via %s: ede=%d, the answer's EDE %d: %s",
                  via_producer[_i].qname, P->name, tap.ede, r->ede_code, tap.raw);
    ck_assert_msg(strcmp(tap.proto, via_producer[_i].flags & HQ_TCP ? "tcp" : "udp") == 0
                      && tap.ms[0],
                  "%s via %s: proto=%s ms=%s: %s", via_producer[_i].qname, P->name, tap.proto,
                  tap.ms, tap.raw);
}
END_TEST

/* What the tap counted, once everything sent has come (bounded): nothing
 * malformed; from a client producer, every query matched to its response;
 * from PowerDNS Recursor, for each name not in its cache (the probe's and
 * three of via_producer's) its query to NSD, the response and a newly
 * observed domain, none of them logged. */
START_TEST(test_producer_clean)
{
    struct tap_counts c = {0};
    long long deadline = harness_now_ms() + HARNESS_LOG_MS + 2000;
    int lines = 0, uncached = 1, i;

    for (i = 0; i < NVIA_PRODUCER; i++)
        uncached += !via_producer[i].cached;
    while (harness_now_ms() < deadline) {
        lines = harness_count_lines(T.out, 0, " ");
        if (tap_counts(&T, &c) == 0
            && (P->client_messages ? lines > NVIA_PRODUCER && c.messages >= 2 * lines + c.other
                                   : c.other >= 3 * uncached))
            break;
        t_sleep_ms(100);
    }
    ck_assert_msg(c.mal_frames == 0 && c.mal_messages == 0 && c.mal_dns == 0,
                  "%s: malformed frames %lld, messages %lld, DNS %lld", P->name, c.mal_frames,
                  c.mal_messages, c.mal_dns);
    ck_assert_msg(c.connections >= 1, "%s: connections %lld", P->name, c.connections);
    if (P->client_messages)
        ck_assert_msg(lines > NVIA_PRODUCER && c.messages == 2 * lines + c.other && c.unmatched == 0
                          && c.unanswered == 0,
                      "%s: %d lines from %lld messages (%lld not logged), %lld unmatched, "
                      "%lld unanswered",
                      P->name, lines, c.messages, c.other, c.unmatched, c.unanswered);
    else
        ck_assert_msg(lines == 0 && c.messages == c.other && c.other >= 3 * uncached,
                      "%s: %d lines, %lld messages, %lld not logged (expected at least %d)",
                      P->name, lines, c.messages, c.other, 3 * uncached);
}
END_TEST

/* IDNGUARD_TAP_PRODUCER (scripts/tap-producer.sh) is set by make
 * check-tap-producers only, which runs this suite in place of the other:
 * the Debian roots it needs are that target's. */
static Suite *producers_suite(void)
{
    Suite *s = suite_create("integration-tap-producers");
    int i;

    for (i = 0; i < NPRODUCERS; i++) {
        TCase *tc = harness_tcase(producers[i].name, producer_setups[i], teardown_producer);
        tcase_add_loop_test(tc, test_producer_query, 0, NVIA_PRODUCER);
        tcase_add_test(tc, test_producer_clean);
        suite_add_tcase(s, tc);
    }
    return s;
}

static Suite *tap_suite(void)
{
    Suite *s = suite_create("integration-tap");
    TCase *tc;

    tc = harness_tcase("dynlib", setup_dynlib, teardown_dynlib);
    tcase_add_loop_test(tc, test_same_as_module, 0, NSAME);
    tcase_add_test(tc, test_dropped);
    tcase_add_test(tc, test_output_rotated);
    suite_add_tcase(s, tc);

    tc = harness_tcase("stock", setup_stock, teardown_dynlib);
    tcase_add_loop_test(tc, test_stock_producer, 0, NSTOCK);
    suite_add_tcase(s, tc);

    tc = harness_tcase("restart", NULL, NULL);
    tcase_add_test(tc, test_restart_and_summary);
    tcase_add_test(tc, test_socket_path);
    suite_add_tcase(s, tc);
    return s;
}

static Suite *suite(void)
{
    const char *p = getenv("IDNGUARD_TAP_PRODUCER");
    return p && p[0] ? producers_suite() : tap_suite();
}

IDNG_TEST_MAIN(suite)
