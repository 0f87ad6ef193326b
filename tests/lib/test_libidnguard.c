/**
 * \file
 * libidnguard as its hosts load it (build/libidnguard.so.0, through
 * lib/libidnguard.h; scripts/lib-exports.sh checks what it exports):
 * - idnguard_open_shared: a first load that fails returns NULL with the
 *   file's problems and a later call tries again; threads racing for the
 *   first load all get the one handle; a later call gets it whatever its
 *   path; its watch applies a changed settings file by itself;
 * - idnguard_scan_message: a clean response passes, a CNAME into a fake
 *   A-label is rejected with its EDE text, a message that cannot be read
 *   is rejected as a malformed name;
 * - it is never unloaded, its last dlclose notwithstanding;
 * - idnguard_action_named gives each action by its settings-file name (the
 *   python module takes the values from it), and -1 for any other name.
 * (That the header's enums are the core's numbers, lib/host.c asserts
 * when it is compiled.)
 */
#define _GNU_SOURCE /* dlmopen, dlinfo */
#include "common.h"
#include "libidnguard.h"
#include "tap/tap_build.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAKE "xn--ab-m1t"

/* AddressSanitizer supports no dlmopen (test_never_unloaded). */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

static char dir[512];

static void setup(void)
{
    t_tmpdir_make(dir, sizeof dir, "idng-lib");
}

static void teardown(void)
{
    t_tmpdir_remove(dir);
}

/* Writes text to dir/name through a new file renamed over it (a new
 * inode: what the watch sees as a change); its path into path. */
