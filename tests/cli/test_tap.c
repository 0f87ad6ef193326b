/**
 * \file
 * `idnguard tap` as a process (IDNGUARD_BIN), fed dnstap this suite
 * builds itself (tests/tap/tap_build.h): capture files as fstrm_capture
 * writes them, and writers on the Unix socket speaking the bidirectional
 * Frame Streams handshake as Unbound's and BIND's dnstap do.
 *
 * What it holds the tap to: one line per client query in the module's
 * format, query and response matched (elapsed time) or not (a response
 * alone, a query whose response never came); hostile names escaped; the
 * settings file's policy and log filter; JSON; malformed frames, dnstap
 * messages and DNS messages counted and shown, never a crash, the good
 * frames around them still logged; several writers at once, a writer that
 * reconnects, a writer that breaks the handshake; output that stalls
 * (lines dropped and counted, memory bounded); exit statuses.
 *
 * The real producers (Unbound, dnsdist) are the integration suite's
 * (tests/integration/test_tap.c).
 */
#include "common.h"
#include "tap/tap_build.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define POLL_MS 10000

static char dir[512];
/* The tap a test started and has not stopped yet: teardown kills it, so
 * that a failed check (which leaves the test early) never leaves a tap
 * running, holding the suite's output open. */
static pid_t running_tap;

static void setup(void) { t_tmpdir_make(dir, sizeof dir, "idng-tap"); }

static void teardown(void)
{
    if (running_tap > 0) {
        kill(running_tap, SIGKILL);
        waitpid(running_tap, NULL, 0);
        running_tap = 0;
    }
    t_tmpdir_remove(dir);
}

static const char *bin(void)
{
    const char *b = getenv("IDNGUARD_BIN");
    ck_assert_msg(b && access(b, X_OK) == 0, "IDNGUARD_BIN is not set to the idnguard binary");
    return b;
}

static void path_in(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", dir, name);
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; s && *s; s++)
        n += *s == '\n';
    return n;
}

static size_t count_lines_n(const char *s, size_t n)
{
    size_t k = 0, i;
    for (i = 0; i < n; i++)
        k += s[i] == '\n';
    return k;
}

/* ---- building dnstap ---- */

enum { RQ = 3, RR = 4, CQ = 5, CR = 6 };

struct dtm {
    unsigned type;     /* CQ, CR, RQ or RR */
    unsigned proto;    /* 1 udp, 2 tcp, 3 dot */
    uint8_t addr[16];
    size_t alen;
    unsigned port;
    long long qsec;    /* 0: not sent */
    unsigned qnsec;
    long long rsec;
    unsigned rnsec;
    const struct tb *dns;  /* NULL: no DNS message (the producer leaves it out) */
    const struct tb *zone; /* query_zone, a wire name; NULL: none */
};

static void dnstap_msg(struct tb *out, const struct dtm *m)
{
    struct tb in = {{0}, 0};

    tb_pb_varint(&in, 1, m->type);
    tb_pb_varint(&in, 2, m->alen == 16 ? 2 : 1);
    tb_pb_varint(&in, 3, m->proto);
    tb_pb_bytes(&in, 4, m->addr, m->alen);
    tb_pb_varint(&in, 6, m->port);
    if (m->qsec) {
        tb_pb_varint(&in, 8, (uint64_t)m->qsec);
        tb_pb_fixed32(&in, 9, m->qnsec);
    }
    if (m->zone)
        tb_pb_bytes(&in, 11, m->zone->b, m->zone->n);
    if (m->type == CQ || m->type == RQ) {
        if (m->dns)
            tb_pb_bytes(&in, 10, m->dns->b, m->dns->n);
    } else {
        if (m->rsec) {
            tb_pb_varint(&in, 12, (uint64_t)m->rsec);
            tb_pb_fixed32(&in, 13, m->rnsec);
        }
        if (m->dns)
            tb_pb_bytes(&in, 14, m->dns->b, m->dns->n);
    }
    out->n = 0;
    tb_pb_bytes(out, 1, "test", 4);
    tb_pb_bytes(out, 14, in.b, in.n);
    tb_pb_varint(out, 15, 1);
}

/* A question for a wire name given as raw octets. */
static void dns_msg(struct tb *t, unsigned id, int response, unsigned rcode, const uint8_t *wire,
                    size_t wlen, unsigned qtype, int ede)
{
    t->n = 0;
    tb_header(t, id, response ? 0x8180u | rcode : 0x0100u, 1, 0, 0, ede >= 0 ? 1 : 0);
    tb_bytes(t, wire, wlen);
    tb_be16(t, qtype);
    tb_be16(t, 1);
    if (ede >= 0) {
        struct tb o = {{0}, 0};
        tb_ede(&o, (unsigned)ede, "");
        tb_opt(t, 1232, 0, 0, 0, o.b, o.n);
    }
}

