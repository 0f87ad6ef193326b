/**
 * \file
 * Codec benchmark: idnguard's codec against ICU (UTS #46) and libidn2, in
 * one process, on the same inputs.
 *
 * Jobs:
 *  (a) validate an xn-- name and convert it to Unicode: idng_to_unicode
 *      (uts46), idng_name_check and idng_wire_check (the module judges the
 *      query name in wire form), ICU uidna_nameToUnicodeUTF8, libidn2
 *      idn2_to_unicode_8z8z (which only decodes: libidn2 2.3 checks nothing
 *      on this path) and idn2_lookup_u8 (which validates A-labels);
 *  (b) convert a Unicode name to ASCII: idng_to_ascii, ICU
 *      uidna_nameToASCII_UTF8, idn2_lookup_u8;
 *  (c) an ASCII-only name with no xn-- label: idng_name_check and
 *      idng_to_ascii, and the peers' to-ASCII.
 *
 * Input sets: RFC 3492's samples, six hand-picked names (hyphens at label
 * edges, sharp s, Persian, a symbol), every IDN entry of
 * the Public Suffix List (both forms; the A-label form computed once with
 * ICU), worst-case 63-octet labels built here ("worst-case") and those of
 * tests/codec/worst_case.h when it exists ("worst-tests"; built with
 * -DHAVE_WORST_CASE_H -Itests/codec), ASCII names (a fixed list, and every
 * ASCII entry of the Public Suffix List).  "harness" times the loop and the
 * indirect call alone.
 *
 * Each (set, job, library) is timed in BENCH_RUNS runs (default 15) of
 * enough iterations over the whole set to last about BENCH_RUN_MS (default
 * 8) milliseconds, the runs of the libraries interleaved; the median of the
 * runs, in ns per name, is reported.  Heap allocations are counted in a
 * separate pass by interposing malloc and friends in this binary.  Results
 * that disagree between libraries (accepted by one and rejected by the
 * other, or converted differently) are counted per set and listed.
 *
 * Usage: codec_bench [-o CSV] [-m MARKDOWN] [-d DISAGREEMENTS] [-p PSL] [-s DUMPDIR]
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "codec_sets.h"
#include "idnguard.h"

#include <idn2.h>
#include <unicode/uidna.h>
#include <unicode/uversion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Allocation counting: this binary's malloc family shadows libc's for
 * every library loaded into it (ICU, libidn2 and libc itself call
 * malloc through the PLT), and forwards to glibc's own entry points.    */

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

static unsigned long long n_allocs;
#define EXPORTED __attribute__((visibility("default")))

EXPORTED void *malloc(size_t n)
{
    n_allocs++;
    return __libc_malloc(n);
}

EXPORTED void *calloc(size_t a, size_t b)
{
    n_allocs++;
    return __libc_calloc(a, b);
}

EXPORTED void *realloc(void *p, size_t n)
{
    n_allocs++;
    return __libc_realloc(p, n);
}

EXPORTED void free(void *p)
{
    __libc_free(p);
}

EXPORTED void *memalign(size_t al, size_t n)
{
    n_allocs++;
    return __libc_memalign(al, n);
}

EXPORTED void *aligned_alloc(size_t al, size_t n)
{
    n_allocs++;
    return __libc_memalign(al, n);
}

EXPORTED int posix_memalign(void **p, size_t al, size_t n)
{
    void *q;
    n_allocs++;
    q = __libc_memalign(al, n);
    if (!q)
        return 12; /* ENOMEM */
    *p = q;
    return 0;
}

/* ------------------------------------------------------------------ */
/* The operations                                                        */

/* Each returns 1 when the name is accepted, 0 when rejected; the output,
 * when there is one, goes to out (NUL-terminated). */
typedef int (*op_fn)(const struct name *nm, char *out);

static int op_idng_to_unicode(const struct name *nm, char *out)
{
    size_t olen = OUT_MAX;
    return idng_to_unicode(nm->s, nm->len, out, &olen, IDNG_MODE_UTS46, 0, NULL) == IDNG_OK;
}

static int op_idng_to_ascii(const struct name *nm, char *out)
{
    size_t olen = OUT_MAX;
    return idng_to_ascii(nm->s, nm->len, out, &olen, IDNG_MODE_UTS46, 0, NULL) == IDNG_OK;
}

