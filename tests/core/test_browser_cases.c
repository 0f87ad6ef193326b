/**
 * \file
 * idnguard against a browser's judgment: Chromium's IDN spoof-checker
 * unit-test cases (tests/core/data/browser_idn_cases.txt), each a host that
 * Chromium shows in Unicode ("show"), keeps in Punycode as a spoof
 * ("unsafe") or refuses as invalid IDNA ("invalid").  The policy judges
 * each with the default settings and Chromium's test top domains
 * (tests/core/data/browser_top_domains.txt) protected.
 *
 * Chromium judges a host label by label, with its TLD in mind; here the
 * whole host is judged as a DNS name with idng_policy_judge, since that is
 * what a resolver sees.  A host in A-labels or ASCII is that DNS name; a
 * host in Unicode would first go through idng_to_ascii (none of the cases
 * needs it; a protected name does).  The empty host is taken as the root.
 *
 * What the verdict on a host is taken to say:
 * - flagged: the verdict is not plain ok: its class is not ok, or a list
 *   decided it, or it holds a lookalike bit (verdict.lookalike != 0).  A
 *   name that is flagged is not shown in Unicode.
 * - invalid: the host does not convert to a wire name (or, in Unicode, to
 *   A-labels), or the verdict's class is one of IDNA validity: neither ok
 *   nor a lookalike class.  The lookalike classes are IDNG_C_MIXED_SCRIPT
 *   and every class after it (more are to be appended after
 *   IDNG_C_MIXED_NUMBER), so membership is "class >= IDNG_C_MIXED_SCRIPT".
 * - rejected: the verdict's action keeps the client from an answer
 *   (idng_action_rejects).
 *
 * Agreement with the browser:
 * - show: not flagged;
 * - unsafe: flagged (a lookalike class or an invalid name both count);
 * - invalid: invalid, or rejected.
 *
 * The goal (the assertions below): every "show" host not flagged, every
 * "invalid" host invalid or rejected, and at least UNSAFE_FLAGGED_MIN_PCT
 * per cent of the "unsafe" hosts flagged.  The table of what agrees, and
 * every case that does not, is printed to stderr on every run, so that a
 * developer sees what is missed.  Cases listed in deviations[] (hosts no
 * resolver can be asked for, a word Chromium allows by a list of its
 * own, and emoji, which Chromium never shows and idnguard's mixed-script
 * rule sets aside) are shown but not counted.
 *
 * The data files are read from $BROWSER_IDN_CASES and $BROWSER_TOP_DOMAINS,
 * else from tests/core/data/ below the working directory (the repository
 * root under make).
 */
#include "common.h"
#include "idng_lookalike.h"
#include "idng_policy.h"
#include "idnguard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The goal is 95 per cent of the "unsafe" hosts flagged; the rules reach
 * 98.8 (328 of the 332 counted: four emoji hosts are listed deviations),
 * and the test holds 98 so that nothing slips back.  Eighteen of those
 * are whole-script labels that only Chromium's own per-script letter sets
 * catch (tools/lookalike_browser_ws.txt, taken as data), so they agree by
 * construction; without those sets the rules reach 93.4 (310).  The 4 misses: three rare Latin letters Chromium leaves out
 * of its allowed set (kra, u with caron, l with dot below) and one macOS
 * font case.  docs/lookalikes.md lists them. */
#define UNSAFE_FLAGGED_MIN_PCT 98 /* "unsafe" hosts flagged, per cent at least */
#define SHOW_FLAGGED_MAX 0        /* "show" hosts flagged, at most */
#define INVALID_MISSED_MAX 0      /* "invalid" hosts neither invalid nor rejected, at most */
/* The data file is no toy: it holds at least this many cases. */
#define CASES_MIN 400

#define CASES_FILE "tests/core/data/browser_idn_cases.txt"
#define TOP_FILE "tests/core/data/browser_top_domains.txt"

