/**
 * \file
 * Integration test harness (see harness.h).
 */
#define _GNU_SOURCE /* memmem, and dirent/prctl without fuss */

#include "harness.h"

#include "common.h"

#include <check.h>

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

extern char **environ;

#define LINE_MAX_ 16384
#define TAIL_MAX 1500
#define POLL_MS 20

long long harness_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

__attribute__((format(printf, 3, 4))) static void set_err(char *err, size_t errlen, const char *fmt,
                                                          ...)
{
    va_list ap;
    if (!err || !errlen)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Copies s into d (cap octets), truncating: for text that is only shown. */
static void scopy(char *d, size_t cap, const char *s)
{
    size_t n = strlen(s);
    if (cap == 0)
        return;
    if (n > cap - 1)
        n = cap - 1;
    memcpy(d, s, n);
    d[n] = '\0';
}

/* dir/name into out (HARNESS_PATH_MAX octets); nonzero if it does not fit. */
static int path_in(char *out, const char *dir, const char *name)
{
    int n = snprintf(out, HARNESS_PATH_MAX, "%s/%s", dir, name);
    return n < 0 || n >= HARNESS_PATH_MAX;
}

/* ---- the registry: last-resort cleanup in the process that started a lab ---- */

#define REG_MAX 64
static struct {
    pid_t pid, owner;
} reg[REG_MAX];
static int reg_hooked;

/* Waits up to grace_ms for a child to exit; then SIGTERM, up to bound_ms
 * more, and SIGKILL.  Reaped in the end. */
static void end_child(pid_t pid, int grace_ms, int bound_ms)
{
    long long deadline = harness_now_ms() + grace_ms;
    int st, termed = 0;

    while (waitpid(pid, &st, WNOHANG) == 0) {
        if (harness_now_ms() >= deadline) {
            if (termed) {
                kill(pid, SIGKILL);
                waitpid(pid, &st, 0);
                return;
            }
            kill(pid, SIGTERM);
            termed = 1;
            deadline = harness_now_ms() + bound_ms;
        }
        t_sleep_ms(10);
    }
}

/* A lab.sh still holding its daemons when this process exits: SIGTERM
 * makes it stop them. */
static void reg_atexit(void)
{
    int i;
    for (i = 0; i < REG_MAX; i++)
        if (reg[i].pid > 0 && reg[i].owner == getpid()) {
            end_child(reg[i].pid, 0, HARNESS_LAB_STOP_MS);
            reg[i].pid = 0;
        }
}

static void reg_add(pid_t pid)
{
    int i;
    if (!reg_hooked) {
        atexit(reg_atexit);
        reg_hooked = 1;
    }
    for (i = 0; i < REG_MAX; i++)
        if (reg[i].pid <= 0) {
            reg[i].pid = pid;
            reg[i].owner = getpid();
            return;
        }
}

static void reg_del(pid_t pid)
{
    int i;
    for (i = 0; i < REG_MAX; i++)
        if (reg[i].pid == pid && reg[i].owner == getpid())
            reg[i].pid = 0;
}

/* ---- files ---- */

long harness_file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : 0;
}

