/**
 * \file
 * Fuzz target: idng_conf_parse on arbitrary bytes; on success
 * idng_conf_write and parse again.  An include line's path is checked but
 * never followed (IDNG_CONF_F_NO_INCLUDE): the input must not open files
 * of this machine's, nor make a report name another file.
 *
 * Invariants:
 * - on success: idng_conf_write succeeds, parsing its output succeeds and
 *   gives equal settings, and writing those gives the same text (a fixed
 *   point); every action is in range, normalize only for raw-8bit, the
 *   stats interval within its limit, the log file absolute;
 * - on failure: the message is "fuzz.conf:LINE: text" with LINE a decimal
 *   line number between 1 and the number of lines in the input (plus one),
 *   non-empty text, no control octet or DEL, valid UTF-8; the settings
 *   passed in are left untouched (compared with a copy); with a small error
 *   buffer (an exact heap buffer) the message is the same, truncated and
 *   NUL-terminated;
 * - idng_conf_free releases everything (LeakSanitizer), on every path.
 */
#include "fuzz_common.h"
#include "idng_conf.h"

#define FNAME "fuzz.conf"

static const char base_conf[] = "idnguard:\n"
                                "  mode: idna2008\n"
                                "  on-invalid: nxdomain\n"
                                "  allow: example.org\n"
                                "  deny: xn--bcher-kva.example.\n"
                                "  log-file: \"/var/log/idnguard.log\"\n";

static int same_list(const struct idng_nameset *a, const struct idng_nameset *b)
{
    size_t i;
    if (a->count != b->count)
        return 0;
    for (i = 0; i < a->count; i++) {
        size_t len = fuzz_wire_span(a->names[i], 255);
        if (len == 0 || memcmp(a->names[i], b->names[i], len) != 0)
            return 0;
    }
    return 1;
}

static int same_conf(const struct idng_conf *a, const struct idng_conf *b)
{
    return a->policy.mode == b->policy.mode && !memcmp(a->policy.action, b->policy.action, sizeof a->policy.action)
           && a->policy.on_invalid == b->policy.on_invalid && a->log_queries == b->log_queries
           && a->log_format == b->log_format && a->ede == b->ede
           && a->stats_interval == b->stats_interval
           && ((a->log_file == NULL && b->log_file == NULL)
               || (a->log_file && b->log_file && !strcmp(a->log_file, b->log_file)))
           && same_list(&a->policy.allow, &b->policy.allow) && same_list(&a->policy.deny, &b->policy.deny);
}

static char *write_conf(const struct idng_conf *c, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    int rc;

    FUZZ_CHECK(f != NULL, "open_memstream");
    rc = idng_conf_write(c, f);
    FUZZ_CHECK(fclose(f) == 0, "fclose");
    FUZZ_CHECK(rc == 0, "idng_conf_write of parsed settings failed");
    return text;
}

static void check_sane(const struct idng_conf *c)
{
    size_t i;
    FUZZ_CHECK((unsigned)c->policy.mode <= IDNG_MODE_MAX, "mode %d", c->policy.mode);
    FUZZ_CHECK((unsigned)c->policy.on_invalid < IDNG_ACT_NORMALIZE, "on-invalid %d", c->policy.on_invalid);
    for (i = 0; i < IDNG_CLASS_COUNT; i++) {
        FUZZ_CHECK((unsigned)c->policy.action[i] < IDNG_ACTION_COUNT, "action[%zu] %d", i,
                   c->policy.action[i]);
        FUZZ_CHECK(c->policy.action[i] != IDNG_ACT_NORMALIZE || i == IDNG_C_RAW_8BIT,
                   "normalize for class %zu", i);
    }
    FUZZ_CHECK(c->stats_interval <= IDNG_CONF_STATS_MAX, "stats-interval %u", c->stats_interval);
    FUZZ_CHECK(c->log_file == NULL || c->log_file[0] == '/', "log-file %s", c->log_file);
    for (i = 0; i < c->policy.allow.count; i++)
        FUZZ_CHECK(fuzz_wire_span(c->policy.allow.names[i], 255) > 0, "allow name %zu malformed", i);
    for (i = 0; i < c->policy.deny.count; i++)
        FUZZ_CHECK(fuzz_wire_span(c->policy.deny.names[i], 255) > 0, "deny name %zu malformed", i);
    for (i = 0; i < c->policy.idn_suffixes.count; i++)
        FUZZ_CHECK(fuzz_wire_span(c->policy.idn_suffixes.names[i], 255) > 0,
                   "idn-suffixes name %zu malformed", i);
}

/* The report: one problem a line, each "FNAME:N: message" with N a line of
 * the input (or the closing "FNAME: more problems not shown"), no control
 * octet, UTF-8. */