enum kind { K_SHOW, K_UNSAFE, K_INVALID, K_COUNT };
static const char *const kind_names[K_COUNT] = {"show", "unsafe", "invalid"};

/* Hosts that cannot reach a resolver, so a verdict on them says nothing;
 * and hosts Chromium shows only through a list of its own that idnguard
 * deliberately does not have. */
static const struct t_deviation deviations[] = {
    {"xn--j1amdg.com",
     "курс.com: every letter looks like a Latin one (kypc), so it is whole-script under .com; "
     "Chromium shows it because курс is on its list of allowed Cyrillic words, which has no "
     "source idnguard could defend (an operator adds allow: xn--j1amdg.com)"},
    {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
     "one label of 80 octets: no DNS name (63 at most), so no resolver is asked for it; "
     "Chromium shows it since a URL host has no such limit"},
    /* Emoji: Chromium shows none (no emoji is in UTS #39's Allowed set);
     * idnguard's mixed-script rule sets pictographs aside (emoji names are
     * in use, and a pictograph fakes no letter of another script), and so
     * do the keys matched with protected names: these pass unflagged, as
     * none is near one of the test's top domains once its emoji is set
     * aside. */
    {"xn--vi8hiv.xyz", "🍕💩.xyz: emoji only; the mixed-script rule "
                       "sets pictographs aside"},
    {"xn--ab-u0x.com", "ab♥.com: Latin and a heart; the mixed-script rule sets "
                       "pictographs aside, as for i❤.ws, and ab.com is no top domain"},
    {"xn--google-hj64e.com", "🔒google.com: a padlock before a top domain, a "
                             "browser UI spoof; with google.com protected it is confusable "
                             "with it (test_lookalike_rules), but the test's top domains "
                             "do not hold google.com"},
    {"xn--egistered-fna.com", "®egistered.com: the registered sign drawn like R; "
                              "confusables.txt gives it no prototype, so it is a pictograph "
                              "to the mixed-script rule and set aside"},
    {NULL, NULL},
};

struct bcase {
    enum kind expect;
    const char *host, *comment;
    /* the judgment */
    int converted;       /* the host has a wire form */
    idng_status conv_st; /* why not, when it has none */
    struct idng_verdict v;
    int flagged, invalid, rejected, agrees;
    const char *deviation; /* reason, when listed in deviations[] */
};

/* What main() read and judged, for the tests to look at. */
static struct bcase *cases;
static size_t ncases;
static size_t count_read[K_COUNT], total_stated, count_stated[K_COUNT];
static int have_counts;
static size_t ntop, ntop_stated;
static int have_top_count;
static char load_error[512];
static char *cases_text; /* the cases point into it */
static size_t agreed[K_COUNT], counted[K_COUNT];

static void set_error(const char *what, const char *path, size_t line)
{
    if (load_error[0] == '\0')
        snprintf(load_error, sizeof load_error, "%s:%zu: %s", path, line, what);
}

/*
 * The file named by $env, else the default, NUL-terminated and malloc'd;
 * NULL after set_error.  Read before the suite runs, so without Check's
 * assertions (t_slurp's would have no test to report to).
 */
static char *read_data(const char *env, const char *dflt, const char **path)
{
    const char *p = getenv(env);
    char *text = NULL, *grown;
    size_t cap = 0, n = 0, r;
    int ok = 1;
    FILE *f;

    *path = p != NULL && p[0] != '\0' ? p : dflt;
    if ((f = fopen(*path, "rb")) == NULL) {
        set_error("cannot open (run from the repository root, or set BROWSER_IDN_CASES "
                  "and BROWSER_TOP_DOMAINS)",
                  *path, 0);
        return NULL;
    }
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 65536;
            if ((grown = realloc(text, cap + 1)) == NULL) {
                ok = 0;
                break;
            }
            text = grown;
        }
        if ((r = fread(text + n, 1, cap - n, f)) == 0)
            break;
        n += r;
    }
    ok = ok && !ferror(f);
    fclose(f);
    if (ok) {
        text[n] = '\0';
        return text;
    }
    free(text);
    set_error("cannot read", *path, 0);
    return NULL;
}

