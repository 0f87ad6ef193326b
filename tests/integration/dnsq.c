/**
 * \file
 * The integration tests' DNS client (see dnsq.h).
 */
#include "dnsq.h"

#include <ldns/ldns.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MSG_MAX 65535
#define EDNS_PAYLOAD 1232
#define OPT_TYPE 41
#define EDE_OPTION 15

static atomic_uint next_id;

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int remaining(long long deadline)
{
    long long left = deadline - now_ms();
    return left < 0 ? 0 : (int)left;
}

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static unsigned get16(const uint8_t *p)
{
    return (unsigned)p[0] << 8 | p[1];
}

/* Header, question and (unless DNSQ_F_NOEDNS) an OPT record without options. */
static int build_query(const char *qname, uint16_t qtype, unsigned flags, uint16_t id, uint8_t *buf,
                       size_t cap, size_t *len)
{
    ldns_rdf *dn = NULL;
    size_t n = 0, dl;
    int edns = (flags & DNSQ_F_NOEDNS) == 0;
    unsigned hflags = (flags & DNSQ_F_NORD) ? 0 : 0x0100; /* RD: the resolver recurses for us */

    if (!edns && (flags & DNSQ_F_DO))
        return -1; /* DO lives in the OPT record */
    if (flags & DNSQ_F_AD)
        hflags |= 0x0020;
    if (flags & DNSQ_F_CD)
        hflags |= 0x0010;
    if (flags & DNSQ_F_RCODE5)
        hflags |= 5; /* REFUSED in a query: a resolver must ignore it */
    if (ldns_str2rdf_dname(&dn, qname) != LDNS_STATUS_OK || !dn)
        return -1;
    dl = ldns_rdf_size(dn);
    if (12 + dl + 4 + 11 > cap) {
        ldns_rdf_deep_free(dn);
        return -1;
    }
    put16(buf, id);
    put16(buf + 2, hflags);
    put16(buf + 4, 1);
    put16(buf + 6, 0);
    put16(buf + 8, 0);
    put16(buf + 10, edns ? 1 : 0);
    n = 12;
    memcpy(buf + n, ldns_rdf_data(dn), dl);
    n += dl;
    ldns_rdf_deep_free(dn);
    put16(buf + n, qtype);
    put16(buf + n + 2, (flags & DNSQ_F_CHAOS) ? 3 : 1);
    n += 4;
    if (edns) {
        buf[n++] = 0; /* root owner */
        put16(buf + n, OPT_TYPE);
        put16(buf + n + 2, (flags & DNSQ_F_SMALL) ? 512 : EDNS_PAYLOAD);
        buf[n + 4] = 0; /* extended rcode */
        buf[n + 5] = 0; /* version */
        put16(buf + n + 6, (flags & DNSQ_F_DO) ? 0x8000 : 0); /* DO, RFC 3225 */
        put16(buf + n + 8, 0);
        n += 10;
    }
    *len = n;
    return 0;
}

/* Skips a (possibly compressed) name; returns the offset after it, or 0. */
static size_t skip_name(const uint8_t *m, size_t len, size_t pos)
{
    while (pos < len) {
        unsigned l = m[pos];
        if (l == 0)
            return pos + 1;
        if ((l & 0xC0) == 0xC0)
            return pos + 2 <= len ? pos + 2 : 0;
        if (l & 0xC0)
            return 0;
        pos += 1 + l;
    }
    return 0;
}

/* OPT options: code, length, data (RFC 6891 6.1.2); EDE = info-code + text. */
static void parse_opt(const uint8_t *rd, size_t rdlen, struct dnsq_result *r)
{
    size_t p = 0;

    while (p + 4 <= rdlen) {
        unsigned code = get16(rd + p), olen = get16(rd + p + 2);
        const uint8_t *d = rd + p + 4;
        if (p + 4 + olen > rdlen)
            return;
        if (code == EDE_OPTION && olen >= 2 && r->ede_code < 0) {
            size_t tl = olen - 2;
            if (tl >= sizeof r->ede_text)
                tl = sizeof r->ede_text - 1;
            r->ede_code = (int)get16(d);
            memcpy(r->ede_text, d + 2, tl);
            r->ede_text[tl] = '\0';
        }
        p += 4 + olen;
    }
}

