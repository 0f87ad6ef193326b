/**
 * \file
 * Integration test harness (see harness.h): the query log's lines, a query
 * and its line, the assertions on both, and the flavours' differences.
 */
#define _GNU_SOURCE /* memmem */

#include "harness.h"
#include "harness_priv.h"

#include "common.h"

#include <check.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- log lines ---- */

/* Calls fn on each complete line after from; stops when fn returns nonzero. */
static int each_line(const char *path, long from, int (*fn)(const char *, size_t, void *),
                     void *arg)
{
    size_t n;
    char *s = harness_read_file(path, from, &n), *p, *end;
    int r = 0;

    if (!s)
        return 0;
    p = s;
    end = s + n;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            break; /* not complete yet */
        if ((r = fn(p, (size_t)(nl - p), arg)) != 0)
            break;
        p = nl + 1;
    }
    free(s);
    return r;
}

struct find_arg {
    const char *needle;
    char *line;
    size_t cap;
    int count;
};

static int find_fn(const char *l, size_t n, void *arg)
{
    struct find_arg *a = arg;
    if (!memmem(l, n, a->needle, strlen(a->needle)))
        return 0;
    if (a->line && a->cap) {
        size_t k = n < a->cap - 1 ? n : a->cap - 1;
        memcpy(a->line, l, k);
        a->line[k] = '\0';
    }
    return 1;
}

static int count_fn(const char *l, size_t n, void *arg)
{
    struct find_arg *a = arg;
    if (memmem(l, n, a->needle, strlen(a->needle)))
        a->count++;
    return 0;
}

int harness_wait_line(const char *path, long from, const char *needle, int timeout_ms, char *line,
                      size_t cap)
{
    long long deadline = harness_now_ms() + timeout_ms;
    struct find_arg a = {needle, line, cap, 0};

    for (;;) {
        if (each_line(path, from, find_fn, &a))
            return 1;
        if (harness_now_ms() >= deadline)
            return 0;
        t_sleep_ms(POLL_MS);
    }
}

int harness_count_lines(const char *path, long from, const char *needle)
{
    struct find_arg a = {needle, NULL, 0, 0};
    each_line(path, from, count_fn, &a);
    return a.count;
}

int harness_wait_count(const char *path, long from, const char *needle, int n, int timeout_ms)
{
    long long deadline = harness_now_ms() + timeout_ms;
    int c;

    for (;;) {
        c = harness_count_lines(path, from, needle);
        if (c >= n || harness_now_ms() >= deadline)
            return c;
        t_sleep_ms(POLL_MS);
    }
}

/* Copies the next space-separated field; returns the position after it. */
static const char *field(const char *p, char *out, size_t cap)
{
    size_t n = 0;
    while (*p == ' ')
        p++;
    while (*p && *p != ' ') {
        if (n + 1 < cap)
            out[n++] = *p;
        p++;
    }
    if (cap)
        out[n] = '\0';
    return p;
}

