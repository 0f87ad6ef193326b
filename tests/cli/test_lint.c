/**
 * \file
 * Check suite for `idnguard lint-zone`: the built CLI ($IDNGUARD_BIN) run on
 * the crafted master files of tests/cli/zones/lint (run from the top of the
 * tree, as `make test` does; $IDNGUARD_LINT_ZONES names another copy).
 * Every case asserts the exact lines on standard output, the exact error
 * lines and summary on standard error, and the exit status.  The files a
 * repository cannot hold (FIFOs, a socket, a long $INCLUDE chain, a fan-out,
 * a sparse file over the size limit) are made in a scratch directory.
 * Each run of the CLI carries an alarm, so an input that makes it hang (a
 * FIFO opened for reading, an include fan-out) fails its case rather than
 * hanging the suite (CK_FORK=no has no Check timeout).
 */
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ARGS 8
#define MAX_LINES 24
/** Seconds a run of the CLI may take before SIGALRM ends it: far beyond
 *  any case here (a bound on a hang, not a timing assertion). */
#define RUN_ALARM_S 60
/** lint-zone's limit on the octets of the files $INCLUDE opens for one
 *  input (cli/lint.h; the other, 4096 files, shapes make_fanout). */
#define INCLUDE_OCTETS_MAX (1LL << 30)

/** One run: arguments after "lint-zone" ("@" stands for the zones'
 *  directory at the start of one), standard input, what must come out. */
struct lint_case {
    const char *name;
    const char *args[MAX_ARGS + 1];
    const char *in; /**< NULL: standard input is empty */
    const char *out[MAX_LINES + 1];
    const char *err[MAX_LINES + 1];
    int status;
};

/* The scratch directory of a case that makes its files ("%/" in its
 * arguments and lines). */
static char scratch[256];

static const char *zones(void)
{
    const char *z = getenv("IDNGUARD_LINT_ZONES");
    return z && z[0] ? z : "tests/cli/zones/lint";
}

/* s with every "@/" (and an "@" alone) replaced by the zones' directory,
 * every "%/" by the scratch directory's. */
static const char *expand(const char *s, char *buf, size_t cap)
{
    size_t n = 0;

    if (s[0] == '@' && s[1] != '/') { /* "@" alone, or "@: ..." */
        ck_assert((size_t)snprintf(buf, cap, "%s%s", zones(), s + 1) < cap);
        return buf;
    }
    for (; *s; s++) {
        const char *dir = s[1] != '/' ? NULL : s[0] == '@' ? zones() : s[0] == '%' ? scratch : NULL;
        if (dir != NULL) {
            ck_assert(n + strlen(dir) < cap);
            memcpy(buf + n, dir, strlen(dir));
            n += strlen(dir);
            continue;
        }
        ck_assert(n + 1 < cap);
        buf[n++] = *s;
    }
    buf[n] = '\0';
    return buf;
}

/* Runs the CLI with standard input from a pipe filled beforehand (the
 * inputs are far below a pipe's buffer) and both outputs into files. */
