/**
 * \file
 * `idnguard lint-zone [OPTIONS] FILE...`: every owner name of a DNS master
 * file, and every name in its records' data that ldns types as a domain
 * name (NS, CNAME, DNAME, MX, SRV, PTR, SOA, NAPTR, SVCB, HTTPS, AFSDB, RP,
 * KX, LP, and any other type with such a field), judged by the policy unit
 * exactly as the resolver module judges a query for that name
 * (idng_policy_judge).  A name whose action is pass is clean; any other
 * action is a finding: refuse, nxdomain and drop are errors, log and
 * normalize (a raw UTF-8 label, where a zone should hold its A-label) are
 * warnings.  ldns reads the records one at a time, each freed before the
 * next, so memory does not grow with the zone.
 *
 * Only regular files are read by name: a FILE or an $INCLUDE that names a
 * FIFO, a device, a directory or a socket is refused without waiting on it.
 * The files $INCLUDE opens are bounded per input (depth, loops, their
 * number and their octets: see the limits below), so no zone can make the
 * work grow faster than the octets it is made of.
 *
 * Exit status: 0 no finding, 1 findings, 2 an input that could not be read
 * or did not parse (every input is still read to its end), or a usage error.
 */
#include "lint.h"
#include "opts.h"

#include "idng_conf.h"
#include "idng_log.h"
#include "idng_out.h"
#include "idnguard.h"

#include <ldns/ldns.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/** Room for one output line: the JSON worst case of every field. */
#define LINE_CAP (IDNG_JSON_ROOM(4 * IDNG_DISPLAY_NAME_MAX + 2 * IDNG_DISPLAY_UNICODE_MAX) + 4096)

/* ---- which field of which type a name is (for the reader only) ---- */

struct field_name {
    uint16_t type;
    uint8_t index;
    const char *name;
};

/* The RFCs' names of the name fields; any other field that ldns types as
 * a domain name is "rdataN" (N from 1).  The types' numbers are IANA's. */
static const struct field_name field_names[] = {
    {2, 0, "nsdname"},   {3, 0, "madname"},  {4, 0, "madname"},   {5, 0, "cname"},
    {6, 0, "mname"},     {6, 1, "rname"},    {7, 0, "madname"},   {8, 0, "mgmname"},
    {9, 0, "newname"},   {12, 0, "ptrdname"}, {14, 0, "rmailbx"}, {14, 1, "emailbx"},
    {15, 1, "exchange"}, {17, 0, "mbox"},    {17, 1, "txt"},      {18, 1, "hostname"},
    {21, 1, "host"},     {24, 7, "signer"},  {26, 1, "map822"},   {26, 2, "mapx400"},
    {30, 0, "next"},     {33, 3, "target"},  {35, 5, "replacement"}, {36, 1, "exchanger"},
    {39, 0, "target"},   {46, 7, "signer"},  {47, 0, "next"},     {58, 0, "previous"},
    {58, 1, "next"},     {64, 1, "target"},  {65, 1, "target"},   {107, 1, "fqdn"},
    {249, 0, "algorithm"}, {250, 0, "algorithm"},
};

static const char *field_name(uint16_t type, size_t index, char *buf, size_t cap)
{
    size_t i;

    for (i = 0; i < sizeof field_names / sizeof field_names[0]; i++)
        if (field_names[i].type == type && field_names[i].index == index)
            return field_names[i].name;
    snprintf(buf, cap, "rdata%zu", index + 1);
    return buf;
}

/* ---- one run ---- */

struct lint {
    const struct idng_lint_cfg *cfg;
    struct idng_lint_totals *t;
    /* The owner judged last and its verdict: a zone names one owner for
     * many records in a row. */
    uint8_t last_owner[IDNG_WIRE_MAX];
    size_t last_owner_len;
    struct idng_verdict last_verdict;
    /* The files included for this input and their octets; include_stop
     * once a limit was reported: no further $INCLUDE is followed. */
    unsigned includes;
    unsigned long long include_octets;
    int include_stop;
};

