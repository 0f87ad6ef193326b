/**
 * \file
 * Tests of conf/conf.c, golden files and schema: tests/conf/data/
 * NN_name.in with the expected error line or idng_conf_write output in
 * NN_name.out, the shipped example as the defaults, and the schema against
 * the codec's class list.
 *
 * Run from the repository root (make check does): the golden files are
 * found in $CONF_TEST_DATA, else tests/conf/data.
 */
#include "conf_check.h"

#include <dirent.h>
#include <unistd.h>

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

static const char *data_dir(void)
{
    const char *d = getenv("CONF_TEST_DATA");
    return d != NULL && d[0] != '\0' ? d : "tests/conf/data";
}

/* Reads a whole file; fails the test when it cannot. */
static char *slurp(const char *path, size_t *len)
{
    char *buf = t_slurp(path, len);

    ck_assert_msg(buf != NULL, "cannot open %s: %s", path, strerror(errno));
    return buf;
}

/* One line, with what a terminal would hide made visible, for messages. */
static void show(char *out, size_t cap, const char *s, size_t n)
{
    size_t i, o = 0;
    for (i = 0; i < n && o + 5 < cap; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '\n') {
            out[o++] = '\\';
            out[o++] = 'n';
        } else if (ch < 0x20 || ch == 0x7f) {
            o += (size_t)snprintf(out + o, cap - o, "\\x%02x", ch);
        } else {
            out[o++] = (char)ch;
        }
    }
    out[o] = '\0';
}

/* ------------------------------------------------------------------------ */
/* Golden files                                                              */

static char **golden;   /* sorted .in file names, filled before the tests run */
static int n_golden;

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void find_golden(void)
{
    DIR *d = opendir(data_dir());
    struct dirent *e;
    int cap = 0;

    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".in") != 0)
            continue;
        if (n_golden == cap) {
            cap = cap ? 2 * cap : 64;
            golden = realloc(golden, (size_t)cap * sizeof *golden);
            if (golden == NULL)
                abort();
        }
        golden[n_golden++] = strdup(e->d_name);
    }
    closedir(d);
    if (n_golden > 0)
        qsort(golden, (size_t)n_golden, sizeof *golden, by_name);
}

START_TEST(test_golden_found)
{
    ck_assert_msg(n_golden >= 25, "%d golden .in files in %s (run from the repository root or "
                  "set CONF_TEST_DATA); expected at least 25", n_golden, data_dir());
}
END_TEST

START_TEST(test_golden)
{
    const char *in_name = golden[_i];
    char in_path[1024], out_path[1024], err[ERR_MAX], got_show[4096], want_show[4096];
    char *in, *want, *got;
    size_t in_len, want_len, got_len;
    struct idng_conf c;
    int rc;

    snprintf(in_path, sizeof in_path, "%s/%s", data_dir(), in_name);
    snprintf(out_path, sizeof out_path, "%s/%.*s.out", data_dir(), (int)strlen(in_name) - 3,
             in_name);
    ck_assert_msg(access(out_path, R_OK) == 0, "%s has no .out beside it", in_name);
    in = slurp(in_path, &in_len);
    want = slurp(out_path, &want_len);

    idng_conf_init(&c);
    if (idng_conf_parse(&c, in, in_len, in_name, err, sizeof err) == 0) {
        got = write_str(&c, &rc);
        ck_assert_msg(rc == 0, "%s: idng_conf_write failed", in_name);
        check_round_trip(&c, in_name);
    } else {
        got = malloc(strlen(err) + 2);
        ck_assert(got != NULL);
        sprintf(got, "%s\n", err);
        ck_assert_msg(strncmp(err, in_name, strlen(in_name)) == 0 && err[strlen(in_name)] == ':',
                      "%s: error does not start with the file name: %s", in_name, err);
    }
    got_len = strlen(got);
    if (got_len != want_len || memcmp(got, want, want_len) != 0) {
        /* Show both from the start of the first line that differs. */
        size_t at = 0, line = 1, from;
        while (at < got_len && at < want_len && got[at] == want[at])
            at++;
        for (from = 0; from < at; from++)
            line += got[from] == '\n';
        for (from = at; from > 0 && got[from - 1] != '\n'; from--)
            ;
        show(got_show, sizeof got_show, got + from, got_len - from);
        show(want_show, sizeof want_show, want + from, want_len - from);
        ck_abort_msg("%s: output line %zu differs:\n  got:  %.300s\n  want: %.300s", in_name,
                     line, got_show, want_show);
    }
    free(got);
    free(in);
    free(want);
    idng_conf_free(&c);
}
END_TEST

/* Every .out belongs to an .in: a renamed input must not leave a stale
 * expectation behind that nothing checks. */
