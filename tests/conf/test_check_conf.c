/**
 * \file
 * Tests of `idnguard check-conf`: the real binary ($IDNGUARD_BIN, else
 * build/idnguard) on golden files from tests/conf/data, exit statuses,
 * the default path and usage errors.  Run from the repository root.
 */
#include "common.h"
#include "idng_conf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define MAX_ARGS 6

struct run {
    int status; /**< exit status, or -1 if killed */
    char *out, *err;
};

static const char *bin(void)
{
    const char *b = getenv("IDNGUARD_BIN");
    return b != NULL && b[0] != '\0' ? b : "build/idnguard";
}

static const char *data_dir(void)
{
    const char *d = getenv("CONF_TEST_DATA");
    return d != NULL && d[0] != '\0' ? d : "tests/conf/data";
}

static char *slurp_fd(int fd)
{
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        ssize_t r;
        if (n + 1 >= cap) {
            cap = cap ? 2 * cap : 4096;
            buf = realloc(buf, cap);
            ck_assert(buf != NULL);
        }
        r = read(fd, buf + n, cap - n - 1);
        if (r < 0 && errno == EINTR)
            continue;
        ck_assert(r >= 0);
        if (r == 0)
            break;
        n += (size_t)r;
    }
    buf[n] = '\0';
    return buf;
}

/* Runs "idnguard check-conf ARGS" with stdout and stderr in temporary files
 * (no pipes, so a full pipe can never stall the test). */
static void run(const char *const *args, const char *env_conf, struct run *r)
{
    char outp[] = "/tmp/idng-cc-out-XXXXXX", errp[] = "/tmp/idng-cc-err-XXXXXX";
    int out = mkstemp(outp), err = mkstemp(errp), st;
    const char *argv[MAX_ARGS + 3];
    pid_t pid;
    int i;

    ck_assert(out >= 0 && err >= 0);
    argv[0] = bin();
    argv[1] = "check-conf";
    for (i = 0; args[i] != NULL; i++)
        argv[i + 2] = args[i];
    argv[i + 2] = NULL;
    pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        if (env_conf != NULL)
            setenv(IDNG_CONF_ENV, env_conf, 1);
        else
            unsetenv(IDNG_CONF_ENV);
        dup2(devnull, 0);
        dup2(out, 1);
        dup2(err, 2);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    ck_assert(waitpid(pid, &st, 0) == pid);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    lseek(out, 0, SEEK_SET);
    lseek(err, 0, SEEK_SET);
    r->out = slurp_fd(out);
    r->err = slurp_fd(err);
    close(out);
    close(err);
    unlink(outp);
    unlink(errp);
    ck_assert_msg(r->status != 127, "cannot run %s (set IDNGUARD_BIN, run make all)", bin());
}

static void run_free(struct run *r)
{
    free(r->out);
    free(r->err);
}

static char *slurp(const char *path)
{
    int fd = open(path, O_RDONLY);
    char *s;
    ck_assert_msg(fd >= 0, "cannot open %s", path);
    s = slurp_fd(fd);
    close(fd);
    return s;
}

/* Writes text to dir/name; returns the path in out. */
static void put_file(const char *dir, const char *name, const char *text, char *out, size_t cap)
{
    snprintf(out, cap, "%s/%s", dir, name);
    t_spew_str(out, text);
}

/* Takes "  # FILE:LINE" off the end of every line of out that has one for
 * file: what is left is idng_conf_write's text.  Returns how many it took. */
static int strip_origins(char *out, const char *file)
{
    char note[600];
    size_t n = (size_t)snprintf(note, sizeof note, "  # %s:", file);
    char *at, *end;
    int k = 0;

    while ((at = strstr(out, note)) != NULL) {
        for (end = at + n; *end >= '0' && *end <= '9'; end++)
            ;
        ck_assert_msg(*end == '\n' && end > at + n, "a note that is not FILE:LINE: %s", at);
        memmove(at, end, strlen(end) + 1);
        k++;
    }
    return k;
}

/* Every problem of the file is reported, one a line with its own
 * file:line:, not only the first. */
START_TEST(test_every_error_reported)
{
    char dir[256], path[512];
    const char *args[2] = {NULL, NULL};
    struct run r;

    t_tmpdir_make(dir, sizeof dir, "idng-cc-all");
    put_file(dir, "bad.conf",
             "idnguard:\n    mode: utf46\n    on-invalid: refuse\n    on-bidi: reject\n"
             "    log-level: 2\n    stats-interval: 1h\n",
             path, sizeof path);
    args[0] = path;
    run(args, NULL, &r);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "bad.conf:2: bad value 'utf46' for 'mode'")
                      && strstr(r.err, "bad.conf:4: bad value 'reject' for 'on-bidi'")
                      && strstr(r.err, "bad.conf:5: unknown key 'log-level'")
                      && strstr(r.err, "bad.conf:6: bad value '1h' for 'stats-interval'"),
                  "stderr: %s", r.err);
    ck_assert_msg(r.out[0] == '\0', "settings printed for a bad file: %s", r.out);
    run_free(&r);
    t_tmpdir_remove(dir);
}
END_TEST

