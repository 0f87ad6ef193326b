/**
 * \file
 * Lists at blocklist scale (goal: a million names in a deny-file, an
 * allow-file or a protect-file load in under a second, and cost the
 * judgment of a name nothing measurable).
 *
 * In one run, on files of N names each (default 1,000,000) made in a
 * temporary directory:
 *   load     idng_conf_load of settings naming no file, a deny-file, an
 *            allow-file, a protect-file, and all three: seconds, median
 *            (min-max) of 5; beside it the peer `sort -u` of the same file
 *            (reads, sorts and dedupes the lines: what any tool that takes
 *            a list pays), and load/sort
 *   memory   the heap the loaded list holds per name, as requested from
 *            malloc (idng_nameset_mem, idng_protect_mem), and the growth of
 *            the process's resident size over the load per name (a fresh
 *            child process for each file, so nothing freed before counts)
 *   judge    idng_policy_judge of the 20 names of the resolver bench's
 *            hits workload (none of them listed) under each of the
 *            settings above: ns per name, median (min-max) of interleaved
 *            rounds, and the ratio to the settings naming no file
 * The machine's load average at start and end is recorded.
 *
 * usage: lists_bench [N] [OUT.md]
 */
#define _GNU_SOURCE
#include "idng_conf.h"
#include "idng_lookalike.h"
#include "idng_policy.h"
#include "idnguard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LOADS 5
#define ROUNDS 9
#define MIN_NS 40000000.0 /* each judge measurement runs at least 40 ms */

static char dir[256];

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void die(const char *what)
{
    perror(what);
    exit(2);
}

/* The file of names of one kind: d (deny), a (allow), p (protect, a tenth
 * of them IDNs, as the resolver bench's protect-file). */
static void make_names(const char *path, char kind, unsigned long n)
{
    FILE *f = fopen(path, "w");
    unsigned long i;

    if (f == NULL)
        die(path);
    for (i = 0; i < n; i++) {
        unsigned long h = (i * 2654435761UL) & 0xffffffffUL;
        if (kind == 'p' && i % 10 == 0)
            fprintf(f, "b\303\274cher%lu.protect%lu.example\n", i, i % 97);
        else if (kind == 'p')
            fprintf(f, "brand%lu.protect%lu.example\n", i, i % 97);
        else
            fprintf(f, "%c%lu-%08lx.list%lu.example\n", kind, i, h, i % 97);
    }
    if (fclose(f) != 0)
        die(path);
}

/* Settings naming the files of keys (a string of d, a, p) into path. */
static void make_settings(const char *path, const char *keys)
{
    FILE *f = fopen(path, "w");

    if (f == NULL)
        die(path);
    fprintf(f, "idnguard:\n");
    for (; *keys != '\0'; keys++)
        fprintf(f, "    %s: %s/%c.txt\n",
                *keys == 'd'   ? "deny-file"
                : *keys == 'a' ? "allow-file"
                               : "protect-file",
                dir, *keys);
    if (fclose(f) != 0)
        die(path);
}

static void load(struct idng_conf *c, const char *path)
{
    char err[2048];

    if (idng_conf_load(c, path, err, sizeof err) != 0) {
        fprintf(stderr, "lists_bench: %s\n", err);
        exit(2);
    }
}

static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;

    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "VmRSS: %ld", &kb) == 1)
            break;
    fclose(f);
    return kb;
}

/* Growth of the resident size over one load of the settings at path, in
 * a child of its own: KiB. */
static long rss_growth(const char *path)
{
    int fd[2];
    long kb = -1;
    pid_t pid;

    if (pipe(fd) != 0)
        die("pipe");
    if ((pid = fork()) < 0)
        die("fork");
    if (pid == 0) {
        struct idng_conf c;
        long before = rss_kib(), grown;
        idng_conf_init(&c);
        load(&c, path);
        grown = rss_kib() - before;
        if (write(fd[1], &grown, sizeof grown) != (ssize_t)sizeof grown)
            _exit(1);
        _exit(0);
    }
    close(fd[1]);
    if (read(fd[0], &kb, sizeof kb) != (ssize_t)sizeof kb)
        kb = -1;
    close(fd[0]);
    waitpid(pid, NULL, 0);
    return kb;
}

