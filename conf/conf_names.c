/**
 * \file
 * Domain names in the settings: a name as written to wire form, the
 * lists (allow, deny, idn-suffixes) and the files of the first two
 * (allow-file, deny-file), protect and protect-file.
 */
#include "idng_conf_internal.h"

#include <stdlib.h>
#include <string.h>

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

/* The origins list of a name key's entries (its row's arg: 0 allow,
 * 1 deny, 2 idn-suffixes). */
static int name_list(int arg)
{
    return arg == 0 ? L_ALLOW : arg == 1 ? L_DENY : L_IDN_SUFFIXES;
}

/* The octets of v[0..n) that cannot belong in a listed name, caught before
 * the codec sees it: the codec does not judge plain ASCII labels (real DNS
 * names break hostname rules).  0, or -1 (reported). */
static int refuse_octets(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    char e[ECHO_CAP];
    size_t i;

    for (i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)v[i];
        if (ch >= 0x80 || ch == '.' || name_octet_ok(ch))
            continue;
        if (ch == ' ' || ch == '\t')
            return conf_fail(p, "bad name '%s' for '%s': it contains a blank (one name per line)",
                             conf_echo(e, v, n), k->name);
        if (ch == '*' && i == 0 && (n == 1 || v[1] == '.'))
            return conf_fail(p,
                             "bad name '%s' for '%s': no wildcards; a name already covers every "
                             "name below it",
                             conf_echo(e, v, n), k->name);
        if (ch == '\\')
            return conf_fail(p, "bad name '%s' for '%s': backslash escapes are not supported",
                             conf_echo(e, v, n), k->name);
        return conf_fail(p, "bad name '%s' for '%s': '%c' is not allowed in a name",
                         conf_echo(e, v, n), k->name, ch);
    }
    return 0;
}

/* The name v[0..n) as dotted ASCII into ascii (*alen in: its capacity,
 * out: the length).  A name in ASCII is taken as the DNS name it spells,
 * xn-- labels included whether valid or not: the lists exist to override
 * verdicts, so `allow: xn--ab-m1t.example.` must be possible.  Only a name
 * written in Unicode goes through ToASCII.  0, or -1 (reported). */
static int name_to_ascii(struct pstate *p, const struct key *k, const char *v, size_t n,
                         char *ascii, size_t *alen)
{
    char e[ECHO_CAP], lab[ECHO_CAP];
    idng_error ie;
    idng_status st;
    size_t i;

    for (i = 0; i < n && (unsigned char)v[i] < 0x80; i++)
        ;
    if (i == n) {
        if (n - (v[n - 1] == '.') > IDNG_NAME_MAX)
            return conf_fail(p, "bad name '%s' for '%s': %s [%s]", conf_echo(e, v, n), k->name,
                             idng_status_message(IDNG_E_NAME_TOO_LONG),
                             idng_status_class_name(IDNG_E_NAME_TOO_LONG));
        memcpy(ascii, v, n);
        *alen = n;
        st = IDNG_OK;
    } else {
        st = idng_to_ascii(v, n, ascii, alen, IDNG_MODE_UTS46, 0, &ie);
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
            return conf_fail(p, "bad name '%s' for '%s': label '%s': %s%s [%s]", conf_echo(e, v, n),
                             k->name, conf_echo(lab, v + ie.label_off, ie.label_len),
                             idng_status_message(st), cpnote, idng_status_class_name(st));
        return conf_fail(p, "bad name '%s' for '%s': %s%s [%s]", conf_echo(e, v, n), k->name,
                         idng_status_message(st), cpnote, idng_status_class_name(st));
    }
    return 0;
}

/* Lowercases the labels of wire[0..len) in place, refusing an octet that
 * cannot belong in a listed name (v[0..n): the name as written, for the
 * message).  0, or -1 (reported). */