/* What the daemon would trip over when it opens its files: a log-file in a
 * missing directory, a FIFO, a directory; a stats-file likewise. */
START_TEST(test_paths_checked)
{
    static const struct {
        const char *setting, *says;
    } cases[] = {
        {"log-file: \"%s/nodir/q.log\"", "its directory '%s/nodir' does not exist"},
        {"log-file: \"%s/fifo\"", "is a FIFO, not a regular file"},
        {"stats-file: \"%s/sub\"", "is a directory, not a regular file"},
        {"stats-file: \"%s/file/x.prom\"", "is not a directory"},
    };
    char dir[256], path[512], text[1024], setting[600], says[600], p2[512];
    const char *args[2] = {NULL, NULL};
    struct run r;

    t_tmpdir_make(dir, sizeof dir, "idng-cc-path");
    snprintf(p2, sizeof p2, "%s/fifo", dir);
    ck_assert_int_eq(mkfifo(p2, 0600), 0);
    snprintf(p2, sizeof p2, "%s/sub", dir);
    ck_assert_int_eq(mkdir(p2, 0700), 0);
    put_file(dir, "file", "x", p2, sizeof p2);
    snprintf(setting, sizeof setting, cases[_i].setting, dir);
    snprintf(says, sizeof says, cases[_i].says, dir);
    snprintf(text, sizeof text, "idnguard:\n    %s\n", setting);
    put_file(dir, "p.conf", text, path, sizeof path);
    args[0] = path;
    run(args, NULL, &r);
    ck_assert_msg(r.status == 1 && strstr(r.err, "p.conf:2: ") && strstr(r.err, says),
                  "%s: status %d, stderr %s", setting, r.status, r.err);
    run_free(&r);
    t_tmpdir_remove(dir);
}
END_TEST

/* The paths are checked for the daemon's user: --user=NAME (here nobody,
 * who may not write into a 0700 directory of someone else's). */
START_TEST(test_paths_checked_as_user)
{
    char dir[256], path[512], text[700];
    const char *args[3] = {NULL, NULL, NULL};
    struct run r;

    t_tmpdir_make(dir, sizeof dir, "idng-cc-user");
    ck_assert_int_eq(chmod(dir, 0700), 0);
    snprintf(text, sizeof text, "idnguard:\n    log-file: \"%s/q.log\"\n", dir);
    put_file(dir, "u.conf", text, path, sizeof path);
    args[0] = "--user=nobody";
    args[1] = path;
    run(args, NULL, &r);
    ck_assert_msg(r.status == 1 && strstr(r.err, "u.conf:2: log-file '")
                      && strstr(r.err, "is not writable (by user nobody)"),
                  "status %d, stderr %s", r.status, r.err);
    run_free(&r);
    args[0] = "--user=no-such-user-here";
    run(args, NULL, &r);
    ck_assert_msg(r.status == 2 && strstr(r.err, "no user 'no-such-user-here'"), "stderr %s",
                  r.err);
    run_free(&r);
    t_tmpdir_remove(dir);
}
END_TEST

/* The protect-file must be readable by the daemon's user, who reads it again
 * at every reload: a 0600 file of ours is not, for nobody (it is for us). */
START_TEST(test_protect_file_readable_by_user)
{
    char dir[256], path[512], names[512], text[1200];
    const char *args[3] = {NULL, NULL, NULL};
    struct run r;

    t_tmpdir_make(dir, sizeof dir, "idng-cc-prot");
    ck_assert_int_eq(chmod(dir, 0755), 0);
    put_file(dir, "protected.txt", "paypal.example\n", names, sizeof names);
    ck_assert_int_eq(chmod(names, 0600), 0);
    snprintf(text, sizeof text, "idnguard:\n    protect-file: \"%s\"\n", names);
    put_file(dir, "p.conf", text, path, sizeof path);
    args[0] = path;
    run(args, NULL, &r);
    ck_assert_msg(r.status == 0 && strstr(r.out, "protect-file: \""), "status %d, stderr %s",
                  r.status, r.err);
    run_free(&r);
    if (getuid() == 0) {
        args[0] = "--user=nobody";
        args[1] = path;
        run(args, NULL, &r);
        ck_assert_msg(r.status == 1 && strstr(r.err, "p.conf:2: protect-file '")
                          && strstr(r.err, "is not readable (by user nobody)"),
                      "status %d, stderr %s", r.status, r.err);
        run_free(&r);
    }
    t_tmpdir_remove(dir);
}
END_TEST

