/**
 * \file
 * UTS #46 conformance: every test line of IdnaTestV2.txt (Unicode 16.0.0),
 * run through idng_to_unicode and idng_to_ascii in strict UTS #46 mode
 * (CheckHyphens, CheckBidi, CheckJoiners, UseSTD3ASCIIRules and, for
 * ToASCII, VerifyDnsLength all on): toUnicode and toAsciiN nontransitional,
 * toAsciiT with IDNG_F_TRANSITIONAL (columns 6 and 7).
 *
 * For each line and each of the three: when the file expects no error, the
 * output must equal the expected string; when it expects errors, the codec
 * must report an error (UTS #46 asks only that an error be recorded, not
 * which one).  Each line is its own loop test, so a failure names its line.
 *
 * The file's path comes from $IDNA_TEST_FILE: the copy of Debian's icu
 * 76.1 source package's in tests/codec/data/ (data.manifest pins it).
 */
#include "common.h"
#include "idnguard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vector {
    unsigned lineno;
    char *source, *to_unicode, *to_ascii_n, *to_ascii_t;
    int unicode_error, ascii_error, ascii_t_error;
};

static struct vector *vectors;
static size_t nvectors;

/*
 * Lines where idnguard deliberately differs from UTS #46 16.0, each with
 * its reason.  A listed line must still fail (so the list stays true).
 */
#define LONG_ACE "an xn-- label longer than 63 octets is refused before decoding (too-long): no DNS label can hold it, and the cap bounds the decoder's work"
static const struct t_deviation deviations[] = {
    {"xn--12345678901234567890123456789012345678901234567890123456-fxe",
     LONG_ACE},
    {"1.xn--assbcssssssssdssssssssssssssssessssssssssssssssssssxssssssssssssssssssssysssssssssssssssssz-pxq1419aa",
     LONG_ACE},
    {"123456789012345678901234567890123456789012345678901234567890123.xn--12345678901234567890123456789012345678901234567890123456-fxe.123456789012345678901234567890123456789012345678901234567890123.12345678901234567890123456789012345678901234567890123456789a",
     LONG_ACE},
    {"123456789012345678901234567890123456789012345678901234567890123.xn--12345678901234567890123456789012345678901234567890123456-fxe.123456789012345678901234567890123456789012345678901234567890123.12345678901234567890123456789012345678901234567890123456789a.",
     LONG_ACE},
    {"123456789012345678901234567890123456789012345678901234567890123.xn--12345678901234567890123456789012345678901234567890123456-fxe.123456789012345678901234567890123456789012345678901234567890123.123456789012345678901234567890123456789012345678901234567890b",
     LONG_ACE},
    {NULL, NULL},
};

static void die(const char *msg, unsigned lineno)
{
    fprintf(stderr, "test_conformance: line %u: %s\n", lineno, msg);
    exit(EXIT_FAILURE);
}

/* Trims spaces and tabs at both ends, in place. */
static char *trim(char *s)
{
    char *e;
    while (*s == ' ' || *s == '\t')
        s++;
    e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
        *--e = '\0';
    return s;
}

/* Copies a field, expanding \uXXXX and \x{XXXX} escapes to UTF-8. */
static char *unescape(const char *s, unsigned lineno)
{
    char *out = malloc(strlen(s) * 4 + 1), *o = out;
    if (!out)
        die("out of memory", lineno);
    while (*s) {
        unsigned long cp;
        char *end;
        unsigned char buf[4];
        if (s[0] == '\\' && s[1] == 'u') {
            char hex[5];
            memcpy(hex, s + 2, 4);
            hex[4] = '\0';
            cp = strtoul(hex, &end, 16);
            if (end != hex + 4)
                die("bad \\u escape", lineno);
            s += 6;
        } else if (s[0] == '\\' && s[1] == 'x' && s[2] == '{') {
            cp = strtoul(s + 3, &end, 16);
            if (*end != '}')
                die("bad \\x{} escape", lineno);
            s = end + 1;
        } else {
            *o++ = *s++;
            continue;
        }
        /* The file escapes lone surrogates too; keep them as invalid
         * CESU-style octets so that the codec sees bad UTF-8. */
        if (cp >= 0xD800 && cp <= 0xDFFF) {
            *o++ = (char)(0xE0 | cp >> 12);
            *o++ = (char)(0x80 | (cp >> 6 & 0x3F));
            *o++ = (char)(0x80 | (cp & 0x3F));
            continue;
        }
        memcpy(o, buf, idng_utf8_encode((uint32_t)cp, buf));
        o += idng_utf8_encode((uint32_t)cp, buf);
    }
    *o = '\0';
    return out;
}

