/**
 * \file
 * `idnguard tap`: dnstap in, the module's query-log lines out.
 *
 *   idnguard tap (-u SOCKET | -r FILE) [--conf FILE] [--format=text|json]
 *                [-w OUTFILE] [--stats-file FILE] [--stats-interval SECONDS]
 *                [--wait SECONDS]
 *
 * A resolver (Unbound, BIND, Knot Resolver, dnsdist; PowerDNS Recursor's
 * dnstap has no client messages) streams a dnstap message for each client
 * query and response over a Frame Streams socket; this reads them (tap/:
 * the framing, the protobuf, the DNS message), judges each query name with
 * the settings file's policy (core/, conf/: the module's own code) and
 * writes one line per client query in the module's format
 * (core/idng_log.h), through the module's buffered log file
 * (core/idng_out.h).
 *
 * One thread reads and decodes; the log file's writer thread writes.  A
 * CLIENT_QUERY waits in a bounded table (TAP_PENDING) for its
 * CLIENT_RESPONSE, matched by transport, client address and port, DNS id
 * and question; the response writes the line, with the time between the
 * two.  A query whose response does not come within --wait seconds (or
 * when the table is full, the oldest) gets its line without an rcode.  A
 * response whose query was not seen (the resolver sends no queries, or
 * the tap started late) gets its line alone.  Other message types, and
 * client messages sent without their DNS message, are counted only.
 *
 * Nothing the producer sends can make memory grow: each connection has
 * one buffer of one frame's size, connections are capped (TAP_CONNS), the
 * pending table is fixed, and lines the disk cannot take are dropped and
 * counted (idng_out.h).  The tap never slows the resolver: it reads as
 * fast as it can, whatever the output does.
 */
#include "tap.h"
#include "opts.h"

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
    unsigned long long closed_conns, other_messages;
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
    /* The clock pending queries expire by: with -r the latest message time
     * seen (the capture's own time), with -u CLOCK_MONOTONIC. */
    long long clock_ns;
    long long next_stats_ns;
    unsigned errors_shown;
    int said_bare[2]; /* [1]: a CLIENT_QUERY, [0]: a CLIENT_RESPONSE without its DNS message */
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

static long long mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
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

/*
 * The table's hash is keyed (SipHash-1-3, Aumasson and Bernstein's
 * construction with one compression and three finalization rounds) with a
 * secret drawn at start: the query names, ids and ports come from clients,
 * and an unkeyed hash would let one craft queries that all land in one
 * chain, making every lookup walk the whole table.
 */
static uint64_t sip_k0, sip_k1;

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND                                                                             \
    do {                                                                                     \
        v0 += v1;                                                                            \
        v1 = ROTL(v1, 13);                                                                   \
        v1 ^= v0;                                                                            \
        v0 = ROTL(v0, 32);                                                                   \
        v2 += v3;                                                                            \
        v3 = ROTL(v3, 16);                                                                   \
        v3 ^= v2;                                                                            \
        v0 += v3;                                                                            \
        v3 = ROTL(v3, 21);                                                                   \
        v3 ^= v0;                                                                            \
        v2 += v1;                                                                            \
        v1 = ROTL(v1, 17);                                                                   \
        v1 ^= v2;                                                                            \
        v2 = ROTL(v2, 32);                                                                   \
    } while (0)

static uint64_t siphash13(const uint8_t *in, size_t len)
{
    uint64_t v0 = sip_k0 ^ 0x736f6d6570736575ULL, v1 = sip_k1 ^ 0x646f72616e646f6dULL;
    uint64_t v2 = sip_k0 ^ 0x6c7967656e657261ULL, v3 = sip_k1 ^ 0x7465646279746573ULL;
    uint64_t m, b = (uint64_t)len << 56;
    size_t i, end = len - len % 8;
    int k;

    for (i = 0; i < end; i += 8) {
        for (m = 0, k = 7; k >= 0; k--)
            m = m << 8 | in[i + (size_t)k];
        v3 ^= m;
        SIPROUND;
        v0 ^= m;
    }
    for (k = 0; i + (size_t)k < len; k++)
        b |= (uint64_t)in[i + (size_t)k] << (8 * k);
    v3 ^= b;
    SIPROUND;
    v0 ^= b;
    v2 ^= 0xff;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}
