/**
 * \file
 * The option parser of every `idnguard` command: each command describes its
 * options in a table (struct idng_opt) and hands it, with how the command
 * takes its operands (struct idng_optspec), to idng_opts_parse.
 *
 * Spellings: a long option is "--name"; one with a value also takes
 * "--name=VALUE", and, unless it is IDNG_OPT_JOINED, "--name VALUE".  A
 * short option is "-x", its value the next argument.  "--" ends the
 * options.  Errors are written on stderr as "idnguard COMMAND: ...", the
 * one prefix of every command's messages (IDNG_CLI_ERR).
 */
#ifndef IDNG_CLI_OPTS_H
#define IDNG_CLI_OPTS_H

#include <stddef.h>
#include <stdio.h>

/** How an option takes its value. */
enum idng_optval {
    IDNG_OPT_FLAG, /**< no value; "--name=x" is an unknown option */
    /** "--name=VALUE" only: where options and operands mix, "--mode uts46"
     *  would eat an operand */
    IDNG_OPT_JOINED,
    /** also the next argument, whatever it is ("-r -"); an empty value is none */
    IDNG_OPT_NEXT,
    /** also the next argument, unless it begins with '-' (then the option
     *  has no value); an empty value is none */
    IDNG_OPT_NEXT_NODASH
};

struct idng_opt;

/** What an option does when given: value is NULL for a flag.
 *  @return -1 to go on, or the exit status to return at once (0 after
 *  --help, 2 after an error written to stderr). */
typedef int (*idng_opt_fn)(void *ctx, const struct idng_opt *opt, const char *value);

/** One option of a command. */
struct idng_opt {
    const char *name;     /**< "--conf", with its dashes; NULL: a short option only */
    char short_name;      /**< 'u' for "-u"; 0: none */
    enum idng_optval val; /**< whether and how it takes a value */
    const char *arg;      /**< the value's name in messages and usage ("FILE") */
    const char **store;   /**< the value is stored here (a flag: its name); or NULL */
    idng_opt_fn fn;       /**< called after store, when not NULL */
    int id;               /**< for fn: which option this is */
    unsigned bits;        /**< for fn: e.g. the flag an option sets */
    /** in a table several commands share: those that take it
     *  (idng_optspec.cmd_bit); 0: every one */
    unsigned cmds;
    const char *help; /**< its line in the command's --help, or NULL */
};

/** How one command takes its arguments. */
struct idng_optspec {
    const char *cmd; /**< "tap": messages say "idnguard tap: ..." */
    const struct idng_opt *opts;
    size_t nopts;
    unsigned cmd_bit; /**< which of a shared table's options apply (idng_opt.cmds) */
    /** 1: options may follow operands (until "--"); 0: the first operand
     *  ends the options */
    int mixed;
    int operands; /**< 0: the command takes none; one is an error */
    /** NULL: "-" is an operand; else it is an error, and this says why */
    const char *lone_dash;
    const char *hint; /**< added to the unknown-option message, or NULL */
    void *ctx;        /**< handed to each idng_opt.fn */
    /** When not NULL, "--help" and "-h" (not in opts) write the usage with
     *  it on stdout and end the parse with status 0. */
    void (*usage)(FILE *f);
};

/** Prefix of every error message of command cmd. */
#define IDNG_CLI_ERR "idnguard %s: "

/**
 * Parses argv[2..argc) (argv[1] is the command) by spec: applies each
 * option in order and moves the operands, in order, to argv[2..2+*nops).
 * @return -1 to go on, or the exit status to return at once: 0 when an
 *   option said so (--help), 2 on a usage error, already written to stderr.
 */
int idng_opts_parse(const struct idng_optspec *spec, int argc, char **argv, int *nops);

/** Writes opt as usage and messages spell it with its value into head
 *  ("--mode=M", "--conf FILE", "-u SOCKET"), cap octets at most. */
void idng_opt_head(const struct idng_opt *opt, char *head, size_t cap);

/** Parses value as a whole number from min to max for option opt of
 *  command cmd.  @return 0, or -1 after the error on stderr. */
int idng_opt_uint(const char *cmd, const char *opt, const char *value, unsigned min, unsigned max,
                  unsigned *out);

#endif /* IDNG_CLI_OPTS_H */