/* A list entry that is an IPv4 address written as a name: a warning, and
 * the file still loads. */
START_TEST(test_address_in_list_warned)
{
    char dir[256], path[512];
    const char *args[2] = {NULL, NULL};
    struct run r;

    t_tmpdir_make(dir, sizeof dir, "idng-cc-warn");
    put_file(dir, "w.conf", "idnguard:\n    deny: 192.0.2.1\n    deny: 192.example\n", path,
             sizeof path);
    args[0] = path;
    run(args, NULL, &r);
    ck_assert_msg(r.status == 0 && strstr(r.out, "deny: 192.0.2.1.")
                      && strstr(r.err, "w.conf:2: warning: deny name '192.0.2.1.' looks like an "
                                       "IPv4 address")
                      && !strstr(r.err, ":3:"),
                  "status %d, stderr %s", r.status, r.err);
    run_free(&r);
    t_tmpdir_remove(dir);
}
END_TEST

/* The effective settings of a file and what it includes, each line that a
 * file set followed by that file and line; the default ones by nothing. */
START_TEST(test_origins_shown)
{
    char dir[256], path[512], local[512], text[1024], want[1400];
    const char *args[2] = {NULL, NULL};
    struct run r;

    t_tmpdir_make(dir, sizeof dir, "idng-cc-inc");
    put_file(dir, "local.conf", "idnguard:\n    on-invalid: log\n    allow: b.example\n", local,
             sizeof local);
    snprintf(text, sizeof text,
             "idnguard:\n    on-invalid: refuse\n    allow: a.example\n    include: %s\n",
             local);
    put_file(dir, "main.conf", text, path, sizeof path);
    args[0] = path;
    run(args, NULL, &r);
    ck_assert_msg(r.status == 0, "status %d, stderr %s", r.status, r.err);
    snprintf(want, sizeof want, "\n    on-invalid: log  # %s:2\n    on-too-long: log\n", local);
    ck_assert_msg(strstr(r.out, want) != NULL, "%s", r.out);
    snprintf(want, sizeof want, "\n    allow: a.example.  # %s:3\n    allow: b.example.  # %s:3\n",
             path, local);
    ck_assert_msg(strstr(r.out, want) != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "\n    mode: uts46\n") != NULL, "%s", r.out);
    ck_assert_int_eq(strip_origins(r.out, path), 1);
    ck_assert_int_eq(strip_origins(r.out, local), 2);
    ck_assert_msg(strstr(r.out, ":3\n") == NULL && strstr(r.out, ":2\n") == NULL, "%s", r.out);
    run_free(&r);
    t_tmpdir_remove(dir);
}
END_TEST

START_TEST(test_bin_exists)
{
    ck_assert_msg(access(bin(), X_OK) == 0, "%s is not there; run 'make all' or set IDNGUARD_BIN",
                  bin());
}
END_TEST

/* A valid file: the effective settings on stdout, exactly as the golden
 * file has them; an invalid one: the golden error line on stderr. */
struct golden_case {
    const char *name;
    int status;
};

static const struct golden_case golden_cases[] = {
    {"01_defaults", 0},      {"02_every_key", 0},      {"08_names", 0},
    {"12_quoted_escapes", 0}, {"18_duplicate_key", 1}, {"35_nul_byte", 1},
    {"20_empty_file", 1},    {"53_idn_settings", 0},   {"54_bad_idn_script", 1},
};

START_TEST(test_golden)
{
    const struct golden_case *c = &golden_cases[_i];
    char in[512], outp[512], *want;
    const char *args[2];
    struct run r;

    /* The message names the file as given, so give the golden name. */
    snprintf(in, sizeof in, "%s/%s.in", data_dir(), c->name);
    snprintf(outp, sizeof outp, "%s/%s.out", data_dir(), c->name);
    want = slurp(outp);
    args[0] = in;
    args[1] = NULL;
    run(args, NULL, &r);
    ck_assert_msg(r.status == c->status, "%s: exit %d, expected %d (stderr: %s)", c->name,
                  r.status, c->status, r.err);
    if (c->status == 0) {
        /* Each line a line of the file set says which (the golden file is
         * idng_conf_write's text, without them). */
        strip_origins(r.out, in);
        ck_assert_str_eq(r.out, want);
        ck_assert_str_eq(r.err, "");
    } else {
        /* want is "NAME.in:LINE: ...", the error "DIR/NAME.in:LINE: ...". */
        size_t dl = strlen(data_dir()) + 1;
        ck_assert_str_eq(r.out, "");
        ck_assert_msg(strncmp(r.err, in, dl) == 0 && strcmp(r.err + dl, want) == 0,
                      "%s: stderr \"%s\", expected \"%s/%s\"", c->name, r.err, data_dir(), want);
    }
    free(want);
    run_free(&r);
}
END_TEST

