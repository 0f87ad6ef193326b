/**
 * \file
 * Tests of conf/conf.c, the parser and loading: round trips, the
 * settings left untouched by an error, the error buffer, name lists and
 * their matching, missing, unreadable, oversized and non-regular files,
 * and random input (garbage files, mutations of a valid one).
 */
#include "conf_check.h"

#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------------------ */
/* Parser behaviour that golden files cannot show                           */

static const char *const rich =
    "idnguard:\n"
    "    stats-interval: 0\n"
    "    deny: Bad.Example.NET\n"
    "    on-bidi: log\n"
    "    mode: punycode\n"
    "    allow: bücher.de\n"
    "    allow: .\n"
    "    on-raw-8bit: drop\n"
    "    on-invalid: nxdomain\n"
    "    log-file: \"/var/log/a \\\"b\\\" \\\\c#d.log\"\n"
    "    log-format: json\n"
    "    deny: 0/25.2.0.192.in-addr.arpa.\n";

START_TEST(test_round_trip)
{
    struct idng_conf c;
    char err[ERR_MAX];
    static const uint8_t buecher[] = "\015xn--bcher-kva\002de";

    idng_conf_init(&c);
    ck_assert_msg(parse_str(&c, rich, err) == 0, "%s", err);
    ck_assert_str_eq(c.log_file, "/var/log/a \"b\" \\c#d.log");
    ck_assert_int_eq(c.policy.action[IDNG_C_BIDI], IDNG_ACT_LOG);
    ck_assert_int_eq(c.policy.action[IDNG_C_HYPHEN], IDNG_ACT_NXDOMAIN);
    ck_assert_int_eq(c.policy.action[IDNG_C_RAW_8BIT], IDNG_ACT_DROP);
    ck_assert_int_eq(c.policy.action[IDNG_C_OK], IDNG_ACT_PASS);
    ck_assert_uint_eq(c.policy.allow.count, 2);
    ck_assert_mem_eq(c.policy.allow.names[0], buecher, sizeof buecher);
    ck_assert_uint_eq(c.policy.allow.names[1][0], 0);
    ck_assert_uint_eq(c.policy.deny.count, 2);
    ck_assert_mem_eq(c.policy.deny.names[0], "\003bad\007example\003net", 17);
    check_round_trip(&c, "rich");
    idng_conf_free(&c);

    /* The defaults survive a round trip as well. */
    idng_conf_init(&c);
    check_round_trip(&c, "defaults");
}
END_TEST

START_TEST(test_untouched_on_error)
{
    struct idng_conf c, before;
    char err[ERR_MAX];
    static const char *const bad[] = {
        "idnguard:\n    mode: idna2008\n    bogus: 1\n",
        "idnguard:\n    allow: example.com\n    allow: a..b\n",
        "idnguard:\n    log-file: /tmp/x\n    ede: maybe\n",
        /* an entry of the TLD table made, then a bad line */
        "idnguard:\n    tld-scripts: com latin,cyrillic\n    tld-scripts: org klingon\n",
        /* idn-suffixes and idn-scripts taken, then a bad line */
        "idnguard:\n    idn-suffixes: example.ru\n    idn-scripts: latin\n    idn-scripts: x\n",
        "",
    };
    int i;

    idng_conf_init(&c);
    ck_assert_msg(parse_str(&c, rich, err) == 0, "%s", err);
    memcpy(&before, &c, sizeof c); /* padding included, for memcmp */
    for (i = 0; i < N_OF(bad); i++) {
        ck_assert_int_eq(parse_str(&c, bad[i], err), -1);
        /* Same pointers, same values: nothing freed, nothing replaced. */
        ck_assert_msg(memcmp(&c, &before, sizeof c) == 0, "case %d changed c", i);
    }
    ck_assert_str_eq(c.log_file, "/var/log/a \"b\" \\c#d.log");
    /* A successful parse replaces everything, lists included. */
    ck_assert_int_eq(parse_str(&c, "idnguard:\n    deny: x.example\n", err), 0);
    ck_assert_uint_eq(c.policy.allow.count, 0);
    ck_assert_uint_eq(c.policy.deny.count, 1);
    ck_assert_ptr_null(c.log_file);
    ck_assert_int_eq(c.policy.mode, IDNG_MODE_UTS46);
    idng_conf_free(&c);
}
END_TEST

