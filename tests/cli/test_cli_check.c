/**
 * \file
 * Check suite for the idnguard command-line tool: check --conf FILE, each
 * name judged by a settings file's policy as the module judges a query
 * for it.  Runs the real binary (see cli_run.h).
 */
#include "cli_run.h"
#include "common.h"

#include "idng_log.h"
#include "idnguard.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------------ */
/* check --conf FILE: each name judged by a settings file's policy, as the   */
/* module judges a client's query for it.                                    */

/* A protected name, a deny and an allow entry, and mixed scripts refused
 * (by default they are only logged). */
static const char policy_conf[] = "idnguard:\n"
                                  "    protect: paypal.com\n"
                                  "    deny: blocked.example\n"
                                  "    allow: xn--pypal-4ve.net\n"
                                  "    on-mixed-script: refuse\n";

/* on-idn: refuse, Latin IDNs and names under .рф exempt. */
static const char idn_conf[] = "idnguard:\n"
                               "    on-idn: refuse\n"
                               "    idn-scripts: latin\n"
                               "    idn-suffixes: \xd1\x80\xd1\x84\n";

struct policy_case {
    const char *name;
    const char *opt;      /**< NULL, or one more option */
    int conf_eq;          /**< "--conf=FILE" rather than "--conf FILE" */
    const char *input;    /**< standard input, a name a line */
    const char *lines[6]; /**< every output line (a trailing '*': a prefix) */
    const char *has[3];   /**< substrings the output holds */
    int status;
};

static const struct policy_case policy_cases[] = {
    {"protected lookalike is refused",
     NULL,
     0,
     "xn--pypal-4ve.com\n",
     {"REFUSE confusable: xn--pypal-4ve: *"},
     {": looks like paypal.com. lookalike=mixed-script,confusable\n"},
     1},
    /* p<U+0430 CYRILLIC SMALL LETTER A>ypal.com as the raw UTF-8 a client
     * may send: the module judges the A-label form too (rule 5). */
    {"raw UTF-8 lookalike is refused",
     NULL,
     1,
     "p\xd0\xb0ypal.com\n",
     {"REFUSE confusable: p\\208\\176ypal: *"},
     {": looks like paypal.com. lookalike=mixed-script,confusable\n"},
     1},
    {"denied name and a name below it",
     NULL,
     0,
     "blocked.example\nwww.Blocked.EXAMPLE.\n",
     {"REFUSE deny", "REFUSE deny"},
     {NULL},
     1},
    /* The allowed name would be refused as mixed-script without its entry,
     * as a sibling outside the list is. */
    {"allowed name and a name below it pass",
     NULL,
     0,
     "xn--pypal-4ve.net\nwww.xn--pypal-4ve.net\n",
     {"pass allow lookalike=mixed-script", "pass allow lookalike=mixed-script"},
     {NULL},
     0},
    {"on-mixed-script refuse",
     NULL,
     0,
     "xn--pypal-4ve.org\n",
     {"REFUSE mixed-script: xn--pypal-4ve: *"},
     {" lookalike=mixed-script\n"},
     1},
    /* A valid IDN passes; digits of two systems log (on-mixed-number's
     * default); a raw label normalizes (on-raw-8bit's). */
    {"valid names pass or log",
     NULL,
     0,
     "xn--bcher-kva.de\nexample.com\nxn--2-izd.example\nb\xc3\xbc"
     "cher.de\n",
     {"ok", "ok", "log mixed-number: xn--2-izd: *", "normalize raw-8bit: b\\195\\188cher: *"},
     {" lookalike=mixed-number\n"},
     0},
    {"one rejected name among passing ones",
     NULL,
     0,
     "example.com\r\nwww.blocked.example\nxn--bcher-kva.de",
     {"ok", "REFUSE deny", "ok"},
     {NULL},
     1},
    {"text that is no name",
     NULL,
     0,
     "a..b\n\n",
     {"ERROR empty-label: *", "ERROR empty-label: *"},
     {NULL},
     1},
    /* Emoji are pictographs, set aside by the mixed-script rule even when
     * it refuses: 💩.la and i❤.ws pass without a lookalike class; Latin
     * and Cyrillic with an emoji (pаypal💩) are still refused, and, keyed
     * with its emoji set aside too, that one is paypal.com's lookalike.
     * --mode overrides the file's mode: then the code point decides. */
    {"emoji labels are not mixed-script",
     NULL,
     0,
     "xn--ls8h.la\nxn--i-7iq.ws\nxn--pypal-4ve79700g.com\n",
     {"ok", "ok", "REFUSE confusable: xn--pypal-4ve79700g: *"},
     {": looks like paypal.com. lookalike=mixed-script,confusable\n"},
     1},
    {"--mode overrides the mode",
     "--mode=idna2008",
     0,
     "xn--ls8h.la\n",
     {"REFUSE disallowed: xn--ls8h: code point is disallowed (U+1F4A9)"},
     {NULL},
     1},
    {"tsv",
     "--format=tsv",
     0,
     "xn--pypal-4ve.com\nexample.com\nblocked.example\n",
     {"xn--pypal-4ve.com\trefuse\tconfusable\txn--pypal-4ve\t*",
      "example.com\tpass\tok\t\t\t\t\t\t",
      "blocked.example\trefuse\tdeny\t\t\t\t\t\tidnguard: deny"},
     {"\t\tmixed-script,confusable\tpaypal.com.\tidnguard: confusable: xn--pypal-4ve: "},
     1},
    {"json",
     "--format=json",
     1,
     "xn--pypal-4ve.com\nxn--pypal-4ve.net\nblocked.example\n",
     {"{\"input\":\"xn--pypal-4ve.com\",\"status\":\"rejected\",\"action\":\"refuse\","
      "\"class\":\"confusable\",\"label\":\"xn--pypal-4ve\",\"message\":*",
      "{\"input\":\"xn--pypal-4ve.net\",\"status\":\"ok\",\"action\":\"pass\",\"class\":\"allow\","
      "\"label\":null,\"message\":null,\"codepoint\":null,\"lookalike\":\"mixed-script\","
      "\"like\":null,\"ede\":null}",
      "{\"input\":\"blocked.example\",\"status\":\"rejected\",\"action\":\"refuse\","
      "\"class\":\"deny\",\"label\":null,\"message\":null,\"codepoint\":null,\"lookalike\":null,"
      "\"like\":null,\"ede\":\"idnguard:\\u0020deny\"}"},
     {"\"codepoint\":null,\"lookalike\":\"mixed-script,confusable\",\"like\":\"paypal.com.\","
      "\"ede\":\"idnguard:\\u0020confusable:\\u0020xn--pypal-4ve:\\u0020"},
     1},
    {"json passes",
     "--format=json",
     0,
     "example.com\n",
     {"{\"input\":\"example.com\",\"status\":\"ok\",\"action\":\"pass\",\"class\":\"ok\","
      "\"label\":null,\"message\":null,\"codepoint\":null,\"lookalike\":null,\"like\":null,"
      "\"ede\":null}"},
     {NULL},
     0},
};

