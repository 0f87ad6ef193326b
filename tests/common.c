/**
 * \file
 * Helpers shared by the Check suites.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "common.h"

#include "idnguard.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

size_t t_utf8_to_cps(const char *s, uint32_t *out, size_t cap)
{
    size_t len = strlen(s), pos = 0, n = 0;

    while (pos < len) {
        size_t m = idng_utf8_decode((const unsigned char *)s + pos, len - pos, &out[n]);
        ck_assert_msg(m > 0, "invalid UTF-8 in test input at offset %zu", pos);
        ck_assert_msg(n < cap, "test input longer than %zu code points", cap);
        pos += m;
        n++;
    }
    return n;
}

void t_cps_to_utf8(const uint32_t *cps, size_t n, char *out, size_t cap)
{
    size_t i, len = 0;

    for (i = 0; i < n; i++) {
        unsigned char buf[4];
        size_t m = idng_utf8_encode(cps[i], buf);
        ck_assert(len + m < cap);
        memcpy(out + len, buf, m);
        len += m;
    }
    out[len] = '\0';
}

int t_run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

void t_guard_open(struct t_guard *g)
{
    long ps = sysconf(_SC_PAGESIZE);
    g->page = ps > 0 ? (size_t)ps : 4096;
    g->base = mmap(NULL, 2 * g->page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
                   0);
    ck_assert_msg(g->base != MAP_FAILED, "mmap failed");
    ck_assert_int_eq(mprotect(g->base + g->page, g->page, PROT_NONE), 0);
}

void t_guard_close(struct t_guard *g)
{
    munmap(g->base, 2 * g->page);
}

const unsigned char *t_guard_put(struct t_guard *g, const void *p, size_t n)
{
    unsigned char *at = g->base + g->page - n;
    ck_assert_int_eq(mprotect(g->base, g->page, PROT_READ | PROT_WRITE), 0);
    if (n)
        memcpy(at, p, n);
    ck_assert_int_eq(mprotect(g->base, g->page, PROT_READ), 0);
    return at;
}

int t_run_to_files(const char *const *argv, const char *out, const char *err, unsigned timeout_s)
{
    pid_t pid = fork();
    int st;

    ck_assert_msg(pid >= 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        int i = open("/dev/null", O_RDONLY);
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (i < 0 || o < 0 || e < 0 || dup2(i, 0) < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
            _exit(126);
        alarm(timeout_s);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    ck_assert_msg(waitpid(pid, &st, 0) == pid, "waitpid: %s", strerror(errno));
    return st;
}

const char *t_idnguard_bin(void)
{
    const char *b = getenv("IDNGUARD_BIN");

    ck_assert_msg(b != NULL && b[0] != '\0',
                  "IDNGUARD_BIN is not set: run through make, or as IDNGUARD_BIN=build/idnguard");
    ck_assert_msg(access(b, X_OK) == 0, "IDNGUARD_BIN=%s is not an executable file: %s", b,
                  strerror(errno));
    return b;
}

void t_run_cli(const char *bin, const char *cmd, const char *const *args, const char *dir,
               unsigned timeout_s, struct t_out *r)
{
    const char *argv[64];
    char out[1024], err[1024];
    size_t n = 0;
    int st;

    argv[n++] = bin;
    if (cmd != NULL)
        argv[n++] = cmd;
    while (*args && n < 63)
        argv[n++] = *args++;
    argv[n] = NULL;
    snprintf(out, sizeof out, "%s/stdout", dir);
    snprintf(err, sizeof err, "%s/stderr", dir);
    st = t_run_to_files(argv, out, err, timeout_s);
    ck_assert_msg(WIFEXITED(st), "%s %s did not exit normally (status %d)", bin, cmd ? cmd : "",
                  st);
    r->status = WEXITSTATUS(st);
    r->out = t_slurp(out, NULL);
    r->err = t_slurp(err, NULL);
    ck_assert(r->out != NULL && r->err != NULL);
}

void t_out_free(struct t_out *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

void t_tmpdir_make(char *dir, size_t cap, const char *prefix)
{
    const char *base = getenv("TMPDIR");
    snprintf(dir, cap, "%s/%s-XXXXXX", base ? base : "/tmp", prefix);
    ck_assert_msg(mkdtemp(dir) != NULL, "mkdtemp: %s", strerror(errno));
}

void t_tmpdir_remove(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[1024];

    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (unlink(path) != 0)
            t_tmpdir_remove(path); /* a directory: its files first */
    }
    closedir(d);
    rmdir(dir);
}

uint32_t t_xorshift32(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

void t_random_wire(uint8_t *w, size_t len, const char *alphabet, size_t alen, unsigned keep_in,
                   unsigned nul_in, uint32_t (*rnd)(void))
{
    size_t pos = 0;

    while (pos < len) {
        /* A length octet: mostly plausible, sometimes a lie. */
        unsigned r = rnd() % 16;
        size_t l = r < 10 ? rnd() % 64 : r < 13 ? 64 + rnd() % 192 : rnd() % 8, k;
        w[pos++] = (uint8_t)l;
        for (k = 0; k < l && pos < len; k++)
            w[pos++] = rnd() % keep_in ? (uint8_t)alphabet[rnd() % alen] : (uint8_t)rnd();
        if (rnd() % nul_in == 0 && pos < len)
            w[pos++] = 0;
    }
}

char *t_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0, r;

    if (!f)
        return NULL;
    do {
        if (n == cap) {
            cap = cap ? 2 * cap : 4096;
            buf = realloc(buf, cap + 1);
            ck_assert(buf != NULL);
        }
        r = fread(buf + n, 1, cap - n, f);
        n += r;
    } while (r > 0);
    ck_assert_msg(!ferror(f), "cannot read %s", path);
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

int t_write_file(const char *path, const char *mode, const void *buf, size_t len)
{
    FILE *f = fopen(path, mode);
    int ok;

    if (!f)
        return -1;
    ok = fwrite(buf, 1, len, f) == len;
    return fclose(f) == 0 && ok ? 0 : -1;
}

void t_spew(const char *path, const void *buf, size_t len)
{
    ck_assert_msg(t_write_file(path, "wb", buf, len) == 0, "cannot write %s: %s", path,
                  strerror(errno));
}

void t_spew_str(const char *path, const char *s)
{
    t_spew(path, s, strlen(s));
}

void t_sleep_ms(unsigned ms)
{
    struct timespec ts;

    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (long)(ms % 1000) * 1000000L;
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

size_t t_wire(const char *text, uint8_t *out)
{
    size_t o = 1, lenpos = 0;
    const char *p = text;

    out[0] = 0;
    for (; *p; p++) {
        if (*p == '.') {
            out[lenpos] = (uint8_t)(o - lenpos - 1);
            lenpos = o++;
            out[lenpos] = 0;
            continue;
        }
        if (*p == '\\') {
            out[o++] = (uint8_t)((p[1] - '0') * 100 + (p[2] - '0') * 10 + (p[3] - '0'));
            p += 3;
            continue;
        }
        out[o++] = (uint8_t)*p;
    }
    if (o - lenpos - 1 > 0) { /* no trailing dot: close the last label */
        out[lenpos] = (uint8_t)(o - lenpos - 1);
        out[o++] = 0;
    }
    return o;
}

const char *t_deviation_reason(const struct t_deviation *list, const char *input)
{
    size_t i;

    for (i = 0; list[i].input; i++)
        if (strcmp(list[i].input, input) == 0)
            return list[i].reason;
    return NULL;
}