/* Cuts text into lines in place; calls fn for each with its number. */
static void each_line(char *text, const char *path,
                      void (*fn)(char *line, const char *path, size_t lineno))
{
    size_t lineno = 0;
    char *p = text;

    while (*p != '\0') {
        char *nl = strchr(p, '\n');
        if (nl != NULL)
            *nl = '\0';
        fn(p, path, ++lineno);
        if (nl == NULL)
            break;
        p = nl + 1;
    }
}

static void case_line(char *line, const char *path, size_t lineno)
{
    char *t1, *t2;
    struct bcase *c;
    int k;

    if (line[0] == '\0')
        return;
    if (line[0] == '#') {
        if (sscanf(line, "# counts: show=%zu unsafe=%zu invalid=%zu total=%zu",
                   &count_stated[K_SHOW], &count_stated[K_UNSAFE], &count_stated[K_INVALID],
                   &total_stated)
            == 4)
            have_counts = 1;
        return;
    }
    t1 = strchr(line, '\t');
    t2 = t1 != NULL ? strchr(t1 + 1, '\t') : NULL;
    if (t2 == NULL || strchr(t2 + 1, '\t') != NULL) {
        set_error("not EXPECT<TAB>HOST<TAB>COMMENT", path, lineno);
        return;
    }
    *t1 = *t2 = '\0';
    for (k = 0; k < K_COUNT && strcmp(line, kind_names[k]) != 0; k++)
        ;
    if (k == K_COUNT) {
        set_error("EXPECT is none of show, unsafe, invalid", path, lineno);
        return;
    }
    c = realloc(cases, (ncases + 1) * sizeof *cases);
    if (c == NULL) {
        set_error("out of memory", path, lineno);
        return;
    }
    cases = c;
    c = &cases[ncases++];
    memset(c, 0, sizeof *c);
    c->expect = (enum kind)k;
    c->host = t1 + 1;
    c->comment = t2 + 1;
    c->deviation = t_deviation_reason(deviations, c->host);
    count_read[k]++;
}

/*
 * A host as the DNS name a resolver is asked for, in wire form (out: 255
 * octets): Unicode through UTS #46 ToASCII first; the empty host and "."
 * are the root.  IDNG_OK, or why there is no such name.
 */
static idng_status host_to_wire(const char *host, uint8_t *out, size_t *outlen)
{
    char ascii[IDNG_INPUT_MAX + 2];
    size_t n = strlen(host), alen = sizeof ascii, i;
    idng_error err;
    idng_status st;

    if (n == 0) {
        out[0] = 0;
        *outlen = 1;
        return IDNG_OK;
    }
    for (i = 0; i < n && (unsigned char)host[i] < 0x80; i++)
        ;
    if (i < n) {
        st = idng_to_ascii(host, n, ascii, &alen, IDNG_MODE_UTS46, 0, &err);
        if (st != IDNG_OK)
            return st;
        host = ascii;
        n = alen;
    }
    *outlen = IDNG_WIRE_MAX;
    return idng_text_to_wire(host, n, out, outlen, NULL);
}

static struct idng_policy policy;

static void top_line(char *line, const char *path, size_t lineno)
{
    uint8_t wire[IDNG_WIRE_MAX];
    size_t wlen;

    if (line[0] == '\0')
        return;
    if (line[0] == '#') {
        if (sscanf(line, "# counts: names=%zu", &ntop_stated) == 1)
            have_top_count = 1;
        return;
    }
    if (host_to_wire(line, wire, &wlen) != IDNG_OK) {
        set_error("a top domain that does not convert", path, lineno);
        return;
    }
    if (idng_protect_add(&policy.protect, wire, wlen) != 0) {
        set_error("a top domain idng_protect_add refuses", path, lineno);
        return;
    }
    ntop++;
}

