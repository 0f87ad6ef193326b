/**
 * \file
 * The counters' outward forms (core/stats.c): the log's summary line
 * and the Prometheus text file, on a known snapshot.
 */
#include "common.h"
#include "idng_stats.h"

#include <pthread.h>
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

/* Counting from many threads at once: every answer lands in the snapshot,
 * in its row, action and path, with more threads than shards too; and
 * threads started one after another take shards in turn, so that no two
 * of the first IDNG_COUNTER_SHARDS share one. */
#define COUNT_THREADS (IDNG_COUNTER_SHARDS + 4)
#define COUNT_EACH 20000

static struct idng_counters shared_counters;

struct counter_arg {
    unsigned k, shard;
};

static void *count_some(void *arg)
{
    struct counter_arg *a = arg;
    unsigned i;

    a->shard = idng_counters_shard();
    for (i = 0; i < COUNT_EACH; i++) {
        idng_counters_count(&shared_counters, a->k % 3, IDNG_ACT_PASS, IDNG_PATH_CACHE);
        idng_counters_count(&shared_counters, IDNG_VERDICT_DENY, IDNG_ACT_REFUSE,
                            IDNG_PATH_POLICY);
    }
    /* Out of range: nothing counted. */
    idng_counters_count(&shared_counters, IDNG_VERDICT_COUNT, IDNG_ACT_PASS, IDNG_PATH_CACHE);
    idng_counters_count(&shared_counters, 0, IDNG_ACTION_COUNT, IDNG_PATH_CACHE);
    idng_counters_count(&shared_counters, 0, IDNG_ACT_PASS, IDNG_PATH_COUNT);
    return NULL;
}

START_TEST(test_counters_threads)
{
    pthread_t t[COUNT_THREADS];
    struct counter_arg a[COUNT_THREADS];
    struct idng_stats st;
    unsigned i, j, r, x, p;
    uint64_t total = 0;

    /* One at a time first: consecutive threads, consecutive shards. */
    for (i = 0; i < IDNG_COUNTER_SHARDS; i++) {
        a[i].k = i;
        ck_assert_int_eq(pthread_create(&t[i], NULL, count_some, &a[i]), 0);
        ck_assert_int_eq(pthread_join(t[i], NULL), 0);
    }
    for (i = 0; i < IDNG_COUNTER_SHARDS; i++)
        for (j = i + 1; j < IDNG_COUNTER_SHARDS; j++)
            ck_assert_uint_ne(a[i].shard, a[j].shard);
    /* Then all at once, more threads than shards. */
    for (i = 0; i < COUNT_THREADS; i++) {
        a[i].k = i;
        ck_assert_int_eq(pthread_create(&t[i], NULL, count_some, &a[i]), 0);
    }
    for (i = 0; i < COUNT_THREADS; i++)
        ck_assert_int_eq(pthread_join(t[i], NULL), 0);
    idng_counters_snapshot(&shared_counters, &st);
    for (r = 0; r < 3; r++) {
        uint64_t want = 0;

        for (i = 0; i < IDNG_COUNTER_SHARDS; i++)
            want += (i % 3 == r) * (uint64_t)COUNT_EACH;
        for (i = 0; i < COUNT_THREADS; i++)
            want += (i % 3 == r) * (uint64_t)COUNT_EACH;
        ck_assert_uint_eq(st.answers[r][IDNG_ACT_PASS][IDNG_PATH_CACHE], want);
    }
    ck_assert_uint_eq(st.answers[IDNG_VERDICT_DENY][IDNG_ACT_REFUSE][IDNG_PATH_POLICY],
                      (uint64_t)(IDNG_COUNTER_SHARDS + COUNT_THREADS) * COUNT_EACH);
    for (r = 0; r < IDNG_VERDICT_COUNT; r++)
        for (x = 0; x < IDNG_ACTION_COUNT; x++)
            for (p = 0; p < IDNG_PATH_COUNT; p++)
                total += st.answers[r][x][p];
    ck_assert_uint_eq(total, (uint64_t)(IDNG_COUNTER_SHARDS + COUNT_THREADS) * COUNT_EACH * 2);
}
END_TEST

static Suite *stats_suite(void)
{
    Suite *s = suite_create("stats");
    TCase *tc = tcase_create("formats");

    tcase_add_test(tc, test_line);
    tcase_add_test(tc, test_prometheus);
    suite_add_tcase(s, tc);
    tc = tcase_create("counters");
    tcase_add_test(tc, test_counters_threads);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(stats_suite)
