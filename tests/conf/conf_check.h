/**
 * \file
 * Helpers shared by the settings suites (tests/conf/test_conf_*.c): files
 * written and settings compared, parsed and round-tripped, text names
 * made wire names, a scratch directory per test, and loads that must
 * fail.  Header-only (static inline): the Makefile links each suite from
 * its one file and tests/common.c.
 */
#ifndef IDNG_TESTS_CONF_CHECK_H
#define IDNG_TESTS_CONF_CHECK_H

#include "common.h"
#include "idng_conf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define ERR_MAX 1024

/* idng_conf_write into a malloc'd string. */
static inline char *write_str(const struct idng_conf *c, int *rc)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);

    ck_assert(f != NULL);
    *rc = idng_conf_write(c, f);
    ck_assert(fclose(f) == 0);
    return out;
}

static inline int list_equal(const struct idng_nameset *a, const struct idng_nameset *b)
{
    size_t i;
    if (a->count != b->count)
        return 0;
    for (i = 0; i < a->count; i++) {
        size_t la = 0, lb = 0;
        while (a->names[i][la] != 0)
            la += 1u + a->names[i][la];
        while (b->names[i][lb] != 0)
            lb += 1u + b->names[i][lb];
        if (la != lb || memcmp(a->names[i], b->names[i], la + 1) != 0)
            return 0;
    }
    return 1;
}

/* The same tld-scripts entries, in the same order? */
static inline int tld_equal(const struct idng_protect *a, const struct idng_protect *b)
{
    size_t i;
    if (a->ntld != b->ntld)
        return 0;
    for (i = 0; i < a->ntld; i++)
        if (a->tld[i].len != b->tld[i].len || a->tld[i].scripts != b->tld[i].scripts
            || memcmp(a->tld[i].label, b->tld[i].label, a->tld[i].len) != 0)
            return 0;
    return 1;
}

/* Same effective settings?  Returns the first field that differs, or NULL. */
static inline const char *conf_diff(const struct idng_conf *a, const struct idng_conf *b)
{
    int cls;
    if (a->policy.mode != b->policy.mode)
        return "mode";
    for (cls = 0; cls < IDNG_CLASS_COUNT; cls++)
        if (a->policy.action[cls] != b->policy.action[cls])
            return idng_class_name((idng_class)cls);
    if (a->policy.on_invalid != b->policy.on_invalid)
        return "on_invalid";
    if (a->log_queries != b->log_queries)
        return "log_queries";
    if (a->log_format != b->log_format)
        return "log_format";
    if ((a->log_file == NULL) != (b->log_file == NULL)
        || (a->log_file != NULL && strcmp(a->log_file, b->log_file) != 0))
        return "log_file";
    if (a->ede != b->ede)
        return "ede";
    if (!list_equal(&a->policy.allow, &b->policy.allow))
        return "allow";
    if (!list_equal(&a->policy.deny, &b->policy.deny))
        return "deny";
    if (a->stats_interval != b->stats_interval)
        return "stats_interval";
    if (a->watch_settings != b->watch_settings)
        return "watch_settings";
    if (a->policy.restriction_level != b->policy.restriction_level)
        return "restriction_level";
    if (!list_equal(&a->policy.protect.names, &b->policy.protect.names))
        return "protect";
    if (a->policy.protect.suffixes != b->policy.protect.suffixes)
        return "protect-suffixes";
    if (a->policy.protect.embedded != b->policy.protect.embedded)
        return "protect-embedded";
    if (!tld_equal(&a->policy.protect, &b->policy.protect))
        return "tld-scripts";
    if (a->policy.idn_scripts != b->policy.idn_scripts)
        return "idn-scripts";
    if (!list_equal(&a->policy.idn_suffixes, &b->policy.idn_suffixes))
        return "idn-suffixes";
    return NULL;
}

static inline int parse_str(struct idng_conf *c, const char *text, char *err)
{
    return idng_conf_parse(c, text, strlen(text), "t.conf", err, ERR_MAX);
}

/* Writes c, parses the output, and checks both that the settings survive
 * and that writing again gives the same text. */
static inline void check_round_trip(const struct idng_conf *c, const char *what)
{
    struct idng_conf again;
    char err[ERR_MAX], *text, *text2;
    const char *d;
    int rc;

    text = write_str(c, &rc);
    ck_assert_msg(rc == 0, "%s: idng_conf_write failed", what);
    idng_conf_init(&again);
    ck_assert_msg(idng_conf_parse(&again, text, strlen(text), "written", err, sizeof err) == 0,
                  "%s: written settings do not parse: %s", what, err);
    d = conf_diff(c, &again);
    ck_assert_msg(d == NULL, "%s: '%s' differs after write and parse", what, d);
    text2 = write_str(&again, &rc);
    ck_assert_msg(rc == 0 && strcmp(text, text2) == 0, "%s: second write differs", what);
    free(text);
    free(text2);
    idng_conf_free(&again);
}

/* Text name -> wire, case kept, for queries (no checks beyond the test's). */
static inline size_t to_wire(const char *name, uint8_t *out)
{
    size_t o = 0, n = strlen(name);
    const char *p = name, *end = name + n;

    if (n > 0 && name[n - 1] == '.')
        end--;
    while (p < end) {
        const char *dot = memchr(p, '.', (size_t)(end - p));
        size_t l = (size_t)((dot ? dot : end) - p);
        ck_assert(l > 0 && l <= 63 && o + l + 2 <= 255);
        out[o++] = (uint8_t)l;
        memcpy(out + o, p, l);
        o += l;
        p += l + (dot != NULL);
    }
    out[o++] = 0;
    return o;
}

/* The test's scratch directory, made and removed by the two below.  Every
 * suite that includes this file uses it (an unused one fails -Werror). */
static char tmpdir[256];

static inline void make_tmpdir(void)
{
    t_tmpdir_make(tmpdir, sizeof tmpdir, "idng-conf");
}

/* Removes what the load tests create (files, one FIFO, subdirectories). */
static inline void remove_tmpdir(void)
{
    t_tmpdir_remove(tmpdir);
}

/* Loads path, expecting failure with exactly want (or a prefix of it when
 * want ends in '*'), and c untouched. */
static inline void expect_load_error(const char *path, const char *want)
{
    struct idng_conf c, before;
    char err[ERR_MAX];
    size_t n = strlen(want);

    idng_conf_init(&c);
    ck_assert_int_eq(parse_str(&c, "idnguard:\n    allow: example.net\n", err), 0);
    memcpy(&before, &c, sizeof c); /* padding included, for memcmp */
    ck_assert_msg(idng_conf_load(&c, path, err, sizeof err) == -1, "%s loaded", path);
    if (n > 0 && want[n - 1] == '*')
        ck_assert_msg(strncmp(err, want, n - 1) == 0, "got \"%s\", want \"%s\"", err, want);
    else
        ck_assert_str_eq(err, want);
    ck_assert(memcmp(&c, &before, sizeof c) == 0);
    idng_conf_free(&c);
}

#endif
