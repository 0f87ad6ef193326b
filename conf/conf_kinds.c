/**
 * \file
 * The kinds of the settings' plain values: mode, actions, yes/no,
 * log-format, paths, seconds, restriction-level, scripts, protect-suffixes;
 * how each is parsed, written back, described and compared.
 */
#define _DEFAULT_SOURCE /* open_memstream */
#include "idng_conf_internal.h"

#include <stdlib.h>
#include <string.h>

static const char *const log_format_names[] = {
#define IDNG_X_FNAME(sym, name) name,
    IDNG_LOGFMT_LIST(IDNG_X_FNAME)
#undef IDNG_X_FNAME
};
#define N_LOG_FORMATS (sizeof log_format_names / sizeof log_format_names[0])

/* -- comparing two settings (idng_conf_diff) -- */

/* The value the key's writer gives c, as it stands after "KEY: " on its
 * line ("(none)" from a comment line), malloc'd; NULL when there is none
 * (out of memory, or no text form). */
static char *value_text(const struct idng_conf *c, const struct key *k)
{
    char *text = NULL, *v;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int rc;

    if (f == NULL)
        return NULL;
    rc = k->kind->put(c, k, f);
    if (fclose(f) != 0 || rc != 0 || (v = strstr(text, ": ")) == NULL) {
        free(text);
        return NULL;
    }
    memmove(text, v + 2, strlen(v + 2) + 1);
    text[strcspn(text, "\n")] = '\0';
    return text;
}

/* A key of one value: "KEY OLD -> NEW". */
int conf_diff_value(const struct idng_conf *a, const struct idng_conf *b, const struct key *k,
                      FILE *f)
{
    char *va = value_text(a, k), *vb = value_text(b, k);
    int r = -1;

    if (va != NULL && vb != NULL && strcmp(va, vb) == 0)
        r = 0;
    else if (va != NULL && vb != NULL && fprintf(f, "%s %s -> %s", k->name, va, vb) >= 0)
        r = 1;
    free(va);
    free(vb);
    return r;
}

/* " +ADDED -REMOVED (now COUNT)", a zero count of added or removed left out. */
int conf_put_tally(FILE *f, size_t added, size_t removed, size_t now)
{
    if (added > 0 && fprintf(f, " +%zu", added) < 0)
        return -1;
    if (removed > 0 && fprintf(f, " -%zu", removed) < 0)
        return -1;
    return fprintf(f, " (now %zu)", now) < 0 ? -1 : 1;
}

static int bad_value(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    char e[ECHO_CAP], x[160];
    k->kind->expect(k, x, sizeof x);
    return conf_fail(p, "bad value '%s' for '%s' (expected %s)", conf_echo(e, v, n), k->name, x);
}

/* "a, b or c" from a table of names, for "expected ..." texts. */
static void join_names(char *out, size_t cap, const char *const *names, size_t n)
{
    size_t i, o = 0;

    out[0] = '\0';
    for (i = 0; i < n && o < cap; i++) {
        const char *sep = i == 0 ? "" : i + 1 == n ? " or " : ", ";
        int w = snprintf(out + o, cap - o, "%s%s", sep, names[i]);
        if (w < 0)
            return;
        o += (size_t)w;
    }
}

/* -- mode -- */

static int set_mode(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    if (idng_mode_lookup(v, n, FIELD(&p->c, k, idng_mode)) != 0)
        return bad_value(p, k, v, n);
    return 0;
}

static int put_mode(const struct idng_conf *c, const struct key *k, FILE *f)
{
    const char *s = idng_mode_name(*CFIELD(c, k, idng_mode));
    return s == NULL ? -1 : fprintf(f, "    %s: %s\n", k->name, s) < 0 ? -1 : 0;
}

/* The modes from the loosest to the strictest, as the example file lists
 * them; registration by the name the documentation uses, with its old one. */
static void expect_mode(const struct key *k, char *out, size_t cap)
{
    static const idng_mode order[] = {IDNG_MODE_PUNYCODE, IDNG_MODE_IDNA2008_LOOKUP,
                                      IDNG_MODE_IDNA2008, IDNG_MODE_UTS46};
    const char *names[sizeof order / sizeof order[0]];
    size_t i;

    (void)k;
    _Static_assert(sizeof order / sizeof order[0] == IDNG_MODE_MAX + 1, "every mode listed");
    for (i = 0; i < sizeof order / sizeof order[0]; i++)
        names[i] = order[i] == IDNG_MODE_IDNA2008 ? "idna2008-registration (or idna2008)"
                                                  : idng_mode_name(order[i]);
    join_names(out, cap, names, sizeof order / sizeof order[0]);
}

