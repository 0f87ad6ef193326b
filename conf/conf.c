/**
 * \file
 * idnguard configuration: the parse (see idng_conf.h for the syntax and
 * conf/idnguard.conf.example for the keys): its messages, where each
 * setting came from, and the checks that wait until every file is read.
 * What the parser's files share: idng_conf_internal.h.
 */
#include "idng_conf_internal.h"

#include <stdlib.h>
#include <string.h>

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
        char e[ECHO_CAP];
        w = snprintf(line, sizeof line, "%s:%zu: ", p->f.fname, p->f.line > 0 ? p->f.line : 1);
        if (p->where != NULL && w >= 0 && (size_t)w < sizeof line)
            w += snprintf(line + w, sizeof line - (size_t)w,
                          "%s:%zu: ", conf_echo(e, p->where, strlen(p->where)), p->where_line);
        if (warning && w >= 0 && (size_t)w < sizeof line)
            w += snprintf(line + w, sizeof line - (size_t)w, "warning: ");
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
int conf_fail(struct pstate *p, const char *fmt, ...) PRINTF_LIKE(2, 3);
int conf_fail(struct pstate *p, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    report(p, 0, fmt, ap);
    va_end(ap);
    p->nerr++;
    return -1;
}

/* A warning: reported, counted; the file still loads. */
void conf_warn(struct pstate *p, const char *fmt, ...) PRINTF_LIKE(2, 3);
void conf_warn(struct pstate *p, const char *fmt, ...)
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
const char *conf_echo(char out[ECHO_CAP], const char *v, size_t n)
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

/* ------------------------------------------------------------------------ */
/* Origins                                                                   */

/* Where list's entries' origins are kept in c. */
struct idng_conf_origin **conf_list_at(struct idng_conf *c, int list)
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

/* The line being read is where entry i of list was set; 0, or -1 (out of
 * memory, reported). */
int conf_note_entry(struct pstate *p, int list, size_t i)
{
    struct idng_conf_origin **at = conf_list_at(&p->c, list), *grown;
    size_t cap = p->at_cap[list] ? p->at_cap[list] : 8;

    if (i >= p->at_cap[list]) {
        while (cap <= i)
            cap *= 2;
        if ((grown = realloc(*at, cap * sizeof *grown)) == NULL)
            return conf_fail(p, "out of memory");
        *at = grown;
        p->at_cap[list] = cap;
    }
    (*at)[i].file = p->f.file;
    (*at)[i].line = (uint32_t)p->f.line;
    return 0;
}

/* Adds a file to c's files, named as the display unit shows it; its index
 * in *at.  0, or -1 (out of memory, reported). */
int conf_add_file(struct pstate *p, const char *name, uint32_t *at)
{
    struct idng_conf_origins *o = &p->c.origin;
    size_t n = strlen(name);
    char **grown = realloc(o->files, (o->nfiles + 1) * sizeof *grown), *shown;

    if (grown == NULL)
        return conf_fail(p, "out of memory");
    o->files = grown;
    /* At most 10 octets shown for one in ("\u{10FFFF}"). */
    if (n > (SIZE_MAX - 1) / 10 || (shown = malloc(10 * n + 1)) == NULL)
        return conf_fail(p, "out of memory");
    idng_display_text(name, n, shown, 10 * n + 1);
    o->files[o->nfiles] = shown;
    *at = (uint32_t)o->nfiles++;
    return 0;
}

/* Where an earlier entry was set, for "first at ...": "line N" in the file
 * being read (unless a file of names is: its lines are no settings lines),
 * else "FILE:N". */