static int lower_labels(struct pstate *p, const struct key *k, const char *v, size_t n,
                        uint8_t *wire, size_t len)
{
    char e[ECHO_CAP];
    idng_wire_iter it;
    const uint8_t *lab8;
    size_t l, i;

    idng_wire_iter_init(&it, wire, len);
    while (idng_wire_next(&it, &lab8, &l) == IDNG_WIRE_LABEL)
        for (i = 0; i < l; i++) {
            unsigned char ch = lower(lab8[i]);
            if (!name_octet_ok(ch))
                return conf_fail(p, "bad name '%s' for '%s': '%c' is not allowed in a name",
                                 conf_echo(e, v, n), k->name, ch);
            wire[lab8 + i - wire] = ch;
        }
    return 0;
}

int conf_name_to_wire(struct pstate *p, const struct key *k, const char *v, size_t n, uint8_t *wire,
                      size_t *wlen)
{
    char e[ECHO_CAP], lab[ECHO_CAP], ascii[IDNG_INPUT_MAX + 2];
    size_t alen = sizeof ascii, o;
    idng_error ie;
    idng_status st;

    if (n == 1 && v[0] == '.') {
        wire[0] = 0;
        *wlen = 1;
        return 0;
    }
    if (refuse_octets(p, k, v, n) != 0 || name_to_ascii(p, k, v, n, ascii, &alen) != 0)
        return -1;
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
        return conf_fail(p, "bad name '%s' for '%s': label '%s': %s [%s]", conf_echo(e, v, n),
                         k->name, conf_echo(lab, ascii + ie.label_off, ie.label_len),
                         idng_status_message(st), idng_status_class_name(st));
    if (st != IDNG_OK) {
        idng_status why = st == IDNG_E_EMPTY_LABEL ? IDNG_E_EMPTY_LABEL : IDNG_E_NAME_TOO_LONG;
        return conf_fail(p, "bad name '%s' for '%s': %s [%s]", conf_echo(e, v, n), k->name,
                         idng_status_message(why), idng_status_class_name(why));
    }
    if (lower_labels(p, k, v, n, wire, o) != 0)
        return -1;
    *wlen = o;
    return 0;
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

/* A list of names: "KEY +ADDED -REMOVED (now COUNT)". */
static int diff_set(const struct idng_nameset *x, const struct idng_nameset *y, const struct key *k,
                    FILE *f)
{
    size_t added = names_only_in(y, NULL, x, NULL), removed = names_only_in(x, NULL, y, NULL);

    if (added == 0 && removed == 0)
        return 0;
    return fputs(k->name, f) == EOF ? -1 : conf_put_tally(f, added, removed, y->count);
}

/* -- name lists -- */

static int set_name(struct pstate *p, const struct key *k, const char *v, size_t n);

static int put_names(const struct idng_conf *c, const struct key *k, FILE *f)
{
    const struct idng_nameset *l = CFIELD(c, k, struct idng_nameset);
    char text[WIRE_MAX + 1];
    size_t i;

    /* The names of allow-files and deny-files (the last ones) are not
     * lines: the writer shows those files' lines instead. */
    size_t lines = l->count
                   - (k->arg == 0   ? c->allow_from_files
                      : k->arg == 1 ? c->deny_from_files
                                    : 0);

    /* A comment keeps "every key is shown" true for an empty list. */
    if (lines == 0)
        return fprintf(f, "    # %s: (none)\n", k->name) < 0 ? -1 : 0;
    for (i = 0; i < lines; i++) {
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

const struct kind conf_kind_names = {set_name, put_names, expect_name, diff_names};

/* -- protected names: protect (one name) and protect-file (a file of them) -- */

/* Adds one protected name, as written (from: NULL for a protect line, else
 * where in the protect-file it is; p->where then says so in messages). */
int conf_add_protected(struct pstate *p, const struct key *k, const char *v, size_t n,
                       const struct idng_conf_origin *from)
{
    uint8_t wire[WIRE_MAX];
    size_t wlen = 0;
    char e[ECHO_CAP], text[WIRE_MAX + 1], lab[ECHO_CAP];
    idng_error ie;
    idng_status st;
    int r;

    if (conf_name_to_wire(p, k, v, n, wire, &wlen) != 0)
        return -1;
    /* Unlike the lists, which override verdicts, a protected name must be
     * a name a lookalike can imitate: valid, with an xn-- label or not. */
    st = idng_wire_check(wire, wlen, IDNG_MODE_UTS46, &ie);
    if (st != IDNG_OK)
        return conf_fail(p, "bad name '%s' for '%s': label '%s': %s [%s]", conf_echo(e, v, n),
                         k->name, conf_echo(lab, (const char *)wire + ie.label_off, ie.label_len),
                         idng_status_message(st), idng_status_class_name(st));
    if (wlen == 1)
        return conf_fail(p, "bad name '.' for '%s': the root protects nothing (give a domain)",
                         k->name);
    r = idng_protect_add(&p->c.policy.protect, wire, wlen);
    if (r == 1) {
        wire_to_text(wire, text);
        return conf_fail(p, "duplicate protected name '%s'", text);
    }
    if (r == -1)
        return conf_fail(p, "out of memory");
    if (r != 0)
        return conf_fail(p, "bad name '%s' for '%s'", conf_echo(e, v, n), k->name);
    if (p->flags & IDNG_CONF_F_ORIGINS) {
        size_t i = p->c.policy.protect.names.count - 1;
        if (conf_note_entry(p, L_PROTECT, i) != 0)
            return -1;
        if (from != NULL)
            p->c.origin.protect[i] = *from;
    }
    if (from == NULL && idng_nameset_add(&p->c.protect_lines, wire, wlen, NULL) != 0)
        return conf_fail(p, "out of memory");
    return 0;
}

int conf_reserve_protected(struct pstate *p, size_t more)
{
    return idng_protect_reserve(&p->c.policy.protect, more) == 0 ? 0
                                                                 : conf_fail(p, "out of memory");
}

static int set_protect(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    return conf_add_protected(p, k, v, n, NULL);
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

const struct kind conf_kind_protect = {set_protect, put_protect, expect_protect, diff_protect};

/* protect-file: the path only; the file is read once every settings file
 * is (conf_load_protect_file), so that an included file's line replaces the
 * earlier one as for any other key. */
static int set_protect_file(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    char e[ECHO_CAP], x[160];
    const char *why = conf_path_problem(v, n);

    if (why != NULL) {
        k->kind->expect(k, x, sizeof x);
        return conf_fail(p, "%s '%s' %s (expected %s)", k->name, conf_echo(e, v, n), why, x);
    }
    free(p->c.protect_file);
    if ((p->c.protect_file = malloc(n + 1)) == NULL)
        return conf_fail(p, "out of memory");
    memcpy(p->c.protect_file, v, n);
    p->c.protect_file[n] = '\0';
    return 0;
}

static int put_protect_file(const struct idng_conf *c, const struct key *k, FILE *f)
{
    if (c->protect_file == NULL)
        return fprintf(f, "    # %s: (none)\n", k->name) < 0 ? -1 : 0;
    return conf_put_path(c, k, f);
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

    if ((moved = conf_diff_value(a, b, k, f)) < 0)
        return -1;
    if (added == 0 && removed == 0)
        return moved;
    if (fputs(moved ? ", names" : "protect-file names", f) == EOF)
        return -1;
    return conf_put_tally(f, added, removed, nb->count - b->protect_lines.count);
}

const struct kind conf_kind_protect_file = {set_protect_file, put_protect_file,
                                              expect_protect_file, diff_protect_file};

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

/* Adds the name v[0..n) to the list of k's row (ln: the key named in
 * messages, k's own or its file key's); from: NULL for a line, else where
 * in an allow-file or deny-file the name is. */
static int add_name(struct pstate *p, const struct key *k, const char *ln, const char *v, size_t n,
                    const struct idng_conf_origin *from)
{
    struct idng_nameset *l = FIELD(&p->c, k, struct idng_nameset);
    struct key named = *k;
    uint8_t wire[WIRE_MAX];
    size_t wlen = 0, i;
    int r;
    char text[WIRE_MAX + 1], at[IDNG_CONF_LINE_MAX + 32];

    named.name = ln;
    k = &named;
    if (conf_name_to_wire(p, k, v, n, wire, &wlen) != 0)
        return -1;
    /* An exact repeat is a slip; the same name in allow and deny
     * contradicts itself.  (A name below another listed one is fine: it is
     * how an exception is written.)  One probe of the other list's table
     * (idn-suffixes only exempts from one class, which allow and deny do
     * not contradict), and the add finds a repeat in its own. */
    if (k->arg != 2) {
        int other = k->arg == 0 ? 1 : 0;
        i = idng_nameset_find(other == 0 ? &p->c.policy.allow : &p->c.policy.deny, wire, wlen);
        if (i != IDNG_NAMESET_NONE) {
            wire_to_text(wire, text);
            return conf_fail(
                p, "'%s' is in both '%s' (%s) and '%s'; a name can be in one list only", text,
                conf_list_key_name(other),
                conf_first_at(p, &(*conf_list_at(&p->c, name_list(other)))[i], at, sizeof at),
                k->name);
        }
    }
    /* Always noted: the messages need them while the file is read. */
    if (conf_note_entry(p, name_list(k->arg), l->count) != 0)
        return -1;
    if (from != NULL)
        (*conf_list_at(&p->c, name_list(k->arg)))[l->count] = *from;
    r = idng_nameset_add(l, wire, wlen, &i);
    if (r == 1) {
        wire_to_text(wire, text);
        return conf_fail(
            p, "duplicate %s name '%s' (first at %s)", k->name, text,
            conf_first_at(p, &(*conf_list_at(&p->c, name_list(k->arg)))[i], at, sizeof at));
    }
    if (r != 0)
        return conf_fail(p, "out of memory");
    /* The root exempts every name from on-idn: the switch is off, whatever
     * it says.  Allowed (a lab may want it), but said. */
    if (k->arg == 2 && wlen == 1)
        conf_warn(p, "idn-suffixes '.' exempts every name: on-idn refuses and logs nothing");
    if (looks_like_address(wire, wlen)) {
        wire_to_text(wire, text);
        conf_warn(p, "%s name '%s' looks like an IPv4 address; the lists hold domain names, not "
                "addresses (it matches the name %s only)",
             k->name, text, text);
    }
    return 0;
}

static int set_name(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    return add_name(p, k, k->name, v, n, NULL);
}

/* -- allow-file and deny-file: files of names for the lists -- */

/* The row of the list a file key's names go to (its arg: 0 allow, 1 deny). */
static const struct key *list_row(const struct key *k)
{
    size_t i;

    for (i = 0; i < NKEYS; i++)
        if (conf_keys[i].kind == &conf_kind_names && conf_keys[i].arg == k->arg)
            return &conf_keys[i];
    return NULL;
}

int conf_add_listed(struct pstate *p, const struct key *k, const char *v, size_t n,
                    const struct idng_conf_origin *from)
{
    return add_name(p, list_row(k), k->name, v, n, from);
}

int conf_reserve_listed(struct pstate *p, const struct key *k, size_t more)
{
    struct idng_nameset *l = FIELD(&p->c, list_row(k), struct idng_nameset);

    /* The origins too: every name notes one. */
    if (more > 0 && conf_note_entry(p, name_list(k->arg), l->count + more - 1) != 0)
        return -1;
    return idng_nameset_reserve(l, more) == 0 ? 0 : conf_fail(p, "out of memory");
}

/* The path only, kept with its line; the files are read once every
 * settings file is (conf.c), their names added after the lines' names. */
static int set_names_file(struct pstate *p, const struct key *k, const char *v, size_t n)
{
    struct idng_conf_files *l = FIELD(&p->c, k, struct idng_conf_files);
    char e[ECHO_CAP], x[160], at[IDNG_CONF_LINE_MAX + 32];
    const char *why = conf_path_problem(v, n);
    char **grown_v, *copy;
    struct idng_conf_origin *grown_from;
    size_t i;

    if (why != NULL) {
        k->kind->expect(k, x, sizeof x);
        return conf_fail(p, "%s '%s' %s (expected %s)", k->name, conf_echo(e, v, n), why, x);
    }
    for (i = 0; i < l->n; i++)
        if (strlen(l->v[i]) == n && memcmp(l->v[i], v, n) == 0)
            return conf_fail(p, "duplicate %s '%s' (first at %s); a file is read once", k->name,
                             conf_echo(e, v, n), conf_first_at(p, &l->from[i], at, sizeof at));
    if ((copy = malloc(n + 1)) == NULL)
        return conf_fail(p, "out of memory");
    memcpy(copy, v, n);
    copy[n] = '\0';
    grown_v = realloc(l->v, (l->n + 1) * sizeof *grown_v);
    if (grown_v != NULL)
        l->v = grown_v;
    grown_from = grown_v != NULL ? realloc(l->from, (l->n + 1) * sizeof *grown_from) : NULL;
    if (grown_from == NULL) {
        free(copy);
        return conf_fail(p, "out of memory");
    }
    l->from = grown_from;
    l->v[l->n] = copy;
    l->from[l->n].file = p->f.file;
    l->from[l->n].line = (uint32_t)p->f.line;
    l->n++;
    return 0;
}

/* One line a file, in the order read; none at all when there is none: the
 * names of the list key's lines stand for the list (an empty list shows
 * its comment there). */
static int put_names_file(const struct idng_conf *c, const struct key *k, FILE *f)
{
    const struct idng_conf_files *l = CFIELD(c, k, struct idng_conf_files);
    const char *s;
    size_t i;

    for (i = 0; i < l->n; i++) {
        if (conf_path_problem(l->v[i], strlen(l->v[i])) != NULL
            || fprintf(f, "    %s: \"", k->name) < 0)
            return -1;
        for (s = l->v[i]; *s != '\0'; s++)
            if (((*s == '"' || *s == '\\') && putc('\\', f) == EOF) || putc(*s, f) == EOF)
                return -1;
        if (fputs("\"\n", f) == EOF)
            return -1;
    }
    return 0;
}

static void expect_names_file(const struct key *k, char *out, size_t cap)
{
    (void)k;
    snprintf(out, cap, "an absolute path of a file of names, one a line");
}

/* Is path among l's? */
static int has_path(const struct idng_conf_files *l, const char *path)
{
    size_t i;

    for (i = 0; i < l->n; i++)
        if (strcmp(l->v[i], path) == 0)
            return 1;
    return 0;
}

/* The files named: "KEY +ADDED -REMOVED (now COUNT)" (a file's names that
 * changed show in the list key's own item, which counts every name). */
static int diff_names_file(const struct idng_conf *a, const struct idng_conf *b,
                           const struct key *k, FILE *f)
{
    const struct idng_conf_files *x = CFIELD(a, k, struct idng_conf_files);
    const struct idng_conf_files *y = CFIELD(b, k, struct idng_conf_files);
    size_t i, added = 0, removed = 0;

    for (i = 0; i < y->n; i++)
        added += !has_path(x, y->v[i]);
    for (i = 0; i < x->n; i++)
        removed += !has_path(y, x->v[i]);
    if (added == 0 && removed == 0)
        return 0;
    return fputs(k->name, f) == EOF ? -1 : conf_put_tally(f, added, removed, y->n);
}

const struct kind conf_kind_names_file = {set_names_file, put_names_file, expect_names_file,
                                          diff_names_file};