/* A column: blank inherits from the one before (given as inherit); from
 * 16.0 "" is the empty string. */
static char *field(const char *col, const char *inherit, unsigned lineno)
{
    if (col[0] == '\0')
        return strdup(inherit);
    if (strcmp(col, "\"\"") == 0)
        return strdup("");
    return unescape(col, lineno);
}

/* Is the last label of the A-label name s the only one that A4_2 (a label
 * empty or over 63 octets) can be about: is it the root? */
static int root_only(const char *s)
{
    size_t n = strlen(s), run = 0, i;

    if (n < 2 || s[n - 1] != '.' || s[0] == '.' || strstr(s, "..") != NULL)
        return 0;
    for (i = 0; i < n; i++) {
        run = s[i] == '.' ? 0 : run + 1;
        if (run > 63)
            return 0;
    }
    return 1;
}

/* Whether a ToASCII status column holds an error.  The root label: from
 * 16.0 the file gives VerifyDnsLength's A4_2 to a name's final empty label
 * ("a.b."), but a DNS name ends with the root, and idnguard takes it as
 * ICU 76 does (ICU-22882): a column whose only error is that is none. */
static int ascii_error(const char *codes, const char *out)
{
    if (codes[0] == '\0' || strcmp(codes, "[]") == 0)
        return 0;
    return !(strcmp(codes, "[A4_2]") == 0 && root_only(out));
}

static void load(const char *path)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0, alloc = 0;
    unsigned lineno = 0;

    if (!f) {
        fprintf(stderr, "test_conformance: cannot open %s (set IDNA_TEST_FILE)\n", path);
        exit(EXIT_FAILURE);
    }
    while (getline(&line, &cap, f) >= 0) {
        char *col[7], *p = line, *hash;
        struct vector *v;
        int i;

        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || trim(line)[0] == '\0')
            continue;
        for (i = 0; i < 6; i++) {
            char *semi = strchr(p, ';');
            if (!semi)
                die("fewer than 7 columns", lineno);
            *semi = '\0';
            col[i] = trim(p);
            p = semi + 1;
        }
        if ((hash = strchr(p, '#')) != NULL)
            *hash = '\0';
        col[6] = trim(p);
        if (nvectors == alloc) {
            alloc = alloc ? alloc * 2 : 1024;
            vectors = realloc(vectors, alloc * sizeof *vectors);
            if (!vectors)
                die("out of memory", lineno);
        }
        v = &vectors[nvectors++];
        v->lineno = lineno;
        v->source = unescape(col[0], lineno);
        /* Blank columns inherit, as the file's header describes. */
        /* Blank status columns inherit too. */
        if (col[4][0] == '\0')
            col[4] = col[2];
        if (col[6][0] == '\0')
            col[6] = col[4];
        v->to_unicode = field(col[1], v->source, lineno);
        v->unicode_error = col[2][0] != '\0' && strcmp(col[2], "[]") != 0;
        v->to_ascii_n = field(col[3], v->to_unicode, lineno);
        v->ascii_error = ascii_error(col[4], v->to_ascii_n);
        v->to_ascii_t = field(col[5], v->to_ascii_n, lineno);
        v->ascii_t_error = ascii_error(col[6], v->to_ascii_t);
    }
    free(line);
    fclose(f);
    if (nvectors == 0)
        die("no test lines found", lineno);
}

/* What a line is checked for: toUnicode, toAsciiN, toAsciiT. */
enum op { TO_UNICODE, TO_ASCII_N, TO_ASCII_T };

