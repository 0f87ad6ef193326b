/**
 * \file
 * idnguard: command-line front end of the codec.
 *
 *   idnguard encode [--case] [LABEL...]      Unicode label -> raw Punycode
 *   idnguard decode [--case] [LABEL...]      raw Punycode -> Unicode label
 *   idnguard to-ascii [--mode=M] [--strict] [NAME...]
 *   idnguard to-unicode [--mode=M] [--strict] [NAME...]
 *   idnguard check [--mode=M] [NAME...]
 *   idnguard skeleton [--mode=M] [NAME...]     UTS #39 skeleton of each label
 *   idnguard restriction [--mode=M] [NAME...]  UTS #39 restriction level
 *   idnguard check-conf [FILE]
 *   idnguard tap (-u SOCKET | -r FILE) [...]  dnstap in, query-log lines out (tap.c)
 *   idnguard lint-zone [...] [FILE...]         a zone's names judged (lint.c)
 *
 * Without operands each command reads standard input, one item a line, and
 * writes exactly one line per input line.  Exit status: 0 when every item
 * succeeded, 1 when any failed, 2 on a usage error.  check-conf reads no
 * standard input; it exits 0 when FILE is valid, 1 when not.
 */
#include "idng_conf.h"
#include "idnguard.h"
#include "lint.h"
#include "tap.h"

#include <stdio.h>
#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#define OUT_MAX (4 * IDNG_INPUT_MAX + 16)

struct opts {
    idng_mode mode;
    unsigned flags;
    int use_case;
    const char *user; /* check-conf --user=NAME */
};

typedef int (*command_fn)(const char *item, size_t len, const struct opts *o);

/*
 * The answers of to-ascii, to-unicode and check: gathered here and handed to
 * stdio in blocks, since a stdio call per line was a fifth of the time of
 * `to-ascii` over plain names.  Anything else written to standard output
 * (error lines, the other commands) first drains it, so the order holds.
 * On a terminal every line is handed over at once, as stdio's line
 * buffering would.
 */
static struct {
    char buf[1 << 16];
    size_t len;
    int per_line;
} obuf;

static void out_drain(void)
{
    if (obuf.len > 0)
        fwrite(obuf.buf, 1, obuf.len, stdout);
    obuf.len = 0;
}

/* Room for n <= sizeof obuf.buf octets at the end of the buffer. */
static char *out_room(size_t n)
{
    if (sizeof obuf.buf - obuf.len < n)
        out_drain();
    return obuf.buf + obuf.len;
}

/* Keeps the n octets written at out_room() as a line. */
static void out_commit(size_t n)
{
    obuf.len += n;
    if (obuf.per_line)
        out_drain();
}

static void usage(FILE *f)
{
    fputs("usage: idnguard COMMAND [OPTIONS] [ITEM...]\n"
          "\n"
          "commands:\n"
          "  encode [--case] LABEL...     Punycode-encode UTF-8 labels (no xn-- prefix)\n"
          "  decode [--case] LABEL...     decode raw Punycode (no xn-- prefix) to UTF-8\n"
          "  to-ascii NAME...             UTS #46 ToASCII: 'B\xc3\xbc" "cher.DE' -> xn--bcher-kva.de\n"
          "  to-unicode NAME...           UTS #46 ToUnicode: xn--bcher-kva.de -> b\xc3\xbc" "cher.de\n"
          "  check NAME...                judge each name as the resolver module does:\n"
          "                               prints 'ok' or '<class>: <label>: <message>'\n"
          "  skeleton NAME...             UTS #39 confusable skeleton of each label's\n"
          "                               Unicode form: names that look alike have one\n"
          "                               skeleton ('\\046' is a '.' inside a label)\n"
          "  restriction NAME...          UTS #39 restriction level of the least\n"
          "                               restrictive label: ascii-only, single-script,\n"
          "                               highly-, moderately-, minimally-restrictive or\n"
          "                               unrestricted (plain ASCII labels: ascii-only)\n"
          "  check-conf [--user=NAME] [FILE]\n"
          "                               validate the module's settings file (default:\n"
          "                               $" IDNG_CONF_ENV " or " IDNG_CONF_DEFAULT_PATH "):\n"
          "                               prints the effective settings, or every\n"
          "                               error as 'FILE:LINE: message' on stderr; also\n"
          "                               checks that log-file and stats-file can be\n"
          "                               written by NAME (as root: 'unbound' when that\n"
          "                               user exists; else the user running it)\n"
          "  stats FILE                   the module's stats-file (Prometheus text), as a\n"
          "                               table: answers by verdict, action and path\n"
          "  tap (-u SOCKET | -r FILE) [OPTIONS]\n"
          "                               a resolver's dnstap as the module's query-log\n"
          "                               lines (idnguard tap --help)\n"
          "\n"
          "options:\n"
          "  --mode=punycode|idna2008|uts46   validation of xn-- labels (default uts46)\n"
          "  --strict                     to-ascii/to-unicode: judge plain ASCII labels too\n"
          "  --case                       encode: lowercase and record case flags\n"
          "                               (RFC 3492 appendix A); decode: apply them\n"
          "  --help                       this text\n"
          "  --version                    idnguard's version, its Unicode version and the\n"
          "                               Unbound the module was built against\n"
          "\n"
          "Items that begin with '-' (Punycode can) go after '--'.\n"
          "Without ITEM operands, items are read from standard input, one a line, and\n"
          "exactly one line is written per input line ('ERROR <class>: ...' on failure).\n"
          "Exit status: 0 all ok, 1 any failure, 2 usage error.\n",
          f);
}