const char *conf_first_at(const struct pstate *p, const struct idng_conf_origin *o, char *out,
                            size_t cap)
{
    if (o->file == p->f.file && p->where == NULL)
        snprintf(out, cap, "line %lu", (unsigned long)o->line);
    else
        idng_conf_origin_text(&p->c, o, out, cap);
    return out;
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

static void files_free(struct idng_conf_files *l)
{
    size_t i;

    for (i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    free(l->from);
}

void idng_conf_free(struct idng_conf *c)
{
    size_t i;

    if (c == NULL)
        return;
    idng_policy_free(&c->policy);
    idng_nameset_free(&c->protect_lines);
    files_free(&c->allow_files);
    files_free(&c->deny_files);
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

/* Reports that the file of the writer key (log-file, stats-file or
 * tap-stats-file) is a file the settings read: at the writer's line, since
 * the file read is never the one in the wrong. */
static void fail_written_over(struct pstate *p, const char *writer, const char *path,
                              const struct idng_conf_origin *wo, const char *reader,
                              const struct idng_conf_origin *ro, const char *names)
{
    char at[IDNG_CONF_LINE_MAX + 32];

    p->f.fname = p->c.origin.files[wo->file];
    p->f.file = wo->file;
    p->f.line = wo->line;
    conf_fail(p, "%s '%s' is the file of %s (%s): the %s would be written over the %s names",
              writer, path, reader, conf_first_at(p, ro, at, sizeof at),
              strcmp(writer, "log-file") == 0 ? "query log" : "counters", names);
}

/*
 * The files the settings name are distinct: a file one of them writes
 * (log-file, stats-file, tap-stats-file) is none of the others, so that the
 * module and the tap never replace each other's counters, and none of the
 * files of names the settings read (protect-file, every allow-file and
 * deny-file), so that no log or counters land on a list.  Two writers are
 * reported at the line of the key read later (in whichever file); a writer
 * and a list at the writer's line.  Done once every file is read.
 */
static void check_distinct_files(struct pstate *p)
{
    static const char *const names[] = {"log-file", "stats-file", "tap-stats-file"};
    const struct idng_conf_files *lists[] = {&p->c.allow_files, &p->c.deny_files};
    static const char *const list_key[] = {"allow-file", "deny-file"};
    static const char *const list_names[] = {"allowed", "denied"};
    const char *paths[3];
    size_t i, j, n, row[3], prow;
    char at[IDNG_CONF_LINE_MAX + 32];

    paths[0] = p->c.log_file;
    paths[1] = p->c.stats_file;
    paths[2] = p->c.tap_stats_file;
    for (i = 0; i < 3; i++)
        row[i] = (size_t)(conf_find_key(names[i], strlen(names[i])) - conf_keys);
    prow = (size_t)(conf_find_key("protect-file", strlen("protect-file")) - conf_keys);
    for (i = 0; i < 3; i++) {
        const struct idng_conf_origin *wo = &p->c.origin.key[row[i]];
        for (j = i + 1; j < 3; j++)
            if (idng_conf_same_file(paths[i], paths[j])) {
                size_t later = p->key_seq[row[j]] > p->key_seq[row[i]] ? j : i;
                size_t other = later == i ? j : i;
                const struct idng_conf_origin *o = &p->c.origin.key[row[later]];
                p->f.fname = p->c.origin.files[o->file];
                p->f.file = o->file;
                p->f.line = o->line;
                conf_fail(p,
                          "%s '%s' is the file of %s (%s): each needs a file of its own, or one "
                          "would replace the other's lines or counters",
                          names[later], paths[later], names[other],
                          conf_first_at(p, &p->c.origin.key[row[other]], at, sizeof at));
            }
        if (idng_conf_same_file(paths[i], p->c.protect_file))
            fail_written_over(p, names[i], paths[i], wo, "protect-file", &p->c.origin.key[prow],
                              "protected");
        for (j = 0; j < 2; j++)
            for (n = 0; n < lists[j]->n; n++)
                if (idng_conf_same_file(paths[i], lists[j]->v[n]))
                    fail_written_over(p, names[i], paths[i], wo, list_key[j], &lists[j]->from[n],
                                      list_names[j]);
    }
}

/* Reads the files of an allow-file or deny-file row, each reported at
 * the line that named it. */
static void load_list_files(struct pstate *p, const struct key *k)
{
    const struct idng_conf_files *l = CFIELD(&p->c, k, struct idng_conf_files);
    size_t i;

    for (i = 0; i < l->n; i++) {
        p->f.fname = p->c.origin.files[l->from[i].file];
        p->f.file = l->from[i].file;
        p->f.line = l->from[i].line;
        (void)conf_load_names(p, k, l->v[i], conf_add_listed);
    }
}

/* What waits until every file is read: the path checks of the files the
 * daemon writes, the protect-file, and the allow-files and deny-files,
 * each reported at the line that set it (the last one, when files set it
 * again). */
static void finish(struct pstate *p)
{
    size_t i, allow_lines = p->c.policy.allow.count, deny_lines = p->c.policy.deny.count;

    if (p->nerr == 0)
        check_distinct_files(p);
    for (i = 0; i < NKEYS; i++)
        if (conf_keys[i].kind == &conf_kind_names_file)
            load_list_files(p, &conf_keys[i]);
    p->c.allow_from_files = p->c.policy.allow.count - allow_lines;
    p->c.deny_from_files = p->c.policy.deny.count - deny_lines;
    for (i = 0; i < NKEYS; i++) {
        const struct idng_conf_origin *o = &p->c.origin.key[i];
        int is_path = conf_keys[i].kind == &conf_kind_path;
        if (!(is_path && (p->flags & IDNG_CONF_F_CHECK_PATHS)
              && *CFIELD(&p->c, &conf_keys[i], char *))
            && !(conf_keys[i].kind == &conf_kind_protect_file && p->c.protect_file))
            continue;
        p->f.fname = p->c.origin.files[o->file];
        p->f.file = o->file;
        p->f.line = o->line;
        if (is_path)
            (void)conf_check_path(p, &conf_keys[i], *CFIELD(&p->c, &conf_keys[i], char *));
        else
            (void)conf_load_names(p, &conf_keys[i], p->c.protect_file, conf_add_protected);
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
        if ((conf_keys[i].kind == &conf_kind_idn_scripts
             || (conf_keys[i].kind == &conf_kind_names && conf_keys[i].arg == 2))
            && p->key_seq[i] != 0 && (first == NKEYS || p->key_seq[i] < p->key_seq[first]))
            first = i;
    if (first == NKEYS)
        return;
    p->f.fname = p->c.origin.files[p->c.origin.key[first].file];
    p->f.file = p->c.origin.key[first].file;
    p->f.line = p->c.origin.key[first].line;
    conf_warn(p, "idn-scripts and idn-suffixes exempt nothing while on-idn is pass");
}

int idng_conf_parse(struct idng_conf *c, const char *buf, size_t len, const char *fname, char *err,
                    size_t errlen)
{
    return idng_conf_parse_flags(c, buf, len, fname, 0, err, errlen);
}

int idng_conf_parse_flags(struct idng_conf *c, const char *buf, size_t len, const char *fname,
                          unsigned flags, char *err, size_t errlen)
{
    return conf_parse(c, buf, len, fname, NULL, flags, NULL, NULL, err, errlen);
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

const char *idng_conf_file_key(const struct idng_conf *c, const char *path)
{
    const struct {
        const char *key, *path;
    } one[] = {{"stats-file", c->stats_file},
               {"log-file", c->log_file},
               {"protect-file", c->protect_file}};
    const struct idng_conf_files *lists[] = {&c->allow_files, &c->deny_files};
    static const char *const list_key[] = {"allow-file", "deny-file"};
    size_t i, n;

    for (i = 0; i < sizeof one / sizeof one[0]; i++)
        if (idng_conf_same_file(path, one[i].path))
            return one[i].key;
    for (i = 0; i < 2; i++)
        for (n = 0; n < lists[i]->n; n++)
            if (idng_conf_same_file(path, lists[i]->v[n]))
                return list_key[i];
    return NULL;
}

/* id: the file's device and inode when it was read from one, so that an
 * include of it is refused; NULL for text from memory.  tried: NULL, or
 * what a failed parse read, for the watch. */
int conf_parse(struct idng_conf *c, const char *buf, size_t len, const char *fname,
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
        conf_fail(p, "invalid argument");
        goto out;
    }
    if (conf_add_file(p, p->f.fname, &p->f.file) != 0 || (id != NULL && conf_note_id(p, id) < 0)
        || (id != NULL && conf_note_source(p, fname, id) != 0))
        goto out;
    p->f.fname = p->c.origin.files[p->f.file];
    conf_parse_text(p, buf, len);
    finish(p);
    if (p->nerr > 0)
        goto out;
    idn_unused(p);
    idng_policy_resolve(&p->c.policy, p->explicit_action);
    if (!(flags & IDNG_CONF_F_ORIGINS))
        for (list = 0; list < N_LISTS; list++) {
            free(*conf_list_at(&p->c, list));
            *conf_list_at(&p->c, list) = NULL;
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

int idng_conf_logs(const struct idng_conf *c, const struct idng_verdict *v)
{
    return c->log_queries || (c->log_rejected && idng_action_rejects(v->action))
           || (idng_verdict_interesting(v) && v->action == IDNG_ACT_LOG);
}
