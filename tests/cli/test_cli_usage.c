/**
 * \file
 * Check suite for the idnguard command-line tool: usage errors, --help
 * (the whole usage and each command's), the version, and that the binary
 * under test is named.  Runs the real binary (see cli_run.h).
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
/* Usage errors and --help.                                                  */

struct usage_case {
    const char *name;
    const char *args[MAX_ARGS + 1];
    const char *stderr_has; /**< substring of standard error */
};

static const struct usage_case usage_cases[] = {
    {"no command", {NULL}, "usage:"},
    {"unknown command", {"frob", "x"}, "unknown command 'frob'"},
    {"unknown command looks like an option", {"--frob"}, "unknown command"},
    {"unknown option", {"check", "--frob", "x"}, "unknown option '--frob'"},
    {"bogus mode", {"check", "--mode=bogus", "x"}, "unknown mode 'bogus'"},
    {"empty mode", {"to-ascii", "--mode=", "x"}, "unknown mode"},
    {"to-unicode bogus mode", {"to-unicode", "--mode=bogus", "x"}, "unknown mode"},
    {"encode has no --mode", {"encode", "--mode=uts46", "x"}, "unknown option"},
    {"decode has no --strict", {"decode", "--strict", "x"}, "unknown option"},
    {"check has no --strict", {"check", "--strict", "x"}, "unknown option"},
    {"to-ascii has no --case", {"to-ascii", "--case", "x"}, "unknown option"},
    /* A short option is an option, never a name: -m was judged as one. */
    {"check -m",
     {"check", "-m", "idna2008", "x"},
     "idnguard check: unknown option '-m' (idnguard check --help; an item that begins with "
     "'-' goes after '--')\n"},
    {"unknown option after an item",
     {"check", "x", "--frob"},
     "idnguard check: unknown option '--frob' (idnguard check --help; an item that begins "
     "with '-' goes after '--')\n"},
    {"item that begins with -",
     {"decode", "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"},
     "unknown option '-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n'"},
    {"lone -",
     {"check", "-"},
     "idnguard check: '-' is not an item (without items, standard input is read; an item "
     "'-' goes after '--')\n"},
    {"--mode without a value",
     {"to-ascii", "--mode", "uts46", "x"},
     "idnguard to-ascii: option '--mode' needs a value: --mode=M\n"},
    {"flag with a value", {"to-ascii", "--strict=1", "x"}, "unknown option '--strict=1'"},
    {"bogus format",
     {"check", "--format=xml", "x"},
     "idnguard check: unknown format 'xml' (text, tsv, json)\n"},
    {"bogus profile",
     {"to-ascii", "--profile=browser", "x"},
     "idnguard to-ascii: unknown profile 'browser' (dns, whatwg, idna2008-registration, "
     "idna2008-lookup)\n"},
    {"check has no --transitional", {"check", "--transitional", "x"}, "unknown option"},
    {"encode has no --profile", {"encode", "--profile=dns", "x"}, "unknown option"},
    {"stats has no --format", {"stats", "--format=json", "f"}, "unknown option"},
    {"check --conf without a value",
     {"check", "--conf"},
     "idnguard check: option '--conf' needs a value: --conf FILE\n"},
    {"check --conf= empty",
     {"check", "--conf=", "x"},
     "idnguard check: option '--conf=' needs a value: --conf FILE\n"},
    /* An option after --conf is not its file. */
    {"check --conf then an option",
     {"check", "--conf", "--format=json", "x"},
     "idnguard check: option '--conf' needs a value: --conf FILE\n"},
    {"to-ascii has no --conf", {"to-ascii", "--conf=x", "y"}, "unknown option '--conf=x'"},
    {"bogus mode names the modes",
     {"check", "--mode=idna2003", "x"},
     "idnguard check: unknown mode 'idna2003' (uts46, idna2008-lookup, idna2008-registration, "
     "idna2008, punycode)\n"},
};

START_TEST(test_usage_errors)
{
    const struct usage_case *c = &usage_cases[_i];
    run_result r;

    /* Input is offered, but a usage error must not consume or judge it. */
    run_cli(c->args, "xn--\n", 5, &r);
    ck_assert_msg(r.status == 2, "%s: exit status %d, expected 2", c->name, r.status);
    ck_assert_msg(r.out_len == 0, "%s: unexpected stdout \"%s\"", c->name, r.out);
    ck_assert_msg(strstr(r.err, c->stderr_has) != NULL, "%s: stderr \"%s\" does not hold \"%s\"",
                  c->name, r.err, c->stderr_has);
    run_free(&r);
}
END_TEST

/* --help: the whole usage, or one command's (its options and no other's),
 * on stdout with status 0, wherever it stands before "--". */
struct help_case {
    const char *name;
    const char *args[MAX_ARGS + 1];
    const char *first_line;
    const char *has[4]; /**< substrings the text holds */
    const char *lacks;  /**< NULL, or a substring it must not hold */
};