static void put_atom(void *ctx, const char *atom, size_t n)
{
    fwrite(atom, 1, n, ctx);
}

/* Writes an operand's text as the display unit shows text (idng_display_text):
 * an error line shows the offending input unambiguously on one line. */
static void put_escaped(const char *s, size_t len)
{
    idng_display_text_to(s, len, put_atom, stdout);
}

static void put_codepoint_note(const idng_error *e)
{
    if (e->codepoint != IDNG_NO_CODEPOINT)
        printf(" (U+%04lX)", (unsigned long)e->codepoint);
}

/* "ERROR <class>: <label>: <message>" for a failure inside an item. */
static int report(const char *item, size_t len, const idng_error *e, int with_prefix)
{
    out_drain();
    if (with_prefix)
        fputs("ERROR ", stdout);
    printf("%s: ", idng_status_class_name(e->status));
    if (e->label_len > 0 && e->label_off <= len && e->label_len <= len - e->label_off) {
        put_escaped(item + e->label_off, e->label_len);
        fputs(": ", stdout);
    }
    fputs(idng_status_message(e->status), stdout);
    put_codepoint_note(e);
    putchar('\n');
    return 1;
}

static int report_status(idng_status st)
{
    out_drain();
    printf("ERROR %s: %s\n", idng_status_class_name(st), idng_status_message(st));
    return 1;
}

static int cmd_encode(const char *item, size_t len, const struct opts *o)
{
    uint32_t cps[IDNG_INPUT_MAX];
    unsigned char flags[IDNG_INPUT_MAX];
    char out[OUT_MAX];
    size_t n = 0, pos = 0, outlen = sizeof out - 1;
    idng_status st;

    while (pos < len) {
        size_t m;
        if (n == IDNG_INPUT_MAX)
            return report_status(IDNG_E_INPUT_TOO_LONG);
        m = idng_utf8_decode((const unsigned char *)item + pos, len - pos, &cps[n]);
        if (m == 0)
            return report_status(IDNG_E_BAD_UTF8);
        flags[n] = 0;
        if (o->use_case) {
            uint32_t lower = idng_simple_lower(cps[n]);
            flags[n] = lower != cps[n];
            cps[n] = lower;
        }
        n++;
        pos += m;
    }
    st = idng_punycode_encode(cps, n, o->use_case ? flags : NULL, out, &outlen);
    if (st != IDNG_OK)
        return report_status(st);
    fwrite(out, 1, outlen, stdout);
    putchar('\n');
    return 0;
}

static int cmd_decode(const char *item, size_t len, const struct opts *o)
{
    uint32_t cps[IDNG_INPUT_MAX];
    unsigned char flags[IDNG_INPUT_MAX], buf[4];
    size_t n = IDNG_INPUT_MAX, i;
    idng_status st;

    if (len > IDNG_INPUT_MAX)
        return report_status(IDNG_E_INPUT_TOO_LONG);
    st = idng_punycode_decode(item, len, cps, &n, flags);
    if (st != IDNG_OK)
        return report_status(st);
    for (i = 0; i < n; i++) {
        uint32_t cp = cps[i];
        if (o->use_case && flags[i])
            cp = cp < 0x80 ? (cp >= 'a' && cp <= 'z' ? cp - 32 : cp) : idng_simple_upper(cp);
        fwrite(buf, 1, idng_utf8_encode(cp, buf), stdout);
    }
    putchar('\n');
    return 0;
}