START_TEST(test_error_buffer)
{
    struct idng_conf c;
    char err[ERR_MAX], small[12];
    const char *text = "idnguard:\n    mode: bogus\n";

    idng_conf_init(&c);
    ck_assert_int_eq(idng_conf_parse(&c, text, strlen(text), NULL, err, sizeof err), -1);
    ck_assert_str_eq(err, "config:2: bad value 'bogus' for 'mode' (expected punycode, "
                          "idna2008-lookup, idna2008-registration (or idna2008) or uts46)");
    /* Truncated, terminated, and never written past its capacity. */
    memset(small, 'Z', sizeof small);
    ck_assert_int_eq(idng_conf_parse(&c, text, strlen(text), "f", small, 8), -1);
    ck_assert_str_eq(small, "f:2: ba");
    ck_assert_int_eq(small[8], 'Z');
    ck_assert_int_eq(idng_conf_parse(&c, text, strlen(text), "f", NULL, 0), -1);
    ck_assert_int_eq(idng_conf_parse(&c, text, strlen(text), "f", small, 0), -1);
    ck_assert_int_eq(small[0], 'f');
    /* Only the first error is reported. */
    text = "idnguard:\n    mode: bogus\n    ede: maybe\n";
    ck_assert_int_eq(idng_conf_parse(&c, text, strlen(text), "f", err, sizeof err), -1);
    ck_assert_msg(strncmp(err, "f:2: ", 5) == 0, "%s", err);
    /* The length, not a NUL, ends the input. */
    text = "idnguard:\n    mode: punycode\n    mode: bogus\n";
    ck_assert_int_eq(idng_conf_parse(&c, text, 29, "f", err, sizeof err), 0);
    ck_assert_int_eq(c.policy.mode, IDNG_MODE_PUNYCODE);
    /* The IDNA2008 modes by what they are (RFC 5891 4 and 5.4); "idna2008"
     * stays the registration's name. */
    text = "idnguard:\n    mode: idna2008-lookup\n";
    ck_assert_int_eq(idng_conf_parse(&c, text, strlen(text), "f", err, sizeof err), 0);
    ck_assert_int_eq(c.policy.mode, IDNG_MODE_IDNA2008_LOOKUP);
    text = "idnguard:\n    mode: idna2008-registration\n";
    ck_assert_int_eq(idng_conf_parse(&c, text, strlen(text), "f", err, sizeof err), 0);
    ck_assert_int_eq(c.policy.mode, IDNG_MODE_IDNA2008);
    text = "idnguard:\n    mode: idna2008\n";
    ck_assert_int_eq(idng_conf_parse(&c, text, strlen(text), "f", err, sizeof err), 0);
    ck_assert_int_eq(c.policy.mode, IDNG_MODE_IDNA2008);
    idng_conf_free(&c);
}
END_TEST

START_TEST(test_line_numbers_crlf)
{
    struct idng_conf c;
    char err[ERR_MAX];
    const char *text = "idnguard:\r\n\r\n# x\r\n    ede: maybe\r\n";

    idng_conf_init(&c);
    ck_assert_int_eq(idng_conf_parse(&c, text, strlen(text), "f", err, sizeof err), -1);
    ck_assert_str_eq(err, "f:4: bad value 'maybe' for 'ede' (expected yes or no)");
    idng_conf_free(&c);
}
END_TEST