/* Walks the reply's sections for the header fields and the OPT record. */
static int walk_reply(const uint8_t *m, size_t len, struct dnsq_result *r)
{
    unsigned qd, an, ns, ar, i;
    size_t pos = 12;

    if (len < 12)
        return -1;
    r->rcode = m[3] & 0x0F;
    r->aa = (m[2] & 0x04) != 0;
    r->tc = (m[2] & 0x02) != 0;
    r->ad = (m[3] & 0x20) != 0;
    r->cd = (m[3] & 0x10) != 0;
    qd = get16(m + 4);
    an = get16(m + 6);
    ns = get16(m + 8);
    ar = get16(m + 10);
    r->ancount = (int)an;
    r->nscount = (int)ns;
    r->arcount = (int)ar;
    for (i = 0; i < qd; i++) {
        pos = skip_name(m, len, pos);
        if (!pos || pos + 4 > len)
            return -1;
        pos += 4;
    }
    for (i = 0; i < an + ns + ar; i++) {
        unsigned type, rdlen;
        size_t owner = pos;
        pos = skip_name(m, len, pos);
        if (!pos || pos + 10 > len)
            return -1;
        type = get16(m + pos);
        rdlen = get16(m + pos + 8);
        if (pos + 10 + rdlen > len)
            return -1;
        if (i >= an + ns && type == OPT_TYPE && m[owner] == 0) {
            r->has_opt = 1;
            r->arcount--;
            r->rcode |= m[pos + 4] << 4; /* extended rcode, RFC 6891 6.1.3 */
            r->edns_do = (m[pos + 6] & 0x80) != 0;
            parse_opt(m + pos + 10, rdlen, r);
        }
        pos += 10 + rdlen;
    }
    return 0;
}

/* One section as text into out (cap octets), one record a line; OPT
 * records (which ldns keeps out of its lists anyway) are skipped. */
static void section_text(const ldns_rr_list *list, char *out, size_t cap)
{
    size_t i, n = 0;

    out[0] = '\0';
    for (i = 0; list && i < ldns_rr_list_rr_count(list); i++) {
        const ldns_rr *rr = ldns_rr_list_rr(list, i);
        char *s, *c;
        size_t l;
        if (ldns_rr_get_type(rr) == LDNS_RR_TYPE_OPT)
            continue;
        s = ldns_rr2str(rr);
        if (!s)
            continue;
        for (c = s; *c; c++)
            if (*c == '\t')
                *c = ' ';
        l = strlen(s);
        while (l > 0 && (s[l - 1] == '\n' || s[l - 1] == ' '))
            s[--l] = '\0';
        if (n + l + 2 < cap) {
            memcpy(out + n, s, l);
            n += l;
            out[n++] = '\n';
            out[n] = '\0';
        }
        free(s);
    }
}

/* The three record sections as text, through ldns. */
static int sections_text(const uint8_t *m, size_t len, struct dnsq_result *r)
{
    ldns_pkt *pkt = NULL;

    if (ldns_wire2pkt(&pkt, m, len) != LDNS_STATUS_OK)
        return -1;
    section_text(ldns_pkt_answer(pkt), r->answer, sizeof r->answer);
    section_text(ldns_pkt_authority(pkt), r->authority, sizeof r->authority);
    section_text(ldns_pkt_additional(pkt), r->additional, sizeof r->additional);
    ldns_pkt_free(pkt);
    return 0;
}

/* Is m a reply to our query: same ID, QR set, same question? */
static int matches(const uint8_t *m, size_t len, const uint8_t *q, size_t qlen)
{
    size_t qend = skip_name(q, qlen, 12);
    if (len < 12 || get16(m) != get16(q) || !(m[2] & 0x80) || !qend)
        return 0;
    /* An empty question section (FORMERR) is still our reply. */
    if (get16(m + 4) == 0)
        return 1;
    qend += 4;
    return len >= qend && memcmp(m + 12, q + 12, qend - 12) == 0;
}

static int loopback(int port, struct sockaddr_in *sa)
{
    memset(sa, 0, sizeof *sa);
    sa->sin_family = AF_INET;
    sa->sin_port = htons((uint16_t)port);
    return inet_pton(AF_INET, "127.0.0.1", &sa->sin_addr) == 1 ? 0 : -1;
}