const struct kind conf_kind_mode = {set_mode, put_mode, expect_mode, conf_diff_value};

/* -- actions: on-invalid and on-<class> -- */

static int normalize_ok(const struct key *k)
{
    return idng_policy_action_allowed(k->arg == ON_INVALID ? -1 : k->arg, IDNG_ACT_NORMALIZE);
}

static int set_action(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    enum idng_action a;
    char x[160];

    if (idng_action_lookup(v, n, &a) != 0)
        return bad_value(p, k, v, n);
    if (a == IDNG_ACT_NORMALIZE && !normalize_ok(k)) {
        k->kind->expect(k, x, sizeof x);
        return conf_fail(
            p, "'normalize' is allowed only for 'on-raw-8bit', not for '%s' (expected %s)", k->name,
            x);
    }
    if (k->arg == ON_INVALID) {
        p->c.policy.on_invalid = a;
    } else {
        p->c.policy.action[k->arg] = a;
        p->explicit_action[k->arg] = 1;
    }
    return 0;
}

static int put_action(const struct idng_conf *c, const struct key *k, FILE *f)
{
    enum idng_action a = k->arg == ON_INVALID ? c->policy.on_invalid : c->policy.action[k->arg];
    const char *s = idng_action_name(a);

    if (s == NULL || (a == IDNG_ACT_NORMALIZE && !normalize_ok(k)))
        return -1;
    return fprintf(f, "    %s: %s\n", k->name, s) < 0 ? -1 : 0;
}

static void expect_action(const struct key *k, char *out, size_t cap)
{
    const char *names[IDNG_ACTION_COUNT];
    unsigned i;

    for (i = 0; i < IDNG_ACTION_COUNT; i++)
        names[i] = idng_action_name((enum idng_action)i);
    join_names(out, cap, names, IDNG_ACTION_COUNT - !normalize_ok(k));
}

const struct kind conf_kind_action = {set_action, put_action, expect_action, conf_diff_value};

/* -- yes/no -- */

static int set_bool(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    if (n == 3 && memcmp(v, "yes", 3) == 0)
        *FIELD(&p->c, k, int) = 1;
    else if (n == 2 && memcmp(v, "no", 2) == 0)
        *FIELD(&p->c, k, int) = 0;
    else
        return bad_value(p, k, v, n);
    return 0;
}

static int put_bool(const struct idng_conf *c, const struct key *k, FILE *f)
{
    return fprintf(f, "    %s: %s\n", k->name, *CFIELD(c, k, int) ? "yes" : "no") < 0 ? -1 : 0;
}

static void expect_bool(const struct key *k, char *out, size_t cap)
{
    (void)k;
    snprintf(out, cap, "yes or no");
}

const struct kind conf_kind_bool = {set_bool, put_bool, expect_bool, conf_diff_value};

/* -- log-format -- */

static int set_log_format(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    size_t i;
    for (i = 0; i < N_LOG_FORMATS; i++)
        if (strlen(log_format_names[i]) == n && memcmp(log_format_names[i], v, n) == 0) {
            *FIELD(&p->c, k, enum idng_logfmt) = (enum idng_logfmt)i;
            return 0;
        }
    return bad_value(p, k, v, n);
}

static int put_log_format(const struct idng_conf *c, const struct key *k, FILE *f)
{
    unsigned i = (unsigned)*CFIELD(c, k, enum idng_logfmt);
    if (i >= N_LOG_FORMATS)
        return -1;
    return fprintf(f, "    %s: %s\n", k->name, log_format_names[i]) < 0 ? -1 : 0;
}

static void expect_log_format(const struct key *k, char *out, size_t cap)
{
    (void)k;
    join_names(out, cap, log_format_names, N_LOG_FORMATS);
}

const struct kind conf_kind_log_format = {set_log_format, put_log_format, expect_log_format,
                                            conf_diff_value};

/* -- paths -- */

/* Why a path is refused, or NULL.  Relative paths would depend on the
 * daemon's working directory, which chroot and service managers change. */
const char *conf_path_problem(const char *v, size_t n)
{
    size_t i;
    if (v[0] != '/')
        return "is not an absolute path";
    if (v[n - 1] == '/')
        return "names a directory, not a file";
    for (i = 0; i < n; i++)
        if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f)
            return "holds a control character";
    return NULL;
}