START_TEST(test_write_refuses_unwritable)
{
    struct idng_conf c;
    char *text;
    int rc;
    uint8_t star[] = "\001*\007example\0";

    idng_conf_init(&c);
    c.policy.mode = (idng_mode)7;
    text = write_str(&c, &rc);
    ck_assert_int_eq(rc, -1);
    free(text);

    idng_conf_init(&c);
    c.policy.action[IDNG_C_BIDI] = IDNG_ACT_NORMALIZE;
    text = write_str(&c, &rc);
    ck_assert_int_eq(rc, -1);
    free(text);

    idng_conf_init(&c);
    c.stats_interval = IDNG_CONF_STATS_MAX + 1;
    text = write_str(&c, &rc);
    ck_assert_int_eq(rc, -1);
    free(text);

    idng_conf_init(&c);
    c.log_file = (char *)"relative/path";
    text = write_str(&c, &rc);
    ck_assert_int_eq(rc, -1);
    free(text);

    idng_conf_init(&c);
    {
        uint8_t *names[1] = {star};
        c.policy.allow.names = names;
        c.policy.allow.count = c.policy.allow.cap = 1;
        text = write_str(&c, &rc);
        ck_assert_int_eq(rc, -1);
        free(text);
    }
    ck_assert_int_eq(idng_conf_write(NULL, stdout), -1);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Name lists                                                                */

struct listed_case {
    const char *list;   /**< "allow:" lines, '|' between names */
    const char *query;  /**< text name, converted with its case kept */
    int want;
};

static const struct listed_case listed_cases[] = {
    {"example.net", "example.net.", 1},
    {"example.net.", "example.net", 1},
    {"example.net", "www.example.net", 1},
    {"example.net", "a.b.c.d.example.net", 1},
    {"example.net", "xample.net", 0},
    {"example.net", "wwwexample.net", 0},     /* suffix, but not on a label boundary */
    {"example.net", "net", 0},
    {"example.net", ".", 0},
    {"example.net", "example.org", 0},
    {"example.net", "example.net.evil", 0},
    {"example.net", "example.ne", 0},
    {"example.net", "WWW.EXAMPLE.NET", 1},   /* case-insensitive */
    {"EXAMPLE.Net", "www.example.NET.", 1},
    {"www.example.net", "example.net", 0},   /* a parent is not below its child */
    {".", "anything.example.", 1},             /* the root lists everything */
    {".", ".", 1},
    {".", "a.b.c.d.e.f", 1},
    {"bücher.de", "www.xn--bcher-kva.de", 1},  /* stored as the A-label */
    {"bücher.de", "WWW.XN--BCHER-KVA.DE", 1},
    {"bücher.de", "bcher.de", 0},
    {"a.example|b.example", "x.b.example", 1}, /* any name of the list */
    {"a.example|b.example", "c.example", 0},
    {"0/25.2.0.192.in-addr.arpa", "5.0/25.2.0.192.in-addr.arpa", 1},
    {"_dmarc.example", "_DMARC.example.", 1},
};

START_TEST(test_listed)
{
    const struct listed_case *t = &listed_cases[_i];
    struct idng_conf c;
    char text[512], err[ERR_MAX];
    const char *p = t->list;
    size_t o;
    uint8_t wire[256];
    size_t wlen;

    o = (size_t)snprintf(text, sizeof text, "idnguard:\n");
    while (*p != '\0') {
        size_t l = strcspn(p, "|");
        o += (size_t)snprintf(text + o, sizeof text - o, "    allow: %.*s\n", (int)l, p);
        p += l + (p[l] == '|');
    }
    idng_conf_init(&c);
    ck_assert_msg(parse_str(&c, text, err) == 0, "%s", err);
    wlen = to_wire(t->query, wire);
    ck_assert_msg((idng_nameset_listed(&c.policy.allow, wire, wlen) != 0) == t->want,
                  "list '%s', query '%s': expected %d", t->list, t->query, t->want);
    /* The length given may exceed the name; only the root label ends it. */
    wire[wlen] = 0xC0;
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, wire, wlen + 1) != 0, t->want);
    ck_assert_int_eq(idng_nameset_listed(&c.policy.deny, wire, wlen), 0);
    idng_conf_free(&c);
}
END_TEST

/* The longest matching entry is reported, so allow and deny can be compared. */
START_TEST(test_listed_longest)
{
    static const char text[] = "idnguard:\n    allow: example.\n    allow: www.example.\n";
    static const uint8_t q[] = "\x01" "a" "\x03" "www" "\x07" "example" "\x00";
    static const uint8_t other[] = "\x04" "mail" "\x07" "example" "\x00";
    struct idng_conf c;
    char err[ERR_MAX];

    idng_conf_init(&c);
    ck_assert_msg(parse_str(&c, text, err) == 0, "%s", err);
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, q, sizeof q - 1), 13);
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, other, sizeof other - 1), 9);
    idng_conf_free(&c);
}
END_TEST

