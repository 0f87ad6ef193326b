/**
 * \file
 * The differential test (behaviour kept across refactoring): every public entry point of
 * the codec, the policy core and the log lines, run over fixed corpora and a
 * seeded random corpus, must give byte-identical results to the code at the
 * baseline commit (named in tests/diff/baseline.txt).
 *
 * For each input, one line of text holds every result (statuses, error
 * fields, outputs, verdicts, EDE texts, log lines).  Lines are hashed
 * (64-bit FNV-1a) in chunks of CHUNK inputs; tests/diff/baseline.txt holds
 * the chunk digests the code at the baseline commit produced.
 *
 *   dump --write FILE  CORPUS...   write the digests (at the baseline only)
 *   dump --check FILE  CORPUS...   compare; on a difference, print the
 *                                  chunk's inputs and current lines, exit 1
 *   dump --print       CORPUS...   print every line (to diff by hand
 *                                  against the baseline commit's --print)
 *
 * CORPUS is a directory of one-input files (the fuzz corpora), "idnatest:F"
 * (the source column of Unicode's IdnaTestV2.txt, \uXXXX escapes decoded) or
 * "random:N" (N names from a fixed seed, made of fragments that exercise
 * every rule: see fragments[]).
 *
 * The line format is dump_lines.c's own; it may change only together with
 * a new baseline, in a commit that says why.  When an API changes,
 * dump_lines.c is adapted so that the lines stay the same.
 */
#include "dump.h"

#include "idnguard.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 200
#define INPUT_MAX 2048

/* --- corpora and chunks ----------------------------------------------- */

enum run_mode { M_PRINT, M_WRITE, M_CHECK };
static enum run_mode run_mode;
static FILE *out_file;

struct chunk {
    uint64_t h;
    size_t count;
    char name[256];
    size_t index;
    char *inputs; /* the chunk's inputs as hex, for --check reports */
    size_t inputs_len;
};
static struct chunk cur;
static char (*base_lines)[64];
static size_t base_count, base_used;
static unsigned mismatches;
static size_t total_inputs, total_chunks;

static void chunk_flush(void)
{
    char got[64];
    if (cur.count == 0)
        return;
    snprintf(got, sizeof got, "%016llx", (unsigned long long)cur.h);
    total_chunks++;
    if (run_mode == M_WRITE) {
        fprintf(out_file, "%s %zu %zu %s\n", cur.name, cur.index, cur.count, got);
    } else if (run_mode == M_CHECK) {
        const char *want = base_used < base_count ? base_lines[base_used] : "(none)";
        if (strcmp(want, got) != 0) {
            mismatches++;
            fprintf(stderr, "diff: %s chunk %zu (%zu inputs): digest %s, baseline %s\n", cur.name,
                    cur.index, cur.count, got, want);
            if (mismatches <= 3)
                fprintf(stderr, "diff: its inputs (hex), one per line:\n%.*s", (int)cur.inputs_len,
                        cur.inputs ? cur.inputs : "");
        }
        base_used++;
    }
    cur.index++;
    cur.count = 0;
    cur.h = 1469598103934665603ULL;
    cur.inputs_len = 0;
}

static void chunk_begin(const char *name)
{
    chunk_flush();
    snprintf(cur.name, sizeof cur.name, "%s", name);
    cur.index = 0;
    cur.count = 0;
    cur.h = 1469598103934665603ULL;
    cur.inputs_len = 0;
}

