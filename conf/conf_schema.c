/**
 * \file
 * The schema: one table, `conf_keys`, in the manner of Knot DNS: a row per
 * key naming its kind (how a value is parsed, checked and written back) and
 * whether it may repeat.  The on-<class> rows are generated from the
 * codec's IDNG_CLASS_LIST, so a new error class gets its key without a
 * second list to keep in step.  The writer, the origins and the diff walk
 * the table.
 */
#define _DEFAULT_SOURCE /* open_memstream */
#include "idng_conf_internal.h"

#include <stdlib.h>
#include <string.h>

/* The table.  Order is the order idng_conf_write uses. */
const struct key conf_keys[] = {
    {"mode", &conf_kind_mode, offsetof(struct idng_conf, policy.mode), 0, 0},
    {"on-invalid", &conf_kind_action, 0, ON_INVALID, 0},
#define IDNG_X_KEY(sym, name) {"on-" name, &conf_kind_action, 0, sym, 0},
    IDNG_CLASS_LIST(IDNG_X_KEY)
#undef IDNG_X_KEY
        {"log-queries", &conf_kind_bool, offsetof(struct idng_conf, log_queries), 0, 0},
    {"log-rejected", &conf_kind_bool, offsetof(struct idng_conf, log_rejected), 0, 0},
    {"log-format", &conf_kind_log_format, offsetof(struct idng_conf, log_format), 0, 0},
    {"log-file", &conf_kind_path, offsetof(struct idng_conf, log_file), 0, K_EMPTY_OK},
    {"anonymize-clients", &conf_kind_bool, offsetof(struct idng_conf, anonymize_clients), 0, 0},
    {"ede", &conf_kind_bool, offsetof(struct idng_conf, ede), 0, 0},
    {"allow", &conf_kind_names, offsetof(struct idng_conf, policy.allow), 0, K_REPEAT},
    {"deny", &conf_kind_names, offsetof(struct idng_conf, policy.deny), 1, K_REPEAT},
    {"allow-file", &conf_kind_names_file, offsetof(struct idng_conf, allow_files), 0, K_REPEAT},
    {"deny-file", &conf_kind_names_file, offsetof(struct idng_conf, deny_files), 1, K_REPEAT},
    {"stats-interval", &conf_kind_seconds, offsetof(struct idng_conf, stats_interval), 0, 0},
    {"stats-file", &conf_kind_path, offsetof(struct idng_conf, stats_file), 0, K_EMPTY_OK},
    {"tap-stats-file", &conf_kind_path, offsetof(struct idng_conf, tap_stats_file), 0, K_EMPTY_OK},
    {"watch-settings", &conf_kind_bool, offsetof(struct idng_conf, watch_settings), 0, 0},
    {"restriction-level", &conf_kind_restriction,
     offsetof(struct idng_conf, policy.restriction_level), 0, 0},
    {"protect", &conf_kind_protect, 0, 0, K_REPEAT},
    {"protect-file", &conf_kind_protect_file, offsetof(struct idng_conf, protect_file), 0, 0},
    {"protect-suffixes", &conf_kind_suffixes, 0, 0, 0},
    {"protect-embedded", &conf_kind_bool, offsetof(struct idng_conf, policy.protect.embedded), 0,
     0},
    {"tld-scripts", &conf_kind_tld_scripts, 0, 0, K_REPEAT},
    {"idn-scripts", &conf_kind_idn_scripts, 0, 0, K_REPEAT},
    {"idn-suffixes", &conf_kind_names, offsetof(struct idng_conf, policy.idn_suffixes), 2,
     K_REPEAT},
};
_Static_assert(sizeof conf_keys / sizeof conf_keys[0] == NKEYS, "NKEYS counts the rows");
_Static_assert(NKEYS <= IDNG_CONF_KEYS_MAX, "IDNG_CONF_KEYS_MAX needs a slot per key row");

static int row_active(const struct key *k)
{
    return k->kind != &conf_kind_action || k->arg == ON_INVALID
           || idng_policy_class_configurable(k->arg);
}

const struct key *conf_find_key(const char *s, size_t n)
{
    size_t i;
    for (i = 0; i < NKEYS; i++)
        if (strlen(conf_keys[i].name) == n && memcmp(conf_keys[i].name, s, n) == 0
            && row_active(&conf_keys[i]))
            return &conf_keys[i];
    return NULL;
}

const char *conf_list_key_name(int which)
{
    size_t i;
    for (i = 0; i < NKEYS; i++)
        if (conf_keys[i].kind == &conf_kind_names && conf_keys[i].arg == which)
            return conf_keys[i].name;
    return "?";
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
        if (row_active(&conf_keys[i])
            && (origins ? put_row_origins(c, i, f) : conf_keys[i].kind->put(c, &conf_keys[i], f))
                   != 0)
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
    const struct key *k = &conf_keys[row];
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
    if (k->kind == &conf_kind_names)
        entries = k->arg == 0   ? c->origin.allow
                  : k->arg == 1 ? c->origin.deny
                                : c->origin.idn_suffixes;
    else if (k->kind == &conf_kind_protect)
        entries = c->origin.protect; /* the protect lines come first */
    else if (k->kind == &conf_kind_tld_scripts)
        entries = c->origin.tld;
    else if (k->kind == &conf_kind_names_file)
        entries = CFIELD(c, k, struct idng_conf_files)->from;
    for (s = text; *s != '\0';) {
        char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        const struct idng_conf_origin *o = NULL;
        int comment = strspn(s, " ") < n && s[strspn(s, " ")] == '#';

        if (!comment)
            /* idn-scripts gathers its lines into one: the last line that
             * added to it. */
            o = k->flags & K_REPEAT && k->kind != &conf_kind_idn_scripts
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
    const struct key *k = conf_find_key(key, strlen(key));

    o->file = o->line = 0;
    if (k == NULL)
        return -1;
    *o = c->origin.key[k - conf_keys];
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

        if (!row_active(&conf_keys[i]))
            continue;
        if ((g = open_memstream(&item, &ilen)) == NULL) {
            failed = 1;
            break;
        }
        r = conf_keys[i].kind->diff(old, now, &conf_keys[i], g);
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