#undef SIPROUND
#undef ROTL

static void seed_hash(void)
{
    uint64_t k[2] = {0, 0};
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

    if (fd < 0 || read(fd, k, sizeof k) != (ssize_t)sizeof k) {
        /* No randomness: the time and pid still differ between runs. */
        k[0] = (uint64_t)wall_ns();
        k[1] = (uint64_t)getpid() * 0x9E3779B97F4A7C15ULL;
    }
    if (fd >= 0)
        close(fd);
    sip_k0 = k[0];
    sip_k1 = k[1];
}

static uint32_t key_hash(const struct key *k)
{
    uint8_t b[sizeof *k];
    size_t n = 0;

    b[n++] = k->proto;
    b[n++] = k->alen;
    memcpy(b + n, k->addr, k->alen);
    n += k->alen;
    b[n++] = (uint8_t)(k->port >> 8);
    b[n++] = (uint8_t)k->port;
    b[n++] = (uint8_t)(k->id >> 8);
    b[n++] = (uint8_t)k->id;
    b[n++] = (uint8_t)(k->qtype >> 8);
    b[n++] = (uint8_t)k->qtype;
    b[n++] = (uint8_t)(k->qclass >> 8);
    b[n++] = (uint8_t)k->qclass;
    b[n++] = k->qlen;
    memcpy(b + n, k->qname, k->qlen);
    n += k->qlen;
    return (uint32_t)siphash13(b, n);
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

/* The transport of a key's proto (dnstap's SocketProtocol; 0 unknown). */
static const char *transport_name(unsigned proto)
{
    switch (proto) {
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
    s.transport = transport_name(p->k.proto);
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
            if (!all && p->expire > t->clock_ns)
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

/* A dnstap time in ns; 0 (unknown) when out of range: far enough below
 * INT64_MAX that adding a wait of an hour cannot overflow. */
#define TIME_MAX_SEC (INT64_MAX / NS - 7200)
static long long time_of(uint64_t sec, uint32_t nsec)
{
    if (sec > (uint64_t)TIME_MAX_SEC)
        return 0;
    return (long long)sec * NS + (nsec < NS ? nsec : 0);
}

/* With -r, the capture's clock moves with its messages, but never by more
 * than an hour at once: one message dated far in the future must not
 * expire every query that waits. */
static void advance_clock(struct tap *t, long long msg_ns)
{
    if (!t->file || msg_ns <= t->clock_ns)
        return;
    if (t->clock_ns == 0 || msg_ns - t->clock_ns <= 3600 * NS) {
        t->clock_ns = msg_ns;
        expire(t, 0); /* before this message is matched */
    }
}

static void on_query(struct tap *t, const idng_dnstap *d, const idng_dnsmsg *m)
{
    struct pending *p;
    struct key k;
    uint32_t h;
    long long qt = (d->present & IDNG_DT_HAS_QTIME_SEC) ? time_of(d->qtime_sec, d->qtime_nsec) : 0;

    if (!make_key(d, m, &k))
        return; /* no question: nothing to match its response by; the response says it */
    advance_clock(t, qt);
    h = key_hash(&k);
    if (find_pending(&k, h))
        return; /* the same query again (a retransmission): the first one waits */
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
    p = &ring[(ring_head + ring_count) % TAP_PENDING];
    p->k = k;
    p->hash = h;
    p->live = 1;
    p->t_ns = qt ? qt : wall_ns();
    p->expire = t->clock_ns + (long long)t->wait_s * NS;
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

    advance_clock(t, rt);
    if (make_key(d, m, &k))
        p = find_pending(&k, key_hash(&k));
    s.k = &k;
    s.qname = m->has_question ? m->qname : NULL;
    s.qname_len = m->has_question ? m->qname_len : 0;
    s.transport = transport_name(k.proto);
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
        /* No error: dnstap.proto makes the DNS message optional, and
         * producers leave it out by design (Knot Resolver without
         * client.log_queries or log_responses; PowerDNS Recursor's
         * newly-observed-domain stream, the name in query_zone alone).
         * Nothing to judge or to match by: not logged, said once. */
        count.other_messages++;
        if (!t->said_bare[query]) {
            t->said_bare[query] = 1;
            fprintf(stderr,
                    "idnguard tap: %s: %s messages come without their DNS message: they are "
                    "not logged (%s)\n",
                    src, query ? "CLIENT_QUERY" : "CLIENT_RESPONSE",
                    query ? "the responses still are, without ms=; Knot Resolver: set "
                            "client.log_queries"
                          : "their queries are, with rcode -; Knot Resolver: set "
                            "client.log_responses");
        }
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
    long long opened_ns, last_ns; /* CLOCK_MONOTONIC: accepted, last octet */
    char name[32];
};

/* A writer must finish the handshake within this, and may not stop inside
 * a frame for longer; an idle writer between frames may stay. */
#define TAP_HANDSHAKE_S 10
#define TAP_STALL_S 30
/* Connections accepted per poll round, so a flood of them cannot keep the
 * loop from the writers already there. */
#define TAP_ACCEPTS 8

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
            ssize_t sent = -1;
            errno = 0;
            if (idng_fstrm_encode_control(reply, (const uint8_t *)ct, ct ? strlen(ct) : 0, out,
                                          &outlen) == IDNG_TAP_OK)
                sent = send(c->fd, out, outlen, MSG_NOSIGNAL | MSG_DONTWAIT);
            /* A writer that closes right after STOP (Unbound at shutdown)
             * does not wait for FINISH: that is no error. */
            if (sent != (ssize_t)outlen && reply != IDNG_FSTRM_FINISH) {
                report(t, "%s: cannot answer the handshake: %s", c->name,
                       sent >= 0 ? "short write" : strerror(errno));
                ret = -1;
                break;
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
        if (c.fs.state == IDNG_FSTRM_IN_DATA || c.fs.state == IDNG_FSTRM_DONE
            || c.fs.data_frames > 0)
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

/* Is a reader listening at path (another tap)? */
static int in_use(const struct sockaddr_un *sa)
{
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), live;

    if (fd < 0)
        return 0;
    live = connect(fd, (const struct sockaddr *)sa, sizeof *sa) == 0;
    close(fd);
    return live;
}

/*
 * Creates the listening socket.  Its mode is 0660 from the start (umask
 * around bind, no chmod by path, which a swapped path could redirect): the
 * resolver's user must be able to connect, nobody else should, since a
 * writer can put lines of its choosing into the log.  A socket file left
 * by an earlier run is replaced; one that a reader still listens on is
 * not.  *ino gets the socket's inode, so that exit removes only its own.
 */
static int listen_on(const char *path, ino_t *ino)
{
    struct sockaddr_un sa;
    struct stat st;
    mode_t old;
    int fd, ok;

    if (strlen(path) >= sizeof sa.sun_path) {
        fprintf(stderr, "idnguard tap: %s: socket path too long (at most %zu octets)\n", path,
                sizeof sa.sun_path - 1);
        return -1;
    }
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    memcpy(sa.sun_path, path, strlen(path) + 1);
    if (lstat(path, &st) == 0) {
        if (!S_ISSOCK(st.st_mode)) {
            fprintf(stderr, "idnguard tap: %s: exists and is not a socket\n", path);
            return -1;
        }
        if (in_use(&sa)) {
            fprintf(stderr, "idnguard tap: %s: another reader listens there\n", path);
            return -1;
        }
        unlink(path); /* stale: left by an earlier run */
    }
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        fprintf(stderr, "idnguard tap: socket: %s\n", strerror(errno));
        return -1;
    }
    old = umask(0117);
    ok = bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
    umask(old);
    if (!ok || listen(fd, 16) != 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "idnguard tap: %s: %s\n", path, strerror(errno));
        close(fd);
        return -1;
    }
    *ino = lstat(path, &st) == 0 ? st.st_ino : 0;
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

#define IDNG_STR2(x) #x
#define IDNG_STR(x) IDNG_STR2(x)

static int timed_out(const struct conn *c, long long now)
{
    if (c->fs.state != IDNG_FSTRM_IN_DATA)
        return now - c->opened_ns > TAP_HANDSHAKE_S * NS;
    return c->len > 0 && now - c->last_ns > TAP_STALL_S * NS;
}

/*
 * A slot for a new writer.  When all are taken, one is closed for it: a
 * writer that has not finished its handshake, else the one silent the
 * longest (a resolver whose connection it was connects again; an
 * attacker cannot hold every slot against it).
 */
static int free_slot(struct tap *t, struct conn *conns)
{
    int i, pick = -1;

    for (i = 0; i < TAP_CONNS; i++) {
        if (conns[i].fd < 0)
            return i;
        if (pick < 0 || (conns[i].fs.state != IDNG_FSTRM_IN_DATA
                         && conns[pick].fs.state == IDNG_FSTRM_IN_DATA)
            || ((conns[i].fs.state != IDNG_FSTRM_IN_DATA)
                    == (conns[pick].fs.state != IDNG_FSTRM_IN_DATA)
                && conns[i].last_ns < conns[pick].last_ns))
            pick = i;
    }
    report(t, "%s: %d writers: %s closed for a new one", t->sock, TAP_CONNS, conns[pick].name);
    count.closed_conns++;
    close_conn(&conns[pick]);
    return pick;
}

static int serve_socket(struct tap *t)
{
    static struct conn conns[TAP_CONNS];
    struct pollfd pfd[TAP_CONNS + 1];
    struct stat st;
    ino_t ino = 0;
    int lfd = listen_on(t->sock, &ino), i, serial = 0;

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
        t->clock_ns = mono_ns();
        if (r > 0 && (pfd[0].revents & POLLIN)) {
            int cfd, k;
            for (k = 0; k < TAP_ACCEPTS && (cfd = accept(lfd, NULL, NULL)) >= 0; k++) {
                fcntl(cfd, F_SETFD, FD_CLOEXEC);
                fcntl(cfd, F_SETFL, O_NONBLOCK);
                i = free_slot(t, conns);
                if (!conns[i].buf && !(conns[i].buf = malloc(CONN_BUF))) {
                    report(t, "%s: out of memory for a writer", t->sock);
                    close(cfd);
                    continue;
                }
                conns[i].fd = cfd;
                conns[i].len = 0;
                conns[i].opened_ns = conns[i].last_ns = t->clock_ns;
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
            c->last_ns = t->clock_ns;
            if (take_frames(t, c) != 0)
                close_conn(c);
        }
        for (i = 0; i < TAP_CONNS; i++)
            if (conns[i].fd >= 0 && timed_out(&conns[i], t->clock_ns)) {
                report(t, "%s: %s", conns[i].name,
                       conns[i].fs.state != IDNG_FSTRM_IN_DATA
                           ? "no handshake within " IDNG_STR(TAP_HANDSHAKE_S) " s: closed"
                           : "stopped inside a frame for " IDNG_STR(TAP_STALL_S) " s: closed");
                count.closed_conns++;
                close_conn(&conns[i]);
            }
        now = wall_ns();
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
    /* Only our own socket: another tap may have replaced a path we left. */
    if (ino && lstat(t->sock, &st) == 0 && st.st_ino == ino)
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
            {"other_messages",
             "dnstap messages not logged: of other types than CLIENT_QUERY "
             "and CLIENT_RESPONSE (resolver, auth, forwarder ...), or sent "
             "without their DNS message.",
             count.other_messages},
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
            {"closed",
             "Writer connections the tap closed: no handshake in time, stopped "
             "inside a frame, or the oldest when all slots were taken.",
             count.closed_conns},
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
            "connections=%llu closed=%llu\n",
            count.frames, count.messages, count.lines, count.unanswered, count.unmatched,
            idng_logfile_dropped(t->out) + idng_logfile_errors(t->out), count.malformed_frames,
            count.malformed_messages, count.malformed_dns, count.connections, count.closed_conns);
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
          "                         (default: the settings' tap-stats-file; never the\n"
          "                         module's stats-file)\n"
          "  --stats-interval SECS  (default: the settings' stats-interval)\n"
          "  --wait SECS            how long a query waits for its response (default 5)\n"
          "\n"
          "Exit status: 0 done; 1 malformed frames or messages were counted (-r); 2 the\n"
          "input cannot be read, is not Frame Streams, or a usage error.\n",
          f);
}

/* The command line as given, before the settings file is read. */
struct tap_args {
    struct tap *t;
    const char *conf_path, *fmt;
    int have_interval;
};

/* --stats-interval SECS, --wait SECS. */
static int tap_seconds(void *ctx, const struct idng_opt *opt, const char *value)
{
    struct tap_args *a = ctx;
    int interval = opt->id == 1;

    if (idng_opt_uint("tap", opt->name, value, 0, interval ? IDNG_CONF_STATS_MAX : 3600,
                      interval ? &a->t->stats_interval : &a->t->wait_s)
        != 0)
        return 2;
    a->have_interval |= interval;
    return -1;
}

/* The options into a; returns -1 to go on, or the exit status. */
static int parse_args(int argc, char **argv, struct tap_args *a)
{
    struct tap *t = a->t;
    const struct idng_opt opts[] = {
        {.short_name = 'u', .val = IDNG_OPT_NEXT, .arg = "SOCKET", .store = &t->sock},
        {.short_name = 'r', .val = IDNG_OPT_NEXT, .arg = "FILE", .store = &t->file},
        {.short_name = 'w', .val = IDNG_OPT_NEXT, .arg = "FILE", .store = &t->out_path},
        {.name = "--conf", .val = IDNG_OPT_NEXT, .arg = "FILE", .store = &a->conf_path},
        {.name = "--format", .val = IDNG_OPT_NEXT, .arg = "text|json", .store = &a->fmt},
        {.name = "--stats-file", .val = IDNG_OPT_NEXT, .arg = "FILE", .store = &t->stats_file},
        {.name = "--stats-interval", .val = IDNG_OPT_NEXT, .arg = "SECS", .fn = tap_seconds,
         .id = 1},
        {.name = "--wait", .val = IDNG_OPT_NEXT, .arg = "SECS", .fn = tap_seconds},
    };
    const struct idng_optspec spec = {.cmd = "tap",
                                      .opts = opts,
                                      .nopts = sizeof opts / sizeof opts[0],
                                      .ctx = a,
                                      .usage = usage};
    int n;

    return idng_opts_parse(&spec, argc, argv, &n);
}

int idng_tap_main(int argc, char **argv)
{
    struct tap t;
    struct tap_args args = {&t, NULL, NULL, 0};
    const char *conf_path, *fmt;
    int i, rc;
    unsigned long long lost;
    struct idng_logfile_opts o = {0};
    char err[8192];

    memset(&t, 0, sizeof t);
    t.wait_s = 5;
    if ((rc = parse_args(argc, argv, &args)) >= 0)
        return rc;
    conf_path = args.conf_path;
    fmt = args.fmt;
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
    /* The settings' stats-file and log-file are the module's: the tap
     * writes its counters to tap-stats-file (or --stats-file) and its lines
     * to -w, never over the module's. */
    if (!t.stats_file)
        t.stats_file = t.conf.tap_stats_file;
    {
        const struct {
            const char *opt, *path;
        } mine[] = {{"--stats-file", t.stats_file}, {"-w", t.out_path}};
        const struct {
            const char *key, *path;
        } theirs[] = {{"stats-file", t.conf.stats_file},
                      {"log-file", t.conf.log_file},
                      {"protect-file", t.conf.protect_file}};
        size_t m, k;
        for (m = 0; m < 2; m++)
            for (k = 0; k < 3; k++)
                if (idng_conf_same_file(mine[m].path, theirs[k].path)) {
                    fprintf(stderr,
                            "idnguard tap: %s '%s' is the %s of %s: the tap needs files of "
                            "its own (tap-stats-file: for its counters)\n",
                            mine[m].opt, mine[m].path, theirs[k].key, conf_path);
                    idng_conf_free(&t.conf);
                    return 2;
                }
    }
    if (!args.have_interval)
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
    seed_hash();
    t.clock_ns = t.file ? 0 : mono_ns();
    t.next_stats_ns = wall_ns() + (long long)t.stats_interval * NS;
    rc = t.file ? read_file(&t) : serve_socket(&t);
    expire(&t, 1);
    idng_logfile_flush(t.out); /* every line written: the counters are final */
    lost = idng_logfile_dropped(t.out) + idng_logfile_errors(t.out);
    if (t.stats_file)
        write_stats(&t);
    summary(&t);
    idng_logfile_close(t.out);
    idng_conf_free(&t.conf);
    /* A file read with something lost or broken does not exit 0. */
    if (rc == 0 && t.file && (count.malformed_frames || count.malformed_messages || lost))
        rc = 1;
    return rc;
}