static int op_idng_name_check(const struct name *nm, char *out)
{
    out[0] = '\0';
    return idng_name_check(nm->s, nm->len, IDNG_MODE_UTS46, NULL) == IDNG_OK;
}

static int op_idng_wire_check(const struct name *nm, char *out)
{
    out[0] = '\0';
    if (!nm->wire)
        return 0;
    return idng_wire_check(nm->wire, nm->wire_len, IDNG_MODE_UTS46, NULL) == IDNG_OK;
}

static int op_icu_to_unicode(const struct name *nm, char *out)
{
    UIDNAInfo info = UIDNA_INFO_INITIALIZER;
    UErrorCode e = U_ZERO_ERROR;
    int32_t n = uidna_nameToUnicodeUTF8(icu, nm->s, (int32_t)nm->len, out, OUT_MAX - 1, &info, &e);
    if (U_FAILURE(e) || n < 0) {
        out[0] = '\0';
        return 0;
    }
    out[n] = '\0';
    return info.errors == 0;
}

static int op_icu_to_ascii(const struct name *nm, char *out)
{
    UIDNAInfo info = UIDNA_INFO_INITIALIZER;
    UErrorCode e = U_ZERO_ERROR;
    int32_t n = uidna_nameToASCII_UTF8(icu, nm->s, (int32_t)nm->len, out, OUT_MAX - 1, &info, &e);
    if (U_FAILURE(e) || n < 0) {
        out[0] = '\0';
        return 0;
    }
    out[n] = '\0';
    return info.errors == 0;
}

#define IDN2_FLAGS (IDN2_NONTRANSITIONAL | IDN2_USE_STD3_ASCII_RULES)

static int op_idn2_lookup(const struct name *nm, char *out)
{
    uint8_t *r = NULL;
    int rc = idn2_lookup_u8((const uint8_t *)nm->s, &r, IDN2_FLAGS);
    out[0] = '\0';
    if (rc == IDN2_OK && r) {
        size_t n = strlen((char *)r);
        if (n < OUT_MAX)
            memcpy(out, r, n + 1);
    }
    idn2_free(r);
    return rc == IDN2_OK;
}

static int op_idn2_to_unicode(const struct name *nm, char *out)
{
    char *r = NULL;
    int rc = idn2_to_unicode_8z8z(nm->s, &r, 0);
    out[0] = '\0';
    if (rc == IDN2_OK && r) {
        size_t n = strlen(r);
        if (n < OUT_MAX)
            memcpy(out, r, n + 1);
    }
    idn2_free(r);
    return rc == IDN2_OK;
}

/* The harness alone: the indirect call and the loop, for reference. */
static int op_noop(const struct name *nm, char *out)
{
    out[0] = '\0';
    return nm->len != 0;
}

struct lib {
    const char *id;   /* column name */
    const char *call; /* what it calls */
    op_fn fn;
    int compare;      /* 0: reference; 1: compare accept and output; 2: accept only;
                         3: not compared */
};

enum { JOB_UNICODE, JOB_ASCII, JOB_PLAIN };

static const struct lib job_libs[3][8] = {
    [JOB_UNICODE] = {
        {"idnguard", "idng_to_unicode", op_idng_to_unicode, 0},
        {"idnguard-check", "idng_name_check", op_idng_name_check, 2},
        {"idnguard-wire", "idng_wire_check", op_idng_wire_check, 2},
        {"icu", "uidna_nameToUnicodeUTF8", op_icu_to_unicode, 1},
        {"libidn2", "idn2_to_unicode_8z8z", op_idn2_to_unicode, 1},
        {"libidn2-lookup", "idn2_lookup_u8", op_idn2_lookup, 2},
        {NULL, NULL, NULL, 0}},
    [JOB_ASCII] = {
        {"idnguard", "idng_to_ascii", op_idng_to_ascii, 0},
        {"icu", "uidna_nameToASCII_UTF8", op_icu_to_ascii, 1},
        {"libidn2", "idn2_lookup_u8", op_idn2_lookup, 1},
        {NULL, NULL, NULL, 0}},
    [JOB_PLAIN] = {
        {"idnguard-check", "idng_name_check", op_idng_name_check, 2},
        {"idnguard-wire", "idng_wire_check", op_idng_wire_check, 2},
        {"idnguard", "idng_to_ascii", op_idng_to_ascii, 0},
        {"icu", "uidna_nameToASCII_UTF8", op_icu_to_ascii, 1},
        {"libidn2", "idn2_lookup_u8", op_idn2_lookup, 1},
        {"harness", "(no call: loop and indirect call only)", op_noop, 3},
        {NULL, NULL, NULL, 0}},
};