static void note_port(int fd, struct dnsq_result *r)
{
    struct sockaddr_in me;
    socklen_t sl = sizeof me;
    if (getsockname(fd, (struct sockaddr *)&me, &sl) == 0)
        r->local_port = ntohs(me.sin_port);
}

/* A UDP socket connected to 127.0.0.1:port, its source port noted in r;
 * -1 on error. */
static int udp_open(int port, struct dnsq_result *r)
{
    struct sockaddr_in sa;
    int fd = socket(AF_INET, SOCK_DGRAM, 0);

    if (fd < 0 || loopback(port, &sa) != 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    note_port(fd, r);
    return fd;
}

/* Waits until deadline for the reply to q on fd (other datagrams are
 * passed over); returns its length, 0 on timeout, -1 on error. */
static long udp_reply(int fd, const uint8_t *q, size_t qlen, uint8_t *m, long long deadline)
{
    for (;;) {
        struct pollfd pfd = {fd, POLLIN, 0};
        int left = remaining(deadline), pr;
        ssize_t n;
        if (left == 0)
            return 0;
        pr = poll(&pfd, 1, left);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr <= 0)
            return 0;
        n = recv(fd, m, MSG_MAX, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1; /* ECONNREFUSED: nothing listens on the port */
        }
        if (matches(m, (size_t)n, q, qlen))
            return n;
    }
}

/* One UDP exchange; returns the reply length, 0 on timeout, -1 on error. */
static long udp_exchange(int port, const uint8_t *q, size_t qlen, uint8_t *m, long long deadline,
                         struct dnsq_result *r)
{
    int fd = udp_open(port, r);
    long got;

    if (fd < 0)
        return -1;
    if (send(fd, q, qlen, 0) != (ssize_t)qlen) {
        close(fd);
        return -1;
    }
    got = udp_reply(fd, q, qlen, m, deadline);
    close(fd);
    return got;
}

/* Waits for fd to be ready for events; 1 ready, 0 timeout, -1 error. */
static int wait_fd(int fd, short events, long long deadline)
{
    for (;;) {
        struct pollfd pfd = {fd, events, 0};
        int left = remaining(deadline), pr;
        if (left == 0)
            return 0;
        pr = poll(&pfd, 1, left);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr < 0)
            return -1;
        return pr > 0 ? 1 : 0;
    }
}

/* Reads exactly n octets; 1 done, 0 timeout or EOF, -1 error. */
static int read_full(int fd, uint8_t *p, size_t n, long long deadline)
{
    size_t got = 0;

    while (got < n) {
        ssize_t k;
        int w = wait_fd(fd, POLLIN, deadline);
        if (w <= 0)
            return w;
        k = read(fd, p + got, n - got);
        if (k < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (k < 0)
            return -1;
        if (k == 0)
            return 0;
        got += (size_t)k;
    }
    return 1;
}

/* One TCP exchange (RFC 1035 4.2.2 length prefix); as udp_exchange. */
static long tcp_exchange(int port, const uint8_t *q, size_t qlen, uint8_t *m, long long deadline,
                         struct dnsq_result *r)
{
    struct sockaddr_in sa;
    uint8_t out[2 + 512], lenb[2];
    int fd = socket(AF_INET, SOCK_STREAM, 0), err = 0, w;
    socklen_t el = sizeof err;
    size_t sent = 0;
    long result = -1;

    if (fd < 0 || qlen > sizeof out - 2 || loopback(port, &sa) != 0)
        goto done;
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0 && errno != EINPROGRESS)
        goto done;
    w = wait_fd(fd, POLLOUT, deadline);
    if (w == 0)
        result = 0;
    if (w <= 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) != 0 || err != 0)
        goto done;
    note_port(fd, r);
    put16(out, (unsigned)qlen);
    memcpy(out + 2, q, qlen);
    while (sent < qlen + 2) {
        ssize_t k;
        w = wait_fd(fd, POLLOUT, deadline);
        if (w <= 0) {
            result = w;
            goto done;
        }
        k = write(fd, out + sent, qlen + 2 - sent);
        if (k < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (k <= 0)
            goto done;
        sent += (size_t)k;
    }
    /* Replies to other queries cannot come on this connection: it carries one. */
    w = read_full(fd, lenb, 2, deadline);
    if (w <= 0) {
        result = w;
        goto done;
    }
    w = read_full(fd, m, get16(lenb), deadline);
    if (w <= 0) {
        result = w;
        goto done;
    }
    result = matches(m, get16(lenb), q, qlen) ? (long)get16(lenb) : -1;
done:
    if (fd >= 0)
        close(fd);
    return result;
}