/* Text name to wire (no escapes), for the ordinary names. */
static size_t wire_of(const char *text, uint8_t *w)
{
    struct tb t = {{0}, 0};
    tb_name(&t, text);
    memcpy(w, t.b, t.n);
    return t.n;
}

/* A data frame: length, payload. */
static void frame(struct tb *out, const struct tb *payload)
{
    tb_be32(out, (uint32_t)payload->n);
    tb_bytes(out, payload->b, payload->n);
}

/* A control frame with the dnstap content type or none. */
static void control(struct tb *out, unsigned type, int with_ctype)
{
    static const char ct[] = "protobuf:dnstap.Dnstap";
    tb_be32(out, 0);
    tb_be32(out, with_ctype ? 4 + 8 + (uint32_t)strlen(ct) : 4);
    tb_be32(out, type);
    if (with_ctype) {
        tb_be32(out, 1);
        tb_be32(out, (uint32_t)strlen(ct));
        tb_bytes(out, ct, strlen(ct));
    }
}

/* One dnstap message as a data frame, into the capture. */
static void put_message(FILE *f, const struct dtm *m)
{
    struct tb msg, fr = {{0}, 0};

    dnstap_msg(&msg, m);
    frame(&fr, &msg);
    fwrite(fr.b, 1, fr.n, f);
}

/* A message from 127.0.0.1#port at the time of id (as pair sends them). */
static void msg_from(struct dtm *m, unsigned type, unsigned id, unsigned port)
{
    memset(m, 0, sizeof *m);
    m->type = type;
    m->proto = 1;
    m->addr[0] = 127;
    m->addr[3] = 1;
    m->alen = 4;
    m->port = port;
    m->qsec = 1795000000 + id;
    m->qnsec = 123456000;
}

/* A query/response pair from 127.0.0.1#port, 412 microseconds apart. */
static void pair(FILE *f, unsigned id, unsigned port, const uint8_t *wire, size_t wlen,
                 unsigned rcode, int ede, int send_query, int send_response)
{
    struct tb dns;
    struct dtm m;

    msg_from(&m, CQ, id, port);
    m.dns = &dns;
    if (send_query) {
        dns_msg(&dns, id, 0, 0, wire, wlen, 1, -1);
        put_message(f, &m);
    }
    if (send_response) {
        dns_msg(&dns, id, 1, rcode, wire, wlen, 1, ede);
        m.type = CR;
        m.qsec = 0; /* Unbound sends no query time with its responses */
        m.rsec = 1795000000 + id;
        m.rnsec = 123868000;
        put_message(f, &m);
    }
}

static void put_control(FILE *f, unsigned type, int with_ctype)
{
    struct tb t = {{0}, 0};
    control(&t, type, with_ctype);
    fwrite(t.b, 1, t.n, f);
}

/* ---- running the tap ---- */

/* Runs idnguard tap with args (NULL-terminated). */
static void run_tap(const char *const *args, struct t_out *r)
{
    t_run_cli(bin(), "tap", args, dir, 60, r);
}

static void run_free(struct t_out *r)
{
    t_out_free(r);
}

/* Line k (0-based) of s, into buf. */
static const char *line_at(const char *s, size_t k, char *buf, size_t cap)
{
    while (k-- > 0 && s && (s = strchr(s, '\n')) != NULL)
        s++;
    ck_assert_msg(s && *s, "no line %zu", k);
    snprintf(buf, cap, "%.*s", (int)(strchr(s, '\n') ? strchr(s, '\n') - s : (long)strlen(s)), s);
    return buf;
}

/* ---- capture files ---- */

static FILE *capture(char *path, size_t cap, const char *name)
{
    FILE *f;
    path_in(path, cap, name);
    f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    put_control(f, 2, 1); /* START */
    return f;
}

