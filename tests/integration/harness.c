/**
 * \file
 * Integration test harness (see harness.h): files, processes, and the
 * daemons' start and stop; the log lines, queries and assertions are in
 * harness_query.c.
 */
#define _GNU_SOURCE /* dirent/prctl without fuss */

#include "harness.h"
#include "harness_priv.h"

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
