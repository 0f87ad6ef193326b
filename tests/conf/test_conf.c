/**
 * \file
 * Tests of conf/idng_conf.c: golden files (tests/conf/data/NN_name.in with
 * the expected error line or idng_conf_write output in NN_name.out), the
 * schema against the codec's class list, round trips, name lists, file
 * loading, and random input.
 *
 * Run from the repository root (make check does): the golden files are
 * found in $CONF_TEST_DATA, else tests/conf/data.
 */
#include "common.h"
#include "idng_conf.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define ERR_MAX 1024

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

static void spew(const char *path, const void *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f != NULL, "cannot create %s: %s", path, strerror(errno));
    ck_assert(fwrite(buf, 1, len, f) == len);
    ck_assert(fclose(f) == 0);
}

static void spew_str(const char *path, const char *s)
{
    spew(path, s, strlen(s));
}

/* idng_conf_write into a malloc'd string. */
static char *write_str(const struct idng_conf *c, int *rc)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);

    ck_assert(f != NULL);
    *rc = idng_conf_write(c, f);
    ck_assert(fclose(f) == 0);
    return out;
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

static int list_equal(const struct idng_nameset *a, const struct idng_nameset *b)
{
    size_t i;
    if (a->count != b->count)
        return 0;
    for (i = 0; i < a->count; i++) {
        size_t la = 0, lb = 0;
        while (a->names[i][la] != 0)
            la += 1u + a->names[i][la];
        while (b->names[i][lb] != 0)
            lb += 1u + b->names[i][lb];
        if (la != lb || memcmp(a->names[i], b->names[i], la + 1) != 0)
            return 0;
    }
    return 1;
}

/* The same tld-scripts entries, in the same order? */
static int tld_equal(const struct idng_protect *a, const struct idng_protect *b)
{
    size_t i;
    if (a->ntld != b->ntld)
        return 0;
    for (i = 0; i < a->ntld; i++)
        if (a->tld[i].len != b->tld[i].len || a->tld[i].scripts != b->tld[i].scripts
            || memcmp(a->tld[i].label, b->tld[i].label, a->tld[i].len) != 0)
            return 0;
    return 1;
}

/* Same effective settings?  Returns the first field that differs, or NULL. */
static const char *conf_diff(const struct idng_conf *a, const struct idng_conf *b)
{
    int cls;
    if (a->policy.mode != b->policy.mode)
        return "mode";
    for (cls = 0; cls < IDNG_CLASS_COUNT; cls++)
        if (a->policy.action[cls] != b->policy.action[cls])
            return idng_class_name((idng_class)cls);
    if (a->policy.on_invalid != b->policy.on_invalid)
        return "on_invalid";
    if (a->log_queries != b->log_queries)
        return "log_queries";
    if (a->log_format != b->log_format)
        return "log_format";
    if ((a->log_file == NULL) != (b->log_file == NULL)
        || (a->log_file != NULL && strcmp(a->log_file, b->log_file) != 0))
        return "log_file";
    if (a->ede != b->ede)
        return "ede";
    if (!list_equal(&a->policy.allow, &b->policy.allow))
        return "allow";
    if (!list_equal(&a->policy.deny, &b->policy.deny))
        return "deny";
    if (a->stats_interval != b->stats_interval)
        return "stats_interval";
    if (a->watch_settings != b->watch_settings)
        return "watch_settings";
    if (a->policy.restriction_level != b->policy.restriction_level)
        return "restriction_level";
    if (!list_equal(&a->policy.protect.names, &b->policy.protect.names))
        return "protect";
    if (a->policy.protect.suffixes != b->policy.protect.suffixes)
        return "protect-suffixes";
    if (a->policy.protect.embedded != b->policy.protect.embedded)
        return "protect-embedded";
    if (!tld_equal(&a->policy.protect, &b->policy.protect))
        return "tld-scripts";
    if (a->policy.idn_scripts != b->policy.idn_scripts)
        return "idn-scripts";
    if (!list_equal(&a->policy.idn_suffixes, &b->policy.idn_suffixes))
        return "idn-suffixes";
    return NULL;
}

static int parse_str(struct idng_conf *c, const char *text, char *err)
{
    return idng_conf_parse(c, text, strlen(text), "t.conf", err, ERR_MAX);
}

/* Writes c, parses the output, and checks both that the settings survive
 * and that writing again gives the same text. */
static void check_round_trip(const struct idng_conf *c, const char *what)
{
    struct idng_conf again;
    char err[ERR_MAX], *text, *text2;
    const char *d;
    int rc;

    text = write_str(c, &rc);
    ck_assert_msg(rc == 0, "%s: idng_conf_write failed", what);
    idng_conf_init(&again);
    ck_assert_msg(idng_conf_parse(&again, text, strlen(text), "written", err, sizeof err) == 0,
                  "%s: written settings do not parse: %s", what, err);
    d = conf_diff(c, &again);
    ck_assert_msg(d == NULL, "%s: '%s' differs after write and parse", what, d);
    text2 = write_str(&again, &rc);
    ck_assert_msg(rc == 0 && strcmp(text, text2) == 0, "%s: second write differs", what);
    free(text);
    free(text2);
    idng_conf_free(&again);
}