static int set_path(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    char **field = FIELD(&p->c, k, char *), e[ECHO_CAP], x[160];
    const char *why;

    free(*field);
    *field = NULL;
    if (n == 0)
        return 0;
    why = conf_path_problem(v, n);
    if (why != NULL) {
        k->kind->expect(k, x, sizeof x);
        return conf_fail(p, "%s '%s' %s (expected %s)", k->name, conf_echo(e, v, n), why, x);
    }
    *field = malloc(n + 1);
    if (*field == NULL)
        return conf_fail(p, "out of memory");
    memcpy(*field, v, n);
    (*field)[n] = '\0';
    /* IDNG_CONF_F_CHECK_PATHS: checked once every file is read (conf_check_path),
     * the value a later file may set instead. */
    return 0;
}

int conf_put_path(const struct idng_conf *c, const struct key *k, FILE *f)
{
    const char *s = *CFIELD(c, k, char *);

    if (fprintf(f, "    %s: \"", k->name) < 0)
        return -1;
    if (s != NULL && s[0] != '\0') {
        if (conf_path_problem(s, strlen(s)) != NULL)
            return -1;
        for (; *s != '\0'; s++) {
            if ((*s == '"' || *s == '\\') && putc('\\', f) == EOF)
                return -1;
            if (putc(*s, f) == EOF)
                return -1;
        }
    }
    return fputs("\"\n", f) == EOF ? -1 : 0;
}

static void expect_path(const struct key *k, char *out, size_t cap)
{
    snprintf(out, cap, "an absolute path, or \"\" for %s",
             strcmp(k->name, "log-file") == 0 ? "Unbound's log" : "none");
}

const struct kind conf_kind_path = {set_path, conf_put_path, expect_path, conf_diff_value};

/* -- seconds -- */

static int set_seconds(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    unsigned long val = 0;
    size_t i;
    char e[ECHO_CAP], x[160];

    for (i = 0; i < n; i++) {
        if (v[i] < '0' || v[i] > '9')
            return bad_value(p, k, v, n);
        if (val <= IDNG_CONF_STATS_MAX) /* stop growing once out of range */
            val = val * 10 + (unsigned long)(v[i] - '0');
    }
    if (val > IDNG_CONF_STATS_MAX) {
        k->kind->expect(k, x, sizeof x);
        return conf_fail(p, "%s %s is out of range (expected %s)", k->name, conf_echo(e, v, n), x);
    }
    *FIELD(&p->c, k, unsigned) = (unsigned)val;
    return 0;
}

static int put_seconds(const struct idng_conf *c, const struct key *k, FILE *f)
{
    unsigned val = *CFIELD(c, k, unsigned);
    if (val > IDNG_CONF_STATS_MAX)
        return -1;
    return fprintf(f, "    %s: %u\n", k->name, val) < 0 ? -1 : 0;
}

static void expect_seconds(const struct key *k, char *out, size_t cap)
{
    (void)k;
    snprintf(out, cap, "seconds from 0 to %u; 0 = only at shutdown", IDNG_CONF_STATS_MAX);
}

const struct kind conf_kind_seconds = {set_seconds, put_seconds, expect_seconds, conf_diff_value};

/* -- restriction-level -- */

static int set_restriction(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    if (idng_restriction_lookup(v, n, FIELD(&p->c, k, idng_restriction)) != 0)
        return bad_value(p, k, v, n);
    return 0;
}

static int put_restriction(const struct idng_conf *c, const struct key *k, FILE *f)
{
    const char *s = idng_restriction_name(*CFIELD(c, k, idng_restriction));
    return s == NULL ? -1 : fprintf(f, "    %s: %s\n", k->name, s) < 0 ? -1 : 0;
}

static void expect_restriction(const struct key *k, char *out, size_t cap)
{
    const char *names[IDNG_RL_COUNT];
    int l;

    (void)k;
    for (l = 0; l < IDNG_RL_COUNT; l++)
        names[l] = idng_restriction_name((idng_restriction)l);
    join_names(out, cap, names, IDNG_RL_COUNT);
}

const struct kind conf_kind_restriction = {set_restriction, put_restriction,
                                             expect_restriction, conf_diff_value};

/* -- scripts: "SCRIPT[,SCRIPT...]", by their IDNG_SCRIPT_LIST names -- */

