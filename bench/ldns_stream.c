/**
 * \file
 * The baseline of bench/lint_bench.sh: ldns reading a master file record by
 * record, each freed, as `idnguard lint-zone` reads it (cli/lint.c), with no
 * judging: what lint-zone costs beyond this is the judging and its output.
 * Prints the record count; exits 2 on a syntax error.
 */
#include <ldns/ldns.h>

#include <stdio.h>

int main(int argc, char **argv)
{
    FILE *f = argc == 2 ? fopen(argv[1], "r") : NULL;
    ldns_rdf *origin = NULL, *prev = NULL;
    uint32_t ttl = 3600;
    unsigned long long n = 0;
    int line = 0, bad = 0;

    if (f == NULL) {
        fprintf(stderr, "usage: ldns_stream ZONEFILE\n");
        return 2;
    }
    while (!feof(f)) {
        ldns_rr *rr = NULL;
        ldns_status st = ldns_rr_new_frm_fp_l(&rr, f, &ttl, &origin, &prev, &line);
        if (st == LDNS_STATUS_OK) {
            n++;
            ldns_rr_free(rr);
        } else if (st != LDNS_STATUS_SYNTAX_EMPTY && st != LDNS_STATUS_SYNTAX_TTL
                   && st != LDNS_STATUS_SYNTAX_ORIGIN) {
            fprintf(stderr, "%s:%d: %s\n", argv[1], line, ldns_get_errorstr_by_id(st));
            bad = 1;
        }
    }
    fclose(f);
    ldns_rdf_deep_free(origin);
    ldns_rdf_deep_free(prev);
    fprintf(stderr, "%llu records\n", n);
    return bad ? 2 : 0;
}