static int convert(const char *item, size_t len, const struct opts *o, int to_unicode)
{
    char *p = out_room(OUT_MAX);
    size_t outlen = OUT_MAX - 1; /* and the newline */
    idng_error e;
    idng_status st = to_unicode ? idng_to_unicode(item, len, p, &outlen, o->mode, o->flags, &e)
                                : idng_to_ascii(item, len, p, &outlen, o->mode, o->flags, &e);
    if (st != IDNG_OK)
        return report(item, len, &e, 1);
    p[outlen] = '\n';
    out_commit(outlen + 1);
    return 0;
}

static int cmd_to_ascii(const char *item, size_t len, const struct opts *o)
{
    return convert(item, len, o, 0);
}

static int cmd_to_unicode(const char *item, size_t len, const struct opts *o)
{
    return convert(item, len, o, 1);
}

static int cmd_check(const char *item, size_t len, const struct opts *o)
{
    idng_error e;

    if (idng_name_check(item, len, o->mode, &e) != IDNG_OK)
        return report(item, len, &e, 0);
    memcpy(out_room(3), "ok\n", 3);
    out_commit(3);
    return 0;
}

/* The longest skeleton idng_name_skeleton can write for a name the codec
 * accepts: at most 253 code points of labels, each with a skeleton of at
 * most IDNG_SKELETON_GROWTH code points of at most 10 octets (\\u{XXXXX}),
 * and the full stops. */
#define SKELETON_OUT_MAX (253 * IDNG_SKELETON_GROWTH * 10 + 2 * IDNG_LABELS_MAX)

static int cmd_skeleton(const char *item, size_t len, const struct opts *o)
{
    char *out = out_room(SKELETON_OUT_MAX + 1);
    size_t n = SKELETON_OUT_MAX;
    idng_error e;
    idng_status st = idng_name_skeleton(item, len, out, &n, o->mode, &e);

    if (st == IDNG_E_NOSPACE)
        return report_status(st);
    if (st != IDNG_OK)
        return report(item, len, &e, 1);
    out[n] = '\n';
    out_commit(n + 1);
    return 0;
}

static int cmd_restriction(const char *item, size_t len, const struct opts *o)
{
    idng_restriction level;
    idng_error e;
    const char *name;
    size_t n;

    if (idng_name_restriction(item, len, o->mode, &level, NULL, &e) != IDNG_OK)
        return report(item, len, &e, 1);
    name = idng_restriction_name(level);
    n = strlen(name);
    memcpy(out_room(n + 1), name, n);
    out_room(n + 1)[n] = '\n';
    out_commit(n + 1);
    return 0;
}

/* check-conf [FILE]: validates one file and prints the effective settings. */
/*
 * `idnguard stats FILE`: the module's Prometheus stats file, for a person:
 * client answers by verdict and action, one column per answer path, then
 * the other counters.  Reads only what the module writes (idng_stats.h).
 */
#define STATS_PATHS 5
#define STATS_ROWS 256
static int stats_file(const char *path)
{
    static const char *const paths[STATS_PATHS] = {"resolved", "cache", "local", "servfail",
                                                    "policy"};
    struct row {
        char verdict[32], action[16];
        unsigned long long n[STATS_PATHS];
    } *rows = calloc(STATS_ROWS, sizeof *rows);
    char line[1024], other[4096] = "";
    size_t nrows = 0, olen = 0, i;
    int p, seen = 0;
    FILE *f = fopen(path, "r");

    if (!f || !rows) {
        fprintf(stderr, "idnguard: stats: %s: %s\n", path, f ? "out of memory" : strerror(errno));
        if (f)
            fclose(f);
        free(rows);
        return 1;
    }
    while (fgets(line, sizeof line, f)) {
        char v[32], a[16], pa[16], name[64];
        unsigned long long n;
        if (line[0] == '#')
            continue;
        if (sscanf(line, "idnguard_answers_total{class=\"%31[^\"]\",action=\"%15[^\"]\","
                         "path=\"%15[^\"]\"} %llu", v, a, pa, &n) == 4) {
            for (i = 0; i < nrows; i++)
                if (strcmp(rows[i].verdict, v) == 0 && strcmp(rows[i].action, a) == 0)
                    break;
            if (i == nrows && nrows < STATS_ROWS) {
                snprintf(rows[i].verdict, sizeof rows[i].verdict, "%s", v);
                snprintf(rows[i].action, sizeof rows[i].action, "%s", a);
                nrows++;
            }
            for (p = 0; p < STATS_PATHS && i < nrows; p++)
                if (strcmp(paths[p], pa) == 0)
                    rows[i].n[p] += n;
            seen = 1;
        } else if (sscanf(line, "idnguard_%63[a-z_] %llu", name, &n) == 2 && strlen(name) > 6
                   && strcmp(name + strlen(name) - 6, "_total") == 0) {
            name[strlen(name) - 6] = '\0';
            olen += (size_t)snprintf(other + olen, olen < sizeof other ? sizeof other - olen : 0,
                                     "  %-22s %llu\n", name, n);
            seen = 1;
        } else if (strncmp(line, "idnguard_info{", 14) == 0) {
            seen = 1;
        }
    }
    fclose(f);
    if (!seen) {
        fprintf(stderr, "idnguard: stats: %s: no idnguard counters in it\n", path);
        free(rows);
        return 1;
    }
    printf("client answers, by verdict and action, per answer path:\n");
    printf("  %-16s %-10s", "verdict", "action");
    for (p = 0; p < STATS_PATHS; p++)
        printf(" %10s", paths[p]);
    printf(" %10s\n", "total");
    for (i = 0; i < nrows; i++) {
        unsigned long long t = 0;
        printf("  %-16s %-10s", rows[i].verdict, rows[i].action);
        for (p = 0; p < STATS_PATHS; p++) {
            printf(" %10llu", rows[i].n[p]);
            t += rows[i].n[p];
        }
        printf(" %10llu\n", t);
    }
    printf("other counters:\n%s", other);
    free(rows);
    return 0;
}

