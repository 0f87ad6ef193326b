/**
 * \file
 * `idnguard tap` with Debian's dnsdist (scripts/dnsdist.sh) as the dnstap
 * producer: dnsdist in front of the lab's resolver, logging with
 * DnstapLogAction and DnstapLogResponseAction, and the tap's line for each
 * query saying what the client got.
 *
 * Environment: that of every integration suite (harness.h), and
 * IDNGUARD_BIN (the CLI), IDNGUARD_DNSDIST (the unpacked dnsdist).
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

static struct harness H;
static struct tap T;

/* ---- dnsdist: another producer ---- */

static pid_t dnsdist_pid;
static char dnsdist_dir[HARNESS_PATH_MAX];
static int dnsdist_port;

/* dnsdist on a free port in front of the lab's Unbound, its client
 * queries and responses going to the tap; 0 once it answers (bounded),
 * -1 when it exited first. */
static int dnsdist_start(const char *bin)
{
    char conf[HARNESS_PATH_MAX + 32], err[HARNESS_PATH_MAX + 32], text[2 * HARNESS_PATH_MAX];
    long long deadline;
    struct dnsq_result r;
    int st;

    dnsdist_port = tap_free_port();
    ck_assert_msg(dnsdist_port > 0, "no free port");
    snprintf(conf, sizeof conf, "%s/dnsdist.conf", dnsdist_dir);
    snprintf(err, sizeof err, "%s/dnsdist.out", dnsdist_dir);
    /* No security polling (it would ask a name server outside); the
     * health checks ask the lab's local data. */
    snprintf(text, sizeof text,
             "setSecurityPollSuffix(\"\")\n"
             "setLocal(\"127.0.0.1:%d\")\n"
             "newServer({address=\"127.0.0.1:%d\", checkName=\"ready.local.test.\"})\n"
             "local tap = newFrameStreamUnixLogger(\"%s\")\n"
             "addAction(AllRule(), DnstapLogAction(\"dnsdist\", tap))\n"
             "addResponseAction(AllRule(), DnstapLogResponseAction(\"dnsdist\", tap))\n",
             dnsdist_port, H.port, T.sock);
    t_spew_str(conf, text);
    {
        char *argv[] = {(char *)bin, "--supervised", "--disable-syslog", "-C", conf, NULL};
        dnsdist_pid = harness_spawn(argv, NULL, err);
        ck_assert_msg(dnsdist_pid > 0, "cannot start %s: %s", bin, strerror(errno));
    }
    deadline = harness_now_ms() + HARNESS_START_MS;
    while (harness_now_ms() < deadline) {
        if (waitpid(dnsdist_pid, &st, WNOHANG) == dnsdist_pid) {
            dnsdist_pid = 0;
            return -1;
        }
        if (dnsq_query_ex(dnsdist_port, "ready.local.test", DNSQ_A, 0, 200, &r) == 0 && !r.timed_out
            && r.rcode == 0)
            return 0;
        t_sleep_ms(50);
    }
    {
        char tail[2000];
        harness_tail(err, tail, sizeof tail);
        ck_abort_msg("dnsdist did not answer on port %d within %d ms: %s", dnsdist_port,
                     HARNESS_START_MS, tail);
    }
    return -1;
}

static void setup_dnsdist(void)
{
    const char *bin = getenv("IDNGUARD_DNSDIST");
    int tries;

    ck_assert_msg(bin && access(bin, X_OK) == 0,
                  "IDNGUARD_DNSDIST (Debian's dnsdist, unpacked by scripts/dnsdist.sh) is not set "
                  "or not there: run through make check-integration");
    tap_start(&T, "idnguard:\n");
    harness_setup(&H, "idnguard:\n", 1);
    t_tmpdir_make(dnsdist_dir, sizeof dnsdist_dir, "idng-dnsdist");
    for (tries = 0; tries < 3; tries++)
        if (dnsdist_start(bin) == 0)
            return;
    ck_abort_msg("dnsdist exited before it answered, three times (a port taken meanwhile?)");
}

static void teardown_dnsdist(void)
{
    tap_daemon_stop(&dnsdist_pid);
    if (dnsdist_dir[0] && !(getenv("IDNGUARD_KEEP") && atoi(getenv("IDNGUARD_KEEP"))))
        t_tmpdir_remove(dnsdist_dir);
    dnsdist_dir[0] = '\0';
    tap_lab_stop(&H, &T);
}

static const struct {
    const char *qname;
    unsigned flags;
    const char *logged, *rcode, *verdict, *action;
} via_dnsdist[] = {
    {"xn--bcher-kva.example", 0, "xn--bcher-kva.example.", "NOERROR", "ok", "pass"},
    {"xn--ab-m1t.example", HQ_TCP, "xn--ab-m1t.example.", "REFUSED", "contextj:xn--ab-m1t",
     "refuse"},
    {"b\\195\\188cher.example", 0, "b\\195\\188cher.example.", "NOERROR",
     "raw-8bit:b\\195\\188cher", "normalize"},
    {"a\\010b.example", HQ_TCP, "a\\010b.example.", "NXDOMAIN", "ok", "pass"},
};
#define NVIA ((int)(sizeof via_dnsdist / sizeof via_dnsdist[0]))

/* dnsdist's dnstap gives the same lines: the client is dnsdist's client,
 * the rcode and EDE what the lab's resolver answered through it.  Its
 * Frame Streams writer sends at least once a second. */
START_TEST(test_dnsdist_producer)
{
    struct dnsq_result r;
    struct qline tap;
    long from = harness_file_size(T.out);

    ck_assert_msg(dnsq_query_ex(dnsdist_port, via_dnsdist[_i].qname, DNSQ_A, via_dnsdist[_i].flags,
                                HARNESS_QUERY_MS, &r)
                          == 0
                      && !r.timed_out,
                  "%s: no answer through dnsdist", via_dnsdist[_i].qname);
    tap_line(&T, from, r.local_port, HARNESS_LOG_MS + 2000, &tap);
    ck_assert_msg(strcmp(tap.qname, via_dnsdist[_i].logged) == 0 && strcmp(tap.qtype, "A") == 0
                      && strcmp(tap.rcode, via_dnsdist[_i].rcode) == 0
                      && strcmp(tap.rcode, dnsq_rcode_name(r.rcode)) == 0
                      && strcmp(tap.verdict, via_dnsdist[_i].verdict) == 0
                      && strcmp(tap.action, via_dnsdist[_i].action) == 0,
                  "%s: tap line %s; expected %s %s %s %s (answered %s)", via_dnsdist[_i].qname,
                  tap.raw, via_dnsdist[_i].logged, via_dnsdist[_i].rcode, via_dnsdist[_i].verdict,
                  via_dnsdist[_i].action, dnsq_rcode_name(r.rcode));
    ck_assert_msg(tap.ede == r.ede_code, "ede=%d, the answer's EDE %d: %s", tap.ede, r.ede_code,
                  tap.raw);
    ck_assert_msg(strcmp(tap.proto, via_dnsdist[_i].flags & HQ_TCP ? "tcp" : "udp") == 0
                      && tap.ms[0],
                  "proto=%s ms=%s: %s", tap.proto, tap.ms, tap.raw);
}
END_TEST

static Suite *tap_dnsdist_suite(void)
{
    Suite *s = suite_create("integration-tap-dnsdist");
    TCase *tc;

    tc = harness_tcase("dnsdist", setup_dnsdist, teardown_dnsdist);
    tcase_add_loop_test(tc, test_dnsdist_producer, 0, NVIA);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(tap_dnsdist_suite)
