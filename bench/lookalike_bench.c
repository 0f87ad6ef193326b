/**
 * \file
 * What the UTS #39 lookalike judgment costs (goal: at most 30% on top of
 * the validation of an xn-- name, nothing for ASCII names; 100,000
 * protected names load in under a second and cost no measurable time per
 * name).
 *
 * Sets: the Public Suffix List's IDNs (A-label wire names) and its ASCII
 * names.  For each set, interleaved rounds of:
 *   check       idng_wire_check_each under uts46: the validation, as the
 *               policy ran it before UTS #39
 *   check+r6    the same walk with rule 6 on the side, as the policy runs
 *               it now (idng_wire_check_labels handing each decoded label to
 *               idng_lookalike_label, then idng_lookalike_finish): levels and
 *               mixed numbers, no protected names
 *   +100k       the same with 100,000 protected names (adds the skeletons)
 *   judge       idng_policy_judge, default settings (lists, rules 2-6)
 *   judge+100k  idng_policy_judge with the 100,000 protected names
 * ns per name, median and min-max of the rounds, and the ratios.
 * Then the time to load the 100,000 names from a protect-file (conf parse,
 * validation and skeletons), median of 5, and the set's memory.
 *
 * usage: lookalike_bench PSL_FILE [OUT.md]
 *        lookalike_bench -i MEASURE SET REPS PSL_FILE
 *
 * With -i, one measurement (check, check+r6, +100k, judge, judge+100k) over
 * one set (psl-idn, psl-ascii), REPS times, in profile_loop and nothing
 * else: what bench/lookalike_profile.sh runs under callgrind
 * (--toggle-collect=profile_loop) for instructions per name.
 */
#include "idng_conf.h"
#include "idng_lookalike.h"
#include "idng_policy.h"
#include "idnguard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 9
#define MIN_NS 40000000.0 /* each measurement runs at least 40 ms */
#define PROTECTED 100000

struct set {
    const char *name;
    uint8_t (*wire)[IDNG_WIRE_MAX];
    size_t *len, n;
};

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void set_add(struct set *s, const char *text, size_t tlen)
{
    char ascii[IDNG_NAME_MAX + 2];
    size_t alen = sizeof ascii, wlen = IDNG_WIRE_MAX;
    uint8_t w[IDNG_WIRE_MAX];

    if (idng_to_ascii(text, tlen, ascii, &alen, IDNG_MODE_UTS46, 0, NULL) != IDNG_OK
        || idng_text_to_wire(ascii, alen, w, &wlen, NULL) != IDNG_OK)
        return;
    s->wire = realloc(s->wire, (s->n + 1) * sizeof *s->wire);
    s->len = realloc(s->len, (s->n + 1) * sizeof *s->len);
    if (s->wire == NULL || s->len == NULL) {
        perror("realloc");
        exit(2);
    }
    memcpy(s->wire[s->n], w, wlen);
    s->len[s->n++] = wlen;
}

/* The PSL's rules, wildcards and exceptions stripped: IDNs into idn, the
 * rest into ascii. */
static void load_psl(const char *path, struct set *idn, struct set *ascii)
{
    char line[512];
    FILE *f = fopen(path, "r");

    if (f == NULL) {
        perror(path);
        exit(2);
    }
    while (fgets(line, sizeof line, f)) {
        char *p = line;
        size_t n = strcspn(line, " \t\r\n"), i;
        int raw = 0;
        if (n == 0 || line[0] == '/')
            continue;
        if (p[0] == '!')
            p++, n--;
        if (n > 2 && p[0] == '*' && p[1] == '.')
            p += 2, n -= 2;
        for (i = 0; i < n; i++)
            raw |= (unsigned char)p[i] >= 0x80;
        set_add(raw ? idn : ascii, p, n);
    }
    fclose(f);
}

enum { M_CHECK, M_SCAN, M_SCAN_P, M_JUDGE, M_JUDGE_P, M_COUNT };
static const char *const m_names[M_COUNT] = {"check", "check+r6", "+100k", "judge", "judge+100k"};

static volatile unsigned sink;
static struct idng_lookalike_run lk_run;

