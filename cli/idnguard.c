/**
 * \file
 * idnguard: command-line front end of the codec.
 *
 *   idnguard encode [--case] [--format=F] [LABEL...]   Unicode label -> raw Punycode
 *   idnguard decode [--case] [--format=F] [LABEL...]   raw Punycode -> Unicode label
 *   idnguard to-ascii [--mode=M] [--strict] [UTS #46 options] [--format=F] [NAME...]
 *   idnguard to-unicode [--mode=M] [--strict] [UTS #46 options] [--format=F] [NAME...]
 *   idnguard check [--mode=M] [--conf FILE] [--format=F] [NAME...]
 *   idnguard explain [--mode=M] [--conf FILE] [--format=F] [NAME...]  why check --conf says so
 *   idnguard skeleton [--mode=M] [--format=F] [NAME...]     UTS #39 skeleton of each label
 *   idnguard restriction [--mode=M] [--format=F] [NAME...]  UTS #39 restriction level
 *   idnguard lint-zone [...] [FILE...]         a zone's names judged (lint.c)
 *   idnguard check-conf [--user=NAME] [FILE]
 *   idnguard stats FILE
 *   idnguard tap (-u SOCKET | -r FILE) [...]  dnstap in, query-log lines out (tap.c)
 *   idnguard top [--conf FILE] [--stats FILE]... [--log FILE]  a live view (top.c)
 *
 * Options may come anywhere among the operands, until "--"; every argument
 * before it that begins with '-' is an option, and one the command does not
 * know is a usage error (so "-m" or "-h" is never taken for a name).  Each
 * command's --help prints its own usage.
 *
 * Without operands each command reads standard input, one item a line, and
 * writes exactly one line per input line (explain: a few lines per name).
 * Exit status: 0 when every item succeeded, 1 when any failed, 2 on a usage
 * error.  check-conf reads no standard input; it exits 0 when FILE is
 * valid, 1 when not.  check --conf judges with the policy of a settings
 * file (check_policy), and explain says why (cmd_explain): 1 when the
 * module would reject any name, 2 when the file does not load.
 *
 * This file holds the commands' table, their usage and options (opts.h),
 * check-conf and stats; the per-item commands are in items.c and
 * explain.c, their output in out.c (items.h).
 */
#include "items.h"
#include "idng_conf.h"
#include "idng_log.h"
#include "idng_lookalike.h"
#include "idnguard.h"
#include "lint.h"
#include "opts.h"
#include "tap.h"
#include "top.h"

#include <stdio.h>
#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

/* check-conf [FILE]: validates one file and prints the effective settings. */
/*
 * `idnguard stats FILE`: the module's Prometheus stats file, for a person:
 * client answers by verdict and action, one column per answer path, then
 * the other counters; or the tap's file, its lines by verdict and action.
 * The reader is idng_statsfile_read (top.c).
 */
static int stats_file(const char *path)
{
    static struct idng_statsfile s;
    size_t i;
    int p, rc = idng_statsfile_read(path, &s);

    if (rc != 0) {
        fprintf(stderr, IDNG_CLI_ERR "%s: %s\n", "stats", path,
                rc == -2 ? "no idnguard counters in it" : strerror(errno));
        return 1;
    }
    if (s.tap) {
        printf("idnguard tap's lines, by verdict and action:\n");
        printf("  %-16s %-10s %10s\n", "verdict", "action", "total");
        for (i = 0; i < s.nrows; i++)
            printf("  %-16s %-10s %10llu\n", s.rows[i].cls, s.rows[i].action, s.rows[i].n);
    } else {
        printf("client answers, by verdict and action, per answer path:\n");
        printf("  %-16s %-10s", "verdict", "action");
        for (p = 0; p < 5; p++)
            printf(" %10s", idng_statsfile_paths[p]);
        printf(" %10s\n", "total");
        for (i = 0; i < s.nrows; i++) {
            printf("  %-16s %-10s", s.rows[i].cls, s.rows[i].action);
            for (p = 0; p < 5; p++)
                printf(" %10llu", s.rows[i].path[p]);
            printf(" %10llu\n", s.rows[i].n);
        }
    }
    printf("other counters:\n");
    for (i = 0; i < s.nothers; i++)
        printf("  %-22s %llu\n", s.others[i].name, s.others[i].n);
    return 0;
}

