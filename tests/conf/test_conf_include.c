/**
 * \file
 * Tests of conf/conf.c, include: a local file overriding the shipped
 * one key by key, lists gathered, where each setting was made, errors
 * naming the included file and line, patterns, cycles, the depth and size
 * bounds, the last protect-file, and what a load read for the watch.
 */
#include "conf_check.h"

#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------------------ */
/* include                                                                   */

/* Writes tmpdir/name; its path into out (512 octets). */
static const char *put(const char *name, const char *text, char *out)
{
    snprintf(out, 512, "%s/%s", tmpdir, name);
    t_spew_str(out, text);
    return out;
}

/* Loads path with origins kept; 0 or -1, err filled. */
static int load_origins(struct idng_conf *c, const char *path, char *err)
{
    idng_conf_init(c);
    return idng_conf_load_flags(c, path, IDNG_CONF_F_ORIGINS, err, ERR_MAX);
}

/* "FILE:LINE" of key's origin in c, or "default". */
static const char *key_at(const struct idng_conf *c, const char *key)
{
    static char out[1024];
    struct idng_conf_origin o;

    ck_assert_int_ge(idng_conf_key_origin(c, key, &o), 0);
    idng_conf_origin_text(c, &o, out, sizeof out);
    return out;
}

/* The file the shipped settings would be, with one key of each kind and an
 * include of a directory of local files at its end. */
static const char *shipped(char *out)
{
    char text[1024];

    snprintf(text, sizeof text,
             "idnguard:\n    mode: uts46\n    on-invalid: refuse\n    log-format: text\n"
             "    allow: shipped.example\n    tld-scripts: com latin\n"
             "    include: \"%s/local-*.conf\"\n",
             tmpdir);
    return put("idnguard.conf", text, out);
}

/* A local file overrides single-valued keys of the shipped one (the
 * later setting wins); list keys gather entries from both; each setting
 * remembers the file and line that made it. */
START_TEST(test_include_overrides)
{
    char main_path[512], local[512], want[2048], err[ERR_MAX], *out;
    struct idng_conf c;
    struct idng_conf_origin o;
    int rc;

    make_tmpdir();
    shipped(main_path);
    put("local-1.conf",
        "# local settings\nidnguard:\n    on-invalid: log\n    log-format: json\n"
        "    allow: local.example\n    tld-scripts: com latin,cyrillic\n"
        "    protect: paypal.com\n",
        local);
    ck_assert_msg(load_origins(&c, main_path, err) == 0, "%s", err);
    ck_assert_int_eq(c.policy.on_invalid, IDNG_ACT_LOG);
    ck_assert_int_eq(c.policy.action[IDNG_C_CONTEXTJ], IDNG_ACT_LOG);
    ck_assert_int_eq(c.log_format, IDNG_LOGFMT_JSON);
    ck_assert_int_eq(c.policy.mode, IDNG_MODE_UTS46);
    /* Lists gather, in the order read; the same TLD's entry is replaced. */
    ck_assert_uint_eq(c.policy.allow.count, 2);
    ck_assert_uint_eq(c.policy.protect.ntld, 1);
    ck_assert_uint_eq(c.policy.protect.tld[0].scripts, IDNG_SCRIPT_LATIN | IDNG_SCRIPT_CYRILLIC);
    /* Where each came from. */
    snprintf(want, sizeof want, "%s:3", local);
    ck_assert_str_eq(key_at(&c, "on-invalid"), want);
    snprintf(want, sizeof want, "%s:2", main_path);
    ck_assert_str_eq(key_at(&c, "mode"), want);
    ck_assert_str_eq(key_at(&c, "on-contextj"), "default");
    ck_assert_int_eq(idng_conf_key_origin(&c, "on-contextj", &o), 0);
    ck_assert_int_eq(idng_conf_key_origin(&c, "no-such-key", &o), -1);
    ck_assert_ptr_nonnull(c.origin.allow);
    ck_assert_str_eq(c.origin.files[c.origin.allow[0].file], main_path);
    ck_assert_uint_eq(c.origin.allow[0].line, 5);
    ck_assert_str_eq(c.origin.files[c.origin.allow[1].file], local);
    ck_assert_uint_eq(c.origin.allow[1].line, 5);
    ck_assert_uint_eq(c.origin.protect[0].line, 7);
    ck_assert_uint_eq(c.origin.tld[0].line, 6);
    /* Written back with where each line was set, and still the settings. */
    out = NULL;
    {
        size_t len = 0;
        FILE *f = open_memstream(&out, &len);
        ck_assert(f != NULL);
        rc = idng_conf_write_origins(&c, f);
        ck_assert(fclose(f) == 0);
    }
    ck_assert_int_eq(rc, 0);
    snprintf(want, sizeof want, "\n    on-invalid: log  # %s:3\n    on-too-long: log\n", local);
    ck_assert_msg(strstr(out, want) != NULL, "%s", out);
    snprintf(want, sizeof want, "\n    allow: shipped.example.  # %s:5\n    allow: local.example.  # %s:5\n",
             main_path, local);
    ck_assert_msg(strstr(out, want) != NULL, "%s", out);
    snprintf(want, sizeof want, "\n    protect: paypal.com.  # %s:7\n    # protect-file: (none)\n",
             local);
    ck_assert_msg(strstr(out, want) != NULL, "%s", out);
    {
        struct idng_conf again;
        const char *d;
        idng_conf_init(&again);
        ck_assert_msg(idng_conf_parse(&again, out, strlen(out), "w", err, sizeof err) == 0, "%s",
                      err);
        d = conf_diff(&c, &again);
        ck_assert_msg(d == NULL, "'%s' differs after writing with origins", d);
        idng_conf_free(&again);
    }
    free(out);
    idng_conf_free(&c);
    /* Without IDNG_CONF_F_ORIGINS the entries' lines are not kept (the
     * keys' are). */
    idng_conf_init(&c);
    ck_assert_msg(idng_conf_load(&c, main_path, err, sizeof err) == 0, "%s", err);
    ck_assert_ptr_null(c.origin.allow);
    ck_assert_ptr_null(c.origin.protect);
    snprintf(want, sizeof want, "%s:3", local);
    ck_assert_str_eq(key_at(&c, "on-invalid"), want);
    idng_conf_free(&c);
    remove_tmpdir();
}
END_TEST