START_TEST(test_listed_malformed)
{
    struct idng_conf c;
    char err[ERR_MAX];
    uint8_t big[300];
    size_t i;
    static const uint8_t ptr[] = {3, 'w', 'w', 'w', 0xC0, 12};
    static const uint8_t trunc[] = {3, 'n', 'e'};
    static const uint8_t noroot[] = {3, 'n', 'e', 't'};
    static const uint8_t long_label[] = {64, 'a'};

    idng_conf_init(&c);
    ck_assert_int_eq(parse_str(&c, "idnguard:\n    allow: .\n", err), 0);
    /* Even the root, which lists everything, lists no malformed name. */
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, ptr, sizeof ptr), 0);
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, trunc, sizeof trunc), 0);
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, noroot, sizeof noroot), 0);
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, long_label, sizeof long_label), 0);
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, (const uint8_t *)"", 0), 0);
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, NULL, 10), 0);
    ck_assert_int_eq(idng_nameset_listed(NULL, (const uint8_t *)"", 1), 0);
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, (const uint8_t *)"", 1), 1);
    /* 255 octets is the longest name; 257 is too long. */
    for (i = 0; i + 2 <= 254; i += 2) {
        big[i] = 1;
        big[i + 1] = 'a';
    }
    big[254] = 0; /* 127 labels, 255 octets */
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, big, 255), 1);
    big[254] = 1;
    big[255] = 'a';
    big[256] = 0;
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, big, sizeof big), 0);
    idng_conf_free(&c);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Loading files                                                             */