START_TEST(test_file_pairs_and_lonely_messages)
{
    char path[600], line[2048];
    uint8_t w[256];
    size_t wl;
    struct t_out r;
    FILE *f = capture(path, sizeof path, "pairs.fstrm");
    const char *args[] = {"-r", path, NULL};

    wl = wire_of("xn--bcher-kva.example", w);
    pair(f, 1, 40001, w, wl, 0, -1, 1, 1);
    wl = wire_of("xn--99999999999.example", w);
    pair(f, 2, 40002, w, wl, 5, 1, 1, 1); /* refused, with EDE 1 */
    wl = wire_of("www.example", w);
    pair(f, 3, 40003, w, wl, 3, -1, 0, 1); /* a response alone */
    wl = wire_of("lost.example", w);
    pair(f, 4, 40004, w, wl, 0, -1, 1, 0); /* a query alone */
    put_control(f, 3, 0);                  /* STOP */
    fclose(f);

    run_tap(args, &r);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    ck_assert_uint_eq(count_lines(r.out), 4);
    ck_assert_str_eq(line_at(r.out, 0, line, sizeof line),
                     "2026-11-18T11:06:41.123456Z 127.0.0.1#40001 xn--bcher-kva.example. "
                     "(b\xc3\xbc" "cher.example.) A IN NOERROR ok pass - proto=udp ms=0.412");
    ck_assert_str_eq(line_at(r.out, 1, line, sizeof line),
                     "2026-11-18T11:06:42.123456Z 127.0.0.1#40002 xn--99999999999.example. A IN "
                     "REFUSED bad-punycode:xn--99999999999 refuse - ede=1 proto=udp ms=0.412");
    /* Unmatched: the response's own time, no elapsed time. */
    ck_assert_str_eq(line_at(r.out, 2, line, sizeof line),
                     "2026-11-18T11:06:43.123868Z 127.0.0.1#40003 www.example. A IN NXDOMAIN ok "
                     "pass - proto=udp");
    /* Unanswered at the end of the file: no rcode, no transport. */
    ck_assert_str_eq(line_at(r.out, 3, line, sizeof line),
                     "2026-11-18T11:06:44.123456Z 127.0.0.1#40004 lost.example. A IN - ok pass - "
                     "proto=udp");
    ck_assert_msg(strstr(r.err, "frames=6 messages=6 lines=4 unanswered=1 unmatched=1 dropped=0 "
                                "malformed_frames=0 malformed_messages=0 malformed_dns=0"),
                  "%s", r.err);
    run_free(&r);
}
END_TEST

/* --wait holds with -r too, by the capture's own clock: a response ten
 * minutes late does not match its query. */
START_TEST(test_file_wait_by_capture_clock)
{
    char path[600], line[2048];
    uint8_t w[256];
    size_t wl = wire_of("late.example", w);
    struct t_out r;
    FILE *f = capture(path, sizeof path, "late.fstrm");
    const char *args[] = {"-r", path, "--wait", "5", NULL};
    struct tb dns, msg, fr;
    struct dtm m;

    pair(f, 1, 5353, w, wl, 0, -1, 1, 0); /* the query at ...41.123456 */
    memset(&m, 0, sizeof m);
    m.type = CR;
    m.proto = 1;
    m.addr[0] = 127;
    m.addr[3] = 1;
    m.alen = 4;
    m.port = 5353;
    m.rsec = 1795000001 + 600;
    m.dns = &dns;
    dns_msg(&dns, 1, 1, 0, w, wl, 1, -1);
    dnstap_msg(&msg, &m);
    fr.n = 0;
    frame(&fr, &msg);
    fwrite(fr.b, 1, fr.n, f);
    put_control(f, 3, 0);
    fclose(f);
    run_tap(args, &r);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    ck_assert_uint_eq(count_lines(r.out), 2);
    /* The query's wait ended when the late response moved the clock. */
    ck_assert_str_eq(line_at(r.out, 0, line, sizeof line),
                     "2026-11-18T11:06:41.123456Z 127.0.0.1#5353 late.example. A IN - ok pass - "
                     "proto=udp");
    ck_assert_str_eq(line_at(r.out, 1, line, sizeof line),
                     "2026-11-18T11:16:41.000000Z 127.0.0.1#5353 late.example. A IN NOERROR ok "
                     "pass - proto=udp");
    run_free(&r);
}
END_TEST

START_TEST(test_file_hostile_names_are_escaped)
{
    /* Control octets, a newline, bidi override and '(' in raw labels, and a
     * label that decodes to a right-to-left override: nothing of them may
     * reach the line unescaped. */
    static const uint8_t nl[] = "\x07" "a\nb\x1b[0m" "\x07" "example";
    static const uint8_t rlo[] = "\x0a" "\xe2\x80\xae" "gnp.exe" "\x07" "example";
    static const uint8_t paren[] = "\x04" "(x) " "\x07" "example";
    char path[600];
    struct t_out r;
    FILE *f = capture(path, sizeof path, "hostile.fstrm");
    const char *args[] = {"-r", path, NULL};
    const char *p;

    pair(f, 1, 1, nl, sizeof nl, 0, -1, 1, 1);
    pair(f, 2, 2, rlo, sizeof rlo, 0, -1, 1, 1);
    pair(f, 3, 3, paren, sizeof paren, 0, -1, 1, 1);
    put_control(f, 3, 0);
    fclose(f);
    run_tap(args, &r);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    ck_assert_uint_eq(count_lines(r.out), 3);
    for (p = r.out; *p; p++)
        ck_assert_msg(*p == '\n' || ((unsigned char)*p >= 0x20 && *p != 0x7f),
                      "a control octet in the output: %s", r.out);
    ck_assert_msg(strstr(r.out, " a\\010b\\027\\0910m.example. "), "%s", r.out);
    ck_assert_msg(strstr(r.out, " \\226\\128\\174gnp\\046exe.example. "), "%s", r.out);
    ck_assert_ptr_null(strstr(r.out, "\xe2\x80\xae"));
    ck_assert_msg(strstr(r.out, " \\040x\\041\\032.example. "), "%s", r.out);
    run_free(&r);
}
END_TEST