static void emit_line(void)
{
    size_t i, line_len;
    const char *line = dump_line(&line_len);
    size_t hexlen = strcspn(line, " \n");
    if (hexlen > 160) /* enough to find the input again */
        hexlen = 160;
    for (i = 0; i < line_len; i++) {
        cur.h ^= (unsigned char)line[i];
        cur.h *= 1099511628211ULL;
    }
    if (run_mode == M_PRINT)
        fwrite(line, 1, line_len, stdout);
    if (run_mode == M_CHECK) {
        char *p = realloc(cur.inputs, cur.inputs_len + hexlen + 2);
        if (p) {
            cur.inputs = p;
            memcpy(p + cur.inputs_len, line, hexlen);
            cur.inputs_len += hexlen;
            p[cur.inputs_len++] = '\n';
        }
    }
    total_inputs++;
    if (++cur.count == CHUNK)
        chunk_flush();
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int corpus_dir(const char *dir)
{
    static unsigned char buf[1 << 16];
    DIR *d = opendir(dir);
    struct dirent *de;
    char **names = NULL;
    size_t count = 0, i;
    int is_conf = strstr(dir, "conf_parse") != NULL;

    if (!d) {
        fprintf(stderr, "dump: %s: cannot open the directory\n", dir);
        return -1;
    }
    while ((de = readdir(d)) != NULL) {
        char **p;
        if (de->d_name[0] == '.')
            continue;
        p = realloc(names, (count + 1) * sizeof *names);
        if (!p)
            abort();
        names = p;
        names[count++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(names, count, sizeof *names, cmp_str);
    chunk_begin(dir);
    for (i = 0; i < count; i++) {
        char path[4096];
        FILE *f;
        size_t n;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        f = fopen(path, "rb");
        if (!f) {
            fprintf(stderr, "dump: %s: cannot open\n", path);
            return -1;
        }
        n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        if (is_conf)
            dump_conf_input(buf, n);
        else
            dump_one_input(buf, n < INPUT_MAX ? n : INPUT_MAX);
        emit_line();
        free(names[i]);
    }
    free(names);
    chunk_flush();
    return 0;
}

static size_t utf8_put(uint32_t cp, unsigned char *o)
{
    return idng_utf8_encode(cp, o);
}

static int corpus_idnatest(const char *path)
{
    static char l[8192];
    static unsigned char in[8192];
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "dump: %s: cannot open IdnaTestV2.txt\n", path);
        return -1;
    }
    chunk_begin("idnatest");
    while (fgets(l, sizeof l, f)) {
        char *end;
        size_t n = 0, i, len;
        if (l[0] == '#' || l[0] == '\n')
            continue;
        end = strchr(l, ';');
        if (!end)
            continue;
        len = (size_t)(end - l);
        while (len && l[len - 1] == ' ')
            len--;
        i = 0;
        while (i < len && l[i] == ' ')
            i++;
        for (; i < len && n + 8 < sizeof in;) {
            if (l[i] == '\\' && i + 5 < len + 1 && l[i + 1] == 'u') {
                char hex[5] = {l[i + 2], l[i + 3], l[i + 4], l[i + 5], 0};
                n += utf8_put((uint32_t)strtoul(hex, NULL, 16), in + n);
                i += 6;
            } else if (l[i] == '\\' && l[i + 1] == 'x' && l[i + 2] == '{') {
                char *close = strchr(l + i, '}');
                n += utf8_put((uint32_t)strtoul(l + i + 3, NULL, 16), in + n);
                i = close ? (size_t)(close - l) + 1 : len;
            } else {
                in[n++] = (unsigned char)l[i++];
            }
        }
        dump_one_input(in, n);
        emit_line();
    }
    fclose(f);
    chunk_flush();
    return 0;
}

/* Fragments of names: ASCII, A-labels real and made up, the code points
 * each rule looks at (joiners, bidi classes, CONTEXTO, marks, mapped and
 * ignored ones, full stops), bad UTF-8, hostile octets. */
static const char *const fragments[] = {
    /* mostly good: letters of several scripts, digits, real A-labels */
    "a", "b", "z", "Q", "0", "9", "1", "-", "abc", "example", "com", "xn--bcher-kva",
    "xn--nxasmq6b", "xn--ls8h", "xn--55qx5d", "xn--mgbh0fb", "xn--4dbrk0ce", "xn--fsq",
    "xn--ida", "\xc3\xbc", "\xc3\x9c", "\xc3\x9f", "\xcf\x82", "\xc4\xb1", "\xce\xb1",
    "\xd0\xb0", "\xe4\xb8\xad", "\xed\x95\x9c", "\xe0\xa4\x95", "\xe0\xa5\x8d",
    "\xd8\xa8", "\xd7\x90", "\xd9\x85", "\xd9\xa1", "\xdb\xb0", "\xf0\x9f\x98\x80",
#define NGOOD 36
    /* the rules' corner cases and hostile octets */
    "--", "_", "*", "xn--", "XN--", "xn--a", "xn--xn--a", "xn--zz-", "xn--0", "xn--l-ffa",
    "\xe2\x80\x8c", "\xe2\x80\x8d", "\xc2\xb7", "\xcd\xb5", "\xd7\xb3", "\xd7\xb4",
    "\xe3\x83\xbb", "\xd9\xa0", "\xcc\x81", "\xe3\x80\x82", "\xef\xbc\x8e",
    "\xef\xbd\xa1", "\xc2\xad", "\xe2\x80\x8b", "\xef\xbc\xa1", "\xe2\x84\xaa",
    "\xe2\x91\xa0", "\xef\xbc\x90", "\x80", "\xc3", "\xed\xa0\x80", "\xf4\x90\x80\x80",
    "\xc0\xaf", "\x00", "\n", " ", "\x1b[31m", "\"", "\\", "\x7f", "\xff", "\xe2\x80\xae",
    "\xef\xbb\xbf", "\xf3\xa0\x80\x81", "\xe0\xbe\x8b", "\xe1\x80\xba",
};
#define NFRAG (sizeof fragments / sizeof fragments[0])

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int corpus_random(unsigned long count)
{
    static unsigned char in[INPUT_MAX];
    unsigned long k;
    chunk_begin("random");
    for (k = 0; k < count; k++) {
        size_t n = 0, labels = 1 + next_rand() % 4, j;
        for (j = 0; j < labels; j++) {
            size_t parts = 1 + next_rand() % 6, p;
            if (j)
                in[n++] = '.';
            for (p = 0; p < parts; p++) {
                const char *fr = fragments[next_rand() % 10 ? next_rand() % NGOOD
                                                             : next_rand() % NFRAG];
                size_t fl = strlen(fr);
                if (fl == 0)
                    fl = 1; /* the NUL fragment */
                if (n + fl >= sizeof in)
                    break;
                memcpy(in + n, fr, fl);
                n += fl;
            }
            /* a Punycode-looking tail now and then */
            if (next_rand() % 4 == 0 && n + 12 < sizeof in) {
                size_t t = 1 + next_rand() % 10;
                while (t--)
                    in[n++] = "abcdefghijklmnopqrstuvwxyz0123456789-"[next_rand() % 37];
            }
        }
        if (next_rand() % 8 == 0)
            in[n++] = '.';
        dump_one_input(in, n);
        emit_line();
    }
    chunk_flush();
    return 0;
}

static int load_baseline(const char *path)
{
    FILE *f = fopen(path, "r");
    char l[512];
    if (!f) {
        fprintf(stderr, "dump: %s: cannot open the baseline\n", path);
        return -1;
    }
    while (fgets(l, sizeof l, f)) {
        char name[300], digest[64];
        size_t idx, cnt;
        if (l[0] == '#')
            continue;
        if (sscanf(l, "%299s %zu %zu %63s", name, &idx, &cnt, digest) != 4)
            continue;
        base_lines = realloc(base_lines, (base_count + 1) * sizeof *base_lines);
        if (!base_lines)
            abort();
        snprintf(base_lines[base_count++], 64, "%s", digest);
    }
    fclose(f);
    return 0;
}

int main(int argc, char **argv)
{
    const char *file = NULL;
    int i = 1, rc = 0;

    if (argc > 2 && strcmp(argv[1], "--write") == 0) {
        run_mode = M_WRITE;
        file = argv[2];
        i = 3;
    } else if (argc > 2 && strcmp(argv[1], "--check") == 0) {
        run_mode = M_CHECK;
        file = argv[2];
        i = 3;
    } else if (argc > 1 && strcmp(argv[1], "--print") == 0) {
        run_mode = M_PRINT;
        i = 2;
    } else {
        fprintf(stderr, "usage: dump --write FILE | --check FILE | --print  CORPUS...\n");
        return 2;
    }
    dump_load_confs();
    if (run_mode == M_WRITE) {
        out_file = fopen(file, "w");
        if (!out_file) {
            fprintf(stderr, "dump: %s: cannot write\n", file);
            return 2;
        }
        fprintf(out_file, "# chunk digests of tests/diff/dump.c's lines (corpus, chunk, "
                          "inputs, FNV-1a 64)\n");
    } else if (run_mode == M_CHECK && load_baseline(file)) {
        return 2;
    }
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "idnatest:", 9) == 0)
            rc |= corpus_idnatest(a + 9);
        else if (strncmp(a, "random:", 7) == 0)
            rc |= corpus_random(strtoul(a + 7, NULL, 10));
        else
            rc |= corpus_dir(a);
    }
    if (rc)
        return 2;
    if (run_mode == M_WRITE) {
        fclose(out_file);
        printf("diff: %zu inputs, %zu chunk digests written to %s\n", total_inputs, total_chunks,
               file);
    } else if (run_mode == M_CHECK) {
        if (base_used != base_count) {
            fprintf(stderr, "diff: %zu chunks here, %zu in the baseline\n", base_used, base_count);
            return 1;
        }
        if (mismatches) {
            fprintf(stderr, "diff: %u of %zu chunks differ from %s\n", mismatches, total_chunks,
                    file);
            return 1;
        }
        printf("diff: %zu inputs in %zu chunks give byte-identical results to the baseline\n",
               total_inputs, total_chunks);
    }
    return 0;
}
