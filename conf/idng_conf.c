/**
 * \file
 * idnguard configuration: schema, parser, writer and name sets (see
 * idng_conf.h for the syntax and conf/idnguard.conf.example for the keys).
 *
 * The schema is one table, `keys`, in the manner of Knot DNS: a row per key
 * naming its kind (how a value is parsed, checked and written back) and
 * whether it may repeat.  The on-<class> rows are generated from the
 * codec's IDNG_CLASS_LIST, so a new error class gets its key without a
 * second list to keep in step.
 */
#define _DEFAULT_SOURCE /* getgrouplist */
#include "idng_conf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

/** Longest uncompressed wire name, root label included (RFC 1035 3.1). */
#define WIRE_MAX 255
/** Source octets of a value quoted in a message; longer values are cut. */
#define ECHO_MAX 64
/** Room for an echoed value: every unit may grow to "\\u{10FFFF}". */
#define ECHO_CAP (ECHO_MAX * 10 + 8)
/** Row argument of on-invalid, which is no class. */
#define ON_INVALID (-1)

static const char *const log_format_names[] = {
#define IDNG_X_FNAME(sym, name) name,
    IDNG_LOGFMT_LIST(IDNG_X_FNAME)
#undef IDNG_X_FNAME
};
#define N_LOG_FORMATS (sizeof log_format_names / sizeof log_format_names[0])

/* ------------------------------------------------------------------------ */
/* Parser state and messages                                                 */

struct key;

/** Everything one parse needs; the settings are moved out on success. */
struct pstate {
    struct idng_conf c;                       /**< the temporary being filled */
    unsigned char explicit_action[IDNG_CLASS_COUNT]; /**< on-<class> seen */
    size_t first_line[64];                    /**< per key row; 0 = not seen yet */
    size_t *name_line[2];                     /**< line of each allow/deny name */
    size_t name_line_cap[2];                  /**< entries allocated at name_line[] */
    size_t clause_line;                       /**< line of "idnguard:", 0 = none yet */
    const char *fname;
    size_t line;
    char *err;
    size_t errlen;
    size_t used;      /**< octets of err written so far */
    unsigned nerr;    /**< errors found */
    unsigned nwarn;   /**< warnings found */
    unsigned flags;   /**< IDNG_CONF_F_* */
    const char *user; /**< IDNG_CONF_F_CHECK_PATHS as this user; NULL: the caller */
    char vbuf[IDNG_CONF_LINE_MAX];            /**< a quoted value, unescaped */
};

/* Appends "fname:line: [warning: ]message" to the caller's buffer, one
 * problem a line; after IDNG_CONF_REPORT_MAX problems only a note that more
 * were found.  The first problem is cut to fit; a later one that does not
 * fit whole is left out, so the report never ends in half a second line. */
static void report(struct pstate *p, int warning, const char *fmt, va_list ap)
{
    char line[1024];
    unsigned k = p->nerr + p->nwarn;
    size_t n, room;
    int w;

    if (p->err == NULL || p->errlen == 0 || k > IDNG_CONF_REPORT_MAX)
        return;
    if (k == IDNG_CONF_REPORT_MAX) {
        w = snprintf(line, sizeof line, "%s: more problems not shown", p->fname);
    } else {
        w = snprintf(line, sizeof line, "%s:%zu: %s", p->fname, p->line > 0 ? p->line : 1,
                     warning ? "warning: " : "");
        if (w >= 0 && (size_t)w < sizeof line)
            w += vsnprintf(line + w, sizeof line - (size_t)w, fmt, ap);
    }
    if (w < 0)
        return;
    n = (size_t)w < sizeof line ? (size_t)w : sizeof line - 1;
    room = p->errlen - p->used;
    if (p->used == 0 && n + 1 > room)
        n = room - 1;
    if (n + (p->used > 0) + 1 > room)
        return;
    if (p->used > 0)
        p->err[p->used++] = '\n';
    memcpy(p->err + p->used, line, n);
    p->used += n;
    p->err[p->used] = '\0';
}

/* An error: reported, counted; returns -1. */
static int fail(struct pstate *p, const char *fmt, ...) PRINTF_LIKE(2, 3);
static int fail(struct pstate *p, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    report(p, 0, fmt, ap);
    va_end(ap);
    p->nerr++;
    return -1;
}

