/**
 * \file
 * `idnguard tap`: dnstap in, the module's query-log lines out.
 *
 *   idnguard tap (-u SOCKET | -r FILE) [--conf FILE] [--format=text|json]
 *                [-w OUTFILE] [--stats-file FILE] [--stats-interval SECONDS]
 *                [--wait SECONDS]
 *
 * A resolver (Unbound, BIND, Knot Resolver, dnsdist, PowerDNS) streams a
 * dnstap message for each client query and response over a Frame Streams
 * socket; this reads them (tap/: the framing, the protobuf, the DNS
 * message), judges each query name with the settings file's policy (core/,
 * conf/: the module's own code) and writes one line per client query in
 * the module's format (core/idng_log.h), through the module's buffered log
 * file (core/idng_out.h).
 *
 * One thread reads and decodes; the log file's writer thread writes.  A
 * CLIENT_QUERY waits in a bounded table (TAP_PENDING) for its
 * CLIENT_RESPONSE, matched by transport, client address and port, DNS id
 * and question; the response writes the line, with the time between the
 * two.  A query whose response does not come within --wait seconds (or
 * when the table is full, the oldest) gets its line without an rcode.  A
 * response whose query was not seen (the resolver sends no queries, or
 * the tap started late) gets its line alone.
 *
 * Nothing the producer sends can make memory grow: each connection has
 * one buffer of one frame's size, connections are capped (TAP_CONNS), the
 * pending table is fixed, and lines the disk cannot take are dropped and
 * counted (idng_out.h).  The tap never slows the resolver: it reads as
 * fast as it can, whatever the output does.
 */
#include "tap.h"

#include "idng_conf.h"
#include "idng_dnsmsg.h"
#include "idng_dnstap.h"
#include "idng_fstrm.h"
#include "idng_log.h"
#include "idng_out.h"
#include "idng_policy.h"
#include "idng_stats.h"
#include "idnguard.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/** Concurrent writers (Unbound: one per dnstap thread; BIND: one). */
#define TAP_CONNS 64
/** Queries waiting for their responses. */
#define TAP_PENDING 16384
#define TAP_BUCKETS (2 * TAP_PENDING)
/** Largest data frame taken: two DNS messages of 64 KiB and the rest. */
#define TAP_FRAME_MAX IDNG_FSTRM_FRAME_DEFAULT
/** Each log buffer (two are kept). */
#define TAP_OUT_BUFFER (1024 * 1024)
/** Error messages printed before they are only counted. */
#define TAP_ERRORS_SHOWN 50

#define NS 1000000000LL

/* ---- counters ---- */

static struct {
    unsigned long long frames, messages, lines, unanswered, unmatched;
    unsigned long long malformed_frames, malformed_messages, malformed_dns, connections;
    unsigned long long refused_conns, other_messages;
    unsigned long long verdicts[IDNG_VERDICT_COUNT][IDNG_ACTION_COUNT];
} count;

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

/* ---- settings ---- */

struct tap {
    const char *sock, *file, *out_path;
    struct idng_conf conf;
    enum idng_logfmt fmt;
    unsigned wait_s;
    const char *stats_file; /* --stats-file, else the settings' */
    unsigned stats_interval;
    struct idng_logfile *out;
    long long stream_ns;    /* the clock pending queries expire by */
    long long next_stats_ns;
    unsigned errors_shown;
};