/* Measurement m over every name of s, once. */
static void pass(int m, const struct set *s, const struct idng_policy *plain,
                 const struct idng_policy *prot)
{
    size_t i;

    for (i = 0; i < s->n; i++) {
        struct idng_lookalike f;
        struct idng_verdict v;
        idng_error each[IDNG_LABELS_MAX];
        size_t cnt;
        switch (m) {
        case M_CHECK:
            sink += (unsigned)idng_wire_check_each(s->wire[i], s->len[i], IDNG_MODE_UTS46, each,
                                                   IDNG_LABELS_MAX, &cnt);
            break;
        case M_SCAN:
        case M_SCAN_P:
            /* As the policy runs it: a plain ASCII name skips both. */
            if (idng_wire_is_plain(s->wire[i], s->len[i]))
                break;
            idng_lookalike_start(&lk_run, m == M_SCAN ? NULL : &prot->protect, IDNG_RL_HIGHLY,
                                 IDNG_MODE_UTS46, s->wire[i], s->len[i]);
            sink += (unsigned)idng_wire_check_labels(s->wire[i], s->len[i], IDNG_MODE_UTS46, each,
                                                     IDNG_LABELS_MAX, &cnt, idng_lookalike_label,
                                                     &lk_run);
            if (lk_run.any)
                sink += (unsigned)idng_lookalike_finish(&lk_run, &f);
            break;
        case M_JUDGE:
            idng_policy_judge(plain, s->wire[i], s->len[i], &v);
            sink += v.action;
            break;
        default:
            idng_policy_judge(prot, s->wire[i], s->len[i], &v);
            sink += v.action;
            break;
        }
    }
}

static double run(int m, const struct set *s, const struct idng_policy *plain,
                  const struct idng_policy *prot)
{
    double t0 = now_ns(), t;
    size_t reps = 0;

    do {
        pass(m, s, plain, prot);
        reps++;
        t = now_ns() - t0;
    } while (t < MIN_NS);
    return t / (double)(reps * s->n);
}

/* The loop callgrind counts (-i): reps passes of measurement m over s. */
__attribute__((noinline)) void profile_loop(int m, const struct set *s,
                                            const struct idng_policy *plain,
                                            const struct idng_policy *prot, long reps);