START_TEST(test_golden_no_orphans)
{
    DIR *d = opendir(data_dir());
    struct dirent *e;
    char path[1024];

    ck_assert_msg(d != NULL, "cannot open %s", data_dir());
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (e->d_name[0] == '.')
            continue;
        if (n > 4 && strcmp(e->d_name + n - 4, ".out") == 0) {
            snprintf(path, sizeof path, "%s/%.*s.in", data_dir(), (int)n - 4, e->d_name);
            ck_assert_msg(access(path, F_OK) == 0, "%s has no .in beside it", e->d_name);
        } else {
            ck_assert_msg(n > 3 && strcmp(e->d_name + n - 3, ".in") == 0,
                          "unexpected file %s in %s", e->d_name, data_dir());
        }
    }
    closedir(d);
}
END_TEST

/* The example with its include of /etc/unbound/idnguard.conf.d/ pointed at
 * dir, so that the test never reads this machine's /etc. */
static char *example_in(const char *dir, size_t *len)
{
    static const char from[] = "\"/etc/unbound/idnguard.conf.d/";
    char *buf = slurp("conf/idnguard.conf.example", len), *at = strstr(buf, from), *out;
    size_t head;

    ck_assert_msg(at != NULL, "the example has no include of %s", from + 1);
    head = (size_t)(at - buf) + 1;
    out = malloc(*len + strlen(dir) + 2);
    ck_assert(out != NULL);
    memcpy(out, buf, head);
    *len = head + (size_t)sprintf(out + head, "%s/%s", dir, at + strlen(from));
    free(buf);
    return out;
}

/* The shipped example claims to hold the defaults; it must.  And a local
 * file dropped beside it overrides it, one key at a time: appending to the
 * example would repeat a key it sets. */