static int check_conf_file(const char *path, const char *user)
{
    struct idng_conf conf;
    static char err[16384];
    int rc;

    idng_conf_init(&conf);
    if (idng_conf_check_file(&conf, path, IDNG_CONF_F_CHECK_PATHS, user, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    if (err[0])
        fprintf(stderr, "%s\n", err); /* warnings */
    rc = idng_conf_write(&conf, stdout);
    idng_conf_free(&conf);
    return rc != 0 ? 2 : 0;
}

/*
 * One line out per line in, streamed.  Input is read in blocks with
 * read(2), and the output is flushed just before a read that may wait: so
 * nothing is held back while the input has nothing more ready (a
 * co-process that writes a line and waits for its answer gets it), and a
 * fast pipe or file is not slowed by a flush per line.
 */
static int run_stdin(command_fn fn, const struct opts *o)
{
    size_t cap = 1 << 16, have = 0, start = 0;
    char *buf = malloc(cap);
    int failed = 0, eof = 0;

    if (buf == NULL) {
        fprintf(stderr, "idnguard: out of memory\n");
        return 2;
    }
    while (!eof || start < have) {
        char *nl = memchr(buf + start, '\n', have - start);
        size_t len;

        if (nl == NULL && !eof) {
            ssize_t got;
            /* No whole line left: keep the partial one, then wait for more. */
            memmove(buf, buf + start, have - start);
            have -= start;
            start = 0;
            if (have == cap) {
                char *bigger = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
                if (bigger == NULL) {
                    fprintf(stderr, "idnguard: out of memory for a %zu-octet line\n", have);
                    failed = 2;
                    break;
                }
                buf = bigger;
                cap *= 2;
            }
            out_drain();
            if (fflush(stdout) != 0) {
                failed = 2;
                break;
            }
            got = read(STDIN_FILENO, buf + have, cap - have);
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0) {
                fprintf(stderr, "idnguard: standard input: %s\n", strerror(errno));
                failed = 2;
                break;
            }
            if (got == 0)
                eof = 1;
            have += (size_t)got;
            continue;
        }
        len = nl != NULL ? (size_t)(nl - (buf + start)) : have - start; /* last line, no newline */
        if (len > 0 && buf[start + len - 1] == '\r')
            len--;
        failed |= fn(buf + start, len, o);
        start = nl != NULL ? (size_t)(nl - buf) + 1 : have;
    }
    free(buf);
    return failed;
}

/* Which options a command takes. */
enum {
    O_MODE = 1u << 0,
    O_STRICT = 1u << 1,
    O_CASE = 1u << 2,
    O_FILE = 1u << 3,
    O_USER = 1u << 4
};

struct command {
    const char *name;
    command_fn fn;  /* per item; NULL for check-conf */
    unsigned opts;
};

/*
 * Parses the options after the command name into o.  Returns -1 and sets
 * *first to the first operand, or the exit status to return at once (0 for
 * --help, 2 for a usage error).  Options begin with "--"; for a command on
 * a FILE, "-x" is an option too, since items (Punycode) may begin with '-'.
 */
static int parse_options(int argc, char **argv, const struct command *c, struct opts *o,
                         int *first)
{
    int i;

    for (i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if ((c->opts & O_MODE) && strncmp(a, "--mode=", 7) == 0) {
            if (idng_mode_lookup(a + 7, strlen(a + 7), &o->mode) != 0) {
                fprintf(stderr, "idnguard: unknown mode '%s' (punycode, idna2008, uts46)\n",
                        a + 7);
                return 2;
            }
        } else if ((c->opts & O_STRICT) && strcmp(a, "--strict") == 0) {
            o->flags |= IDNG_F_STRICT;
        } else if ((c->opts & O_CASE) && strcmp(a, "--case") == 0) {
            o->use_case = 1;
        } else if ((c->opts & O_USER) && strncmp(a, "--user=", 7) == 0 && a[7] != '\0') {
            if (!getpwnam(a + 7)) {
                fprintf(stderr, "idnguard: %s: no user '%s'\n", c->name, a + 7);
                return 2;
            }
            o->user = a + 7;
        } else if (a[0] == '-' && (a[1] == '-' || ((c->opts & O_FILE) && a[1] != '\0'))) {
            fprintf(stderr, "idnguard: %s: unknown option '%s'\n", c->name, a);
            return 2;
        } else {
            break;
        }
    }
    *first = i;
    return -1;
}

int main(int argc, char **argv)
{
    static const struct command cmds[] = {
        {"encode", cmd_encode, O_CASE},
        {"decode", cmd_decode, O_CASE},
        {"to-ascii", cmd_to_ascii, O_MODE | O_STRICT},
        {"to-unicode", cmd_to_unicode, O_MODE | O_STRICT},
        {"check", cmd_check, O_MODE},
        {"skeleton", cmd_skeleton, O_MODE},
        {"restriction", cmd_restriction, O_MODE},
        {"check-conf", NULL, O_FILE | O_USER},
        {"stats", NULL, O_FILE},
    };
    struct opts o = {IDNG_MODE_UTS46, 0, 0, NULL};
    const struct command *c = NULL;
    size_t k;
    int i, rc, failed = 0;

    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0
        || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("idnguard " IDNG_VERSION "\nUnicode " IDNG_UNICODE_VERSION "\n");
#ifdef IDNG_UNBOUND_VERSION
        if (IDNG_UNBOUND_VERSION[0])
            printf("Unbound " IDNG_UNBOUND_VERSION " (the module's build)\n");
#endif
        return fflush(stdout) == 0 ? 0 : 2;
    }
    if (strcmp(argv[1], "tap") == 0)
        return idng_tap_main(argc, argv);
    if (strcmp(argv[1], "lint-zone") == 0)
        return idng_lint_main(argc, argv);
    for (k = 0; k < sizeof cmds / sizeof cmds[0]; k++)
        if (strcmp(argv[1], cmds[k].name) == 0)
            c = &cmds[k];
    if (!c) {
        fprintf(stderr, "idnguard: unknown command '%s'\n", argv[1]);
        usage(stderr);
        return 2;
    }
    if ((rc = parse_options(argc, argv, c, &o, &i)) >= 0)
        return rc;
    if (c->opts & O_FILE) {
        if (argc - i > 1) {
            fprintf(stderr, "idnguard: %s: one FILE at most (extra '%s')\n", c->name,
                    argv[i + 1]);
            return 2;
        }
        if (strcmp(c->name, "stats") == 0) {
            if (i == argc) {
                fprintf(stderr, "idnguard: stats: which FILE? (the module's stats-file)\n");
                return 2;
            }
            return stats_file(argv[i]) ? 1 : (fflush(stdout) == 0 ? 0 : 2);
        }
        /* The files are opened by the daemon's user: as root, check for
         * Unbound's usual one unless told another. */
        if (!o.user && geteuid() == 0 && getpwnam("unbound"))
            o.user = "unbound";
        failed = check_conf_file(i < argc ? argv[i] : idng_conf_path(), o.user);
        if (failed == 1)
            return 1;
    } else if (i == argc) {
        /* A file or pipe gets full buffers (run_stdin flushes before it
         * waits for input); a terminal keeps stdio's line buffering. */
        if (!isatty(STDOUT_FILENO))
            setvbuf(stdout, NULL, _IOFBF, 1 << 16);
        else
            obuf.per_line = 1;
        failed = run_stdin(c->fn, &o);
    } else {
        obuf.per_line = isatty(STDOUT_FILENO);
        for (; i < argc; i++)
            failed |= c->fn(argv[i], strlen(argv[i]), &o);
    }
    out_drain();
    if (failed == 2 || fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "idnguard: error writing output\n");
        return 2;
    }
    return failed ? 1 : 0;
}