START_TEST(test_file_settings_and_json)
{
    char path[600], conf[600];
    uint8_t w[256];
    size_t wl;
    struct t_out r;
    FILE *f = capture(path, sizeof path, "conf.fstrm");
    const char *args[] = {"-r", path, "--conf", conf, "--format=json", NULL};

    wl = wire_of("xn--bcher-kva.example", w);
    pair(f, 1, 1, w, wl, 0, -1, 1, 1);
    wl = wire_of("xn--a.example", w);
    pair(f, 2, 2, w, wl, 0, -1, 1, 1);
    wl = wire_of("blocked.example", w);
    pair(f, 3, 3, w, wl, 0, -1, 1, 1);
    put_control(f, 3, 0);
    fclose(f);
    /* Only rejected clients get a line; a deny list names one. */
    path_in(conf, sizeof conf, "idnguard.conf");
    t_spew_str(conf,
               "idnguard:\n    log-queries: no\n    log-rejected: yes\n    deny: blocked.example\n"
               "    anonymize-clients: yes\n");
    run_tap(args, &r);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    ck_assert_msg(count_lines(r.out) == 2, "%s", r.out);
    ck_assert_msg(strstr(r.out, "{\"time\":\"2026-11-18T11:06:42.123456Z\",\"client\":"
                                        "\"127.0.0.0\",\"port\":2,\"qname\":\"xn--a.example.\""), "%s", r.out);
    ck_assert_msg(strstr(r.out, "\"verdict\":\"disallowed\",\"label\":\"xn--a\","
                                        "\"action\":\"refuse\",\"path\":null"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "\"qname\":\"blocked.example.\""), "%s", r.out);
    ck_assert_msg(strstr(r.out, "\"verdict\":\"deny\""), "%s", r.out);
    ck_assert_ptr_null(strstr(r.out, "bcher"));
    run_free(&r);
    /* A settings file with an error: named, exit 2. */
    t_spew_str(conf, "idnguard:\n    log-querys: yes\n");
    {
        const char *a2[] = {"-r", path, "--conf", conf, NULL};
        run_tap(a2, &r);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, conf) && strstr(r.err, "log-querys"), "%s", r.err);
        run_free(&r);
    }
}
END_TEST

/* The tap and the module never share a stats file: the tap writes
 * tap-stats-file (or --stats-file), never the settings' stats-file, and
 * refuses an output that is one of the module's files. */
START_TEST(test_file_stats_files_apart)
{
    char path[600], conf[600], mod[600], tapf[600], text[1400];
    uint8_t w[256];
    size_t wl;
    struct t_out r;
    FILE *f = capture(path, sizeof path, "stats.fstrm");
    const char *args[] = {"-r", path, "--conf", conf, NULL};
    char *got;

    wl = wire_of("xn--a.example", w);
    pair(f, 1, 1, w, wl, 0, -1, 1, 1);
    put_control(f, 3, 0);
    fclose(f);
    path_in(conf, sizeof conf, "stats.conf");
    path_in(mod, sizeof mod, "module.prom");
    path_in(tapf, sizeof tapf, "tap.prom");
    unlink(mod);
    unlink(tapf);
    snprintf(text, sizeof text, "idnguard:\n    stats-file: \"%s\"\n    tap-stats-file: \"%s\"\n",
             mod, tapf);
    t_spew_str(conf, text);
    run_tap(args, &r);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    run_free(&r);
    ck_assert_msg(access(mod, F_OK) != 0, "the tap wrote the module's stats-file %s", mod);
    got = t_slurp(tapf, NULL);
    ck_assert_msg(got && strstr(got, "idnguard_tap_lines_total{class=\"disallowed\""), "%s",
                  got ? got : "(no tap-stats-file)");
    free(got);
    /* --stats-file or -w on one of the module's files: exit 2, both named. */
    {
        const char *a2[] = {"-r", path, "--conf", conf, "--stats-file", mod, NULL};
        run_tap(a2, &r);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "--stats-file") && strstr(r.err, "stats-file of"), "%s",
                      r.err);
        run_free(&r);
    }
    {
        const char *a3[] = {"-r", path, "--conf", conf, "-w", mod, NULL};
        run_tap(a3, &r);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "-w") && strstr(r.err, mod), "%s", r.err);
        run_free(&r);
    }
    ck_assert_msg(access(mod, F_OK) != 0, "the refused run still wrote %s", mod);
}
END_TEST