static int run_lint(const struct lint_case *c, char **out, char **err)
{
    static char exp[MAX_ARGS][1024];
    const char *bin = t_idnguard_bin();
    char *argv[MAX_ARGS + 3], dir[256], opath[300], epath[300];
    int in[2], st, i, n = 0;
    pid_t pid;

    argv[n++] = (char *)bin;
    argv[n++] = "lint-zone";
    for (i = 0; c->args[i]; i++)
        argv[n++] = (char *)expand(c->args[i], exp[i], sizeof exp[i]);
    argv[n] = NULL;
    t_tmpdir_make(dir, sizeof dir, "idng-lint");
    snprintf(opath, sizeof opath, "%s/out", dir);
    snprintf(epath, sizeof epath, "%s/err", dir);
    ck_assert(pipe(in) == 0);
    if (c->in)
        ck_assert(write(in[1], c->in, strlen(c->in)) == (ssize_t)strlen(c->in));
    close(in[1]);
    fflush(NULL);
    pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        int o = open(opath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int e = open(epath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (o < 0 || e < 0 || dup2(in[0], 0) < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
            _exit(127);
        alarm(RUN_ALARM_S); /* kept across execv */
        execv(bin, argv);
        _exit(127);
    }
    close(in[0]);
    while (waitpid(pid, &st, 0) < 0)
        ck_assert(errno == EINTR);
    *out = t_slurp(opath, NULL);
    *err = t_slurp(epath, NULL);
    ck_assert(*out && *err);
    t_tmpdir_remove(dir);
    ck_assert_msg(WIFEXITED(st), "%s: died by signal %d", c->name, WTERMSIG(st));
    return WEXITSTATUS(st);
}

/* Checks that text holds exactly the lines of want (each "@" expanded). */
static void expect(const char *name, const char *what, const char *text,
                   const char *const *want)
{
    char buf[2048];
    const char *p = text;
    size_t k;

    for (k = 0; want[k]; k++) {
        const char *w = expand(want[k], buf, sizeof buf), *nl = strchr(p, '\n');
        ck_assert_msg(nl != NULL, "%s: %s ends before line %zu (\"%s\"):\n%s", name, what, k + 1,
                      w, text);
        ck_assert_msg((size_t)(nl - p) == strlen(w) && memcmp(p, w, strlen(w)) == 0,
                      "%s: %s line %zu is \"%.*s\", expected \"%s\"", name, what, k + 1,
                      (int)(nl - p), p, w);
        p = nl + 1;
    }
    ck_assert_msg(*p == '\0', "%s: %s has more after %zu lines: \"%s\"", name, what, k, p);
}

#define BAD "bad-punycode: xn--zz: unterminated Punycode integer [refuse]"
#define NO_ERRORS "; 0 errors"

static const struct lint_case cases[] = {
    {"every type with a name field",
     {"@/types.db"},
     NULL,
     {"@/types.db:5: example. SOA mname=xn--zz.example.: " BAD,
      "@/types.db:5: example. SOA rname=xn--zz.example.: " BAD,
      "@/types.db:8: example. NS nsdname=xn--zz.example.: " BAD,
      "@/types.db:9: alias.example. CNAME cname=xn--zz.example.: " BAD,
      "@/types.db:10: tree.example. DNAME target=xn--zz.example.: " BAD,
      "@/types.db:11: example. MX exchange=xn--zz.example.: " BAD,
      "@/types.db:12: _sip._udp.example. SRV target=xn--zz.example.: " BAD,
      "@/types.db:13: 1.2.0.192.in-addr.arpa. PTR ptrdname=xn--zz.example.: " BAD,
      "@/types.db:14: example. NAPTR replacement=xn--zz.example.: " BAD,
      "@/types.db:15: svc.example. SVCB target=xn--zz.example.: " BAD,
      "@/types.db:16: example. HTTPS target=xn--zz.example.: " BAD,
      "@/types.db:17: example. AFSDB hostname=xn--zz.example.: " BAD,
      "@/types.db:18: example. RP mbox=xn--zz.example.: " BAD,
      "@/types.db:18: example. RP txt=xn--zz.example.: " BAD,
      "@/types.db:19: example. KX exchanger=xn--zz.example.: " BAD,
      "@/types.db:20: example. LP fqdn=xn--zz.example.: " BAD,
      "@/types.db:21: example. NSEC next=xn--zz.example.: " BAD,
      "@/types.db:22: example. HIP rdata2=xn--zz.example.: " BAD,
      "@/types.db:23: xn--zz.example. A owner: " BAD},
     {"idnguard lint-zone: 20 records, 39 names, 19 findings, bad-punycode 19" NO_ERRORS},
     1},
    {"every error class, escapes",
     {"@/classes.db"},
     NULL,
     {"@/classes.db:2: xn--zz\\037.punycode.example. A owner: bad-punycode: xn--zz\\037: "
      "invalid Punycode digit [refuse]",
      "@/classes.db:3: xn--.empty.example. A owner: empty-label: xn--: A-label decodes to "
      "nothing [refuse]",
      "@/classes.db:4: xn--example-.ascii.example. A owner: ascii-only: xn--example-: A-label "
      "decodes to ASCII only [refuse]",
      "@/classes.db:5: xn--example-nka.canonical.example. A owner: not-canonical: "
      "xn--example-nka: code point is mapped or ignored under UTS #46 (U+00AD) [refuse]",
      "@/classes.db:6: xn--1-0hc.bidi.example. A owner: bidi: xn--1-0hc: first character is "
      "not L, R or AL (RFC 5893 rule 1) (U+0031) [refuse]",
      "@/classes.db:7: b\\195\\188cher.example. A owner: raw-8bit: b\\195\\188cher: label "
      "holds octets >= 0x80 (A-label form xn--bcher-kva.example.) [normalize]",
      "@/classes.db:8: bad\\255utf8.example. A owner: bad-utf8: bad\\255utf8: invalid UTF-8 "
      "[refuse]",
      /* Line 9: UTS #46 keeps the emoji, and the mixed-script rule sets
       * pictographs aside: no finding (line 22 is the mixed-script one). */
      "@/classes.db:10: xn--a-ecp.disallowed.example. A owner: disallowed: xn--a-ecp: code "
      "point is disallowed (U+2488) [refuse]",
      "@/classes.db:11: xn--ab-m1t.contextj.example. A owner: contextj: xn--ab-m1t: joiner "
      "not allowed here (RFC 5892 A.1, A.2) (U+200D) [refuse]",
      /* a·b: UTS #46 keeps the middle dot (its CONTEXTO rule is IDNA2008's),
       * but outside l·l it is drawn as punctuation. */
      "@/classes.db:12: xn--ab-0ea.contexto.example. A owner: punctuation-like: xn--ab-0ea: a "
      "letter that looks like punctuation (a hyphen, an apostrophe, a dot) [log]",
      "@/classes.db:13: xn--ab--c-uqa.hyphen.example. A owner: hyphen: xn--ab--c-uqa: '--' in "
      "positions 3 and 4 [refuse]",
      "@/classes.db:14: xn--ssa.mark.example. A owner: leading-mark: xn--ssa: label begins "
      "with a combining mark (U+0308) [refuse]",
      "@/classes.db:16: xn--bcher-kva.example. (b\xc3\xbc" "cher.example.) CNAME "
      "cname=xn--zz.example.: " BAD,
      "@/classes.db:18: xn--a\\046b.escape.example. A owner: bad-punycode: xn--a\\046b: "
      "invalid Punycode digit [refuse]",
      /* pаypal: Latin and Cyrillic; a lookalike is shown in A-labels only. */
      "@/classes.db:22: xn--pypal-4ve.mixed.example. A owner: mixed-script: xn--pypal-4ve: "
      "label mixes scripts beyond the restriction level (UTS #39 5.2) [log]"},
     {"idnguard lint-zone: 21 records, 23 names, 15 findings, empty-label 1, bad-punycode 3, "
      "ascii-only 1, not-canonical 1, disallowed 1, contextj 1, hyphen 1, leading-mark 1, "
      "bidi 1, raw-8bit 1, bad-utf8 1, mixed-script 1, punctuation-like 1" NO_ERRORS},
     1},
    {"$INCLUDE relative to the file, $ORIGIN, relative names",
     {"@/include.db"},
     NULL,
     {"@/include.db:4: before.example. CNAME cname=xn--zz.example.: " BAD,
      "@/sub/inc.db:1: inc.example. CNAME cname=xn--zz.example.: " BAD,
      "@/sub/inc.db:1: inc.sub.example. CNAME cname=xn--zz.sub.example.: " BAD,
      "@/include.db:7: after.example. CNAME cname=xn--zz.example.: " BAD,
      "@/include.db:9: last.other.example. CNAME cname=xn--zz.: " BAD},
     {"idnguard lint-zone: 5 records, 10 names, 5 findings, bad-punycode 5" NO_ERRORS},
     1},
    {"standard input, --origin",
     {"--origin", "example.", "-"},
     "inc IN CNAME xn--zz\nok IN A 192.0.2.1\n",
     {"-:1: inc.example. CNAME cname=xn--zz.example.: " BAD},
     {"idnguard lint-zone: 2 records, 3 names, 1 findings, bad-punycode 1" NO_ERRORS},
     1},
    {"standard input without FILE, --origin=",
     {"--origin=example."},
     "xn--zz IN A 192.0.2.1\n",
     {"-:1: xn--zz.example. A owner: " BAD},
     {"idnguard lint-zone: 1 records, 1 names, 1 findings, bad-punycode 1" NO_ERRORS},
     1},
    {"dig AXFR output on standard input; a record over two lines",
     {},
     "\n; <<>> DiG 9.18 <<>> @192.0.2.53 example.com AXFR\n;; global options: +cmd\n"
     "example.com.\t\t3600\tIN\tSOA\tns1.example.com. hostmaster.example.com. 1 7200 3600 "
     "1209600 300\n"
     "xn--bcher-kva.example.com. 3600\tIN\tCNAME\txn--zz.example.com.\n"
     "example.com.\t\t3600\tIN\tMX\t( 10\n\t\t\txn--zz.example.com. )\n"
     "example.com.\t\t3600\tIN\tSOA\tns1.example.com. hostmaster.example.com. 1 7200 3600 "
     "1209600 300\n;; XFR size: 4 records (messages 1, bytes 250)\n",
     {"-:5: xn--bcher-kva.example.com. (b\xc3\xbc" "cher.example.com.) CNAME "
      "cname=xn--zz.example.com.: " BAD,
      "-:7: example.com. MX exchange=xn--zz.example.com.: " BAD},
     {"idnguard lint-zone: 4 records, 10 names, 2 findings, bad-punycode 2" NO_ERRORS},
     1},
    {"$INCLUDE from a pipe",
     {"-"},
     "$ORIGIN example.\n$INCLUDE sub/inc.db\nxn--zz IN A 192.0.2.1\n",
     {"-:3: xn--zz.example. A owner: " BAD},
     {"-:2: $INCLUDE cannot be followed in an input that cannot be read again (a pipe)",
      "idnguard lint-zone: 1 records, 1 names, 1 findings, bad-punycode 1; 1 errors"},
     2},
    {"--conf with a deny list and a log action",
     {"--conf", "@/deny.conf", "@/deny.db"},
     NULL,
     {"@/deny.db:2: evil.example. A owner: deny: name is on the deny list [refuse]",
      "@/deny.db:3: www.evil.example. A owner: deny: name is on the deny list [refuse]",
      "@/deny.db:4: good.example. CNAME cname=www.evil.example.: deny: name is on the deny "
      "list [refuse]",
      "@/deny.db:5: xn--zz.example. A owner: bad-punycode: xn--zz: unterminated Punycode "
      "integer [log]",
      "@/deny.db:6: xn--bcher-kva.evil.example. (b\xc3\xbc" "cher.evil.example.) A owner: "
      "deny: name is on the deny list [refuse]"},
     {"idnguard lint-zone: 5 records, 6 names, 5 findings, bad-punycode 1, deny 4" NO_ERRORS},
     1},
    /* UTS #39: the lookalikes of a protected name, a name below one and a
     * CNAME into one, never shown in Unicode; the protected name, a good
     * IDN and an ASCII look-alike (not IDNA's business) are clean. */
    {"--conf with a protected name",
     {"--conf", "@/lookalike.conf", "@/lookalike.db"},
     NULL,
     {"@/lookalike.db:4: xn--pypal-4ve.example. A owner: confusable: xn--pypal-4ve: name is "
      "confusable with a protected name (UTS #39 section 4): looks like paypal.example. "
      "[refuse]",
      "@/lookalike.db:5: login.xn--pypal-4ve.example. A owner: confusable: xn--pypal-4ve: "
      "name is confusable with a protected name (UTS #39 section 4): looks like "
      "paypal.example. [refuse]",
      "@/lookalike.db:6: pay.example. CNAME cname=xn--pypal-4ve.example.: confusable: "
      "xn--pypal-4ve: name is confusable with a protected name (UTS #39 section 4): looks "
      "like paypal.example. [refuse]"},
     {"idnguard lint-zone: 7 records, 10 names, 3 findings, confusable 3" NO_ERRORS},
     1},
    /* on-idn: refuse with Latin and .рф exempt: the Cyrillic name and a
     * CNAME into it; bücher and a name under .рф are clean. */
    {"--conf with on-idn",
     {"--conf", "@/idn.conf", "@/idn.db"},
     NULL,
     {"@/idn.db:4: xn--80aafi6cg.example. (\xd0\xbf\xd1\x80\xd0\xb0\xd0\xb2\xd0\xb4\xd0\xb0"
      ".example.) A owner: idn: xn--80aafi6cg: IDN label that idn-scripts and idn-suffixes do "
      "not exempt [refuse]",
      "@/idn.db:5: alias.example. CNAME cname=xn--80aafi6cg.example. (\xd0\xbf\xd1\x80\xd0"
      "\xb0\xd0\xb2\xd0\xb4\xd0\xb0.example.): idn: xn--80aafi6cg: IDN label that "
      "idn-scripts and idn-suffixes do not exempt [refuse]"},
     {"idnguard lint-zone: 5 records, 8 names, 2 findings, idn 2" NO_ERRORS},
     1},
    {"JSON",
     {"--format=json", "--conf", "@/deny.conf", "@/deny.db"},
     NULL,
     {"{\"file\":\"@/deny.db\",\"line\":2,\"owner\":\"evil.example.\",\"owner_unicode\":null,"
      "\"type\":\"A\",\"field\":\"owner\",\"name\":\"evil.example.\",\"name_unicode\":null,"
      "\"class\":\"deny\",\"label\":null,\"message\":\"name\\u0020is\\u0020on\\u0020the\\u0020"
      "deny\\u0020list\",\"codepoint\":null,\"a_label\":null,\"action\":\"refuse\","
      "\"severity\":\"error\"}",
      "{\"file\":\"@/deny.db\",\"line\":3,\"owner\":\"www.evil.example.\",\"owner_unicode\":"
      "null,\"type\":\"A\",\"field\":\"owner\",\"name\":\"www.evil.example.\",\"name_unicode\":"
      "null,\"class\":\"deny\",\"label\":null,\"message\":\"name\\u0020is\\u0020on\\u0020the"
      "\\u0020deny\\u0020list\",\"codepoint\":null,\"a_label\":null,\"action\":\"refuse\","
      "\"severity\":\"error\"}",
      "{\"file\":\"@/deny.db\",\"line\":4,\"owner\":\"good.example.\",\"owner_unicode\":null,"
      "\"type\":\"CNAME\",\"field\":\"cname\",\"name\":\"www.evil.example.\",\"name_unicode\":"
      "null,\"class\":\"deny\",\"label\":null,\"message\":\"name\\u0020is\\u0020on\\u0020the"
      "\\u0020deny\\u0020list\",\"codepoint\":null,\"a_label\":null,\"action\":\"refuse\","
      "\"severity\":\"error\"}",
      "{\"file\":\"@/deny.db\",\"line\":5,\"owner\":\"xn--zz.example.\",\"owner_unicode\":null,"
      "\"type\":\"A\",\"field\":\"owner\",\"name\":\"xn--zz.example.\",\"name_unicode\":null,"
      "\"class\":\"bad-punycode\",\"label\":\"xn--zz\",\"message\":\"unterminated\\u0020"
      "Punycode\\u0020integer\",\"codepoint\":null,\"a_label\":null,\"action\":\"log\","
      "\"severity\":\"warning\"}",
      "{\"file\":\"@/deny.db\",\"line\":6,\"owner\":\"xn--bcher-kva.evil.example.\","
      "\"owner_unicode\":\"b\xc3\xbc" "cher.evil.example.\",\"type\":\"A\",\"field\":\"owner\","
      "\"name\":\"xn--bcher-kva.evil.example.\",\"name_unicode\":\"b\xc3\xbc" "cher.evil.example."
      "\",\"class\":\"deny\",\"label\":null,\"message\":\"name\\u0020is\\u0020on\\u0020the"
      "\\u0020deny\\u0020list\",\"codepoint\":null,\"a_label\":null,\"action\":\"refuse\","
      "\"severity\":\"error\"}"},
     {"idnguard lint-zone: 5 records, 6 names, 5 findings, bad-punycode 1, deny 4" NO_ERRORS},
     1},
    {"JSON escapes and a raw label",
     {"--format=json", "--origin", "example.", "-"},
     "b\\195\\188cher\\034 IN A 192.0.2.1\n",
     {"{\"file\":\"-\",\"line\":1,\"owner\":\"b\\\\195\\\\188cher\\\\034.example.\","
      "\"owner_unicode\":null,\"type\":\"A\",\"field\":\"owner\",\"name\":\"b\\\\195\\\\188cher"
      "\\\\034.example.\",\"name_unicode\":null,\"class\":\"disallowed\",\"label\":"
      "\"b\\\\195\\\\188cher\\\\034\",\"message\":\"code\\u0020point\\u0020is\\u0020"
      "disallowed\",\"codepoint\":\"U+0022\",\"a_label\":null,\"action\":\"refuse\","
      "\"severity\":\"error\"}"},
     {"idnguard lint-zone: 1 records, 1 names, 1 findings, disallowed 1" NO_ERRORS},
     1},
    {"syntax errors: every one reported, the rest still judged",
     {"@/syntax.db"},
     NULL,
     {"@/syntax.db:4: xn--zz.example. A owner: " BAD},
     {"@/syntax.db:3: Syntax error, could not parse the RR's rdata",
      "@/syntax.db:5: Syntax error, could not parse the RR's rdata",
      "idnguard lint-zone: 3 records, 3 names, 1 findings, bad-punycode 1; 2 errors"},
     2},
    {"unreadable inputs",
     {"@/missing.db", "@", "@/clean.db"},
     NULL,
     {NULL},
     {"@/missing.db: No such file or directory", "@: not a regular file (a directory)",
      "idnguard lint-zone: 6 records, 10 names, 0 findings; 2 errors"},
     2},
    {"$INCLUDE of itself: a loop",
     {"@/self.db"},
     NULL,
     {NULL},
     {"@/self.db:1: $INCLUDE @/self.db: include loop: @/self.db:1 -> @/self.db",
      "idnguard lint-zone: 0 records, 0 names, 0 findings; 1 errors"},
     2},
    /* The same file under another spelling (sub/..): a loop by device and
     * inode; the rest of the first file is still read. */
    {"$INCLUDE loop through two files",
     {"@/loop-a.db"},
     NULL,
     {"@/loop-a.db:3: xn--zz.example. A owner: " BAD},
     {"@/loop-b.db:1: $INCLUDE @/sub/../loop-a.db: include loop: @/loop-a.db:2 -> "
      "@/loop-b.db:1 -> @/loop-a.db",
      "idnguard lint-zone: 1 records, 1 names, 1 findings, bad-punycode 1; 1 errors"},
     2},
    /* Under the depth limit alone, 10^16 files to read. */
    {"$INCLUDE of itself ten times",
     {"@/fanout.db"},
     NULL,
     {NULL},
     {"@/fanout.db:1: $INCLUDE @/fanout.db: include loop: @/fanout.db:1 -> @/fanout.db",
      "@/fanout.db:2: $INCLUDE @/fanout.db: include loop: @/fanout.db:2 -> @/fanout.db",
      "@/fanout.db:3: $INCLUDE @/fanout.db: include loop: @/fanout.db:3 -> @/fanout.db",
      "@/fanout.db:4: $INCLUDE @/fanout.db: include loop: @/fanout.db:4 -> @/fanout.db",
      "@/fanout.db:5: $INCLUDE @/fanout.db: include loop: @/fanout.db:5 -> @/fanout.db",
      "@/fanout.db:6: $INCLUDE @/fanout.db: include loop: @/fanout.db:6 -> @/fanout.db",
      "@/fanout.db:7: $INCLUDE @/fanout.db: include loop: @/fanout.db:7 -> @/fanout.db",
      "@/fanout.db:8: $INCLUDE @/fanout.db: include loop: @/fanout.db:8 -> @/fanout.db",
      "@/fanout.db:9: $INCLUDE @/fanout.db: include loop: @/fanout.db:9 -> @/fanout.db",
      "@/fanout.db:10: $INCLUDE @/fanout.db: include loop: @/fanout.db:10 -> @/fanout.db",
      "idnguard lint-zone: 0 records, 0 names, 0 findings; 10 errors"},
     2},
    {"a file included from two files: a diamond, not a loop",
     {"@/diamond.db"},
     NULL,
     {"@/sub/inc.db:1: inc.left.example. CNAME cname=xn--zz.left.example.: " BAD,
      "@/sub/inc.db:1: inc.right.example. CNAME cname=xn--zz.right.example.: " BAD},
     {"idnguard lint-zone: 2 records, 4 names, 2 findings, bad-punycode 2" NO_ERRORS},
     1},
    {"$INCLUDE of a missing file, a directory, a device",
     {"@/include-bad.db"},
     NULL,
     {NULL},
     {"@/include-bad.db:1: $INCLUDE @/missing.db: No such file or directory",
      "@/include-bad.db:2: $INCLUDE @/sub: not a regular file (a directory)",
      "@/include-bad.db:3: $INCLUDE /dev/null: not a regular file (a character device)",
      "idnguard lint-zone: 0 records, 0 names, 0 findings; 3 errors"},
     2},
    {"a clean zone", {"@/clean.db"}, NULL, {NULL},
     {"idnguard lint-zone: 6 records, 10 names, 0 findings" NO_ERRORS}, 0},
    {"a bad --origin", {"--origin", "a..b", "-"}, "", {NULL},
     {"-: not a domain name (--origin): a..b",
      "idnguard lint-zone: 0 records, 0 names, 0 findings; 1 errors"}, 2},
    {"unknown mode", {"--mode=x", "-"}, NULL, {NULL},
     {"idnguard lint-zone: unknown mode 'x' (punycode, idna2008, uts46)"}, 2},
    {"unknown format", {"--format=xml", "-"}, NULL, {NULL},
     {"idnguard lint-zone: unknown format 'xml' (text, json)"}, 2},
    {"an unknown option", {"-x", "-"}, NULL, {NULL},
     {"idnguard lint-zone: unknown option '-x' (idnguard lint-zone --help)"}, 2},
    {"--conf without a value", {"--conf"}, NULL, {NULL},
     {"idnguard lint-zone: option '--conf' needs a value: --conf FILE"}, 2},
    {"a bad settings file", {"--conf", "@/clean.db", "-"}, NULL, {NULL},
     {"@/clean.db:1: *"}, 2},
};

/* ---- cases whose files are made in a scratch directory ---- */

/* dir/name holding text. */
static void put_file(const char *dir, const char *name, const char *text)
{
    char path[512];

    snprintf(path, sizeof path, "%s/%s", dir, name);
    t_spew_str(path, text);
}

static void make_fifo(const char *dir)
{
    char path[512];

    snprintf(path, sizeof path, "%s/fifo", dir);
    ck_assert_msg(mkfifo(path, 0600) == 0, "mkfifo %s: %s", path, strerror(errno));
    put_file(dir, "fifo-inc.db", "$INCLUDE fifo\nxn--zz.example. IN A 192.0.2.1\n");
}

/* A socket left bound in the file system (its descriptor closed). */
static void make_socket(const char *dir)
{
    struct sockaddr_un sa;
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);

    ck_assert(fd >= 0);
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    ck_assert((size_t)snprintf(sa.sun_path, sizeof sa.sun_path, "%s/sock", dir)
              < sizeof sa.sun_path);
    ck_assert_msg(bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0, "bind %s: %s", sa.sun_path,
                  strerror(errno));
    close(fd);
    put_file(dir, "sock-inc.db", "$INCLUDE sock\n");
}

/* c0.db includes c1.db, ... c16.db includes c17.db: one more than 16 deep. */
static void make_chain(const char *dir)
{
    char name[32], text[64];
    int i;

    for (i = 0; i < 17; i++) {
        snprintf(name, sizeof name, "c%d.db", i);
        snprintf(text, sizeof text, "$INCLUDE c%d.db\n", i + 1);
        put_file(dir, name, text);
    }
    put_file(dir, "c17.db", "ok.example. IN A 192.0.2.1\n");
}

/* f0.db includes f1.db ten times, ... f14.db includes f15.db ten times: no
 * loop and 15 deep, but 10^15 files to read without a limit on their
 * number.  Depth first, the 4097th is f15.db from f14.db line 7, after
 * 3,676 of the f15.db files (one clean record each). */
static void make_fanout(const char *dir)
{
    char name[32], line[32], text[512];
    int i, k;

    for (i = 0; i < 15; i++) {
        text[0] = '\0';
        snprintf(line, sizeof line, "$INCLUDE f%d.db\n", i + 1);
        for (k = 0; k < 10; k++)
            strcat(text, line);
        snprintf(name, sizeof name, "f%d.db", i);
        put_file(dir, name, text);
    }
    put_file(dir, "f15.db", "ok.example. IN A 192.0.2.1\n");
}

/* A sparse file one octet over the limit, then an $INCLUDE of a small file
 * (no longer followed) and a record (still read). */
static void make_big(const char *dir)
{
    char path[512];
    int fd;

    snprintf(path, sizeof path, "%s/big.db", dir);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ck_assert(fd >= 0);
    ck_assert_msg(ftruncate(fd, INCLUDE_OCTETS_MAX + 1) == 0, "ftruncate: %s", strerror(errno));
    close(fd);
    put_file(dir, "small.db", "xn--zz.example. IN A 192.0.2.1\n");
    put_file(dir, "big-inc.db", "$INCLUDE big.db\n$INCLUDE small.db\nok.example. IN A 192.0.2.1\n");
}

struct made_case {
    void (*make)(const char *dir);
    struct lint_case c;
};

static const struct made_case made_cases[] = {
    /* Opening a FIFO for reading waits for a writer: refused unopened. */
    {make_fifo,
     {"a FIFO as FILE",
      {"%/fifo", "@/clean.db"},
      NULL,
      {NULL},
      {"%/fifo: not a regular file (a FIFO)",
       "idnguard lint-zone: 6 records, 10 names, 0 findings; 1 errors"},
      2}},
    {make_fifo,
     {"$INCLUDE of a FIFO",
      {"%/fifo-inc.db"},
      NULL,
      {"%/fifo-inc.db:2: xn--zz.example. A owner: " BAD},
      {"%/fifo-inc.db:1: $INCLUDE %/fifo: not a regular file (a FIFO)",
       "idnguard lint-zone: 1 records, 1 names, 1 findings, bad-punycode 1; 1 errors"},
      2}},
    {make_socket,
     {"$INCLUDE of a socket",
      {"%/sock-inc.db"},
      NULL,
      {NULL},
      {"%/sock-inc.db:1: $INCLUDE %/sock: not a regular file (a socket)",
       "idnguard lint-zone: 0 records, 0 names, 0 findings; 1 errors"},
      2}},
    {make_chain,
     {"$INCLUDE 17 deep",
      {"%/c0.db"},
      NULL,
      {NULL},
      {"%/c16.db:1: $INCLUDE %/c17.db: nested more than 16 deep (the limit)",
       "idnguard lint-zone: 0 records, 0 names, 0 findings; 1 errors"},
      2}},
    {make_fanout,
     {"$INCLUDE fan-out past the limit on files",
      {"%/f0.db"},
      NULL,
      {NULL},
      {"%/f14.db:7: $INCLUDE %/f15.db: more than 4096 files included for this input (the "
       "limit); no further $INCLUDE of it is followed",
       "idnguard lint-zone: 3676 records, 3676 names, 0 findings; 1 errors"},
      2}},
    {make_big,
     {"$INCLUDE past the limit on octets",
      {"%/big-inc.db"},
      NULL,
      {NULL},
      {"%/big-inc.db:1: $INCLUDE %/big.db: the files included for this input would pass "
       "1073741824 octets (the limit); no further $INCLUDE of it is followed",
       "idnguard lint-zone: 1 records, 1 names, 0 findings; 1 errors"},
      2}},
};

/* Runs c and checks its status and both outputs. */
static void check_case(const struct lint_case *c)
{
    char *out, *err;
    int st;

    st = run_lint(c, &out, &err);
    ck_assert_msg(st == c->status, "%s: exit %d, expected %d\nstdout:\n%s\nstderr:\n%s",
                  c->name, st, c->status, out, err);
    expect(c->name, "stdout", out, c->out);
    if (c->err[0] && c->err[0][strlen(c->err[0]) - 1] == '*') {
        char buf[512];
        const char *w = expand(c->err[0], buf, sizeof buf);
        ck_assert_msg(strncmp(err, w, strlen(w) - 1) == 0, "%s: stderr is \"%s\"", c->name,
                      err);
    } else {
        expect(c->name, "stderr", err, c->err);
    }
    free(out);
    free(err);
}

START_TEST(test_lint_case)
{
    check_case(&cases[_i]);
}
END_TEST

START_TEST(test_lint_made)
{
    t_tmpdir_make(scratch, sizeof scratch, "idng-lint-files");
    made_cases[_i].make(scratch);
    check_case(&made_cases[_i].c);
    t_tmpdir_remove(scratch);
    scratch[0] = '\0';
}
END_TEST

/* The stricter profile: emoji and CONTEXTO rules fail where uts46 passes. */
START_TEST(test_idna2008)
{
    static const struct lint_case c[1] = {
        {"--mode=idna2008", {"--mode=idna2008", "@/classes.db"}, NULL, {NULL}, {NULL}, 1}};
    char *out, *err;

    ck_assert_int_eq(run_lint(c, &out, &err), 1);
    ck_assert_msg(strstr(out, ":9: xn--ls8h.emoji.example. A owner: disallowed: xn--ls8h: code "
                              "point is disallowed (U+1F4A9) [refuse]\n"),
                  "%s", out);
    ck_assert_msg(strstr(out, ":12: xn--ab-0ea.contexto.example. A owner: contexto: xn--ab-0ea: "),
                  "%s", out);
    free(out);
    free(err);
}
END_TEST

static Suite *lint_suite(void)
{
    Suite *s = suite_create("lint-zone");
    TCase *tc = tcase_create("lint-zone");

    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_lint_case, 0, (int)(sizeof cases / sizeof cases[0]));
    tcase_add_loop_test(tc, test_lint_made, 0, (int)(sizeof made_cases / sizeof made_cases[0]));
    tcase_add_test(tc, test_idna2008);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lint_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
