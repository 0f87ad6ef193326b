/**
 * \file
 * Tests of conf/conf.c, the keys the policy reads beside the
 * on-<class> actions: protect and protect-file (every bad line with its
 * file and line), allow-file and deny-file (their names the same as the
 * lines' names), protect-suffixes, protect-embedded, tld-scripts, and
 * on-idn with idn-scripts and idn-suffixes; each written back and judged.
 */
#include "conf_check.h"

/* A file of names under key (protect-file, allow-file, deny-file) that is
 * missing, or a directory: the settings line, the key, the path and why. */
static void expect_unreadable_names(const char *key)
{
    char conf[1024], err[ERR_MAX], want[1024];
    struct idng_conf c;

    idng_conf_init(&c);
    snprintf(conf, sizeof conf, "idnguard:\n    %s: %s/missing\n", key, tmpdir);
    ck_assert_int_eq(parse_str(&c, conf, err), -1);
    snprintf(want, sizeof want, "t.conf:2: %s '%s/missing': cannot open: %s", key, tmpdir,
             strerror(ENOENT));
    ck_assert_str_eq(err, want);
    snprintf(conf, sizeof conf, "idnguard:\n    %s: %s\n", key, tmpdir);
    ck_assert_int_eq(parse_str(&c, conf, err), -1);
    snprintf(want, sizeof want, "t.conf:2: %s '%s': is a directory, not a file of names", key,
             tmpdir);
    ck_assert_str_eq(err, want);
    idng_conf_free(&c);
}

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
    t_spew_str(path, "# our names\npaypal.com\n  example.org  # trailing comment\n\n"
                     "b\xc3\xbc"
                     "cher.example\r\n");
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
    t_spew_str(path, "paypal.com\nxn--zz.example\nexample\x01.org\npaypal.com\n");
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

    expect_unreadable_names("protect-file");
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

/* ------------------------------------------------------------------------ */
/* allow-file and deny-file                                                  */

/* "verdict/action" of name under c. */
static const char *judged_by(const struct idng_conf *c, const char *name)
{
    static char out[96];
    struct idng_verdict v;
    uint8_t wire[256];
    size_t n = to_wire(name, wire);

    idng_policy_judge(&c->policy, wire, n, &v);
    snprintf(out, sizeof out, "%s/%s", idng_verdict_name(&v), idng_action_name(v.action));
    return out;
}

/* Makes the scratch directory with deny.txt and allow.txt in it holding
 * deny_text and allow_text; their paths into deny and allow (300 octets). */
static void make_list_files(char *deny, char *allow, const char *deny_text, const char *allow_text)
{
    make_tmpdir();
    snprintf(deny, 300, "%s/deny.txt", tmpdir);
    snprintf(allow, 300, "%s/allow.txt", tmpdir);
    t_spew_str(deny, deny_text);
    t_spew_str(allow, allow_text);
}

/* Names from files are the names of the same lines: the same lists, in the
 * same order, and every query judged alike (exact names, names below,
 * whole labels only, an allow exception below a denied name). */
START_TEST(test_list_files_match_lines)
{
    static const char *const queries[] = {
        "bad.example.",     "www.bad.example.",   "BAD.Example",       "xbad.example.",
        "good.bad.example", "a.good.bad.example", "example.",          "evil.test.",
        "x.evil.test",      "fine.example.",      "xn--bcher-kva.de.", "sub.xn--bcher-kva.de",
    };
    char deny[300], allow[300], conf[2048], err[ERR_MAX];
    struct idng_conf lines, files;
    char *out;
    int i, rc;

    make_list_files(deny, allow,
                    "# blocklist\nbad.example\n\n  Evil.Test.  # trailing\nb\xc3\xbc"
                    "cher.de\r\n",
                    "good.bad.example\n");
    idng_conf_init(&lines);
    ck_assert_msg(parse_str(&lines,
                            "idnguard:\n    allow: good.bad.example\n"
                            "    deny: bad.example\n    deny: evil.test\n"
                            "    deny: bücher.de\n",
                            err)
                      == 0,
                  "%s", err);
    snprintf(conf, sizeof conf, "idnguard:\n    deny-file: %s\n    allow-file: %s\n", deny, allow);
    idng_conf_init(&files);
    ck_assert_msg(parse_str(&files, conf, err) == 0, "%s", err);
    ck_assert(list_equal(&lines.policy.deny, &files.policy.deny));
    ck_assert(list_equal(&lines.policy.allow, &files.policy.allow));
    ck_assert_uint_eq(files.deny_from_files, 3);
    ck_assert_uint_eq(files.allow_from_files, 1);
    for (i = 0; i < N_OF(queries); i++) {
        char want[96];
        snprintf(want, sizeof want, "%s", judged_by(&lines, queries[i]));
        ck_assert_msg(strcmp(judged_by(&files, queries[i]), want) == 0, "%s: %s, lines: %s",
                      queries[i], judged_by(&files, queries[i]), want);
    }
    ck_assert_str_eq(judged_by(&files, "www.bad.example"), "deny/refuse");
    ck_assert_str_eq(judged_by(&files, "a.good.bad.example"), "allow/pass");
    ck_assert_str_eq(judged_by(&files, "xbad.example"), "ok/pass");
    /* Written back as the file lines, not as a line per name. */
    out = write_str(&files, &rc);
    ck_assert_int_eq(rc, 0);
    ck_assert_msg(strstr(out, "\n    # allow: (none)\n    # deny: (none)\n") != NULL, "%s", out);
    snprintf(conf, sizeof conf, "\n    allow-file: \"%s\"\n    deny-file: \"%s\"\n", allow, deny);
    ck_assert_msg(strstr(out, conf) != NULL, "%s", out);
    free(out);
    check_round_trip(&files, "deny-file");
    idng_conf_free(&lines);
    idng_conf_free(&files);
    remove_tmpdir();
}
END_TEST

