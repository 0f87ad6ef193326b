/**
 * \file
 * Tests of idng_conf_diff (conf/conf_schema.c): the one-line summary of what
 * a settings reload changed.  Every key of the schema changed on its own
 * is named, and nothing else is; identical settings say "no change"; the
 * lists count names added and removed; the line is cut only between whole
 * items, at every capacity.
 */
#include "common.h"
#include "idng_conf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define ERR_MAX 1024
#define OUT_MAX 8192

static void parse_or_fail(struct idng_conf *c, const char *text)
{
    char err[ERR_MAX];

    idng_conf_init(c);
    ck_assert_msg(idng_conf_parse(c, text, strlen(text), "t.conf", err, sizeof err) == 0,
                  "does not parse: %s\n%s", err, text);
}

/* The summary of old -> now, both given as file text; the length returned
 * must be the line's. */
static void diff_text(const char *old_text, const char *new_text, char *out)
{
    struct idng_conf a, b;
    size_t n;

    parse_or_fail(&a, old_text);
    parse_or_fail(&b, new_text);
    n = idng_conf_diff(&a, &b, out, OUT_MAX);
    ck_assert_msg(n < OUT_MAX && n == strlen(out), "returned %zu for \"%s\"", n, out);
    idng_conf_free(&a);
    idng_conf_free(&b);
}

/* A protect-file in a directory made for the suite, holding names. */
static char pdir[512], pfile[600];

/* ------------------------------------------------------------------------ */
/* One key at a time                                                         */

/* Each key of the schema but the on-<class> ones (their own loop below),
 * set to something other than its default; want: the whole summary. */
static const struct {
    const char *key;
    const char *line;
    const char *want;
} one_key[] = {
    {"mode", "mode: idna2008-lookup", "mode uts46 -> idna2008-lookup"},
    {"log-queries", "log-queries: no", "log-queries yes -> no"},
    {"log-rejected", "log-rejected: no", "log-rejected yes -> no"},
    {"log-format", "log-format: json", "log-format text -> json"},
    {"log-file", "log-file: /var/log/idnguard.log", "log-file \"\" -> \"/var/log/idnguard.log\""},
    {"anonymize-clients", "anonymize-clients: yes", "anonymize-clients no -> yes"},
    {"ede", "ede: no", "ede yes -> no"},
    {"allow", "allow: example.net", "allow +1 (now 1)"},
    {"deny", "deny: bad.example", "deny +1 (now 1)"},
    {"stats-interval", "stats-interval: 60", "stats-interval 3600 -> 60"},
    {"stats-file", "stats-file: /var/lib/idnguard.prom",
     "stats-file \"\" -> \"/var/lib/idnguard.prom\""},
    {"tap-stats-file", "tap-stats-file: /var/lib/idnguard-tap.prom",
     "tap-stats-file \"\" -> \"/var/lib/idnguard-tap.prom\""},
    {"restriction-level", "restriction-level: moderately-restrictive",
     "restriction-level highly-restrictive -> moderately-restrictive"},
    {"protect", "protect: paypal.example", "protect +1 (now 1)"},
    {"protect-file", NULL, NULL}, /* a file of its own: test_protect_file */
    {"allow-file", NULL, NULL},   /* files of their own: test_list_file */
    {"deny-file", NULL, NULL},
    {"protect-suffixes", "protect-suffixes: any", "protect-suffixes listed -> any"},
    {"protect-embedded", "protect-embedded: yes", "protect-embedded no -> yes"},
    {"tld-scripts", "tld-scripts: com latin,cyrillic", "tld-scripts +1 (now 1)"},
    {"idn-scripts", "idn-scripts: latin,cyrillic", "idn-scripts (none) -> latin,cyrillic"},
    {"idn-suffixes", "idn-suffixes: xn--p1ai", "idn-suffixes +1 (now 1)"},
    {"watch-settings", "watch-settings: no", "watch-settings yes -> no"},
};

