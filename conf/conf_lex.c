/**
 * \file
 * The settings file's lines: octet checks, the clause header, quoting, and
 * "key: value" handed to the key's kind.
 */
#include "idng_conf_internal.h"

#include <string.h>

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
        return conf_fail(p, "line is %zu octets long; the limit is %d", n, IDNG_CONF_LINE_MAX);
    while (i < n) {
        unsigned char ch = (unsigned char)s[i];
        uint32_t cp;
        size_t m;

        if (ch == '\t' || (ch >= 0x20 && ch < 0x7f)) {
            i++;
            continue;
        }
        if (ch == 0)
            return conf_fail(p, "NUL octet at column %zu (is this a text file?)", i + 1);
        if (ch == '\r')
            return conf_fail(p, "carriage return not followed by line feed at column %zu", i + 1);
        if (ch < 0x80)
            return conf_fail(p, "control character 0x%02X at column %zu; only tab and space may "
                        "separate words", ch, i + 1);
        m = idng_utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (m == 0)
            return conf_fail(
                p, "invalid UTF-8 at column %zu (octet 0x%02X); the file must be UTF-8", i + 1, ch);
        i += m;
    }
    return 0;
}

/* The clause header: it must stand alone, once. */
static int clause(struct pstate *p, size_t vlen, int quoted)
{
    if (vlen > 0 || quoted)
        return conf_fail(p, "'idnguard:' must stand alone on its line; put each setting on a line "
                    "of its own");
    if (p->f.clause_line != 0)
        return conf_fail(p, "second 'idnguard:' clause (the first is at line %zu)",
                         p->f.clause_line);
    p->f.clause_line = p->f.line;
    return 0;
}

/* The quoted value that starts at s[*i] (a '"'), unescaped into p->vbuf
 * (*vlen octets); *i left after it.  \" and \\ are the only escapes, so any
 * path can be written and a stray backslash is not silently dropped.  0,
 * or -1 (reported). */
static int quoted_value(struct pstate *p, const char *s, size_t n, size_t *at, size_t *vlen)
{
    size_t i = *at, o = 0;
    char e[ECHO_CAP];

    for (i++;; i++) {
        if (i == n)
            return conf_fail(p, "unterminated quote (a quoted value ends on its own line)");
        if (s[i] == '"')
            break;
        if (s[i] == '\\') {
            if (i + 1 < n && (s[i + 1] == '"' || s[i + 1] == '\\')) {
                i++;
            } else if (i + 1 < n) {
                uint32_t cp;
                size_t m = idng_utf8_decode((const unsigned char *)s + i + 1, n - i - 1, &cp);
                return conf_fail(p,
                                 "unknown escape '\\%s' in quotes; only \\\" and \\\\ are "
                                 "escapes",
                                 conf_echo(e, s + i + 1, m > 0 ? m : 1));
            } else {
                return conf_fail(p, "unterminated quote (a quoted value ends on its own line)");
            }
        }
        p->vbuf[o++] = s[i];
    }
    *vlen = o;
    for (i++; i < n && is_blank(s[i]); i++)
        ;
    *at = i;
    if (i < n && s[i] != '#')
        return conf_fail(p, "text after the closing quote: '%s'", conf_echo(e, s + i, n - i));
    return 0;
}

/* Applies "key: value" (the key s[0..kl), the value v[0..vlen), quoted or
 * not) to p: the clause header, an include, or a key of the table. */
static int apply(struct pstate *p, const char *s, size_t kl, const char *v, size_t vlen, int quoted)
{
    const struct key *k;
    char e[ECHO_CAP], x[320];

    if (kl == 8 && memcmp(s, "idnguard", 8) == 0)
        return clause(p, vlen, quoted);
    if (kl == 7 && memcmp(s, "include", 7) == 0)
        return conf_include(p, v, vlen);
    k = conf_find_key(s, kl);
    if (k == NULL) {
        if (vlen == 0 && !quoted)
            return conf_fail(p, "unknown clause '%s:'; this file holds only the 'idnguard:' clause",
                             conf_echo(e, s, kl));
        return conf_fail(p, "unknown key '%s'", conf_echo(e, s, kl));
    }
    if (p->f.clause_line == 0)
        return conf_fail(p, "'%s' comes before the 'idnguard:' clause", k->name);
    /* Once a file: a repeat there is a slip.  Another file may set it
     * again, and then replaces the value (see idng_conf.h). */
    if (!(k->flags & K_REPEAT) && p->f.first_line[k - conf_keys] != 0)
        return conf_fail(p, "duplicate '%s' (first at line %zu)", k->name,
                         p->f.first_line[k - conf_keys]);
    if (vlen == 0 && !(quoted && (k->flags & K_EMPTY_OK))) {
        k->kind->expect(k, x, sizeof x);
        return conf_fail(p, "empty value for '%s' (expected %s)", k->name, x);
    }
    if (k->kind->set(p, k, v, vlen) != 0)
        return -1;
    if (p->f.first_line[k - conf_keys] == 0)
        p->f.first_line[k - conf_keys] = p->f.line;
    p->c.origin.key[k - conf_keys].file = p->f.file;
    p->c.origin.key[k - conf_keys].line = (uint32_t)p->f.line;
    p->key_seq[k - conf_keys] = p->seq;
    return 0;
}

static int parse_line(struct pstate *p, const char *s, size_t n)
{
    size_t i = 0, ks, kl, vlen = 0;
    const char *v;
    int quoted = 0;
    char e[ECHO_CAP];

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
        return conf_fail(p, "expected 'key: value', found '%s'", conf_echo(e, s + ks, n - ks));
    while (i < n && is_blank(s[i]))
        i++;
    if (i == n || s[i] != ':')
        return conf_fail(p, "missing ':' after '%s'", conf_echo(e, s + ks, kl));
    i++;
    while (i < n && is_blank(s[i]))
        i++;

    if (i < n && s[i] == '"') {
        quoted = 1;
        if (quoted_value(p, s, n, &i, &vlen) != 0)
            return -1;
        v = p->vbuf;
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
            return conf_fail(p, "stray '\"' in the value '%s'; quote the whole value",
                             conf_echo(e, v, vlen));
    }
    return apply(p, s + ks, kl, v, vlen, quoted);
}

/* The lines of one file (the first, or one included): every problem is
 * reported, lines being independent. */
void conf_parse_text(struct pstate *p, const char *buf, size_t len)
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
        conf_fail(p, "no 'idnguard:' clause (wrong file? settings must follow a line 'idnguard:')");
}