__attribute__((noinline)) void profile_loop(int m, const struct set *s,
                                            const struct idng_policy *plain,
                                            const struct idng_policy *prot, long reps)
{
    long k;

    for (k = 0; k < reps; k++)
        pass(m, s, plain, prot);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* 100,000 protected names: a tenth of them IDNs, the rest ASCII. */
static char *protect_file(char *path, size_t cap)
{
    int fd;
    FILE *f;
    int i;

    snprintf(path, cap, "%s/idng-protect-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    fd = mkstemp(path);
    if (fd < 0 || (f = fdopen(fd, "w")) == NULL) {
        perror(path);
        exit(2);
    }
    for (i = 0; i < PROTECTED; i++) {
        if (i % 10 == 0)
            fprintf(f, "b\xc3\xbc" "cher%d.example\n", i);
        else
            fprintf(f, "brand%d.example\n", i);
    }
    fclose(f);
    return path;
}

/* -i: measurement mname over set sname, reps times, in profile_loop alone
 * (the protected names are loaded only for the measurements that use them). */
static int profile(const char *mname, const char *sname, long reps, const char *psl)
{
    struct set sets[2] = {{"psl-idn", NULL, NULL, 0}, {"psl-ascii", NULL, NULL, 0}};
    static struct idng_conf plain, prot;
    char path[256], conf[512], err[4096];
    int m, si;

    for (m = 0; m < M_COUNT && strcmp(m_names[m], mname) != 0; m++)
        ;
    for (si = 0; si < 2 && strcmp(sets[si].name, sname) != 0; si++)
        ;
    if (m == M_COUNT || si == 2 || reps <= 0) {
        fprintf(stderr,
                "lookalike_bench -i: no measurement '%s' or set '%s', or REPS %ld "
                "not positive\n",
                mname, sname, reps);
        return 2;
    }
    load_psl(psl, &sets[0], &sets[1]);
    idng_conf_init(&plain);
    idng_conf_init(&prot);
    if (m == M_SCAN_P || m == M_JUDGE_P) {
        protect_file(path, sizeof path);
        snprintf(conf, sizeof conf, "idnguard:\n    protect-file: %s\n", path);
        if (idng_conf_parse(&prot, conf, strlen(conf), "bench", err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            unlink(path);
            return 2;
        }
        unlink(path);
    }
    profile_loop(m, &sets[si], &plain.policy, &prot.policy, reps);
    printf("%zu\n", sets[si].n);
    idng_conf_free(&plain);
    idng_conf_free(&prot);
    return sink == 0xFFFFFFFFu;
}

int main(int argc, char **argv)
{
    struct set sets[2] = {{"psl-idn", NULL, NULL, 0}, {"psl-ascii", NULL, NULL, 0}};
    static struct idng_conf plain, prot;
    char path[256], conf[512], err[4096];
    double load[5], r[M_COUNT][ROUNDS];
    FILE *out = stdout;
    int si, m, k;

    if (argc == 6 && strcmp(argv[1], "-i") == 0)
        return profile(argv[2], argv[3], atol(argv[4]), argv[5]);
    if (argc < 2) {
        fprintf(stderr, "usage: lookalike_bench PSL_FILE [OUT.md]\n"
                        "       lookalike_bench -i MEASURE SET REPS PSL_FILE\n");
        return 2;
    }
    load_psl(argv[1], &sets[0], &sets[1]);
    protect_file(path, sizeof path);
    snprintf(conf, sizeof conf, "idnguard:\n    protect-file: %s\n", path);
    idng_conf_init(&plain);
    idng_conf_init(&prot);
    for (k = 0; k < 5; k++) {
        double t0 = now_ns();
        if (idng_conf_parse(&prot, conf, strlen(conf), "bench", err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        load[k] = (now_ns() - t0) / 1e9;
    }
    unlink(path);
    if (argc > 2 && (out = fopen(argv[2], "w")) == NULL) {
        perror(argv[2]);
        return 2;
    }
    qsort(load, 5, sizeof load[0], cmp_double);
    fprintf(out, "# UTS #39 lookalike judgment: cost per name\n\n");
    fprintf(out, "ns per name, median (min-max) of %d interleaved rounds; ratio = to the "
                 "validation (check) of the same names.\n\n",
            ROUNDS);
    fprintf(out, "| set | names | check | check+r6 | +100k | judge | judge+100k | "
                 "check+r6/check | +100k/check | judge+100k/judge |\n");
    fprintf(out, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (si = 0; si < 2; si++) {
        const struct set *s = &sets[si];
        double med[M_COUNT];
        char cell[M_COUNT][48];
        for (k = 0; k < ROUNDS; k++)
            for (m = 0; m < M_COUNT; m++)
                r[m][k] = run(m, s, &plain.policy, &prot.policy);
        for (m = 0; m < M_COUNT; m++) {
            qsort(r[m], ROUNDS, sizeof r[m][0], cmp_double);
            med[m] = r[m][ROUNDS / 2];
            snprintf(cell[m], sizeof cell[m], "%.1f (%.1f-%.1f)", med[m], r[m][0],
                     r[m][ROUNDS - 1]);
        }
        fprintf(out, "| %s | %zu | %s | %s | %s | %s | %s | %.2f | %.2f | %.2f |\n", s->name,
                s->n, cell[M_CHECK], cell[M_SCAN], cell[M_SCAN_P], cell[M_JUDGE],
                cell[M_JUDGE_P], med[M_SCAN] / med[M_CHECK], med[M_SCAN_P] / med[M_CHECK],
                med[M_JUDGE_P] / med[M_JUDGE]);
    }
    fprintf(out, "\n%d protected names (a tenth IDNs) from a protect-file: parsed, validated "
                 "and their skeletons hashed in %.3f s (median of 5; %.3f-%.3f); %.1f MiB "
                 "held.\n",
            PROTECTED, load[2], load[0], load[4],
            idng_protect_mem(&prot.policy.protect) / 1048576.0);
    fprintf(out, "\ncheck+r6/check - 1 is what rule 6 adds to the validation of a name "
                 "(the goal: at most 0.30 for xn-- names, 0 for ASCII ones); "
                 "judge+100k/judge what 100,000 protected names add to a judgment.\n");
    idng_conf_free(&plain);
    idng_conf_free(&prot);
    if (out != stdout)
        fclose(out);
    return sink == 0xFFFFFFFFu;
}