/* The same key twice in one file is still a slip, in an included file as in
 * the first; so is a name listed twice, in whichever files; errors name the
 * included file and its line. */
START_TEST(test_include_errors_named)
{
    char main_path[512], local[512], want[2048], err[ERR_MAX], text[1024];
    struct idng_conf c;

    make_tmpdir();
    shipped(main_path);
    put("local-1.conf", "idnguard:\n    ede: no\n    mode: punycode\n    ede: yes\n", local);
    snprintf(want, sizeof want, "%s:4: duplicate 'ede' (first at line 2)", local);
    expect_load_error(main_path, want);
    put("local-1.conf", "idnguard:\n    allow: shipped.example\n", local);
    snprintf(want, sizeof want,
             "%s:2: duplicate allow name 'shipped.example.' (first at %s:5)", local, main_path);
    expect_load_error(main_path, want);
    put("local-1.conf", "idnguard:\n\n    deny: shipped.example\n", local);
    snprintf(want, sizeof want,
             "%s:3: 'shipped.example.' is in both 'allow' (%s:5) and 'deny'; a name can be in "
             "one list only",
             local, main_path);
    expect_load_error(main_path, want);
    put("local-1.conf", "idnguard:\n    on-invalid: maybe\n", local);
    snprintf(want, sizeof want, "%s:2: bad value 'maybe' for 'on-invalid' (expected *", local);
    expect_load_error(main_path, want);
    /* An included file is a settings file of its own: its clause line
     * first. */
    put("local-1.conf", "ede: no\n", local);
    snprintf(want, sizeof want, "%s:1: 'ede' comes before the 'idnguard:' clause", local);
    expect_load_error(main_path, want);
    put("local-1.conf", "# nothing yet\n", local);
    snprintf(want, sizeof want, "%s:1: no 'idnguard:' clause*", local);
    expect_load_error(main_path, want);
    /* The main file's own repeat is still an error, include or not. */
    put("local-1.conf", "idnguard:\n", local);
    put("idnguard.conf", "idnguard:\n    mode: uts46\n    mode: punycode\n", main_path);
    snprintf(want, sizeof want, "%s:3: duplicate 'mode' (first at line 2)", main_path);
    expect_load_error(main_path, want);
    /* The files the settings write stay distinct across files: reported at
     * the key read later, naming where the other was set. */
    snprintf(text, sizeof text,
             "idnguard:\n    stats-file: \"%s/s.prom\"\n    include: %s/local-1.conf\n", tmpdir,
             tmpdir);
    put("idnguard.conf", text, main_path);
    snprintf(text, sizeof text, "idnguard:\n    ede: no\n    tap-stats-file: \"%s/s.prom\"\n",
             tmpdir);
    put("local-1.conf", text, local);
    snprintf(want, sizeof want,
             "%s:3: tap-stats-file '%s/s.prom' is the file of stats-file (%s:2): each needs a "
             "file of its own*",
             local, tmpdir, main_path);
    expect_load_error(main_path, want);
    /* A later file that sets the same key again replaces it: no clash. */
    snprintf(text, sizeof text, "idnguard:\n    stats-file: \"%s/t.prom\"\n", tmpdir);
    put("local-1.conf", text, local);
    idng_conf_init(&c);
    ck_assert_msg(idng_conf_load(&c, main_path, err, sizeof err) == 0, "%s", err);
    ck_assert(strstr(c.stats_file, "/t.prom") != NULL);
    idng_conf_free(&c);
    /* Nothing is applied after an error in any file. */
    shipped(main_path);
    put("local-1.conf", "idnguard:\n    on-invalid: log\n    stats-interval: 1h\n", local);
    idng_conf_init(&c);
    ck_assert_int_eq(idng_conf_load(&c, main_path, err, sizeof err), -1);
    ck_assert_int_eq(c.policy.on_invalid, IDNG_ACT_REFUSE);
    idng_conf_free(&c);
    remove_tmpdir();
}
END_TEST