/* One file being read: its name as messages show it, and the file that
 * includes it (the chain a loop is shown with). */
struct src {
    const char *path; /* as opened (NULL: standard input) */
    char *shown;      /* display-escaped (idng_display_text) */
    int line;
    int depth;
    const struct src *up; /* the including file's, or NULL */
    int has_id;           /* dev and ino are known (a regular file) */
    dev_t dev;
    ino_t ino;
};

/* An output line, written whole. */
struct line {
    char buf[LINE_CAP];
    size_t len;
};

static void put(struct line *ln, const char *s, size_t n)
{
    if (n > sizeof ln->buf - ln->len)
        n = sizeof ln->buf - ln->len; /* cannot be: LINE_CAP holds the worst case */
    memcpy(ln->buf + ln->len, s, n);
    ln->len += n;
}

static void put_s(struct line *ln, const char *s)
{
    put(ln, s, strlen(s));
}

/* before, s, after; nothing when s is empty. */
static void put_around(struct line *ln, const char *before, const char *s, const char *after)
{
    if (s[0] == '\0')
        return;
    put_s(ln, before);
    put_s(ln, s);
    put_s(ln, after);
}

/* A JSON member ,"key":"value" (value JSON-escaped) or ,"key":null. */
static void put_json(struct line *ln, const char *key, const char *s)
{
    put_s(ln, key);
    if (s == NULL) {
        put_s(ln, "null");
        return;
    }
    put_s(ln, "\"");
    if (sizeof ln->buf - ln->len >= IDNG_JSON_ROOM(strlen(s)))
        ln->len += idng_json_escape((const unsigned char *)s, strlen(s), ln->buf + ln->len);
    put_s(ln, "\"");
}

/* What one finding says, every text already display-escaped. */
struct finding {
    const struct src *src;
    char owner[IDNG_DISPLAY_NAME_MAX], owner_u[IDNG_DISPLAY_UNICODE_MAX];
    const char *type, *field;
    char name[IDNG_DISPLAY_NAME_MAX], name_u[IDNG_DISPLAY_UNICODE_MAX];
    char label[IDNG_DISPLAY_NAME_MAX];
    char alabel[IDNG_DISPLAY_NAME_MAX]; /* the A-label form of a raw name, or "" */
    char codepoint[16];                 /* "U+0041" or "" */
    const char *cls, *message, *action, *severity;
    int is_owner, has_label;
};

static const char *nonempty(const char *s)
{
    return s[0] ? s : NULL;
}

/*
 * Text: FILE:LINE: OWNER[ (UNICODE)] TYPE FIELD[=NAME[ (UNICODE)]]: CLASS:
 * [LABEL: ]MESSAGE[ (U+XXXX)][ (A-label form NAME)] [ACTION]
 */
static void emit_text(struct line *ln, const struct finding *f)
{
    char num[32];

    put_s(ln, f->src->shown);
    snprintf(num, sizeof num, ":%d: ", f->src->line);
    put_s(ln, num);
    put_s(ln, f->owner);
    put_around(ln, " (", f->owner_u, ")");
    put_around(ln, " ", f->type, " ");
    put_s(ln, f->field);
    if (!f->is_owner) {
        put_around(ln, "=", f->name, "");
        put_around(ln, " (", f->name_u, ")");
    }
    put_around(ln, ": ", f->cls, ": ");
    if (f->has_label)
        put_around(ln, "", f->label, ": ");
    put_s(ln, f->message);
    put_around(ln, " (", f->codepoint, ")");
    put_around(ln, " (A-label form ", f->alabel, ")");
    put_around(ln, " [", f->action, "]\n");
}