static void judge(struct bcase *c)
{
    uint8_t wire[IDNG_WIRE_MAX];
    size_t wlen;
    int cls;

    c->conv_st = host_to_wire(c->host, wire, &wlen);
    c->converted = c->conv_st == IDNG_OK;
    if (!c->converted) {
        c->flagged = c->invalid = 1;
    } else {
        idng_policy_judge(&policy, wire, wlen, &c->v);
        cls = (int)idng_status_class(c->v.err.status);
        c->flagged = cls != IDNG_C_OK || c->v.listed != IDNG_LISTED_NONE || c->v.lookalike != 0;
        c->invalid = cls != IDNG_C_OK && cls < IDNG_C_MIXED_SCRIPT;
        c->rejected = idng_action_rejects(c->v.action);
    }
    switch (c->expect) {
    case K_SHOW:
        c->agrees = !c->flagged;
        break;
    case K_UNSAFE:
        c->agrees = c->flagged;
        break;
    default:
        c->agrees = c->invalid || c->rejected;
        break;
    }
}

/* "got=CLASS[,LOOKALIKE...]" for a case. */
static void got_text(const struct bcase *c, char *out, size_t cap)
{
    const char *lk;

    if (!c->converted) {
        snprintf(out, cap, "got=%s(no DNS name)", idng_status_class_name(c->conv_st));
        return;
    }
    lk = idng_lookalike_name(c->v.lookalike);
    snprintf(out, cap, "got=%s%s%s", idng_verdict_name(&c->v), lk != NULL ? "," : "",
             lk != NULL ? lk : "");
}

static void print_table(void)
{
    char got[128];
    size_t i;
    int k;

    fprintf(stderr,
            "browser cases: %zu (show %zu, unsafe %zu, invalid %zu), %zu top domains "
            "protected\n",
            ncases, count_read[K_SHOW], count_read[K_UNSAFE], count_read[K_INVALID], ntop);
    for (k = 0; k < K_COUNT; k++) {
        fprintf(stderr, "  %-7s %4zu/%-4zu agreed (%5.1f%%)", kind_names[k], agreed[k], counted[k],
                counted[k] ? 100.0 * (double)agreed[k] / (double)counted[k] : 100.0);
        if (k == K_UNSAFE)
            fprintf(stderr, "  goal: %d%%\n", UNSAFE_FLAGGED_MIN_PCT);
        else
            fprintf(stderr, "  goal: all but %d\n",
                    k == K_SHOW ? SHOW_FLAGGED_MAX : INVALID_MISSED_MAX);
    }
    for (k = 0; k < K_COUNT; k++) {
        for (i = 0; i < ncases; i++) {
            const struct bcase *c = &cases[i];
            if ((int)c->expect != k || c->agrees || c->deviation != NULL)
                continue;
            got_text(c, got, sizeof got);
            fprintf(stderr, "%s %s %s %s\n", kind_names[k], c->host, got, c->comment);
        }
    }
    for (i = 0; i < ncases; i++) {
        const struct bcase *c = &cases[i];
        if (c->deviation == NULL)
            continue;
        got_text(c, got, sizeof got);
        fprintf(stderr, "listed deviation%s: %s %s %s: %s\n",
                c->agrees ? " (agrees now: take it off the list)" : "", kind_names[c->expect],
                c->host, got, c->deviation);
    }
}

static void load_and_judge(void)
{
    const char *path;
    char *text;
    size_t i;

    idng_policy_init(&policy);
    if ((text = read_data("BROWSER_TOP_DOMAINS", TOP_FILE, &path)) != NULL) {
        each_line(text, path, top_line);
        free(text);
    }
    if ((cases_text = read_data("BROWSER_IDN_CASES", CASES_FILE, &path)) != NULL)
        each_line(cases_text, path, case_line);
    if (load_error[0] != '\0') {
        fprintf(stderr, "browser cases: %s\n", load_error);
        return;
    }
    for (i = 0; i < ncases; i++) {
        struct bcase *c = &cases[i];
        judge(c);
        if (c->deviation != NULL)
            continue;
        counted[c->expect]++;
        agreed[c->expect] += (size_t)c->agrees;
    }
    print_table();
}