/* Parses the scripts of v[0..n) into *scripts (or'ed in), "common" too
 * (IDNG_SCRIPT_COMMON) when common_ok; a bad name is reported. */
static int scripts_value(struct pstate *p, const struct key *k, const char *v, size_t n,
                         int common_ok, unsigned *scripts)
{
    size_t i = 0;
    char e[ECHO_CAP], x[320];

    while (i < n) {
        size_t j = i;
        int s;
        while (j < n && v[j] != ',')
            j++;
        s = idng_script_lookup(v + i, j - i);
        if (s >= 0)
            *scripts |= 1u << s;
        else if (common_ok && j - i == 6 && memcmp(v + i, "common", 6) == 0)
            *scripts |= IDNG_SCRIPT_COMMON;
        else {
            k->kind->expect(k, x, sizeof x);
            return conf_fail(p, "bad script '%s' for '%s': expected %s", conf_echo(e, v + i, j - i),
                        k->name, x);
        }
        i = j < n ? j + 1 : j;
    }
    return 0;
}

/* Writes the scripts' names, comma-separated, in the list's order, common
 * last; -1 when writing failed. */
static int put_scripts(unsigned scripts, FILE *f)
{
    const char *sep = "";
    unsigned b;

    for (b = 0; b < IDNG_SCRIPT_COUNT; b++)
        if (scripts & 1u << b) {
            if (fprintf(f, "%s%s", sep, idng_script_name(b)) < 0)
                return -1;
            sep = ",";
        }
    if (scripts & IDNG_SCRIPT_COMMON && fprintf(f, "%scommon", sep) < 0)
        return -1;
    return 0;
}

/* The script names, for messages: " latin cyrillic ... telugu". */
static size_t script_names(char *out, size_t cap)
{
    size_t n = 0;
    unsigned b;

    for (b = 0; b < IDNG_SCRIPT_COUNT && n < cap; b++)
        n += (size_t)snprintf(out + n, cap - n, " %s", idng_script_name(b));
    return n < cap ? n : cap;
}

/* -- tld-scripts: the scripts a top-level domain expects (whole-script) -- */

/* "TLD SCRIPT[,SCRIPT...]" or "TLD none": the TLD in Unicode or as an
 * A-label, the scripts by their IDNG_SCRIPT_LIST names. */
static int set_tld_scripts(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    uint8_t wire[WIRE_MAX];
    size_t wlen = 0, t = 0, i;
    unsigned scripts = 0;
    char e[ECHO_CAP], x[320];
    int r;

    while (t < n && v[t] != ' ' && v[t] != '\t')
        t++;
    for (i = t; i < n && (v[i] == ' ' || v[i] == '\t');)
        i++;
    if (t == 0 || i == n) {
        k->kind->expect(k, x, sizeof x);
        return conf_fail(p, "bad value '%s' for '%s': expected %s", conf_echo(e, v, n), k->name, x);
    }
    if (conf_name_to_wire(p, k, v, t, wire, &wlen) != 0)
        return -1;
    if (wlen < 2 || wire[0] + 2u != wlen)
        return conf_fail(p, "bad top-level domain '%s' for '%s': give one label",
                         conf_echo(e, v, t), k->name);
    if (n - i == 4 && memcmp(v + i, "none", 4) == 0)
        i = n;
    if (i < n && scripts_value(p, k, v + i, n - i, 0, &scripts) != 0)
        return -1;
    r = idng_protect_tld(&p->c.policy.protect, (const char *)wire + 1, wire[0], scripts);
    if (r == -1)
        return conf_fail(p, "out of memory");
    if (r != 0)
        return conf_fail(p, "bad top-level domain '%s' for '%s'", conf_echo(e, v, t), k->name);
    if (!(p->flags & IDNG_CONF_F_ORIGINS))
        return 0;
    /* The TLD's entry, new or replaced (the label is lowercase either way). */
    for (i = 0; i < p->c.policy.protect.ntld; i++)
        if (p->c.policy.protect.tld[i].len == wire[0]
            && memcmp(p->c.policy.protect.tld[i].label, wire + 1, wire[0]) == 0)
            break;
    return conf_note_entry(p, L_TLD, i);
}

