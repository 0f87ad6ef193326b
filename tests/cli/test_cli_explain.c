/**
 * \file
 * Check suite for the idnguard command-line tool: explain, why the module
 * blocks a name or does not, and that it says what check --conf says.
 * Runs the real binary (see cli_run.h).
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
/* explain: why the module blocks a name, or does not.                       */

/* The settings explain is run with: each line a rule the cases name by its
 * line number; the protect-file's second line is a name too. */
static const char explain_conf[] = "idnguard:\n"
                                   "    protect: paypal.com\n"
                                   "    deny: blocked.example\n"
                                   "    allow: xn--pypal-4ve.net\n"
                                   "    on-contextj: nxdomain\n"
                                   "    protect-file: @DIR@/names.txt\n";

struct explain_case {
    const char *name;
    const char *item;
    const char *lines[9]; /**< every line; @CONF@ and @DIR@ stand for the paths */
    int status;
};

static const struct explain_case explain_cases[] = {
    {"valid IDN",
     "xn--bcher-kva.example",
     {"name: xn--bcher-kva.example. (bücher.example.)", "given as: xn--bcher-kva.example",
      "label 1: xn--bcher-kva: valid", "label 2: example: valid", "verdict: ok",
      "action: pass: nothing in the settings objects to the name",
      "answer: the resolver's own, as the name resolves (the names in it are judged too)",
      "log: - xn--bcher-kva.example. (bücher.example.) A IN NOERROR ok pass resolved"},
     0},
    /* A joiner out of place: on-contextj's line decides. */
    {"invalid A-label",
     "xn--ab-m1t.example",
     {"name: xn--ab-m1t.example.",
      "label 1: xn--ab-m1t: contextj (nxdomain): joiner not allowed here (RFC 5892 A.1, A.2) "
      "(U+200D); lookalike: mixed-script (log)",
      "label 2: example: valid",
      "verdict: contextj: xn--ab-m1t: joiner not allowed here (RFC 5892 A.1, A.2) (U+200D) "
      "lookalike=mixed-script",
      "action: nxdomain, by on-contextj at @CONF@:5",
      "answer: NXDOMAIN, EDE 15 (Blocked) \"idnguard: contextj: xn--ab-m1t: joiner not allowed "
      "here (RFC 5892 A.1, A.2)\"",
      "log: - xn--ab-m1t.example. A IN NXDOMAIN contextj:xn--ab-m1t nxdomain policy ede=15 "
      "lookalike=mixed-script"},
     1},
    /* A class no line sets follows on-invalid, which no line sets either. */
    {"class that follows on-invalid",
     "xn--1-0hc.example",
     {"name: xn--1-0hc.example.", "given as: xn--1-0hc.example",
      "label 1: xn--1-0hc: bidi (refuse): *", "label 2: example: valid",
      "verdict: bidi: xn--1-0hc: *", "action: refuse, by on-invalid (default); on-bidi is not set",
      "answer: REFUSED, EDE 15 (Blocked) \"idnguard: bidi: xn--1-0hc: *",
      "log: - xn--1-0hc.example. A IN REFUSED bidi:xn--1-0hc refuse policy ede=15"},
     1},
    /* p<Cyrillic a>ypal.com: never shown in Unicode. */
    {"confusable of a protected name",
     "xn--pypal-4ve.com",
     {"name: xn--pypal-4ve.com.",
      "label 1: xn--pypal-4ve: valid; lookalike: mixed-script (log), confusable (refuse)",
      "label 2: com: valid",
      "verdict: confusable: xn--pypal-4ve: name is confusable with a protected name (UTS #39 "
      "section 4): looks like paypal.com. lookalike=mixed-script,confusable",
      "looks like: paypal.com. (protect at @CONF@:2)", "action: refuse, by on-confusable (default)",
      "answer: REFUSED, EDE 15 (Blocked) \"idnguard: confusable: xn--pypal-4ve: name is "
      "confusable with a protected name (UTS #39 section 4): looks like paypal.com.\"",
      "log: - xn--pypal-4ve.com. A IN REFUSED confusable:xn--pypal-4ve refuse policy ede=15 "
      "lookalike=mixed-script,confusable"},
     1},
    /* bаnk.example (Cyrillic a) looks like the protect-file's second name. */
    {"confusable of a protect-file name",
     "xn--bnk-6cd.example",
     {"name: xn--bnk-6cd.example.", "label 1: xn--bnk-6cd: valid; lookalike: *",
      "label 2: example: valid", "verdict: confusable: xn--bnk-6cd: *",
      "looks like: bank.example. (protect-file @DIR@/names.txt:2)",
      "action: refuse, by on-confusable (default)", "answer: REFUSED, EDE 15 (Blocked) *",
      "log: - xn--bnk-6cd.example. A IN REFUSED confusable:xn--bnk-6cd refuse policy *"},
     1},
    {"denied name",
     "www.blocked.example",
     {"name: www.blocked.example.", "given as: www.blocked.example", "label 1: www: valid",
      "label 2: blocked: valid", "label 3: example: valid", "verdict: deny",
      "action: refuse, by deny blocked.example. at @CONF@:3; with on-invalid's action (default)",
      "answer: REFUSED, EDE 15 (Blocked) \"idnguard: deny\"",
      "log: - www.blocked.example. A IN REFUSED deny refuse policy ede=15"},
     1},
    /* Mixed scripts, but listed: the list decides, the labels have no action. */
    {"allowed name",
     "xn--pypal-4ve.net",
     {"name: xn--pypal-4ve.net.", "label 1: xn--pypal-4ve: valid; lookalike: mixed-script",
      "label 2: net: valid", "verdict: allow lookalike=mixed-script",
      "action: pass, by allow xn--pypal-4ve.net. at @CONF@:4",
      "answer: the resolver's own, as the name resolves (the names in it are judged too)",
      "log: - xn--pypal-4ve.net. A IN NOERROR allow pass resolved lookalike=mixed-script"},
     0},
    /* UTF-8 as a client may send it: the module resolves its A-label form. */
    {"raw UTF-8 name",
     "b\xc3\xbc"
     "cher.example",
     {"name: b\\195\\188cher.example.",
      "given as: b\xc3\xbc"
      "cher.example",
      "label 1: b\\195\\188cher: raw-8bit (normalize): label holds octets >= 0x80; its A-label "
      "is xn--bcher-kva",
      "label 2: example: valid", "verdict: raw-8bit: b\\195\\188cher: label holds octets >= 0x80",
      "action: normalize, by on-raw-8bit (default)",
      "answer: a CNAME to xn--bcher-kva.example., then that name's answer (it is judged as a "
      "query of its own)",
      "log: - b\\195\\188cher.example. A IN NOERROR raw-8bit:b\\195\\188cher normalize resolved "
      "target=xn--bcher-kva.example."},
     0},
};