int qline_parse(const char *text, struct qline *q)
{
    const char *p = strstr(text, "idnguard: ");
    char tok[2800], *hash;

    memset(q, 0, sizeof *q);
    q->ede = -1;
    p = p ? p + strlen("idnguard: ") : text;
    p = field(p, tok, sizeof tok);
    if (tok[0] >= '0' && tok[0] <= '9' && strchr(tok, 'T') && tok[strlen(tok) - 1] == 'Z') {
        scopy(q->time, sizeof q->time, tok);
        p = field(p, tok, sizeof tok);
    }
    hash = strrchr(tok, '#');
    if (hash) {
        *hash = '\0';
        q->port = (unsigned)strtoul(hash + 1, NULL, 10);
    }
    snprintf(q->client, sizeof q->client, "%s", tok);
    p = field(p, q->qname, sizeof q->qname);
    p = field(p, tok, sizeof tok);
    if (tok[0] == '(') {
        size_t l = strlen(tok);
        if (l < 2 || tok[l - 1] != ')')
            return -1;
        tok[l - 1] = '\0';
        scopy(q->unicode, sizeof q->unicode, tok + 1);
        p = field(p, tok, sizeof tok);
    }
    snprintf(q->qtype, sizeof q->qtype, "%s", tok);
    p = field(p, q->qclass, sizeof q->qclass);
    p = field(p, q->rcode, sizeof q->rcode);
    p = field(p, q->verdict, sizeof q->verdict);
    p = field(p, q->action, sizeof q->action);
    p = field(p, q->path, sizeof q->path);
    p = field(p, tok, sizeof tok);
    if (strncmp(tok, "ede=", 4) == 0) {
        q->ede = atoi(tok + 4);
        p = field(p, tok, sizeof tok);
    }
    if (strncmp(tok, "lookalike=", 10) == 0) {
        scopy(q->lookalike, sizeof q->lookalike, tok + 10);
        p = field(p, tok, sizeof tok);
    }
    if (strncmp(tok, "target=", 7) == 0) {
        scopy(q->target, sizeof q->target, tok + 7);
        p = field(p, tok, sizeof tok);
    }
    if (strncmp(tok, "proto=", 6) == 0) {
        scopy(q->proto, sizeof q->proto, tok + 6);
        p = field(p, tok, sizeof tok);
    }
    if (strncmp(tok, "ms=", 3) == 0) {
        scopy(q->ms, sizeof q->ms, tok + 3);
        p = field(p, tok, sizeof tok);
    }
    if (tok[0] || !q->path[0] || !q->qname[0])
        return -1; /* missing fields, or something after the last one */
    return 0;
}

int harness_query(const struct harness *h, const char *qname, uint16_t qtype, unsigned flags,
                  int timeout_ms, struct dnsq_result *r, char *line, size_t cap)
{
    long from = harness_file_size(h->qlog);
    char needle[40], buf[LINE_MAX_];
    const char *p;

    if (cap)
        line[0] = '\0';
    if (dnsq_query_ex(h->port, qname, qtype, flags, timeout_ms, r) != 0) {
        snprintf(line, cap, "query for %s failed: local error, or no daemon on port %d", qname,
                 h->port);
        return -1;
    }
    snprintf(needle, sizeof needle, "127.0.0.1#%u ", r->local_port);
    if (!harness_wait_line(h->qlog, from, needle, HARNESS_LOG_MS, buf, sizeof buf)) {
        char t[TAIL_MAX];
        size_t n;
        char *s = harness_read_file(h->qlog, from, &n);
        snprintf(t, sizeof t, "%s", s ? s : "");
        free(s);
        snprintf(line, cap, "no log line with \"%s\" in %s; new lines: %s", needle, h->qlog, t);
        return 0;
    }
    p = strstr(buf, "idnguard: ");
    snprintf(line, cap, "%s", p ? p + strlen("idnguard: ") : buf);
    return 1;
}

/* ---- assertions ---- */

void hx_query(const struct harness *h, const char *qname, uint16_t qtype, unsigned flags,
              int timeout_ms, struct dnsq_result *r, struct qline *q)
{
    char line[LINE_MAX_];
    int got = harness_query(h, qname, qtype, flags, timeout_ms, r, line, sizeof line);

    ck_assert_msg(got >= 0, "%s", line);
    ck_assert_msg(got == 1, "%s: reply %s%s, but %s", qname, dnsq_rcode_name(r->rcode),
                  r->timed_out ? " (none: timed out)" : "", line);
    ck_assert_msg(qline_parse(line, q) == 0, "%s: log line does not parse: %s", qname, line);
    scopy(q->raw, sizeof q->raw, line);
}

