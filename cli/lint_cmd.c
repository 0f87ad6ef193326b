/**
 * \file
 * `idnguard lint-zone [OPTIONS] [FILE...]`: the command around the zone
 * reader of lint.c: its options, the files given, the summary line.
 */
#include "lint.h"
#include "opts.h"

#include "idng_conf.h"
#include "idnguard.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static void usage(FILE *f)
{
    fputs("usage: idnguard lint-zone [--origin NAME] [--mode=punycode|idna2008|uts46]\n"
          "                          [--format=text|json] [--conf FILE] [FILE...]\n"
          "\n"
          "Judges every owner name and every domain name in the records' data of DNS\n"
          "master files (ldns reads them: $ORIGIN, $TTL, $INCLUDE, relative names,\n"
          "escapes) as the resolver module judges a query for that name.  One line\n"
          "per finding on standard output:\n"
          "  FILE:LINE: OWNER TYPE FIELD[=NAME]: CLASS: LABEL: MESSAGE [ACTION]\n"
          "(or one JSON object per line with --format=json); syntax errors as\n"
          "FILE:LINE: MESSAGE and a summary per class on standard error.\n"
          "\n"
          "  --origin NAME     the origin of relative names until a $ORIGIN\n"
          "                    (default: the root, then the first SOA's owner)\n"
          "  --mode=M          validation of xn-- labels (default: the settings', uts46)\n"
          "  --format=F        text (default) or json\n"
          "  --conf FILE       the module's settings file: its mode, actions, allow\n"
          "                    and deny lists (default: the built-in defaults)\n"
          "\n"
          "FILE '-' (or no FILE) is standard input (a pipe too); any other FILE, and\n"
          "every file $INCLUDE names, must be a regular file.\n",
          f);
    fprintf(f, "$INCLUDE: at most %d deep, no loop, at most %d files and %llu GiB for one FILE.\n",
            IDNG_LINT_INCLUDE_DEPTH_MAX, IDNG_LINT_INCLUDE_FILES_MAX,
            IDNG_LINT_INCLUDE_OCTETS_MAX >> 30);
    fputs("Exit status: 0 no finding, 1 findings, 2 an unreadable input, a syntax\n"
          "error, an $INCLUDE refused or a usage error.\n",
          f);
}

static void summary(const struct idng_lint_totals *t, FILE *f)
{
    int c;

    fprintf(f, IDNG_CLI_ERR "%llu records, %llu names, %llu findings", "lint-zone", t->records,
            t->names, t->findings);
    for (c = 0; c <= IDNG_CLASS_COUNT; c++)
        if (t->by_class[c])
            fprintf(f, ", %s %llu", c == IDNG_CLASS_COUNT ? "deny" : idng_class_name(c),
                    t->by_class[c]);
    fprintf(f, "; %llu errors\n", t->errors);
}

/* The command line as given. */
struct lint_args {
    const char *origin, *conf_path, *mode_name, *format;
    idng_mode mode;
};

/* --mode=M, --format=F: checked where they are given. */
static int lint_choice(void *ctx, const struct idng_opt *opt, const char *v)
{
    struct lint_args *a = ctx;

    if (opt->id == 0 && idng_mode_lookup(v, strlen(v), &a->mode) != 0) {
        fprintf(stderr, IDNG_CLI_ERR "unknown mode '%s' (punycode, idna2008, uts46)\n", "lint-zone",
                v);
        return 2;
    }
    if (opt->id == 1 && strcmp(v, "text") != 0 && strcmp(v, "json") != 0) {
        fprintf(stderr, IDNG_CLI_ERR "unknown format '%s' (text, json)\n", "lint-zone", v);
        return 2;
    }
    return -1;
}

/* The options into a, the FILE operands to argv[2..2+*nops); returns -1
 * to go on, or the exit status.  Options come before the files. */
static int parse_args(int argc, char **argv, struct lint_args *a, int *nops)
{
    const struct idng_opt opts[] = {
        {.name = "--origin", .val = IDNG_OPT_NEXT, .arg = "NAME", .store = &a->origin},
        {.name = "--conf", .val = IDNG_OPT_NEXT, .arg = "FILE", .store = &a->conf_path},
        {.name = "--mode",
         .val = IDNG_OPT_NEXT,
         .arg = "M",
         .store = &a->mode_name,
         .fn = lint_choice},
        {.name = "--format",
         .val = IDNG_OPT_NEXT,
         .arg = "F",
         .store = &a->format,
         .fn = lint_choice,
         .id = 1},
    };
    const struct idng_optspec spec = {.cmd = "lint-zone",
                                      .opts = opts,
                                      .nopts = sizeof opts / sizeof opts[0],
                                      .operands = 1,
                                      .ctx = a,
                                      .usage = usage};

    return idng_opts_parse(&spec, argc, argv, nops);
}

int idng_lint_main(int argc, char **argv)
{
    static struct idng_conf conf;
    static char err[16384];
    static struct idng_lint_totals t;
    struct lint_args args = {NULL, NULL, NULL, NULL, IDNG_MODE_UTS46};
    struct idng_lint_cfg cfg;
    const char *origin;
    int i, n, rc, stdin_done = 0;

    if ((rc = parse_args(argc, argv, &args, &n)) >= 0)
        return rc;
    origin = args.origin;
    idng_conf_init(&conf);
    if (args.conf_path != NULL && idng_conf_load(&conf, args.conf_path, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    if (args.mode_name)
        conf.policy.mode = args.mode;
    cfg.policy = &conf.policy;
    cfg.json = args.format && strcmp(args.format, "json") == 0;
    cfg.follow_include = 1;
    cfg.out = stdout;
    cfg.err = stderr;
    setvbuf(stdout, NULL, _IOFBF, 1 << 16);
    if (n == 0)
        idng_lint_stream(&cfg, stdin, "-", origin, &t);
    for (i = 2; i < 2 + n; i++) {
        struct stat st;
        const char *why;
        FILE *f;
        if (strcmp(argv[i], "-") == 0) {
            if (stdin_done++) {
                fprintf(stderr, IDNG_CLI_ERR "standard input named twice\n", "lint-zone");
                t.errors++;
                continue;
            }
            idng_lint_stream(&cfg, stdin, "-", origin, &t);
            continue;
        }
        f = idng_lint_open(argv[i], &st, &why);
        if (f == NULL) {
            char shown[4096];
            idng_display_text(argv[i], strlen(argv[i]), shown, sizeof shown);
            fprintf(stderr, "%s: %s\n", shown, why);
            t.errors++;
            continue;
        }
        idng_lint_stream(&cfg, f, argv[i], origin, &t);
        fclose(f);
    }
    idng_conf_free(&conf);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, IDNG_CLI_ERR "error writing output\n", "lint-zone");
        return 2;
    }
    summary(&t, stderr);
    return t.errors ? 2 : t.findings ? 1 : 0;
}