/* The data file says what it holds: its header's counts are its lines'. */
START_TEST(data_counts_as_stated)
{
    int k;

    ck_assert_msg(load_error[0] == '\0', "%s", load_error);
    ck_assert_msg(have_counts, "%s has no \"# counts: show=N unsafe=N invalid=N total=N\" line",
                  CASES_FILE);
    for (k = 0; k < K_COUNT; k++)
        ck_assert_msg(count_read[k] == count_stated[k], "%s: %zu cases, the header says %zu",
                      kind_names[k], count_read[k], count_stated[k]);
    ck_assert_uint_eq(ncases, total_stated);
    ck_assert_msg(ncases >= CASES_MIN, "%zu cases, fewer than %d", ncases, CASES_MIN);
    ck_assert_msg(have_top_count, "%s has no \"# counts: names=N\" line", TOP_FILE);
    ck_assert_uint_eq(ntop, ntop_stated);
    ck_assert_uint_gt(ntop, 0);
}
END_TEST

/* Every host the browser shows is one idnguard lets through unflagged. */
START_TEST(show_hosts_not_flagged)
{
    size_t flagged = counted[K_SHOW] - agreed[K_SHOW];

    ck_assert_msg(load_error[0] == '\0', "%s", load_error);
    ck_assert_uint_gt(counted[K_SHOW], 0);
    ck_assert_msg(flagged <= SHOW_FLAGGED_MAX,
                  "%zu of %zu hosts the browser shows are flagged (see the list on stderr)",
                  flagged, counted[K_SHOW]);
}
END_TEST

/* Every host the browser refuses as invalid is invalid, or rejected. */
START_TEST(invalid_hosts_invalid)
{
    size_t missed = counted[K_INVALID] - agreed[K_INVALID];

    ck_assert_msg(load_error[0] == '\0', "%s", load_error);
    ck_assert_uint_gt(counted[K_INVALID], 0);
    ck_assert_msg(missed <= INVALID_MISSED_MAX,
                  "%zu of %zu hosts the browser finds invalid are neither invalid nor rejected "
                  "(see the list on stderr)",
                  missed, counted[K_INVALID]);
}
END_TEST

/* Nearly every host the browser keeps in Punycode is flagged. */
START_TEST(unsafe_hosts_flagged)
{
    ck_assert_msg(load_error[0] == '\0', "%s", load_error);
    ck_assert_uint_gt(counted[K_UNSAFE], 0);
    ck_assert_msg(agreed[K_UNSAFE] * 100 >= (size_t)UNSAFE_FLAGGED_MIN_PCT * counted[K_UNSAFE],
                  "%zu of %zu hosts the browser keeps in Punycode are flagged (%.1f%%), "
                  "the goal is %d%% (see the list on stderr)",
                  agreed[K_UNSAFE], counted[K_UNSAFE],
                  100.0 * (double)agreed[K_UNSAFE] / (double)counted[K_UNSAFE],
                  UNSAFE_FLAGGED_MIN_PCT);
}
END_TEST

static Suite *browser_suite(void)
{
    Suite *s = suite_create("browser_cases");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, data_counts_as_stated);
    tcase_add_test(tc, show_hosts_not_flagged);
    tcase_add_test(tc, invalid_hosts_invalid);
    tcase_add_test(tc, unsafe_hosts_flagged);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    int rc;

    load_and_judge();
    rc = t_run_suite(browser_suite());
    idng_policy_free(&policy);
    free(cases);
    free(cases_text);
    return rc;
}