__attribute__((format(printf, 2, 3))) static void report(struct tap *t, const char *fmt, ...)
{
    va_list ap;

    if (t->errors_shown == TAP_ERRORS_SHOWN)
        fprintf(stderr, "idnguard tap: further errors are only counted\n");
    if (t->errors_shown++ >= TAP_ERRORS_SHOWN)
        return;
    va_start(ap, fmt);
    fputs("idnguard tap: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static long long wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * NS + ts.tv_nsec;
}

/* ---- queries waiting for their responses ---- */

/* What matches a response to its query. */
struct key {
    uint8_t proto, alen;
    uint8_t addr[16];
    uint16_t port, id, qtype, qclass;
    uint8_t qlen;
    uint8_t qname[255];
};

struct pending {
    struct key k;
    uint32_t hash;
    int32_t next; /* in its bucket's chain; -1 ends it */
    int live;
    long long t_ns;   /* the query's time (dnstap) */
    long long expire; /* stream clock */
};

static struct pending ring[TAP_PENDING];
static unsigned ring_head, ring_count;
static int32_t buckets[TAP_BUCKETS];

static uint32_t key_hash(const struct key *k)
{
    /* FNV-1a over the fields that differ between queries. */
    uint32_t h = 2166136261u;
    const uint8_t *p;
    size_t i;

#define MIX(b) (h = (h ^ (uint8_t)(b)) * 16777619u)
    MIX(k->proto);
    MIX(k->port);
    MIX(k->port >> 8);
    MIX(k->id);
    MIX(k->id >> 8);
    MIX(k->qtype);
    for (p = k->addr, i = 0; i < k->alen; i++)
        MIX(p[i]);
    for (i = 0; i < k->qlen; i++)
        MIX(k->qname[i]);
#undef MIX
    return h;
}

static int key_eq(const struct key *a, const struct key *b)
{
    return a->proto == b->proto && a->alen == b->alen && a->port == b->port && a->id == b->id
           && a->qtype == b->qtype && a->qclass == b->qclass && a->qlen == b->qlen
           && memcmp(a->addr, b->addr, a->alen) == 0 && memcmp(a->qname, b->qname, a->qlen) == 0;
}

static void unlink_pending(int32_t idx)
{
    int32_t *p = &buckets[ring[idx].hash % TAP_BUCKETS];

    while (*p != idx && *p >= 0)
        p = &ring[*p].next;
    if (*p == idx)
        *p = ring[idx].next;
    ring[idx].live = 0;
}

static struct pending *find_pending(const struct key *k, uint32_t hash)
{
    int32_t i;

    for (i = buckets[hash % TAP_BUCKETS]; i >= 0; i = ring[i].next)
        if (ring[i].hash == hash && key_eq(&ring[i].k, k))
            return &ring[i];
    return NULL;
}

/* ---- lines ---- */

static const char *transport_name(const idng_dnstap *d)
{
    if (!(d->present & IDNG_DT_HAS_PROTOCOL))
        return NULL;
    switch (d->protocol) {
    case IDNG_DT_UDP:
        return "udp";
    case IDNG_DT_TCP:
        return "tcp";
    case IDNG_DT_DOT:
        return "tls";
    case IDNG_DT_DOH:
        return "https";
    case IDNG_DT_DNSCRYPT_UDP:
        return "dnscrypt-udp";
    case IDNG_DT_DNSCRYPT_TCP:
        return "dnscrypt-tcp";
    case IDNG_DT_DOQ:
        return "quic";
    default:
        return NULL;
    }
}

/* What one line says; the parts that come from the query or the response. */
struct seen {
    const struct key *k;
    const uint8_t *qname; /* as sent (may be malformed); NULL: none */
    size_t qname_len;
    int has_question;
    const char *transport;
    int rcode; /* -2: no response seen */
    int ede;
    long long t_ns; /* the query's time; 0 unknown */
    long long elapsed_ns; /* < 0 unknown */
};

static void write_line(struct tap *t, const struct seen *s)
{
    struct idng_verdict v;
    struct idng_logrec r;
    char line[IDNG_LOG_LINE_MAX], client[IDNG_LOG_CLIENT_MAX];
    size_t n;

    idng_policy_judge(&t->conf.policy, s->qname ? s->qname : (const uint8_t *)"", s->qname_len,
                      &v);
    {
        unsigned row = idng_verdict_row(&v);
        if (row < IDNG_VERDICT_COUNT && (unsigned)v.action < IDNG_ACTION_COUNT)
            count.verdicts[row][v.action]++;
    }
    if (!idng_conf_logs(&t->conf, &v))
        return;
    memset(&r, 0, sizeof r);
    r.time_sec = s->t_ns / NS;
    r.time_usec = (long)((s->t_ns % NS) / 1000);
    r.client = s->k->alen ? idng_log_client(s->k->addr, s->k->alen, t->conf.anonymize_clients,
                                            client, sizeof client)
                          : NULL;
    r.port = s->k->port;
    r.qname = s->qname;
    r.qname_len = s->qname_len;
    r.qtype = s->k->qtype;
    r.qclass = s->k->qclass;
    r.rcode = s->rcode;
    idng_logrec_verdict(&r, &v, t->conf.policy.mode);
    r.path = NULL;
    r.ede = s->ede;
    r.transport = s->transport;
    if (s->elapsed_ns >= 0) {
        r.has_elapsed = 1;
        r.elapsed_us = s->elapsed_ns / 1000;
    }
    n = idng_log_format(&r, t->fmt, 1, line, sizeof line);
    count.lines++;
    idng_logfile_write(t->out, line, n); /* a drop is counted there */
}

/* The line of a query that waited in vain: no rcode. */
static void expire_one(struct tap *t, struct pending *p)
{
    struct seen s = {0};

    s.k = &p->k;
    s.qname = p->k.qname;
    s.qname_len = p->k.qlen;
    s.has_question = 1;
    s.transport = NULL;
    s.rcode = -2;
    s.ede = -1;
    s.t_ns = p->t_ns;
    s.elapsed_ns = -1;
    count.unanswered++;
    write_line(t, &s);
}

/* Lines for the queries whose wait is over (all of them with all set). */
static void expire(struct tap *t, int all)
{
    while (ring_count > 0) {
        struct pending *p = &ring[ring_head];
        if (p->live) {
            if (!all && p->expire > t->stream_ns)
                break;
            unlink_pending((int32_t)ring_head);
            expire_one(t, p);
        }
        ring_head = (ring_head + 1) % TAP_PENDING;
        ring_count--;
    }
}

/* The proto field of a key is the transport's own number (0 unknown). */
static int make_key(const idng_dnstap *d, const idng_dnsmsg *m, struct key *k)
{
    memset(k, 0, sizeof *k);
    k->proto = (d->present & IDNG_DT_HAS_PROTOCOL) ? (uint8_t)d->protocol : 0;
    if (d->present & IDNG_DT_HAS_QADDR) {
        k->alen = (uint8_t)d->qaddr.len;
        memcpy(k->addr, d->qaddr.p, d->qaddr.len);
    }
    k->port = (d->present & IDNG_DT_HAS_QPORT) ? (uint16_t)d->qport : 0;
    k->id = m->id;
    if (!m->has_question)
        return 0;
    k->qtype = m->qtype;
    k->qclass = m->qclass;
    k->qlen = (uint8_t)(m->qname_len > 255 ? 255 : m->qname_len);
    memcpy(k->qname, m->qname, k->qlen);
    return 1;
}

static long long time_of(uint64_t sec, uint32_t nsec)
{
    if (sec > (uint64_t)(INT64_MAX / NS - 1))
        return 0;
    return (long long)sec * NS + (nsec < NS ? nsec : 0);
}

static void on_query(struct tap *t, const idng_dnstap *d, const idng_dnsmsg *m)
{
    struct pending *p;
    struct key k;
    uint32_t h;
    long long qt = (d->present & IDNG_DT_HAS_QTIME_SEC) ? time_of(d->qtime_sec, d->qtime_nsec) : 0;

    if (!make_key(d, m, &k))
        return; /* no question: nothing to match its response by; the response says it */
    if (t->file && qt > t->stream_ns)
        t->stream_ns = qt;
    if (ring_count == TAP_PENDING) {
        /* Full: the oldest goes out now, as unanswered. */
        struct pending *o = &ring[ring_head];
        if (o->live) {
            unlink_pending((int32_t)ring_head);
            expire_one(t, o);
        }
        ring_head = (ring_head + 1) % TAP_PENDING;
        ring_count--;
    }
    h = key_hash(&k);
    p = &ring[(ring_head + ring_count) % TAP_PENDING];
    p->k = k;
    p->hash = h;
    p->live = 1;
    p->t_ns = qt ? qt : t->stream_ns;
    p->expire = t->stream_ns + (long long)t->wait_s * NS;
    p->next = buckets[h % TAP_BUCKETS];
    buckets[h % TAP_BUCKETS] = (int32_t)(p - ring);
    ring_count++;
}

static void on_response(struct tap *t, const idng_dnstap *d, const idng_dnsmsg *m)
{
    struct seen s = {0};
    struct pending *p = NULL;
    struct key k;
    long long rt = (d->present & IDNG_DT_HAS_RTIME_SEC) ? time_of(d->rtime_sec, d->rtime_nsec) : 0;
    long long qt = (d->present & IDNG_DT_HAS_QTIME_SEC) ? time_of(d->qtime_sec, d->qtime_nsec) : 0;

    if (t->file && rt > t->stream_ns)
        t->stream_ns = rt;
    s.has_question = make_key(d, m, &k);
    if (s.has_question)
        p = find_pending(&k, key_hash(&k));
    s.k = &k;
    s.qname = m->has_question ? m->qname : NULL;
    s.qname_len = m->has_question ? m->qname_len : 0;
    s.transport = transport_name(d);
    s.rcode = m->rcode;
    s.ede = m->has_ede ? m->ede_code : -1;
    s.elapsed_ns = -1;
    if (p) {
        qt = p->t_ns;
        unlink_pending((int32_t)(p - ring));
    } else {
        count.unmatched++;
    }
    s.t_ns = qt ? qt : rt;
    if (qt && rt >= qt)
        s.elapsed_ns = rt - qt;
    write_line(t, &s);
}

/* One data frame: a Dnstap message. */
static void on_data(struct tap *t, const char *src, const uint8_t *buf, size_t len)
{
    idng_dnstap d;
    idng_dnsmsg m;
    idng_tap_status st;
    int query;

    count.frames++;
    st = idng_dnstap_decode(buf, len, &d);
    if (st != IDNG_TAP_OK) {
        count.malformed_messages++;
        report(t, "%s: frame %llu: %s", src, count.frames, idng_tap_status_message(st));
        return;
    }
    count.messages++;
    if (!(d.present & IDNG_DT_HAS_MESSAGE)
        || (d.mtype != IDNG_DT_CLIENT_QUERY && d.mtype != IDNG_DT_CLIENT_RESPONSE)) {
        count.other_messages++;
        return;
    }
    query = d.mtype == IDNG_DT_CLIENT_QUERY;
    if (!(d.present & (query ? IDNG_DT_HAS_QMSG : IDNG_DT_HAS_RMSG))) {
        count.malformed_dns++;
        report(t, "%s: frame %llu: %s without its DNS message", src, count.frames,
               query ? "CLIENT_QUERY" : "CLIENT_RESPONSE");
        return;
    }
    st = query ? idng_dnsmsg_parse(d.qmsg.p, d.qmsg.len, &m)
               : idng_dnsmsg_parse(d.rmsg.p, d.rmsg.len, &m);
    if (st != IDNG_TAP_OK) {
        /* Counted and shown; a message whose question was read still gets
         * its line (the name is what the log is for). */
        count.malformed_dns++;
        report(t, "%s: frame %llu: DNS message: %s", src, count.frames,
               idng_tap_status_message(st));
        if (!m.has_question)
            return;
    }
    if (query)
        on_query(t, &d, &m);
    else
        on_response(t, &d, &m);
}

/* ---- streams ---- */

struct conn {
    int fd;
    idng_fstrm_conn fs;
    uint8_t *buf;
    size_t len;
    char name[32];
};

/*
 * Takes every whole frame at the start of c->buf.  Returns 0 to go on, 1
 * when the stream ended as it should, -1 when it is broken (counted and
 * shown).  Replies (ACCEPT, FINISH) go to c->fd when it is a socket.
 */
static int take_frames(struct tap *t, struct conn *c)
{
    size_t off = 0;
    int ret = 0;

    while (ret == 0) {
        idng_fstrm_frame f;
        idng_tap_status st = idng_fstrm_next(c->buf + off, c->len - off, TAP_FRAME_MAX, &f);
        uint32_t reply = 0;

        if (st != IDNG_TAP_OK) {
            count.malformed_frames++;
            report(t, "%s: %s", c->name, idng_tap_status_message(st));
            ret = -1;
            break;
        }
        if (f.kind == IDNG_FSTRM_NEED_MORE)
            break;
        st = idng_fstrm_conn_step(&c->fs, &f, &reply);
        if (st != IDNG_TAP_OK) {
            count.malformed_frames++;
            report(t, "%s: %s", c->name, idng_tap_status_message(st));
            ret = -1;
            break;
        }
        if (reply) {
            uint8_t out[IDNG_FSTRM_ENCODED_MAX];
            size_t outlen = sizeof out;
            const char *ct = reply == IDNG_FSTRM_ACCEPT ? IDNG_DNSTAP_CTYPE : NULL;
            if (idng_fstrm_encode_control(reply, (const uint8_t *)ct, ct ? strlen(ct) : 0, out,
                                          &outlen) != IDNG_TAP_OK
                || send(c->fd, out, outlen, MSG_NOSIGNAL | MSG_DONTWAIT) != (ssize_t)outlen) {
                /* A writer that closes right after STOP (Unbound at
                 * shutdown) does not wait for FINISH: that is no error. */
                if (reply != IDNG_FSTRM_FINISH) {
                    report(t, "%s: cannot answer the handshake: %s", c->name, strerror(errno));
                    ret = -1;
                    break;
                }
            }
        }
        if (f.kind == IDNG_FSTRM_DATA)
            on_data(t, c->name, f.data, f.data_len);
        off += f.consumed;
        if (c->fs.state == IDNG_FSTRM_DONE)
            ret = 1;
    }
    memmove(c->buf, c->buf + off, c->len - off);
    c->len -= off;
    return ret;
}

/* Room for one whole frame: its length words and TAP_FRAME_MAX octets. */
#define CONN_BUF (TAP_FRAME_MAX + 16)

static int read_file(struct tap *t)
{
    struct conn c = {0};
    int fd = strcmp(t->file, "-") == 0 ? 0 : open(t->file, O_RDONLY | O_CLOEXEC);
    int ret = 0, started = 0;

    if (fd < 0) {
        fprintf(stderr, "idnguard tap: %s: %s\n", t->file, strerror(errno));
        return 2;
    }
    c.fd = fd;
    c.buf = malloc(CONN_BUF);
    if (!c.buf) {
        fprintf(stderr, "idnguard tap: out of memory\n");
        return 2;
    }
    snprintf(c.name, sizeof c.name, "%s", fd == 0 ? "stdin" : "file");
    idng_fstrm_conn_init(&c.fs, IDNG_FSTRM_UNIDIRECTIONAL);
    for (;;) {
        ssize_t n = read(fd, c.buf + c.len, CONN_BUF - c.len);
        if (n < 0 && errno == EINTR && !stop_requested)
            continue;
        if (n < 0) {
            fprintf(stderr, "idnguard tap: %s: %s\n", t->file, strerror(errno));
            ret = 2;
            break;
        }
        if (n == 0) {
            if (c.len > 0) {
                count.malformed_frames++;
                report(t, "%s: %s: ends inside a frame", c.name, t->file);
                ret = ret ? ret : 1;
            } else if (c.fs.state != IDNG_FSTRM_DONE && started) {
                report(t, "%s: %s: no STOP frame (the writer did not finish)", c.name, t->file);
            }
            break;
        }
        c.len += (size_t)n;
        ret = take_frames(t, &c);
        if (c.fs.state != IDNG_FSTRM_WAIT_START)
            started = 1;
        if (!started && ret < 0) {
            fprintf(stderr, "idnguard tap: %s: not a Frame Streams file of dnstap\n", t->file);
            ret = 2;
            break;
        }
        if (ret != 0 || stop_requested)
            break;
    }
    if (ret == 1)
        ret = 0;
    if (ret == -1)
        ret = 1;
    if (fd != 0)
        close(fd);
    free(c.buf);
    return ret;
}

static int listen_on(const char *path)
{
    struct sockaddr_un sa;
    struct stat st;
    int fd;

    if (strlen(path) >= sizeof sa.sun_path) {
        fprintf(stderr, "idnguard tap: %s: socket path too long (at most %zu octets)\n", path,
                sizeof sa.sun_path - 1);
        return -1;
    }
    if (lstat(path, &st) == 0) {
        if (!S_ISSOCK(st.st_mode)) {
            fprintf(stderr, "idnguard tap: %s: exists and is not a socket\n", path);
            return -1;
        }
        unlink(path); /* a stale socket of an earlier run */
    }
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    memcpy(sa.sun_path, path, strlen(path) + 1);
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 16) != 0) {
        fprintf(stderr, "idnguard tap: %s: %s\n", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    /* The resolver's user must be able to connect; nobody else should
     * (a writer could put lines of its choosing into the log). */
    if (chmod(path, 0660) != 0)
        fprintf(stderr, "idnguard tap: %s: chmod: %s\n", path, strerror(errno));
    return fd;
}

static void close_conn(struct conn *c)
{
    close(c->fd);
    free(c->buf);
    c->fd = -1;
    c->buf = NULL;
    c->len = 0;
}

static void write_stats(struct tap *t);

static int serve_socket(struct tap *t)
{
    static struct conn conns[TAP_CONNS];
    struct pollfd pfd[TAP_CONNS + 1];
    int lfd = listen_on(t->sock), i, serial = 0;

    if (lfd < 0)
        return 2;
    for (i = 0; i < TAP_CONNS; i++)
        conns[i].fd = -1;
    fprintf(stderr, "idnguard tap: listening on %s\n", t->sock);
    while (!stop_requested) {
        int n = 0, r;
        long long now;

        pfd[n].fd = lfd;
        pfd[n++].events = POLLIN;
        for (i = 0; i < TAP_CONNS; i++) {
            pfd[n].fd = conns[i].fd;
            pfd[n++].events = POLLIN;
        }
        r = poll(pfd, (nfds_t)n, 200);
        if (r < 0 && errno != EINTR) {
            fprintf(stderr, "idnguard tap: poll: %s\n", strerror(errno));
            break;
        }
        if (r > 0 && (pfd[0].revents & POLLIN)) {
            int cfd;
            while ((cfd = accept(lfd, NULL, NULL)) >= 0) {
                fcntl(cfd, F_SETFD, FD_CLOEXEC);
                fcntl(cfd, F_SETFL, O_NONBLOCK);
                for (i = 0; i < TAP_CONNS && conns[i].fd >= 0; i++)
                    ;
                if (i == TAP_CONNS || !(conns[i].buf = malloc(CONN_BUF))) {
                    count.refused_conns++;
                    report(t, "%s: connection refused: %d writers already", t->sock, TAP_CONNS);
                    close(cfd);
                    continue;
                }
                conns[i].fd = cfd;
                conns[i].len = 0;
                snprintf(conns[i].name, sizeof conns[i].name, "connection %d", ++serial);
                idng_fstrm_conn_init(&conns[i].fs, IDNG_FSTRM_BIDIRECTIONAL);
                count.connections++;
            }
        }
        for (i = 0; r > 0 && i < TAP_CONNS; i++) {
            struct conn *c = &conns[i];
            ssize_t got;
            if (c->fd < 0 || !(pfd[i + 1].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            got = read(c->fd, c->buf + c->len, CONN_BUF - c->len);
            if (got < 0 && (errno == EAGAIN || errno == EINTR))
                continue;
            if (got <= 0) {
                /* The writer went away (a restart: it comes back). */
                if (c->len > 0) {
                    count.malformed_frames++;
                    report(t, "%s: closed inside a frame", c->name);
                }
                close_conn(c);
                continue;
            }
            c->len += (size_t)got;
            if (take_frames(t, c) != 0)
                close_conn(c);
        }
        now = wall_ns();
        t->stream_ns = now;
        expire(t, 0);
        if (t->stats_file && t->stats_interval && now >= t->next_stats_ns) {
            write_stats(t);
            t->next_stats_ns = now + (long long)t->stats_interval * NS;
        }
    }
    for (i = 0; i < TAP_CONNS; i++)
        if (conns[i].fd >= 0)
            close_conn(&conns[i]);
    close(lfd);
    unlink(t->sock);
    return 0;
}

/* ---- counters outward ---- */

static void write_stats(struct tap *t)
{
    static char text[64 * 1024];
    char err[4400];
    size_t len = 0;
    unsigned r, a;
    int n;

#define PUT(...)                                                                             \
    do {                                                                                     \
        n = snprintf(text + len, sizeof text - len, __VA_ARGS__);                            \
        if (n < 0 || (size_t)n >= sizeof text - len)                                         \
            goto full;                                                                       \
        len += (size_t)n;                                                                    \
    } while (0)
    PUT("# HELP idnguard_tap_lines_total Client queries seen by idnguard tap, by the verdict "
        "class and the action the settings give it.\n# TYPE idnguard_tap_lines_total counter\n");
    for (r = 0; r < IDNG_VERDICT_COUNT; r++)
        for (a = 0; a < IDNG_ACTION_COUNT; a++)
            if (count.verdicts[r][a])
                PUT("idnguard_tap_lines_total{class=\"%s\",action=\"%s\"} %llu\n",
                    idng_verdict_row_name(r), idng_action_name((enum idng_action)a),
                    count.verdicts[r][a]);
    {
        const struct {
            const char *name, *help;
            unsigned long long v;
        } rows[] = {
            {"frames", "Frame Streams data frames read.", count.frames},
            {"messages", "dnstap messages decoded.", count.messages},
            {"unanswered", "Client queries whose response did not come within --wait.",
             count.unanswered},
            {"unmatched", "Client responses whose query was not seen.", count.unmatched},
            {"dropped", "Lines dropped because the output could not keep up.",
             idng_logfile_dropped(t->out)},
            {"write_errors", "Lines lost to output write errors.", idng_logfile_errors(t->out)},
            {"malformed_frames", "Frame Streams frames or handshakes refused.",
             count.malformed_frames},
            {"malformed_messages", "Data frames that are not a valid dnstap message.",
             count.malformed_messages},
            {"malformed_dns", "dnstap messages whose DNS message is malformed.",
             count.malformed_dns},
            {"connections", "Writer connections accepted.", count.connections},
        };
        size_t i;
        for (i = 0; i < sizeof rows / sizeof rows[0]; i++)
            PUT("# HELP idnguard_tap_%s_total %s\n# TYPE idnguard_tap_%s_total counter\n"
                "idnguard_tap_%s_total %llu\n",
                rows[i].name, rows[i].help, rows[i].name, rows[i].name, rows[i].v);
    }
    PUT("# HELP idnguard_tap_info idnguard tap's version and settings.\n"
        "# TYPE idnguard_tap_info gauge\n"
        "idnguard_tap_info{version=\"%s\",unicode=\"%s\",mode=\"%s\"} 1\n",
        IDNG_VERSION, IDNG_UNICODE_VERSION, idng_mode_name(t->conf.policy.mode));
#undef PUT
    if (idng_file_replace(t->stats_file, text, len, err, sizeof err) != 0)
        report(t, "stats-file: %s", err);
    return;
full:
    report(t, "stats-file: too much to write");
}

static void summary(struct tap *t)
{
    fprintf(stderr,
            "idnguard tap: frames=%llu messages=%llu lines=%llu unanswered=%llu unmatched=%llu "
            "dropped=%llu malformed_frames=%llu malformed_messages=%llu malformed_dns=%llu "
            "connections=%llu\n",
            count.frames, count.messages, count.lines, count.unanswered, count.unmatched,
            idng_logfile_dropped(t->out) + idng_logfile_errors(t->out), count.malformed_frames,
            count.malformed_messages, count.malformed_dns, count.connections);
}

/* ---- the command ---- */

static void usage(FILE *f)
{
    fputs("usage: idnguard tap (-u SOCKET | -r FILE) [OPTIONS]\n"
          "\n"
          "Reads dnstap (Frame Streams, content type protobuf:dnstap.Dnstap) and writes\n"
          "one query-log line per client query, in the idnguard module's format.\n"
          "\n"
          "  -u SOCKET              listen on this Unix socket for the resolver's dnstap\n"
          "                         (bidirectional Frame Streams); runs until SIGTERM/SIGINT\n"
          "  -r FILE                read a capture written by fstrm_capture ('-': stdin)\n"
          "  -w FILE                append the lines to FILE (rotation is followed);\n"
          "                         default: standard output\n"
          "  --conf FILE            the settings file (idnguard.conf(5)) whose policy judges\n"
          "                         the names and whose log-* settings shape the lines\n"
          "  --format=text|json     the line format (default: the settings' log-format)\n"
          "  --stats-file FILE      Prometheus counters, replaced every --stats-interval\n"
          "  --stats-interval SECS  (default: the settings' stats-interval)\n"
          "  --wait SECS            how long a query waits for its response (default 5)\n"
          "\n"
          "Exit status: 0 done; 1 malformed frames or messages were counted (-r); 2 the\n"
          "input cannot be read, is not Frame Streams, or a usage error.\n",
          f);
}

static int parse_uint(const char *opt, const char *v, unsigned max, unsigned *out)
{
    char *end;
    unsigned long n;

    errno = 0;
    n = strtoul(v, &end, 10);
    if (!v[0] || *end || errno || n > max || v[0] == '-') {
        fprintf(stderr, "idnguard tap: %s: '%s' is not a number from 0 to %u\n", opt, v, max);
        return -1;
    }
    *out = (unsigned)n;
    return 0;
}

int idng_tap_main(int argc, char **argv)
{
    struct tap t;
    const char *conf_path = NULL, *fmt = NULL;
    int i, rc, have_interval = 0;
    struct idng_logfile_opts o = {0};
    char err[8192];

    memset(&t, 0, sizeof t);
    t.wait_s = 5;
    for (i = 2; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        /* Options with a value: "-u X", "--conf X" or "--conf=X". */
        if (strncmp(a, "--", 2) == 0 && strchr(a, '=')) {
            v = strchr(a, '=') + 1;
        } else if (i + 1 < argc) {
            v = argv[i + 1];
        }
#define OPT(name) (strcmp(a, name) == 0 || (strncmp(a, name "=", sizeof name) == 0 && name[1] == '-'))
#define TAKE()                                                                               \
    do {                                                                                     \
        if (!v) {                                                                            \
            fprintf(stderr, "idnguard tap: %s needs a value\n", a);                          \
            return 2;                                                                        \
        }                                                                                    \
        if (!strchr(a, '='))                                                                 \
            i++;                                                                             \
    } while (0)
        if (OPT("-u")) {
            TAKE();
            t.sock = v;
        } else if (OPT("-r")) {
            TAKE();
            t.file = v;
        } else if (OPT("-w")) {
            TAKE();
            t.out_path = v;
        } else if (OPT("--conf")) {
            TAKE();
            conf_path = v;
        } else if (OPT("--format")) {
            TAKE();
            fmt = v;
        } else if (OPT("--stats-file")) {
            TAKE();
            t.stats_file = v;
        } else if (OPT("--stats-interval")) {
            TAKE();
            if (parse_uint(a, v, IDNG_CONF_STATS_MAX, &t.stats_interval) != 0)
                return 2;
            have_interval = 1;
        } else if (OPT("--wait")) {
            TAKE();
            if (parse_uint(a, v, 3600, &t.wait_s) != 0)
                return 2;
        } else {
            fprintf(stderr, "idnguard tap: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
#undef OPT
#undef TAKE
    }
    if (!t.sock == !t.file) {
        fprintf(stderr, "idnguard tap: give one of -u SOCKET and -r FILE\n");
        usage(stderr);
        return 2;
    }
    idng_conf_init(&t.conf);
    if (conf_path && idng_conf_load(&t.conf, conf_path, err, sizeof err) != 0) {
        fprintf(stderr, "%s", err);
        if (err[0] && err[strlen(err) - 1] != '\n')
            fputc('\n', stderr);
        return 2;
    }
    t.fmt = t.conf.log_format;
    if (fmt) {
        if (strcmp(fmt, "text") == 0)
            t.fmt = IDNG_LOGFMT_TEXT;
        else if (strcmp(fmt, "json") == 0)
            t.fmt = IDNG_LOGFMT_JSON;
        else {
            fprintf(stderr, "idnguard tap: --format: '%s' is neither text nor json\n", fmt);
            return 2;
        }
    }
    if (!t.stats_file)
        t.stats_file = t.conf.stats_file;
    if (!have_interval)
        t.stats_interval = t.conf.stats_interval;
    o.buffer = TAP_OUT_BUFFER;
    /* At a terminal a line shows at once; elsewhere the short timer. */
    o.flush_ms = !t.out_path && isatty(STDOUT_FILENO) ? 0 : IDNG_LOG_FLUSH_MS;
    t.out = t.out_path ? idng_logfile_open(t.out_path, &o, err, sizeof err)
                       : idng_logfile_fdopen(STDOUT_FILENO, &o, err, sizeof err);
    if (!t.out) {
        fprintf(stderr, "idnguard tap: %s\n", err);
        idng_conf_free(&t.conf);
        return 2;
    }
    {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        sa.sa_handler = SIG_IGN;
        sigaction(SIGPIPE, &sa, NULL);
    }
    for (i = 0; i < TAP_BUCKETS; i++)
        buckets[i] = -1;
    t.stream_ns = t.file ? 0 : wall_ns();
    t.next_stats_ns = t.stream_ns + (long long)t.stats_interval * NS;
    rc = t.file ? read_file(&t) : serve_socket(&t);
    expire(&t, 1);
    idng_logfile_flush(t.out); /* every line written: the counters are final */
    if (t.stats_file)
        write_stats(&t);
    summary(&t);
    idng_logfile_close(t.out);
    idng_conf_free(&t.conf);
    if (rc == 0 && t.file && (count.malformed_frames || count.malformed_messages))
        rc = 1;
    return rc;
}