/* One operation on one line; returns NULL on agreement, else a reason. */
static const char *judge(const struct vector *v, enum op op, char *got, size_t gotcap,
                         idng_status *st)
{
    size_t outlen = gotcap - 1;
    const char *want = op == TO_UNICODE   ? v->to_unicode
                       : op == TO_ASCII_N ? v->to_ascii_n
                                          : v->to_ascii_t;
    int want_error = op == TO_UNICODE   ? v->unicode_error
                     : op == TO_ASCII_N ? v->ascii_error
                                        : v->ascii_t_error;

    *st = op == TO_UNICODE
              ? idng_to_unicode(v->source, strlen(v->source), got, &outlen, IDNG_MODE_UTS46,
                                IDNG_F_STRICT, NULL)
              : idng_to_ascii(v->source, strlen(v->source), got, &outlen, IDNG_MODE_UTS46,
                              IDNG_F_STRICT | (op == TO_ASCII_T ? IDNG_F_TRANSITIONAL : 0), NULL);
    if (*st == IDNG_OK)
        got[outlen] = '\0';
    else
        got[0] = '\0';
    if (want_error)
        return *st != IDNG_OK ? NULL : "expected an error, got none";
    if (*st != IDNG_OK)
        return "expected no error";
    return strcmp(got, want) == 0 ? NULL : "output differs";
}

START_TEST(test_line)
{
    const struct vector *v = &vectors[_i];
    const char *reason = t_deviation_reason(deviations, v->source);
    char got_u[4 * IDNG_INPUT_MAX], got_a[4 * IDNG_INPUT_MAX], got_t[4 * IDNG_INPUT_MAX];
    idng_status su, sa, st;
    const char *fu = judge(v, TO_UNICODE, got_u, sizeof got_u, &su);
    const char *fa = judge(v, TO_ASCII_N, got_a, sizeof got_a, &sa);
    const char *ft = judge(v, TO_ASCII_T, got_t, sizeof got_t, &st);

    if (reason) {
        ck_assert_msg(fu || fa || ft,
                      "line %u: listed as a deviation (%s) but passes: update the list", v->lineno,
                      reason);
        return;
    }
    ck_assert_msg(!fu, "line %u: toUnicode(%s): %s: want %s'%s', got %s '%s'", v->lineno, v->source,
                  fu, v->unicode_error ? "an error, " : "", v->to_unicode, idng_status_symbol(su),
                  got_u);
    ck_assert_msg(!fa, "line %u: toAsciiN(%s): %s: want %s'%s', got %s '%s'", v->lineno, v->source,
                  fa, v->ascii_error ? "an error, " : "", v->to_ascii_n, idng_status_symbol(sa),
                  got_a);
    ck_assert_msg(!ft, "line %u: toAsciiT(%s): %s: want %s'%s', got %s '%s'", v->lineno, v->source,
                  ft, v->ascii_t_error ? "an error, " : "", v->to_ascii_t, idng_status_symbol(st),
                  got_t);
}
END_TEST

static Suite *conformance_suite(void)
{
    Suite *s = suite_create("uts46-conformance");
    TCase *tc = tcase_create("IdnaTestV2");

    tcase_add_loop_test(tc, test_line, 0, (int)nvectors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    const char *path = getenv("IDNA_TEST_FILE");
    size_t i, nerr_u = 0, nerr_a = 0, nerr_t = 0, ndev = 0;

    load(path ? path : "tests/codec/data/IdnaTestV2.txt");
    for (i = 0; i < nvectors; i++) {
        nerr_u += vectors[i].unicode_error;
        nerr_a += vectors[i].ascii_error;
        nerr_t += vectors[i].ascii_t_error;
    }
    for (i = 0; deviations[i].input; i++)
        ndev++;
    printf("IdnaTestV2.txt (Unicode %s): %zu test lines, each checked in toUnicode, "
           "toAsciiN and toAsciiT; %zu, %zu and %zu of them expect errors; %zu listed "
           "deviations\n",
           IDNG_UNICODE_VERSION, nvectors, nerr_u, nerr_a, nerr_t, ndev);
    return t_run_suite(conformance_suite());
}