/* Median (min-max) of LOADS loads of the settings at path; seconds. */
static void time_loads(const char *path, double *t)
{
    struct idng_conf c;
    int k;

    for (k = 0; k < LOADS; k++) {
        double t0;
        idng_conf_init(&c);
        t0 = now_s();
        load(&c, path);
        t[k] = now_s() - t0;
        idng_conf_free(&c);
    }
    qsort(t, LOADS, sizeof t[0], cmp_double);
}

/* Median (min-max) of LOADS runs of `sort -u` on the file; seconds. */
static void time_sort(const char *file, double *t)
{
    char cmd[600];
    int k;

    snprintf(cmd, sizeof cmd, "LC_ALL=C sort -u '%s' > /dev/null", file);
    for (k = 0; k < LOADS; k++) {
        double t0 = now_s();
        if (system(cmd) != 0)
            die("sort -u");
        t[k] = now_s() - t0;
    }
    qsort(t, LOADS, sizeof t[0], cmp_double);
}

static const char *const hits[] = {
    "www.example",
    "example",
    "ns.example",
    "example",
    "_dmarc.example",
    "r3---sn-abc.example",
    "a--b.example",
    "-x.example",
    "www2.example",
    "sub.www.example",
    "ok.www.example",
    "www.example",
    "good-alias.example",
    "xn--bcher-kva.example",
    "xn--bcher-kva.example",
    "xn--80aafi6cg.example",
    "xn--mgba3gch31f060k.example",
    "xn--pypal-4ve.example",
    "xn--fa-hia.example",
    "xn--ab-m1t.example",
};
#define NHITS (sizeof hits / sizeof hits[0])

static uint8_t hit_wire[NHITS][IDNG_WIRE_MAX];
static size_t hit_len[NHITS];
static volatile unsigned sink;

/* ns per name of idng_policy_judge over the hits under p. */
static double judge_ns(const struct idng_policy *p)
{
    double t0 = now_s(), el;
    unsigned long reps = 0;
    struct idng_verdict v;
    size_t i;

    do {
        for (i = 0; i < NHITS; i++) {
            idng_policy_judge(p, hit_wire[i], hit_len[i], &v);
            sink += (unsigned)v.action;
        }
        reps++;
        el = (now_s() - t0) * 1e9;
    } while (el < MIN_NS);
    return el / (double)(reps * NHITS);
}

static void loadavg(char *buf, size_t cap)
{
    FILE *f = fopen("/proc/loadavg", "r");
    buf[0] = '\0';
    if (f != NULL) {
        if (fgets(buf, (int)cap, f) != NULL) {
            char *sp = buf;
            int k;
            for (k = 0; k < 3 && sp != NULL; k++)
                sp = strchr(sp + 1, ' ');
            if (sp != NULL)
                *sp = '\0';
        }
        fclose(f);
    }
}