static void check_message(const char *err, size_t size, const char *data)
{
    size_t i, lines = 1;
    const char *l = err;

    for (i = 0; i < size; i++)
        lines += data[i] == '\n';
    FUZZ_CHECK(err[0] != '\0', "an error without a report");
    for (;;) {
        const char *nl = strchr(l, '\n'), *p = l + sizeof FNAME;
        size_t line = 0;
        FUZZ_CHECK(!strncmp(l, FNAME ":", sizeof FNAME), "report line \"%s\"", l);
        if (!strncmp(p, " more problems not shown", 24)) {
            FUZZ_CHECK(nl == NULL, "a line after the closing note: \"%s\"", err);
            break;
        }
        FUZZ_CHECK(*p >= '1' && *p <= '9', "no line number: \"%s\"", l);
        while (*p >= '0' && *p <= '9' && line < 100000000)
            line = line * 10 + (size_t)(*p++ - '0');
        FUZZ_CHECK(line >= 1 && line <= lines, "line %zu of %zu: \"%s\"", line, lines, l);
        FUZZ_CHECK(p[0] == ':' && p[1] == ' ' && p[2] != '\0' && p[2] != '\n',
                   "no message after the line: \"%s\"", l);
        if (!nl)
            break;
        l = nl + 1;
    }
    for (i = 0; err[i]; i++)
        FUZZ_CHECK(((unsigned char)err[i] >= 0x20 && err[i] != 0x7f) || err[i] == '\n',
                   "control octet 0x%02x in the report at %zu", (unsigned char)err[i], i);
    FUZZ_CHECK(fuzz_utf8_valid((const unsigned char *)err, strlen(err)),
               "report is not UTF-8: \"%s\"", err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct idng_conf ref;
    static int ref_ready;
    struct idng_conf c, c2;
    char *in = fuzz_dup(data, size), err[1024];
    int rc;

    if (!ref_ready) {
        idng_conf_init(&ref);
        rc = idng_conf_parse(&ref, base_conf, sizeof base_conf - 1, "base", err, sizeof err);
        FUZZ_CHECK(rc == 0, "base config: %s", err);
        ref_ready = 1;
    }
    /* Parse over previously parsed settings: on error they must survive. */
    idng_conf_init(&c);
    rc = idng_conf_parse(&c, base_conf, sizeof base_conf - 1, "base", NULL, 0);
    FUZZ_CHECK(rc == 0, "base config");
    memset(err, 'X', sizeof err);
    rc = idng_conf_parse_flags(&c, in, size, FNAME, IDNG_CONF_F_NO_INCLUDE, err, sizeof err);
    if (rc != 0) {
        size_t small = size ? (size_t)data[size - 1] % 48 + 1 : 1;
        char *e2 = fuzz_alloc(small);
        FUZZ_CHECK(rc == -1, "rc %d", rc);
        FUZZ_CHECK(memchr(err, '\0', sizeof err) != NULL, "message not NUL-terminated");
        check_message(err, size, in);
        FUZZ_CHECK(same_conf(&c, &ref), "failed parse changed the settings");
        rc = idng_conf_parse_flags(&c, in, size, FNAME, IDNG_CONF_F_NO_INCLUDE, e2, small);
        {
            /* A smaller buffer: a prefix of the report, the first problem cut
             * to fit, later ones whole or not at all. */
            const char *nl = strchr(err, '\n');
            size_t first = nl ? (size_t)(nl - err) : strlen(err);
            FUZZ_CHECK(rc == -1 && memchr(e2, '\0', small) != NULL
                           && !strncmp(e2, err, strlen(e2))
                           && strlen(e2) >= (first < small ? first : small - 1)
                           && (strlen(err) >= small || strcmp(e2, err) == 0),
                       "message with a %zu-octet buffer: \"%.*s\"", small, (int)small, e2);
        }
        free(e2);
        idng_conf_free(&c);
        free(in);
        return 0;
    }
    check_sane(&c);
    {
        size_t len, len2;
        char *text = write_conf(&c, &len), *text2;
        idng_conf_init(&c2);
        rc = idng_conf_parse(&c2, text, len, "written", err, sizeof err);
        FUZZ_CHECK(rc == 0, "written settings do not parse: %s\n%s", err, text);
        FUZZ_CHECK(same_conf(&c, &c2), "written settings parse differently:\n%s", text);
        text2 = write_conf(&c2, &len2);
        FUZZ_CHECK(len == len2 && !memcmp(text, text2, len), "writing is not a fixed point");
        free(text);
        free(text2);
        idng_conf_free(&c2);
    }
    idng_conf_free(&c);
    idng_conf_free(&c); /* documented safe twice */
    free(in);
    return 0;
}