START_TEST(test_load)
{
    char path[512], want[1024], *big;
    struct idng_conf c;
    char err[ERR_MAX];

    make_tmpdir();

    snprintf(path, sizeof path, "%s/missing.conf", tmpdir);
    snprintf(want, sizeof want, "%s: cannot open: %s", path, strerror(ENOENT));
    expect_load_error(path, want);

    snprintf(want, sizeof want, "%s: is a directory, not a settings file", tmpdir);
    expect_load_error(tmpdir, want);

    snprintf(path, sizeof path, "%s/empty.conf", tmpdir);
    t_spew(path, "", 0);
    snprintf(want, sizeof want, "%s:1: no 'idnguard:' clause*", path);
    expect_load_error(path, want);

    snprintf(path, sizeof path, "%s/comments.conf", tmpdir);
    t_spew_str(path, "# settings\n\n# none yet\n");
    snprintf(want, sizeof want, "%s:3: no 'idnguard:' clause*", path);
    expect_load_error(path, want);

    snprintf(path, sizeof path, "%s/fifo", tmpdir);
    ck_assert(mkfifo(path, 0600) == 0);
    snprintf(want, sizeof want, "%s: is not a regular file", path);
    expect_load_error(path, want); /* and does not hang waiting for a writer */

    /* One octet over the cap, although every line of it is fine. */
    snprintf(path, sizeof path, "%s/big.conf", tmpdir);
    big = malloc(IDNG_CONF_FILE_MAX + 1);
    ck_assert(big != NULL);
    memset(big, '\n', IDNG_CONF_FILE_MAX + 1);
    memcpy(big, "idnguard:", 9);
    t_spew(path, big, IDNG_CONF_FILE_MAX + 1);
    snprintf(want, sizeof want, "%s: too big (%d octets; the limit is %d)", path,
             IDNG_CONF_FILE_MAX + 1, IDNG_CONF_FILE_MAX);
    expect_load_error(path, want);
    /* Exactly at the cap it loads. */
    t_spew(path, big, IDNG_CONF_FILE_MAX);
    idng_conf_init(&c);
    ck_assert_msg(idng_conf_load(&c, path, err, sizeof err) == 0, "%s", err);
    free(big);

    snprintf(path, sizeof path, "%s/good.conf", tmpdir);
    t_spew_str(path, rich);
    ck_assert_msg(idng_conf_load(&c, path, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(c.policy.mode, IDNG_MODE_PUNYCODE);
    ck_assert_uint_eq(c.policy.allow.count, 2);
    idng_conf_free(&c);

    /* Errors inside a loaded file name the path as given. */
    snprintf(path, sizeof path, "%s/bad.conf", tmpdir);
    t_spew_str(path, "idnguard:\n  ede: maybe\n");
    snprintf(want, sizeof want, "%s:2: bad value 'maybe' for 'ede' (expected yes or no)", path);
    expect_load_error(path, want);

    /* Root reads files whatever their mode, so there is nothing to see. */
    if (geteuid() != 0) {
        snprintf(path, sizeof path, "%s/unreadable.conf", tmpdir);
        t_spew_str(path, "idnguard:\n");
        ck_assert(chmod(path, 0) == 0);
        snprintf(want, sizeof want, "%s: cannot open: %s", path, strerror(EACCES));
        expect_load_error(path, want);
    }

    expect_load_error("", "(no path): no settings file given");
    remove_tmpdir();
}
END_TEST

START_TEST(test_load_garbage)
{
    char path[512], err[ERR_MAX];
    unsigned char buf[4096];
    uint32_t seed = 0x9e3779b9u + (uint32_t)_i;
    size_t i;

    make_tmpdir();
    snprintf(path, sizeof path, "%s/garbage.conf", tmpdir);
    for (i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)t_xorshift32(&seed);
    t_spew(path, buf, sizeof buf);
    {
        struct idng_conf c, before;
        idng_conf_init(&c);
        memcpy(&before, &c, sizeof c); /* padding included, for memcmp */
        ck_assert_int_eq(idng_conf_load(&c, path, err, sizeof err), -1);
        ck_assert_msg(strncmp(err, path, strlen(path)) == 0 && err[strlen(path)] == ':',
                      "%s", err);
        ck_assert(memcmp(&c, &before, sizeof c) == 0);
    }
    /* The same garbage after a good clause line: still an error. */
    memcpy(buf, "idnguard:\n", 10);
    t_spew(path, buf, sizeof buf);
    {
        struct idng_conf c;
        idng_conf_init(&c);
        ck_assert_int_eq(idng_conf_load(&c, path, err, sizeof err), -1);
        ck_assert_msg(strncmp(err + strlen(path), ":", 1) == 0, "%s", err);
    }
    remove_tmpdir();
}
END_TEST

/* Mutations of a valid file: the parser never crashes or leaks an
 * inconsistent result; whatever it accepts round-trips. */
START_TEST(test_mutations)
{
    static const char alphabet[] = "idnguard:#\"\\ \t\r\n.-*aZ0\x80\xc3\xbc\x00\x7f";
    uint32_t seed = 12345u + (uint32_t)_i * 7919u;
    size_t base = strlen(rich);
    char buf[1024], err[ERR_MAX];
    int round, accepted = 0;

    for (round = 0; round < 500; round++) {
        struct idng_conf c;
        size_t len = base, k, edits = 1 + t_xorshift32(&seed) % 4;
        memcpy(buf, rich, base);
        for (k = 0; k < edits; k++) {
            size_t at = t_xorshift32(&seed) % len;
            char ch = alphabet[t_xorshift32(&seed) % (sizeof alphabet - 1)];
            switch (t_xorshift32(&seed) % 3) {
            case 0:
                buf[at] = ch;
                break;
            case 1:
                if (len + 1 < sizeof buf) {
                    memmove(buf + at + 1, buf + at, len - at);
                    buf[at] = ch;
                    len++;
                }
                break;
            default:
                memmove(buf + at, buf + at + 1, len - at - 1);
                len--;
                break;
            }
        }
        idng_conf_init(&c);
        if (idng_conf_parse(&c, buf, len, "m", err, sizeof err) == 0) {
            accepted++;
            check_round_trip(&c, "mutation");
        } else {
            ck_assert_msg(strncmp(err, "m:", 2) == 0 && strlen(err) > 4, "%s", err);
        }
        idng_conf_free(&c);
    }
    ck_assert_msg(accepted > 0, "no mutation was accepted; the generator is too harsh");
}
END_TEST

START_TEST(test_path)
{
    ck_assert_int_eq(unsetenv(IDNG_CONF_ENV), 0);
    ck_assert_str_eq(idng_conf_path(), IDNG_CONF_DEFAULT_PATH);
    ck_assert_str_eq(idng_conf_path(), "/etc/unbound/idnguard.conf");
    ck_assert_int_eq(setenv(IDNG_CONF_ENV, "", 1), 0);
    ck_assert_str_eq(idng_conf_path(), IDNG_CONF_DEFAULT_PATH);
    ck_assert_int_eq(setenv(IDNG_CONF_ENV, "/srv/idng.conf", 1), 0);
    ck_assert_str_eq(idng_conf_path(), "/srv/idng.conf");
}
END_TEST

/* Two names of one file are one file: a link to the module's stats file, a
 * protect-file that is the query log.  The settings refuse them, naming
 * both keys; distinct files load. */
START_TEST(test_distinct_files)
{
    char dir[] = "/tmp/idng-conf-files-XXXXXX", a[256], b[256], buf[1024], err[ERR_MAX];
    struct idng_conf c;

    ck_assert(mkdtemp(dir) != NULL);
    snprintf(a, sizeof a, "%s/idnguard.prom", dir);
    snprintf(b, sizeof b, "%s/link.prom", dir);
    t_spew_str(a, "");
    ck_assert_int_eq(symlink(a, b), 0);
    ck_assert(idng_conf_same_file(a, a));
    ck_assert(idng_conf_same_file(a, b));
    ck_assert(!idng_conf_same_file(a, dir));
    ck_assert(!idng_conf_same_file(a, NULL));
    ck_assert(!idng_conf_same_file(NULL, NULL));

    idng_conf_init(&c);
    snprintf(buf, sizeof buf, "idnguard:\n    tap-stats-file: \"%s\"\n    stats-file: \"%s\"\n", b,
             a);
    ck_assert_int_eq(idng_conf_parse(&c, buf, strlen(buf), "t.conf", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "t.conf:3: stats-file") && strstr(err, "tap-stats-file (line 2)"),
                  "%s", err);
    /* A protect-file that is the query log (the log would replace the names). */
    snprintf(buf, sizeof buf, "idnguard:\n    protect-file: \"%s\"\n    log-file: \"%s\"\n", a,
             b);
    ck_assert_int_eq(idng_conf_parse(&c, buf, strlen(buf), "t.conf", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "t.conf:3: log-file") && strstr(err, "over the protected names"),
                  "%s", err);
    /* A deny-file or an allow-file that a file the daemon writes would
     * replace, whichever line comes first, the second of two list files
     * too. */
    snprintf(buf, sizeof buf, "idnguard:\n    deny-file: \"%s\"\n    log-file: \"%s\"\n", a, b);
    ck_assert_int_eq(idng_conf_parse(&c, buf, strlen(buf), "t.conf", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "t.conf:3: log-file") && strstr(err, "deny-file (line 2)")
                      && strstr(err, "over the denied names"),
                  "%s", err);
    snprintf(buf, sizeof buf,
             "idnguard:\n    stats-file: \"%s\"\n    allow-file: \"%s/other\"\n"
             "    allow-file: \"%s\"\n",
             b, dir, a);
    ck_assert_int_eq(idng_conf_parse(&c, buf, strlen(buf), "t.conf", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "t.conf:2: stats-file") && strstr(err, "allow-file (line 4)")
                      && strstr(err, "counters would be written over the allowed names"),
                  "%s", err);
    snprintf(buf, sizeof buf, "idnguard:\n    tap-stats-file: \"%s\"\n    deny-file: \"%s\"\n", a,
             b);
    ck_assert_int_eq(idng_conf_parse(&c, buf, strlen(buf), "t.conf", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "t.conf:2: tap-stats-file") && strstr(err, "deny-file (line 3)"),
                  "%s", err);
    /* Distinct files: loaded, and the tap's file written back. */
    snprintf(buf, sizeof buf, "idnguard:\n    stats-file: \"%s\"\n    tap-stats-file: \"%s/t\"\n",
             a, dir);
    ck_assert_msg(idng_conf_parse(&c, buf, strlen(buf), "t.conf", err, sizeof err) == 0, "%s",
                  err);
    ck_assert_str_eq(c.stats_file, a);
    ck_assert(c.tap_stats_file != NULL && strstr(c.tap_stats_file, "/t") != NULL);
    idng_conf_free(&c);
    unlink(b);
    unlink(a);
    rmdir(dir);
}
END_TEST


static Suite *conf_parse_suite(void)
{
    Suite *s = suite_create("conf-parse");
    TCase *tc;

    tc = tcase_create("parser");
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_untouched_on_error);
    tcase_add_test(tc, test_error_buffer);
    tcase_add_test(tc, test_line_numbers_crlf);
    tcase_add_test(tc, test_write_refuses_unwritable);
    tcase_add_loop_test(tc, test_mutations, 0, 8);
    suite_add_tcase(s, tc);

    tc = tcase_create("names");
    tcase_add_test(tc, test_listed_longest);
    tcase_add_loop_test(tc, test_listed, 0, N_OF(listed_cases));
    tcase_add_test(tc, test_listed_malformed);
    suite_add_tcase(s, tc);

    tc = tcase_create("load");
    tcase_add_test(tc, test_load);
    tcase_add_loop_test(tc, test_load_garbage, 0, 8);
    tcase_add_test(tc, test_path);
    tcase_add_test(tc, test_distinct_files);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(conf_parse_suite)