/* JSON: the same fields, every key always present, null where absent. */
static void emit_json(struct line *ln, const struct finding *f)
{
    char num[32];

    put_json(ln, "{\"file\":", f->src->shown);
    snprintf(num, sizeof num, ",\"line\":%d", f->src->line);
    put_s(ln, num);
    put_json(ln, ",\"owner\":", f->owner);
    put_json(ln, ",\"owner_unicode\":", nonempty(f->owner_u));
    put_json(ln, ",\"type\":", f->type);
    put_json(ln, ",\"field\":", f->field);
    put_json(ln, ",\"name\":", f->name);
    put_json(ln, ",\"name_unicode\":", nonempty(f->name_u));
    put_json(ln, ",\"class\":", f->cls);
    put_json(ln, ",\"label\":", f->has_label ? f->label : NULL);
    put_json(ln, ",\"message\":", f->message);
    put_json(ln, ",\"codepoint\":", nonempty(f->codepoint));
    put_json(ln, ",\"a_label\":", nonempty(f->alabel));
    put_json(ln, ",\"action\":", f->action);
    put_json(ln, ",\"severity\":", f->severity);
    put_s(ln, "}\n");
}

static void report(struct lint *l, const struct src *s, const ldns_rr *rr, const char *field,
                   const uint8_t *wire, size_t len, const struct idng_verdict *v)
{
    static struct finding f;
    static struct line ln;
    const ldns_rdf *owner = ldns_rr_owner(rr);
    char tbuf[IDNG_LOG_MNEMONIC_MAX];
    idng_mode mode = l->cfg->policy->mode;
    int cls = v->listed == IDNG_LISTED_DENY ? IDNG_CLASS_COUNT : (int)idng_status_class(v->err.status);

    f.src = s;
    f.is_owner = strcmp(field, "owner") == 0;
    f.field = field;
    f.type = idng_log_type_name(ldns_rr_get_type(rr), tbuf, sizeof tbuf);
    idng_display_name(ldns_rdf_data(owner), ldns_rdf_size(owner), f.owner, sizeof f.owner);
    /* A lookalike (UTS #39) is shown in A-labels only, as in the query log. */
    f.owner_u[0] = '\0';
    if ((f.is_owner ? v->lookalike : l->last_verdict.lookalike) == 0)
        idng_display_unicode(ldns_rdf_data(owner), ldns_rdf_size(owner), mode, f.owner_u,
                             sizeof f.owner_u);
    idng_display_name(wire, len, f.name, sizeof f.name);
    f.name_u[0] = '\0';
    if (v->lookalike == 0)
        idng_display_unicode(wire, len, mode, f.name_u, sizeof f.name_u);
    f.has_label = v->err.label_len > 0;
    if (f.has_label)
        idng_display_label(v->label, v->err.label_len, f.label, sizeof f.label);
    f.cls = idng_verdict_name(v);
    f.message = v->listed == IDNG_LISTED_DENY ? "name is on the deny list"
                                               : idng_status_message(v->err.status);
    if (v->err.status == IDNG_E_CONFUSABLE && v->like_len > 0) {
        /* Which protected name it looks like, as the EDE text says it. */
        static char msg[IDNG_DISPLAY_NAME_MAX + 128];
        int k = snprintf(msg, sizeof msg, "%s: looks like ", f.message);
        if (k > 0 && (size_t)k < sizeof msg)
            idng_display_name(v->like, v->like_len, msg + k, sizeof msg - (size_t)k);
        f.message = msg;
    }
    f.codepoint[0] = '\0';
    if (v->listed == IDNG_LISTED_NONE && v->err.codepoint != IDNG_NO_CODEPOINT)
        snprintf(f.codepoint, sizeof f.codepoint, "U+%04lX", (unsigned long)v->err.codepoint);
    f.alabel[0] = '\0';
    if (v->action == IDNG_ACT_NORMALIZE) {
        uint8_t a[IDNG_WIRE_MAX];
        size_t alen;
        if (idng_policy_normalize(l->cfg->policy, wire, len, a, &alen, NULL) == IDNG_OK)
            idng_display_name(a, alen, f.alabel, sizeof f.alabel);
    }
    f.action = idng_action_name(v->action);
    f.severity = idng_action_rejects(v->action) ? "error" : "warning";
    ln.len = 0;
    if (l->cfg->json)
        emit_json(&ln, &f);
    else
        emit_text(&ln, &f);
    fwrite(ln.buf, 1, ln.len, l->cfg->out);
    l->t->findings++;
    l->t->by_class[cls]++;
}