START_TEST(test_file_malformed_input)
{
    char path[600];
    uint8_t w[256];
    size_t wl;
    struct t_out r;
    FILE *f = capture(path, sizeof path, "bad.fstrm");
    const char *args[] = {"-r", path, NULL};

    wl = wire_of("one.example", w);
    pair(f, 1, 1, w, wl, 0, -1, 1, 1);
    /* Not protobuf: a group. */
    fwrite("\x00\x00\x00\x02\x0b\x0c", 1, 6, f);
    /* A dnstap message whose DNS message is 5 octets. */
    {
        struct tb dns = {{0}, 0}, msg, fr = {{0}, 0};
        struct dtm m;
        memset(&m, 0, sizeof m);
        m.type = CR;
        m.proto = 1;
        m.alen = 4;
        m.dns = &dns;
        tb_bytes(&dns, "\x01\x02\x03\x04\x05", 5);
        dnstap_msg(&msg, &m);
        frame(&fr, &msg);
        fwrite(fr.b, 1, fr.n, f);
    }
    wl = wire_of("two.example", w);
    pair(f, 2, 2, w, wl, 0, -1, 1, 1);
    put_control(f, 3, 0);
    fclose(f);
    run_tap(args, &r);
    ck_assert_int_eq(r.status, 1);
    ck_assert_uint_eq(count_lines(r.out), 2);
    ck_assert_msg(strstr(r.out, " one.example. "), "%s", r.out);
    ck_assert_msg(strstr(r.out, " two.example. "), "%s", r.out);
    ck_assert_msg(strstr(r.err, "frame 3: group") && strstr(r.err, "frame 4: DNS message: DNS "
                                                                    "message shorter than its "
                                                                    "12-octet header"),
                  "%s", r.err);
    ck_assert_msg(strstr(r.err, "malformed_messages=1 malformed_dns=1"), "%s", r.err);
    run_free(&r);

    /* A file that ends inside a frame. */
    f = capture(path, sizeof path, "cut.fstrm");
    pair(f, 1, 1, w, wl, 0, -1, 1, 1);
    fwrite("\x00\x00\x01\x00\x0a", 1, 5, f);
    fclose(f);
    run_tap(args, &r);
    ck_assert_int_eq(r.status, 1);
    ck_assert_uint_eq(count_lines(r.out), 1);
    ck_assert_msg(strstr(r.err, "ends inside a frame"), "%s", r.err);
    run_free(&r);

    /* Not Frame Streams at all, and a file that is not there. */
    path_in(path, sizeof path, "text.txt");
    t_spew_str(path, "this is not a capture\n");
    run_tap(args, &r);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "not a Frame Streams file of dnstap"), "%s", r.err);
    run_free(&r);
    path_in(path, sizeof path, "missing.fstrm");
    run_tap(args, &r);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, path) && strstr(r.err, "No such file"), "%s", r.err);
    run_free(&r);
}
END_TEST

/* A message sent without its DNS message is no error: dnstap.proto makes
 * it optional, and producers leave it out by design.  Knot Resolver sends
 * its CLIENT_QUERY without one unless client.log_queries is set (and its
 * CLIENT_RESPONSE without one unless client.log_responses is); PowerDNS
 * Recursor's newly-observed-domain stream is a CLIENT_QUERY that names
 * the domain in query_zone alone.  There is nothing to judge or to match
 * by: no line of its own, counted with the messages not logged, said once
 * on stderr for each type.  The other half of the pair, which carries its
 * message, still gets its line: a response alone, a query unanswered.  A
 * RESOLVER_QUERY (all that PowerDNS Recursor's dnstap sends) is a message
 * not logged too. */
START_TEST(test_file_messages_without_dns)
{
    char path[600], stats[600], line[2048];
    uint8_t w[256];
    size_t wl;
    struct t_out r;
    FILE *f = capture(path, sizeof path, "nodns.fstrm");
    const char *args[] = {"-r", path, "--stats-file", stats, NULL};
    struct tb dns, zone = {{0}, 0};
    struct dtm m;
    char *got;

    path_in(stats, sizeof stats, "nodns.prom");
    /* Knot Resolver without log_queries: the query bare, the response whole. */
    wl = wire_of("kresd.example", w);
    msg_from(&m, CQ, 1, 40001);
    put_message(f, &m);
    pair(f, 1, 40001, w, wl, 0, -1, 0, 1);
    /* PowerDNS Recursor's newly observed domain. */
    msg_from(&m, CQ, 2, 40002);
    tb_name(&zone, "nod.example");
    m.zone = &zone;
    put_message(f, &m);
    /* Without log_responses: the query whole, the response bare. */
    wl = wire_of("lost.example", w);
    pair(f, 3, 40003, w, wl, 0, -1, 1, 0);
    msg_from(&m, CR, 3, 40003);
    m.qsec = 0;
    m.rsec = 1795000003;
    put_message(f, &m);
    /* PowerDNS Recursor's query to a name server. */
    wl = wire_of("outgoing.example", w);
    dns_msg(&dns, 4, 0, 0, w, wl, 1, -1);
    msg_from(&m, RQ, 4, 40004);
    m.dns = &dns;
    put_message(f, &m);
    put_control(f, 3, 0);
    fclose(f);

    run_tap(args, &r);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    ck_assert_msg(count_lines(r.out) == 2, "%s", r.out);
    ck_assert_str_eq(line_at(r.out, 0, line, sizeof line),
                     "2026-11-18T11:06:41.123868Z 127.0.0.1#40001 kresd.example. A IN NOERROR ok "
                     "pass - proto=udp");
    ck_assert_str_eq(line_at(r.out, 1, line, sizeof line),
                     "2026-11-18T11:06:43.123456Z 127.0.0.1#40003 lost.example. A IN - ok pass - "
                     "proto=udp");
    ck_assert_msg(strstr(r.err, "frames=6 messages=6 lines=2 unanswered=1 unmatched=1 dropped=0 "
                                "malformed_frames=0 malformed_messages=0 malformed_dns=0"),
                  "%s", r.err);
    {
        const char *q = strstr(r.err, "CLIENT_QUERY messages come without their DNS message");
        const char *a = strstr(r.err, "CLIENT_RESPONSE messages come without their DNS message");
        ck_assert_msg(q && !strstr(q + 1, "CLIENT_QUERY messages come") && a
                          && !strstr(a + 1, "CLIENT_RESPONSE messages come"),
                      "not said once for each type: %s", r.err);
    }
    got = t_slurp(stats, NULL);
    ck_assert_msg(got && strstr(got, "\nidnguard_tap_other_messages_total 4\n")
                      && strstr(got, "\nidnguard_tap_malformed_dns_total 0\n"),
                  "%s", got ? got : "(no stats file)");
    free(got);
    run_free(&r);
}
END_TEST

