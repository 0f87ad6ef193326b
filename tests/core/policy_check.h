/**
 * \file
 * What the policy suites (test_policy.c, test_policy_rules.c) share.
 */
#ifndef IDNG_TESTS_CORE_POLICY_CHECK_H
#define IDNG_TESTS_CORE_POLICY_CHECK_H

#include "common.h"
#include "idng_conf.h"

#include <string.h>

/* Settings parsed from text, or the test fails with the parser's error. */
static IDNG_TEST_UNUSED void load(struct idng_conf *c, const char *text)
{
    char err[256];
    idng_conf_init(c);
    ck_assert_msg(idng_conf_parse(c, text, strlen(text), "t.conf", err, sizeof err) == 0, "%s",
                  err);
}

#endif