START_TEST(test_example_is_defaults)
{
    struct idng_conf c, def;
    char err[ERR_MAX], path[600];
    size_t len;
    char *buf;
    const char *d;

    make_tmpdir();
    buf = example_in(tmpdir, &len);
    idng_conf_init(&c);
    idng_conf_init(&def);
    ck_assert_msg(idng_conf_parse(&c, buf, len, "idnguard.conf.example", err, sizeof err) == 0,
                  "%s", err);
    d = conf_diff(&c, &def);
    ck_assert_msg(d == NULL, "the example's '%s' is not the default", d);
    snprintf(path, sizeof path, "%s/10-local.conf", tmpdir);
    t_spew_str(path, "idnguard:\n    on-invalid: log\n    deny: bad.example\n");
    ck_assert_msg(idng_conf_parse(&c, buf, len, "idnguard.conf.example", err, sizeof err) == 0,
                  "%s", err);
    ck_assert_int_eq(c.policy.on_invalid, IDNG_ACT_LOG);
    ck_assert_int_eq(c.policy.action[IDNG_C_BIDI], IDNG_ACT_LOG);
    ck_assert_int_eq(parse_str(&def, "idnguard:\n    on-invalid: log\n    deny: bad.example\n", err),
                     0);
    d = conf_diff(&c, &def);
    ck_assert_msg(d == NULL, "'%s' differs beyond the local file's keys", d);
    free(buf);
    idng_conf_free(&c);
    idng_conf_free(&def);
    remove_tmpdir();
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Schema                                                                    */

static int configurable(int cls)
{
    return cls != IDNG_C_OK && cls != IDNG_C_NOSPACE && cls != IDNG_C_INVAL;
}

/* Does the class keep a default of its own, whatever on-invalid says?
 * raw-8bit, and every lookalike class (mixed-script and every class after
 * it, core/idng_lookalike.h). */
static int own_default(int cls)
{
    return cls == IDNG_C_RAW_8BIT || cls >= IDNG_C_MIXED_SCRIPT;
}

/* The action of a class no key sets, with on-invalid: refuse: the policy's
 * own default (tests/core/test_policy.c checks each against the documented
 * one, and 01_defaults.out writes them all out), else on-invalid's. */
static enum idng_action default_action(int cls)
{
    if (!configurable(cls))
        return IDNG_ACT_PASS;
    return own_default(cls) ? (enum idng_action)idng_policy_default_action(cls) : IDNG_ACT_REFUSE;
}

START_TEST(test_defaults)
{
    struct idng_conf c;
    int cls;

    idng_conf_init(&c);
    ck_assert_int_eq(c.policy.mode, IDNG_MODE_UTS46);
    ck_assert_int_eq(c.policy.on_invalid, IDNG_ACT_REFUSE);
    for (cls = 0; cls < IDNG_CLASS_COUNT; cls++) {
        /* A default of its own for exactly those classes, and a valid one. */
        ck_assert_msg((idng_policy_default_action(cls) >= 0)
                          == (configurable(cls) && own_default(cls)),
                      "%s: default action %d", idng_class_name((idng_class)cls),
                      idng_policy_default_action(cls));
        ck_assert_msg(!own_default(cls) || idng_policy_action_allowed(cls, default_action(cls)),
                      "default action of %s not allowed for it", idng_class_name((idng_class)cls));
        ck_assert_msg(c.policy.action[cls] == default_action(cls), "default action of %s",
                      idng_class_name((idng_class)cls));
    }
    ck_assert_int_eq(c.policy.action[IDNG_C_WHOLE_SCRIPT], IDNG_ACT_REFUSE);
    ck_assert_int_eq(c.policy.action[IDNG_C_EMBEDS_PROTECTED], IDNG_ACT_LOG);
    ck_assert_int_eq(c.policy.protect.suffixes, 0);
    ck_assert_int_eq(c.policy.protect.embedded, 0);
    ck_assert_uint_eq(c.policy.protect.ntld, 0);
    ck_assert_int_eq(c.policy.action[IDNG_C_IDN], IDNG_ACT_PASS);
    ck_assert_uint_eq(c.policy.idn_scripts, 0);
    ck_assert_uint_eq(c.policy.idn_suffixes.count, 0);
    ck_assert_int_eq(c.log_queries, 1);
    ck_assert_int_eq(c.log_format, IDNG_LOGFMT_TEXT);
    ck_assert_ptr_null(c.log_file);
    ck_assert_int_eq(c.ede, 1);
    ck_assert_uint_eq(c.policy.allow.count, 0);
    ck_assert_uint_eq(c.policy.deny.count, 0);
    ck_assert_uint_eq(c.stats_interval, 3600);
    ck_assert_int_eq(c.watch_settings, 1);
    idng_conf_free(&c);
    idng_conf_free(&c); /* twice is fine */
}
END_TEST

/* One on-<class> key per class of the codec's list, but for the three that
 * are not properties of a name.  Each sets an action other than the class's
 * default (log, or drop where log is the default), so that it shows. */
START_TEST(test_class_key)
{
    int cls = _i, other;
    struct idng_conf c;
    char text[256], err[ERR_MAX];
    const char *name = idng_class_name((idng_class)cls);
    enum idng_action set = default_action(cls) == IDNG_ACT_LOG ? IDNG_ACT_DROP : IDNG_ACT_LOG;

    snprintf(text, sizeof text, "idnguard:\n    on-%s: %s\n", name, idng_action_name(set));
    idng_conf_init(&c);
    if (!configurable(cls)) {
        char want[128];
        ck_assert_int_eq(parse_str(&c, text, err), -1);
        snprintf(want, sizeof want, "t.conf:2: unknown key 'on-%s'", name);
        ck_assert_str_eq(err, want);
        return;
    }
    ck_assert_msg(parse_str(&c, text, err) == 0, "on-%s: %s", name, err);
    for (other = 0; other < IDNG_CLASS_COUNT; other++) {
        enum idng_action want = other == cls ? set : default_action(other);
        ck_assert_msg(c.policy.action[other] == want, "on-%s: %s %s, want %s", name,
                      idng_class_name((idng_class)other), idng_action_name(c.policy.action[other]),
                      idng_action_name(want));
    }
    /* normalize: raw-8bit only. */
    snprintf(text, sizeof text, "idnguard:\n    on-%s: normalize\n", name);
    ck_assert_int_eq(parse_str(&c, text, err), cls == IDNG_C_RAW_8BIT ? 0 : -1);
    if (cls != IDNG_C_RAW_8BIT)
        ck_assert_msg(strstr(err, "allowed only for 'on-raw-8bit'") != NULL, "%s", err);
    idng_conf_free(&c);
}
END_TEST

START_TEST(test_action_names)
{
    int a;
    enum idng_action got;
    static const char *const bad[] = {"", "Refuse", "ref", "refusex", "REFUSE", " refuse"};

    for (a = 0; a < IDNG_ACTION_COUNT; a++) {
        const char *n = idng_action_name((enum idng_action)a);
        ck_assert_ptr_nonnull(n);
        ck_assert_int_eq(idng_action_lookup(n, strlen(n), &got), 0);
        ck_assert_int_eq(got, a);
    }
    ck_assert_str_eq(idng_action_name(IDNG_ACT_PASS), "pass");
    ck_assert_str_eq(idng_action_name(IDNG_ACT_NORMALIZE), "normalize");
    ck_assert_ptr_null(idng_action_name(IDNG_ACTION_COUNT));
    ck_assert_ptr_null(idng_action_name((enum idng_action)-1));
    for (a = 0; a < N_OF(bad); a++)
        ck_assert_msg(idng_action_lookup(bad[a], strlen(bad[a]), &got) == -1, "'%s'", bad[a]);
    /* Length, not NUL, ends the name. */
    ck_assert_int_eq(idng_action_lookup("dropped", 4, &got), 0);
    ck_assert_int_eq(got, IDNG_ACT_DROP);
    ck_assert_int_eq(idng_action_lookup("drop\0", 5, &got), -1);
}
END_TEST

static Suite *conf_golden_suite(void)
{
    Suite *s = suite_create("conf-golden");
    TCase *tc;

    find_golden();
    tc = tcase_create("golden");
    tcase_add_test(tc, test_golden_found);
    if (n_golden > 0)
        tcase_add_loop_test(tc, test_golden, 0, n_golden);
    tcase_add_test(tc, test_golden_no_orphans);
    tcase_add_test(tc, test_example_is_defaults);
    suite_add_tcase(s, tc);

    tc = tcase_create("schema");
    tcase_add_test(tc, test_defaults);
    tcase_add_loop_test(tc, test_class_key, 0, IDNG_CLASS_COUNT);
    tcase_add_test(tc, test_action_names);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(conf_golden_suite)