/* A plain path must exist; a pattern that matches nothing is no error, nor
 * is one whose directory is missing; a pattern's files are read in byte
 * order of their names, so the last one's setting wins. */
START_TEST(test_include_paths)
{
    char main_path[512], p[512], text[1024], want[2048], err[ERR_MAX];
    struct idng_conf c;

    make_tmpdir();
    /* No local file yet: the shipped settings alone. */
    shipped(main_path);
    ck_assert_msg(load_origins(&c, main_path, err) == 0, "%s", err);
    ck_assert_uint_eq(c.origin.nfiles, 1);
    idng_conf_free(&c);
    snprintf(text, sizeof text, "idnguard:\n    include: %s/no-such-dir/*.conf\n", tmpdir);
    ck_assert_msg(load_origins(&c, put("m.conf", text, main_path), err) == 0, "%s", err);
    idng_conf_free(&c);
    /* A plain path that is missing is an error. */
    snprintf(text, sizeof text, "idnguard:\n    include: %s/missing.conf\n", tmpdir);
    put("m.conf", text, main_path);
    snprintf(want, sizeof want, "%s:2: include '%s/missing.conf': cannot open: %s", main_path,
             tmpdir, strerror(ENOENT));
    expect_load_error(main_path, want);
    /* Many: byte order (10 < 9 < a), whatever the order they were made in. */
    put("local-9.conf", "idnguard:\n    stats-interval: 9\n    allow: nine.example\n", p);
    put("local-a.conf", "idnguard:\n    stats-interval: 10\n    allow: a.example\n", p);
    put("local-10.conf", "idnguard:\n    stats-interval: 1\n    allow: ten.example\n", p);
    shipped(main_path);
    ck_assert_msg(load_origins(&c, main_path, err) == 0, "%s", err);
    ck_assert_uint_eq(c.stats_interval, 10);
    ck_assert_uint_eq(c.policy.allow.count, 4);
    ck_assert_str_eq((const char *)c.policy.allow.names[1], "\003ten\007example");
    ck_assert_str_eq((const char *)c.policy.allow.names[2], "\004nine\007example");
    ck_assert_str_eq((const char *)c.policy.allow.names[3], "\001a\007example");
    ck_assert_uint_eq(c.origin.nfiles, 4);
    snprintf(want, sizeof want, "%s/local-a.conf:2", tmpdir);
    ck_assert_str_eq(key_at(&c, "stats-interval"), want);
    idng_conf_free(&c);
    /* Relative paths depend on the daemon's directory: refused. */
    put("m.conf", "idnguard:\n    include: local-9.conf\n", main_path);
    snprintf(want, sizeof want, "%s:2: include 'local-9.conf' is not an absolute path*",
             main_path);
    expect_load_error(main_path, want);
    put("m.conf", "idnguard:\n    include:\n", main_path);
    snprintf(want, sizeof want, "%s:2: empty value for 'include'*", main_path);
    expect_load_error(main_path, want);
    /* An include may stand before the clause line, as in unbound.conf. */
    snprintf(text, sizeof text, "include: %s/local-9.conf\nidnguard:\n    stats-interval: 3\n",
             tmpdir);
    ck_assert_msg(load_origins(&c, put("m.conf", text, main_path), err) == 0, "%s", err);
    ck_assert_uint_eq(c.stats_interval, 3);
    ck_assert_uint_eq(c.policy.allow.count, 1);
    idng_conf_free(&c);
    remove_tmpdir();
}
END_TEST