START_TEST(test_one_key)
{
    char text[512], out[OUT_MAX];

    if (!one_key[_i].line)
        return;
    snprintf(text, sizeof text, "idnguard:\n    %s\n", one_key[_i].line);
    diff_text("idnguard:\n", text, out);
    ck_assert_msg(strcmp(out, one_key[_i].want) == 0, "%s: \"%s\", want \"%s\"", one_key[_i].key,
                  out, one_key[_i].want);
    /* And back. */
    diff_text(text, "idnguard:\n", out);
    ck_assert_msg(strncmp(out, one_key[_i].key, strlen(one_key[_i].key)) == 0
                      && out[strlen(one_key[_i].key)] == ' ' && !strchr(out, ';'),
                  "%s back: \"%s\"", one_key[_i].key, out);
}
END_TEST

/* Every on-<class> key that the file may hold. */
START_TEST(test_one_class)
{
    struct idng_conf def;
    const char *name = idng_class_name((idng_class)_i), *from, *to;
    char text[256], want[256], out[OUT_MAX], err[ERR_MAX];
    enum idng_action a;

    idng_conf_init(&def);
    a = def.policy.action[_i];
    to = a == IDNG_ACT_LOG ? "drop" : "log";
    snprintf(text, sizeof text, "idnguard:\n    on-%s: %s\n", name, to);
    idng_conf_free(&def);
    if (idng_conf_parse(&def, text, strlen(text), "t.conf", err, sizeof err) != 0)
        return; /* not a key: the class is no property of a name */
    idng_conf_free(&def);
    from = idng_action_name(a);
    diff_text("idnguard:\n", text, out);
    snprintf(want, sizeof want, "on-%s %s -> %s", name, from, to);
    ck_assert_msg(strcmp(out, want) == 0, "\"%s\", want \"%s\"", out, want);
}
END_TEST

/* on-invalid names itself first; the classes that follow it change too,
 * and are named after it (the effective settings changed). */
START_TEST(test_on_invalid)
{
    char out[OUT_MAX];

    diff_text("idnguard:\n", "idnguard:\n    on-invalid: nxdomain\n", out);
    ck_assert_msg(strncmp(out, "on-invalid refuse -> nxdomain; on-", 34) == 0, "%s", out);
    ck_assert_msg(strstr(out, "; on-bidi refuse -> nxdomain") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "on-mixed-script") == NULL, "%s", out); /* its own default */
}
END_TEST

/* The protect-file's path, and the names in it. */
START_TEST(test_protect_file)
{
    char a[1024], b[1024], out[OUT_MAX];

    t_spew_str(pfile, "paypal.example\nbank.example\n");
    snprintf(a, sizeof a, "idnguard:\n    protect-file: %s\n", pfile);
    diff_text("idnguard:\n", a, out);
    snprintf(b, sizeof b, "protect-file (none) -> \"%s\", names +2 (now 2)", pfile);
    ck_assert_str_eq(out, b);
    {
        struct idng_conf old, now;
        parse_or_fail(&old, a);
        t_spew_str(pfile, "paypal.example\nshop.example\nmail.example\n");
        parse_or_fail(&now, a);
        idng_conf_diff(&old, &now, out, sizeof out);
        ck_assert_str_eq(out, "protect-file names +2 -1 (now 3)");
        idng_conf_diff(&now, &now, out, sizeof out);
        ck_assert_str_eq(out, "no change");
        idng_conf_free(&old);
        idng_conf_free(&now);
    }
    /* A protect line is no name of the file's. */
    snprintf(b, sizeof b, "idnguard:\n    protect: bank.example\n    protect-file: %s\n", pfile);
    diff_text(a, b, out);
    ck_assert_str_eq(out, "protect +1 (now 1)");
    diff_text(b, "idnguard:\n", out);
    ck_assert_msg(strstr(out, "protect -1 (now 0); protect-file \"") == out
                      && strstr(out, "\" -> (none), names -3 (now 0)") != NULL,
                  "%s", out);
}
END_TEST

/* A deny-file: its line, and the names it adds, which count in deny's
 * own item; a changed file changes only that. */