/* Text name -> wire, case kept, for queries (no checks beyond the test's). */
static size_t to_wire(const char *name, uint8_t *out)
{
    size_t o = 0, n = strlen(name);
    const char *p = name, *end = name + n;

    if (n > 0 && name[n - 1] == '.')
        end--;
    while (p < end) {
        const char *dot = memchr(p, '.', (size_t)(end - p));
        size_t l = (size_t)((dot ? dot : end) - p);
        ck_assert(l > 0 && l <= 63 && o + l + 2 <= 255);
        out[o++] = (uint8_t)l;
        memcpy(out + o, p, l);
        o += l;
        p += l + (dot != NULL);
    }
    out[o++] = 0;
    return o;
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

static char tmpdir[256];
static void make_tmpdir(void);
static void remove_tmpdir(void);

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
    spew_str(path, "idnguard:\n    on-invalid: log\n    deny: bad.example\n");
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

/* ------------------------------------------------------------------------ */
/* Parser behaviour that golden files cannot show                           */

static const char *const rich =
    "idnguard:\n"
    "    stats-interval: 0\n"
    "    deny: Bad.Example.NET\n"
    "    on-bidi: log\n"
    "    mode: punycode\n"
    "    allow: bücher.de\n"
    "    allow: .\n"
    "    on-raw-8bit: drop\n"
    "    on-invalid: nxdomain\n"
    "    log-file: \"/var/log/a \\\"b\\\" \\\\c#d.log\"\n"
    "    log-format: json\n"
    "    deny: 0/25.2.0.192.in-addr.arpa.\n";

START_TEST(test_round_trip)
{
    struct idng_conf c;
    char err[ERR_MAX];
    static const uint8_t buecher[] = "\015xn--bcher-kva\002de";

    idng_conf_init(&c);
    ck_assert_msg(parse_str(&c, rich, err) == 0, "%s", err);
    ck_assert_str_eq(c.log_file, "/var/log/a \"b\" \\c#d.log");
    ck_assert_int_eq(c.policy.action[IDNG_C_BIDI], IDNG_ACT_LOG);
    ck_assert_int_eq(c.policy.action[IDNG_C_HYPHEN], IDNG_ACT_NXDOMAIN);
    ck_assert_int_eq(c.policy.action[IDNG_C_RAW_8BIT], IDNG_ACT_DROP);
    ck_assert_int_eq(c.policy.action[IDNG_C_OK], IDNG_ACT_PASS);
    ck_assert_uint_eq(c.policy.allow.count, 2);
    ck_assert_mem_eq(c.policy.allow.names[0], buecher, sizeof buecher);
    ck_assert_uint_eq(c.policy.allow.names[1][0], 0);
    ck_assert_uint_eq(c.policy.deny.count, 2);
    ck_assert_mem_eq(c.policy.deny.names[0], "\003bad\007example\003net", 17);
    check_round_trip(&c, "rich");
    idng_conf_free(&c);

    /* The defaults survive a round trip as well. */
    idng_conf_init(&c);
    check_round_trip(&c, "defaults");
}
END_TEST

START_TEST(test_untouched_on_error)
{
    struct idng_conf c, before;
    char err[ERR_MAX];
    static const char *const bad[] = {
        "idnguard:\n    mode: idna2008\n    bogus: 1\n",
        "idnguard:\n    allow: example.com\n    allow: a..b\n",
        "idnguard:\n    log-file: /tmp/x\n    ede: maybe\n",
        /* an entry of the TLD table made, then a bad line */
        "idnguard:\n    tld-scripts: com latin,cyrillic\n    tld-scripts: org klingon\n",
        /* idn-suffixes and idn-scripts taken, then a bad line */
        "idnguard:\n    idn-suffixes: example.ru\n    idn-scripts: latin\n    idn-scripts: x\n",
        "",
    };
    int i;

    idng_conf_init(&c);
    ck_assert_msg(parse_str(&c, rich, err) == 0, "%s", err);
    memcpy(&before, &c, sizeof c); /* padding included, for memcmp */
    for (i = 0; i < N_OF(bad); i++) {
        ck_assert_int_eq(parse_str(&c, bad[i], err), -1);
        /* Same pointers, same values: nothing freed, nothing replaced. */
        ck_assert_msg(memcmp(&c, &before, sizeof c) == 0, "case %d changed c", i);
    }
    ck_assert_str_eq(c.log_file, "/var/log/a \"b\" \\c#d.log");
    /* A successful parse replaces everything, lists included. */
    ck_assert_int_eq(parse_str(&c, "idnguard:\n    deny: x.example\n", err), 0);
    ck_assert_uint_eq(c.policy.allow.count, 0);
    ck_assert_uint_eq(c.policy.deny.count, 1);
    ck_assert_ptr_null(c.log_file);
    ck_assert_int_eq(c.policy.mode, IDNG_MODE_UTS46);
    idng_conf_free(&c);
}
END_TEST

START_TEST(test_error_buffer)
{
    struct idng_conf c;
    char err[ERR_MAX], small[12];
    const char *text = "idnguard:\n    mode: bogus\n";

    idng_conf_init(&c);
    ck_assert_int_eq(idng_conf_parse(&c, text, strlen(text), NULL, err, sizeof err), -1);
    ck_assert_str_eq(err, "config:2: bad value 'bogus' for 'mode' (expected punycode, "
                          "idna2008-lookup, idna2008-registration (or idna2008) or uts46)");
    /* Truncated, terminated, and never written past its capacity. */
    memset(small, 'Z', sizeof small);
    ck_assert_int_eq(idng_conf_parse(&c, text, strlen(text), "f", small, 8), -1);
    ck_assert_str_eq(small, "f:2: ba");
    ck_assert_int_eq(small[8], 'Z');
    ck_assert_int_eq(idng_conf_parse(&c, text, strlen(text), "f", NULL, 0), -1);
    ck_assert_int_eq(idng_conf_parse(&c, text, strlen(text), "f", small, 0), -1);
    ck_assert_int_eq(small[0], 'f');
    /* Only the first error is reported. */
    text = "idnguard:\n    mode: bogus\n    ede: maybe\n";
    ck_assert_int_eq(idng_conf_parse(&c, text, strlen(text), "f", err, sizeof err), -1);
    ck_assert_msg(strncmp(err, "f:2: ", 5) == 0, "%s", err);
    /* The length, not a NUL, ends the input. */
    text = "idnguard:\n    mode: punycode\n    mode: bogus\n";
    ck_assert_int_eq(idng_conf_parse(&c, text, 29, "f", err, sizeof err), 0);
    ck_assert_int_eq(c.policy.mode, IDNG_MODE_PUNYCODE);
    /* The IDNA2008 modes by what they are (RFC 5891 4 and 5.4); "idna2008"
     * stays the registration's name. */
    text = "idnguard:\n    mode: idna2008-lookup\n";
    ck_assert_int_eq(idng_conf_parse(&c, text, strlen(text), "f", err, sizeof err), 0);
    ck_assert_int_eq(c.policy.mode, IDNG_MODE_IDNA2008_LOOKUP);
    text = "idnguard:\n    mode: idna2008-registration\n";
    ck_assert_int_eq(idng_conf_parse(&c, text, strlen(text), "f", err, sizeof err), 0);
    ck_assert_int_eq(c.policy.mode, IDNG_MODE_IDNA2008);
    text = "idnguard:\n    mode: idna2008\n";
    ck_assert_int_eq(idng_conf_parse(&c, text, strlen(text), "f", err, sizeof err), 0);
    ck_assert_int_eq(c.policy.mode, IDNG_MODE_IDNA2008);
    idng_conf_free(&c);
}
END_TEST

START_TEST(test_line_numbers_crlf)
{
    struct idng_conf c;
    char err[ERR_MAX];
    const char *text = "idnguard:\r\n\r\n# x\r\n    ede: maybe\r\n";

    idng_conf_init(&c);
    ck_assert_int_eq(idng_conf_parse(&c, text, strlen(text), "f", err, sizeof err), -1);
    ck_assert_str_eq(err, "f:4: bad value 'maybe' for 'ede' (expected yes or no)");
    idng_conf_free(&c);
}
END_TEST

START_TEST(test_write_refuses_unwritable)
{
    struct idng_conf c;
    char *text;
    int rc;
    uint8_t star[] = "\001*\007example\0";

    idng_conf_init(&c);
    c.policy.mode = (idng_mode)7;
    text = write_str(&c, &rc);
    ck_assert_int_eq(rc, -1);
    free(text);

    idng_conf_init(&c);
    c.policy.action[IDNG_C_BIDI] = IDNG_ACT_NORMALIZE;
    text = write_str(&c, &rc);
    ck_assert_int_eq(rc, -1);
    free(text);

    idng_conf_init(&c);
    c.stats_interval = IDNG_CONF_STATS_MAX + 1;
    text = write_str(&c, &rc);
    ck_assert_int_eq(rc, -1);
    free(text);

    idng_conf_init(&c);
    c.log_file = (char *)"relative/path";
    text = write_str(&c, &rc);
    ck_assert_int_eq(rc, -1);
    free(text);

    idng_conf_init(&c);
    {
        uint8_t *names[1] = {star};
        c.policy.allow.names = names;
        c.policy.allow.count = c.policy.allow.cap = 1;
        text = write_str(&c, &rc);
        ck_assert_int_eq(rc, -1);
        free(text);
    }
    ck_assert_int_eq(idng_conf_write(NULL, stdout), -1);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Name lists                                                                */

struct listed_case {
    const char *list;   /**< "allow:" lines, '|' between names */
    const char *query;  /**< text name, converted with its case kept */
    int want;
};

static const struct listed_case listed_cases[] = {
    {"example.net", "example.net.", 1},
    {"example.net.", "example.net", 1},
    {"example.net", "www.example.net", 1},
    {"example.net", "a.b.c.d.example.net", 1},
    {"example.net", "xample.net", 0},
    {"example.net", "wwwexample.net", 0},     /* suffix, but not on a label boundary */
    {"example.net", "net", 0},
    {"example.net", ".", 0},
    {"example.net", "example.org", 0},
    {"example.net", "example.net.evil", 0},
    {"example.net", "example.ne", 0},
    {"example.net", "WWW.EXAMPLE.NET", 1},   /* case-insensitive */
    {"EXAMPLE.Net", "www.example.NET.", 1},
    {"www.example.net", "example.net", 0},   /* a parent is not below its child */
    {".", "anything.example.", 1},             /* the root lists everything */
    {".", ".", 1},
    {".", "a.b.c.d.e.f", 1},
    {"bücher.de", "www.xn--bcher-kva.de", 1},  /* stored as the A-label */
    {"bücher.de", "WWW.XN--BCHER-KVA.DE", 1},
    {"bücher.de", "bcher.de", 0},
    {"a.example|b.example", "x.b.example", 1}, /* any name of the list */
    {"a.example|b.example", "c.example", 0},
    {"0/25.2.0.192.in-addr.arpa", "5.0/25.2.0.192.in-addr.arpa", 1},
    {"_dmarc.example", "_DMARC.example.", 1},
};

START_TEST(test_listed)
{
    const struct listed_case *t = &listed_cases[_i];
    struct idng_conf c;
    char text[512], err[ERR_MAX];
    const char *p = t->list;
    size_t o;
    uint8_t wire[256];
    size_t wlen;

    o = (size_t)snprintf(text, sizeof text, "idnguard:\n");
    while (*p != '\0') {
        size_t l = strcspn(p, "|");
        o += (size_t)snprintf(text + o, sizeof text - o, "    allow: %.*s\n", (int)l, p);
        p += l + (p[l] == '|');
    }
    idng_conf_init(&c);
    ck_assert_msg(parse_str(&c, text, err) == 0, "%s", err);
    wlen = to_wire(t->query, wire);
    ck_assert_msg((idng_nameset_listed(&c.policy.allow, wire, wlen) != 0) == t->want,
                  "list '%s', query '%s': expected %d", t->list, t->query, t->want);
    /* The length given may exceed the name; only the root label ends it. */
    wire[wlen] = 0xC0;
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, wire, wlen + 1) != 0, t->want);
    ck_assert_int_eq(idng_nameset_listed(&c.policy.deny, wire, wlen), 0);
    idng_conf_free(&c);
}
END_TEST

/* The longest matching entry is reported, so allow and deny can be compared. */
START_TEST(test_listed_longest)
{
    static const char text[] = "idnguard:\n    allow: example.\n    allow: www.example.\n";
    static const uint8_t q[] = "\x01" "a" "\x03" "www" "\x07" "example" "\x00";
    static const uint8_t other[] = "\x04" "mail" "\x07" "example" "\x00";
    struct idng_conf c;
    char err[ERR_MAX];

    idng_conf_init(&c);
    ck_assert_msg(parse_str(&c, text, err) == 0, "%s", err);
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, q, sizeof q - 1), 13);
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, other, sizeof other - 1), 9);
    idng_conf_free(&c);
}
END_TEST

START_TEST(test_listed_malformed)
{
    struct idng_conf c;
    char err[ERR_MAX];
    uint8_t big[300];
    size_t i;
    static const uint8_t ptr[] = {3, 'w', 'w', 'w', 0xC0, 12};
    static const uint8_t trunc[] = {3, 'n', 'e'};
    static const uint8_t noroot[] = {3, 'n', 'e', 't'};
    static const uint8_t long_label[] = {64, 'a'};

    idng_conf_init(&c);
    ck_assert_int_eq(parse_str(&c, "idnguard:\n    allow: .\n", err), 0);
    /* Even the root, which lists everything, lists no malformed name. */
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, ptr, sizeof ptr), 0);
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, trunc, sizeof trunc), 0);
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, noroot, sizeof noroot), 0);
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, long_label, sizeof long_label), 0);
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, (const uint8_t *)"", 0), 0);
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, NULL, 10), 0);
    ck_assert_int_eq(idng_nameset_listed(NULL, (const uint8_t *)"", 1), 0);
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, (const uint8_t *)"", 1), 1);
    /* 255 octets is the longest name; 257 is too long. */
    for (i = 0; i + 2 <= 254; i += 2) {
        big[i] = 1;
        big[i + 1] = 'a';
    }
    big[254] = 0; /* 127 labels, 255 octets */
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, big, 255), 1);
    big[254] = 1;
    big[255] = 'a';
    big[256] = 0;
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, big, sizeof big), 0);
    idng_conf_free(&c);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Loading files                                                             */