void hx_expect_policy(const struct dnsq_result *r, const struct qline *q, const char *qname_log,
                      int rcode, const char *verdict, const char *action, const char *ede_prefix)
{
    char sum[2048];

    dnsq_answer_summary(r, sum, sizeof sum);
    ck_assert_msg(!r->timed_out, "%s: no reply (expected %s)", qname_log, dnsq_rcode_name(rcode));
    ck_assert_msg(r->rcode == rcode, "%s: rcode %s, expected %s; answer: %s; line: %s", qname_log,
                  dnsq_rcode_name(r->rcode), dnsq_rcode_name(rcode), sum, q->raw);
    ck_assert_msg(r->ancount == 0, "%s: %s with answer records: %s", qname_log,
                  dnsq_rcode_name(rcode), sum);
    if (ede_prefix) {
        ck_assert_msg(r->ede_code == 15, "%s: EDE %d (expected 15, Blocked)", qname_log,
                      r->ede_code);
        ck_assert_msg(strncmp(r->ede_text, ede_prefix, strlen(ede_prefix)) == 0,
                      "%s: EDE text \"%s\", expected it to begin with \"%s\"", qname_log,
                      r->ede_text, ede_prefix);
    }
    ck_assert_msg(strcmp(q->qname, qname_log) == 0, "line's qname %s, expected %s: %s", q->qname,
                  qname_log, q->raw);
    ck_assert_msg(strcmp(q->rcode, dnsq_rcode_name(rcode)) == 0 && strcmp(q->verdict, verdict) == 0
                      && strcmp(q->action, action) == 0 && strcmp(q->path, "policy") == 0,
                  "%s: line says %s %s %s %s; expected %s %s %s policy: %s", qname_log, q->rcode,
                  q->verdict, q->action, q->path, dnsq_rcode_name(rcode), verdict, action, q->raw);
    ck_assert_msg(q->ede == (ede_prefix ? 15 : -1), "%s: line has ede=%d: %s", qname_log, q->ede,
                  q->raw);
}

int hx_answer_ede_ok(const struct dnsq_result *r)
{
    /* PowerDNS Recursor names the DNSSEC failure (RFC 8914 1-12: DNSKEY
     * missing, signature expired, ...) where Unbound says bogus. */
    return r->ede_code == -1
           || (r->cd
               && ENGINE(r->ede_code == 5 || r->ede_code == 6, r->ede_code == 5 || r->ede_code == 6,
                         r->ede_code >= 1 && r->ede_code <= 12,
                         r->ede_code == 5 || r->ede_code == 6));
}

void hx_expect_data(const struct dnsq_result *r, const struct qline *q, const char *qname_log,
                    const char *summary, const char *verdict, const char *action, const char *path)
{
    char sum[2048];

    dnsq_answer_summary(r, sum, sizeof sum);
    ck_assert_msg(!r->timed_out, "%s: no reply", qname_log);
    ck_assert_msg(r->rcode == 0, "%s: rcode %s (EDE %d \"%s\"), expected NOERROR; line: %s",
                  qname_log, dnsq_rcode_name(r->rcode), r->ede_code, r->ede_text, q->raw);
    ck_assert_msg(strcmp(sum, summary) == 0, "%s: answer [%s], expected [%s]", qname_log, sum,
                  summary);
    ck_assert_msg(hx_answer_ede_ok(r), "%s: EDE %d \"%s\" on an answer", qname_log, r->ede_code,
                  r->ede_text);
    ck_assert_msg(strcmp(q->qname, qname_log) == 0, "line's qname %s, expected %s: %s", q->qname,
                  qname_log, q->raw);
    ck_assert_msg(strcmp(q->rcode, "NOERROR") == 0 && strcmp(q->verdict, verdict) == 0
                      && strcmp(q->action, action) == 0 && strcmp(q->path, path) == 0
                      && q->ede == -1,
                  "%s: line says %s %s %s %s ede=%d; expected NOERROR %s %s %s: %s", qname_log,
                  q->rcode, q->verdict, q->action, q->path, q->ede, verdict, action, path, q->raw);
}

/* ---- the two flavours ---- */

int harness_python(void)
{
    const char *f = getenv("IDNGUARD_FLAVOUR");
    return f && strcmp(f, "python") == 0;
}

void py_does(const char *why)
{
    if (harness_python())
        printf("python flavour: %s\n", why);
}

enum hx_flavour harness_flavour(void)
{
    static const struct {
        const char *name;
        enum hx_flavour f;
    } names[] = {
        {"python", HX_PYTHON}, {"kresd", HX_KRESD}, {"pdns", HX_PDNS}, {"dnsdist", HX_DNSDIST}};
    const char *f = getenv("IDNGUARD_FLAVOUR");