static int put_tld_scripts(const struct idng_conf *c, const struct key *k, FILE *f)
{
    const struct idng_protect *s = &c->policy.protect;
    size_t i;

    if (s->ntld == 0)
        return fprintf(f, "    # %s: (the built-in table)\n", k->name) < 0 ? -1 : 0;
    for (i = 0; i < s->ntld; i++) {
        if (fprintf(f, "    %s: %.*s ", k->name, (int)s->tld[i].len,
                    (const char *)s->tld[i].label)
            < 0)
            return -1;
        if (s->tld[i].scripts == 0 ? fputs("none", f) == EOF
                                   : put_scripts(s->tld[i].scripts, f) != 0)
            return -1;
        if (putc('\n', f) == EOF)
            return -1;
    }
    return 0;
}

static void expect_tld_scripts(const struct key *k, char *out, size_t cap)
{
    size_t n;

    (void)k;
    n = (size_t)snprintf(out, cap, "'TLD SCRIPT[,SCRIPT...]' or 'TLD none', a script one of");
    if (n < cap)
        script_names(out + n, cap - n);
}

/* How many entries of s are no entries of o (the same TLD with the same
 * scripts): the entries added going from o to s. */
static size_t tlds_only_in(const struct idng_protect *s, const struct idng_protect *o)
{
    size_t i, j, n = 0;

    for (i = 0; i < s->ntld; i++) {
        for (j = 0; j < o->ntld; j++)
            if (s->tld[i].len == o->tld[j].len && s->tld[i].scripts == o->tld[j].scripts
                && memcmp(s->tld[i].label, o->tld[j].label, s->tld[i].len) == 0)
                break;
        n += j == o->ntld;
    }
    return n;
}

static int diff_tld_scripts(const struct idng_conf *a, const struct idng_conf *b,
                            const struct key *k, FILE *f)
{
    size_t added = tlds_only_in(&b->policy.protect, &a->policy.protect);
    size_t removed = tlds_only_in(&a->policy.protect, &b->policy.protect);

    if (added == 0 && removed == 0)
        return 0;
    return fputs(k->name, f) == EOF ? -1
                                    : conf_put_tally(f, added, removed, b->policy.protect.ntld);
}

const struct kind conf_kind_tld_scripts = {set_tld_scripts, put_tld_scripts, expect_tld_scripts,
                                             diff_tld_scripts};

/* -- idn-scripts: the scripts an IDN label may be written in (on-idn) -- */

static int set_idn_scripts(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    return scripts_value(p, k, v, n, 1, &p->c.policy.idn_scripts);
}

static int put_idn_scripts(const struct idng_conf *c, const struct key *k, FILE *f)
{
    if (c->policy.idn_scripts == 0)
        return fprintf(f, "    # %s: (none)\n", k->name) < 0 ? -1 : 0;
    if (c->policy.idn_scripts & ~(IDNG_SCRIPTS_ALL | IDNG_SCRIPT_COMMON))
        return -1;
    if (fprintf(f, "    %s: ", k->name) < 0 || put_scripts(c->policy.idn_scripts, f) != 0
        || putc('\n', f) == EOF)
        return -1;
    return 0;
}

static void expect_idn_scripts(const struct key *k, char *out, size_t cap)
{
    size_t n;

    (void)k;
    n = (size_t)snprintf(out, cap, "SCRIPT[,SCRIPT...], a script one of");
    if (n < cap)
        n += script_names(out + n, cap - n);
    if (n < cap)
        snprintf(out + n, cap - n, ", or common for labels of no script");
}

const struct kind conf_kind_idn_scripts = {set_idn_scripts, put_idn_scripts,
                                             expect_idn_scripts, conf_diff_value};

/* -- protect-suffixes: listed (the protected names as written) or any -- */

static int set_suffixes(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    if (n == 3 && memcmp(v, "any", 3) == 0)
        p->c.policy.protect.suffixes = 1;
    else if (n == 6 && memcmp(v, "listed", 6) == 0)
        p->c.policy.protect.suffixes = 0;
    else
        return bad_value(p, k, v, n);
    return 0;
}

static int put_suffixes(const struct idng_conf *c, const struct key *k, FILE *f)
{
    return fprintf(f, "    %s: %s\n", k->name, c->policy.protect.suffixes ? "any" : "listed") < 0
               ? -1
               : 0;
}

static void expect_suffixes(const struct key *k, char *out, size_t cap)
{
    (void)k;
    snprintf(out, cap, "listed or any");
}

const struct kind conf_kind_suffixes = {set_suffixes, put_suffixes, expect_suffixes,
                                        conf_diff_value};
