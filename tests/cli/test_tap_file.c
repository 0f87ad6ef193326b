/**
 * \file
 * `idnguard tap` as a process (IDNGUARD_BIN) on capture files, as
 * fstrm_capture writes them, of dnstap this suite builds itself
 * (tests/cli/tap_run.h): one line per client query in the module's format,
 * query and response matched (elapsed time) or not (a response alone, a
 * query whose response never came); --wait by a capture's clock; hostile
 * names escaped; the settings file's policy and log filter; JSON; stats
 * files apart from the module's; malformed frames, dnstap messages and DNS
 * messages counted and shown, never a crash, the good frames around them
 * still logged; usage errors and exit statuses.
 *
 * The real producers (Unbound, dnsdist) are the integration suite's
 * (tests/integration/test_tap.c).
 */
#include "tap_run.h"

#include "common.h"

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
                     "(b\xc3\xbc"
                     "cher.example.) A IN NOERROR ok pass - proto=udp ms=0.412");
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
    static const uint8_t nl[] = "\x07"
                                "a\nb\x1b[0m"
                                "\x07"
                                "example";
    static const uint8_t rlo[] = "\x0a"
                                 "\xe2\x80\xae"
                                 "gnp.exe"
                                 "\x07"
                                 "example";
    static const uint8_t paren[] = "\x04"
                                   "(x) "
                                   "\x07"
                                   "example";
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
                                "\"127.0.0.0\",\"port\":2,\"qname\":\"xn--a.example.\""),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "\"verdict\":\"disallowed\",\"label\":\"xn--a\","
                                "\"action\":\"refuse\",\"path\":null"),
                  "%s", r.out);
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
        ck_assert_msg(strstr(r.err, "--stats-file") && strstr(r.err, "stats-file of"), "%s", r.err);
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
    /* -w or --stats-file on a deny-file or an allow-file: exit 2, the list
     * named and left as it was. */
    {
        char lists[600], deny[600], allow[600];
        const char *a4[] = {"-r", path, "--conf", lists, "-w", deny, NULL};
        const char *a5[] = {"-r", path, "--conf", lists, "--stats-file", allow, NULL};
        path_in(lists, sizeof lists, "lists.conf");
        path_in(deny, sizeof deny, "deny.txt");
        path_in(allow, sizeof allow, "allow.txt");
        t_spew_str(deny, "denied.example\n");
        t_spew_str(allow, "allowed.example\n");
        snprintf(text, sizeof text, "idnguard:\n    allow-file: \"%s\"\n    deny-file: \"%s\"\n",
                 allow, deny);
        t_spew_str(lists, text);
        run_tap(a4, &r);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "-w") && strstr(r.err, "deny-file of"), "%s", r.err);
        run_free(&r);
        run_tap(a5, &r);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "--stats-file") && strstr(r.err, "allow-file of"), "%s", r.err);
        run_free(&r);
        got = t_slurp(deny, NULL);
        ck_assert_msg(got && strcmp(got, "denied.example\n") == 0, "the deny-file was changed");
        free(got);
        got = t_slurp(allow, NULL);
        ck_assert_msg(got && strcmp(got, "allowed.example\n") == 0, "the allow-file was changed");
        free(got);
    }
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
    ck_assert_msg(strstr(r.err, "frame 3: group")
                      && strstr(r.err, "frame 4: DNS message: DNS "
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
    ck_assert_msg(
        strncmp(r.err, "idnguard tap: unknown option '--bogus' (idnguard tap --help)\n", 61) == 0,
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

/* A capture read into a pipe whose reader waits a second before it reads:
 * more lines than the tap's two output buffers and the pipe hold.  The tap
 * waits for its output (a file has no producer to keep up with): every
 * line comes out, none is counted dropped, exit 0. */
START_TEST(test_file_slow_reader_loses_nothing)
{
    enum { PAIRS = 30000 };
    char path[600], cmd[2400], rcf[600], errf[600], *err, *rc;
    uint8_t w[256];
    size_t wl = wire_of("a-rather-long-label-for-a-longer-line.xn--bcher-kva.example", w);
    unsigned long got = 0;
    unsigned i;
    FILE *f = capture(path, sizeof path, "many.fstrm"), *p;

    for (i = 0; i < PAIRS; i++)
        pair(f, i & 0xffff, 40000 + i % 20000, w, wl, 0, -1, 1, 1);
    put_control(f, 3, 0);
    ck_assert_int_eq(fclose(f), 0);
    path_in(rcf, sizeof rcf, "tap.rc");
    path_in(errf, sizeof errf, "tap.err");
    snprintf(cmd, sizeof cmd, "{ '%s' tap -r '%s' 2>'%s'; echo $? >'%s'; } | { sleep 1; wc -l; }",
             t_idnguard_bin(), path, errf, rcf);
    p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(fscanf(p, "%lu", &got), 1);
    ck_assert_int_eq(pclose(p), 0);
    err = t_slurp(errf, NULL);
    rc = t_slurp(rcf, NULL);
    ck_assert_msg(err && strstr(err, " lines=30000 ") && strstr(err, " dropped=0 "), "%s",
                  err ? err : "(no stderr)");
    ck_assert_msg(rc && strcmp(rc, "0\n") == 0, "exit status %s", rc ? rc : "(none)");
    ck_assert_uint_eq(got, PAIRS);
    free(err);
    free(rc);
}
END_TEST

static Suite *tap_file_suite(void)
{
    Suite *s = suite_create("tap_file");
    TCase *tc = tcase_create("tap");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_file_pairs_and_lonely_messages);
    tcase_add_test(tc, test_file_wait_by_capture_clock);
    tcase_add_test(tc, test_file_hostile_names_are_escaped);
    tcase_add_test(tc, test_file_settings_and_json);
    tcase_add_test(tc, test_file_stats_files_apart);
    tcase_add_test(tc, test_file_malformed_input);
    tcase_add_test(tc, test_file_slow_reader_loses_nothing);
    tcase_add_test(tc, test_file_messages_without_dns);
    tcase_add_test(tc, test_usage_errors);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(tap_file_suite)