START_TEST(test_list_file)
{
    char a[1024], b[1024], out[OUT_MAX];
    struct idng_conf old, now;

    t_spew_str(pfile, "bad.example\nworse.example\n");
    snprintf(a, sizeof a, "idnguard:\n    deny-file: %s\n", pfile);
    diff_text("idnguard:\n", a, out);
    ck_assert_str_eq(out, "deny +2 (now 2); deny-file +1 (now 1)");
    parse_or_fail(&old, a);
    t_spew_str(pfile, "bad.example\nnew.example\nother.example\n");
    parse_or_fail(&now, a);
    idng_conf_diff(&old, &now, out, sizeof out);
    ck_assert_str_eq(out, "deny +2 -1 (now 3)");
    idng_conf_free(&old);
    idng_conf_free(&now);
    /* The same names from a line and from the file: the list is the
     * same, the file line is new. */
    snprintf(b, sizeof b, "idnguard:\n    allow-file: %s\n", pfile);
    diff_text(a, b, out);
    ck_assert_str_eq(out, "allow +3 (now 3); deny -3 (now 0); allow-file +1 (now 1); deny-file -1 "
                          "(now 0)");
}
END_TEST

/* Every key idng_conf_write shows has a case above. */
START_TEST(test_every_key_covered)
{
    struct idng_conf c;
    char *text = NULL, *line;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int i, found;

    ck_assert(f != NULL);
    idng_conf_init(&c);
    ck_assert_int_eq(idng_conf_write(&c, f), 0);
    ck_assert(fclose(f) == 0);
    for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char key[64];
        if (sscanf(line, " # %63[a-z0-9-]:", key) != 1 && sscanf(line, " %63[a-z0-9-]:", key) != 1)
            continue;
        if (strcmp(key, "idnguard") == 0 || strncmp(key, "on-", 3) == 0)
            continue; /* the clause; the on-<class> keys: test_one_class */
        for (i = found = 0; i < N_OF(one_key) && !found; i++)
            found = strcmp(one_key[i].key, key) == 0;
        ck_assert_msg(found, "no diff case for the key '%s'", key);
    }
    free(text);
    idng_conf_free(&c);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Lists, sameness, several keys                                             */

START_TEST(test_no_change)
{
    static const char *const texts[] = {
        "idnguard:\n",
        "idnguard:\n    mode: punycode\n    deny: a.example\n    deny: b.example\n"
        "    tld-scripts: com latin\n    protect: paypal.example\n    log-file: /tmp/q.log\n",
    };
    char out[OUT_MAX];
    int i;

    for (i = 0; i < N_OF(texts); i++) {
        diff_text(texts[i], texts[i], out);
        ck_assert_str_eq(out, "no change");
    }
    /* The same names in another order are the same list. */
    diff_text("idnguard:\n    deny: a.example\n    deny: b.example\n",
              "idnguard:\n    deny: B.example.\n    deny: a.example\n", out);
    ck_assert_str_eq(out, "no change");
}
END_TEST

START_TEST(test_list_counts)
{
    char out[OUT_MAX];

    diff_text("idnguard:\n    deny: a.example\n    deny: b.example\n    deny: c.example\n",
              "idnguard:\n    deny: b.example\n    deny: c.example\n    deny: d.example\n"
              "    deny: e.example\n",
              out);
    ck_assert_str_eq(out, "deny +2 -1 (now 4)");
    diff_text("idnguard:\n    allow: a.example\n    allow: b.example\n", "idnguard:\n", out);
    ck_assert_str_eq(out, "allow -2 (now 0)");
    /* A name moved from one list to the other. */
    diff_text("idnguard:\n    allow: a.example\n", "idnguard:\n    deny: a.example\n", out);
    ck_assert_str_eq(out, "allow -1 (now 0); deny +1 (now 1)");
    /* Other scripts for a TLD: one entry out, one in. */
    diff_text("idnguard:\n    tld-scripts: com latin\n    tld-scripts: ru cyrillic\n",
              "idnguard:\n    tld-scripts: com latin,greek\n    tld-scripts: ru cyrillic\n", out);
    ck_assert_str_eq(out, "tld-scripts +1 -1 (now 2)");
    diff_text("idnguard:\n    protect: paypal.example\n",
              "idnguard:\n    protect: paypal.example\n    protect: bank.example\n", out);
    ck_assert_str_eq(out, "protect +1 (now 2)");
}
END_TEST

