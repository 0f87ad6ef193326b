/**
 * \file
 * A driver for profiling the codec under valgrind's callgrind: it reads
 * names, one a line (the input sets `codec_bench -s DIR` writes), and runs
 * one entry point over all of them `reps` times inside profile_loop(), so
 * that `--toggle-collect=profile_loop` counts the codec's instructions and
 * nothing of the setup.  bench/results/codec-profile.md says how it is run.
 *
 * Usage: codec_profile check|wire|to-unicode|to-ascii FILE [REPS]
 */
#include "idnguard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAMES_MAX 10000
#define NAME_TEXT_MAX 1024

struct name {
    char s[NAME_TEXT_MAX];
    size_t len;
    uint8_t wire[IDNG_WIRE_MAX];
    size_t wire_len;
};

static struct name names[NAMES_MAX];

/* Not inlined, so that callgrind can collect inside it alone. */
__attribute__((noinline)) static unsigned long profile_loop(const char *op, size_t n, long reps)
{
    static char out[4096];
    unsigned long ok = 0;
    long r;
    size_t i;

    for (r = 0; r < reps; r++) {
        for (i = 0; i < n; i++) {
            const struct name *nm = &names[i];
            size_t outlen = sizeof out;
            idng_status st;
            if (op[0] == 'c')
                st = idng_name_check(nm->s, nm->len, IDNG_MODE_UTS46, NULL);
            else if (op[0] == 'w')
                st = idng_wire_check(nm->wire, nm->wire_len, IDNG_MODE_UTS46, NULL);
            else if (strcmp(op, "to-unicode") == 0)
                st = idng_to_unicode(nm->s, nm->len, out, &outlen, IDNG_MODE_UTS46, 0, NULL);
            else
                st = idng_to_ascii(nm->s, nm->len, out, &outlen, IDNG_MODE_UTS46, 0, NULL);
            ok += st == IDNG_OK;
        }
    }
    return ok;
}

int main(int argc, char **argv)
{
    char line[NAME_TEXT_MAX + 2];
    size_t n = 0;
    long reps = argc > 3 ? atol(argv[3]) : 100;
    FILE *f;

    if (argc < 3 || !strchr("cwt", argv[1][0])) {
        fprintf(stderr, "usage: codec_profile check|wire|to-unicode|to-ascii FILE [REPS]\n");
        return 2;
    }
    if (!(f = fopen(argv[2], "r"))) {
        perror(argv[2]);
        return 2;
    }
    while (n < NAMES_MAX && fgets(line, sizeof line, f)) {
        struct name *nm = &names[n];
        size_t len = strcspn(line, "\r\n");
        if (len == 0 || len >= sizeof nm->s)
            continue;
        memcpy(nm->s, line, len);
        nm->len = len;
        nm->wire_len = sizeof nm->wire;
        if (idng_text_to_wire(nm->s, len, nm->wire, &nm->wire_len, NULL) != IDNG_OK)
            nm->wire_len = 0;
        n++;
    }
    fclose(f);
    printf("%s: %zu names, %ld reps, %lu accepted\n", argv[2], n, reps,
           profile_loop(argv[1], n, reps));
    return 0;
}