/* Several files and lines combine, in the order read; the lines' own names
 * are written as lines and the files as files. */
START_TEST(test_list_files_combine)
{
    char d1[512], d2[512], conf[2048], err[ERR_MAX], *out;
    struct idng_conf c;
    int rc;

    make_tmpdir();
    snprintf(d1, sizeof d1, "%s/one.txt", tmpdir);
    snprintf(d2, sizeof d2, "%s/two.txt", tmpdir);
    t_spew_str(d1, "one.example\n");
    t_spew_str(d2, "two.example\nthree.example");
    snprintf(conf, sizeof conf,
             "idnguard:\n    deny-file: %s\n    deny: inline.example\n    deny-file: %s\n", d1, d2);
    idng_conf_init(&c);
    ck_assert_msg(parse_str(&c, conf, err) == 0, "%s", err);
    ck_assert_uint_eq(c.policy.deny.count, 4);
    ck_assert_uint_eq(c.deny_from_files, 3);
    ck_assert_mem_eq(c.policy.deny.names[0], "\006inline\007example", 16);
    ck_assert_mem_eq(c.policy.deny.names[1], "\003one\007example", 13);
    ck_assert_mem_eq(c.policy.deny.names[3], "\005three\007example", 15);
    ck_assert_str_eq(judged_by(&c, "x.three.example"), "deny/refuse");
    out = write_str(&c, &rc);
    ck_assert_int_eq(rc, 0);
    snprintf(conf, sizeof conf,
             "\n    deny: inline.example.\n    deny-file: \"%s\"\n    deny-file: \"%s\"\n", d1, d2);
    ck_assert_msg(strstr(out, conf) != NULL, "%s", out);
    free(out);
    check_round_trip(&c, "two deny-files");
    idng_conf_free(&c);
    remove_tmpdir();
}
END_TEST

/* Every bad line of a file reported as FILE:LINE after the settings line
 * that named it; nothing applied; a file that cannot be read, said so. */
START_TEST(test_list_files_errors)
{
    char deny[300], allow[300], conf[2048], err[ERR_MAX], want[8192];
    struct idng_conf c;

    make_list_files(deny, allow,
                    "ok.example\na b.example\n*.wild.example\nbad\x01.example\nok.example\n"
                    "inline.example\nboth.example\n",
                    "both.example\n");
    snprintf(conf, sizeof conf,
             "idnguard:\n    deny: inline.example\n    allow-file: %s\n    deny-file: %s\n", allow,
             deny);
    idng_conf_init(&c);
    ck_assert_int_eq(parse_str(&c, conf, err), -1);
    snprintf(want, sizeof want,
             "t.conf:4: %s:2: bad name 'a b.example' for 'deny-file': it contains a blank (one "
             "name per line)\n"
             "t.conf:4: %s:3: bad name '*.wild.example' for 'deny-file': no wildcards; a name "
             "already covers every name below it\n"
             "t.conf:4: %s:4: control octet 0x01 in a name\n"
             "t.conf:4: %s:5: duplicate deny-file name 'ok.example.' (first at %s:1)\n"
             "t.conf:4: %s:6: duplicate deny-file name 'inline.example.' (first at t.conf:2)\n"
             "t.conf:4: %s:7: 'both.example.' is in both 'allow' (%s:1) and 'deny-file'; a name "
             "can be in one list only",
             deny, deny, deny, deny, deny, deny, deny, allow);
    ck_assert_str_eq(err, want);
    ck_assert_uint_eq(c.policy.deny.count, 0);

    expect_unreadable_names("allow-file");
    expect_unreadable_names("deny-file");
    snprintf(conf, sizeof conf, "idnguard:\n    deny-file: %s\n    deny-file: %s\n", allow, allow);
    ck_assert_int_eq(parse_str(&c, conf, err), -1);
    snprintf(want, sizeof want,
             "t.conf:3: duplicate deny-file '%s' (first at line 2); a file is read once", allow);
    ck_assert_str_eq(err, want);
    ck_assert_int_eq(parse_str(&c, "idnguard:\n    deny-file: names.txt\n", err), -1);
    ck_assert_str_eq(err, "t.conf:2: deny-file 'names.txt' is not an absolute path (expected an "
                          "absolute path of a file of names, one a line)");
    idng_conf_free(&c);
    remove_tmpdir();
}
END_TEST

static Suite *conf_policy_suite(void)
{
    Suite *s = suite_create("conf-policy");
    TCase *tc = tcase_create("protect");

    tcase_add_test(tc, test_protect);
    tcase_add_loop_test(tc, test_protect_switches, 0, N_OF(switch_cases));
    tcase_add_test(tc, test_protect_switch_errors);
    tcase_add_test(tc, test_tld_scripts);
    suite_add_tcase(s, tc);

    tc = tcase_create("idn");
    tcase_add_test(tc, test_idn_settings);
    suite_add_tcase(s, tc);

    tc = tcase_create("list-files");
    tcase_add_test(tc, test_list_files_match_lines);
    tcase_add_test(tc, test_list_files_combine);
    tcase_add_test(tc, test_list_files_errors);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(conf_policy_suite)
