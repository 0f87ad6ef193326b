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
#include "idng_out.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <glob.h>
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

/** The lists whose entries have origins (struct idng_conf_origins). */
enum { L_ALLOW, L_DENY, L_PROTECT, L_TLD, L_IDN_SUFFIXES, N_LISTS };

/** A settings file read, for refusing one that is read twice. */
struct file_id {
    dev_t dev;
    ino_t ino;
    int open;                     /**< being read: including it again is a cycle */
    struct idng_conf_origin from; /**< the include line that read it (line 0: none) */
};

/** What belongs to the file being read; kept aside while an include is. */
struct file_state {
    const char *fname;                     /**< its name in messages */
    uint32_t file;                         /**< its index in c.origin.files */
    size_t line;                           /**< the line being read */
    size_t clause_line;                    /**< line of "idnguard:", 0 = none yet */
    size_t first_line[IDNG_CONF_KEYS_MAX]; /**< per key row; 0 = not seen yet */
};

/** Everything one parse needs; the settings are moved out on success. */
struct pstate {
    struct idng_conf c;                       /**< the temporary being filled */
    unsigned char explicit_action[IDNG_CLASS_COUNT]; /**< on-<class> seen */
    size_t at_cap[N_LISTS]; /**< entries allocated at each list's origins */
    size_t seq;             /**< lines read so far, in every file */
    size_t key_seq[IDNG_CONF_KEYS_MAX]; /**< per key row, seq of the line that set it last */
    struct file_state f;                /**< the file being read */
    unsigned depth;                     /**< includes open around it */
    size_t budget;                      /**< octets more settings files may hold */
    struct file_id *ids;                /**< every settings file read */
    size_t nids, ids_cap;
    char *err;
    size_t errlen;
    size_t used;      /**< octets of err written so far */
    unsigned nerr;    /**< errors found */
    unsigned nwarn;   /**< warnings found */
    unsigned flags;   /**< IDNG_CONF_F_* */
    const char *user; /**< IDNG_CONF_F_CHECK_PATHS as this user; NULL: the caller */
    int sources_full; /**< IDNG_CONF_SOURCES_MAX reached (said once) */
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
        w = snprintf(line, sizeof line, "%s: more problems not shown", p->f.fname);
    } else {
        w = snprintf(line, sizeof line, "%s:%zu: %s", p->f.fname, p->f.line > 0 ? p->f.line : 1,
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
/* Origins                                                                   */

/* Where list's entries' origins are kept in c. */
static struct idng_conf_origin **list_at(struct idng_conf *c, int list)
{
    switch (list) {
    case L_ALLOW:
        return &c->origin.allow;
    case L_DENY:
        return &c->origin.deny;
    case L_PROTECT:
        return &c->origin.protect;
    case L_IDN_SUFFIXES:
        return &c->origin.idn_suffixes;
    default:
        return &c->origin.tld;
    }
}

/* The origins list of a name key's entries (its row's arg: 0 allow,
 * 1 deny, 2 idn-suffixes). */
static int name_list(int arg)
{
    return arg == 0 ? L_ALLOW : arg == 1 ? L_DENY : L_IDN_SUFFIXES;
}

/* The line being read is where entry i of list was set; 0, or -1 (out of
 * memory, reported). */
static int note_entry(struct pstate *p, int list, size_t i)
{
    struct idng_conf_origin **at = list_at(&p->c, list), *grown;
    size_t cap = p->at_cap[list] ? p->at_cap[list] : 8;

    if (i >= p->at_cap[list]) {
        while (cap <= i)
            cap *= 2;
        if ((grown = realloc(*at, cap * sizeof *grown)) == NULL)
            return fail(p, "out of memory");
        *at = grown;
        p->at_cap[list] = cap;
    }
    (*at)[i].file = p->f.file;
    (*at)[i].line = (uint32_t)p->f.line;
    return 0;
}

/* Adds a file to c's files, named as the display unit shows it; its index
 * in *at.  0, or -1 (out of memory, reported). */
static int add_file(struct pstate *p, const char *name, uint32_t *at)
{
    struct idng_conf_origins *o = &p->c.origin;
    size_t n = strlen(name);
    char **grown = realloc(o->files, (o->nfiles + 1) * sizeof *grown), *shown;

    if (grown == NULL)
        return fail(p, "out of memory");
    o->files = grown;
    /* At most 10 octets shown for one in ("\u{10FFFF}"). */
    if (n > (SIZE_MAX - 1) / 10 || (shown = malloc(10 * n + 1)) == NULL)
        return fail(p, "out of memory");
    idng_display_text(name, n, shown, 10 * n + 1);
    o->files[o->nfiles] = shown;
    *at = (uint32_t)o->nfiles++;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* What a load read, for the watch                                           */

/* The characters that make an include path a pattern. */
static const char glob_chars[] = "*?[{";

static void filesig_of(const struct stat *st, struct idng_filesig *sig)
{
    memset(sig, 0, sizeof *sig);
    sig->dev = st->st_dev;
    sig->ino = st->st_ino;
    sig->size = st->st_size;
    sig->mtime = st->st_mtim;
    sig->ctime = st->st_ctim;
}

void idng_filesig_read(const char *path, struct idng_filesig *sig)
{
    struct stat st;

    memset(sig, 0, sizeof *sig);
    if (!path)
        sig->err = ENOENT;
    else if (stat(path, &st) != 0)
        sig->err = errno;
    else
        filesig_of(&st, sig);
}

int idng_filesig_same(const struct idng_filesig *a, const struct idng_filesig *b)
{
    return a->err == b->err && a->dev == b->dev && a->ino == b->ino && a->size == b->size
           && a->mtime.tv_sec == b->mtime.tv_sec && a->mtime.tv_nsec == b->mtime.tv_nsec
           && a->ctime.tv_sec == b->ctime.tv_sec && a->ctime.tv_nsec == b->ctime.tv_nsec;
}

void idng_conf_sources_free(struct idng_conf_sources *s)
{
    size_t i;

    if (s == NULL)
        return;
    for (i = 0; i < s->n; i++)
        free(s->v[i].path);
    free(s->v);
    s->v = NULL;
    s->n = 0;
}

/* Adds path as sig shows it to s.  0, or -1 when out of memory. */
static int sources_add(struct idng_conf_sources *s, const char *path,
                       const struct idng_filesig *sig)
{
    struct idng_conf_source *grown = realloc(s->v, (s->n + 1) * sizeof *grown);

    if (grown == NULL)
        return -1;
    s->v = grown;
    if ((grown[s->n].path = strdup(path)) == NULL)
        return -1;
    grown[s->n++].sig = *sig;
    return 0;
}

/* Notes a file or directory the load reads or looks in, once, as it is
 * before it is read: st as the open saw it, or (NULL) a look now.  0, or
 * -1 (reported) when out of memory. */
static int note_source(struct pstate *p, const char *path, const struct stat *st)
{
    struct idng_conf_sources *s = &p->c.sources;
    struct idng_filesig sig;
    size_t i;

    for (i = 0; i < s->n; i++)
        if (strcmp(s->v[i].path, path) == 0)
            return 0;
    if (s->n >= IDNG_CONF_SOURCES_MAX) {
        if (!p->sources_full++)
            warn(p,
                 "more than %d settings files and directories to watch: a change of the "
                 "others applies at a reload",
                 IDNG_CONF_SOURCES_MAX);
        return 0;
    }
    if (st)
        filesig_of(st, &sig);
    else
        idng_filesig_read(path, &sig);
    return sources_add(s, path, &sig) == 0 ? 0 : fail(p, "out of memory");
}

/* Notes the directories a pattern looks in: a file made in or removed from
 * one changes it.  The directory part before the first glob character is
 * noted as it is, missing too (made later, it is a change); each longer
 * directory part with glob characters in it, by the directories it
 * matches now (a new one that matches changes the one above it). */
static int note_pattern_dirs(struct pstate *p, const char *pattern)
{
    size_t first = strcspn(pattern, glob_chars), end = strlen(pattern), k, i;
    char *part = strdup(pattern);
    int r;

    if (part == NULL)
        return fail(p, "out of memory");
    while (end > 0 && pattern[end] != '/')
        end--;
    for (k = first < end ? first : end; k > 0 && pattern[k] != '/'; k--)
        ;
    part[k > 0 ? k : 1] = '\0'; /* "/" for a pattern at the root */
    r = note_source(p, part, NULL);
    for (i = k + 1; r == 0 && i <= end; i++) {
        glob_t g;
        size_t m;
        if (pattern[i] != '/')
            continue;
        memcpy(part, pattern, i);
        part[i] = '\0';
        if (glob(part,
                 GLOB_NOSORT
#ifdef GLOB_BRACE
                     | GLOB_BRACE
#endif
#ifdef GLOB_ONLYDIR
                     | GLOB_ONLYDIR
#endif
                 ,
                 NULL, &g)
            != 0)
            continue;
        for (m = 0; m < g.gl_pathc && r == 0; m++)
            r = note_source(p, g.gl_pathv[m], NULL);
        globfree(&g);
    }
    free(part);
    return r;
}

/* Where an earlier entry was set, for "first at ...": "line N" in the file
 * being read, else "FILE:N". */
static const char *first_at(const struct pstate *p, const struct idng_conf_origin *o, char *out,
                            size_t cap)
{
    if (o->file == p->f.file)
        snprintf(out, cap, "line %lu", (unsigned long)o->line);
    else
        idng_conf_origin_text(&p->c, o, out, cap);
    return out;
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

/** How values of one kind are parsed and checked, written back, described
 *  and compared. */
struct kind {
    /** Parses and checks v (n octets, not NUL-terminated) and stores it. */
    int (*set)(struct pstate *p, const struct key *k, const char *v, size_t n);
    /** Writes the key's line(s); -1 if the value has no text form. */
    int (*put)(const struct idng_conf *c, const struct key *k, FILE *f);
    /** The allowed values, for messages ("yes or no"). */
    void (*expect)(const struct key *k, char *out, size_t cap);
    /** Writes the item of idng_conf_diff for the key's change from a to b;
     *  0 when it did not change, 1 when the item is written, -1 when it
     *  could not be (out of memory). */
    int (*diff)(const struct idng_conf *a, const struct idng_conf *b, const struct key *k, FILE *f);
};

/** One row per key. */
struct key {
    const char *name;
    const struct kind *kind;
    size_t off;     /**< offset of the field in struct idng_conf, for simple kinds */
    int arg;        /**< class for on-<class>, ON_INVALID; list 0/1/2 for
                         allow/deny/idn-suffixes */
    unsigned flags; /**< K_* */
};
enum {
    K_REPEAT = 1u << 0,   /**< may appear more than once */
    K_EMPTY_OK = 1u << 1, /**< "" is a meaningful value */
};

#define FIELD(c, k, type) ((type *)(void *)((char *)(c) + (k)->off))
#define CFIELD(c, k, type) ((const type *)(const void *)((const char *)(c) + (k)->off))

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
static int diff_value(const struct idng_conf *a, const struct idng_conf *b, const struct key *k,
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

/* Is the name at w in s? */
static int has_name(const struct idng_nameset *s, const uint8_t *w)
{
    return idng_nameset_find(s, w, idng_wire_len(w, WIRE_MAX)) != IDNG_NAMESET_NONE;
}

/* How many names of s (but those also in s_not, when given) are no names
 * of o (but those also in o_not): the names added going from o to s. */
static size_t names_only_in(const struct idng_nameset *s, const struct idng_nameset *s_not,
                            const struct idng_nameset *o, const struct idng_nameset *o_not)
{
    size_t i, n = 0;

    for (i = 0; i < s->count; i++)
        if (!(s_not != NULL && has_name(s_not, s->names[i]))
            && (!has_name(o, s->names[i]) || (o_not != NULL && has_name(o_not, s->names[i]))))
            n++;
    return n;
}

/* " +ADDED -REMOVED (now COUNT)", a zero count of added or removed left out. */
static int put_tally(FILE *f, size_t added, size_t removed, size_t now)
{
    if (added > 0 && fprintf(f, " +%zu", added) < 0)
        return -1;
    if (removed > 0 && fprintf(f, " -%zu", removed) < 0)
        return -1;
    return fprintf(f, " (now %zu)", now) < 0 ? -1 : 1;
}

/* A list of names: "KEY +ADDED -REMOVED (now COUNT)". */
static int diff_set(const struct idng_nameset *x, const struct idng_nameset *y, const struct key *k,
                    FILE *f)
{
    size_t added = names_only_in(y, NULL, x, NULL), removed = names_only_in(x, NULL, y, NULL);

    if (added == 0 && removed == 0)
        return 0;
    return fputs(k->name, f) == EOF ? -1 : put_tally(f, added, removed, y->count);
}

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

static const struct kind kind_mode = {set_mode, put_mode, expect_mode, diff_value};

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

static const struct kind kind_action = {set_action, put_action, expect_action, diff_value};

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

static const struct kind kind_bool = {set_bool, put_bool, expect_bool, diff_value};

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

static const struct kind kind_log_format = {set_log_format, put_log_format, expect_log_format,
                                            diff_value};

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
                        idng_file_kind((unsigned)st.st_mode));
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
    /* IDNG_CONF_F_CHECK_PATHS: checked once every file is read (check_paths),
     * the value a later file may set instead. */
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

static const struct kind kind_path = {set_path, put_path, expect_path, diff_value};

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

static const struct kind kind_seconds = {set_seconds, put_seconds, expect_seconds, diff_value};

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

static int diff_names(const struct idng_conf *a, const struct idng_conf *b, const struct key *k,
                      FILE *f)
{
    return diff_set(CFIELD(a, k, struct idng_nameset), CFIELD(b, k, struct idng_nameset), k, f);
}

static const struct kind kind_names = {set_name, put_names, expect_name, diff_names};

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
                                             expect_restriction, diff_value};

/* -- protected names: protect (one name) and protect-file (a file of them) -- */

/* Adds one protected name, as written (where: "" for a protect line, else
 * "FILE:LINE: " of the name in a protect-file, whose line is from). */
static int add_protected(struct pstate *p, const struct key *k, const char *v, size_t n,
                         const char *where, const struct idng_conf_origin *from)
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
    if (p->flags & IDNG_CONF_F_ORIGINS) {
        size_t i = p->c.policy.protect.names.count - 1;
        if (note_entry(p, L_PROTECT, i) != 0)
            return -1;
        if (from != NULL)
            p->c.origin.protect[i] = *from;
    }
    if (*where == '\0' && idng_nameset_add(&p->c.protect_lines, wire, wlen, NULL) != 0)
        return fail(p, "out of memory");
    return 0;
}

static int set_protect(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    return add_protected(p, k, v, n, "", NULL);
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

static int diff_protect(const struct idng_conf *a, const struct idng_conf *b, const struct key *k,
                        FILE *f)
{
    return diff_set(&a->protect_lines, &b->protect_lines, k, f);
}

static const struct kind kind_protect = {set_protect, put_protect, expect_protect, diff_protect};

static int read_regular(const char *path, size_t max, const char *what, char **out, size_t *len,
                        const char **why, int *errnum, char *whybuf, size_t whylen,
                        struct stat *st);

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
            return fail(p, "bad script '%s' for '%s': expected %s", echo(e, v + i, j - i),
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
        return fail(p, "bad value '%s' for '%s': expected %s", echo(e, v, n), k->name, x);
    }
    if (name_to_wire(p, k, v, t, wire, &wlen) != 0)
        return -1;
    if (wlen < 2 || wire[0] + 2u != wlen)
        return fail(p, "bad top-level domain '%s' for '%s': give one label", echo(e, v, t),
                    k->name);
    if (n - i == 4 && memcmp(v + i, "none", 4) == 0)
        i = n;
    if (i < n && scripts_value(p, k, v + i, n - i, 0, &scripts) != 0)
        return -1;
    r = idng_protect_tld(&p->c.policy.protect, (const char *)wire + 1, wire[0], scripts);
    if (r == -1)
        return fail(p, "out of memory");
    if (r != 0)
        return fail(p, "bad top-level domain '%s' for '%s'", echo(e, v, t), k->name);
    if (!(p->flags & IDNG_CONF_F_ORIGINS))
        return 0;
    /* The TLD's entry, new or replaced (the label is lowercase either way). */
    for (i = 0; i < p->c.policy.protect.ntld; i++)
        if (p->c.policy.protect.tld[i].len == wire[0]
            && memcmp(p->c.policy.protect.tld[i].label, wire + 1, wire[0]) == 0)
            break;
    return note_entry(p, L_TLD, i);
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
    return fputs(k->name, f) == EOF ? -1 : put_tally(f, added, removed, b->policy.protect.ntld);
}

static const struct kind kind_tld_scripts = {set_tld_scripts, put_tld_scripts, expect_tld_scripts,
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

static const struct kind kind_idn_scripts = {set_idn_scripts, put_idn_scripts,
                                             expect_idn_scripts, diff_value};

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

static const struct kind kind_suffixes = {set_suffixes, put_suffixes, expect_suffixes, diff_value};

/* The octets of a protect-file, malloc'd (NULL after a reported failure). */
static char *read_names_file(struct pstate *p, const struct key *k, const char *path, size_t *len)
{
    char e[ECHO_CAP], whybuf[96];
    const char *why;
    char *buf;
    int errnum;
    struct stat st;
    int r = read_regular(path, IDNG_CONF_NAMES_FILE_MAX, "a file of names", &buf, len, &why,
                         &errnum, whybuf, sizeof whybuf, &st);

    if (note_source(p, path, r == 0 ? &st : NULL) != 0) {
        if (r == 0)
            free(buf);
        return NULL;
    }
    if (r == 0)
        return buf;
    echo(e, path, strlen(path));
    if (errnum != 0)
        fail(p, "%s '%s': %s: %s", k->name, e, why, strerror(errnum));
    else
        fail(p, "%s '%s': %s", k->name, e, why);
    return NULL;
}

/* protect-file: the path only; the file is read once every settings file
 * is (load_protect_file), so that an included file's line replaces the
 * earlier one as for any other key. */
static int set_protect_file(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    char e[ECHO_CAP], x[160];
    const char *why = path_problem(v, n);

    if (why != NULL) {
        k->kind->expect(k, x, sizeof x);
        return fail(p, "%s '%s' %s (expected %s)", k->name, echo(e, v, n), why, x);
    }
    free(p->c.protect_file);
    if ((p->c.protect_file = malloc(n + 1)) == NULL)
        return fail(p, "out of memory");
    memcpy(p->c.protect_file, v, n);
    p->c.protect_file[n] = '\0';
    return 0;
}

/* Reads the protect-file that k (its row) names, reporting at the line that
 * named it. */
static int load_protect_file(struct pstate *p, const struct key *k)
{
    const char *path = p->c.protect_file;
    char e[ECHO_CAP], where[ECHO_CAP + 32];
    char *buf;
    size_t len = 0, pos = 0, i, n = strlen(path);
    unsigned before = p->nerr;
    struct idng_conf_origin from = {0, 0};

    if ((buf = read_names_file(p, k, path, &len)) == NULL)
        return -1;
    /* The daemon reads it again at every reload, as the user it runs as. */
    if (p->flags & IDNG_CONF_F_CHECK_PATHS) {
        struct stat st;
        if (stat(path, &st) == 0 && !may(p, path, &st, R_OK)) {
            free(buf);
            return fail(p, "%s '%s' is not readable (%s%s)", k->name, echo(e, path, n),
                        p->user ? "by user " : "by this user", p->user ? p->user : "");
        }
    }
    if ((p->flags & IDNG_CONF_F_ORIGINS) && add_file(p, path, &from.file) != 0) {
        free(buf);
        return -1;
    }
    /* One name a line; blanks around it, empty lines and '#' comments are
     * ignored.  Every bad line is reported (up to the report's limit), and
     * then nothing is applied. */
    while (pos < len && p->nerr - before < IDNG_CONF_REPORT_MAX) {
        const char *s = buf + pos, *nl = memchr(s, '\n', len - pos), *hash;
        size_t m = nl != NULL ? (size_t)(nl - s) : len - pos;
        pos += m + (nl != NULL);
        from.line++;
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
        snprintf(where, sizeof where, "%s:%lu: ", echo(e, path, n), (unsigned long)from.line);
        for (i = 0; i < m && (unsigned char)s[i] >= 0x20 && s[i] != 0x7F; i++)
            ;
        if (i < m) {
            fail(p, "%scontrol octet 0x%02X in a name", where, (unsigned char)s[i]);
            continue;
        }
        (void)add_protected(p, k, s, m, where, &from);
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

/* Its path ("protect-file OLD -> NEW") and the names read from it, which
 * are the protected names that no protect line gave (a name is protected
 * once): ", names +ADDED -REMOVED (now COUNT)". */
static int diff_protect_file(const struct idng_conf *a, const struct idng_conf *b,
                             const struct key *k, FILE *f)
{
    const struct idng_nameset *na = &a->policy.protect.names, *nb = &b->policy.protect.names;
    size_t added = names_only_in(nb, &b->protect_lines, na, &a->protect_lines);
    size_t removed = names_only_in(na, &a->protect_lines, nb, &b->protect_lines);
    int moved;

    if ((moved = diff_value(a, b, k, f)) < 0)
        return -1;
    if (added == 0 && removed == 0)
        return moved;
    if (fputs(moved ? ", names" : "protect-file names", f) == EOF)
        return -1;
    return put_tally(f, added, removed, nb->count - b->protect_lines.count);
}

static const struct kind kind_protect_file = {set_protect_file, put_protect_file,
                                              expect_protect_file, diff_protect_file};

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
    {"idn-scripts", &kind_idn_scripts, 0, 0, K_REPEAT},
    {"idn-suffixes", &kind_names, offsetof(struct idng_conf, policy.idn_suffixes), 2, K_REPEAT},
};
#define NKEYS (sizeof keys / sizeof keys[0])

_Static_assert(NKEYS <= IDNG_CONF_KEYS_MAX, "IDNG_CONF_KEYS_MAX needs a slot per key row");

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
    char text[WIRE_MAX + 1], at[IDNG_CONF_LINE_MAX + 32];

    if (name_to_wire(p, k, v, n, wire, &wlen) != 0)
        return -1;
    /* An exact repeat is a slip; the same name in allow and deny
     * contradicts itself.  (A name below another listed one is fine: it is
     * how an exception is written.)  One probe of each list's table.
     * idn-suffixes only exempts from one class, which allow and deny do
     * not contradict. */
    for (which = 0; which < 3; which++) {
        const struct idng_conf_origin *first;
        if ((which == 2) != (k->arg == 2))
            continue;
        i = idng_nameset_find(which == 0   ? &p->c.policy.allow
                              : which == 1 ? &p->c.policy.deny
                                           : &p->c.policy.idn_suffixes,
                              wire, wlen);
        if (i == IDNG_NAMESET_NONE)
            continue;
        wire_to_text(wire, text);
        first = &(*list_at(&p->c, name_list(which)))[i];
        if (which == k->arg)
            return fail(p, "duplicate %s name '%s' (first at %s)", k->name, text,
                        first_at(p, first, at, sizeof at));
        return fail(p, "'%s' is in both '%s' (%s) and '%s'; a name can be in one list only", text,
                    list_key_name(which), first_at(p, first, at, sizeof at), k->name);
    }
    /* Always noted: the messages above need them while the file is read. */
    if (note_entry(p, name_list(k->arg), l->count) != 0)
        return -1;
    if (idng_nameset_add(l, wire, wlen, NULL) != 0)
        return fail(p, "out of memory");
    /* The root exempts every name from on-idn: the switch is off, whatever
     * it says.  Allowed (a lab may want it), but said. */
    if (k->arg == 2 && wlen == 1)
        warn(p, "idn-suffixes '.' exempts every name: on-idn refuses and logs nothing");
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
    if (p->f.clause_line != 0)
        return fail(p, "second 'idnguard:' clause (the first is at line %zu)", p->f.clause_line);
    p->f.clause_line = p->f.line;
    return 0;
}

static int include(struct pstate *p, const char *v, size_t n);

static int parse_line(struct pstate *p, const char *s, size_t n)
{
    size_t i = 0, ks, kl, vlen;
    const char *v;
    const struct key *k;
    int quoted = 0;
    char e[ECHO_CAP], x[320];

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
    if (kl == 7 && memcmp(s + ks, "include", 7) == 0)
        return include(p, v, vlen);
    k = find_key(s + ks, kl);
    if (k == NULL) {
        if (vlen == 0 && !quoted)
            return fail(p, "unknown clause '%s:'; this file holds only the 'idnguard:' clause",
                        echo(e, s + ks, kl));
        return fail(p, "unknown key '%s'", echo(e, s + ks, kl));
    }
    if (p->f.clause_line == 0)
        return fail(p, "'%s' comes before the 'idnguard:' clause", k->name);
    /* Once a file: a repeat there is a slip.  Another file may set it
     * again, and then replaces the value (see idng_conf.h). */
    if (!(k->flags & K_REPEAT) && p->f.first_line[k - keys] != 0)
        return fail(p, "duplicate '%s' (first at line %zu)", k->name, p->f.first_line[k - keys]);
    if (vlen == 0 && !(quoted && (k->flags & K_EMPTY_OK))) {
        k->kind->expect(k, x, sizeof x);
        return fail(p, "empty value for '%s' (expected %s)", k->name, x);
    }
    if (k->kind->set(p, k, v, vlen) != 0)
        return -1;
    if (p->f.first_line[k - keys] == 0)
        p->f.first_line[k - keys] = p->f.line;
    p->c.origin.key[k - keys].file = p->f.file;
    p->c.origin.key[k - keys].line = (uint32_t)p->f.line;
    p->key_seq[k - keys] = p->seq;
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
    size_t i;

    if (c == NULL)
        return;
    idng_policy_free(&c->policy);
    idng_nameset_free(&c->protect_lines);
    free(c->log_file);
    free(c->stats_file);
    free(c->tap_stats_file);
    free(c->protect_file);
    for (i = 0; i < c->origin.nfiles; i++)
        free(c->origin.files[i]);
    free(c->origin.files);
    free(c->origin.allow);
    free(c->origin.deny);
    free(c->origin.protect);
    free(c->origin.tld);
    free(c->origin.idn_suffixes);
    idng_conf_sources_free(&c->sources);
    idng_conf_init(c);
}

static int read_regular(const char *path, size_t max, const char *what, char **out, size_t *len,
                        const char **why, int *errnum, char *whybuf, size_t whylen,
                        struct stat *st);

/* The lines of one file (the first, or one included): every problem is
 * reported, lines being independent. */
static void parse_text(struct pstate *p, const char *buf, size_t len)
{
    size_t pos = 0;
    unsigned before = p->nerr;

    /* Editors on some systems start UTF-8 files with a byte order mark. */
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
        pos = 3;
    while (pos < len) {
        const char *s = buf + pos, *nl = memchr(s, '\n', len - pos);
        size_t n = nl != NULL ? (size_t)(nl - s) : len - pos;

        p->f.line++;
        p->seq++;
        pos += n + (nl != NULL);
        if (nl != NULL && n > 0 && s[n - 1] == '\r')
            n--;
        (void)parse_line(p, s, n);
    }
    if (p->f.clause_line == 0 && p->nerr == before)
        fail(p, "no 'idnguard:' clause (wrong file? settings must follow a line 'idnguard:')");
}

/* A settings file read before: 0, or -1 (reported) when it is one being
 * read (a cycle) or read already. */
static int read_once(struct pstate *p, const char *shown, const struct stat *st)
{
    char at[IDNG_CONF_LINE_MAX + 32];
    size_t i;

    for (i = 0; i < p->nids; i++) {
        if (p->ids[i].dev != st->st_dev || p->ids[i].ino != st->st_ino)
            continue;
        if (p->ids[i].open)
            return fail(p, "include '%s': it is being read already (an include cycle)", shown);
        return fail(p, "include '%s': included already (at %s); a file is read once", shown,
                    first_at(p, &p->ids[i].from, at, sizeof at));
    }
    return 0;
}

/* Notes a settings file as being read; its index in p->ids, or -1. */
static long note_id(struct pstate *p, const struct stat *st)
{
    struct file_id *grown;

    if (p->nids == p->ids_cap) {
        size_t cap = p->ids_cap ? 2 * p->ids_cap : 4;
        if ((grown = realloc(p->ids, cap * sizeof *grown)) == NULL)
            return fail(p, "out of memory");
        p->ids = grown;
        p->ids_cap = cap;
    }
    p->ids[p->nids].dev = st->st_dev;
    p->ids[p->nids].ino = st->st_ino;
    p->ids[p->nids].open = 1;
    p->ids[p->nids].from.file = p->f.file;
    p->ids[p->nids].from.line = (uint32_t)p->f.line;
    return (long)p->nids++;
}

/* Reads one included file where its include line stands.  shown: the
 * path as messages show it. */
static int include_file(struct pstate *p, const char *path, const char *shown)
{
    struct file_state *saved;
    struct stat st;
    char *buf, whybuf[96];
    const char *why;
    size_t len;
    int errnum, r;
    long id;
    uint32_t file;

    if (p->depth >= IDNG_CONF_INCLUDE_DEPTH)
        return fail(p, "include '%s': includes nest deeper than %d", shown,
                    IDNG_CONF_INCLUDE_DEPTH);
    r = read_regular(path, p->budget, "a settings file", &buf, &len, &why, &errnum, whybuf,
                     sizeof whybuf, &st);
    if (note_source(p, path, r == 0 ? &st : NULL) != 0) {
        if (r == 0)
            free(buf);
        return -1;
    }
    if (r == -2)
        return fail(p, "include '%s': too big; the settings files together may hold %d octets",
                    shown, IDNG_CONF_FILE_MAX);
    if (r != 0)
        return errnum ? fail(p, "include '%s': %s: %s", shown, why, strerror(errnum))
                      : fail(p, "include '%s': %s", shown, why);
    if (read_once(p, shown, &st) != 0 || add_file(p, path, &file) != 0 || (id = note_id(p, &st)) < 0
        || (saved = malloc(sizeof *saved)) == NULL) {
        free(buf);
        return p->nerr > 0 ? -1 : fail(p, "out of memory");
    }
    /* The daemon reads it at every load, as the user it runs as. */
    if ((p->flags & IDNG_CONF_F_CHECK_PATHS) && !may(p, path, &st, R_OK))
        fail(p, "include '%s' is not readable (%s%s)", shown, p->user ? "by user " : "by this user",
             p->user ? p->user : "");
    *saved = p->f;
    memset(&p->f, 0, sizeof p->f);
    p->f.fname = p->c.origin.files[file];
    p->f.file = file;
    p->budget -= len;
    p->depth++;
    parse_text(p, buf, len);
    p->depth--;
    p->f = *saved;
    p->ids[id].open = 0;
    free(saved);
    free(buf);
    return 0;
}

static int by_bytes(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* glob(3) reports a directory it cannot read here: a missing one is no
 * match, as a pattern that matches nothing is; any other failure stops
 * the glob.  (glob takes no context: the thread's own copy.) */
static _Thread_local int glob_errnum;

static int glob_error(const char *epath, int errnum)
{
    (void)epath;
    glob_errnum = errnum;
    return errnum != ENOENT && errnum != ENOTDIR;
}

/* include: PATH (see idng_conf.h): a file, or a glob pattern's matches in
 * byte order. */
static int include(struct pstate *p, const char *v, size_t n)
{
    char e[ECHO_CAP], *path;
    const char *why;
    glob_t g;
    size_t i;
    int r;

    if (n == 0)
        return fail(p, "empty value for 'include' (expected an absolute path, or a pattern "
                       "such as /etc/unbound/idnguard.conf.d/*.conf)");
    if ((why = path_problem(v, n)) != NULL)
        return fail(p,
                    "include '%s' %s (expected an absolute path, or a pattern such as "
                    "/etc/unbound/idnguard.conf.d/*.conf)",
                    echo(e, v, n), why);
    if (p->flags & IDNG_CONF_F_NO_INCLUDE)
        return 0;
    if ((path = malloc(n + 1)) == NULL)
        return fail(p, "out of memory");
    memcpy(path, v, n); /* v may be p->vbuf, which the included lines reuse */
    path[n] = '\0';
    echo(e, path, n);
    if (strpbrk(path, glob_chars) == NULL) {
        r = include_file(p, path, e);
        free(path);
        return r;
    }
    if (note_pattern_dirs(p, path) != 0) {
        free(path);
        return -1;
    }
    glob_errnum = 0;
    r = glob(path,
             GLOB_NOSORT
#ifdef GLOB_BRACE
                 | GLOB_BRACE
#endif
             ,
             glob_error, &g);
    free(path);
    if (r == GLOB_NOMATCH)
        return 0;
    if (r == GLOB_ABORTED)
        return fail(p, "include '%s': cannot read a directory: %s", e, strerror(glob_errnum));
    if (r != 0)
        return fail(p, "out of memory");
    /* Byte order, whatever the locale: the order settings are read in. */
    qsort(g.gl_pathv, g.gl_pathc, sizeof *g.gl_pathv, by_bytes);
    r = 0;
    for (i = 0; i < g.gl_pathc; i++) {
        char m[ECHO_CAP];
        if (include_file(p, g.gl_pathv[i], echo(m, g.gl_pathv[i], strlen(g.gl_pathv[i]))) != 0)
            r = -1;
    }
    globfree(&g);
    return r;
}

/*
 * The files the settings name are distinct: a file one of them writes
 * (log-file, stats-file, tap-stats-file) is none of the others, so that the
 * module and the tap never replace each other's counters and no stats file
 * lands on the query log or on the names of protect-file.  Reported at the
 * line of the key read later (in whichever file), once every file is read.
 */
static void check_distinct_files(struct pstate *p)
{
    static const char *const names[] = {"log-file", "stats-file", "tap-stats-file",
                                        "protect-file"};
    const char *paths[4];
    size_t i, j, row[4];
    char at[IDNG_CONF_LINE_MAX + 32];

    paths[0] = p->c.log_file;
    paths[1] = p->c.stats_file;
    paths[2] = p->c.tap_stats_file;
    paths[3] = p->c.protect_file;
    for (i = 0; i < 4; i++)
        row[i] = (size_t)(find_key(names[i], strlen(names[i])) - keys);
    for (i = 0; i < 3; i++) /* protect-file is only read: it is never the later one */
        for (j = i + 1; j < 4; j++)
            if (idng_conf_same_file(paths[i], paths[j])) {
                size_t later = j < 3 && p->key_seq[row[j]] > p->key_seq[row[i]] ? j : i;
                size_t other = later == i ? j : i;
                const struct idng_conf_origin *o = &p->c.origin.key[row[later]];
                p->f.fname = p->c.origin.files[o->file];
                p->f.file = o->file;
                p->f.line = o->line;
                fail(p, "%s '%s' is the file of %s (%s): %s", names[later], paths[later],
                     names[other], first_at(p, &p->c.origin.key[row[other]], at, sizeof at),
                     other != 3   ? "each needs a file of its own, or one would replace the "
                                    "other's lines or counters"
                     : later == 0 ? "the query log would be written over the protected names"
                                  : "the counters would be written over the protected names");
            }
}

/* What waits until every file is read: the path checks of the files the
 * daemon writes, and the protect-file, each reported at the line that set
 * it (the last one, when files set it again). */
static void finish(struct pstate *p)
{
    size_t i;

    if (p->nerr == 0)
        check_distinct_files(p);
    for (i = 0; i < NKEYS; i++) {
        const struct idng_conf_origin *o = &p->c.origin.key[i];
        int is_path = keys[i].kind == &kind_path;
        if (!(is_path && (p->flags & IDNG_CONF_F_CHECK_PATHS) && *CFIELD(&p->c, &keys[i], char *))
            && !(keys[i].kind == &kind_protect_file && p->c.protect_file))
            continue;
        p->f.fname = p->c.origin.files[o->file];
        p->f.file = o->file;
        p->f.line = o->line;
        if (is_path)
            (void)check_path(p, &keys[i], *CFIELD(&p->c, &keys[i], char *));
        else
            (void)load_protect_file(p, &keys[i]);
    }
}

/* idn-scripts and idn-suffixes while on-idn is pass (its default) exempt
 * nothing: a warning at the first of them, the file still loads. */
static void idn_unused(struct pstate *p)
{
    size_t i, first = NKEYS;

    if (p->explicit_action[IDNG_C_IDN] && p->c.policy.action[IDNG_C_IDN] != IDNG_ACT_PASS)
        return;
    for (i = 0; i < NKEYS; i++)
        if ((keys[i].kind == &kind_idn_scripts
             || (keys[i].kind == &kind_names && keys[i].arg == 2))
            && p->key_seq[i] != 0 && (first == NKEYS || p->key_seq[i] < p->key_seq[first]))
            first = i;
    if (first == NKEYS)
        return;
    p->f.fname = p->c.origin.files[p->c.origin.key[first].file];
    p->f.file = p->c.origin.key[first].file;
    p->f.line = p->c.origin.key[first].line;
    warn(p, "idn-scripts and idn-suffixes exempt nothing while on-idn is pass");
}

static int parse(struct idng_conf *c, const char *buf, size_t len, const char *fname,
                 const struct stat *id, unsigned flags, const char *user,
                 struct idng_conf_sources *tried, char *err, size_t errlen);

int idng_conf_parse(struct idng_conf *c, const char *buf, size_t len, const char *fname, char *err,
                    size_t errlen)
{
    return idng_conf_parse_flags(c, buf, len, fname, 0, err, errlen);
}

int idng_conf_parse_flags(struct idng_conf *c, const char *buf, size_t len, const char *fname,
                          unsigned flags, char *err, size_t errlen)
{
    return parse(c, buf, len, fname, NULL, flags, NULL, NULL, err, errlen);
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

/* id: the file's device and inode when it was read from one, so that an
 * include of it is refused; NULL for text from memory.  tried: NULL, or
 * what a failed parse read, for the watch. */
static int parse(struct idng_conf *c, const char *buf, size_t len, const char *fname,
                 const struct stat *id, unsigned flags, const char *user,
                 struct idng_conf_sources *tried, char *err, size_t errlen)
{
    struct pstate *p;
    int rc = -1, list;

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
    p->f.fname = fname != NULL ? fname : "config";
    p->err = err;
    p->errlen = errlen;
    p->flags = flags;
    p->user = user;
    p->budget = IDNG_CONF_FILE_MAX - (len < IDNG_CONF_FILE_MAX ? len : IDNG_CONF_FILE_MAX);
    if (c == NULL || (buf == NULL && len > 0)) {
        fail(p, "invalid argument");
        goto out;
    }
    if (add_file(p, p->f.fname, &p->f.file) != 0 || (id != NULL && note_id(p, id) < 0)
        || (id != NULL && note_source(p, fname, id) != 0))
        goto out;
    p->f.fname = p->c.origin.files[p->f.file];
    parse_text(p, buf, len);
    finish(p);
    if (p->nerr > 0)
        goto out;
    idn_unused(p);
    idng_policy_resolve(&p->c.policy, p->explicit_action);
    if (!(flags & IDNG_CONF_F_ORIGINS))
        for (list = 0; list < N_LISTS; list++) {
            free(*list_at(&p->c, list));
            *list_at(&p->c, list) = NULL;
        }
    idng_conf_free(c);
    *c = p->c;
    idng_conf_init(&p->c); /* now owned by c */
    rc = 0;
out:
    if (rc != 0 && tried != NULL) {
        *tried = p->c.sources;
        memset(&p->c.sources, 0, sizeof p->c.sources);
    }
    idng_conf_free(&p->c);
    free(p->ids);
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
 * (*out, *len), and its stat into *st.  On failure returns -1 (-2: it is
 * over max) with *why set to a phrase ("cannot open", "is not a regular
 * file", ...; what for a directory: "is a directory, not <what>") and
 * *errnum to an errno value or 0; whybuf holds phrases with numbers in
 * them.
 */
static int read_regular(const char *path, size_t max, const char *what, char **out, size_t *len,
                        const char **why, int *errnum, char *whybuf, size_t whylen, struct stat *st)
{
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
    if (fstat(fd, st) != 0) {
        *why = "cannot stat";
        *errnum = errno;
        close(fd);
        return -1;
    }
    if (!S_ISREG(st->st_mode)) {
        snprintf(whybuf, whylen, "is a directory, not %s", what);
        *why = S_ISDIR(st->st_mode) ? whybuf : "is not a regular file";
        close(fd);
        return -1;
    }
    if ((unsigned long long)st->st_size > max) {
        snprintf(whybuf, whylen, "too big (%lld octets; the limit is %zu)", (long long)st->st_size,
                 max);
        *why = whybuf;
        close(fd);
        return -2;
    }
    /* One more than the size, so a file that grew is noticed. */
    cap = (size_t)st->st_size + 1;
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
                return -2;
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

/* idng_conf_check_file, and what a failed load read into tried (NULL:
 * not wanted). */
static int load(struct idng_conf *c, const char *path, unsigned flags, const char *user,
                struct idng_conf_sources *tried, char *err, size_t errlen)
{
    char *buf, whybuf[96];
    const char *why;
    size_t got;
    struct stat st;
    int rc, errnum;

    if (path == NULL || path[0] == '\0')
        return load_fail(err, errlen, "(no path)", "no settings file given", 0);
    if (read_regular(path, IDNG_CONF_FILE_MAX, "a settings file", &buf, &got, &why, &errnum, whybuf,
                     sizeof whybuf, &st)
        != 0) {
        struct idng_filesig sig;
        idng_filesig_read(path, &sig);
        if (tried != NULL)
            (void)sources_add(tried, path, &sig); /* out of memory: the watch looks at path */
        return load_fail(err, errlen, path, why, errnum);
    }
    rc = parse(c, buf, got, path, &st, flags, user, tried, err, errlen);
    free(buf);
    return rc;
}

int idng_conf_check_file(struct idng_conf *c, const char *path, unsigned flags, const char *user,
                         char *err, size_t errlen)
{
    return load(c, path, flags, user, NULL, err, errlen);
}

int idng_conf_load_sources(struct idng_conf *c, const char *path, unsigned flags,
                           struct idng_conf_sources *tried, char *err, size_t errlen)
{
    idng_conf_sources_free(tried);
    return load(c, path, flags, NULL, tried, err, errlen);
}

const char *idng_conf_path(void)
{
    const char *e = getenv(IDNG_CONF_ENV);
    return e != NULL && e[0] != '\0' ? e : IDNG_CONF_DEFAULT_PATH;
}

static int put_row_origins(const struct idng_conf *c, size_t row, FILE *f);

/* The clause line, then every active row's lines, with origins or not. */
static int write_rows(const struct idng_conf *c, FILE *f, int origins)
{
    size_t i;

    if (c == NULL || f == NULL)
        return -1;
    if (fputs("idnguard:\n", f) == EOF)
        return -1;
    for (i = 0; i < NKEYS; i++)
        if (row_active(&keys[i])
            && (origins ? put_row_origins(c, i, f) : keys[i].kind->put(c, &keys[i], f)) != 0)
            return -1;
    return ferror(f) ? -1 : 0;
}

int idng_conf_write(const struct idng_conf *c, FILE *f)
{
    return write_rows(c, f, 0);
}

/* The lines one row writes, each followed by where it was set: the row's
 * own origin, or for a list each entry's (comment lines get none). */
static int put_row_origins(const struct idng_conf *c, size_t row, FILE *f)
{
    const struct key *k = &keys[row];
    const struct idng_conf_origin *entries = NULL;
    char *text = NULL, *s, at[IDNG_CONF_LINE_MAX + 32];
    size_t len = 0, i = 0;
    FILE *m = open_memstream(&text, &len);
    int rc = -1;

    if (m == NULL)
        return -1;
    if (k->kind->put(c, k, m) != 0) {
        fclose(m);
        free(text);
        return -1;
    }
    if (fclose(m) != 0)
        return -1;
    if (k->kind == &kind_names)
        entries = k->arg == 0   ? c->origin.allow
                  : k->arg == 1 ? c->origin.deny
                                : c->origin.idn_suffixes;
    else if (k->kind == &kind_protect)
        entries = c->origin.protect; /* the protect lines come first */
    else if (k->kind == &kind_tld_scripts)
        entries = c->origin.tld;
    for (s = text; *s != '\0';) {
        char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        const struct idng_conf_origin *o = NULL;
        int comment = strspn(s, " ") < n && s[strspn(s, " ")] == '#';

        if (!comment)
            /* idn-scripts gathers its lines into one: the last line that
             * added to it. */
            o = k->flags & K_REPEAT && k->kind != &kind_idn_scripts
                    ? (entries ? &entries[i++] : NULL)
                    : &c->origin.key[row];
        if (fwrite(s, 1, n, f) != n)
            goto out;
        if (o != NULL && o->line > 0) {
            idng_conf_origin_text(c, o, at, sizeof at);
            if (fprintf(f, "  # %s", at) < 0)
                goto out;
        }
        if (putc('\n', f) == EOF)
            goto out;
        s += n + (nl != NULL);
    }
    rc = 0;
out:
    free(text);
    return rc;
}

int idng_conf_write_origins(const struct idng_conf *c, FILE *f)
{
    return write_rows(c, f, 1);
}

int idng_conf_key_origin(const struct idng_conf *c, const char *key, struct idng_conf_origin *o)
{
    const struct key *k = find_key(key, strlen(key));

    o->file = o->line = 0;
    if (k == NULL)
        return -1;
    *o = c->origin.key[k - keys];
    return o->line > 0;
}

size_t idng_conf_origin_text(const struct idng_conf *c, const struct idng_conf_origin *o, char *out,
                             size_t cap)
{
    int w;

    if (cap == 0)
        return 0;
    if (o->line == 0 || o->file >= c->origin.nfiles)
        w = snprintf(out, cap, "default");
    else
        w = snprintf(out, cap, "%s:%lu", c->origin.files[o->file], (unsigned long)o->line);
    return w < 0 ? 0 : (size_t)w < cap ? (size_t)w : cap - 1;
}

int idng_conf_logs(const struct idng_conf *c, const struct idng_verdict *v)
{
    return c->log_queries || (c->log_rejected && idng_action_rejects(v->action))
           || (idng_verdict_interesting(v) && v->action == IDNG_ACT_LOG);
}

/* Copies the line of n items (ends[i]: where item i ends in it) into buf,
 * cut after a whole item when it does not fit (idng_conf_diff). */
static size_t put_items(const char *line, size_t len, const size_t *ends, size_t n, char *buf,
                        size_t cap)
{
    size_t keep = 0, i;

    if (cap == 0)
        return len;
    if (len < cap) {
        memcpy(buf, line, len + 1);
        return len;
    }
    for (i = 0; i < n && ends[i] + 5 < cap; i++) /* room for "; ..." and the NUL */
        keep = ends[i];
    if (keep > 0) {
        memcpy(buf, line, keep);
        memcpy(buf + keep, "; ...", 6);
    } else if (cap >= 4) {
        memcpy(buf, "...", 4);
    } else {
        buf[0] = '\0';
    }
    return len;
}

size_t idng_conf_diff(const struct idng_conf *old, const struct idng_conf *now, char *buf,
                      size_t cap)
{
    static const char none[] = "no change", unknown[] = "changes unknown (out of memory)";
    size_t ends[NKEYS], n = 0, len = 0, i;
    char *line = NULL;
    FILE *f = open_memstream(&line, &len);
    int failed = f == NULL;

    for (i = 0; i < NKEYS && !failed; i++) {
        char *item = NULL;
        size_t ilen = 0;
        FILE *g;
        int r;

        if (!row_active(&keys[i]))
            continue;
        if ((g = open_memstream(&item, &ilen)) == NULL) {
            failed = 1;
            break;
        }
        r = keys[i].kind->diff(old, now, &keys[i], g);
        if (fclose(g) != 0)
            r = -1;
        if (r > 0 && fprintf(f, "%s%s", n > 0 ? "; " : "", item) < 0)
            r = -1;
        if (r > 0) {
            ends[n] = (n > 0 ? ends[n - 1] + 2 : 0) + ilen;
            n++;
        }
        failed = r < 0;
        free(item);
    }
    if (f != NULL && fclose(f) != 0)
        failed = 1;
    if (failed || n == 0) {
        const char *text = failed ? unknown : none;
        size_t tl = strlen(text);
        free(line);
        return put_items(text, tl, &tl, 1, buf, cap);
    }
    len = put_items(line, len, ends, n, buf, cap);
    free(line);
    return len;
}