/* Several keys: schema order, "; " between. */
START_TEST(test_several)
{
    char out[OUT_MAX];

    diff_text("idnguard:\n    deny: a.example\n",
              "idnguard:\n    log-file: /var/log/q.log\n    on-confusable: log\n"
              "    mode: idna2008\n    deny: b.example\n",
              out);
    ck_assert_str_eq(out, "mode uts46 -> idna2008; on-confusable refuse -> log; "
                          "log-file \"\" -> \"/var/log/q.log\"; deny +1 -1 (now 1)");
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Bounds                                                                    */

/* At every capacity the line is NUL-terminated inside it, the length of
 * the whole line is returned, and a line that does not fit is whole items
 * followed by "; ..." (or "..." alone), never part of one; a larger buffer
 * never holds fewer items. */
START_TEST(test_truncation)
{
    struct idng_conf a, b;
    char full[OUT_MAX], *out;
    size_t n, cap, last = 0;

    parse_or_fail(&a, "idnguard:\n    deny: a.example\n");
    parse_or_fail(&b, "idnguard:\n    log-file: \"/var/log/bücher.log\"\n    on-confusable: log\n"
                      "    mode: idna2008\n    deny: b.example\n    stats-interval: 5\n");
    n = idng_conf_diff(&a, &b, full, sizeof full);
    ck_assert_uint_eq(n, strlen(full));
    ck_assert_uint_eq(idng_conf_diff(&a, &b, NULL, 0), n);
    for (cap = 1; cap <= n + 2; cap++) {
        size_t got, ol;
        out = malloc(cap + 1);
        ck_assert(out != NULL);
        out[cap] = '#'; /* one past the capacity: never written */
        memset(out, 'x', cap);
        got = idng_conf_diff(&a, &b, out, cap);
        ck_assert_uint_eq(got, n);
        ck_assert_msg(out[cap] == '#', "wrote past %zu", cap);
        ol = strnlen(out, cap);
        ck_assert_msg(ol < cap, "not terminated at capacity %zu", cap);
        if (cap > n) {
            ck_assert_str_eq(out, full);
        } else if (ol == 0) {
            ck_assert_msg(cap < 4, "nothing at capacity %zu", cap);
        } else if (strcmp(out, "...") != 0) {
            ck_assert_msg(ol >= 5 && strcmp(out + ol - 5, "; ...") == 0, "capacity %zu: \"%s\"",
                          cap, out);
            ck_assert_msg(strncmp(out, full, ol - 3) == 0,
                          "capacity %zu: \"%s\" does not begin \"%s\"", cap, out, full);
        }
        ck_assert_msg(ol >= last || cap > n, "capacity %zu holds less than %zu", cap, cap - 1);
        if (cap <= n)
            last = ol;
        free(out);
    }
    idng_conf_free(&a);
    idng_conf_free(&b);
}
END_TEST

static void make_dir(void)
{
    t_tmpdir_make(pdir, sizeof pdir, "idng-diff");
    snprintf(pfile, sizeof pfile, "%s/protected.txt", pdir);
}

static void remove_dir(void)
{
    t_tmpdir_remove(pdir);
}

static Suite *diff_suite(void)
{
    Suite *s = suite_create("conf-diff");
    TCase *tc = tcase_create("diff");

    tcase_add_unchecked_fixture(tc, make_dir, remove_dir);
    tcase_add_loop_test(tc, test_one_key, 0, N_OF(one_key));
    tcase_add_loop_test(tc, test_one_class, 0, IDNG_CLASS_COUNT);
    tcase_add_test(tc, test_on_invalid);
    tcase_add_test(tc, test_protect_file);
    tcase_add_test(tc, test_list_file);
    tcase_add_test(tc, test_every_key_covered);
    tcase_add_test(tc, test_no_change);
    tcase_add_test(tc, test_list_counts);
    tcase_add_test(tc, test_several);
    tcase_add_test(tc, test_truncation);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(diff_suite)
