/**
 * \file
 * Replay driver: a main() for the fuzz harnesses without libFuzzer, so they
 * build with any C compiler (and its sanitizers) and replay the seed corpus
 * and the crash reproducers deterministically during `make check`.
 *
 * Usage: replay_NAME [-n NAME] PATH...
 * Each PATH is a file, or a directory whose regular files (not recursing,
 * sorted by name, dot files skipped) are each fed once to
 * LLVMFuzzerTestOneInput (after LLVMFuzzerInitialize, when the harness has
 * one).  An invariant failure aborts, as under libFuzzer; the file being
 * replayed is named on stderr first.  At the end one line is printed:
 * "fuzz-replay NAME: N inputs ok".  Exit status 0, or 1 on an unreadable
 * path.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));
/* Present when built with a sanitizer (gcc and clang): called before a
 * sanitizer report ends the process. */
void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static const char *volatile current;

/* Names the input being replayed; async-signal-safe. */
static void name_current(void)
{
    const char *c = current;
    if (c != NULL) {
        static const char pre[] = "fuzz-replay: failing input: ";
        ssize_t w = write(2, pre, sizeof pre - 1);
        w += write(2, c, strlen(c));
        w += write(2, "\n", 1);
        (void)w;
        current = NULL;
    }
}

static void on_signal(int sig)
{
    name_current();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Feeds one file; returns 0, or -1 if it cannot be read. */
static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL, *copy;
    size_t len = 0, cap = 0, n;

    if (f == NULL) {
        fprintf(stderr, "fuzz-replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    for (;;) {
        if (len == cap) {
            uint8_t *nb;
            cap = cap ? 2 * cap : 4096;
            nb = realloc(buf, cap);
            if (nb == NULL) {
                fprintf(stderr, "fuzz-replay: out of memory\n");
                abort();
            }
            buf = nb;
        }
        n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0)
            break;
    }
    if (ferror(f)) {
        fprintf(stderr, "fuzz-replay: %s: read error\n", path);
        fclose(f);
        free(buf);
        return -1;
    }
    fclose(f);
    /* An exact-size copy, as libFuzzer does, so over-reads are caught. */
    copy = malloc(len ? len : 1);
    if (copy == NULL)
        abort();
    if (len)
        memcpy(copy, buf, len);
    free(buf);
    current = path;
    LLVMFuzzerTestOneInput(copy, len);
    current = NULL;
    free(copy);
    return 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Feeds every regular file of a directory, in name order; returns the count or -1. */
static long run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0, i;
    long count = 0;

    if (d == NULL) {
        fprintf(stderr, "fuzz-replay: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    while ((e = readdir(d)) != NULL) {
        char *p;
        struct stat st;
        if (e->d_name[0] == '.')
            continue;
        p = malloc(strlen(dir) + strlen(e->d_name) + 2);
        if (p == NULL)
            abort();
        sprintf(p, "%s/%s", dir, e->d_name);
        if (stat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
            free(p);
            continue;
        }
        if (n == cap) {
            char **nn;
            cap = cap ? 2 * cap : 64;
            nn = realloc(names, cap * sizeof *names);
            if (nn == NULL)
                abort();
            names = nn;
        }
        names[n++] = p;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_names);
    for (i = 0; i < n; i++) {
        if (run_file(names[i]) != 0)
            count = -1;
        else if (count >= 0)
            count++;
        free(names[i]);
    }
    free(names);
    return count;
}

int main(int argc, char **argv)
{
    const char *name = NULL, *slash;
    long total = 0;
    int i = 1, failed = 0;

    if (argc > 2 && strcmp(argv[1], "-n") == 0) {
        name = argv[2];
        i = 3;
    }
    if (name == NULL) {
        slash = strrchr(argv[0], '/');
        name = slash ? slash + 1 : argv[0];
        if (strncmp(name, "replay_", 7) == 0)
            name += 7;
    }
    /* Sanitizers report faults themselves and then call the callback;
     * without them, name the input from the signal handler. */
    signal(SIGABRT, on_signal);
    if (__sanitizer_set_death_callback) {
        __sanitizer_set_death_callback(name_current);
    } else {
        signal(SIGSEGV, on_signal);
        signal(SIGFPE, on_signal);
    }
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    for (; i < argc; i++) {
        struct stat st;
        long c;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "fuzz-replay: %s: %s\n", argv[i], strerror(errno));
            failed = 1;
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            c = run_dir(argv[i]);
        } else {
            c = run_file(argv[i]) == 0 ? 1 : -1;
        }
        if (c < 0)
            failed = 1;
        else
            total += c;
    }
    if (failed)
        return 1;
    printf("fuzz-replay %s: %ld inputs ok\n", name, total);
    return 0;
}