/* Clears r and builds the query for it, with an ID of its own. */
static int start_query(const char *qname, uint16_t qtype, unsigned flags, struct dnsq_result *r,
                       uint8_t *q, size_t cap, size_t *qlen)
{
    uint16_t id =
        (uint16_t)(atomic_fetch_add(&next_id, 1) * 7919u + (unsigned)getpid() + (unsigned)now_ms());

    memset(r, 0, sizeof *r);
    r->rcode = -1;
    r->ede_code = -1;
    return build_query(qname, qtype, flags, id, q, cap, qlen);
}

/* The outcome of an exchange (n as udp_exchange returns it) into r:
 * 0 for a reply read or a timeout (r->timed_out), -1 otherwise. */
static int read_reply(long n, const uint8_t *m, struct dnsq_result *r)
{
    if (n == 0) {
        r->timed_out = 1;
        return 0;
    }
    if (n < 0 || walk_reply(m, (size_t)n, r) != 0 || sections_text(m, (size_t)n, r) != 0)
        return -1;
    return 0;
}

int dnsq_query(int port, const char *qname_presentation, uint16_t qtype, int use_tcp, int use_edns,
               int timeout_ms, struct dnsq_result *r)
{
    return dnsq_query_ex(port, qname_presentation, qtype,
                         (use_tcp ? DNSQ_F_TCP : 0u) | (use_edns ? 0u : DNSQ_F_NOEDNS), timeout_ms,
                         r);
}

int dnsq_query_ex(int port, const char *qname_presentation, uint16_t qtype, unsigned flags,
                  int timeout_ms, struct dnsq_result *r)
{
    int use_tcp = (flags & DNSQ_F_TCP) != 0;
    uint8_t q[512], *m;
    size_t qlen;
    long long deadline = now_ms() + timeout_ms;
    long n;

    if (start_query(qname_presentation, qtype, flags, r, q, sizeof q, &qlen) != 0)
        return -1;
    m = malloc(MSG_MAX);
    if (!m)
        return -1;
    r->used_tcp = use_tcp != 0;
    n = use_tcp ? tcp_exchange(port, q, qlen, m, deadline, r)
                : udp_exchange(port, q, qlen, m, deadline, r);
    if (n > 0 && !use_tcp && (m[2] & 0x02)) {
        /* Truncated: the one retry, over TCP, within the same deadline. */
        r->used_tcp = 1;
        n = tcp_exchange(port, q, qlen, m, deadline, r);
    }
    n = read_reply(n, m, r);
    free(m);
    return (int)n;
}

int dnsq_burst(int port, const char *qname_presentation, uint16_t qtype, unsigned flags, int copies,
               int gap_us, int timeout_ms, struct dnsq_result *results)
{
    uint8_t q[DNSQ_BURST_MAX][512], *m;
    size_t qlen[DNSQ_BURST_MAX];
    int fd[DNSQ_BURST_MAX], i, got = 0, err = 0;
    struct timespec gap = {0, (long)gap_us * 1000};
    long long deadline;

    if (copies < 1 || copies > DNSQ_BURST_MAX || (flags & DNSQ_F_TCP) || !(m = malloc(MSG_MAX)))
        return -1;
    for (i = 0; i < copies; i++) {
        fd[i] = -1;
        if (start_query(qname_presentation, qtype, flags, &results[i], q[i], sizeof q[i], &qlen[i])
                != 0
            || (fd[i] = udp_open(port, &results[i])) < 0
            || send(fd[i], q[i], qlen[i], 0) != (ssize_t)qlen[i]) {
            err = 1;
            copies = i + 1;
            break;
        }
        if (i + 1 < copies)
            nanosleep(&gap, NULL);
    }
    deadline = now_ms() + timeout_ms;
    for (i = 0; i < copies; i++) {
        long n = err || fd[i] < 0 ? -1 : udp_reply(fd[i], q[i], qlen[i], m, deadline);
        if (read_reply(n, m, &results[i]) != 0)
            err = 1;
        else if (!results[i].timed_out)
            got++;
        if (fd[i] >= 0)
            close(fd[i]);
    }
    free(m);
    return err ? -1 : got;
}