/* Judges one name of a record: the owner, or a field of its data. */
static void judge_name(struct lint *l, const struct src *s, const ldns_rr *rr, const char *field,
                       const ldns_rdf *rdf)
{
    const uint8_t *wire = ldns_rdf_data(rdf);
    size_t len = ldns_rdf_size(rdf);
    struct idng_verdict v;

    l->t->names++;
    idng_policy_judge(l->cfg->policy, wire, len, &v);
    if (v.action != IDNG_ACT_PASS)
        report(l, s, rr, field, wire, len, &v);
}

static void judge_rr(struct lint *l, const struct src *s, const ldns_rr *rr)
{
    const ldns_rdf *owner = ldns_rr_owner(rr);
    const uint8_t *wire = ldns_rdf_data(owner);
    size_t len = ldns_rdf_size(owner), i, n = ldns_rr_rd_count(rr);
    uint16_t type = ldns_rr_get_type(rr);
    char buf[32];

    l->t->records++;
    l->t->names++;
    if (len > sizeof l->last_owner || len != l->last_owner_len
        || memcmp(wire, l->last_owner, len) != 0) {
        idng_policy_judge(l->cfg->policy, wire, len, &l->last_verdict);
        /* (ldns gives no name over 255 octets; if it did, it matches none.) */
        l->last_owner_len = len <= sizeof l->last_owner ? len : sizeof l->last_owner + 1;
        if (len <= sizeof l->last_owner)
            memcpy(l->last_owner, wire, len);
    }
    if (l->last_verdict.action != IDNG_ACT_PASS)
        report(l, s, rr, "owner", wire, len, &l->last_verdict);
    for (i = 0; i < n; i++) {
        const ldns_rdf *rdf = ldns_rr_rdf(rr, i);
        if (rdf != NULL && ldns_rdf_get_type(rdf) == LDNS_RDF_TYPE_DNAME)
            judge_name(l, s, rr, field_name(type, i, buf, sizeof buf), rdf);
    }
}

/* "FILE:LINE: message" on the error stream; counts an error. */
static void error_at(struct lint *l, const struct src *s, const char *msg, const char *arg)
{
    if (s->line > 0)
        fprintf(l->cfg->err, "%s:%d: %s", s->shown, s->line, msg);
    else
        fprintf(l->cfg->err, "%s: %s", s->shown, msg);
    if (arg) {
        char shown[4 * 1024];
        idng_display_text(arg, strlen(arg), shown, sizeof shown);
        fprintf(l->cfg->err, ": %s", shown);
    }
    fputc('\n', l->cfg->err);
    l->t->errors++;
}

/* "FILE:LINE: $INCLUDE PATH: reason". */
static void include_error(struct lint *l, const struct src *s, const char *path,
                          const char *reason)
{
    char shown[4 * 1024];

    idng_display_text(path, strlen(path), shown, sizeof shown);
    fprintf(l->cfg->err, "%s:%d: $INCLUDE %s: %s\n", s->shown, s->line, shown, reason);
    l->t->errors++;
}

static char *shown_text(const char *s)
{
    size_t cap = 12 * strlen(s) + 1;
    char *out = malloc(cap);

    if (out)
        idng_display_text(s, strlen(s), out, cap);
    return out;
}

static void read_file(struct lint *l, FILE *fp, struct src *s, ldns_rdf *origin);

/* What a file that is not a regular one is (idng_file_kind's words). */
static const char *file_kind(mode_t mode)
{
    static _Thread_local char why[64];
    snprintf(why, sizeof why, "not a regular file (%s)", idng_file_kind((unsigned)mode));
    return why;
}

/*
 * Opens path for reading if it is a regular file (lint.h).
 * O_NONBLOCK: opening a FIFO would wait for a writer, a device could wait
 * for its hardware; each is refused right after, by fstat.  NULL with
 * *why set (a phrase, or strerror's) when it cannot be opened or is not a
 * regular file.
 */