static int check_conf_file(const char *path, const char *user)
{
    struct idng_conf conf;
    static char err[16384];
    int rc;

    idng_conf_init(&conf);
    if (idng_conf_check_file(&conf, path, IDNG_CONF_F_CHECK_PATHS | IDNG_CONF_F_ORIGINS, user, err,
                             sizeof err)
        != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    if (err[0])
        fprintf(stderr, "%s\n", err); /* warnings */
    rc = idng_conf_write_origins(&conf, stdout);
    idng_conf_free(&conf);
    return rc != 0 ? 2 : 0;
}

/*
 * check --conf FILE: the settings file loaded as the module loads it, its
 * policy (the mode of --mode, when given) for check_policy.  A file that
 * does not load: its errors as check-conf prints them.
 */
static int load_policy(struct idng_conf *conf, struct opts *o)
{
    static char err[16384];

    idng_conf_init(conf);
    if (idng_conf_load_flags(conf, o->conf, IDNG_CONF_F_ORIGINS, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    if (err[0])
        fprintf(stderr, "%s\n", err); /* warnings */
    if (o->mode_set)
        conf->policy.mode = o->mode;
    o->policy = &conf->policy;
    o->settings = conf;
    return 0;
}
/* Which options a command takes. */
enum {
    O_MODE = 1u << 0,
    O_STRICT = 1u << 1,
    O_CASE = 1u << 2,
    O_FILE = 1u << 3,
    O_USER = 1u << 4,
    O_FORMAT = 1u << 5,
    O_UTS46 = 1u << 6, /* the UTS #46 processing flags and --profile */
    O_CONF = 1u << 7,
    O_ALL = ~0u
};

enum opt_id {
    OPT_HELP,
    OPT_MODE,
    OPT_STRICT,
    OPT_CASE,
    OPT_FORMAT,
    OPT_USER,
    OPT_PROFILE,
    OPT_CONF, /* its value may also be the next argument, as in lint-zone and tap */
    OPT_SET   /* sets bits */
};

static int apply_option(void *ctx, const struct idng_opt *p, const char *v);

/* An option of the per-item commands and check-conf: values are "--name=V"
 * only (options and operands mix), but --conf's may be the next argument. */
#define ITEM_OPT(name_, val_, arg_, id_, bits_, cmds_, help_)                                      \
    {                                                                                              \
        .name = name_, .val = val_, .arg = arg_, .fn = apply_option, .id = id_, .bits = bits_,     \
        .cmds = cmds_, .help = help_                                                               \
    }
#define ITEM_FLAG(name_, bits_, help_)                                                             \
    ITEM_OPT(name_, IDNG_OPT_FLAG, NULL, OPT_SET, bits_, O_UTS46, help_)

/* Every option of the per-item commands and check-conf: what it is called,
 * which commands take it, and its line in the command's --help. */
static const struct idng_opt options[] = {
    ITEM_OPT("--mode", IDNG_OPT_JOINED, "M", OPT_MODE, 0, O_MODE,
             "validation: uts46 (default), idna2008-lookup,\n"
             "                     idna2008-registration (idna2008 is its old name),\n"
             "                     punycode"),
    ITEM_OPT("--strict", IDNG_OPT_FLAG, NULL, OPT_STRICT, 0, O_STRICT,
             "judge plain ASCII labels too (STD3 rules, hyphens, bidi)"),
    ITEM_OPT("--profile", IDNG_OPT_JOINED, "P", OPT_PROFILE, 0, O_UTS46,
             "dns (the default settings), whatwg (URL host parsing:\n"
             "                     --strict --no-check-hyphens --no-std3 --no-dns-length),\n"
             "                     idna2008-registration (--strict, that mode),\n"
             "                     idna2008-lookup (that mode)"),
    ITEM_FLAG("--transitional", IDNG_F_TRANSITIONAL,
              "to-ascii: transitional processing (maps U+00DF to ss,\n"
              "                     U+03C2 to U+03C3, removes U+200C and U+200D)"),
    ITEM_FLAG("--no-check-hyphens", IDNG_F_NO_CHECK_HYPHENS,
              "allow '-' first, last and in positions 3-4\n"
              "                     (CheckHyphens=false)"),
    ITEM_FLAG("--no-std3", IDNG_F_NO_STD3,
              "allow ASCII other than letters, digits and '-'\n"
              "                     (UseSTD3ASCIIRules=false)"),
    ITEM_FLAG("--no-dns-length", IDNG_F_NO_DNS_LENGTH,
              "no label or name length limits, empty labels allowed\n"
              "                     (VerifyDnsLength=false)"),
    ITEM_FLAG("--no-bidi", IDNG_F_NO_BIDI, "skip the bidi rule of RFC 5893 (CheckBidi=false)"),
    ITEM_FLAG("--no-joiners", IDNG_F_NO_JOINERS,
              "skip the context rules of U+200C, U+200D\n"
              "                     (CheckJoiners=false)"),
    ITEM_FLAG("--check-contexto", IDNG_F_CHECK_CONTEXTO,
              "apply RFC 5892's CONTEXTO rules (uts46, idna2008-lookup)"),
    ITEM_OPT("--case", IDNG_OPT_FLAG, NULL, OPT_CASE, 0, O_CASE,
             "encode: lowercase and record case flags (RFC 3492\n"
             "                     appendix A); decode: apply them"),
    ITEM_OPT("--conf", IDNG_OPT_NEXT_NODASH, "FILE", OPT_CONF, 0, O_CONF,
             "judge as the module does with this settings file\n"
             "                     (idnguard.conf(5)): see below"),
    ITEM_OPT("--format", IDNG_OPT_JOINED, "F", OPT_FORMAT, 0, O_FORMAT,
             "text (default), tsv or json: see below"),
    ITEM_OPT("--user", IDNG_OPT_JOINED, "NAME", OPT_USER, 0, O_USER,
             "check the files as this user"),
    {.name = "--help", .short_name = 'h', .fn = apply_option, .id = OPT_HELP, .cmds = O_ALL,
     .help = "this command's usage"},
};

#define PROFILE_FLAGS                                                                  \
    (IDNG_F_STRICT | IDNG_F_TRANSITIONAL | IDNG_F_NO_CHECK_HYPHENS | IDNG_F_NO_STD3      \
     | IDNG_F_NO_DNS_LENGTH | IDNG_F_NO_BIDI | IDNG_F_NO_JOINERS | IDNG_F_CHECK_CONTEXTO)

/* --profile=P: a mode and flags, replacing those set before. */
static const struct profile {
    const char *name;
    idng_mode mode;
    unsigned flags;
} profiles[] = {
    {"dns", IDNG_MODE_UTS46, 0},
    {"whatwg", IDNG_MODE_UTS46,
     IDNG_F_STRICT | IDNG_F_NO_CHECK_HYPHENS | IDNG_F_NO_STD3 | IDNG_F_NO_DNS_LENGTH},
    {"idna2008-registration", IDNG_MODE_IDNA2008, IDNG_F_STRICT},
    {"idna2008-lookup", IDNG_MODE_IDNA2008_LOOKUP, 0},
};

struct command {
    const char *name;
    command_fn fn;  /* per item; NULL for check-conf and stats */
    unsigned opts;
    const char *operands;
    const char *what;
};


static const struct command cmds[] = {
    {"encode", cmd_encode, O_CASE | O_FORMAT, "[LABEL...]",
     "Punycode-encode UTF-8 labels (no xn-- prefix)"},
    {"decode", cmd_decode, O_CASE | O_FORMAT, "[LABEL...]",
     "decode raw Punycode (no xn-- prefix) to UTF-8"},
    {"to-ascii", cmd_to_ascii, O_MODE | O_STRICT | O_FORMAT | O_UTS46, "[NAME...]",
     "UTS #46 ToASCII: 'B\xc3\xbc" "cher.DE' -> xn--bcher-kva.de"},
    {"to-unicode", cmd_to_unicode, O_MODE | O_STRICT | O_FORMAT | O_UTS46, "[NAME...]",
     "UTS #46 ToUnicode: xn--bcher-kva.de -> b\xc3\xbc" "cher.de"},
    {"check", cmd_check, O_MODE | O_CONF | O_FORMAT, "[NAME...]",
     "judge each name as the resolver module does: 'ok' or an ERROR line;\n"
     "    with --conf FILE, by that settings file's whole policy"},
    {"explain", cmd_explain, O_MODE | O_CONF | O_FORMAT, "[NAME...]",
     "would the resolver module block the name, and why: each label's verdict,\n"
     "    the settings line that decided, the client's answer and the log line\n"
     "    (settings: --conf FILE, else $" IDNG_CONF_ENV " or " IDNG_CONF_DEFAULT_PATH ")"},
    {"skeleton", cmd_skeleton, O_MODE | O_FORMAT, "[NAME...]",
     "UTS #39 confusable skeleton of each label's Unicode form: names that look\n"
     "    alike have one skeleton ('\\046' is a '.' inside a label)"},
    {"restriction", cmd_restriction, O_MODE | O_FORMAT, "[NAME...]",
     "UTS #39 restriction level of the least restrictive label: ascii-only,\n"
     "    single-script, highly-, moderately-, minimally-restrictive or unrestricted\n"
     "    (plain ASCII labels: ascii-only)"},
    {"check-conf", NULL, O_FILE | O_USER, "[FILE]",
     "validate the module's settings file (default: $" IDNG_CONF_ENV " or\n"
     "    " IDNG_CONF_DEFAULT_PATH ") and the files it includes: prints the\n"
     "    effective settings, each value a file set followed by '# FILE:LINE', or\n"
     "    every error as 'FILE:LINE: message' on stderr; also checks that log-file and\n"
     "    stats-file can be written by the user --user=NAME names (as root:\n"
     "    'unbound' when that user exists; else the user running it)"},
    {"stats", NULL, O_FILE, "FILE",
     "the module's stats-file (Prometheus text), as a table: answers by\n"
     "    verdict, action and path (or the tap's tap-stats-file: its lines)"},
};

static const char items_text[] =
    "Options may come before, between or after the items; '--' ends them, and\n"
    "an item that begins with '-' (Punycode can) goes after it.  Any other\n"
    "argument that begins with '-' is an option, and an unknown one is an\n"
    "error; '-' alone is an error too (without items, standard input is read).\n"
    "Without ITEM operands, items are read from standard input, one a line (a\n"
    "'\\r' before the '\\n' is dropped; lines are data, never options), and\n"
    "exactly one line is written per item.\n"
    "--format=text: the answer, or 'ok' for check; a failure is\n"
    "  'ERROR <class>: <label>: <message>'.  Labels and answers are shown\n"
    "  escaped (\\DDD for an octet, \\u{XXXX} for a code point not safe to\n"
    "  show; '\\', the space and controls always), so an answer line holds no\n"
    "  space and never begins like an ERROR line.\n"
    "--format=tsv: 'INPUT<TAB>ok<TAB>ANSWER' or 'INPUT<TAB><class><TAB><label>:\n"
    "  <message>', escaped as in text.\n"
    "--format=json: one object a line, strings exact (RFC 8259 escapes; an octet\n"
    "  that is not UTF-8 becomes \\ufffd):\n"
    "  {\"input\":...,\"status\":\"ok\",\"output\":...} or {\"input\":...,\n"
    "  \"status\":\"error\",\"class\":...,\"label\":...,\"offset\":...,\"message\":...,\n"
    "  \"codepoint\":...}.\n"
    "Exit status: 0 all ok, 1 any failure, 2 usage error.\n";

/* explain: what it writes. */
static const char explain_text_help[] =
    "Each name is judged as check --conf judges it (the same call), by the settings\n"
    "file the module reads: --conf FILE (or --conf=FILE), else $" IDNG_CONF_ENV ", else\n"
    IDNG_CONF_DEFAULT_PATH "; --mode overrides its mode.  Names as operands, or\n"
    "one a line on standard input.\n"
    "--format=text: for each name, lines 'what: ...', a blank line between names:\n"
    "  name:      the name as the module receives it (escaped: \\DDD for an octet that\n"
    "             is not a letter, digit, '-' or '_'), and its Unicode form unless it\n"
    "             is a lookalike, which is never shown in Unicode;\n"
    "  given as:  the text given (not for a lookalike);\n"
    "  label N:   each label's verdict: its class (its action) and message, a raw\n"
    "             label's A-label, the lookalike classes found at it;\n"
    "  verdict:   the name's, as the EDE text says it;\n"
    "  looks like: the protected name, and its 'protect' line or protect-file line;\n"
    "  action:    the action and the setting that decided it: on-<class>, on-invalid,\n"
    "             an allow or deny entry, with FILE:LINE or '(default)';\n"
    "  answer:    what the client gets: REFUSED or NXDOMAIN with the EDE text, no\n"
    "             answer (drop), a CNAME to the A-label name (normalize), or the\n"
    "             resolver's own answer;\n"
    "  log:       the query-log line the module writes (client '-', type A; the\n"
    "             time stamp left out), or none.\n"
    "--format=json: one object a name: input, status (ok or rejected), settings,\n"
    "  name, unicode, action, class, label, message, codepoint, lookalike, like,\n"
    "  like_origin, rule, entry, origin, why, why_origin, rcode, ede, target, log,\n"
    "  labels (each: label, class, message, codepoint, action, normalized,\n"
    "  lookalike); null where absent.\n"
    "Exit status: 0 every name passes (pass, log, normalize), 1 any is rejected or\n"
    "spells no name, 2 a usage error or a settings file that does not load.\n";

/* check --conf: the lines check_policy writes. */
static const char conf_text[] =
    "With --conf FILE (or --conf=FILE), each name is judged as the module judges\n"
    "a client's query for it, by the settings file's whole policy: its mode\n"
    "(--mode overrides it), actions, allow and deny lists, protected names and\n"
    "restriction level.  A name in UTF-8 is judged as its raw labels on the\n"
    "wire are; one in A-labels as those.\n"
    "--format=text: 'ok' when nothing in the policy objects to the name, else\n"
    "  '<ACTION> <verdict>[: <label>][: <message>][: looks like <name>][ (U+XXXX)]\n"
    "  [ lookalike=<classes>]': the action as the settings spell it (pass, log,\n"
    "  normalize), in capitals when the module rejects the name (REFUSE,\n"
    "  NXDOMAIN, DROP); then the verdict (a class, allow or deny), the label,\n"
    "  the message and the protected name it looks like, as the module's EDE\n"
    "  text says them; the lookalike classes found (UTS #39).  Text that spells\n"
    "  no DNS name (an empty label) is an ERROR line, in every format as above.\n"
    "--format=tsv: INPUT, action, verdict, label, message, code point, lookalike\n"
    "  classes, protected name, EDE text (for refuse, nxdomain and drop); an\n"
    "  absent field is empty.\n"
    "--format=json: {\"input\":...,\"status\":\"ok\" or \"rejected\",\"action\":...,\n"
    "  \"class\":...,\"label\":...,\"message\":...,\"codepoint\":...,\"lookalike\":...,\n"
    "  \"like\":...,\"ede\":...}, null where absent.\n"
    "Exit status with --conf: 0 every name passes (pass, log, normalize), 1 any\n"
    "is rejected (refuse, nxdomain, drop) or spells no name, 2 a usage error or a\n"
    "settings file that does not load (its errors as 'FILE:LINE: message').\n";

static void usage(FILE *f)
{
    size_t k;

    fputs("usage: idnguard COMMAND [OPTIONS] [ITEM...]\n\ncommands:\n", f);
    for (k = 0; k < sizeof cmds / sizeof cmds[0]; k++)
        fprintf(f, "  %s %s\n    %s\n", cmds[k].name, cmds[k].operands, cmds[k].what);
    fputs("  lint-zone [OPTIONS] [FILE...]\n"
          "    judge every name of DNS master files as the module would (idnguard\n"
          "    lint-zone --help)\n"
          "  tap (-u SOCKET | -r FILE) [OPTIONS]\n"
          "    a resolver's dnstap as the module's query-log lines (idnguard tap --help)\n"
          "  top [--conf FILE] [--stats FILE]... [--log FILE] [OPTIONS]\n"
          "    a live view: answers and refusals by class and action, their rates, the\n"
          "    names and clients refused most (idnguard top --help)\n"
          "  --version\n"
          "    idnguard's version, its Unicode version and the Unbound the module was\n"
          "    built against\n"
          "\n"
          "Each command's options: idnguard COMMAND --help.\n\n",
          f);
    fputs(items_text, f);
}

static void command_usage(const struct command *c, FILE *f)
{
    size_t k;

    fprintf(f, "usage: idnguard %s [OPTIONS] %s\n  %s\n\noptions:\n", c->name, c->operands,
            c->what);
    for (k = 0; k < sizeof options / sizeof options[0]; k++) {
        const struct idng_opt *p = &options[k];
        char head[40];
        if (!(c->opts & p->cmds))
            continue;
        idng_opt_head(p, head, sizeof head);
        fprintf(f, "  %-18s %s\n", head, p->help);
    }
    if (c->fn == cmd_explain) {
        fputc('\n', f);
        fputs(explain_text_help, f);
        return;
    }
    if (c->fn) {
        fputc('\n', f);
        fputs(items_text, f);
    }
    if (c->opts & O_CONF) {
        fputc('\n', f);
        fputs(conf_text, f);
    }
}

/* What the options of one run of a per-item command fill in. */
struct parsed {
    const struct command *c;
    struct opts *o;
};

/* Applies one option (an idng_opt_fn); returns -1 to go on, or the exit
 * status. */
static int apply_option(void *ctx, const struct idng_opt *p, const char *v)
{
    const struct command *c = ((struct parsed *)ctx)->c;
    struct opts *o = ((struct parsed *)ctx)->o;
    size_t k;

    switch ((enum opt_id)p->id) {
    case OPT_HELP:
        command_usage(c, stdout);
        return fflush(stdout) == 0 ? 0 : 2;
    case OPT_MODE:
        if (idng_mode_lookup(v, strlen(v), &o->mode) != 0) {
            fprintf(stderr,
                    IDNG_CLI_ERR "unknown mode '%s' (uts46, idna2008-lookup, "
                                 "idna2008-registration, idna2008, punycode)\n",
                    c->name, v);
            return 2;
        }
        o->mode_set = 1;
        return -1;
    case OPT_CONF:
        o->conf = v;
        return -1;
    case OPT_PROFILE:
        for (k = 0; k < sizeof profiles / sizeof profiles[0]; k++)
            if (strcmp(profiles[k].name, v) == 0) {
                o->mode = profiles[k].mode;
                o->flags = (o->flags & ~(unsigned)PROFILE_FLAGS) | profiles[k].flags;
                return -1;
            }
        fprintf(stderr,
                IDNG_CLI_ERR "unknown profile '%s' (dns, whatwg, idna2008-registration, "
                             "idna2008-lookup)\n",
                c->name, v);
        return 2;
    case OPT_FORMAT:
        if (strcmp(v, "text") == 0)
            o->format = FMT_TEXT;
        else if (strcmp(v, "tsv") == 0)
            o->format = FMT_TSV;
        else if (strcmp(v, "json") == 0)
            o->format = FMT_JSON;
        else {
            fprintf(stderr, IDNG_CLI_ERR "unknown format '%s' (text, tsv, json)\n", c->name, v);
            return 2;
        }
        return -1;
    case OPT_STRICT:
        o->flags |= IDNG_F_STRICT;
        return -1;
    case OPT_SET:
        o->flags |= p->bits;
        return -1;
    case OPT_CASE:
        o->use_case = 1;
        return -1;
    case OPT_USER:
        if (v[0] == '\0' || !getpwnam(v)) {
            fprintf(stderr, IDNG_CLI_ERR "no user '%s'\n", c->name, v);
            return 2;
        }
        o->user = v;
        return -1;
    }
    return 2;
}

/*
 * Parses the arguments after the command name: the options into o, the
 * operands moved to the front of argv + 2 in order, *nops of them.
 * Every argument before "--" that begins with '-' is an option; after "--"
 * everything is an operand.  Returns -1, or the exit status to return at
 * once (0 for --help, 2 for a usage error).
 */
static int parse_args(int argc, char **argv, const struct command *c, struct opts *o, int *nops)
{
    struct parsed ctx = {c, o};
    const struct idng_optspec spec = {
        .cmd = c->name,
        .opts = options,
        .nopts = sizeof options / sizeof options[0],
        .cmd_bit = c->opts,
        .mixed = 1,
        .operands = 1,
        .lone_dash = "'-' is not an item (without items, standard input is read; an item '-' "
                     "goes after '--')",
        .hint = "; an item that begins with '-' goes after '--'",
        .ctx = &ctx,
    };

    return idng_opts_parse(&spec, argc, argv, nops);
}

int main(int argc, char **argv)
{
    static struct idng_conf conf;
    struct opts o = {IDNG_MODE_UTS46, 0, 0, FMT_TEXT, NULL, NULL, 0, NULL, NULL, NULL};
    const struct command *c = NULL;
    size_t k;
    int i, n, rc, failed = 0;

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
    if (strcmp(argv[1], "top") == 0)
        return idng_top_main(argc, argv);
    for (k = 0; k < sizeof cmds / sizeof cmds[0]; k++)
        if (strcmp(argv[1], cmds[k].name) == 0)
            c = &cmds[k];
    if (!c) {
        fprintf(stderr, "idnguard: unknown command '%s'\n", argv[1]);
        usage(stderr);
        return 2;
    }
    o.cmd = c->name;
    if ((rc = parse_args(argc, argv, c, &o, &n)) >= 0)
        return rc;
    if (c->fn == cmd_explain) {
        if (o.format == FMT_TSV) {
            fprintf(stderr, IDNG_CLI_ERR "--format=tsv is not one of its formats (text, json)\n",
                    c->name);
            return 2;
        }
        /* The module's own file unless told another. */
        if (!o.conf)
            o.conf = idng_conf_path();
    }
    if (o.conf && load_policy(&conf, &o) != 0)
        return 2;
    if (c->opts & O_FILE) {
        if (n > 1) {
            fprintf(stderr, IDNG_CLI_ERR "one FILE at most (extra '%s')\n", c->name, argv[3]);
            return 2;
        }
        if (strcmp(c->name, "stats") == 0) {
            if (n == 0) {
                fprintf(stderr, IDNG_CLI_ERR "which FILE? (the module's stats-file)\n", c->name);
                return 2;
            }
            return stats_file(argv[2]) ? 1 : (fflush(stdout) == 0 ? 0 : 2);
        }
        /* The files are opened by the daemon's user: as root, check for
         * Unbound's usual one unless told another. */
        if (!o.user && geteuid() == 0 && getpwnam("unbound"))
            o.user = "unbound";
        failed = check_conf_file(n > 0 ? argv[2] : idng_conf_path(), o.user);
        if (failed == 1)
            return 1;
    } else if (n == 0) {
        /* A file or pipe gets full buffers (run_stdin flushes before it
         * waits for input); a terminal keeps stdio's line buffering. */
        if (!isatty(STDOUT_FILENO))
            setvbuf(stdout, NULL, _IOFBF, 1 << 16);
        else
            out_per_line(1);
        failed = run_stdin(c->fn, &o);
    } else {
        out_per_line(isatty(STDOUT_FILENO));
        for (i = 0; i < n; i++)
            failed |= c->fn(argv[2 + i], strlen(argv[2 + i]), &o);
    }
    out_drain();
    if (o.policy)
        idng_conf_free(&conf);
    if (failed == 2 || fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, IDNG_CLI_ERR "error writing output\n", c->name);
        return 2;
    }
    return failed ? 1 : 0;
}
