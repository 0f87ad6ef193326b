/**
 * \file
 * The counters' outward forms (core/idng_stats.c): the log's summary line
 * and the Prometheus text file, on a known snapshot.
 */
#include "common.h"
#include "idng_stats.h"

#include <string.h>

static void sample(struct idng_stats *s)
{
    memset(s, 0, sizeof *s);
    s->answers[IDNG_C_OK][IDNG_ACT_PASS][IDNG_PATH_RESOLVED] = 3;
    s->answers[IDNG_C_OK][IDNG_ACT_PASS][IDNG_PATH_CACHE] = 2;
    s->answers[IDNG_C_CONTEXTJ][IDNG_ACT_REFUSE][IDNG_PATH_POLICY] = 1;
    s->answers[IDNG_VERDICT_DENY][IDNG_ACT_DROP][IDNG_PATH_POLICY] = 7;
    s->normalized = 4;
    s->reload_failures = 1;
}

START_TEST(test_line)
{
    struct idng_stats s;
    char out[1024];

    sample(&s);
    idng_stats_line(&s, "interval", out, sizeof out);
    ck_assert_str_eq(out, "idnguard stats (interval): ok/pass=5 contextj/refuse=1 deny/drop=7 "
                          "normalized=4 answers-rejected=0 uncached=0 stripped=0 internal=0 "
                          "reload-failures=1 log-errors=0");
    /* A small buffer truncates, NUL-terminated. */
    ck_assert_uint_eq(idng_stats_line(&s, "x", out, 10), 9);
    ck_assert_uint_eq(strlen(out), 9);
}
END_TEST

START_TEST(test_prometheus)
{
    struct idng_stats s;
    char out[8192];
    size_t n, small;

    sample(&s);
    n = idng_stats_prometheus(&s, "1.17.1 \"x\"", IDNG_MODE_UTS46, out, sizeof out);
    ck_assert_uint_lt(n, sizeof out);
    ck_assert_uint_eq(strlen(out), n);
    ck_assert_ptr_nonnull(strstr(out, "idnguard_info{version=\"" IDNG_VERSION "\",unicode=\""
                                      IDNG_UNICODE_VERSION "\",unbound=\"1.17.1 \\\"x\\\"\","
                                      "mode=\"uts46\"} 1\n"));
    ck_assert_ptr_nonnull(strstr(out, "# TYPE idnguard_answers_total counter\n"));
    ck_assert_ptr_nonnull(
        strstr(out, "idnguard_answers_total{class=\"ok\",action=\"pass\",path=\"resolved\"} 3\n"));
    ck_assert_ptr_nonnull(
        strstr(out, "idnguard_answers_total{class=\"ok\",action=\"pass\",path=\"cache\"} 2\n"));
    ck_assert_ptr_nonnull(
        strstr(out, "idnguard_answers_total{class=\"deny\",action=\"drop\",path=\"policy\"} 7\n"));
    ck_assert_ptr_null(strstr(out, "path=\"local\""));  /* zero series are left out */
    ck_assert_ptr_nonnull(strstr(out, "# TYPE idnguard_normalized_total counter\nidnguard_normalized_total 4\n"));
    ck_assert_ptr_nonnull(strstr(out, "idnguard_uncached_total 0\n"));
    ck_assert_ptr_nonnull(strstr(out, "idnguard_reload_failures_total 1\n"));
    /* Every line is a comment or "name{labels} value" / "name value". */
    {
        const char *l = out;
        while (*l) {
            const char *e = strchr(l, '\n');
            ck_assert_ptr_nonnull(e);
            ck_assert(l[0] == '#' || strncmp(l, "idnguard_", 9) == 0);
            l = e + 1;
        }
    }
    /* Too small a buffer: the length needed, nothing claimed written. */
    small = idng_stats_prometheus(&s, "1.17.1", IDNG_MODE_UTS46, out, 16);
    ck_assert_uint_ge(small, 16);
    ck_assert_str_eq(idng_path_name(IDNG_PATH_SERVFAIL), "servfail");
    ck_assert_int_eq(idng_path_lookup("policy"), IDNG_PATH_POLICY);
    ck_assert_int_eq(idng_path_lookup("nope"), IDNG_PATH_COUNT);
}
END_TEST

static Suite *stats_suite(void)
{
    Suite *s = suite_create("stats");
    TCase *tc = tcase_create("formats");

    tcase_add_test(tc, test_line);
    tcase_add_test(tc, test_prometheus);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(stats_suite)
