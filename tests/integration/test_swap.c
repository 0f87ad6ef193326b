/**
 * \file
 * A swapped CNAME: attacks on the message cache's references to RRsets,
 * from an adversarial review of the python flavour's cache design, held
 * by both flavours.  The attacker controls the zone atk.
 * (tests/integration/swap/atk.zone) and changes it while the resolver
 * runs (atk-v2.zone over the lab's copy, NSD reloaded by SIGHUP), and can
 * send any client query.
 *
 * The attack: Unbound's message cache holds references to RRsets, and when
 * a CNAME RRset is replaced in the RRset cache with other data, the
 * reference stays valid (rrset_cache_update renews the id only for NSEC,
 * NSEC3 and DNAME).  So a message judged clean at moddone and stored can
 * later be served with another target, if anything stores the new CNAME
 * RRset without judging it.  Each test gets a clean answer that ends in a
 * CNAME into the message cache, swaps the zone so that the CNAME points to
 * a fake A-label, makes Unbound store the new RRset by a path the module
 * does not guard, and asks again: the client must never get the fake name.
 */
#include "common.h"
#include "harness.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static struct harness H;

#define FAKE "xn--ab-m1t"

static void zone_env(void)
{
    static char v[1200];
    const char *t = getenv("IDNGUARD_TEMPLATES");

    snprintf(v, sizeof v, "atk.=%s/swap/atk.zone", t ? t : "tests/integration");
    setenv("LAB_ZONE_FILES", v, 1);
}

static void setup_expired(void)
{
    static const struct harness_opts o = {
        .server_extra = "serve-expired: yes\nserve-expired-ttl: 3600\n"};
    zone_env();
    harness_setup_ex(&H, "idnguard:\n", 1, &o);
}

/* The control: the same without serve-expired. */
static void setup_plain(void)
{
    zone_env();
    harness_setup(&H, "idnguard:\n", 1);
}

static void setup_prefetch_snoop(void)
{
    static const struct harness_opts o = {
        .server_extra = "prefetch: yes\naccess-control: 127.0.0.0/8 allow_snoop\n"};
    zone_env();
    harness_setup_ex(&H, "idnguard:\n", 1, &o);
}

static void setup_expired_snoop(void)
{
    static const struct harness_opts o = {
        .server_extra = "serve-expired: yes\nserve-expired-ttl: 3600\n"
                        "access-control: 127.0.0.0/8 allow_snoop\n"};
    zone_env();
    harness_setup_ex(&H, "idnguard:\n", 1, &o);
}

static void teardown(void)
{
    harness_stop(&H);
    unsetenv("LAB_ZONE_FILES");
}

/* Sleeps until harness_now_ms() reaches t (at once when it has). */
static void wait_until(long long t)
{
    long long left = t - harness_now_ms();

    if (left > 0)
        t_sleep_ms((unsigned)left);
}

/* The attacker changes the zone: atk-v2.zone over the lab's copy, NSD
 * reloaded, until NSD itself serves the new CNAME of owner. */
static void swap_zone(const char *owner)
{
    char src[1200], dst[1200], cmd[2600];
    const char *t = getenv("IDNGUARD_TEMPLATES");
    struct timeval tv[2];
    struct dnsq_result r;
    int i;

    snprintf(src, sizeof src, "%s/swap/atk-v2.zone", t ? t : "tests/integration");
    snprintf(dst, sizeof dst, "%s/zones/atk.zone", H.dir);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", src, dst);
    ck_assert_msg(system(cmd) == 0, "%s", cmd);
    gettimeofday(&tv[0], NULL);
    tv[0].tv_sec += 5;
    tv[1] = tv[0];
    ck_assert(utimes(dst, tv) == 0);
    ck_assert(kill(H.nsd_pid, SIGHUP) == 0);
    for (i = 0; i < 40; i++) {
        if (dnsq_query_ex(H.nsd_port, owner, 5 /* CNAME */, DNSQ_F_NORD, 500, &r) == 0 &&
            strstr(r.answer, FAKE))
            return;
        t_sleep_ms(100);
    }
    ck_abort_msg("NSD does not serve the swapped zone: [%s]", r.answer);
}

/* One query; fails the test if the answer names the fake label. */
static void expect_no_fake_t(const char *qname, uint16_t qtype, unsigned flags, const char *what)
{
    struct dnsq_result r;
    char tail[3000];

    ck_assert(dnsq_query_ex(H.port, qname, qtype, flags, HARNESS_QUERY_MS, &r) == 0);
    if (strstr(r.answer, FAKE)) {
        harness_tail(H.qlog, tail, sizeof tail);
        ck_abort_msg("%s: %s (flags %#x) answered %s with the fake label:\n%s\nlog tail:\n%s",
                     what, qname, flags, dnsq_rcode_name(r.rcode), r.answer, tail);
    }
}