static void make_tmpdir(void)
{
    t_tmpdir_make(tmpdir, sizeof tmpdir, "idng-conf");
}

/* Removes what the load tests create (files, one FIFO, subdirectories). */
static void remove_tmpdir(void)
{
    t_tmpdir_remove(tmpdir);
}

/* Loads path, expecting failure with exactly want (or a prefix of it when
 * want ends in '*'), and c untouched. */
static void expect_load_error(const char *path, const char *want)
{
    struct idng_conf c, before;
    char err[ERR_MAX];
    size_t n = strlen(want);

    idng_conf_init(&c);
    ck_assert_int_eq(parse_str(&c, "idnguard:\n    allow: example.net\n", err), 0);
    memcpy(&before, &c, sizeof c); /* padding included, for memcmp */
    ck_assert_msg(idng_conf_load(&c, path, err, sizeof err) == -1, "%s loaded", path);
    if (n > 0 && want[n - 1] == '*')
        ck_assert_msg(strncmp(err, want, n - 1) == 0, "got \"%s\", want \"%s\"", err, want);
    else
        ck_assert_str_eq(err, want);
    ck_assert(memcmp(&c, &before, sizeof c) == 0);
    idng_conf_free(&c);
}

START_TEST(test_load)
{
    char path[512], want[1024], *big;
    struct idng_conf c;
    char err[ERR_MAX];

    make_tmpdir();

    snprintf(path, sizeof path, "%s/missing.conf", tmpdir);
    snprintf(want, sizeof want, "%s: cannot open: %s", path, strerror(ENOENT));
    expect_load_error(path, want);

    snprintf(want, sizeof want, "%s: is a directory, not a settings file", tmpdir);
    expect_load_error(tmpdir, want);

    snprintf(path, sizeof path, "%s/empty.conf", tmpdir);
    spew(path, "", 0);
    snprintf(want, sizeof want, "%s:1: no 'idnguard:' clause*", path);
    expect_load_error(path, want);

    snprintf(path, sizeof path, "%s/comments.conf", tmpdir);
    spew_str(path, "# settings\n\n# none yet\n");
    snprintf(want, sizeof want, "%s:3: no 'idnguard:' clause*", path);
    expect_load_error(path, want);

    snprintf(path, sizeof path, "%s/fifo", tmpdir);
    ck_assert(mkfifo(path, 0600) == 0);
    snprintf(want, sizeof want, "%s: is not a regular file", path);
    expect_load_error(path, want); /* and does not hang waiting for a writer */

    /* One octet over the cap, although every line of it is fine. */
    snprintf(path, sizeof path, "%s/big.conf", tmpdir);
    big = malloc(IDNG_CONF_FILE_MAX + 1);
    ck_assert(big != NULL);
    memset(big, '\n', IDNG_CONF_FILE_MAX + 1);
    memcpy(big, "idnguard:", 9);
    spew(path, big, IDNG_CONF_FILE_MAX + 1);
    snprintf(want, sizeof want, "%s: too big (%d octets; the limit is %d)", path,
             IDNG_CONF_FILE_MAX + 1, IDNG_CONF_FILE_MAX);
    expect_load_error(path, want);
    /* Exactly at the cap it loads. */
    spew(path, big, IDNG_CONF_FILE_MAX);
    idng_conf_init(&c);
    ck_assert_msg(idng_conf_load(&c, path, err, sizeof err) == 0, "%s", err);
    free(big);

    snprintf(path, sizeof path, "%s/good.conf", tmpdir);
    spew_str(path, rich);
    ck_assert_msg(idng_conf_load(&c, path, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(c.policy.mode, IDNG_MODE_PUNYCODE);
    ck_assert_uint_eq(c.policy.allow.count, 2);
    idng_conf_free(&c);

    /* Errors inside a loaded file name the path as given. */
    snprintf(path, sizeof path, "%s/bad.conf", tmpdir);
    spew_str(path, "idnguard:\n  ede: maybe\n");
    snprintf(want, sizeof want, "%s:2: bad value 'maybe' for 'ede' (expected yes or no)", path);
    expect_load_error(path, want);

    /* Root reads files whatever their mode, so there is nothing to see. */
    if (geteuid() != 0) {
        snprintf(path, sizeof path, "%s/unreadable.conf", tmpdir);
        spew_str(path, "idnguard:\n");
        ck_assert(chmod(path, 0) == 0);
        snprintf(want, sizeof want, "%s: cannot open: %s", path, strerror(EACCES));
        expect_load_error(path, want);
    }

    expect_load_error("", "(no path): no settings file given");
    remove_tmpdir();
}
END_TEST

/* Deterministic pseudo-random octets (xorshift32), so failures reproduce. */
static uint32_t rnd(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

START_TEST(test_load_garbage)
{
    char path[512], err[ERR_MAX];
    unsigned char buf[4096];
    uint32_t seed = 0x9e3779b9u + (uint32_t)_i;
    size_t i;

    make_tmpdir();
    snprintf(path, sizeof path, "%s/garbage.conf", tmpdir);
    for (i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)rnd(&seed);
    spew(path, buf, sizeof buf);
    {
        struct idng_conf c, before;
        idng_conf_init(&c);
        memcpy(&before, &c, sizeof c); /* padding included, for memcmp */
        ck_assert_int_eq(idng_conf_load(&c, path, err, sizeof err), -1);
        ck_assert_msg(strncmp(err, path, strlen(path)) == 0 && err[strlen(path)] == ':',
                      "%s", err);
        ck_assert(memcmp(&c, &before, sizeof c) == 0);
    }
    /* The same garbage after a good clause line: still an error. */
    memcpy(buf, "idnguard:\n", 10);
    spew(path, buf, sizeof buf);
    {
        struct idng_conf c;
        idng_conf_init(&c);
        ck_assert_int_eq(idng_conf_load(&c, path, err, sizeof err), -1);
        ck_assert_msg(strncmp(err + strlen(path), ":", 1) == 0, "%s", err);
    }
    remove_tmpdir();
}
END_TEST

/* Mutations of a valid file: the parser never crashes or leaks an
 * inconsistent result; whatever it accepts round-trips. */
START_TEST(test_mutations)
{
    static const char alphabet[] = "idnguard:#\"\\ \t\r\n.-*aZ0\x80\xc3\xbc\x00\x7f";
    uint32_t seed = 12345u + (uint32_t)_i * 7919u;
    size_t base = strlen(rich);
    char buf[1024], err[ERR_MAX];
    int round, accepted = 0;

    for (round = 0; round < 500; round++) {
        struct idng_conf c;
        size_t len = base, k, edits = 1 + rnd(&seed) % 4;
        memcpy(buf, rich, base);
        for (k = 0; k < edits; k++) {
            size_t at = rnd(&seed) % len;
            char ch = alphabet[rnd(&seed) % (sizeof alphabet - 1)];
            switch (rnd(&seed) % 3) {
            case 0:
                buf[at] = ch;
                break;
            case 1:
                if (len + 1 < sizeof buf) {
                    memmove(buf + at + 1, buf + at, len - at);
                    buf[at] = ch;
                    len++;
                }
                break;
            default:
                memmove(buf + at, buf + at + 1, len - at - 1);
                len--;
                break;
            }
        }
        idng_conf_init(&c);
        if (idng_conf_parse(&c, buf, len, "m", err, sizeof err) == 0) {
            accepted++;
            check_round_trip(&c, "mutation");
        } else {
            ck_assert_msg(strncmp(err, "m:", 2) == 0 && strlen(err) > 4, "%s", err);
        }
        idng_conf_free(&c);
    }
    ck_assert_msg(accepted > 0, "no mutation was accepted; the generator is too harsh");
}
END_TEST

/* protect and protect-file: every name valid, every problem reported with
 * where it is, nothing applied after one; and the names protect. */
START_TEST(test_protect)
{
    char path[512], conf[1024], err[ERR_MAX], want[4096];
    struct idng_conf c;
    struct idng_verdict v;
    uint8_t w[64];

    make_tmpdir();
    snprintf(path, sizeof path, "%s/protected.txt", tmpdir);
    spew_str(path, "# our names\npaypal.com\n  example.org  # trailing comment\n\n"
                   "b\xc3\xbc" "cher.example\r\n");
    snprintf(conf, sizeof conf, "idnguard:\n    protect: paypal.net\n    protect-file: %s\n",
             path);
    idng_conf_init(&c);
    ck_assert_msg(parse_str(&c, conf, err) == 0, "%s", err);
    ck_assert_uint_eq(c.policy.protect.names.count, 4);
    ck_assert_uint_eq(c.protect_lines.count, 1);
    /* p<Cyrillic a>ypal.com, and a name below it, are confusable. */
    memcpy(w, "\015xn--pypal-4ve\003com\000", 19);
    idng_policy_judge(&c.policy, w, 19, &v);
    ck_assert_str_eq(idng_verdict_name(&v), "confusable");
    ck_assert_int_eq(v.action, IDNG_ACT_REFUSE);
    check_round_trip(&c, "protect");
    idng_conf_free(&c);

    /* Bad lines in the file: each reported as file:line, then nothing. */
    spew_str(path, "paypal.com\nxn--zz.example\nexample\x01.org\npaypal.com\n");
    snprintf(conf, sizeof conf, "idnguard:\n    protect-file: %s\n", path);
    idng_conf_init(&c);
    ck_assert_int_eq(parse_str(&c, conf, err), -1);
    snprintf(want, sizeof want,
             "t.conf:2: %s:2: bad name 'xn--zz.example' for 'protect-file': label 'xn--zz': "
             "unterminated Punycode integer [bad-punycode]\n"
             "t.conf:2: %s:3: control octet 0x01 in a name\n"
             "t.conf:2: %s:4: duplicate protected name 'paypal.com.'",
             path, path, path);
    ck_assert_str_eq(err, want);
    ck_assert_uint_eq(c.policy.protect.names.count, 0);

    snprintf(conf, sizeof conf, "idnguard:\n    protect-file: %s/missing\n", tmpdir);
    ck_assert_int_eq(parse_str(&c, conf, err), -1);
    snprintf(want, sizeof want, "t.conf:2: protect-file '%s/missing': cannot open: %s", tmpdir,
             strerror(ENOENT));
    ck_assert_str_eq(err, want);
    snprintf(conf, sizeof conf, "idnguard:\n    protect-file: %s\n", tmpdir);
    ck_assert_int_eq(parse_str(&c, conf, err), -1);
    snprintf(want, sizeof want, "t.conf:2: protect-file '%s': is a directory, not a file of names",
             tmpdir);
    ck_assert_str_eq(err, want);
    ck_assert_int_eq(parse_str(&c, "idnguard:\n    protect: .\n", err), -1);
    ck_assert_str_eq(err, "t.conf:2: bad name '.' for 'protect': the root protects nothing "
                          "(give a domain)");
    ck_assert_int_eq(parse_str(&c, "idnguard:\n    protect: xn--ab-m1t.example\n", err), -1);
    ck_assert_str_eq(err, "t.conf:2: bad name 'xn--ab-m1t.example' for 'protect': label "
                          "'xn--ab-m1t': joiner not allowed here (RFC 5892 A.1, A.2) [contextj]");
    ck_assert_int_eq(parse_str(&c, "idnguard:\n    restriction-level: highly\n", err), -1);
    ck_assert_str_eq(err, "t.conf:2: bad value 'highly' for 'restriction-level' (expected "
                          "ascii-only, single-script, highly-restrictive, "
                          "moderately-restrictive, minimally-restrictive or unrestricted)");
    idng_conf_free(&c);
    remove_tmpdir();
}
END_TEST

/* ------------------------------------------------------------------------ */
/* protect-suffixes, protect-embedded, tld-scripts                           */

/* Parses text, which must parse and round-trip; returns c's written text
 * (malloc'd) and leaves c parsed. */
static char *parse_written(struct idng_conf *c, const char *text)
{
    char err[ERR_MAX], *out;
    int rc;

    idng_conf_init(c);
    ck_assert_msg(parse_str(c, text, err) == 0, "%s: %s", text, err);
    check_round_trip(c, text);
    out = write_str(c, &rc);
    ck_assert_int_eq(rc, 0);
    return out;
}

/* "verdict/action" of name (a text name) under the settings text. */
static const char *judged(const char *text, const char *name)
{
    static char out[96];
    struct idng_conf c;
    struct idng_verdict v;
    uint8_t wire[256];
    size_t n;

    free(parse_written(&c, text));
    n = to_wire(name, wire);
    idng_policy_judge(&c.policy, wire, n, &v);
    snprintf(out, sizeof out, "%s/%s", idng_verdict_name(&v), idng_action_name(v.action));
    idng_conf_free(&c);
    return out;
}

/* text must fail to parse with exactly want. */
static void expect_parse_error(const char *text, const char *want)
{
    struct idng_conf c;
    char err[ERR_MAX];

    idng_conf_init(&c);
    ck_assert_msg(parse_str(&c, text, err) == -1, "%s parsed", text);
    ck_assert_str_eq(err, want);
    idng_conf_free(&c);
}

/* protect-suffixes and protect-embedded after protect: paypal.com ("" for
 * neither): the fields they set (each key its own), and a verdict each
 * value changes.  p<Cyrillic a>ypal under another public suffix is
 * confusable with any, only mixed-script with listed (the default);
 * paypal-café holds paypal between hyphens. */
static const struct switch_case {
    const char *line;
    int suffixes, embedded;
    const char *name, *verdict;
} switch_cases[] = {
    {"protect-suffixes: any", 1, 0, "xn--pypal-4ve.co.uk.", "confusable/refuse"},
    {"protect-suffixes: listed", 0, 0, "xn--pypal-4ve.co.uk.", "mixed-script/log"},
    {"", 0, 0, "xn--pypal-4ve.co.uk.", "mixed-script/log"},
    {"protect-embedded: yes", 0, 1, "xn--paypal-caf-k7a.com.", "embeds-protected/log"},
    {"protect-embedded: no", 0, 0, "xn--paypal-caf-k7a.com.", "ok/pass"},
    {"", 0, 0, "xn--paypal-caf-k7a.com.", "ok/pass"},
};

START_TEST(test_protect_switches)
{
    const struct switch_case *t = &switch_cases[_i];
    struct idng_conf c;
    char text[256], line[128], *out;

    snprintf(text, sizeof text, "idnguard:\n    protect: paypal.com\n    %s\n", t->line);
    out = parse_written(&c, text);
    ck_assert_int_eq(c.policy.protect.suffixes, t->suffixes);
    ck_assert_int_eq(c.policy.protect.embedded, t->embedded);
    /* written back as it was given */
    snprintf(line, sizeof line, "\n    %s\n", t->line);
    ck_assert_msg(t->line[0] == '\0' || strstr(out, line) != NULL, "%s", out);
    free(out);
    idng_conf_free(&c);
    ck_assert_str_eq(judged(text, t->name), t->verdict);
}
END_TEST

START_TEST(test_protect_switch_errors)
{
    expect_parse_error("idnguard:\n    protect-suffixes: all\n",
                       "t.conf:2: bad value 'all' for 'protect-suffixes' (expected listed or any)");
    expect_parse_error("idnguard:\n    protect-suffixes: Any\n",
                       "t.conf:2: bad value 'Any' for 'protect-suffixes' (expected listed or any)");
    expect_parse_error("idnguard:\n    protect-embedded: maybe\n",
                       "t.conf:2: bad value 'maybe' for 'protect-embedded' (expected yes or no)");
}
END_TEST

/* The TLD's entry: its A-label and scripts. */
static void expect_tld(const struct idng_conf *c, size_t k, const char *label, unsigned scripts)
{
    const struct idng_protect *p = &c->policy.protect;

    ck_assert_uint_gt(p->ntld, k);
    ck_assert_uint_eq(p->tld[k].len, strlen(label));
    ck_assert_mem_eq(p->tld[k].label, label, strlen(label));
    ck_assert_uint_eq(p->tld[k].scripts, scripts);
}

#define SCRIPTS_EXPECTED                                                                           \
    "expected 'TLD SCRIPT[,SCRIPT...]' or 'TLD none', a script one of latin cyrillic "             \
    "greek armenian georgian hebrew arabic thai cjk ethiopic myanmar bengali devanagari "        \
    "gujarati gurmukhi kannada malayalam oriya tamil telugu"

START_TEST(test_tld_scripts)
{
    struct idng_conf c;
    char *out;

    /* A Unicode TLD is stored as its A-label: рф is xn--p1ai. */
    out = parse_written(&c, "idnguard:\n    tld-scripts: рф latin\n");
    ck_assert_uint_eq(c.policy.protect.ntld, 1);
    expect_tld(&c, 0, "xn--p1ai", IDNG_SCRIPT_LATIN);
    ck_assert_msg(strstr(out, "\n    tld-scripts: xn--p1ai latin\n") != NULL, "%s", out);
    free(out);
    idng_conf_free(&c);
    /* Cyrillic аррӏе is at home under рф, unless only Latin is expected. */
    ck_assert_str_eq(judged("idnguard:\n", "xn--80ak6aa92e.xn--p1ai."), "ok/pass");
    ck_assert_str_eq(judged("idnguard:\n    tld-scripts: рф latin\n", "xn--80ak6aa92e.xn--p1ai."),
                     "whole-script/refuse");

    /* Several scripts, any case of the TLD, written in the list's order. */
    out = parse_written(&c, "idnguard:\n    tld-scripts: COM greek,latin,cyrillic\n");
    expect_tld(&c, 0, "com", IDNG_SCRIPT_LATIN | IDNG_SCRIPT_CYRILLIC | IDNG_SCRIPT_GREEK);
    ck_assert_msg(strstr(out, "\n    tld-scripts: com latin,cyrillic,greek\n") != NULL, "%s", out);
    free(out);
    idng_conf_free(&c);
    ck_assert_str_eq(judged("idnguard:\n", "xn--80ak6aa92e.com."), "whole-script/refuse");
    ck_assert_str_eq(
        judged("idnguard:\n    tld-scripts: com latin,cyrillic\n", "xn--80ak6aa92e.com."),
        "ok/pass");

    /* none: an entry that expects no script, so nothing is whole-script. */
    out = parse_written(&c, "idnguard:\n    tld-scripts: com none\n");
    ck_assert_uint_eq(c.policy.protect.ntld, 1);
    expect_tld(&c, 0, "com", 0);
    ck_assert_msg(strstr(out, "\n    tld-scripts: com none\n") != NULL, "%s", out);
    free(out);
    idng_conf_free(&c);
    ck_assert_str_eq(judged("idnguard:\n    tld-scripts: com none\n", "xn--80ak6aa92e.com."),
                     "ok/pass");

    /* Repeated lines for one TLD, in either spelling: the last wins; other
     * TLDs get entries of their own. */
    out = parse_written(&c, "idnguard:\n    tld-scripts: рф latin\n    tld-scripts: ru none\n"
                            "    tld-scripts: XN--P1AI cyrillic,greek\n");
    ck_assert_uint_eq(c.policy.protect.ntld, 2);
    expect_tld(&c, 0, "xn--p1ai", IDNG_SCRIPT_CYRILLIC | IDNG_SCRIPT_GREEK);
    expect_tld(&c, 1, "ru", 0);
    ck_assert_msg(strstr(out, "\n    tld-scripts: xn--p1ai cyrillic,greek\n"
                              "    tld-scripts: ru none\n")
                      != NULL,
                  "%s", out);
    free(out);
    idng_conf_free(&c);
    ck_assert_str_eq(judged("idnguard:\n    tld-scripts: xn--p1ai cyrillic\n"
                            "    tld-scripts: рф latin\n",
                            "xn--80ak6aa92e.xn--p1ai."),
                     "whole-script/refuse");
    ck_assert_str_eq(judged("idnguard:\n    tld-scripts: рф latin\n"
                            "    tld-scripts: xn--p1ai cyrillic\n",
                            "xn--80ak6aa92e.xn--p1ai."),
                     "ok/pass");

    /* An unknown script is named, with the ones there are; a TLD is one
     * label; a script must follow it. */
    expect_parse_error("idnguard:\n    tld-scripts: com klingon\n",
                       "t.conf:2: bad script 'klingon' for 'tld-scripts': " SCRIPTS_EXPECTED);
    expect_parse_error("idnguard:\n    tld-scripts: com latin,Greek\n",
                       "t.conf:2: bad script 'Greek' for 'tld-scripts': " SCRIPTS_EXPECTED);
    expect_parse_error("idnguard:\n    tld-scripts: co.uk latin\n",
                       "t.conf:2: bad top-level domain 'co.uk' for 'tld-scripts': give one label");
    expect_parse_error("idnguard:\n    tld-scripts: com\n",
                       "t.conf:2: bad value 'com' for 'tld-scripts': " SCRIPTS_EXPECTED);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* include                                                                   */

/* Writes tmpdir/name; its path into out (512 octets). */
static const char *put(const char *name, const char *text, char *out)
{
    snprintf(out, 512, "%s/%s", tmpdir, name);
    spew_str(out, text);
    return out;
}

/* Loads path with origins kept; 0 or -1, err filled. */
static int load_origins(struct idng_conf *c, const char *path, char *err)
{
    idng_conf_init(c);
    return idng_conf_load_flags(c, path, IDNG_CONF_F_ORIGINS, err, ERR_MAX);
}

/* "FILE:LINE" of key's origin in c, or "default". */
static const char *key_at(const struct idng_conf *c, const char *key)
{
    static char out[1024];
    struct idng_conf_origin o;

    ck_assert_int_ge(idng_conf_key_origin(c, key, &o), 0);
    idng_conf_origin_text(c, &o, out, sizeof out);
    return out;
}

/* The file the shipped settings would be, with one key of each kind and an
 * include of a directory of local files at its end. */
static const char *shipped(char *out)
{
    char text[1024];

    snprintf(text, sizeof text,
             "idnguard:\n    mode: uts46\n    on-invalid: refuse\n    log-format: text\n"
             "    allow: shipped.example\n    tld-scripts: com latin\n"
             "    include: \"%s/local-*.conf\"\n",
             tmpdir);
    return put("idnguard.conf", text, out);
}

/* A local file overrides single-valued keys of the shipped one (the
 * later setting wins); list keys gather entries from both; each setting
 * remembers the file and line that made it. */
START_TEST(test_include_overrides)
{
    char main_path[512], local[512], want[2048], err[ERR_MAX], *out;
    struct idng_conf c;
    struct idng_conf_origin o;
    int rc;

    make_tmpdir();
    shipped(main_path);
    put("local-1.conf",
        "# local settings\nidnguard:\n    on-invalid: log\n    log-format: json\n"
        "    allow: local.example\n    tld-scripts: com latin,cyrillic\n"
        "    protect: paypal.com\n",
        local);
    ck_assert_msg(load_origins(&c, main_path, err) == 0, "%s", err);
    ck_assert_int_eq(c.policy.on_invalid, IDNG_ACT_LOG);
    ck_assert_int_eq(c.policy.action[IDNG_C_CONTEXTJ], IDNG_ACT_LOG);
    ck_assert_int_eq(c.log_format, IDNG_LOGFMT_JSON);
    ck_assert_int_eq(c.policy.mode, IDNG_MODE_UTS46);
    /* Lists gather, in the order read; the same TLD's entry is replaced. */
    ck_assert_uint_eq(c.policy.allow.count, 2);
    ck_assert_uint_eq(c.policy.protect.ntld, 1);
    ck_assert_uint_eq(c.policy.protect.tld[0].scripts, IDNG_SCRIPT_LATIN | IDNG_SCRIPT_CYRILLIC);
    /* Where each came from. */
    snprintf(want, sizeof want, "%s:3", local);
    ck_assert_str_eq(key_at(&c, "on-invalid"), want);
    snprintf(want, sizeof want, "%s:2", main_path);
    ck_assert_str_eq(key_at(&c, "mode"), want);
    ck_assert_str_eq(key_at(&c, "on-contextj"), "default");
    ck_assert_int_eq(idng_conf_key_origin(&c, "on-contextj", &o), 0);
    ck_assert_int_eq(idng_conf_key_origin(&c, "no-such-key", &o), -1);
    ck_assert_ptr_nonnull(c.origin.allow);
    ck_assert_str_eq(c.origin.files[c.origin.allow[0].file], main_path);
    ck_assert_uint_eq(c.origin.allow[0].line, 5);
    ck_assert_str_eq(c.origin.files[c.origin.allow[1].file], local);
    ck_assert_uint_eq(c.origin.allow[1].line, 5);
    ck_assert_uint_eq(c.origin.protect[0].line, 7);
    ck_assert_uint_eq(c.origin.tld[0].line, 6);
    /* Written back with where each line was set, and still the settings. */
    out = NULL;
    {
        size_t len = 0;
        FILE *f = open_memstream(&out, &len);
        ck_assert(f != NULL);
        rc = idng_conf_write_origins(&c, f);
        ck_assert(fclose(f) == 0);
    }
    ck_assert_int_eq(rc, 0);
    snprintf(want, sizeof want, "\n    on-invalid: log  # %s:3\n    on-too-long: log\n", local);
    ck_assert_msg(strstr(out, want) != NULL, "%s", out);
    snprintf(want, sizeof want, "\n    allow: shipped.example.  # %s:5\n    allow: local.example.  # %s:5\n",
             main_path, local);
    ck_assert_msg(strstr(out, want) != NULL, "%s", out);
    snprintf(want, sizeof want, "\n    protect: paypal.com.  # %s:7\n    # protect-file: (none)\n",
             local);
    ck_assert_msg(strstr(out, want) != NULL, "%s", out);
    {
        struct idng_conf again;
        const char *d;
        idng_conf_init(&again);
        ck_assert_msg(idng_conf_parse(&again, out, strlen(out), "w", err, sizeof err) == 0, "%s",
                      err);
        d = conf_diff(&c, &again);
        ck_assert_msg(d == NULL, "'%s' differs after writing with origins", d);
        idng_conf_free(&again);
    }
    free(out);
    idng_conf_free(&c);
    /* Without IDNG_CONF_F_ORIGINS the entries' lines are not kept (the
     * keys' are). */
    idng_conf_init(&c);
    ck_assert_msg(idng_conf_load(&c, main_path, err, sizeof err) == 0, "%s", err);
    ck_assert_ptr_null(c.origin.allow);
    ck_assert_ptr_null(c.origin.protect);
    snprintf(want, sizeof want, "%s:3", local);
    ck_assert_str_eq(key_at(&c, "on-invalid"), want);
    idng_conf_free(&c);
    remove_tmpdir();
}
END_TEST

/* The same key twice in one file is still a slip, in an included file as in
 * the first; so is a name listed twice, in whichever files; errors name the
 * included file and its line. */
START_TEST(test_include_errors_named)
{
    char main_path[512], local[512], want[2048], err[ERR_MAX], text[1024];
    struct idng_conf c;

    make_tmpdir();
    shipped(main_path);
    put("local-1.conf", "idnguard:\n    ede: no\n    mode: punycode\n    ede: yes\n", local);
    snprintf(want, sizeof want, "%s:4: duplicate 'ede' (first at line 2)", local);
    expect_load_error(main_path, want);
    put("local-1.conf", "idnguard:\n    allow: shipped.example\n", local);
    snprintf(want, sizeof want,
             "%s:2: duplicate allow name 'shipped.example.' (first at %s:5)", local, main_path);
    expect_load_error(main_path, want);
    put("local-1.conf", "idnguard:\n\n    deny: shipped.example\n", local);
    snprintf(want, sizeof want,
             "%s:3: 'shipped.example.' is in both 'allow' (%s:5) and 'deny'; a name can be in "
             "one list only",
             local, main_path);
    expect_load_error(main_path, want);
    put("local-1.conf", "idnguard:\n    on-invalid: maybe\n", local);
    snprintf(want, sizeof want, "%s:2: bad value 'maybe' for 'on-invalid' (expected *", local);
    expect_load_error(main_path, want);
    /* An included file is a settings file of its own: its clause line
     * first. */
    put("local-1.conf", "ede: no\n", local);
    snprintf(want, sizeof want, "%s:1: 'ede' comes before the 'idnguard:' clause", local);
    expect_load_error(main_path, want);
    put("local-1.conf", "# nothing yet\n", local);
    snprintf(want, sizeof want, "%s:1: no 'idnguard:' clause*", local);
    expect_load_error(main_path, want);
    /* The main file's own repeat is still an error, include or not. */
    put("local-1.conf", "idnguard:\n", local);
    put("idnguard.conf", "idnguard:\n    mode: uts46\n    mode: punycode\n", main_path);
    snprintf(want, sizeof want, "%s:3: duplicate 'mode' (first at line 2)", main_path);
    expect_load_error(main_path, want);
    /* The files the settings write stay distinct across files: reported at
     * the key read later, naming where the other was set. */
    snprintf(text, sizeof text,
             "idnguard:\n    stats-file: \"%s/s.prom\"\n    include: %s/local-1.conf\n", tmpdir,
             tmpdir);
    put("idnguard.conf", text, main_path);
    snprintf(text, sizeof text, "idnguard:\n    ede: no\n    tap-stats-file: \"%s/s.prom\"\n",
             tmpdir);
    put("local-1.conf", text, local);
    snprintf(want, sizeof want,
             "%s:3: tap-stats-file '%s/s.prom' is the file of stats-file (%s:2): each needs a "
             "file of its own*",
             local, tmpdir, main_path);
    expect_load_error(main_path, want);
    /* A later file that sets the same key again replaces it: no clash. */
    snprintf(text, sizeof text, "idnguard:\n    stats-file: \"%s/t.prom\"\n", tmpdir);
    put("local-1.conf", text, local);
    idng_conf_init(&c);
    ck_assert_msg(idng_conf_load(&c, main_path, err, sizeof err) == 0, "%s", err);
    ck_assert(strstr(c.stats_file, "/t.prom") != NULL);
    idng_conf_free(&c);
    /* Nothing is applied after an error in any file. */
    shipped(main_path);
    put("local-1.conf", "idnguard:\n    on-invalid: log\n    stats-interval: 1h\n", local);
    idng_conf_init(&c);
    ck_assert_int_eq(idng_conf_load(&c, main_path, err, sizeof err), -1);
    ck_assert_int_eq(c.policy.on_invalid, IDNG_ACT_REFUSE);
    idng_conf_free(&c);
    remove_tmpdir();
}
END_TEST

/* A plain path must exist; a pattern that matches nothing is no error, nor
 * is one whose directory is missing; a pattern's files are read in byte
 * order of their names, so the last one's setting wins. */
START_TEST(test_include_paths)
{
    char main_path[512], p[512], text[1024], want[2048], err[ERR_MAX];
    struct idng_conf c;

    make_tmpdir();
    /* No local file yet: the shipped settings alone. */
    shipped(main_path);
    ck_assert_msg(load_origins(&c, main_path, err) == 0, "%s", err);
    ck_assert_uint_eq(c.origin.nfiles, 1);
    idng_conf_free(&c);
    snprintf(text, sizeof text, "idnguard:\n    include: %s/no-such-dir/*.conf\n", tmpdir);
    ck_assert_msg(load_origins(&c, put("m.conf", text, main_path), err) == 0, "%s", err);
    idng_conf_free(&c);
    /* A plain path that is missing is an error. */
    snprintf(text, sizeof text, "idnguard:\n    include: %s/missing.conf\n", tmpdir);
    put("m.conf", text, main_path);
    snprintf(want, sizeof want, "%s:2: include '%s/missing.conf': cannot open: %s", main_path,
             tmpdir, strerror(ENOENT));
    expect_load_error(main_path, want);
    /* Many: byte order (10 < 9 < a), whatever the order they were made in. */
    put("local-9.conf", "idnguard:\n    stats-interval: 9\n    allow: nine.example\n", p);
    put("local-a.conf", "idnguard:\n    stats-interval: 10\n    allow: a.example\n", p);
    put("local-10.conf", "idnguard:\n    stats-interval: 1\n    allow: ten.example\n", p);
    shipped(main_path);
    ck_assert_msg(load_origins(&c, main_path, err) == 0, "%s", err);
    ck_assert_uint_eq(c.stats_interval, 10);
    ck_assert_uint_eq(c.policy.allow.count, 4);
    ck_assert_str_eq((const char *)c.policy.allow.names[1], "\003ten\007example");
    ck_assert_str_eq((const char *)c.policy.allow.names[2], "\004nine\007example");
    ck_assert_str_eq((const char *)c.policy.allow.names[3], "\001a\007example");
    ck_assert_uint_eq(c.origin.nfiles, 4);
    snprintf(want, sizeof want, "%s/local-a.conf:2", tmpdir);
    ck_assert_str_eq(key_at(&c, "stats-interval"), want);
    idng_conf_free(&c);
    /* Relative paths depend on the daemon's directory: refused. */
    put("m.conf", "idnguard:\n    include: local-9.conf\n", main_path);
    snprintf(want, sizeof want, "%s:2: include 'local-9.conf' is not an absolute path*",
             main_path);
    expect_load_error(main_path, want);
    put("m.conf", "idnguard:\n    include:\n", main_path);
    snprintf(want, sizeof want, "%s:2: empty value for 'include'*", main_path);
    expect_load_error(main_path, want);
    /* An include may stand before the clause line, as in unbound.conf. */
    snprintf(text, sizeof text, "include: %s/local-9.conf\nidnguard:\n    stats-interval: 3\n",
             tmpdir);
    ck_assert_msg(load_origins(&c, put("m.conf", text, main_path), err) == 0, "%s", err);
    ck_assert_uint_eq(c.stats_interval, 3);
    ck_assert_uint_eq(c.policy.allow.count, 1);
    idng_conf_free(&c);
    remove_tmpdir();
}
END_TEST

/* Checks the i-th thing a load noted for the watch: its path (rel below
 * tmpdir, "" for tmpdir itself) and whether it was there (err). */
static void expect_source(const struct idng_conf_sources *s, size_t i, const char *rel, int err)
{
    char want[600];

    snprintf(want, sizeof want, "%s%s%s", tmpdir, rel[0] ? "/" : "", rel);
    ck_assert_msg(i < s->n, "%zu sources, none at %zu (%s)", s->n, i, want);
    ck_assert_str_eq(s->v[i].path, want);
    ck_assert_int_eq(s->v[i].sig.err, err);
}

/* What a load read, for the watch (idng_conf_sources): the settings file,
 * each included file by its real name (origin.files escapes it for
 * display), each pattern's directories (one missing noted as missing, a
 * pattern in a directory part by the directory above it and those it
 * matches), the protect-file; each once.  A failed load says what it
 * read up to the failure, its settings file too when it cannot be opened. */
START_TEST(test_include_sources)
{
    char main_path[512], p[512], d1[600], text[2048], err[ERR_MAX];
    struct idng_conf c;
    struct idng_conf_sources tried = {0};

    make_tmpdir();
    snprintf(d1, sizeof d1, "%s/d1", tmpdir);
    ck_assert_int_eq(mkdir(d1, 0700), 0);
    put("d1/x.conf", "idnguard:\n    allow: x.example\n", p);
    put("local-\xe2\x80\x8b.conf", "idnguard:\n    allow: zw.example\n", p);
    put("names.txt", "paypal.example\n", p);
    snprintf(text, sizeof text,
             "idnguard:\n    include: \"%s/local-\xe2\x80\x8b.conf\"\n"
             "    include: \"%s/none.d/*.conf\"\n    include: \"%s/d*/x.conf\"\n"
             "    include: \"%s/none.d/*.conf\"\n    protect-file: \"%s/names.txt\"\n",
             tmpdir, tmpdir, tmpdir, tmpdir, tmpdir);
    put("m.conf", text, main_path);
    ck_assert_msg(load_origins(&c, main_path, err) == 0, "%s", err);
    ck_assert_uint_eq(c.sources.n, 7);
    expect_source(&c.sources, 0, "m.conf", 0);
    expect_source(&c.sources, 1, "local-\xe2\x80\x8b.conf", 0);
    ck_assert_msg(strstr(c.origin.files[1], "\\u{200B}") != NULL, "shown as %s",
                  c.origin.files[1]);
    expect_source(&c.sources, 2, "none.d", ENOENT);
    expect_source(&c.sources, 3, "", 0);
    expect_source(&c.sources, 4, "d1", 0);
    expect_source(&c.sources, 5, "d1/x.conf", 0);
    expect_source(&c.sources, 6, "names.txt", 0);
    idng_conf_free(&c);
    ck_assert_uint_eq(c.sources.n, 0);
    /* Failed: what was read up to the failure; c untouched. */
    snprintf(text, sizeof text,
             "idnguard:\n    include: \"%s/d1/x.conf\"\n    include: \"%s/missing.conf\"\n",
             tmpdir, tmpdir);
    put("m.conf", text, main_path);
    idng_conf_init(&c);
    ck_assert_int_eq(idng_conf_load_sources(&c, main_path, 0, &tried, err, ERR_MAX), -1);
    ck_assert_uint_eq(c.sources.n, 0);
    ck_assert_uint_eq(tried.n, 3);
    expect_source(&tried, 0, "m.conf", 0);
    expect_source(&tried, 1, "d1/x.conf", 0);
    expect_source(&tried, 2, "missing.conf", ENOENT);
    /* A settings file that cannot be opened: itself. */
    snprintf(p, sizeof p, "%s/gone.conf", tmpdir);
    ck_assert_int_eq(idng_conf_load_sources(&c, p, 0, &tried, err, ERR_MAX), -1);
    ck_assert_uint_eq(tried.n, 1);
    expect_source(&tried, 0, "gone.conf", ENOENT);
    idng_conf_sources_free(&tried);
    /* Loaded: tried left empty. */
    ck_assert_int_eq(idng_conf_load_sources(&c, main_path, 0, &tried, err, ERR_MAX), -1);
    put("missing.conf", "idnguard:\n", p);
    ck_assert_msg(idng_conf_load_sources(&c, main_path, 0, &tried, err, ERR_MAX) == 0, "%s", err);
    ck_assert_uint_eq(tried.n, 0);
    ck_assert_uint_eq(c.sources.n, 3);
    idng_conf_free(&c);
    remove_tmpdir();
}
END_TEST

/* A FIFO or a directory, named or matched, is refused without waiting for
 * a writer (as the settings file itself is). */
START_TEST(test_include_not_regular)
{
    char main_path[512], p[512], text[1024], want[2048];

    make_tmpdir();
    snprintf(p, sizeof p, "%s/fifo.conf", tmpdir);
    ck_assert(mkfifo(p, 0600) == 0);
    snprintf(text, sizeof text, "idnguard:\n    include: %s\n", p);
    put("m.conf", text, main_path);
    snprintf(want, sizeof want, "%s:2: include '%s': is not a regular file", main_path, p);
    expect_load_error(main_path, want);
    snprintf(text, sizeof text, "idnguard:\n    include: %s/f*.conf\n", tmpdir);
    put("m.conf", text, main_path);
    expect_load_error(main_path, want);
    ck_assert(unlink(p) == 0);
    snprintf(p, sizeof p, "%s/dir.conf", tmpdir);
    ck_assert(mkdir(p, 0700) == 0);
    snprintf(text, sizeof text, "idnguard:\n    include: %s/d*.conf\n", tmpdir);
    put("m.conf", text, main_path);
    snprintf(want, sizeof want, "%s:2: include '%s': is a directory, not a settings file",
             main_path, p);
    expect_load_error(main_path, want);
    remove_tmpdir();
}
END_TEST

/* A file that includes itself, through others or not, a file included
 * twice, and includes nested deeper than IDNG_CONF_INCLUDE_DEPTH: errors,
 * each at the include line. */
START_TEST(test_include_cycles_depth)
{
    char a[512], b[512], m[512], text[1024], want[2048], err[ERR_MAX], name[64];
    struct idng_conf c;
    int i;

    make_tmpdir();
    snprintf(text, sizeof text, "idnguard:\n    include: %s/b.conf\n", tmpdir);
    put("a.conf", text, a);
    snprintf(text, sizeof text, "idnguard:\n    ede: no\n    include: %s/a.conf\n", tmpdir);
    put("b.conf", text, b);
    snprintf(want, sizeof want, "%s:3: include '%s': it is being read already (an include cycle)",
             b, a);
    expect_load_error(a, want);
    snprintf(text, sizeof text, "idnguard:\n    include: %s/m.conf\n", tmpdir);
    put("m.conf", text, m);
    snprintf(want, sizeof want, "%s:2: include '%s': it is being read already (an include cycle)",
             m, m);
    expect_load_error(m, want);
    /* Twice, not in a cycle: read once is the rule. */
    put("b.conf", "idnguard:\n", b);
    snprintf(text, sizeof text, "idnguard:\n    include: %s/b.conf\n    include: %s/b*.conf\n",
             tmpdir, tmpdir);
    put("m.conf", text, m);
    snprintf(want, sizeof want, "%s:3: include '%s': included already (at line 2); a file is "
                                "read once",
             m, b);
    expect_load_error(m, want);
    /* A chain: m -> c1 -> ... -> cN.  Each file includes the next. */
    for (i = 1; i <= IDNG_CONF_INCLUDE_DEPTH + 1; i++) {
        snprintf(name, sizeof name, "c%d.conf", i);
        if (i <= IDNG_CONF_INCLUDE_DEPTH)
            snprintf(text, sizeof text, "idnguard:\n    include: %s/c%d.conf\n", tmpdir, i + 1);
        else
            snprintf(text, sizeof text, "idnguard:\n    ede: no\n");
        put(name, text, a);
    }
    /* IDNG_CONF_INCLUDE_DEPTH nested includes are fine: m includes c2. */
    snprintf(text, sizeof text, "idnguard:\n    include: %s/c2.conf\n", tmpdir);
    ck_assert_msg(load_origins(&c, put("m.conf", text, m), err) == 0, "%s", err);
    ck_assert_int_eq(c.ede, 0);
    idng_conf_free(&c);
    /* One more is not: m includes c1. */
    snprintf(text, sizeof text, "idnguard:\n    include: %s/c1.conf\n", tmpdir);
    put("m.conf", text, m);
    snprintf(want, sizeof want, "%s/c%d.conf:2: include '%s/c%d.conf': includes nest deeper than %d",
             tmpdir, IDNG_CONF_INCLUDE_DEPTH, tmpdir, IDNG_CONF_INCLUDE_DEPTH + 1,
             IDNG_CONF_INCLUDE_DEPTH);
    expect_load_error(m, want);
    remove_tmpdir();
}
END_TEST

/* IDNG_CONF_FILE_MAX bounds the settings files together; the protect-file
 * keeps its own bound, and the last protect-file line is the one read. */
START_TEST(test_include_size_protect_file)
{
    char m[512], p[512], names1[512], names2[512], text[2048], want[2048], err[ERR_MAX];
    struct idng_conf c;
    char *big;
    size_t half = IDNG_CONF_FILE_MAX / 2 + 1;

    make_tmpdir();
    big = malloc(half);
    ck_assert(big != NULL);
    memset(big, '\n', half);
    memcpy(big, "idnguard:", 9);
    snprintf(p, sizeof p, "%s/big-1.conf", tmpdir);
    spew(p, big, half);
    snprintf(p, sizeof p, "%s/big-2.conf", tmpdir);
    spew(p, big, half);
    free(big);
    snprintf(text, sizeof text, "idnguard:\n    include: %s/big-1.conf\n", tmpdir);
    ck_assert_msg(load_origins(&c, put("m.conf", text, m), err) == 0, "%s", err);
    idng_conf_free(&c);
    snprintf(text, sizeof text, "idnguard:\n    include: %s/big-*.conf\n", tmpdir);
    put("m.conf", text, m);
    snprintf(want, sizeof want,
             "%s:2: include '%s': too big; the settings files together may hold %d octets", m, p,
             IDNG_CONF_FILE_MAX);
    expect_load_error(m, want);

    /* protect-file in the shipped file, another in the local one: the
     * local one's names only, with their lines in it. */
    put("names1.txt", "paypal.com\n", names1);
    put("names2.txt", "# ours\nexample.org\n", names2);
    snprintf(text, sizeof text,
             "idnguard:\n    protect: bank.example\n    protect-file: %s\n"
             "    include: %s/local.conf\n",
             names1, tmpdir);
    put("m.conf", text, m);
    snprintf(text, sizeof text, "idnguard:\n    protect-file: %s\n", names2);
    put("local.conf", text, p);
    ck_assert_msg(load_origins(&c, m, err) == 0, "%s", err);
    ck_assert_uint_eq(c.policy.protect.names.count, 2);
    ck_assert_str_eq((const char *)c.policy.protect.names.names[1], "\007example\003org");
    ck_assert_str_eq(c.origin.files[c.origin.protect[1].file], names2);
    ck_assert_uint_eq(c.origin.protect[1].line, 2);
    ck_assert_uint_eq(c.origin.protect[0].line, 2);
    snprintf(want, sizeof want, "%s:2", p);
    ck_assert_str_eq(key_at(&c, "protect-file"), want);
    idng_conf_free(&c);
    /* Its errors are reported at the line that named it. */
    put("names2.txt", "xn--zz.example\n", names2);
    snprintf(want, sizeof want, "%s:2: %s:1: bad name 'xn--zz.example' for 'protect-file'*", p,
             names2);
    expect_load_error(m, want);
    remove_tmpdir();
}
END_TEST

/* ------------------------------------------------------------------------ */
/* on-idn, idn-scripts, idn-suffixes                                         */

#define IDN_SCRIPTS_EXPECTED                                                                       \
    "expected SCRIPT[,SCRIPT...], a script one of latin cyrillic greek armenian georgian hebrew "  \
    "arabic thai cjk ethiopic myanmar bengali devanagari gujarati gurmukhi kannada malayalam "    \
    "oriya tamil telugu, or common for labels of no script"

START_TEST(test_idn_settings)
{
    struct idng_conf c;
    char err[ERR_MAX], *out;

    /* The defaults: the switch off, nothing exempt, every key shown. */
    out = parse_written(&c, "idnguard:\n");
    ck_assert_msg(strstr(out, "\n    on-idn: pass\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "\n    # idn-scripts: (none)\n    # idn-suffixes: (none)\n") != NULL,
                  "%s", out);
    free(out);
    idng_conf_free(&c);
    ck_assert_str_eq(judged("idnguard:\n", "xn--80aafi6cg.example."), "ok/pass");

    /* Scripts add up over lines and are written in the list's order,
     * common last; names in Unicode or A-labels, any case, are written
     * in A-labels with the final dot. */
    out = parse_written(&c, "idnguard:\n    on-idn: refuse\n    idn-scripts: cyrillic,latin\n"
                            "    idn-scripts: common\n    idn-suffixes: рф\n"
                            "    idn-suffixes: Example.RU.\n");
    ck_assert_msg(strstr(out, "\n    on-idn: refuse\n") != NULL, "%s", out);
    ck_assert_int_eq(c.policy.action[IDNG_C_IDN], IDNG_ACT_REFUSE);
    ck_assert_uint_eq(c.policy.idn_scripts,
                      IDNG_SCRIPT_LATIN | IDNG_SCRIPT_CYRILLIC | IDNG_SCRIPT_COMMON);
    ck_assert_uint_eq(c.policy.idn_suffixes.count, 2);
    ck_assert_mem_eq(c.policy.idn_suffixes.names[0], "\010xn--p1ai", 10);
    ck_assert_msg(strstr(out, "\n    idn-scripts: latin,cyrillic,common\n"
                              "    idn-suffixes: xn--p1ai.\n"
                              "    idn-suffixes: example.ru.\n")
                      != NULL,
                  "%s", out);
    free(out);
    idng_conf_free(&c);

    /* What each reaches: Greek is refused unless listed; under an exempt
     * suffix anything goes. */
    ck_assert_str_eq(judged("idnguard:\n    on-idn: refuse\n    idn-scripts: latin\n",
                            "xn--hxakic4aa.example."),
                     "idn/refuse");
    ck_assert_str_eq(judged("idnguard:\n    on-idn: refuse\n    idn-scripts: latin,greek\n",
                            "xn--hxakic4aa.example."),
                     "ok/pass");
    ck_assert_str_eq(judged("idnguard:\n    on-idn: drop\n    idn-suffixes: example.ru\n",
                            "xn--hxakic4aa.www.example.ru."),
                     "ok/pass");
    ck_assert_str_eq(judged("idnguard:\n    on-idn: drop\n    idn-suffixes: example.ru\n",
                            "xn--hxakic4aa.www.example.su."),
                     "idn/drop");

    /* Bad values name the file, the line, the key and what is expected. */
    expect_parse_error("idnguard:\n    on-idn: refuse\n    idn-scripts: latin,klingon\n",
                       "t.conf:3: bad script 'klingon' for 'idn-scripts': " IDN_SCRIPTS_EXPECTED);
    expect_parse_error("idnguard:\n    idn-scripts: Latin\n",
                       "t.conf:2: bad script 'Latin' for 'idn-scripts': " IDN_SCRIPTS_EXPECTED);
    expect_parse_error("idnguard:\n    idn-scripts: latin,,greek\n",
                       "t.conf:2: bad script '' for 'idn-scripts': " IDN_SCRIPTS_EXPECTED);
    expect_parse_error("idnguard:\n    idn-scripts: none\n",
                       "t.conf:2: bad script 'none' for 'idn-scripts': " IDN_SCRIPTS_EXPECTED);
    expect_parse_error("idnguard:\n    idn-suffixes: a..b\n",
                       "t.conf:2: bad name 'a..b' for 'idn-suffixes': empty label [empty-label]");
    expect_parse_error("idnguard:\n    idn-suffixes: рф\n    idn-suffixes: XN--P1AI\n",
                       "t.conf:3: duplicate idn-suffixes name 'xn--p1ai.' (first at line 2)");
    expect_parse_error("idnguard:\n    on-idn: normalize\n",
                       "t.conf:2: 'normalize' is allowed only for 'on-raw-8bit', not for "
                       "'on-idn' (expected pass, log, refuse, nxdomain or drop)");
    /* A name may be in allow and in idn-suffixes: they do not contradict. */
    idng_conf_init(&c);
    ck_assert_msg(parse_str(&c, "idnguard:\n    allow: example.ru\n    idn-suffixes: example.ru\n",
                            err) == 0,
                  "%s", err);
    idng_conf_free(&c);

    /* Exemptions while the switch is off do nothing: said, not refused. */
    idng_conf_init(&c);
    ck_assert_int_eq(parse_str(&c, "idnguard:\n    idn-suffixes: example.ru\n"
                                   "    idn-scripts: latin\n", err), 0);
    ck_assert_str_eq(err, "t.conf:2: warning: idn-scripts and idn-suffixes exempt nothing while "
                          "on-idn is pass");
    idng_conf_free(&c);
    ck_assert_int_eq(parse_str(&c, "idnguard:\n    on-idn: log\n    idn-scripts: latin\n", err), 0);
    ck_assert_str_eq(err, "");
    idng_conf_free(&c);
    /* The root as a suffix turns the switch off: said, not refused. */
    ck_assert_int_eq(parse_str(&c, "idnguard:\n    on-idn: refuse\n    idn-suffixes: .\n", err), 0);
    ck_assert_str_eq(err, "t.conf:3: warning: idn-suffixes '.' exempts every name: on-idn refuses "
                          "and logs nothing");
    idng_conf_free(&c);
}
END_TEST

START_TEST(test_path)
{
    ck_assert_int_eq(unsetenv(IDNG_CONF_ENV), 0);
    ck_assert_str_eq(idng_conf_path(), IDNG_CONF_DEFAULT_PATH);
    ck_assert_str_eq(idng_conf_path(), "/etc/unbound/idnguard.conf");
    ck_assert_int_eq(setenv(IDNG_CONF_ENV, "", 1), 0);
    ck_assert_str_eq(idng_conf_path(), IDNG_CONF_DEFAULT_PATH);
    ck_assert_int_eq(setenv(IDNG_CONF_ENV, "/srv/idng.conf", 1), 0);
    ck_assert_str_eq(idng_conf_path(), "/srv/idng.conf");
}
END_TEST


/* Two names of one file are one file: a link to the module's stats file, a
 * protect-file that is the query log.  The settings refuse them, naming
 * both keys; distinct files load. */
START_TEST(test_distinct_files)
{
    char dir[] = "/tmp/idng-conf-files-XXXXXX", a[256], b[256], buf[1024], err[ERR_MAX];
    struct idng_conf c;

    ck_assert(mkdtemp(dir) != NULL);
    snprintf(a, sizeof a, "%s/idnguard.prom", dir);
    snprintf(b, sizeof b, "%s/link.prom", dir);
    spew_str(a, "");
    ck_assert_int_eq(symlink(a, b), 0);
    ck_assert(idng_conf_same_file(a, a));
    ck_assert(idng_conf_same_file(a, b));
    ck_assert(!idng_conf_same_file(a, dir));
    ck_assert(!idng_conf_same_file(a, NULL));
    ck_assert(!idng_conf_same_file(NULL, NULL));

    idng_conf_init(&c);
    snprintf(buf, sizeof buf, "idnguard:\n    tap-stats-file: \"%s\"\n    stats-file: \"%s\"\n", b,
             a);
    ck_assert_int_eq(idng_conf_parse(&c, buf, strlen(buf), "t.conf", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "t.conf:3: stats-file") && strstr(err, "tap-stats-file (line 2)"),
                  "%s", err);
    /* A protect-file that is the query log (the log would replace the names). */
    snprintf(buf, sizeof buf, "idnguard:\n    protect-file: \"%s\"\n    log-file: \"%s\"\n", a,
             b);
    ck_assert_int_eq(idng_conf_parse(&c, buf, strlen(buf), "t.conf", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "t.conf:3: log-file") && strstr(err, "over the protected names"),
                  "%s", err);
    /* Distinct files: loaded, and the tap's file written back. */
    snprintf(buf, sizeof buf, "idnguard:\n    stats-file: \"%s\"\n    tap-stats-file: \"%s/t\"\n",
             a, dir);
    ck_assert_msg(idng_conf_parse(&c, buf, strlen(buf), "t.conf", err, sizeof err) == 0, "%s",
                  err);
    ck_assert_str_eq(c.stats_file, a);
    ck_assert(c.tap_stats_file != NULL && strstr(c.tap_stats_file, "/t") != NULL);
    idng_conf_free(&c);
    unlink(b);
    unlink(a);
    rmdir(dir);
}
END_TEST

/* ------------------------------------------------------------------------ */

static Suite *conf_suite(void)
{
    Suite *s = suite_create("conf");
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

    tc = tcase_create("parser");
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_untouched_on_error);
    tcase_add_test(tc, test_error_buffer);
    tcase_add_test(tc, test_line_numbers_crlf);
    tcase_add_test(tc, test_write_refuses_unwritable);
    tcase_add_loop_test(tc, test_mutations, 0, 8);
    suite_add_tcase(s, tc);

    tc = tcase_create("names");
    tcase_add_test(tc, test_listed_longest);
    tcase_add_loop_test(tc, test_listed, 0, N_OF(listed_cases));
    tcase_add_test(tc, test_listed_malformed);
    suite_add_tcase(s, tc);

    tc = tcase_create("load");
    tcase_add_test(tc, test_load);
    tcase_add_loop_test(tc, test_load_garbage, 0, 8);
    tcase_add_test(tc, test_path);
    tcase_add_test(tc, test_protect);
    tcase_add_loop_test(tc, test_protect_switches, 0, N_OF(switch_cases));
    tcase_add_test(tc, test_protect_switch_errors);
    tcase_add_test(tc, test_tld_scripts);
    tcase_add_test(tc, test_distinct_files);
    tcase_add_test(tc, test_include_overrides);
    tcase_add_test(tc, test_include_errors_named);
    tcase_add_test(tc, test_include_paths);
    tcase_add_test(tc, test_include_sources);
    tcase_add_test(tc, test_include_not_regular);
    tcase_add_test(tc, test_include_cycles_depth);
    tcase_add_test(tc, test_include_size_protect_file);
    tcase_add_test(tc, test_idn_settings);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(conf_suite)