START_TEST(test_usage_errors)
{
    struct t_out r;
    const char *none[] = {NULL};
    const char *both[] = {"-u", "/nonexistent/s", "-r", "x", NULL};
    const char *unknown[] = {"-r", "x", "--bogus", NULL};
    const char *badwait[] = {"-r", "x", "--wait", "soon", NULL};
    const char *badfmt[] = {"-r", "x", "--format=xml", NULL};
    const char *help[] = {"--help", NULL};
    const char *novalue[] = {"-r", NULL};

    run_tap(none, &r);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "one of -u SOCKET and -r FILE"));
    run_free(&r);
    run_tap(both, &r);
    ck_assert_int_eq(r.status, 2);
    run_free(&r);
    run_tap(unknown, &r);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strncmp(r.err, "idnguard tap: unknown option '--bogus' (idnguard tap --help)\n",
                          61) == 0,
                  "%s", r.err);
    run_free(&r);
    run_tap(badwait, &r);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "'soon' is not a number"));
    run_free(&r);
    run_tap(badfmt, &r);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "'xml' is neither text nor json"));
    run_free(&r);
    run_tap(novalue, &r);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, "idnguard tap: option '-r' needs a value: -r FILE\n");
    run_free(&r);
    run_tap(help, &r);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "usage: idnguard tap"), "%s", r.out);
    run_free(&r);
}
END_TEST

/* ---- the socket ---- */

struct tap_proc {
    pid_t pid;
    char sock[600], out[600], err[600];
};

