/*
 * icu_stream JOB -- the peer of `idnguard JOB` in bench/cli_bench.sh: ICU's
 * UTS #46 over standard input, one name a line, one line out per line in,
 * as the shortest C program a user would write for the job.
 *
 * JOB is to-ascii, to-unicode or check.  ICU is opened with the options
 * bench/codec_bench.c uses (nontransitional, CheckBidi, CheckJoiners,
 * CheckContextO, STD3 rules), which match idnguard's uts46 mode.  Output
 * goes through stdio, fully buffered when it is not a terminal; a failed
 * name prints "ERROR" and ICU's error bits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/uidna.h>

int main(int argc, char **argv)
{
    UErrorCode e = U_ZERO_ERROR;
    UIDNA *idna = uidna_openUTS46(UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_NONTRANSITIONAL_TO_UNICODE |
                                      UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ |
                                      UIDNA_CHECK_CONTEXTO | UIDNA_USE_STD3_RULES,
                                  &e);
    int job = argc == 2 ? (!strcmp(argv[1], "to-ascii") ? 1 : !strcmp(argv[1], "to-unicode") ? 2
                                                            : !strcmp(argv[1], "check") ? 3 : 0)
                        : 0;
    char *line = NULL, out[1024];
    size_t cap = 0;
    ssize_t len;

    if (U_FAILURE(e) || job == 0) {
        fprintf(stderr, "usage: icu_stream to-ascii|to-unicode|check < names\n");
        return 2;
    }
    while ((len = getline(&line, &cap, stdin)) >= 0) {
        UIDNAInfo info = UIDNA_INFO_INITIALIZER;
        int32_t n;
        if (len > 0 && line[len - 1] == '\n')
            len--;
        e = U_ZERO_ERROR;
        n = job == 1 ? uidna_nameToASCII_UTF8(idna, line, (int32_t)len, out, sizeof out, &info, &e)
                     : uidna_nameToUnicodeUTF8(idna, line, (int32_t)len, out, sizeof out, &info, &e);
        if (U_FAILURE(e) || info.errors != 0 || n >= (int32_t)sizeof out)
            printf("ERROR %#x\n", (unsigned)info.errors);
        else if (job == 3)
            fputs("ok\n", stdout);
        else
            printf("%.*s\n", (int)n, out);
    }
    free(line);
    uidna_close(idna);
    return fflush(stdout) == 0 ? 0 : 1;
}