static const struct help_case help_cases[] = {
    {"--help",
     {"--help"},
     "usage: idnguard COMMAND [OPTIONS] [ITEM...]",
     {"to-ascii [NAME...]", "check-conf [FILE]", "idnguard COMMAND --help"},
     NULL},
    {"-h", {"-h"}, "usage: idnguard COMMAND [OPTIONS] [ITEM...]", {"decode [LABEL...]"}, NULL},
    {"help", {"help"}, "usage: idnguard COMMAND [OPTIONS] [ITEM...]", {"stats FILE"}, NULL},
    {"check --help",
     {"check", "--help"},
     "usage: idnguard check [OPTIONS] [NAME...]",
     {"  --mode=M ", "  --format=F ", "idna2008-lookup", "'-' alone is an error"},
     "--case"},
    /* It printed "ok" before: -h was taken for a name. */
    {"check -h",
     {"check", "-h"},
     "usage: idnguard check [OPTIONS] [NAME...]",
     {"--mode=M"},
     "--strict"},
    {"check NAME --help",
     {"check", "xn--", "--help"},
     "usage: idnguard check [OPTIONS] [NAME...]",
     {"--format=F"},
     NULL},
    {"encode --help",
     {"encode", "--case", "--help"},
     "usage: idnguard encode [OPTIONS] [LABEL...]",
     {"  --case ", "--format=F"},
     "--mode"},
    {"to-ascii --help",
     {"to-ascii", "--help", "xn--"},
     "usage: idnguard to-ascii [OPTIONS] [NAME...]",
     {"  --transitional ", "  --no-std3 ", "  --profile=P ", "  --check-contexto "},
     "--case"},
    {"to-unicode --help",
     {"to-unicode", "--help"},
     "usage: idnguard to-unicode [OPTIONS] [NAME...]",
     {"  --no-check-hyphens ", "  --no-dns-length ", "  --no-bidi ", "  --no-joiners "},
     NULL},
    {"stats --help",
     {"stats", "--help"},
     "usage: idnguard stats [OPTIONS] FILE",
     {"--help"},
     "--format"},
    {"check --help states --conf",
     {"check", "--help"},
     "usage: idnguard check [OPTIONS] [NAME...]",
     {"  --conf FILE ", "(REFUSE,\n  NXDOMAIN, DROP)", "[ lookalike=<classes>]",
      "\"status\":\"ok\" or \"rejected\""},
     NULL},
    {"to-ascii --help has no --conf",
     {"to-ascii", "--help"},
     "usage: idnguard to-ascii [OPTIONS] [NAME...]",
     {"--format=F"},
     "--conf"},
};

START_TEST(test_help)
{
    const struct help_case *c = &help_cases[_i];
    const char *nl;
    run_result r;
    size_t k;

    run_cli(c->args, "xn--\n", 5, &r);
    ck_assert_msg(r.status == 0, "%s: exit status %d, expected 0", c->name, r.status);
    nl = strchr(r.out, '\n');
    ck_assert_msg(nl != NULL && (size_t)(nl - r.out) == strlen(c->first_line)
                      && strncmp(r.out, c->first_line, strlen(c->first_line)) == 0,
                  "%s: stdout \"%.60s\" does not begin with the line \"%s\"", c->name, r.out,
                  c->first_line);
    for (k = 0; k < 4 && c->has[k]; k++)
        ck_assert_msg(strstr(r.out, c->has[k]) != NULL, "%s: help text lacks \"%s\"", c->name,
                      c->has[k]);
    if (c->lacks)
        ck_assert_msg(strstr(r.out, c->lacks) == NULL, "%s: help text holds \"%s\"", c->name,
                      c->lacks);
    ck_assert_msg(r.err_len == 0, "%s: unexpected stderr \"%s\"", c->name, r.err);
    run_free(&r);
}
END_TEST

/* The version: idnguard's first, then the Unicode of the tables. */
START_TEST(test_version)
{
    static const char *const args[][2] = {{"--version", NULL}, {"version", NULL}};
    run_result r;

    run_cli(args[_i], "", 0, &r);
    ck_assert_msg(r.status == 0, "%s: exit status %d", args[_i][0], r.status);
    ck_assert_msg(strncmp(r.out, "idnguard " IDNG_VERSION "\nUnicode " IDNG_UNICODE_VERSION "\n",
                          strlen("idnguard " IDNG_VERSION "\nUnicode " IDNG_UNICODE_VERSION "\n"))
                      == 0,
                  "%s: stdout \"%s\"", args[_i][0], r.out);
    ck_assert_msg(r.err_len == 0, "%s: stderr \"%s\"", args[_i][0], r.err);
    run_free(&r);
}
END_TEST

START_TEST(test_bin_set)
{
    /* Fails with a clear message when IDNGUARD_BIN is missing. */
    (void)t_idnguard_bin();
}
END_TEST

static Suite *cli_usage_suite(void)
{
    Suite *s = suite_create("cli_usage");
    TCase *tc;

    tc = tcase_create("setup");
    tcase_add_test(tc, test_bin_set);
    suite_add_tcase(s, tc);
    if (getenv("IDNGUARD_BIN") == NULL) {
        /* One clear failure instead of one per test. */
        fputs("test_cli_usage: IDNGUARD_BIN is not set; "
              "run as IDNGUARD_BIN=build/idnguard build/tests/cli/test_cli_usage\n",
              stderr);
        return s;
    }

    tc = tcase_create("usage");
    tcase_add_loop_test(tc, test_usage_errors, 0, N_OF(usage_cases));
    tcase_add_loop_test(tc, test_help, 0, N_OF(help_cases));
    tcase_add_loop_test(tc, test_version, 0, 2);
    suite_add_tcase(s, tc);

    return s;
}

IDNG_TEST_MAIN(cli_usage_suite)