/* Runs case c against the settings file conf. */
static void run_policy_case(const struct policy_case *c, const char *conf)
{
    char dir[256], path[300], eq[320];
    const char *args[6] = {"check", "--conf", path, c->opt, NULL, NULL};
    run_result r;
    size_t k;

    t_tmpdir_make(dir, sizeof dir, "idng-check");
    write_conf(dir, conf, path, sizeof path);
    if (c->conf_eq) {
        snprintf(eq, sizeof eq, "--conf=%s", path);
        args[1] = eq;
        args[2] = c->opt;
    }
    run_cli(args, c->input, strlen(c->input), &r);
    t_tmpdir_remove(dir);
    ck_assert_msg(r.status == c->status,
                  "%s: exit status %d, expected %d (stdout \"%s\", stderr \"%s\")", c->name,
                  r.status, c->status, r.out, r.err);
    expect_lines(c->name, r.out, r.out_len, c->lines);
    for (k = 0; k < 3 && c->has[k]; k++)
        ck_assert_msg(strstr(r.out, c->has[k]) != NULL, "%s: \"%s\" does not hold \"%s\"", c->name,
                      r.out, c->has[k]);
    ck_assert_msg(r.err_len == 0, "%s: unexpected stderr \"%s\"", c->name, r.err);
    run_free(&r);
}

START_TEST(test_check_policy)
{
    run_policy_case(&policy_cases[_i], policy_conf);
}
END_TEST

static const struct policy_case idn_cases[] = {
    /* on-idn: every IDN refused but Latin ones and those under .рф; the
     * raw spelling of a refused one is refused, of an exempt one
     * normalized; plain names are no IDNs. */
    {"on-idn refuse with exemptions",
     NULL,
     0,
     "xn--80aafi6cg.example\nxn--bcher-kva.example\nxn--80aafi6cg.xn--p1ai\n"
     "\xd0\xbf\xd1\x80\xd0\xb0\xd0\xb2\xd0\xb4\xd0\xb0.example\n"
     "\xd0\xbf\xd1\x80\xd0\xb0\xd0\xb2\xd0\xb4\xd0\xb0.\xd1\x80\xd1\x84\nwww.example\n",
     {"REFUSE idn: xn--80aafi6cg: IDN label that idn-scripts and idn-suffixes do not exempt", "ok",
      "ok", "REFUSE idn: \\208\\191\\209\\128\\208\\176\\208\\178\\208\\180\\208\\176: *",
      "normalize raw-8bit: *", "ok"},
     {NULL},
     1},
    {"on-idn tsv",
     "--format=tsv",
     1,
     "xn--80aafi6cg.example\nxn--bcher-kva.example\n",
     {"xn--80aafi6cg.example\trefuse\tidn\txn--80aafi6cg\t*", "xn--bcher-kva.example\tpass\tok\t*"},
     {"\tidnguard: idn: xn--80aafi6cg: IDN label that idn-scripts and idn-suffixes do not exempt"},
     1},
};

