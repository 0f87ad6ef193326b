/**
 * \file
 * What the guard-integrity suites (test_guard.c, test_guard_logs.c) share:
 * the daemon pair of the running tcase, its default set-up and teardown,
 * and the refusal and cache checks.  Static: each suite has its own;
 * inline, so a suite that does not use one still compiles.
 */
#ifndef IDNG_TESTS_INTEGRATION_GUARD_H
#define IDNG_TESTS_INTEGRATION_GUARD_H

#include "harness.h"

#include <check.h>
#include <stdio.h>

static struct harness H;

/* The rejected name every chain aims at, as the EDE names it. */
#define FAKE_EDE "idnguard: contextj: xn--ab-m1t: "

static inline void setup_default(void)
{
    harness_setup(&H, "idnguard:\n", 1);
}

static inline void teardown(void)
{
    harness_stop(&H);
}

/* qname (presentation form, no final dot) is REFUSED by the module with
 * verdict and EDE; flags are HQ_* (HQ_CD for "from the cache?"). */
static inline void expect_refused(const char *qname, unsigned flags, const char *verdict,
                                  const char *ede_prefix)
{
    struct dnsq_result r;
    struct qline q;
    char qlog[600];

    snprintf(qlog, sizeof qlog, "%s.", qname);
    hx_query(&H, qname, DNSQ_A, flags, HARNESS_QUERY_MS, &r, &q);
    hx_expect_policy(&r, &q, qlog, 5, verdict, "refuse", ede_prefix);
}

/* qname answered first from upstream (first_flags), then from the cache
 * (flags): the controls that make the cache checks mean something. */
static inline void expect_cached(const char *qname, unsigned first_flags, unsigned flags,
                                 const char *summary)
{
    struct dnsq_result r;
    struct qline q;
    char qlog[300];

    snprintf(qlog, sizeof qlog, "%s.", qname);
    hx_query(&H, qname, DNSQ_A, first_flags, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, qlog, summary, "ok", "pass", "resolved");
    hx_query(&H, qname, DNSQ_A, flags, HARNESS_QUERY_MS, &r, &q);
    hx_expect_data(&r, &q, qlog, summary, "ok", "pass", "cache");
}

#endif