/* s with @CONF@ and @DIR@ replaced, into out. */
static void substitute(const char *s, const char *conf, const char *dir, char *out, size_t cap)
{
    size_t o = 0;

    while (*s && o + 1 < cap) {
        const char *with = strncmp(s, "@CONF@", 6) == 0  ? conf
                           : strncmp(s, "@DIR@", 5) == 0 ? dir
                                                         : NULL;
        if (with) {
            o += (size_t)snprintf(out + o, cap - o, "%s", with);
            s += with == conf ? 6 : 5;
        } else {
            out[o++] = *s++;
        }
    }
    out[o < cap ? o : cap - 1] = '\0';
}

/* The explain settings in a fresh directory: dir, and the file's path. */
static void explain_setup(char *dir, size_t dcap, char *path, size_t pcap)
{
    char text[1024], names[600];

    t_tmpdir_make(dir, dcap, "idng-explain");
    snprintf(names, sizeof names, "%s/names.txt", dir);
    t_spew_str(names, "# ours\nbank.example\n");
    substitute(explain_conf, "", dir, text, sizeof text);
    write_conf(dir, text, path, pcap);
}

/* Each case twice: with --conf, and with $IDNGUARD_CONF naming the file
 * (the file the module reads) and no --conf. */
START_TEST(test_explain)
{
    const struct explain_case *c = &explain_cases[_i / 2];
    char dir[256], path[300], want[9][1024];
    const char *args[5] = {"explain", "--conf", path, c->item, NULL};
    const char *lines[10];
    run_result r;
    size_t k;

    explain_setup(dir, sizeof dir, path, sizeof path);
    if (_i % 2) {
        ck_assert(setenv("IDNGUARD_CONF", path, 1) == 0);
        args[1] = c->item;
        args[2] = NULL;
    }
    run_cli(args, "", 0, &r);
    unsetenv("IDNGUARD_CONF");
    for (k = 0; k < 9 && c->lines[k]; k++) {
        substitute(c->lines[k], path, dir, want[k], sizeof want[k]);
        lines[k] = want[k];
    }
    lines[k] = NULL;
    t_tmpdir_remove(dir);
    ck_assert_msg(r.status == c->status,
                  "%s: exit status %d, expected %d (stdout \"%s\", "
                  "stderr \"%s\")",
                  c->name, r.status, c->status, r.out, r.err);
    expect_lines(c->name, r.out, r.out_len, lines);
    ck_assert_msg(r.err_len == 0, "%s: unexpected stderr \"%s\"", c->name, r.err);
    run_free(&r);
}
END_TEST