int main(int argc, char **argv)
{
    static const struct {
        const char *keys, *label;
    } cases[] = {{"", "no file"},
                 {"d", "deny-file"},
                 {"a", "allow-file"},
                 {"p", "protect-file"},
                 {"dap", "all three"}};
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000UL;
    FILE *out = stdout;
    char path[512], load_start[64], load_end[64];
    double t[5][LOADS], srt[3][LOADS], r[5][ROUNDS];
    long grown[3];
    struct idng_conf conf[5];
    size_t i, mem[3];
    int k;

    if (n == 0) {
        fprintf(stderr, "usage: lists_bench [N] [OUT.md]\n");
        return 2;
    }
    loadavg(load_start, sizeof load_start);
    snprintf(dir, sizeof dir, "%s/idng-lists.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (mkdtemp(dir) == NULL)
        die("mkdtemp");
    for (k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/%c.txt", dir, "dap"[k]);
        make_names(path, "dap"[k], n);
        time_sort(path, srt[k]);
    }
    for (k = 0; k < 5; k++) {
        snprintf(path, sizeof path, "%s/s%d.conf", dir, k);
        make_settings(path, cases[k].keys);
        time_loads(path, t[k]);
        if (k >= 1 && k <= 3)
            grown[k - 1] = rss_growth(path);
    }
    for (k = 0; k < 5; k++) {
        idng_conf_init(&conf[k]);
        snprintf(path, sizeof path, "%s/s%d.conf", dir, k);
        load(&conf[k], path);
    }
    mem[0] = idng_nameset_mem(&conf[4].policy.deny);
    mem[1] = idng_nameset_mem(&conf[4].policy.allow);
    mem[2] = idng_protect_mem(&conf[4].policy.protect);
    for (i = 0; i < NHITS; i++) {
        char ascii[IDNG_NAME_MAX + 2];
        size_t alen = sizeof ascii;
        hit_len[i] = IDNG_WIRE_MAX;
        memcpy(ascii, hits[i], alen = strlen(hits[i]));
        if (idng_text_to_wire(ascii, alen, hit_wire[i], &hit_len[i], NULL) != IDNG_OK)
            return 2;
    }
    for (k = 0; k < ROUNDS; k++)
        for (i = 0; i < 5; i++)
            r[i][k] = judge_ns(&conf[i].policy);
    for (i = 0; i < 5; i++)
        qsort(r[i], ROUNDS, sizeof r[i][0], cmp_double);
    loadavg(load_end, sizeof load_end);
    for (k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/%c.txt", dir, "dap"[k]);
        unlink(path);
    }
    for (k = 0; k < 5; k++) {
        snprintf(path, sizeof path, "%s/s%d.conf", dir, k);
        unlink(path);
    }
    rmdir(dir);

    if (argc > 2 && (out = fopen(argv[2], "w")) == NULL)
        die(argv[2]);
    fprintf(out, "# Lists at blocklist scale: %lu names a file\n\n", n);
    fprintf(out,
            "`make bench-lists` (bench/lists_bench.c). Load average at start: %s; at end: "
            "%s.\n\n",
            load_start, load_end);
    fprintf(out,
            "## Load\n\nidng_conf_load of settings naming the files, seconds, median "
            "(min-max) of %d; the peer is `LC_ALL=C sort -u` of the same file, in the "
            "same run.\n\n",
            LOADS);
    fprintf(out, "| settings | load, s | sort -u, s | load/sort |\n|---|---:|---:|---:|\n");
    for (k = 0; k < 5; k++) {
        fprintf(out, "| %s | %.3f (%.3f-%.3f) | ", cases[k].label, t[k][LOADS / 2], t[k][0],
                t[k][LOADS - 1]);
        if (k >= 1 && k <= 3)
            fprintf(out, "%.3f | %.2f |\n", srt[k - 1][LOADS / 2],
                    t[k][LOADS / 2] / srt[k - 1][LOADS / 2]);
        else
            fprintf(out, "- | - |\n");
    }
    fprintf(out, "\n## Memory\n\nPer name: the heap the list holds (as requested from malloc), "
                 "and the resident size a load adds (a fresh process each; the file's octets, "
                 "read whole and freed, are in the peak but not in what stays).\n\n");
    fprintf(out, "| list | heap, octets/name | resident growth, octets/name |\n|---|---:|---:|\n");
    for (k = 0; k < 3; k++)
        fprintf(out, "| %s | %.1f | %.1f |\n", cases[k + 1].label, (double)mem[k] / (double)n,
                grown[k] * 1024.0 / (double)n);
    fprintf(out,
            "\n## Judgment\n\nidng_policy_judge of the resolver bench's 20 hits names "
            "(none listed), ns per name, median (min-max) of %d interleaved rounds.\n\n",
            ROUNDS);
    fprintf(out, "| settings | ns per name | to no file |\n|---|---:|---:|\n");
    for (i = 0; i < 5; i++)
        fprintf(out, "| %s | %.1f (%.1f-%.1f) | %.3f |\n", cases[i].label, r[i][ROUNDS / 2],
                r[i][0], r[i][ROUNDS - 1], r[i][ROUNDS / 2] / r[0][ROUNDS / 2]);
    for (i = 0; i < 5; i++)
        idng_conf_free(&conf[i]);
    if (out != stdout)
        fclose(out);
    return sink == 0xFFFFFFFFu;
}