FILE *idng_lint_open(const char *path, struct stat *st, const char **why)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), e;
    FILE *f = NULL;

    if (fd < 0) {
        e = errno;
        /* A socket cannot be opened at all (ENXIO): say what it is. */
        *why = stat(path, st) == 0 && !S_ISREG(st->st_mode) ? file_kind(st->st_mode) : strerror(e);
        return NULL;
    }
    if (fstat(fd, st) != 0) {
        *why = strerror(errno);
    } else if (!S_ISREG(st->st_mode)) {
        *why = file_kind(st->st_mode);
    } else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0
               || (f = fdopen(fd, "r")) == NULL) {
        /* (A regular file never blocks: O_NONBLOCK is only dropped.) */
        *why = strerror(errno);
    } else {
        return f;
    }
    close(fd);
    return NULL;
}

/* Which file of the chain being read is the one st names, if any. */
static const struct src *on_stack(const struct src *s, const struct stat *st)
{
    for (; s != NULL; s = s->up)
        if (s->has_id && s->dev == st->st_dev && s->ino == st->st_ino)
            return s;
    return NULL;
}

/* "FILE:LINE: $INCLUDE PATH: include loop: A:1 -> B:2 -> A", from the
 * file included again (top) down to s, where it is included again. */
static void loop_error(struct lint *l, const struct src *s, const char *path, const struct src *top)
{
    const struct src *chain[IDNG_LINT_INCLUDE_DEPTH_MAX + 1], *x;
    char shown[4 * 1024];
    size_t n = 0;

    for (x = s; x != NULL && n < sizeof chain / sizeof chain[0]; x = x->up) {
        chain[n++] = x;
        if (x == top)
            break;
    }
    idng_display_text(path, strlen(path), shown, sizeof shown);
    fprintf(l->cfg->err, "%s:%d: $INCLUDE %s: include loop: ", s->shown, s->line, shown);
    while (n-- > 0)
        fprintf(l->cfg->err, "%s:%d -> ", chain[n]->shown, chain[n]->line);
    fprintf(l->cfg->err, "%s\n", top->shown);
    l->t->errors++;
}

/* Whether one more included file, of st's size, passes a limit of this
 * input; which, in words, into msg. */
static int past_limit(const struct lint *l, const struct stat *st, char *msg, size_t cap)
{
    if (l->includes >= IDNG_LINT_INCLUDE_FILES_MAX)
        snprintf(msg, cap, "more than %d files included for this input",
                 IDNG_LINT_INCLUDE_FILES_MAX);
    else if ((unsigned long long)st->st_size > IDNG_LINT_INCLUDE_OCTETS_MAX - l->include_octets)
        snprintf(msg, cap, "the files included for this input would pass %llu octets",
                 IDNG_LINT_INCLUDE_OCTETS_MAX);
    else
        return 0;
    return 1;
}

/* Opens the file an $INCLUDE at s names and reads it, unless that would
 * pass a limit (then no further $INCLUDE of this input is followed), close
 * a loop, or it is not a regular file.  Takes origin. */
static void include_file(struct lint *l, struct src *s, const char *path, ldns_rdf *origin)
{
    struct src in = {path, NULL, 0, s->depth + 1, s, 1, 0, 0};
    const struct src *top;
    const char *why;
    char limit[128], msg[256];
    struct stat st;
    FILE *f;

    if (s->depth >= IDNG_LINT_INCLUDE_DEPTH_MAX) {
        snprintf(msg, sizeof msg, "nested more than %d deep (the limit)",
                 IDNG_LINT_INCLUDE_DEPTH_MAX);
        include_error(l, s, path, msg);
    } else if ((f = idng_lint_open(path, &st, &why)) == NULL) {
        include_error(l, s, path, why);
    } else {
        if ((top = on_stack(s, &st)) != NULL) {
            loop_error(l, s, path, top);
        } else if (past_limit(l, &st, limit, sizeof limit)) {
            snprintf(msg, sizeof msg, "%s (the limit); no further $INCLUDE of it is followed",
                     limit);
            include_error(l, s, path, msg);
            l->include_stop = 1;
        } else if ((in.shown = shown_text(path)) == NULL) {
            include_error(l, s, path, "out of memory");
        } else {
            l->includes++;
            l->include_octets += (unsigned long long)st.st_size;
            in.dev = st.st_dev;
            in.ino = st.st_ino;
            read_file(l, f, &in, origin);
            origin = NULL; /* read_file owns it */
            if (ferror(f))
                error_at(l, &in, strerror(errno), NULL);
        }
        fclose(f);
        free(in.shown);
    }
    if (origin)
        ldns_rdf_deep_free(origin);
}

