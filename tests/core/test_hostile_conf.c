/**
 * \file
 * Hostile settings files, each a named regression test (the module core's
 * hostile names are test_hostile_names.c's): empty, binary garbage,
 * executables, very long lines, unterminated quotes, duplicate keys,
 * directories, unreadable files, devices, loops: a clear "path: message" or
 * "path:line: message" each.
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS, symlink, memmem */

#include "common.h"
#include "hostile_check.h"
#include "idng_log.h"
#include "idng_policy.h"
#include "idng_conf.h"
#include "idnguard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------------------ */
/* Settings files                                                            */

static char tmpdir[256];

static void make_tmpdir(void)
{
    t_tmpdir_make(tmpdir, sizeof tmpdir, "idng-hostile");
}

static void remove_tmpdir(void)
{
    t_tmpdir_remove(tmpdir);
}

/* Loading path fails; the report is one problem a line, each line begins
 * with path and ":" and is printable ASCII; it holds want (when not NULL);
 * the settings are untouched.  Returns the report in err. */
static void expect_clear_error(const char *path, const char *want, char *err, size_t cap)
{
    struct idng_conf c, before;
    size_t pl = strlen(path);
    const char *bad;

    idng_conf_init(&c);
    memcpy(&before, &c, sizeof c);
    ck_assert_msg(idng_conf_load(&c, path, err, cap) == -1, "%s loaded", path);
    {
        const char *l = err;
        for (;;) {
            const char *nl = strchr(l, '\n');
            size_t n = nl ? (size_t)(nl - l) : strlen(l);
            ck_assert_msg(strncmp(l, path, pl) == 0 && l[pl] == ':' && n > pl + 3,
                          "%s: report line \"%.*s\" does not name the file", path, (int)n, l);
            bad = ascii_clean(l, n);
            ck_assert_msg(bad == NULL, "%s: report holds %s: %.*s", path, bad, (int)n, l);
            if (!nl)
                break;
            l = nl + 1;
        }
    }
    if (want)
        ck_assert_msg(strstr(err, want) != NULL, "%s: \"%s\" does not say \"%s\"", path, err, want);
    ck_assert(memcmp(&c, &before, sizeof c) == 0);
}

START_TEST(test_conf_executable_is_not_a_settings_file)
{
    char err[1024], path[600];
    /* A likely mistake: IDNGUARD_CONF pointing at a binary. */
    expect_clear_error("/bin/sh", NULL, err, sizeof err);
    make_tmpdir();
    snprintf(path, sizeof path, "%s/gzip.conf", tmpdir);
    t_spew(path, BYTES("\037\213\010\000\000\000\000\000\000\003idnguard"));
    expect_clear_error(path, NULL, err, sizeof err);
    snprintf(path, sizeof path, "%s/utf16.conf", tmpdir);
    t_spew(path, BYTES("\377\376i\000d\000n\000g\000u\000a\000r\000d\000:\000\n\000"));
    expect_clear_error(path, NULL, err, sizeof err);
    remove_tmpdir();
}
END_TEST

START_TEST(test_conf_garbage_after_clause_names_its_line)
{
    char err[1024], path[600], want[64];
    static const char text[] = "idnguard:\n  mode: uts46\n\033[2J\033[H\n  ede: yes\n";
    make_tmpdir();
    snprintf(path, sizeof path, "%s/escape.conf", tmpdir);
    t_spew(path, BYTES(text));
    snprintf(want, sizeof want, ":3:");
    expect_clear_error(path, want, err, sizeof err);
    remove_tmpdir();
}
END_TEST

START_TEST(test_conf_one_line_of_a_megabyte)
{
    char err[1024], path[600];
    char *big = malloc(IDNG_CONF_FILE_MAX);
    ck_assert(big != NULL);
    make_tmpdir();
    /* The clause, then one line of (almost) the whole file, no newline. */
    memset(big, 'a', IDNG_CONF_FILE_MAX);
    memcpy(big, "idnguard:\n  allow: ", 19);
    snprintf(path, sizeof path, "%s/longline.conf", tmpdir);
    t_spew(path, big, IDNG_CONF_FILE_MAX);
    expect_clear_error(path, ":2:", err, sizeof err);
    ck_assert_msg(strlen(err) < 300, "the message quotes the whole line: %zu octets", strlen(err));
    /* The same in a comment, and inside quotes. */
    memcpy(big, "idnguard:\n# ", 12);
    t_spew(path, big, IDNG_CONF_FILE_MAX);
    expect_clear_error(path, ":2:", err, sizeof err);
    memcpy(big, "idnguard:\n  log-file: \"/", 24);
    t_spew(path, big, IDNG_CONF_FILE_MAX);
    expect_clear_error(path, ":2:", err, sizeof err);
    free(big);
    remove_tmpdir();
}
END_TEST

START_TEST(test_conf_unterminated_quote_at_end_of_file)
{
    char err[1024], path[600];
    make_tmpdir();
    snprintf(path, sizeof path, "%s/quote.conf", tmpdir);
    t_spew(path, BYTES("idnguard:\n  log-file: \"/var/log/x"));
    expect_clear_error(path, ":2:", err, sizeof err);
    t_spew(path, BYTES("idnguard:\n  deny: \"a.example\n  allow: b.example\"\n"));
    expect_clear_error(path, ":2:", err, sizeof err);
    t_spew(path, BYTES("idnguard:\n  mode: \"uts46\\\"\n"));
    expect_clear_error(path, ":2:", err, sizeof err);
    remove_tmpdir();
}
END_TEST