/* Checks the i-th thing a load noted for the watch: its path (rel below
 * tmpdir, "" for tmpdir itself) and whether it was there (err). */
static void expect_source(const struct idng_conf_sources *s, size_t i, const char *rel, int err)
{
    char want[600];

    snprintf(want, sizeof want, "%s%s%s", tmpdir, rel[0] ? "/" : "", rel);
    ck_assert_msg(i < s->n, "%zu sources, none at %zu (%s)", s->n, i, want);
    ck_assert_str_eq(s->v[i].path, want);
    ck_assert_int_eq(s->v[i].sig.err, err);
}

/* What a load read, for the watch (idng_conf_sources): the settings file,
 * each included file by its real name (origin.files escapes it for
 * display), each pattern's directories (one missing noted as missing, a
 * pattern in a directory part by the directory above it and those it
 * matches), the protect-file; each once.  A failed load says what it
 * read up to the failure, its settings file too when it cannot be opened. */
START_TEST(test_include_sources)
{
    char main_path[512], p[512], d1[600], text[2048], err[ERR_MAX];
    struct idng_conf c;
    struct idng_conf_sources tried = {0};

    make_tmpdir();
    snprintf(d1, sizeof d1, "%s/d1", tmpdir);
    ck_assert_int_eq(mkdir(d1, 0700), 0);
    put("d1/x.conf", "idnguard:\n    allow: x.example\n", p);
    put("local-\xe2\x80\x8b.conf", "idnguard:\n    allow: zw.example\n", p);
    put("names.txt", "paypal.example\n", p);
    snprintf(text, sizeof text,
             "idnguard:\n    include: \"%s/local-\xe2\x80\x8b.conf\"\n"
             "    include: \"%s/none.d/*.conf\"\n    include: \"%s/d*/x.conf\"\n"
             "    include: \"%s/none.d/*.conf\"\n    protect-file: \"%s/names.txt\"\n",
             tmpdir, tmpdir, tmpdir, tmpdir, tmpdir);
    put("m.conf", text, main_path);
    ck_assert_msg(load_origins(&c, main_path, err) == 0, "%s", err);
    ck_assert_uint_eq(c.sources.n, 7);
    expect_source(&c.sources, 0, "m.conf", 0);
    expect_source(&c.sources, 1, "local-\xe2\x80\x8b.conf", 0);
    ck_assert_msg(strstr(c.origin.files[1], "\\u{200B}") != NULL, "shown as %s",
                  c.origin.files[1]);
    expect_source(&c.sources, 2, "none.d", ENOENT);
    expect_source(&c.sources, 3, "", 0);
    expect_source(&c.sources, 4, "d1", 0);
    expect_source(&c.sources, 5, "d1/x.conf", 0);
    expect_source(&c.sources, 6, "names.txt", 0);
    idng_conf_free(&c);
    ck_assert_uint_eq(c.sources.n, 0);
    /* Failed: what was read up to the failure; c untouched. */
    snprintf(text, sizeof text,
             "idnguard:\n    include: \"%s/d1/x.conf\"\n    include: \"%s/missing.conf\"\n",
             tmpdir, tmpdir);
    put("m.conf", text, main_path);
    idng_conf_init(&c);
    ck_assert_int_eq(idng_conf_load_sources(&c, main_path, 0, &tried, err, ERR_MAX), -1);
    ck_assert_uint_eq(c.sources.n, 0);
    ck_assert_uint_eq(tried.n, 3);
    expect_source(&tried, 0, "m.conf", 0);
    expect_source(&tried, 1, "d1/x.conf", 0);
    expect_source(&tried, 2, "missing.conf", ENOENT);
    /* A settings file that cannot be opened: itself. */
    snprintf(p, sizeof p, "%s/gone.conf", tmpdir);
    ck_assert_int_eq(idng_conf_load_sources(&c, p, 0, &tried, err, ERR_MAX), -1);
    ck_assert_uint_eq(tried.n, 1);
    expect_source(&tried, 0, "gone.conf", ENOENT);
    idng_conf_sources_free(&tried);
    /* Loaded: tried left empty. */
    ck_assert_int_eq(idng_conf_load_sources(&c, main_path, 0, &tried, err, ERR_MAX), -1);
    put("missing.conf", "idnguard:\n", p);
    ck_assert_msg(idng_conf_load_sources(&c, main_path, 0, &tried, err, ERR_MAX) == 0, "%s", err);
    ck_assert_uint_eq(tried.n, 0);
    ck_assert_uint_eq(c.sources.n, 3);
    idng_conf_free(&c);
    remove_tmpdir();
}
END_TEST