/* The next blank-separated token of a directive at *p (a "quoted" one
 * unquoted), NUL-terminated in place; NULL at the end or a comment. */
static char *directive_token(char **p)
{
    char *t = *p, *end;

    while (*t == ' ' || *t == '\t')
        t++;
    if (*t == '\0' || *t == ';' || *t == '\n' || *t == '\r')
        return NULL;
    if (*t == '"') {
        end = strchr(++t, '"');
        if (end == NULL)
            return NULL;
    } else {
        end = t + strcspn(t, " \t;\r\n");
    }
    *p = *end ? end + 1 : end;
    if (*end == ';')
        *p = end; /* the comment stays a comment */
    *end = '\0';
    return t;
}

/*
 * $INCLUDE FILE [ORIGIN] (RFC 1035 section 5.1): ldns reports the
 * directive but keeps its text, so it is read again from pos, where the
 * entry began.  FILE is relative to the including file's directory; ORIGIN
 * (relative to the current origin) or the current origin is the included
 * file's, and the including file's stays as it was.
 */
static void do_include(struct lint *l, FILE *fp, struct src *s, off_t pos, int lines,
                       const ldns_rdf *origin)
{
    char *text = NULL, *p, *file, *org, *path = NULL;
    size_t cap = 0;
    ldns_rdf *inc_origin = NULL;
    int i;

    if (!l->cfg->follow_include) {
        error_at(l, s, "$INCLUDE is not followed here", NULL);
        return;
    }
    if (l->include_stop)
        return; /* a limit was passed and said so */
    if (pos < 0 || fseeko(fp, pos, SEEK_SET) != 0) {
        error_at(l, s, "$INCLUDE cannot be followed in an input that cannot be read again "
                       "(a pipe)", NULL);
        return;
    }
    /* The entry's lines: comments and blank lines, then the directive. */
    for (i = 0; i < lines || lines <= 0; i++) {
        if (getline(&text, &cap, fp) < 0)
            break;
        p = text + strspn(text, " \t");
        if (strncmp(p, "$INCLUDE", 8) == 0)
            break;
    }
    p = text ? text + strspn(text, " \t") : NULL;
    if (p == NULL || strncmp(p, "$INCLUDE", 8) != 0) {
        error_at(l, s, "$INCLUDE: the directive could not be read again", NULL);
        free(text);
        return;
    }
    p += 8;
    file = directive_token(&p);
    org = file ? directive_token(&p) : NULL;
    if (file == NULL) {
        error_at(l, s, "$INCLUDE without a file name", NULL);
        free(text);
        return;
    }
    if (org != NULL) {
        if (ldns_dname_str_absolute(org) || origin == NULL) {
            inc_origin = ldns_dname_new_frm_str(org);
        } else {
            ldns_rdf *rel = ldns_dname_new_frm_str(org);
            /* ldns makes every name from text absolute: drop its root label. */
            if (rel && ldns_rdf_size(rel) > 1) {
                ldns_rdf_set_size(rel, ldns_rdf_size(rel) - 1);
                if (ldns_dname_cat(rel, origin) == LDNS_STATUS_OK)
                    inc_origin = rel;
                else
                    ldns_rdf_deep_free(rel);
            } else if (rel) {
                ldns_rdf_deep_free(rel);
            }
        }
        if (inc_origin == NULL) {
            error_at(l, s, "$INCLUDE: not a domain name", org);
            free(text);
            return;
        }
    } else if (origin != NULL) {
        inc_origin = ldns_rdf_clone(origin);
    }
    if (file[0] != '/' && s->path != NULL && strchr(s->path, '/') != NULL) {
        size_t dirlen = (size_t)(strrchr(s->path, '/') - s->path) + 1;
        path = malloc(dirlen + strlen(file) + 1);
        if (path) {
            memcpy(path, s->path, dirlen);
            strcpy(path + dirlen, file);
        }
    } else {
        path = strdup(file);
    }
    if (path == NULL) {
        error_at(l, s, "$INCLUDE: out of memory", NULL);
        if (inc_origin)
            ldns_rdf_deep_free(inc_origin);
    } else {
        include_file(l, s, path, inc_origin);
    }
    free(path);
    free(text);
}

