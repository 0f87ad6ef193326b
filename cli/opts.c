/**
 * \file
 * The option parser every `idnguard` command uses (opts.h).
 */
#include "opts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void idng_opt_head(const struct idng_opt *opt, char *head, size_t cap)
{
    char name[3] = {'-', opt->short_name, '\0'};

    snprintf(head, cap, "%s%s%s", opt->name ? opt->name : name,
             opt->val == IDNG_OPT_FLAG     ? ""
             : opt->val == IDNG_OPT_JOINED ? "="
                                           : " ",
             opt->val == IDNG_OPT_FLAG || !opt->arg ? "" : opt->arg);
}

int idng_opt_uint(const char *cmd, const char *opt, const char *value, unsigned min, unsigned max,
                  unsigned *out)
{
    char *end;
    unsigned long n;

    errno = 0;
    n = strtoul(value, &end, 10);
    if (!value[0] || *end || errno || value[0] == '-' || n < min || n > max) {
        fprintf(stderr, IDNG_CLI_ERR "%s: '%s' is not a number from %u to %u\n", cmd, opt, value,
                min, max);
        return -1;
    }
    *out = (unsigned)n;
    return 0;
}

/* The option of spec that argument a names (its "=VALUE" left out), or NULL. */
static const struct idng_opt *find_opt(const struct idng_optspec *spec, const char *a)
{
    size_t k, n;

    for (k = 0; k < spec->nopts; k++) {
        const struct idng_opt *p = &spec->opts[k];
        if (p->cmds && !(p->cmds & spec->cmd_bit))
            continue;
        if (a[1] != '-') {
            if (p->short_name && a[1] == p->short_name && a[2] == '\0')
                return p;
            continue;
        }
        if (!p->name)
            continue;
        n = strlen(p->name);
        if (strncmp(a, p->name, n) == 0
            && (a[n] == '\0' || (a[n] == '=' && p->val != IDNG_OPT_FLAG)))
            return p;
    }
    return NULL;
}

/* Applies the option at argv[*i] (moving *i past a value taken from the
 * next argument); returns -1 to go on, or the exit status. */
static int take_opt(const struct idng_optspec *spec, const struct idng_opt *p, int argc,
                    char **argv, int *i)
{
    const char *a = argv[*i], *eq = a[1] == '-' ? strchr(a, '=') : NULL, *v = NULL;
    char head[64];

    if (eq) {
        v = eq + 1;
    } else if (p->val == IDNG_OPT_NEXT && *i + 1 < argc) {
        v = argv[++*i];
    } else if (p->val == IDNG_OPT_NEXT_NODASH && *i + 1 < argc && argv[*i + 1][0] != '-') {
        v = argv[++*i];
    }
    /* A value that may be the next argument names something (a file, a
     * number): an empty one is none. */
    if (p->val != IDNG_OPT_FLAG && (v == NULL || (v[0] == '\0' && p->val != IDNG_OPT_JOINED))) {
        idng_opt_head(p, head, sizeof head);
        fprintf(stderr, IDNG_CLI_ERR "option '%s' needs a value: %s\n", spec->cmd, a, head);
        return 2;
    }
    if (p->store)
        *p->store = v ? v : a;
    return p->fn ? p->fn(spec->ctx, p, v) : -1;
}

int idng_opts_parse(const struct idng_optspec *spec, int argc, char **argv, int *nops)
{
    int i, n = 0, rc, options = 1;

    for (i = 2; i < argc; i++) {
        const char *a = argv[i];
        const struct idng_opt *p;
        if (options && strcmp(a, "--") == 0) {
            options = 0;
            continue;
        }
        if (options && a[0] == '-' && a[1] == '\0' && spec->lone_dash) {
            fprintf(stderr, IDNG_CLI_ERR "%s\n", spec->cmd, spec->lone_dash);
            return 2;
        }
        if (!options || a[0] != '-' || a[1] == '\0') {
            if (!spec->operands) {
                fprintf(stderr,
                        IDNG_CLI_ERR "'%s' is not one of its options (idnguard %s --help)\n",
                        spec->cmd, a, spec->cmd);
                return 2;
            }
            argv[2 + n++] = argv[i];
            options = options && spec->mixed;
            continue;
        }
        if (spec->usage && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)) {
            spec->usage(stdout);
            return fflush(stdout) == 0 ? 0 : 2;
        }
        if ((p = find_opt(spec, a)) == NULL) {
            fprintf(stderr, IDNG_CLI_ERR "unknown option '%s' (idnguard %s --help%s)\n", spec->cmd,
                    a, spec->cmd, spec->hint ? spec->hint : "");
            return 2;
        }
        if ((rc = take_opt(spec, p, argc, argv, &i)) >= 0)
            return rc;
    }
    *nops = n;
    return -1;
}