    for (size_t i = 0; f && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(f, names[i].name) == 0)
            return names[i].f;
    return HX_DYNLIB;
}

int harness_engine(void)
{
    enum hx_flavour f = harness_flavour();

    return f == HX_KRESD || f == HX_PDNS || f == HX_DNSDIST;
}

int harness_cname_alone(void)
{
    enum hx_flavour f = harness_flavour();

    return f == HX_PYTHON || f == HX_PDNS || f == HX_DNSDIST;
}

void engine_does(const char *why)
{
    if (harness_engine())
        printf("%s flavour: %s\n", getenv("IDNGUARD_FLAVOUR"), why);
}

void hx_expect_dropped(const struct dnsq_result *r, const struct qline *q, const char *qname_log,
                       const char *verdict)
{
    const char *rc = PY("DROPPED", "REFUSED");

    if (harness_python())
        ck_assert_msg(!r->timed_out && r->rcode == 5 && r->ancount == 0 && r->ede_code == -1,
                      "%s under drop (python: REFUSED without EDE): %s%s EDE %d", qname_log,
                      dnsq_rcode_name(r->rcode), r->timed_out ? " (timed out)" : "", r->ede_code);
    else
        ck_assert_msg(r->timed_out, "%s under drop: got a reply, %s", qname_log,
                      dnsq_rcode_name(r->rcode));
    ck_assert_msg(strcmp(q->qname, qname_log) == 0 && strcmp(q->rcode, rc) == 0
                      && strcmp(q->verdict, verdict) == 0 && strcmp(q->action, "drop") == 0
                      && strcmp(q->path, "policy") == 0 && q->ede == -1,
                  "%s under drop: line %s; expected %s %s drop policy", qname_log, q->raw, rc,
                  verdict);
}

void hx_expect_normalized(const struct harness *h, const struct dnsq_result *r,
                          const struct qline *q, const char *qname_log, uint16_t qtype,
                          const char *cname, const char *rest, const char *verdict)
{
    char want[2048], target[1100];
    const char *t = strstr(cname, " CNAME ");
    struct dnsq_result r2;
    struct qline q2;

    if (!harness_cname_alone()) {
        /* kresd: no sub-query; the A-label name's answer may be its cache's. */
        const char *path =
            harness_flavour() == HX_KRESD && strcmp(q->path, "cache") == 0 ? "cache" : "resolved";
        snprintf(want, sizeof want, "%s | %s", cname, rest);
        hx_expect_data(r, q, qname_log, want, verdict, "normalize", path);
        return;
    }
    hx_expect_data(r, q, qname_log, cname, verdict, "normalize", "policy");
    ck_assert_msg(t != NULL, "bad expectation %s", cname);
    scopy(target, sizeof target, t + strlen(" CNAME "));
    ck_assert_msg(strcmp(q->target, target) == 0, "%s: line's target=%s, expected %s: %s",
                  qname_log, q->target, target, q->raw);
    /* The client follows the CNAME. */
    hx_query(h, target, qtype, 0, HARNESS_QUERY_MS, &r2, &q2);
    dnsq_answer_summary(&r2, want, sizeof want);
    ck_assert_msg(r2.rcode == 0 && strcmp(want, rest) == 0,
                  "%s: following the CNAME: %s [%s], expected [%s]", target,
                  dnsq_rcode_name(r2.rcode), want, rest);
}

int py_follow_normalize(const struct harness *h, uint16_t qtype, unsigned flags, int timeout_ms,
                        struct dnsq_result *r, struct qline *q, char *qname_log, size_t cap)
{
    char target[1100];

    if (!harness_cname_alone() || r->timed_out || r->rcode != 0 || !q->target[0]
        || strcmp(q->action, "normalize") != 0 || strcmp(q->path, "policy") != 0)
        return 0;
    scopy(target, sizeof target, q->target);
    hx_query(h, target, qtype, flags, timeout_ms, r, q);
    if (qname_log)
        scopy(qname_log, cap, target);
    return 1;
}