/* A FIFO or a directory, named or matched, is refused without waiting for
 * a writer (as the settings file itself is). */
START_TEST(test_include_not_regular)
{
    char main_path[512], p[512], text[1024], want[2048];

    make_tmpdir();
    snprintf(p, sizeof p, "%s/fifo.conf", tmpdir);
    ck_assert(mkfifo(p, 0600) == 0);
    snprintf(text, sizeof text, "idnguard:\n    include: %s\n", p);
    put("m.conf", text, main_path);
    snprintf(want, sizeof want, "%s:2: include '%s': is not a regular file", main_path, p);
    expect_load_error(main_path, want);
    snprintf(text, sizeof text, "idnguard:\n    include: %s/f*.conf\n", tmpdir);
    put("m.conf", text, main_path);
    expect_load_error(main_path, want);
    ck_assert(unlink(p) == 0);
    snprintf(p, sizeof p, "%s/dir.conf", tmpdir);
    ck_assert(mkdir(p, 0700) == 0);
    snprintf(text, sizeof text, "idnguard:\n    include: %s/d*.conf\n", tmpdir);
    put("m.conf", text, main_path);
    snprintf(want, sizeof want, "%s:2: include '%s': is a directory, not a settings file",
             main_path, p);
    expect_load_error(main_path, want);
    remove_tmpdir();
}
END_TEST

/* A file that includes itself, through others or not, a file included
 * twice, and includes nested deeper than IDNG_CONF_INCLUDE_DEPTH: errors,
 * each at the include line. */
START_TEST(test_include_cycles_depth)
{
    char a[512], b[512], m[512], text[1024], want[2048], err[ERR_MAX], name[64];
    struct idng_conf c;
    int i;

    make_tmpdir();
    snprintf(text, sizeof text, "idnguard:\n    include: %s/b.conf\n", tmpdir);
    put("a.conf", text, a);
    snprintf(text, sizeof text, "idnguard:\n    ede: no\n    include: %s/a.conf\n", tmpdir);
    put("b.conf", text, b);
    snprintf(want, sizeof want, "%s:3: include '%s': it is being read already (an include cycle)",
             b, a);
    expect_load_error(a, want);
    snprintf(text, sizeof text, "idnguard:\n    include: %s/m.conf\n", tmpdir);
    put("m.conf", text, m);
    snprintf(want, sizeof want, "%s:2: include '%s': it is being read already (an include cycle)",
             m, m);
    expect_load_error(m, want);
    /* Twice, not in a cycle: read once is the rule. */
    put("b.conf", "idnguard:\n", b);
    snprintf(text, sizeof text, "idnguard:\n    include: %s/b.conf\n    include: %s/b*.conf\n",
             tmpdir, tmpdir);
    put("m.conf", text, m);
    snprintf(want, sizeof want, "%s:3: include '%s': included already (at line 2); a file is "
                                "read once",
             m, b);
    expect_load_error(m, want);
    /* A chain: m -> c1 -> ... -> cN.  Each file includes the next. */
    for (i = 1; i <= IDNG_CONF_INCLUDE_DEPTH + 1; i++) {
        snprintf(name, sizeof name, "c%d.conf", i);
        if (i <= IDNG_CONF_INCLUDE_DEPTH)
            snprintf(text, sizeof text, "idnguard:\n    include: %s/c%d.conf\n", tmpdir, i + 1);
        else
            snprintf(text, sizeof text, "idnguard:\n    ede: no\n");
        put(name, text, a);
    }
    /* IDNG_CONF_INCLUDE_DEPTH nested includes are fine: m includes c2. */
    snprintf(text, sizeof text, "idnguard:\n    include: %s/c2.conf\n", tmpdir);
    ck_assert_msg(load_origins(&c, put("m.conf", text, m), err) == 0, "%s", err);
    ck_assert_int_eq(c.ede, 0);
    idng_conf_free(&c);
    /* One more is not: m includes c1. */
    snprintf(text, sizeof text, "idnguard:\n    include: %s/c1.conf\n", tmpdir);
    put("m.conf", text, m);
    snprintf(want, sizeof want, "%s/c%d.conf:2: include '%s/c%d.conf': includes nest deeper than %d",
             tmpdir, IDNG_CONF_INCLUDE_DEPTH, tmpdir, IDNG_CONF_INCLUDE_DEPTH + 1,
             IDNG_CONF_INCLUDE_DEPTH);
    expect_load_error(m, want);
    remove_tmpdir();
}
END_TEST