static const char *const job_names[3] = {"a:to-unicode", "b:to-ascii", "c:ascii-name"};

/* ------------------------------------------------------------------ */
/* Timing                                                                */

static volatile unsigned long long sink;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* One run: iters passes over the set; returns ns per name. */
static double run_once(op_fn fn, const struct set *st, unsigned long iters)
{
    static char out[OUT_MAX];
    unsigned long long acc = 0;
    unsigned long it;
    size_t i;
    double t0 = now_ns(), t1;
    for (it = 0; it < iters; it++)
        for (i = 0; i < st->n; i++)
            acc += (unsigned)fn(&st->v[i], out);
    t1 = now_ns();
    sink += acc;
    return (t1 - t0) / ((double)iters * (double)st->n);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int runs = 15;

/* -s DIR: writes each input set to DIR/<set>-<form>.txt, one name a line,
 * for profiling the codec on the same inputs (valgrind --tool=callgrind). */
static void dump_set(const char *dir, const struct set *st, const char *form)
{
    char path[512];
    FILE *f;
    size_t i;
    snprintf(path, sizeof path, "%s/%s-%s.txt", dir, st->id, form);
    if (!(f = fopen(path, "w"))) {
        perror(path);
        exit(2);
    }
    for (i = 0; i < st->n; i++)
        fprintf(f, "%s\n", st->v[i].s);
    fclose(f);
}
static const char *filter; /* BENCH_FILTER: only sets whose "set job" contains it */
static double run_ms = 8.0;

struct result {
    const char *set, *job, *lib, *call;
    size_t names;
    double ns, ns_min, ns_max;
    double allocs;
    size_t accepted, disagree;
};

static struct result results[256];
static size_t nresults;
static FILE *dis_out;

static void loadavg(char *buf, size_t cap)
{
    FILE *f = fopen("/proc/loadavg", "r");
    buf[0] = '\0';
    if (f) {
        if (fgets(buf, (int)cap, f)) {
            char *sp = buf;
            int k = 0;
            while (*sp && k < 3)
                if (*sp++ == ' ')
                    k++;
            if (k == 3)
                sp[-1] = '\0';
        }
        fclose(f);
    }
}

static int utf8_valid(const char *s)
{
    size_t len = strlen(s), pos = 0;
    uint32_t cp;
    while (pos < len) {
        size_t m = idng_utf8_decode((const unsigned char *)s + pos, len - pos, &cp);
        if (!m)
            return 0;
        pos += m;
    }
    return 1;
}

static void show(FILE *f, const char *s)
{
    if (utf8_valid(s))
        fputs(s, f);
    else
        fputs("(invalid UTF-8)", f);
}

static void bench_set(const struct set *st, int job)
{
    const struct lib *libs = job_libs[job];
    size_t nl = 0, l, i;
    unsigned long iters[8];
    double samples[8][64];
    static char ref[OUT_MAX], out[OUT_MAX];
    size_t first = nresults;
    int r;

    if (st->n == 0)
        return;
    while (libs[nl].id)
        nl++;
    if (filter) {
        char key[128];
        snprintf(key, sizeof key, "%s %s", st->id, job_names[job]);
        if (!strstr(key, filter))
            return;
    }

    /* Agreement, acceptance and allocations: one pass each. */
    for (l = 0; l < nl; l++) {
        struct result *res = &results[nresults++];
        unsigned long long before;
        memset(res, 0, sizeof *res);
        res->set = st->id;
        res->job = job_names[job];
        res->lib = libs[l].id;
        res->call = libs[l].call;
        res->names = st->n;
        for (i = 0; i < st->n; i++) {
            int ra, rb;
            before = n_allocs;
            rb = libs[l].fn(&st->v[i], out);
            res->allocs += (double)(n_allocs - before);
            res->accepted += (size_t)rb;
            if (libs[l].compare == 0 || libs[l].compare == 3)
                continue;
            /* The reference is the idnguard conversion of this job. */
            {
                size_t k;
                for (k = 0; k < nl && libs[k].compare != 0; k++)
                    ;
                ra = libs[k].fn(&st->v[i], ref);
            }
            if (ra != rb || (libs[l].compare == 1 && ra && rb && strcmp(ref, out) != 0)) {
                res->disagree++;
                if (dis_out) {
                    fprintf(dis_out, "%s\t%s\t%s\t", st->id, job_names[job], libs[l].id);
                    show(dis_out, st->v[i].s);
                    fprintf(dis_out, "\tidnguard: %s", ra ? "accepts" : "rejects");
                    if (ra && libs[l].compare == 1) {
                        fputs(" -> ", dis_out);
                        show(dis_out, ref);
                    }
                    fprintf(dis_out, "\t%s: %s", libs[l].id, rb ? "accepts" : "rejects");
                    if (rb && libs[l].compare == 1) {
                        fputs(" -> ", dis_out);
                        show(dis_out, out);
                    }
                    fputc('\n', dis_out);
                }
            }
        }
        res->allocs /= (double)st->n;
    }

    /* Calibration: iterations for about run_ms per run. */
    for (l = 0; l < nl; l++) {
        double ns = run_once(libs[l].fn, st, 1) * (double)st->n;
        unsigned long it = 1;
        ns = run_once(libs[l].fn, st, 1) * (double)st->n; /* warm */
        if (ns > 0)
            it = (unsigned long)(run_ms * 1e6 / ns);
        iters[l] = it ? it : 1;
    }
    for (r = 0; r < runs; r++)
        for (l = 0; l < nl; l++)
            samples[l][r] = run_once(libs[l].fn, st, iters[l]);
    for (l = 0; l < nl; l++) {
        struct result *res = &results[first + l];
        qsort(samples[l], (size_t)runs, sizeof samples[l][0], cmp_double);
        res->ns = runs % 2 ? samples[l][runs / 2]
                           : (samples[l][runs / 2 - 1] + samples[l][runs / 2]) / 2;
        res->ns_min = samples[l][0];
        res->ns_max = samples[l][runs - 1];
    }
}

static const struct result *find(const char *set, const char *job, const char *lib)
{
    size_t i;
    for (i = 0; i < nresults; i++)
        if (!strcmp(results[i].set, set) && !strcmp(results[i].job, job)
            && !strcmp(results[i].lib, lib))
            return &results[i];
    return NULL;
}

static void ratio_cell(FILE *f, const struct result *a, const struct result *b)
{
    if (!a || !b || b->ns <= 0)
        fputs(" - |", f);
    else if (a->ns <= b->ns)
        fprintf(f, " %.3f (%.1fx faster) |", a->ns / b->ns, b->ns / a->ns);
    else
        fprintf(f, " %.3f (%.1fx slower) |", a->ns / b->ns, a->ns / b->ns);
}

int main(int argc, char **argv)
{
    const char *csv_path = NULL, *md_path = NULL, *dis_path = NULL, *dump_dir = NULL;
    const char *psl = "/usr/share/publicsuffix/public_suffix_list.dat";
    struct set rfc_ace = {"rfc3492", 0, 0, 0}, rfc_uni = {"rfc3492", 0, 0, 0};
    struct set six = {"six", 0, 0, 0};
    struct set psl_ace = {"psl-idn", 0, 0, 0}, psl_uni = {"psl-idn", 0, 0, 0};
    struct set psl_asc = {"psl-ascii", 0, 0, 0};
    struct set wc_ace = {"worst-case", 0, 0, 0}, wc_uni = {"worst-case", 0, 0, 0};
    struct set wt_ace = {"worst-tests", 0, 0, 0}, wt_uni = {"worst-tests", 0, 0, 0};
    struct set asc = {"ascii", 0, 0, 0};
    const struct set *unicode_sets[5], *ascii_sets[5], *plain_sets[2];
    UErrorCode e = U_ZERO_ERROR;
    size_t skipped, i;
    int c;
    FILE *f;
    char icu_ver[U_MAX_VERSION_STRING_LENGTH], load_start[64], load_end[64];
    UVersionInfo uv;

    while ((c = getopt(argc, argv, "o:m:d:p:s:")) != -1) {
        switch (c) {
        case 'o': csv_path = optarg; break;
        case 'm': md_path = optarg; break;
        case 'd': dis_path = optarg; break;
        case 'p': psl = optarg; break;
        case 's': dump_dir = optarg; break;
        default:
            fprintf(stderr, "usage: codec_bench [-o CSV] [-m MD] [-d DISAGREEMENTS] [-p PSL] [-s DUMPDIR]\n");
            return 2;
        }
    }
    if (getenv("BENCH_RUNS"))
        runs = atoi(getenv("BENCH_RUNS"));
    if (runs < 1 || runs > 64)
        runs = 15;
    filter = getenv("BENCH_FILTER");
    if (getenv("BENCH_RUN_MS"))
        run_ms = atof(getenv("BENCH_RUN_MS"));
    if (run_ms <= 0)
        run_ms = 8.0;

    icu = uidna_openUTS46(UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_NONTRANSITIONAL_TO_UNICODE
                              | UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ | UIDNA_CHECK_CONTEXTO
                              | UIDNA_USE_STD3_RULES,
                          &e);
    if (U_FAILURE(e)) {
        fprintf(stderr, "codec_bench: uidna_openUTS46: %s\n", u_errorName(e));
        return 2;
    }
    u_getVersion(uv);
    u_versionToString(uv, icu_ver);

    build_rfc(&rfc_ace, &rfc_uni);
    for (i = 0; i < six_names_count; i++)
        set_add(&six, six_names[i], strlen(six_names[i]));
    build_psl(psl, &psl_ace, &psl_uni, &psl_asc, &skipped);
    build_worst(&wc_ace, &wc_uni);
    build_worst_tests(&wt_ace, &wt_uni);
    for (i = 0; i < ascii_names_count; i++)
        set_add(&asc, ascii_names[i], strlen(ascii_names[i]));

    if (dump_dir) {
        dump_set(dump_dir, &rfc_ace, "ace");
        dump_set(dump_dir, &rfc_uni, "unicode");
        dump_set(dump_dir, &six, "mixed");
        dump_set(dump_dir, &psl_ace, "ace");
        dump_set(dump_dir, &psl_uni, "unicode");
        dump_set(dump_dir, &wc_ace, "ace");
        dump_set(dump_dir, &wc_uni, "unicode");
        dump_set(dump_dir, &wt_ace, "ace");
        dump_set(dump_dir, &wt_uni, "unicode");
        dump_set(dump_dir, &asc, "ascii");
        dump_set(dump_dir, &psl_asc, "ascii");
        return 0;
    }
    if (dis_path && !(dis_out = fopen(dis_path, "w"))) {
        perror(dis_path);
        return 2;
    }
    if (dis_out)
        fprintf(dis_out, "# set\tjob\tlibrary\tinput\tidnguard\tpeer\n");

    printf("codec_bench: ICU %s, libidn2 %s, idnguard (Unicode %s); %d runs of ~%.0f ms\n",
           icu_ver, idn2_check_version(NULL), IDNG_UNICODE_VERSION, runs, run_ms);
    printf("sets: rfc3492 %zu, six %zu, psl-idn %zu (%zu PSL IDN entries ICU rejects, left out), "
           "worst-case %zu, worst-tests %zu (tests/codec/worst_case.h), ascii %zu, psl-ascii %zu\n",
           rfc_ace.n, six.n, psl_ace.n, skipped, wc_ace.n, wt_ace.n, asc.n, psl_asc.n);
    for (i = 0; i < wc_ace.n; i++)
        printf("  worst case %s: %s (%zu octets)\n", wc_families[i < wc_families_count ? i : 0].id,
               wc_ace.v[i].s, wc_ace.v[i].len);
    fflush(stdout);

    unicode_sets[0] = &rfc_ace;
    unicode_sets[1] = &six;
    unicode_sets[2] = &psl_ace;
    unicode_sets[3] = &wc_ace;
    unicode_sets[4] = &wt_ace;
    ascii_sets[0] = &rfc_uni;
    ascii_sets[1] = &six;
    ascii_sets[2] = &psl_uni;
    ascii_sets[3] = &wc_uni;
    ascii_sets[4] = &wt_uni;
    plain_sets[0] = &asc;
    plain_sets[1] = &psl_asc;
    loadavg(load_start, sizeof load_start);
    for (i = 0; i < 5; i++)
        bench_set(unicode_sets[i], JOB_UNICODE);
    for (i = 0; i < 5; i++)
        bench_set(ascii_sets[i], JOB_ASCII);
    for (i = 0; i < 2; i++)
        bench_set(plain_sets[i], JOB_PLAIN);
    if (dis_out)
        fclose(dis_out);
    loadavg(load_end, sizeof load_end);

    /* Console. */
    printf("\n%-12s %-14s %-15s %6s %10s %10s %10s %8s %8s %9s\n", "set", "job", "library",
           "names", "ns/name", "min", "max", "allocs", "accepted", "disagree");
    for (i = 0; i < nresults; i++) {
        const struct result *r = &results[i];
        printf("%-12s %-14s %-15s %6zu %10.1f %10.1f %10.1f %8.2f %8zu %9zu\n", r->set, r->job,
               r->lib, r->names, r->ns, r->ns_min, r->ns_max, r->allocs, r->accepted, r->disagree);
    }

    if (csv_path) {
        if (!(f = fopen(csv_path, "w"))) {
            perror(csv_path);
            return 2;
        }
        fprintf(f, "set,job,library,call,names,ns_per_name_median,ns_min,ns_max,allocs_per_call,"
                   "accepted,disagreements_vs_idnguard\n");
        for (i = 0; i < nresults; i++) {
            const struct result *r = &results[i];
            fprintf(f, "%s,%s,%s,%s,%zu,%.2f,%.2f,%.2f,%.3f,%zu,%zu\n", r->set, r->job, r->lib,
                    r->call, r->names, r->ns, r->ns_min, r->ns_max, r->allocs, r->accepted,
                    r->disagree);
        }
        fclose(f);
    }

    f = md_path ? fopen(md_path, "w") : stdout;
    if (!f) {
        perror(md_path);
        return 2;
    }
    if (!md_path)
        fputc('\n', f);
    fprintf(f, "Median ns per name over %d runs (about %.0f ms each); allocations per call; "
               "ratio < 1: idnguard is faster. \"disagree\": names whose verdict (or output) "
               "differs from idnguard's (listed in disagreements.tsv).\n\n",
            runs, run_ms);
    fprintf(f, "ICU %s, libidn2 %s. Load average at start: %s; at end: %s. \"harness\" "
               "(loop and indirect call, no library call) on the ascii set: %.1f ns, included in "
               "every figure.\n\n",
            icu_ver, idn2_check_version(NULL), load_start, load_end,
            find("ascii", job_names[JOB_PLAIN], "harness") ? find("ascii", job_names[JOB_PLAIN], "harness")->ns : 0.0);
    fprintf(f, "| set | job | names | idnguard ns | check ns | ICU ns | libidn2 ns | "
               "idnguard/ICU | idnguard/libidn2 | check/ICU | check/libidn2 (lookup) | "
               "allocs idng / ICU / idn2 | disagree ICU / idn2 |\n");
    fprintf(f, "|---|---|---:|---:|---:|---:|---:|---|---|---|---|---|---|\n");
    for (i = 0; i < nresults; i++) {
        const struct result *r = &results[i], *g, *ch, *ic, *id, *lk;
        if (strcmp(r->lib, "icu") != 0)
            continue;
        g = find(r->set, r->job, "idnguard");
        ch = find(r->set, r->job, "idnguard-check");
        ic = r;
        id = find(r->set, r->job, "libidn2");
        lk = find(r->set, r->job, "libidn2-lookup");
        fprintf(f, "| %s | %s | %zu | %.1f | ", r->set, r->job, r->names, g ? g->ns : 0);
        if (ch)
            fprintf(f, "%.1f |", ch->ns);
        else
            fputs("- |", f);
        fprintf(f, " %.1f | %.1f", ic->ns, id ? id->ns : 0);
        if (lk)
            fprintf(f, " (lookup %.1f)", lk->ns);
        fputs(" |", f);
        ratio_cell(f, g, ic);
        ratio_cell(f, g, id);
        ratio_cell(f, ch, ic);
        ratio_cell(f, ch, lk ? lk : id);
        fprintf(f, " %.2f / %.2f / %.2f | %zu / %zu%s |\n", g ? g->allocs : 0, ic->allocs,
                id ? id->allocs : 0, ic->disagree, id ? id->disagree : 0,
                lk ? "" : "");
    }
    if (md_path)
        fclose(f);
    return 0;
}