const char *dnsq_rcode_name(int rcode)
{
    static const char *const names[] = {"NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN",
                                        "NOTIMPL", "REFUSED", "YXDOMAIN", "YXRRSET",
                                        "NXRRSET", "NOTAUTH", "NOTZONE"};
    if (rcode < 0)
        return "NONE";
    if ((size_t)rcode < sizeof names / sizeof names[0])
        return names[rcode];
    return "RCODE?";
}

/* Splits one answer line into owner, type and rdata (after TTL and class). */
static int split_rr(const char *line, size_t len, const char **owner, size_t *olen,
                    const char **type, size_t *tlen, const char **rdata, size_t *rlen)
{
    const char *p = line, *end = line + len, *f[4];
    size_t fl[4];
    int i;

    for (i = 0; i < 4; i++) {
        while (p < end && *p == ' ')
            p++;
        f[i] = p;
        while (p < end && *p != ' ')
            p++;
        fl[i] = (size_t)(p - f[i]);
        if (fl[i] == 0)
            return -1;
    }
    while (p < end && *p == ' ')
        p++;
    *owner = f[0];
    *olen = fl[0];
    *type = f[3];
    *tlen = fl[3];
    *rdata = p;
    *rlen = (size_t)(end - p);
    return 0;
}

static int same_owner(const char *a, size_t al, const char *b)
{
    size_t bl = strlen(b);
    if (al > 0 && a[al - 1] == '.')
        al--;
    if (bl > 0 && b[bl - 1] == '.')
        bl--;
    return al == bl && strncasecmp(a, b, al) == 0;
}

int dnsq_section_has(const char *section, const char *owner, const char *type, const char *rdata)
{
    const char *line = section;

    while (*line) {
        const char *nl = strchr(line, '\n'), *o, *t, *d;
        size_t len = nl ? (size_t)(nl - line) : strlen(line), ol, tl, dl;
        if (split_rr(line, len, &o, &ol, &t, &tl, &d, &dl) == 0 && same_owner(o, ol, owner)
            && tl == strlen(type) && memcmp(t, type, tl) == 0
            && (!rdata || (dl == strlen(rdata) && memcmp(d, rdata, dl) == 0)))
            return 1;
        line += len + (nl ? 1 : 0);
    }
    return 0;
}

int dnsq_answer_has(const struct dnsq_result *r, const char *owner, const char *type,
                    const char *rdata)
{
    return dnsq_section_has(r->answer, owner, type, rdata);
}

int dnsq_section_count(const char *section, const char *type)
{
    const char *line = section;
    int c = 0;

    while (*line) {
        const char *nl = strchr(line, '\n'), *o, *t, *d;
        size_t len = nl ? (size_t)(nl - line) : strlen(line), ol, tl, dl;
        if (split_rr(line, len, &o, &ol, &t, &tl, &d, &dl) == 0 && tl == strlen(type)
            && memcmp(t, type, tl) == 0)
            c++;
        line += len + (nl ? 1 : 0);
    }
    return c;
}

void dnsq_section_summary(const char *section, char *out, size_t cap)
{
    const char *line = section;
    size_t n = 0;

    if (cap == 0)
        return;
    out[0] = '\0';
    while (*line) {
        const char *nl = strchr(line, '\n'), *o, *t, *d;
        size_t len = nl ? (size_t)(nl - line) : strlen(line), ol, tl, dl;
        if (split_rr(line, len, &o, &ol, &t, &tl, &d, &dl) == 0) {
            int w = snprintf(out + n, cap - n, "%s%.*s %.*s %.*s", n ? " | " : "", (int)ol, o,
                             (int)tl, t, (int)dl, d);
            if (w < 0 || (size_t)w >= cap - n)
                return;
            n += (size_t)w;
        }
        line += len + (nl ? 1 : 0);
    }
}

void dnsq_answer_summary(const struct dnsq_result *r, char *out, size_t cap)
{
    dnsq_section_summary(r->answer, out, cap);
}