static void put_file(const char *name, const char *text, char *path, size_t cap)
{
    char tmp[600];

    snprintf(path, cap, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s.new", path);
    t_spew_str(tmp, text);
    ck_assert_int_eq(rename(tmp, path), 0);
}

/* The action idnguard_judge gives a text name. */
static int judge(void *h, const char *name)
{
    uint8_t w[256];
    size_t n = t_wire(name, w);
    void *v = calloc(1, idnguard_verdict_size());
    int a;

    ck_assert_ptr_nonnull(v);
    a = idnguard_judge(h, w, n, 0, v);
    free(v);
    return a;
}

struct racer {
    const char *path;
    void *h;
    char err[1024];
};

static void *race(void *arg)
{
    struct racer *r = arg;

    r->h = idnguard_open_shared(r->path, r->err, sizeof r->err);
    return NULL;
}

START_TEST(test_open_shared)
{
    char good[600], bad[600], err[1024];
    struct racer r[8];
    pthread_t th[8];
    void *h;
    int i;

    /* A first load that fails: NULL, and why. */
    put_file("bad.conf", "idnguard:\non-invalid: maybe\n", bad, sizeof bad);
    ck_assert_ptr_null(idnguard_open_shared(bad, err, sizeof err));
    ck_assert_msg(strstr(err, "bad.conf:2") != NULL, "err: %s", err);

    /* The next call tries again; threads racing for it get one handle. */
    put_file("good.conf", "idnguard:\nwatch-settings: yes\n", good, sizeof good);
    for (i = 0; i < 8; i++) {
        r[i].path = good;
        r[i].h = NULL;
        ck_assert_int_eq(pthread_create(&th[i], NULL, race, &r[i]), 0);
    }
    for (i = 0; i < 8; i++)
        ck_assert_int_eq(pthread_join(th[i], NULL), 0);
    h = r[0].h;
    ck_assert_ptr_nonnull(h);
    for (i = 0; i < 8; i++) {
        ck_assert_msg(r[i].h == h, "thread %d got another handle", i);
        ck_assert_msg(r[i].err[0] == '\0', "thread %d: %s", i, r[i].err);
    }

    /* Later calls get it, whatever their path. */
    ck_assert_ptr_eq(idnguard_open_shared(bad, err, sizeof err), h);
    ck_assert_str_eq(err, "");
    ck_assert_ptr_eq(idnguard_open_shared(NULL, err, sizeof err), h);

    /* Its watch applies a changed file by itself (a bounded poll). */
    ck_assert_int_eq(judge(h, "www.example.net."), IDNGUARD_PASS);
    put_file("good.conf", "idnguard:\nwatch-settings: yes\ndeny: example.net\n", good, sizeof good);
    for (i = 0; i < 200 && judge(h, "www.example.net.") == IDNGUARD_PASS; i++)
        t_sleep_ms(50);
    ck_assert_int_eq(judge(h, "www.example.net."), IDNGUARD_REFUSE);

    /* The line a host logs at the load, in the host's words; none for a
     * state that is no load's. */
    {
        char line[1024], want[1024], version[64], *unicode;
        snprintf(version, sizeof version, "%s", idnguard_version());
        unicode = strchr(version, ' ');
        ck_assert_ptr_nonnull(unicode);
        *unicode++ = '\0';
        snprintf(want, sizeof want,
                 "idnguard: loaded %s (mode uts46, Unicode %s; idnguard %s, lib test)", good,
                 unicode, version);
        ck_assert_uint_eq(idnguard_loaded_line(h, good, IDNGUARD_LOAD_FIRST, NULL, ", lib test",
                                               line, sizeof line),
                          strlen(want));
        ck_assert_str_eq(line, want);
        ck_assert_uint_eq(idnguard_loaded_line(h, good, 3, NULL, NULL, line, sizeof line), 0);
        ck_assert_str_eq(line, "");
        ck_assert_uint_eq(idnguard_loaded_line(h, good, -1, NULL, NULL, line, sizeof line), 0);
    }
}
END_TEST

/* A response for www.example. A: a CNAME owned by a pointer to the
 * question name, to lo.TARGET.example. (compressed against the question),
 * and the target's A record, owned by a pointer to the CNAME's rdata. */
static void response(struct tb *t, const char *target)
{
    size_t l = strlen(target), rdata;

    t->n = 0;
    tb_header(t, 0x1234, 0x8180, 1, 2, 0, 0);
    tb_question(t, "www.example", 1, 1);
    tb_be16(t, 0xC00C);
    tb_rr_fixed(t, 5, 1, 300, (unsigned)(3 + 1 + l + 2));
    rdata = t->n;
    tb_bytes(t, "\002lo", 3);
    tb_u8(t, (unsigned)l);
    tb_bytes(t, target, l);
    tb_be16(t, 0xC010);
    tb_be16(t, 0xC000 | (unsigned)rdata);
    tb_rr_fixed(t, 1, 1, 300, 4);
    tb_be32(t, 0x7F000001);
}

START_TEST(test_scan_message)
{
    char path[600], err[1024], changes[256], ede[512];
    struct tb t;
    void *h, *v;
    int state;

    put_file("scan.conf", "idnguard:\nwatch-settings: no\n", path, sizeof path);
    h = idnguard_open(path, &state, changes, sizeof changes, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    v = calloc(1, idnguard_verdict_size());
    ck_assert_ptr_nonnull(v);

    response(&t, "xn--bcher-kva");
    ck_assert_int_eq(idnguard_scan_message(h, t.b, t.n, v), IDNGUARD_SCAN_PASS);
    ck_assert_int_eq(idnguard_action(v), IDNGUARD_PASS);

    response(&t, FAKE);
    ck_assert_int_eq(idnguard_scan_message(h, t.b, t.n, v), IDNGUARD_SCAN_REJECT);
    ck_assert_int_eq(idnguard_action(v), IDNGUARD_REFUSE);
    idnguard_ede_text(v, ede, sizeof ede);
    ck_assert_msg(strstr(ede, "contextj: " FAKE) != NULL, "EDE: %s", ede);

    /* Cut inside the A record: the message cannot be read. */
    ck_assert_int_eq(idnguard_scan_message(h, t.b, t.n - 3, v), IDNGUARD_SCAN_REJECT);
    ck_assert_int_eq(idnguard_action(v), IDNGUARD_REFUSE);
    idnguard_ede_text(v, ede, sizeof ede);
    ck_assert_msg(strstr(ede, "idnguard: invalid-argument") == ede, "EDE: %s", ede);
    /* No message at all. */
    ck_assert_int_eq(idnguard_scan_message(h, t.b, 0, v), IDNGUARD_SCAN_REJECT);

    free(v);
    idnguard_close(h, err, sizeof err);
    ck_assert_str_eq(err, "");
}
END_TEST

/*
 * The library is never unloaded (-z nodelete): the shared handle's watch
 * thread runs in its code, and LuaJIT unloads a library its state no
 * longer holds (ffi.load's object collected; PowerDNS Recursor makes a new
 * state on each reload of its script).  Loaded into a namespace of its own
 * (dlmopen: the one this binary links stays out of it) and closed, it must
 * still be there.
 */
START_TEST(test_never_unloaded)
{
    Dl_info self;
    Lmid_t ns;
    void *h;

    if (UNDER_ASAN)
        return;
    ck_assert_int_ne(dladdr((void *)idnguard_version, &self), 0);
    h = dlmopen(LM_ID_NEWLM, self.dli_fname, RTLD_NOW | RTLD_LOCAL);
    ck_assert_msg(h != NULL, "dlmopen %s: %s", self.dli_fname, dlerror());
    ck_assert_int_eq(dlinfo(h, RTLD_DI_LMID, &ns), 0);
    ck_assert_ptr_nonnull(dlsym(h, "idnguard_open_shared"));
    ck_assert_int_eq(dlclose(h), 0);
    h = dlmopen(ns, self.dli_fname, RTLD_NOW | RTLD_NOLOAD);
    ck_assert_msg(h != NULL, "%s was unloaded by its last dlclose", self.dli_fname);
    dlclose(h);
}
END_TEST

/* The python module asks the library for the actions' values by name. */
START_TEST(test_action_named)
{
    static const struct {
        const char *name;
        int action;
    } acts[] = {{"pass", IDNGUARD_PASS},     {"log", IDNGUARD_LOG},
                {"refuse", IDNGUARD_REFUSE}, {"nxdomain", IDNGUARD_NXDOMAIN},
                {"drop", IDNGUARD_DROP},     {"normalize", IDNGUARD_NORMALIZE}};
    size_t i;

    for (i = 0; i < sizeof acts / sizeof acts[0]; i++)
        ck_assert_int_eq(idnguard_action_named(acts[i].name), acts[i].action);
    ck_assert_int_eq(idnguard_action_named("Refuse"), -1);
    ck_assert_int_eq(idnguard_action_named("refus"), -1);
    ck_assert_int_eq(idnguard_action_named(""), -1);
    ck_assert_int_eq(idnguard_action_named(NULL), -1);
}
END_TEST

static Suite *lib_suite(void)
{
    Suite *s = suite_create("libidnguard");
    TCase *tc = tcase_create("library");

    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_open_shared);
    tcase_add_test(tc, test_scan_message);
    tcase_add_test(tc, test_never_unloaded);
    tcase_add_test(tc, test_action_named);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(lib_suite)