char *harness_read_file(const char *path, long from, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0;

    if (len)
        *len = 0;
    if (!f)
        return NULL;
    if (from > 0 && fseek(f, from, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    for (;;) {
        size_t k;
        if (n + 4096 + 1 > cap) {
            char *nb = realloc(buf, cap = cap ? cap * 2 : 8192);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        k = fread(buf + n, 1, cap - n - 1, f);
        n += k;
        if (k == 0)
            break;
    }
    fclose(f);
    if (!buf)
        buf = calloc(1, 1);
    else
        buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

/* The harness reports its own errors: no test failure from here. */
static int write_file(const char *path, const char *text)
{
    return t_write_file(path, "wb", text, strlen(text));
}

void harness_tail(const char *path, char *out, size_t cap)
{
    size_t n;
    long size = harness_file_size(path), from = size > (long)cap - 1 ? size - (long)cap + 1 : 0;
    char *s = harness_read_file(path, from, &n);

    if (cap == 0)
        return;
    out[0] = '\0';
    if (!s)
        return;
    if (n > cap - 1)
        n = cap - 1;
    memcpy(out, s, n);
    out[n] = '\0';
    free(s);
}

static void remove_dir(const char *dir)
{
    DIR *d;
    struct dirent *e;
    char path[2 * HARNESS_PATH_MAX];
    const char *keep = getenv("IDNGUARD_KEEP");

    if (!dir[0] || (keep && strcmp(keep, "1") == 0))
        return;
    d = opendir(dir);
    if (d) {
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            if (unlink(path) != 0)
                remove_dir(path); /* a directory a test made: its files first */
        }
        closedir(d);
    }
    rmdir(dir);
}

/* ---- processes ---- */

static const char *env_or_null(const char *name)
{
    const char *v = getenv(name);
    return v && v[0] ? v : NULL;
}

/*
 * fork + execve of sh running scripts/lab.sh ($IDNGUARD_LAB) with args,
 * stdout and stderr into out_path, stdin from /dev/null.  Everything the
 * child needs is prepared before fork (tests may run threads).  The child
 * stays in our process group, and so do the daemons it starts: Check kills
 * a forked test's whole group when it ends.  A `lab.sh start --hold` gets
 * SIGTERM if we die (it then stops its daemons).
 */
static pid_t spawn_lab(char *const args[], const char *out_path)
{
    char *argv[32];
    size_t n = 0;
    pid_t pid;

    argv[n++] = "/bin/sh";
    argv[n++] = (char *)getenv("IDNGUARD_LAB");
    while (*args && n < sizeof argv / sizeof argv[0] - 1)
        argv[n++] = *args++;
    argv[n] = NULL;
    if (!argv[1])
        return -1;
    pid = harness_spawn(argv, out_path, out_path);
    if (pid > 0)
        reg_add(pid);
    return pid;
}

pid_t harness_spawn(char *const argv[], const char *out_path, const char *err_path)
{
    int out = out_path ? open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
    int err = err_path && out_path && strcmp(err_path, out_path) == 0
                  ? out
                  : err_path ? open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
    int nul = open("/dev/null", O_RDWR);
    pid_t parent = getpid(), pid = -1;

    if (nul >= 0 && (out >= 0 || !out_path) && (err >= 0 || !err_path))
        pid = fork();
    if (pid == 0) {
        sigset_t all;
        int fd;
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent)
            _exit(127);
#endif
        (void)parent;
        sigemptyset(&all);
        sigprocmask(SIG_SETMASK, &all, NULL);
        signal(SIGHUP, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        signal(SIGALRM, SIG_DFL);
        dup2(nul, 0);
        dup2(out >= 0 ? out : nul, 1);
        dup2(err >= 0 ? err : nul, 2);
        for (fd = 3; fd < 1024; fd++)
            close(fd);
        execve(argv[0], argv, environ);
        _exit(127);
    }
    if (out >= 0)
        close(out);
    if (err >= 0 && err != out)
        close(err);
    if (nul >= 0)
        close(nul);
    return pid;
}

/* end_child on a lab.sh we ran.  Only the starter can wait. */
static void stop_pid(pid_t *pid, pid_t owner, int grace_ms)
{
    if (*pid <= 0)
        return;
    if (owner == getpid())
        end_child(*pid, grace_ms, HARNESS_LAB_STOP_MS);
    reg_del(*pid);
    *pid = 0;
}

int harness_alive(pid_t pid, pid_t owner)
{
    char path[64], buf[512];
    FILE *f;
    size_t n;
    char *rp;

    (void)owner; /* the daemons are the children of lab.sh, never ours */
    if (pid <= 0)
        return 0;
    /* A dead one is a zombie until its parent reaps it. */
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    f = fopen(path, "r");
    if (!f)
        return 0; /* gone (or no /proc; the tests run on Linux) */
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    rp = strrchr(buf, ')');
    return rp && rp[1] == ' ' && rp[2] != 'Z' && rp[2] != 'X';
}

/* ---- start and stop: scripts/lab.sh ---- */

/* Temporary directory, file names, and what lab.sh fills in and writes
 * out: the idnguard.conf text and the extra server: lines. */
static int prepare(struct harness *h, const char *conf_text, int threads,
                   const struct harness_opts *opts, char *err, size_t errlen)
{
    const char *tmp = env_or_null("TMPDIR");

    memset(h, 0, sizeof *h);
    h->owner = getpid();
    h->threads = threads > 0 ? threads : 1;
    if (!env_or_null("IDNGUARD_LAB") || !env_or_null("IDNGUARD_TEMPLATES")
        || !env_or_null("IDNGUARD_ZONES") || !env_or_null("IDNGUARD_MODULE")
        || !env_or_null("IDNGUARD_UNBOUND")) {
        set_err(err, errlen,
                "IDNGUARD_LAB, IDNGUARD_TEMPLATES, IDNGUARD_ZONES, IDNGUARD_MODULE and "
                "IDNGUARD_UNBOUND must be set (run through make check-integration)");
        return -1;
    }
    snprintf(h->dir, sizeof h->dir, "%s/idng-it.XXXXXX", tmp ? tmp : "/tmp");
    if (!mkdtemp(h->dir)) {
        set_err(err, errlen, "mkdtemp %s: %s", h->dir, strerror(errno));
        h->dir[0] = '\0';
        return -1;
    }
    if (path_in(h->idng_conf, h->dir, "idnguard.conf")
        || path_in(h->ub_conf, h->dir, "unbound.conf") || path_in(h->ub_log, h->dir, "unbound.log")
        || path_in(h->ub_out, h->dir, "unbound.out") || path_in(h->nsd_conf, h->dir, "nsd.conf")
        || path_in(h->nsd_log, h->dir, "nsd.log") || path_in(h->nsd_out, h->dir, "nsd.out")
        || path_in(h->lab_out, h->dir, "lab.out") || path_in(h->conf_in, h->dir, "idnguard.conf.in")
        || path_in(h->extra_in, h->dir, "server-extra.in")) {
        set_err(err, errlen, "temporary directory name too long: %s", h->dir);
        return -1;
    }
    scopy(h->qlog, sizeof h->qlog, h->ub_log);
    if (write_file(h->conf_in, conf_text) != 0
        || write_file(h->extra_in, opts && opts->server_extra ? opts->server_extra : "") != 0) {
        set_err(err, errlen, "cannot write into %s", h->dir);
        return -1;
    }
    return 0;
}

/* The lab's KEY=VALUE file: -1 while there is none. */
static int read_lab_env(struct harness *h, char *state, size_t cap, int *ub_status)
{
    char path[HARNESS_PATH_MAX + 16], line[256];
    FILE *f;

    snprintf(path, sizeof path, "%s/lab.env", h->dir);
    f = fopen(path, "r");
    if (!f)
        return -1;
    *ub_status = -1;
    while (fgets(line, sizeof line, f)) {
        char *v = strchr(line, '='), *nl = strchr(line, '\n');
        if (!v)
            continue;
        *v++ = '\0';
        if (nl)
            *nl = '\0';
        if (strcmp(line, "LAB_STATE") == 0)
            scopy(state, cap, v);
        else if (strcmp(line, "LAB_PORT") == 0)
            h->port = atoi(v);
        else if (strcmp(line, "LAB_NSD_PORT") == 0)
            h->nsd_port = atoi(v);
        else if (strcmp(line, "LAB_UB_PID") == 0)
            h->ub_pid = (pid_t)atoi(v);
        else if (strcmp(line, "LAB_NSD_PID") == 0)
            h->nsd_pid = (pid_t)atoi(v);
        else if (strcmp(line, "LAB_UB_STATUS") == 0 && *v)
            *ub_status = atoi(v);
    }
    fclose(f);
    return 0;
}

/*
 * `lab.sh start DIR --hold ...`, then a bounded wait until it says the
 * lab is ready (DIR/lab.env) or fails.  lab.sh bounds each daemon's start
 * and tries other ports up to three times; this bound only catches a hung
 * lab.sh.  Returns 0 when ready, 1 when it failed (*ub_status: Unbound's
 * exit status as the shell gives it, when it exited; else -1), -1 on a
 * local error; err says why.
 */
static int lab_start(struct harness *h, const char *only, const struct harness_opts *opts,
                     int *ub_status, char *err, size_t errlen)
{
    char threads[16], secs[16], state[32] = "", tail[TAIL_MAX * 2];
    char *args[24];
    size_t n = 0;
    long long deadline = harness_now_ms() + 6LL * HARNESS_START_MS + HARNESS_LAB_STOP_MS;

    *ub_status = -1;
    snprintf(threads, sizeof threads, "%d", h->threads);
    snprintf(secs, sizeof secs, "%d", (HARNESS_START_MS + 999) / 1000);
    args[n++] = "start";
    args[n++] = h->dir;
    args[n++] = "--hold";
    args[n++] = "--threads";
    args[n++] = threads;
    args[n++] = "--start-seconds";
    args[n++] = secs;
    args[n++] = "--conf";
    args[n++] = h->conf_in;
    args[n++] = "--server-extra";
    args[n++] = h->extra_in;
    args[n++] = "--modules";
    args[n++] = (char *)(opts && opts->module_config ? opts->module_config
                                                     : HARNESS_MODULES_DEFAULT);
    if (opts && opts->flavour) {
        args[n++] = "--flavour";
        args[n++] = (char *)opts->flavour;
    }
    if (opts && opts->dnstap_socket) {
        args[n++] = "--dnstap";
        args[n++] = (char *)opts->dnstap_socket;
    }
    if (only) {
        args[n++] = "--only";
        args[n++] = (char *)only;
    }
    args[n] = NULL;
    h->lab_pid = spawn_lab(args, h->lab_out);
    if (h->lab_pid <= 0) {
        set_err(err, errlen, "cannot run sh %s", getenv("IDNGUARD_LAB"));
        return -1;
    }
    for (;;) {
        int st;
        if (read_lab_env(h, state, sizeof state, ub_status) == 0)
            break;
        if (waitpid(h->lab_pid, &st, WNOHANG) == h->lab_pid) {
            reg_del(h->lab_pid);
            h->lab_pid = 0;
            read_lab_env(h, state, sizeof state, ub_status);
            break;
        }
        if (harness_now_ms() >= deadline)
            break;
        t_sleep_ms(POLL_MS);
    }
    if (strcmp(state, "ready") == 0)
        return 0;
    harness_tail(h->lab_out, tail, sizeof tail);
    set_err(err, errlen, "%s\n--- %s ---\n%s",
            state[0] ? "the lab did not start" : "lab.sh hung or died", h->lab_out, tail);
    return state[0] ? 1 : -1;
}

int harness_start_ex(struct harness *h, const char *conf_text, int threads,
                     const struct harness_opts *opts, char *err, size_t errlen)
{
    int ub_status;

    if (prepare(h, conf_text, threads, opts, err, errlen) == 0
        && lab_start(h, opts ? opts->only : NULL, opts, &ub_status, err, errlen) == 0)
        return 0;
    harness_stop(h);
    return -1;
}

int harness_start(struct harness *h, const char *conf_text, int threads, char *err, size_t errlen)
{
    return harness_start_ex(h, conf_text, threads, NULL, err, errlen);
}

void harness_stop(struct harness *h)
{
    if (h->owner == getpid() && h->lab_pid > 0) {
        /* `lab.sh stop DIR` ends the daemons by PID; the holding lab.sh
         * then exits by itself. */
        char out[HARNESS_PATH_MAX + 16];
        char *args[] = {"stop", h->dir, NULL};
        pid_t stopper;

        snprintf(out, sizeof out, "%s/lab-stop.out", h->dir);
        stopper = spawn_lab(args, out);
        stop_pid(&stopper, h->owner, HARNESS_LAB_STOP_MS);
        stop_pid(&h->lab_pid, h->owner, 2000);
    }
    h->lab_pid = h->ub_pid = h->nsd_pid = 0;
    if (h->owner == getpid()) {
        remove_dir(h->dir);
        h->dir[0] = '\0';
    }
}

void harness_setup_ex(struct harness *h, const char *conf_text, int threads,
                      const struct harness_opts *opts)
{
    char err[4096];
    if (harness_start_ex(h, conf_text, threads, opts, err, sizeof err) != 0)
        ck_abort_msg("daemons did not start: %s", err);
}

TCase *harness_tcase(const char *name, void (*setup)(void), void (*teardown)(void))
{
    TCase *tc = tcase_create(name);

    if (setup)
        tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    return tc;
}

void harness_setup(struct harness *h, const char *conf_text, int threads)
{
    harness_setup_ex(h, conf_text, threads, NULL);
}

int harness_run_failing(const char *conf_text, char *conf_path, size_t pathcap, int *status,
                        char *log, size_t logcap)
{
    struct harness h;
    char err[TAIL_MAX * 3], t1[TAIL_MAX * 2], t2[TAIL_MAX];
    int rc, ub_status;

    *status = -1;
    if (logcap)
        log[0] = '\0';
    if (prepare(&h, conf_text, 1, NULL, err, sizeof err) != 0) {
        snprintf(log, logcap, "%s", err);
        harness_stop(&h);
        return -1;
    }
    snprintf(conf_path, pathcap, "%s", h.idng_conf);
    rc = lab_start(&h, "unbound", NULL, &ub_status, err, sizeof err);
    if (rc == 1 && ub_status >= 0) {
        /* The shell's 128 + N is death by signal N. */
        *status = ub_status > 128 && ub_status < 128 + 65 ? ub_status - 128 : ub_status << 8;
        rc = 0;
    } else if (rc == 0) {
        rc = 1; /* it started after all */
    } else {
        snprintf(log, logcap, "%s", err);
        harness_stop(&h);
        return -1;
    }
    harness_tail(h.ub_log, t1, sizeof t1);
    harness_tail(h.ub_out, t2, sizeof t2);
    snprintf(log, logcap, "%s%s", t1, t2);
    harness_stop(&h);
    return rc;
}

int harness_sighup(const struct harness *h)
{
    return h->ub_pid > 0 ? kill(h->ub_pid, SIGHUP) : -1;
}

int harness_write_conf(const struct harness *h, const char *conf_text)
{
    /* Write beside and rename, so the daemon never reads half a file. */
    char tmp[HARNESS_PATH_MAX + 8];
    snprintf(tmp, sizeof tmp, "%s.new", h->idng_conf);
    if (write_file(tmp, conf_text) != 0)
        return -1;
    return rename(tmp, h->idng_conf);
}

int harness_edit_conf(const struct harness *h, const char *conf_text)
{
    long old = harness_file_size(h->idng_conf);
    size_t n = strlen(conf_text), len = n;
    char *buf;
    int fd, ok;

    if (old > 0 && (size_t)old > len)
        len = (size_t)old;
    buf = malloc(len + 2);
    if (!buf)
        return -1;
    memcpy(buf, conf_text, n);
    if (len > n) {
        /* "#...#\n": a comment line of the length missing (n ends in \n). */
        memset(buf + n, '#', len - n);
        buf[len - 1] = '\n';
    }
    fd = open(h->idng_conf, O_WRONLY);
    ok = fd >= 0 && pwrite(fd, buf, len, 0) == (ssize_t)len && ftruncate(fd, (off_t)len) == 0;
    if (fd >= 0 && close(fd) != 0)
        ok = 0;
    free(buf);
    return ok ? 0 : -1;
}

/* ---- log lines ---- */

/* Calls fn on each complete line after from; stops when fn returns nonzero. */
static int each_line(const char *path, long from, int (*fn)(const char *, size_t, void *),
                     void *arg)
{
    size_t n;
    char *s = harness_read_file(path, from, &n), *p, *end;
    int r = 0;

    if (!s)
        return 0;
    p = s;
    end = s + n;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            break; /* not complete yet */
        if ((r = fn(p, (size_t)(nl - p), arg)) != 0)
            break;
        p = nl + 1;
    }
    free(s);
    return r;
}

struct find_arg {
    const char *needle;
    char *line;
    size_t cap;
    int count;
};

static int find_fn(const char *l, size_t n, void *arg)
{
    struct find_arg *a = arg;
    if (!memmem(l, n, a->needle, strlen(a->needle)))
        return 0;
    if (a->line && a->cap) {
        size_t k = n < a->cap - 1 ? n : a->cap - 1;
        memcpy(a->line, l, k);
        a->line[k] = '\0';
    }
    return 1;
}

static int count_fn(const char *l, size_t n, void *arg)
{
    struct find_arg *a = arg;
    if (memmem(l, n, a->needle, strlen(a->needle)))
        a->count++;
    return 0;
}

int harness_wait_line(const char *path, long from, const char *needle, int timeout_ms, char *line,
                      size_t cap)
{
    long long deadline = harness_now_ms() + timeout_ms;
    struct find_arg a = {needle, line, cap, 0};

    for (;;) {
        if (each_line(path, from, find_fn, &a))
            return 1;
        if (harness_now_ms() >= deadline)
            return 0;
        t_sleep_ms(POLL_MS);
    }
}

int harness_count_lines(const char *path, long from, const char *needle)
{
    struct find_arg a = {needle, NULL, 0, 0};
    each_line(path, from, count_fn, &a);
    return a.count;
}

int harness_wait_count(const char *path, long from, const char *needle, int n, int timeout_ms)
{
    long long deadline = harness_now_ms() + timeout_ms;
    int c;

    for (;;) {
        c = harness_count_lines(path, from, needle);
        if (c >= n || harness_now_ms() >= deadline)
            return c;
        t_sleep_ms(POLL_MS);
    }
}

/* Copies the next space-separated field; returns the position after it. */
static const char *field(const char *p, char *out, size_t cap)
{
    size_t n = 0;
    while (*p == ' ')
        p++;
    while (*p && *p != ' ') {
        if (n + 1 < cap)
            out[n++] = *p;
        p++;
    }
    if (cap)
        out[n] = '\0';
    return p;
}

int qline_parse(const char *text, struct qline *q)
{
    const char *p = strstr(text, "idnguard: ");
    char tok[2800], *hash;

    memset(q, 0, sizeof *q);
    q->ede = -1;
    p = p ? p + strlen("idnguard: ") : text;
    p = field(p, tok, sizeof tok);
    if (tok[0] >= '0' && tok[0] <= '9' && strchr(tok, 'T') && tok[strlen(tok) - 1] == 'Z') {
        scopy(q->time, sizeof q->time, tok);
        p = field(p, tok, sizeof tok);
    }
    hash = strrchr(tok, '#');
    if (hash) {
        *hash = '\0';
        q->port = (unsigned)strtoul(hash + 1, NULL, 10);
    }
    snprintf(q->client, sizeof q->client, "%s", tok);
    p = field(p, q->qname, sizeof q->qname);
    p = field(p, tok, sizeof tok);
    if (tok[0] == '(') {
        size_t l = strlen(tok);
        if (l < 2 || tok[l - 1] != ')')
            return -1;
        tok[l - 1] = '\0';
        scopy(q->unicode, sizeof q->unicode, tok + 1);
        p = field(p, tok, sizeof tok);
    }
    snprintf(q->qtype, sizeof q->qtype, "%s", tok);
    p = field(p, q->qclass, sizeof q->qclass);
    p = field(p, q->rcode, sizeof q->rcode);
    p = field(p, q->verdict, sizeof q->verdict);
    p = field(p, q->action, sizeof q->action);
    p = field(p, q->path, sizeof q->path);
    p = field(p, tok, sizeof tok);
    if (strncmp(tok, "ede=", 4) == 0) {
        q->ede = atoi(tok + 4);
        p = field(p, tok, sizeof tok);
    }
    if (strncmp(tok, "lookalike=", 10) == 0) {
        scopy(q->lookalike, sizeof q->lookalike, tok + 10);
        p = field(p, tok, sizeof tok);
    }
    if (strncmp(tok, "target=", 7) == 0) {
        scopy(q->target, sizeof q->target, tok + 7);
        p = field(p, tok, sizeof tok);
    }
    if (strncmp(tok, "proto=", 6) == 0) {
        scopy(q->proto, sizeof q->proto, tok + 6);
        p = field(p, tok, sizeof tok);
    }
    if (strncmp(tok, "ms=", 3) == 0) {
        scopy(q->ms, sizeof q->ms, tok + 3);
        p = field(p, tok, sizeof tok);
    }
    if (tok[0] || !q->path[0] || !q->qname[0])
        return -1; /* missing fields, or something after the last one */
    return 0;
}

int harness_query(const struct harness *h, const char *qname, uint16_t qtype, unsigned flags,
                  int timeout_ms, struct dnsq_result *r, char *line, size_t cap)
{
    long from = harness_file_size(h->qlog);
    char needle[40], buf[LINE_MAX_];
    const char *p;

    if (cap)
        line[0] = '\0';
    if (dnsq_query_ex(h->port, qname, qtype, flags, timeout_ms, r) != 0) {
        snprintf(line, cap, "query for %s failed: local error, or no daemon on port %d", qname,
                 h->port);
        return -1;
    }
    snprintf(needle, sizeof needle, "127.0.0.1#%u ", r->local_port);
    if (!harness_wait_line(h->qlog, from, needle, HARNESS_LOG_MS, buf, sizeof buf)) {
        char t[TAIL_MAX];
        size_t n;
        char *s = harness_read_file(h->qlog, from, &n);
        snprintf(t, sizeof t, "%s", s ? s : "");
        free(s);
        snprintf(line, cap, "no log line with \"%s\" in %s; new lines: %s", needle, h->qlog, t);
        return 0;
    }
    p = strstr(buf, "idnguard: ");
    snprintf(line, cap, "%s", p ? p + strlen("idnguard: ") : buf);
    return 1;
}

/* ---- assertions ---- */

void hx_query(const struct harness *h, const char *qname, uint16_t qtype, unsigned flags,
              int timeout_ms, struct dnsq_result *r, struct qline *q)
{
    char line[LINE_MAX_];
    int got = harness_query(h, qname, qtype, flags, timeout_ms, r, line, sizeof line);

    ck_assert_msg(got >= 0, "%s", line);
    ck_assert_msg(got == 1, "%s: reply %s%s, but %s", qname, dnsq_rcode_name(r->rcode),
                  r->timed_out ? " (none: timed out)" : "", line);
    ck_assert_msg(qline_parse(line, q) == 0, "%s: log line does not parse: %s", qname, line);
    scopy(q->raw, sizeof q->raw, line);
}

void hx_expect_policy(const struct dnsq_result *r, const struct qline *q, const char *qname_log,
                      int rcode, const char *verdict, const char *action, const char *ede_prefix)
{
    char sum[2048];

    dnsq_answer_summary(r, sum, sizeof sum);
    ck_assert_msg(!r->timed_out, "%s: no reply (expected %s)", qname_log, dnsq_rcode_name(rcode));
    ck_assert_msg(r->rcode == rcode, "%s: rcode %s, expected %s; answer: %s; line: %s", qname_log,
                  dnsq_rcode_name(r->rcode), dnsq_rcode_name(rcode), sum, q->raw);
    ck_assert_msg(r->ancount == 0, "%s: %s with answer records: %s", qname_log,
                  dnsq_rcode_name(rcode), sum);
    if (ede_prefix) {
        ck_assert_msg(r->ede_code == 15, "%s: EDE %d (expected 15, Blocked)", qname_log,
                      r->ede_code);
        ck_assert_msg(strncmp(r->ede_text, ede_prefix, strlen(ede_prefix)) == 0,
                      "%s: EDE text \"%s\", expected it to begin with \"%s\"", qname_log,
                      r->ede_text, ede_prefix);
    }
    ck_assert_msg(strcmp(q->qname, qname_log) == 0, "line's qname %s, expected %s: %s", q->qname,
                  qname_log, q->raw);
    ck_assert_msg(strcmp(q->rcode, dnsq_rcode_name(rcode)) == 0 && strcmp(q->verdict, verdict) == 0
                      && strcmp(q->action, action) == 0 && strcmp(q->path, "policy") == 0,
                  "%s: line says %s %s %s %s; expected %s %s %s policy: %s", qname_log, q->rcode,
                  q->verdict, q->action, q->path, dnsq_rcode_name(rcode), verdict, action, q->raw);
    ck_assert_msg(q->ede == (ede_prefix ? 15 : -1), "%s: line has ede=%d: %s", qname_log, q->ede,
                  q->raw);
}

int hx_answer_ede_ok(const struct dnsq_result *r)
{
    /* PowerDNS Recursor names the DNSSEC failure (RFC 8914 1-12: DNSKEY
     * missing, signature expired, ...) where Unbound says bogus. */
    return r->ede_code == -1
           || (r->cd
               && ENGINE(r->ede_code == 5 || r->ede_code == 6, r->ede_code == 5 || r->ede_code == 6,
                         r->ede_code >= 1 && r->ede_code <= 12,
                         r->ede_code == 5 || r->ede_code == 6));
}

void hx_expect_data(const struct dnsq_result *r, const struct qline *q, const char *qname_log,
                    const char *summary, const char *verdict, const char *action, const char *path)
{
    char sum[2048];

    dnsq_answer_summary(r, sum, sizeof sum);
    ck_assert_msg(!r->timed_out, "%s: no reply", qname_log);
    ck_assert_msg(r->rcode == 0, "%s: rcode %s (EDE %d \"%s\"), expected NOERROR; line: %s",
                  qname_log, dnsq_rcode_name(r->rcode), r->ede_code, r->ede_text, q->raw);
    ck_assert_msg(strcmp(sum, summary) == 0, "%s: answer [%s], expected [%s]", qname_log, sum,
                  summary);
    ck_assert_msg(hx_answer_ede_ok(r), "%s: EDE %d \"%s\" on an answer", qname_log, r->ede_code,
                  r->ede_text);
    ck_assert_msg(strcmp(q->qname, qname_log) == 0, "line's qname %s, expected %s: %s", q->qname,
                  qname_log, q->raw);
    ck_assert_msg(strcmp(q->rcode, "NOERROR") == 0 && strcmp(q->verdict, verdict) == 0
                      && strcmp(q->action, action) == 0 && strcmp(q->path, path) == 0
                      && q->ede == -1,
                  "%s: line says %s %s %s %s ede=%d; expected NOERROR %s %s %s: %s", qname_log,
                  q->rcode, q->verdict, q->action, q->path, q->ede, verdict, action, path, q->raw);
}

/* ---- the two flavours ---- */

int harness_python(void)
{
    const char *f = getenv("IDNGUARD_FLAVOUR");
    return f && strcmp(f, "python") == 0;
}

void py_does(const char *why)
{
    if (harness_python())
        printf("python flavour: %s\n", why);
}

enum hx_flavour harness_flavour(void)
{
    static const struct {
        const char *name;
        enum hx_flavour f;
    } names[] = {{"python", HX_PYTHON}, {"kresd", HX_KRESD}, {"pdns", HX_PDNS},
                 {"dnsdist", HX_DNSDIST}};
    const char *f = getenv("IDNGUARD_FLAVOUR");

    for (size_t i = 0; f && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(f, names[i].name) == 0)
            return names[i].f;
    return HX_DYNLIB;
}

int harness_engine(void)
{
    enum hx_flavour f = harness_flavour();

    return f == HX_KRESD || f == HX_PDNS || f == HX_DNSDIST;
}

int harness_cname_alone(void)
{
    enum hx_flavour f = harness_flavour();

    return f == HX_PYTHON || f == HX_PDNS || f == HX_DNSDIST;
}

void engine_does(const char *why)
{
    if (harness_engine())
        printf("%s flavour: %s\n", getenv("IDNGUARD_FLAVOUR"), why);
}

void hx_expect_dropped(const struct dnsq_result *r, const struct qline *q, const char *qname_log,
                       const char *verdict)
{
    const char *rc = PY("DROPPED", "REFUSED");

    if (harness_python())
        ck_assert_msg(!r->timed_out && r->rcode == 5 && r->ancount == 0 && r->ede_code == -1,
                      "%s under drop (python: REFUSED without EDE): %s%s EDE %d", qname_log,
                      dnsq_rcode_name(r->rcode), r->timed_out ? " (timed out)" : "", r->ede_code);
    else
        ck_assert_msg(r->timed_out, "%s under drop: got a reply, %s", qname_log,
                      dnsq_rcode_name(r->rcode));
    ck_assert_msg(strcmp(q->qname, qname_log) == 0 && strcmp(q->rcode, rc) == 0
                      && strcmp(q->verdict, verdict) == 0 && strcmp(q->action, "drop") == 0
                      && strcmp(q->path, "policy") == 0 && q->ede == -1,
                  "%s under drop: line %s; expected %s %s drop policy", qname_log, q->raw, rc,
                  verdict);
}

void hx_expect_normalized(const struct harness *h, const struct dnsq_result *r,
                          const struct qline *q, const char *qname_log, uint16_t qtype,
                          const char *cname, const char *rest, const char *verdict)
{
    char want[2048], target[1100];
    const char *t = strstr(cname, " CNAME ");
    struct dnsq_result r2;
    struct qline q2;

    if (!harness_cname_alone()) {
        /* kresd: no sub-query; the A-label name's answer may be its cache's. */
        const char *path = harness_flavour() == HX_KRESD && strcmp(q->path, "cache") == 0
                               ? "cache"
                               : "resolved";
        snprintf(want, sizeof want, "%s | %s", cname, rest);
        hx_expect_data(r, q, qname_log, want, verdict, "normalize", path);
        return;
    }
    hx_expect_data(r, q, qname_log, cname, verdict, "normalize", "policy");
    ck_assert_msg(t != NULL, "bad expectation %s", cname);
    scopy(target, sizeof target, t + strlen(" CNAME "));
    ck_assert_msg(strcmp(q->target, target) == 0, "%s: line's target=%s, expected %s: %s",
                  qname_log, q->target, target, q->raw);
    /* The client follows the CNAME. */
    hx_query(h, target, qtype, 0, HARNESS_QUERY_MS, &r2, &q2);
    dnsq_answer_summary(&r2, want, sizeof want);
    ck_assert_msg(r2.rcode == 0 && strcmp(want, rest) == 0,
                  "%s: following the CNAME: %s [%s], expected [%s]", target,
                  dnsq_rcode_name(r2.rcode), want, rest);
}

int py_follow_normalize(const struct harness *h, uint16_t qtype, unsigned flags, int timeout_ms,
                        struct dnsq_result *r, struct qline *q, char *qname_log, size_t cap)
{
    char target[1100];

    if (!harness_cname_alone() || r->timed_out || r->rcode != 0 || !q->target[0]
        || strcmp(q->action, "normalize") != 0 || strcmp(q->path, "policy") != 0)
        return 0;
    scopy(target, sizeof target, q->target);
    hx_query(h, target, qtype, flags, timeout_ms, r, q);
    if (qname_log)
        scopy(qname_log, cap, target);
    return 1;
}