static void tap_start(struct tap_proc *t, const char *out_path, const char *extra)
{
    unsigned waited;
    struct stat st;

    path_in(t->sock, sizeof t->sock, "tap.sock");
    path_in(t->err, sizeof t->err, "tap.err");
    snprintf(t->out, sizeof t->out, "%s", out_path ? out_path : "");
    t->pid = fork();
    ck_assert_int_ge(t->pid, 0);
    if (t->pid == 0) {
        const char *argv[10];
        int n = 0, e = open(t->err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (e < 0 || dup2(e, 2) < 0)
            _exit(126);
        argv[n++] = bin();
        argv[n++] = "tap";
        argv[n++] = "-u";
        argv[n++] = t->sock;
        if (out_path) {
            argv[n++] = "-w";
            argv[n++] = out_path;
        }
        if (extra)
            argv[n++] = extra;
        argv[n] = NULL;
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    running_tap = t->pid;
    /* Ready once it says so: the socket file appears at bind, a moment
     * before listen, when a connect is still refused. */
    for (waited = 0; waited < POLL_MS; waited += 10) {
        char *e = t_slurp(t->err, NULL);
        int ready = e && strstr(e, "idnguard tap: listening on ");
        free(e);
        if (ready && stat(t->sock, &st) == 0 && S_ISSOCK(st.st_mode))
            return;
        t_sleep_ms(10);
    }
    ck_abort_msg("idnguard tap did not listen on %s", t->sock);
}

/* SIGTERM, bounded wait; returns the exit status and its stderr. */
static int tap_stop(struct tap_proc *t, char **err)
{
    unsigned waited;
    int st;

    kill(t->pid, SIGTERM);
    for (waited = 0; waited < POLL_MS; waited += 10) {
        if (waitpid(t->pid, &st, WNOHANG) == t->pid) {
            running_tap = 0;
            *err = t_slurp(t->err, NULL);
            return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
        }
        t_sleep_ms(10);
    }
    ck_abort_msg("idnguard tap did not stop on SIGTERM"); /* teardown kills it */
    return -1;
}

static int connect_to(const char *path)
{
    struct sockaddr_un sa;
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);

    ck_assert_int_ge(fd, 0);
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
    ck_assert_msg(connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0, "connect %s: %s", path,
                  strerror(errno));
    return fd;
}

static void send_all(int fd, const void *p, size_t n)
{
    const uint8_t *b = p;
    while (n > 0) {
        ssize_t w = send(fd, b, n, MSG_NOSIGNAL);
        ck_assert_msg(w > 0, "send: %s", strerror(errno));
        b += w;
        n -= (size_t)w;
    }
}

/* Reads one control frame; returns its type (0 on EOF or garbage). */
static unsigned read_control(int fd)
{
    uint8_t b[600];
    size_t got = 0, want = 8;

    while (got < want) {
        ssize_t n = read(fd, b + got, want - got);
        if (n <= 0)
            return 0;
        got += (size_t)n;
        if (got == 8 && want == 8) {
            uint32_t len = (uint32_t)b[4] << 24 | (uint32_t)b[5] << 16 | b[6] << 8 | b[7];
            if (b[0] || b[1] || b[2] || b[3] || len < 4 || len > 512)
                return 0;
            want = 8 + len;
        }
    }
    return (unsigned)b[8] << 24 | (unsigned)b[9] << 16 | b[10] << 8 | b[11];
}

/* A writer: READY, ACCEPT back, START. */
static int writer_open(const char *sock)
{
    struct tb t = {{0}, 0};
    int fd = connect_to(sock);

    control(&t, 4, 1); /* READY */
    send_all(fd, t.b, t.n);
    ck_assert_uint_eq(read_control(fd), 1); /* ACCEPT */
    t.n = 0;
    control(&t, 2, 1); /* START */
    send_all(fd, t.b, t.n);
    return fd;
}

/* STOP, FINISH back, close. */
static void writer_close(int fd)
{
    struct tb t = {{0}, 0};
    control(&t, 3, 0);
    send_all(fd, t.b, t.n);
    ck_assert_uint_eq(read_control(fd), 5); /* FINISH */
    close(fd);
}

/* n query/response pairs "wNNN-iNNN.example" on fd. */
static void writer_pairs(int fd, unsigned writer, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        char name[64], *buf = NULL;
        size_t len = 0;
        uint8_t w[256];
        size_t wl;
        FILE *m = open_memstream(&buf, &len);
        snprintf(name, sizeof name, "w%u-i%u.example", writer, i);
        wl = wire_of(name, w);
        pair(m, (writer * 1000 + i) & 0xFFFF, 1000 + writer, w, wl, 0, -1, 1, 1);
        fclose(m);
        send_all(fd, buf, len);
        free(buf);
    }
}

static int wait_lines(const char *path, size_t n)
{
    unsigned waited;
    for (waited = 0; waited < POLL_MS; waited += 20) {
        char *s = t_slurp(path, NULL);
        size_t have = count_lines(s);
        free(s);
        if (have >= n)
            return 1;
        t_sleep_ms(20);
    }
    return 0;
}

START_TEST(test_socket_writers_reconnects_and_broken_ones)
{
    struct tap_proc t;
    char out[600], *err, *s;
    int a, b, bad;
    unsigned i;

    path_in(out, sizeof out, "lines.log");
    tap_start(&t, out, NULL);
    /* Two writers at once, interleaved. */
    a = writer_open(t.sock);
    b = writer_open(t.sock);
    for (i = 0; i < 10; i++) {
        writer_pairs(a, 1, 10);
        writer_pairs(b, 2, 10);
    }
    /* One that breaks the handshake: data before START. */
    bad = connect_to(t.sock);
    {
        struct tb x = {{0}, 0};
        tb_be32(&x, 3);
        tb_bytes(&x, "abc", 3);
        send_all(bad, x.b, x.n);
    }
    writer_close(a);
    writer_close(b);
    /* A writer that comes back (a resolver restarted). */
    a = writer_open(t.sock);
    writer_pairs(a, 3, 5);
    writer_close(a);
    ck_assert_msg(wait_lines(out, 205), "the lines did not all come");
    ck_assert_int_eq(tap_stop(&t, &err), 0);
    close(bad);
    ck_assert_msg(strstr(err, "listening on"), "%s", err);
    ck_assert_msg(strstr(err, "frame out of order for the handshake"), "%s", err);
    ck_assert_msg(strstr(err, "lines=205 unanswered=0 unmatched=0 dropped=0 malformed_frames=1"),
                  "%s", err);
    ck_assert_msg(strstr(err, "connections=4"), "%s", err);
    s = t_slurp(out, NULL);
    ck_assert_uint_eq(count_lines(s), 205);
    ck_assert_ptr_nonnull(strstr(s, " w1-i9.example. A IN NOERROR ok pass - proto=udp ms=0.412\n"));
    ck_assert_ptr_nonnull(strstr(s, " w3-i4.example. "));
    free(s);
    free(err);
    /* The socket is removed at exit. */
    ck_assert_int_ne(access(t.sock, F_OK), 0);
}
END_TEST

