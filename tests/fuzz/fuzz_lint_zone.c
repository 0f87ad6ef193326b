/**
 * \file
 * Fuzz target: `idnguard lint-zone`'s reader (cli/lint.c, idng_lint_stream)
 * on an arbitrary master file, read by ldns from memory.  The first octet
 * picks the output format (bit 0: JSON), the mode (bits 1-2) and whether an
 * origin is given (bit 3); the rest is the file.  $INCLUDE is never
 * followed (an error), so no input opens a file.
 *
 * Invariants:
 * - every output line is one finding: as many lines as findings counted,
 *   text lines begin with the file's name and a line number, JSON lines are
 *   "{...}"; the output is valid UTF-8 and holds no control octet but the
 *   newlines and no DEL (every name went through the display unit);
 * - every error line begins with the file's name; the findings per class
 *   add up to the findings, and no more findings than names judged, no
 *   more names than records (each has an owner) can account for: names >=
 *   records;
 * - nothing leaks (LeakSanitizer): every record is freed.
 */
#include "fuzz_common.h"
#include "idng_policy.h"
#include "lint.h"

#define FNAME "fuzz.db"

static void check_text(const char *s, size_t n)
{
    size_t i;

    FUZZ_CHECK(fuzz_utf8_valid((const unsigned char *)s, n), "output is not UTF-8");
    for (i = 0; i < n; i++)
        FUZZ_CHECK(s[i] == '\n' || ((unsigned char)s[i] >= 0x20 && s[i] != 0x7F),
                   "control octet 0x%02x at %zu", (unsigned)(unsigned char)s[i], i);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const idng_mode modes[] = {IDNG_MODE_UTS46, IDNG_MODE_IDNA2008, IDNG_MODE_PUNYCODE,
                                      IDNG_MODE_UTS46};
    struct idng_policy policy;
    struct idng_lint_totals t;
    struct idng_lint_cfg cfg;
    char *out = NULL, *err = NULL, *p;
    size_t out_len = 0, err_len = 0, lines = 0, sum = 0, i;
    char *zone;
    FILE *in;

    if (size < 2)
        return 0;
    idng_policy_init(&policy);
    policy.mode = modes[(data[0] >> 1) & 3];
    memset(&t, 0, sizeof t);
    cfg.policy = &policy;
    cfg.json = data[0] & 1;
    cfg.follow_include = 0;
    cfg.out = open_memstream(&out, &out_len);
    cfg.err = open_memstream(&err, &err_len);
    FUZZ_CHECK(cfg.out && cfg.err, "open_memstream");
    zone = fuzz_dup(data + 1, size - 1);
    in = fmemopen(zone, size - 1, "r");
    FUZZ_CHECK(in != NULL, "fmemopen");
    idng_lint_stream(&cfg, in, FNAME, (data[0] & 8) ? "fuzz.example." : NULL, &t);
    fclose(in);
    fclose(cfg.out);
    fclose(cfg.err);

    check_text(out, out_len);
    for (p = out; p < out + out_len; p = strchr(p, '\n') + 1) {
        size_t n;
        FUZZ_CHECK(strchr(p, '\n') != NULL, "output line without a newline");
        n = (size_t)(strchr(p, '\n') - p);
        if (cfg.json)
            FUZZ_CHECK(n >= 2 && p[0] == '{' && p[n - 1] == '}', "not a JSON object: %.*s",
                       (int)n, p);
        else
            FUZZ_CHECK(strncmp(p, FNAME ":", sizeof FNAME) == 0 && p[sizeof FNAME] >= '0'
                           && p[sizeof FNAME] <= '9',
                       "text line: %.*s", (int)n, p);
        lines++;
    }
    for (p = err; p < err + err_len; p = strchr(p, '\n') + 1) {
        FUZZ_CHECK(strchr(p, '\n') != NULL, "error line without a newline");
        FUZZ_CHECK(strncmp(p, FNAME, sizeof FNAME - 1) == 0, "error line: %s", p);
    }
    for (i = 0; i <= IDNG_CLASS_COUNT; i++)
        sum += t.by_class[i];
    FUZZ_CHECK(lines == t.findings, "%zu lines, %llu findings", lines, t.findings);
    FUZZ_CHECK(sum == t.findings, "classes add up to %zu, not %llu", sum, t.findings);
    FUZZ_CHECK(t.names >= t.records && t.findings <= t.names, "names %llu records %llu",
               t.names, t.records);
    free(out);
    free(err);
    free(zone);
    idng_policy_free(&policy);
    return 0;
}