/* Several names: a blank line between them; JSON: one object a name. */
START_TEST(test_explain_many)
{
    char dir[256], path[300], want[600];
    const char *args[5] = {"explain", "--conf", path, NULL, NULL};
    run_result r;

    explain_setup(dir, sizeof dir, path, sizeof path);
    run_cli(args, "example.com\na..b\nwww.blocked.example\n", 37, &r);
    ck_assert_msg(r.status == 1, "exit status %d", r.status);
    ck_assert_msg(strncmp(r.out, "name: example.com.\n", 19) == 0, "%s", r.out);
    ck_assert_msg(strstr(r.out, "\nlog: - example.com. A IN NOERROR ok pass resolved\n\n"
                                "ERROR empty-label: empty label\n\nname: www.blocked.example.\n")
                      != NULL,
                  "%s", r.out);
    run_free(&r);
    args[3] = "--format=json";
    run_cli(args, "xn--pypal-4ve.com\nexample.com\n", 30, &r);
    ck_assert_int_eq(r.status, 1);
    ck_assert_uint_eq(count_lines(r.out, r.out_len), 2);
    snprintf(want, sizeof want,
             "\"like\":\"paypal.com.\",\"like_origin\":\"protect\\u0020at\\u0020%s:2\","
             "\"rule\":\"on-confusable\",\"entry\":null,\"origin\":\"default\"",
             path);
    ck_assert_msg(strstr(r.out, want) != NULL, "%s does not hold %s", r.out, want);
    {
        static const char head[] = "{\"input\":\"xn--pypal-4ve.com\",\"status\":\"rejected\",";
        ck_assert_msg(strncmp(r.out, head, sizeof head - 1) == 0, "%s", r.out);
    }
    run_free(&r);
    t_tmpdir_remove(dir);
}
END_TEST

/* A settings file that does not load, none at all, and usage errors: exit
 * status 2, nothing judged. */
START_TEST(test_explain_errors)
{
    char dir[256], path[300];
    const char *args[5] = {"explain", "--conf", path, "example.com", NULL};
    const char *noconf[3] = {"explain", "example.com", NULL};
    const char *frob[4] = {"explain", "--frob", "example.com", NULL};
    const char *tsv[4] = {"explain", "--format=tsv", "example.com", NULL};
    run_result r;

    t_tmpdir_make(dir, sizeof dir, "idng-explain");
    snprintf(path, sizeof path, "%s/none.conf", dir);
    run_cli(args, "", 0, &r);
    ck_assert_msg(r.status == 2 && r.out_len == 0 && strncmp(r.err, path, strlen(path)) == 0
                      && strstr(r.err, ": cannot open: ") != NULL,
                  "status %d, stderr \"%s\"", r.status, r.err);
    run_free(&r);
    /* $IDNGUARD_CONF names the file, as for the module. */
    ck_assert(setenv("IDNGUARD_CONF", path, 1) == 0);
    run_cli(noconf, "", 0, &r);
    unsetenv("IDNGUARD_CONF");
    ck_assert_msg(r.status == 2 && r.out_len == 0 && strncmp(r.err, path, strlen(path)) == 0,
                  "status %d, stderr \"%s\"", r.status, r.err);
    run_free(&r);
    write_conf(dir, "idnguard:\n    on-bidi: reject\n", path, sizeof path);
    run_cli(args, "", 0, &r);
    ck_assert_msg(r.status == 2 && r.out_len == 0 && strstr(r.err, ":2: bad value 'reject'"),
                  "status %d, stderr \"%s\"", r.status, r.err);
    run_free(&r);
    t_tmpdir_remove(dir);
    run_cli(frob, "", 0, &r);
    ck_assert_msg(r.status == 2 && r.out_len == 0
                      && strstr(r.err, "idnguard explain: unknown option '--frob'"),
                  "status %d, stderr \"%s\"", r.status, r.err);
    run_free(&r);
    run_cli(tsv, "", 0, &r);
    ck_assert_msg(r.status == 2 && r.out_len == 0 && strstr(r.err, "--format=tsv"),
                  "status %d, stderr \"%s\"", r.status, r.err);
    run_free(&r);
}
END_TEST

/* The JSON value of key in line (a string with its quotes, or null): the
 * first one, which in both commands' objects is the name's own. */
