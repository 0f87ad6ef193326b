/**
 * \file
 * Integration test harness (see harness.h).
 */
#define _GNU_SOURCE /* memmem, and dirent/prctl without fuss */

#include "harness.h"

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

/* The pause between two polls of a bounded wait (not a readiness guess). */
static void pause_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
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

/* ---- the registry: last-resort cleanup in the process that started a daemon ---- */

#define REG_MAX 64
static struct {
    pid_t pid, owner;
} reg[REG_MAX];
static int reg_hooked;

static void reg_atexit(void)
{
    int i, st;
    for (i = 0; i < REG_MAX; i++)
        if (reg[i].pid > 0 && reg[i].owner == getpid()) {
            kill(reg[i].pid, SIGKILL);
            waitpid(reg[i].pid, &st, 0);
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

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    size_t n = strlen(text);
    int ok;
    if (!f)
        return -1;
    ok = fwrite(text, 1, n, f) == n;
    return fclose(f) == 0 && ok ? 0 : -1;
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

/* Replaces every "@KEY@" of pairs in text; malloc'd, NULL without memory. */
static char *subst(const char *text, const char *const (*pairs)[2], size_t npairs)
{
    size_t cap = strlen(text) + 1, n = 0, i;
    char *out = malloc(cap);

    while (out && *text) {
        const char *val = NULL;
        size_t kl = 1, vl;
        for (i = 0; i < npairs && *text == '@'; i++)
            if (strncmp(text, pairs[i][0], strlen(pairs[i][0])) == 0) {
                val = pairs[i][1];
                kl = strlen(pairs[i][0]);
                break;
            }
        vl = val ? strlen(val) : 1;
        if (n + vl + 1 > cap) {
            char *nb = realloc(out, cap = 2 * cap + vl);
            if (!nb) {
                free(out);
                return NULL;
            }
            out = nb;
        }
        memcpy(out + n, val ? val : text, vl);
        n += vl;
        text += kl;
    }
    if (out)
        out[n] = '\0';
    return out;
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
            unlink(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* ---- ports ---- */

static int bind_lo(int type, int port)
{
    struct sockaddr_in sa;
    socklen_t sl = sizeof sa;
    int fd = socket(AF_INET, type, 0);

    if (fd < 0)
        return -1;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0
        || getsockname(fd, (struct sockaddr *)&sa, &sl) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int port_of(int fd)
{
    struct sockaddr_in sa;
    socklen_t sl = sizeof sa;
    return getsockname(fd, (struct sockaddr *)&sa, &sl) == 0 ? ntohs(sa.sin_port) : -1;
}

/*
 * Two distinct ports free on 127.0.0.1 for both UDP and TCP: the kernel
 * picks a UDP port, and it is kept only if TCP can bind it too.  The
 * sockets are held until both are found so the two differ; a daemon that
 * loses the race for one after they are closed is started again.
 */
static int pick_ports(int *a, int *b)
{
    int fds[4] = {-1, -1, -1, -1}, got = 0, tries, i;

    for (tries = 0; tries < 50 && got < 2; tries++) {
        int u = bind_lo(SOCK_DGRAM, 0), t;
        if (u < 0)
            continue;
        t = bind_lo(SOCK_STREAM, port_of(u));
        if (t < 0) {
            close(u);
            continue;
        }
        fds[2 * got] = u;
        fds[2 * got + 1] = t;
        got++;
    }
    if (got == 2) {
        *a = port_of(fds[0]);
        *b = port_of(fds[2]);
    }
    for (i = 0; i < 4; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    return got == 2 ? 0 : -1;
}

/* ---- processes ---- */

static const char *env_or_null(const char *name)
{
    const char *v = getenv(name);
    return v && v[0] ? v : NULL;
}

static int find_program(const char *name, char *out, size_t cap)
{
    const char *path = getenv("PATH");
    char buf[4096];
    char *save = NULL, *dir;
    static const char *const extra[] = {"/usr/sbin", "/usr/local/sbin", "/sbin"};
    size_t i;

    snprintf(buf, sizeof buf, "%s", path ? path : "");
    for (dir = strtok_r(buf, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
        snprintf(out, cap, "%s/%s", dir, name);
        if (access(out, X_OK) == 0)
            return 0;
    }
    for (i = 0; i < sizeof extra / sizeof extra[0]; i++) {
        snprintf(out, cap, "%s/%s", extra[i], name);
        if (access(out, X_OK) == 0)
            return 0;
    }
    return -1;
}

/*
 * For the daemon only (a sanitizer runtime must not reach NSD or the test
 * binaries): IDNGUARD_DAEMON_PRELOAD becomes its LD_PRELOAD, and
 * IDNGUARD_DAEMON_ASAN_OPTIONS / IDNGUARD_DAEMON_UBSAN_OPTIONS its
 * ASAN_OPTIONS / UBSAN_OPTIONS, each replacing what the tests inherited.
 * `make asan-check` and scripts/soak.sh set them.
 */
static const char *const daemon_env[][2] = {
    {"IDNGUARD_DAEMON_PRELOAD", "LD_PRELOAD"},
    {"IDNGUARD_DAEMON_ASAN_OPTIONS", "ASAN_OPTIONS"},
    {"IDNGUARD_DAEMON_UBSAN_OPTIONS", "UBSAN_OPTIONS"},
};
#define DAEMON_ENV_N (sizeof daemon_env / sizeof daemon_env[0])

/* Is environ entry e the variable name (e begins with "name=")? */
static int env_is(const char *e, const char *name)
{
    size_t n = strlen(name);
    return strncmp(e, name, n) == 0 && e[n] == '=';
}

/* environ with IDNGUARD_CONF=conf and the daemon_env variables (replacing
 * any): one malloc'd block, the array followed by the new strings (free it
 * whole); the other strings are borrowed from environ. */
static char **env_with_conf(const char *conf)
{
    size_t n = 0, i, j, k = 0, room = strlen("IDNGUARD_CONF=") + strlen(conf) + 1;
    char **e, *p;

    while (environ[n])
        n++;
    for (j = 0; j < DAEMON_ENV_N; j++)
        if (env_or_null(daemon_env[j][0]))
            room += strlen(daemon_env[j][1]) + 1 + strlen(getenv(daemon_env[j][0])) + 1;
    e = calloc(1, (n + 2 + DAEMON_ENV_N) * sizeof *e + room);
    if (!e)
        return NULL;
    p = (char *)(e + n + 2 + DAEMON_ENV_N);
    for (i = 0; i < n; i++) {
        int drop = env_is(environ[i], "IDNGUARD_CONF");
        for (j = 0; j < DAEMON_ENV_N; j++)
            if (env_or_null(daemon_env[j][0]) && env_is(environ[i], daemon_env[j][1]))
                drop = 1;
        if (!drop)
            e[k++] = environ[i];
    }
    e[k++] = p;
    p += sprintf(p, "IDNGUARD_CONF=%s", conf) + 1;
    for (j = 0; j < DAEMON_ENV_N; j++) {
        const char *v = env_or_null(daemon_env[j][0]);
        if (v) {
            e[k++] = p;
            p += sprintf(p, "%s=%s", daemon_env[j][1], v) + 1;
        }
    }
    e[k] = NULL;
    return e;
}

/*
 * fork + execve, stdout and stderr into out_path, stdin from /dev/null.
 * Everything the child needs is prepared before fork (tests may run
 * threads).  The child stays in our process group: Check kills a forked
 * test's whole group when it ends.
 */
static pid_t spawn(const char *prog, char *const argv[], char *const envp[], const char *out_path)
{
    int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int nul = open("/dev/null", O_RDONLY);
    pid_t parent = getpid(), pid;

    if (out < 0 || nul < 0) {
        if (out >= 0)
            close(out);
        if (nul >= 0)
            close(nul);
        return -1;
    }
    pid = fork();
    if (pid == 0) {
        sigset_t all;
        int fd;
#ifdef __linux__
        /* If the test runner dies without cleaning up, so does the daemon. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
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
        dup2(out, 1);
        dup2(out, 2);
        for (fd = 3; fd < 1024; fd++)
            close(fd);
        execve(prog, argv, envp);
        _exit(127);
    }
    close(out);
    close(nul);
    if (pid > 0)
        reg_add(pid);
    return pid;
}

/* A daemon whose exit status has been collected already. */
static void reaped(pid_t *pid)
{
    reg_del(*pid);
    *pid = 0;
}

/* SIGTERM, a bounded wait, then SIGKILL.  Only the starter can wait. */
static void stop_pid(pid_t *pid, pid_t owner)
{
    long long deadline;
    int st;

    if (*pid <= 0)
        return;
    if (owner != getpid()) {
        *pid = 0;
        return;
    }
    if (waitpid(*pid, &st, WNOHANG) == 0) {
        kill(*pid, SIGTERM);
        deadline = harness_now_ms() + HARNESS_STOP_MS;
        while (waitpid(*pid, &st, WNOHANG) == 0) {
            if (harness_now_ms() >= deadline) {
                kill(*pid, SIGKILL);
                waitpid(*pid, &st, 0);
                break;
            }
            pause_ms(10);
        }
    }
    reg_del(*pid);
    *pid = 0;
}

int harness_alive(pid_t pid, pid_t owner)
{
    char path[64], buf[512];
    FILE *f;
    size_t n;
    char *rp;
    int st;

    if (pid <= 0)
        return 0;
    if (owner == getpid())
        return waitpid(pid, &st, WNOHANG) == 0;
    /* Not our child: a dead one is a zombie until its parent reaps it. */
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

/* Polls until the daemon answers qname/qtype with NOERROR. */
static int wait_ready(pid_t pid, int port, const char *qname, uint16_t qtype, int *status)
{
    long long deadline = harness_now_ms() + HARNESS_START_MS;

    *status = -1;
    while (harness_now_ms() < deadline) {
        struct dnsq_result r;
        if (waitpid(pid, status, WNOHANG) == pid)
            return -2;
        if (dnsq_query(port, qname, qtype, 0, 0, 250, &r) == 0 && !r.timed_out && r.rcode == 0)
            return 0;
        pause_ms(POLL_MS);
    }
    return -1;
}

/* ---- start and stop ---- */

/* opts->server_extra as lines inside server: (4 spaces in front of each,
 * no final newline: the template's line has its own); malloc'd. */
static char *server_lines(const char *extra)
{
    size_t n = 0, cap = 1;
    const char *p;
    char *out;

    for (p = extra; *p; p++)
        cap += *p == '\n' ? 5 : 1;
    out = malloc(cap + 4);
    if (!out)
        return NULL;
    for (p = extra; *p;) {
        const char *nl = strchr(p, '\n');
        size_t l = nl ? (size_t)(nl - p) : strlen(p);
        if (n)
            out[n++] = '\n';
        memcpy(out + n, "    ", 4);
        memcpy(out + n + 4, p, l);
        n += 4 + l;
        p += l + (nl ? 1 : 0);
    }
    out[n] = '\0';
    return out;
}

/* Temporary directory, ports and the three configuration files. */
static int prepare(struct harness *h, const char *conf_text, int threads,
                   const struct harness_opts *opts, char *err, size_t errlen)
{
    const char *tmpl = env_or_null("IDNGUARD_TEMPLATES"), *zones = env_or_null("IDNGUARD_ZONES"),
               *module = env_or_null("IDNGUARD_MODULE"), *tmp = env_or_null("TMPDIR");
    const char *modules = opts && opts->module_config ? opts->module_config
                                                      : HARNESS_MODULES_DEFAULT;
    char path[HARNESS_PATH_MAX + 32], sport[16], snsd[16], sthreads[16];
    char *text, *out, *extra = NULL, *lines;

    memset(h, 0, sizeof *h);
    h->owner = getpid();
    h->threads = threads;
    if (!tmpl || !zones || !module || !env_or_null("IDNGUARD_UNBOUND")) {
        set_err(err, errlen,
                "IDNGUARD_TEMPLATES, IDNGUARD_ZONES, IDNGUARD_MODULE and IDNGUARD_UNBOUND "
                "must be set (run through make check-integration)");
        return -1;
    }
    snprintf(path, sizeof path, "%s/sig.anchor", zones);
    if (access(path, R_OK) != 0) {
        set_err(err, errlen,
                "%s is missing: IDNGUARD_ZONES must be the output of "
                "tests/integration/prepare-zones.sh (make zones)",
                path);
        return -1;
    }
    snprintf(h->dir, sizeof h->dir, "%s/idng-it.XXXXXX", tmp ? tmp : "/tmp");
    if (!mkdtemp(h->dir)) {
        set_err(err, errlen, "mkdtemp %s: %s", h->dir, strerror(errno));
        h->dir[0] = '\0';
        return -1;
    }
    if (pick_ports(&h->port, &h->nsd_port) != 0) {
        set_err(err, errlen, "no free loopback ports");
        return -1;
    }
    if (path_in(h->idng_conf, h->dir, "idnguard.conf")
        || path_in(h->ub_conf, h->dir, "unbound.conf") || path_in(h->ub_log, h->dir, "unbound.log")
        || path_in(h->ub_out, h->dir, "unbound.out") || path_in(h->nsd_conf, h->dir, "nsd.conf")
        || path_in(h->nsd_log, h->dir, "nsd.log") || path_in(h->nsd_out, h->dir, "nsd.out")) {
        set_err(err, errlen, "temporary directory name too long: %s", h->dir);
        return -1;
    }
    scopy(h->qlog, sizeof h->qlog, h->ub_log);
    snprintf(sport, sizeof sport, "%d", h->port);
    snprintf(snsd, sizeof snsd, "%d", h->nsd_port);
    snprintf(sthreads, sizeof sthreads, "%d", threads > 0 ? threads : 1);
    {
        /* The last two only in the templates; the extra server: lines and
         * the idnguard.conf get the others. */
        const char *pairs[][2] = {
            {"@DIR@", h->dir},        {"@ZONES@", zones},      {"@NSD_PORT@", snsd},
            {"@PORT@", sport},        {"@THREADS@", sthreads}, {"@MODULE@", module},
            {"@LOGFILE@", h->ub_log}, {"@MODULES@", modules},  {"@SERVER_EXTRA@", ""},
        };
        const char *const(*cpairs)[2] = (const char *const(*)[2])pairs;
        size_t np = sizeof pairs / sizeof pairs[0];
        const char *files[][2] = {{"nsd.conf.in", h->nsd_conf}, {"unbound.conf.in", h->ub_conf}};
        size_t i;

        lines = server_lines(opts && opts->server_extra ? opts->server_extra : "");
        extra = lines ? subst(lines, cpairs, np - 2) : NULL;
        free(lines);
        if (!extra) {
            set_err(err, errlen, "out of memory");
            return -1;
        }
        pairs[np - 1][1] = extra;
        for (i = 0; i < 2; i++) {
            snprintf(path, sizeof path, "%s/%s", tmpl, files[i][0]);
            text = harness_read_file(path, 0, NULL);
            out = text ? subst(text, cpairs, np) : NULL;
            free(text);
            if (!out || write_file(files[i][1], out) != 0) {
                free(out);
                free(extra);
                set_err(err, errlen, "cannot fill the template %s", path);
                return -1;
            }
            free(out);
        }
        free(extra);
        out = subst(conf_text, cpairs, np - 2);
        if (!out || write_file(h->idng_conf, out) != 0) {
            free(out);
            set_err(err, errlen, "cannot write %s", h->idng_conf);
            return -1;
        }
        free(out);
    }
    return 0;
}

static pid_t start_unbound(struct harness *h)
{
    const char *ub = getenv("IDNGUARD_UNBOUND");
    char *argv[] = {(char *)ub, "-d", "-c", h->ub_conf, NULL};
    char **envp = env_with_conf(h->idng_conf);
    pid_t pid;

    if (!envp)
        return -1;
    pid = spawn(ub, argv, envp, h->ub_out);
    free(envp);
    return pid;
}

static pid_t start_nsd(struct harness *h)
{
    char prog[HARNESS_PATH_MAX];
    char *argv[] = {"nsd", "-d", "-c", h->nsd_conf, NULL};

    if (find_program("nsd", prog, sizeof prog) != 0)
        return -1;
    return spawn(prog, argv, environ, h->nsd_out);
}

/* "what: exit status; tail of log and out" into err. */
static void describe_failure(const char *what, int status, const char *log, const char *out,
                             char *err, size_t errlen)
{
    char t1[TAIL_MAX], t2[TAIL_MAX / 2], st[64];

    harness_tail(log, t1, sizeof t1);
    harness_tail(out, t2, sizeof t2);
    if (status == -1)
        snprintf(st, sizeof st, "did not answer within %d ms", HARNESS_START_MS);
    else if (WIFEXITED(status))
        snprintf(st, sizeof st, "exited with status %d", WEXITSTATUS(status));
    else
        snprintf(st, sizeof st, "died of signal %d", WTERMSIG(status));
    if (err && errlen)
        snprintf(err, errlen, "%s %s\n--- log tail ---\n%s\n--- stderr ---\n%s", what, st, t1, t2);
}

/* A daemon that exited at once because its port was taken in the meantime. */
static int lost_port_race(const char *log, const char *out)
{
    char t[TAIL_MAX * 2];
    harness_tail(log, t, sizeof t);
    if (strstr(t, "in use"))
        return 1;
    harness_tail(out, t, sizeof t);
    return strstr(t, "in use") != NULL;
}

/* NSD answers for these before Unbound is started: the zones are loaded.
 * (NSD starts without a zone whose file is missing, and answers SERVFAIL
 * for it; the suites that use such a zone see that.) */
static const char *const nsd_ready_names[] = {"example.", "sig.", "deny.sig.", "bad.sig."};

int harness_start_ex(struct harness *h, const char *conf_text, int threads,
                     const struct harness_opts *opts, char *err, size_t errlen)
{
    int attempt, status, w = 0;
    size_t z;

    for (attempt = 0; attempt < 3; attempt++) {
        if (prepare(h, conf_text, threads, opts, err, errlen) != 0)
            goto fail;
        h->nsd_pid = start_nsd(h);
        if (h->nsd_pid <= 0) {
            set_err(err, errlen, "cannot start nsd (not installed?)");
            goto fail;
        }
        for (z = 0; z < sizeof nsd_ready_names / sizeof nsd_ready_names[0]; z++)
            if ((w = wait_ready(h->nsd_pid, h->nsd_port, nsd_ready_names[z], DNSQ_SOA, &status))
                != 0)
                break;
        if (w == -2)
            reaped(&h->nsd_pid);
        if (w == -2 && lost_port_race(h->nsd_log, h->nsd_out)) {
            harness_stop(h);
            continue;
        }
        if (w != 0) {
            describe_failure("nsd", status, h->nsd_log, h->nsd_out, err, errlen);
            goto fail;
        }
        h->ub_pid = start_unbound(h);
        if (h->ub_pid <= 0) {
            set_err(err, errlen, "cannot start %s", getenv("IDNGUARD_UNBOUND"));
            goto fail;
        }
        w = wait_ready(h->ub_pid, h->port, "ready.local.test.", DNSQ_A, &status);
        if (w == -2)
            reaped(&h->ub_pid);
        if (w == -2 && lost_port_race(h->ub_log, h->ub_out)) {
            harness_stop(h);
            continue;
        }
        if (w != 0) {
            describe_failure("unbound", status, h->ub_log, h->ub_out, err, errlen);
            goto fail;
        }
        return 0;
    }
    set_err(err, errlen, "could not get free ports in three attempts");
    return -1;
fail:
    harness_stop(h);
    return -1;
}

int harness_start(struct harness *h, const char *conf_text, int threads, char *err, size_t errlen)
{
    return harness_start_ex(h, conf_text, threads, NULL, err, errlen);
}

void harness_stop(struct harness *h)
{
    stop_pid(&h->ub_pid, h->owner);
    stop_pid(&h->nsd_pid, h->owner);
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
    char err[512], t1[TAIL_MAX * 2], t2[TAIL_MAX];
    long long deadline;
    int rc = -1;

    *status = -1;
    if (logcap)
        log[0] = '\0';
    if (prepare(&h, conf_text, 1, NULL, err, sizeof err) != 0) {
        snprintf(log, logcap, "%s", err);
        remove_dir(h.dir);
        return -1;
    }
    snprintf(conf_path, pathcap, "%s", h.idng_conf);
    h.ub_pid = start_unbound(&h);
    if (h.ub_pid <= 0) {
        remove_dir(h.dir);
        return -1;
    }
    deadline = harness_now_ms() + HARNESS_START_MS;
    while (harness_now_ms() < deadline) {
        if (waitpid(h.ub_pid, status, WNOHANG) == h.ub_pid) {
            reaped(&h.ub_pid);
            rc = 0;
            break;
        }
        pause_ms(POLL_MS);
    }
    if (rc != 0) {
        stop_pid(&h.ub_pid, h.owner);
        rc = 1;
    }
    harness_tail(h.ub_log, t1, sizeof t1);
    harness_tail(h.ub_out, t2, sizeof t2);
    snprintf(log, logcap, "%s%s", t1, t2);
    remove_dir(h.dir);
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
        pause_ms(POLL_MS);
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
        pause_ms(POLL_MS);
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
    ck_assert_msg(r->ede_code == -1, "%s: EDE %d \"%s\" on an answer", qname_log, r->ede_code,
                  r->ede_text);
    ck_assert_msg(strcmp(q->qname, qname_log) == 0, "line's qname %s, expected %s: %s", q->qname,
                  qname_log, q->raw);
    ck_assert_msg(strcmp(q->rcode, "NOERROR") == 0 && strcmp(q->verdict, verdict) == 0
                      && strcmp(q->action, action) == 0 && strcmp(q->path, path) == 0
                      && q->ede == -1,
                  "%s: line says %s %s %s %s ede=%d; expected NOERROR %s %s %s: %s", qname_log,
                  q->rcode, q->verdict, q->action, q->path, q->ede, verdict, action, path, q->raw);
}
