/**
 * \file
 * The settings files: reading them, include, the files of names, the
 * checks of the files the daemon opens, and what a load read (for the
 * watch).
 */
#define _DEFAULT_SOURCE /* getgrouplist */
#include "idng_conf_internal.h"
#include "idng_out.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
int conf_note_source(struct pstate *p, const char *path, const struct stat *st)
{
    struct idng_conf_sources *s = &p->c.sources;
    struct idng_filesig sig;
    size_t i;

    for (i = 0; i < s->n; i++)
        if (strcmp(s->v[i].path, path) == 0)
            return 0;
    if (s->n >= IDNG_CONF_SOURCES_MAX) {
        if (!p->sources_full++)
            conf_warn(p,
                 "more than %d settings files and directories to watch: a change of the "
                 "others applies at a reload",
                 IDNG_CONF_SOURCES_MAX);
        return 0;
    }
    if (st)
        filesig_of(st, &sig);
    else
        idng_filesig_read(path, &sig);
    return sources_add(s, path, &sig) == 0 ? 0 : conf_fail(p, "out of memory");
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
        return conf_fail(p, "out of memory");
    while (end > 0 && pattern[end] != '/')
        end--;
    for (k = first < end ? first : end; k > 0 && pattern[k] != '/'; k--)
        ;
    part[k > 0 ? k : 1] = '\0'; /* "/" for a pattern at the root */
    r = conf_note_source(p, part, NULL);
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
            r = conf_note_source(p, g.gl_pathv[m], NULL);
        globfree(&g);
    }
    free(part);
    return r;
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
int conf_check_path(struct pstate *p, const struct key *k, const char *path)
{
    struct stat st;
    char dir[IDNG_CONF_LINE_MAX], who[96];
    const char *slash = strrchr(path, '/');
    size_t dn = slash == path ? 1 : (size_t)(slash - path);

    snprintf(who, sizeof who, p->user ? "by user %s" : "by this user", p->user);
    if (stat(path, &st) == 0) {
        if (!S_ISREG(st.st_mode))
            return conf_fail(p, "%s '%s' is %s, not a regular file", k->name, path,
                        idng_file_kind((unsigned)st.st_mode));
        if (!may(p, path, &st, W_OK))
            return conf_fail(p, "%s '%s' is not writable (%s)", k->name, path, who);
        return 0;
    }
    memcpy(dir, path, dn);
    dir[dn] = '\0';
    if (stat(dir, &st) != 0)
        return conf_fail(p, "%s '%s': its directory '%s' does not exist", k->name, path, dir);
    if (!S_ISDIR(st.st_mode))
        return conf_fail(p, "%s '%s': '%s' is not a directory", k->name, path, dir);
    if (!may(p, dir, &st, W_OK | X_OK))
        return conf_fail(p, "%s '%s': its directory '%s' is not writable (%s)", k->name, path, dir,
                    who);
    return 0;
}

/* The octets of a file of names, malloc'd (NULL after a reported failure). */
static char *read_names_file(struct pstate *p, const struct key *k, const char *path, size_t *len)
{
    char e[ECHO_CAP], whybuf[96];
    const char *why;
    char *buf;
    int errnum;
    struct stat st;
    int r = read_regular(path, IDNG_CONF_NAMES_FILE_MAX, "a file of names", &buf, len, &why,
                         &errnum, whybuf, sizeof whybuf, &st);

    if (conf_note_source(p, path, r == 0 ? &st : NULL) != 0) {
        if (r == 0)
            free(buf);
        return NULL;
    }
    if (r == 0)
        return buf;
    conf_echo(e, path, strlen(path));
    if (errnum != 0)
        conf_fail(p, "%s '%s': %s: %s", k->name, e, why, strerror(errnum));
    else
        conf_fail(p, "%s '%s': %s", k->name, e, why);
    return NULL;
}

/* Reads the file of names at path that k (its row) names, reporting at the
 * line that named it: protect-file, allow-file, deny-file. */