/* IDNG_CONF_FILE_MAX bounds the settings files together; the protect-file
 * keeps its own bound, and the last protect-file line is the one read. */
START_TEST(test_include_size_protect_file)
{
    char m[512], p[512], names1[512], names2[512], text[2048], want[2048], err[ERR_MAX];
    struct idng_conf c;
    char *big;
    size_t half = IDNG_CONF_FILE_MAX / 2 + 1;

    make_tmpdir();
    big = malloc(half);
    ck_assert(big != NULL);
    memset(big, '\n', half);
    memcpy(big, "idnguard:", 9);
    snprintf(p, sizeof p, "%s/big-1.conf", tmpdir);
    t_spew(p, big, half);
    snprintf(p, sizeof p, "%s/big-2.conf", tmpdir);
    t_spew(p, big, half);
    free(big);
    snprintf(text, sizeof text, "idnguard:\n    include: %s/big-1.conf\n", tmpdir);
    ck_assert_msg(load_origins(&c, put("m.conf", text, m), err) == 0, "%s", err);
    idng_conf_free(&c);
    snprintf(text, sizeof text, "idnguard:\n    include: %s/big-*.conf\n", tmpdir);
    put("m.conf", text, m);
    snprintf(want, sizeof want,
             "%s:2: include '%s': too big; the settings files together may hold %d octets", m, p,
             IDNG_CONF_FILE_MAX);
    expect_load_error(m, want);

    /* protect-file in the shipped file, another in the local one: the
     * local one's names only, with their lines in it. */
    put("names1.txt", "paypal.com\n", names1);
    put("names2.txt", "# ours\nexample.org\n", names2);
    snprintf(text, sizeof text,
             "idnguard:\n    protect: bank.example\n    protect-file: %s\n"
             "    include: %s/local.conf\n",
             names1, tmpdir);
    put("m.conf", text, m);
    snprintf(text, sizeof text, "idnguard:\n    protect-file: %s\n", names2);
    put("local.conf", text, p);
    ck_assert_msg(load_origins(&c, m, err) == 0, "%s", err);
    ck_assert_uint_eq(c.policy.protect.names.count, 2);
    ck_assert_str_eq((const char *)c.policy.protect.names.names[1], "\007example\003org");
    ck_assert_str_eq(c.origin.files[c.origin.protect[1].file], names2);
    ck_assert_uint_eq(c.origin.protect[1].line, 2);
    ck_assert_uint_eq(c.origin.protect[0].line, 2);
    snprintf(want, sizeof want, "%s:2", p);
    ck_assert_str_eq(key_at(&c, "protect-file"), want);
    idng_conf_free(&c);
    /* Its errors are reported at the line that named it. */
    put("names2.txt", "xn--zz.example\n", names2);
    snprintf(want, sizeof want, "%s:2: %s:1: bad name 'xn--zz.example' for 'protect-file'*", p,
             names2);
    expect_load_error(m, want);
    remove_tmpdir();
}
END_TEST


static Suite *conf_include_suite(void)
{
    Suite *s = suite_create("conf-include");
    TCase *tc = tcase_create("include");

    tcase_add_test(tc, test_include_overrides);
    tcase_add_test(tc, test_include_errors_named);
    tcase_add_test(tc, test_include_paths);
    tcase_add_test(tc, test_include_sources);
    tcase_add_test(tc, test_include_not_regular);
    tcase_add_test(tc, test_include_cycles_depth);
    tcase_add_test(tc, test_include_size_protect_file);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(conf_include_suite)