START_TEST(test_default_path)
{
    char in[512], *want;
    const char *none[] = {NULL};
    struct run r;

    /* $IDNGUARD_CONF names the file when no FILE is given. */
    snprintf(in, sizeof in, "%s/02_every_key.in", data_dir());
    snprintf(in + strlen(in) - 3, 5, ".out");
    want = slurp(in);
    snprintf(in, sizeof in, "%s/02_every_key.in", data_dir());
    run(none, in, &r);
    ck_assert_int_eq(r.status, 0);
    strip_origins(r.out, in);
    ck_assert_str_eq(r.out, want);
    run_free(&r);
    free(want);

    /* Set but empty, or unset: the default path, whatever state it is in
     * on this machine. */
    run(none, "", &r);
    if (r.status != 0) {
        ck_assert_int_eq(r.status, 1);
        ck_assert_msg(strncmp(r.err, IDNG_CONF_DEFAULT_PATH ":", strlen(IDNG_CONF_DEFAULT_PATH) + 1)
                          == 0,
                      "stderr \"%s\" does not name " IDNG_CONF_DEFAULT_PATH, r.err);
    }
    run_free(&r);
}
END_TEST

START_TEST(test_missing_file)
{
    const char *args[] = {"/nonexistent/idnguard.conf", NULL};
    struct run r;

    run(args, NULL, &r);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.out, "");
    ck_assert_msg(strncmp(r.err, "/nonexistent/idnguard.conf: cannot open: ", 41) == 0, "%s",
                  r.err);
    run_free(&r);
}
END_TEST

struct usage_case {
    const char *name;
    const char *args[MAX_ARGS + 1];
    int status;
    const char *out_has, *err_has; /**< substrings, NULL = must be empty */
};

static const struct usage_case usage_cases[] = {
    {"two files", {"a.conf", "b.conf"}, 2, NULL, "one FILE at most"},
    {"unknown option", {"--frob"}, 2, NULL, "unknown option '--frob'"},
    {"short option", {"-x", "a.conf"}, 2, NULL, "unknown option '-x'"},
    {"help", {"--help"}, 0, "usage: idnguard check-conf [OPTIONS] [FILE]", NULL},
    {"help lists --user", {"--help"}, 0, "--user=NAME", NULL},
    {"after --", {"--", "-x.conf"}, 1, NULL, "-x.conf: cannot open: "},
    /* Options anywhere before "--": --help after the file is --help. */
    {"file then --help", {"a.conf", "--help"}, 0, "usage: idnguard check-conf", NULL},
    {"file then unknown option", {"a.conf", "-x"}, 2, NULL, "unknown option '-x'"},
};

START_TEST(test_usage)
{
    const struct usage_case *c = &usage_cases[_i];
    struct run r;

    run(c->args, NULL, &r);
    ck_assert_msg(r.status == c->status, "%s: exit %d, expected %d", c->name, r.status,
                  c->status);
    if (c->out_has != NULL)
        ck_assert_msg(strstr(r.out, c->out_has) != NULL, "%s: stdout \"%s\"", c->name, r.out);
    else
        ck_assert_msg(r.out[0] == '\0', "%s: unexpected stdout \"%s\"", c->name, r.out);
    if (c->err_has != NULL)
        ck_assert_msg(strstr(r.err, c->err_has) != NULL, "%s: stderr \"%s\"", c->name, r.err);
    else
        ck_assert_msg(r.err[0] == '\0', "%s: unexpected stderr \"%s\"", c->name, r.err);
    run_free(&r);
}
END_TEST

static Suite *check_conf_suite(void)
{
    Suite *s = suite_create("check-conf");
    TCase *tc = tcase_create("cli");

    tcase_add_test(tc, test_bin_exists);
    tcase_add_loop_test(tc, test_golden, 0, N_OF(golden_cases));
    tcase_add_test(tc, test_default_path);
    tcase_add_test(tc, test_origins_shown);
    tcase_add_test(tc, test_every_error_reported);
    tcase_add_loop_test(tc, test_paths_checked, 0, 4);
    tcase_add_test(tc, test_address_in_list_warned);
    tcase_add_test(tc, test_paths_checked_as_user);
    tcase_add_test(tc, test_protect_file_readable_by_user);
    tcase_add_test(tc, test_missing_file);
    tcase_add_loop_test(tc, test_usage, 0, N_OF(usage_cases));
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(check_conf_suite)