int conf_load_names(struct pstate *p, const struct key *k, const char *path,
                    int (*add)(struct pstate *, const struct key *, const char *, size_t,
                               const struct idng_conf_origin *))
{
    char e[ECHO_CAP];
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
            return conf_fail(p, "%s '%s' is not readable (%s%s)", k->name, conf_echo(e, path, n),
                        p->user ? "by user " : "by this user", p->user ? p->user : "");
        }
    }
    /* The lists' messages say where an earlier name is ("first at
     * FILE:LINE"), so their files are always among the files read. */
    if (((p->flags & IDNG_CONF_F_ORIGINS) || add != conf_add_protected)
        && conf_add_file(p, path, &from.file) != 0) {
        free(buf);
        return -1;
    }
    /* Room for every line at once, in a list or among the protected
     * names: a file of a million names grows no table a name at a time. */
    {
        size_t lines = 1;
        const char *s = buf, *end = buf + len;
        while ((s = memchr(s, '\n', (size_t)(end - s))) != NULL) {
            lines++;
            s++;
        }
        if ((add == conf_add_listed ? conf_reserve_listed(p, k, lines)
                                    : conf_reserve_protected(p, lines))
            != 0) {
            free(buf);
            return -1;
        }
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
        p->where = path;
        p->where_line = from.line;
        for (i = 0; i < m && (unsigned char)s[i] >= 0x20 && s[i] != 0x7F; i++)
            ;
        if (i < m)
            conf_fail(p, "control octet 0x%02X in a name", (unsigned char)s[i]);
        else
            (void)add(p, k, s, m, &from);
        p->where = NULL;
    }
    free(buf);
    if (add == conf_add_protected)
        idng_protect_trim(&p->c.policy.protect);
    return p->nerr == before ? 0 : -1;
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
            return conf_fail(p, "include '%s': it is being read already (an include cycle)", shown);
        return conf_fail(p, "include '%s': included already (at %s); a file is read once", shown,
                    conf_first_at(p, &p->ids[i].from, at, sizeof at));
    }
    return 0;
}

/* Notes a settings file as being read; its index in p->ids, or -1. */
long conf_note_id(struct pstate *p, const struct stat *st)
{
    struct file_id *grown;

    if (p->nids == p->ids_cap) {
        size_t cap = p->ids_cap ? 2 * p->ids_cap : 4;
        if ((grown = realloc(p->ids, cap * sizeof *grown)) == NULL)
            return conf_fail(p, "out of memory");
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
        return conf_fail(p, "include '%s': includes nest deeper than %d", shown,
                    IDNG_CONF_INCLUDE_DEPTH);
    r = read_regular(path, p->budget, "a settings file", &buf, &len, &why, &errnum, whybuf,
                     sizeof whybuf, &st);
    if (conf_note_source(p, path, r == 0 ? &st : NULL) != 0) {
        if (r == 0)
            free(buf);
        return -1;
    }
    if (r == -2)
        return conf_fail(p, "include '%s': too big; the settings files together may hold %d octets",
                    shown, IDNG_CONF_FILE_MAX);
    if (r != 0)
        return errnum ? conf_fail(p, "include '%s': %s: %s", shown, why, strerror(errnum))
                      : conf_fail(p, "include '%s': %s", shown, why);
    if (read_once(p, shown, &st) != 0 || conf_add_file(p, path, &file) != 0
        || (id = conf_note_id(p, &st)) < 0 || (saved = malloc(sizeof *saved)) == NULL) {
        free(buf);
        return p->nerr > 0 ? -1 : conf_fail(p, "out of memory");
    }
    /* The daemon reads it at every load, as the user it runs as. */
    if ((p->flags & IDNG_CONF_F_CHECK_PATHS) && !may(p, path, &st, R_OK))
        conf_fail(p, "include '%s' is not readable (%s%s)", shown,
                  p->user ? "by user " : "by this user", p->user ? p->user : "");
    *saved = p->f;
    memset(&p->f, 0, sizeof p->f);
    p->f.fname = p->c.origin.files[file];
    p->f.file = file;
    p->budget -= len;
    p->depth++;
    conf_parse_text(p, buf, len);
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
int conf_include(struct pstate *p, const char *v, size_t n)
{
    char e[ECHO_CAP], *path;
    const char *why;
    glob_t g;
    size_t i;
    int r;

    if (n == 0)
        return conf_fail(p, "empty value for 'include' (expected an absolute path, or a pattern "
                       "such as /etc/unbound/idnguard.conf.d/*.conf)");
    if ((why = conf_path_problem(v, n)) != NULL)
        return conf_fail(p,
                    "include '%s' %s (expected an absolute path, or a pattern such as "
                    "/etc/unbound/idnguard.conf.d/*.conf)",
                    conf_echo(e, v, n), why);
    if (p->flags & IDNG_CONF_F_NO_INCLUDE)
        return 0;
    if ((path = malloc(n + 1)) == NULL)
        return conf_fail(p, "out of memory");
    memcpy(path, v, n); /* v may be p->vbuf, which the included lines reuse */
    path[n] = '\0';
    conf_echo(e, path, n);
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
        return conf_fail(p, "include '%s': cannot read a directory: %s", e, strerror(glob_errnum));
    if (r != 0)
        return conf_fail(p, "out of memory");
    /* Byte order, whatever the locale: the order settings are read in. */
    qsort(g.gl_pathv, g.gl_pathc, sizeof *g.gl_pathv, by_bytes);
    r = 0;
    for (i = 0; i < g.gl_pathc; i++) {
        char m[ECHO_CAP];
        if (include_file(p, g.gl_pathv[i], conf_echo(m, g.gl_pathv[i], strlen(g.gl_pathv[i]))) != 0)
            r = -1;
    }
    globfree(&g);
    return r;
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
    rc = conf_parse(c, buf, got, path, &st, flags, user, tried, err, errlen);
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