/* Every slot held by writers that never speak: a real one still gets in
 * (the silent ones make room), and a second tap on the same path is
 * refused, leaving the first one's socket alone. */
START_TEST(test_socket_slots_and_second_reader)
{
    struct tap_proc t;
    char out[600], *err, *s;
    int idle[64], w, i;
    struct t_out r;
    const char *second[] = {"-u", NULL, NULL};

    path_in(out, sizeof out, "slots.log");
    tap_start(&t, out, NULL);
    for (i = 0; i < 64; i++)
        idle[i] = connect_to(t.sock);
    t_sleep_ms(300); /* let the tap take them all */
    w = writer_open(t.sock);
    writer_pairs(w, 7, 3);
    writer_close(w);
    ck_assert_msg(wait_lines(out, 3), "the writer's lines did not come");
    second[1] = t.sock;
    run_tap(second, &r);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "another reader listens there"), "%s", r.err);
    run_free(&r);
    ck_assert_int_eq(tap_stop(&t, &err), 0);
    for (i = 0; i < 64; i++)
        close(idle[i]);
    ck_assert_msg(strstr(err, "writers: connection 1 closed for a new one"), "%s", err);
    /* 64 silent, the writer, and the second tap's probe of the path. */
    ck_assert_msg(strstr(err, "connections=66 closed=1"), "%s", err);
    s = t_slurp(out, NULL);
    ck_assert_uint_eq(count_lines(s), 3);
    free(s);
    free(err);
}
END_TEST

/* Output nobody reads: the tap goes on reading, drops lines and counts
 * them; its memory stays bounded. */
START_TEST(test_socket_stalled_output_drops)
{
    struct tap_proc t;
    char *err, status[600], *s, *p;
    int fds[2], w, saved, drained = 0;
    long rss_kb = 0;
    unsigned i;

    ck_assert_int_eq(pipe(fds), 0);
    /* The tap's stdout is the pipe; the suite does not read it yet. */
    saved = dup(1);
    dup2(fds[1], 1);
    tap_start(&t, NULL, NULL);
    dup2(saved, 1);
    close(saved);
    close(fds[1]);
    w = writer_open(t.sock);
    for (i = 0; i < 60; i++)
        writer_pairs(w, 4, 1000); /* 60,000 lines, far more than two 1 MiB buffers */
    writer_close(w);
    snprintf(status, sizeof status, "/proc/%d/status", (int)t.pid);
    s = t_slurp(status, NULL);
    if (s && (p = strstr(s, "VmRSS:")) != NULL)
        rss_kb = strtol(p + 6, NULL, 10);
    free(s);
    /* Two 1 MiB buffers, the frame buffers and the pending table; never the
     * 60,000 lines. */
    ck_assert_msg(rss_kb > 0 && rss_kb < 48 * 1024, "VmRSS %ld kB", rss_kb);
    /* Drain while it stops (its writer is blocked on the pipe). */
    kill(t.pid, SIGTERM);
    {
        char buf[65536];
        ssize_t n;
        while ((n = read(fds[0], buf, sizeof buf)) > 0)
            drained += (int)count_lines_n(buf, (size_t)n);
    }
    close(fds[0]);
    ck_assert_int_eq(tap_stop(&t, &err), 0);
    {
        unsigned long long lines = 0, dropped = 0;
        p = strstr(err, "lines=");
        ck_assert_ptr_nonnull(p);
        ck_assert_int_eq(sscanf(p, "lines=%llu", &lines), 1);
        p = strstr(err, "dropped=");
        ck_assert_ptr_nonnull(p);
        ck_assert_int_eq(sscanf(p, "dropped=%llu", &dropped), 1);
        ck_assert_uint_eq(lines, 60000);
        ck_assert_msg(dropped > 0, "%s", err);
        ck_assert_uint_eq((unsigned long long)drained + dropped, lines);
    }
    free(err);
}
END_TEST

static Suite *tap_suite(void)
{
    Suite *s = suite_create("tap");
    TCase *tc = tcase_create("tap");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_file_pairs_and_lonely_messages);
    tcase_add_test(tc, test_file_wait_by_capture_clock);
    tcase_add_test(tc, test_file_hostile_names_are_escaped);
    tcase_add_test(tc, test_file_settings_and_json);
    tcase_add_test(tc, test_file_stats_files_apart);
    tcase_add_test(tc, test_file_malformed_input);
    tcase_add_test(tc, test_file_messages_without_dns);
    tcase_add_test(tc, test_usage_errors);
    tcase_add_test(tc, test_socket_writers_reconnects_and_broken_ones);
    tcase_add_test(tc, test_socket_slots_and_second_reader);
    tcase_add_test(tc, test_socket_stalled_output_drops);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(tap_suite)