START_TEST(test_conf_duplicate_keys_any_spelling)
{
    char err[1024], path[600];
    make_tmpdir();
    snprintf(path, sizeof path, "%s/dup.conf", tmpdir);
    t_spew(path, BYTES("idnguard:\n  mode: uts46\n  ede: no\n  mode: \"uts46\"\n"));
    expect_clear_error(path, ":4:", err, sizeof err);
    t_spew(path, BYTES("idnguard:\n  on-bidi: log\n\tmode: punycode\n  on-bidi: log\n"));
    expect_clear_error(path, ":4:", err, sizeof err);
    remove_tmpdir();
}
END_TEST

START_TEST(test_conf_directory_symlink_device_loop)
{
    char err[1024], path[600], link[600];
    make_tmpdir();
    /* A directory, with and without a trailing slash, and through a link. */
    snprintf(path, sizeof path, "%s/", tmpdir);
    expect_clear_error(path, "directory", err, sizeof err);
    snprintf(link, sizeof link, "%s/dirlink", tmpdir);
    ck_assert_int_eq(symlink(tmpdir, link), 0);
    expect_clear_error(link, "directory", err, sizeof err);
    /* Devices: one endless, one empty; neither hangs. */
    expect_clear_error("/dev/zero", "not a regular file", err, sizeof err);
    expect_clear_error("/dev/null", "not a regular file", err, sizeof err);
    /* A symlink loop, a dangling link, a path through a file. */
    snprintf(link, sizeof link, "%s/loop", tmpdir);
    ck_assert_int_eq(symlink(link, link), 0);
    expect_clear_error(link, strerror(ELOOP), err, sizeof err);
    snprintf(link, sizeof link, "%s/dangling", tmpdir);
    snprintf(path, sizeof path, "%s/nowhere", tmpdir);
    ck_assert_int_eq(symlink(path, link), 0);
    expect_clear_error(link, strerror(ENOENT), err, sizeof err);
    snprintf(path, sizeof path, "%s/file.conf", tmpdir);
    t_spew(path, BYTES("idnguard:\n"));
    snprintf(link, sizeof link, "%s/file.conf/child", tmpdir);
    expect_clear_error(link, strerror(ENOTDIR), err, sizeof err);
    remove_tmpdir();
}
END_TEST

START_TEST(test_conf_path_too_long)
{
    char err[10000];
    char *path = malloc(8192);
    ck_assert(path != NULL);
    memset(path, 'a', 8191);
    path[0] = '/';
    path[8191] = '\0';
    {
        struct idng_conf c;
        idng_conf_init(&c);
        ck_assert_int_eq(idng_conf_load(&c, path, err, sizeof err), -1);
        ck_assert_msg(strstr(err, strerror(ENAMETOOLONG)) != NULL, "%s", err);
        ck_assert_msg(strlen(err) < sizeof err, "message not terminated");
    }
    free(path);
}
END_TEST

/*
 * An unreadable file gives "cannot open: Permission denied".  The suites
 * run as root, which reads any file, so the load runs in a child that
 * gave up root first (to nobody); without root this is the plain case.
 */
START_TEST(test_conf_unreadable_file_even_when_run_as_root)
{
    char path[600], err[1024];
    int fds[2], st;
    pid_t pid;
    ssize_t got;

    make_tmpdir();
    ck_assert_int_eq(chmod(tmpdir, 0755), 0);
    snprintf(path, sizeof path, "%s/secret.conf", tmpdir);
    t_spew(path, BYTES("idnguard:\n"));
    ck_assert_int_eq(chmod(path, 0), 0);
    ck_assert_int_eq(pipe(fds), 0);
    pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        struct idng_conf c;
        int rc;
        close(fds[0]);
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(3);
        idng_conf_init(&c);
        rc = idng_conf_load(&c, path, err, sizeof err);
        if (write(fds[1], err, strlen(err) + 1) < 0)
            _exit(4);
        _exit(rc == -1 ? 0 : 1);
    }
    close(fds[1]);
    got = read(fds[0], err, sizeof err - 1);
    close(fds[0]);
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    err[got > 0 ? got : 0] = '\0';
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %d, message \"%s\"", st,
                  err);
    ck_assert_msg(strncmp(err, path, strlen(path)) == 0 && strstr(err, strerror(EACCES)), "\"%s\"",
                  err);
    remove_tmpdir();
}
END_TEST

static Suite *hostile_conf_suite(void)
{
    Suite *s = suite_create("hostile settings files");
    TCase *tc;

    tc = tcase_create("settings files");
    tcase_add_test(tc, test_conf_executable_is_not_a_settings_file);
    tcase_add_test(tc, test_conf_garbage_after_clause_names_its_line);
    tcase_add_test(tc, test_conf_one_line_of_a_megabyte);
    tcase_add_test(tc, test_conf_unterminated_quote_at_end_of_file);
    tcase_add_test(tc, test_conf_duplicate_keys_any_spelling);
    tcase_add_test(tc, test_conf_directory_symlink_device_loop);
    tcase_add_test(tc, test_conf_path_too_long);
    tcase_add_test(tc, test_conf_unreadable_file_even_when_run_as_root);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(hostile_conf_suite)