/* Reads one master file to its end; takes origin (may be NULL). */
static void read_file(struct lint *l, FILE *fp, struct src *s, ldns_rdf *origin)
{
    ldns_rdf *prev = NULL;
    uint32_t ttl = 3600;
    /* A regular file can be read again where an $INCLUDE began. */
    int seekable = ftello(fp) >= 0;

    while (!feof(fp) && !ferror(fp)) {
        ldns_rr *rr = NULL;
        off_t pos = seekable ? ftello(fp) : -1;
        int before = s->line;
        ldns_status st = ldns_rr_new_frm_fp_l(&rr, fp, &ttl, &origin, &prev, &s->line);

        switch (st) {
        case LDNS_STATUS_OK:
            judge_rr(l, s, rr);
            /* As ldns-read-zone: without an origin, the SOA's owner is one. */
            if (origin == NULL && ldns_rr_get_type(rr) == LDNS_RR_TYPE_SOA)
                origin = ldns_rdf_clone(ldns_rr_owner(rr));
            ldns_rr_free(rr);
            break;
        case LDNS_STATUS_SYNTAX_EMPTY:
        case LDNS_STATUS_SYNTAX_TTL:
        case LDNS_STATUS_SYNTAX_ORIGIN:
            break;
        case LDNS_STATUS_SYNTAX_INCLUDE:
            do_include(l, fp, s, pos, s->line - before, origin);
            break;
        default:
            if (rr)
                ldns_rr_free(rr);
            error_at(l, s, ldns_get_errorstr_by_id(st), NULL);
            /* Nothing read and not at the end: stop rather than loop. */
            if (seekable && ftello(fp) == pos && !feof(fp))
                goto out;
            break;
        }
    }
out:
    if (origin)
        ldns_rdf_deep_free(origin);
    if (prev)
        ldns_rdf_deep_free(prev);
}

void idng_lint_stream(const struct idng_lint_cfg *cfg, FILE *fp, const char *name,
                      const char *origin, struct idng_lint_totals *t)
{
    static struct lint l;
    struct src s = {NULL, NULL, 0, 0, NULL, 0, 0, 0};
    struct stat st;
    ldns_rdf *o = NULL;

    memset(&l, 0, sizeof l);
    l.cfg = cfg;
    l.t = t;
    l.last_owner_len = sizeof l.last_owner + 1; /* matches no owner */
    s.path = fp == stdin ? NULL : name;
    /* Its identity, for an $INCLUDE of itself (standard input too, when
     * it is a regular file). */
    if (fileno(fp) >= 0 && fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode)) {
        s.has_id = 1;
        s.dev = st.st_dev;
        s.ino = st.st_ino;
    }
    s.shown = shown_text(name);
    if (s.shown == NULL) {
        fprintf(cfg->err, IDNG_CLI_ERR "out of memory\n", "lint-zone");
        t->errors++;
        return;
    }
    if (origin != NULL && (o = ldns_dname_new_frm_str(origin)) == NULL) {
        error_at(&l, &s, "not a domain name (--origin)", origin);
    } else {
        read_file(&l, fp, &s, o);
        if (ferror(fp))
            error_at(&l, &s, strerror(errno), NULL);
    }
    free(s.shown);
}