static void json_value(const char *line, const char *key, char *out, size_t cap)
{
    char k[64];
    const char *at, *end;

    snprintf(k, sizeof k, ",\"%s\":", key);
    at = strstr(line, k);
    ck_assert_msg(at != NULL, "no %s in %s", key, line);
    at += strlen(k);
    if (*at == '"') {
        for (end = at + 1; *end && !(*end == '"' && end[-1] != '\\'); end++)
            ;
        end++;
    } else {
        end = at + strcspn(at, ",}");
    }
    ck_assert((size_t)(end - at) < cap);
    memcpy(out, at, (size_t)(end - at));
    out[end - at] = '\0';
}

/* check --conf and explain say the same of every name: the judgment is one
 * call.  The browser cases' hosts (tests/core/data), their top domains
 * protected, and raw UTF-8 spellings of some. */
START_TEST(test_explain_agrees_with_check)
{
    static const char *const keys[] = {"status",    "action",    "class", "label", "message",
                                       "codepoint", "lookalike", "like",  "ede"};
    char dir[256], path[300], cwd[512], text[1024];
    const char *check_args[6] = {"check", "--conf", path, "--format=json", NULL};
    const char *explain_args[6] = {"explain", "--conf", path, "--format=json", NULL};
    buf in = {NULL, 0, 0};
    char *cases = t_slurp("tests/core/data/browser_idn_cases.txt", NULL), *line, *save = NULL;
    run_result rc, re;
    const char *pc, *pe;
    size_t n = 0, k;

    ck_assert_msg(cases != NULL, "tests/core/data/browser_idn_cases.txt (run from the "
                                 "repository root)");
    ck_assert(getcwd(cwd, sizeof cwd) != NULL);
    t_tmpdir_make(dir, sizeof dir, "idng-explain");
    snprintf(text, sizeof text,
             "idnguard:\n    protect-file: %s/tests/core/data/browser_top_domains.txt\n"
             "    deny: xn--80ak6aa92e.com\n    allow: xn--bcher-kva.de\n",
             cwd);
    write_conf(dir, text, path, sizeof path);
    for (line = strtok_r(cases, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *host, *tab;
        if (line[0] == '#' || (tab = strchr(line, '\t')) == NULL)
            continue;
        host = tab + 1;
        if ((tab = strchr(host, '\t')) != NULL)
            *tab = '\0';
        buf_printf(&in, "%s\n", host);
        n++;
    }
    free(cases);
    buf_printf(&in, "%s",
               "b\xc3\xbc"
               "cher.de\np\xd0\xb0ypal.com\nwww.\xd0\xb0pple.com\n");
    n += 3;
    ck_assert_uint_ge(n, 300);
    run_cli(check_args, in.data, in.len, &rc);
    run_cli(explain_args, in.data, in.len, &re);
    t_tmpdir_remove(dir);
    ck_assert_int_eq(rc.status, re.status);
    ck_assert_uint_eq(count_lines(rc.out, rc.out_len), n);
    ck_assert_uint_eq(count_lines(re.out, re.out_len), n);
    for (pc = rc.out, pe = re.out; *pc; pc = strchr(pc, '\n') + 1, pe = strchr(pe, '\n') + 1) {
        char lc[8192], le[16384], vc[4096], ve[4096];
        size_t nc = (size_t)(strchr(pc, '\n') - pc), ne = (size_t)(strchr(pe, '\n') - pe);
        ck_assert(nc < sizeof lc && ne < sizeof le);
        memcpy(lc, pc, nc);
        lc[nc] = '\0';
        memcpy(le, pe, ne);
        le[ne] = '\0';
        if (strstr(lc, "\"status\":\"error\"")) { /* no name: the same error object */
            ck_assert_str_eq(lc, le);
            continue;
        }
        for (k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            json_value(lc, keys[k], vc, sizeof vc);
            json_value(le, keys[k], ve, sizeof ve);
            ck_assert_msg(strcmp(vc, ve) == 0, "%s: check says %s, explain %s\n  %s\n  %s", keys[k],
                          vc, ve, lc, le);
        }
    }
    free(in.data);
    run_free(&rc);
    run_free(&re);
}
END_TEST

static Suite *cli_explain_suite(void)
{
    Suite *s = suite_create("cli_explain");
    TCase *tc;

    if (cli_bin_missing(s, "test_cli_explain"))
        return s;

    tc = tcase_create("explain");
    tcase_add_loop_test(tc, test_explain, 0, 2 * N_OF(explain_cases));
    tcase_add_test(tc, test_explain_many);
    tcase_add_test(tc, test_explain_errors);
    tcase_add_test(tc, test_explain_agrees_with_check);
    suite_add_tcase(s, tc);

    return s;
}

IDNG_TEST_MAIN(cli_explain_suite)