/* A warning: reported, counted; the file still loads. */
static void warn(struct pstate *p, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void warn(struct pstate *p, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    report(p, 1, fmt, ap);
    va_end(ap);
    p->nwarn++;
}

/* Renders part of a value for a message: at most ECHO_MAX octets, cut on a
 * code point boundary with "..." added, in the display unit's text form
 * (idng_display_text: code points that could hide or reorder the text
 * around them shown as \u{XXXX}, octets that are not UTF-8 as \DDD), so
 * the message says exactly what the file holds. */
static const char *echo(char out[ECHO_CAP], const char *v, size_t n)
{
    const unsigned char *p = (const unsigned char *)v;
    size_t cut = 0, o;
    uint32_t cp;

    while (cut < n && cut < ECHO_MAX) {
        size_t m = p[cut] < 0x80 ? 1 : idng_utf8_decode(p + cut, n - cut, &cp);
        cut += m ? m : 1;
    }
    o = idng_display_text(v, cut, out, ECHO_CAP - 3);
    if (cut < n)
        memcpy(out + o, "...", 4);
    return out;
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

/* ------------------------------------------------------------------------ */
/* Domain names                                                              */

/* Octets that an ASCII label of a listed name may hold: printable ASCII but
 * for what would need quoting or escaping to be written back ('"', '#',
 * '\\'), the separator, and '*', which would only ever be a literal label
 * here and so is almost surely a wildcard misunderstanding. */
static int name_octet_ok(unsigned char ch)
{
    return ch > 0x20 && ch < 0x7f && ch != '"' && ch != '#' && ch != '\\' && ch != '*'
           && ch != '.';
}

static unsigned char lower(unsigned char ch)
{
    return ch >= 'A' && ch <= 'Z' ? (unsigned char)(ch + 32) : ch;
}

/* Text form with trailing dot ("." for the root) into out, which holds
 * WIRE_MAX + 1 octets.  Returns -1 for a label the parser would refuse. */
static int wire_to_text(const uint8_t *w, char *out)
{
    idng_wire_iter it;
    const uint8_t *lab;
    size_t l, o = 0, i;
    int st;

    idng_wire_iter_init(&it, w, WIRE_MAX);
    while ((st = idng_wire_next(&it, &lab, &l)) == IDNG_WIRE_LABEL) {
        for (i = 0; i < l; i++) {
            if (!name_octet_ok(lab[i]))
                return -1;
            out[o++] = (char)lab[i];
        }
        out[o++] = '.';
    }
    if (st != IDNG_WIRE_END)
        return -1;
    if (o == 0)
        out[o++] = '.';
    out[o] = '\0';
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Name sets                                                                 */

/* Converts a name as written in the file into lowercase wire format. */
static int name_to_wire(struct pstate *p, const struct key *k, const char *v, size_t n,
                        uint8_t *wire, size_t *wlen);

/* ------------------------------------------------------------------------ */
/* The schema                                                                */

/** How values of one kind are parsed and checked, written back and described. */
struct kind {
    /** Parses and checks v (n octets, not NUL-terminated) and stores it. */
    int (*set)(struct pstate *p, const struct key *k, const char *v, size_t n);
    /** Writes the key's line(s); -1 if the value has no text form. */
    int (*put)(const struct idng_conf *c, const struct key *k, FILE *f);
    /** The allowed values, for messages ("yes or no"). */
    void (*expect)(const struct key *k, char *out, size_t cap);
};

/** One row per key. */
struct key {
    const char *name;
    const struct kind *kind;
    size_t off;     /**< offset of the field in struct idng_conf, for simple kinds */
    int arg;        /**< class for on-<class>, ON_INVALID; list 0/1 for allow/deny */
    unsigned flags; /**< K_* */
};
enum {
    K_REPEAT = 1u << 0,   /**< may appear more than once */
    K_EMPTY_OK = 1u << 1, /**< "" is a meaningful value */
};

#define FIELD(c, k, type) ((type *)(void *)((char *)(c) + (k)->off))
#define CFIELD(c, k, type) ((const type *)(const void *)((const char *)(c) + (k)->off))

static int bad_value(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    char e[ECHO_CAP], x[160];
    k->kind->expect(k, x, sizeof x);
    return fail(p, "bad value '%s' for '%s' (expected %s)", echo(e, v, n), k->name, x);
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

static const struct kind kind_mode = {set_mode, put_mode, expect_mode};

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
        return fail(p, "'normalize' is allowed only for 'on-raw-8bit', not for '%s' (expected %s)",
                    k->name, x);
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

static const struct kind kind_action = {set_action, put_action, expect_action};

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

static const struct kind kind_bool = {set_bool, put_bool, expect_bool};

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

static const struct kind kind_log_format = {set_log_format, put_log_format, expect_log_format};

/* -- paths -- */

/* Why a path is refused, or NULL.  Relative paths would depend on the
 * daemon's working directory, which chroot and service managers change. */
static const char *path_problem(const char *v, size_t n)
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

/*
 * What the daemon would trip over when it opens a file of the module's
 * (IDNG_CONF_F_CHECK_PATHS): as whoever runs the check, which is the
 * daemon's user only when check-conf is run as that user.
 */
/*
 * May the checking user write (want W_OK) or write into (W_OK | X_OK) the
 * file described by st?  As the caller: access(2).  As another user (the
 * daemon's): its owner, group and other permission bits, its groups
 * included.
 */
static int may(const struct pstate *p, const char *path, const struct stat *st, int want)
{
    struct passwd *pw;
    gid_t groups[256];
    int ng = (int)(sizeof groups / sizeof groups[0]), i;
    mode_t need;

    if (!p->user)
        return access(path, want) == 0;
    pw = getpwnam(p->user);
    if (!pw)
        return 0;
    if (pw->pw_uid == 0)
        return 1;
    if (st->st_uid == pw->pw_uid)
        need = (want & R_OK ? S_IRUSR : 0) | (want & W_OK ? S_IWUSR : 0)
               | (want & X_OK ? S_IXUSR : 0);
    else {
        int in_group = st->st_gid == pw->pw_gid;
        if (!in_group && getgrouplist(pw->pw_name, pw->pw_gid, groups, &ng) >= 0)
            for (i = 0; i < ng && !in_group; i++)
                in_group = groups[i] == st->st_gid;
        need = in_group ? (want & R_OK ? S_IRGRP : 0) | (want & W_OK ? S_IWGRP : 0)
                              | (want & X_OK ? S_IXGRP : 0)
                        : (want & R_OK ? S_IROTH : 0) | (want & W_OK ? S_IWOTH : 0)
                              | (want & X_OK ? S_IXOTH : 0);
    }
    return (st->st_mode & need) == need;
}

/*
 * What the daemon would trip over when it opens a file of the module's
 * (IDNG_CONF_F_CHECK_PATHS): as p->user, or else as whoever runs the check.
 */
static int check_path(struct pstate *p, const struct key *k, const char *path)
{
    struct stat st;
    char dir[IDNG_CONF_LINE_MAX], who[96];
    const char *slash = strrchr(path, '/');
    size_t dn = slash == path ? 1 : (size_t)(slash - path);

    snprintf(who, sizeof who, p->user ? "by user %s" : "by this user", p->user);
    if (stat(path, &st) == 0) {
        if (!S_ISREG(st.st_mode))
            return fail(p, "%s '%s' is %s, not a regular file", k->name, path,
                        S_ISDIR(st.st_mode)    ? "a directory"
                        : S_ISFIFO(st.st_mode) ? "a FIFO"
                        : S_ISSOCK(st.st_mode) ? "a socket"
                                               : "a device or other special file");
        if (!may(p, path, &st, W_OK))
            return fail(p, "%s '%s' is not writable (%s)", k->name, path, who);
        return 0;
    }
    memcpy(dir, path, dn);
    dir[dn] = '\0';
    if (stat(dir, &st) != 0)
        return fail(p, "%s '%s': its directory '%s' does not exist", k->name, path, dir);
    if (!S_ISDIR(st.st_mode))
        return fail(p, "%s '%s': '%s' is not a directory", k->name, path, dir);
    if (!may(p, dir, &st, W_OK | X_OK))
        return fail(p, "%s '%s': its directory '%s' is not writable (%s)", k->name, path, dir,
                    who);
    return 0;
}

static int set_path(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    char **field = FIELD(&p->c, k, char *), e[ECHO_CAP], x[160];
    const char *why;

    free(*field);
    *field = NULL;
    if (n == 0)
        return 0;
    why = path_problem(v, n);
    if (why != NULL) {
        k->kind->expect(k, x, sizeof x);
        return fail(p, "%s '%s' %s (expected %s)", k->name, echo(e, v, n), why, x);
    }
    *field = malloc(n + 1);
    if (*field == NULL)
        return fail(p, "out of memory");
    memcpy(*field, v, n);
    (*field)[n] = '\0';
    if (p->flags & IDNG_CONF_F_CHECK_PATHS)
        return check_path(p, k, *field);
    return 0;
}

static int put_path(const struct idng_conf *c, const struct key *k, FILE *f)
{
    const char *s = *CFIELD(c, k, char *);

    if (fprintf(f, "    %s: \"", k->name) < 0)
        return -1;
    if (s != NULL && s[0] != '\0') {
        if (path_problem(s, strlen(s)) != NULL)
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

static const struct kind kind_path = {set_path, put_path, expect_path};

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
        return fail(p, "%s %s is out of range (expected %s)", k->name, echo(e, v, n), x);
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

static const struct kind kind_seconds = {set_seconds, put_seconds, expect_seconds};

/* -- name lists -- */

static int set_name(struct pstate *p, const struct key *k, const char *v, size_t n);

static int put_names(const struct idng_conf *c, const struct key *k, FILE *f)
{
    const struct idng_nameset *l = CFIELD(c, k, struct idng_nameset);
    char text[WIRE_MAX + 1];
    size_t i;

    /* A comment keeps "every key is shown" true for an empty list. */
    if (l->count == 0)
        return fprintf(f, "    # %s: (none)\n", k->name) < 0 ? -1 : 0;
    for (i = 0; i < l->count; i++) {
        if (l->names[i] == NULL || wire_to_text(l->names[i], text) != 0)
            return -1;
        if (fprintf(f, "    %s: %s\n", k->name, text) < 0)
            return -1;
    }
    return 0;
}

static void expect_name(const struct key *k, char *out, size_t cap)
{
    (void)k;
    snprintf(out, cap, "a domain name, or \".\" for all names");
}

static const struct kind kind_names = {set_name, put_names, expect_name};

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

static const struct kind kind_restriction = {set_restriction, put_restriction,
                                             expect_restriction};

/* -- protected names: protect (one name) and protect-file (a file of them) -- */

/* Adds one protected name, as written (where: "" for a protect line, else
 * "FILE:LINE: " of the name in a protect-file). */
static int add_protected(struct pstate *p, const struct key *k, const char *v, size_t n,
                         const char *where)
{
    uint8_t wire[WIRE_MAX];
    size_t wlen = 0;
    char e[ECHO_CAP], text[WIRE_MAX + 1], lab[ECHO_CAP];
    idng_error ie;
    idng_status st;
    int r;

    if (name_to_wire(p, k, v, n, wire, &wlen) != 0)
        return -1;
    /* Unlike the lists, which override verdicts, a protected name must be
     * a name a lookalike can imitate: valid, with an xn-- label or not. */
    st = idng_wire_check(wire, wlen, IDNG_MODE_UTS46, &ie);
    if (st != IDNG_OK)
        return fail(p, "%sbad name '%s' for '%s': label '%s': %s [%s]", where, echo(e, v, n),
                    k->name, echo(lab, (const char *)wire + ie.label_off, ie.label_len),
                    idng_status_message(st), idng_status_class_name(st));
    if (wlen == 1)
        return fail(p, "%sbad name '.' for '%s': the root protects nothing (give a domain)",
                    where, k->name);
    r = idng_protect_add(&p->c.policy.protect, wire, wlen);
    if (r == 1) {
        wire_to_text(wire, text);
        return fail(p, "%sduplicate protected name '%s'", where, text);
    }
    if (r == -1)
        return fail(p, "out of memory");
    if (r != 0)
        return fail(p, "%sbad name '%s' for '%s'", where, echo(e, v, n), k->name);
    if (*where == '\0' && idng_nameset_add(&p->c.protect_lines, wire, wlen, NULL) != 0)
        return fail(p, "out of memory");
    return 0;
}

static int set_protect(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    return add_protected(p, k, v, n, "");
}

static int put_protect(const struct idng_conf *c, const struct key *k, FILE *f)
{
    const struct idng_nameset *l = &c->protect_lines;
    char text[WIRE_MAX + 1];
    size_t i;

    if (l->count == 0)
        return fprintf(f, "    # %s: (none)\n", k->name) < 0 ? -1 : 0;
    for (i = 0; i < l->count; i++) {
        if (wire_to_text(l->names[i], text) != 0 || fprintf(f, "    %s: %s\n", k->name, text) < 0)
            return -1;
    }
    return 0;
}

static void expect_protect(const struct key *k, char *out, size_t cap)
{
    (void)k;
    snprintf(out, cap, "a valid domain name, in Unicode or A-labels");
}

static const struct kind kind_protect = {set_protect, put_protect, expect_protect};

static int read_regular(const char *path, size_t max, const char *what, char **out, size_t *len,
                        const char **why, int *errnum, char *whybuf, size_t whylen);

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
        return fail(p, "bad value '%s' for '%s': expected %s", echo(e, v, n), k->name, x);
    }
    if (name_to_wire(p, k, v, t, wire, &wlen) != 0)
        return -1;
    if (wlen < 2 || wire[0] + 2u != wlen)
        return fail(p, "bad top-level domain '%s' for '%s': give one label", echo(e, v, t),
                    k->name);
    if (n - i == 4 && memcmp(v + i, "none", 4) == 0)
        i = n;
    while (i < n) {
        size_t j = i;
        int s;
        while (j < n && v[j] != ',')
            j++;
        s = idng_script_lookup(v + i, j - i);
        if (s < 0) {
            k->kind->expect(k, x, sizeof x);
            return fail(p, "bad script '%s' for '%s': expected %s", echo(e, v + i, j - i),
                        k->name, x);
        }
        scripts |= 1u << s;
        i = j < n ? j + 1 : j;
    }
    r = idng_protect_tld(&p->c.policy.protect, (const char *)wire + 1, wire[0], scripts);
    if (r == -1)
        return fail(p, "out of memory");
    return r == 0 ? 0 : fail(p, "bad top-level domain '%s' for '%s'", echo(e, v, t), k->name);
}

static int put_tld_scripts(const struct idng_conf *c, const struct key *k, FILE *f)
{
    const struct idng_protect *s = &c->policy.protect;
    size_t i;
    unsigned b;

    if (s->ntld == 0)
        return fprintf(f, "    # %s: (the built-in table)\n", k->name) < 0 ? -1 : 0;
    for (i = 0; i < s->ntld; i++) {
        const char *sep = " ";
        if (fprintf(f, "    %s: %.*s", k->name, (int)s->tld[i].len, (const char *)s->tld[i].label)
            < 0)
            return -1;
        for (b = 0; b < IDNG_SCRIPT_COUNT; b++, sep = s->tld[i].scripts & ((1u << b) - 1) ? "," : " ")
            if (s->tld[i].scripts & 1u << b && fprintf(f, "%s%s", sep, idng_script_name(b)) < 0)
                return -1;
        if (fprintf(f, "%s\n", s->tld[i].scripts ? "" : " none") < 0)
            return -1;
    }
    return 0;
}

static void expect_tld_scripts(const struct key *k, char *out, size_t cap)
{
    size_t n = 0;
    unsigned b;

    (void)k;
    n += (size_t)snprintf(out, cap, "'TLD SCRIPT[,SCRIPT...]' or 'TLD none', a script one of");
    for (b = 0; b < IDNG_SCRIPT_COUNT && n < cap; b++)
        n += (size_t)snprintf(out + n, cap - n, " %s", idng_script_name(b));
}

static const struct kind kind_tld_scripts = {set_tld_scripts, put_tld_scripts,
                                             expect_tld_scripts};

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

static const struct kind kind_suffixes = {set_suffixes, put_suffixes, expect_suffixes};

/* The octets of a protect-file, malloc'd (NULL after a reported failure). */
static char *read_names_file(struct pstate *p, const struct key *k, const char *path, size_t *len)
{
    char e[ECHO_CAP], whybuf[96];
    const char *why;
    char *buf;
    int errnum;

    if (read_regular(path, IDNG_CONF_NAMES_FILE_MAX, "a file of names", &buf, len, &why, &errnum,
                     whybuf, sizeof whybuf) == 0)
        return buf;
    echo(e, path, strlen(path));
    if (errnum != 0)
        fail(p, "%s '%s': %s: %s", k->name, e, why, strerror(errnum));
    else
        fail(p, "%s '%s': %s", k->name, e, why);
    return NULL;
}

static int set_protect_file(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    char e[ECHO_CAP], x[160], where[ECHO_CAP + 32];
    const char *why = path_problem(v, n);
    char *buf;
    size_t len = 0, pos = 0, line = 0, i;
    unsigned before = p->nerr;

    if (why != NULL) {
        k->kind->expect(k, x, sizeof x);
        return fail(p, "%s '%s' %s (expected %s)", k->name, echo(e, v, n), why, x);
    }
    free(p->c.protect_file);
    if ((p->c.protect_file = malloc(n + 1)) == NULL)
        return fail(p, "out of memory");
    memcpy(p->c.protect_file, v, n);
    p->c.protect_file[n] = '\0';
    if ((buf = read_names_file(p, k, p->c.protect_file, &len)) == NULL)
        return -1;
    /* The daemon reads it again at every reload, as the user it runs as. */
    if (p->flags & IDNG_CONF_F_CHECK_PATHS) {
        struct stat st;
        if (stat(p->c.protect_file, &st) == 0 && !may(p, p->c.protect_file, &st, R_OK)) {
            free(buf);
            return fail(p, "%s '%s' is not readable (%s%s)", k->name, echo(e, v, n),
                        p->user ? "by user " : "by this user", p->user ? p->user : "");
        }
    }
    /* One name a line; blanks around it, empty lines and '#' comments are
     * ignored.  Every bad line is reported (up to the report's limit), and
     * then nothing is applied. */
    while (pos < len && p->nerr - before < IDNG_CONF_REPORT_MAX) {
        const char *s = buf + pos, *nl = memchr(s, '\n', len - pos), *hash;
        size_t m = nl != NULL ? (size_t)(nl - s) : len - pos;
        pos += m + (nl != NULL);
        line++;
        if ((hash = memchr(s, '#', m)) != NULL)
            m = (size_t)(hash - s);
        while (m > 0 && (s[m - 1] == ' ' || s[m - 1] == '\t' || s[m - 1] == '\r'))
            m--;
        while (m > 0 && (*s == ' ' || *s == '\t')) {
            s++;
            m--;
        }
        if (m == 0)
            continue;
        snprintf(where, sizeof where, "%s:%zu: ", echo(e, v, n), line);
        for (i = 0; i < m && (unsigned char)s[i] >= 0x20 && s[i] != 0x7F; i++)
            ;
        if (i < m) {
            fail(p, "%scontrol octet 0x%02X in a name", where, (unsigned char)s[i]);
            continue;
        }
        (void)add_protected(p, k, s, m, where);
    }
    free(buf);
    return p->nerr == before ? 0 : -1;
}

static int put_protect_file(const struct idng_conf *c, const struct key *k, FILE *f)
{
    if (c->protect_file == NULL)
        return fprintf(f, "    # %s: (none)\n", k->name) < 0 ? -1 : 0;
    return put_path(c, k, f);
}

static void expect_protect_file(const struct key *k, char *out, size_t cap)
{
    (void)k;
    snprintf(out, cap, "an absolute path of a file of names, one a line");
}

static const struct kind kind_protect_file = {set_protect_file, put_protect_file,
                                              expect_protect_file};

/* The table.  Order is the order idng_conf_write uses. */
static const struct key keys[] = {
    {"mode", &kind_mode, offsetof(struct idng_conf, policy.mode), 0, 0},
    {"on-invalid", &kind_action, 0, ON_INVALID, 0},
#define IDNG_X_KEY(sym, name) {"on-" name, &kind_action, 0, sym, 0},
    IDNG_CLASS_LIST(IDNG_X_KEY)
#undef IDNG_X_KEY
    {"log-queries", &kind_bool, offsetof(struct idng_conf, log_queries), 0, 0},
    {"log-rejected", &kind_bool, offsetof(struct idng_conf, log_rejected), 0, 0},
    {"log-format", &kind_log_format, offsetof(struct idng_conf, log_format), 0, 0},
    {"log-file", &kind_path, offsetof(struct idng_conf, log_file), 0, K_EMPTY_OK},
    {"anonymize-clients", &kind_bool, offsetof(struct idng_conf, anonymize_clients), 0, 0},
    {"ede", &kind_bool, offsetof(struct idng_conf, ede), 0, 0},
    {"allow", &kind_names, offsetof(struct idng_conf, policy.allow), 0, K_REPEAT},
    {"deny", &kind_names, offsetof(struct idng_conf, policy.deny), 1, K_REPEAT},
    {"stats-interval", &kind_seconds, offsetof(struct idng_conf, stats_interval), 0, 0},
    {"stats-file", &kind_path, offsetof(struct idng_conf, stats_file), 0, K_EMPTY_OK},
    {"tap-stats-file", &kind_path, offsetof(struct idng_conf, tap_stats_file), 0, K_EMPTY_OK},
    {"watch-settings", &kind_bool, offsetof(struct idng_conf, watch_settings), 0, 0},
    {"restriction-level", &kind_restriction, offsetof(struct idng_conf, policy.restriction_level),
     0, 0},
    {"protect", &kind_protect, 0, 0, K_REPEAT},
    {"protect-file", &kind_protect_file, offsetof(struct idng_conf, protect_file), 0, 0},
    {"protect-suffixes", &kind_suffixes, 0, 0, 0},
    {"protect-embedded", &kind_bool, offsetof(struct idng_conf, policy.protect.embedded), 0, 0},
    {"tld-scripts", &kind_tld_scripts, 0, 0, K_REPEAT},
};
#define NKEYS (sizeof keys / sizeof keys[0])

_Static_assert(NKEYS <= sizeof((struct pstate *)0)->first_line / sizeof(size_t),
               "struct pstate.first_line needs a slot per key row");

static int row_active(const struct key *k)
{
    return k->kind != &kind_action || k->arg == ON_INVALID || idng_policy_class_configurable(k->arg);
}

static const struct key *find_key(const char *s, size_t n)
{
    size_t i;
    for (i = 0; i < NKEYS; i++)
        if (strlen(keys[i].name) == n && memcmp(keys[i].name, s, n) == 0 && row_active(&keys[i]))
            return &keys[i];
    return NULL;
}

static const char *list_key_name(int which)
{
    size_t i;
    for (i = 0; i < NKEYS; i++)
        if (keys[i].kind == &kind_names && keys[i].arg == which)
            return keys[i].name;
    return "?";
}

static int name_to_wire(struct pstate *p, const struct key *k, const char *v, size_t n,
                        uint8_t *wire, size_t *wlen)
{
    char e[ECHO_CAP], lab[ECHO_CAP], ascii[IDNG_INPUT_MAX + 2];
    size_t alen = sizeof ascii, i, o;
    idng_error ie;
    idng_status st;

    if (n == 1 && v[0] == '.') {
        wire[0] = 0;
        *wlen = 1;
        return 0;
    }
    /* The codec does not judge plain ASCII labels (real DNS names break
     * hostname rules), so octets that cannot belong here are caught first. */
    for (i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)v[i];
        if (ch >= 0x80 || ch == '.' || name_octet_ok(ch))
            continue;
        if (ch == ' ' || ch == '\t')
            return fail(p, "bad name '%s' for '%s': it contains a blank (one name per line)",
                        echo(e, v, n), k->name);
        if (ch == '*' && i == 0 && (n == 1 || v[1] == '.'))
            return fail(p,
                        "bad name '%s' for '%s': no wildcards; a name already covers every "
                        "name below it",
                        echo(e, v, n), k->name);
        if (ch == '\\')
            return fail(p, "bad name '%s' for '%s': backslash escapes are not supported",
                        echo(e, v, n), k->name);
        return fail(p, "bad name '%s' for '%s': '%c' is not allowed in a name", echo(e, v, n),
                    k->name, ch);
    }
    /* A name in ASCII is taken as the DNS name it spells, xn-- labels
     * included whether valid or not: the lists exist to override verdicts,
     * so `allow: xn--ab-m1t.example.` must be possible.  Only a name written
     * in Unicode goes through ToASCII. */
    for (i = 0; i < n && (unsigned char)v[i] < 0x80; i++)
        ;
    if (i == n) {
        if (n - (v[n - 1] == '.') > IDNG_NAME_MAX)
            return fail(p, "bad name '%s' for '%s': %s [%s]", echo(e, v, n), k->name,
                        idng_status_message(IDNG_E_NAME_TOO_LONG),
                        idng_status_class_name(IDNG_E_NAME_TOO_LONG));
        memcpy(ascii, v, n);
        alen = n;
        st = IDNG_OK;
    } else {
        st = idng_to_ascii(v, n, ascii, &alen, IDNG_MODE_UTS46, 0, &ie);
    }
    if (st == IDNG_E_NOSPACE) {
        st = IDNG_E_NAME_TOO_LONG;
        ie.label_len = 0;
        ie.codepoint = IDNG_NO_CODEPOINT;
    }
    if (st != IDNG_OK) {
        char cpnote[24] = "";
        if (ie.codepoint != IDNG_NO_CODEPOINT)
            snprintf(cpnote, sizeof cpnote, " (U+%04lX)", (unsigned long)ie.codepoint);
        /* Length errors about the whole name carry no useful label. */
        if (ie.label_len > 0 && ie.label_off <= n && ie.label_len <= n - ie.label_off
            && st != IDNG_E_NAME_TOO_LONG && st != IDNG_E_INPUT_TOO_LONG)
            return fail(p, "bad name '%s' for '%s': label '%s': %s%s [%s]", echo(e, v, n),
                        k->name, echo(lab, v + ie.label_off, ie.label_len),
                        idng_status_message(st), cpnote, idng_status_class_name(st));
        return fail(p, "bad name '%s' for '%s': %s%s [%s]", echo(e, v, n), k->name,
                    idng_status_message(st), cpnote, idng_status_class_name(st));
    }
    /* Dotted ASCII (trailing dot optional) -> wire, by the codec's name
     * unit; the codec has checked lengths already, but the buffer is ours. */
    if (alen == 0 || (alen == 1 && ascii[0] == '.')) { /* a lone full stop in another script */
        wire[0] = 0;
        *wlen = 1;
        return 0;
    }
    o = WIRE_MAX;
    st = idng_text_to_wire(ascii, alen, wire, &o, &ie);
    if (st == IDNG_E_LABEL_TOO_LONG)
        return fail(p, "bad name '%s' for '%s': label '%s': %s [%s]", echo(e, v, n), k->name,
                    echo(lab, ascii + ie.label_off, ie.label_len), idng_status_message(st),
                    idng_status_class_name(st));
    if (st != IDNG_OK) {
        idng_status why = st == IDNG_E_EMPTY_LABEL ? IDNG_E_EMPTY_LABEL : IDNG_E_NAME_TOO_LONG;
        return fail(p, "bad name '%s' for '%s': %s [%s]", echo(e, v, n), k->name,
                    idng_status_message(why), idng_status_class_name(why));
    }
    {
        idng_wire_iter it;
        const uint8_t *lab8;
        size_t l;

        idng_wire_iter_init(&it, wire, o);
        while (idng_wire_next(&it, &lab8, &l) == IDNG_WIRE_LABEL)
            for (i = 0; i < l; i++) {
                unsigned char ch = lower(lab8[i]);
                if (!name_octet_ok(ch))
                    return fail(p, "bad name '%s' for '%s': '%c' is not allowed in a name",
                                echo(e, v, n), k->name, ch);
                wire[lab8 + i - wire] = ch;
            }
    }
    *wlen = o;
    return 0;
}

/* Four labels of one to three digits: an IPv4 address written as a name. */
static int looks_like_address(const uint8_t *w, size_t len)
{
    idng_wire_iter it;
    const uint8_t *lab;
    size_t l, i;

    idng_wire_iter_init(&it, w, len);
    while (idng_wire_next(&it, &lab, &l) == IDNG_WIRE_LABEL) {
        if (l > 3)
            return 0;
        for (i = 0; i < l; i++)
            if (lab[i] < '0' || lab[i] > '9')
                return 0;
    }
    return it.fault == IDNG_WIRE_OK && it.labels == 4;
}

static int set_name(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    struct idng_nameset *l = FIELD(&p->c, k, struct idng_nameset);
    uint8_t wire[WIRE_MAX];
    size_t wlen = 0, i;
    int which;
    char text[WIRE_MAX + 1];

    if (name_to_wire(p, k, v, n, wire, &wlen) != 0)
        return -1;
    /* An exact repeat is a slip; the same name in both lists contradicts
     * itself.  (A name below another listed one is fine: it is how an
     * exception is written.)  One probe of each list's table. */
    for (which = 0; which < 2; which++) {
        i = idng_nameset_find(which == 0 ? &p->c.policy.allow : &p->c.policy.deny, wire, wlen);
        if (i == IDNG_NAMESET_NONE)
            continue;
        wire_to_text(wire, text);
        if (which == k->arg)
            return fail(p, "duplicate %s name '%s' (first at line %zu)", k->name, text,
                        p->name_line[which][i]);
        return fail(p, "'%s' is in both '%s' (line %zu) and '%s'; a name can be in one list only",
                    text, list_key_name(which), p->name_line[which][i], k->name);
    }
    if (l->count == p->name_line_cap[k->arg]) {
        size_t cap = l->count ? 2 * l->count : 8;
        size_t *lines = realloc(p->name_line[k->arg], cap * sizeof *lines);
        if (lines == NULL)
            return fail(p, "out of memory");
        p->name_line[k->arg] = lines;
        p->name_line_cap[k->arg] = cap;
    }
    if (idng_nameset_add(l, wire, wlen, NULL) != 0)
        return fail(p, "out of memory");
    p->name_line[k->arg][l->count - 1] = p->line;
    if (looks_like_address(wire, wlen)) {
        wire_to_text(wire, text);
        warn(p, "%s name '%s' looks like an IPv4 address; the lists hold domain names, not "
                "addresses (it matches the name %s only)",
             k->name, text, text);
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Lines                                                                     */

static int is_blank(char ch)
{
    return ch == ' ' || ch == '\t';
}

/* Octet-level checks of one line (without its line end): length, control
 * octets, UTF-8.  Columns count octets from 1. */
static int check_octets(struct pstate *p, const char *s, size_t n)
{
    size_t i = 0;

    if (n > IDNG_CONF_LINE_MAX)
        return fail(p, "line is %zu octets long; the limit is %d", n, IDNG_CONF_LINE_MAX);
    while (i < n) {
        unsigned char ch = (unsigned char)s[i];
        uint32_t cp;
        size_t m;

        if (ch == '\t' || (ch >= 0x20 && ch < 0x7f)) {
            i++;
            continue;
        }
        if (ch == 0)
            return fail(p, "NUL octet at column %zu (is this a text file?)", i + 1);
        if (ch == '\r')
            return fail(p, "carriage return not followed by line feed at column %zu", i + 1);
        if (ch < 0x80)
            return fail(p, "control character 0x%02X at column %zu; only tab and space may "
                        "separate words", ch, i + 1);
        m = idng_utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (m == 0)
            return fail(p, "invalid UTF-8 at column %zu (octet 0x%02X); the file must be UTF-8",
                        i + 1, ch);
        i += m;
    }
    return 0;
}

/* The clause header: it must stand alone, once. */
static int clause(struct pstate *p, size_t vlen, int quoted)
{
    if (vlen > 0 || quoted)
        return fail(p, "'idnguard:' must stand alone on its line; put each setting on a line "
                    "of its own");
    if (p->clause_line != 0)
        return fail(p, "second 'idnguard:' clause (the first is at line %zu)", p->clause_line);
    p->clause_line = p->line;
    return 0;
}

static int parse_line(struct pstate *p, const char *s, size_t n)
{
    size_t i = 0, ks, kl, vlen;
    const char *v;
    const struct key *k;
    int quoted = 0;
    char e[ECHO_CAP], x[160];

    if (check_octets(p, s, n) != 0)
        return -1;
    while (i < n && is_blank(s[i]))
        i++;
    if (i == n || s[i] == '#')
        return 0;
    for (ks = i; i < n && s[i] != ':' && s[i] != '#' && s[i] != '"' && !is_blank(s[i]); i++)
        ;
    kl = i - ks;
    if (kl == 0)
        return fail(p, "expected 'key: value', found '%s'", echo(e, s + ks, n - ks));
    while (i < n && is_blank(s[i]))
        i++;
    if (i == n || s[i] != ':')
        return fail(p, "missing ':' after '%s'", echo(e, s + ks, kl));
    i++;
    while (i < n && is_blank(s[i]))
        i++;

    if (i < n && s[i] == '"') {
        /* Quoted: \" and \\ are the only escapes, so any path can be
         * written and a stray backslash is not silently dropped. */
        size_t o = 0;
        quoted = 1;
        for (i++;; i++) {
            if (i == n)
                return fail(p, "unterminated quote (a quoted value ends on its own line)");
            if (s[i] == '"')
                break;
            if (s[i] == '\\') {
                if (i + 1 < n && (s[i + 1] == '"' || s[i + 1] == '\\')) {
                    i++;
                } else if (i + 1 < n) {
                    uint32_t cp;
                    size_t m = idng_utf8_decode((const unsigned char *)s + i + 1, n - i - 1, &cp);
                    return fail(p, "unknown escape '\\%s' in quotes; only \\\" and \\\\ are "
                                "escapes", echo(e, s + i + 1, m > 0 ? m : 1));
                } else {
                    return fail(p, "unterminated quote (a quoted value ends on its own line)");
                }
            }
            p->vbuf[o++] = s[i];
        }
        v = p->vbuf;
        vlen = o;
        for (i++; i < n && is_blank(s[i]); i++)
            ;
        if (i < n && s[i] != '#')
            return fail(p, "text after the closing quote: '%s'", echo(e, s + i, n - i));
    } else {
        const char *q;
        size_t end = i;
        while (end < n && s[end] != '#')
            end++;
        while (end > i && is_blank(s[end - 1]))
            end--;
        v = s + i;
        vlen = end - i;
        q = memchr(v, '"', vlen);
        if (q != NULL)
            return fail(p, "stray '\"' in the value '%s'; quote the whole value",
                        echo(e, v, vlen));
    }

    if (kl == 8 && memcmp(s + ks, "idnguard", 8) == 0)
        return clause(p, vlen, quoted);
    k = find_key(s + ks, kl);
    if (k == NULL) {
        if (vlen == 0 && !quoted)
            return fail(p, "unknown clause '%s:'; this file holds only the 'idnguard:' clause",
                        echo(e, s + ks, kl));
        return fail(p, "unknown key '%s'", echo(e, s + ks, kl));
    }
    if (p->clause_line == 0)
        return fail(p, "'%s' comes before the 'idnguard:' clause", k->name);
    if (!(k->flags & K_REPEAT) && p->first_line[k - keys] != 0)
        return fail(p, "duplicate '%s' (first at line %zu)", k->name, p->first_line[k - keys]);
    if (vlen == 0 && !(quoted && (k->flags & K_EMPTY_OK))) {
        k->kind->expect(k, x, sizeof x);
        return fail(p, "empty value for '%s' (expected %s)", k->name, x);
    }
    if (k->kind->set(p, k, v, vlen) != 0)
        return -1;
    if (p->first_line[k - keys] == 0)
        p->first_line[k - keys] = p->line;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Public functions                                                          */

void idng_conf_init(struct idng_conf *c)
{
    memset(c, 0, sizeof *c);
    idng_policy_init(&c->policy);
    c->log_queries = 1;
    c->log_rejected = 1;
    c->log_format = IDNG_LOGFMT_TEXT;
    c->log_file = NULL;
    c->ede = 1;
    c->stats_interval = 3600;
    c->stats_file = NULL;
    c->tap_stats_file = NULL;
    idng_nameset_init(&c->protect_lines);
    c->protect_file = NULL;
    c->watch_settings = 1;
}

void idng_conf_free(struct idng_conf *c)
{
    if (c == NULL)
        return;
    idng_policy_free(&c->policy);
    idng_nameset_free(&c->protect_lines);
    free(c->log_file);
    free(c->stats_file);
    free(c->tap_stats_file);
    free(c->protect_file);
    idng_conf_init(c);
}

static int parse(struct idng_conf *c, const char *buf, size_t len, const char *fname,
                 unsigned flags, const char *user, char *err, size_t errlen);

int idng_conf_parse(struct idng_conf *c, const char *buf, size_t len, const char *fname,
                    char *err, size_t errlen)
{
    return idng_conf_parse_flags(c, buf, len, fname, 0, err, errlen);
}

int idng_conf_parse_flags(struct idng_conf *c, const char *buf, size_t len, const char *fname,
                          unsigned flags, char *err, size_t errlen)
{
    return parse(c, buf, len, fname, flags, NULL, err, errlen);
}

int idng_conf_same_file(const char *a, const char *b)
{
    struct stat sa, sb;

    if (a == NULL || b == NULL)
        return 0;
    if (strcmp(a, b) == 0)
        return 1;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev
           && sa.st_ino == sb.st_ino;
}

/*
 * The files the settings name are distinct: a file one of them writes
 * (log-file, stats-file, tap-stats-file) is none of the others, so that the
 * module and the tap never replace each other's counters and no stats file
 * lands on the query log or on the names of protect-file.  Reported at the
 * line of the later key.
 */
static void check_distinct_files(struct pstate *p)
{
    static const char *const names[] = {"log-file", "stats-file", "tap-stats-file",
                                        "protect-file"};
    const char *paths[4];
    size_t i, j, line[4];

    paths[0] = p->c.log_file;
    paths[1] = p->c.stats_file;
    paths[2] = p->c.tap_stats_file;
    paths[3] = p->c.protect_file;
    for (i = 0; i < 4; i++) {
        const struct key *k = find_key(names[i], strlen(names[i]));
        line[i] = k != NULL ? p->first_line[k - keys] : 0;
    }
    for (i = 0; i < 3; i++) /* protect-file is only read: it is never the later one */
        for (j = i + 1; j < 4; j++)
            if (idng_conf_same_file(paths[i], paths[j])) {
                size_t later = j < 3 && line[j] > line[i] ? j : i, other = later == i ? j : i;
                p->line = line[later];
                fail(p, "%s '%s' is the file of %s (line %zu): %s", names[later], paths[later],
                     names[other], line[other],
                     other != 3   ? "each needs a file of its own, or one would replace the "
                                    "other's lines or counters"
                     : later == 0 ? "the query log would be written over the protected names"
                                  : "the counters would be written over the protected names");
            }
}

static int parse(struct idng_conf *c, const char *buf, size_t len, const char *fname,
                 unsigned flags, const char *user, char *err, size_t errlen)
{
    struct pstate *p;
    size_t pos = 0;
    int rc = -1;

    if (err != NULL && errlen > 0)
        err[0] = '\0';
    /* On the heap: the line buffer makes the state a few KB, and Unbound's
     * threads may have small stacks. */
    p = calloc(1, sizeof *p);
    if (p == NULL) {
        if (err != NULL && errlen > 0)
            snprintf(err, errlen, "%s: out of memory", fname != NULL ? fname : "config");
        return -1;
    }
    idng_conf_init(&p->c);
    p->fname = fname != NULL ? fname : "config";
    p->err = err;
    p->errlen = errlen;
    p->flags = flags;
    p->user = user;
    if (c == NULL || (buf == NULL && len > 0)) {
        fail(p, "invalid argument");
        goto out;
    }
    /* Editors on some systems start UTF-8 files with a byte order mark. */
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
        pos = 3;
    while (pos < len) {
        const char *s = buf + pos, *nl = memchr(s, '\n', len - pos);
        size_t n = nl != NULL ? (size_t)(nl - s) : len - pos;

        p->line++;
        pos += n + (nl != NULL);
        if (nl != NULL && n > 0 && s[n - 1] == '\r')
            n--;
        /* Lines are independent: go on, so that every problem is reported. */
        (void)parse_line(p, s, n);
    }
    if (p->nerr == 0)
        check_distinct_files(p);
    if (p->clause_line == 0 && p->nerr == 0)
        fail(p, "no 'idnguard:' clause (wrong file? settings must follow a line 'idnguard:')");
    if (p->nerr > 0)
        goto out;
    idng_policy_resolve(&p->c.policy, p->explicit_action);
    idng_conf_free(c);
    *c = p->c;
    idng_conf_init(&p->c); /* now owned by c */
    rc = 0;
out:
    idng_conf_free(&p->c);
    free(p->name_line[0]);
    free(p->name_line[1]);
    free(p);
    return rc;
}

/* "path: message" into err. */
static int load_fail(char *err, size_t errlen, const char *path, const char *what, int errnum)
{
    char msg[256];

    if (err == NULL || errlen == 0)
        return -1;
    if (errnum != 0 && strerror_r(errnum, msg, sizeof msg) == 0)
        snprintf(err, errlen, "%s: %s: %s", path, what, msg);
    else
        snprintf(err, errlen, "%s: %s", path, what);
    return -1;
}

int idng_conf_load(struct idng_conf *c, const char *path, char *err, size_t errlen)
{
    return idng_conf_load_flags(c, path, 0, err, errlen);
}

int idng_conf_load_flags(struct idng_conf *c, const char *path, unsigned flags, char *err,
                         size_t errlen)
{
    return idng_conf_check_file(c, path, flags, NULL, err, errlen);
}

/*
 * Reads a whole regular file of at most max octets into a malloc'd buffer
 * (*out, *len).  On failure returns -1 with *why set to a phrase ("cannot
 * open", "is not a regular file", ...; what for a directory: "is a
 * directory, not <what>") and *errnum to an errno value or 0; whybuf holds
 * phrases with numbers in them.
 */
static int read_regular(const char *path, size_t max, const char *what, char **out, size_t *len,
                        const char **why, int *errnum, char *whybuf, size_t whylen)
{
    struct stat st;
    char *buf, *nbuf;
    size_t cap, got = 0;
    int fd;

    *errnum = 0;
    /* O_NONBLOCK: opening a FIFO must not hang; it is refused just below. */
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        *why = "cannot open";
        *errnum = errno;
        return -1;
    }
    if (fstat(fd, &st) != 0) {
        *why = "cannot stat";
        *errnum = errno;
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(whybuf, whylen, "is a directory, not %s", what);
        *why = S_ISDIR(st.st_mode) ? whybuf : "is not a regular file";
        close(fd);
        return -1;
    }
    if ((unsigned long long)st.st_size > max) {
        snprintf(whybuf, whylen, "too big (%lld octets; the limit is %zu)",
                 (long long)st.st_size, max);
        *why = whybuf;
        close(fd);
        return -1;
    }
    /* One more than the size, so a file that grew is noticed. */
    cap = (size_t)st.st_size + 1;
    buf = malloc(cap);
    if (buf == NULL) {
        *why = "out of memory";
        close(fd);
        return -1;
    }
    for (;;) {
        ssize_t r;
        if (got == cap) {
            if (cap > max) {
                free(buf);
                close(fd);
                snprintf(whybuf, whylen, "too big (more than %zu octets)", max);
                *why = whybuf;
                return -1;
            }
            cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
            nbuf = realloc(buf, cap);
            if (nbuf == NULL) {
                free(buf);
                close(fd);
                *why = "out of memory";
                return -1;
            }
            buf = nbuf;
        }
        r = read(fd, buf + got, cap - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            *why = "cannot read";
            *errnum = errno;
            free(buf);
            close(fd);
            return -1;
        }
        if (r == 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    *out = buf;
    *len = got;
    return 0;
}

int idng_conf_check_file(struct idng_conf *c, const char *path, unsigned flags, const char *user,
                         char *err, size_t errlen)
{
    char *buf, whybuf[96];
    const char *why;
    size_t got;
    int rc, errnum;

    if (path == NULL || path[0] == '\0')
        return load_fail(err, errlen, "(no path)", "no settings file given", 0);
    if (read_regular(path, IDNG_CONF_FILE_MAX, "a settings file", &buf, &got, &why, &errnum,
                     whybuf, sizeof whybuf) != 0)
        return load_fail(err, errlen, path, why, errnum);
    rc = parse(c, buf, got, path, flags, user, err, errlen);
    free(buf);
    return rc;
}

const char *idng_conf_path(void)
{
    const char *e = getenv(IDNG_CONF_ENV);
    return e != NULL && e[0] != '\0' ? e : IDNG_CONF_DEFAULT_PATH;
}

int idng_conf_write(const struct idng_conf *c, FILE *f)
{
    size_t i;

    if (c == NULL || f == NULL)
        return -1;
    if (fputs("idnguard:\n", f) == EOF)
        return -1;
    for (i = 0; i < NKEYS; i++)
        if (row_active(&keys[i]) && keys[i].kind->put(c, &keys[i], f) != 0)
            return -1;
    return ferror(f) ? -1 : 0;
}


int idng_conf_logs(const struct idng_conf *c, const struct idng_verdict *v)
{
    return c->log_queries || (c->log_rejected && idng_action_rejects(v->action))
           || (idng_verdict_interesting(v) && v->action == IDNG_ACT_LOG);
}