#define expect_no_fake(n, f, w) expect_no_fake_t(n, DNSQ_A, f, w)

/* First answer: clean, upstream, ends with the CNAME (its target has no
 * address). */
static long long clean_first(const char *qname, const char *cname_line)
{
    struct dnsq_result r;
    struct qline q;
    char qlog[300];
    long long t;

    snprintf(qlog, sizeof qlog, "%s.", qname);
    t = harness_now_ms();
    hx_query(&H, qname, DNSQ_A, 0, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, qlog, cname_line, "ok", "pass", "resolved");
    return t;
}

/* serve-expired: the iterator's own address lookup for nsc.atk (a
 * delegation's name server) stores the CNAME RRset of each step of its
 * chase before it sends the next query, so on Unbound 1.17.1 the python
 * module's query callback, which sees the fake name only then, is too
 * late.  Were the clean answer for nsc.atk stored, it would be served
 * stale with that RRset: the python module does not store answers that
 * end in a CNAME there. */
START_TEST(test_expired_answer_gets_iterator_cname)
{
    struct dnsq_result r;
    long long t0 = clean_first("nsc.atk", "nsc.atk. CNAME good.atk.");

    swap_zone("nsc.atk");
    wait_until(t0 + 5200); /* the CNAME (TTL 4) has expired */
    /* The iterator's lookup of the delegation's name server. */
    (void)dnsq_query_ex(H.port, "www.d.atk", DNSQ_A, 0, 1500, &r);
    expect_no_fake("nsc.atk", 0, "serve-expired after the iterator's lookup");
    expect_no_fake("nsc.atk", HQ_CD, "serve-expired after the iterator's lookup, CD");
}
END_TEST

/* prefetch with allow_snoop: an RD=0 client that hits the clean answer in
 * its prefetch window starts a prefetch.  (Unbound runs the prefetch with
 * RD set, through the module; the validator's unguarded RD=0 store is not
 * reached.) */
START_TEST(test_rd0_prefetch_swaps_cname)
{
    long long t0 = clean_first("p.atk", "p.atk. CNAME good.atk.");

    swap_zone("p.atk");
    wait_until(t0 + 18500); /* TTL 20: prefetch from 18 s */
    expect_no_fake("p.atk", HQ_NORD, "RD=0 in the prefetch window");
    t_sleep_ms(600);
    expect_no_fake("p.atk", 0, "RD=1 after the RD=0 prefetch");
    expect_no_fake("p.atk", HQ_CD, "RD=1 CD=1 after the RD=0 prefetch");
}
END_TEST

/* 1.17.1, serve-expired with allow_snoop: after the clean answer (and its
 * CNAME RRset) expired, an RD=0 client asks for another type of the same
 * name: no message and no delegation in the cache, so the modules resolve
 * it, RD=0, and the validator stores the new CNAME RRset whatever
 * no_cache_store says (validator.c, processFinished).  The client is
 * refused, but the stale clean answer now carries the new CNAME. */
START_TEST(test_rd0_expired_swaps_cname)
{
    long long t0 = clean_first("s.atk", "s.atk. CNAME good.atk.");

    swap_zone("s.atk");
    wait_until(t0 + 5200);
    expect_no_fake_t("s.atk", DNSQ_AAAA, HQ_NORD, "RD=0 AAAA after expiry");
    t_sleep_ms(600);
    expect_no_fake("s.atk", 0, "RD=1 after the RD=0 refresh");
    expect_no_fake("s.atk", HQ_CD, "RD=1 CD=1 after the RD=0 refresh");
}
END_TEST

static Suite *swap_suite(void)
{
    Suite *s = suite_create("integration-swap");
    TCase *tc;

    /* Unbound's own set-up */
    if (!harness_engine()) {
        tc = harness_tcase("iterator_cname_expired", setup_expired, teardown);
        tcase_add_test(tc, test_expired_answer_gets_iterator_cname);
        suite_add_tcase(s, tc);
    }

    tc = harness_tcase("iterator_cname_plain", setup_plain, teardown);
    tcase_add_test(tc, test_expired_answer_gets_iterator_cname);
    suite_add_tcase(s, tc);

    /* Unbound's own set-up */
    if (!harness_engine()) {
        tc = harness_tcase("rd0_prefetch", setup_prefetch_snoop, teardown);
        tcase_add_test(tc, test_rd0_prefetch_swaps_cname);
        suite_add_tcase(s, tc);
    }

    /* Unbound's own set-up */
    if (!harness_engine()) {
        tc = harness_tcase("rd0_expired", setup_expired_snoop, teardown);
        tcase_add_test(tc, test_rd0_expired_swaps_cname);
        suite_add_tcase(s, tc);
    }
    return s;
}

IDNG_TEST_MAIN(swap_suite)