START_TEST(test_check_idn)
{
    run_policy_case(&idn_cases[_i], idn_conf);
}
END_TEST

/* A settings file that does not load: its errors as check-conf prints
 * them, naming the file, exit status 2 and no line judged.  Warnings go to
 * standard error and the names are judged. */
struct conf_file_case {
    const char *name;
    const char *text;  /**< the file; NULL: there is none */
    const char *after; /**< standard error begins with the path, then this */
    const char *out;   /**< all of standard output */
    int status;
};

static const struct conf_file_case conf_file_cases[] = {
    {"settings file that does not parse", "idnguard:\n    on-confusable: maybe\n",
     ":2: bad value 'maybe' for 'on-confusable'", "", 2},
    {"no settings file", NULL, ": cannot open: No such file or directory\n", "", 2},
    {"settings file with a warning", "idnguard:\n    deny: 10.0.0.1\n",
     ":2: warning: deny name '10.0.0.1.' looks like", "REFUSE deny\nok\n", 1},
};

START_TEST(test_check_conf_file)
{
    const struct conf_file_case *c = &conf_file_cases[_i];
    char dir[256], path[300];
    const char *args[] = {"check", "--conf", path, NULL};
    run_result r;

    t_tmpdir_make(dir, sizeof dir, "idng-check");
    if (c->text)
        write_conf(dir, c->text, path, sizeof path);
    else
        snprintf(path, sizeof path, "%s/none.conf", dir);
    run_cli(args, "10.0.0.1\nexample.com\n", strlen("10.0.0.1\nexample.com\n"), &r);
    t_tmpdir_remove(dir);
    ck_assert_msg(r.status == c->status, "%s: exit status %d, expected %d (stderr \"%s\")", c->name,
                  r.status, c->status, r.err);
    ck_assert_msg(strcmp(r.out, c->out) == 0, "%s: stdout \"%s\", expected \"%s\"", c->name, r.out,
                  c->out);
    ck_assert_msg(strncmp(r.err, path, strlen(path)) == 0
                      && strncmp(r.err + strlen(path), c->after, strlen(c->after)) == 0,
                  "%s: stderr \"%s\" does not begin \"%s%s\"", c->name, r.err, path, c->after);
    run_free(&r);
}
END_TEST

/* $IDNGUARD_CONF names the module's file; check reads a settings file only
 * when --conf names one. */
START_TEST(test_check_ignores_conf_env)
{
    char dir[256], path[300];
    const char *args[] = {"check", "xn--pypal-4ve.com", "blocked.example", NULL};
    run_result r;

    t_tmpdir_make(dir, sizeof dir, "idng-check");
    write_conf(dir, policy_conf, path, sizeof path);
    ck_assert(setenv("IDNGUARD_CONF", path, 1) == 0);
    run_cli(args, "", 0, &r);
    unsetenv("IDNGUARD_CONF");
    t_tmpdir_remove(dir);
    ck_assert_msg(r.status == 0, "exit status %d (stdout \"%s\")", r.status, r.out);
    ck_assert_msg(strcmp(r.out, "ok\nok\n") == 0, "stdout \"%s\"", r.out);
    ck_assert_msg(r.err_len == 0, "stderr \"%s\"", r.err);
    run_free(&r);
}
END_TEST

static Suite *cli_check_suite(void)
{
    Suite *s = suite_create("cli_check");
    TCase *tc;

    if (cli_bin_missing(s, "test_cli_check"))
        return s;

    tc = tcase_create("check --conf");
    tcase_add_loop_test(tc, test_check_policy, 0, N_OF(policy_cases));
    tcase_add_loop_test(tc, test_check_idn, 0, N_OF(idn_cases));
    tcase_add_loop_test(tc, test_check_conf_file, 0, N_OF(conf_file_cases));
    tcase_add_test(tc, test_check_ignores_conf_env);
    suite_add_tcase(s, tc);

    return s;
}

IDNG_TEST_MAIN(cli_check_suite)
